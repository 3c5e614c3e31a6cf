"""Op families. Importing this package registers every op and installs Tensor's operators."""

"""`function`: tracing Python into graphs."""

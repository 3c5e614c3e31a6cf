"""TensorFlow's protocol buffer messages, defined in this project (see `schema`).

Importing a module of this package imports the ``protobuf`` runtime; nothing
imports them when eagerflow itself is imported.
"""

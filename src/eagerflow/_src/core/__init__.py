"""Core types: dtypes, shapes, tensors, variables, errors, context and dispatch."""

"""Graphs built by tracing, and their execution."""

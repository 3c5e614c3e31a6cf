"""Saving Keras models and weights: `.keras` archives and safetensors weight files."""

"""Automatic differentiation: the tape, `GradientTape`, backprop and custom gradients."""

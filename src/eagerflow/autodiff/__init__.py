"""Automatic differentiation (``tf.autodiff``)."""
from eagerflow._src.autodiff.tape import GradientTape  # noqa: F401

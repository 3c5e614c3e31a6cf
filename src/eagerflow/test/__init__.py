"""Testing utilities (``tf.test``)."""
from eagerflow._src.autodiff.gradient_checker import compute_gradient  # noqa: F401

"""Ragged tensors (``tf.RaggedTensor``, ``tf.ragged``): rows of different lengths, made of
ordinary tensors."""
from eagerflow._src.ragged import ragged_tensor  # noqa: F401  (registers its op)
from eagerflow._src.ragged import ragged_ops  # noqa: F401
from eagerflow._src.ragged import ragged_dispatch  # noqa: F401  (registers the dispatcher)
from eagerflow._src.ragged import ragged_string_ops  # noqa: F401  (registers its ops)
from eagerflow._src.ragged import ragged_kernels  # noqa: F401  (registers its ops)

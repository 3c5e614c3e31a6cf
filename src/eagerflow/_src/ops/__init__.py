"""Op families. Importing this package registers every op and installs Tensor's operators.

The families load first, each importing only families below it; then `late` gets an attribute
per module of this package, through which a family reaches the ones above it when it runs (see
late.py).
"""
from eagerflow._src.ops import fused_batch_norm_ops  # noqa: F401  (registers its ops)
from eagerflow._src.ops import training_ops  # noqa: F401  (registers its ops)
from eagerflow._src.ops import partition_ops  # noqa: F401  (registers its ops)
from eagerflow._src.ops import signal_ops  # noqa: F401  (registers its ops)
from eagerflow._src.ops import (  # every other module, then the namespace they reach up through
    array_ops, bitwise_ops, cast_ops, confusion_matrix, conv_ops, debugging_ops, float_math,
    fused_ops, indexed_slices, linalg_ops, list_ops, logging_ops, math_ops, nn_ops, overloads,
    philox, random_ops, reduction_ops, shape_rules, slicing, string_ops, top_k_order, variable_ops,
    wrappers)
from eagerflow._src.ops import late

for _module in (array_ops, bitwise_ops, cast_ops, confusion_matrix, conv_ops, debugging_ops,
                float_math, fused_batch_norm_ops, fused_ops, indexed_slices, linalg_ops, list_ops,
                logging_ops, math_ops, nn_ops, overloads, partition_ops, philox, random_ops,
                reduction_ops, shape_rules, signal_ops, slicing, string_ops, top_k_order,
                training_ops, variable_ops, wrappers):
    setattr(late, _module.__name__.rpartition(".")[2], _module)
del _module

"""Op families. Importing this package registers every op and installs Tensor's operators.

The families load first, each importing only families below it; then `late` gets an attribute
per module of this package, through which a family reaches the ones above it when it runs (see
late.py).
"""
from eagerflow._src.ops import fused_batch_norm_ops  # noqa: F401  (registers its ops)
from eagerflow._src.ops import training_ops  # noqa: F401  (registers its ops)
from eagerflow._src.ops import image_ops  # noqa: F401  (registers its ops)
from eagerflow._src.ops import image_codecs  # noqa: F401  (registers its ops)
from eagerflow._src.ops import partition_ops  # noqa: F401  (registers its ops)
from eagerflow._src.ops import signal_ops  # noqa: F401  (registers its ops)
from eagerflow._src.ops import rnn_ops  # noqa: F401  (registers its ops)
from eagerflow._src.ops import sparse_tensor  # noqa: F401  (registers its ops)
from eagerflow._src.ops import parsing_ops  # noqa: F401  (registers its ops)
from eagerflow._src.ops import io_ops  # noqa: F401  (registers its ops)
from eagerflow._src.ops import image_color_ops  # noqa: F401  (registers its ops)
from eagerflow._src.ops import image_metrics_ops  # noqa: F401  (registers its ops)
from eagerflow._src.ops import audio_ops  # noqa: F401  (registers its ops)
from eagerflow._src.ops import fingerprint_ops  # noqa: F401  (registers its ops)
from eagerflow._src.ops import lookup_ops  # noqa: F401  (registers its ops)
from eagerflow._src.ops import sparse_ops  # noqa: F401  (registers its ops)
from eagerflow._src.ops import set_ops  # noqa: F401  (registers its ops)
from eagerflow._src.ops import data_flow_ops  # noqa: F401  (registers its ops)
from eagerflow._src.ops import accumulator_ops  # noqa: F401  (registers its ops)
from eagerflow._src.ops import (  # every other module, then the namespace they reach up through
    array_ops, bitwise_ops, cast_ops, confusion_matrix, conv_ops, debugging_ops, float_math,
    fused_ops, half_sums, indexed_slices, linalg_ops, list_ops, logging_ops, math_ops, nn_ops, overloads,
    philox, random_ops, reduction_ops, shape_rules, slicing, string_ops, top_k_order, variable_ops,
    wrappers)
from eagerflow._src.ops import composite_ops, init_ops, spectral_ops  # noqa: F401
from eagerflow._src.ops import ctc_ops  # noqa: F401  (registers its ops)
from eagerflow._src.ops import (  # noqa: F401  (register their ops)
    fractional_pool_ops, isotonic_ops, morphology_ops)
from eagerflow._src.ops import (  # noqa: F401
    candidate_sampling_ops, critical_section_ops, edit_distance_ops, linear_operator, linear_operator_structured,
    re2_syntax, unicode_scripts)
from eagerflow._src.ops import dlpack, file_system, proto_ops, tensor_util  # noqa: F401
from eagerflow._src.ops import quantization_ops  # noqa: F401  (registers its ops)
from eagerflow._src.ops import extension_type, numpy_ops  # noqa: F401
from eagerflow._src.ops import late

# Importing a submodule makes it an attribute of this package: `late` gets each of them.
for _name, _module in list(globals().items()):
    if getattr(_module, "__name__", None) == f"{__name__}.{_name}" and _module is not late:
        setattr(late, _name, _module)
del _name, _module

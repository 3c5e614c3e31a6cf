"""Op families. Importing this package registers every op and installs Tensor's operators."""
from eagerflow._src.ops import fused_batch_norm_ops  # noqa: F401  (registers its ops)
from eagerflow._src.ops import training_ops  # noqa: F401  (registers its ops)
from eagerflow._src.ops import partition_ops  # noqa: F401  (registers its ops)
from eagerflow._src.ops import signal_ops  # noqa: F401  (registers its ops)

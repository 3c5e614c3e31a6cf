"""``tf.config.threading``."""
from eagerflow._src.core.config import (  # noqa: F401
    get_inter_op_parallelism_threads, get_intra_op_parallelism_threads,
    set_inter_op_parallelism_threads, set_intra_op_parallelism_threads)

"""``tf.random.experimental``: generators and stateless seed and shuffle utilities."""
from eagerflow._src.ops.random_ops import (  # noqa: F401
    Algorithm, Generator, create_rng_state, get_global_generator, index_shuffle,
    set_global_generator, stateless_shuffle)
from eagerflow._src.ops.random_ops import fold_in as stateless_fold_in  # noqa: F401
from eagerflow._src.ops.random_ops import split as stateless_split  # noqa: F401

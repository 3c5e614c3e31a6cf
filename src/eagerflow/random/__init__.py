"""Random numbers with TF's seeding semantics (``tf.random``)."""
from eagerflow._src.ops.random_ops import (  # noqa: F401
    Algorithm, Generator, categorical, create_rng_state, fold_in, gamma, get_global_generator,
    normal, poisson, set_global_generator, set_seed, shuffle, split, stateless_binomial,
    stateless_categorical, stateless_gamma, stateless_normal,
    stateless_parameterized_truncated_normal, stateless_poisson, stateless_truncated_normal,
    stateless_uniform, truncated_normal, uniform)
from eagerflow.random import experimental  # noqa: F401

"""Seeding every random number source a Keras program uses.

>>> tf.keras.utils.set_random_seed(42)
"""
import random

import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.keras import backend
from eagerflow._src.ops.random_ops import set_seed


@export("keras.utils.set_random_seed")
def set_random_seed(seed):
    """Seeds Python's `random`, NumPy's global generator, ``tf.random`` and the generator
    that unseeded initializers draw their seeds from, with `seed`.

    >>> tf.keras.utils.set_random_seed(1); a = random.random(), np.random.rand()
    >>> tf.keras.utils.set_random_seed(1); a == (random.random(), np.random.rand())
    True
    """
    if not isinstance(seed, int):
        raise ValueError("Expected `seed` argument to be an integer. "
                         f"Received: seed={seed} (of type {type(seed)})")
    random.seed(seed)
    np.random.seed(seed)
    set_seed(seed)
    backend._SEED_GENERATOR.generator = random.Random(seed)

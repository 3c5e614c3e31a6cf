"""Keras's global settings and helpers (``tf.keras.backend``): float type, epsilon,
image layout, layer-name counters, the learning phase and the random generators of
initializers and noise layers.

>>> floatx()
'float32'
>>> get_uid("dense"), get_uid("dense")
(1, 2)
"""
import collections
import random
import threading

import numpy as np

from eagerflow._src.core import dtypes as _dtypes
from eagerflow._src.core.tensor import Tensor
from eagerflow._src.graph import control_flow
from eagerflow._src.ops import random_ops

_FLOATX = "float32"
_EPSILON = 1e-7
_IMAGE_DATA_FORMAT = "channels_last"
_state = threading.local()
# `keras.utils.set_random_seed` puts a `random.Random` here: the seeds of unseeded
# initializers come from it (else from Python's global `random`).
_SEED_GENERATOR = threading.local()


def floatx():
    """The default float type of weights and inputs, as a string (``'float32'``)."""
    return _FLOATX


def set_floatx(value):
    """Sets the default float type: ``'float16'``, ``'bfloat16'``, ``'float32'`` or ``'float64'``."""
    global _FLOATX
    accepted = ("float16", "bfloat16", "float32", "float64")
    if value not in accepted:
        raise ValueError(f"Unknown `floatx` value: {value}. Expected one of {set(accepted)}")
    _FLOATX = str(value)


def epsilon():
    """The fuzz factor added to denominators (1e-7)."""
    return _EPSILON


def set_epsilon(value):
    global _EPSILON
    _EPSILON = value


def image_data_format():
    """``'channels_last'`` (the default) or ``'channels_first'``."""
    return _IMAGE_DATA_FORMAT


def set_image_data_format(data_format):
    global _IMAGE_DATA_FORMAT
    if data_format not in ("channels_last", "channels_first"):
        raise ValueError(f"The `data_format` argument must be one of {{'channels_first', "
                         f"'channels_last'}}. Received: data_format={data_format}")
    _IMAGE_DATA_FORMAT = str(data_format)


def normalize_data_format(value):
    """`value` lower-cased and checked, defaulting to `image_data_format()`."""
    if value is None:
        return image_data_format()
    data_format = value.lower()
    if data_format not in ("channels_first", "channels_last"):
        raise ValueError(f'The `data_format` argument must be one of "channels_first", '
                         f'"channels_last". Received: {value}')
    return data_format


def _uids():
    if not hasattr(_state, "uids"):
        _state.uids = collections.defaultdict(int)
    return _state.uids


def get_uid(prefix=""):
    """1, 2, 3, ... for successive calls with the same `prefix` (layer names ``dense_1``...)."""
    uids = _uids()
    uids[prefix] += 1
    return uids[prefix]


def reset_uids():
    _uids().clear()


def clear_session():
    """Forgets layer-name counters (the next Dense is ``dense`` again) and the learning phase."""
    reset_uids()
    _state.learning_phase = None
    from eagerflow._src.keras.engine import keras_tensor  # noqa: PLC0415 (the engine uses this module)
    keras_tensor.reset_graph()


def learning_phase():
    """0 (inference) or 1 (training) when set, else 0."""
    phase = getattr(_state, "learning_phase", None)
    return 0 if phase is None else phase


def global_learning_phase():
    """The phase set by `set_learning_phase`, or None."""
    return getattr(_state, "learning_phase", None)


def set_learning_phase(value):
    if value not in (0, 1):
        raise ValueError("Expected learning phase to be 0 or 1.")
    _state.learning_phase = value


def in_train_phase(x, alt, training=None):
    """`x` while training, else `alt` (either may be a zero-argument callable).

    A tensor `training` decides when the graph runs (a `cond`); None means the
    learning phase.
    """
    if training is None:
        training = learning_phase()
    if isinstance(training, Tensor):
        return control_flow.cond(training, x if callable(x) else lambda: x,
                                 alt if callable(alt) else lambda: alt)
    chosen = x if training else alt
    return chosen() if callable(chosen) else chosen


def in_test_phase(x, alt, training=None):
    """`x` in inference, else `alt` (see `in_train_phase`)."""
    return in_train_phase(alt, x, training)


def int_shape(x):
    """The static shape of `x` as a tuple of ints and Nones."""
    shape = x.shape
    return tuple(shape.as_list()) if hasattr(shape, "as_list") else tuple(shape)


def ndim(x):
    return len(int_shape(x))


def dtype(x):
    """`x`'s dtype name (``'float32'``)."""
    return _dtypes.as_dtype(x.dtype).name


def count_params(x):
    """The number of scalars in variable or tensor `x`."""
    return int(np.prod(int_shape(x)))


def get_value(x):
    """`x` as a NumPy value."""
    return x.numpy()


def batch_get_value(tensors):
    return [get_value(x) for x in tensors]


def set_value(x, value):
    """Assigns NumPy `value` to variable `x`."""
    x.assign(np.asarray(value, dtype=_dtypes.as_dtype(x.dtype).as_numpy_dtype))


def batch_set_value(tuples):
    for x, value in tuples:
        set_value(x, value)


def cast_to_floatx(x):
    """`x` as a NumPy array of the `floatx()` type."""
    return np.asarray(x, dtype=_FLOATX)



class RandomGenerator:
    """The random numbers of an initializer or layer, given its `seed` (or None).

    `rng_type` ``"stateless"`` (initializers): stateless ops keyed by ``[seed, 0]``, an
    unseeded generator taking its seed at first use from the generator that
    `keras.utils.set_random_seed` makes (else from Python's `random`), so each call gives
    the same values. ``"legacy_stateful"`` (layers, the default): the global-seed ops with
    op seed `seed`, counting up by one at every call.

    >>> RandomGenerator(0, "stateless").random_uniform((2,)).numpy()
    array([0.21101546, 0.70601   ], dtype=float32)
    """

    def __init__(self, seed=None, rng_type="legacy_stateful"):
        if rng_type not in ("stateless", "legacy_stateful"):
            raise ValueError(f'Invalid `rng_type` received. Valid `rng_type` are ["stateless", '
                             f'"legacy_stateful"]. Got: {rng_type}')
        self._seed, self._stateless = seed, rng_type == "stateless"

    def make_seed_for_stateless_op(self):
        """``[seed, 0]``, the seed drawn at the first call when none was given."""
        if self._seed is None:
            source = getattr(_SEED_GENERATOR, "generator", None) or random
            self._seed = source.randint(1, int(1e9))
        return [self._seed, 0]

    def make_legacy_seed(self):
        """The op seed of the next stateful call: `seed`, then ``seed + 1``, ...; or None."""
        if self._seed is None:
            return None
        seed, self._seed = self._seed, self._seed + 1
        return seed

    def _draw(self, stateless, stateful, nonce, **kwargs):
        if not self._stateless:
            return stateful(seed=self.make_legacy_seed(), **kwargs)
        seed = self.make_seed_for_stateless_op()
        if nonce:
            seed = random_ops.fold_in(seed, nonce)
        return stateless(seed=seed, **kwargs)

    def random_normal(self, shape, mean=0.0, stddev=1.0, dtype=None, nonce=None):
        return self._draw(random_ops.stateless_normal, random_ops.normal, nonce, shape=shape,
                          mean=mean, stddev=stddev, dtype=dtype or floatx())

    def random_uniform(self, shape, minval=0.0, maxval=None, dtype=None, nonce=None):
        return self._draw(random_ops.stateless_uniform, random_ops.uniform, nonce, shape=shape,
                          minval=minval, maxval=maxval, dtype=dtype or floatx())

    def truncated_normal(self, shape, mean=0.0, stddev=1.0, dtype=None, nonce=None):
        return self._draw(random_ops.stateless_truncated_normal, random_ops.truncated_normal,
                          nonce, shape=shape, mean=mean, stddev=stddev, dtype=dtype or floatx())

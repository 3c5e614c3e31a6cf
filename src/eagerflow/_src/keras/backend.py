"""Keras's global settings and helpers (``tf.keras.backend``): float type, epsilon,
image layout, layer-name counters, the learning phase and the random generators of
initializers and noise layers.

>>> tf.keras.backend.floatx()
'float32'
>>> tf.keras.backend.get_uid("dense"), tf.keras.backend.get_uid("dense")
(1, 2)
"""
import builtins
import collections
import contextlib
import itertools
import random
import sys
import threading
import warnings

import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.compat import graph_mode as _graph_mode, session as _session
from eagerflow._src.core import context as _context
from eagerflow._src.core import dtypes as _dtypes, nest as _nest
from eagerflow._src.core.context import init_scope
from eagerflow._src.core.convert import constant as _constant, is_tensor as _is_tensor
from eagerflow._src.core.tensor import Tensor
from eagerflow._src.core.variables import Variable
from eagerflow._src.graph import control_flow
from eagerflow._src.ops import (array_ops, cast_ops, linalg_ops, logging_ops, math_ops, nn_ops,
                                random_ops, reduction_ops)
from eagerflow._src.ops import conv_ops, ctc_ops, image_ops, sparse_ops, sparse_tensor
from eagerflow._src.ops import fused_batch_norm_ops
from eagerflow._src.graph import functional_ops
from eagerflow._src.keras import late
from eagerflow._src.ops import wrappers
from eagerflow._src.ragged.ragged_tensor import RaggedTensor

_FLOATX = "float32"


def as_tensor(value, dtype=None):
    """`value` as a tensor; a ragged tensor stays one (of `dtype`), for the TF functions the
    backend calls on it to dispatch, as tf_keras's backend runs on ragged tensors."""
    if isinstance(value, RaggedTensor):
        return value if dtype is None else cast_ops.cast(value, dtype)
    return wrappers.as_tensor(value, dtype)


_EPSILON = 1e-7
_IMAGE_DATA_FORMAT = "channels_last"
_state = threading.local()
# `keras.utils.set_random_seed` puts a `random.Random` here: the seeds of unseeded
# initializers come from it (else from Python's global `random`).
_SEED_GENERATOR = threading.local()
# The scratch graph that functional-API tensors live in, made by engine/keras_tensor.py when
# first needed; it is kept here so that `clear_session` can start a new one.
scratch_graph = None


@export("keras.backend.floatx")
def floatx():
    """The default float type of weights and inputs, as a string (``'float32'``)."""
    return _FLOATX


_random_generator = {"enabled": False}


@export("keras.backend.experimental.enable_tf_random_generator")
def enable_tf_random_generator():
    """Marks Keras's random layers as drawing from `tf.random.Generator`s (a setting read
    back by `is_tf_random_generator_enabled`; off by default, as in tf_keras)."""
    _random_generator["enabled"] = True


@export("keras.backend.experimental.disable_tf_random_generator")
def disable_tf_random_generator():
    """Undoes `enable_tf_random_generator`."""
    _random_generator["enabled"] = False


@export("keras.backend.experimental.is_tf_random_generator_enabled")
def is_tf_random_generator_enabled():
    """Whether `enable_tf_random_generator` is in effect.

    >>> tf.keras.backend.experimental.is_tf_random_generator_enabled()
    False
    """
    return _random_generator["enabled"]


@export("keras.backend.set_floatx")
def set_floatx(value):
    """Sets the default float type: ``'float16'``, ``'bfloat16'``, ``'float32'`` or
    ``'float64'``."""
    global _FLOATX
    accepted = ("float16", "bfloat16", "float32", "float64")
    if not isinstance(value, str) or value not in accepted:  # (a DType is refused, as in TF)
        raise ValueError(f"Unknown `floatx` value: {value}. Expected one of {set(accepted)}")
    _FLOATX = str(value)


@export("keras.backend.epsilon")
def epsilon():
    """The fuzz factor added to denominators (1e-7)."""
    return _EPSILON


@export("keras.backend.set_epsilon")
def set_epsilon(value):
    global _EPSILON
    _EPSILON = value


@export("keras.backend.image_data_format")
def image_data_format():
    """``'channels_last'`` (the default) or ``'channels_first'``."""
    return _IMAGE_DATA_FORMAT


@export("keras.backend.set_image_data_format")
def set_image_data_format(data_format):
    global _IMAGE_DATA_FORMAT
    if data_format not in ("channels_last", "channels_first"):
        raise ValueError(f"Unknown `data_format`: {data_format}. Expected one of "
                         f"{{'channels_last', 'channels_first'}}")
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
    ctx = _context.get()
    graph = ctx.graph
    if getattr(graph, "building_function", True) is False:  # a TF 1 graph counts its own
        return graph.__dict__.setdefault("_keras_uids", collections.defaultdict(int))
    separate = getattr(_state, "separate", None)
    if separate is not None:
        return separate
    if ctx.new_variables is not None:
        # A function being traced (its init scopes too) counts its own names from scratch,
        # as TF counts them per function graph: a layer made while `fit` traces its step is
        # ``dense`` whatever layers exist outside.
        return _trace_uids(ctx.new_variables)
    if not hasattr(_state, "uids"):
        _state.uids = collections.defaultdict(int)
    return _state.uids


def _trace_uids(trace):
    """The name counters of the trace whose new variables go to `trace` (the few latest
    traces' are kept, by the identity of that list)."""
    traces = _state.__dict__.setdefault("traces", collections.OrderedDict())
    found = traces.get(id(trace))
    if found is None or found[0] is not trace:
        found = traces[id(trace)] = (trace, collections.defaultdict(int))
        while len(traces) > 16:
            traces.popitem(last=False)
    return found[1]


@export("keras.backend.get_uid")
def get_uid(prefix=""):
    """1, 2, 3, ... for successive calls with the same `prefix` (layer names ``dense_1``...)."""
    uids = _uids()
    uids[prefix] += 1
    return uids[prefix]


def unique_object_name(name, zero_based=True):
    """A default layer name: `name`, then ``name_1``, ... (``name_1`` first unless
    `zero_based`). Counted in `get_uid`'s map but under their own keys, as in TF, so
    ``get_uid("dense")`` and Dense's names do not advance each other."""
    uids = _uids()
    key = ("", name)
    uids[key] += 1
    n = uids[key] - 1 if zero_based else uids[key]
    return f"{name}_{n}" if n else name


@export("keras.backend.reset_uids")
def reset_uids():
    _uids().clear()


@contextlib.contextmanager
def separate_uids():
    """Names generated inside count from scratch, and leave the outer counters alone (Keras
    counts the names made while a layer is connected into a functional model apart)."""
    outer = getattr(_state, "separate", None)
    _state.separate = collections.defaultdict(int)
    try:
        yield
    finally:
        _state.separate = outer


@export("keras.backend.clear_session")
def clear_session():
    """Forgets layer-name counters (the next Dense is ``dense`` again) and the learning phase;
    in TF 1's graph mode also the graph and the Keras session, as TF 1's Keras: a new default
    graph, and a new session on it when one is next asked for."""
    global scratch_graph
    reset_uids()
    _state.learning_phase = None
    scratch_graph = None  # input names count from 1 again
    if _graph_mode.v1_graph() is not None:
        _graph_mode.reset_default_graph()
        session = _session._keras_session[0] if _session._keras_session else None
        if session is not None:
            session.close()
        _session.set_session(None)


@export("keras.backend.learning_phase")
def learning_phase():
    """0 (inference) or 1 (training) when set, else 0; in TF 1's graph mode, unset, the
    graph's boolean ``keras_learning_phase`` tensor (False unless fed)."""
    phase = getattr(_state, "learning_phase", None)
    if phase is None:
        graph = _graph_mode.v1_graph()
        if graph is not None:
            tensor = graph.__dict__.get("_keras_learning_phase")
            if tensor is None:
                with graph.as_default(), graph.control_dependencies(None):
                    tensor = _graph_mode.placeholder_with_default(
                        False, shape=(), name="keras_learning_phase")
                graph.__dict__["_keras_learning_phase"] = tensor
            return tensor
    return learning_phase_value()


def building_v1_graph():
    """Whether ops build into a TF 1 graph now (TF 1's graph mode, outside any function)."""
    return _graph_mode.v1_graph() is not None


def out_of_collections(variable):
    """`variable`, kept out of its TF 1 graph's variable collections (a metric's total, the
    steps per execution): Keras's own state, which TF 1's Keras keeps out of them, so that a
    ``Saver()`` saves the model's weights alone."""
    graph = getattr(variable, "graph", None)
    if graph is not None and _graph_mode.is_v1(graph):
        for key in (_graph_mode.GraphKeys.GLOBAL_VARIABLES,
                    _graph_mode.GraphKeys.TRAINABLE_VARIABLES):
            kept = graph.get_collection_ref(key)
            kept[:] = [v for v in kept if v is not variable]
        # (which the Keras session still initializes)
        graph.__dict__.setdefault("_keras_variables", []).append(variable)
    return variable


def learning_phase_value():
    """0 (inference) or 1 (training) when set, else 0."""
    phase = getattr(_state, "learning_phase", None)
    return 0 if phase is None else phase


def global_learning_phase():
    """The phase set by `set_learning_phase`, or None."""
    return getattr(_state, "learning_phase", None)


_PHASE_DEPRECATION = ("is deprecated and will be removed after 2020-10-11. To update it, "
                      "simply pass a True/False value to the `training` argument of the "
                      "`__call__` method of your layer or model.")


@export("keras.backend.set_learning_phase")
def set_learning_phase(value):
    """Deprecated, as in tf_keras (which warns): sets the phase that layers called without
    `training` use (0: inference, 1: training)."""
    warnings.warn(f"`tf.keras.backend.set_learning_phase` {_PHASE_DEPRECATION}", stacklevel=2)
    _set_learning_phase(value)


def _set_learning_phase(value):
    if value not in (0, 1):
        raise ValueError("Expected learning phase to be 0 or 1.")
    _state.learning_phase = value


@export("keras.backend.in_train_phase")
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


@export("keras.backend.in_test_phase")
def in_test_phase(x, alt, training=None):
    """`x` in inference, else `alt` (see `in_train_phase`)."""
    return in_train_phase(alt, x, training)


@export("keras.backend.int_shape")
def int_shape(x):
    """The static shape of `x` as a tuple of ints and Nones."""
    shape = x.shape
    return tuple(shape.as_list()) if hasattr(shape, "as_list") else tuple(shape)


@export("keras.backend.ndim")
def ndim(x):
    return len(int_shape(x))


@export("keras.backend.dtype")
def dtype(x):
    """`x`'s dtype name (``'float32'``)."""
    return _dtypes.as_dtype(x.dtype).name


@export("keras.backend.count_params")
def count_params(x):
    """The number of scalars in variable or tensor `x`."""
    return int(np.prod(int_shape(x)))


# the TF 1 graphs of the Keras loops running now (eagerly, their steps in the Keras session)
session_loops = []


def _graph_session():
    """The Keras session, while a TF 1 graph is being built (outside any function) or a
    Keras loop runs its steps in the session (its callbacks reading weights)."""
    if _graph_mode.v1_graph() is None and not (session_loops and _context.get().graph is None):
        return None
    return _session.get_session()


@export("keras.backend.get_value")
def get_value(x):
    """`x` as a NumPy value (in TF 1's graph mode, its value in the Keras session); a value
    that is no tensor or variable is returned as it is, as Keras does (an optimizer's
    learning rate schedule, a Python number).

    >>> tf.keras.backend.get_value(tf.Variable(0.5)), tf.keras.backend.get_value(2)
    (np.float32(0.5), 2)
    """
    if not _is_tensor(x):
        return x
    return batch_get_value([x])[0]


@export("keras.backend.batch_get_value")
def batch_get_value(tensors):
    """The NumPy values of `tensors` (one session run in TF 1's graph mode)."""
    session = _graph_session()
    if session is not None and tensors:
        return session.run(list(tensors))
    return [x.numpy() for x in tensors]


@export("keras.backend.set_value")
def set_value(x, value):
    """Assigns NumPy `value` to variable `x`."""
    batch_set_value([(x, value)])


@export("keras.backend.batch_set_value")
def batch_set_value(tuples):
    """Assigns each pair's NumPy value to its variable (one session run in TF 1's graph
    mode, through placeholders made once per variable)."""
    session = _graph_session()
    feeds, ops = {}, []
    for x, value in tuples:
        value = np.asarray(value, dtype=_dtypes.as_dtype(x.dtype).as_numpy_dtype)
        if session is None:
            x.assign(value)
            continue
        assign = x.__dict__.get("_keras_assign")
        if assign is None:
            with session.graph.as_default():
                holder = _graph_mode.placeholder(x.dtype, x.shape)
                assign = (holder, x.assign(holder, read_value=False))
            x.__dict__["_keras_assign"] = assign
        feeds[assign[0]] = value
        ops.append(assign[1])
    if ops:
        session.run(ops, feed_dict=feeds)


@export("keras.backend.cast_to_floatx")
def cast_to_floatx(x):
    """`x` as a NumPy array of the `floatx()` type."""
    return np.asarray(x, dtype=_FLOATX)


# -- tensor functions (``K.sum``, ``K.clip``, ...), as the Keras 2 backend defines them -------
@export("keras.backend.variable")
def variable(value, dtype=None, name=None, constraint=None):
    """A variable holding `value`, of `dtype` (default `floatx()`)."""
    return Variable(value, dtype=_dtypes.as_dtype(dtype or floatx()), name=name,
                    constraint=constraint)


@export("keras.backend.constant")
def constant(value, dtype=None, shape=None, name=None):
    """A constant tensor of `dtype` (default `floatx()`)."""
    return _constant(value, dtype=dtype or floatx(), shape=shape, name=name)


def _filled(fill, shape, dtype, name):
    # a fully defined shape gives a variable, as in Keras 2
    with init_scope():
        value = fill(shape=shape, dtype=_dtypes.as_dtype(dtype or floatx()), name=name)
        if builtins.all(value.shape.as_list()):
            return variable(value, dtype=dtype, name=name)
        return value


@export("keras.backend.zeros")
def zeros(shape, dtype=None, name=None):
    """A variable of zeros (a tensor when `shape` has a zero dimension)."""
    return _filled(array_ops.zeros, shape, dtype, name)


@export("keras.backend.ones")
def ones(shape, dtype=None, name=None):
    """A variable of ones (a tensor when `shape` has a zero dimension)."""
    return _filled(array_ops.ones, shape, dtype, name)


@export("keras.backend.eval")
def eval(x):  # noqa: A001 (Keras's name)
    """The value of tensor or variable `x`, as NumPy."""
    return get_value(x)


@export("keras.backend.shape")
def shape(x):
    """The dynamic shape of `x`, an int32 tensor."""
    return array_ops.shape(x)


def _float_if_bool(x):
    x = as_tensor(x)
    return cast_ops.cast(x, floatx()) if x.dtype == _dtypes.bool else x


@export("keras.backend.sum")
def sum(x, axis=None, keepdims=False):  # noqa: A001
    return reduction_ops.reduce_sum(x, axis, keepdims)


@export("keras.backend.prod")
def prod(x, axis=None, keepdims=False):
    return reduction_ops.reduce_prod(x, axis, keepdims)


@export("keras.backend.max")
def max(x, axis=None, keepdims=False):  # noqa: A001
    return reduction_ops.reduce_max(x, axis, keepdims)


@export("keras.backend.min")
def min(x, axis=None, keepdims=False):  # noqa: A001
    return reduction_ops.reduce_min(x, axis, keepdims)


@export("keras.backend.mean")
def mean(x, axis=None, keepdims=False):
    """The mean of `x` (booleans counted as `floatx()` ones and zeros)."""
    return reduction_ops.reduce_mean(_float_if_bool(x), axis, keepdims)


@export("keras.backend.var")
def var(x, axis=None, keepdims=False):
    return reduction_ops.reduce_variance(_float_if_bool(x), axis=axis, keepdims=keepdims)


@export("keras.backend.std")
def std(x, axis=None, keepdims=False):
    return reduction_ops.reduce_std(_float_if_bool(x), axis=axis, keepdims=keepdims)


@export("keras.backend.any")
def any(x, axis=None, keepdims=False):  # noqa: A001
    return reduction_ops.reduce_any(cast_ops.cast(x, _dtypes.bool), axis, keepdims)


@export("keras.backend.all")
def all(x, axis=None, keepdims=False):  # noqa: A001
    return reduction_ops.reduce_all(cast_ops.cast(x, _dtypes.bool), axis, keepdims)


@export("keras.backend.argmax")
def argmax(x, axis=-1):
    return reduction_ops.argmax(x, axis)


@export("keras.backend.argmin")
def argmin(x, axis=-1):
    return reduction_ops.argmin(x, axis)


@export("keras.backend.cumsum")
def cumsum(x, axis=0):
    return reduction_ops.cumsum(x, axis=axis)


@export("keras.backend.cumprod")
def cumprod(x, axis=0):
    return reduction_ops.cumprod(x, axis=axis)


@export("keras.backend.sqrt")
def sqrt(x):
    """The square root of `x`, negative values read as 0."""
    x = as_tensor(x)
    return math_ops.sqrt(math_ops.maximum(x, _constant(0.0, x.dtype)))


@export("keras.backend.clip")
def clip(x, min_value, max_value):
    """`x` clipped to [min_value, max_value]; None means unbounded, and a `max_value`
    below `min_value` is raised to it."""
    numbers = (int, float)
    if isinstance(min_value, numbers) and isinstance(max_value, numbers) \
            and max_value < min_value:
        max_value = min_value
    min_value = -np.inf if min_value is None else min_value
    max_value = np.inf if max_value is None else max_value
    return reduction_ops.clip_by_value(x, min_value, max_value)


# the backend's names for the ops themselves
square = math_ops.square
abs = math_ops.abs  # noqa: A001
exp = math_ops.exp
log = math_ops.log
round = math_ops.round  # noqa: A001
sign = math_ops.sign
sin = math_ops.sin
cos = math_ops.cos
equal = math_ops.equal
not_equal = math_ops.not_equal
greater = math_ops.greater
greater_equal = math_ops.greater_equal
less = math_ops.less
less_equal = math_ops.less_equal
maximum = math_ops.maximum
minimum = math_ops.minimum
sigmoid = math_ops.sigmoid
tanh = math_ops.tanh
cast = cast_ops.cast


# The backend's own signatures of these ops (Keras code passes their arguments by these
# names: ``K.pow(x, a=2)``, ``K.gather(reference, indices)``).
@export("keras.backend.pow")
def pow(x, a):  # noqa: A001
    """`x` to the power `a`, element-wise."""
    return math_ops.pow(x, a)


@export("keras.backend.softplus")
def softplus(x):
    """log(exp(x) + 1), element-wise."""
    return math_ops.softplus(x)


@export("keras.backend.softsign")
def softsign(x):
    """x / (abs(x) + 1), element-wise."""
    return nn_ops.softsign(x)


@export("keras.backend.zeros_like")
def zeros_like(x, dtype=None, name=None):
    """Zeros of `x`'s shape, and of its dtype unless `dtype` is given."""
    return array_ops.zeros_like(x, dtype=dtype, name=name)


@export("keras.backend.ones_like")
def ones_like(x, dtype=None, name=None):
    """Ones of `x`'s shape, and of its dtype unless `dtype` is given."""
    return array_ops.ones_like(x, dtype=dtype, name=name)


@export("keras.backend.gather")
def gather(reference, indices):
    """The slices of `reference` at `indices` along its first axis."""
    return array_ops.gather(reference, indices)


@export("keras.backend.reshape")
def reshape(x, shape):
    """`x` reshaped to `shape`."""
    return array_ops.reshape(x, shape)


@export("keras.backend.transpose")
def transpose(x):
    """`x` with its dimensions reversed."""
    return array_ops.transpose(x)


@export("keras.backend.stop_gradient")
def stop_gradient(variables):
    """`variables` (a tensor, or a list or tuple of them) cut from the gradient."""
    if isinstance(variables, (list, tuple)):
        return map(cast_ops.stop_gradient, variables)
    return cast_ops.stop_gradient(variables)


@export("keras.backend.permute_dimensions")
def permute_dimensions(x, pattern):
    return array_ops.transpose(x, perm=pattern)


@export("keras.backend.expand_dims")
def expand_dims(x, axis=-1):
    return array_ops.expand_dims(x, axis)


@export("keras.backend.squeeze")
def squeeze(x, axis):
    return array_ops.squeeze(x, [axis])


@export("keras.backend.stack")
def stack(x, axis=0):
    return array_ops.stack(x, axis=axis)


@export("keras.backend.concatenate")
def concatenate(tensors, axis=-1):
    """`tensors` joined along `axis` (a negative axis counts from the first one's rank)."""
    if axis < 0:
        rank = ndim(tensors[0])
        axis = axis % rank if rank else 0
    if tensors and builtins.all(is_sparse(x) for x in tensors):  # (sparse stays sparse)
        return sparse_ops.concat(axis, list(tensors))
    if builtins.any(is_sparse(x) for x in tensors):  # (mixed with dense: all dense)
        tensors = [to_dense(x) for x in tensors]
    return array_ops.concat(list(tensors), axis)


@export("keras.backend.flatten")
def flatten(x):
    """`x` as a vector."""
    return array_ops.reshape(x, [-1])


@export("keras.backend.batch_flatten")
def batch_flatten(x):
    """`x` as a matrix of one row per sample."""
    return array_ops.reshape(x, array_ops.stack([-1, prod(shape(x)[1:])]))


@export("keras.backend.tile")
def tile(x, n):
    return array_ops.tile(x, [n] if isinstance(n, int) else n)


@export("keras.backend.repeat")
def repeat(x, n):
    """Matrix `x` (samples, dim) repeated `n` times along a new axis 1."""
    if ndim(x) != 2:
        raise AssertionError()
    return array_ops.tile(array_ops.expand_dims(x, 1), array_ops.stack([1, n, 1]))


@export("keras.backend.repeat_elements")
def repeat_elements(x, rep, axis):
    """Each slice of `x` along `axis` repeated `rep` times in place (``np.repeat``)."""
    return array_ops.repeat(x, rep, axis=axis)


@export("keras.backend.one_hot")
def one_hot(indices, num_classes):
    return array_ops.one_hot(indices, depth=num_classes, axis=-1)


@export("keras.backend.dot")
def dot(x, y):
    """The matrix product, contracting the last axis of `x` with the second to last of `y`
    (so ``(2, 3, 4) . (4, 5)`` is ``(2, 3, 5)`` and ``(3, 4) . (2, 4, 5)`` is ``(3, 2, 5)``).
    A sparse matrix `x` multiplies a dense `y` (``tf.sparse.sparse_dense_matmul``)."""
    if is_sparse(x):
        return sparse_ops.sparse_dense_matmul(x, y)
    x, y = as_tensor(x), as_tensor(y)
    if ndim(x) <= 2 and ndim(y) <= 2:
        return linalg_ops.matmul(x, y)
    x_shape, y_shape = _known_dims(x), _known_dims(y)
    order = list(range(ndim(y)))
    order = [order.pop(-2)] + order
    xt = array_ops.reshape(x, [-1, x_shape[-1]])
    yt = array_ops.reshape(array_ops.transpose(y, perm=order), [y_shape[-2], -1])
    return array_ops.reshape(linalg_ops.matmul(xt, yt),
                             x_shape[:-1] + y_shape[:-2] + y_shape[-1:])


def _known_dims(x):
    """`x`'s dimensions: ints where static, scalar tensors elsewhere."""
    dynamic = array_ops.shape(x)
    return [dynamic[i] if d is None else d for i, d in enumerate(int_shape(x))]


@export("keras.backend.switch")
def switch(condition, then_expression, else_expression):
    """`then_expression` where `condition`, else `else_expression`: a `cond` for a scalar
    condition (either may be a callable), an elementwise choice otherwise."""
    condition = as_tensor(condition)
    if condition.dtype != _dtypes.bool:
        condition = cast_ops.cast(condition, _dtypes.bool)
    if not ndim(condition):
        return control_flow.cond(condition, _thunk(then_expression), _thunk(else_expression))
    then_expression, else_expression = (as_tensor(_thunk(e)()) for e in (then_expression,
                                                                         else_expression))
    cond_ndim, expr_ndim = ndim(condition), ndim(then_expression)
    if cond_ndim > expr_ndim:
        raise ValueError(f"Rank of `condition` should be less than or equal to rank of "
                         f"`then_expression` and `else_expression`. ndim(condition)="
                         f"{cond_ndim}, ndim(then_expression)={expr_ndim}")
    if cond_ndim > 1:
        # a condition of rank 2 or more gets trailing axes, tiled to the expressions' shape
        # (a vector condition is broadcast as it is, against the expressions' last axis)
        cond_shape = array_ops.concat([shape(condition), [1] * (expr_ndim - cond_ndim)], 0)
        condition = array_ops.reshape(condition, cond_shape)
        expr_shape = shape(then_expression)
        condition = array_ops.tile(condition, array_ops.where(
            expr_shape - cond_shape > 0, expr_shape, array_ops.ones_like(expr_shape)))
    return array_ops.where(condition, then_expression, else_expression)


def _thunk(value):
    return value if callable(value) else lambda: value


def with_logits(output, logits):
    """`output`, remembering `logits` as ``_keras_logits`` (crossentropy losses use them)."""
    # On symbolic results too, as TF: a crossentropy then takes these logits whatever the
    # activation (a binary one of a softmax's output uses the softmax's logits). In graphs
    # losses also find the logits of `tf.nn.softmax` and `tf.sigmoid` from the producing op.
    try:
        output._keras_logits = logits
    except AttributeError:  # (a tensor taking no attributes)
        pass
    return output


@export("keras.backend.relu")
def relu(x, alpha=0.0, max_value=None, threshold=0.0):
    """The Keras rectifier: leaky below `threshold`, capped at `max_value`."""
    if isinstance(x, RaggedTensor):  # (elementwise: on the flat values)
        return x.with_flat_values(relu(x.flat_values, alpha, max_value, threshold))
    x = as_tensor(x)
    if alpha != 0.0:
        if max_value is None and threshold == 0:
            return nn_ops.leaky_relu(x, alpha=float(alpha))  # (a NumPy scalar from a layer)
        below = math_ops.negative(x)
        negative_part = nn_ops.relu(math_ops.add(below, threshold) if threshold != 0 else below)
    clip_max = max_value is not None
    if threshold != 0:
        x = math_ops.multiply(x, cast_ops.cast(math_ops.greater(x, threshold), x.dtype))
    elif max_value == 6:
        x = nn_ops.relu6(x)  # one op for the common relu6
        clip_max = False
    else:
        x = nn_ops.relu(x)
    if clip_max:
        x = reduction_ops.clip_by_value(x, as_tensor(0, x.dtype), as_tensor(max_value, x.dtype))
    if alpha != 0.0:
        x = math_ops.subtract(x, math_ops.multiply(as_tensor(alpha, x.dtype), negative_part))
    return x


@export("keras.backend.elu")
def elu(x, alpha=1.0):
    """x if x > 0 else alpha * (exp(x) - 1)."""
    x = as_tensor(x)
    res = nn_ops.elu(x)
    if alpha == 1:
        return res
    return array_ops.where(math_ops.greater(x, 0), res, math_ops.multiply(alpha, res))


@export("keras.backend.softmax")
def softmax(x, axis=-1):
    """exp(x) / sum(exp(x)) along `axis` (an int or a tuple of ints); `x` of rank 2 or more."""
    x = as_tensor(x)
    rank = x.shape.rank
    if rank is not None and rank <= 1:
        raise ValueError(f"Cannot apply softmax to a tensor that is 1D. Received input: {x}")
    if isinstance(axis, int):
        output = nn_ops.softmax(x, axis=axis)
    else:
        exps = math_ops.exp(math_ops.subtract(x, reduction_ops.reduce_max(x, axis,
                                                                          keepdims=True)))
        output = math_ops.truediv(exps, reduction_ops.reduce_sum(exps, axis, keepdims=True))
    return with_logits(output, x)


@export("keras.backend.hard_sigmoid")
def hard_sigmoid(x):
    """Keras 2's piecewise-linear sigmoid: clip(0.2 * x + 0.5, 0, 1)."""
    x = as_tensor(x)
    x = math_ops.add(math_ops.multiply(x, as_tensor(0.2, x.dtype)), as_tensor(0.5, x.dtype))
    return reduction_ops.clip_by_value(x, 0.0, 1.0)


@export("keras.backend.l2_normalize")
def l2_normalize(x, axis=None):
    return reduction_ops.l2_normalize(x, axis=axis)


@export("keras.backend.in_top_k")
def in_top_k(predictions, targets, k):
    """Whether each target is among the `k` largest of its row of `predictions`."""
    return nn_ops.in_top_k(targets, predictions, k)


@export("keras.backend.bias_add")
def bias_add(x, bias, data_format=None):
    """`x` plus `bias` along its channels axis; a bias of rank above 1 is reshaped (not
    transposed) to put its last axis first with channels-first data, as Keras 2 does."""
    data_format = normalize_data_format(data_format)
    bias = as_tensor(bias)
    bias_shape = int_shape(bias)
    if len(bias_shape) != 1 and len(bias_shape) != ndim(x) - 1:
        raise ValueError(f"Unexpected bias dimensions {len(bias_shape)}. Expected it to be 1 "
                         f"or {ndim(x) - 1} dimensions")
    if len(bias_shape) == 1:
        return nn_ops.bias_add(x, bias, data_format="NCHW" if data_format == "channels_first"
                               and ndim(x) > 2 else "NHWC")
    if data_format == "channels_first":
        return math_ops.add(x, array_ops.reshape(bias, (1, bias_shape[-1]) + bias_shape[:-1]))
    return math_ops.add(x, array_ops.reshape(bias, (1,) + bias_shape))


def _seed_or_draw(seed, high=10e6):
    # unseeded calls take a seed below `high` from NumPy's global generator, as Keras 2
    # does (its random variables draw theirs below 10e8)
    return np.random.randint(high) if seed is None else seed


@export("keras.backend.random_normal")
def random_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    return random_ops.normal(shape, mean=mean, stddev=stddev, dtype=dtype or floatx(),
                             seed=_seed_or_draw(seed))


@export("keras.backend.random_uniform")
def random_uniform(shape, minval=0.0, maxval=1.0, dtype=None, seed=None):
    return random_ops.uniform(shape, minval=minval, maxval=maxval, dtype=dtype or floatx(),
                              seed=_seed_or_draw(seed))


@export("keras.backend.truncated_normal")
def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    return random_ops.truncated_normal(shape, mean=mean, stddev=stddev,
                                       dtype=dtype or floatx(), seed=_seed_or_draw(seed))


@export("keras.backend.dropout")
def dropout(x, level, noise_shape=None, seed=None):
    """`x` with a fraction `level` of its entries zeroed, the others scaled up."""
    return nn_ops.dropout(x, rate=level, noise_shape=noise_shape, seed=_seed_or_draw(seed))


@export("keras.backend.print_tensor")
def print_tensor(x, message="", summarize=3):
    """Prints `message` and `x` to standard output; returns `x`."""
    logging_ops.print(message, x, output_stream=sys.stdout, summarize=summarize)
    return x


@export("keras.backend.update")
def update(x, new_x):
    return x.assign(new_x)


@export("keras.backend.update_add")
def update_add(x, increment):
    return x.assign_add(increment)


@export("keras.backend.update_sub")
def update_sub(x, decrement):
    return x.assign_sub(decrement)


@export("keras.backend.moving_average_update")
def moving_average_update(x, value, momentum):
    """``x -= (x - value) * (1 - momentum)``."""
    momentum = cast_ops.cast(momentum, x.dtype)
    value = cast_ops.cast(value, x.dtype)
    return x.assign_sub((x - value) * (1 - momentum))



class RandomGenerator:
    """The random numbers of an initializer or layer, given its `seed` (or None).

    `rng_type` ``"stateless"`` (initializers): stateless ops keyed by ``[seed, 0]``, an
    unseeded generator taking its seed at first use from the generator that
    `keras.utils.set_random_seed` makes (else from Python's `random`), so each call gives
    the same values. ``"stateful"`` (the image augmentation layers): a `tf.random.Generator`
    made from that seed at first use, each draw taking the next of its values.
    ``"legacy_stateful"``: the global-seed ops with op seed `seed`, counting up by one at
    every call. None (layers): ``"stateful"`` if `enable_tf_random_generator` is in effect
    when it is made, else ``"legacy_stateful"``.

    >>> RandomGenerator(0, "stateless").random_uniform((2,)).numpy()
    array([0.21101546, 0.70601   ], dtype=float32)
    """

    def __init__(self, seed=None, rng_type=None):
        if rng_type is None:
            rng_type = "stateful" if is_tf_random_generator_enabled() else "legacy_stateful"
        if rng_type not in ("stateless", "stateful", "legacy_stateful"):
            raise ValueError(f'Invalid `rng_type` received. Valid `rng_type` are ["stateless", '
                             f'"stateful", "legacy_stateful"]. Got: {rng_type}')
        self._seed, self._rng_type, self._generator = seed, rng_type, None

    def _user_seed(self):
        if self._seed is None:
            source = getattr(_SEED_GENERATOR, "generator", None) or random
            self._seed = source.randint(1, int(1e9))
        return self._seed

    def _stateful(self):
        if self._generator is None:
            self._generator = random_ops.Generator.from_seed(
                self._user_seed(), alg=random_ops.Algorithm.AUTO_SELECT)
        return self._generator

    def _maybe_init(self):
        """Takes the seed now (and makes the stateful type's generator), as a random layer's
        build does in tf_keras: an unseeded layer's seed comes from `set_random_seed`'s
        sequence in the order layers are built."""
        if self._rng_type == "stateful":
            self._stateful()
        elif self._rng_type == "stateless":
            self._user_seed()

    def make_seed_for_stateless_op(self):
        """``[seed, 0]`` (the seed drawn at the first call when none was given); with a
        stateful generator, a fresh pair from it at each call."""
        if self._rng_type == "stateful":
            return self._stateful().make_seeds()[:, 0]
        return [self._user_seed(), 0]

    def make_legacy_seed(self):
        """The op seed of the next stateful call: `seed`, then ``seed + 1``, ...; or None."""
        if self._seed is None:
            return None
        seed, self._seed = self._seed, self._seed + 1
        return seed

    def _draw(self, name, nonce, **kwargs):
        if self._rng_type == "stateful":
            return getattr(self._stateful(), name)(**kwargs)
        if self._rng_type == "legacy_stateful":
            return getattr(random_ops, name)(seed=self.make_legacy_seed(), **kwargs)
        seed = self.make_seed_for_stateless_op()
        if nonce:
            seed = random_ops.fold_in(seed, nonce)
        return getattr(random_ops, "stateless_" + name)(seed=seed, **kwargs)

    def dropout(self, inputs, rate, noise_shape=None):
        """`inputs` with a `rate` fraction zeroed (and the rest scaled), its mask drawn as
        this generator's type draws."""
        if self._rng_type == "stateful":
            return nn_ops.general_dropout(inputs, rate=rate, noise_shape=noise_shape,
                                          uniform_sampler=self._stateful().uniform)
        if self._rng_type == "stateless":
            return nn_ops.stateless_dropout(inputs, rate=rate, noise_shape=noise_shape,
                                            seed=self.make_seed_for_stateless_op())
        return nn_ops.dropout(inputs, rate=rate, noise_shape=noise_shape,
                              seed=self.make_legacy_seed())

    def random_normal(self, shape, mean=0.0, stddev=1.0, dtype=None, nonce=None):
        return self._draw("normal", nonce, shape=shape, mean=mean, stddev=stddev,
                          dtype=dtype or floatx())

    def random_uniform(self, shape, minval=0.0, maxval=None, dtype=None, nonce=None):
        return self._draw("uniform", nonce, shape=shape, minval=minval, maxval=maxval,
                          dtype=dtype or floatx())

    def truncated_normal(self, shape, mean=0.0, stddev=1.0, dtype=None, nonce=None):
        return self._draw("truncated_normal", nonce, shape=shape, mean=mean, stddev=stddev,
                          dtype=dtype or floatx())


# -- the rest of tf_keras's backend: losses, convolutions, padding, loops ---------------------

@export("keras.backend.backend")
def backend():
    """The name of the backend: always ``"tensorflow"``."""
    return "tensorflow"


@export("keras.backend.arange")
def arange(start, stop=None, step=1, dtype="int32"):
    """``tf.range`` whose count starts at 0 when `start` is negative and `stop` is None."""
    if stop is None and not isinstance(start, Tensor) and start < 0:
        start = 0
    return cast_ops.cast(array_ops.range(start, limit=stop, delta=step, dtype="int32"), dtype)


@export("keras.backend.eye")
def eye(size, dtype=None, name=None):
    """A variable holding the `size` x `size` identity matrix."""
    dtype = _dtypes.as_dtype(dtype or floatx())
    return variable(array_ops.eye(size, dtype=dtype), dtype, name)


@export("keras.backend.reverse")
def reverse(x, axes):
    """`x` reversed along `axes` (an int or a list)."""
    return array_ops.reverse(x, [axes] if isinstance(axes, int) else list(axes))


@export("keras.backend.batch_dot")
def batch_dot(x, y, axes=None):
    """The dot product of each batch item of `x` and `y` over `axes` (default: the last axis of
    `x` and the second-to-last of `y`); a result of rank 1 is made (batch, 1).

    >>> tf.keras.backend.batch_dot(tf.ones((32, 20, 1)), tf.ones((32, 30, 20)),
    ...                            axes=(1, 2)).shape
    TensorShape([32, 1, 30])
    """
    x, y = as_tensor(x), as_tensor(y)
    x_rank, y_rank = x.shape.rank, y.shape.rank
    if x_rank < 2 or y_rank < 2:
        raise ValueError(f"Cannot do batch_dot on inputs with rank < 2. Received inputs with "
                         f"tf.shapes {x.shape} and {y.shape}.")
    if axes is None:
        axes = [x_rank - 1, y_rank - 2]
    elif isinstance(axes, int):
        axes = [axes, axes]
    axes = [a % rank if a < 0 else a for a, rank in zip(axes, (x_rank, y_rank))]
    if 0 in axes:
        raise ValueError("Cannot perform batch_dot over axis 0. If your inputs are not batched, "
                         "add a dummy batch dimension to your inputs using K.expand_dims(x, 0)")
    if None not in (x.shape[axes[0]], y.shape[axes[1]]) \
            and x.shape[axes[0]] != y.shape[axes[1]]:
        raise ValueError(f"Cannot do batch_dot on inputs with shapes {x.shape} and {y.shape} "
                         f"with axes={axes}. x.shape[{axes[0]}] != y.shape[{axes[1]}] "
                         f"({x.shape[axes[0]]} != {y.shape[axes[1]]}).")
    # contracted axis last in x and first (after the batch) in y, the rest flattened
    x = array_ops.transpose(x, [a for a in range(x_rank) if a != axes[0]] + [axes[0]])
    y = array_ops.transpose(y, [0, axes[1]] + [a for a in range(1, y_rank) if a != axes[1]])
    x_shape, y_shape = array_ops.shape(x), array_ops.shape(y)
    x_rest, y_rest = x_shape[1:-1], y_shape[2:]
    product = linalg_ops.matmul(
        array_ops.reshape(x, array_ops.stack([x_shape[0], -1, x_shape[-1]])),
        array_ops.reshape(y, array_ops.stack([y_shape[0], y_shape[1], -1])))
    result = array_ops.reshape(product, array_ops.concat([x_shape[:1], x_rest, y_rest], 0))
    static = x.shape[:-1].concatenate(y.shape[2:])
    result.set_shape(static)
    if static.rank == 1:
        result = array_ops.expand_dims(result, 1)
    return result


def _losses():
    return late.losses  # a tier above


@export("keras.backend.categorical_crossentropy")
def categorical_crossentropy(target, output, from_logits=False, axis=-1):
    """The crossentropy between one-hot `target` and the probabilities (or logits) `output`,
    summed over `axis`."""
    return _losses().categorical_crossentropy(target, output, from_logits=from_logits,
                                              axis=axis)


@export("keras.backend.sparse_categorical_crossentropy")
def sparse_categorical_crossentropy(target, output, from_logits=False, axis=-1,
                                    ignore_class=None):
    """The crossentropy between integer labels `target` and the class scores `output`."""
    return _losses().sparse_categorical_crossentropy(target, output, from_logits=from_logits,
                                                     axis=axis, ignore_class=ignore_class)


@export("keras.backend.binary_crossentropy")
def binary_crossentropy(target, output, from_logits=False):
    """The elementwise crossentropy between `target` and the probabilities (or logits)
    `output` (no mean, unlike `keras.losses.binary_crossentropy`)."""
    losses = _losses()
    target, output = losses._inputs(target, output)
    return losses._binary_crossentropy(target, output, from_logits)


@export("keras.backend.categorical_focal_crossentropy")
def categorical_focal_crossentropy(target, output, alpha=0.25, gamma=2.0, from_logits=False,
                                   axis=-1):
    return _losses().categorical_focal_crossentropy(target, output, alpha=alpha, gamma=gamma,
                                                    from_logits=from_logits, axis=axis)


@export("keras.backend.binary_focal_crossentropy")
def binary_focal_crossentropy(target, output, apply_class_balancing=False, alpha=0.25,
                              gamma=2.0, from_logits=False):
    """The elementwise focal crossentropy (no mean)."""
    losses = _losses()
    target, output = losses._inputs(target, output)
    probs = math_ops.sigmoid(output) if from_logits else output
    p_t = target * probs + (1 - target) * (1 - probs)
    focal = math_ops.pow(1.0 - p_t, gamma) * losses._binary_crossentropy(target, output,
                                                                         from_logits)
    if apply_class_balancing:
        focal = (target * alpha + (1 - target) * (1.0 - alpha)) * focal
    return focal


def _channels_last(x, data_format, rank):
    """`x` in channels_last order (transposed when `data_format` is channels_first)."""
    if normalize_data_format(data_format) == "channels_first":
        return array_ops.transpose(x, [0, *range(2, rank), 1])
    return x


def _back(x, data_format, rank):
    if normalize_data_format(data_format) == "channels_first":
        return array_ops.transpose(x, [0, rank - 1, *range(1, rank - 1)])
    return x


def _check_format(data_format):
    data_format = normalize_data_format(data_format)
    if data_format not in ("channels_first", "channels_last"):
        raise ValueError(f"Unknown data_format: {data_format}")
    return data_format


def _conv(x, kernel, rank, strides, padding, data_format, dilation_rate):
    data_format = _check_format(data_format)
    if padding not in ("same", "valid", "causal"):
        raise ValueError(f"Unknown padding: {padding}")
    x = _channels_last(as_tensor(x), data_format, rank + 2)
    if padding == "causal":
        left = dilation_rate[0] * (as_tensor(kernel).shape[0] - 1)
        x = temporal_padding(x, (left, 0))
        padding = "valid"
    out = conv_ops.convolution(x, kernel, strides=strides, padding=padding.upper(),
                               dilations=dilation_rate)
    return _back(out, data_format, rank + 2)


def _tuple(value, n):
    return tuple(value) if isinstance(value, (list, tuple)) else (value,) * n


@export("keras.backend.conv1d")
def conv1d(x, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
    return _conv(x, kernel, 1, _tuple(strides, 1), padding, data_format,
                 _tuple(dilation_rate, 1))


@export("keras.backend.conv2d")
def conv2d(x, kernel, strides=(1, 1), padding="valid", data_format=None,
           dilation_rate=(1, 1)):
    """A 2-D convolution of `x` with `kernel` (kh, kw, in, out)."""
    return _conv(x, kernel, 2, _tuple(strides, 2), padding, data_format,
                 _tuple(dilation_rate, 2))


@export("keras.backend.conv3d")
def conv3d(x, kernel, strides=(1, 1, 1), padding="valid", data_format=None,
           dilation_rate=(1, 1, 1)):
    return _conv(x, kernel, 3, _tuple(strides, 3), padding, data_format,
                 _tuple(dilation_rate, 3))


def check_square_dilation(dilation_rate):
    """Raises tf_keras's ValueError unless a 2-D transposed convolution's two dilation
    rates are equal (tf_keras dilates it through `atrous_conv2d_transpose`, one rate)."""
    rows, cols = _tuple(dilation_rate, 2)
    if rows != cols:
        raise ValueError(f"Expected the 2 dimensions of the `dilation_rate` argument to be "
                         f"equal to each other. Received: dilation_rate={dilation_rate}")


@export("keras.backend.conv2d_transpose")
def conv2d_transpose(x, kernel, output_shape, strides=(1, 1), padding="valid",
                     data_format=None, dilation_rate=(1, 1)):
    data_format = _check_format(data_format)
    check_square_dilation(dilation_rate)
    x = _channels_last(as_tensor(x), data_format, 4)
    output_shape = list(output_shape)
    if data_format == "channels_first":
        output_shape = [output_shape[0], output_shape[2], output_shape[3], output_shape[1]]
    if output_shape[0] is None:
        output_shape[0] = array_ops.shape(x)[0]
    out = conv_ops.conv2d_transpose(x, kernel, array_ops.stack(output_shape),
                                    (1,) + _tuple(strides, 2) + (1,), padding=padding.upper(),
                                    dilations=_tuple(dilation_rate, 2))
    return _back(out, data_format, 4)


@export("keras.backend.depthwise_conv2d")
def depthwise_conv2d(x, depthwise_kernel, strides=(1, 1), padding="valid", data_format=None,
                     dilation_rate=(1, 1)):
    data_format = _check_format(data_format)
    x = _channels_last(as_tensor(x), data_format, 4)
    out = conv_ops.depthwise_conv2d(x, depthwise_kernel, (1,) + _tuple(strides, 2) + (1,),
                                    padding.upper(), dilations=_tuple(dilation_rate, 2))
    return _back(out, data_format, 4)


@export("keras.backend.separable_conv2d")
def separable_conv2d(x, depthwise_kernel, pointwise_kernel, strides=(1, 1), padding="valid",
                     data_format=None, dilation_rate=(1, 1)):
    data_format = _check_format(data_format)
    x = _channels_last(as_tensor(x), data_format, 4)
    out = conv_ops.separable_conv2d(x, depthwise_kernel, pointwise_kernel,
                                    (1,) + _tuple(strides, 2) + (1,), padding.upper(),
                                    dilations=_tuple(dilation_rate, 2))
    return _back(out, data_format, 4)


def _pool(x, pool_size, strides, padding, data_format, pool_mode, rank):
    data_format = _check_format(data_format)
    if padding not in ("same", "valid"):
        raise ValueError(f"Unknown padding: {padding}")
    if pool_mode not in ("max", "avg"):
        raise ValueError(f"Invalid pooling mode: {pool_mode}")
    x = _channels_last(as_tensor(x), data_format, rank + 2)
    pool = conv_ops.max_pool if pool_mode == "max" else conv_ops.avg_pool
    out = pool(x, (1,) + _tuple(pool_size, rank) + (1,), (1,) + _tuple(strides, rank) + (1,),
               padding.upper())
    return _back(out, data_format, rank + 2)


@export("keras.backend.pool2d")
def pool2d(x, pool_size, strides=(1, 1), padding="valid", data_format=None, pool_mode="max"):
    """Max (or, with `pool_mode` "avg", average) pooling of the 4-D `x`."""
    if len(pool_size) != 2:
        raise ValueError("`pool_size` must be a tuple of 2 integers.")
    if len(strides) != 2:
        raise ValueError("`strides` must be a tuple of 2 integers.")
    return _pool(x, pool_size, strides, padding, data_format, pool_mode, 2)


@export("keras.backend.pool3d")
def pool3d(x, pool_size, strides=(1, 1, 1), padding="valid", data_format=None,
           pool_mode="max"):
    return _pool(x, pool_size, strides, padding, data_format, pool_mode, 3)


@export("keras.backend.temporal_padding")
def temporal_padding(x, padding=(1, 1)):
    """`x` (batch, steps, features) with `padding` zero steps before and after."""
    if len(padding) != 2:
        raise ValueError(f"`padding` should be a tuple of length 2. Received: {padding}")
    return array_ops.pad(x, [[0, 0], list(padding), [0, 0]])


@export("keras.backend.spatial_2d_padding")
def spatial_2d_padding(x, padding=((1, 1), (1, 1)), data_format=None):
    """The 4-D `x` with zero rows and columns around its spatial dimensions."""
    data_format = _check_format(data_format)
    spatial = [list(p) for p in padding]
    pads = ([[0, 0], [0, 0]] + spatial if data_format == "channels_first"
            else [[0, 0]] + spatial + [[0, 0]])
    return array_ops.pad(x, pads)


@export("keras.backend.spatial_3d_padding")
def spatial_3d_padding(x, padding=((1, 1), (1, 1), (1, 1)), data_format=None):
    data_format = _check_format(data_format)
    spatial = [list(p) for p in padding]
    pads = ([[0, 0], [0, 0]] + spatial if data_format == "channels_first"
            else [[0, 0]] + spatial + [[0, 0]])
    return array_ops.pad(x, pads)


@export("keras.backend.resize_images")
def resize_images(x, height_factor, width_factor, data_format, interpolation="nearest"):
    """The 4-D `x` scaled up by whole factors along its rows and columns."""
    data_format = _check_format(data_format)
    x = _channels_last(as_tensor(x), data_format, 4)
    height, width = x.shape[1], x.shape[2]
    if height is None or width is None:
        # Computed as one product, as TF does, so that neither size is known statically.
        size = array_ops.shape(x)[1:3] * np.array([height_factor, width_factor], np.int32)
    else:
        size = (height * height_factor, width * width_factor)
    methods = ("area", "bicubic", "bilinear", "gaussian", "lanczos3", "lanczos5",
               "mitchellcubic", "nearest")
    if interpolation not in methods:
        names = ", ".join(f'"{method}"' for method in methods)
        raise ValueError(f"`interpolation` argument should be one of: {names}. "
                         f'Received: "{interpolation}".')
    out = image_ops.resize(x, size, method=interpolation)
    return _back(out, data_format, 4)


@export("keras.backend.resize_volumes")
def resize_volumes(x, depth_factor, height_factor, width_factor, data_format):
    """The 5-D `x` scaled up by whole factors along its three spatial axes, each element
    repeated."""
    if data_format not in ("channels_first", "channels_last"):
        raise ValueError(f"Invalid data_format: {data_format}")
    first = 2 if data_format == "channels_first" else 1
    x = as_tensor(x)
    for axis, factor in enumerate((depth_factor, height_factor, width_factor), start=first):
        x = repeat_elements(x, factor, axis)
    return x


def _local_conv(inputs, kernel, kernel_size, strides, output_shape, data_format):
    """A convolution whose filters differ at every output position (`kernel`:
    ``(positions, window * channels, filters)``): each position's window, flattened as the
    input's layout orders it, times its own filter."""
    data_format = data_format or image_data_format()
    if data_format not in ("channels_first", "channels_last"):
        raise ValueError(f"Unknown data_format: {data_format}")
    inputs = as_tensor(inputs)
    channels_first = data_format == "channels_first"
    windows = []
    for position in itertools.product(*(range(n) for n in output_shape)):
        spatial = tuple(slice(p * s, p * s + k)
                        for p, s, k in zip(position, strides, kernel_size))
        index = (slice(None), slice(None)) + spatial if channels_first else \
            (slice(None),) + spatial + (slice(None),)
        windows.append(array_ops.reshape(inputs[index], (1, -1, kernel.shape[1])))
    outputs = linalg_ops.matmul(array_ops.concat(windows, 0), kernel)  # (positions, batch, f)
    outputs = array_ops.reshape(outputs, tuple(output_shape) + (-1, kernel.shape[-1]))
    rank = len(output_shape)
    order = [rank, rank + 1, *range(rank)] if channels_first else [rank, *range(rank), rank + 1]
    return array_ops.transpose(outputs, order)


@export("keras.backend.local_conv1d")
def local_conv1d(inputs, kernel, kernel_size, strides, data_format=None):
    """`inputs` (batch, steps, channels) convolved with a separate filter at each output
    step: `kernel` is ``(output_length, kernel_size * channels, filters)``."""
    return _local_conv(inputs, as_tensor(kernel), kernel_size, strides,
                       (as_tensor(kernel).shape[0],), data_format)


@export("keras.backend.local_conv2d")
def local_conv2d(inputs, kernel, kernel_size, strides, output_shape, data_format=None):
    """`inputs` (4-D) convolved with a separate filter at each of the `output_shape` (rows,
    columns) positions: `kernel` is ``(rows * columns, window size * channels, filters)``."""
    return _local_conv(inputs, as_tensor(kernel), kernel_size, strides, output_shape,
                       data_format)


@export("keras.backend.random_bernoulli")
def random_bernoulli(shape, p=0.0, dtype=None, seed=None):
    """Ones with probability `p`, else zeros, of `dtype` (floatx by default)."""
    dtype = dtype or floatx()
    draw = random_ops.uniform(shape, dtype=dtype, seed=_seed_or_draw(seed))
    return array_ops.where(math_ops.less(draw, p), array_ops.ones(shape, dtype=dtype),
                           array_ops.zeros(shape, dtype=dtype))


@export("keras.backend.random_binomial")
def random_binomial(shape, p=0.0, dtype=None, seed=None):
    """Deprecated name of `random_bernoulli`."""
    warnings.warn("`tf.keras.backend.random_binomial` is deprecated, and will be removed in "
                  "a future version.Please use `tf.keras.backend.random_bernoulli` instead.",
                  stacklevel=2)
    return random_bernoulli(shape, p, dtype, seed)


@export("keras.backend.random_normal_variable")
def random_normal_variable(shape, mean, scale, dtype=None, name=None, seed=None):
    dtype = dtype or floatx()
    return variable(random_ops.normal(shape, mean=mean, stddev=scale, dtype=dtype,
                                      seed=_seed_or_draw(seed, 10e8)), dtype, name)


@export("keras.backend.random_uniform_variable")
def random_uniform_variable(shape, low, high, dtype=None, name=None, seed=None):
    dtype = dtype or floatx()
    return variable(random_ops.uniform(shape, minval=low, maxval=high, dtype=dtype,
                                       seed=_seed_or_draw(seed, 10e8)), dtype, name)


@export("keras.backend.is_sparse")
def is_sparse(tensor):
    return isinstance(tensor, sparse_tensor.SparseTensor)


@export("keras.backend.to_dense")
def to_dense(tensor):
    return sparse_tensor.to_dense(tensor) if is_sparse(tensor) else tensor


@export("keras.backend.map_fn")
def map_fn(fn, elems, name=None, dtype=None):
    return functional_ops.map_fn(fn, elems, name=name, dtype=dtype)


@export("keras.backend.foldl")
def foldl(fn, elems, initializer=None, name=None):
    return functional_ops.foldl(fn, elems, initializer=initializer, name=name)


@export("keras.backend.foldr")
def foldr(fn, elems, initializer=None, name=None):
    return functional_ops.foldr(fn, elems, initializer=initializer, name=name)


export("keras.backend.name_scope").export_constant(__name__, "name_scope")
name_scope = _context.name_scope


@export("keras.backend.learning_phase_scope")
@contextlib.contextmanager
def learning_phase_scope(value):
    """Within, `learning_phase()` is `value` (0 or 1)."""
    warnings.warn(f"`tf.keras.backend.learning_phase_scope` {_PHASE_DEPRECATION}", stacklevel=3)
    if value not in (0, 1):
        raise ValueError("Expected learning phase to be 0 or 1.")
    previous = learning_phase()
    _set_learning_phase(value)
    try:
        yield
    finally:
        _set_learning_phase(previous)


@export("keras.backend.rnn")
def rnn(step_function, inputs, initial_states, go_backwards=False, mask=None, constants=None,
        unroll=False, input_length=None, time_major=False, zero_output_for_mask=False,
        return_all_outputs=True):
    """Iterates ``step_function(inputs_t, states)`` over time; returns
    ``(last_output, outputs, new_states)`` (see `keras.layers.RNN`)."""
    return late.layers.recurrent.rnn(step_function, inputs, initial_states, go_backwards, mask,
                                     constants, unroll, input_length, time_major,
                                     zero_output_for_mask, return_all_outputs)


@export("keras.backend.normalize_batch_in_training")
def normalize_batch_in_training(x, gamma, beta, reduction_axes, epsilon=1e-3):
    """``(normalized x, mean, variance)`` with the batch's moments over `reduction_axes`;
    a 4-D `x` normalized per channel (axes 0, 1, 2) gives the Bessel-corrected variance,
    as the fused kernel Keras uses there."""
    x = wrappers.as_tensor(x)
    axes = [int(a) for a in reduction_axes]
    if x.shape.rank == 4 and axes == [0, 1, 2]:
        channels = x.shape[-1]
        gamma = array_ops.ones([channels], x.dtype) if gamma is None else gamma
        beta = array_ops.zeros([channels], x.dtype) if beta is None else beta
        return fused_batch_norm_ops.fused_batch_norm(x, gamma, beta, epsilon=epsilon)
    keep = sorted(axes) != list(range(x.shape.rank))[:-1]  # moments broadcast back to x
    mean, variance = nn_ops.moments(x, axes, keepdims=keep)

    def broadcast(param):
        if param is None or not keep:
            return param
        return array_ops.reshape(param, array_ops.shape(mean))
    normed = nn_ops.batch_normalization(x, mean, variance, broadcast(beta), broadcast(gamma),
                                        epsilon)
    if keep:
        mean, variance = array_ops.squeeze(mean), array_ops.squeeze(variance)
    return normed, mean, variance


@export("keras.backend.batch_normalization")
def batch_normalization(x, mean, var, beta, gamma, axis=-1, epsilon=1e-3):
    """``(x - mean) / sqrt(var + epsilon) * gamma + beta``; a 4-D `x` normalized along its
    last axis through the fused inference kernel, as Keras does."""
    x = wrappers.as_tensor(x)
    if x.shape.rank == 4 and axis in (-1, 3):
        mean, var = array_ops.reshape(mean, [-1]), array_ops.reshape(var, [-1])
        beta = array_ops.zeros_like(mean) if beta is None else array_ops.reshape(beta, [-1])
        gamma = array_ops.ones_like(mean) if gamma is None else array_ops.reshape(gamma, [-1])
        return fused_batch_norm_ops.fused_batch_norm(x, gamma, beta, mean=mean, variance=var,
                                                     epsilon=epsilon, is_training=False)[0]
    return nn_ops.batch_normalization(x, mean, var, beta, gamma, epsilon)


@export("keras.backend.placeholder")
def placeholder(shape=None, ndim=None, dtype=None, sparse=False, name=None, ragged=False):
    """A Keras input of `shape` (the batch dimension included), or of `ndim` unknown
    dimensions: what eager Keras makes of a placeholder; in TF 1's graph mode, a placeholder
    of the graph (``tf.compat.v1.placeholder``), as TF 1's Keras makes."""
    if sparse and ragged:
        raise ValueError("Cannot set both sparse and ragged to True when creating a "
                         "placeholder.")
    if not shape and ndim:
        shape = (None,) * ndim
    dtype = dtype or floatx()
    if _graph_mode.v1_graph() is not None and not (sparse or ragged):
        return _graph_mode.placeholder(dtype, shape, name)
    return late.engine.input_layer.Input(batch_shape=list(shape), dtype=dtype,
                                         sparse=sparse, ragged=ragged, name=name)


@export("keras.backend.manual_variable_initialization")
def manual_variable_initialization(value):
    """Kept for old programs: variables here always hold their initial values at once."""
    global _MANUAL_VAR_INIT
    _MANUAL_VAR_INIT = value


_MANUAL_VAR_INIT = False


@export("keras.backend.gradients")
def gradients(loss, variables):
    """`tf.gradients` of `loss` with respect to `variables` (inside a `tf.function` only)."""
    from eagerflow._src.autodiff import graph_gradients  # (only called when wanted)
    return graph_gradients.gradients(loss, variables)


@export("keras.backend.function")
def function(inputs, outputs, updates=None, name=None, **kwargs):
    """A callable mapping values of the Keras `inputs` to the values of `outputs` (NumPy
    arrays), through a functional model of them; in TF 1's graph mode, one run of the Keras
    session feeding `inputs` (any placeholders: ``learning_phase()`` too), fetching `outputs`
    and running `updates` (ops, or ``(variable, new value)`` pairs)."""
    if kwargs:
        raise ValueError(f"Invalid argument {tuple(kwargs)} passed to K.function with "
                         f"TensorFlow backend")
    if _graph_mode.v1_graph() is not None:
        return _session_function(inputs, outputs, updates)
    model = late.engine.training.Model(inputs=inputs, outputs=outputs)
    one_listed = isinstance(outputs, list) and len(outputs) == 1

    def call(model_inputs):
        if _graph_session() is not None:  # (a Keras loop's callback in TF 1's graph mode)
            outs = model.predict_on_batch(model_inputs)
            outs = [np.asarray(o)[()] for o in outs] if isinstance(outs, (list, tuple)) \
                else np.asarray(outs)[()]
            return [outs] if one_listed else outs
        outs = model(model_inputs)
        if one_listed:
            outs = [outs]
        return [o.numpy() for o in outs] if isinstance(outs, (list, tuple)) else outs.numpy()
    return call


def _session_function(inputs, outputs, updates):
    """`function` in TF 1's graph mode: a run of the Keras session. As Keras's, its inputs
    (and the values it is called with) are any structure, taken flat."""
    updates = updates or []  # (as Keras: a tensor given alone is refused by its truth)
    if not isinstance(updates, (list, tuple)):
        raise TypeError("`updates` in a TF-Keras backend function should be a list or tuple.")
    inputs = _nest.flatten(inputs)
    ops = []
    for update in updates:
        if isinstance(update, (list, tuple)):
            variable, value = update
            update = variable.assign(value, read_value=False)
        ops.append(update)
    fetched = _nest.flatten(outputs)

    def call(values):
        feeds = {x: np.asarray(v, dtype=_dtypes.as_dtype(x.dtype).as_numpy_dtype)
                 for x, v in zip(inputs, _nest.flatten(values))}
        results = _session.get_session().run((fetched, ops), feed_dict=feeds)[0]
        return _nest.pack_sequence_as(outputs, results)
    return call


# -- CTC ------------------------------------------------------------------------------------

@export("keras.backend.ctc_label_dense_to_sparse")
def ctc_label_dense_to_sparse(labels, label_lengths):
    """The first ``label_lengths[i]`` labels of each row of dense `labels`, as a
    SparseTensor of the dense shape."""
    labels = _constant(labels) if not isinstance(labels, Tensor) else labels
    lengths = array_ops.reshape(wrappers.as_tensor(label_lengths), [-1])
    mask = array_ops.sequence_mask(lengths, array_ops.shape(labels)[1])
    indices = array_ops.where(mask)
    return sparse_tensor.SparseTensor(indices, array_ops.gather_nd(labels, indices),
                                      cast_ops.cast(array_ops.shape(labels), _dtypes.int64))


@export("keras.backend.ctc_batch_cost")
def ctc_batch_cost(y_true, y_pred, input_length, label_length):
    """The CTC loss of each batch entry, ``[batch, 1]``: `y_pred` ``[batch, time, classes]``
    holds softmax outputs (the last class the blank), `y_true` the dense labels, the lengths
    ``[batch, 1]`` each."""
    y_pred = wrappers.as_tensor(y_pred)
    label_length = cast_ops.cast(array_ops.squeeze(wrappers.as_tensor(label_length), -1),
                                 _dtypes.int32)
    input_length = cast_ops.cast(array_ops.squeeze(wrappers.as_tensor(input_length), -1),
                                 _dtypes.int32)
    log_probs = math_ops.log(array_ops.transpose(y_pred, [1, 0, 2]) + epsilon())
    loss = ctc_ops.ctc_loss(y_true, log_probs, label_length, input_length,
                                 blank_index=-1)
    return array_ops.expand_dims(loss, 1)


@export("keras.backend.ctc_decode")
def ctc_decode(y_pred, input_length, greedy=True, beam_width=100, top_paths=1):
    """Decodes softmax outputs ``[batch, time, classes]`` (the last class the blank):
    ``([dense labels padded with -1, one per path], log-probabilities)``."""
    y_pred = wrappers.as_tensor(y_pred)
    log_probs = math_ops.log(array_ops.transpose(y_pred, [1, 0, 2]) + epsilon())
    input_length = cast_ops.cast(wrappers.as_tensor(input_length), _dtypes.int32)
    if greedy:
        decoded, log_prob = ctc_ops.ctc_greedy_decoder(log_probs, input_length)
    else:
        # Keras 2 decodes with TF 1's beam search, which merges a path's repeated labels
        # (a "4 blank 4" path decodes as [4]), unlike `tf.nn.ctc_beam_search_decoder`
        decoded, log_prob = ctc_ops.ctc_beam_search_decoder_v1(
            log_probs, input_length, beam_width=beam_width, top_paths=top_paths)
    batch_and_steps = cast_ops.cast(array_ops.shape(y_pred)[:2], _dtypes.int64)
    dense = [sparse_tensor.to_dense(
        sparse_tensor.SparseTensor(st.indices, st.values, batch_and_steps), default_value=-1)
        for st in decoded]
    return dense, log_prob

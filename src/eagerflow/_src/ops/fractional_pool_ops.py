"""Fractional max and average pooling: NHWC images pooled by a non-integer ratio.

Each of the height and width is cut into ``floor(size / ratio)`` windows whose bounds
(the pooling sequence, returned with the output) step by ``floor(ratio)`` or
``ceil(ratio)``: in a random order, or, with `pseudo_random`, along
``ceil(ratio * (i + u))`` for one random offset ``u``, drawn from TF's Philox stream of
the seed pair (so a seed gives TF's windows). With `overlapping`, a window also
takes the cell at its end bound. Max pooling's gradient goes to each window's first
maximum (row-major), average pooling's is shared evenly by each window's cells.

>>> out, rows, cols = tf.nn.fractional_max_pool(tf.ones([1, 10, 9, 1]), [1, 1.44, 1.73, 1],
...                                             seed=1)
>>> out.shape, rows.numpy()[[0, -1]].tolist(), cols.numpy()[[0, -1]].tolist()
(TensorShape([1, 6, 5, 1]), [0, 10], [0, 9])
"""
import collections
import math

import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import config, errors
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.core.node_forms import NodeForm, tf_args, tf_defaults, tf_nodes
from eagerflow._src.core.registry import PER_ELEMENT, batching_rules, no_gradient_entry, \
    register, register_gradient
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.ops import array_ops, philox, random_ops
from eagerflow._src.ops.wrappers import as_tensor

_TYPES = (_d.float32, _d.float64, _d.int32, _d.int64)


def _sequence(size, out, key, counter, pseudo_random):
    """The ``out + 1`` window bounds over `size` cells (0 first, `size` last), drawn as TF's
    CPU kernel draws them from the Philox stream at (`key`, `counter`), and the number of
    the stream's blocks they take."""
    if size % out == 0:  # (no draw)
        return np.arange(0, size + 1, size // out, dtype=np.int64), 0
    small = size // out
    if pseudo_random:  # bounds ceil(ratio * (i + u)) - 1, u below what keeps steps in range
        ratio = size / out
        most = min((small + 2) / ratio - 1, (size + 1 - small) / ratio - (out - 1))
        u = philox.next_double(philox.word_stream(key, counter)) * most
        inner = [math.ceil(ratio * (i + u)) - 1 for i in range(1, out)]
        return np.array([0, *inner, size], np.int64), 1
    # the longer steps first, shuffled forward: step i swaps with one of i.. at random
    steps = [small + 1] * (size % out) + [small] * (out - size % out)
    words = philox.word_stream(key, counter)
    for i in range(out - 1):
        j = i + next(words) % (out - i)
        steps[i], steps[j] = steps[j], steps[i]
    return np.concatenate([[0], np.cumsum(steps)]).astype(np.int64), (out + 3) // 4


def _windows(bounds, size, overlapping):
    """(start, stop) of each window."""
    stops = bounds[1:] + (1 if overlapping else 0)
    return list(zip(bounds[:-1], np.minimum(stops, size)))


def _pool(kind, op_name):
    def kernel(xp, value, pooling_ratio, pseudo_random, overlapping, deterministic, seed,
               seed2, stream):
        if value.ndim != 4:
            raise errors.op_error(errors.InvalidArgumentError, op_name,
                                  "tensor_in must be 4-dimensional")
        n, h, w, c = value.shape
        out_h, out_w = int(h / pooling_ratio[1]), int(w / pooling_ratio[2])
        if out_h <= 0 or out_w <= 0:
            raise errors.op_error(errors.InvalidArgumentError, op_name,
                                  f"Output size must be positive: {[n, out_h, out_w, c]}")
        if type(stream) is not int:  # an op of a graph: its state picks this run's stream
            seed, seed2, stream = stream.take(seed, seed2, 1)
        if deterministic:  # TF's Philox stream of the seed pair
            key, counter = seed, seed2 << 64
        else:
            key, counter = (int(v) for v in np.random.default_rng(
                [seed, seed2, stream]).integers(2 ** 63, size=2))
        rows, used = _sequence(h, out_h, key, counter, pseudo_random)
        cols, _ = _sequence(w, out_w, key, counter + used, pseudo_random)
        reduce = np.max if kind == "max" else np.sum
        # (separable: reduce each row window, then each column window of those)
        by_rows = np.stack([reduce(value[:, a:b], axis=1)
                            for a, b in _windows(rows, h, overlapping)], 1)
        pooled = np.stack([reduce(by_rows[:, :, a:b], axis=2)
                           for a, b in _windows(cols, w, overlapping)], 2)
        if kind == "avg":
            counts = np.outer([b - a for a, b in _windows(rows, h, overlapping)],
                              [b - a for a, b in _windows(cols, w, overlapping)])
            pooled = pooled / counts[None, :, :, None]
            if value.dtype.kind in "iu":  # TF's integer average truncates
                pooled = np.trunc(pooled)
        return pooled.astype(value.dtype), rows, cols
    return kernel


def _pool_rule(value, pooling_ratio, **_):
    if value.shape.rank is None:
        out = TensorShape([None] * 4)
    else:
        n, h, w, c = value.shape.as_list()
        out = TensorShape([n, None if h is None else int(h / pooling_ratio[1]),
                           None if w is None else int(w / pooling_ratio[2]), c])
    rows = None if out[1] is None else out[1] + 1
    cols = None if out[2] is None else out[2] + 1
    return [(out, value.dtype), (TensorShape([rows]), _d.int64),
            (TensorShape([cols]), _d.int64)]


def _max_grad_kernel(xp, orig_input, orig_output, out_backprop, row_pooling_sequence,
                     col_pooling_sequence, overlapping):
    n, h, w, c = orig_input.shape
    out = np.zeros(orig_input.shape, out_backprop.dtype)
    batch, channel = np.indices((n, c)).reshape(2, -1)
    for i, (r0, r1) in enumerate(_windows(row_pooling_sequence, h, overlapping)):
        for j, (c0, c1) in enumerate(_windows(col_pooling_sequence, w, overlapping)):
            window = orig_input[:, r0:r1, c0:c1]  # (n, rows, cols, c)
            first = window.reshape(n, -1, c).argmax(axis=1).reshape(-1)  # row-major first max
            dr, dc = np.divmod(first, c1 - c0)
            np.add.at(out, (batch, r0 + dr, c0 + dc, channel),
                      out_backprop[:, i, j].reshape(-1))
    return out


def _avg_grad_kernel(xp, orig_input_tensor_shape, out_backprop, row_pooling_sequence,
                     col_pooling_sequence, overlapping):
    n, h, w, c = (int(d) for d in orig_input_tensor_shape)
    out = np.zeros((n, h, w, c), out_backprop.dtype)
    for i, (r0, r1) in enumerate(_windows(row_pooling_sequence, h, overlapping)):
        for j, (c0, c1) in enumerate(_windows(col_pooling_sequence, w, overlapping)):
            share = out_backprop[:, i, j] / ((r1 - r0) * (c1 - c0))
            out[:, r0:r1, c0:c1] += share[:, None, None, :]
    return out


def _max_grad_rule(orig_input, *_, **__):
    return orig_input.shape, orig_input.dtype


def _avg_grad_rule(orig_input_tensor_shape, out_backprop, *_, **__):
    return TensorShape([None] * 4), out_backprop.dtype


_OUTPUTS = ("output", "row_pooling_sequence", "col_pooling_sequence")
_DEFAULTS = {"pseudo_random": False, "overlapping": False, "deterministic": False, "seed": 0,
             "seed2": 0}
_POOLS = {}
for _kind, _name in (("max", "FractionalMaxPool"), ("avg", "FractionalAvgPool")):
    _op = register(_name, _pool(_kind, _name), _pool_rule, multi=True, dtypes=_TYPES,
                   stateful=True, grad_takes_none=True)
    tf_args[_op] = ("value",)
    tf_nodes[_op] = NodeForm(outputs=_OUTPUTS, local={"stream": random_ops._OpState},
                             defaults=dict(_DEFAULTS))
    tf_defaults[_op] = dict(_DEFAULTS)
    random_ops._SAMPLES[_name] = lambda shapes, attrs: 1  # (one stream per call)
    _POOLS[_kind] = _op
_MAX_GRAD = register("FractionalMaxPoolGrad", _max_grad_kernel, _max_grad_rule,
                     tied=(0, 1, 2), dtypes=_TYPES)
_AVG_GRAD = register("FractionalAvgPoolGrad", _avg_grad_kernel, _avg_grad_rule, tied=(1,),
                     dtypes=_TYPES)
no_gradient_entry("FractionalMaxPoolGrad", "FractionalAvgPoolGrad")  # (second derivatives)
tf_args[_MAX_GRAD] = ("orig_input", "orig_output", "out_backprop", "row_pooling_sequence",
                      "col_pooling_sequence")
tf_args[_AVG_GRAD] = ("orig_input_tensor_shape", "out_backprop", "row_pooling_sequence",
                      "col_pooling_sequence")
for _op in (_MAX_GRAD, _AVG_GRAD):
    tf_nodes[_op] = NodeForm(outputs=("output",))
    tf_defaults[_op] = {"overlapping": False}
batching_rules.assign(PER_ELEMENT, _MAX_GRAD, _AVG_GRAD)


@register_gradient("FractionalMaxPool")
def _max_pool_grad(op, dy, *_):
    value, (out, rows, cols) = op.inputs[0], op.outputs
    return dispatch(_MAX_GRAD, (value, out, dy, rows, cols),
                    {"overlapping": op.attrs["overlapping"]})


@register_gradient("FractionalAvgPool")
def _avg_pool_grad(op, dy, *_):
    _, rows, cols = op.outputs
    return dispatch(_AVG_GRAD, (array_ops.shape(op.inputs[0], out_type=_d.int64), dy, rows,
                                cols), {"overlapping": op.attrs["overlapping"]})


_RESULTS = {kind: collections.namedtuple(f"Fractional{kind.title()}Pool", _OUTPUTS)
            for kind in ("max", "avg")}


def _ratio(pooling_ratio):
    ratio = np.asarray(pooling_ratio, np.float64).reshape(-1)
    if ratio.size == 1:
        ratio = np.array([1.0, ratio[0], ratio[0], 1.0])
    shown = list(pooling_ratio) if isinstance(pooling_ratio, (list, tuple)) else pooling_ratio
    if ratio.size != 4 or ratio[0] != 1.0 or ratio[3] != 1.0:
        raise ValueError(f"`pooling_ratio` should have first and last elements with value 1.0. "
                         f"Received: pooling_ratio={shown}")
    if (ratio < 1.0).any():
        raise ValueError(f"`pooling_ratio` elements should be >= 1.0. Received: "
                         f"pooling_ratio={shown}")
    return tuple(float(r) for r in ratio)


def _fractional(kind, value, pooling_ratio, pseudo_random, overlapping, seeds, name):
    """The pooling op's outputs; `seeds` the pair for the same windows at every call
    (TF's `deterministic`), or None for fresh ones."""
    op = _POOLS[kind]
    inputs = (as_tensor(value),)
    attrs = {"pooling_ratio": _ratio(pooling_ratio), "pseudo_random": bool(pseudo_random),
             "overlapping": bool(overlapping), "deterministic": seeds is not None}
    if seeds is not None:
        seeds = {"seed": int(seeds[0]), "seed2": int(seeds[1]), "stream": 0}
    else:  # fresh windows at each call: TF's op seeds (0, 0), the global seed unused (and
        # so the op seeds of the random ops after it unchanged)
        seeds = random_ops._seed_attrs_unseeded()
    return _RESULTS[kind](*dispatch(op, inputs, {**attrs, **seeds}, name))


@export("nn.fractional_max_pool")
def fractional_max_pool(value, pooling_ratio, pseudo_random=False, overlapping=False, seed=0,
                        name=None):
    """Max pooling of NHWC `value` by `pooling_ratio` (a number, or ``[1, rows, cols,
    1]``, each at least 1): ``(output, row_pooling_sequence, col_pooling_sequence)``.
    A nonzero `seed` gives the same windows at every call."""
    if not seed and config._settings["op_determinism"]:  # (TF checks only this pool)
        raise ValueError(f"tf.nn.fractional_max_pool requires a non-zero seed to be passed in "
                         f"when determinism is enabled, but got seed={seed}. Please pass in "
                         f"a non-zero seed, e.g. by passing \"seed=1\".")
    return _fractional("max", value, pooling_ratio, pseudo_random, overlapping,
                       random_ops.get_seed(seed) if seed else None, name)


@export("nn.fractional_avg_pool")
def fractional_avg_pool(value, pooling_ratio, pseudo_random=False, overlapping=False, seed=0,
                        name=None):
    """Average pooling of NHWC `value` by `pooling_ratio`, as `fractional_max_pool`.

    >>> out, rows, cols = tf.nn.fractional_avg_pool(tf.ones([1, 4, 4, 1]), 2.0, seed=3)
    >>> out.numpy().ravel().tolist(), rows.numpy().tolist()
    ([1.0, 1.0, 1.0, 1.0], [0, 2, 4])
    """
    return _fractional("avg", value, pooling_ratio, pseudo_random, overlapping,
                       random_ops.get_seed(seed) if seed else None, name)


def _v1_seeds(deterministic, seed, seed2):
    """TF 1's seeds go to the op as they are (a deterministic pair of zeros: fresh windows)."""
    return (seed, seed2) if deterministic and (seed or seed2) else None


@export("compat.v1.nn.fractional_max_pool")
def fractional_max_pool_v1(value, pooling_ratio, pseudo_random=False, overlapping=False,
                           deterministic=False, seed=0, seed2=0, name=None):
    """TF 1's `fractional_max_pool`: repeatable with `deterministic` and its seeds."""
    return _fractional("max", value, pooling_ratio, pseudo_random, overlapping,
                       _v1_seeds(deterministic, seed, seed2), name)


@export("compat.v1.nn.fractional_avg_pool")
def fractional_avg_pool_v1(value, pooling_ratio, pseudo_random=False, overlapping=False,
                           deterministic=False, seed=0, seed2=0, name=None):
    """TF 1's `fractional_avg_pool`: repeatable with `deterministic` and its seeds."""
    return _fractional("avg", value, pooling_ratio, pseudo_random, overlapping,
                       _v1_seeds(deterministic, seed, seed2), name)

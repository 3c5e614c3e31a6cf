"""Random numbers: seeded ops, stateless ops and `Generator`, with TensorFlow's seeding rules.

Seeding (`set_seed` plus each op's `seed`), as TensorFlow documents it:

* neither seed set: every call draws from fresh entropy;
* global seed only: ops take op seeds from a sequence that `set_seed` restarts,
  so a program re-run with the same global seed repeats its random values;
* op seed only: the global seed defaults to a fixed value;
* a (global, op) seed pair used again gives the next values of that pair's
  stream; `set_seed` restarts every stream.

A stateful op's state is in its attrs: ``seed``, ``seed2`` (the pair) and
``stream`` (which call of that pair this is).  Kernels build a counter-based
Philox generator from them, so an eager draw depends only on its attrs.

In a graph (a traced `function`) each random op keeps its own state, as
TensorFlow's kernels do: every run of the graph draws the op's next stream,
so a function returns new numbers on each call. With a global seed set before
tracing, the ops' seeds are fixed (op seeds default to 0, 1, ... in the order
the graph makes its random ops) and the sequence of calls is reproducible:
`set_seed` restarts it. Without any seed each run draws from fresh entropy;
a `Generator` used in a function advances its own state at every run.

>>> set_seed(1)
>>> a = uniform([2])
>>> set_seed(1)
>>> bool((uniform([2]).numpy() == a.numpy()).all())
True
"""
import enum
import random as _py_random
import secrets
import threading
import weakref

import ml_dtypes
import numpy as np

from eagerflow._src.core import context
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import errors
from eagerflow._src.core.convert import (
    convert_to_tensor, get_static_value, is_tensor_like, to_array)
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.core.registry import FLOAT, kernel_type_name, register
from eagerflow._src.core.tensor import Tensor
from eagerflow._src.core.tensor_shape import TensorShape, unknown_shape
from eagerflow._src.ops import math_ops, shape_rules
from eagerflow._src.ops.array_ops import check_index_dtype, run_time_tensor
from eagerflow._src.ops.wrappers import as_tensor

DEFAULT_GRAPH_SEED = 87654321  # the global seed of ops given only an op seed
_MAXINT32 = 2**31 - 1
_U64 = 2**64 - 1
_HALF_BITS = {np.dtype(np.float16): 11, np.dtype(ml_dtypes.bfloat16): 8}  # significand bits
_NUMPY_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))
_INTS = (_d.int32, _d.int64)
_FULL_INTS = (_d.int32, _d.int64, _d.uint32, _d.uint64)
_HALF_FLOAT_DOUBLE = (_d.float16, _d.float32, _d.float64)
_NO_ATTRS = {}


# -- seeding --------------------------------------------------------------------------------

class _SeedState:
    """The program's seeding state: global seed, op-seed sequence and per-pair streams."""

    def __init__(self):
        self.lock = threading.Lock()
        self.epoch = 0  # counts `set_seed` calls: graph ops restart their streams on a change
        self.graph_op_seeds = weakref.WeakKeyDictionary()  # graph -> next default op seed
        self.reset(None)

    def reset(self, seed):
        self.global_seed = seed
        self.op_seeds = _py_random.Random(seed)
        self.streams = {}
        self.epoch += 1

    def next_graph_op_seed(self, graph):
        with self.lock:
            n = self.graph_op_seeds.get(graph, 0)
            self.graph_op_seeds[graph] = n + 1
            return n

    def next_op_seed(self):
        with self.lock:
            return self.op_seeds.randint(0, _MAXINT32)

    def next_stream(self, pair):
        with self.lock:
            n = self.streams.get(pair, 0)
            self.streams[pair] = n + 1
            return n


_STATE = _SeedState()


def set_seed(seed):
    """Sets the global random seed and restarts every op's random sequence.

    >>> set_seed(3)
    >>> x = normal([1])
    >>> set_seed(3)
    >>> bool(normal([1]).numpy()[0] == x.numpy()[0])
    True
    """
    _STATE.reset(None if seed is None else int(seed))


def get_seed(op_seed):
    """The (global, op) seed pair an op runs with; (None, None) when nondeterministic.

    While a graph is built, a missing op seed is the number of random ops the
    graph made before, so functions of the same code draw the same sequences.

    >>> set_seed(None)
    >>> get_seed(5)
    (87654321, 5)
    """
    global_seed = _STATE.global_seed
    if global_seed is not None:
        if op_seed is not None:
            return global_seed, int(op_seed)
        graph = context.get().graph
        return global_seed, (_STATE.next_op_seed() if graph is None
                             else _STATE.next_graph_op_seed(graph))
    if op_seed is not None:
        return DEFAULT_GRAPH_SEED, int(op_seed)
    return None, None


class _OpState:
    """The state of one random op in a graph: every run takes the next stream of its seed pair.

    `set_seed` restarts it, as it restarts TensorFlow's kernels; an unseeded
    op (seed pair 0, 0, as TF writes it) draws from fresh entropy at every run.
    """

    def __init__(self):
        self._epoch, self._runs = _STATE.epoch, 0

    def take(self, seed, seed2):
        """``(seed, seed2, stream)`` of this run."""
        if not (seed or seed2):
            return secrets.randbits(63), secrets.randbits(63), 0
        with _STATE.lock:
            if self._epoch != _STATE.epoch:
                self._epoch, self._runs = _STATE.epoch, 0
            stream, self._runs = self._runs, self._runs + 1
        return seed, seed2, stream


def _seed_attrs(op_seed):
    """Attrs seeding one call of a stateful op: the seed pair and the pair's next stream
    (in a graph, the op's `_OpState`, which picks the stream at each run)."""
    seed, seed2 = get_seed(op_seed)
    if context.get().graph is not None:
        return {"seed": seed or 0, "seed2": seed2 or 0, "stream": _OpState()}
    if seed is None:
        return {"seed": secrets.randbits(63), "seed2": secrets.randbits(63), "stream": 0}
    return {"seed": seed, "seed2": seed2, "stream": _STATE.next_stream((seed, seed2))}


def _rng(xp, seed, seed2, stream):
    """The generator of stream `stream` of key (seed, seed2): the one backend-specific piece.

    NumPy: Philox keyed by the pair, each stream starting 2**128 counter steps apart.
    """
    if xp is np:
        key = ((seed & _U64) << 64) | (seed2 & _U64)
        return np.random.Generator(np.random.Philox(key=key, counter=(stream & _U64) << 128))
    state = np.random.SeedSequence([seed & _U64, seed2 & _U64, stream & _U64]).generate_state(1)
    return xp.random.default_rng(int(state[0]))


# -- draws: the values of each op, given a generator ----------------------------------------

def _unit_uniform(xp, rng, shape, dtype):
    """Uniform values in [0, 1); half types use exactly representable values (never 1.0)."""
    np_dtype = np.dtype(dtype.as_numpy_dtype)
    if np_dtype in _NUMPY_FLOATS:
        return rng.random(shape, dtype=np_dtype)
    bits = _HALF_BITS[np_dtype]
    return (rng.integers(0, 2**bits, shape) * 2.0**-bits).astype(np_dtype)


def _wide_float(dtype):
    """The float type NumPy's generators draw in for `dtype` (float32 for half types)."""
    np_dtype = np.dtype(dtype.as_numpy_dtype)
    return np_dtype if np_dtype in _NUMPY_FLOATS else np.dtype(np.float32)


def _draw_normal(xp, rng, shape, dtype):
    return rng.standard_normal(shape, dtype=_wide_float(dtype)).astype(dtype.as_numpy_dtype)


def _draw_truncated_normal(xp, rng, shape, dtype):
    """Standard normal values, those beyond 2 standard deviations re-drawn."""
    wide = _wide_float(dtype)
    x = rng.standard_normal(shape, dtype=wide)
    outside = xp.abs(x) > 2
    while outside.any():  # each round re-draws only the ~5% still outside
        x[outside] = rng.standard_normal(int(outside.sum()), dtype=wide)
        outside = xp.abs(x) > 2
    return x.astype(dtype.as_numpy_dtype)


def _draw_uniform_int(xp, rng, minval, maxval, shape):
    for name, v in (("minval", minval), ("maxval", maxval)):
        if v.ndim:
            raise errors.InvalidArgumentError(
                None, None, f"{name} must be 0-D, got shape [{','.join(map(str, v.shape))}]")
    lo, hi = int(minval), int(maxval)
    if lo >= hi:
        raise errors.InvalidArgumentError(None, None,
                                          f"Need minval < maxval, got {lo} >= {hi}")
    return rng.integers(lo, hi, shape, dtype=minval.dtype)


def _draw_full_int(xp, rng, shape, dtype):
    info = np.iinfo(dtype.as_numpy_dtype)
    return rng.integers(int(info.min), int(info.max), shape, dtype=info.dtype, endpoint=True)


def _draw_multinomial(xp, rng, logits, num_samples, output_dtype):
    """Samples of the categorical distributions with log-probabilities `logits` (one per row)."""
    if logits.ndim != 2:
        raise errors.InvalidArgumentError(None, None, f"logits should be a matrix, got shape "
                                          f"[{','.join(map(str, logits.shape))}]")
    batch, classes = logits.shape
    if classes <= 0:
        raise errors.InvalidArgumentError(
            None, None, f"num_classes should be positive, got {classes}")
    if num_samples < 0:
        raise errors.InvalidArgumentError(
            None, None, f"num_samples should be non-negative, got {num_samples}")
    with np.errstate(all="ignore"):
        z = logits.astype(xp.float64)
        cdf = xp.cumsum(xp.exp(z - z.max(axis=1, keepdims=True)), axis=1)
        cdf /= cdf[:, -1:]
    invalid = ~xp.isfinite(cdf[:, -1])  # no finite logit: no distribution to sample
    cdf[invalid] = 1.0
    # One search over all rows at once: row i's values are shifted into [i, i + 1].
    offset = xp.arange(batch, dtype=xp.float64)[:, None]
    u = rng.random((batch, num_samples)) + offset
    found = xp.searchsorted((cdf + offset).reshape(-1), u.reshape(-1), side="right")
    samples = xp.minimum(found.reshape(u.shape) - classes * offset.astype(found.dtype),
                         classes - 1)
    samples[invalid] = classes  # as TensorFlow: an out-of-range class for such rows
    return samples.astype(output_dtype.as_numpy_dtype)


def _draw_shuffle(xp, rng, value):
    if value.ndim == 0:
        return value
    return value[xp.argsort(rng.random(value.shape[0]))]


def _draw_poisson(xp, rng, rate, shape, dtype):
    lam = rate.astype(xp.float64)
    lam = xp.where(lam > 0, lam, 0.0)  # non-positive rates give 0 (NaN rates too)
    return rng.poisson(lam, shape + rate.shape).astype(dtype.as_numpy_dtype)


def _draw_gamma(xp, rng, alpha, shape):
    wide = _wide_float(_d.from_numpy(alpha.dtype))
    valid = alpha >= 0
    draws = rng.standard_gamma(xp.where(valid, alpha, 1).astype(wide), shape + alpha.shape,
                               dtype=wide)
    return xp.where(valid, draws, xp.nan).astype(alpha.dtype)  # negative alpha: NaN


# -- registration: a stateful op (seed attrs) and its stateless twin (seed input) -----------

def _shape_last(draw):
    """`draw` taking its ``shape`` as its last array when only run time knows it."""
    def shaped_draw(xp, rng, *arrays, **attrs):
        if "shape" not in attrs:
            *arrays, shape = arrays
            attrs["shape"] = tuple(shape.tolist())
        return draw(xp, rng, *arrays, **attrs)
    shaped_draw.__name__ = draw.__name__
    return shaped_draw


def _stateful(draw):
    def kernel(xp, *arrays, seed, seed2, stream, **attrs):
        if type(stream) is not int:  # an op of a graph: its state picks this run's stream
            seed, seed2, stream = stream.take(seed, seed2)
        return draw(xp, _rng(xp, seed, seed2, stream), *arrays, **attrs)
    kernel.__name__ = draw.__name__
    return kernel


def _stateless(draw):
    def kernel(xp, *arrays, **attrs):
        *arrays, seed = arrays  # the seed tensor is the last input
        return draw(xp, _rng(xp, int(seed[0]), int(seed[1]), 0), *arrays, **attrs)
    kernel.__name__ = draw.__name__
    return kernel


def _shape_input(rule, at):
    """`rule` for an op that takes its ``shape`` attr as input `at` (counted from the end:
    the stateless seed comes after it) when only run time knows it."""
    def shape_rule(*inputs, **attrs):
        if "shape" not in attrs:
            inputs = list(inputs)
            attrs["shape"] = shape_rules.known_elements(inputs.pop(at))
        return rule(*inputs, **attrs)
    return shape_rule


def _register(draw, rule, stateful_name, stateless_name=None, shaped=True, **kw):
    """Registers `draw` as a stateful op and, given a name, as its stateless twin.

    `shaped`: the op has a ``shape`` attr, which may come as its last input instead
    (before the seed of the stateless op), so that the type constraint keeps its indices.
    """
    stateful_rule = stateless_rule = rule
    if shaped:
        draw = _shape_last(draw)
        stateful_rule, stateless_rule = _shape_input(rule, -1), _shape_input(rule, -2)
    ops = [register(stateful_name, _stateful(draw), stateful_rule, stateful=True,
                    not_differentiable="random", **kw)]
    if stateless_name:
        ops.append(register(stateless_name, _stateless(draw), stateless_rule,
                            not_differentiable="random", **kw))
    return tuple(ops)


def _shaped(*_, shape, dtype, **__):
    return TensorShape(shape), dtype


def _shaped_like_min(minval, *_, shape, **__):
    return TensorShape(shape), minval.dtype


def _multinomial_rule(logits, *_, num_samples, output_dtype, **__):
    rows = logits.shape[0] if logits.shape.rank else None
    return TensorShape([rows, num_samples]), output_dtype


def _extended(param, *_, shape, dtype=None, **__):
    """Shape `shape` + the parameter's shape (poisson rates, gamma alphas)."""
    out = unknown_shape() if param.shape.rank is None else \
        TensorShape(shape).concatenate(param.shape)
    return out, dtype or param.dtype


_UNIFORM = _register(_unit_uniform, _shaped, "RandomUniform", "StatelessRandomUniform",
                     tied=())
_NORMAL = _register(_draw_normal, _shaped, "RandomStandardNormal", "StatelessRandomNormal",
                    tied=())
_TRUNCATED = _register(_draw_truncated_normal, _shaped, "TruncatedNormal",
                       "StatelessTruncatedNormal", tied=())
_UNIFORM_INT = _register(_draw_uniform_int, _shaped_like_min, "RandomUniformInt",
                         "StatelessRandomUniformInt", tied=(0, 1), dtypes=_FULL_INTS)
_FULL_INT = _register(_draw_full_int, _shaped, "StatefulUniformFullInt",
                      "StatelessRandomUniformFullInt", tied=())
_MULTINOMIAL = _register(_draw_multinomial, _multinomial_rule, "Multinomial",
                         "StatelessMultinomial", shaped=False, dtypes=FLOAT)
_SHUFFLE = _register(_draw_shuffle, lambda value, **_: (value.shape, value.dtype),
                     "RandomShuffle", shaped=False)
_POISSON = _register(_draw_poisson, _extended, "RandomPoissonV2",
                     dtypes=_HALF_FLOAT_DOUBLE + _INTS)
_GAMMA = _register(_draw_gamma, _extended, "RandomGamma", dtypes=_HALF_FLOAT_DOUBLE)


def _run(ops, inputs, attrs, seed, name):
    """Runs the stateful op of `ops` with `seed` attrs (a dict), or the stateless twin with
    `seed` (a tensor) as its last input. A ``shape`` attr known only at run time (a
    tensor) becomes an input, after the others."""
    shape = attrs.get("shape")
    if shape is not None and type(shape) is not tuple:
        attrs = {k: v for k, v in attrs.items() if k != "shape"}
        inputs = (*inputs, shape)
    if isinstance(seed, dict):
        return dispatch(ops[0], inputs, {**attrs, **seed}, name)
    return dispatch(ops[1], (*inputs, seed), attrs, name)


# -- argument checks --------------------------------------------------------------------------

def _shape_attr(shape, op_name):
    """`shape` (list, TensorShape or 1-D tensor) as a tuple of ints, checked as TF does;
    a tensor when only run time knows it."""
    run_time = run_time_tensor(shape)
    if run_time is not None:
        check_index_dtype(op_name, "T", run_time, _INTS)
        return run_time
    if isinstance(shape, TensorShape):
        shape = shape.as_list()
    dims = np.asarray(get_static_value(shape) if is_tensor_like(shape) else to_array(shape))
    if dims.ndim != 1:
        raise errors.op_error(errors.InvalidArgumentError, op_name,
                              f"shape must be a vector of {{int32,int64}}, got shape "
                              f"[{','.join(map(str, dims.shape))}]")
    if dims.size and dims.dtype.kind not in "iu":
        raise errors.op_error(errors.InvalidArgumentError, op_name,
                              f"Value for attr 'T' of {kernel_type_name(_d.from_numpy(dims.dtype))}"
                              f" is not in the list of allowed values: int32, int64")
    for d in dims.tolist():
        if d < 0:
            raise errors.op_error(errors.InvalidArgumentError, op_name,
                                  f"Dimension {d} must be >= 0")
    return tuple(dims.tolist())


def _accepted(dtype, allowed):
    dtype = _d.as_dtype(dtype)
    if dtype not in allowed:
        raise ValueError(f"Argument `dtype` got invalid value {dtype}. Accepted dtypes are "
                         f"{tuple(allowed)}.")
    return dtype


def _op_dtype(dtype, allowed, op_name):
    """`dtype` checked against an op's `dtype` attr list (InvalidArgumentError, as TF)."""
    dtype = _d.as_dtype(dtype)
    if dtype not in allowed:
        names = ", ".join(kernel_type_name(d) for d in allowed)
        raise errors.op_error(errors.InvalidArgumentError, op_name,
                              f"Value for attr 'dtype' of {kernel_type_name(dtype)} is not in "
                              f"the list of allowed values: {names}")
    return dtype


def _is(value, number):
    """True when `value` is the plain Python number `number` (so an op can be skipped)."""
    return type(value) in (int, float) and value == number


def _int_arg(value):
    return int(value.numpy()) if isinstance(value, Tensor) else int(value)


# -- shared bodies of the global-seed, Generator and stateless functions ----------------------

def _uniform(shape, minval, maxval, dtype, seed, name, full_int_ok):
    """Uniform values in [minval, maxval); integers need both bounds (or, where
    `full_int_ok`, neither: the whole range of the type)."""
    if dtype.is_integer:
        if minval is None and maxval is None and full_int_ok:
            return _run(_FULL_INT, (), {"shape": shape, "dtype": dtype}, seed, name)
        lo, hi = as_tensor(minval, dtype), as_tensor(maxval, dtype)
        return _run(_UNIFORM_INT, (lo, hi), {"shape": shape}, seed, name)
    rnd = _run(_UNIFORM, (), {"shape": shape, "dtype": dtype}, seed, name)
    minval = 0 if minval is None else minval
    maxval = 1 if maxval is None else maxval
    if _is(minval, 0):
        return rnd if _is(maxval, 1) else math_ops.multiply(rnd, as_tensor(maxval, dtype))
    lo, hi = as_tensor(minval, dtype), as_tensor(maxval, dtype)
    return math_ops.add(math_ops.multiply(rnd, math_ops.subtract(hi, lo)), lo)


def _normal(ops, shape, mean, stddev, dtype, seed, name):
    """`ops` (standard normal or truncated) scaled by `stddev` and shifted by `mean`."""
    mean_t, stddev_t = as_tensor(mean, dtype), as_tensor(stddev, dtype)  # TypeError for ints
    _op_dtype(dtype, FLOAT, ops[0].name)
    rnd = _run(ops, (), {"shape": shape, "dtype": dtype}, seed, name)
    if not _is(stddev, 1):
        rnd = math_ops.multiply(rnd, stddev_t)
    return rnd if _is(mean, 0) else math_ops.add(rnd, mean_t)


def _categorical(logits, num_samples, dtype, seed, name):
    dtype = _accepted(_d.int64 if dtype is None else dtype, _INTS)
    attrs = {"num_samples": _int_arg(num_samples), "output_dtype": dtype}
    return _run(_MULTINOMIAL, (as_tensor(logits),), attrs, seed, name)


# -- global-seed functions --------------------------------------------------------------------

def uniform(shape, minval=0, maxval=None, dtype=_d.float32, seed=None, name=None):
    """Uniform values in [minval, maxval) (maxval defaults to 1; integers need it).

    >>> x = uniform([2, 3], minval=-1.0, maxval=1.0, seed=4)
    >>> x.shape, bool((x.numpy() >= -1).all() and (x.numpy() < 1).all())
    (TensorShape([2, 3]), True)
    """
    dtype = _accepted(dtype, FLOAT + _INTS)
    if dtype.is_integer and maxval is None:
        raise ValueError(f"Must specify maxval for integer dtype {dtype!r}")
    shape = _shape_attr(shape, "RandomUniformInt" if dtype.is_integer else "RandomUniform")
    return _uniform(shape, minval, maxval, dtype, _seed_attrs(seed), name, False)


def normal(shape, mean=0.0, stddev=1.0, dtype=_d.float32, seed=None, name=None):
    """Normally distributed values.

    >>> normal([2], mean=3.0, stddev=0.0)
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([3., 3.], dtype=float32)>
    """
    dtype = _d.as_dtype(dtype)
    return _normal(_NORMAL, _shape_attr(shape, "RandomStandardNormal"), mean, stddev, dtype,
                   _seed_attrs(seed), name)


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=_d.float32, seed=None, name=None):
    """Normal values with those beyond 2 standard deviations from the mean re-drawn.

    >>> bool((abs(truncated_normal([1000]).numpy()) <= 2).all())
    True
    """
    dtype = _d.as_dtype(dtype)
    return _normal(_TRUNCATED, _shape_attr(shape, "TruncatedNormal"), mean, stddev, dtype,
                   _seed_attrs(seed), name)


def categorical(logits, num_samples, dtype=None, seed=None, name=None):
    """Class indices drawn from the categorical distributions with log-probabilities `logits`.

    `logits`: [batch, num_classes]; the result is [batch, num_samples] (int64 by default).

    >>> categorical(constant([[-1e9, 0.0]]), 3)
    <tf.Tensor: shape=(1, 3), dtype=int64, numpy=array([[1, 1, 1]])>
    """
    return _categorical(logits, num_samples, dtype, _seed_attrs(seed), name)


def shuffle(value, seed=None, name=None):
    """`value` with its first dimension randomly permuted.

    >>> sorted(shuffle(constant([1, 2, 3])).numpy().tolist())
    [1, 2, 3]
    """
    return _run(_SHUFFLE, (as_tensor(value),), _NO_ATTRS, _seed_attrs(seed), name)


def poisson(shape, lam, dtype=_d.float32, seed=None, name=None):
    """Poisson samples of rates `lam`: shape ``shape + lam.shape``.

    >>> poisson([4], [1.0, 5.0]).shape
    TensorShape([4, 2])
    """
    dtype = _op_dtype(dtype, _HALF_FLOAT_DOUBLE + _INTS, "RandomPoissonV2")
    attrs = {"shape": _shape_attr(shape, "RandomPoissonV2"), "dtype": dtype}
    return _run(_POISSON, (as_tensor(lam),), attrs, _seed_attrs(seed), name)


def gamma(shape, alpha, beta=None, dtype=_d.float32, seed=None, name=None):
    """Gamma samples of shapes `alpha` and rates `beta` (default 1): shape ``shape +
    broadcast(alpha, beta).shape``, never below the smallest positive normal number.

    >>> gamma([3], [0.5, 1.5], beta=[1.0, 2.0]).shape
    TensorShape([3, 2])
    """
    dtype = _d.as_dtype(dtype)
    alpha = as_tensor(alpha, dtype)
    beta = None if beta is None else as_tensor(beta, dtype)
    if beta is not None and beta.shape != alpha.shape:  # alpha takes beta's extra dims
        from eagerflow._src.ops.array_ops import zeros_like
        alpha = math_ops.add(alpha, zeros_like(beta))
    attrs = {"shape": _shape_attr(shape, "RandomGamma")}
    draws = _run(_GAMMA, (alpha,), attrs, _seed_attrs(seed), name)
    if beta is not None:
        draws = math_ops.divide(draws, beta)
    return math_ops.maximum(draws, as_tensor(np.finfo(dtype.as_numpy_dtype).tiny, dtype))


# -- stateless functions: the same seed gives the same values ---------------------------------

def _seed_input(seed, op_name):
    """The stateless seed: an int32/int64 tensor of shape [2]."""
    seed = as_tensor(seed)
    if seed.dtype not in _INTS:
        raise errors.op_error(errors.InvalidArgumentError, op_name,
                              f"Value for attr 'Tseed' of {kernel_type_name(seed.dtype)} is not "
                              f"in the list of allowed values: int32, int64")
    if seed.shape != TensorShape([2]):
        raise errors.op_error(errors.InvalidArgumentError, op_name,
                              f"seed must have shape [2], not "
                              f"[{','.join(map(str, seed.shape.as_list()))}]")
    return seed


def _check_int_bounds(dtype, minval, maxval, template):
    if dtype.is_integer and (minval is None) != (maxval is None):
        raise ValueError(template.format(dtype=dtype, minval=minval, maxval=maxval))


def stateless_uniform(shape, seed, minval=0, maxval=None, dtype=_d.float32, name=None,
                      alg="auto_select"):
    """Uniform values determined by `seed` (shape [2]); integers take both bounds, or neither
    for the type's whole range.

    >>> a = stateless_uniform([2], seed=[1, 2])
    >>> bool((a.numpy() == stateless_uniform([2], seed=[1, 2]).numpy()).all())
    True
    """
    dtype = _accepted(dtype, FLOAT + _FULL_INTS)
    _check_int_bounds(dtype, minval, maxval, (
        "For integer `dtype` argument {dtype}, argument `minval` and `maxval` must be both None "
        "or not None. Got `minval`={minval} and `maxval`={maxval}."))
    shape = _shape_attr(shape, "StatelessRandomUniform")
    return _uniform(shape, minval, maxval, dtype, _seed_input(seed, "StatelessRandomUniform"),
                    name, True)


def stateless_normal(shape, seed, mean=0.0, stddev=1.0, dtype=_d.float32, name=None,
                     alg="auto_select"):
    """Normal values determined by `seed` (shape [2]).

    >>> stateless_normal([3], seed=[4, 2]).shape
    TensorShape([3])
    """
    return _normal(_NORMAL, _shape_attr(shape, "StatelessRandomNormal"), mean, stddev,
                   _d.as_dtype(dtype), _seed_input(seed, "StatelessRandomNormal"), name)


def stateless_truncated_normal(shape, seed, mean=0.0, stddev=1.0, dtype=_d.float32, name=None,
                               alg="auto_select"):
    """Truncated normal values (within 2 standard deviations) determined by `seed`.

    >>> bool((abs(stateless_truncated_normal([100], seed=[1, 1]).numpy()) <= 2).all())
    True
    """
    return _normal(_TRUNCATED, _shape_attr(shape, "StatelessTruncatedNormal"), mean, stddev,
                   _d.as_dtype(dtype), _seed_input(seed, "StatelessTruncatedNormal"), name)


def stateless_categorical(logits, num_samples, seed, dtype=_d.int64, name=None):
    """Categorical samples determined by `seed`; see `categorical`.

    >>> stateless_categorical(constant([[0.0, -1e9]]), 2, seed=[7, 7])
    <tf.Tensor: shape=(1, 2), dtype=int64, numpy=array([[0, 0]])>
    """
    return _categorical(logits, num_samples, dtype, _seed_input(seed, "StatelessMultinomial"),
                        name)


def split(seed, num=2, alg="auto_select"):
    """`num` new stateless seeds derived from `seed`: shape [num, 2], `seed`'s dtype.

    >>> split([1, 2], num=3).shape
    TensorShape([3, 2])
    """
    seed = _seed_input(seed, "StatelessRandomUniformFullInt")
    return stateless_uniform([int(num), 2], seed, None, None, seed.dtype)


def fold_in(seed, data, alg="auto_select"):
    """A new stateless seed combining `seed` with the integer `data`.

    >>> fold_in([1, 2], 7).numpy()[1]
    np.int32(7)
    """
    from eagerflow._src.ops.array_ops import stack
    seed = _seed_input(seed, "StatelessRandomUniformFullInt")
    mixed = stateless_uniform([], seed, None, None, seed.dtype)
    return stack([mixed, as_tensor(data, seed.dtype)])


# -- Generator --------------------------------------------------------------------------------

class Algorithm(enum.Enum):
    """Random number algorithms; every generator here runs Philox."""
    PHILOX = 1
    THREEFRY = 2
    AUTO_SELECT = 3


_GENERATOR_SEED2 = 0x5EED  # keeps Generator streams apart from the global-seed ones


class Generator:
    """A random number generator whose state (a key and a counter) advances with each call.

    >>> g = Generator.from_seed(1)
    >>> a, b = g.normal([2]), g.normal([2])
    >>> bool((a.numpy() == Generator.from_seed(1).normal([2]).numpy()).all())
    True
    """

    def __init__(self, copy_from=None, state=None, alg=None):
        if copy_from is not None:
            state = [copy_from._counter, 0, copy_from._key]
        if state is None:
            raise ValueError("Generator needs `copy_from` or `state` (or use `from_seed`).")
        self._lock = threading.Lock()
        self.reset(state)

    @classmethod
    def from_seed(cls, seed, alg=None):
        return cls(state=[0, 0, int(seed)])

    @classmethod
    def from_non_deterministic_state(cls, alg=None):
        return cls(state=[0, 0, secrets.randbits(63)])

    @classmethod
    def from_state(cls, state, alg):
        return cls(state=state)

    @classmethod
    def from_key_counter(cls, key, counter, alg):
        return cls(state=[np.asarray(counter).reshape(-1)[0], 0, key])

    def reset(self, state):
        """Replaces the state: ``[counter, 0, key]`` (int64)."""
        state = np.asarray(state, np.int64).reshape(-1)
        if state.shape != (3,):
            raise ValueError(f"A Philox state has 3 elements, got {state.size}.")
        self._counter, self._key = int(state[0]), int(state[2])

    def reset_from_seed(self, seed):
        self.reset([0, 0, int(seed)])

    def reset_from_key_counter(self, key, counter):
        self.reset([np.asarray(counter).reshape(-1)[0], 0, key])

    @property
    def state(self):
        return convert_to_tensor(np.array([self._counter, 0, self._key], np.int64))

    @property
    def key(self):
        return convert_to_tensor(np.int64(self._key))

    @property
    def algorithm(self):
        return Algorithm.PHILOX.value

    def skip(self, delta):
        """Advances the state as if `delta` calls had been made."""
        with self._lock:
            self._counter += int(delta)

    def _next(self):
        """The seed attrs of one call; advances the counter (in a graph: at every run)."""
        if context.get().graph is not None:
            return {"seed": self._key, "seed2": _GENERATOR_SEED2, "stream": self}
        seed, seed2, stream = self.take(self._key, _GENERATOR_SEED2)
        return {"seed": seed, "seed2": seed2, "stream": stream}

    def take(self, seed, seed2):
        """``(key, seed2, stream)`` of the next call: the state a graph's op reads at each run."""
        with self._lock:
            stream, self._counter = self._counter, self._counter + 1
        return self._key, seed2, stream

    def normal(self, shape, mean=0.0, stddev=1.0, dtype=_d.float32, name=None):
        """Normal values; see `normal`."""
        return _normal(_NORMAL, _shape_attr(shape, "RandomStandardNormal"), mean, stddev,
                       _d.as_dtype(dtype), self._next(), name)

    def truncated_normal(self, shape, mean=0.0, stddev=1.0, dtype=_d.float32, name=None):
        """Truncated normal values; see `truncated_normal`."""
        return _normal(_TRUNCATED, _shape_attr(shape, "TruncatedNormal"), mean, stddev,
                       _d.as_dtype(dtype), self._next(), name)

    def uniform(self, shape, minval=0, maxval=None, dtype=_d.float32, name=None):
        """Uniform values; integers take both bounds, or neither for the type's whole range."""
        dtype = _d.as_dtype(dtype)
        _check_int_bounds(dtype, minval, maxval, (
            "For integer dtype {dtype}, minval and maxval must be both `None` or both "
            "non-`None`; got minval={minval} and maxval={maxval}"))
        if dtype.is_integer:
            _op_dtype(dtype, _FULL_INTS, "RandomUniformInt")
        else:
            _op_dtype(dtype, FLOAT, "RandomUniform")
        shape = _shape_attr(shape, "RandomUniform")
        return _uniform(shape, minval, maxval, dtype, self._next(), name, True)

    def uniform_full_int(self, shape, dtype=_d.uint64, name=None):
        """Integers spanning the whole range of `dtype`."""
        dtype = _op_dtype(dtype, _FULL_INTS, "StatefulUniformFullInt")
        attrs = {"shape": _shape_attr(shape, "StatefulUniformFullInt"), "dtype": dtype}
        return _run(_FULL_INT, (), attrs, self._next(), name)

    def make_seeds(self, count=1):
        """`count` new seeds for stateless ops: an int64 tensor of shape [2, count]."""
        return self.uniform_full_int([2, count], dtype=_d.int64)

    def split(self, count=1):
        """`count` new generators, independent of this one and of each other."""
        seeds = self.make_seeds(count).numpy()
        return [Generator(state=[seeds[1, i], 0, seeds[0, i]]) for i in range(count)]


_GLOBAL_GENERATOR = []  # holds the global generator once made


def get_global_generator():
    """The generator that `Generator`-style code uses by default (nondeterministic).

    >>> get_global_generator() is get_global_generator()
    True
    """
    with _STATE.lock:
        if not _GLOBAL_GENERATOR:
            _GLOBAL_GENERATOR.append(Generator.from_non_deterministic_state())
        return _GLOBAL_GENERATOR[0]


def set_global_generator(generator):
    """Replaces the global generator with `generator`."""
    with _STATE.lock:
        _GLOBAL_GENERATOR[:] = [generator]

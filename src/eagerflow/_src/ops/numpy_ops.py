"""NumPy's API on tensors (``tf.experimental.numpy``).

Functions take tensors, NumPy arrays and Python values, follow NumPy's dtype rules (Python
floats are float64, ints int64; Python scalars take the dtype of the array they meet) and
return `tf.Tensor`s, so they run eagerly, in a `tf.function` and under a `GradientTape`.

>>> import eagerflow.experimental.numpy as tnp
>>> tnp.add(tnp.asarray([1, 2], dtype=tnp.int32), 1.5)
<tf.Tensor: shape=(2,), dtype=float64, numpy=array([2.5, 3.5])>
"""
import builtins
import functools
import math
import warnings

import numpy as np

from eagerflow._src.backend import api_export
from eagerflow._src.backend.api_export import export
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import errors
from eagerflow._src.core.convert import convert_to_tensor, get_static_value
from eagerflow._src.core.tensor import EagerTensor, Tensor

_NP = "experimental.numpy."


@functools.lru_cache(maxsize=None)
def _tf(name):
    """The public function `name` (``"math.add"``) of this package."""
    for obj, _module, attr, names in api_export.EXPORTS:
        if name in names and attr is None:
            return obj
    raise AttributeError(name)


# experimental_enable_numpy_behavior(prefer_float32=True): Python floats (and NumPy's float64
# scalars, which are Python floats) count as float32, complex numbers as complex64.
_prefer_float32 = [False]
_PREFERRED = {np.dtype(np.float64): np.dtype(np.float32),
              np.dtype(np.complex128): np.dtype(np.complex64)}


_PY_SCALARS = (bool, int, float, complex)


def _weak_sample(x):
    """A Python scalar of the highest kind (bool < int < float < complex) in the nested
    list or tuple `x` of Python scalars (False for an empty one), which TF promotes as it
    promotes a Python scalar; None when `x` holds anything else (a NumPy scalar)."""
    rank, stack = 0, [x]
    while stack:
        item = stack.pop()
        if isinstance(item, (list, tuple)):
            stack.extend(item)
        elif type(item) in _PY_SCALARS:
            rank = builtins.max(rank, _PY_SCALARS.index(type(item)))
        else:
            return None
    return (False, 0, 0.0, 0j)[rank]


def _np_dtype(x):
    """What NumPy's promotion sees of `x`: a tensor's dtype, or the Python scalar itself
    (weak: it takes the dtype of the array it meets); a list of Python scalars is weak as
    its highest kind of scalar is."""
    if isinstance(x, Tensor) or hasattr(x, "dtype") and isinstance(x.dtype, _d.DType):
        return x.dtype.as_numpy_dtype
    if isinstance(x, (list, tuple)):
        sample = _weak_sample(x)
        x = x if sample is None else sample
    if _prefer_float32[0] and isinstance(x, (float, complex)):
        return np.float32(x) if isinstance(x, float) else np.complex64(x)
    if isinstance(x, (bool, int, float, complex)):
        return x
    if isinstance(x, np.ndarray):
        return x.dtype
    return np.asarray(x).dtype


def _as_np_type(dtype):
    if dtype is None:
        return None
    if isinstance(dtype, _d.DType):
        return np.dtype(dtype.as_numpy_dtype)
    return np.dtype(dtype)


def _tensor(x, dtype=None):
    """`x` as a tensor of the NumPy dtype `dtype` (its own NumPy default dtype if None)."""
    if isinstance(x, Tensor) or hasattr(x, "dtype") and isinstance(x.dtype, _d.DType):
        t = convert_to_tensor(x)
        if dtype is not None and t.dtype.as_numpy_dtype != np.dtype(dtype):
            t = _tf("cast")(t, _d.as_dtype(np.dtype(dtype)))
        return t
    if dtype is None and isinstance(x, (list, tuple)):
        dtype = _typed_leaves_dtype(x)
    try:
        arr = np.asarray(x, dtype=dtype)
    except OverflowError:  # a Python int past the dtype's range wraps around, as in TF
        arr = np.asarray(x).astype(dtype)
    if arr.dtype.kind == "U":
        arr = arr.astype(object)
    elif dtype is None and _prefer_float32[0] and not isinstance(x, np.ndarray):
        arr = arr.astype(_PREFERRED.get(arr.dtype, arr.dtype))
    return convert_to_tensor(arr)


def _typed_leaves_dtype(x):
    """The dtype of a nested list holding tensors or NumPy scalars (None if it holds only
    Python scalars): theirs promoted together, its Python scalars weak, as TF's
    ``[tf.constant(1.0), 2.0]`` (float32) where NumPy alone would say float64."""
    leaves, stack = [], [x]
    while stack:
        item = stack.pop()
        if isinstance(item, (list, tuple)):
            stack.extend(item)
        else:
            leaves.append(item)
    typed = [isinstance(leaf, (Tensor, np.generic, np.ndarray)) for leaf in leaves]
    if not builtins.any(typed):
        return None
    return np.result_type(*[leaf.dtype if is_typed and not isinstance(leaf, Tensor) else
                            _np_dtype(leaf) for leaf, is_typed in zip(leaves, typed)])


def _result_type(*args):
    return np.result_type(*[_np_dtype(a) for a in args])


@export(_NP + "asarray")
def asarray(a, dtype=None):
    """`a` as a tensor (of `dtype`); a tensor of that dtype is returned as it is."""
    return _tensor(a, _as_np_type(dtype))


@export(_NP + "array")
def array(val, dtype=None, copy=True, ndmin=0):
    """A tensor of `val` (of `dtype`), with at least `ndmin` dimensions."""
    t = _tensor(val, _as_np_type(dtype))
    while t.shape.rank is not None and t.shape.rank < ndmin:
        t = _tf("expand_dims")(t, 0)
    return _tf("identity")(t) if copy else t


@export(_NP + "result_type")
def result_type(*arrays_and_dtypes):
    """NumPy's result dtype of the arguments, as a `tf.DType`."""
    args = [_as_np_type(a) if isinstance(a, (_d.DType, type, np.dtype, str)) else _np_dtype(a)
            for a in arrays_and_dtypes]
    return _d.as_dtype(np.result_type(*args))


def _unary(name, op, float_only=False):
    def fn(x):
        dtype = _np_dtype(x) if not isinstance(_np_dtype(x), (bool, int, float, complex)) \
            else np.asarray(x).dtype
        dtype = np.dtype(dtype)
        if float_only and dtype.kind in "biu":
            dtype = np.dtype(np.float64)
        return op(_tensor(x, dtype))
    fn.__name__ = name
    fn.__doc__ = f"NumPy's ``{name}`` on a tensor."
    return export(_NP + name)(fn)


def _binary(name, op, dtype_rule=None, bool_op=None):
    """NumPy's binary `name`: `op` of the operands promoted together (then to
    `dtype_rule` of that dtype); `bool_op` for two bool operands, where TF has one."""
    def fn(x1, x2):
        dtype = _result_type(x1, x2)
        if dtype_rule is not None:
            dtype = dtype_rule(dtype)
        if bool_op is not None and dtype == np.bool_:
            return bool_op(_tensor(x1, dtype), _tensor(x2, dtype))
        return op(_tensor(x1, dtype), _tensor(x2, dtype))
    fn.__name__ = name
    fn.__doc__ = f"NumPy's ``{name}`` of two arrays (broadcast; NumPy's dtype promotion)."
    return export(_NP + name)(fn)


def _to_float(dtype):
    return np.dtype(np.float64) if dtype.kind in "biu" else dtype


def _int8_op(op):
    """`op` of bools as int8s (TF's floor_divide and mod of bools)."""
    return lambda a, b: _tf(op)(_tf("cast")(a, _d.int8), _tf("cast")(b, _d.int8))


def _divide_type(dtype):
    """TF's true division dtype: bools divide as NumPy's floats; TF's `truediv` takes
    8 and 16-bit integers to float32, wider ones to float64."""
    if dtype.kind == "b":
        return _to_float(dtype)
    if dtype.kind in "iu":
        return np.dtype(np.float32 if dtype.itemsize <= 2 else np.float64)
    return dtype


# (of two bools: add and maximum are `or`, multiply and minimum `and`, as in TF)
_BOOL_OPS = {"add": "math.logical_or", "maximum": "math.logical_or",
             "multiply": "math.logical_and", "minimum": "math.logical_and"}
for _name, _op in (("add", "math.add"), ("subtract", "math.subtract"),
                   ("multiply", "math.multiply"), ("maximum", "math.maximum"),
                   ("minimum", "math.minimum"), ("floor_divide", "math.floordiv"),
                   ("mod", "math.floormod"), ("remainder", "math.floormod"),
                   ("power", "math.pow")):
    _bool = (_int8_op(_op) if _name in ("floor_divide", "mod", "remainder") else
             (lambda a, b, _op=_BOOL_OPS[_name]: _tf(_op)(a, b)) if _name in _BOOL_OPS
             else None)
    globals()[_name] = _binary(_name, lambda a, b, _op=_op: _tf(_op)(a, b), bool_op=_bool)
for _name in ("true_divide", "divide"):
    globals()[_name] = _binary(_name, lambda a, b: _tf("math.truediv")(a, b), _divide_type)
globals()["arctan2"] = _binary("arctan2", lambda a, b: _tf("math.atan2")(a, b), _to_float)
for _name, _op in (("equal", "math.equal"), ("not_equal", "math.not_equal"),
                   ("less", "math.less"), ("less_equal", "math.less_equal"),
                   ("greater", "math.greater"), ("greater_equal", "math.greater_equal")):
    # (TF orders bools as int32s)
    _bool = (None if _name in ("equal", "not_equal") else
             lambda a, b, _op=_op: _tf(_op)(_tf("cast")(a, _d.int32), _tf("cast")(b, _d.int32)))
    globals()[_name] = _binary(_name, lambda a, b, _op=_op: _tf(_op)(a, b), bool_op=_bool)


def _logical(name, op):
    """NumPy's logical `name`: of its operands as bools."""
    def fn(x1, x2):
        return _tf(op)(_tensor(x1, np.bool_), _tensor(x2, np.bool_))
    fn.__name__ = name
    fn.__doc__ = f"NumPy's ``{name}`` (of the operands' truth values)."
    return export(_NP + name)(fn)


for _name in ("logical_and", "logical_or", "logical_xor"):
    globals()[_name] = _logical(_name, "math." + _name)


@export(_NP + "logical_not")
def logical_not(x):
    """NumPy's ``logical_not`` (of the operand's truth value)."""
    return _tf("math.logical_not")(_tensor(x, np.bool_))
for _name, _op in (("exp", "math.exp"), ("log", "math.log"), ("sqrt", "math.sqrt"),
                   ("sin", "math.sin"), ("cos", "math.cos"), ("tan", "math.tan"),
                   ("tanh", "math.tanh"), ("sinh", "math.sinh"), ("cosh", "math.cosh"),
                   ("arcsin", "math.asin"), ("arccos", "math.acos"), ("arctan", "math.atan"),
                   ("log1p", "math.log1p"), ("expm1", "math.expm1"), ("log2", None),
                   ("log10", None), ("reciprocal", "math.reciprocal")):
    if _op is None:
        base = 2.0 if _name == "log2" else 10.0
        _fn = (lambda t, base=base: _tf("math.log")(t) / math.log(base))
    else:
        _fn = (lambda t, _op=_op: _tf(_op)(t))
    globals()[_name] = _unary(_name, _fn, float_only=True)
for _name, _op in (("abs", "math.abs"), ("absolute", "math.abs"), ("negative", "math.negative"),
                   ("square", "math.square"), ("sign", "math.sign")):
    globals()[_name] = _unary(_name, lambda t, _op=_op: _tf(_op)(t))
for _name, _op in (("isnan", "math.is_nan"), ("isfinite", "math.is_finite")):
    globals()[_name] = _unary(_name, lambda t, _op=_op: _tf(_op)(t), float_only=True)


def _inf_test(name, test):
    """NumPy's `name` of a tensor: `test` of its floats; False (Python's) for a tensor of
    another dtype, as TF answers."""
    def fn(x):
        if not x.dtype.is_floating:  # (`x` must have a dtype, as in TF)
            return False
        return test(asarray(x))
    fn.__name__ = name
    fn.__doc__ = f"NumPy's ``{name}``."
    return export(_NP + name)(fn)


isinf = _inf_test("isinf", lambda t: _tf("math.is_inf")(t))
for _name, _op in (("floor", "math.floor"), ("ceil", "math.ceil")):
    globals()[_name] = _unary(_name, lambda t, _op=_op: _tf(_op)(t), float_only=True)


@export(_NP + "around", _NP + "round")
def around(a, decimals=0):
    """Rounds half to even to `decimals` places (integers are returned as they are)."""
    t = asarray(a)
    dtype = t.dtype
    if not (dtype.is_floating or dtype.is_complex):  # (worked on in NumPy's float)
        t = _tensor(t, _to_float(np.dtype(np.int64)))
    # TF's factor: the Python float converted as a float32 first
    factor = _tf("cast")(_tf("cast")(float(10.0 ** decimals), _d.float32), t.dtype)
    return _tf("cast")(_tf("math.round")(t * factor) / factor, dtype)


@export(_NP + "clip")
def clip(a, a_min, a_max):
    """`a` within ``[a_min, a_max]`` (one bound may be None)."""
    if a_min is None and a_max is None:
        raise ValueError("Not more than one of `a_min` and `a_max` may be `None`.")
    if a_min is None:
        return minimum(a, a_max)
    if a_max is None:
        return maximum(a, a_min)
    dtype = _result_type(a, a_min, a_max)
    return _tf("clip_by_value")(_tensor(a, dtype), _tensor(a_min, dtype), _tensor(a_max, dtype))


@export(_NP + "where")
def where(condition, x=None, y=None):
    """Elements of `x` where `condition`, else of `y`; with only `condition`, its indices."""
    if x is None and y is None:
        return nonzero(condition)
    if x is None or y is None:
        raise ValueError("Both x and y must be ndarrays, or both must be None.")
    dtype = _result_type(x, y)
    return _tf("where")(_tensor(condition, np.bool_), _tensor(x, dtype), _tensor(y, dtype))


# -- creation -----------------------------------------------------------------------------
def _shape(shape):
    return [shape] if isinstance(shape, int) else list(shape)


@export(_NP + "zeros")
def zeros(shape, dtype=float):
    return _tf("zeros")(_shape(shape), _d.as_dtype(_as_np_type(dtype)))


@export(_NP + "ones")
def ones(shape, dtype=float):
    return _tf("ones")(_shape(shape), _d.as_dtype(_as_np_type(dtype)))


@export(_NP + "empty")
def empty(shape, dtype=float):
    return zeros(shape, dtype)


@export(_NP + "full")
def full(shape, fill_value, dtype=None):
    value = _tensor(fill_value, _as_np_type(dtype))
    return _tf("broadcast_to")(value, _shape(shape))


def _like(name, fill):
    def fn(a, dtype=None):
        t = asarray(a)
        dt = _d.as_dtype(_as_np_type(dtype)) if dtype is not None else t.dtype
        return _tf("fill")(_tf("shape")(t), _tf("cast")(fill, dt))
    fn.__name__ = name
    fn.__doc__ = f"NumPy's ``{name}``."
    return export(_NP + name)(fn)


zeros_like = _like("zeros_like", 0)
ones_like = _like("ones_like", 1)
empty_like = _like("empty_like", 0)


@export(_NP + "full_like")
def full_like(a, fill_value, dtype=None):
    t = asarray(a)
    dt = _d.as_dtype(_as_np_type(dtype)) if dtype is not None else t.dtype
    return _tf("fill")(_tf("shape")(t), _tf("cast")(fill_value, dt))


@export(_NP + "arange")
def arange(start, stop=None, step=1, dtype=None):
    """Evenly spaced values in ``[start, stop)``, NumPy's dtype (int64 or float64)."""
    if not step:
        raise ValueError("step must be non-zero.")
    if stop is None:
        start, stop = 0, start
    if dtype is not None:
        dt = _as_np_type(dtype)
    elif builtins.any(isinstance(v, Tensor) for v in (start, stop, step)):
        dt = np.dtype(_result_type(start, stop, step))  # (a tensor's dtype wins, as in TF)
    else:
        dt = np.arange(start, stop, step).dtype
        if _prefer_float32[0]:
            dt = _PREFERRED.get(dt, dt)
    if (stop - start) * step <= 0:
        return convert_to_tensor(np.zeros([0], dt))
    # As TF: `tf.range` of the arguments as they are (Python floats count in float32, which
    # decides the values and how many), then cast to the dtype.
    return _tf("cast")(_tf("range")(start, stop, step), _d.as_dtype(dt))


@export(_NP + "linspace")
def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=float, axis=0):
    """`num` values evenly spaced from `start` to `stop`. As TF with NumPy 2, a `dtype`
    given is that of the bounds as floats (``start * 1.0``): float64 (float32 preferred)."""
    if dtype:
        dtype = np.result_type(_np_dtype(start), _np_dtype(stop), 1.0)
        if _prefer_float32[0]:
            dtype = _PREFERRED.get(dtype, dtype)
    bounds = [get_static_value(b) if isinstance(b, Tensor) else b for b in (start, stop)]
    if builtins.any(b is None for b in bounds):  # a bound known only when the graph runs
        return _symbolic_linspace(start, stop, num, endpoint, retstep, dtype, axis)
    with np.errstate(all="ignore"):  # infinite or huge bounds: inf and NaN silently, as TF
        values = np.linspace(*bounds, num, endpoint=endpoint, retstep=True,
                             dtype=_as_np_type(dtype), axis=axis)
    if retstep:  # (the step a tensor too; NaN, a float32, for fewer than two values)
        step = values[1] if num > (1 if endpoint else 0) else np.float32(np.nan)
        return convert_to_tensor(values[0]), convert_to_tensor(step)
    return convert_to_tensor(values[0])


def _symbolic_linspace(start, stop, num, endpoint, retstep, dtype, axis):
    """linspace of bounds that are symbolic tensors: NumPy's steps (`start + i * step`, the
    last value `stop` itself when it is included) in TF ops."""
    dtype = np.result_type(_np_dtype(start), _np_dtype(stop), 1.0) if dtype is None else dtype
    start, stop = _tensor(start, dtype), _tensor(stop, dtype)
    shape = _tf("broadcast_dynamic_shape")(_tf("shape")(start), _tf("shape")(stop))
    start, stop = _tf("broadcast_to")(start, shape), _tf("broadcast_to")(stop, shape)
    div = num - 1 if endpoint else num
    step = (stop - start) / _tensor(builtins.max(div, 1), dtype)
    index = _tf("reshape")(_tensor(np.arange(num), dtype),
                           _tf("concat")([[num], _tf("ones_like")(shape)], 0))
    values = start[None] + index * step[None]
    if div <= 0:
        step = step * _tensor(np.nan, dtype)  # (no step between fewer than two values)
    if endpoint and num > 1:
        values = _tf("concat")([values[:-1], stop[None]], 0)
    if axis != 0:
        values = moveaxis(values, 0, axis)
    return (values, step) if retstep else values


@export(_NP + "eye")
def eye(N, M=None, k=0, dtype=float):  # noqa: N803 (NumPy's names)
    return convert_to_tensor(np.eye(N, M, k, dtype=_as_np_type(dtype)))


@export(_NP + "identity")
def identity(n, dtype=float):
    return eye(n, dtype=dtype)


# -- shapes -------------------------------------------------------------------------------
@export(_NP + "reshape")
def reshape(a, newshape, order="C"):
    """`a` in `newshape`, its elements read and placed in C order (last axis fastest) or
    Fortran order (``order="F"``: first axis fastest)."""
    if order not in ("C", "F"):
        raise ValueError(f"Unsupported order argument {order}")
    if order == "F":
        return _tf("transpose")(_tf("reshape")(_tf("transpose")(asarray(a)),
                                               _shape(newshape)[::-1]))
    return _tf("reshape")(asarray(a), _shape(newshape))


@export(_NP + "ravel")
def ravel(a):
    return _tf("reshape")(asarray(a), [-1])


@export(_NP + "transpose")
def transpose(a, axes=None):
    return _tf("transpose")(asarray(a), axes)


@export(_NP + "swapaxes")
def swapaxes(a, axis1, axis2):
    t = asarray(a)
    perm = list(range(t.shape.rank))
    perm[axis1], perm[axis2] = perm[axis2], perm[axis1]
    return _tf("transpose")(t, perm)


@export(_NP + "moveaxis")
def moveaxis(a, source, destination):
    """`a` with its axes `source` (an int or a sequence of them) moved to `destination`, the
    other axes keeping their order."""
    t = asarray(a)
    rank = t.shape.rank
    source, destination = (list(x) if isinstance(x, (list, tuple)) else [x]
                           for x in (source, destination))
    if len(source) != len(destination):
        raise ValueError("Arguments `source` and `destination` must have the same number of "
                         f"elements. Received: {len(source)} and {len(destination)}")
    # (an axis out of range is an AssertionError, as in TF)
    for axis in source + destination:
        if not -rank <= axis < rank:
            raise AssertionError(f"axis {axis} is out of bounds for array of rank {rank}")
    source, destination = [x % rank for x in source], [x % rank for x in destination]
    perm = [i for i in range(rank) if i not in source]
    for dest, src in sorted(zip(destination, source)):
        perm.insert(dest, src)
    return _tf("transpose")(t, perm)


@export(_NP + "expand_dims")
def expand_dims(a, axis):
    return _tf("expand_dims")(asarray(a), axis)


@export(_NP + "squeeze")
def squeeze(a, axis=None):
    return _tf("squeeze")(asarray(a), axis)


def _joined(arrays):
    dtype = _result_type(*arrays)
    return [_tensor(a, dtype) for a in arrays]


@export(_NP + "concatenate")
def concatenate(arys, axis=0):
    return _tf("concat")(_joined(arys), axis)


@export(_NP + "stack")
def stack(arrays, axis=0):
    return _tf("stack")(_joined(arrays), axis)


@export(_NP + "vstack")
def vstack(tup):
    arrays = [atleast_2d(a) for a in _joined(tup)]
    return _tf("concat")(arrays, 0)


@export(_NP + "hstack")
def hstack(tup):
    arrays = [atleast_1d(a) for a in _joined(tup)]
    return _tf("concat")(arrays, 0 if arrays[0].shape.rank == 1 else 1)


@export(_NP + "atleast_1d")
def atleast_1d(a):
    t = asarray(a)
    return _tf("reshape")(t, [1]) if t.shape.rank == 0 else t


@export(_NP + "atleast_2d")
def atleast_2d(a):
    t = atleast_1d(a)
    return _tf("expand_dims")(t, 0) if t.shape.rank == 1 else t


@export(_NP + "broadcast_to")
def broadcast_to(array, shape):
    return _tf("broadcast_to")(asarray(array), _shape(shape))


@export(_NP + "tile")
def tile(a, reps):
    t = asarray(a)
    reps = _shape(reps)
    while t.shape.rank < len(reps):
        t = _tf("expand_dims")(t, 0)
    reps = [1] * (t.shape.rank - len(reps)) + reps
    return _tf("tile")(t, reps)


@export(_NP + "repeat")
def repeat(a, repeats, axis=None):
    t = asarray(a)
    if axis is None:
        t, axis = ravel(t), 0
    return _tf("repeat")(t, repeats, axis)


@export(_NP + "flip")
def flip(m, axis=None):
    t = asarray(m)
    axes = list(range(t.shape.rank)) if axis is None else _shape(axis)
    return _tf("reverse")(t, axes)


@export(_NP + "split")
def split(ary, indices_or_sections, axis=0):
    t = asarray(ary)
    if isinstance(indices_or_sections, int):
        return _tf("split")(t, indices_or_sections, axis)
    bounds = [0] + list(indices_or_sections) + [t.shape[axis]]
    return _tf("split")(t, [b - a for a, b in zip(bounds, bounds[1:])], axis)


@export(_NP + "take")
def take(a, indices, axis=None, out=None, mode="clip"):
    """Elements of `a` at `indices` along `axis` (of the flattened `a` if None); an
    index out of range is clipped to the axis (``mode="clip"``) or wraps around it
    (``mode="wrap"``).

    >>> tf.experimental.numpy.take([10, 20, 30], [-1, 5, 1]).numpy()
    array([10, 30, 20])
    """
    if out is not None:
        raise ValueError("out argument is not supported in take.")
    if mode not in ("clip", "wrap", "raise"):
        raise ValueError(f"Invalid mode '{mode}' for take")
    if mode == "raise":
        raise ValueError("The 'raise' mode to take is not supported.")
    t, i = asarray(a), asarray(indices)
    if axis is None:
        t, axis = ravel(t), 0
    size = _tf("shape")(t, out_type=i.dtype)[axis]
    if mode == "clip":
        i = _tf("maximum")(_tf("minimum")(i, size - 1), 0)
    else:
        i = _tf("math.floormod")(i, size)
    return _tf("gather")(t, i, axis=axis)


@export(_NP + "diag")
def diag(v, k=0):
    t = asarray(v)
    if t.shape.rank == 1:
        return _tf("linalg.diag")(t, k=k)
    rows, cols = t.shape.as_list() if t.shape.rank == 2 else (None, None)
    if rows is not None and cols is not None and not -rows < k < cols:
        return _tf("zeros")([0], t.dtype)  # (a diagonal past the corner: empty, as NumPy)
    return _tf("linalg.diag_part")(t, k=k)


# -- reductions ---------------------------------------------------------------------------
def _reduction(name, op, dtype_rule=None):
    def fn(a, axis=None, dtype=None, keepdims=False):
        t = asarray(a)
        dt = _as_np_type(dtype) or (dtype_rule(np.dtype(t.dtype.as_numpy_dtype))
                                    if dtype_rule else None)
        if dt is not None:
            t = _tensor(t, dt)
        return _tf(op)(t, axis=axis, keepdims=keepdims)
    fn.__name__ = name
    fn.__doc__ = f"NumPy's ``{name}`` (`axis` None: over every element)."
    return export(_NP + name)(fn)


def _sum_type(dtype):
    """NumPy's accumulator for sum and prod: small ints widen to the platform's."""
    if dtype.kind == "b" or dtype.kind == "i" and dtype.itemsize < 8:
        return np.dtype(np.int64)
    if dtype.kind == "u" and dtype.itemsize < 8:
        return np.dtype(np.uint64)
    return dtype


sum = _reduction("sum", "math.reduce_sum", _sum_type)  # noqa: A001 (NumPy's name)
prod = _reduction("prod", "math.reduce_prod", _sum_type)
mean = _reduction("mean", "math.reduce_mean", _to_float)


def _extremum(name, op, bool_op):
    def fn(a, axis=None, out=None, keepdims=None):
        if out is not None:
            raise ValueError("Setting out is not supported.")
        t = asarray(a)
        return _tf(bool_op if t.dtype == _d.bool else op)(t, axis=axis,
                                                         keepdims=bool(keepdims))
    fn.__name__ = name
    fn.__doc__ = f"NumPy's ``{name}``."
    return export(_NP + name)(fn)


amax = max = _extremum("amax", "math.reduce_max", "math.reduce_any")  # noqa: A001
export(_NP + "max")(amax)
amin = min = _extremum("amin", "math.reduce_min", "math.reduce_all")  # noqa: A001
export(_NP + "min")(amin)


@export(_NP + "all")
def all(a, axis=None, keepdims=None):  # noqa: A001 (NumPy's name)
    """Whether every element of `a` (along `axis`) is true (non-zero)."""
    return _tf("math.reduce_all")(_tensor(a, np.bool_), axis=axis, keepdims=bool(keepdims))


@export(_NP + "any")
def any(a, axis=None, keepdims=None):  # noqa: A001 (NumPy's name)
    """Whether some element of `a` (along `axis`) is true (non-zero)."""
    return _tf("math.reduce_any")(_tensor(a, np.bool_), axis=axis, keepdims=bool(keepdims))


@export(_NP + "var")
def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
    t = _tensor(asarray(a), _as_np_type(dtype) or _to_float(np.dtype(asarray(a).dtype
                                                                      .as_numpy_dtype)))
    centred = t - _tf("math.reduce_mean")(t, axis=axis, keepdims=True)
    if t.dtype.is_complex:  # (NumPy's: the mean of |x - mean|², a real number)
        squares = _tf("math.square")(_tf("math.real")(centred)) + _tf("math.square")(
            _tf("math.imag")(centred))
    else:
        squares = _tf("math.square")(centred)
    total = _tf("math.reduce_sum")(squares, axis=axis, keepdims=keepdims)
    n = _tf("cast")(_tf("size")(t), total.dtype) / _tf("cast")(_tf("size")(total), total.dtype)
    return total / (n - ddof)


@export(_NP + "std")
def std(a, axis=None, keepdims=False):
    return _tf("math.sqrt")(var(a, axis=axis, keepdims=keepdims))


@export(_NP + "argmax")
def argmax(a, axis=None):
    t = asarray(a)
    return _tf("math.argmax")(ravel(t) if axis is None else t, axis=0 if axis is None else axis)


@export(_NP + "argmin")
def argmin(a, axis=None):
    t = asarray(a)
    return _tf("math.argmin")(ravel(t) if axis is None else t, axis=0 if axis is None else axis)


def _cumulative(name, op):
    def fn(a, axis=None, dtype=None):
        t = asarray(a, dtype)
        own = np.dtype(t.dtype.as_numpy_dtype)
        if dtype is None and own.kind in "iu":  # (TF: integers widen as NumPy's with int)
            t = _tensor(t, np.promote_types(own, int))
        return _tf(op)(ravel(t) if axis is None else t, axis=0 if axis is None else axis)
    fn.__name__ = name
    fn.__doc__ = f"NumPy's ``{name}`` (`axis` None: of the flattened array)."
    return export(_NP + name)(fn)


cumsum = _cumulative("cumsum", "math.cumsum")
cumprod = _cumulative("cumprod", "math.cumprod")


@export(_NP + "count_nonzero")
def count_nonzero(a, axis=None):
    return _tf("math.count_nonzero")(asarray(a), axis=axis, dtype=_d.int64)


@export(_NP + "nonzero")
def nonzero(a):
    t = asarray(a)
    indices = _tf("where")(_tf("cast")(t, _d.bool))
    return [indices[:, i] for i in range(t.shape.rank)]


# -- linear algebra -----------------------------------------------------------------------
@export(_NP + "matmul")
def matmul(x1, x2):
    """NumPy's matmul: a 1-D operand is a row (first) or column (second) vector, dropped
    from the result; batch dims broadcast. The op's errors are ValueErrors, as in TF."""
    dtype = _result_type(x1, x2)
    a, b = _tensor(x1, dtype), _tensor(x2, dtype)
    row, column = a.shape.rank == 1, b.shape.rank == 1
    if row:
        a = _tf("expand_dims")(a, 0)
    if column:
        b = _tf("expand_dims")(b, -1)
    try:
        out = _tf("linalg.matmul")(a, b)
    except errors.InvalidArgumentError as e:
        raise ValueError(str(e)) from None
    if column:
        out = _tf("squeeze")(out, [-1])
    if row:
        out = _tf("squeeze")(out, [-2] if out.shape.rank is None or out.shape.rank > 1 else [0])
    return out


@export(_NP + "dot")
def dot(a, b):
    dtype = _result_type(a, b)
    a, b = _tensor(a, dtype), _tensor(b, dtype)
    if a.shape.rank == 0 or b.shape.rank == 0:
        return a * b
    return _tf("tensordot")(a, b, [[a.shape.rank - 1], [builtins.max(b.shape.rank - 2, 0)]])


@export(_NP + "outer")
def outer(a, b):
    dtype = _result_type(a, b)
    return _tf("reshape")(_tensor(a, dtype), [-1, 1]) * _tf("reshape")(_tensor(b, dtype), [-1])


@export(_NP + "einsum")
def einsum(subscripts, *operands):
    dtype = _result_type(*operands)
    return _tf("einsum")(subscripts, *[_tensor(o, dtype) for o in operands])


def _check_sort_order(order):
    if order is not None:
        raise ValueError("The `order` argument is not supported. Pass order=None")


@export(_NP + "sort")
def sort(a, axis=-1, kind="quicksort", order=None):
    if kind != "quicksort":
        raise ValueError(f'Invalid value for argument `kind`. Only kind="quicksort" is '
                         f'supported. Received: kind={kind}')
    _check_sort_order(order)
    a = asarray(a)
    if axis is None:  # (NumPy's: the flattened array)
        a, axis = _tf("reshape")(a, [-1]), -1
    return _tf("sort")(a, axis=axis)


@export(_NP + "argsort")
def argsort(a, axis=-1, kind="quicksort", order=None):
    if kind not in ("quicksort", "stable"):
        raise ValueError(f'Invalid value for argument `kind`. Only kind="quicksort" and '
                         f'kind="stable" are supported. Received: kind={kind}')
    _check_sort_order(order)
    a = asarray(a)
    if axis is None:  # (NumPy's: the flattened array)
        a, axis = _tf("reshape")(a, [-1]), -1
    return _tf("cast")(_tf("argsort")(a, axis=axis, stable=True), _d.int64)


@export(_NP + "isclose")
def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    dtype = _to_float(_result_type(a, b))
    a, b = _tensor(a, dtype), _tensor(b, dtype)
    close = _tf("math.less_equal")(_tf("math.abs")(a - b), atol + rtol * _tf("math.abs")(b))
    if equal_nan:
        close = close | (_tf("math.is_nan")(a) & _tf("math.is_nan")(b))
    return close


@export(_NP + "allclose")
def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    return _tf("math.reduce_all")(isclose(a, b, rtol, atol, equal_nan))


@export(_NP + "array_equal")
def array_equal(a1, a2):
    t1, t2 = asarray(a1), asarray(a2)
    if t1.shape.as_list() != t2.shape.as_list():
        return convert_to_tensor(False)
    return _tf("math.reduce_all")(equal(t1, t2))


@export(_NP + "tensordot")
def tensordot(a, b, axes=2):
    dtype = _result_type(a, b)
    return _tf("tensordot")(_tensor(a, dtype), _tensor(b, dtype), axes)


@export(_NP + "inner")
def inner(a, b):
    dtype = _result_type(a, b)
    a, b = _tensor(a, dtype), _tensor(b, dtype)
    if a.shape.rank == 0 or b.shape.rank == 0:
        return a * b
    return _tf("tensordot")(a, b, [[-1], [-1]])


def _vectors_of_3(t, n):
    """`t`, whose last dimension holds `n`-element vectors, with a zero third element added
    to 2-element ones."""
    if n != 2:
        return t
    return _tf("pad")(t, [[0, 0]] * (t.shape.rank - 1) + [[0, 1]])


@export(_NP + "cross")
def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """NumPy's cross product of the vectors along `axisa` of `a` and `axisb` of `b` (2- or
    3-element ones; 2-element vectors have a zero third element, and the product of two
    2-element vectors is its third element alone), broadcast against each other and
    placed along `axisc` of the result.

    >>> tf.experimental.numpy.cross([1, 2], [3, 4])
    <tf.Tensor: shape=(), dtype=int64, numpy=-2>
    """
    if axis is not None:
        axisa = axisb = axisc = axis
    dtype = _result_type(a, b)
    a, b = moveaxis(_tensor(a, dtype), axisa, -1), moveaxis(_tensor(b, dtype), axisb, -1)
    na, nb = a.shape[-1], b.shape[-1]
    a, b = _vectors_of_3(a, na), _vectors_of_3(b, nb)
    shape = _tf("broadcast_dynamic_shape")(_tf("shape")(a), _tf("shape")(b))
    out = _tf("linalg.cross")(_tf("broadcast_to")(a, shape), _tf("broadcast_to")(b, shape))
    if na == 2 and nb == 2:
        return out[..., 2]
    return moveaxis(out, -1, axisc)


@export(_NP + "trace")
def trace(a, offset=0, axis1=0, axis2=1, dtype=None):
    t = asarray(a)
    if dtype is not None:
        t = _tensor(t, _as_np_type(dtype))
    rank = t.shape.rank
    if offset == 0 and rank is not None and axis1 in (-2, rank - 2) and axis2 in (-1,
                                                                             rank - 1):
        return _tf("linalg.trace")(t)  # (TF's: the dtype kept)
    # else the diagonal's NumPy sum, as TF (small ints widen)
    return sum(_tf("linalg.diag_part")(
        _tf("transpose")(t, [i for i in range(rank) if i not in (axis1 % rank, axis2 % rank)]
                         + [axis1, axis2]), k=offset), axis=-1)


@export(_NP + "diagonal")
def diagonal(a, offset=0, axis1=0, axis2=1):
    t = asarray(a)
    return _tf("linalg.diag_part")(_tf("transpose")(
        t, [i for i in range(t.shape.rank) if i not in (axis1, axis2)] + [axis1, axis2]),
        k=offset)


def _band(name, lower):
    def fn(m, k=0):
        t = asarray(m)
        if t.shape.rank is not None and t.shape.rank < 2:
            raise ValueError(f"Argument to {name} must have rank at least 2")
        rows, cols = t.shape[-2], t.shape[-1]
        if rows is None or cols is None:
            raise ValueError("Currently, the last two dimensions of the input array need to "
                             "be known.")
        i = np.arange(rows)[:, None]
        j = np.arange(cols)[None, :]
        keep = (j - i <= k) if lower else (j - i >= k)
        return _tf("where")(convert_to_tensor(keep), t, _tf("zeros_like")(t))
    fn.__name__ = name
    fn.__doc__ = f"NumPy's ``{name}``."
    return export(_NP + name)(fn)


tril = _band("tril", True)
triu = _band("triu", False)


@export(_NP + "roll")
def roll(a, shift, axis=None):
    t = asarray(a)
    if axis is None:
        return _tf("reshape")(_tf("roll")(ravel(t), shift, 0), _tf("shape")(t))
    return _tf("roll")(t, shift, axis)


@export(_NP + "append")
def append(arr, values, axis=None):
    if axis is None:
        return concatenate([ravel(arr), ravel(values)], 0)
    return concatenate([arr, values], axis)


@export(_NP + "diff")
def diff(a, n=1, axis=-1):
    if n < 0:
        raise ValueError(f"Argument `order` must be a non-negative integer. Received: n={n}")
    t = asarray(a)
    for _ in range(n):
        rank = t.shape.rank
        hi = [slice(None)] * rank
        lo = [slice(None)] * rank
        hi[axis], lo[axis] = slice(1, None), slice(None, -1)
        # (of bools: whether neighbours differ, as in TF)
        t = (_tf("math.not_equal") if t.dtype == _d.bool else _tf("math.subtract"))(
            t[tuple(hi)], t[tuple(lo)])
    return t


@export(_NP + "average")
def average(a, axis=None, weights=None, returned=False):
    if weights is None:
        avg = mean(a, axis=axis)
        total = _tf("cast")(size(a) if axis is None else asarray(a).shape[axis], avg.dtype)
    else:
        dtype = _to_float(_result_type(a, weights))
        a, w = _tensor(a, dtype), _tensor(weights, dtype)
        if axis is not None and w.shape.rank == 1 and a.shape.rank not in (None, 1):
            # 1-D weights run along `axis` (NumPy's rule), not the last axis
            at = axis % a.shape.rank
            w = _tf("reshape")(w, [-1] + [1] * (a.shape.rank - at - 1))
        total = _tf("math.reduce_sum")(w * _tf("ones_like")(a), axis=axis)
        avg = _tf("math.reduce_sum")(a * w, axis=axis) / total
    return (avg, total) if returned else avg


@export(_NP + "meshgrid")
def meshgrid(*xi, **kwargs):
    if kwargs.get("sparse", False):
        raise ValueError("Function `meshgrid` does not support returning sparse arrays yet. "
                         f"Received: sparse={kwargs['sparse']}")
    return _tf("meshgrid")(*[asarray(x) for x in xi], indexing=kwargs.get("indexing", "xy"))


@export(_NP + "real")
def real(val):
    t = asarray(val)
    return _tf("math.real")(t) if t.dtype.is_complex else t


@export(_NP + "imag")
def imag(val):
    t = asarray(val)
    return _tf("math.imag")(t) if t.dtype.is_complex else _tf("zeros_like")(t)


@export(_NP + "conj", _NP + "conjugate")
def conj(x):
    return _tf("math.conj")(asarray(x))


@export(_NP + "angle")
def angle(z, deg=False):
    t = asarray(z)
    # (TF's: of real numbers, a float32 whatever their dtype)
    out = _tf("math.angle")(t) if t.dtype.is_complex else _tf("where")(
        _tensor(t, _to_float(np.dtype(t.dtype.as_numpy_dtype))) < 0, math.pi, 0.0)
    return out * (180.0 / math.pi) if deg else out


globals()["deg2rad"] = _unary("deg2rad", lambda t: t * (math.pi / 180.0), float_only=True)
globals()["rad2deg"] = _unary("rad2deg", lambda t: t * (180.0 / math.pi), float_only=True)
globals()["exp2"] = _unary("exp2", lambda t: _tf("math.pow")(_tf("cast")(2.0, t.dtype), t),
                           float_only=True)
globals()["cbrt"] = _unary("cbrt", lambda t: _tf("math.sign")(t) * _tf("math.pow")(
    _tf("math.abs")(t), _tensor(1.0 / 3.0, t.dtype.as_numpy_dtype)), float_only=True)
# (ceil or floor, so that, as in TF, it has no gradient: None, not zeros)
globals()["fix"] = _unary("fix", lambda t: _tf("where")(t < 0, _tf("math.ceil")(t),
                                                          _tf("math.floor")(t)), float_only=True)
globals()["signbit"] = _unary("signbit", lambda t: _tf("fill")(_tf("shape")(t), False) if
                              t.dtype == _d.bool else _tf("math.less")(t, _tf("cast")(0, t.dtype)))
globals()["hypot"] = _binary("hypot", lambda a, b: _tf("math.sqrt")(a * a + b * b), _to_float)
globals()["heaviside"] = _binary("heaviside", lambda a, b: _tf("where")(
    a < 0, _tf("zeros_like")(a), _tf("where")(a > 0, _tf("ones_like")(a), b)), _to_float)


@export(_NP + "ptp")
def ptp(a, axis=None, keepdims=None):
    return amax(a, axis, keepdims=keepdims) - amin(a, axis, keepdims=keepdims)


@export(_NP + "logspace")
def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    with np.errstate(all="ignore"):
        values = np.logspace(start, stop, num, endpoint, base,
                             _as_np_type(dtype) or np.float64, axis)
    return convert_to_tensor(values)


@export(_NP + "geomspace")
def geomspace(start, stop, num=50, endpoint=True, dtype=float, axis=0):
    with np.errstate(all="ignore"):
        values = np.geomspace(start, stop, num, endpoint, _as_np_type(dtype), axis)
    return convert_to_tensor(values)


@export(_NP + "nanmean")
def nanmean(a, axis=None, dtype=None, keepdims=None):
    t = _tensor(a, _as_np_type(dtype) or _to_float(np.dtype(asarray(a).dtype.as_numpy_dtype)))
    ok = _tf("math.logical_not")(_tf("math.is_nan")(t))
    total = _tf("math.reduce_sum")(_tf("where")(ok, t, _tf("zeros_like")(t)), axis,
                                   bool(keepdims))
    return total / _tf("math.reduce_sum")(_tf("cast")(ok, t.dtype), axis, bool(keepdims))


@export(_NP + "iinfo")
def iinfo(int_type):
    return np.iinfo(_as_np_type(int_type))


@export(_NP + "finfo")
def finfo(dtype):
    return np.finfo(_as_np_type(dtype))


@export(_NP + "select")
def select(condlist, choicelist, default=0):
    out = asarray(default)
    dtype = _result_type(*choicelist, default)
    out = _tensor(out, dtype)
    for cond, choice in reversed(list(zip(condlist, choicelist))):
        out = _tf("where")(_tensor(cond, np.bool_), _tensor(choice, dtype), out)
    return out


@export(_NP + "compress")
def compress(condition, a, axis=None):
    t = asarray(a)
    if axis is None:
        t, axis = ravel(t), 0
    return _tf("boolean_mask")(t, _tensor(condition, np.bool_), axis=axis)


@export(_NP + "take_along_axis")
def take_along_axis(arr, indices, axis):
    """The elements of `arr` at `indices` along `axis`, the other axes of the two
    broadcast together; a negative index counts from the axis' end.

    >>> tnp = tf.experimental.numpy
    >>> tnp.take_along_axis(tnp.asarray([[10, 20], [30, 40]]),
    ...                     tnp.asarray([[1, 0]]), axis=0).numpy()
    array([[30, 20]])
    """
    t, i = asarray(arr), asarray(indices)
    if axis is None:
        t, axis = ravel(t), 0
    rank = t.shape.rank
    if i.shape.rank is not None and i.shape.rank != rank:
        raise errors.InvalidArgumentError(
            None, None, f"`indices` and `arr` must have the same number of dimensions; got "
            f"{i.shape.rank} and {rank}")
    axis = axis % rank
    i = _tf("where")(i < 0, i + _tf("shape")(t, out_type=i.dtype)[axis], i)
    t, i = moveaxis(t, axis, -1), moveaxis(i, axis, -1)
    outer = _tf("broadcast_dynamic_shape")(_tf("shape")(t)[:-1], _tf("shape")(i)[:-1])
    t = _tf("broadcast_to")(t, _tf("concat")([outer, _tf("shape")(t)[-1:]], 0))
    i = _tf("broadcast_to")(i, _tf("concat")([outer, _tf("shape")(i)[-1:]], 0))
    return moveaxis(_tf("gather")(t, i, batch_dims=rank - 1), -1, axis)


for _name, _op in (("arcsinh", "math.asinh"), ("arccosh", "math.acosh"),
                   ("arctanh", "math.atanh")):
    globals()[_name] = _unary(_name, lambda t, _op=_op: _tf(_op)(t), float_only=True)
globals()["fabs"] = _unary("fabs", lambda t: _tf("math.abs")(t))  # (TF's: abs)
globals()["positive"] = _unary("positive", lambda t: t)
globals()["sinc"] = _unary("sinc", lambda t: _tf("where")(
    t == 0, _tf("ones_like")(t), _tf("math.sin")(t * math.pi) / (
        _tf("where")(t == 0, _tf("ones_like")(t), t) * math.pi)), float_only=True)
isposinf = _inf_test("isposinf", lambda t: _tf("math.logical_and")(_tf("math.is_inf")(t), t > 0))
isneginf = _inf_test("isneginf", lambda t: _tf("math.logical_and")(_tf("math.is_inf")(t), t < 0))
for _name, _op in (("bitwise_and", "bitwise.bitwise_and"), ("bitwise_or", "bitwise.bitwise_or"),
                   ("bitwise_xor", "bitwise.bitwise_xor")):
    globals()[_name] = _binary(  # (of bools: as int8s, as TF)
        _name, lambda a, b, _op=_op: _tf(_op)(a, b),
        bool_op=lambda a, b, _op=_op: _tf("cast")(_int8_op(_op)(a, b), _d.bool))
globals()["bitwise_not"] = _unary("bitwise_not", lambda t: _tf(
    "math.logical_not" if t.dtype == _d.bool else "bitwise.invert")(t))
# (TF keeps the operands' promoted dtype here: integers stay integers)
globals()["float_power"] = _binary("float_power", lambda a, b: _tf("math.pow")(a, b))


def _log_add(log1p_of_pow):
    """Builds logaddexp-like `max(a, b) + log1p_of_pow(-|a - b|)`; where `a - b` is NaN (two
    equal infinities, or a NaN) the answer is `a + b`: inf, -inf or NaN, as NumPy's."""
    def fn(a, b):
        delta = a - b
        return _tf("where")(_tf("math.is_nan")(delta), a + b, _tf("math.maximum")(a, b) +
                            log1p_of_pow(-_tf("math.abs")(delta)))
    return fn


globals()["logaddexp"] = _binary("logaddexp", _log_add(
    lambda d: _tf("math.log1p")(_tf("math.exp")(d))), _to_float)
globals()["logaddexp2"] = _binary("logaddexp2", _log_add(
    lambda d: _tf("math.log1p")(_tf("math.pow")(_tf("cast")(2.0, d.dtype), d)) / math.log(2.0)),
    _to_float)
globals()["nextafter"] = _binary("nextafter", lambda a, b: _tf("math.nextafter")(a, b),
                                 _to_float)


def _gcd(a, b):
    a, b = _tf("math.abs")(a), _tf("math.abs")(b)
    for _ in range(64 if a.dtype.size == 8 else 32):  # Euclid's steps, enough for the width
        nonzero = b != 0
        safe = _tf("where")(nonzero, b, _tf("ones_like")(b))
        a, b = _tf("where")(nonzero, b, a), _tf("where")(nonzero, _tf("math.floormod")(a, safe),
                                                         b)
    return a


def _integers_only(fn):
    def checked(a, b):
        if not (a.dtype.is_integer and b.dtype.is_integer):
            raise ValueError("Arguments to gcd must be integers.")
        return fn(a, b)
    return checked


globals()["gcd"] = _binary("gcd", _integers_only(_gcd))
# (|a| // gcd * |b|, as NumPy: |a * b| // gcd would overflow where the lcm itself fits)
globals()["lcm"] = _binary("lcm", _integers_only(lambda a, b: _tf("where")(
    (a == 0) | (b == 0), _tf("zeros_like")(a),
    _tf("math.abs")(a) // _tf("where")(_gcd(a, b) == 0, _tf("ones_like")(a), _gcd(a, b)) *
    _tf("math.abs")(b))))


@export(_NP + "divmod")
def divmod(x1, x2):  # noqa: A001 (NumPy's name)
    return floor_divide(x1, x2), mod(x1, x2)


@export(_NP + "tri")
def tri(N, M=None, k=0, dtype=None):  # noqa: N803
    return convert_to_tensor(np.tri(N, M, k, dtype=_as_np_type(dtype) or np.float64))


@export(_NP + "vander")
def vander(x, N=None, increasing=False):  # noqa: N803
    t = asarray(x)
    if t.shape.rank is not None and t.shape.rank != 1:
        raise ValueError("x must be a one-dimensional array")
    n = t.shape[0] if N is None else N
    if n is None:  # a length known only when the graph runs
        n = _tf("shape")(t)[0]
        powers = _tf("range")(n) if increasing else _tf("range")(n - 1, -1, -1)
        return _tf("math.pow")(_tf("expand_dims")(t, -1), _tf("cast")(powers, t.dtype))
    powers = np.arange(n) if increasing else np.arange(n)[::-1]
    return _tf("math.pow")(_tf("expand_dims")(t, -1), _tensor(powers, t.dtype.as_numpy_dtype))


@export(_NP + "polyval")
def polyval(p, x):
    coefficients = asarray(p)
    if coefficients.shape.rank == 0:  # (one coefficient: a constant polynomial)
        coefficients = coefficients[None]
    dtype = _result_type(coefficients, x)
    x = _tensor(x, dtype)
    out = _tf("zeros_like")(x)
    for i in range(coefficients.shape[0]):
        out = out * x + _tensor(coefficients[i], dtype)
    return out


@export(_NP + "kron")
def kron(a, b):
    dtype = _result_type(a, b)
    a, b = atleast_1d(_tensor(a, dtype)), atleast_1d(_tensor(b, dtype))
    rank = builtins.max(a.shape.rank, b.shape.rank)
    # both of that rank (leading 1s), then every axis of a's interleaved with b's: out[i, j, ...]
    # = a[i // b.shape[0], ...] * b[i % b.shape[0], ...]
    shape_a = _tf("concat")([[1] * (rank - a.shape.rank), _tf("shape")(a)], 0)
    shape_b = _tf("concat")([[1] * (rank - b.shape.rank), _tf("shape")(b)], 0)
    ones = _tf("ones_like")(shape_a)
    a = _tf("reshape")(a, _tf("reshape")(_tf("stack")([shape_a, ones], 1), [-1]))
    b = _tf("reshape")(b, _tf("reshape")(_tf("stack")([ones, shape_b], 1), [-1]))
    return _tf("reshape")(a * b, shape_a * shape_b)


@export(_NP + "vdot")
def vdot(a, b):
    dtype = _result_type(a, b)
    a, b = ravel(_tensor(a, dtype)), ravel(_tensor(b, dtype))
    if a.dtype.is_complex:
        a = _tf("math.conj")(a)
    return _tf("math.reduce_sum")(a * b)


@export(_NP + "diagflat")
def diagflat(v, k=0):
    return _tf("linalg.diag")(ravel(v), k=k)


@export(_NP + "rot90")
def rot90(m, k=1, axes=(0, 1)):
    t = asarray(m)
    k %= 4
    if k == 0:
        return t
    if k == 2:
        return flip(flip(t, axes[0]), axes[1])
    perm = list(range(t.shape.rank))
    perm[axes[0]], perm[axes[1]] = perm[axes[1]], perm[axes[0]]
    if k == 1:
        return _tf("transpose")(flip(t, axes[1]), perm)
    return flip(_tf("transpose")(t, perm), axes[1])


@export(_NP + "fliplr")
def fliplr(m):
    return flip(m, 1)


@export(_NP + "flipud")
def flipud(m):
    return flip(m, 0)


@export(_NP + "atleast_3d")
def atleast_3d(a):
    t = asarray(a)
    if t.shape.rank == 0:
        return _tf("reshape")(t, [1, 1, 1])
    if t.shape.rank == 1:
        return t[None, :, None]
    if t.shape.rank == 2:
        return t[:, :, None]
    return t


@export(_NP + "dstack")
def dstack(tup):
    return _tf("concat")([atleast_3d(a) for a in _joined(tup)], 2)


@export(_NP + "hsplit")
def hsplit(ary, indices_or_sections):
    return split(ary, indices_or_sections, 1 if asarray(ary).shape.rank > 1 else 0)


@export(_NP + "vsplit")
def vsplit(ary, indices_or_sections):
    return split(ary, indices_or_sections, 0)


@export(_NP + "dsplit")
def dsplit(ary, indices_or_sections):
    return split(ary, indices_or_sections, 2)


@export(_NP + "pad")
def pad(array, pad_width, mode, **kwargs):
    """NumPy's ``pad`` in modes 'constant' (`constant_values`), 'reflect' and 'symmetric'."""
    t = asarray(array)
    widths = np.broadcast_to(np.asarray(pad_width, np.int64), (t.shape.rank, 2))
    mode = mode.upper()
    if mode not in ("CONSTANT", "REFLECT", "SYMMETRIC"):
        raise ValueError(f"Unsupported padding mode: {mode.lower()}")
    return _tf("pad")(t, widths.tolist(), mode, kwargs.get("constant_values", 0))


@export(_NP + "broadcast_arrays")
def broadcast_arrays(*args, **kwargs):
    tensors = [asarray(a) for a in args]
    shape = _tf("shape")(tensors[0])
    for t in tensors[1:]:
        shape = _tf("broadcast_dynamic_shape")(shape, _tf("shape")(t))
    return [_tf("broadcast_to")(t, shape) for t in tensors]


@export(_NP + "nansum")
def nansum(a, axis=None, dtype=None, keepdims=False):
    t = asarray(a)
    if t.dtype.is_floating:
        t = _tf("where")(_tf("math.is_nan")(t), _tf("zeros_like")(t), t)
    return sum(t, axis=axis, dtype=dtype, keepdims=keepdims)


@export(_NP + "nanprod")
def nanprod(a, axis=None, dtype=None, keepdims=False):
    t = asarray(a)
    if t.dtype.is_floating:
        t = _tf("where")(_tf("math.is_nan")(t), _tf("ones_like")(t), t)
    return prod(t, axis=axis, dtype=dtype, keepdims=keepdims)


@export(_NP + "isreal")
def isreal(x):
    t = asarray(x)
    return _tf("math.imag")(t) == 0 if t.dtype.is_complex else _tf("ones_like")(t, _d.bool)


@export(_NP + "iscomplex")
def iscomplex(x):
    t = asarray(x)
    return _tf("math.imag")(t) != 0 if t.dtype.is_complex else _tf("zeros_like")(t, _d.bool)


@export(_NP + "isrealobj")
def isrealobj(x):
    return not asarray(x).dtype.is_complex


@export(_NP + "iscomplexobj")
def iscomplexobj(x):
    return asarray(x).dtype.is_complex


@export(_NP + "promote_types")
def promote_types(type1, type2):
    return np.promote_types(_as_np_type(type1), _as_np_type(type2))


@export(_NP + "issubdtype")
def issubdtype(arg1, arg2):
    return np.issubdtype(arg1, arg2)


@export(_NP + "asanyarray")
def asanyarray(a, dtype=None):
    return asarray(a, dtype)


@export(_NP + "ascontiguousarray")
def ascontiguousarray(a, dtype=None):
    return array(a, dtype, ndmin=1)


@export(_NP + "diag_indices")
def diag_indices(n, ndim=2):
    return tuple(convert_to_tensor(np.arange(n, dtype=np.int32)) for _ in range(ndim))


@export(_NP + "ix_")
def ix_(*args):
    n = len(args)
    return [_tf("reshape")(asarray(a), [-1 if i == j else 1 for j in range(n)])
            for i, a in enumerate(args)]


@export(_NP + "flatten")
def flatten(a, order="C"):
    return ravel(a)


# -- inspection ---------------------------------------------------------------------------
@export(_NP + "size")
def size(x, axis=None):
    """The number of elements of `x`: a NumPy int when its shape is known, else an int32
    tensor (as TF's ``tf.size``)."""
    if axis is not None:
        raise NotImplementedError("axis argument is not supported in the current `np.size` "
                                  "implementation")
    if isinstance(x, (int, float, np.int32, np.int64, np.float32, np.float64)):
        return 1
    t = asarray(x)
    if t.shape.is_fully_defined():
        return np.int64(t.shape.num_elements())
    return _tf("size")(t)


@export(_NP + "ndim")
def ndim(a):
    return asarray(a).shape.rank


@export(_NP + "shape")
def shape(a):
    return asarray(a).shape


@export(_NP + "isscalar")
def isscalar(num):
    return asarray(num).shape.rank == 0


@export(_NP + "copy")
def copy(a):
    return _tf("identity")(asarray(a))


# -- random -------------------------------------------------------------------------------
_RANDOM = _NP + "random."


@export(_RANDOM + "seed")
def seed(s):
    _tf("random.set_seed")(s)


@export(_RANDOM + "rand")
def rand(*size):
    return _tf("random.uniform")(list(size), dtype=_d.float64)


@export(_RANDOM + "randn")
def randn(*size):
    return _tf("random.normal")(list(size), dtype=_d.float64)


@export(_RANDOM + "standard_normal")
def standard_normal(size=None):
    return _tf("random.normal")([] if size is None else _shape(size), dtype=_d.float64)


@export(_RANDOM + "uniform")
def uniform(low=0.0, high=1.0, size=None):
    return _tf("random.uniform")([] if size is None else _shape(size), low, high,
                                 dtype=_d.float64)


@export(_RANDOM + "random")
def random(size=None):
    """Uniform float64 samples in [0, 1) of shape `size` (a scalar when None)."""
    return uniform(size=size)


@export(_RANDOM + "poisson")
def poisson(lam=1.0, size=None):
    """int64 samples of the Poisson distribution of rate `lam`, of shape `size`."""
    return _tf("random.poisson")([] if size is None else _shape(size), lam, dtype=_d.int64)


@export(_RANDOM + "randint")
def randint(low, high=None, size=None, dtype=np.int64):
    if high is None:
        low, high = 0, low
    return _tf("random.uniform")([] if size is None else _shape(size), low, high,
                                 dtype=_d.as_dtype(_as_np_type(dtype)))


# -- NumPy behaviour of tensors -----------------------------------------------------------
def _tolist(t):
    if not isinstance(t, EagerTensor):
        raise ValueError("Symbolic Tensors do not support the tolist API.")
    return t.numpy().tolist()


_METHODS = {
    "reshape": lambda self, *shape, order="C": reshape(
        self, shape[0] if len(shape) == 1 else shape, order=order),
    "ravel": ravel, "flatten": ravel, "clip": clip, "mean": mean, "max": amax, "min": amin,
    "__pos__": lambda self: self, "transpose":
        lambda self, *axes: transpose(self, (axes[0] if len(axes) == 1 else axes) or None),
    "astype": lambda self, dtype: _tf("cast")(self, _d.as_dtype(dtype)),  # (TF's dtypes)
    "__round__": lambda self, ndigits=None: around(self, ndigits or 0),
    "tolist": lambda self: _tolist(self),
    "T": property(lambda self: transpose(self)),
    "size": property(lambda self: None if self.shape.num_elements() is None else np.int64(
        self.shape.num_elements())),
    "data": property(lambda self: self),
}
_OPERATORS = ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul", "lt", "le",
              "gt", "ge")


def _is_advanced(item):
    """Whether `item` of an index tuple is one of NumPy's advanced indices (an array of
    integers or bools: a list, tuple, array or tensor)."""
    return isinstance(item, (list, tuple, np.ndarray)) or (
        isinstance(item, Tensor) and item.shape.rank not in (None, 0))


def _advanced_positions(tensor, key):
    """The flat positions of `tensor` (of known shape) that the index tuple `key` selects,
    as NumPy's indexing arranges them; None when a value of `key` is known only at run
    time."""
    if not tensor.shape.is_fully_defined():
        return None
    items = []
    for item in key:
        if isinstance(item, Tensor):
            item = _tf("get_static_value")(item)
            if item is None:
                return None
        elif isinstance(item, (list, tuple)):
            try:
                item = np.asarray(item)
            except (TypeError, ValueError):  # (a symbolic tensor among the indices)
                return None
        items.append(item)
    shape = tensor.shape.as_list()
    return np.arange(int(np.prod(shape)), dtype=np.int64).reshape(shape)[tuple(items)]


def _one_advanced(basic, tensor, key, at):
    """`tensor[key]` where item `at` of `key` alone is an advanced index: the other items
    index as usual, then its rows are gathered (or masked) along the axis it lands on."""
    consumed = builtins.sum(1 for k in key if k is not None and k is not Ellipsis)
    axis = 0
    for item in key[:at]:
        if item is Ellipsis:
            axis += tensor.shape.rank - consumed
        elif item is None or isinstance(item, slice):
            axis += 1
    # (integers index with it: apart from it, NumPy puts its axes first)
    joined = [i for i, k in enumerate(key) if i == at or isinstance(k, (int, np.integer)) or (
        isinstance(k, Tensor) and k.shape.rank == 0)]
    rest = basic(tensor, key[:at] + (slice(None),) + key[at + 1:])
    index = asarray(key[at])
    if index.dtype == _d.bool:
        out, added = _tf("boolean_mask")(rest, index, axis=axis), 1
    else:
        out, added = _gather_from_end(rest, index, axis), index.shape.rank
    if joined[-1] - joined[0] + 1 == len(joined) or axis == 0:
        return out
    moved = list(range(axis, axis + added))
    return _tf("transpose")(out, moved + [a for a in range(out.shape.rank) if a not in moved])


def _gather_from_end(tensor, index, axis):
    """`tensor`'s rows `index` along `axis`, a negative index counting from the end."""
    size = _tf("shape")(tensor, out_type=index.dtype)[axis]
    return _tf("gather")(tensor, _tf("where")(index < 0, index + size, index), axis=axis)


_INDEX_ERROR = ("only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and "
                "integer or boolean arrays are valid indices")


def _check_index(item):
    """NumPy's IndexError for an index item of floats (a list of none is one)."""
    if isinstance(item, (float, np.floating)):
        raise IndexError(f"{_INDEX_ERROR}, got {item!r}")
    if isinstance(item, (list, np.ndarray, Tensor)):
        try:
            dtype = asarray(item).dtype
        except (TypeError, ValueError):
            return
        if not (dtype.is_integer or dtype == _d.bool):
            raise IndexError(f"{_INDEX_ERROR}, got {item!r}")


def _numpy_getitem(basic):
    """`Tensor.__getitem__` that also takes NumPy's advanced indices: a list, array or
    tensor of indices (rows gathered) or of bools (a mask), or a tuple mixing them with
    integers and slices (when the values and the tensor's shape are known)."""
    def getitem(self, key):
        for item in key if isinstance(key, tuple) else (key,):
            _check_index(item)
        if isinstance(key, (list, np.ndarray)) or (
                isinstance(key, Tensor) and key.shape.rank not in (None, 0)):
            index = asarray(key)
            if index.dtype == _d.bool:
                return _tf("boolean_mask")(self, index)
            return _gather_from_end(self, index, 0)
        advanced = [i for i, k in enumerate(key) if _is_advanced(k)] if isinstance(
            key, tuple) else []
        if len(advanced) == 1 and self.shape.rank is not None:
            return _one_advanced(basic, self, key, advanced[0])
        if advanced:
            positions = _advanced_positions(self, key)
            if positions is not None:
                return _tf("gather")(_tf("reshape")(self, [-1]), positions)
        return basic(self, key)
    return getitem
_enabled = []


def _promoting(fn, reflected):
    """The operator `fn` with NumPy's promotion of its operands first (int32 + float32 is
    float64, a Python float meeting an int tensor float64)."""
    def op(self, other):
        try:
            dtype = (np.result_type(_np_dtype(other), _np_dtype(self)) if reflected
                     else np.result_type(_np_dtype(self), _np_dtype(other)))
        except (TypeError, ValueError):
            return fn(self, other)
        if dtype.kind not in "biufc":
            return fn(self, other)
        return fn(_tensor(self, dtype), _tensor(other, dtype))
    op.__name__ = fn.__name__
    return op


@export(_NP + "experimental_enable_numpy_behavior",
        "python.ops.numpy_ops.np_config.enable_numpy_behavior")
def experimental_enable_numpy_behavior(prefer_float32=False, dtype_conversion_mode="legacy"):
    """Gives tensors NumPy's methods and properties (``.reshape``, ``.T``, ``.astype``,
    ``.ravel``, ``.transpose``, ``.clip``, ``.mean``, ``.tolist``, ``.size``, ...) and NumPy's
    dtype promotion in their operators (``int32 + float32`` is float64); `prefer_float32`
    makes Python floats float32 (complex numbers complex64).

    `dtype_conversion_mode` "legacy" (and "off") promote as above; TF's newer modes "safe"
    and "all" (weak Python-number types, ``int32 + float32`` float32) are not implemented:
    they promote as "legacy", with a warning."""
    if dtype_conversion_mode not in ("off", "legacy", "safe", "all"):
        raise ValueError(f"The provided promotion mode {dtype_conversion_mode} does not exist. "
                         f"Make sure the provided dtype conversion mode is one of the "
                         f"followings: 'off', 'legacy', 'safe' or 'all'.")
    if dtype_conversion_mode in ("safe", "all"):
        warnings.warn(f"dtype_conversion_mode={dtype_conversion_mode!r} is not implemented: "
                      f"tensors promote dtypes as in the 'legacy' mode (int32 + float32 is "
                      f"float64), where TF's mode would give other dtypes.", stacklevel=2)
    _prefer_float32[0] = bool(prefer_float32)
    for name, method in _METHODS.items():
        setattr(Tensor, name, method)
    if _enabled:
        return
    _enabled.append(True)
    from eagerflow._src.core.variables import Variable
    for cls in (Tensor, Variable):
        for name in _OPERATORS:
            for dunder, reflected in ((f"__{name}__", False), (f"__r{name}__", True)):
                fn = cls.__dict__.get(dunder)
                if fn is not None:
                    setattr(cls, dunder, _promoting(fn, reflected))
        # `@` is NumPy's matmul (vectors as rows and columns)
        cls.__matmul__ = lambda self, other: matmul(self, other)
        cls.__rmatmul__ = lambda self, other: matmul(other, self)
    Tensor.__getitem__ = _numpy_getitem(Tensor.__getitem__)


# NumPy's scalar types and constants.
_CONSTANTS = [n for n in ("bool_", "int8", "int16", "int32", "int64", "uint8", "uint16",
                          "uint32", "uint64", "float16", "float32", "float64", "complex64",
                          "complex128", "object_", "inexact") if hasattr(np, n)]
complex_, float_, int_, string_, unicode_ = (np.complex128, np.float64, np.int64, np.bytes_,
                                             np.str_)
_CONSTANTS += ["complex_", "float_", "int_", "string_", "unicode_"]
for _name in _CONSTANTS:
    if _name not in globals():
        globals()[_name] = getattr(np, _name)
ndarray = Tensor
pi, e, inf, nan, newaxis = math.pi, math.e, float("inf"), float("nan"), None
for _name in _CONSTANTS + ["ndarray", "pi", "e", "inf", "newaxis"]:
    export(_NP + _name).export_constant(__name__, _name)

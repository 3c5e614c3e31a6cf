"""Converting Python and NumPy values to tensors, with TensorFlow's dtype rules.

* Python ints become int32 (int64 when out of int32 range), floats float32,
  complex complex128, bools bool, str/bytes string (stored as bytes).
* NumPy arrays and scalars keep their dtype.
* With an explicit dtype, Python floats never silently become ints, and
  ints never become bools (TypeError, as in TF); NumPy arrays are cast.

>>> tf.convert_to_tensor([1, 2])
<tf.Tensor: shape=(2,), dtype=int32, numpy=array([1, 2], dtype=int32)>
"""
import numbers

import numpy as np

from eagerflow._src.backend import api_export
from eagerflow._src.backend.api_export import export
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import context, errors, registry
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.core.errors import shape_text
from eagerflow._src.core.tensor import EagerTensor, Tensor
from eagerflow._src.core.tensor_shape import Dimension, TensorShape

_wrap = EagerTensor._wrap
_INT32_MIN, _INT32_MAX = -2**31, 2**31 - 1
_FLOAT32_MAX = float(np.finfo(np.float32).max)
# The only types Python bools convert to, besides bool (as in TF).
_BOOL_TARGETS = (_d.int32, _d.int64, _d.uint64, _d.float16, _d.float32, _d.float64, _d.complex128)
_conversion_functions = []  # (type, fn) pairs from register_tensor_conversion_function


def is_tensor_like(value):
    """True for tensors and objects that convert to one themselves (variables)."""
    return isinstance(value, Tensor) or getattr(type(value), "__tf_tensor__", None) is not None


@export("register_tensor_conversion_function")
def register_tensor_conversion_function(base_type, conversion_func, priority=100):
    """Registers ``conversion_func(value, dtype=None, name=None, as_ref=False)`` for a type."""
    if not (isinstance(base_type, type) or (isinstance(base_type, tuple) and all(
            isinstance(t, type) for t in base_type))):
        raise TypeError(f"Argument `base_type` must be a type or a tuple of types. Obtained: "
                        f"{base_type.__name__ if hasattr(base_type, '__name__') else base_type}")
    types = base_type if isinstance(base_type, tuple) else (base_type,)
    if any(issubclass(t, (int, float, np.generic, np.ndarray)) for t in types):
        raise TypeError("Cannot register conversions for Python numeric types and NumPy "
                        "scalars and arrays.")
    if not callable(conversion_func):
        raise TypeError(f"Argument `conversion_func` must be callable. Received "
                        f"{conversion_func}.")
    _conversion_functions.append((priority, base_type, conversion_func))
    _conversion_functions.sort(key=lambda e: e[0])


def _to_bytes_array(value):
    """An object array of bytes from nested str/bytes data."""
    arr = np.array(value, dtype=object)
    flat = arr.reshape(-1)
    for i, v in enumerate(flat):
        if isinstance(v, str):
            flat[i] = v.encode("utf-8")
        elif type(v) is not bytes and isinstance(v, bytes):  # (NumPy's bytes scalars)
            flat[i] = bytes(v)
        elif not isinstance(v, bytes):
            raise TypeError(f"Failed to convert elements of {value!r} to Tensor.")
    return arr


def _describe(value):
    return repr(value) if isinstance(value, str) else str(value)


def _first_leaf(value):
    """The first element of nested lists `value`, into a NumPy array there (TF infers a
    sequence's type from its first number: a float64 array's first makes it float64)."""
    while isinstance(value, (list, tuple)) and value:
        value = value[0]
    if isinstance(value, np.ndarray) and value.size:
        return value.reshape(-1)[0]
    return value


def _python_to_array(value, dtype):
    """Converts (nested) Python data with TF's inference and checks; a list that cannot
    convert fails as TF's do, eagerly (ValueError) or in a graph being built (TypeError)."""
    try:
        return _python_array(value, dtype)
    except ValueError as e:
        if (isinstance(value, (list, tuple)) and context.get().graph is not None
                and str(e).startswith(_GRAPH_REWORDED)
                and not any(isinstance(v, (np.ndarray, np.generic)) for v in _flatten(value))):
            # (plain Python data: a list that held tensors is packed, failing as TF's packing)
            graph_error = _graph_conversion_error(value, dtype)
            if graph_error is not None:
                raise graph_error from None
        raise


# (the eager conversion errors that TF's graph conversion words as a TypeError of its own)
_GRAPH_REWORDED = ("Can't convert Python sequence with mixed types",
                   "Attempt to convert a value (None)")


def _graph_conversion_error(value, dtype):
    """TF's TypeError for a list a graph cannot hold as a constant: naming the first element
    not of `dtype` when one is requested, else the list."""
    if dtype is None:
        return TypeError(f"Failed to convert elements of {value} to Tensor. Consider casting "
                         f"elements to a supported type. See https://www.tensorflow.org/api_docs"
                         f"/python/tf/dtypes for supported TF dtypes.")
    for v in _flatten(value):
        text = isinstance(v, (str, bytes))
        if v is None or text != (dtype is _d.string):
            return TypeError(f"Expected {dtype.name}, but got {v} of type "
                             f"'{type(v).__name__}'.")
    return None


def _python_array(value, dtype):
    try:
        arr = np.asarray(value)
    except ValueError:
        try:  # str mixed with (non-UTF-8) bytes has no NumPy text type: try objects
            arr = np.array(value, dtype=object)
        except ValueError:
            raise ValueError("Can't convert non-rectangular Python sequence to Tensor.") \
                from None
    except OverflowError:
        raise ValueError("Can't convert Python sequence with out-of-range integer to Tensor.") \
            from None
    if arr.dtype == np.uint64 or (arr.dtype == np.float64 and arr.size
                                  and not np.abs(arr).max() < 2.0 ** 63):
        arr = _wide_ints(arr, value, dtype)
    kind = arr.dtype.kind
    if arr.size == 0 and kind == "f" and isinstance(value, (list, tuple)):
        # an empty list has no element type: it takes any requested dtype (float32 if none)
        return arr.astype(np.float32 if dtype is None else dtype.as_numpy_dtype)
    if kind == "O":
        if any(isinstance(v, Dimension) for v in arr.reshape(-1)):
            return _python_to_array(_dimension_values(value), dtype)
        if any(isinstance(v, (list, tuple)) for v in arr.reshape(-1)):
            raise ValueError("Can't convert non-rectangular Python sequence to Tensor.")
        flat = arr.reshape(-1)
        if all(isinstance(v, (str, bytes)) for v in flat):
            kind = "S"
        elif not _convertible(_first_leaf(value)):  # (TF infers the type from the first)
            raise _unsupported(_first_leaf(value), flat)
        elif not all(_convertible(v) for v in flat):  # (None among numbers or strings)
            error = _unsupported(value, flat)
            raise error if isinstance(error, api_export.TypeDispatch) else ValueError(
                "Can't convert Python sequence with mixed types to Tensor.")
        elif any(isinstance(v, int) for v in flat):
            raise ValueError("Can't convert Python sequence with out-of-range integer to Tensor.")
        else:
            raise _unsupported(value, flat)
    if kind in "SU":
        if not all(isinstance(v, (str, bytes)) for v in _flatten([value])):
            raise ValueError("Can't convert Python sequence with mixed types to Tensor.")
        if dtype is not None and dtype is not _d.string:
            raise TypeError(f"Cannot convert {_describe(value)} to EagerTensor of dtype "
                            f"{_kname(dtype)}")
        return _to_bytes_array(value)
    if kind in "iufb" and isinstance(value, (list, tuple)):
        _check_bools(value, kind, dtype)
    if dtype is None:
        if kind == "f":
            first = _first_leaf(value)
            if isinstance(first, np.floating):  # (TF infers from a NumPy scalar first leaf)
                return arr.astype(first.dtype)
            narrow = arr.astype(np.float32)
            if np.any(np.isinf(narrow) & np.isfinite(arr)):
                raise ValueError("Can't convert Python sequence with a value out of range for a "
                                 "double-precision float.")  # (sic) TF's message
            return narrow
        if kind in "iu":
            if arr.size == 0 or (_INT32_MIN <= arr.min() and arr.max() <= _INT32_MAX):
                return arr.astype(np.int32)
            if arr.dtype != np.int64:
                raise ValueError("Can't convert Python sequence with out-of-range integer to "
                                 "Tensor.")
            return arr
        return arr
    target = dtype._kind
    if (kind == "f" and target in "iub") or (kind == "c" and target != "c") or \
            (kind in "iu" and target == "b") or target in "sr" or \
            (kind == "b" and target != "b" and dtype not in _BOOL_TARGETS):
        raise TypeError(f"Cannot convert {_describe(value)} to EagerTensor of dtype "
                        f"{_kname(dtype)}")
    check_narrow_conversion(kind == "f", dtype)
    if kind in "iu" and target in "iu":
        return arr.astype(np.int64).astype(dtype.as_numpy_dtype)  # wraps like TF
    return arr.astype(dtype.as_numpy_dtype)


def _dimension_values(value):
    """`value` with each `Dimension` replaced by its int (an unknown one raises)."""
    if isinstance(value, (list, tuple)):
        return [_dimension_values(v) for v in value]
    if isinstance(value, Dimension):
        if value.value is None:
            raise ValueError(f"Cannot convert an unknown Dimension to a Tensor: {value}")
        return value.value
    return value


def _wide_ints(arr, value, dtype):
    """`arr` from Python data where NumPy met an int beyond int64 (it chose uint64, or float64
    for a list of ints): TF converts such ints only into uint64 (or a requested float type);
    a list mixing them with Python floats is a float list.
    """
    if dtype is not None and dtype._kind == "f":
        return arr
    ints = list(_flatten([value]))
    if not all(type(v) is int for v in ints):
        return arr  # floats among them: converted as floats, as TF does
    low, high = (0, 2**64) if dtype is _d.uint64 else (-2**63, 2**63)
    if not all(low <= v < high for v in ints):
        raise ValueError("Can't convert Python sequence with out-of-range integer to Tensor.")
    return np.array(value, np.uint64) if dtype is _d.uint64 else arr


def _check_bools(value, kind, dtype):
    """TF's errors for a sequence mixing bools with numbers: its first element sets the
    type; a Python bool is an int among numbers (a number to a requested numeric dtype),
    a NumPy bool only ever a bool."""
    flat = list(_flatten(value))
    if kind == "b":  # all bools: Python's alone convert to numbers
        if dtype is not None and dtype is not _d.bool and any(_numpy_bool(v) for v in flat):
            raise TypeError(f"Cannot convert {_describe(value)} to EagerTensor of dtype "
                            f"{_kname(dtype)}")
        return
    if any(_numpy_bool(v) for v in flat) or (
            _is_bool(flat[0]) and (dtype is None or dtype is _d.bool or (
                kind == "f" and not dtype.is_floating))):
        raise ValueError("Can't convert Python sequence with mixed types to Tensor.")


def _numpy_bool(v):
    return type(v) is np.bool_ or isinstance(v, np.ndarray) and not v.ndim and \
        v.dtype == np.bool_


def _convertible(v):
    """Whether TF makes a tensor element of the Python or NumPy scalar `v`."""
    return isinstance(v, (numbers.Number, str, bytes, np.generic))


def _is_bool(v):
    return type(v) in (bool, np.bool_) or getattr(v, "dtype", None) == np.bool_


def _flatten(value):
    for v in value:
        if isinstance(v, (list, tuple)):
            yield from _flatten(v)
        else:
            yield v


def _kname(dtype):
    from eagerflow._src.core.registry import kernel_type_name
    return kernel_type_name(dtype)


def check_narrow_conversion(floating, dtype):
    """TF's TypeError for Python numbers (`floating`, else integers) converted to a narrow
    `dtype` that its Cast kernels do not reach from double (or int64)."""
    if dtype in _d.NARROW_SET:
        source = _d.float64 if floating else _d.int64
        if not _d.narrow_cast_supported(source, dtype):
            raise TypeError(f"Error while casting from dtype {_kname(source)} to {dtype.name}. "
                            f"{{{{function_node __wrapped__Cast_device_/job:localhost/replica:0/"
                            f"task:0/device:CPU:0}}}} Cast {_kname(source)} to {dtype.name} is "
                            f"not supported")


def _scalar_to_array(value, dtype):
    """Fast path for a Python int/float/bool; None when the general path must decide."""
    cls = type(value)
    if dtype is None:
        if cls is float and (abs(value) <= _FLOAT32_MAX or value != value):
            return np.array(value, np.float32)  # (out of float32's range: a ValueError later)
        if cls is bool:
            return np.array(value)
        if cls is int and _INT32_MIN <= value <= _INT32_MAX:
            return np.array(value, np.int32)
    elif cls is float or cls is int:
        kind = dtype._kind
        if dtype in _d.NARROW_SET:
            return None  # (the general path checks the conversion)
        if kind in ("f", "c") or (cls is int and kind in ("i", "u")
                                  and _INT32_MIN <= value <= _INT32_MAX):
            return np.array(value).astype(dtype._np)  # ints wrap into narrow types, like TF
    return None


def _pack(value, dtype):
    """Nested lists holding tensors, stacked as TF packs them: every element takes `dtype`
    (Python values must convert to it, tensors must have it) and one shape.
    """
    parts = []
    for i, v in enumerate(value):
        if is_tensor_like(v):
            arr = _known_array(v)
            if _d.from_numpy(arr.dtype) is not dtype:
                raise errors.op_error(
                    errors.InvalidArgumentError, "Pack",
                    f"cannot compute Pack as input #{i}(zero-based) was expected to be a "
                    f"{_kname(dtype)} tensor but is a {_kname(_d.from_numpy(arr.dtype))} tensor")
        elif isinstance(v, (list, tuple)):
            arr = _pack(v, dtype)
        else:
            arr = to_array(v, dtype)
        if parts and arr.shape != parts[0].shape:
            raise errors.op_error(
                errors.InvalidArgumentError, "Pack",
                f"Shapes of all inputs must match: values[0].shape = {shape_text(parts[0].shape)} "
                f"!= values[{i}].shape = {shape_text(arr.shape)}")
        parts.append(arr)
    if not parts:
        return np.zeros((0,), dtype.as_numpy_dtype)
    return np.stack(parts)


def _known_array(tensor):
    """`tensor`'s value as an array when known before run time (a symbolic tensor's static
    value: ``tf.shape(x)[0]`` of a traced `x` of known shape); np.asarray raises TF's
    NotImplementedError for a symbolic tensor only run time knows."""
    if isinstance(tensor, Tensor) and not isinstance(tensor, EagerTensor):
        value = get_static_value(tensor)
        if value is not None:
            return np.asarray(value)
    return np.asarray(tensor)


def _first_tensor(value):
    """The first tensor (or variable) in nested lists `value`, or None."""
    return next((v for v in _flatten(value) if is_tensor_like(v)), None)


def _packed(value, dtype, cast=False):
    """Nested lists holding tensors of `dtype` as ``Pack`` ops, as TF packs them, so that
    graphs and tapes see the tensors in them; Python values in them take `dtype`.

    An inner list whose tensors have another dtype converts as constants (cast, eagerly);
    with `cast`, tensors of another dtype are cast to it by ``Cast`` ops (graph tensors
    in a list converted to another dtype, as TF's conversion casts them).
    """
    parts = []
    for v in value:
        if is_tensor_like(v):
            part = convert_to_tensor(v)
            if cast and part.dtype != dtype:
                part = dispatch(registry.get("Cast"), (part,), {"DstT": dtype})
        else:
            inner = _first_tensor(v) if isinstance(v, (list, tuple)) else None
            part = (_packed(v, dtype, cast) if inner is not None and (
                cast or _d.as_dtype(inner.dtype) is dtype) else from_array(to_array(v, dtype)))
        parts.append(part)
    return dispatch(registry.get("Pack"), parts, {"axis": 0})


def _ints_to_array(value, dtype):
    """A `range`, or a fully known `TensorShape`, as a vector of int32 (int64 if needed)."""
    if isinstance(value, TensorShape):
        if not value.is_fully_defined():
            raise ValueError(f"Cannot convert a partially known TensorShape {value} to a Tensor.")
        value = value.as_list()
    arr = np.array(list(value), np.int64)
    if dtype is not None:
        return to_array(arr, dtype)
    fits = arr.size == 0 or (_INT32_MIN <= arr.min() and arr.max() <= _INT32_MAX)
    return arr.astype(np.int32) if fits else arr


def to_array(value, dtype=None):
    """A host NumPy array for `value` under TF's conversion rules (no tensors here)."""
    arr = _scalar_to_array(value, dtype)
    if arr is not None:
        return arr
    if isinstance(value, (np.ndarray, np.generic)):
        if value.dtype.kind == "O":
            value = _object_array(value, dtype)
        if value.dtype.kind in "SUO":
            if isinstance(value, np.ndarray) and dtype is not None and dtype._kind in "iufcb":
                # TF parses an array of text into numbers as NumPy's astype does (its errors:
                # ``invalid literal for int() with base 10: np.str_('a')``)
                return value.astype(dtype.as_numpy_dtype)
            arr = _to_bytes_array(value)
            if dtype is not None and dtype is not _d.string:
                raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype "
                                f"{_kname(dtype)}")
            return arr
        if not value.dtype.isnative:  # (big-endian data read from files: the same numbers)
            value = value.astype(value.dtype.newbyteorder("="))
        if value.dtype not in _d._BY_NUMPY:
            if value.dtype.kind in "fc" and dtype is not None and dtype._kind in "iufc":
                # a long double takes a requested type (`tf.constant(2) + np.longdouble(1)`)
                return to_array(value.astype(np.complex128 if value.dtype.kind == "c"
                                             else np.float64), dtype)
            raise _unsupported_numpy(value.dtype)
        if dtype is None:
            return np.array(value)
        if dtype is _d.string:
            raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype string")
        return np.array(value, dtype=dtype.as_numpy_dtype)
    if isinstance(value, Dimension):  # (TF 1's shapes give them: ``x.shape[1]``)
        if value.value is None:
            raise ValueError(f"Cannot convert an unknown Dimension to a Tensor: {value}")
        return to_array(value.value, dtype)
    if value is None and context.get().graph is not None:  # (as TF's graph constants say)
        raise ValueError("None values not supported.")
    if value is None or isinstance(value, (dict, set)) or callable(value) and not hasattr(
            value, "__array__"):
        raise _unsupported(value)
    if hasattr(value, "__array__") and not isinstance(value, (list, tuple)):
        return to_array(np.asarray(value), dtype)
    if isinstance(value, (list, tuple)):
        first = _first_tensor(value)
        if first is not None:
            inferred = convert_to_tensor(first).dtype
            if dtype is None or dtype is inferred:
                return _pack(value, inferred)
            return to_array(np.asarray([np.asarray(v) for v in value]), dtype)  # cast
    if isinstance(value, (range, TensorShape)):
        return _ints_to_array(value, dtype)
    if not isinstance(value, (numbers.Number, str, bytes, list, tuple)):
        raise _unsupported(value)
    return _python_to_array(value, dtype)


def _unsupported(value, elements=None):
    """TF's ValueError for `value`, of a type no tensor is made of; `TypeDispatch` when it
    (or one of its `elements`) is of a type with dispatch targets (see `api_export`)."""
    try:
        shown = repr(value)
    except Exception:  # noqa: BLE001 (a user's repr that fails while a function traces
        shown = object.__repr__(value)  # must not stop the call from dispatching)
    text = (f"Attempt to convert a value ({shown}) with an unsupported type "
            f"({type(value)}) to a Tensor.")
    types = api_export.dispatch_types
    if types and any(isinstance(v, types) for v in (value, *(
            elements if elements is not None else ()))):
        return api_export.TypeDispatch(text)
    return ValueError(text)


# NumPy's names for the dtypes no tensor holds, in TF's error
_NUMPY_TYPE_NAMES = {"M": "NPY_DATETIME", "m": "NPY_TIMEDELTA", "f": "NPY_LONGDOUBLE",
                     "c": "NPY_CLONGDOUBLE"}


def _unsupported_numpy(np_dtype):
    """TF's ValueError for an array of a NumPy dtype no tensor holds (dates, long doubles,
    records)."""
    name = _NUMPY_TYPE_NAMES.get(np_dtype.kind)
    what = f"Unsupported numpy type: {name}" if name else "Unsupported numpy data type"
    return ValueError(f"Failed to convert a NumPy array to a Tensor ({what}).")


def _object_array(value, dtype):
    """A NumPy object array holds text (a string tensor), or numbers only a requested
    numeric dtype can take."""
    if dtype is not None and dtype is not _d.string:
        try:
            return value.astype(dtype.as_numpy_dtype)
        except (TypeError, ValueError, OverflowError):
            pass
    for v in value.reshape(-1):
        if not isinstance(v, (str, bytes)):
            raise ValueError("Failed to convert a NumPy array to a Tensor (Unsupported object "
                             f"type {type(v).__name__}).")
    return value


def from_array(array):
    """An eager tensor (or, while tracing, a graph constant) holding `array`."""
    s = context.get()
    if s.graph is not None:
        return s.graph.constant(array)
    if s.xp is not np:
        array = s.xp.asarray(array)
    return _wrap(array)


# NumPy dtypes of arrays that convert as they are (no text, objects or records to check)
_PLAIN_DTYPES = frozenset(k for k in _d._BY_NUMPY if isinstance(k, np.dtype) and k.kind in "biufc")


def _eager_copy(value):
    """An eager tensor holding a copy of NumPy array `value` when that is all its conversion
    does (a plain numeric dtype, no graph or tape); else None."""
    if value.dtype in _PLAIN_DTYPES and (_context(None) or context.get()).fast:
        result = EagerTensor()
        result._data = np.array(value)
        return result
    return None


@export("convert_to_tensor")
def convert_to_tensor(value, dtype=None, dtype_hint=None, name=None):
    """Converts `value` to a `Tensor`, TensorFlow's way.

    >>> tf.convert_to_tensor(1.5).dtype
    tf.float32
    >>> tf.convert_to_tensor(1, dtype_hint=tf.float32).dtype
    tf.float32
    """
    if type(value) is np.ndarray and dtype is None and dtype_hint is None:
        t = _eager_copy(value)
        if t is not None:
            return t
    if isinstance(value, Tensor):
        if dtype is not None:
            dtype = _d.as_dtype(dtype)
            if value.dtype != dtype:
                prefix = "" if name is None else f"{name}: "  # (TF names the argument)
                raise ValueError(f"{prefix}Tensor conversion requested dtype {dtype.name} for "
                                 f"Tensor with dtype {value.dtype.name}: {value!r}")
        return value
    if dtype is not None:
        dtype = _d.as_dtype(dtype)
    convert = getattr(type(value), "__tf_tensor__", None)
    if convert is not None:
        return convert(value, dtype, name)
    for _, base, fn in _conversion_functions:
        if isinstance(value, base):
            return fn(value, dtype=dtype, name=name, as_ref=False)
    result = None
    if dtype is None and dtype_hint is not None:
        try:
            result = _converted(value, _d.as_dtype(dtype_hint))
        except (TypeError, ValueError, NotImplementedError):  # (a graph tensor of another dtype)
            pass
    if result is None:
        result = _converted(value, dtype)
    graph = context.get().graph if name else None
    return result if graph is None else graph.name_constant(result, name)


def convert_input(value, dtype):
    """`value` as an input of an op whose input has the fixed type `dtype`, as TF's eager
    ops convert: a tensor, or a variable's read, keeps its dtype (the op's type check then
    raises InvalidArgumentError); other values convert to `dtype`.

    >>> convert_input([True], bool).dtype
    tf.bool
    """
    if isinstance(value, Tensor):
        return value
    convert = getattr(type(value), "__tf_tensor__", None)
    if convert is not None:
        return convert(value)
    return convert_to_tensor(value, dtype)


def _converted(value, dtype):
    """`value` (not a tensor) as a tensor of `dtype` (None: its own): lists holding tensors
    of that dtype as `_packed`, found in one walk of the list."""
    if isinstance(value, (list, tuple)):
        first = _first_tensor(value)
        if first is None:
            return from_array(_python_to_array(value, dtype))
        if dtype is None or _d.as_dtype(first.dtype) is dtype:
            return _packed(value, _d.as_dtype(first.dtype))
        if any(isinstance(v, Tensor) and not isinstance(v, EagerTensor)
               for v in _flatten(value)):  # graph tensors: cast to `dtype`, as TF packs them
            return _packed(value, dtype, cast=True)
    return from_array(to_array(value, dtype))


_context = context._lookup
_SCALARS = {}  # (type, number, numpy dtype) -> constant tensor, for `x * 0.5` in loops


def operand(value, like, fallback=False):
    """Converts the non-tensor operand of a binary op to tensor `like`'s dtype.

    As in TF, a value that cannot take that dtype (``0.5`` for an int32
    tensor) raises TypeError; with `fallback` (``add``, ``truediv``) it keeps
    its own dtype instead, so the op then reports the mismatch.
    """
    cls = type(value)
    if (cls is float or cls is int) and type(like) is EagerTensor and (
            _context(None) or context.get()).fast:
        np_dtype = like._data.dtype
        key = (cls, value, np_dtype)  # 2 == 2.0, but only 2 converts to an int tensor
        t = _SCALARS.get(key)
        if t is not None:
            return t
        t = _operand(value, like.dtype, fallback)
        if value and value == value and t._data.dtype == np_dtype:
            # zeros (0.0 == -0.0), NaN and fallbacks are not cached
            if len(_SCALARS) > 4096:
                _SCALARS.clear()
            _SCALARS[key] = t
        return t
    if isinstance(value, Tensor):
        return value
    convert = getattr(cls, "__tf_tensor__", None)
    if convert is not None:  # a variable: its read
        return convert(value)
    return _operand(value, like.dtype, fallback)


def _operand(value, dtype, fallback):
    if not fallback:
        return _converted(value, dtype)
    try:
        return _converted(value, dtype)
    except (TypeError, ValueError):
        return _converted(value, None)


@export("constant")
def constant(value, dtype=None, shape=None, name="Const"):
    """Creates a constant tensor from a value, optionally of `dtype` and `shape`.

    A scalar (one element) is broadcast to `shape`; otherwise the number of
    elements must match, and the values are reshaped.

    >>> tf.constant(7, shape=[2])
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([7, 7], dtype=int32)>
    """
    if type(value) is np.ndarray and dtype is None and shape is None:
        t = _eager_copy(value)
        if t is not None:
            return t
    if isinstance(value, Tensor) and not isinstance(value, EagerTensor):
        graph = getattr(value, "graph", None)
        if getattr(graph, "lifts_eager_ops", False) and context.get().graph is not graph:
            np.asarray(value)  # a Keras tensor: TF's constant reads its value, which fails
        return convert_to_tensor(value, dtype)  # symbolic: already a graph value
    if isinstance(value, EagerTensor) and dtype is not None and value.dtype != dtype:
        raise TypeError(f"Expected tensor {np.asarray(value)} with dtype "
                        f"{_d.as_dtype(dtype)!r}, but got dtype {value.dtype!r}.")
    if isinstance(value, EagerTensor) or getattr(type(value), "__tf_tensor__", None):
        if not isinstance(value, EagerTensor):  # (a ragged tensor fails as TF's conversion)
            value = convert_to_tensor(value)
        value = np.asarray(value)  # variables are read, and cast to `dtype`
    elif isinstance(value, (list, tuple)):
        _check_no_nested_tensors(value)
    if dtype is not None:
        dtype = _d.as_dtype(dtype)
    arr = to_array(value, dtype)
    if shape is not None:
        arr = _shaped_constant(arr, value, shape, context.get().graph is not None)
    graph = context.get().graph
    if graph is not None and name:  # a node named as the user asked (``Const`` by default)
        context.check_node_name(name)
        return graph.constant(arr, name=graph.unique_name(name))
    return from_array(arr)


def _shaped_constant(arr, value, shape, traced):
    """`arr` of `constant`'s `shape`: reshaped (as many elements) or filled (one), as TF does
    eagerly, or (`traced`) as TF's graph constants, whose dims must all be known."""
    if traced:
        if isinstance(shape, TensorShape) and shape.rank is None:
            raise TypeError("int() argument must be a string, a bytes-like object or a real "
                            "number, not 'TensorShape'")
        dims = [int(d) for d in shape]
        if arr.size == int(np.prod(dims, dtype=np.int64)):
            return arr.reshape(dims)
        if arr.shape in ((), (1,)):
            return np.broadcast_to(arr.reshape(()), dims).copy()
        raise TypeError(f"Expected Tensor's shape: {tuple(dims)}, but got {arr.shape}.")
    shape = TensorShape(shape)
    n = shape.num_elements()
    if arr.size == n:
        return arr.reshape(shape.as_list())
    if arr.size == 1:  # TF fills the shape, converted as a tensor (unknown dims fail there)
        dims = [int(d) for d in convert_to_tensor(shape.as_list(), _d.int32)._data]
        if arr.ndim > 1:
            raise errors.eager_error(errors.InvalidArgumentError, "Fill", f"value must "
                                     f"represent a scalar, got shape {shape_text(arr.shape)}",
                                     name=None)
        return np.broadcast_to(arr.reshape(()), dims).copy()
    raise TypeError(f"Eager execution of tf.constant with unsupported shape. Tensor {arr} "
                    f"(converted from {value}) has {arr.size} elements, but got `shape` "
                    f"{shape} with {n} elements).")


def _check_no_nested_tensors(value):
    """TF's `constant` takes only plain values inside lists, failing on a tensor or
    variable there (`convert_to_tensor` and `stack` take them).  Like TF, the first
    element decides the element type: a tensor there fails on its len(), one
    further on is of another type."""
    if context.get().graph is not None:
        if any(is_tensor_like(v) for v in _flatten(value)):
            raise TypeError("Expected any non-tensor type, but got a tensor instead.")
        return
    first = value
    while isinstance(first, (list, tuple)) and first:
        first = first[0]
    if isinstance(first, EagerTensor):
        if first.shape.num_elements() != 0:  # TF's len() of its scalar elements
            raise ValueError("TypeError: Scalar tensor has no `len()`\n")
        return
    if getattr(type(first), "__tf_tensor__", None):
        try:
            len(first)
        except TypeError as e:
            raise ValueError(f"TypeError: {e}\n") from None
    if any(is_tensor_like(v) for v in _flatten(value)):
        raise ValueError("Can't convert Python sequence with mixed types to Tensor.")


@export("is_tensor")
def is_tensor(x):
    """True for tensors (eager or symbolic), variables, and the types that say they are
    tensor-like (``is_tensor_like``: sparse tensors, as in TF).

    >>> tf.is_tensor(tf.constant(1)), tf.is_tensor(1)
    (True, False)
    """
    return is_tensor_like(x) or getattr(x, "is_tensor_like", False) is True


@export("is_symbolic_tensor")
def is_symbolic_tensor(tensor):
    """True for a graph tensor (one a traced function computes), False for eager tensors,
    variables and other values.

    >>> tf.is_symbolic_tensor(tf.constant(1))
    False
    """
    return isinstance(tensor, Tensor) and not isinstance(tensor, EagerTensor)


def get_static_value(tensor, partial=False):
    """The value of `tensor` as a NumPy array when it is known now (always, for eager tensors;
    for a graph tensor, whenever constants and static shapes determine it: what eagerflow's
    ops decide by; ``tf.get_static_value`` answers as TF's narrower evaluator does)."""
    if isinstance(tensor, EagerTensor):
        return tensor.numpy()
    if not is_tensor_like(tensor):
        return to_array(tensor)
    if getattr(type(tensor), "__tf_tensor__", None) is not None:
        return None  # a variable's value may change
    return getattr(tensor, "static_value", lambda: None)()

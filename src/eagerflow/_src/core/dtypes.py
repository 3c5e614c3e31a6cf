"""`DType` objects and conversions to and from NumPy dtypes.

>>> tf.as_dtype("float32") is tf.float32
True
>>> tf.float32.as_numpy_dtype
<class 'numpy.float32'>
"""
import builtins

import numpy as np

from eagerflow._src.backend.api_export import export


def _bfloat16_type():
    # ml_dtypes provides NumPy's bfloat16; it is a core dependency.
    import ml_dtypes
    return ml_dtypes.bfloat16


def _ml_dtype(name):
    """The NumPy scalar type of ml_dtypes' `name` (float8_e4m3fn, int4, ...)."""
    import ml_dtypes
    return getattr(ml_dtypes, name)


@export("dtypes.DType", "DType")
class DType:
    """A tensor element type, e.g. `float32`; compares equal to its NumPy dtype and name."""

    __slots__ = ("_name", "_enum", "_np", "_kind")

    def __init__(self, name, enum, np_type, kind):
        self._name = name
        self._enum = enum
        self._np = np_type
        self._kind = kind  # 'f' float, 'i' int, 'u' unsigned, 'c' complex, 'b' bool, other

    name = property(lambda self: self._name)
    as_datatype_enum = property(lambda self: self._enum)

    @property
    def as_numpy_dtype(self):
        """The NumPy scalar type of this dtype (`object` for strings)."""
        return self._np

    @property
    def base_dtype(self):
        return self

    @property
    def real_dtype(self):
        return {"complex64": float32, "complex128": float64}.get(self._name, self)

    is_floating = property(lambda self: self._kind == "f")
    is_integer = property(lambda self: self._kind in ("i", "u"))
    is_unsigned = property(lambda self: self._kind == "u")
    is_complex = property(lambda self: self._kind == "c")
    is_bool = property(lambda self: self._kind == "b")
    is_quantized = property(lambda self: self._kind == "q")
    is_numeric = property(lambda self: self._kind in ("f", "i", "u", "c", "q")
                          and self not in NARROW_SET)
    is_numpy_compatible = property(lambda self: self._kind != "r")

    @property
    def size(self):
        if self._kind in ("s", "r"):
            return 0
        return np.dtype(self._np).itemsize

    def _limit(self, which):
        """`which` ("min" or "max") of a real numeric type; TypeError for the others, as TF."""
        if self._kind == "f":
            return getattr(_finfo(self), which)
        if self._kind in ("i", "u"):
            if self in NARROW_SET:
                import ml_dtypes
                return int(getattr(ml_dtypes.iinfo(self._np), which))
            return int(getattr(np.iinfo(self._np), which))
        kind = "quantized type" if self._kind == "q" else "type"
        raise TypeError(f"Cannot find {which}imum value of {self} with {kind} {self}.")

    min = property(lambda self: self._limit("min"), doc="Smallest value of the type.")
    max = property(lambda self: self._limit("max"), doc="Largest value of the type.")

    @property
    def limits(self):
        """``(0, top)`` of the intensity range of image data of this type (top 1 for floats)."""
        top = _INTENSITY_TOP.get(self._name)
        if top is None:
            raise ValueError(f"{self} does not have defined limits.")
        return 0, top

    def is_compatible_with(self, other):
        """True when `other` converts to this same dtype."""
        try:
            return as_dtype(other) is self
        except TypeError:
            return False

    def __eq__(self, other):
        if other is self:
            return True
        if other is None or type(other) is DType:  # (one instance per dtype)
            return False
        try:
            return as_dtype(other) is self
        except TypeError:
            return False

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return self._enum

    def __repr__(self):
        return f"tf.{self._name}"

    def __str__(self):
        return f"<dtype: '{self._name}'>"

    def __reduce__(self):
        return as_dtype, (self._name,)


def _finfo(dtype):
    if dtype in NARROW_SET or dtype.real_dtype is bfloat16:
        import ml_dtypes
        return ml_dtypes.finfo(dtype.real_dtype.as_numpy_dtype)
    return np.finfo(dtype.real_dtype.as_numpy_dtype)


float16 = DType("float16", 19, np.float16, "f")
half = float16
float32 = DType("float32", 1, np.float32, "f")
float64 = DType("float64", 2, np.float64, "f")
double = float64
int8 = DType("int8", 6, np.int8, "i")
int16 = DType("int16", 5, np.int16, "i")
int32 = DType("int32", 3, np.int32, "i")
int64 = DType("int64", 9, np.int64, "i")
uint8 = DType("uint8", 4, np.uint8, "u")
uint16 = DType("uint16", 17, np.uint16, "u")
uint32 = DType("uint32", 22, np.uint32, "u")
uint64 = DType("uint64", 23, np.uint64, "u")
bool = DType("bool", 10, np.bool_, "b")  # noqa: A001 (TF's public name)
complex64 = DType("complex64", 8, np.complex64, "c")
complex128 = DType("complex128", 18, np.complex128, "c")
string = DType("string", 7, object, "s")
resource = DType("resource", 20, object, "r")
variant = DType("variant", 21, object, "r")
bfloat16 = DType("bfloat16", 14, _bfloat16_type(), "f")
# Quantized types: names and enums only (no kernels take them).
qint8 = DType("qint8", 11, np.dtype([("qint8", "i1")]), "q")
quint8 = DType("quint8", 12, np.dtype([("quint8", "u1")]), "q")
qint32 = DType("qint32", 13, np.dtype([("qint32", "i4")]), "q")
qint16 = DType("qint16", 15, np.dtype([("qint16", "i2")]), "q")
quint16 = DType("quint16", 16, np.dtype([("quint16", "u2")]), "q")
export("dtypes.float16", "float16", "dtypes.half", "half").export_constant(__name__, "float16")
export("dtypes.float32", "float32").export_constant(__name__, "float32")
export("dtypes.float64", "float64", "dtypes.double", "double").export_constant(__name__, "float64")
export("dtypes.int8", "int8").export_constant(__name__, "int8")
export("dtypes.int16", "int16").export_constant(__name__, "int16")
export("dtypes.int32", "int32").export_constant(__name__, "int32")
export("dtypes.int64", "int64").export_constant(__name__, "int64")
export("dtypes.uint8", "uint8").export_constant(__name__, "uint8")
export("dtypes.uint16", "uint16").export_constant(__name__, "uint16")
export("dtypes.uint32", "uint32").export_constant(__name__, "uint32")
export("dtypes.uint64", "uint64").export_constant(__name__, "uint64")
export("dtypes.bool", "bool").export_constant(__name__, "bool")
export("dtypes.complex64", "complex64").export_constant(__name__, "complex64")
export("dtypes.complex128", "complex128").export_constant(__name__, "complex128")
export("dtypes.string", "string").export_constant(__name__, "string")
export("dtypes.resource", "resource").export_constant(__name__, "resource")
export("dtypes.variant", "variant").export_constant(__name__, "variant")
export("dtypes.bfloat16", "bfloat16").export_constant(__name__, "bfloat16")
export("dtypes.qint8", "qint8").export_constant(__name__, "qint8")
export("dtypes.quint8", "quint8").export_constant(__name__, "quint8")
export("dtypes.qint32", "qint32").export_constant(__name__, "qint32")
export("dtypes.qint16", "qint16").export_constant(__name__, "qint16")
export("dtypes.quint16", "quint16").export_constant(__name__, "quint16")
# (TF's set also holds the quantized reference types, which eagerflow has not)
QUANTIZED_DTYPES = frozenset((qint8, quint8, qint16, quint16, qint32))
export("dtypes.QUANTIZED_DTYPES").export_constant(__name__, "QUANTIZED_DTYPES")

# Narrow types of ml_dtypes (TF's experimental ones): casts and moves of elements only, no
# arithmetic. float8_e4m3fn and float8_e5m2 cast to and from the other floats; int4 and
# uint4 to and from the other integers; the rest only to themselves.
float8_e5m2 = DType("float8_e5m2", 24, _ml_dtype("float8_e5m2"), "f")
float8_e4m3fn = DType("float8_e4m3fn", 25, _ml_dtype("float8_e4m3fn"), "f")
float8_e4m3fnuz = DType("float8_e4m3fnuz", 26, _ml_dtype("float8_e4m3fnuz"), "f")
float8_e4m3b11fnuz = DType("float8_e4m3b11fnuz", 27, _ml_dtype("float8_e4m3b11fnuz"), "f")
float8_e5m2fnuz = DType("float8_e5m2fnuz", 28, _ml_dtype("float8_e5m2fnuz"), "f")
int4 = DType("int4", 29, _ml_dtype("int4"), "i")
uint4 = DType("uint4", 30, _ml_dtype("uint4"), "u")
int2 = DType("int2", 31, _ml_dtype("int2"), "i")
uint2 = DType("uint2", 32, _ml_dtype("uint2"), "u")
float4_e2m1fn = DType("float4_e2m1fn", 33, _ml_dtype("float4_e2m1fn"), "f")
NARROW = (float8_e5m2, float8_e4m3fn, float8_e4m3fnuz, float8_e4m3b11fnuz, float8_e5m2fnuz,
          int4, uint4, int2, uint2, float4_e2m1fn)
NARROW_SET = frozenset(NARROW)  # (membership by hash: a tuple's compares with each)
FLOAT8 = (float8_e4m3fn, float8_e5m2)  # (those with casts to and from the other floats)
INT4 = (int4, uint4)  # (those with casts to and from the other integers)
for _d in NARROW:
    export("dtypes.experimental." + _d.name, "experimental." + _d.name).export_constant(
        __name__, _d.name)
del _d



def narrow_cast_supported(src, dst):
    """Whether TF's Cast has a kernel from `src` to `dst` where one is a narrow type: float8
    e4m3fn and e5m2 from the other floats and to any real or complex type, int4 and uint4
    to and from the integers, the rest only to themselves."""
    if src is dst:
        return True
    if dst in FLOAT8:
        return src in FLOAT8 or src in (float16, bfloat16, float32, float64)
    if src in FLOAT8:
        return dst not in NARROW_SET
    wide_ints = (int8, int16, int32, int64, uint8, uint16, uint32, uint64) + INT4
    return src in wide_ints and dst in wide_ints


# The top of the intensity range of image data, per type name (`DType.limits`).
_INTENSITY_TOP = {"bool": True, "float32": 1, "float64": 1}
_INTENSITY_TOP.update((d.name, int(np.iinfo(d.as_numpy_dtype).max)) for d in (
    int8, int16, int32, int64, uint8, uint16, uint32, uint64))

ALL = (float16, bfloat16, float32, float64, int8, int16, int32, int64, uint8, uint16,
       uint32, uint64, bool, complex64, complex128, string, resource, variant, qint8, quint8,
       qint16, quint16, qint32)

_BY_NAME = {d.name: d for d in ALL + NARROW}
_BY_NAME.update(half=float16, double=float64, float=float32)
_BY_ENUM = {d.as_datatype_enum: d for d in ALL + NARROW}
# NumPy dtype -> DType; `object` arrays hold strings (bytes).
_BY_NUMPY = {np.dtype(d.as_numpy_dtype): d for d in ALL + NARROW if d._kind not in ("s", "r")}
_BY_NUMPY[np.dtype(object)] = string
_BY_NUMPY[np.dtype("S")] = string
_BY_NUMPY[np.dtype("U")] = string
# The value of a variant tensor (a list, ops/list_ops.py) or a resource tensor (a lookup
# table) is no array: it reports this DType.
_BY_NUMPY[variant] = variant
_BY_NUMPY[resource] = resource
# An array of variant elements (encoded ragged tensors, ragged/ragged_kernels.py): one object
# field, so that it is told from an array of strings.
VARIANT_ARRAY = np.dtype([("variant", object)])
_BY_NUMPY[VARIANT_ARRAY] = variant
# Python's str and bytes are not accepted (NumPy's str_ and bytes_ are), as in TF.
_BY_PYTHON = {builtins.float: float32, builtins.bool: bool}


def from_numpy(np_dtype):
    """The DType of a NumPy dtype (fast path used when wrapping arrays)."""
    d = _BY_NUMPY.get(np_dtype)
    if d is None:
        if np_dtype.kind in "SUO":
            return string
        raise TypeError(f"Unsupported NumPy dtype {np_dtype} for a tensor.")
    return d


@export("dtypes.as_dtype", "as_dtype")
def as_dtype(type_value):
    """Converts a DType, NumPy dtype/type, name, enum or Python type to a `DType`.

    >>> tf.as_dtype(np.int64)
    tf.int64
    """
    if isinstance(type_value, DType):
        return type_value
    if isinstance(type_value, str):
        d = _BY_NAME.get(type_value)
        if d is not None:
            return d
    elif isinstance(type_value, int) and not isinstance(type_value, builtins.bool):
        d = _BY_ENUM.get(type_value)
        if d is not None:
            return d
    elif type_value in _BY_PYTHON:
        return _BY_PYTHON[type_value]
    elif not any(type_value is t for t in (builtins.int, builtins.complex, str, bytes, None)):
        # Python's int and complex have no single width, and np.dtype(None) would be float64:
        # TF rejects them (by identity: NumPy dtypes compare equal to Python types)
        try:
            np_dtype = np.dtype(type_value)
        except TypeError:
            np_dtype = None
        if np_dtype is not None:
            if not np_dtype.isnative:  # (a big-endian dtype names the same numbers)
                np_dtype = np_dtype.newbyteorder("=")
            d = _BY_NUMPY.get(np_dtype)  # includes bfloat16, whose NumPy kind is 'V'
            if d is not None:
                return d
            if np_dtype.kind in "SU":
                return string
    raise TypeError(f"Cannot convert the argument `type_value`: {type_value!r} to a "
                    f"TensorFlow DType.")


# Dtypes accepted by numeric ops, for error messages and checks.
FLOATING = (float16, bfloat16, float32, float64)
INTEGER = (int8, int16, int32, int64, uint8, uint16, uint32, uint64)

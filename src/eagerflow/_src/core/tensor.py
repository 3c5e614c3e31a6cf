"""`Tensor`, the base of every tensor kind, and `EagerTensor`, a tensor holding an array.

Operator overloads (``+``, ``[]``, ``==``...) are installed on `Tensor` by the
ops layer, once, so eager and symbolic tensors share them.

>>> t = EagerTensor._wrap(np.array([1, 2], np.int32))
>>> t
<tf.Tensor: shape=(2,), dtype=int32, numpy=array([1, 2], dtype=int32)>
"""
import numpy as np

from eagerflow._src import backend
from eagerflow._src.backend.api_export import export
from eagerflow._src.core import context as _context
from eagerflow._src.core.context import logical_scopes as _logical_scopes  # (mutated in place)
from eagerflow._src.core import dtypes as _dtypes
from eagerflow._src.core import errors as _errors
from eagerflow._src.core.tensor_shape import TensorShape

_BY_NUMPY = _dtypes._BY_NUMPY  # read on every `.dtype`: the common dtypes, without a call

# The `TensorShape`s of eager tensors, by their dims: a `TensorShape` can't be changed (its dims
# are a tuple behind `__slots__`, and every method returns a new shape), so one object serves
# every tensor of that shape, and `.shape` is a dict lookup instead of a new object.
_SHAPES = {}
_MAX_SHAPES = 4096


newaxis = None  # `t[newaxis]` inserts a dimension of size 1
export("newaxis").export_constant(__name__, "newaxis")


_NUMPY_METHODS = frozenset(("T", "astype", "ravel", "transpose", "reshape", "clip", "size",
                            "tolist", "data"))


@export("Tensor")
class Tensor:
    """A multi-dimensional array with a fixed dtype and (static) shape."""

    __slots__ = ()
    # NumPy defers binary operators to us (ndarray + Tensor -> Tensor.__radd__).
    __array_priority__ = 100
    OVERLOADABLE_OPERATORS = frozenset()  # filled by the ops layer

    @property
    def ndim(self):
        return self.shape.rank

    def __getattr__(self, name):
        # Only reached for attributes a tensor lacks: NumPy's methods point to the switch
        # that adds them, as in TF.
        if name in _NUMPY_METHODS:
            raise AttributeError(
                f"{type(self).__name__} object has no attribute '{name}'. \n        If you are "
                f"looking for numpy-related methods, please run the following:\n        "
                f"tf.experimental.numpy.experimental_enable_numpy_behavior()\n      ")
        return object.__getattribute__(self, name)  # (a property's own AttributeError)

    def __round__(self, ndigits=None):
        # TF's tensors round through NumPy's `astype`, which NumPy behaviour adds (and with
        # it a `__round__` of its own): until then `round(t)` fails for the lack of it.
        return self.astype

    def get_shape(self):
        return self.shape

    def ref(self):
        """A hashable reference to this tensor, usable as a dict key or set member."""
        return Reference(self)

    experimental_ref = ref

    def __hash__(self):
        raise TypeError("Tensor is unhashable. Instead, use tensor.ref() as the key.")

    def __copy__(self):
        return self  # tensors are immutable

    def __deepcopy__(self, memo):
        return self


class Reference:
    """Hashable wrapper returned by `Tensor.ref()`; `deref()` gives the tensor back."""

    __slots__ = ("_wrapped",)

    def __init__(self, wrapped):
        self._wrapped = wrapped

    def deref(self):
        return self._wrapped

    def __eq__(self, other):
        return isinstance(other, Reference) and self._wrapped is other._wrapped

    def __hash__(self):
        return id(self._wrapped)

    def __repr__(self):
        return f"<Reference wrapping {self._wrapped!r}>"


def _plain(data):
    """`data` as NumPy shows a tensor's value: a quantized one's (held in a one-field record
    dtype, ``[("qint8", "i1")]``) as its integers, as TF's ``numpy()`` gives them."""
    if data.dtype.names is not None and len(data.dtype.names) == 1:
        return data.view(data.dtype[0])
    return data


def _numpy_text(value, is_repr):
    """How TensorFlow prints tensor values: NumPy's text, on its own lines when multi-line."""
    value = _plain(value)
    if value.ndim == 0:
        text = repr(value.item()) if is_repr else str(value[()])
    else:
        text = repr(value) if is_repr else str(value)
    if "\n" in text:
        text = "\n" + text
    return text


_EAGER_TYPE_NAME = "tensorflow.python.framework.ops.EagerTensor"


class EagerTensor(Tensor):
    """A tensor with a concrete value: an array of the backend, on one device."""

    __slots__ = ("_data", "__weakref__", "__dict__")  # users may set attributes, as in TF

    _device = None  # the logical CPU it is on, where not the first (see `device`)

    @staticmethod
    def _wrap(data):
        t = _new(EagerTensor)
        t._data = data
        if _logical_scopes:  # (see `device`)
            device = _context.get().logical_device
            if device is not None:
                t._device = device
        return t

    # TF's eager tensor is a C type: Python's errors name it by its full name
    def __setitem__(self, key, value):
        raise TypeError(f"'{_EAGER_TYPE_NAME}' object does not support item assignment")

    def __delitem__(self, key):
        raise TypeError(f"'{_EAGER_TYPE_NAME}' object doesn't support item deletion")

    # -- metadata ---------------------------------------------------------
    @property
    def shape(self):
        dims = self._data.shape
        shape = _SHAPES.get(dims)
        if shape is None:
            if len(_SHAPES) >= _MAX_SHAPES:
                _SHAPES.clear()
            shape = _SHAPES[dims] = TensorShape._from_tuple(dims)
        return shape

    @property
    def dtype(self):
        np_dtype = self._data.dtype
        return _BY_NUMPY.get(np_dtype) or _dtypes.from_numpy(np_dtype)

    @property
    def ndim(self):
        return self._data.ndim

    @property
    def device(self):
        # an array knows its physical device only: a tensor made on a logical CPU
        # other than the first remembers that one
        return self._device or backend.device_string_of(self._data)

    backing_device = device

    def _shape_tuple(self):
        return self._data.shape

    def set_shape(self, shape):
        if not self.shape.is_compatible_with(shape):
            raise ValueError(f"Tensor's shape {self.shape} is not compatible with supplied "
                             f"shape {TensorShape(shape)}.")

    # -- values -----------------------------------------------------------
    def numpy(self):
        """The value as a NumPy array (a copy), or a NumPy scalar for 0-d tensors."""
        data = _plain(backend.to_host(self._data))
        if data.ndim == 0:
            if self._data.dtype is _dtypes.resource:  # (a table's or a mutex's handle)
                raise _errors.InvalidArgumentError(
                    None, None, "Cannot convert a Tensor of dtype resource to a NumPy array.")
            return data[()]
        return data.copy()

    def __array__(self, dtype=None, copy=None):
        data = _plain(np.asarray(backend.to_host(self._data)))
        if dtype is not None and data.dtype != dtype:
            return data.astype(dtype)
        if copy:
            return data.copy()
        # a tensor is immutable: NumPy may read its buffer but not write it (as in TF)
        view = data.view()
        view.flags.writeable = False
        return view

    def __bool__(self):
        data = backend.to_host(self._data)
        if data.size == 0:
            return False  # (an empty tensor is false, as in TF; NumPy refuses to decide)
        return bool(data)

    def __int__(self):
        return int(backend.to_host(self._data))

    def __float__(self):
        return float(backend.to_host(self._data))

    def __complex__(self):
        return complex(backend.to_host(self._data))

    def __index__(self):
        return self.numpy().__index__()  # NumPy's errors, as TF gives them

    def __len__(self):
        if self._data.ndim == 0:
            raise TypeError("Scalar tensor has no `len()`")
        return self._data.shape[0]

    def __iter__(self):
        if self._data.ndim == 0:
            raise TypeError("Cannot iterate over a scalar tensor.")
        return (self[i] for i in range(self._data.shape[0]))  # recorded like any slice

    def __format__(self, format_spec):
        return format(self.numpy(), format_spec)  # f"{t}" shows the values only, as in TF

    def __reduce__(self):
        from eagerflow._src.core.convert import convert_to_tensor
        return convert_to_tensor, (self.numpy(),)

    # -- printing ---------------------------------------------------------
    def __str__(self):
        value = backend.to_host(self._data)
        return (f"tf.Tensor({_numpy_text(np.asarray(value), False)}, shape={self.shape}, "
                f"dtype={self.dtype.name})")

    def __repr__(self):
        value = backend.to_host(self._data)
        dtype = self.dtype
        # (a resource or variant holds no array: TF shows its value, not a NumPy one)
        label = "numpy" if dtype.is_numpy_compatible else "value"
        return (f"<tf.Tensor: shape={self.shape}, dtype={dtype.name}, "
                f"{label}={_numpy_text(np.asarray(value), True)}>")

    # -- graph-only attributes ---------------------------------------------
    def _graph_only(name):
        def get(self):
            raise AttributeError(f"Tensor.{name} is undefined when eager execution is enabled.")
        return property(get)

    name = _graph_only("name")
    op = _graph_only("op")
    graph = _graph_only("graph")
    del _graph_only

    def eval(self, feed_dict=None, session=None):
        raise NotImplementedError("eval is not supported when eager execution is enabled, "
                                  "is .numpy() what you're looking for?")


_new = object.__new__

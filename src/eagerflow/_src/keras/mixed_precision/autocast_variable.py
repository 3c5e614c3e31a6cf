"""`AutoCastVariable`: a float32 weight read in the layer's compute dtype inside its call.

Under the ``mixed_float16`` policy a layer keeps float32 weights (so small
updates are not lost) but computes in float16: while the layer's `call`
runs, every read of such a weight is cast to float16 (a recorded `Cast`,
so gradients reach the float32 variable); outside it reads as float32.

>>> v = AutoCastVariable(1.5)
>>> with autocast_to("float16"):
...     (v * 2).dtype.name
'float16'
>>> (v * 2).dtype.name
'float32'
"""
import contextlib
import threading

from eagerflow._src.core import dtypes as _dtypes
from eagerflow._src.core.tensor import _numpy_text
from eagerflow._src.core.variables import Variable
from eagerflow._src.distribute.strategy import MirroredVariable
from eagerflow._src.ops import cast_ops

_state = threading.local()


@contextlib.contextmanager
def autocast_to(dtype):
    """Within the block, `AutoCastVariable`s read as `dtype` (None: as themselves)."""
    outer = getattr(_state, "dtype", None)
    _state.dtype = None if dtype is None else _dtypes.as_dtype(dtype)
    try:
        yield
    finally:
        _state.dtype = outer


class AutoCastVariable(Variable):
    """A floating variable whose reads follow `autocast_to`."""

    @property
    def dtype(self):
        """The dtype reads give: the layer's compute dtype inside its call (as in Keras)."""
        return getattr(_state, "dtype", None) or self._dtype

    @property
    def true_dtype(self):
        """The dtype the variable holds."""
        return self._dtype

    def _cast_to(self):
        """The dtype reads are cast to now, or None when they are not cast."""
        target = getattr(_state, "dtype", None)
        return None if target is None or target == self._dtype else target

    def value(self):
        read = super().value()
        target = self._cast_to()
        return read if target is None else cast_ops.cast(read, target)

    def numpy(self):
        """The value held, in the variable's own dtype (even inside a layer's call)."""
        return Variable.value(self).numpy()

    def __tf_tensor__(self, dtype=None, name=None):
        target = self._cast_to()
        if target is None:
            if dtype is not None and dtype != self._dtype:  # (the variable's own message)
                raise ValueError(f"Incompatible type conversion requested to type {dtype.name} "
                                 f"for `tf.Variable of type {self._dtype.name}. (Variable: "
                                 f"{Variable.__repr__(self)})")
            return super().__tf_tensor__(dtype, name)
        if dtype is not None and dtype != target:
            raise ValueError(f"Incompatible type conversion requested to type {dtype.name!r} "
                             f"for AutoCastVariable which is casted to type {target.name!r}")
        return self.value()

    def _write(self, op, value, read_value, name):
        # As Keras: a value written inside a layer's call is cast back to the variable's
        # dtype, and the write gives back the AutoCastVariable itself.
        if self._cast_to() is not None:
            value = cast_ops.cast(value, self._dtype)
        written = super()._write(op, value, False, name)
        return self if read_value else written

    def __repr__(self):
        text = super().__repr__().replace("<tf.Variable", "<AutoCastVariable", 1)
        text = text.replace(f" dtype={self._dtype.name}",
                            f" dtype={self._dtype.name} dtype_to_cast_to={self.dtype.name}", 1)
        target = self._cast_to()
        if target is not None and ", numpy=" in text:  # (inside a call: the value as read)
            held = Variable.value(self).numpy()
            text = (text.split(", numpy=", 1)[0] +
                    f", numpy={_numpy_text(held.astype(target.as_numpy_dtype), True)}>")
        return text

    __str__ = __repr__


class AutoCastDistributedVariable(AutoCastVariable, MirroredVariable):
    """An `AutoCastVariable` made under a `MirroredStrategy`: a mirrored variable (one copy
    per replica) whose reads follow `autocast_to`."""

    def __repr__(self):
        inner = MirroredVariable.__repr__(self).replace(type(self).__name__,
                                                        "MirroredVariable", 1)
        return (f"<AutoCastDistributedVariable dtype={self._dtype.name} "
                f"dtype_to_cast_to={self.dtype.name} inner_variable={inner}>")

    def __str__(self):
        return MirroredVariable.__repr__(self)


def _uncast_update(method):
    """A scatter update of the value held (never of its cast read), returning the variable."""
    def update(self, *args, **kwargs):
        with autocast_to(None):
            method(self, *args, **kwargs)
        return self
    update.__name__, update.__doc__ = method.__name__, method.__doc__
    return update


for _name in ("scatter_update", "scatter_add", "scatter_sub", "scatter_max", "scatter_min",
              "scatter_mul", "scatter_div", "batch_scatter_update", "scatter_nd_update",
              "scatter_nd_add", "scatter_nd_sub", "scatter_nd_max", "scatter_nd_min"):
    setattr(AutoCastVariable, _name, _uncast_update(getattr(Variable, _name)))

# (made through the variable creators, so that a strategy's scope mirrors it)
AutoCastVariable._creators_make = True
AutoCastVariable._mirrored_class = AutoCastDistributedVariable

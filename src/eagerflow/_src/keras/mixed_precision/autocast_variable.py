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

    def value(self):
        read = super().value()
        target = getattr(_state, "dtype", None)
        if target is None or target == self._dtype:
            return read
        return cast_ops.cast(read, target)

    def __tf_tensor__(self, dtype=None, name=None):
        target = getattr(_state, "dtype", None)
        if target is None or dtype is not None and dtype == self._dtype:
            return super().__tf_tensor__(dtype, name)
        return self.value()

    def __repr__(self):
        text = super().__repr__().replace("<tf.Variable", "<AutoCastVariable", 1)
        return text.replace(f" dtype={self._dtype.name}",
                            f" dtype={self._dtype.name} dtype_to_cast_to={self.dtype.name}", 1)

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


# (made through the variable creators, so that a strategy's scope mirrors it)
AutoCastVariable._creators_make = True
AutoCastVariable._mirrored_class = AutoCastDistributedVariable

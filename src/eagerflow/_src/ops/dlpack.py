"""``tf.experimental.dlpack``: tensors shared with other libraries (PyTorch, JAX, CuPy,
NumPy) through DLPack capsules, without copying.

`to_dlpack` gives a ``"dltensor"`` capsule of a tensor's buffer; `from_dlpack` takes one
(or any object with ``__dlpack__``) and gives a tensor of the same buffer. A capsule is
consumed once, as DLPack says. Tensors have ``__dlpack__`` themselves, so
``np.from_dlpack(t)`` and ``torch.from_dlpack(t)`` work too.

>>> t = tf.experimental.dlpack.from_dlpack(tf.experimental.dlpack.to_dlpack(tf.range(3)))
>>> t.numpy().tolist()
[0, 1, 2]
"""
import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import errors
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.core.tensor import EagerTensor

_CPU = (1, 0)  # DLPack's (kDLCPU, device 0)


def _exported_buffer(tensor):
    """The array a tensor's capsule shares: its own buffer, or a copy where NumPy will not
    export it (a read-only one: DLPack cannot say read-only)."""
    tensor = convert_to_tensor(tensor)
    if not isinstance(tensor, EagerTensor):
        raise errors.InvalidArgumentError(
            None, None, "to_dlpack needs a tensor with a value (eager), not a symbolic one.")
    array = np.asarray(tensor._data)
    if array.dtype.kind in "OUS":
        raise errors.InvalidArgumentError(
            None, None, f"{tensor.dtype.name} is not supported by dlpack")
    if not array.flags.writeable or not array.flags.c_contiguous:
        array = np.array(array, order="C")
    return array


def _capsule_of(tensor):
    try:
        return _exported_buffer(tensor).__dlpack__()
    except BufferError as e:  # a dtype DLPack has no code for here (bfloat16, ...)
        raise errors.InvalidArgumentError(None, None, str(e)) from None


@export("experimental.dlpack.to_dlpack")
def to_dlpack(tf_tensor):
    """A DLPack capsule of `tf_tensor`'s buffer (a Variable's current value)."""
    return _capsule_of(tf_tensor)


class _Capsule:
    """A bare capsule seen as an object with ``__dlpack__`` (how NumPy takes one)."""
    __slots__ = ("capsule",)

    def __init__(self, capsule):
        self.capsule = capsule

    def __dlpack__(self, stream=None, **kwargs):
        return self.capsule

    def __dlpack_device__(self):
        return _CPU


@export("experimental.dlpack.from_dlpack")
def from_dlpack(dlcapsule):
    """A tensor of the buffer DLPack capsule `dlcapsule` (or an object with
    ``__dlpack__``) holds, which it consumes."""
    source = dlcapsule if hasattr(dlcapsule, "__dlpack__") else _Capsule(dlcapsule)
    try:
        array = np.from_dlpack(source)
    except (ValueError, TypeError, BufferError) as e:
        raise errors.InvalidArgumentError(
            None, None, f'DLPack tensor must be a capsule with name "dltensor" (a capsule is '
                        f"consumed at most once): {e}") from None
    return convert_to_tensor(array)


EagerTensor.__dlpack__ = lambda self, stream=None, **kwargs: _capsule_of(self)
EagerTensor.__dlpack_device__ = lambda self: _CPU

"""``tf.train.experimental.PythonState``: Python state saved in checkpoints as a string.

A subclass gives `serialize` (its state as bytes or str) and `deserialize` (taking them
back); a checkpoint stores the string under ``<path>/.ATTRIBUTES/py_state``, as TF does,
so TF and eagerflow read each other's.

>>> import os, tempfile
>>> class Counter(tf.train.experimental.PythonState):
...     def __init__(self):
...         self.count = 0
...     def serialize(self):
...         return str(self.count)
...     def deserialize(self, string_value):
...         self.count = int(string_value)
>>> c = Counter(); c.count = 7
>>> path = tf.train.Checkpoint(c=c).save(os.path.join(tempfile.mkdtemp(), "ckpt"))
>>> fresh = Counter(); _ = tf.train.Checkpoint(c=fresh).restore(path)
>>> fresh.count
7
"""
import abc

import numpy as np

from eagerflow._src.backend.api_export import export

_KEY = "py_state"


@export("train.experimental.PythonState")
class PythonState(metaclass=abc.ABCMeta):
    """A checkpointable object whose state is a string it makes and takes back."""

    @abc.abstractmethod
    def serialize(self):
        """The object's state as a string (bytes or str)."""

    @abc.abstractmethod
    def deserialize(self, string_value):
        """Takes the state back from `string_value` (bytes) as `serialize` gave it."""

    def _serialize_to_tensors(self):
        state = self.serialize()
        return {_KEY: np.array(state.encode() if isinstance(state, str) else bytes(state),
                               object)}

    def _restore_from_tensors(self, restored_tensors):
        value = restored_tensors[_KEY]
        value = value.item() if isinstance(value, np.ndarray) else value
        self.deserialize(value.numpy() if hasattr(value, "numpy") else value)

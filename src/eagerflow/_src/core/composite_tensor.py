"""`tf.__internal__.CompositeTensor`: the base that tensor-like values made of tensors
(`RaggedTensor`, `SparseTensor`, extension types, `tf.experimental.Optional`, datasets,
resource variables) are instances of.

>>> isinstance(tf.ragged.constant([[1], [2, 3]]), tf.__internal__.CompositeTensor)
True
>>> isinstance(tf.constant(1), tf.__internal__.CompositeTensor)
False
"""
import abc

from eagerflow._src.backend.api_export import export


@export("__internal__.CompositeTensor")
class CompositeTensor(metaclass=abc.ABCMeta):
    """Base of values made of component tensors, described by their `_type_spec` (a
    `tf.TypeSpec` that takes a value apart into its tensors and rebuilds it). The types
    defined elsewhere register as its virtual subclasses."""

    @property
    @abc.abstractmethod
    def _type_spec(self):
        """The `tf.TypeSpec` of this value."""

"""`Optional` (``tf.experimental.Optional``): a value that may be absent."""
import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import errors
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.core.tensor import Tensor
from eagerflow._src.core.tensor_spec import FieldSpec, TensorSpec
from eagerflow._src.core.composite_tensor import CompositeTensor


@export("experimental.Optional", "data.experimental.Optional")
@CompositeTensor.register
class Optional:
    """Either a value (a nest of tensors) or nothing, with the value's `element_spec`.

    >>> opt = tf.experimental.Optional.from_value(5)
    >>> opt.has_value()
    <tf.Tensor: shape=(), dtype=bool, numpy=True>
    >>> opt.get_value()
    <tf.Tensor: shape=(), dtype=int32, numpy=5>
    """

    def __init__(self, value, spec, has_value):
        self._value = value
        self._spec = spec
        self._has_value = has_value

    @staticmethod
    def from_value(value):
        from eagerflow._src.data import structure  # noqa: PLC0415 (tf.data's, when used)
        value = structure.normalize(value)
        return Optional(value, structure.spec_of(value), True)

    @staticmethod
    def empty(element_spec):
        return Optional(None, element_spec, False)

    @property
    def element_spec(self):
        return self._spec

    @property
    def _type_spec(self):
        """Its type: control flow carries an optional as its one variant tensor."""
        return OptionalSpec(self._spec)

    def has_value(self, name=None):
        return convert_to_tensor(np.bool_(self._has_value))

    def get_value(self, name=None):
        if not self._has_value:
            from eagerflow._src.data import structure  # noqa: PLC0415
            # (TF's kernel, named by the count of the value's tensors)
            raise errors.eager_error(
                errors.InvalidArgumentError, "OptionalGetValue",
                "The given optional does not have a value.", "",
                (("output_types", len(structure.flatten(self._spec))),))
        return self._value

    def __repr__(self):
        return f"<Optional has_value={self._has_value} element_spec={self._spec!r}>"


@export("OptionalSpec")
class OptionalSpec(FieldSpec):
    """The type of an `Optional` of elements of `element_spec`; its one component is the
    optional's variant tensor (so loops and conds carry optionals).

    >>> tf.OptionalSpec(tf.TensorSpec([3], tf.int32))
    OptionalSpec(TensorSpec(shape=(3,), dtype=tf.int32, name=None),)
    """

    __slots__ = ("_element_spec",)

    def __init__(self, element_spec):
        self._element_spec = element_spec

    element_spec = property(lambda self: self._element_spec)
    _component_specs = property(lambda self: [TensorSpec([], _d.variant)])
    value_type = property(lambda self: Optional)

    def _serialize(self):
        return (self._element_spec,)

    @classmethod
    def from_value(cls, value):
        if not isinstance(value, Optional):
            raise TypeError(f"Expected value to be an Optional, but saw: {type(value)}")
        return cls(value.element_spec)

    def _to_components(self, value):
        from eagerflow._src.core.dispatch import dispatch  # noqa: PLC0415
        from eagerflow._src.data import structure  # noqa: PLC0415
        from eagerflow._src.data import iterator_graph  # noqa: PLC0415
        variant = getattr(value, "_variant_tensor", None)
        if variant is None:  # an optional made from its value (or none) holds it
            if not value._has_value:
                return (dispatch(iterator_graph._NONE, ()),)
            flat = structure.flatten(value._value)
            if not all(isinstance(t, Tensor) for t in flat):
                raise TypeError(f"An optional of {self._element_spec!r} has no tensor "
                                f"form: only optionals of dense tensors do.")
            variant = dispatch(iterator_graph._FROM_VALUE, tuple(flat))
        return (variant,)

    def _from_components(self, components):
        from eagerflow._src.data.iterator_graph import GraphOptional  # noqa: PLC0415
        return GraphOptional(components[0], self._element_spec)

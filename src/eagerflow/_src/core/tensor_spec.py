"""`TensorSpec`: the shape and dtype (and optional name) a tensor is expected to have.

>>> tf.TensorSpec([None, 2], tf.float32)
TensorSpec(shape=(None, 2), dtype=tf.float32, name=None)
"""
from eagerflow._src.backend.api_export import export
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core.tensor import Tensor
from eagerflow._src.core.tensor_shape import TensorShape


@export("TypeSpec")
class TypeSpec:
    """Base of the specs that describe values (`TensorSpec`, `SparseTensorSpec`, an
    `ExtensionType`'s ``Spec``): what `tf.function` traces and `tf.data` elements carry."""

    __slots__ = ()

    def __init__(self, *args, **kwargs):
        if type(self) is TypeSpec:
            raise TypeError("Can't instantiate abstract class TypeSpec with abstract methods "
                            "_component_specs, _from_components, _serialize, _to_components, "
                            "value_type")

    def is_subtype_of(self, other):
        """True when every value of this spec is a value of `other`: `other` is the most
        specific common supertype of the two (a spec with unknown dimensions is a supertype
        of one with known ones)."""
        common = getattr(self, "most_specific_common_supertype", None)
        if common is None or type(other) is not type(self):
            return self == other
        return common([other]) == other

    def __ne__(self, other):
        return not self == other


@export("TensorSpec")
class TensorSpec(TypeSpec):
    """Describes a tensor: `shape` (`TensorShape`), `dtype` (`DType`) and `name`."""

    __slots__ = ("_shape", "_dtype", "_name")

    def __init__(self, shape, dtype=_d.float32, name=None):
        self._shape = TensorShape(shape)
        self._dtype = _d.as_dtype(dtype)
        self._name = name

    shape = property(lambda self: self._shape)
    dtype = property(lambda self: self._dtype)
    name = property(lambda self: self._name)

    @classmethod
    def from_tensor(cls, tensor, name=None):
        return cls(tensor.shape, tensor.dtype, name if name is not None else
                   getattr(tensor, "_spec_name", None))

    @classmethod
    def from_spec(cls, spec, name=None):
        return cls(spec.shape, spec.dtype, name if name is not None else spec.name)

    def is_compatible_with(self, spec_or_tensor):
        """True when the dtypes match and the shapes are compatible (False for a value that
        is neither a tensor nor a spec: a list, a NumPy array)."""
        if not isinstance(spec_or_tensor, (TensorSpec, Tensor)):
            return False
        return (self._dtype == spec_or_tensor.dtype
                and self._shape.is_compatible_with(spec_or_tensor.shape))

    def is_subtype_of(self, other):
        """True when `other` has this dtype and a shape at least as general, and this spec
        has no name or `other`'s (as in TF, an unnamed spec is a subtype of a named one)."""
        if type(other) is not type(self) or other._dtype != self._dtype or \
                self._name not in (None, other._name):
            return False
        mine, theirs = self._shape, other._shape
        if theirs.rank is None:
            return True
        return mine.rank == theirs.rank and all(
            b is None or a == b for a, b in zip(mine.as_list(), theirs.as_list()))

    value_type = property(lambda self: Tensor)

    def most_specific_compatible_type(self, other):
        """The most specific spec compatible with this one and `other` (TF's older name for
        `most_specific_common_supertype`); ValueError when there is none."""
        found = self.most_specific_common_supertype([other])
        if found is None:
            raise ValueError(f"No TypeSpec is compatible with both {self} and {other}")
        return found

    def most_specific_common_supertype(self, others):
        """The most specific spec both this and each of `others` are subtypes of; None when
        their dtypes or names differ."""
        shape, dtype = self._shape, self._dtype
        for o in others:
            if type(o) is not type(self) or o.dtype != dtype or o.name != self._name:
                return None
            shape = shape.most_specific_compatible_shape(o.shape)
        return TensorSpec(shape, dtype, self._name)

    def __eq__(self, other):
        return (type(other) is type(self) and self._shape == other._shape
                and self._dtype == other._dtype and self._name == other._name)

    def __hash__(self):
        return hash((self._shape, self._dtype, self._name))

    def __repr__(self):
        return f"TensorSpec(shape={self._shape}, dtype={self._dtype!r}, name={self._name!r})"

    def __reduce__(self):
        return TensorSpec, (self._shape, self._dtype, self._name)


# value class -> its spec's `from_value`, for values that are not composites but have a spec
# of their own (a TensorArray, an IndexedSlices): what `tf.type_spec_from_value` gives
value_specs = {}


class FieldSpec(TypeSpec):
    """A spec described by the tuple of its fields, `_serialize()` (shapes, dtypes, specs,
    flags), as TF's generic `TypeSpec` is: printed as ``Name(fields...)``, equal when the
    fields are, compatible when each field is (shapes compatible, the rest equal)."""

    __slots__ = ()

    def _serialize(self):
        raise NotImplementedError

    def __eq__(self, other):
        return type(other) is type(self) and self._serialize() == other._serialize()

    def __hash__(self):
        return hash((type(self).__name__, repr(self._serialize())))

    def __repr__(self):
        return f"{type(self).__name__}{self._serialize()!r}"

    def is_compatible_with(self, spec_or_value):
        other = spec_or_value
        if not isinstance(other, TypeSpec):  # a value: its spec
            try:
                other = self.from_value(other)
            except (AttributeError, TypeError, ValueError):
                return False
        return type(other) is type(self) and _fields_compatible(self._serialize(),
                                                                other._serialize())

    def most_specific_common_supertype(self, others):
        fields = self._serialize()
        for other in others:
            if type(other) is not type(self):
                return None
            fields = _common_fields(fields, other._serialize())
            if fields is None:
                return None
        return type(self)(*fields)

    def most_specific_compatible_type(self, other):
        found = self.most_specific_common_supertype([other])
        if found is None:
            raise ValueError(f"No TypeSpec is compatible with both {self} and {other}")
        return found

    def is_subtype_of(self, other):
        return self.most_specific_common_supertype([other]) == other


def _fields_compatible(a, b):
    if isinstance(a, TensorShape) and isinstance(b, TensorShape):
        return a.is_compatible_with(b)
    if isinstance(a, TypeSpec):
        return a.is_compatible_with(b)
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(map(_fields_compatible, a, b))
    return a == b


def _common_fields(a, b):
    """The most specific fields both `a` and `b` are compatible with (None: none)."""
    if isinstance(a, TensorShape) and isinstance(b, TensorShape):
        return a.most_specific_compatible_shape(b)
    if isinstance(a, TypeSpec):
        if hasattr(a, "most_specific_common_supertype"):
            return a.most_specific_common_supertype([b])
        return a if a == b else None
    if isinstance(a, tuple) and isinstance(b, tuple):
        if len(a) != len(b):
            return None
        out = tuple(_common_fields(x, y) for x, y in zip(a, b))
        return None if any(o is None and (x is not None) for o, x in zip(out, a)) else out
    return a if a == b else None


@export("NoneTensorSpec")
class NoneTensorSpec(TypeSpec):
    """The spec of a None component of a dataset element (TF's ``NoneTensorSpec``): a
    value of no arrays, None wherever the element is iterated, batched or mapped."""

    __slots__ = ()

    value_type = property(lambda self: type(None))
    _component_specs = ()

    def _to_components(self, value):
        return ()

    def _from_components(self, components):
        return None

    def is_compatible_with(self, spec_or_value):
        return spec_or_value is None or type(spec_or_value) is NoneTensorSpec

    def most_specific_common_supertype(self, others):
        return self if all(type(o) is NoneTensorSpec for o in others) else None

    def _batch(self, batch_size):
        return self

    def _unbatch(self):
        return self

    def __eq__(self, other):
        return type(other) is NoneTensorSpec

    def __hash__(self):
        return hash(NoneTensorSpec)

    def __repr__(self):
        return "NoneTensorSpec()"

    def __reduce__(self):
        return NoneTensorSpec, ()

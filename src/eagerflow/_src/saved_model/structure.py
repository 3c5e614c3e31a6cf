"""Nested Python values as TF's `StructuredValue` protos and back: how a SavedModel records a
function's arguments and results (tuples, lists, dicts, named tuples, `TensorSpec`s, shapes,
dtypes, ``None``, bools, numbers and strings).

>>> encode((TensorSpec([None, 2], name="x"), {"training": False})).tuple_value.values[1]
dict_value {
  fields {
    key: "training"
    value {
      bool_value: false
    }
  }
}
<BLANKLINE>
>>> decode(encode([1, "a", None]))
[1, 'a', None]
"""
import collections

from eagerflow._src.core import dtypes as _d
from eagerflow._src.core.protos import saved_model as pb
from eagerflow._src.core.protos.tensors import shape_from_proto, shape_proto
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.core.tensor_spec import TensorSpec
from eagerflow._src.ops import extension_type
from eagerflow._src.ops.sparse_tensor import SparseTensorSpec
from eagerflow._src.ragged.ragged_tensor import RaggedTensorSpec

# Composite tensors' specs as TF's TypeSpecProto records them: class, and its state (TF's
# ``_serialize``) as a tuple of values this module encodes.
_TYPE_SPECS = {
    RaggedTensorSpec: (3, "RaggedTensorSpec",  # (TypeSpecClass RAGGED_TENSOR_SPEC)
                       lambda s: (s.shape, s.dtype, s.ragged_rank, s.row_splits_dtype, None),
                       lambda state: RaggedTensorSpec(*state[:4])),
    SparseTensorSpec: (1, "SparseTensorSpec",  # (SPARSE_TENSOR_SPEC)
                       lambda s: (s.shape, s.dtype), lambda state: SparseTensorSpec(*state)),
}


def composite_specs():
    """The classes of composite tensors' specs a SavedModel records."""
    return tuple(_TYPE_SPECS)


def encode(value):
    """The `StructuredValue` of `value`; TypeError for values it cannot hold."""
    out = pb.StructuredValue()
    if value is None:
        out.none_value.SetInParent()
    elif isinstance(value, bool):
        out.bool_value = value
    elif isinstance(value, int):
        out.int64_value = value
    elif isinstance(value, float):
        out.float64_value = value
    elif isinstance(value, str):
        out.string_value = value
    elif isinstance(value, TensorSpec):
        out.tensor_spec_value.name = value.name or ""
        out.tensor_spec_value.shape.CopyFrom(shape_proto(value.shape))
        out.tensor_spec_value.dtype = value.dtype.as_datatype_enum
    elif type(value) in _TYPE_SPECS:
        kind, class_name, state, _ = _TYPE_SPECS[type(value)]
        spec = out.type_spec_value
        spec.type_spec_class = kind
        spec.type_spec_class_name = class_name
        spec.type_state.CopyFrom(encode(state(value)))
        spec.num_flat_components = len(value._component_specs)
    elif isinstance(value, extension_type.ExtensionTypeSpec):
        _encode_extension_type_spec(value, out.type_spec_value)
    elif isinstance(value, TensorShape):
        out.tensor_shape_value.CopyFrom(shape_proto(value))
    elif isinstance(value, _d.DType):
        out.tensor_dtype_value = value.as_datatype_enum
    elif isinstance(value, dict):
        out.dict_value.SetInParent()
        for k, v in value.items():
            out.dict_value.fields[str(k)].CopyFrom(encode(v))
    elif isinstance(value, tuple) and hasattr(type(value), "_fields"):
        out.named_tuple_value.name = type(value).__name__
        for k in value._fields:
            out.named_tuple_value.values.add(key=k).value.CopyFrom(encode(getattr(value, k)))
    elif isinstance(value, (tuple, list)):
        target = out.tuple_value if isinstance(value, tuple) else out.list_value
        target.SetInParent()
        for v in value:
            target.values.add().CopyFrom(encode(v))
    else:
        raise TypeError(f"A SavedModel cannot record the value {value!r} of type "
                        f"{type(value).__name__} in a function's signature.")
    return out


_EXTENSION_TYPE_SPEC = 13  # (TypeSpecClass EXTENSION_TYPE_SPEC)


def _encode_extension_type_spec(value, spec):
    """An `ExtensionType`'s spec as TF records it: its registered name and its fields as
    ``(name, value)`` pairs; only a type that names itself (``__name__``) can be found again."""
    name = type(value)._tf_registered_name
    if name is None:
        raise TypeError(f"A SavedModel cannot record the value {value!r} of type "
                        f"{type(value).__name__}: its extension type has no registered name "
                        f"(give it a `__name__`, such as 'my_package.{value.value_type.__name__}')"
                        f".")
    spec.type_spec_class = _EXTENSION_TYPE_SPEC
    spec.type_spec_class_name = name
    spec.type_state.CopyFrom(encode(tuple(value._fields.items())))
    spec.num_flat_components = len(value._component_specs)


def _decode_extension_type_spec(spec):
    cls = extension_type.registered_spec(spec.type_spec_class_name)
    if cls is None:
        raise ValueError(f"The type '{spec.type_spec_class_name}' has not been registered. It "
                         f"must be registered before you load this object (typically by "
                         f"importing its module).")
    value = cls.__new__(cls)
    object.__setattr__(value, "_fields", dict(decode(spec.type_state)))
    return value


def decode(proto):
    """The Python value of a `StructuredValue` (named tuples come back as new namedtuple
    classes of the same name and fields)."""
    kind = proto.WhichOneof("kind")
    if kind is None or kind == "none_value":
        return None
    if kind in ("bool_value", "int64_value", "float64_value", "string_value"):
        return getattr(proto, kind)
    if kind in ("tensor_spec_value", "bounded_tensor_spec_value"):
        spec = getattr(proto, kind)
        return TensorSpec(shape_from_proto(spec.shape), _d.as_dtype(spec.dtype),
                          spec.name or None)
    if kind == "tensor_shape_value":
        return shape_from_proto(proto.tensor_shape_value)
    if kind == "tensor_dtype_value":
        return _d.as_dtype(proto.tensor_dtype_value)
    if kind == "dict_value":
        return {k: decode(v) for k, v in sorted(proto.dict_value.fields.items())}
    if kind == "tuple_value":
        return tuple(decode(v) for v in proto.tuple_value.values)
    if kind == "list_value":
        return [decode(v) for v in proto.list_value.values]
    if kind == "named_tuple_value":
        named = proto.named_tuple_value
        cls = collections.namedtuple(named.name, [p.key for p in named.values])
        return cls(*[decode(p.value) for p in named.values])
    if kind == "type_spec_value":
        spec = proto.type_spec_value
        if spec.type_spec_class == _EXTENSION_TYPE_SPEC:
            return _decode_extension_type_spec(spec)
        for cls, (spec_kind, _, _, from_state) in _TYPE_SPECS.items():
            if spec.type_spec_class == spec_kind:
                return from_state(decode(spec.type_state))
    if kind in ("tensor_value", "numpy_value"):
        from eagerflow._src.core.protos.tensors import tensor_from_proto  # noqa: PLC0415
        return tensor_from_proto(getattr(proto, kind))
    raise NotImplementedError(f"A SavedModel's {kind} (a composite tensor's spec) is not "
                              f"supported.")

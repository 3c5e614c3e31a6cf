"""User-defined composite types (``tf.experimental.ExtensionType``).

A subclass declares typed fields as class annotations; an instance is immutable once built and
is a composite value: its tensor fields are its components, so it flattens with
``tf.nest.flatten(..., expand_composites=True)``, crosses `tf.function` boundaries (traced by
its spec) and is differentiable through its tensors.

>>> class MaskedTensor(tf.experimental.ExtensionType):
...     values: tf.Tensor
...     mask: tf.Tensor
>>> mt = MaskedTensor([1, 2], [True, False])
>>> tf.type_spec_from_value(mt)
MaskedTensor.Spec(values=TensorSpec(shape=(2,), dtype=tf.int32, name=None), mask=TensorSpec(shape=(2,), dtype=tf.bool, name=None))
"""
import collections.abc
import inspect
import typing

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.core.tensor import Tensor
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.core.tensor_spec import TensorSpec, TypeSpec, value_specs
from eagerflow._src.ops import math_ops, reduction_ops
from eagerflow._src.core.composite_tensor import CompositeTensor

_NO_DEFAULT = object()
# the Specs of extension types that name themselves (``__name__ = "pkg.Name"``), by
# ``"pkg.Name.Spec"``: what a SavedModel records them by and finds them again with
_REGISTERED_SPECS = {}


def registered_spec(name):
    """The Spec class registered as `name` (``"pkg.Name.Spec"``), or None."""
    return _REGISTERED_SPECS.get(name)


class ImmutableDict(collections.abc.Mapping):
    """The read-only mapping a ``Mapping`` field holds (TF's type of it, printed as such)."""

    def __init__(self, *args, **kwargs):
        self._dict = dict(*args, **kwargs)

    def __getitem__(self, key):
        return self._dict[key]

    def __iter__(self):
        return iter(self._dict)

    def __len__(self):
        return len(self._dict)

    def __contains__(self, key):
        return key in self._dict

    def __repr__(self):
        return f"ImmutableDict({self._dict!r})"

    __hash__ = None
_BUILDING = "_tf_extension_type_building"


def _check_field(cls_name, name, annotation, value, spec=False):
    """`value` converted to the field's declared type; TypeError naming the field otherwise.
    `cls_name` None: `value` is a class's default, whose tensors are converted (and
    checked) only when an instance is built, as in TF. `spec`: `value` is the field of a
    Spec, where a tensor is a `TensorSpec` and an extension type is its Spec."""
    origin = typing.get_origin(annotation)
    if annotation is Tensor and spec:
        if isinstance(value, TensorSpec):
            return value
        raise TypeError(f"{name}: expected a TensorSpec, got {type(value).__name__!r}")
    if annotation is Tensor:
        if isinstance(value, Tensor) or cls_name is None:
            return value
        if value is not None and not hasattr(value, "_type_spec"):  # (no ragged, sparse...)
            try:
                return convert_to_tensor(value)
            except (TypeError, ValueError):
                pass
        raise TypeError(f"{name}: expected a Tensor, got {type(value).__name__!r}")
    if origin is typing.Union:
        errors = []
        for arg in typing.get_args(annotation):  # (in order, as TF: Optional[tf.TensorShape]
            if arg is type(None):                # makes None an unknown shape)
                if value is None:
                    return None
                continue
            try:
                return _check_field(cls_name, name, arg, value, spec)
            except (TypeError, ValueError) as e:
                errors.append(e)
        raise TypeError(f"{name}: expected {annotation!r}, got {type(value).__name__!r}")
    if origin is tuple:
        if not isinstance(value, (list, tuple)):
            raise TypeError(f"{name}: expected tuple, got {type(value).__name__!r}")
        args = typing.get_args(annotation)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_check_field(cls_name, f"{name}[{i}]", args[0], v, spec)
                         for i, v in enumerate(value))
        if len(args) != len(value):  # (TF's message, its closing parenthesis too)
            raise TypeError(f"{name}: expected tuple with length {len(args)}, got "
                            f"{type(value).__name__!r})")
        return tuple(_check_field(cls_name, f"{name}[{i}]", a, v, spec)
                     for i, (a, v) in enumerate(zip(args, value)))
    if origin is collections.abc.Mapping:
        if not isinstance(value, collections.abc.Mapping):
            raise TypeError(f"{name}: expected mapping, got {type(value).__name__!r}")
        args = typing.get_args(annotation)
        items = ((_check_field(cls_name, f"{name}[<key>]", args[0], k),
                  _check_field(cls_name, f"{name}[{k!r}]", args[1], v, spec))
                 for k, v in value.items())
        return dict(items) if spec else ImmutableDict(items)
    if annotation is TensorShape:
        try:
            return TensorShape(value)
        except (TypeError, ValueError):
            raise TypeError(f"{name}: expected 'tf.TensorShape', got "
                            f"{type(value).__name__!r}") from None
    if annotation is _d.DType:
        try:
            return _d.as_dtype(value)
        except (TypeError, ValueError):
            raise TypeError(f"{name}: expected 'tf.DType', got {type(value).__name__!r}") \
                from None
    if spec and isinstance(annotation, type) and issubclass(annotation, ExtensionType):
        if not isinstance(value, annotation.Spec):
            raise TypeError(f"{name}: expected a TypeSpec for {annotation.__name__!r}, got "
                            f"{type(value).__name__!r}")
        return value
    if spec and isinstance(annotation, type) and issubclass(annotation, CompositeTensor):
        # a ragged or sparse tensor's field: its spec
        value_type = getattr(value, "value_type", None) if isinstance(value, TypeSpec) else None
        if not (isinstance(value_type, type) and issubclass(value_type, annotation)):
            raise TypeError(f"{name}: expected a TypeSpec for {annotation.__name__!r}, got "
                            f"{type(value).__name__!r}")
        return value
    if isinstance(annotation, type):
        ok = isinstance(value, annotation)
        if annotation is float:  # TF's float fields take no ints (but an int field takes a bool)
            ok = ok and not isinstance(value, bool)
        if not ok:
            raise TypeError(f"{name}: expected {annotation.__name__!r}, got "
                            f"{type(value).__name__!r}")
    return value


def _is_component(value):
    return isinstance(value, Tensor) or hasattr(getattr(value, "_type_spec", None),
                                                "_to_components")


def _spec_of(value):
    if isinstance(value, Tensor):
        return TensorSpec(value.shape, value.dtype)
    spec = getattr(value, "_type_spec", None)
    if spec is not None:
        return spec
    if isinstance(value, tuple):
        return tuple(_spec_of(v) for v in value)
    if isinstance(value, (dict, ImmutableDict)):
        return {k: _spec_of(v) for k, v in value.items()}
    return value


def _flat_specs(spec):
    """The `TensorSpec`s of a field's spec, its composites expanded, in component order."""
    if isinstance(spec, TensorSpec):
        return [spec]
    if hasattr(spec, "_component_specs") and hasattr(spec, "_from_components"):
        return [s for part in spec._component_specs for s in _flat_specs(part)]
    if isinstance(spec, tuple):
        return [s for part in spec for s in _flat_specs(part)]
    if isinstance(spec, dict):
        return [s for k in sorted(spec) for s in _flat_specs(spec[k])]
    return []


def _flat_values(value):
    if isinstance(value, Tensor):
        return [value]
    spec = getattr(value, "_type_spec", None)
    if hasattr(spec, "_to_components"):
        return [t for part in spec._to_components(value) for t in _flat_values(part)]
    if isinstance(value, tuple):
        return [t for part in value for t in _flat_values(part)]
    if isinstance(value, (dict, ImmutableDict)):
        return [t for k in sorted(value) for t in _flat_values(value[k])]
    return []


def _rebuild(spec, it):
    """The field value `spec` describes, its tensors taken from the iterator `it`."""
    if isinstance(spec, TensorSpec):
        return next(it)
    if hasattr(spec, "_component_specs") and hasattr(spec, "_from_components"):
        return spec._from_components([_rebuild(part, it) for part in spec._component_specs])
    if isinstance(spec, tuple):
        return tuple(_rebuild(part, it) for part in spec)
    if isinstance(spec, dict):
        out = {k: _rebuild(spec[k], it) for k in sorted(spec)}
        return ImmutableDict((k, out[k]) for k in spec)
    return spec


def _is_part(x):
    """Whether `x` (a field's value or spec, or a piece of one) is what a dataset batches
    as one: a tensor, a ragged or sparse tensor, a nested extension type, or their specs."""
    return isinstance(x, (Tensor, TypeSpec)) or hasattr(x, "_type_spec") or hasattr(
        x, "_component_specs")


def _field_parts(fields):
    """The parts (see `_is_part`) of `fields` (name -> value or spec), in field order."""
    def parts(x):
        if _is_part(x):
            return [x]
        if isinstance(x, tuple):
            return [p for item in x for p in parts(item)]
        if isinstance(x, (dict, ImmutableDict)):
            return [p for k in sorted(x) for p in parts(x[k])]
        return []
    return [p for v in fields.values() for p in parts(v)]


def batch_parts(value_or_spec):
    """What datasets batch of an extension type's value or spec: its tensors, ragged and
    sparse tensors and nested extension types (or their specs), whole, in field order."""
    fields = value_or_spec._fields if isinstance(value_or_spec, ExtensionTypeSpec) else {
        k: value_or_spec.__dict__[k]
        for k in type(value_or_spec)._tf_extension_type_fields_order}
    return _field_parts(fields)


def from_batch_parts(template, parts):
    """`template`'s extension type (a value or spec) with its parts (see `batch_parts`)
    replaced by `parts`: a spec when they are specs, else a value."""
    spec = template if isinstance(template, ExtensionTypeSpec) else template._type_spec
    it = iter(parts)

    def rebuild(x):
        if _is_part(x):
            return next(it)
        if isinstance(x, tuple):
            return tuple(rebuild(item) for item in x)
        if isinstance(x, (dict, ImmutableDict)):
            out = {k: rebuild(x[k]) for k in sorted(x)}
            return {k: out[k] for k in x}
        return x
    fields = {k: rebuild(v) for k, v in spec._fields.items()}
    if all(isinstance(p, TypeSpec) or hasattr(p, "_component_specs") for p in parts):
        new = type(spec).__new__(type(spec))
        new._fields = fields
        return new
    value = object.__new__(spec.value_type)
    for k, v in fields.items():
        object.__setattr__(value, k, ImmutableDict(v) if isinstance(v, dict) else v)
    return value


def _compatible(spec, other):
    if isinstance(spec, TensorSpec):
        return isinstance(other, TensorSpec) and spec.is_compatible_with(other)
    if hasattr(spec, "is_compatible_with") and not isinstance(spec, (tuple, dict)):
        return spec.is_compatible_with(other)
    if isinstance(spec, tuple):
        return (isinstance(other, tuple) and len(spec) == len(other)
                and all(_compatible(a, b) for a, b in zip(spec, other)))
    if isinstance(spec, dict):
        return (isinstance(other, dict) and spec.keys() == other.keys()
                and all(_compatible(spec[k], other[k]) for k in spec))
    return spec == other


@export("experimental.ExtensionTypeSpec")
class ExtensionTypeSpec(TypeSpec):
    """The type of an `ExtensionType` value: each field's spec (tensor fields) or value."""

    value_type = None  # set on each subclass's own Spec
    _tf_registered_name = None  # "pkg.Name.Spec" when the type names itself

    def __init__(self, *args, **kwargs):
        """The spec of each field, positionally or by name, as TF: every field, defaults
        or not."""
        self._fields = _spec_fields(self.value_type, _bound(
            self.value_type._tf_extension_type_fields_order, {}, args, kwargs), check=True)

    def __setattr__(self, name, value):
        if name.startswith("_"):
            object.__setattr__(self, name, value)
        elif self.__dict__.get(_BUILDING):
            self._fields[name] = value
        else:
            raise AttributeError(f"Cannot mutate attribute `{name}` outside the custom "
                                 f"constructor of ExtensionTypeSpec.")

    def __getattr__(self, name):
        fields = self.__dict__.get("_fields", {})
        if name in fields:
            return fields[name]
        raise AttributeError(f"{type(self).__qualname__!r} object has no attribute {name!r}")

    @classmethod
    def from_value(cls, value):
        spec = cls.__new__(cls)
        spec._fields = {name: _spec_of(getattr(value, name))
                        for name in cls.value_type._tf_extension_type_fields_order}
        return spec

    @classmethod
    def _from_fields(cls, fields):
        """The spec whose fields are `fields` (by name, converted to their types), built
        without the Spec's own constructor: what a serialized spec is read back as."""
        spec = cls.__new__(cls)
        spec._fields = _spec_fields(cls.value_type, fields)
        return spec

    @property
    def _component_specs(self):
        return [s for name in self._fields for s in _flat_specs(self._fields[name])]

    def _to_components(self, value):
        return [t for name in self._fields for t in _flat_values(getattr(value, name))]

    def _from_components(self, components):
        it = iter(components)
        value = object.__new__(self.value_type)
        for name, spec in self._fields.items():
            object.__setattr__(value, name, _rebuild(spec, it))
        return value

    def _from_component_specs(self, specs):
        """This spec with its tensor fields' specs replaced by `specs` (in component order):
        what batching or unbatching a dataset of these values makes of it."""
        it = iter(specs)

        def rebuild(spec):
            if isinstance(spec, TensorSpec):
                return next(it)
            if isinstance(spec, ExtensionTypeSpec):
                return spec._from_component_specs([next(it) for _ in spec._component_specs])
            if isinstance(spec, tuple):
                return tuple(rebuild(part) for part in spec)
            if isinstance(spec, dict):
                out = {k: rebuild(spec[k]) for k in sorted(spec)}
                return {k: out[k] for k in spec}
            return spec
        new = type(self).__new__(type(self))
        new._fields = {name: rebuild(spec) for name, spec in self._fields.items()}
        return new

    def _static_key(self):
        """What a trace is specialized on beyond its tensors' specs: each field's key, in
        field order (see `_field_key`), nested extension types' fields included."""
        return tuple(_field_key(s) for s in self._fields.values())

    def _with_static_key(self, key):
        """This spec with its `TensorShape` fields (nested ones too) those of `key`, a
        `_static_key` that covers this spec's: the spec of a trace made for `key`."""
        new = type(self).__new__(type(self))
        new._fields = {name: _keyed(s, k) for (name, s), k in zip(self._fields.items(), key)}
        return new

    def is_compatible_with(self, spec_or_value):
        other = spec_or_value
        if isinstance(other, ExtensionType):
            other = other._type_spec
        return (type(other) is type(self) and self._fields.keys() == other._fields.keys()
                and all(_compatible(self._fields[k], other._fields[k]) for k in self._fields))

    def most_specific_common_supertype(self, others):
        """The spec whose tensor fields are the most specific supertypes of the others';
        None when a non-tensor field or a dtype differs."""
        fields = dict(self._fields)
        for other in others:
            if type(other) is not type(self) or other._fields.keys() != fields.keys():
                return None
            for name, mine in fields.items():
                theirs = other._fields[name]
                if isinstance(mine, TypeSpec) and isinstance(theirs, TypeSpec):
                    common = mine.most_specific_common_supertype([theirs])
                    if common is None:
                        return None
                    fields[name] = common
                elif not (type(mine) is type(theirs) and mine == theirs):
                    return None
        spec = type(self).__new__(type(self))
        spec._fields = fields
        return spec

    def __eq__(self, other):
        return type(other) is type(self) and self._fields == other._fields

    def __hash__(self):
        return hash((type(self), self._static_key(),
                     tuple(self._component_specs)))

    def __repr__(self):
        fields = ", ".join(f"{k}={v!r}" for k, v in self._fields.items())
        return f"{type(self).__name__}({fields})"


def _field_key(spec):
    """A trace's key of one field's spec: ``()`` for a tensor or other composite (its
    components' specs key it), ``("shape", dims)`` for a `TensorShape` or a sparse tensor's
    shape (which no component's spec gives), keyed as a composite's shape is (a trace for
    ``[None]`` serves ``[2]``, as in TF, where one shape is a subtype of the other), a
    nested extension type's own fields, a tuple's or mapping's items, and any other value
    as ``("P", value)``."""
    if isinstance(spec, ExtensionTypeSpec):
        return (spec.value_type, spec._static_key())
    if hasattr(spec, "_with_shape"):  # a sparse tensor's: its shape is no component's
        return ("shape", _dims(spec.shape))
    if isinstance(spec, TypeSpec) or hasattr(spec, "_component_specs"):
        return ()
    if isinstance(spec, TensorShape):
        return ("shape", _dims(spec))
    if isinstance(spec, tuple):
        return (tuple,) + tuple(_field_key(v) for v in spec)
    if isinstance(spec, (dict, ImmutableDict)):
        return (dict,) + tuple((("P", k), _field_key(spec[k])) for k in sorted(spec))
    try:
        hash(spec)
    except TypeError:
        return ("P", repr(spec))
    return ("P", spec)


def _dims(shape):
    return None if shape.rank is None else tuple(shape.as_list())


def _keyed(spec, key):
    """`spec` (a field's) with the shapes that `key` (its `_field_key`) gives."""
    if isinstance(spec, ExtensionTypeSpec):
        return spec._with_static_key(key[1])
    if hasattr(spec, "_with_shape"):
        return spec._with_shape(TensorShape(None if key[1] is None else list(key[1])))
    if isinstance(spec, TensorShape):
        return TensorShape(None if key[1] is None else list(key[1]))
    if isinstance(spec, tuple):
        return tuple(_keyed(v, k) for v, k in zip(spec, key[1:]))
    if isinstance(spec, (dict, ImmutableDict)):
        keys = dict(zip(sorted(spec), key[1:]))
        return {k: _keyed(v, keys[k][1]) for k, v in spec.items()}
    return spec


def _bound(fields, defaults, args, kwargs):
    """``{field: value}`` of a constructor's arguments, bound as Python binds a signature
    with the `fields` in order (TypeErrors with its texts). As in TF, a field without a
    default that follows one with a default (a subclass's own field, say) is keyword-only,
    and so is each field after it."""
    parameters, kind = [], inspect.Parameter.POSITIONAL_OR_KEYWORD
    for k in fields:
        if k not in defaults and parameters and \
                parameters[-1].default is not inspect.Parameter.empty:
            kind = inspect.Parameter.KEYWORD_ONLY
        parameters.append(inspect.Parameter(
            k, kind, default=defaults.get(k, inspect.Parameter.empty)))
    bound = inspect.Signature(parameters).bind(*args, **kwargs)
    bound.apply_defaults()
    return dict(bound.arguments)


def _spec_fields(value_type, fields, check=False):
    """A spec's `fields` in declaration order, its shape and dtype fields converted;
    `check`: each field checked against its annotation as a Spec's field (TypeError)."""
    out = {}
    for k, annotation in value_type._tf_extension_type_fields.items():
        v = fields[k]
        if check:
            v = _check_field(value_type.__name__, k, annotation, v, spec=True)
        elif annotation is TensorShape or annotation is _d.DType:
            v = _check_field(value_type.__name__, k, annotation, v)
        out[k] = v
    return out


def _custom_spec_init(user_init):
    """A Spec's own constructor, run with its fields assignable; its fields are then put
    in declaration order (ValueError naming those it left unset)."""
    def __init__(self, *args, **kwargs):
        object.__setattr__(self, "_fields", {})
        object.__setattr__(self, _BUILDING, True)
        try:
            user_init(self, *args, **kwargs)
        finally:
            object.__delattr__(self, _BUILDING)
        order = self.value_type._tf_extension_type_fields_order
        missing = {k for k in order if k not in self._fields}
        if missing:
            raise ValueError(f"Missing required fields: {missing}")
        object.__setattr__(self, "_fields", _spec_fields(self.value_type, self._fields,
                                                         check=True))
    __init__.__wrapped__ = user_init
    return __init__


_SCALAR_ANNOTATIONS = (int, float, str, bytes, bool, None, type(None), _d.DType)


def _check_annotation(annotation, in_key=False):
    """TypeError unless `annotation` is a field type TF supports (forward references
    are taken as they are); `in_key`: it types a mapping's keys, which are no tensors."""
    if isinstance(annotation, (str, typing.ForwardRef)) or annotation in _SCALAR_ANNOTATIONS:
        return
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if annotation in (Tensor, TensorShape) or (isinstance(annotation, type) and
                                               hasattr(annotation, "_type_spec")):
        if in_key:
            raise TypeError(f"Mapping had a key '{annotation.__name__}' with type "
                            f"'{type(annotation).__name__}'")
    elif origin is typing.Union or origin is tuple and annotation is not typing.Tuple:
        if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
            args = args[:1]
        for arg in args:
            _check_annotation(arg, in_key)
    elif origin is collections.abc.Mapping and args:
        _check_annotation(args[0], True)
        _check_annotation(args[1], in_key)
    elif isinstance(annotation, type):
        raise TypeError(f"Unsupported type annotation {annotation.__name__!r}")
    else:
        raise TypeError(f"Unsupported type annotation {annotation!r}")


def _checked_fields(fields, defaults):
    """TypeError unless each field's annotation is supported and its default (if any) is
    of its type, as TF checks them when the class is defined."""
    for k, annotation in fields.items():
        try:
            _check_annotation(annotation)
        except TypeError as e:
            raise TypeError(f"In field {k!r}: {e}") from e
        if k in defaults and not isinstance(annotation, (str, typing.ForwardRef)):
            _check_field(None, f"default value for {k}", annotation, defaults[k])


# Names no field may have: those of the Spec class and of the methods composites and their
# specs have (and any beginning with "_tf_extension_type", this module's own).
_RESERVED_FIELDS = frozenset({
    "self", "Spec", "_type_spec", "_shape_invariant_to_type_spec", "_consumers", "value_type",
    "is_compatible_with", "most_specific_compatible_type", "_with_tensor_ranks_only",
    "_to_components", "_from_components", "_component_specs", "_to_tensor_list",
    "_from_tensor_list", "_from_compatible_tensor_list", "_flat_tensor_specs", "_serialize",
    "_deserialize", "_to_legacy_output_types", "_to_legacy_output_shapes",
    "_to_legacy_output_classes", "_keras_mask"})


def _is_reserved(name):
    return name in _RESERVED_FIELDS or name.lower().startswith("_tf_extension_type")


class ExtensionTypeMetaclass(type):
    def __new__(mcs, name, bases, namespace):
        cls = super().__new__(mcs, name, bases, namespace)
        if namespace.get("_tf_extension_type_base"):
            return cls
        annotations = {}
        for base in reversed(cls.__mro__):
            annotations.update(base.__dict__.get("__annotations__", {}))
        try:
            hints = typing.get_type_hints(cls) if annotations else {}
        except Exception:  # (forward references not resolvable here: the annotations as given)
            hints = {}
        user_spec = namespace.get("Spec")
        if "Spec" in namespace and not isinstance(user_spec, type):
            raise ValueError(f"{cls.__qualname__}.Spec must be a nested class; got "
                             f"{user_spec}.")
        if user_spec is not None and user_spec.__bases__ not in ((TypeSpec,), (object,)):
            raise ValueError(f"{cls.__qualname__}.Spec must be directly subclassed from "
                             f"tf.TypeSpec.")
        for k in [*(n for n in namespace if n != "Spec"), *annotations]:
            if _is_reserved(k):
                raise ValueError(f"The field annotations for {name} are invalid. Field {k!r} "
                                 f"is reserved.")
        own = namespace.get("__annotations__", {})
        for k, v in namespace.items():  # (a value that is not a method: a field's default)
            if not (k in own or callable(v) or k.startswith("_abc_")
                    or (k.startswith("__") and k.endswith("__"))
                    or isinstance(v, (property, classmethod, staticmethod))):
                raise ValueError(f"The field annotations for {name} are invalid. Field {k} "
                                 f"is missing a type annotation.")
        # (a private name is a field too, as in TF: only Python's own dunder names are not)
        fields = {k: hints.get(k, v) for k, v in annotations.items()
                  if not (k.startswith("__") and k.endswith("__"))}
        cls._tf_extension_type_fields = fields
        cls._tf_extension_type_fields_order = tuple(fields)
        defaults = {}
        for base in reversed(cls.__mro__[1:]):
            defaults.update(base.__dict__.get("_tf_extension_type_defaults", {}))
        for k in fields:  # (instances hold the values, not the class)
            if k in namespace and not isinstance(namespace[k], property):
                defaults[k] = namespace[k]
                delattr(cls, k)
        cls._tf_extension_type_defaults = {k: v for k, v in defaults.items() if k in fields}
        _checked_fields(fields, cls._tf_extension_type_defaults)
        for k in (user_spec.__dict__ if user_spec is not None else ()):
            if _is_reserved(k):
                raise ValueError(f"TypeSpec {cls.__qualname__}.Spec uses reserved name {k!r}.")
            if k in fields:
                raise ValueError(f"TypeSpec {cls.__qualname__}.Spec defines a variable {k!r} "
                                 f"which shadows a field in {cls.__qualname__}")
        base_spec = next(b.Spec for b in cls.__mro__[1:] if "Spec" in b.__dict__)
        spec_bases = (user_spec, base_spec) if user_spec is not None else (base_spec,)
        spec_namespace = {"value_type": cls, "__qualname__": f"{cls.__qualname__}.Spec",
                          "__module__": cls.__module__}
        if user_spec is not None and "__init__" in user_spec.__dict__:
            spec_namespace["__init__"] = _custom_spec_init(user_spec.__dict__["__init__"])
        cls.Spec = type(f"{name}.Spec", spec_bases, spec_namespace)
        registered = namespace.get("__name__")
        if isinstance(registered, str):  # (TF registers such a type's Spec by this name)
            cls.Spec._tf_registered_name = f"{registered}.Spec"
            _REGISTERED_SPECS[cls.Spec._tf_registered_name] = cls.Spec
        if "__init__" in namespace:  # a custom constructor: its fields are checked afterwards
            user_init = namespace["__init__"]

            def __init__(self, *args, **kwargs):
                object.__setattr__(self, _BUILDING, True)
                try:
                    user_init(self, *args, **kwargs)
                finally:
                    object.__delattr__(self, _BUILDING)
                missing = {k for k in fields if k not in self.__dict__}
                if missing:
                    raise ValueError(f"Missing required fields: {missing}")
                self._tf_extension_type_finish()
            __init__.__wrapped__ = user_init
            cls.__init__ = __init__
        return cls


@export("experimental.ExtensionType")
@CompositeTensor.register
class ExtensionType(metaclass=ExtensionTypeMetaclass):
    """Base of user-defined composite types with typed, immutable fields.

    Fields are class annotations: ``tf.Tensor`` (values are converted to tensors), Python
    types (``int``, ``float``, ``str``, ``bool``), ``tf.TensorShape``, ``tf.DType``, other
    `ExtensionType`s, and ``typing`` tuples, mappings and unions of those. A
    ``__validate__`` method runs after each construction.
    """

    _tf_extension_type_base = True
    Spec = ExtensionTypeSpec

    def __init__(self, *args, **kwargs):
        cls = type(self)
        if cls.__dict__.get("_tf_extension_type_base"):
            raise AssertionError(f"Cannot create an instance of {cls.__name__} because "
                                 f"{cls.__name__} is an abstract base class.")
        values = _bound(cls._tf_extension_type_fields_order, cls._tf_extension_type_defaults,
                        args, kwargs)
        for k, v in values.items():
            object.__setattr__(self, k, v)
        self._tf_extension_type_finish()

    def _tf_extension_type_finish(self):
        cls = type(self)
        for k, annotation in cls._tf_extension_type_fields.items():
            object.__setattr__(self, k, _check_field(cls.__name__, k, annotation,
                                                     self.__dict__[k]))
        validate = getattr(self, "__validate__", None)
        if validate is not None:
            validate()

    def __setattr__(self, name, value):
        if self.__dict__.get(_BUILDING):
            object.__setattr__(self, name, value)
            return
        raise AttributeError(f"Cannot mutate attribute `{name}` outside the custom "
                             f"constructor of ExtensionType.")

    def __delattr__(self, name):
        raise AttributeError(f"Cannot mutate attribute `{name}` outside the custom "
                             f"constructor of ExtensionType.")

    @property
    def _type_spec(self):
        return type(self).Spec.from_value(self)

    def __repr__(self):
        fields = ", ".join(f"{k}={self.__dict__[k]!r}"
                           for k in type(self)._tf_extension_type_fields_order)
        return f"{type(self).__name__}({fields})"

    def __eq__(self, other):
        """A scalar bool tensor: same type, same non-tensor fields, equal tensors."""
        if type(other) is not type(self):
            return False
        mine, theirs = self._type_spec, other._type_spec
        if mine != theirs:  # (TF answers a Python bool here: their fields' shapes, dtypes
            return False    # or non-tensor values differ)
        result = convert_to_tensor(True)
        for a, b in zip(mine._to_components(self), theirs._to_components(other)):
            if a.shape.rank is not None and b.shape.rank is not None and (
                    a.shape.rank != b.shape.rank or not a.shape.is_compatible_with(b.shape)):
                return convert_to_tensor(False)
            result = math_ops.logical_and(result, reduction_ops.reduce_all(
                math_ops.equal(a, b)))
        return result

    def __ne__(self, other):
        equal = self.__eq__(other)
        return not equal if isinstance(equal, bool) else math_ops.logical_not(equal)

    __hash__ = None


@export("experimental.extension_type.as_dict")
def as_dict(value):
    """The fields of extension type `value`, by name in declaration order.

    >>> class Point(tf.experimental.ExtensionType):
    ...     x: float
    ...     y: float = 0.0
    >>> tf.experimental.extension_type.as_dict(Point(1.0))
    {'x': 1.0, 'y': 0.0}
    """
    return {k: getattr(value, k) for k in type(value)._tf_extension_type_fields_order}


@export("experimental.BatchableExtensionType")
class BatchableExtensionType(ExtensionType):
    """An `ExtensionType` whose values can be batched and unbatched (`tf.data`, `tf.map_fn`)
    along the leading dimension of its tensor fields."""

    _tf_extension_type_base = True


@export("type_spec_from_value")
def type_spec_from_value(value):
    """The spec of `value`: its ``_type_spec`` for a composite, else a `TensorSpec` of it as
    a tensor.

    >>> tf.type_spec_from_value([1, 2])
    TensorSpec(shape=(2,), dtype=tf.int32, name=None)
    """
    spec = getattr(value, "_type_spec", None)
    if spec is not None:
        return spec
    for cls in type(value).__mro__:
        if cls in value_specs:
            return value_specs[cls](value)
    try:
        tensor = value if isinstance(value, Tensor) else convert_to_tensor(value)
    except (TypeError, ValueError):
        raise TypeError(f"Could not build a TypeSpec for {value!r} of unsupported type "
                        f"{type(value)}.") from None
    return TensorSpec(tensor.shape, tensor.dtype)



def _reshaped_spec(spec, reshape):
    """`spec` with `reshape` applied to the shapes of its tensors' specs and to its known
    `TensorShape` fields, nested extension types' too."""
    if isinstance(spec, TensorSpec):
        return TensorSpec(reshape(spec.shape), spec.dtype, spec.name)
    if isinstance(spec, TensorShape):
        return spec if spec.rank is None else reshape(spec)
    if isinstance(spec, ExtensionTypeSpec):
        new = type(spec).__new__(type(spec))
        new._fields = {k: _reshaped_spec(v, reshape) for k, v in spec._fields.items()}
        return new
    if isinstance(spec, tuple):
        return tuple(_reshaped_spec(v, reshape) for v in spec)
    if isinstance(spec, dict):
        return {k: _reshaped_spec(v, reshape) for k, v in spec.items()}
    return spec


@export("experimental.ExtensionTypeBatchEncoder")
class ExtensionTypeBatchEncoder:
    """How values of a `BatchableExtensionType` batch: by default each tensor field gains a
    leading batch dimension (and so does each known `TensorShape` field), and a value is
    encoded as its component tensors.

    >>> class P(tf.experimental.BatchableExtensionType):
    ...     x: tf.Tensor
    >>> tf.experimental.ExtensionTypeBatchEncoder().batch(P.Spec(x=tf.TensorSpec([2])), 3)
    P.Spec(x=TensorSpec(shape=(3, 2), dtype=tf.float32, name=None))
    """

    def batch(self, spec, batch_size):
        return _reshaped_spec(spec, lambda shape: TensorShape([batch_size]).concatenate(shape))

    def unbatch(self, spec):
        return _reshaped_spec(spec, lambda shape: shape[1:])

    def encode(self, spec, value, minimum_rank=0):
        return tuple(spec._to_components(value))

    def decode(self, spec, encoded_value):
        return spec._from_components(list(encoded_value))

    def encoding_specs(self, spec):
        return tuple(spec._component_specs)

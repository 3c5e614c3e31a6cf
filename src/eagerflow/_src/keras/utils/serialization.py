"""Turning Keras objects into configs and back, and resolving string identifiers.

Every Keras module that accepts identifiers (activations, initializers,
losses, metrics, optimizers, ...) resolves them here, so ``'relu'``,
``{'class_name': 'GlorotUniform', 'config': {}}``, a class or a callable all
mean the same thing everywhere, and an unknown name lists the known ones.

>>> @tf.keras.utils.register_keras_serializable(package="my")
... def double(x):
...     return 2 * x
>>> tf.keras.utils.get_registered_name(double)
'my>double'
"""
import base64
import contextlib
import importlib
import inspect
import marshal
import sys
import threading
import types
import warnings

import numpy as np

from eagerflow._src.backend import api_export
from eagerflow._src.backend.api_export import export
from eagerflow._src.core.dtypes import DType
from eagerflow._src.core.tensor import Tensor
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.core.tensor_spec import TensorSpec
from eagerflow._src.ops.extension_type import ExtensionTypeSpec
from eagerflow._src.ops.sparse_tensor import SparseTensorSpec
from eagerflow._src.ragged.ragged_tensor import RaggedTensorSpec

_GLOBAL_CUSTOM_OBJECTS = {}
_GLOBAL_CUSTOM_NAMES = {}
_scope = threading.local()


@export("keras.saving.register_keras_serializable", "keras.utils.register_keras_serializable")
def register_keras_serializable(package="Custom", name=None):
    """Decorator registering a class or function under ``'package>name'`` for deserialization."""
    def decorate(obj):
        key = f"{package}>{name or obj.__name__}"
        if inspect.isclass(obj) and not hasattr(obj, "get_config"):
            raise ValueError("Cannot register a class that does not have a get_config() method.")
        _GLOBAL_CUSTOM_OBJECTS[key] = obj
        _GLOBAL_CUSTOM_NAMES[obj] = key
        return obj
    return decorate


_PUBLIC_REGISTERED = set()  # public classes registered as tf_keras registers them


def register_public(cls, package="Custom"):
    """Registers public class `cls` under ``'package>Name'`` as tf_keras registers some of
    its own (its optimizers): found by that name, which configs tf_keras writes may use, and
    listed by `get_custom_objects`; its own configs still name no registered name."""
    key = f"{package}>{cls.__name__}"
    _GLOBAL_CUSTOM_OBJECTS[key] = cls
    _GLOBAL_CUSTOM_NAMES[cls] = key
    _PUBLIC_REGISTERED.add(cls)
    return cls


@export("keras.saving.get_registered_name", "keras.utils.get_registered_name")
def get_registered_name(obj):
    """The name `obj` was registered under, else its own ``__name__``."""
    return _GLOBAL_CUSTOM_NAMES.get(obj, getattr(obj, "__name__", None))


@export("keras.saving.get_registered_object", "keras.utils.get_registered_object")
def get_registered_object(name, custom_objects=None, module_objects=None):
    """The object `name` refers to: scoped custom objects, then registered ones, then the module's."""
    for table in (*_scopes(), _GLOBAL_CUSTOM_OBJECTS, custom_objects or {}, module_objects or {}):
        if name in table:
            return table[name]
    return None


@export("keras.saving.get_custom_objects", "keras.utils.get_custom_objects")
def get_custom_objects():
    """The global registry of custom objects (a mutable dict)."""
    return _GLOBAL_CUSTOM_OBJECTS


def _scopes():
    return getattr(_scope, "stack", [])


@export("keras.saving.custom_object_scope", "keras.utils.CustomObjectScope",
        "keras.utils.custom_object_scope")
class CustomObjectScope(contextlib.ContextDecorator):
    """Within this scope, the given names resolve to the given objects.

    >>> with tf.keras.utils.CustomObjectScope({"double": lambda x: 2 * x}):
    ...     tf.keras.utils.get_registered_object("double")(3)
    6
    """

    def __init__(self, *custom_objects):
        self.custom_objects = {}
        for objects in custom_objects:
            self.custom_objects.update(objects or {})

    def __enter__(self):
        _scope.stack = [*_scopes(), self.custom_objects]
        return self

    def __exit__(self, *exc):
        _scope.stack = _scopes()[:-1]


custom_object_scope = CustomObjectScope


def serialize_keras_object(instance, module=None):
    """``{'module', 'class_name', 'config', 'registered_name'}`` for objects (and the
    ``build_config`` of built layers), a name for functions."""
    if instance is None:
        return None
    # as Keras: plain values as they are, containers item by item
    if isinstance(instance, (list, tuple)):
        items = [serialize_keras_object(v) for v in instance]
        return tuple(items) if isinstance(instance, tuple) else items
    if isinstance(instance, dict):
        return {key: serialize_keras_object(v) for key, v in instance.items()}
    if isinstance(instance, (str, int, float, bool, bytes, TensorShape, Tensor, np.ndarray,
                             np.generic, DType)):
        return _serialize_value(instance)
    if not hasattr(instance, "get_config"):
        if isinstance(instance, types.FunctionType) and instance.__name__ == "<lambda>":
            warnings.warn("The object being serialized includes a `lambda`. This is unsafe. In "
                          "order to reload the object, you will have to pass `safe_mode=False` "
                          "to the loading function. Please avoid using `lambda` in the future, "
                          "and use named Python functions instead." + _lambda_source(instance),
                          stacklevel=2)
            return {"class_name": "__lambda__", "config": {"value": dump_function(instance)}}
        name = get_registered_name(instance)
        if name is None:
            raise ValueError(f"Cannot serialize {instance!r}: it has no get_config() method "
                             f"and no name.")
        # (how tf_keras writes a function: by its registered name, marked as a function)
        return {"module": "builtins", "class_name": "function", "config": name,
                "registered_name": "function"}
    cls = type(instance)
    if _is_own(cls):
        registered = None if cls in _PUBLIC_REGISTERED else _GLOBAL_CUSTOM_NAMES.get(cls)
        module = "keras" if _top_level(cls) else module or _public_module(cls)
        if "_serialized_module" in vars(cls):  # an unexported class, named as tf_keras does
            module = cls._serialized_module
            registered = cls._serialized_registered_name
    else:  # a user's class: found again by its registered name, its module if importable
        registered = get_registered_name(cls)
        module = None if cls.__module__ == "__main__" else cls.__module__
    config = {"module": module, "class_name": cls.__name__,
              "config": _serialize_value(instance.get_config()), "registered_name": registered}
    build_config = instance.get_build_config() if hasattr(instance, "get_build_config") \
        else None
    if build_config is not None:
        config["build_config"] = build_config
    return config


def _serialize_value(value):
    """A config value in the types JSON holds, as Keras converts it: containers item by item
    (tuples stay tuples), shapes as lists, NumPy values and tensors as Python values or
    ``__numpy__``/``__tensor__`` dicts, dtypes by name, objects with a config and named
    functions serialized."""
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if isinstance(value, (list, tuple)):
        items = [_serialize_value(v) for v in value]
        return tuple(items) if isinstance(value, tuple) else items
    if isinstance(value, dict):
        return {key: _serialize_value(v) for key, v in value.items()}
    if isinstance(value, bytes):
        return {"class_name": "__bytes__", "config": {"value": value.decode("utf-8")}}
    if isinstance(value, TensorShape):
        return value.as_list() if value.rank is not None else None
    if isinstance(value, Tensor):
        return {"class_name": "__tensor__",
                "config": {"value": value.numpy().tolist(), "dtype": value.dtype.name}}
    if isinstance(value, np.ndarray) and value.ndim > 0:
        return {"class_name": "__numpy__",
                "config": {"value": value.tolist(), "dtype": value.dtype.name}}
    if isinstance(value, (np.ndarray, np.generic)):
        return value.item()
    if isinstance(value, DType):
        return value.name
    if isinstance(value, (TensorSpec, ExtensionTypeSpec, RaggedTensorSpec, SparseTensorSpec)):
        return _serialize_type_spec(value)
    if hasattr(value, "get_config") and not inspect.isclass(value) or \
            isinstance(value, types.FunctionType) and not keeping_objects():
        return serialize_keras_object(value)  # (a function: by its registered name)
    return value


def _serialize_type_spec(spec):
    """A `TensorSpec` or an extension type's spec as tf_keras writes one in a config
    (``__typespec__``): a TensorSpec by its shape, dtype and name, an extension type's
    by its fields."""
    if isinstance(spec, TensorSpec):
        return {"class_name": "__typespec__", "spec_name": "TensorSpec",
                "module": "tensorflow.python.framework.tensor",
                "config": [_serialize_value(spec.shape), spec.dtype.name, spec.name],
                "registered_name": None}
    if isinstance(spec, RaggedTensorSpec):
        return {"class_name": "__typespec__", "spec_name": "RaggedTensorSpec",
                "module": "tensorflow.python.ops.ragged.ragged_tensor",
                "config": [_serialize_value(spec.shape), spec.dtype.name, spec.ragged_rank,
                           spec.row_splits_dtype.name],
                "registered_name": None}
    if isinstance(spec, SparseTensorSpec):
        return {"class_name": "__typespec__", "spec_name": "SparseTensorSpec",
                "module": "tensorflow.python.framework.sparse_tensor",
                "config": [_serialize_value(spec.shape), spec.dtype.name],
                "registered_name": None}
    cls = type(spec)
    return {"class_name": "__typespec__", "spec_name": cls.__name__,
            "module": cls.value_type.__module__,
            "config": {k: _serialize_value(v) for k, v in spec._fields.items()},
            "registered_name": cls.__name__}


def _deserialize_type_spec(config, custom_objects):
    """The spec a ``__typespec__`` config describes: an extension type's Spec is found
    by its name among the custom objects (its own or its value type's), else in its
    module."""
    name, fields = config["spec_name"], config["config"]
    if name == "TensorSpec":
        return TensorSpec(*fields)
    if name == "RaggedTensorSpec":
        return RaggedTensorSpec(*fields)
    if name == "SparseTensorSpec":
        return SparseTensorSpec(*fields)
    cls = get_registered_object(config.get("registered_name") or name, custom_objects)
    if cls is None and "." in name:  # ("MaskedTensor.Spec": the type's Spec)
        cls = getattr(get_registered_object(name.rsplit(".", 1)[0], custom_objects),
                      "Spec", None)
    if cls is None:
        cls = from_module({"module": config.get("module"), "class_name": name})
    if cls is None:
        raise TypeError(f"Could not locate class '{name}'. Make sure custom classes are "
                        f"decorated with `@keras.saving.register_keras_serializable()`. Full "
                        f"object config: {config}")
    return cls._from_fields({k: deserialize_keras_object(v, custom_objects=custom_objects)
                             if isinstance(v, dict) and v.get("class_name") == "__typespec__"
                             else v for k, v in fields.items()})


def _is_own(cls):
    return cls.__module__.split(".")[:3] == ["eagerflow", "_src", "keras"]


def _top_level(cls):
    """Whether `cls` is named at the top of ``keras`` (``keras.Model``, ``keras.Sequential``):
    its configs name the module ``keras``, as tf_keras names a class by its public path."""
    names = vars(cls).get("_keras_api_names") or ("",)
    return names[0].count(".") == 1


def _public_module(cls):
    """``keras.<family>`` for eagerflow's own classes, the defining module otherwise."""
    if _top_level(cls):
        return "keras"
    parts = cls.__module__.split(".")
    if parts[:3] == ["eagerflow", "_src", "keras"] and len(parts) > 3:
        if parts[3:] in (["optimizers", "legacy"], ["optimizers", "schedules"]):
            return "keras." + ".".join(parts[3:])
        return "keras." + parts[3]
    return cls.__module__


def _by_public_module(module, class_name):
    """Keras's own class `class_name` of public module `module` (``keras.layers``), as
    tf_keras finds a config's class by its module; None if none is."""
    for family in _FAMILIES:
        for obj in family.objects().values():  # (some families key their classes otherwise)
            if inspect.isclass(obj) and obj.__name__ == class_name and _is_own(obj) and \
                    module in (_public_module(obj), vars(obj).get("_serialized_module")):
                return obj
    # (a class no family lists: a legacy optimizer, a learning rate schedule)
    path = f"{module}.{class_name}"
    for obj, _, attribute, names in api_export.EXPORTS:
        if attribute is None and inspect.isclass(obj) and path in names:
            return obj
    return None


def deserialize_keras_object(identifier, module_objects=None, custom_objects=None,
                             printable_module_name="object", safe_mode=True):
    """The object a config dict or name describes; classes are instantiated from their config
    (refusing Python bytecode in `safe_mode`, unless a `safe_mode_scope` says otherwise)."""
    if identifier is None:
        return None
    if inspect.isfunction(identifier):  # as tf_keras: a function stands for itself
        return identifier
    if isinstance(identifier, dict) and identifier.get("class_name") == "__lambda__":
        if (safe_mode if in_safe_mode() is None else in_safe_mode()):
            raise ValueError("Requested the deserialization of a `lambda` object. This carries "
                             "a potential risk of arbitrary code execution and thus it is "
                             "disallowed by default. If you trust the source of the saved "
                             "model, you can pass `safe_mode=False` to the loading function in "
                             "order to allow `lambda` loading.")
        return load_function(identifier["config"]["value"], {"tf": sys.modules["eagerflow"],
                                                             "np": np})
    if isinstance(identifier, dict) and identifier.get("class_name") == "__typespec__":
        return _deserialize_type_spec(identifier, custom_objects)
    if isinstance(identifier, dict) and identifier.get("class_name") == "function":
        config, identifier = identifier, identifier.get("config")  # (a function: its name)
        if get_registered_object(identifier, custom_objects, module_objects) is None:
            function = _public_function(identifier)
            if function is None:
                raise TypeError(f"Could not locate function {identifier!r}. Make sure custom "
                                f"classes are decorated with "
                                f"`@keras.saving.register_keras_serializable()`. Full object "
                                f"config: {config}")
            return function
    if isinstance(identifier, dict) and module_objects is None and (
            "class_name" not in identifier or "config" not in identifier):
        # (as tf_keras: a plain dict, its values deserialized)
        return {key: _deserialize_value(value, custom_objects, safe_mode)
                for key, value in identifier.items()}
    if isinstance(identifier, dict):
        if "class_name" not in identifier:
            raise ValueError(f"Unknown `config` as a `dict`, config={identifier}")
        if "config" not in identifier:  # (an empty config, as tf_keras reads it)
            identifier = {**identifier, "config": {}}
        name = identifier.get("registered_name") or identifier["class_name"]
        cls = get_registered_object(name, custom_objects, module_objects)
        if cls is None:
            cls = get_registered_object(identifier["class_name"], custom_objects, module_objects)
        if cls is None and isinstance(identifier.get("module"), str):
            cls = _by_public_module(identifier["module"], identifier["class_name"])
        if cls is None and module_objects is None:
            cls = from_module(identifier)
        if cls is None:
            # a custom class's config (no importable module) or a `.keras` archive's
            if in_archive_loading() or identifier.get("module", "_") is None:
                raise TypeError(unknown_in_archive(identifier["class_name"]))
            if module_objects is None:  # (tf_keras's generic deserializer)
                raise TypeError(f"Could not locate class '{identifier['class_name']}'. Make "
                                f"sure custom classes are decorated with "
                                f"`@keras.saving.register_keras_serializable()`. Full object "
                                f"config: {identifier}")
            if isinstance(identifier.get("module"), str):
                # (as tf_keras: a config in the new format, naming its module, of a class
                # the family does not know stands for the class's name, which fails where it
                # is used: a layer's initializer as the layer builds)
                return identifier["class_name"]
            raise ValueError(_unknown(printable_module_name, identifier["class_name"]))
        config = identifier["config"]
        safe = in_safe_mode()
        with safe_mode_scope(safe_mode if safe is None else safe), \
                CustomObjectScope(custom_objects or {}):  # (for the configs inside it)
            if not hasattr(cls, "from_config"):
                return cls(**config)
            if "custom_objects" in inspect.signature(cls.from_config).parameters:
                return cls.from_config(config, custom_objects=custom_objects)
            return cls.from_config(config)
    if isinstance(identifier, str):
        obj = get_registered_object(identifier, custom_objects, module_objects)
        if module_objects is None:  # (as tf_keras's: a custom object's name gives the object
            return identifier if obj is None else obj  # itself, any other name is a value)
        if obj is None:
            raise ValueError(_unknown(printable_module_name, identifier))
        return obj() if inspect.isclass(obj) else obj
    if module_objects is None and isinstance(identifier, (list, tuple)):
        return [deserialize_keras_object(x, custom_objects=custom_objects, safe_mode=safe_mode)
                for x in identifier]
    if module_objects is None and isinstance(identifier, (int, float, bool)):
        return identifier
    raise ValueError(f"Could not interpret serialized {printable_module_name}: {identifier!r}")


def _lambda_source(function):
    """What tf_keras's warning about a serialized lambda ends with: its source lines."""
    try:
        return f" This is the `lambda` being serialized: {inspect.getsource(function)}"
    except (OSError, TypeError):  # (no source: a lambda of an interactive session)
        return ""


def _deserialize_value(value, custom_objects, safe_mode):
    """A value of a plain dict given to `deserialize_keras_object`: configs deserialized,
    containers element by element, anything else as it is."""
    if isinstance(value, dict):
        return deserialize_keras_object(value, custom_objects=custom_objects,
                                        safe_mode=safe_mode)
    if isinstance(value, (list, tuple)):
        return [_deserialize_value(v, custom_objects, safe_mode) for v in value]
    return value


def from_module(config):
    """The custom class a config names by its module (one outside Keras), imported as
    tf_keras's deserialization imports it; None if the module does not define it. A module
    that cannot be imported raises tf_keras's TypeError."""
    module, name = config.get("module"), config["class_name"]
    if not isinstance(module, str) or module.split(".")[0] in ("keras", "tf_keras",
                                                               "builtins", "eagerflow"):
        return None
    try:
        found = vars(importlib.import_module(module))
    except ModuleNotFoundError:
        raise TypeError(f"Could not deserialize class '{name}' because its parent module "
                        f"{module} cannot be imported. Full object config: {config}") from None
    cls = found.get(name) or found.get(config.get("registered_name"))
    if cls is None and name.count(".") == 1:  # (a class nested in a class, by `__qualname__`)
        outer, inner = name.split(".")
        cls = getattr(found.get(outer), inner, None)
    return cls if inspect.isclass(cls) else None


def _public_function(name):
    """The function Keras's families (activations, losses, metrics, ...) know as `name`."""
    for family in _FAMILIES:
        function = family.objects().get(name)
        if inspect.isfunction(function):
            return function
    return None


_FAMILIES = []  # every `Identifiers`, in the order they were made


# -- the legacy format (tf_keras before 2.13) -----------------------------------------------
@export("keras.utils.legacy.serialize_keras_object")
def legacy_serialize_keras_object(instance):
    """``{'class_name', 'config'}`` of an object (its config's values serialized alike where
    they can be), a function's registered name, None for None: tf_keras's format before
    2.13.

    >>> tf.keras.utils.legacy.serialize_keras_object(tf.keras.layers.Dense(2))["class_name"]
    'Dense'
    """
    if instance is None:
        return None
    if hasattr(instance, "get_config") and not isinstance(instance, type):
        config = {}
        for key, item in instance.get_config().items():
            if isinstance(item, str):
                config[key] = item
                continue
            try:
                serialized = legacy_serialize_keras_object(item)
                if isinstance(serialized, dict) and not isinstance(item, dict):
                    serialized["__passive_serialization__"] = True
                config[key] = serialized
            except ValueError:
                config[key] = item
        return {"class_name": get_registered_name(type(instance)), "config": config}
    if hasattr(instance, "__name__"):
        return get_registered_name(instance)
    raise ValueError(f"Cannot serialize {instance} because it doesn't implement "
                     f"`get_config()`.")


@export("keras.utils.legacy.deserialize_keras_object")
def legacy_deserialize_keras_object(identifier, module_objects=None, custom_objects=None,
                                    printable_module_name="object"):
    """The object a legacy config (``{'class_name', 'config'}``) or name describes, its class
    found in `custom_objects`, the registered objects, then `module_objects`.

    >>> layer = tf.keras.utils.legacy.deserialize_keras_object(
    ...     {"class_name": "Dense", "config": {"units": 3}},
    ...     module_objects={"Dense": tf.keras.layers.Dense})
    >>> layer.units
    3
    """
    if identifier is None:
        return None
    if isinstance(identifier, dict):
        cls, config = _legacy_class_and_config(identifier, module_objects, custom_objects,
                                               printable_module_name)
        if hasattr(cls, "from_config"):
            if "custom_objects" in inspect.signature(cls.from_config).parameters:
                scoped = {k: v for table in _scopes() for k, v in table.items()}
                return cls.from_config(config, custom_objects={
                    **_GLOBAL_CUSTOM_OBJECTS, **scoped, **(custom_objects or {})})
            with CustomObjectScope(custom_objects or {}):
                return cls.from_config(config)
        with CustomObjectScope(custom_objects or {}):
            return cls(**config)
    if isinstance(identifier, str):
        found = get_registered_object(identifier, custom_objects, module_objects)
        if found is None:
            raise ValueError(_legacy_unknown(printable_module_name, identifier))
        return found() if inspect.isclass(found) else found
    if inspect.isfunction(identifier):
        return identifier
    raise ValueError(f"Could not interpret serialized {printable_module_name}: {identifier}")


def _legacy_class_and_config(config, module_objects, custom_objects, printable_module_name):
    if not isinstance(config, dict) or "class_name" not in config or "config" not in config:
        raise ValueError(f"Improper config format for {config}. Expecting python dict contains "
                         f"`class_name` and `config` as keys")
    cls = get_registered_object(config["class_name"], custom_objects, module_objects)
    if cls is None:
        raise ValueError(_legacy_unknown(printable_module_name, config["class_name"]))
    cls_config = config["config"]
    if isinstance(cls_config, list):  # (a Sequential's layers, in the oldest files)
        return cls, cls_config
    cls_config = dict(cls_config)
    for key, item in list(cls_config.items()):
        if key == "name":
            continue
        if isinstance(item, dict) and "__passive_serialization__" in item:
            cls_config[key] = legacy_deserialize_keras_object(item, module_objects,
                                                              custom_objects, "config_item")
        elif isinstance(item, str) and inspect.isfunction(
                get_registered_object(item, custom_objects)):
            cls_config[key] = get_registered_object(item, custom_objects)
    return cls, cls_config


def _legacy_unknown(kind, name):
    return (f"Unknown {kind}: '{name}'. Please ensure you are using a "
            f"`keras.utils.custom_object_scope` and that this object is included in the scope. "
            f"See https://www.tensorflow.org/guide/keras/save_and_serialize"
            f"#registering_the_custom_object for details.")


@contextlib.contextmanager
def _flag_on(name, value=True):
    """Sets this thread's flag `name` to `value` within, restoring it after (nested uses
    stack; None where it was never set)."""
    previous = getattr(_scope, name, None)
    setattr(_scope, name, value)
    try:
        yield
    finally:
        setattr(_scope, name, previous)


def safe_mode_scope(safe_mode):
    """Within, `in_safe_mode()` is `safe_mode`: whether loading refuses Python bytecode
    (a Lambda layer's function), as tf_keras's `.keras` loader does unless told otherwise."""
    return _flag_on("safe_mode", safe_mode)


def in_safe_mode():
    """True or False within a `safe_mode_scope`, None outside any."""
    return getattr(_scope, "safe_mode", None)


def dump_function(function):
    """``(code, defaults, closure)`` of a Python function, as Keras writes a Lambda layer's:
    its marshalled bytecode in base64, its default arguments and its closure's values."""
    code = base64.encodebytes(marshal.dumps(function.__code__)).decode("ascii")
    closure = None if not function.__closure__ else tuple(
        cell.cell_contents for cell in function.__closure__)
    return code, function.__defaults__, closure


def load_function(dumped, globs):
    """The function `dump_function` wrote (`dumped`), its globals `globs`."""
    code, defaults, closure = dumped
    code = marshal.loads(base64.decodebytes(code.encode("ascii")))
    return types.FunctionType(
        code, globs, code.co_name, tuple(defaults) if defaults is not None else None,
        None if closure is None else tuple(types.CellType(v) for v in closure))


def function_config(value):
    """``(value, type, module)``: how tf_keras writes a function a layer keeps in its config
    (a Lambda's function, a cell wrapper's `residual_fn`): a Python function (a lambda or a
    named one) as its bytecode, another callable by its name, any other value as itself;
    within `in_memory_configs` (a clone), a callable as itself."""
    if callable(value) and keeping_objects():
        return value, "raw", None
    if isinstance(value, types.FunctionType):
        return dump_function(value), "lambda", value.__module__
    if callable(value):
        return value.__name__, "function", value.__module__
    return value, "raw", None


def function_from_bytecode(dumped, module, custom_objects, holder, allowing):
    """The function `function_config` wrote as bytecode (`dumped`), refused in safe mode (in
    tf_keras's words, naming `holder` and what `safe_mode=False` is `allowing`).  Its globals
    are tf_keras's: eagerflow as ``tf`` and NumPy as ``np``, those of its `module` where it is
    loaded (a warning where it is not), then `custom_objects`."""
    if in_safe_mode():
        raise ValueError(
            f"Requested the deserialization of {holder} with a Python `lambda` inside it. This "
            f"carries a potential risk of arbitrary code execution and thus it is disallowed "
            f"by default. If you trust the source of the saved model, you can pass "
            f"`safe_mode=False` to the loading function in order to allow {allowing} loading.")
    globs = {"np": np, "tf": sys.modules.get("eagerflow")}
    if module in sys.modules:
        globs.update(vars(sys.modules[module]))
    elif module is not None:
        warnings.warn(f"{module} is not loaded, but {holder} uses it. It may cause errors.",
                      UserWarning, stacklevel=3)
    globs.update(custom_objects or {})
    return load_function(dumped, globs)


def archive_loading():
    """Within, an unknown class raises TypeError, as the `.keras` format's loader does."""
    return _flag_on("archive")


def in_archive_loading():
    return bool(getattr(_scope, "archive", False))


def hdf5_loading():
    """Within (a model's `.h5` file being loaded), a layer of a class not known fails with
    tf_keras's legacy loader's ValueError ('Unknown layer: ...')."""
    return _flag_on("hdf5")


def unknown_layer_error(name):
    """What building a model from a config naming layer class `name`, which neither Keras
    nor the custom objects know, raises: as tf_keras's `.h5` loader, ValueError; elsewhere
    tf_keras calls the name (its stand-in for the layer) and fails with TypeError."""
    if getattr(_scope, "hdf5", False):
        return ValueError(_legacy_unknown("layer", name))
    return TypeError("'str' object is not callable")


def model_loading():
    """Within (a model being loaded), a name a family does not know fails, as tf_keras's
    loaders fail, in the families whose `get` otherwise gives such a name back."""
    return _flag_on("model_loading")


def in_memory_configs():
    """Within, configs stay in this process (as `clone_model` uses them): a config may hold
    Python objects that could not be written out, such as a Lambda layer's lambda."""
    return _flag_on("in_memory")


def keeping_objects():
    return bool(getattr(_scope, "in_memory", False))


def unknown_in_archive(name):
    return (f"Cannot deserialize object of type `{name}`. If `{name}` is a custom class, "
            f"please register it using the `@keras.saving.register_keras_serializable()` "
            f"decorator.")


def _unknown(kind, name):
    return (f"Unknown {kind}: {name!r}. Please ensure you are using a "
            f"`keras.utils.custom_object_scope` and that this object is included in the "
            f"scope. See https://www.tensorflow.org/guide/keras/save_and_serialize"
            f"#registering_the_custom_object for details.")


class Identifiers:
    """`serialize`, `deserialize` and `get` of one Keras family (activations, initializers,
    losses, ...), as tf_keras resolves their identifiers: names, ``{'class_name', 'config'}``
    dicts (``custom_objects`` and registered objects first), callables, and `None`.

    kind: the family's objects in messages ("initializer"); `get_kind` where `get`'s
    message names them otherwise ("constraint function"). objects: the names the family
    resolves, or a function returning them for a table known only later. base: the family's
    class; `serialize` warns for other objects, naming the public module `api`.
    none: what `get(None)` returns (`NO_DEFAULT`: a ValueError). instantiate: whether `get`
    instantiates a class given to it. unknown: the message for an unknown name, when the
    family words it otherwise. factories: names that deserialize to the result of calling
    their function (``'l1_l2'``). names_builtins: whether the family's own functions
    serialize to their bare names (others to a config). unknown_names_pass: whether a name
    the family does not know deserializes to itself, as tf_keras's metrics and regularizers
    do (it fails where it is called: ``'str' object is not callable``), except while a
    model loads.

    >>> family = Identifiers("decay", {"double": lambda x: 2 * x})
    >>> family.get("double")(3)
    6
    """

    NO_DEFAULT = object()

    def __init__(self, kind, objects, base=None, api=None, get_kind=None, none=None,
                 get_error=ValueError, instantiate=False, unknown=None, factories=None,
                 module=None, names_builtins=False, unknown_names_pass=False):
        self.kind, self.get_kind, self.base, self.api = kind, get_kind or kind, base, api
        self.names_builtins, self.unknown_names_pass = names_builtins, unknown_names_pass
        self._objects, self.none, self.get_error = objects, none, get_error
        self.instantiate, self.unknown, self.module = instantiate, unknown, module
        self.factories = factories or {}
        _FAMILIES.append(self)

    def objects(self):
        return self._objects() if callable(self._objects) else self._objects

    def serialize(self, obj, use_legacy_format=False):
        """`obj`'s config dict (the legacy format keeps only ``class_name`` and ``config``),
        a function's name, None for None."""
        if obj is None:
            return None
        if self.base is not None and not isinstance(obj, self.base):
            warnings.warn(f"The `{self.api}.serialize()` API should only be used for objects of "
                          f"type `{self.api}.{self.base.__name__}`. Found an instance of type "
                          f"{type(obj)}, which may lead to improper serialization.",
                          stacklevel=3)
        name = get_registered_name(obj) if not hasattr(obj, "get_config") else None
        # a function: by its name in the legacy format (and, for activations, when it is
        # the family's own), else as a config naming it, as tf_keras writes them
        if name is not None and (use_legacy_format or (self.names_builtins
                                                       and name in self.objects())):
            return name
        config = serialize_keras_object(obj, module=self.module)
        if use_legacy_format and isinstance(config, dict):
            return {"class_name": config["registered_name"] or config["class_name"],
                    "config": config["config"]}
        return config

    def deserialize(self, config, custom_objects=None):
        """The object a name or config dict describes; classes are instantiated."""
        if isinstance(config, str):
            if config in self.factories:
                return self.factories[config]()
            if self.unknown_names_pass and not getattr(_scope, "model_loading", False) \
                    and get_registered_object(config, custom_objects, self.objects()) is None:
                return config
            if self.unknown and get_registered_object(config, custom_objects,
                                                      self.objects()) is None:
                raise ValueError(self.unknown.format(config))
        elif (self.unknown and isinstance(config, dict) and config.get("class_name") == "function"
              and get_registered_object(config.get("config"), custom_objects,
                                        self.objects()) is None):
            raise ValueError(self.unknown.format(config))  # (the message shows the config)
        found = deserialize_keras_object(config, self.objects(), custom_objects, self.kind)
        if self.unknown and isinstance(found, str):  # (a config of a class unknown)
            raise ValueError(self.unknown.format(config))
        return found

    def get(self, identifier):
        """The object a name, config dict, callable (or class, when `instantiate`) means."""
        if identifier is None and self.none is not self.NO_DEFAULT:
            return self.none
        if isinstance(identifier, (str, dict)):
            return self.deserialize(identifier)
        if self.instantiate and inspect.isclass(identifier):
            return identifier()
        if callable(identifier):
            return identifier
        raise self.get_error(f"Could not interpret {self.get_kind} identifier: {identifier}")


# The public functions, with tf_keras's signatures (``deserialize_keras_object(config,
# custom_objects)``); the library calls the ones above, which take its older arguments.
@export("keras.saving.serialize_keras_object", "keras.utils.serialize_keras_object")
def _serialize_keras_object(obj):
    """``{'module', 'class_name', 'config', 'registered_name'}`` for `obj` (and the
    ``build_config`` of a built layer), a name for a function.

    >>> tf.keras.utils.serialize_keras_object(tf.keras.layers.Dense(2))["class_name"]
    'Dense'
    """
    return serialize_keras_object(obj)


@export("keras.saving.deserialize_keras_object", "keras.utils.deserialize_keras_object")
def _deserialize_keras_object(config, custom_objects=None, safe_mode=True, **kwargs):
    """The object `config` describes (`custom_objects`: {name: class or function} beyond
    the registered ones); `kwargs` may give tf_keras's older `module_objects` and
    `printable_module_name`.

    >>> config = tf.keras.utils.serialize_keras_object(tf.keras.layers.Dense(2))
    >>> type(tf.keras.utils.deserialize_keras_object(config)).__name__
    'Dense'
    """
    return deserialize_keras_object(
        config, kwargs.pop("module_objects", None), custom_objects,
        kwargs.pop("printable_module_name", "object"), safe_mode)


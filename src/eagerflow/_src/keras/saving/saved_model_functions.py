"""The call functions tf_keras saves with a layer or model in a SavedModel, and the revival
of a model from them.

tf_keras's `load_model` rebuilds a layer whose class it knows from the config
recorded with it; one it does not know (a subclassed model, a custom layer) it
revives from the SavedModel itself, calling the functions saved under the
layer's ``keras_api``: ``call_and_return_conditional_losses`` (the layer's
outputs and the losses its call added) traced with the inputs of the layer's
first call, once with ``training=True`` and once with ``training=False`` when
`call` takes `training`. The layer itself holds them as ``__call__`` (the
outputs alone) and ``call_and_return_all_conditional_losses``, as tf_keras
saves them, beside its ``variables`` and ``trainable_variables`` lists. `revive`
is the same loader's, for eagerflow's `load_model`.
"""
import inspect
import weakref

from eagerflow._src.backend import log as _log
from eagerflow._src.core import nest
from eagerflow._src.core.module import Module
from eagerflow._src.core.tensor_spec import TensorSpec
from eagerflow._src.core.variables import Variable
from eagerflow._src.function.polymorphic_function import function
from eagerflow._src.keras.engine.base_layer import call_keeping_losses


class _KerasApi:
    """A layer's ``keras_api`` node: the functions tf_keras's loader calls, and its lists."""

    def _trackable_children(self):
        return [(k, v) for k, v in vars(self).items() if isinstance(v, (list, dict))]


class _RandomGeneratorNode:
    """A random layer's ``_random_generator`` node (in SavedModels only, not checkpoints, as
    tf_keras saves it): its `tf.random.Generator`, whose state variable the layer's traced
    calls read and advance."""

    def __init__(self, generator):
        self._generator = generator

    def _trackable_children(self):
        return [("_generator", self._generator)]


def _is_builtin(layer):
    """Whether tf_keras rebuilds `layer` from its config (one of Keras's own classes)."""
    return type(layer).__module__.startswith("eagerflow.")


def _input_specs(layer):
    """The specs of `layer`'s first call's inputs, with a batch size of None (a model's named
    as `save_spec` names them); None when it was never called."""
    if hasattr(type(layer), "save_spec"):  # (a model)
        found = layer.save_spec()
        return None if found is None else found[0][0]
    specs = layer.__dict__.get("_saved_model_inputs_spec")
    return None if specs is None else nest.map_structure(_relaxed, specs)


def _relaxed(spec):
    if isinstance(spec, TensorSpec) and spec.shape.rank:
        return TensorSpec([None] + spec.shape.as_list()[1:], spec.dtype, spec.name)
    return spec


def _other_arguments(layer):
    """``(args, kwargs)``: the specs (batch size None) of the tensor arguments beside the
    inputs of `layer`'s first call (a decoder layer's `context`), and its other values."""
    args, kwargs = layer.__dict__.get("_saved_model_arg_spec", ((), {}))
    return nest.map_structure(_relaxed, (tuple(args), dict(kwargs)))


def children(layer):
    """``[(name, tf.function or object)]``: what a SavedModel saves of `layer` beside its
    weights and sub-layers, as tf_keras saves it: its ``variables``,
    ``trainable_variables`` and ``regularization_losses`` (its weight regularizers' losses,
    traced), and, once it was called, its call functions (``__call__``, the outputs, and
    ``call_and_return_all_conditional_losses``, the outputs and the losses the call added)
    and its ``keras_api`` node holding them for tf_keras's loader. An input layer has none."""
    from eagerflow._src.keras.engine.input_layer import InputLayer  # noqa: PLC0415
    if isinstance(layer, InputLayer):
        return []
    if not layer.built and layer.__dict__.get("_saved_model_inputs_spec") is None:
        # (nothing to trace a call from: saved as tf_keras saves it, by its weights and an
        # empty ``keras_api`` node)
        _log.logger.warning(f"Skipping full serialization of TF-Keras layer {layer!r}, "
                            "because it is not built.")
        return [("keras_api", _KerasApi())]
    own_losses = [_loss_function(fn) for fn in layer._callable_losses]
    losses = [_loss_function(fn) for sub in layer._flatten_layers()
              for fn in sub._callable_losses]
    lists = [("variables", _variables(layer.variables)),
             ("trainable_variables", _variables(layer.trainable_variables)),
             ("regularization_losses", losses)]
    inputs = _input_specs(layer)
    if inputs is None:
        return lists
    other_args, other_kwargs = (), {}
    if not hasattr(type(layer), "save_spec"):  # (a model's calls take its inputs alone)
        other_args, other_kwargs = _other_arguments(layer)
    signature = inspect.signature(layer.call)
    # (as tf_keras records it: `training` defaults to False, so a call without it runs the
    # inference trace)
    saved_signature = signature.replace(parameters=[
        p.replace(default=False) if p.name == "training" else p
        for p in signature.parameters.values()])

    def call(args, kwargs):
        if not any(p.kind is p.VAR_POSITIONAL for p in signature.parameters.values()):
            # (the arguments after the inputs by name: `training` among them is not moved)
            bound = list(signature.bind(*args, **kwargs).arguments.items())
            args, kwargs = (bound[0][1],), dict(bound[1:])
        return call_keeping_losses(layer, *args, **kwargs)

    def call_and_return_conditional_losses(*args, **kwargs):
        return call(args, kwargs)

    def layer_call(*args, **kwargs):
        return call(args, kwargs)[0]

    found = []
    for name, python_function in (("call_and_return_conditional_losses",
                                   call_and_return_conditional_losses),
                                  ("call_fn", layer_call)):
        python_function.__signature__ = saved_signature
        python_function.__name__ = f"{layer.name}_layer_{name}"
        traced = function(python_function)
        try:
            if "training" in signature.parameters:
                traced.get_concrete_function(inputs, *other_args, training=True,
                                             **other_kwargs)
                traced.get_concrete_function(inputs, *other_args, training=False,
                                             **other_kwargs)
            else:
                traced.get_concrete_function(inputs, *other_args, **other_kwargs)
        except (TypeError, ValueError):
            # a built-in layer whose call takes more than the inputs recorded (the value
            # of an attention layer): rebuilt from its config, it is saved without them
            if not _is_builtin(layer):
                raise
            return lists
        found.append(traced)
    keras_api = _KerasApi()
    keras_api.non_trainable_variables = _variables(layer.non_trainable_variables)
    keras_api.layers = list(getattr(layer, "layers", None) or layer._direct_sublayers())
    # (the metrics `add_metric` made hold variables the call functions update)
    keras_api.metrics = list(layer.metrics)
    keras_api.layer_regularization_losses = own_losses
    keras_api.layer_metrics = {m.name: m for m in layer._metrics}
    keras_api.variables = lists[0][1]
    keras_api.trainable_variables = lists[1][1]
    keras_api.regularization_losses = losses
    keras_api.__call__ = found[1]
    keras_api.call_and_return_all_conditional_losses = found[0]
    keras_api.call_and_return_conditional_losses = found[0]
    out = lists + [("keras_api", keras_api), ("__call__", found[1]),
                   ("call_and_return_all_conditional_losses", found[0])]
    generator = getattr(getattr(layer, "_random_generator", None), "_generator", None)
    if generator is not None:
        out.append(("_random_generator", _RandomGeneratorNode(generator)))
    return out


_LOSS_FUNCTIONS = weakref.WeakKeyDictionary()  # a layer's loss callable -> its traced function


def _loss_function(fn):
    """The traced function a SavedModel saves for a layer's regularization loss `fn` (one
    per callable, so that the layer's list and its model's share it, as tf_keras's do)."""
    traced = _LOSS_FUNCTIONS.get(fn)
    if traced is None:
        def loss_fn():
            return fn()
        loss_fn.__name__ = "loss_fn"
        traced = _LOSS_FUNCTIONS[fn] = function(loss_fn)
        traced.get_concrete_function()
    return traced


# -- reviving ------------------------------------------------------------------------------
# A SavedModel's attributes that tf_keras saves for its loader, not the layer's own state.
_SAVED_ATTRIBUTES = frozenset((
    "variables", "trainable_variables", "non_trainable_variables", "regularization_losses",
    "keras_api", "layers", "metrics", "layer_regularization_losses", "layer_metrics",
    "signatures", "optimizer", "_default_save_signature", "__call__",
    "call_and_return_conditional_losses", "call_and_return_all_conditional_losses",
    "activity_regularizer_fn"))


_CONTAINERS = {"trackable_list_wrapper": list, "trackable_tuple_wrapper": tuple,
               "trackable_dict_wrapper": dict}


class _RevivedCall:
    """`call` of a revived layer: its saved ``call_and_return_conditional_losses``, its
    losses added to the layer's."""

    def call(self, inputs, training=None, **kwargs):
        function = self.__dict__.get("_revived_function")
        if function is None:
            raise ValueError(
                f"Cannot call custom layer {self.name} of type {type(self)}, because the call "
                f"function was not serialized to the SavedModel.Please try one of the "
                f"following methods to fix this issue:\n\n(1) Implement `get_config` and "
                f"`from_config` in the layer/model class, and pass the object to the "
                f"`custom_objects` argument when loading the model. For more details, see: "
                f"https://www.tensorflow.org/guide/keras/save_and_serialize\n\n(2) Ensure "
                f"that the subclassed model or layer overwrites `call` and not `__call__`. The "
                f"input shape and dtype will be automatically recorded when the object is "
                f"called, and used when saving. To manually specify the input shape/dtype, "
                f"decorate the call function with `@tf.function(input_signature=...)`.")
        names = {p.name for p in (function._params or ())}
        if "training" in names:
            kwargs["training"] = bool(training)
        outputs, losses = function(inputs, **kwargs)
        self.add_loss(losses)
        return outputs

    def get_config(self):
        """The config the layer was saved with (its class's own arguments too), as tf_keras's
        revived layers give it."""
        saved = self.__dict__.get("_revived_config")
        return dict(saved) if saved else super().get_config()


def _variables(weights):
    """The variables among a layer's `weights` (not an adapted vocabulary's handler)."""
    return [w for w in weights if isinstance(w, Variable)]


def revive(path, nodes, metadata, rebuild, model_class, layer_class):
    """The Keras model of the SavedModel at `path` whose root's class is unknown here, as
    tf_keras's loader revives one: layers of known classes rebuilt by `rebuild(metadata,
    scope)` (built in name scope `scope`, their saved weights' prefix; it raises ValueError
    for an unknown class), the others made `model_class` or
    `layer_class` objects (of subclasses named as the saved classes) calling their saved
    functions; the variables are those of the rebuilt layers (the saved functions capture
    them) or, for the revived ones, the SavedModel's own. `nodes`: the SavedObjectGraph's;
    `metadata`: ``{node id: (identifier, metadata dict)}``. None when the root cannot be
    revived (no saved call function)."""
    from eagerflow._src.checkpoint import trackable  # noqa: PLC0415
    from eagerflow._src.saved_model import load  # noqa: PLC0415 (above Keras)

    revived = {}  # node id -> revived (not rebuilt) layer
    layers = {}  # node id -> its layer, made once (a Sequential's child is named twice)

    def make(i):
        if i not in layers:
            layers[i] = make_new(i)
        return layers[i]

    def make_new(i):
        identifier, config = metadata[i]
        names = [nodes[r.node_id].variable.name for r in nodes[i].children
                 if nodes[r.node_id].WhichOneof("kind") == "variable"]
        scope = names[0].rpartition("/")[0] + "/" if names and "/" in names[0] else ""
        try:
            return rebuild(config, scope)
        except (ValueError, TypeError):
            pass
        base = model_class if identifier in ("_tf_keras_model", "_tf_keras_network",
                                             "_tf_keras_sequential") else layer_class
        cls = type(config.get("class_name") or base.__name__, (_RevivedCall, base), {})
        obj = revived[i] = cls(name=config.get("name"), trainable=config.get("trainable", True))
        obj.built = True
        obj.__dict__["_revived_config"] = config.get("config")
        shape = config.get("build_input_shape")
        if shape is not None:
            obj._build_input_shape = shape
        for ref in nodes[i].children:
            if ref.local_name in _SAVED_ATTRIBUTES:
                continue
            child = made(ref.node_id)
            if child is not None:
                setattr(obj, ref.local_name, child)
                held.add(ref.node_id)
        return obj

    def made(i):
        """The layer node `i` saves, or the list, tuple or dict of layers; None for others."""
        if i in metadata:
            return make(i) if metadata[i][0] != "_tf_keras_input_layer" else None
        kind = _CONTAINERS.get(nodes[i].user_object.identifier) \
            if nodes[i].WhichOneof("kind") == "user_object" else None
        if kind is None:
            return None
        items = {ref.local_name: made(ref.node_id) for ref in nodes[i].children}
        items = {k: v for k, v in items.items() if v is not None}
        if kind is dict:
            return items or None
        if sorted(items) != sorted(str(k) for k in range(len(items))):
            return None  # (other items between the layers: left to the SavedModel's objects)
        return kind(items[str(k)] for k in range(len(items))) or None

    held = set()  # node ids of the containers of layers set on the revived objects

    if not any(r.local_name == "keras_api" for r in nodes[0].children):
        return None
    root = make(0)
    # the rebuilt layers' variables, found at their paths in the object graph
    variables, seen, queue = {}, {0}, [(0, root)]
    while queue:
        i, obj = queue.pop()
        for ref in nodes[i].children:
            if ref.node_id in seen or ref.local_name in _SAVED_ATTRIBUTES:
                continue
            child = trackable.lookup(obj, ref.local_name)
            if child is None:
                continue
            seen.add(ref.node_id)
            if isinstance(child, Variable):
                if nodes[ref.node_id].WhichOneof("kind") == "variable":
                    variables[ref.node_id] = child
            else:
                queue.append((ref.node_id, child))
    loaded = load.load_nodes(path, variables)
    for i, obj in revived.items():
        for ref in nodes[i].children:
            kind = nodes[ref.node_id].WhichOneof("kind")
            if ref.local_name == "keras_api":
                function = getattr(loaded[ref.node_id], "call_and_return_conditional_losses",
                                   None)
                obj.__dict__["_revived_function"] = function
            elif ref.local_name not in _SAVED_ATTRIBUTES and ref.node_id not in variables and \
                    ref.node_id not in metadata and ref.node_id not in held and \
                    (kind == "variable" or isinstance(loaded[ref.node_id], (list, dict))):
                setattr(obj, ref.local_name, loaded[ref.node_id])
    root.signatures = getattr(loaded[0], "signatures", None) or {}  # (as tf_keras's)
    return root

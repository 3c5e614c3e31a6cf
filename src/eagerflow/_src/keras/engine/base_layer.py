"""`Layer`: the unit of Keras models: weights created on first call, a `call` method.

On its first call a layer builds its weights for the input's shape (under the
layer's name scope, so they are named ``dense/kernel:0``); every call checks
the input against `input_spec`, casts floating inputs to the layer's compute
dtype, passes ``training`` down to nested layers and propagates masks.

>>> class Scale(tf.keras.layers.Layer):
...     def build(self, input_shape):
...         self.w = self.add_weight("w", shape=(input_shape[-1],), initializer="ones")
...     def call(self, inputs):
...         return inputs * self.w
>>> layer = Scale()
>>> layer(tf.constant([[1.0, 2.0]])).numpy()
array([[1., 2.]], dtype=float32)
>>> [w.name for w in layer.weights]
['scale/w:0']
"""
import contextlib
import functools
import inspect
import re
import threading
import weakref

import numpy as np

from eagerflow._src.autodiff.tape import GradientTape
from eagerflow._src.autograph import conversion
from eagerflow._src.backend import tracebacks
from eagerflow._src.backend.api_export import export
from eagerflow._src.core import context
from eagerflow._src.core import dtypes as _dtypes
from eagerflow._src.core import module as module_lib
from eagerflow._src.core import nest
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.core.errors import OpError
from eagerflow._src.core.module import WRAPPER_TYPES, Module, _snake_case, leaves
from eagerflow._src.core.tensor import Tensor
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.core.tensor_spec import TensorSpec
from eagerflow._src.core.variables import (
    Variable, VariableAggregation, VariableSynchronization, variable_creator_scope)
from eagerflow._src.ops import array_ops, cast_ops
from eagerflow._src.ops.sparse_tensor import SparseTensor
from eagerflow._src.keras import backend, late
from eagerflow._src.keras import initializers as initializers_mod
from eagerflow._src.keras import regularizers as regularizers_mod
from eagerflow._src.keras import constraints as constraints_mod
from eagerflow._src.keras.engine import input_spec as input_spec_mod
from eagerflow._src.keras.engine import keras_tensor
from eagerflow._src.keras.mixed_precision import policy as policy_mod
from eagerflow._src.keras.utils import layer_utils
from eagerflow._src.keras.mixed_precision.autocast_variable import AutoCastVariable, autocast_to

# Called with every weight `add_weight` creates: where `load_weights` into a model without
# weights yet waits for them (TF restores a checkpoint's values as variables get created).
WEIGHT_CREATION_HOOKS = []

# The name TF gives a variable created without one: such a variable is
# tracked by the attribute holding it, not by its name.
_DEFAULT_VARIABLE_NAME = re.compile(r"Variable(_\d+)?")

_ALLOWED_KWARGS = frozenset(("input_dim", "input_shape", "batch_input_shape", "batch_size",
                             "weights", "activity_regularizer", "autocast", "implementation"))
_state = threading.local()
# Held while a layer builds: threads calling a layer that another thread is building wait
# for its weights rather than make a second set (reentrant: a layer builds its sublayers).
_build_lock = threading.RLock()
_holding_losses = weakref.WeakSet()  # layers with losses from their last call


def _holds_state(value):
    """Whether `value` is, or holds, a variable or a trackable object (a checkpoint's child:
    one with children, or one saving values of its own, as a mutable hash table)."""
    return any(isinstance(leaf, (Variable, Module)) or hasattr(type(leaf), "_trackable_children")
               or hasattr(type(leaf), "_serialize_to_tensors") for leaf in leaves(value))


class TrackableWeightHandler:
    """A layer weight that is not a variable (a lookup layer's adapted vocabulary), as
    tf_keras has them: listed in the layer's `weights`; `get_weights` gives its
    `num_tensors` arrays (`get_tensors`) and `set_weights` passes them back (`set_weights`).
    It has no name or shape; checkpoints and parameter counts leave it out."""

    num_tensors = 1

    def __init__(self):
        from eagerflow._src.distribute import strategy  # noqa: PLC0415
        # (the strategy whose scope made it: a model compiled under another one refuses it)
        self._distribute_strategy = strategy.get_strategy()

    def get_tensors(self):
        raise NotImplementedError

    def set_weights(self, weights):
        raise NotImplementedError


class CallContext:
    """What the enclosing layer calls decided: the ``training`` value and the depth."""

    __slots__ = ("training", "depth")

    def __init__(self):
        self.training, self.depth = None, 0


def call_context():
    ctx = getattr(_state, "ctx", None)
    if ctx is None:
        ctx = _state.ctx = CallContext()
    return ctx


class _CallSpec:
    """What a `call` signature accepts: ``training``, ``mask``, and their defaults."""

    def __init__(self, call):
        params = list(inspect.signature(call).parameters.values())[1:]  # without `self`
        names = [p.name for p in params]
        varkw = any(p.kind is p.VAR_KEYWORD for p in params)
        self.expects_training = "training" in names or varkw
        self.expects_mask = "mask" in names or varkw
        self.training_index = names.index("training") if "training" in names else None
        self.training_default = (params[self.training_index].default
                                 if self.training_index is not None
                                 and params[self.training_index].default is not
                                 inspect.Parameter.empty else None)
        self.first_arg = names[0] if names else "inputs"


def _spec_of(value):
    """The type spec of a call's input (a tensor's `TensorSpec`, a composite's own), else
    the value."""
    spec = getattr(value, "_type_spec", None)
    if isinstance(value, Tensor) or spec is None:
        return TensorSpec(value.shape, value.dtype) if isinstance(value, Tensor) else value
    return spec


def call_keeping_losses(layer, *args, **kwargs):
    """``(outputs, losses)``: `layer` called, and the losses the call added (its own and its
    sub-layers'), the layers' losses left as they were (a trace's are graph tensors)."""
    before = [(sub, list(sub._eager_losses)) for sub in layer._flatten_layers()]
    try:
        outputs = layer(*args, **kwargs)
        return outputs, [loss for sub in layer._flatten_layers() for loss in sub._eager_losses]
    finally:
        for sub, losses in before:
            sub._eager_losses = losses


@functools.lru_cache(maxsize=None)
def _call_spec(call):
    return _CallSpec(call)


def _recording_input_shape(build):
    """`build` that, done, records its input shape unless the layer already has one."""
    @functools.wraps(build)
    def recording(self, input_shape=None, *args, **kwargs):
        result = build(self, input_shape, *args, **kwargs)
        if getattr(self, "_build_input_shape", None) is None:
            self._build_input_shape = input_shape
        return result
    return recording


@contextlib.contextmanager
def watching_variables():
    """A block whose created variables and read trainable ones a function-wrapping layer
    (Lambda, TFOpLambda) checks: yields ``(created, tape)``, a list of the variables made
    and a tape whose `watched_variables()` are those read."""
    created = []

    def record(next_creator, **creator_kwargs):
        created.append(next_creator(**creator_kwargs))
        return created[-1]

    with GradientTape() as tape, variable_creator_scope(record):
        yield created, tape


@export("keras.layers.Layer")
class Layer(Module):
    """The base class of layers: weights, `build`, `call`, losses and configs."""

    _TRACKED_AS_LAYER = True  # metrics set this False: they are not sub-layers
    # Its identifier (and version) in a SavedModel's object graph, as tf_keras names its
    # layers, which its loader reads as a Keras object's (and `tf.saved_model.save`'s as one
    # without Keras's metadata)
    _saved_model_identifier = ("_tf_keras_layer", 1, 1)
    # The base of generated names, when not the class's snake_case; read from the class
    # itself only, so that subclasses (of `Sequential`, say) are named after themselves.
    _DEFAULT_NAME = None

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        # tf_keras's own layers end their `build` in the base's, which records the shape
        # (their build config) however the layer gets built: by a call, a wrapper or
        # `build` itself. Ours record it the same way; a user's layer, as in tf_keras, only
        # if its `build` calls the base's (or a call builds it).
        build = cls.__dict__.get("build")
        if build is not None and cls.__module__.startswith("eagerflow._src.keras."):
            cls.build = _recording_input_shape(build)

    def __new__(cls, *args, **kwargs):
        layer = super().__new__(cls)
        # The default `get_config` returns the arguments the layer was constructed with.
        object.__setattr__(layer, "_auto_config", _explicit_arguments(cls, args, kwargs))
        return layer

    def __init__(self, trainable=True, name=None, dtype=None, dynamic=False, **kwargs):
        for key in kwargs:
            if key not in _ALLOWED_KWARGS:
                raise TypeError("Keyword argument not understood:", key)
        if not (isinstance(trainable, bool) or
                isinstance(trainable, Tensor) and trainable.dtype == _dtypes.bool):
            raise TypeError(f"Expected `trainable` argument to be a boolean, but got: "
                            f"{trainable}")
        self._trainable_weights = []
        self._non_trainable_weights = []
        self._trainable = bool(trainable)
        self._init_set_name(name)
        self._dtype_policy = policy_mod.get(dtype)
        self._autocast = kwargs.get("autocast", policy_mod.v2_dtype_behavior_enabled())
        self._dynamic = dynamic
        self.built = False
        self._input_spec = None
        self.supports_masking = False
        self.stateful = False
        self._callable_losses = []
        self._eager_losses = []
        self._metrics = []
        self._inbound_nodes = []
        self._outbound_nodes = []
        self._build_input_shape = None
        self._activity_regularizer = regularizers_mod.get(kwargs.get("activity_regularizer"))
        self._initial_weights = kwargs.get("weights")
        self._batch_input_shape = _batch_input_shape(kwargs)

    def _init_set_name(self, name):
        if name is None:
            base = type(self).__dict__.get("_DEFAULT_NAME") or _snake_case(type(self).__name__)
            if base.startswith("_"):
                base = "private" + base
            name = backend.unique_object_name(base)
        elif not isinstance(name, str):
            raise TypeError(f"Expected `name` argument to be a string, but got: {name}")
        self._name = name
        self._scope_name = name + "/"

    # -- attribute tracking ---------------------------------------------------------
    # Internal attributes that never hold the layer's own sub-layers or weights.
    _UNTRACKED_ATTRIBUTES = frozenset((
        "_inbound_nodes", "_outbound_nodes", "_trainable_weights", "_non_trainable_weights",
        "_metrics", "_callable_losses", "_eager_losses", "_initial_weights",
        "_build_input_shape", "_input_spec", "_auto_config", "_saved_model_inputs_spec",
        "_saved_model_arg_spec"))

    def __setattr__(self, name, value):
        if self._tracks_attribute(name):
            self.__dict__.pop(name, None)  # as in Keras, a reassigned attribute moves last
            for leaf in leaves(value):
                if isinstance(leaf, Layer) and not leaf._TRACKED_AS_LAYER:  # a metric
                    metrics = self.__dict__.get("_metrics")
                    if metrics is not None and not any(m is leaf for m in metrics):
                        metrics.append(leaf)
                elif isinstance(leaf, Variable):
                    self._track_variable(leaf)
        super().__setattr__(name, value)

    def _track_variable(self, variable):
        """Makes `variable` one of this layer's own weights (once)."""
        if not any(w is variable for w in self._trainable_weights) and \
                not any(w is variable for w in self._non_trainable_weights):
            (self._trainable_weights if variable.trainable else
             self._non_trainable_weights).append(variable)

    def _trackable_children(self):
        """The checkpoint's children of this layer, as TF names them: its own weights by the
        name `add_weight` gave them, then its attributes holding weights, layers or other
        trackable objects (a weight also held by an attribute and named by default is found
        through the attribute)."""
        ignored = self._UNTRACKED_ATTRIBUTES | self._TF_MODULE_IGNORED_PROPERTIES
        attributes = [(k, v) for k, v in vars(self).items()
                      if k not in ignored and _holds_state(v)]
        held = {id(leaf) for _, v in attributes for leaf in leaves(v)}
        own = []
        for weight in self._trainable_weights + self._non_trainable_weights:
            if isinstance(weight, TrackableWeightHandler):
                continue
            name = weight.name.rpartition(":")[0].rpartition("/")[2]
            if not (_DEFAULT_VARIABLE_NAME.fullmatch(name) and id(weight) in held):
                own.append((name, weight))
        # an attribute named as its weight (Dense's ``self.kernel``) is one edge, as in TF
        named = {(name, id(weight)) for name, weight in own}
        return own + [(k, v) for k, v in attributes if (k, id(v)) not in named]

    def _track_container_variables(self):
        """Tracks the variables put into this layer's lists and dicts after their assignment
        (Keras finds them when its weights are asked for)."""
        for key, value in vars(self).items():
            if isinstance(value, WRAPPER_TYPES) and key not in self._UNTRACKED_ATTRIBUTES:
                for leaf in leaves(value):
                    if isinstance(leaf, Variable):
                        self._track_variable(leaf)

    def _flatten_layers(self, include_self=True, recursive=True):
        """This layer (when `include_self`) and its sub-layers, depth first, each once."""
        seen = set()

        def visit(layer, top):
            if id(layer) in seen:
                return
            seen.add(id(layer))
            if include_self or not top:
                yield layer
            if top or recursive:
                for child in layer._direct_sublayers():
                    yield from visit(child, False)
        return list(visit(self, True))

    def _weight_tree(self):
        """``(holder, [child trees])`` from this layer: the layers and other modules its
        attributes hold, each once, in the order the walk meets them."""
        seen = {id(self)}

        def visit(obj):
            children = []
            if isinstance(obj, Layer):
                obj._track_container_variables()
                for key, value in vars(obj).items():
                    if key in obj._UNTRACKED_ATTRIBUTES:
                        continue
                    for leaf in leaves(value):
                        if leaf is obj or isinstance(leaf, Layer) and not leaf._TRACKED_AS_LAYER:
                            continue
                        if isinstance(leaf, Module) and id(leaf) not in seen \
                                and not getattr(leaf, "_NOT_A_MODULE", False):
                            seen.add(id(leaf))
                            children.append(visit(leaf))
            return obj, children
        return visit(self)

    def _direct_sublayers(self, metrics=False, modules=False):
        """Layers (and, with `metrics`, metrics; with `modules`, other `tf.Module`s) held by
        attributes (and lists, tuples and dicts of them), in assignment order (a dict's by
        sorted key)."""
        for key, value in vars(self).items():
            if key in self._UNTRACKED_ATTRIBUTES:
                continue
            for leaf in leaves(value):
                if isinstance(leaf, Layer) and (metrics or leaf._TRACKED_AS_LAYER) and \
                        leaf is not self:
                    yield leaf
                elif modules and isinstance(leaf, Module) and not isinstance(leaf, Layer) \
                        and not getattr(leaf, "_NOT_A_MODULE", False):
                    yield leaf

    # -- properties ---------------------------------------------------------------
    @property
    def name(self):
        return self._name

    @property
    def dtype(self):
        """The dtype of the layer's weights (``'float32'``)."""
        return self._dtype_policy.variable_dtype

    @property
    def compute_dtype(self):
        return self._dtype_policy.compute_dtype

    @property
    def variable_dtype(self):
        return self._dtype_policy.variable_dtype

    @property
    def dtype_policy(self):
        return self._dtype_policy

    @property
    def dynamic(self):
        return any(layer._dynamic for layer in self._flatten_layers())

    @property
    def stateful(self):
        """Whether this layer or one inside it (a model's stateful RNN) keeps state between
        calls."""
        return any(layer._stateful for layer in self._flatten_layers())

    @stateful.setter
    def stateful(self, value):
        self._stateful = value

    @property
    def trainable(self):
        return self._trainable

    @trainable.setter
    def trainable(self, value):
        for layer in self._flatten_layers():
            layer._trainable = bool(value)

    @property
    def input_spec(self):
        return self._input_spec

    @input_spec.setter
    def input_spec(self, value):
        for spec in nest.flatten(value):
            if spec is not None and not isinstance(spec, input_spec_mod.InputSpec):
                raise TypeError(f"Layer input_spec must be an instance of InputSpec. "
                                f"Got: {spec}")
        self._input_spec = value

    @property
    def activity_regularizer(self):
        return self._activity_regularizer

    @activity_regularizer.setter
    def activity_regularizer(self, regularizer):
        self._activity_regularizer = regularizer

    @property
    def trainable_weights(self):
        return _unique(_tree_weights(self._weight_tree(), True))

    @property
    def non_trainable_weights(self):
        return _unique(_tree_weights(self._weight_tree(), False))

    @property
    def weights(self):
        """Trainable weights first, then the others."""
        return self.trainable_weights + self.non_trainable_weights

    variables = weights
    trainable_variables = trainable_weights
    non_trainable_variables = non_trainable_weights

    @property
    def submodules(self):
        """Sub-layers and metrics, each once, in the order of TF's module walk: a layer's
        children (`_module_children`), then each child's descendants."""
        seen, found = {id(self)}, []

        def visit(layer):
            children = []
            for child in layer._module_children():
                if id(child) not in seen:
                    seen.add(id(child))
                    children.append(child)
            found.extend(children)
            for child in children:
                if isinstance(child, Layer):
                    visit(child)
                else:  # (a plain module: its own walk)
                    for sub in child.submodules:
                        if id(sub) not in seen:
                            seen.add(id(sub))
                            found.append(sub)
        visit(self)
        return tuple(found)

    def _module_children(self):
        """The children `submodules` finds: Keras keeps metrics in an attribute that TF's
        walk (in attribute-name order) reaches before the one holding the sub-layers."""
        return [*self._metrics, *self._direct_sublayers(modules=True)]

    @property
    def updates(self):
        """TF 1's update ops (a batch normalization's moving averages), this layer's and its
        sub-layers' that train or keep state: made while a TF 1 graph is built, none in
        TF 2, where updates apply as they run (deprecated there, with tf_keras's warning)."""
        if not backend.building_v1_graph():
            import warnings  # noqa: PLC0415
            warnings.warn("`layer.updates` will be removed in a future version. This property "
                          "should not be used in TensorFlow 2.0, as `updates` are applied "
                          "automatically.", stacklevel=2)
            return []
        return [update for layer in self._flatten_layers() if layer.trainable or layer.stateful
                for update in layer.__dict__.get("_graph_updates", ())]

    def get_updates_for(self, inputs):
        """TF 1's Keras: the `updates` computed from `inputs` (a tensor or a structure of
        them); with None, those computed from no placeholder (no input)."""
        return _computed_from(self.updates, inputs)

    def get_losses_for(self, inputs):
        """TF 1's Keras: the `losses` computed from `inputs`; with None, those computed from
        no placeholder (a weight's regularization, say)."""
        return _computed_from(self.losses, inputs)

    @property
    def losses(self):
        """Losses added by `add_loss` and activity/weight regularizers, this layer's and
        its sub-layers'."""
        collected = []
        for layer in self._flatten_layers():
            collected.extend(layer._eager_losses)
            for fn in layer._callable_losses:
                loss = fn()
                if loss is not None:  # (as Keras: a Python number becomes a floatx tensor)
                    collected.append(loss if isinstance(loss, Tensor) else
                                     convert_to_tensor(loss, dtype=backend.floatx()))
        return collected

    @property
    def metrics(self):
        return [m for layer in self._flatten_layers() for m in layer._metrics]

    # -- weights ------------------------------------------------------------------
    def add_weight(self, name=None, shape=None, dtype=None, initializer=None, regularizer=None,
                   trainable=None, constraint=None, use_resource=None,
                   synchronization=VariableSynchronization.AUTO, aggregation=None, **kwargs):
        """Creates a weight variable of this layer and tracks it (and its regularizer)."""
        kwargs.pop("partitioner", None)  # (accepted and ignored, as in Keras)
        for key in kwargs:
            if key not in ("getter", "collections", "experimental_autocast", "caching_device",
                           "layout", "experimental_enable_variable_lifting"):
                raise TypeError("Unknown keyword argument:", key)
        shape = () if shape is None else \
            (shape,) if isinstance(shape, (int, np.integer)) else tuple(shape)  # 3 means (3,)
        dtype = _dtypes.as_dtype(dtype or self.dtype or backend.floatx())
        if synchronization == VariableSynchronization.ON_READ:
            if trainable:
                raise ValueError("Synchronization value can be set to "
                                 "VariableSynchronization.ON_READ only for non-trainable "
                                 "variables. You have specified trainable=True and "
                                 "synchronization=VariableSynchronization.ON_READ.")
            trainable = False
        elif trainable is None:
            trainable = True
        if initializer is None:
            if dtype.is_floating:
                initializer = "glorot_uniform"
            elif dtype.is_integer or dtype.is_unsigned or dtype.is_bool:
                initializer = "zeros"
            else:
                raise ValueError(f"An initializer for variable {name} of type {dtype} "
                                 f"is required for layer {self.name}. Received: {initializer}.")
        initializer = initializers_mod.get(initializer)
        # (as Keras: under a mixed policy only, a float weight of any dtype)
        policy = self._dtype_policy
        mixed = dtype.is_floating and kwargs.get("experimental_autocast", True) and \
            policy.compute_dtype != policy.variable_dtype
        # (a shape with unknown dims is the variable's: its values may take any size there)
        unknown = {"shape": TensorShape(shape)} if None in shape else {}
        variable = (AutoCastVariable if mixed else Variable)(
            lambda: initializer(shape, dtype=dtype), name=name, trainable=trainable, **unknown,
            dtype=dtype, constraint=constraints_mod.get(constraint),
            synchronization=synchronization,
            aggregation=VariableAggregation.NONE if aggregation is None else aggregation)
        (self._trainable_weights if trainable else self._non_trainable_weights).append(variable)
        module_lib.tracked(self)  # a checkpoint restored before the layer was built
        if regularizer is not None:
            regularizer = regularizers_mod.get(regularizer)
            self._callable_losses.append(
                functools.partial(_regularization_loss, regularizer, variable, name))
        for hook in tuple(WEIGHT_CREATION_HOOKS):
            hook(variable)
        return variable

    def add_variable(self, *args, **kwargs):
        """Deprecated: `add_weight`, with tf_keras's warning."""
        import warnings  # noqa: PLC0415
        warnings.warn("`layer.add_variable` is deprecated and will be removed in a future "
                      "version. Please use the `layer.add_weight()` method instead.",
                      stacklevel=2)
        return self.add_weight(*args, **kwargs)

    def _add_trackable(self, trackable_object, trainable):
        """Lists `trackable_object` (a `TrackableWeightHandler`) among the layer's trainable
        or non-trainable weights; returns it."""
        (self._trainable_weights if trainable else self._non_trainable_weights).append(
            trackable_object)
        return trackable_object

    def get_weights(self):
        """The weights' values as NumPy arrays, in the order of `weights` (a weight that is
        not a variable gives its handler's arrays)."""
        values = []
        variables = [w for w in self.weights if not isinstance(w, TrackableWeightHandler)]
        read = iter(backend.batch_get_value(variables))
        for w in self.weights:
            if isinstance(w, TrackableWeightHandler):
                values.extend(np.asarray(t) for t in w.get_tensors())
            else:
                values.append(next(read))
        return values

    def set_weights(self, weights):
        """Assigns NumPy arrays to the weights, in the order of `weights` (then lets every
        layer derive its state from them: `finalize_state`)."""
        params = self.weights
        expected = sum(p.num_tensors if isinstance(p, TrackableWeightHandler) else 1
                       for p in params)
        if expected != len(weights):
            raise ValueError(f'You called `set_weights(weights)` on layer "{self.name}" with '
                             f"a weight list of length {len(weights)}, but the layer was "
                             f"expecting {expected} weights. Provided weights: "
                             f"{str(weights)[:50]}...")
        pairs, handled, i = [], [], 0
        for param in params:
            if isinstance(param, TrackableWeightHandler):
                handled.append((param, list(weights[i:i + param.num_tensors])))
                i += param.num_tensors
                continue
            # (as Keras: a value without a shape, a Python list, counts as a scalar)
            shape = getattr(weights[i], "shape", ())
            value = np.asarray(weights[i])
            i += 1
            if not param.shape.is_compatible_with(shape):
                raise ValueError(f"Layer {self.name} weight shape "
                                 f"{tuple(param.shape.as_list())} is not compatible with "
                                 f"provided weight shape {tuple(TensorShape(shape).as_list())}.")
            pairs.append((param, value))
        for param, values in handled:
            param.set_weights(values)
        backend.batch_set_value(pairs)
        for layer in self._flatten_layers():
            layer.finalize_state()

    def finalize_state(self):
        """Derives state from the layer's weights after `set_weights` (nothing here)."""

    def count_params(self):
        """The number of scalars in the layer's weights."""
        if not self.built:  # (even a layer whose weights its __init__ made, as in TF)
            raise ValueError(f"You tried to call `count_params` on layer {self.name}, but "
                             f"the layer isn't built. You can build it manually via: "
                             f"`{self.name}.build(batch_input_shape)`.")
        return layer_utils.count_params(self.weights)

    # -- losses and metrics ---------------------------------------------------------
    def save_own_variables(self, store):
        """Writes this layer's own variables into `store` (``store["0"]``, ``store["1"]``,
        ...: trainable ones first), as a `.keras` archive saves them; override to save other
        state."""
        for i, v in enumerate(self._trainable_weights + self._non_trainable_weights):
            store[f"{i}"] = v.numpy()

    def load_own_variables(self, store):
        """Assigns this layer's own variables from `store`, as `save_own_variables` wrote
        them."""
        variables = self._trainable_weights + self._non_trainable_weights
        if len(store.keys()) != len(variables):
            raise ValueError(f"Layer '{self.name}' expected {len(variables)} variables, but "
                             f"received {len(store.keys())} variables during loading. "
                             f"Expected: {[v.name for v in variables]}")
        for i, v in enumerate(variables):
            v.assign(np.asarray(store[f"{i}"]))

    def add_update(self, updates):
        """Runs the callables among `updates` (TF 2's updates are ops that already ran); while
        a TF 1 graph is built, keeps their ops (and those given) for `updates`, which a
        session runs."""
        kept = self.__dict__.setdefault("_graph_updates", []) if backend.building_v1_graph() \
            else None
        for update in updates if isinstance(updates, (list, tuple)) else [updates]:
            if callable(update):
                update = update()
            if kept is not None and update is not None:
                kept.append(getattr(update, "op", update))

    def add_loss(self, losses, **kwargs):
        """Adds loss tensors, or zero-argument callables returning one, to `losses`.

        As in Keras, a loss with a value (not a symbolic tensor: a tensor of a traced
        function counts as one with a value) is taken only while a layer is called: outside
        a call it must be a zero-argument callable.

        >>> layer = tf.keras.layers.Dense(1)
        >>> layer.add_loss(lambda: tf.constant(0.5))
        >>> [float(loss) for loss in layer.losses]
        [0.5]
        """
        losses = [loss for loss in nest.flatten(losses) if loss is not None]
        self._callable_losses.extend(loss for loss in losses if callable(loss))
        # (a tensor keeps its dtype: a float64 layer's losses are float64)
        values = [loss if isinstance(loss, Tensor) else
                  convert_to_tensor(loss, dtype=backend.floatx())
                  for loss in losses if not callable(loss)]
        if values and call_context().depth == 0 and (
                context.executing_eagerly() or context.inside_function()) and \
                not all(keras_tensor.is_keras_tensor(v) for v in values):
            raise ValueError("Expected a symbolic Tensors or a callable for the loss value. "
                             "Please wrap your loss computation in a zero argument `lambda`.")
        if values:
            self._eager_losses.extend(values)
            _holding_losses.add(self)

    def _clear_losses(self):
        if not _holding_losses:  # the common case: nothing to clear, no walk over sub-layers
            return
        for layer in self._flatten_layers():
            if layer._eager_losses:
                layer._eager_losses = []
                _holding_losses.discard(layer)

    def add_metric(self, value, name=None, aggregation=None, **kwargs):
        """Tracks the mean of `value` over calls as metric `name` (shown by `fit`); as in
        Keras, a value (not a symbolic tensor) only while a layer is called, and
        `aggregation` is kept for compatibility only."""
        if kwargs:
            raise TypeError(f"Unknown keyword arguments: {kwargs.keys()}. "
                            f"Expected `aggregation`.")
        # a metric's own result (``metric(y_true, y_pred)``): that metric, already updated
        source = getattr(value, "_metric_obj", None)
        if name is None and source is None:
            raise ValueError("Please provide a name for your metric like "
                             "`self.add_metric(tf.reduce_sum(inputs), name='mean_activation')`")
        if call_context().depth == 0 and not keras_tensor.is_keras_tensor(value):
            raise ValueError("Expected a symbolic Tensor for the metric value, received: " +
                             str(value))
        name = source.name if source is not None else name
        metric = next((m for m in self._metrics if m.name == name), None)
        if metric is None and source is not None:
            self._metrics.append(source)
        elif metric is None:
            metric = late.metrics.Mean(name=name)  # metrics are layers: a tier above
            self._metrics.append(metric)
        if source is None:
            metric.update_state(value)

    # -- building and calling --------------------------------------------------------
    def build(self, input_shape):
        """Creates the weights for inputs of `input_shape`; the base only records it."""
        self._build_input_shape = input_shape
        self.built = True

    def call(self, inputs, *args, **kwargs):
        """The layer's computation; the base returns its input."""
        return inputs

    def _maybe_build(self, inputs):
        if self.built:
            return
        with _build_lock:
            if not self.built:  # (unless another thread built it meanwhile)
                self._build_from(inputs)

    def _build_from(self, inputs):
        # (an input without a shape, a string, has None: tf_keras leaves such inputs as they are)
        shapes = nest.map_structure(lambda x: getattr(x, "shape", None), inputs)
        if inputs is None:  # (called on None alone: build sees an unknown shape, as in Keras)
            shapes = TensorShape(None)
        first = next(iter(nest.flatten(inputs)), None)
        if self._dtype_policy.compute_dtype is None and hasattr(first, "dtype"):
            # ('_infer': the layer computes in its first input's dtype)
            self._dtype_policy = policy_mod.Policy(_dtypes.as_dtype(first.dtype).name)
        if not getattr(self.build, "_is_default", False):
            with context.init_scope():  # weights are created eagerly, even while tracing
                self.build(shapes)
        self.built = True
        self._build_input_shape = shapes  # (as tf_keras: the call's, whatever `build` kept)
        if self._initial_weights is not None:
            self.set_weights(self._initial_weights)
            self._initial_weights = None

    def __call__(self, *args, **kwargs):
        try:
            return self._layer_call(*args, **kwargs)
        except Exception as e:
            raise tracebacks.filtered(e)  # (pointing at the caller's lines, not ours)

    def _layer_call(self, *args, **kwargs):
        spec = _call_spec(type(self).call)
        if args:
            inputs, args = args[0], args[1:]
        elif "inputs" in kwargs:
            inputs = kwargs.pop("inputs")
        elif spec.first_arg in kwargs:
            inputs = kwargs.pop(spec.first_arg)
        else:
            raise ValueError("The first argument to `Layer.call` must always be passed.")
        # Only calls made by the user record a functional-graph node; layers called inside
        # another layer's call are part of that layer.
        if call_context().depth == 0 and any(
                keras_tensor.is_keras_tensor(x) for x in nest.flatten((inputs, args, kwargs))):
            return keras_tensor.call_symbolically(self, inputs, args, kwargs)
        return self._call(inputs, args, kwargs)

    def _call(self, inputs, args, kwargs):
        """`__call__` on tensors: check, build, cast, call, then losses and masks."""
        spec = _call_spec(type(self).call)
        flat = nest.flatten(inputs)
        if isinstance(inputs, (str, bytes)):  # TF keeps a string as it is: a spec refuses it
            input_spec_mod.assert_input_compatibility(self.input_spec, inputs, self.name)
        inputs = _to_tensors(inputs, flat)
        flat = nest.flatten(inputs)
        if "_saved_model_inputs_spec" not in self.__dict__:
            # (the first call's inputs, and its other tensor arguments: what a SavedModel
            # traces the layer's call with)
            self.__dict__["_saved_model_inputs_spec"] = nest.map_structure(_spec_of, inputs)
            self.__dict__["_saved_model_arg_spec"] = (
                nest.map_structure(_spec_of, args),
                {k: nest.map_structure(_spec_of, v) for k, v in kwargs.items()
                 if k != "training" and nest.flatten(v) and
                 all(isinstance(x, Tensor) for x in nest.flatten(v))})
        ctx = call_context()
        refused = None
        try:
            input_spec_mod.assert_input_compatibility(self.input_spec, inputs, self.name)
        except ValueError as error:
            # As Keras: a built layer being connected into a functional model is not checked
            # against its spec; its call tells what it cannot take. (Where the call takes
            # it anyway, the spec's error is raised after it.)
            if not (self.built and ctx.depth == 0 and keras_tensor.building_symbolically()):
                raise
            refused = error
        outer_training = ctx.training
        training = kwargs.pop("training", None)
        if spec.training_index is not None and len(args) >= spec.training_index:
            training = args[spec.training_index - 1]  # passed positionally
            args = args[:spec.training_index - 1] + args[spec.training_index:]
        if training is None:
            training = outer_training
        if training is None:
            training = backend.global_learning_phase()
            if training is not None:  # (calls see a bool, as with `training=`, not 0/1)
                training = bool(training)
        if training is None:
            training = spec.training_default
        if spec.expects_training:
            kwargs["training"] = training
        mask = kwargs.get("mask")
        if mask is None:
            masks = [getattr(x, "_keras_mask", None) for x in flat]
            if any(m is not None for m in masks):
                mask = nest.pack_sequence_as(inputs, masks) if nest.is_nested(inputs) \
                    else masks[0]
                if spec.expects_mask:
                    kwargs["mask"] = mask
        if ctx.depth == 0:
            self._clear_losses()
        ctx.depth += 1
        ctx.training = training
        try:
            with context.name_scope_push(self._unique_call_name_scope()):
                self._maybe_build(inputs)
                if self._autocast:
                    inputs = self._cast_inputs(inputs, flat)
                if self._dtype_policy.compute_dtype != self._dtype_policy.variable_dtype:
                    with autocast_to(self._dtype_policy.compute_dtype):
                        outputs = self._call_reporting_arguments(inputs, args, kwargs)
                else:
                    outputs = self._call_reporting_arguments(inputs, args, kwargs)
            if self._activity_regularizer is not None:  # (a loss of the call, as in Keras)
                for output in nest.flatten(outputs):
                    self.add_loss(self._activity_regularizer(output) /
                                  cast_ops.cast(_batch_size(output), output.dtype))
        finally:
            ctx.depth -= 1
            ctx.training = outer_training
        if refused is not None:
            raise refused
        if (self.supports_masking or type(self).compute_mask is not Layer.compute_mask) and \
                not getattr(self, "_compute_output_and_mask_jointly", False):
            self._set_output_masks(inputs, outputs, mask)
        return outputs

    def _saved_model_children(self):
        """What a SavedModel saves of this layer beside its weights and sub-layers: the call
        functions tf_keras's `load_model` calls a layer of a class it does not know by."""
        return late.saving.saved_model_functions.children(self)

    def _unique_call_name_scope(self):
        """`_call_name_scope`, made unique in a graph whose name scopes are (TF 1's)."""
        scope = self._call_name_scope()
        graph = context.get().graph
        if scope and not scope.endswith("/"):
            context.check_scope_name(scope + "/")  # (TF's ValueError: no graph holds it)
            if getattr(graph, "unique_layer_scopes", False):
                return graph.unique_name(scope) + "/"
        return scope

    def _call_name_scope(self):
        """The name scope of the call's ops: the layer's name (TF 1's layers give their
        variable scope's)."""
        return self._name

    def _call_reporting_arguments(self, inputs, args, kwargs):
        """`call`; an error raised in it is raised again with the call's arguments described,
        as Keras reports it (by the innermost layer whose `call` failed)."""
        # While a graph is built, `call` runs converted by AutoGraph (Python control flow on
        # tensors becomes graph control flow), unless the enclosing function turned it off.
        call = self.call if context.executing_eagerly() else \
            conversion.convert_as_enabled(self.call)
        try:
            return call(inputs, *args, **kwargs)
        except Exception as error:
            if getattr(error, "_keras_call_info_injected", False):
                raise
            described = _with_call_arguments(error, self, (inputs, *args), kwargs)
            if described is error:
                raise
            raise described.with_traceback(error.__traceback__) from None

    def _cast_inputs(self, inputs, flat):
        """Floating tensors in `inputs` cast to the compute dtype, when that is floating (a
        layer computing in integers or strings takes its inputs as they are, as in TF).

        Variables are not tensors to tf_keras's autocasting: a layer takes them in their
        own dtype (a float64 variable through a float32 ReLU gives float64)."""
        target = self._dtype_policy.compute_dtype

        def floating(x):  # (a Python string or list of them, kept as it is, has no dtype)
            dtype = getattr(x, "dtype", None)
            return isinstance(dtype, _dtypes.DType) and dtype.is_floating and \
                dtype.name != target and not isinstance(x, Variable)

        if target is None or not _dtypes.as_dtype(target).is_floating or not any(
                floating(x) for x in flat):
            return inputs

        def cast(x):
            if not floating(x):
                return x
            if isinstance(x, SparseTensor):
                return x.with_values(cast_ops.cast(x.values, target))
            return cast_ops.cast(x, target)
        return nest.map_structure(cast, inputs)

    def _set_output_masks(self, inputs, outputs, mask):
        # Outputs that all carry masks already (the inputs given back, or a call whose inner
        # layers masked them) keep them, as in Keras: an input's mask is never overwritten
        if all(getattr(x, "_keras_mask", None) is not None for x in nest.flatten(outputs)):
            return
        output_masks = self.compute_mask(inputs, mask)
        if output_masks is None:
            return
        for output, output_mask in zip(nest.flatten(outputs), nest.flatten(output_masks)):
            try:
                output._keras_mask = output_mask
            except AttributeError:  # a tensor type without a __dict__ slot
                pass

    def compute_mask(self, inputs, mask=None):
        """The mask of the outputs: the input mask when the layer supports masking."""
        if not self.supports_masking:
            if any(m is not None for m in nest.flatten(mask)):
                raise TypeError(f"Layer {self.name} does not support masking, but was passed "
                                f"an input_mask: {mask!s}")
            return None
        return mask

    def compute_output_shape(self, input_shape):
        """The output shape for `input_shape`, found by tracing `call` on placeholders."""
        if self.dynamic and keras_tensor.building_symbolically():  # (its call cannot trace)
            raise NotImplementedError(f"Please run in eager mode or implement the "
                                      f"`compute_output_shape` method on your layer "
                                      f"({type(self).__name__}).")
        return keras_tensor.infer_output_shape(self, input_shape)

    def compute_output_signature(self, input_signature):
        """The `TensorSpec`s of the outputs for inputs of `input_signature` (TensorSpecs):
        as Keras, the shapes `compute_output_shape` gives, of the dtype of the layer's
        output (once it was called functionally), else of its compute dtype."""
        def shape_of(spec):
            if not isinstance(spec, TensorSpec):
                raise TypeError(f"Only TensorSpec signature types are supported. "
                                f"Received: {spec}.")
            return spec.shape
        output_shape = self.compute_output_shape(nest.map_structure(shape_of, input_signature))
        try:
            dtype = self.output.dtype
        except AttributeError:  # (never called, or called with several outputs)
            dtype = self.compute_dtype
        if dtype is None:
            dtype = nest.flatten(input_signature)[0].dtype

        def specs(shape):
            if keras_tensor.is_shape(shape):
                return TensorSpec(shape, dtype)
            if isinstance(shape, dict):
                return {key: specs(value) for key, value in shape.items()}
            return type(shape)(specs(value) for value in shape)
        return specs(output_shape)

    # -- functional-graph properties ---------------------------------------------------
    @property
    def inbound_nodes(self):
        """The nodes of the functional calls of this layer, in call order."""
        return self._inbound_nodes

    @property
    def outbound_nodes(self):
        """The nodes of the functional calls that consume this layer's outputs."""
        return self._outbound_nodes

    def _node_attribute_at(self, node_index, attr, what):
        if not self._inbound_nodes:
            raise RuntimeError(f"The layer {self.name} has never been called and thus has no "
                               f"defined {what}.")
        if node_index >= len(self._inbound_nodes):
            raise ValueError(f"Asked to get {what} at node {node_index}, but the layer has "
                             f"only {len(self._inbound_nodes)} inbound nodes.")
        values = getattr(self._inbound_nodes[node_index], attr)
        # (as Keras: one value alone in a list is given out of it)
        return values[0] if isinstance(values, list) and len(values) == 1 else values

    def _node_shape(self, attr, what):
        """The `what` shape of every inbound node, when they all agree."""
        if not self._inbound_nodes:
            note = (" Note that the `input_shape` property is only available for Functional "
                    "and Sequential models.") if what == "input" else ""
            raise AttributeError(f'The layer "{self.name}" has never been called and thus '
                                 f"has no defined {what} shape.{note}")
        if len({str(getattr(node, attr)) for node in self._inbound_nodes}) > 1:
            raise AttributeError(f'The layer "{self.name}" has multiple inbound nodes, with '
                                 f'different {what} shapes. Hence the notion of "{what} '
                                 f'shape" is ill-defined for the layer. Use '
                                 f"`get_{what}_shape_at(node_index)` instead.")
        return getattr(self._inbound_nodes[0], attr)

    # As in Keras, `input` and `output` are those of the first call of a shared layer.
    @property
    def input(self):
        if not self._inbound_nodes:
            raise AttributeError(f"Layer {self.name} is not connected, no input to return.")
        return self.get_input_at(0)

    @property
    def output(self):
        if not self._inbound_nodes:
            raise AttributeError(f"Layer {self.name} has no inbound nodes.")
        return self.get_output_at(0)

    @property
    def input_shape(self):
        return self._node_shape("input_shapes", "input")

    @property
    def output_shape(self):
        return self._node_shape("output_shapes", "output")

    @property
    def input_mask(self):
        return _masks(self.input)

    @property
    def output_mask(self):
        return _masks(self.output)

    def get_input_at(self, node_index):
        return self._node_attribute_at(node_index, "input_tensors", "input")

    def get_output_at(self, node_index):
        return self._node_attribute_at(node_index, "output_tensors", "output")

    def get_input_shape_at(self, node_index):
        return self._node_attribute_at(node_index, "input_shapes", "input shape")

    def get_output_shape_at(self, node_index):
        return self._node_attribute_at(node_index, "output_shapes", "output shape")

    def get_input_mask_at(self, node_index):
        return _masks(self.get_input_at(node_index))

    def get_output_mask_at(self, node_index):
        return _masks(self.get_output_at(node_index))

    # -- config -------------------------------------------------------------------
    def get_config(self):
        """The constructor arguments that recreate this layer (with `from_config`); by default
        those it was given, when they are plain Python values."""
        config = {"name": self.name, "trainable": self.trainable,
                  "dtype": policy_mod.serialize(self._dtype_policy)}
        if self._batch_input_shape is not None:
            config["batch_input_shape"] = self._batch_input_shape
        if not getattr(type(self).get_config, "_is_default", False):
            return config  # an override adds its own arguments
        if self._auto_config is None:
            raise NotImplementedError(_NOT_SERIALIZABLE % type(self).__name__)
        base_keys = set(config)
        config.update(self._auto_config)
        spec = inspect.getfullargspec(type(self).__init__)
        if spec.varkw != "kwargs":  # as in Keras, only a `**kwargs` passes the base keys on
            for key in base_keys - set(spec.args[1:]):
                config.pop(key, None)
        return config

    get_config._is_default = True

    @classmethod
    def from_config(cls, config):
        try:
            return cls(**config)
        except Exception as e:  # as tf_keras reports any failure to rebuild a layer
            raise TypeError(f"Error when deserializing class '{cls.__name__}' using "
                            f"config={config}.\n\nException encountered: {e}") from e

    def get_build_config(self):
        """``{'input_shape': ...}``, the shape the layer was built for (None if unbuilt)."""
        if self._build_input_shape is None:
            return None
        return {"input_shape": nest.map_structure(
            lambda s: (None if s.rank is None else tuple(s.as_list()))
            if isinstance(s, TensorShape) else s, self._build_input_shape)}

    def build_from_config(self, config):
        """Builds the layer for the shape a `get_build_config` holds."""
        if config["input_shape"] is not None:
            self.build(_as_shapes(config["input_shape"]))

    def __repr__(self):
        return f"<{type(self).__module__}.{type(self).__name__} object at {id(self):#x}>"


def _as_shapes(value):
    """The shapes a config holds as lists (JSON), as TensorShapes (a structure of them)."""
    def is_shape(v):
        return isinstance(v, (list, tuple)) and all(d is None or isinstance(d, int) for d in v)
    if is_shape(value):
        return TensorShape(value)
    if isinstance(value, dict):
        return {k: _as_shapes(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_as_shapes(v) for v in value)
    return value


def _trainable(holder):
    return holder._trainable if isinstance(holder, Layer) else True


def _tree_weights(tree, trainable):
    """A holder's (non-)trainable weights, as Keras gathers them: its own, then each
    child's in turn; a frozen layer's weights all count as non-trainable (its own, then
    each child's weights)."""
    holder, children = tree
    if _trainable(holder):
        weights = list(_own(holder, trainable))
        for child in children:
            weights += _tree_weights(child, trainable)
        return weights
    if trainable:
        return []
    weights = list(_own(holder, True)) + list(_own(holder, False))
    for child in children:
        weights += _tree_weights(child, True) + _tree_weights(child, False)
    return weights


def _own(holder, trainable):
    """The (non-)trainable weights a layer holds itself, or a module's variables."""
    if isinstance(holder, Layer):
        return holder._trainable_weights if trainable else holder._non_trainable_weights
    return holder.trainable_variables if trainable else holder.non_trainable_variables


def _unique(items):
    seen, out = set(), []
    for item in items:
        if id(item) not in seen:
            seen.add(id(item))
            out.append(item)
    return out


_NOT_SERIALIZABLE = """
Layer %s was created by passing
non-serializable argument values in `__init__()`,
and therefore the layer must override `get_config()` in
order to be serializable. Please implement `get_config()`.

Example:

class CustomLayer(keras.layers.Layer):
    def __init__(self, arg1, arg2, **kwargs):
        super().__init__(**kwargs)
        self.arg1 = arg1
        self.arg2 = arg2

    def get_config(self):
        config = super().get_config()
        config.update({
            "arg1": self.arg1,
            "arg2": self.arg2,
        })
        return config"""


def _explicit_arguments(cls, args, kwargs):
    """The arguments of a constructor call by name, keywords first (Keras's order); None when
    one is not a plain Python value (nor a list, tuple or dict of them)."""
    if not all(isinstance(x, (str, int, float, type(None)))
               for x in nest.flatten((args, kwargs))):
        return None
    config = dict(kwargs)
    if args:
        names = [p.name for p in list(inspect.signature(cls.__init__).parameters.values())[1:]
                 if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        config.update(zip(names, args))
    return config


def _masks(tensors):
    """The `_keras_mask` of `tensors` (a list of them for a list)."""
    if isinstance(tensors, list):
        return [getattr(x, "_keras_mask", None) for x in tensors]
    return getattr(tensors, "_keras_mask", None)


def _batch_input_shape(kwargs):
    """``(batch, *input_shape)`` from the ``input_shape``/``input_dim``/``batch_size`` args."""
    if "batch_input_shape" in kwargs:
        return tuple(kwargs["batch_input_shape"])
    if "input_shape" in kwargs or "input_dim" in kwargs:
        shape = kwargs["input_shape"] if "input_shape" in kwargs else (kwargs["input_dim"],)
        return (kwargs.get("batch_size"),) + tuple(shape)
    return None


def _to_tensors(inputs, flat):
    """NumPy arrays and Python numbers in `inputs` as tensors, each on its own, as tf_keras
    converts them (a list of numbers: a list of scalars); anything else (a NumPy scalar, a
    string) is left as it is."""
    if not any(isinstance(x, (np.ndarray, int, float)) for x in flat):
        return inputs
    return nest.map_structure(
        lambda x: convert_to_tensor(x) if isinstance(x, (np.ndarray, int, float)) else x,
        inputs)


def _is_composite(value):
    """A composite tensor (ragged, sparse): one made of tensors, passed to layers as it is."""
    return hasattr(getattr(type(value), "_type_spec", None), "fget") and hasattr(
        value._type_spec, "_to_components")


def _with_call_arguments(error, layer, args, kwargs):
    """A copy of `error` whose message names `layer` and lists the arguments of its call;
    `error` itself when the arguments do not fit the signature of `call`."""
    try:
        bound = inspect.signature(layer.call).bind(*args, **kwargs)
    except TypeError:
        return error
    lines = [f"  \u2022 {name}=" + str(nest.map_structure(_describe, bound.arguments[name])
                                       if name in bound.arguments else param.default)
             for name, param in bound.signature.parameters.items()]
    if not lines:
        return error
    # Keras quotes the name differently for the layer it is connecting into a functional
    # model (not for the layers that one calls).
    connecting = keras_tensor.building_symbolically() and call_context().depth == 1
    quote = '"' if connecting else "'"
    where = f"layer {quote}{layer.name}{quote} (type {type(layer).__name__})"
    message = error.message if isinstance(error, OpError) else \
        error.args[0] if error.args else ""
    text = (f"Exception encountered when calling {where}.\n\n{message}\n\n"
            f"Call arguments received by {where}:\n" + "\n".join(lines))
    if isinstance(error, OpError):
        described = type(error)(error.node_def, error.op, text, error.error_code)
    else:
        try:
            described = type(error)(text)
        except TypeError:  # an exception class that takes other arguments
            described = RuntimeError(text)
    described._keras_call_info_injected = True
    return described


def _computed_from(items, inputs):
    """The ops or tensors of `items` whose computation reads one of `inputs` (with None:
    none of the graph's placeholders)."""
    if inputs is None:
        return [x for x in items if not _reads(x, lambda op: op.type == "Placeholder")]
    sources = {id(t.op) for t in nest.flatten(inputs) if hasattr(t, "op")}
    return [x for x in items if _reads(x, lambda op: id(op) in sources)]


def _reads(item, is_source):
    """Whether the graph op (or tensor) `item` runs after an op that `is_source`."""
    stack, seen = [getattr(item, "op", item)], set()
    while stack:
        op = stack.pop()
        if op is None or id(op) in seen:
            continue
        seen.add(id(op))
        if is_source(op):
            return True
        stack.extend(t.op for t in getattr(op, "inputs", ()))
        stack.extend(getattr(op, "control_inputs", ()))
    return False


def _describe(value):
    if isinstance(value, Tensor):
        return f"tf.Tensor(shape={value.shape}, dtype={value.dtype.name})"
    return repr(value)


def _batch_size(output):
    return array_ops.shape(output)[0]


def _regularization_loss(regularizer, variable, name):
    with context.name_scope_push(f"{name}/Regularizer" if name else "Regularizer"):
        return regularizer(variable)


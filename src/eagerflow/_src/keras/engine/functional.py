"""`Functional`: a model defined by the graph of layer calls between `Input`s and outputs.

At construction the calls that lead from the inputs to the outputs are put
in an order of execution (by depth, as Keras orders its layers); calling the
model replays them on real tensors, each layer through its own `__call__`
(so ``training`` and masks reach it), TF functions applied between layers
included (as `TFOpLambda` layers). Its config lists the layers and, for each
call, the arguments it was made with, in Keras's format.

>>> x = tf.keras.Input(shape=(2,))
>>> model = tf.keras.Model(x, x * 2.0)
>>> type(model).__name__
'Functional'
>>> model(tf.constant([[1.0, 2.0]])).numpy()
array([[2., 4.]], dtype=float32)
>>> [layer.name for layer in model.layers]
['input_1', 'tf.math.multiply']
"""
import inspect
import warnings

import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import nest
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.core.dtypes import DType
from eagerflow._src.core.tensor import EagerTensor, Tensor
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.core.tensor_spec import TensorSpec
from eagerflow._src.core.variables import Variable
from eagerflow._src.ops import array_ops, cast_ops
from eagerflow._src.ops.extension_type import ExtensionType
from eagerflow._src.ops.sparse_tensor import SparseTensor
from eagerflow._src.ragged.ragged_tensor import RaggedTensor
from eagerflow._src.keras import backend, late
from eagerflow._src.keras.engine import keras_tensor
from eagerflow._src.keras.engine.input_layer import InputLayer
from eagerflow._src.keras.engine.input_spec import InputSpec
from eagerflow._src.keras.engine.training import Model, revive_by_constructor
from eagerflow._src.keras.engine.base_layer import Layer
from eagerflow._src.keras.layers import deserialize, serialize, tf_op_layers
from eagerflow._src.keras.utils import serialization

_CONSTANT = "_CONSTANT_VALUE"  # a config's mark for a call's argument that is no layer's output


@export("keras.models.Functional")
class Functional(Model):
    """A model of layers connected by calls on `Input` tensors (``Model(inputs, outputs)``)."""

    _DEFAULT_NAME = "model"
    # configs name it as tf_keras does, by the module it is defined in (not a public one)
    _serialized_module = "tf_keras.src.engine.functional"
    _serialized_registered_name = "Functional"
    _saved_model_identifier = ("_tf_keras_network", 1, 1)

    def __init__(self, inputs, outputs, name=None, trainable=True, **kwargs):
        super().__init__(name=name, trainable=trainable, **kwargs)
        tf_op_layers.wrap_graph_ops(outputs)  # (TF 1's graph mode: its ops on Keras tensors)
        self._init_graph_network(*_cut_at(inputs, outputs))

    def _init_graph_network(self, inputs, outputs):
        # a list of one tensor means that tensor: the model takes and returns it unwrapped
        if isinstance(inputs, list) and len(nest.flatten(inputs)) == 1:
            inputs = inputs[0]
        if isinstance(outputs, list) and len(nest.flatten(outputs)) == 1:
            outputs = outputs[0]
        self._nested_inputs, self._nested_outputs = inputs, outputs
        self.inputs, self.outputs = nest.flatten(inputs), nest.flatten(outputs)
        if len({id(x) for x in self.inputs}) != len(self.inputs):
            raise ValueError(f"The list of inputs passed to the model contains the same input "
                             f"multiple times. All inputs should only appear once.Received "
                             f"inputs={self.inputs}")
        for x in self.inputs:
            if not keras_tensor.is_keras_tensor(x) or x.node is None or \
                    not isinstance(x.node.layer, InputLayer):
                raise ValueError(f"Input tensors to a Functional must come from "
                                 f"`tf.keras.Input`. Received: {x} (missing previous layer "
                                 f"metadata).")
        for x in self.outputs:
            if not keras_tensor.is_keras_tensor(x):
                raise ValueError(f"Output tensors of a Functional model must be the output "
                                 f"of a TensorFlow `Layer` (thus holding past layer "
                                 f"metadata). Found: {x}")
        self._steps, self._depths, self._self_tracked_layers = _schedule(self.inputs,
                                                                         self.outputs)
        self.supports_masking = True
        # (the config refers to layers by name)
        names = [layer.name for layer in self._self_tracked_layers]
        for name in names:
            if names.count(name) != 1:
                raise ValueError(f'The name "{name}" is used {names.count(name)} times in the '
                                 f'model. All layer names should be unique.')
        self._input_layers = [x.node.layer for x in self.inputs]
        self.output_names = _unique_names([x.node.layer.name if x.node is not None
                                           else x.op.name for x in self.outputs])
        self.input_names = [layer.name for layer in self._input_layers]
        self.built = True
        self._build_input_shape = nest.map_structure(lambda x: x.shape, inputs)

    @property
    def layers(self):
        return list(self._self_tracked_layers)

    def add_loss(self, losses, **kwargs):
        """Losses of this model's symbolic tensors become `AddLoss` layers of its graph, so each
        call adds their values, as in Keras; other losses are added as by any layer."""
        own, other = self._split_symbolic(losses)
        self._add_graph_outputs([AddLoss(unconditional=False)(x) for x in own])
        if other:
            super().add_loss(other, **kwargs)

    def add_metric(self, value, name=None, aggregation=None, **kwargs):
        """A metric of a symbolic tensor of this model becomes an `AddMetric` layer of its
        graph, updated by each call, as in Keras."""
        own, _ = self._split_symbolic([value])
        if not own:
            return super().add_metric(value, name, aggregation, **kwargs)
        if name is None:
            raise ValueError("Please provide a name for your metric like "
                             "`self.add_metric(tf.reduce_sum(inputs), name='mean_activation')`")
        self._add_graph_outputs([AddMetric(aggregation, name)(value)])

    def _split_symbolic(self, values):
        tf_op_layers.wrap_graph_ops(values)  # (TF 1's graph mode: its ops on Keras tensors)
        own, other = [], []
        for value in nest.flatten(values):
            symbolic = keras_tensor.is_keras_tensor(value) and \
                getattr(value, "node", None) is not None and self.inputs is not None
            (own if symbolic else other).append(value)
        return own, other

    def _add_graph_outputs(self, tensors, order=()):
        """Makes the model also compute `tensors` (outputs of layers it does not return);
        their layers come after the model's own in `layers` (in `order` when given)."""
        if not tensors:
            return
        self._extra_outputs = [*getattr(self, "_extra_outputs", []), *tensors]
        known = {id(layer) for layer in self._self_tracked_layers}
        self._steps, self._depths, layers = _schedule(self.inputs,
                                                      self.outputs + self._extra_outputs)
        rank = {id(layer): i for i, layer in enumerate(order)}
        new = sorted((layer for layer in layers if id(layer) not in known),
                     key=lambda layer: rank.get(id(layer), len(rank)))
        self._self_tracked_layers = [*self._self_tracked_layers, *new]

    def _trackable_children(self):
        """TF's checkpoint children of a functional model: each layer as ``layer-<i>`` (and,
        when it has weights, first as ``layer_with_weights-<k>``), then the optimizer."""
        found, k = [], 0
        for i, layer in enumerate(self.layers):
            if layer.weights:
                found.append((f"layer_with_weights-{k}", layer))
                k += 1
            found.append((f"layer-{i}", layer))
        if self.optimizer is not None:
            found.append(("optimizer", self.optimizer))
        return found

    def _module_children(self):
        if self.outputs is None:  # a Sequential not built yet
            return super()._module_children()
        # Keras's attributes of the input and output layers sort around that of the metrics.
        outputs = [x.node.layer for x in self.outputs if x.node is not None]
        return [*self._input_layers, *self._metrics, *outputs, *self._direct_sublayers()]

    @property
    def input(self):
        return self._nested_inputs

    @property
    def output(self):
        return self._nested_outputs

    @property
    def input_shape(self):
        return nest.map_structure(lambda x: tuple(x.shape.as_list()), self._nested_inputs)

    @property
    def output_shape(self):
        return nest.map_structure(lambda x: tuple(x.shape.as_list()), self._nested_outputs)

    @property
    def input_spec(self):
        """One spec per `Input` (any batch size; a last axis of 1 may be left out), unless
        one was set; None for inputs nested deeper than a list or dict."""
        if self._input_spec is not None:
            return self._input_spec
        nested = self._nested_inputs
        if isinstance(nested, (dict, list, tuple)) and len(nested) != len(self.inputs):
            return None
        if isinstance(nested, dict):
            named = [(name, nested[name]) for name in sorted(nested)]
        else:
            named = [(x.node.layer.name, x) for x in self.inputs]
        # (an extension type's input has no spec: its value is taken as it is)
        return [None if isinstance(x, ExtensionType) else
                InputSpec(shape=_without_batch(x.shape), allow_last_axis_squeeze=True,
                          name=name) for name, x in named]

    @input_spec.setter
    def input_spec(self, value):
        self._input_spec = value

    # (its outputs' masks are those its layers give them: `compute_mask` is not called after
    # each call, as it would run the model again)
    _compute_output_and_mask_jointly = True

    def call(self, inputs, training=None, mask=None):
        values = {}
        flat = self._flatten_inputs(inputs)
        masks = [None] * len(flat) if mask is None else self._flatten_inputs(mask)
        for ref, x, x_mask in zip(self.inputs, flat, masks):
            values[id(ref)] = _conform(x, ref)
            if x_mask is not None:  # (the mask it is given, through a cast too)
                values[id(ref)]._keras_mask = x_mask
        for step in self._steps:
            lone = step.lone_input
            if lone is not None and id(lone) in values:
                outputs = nest.flatten(step.layer(values[id(lone)]))
            else:
                args, kwargs = nest.map_structure(
                    lambda v: values[id(v)] if keras_tensor.is_keras_tensor(v) and
                    id(v) in values else keras_tensor.constant_value(v), (step.args, step.kwargs))
                outputs = nest.flatten(step.layer(*args, **kwargs))
            for ref, value in zip(nest.flatten(step.outputs), outputs):
                values[id(ref)] = value
        return nest.pack_sequence_as(self._nested_outputs,
                                     [values[id(x)] for x in self.outputs])

    def _flatten_inputs(self, inputs):
        if isinstance(inputs, dict):
            names = sorted(self._nested_inputs) if isinstance(self._nested_inputs, dict) \
                else self.input_names
            if len(inputs) > len(names):
                warnings.warn(f"Input dict contained keys "
                              f"{[key for key in inputs if key not in names]} which did not "
                              f"match any model input. They will be ignored by the model.",
                              stacklevel=4)
                if all(name in inputs for name in names):
                    return [inputs[name] for name in names]
        if isinstance(inputs, dict) and not isinstance(self._nested_inputs, dict):
            try:
                return [inputs[name] for name in self.input_names]
            except KeyError as e:
                raise ValueError(f"Missing data for input {e.args[0]!r}. You passed a data "
                                 f"dictionary with keys {sorted(inputs)}. Expected the "
                                 f"following keys: {self.input_names}") from None
        flat = nest.flatten(inputs)
        if len(flat) != len(self.inputs):
            raise ValueError(f'Layer "{self.name}" expects {len(self.inputs)} input(s), but '
                             f"it received {len(flat)} input tensors. Inputs received: "
                             f"{flat}")
        return flat

    def compute_output_shape(self, input_shape):
        """The shapes of the outputs for inputs of `input_shape` (the batch size too), in the
        outputs' structure; found by running the model on placeholders of the inputs'
        dtypes."""
        shapes = _flat_shapes(input_shape)
        inputs = nest.flatten(self._nested_inputs)
        if len(shapes) != len(inputs):
            raise ValueError(f"Invalid `input_shape` argument {input_shape}: the model expects "
                             f"{len(inputs)} input tensors.")
        specs = [TensorSpec(TensorShape(shape), x.dtype) for shape, x in zip(shapes, inputs)]
        signature = nest.pack_sequence_as(self._nested_inputs, specs)
        return nest.map_structure(lambda spec: spec.shape,
                                  keras_tensor.infer_output_signature(self, signature))

    def compute_mask(self, inputs, mask=None):
        """The masks of the outputs for `inputs` masked by `mask`, as the layers give them
        (this runs the model). Without `mask`, the inputs' own masks are not used either."""
        if mask is None:
            inputs = nest.map_structure(
                lambda x: cast_ops.identity(x) if getattr(x, "_keras_mask", None) is not None
                else x, inputs)
        return nest.map_structure(lambda x: getattr(x, "_keras_mask", None),
                                  self.call(inputs, mask=mask))

    def get_config(self):
        """Layers with their calls (``inbound_nodes``), inputs and outputs, in Keras's format.

        A call is ``[layer name, node index, tensor index, keywords]`` for each
        tensor of its first argument; the keywords hold its other arguments
        (a tensor among them as ``[layer name, node index, tensor index]``).
        """
        own = self._node_set()
        index = {}  # id(node) -> its index among the layer's nodes in this model
        for layer in self.layers:
            first = _first_node_index(layer)
            for i, node in enumerate(n for n in layer._inbound_nodes if id(n) in own):
                index[id(node)] = first + i
        layer_configs = []
        for layer in self.layers:
            nodes = [] if isinstance(layer, InputLayer) else [
                _serialize_node(node, index) for node in layer._inbound_nodes if id(node) in own]
            layer_configs.append({**serialize(layer), "name": layer.name,
                                  "inbound_nodes": nodes})

        def refs(tensors):
            found = nest.map_structure(lambda x: _tensor_ref(x, index), tensors)
            if not nest.is_nested(tensors):
                return [found]
            return list(found) if isinstance(found, tuple) else found
        return {"name": self.name, "trainable": self.trainable, "layers": layer_configs,
                "input_layers": refs(self._nested_inputs),
                "output_layers": refs(self._nested_outputs)}

    def _node_set(self):
        return {id(step) for step in self._steps} | \
            {id(x.node) for x in self.inputs}

    @classmethod
    def from_config(cls, config, custom_objects=None, _created_layers=None):
        # (`_created_layers`: layers by name to call instead of new ones, for clone_model)
        if not all(key in config for key in ("name", "layers", "input_layers",
                                             "output_layers")) or not _revivable(cls):
            # as Keras: a subclass with a constructor of its own (or a config of its own) is
            # made by its constructor from the config
            return revive_by_constructor(cls, config)
        custom_objects = {**tf_op_layers.CLASSES, "AddLoss": AddLoss, "AddMetric": AddMetric,
                          **(custom_objects or {})}
        tensors = {}  # (layer name, node index, output index) -> tensor
        pending = []  # [layer, its calls not yet made], in the config's order
        for spec in config["layers"]:
            layer = (_created_layers or {}).get(spec.get("name")) or deserialize({"class_name": spec["class_name"], "config": spec["config"],
                                 "registered_name": spec.get("registered_name"),
                                 "module": spec.get("module", "")},
                                custom_objects=custom_objects)
            if isinstance(layer, str):  # (the class name: neither Keras nor custom_objects
                raise serialization.unknown_layer_error(layer)  # know the class)
            # references name the layer as the config does: a custom layer whose get_config
            # leaves out `name` is rebuilt under a new one
            name = spec.get("name", layer.name)
            if isinstance(layer, InputLayer):
                tensors[(name, 0, 0)] = layer._inbound_nodes[0].outputs
            else:
                first = _first_node_index(layer)
                pending.append([layer, [(first + i, call) for i, call in
                                        enumerate(spec["inbound_nodes"])], name])
        # A layer's call may use layers listed after it, or a later call of its own (a shared
        # layer of a model cut at inner tensors, whose calls tf_keras lists out of order):
        # make calls as their inputs appear, each under its index in the config.
        while any(calls for _, calls, _ in pending):
            progress = False
            for entry in pending:
                layer, calls, name = entry
                while True:
                    made = next((c for c in calls
                                 if _call_from_config(layer, c[1], tensors, name, c[0])), None)
                    if made is None:
                        break
                    calls.remove(made)
                    progress = True
            if not progress:
                layer, calls, _ = next(e for e in pending if e[1])
                raise ValueError(f"Layer {layer.name!r} is called on tensors that no layer of "
                                 f"the config produces: {calls[0][1]}")
        inputs, outputs = (_map_refs(lambda ref: tensors[tuple(ref[:3])], config[key])
                           for key in ("input_layers", "output_layers"))
        # (its 'trainable' is left out, as tf_keras leaves it: each layer's config has its own)
        model = cls(_unwrap(inputs), _unwrap(outputs), name=config.get("name"))
        model._add_graph_outputs([t for layer, _, _ in pending
                                  if isinstance(layer, (AddLoss, AddMetric))
                                  for node in layer._inbound_nodes
                                  for t in nest.flatten(node.outputs)],
                                 order=[layer for layer, _, _ in pending])
        return model


def takes_functional_arguments(cls):
    """Whether ``cls.__init__`` names `Functional`'s arguments (``inputs, outputs, name,
    trainable``), as Keras asks of a class it builds from a functional config."""
    params = list(inspect.signature(cls.__init__).parameters.values())[1:]
    named = [p.name for p in params if p.kind is p.POSITIONAL_OR_KEYWORD]
    return named == ["inputs", "outputs", "name", "trainable"]


def _revivable(cls):
    """Whether a functional config makes a model of `cls` (a class built as `Functional` is,
    or one taking any arguments), as Keras decides."""
    if cls in (Functional, Model) or takes_functional_arguments(cls):
        return True
    params = list(inspect.signature(cls.__init__).parameters.values())[1:]
    return any(p.kind is p.VAR_POSITIONAL and p.name == "args" for p in params) and \
        any(p.kind is p.VAR_KEYWORD and p.name == "kwargs" for p in params)


def _flat_shapes(shapes):
    """The shapes in a structure of them (one shape, or lists, tuples and dicts of shapes),
    in `nest.flatten`'s order."""
    if keras_tensor.is_shape(shapes):
        return [shapes]
    if isinstance(shapes, dict):
        return [s for key in sorted(shapes) for s in _flat_shapes(shapes[key])]
    return [s for part in shapes for s in _flat_shapes(part)]


class AddLoss(Layer):
    """Adds its input to the losses of the model it is part of, and returns it."""

    def __init__(self, unconditional, **kwargs):
        kwargs.setdefault("autocast", False)
        super().__init__(**kwargs)
        self.unconditional = unconditional

    def call(self, inputs):
        self.add_loss(inputs)
        return inputs

    def get_config(self):
        return {**super().get_config(), "unconditional": self.unconditional}


class AddMetric(Layer):
    """Updates the mean metric `metric_name` with its input, and returns it."""

    def __init__(self, aggregation=None, metric_name=None, **kwargs):
        kwargs.setdefault("autocast", False)
        super().__init__(**kwargs)
        self.aggregation, self.metric_name = aggregation, metric_name

    def call(self, inputs):
        if keras_tensor.is_keras_tensor(inputs):  # built on symbolic inputs: no value yet
            if not any(m.name == self.metric_name for m in self._metrics):
                self._metrics.append(late.metrics.Mean(name=self.metric_name))
        else:
            self.add_metric(inputs, name=self.metric_name, aggregation=self.aggregation)
        return inputs

    def get_config(self):
        return {**super().get_config(), "aggregation": self.aggregation,
                "metric_name": self.metric_name}


def _serialize_node(node, index):
    """One call in a config: the first argument's structure of references (a lone tensor's
    in a list, except for TF functions, as Keras writes them)."""
    kwargs = _serialize(_keywords(node), index)

    def first(value):
        if keras_tensor.is_keras_tensor(value) and hasattr(value, "_keras_history"):
            return [*_tensor_ref(value, index), kwargs]
        return [_CONSTANT, -1, _serialize(value, index), kwargs]
    data = nest.map_structure(first, node.input_tensors)
    if nest.is_nested(node.input_tensors) or getattr(node.layer, "_preserve_input_structure",
                                                     False):
        return data  # (nested states of stacked cells stay nested, as in Keras)
    return [data]


def _keywords(node):
    """A call's arguments after the first, by name (``*args`` as a list under its name)."""
    signature = getattr(node.layer, "_function_signature", None) or \
        inspect.signature(node.layer.call)
    params = list(signature.parameters.values())[1:]
    kwargs = {}
    for i, value in enumerate(node.args[1:]):
        param = params[i] if i < len(params) else None
        if param is not None and param.kind is param.VAR_POSITIONAL:
            kwargs[param.name] = list(node.args[1 + i:])
            break
        if param is None or param.kind not in (param.POSITIONAL_ONLY,
                                               param.POSITIONAL_OR_KEYWORD):
            raise NotImplementedError(
                f"Layer {node.layer.name!r} is called with more positional arguments than its "
                f"`call` names, so the call has no config; pass them by keyword.")
        kwargs[param.name] = value
    kwargs.update(node.kwargs)
    return kwargs


def _serialize(value, index):
    """`value` for a config: tensors of the model as references, the others as JSON would
    hold them (dtypes by name), as Keras saves them."""
    if keras_tensor.is_keras_tensor(value):
        if value.op.type == "Const":
            return value.op.value.tolist()
        return _tensor_ref(value, index)
    if isinstance(value, (EagerTensor, np.ndarray, np.generic)):
        return np.asarray(value).tolist()
    if value is Ellipsis:
        return {"class_name": "__ellipsis__"}
    if isinstance(value, DType):
        return value.name
    if isinstance(value, dict):
        return {k: _serialize(v, index) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        items = [_serialize(v, index) for v in value]
        return items if isinstance(value, list) else tuple(items)
    return value


def _first_node_index(layer):
    """The index Keras's configs give a layer's first call: 1 for a nested model with
    inputs, whose node 0 in tf_keras is the one its own inputs make (not listed here)."""
    return 1 if isinstance(layer, Functional) and layer.inputs else 0


def _tensor_ref(tensor, node_index):
    layer, _, i = tensor._keras_history
    return [layer.name, node_index.get(id(tensor.node), 0), i]


def _is_ref(value):
    """True for ``[layer name, node index, tensor index(, keywords)]`` (or a constant's)."""
    return isinstance(value, list) and len(value) in (3, 4) and isinstance(value[0], str) and \
        isinstance(value[1], int) and (value[0] == _CONSTANT or isinstance(value[2], int))


def _map_refs(fn, structure):
    """`structure` (lists and dicts) with `fn` applied to each tensor reference."""
    if _is_ref(structure):
        return fn(structure)
    if isinstance(structure, dict):
        return {k: _map_refs(fn, v) for k, v in structure.items()}
    if isinstance(structure, (list, tuple)):
        return [_map_refs(fn, v) for v in structure]
    return structure


def _unwrap(structure):
    return structure[0] if isinstance(structure, list) and len(structure) == 1 else structure


def _call_from_config(layer, call, tensors, name, node_index):
    """Calls `layer` as a config's `call` (its node `node_index`) describes; False when an
    input is not made yet."""
    found = {}

    def argument(ref):
        if len(ref) > 3:
            found.update(ref[3])
        return ref[2] if ref[0] == _CONSTANT else tensors[tuple(ref[:3])]
    try:
        first = _map_refs(argument, call)
        kwargs = _map_refs(lambda ref: tensors[tuple(ref[:3])], found)
    except KeyError:
        return False
    if not getattr(layer, "_preserve_input_structure", False):
        first = _unwrap(first)
    result = layer(first, **kwargs)
    for i, out in enumerate(nest.flatten(result)):
        tensors[(name, node_index, i)] = out
    return True


def _unique_names(names):
    seen, out = {}, []
    for name in names:
        if name in seen:
            seen[name] += 1
            name = f"{name}_{seen[name]}"
        else:
            seen[name] = 0
        out.append(name)
    return out


def _without_batch(shape):
    dims = shape.as_list() if shape.rank is not None else None
    return [None, *dims[1:]] if dims else dims


def _conform(tensor, ref):
    """`tensor` with the dtype of the input `ref` it feeds, and its rank when they differ
    by a last axis of 1."""
    if isinstance(ref, ExtensionType):
        return tensor
    if isinstance(ref, SparseTensor):
        if not isinstance(tensor, SparseTensor):
            raise TypeError(f"The sparse input {ref.name!r} takes a SparseTensor, not "
                            f"{tensor!r}")
        if tensor.dtype != ref.dtype:
            tensor = tensor.with_values(cast_ops.cast(tensor.values, ref.dtype))
        return tensor
    if isinstance(ref, RaggedTensor):
        if not isinstance(tensor, RaggedTensor):
            tensor = RaggedTensor.from_tensor(tensor, ragged_rank=ref.ragged_rank)
        if tensor.dtype != ref.dtype:
            tensor = tensor.with_flat_values(cast_ops.cast(tensor.flat_values, ref.dtype))
        return tensor
    if isinstance(tensor, Variable):
        # tf_keras conforms tensors; a variable (a composite tensor there) is only cast
        if tensor.dtype != ref.dtype and ref.dtype != _d.variant:
            return cast_ops.cast(tensor, ref.dtype)
        return tensor
    if not isinstance(tensor, Tensor):
        tensor = convert_to_tensor(tensor)
    rank, ref_rank = tensor.shape.rank, ref.shape.rank
    if rank is not None and ref_rank is not None:
        if rank == ref_rank + 1 and tensor.shape.as_list()[-1] == 1:
            tensor = array_ops.squeeze(tensor, -1)
        elif rank == ref_rank - 1 and ref.shape.as_list()[-1] == 1:
            tensor = array_ops.expand_dims(tensor, -1)
    if tensor.dtype != ref.dtype:
        tensor = cast_ops.cast(tensor, ref.dtype)
    return tensor


def _history_node(tensor):
    history = getattr(tensor, "_keras_history", None)
    return None if history is None else history[0]._inbound_nodes[history[1]]


def _symbolic_copy(tensor, name):
    """A new symbolic tensor of `tensor`'s kind, dtype and shape, made by no layer."""
    if isinstance(tensor, SparseTensor):
        return keras_tensor.sparse_placeholder(tensor.dtype, tensor.shape, name)
    if isinstance(tensor, RaggedTensor):
        return keras_tensor.ragged_placeholder(tensor.dtype, tensor.shape, name,
                                               tensor.ragged_rank)
    return keras_tensor.placeholder(tensor.dtype, tensor.shape, name)


def _cut_at(inputs, outputs):
    """A model on intermediate tensors, as tf_keras builds it: each input that some layer
    made is replaced by a new `Input` of its shape and dtype, and the calls between the
    inputs and the outputs are recorded again on the new tensors (new nodes of the same
    layers, sharing their weights); the layers upstream of the inputs are left out."""
    flat_inputs = nest.flatten(inputs)
    for x in flat_inputs:
        if not keras_tensor.is_keras_tensor(x) or _history_node(x) is None:
            raise ValueError(f"Found unexpected instance while processing input tensors for "
                             f"keras functional model. Expecting KerasTensor which is from "
                             f"tf.keras.Input() or output from keras layer call(). Got: {x}")
    if all(isinstance(_history_node(x).layer, InputLayer) for x in flat_inputs):
        return inputs, outputs
    nodes = _nodes_between(flat_inputs, nest.flatten(outputs))
    new = {}
    for x in flat_inputs:
        if isinstance(_history_node(x).layer, InputLayer):
            new[id(x)] = x
        else:
            name = f"input_{backend.get_uid('input')}"
            layer = InputLayer(input_tensor=_symbolic_copy(x, name), name=name,
                               sparse=isinstance(x, SparseTensor),
                               ragged=isinstance(x, RaggedTensor))
            new[id(x)] = layer._inbound_nodes[0].outputs

    def copy(tensor):
        if not keras_tensor.is_keras_tensor(tensor):
            return tensor
        if id(tensor) not in new and _history_node(tensor) is not None:
            new[id(tensor)] = _symbolic_copy(
                tensor, str(getattr(tensor, "name", None) or "copy").split(":")[0])
        return new.get(id(tensor), tensor)
    made = []
    for node in nodes:  # (from the outputs up, as tf_keras records them)
        outputs_copy = nest.map_structure(copy, node.outputs)
        args, kwargs = nest.map_structure(copy, (node.args, node.kwargs))
        made.append(keras_tensor.Node(node.layer, tuple(args), kwargs, outputs_copy))
    for node in made:  # a call recorded before the call making its input: link them now
        for x in node.keras_inputs:
            producer = x._keras_history[0]
            if not any(n is node for n in producer._outbound_nodes):
                producer._outbound_nodes.append(node)
    return (nest.pack_sequence_as(inputs, [new[id(x)] for x in flat_inputs]),
            nest.map_structure(copy, outputs))


def _nodes_between(inputs, outputs):
    """The calls leading from `inputs` to `outputs`, met walking up from the outputs
    breadth first; a ValueError when an `Input` not among `inputs` is needed, or when an
    input is not needed."""
    stop = {id(x) for x in inputs}
    found, visited, nodes = set(), set(), []
    queue = [_history_node(t) for t in outputs if _history_node(t) is not None]
    while queue:
        node = queue.pop(0)
        if id(node) in visited:
            continue
        visited.add(id(node))
        if isinstance(node.layer, InputLayer):
            continue
        nodes.append(node)
        for x in node.keras_inputs:
            if id(x) in stop:
                found.add(id(x))
                continue
            parent = _history_node(x)
            if parent is None:
                continue
            if isinstance(parent.layer, InputLayer):
                raise ValueError(f"Found input tensor cannot be reached given provided output "
                                 f"tensors. Please make sure the tensor {x} is included in the "
                                 f"model inputs when building functional model.")
            queue.append(parent)
    if len(found) != len(stop):
        missing = [x for x in inputs if id(x) not in found]
        raise ValueError(f"Found unvisited input tensors that are disconnected from the "
                         f"outputs: {missing}")
    return nodes


def _starts_graph(node):
    """Whether `node` is an `Input`'s own, not a call of an input layer on a tensor (which
    passes it on: a Sequential makes one of an `Input` added after its first)."""
    return isinstance(node.layer, InputLayer) and not node.keras_inputs


def _check_connected(inputs, outputs, steps):
    """Raises Keras's error for the first step (in the order they run) that needs a tensor
    the model's inputs do not give, naming the layers that had all theirs."""
    computable = {id(x) for x in inputs}
    complete = []

    def check(tensor, layer_name):
        if id(tensor) not in computable and tensor.node is not None and \
                _starts_graph(tensor.node):
            raise ValueError(f"Graph disconnected: cannot obtain value for tensor {tensor} at "
                             f"layer \"{layer_name}\". The following previous layers were "
                             f"accessed without issue: {complete}")
    for step in steps:
        for tensor in step.keras_inputs:
            check(tensor, step.layer.name)
        computable.update(id(t) for t in nest.flatten(step.outputs))
        complete.append(step.layer.name)
    for tensor in outputs:
        if keras_tensor.is_keras_tensor(tensor):
            check(tensor, tensor.node.layer.name)


def _schedule(inputs, outputs):
    """The layer calls (`Node`s) leading from `inputs` to `outputs`, deepest first; the depth of
    each (by id; the inputs' nodes included); and the layers, in Keras's order.

    Depth as Keras counts it: outputs' producers are at 0, a step's producers one
    deeper than the deepest step consuming them; ties keep the order in which a
    walk from the outputs first meets them. A layer is as deep as its deepest
    call; inputs that no output needs come first among the shallowest.
    """
    input_ids = {id(x) for x in inputs}
    depth, order = {}, []
    met = {}  # id(layer) -> (layer, order in which the walk first met it)

    def producer(tensor):
        if id(tensor) in input_ids:
            return None
        node = tensor.node
        if node is not None:
            if _starts_graph(node):
                return None  # not one of the model's inputs: `_check_connected` says so
            return node
        if tensor.op.type == "Const":
            return None
        raise ValueError(f"The tensor {tensor} is not the output of a layer or of a TF "
                         f"function's call; it cannot be computed by a model.")

    def visit(root, root_depth):
        # depth first, a step's producers in order: a stack, not recursion, so that models
        # deeper than Python's recursion limit (EfficientNetV2L's 1000 layers) are walked
        stack = [(root, root_depth)]
        while stack:
            step, d = stack.pop()
            if not isinstance(step, keras_tensor.Node):  # a tensor
                met.setdefault(id(step.node.layer), (step.node.layer, len(met)))  # an input
                depth[id(step.node)] = max(depth.get(id(step.node), 0), d)
                continue
            if depth.get(id(step), -1) >= d:
                continue
            if id(step) not in depth:
                order.append(step)
                met.setdefault(id(step.layer), (step.layer, len(met)))
            depth[id(step)] = d
            parents = [producer(tensor) if id(tensor) not in input_ids else tensor
                       for tensor in step.keras_inputs]
            stack.extend((parent, d + 1) for parent in reversed(parents) if parent is not None)

    for tensor in outputs:
        step = producer(tensor) if id(tensor) not in input_ids else tensor
        if step is not None:
            visit(step, 0)
    for x in inputs:  # inputs no output needs
        if id(x.node) not in depth:
            depth[id(x.node)] = 0
            met[id(x.node.layer)] = (x.node.layer, -1)
    layer_depth = {}
    for node in order + [x.node for x in inputs]:
        layer_depth[id(node.layer)] = max(layer_depth.get(id(node.layer), 0), depth[id(node)])
    position = {id(s): i for i, s in enumerate(order)}
    steps = sorted(order, key=lambda s: (-depth[id(s)], position[id(s)]))
    _check_connected(inputs, outputs, steps)
    layers = [layer for layer, _ in sorted(met.values(), key=lambda entry: (
        -layer_depth[id(entry[0])], entry[1]))]
    return steps, depth, layers

"""`Functional`: a model defined by the graph of layer calls between `Input`s and outputs.

At construction the calls that lead from the inputs to the outputs are put
in an order of execution (by depth, as Keras orders its layers); calling the
model replays them on real tensors, each layer through its own `__call__`
(so ``training`` and masks reach it) and each op between layers through
`dispatch`.

>>> from eagerflow._src.keras.engine.input_layer import Input
>>> x = Input(shape=(2,))
>>> model = Functional(x, x * 2.0)
>>> model([[1.0, 2.0]]).numpy()
array([[2., 4.]], dtype=float32)
"""
from eagerflow._src.core import nest
from eagerflow._src.core.convert import constant, convert_to_tensor
from eagerflow._src.core.tensor import Tensor
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.ops import array_ops, cast_ops
from eagerflow._src.keras.engine import keras_tensor
from eagerflow._src.keras.engine.input_layer import InputLayer
from eagerflow._src.keras.engine.training import Model


class _OpStep:
    """A graph op between layers, replayed with `dispatch` (``x * 2`` in a model)."""

    def __init__(self, op):
        self.op = op
        self.keras_inputs = [t for t in op.inputs if keras_tensor.is_keras_tensor(t)
                             and t.op.type != "Const"]
        self.outputs = op.outputs

    def run(self, values):
        inputs = [values[id(t)] if id(t) in values else _const(t) for t in self.op.inputs]
        out = dispatch(self.op.op_def, inputs, self.op.attrs)
        return out if self.op.op_def.multi else (out,)


def _const(tensor):
    op = getattr(tensor, "op", None)
    return constant(op.value) if op is not None and op.type == "Const" else tensor


class Functional(Model):
    """A model of layers connected by calls on `Input` tensors (``Model(inputs, outputs)``)."""

    _DEFAULT_NAME = "model"

    def __init__(self, inputs, outputs, name=None, trainable=True, **kwargs):
        super().__init__(name=name, trainable=trainable, **kwargs)
        self._init_graph_network(inputs, outputs)

    def _init_graph_network(self, inputs, outputs):
        self._nested_inputs, self._nested_outputs = inputs, outputs
        self.inputs, self.outputs = nest.flatten(inputs), nest.flatten(outputs)
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
        self._steps, self._depths = _schedule(self.inputs, self.outputs)
        layers = [x.node.layer for x in self.inputs]
        for step in self._steps:
            if isinstance(step, keras_tensor.Node) and step.layer not in layers:
                layers.append(step.layer)
        self._self_tracked_layers = layers
        self._input_layers = [x.node.layer for x in self.inputs]
        self.output_names = _unique_names([x.node.layer.name if x.node is not None
                                           else x.op.name for x in self.outputs])
        self.input_names = [layer.name for layer in self._input_layers]
        self.built = True
        self._build_input_shape = nest.map_structure(lambda x: x.shape, inputs)

    @property
    def layers(self):
        return list(self._self_tracked_layers)

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
        return None

    @input_spec.setter
    def input_spec(self, value):
        self._input_spec = value

    def call(self, inputs, training=None, mask=None):
        values = {}
        for ref, x in zip(self.inputs, self._flatten_inputs(inputs)):
            values[id(ref)] = _conform(x, ref)
        for step in self._steps:
            if isinstance(step, _OpStep):
                outputs = step.run(values)
            else:
                args, kwargs = nest.map_structure(
                    lambda v: values[id(v)] if keras_tensor.is_keras_tensor(v) and
                    id(v) in values else _const(v), (step.args, step.kwargs))
                outputs = nest.flatten(step.layer(*args, **kwargs))
            for ref, value in zip(nest.flatten(step.outputs), outputs):
                values[id(ref)] = value
        return nest.pack_sequence_as(self._nested_outputs,
                                     [values[id(x)] for x in self.outputs])

    def _flatten_inputs(self, inputs):
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
        return nest.map_structure(lambda x: x.shape, self._nested_outputs)

    def get_config(self):
        """Layers with their inbound connections, inputs and outputs (Keras's format)."""
        index = {}
        layer_configs = []
        own = self._node_set()
        for layer in self.layers:
            nodes = [n for n in layer._inbound_nodes if id(n) in own]
            for i, node in enumerate(nodes):
                index[id(node)] = i
            layer_configs.append({
                "class_name": type(layer).__name__, "config": layer.get_config(),
                "name": layer.name,
                "inbound_nodes": [] if isinstance(layer, InputLayer) else
                [[_tensor_ref(x, index) for x in node.keras_inputs] for node in nodes]})

        def refs(tensors):
            return [_tensor_ref(x, index) for x in nest.flatten(tensors)]
        return {"name": self.name, "layers": layer_configs,
                "input_layers": refs(self._nested_inputs),
                "output_layers": refs(self._nested_outputs)}

    def _node_set(self):
        return {id(step) for step in self._steps} | \
            {id(x.node) for x in self.inputs}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        from eagerflow._src.keras.layers import deserialize  # noqa: PLC0415 (layers import engine)
        tensors = {}  # (layer name, node index, output index) -> tensor
        for spec in config["layers"]:
            layer = deserialize({"class_name": spec["class_name"], "config": spec["config"]},
                                custom_objects=custom_objects)
            if isinstance(layer, InputLayer):
                tensors[(layer.name, 0, 0)] = layer._inbound_nodes[0].outputs
                continue
            for node_index, node in enumerate(spec["inbound_nodes"]):
                try:
                    args = [tensors[tuple(ref[:3])] for ref in node]
                except KeyError as e:
                    raise ValueError(f"Layer {spec['name']!r} is called on {e.args[0]}, which "
                                     f"no earlier layer of the config produces.") from None
                result = layer(args[0] if len(args) == 1 else args)
                for i, out in enumerate(nest.flatten(result)):
                    tensors[(layer.name, node_index, i)] = out

        def pick(refs):
            found = [tensors[tuple(ref[:3])] for ref in refs]
            return found[0] if len(found) == 1 else found
        return cls(pick(config["input_layers"]), pick(config["output_layers"]),
                   name=config.get("name"))


def _tensor_ref(tensor, node_index):
    if not hasattr(tensor, "_keras_history"):
        raise NotImplementedError(
            f"This model applies {tensor._creator()} between its layers; such ops have no "
            f"config. Wrap the computation in a `Lambda` layer or a custom layer to make the "
            f"model serializable.")
    layer, _, i = tensor._keras_history
    node = tensor.node
    return [layer.name, node_index.get(id(node), 0), i, {}]


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


def _conform(tensor, ref):
    """`tensor` with the dtype (and rank, when one short) of the input `ref` it feeds."""
    if not isinstance(tensor, Tensor):
        tensor = convert_to_tensor(tensor)
    if tensor.dtype != ref.dtype and tensor.dtype.is_floating == ref.dtype.is_floating:
        tensor = cast_ops.cast(tensor, ref.dtype)
    rank, ref_rank = tensor.shape.rank, ref.shape.rank
    if rank is not None and ref_rank is not None and rank == ref_rank - 1 and \
            ref.shape.as_list()[-1] == 1:
        tensor = array_ops.expand_dims(tensor, -1)
    return tensor


def _schedule(inputs, outputs):
    """The layer calls (`Node`s) and ops leading from `inputs` to `outputs`, deepest first,
    and the depth of each (by id; the inputs' nodes included).

    Depth as Keras counts it: outputs' producers are at 0, a step's producers one
    deeper than the deepest step consuming them; ties keep discovery order.
    """
    input_ids = {id(x) for x in inputs}
    depth, order, producers = {}, [], {}

    def producer(tensor):
        if id(tensor) in input_ids:
            return None
        node = tensor.node
        if node is not None:
            if isinstance(node.layer, InputLayer):
                raise ValueError(f"Graph disconnected: cannot obtain value for tensor "
                                 f"{tensor} at layer \"{node.layer.name}\". The following "
                                 f"previous layers were accessed without issue: "
                                 f"{[s.layer.name for s in order if hasattr(s, 'layer')]}")
            return node
        if tensor.op.type == "Const":
            return None
        key = id(tensor.op)
        if key not in producers:
            producers[key] = _OpStep(tensor.op)
        return producers[key]

    def visit(step, d):
        if isinstance(step, keras_tensor.KerasTensor):  # a model input: its layer's depth
            depth[id(step.node)] = max(depth.get(id(step.node), 0), d)
            return
        if depth.get(id(step), -1) >= d:
            return
        if id(step) not in depth:
            order.append(step)
        depth[id(step)] = d
        for tensor in step.keras_inputs:
            parent = producer(tensor) if id(tensor) not in input_ids else tensor
            if parent is not None:
                visit(parent, d + 1)

    for tensor in outputs:
        step = producer(tensor)
        if step is not None:
            visit(step, 0)
    position = {id(s): i for i, s in enumerate(order)}
    return sorted(order, key=lambda s: (-depth[id(s)], position[id(s)])), depth

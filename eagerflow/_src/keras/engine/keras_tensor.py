"""Symbolic inputs of the functional API: `KerasTensor`s and the `Node`s linking layers.

``keras.Input`` makes a placeholder of one process-wide scratch graph; a layer
called on such tensors runs its `call` into that graph (learning its output
shapes and building its weights) and records a `Node`: which layer turned
which tensors into which. Plain ops on these tensors (``x * 2``,
``tf.concat``) join the same graph. `Functional` models later replay the
layers and ops on real tensors.

>>> from eagerflow._src.keras.engine import input_layer
>>> x = input_layer.Input(shape=(3,))
>>> x * 2
<KerasTensor: shape=(None, 3) dtype=float32 (created by layer 'tf.math.multiply')>
"""
from eagerflow._src.core import nest
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.core.tensor_spec import TensorSpec
from eagerflow._src.graph.graph import Graph, SymbolicTensor
from eagerflow._src.ops import cast_ops

# TF's public names of the ops a functional model may apply between layers.
_OP_NAMES = {"AddV2": "tf.__operators__.add", "Sub": "tf.math.subtract",
             "Mul": "tf.math.multiply", "RealDiv": "tf.math.truediv",
             "StridedSlice": "tf.__operators__.getitem", "ConcatV2": "tf.concat",
             "Reshape": "tf.reshape", "Cast": "tf.cast", "Neg": "tf.math.negative",
             "MatMul": "tf.linalg.matmul", "Transpose": "tf.compat.v1.transpose"}


class KerasTensor(SymbolicTensor):
    """A symbolic tensor of the functional API: a shape, a dtype and the layer that made it."""

    @property
    def type_spec(self):
        return TensorSpec(self.shape, self.dtype, self._spec_name())

    def _spec_name(self):
        return self.op.name if self.op.type == "Placeholder" else None

    @property
    def name(self):
        return self.op.name if self.op.type == "Placeholder" else super().name

    @property
    def node(self):
        history = getattr(self, "_keras_history", None)
        return None if history is None else history[0]._inbound_nodes[history[1]]

    def _creator(self):
        history = getattr(self, "_keras_history", None)
        if history is not None:
            return history[0].name
        return _OP_NAMES.get(self.op.type, f"tf.raw_ops.{self.op.type}")

    def __repr__(self):
        return (f"<KerasTensor: shape={self.shape} dtype={self.dtype.name} "
                f"(created by layer '{self._creator()}')>")

    def __str__(self):
        name = self._spec_name()
        spec = (f"TensorSpec(shape={self.shape}, dtype=tf.{self.dtype.name}, "
                f"name={name!r})")
        return (f"KerasTensor(type_spec={spec}, name={self.name!r}, "
                f"description=\"created by layer '{self._creator()}'\")")

    def __hash__(self):
        return id(self)


class _KerasGraph(Graph):
    tensor_type = KerasTensor
    lifts_eager_ops = True


_graph = None


def keras_graph():
    """The scratch graph of functional-API tensors."""
    global _graph
    if _graph is None:
        _graph = _KerasGraph("keras_graph")
    return _graph


def reset_graph():
    """Starts a new scratch graph (`clear_session`): input names count from 1 again."""
    global _graph
    _graph = None


def is_keras_tensor(value):
    return isinstance(value, KerasTensor) and value.graph is _graph


class Node:
    """One call of `layer` on symbolic tensors: its arguments and outputs.

    `args` and `kwargs` keep the call's structure with the `KerasTensor`s in
    place; `input_tensors` is the first argument, `keras_inputs` every
    `KerasTensor` anywhere in the arguments.
    """

    def __init__(self, layer, args, kwargs, outputs):
        self.layer, self.args, self.kwargs, self.outputs = layer, args, kwargs, outputs
        self.input_tensors = args[0]
        self.keras_inputs = [x for x in nest.flatten((args, kwargs)) if is_keras_tensor(x)]
        self.output_tensors = outputs
        self.index = len(layer._inbound_nodes)
        layer._inbound_nodes.append(self)
        for x in self.keras_inputs:
            producer = getattr(x, "_keras_history", None)
            if producer is not None:
                producer[0]._outbound_nodes.append(self)
        for i, out in enumerate(nest.flatten(outputs)):
            out._keras_history = (layer, self.index, i)

    @property
    def input_shapes(self):
        return _shapes(self.input_tensors)

    @property
    def output_shapes(self):
        return _shapes(self.output_tensors)

    @property
    def parent_nodes(self):
        return [x.node for x in self.keras_inputs if x.node is not None]


def _shapes(tensors):
    return nest.map_structure(lambda t: tuple(t.shape.as_list()), tensors)


def call_symbolically(layer, inputs, args, kwargs):
    """Calls `layer` on `KerasTensor` inputs: traces `call` into the scratch graph and
    records the `Node`; returns `KerasTensor` outputs."""
    graph = keras_graph()
    with graph.as_default():
        outputs = layer._call(inputs, args, dict(kwargs))
    inputs_flat = {id(x) for x in nest.flatten((inputs, args, kwargs))}
    outputs = nest.map_structure(
        lambda t: _fresh(t) if id(t) in inputs_flat or hasattr(t, "_keras_history") or
        not is_keras_tensor(t) else t, outputs)
    Node(layer, (inputs, *args), dict(kwargs), outputs)
    return outputs


def _fresh(tensor):
    """A new graph tensor equal to `tensor`, so that it can carry this layer's history."""
    graph = keras_graph()
    with graph.as_default():
        out = cast_ops.identity(tensor)
    mask = getattr(tensor, "_keras_mask", None)
    if mask is not None:
        out._keras_mask = mask
    return out


def infer_output_signature(layer, input_signature):
    """The `TensorSpec`s of `layer`'s outputs for inputs of `input_signature`."""
    graph = Graph("compute_output_signature")
    with graph.as_default():
        placeholders = nest.map_structure(
            lambda s: graph.placeholder(s.dtype, s.shape), input_signature)
        outputs = layer(placeholders)
    return nest.map_structure(lambda t: TensorSpec(t.shape, t.dtype), outputs)


def infer_output_shape(layer, input_shape):
    """The output shape(s) of `layer` for inputs of `input_shape` (TensorShapes)."""
    dtype = layer.compute_dtype or "float32"
    if _is_shape(input_shape):
        signature = TensorSpec(TensorShape(input_shape), dtype)
    elif isinstance(input_shape, dict):
        signature = {k: TensorSpec(TensorShape(s), dtype) for k, s in input_shape.items()}
    else:
        signature = [TensorSpec(TensorShape(s), dtype) for s in input_shape]
    return nest.map_structure(lambda s: s.shape, infer_output_signature(layer, signature))


def _is_shape(value):
    """True for one shape (a TensorShape, or a tuple/list of ints and Nones)."""
    if isinstance(value, TensorShape):
        return True
    return isinstance(value, (tuple, list)) and all(
        v is None or isinstance(v, int) for v in value)


"""`Sequential`: a plain stack of layers, each feeding the next.

Once the input shape is known (from ``input_shape`` on the first layer, an
`Input`, `build`, or the first call) the stack is also a functional graph,
so `summary`, `inputs`, `outputs` and `output_shape` work as in Keras.

>>> model = tf.keras.Sequential([tf.keras.layers.Dense(4, input_shape=(3,)),
...                              tf.keras.layers.Dense(2)])
>>> [tuple(w.shape) for w in model.weights]
[(3, 4), (4,), (4, 2), (2,)]
"""
from eagerflow._src.backend.api_export import export
from eagerflow._src.compat import graph_mode as _graph_mode
from eagerflow._src.core import context, nest
from eagerflow._src.core.tensor import Tensor
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.keras.engine import input_layer, keras_tensor
from eagerflow._src.keras.engine.base_layer import Layer, call_context
from eagerflow._src.keras.engine.functional import Functional
from eagerflow._src.keras.engine.training import Model
from eagerflow._src.keras.layers import deserialize, serialize

_SINGLE_OUTPUT = ("All layers in a Sequential model should have a single output tensor. For "
                  "multi-output layers, use the functional API.")


@export("keras.Sequential", "keras.models.Sequential")
class Sequential(Functional):
    """A linear stack of layers: ``Sequential([Dense(64, activation='relu'), Dense(10)])``.

    Without an explicit input shape, the graph is inferred from the shape and dtype of
    what the model is built or called with (batch size included), and relaxed, axis by
    axis, when a call brings a different shape of the same rank.
    """

    _saved_model_identifier = ("_tf_keras_sequential", 1, 1)

    _DEFAULT_NAME = "sequential"

    def __init__(self, layers=None, name=None):
        # (as Keras: a Sequential does not cast its inputs; its graph's input, or its
        # layers, do)
        Model.__init__(self, name=name, autocast=False)
        self._self_tracked_layers = []
        self._input_layer = None
        self._graph_ready = False
        self._inferred_input_shape = None
        self._graph_failed = False  # a layer refused symbolic inputs: call layers one by one
        self._nodes = []  # the calls of the layers that make the graph, in order
        self._called_input_layers = set()  # (ids) input layers added after the input
        self.supports_masking = True
        if layers is not None and not isinstance(layers, (list, tuple)):
            layers = [layers]  # (one layer, as Keras takes it)
        for layer in layers or ():
            self.add(layer)

    @property
    def layers(self):
        return _unique(self._stack())

    def _stack(self):
        """The layers in the order they are applied: one added twice (a shared activation)
        is there twice."""
        return [layer for layer in self._self_tracked_layers
                if not isinstance(layer, input_layer.InputLayer)
                or id(layer) in self._called_input_layers]

    def _weight_holders(self):
        return self.layers  # unlike other models', no metric attributes (as in Keras)

    def _weight_groups(self):
        return [layer.weights for layer in self.layers]

    @property
    def _has_explicit_input_shape(self):
        return self._input_layer is not None and self._inferred_input_shape is None

    def _get_input_spec(self):
        # An inferred graph checks nothing: a call of another shape relaxes it instead.
        if self._has_explicit_input_shape or self._input_spec is not None:
            return Functional.input_spec.fget(self)
        return None

    input_spec = property(_get_input_spec, Functional.input_spec.fset)

    def add(self, layer):
        """Appends `layer` (or the `InputLayer` behind a `keras.Input` tensor)."""
        if hasattr(layer, "_keras_history") and \
                isinstance(layer._keras_history[0], input_layer.InputLayer):
            layer = layer._keras_history[0]
        if not isinstance(layer, Layer):
            raise TypeError(f"The added layer must be an instance of class Layer. "
                            f"Received: layer={layer} of type {type(layer)}.")
        if any(existing.name == layer.name and existing is not layer
               for existing in self._self_tracked_layers):
            raise ValueError(f'All layers added to a Sequential model should have unique '
                             f'names. Name "{layer.name}" is already the name of a layer in '
                             f'this model. Update the `name` argument to pass a unique name.')
        self._self_tracked_layers.append(layer)
        self.built = False
        if isinstance(layer, input_layer.InputLayer) and self._graph_ready:
            # As Keras: an input layer added to a model that has its input is called on the
            # output so far, which it passes on.
            self._called_input_layers.add(id(layer))
        elif isinstance(layer, input_layer.InputLayer):
            self._input_layer = layer
        elif self._input_layer is None and len(self._self_tracked_layers) == 1 and \
                _input_layer_of(layer)._batch_input_shape is not None:
            first = _input_layer_of(layer)
            self._input_layer = input_layer.InputLayer(
                batch_input_shape=first._batch_input_shape, dtype=first.dtype,
                name=f"{layer.name}_input")
            self._self_tracked_layers.insert(0, self._input_layer)
        if self._graph_ready:
            self._connect([layer])
        elif self._input_layer is not None:
            self._connect(self._stack())

    def pop(self):
        """Removes the last layer."""
        if not self.layers:
            raise TypeError("There are no layers in the model.")
        self._self_tracked_layers.pop()
        if not self._graph_ready:
            return
        # (as Keras: the popped layer keeps its node, a layer reused elsewhere its calls
        # there; the new last layer forgets every call on its output, in any model)
        self._nodes.pop()
        if self._nodes:
            self._nodes[-1].layer._outbound_nodes.clear()
            self._init_graph_network(self.inputs[0], self._nodes[-1].outputs)
        else:
            self._graph_ready = self.built = False
            self.inputs = self.outputs = None
            self._inferred_input_shape = None

    def _connect(self, layers):
        """Calls `layers` in turn on the graph's output (or input): the functional view."""
        x = self.outputs[0] if self._graph_ready else \
            self._input_layer._inbound_nodes[0].outputs
        ctx = call_context()
        depth, ctx.depth = ctx.depth, 0  # connect the layers even when built by a call
        try:
            for layer in layers:
                x = layer(x)
                self._nodes.append(layer._inbound_nodes[-1])
                if len(nest.flatten(x)) != 1:
                    raise ValueError(_SINGLE_OUTPUT)
        finally:
            ctx.depth = depth
        if depth:  # built by a call: the losses of the symbolic connection are not that call's
            for layer in self._flatten_layers():
                if layer._eager_losses:
                    layer._eager_losses = [loss for loss in layer._eager_losses
                                           if not keras_tensor.is_keras_tensor(loss)]
        self._init_graph_network(self._input_layer._inbound_nodes[0].outputs, x)
        self._self_tracked_layers = [self._input_layer] + self._stack()
        self._graph_ready = True

    def _infer_graph(self, shape, dtype=None):
        """(Re)builds the graph for inputs of `shape`, relaxed against the shape seen before."""
        if self._has_explicit_input_shape or self._graph_failed or not self.layers \
                or isinstance(shape, dict) or isinstance(shape, (list, tuple)) and any(
                    isinstance(d, (TensorShape, list, tuple)) for d in shape):
            return  # (a dict or list of inputs: its layers run in turn)
        shape = tuple(TensorShape(shape).as_list())
        if self._inferred_input_shape is not None:
            shape = _relaxed(self._inferred_input_shape, shape)
            if shape is None or shape == self._inferred_input_shape:
                return
        self._discard_graph()
        self._input_layer = input_layer.InputLayer(
            batch_input_shape=shape, dtype=dtype, name=f"{self.layers[0].name}_input")
        self._inferred_input_shape = shape
        try:
            self._connect(self._stack())
        except Exception as error:  # noqa: BLE001 (any failure: as Keras, no graph then)
            if error.args[:1] == (_SINGLE_OUTPUT,):
                raise
            # A layer that cannot take symbolic inputs leaves the model without a graph;
            # it then calls its layers in turn.
            self._discard_graph()
            self._graph_failed = True

    def _discard_graph(self):
        for node in self._nodes:
            node.discard()
        self._nodes = []
        self._graph_ready = False
        self._input_layer = None
        self._self_tracked_layers = self._stack()

    def compute_output_shape(self, input_shape):
        # as Keras: each layer's output shape for the one before it (the model need not be
        # built)
        shape = input_shape
        for layer in self._stack():
            shape = layer.compute_output_shape(shape)
        return shape

    def build(self, input_shape=None):
        """Builds the layers for inputs of `input_shape` (batch dimension included)."""
        if self._graph_ready:
            return
        if input_shape is None:
            raise ValueError("You must provide an `input_shape` argument.")
        self._infer_graph(input_shape)
        if not self._graph_ready and not self.built:
            # (as Keras: with no graph, its layers are called on placeholders of the shape,
            # which builds them, or tells why they cannot be)
            Model.build(self, input_shape)
        self.built = True

    # As Keras: a first call does not build through `build`; `call` infers the graph from
    # the inputs, their dtype too.
    build._is_default = True

    def call(self, inputs, training=None, mask=None):
        # (as Keras: not in TF 1's graph mode, where the layers are called in turn, in the
        # model's name scope, which names the weights they make: ``sequential/dense/kernel``)
        if isinstance(inputs, Tensor) and _graph_mode.tf2_enabled() and \
                _graph_mode.executing_eagerly_outside_functions():
            with context.init_scope():
                self._infer_graph(inputs.shape, inputs.dtype)
        if self._graph_ready:
            return super().call(inputs, training=training, mask=mask)
        outputs = inputs
        for layer in self._stack():
            outputs = layer(outputs)  # masks travel on the tensors
        return outputs

    def get_config(self):
        return {"name": self.name,
                "layers": [serialize(layer) for layer in _unique(self._self_tracked_layers)]}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        model = cls(name=config.get("name"))
        for spec in config["layers"]:
            model.add(deserialize(spec, custom_objects=custom_objects))
        return model


def _unique(layers):
    """`layers` without repeats (as Keras lists a layer added twice), in order."""
    seen = set()
    return [layer for layer in layers if not (id(layer) in seen or seen.add(id(layer)))]


def _input_layer_of(layer):
    """The layer that states `layer`'s input shape: a nested model's first layer, deepest first."""
    while isinstance(layer, Functional):
        if not layer.layers:
            raise ValueError("An empty Model cannot be used as a Layer.")
        layer = layer.layers[0]
    return layer


def _relaxed(old, new):
    """`old` with the axes that differ in `new` unknown; None when the ranks differ."""
    if len(old) != len(new):
        return None
    return tuple(a if a == b else None for a, b in zip(old, new))

"""`Sequential`: a plain stack of layers, each feeding the next.

Once the input shape is known (from ``input_shape`` on the first layer, an
`Input`, `build`, or the first call) the stack is also a functional graph,
so `summary`, `inputs`, `outputs` and `output_shape` work as in Keras.

>>> from eagerflow._src.keras.layers.core import Dense
>>> model = Sequential([Dense(4, input_shape=(3,)), Dense(2)])
>>> [tuple(w.shape) for w in model.weights]
[(3, 4), (4,), (4, 2), (2,)]
"""
from eagerflow._src.core import nest
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.keras.engine import input_layer
from eagerflow._src.keras.engine.base_layer import Layer, call_context
from eagerflow._src.keras.engine.functional import Functional
from eagerflow._src.keras.engine.training import Model


class Sequential(Functional):
    """A linear stack of layers: ``Sequential([Dense(64, activation='relu'), Dense(10)])``."""

    _DEFAULT_NAME = "sequential"
    _is_sequential = True

    def __init__(self, layers=None, name=None):
        Model.__init__(self, name=name)
        self._self_tracked_layers = []
        self._input_layer = None
        self._graph_ready = False
        self.supports_masking = True
        for layer in layers or ():
            self.add(layer)

    @property
    def layers(self):
        return [layer for layer in self._self_tracked_layers
                if not isinstance(layer, input_layer.InputLayer)]

    def add(self, layer):
        """Appends `layer` (or the `InputLayer` behind a `keras.Input` tensor)."""
        if hasattr(layer, "_keras_history") and \
                isinstance(layer._keras_history[0], input_layer.InputLayer):
            layer = layer._keras_history[0]
        if not isinstance(layer, Layer):
            raise TypeError(f"The added layer must be an instance of class Layer. "
                            f"Received: layer={layer} of type {type(layer)}.")
        if any(existing.name == layer.name for existing in self._self_tracked_layers):
            raise ValueError(f'All layers added to a Sequential model should have unique '
                             f'names. Name "{layer.name}" is already the name of a layer in '
                             f'this model. Update the `name` argument to pass a unique name.')
        self._self_tracked_layers.append(layer)
        self._graph_ready = False
        self.built = False
        if isinstance(layer, input_layer.InputLayer):
            self._input_layer = layer
        elif self._input_layer is None and len(self._self_tracked_layers) == 1 and \
                layer._batch_input_shape is not None:
            self._input_layer = input_layer.InputLayer(
                batch_input_shape=layer._batch_input_shape, dtype=layer.dtype,
                name=f"{layer.name}_input")
            self._self_tracked_layers.insert(0, self._input_layer)
        if self._input_layer is not None:
            self._build_graph()

    def pop(self):
        """Removes the last layer."""
        if not self.layers:
            raise TypeError("There are no layers in the model.")
        self._self_tracked_layers.pop()
        self._graph_ready = False
        self.built = False
        if self.layers and self._input_layer is not None:
            self._build_graph()

    def _build_graph(self):
        """Connects the layers on the input layer's tensor: the functional view."""
        x = inputs = self._input_layer._inbound_nodes[0].outputs
        ctx = call_context()
        depth, ctx.depth = ctx.depth, 0  # connect the layers even when built by a call
        try:
            for layer in self.layers:
                x = layer(x)
                if len(nest.flatten(x)) != 1:
                    raise ValueError("All layers in a Sequential model should have a single "
                                     "output tensor. For multi-output layers, use the "
                                     "functional API.")
        finally:
            ctx.depth = depth
        self._init_graph_network(inputs, x)
        self._self_tracked_layers = [self._input_layer] + self.layers
        self._graph_ready = True

    def build(self, input_shape=None):
        """Builds the layers for inputs of `input_shape` (batch dimension included)."""
        if self._graph_ready:
            return
        if input_shape is None:
            raise ValueError("You must provide an `input_shape` argument.")
        shape = TensorShape(input_shape).as_list()
        self._input_layer = input_layer.InputLayer(batch_input_shape=[None] + shape[1:])
        self._self_tracked_layers.insert(0, self._input_layer)
        self._build_graph()

    def call(self, inputs, training=None, mask=None):
        if not self._graph_ready and self._input_layer is None and \
                hasattr(inputs, "shape") and inputs.shape.rank is not None:
            self.build(inputs.shape)
        outputs = inputs
        for layer in self.layers:
            outputs = layer(outputs)  # masks travel on the tensors
        return outputs

    def get_config(self):
        layers = [{"module": "keras.layers", "class_name": type(layer).__name__,
                   "config": layer.get_config(), "registered_name": None}
                  for layer in self._self_tracked_layers]
        return {"name": self.name, "layers": layers}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        from eagerflow._src.keras.layers import deserialize  # noqa: PLC0415 (layers import engine)
        model = cls(name=config.get("name"))
        for spec in config["layers"]:
            model.add(deserialize(spec, custom_objects=custom_objects))
        return model

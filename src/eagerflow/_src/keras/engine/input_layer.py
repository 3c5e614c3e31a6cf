"""`Input` and `InputLayer`: the entry points of functional models.

>>> x = tf.keras.Input(shape=(28, 28), name="pixels")
>>> x.shape, x.dtype.name
(TensorShape([None, 28, 28]), 'float32')
"""
from eagerflow._src.backend.api_export import export
from eagerflow._src.compat import graph_mode
from eagerflow._src.core import dtypes as _dtypes
from eagerflow._src.core.tensor import EagerTensor
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.graph.graph import SymbolicTensor
from eagerflow._src.keras import backend
from eagerflow._src.ops.extension_type import ExtensionTypeSpec
from eagerflow._src.ops.sparse_tensor import SparseTensorSpec
from eagerflow._src.ragged.ragged_tensor import RaggedTensorSpec
from eagerflow._src.keras.engine import keras_tensor
from eagerflow._src.keras.engine.base_layer import Layer
from eagerflow._src.keras.utils import serialization


def _of_v1_graph(tensor):
    """Whether `tensor` is a tensor of a TF 1 graph: in TF 1's graph mode such a tensor (a
    ``tf.compat.v1.placeholder``) becomes the model's input itself."""
    return isinstance(tensor, SymbolicTensor) and graph_mode.is_v1(tensor.graph)


@export("keras.layers.InputLayer")
class InputLayer(Layer):
    """The layer behind `Input`: it owns the placeholder its model is fed through."""

    _saved_model_identifier = ("_tf_keras_input_layer", 1, 1)

    def __init__(self, input_shape=None, batch_size=None, dtype=None, input_tensor=None,
                 sparse=None, name=None, ragged=None, type_spec=None, optional=False, **kwargs):
        unknown_rank = False
        if "batch_input_shape" in kwargs:
            batch_input_shape = kwargs.pop("batch_input_shape")
            if input_shape is not None and batch_input_shape is not None:
                raise ValueError("Only provide the input_shape OR batch_input_shape argument "
                                 "to InputLayer, not both at the same time.")
            # (None or () says nothing of the rank: an input of unknown shape, as in tf_keras)
            unknown_rank = not batch_input_shape
            if batch_input_shape:
                batch_size, input_shape = batch_input_shape[0], batch_input_shape[1:]
        if kwargs:
            raise ValueError(f"Unrecognized keyword arguments: {list(kwargs)}")
        if sparse and ragged:
            raise ValueError("Cannot set both sparse and ragged to True in a TF-Keras input.")
        if name is None:
            name = f"input_{backend.get_uid('input')}"
        placeholder = input_tensor is None  # (False for a given tensor, as in tf_keras)
        if isinstance(type_spec, dict):  # (a config's serialized spec)
            type_spec = serialization.deserialize_keras_object(type_spec)
        if isinstance(type_spec, (RaggedTensorSpec, SparseTensorSpec)):
            # (an input of the spec: its shape, dtype and, ragged, its ragged rank)
            batch_size, input_shape = type_spec.shape[0], type_spec.shape[1:]
            dtype = type_spec.dtype
            ragged, sparse = isinstance(type_spec, RaggedTensorSpec), \
                isinstance(type_spec, SparseTensorSpec)
        self._extension_spec = None
        if isinstance(type_spec, ExtensionTypeSpec):  # an extension type's input
            input_tensor = keras_tensor.extension_placeholder(type_spec, name)
            spec_dtype = getattr(type_spec, "dtype", None)
            dtype = dtype or (spec_dtype.name if isinstance(spec_dtype, _dtypes.DType)
                              else None)
        elif input_tensor is not None:
            dtype = dtype or input_tensor.dtype.name
        dtype = _dtypes.as_dtype(dtype or backend.floatx()).name
        super().__init__(dtype=dtype, name=name)
        if isinstance(type_spec, (ExtensionTypeSpec, RaggedTensorSpec, SparseTensorSpec)):
            self._extension_spec = type_spec
        self.built = True
        self.sparse, self.ragged = bool(sparse), bool(ragged)
        self.optional = optional  # whether the model may be fed None here (kept for configs)
        if input_tensor is None:
            if input_shape is None and not unknown_rank:
                raise ValueError("Please provide to Input a `shape` or a `tensor` or a "
                                 "`type_spec` argument. Note that `shape` does not include "
                                 "the batch dimension.")
            shape = TensorShape(None) if input_shape is None else \
                TensorShape([batch_size, *TensorShape(input_shape).as_list()])
            if sparse:
                input_tensor = keras_tensor.sparse_placeholder(_dtypes.as_dtype(dtype), shape,
                                                               name)
            elif ragged:
                input_tensor = keras_tensor.ragged_placeholder(
                    _dtypes.as_dtype(dtype), shape, name,
                    type_spec.ragged_rank if isinstance(type_spec, RaggedTensorSpec) else None)
            else:
                input_tensor = keras_tensor.placeholder(_dtypes.as_dtype(dtype), shape, name)
        elif isinstance(input_tensor, EagerTensor):
            # As tf_keras: a concrete tensor stands for inputs of its shape and dtype.
            input_tensor = keras_tensor.placeholder(input_tensor.dtype, input_tensor.shape, name)
        elif not keras_tensor.is_keras_tensor(input_tensor) and not _of_v1_graph(input_tensor):
            raise ValueError(f"You should not pass an EagerTensor to `Input`. For example, "
                             f"instead of creating an InputLayer, you should instantiate your "
                             f"model and directly call it on your input. "
                             f"Received: {input_tensor!r}")
        self._batch_input_shape = None if input_tensor.shape.rank is None else \
            tuple(input_tensor.shape.as_list())
        self.is_placeholder = placeholder
        node = keras_tensor.Node(self, (input_tensor,), {}, input_tensor)
        node.keras_inputs, node.is_input = [], True  # an input layer's node starts the graph
        if sparse or ragged:
            input_tensor.node = node  # (what a KerasTensor finds through its history)

    @property
    def output_shape(self):
        return [self._batch_input_shape]  # a list, as Keras reports it

    input_shape = output_shape

    def get_config(self):
        if self._extension_spec is not None:  # (as tf_keras: the spec says it all)
            return {"name": self.name, "type_spec": self._extension_spec}
        return {"batch_input_shape": self._batch_input_shape, "dtype": self.dtype,
                "sparse": self.sparse, "ragged": self.ragged, "name": self.name,
                "optional": self.optional}


@export("keras.Input", "keras.layers.Input")
def Input(shape=None, batch_size=None, name=None, dtype=None, sparse=None,  # noqa: N802
          tensor=None, ragged=None, type_spec=None, optional=False, **kwargs):
    """A symbolic input of a functional model, of `shape` (without the batch dimension).

    ``batch_shape`` may be given instead of `shape` and `batch_size`.
    """
    batch_shape = kwargs.pop("batch_shape", None)
    if kwargs:
        raise ValueError(f"Unrecognized keyword arguments: {list(kwargs)}")
    if shape is not None and batch_shape is not None:
        raise ValueError("Only provide the `shape` OR `batch_input_shape` argument to Input, "
                         "not both at the same time.")
    if sparse and ragged:
        raise ValueError("Cannot set both `sparse` and `ragged` to `True` in a Keras `Input`.")
    if shape is None and batch_shape is None and tensor is None and type_spec is None:
        raise ValueError("Please provide to Input a `shape` or a `tensor` or a `type_spec` "
                         "argument. Note that `shape` does not include the batch dimension.")
    if isinstance(type_spec, (ExtensionTypeSpec, RaggedTensorSpec, SparseTensorSpec)):
        layer = InputLayer(dtype=dtype, name=name, type_spec=type_spec, optional=optional)
        return layer._inbound_nodes[0].outputs
    if type_spec is not None:
        shape, dtype = type_spec.shape, type_spec.dtype
        batch_shape, shape = shape.as_list(), None
        name = name or getattr(type_spec, "name", None)  # (a named spec names its input)

    if batch_shape is not None:
        batch_size, shape = batch_shape[0], batch_shape[1:]
    if isinstance(shape, int):
        shape = (shape,)
    layer = InputLayer(input_shape=shape, batch_size=batch_size, dtype=dtype, name=name,
                       input_tensor=tensor, sparse=sparse, ragged=ragged, optional=optional)
    return layer._inbound_nodes[0].outputs

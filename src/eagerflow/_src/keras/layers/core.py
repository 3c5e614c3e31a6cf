"""The core layers: Dense, Activation, Dropout, Flatten, Lambda and Embedding.

>>> layer = tf.keras.layers.Dense(2, kernel_initializer="ones", activation="relu")
>>> layer(tf.constant([[1.0, -3.0]])).numpy()
array([[0., 0.]], dtype=float32)
"""
import inspect
import math

import numpy as np

from eagerflow._src.backend import log as _log
from eagerflow._src.backend.api_export import export
from eagerflow._src.core import dtypes as _dtypes, nest
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.ops import array_ops, cast_ops, linalg_ops, math_ops, nn_ops, sparse_ops
from eagerflow._src.ops.sparse_tensor import SparseTensor, from_dense
from eagerflow._src.keras import activations, backend
from eagerflow._src.keras.engine.base_layer import Layer, watching_variables
from eagerflow._src.keras.engine.input_spec import InputSpec
from eagerflow._src.keras.layers import weight_arguments
from eagerflow._src.keras.utils import serialization
from eagerflow._src.ragged.ragged_tensor import RaggedTensor


@export("keras.layers.Dense")
class Dense(Layer):
    """``activation(inputs @ kernel + bias)``, over the last axis of inputs of any rank."""

    def __init__(self, units, activation=None, use_bias=True,
                 kernel_initializer="glorot_uniform", bias_initializer="zeros",
                 kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, **kwargs):
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        self.units = int(units) if not isinstance(units, int) else units
        if self.units < 0:
            raise ValueError(f"Received an invalid value for `units`, expected a positive "
                             f"integer. Received: units={units}")
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        weight_arguments.resolve(
            self, kernel_initializer=kernel_initializer, bias_initializer=bias_initializer,
            kernel_regularizer=kernel_regularizer, bias_regularizer=bias_regularizer,
            kernel_constraint=kernel_constraint, bias_constraint=bias_constraint)
        self.input_spec = InputSpec(min_ndim=2)
        self.supports_masking = True

    def build(self, input_shape):
        dtype = _dtypes.as_dtype(self.dtype or backend.floatx())
        if not (dtype.is_floating or dtype.is_complex):
            raise TypeError(f"A Dense layer can only be built with a floating-point dtype. "
                            f"Received: dtype={dtype}")
        input_shape = TensorShape(input_shape)
        self._build_input_shape = input_shape  # (also when a wrapper builds it)
        last_dim = input_shape[-1] if input_shape.rank else None
        if last_dim is None:
            raise ValueError(f"The last dimension of the inputs to a Dense layer should be "
                             f"defined. Found None. Full input shape received: {input_shape}")
        self.input_spec = InputSpec(min_ndim=2, axes={-1: last_dim})
        self.kernel = self.add_weight("kernel", shape=[last_dim, self.units],
                                      initializer=self.kernel_initializer,
                                      regularizer=self.kernel_regularizer,
                                      constraint=self.kernel_constraint, dtype=self.dtype,
                                      trainable=True)
        self.bias = self.add_weight("bias", shape=[self.units],
                                    initializer=self.bias_initializer,
                                    regularizer=self.bias_regularizer,
                                    constraint=self.bias_constraint, dtype=self.dtype,
                                    trainable=True) if self.use_bias else None
        self.built = True

    def call(self, inputs):
        if isinstance(inputs, RaggedTensor) and inputs.flat_values.shape.rank != 1:
            # (the last dimension uniform: the flat values' rows are the inputs' vectors)
            return inputs.with_flat_values(self.call(inputs.flat_values))
        if not isinstance(inputs, SparseTensor) and self.compute_dtype and \
                inputs.dtype.name != self.compute_dtype:  # integer inputs too, as Keras's Dense
            inputs = cast_ops.cast(inputs, self.compute_dtype)
        if isinstance(inputs, SparseTensor):  # a product over the entries alone, as TF's
            if inputs.dtype != self.kernel.dtype:
                inputs = inputs.with_values(cast_ops.cast(inputs.values, self.kernel.dtype))
            outputs = sparse_ops.sparse_dense_matmul(inputs, self.kernel)
        elif inputs.shape.rank in (2, None):  # (a rank unknown when traced: as Keras's)
            outputs = linalg_ops.matmul(inputs, self.kernel)
        else:
            outputs = array_ops.tensordot(inputs, self.kernel, [[inputs.shape.rank - 1], [0]])
        if self.use_bias:
            outputs = nn_ops.bias_add(outputs, self.bias)
        if self.activation is not None:
            outputs = self.activation(outputs)
        return outputs

    def compute_output_shape(self, input_shape):
        input_shape = TensorShape(input_shape).with_rank_at_least(2)  # (a batch of features)
        if input_shape[-1] is None:
            raise ValueError(f"The last dimension of the input shape of a Dense layer should "
                             f"be defined. Found None. Received: input_shape={input_shape}")
        return input_shape[:-1].concatenate([self.units])

    def get_config(self):
        config = super().get_config()
        config.update({
            "units": self.units, "activation": activations.serialize(self.activation),
            "use_bias": self.use_bias, **weight_arguments.config(self, ("kernel", "bias"))})
        return config


@export("keras.layers.Activation")
class Activation(Layer):
    """Applies an activation function: ``Activation('relu')``."""

    def __init__(self, activation, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True
        self.activation = activations.get(activation)

    def call(self, inputs):
        return self.activation(inputs)

    def compute_output_shape(self, input_shape):
        return input_shape  # as given: a tuple stays a tuple, as in Keras

    def get_config(self):
        config = super().get_config()
        config["activation"] = activations.serialize(self.activation)
        return config


@export("keras.layers.Dropout")
class Dropout(Layer):
    """Zeroes a `rate` fraction of inputs while training, scaling the rest by 1/(1-rate)."""

    def __init__(self, rate, noise_shape=None, seed=None, **kwargs):
        super().__init__(**kwargs)
        if isinstance(rate, (int, float)) and not 0 <= rate <= 1:
            raise ValueError(f"Invalid value {rate} received for `rate`, expected a value "
                             f"between 0 and 1.")
        self.rate, self.noise_shape, self.seed = rate, noise_shape, seed
        self.supports_masking = True
        # (op seeds seed, seed + 1, ... per call; or a `tf.random.Generator` of `seed` when
        # `enable_tf_random_generator` is in effect)
        self._random_generator = backend.RandomGenerator(seed)

    def build(self, input_shape):
        super().build(input_shape)
        self._random_generator._maybe_init()

    def _get_noise_shape(self, inputs):
        if self.noise_shape is None:
            return None
        shape = array_ops.shape(inputs)
        return [shape[i] if dim is None else dim for i, dim in enumerate(self.noise_shape)]

    def call(self, inputs, training=None):
        if self.rate == 0:
            return cast_ops.identity(inputs)
        return backend.in_train_phase(
            lambda: self._random_generator.dropout(inputs, self.rate,
                                                   self._get_noise_shape(inputs)),
            lambda: cast_ops.identity(inputs), training)

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        config = super().get_config()
        config.update({"rate": self.rate, "noise_shape": self.noise_shape, "seed": self.seed})
        return config


@export("keras.layers.Flatten")
class Flatten(Layer):
    """Flattens all but the batch axis: (n, 4, 5) -> (n, 20)."""

    def __init__(self, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.data_format = backend.normalize_data_format(data_format)
        self.input_spec = InputSpec(min_ndim=1)

    def call(self, inputs):
        rank = inputs.shape.rank
        if self.data_format == "channels_first" and rank is not None and rank > 2:
            inputs = array_ops.transpose(inputs, [0, *range(2, rank), 1])
        if rank == 1:
            return array_ops.expand_dims(inputs, 1)
        dims = inputs.shape.as_list()[1:] if rank is not None else [None]
        if None not in dims:
            return array_ops.reshape(inputs, (-1, math.prod(dims)))
        return array_ops.reshape(inputs, array_ops.stack([array_ops.shape(inputs)[0], -1]))

    def compute_output_shape(self, input_shape):
        dims = TensorShape(input_shape).as_list()
        rest = dims[1:]
        return TensorShape([dims[0], None if None in rest else math.prod(rest)])

    def get_config(self):
        config = super().get_config()
        config["data_format"] = self.data_format
        return config


@export("keras.layers.Lambda")
class Lambda(Layer):
    """Wraps a function of tensors as a layer: ``Lambda(lambda x: x ** 2)``."""

    _UNTRACKED_ATTRIBUTES = Layer._UNTRACKED_ATTRIBUTES | {"arguments"}  # a plain dict in Keras

    def __init__(self, function, output_shape=None, mask=None, arguments=None, **kwargs):
        super().__init__(**kwargs)
        self.function = function
        self.arguments = arguments or {}
        self._output_shape = output_shape
        self.mask = mask
        if not callable(function):
            raise TypeError("unsupported callable")  # (as TF's argument inspection says)
        params = inspect.signature(function).parameters
        self._fn_expects_training = "training" in params
        self._fn_expects_mask = "mask" in params
        # Keras marks a layer overriding compute_mask as supporting masks: a Lambda always
        # does (its compute_mask gives `mask`, so None drops an incoming mask)
        self.supports_masking = True

    def call(self, inputs, mask=None, training=None):
        kwargs = dict(self.arguments)
        if self._fn_expects_mask:
            kwargs["mask"] = mask
        if self._fn_expects_training:
            kwargs["training"] = training
        with watching_variables() as (created, tape):  # (for the checks below)
            result = self.function(inputs, **kwargs)
        tracked = {id(v) for v in self.weights}
        self._check_created_variables(created, tracked)
        self._check_used_variables(tape.watched_variables(), tracked)
        return result

    def _check_used_variables(self, used, tracked):
        # As Keras: a variable the function reads that the layer does not track (`tracked`:
        # the ids of its weights) is most likely a mistake (it is not among the model's
        # weights); warned of once.
        untracked = [v for v in used if id(v) not in tracked]
        if untracked and not getattr(self, "_already_warned", False):
            listed = "\n".join(f"  {v}" for v in untracked)
            _log.logger.warning(
                f"\nThe following Variables were used a Lambda layer's call ({self.name}), but\n"
                f"are not present in its tracked objects:\n{listed}\n"
                "It is possible that this is intended behavior, but it is more likely\n"
                "an omission. This is a strong indication that this layer should be\n"
                "formulated as a subclassed Layer rather than a Lambda layer.")
            self._already_warned = True

    def _check_created_variables(self, created, tracked):
        # As Keras: a variable the function makes anew at each call is refused (a
        # tf.random.Generator's state excepted).
        untracked = [v for v in created if "StateVar" not in v.name and id(v) not in tracked]
        if untracked:
            listed = "\n".join(f"  {v}" for v in untracked)
            raise ValueError(
                f"\nThe following Variables were created within a Lambda layer ({self.name})\n"
                f"but are not tracked by said layer:\n{listed}\n"
                "The layer cannot safely ensure proper Variable reuse across multiple\n"
                "calls, and consequently this behavior is disallowed for safety. Lambda\n"
                "layers are not well suited to stateful computation; instead, writing a\n"
                "subclassed Layer is the recommend way to define layers with\nVariables.")

    def compute_mask(self, inputs, mask=None):
        if callable(self.mask):
            return self.mask(inputs, mask)
        return self.mask

    def compute_output_shape(self, input_shape):
        if self._output_shape is None:
            return super().compute_output_shape(input_shape)
        if callable(self._output_shape):
            return TensorShape(self._output_shape(input_shape))
        return TensorShape([TensorShape(input_shape)[0], *self._output_shape])

    def get_config(self):
        # As Keras: a Python function (a lambda or a named one) as its bytecode, another
        # callable by its name, a shape as itself; within a clone, the objects themselves.
        config = super().get_config()
        config.update(zip(("function", "function_type", "module"),
                          serialization.function_config(self.function)))
        config.update(zip(("output_shape", "output_shape_type", "output_shape_module"),
                          serialization.function_config(self._output_shape)))
        if self.mask is not None:
            config.update(zip(("mask", "mask_type", "mask_module"),
                              serialization.function_config(self.mask)))
        config["arguments"] = self.arguments
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        function = cls._function_from_config(config, custom_objects, "function", "module",
                                             "function_type")
        output_shape = cls._function_from_config(config, custom_objects, "output_shape",
                                                 "output_shape_module", "output_shape_type")
        mask = cls._function_from_config(config, custom_objects, "mask", "mask_module",
                                         "mask_type") if "mask" in config else None
        for key in ("function", "output_shape", "mask"):
            config.pop(key, None)
        arguments = config.pop("arguments", None) or {}
        arguments = {k: np.array(v["value"]) if isinstance(v, dict) and v.get("type") ==
                     "ndarray" else v for k, v in arguments.items()}
        return cls(function, output_shape=output_shape, mask=mask, arguments=arguments,
                   **config)

    @staticmethod
    def _function_from_config(config, custom_objects, key, module_key, type_key):
        value, module = config[key], config.pop(module_key, None)
        kind = config.pop(type_key, "raw")
        if kind == "raw":
            return value
        if kind == "function":
            found = value if callable(value) else \
                serialization.get_registered_object(value, custom_objects)
            if found is None:
                raise ValueError(f"Unknown function in Lambda layer: {value!r}. Please ensure "
                                 f"you are using a `keras.utils.custom_object_scope` and that "
                                 f"this object is included in the scope.")
            return found
        if kind != "lambda":
            raise TypeError(f"Unknown function type received: {kind}. Expected types are "
                            f"['function', 'lambda', 'raw']")
        return serialization.function_from_bytecode(value, module, custom_objects,
                                                    "a Lambda layer", "Lambda layer")


@export("keras.layers.Embedding")
class Embedding(Layer):
    """Maps integer ids to dense vectors: ``Embedding(1000, 64)`` on (batch, length) ids."""

    def __init__(self, input_dim, output_dim, embeddings_initializer="uniform",
                 embeddings_regularizer=None, activity_regularizer=None,
                 embeddings_constraint=None, mask_zero=False, input_length=None,
                 sparse=False, **kwargs):
        if "input_shape" not in kwargs:
            kwargs["input_shape"] = (input_length,) if input_length else (None,)
        if input_dim <= 0 or output_dim <= 0:
            raise ValueError(f"Both `input_dim` and `output_dim` should be positive, Received "
                             f"input_dim = {input_dim} and output_dim = {output_dim}")
        kwargs.setdefault("autocast", False)  # ids stay integers
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        self.input_dim, self.output_dim = input_dim, output_dim
        weight_arguments.resolve(self, embeddings_initializer=embeddings_initializer,
                                 embeddings_regularizer=embeddings_regularizer,
                                 embeddings_constraint=embeddings_constraint)
        if sparse and mask_zero:
            raise ValueError("`mask_zero` cannot be enabled when `tf.keras.layers.Embedding` is "
                             "used with `tf.SparseTensor` input.")
        self.mask_zero, self.input_length, self.sparse = mask_zero, input_length, sparse
        self.supports_masking = mask_zero

    def build(self, input_shape=None):
        self.embeddings = self.add_weight(
            "embeddings", shape=(self.input_dim, self.output_dim),
            initializer=self.embeddings_initializer, regularizer=self.embeddings_regularizer,
            constraint=self.embeddings_constraint, experimental_autocast=False)
        self.built = True

    def call(self, inputs):
        """Rows of `embeddings` for dense or ragged ids (of any dtype, cast to int32 unless
        int32 or int64). For a SparseTensor of ids, as tf_keras: with `sparse`, a SparseTensor
        holding the rows of its entries; without, a dense result whose missing entries take
        row 0. With `sparse`, dense ids give the dense result as a SparseTensor (its zeros
        left out)."""
        if inputs.dtype not in (_dtypes.int32, _dtypes.int64):
            inputs = cast_ops.cast(inputs, _dtypes.int32)
        if isinstance(inputs, SparseTensor):
            if self.sparse:
                outputs = self._sparse_rows(inputs)
            else:
                outputs = sparse_ops.safe_embedding_lookup_sparse(
                    self.embeddings, sparse_ops.expand_dims(inputs, -1), default_id=0)
        else:
            outputs = array_ops.gather(self.embeddings, inputs)
            if self.sparse:
                outputs = from_dense(outputs)
        # The weights are the variable dtype (never read cast, as tf_keras has them): the
        # rows are cast to the compute dtype instead, the same values
        policy = self._dtype_policy
        if policy.compute_dtype != policy.variable_dtype:
            outputs = cast_ops.cast(outputs, policy.compute_dtype)
        return outputs

    def _sparse_rows(self, ids):
        """The SparseTensor of `ids`' rows: each entry's row along a new last axis."""
        width = self.output_dim
        values = array_ops.reshape(array_ops.gather(self.embeddings, ids.values), [-1])
        columns = array_ops.tile(array_ops.range(width, dtype=_dtypes.int64),
                                 array_ops.shape(ids.values, out_type=_dtypes.int64)[:1])
        indices = array_ops.concat([array_ops.repeat(ids.indices, width, axis=0),
                                    columns[:, None]], 1)
        shape = array_ops.concat([ids.dense_shape, [width]], 0)
        return SparseTensor(indices, values, shape)

    def compute_mask(self, inputs, mask=None):
        if not self.mask_zero:
            return None
        return math_ops.not_equal(inputs, 0)

    def compute_output_shape(self, input_shape):
        return TensorShape(input_shape).concatenate([self.output_dim])

    def get_config(self):
        config = super().get_config()
        config.update({
            "input_dim": self.input_dim, "output_dim": self.output_dim,
            **weight_arguments.config(self, ("embeddings",)), "mask_zero": self.mask_zero, "input_length": self.input_length})
        return config



@export("keras.layers.Identity")
class Identity(Layer):
    """Returns its inputs unchanged (each tensor of a structure through ``tf.identity``).

    >>> tf.keras.layers.Identity()(tf.constant([1.0])).numpy()
    array([1.], dtype=float32)
    """

    def __init__(self, trainable=True, name=None, **kwargs):
        super().__init__(trainable=trainable, name=name, **kwargs)

    def call(self, inputs):  # (no masking: an incoming mask stops here, as in Keras)
        return nest.map_structure(cast_ops.identity, inputs)

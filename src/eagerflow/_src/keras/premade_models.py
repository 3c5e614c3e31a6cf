"""Keras's premade models: `LinearModel` and `WideDeepModel` (``tf.keras.experimental``),
and the `SharpnessAwareMinimization` training wrapper (``tf.keras.models.experimental``).

A `LinearModel` is one `Dense` kernel per input (no bias of its own) summed, plus one bias,
then the activation. A `WideDeepModel` adds a linear model's output to a deep model's;
compiled with two optimizers, the first trains the linear model and the second the deep one.

>>> import numpy as np
>>> model = tf.keras.experimental.LinearModel(kernel_initializer="ones")
>>> model(np.array([[1.0, 2.0]], "float32")).numpy()
array([[3.]], dtype=float32)
"""
from eagerflow._src.autodiff.tape import GradientTape
from eagerflow._src.backend.api_export import export
from eagerflow._src.core import nest
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.keras import activations, initializers, layers, regularizers
from eagerflow._src.keras.engine.base_layer import Layer
from eagerflow._src.keras.engine.input_spec import InputSpec
from eagerflow._src.keras.engine.training import Model
from eagerflow._src.keras.layers.core import Dense
from eagerflow._src.keras.utils import serialization
from eagerflow._src.keras.utils.data_utils import unpack_x_y_sample_weight
from eagerflow._src.ops import array_ops, linalg_ops, math_ops, nn_ops


@export("keras.experimental.LinearModel", "compat.v1.keras.models.LinearModel")
class LinearModel(Model):
    """``activation(bias + sum_i x_i @ w_i)``: a linear model of one or more inputs.

    Given a dict of inputs, each key has its own kernel (a `Dense` layer named by the key,
    keys taken in sorted order); given a list, each position has one.

    >>> import numpy as np
    >>> model = tf.keras.experimental.LinearModel()
    >>> model.compile("sgd", "mse")
    >>> history = model.fit(np.ones((4, 2), "float32"), np.ones((4, 1), "float32"),
    ...                     verbose=0)
    >>> [w.shape for w in model.get_weights()]
    [(2, 1), (1,)]
    """

    _serialized_module = "keras.experimental"
    _serialized_registered_name = None

    def __init__(self, units=1, activation=None, use_bias=True, kernel_initializer="zeros",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None,
                 **kwargs):
        self.units = units
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        super().__init__(**kwargs)

    def _kernel(self, shape, name=None):
        layer = Dense(self.units, use_bias=False, kernel_initializer=self.kernel_initializer,
                      kernel_regularizer=self.kernel_regularizer, name=name)
        layer.build(shape)
        return layer

    def build(self, input_shape):
        if isinstance(input_shape, dict):
            names = sorted(input_shape)
            self.input_specs = [InputSpec(shape=input_shape[name], name=name)
                                for name in names]
            self.dense_layers = [self._kernel(input_shape[name], name) for name in names]
        elif isinstance(input_shape, (tuple, list)) and \
                all(isinstance(shape, TensorShape) for shape in input_shape):
            self.dense_layers = [self._kernel(shape) for shape in input_shape]
        else:
            self.dense_layers = [self._kernel(input_shape)]
        self.bias = self.add_weight("bias", shape=self.units,
                                    initializer=self.bias_initializer,
                                    regularizer=self.bias_regularizer, dtype=self.dtype,
                                    trainable=True) if self.use_bias else None
        self.built = True

    def call(self, inputs):
        if isinstance(inputs, dict):
            names = [layer.name for layer in self.dense_layers]
            missing = set(names) - set(inputs)
            if missing:
                raise ValueError(f"The `inputs` dictionary does not match the structure "
                                 f"expected by the model.\n\tExpected keys: {set(names)}"
                                 f"\n\tReceived keys: {set(inputs)}"
                                 f"\n\tMissing keys: {missing}")
            inputs = [inputs[name] for name in names]
        elif not isinstance(inputs, (tuple, list)):
            inputs = [inputs]
        result = None
        for value, layer in zip(inputs, self.dense_layers):
            output = layer(value)
            result = output if result is None else result + output
        if self.use_bias:
            result = nn_ops.bias_add(result, self.bias)
        if self.activation is not None:
            return self.activation(result)
        return result

    def get_config(self):
        config = {
            "units": self.units,
            "activation": activations.serialize(self.activation),
            "use_bias": self.use_bias,
            "kernel_initializer": initializers.serialize(self.kernel_initializer),
            "bias_initializer": initializers.serialize(self.bias_initializer),
            "kernel_regularizer": regularizers.serialize(self.kernel_regularizer),
            "bias_regularizer": regularizers.serialize(self.bias_regularizer),
        }
        return {**Layer.get_config(self), **config}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        return cls(**config)


@export("keras.experimental.WideDeepModel", "compat.v1.keras.models.WideDeepModel")
class WideDeepModel(Model):
    """The sum of a linear model's and a deep model's outputs, then `activation`.

    Called on a pair ``[linear_inputs, dnn_inputs]`` each model gets its own part; on
    anything else both get all of it. Compiled with ``optimizer=[linear_optimizer,
    dnn_optimizer]``, each optimizer trains its own model's weights.

    >>> import numpy as np
    >>> linear = tf.keras.experimental.LinearModel(kernel_initializer="ones")
    >>> dnn = tf.keras.Sequential([tf.keras.layers.Dense(1, kernel_initializer="ones")])
    >>> model = tf.keras.experimental.WideDeepModel(linear, dnn)
    >>> model.compile(optimizer=["sgd", "adam"], loss="mse")
    >>> model([np.ones((1, 2), "float32"), np.ones((1, 3), "float32")]).numpy()
    array([[5.]], dtype=float32)
    """

    _serialized_module = "keras.experimental"
    _serialized_registered_name = None

    def __init__(self, linear_model, dnn_model, activation=None, **kwargs):
        super().__init__(**kwargs)
        self.linear_model = linear_model
        self.dnn_model = dnn_model
        self.activation = activations.get(activation)

    def call(self, inputs, training=None):
        if isinstance(inputs, (tuple, list)) and len(inputs) == 2:
            linear_inputs, dnn_inputs = inputs
        else:
            linear_inputs = dnn_inputs = inputs
        linear_output = self.linear_model(linear_inputs)
        dnn_output = self.dnn_model(dnn_inputs, training=training)
        output = nest.map_structure(lambda a, b: a + b, linear_output, dnn_output)
        if self.activation:
            return nest.map_structure(self.activation, output)
        return output

    def train_step(self, data):
        x, y, sample_weight = unpack_x_y_sample_weight(data)
        with GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self.compiled_loss(y, y_pred, sample_weight,
                                      regularization_losses=self.losses)
        self.compiled_metrics.update_state(y, y_pred, sample_weight)
        if isinstance(self.optimizer, (list, tuple)):
            linear_vars = self.linear_model.trainable_variables
            dnn_vars = self.dnn_model.trainable_variables
            linear_grads, dnn_grads = tape.gradient(loss, (linear_vars, dnn_vars))
            self.optimizer[0].apply_gradients(zip(linear_grads, linear_vars))
            self.optimizer[1].apply_gradients(zip(dnn_grads, dnn_vars))
        else:
            variables = self.trainable_variables
            self.optimizer.apply_gradients(zip(tape.gradient(loss, variables), variables))
        return {metric.name: metric.result() for metric in self.metrics}

    def get_config(self):
        config = {
            "linear_model": serialization.serialize_keras_object(self.linear_model),
            "dnn_model": serialization.serialize_keras_object(self.dnn_model),
            "activation": activations.serialize(self.activation),
        }
        return {**Layer.get_config(self), **config}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        linear_model = layers.deserialize(config.pop("linear_model"), custom_objects)
        dnn_model = layers.deserialize(config.pop("dnn_model"), custom_objects)
        activation = activations.deserialize(config.pop("activation", None),
                                             custom_objects=custom_objects)
        return cls(linear_model=linear_model, dnn_model=dnn_model, activation=activation,
                   **config)


@export("keras.models.experimental.SharpnessAwareMinimization")
class SharpnessAwareMinimization(Model):
    """Trains `model` by sharpness-aware minimization (Foret et al., 2020): each step takes
    the gradient at the weights moved ``rho`` along the normalized gradient, then applies it
    at the original weights. With `num_batch_splits`, each part of the batch is perturbed on
    its own and the gradients summed.

    >>> import numpy as np
    >>> inner = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(2,))])
    >>> model = tf.keras.models.experimental.SharpnessAwareMinimization(inner, rho=0.1)
    >>> model.compile(optimizer="sgd", loss="mse")
    >>> history = model.fit(np.ones((4, 2)), np.ones((4, 1)), verbose=0)
    """

    _serialized_module = "keras.models.experimental"
    _serialized_registered_name = None

    def __init__(self, model, rho=0.05, num_batch_splits=None, name=None):
        super().__init__(name=name)
        self.model = model
        self.rho = rho
        self.num_batch_splits = num_batch_splits

    def train_step(self, data):
        x, y, sample_weight = unpack_x_y_sample_weight(data)
        if self.num_batch_splits is not None:
            parts = [array_ops.split(x, self.num_batch_splits),
                     array_ops.split(y, self.num_batch_splits),
                     [None] * self.num_batch_splits if sample_weight is None
                     else array_ops.split(sample_weight, self.num_batch_splits)]
        else:
            parts = [[x], [y], [sample_weight]]
        variables = self.model.trainable_variables
        summed, predictions = None, []
        for x_part, y_part, weight_part in zip(*parts):
            with GradientTape() as tape:
                pred = self(x_part)
                loss = self.compiled_loss(y_part, pred, weight_part)
            predictions.append(pred)
            gradients = tape.gradient(loss, variables)
            norm = linalg_ops.norm(array_ops.stack(
                [linalg_ops.norm(g) for g in gradients if g is not None]))
            scale = math_ops.truediv(self.rho, math_ops.add(norm, 1e-12))
            moves = [math_ops.multiply(g, scale) for g in gradients]
            for variable, move in zip(variables, moves):
                variable.assign_add(move)
            with GradientTape() as tape:
                pred = self(x_part, training=True)
                loss = self.compiled_loss(y_part, pred, weight_part)
            gradients = tape.gradient(loss, variables)
            summed = gradients if summed is None else \
                [math_ops.add(a, b) for a, b in zip(summed, gradients)]
            for variable, move in zip(variables, moves):
                variable.assign_sub(move)
        self.optimizer.apply_gradients(zip(summed, variables))
        self.compiled_metrics.update_state(y, array_ops.concat(predictions, axis=0),
                                           sample_weight)
        return {metric.name: metric.result() for metric in self.metrics}

    def call(self, inputs, **kwargs):
        return self.model(inputs, **kwargs)

    def get_config(self):
        return {"model": serialization.serialize_keras_object(self.model), "rho": self.rho}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        config["model"] = layers.deserialize(config.pop("model"), custom_objects)
        return cls(**config)

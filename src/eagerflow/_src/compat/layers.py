"""TF 1's layers (``tf.compat.v1.layers``): the Keras layers with TF 1's variable scoping.

In a v1 graph a layer makes its variables with `get_variable` in a variable
scope of its own (``dense/kernel:0``, then ``dense_1/...``; a `name` with
``reuse=True`` shares the variables of the layer of that name), builds its ops
in that scope's name scope, and adds the updates of its moving statistics
(batch normalization's) to the ``UPDATE_OPS`` collection, to be run with the
training step. Eagerly too their variables come from `get_variable` in their scope
(its names, and its initializer where the layer is given none); inside a `function`
they are the Keras layers.
The functions (`dense`, `conv2d`, ...) make a layer and call it once;
`dropout` and `batch_normalization` default to inference (``training=False``).

>>> g = tf.compat.v1.Graph()
>>> with g.as_default():
...     x = tf.compat.v1.placeholder(tf.float32, [None, 3])
...     y = tf.compat.v1.layers.dense(x, 2, kernel_initializer=tf.compat.v1.ones_initializer())
>>> [v.name for v in g.get_collection("variables")], y.name
(['dense/kernel:0', 'dense/bias:0'], 'dense/BiasAdd:0')
"""
import inspect
import os
import sys
import warnings

from eagerflow._src.backend.api_export import export
from eagerflow._src.compat import variable_scope as vs
from eagerflow._src.compat import graph_mode
from eagerflow._src.compat import init_ops_v1 as _v1_init
from eagerflow._src.compat.graph_mode import GraphKeys, v1_graph
from eagerflow._src.core import context
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core.module import _snake_case
from eagerflow._src.core.tensor import Tensor
from eagerflow._src.core.variables import VariableSynchronization
from eagerflow._src.graph import control_flow
from eagerflow._src.keras import backend as _backend
from eagerflow._src.keras import initializers as _initializers
from eagerflow._src.keras import regularizers as _regularizers
from eagerflow._src.keras.engine import base_layer, input_spec
from eagerflow._src.keras.layers import convolutional, core, normalization, pooling
from eagerflow._src.ops import cast_ops as _cast_ops
from eagerflow._src.ops import math_ops as _math_ops

# The ops of a layer's call that update one of its variables: its ``updates``.
_UPDATES = frozenset({"AssignVariableOp", "AssignSubVariableOp", "AssignAddVariableOp"})


class _Scoped:
    """What TF 1's layers add to a Keras layer: variables from `get_variable` in the
    layer's variable scope, ops in its name scope, updates collected (in v1 graphs)."""

    # {parameter: position}: the initializers TF 1's layers leave to `get_variable` by default
    # (the variable scope's initializer, else Glorot uniform); see `_layer`
    _scope_initialized = {}

    def __init__(self, *args, **kwargs):
        for key, position in self._scope_initialized.items():
            if key not in kwargs and len(args) <= position:
                kwargs[key] = None
        self._reuse = kwargs.pop("_reuse", None)
        scope = kwargs.pop("_scope", None)
        name = kwargs.get("name")
        super().__init__(*args, **kwargs)
        self._base_name = name if isinstance(name, str) and name else (
            type(self).__dict__.get("_DEFAULT_NAME") or _snake_case(type(self).__name__))
        self._scope = None
        self._v1_graph = None  # the graph a call builds into, while it runs
        self._v1_updates = []
        if scope is not None and v1_graph() is not None:
            with vs.variable_scope(scope) as captured:
                self._scope = captured

    def _init_set_name(self, name):
        # TF 1's layers number their default names from one ("dense_1", "dense_2"), on the
        # counter Keras layers count theirs from zero on: both advance it.
        if name is None:
            base = type(self).__dict__.get("_DEFAULT_NAME") or _snake_case(type(self).__name__)
            name = _backend.unique_object_name(base, zero_based=False)
        super()._init_set_name(name)

    @property
    def scope_name(self):
        if self._scope is None:
            raise ValueError("No name available for layer scope because the layer \"" +
                             self._name + "\" has not been used yet. The scope name " +
                             " is determined the first time the layer instance is " +
                             "called. You must therefore call the layer before " +
                             "querying `scope_name`.")
        return self._scope.name

    @property
    def updates(self):
        """The update operations of the calls so far (moving statistics)."""
        return list(self._v1_updates)

    def __call__(self, inputs, *args, **kwargs):
        scope_name = kwargs.pop("scope", None)
        graph = v1_graph()
        if graph is None:
            if vs.shim_store() is None and not context.executing_eagerly():
                return super().__call__(inputs, *args, **kwargs)  # (in a function: Keras's)
            # (eagerly as in a graph: the scope's names and initializer)
            return self._shim_call(scope_name, inputs, args, kwargs)
        self._enter_scope(scope_name)
        start = len(graph.get_operations())
        with vs.variable_scope(self._scope, reuse=True if self.built else self._reuse,
                               auxiliary_name_scope=False):
            self._v1_graph = graph
            try:
                outputs = super().__call__(inputs, *args, **kwargs)
            finally:
                self._v1_graph = None
        handles = {id(v._handle) for v in self.weights}
        initializers = {id(v.initializer) for v in self.weights}
        for op in graph.get_operations()[start:]:
            if op.type in _UPDATES and id(op) not in initializers and \
                    id(getattr(op.inputs[0], "_handle", None)) in handles:
                self._v1_updates.append(op)
                graph.add_to_collection(GraphKeys.UPDATE_OPS, op)
        return outputs

    def _enter_scope(self, scope_name):
        """Makes the layer's variable scope on its first call (TF 1's naming)."""
        if self._scope is None:
            if self._reuse:
                opened = vs.variable_scope(scope_name if scope_name is not None
                                           else self._base_name)
            else:
                opened = vs.variable_scope(scope_name, default_name=self._base_name)
            with opened as captured:
                self._scope = captured

    def _shim_call(self, scope_name, inputs, args, kwargs):
        """Eagerly inside a ``track_tf1_style_variables`` method: the variables come from
        `get_variable` in the layer's scope, kept (and reused) by the method's store."""
        self._enter_scope(scope_name)
        with vs.variable_scope(self._scope, reuse=True if self.built else self._reuse,
                               auxiliary_name_scope=False):
            self._in_shim = True
            try:
                return super().__call__(inputs, *args, **kwargs)
            finally:
                self._in_shim = False

    def _call_name_scope(self):
        if self._v1_graph is None:
            return super()._call_name_scope()
        return self._scope.original_name_scope

    def add_weight(self, name=None, shape=None, dtype=None, initializer=None, regularizer=None,
                   trainable=None, constraint=None, partitioner=None, use_resource=None,
                   synchronization=VariableSynchronization.AUTO, aggregation=None, **kwargs):
        """A variable of this layer: in a v1 graph, `get_variable`'s ``<scope>/<name>``."""
        graph = self._v1_graph
        if graph is None and not getattr(self, "_in_shim", False):
            return super().add_weight(name, shape, dtype, initializer, regularizer, trainable,
                                      constraint, use_resource, synchronization, aggregation,
                                      **kwargs)
        dtype = _d.as_dtype(dtype or self.dtype or _backend.floatx())
        if synchronization == VariableSynchronization.ON_READ:
            trainable = False
        elif trainable is None:
            trainable = True
        trainable = trainable and self.trainable
        if initializer is not None:
            initializer = _initializers.get(initializer)
            if not graph_mode.tf2_enabled():
                # Keras's initializers are TF 1's once TF 2's behaviour is off: they draw
                # from the graph's seed sequence
                initializer = _v1_init.from_keras(initializer)
        if graph is None:  # (in a shim: the variable is its store's; the loss the layer's too)
            regularizer = _regularizers.get(regularizer)
            variable = vs.get_variable(name, shape, dtype, initializer, regularizer,
                                       trainable=trainable, constraint=constraint,
                                       partitioner=partitioner)
            if regularizer is not None and not any(
                    variable is w for w in self._trainable_weights + self._non_trainable_weights):
                self._callable_losses.append(lambda: regularizer(variable))
        else:
            # (Keras builds under `init_scope`, outside the graph: the variable belongs in it)
            with context.building(graph):
                variable = vs.get_variable(name, shape, dtype, initializer, regularizer,
                                           trainable=trainable, constraint=constraint,
                                           partitioner=partitioner)
        weights = self._trainable_weights if trainable else self._non_trainable_weights
        if all(variable is not w for w in weights):
            weights.append(variable)
        return variable

    add_variable = add_weight


def _layer(name, keras_class, doc):
    parameters = list(inspect.signature(keras_class.__init__).parameters)[1:]
    scope_initialized = {key: parameters.index(key) for key in (
        "kernel_initializer", "depthwise_initializer", "pointwise_initializer")
        if key in parameters}
    cls = type(name, (_Scoped, keras_class), {"__doc__": doc, "__module__": __name__,
                                               "_scope_initialized": scope_initialized})
    return export(f"compat.v1.layers.{name}")(cls)


Layer = _layer("Layer", base_layer.Layer, "The base of TF 1's layers: a Keras `Layer` whose "
                                          "variables come from `get_variable` in a v1 graph.")
Dense = _layer("Dense", core.Dense, "TF 1's densely connected layer.")
Flatten = _layer("Flatten", core.Flatten, "TF 1's flattening layer.")
Conv1D = _layer("Conv1D", convolutional.Conv1D, "TF 1's 1-D convolution layer.")
Conv2D = _layer("Conv2D", convolutional.Conv2D, "TF 1's 2-D convolution layer.")
Conv3D = _layer("Conv3D", convolutional.Conv3D, "TF 1's 3-D convolution layer.")
Conv2DTranspose = _layer("Conv2DTranspose", convolutional.Conv2DTranspose,
                         "TF 1's transposed 2-D convolution layer.")
Conv3DTranspose = _layer("Conv3DTranspose", convolutional.Conv3DTranspose,
                         "TF 1's transposed 3-D convolution layer.")
SeparableConv1D = _layer("SeparableConv1D", convolutional.SeparableConv1D,
                         "TF 1's depthwise separable 1-D convolution layer.")
SeparableConv2D = _layer("SeparableConv2D", convolutional.SeparableConv2D,
                         "TF 1's depthwise separable 2-D convolution layer.")
MaxPooling1D = _layer("MaxPooling1D", pooling.MaxPooling1D, "TF 1's 1-D max pooling layer.")
MaxPooling2D = _layer("MaxPooling2D", pooling.MaxPooling2D, "TF 1's 2-D max pooling layer.")
MaxPooling3D = _layer("MaxPooling3D", pooling.MaxPooling3D, "TF 1's 3-D max pooling layer.")
AveragePooling1D = _layer("AveragePooling1D", pooling.AveragePooling1D,
                          "TF 1's 1-D average pooling layer.")
AveragePooling2D = _layer("AveragePooling2D", pooling.AveragePooling2D,
                          "TF 1's 2-D average pooling layer.")
AveragePooling3D = _layer("AveragePooling3D", pooling.AveragePooling3D,
                          "TF 1's 3-D average pooling layer.")
InputSpec = input_spec.InputSpec
export("compat.v1.layers.InputSpec").export_constant(__name__, "InputSpec")


def _inference_by_default(keras_class):
    """``call`` with TF 1's default ``training=False``."""
    def call(self, inputs, training=False):
        return keras_class.call(self, inputs, training=training)
    return call


Dropout = _layer("Dropout", core.Dropout, "TF 1's dropout layer (inference by default).")
Dropout.call = _inference_by_default(core.Dropout)
BatchNormalization = _layer("BatchNormalization", normalization.BatchNormalizationV1,
                            "TF 1's batch normalization layer (inference by default); in a "
                            "graph its moving-statistics updates join ``UPDATE_OPS``.")


def _batch_norm_call(self, inputs, training=False):
    """With `training` a tensor in a v1 graph, as TF 1's layer: the output by a cond of
    the batch or the moving statistics, and the moving statistics' updates by ops of their
    own (its `updates`, in ``UPDATE_OPS``): run, they change the statistics only where
    `training` holds."""
    if v1_graph() is None or not isinstance(training, Tensor):
        return normalization.BatchNormalization.call(self, inputs, training=training)
    if self._frozen_v1():  # (the batch's statistics while training; nothing to update)
        return control_flow.cond(training, lambda: self._normalize(inputs, None, True),
                                 lambda: self._normalize(inputs, None, False))
    # (with `renorm`, the moving deviation and the renormalization's averages too)
    moving = tuple(v for v in (getattr(self, name, None) for name in (
        "moving_mean", "moving_variance", "moving_stddev", "renorm_mean", "renorm_stddev"))
        if v is not None)

    def trained():
        self._new_moving = {}
        try:
            y = self._normalize(inputs, None, True)
            return (y, *(self._new_moving[id(v)] for v in moving))
        finally:
            self._new_moving = None

    def inferred():
        return (self._normalize(inputs, None, False), *(v.read_value() for v in moving))
    y, *values = control_flow.cond(training, trained, inferred)
    for variable, value in zip(moving, values):  # (where not training: its own value)
        variable.assign(value)
    return y


def _assign_new_value(self, variable, value):
    if getattr(self, "_new_moving", None) is None:
        return normalization.BatchNormalization._assign_new_value(self, variable, value)
    self._new_moving[id(variable)] = value  # (assigned by `_batch_norm_call`)
    return None


def _assign_moving_average(self, variable, value, momentum=None):
    if getattr(self, "_new_moving", None) is None:
        return normalization.BatchNormalization._assign_moving_average(self, variable, value,
                                                                       momentum)
    current = variable.read_value()
    decay = _cast_ops.cast(1.0 - (self.momentum if momentum is None else momentum),
                           variable.dtype)
    self._new_moving[id(variable)] = _math_ops.subtract(current, _math_ops.multiply(
        _math_ops.subtract(current, _cast_ops.cast(value, variable.dtype)), decay))
    return None


BatchNormalization.call = _batch_norm_call
BatchNormalization._assign_new_value = _assign_new_value
BatchNormalization._assign_moving_average = _assign_moving_average


# -- the functions: one layer made and called ------------------------------------------
def _zeros():
    return vs.zeros_initializer()


_PACKAGE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _deprecated(name, replacement, verb="use", more=""):
    """tf_keras's warning that ``tf.layers.<name>`` is deprecated for a Keras layer, shown
    at the line of the program that called it."""
    frame, level = sys._getframe(1), 2
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        frame, level = frame.f_back, level + 1
    warnings.warn(f"`tf.layers.{name}` is deprecated and will be removed in a future version. "
                  f"Please {verb} `tf.keras.layers.{replacement}` instead.{more}",
                  stacklevel=level)


@export("compat.v1.layers.dense")
def dense(inputs, units, activation=None, use_bias=True, kernel_initializer=None,
          bias_initializer=None, kernel_regularizer=None, bias_regularizer=None,
          activity_regularizer=None, kernel_constraint=None, bias_constraint=None,
          trainable=True, name=None, reuse=None):
    """``activation(inputs @ kernel + bias)`` by a new `Dense` layer."""
    _deprecated("dense", "Dense")
    layer = Dense(units, activation=activation, use_bias=use_bias,
                  kernel_initializer=kernel_initializer,
                  bias_initializer=bias_initializer or _zeros(),
                  kernel_regularizer=kernel_regularizer, bias_regularizer=bias_regularizer,
                  activity_regularizer=activity_regularizer,
                  kernel_constraint=kernel_constraint, bias_constraint=bias_constraint,
                  trainable=trainable, name=name, _scope=name, _reuse=reuse)
    return layer(inputs)


def _conv_output(cls, function_name, inputs, filters, kernel_size, bias_initializer, name, reuse,
                 **options):
    """The output of a new layer of class `cls` (the function `function_name` makes it)
    called on `inputs`; TF 1's layers add a zero bias by default."""
    _deprecated(function_name, cls.__name__, verb="Use")  # (tf_keras's 'Please Use' for these)
    layer = cls(filters, kernel_size, bias_initializer=bias_initializer or _zeros(), name=name,
                _scope=name, _reuse=reuse, **options)
    return layer(inputs)


def _conv_function(cls, rank, function_name):
    """TF 1's function making a convolution layer of class `cls`, with its parameters in TF
    1's order: transposed convolutions take no `dilation_rate`, separable ones take
    `depth_multiplier` after it, then their depthwise and pointwise options."""
    one = 1 if rank == 1 else (1,) * rank

    def conv(inputs, filters, kernel_size, strides=one, padding="valid",
             data_format="channels_last", dilation_rate=one, activation=None, use_bias=True,
             kernel_initializer=None, bias_initializer=None, kernel_regularizer=None,
             bias_regularizer=None, activity_regularizer=None, kernel_constraint=None,
             bias_constraint=None, trainable=True, name=None, reuse=None):
        return _conv_output(
            cls, function_name, inputs, filters, kernel_size, bias_initializer, name, reuse,
            strides=strides, padding=padding, data_format=data_format,
            dilation_rate=dilation_rate, activation=activation, use_bias=use_bias,
            kernel_initializer=kernel_initializer, kernel_regularizer=kernel_regularizer,
            bias_regularizer=bias_regularizer, activity_regularizer=activity_regularizer,
            kernel_constraint=kernel_constraint, bias_constraint=bias_constraint,
            trainable=trainable)

    def conv_transpose(inputs, filters, kernel_size, strides=one, padding="valid",
                       data_format="channels_last", activation=None, use_bias=True,
                       kernel_initializer=None, bias_initializer=None, kernel_regularizer=None,
                       bias_regularizer=None, activity_regularizer=None, kernel_constraint=None,
                       bias_constraint=None, trainable=True, name=None, reuse=None):
        return _conv_output(
            cls, function_name, inputs, filters, kernel_size, bias_initializer, name, reuse,
            strides=strides, padding=padding, data_format=data_format, activation=activation,
            use_bias=use_bias, kernel_initializer=kernel_initializer,
            kernel_regularizer=kernel_regularizer, bias_regularizer=bias_regularizer,
            activity_regularizer=activity_regularizer, kernel_constraint=kernel_constraint,
            bias_constraint=bias_constraint, trainable=trainable)

    def separable_conv(inputs, filters, kernel_size, strides=one, padding="valid",
                       data_format="channels_last", dilation_rate=one, depth_multiplier=1,
                       activation=None, use_bias=True, depthwise_initializer=None,
                       pointwise_initializer=None, bias_initializer=None,
                       depthwise_regularizer=None, pointwise_regularizer=None,
                       bias_regularizer=None, activity_regularizer=None,
                       depthwise_constraint=None, pointwise_constraint=None,
                       bias_constraint=None, trainable=True, name=None, reuse=None):
        return _conv_output(
            cls, function_name, inputs, filters, kernel_size, bias_initializer, name, reuse,
            strides=strides, padding=padding, data_format=data_format,
            dilation_rate=dilation_rate, depth_multiplier=depth_multiplier,
            activation=activation, use_bias=use_bias,
            depthwise_initializer=depthwise_initializer,
            pointwise_initializer=pointwise_initializer,
            depthwise_regularizer=depthwise_regularizer,
            pointwise_regularizer=pointwise_regularizer, bias_regularizer=bias_regularizer,
            activity_regularizer=activity_regularizer,
            depthwise_constraint=depthwise_constraint,
            pointwise_constraint=pointwise_constraint, bias_constraint=bias_constraint,
            trainable=trainable)

    fn = (separable_conv if function_name.startswith("separable") else
          conv_transpose if function_name.endswith("transpose") else conv)
    fn.__name__ = fn.__qualname__ = function_name
    fn.__doc__ = f"The output of a new `{cls.__name__}` layer called on `inputs`."
    return fn


_conv2d = _conv_function(Conv2D, 2, "conv2d")


@export("compat.v1.layers.conv2d")
def conv2d(inputs, filters, kernel_size, strides=(1, 1), padding="valid",
           data_format="channels_last", dilation_rate=(1, 1), activation=None, use_bias=True,
           kernel_initializer=None, bias_initializer=None, kernel_regularizer=None,
           bias_regularizer=None, activity_regularizer=None, kernel_constraint=None,
           bias_constraint=None, trainable=True, name=None, reuse=None):
    """2-D convolution by a new `Conv2D` layer."""
    return _conv2d(inputs, filters, kernel_size, strides, padding, data_format, dilation_rate,
                   activation, use_bias, kernel_initializer, bias_initializer,
                   kernel_regularizer, bias_regularizer, activity_regularizer,
                   kernel_constraint, bias_constraint, trainable, name, reuse)


conv1d = export("compat.v1.layers.conv1d")(_conv_function(Conv1D, 1, "conv1d"))
conv3d = export("compat.v1.layers.conv3d")(_conv_function(Conv3D, 3, "conv3d"))
conv2d_transpose = export("compat.v1.layers.conv2d_transpose")(
    _conv_function(Conv2DTranspose, 2, "conv2d_transpose"))
conv3d_transpose = export("compat.v1.layers.conv3d_transpose")(
    _conv_function(Conv3DTranspose, 3, "conv3d_transpose"))
separable_conv1d = export("compat.v1.layers.separable_conv1d")(
    _conv_function(SeparableConv1D, 1, "separable_conv1d"))
separable_conv2d = export("compat.v1.layers.separable_conv2d")(
    _conv_function(SeparableConv2D, 2, "separable_conv2d"))


def _pool_function(cls, function_name):
    def pool(inputs, pool_size, strides, padding="valid", data_format="channels_last",
             name=None):
        _deprecated(function_name, cls.__name__)
        return cls(pool_size, strides, padding=padding, data_format=data_format,
                   name=name)(inputs)
    pool.__name__ = pool.__qualname__ = function_name
    pool.__doc__ = f"The output of a new `{cls.__name__}` layer called on `inputs`."
    return export(f"compat.v1.layers.{function_name}")(pool)


max_pooling1d = _pool_function(MaxPooling1D, "max_pooling1d")
max_pooling2d = _pool_function(MaxPooling2D, "max_pooling2d")
max_pooling3d = _pool_function(MaxPooling3D, "max_pooling3d")
average_pooling1d = _pool_function(AveragePooling1D, "average_pooling1d")
average_pooling2d = _pool_function(AveragePooling2D, "average_pooling2d")
average_pooling3d = _pool_function(AveragePooling3D, "average_pooling3d")


@export("compat.v1.layers.flatten")
def flatten(inputs, name=None, data_format="channels_last"):
    """`inputs` flattened to ``[batch, -1]`` by a new `Flatten` layer."""
    _deprecated("flatten", "Flatten")
    return Flatten(name=name, data_format=data_format)(inputs)


@export("compat.v1.layers.dropout")
def dropout(inputs, rate=0.5, noise_shape=None, seed=None, training=False, name=None):
    """Dropout of `rate` while `training` (else `inputs` unchanged)."""
    _deprecated("dropout", "Dropout")
    return Dropout(rate, noise_shape=noise_shape, seed=seed, name=name)(inputs,
                                                                        training=training)


@export("compat.v1.layers.batch_normalization")
def batch_normalization(inputs, axis=-1, momentum=0.99, epsilon=1e-3, center=True, scale=True,
                        beta_initializer=None, gamma_initializer=None,
                        moving_mean_initializer=None, moving_variance_initializer=None,
                        beta_regularizer=None, gamma_regularizer=None, beta_constraint=None,
                        gamma_constraint=None, training=False, trainable=True, name=None,
                        reuse=None, renorm=False, renorm_clipping=None, renorm_momentum=0.99,
                        fused=None, virtual_batch_size=None, adjustment=None):
    """Batch normalization by a new `BatchNormalization` layer; while `training`, its
    moving-statistics updates join ``UPDATE_OPS`` (run them with the training step)."""
    _deprecated("batch_normalization", "BatchNormalization", more=(
        " In particular, `tf.control_dependencies(tf.GraphKeys.UPDATE_OPS)` should not be "
        "used (consult the `tf.keras.layers.BatchNormalization` documentation)."))
    layer = BatchNormalization(
        axis=axis, momentum=momentum, epsilon=epsilon, center=center, scale=scale,
        beta_initializer=beta_initializer or "zeros",
        gamma_initializer=gamma_initializer or "ones",
        moving_mean_initializer=moving_mean_initializer or "zeros",
        moving_variance_initializer=moving_variance_initializer or "ones",
        beta_regularizer=beta_regularizer, gamma_regularizer=gamma_regularizer,
        beta_constraint=beta_constraint, gamma_constraint=gamma_constraint, renorm=renorm,
        renorm_clipping=renorm_clipping, renorm_momentum=renorm_momentum, fused=fused,
        virtual_batch_size=virtual_batch_size, adjustment=adjustment, trainable=trainable,
        name=name, _scope=name, _reuse=reuse)
    return layer(inputs, training=training)


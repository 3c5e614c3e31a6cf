"""Normalization layers: BatchNormalization, LayerNormalization, GroupNormalization and
UnitNormalization.

Batch and layer normalization over one axis (or trailing axes) run the fused
``FusedBatchNormV3`` kernel: one reduction per statistic and a closed-form gradient.

>>> layer = tf.keras.layers.BatchNormalization(epsilon=0.0)
>>> layer(tf.constant([[1.0], [3.0]]), training=True).numpy().ravel()
array([-1.,  1.], dtype=float32)
>>> [w.name for w in layer.weights]  # doctest: +NORMALIZE_WHITESPACE
['batch_normalization/gamma:0', 'batch_normalization/beta:0',
 'batch_normalization/moving_mean:0', 'batch_normalization/moving_variance:0']
"""
import contextlib
import math
import warnings

from eagerflow._src.backend import log as _log
from eagerflow._src.backend.api_export import export
from eagerflow._src.core import context
from eagerflow._src.core import dtypes as _dtypes
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.core.tensor import EagerTensor, Tensor
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.core.variables import VariableAggregation, VariableSynchronization
from eagerflow._src.graph import control_flow
from eagerflow._src.ops import array_ops, cast_ops, math_ops, nn_ops, reduction_ops
from eagerflow._src.ops.fused_batch_norm_ops import fused_batch_norm_v3
from eagerflow._src.keras import backend
from eagerflow._src.keras.layers import weight_arguments
from eagerflow._src.keras.engine.base_layer import Layer
from eagerflow._src.keras.engine.input_spec import InputSpec

_HALF = (_dtypes.float16, _dtypes.bfloat16)
# (rank, normalized axis) -> the kernel's data format for inputs it takes as they are
_DATA_FORMATS = {(4, 1): "NCHW", (4, 3): "NHWC", (5, 1): "NCDHW", (5, 4): "NDHWC"}


def _axis_argument(axis, as_list=True):
    """`axis` as given to a constructor: an int, or a list (else a copy) of ints."""
    if isinstance(axis, (list, tuple)):
        return list(axis) if as_list else axis[:]
    if isinstance(axis, int):
        return axis
    raise TypeError(f"Expected an int or a list/tuple of ints for the argument 'axis', but "
                    f"received: {axis!r}")


def validate_axis(axis, input_shape):
    """`axis` (an int or ints, maybe negative) as a list of axes of `input_shape`, checked."""
    rank = TensorShape(input_shape).rank
    if not rank:
        raise ValueError(f"Input has undefined rank. Received: input_shape={input_shape}")
    axes = [a + rank if a < 0 else a for a in ([axis] if isinstance(axis, int) else axis)]
    for a in axes:
        if not 0 <= a < rank:
            raise ValueError(f"Invalid value for `axis` argument. Expected 0 <= axis < "
                             f"inputs.rank (with inputs.rank={rank}). Received: "
                             f"axis={tuple(axes)}")
    if len(axes) != len(set(axes)):
        raise ValueError(f"Duplicate axis: {tuple(axes)}")
    return axes


def _static_or_dynamic_shape(x):
    return x.shape.as_list() if x.shape.is_fully_defined() else array_ops.shape(x)


def _read(weight):
    """`weight` (or None) as a tensor of its own dtype.

    Layers under a mixed policy read float weights in their compute dtype; the
    statistics and affine parameters are used in float32, as Keras 2's
    ``experimental_autocast=False`` weights are.
    """
    return None if weight is None else convert_to_tensor(weight, weight.dtype)


class _AffineNormalization(Layer):
    """What batch, layer and group normalization share: epsilon, gamma, beta and the config.

    `_CONFIG_HEAD` names the attributes the config lists before epsilon, and
    `_MORE_INITIALIZERS` those listed after gamma's initializer, as Keras 2 orders them.
    """

    _CONFIG_HEAD = ("axis",)
    _MORE_INITIALIZERS = ()

    def __init__(self, epsilon, center, scale, beta_initializer, gamma_initializer,
                 beta_regularizer, gamma_regularizer, beta_constraint, gamma_constraint,
                 **kwargs):
        super().__init__(**kwargs)
        self.epsilon, self.center, self.scale = epsilon, center, scale
        weight_arguments.resolve(
            self, beta_initializer=beta_initializer, gamma_initializer=gamma_initializer,
            beta_regularizer=beta_regularizer, gamma_regularizer=gamma_regularizer,
            beta_constraint=beta_constraint, gamma_constraint=gamma_constraint)
        self.supports_masking = True

    def _add_gamma_beta(self, shape, dtype=None, autocast=False):
        self.gamma = self.add_weight(
            "gamma", shape=shape, dtype=dtype, initializer=self.gamma_initializer,
            regularizer=self.gamma_regularizer, constraint=self.gamma_constraint,
            trainable=True, experimental_autocast=autocast) if self.scale else None
        self.beta = self.add_weight(
            "beta", shape=shape, dtype=dtype, initializer=self.beta_initializer,
            regularizer=self.beta_regularizer, constraint=self.beta_constraint,
            trainable=True, experimental_autocast=autocast) if self.center else None

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        config = super().get_config()
        config.update({key: getattr(self, key) for key in self._CONFIG_HEAD})
        config.update({"epsilon": self.epsilon, "center": self.center, "scale": self.scale})
        for key in ("beta_initializer", "gamma_initializer") + self._MORE_INITIALIZERS + (
                "beta_regularizer", "gamma_regularizer", "beta_constraint", "gamma_constraint"):
            config[key] = weight_arguments.serialize(key, getattr(self, key))
        return config


@export("keras.layers.BatchNormalization")
class BatchNormalization(_AffineNormalization):
    """Normalizes each feature of `axis` by batch statistics while training, moving ones after.

    Training: ``gamma * (x - mean(x)) / sqrt(var(x) + epsilon) + beta`` with the batch
    mean and variance, which also update ``moving = momentum * moving + (1 - momentum) *
    batch``; inference (the default, and always when ``trainable=False``) uses the moving
    statistics. As in Keras 2, 4-D/5-D inputs normalized over their channel axis
    (``fused``) move the variance with its Bessel-corrected batch value. ``renorm`` (batch
    renormalization), ``virtual_batch_size`` (statistics per virtual batch) and
    ``adjustment`` (a training-time scale and offset) take Keras 2's unfused path, as does
    training any layer not ``fused``.

    >>> layer = tf.keras.layers.BatchNormalization(momentum=0.5)
    >>> _ = layer(tf.constant([[0.0], [2.0]]), training=True)
    >>> float(layer.moving_mean[0]), float(layer.moving_variance[0])
    (0.5, 1.0)
    """

    # (TF 2's behaviour: frozen, ``trainable=False``, it runs in inference mode; TF 1's
    # layers, `BatchNormalizationV1`, still take the batch's statistics while training)
    _frozen_infers = True

    _CONFIG_HEAD = ("axis", "momentum")
    _MORE_INITIALIZERS = ("moving_mean_initializer", "moving_variance_initializer")

    def __init__(self, axis=-1, momentum=0.99, epsilon=1e-3, center=True, scale=True,
                 beta_initializer="zeros", gamma_initializer="ones",
                 moving_mean_initializer="zeros", moving_variance_initializer="ones",
                 beta_regularizer=None, gamma_regularizer=None, beta_constraint=None,
                 gamma_constraint=None, renorm=False, renorm_clipping=None,
                 renorm_momentum=0.99, fused=None, trainable=True, virtual_batch_size=None,
                 adjustment=None, name=None, synchronized=False, **kwargs):
        super().__init__(epsilon, center, scale, beta_initializer, gamma_initializer,
                         beta_regularizer, gamma_regularizer, beta_constraint, gamma_constraint,
                         name=name, trainable=trainable, **kwargs)
        self.axis = _axis_argument(axis, as_list=False)  # Keras 2 keeps a tuple a tuple
        if synchronized and fused:
            raise ValueError("`fused=True` is not supported when `synchronized=True`.")
        self.synchronized = synchronized
        if synchronized:  # as in Keras 2: the per-replica (unfused) computation
            fused = False
        self.momentum = momentum
        weight_arguments.resolve(self, moving_mean_initializer=moving_mean_initializer,
                                 moving_variance_initializer=moving_variance_initializer)
        self.renorm = renorm
        self.virtual_batch_size = virtual_batch_size
        self.adjustment = adjustment
        if fused:
            self._raise_if_fused_cannot_be_used()
        elif fused is None and not self._fused_can_be_used():
            fused = False
        self.fused = fused
        if renorm:
            renorm_clipping = renorm_clipping or {}
            keys = ["rmax", "rmin", "dmax"]
            if set(renorm_clipping) - set(keys):
                raise ValueError(f"Received invalid keys for `renorm_clipping` argument: "
                                 f"{renorm_clipping}. Supported values: {keys}.")
            self.renorm_clipping = renorm_clipping
            self.renorm_momentum = renorm_momentum

    # `fused` decides Keras 2's semantics (which variance the moving one follows) and, while
    # training, the computation: an unfused layer's moments are ops, as Keras 2's (for their
    # second derivatives); every other single-axis normalization runs the fused kernel.
    def _raise_if_fused_cannot_be_used(self):
        if self.renorm:
            raise ValueError("Passing both `fused=True` and `renorm=True` is not supported")
        axis = [self.axis] if isinstance(self.axis, int) else self.axis
        if len(axis) > 1 or axis[0] not in (-4, -3, -1, 1, 3, 4):
            raise ValueError(f"Passing `fused=True` is only supported when axis is 1 or 3 for "
                             f"input rank = 4 or 1 or 4 for input rank = 5. Got axis "
                             f"{tuple(axis)}")
        for option in ("virtual_batch_size", "adjustment"):
            if getattr(self, option) is not None:
                raise ValueError(f"Passing `fused=True` is not supported when `{option}` is "
                                 f"specified.")
        if self.compute_dtype not in ("float16", "bfloat16", "float32", None):
            raise ValueError(f"Passing `fused=True` is only supported when the compute dtype "
                             f"is float16, bfloat16, or float32. Got dtype: "
                             f"{self.compute_dtype}")

    def _fused_can_be_used(self):
        try:
            self._raise_if_fused_cannot_be_used()
        except ValueError:
            return False
        return True

    @property
    def _param_dtype(self):
        dtype = _dtypes.as_dtype(self.dtype or backend.floatx())
        return _dtypes.float32 if dtype in _HALF else dtype

    def build(self, input_shape):
        self.axis = validate_axis(self.axis, input_shape)
        input_shape = TensorShape(input_shape)
        rank = input_shape.rank
        if self.virtual_batch_size is not None:
            if self.virtual_batch_size <= 0:
                raise ValueError(f"`virtual_batch_size` must be a positive integer that divides "
                                 f"the true batch size of the input tensor. Received: "
                                 f"virtual_batch_size={self.virtual_batch_size}")
            if 0 in self.axis:
                raise ValueError(f"When using `virtual_batch_size`, the batch dimension must be "
                                 f"0 and thus axis cannot include 0. Received axis={self.axis}")
            if self.adjustment is not None:
                raise ValueError("When using `virtual_batch_size`, adjustment cannot be "
                                 "specified")
        if self.fused is None:
            self.fused = rank in (4, 5)
        elif self.fused and rank not in (4, 5):
            raise ValueError(f"Batch normalization layers with `fused=True` only support 4D or "
                             f"5D input tensors. Received tensor with shape: "
                             f"{tuple(input_shape.as_list())}")
        if self.fused and self.axis not in ([1], [rank - 1]):
            if rank == 5:
                self.fused = False
            else:
                raise ValueError(f"Unsupported axis. The use of `fused=True` is only possible "
                                 f"with `axis=1` or `axis=3` for 4D input tensors. Received: "
                                 f"axis={tuple(self.axis)}")
        dims = {a: input_shape[a] for a in self.axis}
        if None in dims.values():
            raise ValueError(f"Input has undefined `axis` dimension. Received input with shape "
                             f"{tuple(input_shape.as_list())} and axis={tuple(self.axis)}")
        self.input_spec = InputSpec(ndim=rank, axes=dims)
        if len(dims) == 1 and self.virtual_batch_size is None:
            self._param_shape = (dims[self.axis[0]],)
        else:
            self._param_shape = tuple(dims.get(i, 1) for i in range(rank))
            if self.virtual_batch_size is not None:
                # the statistics of each virtual batch: inputs gain an axis 1 (see _normalize)
                self._param_shape = self._param_shape[:1] + (1,) + self._param_shape[1:]
                self.axis = [a + 1 for a in self.axis]
        self._add_gamma_beta(self._param_shape, self._param_dtype)
        statistics = [("moving_mean", self.moving_mean_initializer),
                      ("moving_variance", self.moving_variance_initializer)]
        if self.renorm:  # renormalization follows standard deviations, not variances
            def stddev_initializer(*args, **kwargs):
                return math_ops.sqrt(self.moving_variance_initializer(*args, **kwargs))
            statistics += [("moving_stddev", stddev_initializer),
                           ("renorm_mean", self.moving_mean_initializer),
                           ("renorm_stddev", stddev_initializer)]
        for name, initializer in statistics:
            setattr(self, name, self.add_weight(
                name, shape=self._param_shape, dtype=self._param_dtype, initializer=initializer,
                synchronization=VariableSynchronization.ON_READ, trainable=False,
                aggregation=VariableAggregation.MEAN, experimental_autocast=False))
        self.built = True

    def _get_training_value(self, training=None):
        if training is None:  # (building a TF 1 graph: its learning-phase tensor)
            training = backend.learning_phase()
        if isinstance(training, int):
            training = bool(training)
        if not self.trainable and self._infers_frozen():  # Keras 2: a frozen layer infers
            training = False
        return training

    def _infers_frozen(self):
        """Whether, frozen, it runs in inference mode: Keras 2's layer does, but for TF 1's
        loop over a graph it was last called in while trainable, which TF 1 runs as built then
        (the batch's statistics while training, and no updates, as TF 1's layer); called
        again frozen (a model around a frozen one, for fine-tuning), it infers there."""
        return self._frozen_infers and not (
            backend.session_loops and self.__dict__.get("_v1_called_trainable"))

    def call(self, inputs, training=None, mask=None):
        inputs = cast_ops.cast(inputs, self.compute_dtype)  # (a variable is not autocast)
        if backend.building_v1_graph():  # (see `_infers_frozen`)
            self.__dict__["_v1_called_trainable"] = self.trainable
        training = self._get_training_value(training)
        if training is not False and backend.building_v1_graph():
            return self._call_in_v1_graph(inputs, mask, training)
        if isinstance(training, Tensor):  # decided when the (traced) program runs
            # as in Keras 2, virtual batches are split only by a `training` known when traced
            split = bool(training) if isinstance(training, EagerTensor) else False
            return control_flow.cond(training,
                                     lambda: self._normalize(inputs, mask, True, split),
                                     lambda: self._normalize(inputs, mask, False, split))
        return self._normalize(inputs, mask, training, training)

    def _normalize(self, inputs, mask, training, split=None):
        if mask is not None and self.fused:
            warnings.warn("Masking is not supported with `fused=True`. You should either turn "
                          "off fusing (`fused=False`) or you should not pass a `mask` argument "
                          "when calling the layer. For the moment `mask` will be ignored for "
                          "the normalization.")
            mask = None
        # (a training layer Keras 2 runs unfused computes its moments as ops: their second
        # derivatives are TF's, which the fused kernel's exact ones are not)
        composite = mask is not None or self.renorm or self.virtual_batch_size is not None \
            or self.adjustment is not None or (
            not self.fused and training is not None and training is not False)
        layout = None if composite else self._kernel_layout(inputs.shape)
        if layout is None:
            return self._normalize_composite(inputs, mask, training, split)
        data_format, kernel_shape = layout
        x = inputs if kernel_shape is None else array_ops.reshape(inputs, kernel_shape)
        dtype = self._param_dtype
        gamma = self.gamma if self.scale else array_ops.ones(self._param_shape, dtype)
        beta = self.beta if self.center else array_ops.zeros(self._param_shape, dtype)
        # Keras 2's fused update: the kernel blends in the corrected variance; in a TF 1 graph
        # (`_call_in_v1_graph`) TF's layer averages the kernel's batch moments in itself
        blend = training and self.fused and not self.__dict__.get("_moving_averages")
        outputs = fused_batch_norm_v3(
            x, gamma, beta, self.moving_mean, self.moving_variance, self.epsilon,
            exponential_avg_factor=1.0 - self.momentum if blend else 1.0,
            data_format=data_format, is_training=training)
        if blend:
            self._assign_new_value(self.moving_mean, outputs[1])
            self._assign_new_value(self.moving_variance, outputs[2])
        elif training and self.fused:
            self._assign_moving_average(self.moving_mean, outputs[1])
            self._assign_moving_average(self.moving_variance, outputs[2])
        elif training:  # the biased batch variance, as Keras 2's unfused layer
            self._assign_moving_average(self.moving_mean, outputs[3])
            self._assign_moving_average(self.moving_variance, outputs[4])
        y = outputs[0]
        return y if kernel_shape is None else array_ops.reshape(
            y, _static_or_dynamic_shape(inputs))

    def _kernel_layout(self, shape):
        """(data format, shape for the kernel or None) normalizing `shape`'s one axis."""
        if len(self.axis) != 1:
            return None
        axis, rank = self.axis[0], shape.rank
        if rank is None:  # traced with a rank unknown: the rank the layer was built for
            rank = getattr(self.input_spec, "ndim", None)
            return None if (rank, axis) not in _DATA_FORMATS else (_DATA_FORMATS[rank, axis],
                                                                   None)
        data_format = _DATA_FORMATS.get((rank, axis))
        if data_format is not None:
            return data_format, None
        channels = shape[axis]
        if axis == rank - 1:
            return "NHWC", [-1, 1, 1, channels]
        trailing = shape[axis + 1:].as_list()
        if None in trailing:
            return None
        return "NCHW", [-1, channels, math.prod(trailing), 1]

    def _call_in_v1_graph(self, inputs, mask, training):
        """The training call while a TF 1 graph is built (`training` True or a tensor: the
        learning phase): as TF 1's layer, its output assigns nothing; the moving statistics'
        updates are ops of `updates`, run by who runs them (``K.function(..., updates=...)``),
        conditional on a `training` tensor."""
        def normalize(assigned, training_value, ops=None):
            self.__dict__.update(_assigned=assigned, _assign_ops=ops, _moving_averages=True)
            try:
                return self._normalize(inputs, mask, training_value, False)
            finally:
                self.__dict__.update(_assigned=None, _assign_ops=None, _moving_averages=None)

        if not isinstance(training, Tensor):
            ops = []
            normalize(None, True, ops)
            self.add_update(ops)
            return normalize((), True)
        outputs = control_flow.cond(training, lambda: normalize((), True),
                                    lambda: normalize((), False))
        if self._frozen_v1():
            return outputs
        for name in ("moving_mean", "moving_variance", "moving_stddev", "renorm_mean",
                     "renorm_stddev"):
            variable = getattr(self, name, None)
            if variable is None:
                continue

            def update(variable=variable):
                normalize((id(variable),), True)
                return cast_ops.identity(_read(variable))
            self.add_update(control_flow.cond(
                training, update, lambda variable=variable: cast_ops.identity(_read(variable))))
        return outputs

    def _frozen_v1(self):
        """Whether it is TF 1's layer, frozen: the batch's statistics, and no updates."""
        return not self.trainable and not self._infers_frozen()

    def _assigns(self, variable):
        """Whether the call being built updates `variable` (see `_call_in_v1_graph`)."""
        if self._frozen_v1():
            return False
        assigned = self.__dict__.get("_assigned")
        return assigned is None or id(variable) in assigned

    def _assigned_by(self, op):
        ops = self.__dict__.get("_assign_ops")
        if ops is not None:
            ops.append(op)

    def _assign_new_value(self, variable, value):
        if self._assigns(variable):
            self._assigned_by(variable.assign(value, read_value=False))

    def _assign_moving_average(self, variable, value, momentum=None):
        if not self._assigns(variable):
            return
        # (in a TF 1 graph, in TF's scope: ``AssignMovingAvg/AssignSubVariableOp``)
        with context.name_scope("AssignMovingAvg") if self.__dict__.get("_moving_averages") \
                else contextlib.nullcontext():
            decay = 1.0 - (self.momentum if momentum is None else momentum)
            delta = math_ops.multiply(
                math_ops.subtract(_read(variable), cast_ops.cast(value, variable.dtype)),
                cast_ops.cast(decay, variable.dtype))
            self._assigned_by(variable.assign_sub(delta, read_value=False))

    def _normalize_composite(self, inputs, mask, training, split=None):
        """Normalization from moments as Keras 2's unfused layer computes them: over several
        axes, masked, by virtual batches (when `split`, by default `training`), adjusted, or
        renormalized."""
        split = training if split is None else split
        input_dtype = inputs.dtype
        x = cast_ops.cast(inputs, _dtypes.float32) if input_dtype in _HALF else inputs
        virtual = self.virtual_batch_size is not None
        if virtual:  # (batch, ...) -> (virtual batch size, number of virtual batches, ...)
            original_shape = array_ops.concat(
                [[-1], array_ops.shape(x)[1:]], axis=0)
            x = array_ops.reshape(x, array_ops.concat(
                [[self.virtual_batch_size, -1] if split else [-1, 1],
                 array_ops.shape(x)[1:]], axis=0))
        rank = x.shape.rank
        reduction_axes = [i for i in range(rank) if i not in self.axis]
        if virtual:
            del reduction_axes[1]  # each virtual batch has its own statistics
        broadcast_shape = [1] * rank
        broadcast_shape[self.axis[0]] = x.shape[self.axis[0]]

        def broadcast(v):
            if v is not None and v.shape.rank != rank and \
                    reduction_axes != list(range(rank - 1)):
                return array_ops.reshape(v, broadcast_shape)
            return v
        scale, offset = (None if v is None else broadcast(_read(v))
                         for v in (self.gamma, self.beta))
        if training:
            if self.adjustment is not None:
                adjust_scale, adjust_offset = self.adjustment(array_ops.shape(x))
                scale, offset = _compose(adjust_scale, adjust_offset, scale, offset)
            keepdims = virtual or len(self.axis) > 1
            statistics_input = cast_ops.cast(x, self._param_dtype)
            if mask is None:
                mean, variance = nn_ops.moments(statistics_input, reduction_axes,
                                                keepdims=keepdims)
            else:
                weights = array_ops.expand_dims(cast_ops.cast(mask, self.compute_dtype), -1)
                mean, variance = nn_ops.weighted_moments(
                    statistics_input, reduction_axes, cast_ops.cast(weights, self._param_dtype),
                    keepdims=keepdims)
            new_mean, new_variance = mean, variance
            if virtual:  # the moving statistics follow the virtual batches' mean ones
                new_mean = reduction_ops.reduce_mean(mean, axis=1, keepdims=True)
                new_variance = reduction_ops.reduce_mean(variance, axis=1, keepdims=True)
            if self.renorm:
                r, d = self._renormalize(new_mean, new_variance)
                r, d = (broadcast(cast_ops.stop_gradient(v)) for v in (r, d))
                scale, offset = _compose(r, d, scale, offset)
            self._assign_moving_average(self.moving_mean, new_mean)
            if self.renorm:  # epsilon counted in the moving deviation, as while training
                moving = _read(self.moving_stddev)
                stddev = moving - (moving - math_ops.sqrt(new_variance + self.epsilon)) * \
                    cast_ops.cast(1.0 - self.momentum, moving.dtype)
                self._assign_new_value(self.moving_stddev, stddev)
                self._assign_new_value(self.moving_variance,
                                       nn_ops.relu(stddev * stddev - self.epsilon))
            else:
                self._assign_moving_average(self.moving_variance, new_variance)
        else:
            mean, variance = self.moving_mean, self.moving_variance
        mean, variance, scale, offset = (
            None if v is None else cast_ops.cast(_read(v) if hasattr(v, "assign") else v,
                                                 x.dtype)
            for v in (mean, variance, scale, offset))
        outputs = nn_ops.batch_normalization(x, broadcast(mean), broadcast(variance), offset,
                                             scale, self.epsilon)
        if virtual:
            outputs = array_ops.reshape(outputs, original_shape)
        return cast_ops.cast(outputs, input_dtype)

    def _renormalize(self, mean, variance):
        """Batch renormalization's corrections (r, d) of the batch `mean` and `variance`
        from the renorm moving averages, which then follow the batch."""
        stddev = math_ops.sqrt(variance + self.epsilon)
        renorm_stddev = math_ops.maximum(_read(self.renorm_stddev), math.sqrt(self.epsilon))
        r = stddev / renorm_stddev
        d = (mean - _read(self.renorm_mean)) / renorm_stddev
        rmin, rmax, dmax = (self.renorm_clipping.get(key) for key in ("rmin", "rmax", "dmax"))
        if rmin is not None:
            r = math_ops.maximum(r, rmin)
        if rmax is not None:
            r = math_ops.minimum(r, rmax)
        if dmax is not None:
            d = math_ops.minimum(math_ops.maximum(d, -dmax), dmax)
        self._assign_moving_average(self.renorm_mean, mean, self.renorm_momentum)
        self._assign_moving_average(self.renorm_stddev, stddev, self.renorm_momentum)
        return r, d

    def get_config(self):
        config = super().get_config()
        if self.renorm:
            config.update(renorm=True, renorm_clipping=self.renorm_clipping,
                          renorm_momentum=self.renorm_momentum)
        if self.virtual_batch_size is not None:
            config["virtual_batch_size"] = self.virtual_batch_size
        if self.adjustment is not None:
            _log.logger.warning(
                "The `adjustment` function of this `BatchNormalization` layer cannot be "
                "serialized and has been omitted from the layer config. It will not be "
                "included when re-creating the layer from the saved config.")
        return config


def _compose(scale, offset, then_scale, then_offset):
    """The affine map x * scale + offset followed by x * then_scale + then_offset, as one
    (scale, offset); None stands for no scaling or no offset."""
    if then_scale is not None:
        scale, offset = scale * then_scale, offset * then_scale
    if then_offset is not None:
        offset = offset + then_offset
    return scale, offset


@export("keras.layers.experimental.SyncBatchNormalization")
class SyncBatchNormalization(BatchNormalization):
    """Deprecated: `BatchNormalization` with ``synchronized=True`` (statistics over every
    replica's batch; one replica here).

    >>> layer = tf.keras.layers.experimental.SyncBatchNormalization()
    >>> layer.synchronized
    True
    """

    _serialized_module = "keras.layers.experimental"
    _serialized_registered_name = None
    _warned = False

    def __init__(self, axis=-1, momentum=0.99, epsilon=1e-3, center=True, scale=True,
                 beta_initializer="zeros", gamma_initializer="ones",
                 moving_mean_initializer="zeros", moving_variance_initializer="ones",
                 beta_regularizer=None, gamma_regularizer=None, beta_constraint=None,
                 gamma_constraint=None, **kwargs):
        if not SyncBatchNormalization._warned:  # (once, as TF logs it)
            SyncBatchNormalization._warned = True
            _log.logger.warning(
                "`tf.keras.layers.experimental.SyncBatchNormalization` endpoint is deprecated "
                "and will be removed in a future release. Please use "
                "`tf.keras.layers.BatchNormalization` with parameter `synchronized` set to "
                "True.")
        super().__init__(axis=axis, momentum=momentum, epsilon=epsilon, center=center,
                         scale=scale, beta_initializer=beta_initializer,
                         gamma_initializer=gamma_initializer,
                         moving_mean_initializer=moving_mean_initializer,
                         moving_variance_initializer=moving_variance_initializer,
                         beta_regularizer=beta_regularizer, gamma_regularizer=gamma_regularizer,
                         beta_constraint=beta_constraint, gamma_constraint=gamma_constraint,
                         synchronized=True, **kwargs)


@export("keras.layers.LayerNormalization")
class LayerNormalization(_AffineNormalization):
    """Normalizes each example over `axis` (the last by default), then scales and shifts.

    ``gamma * (x - mean) / sqrt(var + epsilon) + beta``, statistics over `axis` per example;
    gamma and beta have the shape of the normalized axes.

    >>> tf.keras.layers.LayerNormalization(epsilon=0.0)(tf.constant([[1.0, 3.0]])).numpy()
    array([[-1.,  1.]], dtype=float32)
    """

    def __init__(self, axis=-1, epsilon=1e-3, center=True, scale=True,
                 beta_initializer="zeros", gamma_initializer="ones", beta_regularizer=None,
                 gamma_regularizer=None, beta_constraint=None, gamma_constraint=None, **kwargs):
        super().__init__(epsilon, center, scale, beta_initializer, gamma_initializer,
                         beta_regularizer, gamma_regularizer, beta_constraint, gamma_constraint,
                         **kwargs)
        self.axis = _axis_argument(axis)

    def build(self, input_shape):
        self.axis = validate_axis(self.axis, input_shape)
        input_shape = TensorShape(input_shape)
        self._add_gamma_beta([input_shape[a] for a in self.axis])
        self.built = True

    def call(self, inputs):
        inputs = cast_ops.cast(inputs, self.compute_dtype)  # (a variable is not autocast)
        rank = len(inputs.shape)  # (TF's ValueError for a rank unknown when traced)
        broadcast_shape = [1] * rank
        dims = inputs.shape.as_list()
        for a in self.axis:
            broadcast_shape[a] = dims[a]  # (an axis past the rank: TF's "list index" error)

        def broadcast(v):
            if v is not None and v.shape.rank != rank and self.axis != [rank - 1]:
                return array_ops.reshape(v, broadcast_shape)
            return v
        input_dtype = inputs.dtype
        scale, offset = broadcast(_read(self.gamma)), broadcast(_read(self.beta))
        # (the fused kernel takes no float64: such layers normalize from the moments, as TF's)
        if sorted(self.axis) == list(range(rank - len(self.axis), rank)) \
                and input_dtype != _dtypes.float64:
            outputs = self._normalize_trailing(inputs)
            if scale is not None:
                outputs = math_ops.multiply(outputs, cast_ops.cast(scale, outputs.dtype))
            if offset is not None:
                outputs = math_ops.add(outputs, cast_ops.cast(offset, outputs.dtype))
            return outputs
        x = inputs
        if input_dtype in _HALF and self.dtype == "float32":
            x = cast_ops.cast(x, _dtypes.float32)
        mean, variance = nn_ops.moments(x, self.axis, keepdims=True)
        outputs = nn_ops.batch_normalization(x, mean, variance, offset, scale, self.epsilon)
        return cast_ops.cast(outputs, input_dtype)

    def _normalize_trailing(self, inputs):
        """(x - mean) / sqrt(var + epsilon) over the trailing axes, by the fused kernel.

        The rows are the kernel's channels: ``[1, rows, row size, 1]`` in NCHW.
        """
        row_size = math.prod(inputs.shape[a] for a in self.axis)
        x = array_ops.reshape(inputs, [1, -1, row_size, 1])
        rows = [x.shape[1]] if x.shape[1] is not None else array_ops.shape(x)[1:2]
        normalized = fused_batch_norm_v3(
            x, array_ops.ones(rows), array_ops.zeros(rows), [], [], self.epsilon,
            data_format="NCHW")[0]
        return array_ops.reshape(normalized, _static_or_dynamic_shape(inputs))


@export("keras.layers.GroupNormalization")
class GroupNormalization(_AffineNormalization):
    """Normalizes each example over groups of channels: ``groups`` groups along `axis`.

    ``groups=-1`` is instance normalization (one channel per group); ``groups=1`` normalizes
    over every channel together.

    >>> tf.keras.layers.GroupNormalization(groups=2, epsilon=0.0)(
    ...     tf.constant([[1.0, 3.0, 5.0, 9.0]])).numpy()
    array([[-1., 1., -1., 1.]], dtype=float32)
    """

    _CONFIG_HEAD = ("groups", "axis")

    def __init__(self, groups=32, axis=-1, epsilon=1e-3, center=True, scale=True,
                 beta_initializer="zeros", gamma_initializer="ones", beta_regularizer=None,
                 gamma_regularizer=None, beta_constraint=None, gamma_constraint=None, **kwargs):
        super().__init__(epsilon, center, scale, beta_initializer, gamma_initializer,
                         beta_regularizer, gamma_regularizer, beta_constraint, gamma_constraint,
                         **kwargs)
        self.groups = groups
        self.axis = axis

    def build(self, input_shape):
        validate_axis(self.axis, input_shape)
        input_shape = TensorShape(input_shape)
        dim = input_shape[self.axis]
        if dim is None:
            raise ValueError(f"Axis {self.axis} of input tensor should have a defined dimension "
                             f"but the layer received an input with shape {input_shape}.")
        if self.groups == -1:
            self.groups = dim
        if dim < self.groups:
            raise ValueError(f"Number of groups ({self.groups}) cannot be more than the number "
                             f"of channels ({dim}).")
        if dim % self.groups != 0:
            raise ValueError(f"Number of groups ({self.groups}) must be a multiple of the "
                             f"number of channels ({dim}).")
        self.input_spec = InputSpec(ndim=input_shape.rank, axes={self.axis: dim})
        self._add_gamma_beta((dim,), autocast=True)
        self.built = True

    def call(self, inputs, mask=None):
        rank = inputs.shape.rank
        axis = self.axis % rank
        shape = _static_or_dynamic_shape(inputs)
        dims = [shape[i] for i in range(rank)]
        grouped_shape = dims[:axis] + [self.groups, dims[axis] // self.groups] + dims[axis + 1:]
        if isinstance(shape, Tensor):
            grouped_shape = array_ops.stack(grouped_shape)
        grouped = array_ops.reshape(inputs, grouped_shape)
        # statistics over everything but the batch and group axes
        reduction_axes = [i for i in range(1, rank + 1) if i != axis]
        # weighted moments (weights of one without a mask), as Keras 2 takes them: their
        # variance's gradient follows the mean too (tf.nn.moments' takes it as a constant),
        # so second derivatives through the layer are TF's
        mask = array_ops.ones_like(inputs) if mask is None else mask
        weights = array_ops.broadcast_to(cast_ops.cast(mask, inputs.dtype), shape)
        mean, variance = nn_ops.weighted_moments(
            grouped, reduction_axes, array_ops.reshape(weights, grouped_shape), keepdims=True)
        # (the channels the layer was built for: a call may not know them statically)
        channels = self.input_spec.axes[self.axis]
        broadcast_shape = [1] * (rank + 1)
        broadcast_shape[axis:axis + 2] = [self.groups, channels // self.groups]
        gamma, beta = (None if v is None else array_ops.reshape(v, broadcast_shape)
                       for v in (self.gamma, self.beta))
        outputs = nn_ops.batch_normalization(grouped, mean, variance, beta, gamma, self.epsilon)
        return array_ops.reshape(outputs, shape)


@export("keras.layers.UnitNormalization")
class UnitNormalization(Layer):
    """Scales each example to a unit L2 norm over `axis`.

    >>> tf.keras.layers.UnitNormalization()(tf.constant([[3.0, 4.0]])).numpy()
    array([[0.6, 0.8]], dtype=float32)
    """

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        if isinstance(axis, (list, tuple)):
            self.axis = list(axis)
        elif isinstance(axis, int):
            self.axis = axis
        else:
            raise TypeError(f"Invalid value for `axis` argument: expected an int or a "
                            f"list/tuple of ints. Received: axis={axis}")
        self.supports_masking = True

    def build(self, input_shape):
        validate_axis(self.axis, input_shape)
        self.built = True

    def call(self, inputs):
        return reduction_ops.l2_normalize(cast_ops.cast(inputs, self.compute_dtype), self.axis)

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        return {**super().get_config(), "axis": self.axis}


@export("compat.v1.keras.layers.BatchNormalization")
class BatchNormalizationV1(BatchNormalization):
    """TF 1's Keras batch normalization: frozen (``trainable=False``) it still normalizes by
    the batch's statistics while training (without updating the moving ones)."""

    _frozen_infers = False


BatchNormalizationV1.__name__ = BatchNormalizationV1.__qualname__ = "BatchNormalization"

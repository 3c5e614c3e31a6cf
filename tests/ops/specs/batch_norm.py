"""Specs of fused batch normalization (fused_batch_norm_ops.py) and its gradient op.

The references move the channel axis last and normalize with NumPy in float64.
The gradient op is reached through the tape; its own gradient (second
derivatives) is checked by the gradient sweep against finite differences.
"""
import numpy as np

import eagerflow as tf
from tests.internals import fused_batch_norm_ops as f
from tests.internals import _FUSED_BATCH_NORM_EX, dispatch
from tests.ops.spec import OpSpec, positive, rand

F32, F64 = np.float32, np.float64
_STATISTICS = "the statistics outputs carry no gradient, as in TensorFlow"


def _last(x, data_format):
    return np.moveaxis(x, 1, -1) if data_format.startswith("NC") else x


def _first(y, data_format):
    return np.moveaxis(y, -1, 1) if data_format.startswith("NC") else y


def ref_batch_norm(x, scale, offset, mean=None, variance=None, epsilon=1e-3,
                   data_format="NHWC", is_training=True, factor=1.0):
    """(y, running mean, running variance) as FusedBatchNormV3 computes them."""
    xl = _last(x, data_format).astype(F64)
    axes = tuple(range(xl.ndim - 1))
    if is_training:
        batch_mean, batch_var = xl.mean(axes), xl.var(axes)
        n = xl.size // xl.shape[-1]
        corrected = batch_var * n / (n - 1)
        run_mean, run_var = batch_mean, corrected
        if factor != 1.0:
            run_mean = (1 - factor) * mean + factor * batch_mean
            run_var = (1 - factor) * variance + factor * corrected
    else:
        batch_mean, batch_var, run_mean, run_var = mean, variance, mean, variance
    y = (xl - batch_mean) / np.sqrt(batch_var + epsilon) * scale + offset
    stats_dtype = scale.dtype
    return (_first(y, data_format).astype(x.dtype), np.asarray(run_mean, stats_dtype),
            np.asarray(run_var, stats_dtype))


def ref_batch_norm_grad(x, scale, dy, mean=None, variance=None, epsilon=1e-3,
                        data_format="NHWC", is_training=True):
    """(dx, dscale, doffset) of sum(dy * batch_norm(x)), in closed form."""
    xl, dyl = _last(x, data_format).astype(F64), _last(dy, data_format).astype(F64)
    axes = tuple(range(xl.ndim - 1))
    if is_training:
        mean, variance = xl.mean(axes), xl.var(axes)
    r = 1 / np.sqrt(variance + epsilon)
    x_hat = (xl - mean) * r
    doffset, dscale = dyl.sum(axes), (dyl * x_hat).sum(axes)
    if is_training:
        n = xl.size // xl.shape[-1]
        dx = scale * r * (dyl - doffset / n - x_hat * dscale / n)
    else:
        dx = scale * r * dyl
    return (_first(dx, data_format).astype(x.dtype), dscale.astype(scale.dtype),
            doffset.astype(scale.dtype))


def _forward_spec(shape, data_format="NHWC", is_training=True, dtype=F32, rtol=1e-4,
                  atol=1e-5, **kw):
    channels = shape[1 if data_format.startswith("NC") else -1]
    mean, variance = rand(channels, seed=3).astype(F64), positive(channels, seed=4).astype(F64)

    def fn(x, scale, offset):
        return f.fused_batch_norm(x, scale, offset, tf.cast(mean, scale.dtype),
                                  tf.cast(variance, scale.dtype), data_format=data_format,
                                  is_training=is_training)[0]
    return OpSpec("FusedBatchNormV3", fn,
                  [rand(*shape, dtype=dtype, low=-3, high=5), positive(channels, dtype=dtype),
                   rand(channels, dtype=dtype, seed=1)],
                  lambda x, s, o: ref_batch_norm(x, s, o, mean.astype(s.dtype),
                                                 variance.astype(s.dtype), 1e-3, data_format,
                                                 is_training)[0],
                  name=f"FusedBatchNormV3-{shape}-{data_format}-"
                       f"{'training' if is_training else 'inference'}-{np.dtype(dtype).name}",
                  rtol=rtol, atol=atol, **kw)


def _tape_gradients(x, scale, offset, dy, data_format, is_training, mean, variance):
    with tf.GradientTape() as tape:
        tape.watch([x, scale, offset])
        y = f.fused_batch_norm(x, scale, offset, tf.cast(mean, scale.dtype),
                               tf.cast(variance, scale.dtype), data_format=data_format,
                               is_training=is_training)[0]
    return tape.gradient(y, [x, scale, offset], output_gradients=dy)


def _grad_spec(shape, data_format="NHWC", is_training=True):
    channels = shape[1 if data_format.startswith("NC") else -1]
    mean, variance = rand(channels, seed=3).astype(F64), positive(channels, seed=4).astype(F64)
    return OpSpec(
        "FusedBatchNormGradV3",
        lambda x, s, o, dy: _tape_gradients(x, s, o, dy, data_format, is_training, mean,
                                            variance),
        [rand(*shape, dtype=F32, low=-3, high=5), positive(channels, dtype=F32),
         rand(channels, dtype=F32, seed=1), rand(*shape, dtype=F32, seed=2)],
        lambda x, s, o, dy: ref_batch_norm_grad(x, s, dy, mean, variance, 1e-3, data_format,
                                                is_training),
        rtol=1e-4, atol=1e-4, name=f"FusedBatchNormGradV3-{shape}-{data_format}-"
             f"{'training' if is_training else 'inference'}")


def _statistics_spec(data_format, factor):
    shape = (3, 2, 2, 4) if data_format == "NHWC" else (2, 3, 2, 2, 2)
    channels = shape[1 if data_format.startswith("NC") else -1]
    mean, variance = rand(channels, seed=3), positive(channels, seed=4)
    return OpSpec(
        "FusedBatchNormV3",
        lambda x, s, o, m, v: f.fused_batch_norm(x, s, o, m, v, data_format=data_format,
                                                 exponential_avg_factor=factor),
        [rand(*shape, low=-3, high=5), positive(channels), rand(channels, seed=1), mean,
         variance],
        lambda x, s, o, m, v: ref_batch_norm(x, s, o, m, v, 1e-3, data_format, True, factor),
        rtol=1e-4, atol=1e-5, grad=_STATISTICS,
        name=f"FusedBatchNormV3-statistics-{data_format}-{factor}")


def _ex(x, scale, offset, mean, variance, activation_mode="Relu", **attrs):
    """The outputs of ``_FusedBatchNormEx`` (what graph fusion makes of BN + ReLU)."""
    return dispatch(_FUSED_BATCH_NORM_EX, (x, scale, offset, tf.cast(mean, scale.dtype),
                                           tf.cast(variance, scale.dtype)),
                    {"epsilon": 1e-3, "activation_mode": activation_mode, **attrs})


def _ex_spec(shape, activation_mode="Relu", is_training=True, dtype=F64, **kw):
    channels = shape[-1]
    mean, variance = rand(channels, seed=3).astype(F64), positive(channels, seed=4).astype(F64)
    activate = np.maximum if activation_mode == "Relu" else (lambda y, _: y)
    return OpSpec(
        "_FusedBatchNormEx",
        lambda x, s, o: _ex(x, s, o, mean, variance, activation_mode, is_training=is_training,
                            data_format="NHWC" if len(shape) == 4 else "NDHWC")[0],
        [rand(*shape, dtype=dtype, low=-3, high=5), positive(channels, dtype=dtype),
         rand(channels, dtype=dtype, seed=1)],
        lambda x, s, o: activate(ref_batch_norm(x, s, o, mean.astype(s.dtype),
                                                variance.astype(s.dtype), 1e-3, "NHWC",
                                                is_training)[0], 0),
        name=f"_FusedBatchNormEx-{shape}-{activation_mode}-"
             f"{'training' if is_training else 'inference'}-{np.dtype(dtype).name}", **kw)


def _ex_side_spec(shape, dtype=F64, **kw):
    """``_FusedBatchNormEx`` with a side input (what graph fusion makes of BN + a
    residual sum + ReLU): ``relu(y + side_input)``, and its gradients."""
    channels = shape[-1]
    return OpSpec(
        "_FusedBatchNormEx",
        lambda x, s, o, side: dispatch(
            _FUSED_BATCH_NORM_EX, (x, s, o, tf.zeros([0], s.dtype), tf.zeros([0], s.dtype), side),
            {"epsilon": 1e-3, "activation_mode": "Relu", "num_side_inputs": 1})[0],
        [rand(*shape, dtype=dtype, low=-3, high=5), positive(channels, dtype=dtype),
         rand(channels, dtype=dtype, seed=1), rand(*shape, dtype=dtype, seed=2)],
        lambda x, s, o, side: np.maximum(ref_batch_norm(x, s, o)[0] + side, 0),
        name=f"_FusedBatchNormEx-side-{shape}-{np.dtype(dtype).name}", **kw)


def _ex_grad_spec(shape, dtype=F64, **kw):
    """``_FusedBatchNormGradEx`` through the fused op's gradient: BN's gradient of the
    upstream gradient masked where the ReLU's result is 0."""
    channels = shape[-1]

    def fn(x, scale, offset, dy):
        with tf.GradientTape() as tape:
            tape.watch([x, scale, offset])
            y = _ex(x, scale, offset, [], [])[0]
        return tape.gradient(y, [x, scale, offset], output_gradients=dy)

    def ref(x, scale, offset, dy):
        y = ref_batch_norm(x, scale, offset)[0]
        return ref_batch_norm_grad(x, scale, dy * (y > 0))
    return OpSpec("_FusedBatchNormGradEx", fn,
                  [rand(*shape, dtype=dtype, low=-3, high=5), positive(channels, dtype=dtype),
                   rand(channels, dtype=dtype, seed=1), rand(*shape, dtype=dtype, seed=2)],
                  ref, grad="made by graph fusion after gradients are built",
                  name=f"_FusedBatchNormGradEx-{shape}-{np.dtype(dtype).name}", **kw)


def _older_specs(version):
    """FusedBatchNorm (`version` "") or FusedBatchNormV2 and their gradients, as raw ops:
    float32 (V1's one dtype), V3's kernels."""
    forward = getattr(tf.raw_ops, f"FusedBatchNorm{version}")
    grad = getattr(tf.raw_ops, f"FusedBatchNormGrad{version}")

    def gradients(x, s, o, dy):
        outputs = forward(x=x, scale=s, offset=o, mean=[], variance=[], epsilon=1e-3)
        return grad(y_backprop=dy, x=x, scale=s, reserve_space_1=outputs[3],
                    reserve_space_2=outputs[4], epsilon=1e-3)[:3]
    args = [rand(2, 3, 2, 3, low=-3, high=5), positive(3), rand(3, seed=1),
            rand(2, 3, 2, 3, seed=2)]
    return [
        OpSpec(f"FusedBatchNorm{version}",
               lambda x, s, o, dy: forward(x=x, scale=s, offset=o, mean=[], variance=[],
                                           epsilon=1e-3)[:3],
               args, lambda x, s, o, dy: ref_batch_norm(x, s, o), rtol=1e-4, atol=1e-5,
               grad="FusedBatchNormV3's gradient, checked there",
               name=f"FusedBatchNorm{version}-training"),
        OpSpec(f"FusedBatchNormGrad{version}", gradients, args,
               lambda x, s, o, dy: ref_batch_norm_grad(x, s, dy), rtol=1e-4, atol=1e-4,
               grad="FusedBatchNormGradV3's gradient, checked there",
               name=f"FusedBatchNormGrad{version}-training")]


SPECS = [
    *_older_specs(""),
    *_older_specs("V2"),
    _forward_spec((2, 3, 2, 3)),
    _forward_spec((3, 2, 2, 2), "NCHW"),
    _forward_spec((2, 3, 2, 3), is_training=False),
    _forward_spec((2, 2, 2, 3, 2), "NDHWC"),
    _forward_spec((2, 2, 3, 2, 2), "NCDHW", is_training=False),
    _statistics_spec("NHWC", 1.0),
    _statistics_spec("NCDHW", 0.25),
    OpSpec("FusedBatchNormV3",
           lambda x, s, o: f.fused_batch_norm(x, s, o)[0],
           [rand(2, 3, 3, 2, dtype=np.float16), positive(2), rand(2, seed=1)],
           lambda x, s, o: ref_batch_norm(x, s, o)[0], rtol=1e-2, atol=1e-2,
           grad="float16 input", name="FusedBatchNormV3-float16"),
    _grad_spec((2, 3, 2, 3)),
    _grad_spec((2, 2, 3, 2), "NCHW"),
    _grad_spec((2, 3, 2, 3), is_training=False),
    _grad_spec((1, 2, 2, 2, 3), "NCDHW"),
    _ex_spec((2, 3, 2, 3)),
    _ex_spec((2, 3, 2, 3), is_training=False),
    _ex_spec((2, 3, 2, 3), "Identity"),
    _ex_spec((4, 3, 3, 8), dtype=F32, rtol=1e-4, atol=1e-5, grad="float64 spec above"),
    _ex_spec((2, 2, 2, 3, 2)),
    _ex_side_spec((2, 3, 2, 3)),
    _ex_side_spec((4, 3, 3, 8), F32, rtol=1e-4, atol=1e-5, grad="float64 spec above"),
    _ex_grad_spec((2, 3, 2, 3)),
    _ex_grad_spec((4, 3, 3, 8), F32, rtol=1e-4, atol=1e-4),
]

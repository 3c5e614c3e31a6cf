"""Convolutions on oneDNN: values and gradients equal to the NumPy kernels'.

Every case runs twice, with oneDNN switched on and off, and checks that the
oneDNN run did use its primitives (the switched-off run is the NumPy code the
other tests pin to TensorFlow's values).
"""
import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import eagerflow as tf
from tests.concurrency import in_threads
from tests.internals import conv_ops as c, dispatch, onednn, registry

pytestmark = pytest.mark.skipif(not onednn.enabled(), reason="oneDNN is not available here")

F32 = np.float32
BF16 = ml_dtypes.bfloat16


def _rand(*shape, seed=0, dtype=F32):
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


def _natives():
    """The kinds of the convolution primitives oneDNN built."""
    return {key[0] for key, primitive in list(onednn._cache.items())
            if primitive is not None and str(key[0]).startswith("conv")}


@pytest.fixture(scope="module")
def both():
    """Runs a function with oneDNN on, then off; returns both results (NumPy arrays).

    `expect` names the primitives the oneDNN run must have built.
    """
    def run(fn, expect=("conv",)):
        onednn.clear_cache()
        try:
            onednn.set_enabled(True)
            native = fn()
            assert set(expect) <= _natives()
            onednn.set_enabled(False)
            numpy = fn()
        finally:
            onednn.set_enabled(None)
        return native, numpy
    yield run
    onednn.set_enabled(None)


def _close(native, numpy, rtol=1e-4, atol=1e-4):
    if isinstance(native, (list, tuple)):
        assert len(native) == len(numpy)
        for a, b in zip(native, numpy):
            _close(a, b, rtol, atol)
        return
    native, numpy = np.asarray(native), np.asarray(numpy)
    assert native.dtype == numpy.dtype and native.shape == numpy.shape
    finite = np.abs(numpy.astype(F32))[np.isfinite(numpy.astype(F32))]
    scale = max(float(finite.max(initial=0)), 1.0)
    np.testing.assert_allclose(native.astype(F32), numpy.astype(F32), rtol=rtol,
                               atol=atol * scale)


ALL = ("conv", "conv_backward_data", "conv_backward_weights")


def _value_and_grads(conv, x, w, seed=3):
    """`conv(x, w)` and its gradients with respect to both, for a random output gradient."""
    x, w = tf.constant(x), tf.constant(w)
    with tf.GradientTape() as tape:
        tape.watch([x, w])
        y = conv(x, w)
    dy = tf.constant(_rand(*y.shape, seed=seed, dtype=y.dtype.as_numpy_dtype))
    dx, dw = tape.gradient(y, [x, w], output_gradients=dy)
    return [y.numpy(), dx.numpy(), dw.numpy()]


def _explicit(pairs, channels_first):
    return [[0, 0], [0, 0], *pairs] if channels_first else [[0, 0], *pairs, [0, 0]]


# ----------------------------------------------------------------------------- hypothesis

@settings(max_examples=60, deadline=None)
@given(batch=st.integers(1, 3), size=st.tuples(st.integers(1, 7), st.integers(1, 7)),
       ksize=st.tuples(st.integers(1, 3), st.integers(1, 3)),
       strides=st.tuples(st.integers(1, 3), st.integers(1, 3)),
       dilations=st.tuples(st.integers(1, 2), st.integers(1, 2)),
       padding=st.sampled_from(["SAME", "VALID", "EXPLICIT"]),
       pairs=st.tuples(st.integers(0, 2), st.integers(0, 2), st.integers(0, 2),
                       st.integers(0, 2)),
       groups=st.sampled_from([1, 2, 3]), per_group=st.integers(1, 3),
       out_per_group=st.integers(1, 3), channels_first=st.booleans())
def test_conv2d_values_and_gradients(both, batch, size, ksize, strides, dilations, padding,
                                     pairs, groups, per_group, out_per_group, channels_first):
    if padding == "EXPLICIT":
        padding = _explicit([pairs[:2], pairs[2:]], channels_first)
        extra = [pairs[0] + pairs[1], pairs[2] + pairs[3]]
    else:
        extra = [0, 0] if padding == "VALID" else [k * d for k, d in zip(ksize, dilations)]
    if any(s + e < (k - 1) * d + 1 for s, e, k, d in zip(size, extra, ksize, dilations)):
        return  # no output
    channels = groups * per_group
    x = _rand(batch, channels, *size) if channels_first else _rand(batch, *size, channels)
    w = _rand(*ksize, per_group, groups * out_per_group, seed=1)
    fmt = "NCHW" if channels_first else "NHWC"

    def conv(x, w):
        return tf.nn.conv2d(x, w, list(strides), padding, data_format=fmt,
                            dilations=list(dilations))
    _close(*both(lambda: _value_and_grads(conv, x, w), ALL))


@settings(max_examples=30, deadline=None)
@given(size=st.tuples(st.integers(1, 6), st.integers(1, 6)),
       ksize=st.tuples(st.integers(1, 3), st.integers(1, 3)),
       stride=st.integers(1, 2), dilation=st.integers(1, 2),
       padding=st.sampled_from(["SAME", "VALID"]), channels=st.integers(1, 4),
       multiplier=st.integers(1, 3), channels_first=st.booleans())
def test_depthwise_values_and_gradients(both, size, ksize, stride, dilation, padding, channels,
                                        multiplier, channels_first):
    if stride > 1 and dilation > 1:
        return  # TF rejects the combination
    if padding == "VALID" and any(s < (k - 1) * dilation + 1 for s, k in zip(size, ksize)):
        return
    x = _rand(2, channels, *size) if channels_first else _rand(2, *size, channels)
    w = _rand(*ksize, channels, multiplier, seed=1)
    fmt = "NCHW" if channels_first else "NHWC"
    strides = [1, 1, stride, stride] if channels_first else [1, stride, stride, 1]

    def conv(x, w):
        return tf.nn.depthwise_conv2d(x, w, strides, padding, data_format=fmt,
                                      dilations=[dilation, dilation])
    _close(*both(lambda: _value_and_grads(conv, x, w), ALL))


@settings(max_examples=20, deadline=None)
@given(size=st.tuples(st.integers(1, 4), st.integers(1, 4), st.integers(1, 4)),
       ksize=st.tuples(st.integers(1, 2), st.integers(1, 3), st.integers(1, 2)),
       strides=st.tuples(st.integers(1, 2), st.integers(1, 2), st.integers(1, 2)),
       dilation=st.integers(1, 2), padding=st.sampled_from(["SAME", "VALID"]),
       channels_first=st.booleans())
def test_conv3d_values_and_gradients(both, size, ksize, strides, dilation, padding,
                                     channels_first):
    if padding == "VALID" and any(s < (k - 1) * dilation + 1 for s, k in zip(size, ksize)):
        return
    x = _rand(2, 3, *size) if channels_first else _rand(2, *size, 3)
    w = _rand(*ksize, 3, 2, seed=1)
    fmt = "NCDHW" if channels_first else "NDHWC"
    s = [1, 1, *strides] if channels_first else [1, *strides, 1]
    d = [1, 1] + [dilation] * 3 if channels_first else [1] + [dilation] * 3 + [1]

    def conv(x, w):
        return tf.nn.conv3d(x, w, s, padding, data_format=fmt, dilations=d)
    _close(*both(lambda: _value_and_grads(conv, x, w), ALL))


@pytest.mark.parametrize("stride,dilation,padding,channels_first", [
    (1, 1, "SAME", False), (2, 1, "VALID", False), (1, 2, "SAME", True), (3, 1, "SAME", True)])
def test_conv1d_values_and_gradients(both, stride, dilation, padding, channels_first):
    x = _rand(3, 2, 9) if channels_first else _rand(3, 9, 2)
    w = _rand(3, 2, 4, seed=1)

    def conv(x, w):
        return tf.nn.conv1d(x, w, stride, padding, "NCW" if channels_first else "NWC",
                            dilation)
    _close(*both(lambda: _value_and_grads(conv, x, w), ALL))


# ----------------------------------------------------------------------------- transposed

@pytest.mark.parametrize("strides,padding,output", [
    (2, "SAME", [2, 8, 7, 3]), (1, "VALID", [2, 6, 5, 3]), ([2, 3], "VALID", [2, 9, 11, 3]),
    (2, [[0, 0], [1, 0], [0, 2], [0, 0]], [2, 7, 6, 3])])
def test_conv2d_transpose_values_and_gradients(both, strides, padding, output):
    w = _rand(3, 3, 3, 4, seed=1)  # (kh, kw, out, in)
    probe = tf.nn.conv2d(np.zeros(output, F32), w, strides, padding)
    x = _rand(*probe.shape)

    def transpose(x, w):
        return tf.nn.conv2d_transpose(x, w, output, strides, padding)
    _close(*both(lambda: _value_and_grads(transpose, x, w), ALL))


def test_keras_conv2d_transpose(both):
    x = _rand(2, 5, 6, 3)

    def run():
        tf.keras.utils.set_random_seed(0)
        layer = tf.keras.layers.Conv2DTranspose(4, 3, strides=2, padding="same")
        xt = tf.constant(x)
        with tf.GradientTape() as tape:
            tape.watch(xt)
            y = layer(xt)
        return [y.numpy()] + [g.numpy() for g in tape.gradient(y, [xt, *layer.weights])]
    native, numpy = both(run, ("conv_backward_data",))
    assert native[0].shape == (2, 10, 12, 4)
    _close(native, numpy)


@pytest.mark.parametrize("strides,padding", [([1, 2, 2, 2, 1], "SAME"), ([1, 1, 1, 2, 1],
                                                                        "VALID")])
def test_conv3d_transpose_values_and_gradients(both, strides, padding):
    output = [2, 5, 4, 6, 2]
    w = _rand(2, 3, 2, 2, 3, seed=1)
    x = _rand(*tf.nn.conv3d(np.zeros(output, F32), w, strides, padding).shape)

    def transpose(x, w):
        return tf.nn.conv3d_transpose(x, w, output, strides, padding)
    _close(*both(lambda: _value_and_grads(transpose, x, w), ALL))


# ----------------------------------------------------------------------------- paths users take

def test_inside_function_with_static_and_unknown_batch(both):
    x, w = _rand(4, 9, 8, 3), _rand(3, 3, 3, 5, seed=1)

    def grads(x, w):
        with tf.GradientTape() as tape:
            tape.watch([x, w])
            y = tf.nn.conv2d(x, w, 2, "SAME")
            loss = tf.reduce_sum(y * y)
        return [y, *tape.gradient(loss, [x, w])]

    def run():
        static = tf.function(grads)
        unknown = tf.function(grads, input_signature=[tf.TensorSpec([None, 9, 8, 3]),
                                                      tf.TensorSpec([3, 3, 3, 5])])
        return [t.numpy() for t in static(x, w) + unknown(x, w) + unknown(x[:1], w)]
    native, numpy = both(run, ALL)
    _close(native, numpy)
    _close(native[:3], native[3:6])


def test_empty_batch_runs_numpy(both):
    x, w = np.zeros((0, 5, 5, 2), F32), _rand(3, 3, 2, 4, seed=1)
    native, numpy = both(lambda: _value_and_grads(lambda x, w: tf.nn.conv2d(x, w, 1, "SAME"),
                                                  x, w), expect=())
    assert native[0].shape == (0, 5, 5, 4) and native[1].shape == (0, 5, 5, 2)
    _close(native, numpy)
    np.testing.assert_array_equal(native[2], np.zeros_like(w))


@pytest.mark.parametrize("size,stride", [(2, 2), (4, 1), (1, 3)])
def test_kernel_larger_than_the_input_gives_an_empty_output(both, size, stride):
    x, w = _rand(2, size, size, 2), _rand(5, 5, 2, 3, seed=1)
    native, numpy = both(lambda: _value_and_grads(
        lambda x, w: tf.nn.conv2d(x, w, stride, "VALID"), x, w), expect=())
    assert native[0].shape == (2, 0, 0, 3)
    _close(native, numpy)


@pytest.mark.parametrize("dtype", [F32, BF16])
@pytest.mark.parametrize("channels,stride", [(4, 1), (4, 2), (3, 1), (16, 1)])
def test_non_finite_inputs_reach_the_outputs_their_windows_cover(both, dtype, channels, stride):
    x = _rand(3, 9, 8, channels, dtype=dtype)
    x[1, 4, 4, 1], x[2, 1, 6, 0] = np.inf, np.nan
    w = _rand(3, 3, channels, 5, seed=1, dtype=dtype)
    native, numpy = both(lambda: _value_and_grads(
        lambda x, w: tf.nn.conv2d(x, w, stride, "SAME"), x, w), ALL)
    for a, b in zip(native, numpy):
        np.testing.assert_array_equal(np.isnan(a.astype(F32)), np.isnan(b.astype(F32)))
        np.testing.assert_array_equal(np.isinf(a.astype(F32)), np.isinf(b.astype(F32)))
    assert np.isnan(native[0]).any() and np.isfinite(native[0]).any()


@pytest.mark.parametrize("multiplier", [1, 3])
def test_bfloat16_depthwise_with_a_nan_keeps_its_shape(both, multiplier):
    """oneDNN's bfloat16 result holding a NaN is computed again by NumPy, with the
    depthwise filter as given (not oneDNN's grouped view of it)."""
    x = np.ones((1, 4, 4, 2), BF16)
    x[0, 1, 1, 0] = np.nan
    w = np.full((2, 2, 2, multiplier), 0.5, BF16)
    native, numpy = both(lambda: tf.nn.depthwise_conv2d(x, w, [1, 1, 1, 1], "VALID").numpy(),
                         expect=())
    assert native.shape == numpy.shape == (1, 3, 3, 2 * multiplier)
    np.testing.assert_array_equal(native.astype(F32), numpy.astype(F32))
    assert np.isnan(native[0, :2, :2, :multiplier].astype(F32)).all()
    assert (native[0, 2, 2].astype(F32) == 2).all()


def test_filter_gradient_of_an_infinite_border_gradient_matches_tensorflow(both):
    """Padding times inf: TF's oneDNN kernels skip the padding, its own kernels (and
    TF_ENABLE_ONEDNN_OPTS=0) multiply it, giving NaN; each path gives its TF's values."""
    x, dy = np.ones((1, 4, 4, 1), F32), np.ones((1, 4, 4, 1), F32)
    dy[0, 0, 0, 0] = np.inf
    native, numpy = both(lambda: c.conv2d_backprop_filter(x, [3, 3, 1, 1], dy, [1, 1, 1, 1],
                                                          "SAME").numpy().reshape(3, 3),
                         ("conv_backward_weights",))
    inf, nan = np.inf, np.nan
    np.testing.assert_array_equal(native, [[9, 12, 9], [12, inf, inf], [9, inf, inf]])
    np.testing.assert_array_equal(numpy, [[nan, nan, nan], [nan, inf, inf], [nan, inf, inf]])


def test_non_contiguous_inputs_and_variables(both):
    x_nchw, w = _rand(2, 3, 7, 6), _rand(3, 2, 3, 4, seed=1)

    def run():
        x = tf.transpose(tf.constant(x_nchw), [0, 2, 3, 1])  # a strided view of x_nchw
        v = tf.Variable(np.asfortranarray(w))
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.nn.conv2d(x, v, 1, "SAME")
            loss = tf.reduce_sum(tf.sin(y))
        return [y.numpy(), *[g.numpy() for g in tape.gradient(loss, [x, v])]]
    _close(*both(run, ALL))


def test_extra_batch_dims(both):
    x, w = _rand(2, 3, 6, 5, 2), _rand(3, 3, 2, 4, seed=1)
    _close(*both(lambda: _value_and_grads(lambda x, w: tf.nn.conv2d(x, w, 1, "SAME"), x, w),
                 ALL))


def test_second_derivatives_go_through_the_gradient_ops(both):
    x, w = _rand(2, 6, 5, 3), _rand(3, 2, 3, 4, seed=1)

    def run():
        xt, wt = tf.constant(x), tf.constant(w)
        with tf.GradientTape(persistent=True) as outer:
            outer.watch([xt, wt])
            with tf.GradientTape() as inner:
                inner.watch([xt, wt])
                loss = tf.reduce_sum(tf.nn.conv2d(xt, wt, 2, "SAME") ** 2)
            dx, dw = inner.gradient(loss, [xt, wt])
            norm = tf.reduce_sum(dx * dx) + tf.reduce_sum(dw * dw)
        return [g.numpy() for g in outer.gradient(norm, [xt, wt])]
    native, numpy = both(run, ALL)
    assert all(np.abs(g).max() > 0 for g in native)
    _close(native, numpy, rtol=1e-3, atol=1e-4)


def test_gradient_of_the_gradient_ops(both):
    w, dy = _rand(3, 3, 2, 4, seed=1), _rand(2, 3, 3, 4, seed=2)

    def run():
        wt, dyt = tf.constant(w), tf.constant(dy)
        with tf.GradientTape() as tape:
            tape.watch([wt, dyt])
            dx = c.conv2d_backprop_input([2, 6, 5, 2], wt, dyt, [1, 2, 2, 1], "SAME")
            dw = c.conv2d_backprop_filter(dx, [3, 3, 2, 4], dyt, [1, 2, 2, 1], "SAME")
            loss = tf.reduce_sum(tf.sin(dx)) + tf.reduce_sum(dw * dw)
        return [dx.numpy(), dw.numpy(), *[g.numpy() for g in tape.gradient(loss, [wt, dyt])]]
    _close(*both(run, ALL), rtol=1e-3)


def test_threads_running_convolutions_at_once(both):
    shapes = [((3, 8, 8, 2), (3, 3, 2, 4), 1), ((2, 9, 7, 4), (2, 2, 4, 3), 2),
              ((4, 6, 6, 3), (3, 1, 3, 6), 1)]
    cases = [(_rand(*xs, seed=i), _rand(*ws, seed=10 + i), s)
             for i, (xs, ws, s) in enumerate(shapes)]

    def one(x, w, s):
        return _value_and_grads(lambda x, w: tf.nn.conv2d(x, w, s, "SAME"), x, w)

    def run():
        expected = [one(*case) for case in cases]

        def check(i):
            assert all(np.array_equal(a, b) for a, b in zip(one(*cases[i]), expected[i]))
        in_threads(check, [(i % 3,) for i in range(6)], repeat=10)
        return expected
    _close(*both(run, ALL))


def test_bfloat16_runs_natively_within_its_precision(both):
    x, w = _rand(2, 7, 6, 3, dtype=BF16), _rand(3, 3, 3, 4, seed=1, dtype=BF16)
    native, numpy = both(lambda: _value_and_grads(
        lambda x, w: tf.nn.conv2d(x, w, 1, "SAME"), x, w), ALL)
    assert all(a.dtype == BF16 for a in native)
    _close(native, numpy, rtol=2e-2, atol=2e-2)


def test_other_dtypes_stay_on_numpy(both):
    x, w = _rand(1, 5, 5, 2, dtype=np.float64), _rand(3, 3, 2, 2, seed=1, dtype=np.float64)
    both(lambda: tf.nn.conv2d(x, w, 1, "SAME").numpy(), expect=())
    assert not _natives()


def test_reference_implementations_are_left_to_numpy(both, monkeypatch):
    """oneDNN's reference code (a loop per element) is slower than NumPy's GEMMs."""
    monkeypatch.setattr(onednn.Primitive, "implementation", lambda self: "ref:any")
    x, w = _rand(2, 6, 5, 3), _rand(3, 3, 3, 4, seed=1)
    native, numpy = both(lambda: _value_and_grads(
        lambda x, w: tf.nn.conv2d(x, w, 1, "SAME"), x, w), expect=())
    assert not _natives()
    for a, b in zip(native, numpy):
        np.testing.assert_array_equal(a, b)


# ----------------------------------------------------------------------------- fused

_FUSED = registry.get("_FusedConv2D")


@pytest.mark.parametrize("dtype", [F32, BF16])
@pytest.mark.parametrize("activation", [None, b"Relu", b"Relu6", b"LeakyRelu", b"Elu", b"Tanh",
                                        b"Sigmoid"])
def test_fused_conv2d_bias_and_activation(both, activation, dtype):
    x, w = _rand(3, 9, 8, 4, dtype=dtype) * 3, _rand(3, 3, 4, 5, seed=1, dtype=dtype)
    x[0, 0, 0, 0], x[1, 4, 4, 1] = np.nan, np.inf  # their windows' outputs alike on both paths
    b = _rand(5, seed=2, dtype=dtype)
    attrs = {"strides": (1, 2, 1, 1), "padding": "SAME", "explicit_paddings": (),
             "data_format": "NHWC", "dilations": (1, 1, 1, 1),
             "fused_ops": [b"BiasAdd"] + ([activation] if activation else []),
             "leakyrelu_alpha": 0.3}
    native, numpy = both(lambda: dispatch(_FUSED, (tf.constant(x), tf.constant(w),
                                                  tf.constant(b)), attrs).numpy())
    tolerance = 1e-5 if dtype is F32 else 2e-2
    if activation in (b"Relu", b"Relu6"):  # 0 for NaN on both, as TF's fused ReLU on oneDNN
        assert not np.isnan(native.astype(F32)).any() and not np.isnan(numpy.astype(F32)).any()
    _close(native, numpy, rtol=tolerance, atol=tolerance)
    if activation == b"Relu6":
        assert native[np.isfinite(native)].max() == 6


def test_fused_conv2d_relu_of_nan_and_negative_zero_matches_tensorflow(both):
    """A Relu after Conv2D and BiasAdd in a function: TF's fused kernel on oneDNN (its
    default on x86) gives 0 where the sum is NaN, and +0.0 for -0.0 and negative sums; both
    of our paths do the same."""
    x = -np.zeros((1, 3, 3, 1), F32)
    x[0, 0, 0, 0], x[0, 1, 1, 0], x[0, 2, 2, 0] = np.nan, -2.0, np.inf
    w, b = np.array([[[[1.0, -1.0]]]], F32), -np.zeros(2, F32)
    f = tf.function(lambda x, w, b: tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(x, w, 1, "SAME"), b)))
    native, numpy = both(lambda: f(x, w, b).numpy(), ("conv",))
    assert not np.signbit(native).any()
    np.testing.assert_array_equal(native[0, :, :, 0], [[0, 0, 0], [0, 0, 0], [0, 0, np.inf]])
    np.testing.assert_array_equal(native[0, :, :, 1], [[0, 0, 0], [0, 2, 0], [0, 0, 0]])
    np.testing.assert_array_equal(numpy, native)
    assert not np.signbit(numpy).any()


def test_keras_conv_layers_in_a_function_train_step(both):
    x = _rand(8, 12, 12, 3)
    y = np.arange(8) % 4

    def run():
        tf.keras.utils.set_random_seed(1)
        model = tf.keras.Sequential([
            tf.keras.layers.Conv2D(6, 3, activation="relu", padding="same"),
            tf.keras.layers.DepthwiseConv2D(3, depth_multiplier=2, activation="relu6"),
            tf.keras.layers.Conv2D(4, 3, strides=2),
            tf.keras.layers.GlobalAveragePooling2D(), tf.keras.layers.Dense(4)])
        loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
        opt = tf.keras.optimizers.SGD(0.1)

        @tf.function
        def step(xb, yb):
            with tf.GradientTape() as tape:
                loss = loss_fn(yb, model(xb, training=True))
            grads = tape.gradient(loss, model.trainable_variables)
            opt.apply_gradients(zip(grads, model.trainable_variables))
            return loss
        losses = [float(step(x, y)) for _ in range(3)]
        return [np.array(losses)] + [v.numpy() for v in model.trainable_variables]
    _close(*both(run, ALL), rtol=1e-3)


@pytest.mark.parametrize("batch", [20, 33, 40])
@pytest.mark.parametrize("channels_first", [False, True])
def test_filter_gradient_of_a_batch_split_over_threads(both, batch, channels_first,
                                                      monkeypatch):
    """On several threads shared with other processes, the filter gradient of a larger
    batch is summed from parts, each computed on one thread: equal to NumPy's, from the
    calling thread and from others."""
    from tests.internals import threads
    monkeypatch.setattr(threads, "_look", lambda: None)  # (never at the real load)
    monkeypatch.setattr(threads, "contended", True)
    data_format = "NCHW" if channels_first else "NHWC"
    x = _rand(batch, 16, 16, 16, seed=1)
    w = _rand(3, 3, 16, 64, seed=2)

    def one():
        return _value_and_grads(
            lambda x, w: tf.nn.conv2d(x, w, 1, "SAME", data_format=data_format), x, w)

    def run():
        tf.config.threading.set_intra_op_parallelism_threads(2)
        try:
            expected = one()
            if onednn.enabled():  # in parts of 9 to 16 examples (fewer cost more each)
                parts = [k[1][0] for k in list(onednn._cache)
                         if k[0] == "conv_backward_weights" and k[1][0] < batch]
                assert parts and all(8 < n <= 16 for n in parts)
            in_threads(lambda: [np.testing.assert_array_equal(a, b)
                                for a, b in zip(one(), expected)], [()] * 3, repeat=3)
        finally:
            tf.config.threading.set_intra_op_parallelism_threads(0)
        return expected
    native, numpy = both(run, ALL)
    _close(native, numpy)
    assert len(threads._helpers) >= 1


def test_filter_gradient_splits_the_batch_only_while_other_processes_keep_the_cores_busy(
        both, monkeypatch):
    """Each thread taking parts gets its share of busy cores, where one thread alone gets
    one: the batch is split then; on otherwise idle cores the whole batch runs on oneDNN's
    threads (faster), with the same gradient but for the order of its sums."""
    from tests.internals import threads
    x, w = _rand(40, 16, 16, 16, seed=1), _rand(3, 3, 16, 64, seed=2)
    monkeypatch.setattr(threads, "_look", lambda: None)  # (never at the real load)

    def run():
        tf.config.threading.set_intra_op_parallelism_threads(2)
        try:
            results, batches = [], []
            for contended in (False, True):
                monkeypatch.setattr(threads, "contended", contended)
                onednn.clear_cache()
                results.append(_value_and_grads(lambda x, w: tf.nn.conv2d(x, w, 1, "SAME"),
                                                x, w))
                batches.append({k[1][0] for k, p in list(onednn._cache.items())
                                if k[0] == "conv_backward_weights" and p is not None})
        finally:
            tf.config.threading.set_intra_op_parallelism_threads(0)
        _close(*results)
        if onednn.enabled():
            assert batches[0] == {40} and batches[1] and max(batches[1]) < 40
        return results[1]
    native, numpy = both(run, ALL)
    _close(native, numpy)


def test_small_filter_gradients_run_whole():
    """Parts too small to pay for their Python calls: the whole batch on one thread."""
    x, w = _rand(32, 8, 8, 1, seed=1), _rand(3, 3, 1, 4, seed=2)
    onednn.clear_cache()
    tf.config.threading.set_intra_op_parallelism_threads(2)
    try:
        _value_and_grads(lambda x, w: tf.nn.conv2d(x, w, 1, "SAME"), x, w)
    finally:
        tf.config.threading.set_intra_op_parallelism_threads(0)
    shapes = [k[1] for k, p in list(onednn._cache.items())
              if k[0] == "conv_backward_weights" and p is not None]
    assert shapes == [(32, 8, 8, 1)]


@pytest.mark.parametrize("strides, padding, kernel, filters, expected", [
    (1, "VALID", 3, 32, ("jit:avx512_core", "jit:avx512_core")),
    (2, "SAME", 3, 32, ("jit:avx512_core", "jit:avx512_core")),
    (2, "SAME", 3, 64, (None, "jit:avx512_core")),
    (2, "VALID", 1, 32, (None, "jit_1x1:avx512_core"))])
def test_narrow_unpadded_or_strided_convolutions_run_the_direct_kernel(both, strides, padding,
                                                                       kernel, filters,
                                                                       expected):
    # oneDNN's brgemm kernels, its first choice, are slower there (see onednn_conv._DIRECT);
    # the forward pass of a 1x1 or wider convolution keeps it
    x, w = _rand(4, 12, 12, 16), _rand(kernel, kernel, 16, filters, seed=1)

    def run():
        xt = tf.constant(x)
        with tf.GradientTape() as tape:
            tape.watch(xt)
            y = tf.nn.relu(tf.nn.conv2d(xt, tf.constant(w), strides, padding))
        dx = tape.gradient(y, xt)
        implementations = {key[0]: primitive.implementation()
                           for key, primitive in list(onednn._cache.items())
                           if primitive is not None and str(key[0]).startswith("conv")}
        return [y.numpy(), dx.numpy()], implementations

    (native, used), (numpy, _) = both(run, expect=("conv", "conv_backward_data"))
    _close(native, numpy)
    if "avx512_core" not in used["conv"]:
        pytest.skip(f"no AVX-512 kernels on this CPU ({used['conv']})")
    assert used["conv_backward_data"] == expected[1]
    assert used["conv"] == expected[0] or expected[0] is None and used["conv"].startswith("brg")

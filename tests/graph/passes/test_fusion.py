"""Fusion: matmul or conv2d + bias (+ activation) chains become one _FusedMatMul or
_FusedConv2D."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import eagerflow as tf
from tests.internals import fuse_bias_activation, onednn
from tests.graph.passes.helpers import assert_same_results, traced, types

_X = tf.TensorSpec([None, 4], tf.float32)
_W = tf.TensorSpec([4, 3], tf.float32)
_B = tf.TensorSpec([3], tf.float32)
_ACTIVATIONS = {"Relu": tf.nn.relu, "Relu6": tf.nn.relu6, "Elu": tf.nn.elu,
                "LeakyRelu": lambda y: tf.nn.leaky_relu(y, 0.1), "Tanh": tf.tanh,
                "Sigmoid": tf.sigmoid}


def _fused(fn, *specs):
    before = traced(fn, *specs)
    return before, fuse_bias_activation(before)


def _inputs(rows=5, seed=0):
    rng = np.random.default_rng(seed)
    return [rng.normal(size=s).astype(np.float32) for s in ((rows, 4), (4, 3), (3,))]


@pytest.mark.parametrize("name", sorted(_ACTIVATIONS))
def test_matmul_bias_activation_fuses(name):
    before, after = _fused(lambda x, w, b: _ACTIVATIONS[name](tf.matmul(x, w) + b), _X, _W, _B)
    assert types(after) == ["_FusedMatMul"]
    fused = [op for op in after.operations if op.type == "_FusedMatMul"][0]
    assert fused.attrs["fused_ops"] == [b"BiasAdd", name.encode()]
    assert fused.name == "MatMul"
    assert_same_results(before, after, *_inputs())


def test_bias_add_and_a_bias_on_the_left_fuse_without_activation():
    def f(x, w, b):
        return tf.nn.bias_add(tf.matmul(x, w, transpose_b=True), b), b + tf.matmul(x, w)

    before, after = _fused(f, tf.TensorSpec([5, 4], tf.float32),
                           tf.TensorSpec([4, 4], tf.float32), tf.TensorSpec([4], tf.float32))
    fused = [op for op in after.operations if op.type == "_FusedMatMul"]
    assert len(fused) == 2 and fused[0].attrs["transpose_b"]
    assert all(op.attrs["fused_ops"] == [b"BiasAdd"] for op in fused)
    rng = np.random.default_rng(1)
    assert_same_results(before, after, *[rng.normal(size=s).astype(np.float32)
                                         for s in ((5, 4), (4, 4), (4,))])


def test_intermediates_used_elsewhere_are_not_fused():
    def product_reused(x, w, b):
        y = tf.matmul(x, w)
        return tf.nn.relu(y + b), y

    def sum_reused(x, w, b):
        y = tf.matmul(x, w) + b
        return tf.nn.relu(y), y * 2.0

    assert "_FusedMatMul" not in types(_fused(product_reused, _X, _W, _B)[1])
    before, after = _fused(sum_reused, _X, _W, _B)
    assert "Relu" in types(after) and "_FusedMatMul" in types(after)  # matmul + bias only
    assert_same_results(before, after, *_inputs())


def test_non_bias_adds_and_unsupported_dtypes_are_not_fused():
    def full_add(x, w, c):
        return tf.matmul(x, w) + c

    assert "_FusedMatMul" not in types(
        _fused(full_add, _X, _W, tf.TensorSpec([5, 3], tf.float32))[1])
    f64 = [tf.TensorSpec(s.shape, tf.float64) for s in (_X, _W, _B)]
    assert "_FusedMatMul" not in types(_fused(lambda x, w, b: tf.matmul(x, w) + b, *f64)[1])


@settings(max_examples=20, deadline=None)
@given(hnp.arrays(np.float32, (3, 4), elements=st.floats(-3, 3, width=32)),
       hnp.arrays(np.float32, (3,), elements=st.floats(-3, 3, width=32)))
def test_fusion_keeps_results(x, b):
    w = np.linspace(-1, 1, 12, dtype=np.float32).reshape(4, 3)
    before, after = _fused(lambda x, w, b: tf.nn.relu6(tf.matmul(x, w) + b) * 2.0, _X, _W, _B)
    assert "Relu6" not in types(after)
    assert_same_results(before, after, x, w, b)


_IMAGES = tf.TensorSpec([None, 6, 5, 3], tf.float32)
_FILTER = tf.TensorSpec([3, 3, 3, 4], tf.float32)
_CHANNEL_BIAS = tf.TensorSpec([4], tf.float32)


def _conv_inputs(dtype=np.float32):
    rng = np.random.default_rng(2)
    return [rng.normal(size=s).astype(dtype) for s in ((2, 6, 5, 3), (3, 3, 3, 4), (4,))]


@pytest.mark.parametrize("name", sorted(_ACTIVATIONS))
def test_conv2d_bias_activation_fuses(name):
    def f(x, w, b):
        return _ACTIVATIONS[name](tf.nn.bias_add(tf.nn.conv2d(x, w, 2, "SAME"), b))

    before, after = _fused(f, _IMAGES, _FILTER, _CHANNEL_BIAS)
    assert types(after) == ["_FusedConv2D"]
    fused = [op for op in after.operations if op.type == "_FusedConv2D"][0]
    conv = [op for op in before.operations if op.type == "Conv2D"][0]
    assert fused.attrs == {**conv.attrs, "fused_ops": [b"BiasAdd", name.encode()],
                           "num_args": 1,
                           **({"leakyrelu_alpha": 0.1} if name == "LeakyRelu" else {})}
    assert fused.name == conv.name
    assert fused.outputs[0].shape.as_list() == [None, 3, 3, 4]
    assert_same_results(before, after, *_conv_inputs())


def test_conv2d_plus_a_vector_fuses_in_float64_too():
    f64 = [tf.TensorSpec(s.shape, tf.float64) for s in (_IMAGES, _FILTER, _CHANNEL_BIAS)]
    before, after = _fused(lambda x, w, b: b + tf.nn.conv2d(x, w, 1, "VALID"), *f64)
    assert types(after) == ["_FusedConv2D"]
    assert [op for op in after.operations if op.type == "_FusedConv2D"][0].attrs[
        "fused_ops"] == [b"BiasAdd"]
    assert_same_results(before, after, *_conv_inputs(np.float64))


def test_channels_first_and_integer_convolutions_are_not_fused():
    nchw = tf.TensorSpec([2, 3, 6, 5], tf.float32)

    def channels_first(x, w, b):
        return tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(x, w, 1, "VALID", data_format="NCHW"), b,
                                         data_format="NCHW"))

    assert "_FusedConv2D" not in types(_fused(channels_first, nchw, _FILTER, _CHANNEL_BIAS)[1])
    ints = [tf.TensorSpec(s.shape, tf.int32) for s in (_IMAGES, _FILTER, _CHANNEL_BIAS)]
    assert "_FusedConv2D" not in types(
        _fused(lambda x, w, b: tf.nn.conv2d(x, w, 1, "VALID") + b, *ints)[1])


@pytest.mark.parametrize("native", [True, False])
@pytest.mark.parametrize("dtype, nan_gives", [(tf.float32, 0.0), (tf.bfloat16, 0.0),
                                              (tf.float16, np.nan), (tf.float64, np.nan)])
def test_fused_relus_give_zero_for_nan_as_tensorflow_on_x86(native, dtype, nan_gives):
    # TF's fused float32/bfloat16 products run on oneDNN, whose ReLU turns NaN into 0; a
    # standalone Relu, float16 and float64 keep NaN. Both of our backends agree with TF.
    x = tf.constant([[np.nan, 1.0], [1.0, -3.0]], dtype)
    w, b = tf.ones([2, 3], dtype), tf.constant([0.5, 0.0, -0.5], dtype)
    image = tf.constant(np.array([np.nan, 1, 2, -3, 4, 5, 6, 7, 8]).reshape(1, 3, 3, 1), dtype)
    k, kb = tf.ones([2, 2, 1, 2], dtype), tf.constant([0.0, -1.0], dtype)
    onednn.set_enabled(native)
    try:
        for act in (tf.nn.relu, tf.nn.relu6):
            dense = tf.function(lambda x: act(tf.nn.bias_add(tf.matmul(x, w), b)))(x)
            conv = tf.function(lambda x: act(tf.nn.bias_add(tf.nn.conv2d(x, k, 1, "VALID"),
                                                            kb)))(image)
            np.testing.assert_equal(dense.numpy()[0].astype(np.float64), [nan_gives] * 3)
            np.testing.assert_equal(dense.numpy()[1].astype(np.float64), [0.0] * 3)
            np.testing.assert_equal(conv.numpy()[0, 0, 0].astype(np.float64), [nan_gives] * 2)
    finally:
        onednn.set_enabled(None)
    assert np.isnan(tf.nn.relu(tf.nn.bias_add(tf.matmul(x, w), b)).numpy()[0]).all()  # eager


def test_dense_relu_fit_on_nan_data_matches_tensorflow():
    # Recorded with TF 2.21 + tf_keras: the fused Dense ReLU zeroes the NaN row, so the
    # losses stay finite; the first kernel's row that meets the NaN input becomes NaN.
    x = np.linspace(-1, 1, 64).reshape(32, 2).astype("float32")
    y = (x[:, :1] * 2 - x[:, 1:]).astype("float32")
    x[3, 0] = np.nan
    model = tf.keras.Sequential([
        tf.keras.layers.Dense(4, activation="relu", kernel_initializer="ones"),
        tf.keras.layers.Dense(1, kernel_initializer="ones")])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.05), loss="mse", metrics=["mae"])
    np.testing.assert_allclose(model.evaluate(x, y, verbose=0, batch_size=8),
                               [8.787352561950684, 2.0793652534484863], rtol=1e-6)
    history = model.fit(x, y, epochs=1, batch_size=8, verbose=0, shuffle=False).history
    np.testing.assert_allclose(history["loss"], [0.37568536400794983], rtol=1e-6)
    np.testing.assert_allclose(history["mae"], [0.5315715074539185], rtol=1e-6)
    kernel, bias, kernel2, bias2 = [w.numpy() for w in model.weights]
    assert np.isnan(kernel[0]).all()
    np.testing.assert_equal(kernel[1], 1.0)
    np.testing.assert_equal(bias, 0.0)
    np.testing.assert_equal(kernel2, 1.0)
    np.testing.assert_allclose(bias2, [0.00655715], rtol=1e-5)


def _depthwise(x, w, b):
    return tf.nn.relu6(tf.nn.bias_add(tf.nn.depthwise_conv2d(x, w, [1, 2, 2, 1], "SAME"), b))


def _conv3d(x, w, b):
    return tf.nn.relu(tf.nn.conv3d(x, w, [1, 1, 2, 1, 1], "SAME") + b)


_CASES = {"_FusedDepthwiseConv2dNative": (_depthwise, ([2, 6, 5, 3], [3, 3, 3, 2], [6])),
          "_FusedConv3D": (_conv3d, ([2, 4, 5, 3, 2], [2, 3, 2, 2, 4], [4]))}


@pytest.mark.parametrize("fused_type", sorted(_CASES))
def test_depthwise_and_conv3d_bias_activation_fuse(fused_type):
    fn, shapes = _CASES[fused_type]
    before, after = _fused(fn, *[tf.TensorSpec([None, *s[1:]] if i == 0 else s)
                                 for i, s in enumerate(shapes)])
    assert types(after) == [fused_type]
    fused = [op for op in after.operations if op.type == fused_type][0]
    assert fused.attrs["fused_ops"][0] == b"BiasAdd" and fused.attrs["num_args"] == 1
    rng = np.random.default_rng(3)
    assert_same_results(before, after, *[rng.normal(size=s).astype(np.float32) * 2
                                         for s in shapes])


@pytest.mark.parametrize("native", [True, False])
@pytest.mark.parametrize("dtype, nan_gives", [(tf.float32, 0.0), (tf.bfloat16, 0.0),
                                              (tf.float16, np.nan), (tf.float64, np.nan)])
def test_depthwise_and_conv3d_fused_relus_give_zero_for_nan_as_tensorflow(native, dtype,
                                                                         nan_gives):
    # Recorded with TF 2.21 on x86: a NaN pixel's windows give 0 in a function
    # (oneDNN's fused ReLU, float32 and bfloat16), NaN eagerly and in float16/float64.
    image = np.ones((1, 4, 4, 2), np.float32)
    image[0, 1, 1, 0] = np.nan
    volume = np.ones((1, 3, 3, 3, 2), np.float32)
    volume[0, 1, 1, 1, 0] = np.nan
    k, k3 = tf.fill([2, 2, 2, 1], 0.1), tf.fill([2, 2, 2, 2, 3], 0.1)
    onednn.set_enabled(native)
    try:
        for act in (tf.nn.relu, tf.nn.relu6):
            def depthwise(x, k, b):
                return act(tf.nn.bias_add(tf.nn.depthwise_conv2d(x, k, [1, 1, 1, 1], "VALID"), b))

            def conv3d(x, k, b):
                return act(tf.nn.bias_add(tf.nn.conv3d(x, k, [1] * 5, "VALID"), b))
            for fn, x, w, channels in ((depthwise, image, k, 2), (conv3d, volume, k3, 3)):
                args = [tf.cast(v, dtype) for v in (x, w, tf.zeros([channels]))]
                eager = fn(*args).numpy().astype(np.float64)
                assert np.isnan(eager).any()
                np.testing.assert_allclose(tf.function(fn)(*args).numpy().astype(np.float64),
                                           np.where(np.isnan(eager), nan_gives, eager),
                                           rtol=1e-2)
    finally:
        onednn.set_enabled(None)


def _conv_batch_norm(x, w, scale, offset, mean, variance, act=tf.nn.relu, training=False):
    y = tf.nn.conv2d(x, w, 1, "SAME")
    y = tf.compat.v1.nn.fused_batch_norm(y, scale, offset, mean=mean, variance=variance,
                                         epsilon=0.01, is_training=training)[0]
    return act(y)


_BN = [tf.TensorSpec([4], tf.float32)] * 4


@pytest.mark.parametrize("act, name", [(tf.nn.relu, b"Relu"), (tf.nn.relu6, b"Relu6"),
                                       (tf.nn.elu, b"Elu")])
def test_conv2d_inference_batch_norm_activation_fuses_in_float32(act, name):
    before, after = _fused(lambda *a: _conv_batch_norm(*a, act=act), _IMAGES, _FILTER, *_BN)
    assert types(after) == ["_FusedConv2D"]
    fused = [op for op in after.operations if op.type == "_FusedConv2D"][0]
    assert fused.attrs["fused_ops"] == [b"FusedBatchNorm", name]
    assert fused.attrs["num_args"] == 4 and fused.attrs["epsilon"] == pytest.approx(0.01)
    rng = np.random.default_rng(4)
    stats = [rng.uniform(0.5, 2, 4).astype(np.float32) for _ in range(4)]
    assert_same_results(before, after, *_conv_inputs()[:2], *stats)


def test_conv2d_batch_norm_in_training_bfloat16_or_with_statistics_read_is_not_fused():
    def statistics_read(x, w, scale, offset, mean, variance):
        y, m, _ = tf.compat.v1.nn.fused_batch_norm(tf.nn.conv2d(x, w, 1, "SAME"), scale,
                                                   offset, mean=mean, variance=variance,
                                                   is_training=False)
        return tf.nn.relu(y), m

    def training(x, w, scale, offset):
        return _conv_batch_norm(x, w, scale, offset, None, None, training=True)

    for fn, specs in ((statistics_read, _BN), (training, _BN[:2])):
        assert "_FusedConv2D" not in types(_fused(fn, _IMAGES, _FILTER, *specs)[1])
    bf16 = [tf.TensorSpec(s.shape, tf.bfloat16) for s in (_IMAGES, _FILTER)]
    assert "_FusedConv2D" not in types(_fused(_conv_batch_norm, *bf16, *_BN)[1])


def test_keras_conv_batch_norm_relu_in_a_function_gives_zero_for_nan_as_tensorflow():
    # Recorded with TF 2.21 + tf_keras: the NaN pixel's windows give 0 in a function, NaN
    # eagerly.
    model = tf.keras.Sequential([tf.keras.layers.Conv2D(2, 2, use_bias=False,
                                                        kernel_initializer="ones"),
                                 tf.keras.layers.BatchNormalization(), tf.keras.layers.ReLU()])
    x = np.ones((1, 3, 3, 1), np.float32)
    x[0, 0, 0, 0] = np.nan
    model(x)
    y = tf.function(model)(x).numpy()
    np.testing.assert_equal(y[0, 0, 0], [0.0, 0.0])
    np.testing.assert_allclose(y[0, 1, 1], [4 / np.sqrt(1.001)] * 2, rtol=1e-6)
    assert np.isnan(model(x).numpy()[0, 0, 0]).all()


def test_dilated_convolutions_of_the_wrappers_are_not_fused():
    # TF's wrappers compute these on the input cut into grids: BatchToSpaceND, not the
    # convolution, gives the result, and a following ReLU keeps NaN.
    dw = tf.TensorSpec([3, 3, 3, 1], tf.float32)

    def depthwise(x, w, b):
        return tf.nn.relu(tf.nn.depthwise_conv2d(x, w, [1, 1, 1, 1], "SAME", dilations=[2, 2]) + b)

    def convolution(x, w, b):
        return tf.nn.relu(tf.nn.convolution(x, w, padding="SAME", dilations=2) + b)

    def conv2d(x, w, b):  # TF's conv2d gives its op the dilations: it fuses
        return tf.nn.relu(tf.nn.conv2d(x, w, 1, "SAME", dilations=2) + b)

    assert "_FusedDepthwiseConv2dNative" not in types(
        _fused(depthwise, _IMAGES, dw, tf.TensorSpec([3]))[1])
    assert "_FusedConv2D" not in types(_fused(convolution, _IMAGES, _FILTER, _CHANNEL_BIAS)[1])
    assert types(_fused(conv2d, _IMAGES, _FILTER, _CHANNEL_BIAS)[1]) == ["_FusedConv2D"]


def test_ops_other_ops_run_after_are_not_fused():
    # Recorded with TF 2.21 on x86: a control dependency on the ReLU or the bias add keeps
    # them out of the fused op, and the ReLU keeps NaN (without one it gives 0).
    x = np.ones((4, 3), np.float32)
    x[1, 1] = np.nan
    w, b = tf.Variable(np.ones((3, 2), np.float32)), tf.Variable(np.full(2, 0.1, np.float32))
    count = tf.Variable(0)

    def step(after):
        def f(x):
            z = tf.nn.bias_add(x @ w, b)
            y = tf.nn.relu(z)
            if after is not None:
                with tf.control_dependencies([{"relu": y, "bias": z}[after].op]):
                    count.assign_add(1)
            else:
                count.assign_add(1)
            return y
        return tf.function(f)(x).numpy()

    for after in ("relu", "bias"):
        assert np.isnan(step(after)[1]).all()
    np.testing.assert_equal(step(None)[1], [0.0, 0.0])
    assert count.numpy() == 3


def test_keras_predict_keeps_the_nan_of_a_final_relu_as_tensorflow():
    # Recorded with TF 2.21 + tf_keras: predict's step counts itself after its outputs,
    # waiting on the first, which keeps the final ReLU out of the fused op: NaN stays
    # NaN there (a function calling the model gives 0).
    x = np.ones((4, 3), np.float32)
    x[1, 1] = np.nan
    dense = tf.keras.Sequential([tf.keras.layers.Dense(2, activation="relu",
                                                       kernel_initializer="ones",
                                                       bias_initializer="ones")])
    conv = tf.keras.Sequential([tf.keras.layers.Conv2D(2, 2, use_bias=False,
                                                       kernel_initializer="ones"),
                                tf.keras.layers.BatchNormalization(), tf.keras.layers.ReLU()])
    image = np.ones((1, 3, 3, 1), np.float32)
    image[0, 0, 0, 0] = np.nan
    for model, data, row in ((dense, x, 1), (conv, image, (0, 0, 0))):
        assert np.isnan(model.predict(data, verbose=0)[row]).all()
        assert np.isnan(model.predict_on_batch(data)[row]).all()
    assert dense._predict_counter.numpy() == 2  # predict's step, then predict_on_batch's
    np.testing.assert_equal(tf.function(dense)(x).numpy()[1], [0.0, 0.0])

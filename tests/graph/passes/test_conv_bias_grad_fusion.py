"""Filter and bias gradient fusion: Conv2DBackpropFilter and BiasAddGrad of one output
gradient become _Conv2DBackpropFilterWithBias, with the results of the ops they replace."""
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import eagerflow as tf
from tests.graph.passes.helpers import evaluate, traced, types
from tests.internals import (_CONV2D_BACKPROP_FILTER_WITH_BIAS, dispatch, fuse_conv_bias_gradients,
                             optimize)

_FUSED = "_Conv2DBackpropFilterWithBias"
_REPLACED = {"Conv2DBackpropFilter", "BiasAddGrad"}


def _grads(strides=1, padding="VALID", data_format="NHWC"):
    def fn(x, w, b):
        with tf.GradientTape() as tape:
            tape.watch([x, w, b])
            y = tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(x, w, strides, padding), b,
                                          data_format=data_format))
            loss = tf.reduce_sum(y * y)
        return tape.gradient(loss, [x, w, b])
    return fn


def _specs(x_shape, w_shape, bias=None):
    return (tf.TensorSpec(x_shape, tf.float32), tf.TensorSpec(w_shape, tf.float32),
            tf.TensorSpec([bias or w_shape[-1]], tf.float32))


def _feeds(x_shape, w_shape, bias=None, seed=0):
    rng = np.random.default_rng(seed)
    return [rng.normal(size=s).astype(np.float32)
            for s in (x_shape, w_shape, (bias or w_shape[-1],))]


def _assert_close(before, after, feeds):
    for got, want in zip(evaluate(after, *feeds), evaluate(before, *feeds)):
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_filter_and_bias_gradients_fuse(path):
    before = traced(_grads(), *_specs([5, 6, 7, 3], [3, 3, 3, 4]))
    after = fuse_conv_bias_gradients(before)
    assert _FUSED in types(after) and not _REPLACED & set(types(after))
    fused = [op for op in after.operations if op.type == _FUSED][0]
    assert [t.shape.as_list() for t in fused.outputs] == [[3, 3, 3, 4], [4]]
    _assert_close(before, after, _feeds((5, 6, 7, 3), (3, 3, 3, 4)))


@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(batch=st.integers(1, 4), size=st.integers(3, 9), channels=st.integers(1, 5),
       filters=st.integers(1, 6), kernel=st.integers(1, 3), strides=st.integers(1, 2),
       padding=st.sampled_from(["VALID", "SAME"]))
def test_fused_gradients_match_the_unfused_ones(path, batch, size, channels, filters, kernel,
                                                strides, padding):
    x_shape, w_shape = (batch, size, size + 1, channels), (kernel, kernel, channels, filters)
    before = traced(_grads(strides, padding), *_specs(x_shape, w_shape))
    after = fuse_conv_bias_gradients(before)
    assert _FUSED in types(after)
    _assert_close(before, after, _feeds(x_shape, w_shape))


def test_channels_first_bias_is_not_fused():
    """A bias along axis 1 of a channels-last convolution: its gradient sums other axes."""
    before = traced(_grads(data_format="NCHW"), *_specs([2, 5, 5, 3], [3, 3, 3, 4], bias=3))
    after = fuse_conv_bias_gradients(before)
    assert _FUSED not in types(after) and _REPLACED <= set(types(after))
    _assert_close(before, after, _feeds((2, 5, 5, 3), (3, 3, 3, 4), bias=3))


def test_bias_gradient_of_another_tensor_is_not_fused():
    def fn(x, w, dy):
        return [tf.raw_ops.Conv2DBackpropFilter(input=x, filter_sizes=[3, 3, 3, 4],
                                                out_backprop=dy, strides=[1, 1, 1, 1],
                                                padding="VALID"),
                tf.raw_ops.BiasAddGrad(out_backprop=dy * 2.0)]
    specs = (tf.TensorSpec([2, 5, 5, 3]), tf.TensorSpec([3, 3, 3, 4]),
             tf.TensorSpec([2, 3, 3, 4]))
    assert _FUSED not in types(fuse_conv_bias_gradients(traced(fn, *specs)))


def test_filter_input_computed_after_the_bias_gradient_is_not_fused():
    def fn(x, dy):
        db = tf.raw_ops.BiasAddGrad(out_backprop=dy)
        later = x + tf.reduce_sum(db)  # the filter gradient's input depends on db
        return [tf.raw_ops.Conv2DBackpropFilter(input=later, filter_sizes=[3, 3, 3, 4],
                                                out_backprop=dy, strides=[1, 1, 1, 1],
                                                padding="VALID"), db]
    specs = (tf.TensorSpec([2, 5, 5, 3]), tf.TensorSpec([2, 3, 3, 4]))
    before = traced(fn, *specs)
    after = fuse_conv_bias_gradients(before)
    assert _FUSED not in types(after)
    rng = np.random.default_rng(1)
    _assert_close(before, after, [rng.normal(size=(2, 5, 5, 3)).astype(np.float32),
                                  rng.normal(size=(2, 3, 3, 4)).astype(np.float32)])


def _train(options, remapping, x, y):
    options.set_experimental_options({"remapping": remapping})
    tf.keras.utils.set_random_seed(3)
    model = tf.keras.Sequential([
        tf.keras.layers.Conv2D(4, 3, activation="relu"),
        tf.keras.layers.Conv2D(5, 3, activation="relu"),
        tf.keras.layers.GlobalAveragePooling2D(), tf.keras.layers.Dense(3)])
    optimizer = tf.keras.optimizers.Adam()

    @tf.function
    def step(x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.keras.losses.sparse_categorical_crossentropy(
                y, model(x), from_logits=True))
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return loss
    losses = [float(step(x, y)) for _ in range(3)]
    return losses, [v.numpy() for v in model.weights]


def test_keras_training_step_matches_unfused(path, optimizer_options):
    """Weights and losses after a few steps are those of the unfused ops, and of eager steps."""
    rng = np.random.default_rng(4)
    x = tf.constant(rng.normal(size=(6, 8, 8, 2)).astype(np.float32))
    y = tf.constant(rng.integers(0, 3, 6))
    fused_losses, fused = _train(optimizer_options, True, x, y)
    losses, weights = _train(optimizer_options, False, x, y)
    np.testing.assert_allclose(fused_losses, losses, rtol=1e-5)
    for got, want in zip(fused, weights):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_pipeline_fuses_under_remapping(optimizer_options):
    cf = tf.function(_grads()).get_concrete_function(*_specs([2, 5, 5, 3], [3, 3, 3, 4]))
    assert _FUSED in [op.type for op in optimize(cf.graph, cf.inputs, cf.outputs).operations]
    optimizer_options.set_experimental_options({"remapping": False})
    assert _FUSED not in [op.type for op in optimize(cf.graph, cf.inputs,
                                                     cf.outputs).operations]


@pytest.mark.parametrize("x_shape, w_shape", [((32, 14, 14, 16), (3, 3, 16, 32)),
                                              ((16, 66, 66, 1), (3, 3, 1, 16)),
                                              ((33, 9, 7, 3), (2, 2, 3, 5))])
def test_fused_kernel_matches_the_ops_it_replaces(path, x_shape, w_shape):
    """Large enough for the filter gradient to be split over the batch (its parts' bias
    gradients summed in order), a large one of too small a batch (its bias gradient summed
    meanwhile on another thread), and with rows left over from the channel sums' blocks."""
    rng = np.random.default_rng(5)
    x = tf.constant(rng.normal(size=x_shape).astype(np.float32))
    dy_shape = (x_shape[0], x_shape[1] - w_shape[0] + 1, x_shape[2] - w_shape[1] + 1,
                w_shape[-1])
    dy = tf.constant(rng.normal(size=dy_shape).astype(np.float32))
    attrs = {"filter_sizes": w_shape, "strides": [1, 1, 1, 1], "padding": "VALID",
             "explicit_paddings": [], "data_format": "NHWC", "dilations": [1, 1, 1, 1]}
    dw, db = dispatch(_CONV2D_BACKPROP_FILTER_WITH_BIAS, (x, dy), attrs)
    want_w = tf.raw_ops.Conv2DBackpropFilter(input=x, filter_sizes=w_shape, out_backprop=dy,
                                             strides=[1, 1, 1, 1], padding="VALID")
    np.testing.assert_allclose(dw.numpy(), want_w.numpy(), rtol=1e-5, atol=1e-4)
    np.testing.assert_allclose(db.numpy(), dy.numpy().astype(np.float64).sum((0, 1, 2)),
                               rtol=1e-5, atol=1e-3)


def test_fused_bias_gradient_keeps_infinities_and_nan(path):
    """Large (its channel sums on oneDNN's matmul with a row of ones): an infinite output
    gradient makes its channel's bias gradient infinite, a NaN or both signs NaN, as
    BiasAddGrad's sum does."""
    x = tf.ones([32, 26, 26, 16])
    dy = np.ones((32, 24, 24, 4), np.float32)
    dy[3, 4, 5, 1] = np.inf
    dy[0, 0, 0, 2] = np.nan
    dy[1, 2, 3, 3], dy[2, 3, 4, 3] = np.inf, -np.inf
    attrs = {"filter_sizes": (3, 3, 16, 4), "strides": [1, 1, 1, 1], "padding": "VALID",
             "explicit_paddings": [], "data_format": "NHWC", "dilations": [1, 1, 1, 1]}
    _, db = dispatch(_CONV2D_BACKPROP_FILTER_WITH_BIAS, (x, tf.constant(dy)), attrs)
    got = db.numpy()
    assert got[0] == 32 * 24 * 24 and got[1] == np.inf
    assert np.isnan(got[2]) and np.isnan(got[3])


def test_bfloat16_bias_gradient_in_a_function_sums_in_float32():
    """Fused with the filter's, a bfloat16 bias gradient is summed in float32 and rounded
    once, as TensorFlow's oneDNN kernel does: 300 ones make 300 (added one by one in
    bfloat16 they stop at 256)."""
    w = tf.Variable(tf.ones([3, 3, 2, 2]))
    b = tf.Variable(tf.zeros([2]))

    @tf.function
    def grads(x):
        with tf.GradientTape() as tape:
            y = tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(x, tf.cast(w, tf.bfloat16), 1, "VALID"),
                                          tf.cast(b, tf.bfloat16)))
            loss = tf.reduce_sum(tf.cast(y, tf.float32) * tf.constant([1.0, 0.01]))
        return tape.gradient(loss, [w, b])

    dw, db = grads(tf.ones([3, 12, 12, 2], tf.bfloat16))
    assert dw.numpy()[0, 0].tolist() == [[300.0, 3.0], [300.0, 3.0]]
    assert db.numpy().tolist() == [300.0, 3.0]  # TensorFlow 2.21's values


def test_second_derivatives_in_a_function_match_unfused(path, optimizer_options):
    """Gradients of the fused gradients (nested tapes, a tape around the call)."""
    x, w, b = map(tf.constant, _feeds((2, 6, 6, 2), (3, 3, 2, 3)))

    def second(x, w, b):
        with tf.GradientTape() as outer:
            outer.watch([w, b])
            dx, dw, db = _grads()(x, w, b)
            total = tf.reduce_sum(dw * dw) + tf.reduce_sum(db * db) + tf.reduce_sum(dx)
        return outer.gradient(total, [w, b])

    got = [g.numpy() for g in tf.function(second)(x, w, b)]
    with tf.GradientTape() as tape:
        tape.watch(w)
        called = tf.function(lambda x, w, b: _grads()(x, w, b)[1])(x, w, b)
        loss = tf.reduce_sum(called * called)
    around = tape.gradient(loss, w).numpy()
    optimizer_options.set_experimental_options({"remapping": False})
    want = [g.numpy() for g in tf.function(second)(x, w, b)]
    with tf.GradientTape() as tape:
        tape.watch(w)
        called = tf.function(lambda x, w, b: _grads()(x, w, b)[1])(x, w, b)
        loss = tf.reduce_sum(called * called)
    np.testing.assert_allclose(around, tape.gradient(loss, w).numpy(), rtol=1e-5, atol=1e-5)
    for g, v in zip(got, want):
        np.testing.assert_allclose(g, v, rtol=1e-5, atol=1e-5)


def test_unknown_batch_fuses_through_the_run_time_reduction(path):
    """A batch unknown when traced: the filter gradient reads the output gradient summed
    over the axes broadcast at run time (none), and still fuses, at the filter's place."""
    before = traced(_grads(), *_specs([None, 6, 7, 3], [3, 3, 3, 4]))
    assert "Sum" in types(before)  # the reduction to the convolution's output shape
    after = fuse_conv_bias_gradients(before)
    assert _FUSED in types(after) and not _REPLACED & set(types(after))
    for batch in (5, 1):
        _assert_close(before, after, _feeds((batch, 6, 7, 3), (3, 3, 3, 4)))


def test_filter_shape_known_at_run_time_is_not_fused():
    """A filter gradient given its filter's shape as an input (``shape(w)``) stays unfused."""
    before = traced(_grads(), tf.TensorSpec([2, 6, 7, 3], tf.float32),
                    tf.TensorSpec(None, tf.float32), tf.TensorSpec([4], tf.float32))
    after = fuse_conv_bias_gradients(before)
    assert _FUSED not in types(after) and _REPLACED <= set(types(after))
    _assert_close(before, after, _feeds((2, 6, 7, 3), (3, 3, 3, 4)))


def test_a_reduction_over_channels_is_not_seen_through():
    def fn(x, dy, like):
        axes = tf.raw_ops.BroadcastGradientArgs(s0=tf.shape(like), s1=tf.shape(dy))[0]
        summed = tf.reshape(tf.reduce_sum(dy, axes, keepdims=True), [-1, 3, 3, 4])
        return [tf.raw_ops.Conv2DBackpropFilter(input=x, filter_sizes=[3, 3, 3, 4],
                                                out_backprop=summed, strides=[1, 1, 1, 1],
                                                padding="VALID"),
                tf.raw_ops.BiasAddGrad(out_backprop=dy)]
    for like in ([None, 3, 3, 1], [None, 3, 3, 4]):
        specs = (tf.TensorSpec([None, 5, 5, 3]), tf.TensorSpec([None, 3, 3, 4]),
                 tf.TensorSpec(like))
        fused = _FUSED in types(fuse_conv_bias_gradients(traced(fn, *specs)))
        assert fused == (like[-1] == 4)


def test_bias_gradient_read_before_the_filter_gradient_can_run_is_not_fused():
    def fn(x, dy):
        db = tf.raw_ops.BiasAddGrad(out_backprop=dy)
        later = x + tf.reduce_sum(db)  # read before the filter gradient's input exists
        return [tf.raw_ops.Conv2DBackpropFilter(input=later, filter_sizes=[3, 3, 3, 4],
                                                out_backprop=dy, strides=[1, 1, 1, 1],
                                                padding="VALID"), db * 2.0]
    specs = (tf.TensorSpec([2, 5, 5, 3]), tf.TensorSpec([2, 3, 3, 4]))
    assert _FUSED not in types(fuse_conv_bias_gradients(traced(fn, *specs)))


def test_bias_gradient_read_after_the_filter_gradient_fuses_there():
    def fn(x, dy):
        db = tf.raw_ops.BiasAddGrad(out_backprop=dy)
        later = x * 2.0  # the filter gradient's input, made after the bias gradient
        dw = tf.raw_ops.Conv2DBackpropFilter(input=later, filter_sizes=[3, 3, 3, 4],
                                             out_backprop=dy, strides=[1, 1, 1, 1],
                                             padding="VALID")
        return [dw, db * 2.0]
    specs = (tf.TensorSpec([2, 5, 5, 3]), tf.TensorSpec([2, 3, 3, 4]))
    before = traced(fn, *specs)
    after = fuse_conv_bias_gradients(before)
    assert _FUSED in types(after)
    rng = np.random.default_rng(2)
    _assert_close(before, after, [rng.normal(size=(2, 5, 5, 3)).astype(np.float32),
                                  rng.normal(size=(2, 3, 3, 4)).astype(np.float32)])


def _fit(options, remapping, x, y):
    options.set_experimental_options({"remapping": remapping})
    tf.keras.utils.set_random_seed(5)
    model = tf.keras.Sequential([
        tf.keras.layers.Conv2D(4, 3, padding="same", activation="relu", input_shape=(6, 6, 1)),
        tf.keras.layers.Conv2D(3, 3, activation="relu"),
        tf.keras.layers.GlobalAveragePooling2D(), tf.keras.layers.Dense(2)])
    model.compile(optimizer=tf.keras.optimizers.Adam(1e-2),
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    history = model.fit(x, y, batch_size=4, epochs=2, verbose=0, shuffle=False)
    return history.history["loss"], [v.numpy() for v in model.weights]


def test_keras_fit_matches_unfused(path, optimizer_options):
    """`fit` traces with an unknown batch (and a last batch of 2): the same training."""
    rng = np.random.default_rng(6)
    x = rng.normal(size=(10, 6, 6, 1)).astype(np.float32)
    y = rng.integers(0, 2, 10)
    fused_losses, fused = _fit(optimizer_options, True, x, y)
    losses, weights = _fit(optimizer_options, False, x, y)
    np.testing.assert_allclose(fused_losses, losses, rtol=1e-5)
    for got, want in zip(fused, weights):
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)

"""Broadcast + ReLU gradient fusion: ReluGrad(BroadcastTo(g, shape), r), the gradient of a
mean over axes reaching a ReLU's, becomes _BroadcastReluGrad, with the results bit for bit
of the ops it replaces."""
import numpy as np
import pytest

import eagerflow as tf
from tests.graph.passes.helpers import evaluate, traced, types
from tests.internals import (_BROADCAST_RELU_GRAD, dispatch, fuse_broadcast_relu_gradients,
                             optimize, threads)

_FUSED = "_BroadcastReluGrad"


def _assert_fused(before, after):
    """`after` has the fused op in place of one ReluGrad and its BroadcastTo."""
    kinds, was = types(after), types(before)
    assert kinds.count(_FUSED) == 1 and kinds.count("ReluGrad") == was.count("ReluGrad") - 1
    assert kinds.count("BroadcastTo") == was.count("BroadcastTo") - 1


def _pooled_grad(x, dy):
    """The gradient of a global average pooling of relu(x), given the pooling's gradient."""
    with tf.GradientTape() as tape:
        tape.watch(x)
        pooled = tf.reduce_mean(tf.nn.relu(x), axis=[1, 2])
        loss = tf.reduce_sum(pooled * dy)
    return tape.gradient(loss, x)


def _specs(batch=4):
    return tf.TensorSpec([batch, 5, 6, 3], tf.float32), tf.TensorSpec([batch, 3], tf.float32)


def _feeds(batch=4, seed=0):
    """Features at ReLU's boundary (0, -0, the least positive float) and NaN and infinite
    features and gradients among random ones."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(batch, 5, 6, 3)).astype(np.float32)
    x[0, 0, :, 0] = [0.0, -0.0, 1e-45, np.nan, np.inf, -np.inf]
    dy = rng.normal(size=(batch, 3)).astype(np.float32)
    dy[0] = [np.nan, np.inf, -np.inf]
    return x, dy


def _assert_same(before, after, feeds):
    """Equal outputs bit for bit (the fused op multiplies as ReluGrad does)."""
    for got, want in zip(evaluate(after, *feeds), evaluate(before, *feeds)):
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got.view(np.int32), want.view(np.int32))


def test_mean_gradient_into_relu_gradient_fuses(path):
    before = traced(_pooled_grad, *_specs())
    after = fuse_broadcast_relu_gradients(before)
    _assert_fused(before, after)
    fused = [op for op in after.operations if op.type == _FUSED][0]
    assert [t.shape.as_list() for t in fused.inputs] == [[4, 1, 1, 3], [4, 5, 6, 3]]
    assert fused.outputs[0].shape.as_list() == [4, 5, 6, 3]
    _assert_same(before, after, _feeds())


def test_nan_and_infinite_gradients_and_the_relu_boundary(path):
    """A NaN gradient is NaN everywhere, an infinite one NaN where the ReLU's result is 0
    (inf * 0, as ReluGrad multiplies); features of 0 and -0 and NaN ones (NaN > 0 is
    false) pass no gradient, the least positive float and inf pass it."""
    x, dy = _feeds()
    x[1, 0, :, 0] = x[0, 0, :, 0]
    got = evaluate(fuse_broadcast_relu_gradients(traced(_pooled_grad, *_specs())), x, dy)[0]
    assert np.isnan(got[0, ..., 0]).all()
    positive = x[0] > 0
    np.testing.assert_array_equal(np.isnan(got[0, ..., 1]), ~positive[..., 1])
    assert (got[0, ..., 1][positive[..., 1]] == np.inf).all()
    assert (got[0, ..., 2][positive[..., 2]] == -np.inf).all()
    g = dy[1, 0] / np.float32(30)  # (a mean's gradient: divided by the count, as TF's)
    np.testing.assert_array_equal(got[1, 0, :, 0], [0, 0, g, 0, g, 0])


def test_unknown_batch_fuses_through_the_run_time_shape(path):
    before = traced(_pooled_grad, *_specs(None))
    assert "Shape" in types(before)
    after = fuse_broadcast_relu_gradients(before)
    _assert_fused(before, after)
    assert types(after).count("Shape") == types(before).count("Shape") - 1  # read by the broadcast alone
    for batch in (4, 1):
        _assert_same(before, after, _feeds(batch, seed=batch))


@pytest.mark.parametrize("returned", [False, True])
def test_broadcast_read_elsewhere_or_returned_is_not_fused(returned):
    def fn(g, r):
        full = tf.broadcast_to(g, [2, 3, 3, 4])
        return [tf.raw_ops.ReluGrad(gradients=full, features=r),
                full if returned else full * 2.0]
    before = traced(fn, tf.TensorSpec([2, 1, 1, 4]), tf.TensorSpec([2, 3, 3, 4]))
    assert _FUSED not in types(fuse_broadcast_relu_gradients(before))


def test_broadcast_to_another_tensors_shape_is_not_fused():
    """Broadcast to the run-time shape of a tensor that is not the ReLU's result: the two
    shapes may differ at run time (ReluGrad's error), so nothing fuses."""
    def fn(g, r, other):
        return tf.raw_ops.ReluGrad(gradients=tf.broadcast_to(g, tf.shape(other)), features=r)
    spec = tf.TensorSpec([None, 3, 4])
    before = traced(fn, tf.TensorSpec([None, 1, 4]), spec, spec)
    after = fuse_broadcast_relu_gradients(before)
    assert _FUSED not in types(after)
    rng = np.random.default_rng(3)
    feeds = [rng.normal(size=s).astype(np.float32) for s in ((2, 1, 4), (2, 3, 4), (2, 3, 4))]
    _assert_same(before, after, feeds)


def test_integer_relu_gradient_is_not_fused():
    def fn(g, r):
        return tf.raw_ops.ReluGrad(gradients=tf.broadcast_to(g, [2, 3]), features=r)
    before = traced(fn, tf.TensorSpec([1, 3], tf.int32), tf.TensorSpec([2, 3], tf.int32))
    assert _FUSED not in types(fuse_broadcast_relu_gradients(before))


def test_pipeline_fuses_under_remapping(optimizer_options):
    cf = tf.function(_pooled_grad).get_concrete_function(*_specs())
    assert _FUSED in [op.type for op in optimize(cf.graph, cf.inputs, cf.outputs).operations]
    optimizer_options.set_experimental_options({"remapping": False})
    assert _FUSED not in [op.type for op in optimize(cf.graph, cf.inputs,
                                                     cf.outputs).operations]


@pytest.mark.parametrize("shape", [(32, 24, 24, 32), (3, 5, 7, 2)])
def test_fused_kernel_matches_the_ops_it_replaces(path, shape):
    """Large enough for the executor to split it over threads, and small; in place over the
    features (a dead array the buffer reuse pass hands it)."""
    rng = np.random.default_rng(6)
    r = rng.normal(size=shape).astype(np.float32)
    r.flat[::5] = 0.0
    g = rng.normal(size=(shape[0], 1, 1, shape[-1])).astype(np.float32)
    want = tf.raw_ops.ReluGrad(gradients=tf.broadcast_to(g, shape), features=r).numpy()
    got = dispatch(_BROADCAST_RELU_GRAD, (tf.constant(g), tf.constant(r)), {}).numpy()
    np.testing.assert_array_equal(got, want)
    in_place = _BROADCAST_RELU_GRAD.host_kernel(g, r, out=r)
    assert in_place is r
    np.testing.assert_array_equal(r, want)


def test_fused_kernel_masks_non_finite_values_as_relu_grad(path):
    shape = (32, 24, 24, 32)
    rng = np.random.default_rng(8)
    r = rng.normal(size=shape).astype(np.float32)
    r[0, 0, 0, :4] = [np.nan, -0.0, np.inf, -np.inf]
    g = rng.normal(size=(32, 1, 1, 32)).astype(np.float32)
    g[0, 0, 0, :3] = [np.nan, np.inf, -np.inf]
    g[1, 0, 0, :] = -1.0  # (a negative gradient masked: -0.0, as the product gives)
    want = tf.raw_ops.ReluGrad(gradients=tf.broadcast_to(g, shape), features=r).numpy()
    for into in ("a new array", "another array", "the features"):
        features = r.copy()
        out = None if into == "a new array" else features if into == "the features" else \
            np.empty(shape, np.float32)
        got = _BROADCAST_RELU_GRAD.host_kernel(g, features, out=out)
        np.testing.assert_array_equal(got.view(np.int32), want.view(np.int32), err_msg=into)


def test_compiled_fused_op_matches_the_ops_it_replaces(path, monkeypatch, optimizer_options):
    """Large, in a compiled step on idle cores (where oneDNN runs it on every core): the
    results those of the unfused ops, bit for bit (compiled too: there the mean's division
    by its count is a product by the reciprocal, as in TF's functions)."""
    monkeypatch.setattr(threads, "budget", lambda: 2)
    monkeypatch.setattr(threads, "adapt", lambda: None)
    monkeypatch.setattr(threads, "_look", lambda: None)
    monkeypatch.setattr(threads, "contended", False)
    x, dy = _feeds(32, seed=7)
    x = np.tile(x, (1, 5, 4, 11))[:, :24, :24, :32]
    dy = np.tile(dy, (1, 11))[:, :32]
    fn = tf.function(_pooled_grad)
    got = fn(x, dy).numpy()
    assert _FUSED in types(optimize(*_graph_of(fn.get_concrete_function(x, dy))))
    optimizer_options.set_experimental_options({"remapping": False})
    unfused = tf.function(_pooled_grad)
    assert _FUSED not in types(optimize(*_graph_of(unfused.get_concrete_function(x, dy))))
    want = unfused(x, dy).numpy()
    np.testing.assert_array_equal(got.view(np.int32), want.view(np.int32))


def test_fused_kernel_raises_the_errors_of_the_ops_it_replaces():
    g, r = tf.ones([2, 1, 3]), tf.ones([2, 4, 5])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Incompatible shapes"):
        dispatch(_BROADCAST_RELU_GRAD, (g, r), {})


def _train(options, remapping, x, y):
    options.set_experimental_options({"remapping": remapping})
    tf.keras.utils.set_random_seed(3)
    model = tf.keras.Sequential([
        tf.keras.layers.Conv2D(4, 3, activation="relu"),
        tf.keras.layers.Conv2D(5, 3, activation="relu"),
        tf.keras.layers.GlobalAveragePooling2D(), tf.keras.layers.Dense(3, "softmax")])
    optimizer = tf.keras.optimizers.Adam()

    @tf.function(input_signature=[tf.TensorSpec([None, 8, 8, 2]), tf.TensorSpec([None],
                                                                                tf.int64)])
    def step(x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.keras.losses.sparse_categorical_crossentropy(y, model(x)))
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return loss
    losses = [float(step(x, y)) for _ in range(3)]
    program = optimize(*_graph_of(step.get_concrete_function()))
    return losses, [v.numpy() for v in model.weights], types(program)


def _graph_of(cf):
    return cf.graph, cf.inputs, cf.outputs


def test_keras_training_step_matches_unfused(path, optimizer_options):
    """A compiled step of unknown batch: weights and losses after a few steps are those of
    the unfused ops."""
    rng = np.random.default_rng(4)
    x = tf.constant(rng.normal(size=(6, 8, 8, 2)).astype(np.float32))
    y = tf.constant(rng.integers(0, 3, 6))
    fused_losses, fused, fused_types = _train(optimizer_options, True, x, y)
    losses, weights, _ = _train(optimizer_options, False, x, y)
    assert _FUSED in fused_types and "ReluGrad" in fused_types  # (the first layer's)
    np.testing.assert_allclose(fused_losses, losses, rtol=1e-5)
    for got, want in zip(fused, weights):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)

"""Functions over shapes known only at run time: a None batch dimension, shape tensors as data."""
import numpy as np
import pytest

import eagerflow as tf

_ROWS3 = tf.TensorSpec([None, 3], tf.float32)
_BATCH = tf.TensorSpec([None, 3, 4], tf.float32)


def _traced(fn, *specs):
    """`fn` as a function of `specs`, and the static shapes of its outputs."""
    f = tf.function(fn, input_signature=list(specs))
    outputs = tf.nest.flatten(f.get_concrete_function().structured_outputs)
    return f, [o.shape.as_list() if o.shape.rank is not None else None for o in outputs]


def _batch(n):
    return tf.constant(np.arange(n * 12, dtype=np.float32).reshape(n, 3, 4))


@pytest.mark.parametrize("fn, static, ref", [
    (lambda x: tf.reshape(x, [tf.shape(x)[0], -1]), [None, None], lambda a: a.reshape(len(a), -1)),
    (lambda x: tf.reshape(x, [-1, tf.shape(x)[1] * tf.shape(x)[2]]), [None, 12],
     lambda a: a.reshape(-1, 12)),
    (lambda x: tf.reshape(x, [tf.shape(x)[0], 12]), [None, 12], lambda a: a.reshape(-1, 12)),
    (lambda x: tf.reshape(x, tf.shape(x)), [None, 3, 4], lambda a: a),
    (lambda x: tf.zeros(tf.shape(x)), [None, 3, 4], np.zeros_like),
    (lambda x: tf.ones([tf.shape(x)[0], 5]), [None, 5], lambda a: np.ones((len(a), 5), np.float32)),
    (lambda x: tf.fill(tf.shape(x)[:2], 2.0), [None, 3], lambda a: np.full(a.shape[:2], 2.0)),
    (lambda x: tf.zeros_like(x, dtype=tf.int32), [None, 3, 4],
     lambda a: np.zeros(a.shape, np.int32)),
    (lambda x: tf.broadcast_to(x[:1], tf.shape(x)), [None, 3, 4],
     lambda a: np.broadcast_to(a[:1], a.shape)),
    (lambda x: tf.tile(x, [tf.shape(x)[0], 1, 2]), [None, 3, 8], lambda a: np.tile(a, (len(a), 1, 2))),
], ids=["reshape-batch", "reshape-product", "reshape-known", "reshape-own-shape", "zeros",
        "ones", "fill", "zeros_like", "broadcast_to", "tile"])
def test_shape_tensors_work_and_keep_what_is_known(fn, static, ref):
    f, shapes = _traced(fn, _BATCH)
    assert shapes == [static]
    for n in (1, 3):
        x = _batch(n)
        np.testing.assert_array_equal(f(x).numpy(), ref(x.numpy()))


def test_a_shape_argument_of_the_function_is_an_input_of_the_op():
    f, shapes = _traced(tf.reshape, tf.TensorSpec([None, 4], tf.float32),
                        tf.TensorSpec([3], tf.int32))
    assert shapes == [[None, None, None]]
    out = f(tf.ones([3, 4]), tf.constant([2, 3, 2]))
    assert out.shape == (2, 3, 2)
    reshape = [op for op in f.get_concrete_function().graph.get_operations()
               if op.type == "Reshape"]
    assert len(reshape) == 1 and len(reshape[0].inputs) == 2


def test_a_shape_of_unknown_length_gives_an_unknown_rank():
    _, shapes = _traced(tf.reshape, _ROWS3, tf.TensorSpec([None], tf.int32))
    assert shapes == [None]


def test_run_time_shape_errors_are_tensorflows():
    f = tf.function(lambda x: tf.reshape(x, [tf.shape(x)[0], 5]), input_signature=[_ROWS3])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Input to reshape is a tensor"):
        f(tf.ones([2, 3]))
    g = tf.function(lambda x: tf.fill(tf.shape(x) - 3, 1.0), input_signature=[_ROWS3])
    with pytest.raises(tf.errors.InvalidArgumentError, match="must be >= 0"):
        g(tf.ones([2, 3]))


def test_a_float_shape_tensor_is_refused_when_traced():
    f = tf.function(lambda x: tf.reshape(x, tf.cast(tf.shape(x), tf.float32)),
                    input_signature=[_ROWS3])
    # as TF, while tracing: the op is refused as it is added
    with pytest.raises(TypeError, match="Value passed to parameter 'shape' has DataType "
                                        "float32 not in list of allowed values: int32, int64"):
        f(tf.ones([2, 3]))


def _mean_square_grad(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = tf.reduce_mean(x * x)
    return tape.gradient(loss, x)


def test_gradient_of_a_mean_over_an_unknown_batch():
    f, shapes = _traced(_mean_square_grad, _ROWS3)
    assert shapes == [[None, 3]]
    for n in (1, 4):
        x = np.arange(3 * n, dtype=np.float32).reshape(n, 3)
        np.testing.assert_allclose(f(tf.constant(x)).numpy(), 2 * x / x.size, rtol=1e-6)


def _axis_means_grads(x, b):
    with tf.GradientTape() as tape:
        tape.watch([x, b])
        loss = tf.reduce_sum(tf.reduce_mean(x * b, axis=1)) + tf.reduce_sum(x, axis=0)[1]
    return tape.gradient(loss, [x, b])


def test_gradients_through_axis_reductions_and_broadcasting():
    f, shapes = _traced(_axis_means_grads, _ROWS3, tf.TensorSpec([None, 1], tf.float32))
    assert shapes == [[None, 3], [None, 1]]
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    b = np.array([[1.0], [2.0]], np.float32)
    dx, db = f(tf.constant(x), tf.constant(b))
    np.testing.assert_allclose(dx.numpy(), b / 3 + np.array([0, 1, 0], np.float32), rtol=1e-6)
    np.testing.assert_allclose(db.numpy(), x.mean(axis=1, keepdims=True), rtol=1e-6)


def _reshape_tile_grad(x, w):
    with tf.GradientTape() as tape:
        tape.watch(w)
        flat = tf.reshape(x * w, [tf.shape(x)[0], -1])
        loss = tf.reduce_mean(tf.reduce_sum(tf.tile(flat, [1, 2]), 1))
    return tape.gradient(loss, w)


def test_gradient_through_run_time_reshape_and_tile_matches_eager():
    f, _ = _traced(_reshape_tile_grad, _ROWS3, tf.TensorSpec([3], tf.float32))
    x = tf.constant(np.arange(6, dtype=np.float32).reshape(2, 3))
    w = tf.constant([1.0, 2.0, 3.0])
    np.testing.assert_allclose(f(x, w).numpy(), _reshape_tile_grad(x, w).numpy(), rtol=1e-6)


def _training_step(w):
    def step(x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - y))
        w.assign_sub(0.1 * tape.gradient(loss, w))
        return loss
    return step


def test_training_step_with_reduce_retracing_matches_eager():
    traced_w, eager_w = tf.Variable(tf.ones([3, 1])), tf.Variable(tf.ones([3, 1]))
    traced = tf.function(_training_step(traced_w), reduce_retracing=True)
    eager = _training_step(eager_w)
    rng = np.random.default_rng(0)
    for n in (2, 3, 5):
        x = tf.constant(rng.normal(size=(n, 3)).astype(np.float32))
        y = tf.constant(rng.normal(size=(n, 1)).astype(np.float32))
        np.testing.assert_allclose(traced(x, y).numpy(), eager(x, y).numpy(), rtol=1e-5)
    assert traced.experimental_get_tracing_count() <= 2
    np.testing.assert_allclose(traced_w.numpy(), eager_w.numpy(), rtol=1e-5)


def test_random_draws_take_a_run_time_shape():
    f, shapes = _traced(lambda x: (tf.random.uniform(tf.shape(x)),
                                   tf.random.normal([tf.shape(x)[0], 2]),
                                   tf.random.stateless_uniform(tf.shape(x), [1, 2])), _ROWS3)
    assert shapes == [[None, 3], [None, 2], [None, 3]]
    a, b, c = f(tf.ones([4, 3]))
    assert (a.shape, b.shape, c.shape) == ((4, 3), (4, 2), (4, 3))
    np.testing.assert_array_equal(c.numpy(), tf.random.stateless_uniform([4, 3], [1, 2]).numpy())


_SHAPE_OPS = [
    lambda n: tf.random.normal(shape=(n, 2)),
    lambda n: tf.random.uniform([n, 2], seed=5),
    lambda n: tf.random.uniform([n, 2], maxval=10, dtype=tf.int32),
    lambda n: tf.random.truncated_normal([n, 2]),
    lambda n: tf.random.stateless_normal([n, 2], seed=[1, 2]),
    lambda n: tf.zeros([n, 2]),
    lambda n: tf.fill((n, 2), 1.5),
    lambda n: tf.broadcast_to(1.0, [n, 2]),
]


@pytest.mark.parametrize("op", _SHAPE_OPS)
@pytest.mark.parametrize("spec, static", [((4, 1), [4, 2]), ((None, 1), [None, 2])])
def test_shape_lists_mix_ints_and_scalar_tensors(op, spec, static):
    # a GAN's `tf.random.normal((tf.shape(x)[0], noise_dim))`: known as far as the trace knows
    f, shapes = _traced(lambda x: op(tf.shape(x)[0]), tf.TensorSpec(spec))
    assert shapes == [static]
    assert f(tf.ones((4, 1))).shape == (4, 2)


@pytest.mark.parametrize("spec, static", [((4, 1), [4, 4]), ((None, 1), [None, None])])
def test_categorical_samples_known_only_at_run_time(spec, static):
    def fn(x):
        n = tf.shape(x)[0]
        return tf.random.categorical(tf.zeros([n, 3]), n, seed=3)
    f, shapes = _traced(fn, tf.TensorSpec(spec))
    assert shapes == [static]
    assert f(tf.ones((4, 1))).shape == (4, 4)


@pytest.mark.parametrize("args, length", [
    ((2,), 2), ((5, 1, -2), 2), ((0.0, 1.0, 0.3), 4), ((0,), 0), ((2.5,), 3),
    ((1.0, 0.0, -0.25), 4), ((10, 0, -3), 4), ((2, 2), 0), ((1, 2, 0.3), 4)])
def test_range_of_constants_has_a_static_length(args, length):
    out = tf.function(lambda: tf.range(*args)).get_concrete_function().structured_outputs
    assert out.shape == (length,) and len(tf.range(*args).numpy()) == length


def test_range_of_bad_constants_fails_while_tracing():
    with pytest.raises(ValueError, match=r"Requires start <= limit when delta > 0: 3/1 .*"
                       r"computed input tensors: input\[0\] = <3>, input\[1\] = <1>, "
                       r"input\[2\] = <1>\."):
        tf.function(lambda: tf.range(3, 1)).get_concrete_function()
    with pytest.raises(ValueError, match=r"Requires delta != 0 for"):
        tf.function(lambda: tf.range(1.0, 2.0, 0.0)).get_concrete_function()

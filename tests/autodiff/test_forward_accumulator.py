"""tf.autodiff.ForwardAccumulator: Jacobian-vector products, as TF computes them."""
import logging

import numpy as np
import pytest

import eagerflow as tf


def test_jvp_of_tensors_variables_and_structures():
    x = tf.constant(2.0)
    with tf.autodiff.ForwardAccumulator(x, tf.constant(1.0)) as acc:
        y = x ** 3
    assert float(acc.jvp(y)) == 12.0
    v = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
    with tf.autodiff.ForwardAccumulator(v, tf.ones([2, 2])) as acc:
        y = tf.matmul(v, v)
    np.testing.assert_allclose(acc.jvp(y).numpy(), [[7, 9], [11, 13]])
    x = tf.constant([1.0, 2.0])
    z = tf.constant(1.0)
    with tf.autodiff.ForwardAccumulator([x, z], [tf.constant([0.0, 1.0]), tf.constant(2.0)]) as acc:
        y = {"a": x * z + tf.sin(x), "b": tf.constant(3.0), "c": tf.cast(x, tf.int32)}
    out = acc.jvp(y)
    np.testing.assert_allclose(out["a"].numpy(), [2.0, 5.0 + np.cos(2.0)], rtol=1e-6)
    assert out["b"] is None and out["c"] is None
    zeros = acc.jvp(y, unconnected_gradients="zero")
    assert zeros["c"].dtype == tf.int32 and zeros["b"].numpy() == 0.0


def test_jvp_composes_with_gradient_tapes_and_functions():
    primal = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(primal)
        with tf.autodiff.ForwardAccumulator(primal, tf.constant(1.0)) as acc:
            y = tf.sin(primal)
        jvp = acc.jvp(y)
    np.testing.assert_allclose(float(tape.gradient(jvp, primal)), -np.sin(2.0), rtol=1e-6)

    @tf.function
    def hessian_vector_product(x, v):
        with tf.autodiff.ForwardAccumulator(x, v) as acc:
            with tf.GradientTape() as inner:
                inner.watch(x)
                loss = tf.reduce_sum(x ** 3)
            g = inner.gradient(loss, x)
        return acc.jvp(g)
    np.testing.assert_allclose(
        hessian_vector_product(tf.constant([1.0, 2.0]), tf.constant([1.0, 0.0])).numpy(), [6, 0])


def test_jvp_of_a_watched_variable_is_its_tangent():
    v = tf.Variable([1.0, 2.0])
    other = tf.Variable(3.0)
    with tf.autodiff.ForwardAccumulator(v, tf.constant([1.0, -1.0])) as acc:
        y = v * v
    np.testing.assert_allclose(acc.jvp(y).numpy(), [2.0, -4.0])
    np.testing.assert_allclose(acc.jvp(v).numpy(), [1.0, -1.0])
    assert acc.jvp(other) is None
    assert float(acc.jvp(other, unconnected_gradients="zero")) == 0.0


def test_a_non_float_primal_logs_tfs_primal_warning(caplog):
    with caplog.at_level(logging.WARNING, logger="tensorflow"):
        with tf.autodiff.ForwardAccumulator(tf.constant([1, 2]), tf.constant([1, 1])):
            pass
    messages = [r.getMessage() for r in caplog.records]
    assert any(m.startswith("The dtype of the watched primal must be floating (e.g. "
                            "tf.float32), got tf.int32") for m in messages), messages
    assert not any("watched tensor" in m for m in messages)


def test_custom_gradient_tangents_come_from_its_forward_ops_when_they_connect():
    # TF 2.21: a custom gradient's outputs that its function's ops connect to the primals
    # take those ops' tangents; otherwise (stop_gradient inside) the grad_fn is transposed
    @tf.custom_gradient
    def doubled(a):
        return a * 2.0, lambda dy: dy * 10.0

    @tf.custom_gradient
    def held(a):
        return tf.stop_gradient(a) * 2.0, lambda dy: dy

    x, t = tf.constant([0.5, 1.5]), tf.constant([1.0, -1.0])
    with tf.autodiff.ForwardAccumulator(x, t) as acc:
        y, z = doubled(x), held(x)
    assert acc.jvp(y).numpy().tolist() == [2.0, -2.0]
    assert acc.jvp(z).numpy().tolist() == [1.0, -1.0]

    v = tf.Variable([2.0, 3.0])

    @tf.custom_gradient
    def with_variable(a):
        def grad(dy, variables=None):
            return dy * 100.0, [dy * 7.0]
        return tf.sin(a) * v, grad

    with tf.autodiff.ForwardAccumulator(x, t) as acc:
        with tf.GradientTape() as tape:
            tape.watch(x)
            loss = tf.reduce_sum(with_variable(x) ** 2)
        g = tape.gradient(loss, x)
    np.testing.assert_allclose(acc.jvp(g).numpy(),
                               [351.03299, -42.442299], rtol=1e-5)


def test_custom_gradient_whose_forward_ops_give_no_tangent_transposes_its_grad_fn():
    # TF 2.21: ops whose gradients are None (round) leave the function's output without a
    # tangent, so the grad_fn (here grad_pass_through's identity) gives it; a tangent the
    # ops do give wins (square's 2x, not the identity's)
    x, t = tf.constant([1.0, 2.0, 3.0]), tf.constant([0.5, -1.0, 2.0])
    with tf.autodiff.ForwardAccumulator(x, t) as acc:
        rounded = tf.grad_pass_through(tf.round)(x * 1.3)
        squared = tf.grad_pass_through(tf.square)(x)
    np.testing.assert_allclose(acc.jvp(rounded).numpy(), [0.65, -1.3, 2.6], rtol=1e-6)
    assert acc.jvp(squared).numpy().tolist() == [1.0, -4.0, 12.0]
    # inside a function the whole call is one op: its JVP transposes the custom gradients
    through = tf.function(lambda x: tf.grad_pass_through(tf.square)(x))
    with tf.autodiff.ForwardAccumulator(x, t) as acc:
        y = through(x)
    assert acc.jvp(y).numpy().tolist() == [0.5, -1.0, 2.0]


def test_hessian_vector_products_forward_over_backward():
    x, v = tf.constant([1.0, 2.0, 3.0]), tf.constant([0.5, -1.0, 2.0])

    def hvp(f):
        with tf.autodiff.ForwardAccumulator(x, v) as acc:
            with tf.GradientTape() as tape:
                tape.watch(x)
                y = tf.reduce_sum(f(x))
            g = tape.gradient(y, x)
        return g, acc.jvp(g)

    # (values of TF 2.21)
    g, h = hvp(lambda x: tf.sin(x) * x ** 2)
    np.testing.assert_allclose(h.numpy(), [1.50134, 5.14777, -25.7355], rtol=1e-5)
    g, h = hvp(lambda x: tf.stop_gradient(x) * x * x)
    assert h.numpy().tolist() == [1.0, -4.0, 12.0]
    g, h = hvp(lambda x: tf.grad_pass_through(tf.square)(x) * x)
    assert g.numpy().tolist() == [2.0, 6.0, 12.0] and h.numpy().tolist() == [1.5, -5.0, 14.0]

    @tf.custom_gradient
    def cosine_grad(x):
        return x * x, lambda dy: dy * tf.cos(x)

    g, h = hvp(cosine_grad)
    np.testing.assert_allclose(h.numpy(), [-0.42074, 0.9093, -0.28224], rtol=1e-4)


def test_jvp_of_a_sparse_gradient_is_sparse():
    # a gather's gradient is IndexedSlices: its tangent has the same indices (TF 2.21 fails
    # here with an AttributeError; the values are those of the dense Hessian)
    x, v = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]), tf.ones([3, 2])
    with tf.autodiff.ForwardAccumulator(x, v) as acc:
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(tf.gather(x, [0, 2, 2]) ** 3)
        g = tape.gradient(y, x)
    tangent = acc.jvp(g)
    assert isinstance(tangent, tf.IndexedSlices)
    np.testing.assert_allclose(tf.convert_to_tensor(tangent).numpy(),
                               [[6.0, 12.0], [0.0, 0.0], [60.0, 72.0]])


def test_tapes_and_accumulators_around_the_block_record_a_jvp_asked_for_after_it():
    # TF computes tangents as the block runs: what records around the block sees them
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        with tf.autodiff.ForwardAccumulator(x, tf.constant([1.0, 0.0])) as acc:
            y = tf.reduce_sum(x ** 3)
    jvp = acc.jvp(y)  # after both blocks
    np.testing.assert_allclose(jvp, 3.0)
    np.testing.assert_allclose(tape.gradient(jvp, x), [6.0, 0.0])
    s = tf.constant(1.0)
    with tf.autodiff.ForwardAccumulator(s, tf.constant(1.0)) as outer:
        with tf.autodiff.ForwardAccumulator(s, tf.constant(1.0)) as inner:
            y = s ** 4
    d = inner.jvp(y)
    np.testing.assert_allclose(outer.jvp(d), 12.0)
    # a tape entered only afterwards does not see it
    with tf.autodiff.ForwardAccumulator(s, tf.constant(1.0)) as acc:
        y = s ** 4
    with tf.GradientTape() as tape:
        tape.watch(s)
        d = acc.jvp(y)
    assert tape.gradient(d, s) is None


def test_a_primal_given_twice_raises():
    x = tf.constant([1.0, 2.0])
    with pytest.raises(ValueError, match=r"^Tensor \{\} was specified as a primal multiple "
                                         r"times\. This may indicate an error\."):
        tf.autodiff.ForwardAccumulator([x, x], [tf.ones([2]), tf.ones([2])])

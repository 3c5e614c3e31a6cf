"""Places where TF 2.21 raises rather than computing a result; the classes and
messages below are TF 2.21's."""
import numpy as np
import pytest

import eagerflow as tf


def _tape(persistent):
    x = tf.constant([[1.0], [2.0]])
    with tf.GradientTape(persistent=persistent) as tape:
        tape.watch(x)
        y = x * x
    return tape, x, y


def test_jacobian_without_pfor_needs_persistent_tape():
    tape, x, y = _tape(False)
    with pytest.raises(RuntimeError, match=r"^GradientTape must be created with persistent=True "
                       r"to compute the jacobian with eager execution enabled and with  "
                       r"experimental_use_pfor set to False\.$"):
        tape.jacobian(y, x, experimental_use_pfor=False)
    tape, x, y = _tape(False)
    with pytest.raises(RuntimeError, match=r"^GradientTape must be created with persistent=True "
                       r"to compute the batch_jacobian with eager execution enabled and  with "
                       r"experimental_use_pfor set to False\.$"):
        tape.batch_jacobian(y, x, experimental_use_pfor=False)


def test_jacobian_without_pfor_on_persistent_tape_works():
    tape, x, y = _tape(True)
    j = tape.jacobian(y, x, experimental_use_pfor=False)
    np.testing.assert_allclose(j.numpy().reshape(2, 2), [[2.0, 0.0], [0.0, 4.0]])
    b = tape.batch_jacobian(y, x, experimental_use_pfor=False)
    np.testing.assert_allclose(b.numpy().reshape(2), [2.0, 4.0])
    tape, x, y = _tape(False)  # with pfor (the default) a one-shot tape is fine
    np.testing.assert_allclose(tape.jacobian(y, x).numpy().reshape(2, 2), [[2.0, 0.0], [0.0, 4.0]])


def test_gradient_through_stateless_shuffle_has_no_entry():
    v = tf.Variable([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        s = tf.reduce_sum(tf.random.experimental.stateless_shuffle(v, seed=[1, 2]))
    with pytest.raises(LookupError, match=r"^gradient registry has no entry for: StatelessShuffle$"):
        tape.gradient(s, v)
    # tf.random.shuffle is marked not differentiable in TF: its gradient is None
    with tf.GradientTape() as tape:
        s = tf.reduce_sum(tf.random.shuffle(v, seed=1))
    assert tape.gradient(s, v) is None


def test_batch_jacobian_needs_batched_target_and_source():
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    v = tf.constant([1.0, 2.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, v])
        y = x * 2
    with pytest.raises(ValueError, match=r"^Shape \(2,\) must have rank at least 2$"):
        tape.batch_jacobian(y[0], x)
    with pytest.raises(ValueError, match=r"^Shape \(2,\) must have rank at least 2$"):
        tape.batch_jacobian(y, v)


@pytest.mark.parametrize("method", ["jacobian", "batch_jacobian"])
def test_jacobian_of_a_target_that_is_no_tensor_raises_attribute_error(method):
    tape, x, y = _tape(True)
    for target, kind in (([y, y], "list"), ((y,), "tuple"), (None, "NoneType"), (3.0, "float")):
        with pytest.raises(AttributeError, match=rf"^'{kind}' object has no attribute 'shape'$"):
            getattr(tape, method)(target, x)


def test_batch_jacobian_of_a_scalar_target_raises_index_error():
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        s = tf.reduce_sum(x)
    with pytest.raises(IndexError, match=r"^list index out of range$"):
        tape.batch_jacobian(s, x)


@pytest.mark.parametrize("method", ["jacobian", "batch_jacobian"])
def test_jacobian_parallel_iterations_checks(method):
    tape, x, y = _tape(True)
    for bad in (1, 0, -1):  # vectorized: TF's pfor refuses one iteration at a time
        with pytest.raises(ValueError, match=rf"^Encountered an exception while vectorizing the "
                           rf"{method} computation\. Vectorization can be disabled by setting "
                           rf"experimental_use_pfor to False\.$"):
            getattr(tape, method)(y, x, parallel_iterations=bad)
    for bad in (0, -1):
        with pytest.raises(TypeError, match=r"^'parallel_iterations' must be a positive "
                                            r"integer\.$"):
            getattr(tape, method)(y, x, parallel_iterations=bad, experimental_use_pfor=False)
    for ok in (1, 2):
        getattr(tape, method)(y, x, parallel_iterations=ok, experimental_use_pfor=False)
    getattr(tape, method)(y, x, parallel_iterations=2)


def test_gradient_of_exact_lstsq_raises():
    a = tf.constant([[1.0, 2.0], [0.5, -1.0], [2.0, 0.1]], tf.float64)
    b = tf.constant([[1.0], [2.0], [3.0]], tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(a)
        y = tf.reduce_sum(tf.linalg.lstsq(a, b, fast=False))
    with pytest.raises(ValueError, match=r"^Gradient not defined for fast=False$"):
        tape.gradient(y, a)


@pytest.mark.parametrize("name, fn", [
    ("Unique", lambda x: tf.unique(x).y),
    ("UniqueWithCounts", lambda x: tf.unique_with_counts(x).y),
    ("DenseBincount", lambda x: tf.math.bincount([0, 1, 1], weights=x)),
    ("RaggedBincount", lambda x: tf.math.bincount(
        tf.ragged.constant([[0, 1], [1]]), weights=tf.RaggedTensor.from_row_splits(x, [0, 2, 3]),
        axis=-1)),
    ("DenseCountSparseOutput", lambda x: tf.sparse.to_dense(tf.sparse.bincount([0, 1, 1],
                                                                               weights=x))),
    ("RandomPoissonV2", lambda x: tf.random.poisson([2], x, seed=1)),
    ("HistogramFixedWidth", lambda x: tf.histogram_fixed_width(x, [0.0, 5.0], 3)),
])
def test_gradient_through_ops_tf_has_no_gradient_for_raises_its_lookup_error(name, fn):
    x = tf.constant([3.0, 1.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = fn(x)
    with pytest.raises(LookupError, match=rf"^gradient registry has no entry for: {name}$"):
        tape.gradient(y, x)


def test_second_derivatives_through_gradient_ops_without_gradients_raise():
    x = tf.reshape(tf.range(16.0), [1, 4, 4, 1])
    f = tf.constant([[[1.0], [0.5]], [[0.2], [0.0]]])
    with tf.GradientTape() as t2:
        t2.watch(x)
        with tf.GradientTape() as t1:
            t1.watch(x)
            y = tf.nn.dilation2d(x, f, [1, 1, 1, 1], "VALID", "NHWC", [1, 1, 1, 1])
        g = t1.gradient(y, x)
    with pytest.raises(LookupError, match=r"^gradient registry has no entry for: "
                                          r"Dilation2DBackpropInput$"):
        t2.gradient(g, x)
    # an average pool's gradient does not depend on its input: None, with no error
    with tf.GradientTape() as t2:
        t2.watch(x)
        with tf.GradientTape() as t1:
            t1.watch(x)
            y = tf.nn.fractional_avg_pool(x, [1.0, 1.5, 1.5, 1.0], pseudo_random=True, seed=3)[0]
        g = t1.gradient(y, x)
    assert t2.gradient(g, x) is None

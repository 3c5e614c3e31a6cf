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


def test_gradient_of_exact_lstsq_raises():
    a = tf.constant([[1.0, 2.0], [0.5, -1.0], [2.0, 0.1]], tf.float64)
    b = tf.constant([[1.0], [2.0], [3.0]], tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(a)
        y = tf.reduce_sum(tf.linalg.lstsq(a, b, fast=False))
    with pytest.raises(ValueError, match=r"^Gradient not defined for fast=False$"):
        tape.gradient(y, a)

"""A Keras optimizer's step built into a TF 1 graph and run by a session: the optimizer's
variables (its slots, and the legacy optimizers' float32 hyperparameters) are initialized once,
not with every step, and are global variables under TF's names. Values from tf_keras 2.21."""
import numpy as np
import pytest

import eagerflow as tf

tf1 = tf.compat.v1


def _steps(make, count, feed_rate=None):
    graph = tf.Graph()
    with graph.as_default():
        x = tf.constant([[1.0, 2.0], [0.5, -1.0]])
        w = tf1.Variable([[1.0], [-2.0]], name="w")
        loss = tf.reduce_sum(tf.square(tf.matmul(x, w) - 1.0))
        opt = make()
        train = opt.apply_gradients(zip(tf1.gradients(loss, [w]), [w]))
        names = [v.name for v in tf1.global_variables()]
        with tf1.Session() as sess:
            sess.run(tf1.global_variables_initializer())
            for _ in range(count):
                sess.run(train)
            if feed_rate is not None:
                sess.run(opt.lr.assign(feed_rate))
                sess.run(train)
            return names, sess.run(w).ravel().tolist(), sess.run(opt.iterations)


def test_legacy_adam_has_tfs_variables_and_steps():
    names, w, steps = _steps(lambda: tf.keras.optimizers.legacy.Adam(0.1), 3, feed_rate=0.5)
    assert names == ["w:0", "Adam/iter:0", "Adam/beta_1:0", "Adam/beta_2:0", "Adam/decay:0",
                     "Adam/learning_rate:0", "Adam/w/m:0", "Adam/w/v:0"]
    # (the moments carry over between steps; the rate assigned in the session is used)
    assert w == [1.7896194458007812, -1.2076529264450073] and steps == 4


@pytest.mark.parametrize("make, expected", [
    (lambda: tf.keras.optimizers.legacy.Adamax(0.1), [1.2868913412094116, -1.7105472087860107]),
    (lambda: tf.keras.optimizers.legacy.Adagrad(0.1), [1.2208151817321777, -1.7775005102157593]),
    (lambda: tf.keras.optimizers.legacy.Nadam(0.1), [1.2489150762557983, -1.7493696212768555]),
    (lambda: tf.keras.optimizers.legacy.RMSprop(0.1), [1.6502283811569214, -1.3290607929229736]),
])
def test_legacy_slots_carry_over_between_session_steps(make, expected):
    np.testing.assert_array_equal(_steps(make, 3)[1], np.float32(expected))

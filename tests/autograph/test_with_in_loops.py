"""A ``with ... as name`` inside a graph loop binds `name` afresh: it is no loop variable."""
import eagerflow as tf


def test_a_tape_opened_in_a_tensor_loop_body():
    w = tf.Variable(2.0)

    @tf.function
    def grads():
        total = tf.constant(0.0)
        for i in tf.range(3):
            with tf.GradientTape() as tape:
                y = w * tf.cast(i, tf.float32)
            total += tape.gradient(y, w)
        return total

    assert float(grads()) == 3.0  # 0 + 1 + 2


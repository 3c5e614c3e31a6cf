"""Small models the Keras tests share."""
import eagerflow as tf


class OneDense(tf.keras.Model):
    """A subclassed model of one ``Dense(1)`` layer (tests override its training steps)."""

    def __init__(self):
        super().__init__()
        self.dense = tf.keras.layers.Dense(1)

    def call(self, x):
        return self.dense(x)

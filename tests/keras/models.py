"""Small models the Keras tests share."""
import eagerflow as tf


class OneDense(tf.keras.Model):
    """A subclassed model of one ``Dense(1)`` layer (tests override its training steps)."""

    def __init__(self):
        super().__init__()
        self.dense = tf.keras.layers.Dense(1)

    def call(self, x):
        return self.dense(x)


class Scaled(tf.keras.layers.Layer):
    """A custom layer scaling its inputs by `factor`, of a class not registered."""

    def __init__(self, factor=2.0, **kwargs):
        super().__init__(**kwargs)
        self.factor = factor

    def call(self, x):
        return x * self.factor

    def get_config(self):
        return {**super().get_config(), "factor": self.factor}

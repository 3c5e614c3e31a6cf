"""A Keras layer counts the variables of the `tf.Module`s its attributes hold (not layers)
among its weights, as tf_keras does: after its own, in attribute order, a module's sorted
as `tf.Module` lists them."""
import eagerflow as tf


class _Holder(tf.keras.layers.Layer):
    def __init__(self):
        super().__init__()
        self.inner = tf.keras.layers.Dense(1)
        self.m = tf.Module()
        self.m.vars = {"b": tf.Variable(1.0, name="zb"), "a": tf.Variable(2.0, name="za"),
                       "n": tf.Variable(0.0, name="frozen", trainable=False)}
        self.w = self.add_weight("w", shape=[])


def test_module_attribute_variables_are_weights():
    layer = _Holder()
    layer.inner.build((None, 2))
    assert [v.name for v in layer.trainable_weights] == [
        "w:0", "kernel:0", "bias:0", "za:0", "zb:0"]
    assert [v.name for v in layer.non_trainable_weights] == ["frozen:0"]
    assert len(layer.weights) == 6
    layer.trainable = False
    assert layer.trainable_weights == []
    assert len(layer.non_trainable_weights) == 6

"""Model weights and node names as in Keras: metrics given to `compile` are not a subclassed
model's weights (metrics it holds in attributes are), and operators name their nodes as TF."""
import numpy as np

import eagerflow as tf


class _Model(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.dense = tf.keras.layers.Dense(2)
        self.extra = tf.keras.metrics.Mean(name="extra")

    def call(self, x):
        return self.dense(x)


def test_compiled_metrics_are_not_weights():
    model = _Model()
    model.compile(optimizer="adam", loss="mse", metrics=[tf.keras.metrics.AUC(name="auc")])
    model.fit(np.ones((4, 3)), np.ones((4, 2)), verbose=0)
    assert [v.name.split("/")[-1] for v in model.weights] == ["kernel:0", "bias:0", "total:0",
                                                              "count:0"]
    assert len(model.non_trainable_weights) == 2 and model.count_params() == 10
    assert len(model.variables) == 4


def test_operator_add_on_keras_tensors_names_its_node_as_tf():
    inp = tf.keras.Input((2,))
    assert (inp + 1).name == "tf.__operators__.add/AddV2:0"
    assert (inp * 2).name == "tf.math.multiply/Mul:0"

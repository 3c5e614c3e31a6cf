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


def test_a_list_of_layers_lists_their_trainable_weights_then_their_others():
    # Keras tracks a container attribute as one object with weights: the model's weights
    # give all its layers' trainable weights, then all their others (what get_weights and
    # set_weights follow).
    class Blocks(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.first = tf.keras.layers.BatchNormalization(name="bn_a")
            self.blocks = [tf.keras.layers.BatchNormalization(name="bn_l1"),
                           [tf.keras.layers.Dense(2, name="d_nested"),
                            tf.keras.layers.BatchNormalization(name="bn_nested")]]
            self.by_key = {"z": tf.keras.layers.BatchNormalization(name="bn_z"),
                           "b": tf.keras.layers.Dense(2, name="d_b")}
            self.frozen = [tf.keras.layers.Dense(2, name="d_frozen"),
                           tf.keras.layers.BatchNormalization(name="bn_f")]
            self.frozen[0].trainable = False

        def call(self, x):
            for layer in [self.first, self.blocks[0], *self.blocks[1], self.by_key["z"],
                          self.by_key["b"], *self.frozen]:
                x = layer(x)
            return x

    model = Blocks()
    model(np.ones((1, 2), "float32"))
    names = [w.name.split("/", 1)[1] for w in model.weights]
    assert names == [
        "bn_a/gamma:0", "bn_a/beta:0", "bn_a/moving_mean:0", "bn_a/moving_variance:0",
        "bn_l1/gamma:0", "bn_l1/beta:0", "d_nested/kernel:0", "d_nested/bias:0",
        "bn_nested/gamma:0", "bn_nested/beta:0", "bn_l1/moving_mean:0",
        "bn_l1/moving_variance:0", "bn_nested/moving_mean:0", "bn_nested/moving_variance:0",
        "d_b/kernel:0", "d_b/bias:0", "bn_z/gamma:0", "bn_z/beta:0", "bn_z/moving_mean:0",
        "bn_z/moving_variance:0", "bn_f/gamma:0", "bn_f/beta:0", "d_frozen/kernel:0",
        "d_frozen/bias:0", "bn_f/moving_mean:0", "bn_f/moving_variance:0"]
    assert [w.shape for w in model.get_weights()] == [tuple(w.shape) for w in model.weights]


def test_a_subclassed_models_config_of_unserializable_arguments_is_empty_with_a_warning(caplog):
    class Holder(tf.keras.Model):
        def __init__(self, units, other):
            super().__init__()
            self.dense = tf.keras.layers.Dense(units)

        def call(self, x):
            return self.dense(x)

    assert Holder(3, [1, 2]).get_config() == {"units": 3, "other": [1, 2]}
    assert "non-serializable" not in caplog.text
    assert Holder(3, object()).get_config() == {}
    assert "Model's `__init__()` arguments contain non-serializable objects. Please " \
           "implement a `get_config()` method in the subclassed Model" in caplog.text

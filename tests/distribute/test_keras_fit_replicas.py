"""Keras `fit`, `evaluate` and `predict` under a MirroredStrategy of two replicas: each
replica runs the step on its half of the batch (batch normalization sees that half's
statistics and keeps its own moving ones); expected values are TF's."""
import numpy as np
import pytest

import eagerflow as tf


def test_batch_normalization_model_per_replica(two_cpus):
    s = two_cpus
    x = np.linspace(-1, 1, 16 * 2, dtype=np.float32).reshape(16, 2) ** 3
    y = np.ones((16, 1), np.float32)
    with s.scope():
        model = tf.keras.Sequential([
            tf.keras.layers.Dense(2, kernel_initializer="ones"),
            tf.keras.layers.BatchNormalization(),
            tf.keras.layers.Dense(1, kernel_initializer="ones")])
        model.compile(tf.keras.optimizers.SGD(0.1), "mse", metrics=["mae"])
    history = model.fit(x, y, batch_size=8, epochs=1, verbose=0, shuffle=False)
    np.testing.assert_allclose(history.history["loss"], [2.7819013595581055], rtol=1e-5)
    np.testing.assert_allclose(history.history["mae"], [1.2487772703170776], rtol=1e-5)
    bn = model.layers[1]
    np.testing.assert_allclose(bn.moving_variance.numpy(), [0.9829643] * 2, rtol=1e-5)
    assert [type(v).__name__ for v in model.metrics[1].variables] == ["SyncOnReadVariable"] * 2
    # inference in each replica reads its own moving statistics, as in TF
    np.testing.assert_allclose(model.evaluate(x, y, batch_size=8, verbose=0),
                               [0.3922804594039917, 0.5201590061187744], rtol=1e-5)
    np.testing.assert_allclose(model.predict(x[:3], verbose=0).ravel(),
                               [-0.47503322, -0.09448189, 0.17378697], rtol=1e-5)
    assert model.predict(x[:1], verbose=0).shape == (1, 1)


def test_summed_loss_and_regularization_per_replica(two_cpus):
    x = np.linspace(0, 1, 8 * 2, dtype=np.float32).reshape(8, 2)
    y = np.ones((8, 1), np.float32)

    def train(strategy):
        with strategy.scope():
            model = tf.keras.Sequential([tf.keras.layers.Dense(
                1, kernel_initializer="ones",
                kernel_regularizer=tf.keras.regularizers.l2(0.1))])
            model.compile(tf.keras.optimizers.SGD(0.05),
                          tf.keras.losses.MeanSquaredError(reduction="sum"), metrics=["mse"])
        history = model.fit(x, y, batch_size=4, epochs=2, verbose=0, shuffle=False)
        return model, history.history

    # the step over two replicas is the one-replica step (no batch statistics) ...
    for strategy in (two_cpus, tf.distribute.OneDeviceStrategy("/cpu:0")):
        model, history = train(strategy)
        np.testing.assert_allclose(history["loss"], [2.356334924697876, 1.8264458179473877],
                                   rtol=1e-5)
        np.testing.assert_allclose(history["mse"], [0.5379703640937805, 0.42627382278442383],
                                   rtol=1e-5)
        np.testing.assert_allclose(model.layers[0].kernel.numpy().ravel(),
                                   [0.64749783, 0.6491102], rtol=1e-5)
    # ... but a summed loss over uneven parts (batches of 3: 2 + 1) counts each part's sum
    # times the replicas, as TF's loss metric does
    model, _ = train(two_cpus)
    np.testing.assert_allclose(model.evaluate(x, y, batch_size=3, verbose=0),
                               [1.0236725807189941, 0.2621121406555176], rtol=1e-5)


def test_custom_train_step_results_differing_between_replicas_are_summed(two_cpus):
    # tf_keras reduces a step's per-replica results by the model's
    # distribute_reduction_method ("auto": their sum); a metric's result is shared
    s = two_cpus
    x = np.arange(24, dtype=np.float32).reshape(8, 3) / 10
    y = np.arange(8, dtype=np.float32).reshape(8, 1) / 4

    class Custom(tf.keras.Model):
        def train_step(self, data):
            xx, yy = data
            with tf.GradientTape() as tape:
                pred = self(xx, training=True)
                loss = self.compiled_loss(yy, pred)
                share = tf.nn.compute_average_loss(tf.keras.losses.mean_squared_error(yy, pred))
            grads = tape.gradient(loss, self.trainable_variables)
            self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
            self.compiled_metrics.update_state(yy, pred)
            logs = {m.name: m.result() for m in self.metrics}
            logs["rid"] = tf.distribute.get_replica_context().replica_id_in_sync_group
            logs["bs"] = tf.shape(xx)[0]
            logs["share"] = share
            return logs

    def fit(reduction=None):
        with s.scope():
            inp = tf.keras.Input((3,))
            model = Custom(inp, tf.keras.layers.Dense(1, kernel_initializer="ones")(inp))
            model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse", metrics=["mae"])
        if reduction:
            model.distribute_reduction_method = reduction
        return model.fit(x, y, batch_size=4, epochs=2, verbose=0, shuffle=False).history
    h = fit()
    np.testing.assert_allclose(h["loss"], [4.65996, 2.50536], rtol=1e-5)
    np.testing.assert_allclose(h["mae"], [1.94882, 1.53928], rtol=1e-5)
    assert h["rid"] == [1.0, 1.0] and h["bs"] == [4.0, 4.0]
    np.testing.assert_allclose(h["share"], [7.16617, 2.85486], rtol=1e-5)
    first = fit("first")
    assert first["rid"] == [0.0, 0.0] and first["bs"] == [2.0, 2.0]


def test_fit_evaluate_predict_take_a_distributed_dataset_with_steps(two_cpus):
    s = two_cpus
    x = np.arange(24, dtype=np.float32).reshape(8, 3) / 10
    y = np.arange(8, dtype=np.float32).reshape(8, 1) / 4
    dd = s.experimental_distribute_dataset(tf.data.Dataset.from_tensor_slices((x, y)).batch(4))
    with s.scope():
        model = tf.keras.Sequential([tf.keras.layers.Dense(1, kernel_initializer="ones")])
        model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse", metrics=["mae"])
    with pytest.raises(ValueError, match="^When providing a distributed dataset, you must "
                                         "specify the number of steps to run.$"):
        model.fit(dd, epochs=1, verbose=0)
    h = model.fit(dd, epochs=1, steps_per_epoch=2, validation_data=dd, validation_steps=2,
                  verbose=0).history
    np.testing.assert_allclose([h["loss"][0], h["mae"][0], h["val_loss"][0], h["val_mae"][0]],
                               [4.659961, 1.948825, 5.432046, 2.163194], rtol=1e-5)
    np.testing.assert_allclose(model.evaluate(dd, steps=2, verbose=0), [5.432046, 2.163194],
                               rtol=1e-5)
    assert model.predict(dd, steps=2, verbose=0).shape == (8, 1)
    with pytest.raises(ValueError, match="must specify the number of steps"):
        model.predict(dd, verbose=0)

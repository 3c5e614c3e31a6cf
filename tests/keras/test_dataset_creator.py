"""keras.utils.experimental.DatasetCreator in fit, evaluate and predict, as in tf_keras."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras

DatasetCreator = keras.utils.experimental.DatasetCreator
X = np.arange(8, dtype="float32").reshape(4, 2)
Y = np.ones((4, 1), "float32")


def _creator(contexts):
    def dataset_fn(input_context):
        contexts.append((input_context.num_input_pipelines, input_context.input_pipeline_id,
                         input_context.num_replicas_in_sync,
                         input_context.get_per_replica_batch_size(4)))
        return tf.data.Dataset.from_tensor_slices((X, Y)).batch(2).repeat()
    return DatasetCreator(dataset_fn)


def test_fit_evaluate_predict_with_a_dataset_creator():
    contexts = []
    creator = _creator(contexts)
    model = keras.Sequential([keras.layers.Dense(1, kernel_initializer="zeros",
                                                 input_shape=(2,))])
    model.compile("sgd", "mse")
    history = model.fit(creator, epochs=2, steps_per_epoch=2, verbose=0)
    np.testing.assert_allclose(history.history["loss"], [0.7066, 0.31447], atol=1e-5)
    assert contexts == [(1, 0, 1, 4)]
    assert model.evaluate(creator, steps=2, verbose=0) == pytest.approx(0.2894044, abs=1e-6)
    assert model.predict(creator, steps=1, verbose=0).shape == (2, 1)
    with pytest.raises(ValueError, match="When using a `tf.keras.utils.experimental."
                                         "DatasetCreator`, `steps_per_epoch`, "):
        model.fit(creator, epochs=1, verbose=0)


def test_dataset_creator_checks_its_arguments():
    with pytest.raises(TypeError, match="`dataset_fn` for `DatasetCreator` must be a "
                                        "`callable`. Received: 3"):
        DatasetCreator(3)
    with pytest.raises(TypeError, match="`input_options` for `DatasetCreator` must be a "
                                        "`tf.distribute.InputOptions`. Received: 3"):
        DatasetCreator(lambda context: None, input_options=3)
    creator = DatasetCreator(lambda context: None,
                             input_options=tf.distribute.InputOptions())
    with pytest.raises(TypeError, match="must return a Dataset"):
        creator(tf.distribute.InputContext())

"""A model with ragged or sparse Inputs: its save_spec gives their own specs (as tf_keras),
so that tf.saved_model.load'ed, it takes ragged values; a ragged Input is ragged up to its
last axis of unknown size."""
import numpy as np

import eagerflow as tf


def _ragged_model():
    return tf.keras.Sequential([
        tf.keras.layers.Input(shape=[None], dtype=tf.int64, ragged=True),
        tf.keras.layers.Embedding(10, 4, embeddings_initializer=tf.keras.initializers.Constant(
            0.1)),
        tf.keras.layers.LSTM(3, kernel_initializer="ones", recurrent_initializer="zeros"),
        tf.keras.layers.Dense(1, kernel_initializer="ones")])


def test_save_spec_of_ragged_and_sparse_inputs():
    assert _ragged_model().save_spec() == (
        [tf.RaggedTensorSpec(tf.TensorShape([None, None]), tf.int64, 1, tf.int64)], {})
    sparse = tf.keras.Input(shape=[3], sparse=True)
    assert tf.keras.Model(sparse, sparse).save_spec() == (
        [tf.SparseTensorSpec(tf.TensorShape([None, 3]), tf.float32)], {})


def test_ragged_input_ragged_rank_stops_at_the_last_unknown_axis():
    inp = tf.keras.Input(shape=[None, 2], ragged=True)
    assert inp.type_spec == tf.RaggedTensorSpec(tf.TensorShape([None, None, 2]), tf.float32, 1,
                                                tf.int64)
    assert "RaggedTensorSpec(TensorShape([None, None, 2]), tf.float32, 1, tf.int64)" in str(inp)
    assert tf.keras.Input(shape=[None, None], ragged=True).type_spec.ragged_rank == 2


def test_loaded_ragged_model_takes_ragged_values(tmp_path):
    model = _ragged_model()
    x = tf.ragged.constant([[1, 2], [3, 4, 5]], dtype=tf.int64)
    expected = model(x).numpy()
    tf.saved_model.save(model, str(tmp_path))
    loaded = tf.saved_model.load(str(tmp_path))
    np.testing.assert_allclose(loaded(x).numpy(), expected, rtol=1e-6)

"""SavedModel signatures of functions with ragged inputs: one input per component, named as
TF names them (``x``, ``x_1``, ...)."""
import numpy as np

import eagerflow as tf


class _Weighted(tf.Module):
    @tf.function(input_signature=[tf.RaggedTensorSpec([None, None], tf.int32),
                                  tf.TensorSpec([None], tf.float32, name="w")])
    def g(self, ids, w):
        return tf.reduce_sum(tf.cast(ids, tf.float32), axis=1) * w


class _Nested(tf.Module):
    @tf.function(input_signature=[tf.RaggedTensorSpec([None, None, None], tf.float32)])
    def f(self, x):
        return {"s": tf.reduce_sum(x, axis=[1, 2])}


def test_ragged_input_gets_a_default_serving_signature(tmp_path):
    tf.saved_model.save(_Weighted(), str(tmp_path))
    loaded = tf.saved_model.load(str(tmp_path))
    assert list(loaded.signatures) == ["serving_default"]
    serving = loaded.signatures["serving_default"]
    _, inputs = serving.structured_input_signature
    assert {k: (v.dtype, v.shape.as_list()) for k, v in inputs.items()} == {
        "ids": (tf.int32, [None]), "ids_1": (tf.int64, [None]), "w": (tf.float32, [None])}
    out = serving(ids=tf.constant([1, 2, 3]), ids_1=tf.constant([0, 2, 3], tf.int64),
                  w=tf.constant([1., 2.]))
    np.testing.assert_allclose(out["output_0"].numpy(), [3., 6.])
    np.testing.assert_allclose(loaded.g(tf.ragged.constant([[1, 2], [3]]),
                                        tf.constant([1., 2.])).numpy(), [3., 6.])


def test_ragged_rank_two_signature_inputs(tmp_path):
    module = _Nested()
    tf.saved_model.save(module, str(tmp_path), signatures=module.f)
    serving = tf.saved_model.load(str(tmp_path)).signatures["serving_default"]
    assert sorted(serving.structured_input_signature[1]) == ["x", "x_1", "x_2"]
    out = serving(x=tf.constant([1., 2., 3.]), x_1=tf.constant([0, 2, 3], tf.int64),
                  x_2=tf.constant([0, 1, 3, 3], tf.int64))
    np.testing.assert_allclose(out["s"].numpy(), [6., 0.])

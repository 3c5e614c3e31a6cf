"""tf.nn.max_pool_with_argmax against TF's recorded values."""
import numpy as np

import eagerflow as tf

X = np.random.default_rng(0).normal(size=(2, 4, 4, 3)).astype(np.float32)


def test_values_indices_and_gradient():
    out, where = tf.nn.max_pool_with_argmax(X, 2, 2, "VALID")
    assert out.shape == (2, 2, 2, 3) and where.dtype == tf.int64
    assert where[0, :, :, 0].numpy().tolist() == [[0, 21], [39, 42]]
    assert where[1, 0, 0].numpy().tolist() == [0, 1, 14]
    result = tf.nn.max_pool_with_argmax(X, 3, 2, "SAME", include_batch_in_index=True,
                                        output_dtype=tf.int32)
    assert type(result).__name__ == "MaxPoolWithArgmax" and result.argmax.dtype == tf.int32
    assert result.argmax[1, :, :, 1].numpy().tolist() == [[79, 79], [79, 79]]
    v = tf.Variable(X)
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.nn.max_pool_with_argmax(v, 2, 2, "VALID")[0] * 2)
    assert tape.gradient(y, v)[0, :, :, 0].numpy().tolist() == [
        [2.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 2.0], [0.0, 0.0, 0.0, 0.0], [0.0, 2.0, 2.0, 0.0]]
    fn = tf.function(lambda x: tf.nn.max_pool_with_argmax(x, 2, 2, "SAME"))
    assert fn(tf.ones([1, 3, 3, 1]))[1].numpy().ravel().tolist() == [0, 2, 6, 8]

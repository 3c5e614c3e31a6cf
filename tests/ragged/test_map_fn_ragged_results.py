"""`tf.map_fn` over dense rows with ragged results (``fn_output_signature`` a
`RaggedTensorSpec`), as TF's map_fn documents it (expected values from TF 2.21)."""
import eagerflow as tf


def test_dense_rows_with_ragged_results():
    out = tf.map_fn(fn=lambda x: tf.range(x), elems=tf.constant([3, 5, 0, 2]),
                    fn_output_signature=tf.RaggedTensorSpec(shape=[None], dtype=tf.int32))
    assert out.to_list() == [[0, 1, 2], [0, 1, 2, 3, 4], [], [0, 1]]
    assert out.row_splits.dtype == tf.int64
    sig = tf.RaggedTensorSpec(shape=[None, None], dtype=tf.int64, ragged_rank=1)
    out = tf.map_fn(lambda x: tf.ragged.range(tf.range(x, dtype=tf.int64)),
                    tf.constant([3, 2], tf.int64), fn_output_signature=sig)
    assert out.to_list() == [[[], [0], [0, 1]], [[], [0]]]
    out = tf.map_fn(lambda x: tf.range(x), tf.constant([1, 2]),
                    fn_output_signature=tf.RaggedTensorSpec([None], tf.int32,
                                                            row_splits_dtype=tf.int32))
    assert out.row_splits.dtype == tf.int32 and out.to_list() == [[0], [0, 1]]
    out = tf.map_fn(lambda x: tf.range(x), tf.constant([], tf.int32),
                    fn_output_signature=tf.RaggedTensorSpec([None], tf.int32))
    assert out.to_list() == []


def test_ragged_results_in_a_function_of_unknown_length():
    @tf.function(input_signature=[tf.TensorSpec([None], tf.int32)])
    def f(e):
        return tf.map_fn(lambda x: tf.range(x), e,
                         fn_output_signature=tf.RaggedTensorSpec([None], tf.int32))
    assert f(tf.constant([2, 0, 1])).to_list() == [[0, 1], [], [0]]
    out = tf.map_fn(lambda t: tf.range(t[0], t[1]), (tf.constant([0, 1]), tf.constant([2, 4])),
                    fn_output_signature=tf.RaggedTensorSpec([None], tf.int32))
    assert out.to_list() == [[0, 1], [1, 2, 3]]

"""Loops of functions over the rows of ragged tensors."""
import pytest

import eagerflow as tf


def test_a_loop_over_rows_only_run_time_counts_is_a_graph_loop():
    # (a Python loop over them never ended: indexing a symbolic row never raises IndexError)
    @tf.function(input_signature=[tf.RaggedTensorSpec([None, None], tf.int32)])
    def total(rt):
        s = 0
        for row in rt:
            if tf.reduce_sum(row) > 10:
                break
            s += tf.reduce_sum(row)
        return s

    assert int(total(tf.ragged.constant([[1, 2], [3]]))) == 6
    assert int(total(tf.ragged.constant([[1], [20], [3]]))) == 1
    assert int(total(tf.ragged.constant([], dtype=tf.int32, ragged_rank=1))) == 0


def test_rows_of_a_known_count_unroll_and_unknown_ones_refuse_plain_python():
    @tf.function
    def rows(rt):
        return [tf.reduce_sum(row) for row in rt]

    assert [int(v) for v in rows(tf.ragged.constant([[1, 2], [3]]))] == [3, 3]

    @tf.function(input_signature=[tf.RaggedTensorSpec([None, None], tf.int32)],
                 autograph=False)
    def unknown(rt):
        return [tf.reduce_sum(row) for row in rt]

    with pytest.raises(TypeError, match="known only at run time"):
        unknown(tf.ragged.constant([[1, 2], [3]]))


def test_a_tf_function_traced_itself_dispatches_on_ragged_arguments():
    """``tf.function(tf.reduce_sum)`` and ``Dataset.map(tf.reduce_sum)``: the function
    machinery calls the TF function for the user, as in TF."""
    rt = tf.ragged.constant([[3, 1, 2], [], [5, 4]])
    assert tf.function(tf.reduce_sum)(rt).numpy() == 15
    assert tf.function(tf.gather_nd)(rt, [[0, 1]]).numpy().tolist() == [1]
    batches = tf.data.Dataset.from_tensor_slices(tf.ragged.constant([[1, 2], [3]])).batch(2)
    assert [b.numpy() for b in batches.map(tf.reduce_sum)] == [6]


def test_stack_of_ragged_tensors_inside_a_converted_function():
    rt = tf.ragged.constant([[1, 2, 3], [], [4, 5]])

    @tf.function(input_signature=[tf.RaggedTensorSpec([None, None], tf.int32)])
    def stacked(r):
        x = tf.stack([r, r], axis=1)
        assert x.shape.as_list() == [None, None, None]
        return x.row_splits, x.flat_values
    splits, values = stacked(rt)
    assert splits.numpy().tolist() == [0, 2, 4, 6]
    assert values.numpy().tolist() == [1, 2, 3, 1, 2, 3, 4, 5, 4, 5]
    # eagerly as TF: row splits of static length, not a uniform row length
    eager = tf.stack([rt, rt], axis=1)
    assert eager.shape.as_list() == [3, None, None] and eager.uniform_row_length is None


def test_row_partition_encodings_computed_in_a_loop_body_stay_there():
    spec = tf.RaggedTensorSpec([None, None], tf.float32)

    @tf.function(input_signature=[spec])
    def total(x):
        return tf.while_loop(lambda i, acc: i < x.nrows(),
                             lambda i, acc: (i + 1, acc + tf.reduce_sum(x[i])),
                             (tf.constant(0, tf.int64), 0.))[1]

    @tf.function(input_signature=[spec])
    def branch(x):
        lengths = tf.cond(tf.reduce_sum(x.flat_values) > 0, lambda: x.row_lengths(),
                          lambda: x.row_lengths() * 0)
        return lengths + x.row_lengths(), x.value_rowids()

    rt = tf.ragged.constant([[1., 2., 3.], [], [4., 5.], [6.]])
    assert float(total(rt)) == 21.
    lengths, rows = branch(rt)
    assert lengths.numpy().tolist() == [6, 0, 4, 2]
    assert rows.numpy().tolist() == [0, 0, 0, 2, 2, 3]


def test_factories_validate_in_a_function_when_it_runs():
    ints = tf.TensorSpec([None], tf.int32)
    from_lengths = tf.function(tf.RaggedTensor.from_row_lengths, input_signature=[ints, ints])
    from_splits = tf.function(tf.RaggedTensor.from_row_splits, input_signature=[ints, ints])
    from_rowids = tf.function(tf.RaggedTensor.from_value_rowids, input_signature=[ints, ints])
    uniform = tf.function(lambda v: tf.RaggedTensor.from_uniform_row_length(v, 2),
                          input_signature=[ints])
    values = tf.constant([1, 2, 3])
    assert from_lengths(values, tf.constant([2, 1])).to_list() == [[1, 2], [3]]
    assert from_rowids(values, tf.constant([0, 0, 2])).to_list() == [[1, 2], [], [3]]
    for call in (lambda: from_lengths(values, tf.constant([2, 2])),
                 lambda: from_lengths(values, tf.constant([4, -1])),
                 lambda: from_splits(values, tf.constant([0, 4])),
                 lambda: from_splits(values, tf.constant([1, 3])),
                 lambda: from_rowids(values, tf.constant([0, 2, 1])),
                 lambda: uniform(values)):
        with pytest.raises(tf.errors.InvalidArgumentError):
            call()
    # (validate=False: no checks, as TF)
    unchecked = tf.function(lambda v, s: tf.RaggedTensor.from_row_splits(v, s, validate=False),
                            input_signature=[ints, ints])
    assert unchecked(values, tf.constant([0, 3])).to_list() == [[1, 2, 3]]

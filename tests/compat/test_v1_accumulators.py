"""tf.compat.v1.ConditionalAccumulator and SparseConditionalAccumulator, eagerly and in TF 1
graphs, against TF 2.21's results."""
import threading

import numpy as np
import pytest

import eagerflow as tf

tf1 = tf.compat.v1


def test_eager_accumulator_drops_stale_gradients_and_averages():
    acc = tf1.ConditionalAccumulator(tf.float32, shape=[2])
    assert acc.name == "" and acc.dtype == tf.float32
    assert acc.accumulator_ref.dtype == tf.resource
    assert int(acc.num_accumulated()) == 0
    assert acc.apply_grad([1.0, 2.0]) is None
    acc.apply_grad([3.0, 5.0], local_step=0)
    assert int(acc.num_accumulated()) == 2
    out = acc.take_grad(2)
    assert out.dtype == tf.float32 and out.numpy().tolist() == [2.0, 3.5]
    assert int(acc.num_accumulated()) == 0
    acc.apply_grad([3.0, 5.0], local_step=0)  # stale: the take advanced the step to 1
    assert int(acc.num_accumulated()) == 0
    acc.apply_grad([3.0, 5.0], local_step=1)
    acc.set_global_step(5)
    acc.apply_grad([1.0, 1.0], local_step=4)  # stale
    acc.apply_grad([1.0, 1.0], local_step=7)
    assert int(acc.num_accumulated()) == 2
    # (the mean of all it holds, however few were required)
    assert acc.take_grad(1).numpy().tolist() == [2.0, 3.0]


def test_eager_accumulator_errors():
    acc = tf1.ConditionalAccumulator(tf.float32, shape=[2])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Argument num_required must be positive, but was 0"):
        acc.take_grad(0)
    with pytest.raises(ValueError, match=r"Shapes \(3,\) and \(2,\) are incompatible"):
        acc.apply_grad([1.0, 1.0, 3.0])
    with pytest.raises(ValueError, match="Tensor conversion requested dtype float32 for Tensor "
                                         "with dtype int32"):
        acc.apply_grad(tf.constant([1, 2]))
    acc.apply_grad([1, 2])  # (Python numbers convert to the accumulator's dtype)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Value for attr 'reduction_type' of \"MAX\" is not in the list of "
                             "allowed values: \"MEAN\", \"SUM\""):
        tf1.ConditionalAccumulator(tf.float32, reduction_type="MAX")
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Value for attr 'dtype' of string is not in the list of allowed "
                             "values: float, double, int32"):
        tf1.ConditionalAccumulator(tf.string)
    with pytest.raises(tf.errors.NotFoundError,
                       match="Could not find device for node: {{node "
                             "ResourceConditionalAccumulator}}"):
        tf1.ConditionalAccumulator(tf.int32, shape=[])
    with pytest.raises(RuntimeError, match="sparse_conditional_accumulator op does not support "
                                           "eager execution. Arg 'handle' is a ref."):
        tf1.SparseConditionalAccumulator(tf.float32, shape=[3, 2])


def test_eager_sum_accumulator_takes_its_shape_from_the_first_gradient():
    acc = tf1.ConditionalAccumulator(tf.float64, reduction_type="SUM")
    acc.apply_grad(np.array([[1.0, 2.0]]))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Shape mismatch: expected \[1,2\], got \[2,2\]"):
        acc.apply_grad(np.array([[1.0, 2.0], [3, 4]]))
    acc.apply_grad(np.array([[1.5, 2.0]]))
    out = acc.take_grad(2)
    assert out.dtype == tf.float64 and out.numpy().tolist() == [[2.5, 4.0]]
    half = tf1.ConditionalAccumulator(tf.float16, shape=[])
    half.apply_grad(3)
    half.apply_grad(4)
    taken = half.take_grad(2)
    assert taken.dtype == tf.float16 and float(taken) == 3.5


def test_take_grad_waits_for_the_gradients_another_thread_applies():
    acc = tf1.ConditionalAccumulator(tf.float32, shape=[])
    got = []
    taker = threading.Thread(target=lambda: got.append(float(acc.take_grad(2))))
    taker.start()
    acc.apply_grad(1.0)
    acc.apply_grad(2.0)
    taker.join(10)
    assert got == [1.5]


def test_accumulator_in_a_function():
    acc = tf1.ConditionalAccumulator(tf.float32, shape=[2])

    @tf.function
    def step(g, local_step):
        acc.apply_grad(g, local_step=local_step)

    @tf.function
    def take():
        return acc.take_grad(2)

    step(tf.constant([1.0, 2.0]), 0)
    step(tf.constant([3.0, 4.0]), 0)
    assert int(acc.num_accumulated()) == 2
    assert take().numpy().tolist() == [2.0, 3.0]
    step(tf.constant([3.0, 4.0]), 0)  # stale
    assert int(acc.num_accumulated()) == 0


def _dense_graph():
    g = tf.Graph()
    with g.as_default():
        acc = tf1.ConditionalAccumulator(tf.float32, shape=[2], name="acc")
        x = tf1.placeholder(tf.float32, [2])
        local = tf1.placeholder(tf.int64, [])
        apply = acc.apply_grad(x, local_step=local)
        take = acc.take_grad(2)
        count = acc.num_accumulated()
    return g, acc, x, local, apply, take, count


def test_graph_accumulator_ops_and_session_runs():
    g, acc, x, local, apply, take, count = _dense_graph()
    assert acc.name == "acc" and acc.accumulator_ref.dtype == tf.resource
    assert apply.type == "ResourceAccumulatorApplyGradient"
    assert str(take) == 'Tensor("ResourceAccumulatorTakeGradient:0", shape=(2,), dtype=float32)'
    assert count.name == "acc_NumAccumulated:0" and count.dtype == tf.int32
    with g.as_default():
        with pytest.raises(ValueError, match=r"Shapes \(3,\) and \(2,\) are incompatible"):
            acc.apply_grad([1.0, 2.0, 3.0])
    with tf1.Session(graph=g) as sess:
        sess.run(apply, {x: [1, 2], local: 0})
        sess.run(apply, {x: [3, 5], local: 0})
        assert sess.run(count) == 2
        assert sess.run(take).tolist() == [2.0, 3.5]
        sess.run(apply, {x: [1, 2], local: 0})  # stale
        assert sess.run(count) == 0
        with pytest.raises(tf.errors.DeadlineExceededError):
            sess.run(take, options=tf1.RunOptions(timeout_in_ms=200))
    with tf1.Session(graph=g) as sess:  # (each session its own accumulator)
        assert sess.run(count) == 0


def test_graph_sparse_accumulator_averages_each_row_over_its_gradients():
    g = tf.Graph()
    with g.as_default():
        acc = tf1.SparseConditionalAccumulator(tf.float32, shape=[4, 2], name="sacc")
        assert acc.name == "sacc" and acc.dtype == tf.float32
        ids = tf1.placeholder(tf.int64, [None])
        values = tf1.placeholder(tf.float32, [None, 2])
        local = tf1.placeholder(tf.int64, [])
        apply = acc.apply_grad(ids, values, local_step=local)
        assert apply.type == "SparseAccumulatorApplyGradient"
        assert apply.get_attr("has_known_shape") is False
        slices = tf.IndexedSlices(values, ids, tf.constant([4, 2], tf.int64))
        apply_slices = acc.apply_indexed_slices_grad(slices, local_step=local)
        take = acc.take_grad(2)
        take_slices = acc.take_indexed_slices_grad(1)
        count = acc.num_accumulated()
    assert type(take).__name__ == "SparseAccumulatorTakeGradient"
    assert isinstance(take_slices, tf.IndexedSlices)
    with tf1.Session(graph=g) as sess:
        sess.run(apply, {ids: [0, 2], values: [[1, 2], [3, 4]], local: 0})
        sess.run(apply, {ids: [2, 1], values: [[10, 20], [5, 6]], local: 0})
        sess.run(apply, {ids: [3], values: [[7, 7]], local: -1})  # stale
        assert sess.run(count) == 2
        out = sess.run(take)
        assert out.indices.tolist() == [0, 2, 1]
        assert out.values.tolist() == [[1, 2], [6.5, 12], [5, 6]]
        assert out.shape.tolist() == [4, 2]
        sess.run(apply_slices, {ids: [3, 0], values: [[1, 1], [2, 2]], local: 5})
        got = sess.run(take_slices)
        assert got.indices.tolist() == [3, 0] and got.values.tolist() == [[1, 1], [2, 2]]
        assert got.dense_shape.tolist() == [4, 2]
        with pytest.raises(tf.errors.InvalidArgumentError):
            sess.run(apply, {ids: [5], values: [[1, 2]], local: 5})  # (out of range)


def test_graph_sparse_accumulator_merges_rows_as_tf():
    # TF 2.21: a walk of the held rows and the new ones in step (the first gradient's rows
    # kept as they come), the smaller index first, equal ones summed
    g = tf.Graph()
    with g.as_default():
        mean = tf1.SparseConditionalAccumulator(tf.float32, shape=[4, 1])
        total = tf1.SparseConditionalAccumulator(tf.float32, shape=[4, 1], reduction_type="SUM")
        unknown = tf1.SparseConditionalAccumulator(tf.float32)
        ids = tf1.placeholder(tf.int64, [None])
        values = tf1.placeholder(tf.float32, [None, 1])
        applies = [a.apply_grad(ids, values, local_step=100) for a in (mean, total, unknown)]
        takes = [a.take_grad(1) for a in (mean, total, unknown)]
    cases = [([[0, 0], [0]], [0, 0], [10.0, 20.0]),
             ([[3, 1], [0, 1, 3]], [0, 1, 3, 1], [10.0, 20.0, 20.0, 20.0]),
             ([[2], [1, 1]], [1, 1, 2], [10.0, 20.0, 10.0])]
    with tf1.Session(graph=g) as sess:
        for gradients, want_ids, want_values in cases:
            for i in gradients:
                sess.run(applies[0], {ids: i, values: np.arange(1, len(i) + 1)[:, None] * 10})
            out = sess.run(takes[0])
            assert out.indices.tolist() == want_ids
            assert out.values.ravel().tolist() == want_values
            assert out.shape.tolist() == [4, 1]
        for i in ([3, 1], [0, 1, 3]):
            sess.run(applies[1], {ids: i, values: np.arange(1, len(i) + 1)[:, None] * 10})
        out = sess.run(takes[1])
        assert out.indices.tolist() == [0, 1, 3, 1]
        assert out.values.ravel().tolist() == [10.0, 20.0, 40.0, 20.0]
        sess.run(applies[2], {ids: [7, 2], values: [[1.0], [2.0]]})
        out = sess.run(takes[2])
        assert out.indices.tolist() == [7, 2] and out.shape.tolist() == [-1, 1]

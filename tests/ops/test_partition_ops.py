"""dynamic_partition, dynamic_stitch and fixed-width histograms: TF's values, errors,
gradients and static shapes."""
import re

import numpy as np
import pytest

import eagerflow as tf
from tests.op_errors import op_text

_Invalid = tf.errors.InvalidArgumentError


def test_dynamic_partition():
    parts = tf.dynamic_partition([[1.0, 2], [3, 4], [5, 6]], [1, 0, 1], 3)
    assert [repr(p) for p in parts] == [
        "<tf.Tensor: shape=(1, 2), dtype=float32, numpy=array([[3., 4.]], dtype=float32)>",
        "<tf.Tensor: shape=(2, 2), dtype=float32, numpy=\n"
        "array([[1., 2.],\n       [5., 6.]], dtype=float32)>",
        "<tf.Tensor: shape=(0, 2), dtype=float32, numpy=array([], shape=(0, 2), dtype=float32)>"]
    # partitions of any rank cover data's leading dimensions
    assert repr(tf.dynamic_partition([[1.0, 2], [3, 4]], [[0, 1], [1, 1]], 2)[1]) == (
        "<tf.Tensor: shape=(3,), dtype=float32, numpy=array([2., 3., 4.], dtype=float32)>")
    assert [p.numpy().tolist() for p in tf.dynamic_partition(["a", "b"], [0, 1], 2)] == [
        [b"a"], [b"b"]]
    assert [p.numpy().tolist() for p in tf.dynamic_partition(5, 0, 2)] == [[5], []]


@pytest.mark.parametrize("data, partitions, num, error, message", [
    ([1, 2, 3], [0, 2, 1], 2, _Invalid, r"^partitions\[1\] = 2 is not in \[0, 2\) "
                                        r"\[Op:DynamicPartition\]$"),
    ([[1, 2], [3, 4]], [[0, 1], [5, 0]], 2, _Invalid, r"^partitions\[1,0\] = 5 is not in"),
    ([1, 2, 3], [0, 1], 2, _Invalid, r"^data.shape must start with partitions.shape, got "
                                     r"data.shape = \[3\], partitions.shape = \[2\] "),
    ([1, 2, 3], [0, 1, 1], 0, _Invalid, r"^Value for attr 'num_partitions' of 0 must be at "
                                        r"least minimum 1"),
    ([1, 2, 3], [0, 1, 1.0], 2, TypeError, r"^Cannot convert \[0, 1, 1.0\] to EagerTensor of "
                                           r"dtype int32$"),
    ([1, 2, 3], tf.constant([0, 1, 1], tf.int64), 2, ValueError,
     r"^Tensor conversion requested dtype int32 for Tensor with dtype int64"),
])
def test_dynamic_partition_errors(data, partitions, num, error, message):
    with pytest.raises(error) as info:
        tf.dynamic_partition(data, partitions, num)
    assert re.search(message, op_text(info.value)), str(info.value)


def test_dynamic_stitch():
    assert repr(tf.dynamic_stitch([[0, 2], [1, 3]], [[1.0, 2], [3, 4]])) == (
        "<tf.Tensor: shape=(4,), dtype=float32, numpy=array([1., 3., 2., 4.], dtype=float32)>")
    merged = tf.dynamic_stitch([6, [4, 1], [[5, 2], [0, 3]]],
                               [[61.0, 62], [[41, 42], [11, 12]],
                                [[[51, 52], [21, 22]], [[1, 2], [31, 32]]]])
    assert merged.numpy()[:, 0].tolist() == [1, 11, 21, 31, 41, 51, 61]
    # a later position wins where indices repeat; rows no index names are zeros (b"")
    assert repr(tf.dynamic_stitch([[0, 1], [1, 3]], [[1, 2], [3, 4]])) == (
        "<tf.Tensor: shape=(4,), dtype=int32, numpy=array([1, 3, 0, 4], dtype=int32)>")
    assert tf.dynamic_stitch([[0, 5]], [["a", "b"]]).numpy().tolist() == [
        b"a", b"", b"", b"", b"", b"b"]
    assert tf.dynamic_stitch([[]], [tf.zeros([0, 3])]).shape == (0, 3)
    # a tensor given for the lists stands for its rows
    assert tf.dynamic_stitch(tf.constant([[0, 1]]), tf.constant([[5, 6]])).numpy().tolist() == [
        5, 6]


@pytest.mark.parametrize("indices, data, error, message", [
    ([[0, 1], [2, 3, -5]], [[1, 2], [3, 4, 5]], _Invalid,
     r"^indices\[2\] is out of range \[Op:DynamicStitch\]$"),
    ([[0, 1]], [[1, 2, 3]], _Invalid, r"^data\[0\].shape = \[3\] does not start with "
                                      r"indices\[0\].shape = \[2\]"),
    ([[[0, 1]], [5, 7]], [[[[1], [2]]], [3, 4]], _Invalid,
     r"^Need data\[0\].shape\[2:\] = data\[1\].shape\[1:\], got data\[0\].shape = \[1,2,1\], "
     r"data\[1\].shape = \[2\], indices\[0\].shape = \[1,2\], indices\[1\].shape = \[2\]"),
    ([[0, 1], [5]], [tf.constant([1, 2]), tf.constant([3.0])], _Invalid,
     r"^cannot compute DynamicStitch as input #3\(zero-based\) was expected to be a int32 "
     r"tensor but is a float tensor \[Op:DynamicStitch\]$"),
    ([[0, 1], [2]], [[1, 2], [3.0]], TypeError, r"^Cannot convert \[3.0\] to EagerTensor"),
    ([[0, 1], [2]], [[1, 2]], ValueError,
     r"^List argument 'data' to 'dynamic_stitch' Op with length 1 must match length 2 of "
     r"argument 'indices'.$"),
])
def test_dynamic_stitch_errors(indices, data, error, message):
    with pytest.raises(error) as info:
        tf.dynamic_stitch(indices, data)
    assert re.search(message, op_text(info.value)), str(info.value)


def test_partition_and_stitch_gradients():
    d = tf.constant([[1.0, 2], [3, 4], [5, 6]])
    with tf.GradientTape() as tape:
        tape.watch(d)
        parts = tf.dynamic_partition(d, [1, 0, 1], 3)
        loss = tf.reduce_sum(parts[1] * [[1.0, 2], [3, 4]]) + tf.reduce_sum(parts[0] * 10.0)
    assert tape.gradient(loss, d).numpy().tolist() == [[1, 2], [10, 10], [3, 4]]
    # each value's gradient is read at its index, even where a later one overwrote it (as TF)
    a, b = tf.constant([1.0, 2]), tf.constant([3.0, 4])
    with tf.GradientTape() as tape:
        tape.watch([a, b])
        loss = tf.reduce_sum(tf.dynamic_stitch([[0, 1], [1, 3]], [a, b]) * [1.0, 2, 3, 4])
    assert [g.numpy().tolist() for g in tape.gradient(loss, [a, b])] == [[1, 2], [2, 4]]


def test_partition_and_stitch_in_functions():
    partition = tf.function(lambda x, p: tf.dynamic_partition(x, p, 2))
    stitch = tf.function(lambda x, p: tf.dynamic_stitch([p], [x]))
    spec = (tf.TensorSpec([None, 3]), tf.TensorSpec([None], tf.int32))
    assert [t.shape for t in partition.get_concrete_function(*spec).outputs] == [
        tf.TensorShape([None, 3])] * 2
    assert stitch.get_concrete_function(*spec).outputs[0].shape.as_list() == [None, 3]
    x = tf.constant([[1.0, 2, 3], [4, 5, 6]])
    assert partition(x, tf.constant([1, 0]))[0].numpy().tolist() == [[4, 5, 6]]
    assert stitch(x, tf.constant([1, 0])).numpy().tolist() == [[4, 5, 6], [1, 2, 3]]


def test_histogram_fixed_width():
    values = [-1.0, 0.0, 1.5, 2.0, 5.0, 15]
    assert repr(tf.histogram_fixed_width(values, [0.0, 5.0], nbins=5)) == (
        "<tf.Tensor: shape=(5,), dtype=int32, numpy=array([2, 1, 1, 0, 2], dtype=int32)>")
    assert repr(tf.histogram_fixed_width([[1, 2], [3, 9]], [0, 10], nbins=3,
                                         dtype=tf.int64)) == (
        "<tf.Tensor: shape=(3,), dtype=int64, numpy=array([3, 0, 1])>")
    # TF's bin arithmetic: (float32(0.7) - 0) / 0.1 lies below 7
    assert tf.histogram_fixed_width(tf.constant([0.1, 0.2, 0.3, 0.4, 0.7, 0.9999]), [0.0, 1.0],
                                    nbins=10).numpy().tolist() == [0, 1, 1, 1, 1, 0, 1, 0, 0, 1]
    assert tf.histogram_fixed_width([1.0, np.inf, -np.inf], [0.0, 3.0],
                                    nbins=3).numpy().tolist() == [1, 1, 1]
    # int32 ranges as wide as the type do not overflow
    assert tf.histogram_fixed_width(tf.constant([1, 5, 2 ** 31 - 1]), [-2 ** 31, 2 ** 31 - 1],
                                    nbins=4).numpy().tolist() == [0, 0, 2, 1]
    assert tf.histogram_fixed_width([], [0.0, 5.0], nbins=2).numpy().tolist() == [0, 0]
    assert tf.function(lambda x: tf.histogram_fixed_width(x, [0.0, 1.0], nbins=7)) \
        .get_concrete_function(tf.TensorSpec([None])).outputs[0].shape == (7,)


@pytest.mark.parametrize("values, value_range, nbins, dtype, message", [
    ([1.0, 2], [10.0, 0.0], 0, tf.int32, r"^value_range should satisfy value_range\[0\] < "
                                         r"value_range\[1\], but got '\[10, 0\]' "),
    ([1.0, 2], [0.5, 0.123456789], 2, tf.int32, r"but got '\[0.5, 0.123457\]'"),
    ([1.0, 2], [10.0, 0.0, 5], 0, tf.int32, r"^value_range should be a vector of 2 elements."),
    ([1.0, 2], [[0.5, 1.0]], 2, tf.int32, r"^value_range should be a vector. "),
    ([1.0, 2], [0.0, 1.0], [2], tf.int32, r"^nbins should be a scalar. "),
    ([1.0, 2], [0.0, 10.0], -1, tf.int32, r"^nbins should be a positive number, but got '-1' "),
    ([1.0, np.nan], [0.0, 3.0], 3, tf.int32, r"^Histogram values must not contain NaN "
                                             r"\[Op:HistogramFixedWidth\]$"),
    ([1.0, 2], [0.0, 3.0], 3, tf.float32, r"^Value for attr 'dtype' of float is not in the "
                                          r"list of allowed values: int32, int64"),
    (tf.constant([1, 2], tf.uint8), tf.constant([0, 3], tf.uint8), 2, tf.int32,
     r"^Value for attr 'T' of uint8 is not in the list of allowed values: int32, int64, float, "
     r"double"),
])
def test_histogram_fixed_width_errors(values, value_range, nbins, dtype, message):
    with pytest.raises(_Invalid) as info:
        tf.histogram_fixed_width(values, value_range, nbins=nbins, dtype=dtype)
    assert re.search(message, op_text(info.value)), str(info.value)


def test_histogram_fixed_width_bins():
    bins = tf.histogram_fixed_width_bins([-1.0, 0.0, 1.5, 2.0, 5.0, 15], [0.0, 5.0], nbins=5)
    assert repr(bins) == ("<tf.Tensor: shape=(6,), dtype=int32, numpy=array([0, 0, 1, 2, 4, 4],"
                          " dtype=int32)>")
    # the shape is kept; `dtype` is ignored, as in TF; NaN casts to int32's minimum
    assert repr(tf.histogram_fixed_width_bins([[1.0, 2], [3, 4]], [0.0, 3.0], nbins=3,
                                              dtype=tf.int64)) == (
        "<tf.Tensor: shape=(2, 2), dtype=int32, numpy=\narray([[1, 2],\n       [2, 2]], "
        "dtype=int32)>")
    assert tf.histogram_fixed_width_bins([1.0, np.nan, np.inf, -np.inf], [0.0, 3.0],
                                         nbins=3).numpy().tolist() == [1, -2 ** 31, 2, 0]
    with pytest.raises(_Invalid, match=r"^Expected 'tf.Tensor\(False, shape=\(\), dtype=bool\)' "
                                       r"to be true. Summarized data: b'nbins tf.Tensor\(0, "
                                       r"shape=\(\), dtype=int32\) must > 0'$"):
        tf.histogram_fixed_width_bins([1.0, 2], [0.0, 3.0], nbins=0)
    with pytest.raises(_Invalid, match=r"^cannot compute Sub as input #1\(zero-based\) was "
                                       r"expected to be a float tensor but is a int32 tensor"):
        tf.histogram_fixed_width_bins([1.0, 2], [0, 3], nbins=3)
    assert tf.function(lambda v: tf.histogram_fixed_width_bins(v, [0.0, 3.0], nbins=3))(
        tf.constant([1.0, 2.5])).numpy().tolist() == [1, 2]


def _traced(fn):
    return tf.function(fn)


@pytest.mark.parametrize("fn, message", [
    (lambda: tf.dynamic_partition(tf.zeros([2, 3]), [0, 1, 0], 2),
     r"Dimensions must be equal, but are 2 and 3 for .*DynamicPartition.* with input shapes: "
     r"\[2,3\], \[3\]"),
    (lambda: tf.dynamic_stitch([[0, 1], [2]], [[1., 2.], [3., 4.]]),
     r"Dimensions must be equal, but are 2 and 1 for .*DynamicStitch.* with input shapes: "
     r"\[2\], \[1\], \[2\], \[2\]"),
    (lambda: tf.histogram_fixed_width([1., 2.], [0., 5.], nbins=0),
     r"Requires nbins > 0: 0 for .*HistogramFixedWidth.* with input shapes: \[2\], \[2\], \[\] "
     r"and with computed input tensors: input\[2\] = <0>"),
    (lambda: tf.histogram_fixed_width([1., 2.], [0., 5.], nbins=-1), r"Requires nbins > 0: -1"),
])
def test_static_shape_errors_raise_while_tracing(fn, message):
    with pytest.raises(ValueError, match=message):
        _traced(fn)()
    with pytest.raises(tf.errors.InvalidArgumentError):  # eagerly: the kernel's error
        fn()


def test_dynamic_stitch_rejects_int64_indices_as_tf():
    indices = tf.constant([0, 1], tf.int64)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"input #0\(zero-based\) was expected to be a int32 tensor but is "
                             r"a int64 tensor"):
        tf.dynamic_stitch([indices], [tf.constant([1.0, 2.0])])

    @tf.function(input_signature=[tf.TensorSpec([None], tf.int64)])
    def stitch(i):
        return tf.dynamic_stitch([i], [tf.constant([1.0, 2.0])])
    with pytest.raises(TypeError, match="Input 'indices' of 'DynamicStitch' Op has type int64"):
        stitch(indices)


def test_parallel_dynamic_stitch_raw_op_and_static_rows_as_tf():
    out = tf.raw_ops.ParallelDynamicStitch(indices=[tf.constant([0, 2]), tf.constant([1, 3])],
                                           data=[tf.constant([1.0, 2.0]),
                                                 tf.constant([3.0, 4.0])])
    assert out.numpy().tolist() == [1.0, 3.0, 2.0, 4.0]
    with pytest.raises(tf.errors.InvalidArgumentError, match=re.escape(
            "indices[1] is out of range [Op:ParallelDynamicStitch]")):
        tf.raw_ops.ParallelDynamicStitch(indices=[tf.constant([0, -1])],
                                         data=[tf.constant([1.0, 2.0])])
    with pytest.raises(tf.errors.InvalidArgumentError, match="^" + re.escape(
            "cannot compute ParallelDynamicStitch as input #0(zero-based) was expected to be "
            "a int32 tensor but is a int64 tensor [Op:ParallelDynamicStitch]")):
        tf.raw_ops.ParallelDynamicStitch(indices=[tf.constant([0, 1], tf.int64)],
                                         data=[tf.constant([1, 2])])
    v1, v2 = tf.Variable([1.0, 2.0]), tf.Variable([5.0, 6.0])
    with tf.GradientTape() as tape:  # (an overwritten value gets its index's gradient too)
        y = tf.raw_ops.ParallelDynamicStitch(indices=[tf.constant([0, 2]), tf.constant([1, 2])],
                                             data=[v1, v2])
        loss = tf.reduce_sum(y * [1.0, 2.0, 3.0])
    assert [g.numpy().tolist() for g in tape.gradient(loss, [v1, v2])] == [[1, 3], [2, 3]]
    # TF's shape function counts the rows when every index is a constant
    for stitch in (tf.raw_ops.ParallelDynamicStitch, tf.raw_ops.DynamicStitch):
        traced = tf.function(lambda: stitch(indices=[tf.constant([0, 4]), tf.constant([[1]])],
                                            data=[tf.ones([2, 3]), tf.ones([1, 1, 3])]))
        assert traced.get_concrete_function().structured_outputs.shape == (5, 3)


def test_histogram_fixed_width_errors_end_as_tfs_scoped_wrapper():
    # TF's wrapper opens a name scope (the name is empty) and passes lists on as they are
    with pytest.raises(tf.errors.InvalidArgumentError, match=re.escape(
            "but got '[1, 1]' [Op:HistogramFixedWidth] name: ") + "$"):
        tf.histogram_fixed_width(tf.constant([1.0]), tf.constant([1.0, 1.0]), nbins=2,
                                 name="h")
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=re.escape("[Op:HistogramFixedWidth]") + "$"):
        tf.histogram_fixed_width([1.0], [1.0, 1.0], nbins=2)


def test_histogram_fixed_width_nbins_known_at_run_time():
    @tf.function(input_signature=[tf.TensorSpec([5]), tf.TensorSpec([], tf.int32)])
    def f(v, n):
        out = tf.histogram_fixed_width(v, [0.0, 10.0], nbins=n)
        assert out.shape.as_list() == [None]
        return out
    assert f(tf.constant([1.0, 2.0, 3.0, 9.0, 5.0]), tf.constant(4)).numpy().tolist() == \
        [2, 1, 1, 1]
    nodes = [(n.op, list(n.input)) for n in f.get_concrete_function().graph.as_graph_def().node
             if n.op == "HistogramFixedWidth"]
    assert nodes[0][1][0] == "v" and nodes[0][1][2] == "n"

"""`tf.map_fn` over dense rows with ragged results (``fn_output_signature`` a
`RaggedTensorSpec`), as TF's map_fn documents it (expected values from TF 2.21)."""
import pytest

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


def test_ragged_results_of_a_known_number_of_rows_keep_it_while_tracing():
    shapes = []

    @tf.function
    def f(e):
        out = tf.map_fn(lambda x: tf.range(x[0]), e,
                        fn_output_signature=tf.RaggedTensorSpec([None], tf.int32))
        shapes.append(out.shape.as_list())
        return out
    assert f(tf.constant([[1], [2], [0]])).to_list() == [[0], [0, 1], []]
    assert shapes == [[3, None]]


def test_map_fn_over_a_structure_holding_ragged_tensors():
    yt = tf.ragged.constant([[1.0, 0.0], [1.0], [0.0, 1.0, 1.0]])
    yp = tf.ragged.constant([[0.8, 0.1], [0.6], [0.3, 0.7, 0.9]])
    w = tf.constant([1.0, 2.0, 3.0])
    sig = tf.TensorSpec([], tf.float32)
    ragged_sig = tf.RaggedTensorSpec([None], tf.float32)

    def run(a, b, w):
        dot = tf.map_fn(lambda x: tf.reduce_sum(x[0] * x[1]), (a, b), fn_output_signature=sig)
        weighted = tf.map_fn(lambda x: tf.reduce_sum(x["r"]) * x["w"], {"r": a, "w": w},
                             fn_output_signature=sig)
        both = tf.map_fn(lambda x: (tf.reduce_sum(x[0]), tf.reduce_max(x[1])), (a, b),
                         fn_output_signature=(sig, sig))
        summed = tf.map_fn(lambda x: x[0] + x[1], (a, b), fn_output_signature=ragged_sig)
        return dot, weighted, both, summed

    for f in (run, tf.function(run)):
        dot, weighted, both, summed = f(yt, yp, w)
        assert dot.numpy().tolist() == pytest.approx([0.8, 0.6, 1.6])
        assert weighted.numpy().tolist() == [1.0, 2.0, 6.0]
        assert both[0].numpy().tolist() == [1.0, 1.0, 2.0]
        assert both[1].numpy().tolist() == pytest.approx([0.8, 0.6, 0.9])
        assert summed.to_list() == (yt + yp).to_list()
    nested = tf.ragged.constant([[[1.0], [2.0, 3.0]], [[4.0]]])
    out = tf.map_fn(lambda x: x[0].flat_values * x[1], (nested, tf.constant([1.0, 2.0])),
                    fn_output_signature=ragged_sig)
    assert out.to_list() == [[1.0, 2.0, 3.0], [8.0]]
    with pytest.raises(ValueError, match="Dimensions 3 and 2 are not compatible"):
        tf.map_fn(lambda x: tf.reduce_sum(x[0]), (yt, yp[:2]), fn_output_signature=sig)


def test_ragged_results_nested_beside_dense_ones():
    # TF 2.21: {'r': [[0], [0, 1, 2, 3]], 'd': [[2, 4, 6], [8, 10, 12]]}
    sig = {"r": tf.RaggedTensorSpec([None], tf.int32), "d": tf.float32}

    def run(x):
        return tf.map_fn(lambda r: {"r": tf.range(tf.cast(r[0], tf.int32)), "d": r * 2}, x,
                         fn_output_signature=sig)

    x = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    for f in (run, tf.function(run),
              tf.function(run, input_signature=[tf.TensorSpec([None, 3])])):
        out = f(x)
        assert out["r"].to_list() == [[0], [0, 1, 2, 3]]
        assert out["r"].row_splits.dtype == tf.int64
        assert out["d"].dtype == tf.float32
        assert out["d"].numpy().tolist() == [[2.0, 4.0, 6.0], [8.0, 10.0, 12.0]]
    empty = run(tf.zeros([0, 3]))
    assert empty["r"].to_list() == [] and empty["d"].shape == [0]  # (as TF: no row shape)


def test_ragged_elems_with_a_tuple_of_ragged_and_dense_results():
    rt = tf.ragged.constant([[1, 2], [3], []])
    sig = (tf.RaggedTensorSpec([None], tf.int32, row_splits_dtype=tf.int32), tf.int32)

    def run(rt):
        return tf.map_fn(lambda r: (r * 2, tf.size(r)), rt, fn_output_signature=sig)

    for f in (run, tf.function(run)):
        doubled, sizes = f(rt)
        assert doubled.to_list() == [[2, 4], [6], []]
        assert doubled.row_splits.dtype == tf.int32
        assert sizes.numpy().tolist() == [2, 1, 0]


def test_ragged_elems_with_sparse_results():
    rt = tf.ragged.constant([[1.0, 2.0], [3.0]])

    def run(rt):
        return tf.map_fn(tf.sparse.from_dense, rt,
                         fn_output_signature=tf.SparseTensorSpec([None], tf.float32))

    for f in (run, tf.function(run)):
        out = f(rt)
        assert isinstance(out, tf.SparseTensor)
        assert out.indices.numpy().tolist() == [[0, 0], [0, 1], [1, 0]]
        assert out.values.numpy().tolist() == [1.0, 2.0, 3.0]
        assert out.dense_shape.numpy().tolist() == [2, 2]


@pytest.mark.parametrize("spec, fn, returned", [
    (tf.RaggedTensorSpec([None], tf.float32),
     lambda r: tf.RaggedTensor.from_row_lengths(r, [1, 1]),
     "RaggedTensorSpec(TensorShape([2, None]), tf.float32, 1, tf.int64)"),
    (tf.RaggedTensorSpec([None, None], tf.float32), lambda r: r[:1],
     "TensorSpec(shape=(1,), dtype=tf.float32, name=None)"),
    (tf.RaggedTensorSpec([None], tf.int32), lambda r: r,
     "TensorSpec(shape=(2,), dtype=tf.float32, name=None)")])
def test_results_that_do_not_fit_the_ragged_signature_are_refused(spec, fn, returned):
    # as TF: a result of other ragged dimensions or dtype is an error, not another value
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    for run in (lambda f: f(), lambda f: tf.function(f)()):
        with pytest.raises(ValueError) as info:
            run(lambda: tf.map_fn(fn, x, fn_output_signature=spec))
        message = " ".join(str(info.value).split())  # (a function's indents it)
        assert f"Expected `fn` to return a: {spec!r} But it returned a: {returned} " in message
        assert "To fix, update the `fn_output_signature` (or `dtype`) argument" in message

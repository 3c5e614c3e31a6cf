"""Sparse tensors as dataset elements: slices, batches, maps and parsing, as TensorFlow gives
them (``programs/sparse.py`` compares the printed elements with TensorFlow's)."""
import re

import numpy as np
import pytest

import eagerflow as tf


def _st():
    return tf.SparseTensor([[0, 1], [2, 0], [2, 2], [3, 3]], [5, 7, 9, 11], [4, 4])


def _dense(ds):
    return [tf.sparse.to_dense(e).numpy().tolist() for e in ds]


def _parts(st):
    return st.indices.numpy().tolist(), st.values.numpy().tolist(), st.dense_shape.numpy().tolist()


ROWS = [[0, 5, 0, 0], [0, 0, 0, 0], [7, 0, 9, 0], [0, 0, 0, 11]]


def test_from_tensor_slices_slices_rows():
    ds = tf.data.Dataset.from_tensor_slices(_st())
    assert ds.element_spec == tf.SparseTensorSpec([4], tf.int32)
    assert int(ds.cardinality()) == 4
    elements = list(ds)
    assert all(isinstance(e, tf.SparseTensor) for e in elements)
    assert _parts(elements[1]) == ([], [], [4])
    assert elements[1].indices.shape == (0, 1)
    assert _parts(elements[2]) == ([[0], [2]], [7, 9], [4])
    assert _dense(ds) == ROWS


def test_from_tensors_and_nests():
    ds = tf.data.Dataset.from_tensors(_st())
    assert ds.element_spec == tf.SparseTensorSpec([4, 4], tf.int32)
    assert _dense(ds) == [ROWS]
    nest = tf.data.Dataset.from_tensor_slices({"s": _st(), "d": tf.constant([1.0, 2, 3, 4])})
    assert nest.element_spec == {"s": tf.SparseTensorSpec([4], tf.int32),
                                 "d": tf.TensorSpec([], tf.float32)}
    first = next(iter(nest))
    assert _parts(first["s"]) == ([[1]], [5], [4]) and float(first["d"]) == 1.0


def test_as_numpy_iterator_gives_dense_arrays_as_tf():
    got = list(tf.data.Dataset.from_tensor_slices(_st()).as_numpy_iterator())
    assert [a.tolist() for a in got] == ROWS


def test_batch_makes_a_sparse_tensor_of_one_more_rank():
    ds = tf.data.Dataset.from_tensor_slices(_st()).batch(3)
    assert ds.element_spec == tf.SparseTensorSpec([None, 4], tf.int32)
    first, last = list(ds)
    assert _parts(first) == ([[0, 1], [2, 0], [2, 2]], [5, 7, 9], [3, 4])
    assert _parts(last) == ([[0, 3]], [11], [1, 4])
    dropped = tf.data.Dataset.from_tensor_slices(_st()).batch(3, drop_remainder=True)
    assert dropped.element_spec == tf.SparseTensorSpec([3, 4], tf.int32)
    assert len(list(dropped)) == 1


def test_batch_of_varying_dense_shapes_takes_the_largest():
    ds = tf.data.Dataset.range(1, 5).map(
        lambda n: tf.SparseTensor(tf.reshape(tf.range(0, n, 2), [-1, 1]), tf.range(0, n, 2),
                                  tf.reshape(n, [1])))
    assert ds.element_spec == tf.SparseTensorSpec([None], tf.int64)
    batches = list(ds.batch(3))
    assert ds.batch(3).element_spec == tf.SparseTensorSpec([None, None], tf.int64)
    assert _parts(batches[0]) == ([[0, 0], [1, 0], [2, 0], [2, 2]], [0, 0, 0, 2], [3, 3])
    assert _parts(batches[1]) == ([[0, 0], [0, 2]], [0, 2], [1, 4])


def test_unbatch_and_rebatch():
    batched = tf.data.Dataset.from_tensor_slices(_st()).batch(3)
    ds = batched.unbatch()
    assert ds.element_spec == tf.SparseTensorSpec([4], tf.int32)
    assert int(ds.cardinality()) == tf.data.UNKNOWN_CARDINALITY  # as TF: sparse rows unknown
    assert _dense(ds) == ROWS
    assert _dense(tf.data.Dataset.from_tensors(_st()).unbatch()) == ROWS
    rebatched = tf.data.Dataset.from_tensor_slices(_st()).batch(4).rebatch(2)
    assert _dense(rebatched) == [ROWS[:2], ROWS[2:]]
    scalar = tf.SparseTensor(tf.zeros([0, 0], tf.int64), tf.zeros([0]), tf.zeros([0], tf.int64))
    with pytest.raises(ValueError, match="Unbatching a sparse tensor is only supported for "
                                         "rank >= 1"):
        tf.data.Dataset.from_tensors(scalar).unbatch()


def test_padded_batch_refuses_sparse_elements():
    with pytest.raises(TypeError, match="`padded_batch` is only supported for datasets that "
                                        "produce tensor elements but type spec of elements in "
                                        r"the input dataset is not a subclass of TensorSpec: "
                                        r"`SparseTensorSpec\(TensorShape\(\[4\]\), tf.int32\)`"):
        tf.data.Dataset.from_tensor_slices(_st()).padded_batch(2)


@pytest.mark.parametrize("calls", [None, 3])
def test_map_receives_and_returns_sparse_tensors(calls):
    ds = tf.data.Dataset.from_tensor_slices(_st())
    doubled = ds.map(lambda s: s.with_values(s.values * 2), num_parallel_calls=calls)
    assert doubled.element_spec == tf.SparseTensorSpec([4], tf.int32)
    assert _dense(doubled) == [[2 * v for v in row] for row in ROWS]
    dense = ds.map(tf.sparse.to_dense, num_parallel_calls=calls)
    assert dense.element_spec == tf.TensorSpec([4], tf.int32)  # the spec's shape is known
    assert [e.numpy().tolist() for e in dense] == ROWS
    kept = ds.filter(lambda s: tf.size(s.values) > 0)
    assert _dense(kept) == [ROWS[0], ROWS[2], ROWS[3]]


def _example(tokens, label):
    return tf.train.Example(features=tf.train.Features(feature={
        "tokens": tf.train.Feature(int64_list=tf.train.Int64List(value=tokens)),
        "label": tf.train.Feature(float_list=tf.train.FloatList(value=[label])),
    })).SerializeToString()


FEATURES = {"tokens": tf.io.VarLenFeature(tf.int64),
            "label": tf.io.FixedLenFeature([], tf.float32)}
RECORDS = [_example([3, 1, 4], 1.0), _example([], 0.0), _example([1, 5], 1.0), _example([9], 0.0)]


def test_parse_single_example_with_var_len_features_in_map_then_batch():
    parsed = tf.data.Dataset.from_tensor_slices(RECORDS).map(
        lambda r: tf.io.parse_single_example(r, FEATURES), num_parallel_calls=2)
    assert parsed.element_spec == {"tokens": tf.SparseTensorSpec([None], tf.int64),
                                   "label": tf.TensorSpec([], tf.float32)}
    assert [_parts(e["tokens"]) for e in parsed][:2] == [([[0], [1], [2]], [3, 1, 4], [3]),
                                                         ([], [], [0])]
    batch = next(iter(parsed.batch(4)))
    assert tf.sparse.to_dense(batch["tokens"]).numpy().tolist() == [
        [3, 1, 4], [0, 0, 0], [1, 5, 0], [9, 0, 0]]
    assert batch["label"].numpy().tolist() == [1.0, 0.0, 1.0, 0.0]


def test_parse_example_on_batches():
    ds = tf.data.Dataset.from_tensor_slices(RECORDS).batch(3).map(
        lambda r: tf.io.parse_example(r, FEATURES))
    assert ds.element_spec["tokens"] == tf.SparseTensorSpec([None, None], tf.int64)
    first, second = list(ds)
    assert _parts(first["tokens"]) == ([[0, 0], [0, 1], [0, 2], [2, 0], [2, 1]],
                                       [3, 1, 4, 1, 5], [3, 3])
    assert _parts(second["tokens"]) == ([[0, 0]], [9], [1, 1])


def test_flat_map_zip_concatenate_and_generators():
    ds = tf.data.Dataset.from_tensor_slices(_st())
    assert _dense(ds.flat_map(tf.data.Dataset.from_tensors)) == ROWS
    assert _dense(ds.interleave(tf.data.Dataset.from_tensors, cycle_length=2)) == ROWS
    both = ds.concatenate(ds)
    assert both.element_spec == tf.SparseTensorSpec([4], tf.int32)
    assert _dense(both) == ROWS * 2
    with pytest.raises(TypeError, match="Incompatible dataset elements"):
        ds.concatenate(tf.data.Dataset.range(3))
    pairs = list(tf.data.Dataset.zip((ds, tf.data.Dataset.range(2))))
    assert [int(i) for _, i in pairs] == [0, 1]
    gen = tf.data.Dataset.from_generator(
        lambda: iter([_st()]), output_signature=tf.SparseTensorSpec([4, 4], tf.int32))
    assert gen.element_spec == tf.SparseTensorSpec([4, 4], tf.int32)
    assert _dense(gen) == [ROWS]


def test_cache_to_a_file_keeps_sparse_elements(tmp_path):
    ds = tf.data.Dataset.from_tensor_slices(_st()).cache(str(tmp_path / "cache"))
    assert _dense(ds) == ROWS
    assert _dense(ds) == ROWS  # read back from the file


def test_py_function_in_map_over_sparse_elements():
    ds = tf.data.Dataset.from_tensor_slices(_st()).map(
        lambda s: tf.py_function(lambda t: tf.reduce_sum(t.values), [s], tf.int32))
    assert [int(v) for v in ds] == [5, 0, 16, 11]


def test_sparse_batches_of_floats_keep_values_exact():
    values = np.array([0.1, np.inf, -0.0, np.nan], np.float32)
    st = tf.SparseTensor([[0, 0], [1, 1], [1, 2], [3, 0]], values, [4, 3])
    batched = next(iter(tf.data.Dataset.from_tensor_slices(st).batch(4)))
    np.testing.assert_array_equal(batched.values.numpy(), values)
    assert batched.dense_shape.numpy().tolist() == [4, 3]


def test_shuffled_batches_of_sparse_rows():
    ds = tf.data.Dataset.from_tensor_slices(_st()).shuffle(4, seed=1).batch(2)
    assert _dense(ds) == [[ROWS[0], ROWS[3]], [ROWS[1], ROWS[2]]]  # TensorFlow's order


def test_save_and_load_keep_sparse_elements(tmp_path):
    ds = tf.data.Dataset.from_tensor_slices({"s": _st(), "d": tf.range(4)})
    ds.save(str(tmp_path / "saved"), compression="GZIP")
    loaded = tf.data.Dataset.load(str(tmp_path / "saved"), compression="GZIP")
    assert loaded.element_spec == ds.element_spec
    got = list(loaded)
    assert [tf.sparse.to_dense(e["s"]).numpy().tolist() for e in got] == ROWS
    assert got[1]["s"].indices.shape == (0, 1)
    assert [int(e["d"]) for e in got] == [0, 1, 2, 3]


def test_sparse_batch_of_dense_elements():
    lengths = tf.data.Dataset.range(4).map(lambda x: tf.fill([x], x))
    ds = lengths.sparse_batch(2, [4])
    assert ds.element_spec == tf.SparseTensorSpec([None, 4], tf.int64)
    assert int(ds.cardinality()) == 2
    assert [tf.sparse.to_dense(b).numpy().tolist() for b in ds] == [
        [[0, 0, 0, 0], [1, 0, 0, 0]], [[2, 2, 0, 0], [3, 3, 3, 0]]]
    widest = lengths.apply(tf.data.experimental.dense_to_sparse_batch(3, [None]))
    assert [b.dense_shape.numpy().tolist() for b in widest] == [[3, 2], [1, 3]]
    scalars = next(iter(tf.data.Dataset.range(3).sparse_batch(2, [])))
    assert _parts(scalars) == ([[0], [1]], [0, 1], [2])
    with pytest.raises(tf.errors.DataLossError, match=re.escape(
            "Input element had shape ([2]) that is larger than the row shape ([1]).")):
        list(lengths.sparse_batch(2, [1]))
    with pytest.raises(tf.errors.InvalidArgumentError, match=re.escape(
            "Input element had shape ([0]) that is incompatible with the row shape ([4,2]).")):
        list(lengths.sparse_batch(2, [4, 2]))


def test_as_numpy_iterator_is_tf_data_numpy_iterator():
    it = tf.data.Dataset.from_tensor_slices(_st()).as_numpy_iterator()
    assert isinstance(it, tf.data.NumpyIterator)


def test_sparse_elements_in_traced_functions():
    ds = tf.data.Dataset.from_tensor_slices(_st())

    @tf.function
    def loop():
        total = tf.constant(0)
        for s in ds:
            total += tf.reduce_sum(s.values)
        return total

    @tf.function
    def reduced(d):
        return d.reduce(tf.constant(0), lambda acc, s: acc + tf.reduce_sum(s.values))

    @tf.function
    def first_batch():
        batch = next(iter(ds.batch(2)))
        assert batch.shape.as_list() == [None, 4]  # the spec's static shape
        return tf.sparse.to_dense(batch), tf.sparse.to_dense(
            iter(ds).get_next_as_optional().get_value())

    assert int(loop()) == 32
    assert int(reduced(ds)) == 32
    batch, row = first_batch()
    assert batch.numpy().tolist() == ROWS[:2] and row.numpy().tolist() == ROWS[0]

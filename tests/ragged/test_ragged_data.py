"""Ragged tensors in tf.data: slices, batches, ragged_batch, maps and unbatch."""
import pytest

import eagerflow as tf


def test_slices_of_a_ragged_tensor_are_its_rows():
    ds = tf.data.Dataset.from_tensor_slices(tf.ragged.constant([[1], [2, 3], []]))
    assert ds.element_spec == tf.RaggedTensorSpec([None], tf.int32, 0)
    assert [t.numpy().tolist() for t in ds] == [[1], [2, 3], []]


def test_batches_of_rows_are_ragged():
    ds = tf.data.Dataset.from_tensor_slices(tf.ragged.constant([[1], [2, 3], []])).batch(2)
    assert ds.element_spec == tf.RaggedTensorSpec([None, None], tf.int32, 1)
    assert [b.to_list() for b in ds] == [[[1], [2, 3]], [[]]]
    assert [t.numpy().tolist() for t in ds.unbatch()] == [[1], [2, 3], []]


def test_batches_of_ragged_elements_add_a_ragged_dimension():
    rt = tf.ragged.constant([[[1], [2, 3]], [[4]], []])
    ds = tf.data.Dataset.from_tensor_slices(rt).batch(3)
    assert ds.element_spec.ragged_rank == 2
    assert next(iter(ds)).to_list() == rt.to_list()


def test_ragged_batch_of_varying_lengths():
    ds = tf.data.Dataset.range(4).map(lambda n: tf.range(n)).ragged_batch(3)
    assert ds.element_spec == tf.RaggedTensorSpec([None, None], tf.int64, 1)
    assert [b.to_list() for b in ds] == [[[], [0], [0, 1]], [[0, 1, 2]]]
    uniform = tf.data.Dataset.from_tensor_slices([[1, 2], [3, 4]]).ragged_batch(2)
    assert isinstance(uniform.element_spec, tf.TensorSpec)


def test_map_returning_and_taking_ragged_tensors():
    ds = tf.data.Dataset.from_tensor_slices(["a b", "c"]).batch(2).map(tf.strings.split)
    assert ds.element_spec == tf.RaggedTensorSpec([None, None], tf.string, 1)
    assert [b.to_list() for b in ds] == [[[b"a", b"b"], [b"c"]]]
    doubled = tf.data.Dataset.from_tensors(tf.ragged.constant([[1], [2, 3]])).map(
        lambda rt: rt * 2)
    assert [b.to_list() for b in doubled] == [[[2], [4, 6]]]
    rows = tf.data.Dataset.from_tensor_slices(tf.ragged.constant([[1], [2, 3]])).map(
        lambda x: x + 1)
    assert [r.numpy().tolist() for r in rows] == [[2], [3, 4]]


def test_ragged_elements_in_a_dict_and_cache():
    ds = tf.data.Dataset.from_tensor_slices(
        {"a": tf.ragged.constant([[1], [2, 3]]), "b": [1, 2]}).batch(2).cache()
    for _ in range(2):
        (element,) = list(ds)
        assert element["a"].to_list() == [[1], [2, 3]]
        assert element["b"].numpy().tolist() == [1, 2]


def test_from_generator_with_a_ragged_signature():
    def gen():
        yield tf.ragged.constant([[1], [2, 3]])
        yield tf.ragged.constant([[4, 5, 6]])
        yield [[4, 5, 6]]  # (as in TF, a list converts to a dense tensor, which does not fit)

    ds = tf.data.Dataset.from_generator(
        gen, output_signature=tf.RaggedTensorSpec([None, None], tf.int32))
    it = iter(ds)
    assert [next(it).to_list() for _ in range(2)] == [[[1], [2, 3]], [[4, 5, 6]]]
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"yielded an element of TensorSpec\(shape=\(1, 3\), "
                             r"dtype=tf.int32, name=None\) where an element of "
                             r"RaggedTensorSpec\(TensorShape\(\[None, None\]\)"):
        next(it)


def test_iterating_ragged_elements_inside_a_function():
    @tf.function
    def total(ds):
        s = tf.constant(0)
        for x in ds:
            s += tf.reduce_sum(x)
        return s

    ds = tf.data.Dataset.from_tensor_slices(tf.ragged.constant([[1], [2, 3], []])).batch(2)
    assert int(total(ds)) == 6


# -- tf.io.RaggedFeature partitions (values recorded from TF in ragged_feature_tf.json) ------
import json  # noqa: E402
import os  # noqa: E402

import pytest  # noqa: E402


def _examples():
    def ex(**kw):
        return tf.train.Example(features=tf.train.Features(feature={
            k: tf.train.Feature(int64_list=tf.train.Int64List(value=v))
            for k, v in kw.items()})).SerializeToString()
    return [ex(v=[1, 2, 3, 4, 5], starts=[0, 2, 2], limits=[2, 2, 5], ids=[0, 0, 2, 2, 2],
               lens=[2, 3], splits=[0, 2, 5]),
            ex(v=[6, 7], starts=[0], limits=[2], ids=[1, 1], lens=[2], splits=[0, 2]),
            ex(v=[], starts=[], limits=[], ids=[], lens=[], splits=[0])]


def _specs():
    rf = tf.io.RaggedFeature
    return {"starts": rf(tf.int64, "v", [rf.RowStarts("starts")]),
            "limits": rf(tf.int64, "v", [rf.RowLimits("limits")]),
            "ids": rf(tf.int64, "v", [rf.ValueRowIds("ids")]),
            "ids32": rf(tf.int64, "v", [rf.ValueRowIds("ids")], row_splits_dtype=tf.int32),
            "lens": rf(tf.int64, "v", [rf.RowLengths("lens")]),
            "splits": rf(tf.int64, "v", [rf.RowSplits("splits")])}


_RECORDED = json.load(open(os.path.join(os.path.dirname(__file__), "ragged_feature_tf.json")))


@pytest.mark.parametrize("key", sorted(_specs()))
def test_ragged_feature_partitions_parse_as_tf(key):
    batch = tf.io.parse_example(_examples(), _specs())[key]
    assert [batch.to_list(), batch.row_splits.dtype.name] == _RECORDED[f"batch-{key}"]
    for i, example in enumerate(_examples()):
        single = tf.io.parse_single_example(example, _specs())[key]
        assert single.to_list() == _RECORDED[f"single{i}-{key}"]


def test_ragged_feature_nested_partitions_in_a_dataset_map():
    rf = tf.io.RaggedFeature
    # (features sharing a key share its row splits dtype, as TF requires)
    specs = {"a": rf(tf.int64, "v", [rf.RowLengths("lens"), rf.ValueRowIds("ids")],
                     row_splits_dtype=tf.int64),
             "b": rf(tf.int64, "v", [rf.RowLengths("lens"), rf.RowStarts("starts")],
                     row_splits_dtype=tf.int64)}

    def ex(**kw):
        return tf.train.Example(features=tf.train.Features(feature={
            k: tf.train.Feature(int64_list=tf.train.Int64List(value=v))
            for k, v in kw.items()})).SerializeToString()
    examples = [ex(v=[1, 2, 3, 4, 5], lens=[2, 1], ids=[0, 0, 2, 2, 2], starts=[0, 3, 4]),
                ex(v=[6, 7], lens=[1], ids=[0, 0], starts=[0])]
    ds = tf.data.Dataset.from_tensor_slices(examples).batch(2).map(
        lambda s: tf.io.parse_example(s, specs))
    (parsed,) = list(ds)
    assert parsed["a"].to_list() == [[[[1, 2], []], [[3, 4, 5]]], [[[6, 7]]]]
    assert parsed["b"].to_list() == [[[[1, 2, 3], [4]], [[5]]], [[[6, 7]]]]
    assert parsed["b"].row_splits.dtype == tf.int64


def test_ragged_feature_defaults_and_checks():
    assert tf.io.RaggedFeature(tf.int64).row_splits_dtype == tf.int32
    with pytest.raises(TypeError, match="partitions must be a list of RaggedFeature.Partition"):
        tf.io.RaggedFeature(tf.int64, partitions=[1])


def test_dense_to_ragged_batch_is_ragged_batch_as_a_transformation():
    """As TF 2.21: uniform rows batch densely, rows of several lengths raggedly."""
    uniform = tf.data.Dataset.from_tensor_slices([[1, 2], [3, 4], [5, 6]]).apply(
        tf.data.experimental.dense_to_ragged_batch(2))
    assert [b.numpy().tolist() for b in uniform] == [[[1, 2], [3, 4]], [[5, 6]]]
    rows = tf.data.Dataset.range(1, 4).map(lambda n: tf.range(n)).apply(
        tf.data.experimental.dense_to_ragged_batch(2, drop_remainder=True,
                                                   row_splits_dtype=tf.int32))
    batches = list(rows)
    assert len(batches) == 1 and batches[0].to_list() == [[0], [0, 1]]
    assert batches[0].row_splits.dtype == tf.int32


def test_padded_batch_refuses_ragged_elements():
    ds = tf.data.Dataset.from_tensor_slices(tf.ragged.constant([[1], [2, 3]]))
    with pytest.raises(TypeError, match=r"is not a subclass of TensorSpec: `RaggedTensorSpec\("
                                        r"TensorShape\(\[None\]\), tf.int32, 0, tf.int64\)`"):
        ds.padded_batch(2)


def test_ragged_factory_of_a_list_of_tensors_in_a_dataset_map():
    ds = tf.data.Dataset.range(4).map(
        lambda x: tf.RaggedTensor.from_row_lengths(tf.range(x * 2), [x, x])).batch(2)
    assert repr(ds.element_spec) == (
        "RaggedTensorSpec(TensorShape([None, 2, None]), tf.int64, 2, tf.int64)")
    assert [e.to_list() for e in ds] == [[[[], []], [[0], [1]]],
                                         [[[0, 1], [2, 3]], [[0, 1, 2], [3, 4, 5]]]]


def test_flat_map_and_interleave_over_rows_of_a_ragged_tensor():
    rt = tf.ragged.constant([[1, 2, 3], [4], [5, 6], [], [7]])
    rows = tf.data.Dataset.from_tensor_slices(rt)
    ds = rows.flat_map(tf.data.Dataset.from_tensor_slices)
    assert [int(x) for x in ds] == [1, 2, 3, 4, 5, 6, 7]
    ds = rows.interleave(tf.data.Dataset.from_tensor_slices, cycle_length=2)
    assert [int(x) for x in ds] == [1, 4, 2, 3, 5, 6, 7]
    # a batch's function sees a ragged tensor: its slices are rows (ragged rank 0)
    ds = rows.batch(2).flat_map(tf.data.Dataset.from_tensor_slices)
    assert ds.element_spec == tf.RaggedTensorSpec([None], tf.int32, 0)
    assert [t.numpy().tolist() for t in ds] == [[1, 2, 3], [4], [5, 6], [], [7]]
    nested = tf.data.Dataset.from_tensor_slices(tf.ragged.constant([[[1], [2, 3]], [[4]]]))
    ds = nested.flat_map(tf.data.Dataset.from_tensor_slices)
    assert [t.numpy().tolist() for t in ds] == [[1], [2, 3], [4]]


def test_ragged_batch_makes_every_dimension_up_to_the_last_unknown_one_ragged():
    ds = tf.data.Dataset.range(3).map(lambda n: tf.ones([n, n]))
    batched = ds.ragged_batch(3)
    assert batched.element_spec == tf.RaggedTensorSpec([None, None, None], tf.float32, 2)
    assert [b.to_list() for b in batched] == [[[], [[1.0]], [[1.0, 1.0], [1.0, 1.0]]]]
    ds = tf.data.Dataset.range(1, 3).map(lambda n: tf.ones([n, 3, n], tf.int32))
    batched = ds.ragged_batch(2, row_splits_dtype=tf.int32)
    assert batched.element_spec == tf.RaggedTensorSpec([None, None, 3, None], tf.int32, 3,
                                                       tf.int32)
    out = next(iter(batched))
    assert out.shape.as_list() == [2, None, 3, None]
    assert out.to_list() == [[[[1], [1], [1]]], [[[1, 1]] * 3] * 2]
    ds = tf.data.Dataset.range(1, 3).map(lambda n: tf.ones([2, n]))
    assert ds.ragged_batch(2).element_spec == tf.RaggedTensorSpec([None, 2, None],
                                                                  tf.float32, 2)

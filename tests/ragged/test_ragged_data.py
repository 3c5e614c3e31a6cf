"""Ragged tensors in tf.data: slices, batches, ragged_batch, maps and unbatch."""
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
        yield [[4, 5, 6]]  # (nested lists convert to the spec's ragged tensor)

    ds = tf.data.Dataset.from_generator(
        gen, output_signature=tf.RaggedTensorSpec([None, None], tf.int32))
    assert [x.to_list() for x in ds] == [[[1], [2, 3]], [[4, 5, 6]]]


def test_iterating_ragged_elements_inside_a_function():
    @tf.function
    def total(ds):
        s = tf.constant(0)
        for x in ds:
            s += tf.reduce_sum(x)
        return s

    ds = tf.data.Dataset.from_tensor_slices(tf.ragged.constant([[1], [2, 3], []])).batch(2)
    assert int(total(ds)) == 6

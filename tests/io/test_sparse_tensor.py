"""SparseTensor, SparseTensorSpec and sparse.to_dense / from_dense (TF's outputs by hand)."""
import numpy as np
import pytest

import eagerflow as tf
from tests.op_errors import op_text

ST_REPR = ("SparseTensor(indices=tf.Tensor(\n[[0 0]\n [1 2]], shape=(2, 2), dtype=int64), "
           "values=tf.Tensor([1. 2.], shape=(2,), dtype=float32), "
           "dense_shape=tf.Tensor([3 4], shape=(2,), dtype=int64))")


def _st():
    return tf.SparseTensor(indices=[[0, 0], [1, 2]], values=[1.0, 2.0], dense_shape=[3, 4])


def test_value_type():
    st = _st()
    assert repr(st) == str(st) == ST_REPR
    assert st.shape == tf.TensorShape([3, 4]) and st.dtype == tf.float32
    assert st.indices.dtype == tf.int64 and st.dense_shape.dtype == tf.int64
    assert tf.sparse.SparseTensor is tf.SparseTensor
    assert repr(st._type_spec) == "SparseTensorSpec(TensorShape([3, 4]), tf.float32)"
    assert repr(tf.SparseTensorSpec([None, 4])) == \
        "SparseTensorSpec(TensorShape([None, 4]), tf.float32)"
    assert tf.SparseTensorSpec([None, 4]).is_compatible_with(st)
    assert st.with_values(st.values * 2).values.numpy().tolist() == [2.0, 4.0]
    with pytest.raises(ValueError, match="Dimensions 1 and 2 are not compatible"):
        tf.SparseTensor([[0, 0]], [1.0, 2.0], [2, 2])
    with pytest.raises(TypeError, match="Cannot convert"):
        tf.SparseTensor([[0.5, 0]], [1.0], [2, 2])


def test_to_dense_and_from_dense():
    assert tf.sparse.to_dense(_st()).numpy().tolist() == [[1, 0, 0, 0], [0, 0, 2, 0],
                                                          [0, 0, 0, 0]]
    assert tf.sparse.to_dense(_st(), default_value=-1.0).numpy()[2].tolist() == [-1] * 4
    strings = tf.SparseTensor([[0], [1]], ["a", "b"], [3])
    assert tf.sparse.to_dense(strings).numpy().tolist() == [b"a", b"b", b""]
    empty = tf.SparseTensor(tf.zeros([0, 2], tf.int64), tf.zeros([0]), [2, 3])
    assert tf.sparse.to_dense(empty).numpy().tolist() == [[0] * 3] * 2
    back = tf.sparse.from_dense(tf.constant([[1, 0], [0, 3]]))
    assert back.indices.numpy().tolist() == [[0, 0], [1, 1]]
    assert back.values.numpy().tolist() == [1, 3] and back.values.dtype == tf.int32
    assert back.dense_shape.numpy().tolist() == [2, 2]


@pytest.mark.parametrize("indices, message", [
    ([[0, 0], [0, 0]], "indices[1] = [0,0] is repeated"),
    ([[1, 0], [0, 0]], "indices[1] = [0,0] is out of order. Many sparse ops require sorted "
                       "indices.\n    Use `tf.sparse.reorder` to create a correctly ordered "
                       "copy.\n\n"),
    ([[5, 0], [0, 0]], "indices[0] = [5,0] is out of bounds: need 0 <= index < [2,2]"),
])
def test_to_dense_checks_indices(indices, message):
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.sparse.to_dense(tf.SparseTensor(indices, [1.0, 2.0], [2, 2]))
    assert op_text(info.value) == message + " [Op:SparseToDense]"


def test_unchecked_indices_and_the_gradient():
    unsorted = tf.SparseTensor([[1, 0], [0, 0]], [1.0, 2.0], [2, 2])
    assert tf.sparse.to_dense(unsorted, validate_indices=False).numpy().tolist() == \
        [[2, 0], [1, 0]]
    x = tf.Variable([1.0, 2.0])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.sparse.to_dense(tf.SparseTensor([[0, 0], [1, 2]], x * 2, [3, 4]))
                          * tf.reshape(tf.range(12.0), [3, 4]))
    assert tape.gradient(y, x).numpy().tolist() == [0.0, 12.0]


def test_to_dense_in_a_function_with_unknown_sizes():
    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.int64), tf.TensorSpec([None]),
                                  tf.TensorSpec([2], tf.int64)])
    def dense(indices, values, shape):
        out = tf.sparse.to_dense(tf.SparseTensor(indices, values, shape))
        assert out.shape.rank == 2
        return out

    st = _st()
    np.testing.assert_array_equal(dense(st.indices, st.values, st.dense_shape),
                                  tf.sparse.to_dense(st))


def test_nest_expands_composites_on_request():
    st = _st()
    assert tf.nest.flatten({"s": st, "n": 1}) == [1, st]
    flat = tf.nest.flatten({"s": st, "n": 1}, expand_composites=True)
    assert flat[0] == 1 and [t.numpy().tolist() for t in flat[1:]] == \
        [[[0, 0], [1, 2]], [1.0, 2.0], [3, 4]]
    doubled = tf.nest.map_structure(lambda t: t * 2, st, expand_composites=True)
    assert isinstance(doubled, tf.SparseTensor)
    assert doubled.values.numpy().tolist() == [2.0, 4.0]
    packed = tf.nest.pack_sequence_as([st], flat[1:], expand_composites=True)
    assert isinstance(packed[0], tf.SparseTensor) and packed[0].shape == (3, 4)
    with pytest.raises(ValueError, match="Structure had 3 atoms, but flat_sequence had 2"):
        tf.nest.pack_sequence_as(st, flat[1:3], expand_composites=True)


def test_functions_return_sparse_tensors():
    @tf.function
    def parse(serialized):
        return tf.io.parse_example(serialized, {"c": tf.io.VarLenFeature(tf.string)})

    def example(values):
        return tf.train.Example(features=tf.train.Features(feature={"c": tf.train.Feature(
            bytes_list=tf.train.BytesList(value=values))})).SerializeToString()

    got = parse(tf.constant([example([b"a", b"b"]), example([b"c"])]))["c"]
    assert isinstance(got, tf.SparseTensor)
    assert got.indices.numpy().tolist() == [[0, 0], [0, 1], [1, 0]]
    assert got.values.numpy().tolist() == [b"a", b"b", b"c"]
    assert got.dense_shape.numpy().tolist() == [2, 2]
    traced = parse.get_concrete_function(tf.TensorSpec([None], tf.string)).structured_outputs
    assert traced["c"].indices.shape.as_list() == [None, 2]
    assert traced["c"].dense_shape.shape.as_list() == [2]

    x = tf.Variable([1.0, 2.0])

    @tf.function
    def grad_and_value():
        with tf.GradientTape() as tape:
            st = tf.SparseTensor([[0], [2]], x * 3, [4])
            y = tf.reduce_sum(tf.sparse.to_dense(st))
        return tape.gradient(y, x), st

    g, st = grad_and_value()
    assert g.numpy().tolist() == [3.0, 3.0] and st.values.numpy().tolist() == [3.0, 6.0]


def test_functions_take_sparse_tensors():
    traces = []

    @tf.function
    def doubled(st):
        traces.append(st.shape)
        return tf.sparse.to_dense(st) * 2

    st = _st()
    assert doubled(st).numpy()[1].tolist() == [0, 0, 4, 0]
    other = tf.SparseTensor([[0, 1]], [5.0], [3, 4])  # another number of values: one trace
    assert doubled(other).numpy()[0].tolist() == [0, 10, 0, 0]
    assert traces == [tf.TensorShape([3, 4])]
    doubled(tf.SparseTensor([[0, 1]], [5.0], [2, 2]))  # another dense shape: traced again
    assert len(traces) == 2
    assert repr(doubled.get_concrete_function(st).structured_input_signature) == \
        "((SparseTensorSpec(TensorShape([3, 4]), tf.float32),), {})"

    dense = tf.function(tf.sparse.to_dense,
                        input_signature=[tf.SparseTensorSpec([None, 4], tf.float32)])
    np.testing.assert_array_equal(dense(st), tf.sparse.to_dense(st))
    with pytest.raises(TypeError, match="Binding inputs to tf.function failed"):
        dense(tf.SparseTensor([[0]], [1.0], [3]))


def test_serialize_and_deserialize_sparse_as_tf():
    st = tf.sparse.SparseTensor([[0, 1], [1, 0], [1, 2]], [1.5, 2.5, 3.5], [3, 4])
    serialized = tf.io.serialize_sparse(st)
    assert serialized.shape == [3] and serialized.dtype == tf.string
    # TF's bytes: the TensorProto of each part
    assert serialized.numpy()[1] == b'\x08\x01\x12\x04\x12\x02\x08\x03"\x0c\x00\x00\xc0?' \
        b'\x00\x00 @\x00\x00`@'
    many = tf.io.serialize_many_sparse(st)
    assert many.shape == [3, 3]
    assert many.numpy()[2].tolist() == [b"\x08\t\x12\x06\x12\x00\x12\x02\x08\x01",
                                        b"\x08\x01\x12\x02\x12\x00",
                                        b'\x08\t\x12\x04\x12\x02\x08\x01"\x08\x04\x00\x00\x00'
                                        b"\x00\x00\x00\x00"]
    back = tf.io.deserialize_many_sparse(many, tf.float32)
    assert back.indices.numpy().tolist() == [[0, 1], [1, 0], [1, 2]]
    assert back.values.numpy().tolist() == [1.5, 2.5, 3.5]
    assert back.dense_shape.numpy().tolist() == [3, 4]
    two = tf.io.deserialize_many_sparse(tf.stack([many[2], many[0]]), tf.float32)
    assert two.indices.numpy().tolist() == [[1, 1]] and two.dense_shape.numpy().tolist() == [2, 4]
    assert tf.io.deserialize_many_sparse(many, tf.float32, rank=2).shape == [3, 4]
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Requested SparseTensor of type int32 but "
                             r"SparseTensor\[0\].values.dtype\(\) == float"):
        tf.io.deserialize_many_sparse(many, tf.int32)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Rank of input SparseTensor should be > 1, but saw rank: 1"):
        tf.io.serialize_many_sparse(tf.sparse.SparseTensor([[0]], [1], [2]))

    @tf.function
    def round_trip(x):
        y = tf.io.serialize_many_sparse(x)
        z = tf.io.deserialize_many_sparse(y, tf.float32)
        assert y.shape.as_list() == [None, 3] and z.shape.rank is None
        return tf.sparse.to_dense(z)
    assert round_trip(st).numpy().tolist() == tf.sparse.to_dense(st).numpy().tolist()

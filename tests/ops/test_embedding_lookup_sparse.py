"""`tf.nn.embedding_lookup_sparse` and `tf.nn.safe_embedding_lookup_sparse` against TF 2.21's
values (recorded from it)."""
import numpy as np
import pytest

import eagerflow as tf

PARAMS = np.arange(20, dtype=np.float32).reshape(5, 4) / 7
E = PARAMS  # rows of the embedding, by id


def _ids():
    return tf.sparse.SparseTensor([[0, 0], [0, 1], [2, 0], [2, 3]],
                                  tf.constant([1, 3, 3, 4], tf.int64), [4, 5])


def _weights():
    return tf.sparse.SparseTensor([[0, 0], [0, 1], [2, 0], [2, 3]], [1.0, 2.0, 0.5, -1.0],
                                  [4, 5])


@pytest.mark.parametrize("combiner, weighted, row0, row2", [
    ("sum", False, E[1] + E[3], E[3] + E[4]),
    ("mean", False, (E[1] + E[3]) / 2, (E[3] + E[4]) / 2),
    ("sqrtn", False, (E[1] + E[3]) / np.sqrt(2), (E[3] + E[4]) / np.sqrt(2)),
    ("sum", True, E[1] + 2 * E[3], 0.5 * E[3] - E[4]),
    ("mean", True, (E[1] + 2 * E[3]) / 3, (0.5 * E[3] - E[4]) / -0.5),
    ("sqrtn", True, (E[1] + 2 * E[3]) / np.sqrt(5), (0.5 * E[3] - E[4]) / np.sqrt(1.25)),
])
def test_embedding_lookup_sparse(combiner, weighted, row0, row2):
    got = tf.nn.embedding_lookup_sparse(PARAMS, _ids(), _weights() if weighted else None,
                                        combiner=combiner)
    assert got.shape == (3, 4)  # up to the last row with an id
    np.testing.assert_allclose(got, [row0, np.zeros(4), row2], rtol=1e-5, atol=1e-6)


def test_safe_lookup_prunes_pads_and_reshapes():
    got = tf.nn.safe_embedding_lookup_sparse(PARAMS, _ids(), _weights(), combiner="mean")
    np.testing.assert_allclose(got, [(E[1] + 2 * E[3]) / 3, np.zeros(4), E[3], np.zeros(4)],
                               rtol=1e-5)
    summed = tf.nn.safe_embedding_lookup_sparse(PARAMS, _ids(), _weights(), combiner="sum")
    np.testing.assert_allclose(summed[2], 0.5 * E[3] - E[4], rtol=1e-5)  # TF keeps them
    default = tf.nn.safe_embedding_lookup_sparse(PARAMS, _ids(), None, default_id=0)
    np.testing.assert_allclose(default[1], E[0])
    negative = tf.sparse.SparseTensor([[0, 0], [1, 0], [1, 1]],
                                      tf.constant([2, -1, 4], tf.int64), [3, 2])
    np.testing.assert_allclose(tf.nn.safe_embedding_lookup_sparse(PARAMS, negative),
                               [E[2], E[4], np.zeros(4)], rtol=1e-6)
    ids3 = tf.sparse.SparseTensor([[0, 0, 0], [1, 1, 1]], tf.constant([1, 2], tf.int64),
                                  [2, 2, 3])
    got = tf.nn.safe_embedding_lookup_sparse(PARAMS, ids3)
    assert got.shape == (2, 2, 4)
    np.testing.assert_allclose(got[1, 1], E[2])
    with pytest.raises(ValueError, match="combiner must be one of 'mean', 'sqrtn' or 'sum', "
                                         "got max"):
        tf.nn.embedding_lookup_sparse(PARAMS, _ids(), None, combiner="max")


def test_gradient_is_indexed_slices():
    v = tf.Variable(PARAMS)
    with tf.GradientTape() as tape:
        y = tf.nn.safe_embedding_lookup_sparse(v, _ids(), _weights(), combiner="sqrtn")
    grad = tape.gradient(y, v)
    assert isinstance(grad, tf.IndexedSlices)
    np.testing.assert_allclose(tf.convert_to_tensor(grad)[:, 0],
                               [0, 0.4472, 0, 1.8944, 0], atol=1e-4)


@pytest.mark.parametrize("combiner", ["sum", "mean", "sqrtn"])
def test_safe_lookup_refuses_weights_of_another_count_as_tf(combiner):
    ids = tf.sparse.SparseTensor([[0, 0], [0, 1], [1, 0]], tf.constant([0, 1, 2], tf.int64),
                                 [2, 2])
    weights = tf.sparse.SparseTensor([[0, 0], [0, 1], [1, 0], [1, 1]], [1.0, 2.0, 3.0, 4.0],
                                     [2, 2])
    with pytest.raises(ValueError, match=r"^Dimensions 3 and 4 are not compatible$"):
        tf.nn.safe_embedding_lookup_sparse(tf.ones([3, 2]), ids, weights, combiner=combiner)


# The bits TF 2.21 gives (recorded): a variable's rows combined without weights by the
# sparse segment reduction (scaled by the reciprocal of the count), rows clipped by
# `clip_by_norm`.
TABLE = [[0., 1., 2.], [3., 4., 5.], [6., 7., 8.], [9., 10., 11.]]
SEVEN_IDS = ([[0, 0], [0, 1], [0, 2], [1, 0], [1, 1], [1, 2], [1, 3], [1, 4], [1, 5], [1, 6]],
             [0, 1, 0, 3, 1, 2, 3, 3, 2, 1])


@pytest.mark.parametrize("combiner, max_norm, want", [
    ("mean", None, [[1.0, 2.0, 3.0], [6.428571701049805, 7.428571701049805, 8.428571701049805]]),
    ("sqrtn", None, [[1.7320507764816284, 3.464101552963257, 5.196152210235596],
                     [17.00840187072754, 19.65415382385254, 22.29990577697754]]),
    ("mean", 3.0, [[0.4242640733718872, 1.2323521375656128, 2.040440082550049],
                   [1.4508349895477295, 1.7162580490112305, 1.9816805124282837]]),
    ("sqrtn", 3.0, [[0.7348468899726868, 2.1344964504241943, 3.5341458320617676],
                    [3.8385486602783203, 4.540791988372803, 5.2430338859558105]]),
])
def test_variable_lookup_matches_tf_bits(combiner, max_norm, want):
    ids = tf.sparse.SparseTensor(SEVEN_IDS[0], tf.constant(SEVEN_IDS[1], tf.int64), [2, 7])
    got = tf.nn.embedding_lookup_sparse(tf.Variable(TABLE), ids, None, combiner=combiner,
                                        max_norm=max_norm)
    np.testing.assert_array_equal(got.numpy(), np.array(want, np.float32))


def test_max_norm_rows_as_clip_by_norm():
    got = tf.nn.embedding_lookup(tf.Variable(TABLE), [0, 1, 2, 3], max_norm=3.0)
    np.testing.assert_array_equal(got.numpy(), np.array(
        [[0.0, 1.0, 2.0], [1.2727922201156616, 1.6970562934875488, 2.1213202476501465],
         [1.4746174812316895, 1.7203871011734009, 1.9661566019058228],
         [1.5536754131317139, 1.7263059616088867, 1.8989366292953491]], np.float32))


def test_lookup_of_a_variable_reads_its_rows_as_tf():
    # (TF's error names the ResourceGather that reads a variable's rows)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"indices\[0\] = 5 is not in \[0, 4\) \[Op:ResourceGather\]"):
        tf.nn.embedding_lookup(tf.Variable(TABLE), [5])
def test_ragged_ids_and_weights_look_up_like_their_sparse_tensors():
    params = tf.constant([[1.0, 2.0], [3.0, 5.0], [7.0, 11.0], [0.5, 0.25]])
    ids = tf.ragged.constant([[1, 3], [], [2]], dtype=tf.int64)
    weights = tf.ragged.constant([[2.0, 4.0], [], [3.0]])
    got = tf.nn.embedding_lookup_sparse(params, ids, weights, combiner="mean")
    np.testing.assert_allclose(got.numpy(), [[4.0 / 3, 11.0 / 6], [0.0, 0.0], [7.0, 11.0]])
    got = tf.nn.embedding_lookup_sparse(params, ids, None, combiner="sum")
    np.testing.assert_allclose(got.numpy(), [[3.5, 5.25], [0.0, 0.0], [7.0, 11.0]])
    # the safe lookup drops negative ids and gives empty rows the default id's embedding
    ids = tf.ragged.constant([[1, -3], [], [2], []], dtype=tf.int64)
    got = tf.nn.safe_embedding_lookup_sparse(params, ids, None, default_id=0)
    np.testing.assert_allclose(got.numpy(), [[3.0, 5.0], [1.0, 2.0], [7.0, 11.0], [1.0, 2.0]])
    with pytest.raises(TypeError, match="same type"):
        tf.nn.embedding_lookup_sparse(params, ids, tf.sparse.from_dense([[1.0]]))
    with pytest.raises(TypeError, match="SparseTensor"):
        tf.nn.embedding_lookup_sparse(params, tf.constant([[1]]), None)

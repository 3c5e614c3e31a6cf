"""``tf.get_static_value``: the values TF 2.21's evaluator knows in a traced function, and
None for every op it does not fold, even of constant inputs."""
import numpy as np

import eagerflow as tf


def _static(build):
    """``{name: (value, partial value)}`` of what `build(x, y)` makes while traced, for an
    ``x`` of shape (None, 3) and a ``y`` of shape (2, 3)."""
    found = {}

    @tf.function(input_signature=[tf.TensorSpec([None, 3]), tf.TensorSpec([2, 3])])
    def f(x, y):
        for name, t in build(x, y).items():
            found[name] = (tf.get_static_value(t), tf.get_static_value(t, partial=True))
        return x

    f.get_concrete_function()
    return found


def test_ops_tf_does_not_fold_leave_the_value_unknown():
    def build(x, y):
        c = tf.constant([1, 2, 3])
        return {"add": c + 1, "neg": -c, "gather": tf.gather(c, 1), "slice": c[1:],
                "shape_index": tf.shape(y)[0], "reshape": tf.reshape(c, [3, 1]),
                "reduce_sum": tf.reduce_sum(c), "less": tf.less(c, 2), "tile": tf.tile(c, [2]),
                "eye": tf.eye(2), "cast_of_add": tf.cast(c + 1, tf.float32),
                "concat_of_add": tf.concat([c + 1, c], 0),
                "stack_axis_1": tf.stack([[1], [2]], axis=1), "shape_unknown": tf.shape(x),
                "size_unknown": tf.size(x), "zeros_like_unknown": tf.zeros_like(x)}

    for name, (value, partial) in _static(build).items():
        assert value is None and partial is None, name


def test_constants_shapes_and_tfs_folded_ops_are_known():
    def build(x, y):
        c = tf.constant([1, 2, 3])
        return {"shape": tf.shape(y), "size": tf.size(y), "rank": tf.rank(x),
                "range": tf.range(2, 7, 2), "cast_shape": tf.cast(tf.shape(y), tf.float32),
                "concat": tf.concat([tf.shape(y), [5]], 0), "unstack": tf.unstack(c)[1],
                "split": tf.split(tf.constant([1, 2, 3, 4]), 2)[1], "fill": tf.fill([2], 3),
                "zeros_like": tf.zeros_like(y), "equal": tf.equal(c, 2),
                "not_equal": tf.not_equal(c, 2), "identity": tf.identity(tf.stop_gradient(c)),
                "equal_str": tf.equal(tf.constant("a"), "a")}

    found = {k: v for k, (v, _) in _static(build).items()}
    assert found["shape"].tolist() == [2, 3] and found["shape"].dtype == np.int32
    assert found["size"] == 6 and found["rank"] == 2
    assert found["range"].tolist() == [2, 4, 6]
    assert found["cast_shape"].dtype == np.float32 and found["concat"].tolist() == [2, 3, 5]
    assert type(found["unstack"]) is np.int32 and found["unstack"] == 2  # (TF's: an element)
    assert found["split"].tolist() == [3, 4] and found["fill"].tolist() == [3, 3]
    assert found["zeros_like"].shape == (2, 3) and found["zeros_like"].dtype == np.float32
    assert found["equal"].tolist() == [False, True, False]
    assert found["not_equal"].tolist() == [True, False, True]
    assert found["identity"].tolist() == [1, 2, 3]
    assert found["equal_str"] is np.True_


def test_a_partly_known_stack_is_known_only_in_part():
    (value, partial), = _static(lambda x, y: {"s": tf.stack([tf.shape(x)[0], 3])}).values()
    assert value is None
    assert partial.dtype == object and partial[0] is None and partial[1] == 3


def test_values_other_than_tensors_come_back_as_they_are():
    assert tf.get_static_value([1, 2]) == [1, 2]
    assert tf.get_static_value(None) is None
    assert tf.get_static_value(tf.Variable(3.0)) is None
    assert tf.get_static_value(tf.constant([1, 2])).tolist() == [1, 2]

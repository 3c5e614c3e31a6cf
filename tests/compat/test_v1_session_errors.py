"""TF 1 sessions: values a run may feed are never folded, and which error a run that both
misses a feed and reads an uninitialized variable reports (TF's, in its runs)."""
import numpy as np
import pytest

import eagerflow as tf
import eagerflow.compat.v1 as tf1


def test_placeholder_with_default_has_no_static_value():
    g = tf.Graph()
    with g.as_default():
        p = tf1.placeholder_with_default(tf.constant([1.0, 2.0]), shape=[2])
        assert tf.get_static_value(p) is None
        for derived in (p * 2.0, tf.identity(p), tf.concat([p, p], 0), tf.stack([p, p]),
                        tf.cast(p, tf.int32), tf.reshape(p, [2, 1])):
            assert tf.get_static_value(derived) is None
        # (its static shape is still known)
        assert tf.get_static_value(tf.shape(p)).tolist() == [2]
        assert tf.get_static_value(tf.size(p)) == 2
        n = tf1.placeholder_with_default(3, [])
        assert tf.get_static_value(n) is None and tf.get_static_value(tf.range(n)) is None
        dims = tf1.placeholder_with_default([2, 2], [2])
        reshaped = tf.reshape(tf.constant([1.0, 2.0, 3.0, 4.0]), dims)
        zeros = tf.zeros(dims)
        assert reshaped.shape.as_list() == [None, None]
        assert zeros.shape.as_list() == [None, None]
        with tf1.Session() as sess:
            assert sess.run(p * 2.0).tolist() == [2.0, 4.0]
            assert sess.run(p * 2.0, {p: [5.0, 6.0]}).tolist() == [10.0, 12.0]
            assert sess.run(reshaped, {dims: [1, 4]}).shape == (1, 4)
            assert sess.run(zeros, {dims: [4, 1]}).shape == (4, 1)


def test_placeholder_with_default_in_a_function_has_no_static_value():
    seen = []

    @tf.function
    def f():
        p = tf1.placeholder_with_default(tf.constant([1.0, 2.0]), shape=[2])
        seen.append((tf.get_static_value(p), tf.get_static_value(p * 2.0),
                     tf.get_static_value(tf.shape(p)).tolist()))
        return p * 2.0

    assert f().numpy().tolist() == [2.0, 4.0]
    assert seen == [(None, None, [2])]


def _error(sess, fetch, feed=None):
    with pytest.raises(tf.errors.OpError) as info:
        sess.run(fetch, feed)
    return info.value


def test_missing_feed_is_reported_before_a_lone_uninitialized_read():
    g = tf.Graph()
    with g.as_default():
        v = tf1.Variable([1.0, 2.0], name="v")
        x = tf1.placeholder(tf.float32, [2], name="x")
        fetches = [v * 3.0 + x, x + v, tf1.assign_add(v, x), tf.reduce_sum(v * x),
                   tf1.gradients(tf.reduce_sum(v * x), [v])[0], v.assign(x)]
    with tf1.Session(graph=g) as sess:
        for fetch in fetches:
            e = _error(sess, fetch)
            assert type(e) is tf.errors.InvalidArgumentError
            assert "You must feed a value for placeholder tensor 'x'" in e.message
        # (with the feed given, the read fails)
        e = _error(sess, x + v, {x: [1.0, 1.0]})
        assert type(e) is tf.errors.FailedPreconditionError


def test_training_step_reports_the_uninitialized_variable_before_a_missing_feed():
    g = tf.Graph()
    with g.as_default():
        x = tf1.placeholder(tf.float32, [None, 2], name="x")
        labels = tf1.placeholder(tf.float32, [None, 3], name="labels")
        w = tf1.get_variable("w", [2, 3])
        b = tf1.get_variable("b", [3], initializer=tf1.zeros_initializer())
        logits = tf.matmul(x, w) + b
        loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(labels=labels,
                                                                      logits=logits))
        train = tf1.train.AdamOptimizer(0.1).minimize(loss)
        init = tf1.global_variables_initializer()
    with tf1.Session(graph=g) as sess:
        for fetch, feed in ((train, None), (logits, None), (train, {x: [[1.0, 2.0]]}),
                            (train, {labels: [[1.0, 0.0, 0.0]]})):
            e = _error(sess, fetch, feed)
            assert type(e) is tf.errors.FailedPreconditionError, (fetch, feed)
            assert e.message.startswith("Graph execution error:")
            assert "Could not find variable" in e.message
        # two reads, two missing feeds: the feed's error
        e = _error(sess, loss)
        assert type(e) is tf.errors.InvalidArgumentError
        assert "You must feed a value for placeholder tensor" in e.message
        sess.run(init)
        e = _error(sess, train)
        assert type(e) is tf.errors.InvalidArgumentError
        sess.run(train, {x: [[1.0, 2.0]], labels: [[1.0, 0.0, 0.0]]})
        assert np.isfinite(sess.run(loss, {x: [[1.0, 2.0]], labels: [[1.0, 0.0, 0.0]]}))


def test_feeding_a_tensor_names_both_tensors_as_tf_prints_them():
    with tf.Graph().as_default():
        x = tf1.placeholder(tf.float32, [2], name="x")
        c = tf.constant([1.0, 2.0], name="c")
        with tf1.Session() as sess:
            assert sess.sess_str == b""
            with pytest.raises(TypeError) as info:
                sess.run(x, {x: c})
    assert str(info.value).endswith(
        'For reference, the tensor object was Tensor("c:0", shape=(2,), dtype=float32) which '
        'was passed to the argument `feed_dict` with key Tensor("x:0", shape=(2,), '
        'dtype=float32).')


def test_a_nested_tuple_of_tensors_is_fed_with_values_of_its_structure():
    LSTMStateTuple = tf1.nn.rnn_cell.LSTMStateTuple
    with tf.Graph().as_default():
        c = tf1.placeholder(tf.float32, [2], name="c")
        h = tf1.placeholder(tf.float32, [2], name="h")
        k = tf1.placeholder(tf.float32, [], name="k")
        state = (LSTMStateTuple(c, h), k)
        total = tf.reduce_sum(c * h) + k
        value = (LSTMStateTuple(np.ones(2), np.full(2, 3.0)), 1.0)
        with tf1.Session() as sess:
            assert sess.run(total, {state: value}) == 7.0
            handle = sess.partial_run_setup([total], [c, h, k])
            assert sess.partial_run(handle, total, {state: value}) == 7.0
            with pytest.raises(ValueError, match=r"^Could not flatten dictionary\. Key had 3 "
                                                 r"elements, but value had 1 elements\. Key: "
                                                 r"\[<tf\.Tensor 'c:0' .*\], value: \[1\.0\]\.$"):
                sess.run(total, {state: 1.0})
            with pytest.raises(ValueError, match=r"^Could not flatten dictionary\. Key had 3 "
                                                 r"elements, but value had 2 elements\."):
                sess.run(total, {state: (np.ones(2), 2.0)})
            with pytest.raises(ValueError, match=r"^Cannot flatten dict because this key is not "
                                                 r"unique: Tensor\(\"k:0\", shape=\(\), "
                                                 r"dtype=float32\)$"):
                sess.run(total, {state: value, k: 2.0})

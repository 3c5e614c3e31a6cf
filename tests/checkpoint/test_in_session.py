"""`tf.train.Checkpoint` over the variables of a TF 1 graph, in a session, as the
"Migrating model checkpoints" guide uses it: values are the session's; a restore's values
are assigned by `run_restore_ops` (checked against TF 2.21)."""
import numpy as np
import pytest

import eagerflow as tf

tf1 = tf.compat.v1

KEY = "/.ATTRIBUTES/VARIABLE_VALUE"


def _variables(a, b, c, names=("a", "b")):
    a = tf1.get_variable(names[0], shape=[], initializer=tf1.constant_initializer(a))
    b = tf1.get_variable(names[1], shape=[], initializer=tf1.constant_initializer(b))
    with tf1.variable_scope("scoped"):
        c = tf1.get_variable("c", shape=[], initializer=tf1.constant_initializer(c))
    return a, b, c


def test_save_in_a_session_writes_the_sessions_values(tmp_path):
    with tf.Graph().as_default():
        a, b, c = _variables(1, 2, 3)
        with tf1.Session() as sess:
            sess.run(tf1.global_variables_initializer())
            sess.run(a.assign(10.0))
            ckpt = tf.train.Checkpoint(
                var_list={v.name.split(":")[0]: v for v in tf1.global_variables()})
            path = ckpt.save(str(tmp_path / "in-session"))
            assert path.endswith("in-session-1")
            assert sess.run(ckpt.save_counter) == 1
            assert ckpt.save(str(tmp_path / "in-session")).endswith("in-session-2")
    reader = tf.train.load_checkpoint(path)
    assert reader.get_tensor("var_list/a" + KEY) == 10.0
    assert reader.get_tensor("var_list/scoped.Sc" + KEY) == 3.0
    assert reader.get_tensor("save_counter" + KEY) == 1


def test_restore_in_a_session_assigns_when_the_restore_ops_run(tmp_path):
    with tf.Graph().as_default():
        a, b, c = _variables(1, 2, 3)
        with tf1.Session() as sess:
            sess.run(tf1.global_variables_initializer())
            path = tf.train.Checkpoint(unscoped=[a, b], scoped=[c]).save(str(tmp_path / "ck"))
    with tf.Graph().as_default():
        a, b, c = _variables(0, 0, 0, names=("a_different_name", "b_different_name"))
        with tf1.Session() as sess:
            sess.run(tf1.global_variables_initializer())
            status = tf.train.Checkpoint(unscoped=[a, b], scoped=[c]).restore(path)
            assert sess.run([a, b, c]) == [0.0, 0.0, 0.0]  # (not before the ops run)
            assert status.assert_consumed().run_restore_ops() is None
            assert sess.run([a, b, c]) == [1.0, 2.0, 3.0]


def test_initialize_or_restore_initializes_what_the_checkpoint_lacks(tmp_path):
    with tf.Graph().as_default():
        a, b, c = _variables(1, 2, 3)
        with tf1.Session() as sess:
            sess.run(tf1.global_variables_initializer())
            path = tf.train.Checkpoint(a=a).write(str(tmp_path / "only-a"))
        a2 = tf1.get_variable("a2", shape=[], initializer=tf1.constant_initializer(7))
        extra = tf1.get_variable("extra", shape=[], initializer=tf1.constant_initializer(9))
        with tf1.Session() as sess:
            tf.train.Checkpoint(a=a2, extra=extra).read(path).initialize_or_restore(sess)
            assert sess.run([a2, extra]) == [1.0, 9.0]


def test_name_based_restore_in_a_session(tmp_path):
    with tf.Graph().as_default():
        a, b, c = _variables(1, 2, 3)
        with tf1.Session() as sess:
            sess.run(tf1.global_variables_initializer())
            path = tf1.train.Saver().save(sess, str(tmp_path / "by-name"))
    with tf.Graph().as_default():
        a, b, c = _variables(0, 0, 0)
        with tf1.Session() as sess:
            sess.run(tf1.global_variables_initializer())
            status = tf.train.Checkpoint(v=[a, b, c]).read(path)
            status.run_restore_ops()
            assert sess.run([a, b, c]) == [1.0, 2.0, 3.0]
            status.assert_consumed()


def test_restore_ops_need_a_session(tmp_path):
    with tf.Graph().as_default():
        a = tf1.get_variable("a", shape=[], initializer=tf1.constant_initializer(1))
        with tf1.Session() as sess:
            sess.run(a.initializer)
            path = tf.train.Checkpoint(a=a).write(str(tmp_path / "a"))
        status = tf.train.Checkpoint(a=a).read(path)
        with tf1.Session() as sess:
            sess.run(a.initializer)
            sess.run(a.assign(5.0))
            status.run_restore_ops(sess)
            np.testing.assert_equal(sess.run(a), 1.0)


def test_tf1_checkpoint_saves_the_values_of_the_session_given(tmp_path):
    # TF 1's `tf.compat.v1.train.Checkpoint` takes the session to save from (TF 2's class,
    # given before, refused the argument); a variable made after the restore gets its value
    # from `initialize_or_restore`, not from its own initializer.
    assert tf.compat.v1.train.Checkpoint is not tf.train.Checkpoint
    g = tf.compat.v1.Graph()
    with g.as_default():
        root = tf.compat.v1.train.Checkpoint()
        root.v = tf.Variable(3.0)
        sess, other = tf.compat.v1.Session(), tf.compat.v1.Session()
        sess.run(root.v.initializer)
        sess.run(root.v.assign(5.0))
        other.run(root.v.initializer)
        with other.as_default():  # (not the session given)
            path = root.save(str(tmp_path / "ck"), session=sess)
        assert root.save(str(tmp_path / "ck"), session=sess).endswith("ck-2")
    assert path.endswith("ck-1")
    assert tf.train.load_variable(path, "v/.ATTRIBUTES/VARIABLE_VALUE") == 5.0
    g = tf.compat.v1.Graph()
    with g.as_default():
        root = tf.compat.v1.train.Checkpoint()
        status = root.restore(path)
        root.v = tf.Variable(0.0)
        with tf.compat.v1.Session() as sess:
            sess.run(root.v.initializer)
            assert sess.run(root.v) == 0.0
            status.initialize_or_restore(sess)
            assert sess.run(root.v) == 5.0


def test_restore_none_initializes_in_a_session():
    with tf.Graph().as_default():
        a = tf1.get_variable("a", shape=[], initializer=tf1.constant_initializer(7))
        with tf1.Session() as sess:
            status = tf.train.Checkpoint(a=a).restore(None)
            status.initialize_or_restore(sess)
            assert sess.run(a) == 7.0
            with pytest.raises(AssertionError, match="no restore ops are available"):
                status.run_restore_ops(sess)

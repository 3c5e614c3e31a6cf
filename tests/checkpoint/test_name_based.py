"""`tf.train.Checkpoint.restore` (and Keras's `load_weights`) of a checkpoint written by name
(TF 1's `Saver`): variables match by their names, as the "Migrating model checkpoints"
guide uses it; checked against what TF 2.21 does."""
import os

import numpy as np
import pytest

import eagerflow as tf

TF_CHECKPOINT = os.path.join(os.path.dirname(__file__), "..", "compat", "data", "v1_saver",
                             "model-3")


@pytest.fixture
def by_name(tmp_path):
    """A checkpoint of ``a``, ``b`` and ``scoped/c`` (1, 2, 3) and ``other`` (int32 5)."""
    with tf.Graph().as_default():
        a = tf.compat.v1.get_variable("a", shape=[], initializer=tf.compat.v1.zeros_initializer())
        b = tf.compat.v1.get_variable("b", shape=[], initializer=tf.compat.v1.zeros_initializer())
        c = tf.compat.v1.get_variable("scoped/c", shape=[],
                                      initializer=tf.compat.v1.zeros_initializer())
        other = tf.compat.v1.get_variable("other", initializer=tf.constant(5))
        with tf.compat.v1.Session() as sess:
            sess.run(tf.compat.v1.global_variables_initializer())
            sess.run([a.assign(1), b.assign(2), c.assign(3)])
            return tf.compat.v1.train.Saver().save(sess, str(tmp_path / "tf1-ckpt"))


def test_checkpoint_restores_variables_by_name(by_name):
    a = tf.Variable(0.0, name="a")
    b = tf.Variable(0.0, name="b")
    with tf.name_scope("scoped"):
        c = tf.Variable(0.0, name="c")
    c_2 = tf.Variable(0.0, name="scoped/c")
    ckpt = tf.train.Checkpoint(variables=[a, b, c, c_2])
    status = ckpt.restore(by_name)
    assert [v.numpy() for v in (a, b, c, c_2)] == [1.0, 2.0, 3.0, 3.0]
    assert type(status).__name__ == "NameBasedSaverStatus"
    # (the checkpoint has no save counter: no error, as in TF)
    for check in (status.assert_consumed, status.assert_existing_objects_matched,
                  status.assert_nontrivial_match, status.expect_partial):
        assert check() is status
    assert status.run_restore_ops() is None
    assert int(ckpt.save_counter.numpy()) == 0


def test_variables_missing_from_the_checkpoint_fail_the_assertions(by_name):
    a, d = tf.Variable(0.0, name="a"), tf.Variable(0.0, name="d")
    status = tf.train.Checkpoint(variables=[a, d]).restore(by_name)
    assert a.numpy() == 1.0
    for check in (status.assert_consumed, status.assert_existing_objects_matched):
        with pytest.raises(AssertionError) as info:
            check()
        assert str(info.value) == ("Some objects had attributes which were not restored: \n"
                                   f"    {d}: ['d']")
    status = tf.train.Checkpoint(v=d).read(by_name)  # (read: the same)
    with pytest.raises(AssertionError, match="not restored"):
        status.assert_consumed()


def test_variables_created_later_are_restored_when_tracked(by_name):
    module = tf.Module()
    status = tf.train.Checkpoint(m=module).restore(by_name)
    module.v = tf.Variable(0, name="other")
    assert module.v.numpy() == 5
    status.assert_consumed()
    module.v.assign(7)
    module.w = tf.Variable(0.0)  # (tracking again does not restore `v` again)
    assert module.v.numpy() == 7


def _dense_checkpoint(tmp_path):
    kernel = tf.Variable(np.arange(6, dtype=np.float32).reshape(3, 2), name="dense/kernel")
    bias = tf.Variable([7.0, 8.0], name="dense/bias")
    return tf.compat.v1.train.Saver([kernel, bias]).save(None, str(tmp_path / "dense"))


def test_keras_model_built_after_the_restore_gets_the_values(tmp_path):
    path = _dense_checkpoint(tmp_path)
    model = tf.keras.Sequential([tf.keras.layers.Dense(2, name="dense")])
    status = tf.train.Checkpoint(model=model).restore(path)
    model.build((None, 3))
    assert [v.numpy().tolist() for v in model.variables] == [
        [[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]], [7.0, 8.0]]
    status.assert_consumed()


def test_keras_load_weights_reads_a_checkpoint_written_by_name(tmp_path):
    path = _dense_checkpoint(tmp_path)
    model = tf.keras.Sequential([tf.keras.layers.Dense(2, name="dense")])
    model.build((None, 3))
    status = model.load_weights(path)
    assert type(status).__name__ == "NameBasedSaverStatus"
    assert model.layers[0].bias.numpy().tolist() == [7.0, 8.0]
    np.testing.assert_array_equal(model.layers[0].kernel.numpy(),
                                  np.arange(6, dtype=np.float32).reshape(3, 2))


def test_shape_then_dtype_mismatches_raise_tfs_errors(by_name):
    wrong_shape = tf.Variable([1, 2, 3], name="b")  # (int32 and (3,): the shape first)
    with pytest.raises(ValueError, match=r"Received incompatible tensor with shape \(\) when "
                       r"attempting to restore variable with shape \(3,\) and name b\.$"):
        tf.train.Checkpoint(v=wrong_shape).restore(by_name)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Trying to assign variable with wrong dtype. Expected int32 got "
                             "float"):
        tf.train.Checkpoint(v=tf.Variable(0, name="a")).restore(by_name)


def test_restores_tfs_saver_checkpoint():
    w = tf.Variable(tf.zeros([2, 1]), name="w")
    b = tf.Variable(tf.zeros([1]), name="b")
    step = tf.Variable(0, dtype=tf.int64, name="global_step")
    status = tf.train.Checkpoint(w=w, b=b, step=step).restore(TF_CHECKPOINT)
    status.assert_consumed()
    reader = tf.train.load_checkpoint(TF_CHECKPOINT)
    np.testing.assert_array_equal(w.numpy(), reader.get_tensor("w"))
    np.testing.assert_array_equal(b.numpy(), reader.get_tensor("b"))
    assert int(step.numpy()) == 3


def test_reader_gives_scalars_as_numpy_scalars(by_name):
    reader = tf.train.load_checkpoint(by_name)
    value = reader.get_tensor("scoped/c")
    assert type(value) is np.float32 and value == 3.0
    assert type(reader.get_tensor("other")) is np.int32
    assert type(tf.train.load_variable(by_name, "a")) is np.float32

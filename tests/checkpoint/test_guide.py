"""The examples of TF's checkpoint guide (tensorflow.org/guide/checkpoint), as written there
(without the dataset iterator), with the outputs TF gives."""
import os

import numpy as np

import eagerflow as tf


class Net(tf.keras.Model):
    """A simple linear model."""

    def __init__(self):
        super(Net, self).__init__()
        self.l1 = tf.keras.layers.Dense(5)

    def call(self, x):
        return self.l1(x)


def _examples():
    inputs = tf.range(10.)[:, None]
    labels = inputs * 5. + tf.range(5.)[None, :]
    for i in range(0, 10, 2):
        yield {"x": inputs[i:i + 2], "y": labels[i:i + 2]}


def _train_step(net, example, optimizer):
    with tf.GradientTape() as tape:
        output = net(example["x"])
        loss = tf.reduce_mean(tf.abs(output - example["y"]))
    variables = net.trainable_variables
    gradients = tape.gradient(loss, variables)
    optimizer.apply_gradients(zip(gradients, variables))
    return loss


def _train_and_checkpoint(ckpt, net, opt, manager, out):
    ckpt.restore(manager.latest_checkpoint)
    out.append(f"Restored from {os.path.basename(manager.latest_checkpoint)}"
               if manager.latest_checkpoint else "Initializing from scratch.")
    for _ in range(10):
        for example in _examples():
            _train_step(net, example, opt)
            ckpt.step.assign_add(1)
            if int(ckpt.step) % 10 == 0:
                save_path = manager.save()
                out.append(f"Saved checkpoint for step {int(ckpt.step)}: "
                           f"{os.path.basename(save_path)}")


def test_the_guide_runs_with_tfs_results(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    net = Net()
    net.save_weights("easy_checkpoint")
    assert os.path.exists("easy_checkpoint.index")

    out = []
    opt = tf.keras.optimizers.Adam(0.1)
    ckpt = tf.train.Checkpoint(step=tf.Variable(1), optimizer=opt, net=net)
    manager = tf.train.CheckpointManager(ckpt, "./tf_ckpts", max_to_keep=3)
    _train_and_checkpoint(ckpt, net, opt, manager, out)
    opt = tf.keras.optimizers.Adam(0.1)
    net = Net()
    ckpt = tf.train.Checkpoint(step=tf.Variable(1), optimizer=opt, net=net)
    manager = tf.train.CheckpointManager(ckpt, "./tf_ckpts", max_to_keep=3)
    _train_and_checkpoint(ckpt, net, opt, manager, out)
    assert out[0] == "Initializing from scratch."
    assert out[1:6] == [f"Saved checkpoint for step {10 * i}: ckpt-{i}" for i in range(1, 6)]
    assert out[6] == "Restored from ckpt-5"
    assert out[7:] == [f"Saved checkpoint for step {10 * i}: ckpt-{i}" for i in range(6, 11)]
    assert [os.path.basename(p) for p in manager.checkpoints] == ["ckpt-8", "ckpt-9", "ckpt-10"]

    # Loading mechanics: a graph of stand-in objects restores the bias alone.
    to_restore = tf.Variable(tf.zeros([5]))
    fake_layer = tf.train.Checkpoint(bias=to_restore)
    fake_net = tf.train.Checkpoint(l1=fake_layer)
    new_root = tf.train.Checkpoint(net=fake_net)
    status = new_root.restore(tf.train.latest_checkpoint("./tf_ckpts/"))
    np.testing.assert_array_equal(to_restore.numpy(), net.l1.bias.numpy())
    status.assert_existing_objects_matched()
    # Deferred restoration: the kernel gets its value when it is attached.
    deferred_restore = tf.Variable(tf.zeros([1, 5]))
    fake_layer.kernel = deferred_restore
    np.testing.assert_array_equal(deferred_restore.numpy(), net.l1.kernel.numpy())

    # Manually inspecting checkpoints.
    reader = tf.train.load_checkpoint("./tf_ckpts/")
    shape_from_key = reader.get_variable_to_shape_map()
    dtype_from_key = reader.get_variable_to_dtype_map()
    assert sorted(shape_from_key.keys()) == [
        "_CHECKPOINTABLE_OBJECT_GRAPH",
        "net/l1/bias/.ATTRIBUTES/VARIABLE_VALUE",
        "net/l1/kernel/.ATTRIBUTES/VARIABLE_VALUE",
        "optimizer/_iterations/.ATTRIBUTES/VARIABLE_VALUE",
        "optimizer/_learning_rate/.ATTRIBUTES/VARIABLE_VALUE",
        "optimizer/_variables/1/.ATTRIBUTES/VARIABLE_VALUE",
        "optimizer/_variables/2/.ATTRIBUTES/VARIABLE_VALUE",
        "optimizer/_variables/3/.ATTRIBUTES/VARIABLE_VALUE",
        "optimizer/_variables/4/.ATTRIBUTES/VARIABLE_VALUE",
        "save_counter/.ATTRIBUTES/VARIABLE_VALUE",
        "step/.ATTRIBUTES/VARIABLE_VALUE"]
    key = "net/l1/kernel/.ATTRIBUTES/VARIABLE_VALUE"
    assert shape_from_key[key] == [1, 5]
    assert dtype_from_key[key].name == "float32"
    assert reader.get_tensor(key).shape == (1, 5)


def test_list_and_dictionary_tracking(tmp_path):
    save = tf.train.Checkpoint()
    save.listed = [tf.Variable(1.)]
    save.listed.append(tf.Variable(2.))
    save.mapped = {"one": save.listed[0]}
    save.mapped["two"] = save.listed[1]
    save_path = save.save(str(tmp_path / "tf_list_example"))

    restore = tf.train.Checkpoint()
    v2 = tf.Variable(0.)
    assert 0. == v2.numpy()  # Not restored yet
    restore.mapped = {"two": v2}
    restore.restore(save_path)
    assert 2. == v2.numpy()
    restore.listed = []
    assert repr(restore.listed) == "ListWrapper([])"
    v1 = tf.Variable(0.)
    restore.listed.append(v1)  # Restores v1, from restore() in the previous cell
    assert 1. == v1.numpy()

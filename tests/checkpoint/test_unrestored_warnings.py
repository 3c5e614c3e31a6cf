"""The warnings TF logs when a restore that left values of the checkpoint unrestored is
collected without `expect_partial` (messages and order as TF 2.21 logs them)."""
import gc
import os
import subprocess
import sys

import pytest

import eagerflow as tf

_DETECTING = ("Detecting that an object or model or tf.train.Checkpoint is being deleted with "
              "unrestored values. See the following logs for the specific values in question. "
              "To silence these warnings, use `status.expect_partial()`. See "
              "https://www.tensorflow.org/api_docs/python/tf/train/Checkpoint#restorefor "
              "details about the status object returned by the restore function.")
_MISSING = "Value in checkpoint could not be found in the restored object: "


@pytest.fixture
def saved(tmp_path):
    module = tf.Module()
    module.w = tf.Variable(5.0)
    module.sub = tf.Module()
    module.sub.z = tf.Variable(6.0)
    return tf.train.Checkpoint(a=tf.Variable(1.0), b=tf.Variable([2.0, 3.0]),
                               m=module).write(str(tmp_path / "c"))


def _logged(caplog):
    gc.collect()
    return [r.getMessage() for r in caplog.records if r.name == "tensorflow"]


def test_values_never_restored_are_logged_when_the_restore_is_collected(saved, caplog):
    caplog.set_level("WARNING")
    for method in ("read", "restore"):
        getattr(tf.train.Checkpoint(a=tf.Variable(0.0)), method)(saved)
        # (in the order of the checkpoint's nodes)
        assert _logged(caplog) == [_DETECTING, _MISSING + "(root).b", _MISSING + "(root).m.w",
                                   _MISSING + "(root).m.sub.z"]
        caplog.clear()


def test_no_warning_with_expect_partial_or_once_everything_is_restored(saved, caplog):
    caplog.set_level("WARNING")
    tf.train.Checkpoint(a=tf.Variable(0.0)).read(saved).expect_partial()
    assert _logged(caplog) == []
    module = tf.Module()
    checkpoint = tf.train.Checkpoint(a=tf.Variable(0.0), m=module)
    status = checkpoint.read(saved)
    checkpoint.b = tf.Variable([0.0, 0.0])  # (restored as it is added)
    module.w = tf.Variable(0.0)
    module.sub = tf.Module()
    module.sub.z = tf.Variable(0.0)
    assert module.sub.z.numpy() == 6.0
    del status, checkpoint, module
    assert _logged(caplog) == []


def test_the_warning_waits_for_the_objects_still_waiting_for_values(saved, caplog):
    caplog.set_level("WARNING")
    checkpoint = tf.train.Checkpoint(a=tf.Variable(0.0), b=tf.Variable([0.0, 0.0]))
    checkpoint.restore(saved)  # (the status dropped: `m` may still be added)
    assert _logged(caplog) == []
    del checkpoint
    assert _logged(caplog) == [_DETECTING, _MISSING + "(root).m.w", _MISSING + "(root).m.sub.z"]


def test_saving_leaves_the_root_logger_alone(tmp_path):
    # TF's saver logs on Python's root logger, which gives it a handler: TF's warnings then
    # print twice, and a later logging.basicConfig of the program does nothing. Not here.
    script = (
        "import logging\n"
        "import eagerflow as tf\n"
        "tf.get_logger().warning('before')\n"
        f"path = tf.train.Checkpoint(a=tf.Variable(1.0), b=tf.Variable(2.0)).write("
        f"{str(tmp_path / 'c')!r})\n"
        "tf.get_logger().warning('after')\n"
        "tf.train.Checkpoint(a=tf.Variable(0.0)).read(path)\n"
        "assert not logging.getLogger().handlers\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            env=env, check=True)
    assert result.stderr.splitlines() == [
        "WARNING:tensorflow:before", "WARNING:tensorflow:after",
        f"WARNING:tensorflow:{_DETECTING}", f"WARNING:tensorflow:{_MISSING}(root).b"]


_GUIDE_PROGRAM = """
import eagerflow as tf
import numpy as np
strategy = tf.distribute.MirroredStrategy()
rng = np.random.RandomState(1)
train_images = rng.rand(40, 8, 8, 1).astype('float32')
train_labels = rng.randint(0, 3, 40)
test_images = rng.rand(12, 8, 8, 1).astype('float32'); test_labels = rng.randint(0, 3, 12)
BATCH_SIZE_PER_REPLICA = 8
GLOBAL_BATCH_SIZE = BATCH_SIZE_PER_REPLICA * strategy.num_replicas_in_sync
train_dataset = tf.data.Dataset.from_tensor_slices((train_images, train_labels)).batch(
    GLOBAL_BATCH_SIZE)
test_dataset = tf.data.Dataset.from_tensor_slices((test_images, test_labels)).batch(
    GLOBAL_BATCH_SIZE)
train_dist_dataset = strategy.experimental_distribute_dataset(train_dataset)
test_dist_dataset = strategy.experimental_distribute_dataset(test_dataset)
def init(shape, dtype=None):
    n = int(np.prod(shape))
    return tf.constant((np.sin(np.arange(n) * 0.37) * 0.3).reshape(shape), dtype=dtype)
def create_model():
    regularizer = tf.keras.regularizers.L2(1e-3)
    return tf.keras.Sequential([
        tf.keras.layers.Conv2D(4, 3, activation='relu', kernel_initializer=init,
                               kernel_regularizer=regularizer),
        tf.keras.layers.MaxPooling2D(),
        tf.keras.layers.Flatten(),
        tf.keras.layers.Dense(8, activation='relu', kernel_initializer=init,
                              kernel_regularizer=regularizer),
        tf.keras.layers.Dense(3, kernel_initializer=init)])
with strategy.scope():
    loss_object = tf.keras.losses.SparseCategoricalCrossentropy(
        from_logits=True, reduction=tf.keras.losses.Reduction.NONE)
    def compute_loss(labels, predictions, model_losses):
        per_example_loss = loss_object(labels, predictions)
        loss = tf.nn.compute_average_loss(per_example_loss)
        if model_losses:
            loss += tf.nn.scale_regularization_loss(tf.add_n(model_losses))
        return loss
    test_loss = tf.keras.metrics.Mean(name='test_loss')
    train_accuracy = tf.keras.metrics.SparseCategoricalAccuracy(name='train_accuracy')
    test_accuracy = tf.keras.metrics.SparseCategoricalAccuracy(name='test_accuracy')
    model = create_model()
    optimizer = tf.keras.optimizers.Adam(learning_rate=0.01)
    checkpoint = tf.train.Checkpoint(optimizer=optimizer, model=model)
def train_step(inputs):
    images, labels = inputs
    with tf.GradientTape() as tape:
        predictions = model(images, training=True)
        loss = compute_loss(labels, predictions, model.losses)
    gradients = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(gradients, model.trainable_variables))
    train_accuracy.update_state(labels, predictions)
    return loss
def test_step(inputs):
    images, labels = inputs
    predictions = model(images, training=False)
    t_loss = loss_object(labels, predictions)
    test_loss.update_state(t_loss)
    test_accuracy.update_state(labels, predictions)
@tf.function
def distributed_train_step(dataset_inputs):
    per_replica_losses = strategy.run(train_step, args=(dataset_inputs,))
    return strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica_losses, axis=None)
@tf.function
def distributed_test_step(dataset_inputs):
    return strategy.run(test_step, args=(dataset_inputs,))
for epoch in range(1):
    total_loss = 0.0
    num_batches = 0
    for x in train_dist_dataset:
        total_loss += distributed_train_step(x)
        num_batches += 1
    train_loss = total_loss / num_batches
    if True:
        checkpoint.save(PREFIX)
new_model = create_model()
new_optimizer = tf.keras.optimizers.Adam()
checkpoint = tf.train.Checkpoint(optimizer=new_optimizer, model=new_model)
checkpoint.restore(tf.train.latest_checkpoint(DIRECTORY))
new_model(test_images[:1])
"""


def test_a_restore_still_waiting_at_exit_logs_its_warnings(tmp_path):
    # The custom training guide's program (tf.distribute): the new optimizer never builds,
    # so its slots' values wait until the interpreter exits, where they are logged (not a
    # traceback from a module already torn down).
    program = tmp_path / "program.py"
    program.write_text(f"PREFIX = {str(tmp_path / 'ckpt')!r}\nDIRECTORY = {str(tmp_path)!r}\n"
                       + _GUIDE_PROGRAM)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    result = subprocess.run([sys.executable, str(program)], capture_output=True, text=True,
                            env=env, check=True)
    assert "Exception ignored" not in result.stderr
    lines = result.stderr.splitlines()
    assert f"WARNING:tensorflow:{_DETECTING}" in lines
    assert f"WARNING:tensorflow:{_MISSING}(root).optimizer._variables.1" in lines

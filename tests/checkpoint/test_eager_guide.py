"""The object-based saving examples of TF's eager execution guide (tensorflow.org/guide/eager),
as written there, with the results TF 2.21 gives."""
import os

import eagerflow as tf


def test_variables_and_a_model_with_its_optimizer(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    x = tf.Variable(10.)
    checkpoint = tf.train.Checkpoint(x=x)
    x.assign(2.)   # Assign a new value to the variables and save.
    checkpoint_path = './ckpt/'
    checkpoint.save(checkpoint_path)
    x.assign(11.)  # Change the variable after saving.
    # Restore values from the checkpoint
    checkpoint.restore(tf.train.latest_checkpoint(checkpoint_path))
    assert repr(x) == "<tf.Variable 'Variable:0' shape=() dtype=float32, numpy=2.0>"
    assert sorted(os.listdir("ckpt")) == ["-1.data-00000-of-00001", "-1.index", "checkpoint"]

    model = tf.keras.Sequential([
        tf.keras.layers.Conv2D(16, [3, 3], activation='relu'),
        tf.keras.layers.GlobalAveragePooling2D(),
        tf.keras.layers.Dense(10)
    ])
    optimizer = tf.keras.optimizers.Adam(learning_rate=0.001)
    checkpoint_dir = 'path/to/model_dir'
    if not os.path.exists(checkpoint_dir):
        os.makedirs(checkpoint_dir)
    checkpoint_prefix = os.path.join(checkpoint_dir, "ckpt")
    root = tf.train.Checkpoint(optimizer=optimizer,
                               model=model)
    assert root.save(checkpoint_prefix) == "path/to/model_dir/ckpt-1"
    root.restore(tf.train.latest_checkpoint(checkpoint_dir)).assert_consumed()
    # the model is not built yet: only the optimizer's variables are there, as in TF
    assert tf.train.list_variables(checkpoint_dir) == [
        ("_CHECKPOINTABLE_OBJECT_GRAPH", []),
        ("optimizer/_iterations/.ATTRIBUTES/VARIABLE_VALUE", []),
        ("optimizer/_learning_rate/.ATTRIBUTES/VARIABLE_VALUE", []),
        ("save_counter/.ATTRIBUTES/VARIABLE_VALUE", [])]
    # built and trained, the model restores from its checkpoint
    images = tf.random.stateless_uniform([2, 8, 8, 1], seed=[1, 2])
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(images)))
    optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables),
                                  model.trainable_variables))
    saved = [v.numpy() for v in model.variables]
    path = root.save(checkpoint_prefix)
    for v in model.variables:
        v.assign(tf.zeros_like(v))
    root.restore(tf.train.latest_checkpoint(checkpoint_dir)).assert_consumed()
    assert path == "path/to/model_dir/ckpt-2"
    assert all((v.numpy() == s).all() for v, s in zip(model.variables, saved))


def test_object_oriented_metrics():
    m = tf.keras.metrics.Mean("loss")
    m(0)
    m(5)
    assert repr(m.result()) == "<tf.Tensor: shape=(), dtype=float32, numpy=2.5>"  # => 2.5
    m([8, 9])
    assert float(m.result()) == 5.5  # => 5.5

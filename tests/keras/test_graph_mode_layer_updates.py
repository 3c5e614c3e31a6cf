"""TF 1's Keras layer API in graph mode: updates and losses by the inputs they read."""
import numpy as np
import pytest

import eagerflow as tf


@pytest.fixture(autouse=True)
def _graph_mode():
    tf.compat.v1.disable_eager_execution()
    tf.compat.v1.reset_default_graph()
    yield
    tf.compat.v1.enable_eager_execution()
    tf.compat.v1.reset_default_graph()


def test_updates_and_losses_for_inputs():
    # (the counts tf_keras 2.21 gives)
    x = tf.compat.v1.placeholder(tf.float32, [None, 3])
    x2 = tf.compat.v1.placeholder(tf.float32, [None, 3])
    bn = tf.keras.layers.BatchNormalization()
    dense = tf.keras.layers.Dense(2, kernel_regularizer="l2", activity_regularizer="l1")
    dense(bn(x, training=True))
    assert len(bn.get_updates_for(x)) == 2
    assert bn.get_updates_for(x2) == [] and bn.get_updates_for(None) == []
    assert len(dense.get_losses_for(x)) == 1  # the activity's
    assert len(dense.get_losses_for(None)) == 1  # the kernel's
    assert dense.get_losses_for(x2) == []
    bn(x2, training=True)
    assert len(bn.get_updates_for(x2)) == 2 and len(bn.get_updates_for([x, x2])) == 4
    inputs = tf.keras.Input((3,))
    model = tf.keras.Model(inputs, tf.keras.layers.BatchNormalization()(inputs, training=True))
    assert len(model.updates) == 2
    assert [u.name for u in model.get_updates_for(inputs)] == [u.name for u in model.updates]


def test_tf_layers_functions_warn_of_their_deprecation_at_the_caller():
    x = tf.compat.v1.placeholder(tf.float32, [None, 4, 4, 2])
    with pytest.warns(UserWarning) as record:
        h = tf.compat.v1.layers.conv2d(x, 2, 3)
        h = tf.compat.v1.layers.max_pooling2d(h, 2, 2)
        h = tf.compat.v1.layers.dense(tf.compat.v1.layers.flatten(h), 2)
    messages = [str(w.message) for w in record]
    assert messages[0] == ("`tf.layers.conv2d` is deprecated and will be removed in a future "
                           "version. Please Use `tf.keras.layers.Conv2D` instead.")
    assert messages[1].startswith("`tf.layers.max_pooling2d` is deprecated")
    assert messages[2].endswith("Please use `tf.keras.layers.Flatten` instead.")
    assert messages[3].startswith("`tf.layers.dense` is deprecated")
    assert {w.filename for w in record} == {__file__}


def test_backend_function_takes_its_inputs_flat():
    # (as Keras's: a lone tensor, a dict, a tuple; and the values alike)
    backend = tf.compat.v1.keras.backend
    x = backend.placeholder(shape=(None, 3))
    x2 = backend.placeholder(shape=(None, 3))
    ones = np.ones((1, 3), np.float32)
    assert backend.function(x, x * 2)(ones).tolist() == [[2.0, 2.0, 2.0]]
    assert backend.function([x], [x * 2])(ones)[0].tolist() == [[2.0, 2.0, 2.0]]
    out = backend.function({"a": x, "b": x2}, [x + 2 * x2])({"a": ones, "b": 0 * ones})
    assert out[0].tolist() == [[1.0, 1.0, 1.0]]
    count = backend.variable(0.0)
    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError):
        backend.function([x], [x], updates=backend.update_add(count, 1.0))


def test_the_keras_session_follows_the_default_graph():
    # (as Keras's: the kept session is made again for another graph than its own)
    backend = tf.compat.v1.keras.backend
    first = backend.get_session()
    tf.compat.v1.reset_default_graph()
    x = backend.placeholder(shape=(None, 3))
    assert backend.function([x], [x + 1.0])(np.zeros((1, 3)))[0].tolist() == [[1.0, 1.0, 1.0]]
    session = backend.get_session()
    assert session is not first and session.graph is tf.compat.v1.get_default_graph()

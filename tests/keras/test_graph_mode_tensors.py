"""Keras after ``tf.compat.v1.disable_eager_execution()``: a functional model's inputs and
outputs are tensors of the TF 1 graph (placeholders and ops), run by the Keras session with
a feed_dict, differentiated by ``tf.compat.v1.gradients``, as in TF 2.21 with tf_keras."""
import numpy as np

import eagerflow as tf

from tests.keras.test_graph_mode_training import _graph_mode  # noqa: F401 (autouse fixture)


X = np.arange(6, dtype=np.float32).reshape(3, 2)


def _functional():
    inputs = tf.keras.Input((2,), name="x")
    hidden = tf.keras.layers.Dense(3, kernel_initializer="ones", name="d1")(inputs)
    outputs = tf.keras.layers.Dense(1, kernel_initializer="ones", name="d2")(hidden)
    return tf.keras.Model(inputs, outputs), hidden


def test_inputs_and_outputs_are_graph_tensors_run_by_the_session():
    model, hidden = _functional()
    graph = tf.compat.v1.get_default_graph()
    assert repr(model.inputs[0]) == "<tf.Tensor 'x:0' shape=(None, 2) dtype=float32>"
    assert repr(model.outputs[0]) == "<tf.Tensor 'd2/BiasAdd:0' shape=(None, 1) dtype=float32>"
    assert type(model.output).__name__ == "SymbolicTensor"
    assert model.input.graph is graph and model.output.op.type == "BiasAdd"
    assert model.input.op.type == "Placeholder"
    sess = tf.compat.v1.keras.backend.get_session()
    np.testing.assert_array_equal(sess.run(model.outputs[0], feed_dict={model.inputs[0]: X}),
                                  [[3.0], [15.0], [27.0]])
    np.testing.assert_array_equal(sess.run(hidden, {model.input: X}),
                                  [[1.0] * 3, [5.0] * 3, [9.0] * 3])
    assert tf.keras.backend.is_keras_tensor(model.output)


def test_gradients_of_model_tensors():
    model, _ = _functional()
    sess = tf.compat.v1.keras.backend.get_session()
    grads = sess.run(tf.compat.v1.gradients(model.output, model.trainable_weights),
                     feed_dict={model.input: X})
    np.testing.assert_array_equal(grads[0], [[6.0] * 3, [9.0] * 3])
    np.testing.assert_array_equal(grads[1], [3.0] * 3)
    np.testing.assert_array_equal(grads[2], [[15.0]] * 3)
    K = tf.compat.v1.keras.backend
    np.testing.assert_array_equal(
        sess.run(K.gradients(K.sum(model.output), model.input), {model.input: X})[0],
        [[3.0, 3.0]] * 3)


def test_backend_function_of_intermediate_outputs_and_learning_phase():
    model, hidden = _functional()
    K = tf.compat.v1.keras.backend
    f = K.function([model.input, K.learning_phase()], [model.layers[1].output])
    out = f([X, 0])
    assert isinstance(out, list) and len(out) == 1
    np.testing.assert_array_equal(out[0], [[1.0] * 3, [5.0] * 3, [9.0] * 3])
    both = K.function([model.input], [hidden, model.output])([X])
    np.testing.assert_array_equal(both[1], [[3.0], [15.0], [27.0]])


def test_backend_placeholder_mixed_with_tf_ops():
    K = tf.compat.v1.keras.backend
    ph = K.placeholder(shape=(None, 2))
    assert repr(ph) == "<tf.Tensor 'Placeholder:0' shape=(None, 2) dtype=float32>"
    w = K.variable(np.ones((2, 1), np.float32))
    product = tf.matmul(ph, w)
    np.testing.assert_array_equal(K.function([ph], [product])([X])[0], [[1.0], [5.0], [9.0]])
    np.testing.assert_array_equal(K.get_session().run(product, {ph: X}), [[1.0], [5.0], [9.0]])
    step = K.function([ph], [K.sum(product)], updates=[(w, w * 2.0)])
    assert step([X])[0] == 15.0
    np.testing.assert_array_equal(K.get_value(w), [[2.0], [2.0]])


def test_model_called_on_a_placeholder_and_input_of_a_placeholder():
    model, _ = _functional()
    ph = tf.compat.v1.placeholder(tf.float32, (None, 2))
    out = model(ph)
    assert repr(out) == "<tf.Tensor 'model/d2/BiasAdd:0' shape=(None, 1) dtype=float32>"
    sess = tf.compat.v1.keras.backend.get_session()
    np.testing.assert_array_equal(sess.run(out, {ph: X}), [[3.0], [15.0], [27.0]])
    given = tf.compat.v1.placeholder(tf.float32, (None, 2), name="given")
    inputs = tf.keras.Input(tensor=given)
    assert inputs is given
    other = tf.keras.Model(inputs, tf.keras.layers.Dense(1, kernel_initializer="ones")(inputs))
    assert other.input is given
    sess = tf.compat.v1.keras.backend.get_session()  # (initializes the new layer's weights)
    np.testing.assert_array_equal(sess.run(other.output, {given: X}), [[1.0], [5.0], [9.0]])


def test_tf1_optimizer_minimizes_a_loss_of_the_model():
    model, _ = _functional()
    target = tf.compat.v1.placeholder(tf.float32, (None, 1))
    loss = tf.reduce_mean(tf.square(model.output - target))
    train = tf.compat.v1.train.GradientDescentOptimizer(0.001).minimize(
        loss, var_list=model.trainable_weights)
    sess = tf.compat.v1.keras.backend.get_session()
    feed = {model.input: X, target: [[1.0], [2.0], [3.0]]}
    before = sess.run(loss, feed)
    sess.run(train, feed)
    assert sess.run(loss, feed) < before


def test_frozen_graph_of_a_keras_model_runs_without_variables():
    model, _ = _functional()
    sess = tf.compat.v1.keras.backend.get_session()
    names = [model.output.op.name]
    frozen = tf.compat.v1.graph_util.convert_variables_to_constants(
        sess, sess.graph.as_graph_def(), names)
    assert not {n.op for n in frozen.node} & {"VarHandleOp", "VariableV2"}
    graph = tf.Graph()
    with graph.as_default():
        tf.import_graph_def(frozen, name="")
        out = tf.compat.v1.Session(graph=graph).run("d2/BiasAdd:0", {"x:0": X})
    np.testing.assert_array_equal(out, [[3.0], [15.0], [27.0]])


def test_sequential_input_is_a_named_placeholder_and_fits():
    model = tf.keras.Sequential([tf.keras.layers.Dense(1, kernel_initializer="zeros",
                                                       input_shape=(2,))])
    assert repr(model.input) == "<tf.Tensor 'dense_input:0' shape=(None, 2) dtype=float32>"
    model.compile("sgd", "mse")
    model.fit(X, np.ones((3, 1), np.float32), epochs=2, verbose=0)
    sess = tf.compat.v1.keras.backend.get_session()
    np.testing.assert_allclose(sess.run(model.output, {model.input: X}), model.predict(X))


def test_batch_norm_follows_the_learning_phase_and_keeps_updates_apart():
    K = tf.compat.v1.keras.backend
    x = np.arange(8, dtype=np.float32).reshape(4, 2)
    inputs = tf.keras.Input((2,))
    layer = tf.keras.layers.BatchNormalization()
    outputs = layer(inputs)
    model = tf.keras.Model(inputs, outputs)
    f = K.function([inputs, K.learning_phase()], [outputs])
    np.testing.assert_allclose(f([x, 0])[0], x / np.sqrt(1.001), rtol=1e-6)
    normalized = (x - x.mean(0)) / np.sqrt(x.var(0) + 0.001)
    np.testing.assert_allclose(f([x, 1])[0], normalized, rtol=1e-5)
    # (running the output updates nothing: the updates are ops of their own)
    np.testing.assert_array_equal(K.get_value(layer.moving_mean), [0.0, 0.0])
    assert len(model.updates) == 2 and len(layer.updates) == 2
    assert all(isinstance(u, tf.Operation) for u in model.updates)
    step = K.function([inputs, K.learning_phase()], [outputs], updates=model.updates)
    step([x, 0])
    np.testing.assert_array_equal(K.get_value(layer.moving_mean), [0.0, 0.0])
    step([x, 1])
    np.testing.assert_allclose(K.get_value(layer.moving_mean), [0.03, 0.04], rtol=1e-6)
    trained = layer(inputs, training=True)
    assert len(layer.updates) == 4
    np.testing.assert_allclose(K.get_session().run(trained, {inputs: x}), normalized, rtol=1e-5)
    np.testing.assert_allclose(K.get_value(layer.moving_mean), [0.03, 0.04], rtol=1e-6)


def test_tf_ops_on_keras_tensors_become_op_layers_of_the_model():
    inputs = tf.keras.Input((2,))
    hidden = tf.keras.layers.Dense(3, kernel_initializer="ones")(inputs)
    doubled = hidden * 2.0
    assert repr(doubled) == "<tf.Tensor 'mul:0' shape=(None, 3) dtype=float32>"
    assert not tf.keras.backend.is_keras_tensor(doubled)
    model = tf.keras.Model(inputs, doubled)
    assert [layer.name for layer in model.layers] == ["input_1", "dense", "tf_op_layer_mul"]
    assert model.output is doubled
    np.testing.assert_array_equal(model.predict(X), [[2.0] * 3, [10.0] * 3, [18.0] * 3])
    softmax = tf.keras.Model(inputs, tf.nn.softmax(hidden))
    np.testing.assert_allclose(softmax.predict(X), np.full((3, 3), 1 / 3), rtol=1e-6)
    model.compile("sgd", "mse")
    history = model.fit(X, np.zeros((3, 3), np.float32), epochs=2, verbose=0)
    assert history.history["loss"][1] < history.history["loss"][0]


def test_legacy_optimizer_updates_run_by_a_backend_function():
    K = tf.compat.v1.keras.backend
    inputs = tf.keras.Input((2,))
    dense = tf.keras.layers.Dense(1, kernel_initializer="zeros")
    target = K.placeholder((None, 1))
    loss = K.mean(K.square(dense(inputs) - target))
    updates = tf.keras.optimizers.legacy.SGD(0.1).get_updates(loss, dense.trainable_weights)
    assert len(updates) == 1 and isinstance(updates[0], tf.Operation)
    train = K.function([inputs, target], [loss], updates=updates)
    ones = np.ones((3, 1), np.float32)
    assert train([X, ones])[0] == 1.0
    np.testing.assert_allclose(train([X, ones])[0], 5.906666, rtol=1e-6)
    grads = K.function([inputs, target], K.gradients(loss, dense.trainable_weights))([X, ones])
    np.testing.assert_allclose(grads[0], [[-33.582226], [-45.395557]], rtol=1e-6)


def test_clear_session_starts_a_new_graph_and_session():
    model, _ = _functional()
    graph, session = tf.compat.v1.get_default_graph(), tf.compat.v1.keras.backend.get_session()
    tf.keras.backend.clear_session()
    assert tf.compat.v1.get_default_graph() is not graph
    new_session = tf.compat.v1.keras.backend.get_session()
    assert new_session is not session and new_session.graph is tf.compat.v1.get_default_graph()
    inputs = tf.keras.Input((2,))
    assert repr(inputs) == "<tf.Tensor 'input_1:0' shape=(None, 2) dtype=float32>"
    other = tf.keras.Model(inputs, tf.keras.layers.Dense(1, kernel_initializer="ones")(inputs))
    np.testing.assert_array_equal(other.predict(X), [[1.0], [5.0], [9.0]])

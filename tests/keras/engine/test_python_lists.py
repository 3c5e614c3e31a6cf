"""Python lists as `fit`, `evaluate` and `predict` data, as tf_keras takes them."""
import numpy as np
import pytest

import eagerflow as tf

keras = tf.keras
_RNG = np.random.default_rng(0)
X = _RNG.random((10, 3)).astype(np.float32)
Y = _RNG.integers(0, 2, 10)


def _model():
    model = keras.Sequential([keras.layers.Dense(2, input_shape=(3,), kernel_initializer="ones")])
    model.compile("sgd", keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    return model


def test_lists_train_evaluate_and_predict_as_arrays():
    from_lists, from_arrays = _model(), _model()
    history = from_lists.fit(X.tolist(), Y.tolist(), batch_size=4, epochs=2, verbose=0,
                             shuffle=False, validation_data=(X.tolist(), Y.tolist()))
    expected = from_arrays.fit(X, Y, batch_size=4, epochs=2, verbose=0, shuffle=False,
                               validation_data=(X, Y))
    np.testing.assert_allclose(history.history["loss"], expected.history["loss"], rtol=1e-6)
    np.testing.assert_allclose(history.history["val_loss"], expected.history["val_loss"],
                               rtol=1e-6)
    assert from_lists.evaluate(X.tolist(), Y.tolist(), verbose=0) == pytest.approx(
        from_arrays.evaluate(X, Y, verbose=0))
    predicted = from_lists.predict(X.tolist(), verbose=0)
    assert predicted.dtype == np.float32  # float64 lists become floatx
    np.testing.assert_allclose(predicted, from_arrays.predict(X, verbose=0), rtol=1e-6)
    np.testing.assert_allclose(from_lists.predict_on_batch(X.tolist()), predicted, rtol=1e-6)
    assert from_lists.train_on_batch(X.tolist(), Y.tolist()) == pytest.approx(
        from_arrays.train_on_batch(X, Y))
    assert from_lists.test_on_batch(X.tolist(), Y.tolist()) == pytest.approx(
        from_arrays.test_on_batch(X, Y))


def test_lists_of_numbers_tuples_and_sample_weights():
    model = keras.Sequential([keras.layers.Dense(1, input_shape=(1,))])
    model.compile("sgd", "mse")
    assert len(model.fit([1.0, 2.0, 3.0], [2.0, 4.0, 6.0], verbose=0).history["loss"]) == 1
    assert model.predict([1, 2, 3], verbose=0).shape == (3, 1)
    model = _model()
    model.fit(tuple(map(tuple, X.tolist())), tuple(Y.tolist()), verbose=0)
    model.fit(X, Y, sample_weight=[1.0] * 10, verbose=0)


def test_a_list_of_several_inputs_lists_is_one_array():
    a, b = keras.Input((3,)), keras.Input((2,))
    model = keras.Model([a, b], keras.layers.Dense(1)(keras.layers.Concatenate()([a, b])))
    model.compile("sgd", "mse")
    with pytest.raises(ValueError, match="inhomogeneous shape after 2 dimensions"):
        model.fit([X.tolist(), X[:, :2].tolist()], Y.tolist(), verbose=0)
    with pytest.raises(ValueError, match="inhomogeneous shape after 1 dimensions"):
        _model().fit([[1, 2, 3], [1, 2]], [0, 1], verbose=0)


def test_lists_beside_arrays_are_refused_as_tf_keras_refuses_them():
    with pytest.raises(ValueError, match=r"^Failed to find data adapter that can handle input: "
                       r"<class 'numpy.ndarray'>, \(<class 'list'> containing values of types "
                       r"\{\"<class 'int'>\"\}\)$"):
        _model().fit(X, Y.tolist(), verbose=0)
    with pytest.raises(ValueError, match=r"^Failed to find data adapter .* \(<class 'dict'> "
                       r"containing \{\"<class 'str'>\"\} keys and"):
        _model().fit({"x": X.tolist()}, Y.tolist(), verbose=0)


def test_cardinality_of_lists_is_checked():
    with pytest.raises(ValueError, match="Data cardinality is ambiguous"):
        _model().fit(X.tolist(), Y.tolist()[:5], verbose=0)


def test_a_layer_called_on_a_list_converts_each_number_on_its_own():
    doubled = keras.layers.Lambda(lambda t: t * 2)([1.0, 2.0])  # a list, repeated
    assert [t.numpy().item() for t in doubled] == [1.0, 2.0, 1.0, 2.0]
    assert all(isinstance(t, tf.Tensor) and t.shape == () for t in doubled)
    with pytest.raises(ValueError, match=r'^Layer "dense\w*" expects 1 input\(s\), but it '
                                         r'received 2 input tensors'):
        keras.layers.Dense(2)([[1.0, 2.0]])
    with pytest.raises(ValueError, match=r"Exception encountered when calling layer "
                                         r"'sequential\w*' \(type Sequential\)"):
        keras.Sequential([keras.layers.Dense(1)])([[1.0, 2.0]])
    with pytest.raises(ValueError, match=r"A merge layer should be called on a list of "
                                         r"inputs. Received: input_shape=\[\[\(\), \(\)\], "):
        keras.layers.Add()([[1.0, 2.0], [3.0, 4.0]])
    same = keras.layers.Lambda(lambda t: t)
    assert same("abc") == "abc" and isinstance(same(np.float32(3)), np.float32)
    mixed = same({"a": 1, "b": np.ones(2)})
    assert mixed["a"].dtype == tf.int32 and mixed["b"].dtype == tf.float32
    assert keras.layers.Add()([np.array([1.0, 2.0]), np.array([3.0, 4.0])]).numpy().tolist() \
        == [4.0, 6.0]

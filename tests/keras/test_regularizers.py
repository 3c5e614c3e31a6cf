"""tf.keras.regularizers: penalties against NumPy formulas, factors, errors, identifiers and
configs, as tf_keras 2.21 has them."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow.keras import regularizers

X = np.array([[1.0, -2.0, 0.5], [3.0, 4.0, -0.25]], np.float32)
F01 = float(np.float32(0.01))  # factors are stored as float32, as Keras stores them


def test_l1_l2_l1l2_values():
    x = tf.constant(X)
    np.testing.assert_allclose(regularizers.L1(0.3)(x).numpy(), 0.3 * np.abs(X).sum(),
                               rtol=1e-6)
    np.testing.assert_allclose(regularizers.L2(0.2)(x).numpy(), 0.2 * np.square(X).sum(),
                               rtol=1e-6)
    np.testing.assert_allclose(regularizers.L1L2(0.3, 0.2)(x).numpy(),
                               0.3 * np.abs(X).sum() + 0.2 * np.square(X).sum(), rtol=1e-6)
    penalty = regularizers.L1(0.3)(x)
    assert isinstance(penalty, tf.Tensor) and penalty.shape == () and penalty.dtype == tf.float32


def test_defaults():
    x = tf.constant(X)
    assert regularizers.L1().get_config() == {"l1": F01}
    assert regularizers.L2().get_config() == {"l2": F01}
    assert regularizers.L1L2().get_config() == {"l1": 0.0, "l2": 0.0}
    assert regularizers.l1_l2().get_config() == {"l1": F01, "l2": F01}
    assert regularizers.L1L2()(x).numpy() == 0.0
    assert regularizers.L1(None).get_config() == {"l1": F01}
    assert regularizers.L1L2(None, 0.5).get_config() == {"l1": 0.0, "l2": 0.5}
    np.testing.assert_allclose(regularizers.l1_l2()(x).numpy(),
                               0.01 * (np.abs(X).sum() + np.square(X).sum()), rtol=1e-6)


def test_factor_is_float32_and_result_takes_input_dtype():
    x = tf.constant([1.0, 2.0], tf.float64)
    penalty = regularizers.L1()(x)
    assert penalty.dtype == tf.float64
    assert penalty.numpy() == np.float64(np.float32(0.01)) * 3  # tf_keras: 0.029999999329447746
    assert regularizers.L1L2()(x).dtype == tf.float64
    assert regularizers.L2(0.5)(np.array([1.0, 2.0])).numpy() == 2.5  # arrays are accepted


def test_penalty_of_variable_and_its_gradient():
    w = tf.Variable(X)
    with tf.GradientTape() as tape:
        penalty = regularizers.L1L2(0.1, 0.5)(w)
    grad = tape.gradient(penalty, w)
    np.testing.assert_allclose(grad.numpy(), 0.1 * np.sign(X) + 2 * 0.5 * X, rtol=1e-6)


def test_legacy_l_argument_and_unknown_arguments():
    assert regularizers.L1(l=0.5).get_config() == {"l1": 0.5}
    assert regularizers.L2(l=0.25).get_config() == {"l2": 0.25}
    with pytest.raises(TypeError, match=r"Argument\(s\) not recognized: \{'k': 0.5\}"):
        regularizers.L1(k=0.5)


@pytest.mark.parametrize("value, message", [
    ("a", "Value a is not a valid regularization penalty number, expected an int or float "
          "value."),
    (np.float32(0.1), "expected an int or float value"),
    (float("nan"), "Value nan is not a valid regularization penalty number, an infinite "
                   "number or NaN are not valid values."),
    (float("inf"), "an infinite number or NaN")])
def test_invalid_factors(value, message):
    for make in (regularizers.L1, regularizers.L2, lambda v: regularizers.L1L2(l2=v),
                 regularizers.OrthogonalRegularizer):
        with pytest.raises(ValueError, match=message.replace(".", r"\.")):
            make(value)


def test_orthogonal_regularizer():
    def expected(m, factor, mode):
        m = m if mode == "rows" else m.T
        unit = m / np.linalg.norm(m, axis=1, keepdims=True)
        cosines = np.abs(unit @ unit.T)
        n = len(m)
        return factor * (cosines.sum() - np.trace(cosines)) / 2 / (n * (n - 1) / 2)

    m = np.random.default_rng(0).standard_normal((4, 3)).astype(np.float32)
    for mode in ("rows", "columns"):
        got = regularizers.OrthogonalRegularizer(0.3, mode=mode)(tf.constant(m)).numpy()
        np.testing.assert_allclose(got, expected(m, 0.3, mode), rtol=1e-5)
    assert regularizers.OrthogonalRegularizer(1.0)(tf.eye(3)).numpy() == 0.0
    # tf_keras's value for [[1, -2], [3, 4]], factor 0.1
    np.testing.assert_allclose(
        regularizers.OrthogonalRegularizer(0.1)(tf.constant([[1.0, -2.0], [3.0, 4.0]])).numpy(),
        0.04472136124968529, rtol=1e-6)


def test_orthogonal_regularizer_errors():
    with pytest.raises(ValueError, match=r"Inputs to OrthogonalRegularizer must have rank 2\. "
                                         r"Received: inputs.shape == \(2, 2, 2\)"):
        regularizers.OrthogonalRegularizer()(tf.ones((2, 2, 2)))
    with pytest.raises(ValueError, match=r'Expected one of \{"rows", "columns"\}\. '
                                         r"Received: mode=diag"):
        regularizers.OrthogonalRegularizer(mode="diag")


def test_base_class():
    assert regularizers.Regularizer()(tf.constant(X)) == 0.0
    with pytest.raises(NotImplementedError, match="does not implement get_config"):
        regularizers.Regularizer().get_config()

    class Sum(regularizers.Regularizer):
        def __init__(self, k=1.0):
            self.k = k

        def __call__(self, x):
            return self.k * tf.reduce_sum(x)

        def get_config(self):
            return {"k": self.k}

    assert Sum.from_config({"k": 2.0})(tf.constant([1.0, 2.0])).numpy() == 6.0


def test_public_names_match_tf_keras():
    expected = {"L1", "L1L2", "L2", "OrthogonalRegularizer", "Regularizer", "deserialize",
                "get", "l1", "l1_l2", "l2", "orthogonal_regularizer", "serialize"}
    assert {n for n in dir(regularizers) if not n.startswith("_")} == expected
    assert regularizers.l1 is regularizers.L1 and regularizers.l2 is regularizers.L2
    assert regularizers.orthogonal_regularizer is regularizers.OrthogonalRegularizer


@pytest.mark.parametrize("name, cls, config", [
    ("l1", "L1", {"l1": F01}), ("L1", "L1", {"l1": F01}), ("l2", "L2", {"l2": F01}),
    ("L2", "L2", {"l2": F01}), ("l1_l2", "L1L2", {"l1": F01, "l2": F01}),
    ("L1L2", "L1L2", {"l1": 0.0, "l2": 0.0}),
    ("orthogonal_regularizer", "OrthogonalRegularizer", {"factor": F01, "mode": "rows"})])
def test_get_string_identifiers(name, cls, config):
    reg = regularizers.get(name)
    assert type(reg) is getattr(regularizers, cls) and reg.get_config() == config


def test_get_other_identifiers():
    assert regularizers.get(None) is None
    assert regularizers.get(regularizers.L1) is regularizers.L1  # callables as they are
    reg = regularizers.L2(0.5)
    assert regularizers.get(reg) is reg
    assert regularizers.get({"class_name": "L1", "config": {"l1": 0.5}}).get_config() == \
        {"l1": 0.5}
    with pytest.raises(ValueError, match="Could not interpret regularizer identifier: 1"):
        regularizers.get(1)
    # as tf_keras: a name it does not know stands for itself, failing where it is called
    assert regularizers.get("foo") == "foo" == regularizers.deserialize("foo")
    layer = tf.keras.layers.Dense(1, kernel_regularizer="l3")
    layer(tf.ones([1, 2]))
    with pytest.raises(TypeError, match="'str' object is not callable"):
        layer.losses  # noqa: B018 (the penalty is computed as the losses are read)


@pytest.mark.parametrize("reg", [
    regularizers.L1(0.5), regularizers.L2(0.25), regularizers.L1L2(0.125, 0.5),
    regularizers.OrthogonalRegularizer(0.5, "columns")], ids=lambda r: type(r).__name__)
def test_config_round_trips(reg):
    config = reg.get_config()
    assert type(reg).from_config(config).get_config() == config
    serialized = regularizers.serialize(reg)
    assert serialized == {"module": "keras.regularizers", "class_name": type(reg).__name__,
                          "config": config, "registered_name": None}
    assert regularizers.deserialize(serialized).get_config() == config
    legacy = regularizers.serialize(reg, use_legacy_format=True)
    assert legacy == {"class_name": type(reg).__name__, "config": config}
    assert regularizers.get(legacy).get_config() == config


def test_serialize_warns_for_non_regularizers():
    def penalty(x):
        return tf.reduce_sum(x)
    with pytest.warns(UserWarning, match="`keras.regularizers.Regularizer`"):
        assert regularizers.serialize(penalty)["config"] == "penalty"
    assert regularizers.serialize(None) is None


def test_sequential_built_by_its_first_call_keeps_only_that_calls_activity_losses():
    dense = tf.keras.layers.Dense(2, kernel_initializer="ones", name="r",
                                  kernel_regularizer=tf.keras.regularizers.l2(0.1),
                                  activity_regularizer=tf.keras.regularizers.l1(0.01))
    x = tf.ones((3, 2))
    dense(x)
    model = tf.keras.Sequential([dense, tf.keras.layers.Dense(
        1, bias_regularizer="l1", bias_initializer="ones")])
    model(x)  # builds its graph, then runs on x
    # tf_keras: the activity loss of this call (0.01 * 2 * 2 * 3 / 3), then the weights'
    np.testing.assert_allclose([float(loss) for loss in model.losses], [0.04, 0.4, 0.01],
                               rtol=1e-5)

"""tf.keras.constraints: projections against NumPy formulas, the radial constraint, errors,
identifiers and configs, as tf_keras 2.21 has them."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow import errors
from eagerflow.keras import constraints

EPS = 1e-7  # backend.epsilon()
W = np.random.default_rng(0).standard_normal((3, 3, 4, 5)).astype(np.float32) * 2
M = np.array([[1.0, -2.0], [3.0, 4.0]], np.float32)


def norms(w, axis):
    axis = tuple(axis) if isinstance(axis, list) else axis
    return np.sqrt(np.sum(np.square(w), axis=axis, keepdims=True))


@pytest.mark.parametrize("w, axis", [(M, 0), (M, 1), (M, [0, 1]), (W, [0, 1, 2]), (W, 3)])
def test_max_norm(w, axis):
    n = norms(w, axis)
    expected = w * (np.clip(n, 0, 2.5) / (EPS + n))
    got = constraints.MaxNorm(2.5, axis=axis)(tf.constant(w))
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-5)
    assert np.all(norms(got.numpy(), axis) <= 2.5 + 1e-5)


def test_max_norm_matches_tf_keras():
    np.testing.assert_allclose(constraints.MaxNorm()(tf.constant(M)).numpy(),
                               [[0.6324555, -0.8944272], [1.8973665, 1.7888544]], rtol=1e-6)
    # a negative bound clips to 0, as Keras's backend.clip does
    np.testing.assert_array_equal(constraints.MaxNorm(-1.0)(tf.constant(M)).numpy(),
                                  np.zeros((2, 2)))


@pytest.mark.parametrize("w, axis", [(M, 0), (M, 1), (W, [0, 1, 2])])
def test_unit_norm(w, axis):
    got = constraints.UnitNorm(axis=axis)(tf.constant(w)).numpy()
    np.testing.assert_allclose(got, w / (EPS + norms(w, axis)), rtol=1e-5)
    np.testing.assert_allclose(norms(got, axis), 1.0, rtol=1e-5)


@pytest.mark.parametrize("rate", [1.0, 0.5, 0.0])
@pytest.mark.parametrize("w, axis", [(M, 0), (M, 1), (W, [0, 1, 2])])
def test_min_max_norm(w, axis, rate):
    lo, hi = 2.0, 4.0
    n = norms(w, axis)
    desired = rate * np.clip(n, lo, hi) + (1 - rate) * n
    got = constraints.MinMaxNorm(lo, hi, rate, axis)(tf.constant(w)).numpy()
    np.testing.assert_allclose(got, w * desired / (EPS + n), rtol=1e-5)


def test_non_neg():
    got = constraints.NonNeg()(tf.constant(M)).numpy()
    np.testing.assert_array_equal(got, np.maximum(M, 0))
    # tf_keras multiplies by a floatx mask: float64 weights are a dtype error
    with pytest.raises(errors.InvalidArgumentError, match="expected to be a double tensor"):
        constraints.NonNeg()(tf.constant([1.0, -1.0], tf.float64))


def test_constraints_on_variables():
    v = tf.Variable(M)
    np.testing.assert_allclose(constraints.MaxNorm(1.0)(v).numpy(),
                               constraints.MaxNorm(1.0)(tf.constant(M)).numpy())
    np.testing.assert_array_equal(constraints.NonNeg()(v).numpy(), np.maximum(M, 0))
    assert constraints.Constraint()(v) is v


def radial_expected(kernel):
    """Keras's radial projection of one square 2-D kernel, written out ring by ring."""
    k = len(kernel)
    half = k // 2
    out = np.empty_like(kernel)
    for p in range(k):
        for q in range(k):
            if k % 2:
                ring = max(abs(p - half), abs(q - half))
                src = half - 1 if ring == 0 else half + ring - 1
            else:
                ring = max(half - 1 - p, p - half, half - 1 - q, q - half)
                src = half - 1 if ring == 0 else half + ring
            out[p, q] = kernel[src, src]
    return out


@pytest.mark.parametrize("size", [2, 3, 4, 5, 6, 7])
def test_radial_constraint(size):
    w = np.random.default_rng(size).standard_normal((size, size, 2, 3)).astype(np.float32)
    got = constraints.RadialConstraint()(tf.constant(w)).numpy()
    assert got.shape == w.shape
    for c in range(2):
        for k in range(3):
            np.testing.assert_array_equal(got[:, :, c, k], radial_expected(w[:, :, c, k]))


def test_radial_constraint_matches_tf_keras():
    def radial(k):
        w = tf.reshape(tf.range(float(k * k)), (k, k, 1, 1))
        return tf.reshape(constraints.RadialConstraint()(w), (k, k)).numpy()
    np.testing.assert_array_equal(radial(3), [[4, 4, 4], [4, 0, 4], [4, 4, 4]])
    np.testing.assert_array_equal(radial(4), [[15, 15, 15, 15], [15, 5, 5, 15],
                                              [15, 5, 5, 15], [15, 15, 15, 15]])
    assert radial(5)[2, 2] == 6 and radial(5)[1, 2] == 12 and radial(5)[0, 0] == 18


def test_radial_constraint_errors():
    with pytest.raises(ValueError, match=r"The weight tensor must have rank 4\. Received "
                                         r"weight tensor with shape: \(2, 2\)"):
        constraints.RadialConstraint()(tf.constant(M))
    with pytest.raises(errors.InvalidArgumentError, match="Input to reshape"):
        constraints.RadialConstraint()(tf.zeros((3, 4, 1, 1)))  # kernels must be square


def test_public_names_match_tf_keras():
    expected = {"Constraint", "MaxNorm", "MinMaxNorm", "NonNeg", "RadialConstraint", "UnitNorm",
                "deserialize", "get", "max_norm", "min_max_norm", "non_neg",
                "radial_constraint", "serialize", "unit_norm"}
    assert {n for n in dir(constraints) if not n.startswith("_")} == expected
    assert constraints.max_norm is constraints.MaxNorm
    assert constraints.radial_constraint is constraints.RadialConstraint


@pytest.mark.parametrize("name, cls, config", [
    ("max_norm", "MaxNorm", {"max_value": 2, "axis": 0}),
    ("maxnorm", "MaxNorm", {"max_value": 2, "axis": 0}),
    ("MaxNorm", "MaxNorm", {"max_value": 2, "axis": 0}),
    ("non_neg", "NonNeg", {}), ("nonneg", "NonNeg", {}),
    ("unit_norm", "UnitNorm", {"axis": 0}), ("unitnorm", "UnitNorm", {"axis": 0}),
    ("min_max_norm", "MinMaxNorm", {"min_value": 0.0, "max_value": 1.0, "rate": 1.0,
                                    "axis": 0}),
    ("radial_constraint", "RadialConstraint", {})])
def test_get_string_identifiers(name, cls, config):
    constraint = constraints.get(name)
    assert type(constraint) is getattr(constraints, cls)
    assert constraint.get_config() == config


def test_get_other_identifiers():
    assert constraints.get(None) is None
    assert constraints.get(constraints.MaxNorm) is constraints.MaxNorm  # callables as they are
    c = constraints.UnitNorm(1)
    assert constraints.get(c) is c
    assert constraints.get({"class_name": "MaxNorm", "config": {"max_value": 3}}).max_value == 3
    with pytest.raises(ValueError, match="Could not interpret constraint function "
                                         "identifier: 1"):
        constraints.get(1)
    with pytest.raises(ValueError, match="Unknown constraint: 'foo'"):
        constraints.get("foo")


@pytest.mark.parametrize("constraint", [
    constraints.MaxNorm(3, axis=[0, 1]), constraints.NonNeg(), constraints.UnitNorm(axis=1),
    constraints.MinMaxNorm(0.5, 2.0, 0.25, 1), constraints.RadialConstraint()],
    ids=lambda c: type(c).__name__)
def test_config_round_trips(constraint):
    config = constraint.get_config()
    assert type(constraint).from_config(config).get_config() == config
    serialized = constraints.serialize(constraint)
    assert serialized == {"module": "keras.constraints",
                          "class_name": type(constraint).__name__, "config": config,
                          "registered_name": None}
    assert constraints.deserialize(serialized).get_config() == config
    legacy = constraints.serialize(constraint, use_legacy_format=True)
    assert legacy == {"class_name": type(constraint).__name__, "config": config}
    assert constraints.get(legacy).get_config() == config


def test_serialize_warns_for_non_constraints():
    def clip(w):
        return w
    with pytest.warns(UserWarning, match="`keras.constraints.Constraint`"):
        assert constraints.serialize(clip)["config"] == "clip"
    assert constraints.serialize(None) is None

"""tf.keras.losses: Keras 2's documented values, NumPy formulas, sample weights and
reductions, shapes, logits taken from softmax/sigmoid outputs, ignore_class, tf.function,
gradients, identifiers and configs, as tf_keras 2.21 has them."""
import warnings

import numpy as np
import pytest

import eagerflow as tf
from eagerflow.keras import activations, backend, losses

EPS = 1e-7
RNG = np.random.RandomState(0)
PROBS = RNG.uniform(0.05, 0.95, (4, 3)).astype(np.float32)
TARGETS = RNG.uniform(0.0, 1.0, (4, 3)).astype(np.float32)
LOGITS = (RNG.randn(4, 3) * 3).astype(np.float32)
CLASSES = np.array([0, 2, 1, 2])
ONE_HOT = np.eye(3, dtype=np.float32)[CLASSES]


def close(x, expected, rtol=1e-5, atol=1e-6):
    np.testing.assert_allclose(np.asarray(x), expected, rtol=rtol, atol=atol)


def softmax(x, axis=-1):
    e = np.exp(x - x.max(axis, keepdims=True))
    return e / e.sum(axis, keepdims=True)


def sigmoid(x):
    return 1 / (1 + np.exp(-x))


def clip(p):
    return np.clip(p, EPS, 1 - EPS)


# -- Keras's documented examples ----------------------------------------------------------------

Y_TRUE, Y_PRED = [[0., 1.], [0., 0.]], [[1., 1.], [1., 0.]]
SCORES = [[0.6, 0.4], [0.4, 0.6]]
THREE = ([[0, 1, 0], [0, 0, 1]], [[0.05, 0.95, 0], [0.1, 0.8, 0.1]])

# (class, y_true, y_pred, sample_weight): default, weighted, 'sum' and 'none' results
DOCUMENTED = [
    (losses.MeanSquaredError, Y_TRUE, Y_PRED, [0.7, 0.3], 0.5, 0.25, 1.0, [0.5, 0.5]),
    (losses.MeanAbsoluteError, Y_TRUE, Y_PRED, [0.7, 0.3], 0.5, 0.25, 1.0, [0.5, 0.5]),
    (losses.MeanAbsolutePercentageError, [[2., 1.], [2., 3.]], Y_PRED, [0.7, 0.3],
     50.0, 20.0, 100.0, [25.0, 75.0]),
    (losses.MeanSquaredLogarithmicError, Y_TRUE, Y_PRED, [0.7, 0.3],
     0.240226, 0.120113, 0.480453, [0.240226, 0.240226]),
    (losses.Poisson, Y_TRUE, [[1., 1.], [0., 0.]], [0.8, 0.2], 0.5, 0.4, 1.0, [1.0, 0.0]),
    (losses.LogCosh, Y_TRUE, [[1., 1.], [0., 0.]], [0.8, 0.2],
     0.108445, 0.086756, 0.21689, [0.21689, 0.0]),
    (losses.Hinge, Y_TRUE, SCORES, [1, 0], 1.3, 0.55, 2.6, [1.1, 1.5]),
    (losses.SquaredHinge, Y_TRUE, SCORES, [1, 0], 1.86, 0.73, 3.72, [1.46, 2.26]),
    (losses.CategoricalHinge, [[0, 1], [0, 0]], SCORES, [1, 0], 1.4, 0.6, 2.8, [1.2, 1.6]),
    (losses.KLDivergence, [[0, 1], [0, 0]], SCORES, [0.8, 0.2],
     0.458143, 0.366515, 0.916286, [0.916289, -3e-06]),
    (losses.Huber, [[0, 1], [0, 0]], SCORES, [1, 0], 0.155, 0.09, 0.31, [0.18, 0.13]),
    (losses.CategoricalCrossentropy, *THREE, tf.constant([0.3, 0.7]),
     1.176939, 0.813599, 2.353878, [0.051293, 2.302585]),
    (losses.CategoricalFocalCrossentropy, *THREE, tf.constant([0.3, 0.7]),
     0.233153, 0.163201, 0.466306, [3.2e-05, 0.466273]),
    (losses.SparseCategoricalCrossentropy, [1, 2], THREE[1], tf.constant([0.3, 0.7]),
     1.176939, 0.813599, 2.353878, [0.051293, 2.302585]),
]


@pytest.mark.parametrize("cls,y_true,y_pred,weight,mean,weighted,total,each", DOCUMENTED,
                         ids=[row[0].__name__ for row in DOCUMENTED])
def test_documented_examples(cls, y_true, y_pred, weight, mean, weighted, total, each):
    loss = cls()(y_true, y_pred)
    assert loss.dtype == tf.float32 and loss.shape == ()
    close(loss, mean)
    close(cls()(y_true, y_pred, sample_weight=weight), weighted)
    close(cls(reduction=losses.Reduction.SUM)(y_true, y_pred), total)
    none = cls(reduction=losses.Reduction.NONE)(y_true, y_pred)
    assert none.shape == (2,)
    close(none, each)


def test_cosine_similarity_documented_example():
    y_true, y_pred = [[0., 1.], [1., 1.]], [[1., 0.], [1., 1.]]
    close(losses.CosineSimilarity(axis=1)(y_true, y_pred), -0.5)
    close(losses.CosineSimilarity(axis=1)(y_true, y_pred, sample_weight=[0.8, 0.2]), -0.1)
    close(losses.CosineSimilarity(axis=1, reduction="sum")(y_true, y_pred), -1.0)
    close(losses.CosineSimilarity(axis=1, reduction="none")(y_true, y_pred), [0.0, -1.0])
    close(losses.cosine_similarity([[0., 1.], [1., 1.], [1., 1.]],
                                   [[1., 0.], [1., 1.], [-1., -1.]], axis=1), [0., -1., 1.])


def test_binary_crossentropy_documented_examples():
    bce = losses.BinaryCrossentropy(from_logits=True)
    close(bce([0, 1, 0, 0], [-18.6, 0.51, 2.94, -12.8]), 0.865458)
    y_true, logits = [[0, 1], [0, 0]], [[-18.6, 0.51], [2.94, -12.8]]
    close(bce(y_true, logits), 0.865458)
    close(bce(y_true, logits, sample_weight=[0.8, 0.2]), 0.243639)
    close(losses.BinaryCrossentropy(from_logits=True, reduction="sum")(y_true, logits), 1.730916)
    close(losses.BinaryCrossentropy(from_logits=True, reduction="none")(y_true, logits),
          [0.235157, 1.495759])
    close(losses.BinaryCrossentropy()([0, 1, 0, 0], [0.6, 0.3, 0.2, 0.8]), 0.988211)
    close(losses.binary_crossentropy([[0, 1], [0, 0]], SCORES), [0.916291, 0.713558])


def test_binary_focal_crossentropy_documented_examples():
    focal = losses.BinaryFocalCrossentropy
    y1, p1 = [0, 1, 0, 0], [-18.6, 0.51, 2.94, -12.8]
    y2, p2 = [[0, 1], [0, 0]], [[-18.6, 0.51], [2.94, -12.8]]
    close(focal(gamma=2, from_logits=True)(y1, p1), 0.691212)
    close(focal(apply_class_balancing=True, gamma=2, from_logits=True)(y1, p1), 0.510133)
    close(focal(gamma=3, from_logits=True)(y2, p2), 0.646995)
    close(focal(apply_class_balancing=True, gamma=3, from_logits=True)(y2, p2), 0.482141)
    close(focal(gamma=3, from_logits=True)(y2, p2, sample_weight=[0.8, 0.2]), 0.133125)
    close(focal(apply_class_balancing=True, gamma=3, from_logits=True)(
        y2, p2, sample_weight=[0.8, 0.2]), 0.09736)
    close(focal(gamma=4, from_logits=True, reduction="sum")(y2, p2), 1.221881)
    close(focal(gamma=5, from_logits=True, reduction="none")(y2, p2), [0.001748, 1.156103])
    close(focal(apply_class_balancing=True, gamma=5, from_logits=True, reduction="none")(
        y2, p2), [0.000437, 0.867077])
    close(losses.binary_focal_crossentropy([[0, 1], [0, 0]], SCORES, gamma=2),
          [0.329865, 0.205798])


def test_crossentropy_function_documented_examples():
    close(losses.categorical_crossentropy(*THREE), [0.051293, 2.302585])
    close(losses.sparse_categorical_crossentropy([1, 2], THREE[1]), [0.051293, 2.302585])
    close(losses.categorical_focal_crossentropy(
        [[0, 1, 0], [0, 0, 1]], [[0.05, 0.9, 0.05], [0.1, 0.85, 0.05]]), [0.000263, 0.675912])


# -- loss functions against NumPy formulas ----------------------------------------------------

def bce_numpy(y, p):
    p = clip(p)
    return -(y * np.log(p + EPS) + (1 - y) * np.log(1 - p + EPS))


def signed(y):
    return 2 * y - 1 if np.all((y == 0) | (y == 1)) else y


def huber_numpy(y, p, delta=1.0):
    err = np.abs(p - y)
    return np.where(err <= delta, 0.5 * err ** 2, delta * err - 0.5 * delta ** 2).mean(-1)


def cosine_numpy(y, p, axis=-1):
    unit = lambda v: v / np.sqrt(np.maximum((v * v).sum(axis, keepdims=True), 1e-12))  # noqa
    return -(unit(y) * unit(p)).sum(axis)


FORMULAS = {
    "mean_squared_error": lambda y, p: ((y - p) ** 2).mean(-1),
    "mean_absolute_error": lambda y, p: np.abs(y - p).mean(-1),
    "mean_absolute_percentage_error":
        lambda y, p: 100 * np.abs((y - p) / np.maximum(np.abs(y), EPS)).mean(-1),
    "mean_squared_logarithmic_error":
        lambda y, p: ((np.log(np.maximum(p, EPS) + 1) - np.log(np.maximum(y, EPS) + 1)) ** 2
                      ).mean(-1),
    "hinge": lambda y, p: np.maximum(1 - signed(y) * p, 0).mean(-1),
    "squared_hinge": lambda y, p: (np.maximum(1 - signed(y) * p, 0) ** 2).mean(-1),
    "categorical_hinge": lambda y, p: np.maximum(
        ((1 - y) * p).max(-1) - (y * p).sum(-1) + 1, 0),
    "huber": huber_numpy,
    "log_cosh": lambda y, p: np.log(np.cosh(p - y)).mean(-1),
    "kl_divergence": lambda y, p: (np.clip(y, EPS, 1) * np.log(
        np.clip(y, EPS, 1) / np.clip(p, EPS, 1))).sum(-1),
    "poisson": lambda y, p: (p - y * np.log(p + EPS)).mean(-1),
    "cosine_similarity": cosine_numpy,
    "binary_crossentropy": lambda y, p: bce_numpy(y, p).mean(-1),
    "categorical_crossentropy": lambda y, p: -(
        y * np.log(clip(p / p.sum(-1, keepdims=True)))).sum(-1),
}


@pytest.mark.parametrize("name", sorted(FORMULAS))
@pytest.mark.parametrize("labels", ["soft", "one_hot", "signed"])
def test_functions_match_numpy_formulas(name, labels):
    y = {"soft": TARGETS, "one_hot": ONE_HOT, "signed": 2 * ONE_HOT - 1}[labels]
    out = getattr(losses, name)(y, PROBS)
    assert out.shape == (4,) and out.dtype == tf.float32
    close(out, FORMULAS[name](y.astype(np.float64), PROBS.astype(np.float64)), rtol=2e-5)


def test_functions_keep_float64_and_cast_integer_labels():
    y, p = ONE_HOT.astype(np.float64), PROBS.astype(np.float64)
    for name in ("mean_squared_error", "log_cosh", "binary_crossentropy", "poisson"):
        out = getattr(losses, name)(y, p)
        assert out.dtype == tf.float64
        close(out, FORMULAS[name](y, p), rtol=1e-6)
    out = losses.mse(tf.constant([[0, 1, 1]]), tf.constant([[0.25, 0.5, 1.0]]))
    close(out, [(0.25 ** 2 + 0.5 ** 2) / 3])


def test_huber_delta_and_floatx():
    close(losses.huber(TARGETS, PROBS, delta=0.3), huber_numpy(TARGETS, PROBS, 0.3))
    close(losses.Huber(delta=0.3)(TARGETS, PROBS), huber_numpy(TARGETS, PROBS, 0.3).mean())
    # Huber computes in floatx, whatever its inputs
    assert losses.huber(TARGETS.astype(np.float64), PROBS.astype(np.float64)).dtype == tf.float32


def test_log_cosh_does_not_overflow():
    close(losses.log_cosh([[0.0]], [[200.0]]), [200.0 - np.log(2.0)], rtol=1e-6)


def test_hinge_keeps_labels_that_are_not_binary():
    y, p = np.array([[0.5, 1.0]], np.float32), np.array([[0.3, 0.2]], np.float32)
    close(losses.hinge(y, p), np.maximum(1 - y * p, 0).mean(-1))


def test_cosine_similarity_axis():
    close(losses.CosineSimilarity(axis=0, reduction="none")(TARGETS, PROBS),
          cosine_numpy(TARGETS, PROBS, axis=0))


def test_binary_crossentropy_from_logits_and_axis():
    expected = (np.maximum(LOGITS, 0) - LOGITS * ONE_HOT
                + np.log1p(np.exp(-np.abs(LOGITS)))).mean(-1)
    close(losses.binary_crossentropy(ONE_HOT, LOGITS, from_logits=True), expected)
    close(losses.binary_crossentropy(ONE_HOT, PROBS, axis=0),
          bce_numpy(ONE_HOT, PROBS).mean(0))


def test_label_smoothing():
    smooth = 0.2
    binary = ONE_HOT * (1 - smooth) + 0.5 * smooth
    close(losses.binary_crossentropy(ONE_HOT, PROBS, label_smoothing=smooth),
          bce_numpy(binary, PROBS).mean(-1))
    close(losses.BinaryCrossentropy(label_smoothing=smooth)(ONE_HOT, PROBS),
          bce_numpy(binary, PROBS).mean())
    categorical = ONE_HOT * (1 - smooth) + smooth / 3
    close(losses.categorical_crossentropy(ONE_HOT, LOGITS, from_logits=True,
                                          label_smoothing=smooth),
          -(categorical * np.log(softmax(LOGITS))).sum(-1))
    # the class count comes from `axis`
    close(losses.categorical_crossentropy(ONE_HOT.T, LOGITS.T, from_logits=True, axis=0,
                                          label_smoothing=smooth),
          -(categorical * np.log(softmax(LOGITS))).sum(-1))
    close(losses.categorical_crossentropy(ONE_HOT, PROBS, label_smoothing=tf.constant(0.0)),
          FORMULAS["categorical_crossentropy"](ONE_HOT, PROBS))


def test_categorical_crossentropy_from_logits_and_axis():
    expected = -(ONE_HOT * np.log(softmax(LOGITS))).sum(-1)
    close(losses.categorical_crossentropy(ONE_HOT, LOGITS, from_logits=True), expected)
    close(losses.CategoricalCrossentropy(from_logits=True)(ONE_HOT, LOGITS), expected.mean())
    close(losses.categorical_crossentropy(ONE_HOT.T, LOGITS.T, from_logits=True, axis=0),
          expected)


def test_sparse_categorical_crossentropy():
    expected = -np.log(softmax(LOGITS)[np.arange(4), CLASSES])
    close(losses.sparse_categorical_crossentropy(CLASSES, LOGITS, from_logits=True), expected)
    # float labels and labels of shape (batch, 1) are read as class indices
    close(losses.sparse_categorical_crossentropy(CLASSES.astype(np.float32), LOGITS,
                                                 from_logits=True), expected)
    column = losses.SparseCategoricalCrossentropy(from_logits=True, reduction="none")(
        tf.constant(CLASSES[:, None]), tf.constant(LOGITS))
    assert column.shape == (4,)
    close(column, expected)
    probs = PROBS / PROBS.sum(-1, keepdims=True)
    close(losses.sparse_categorical_crossentropy(CLASSES, probs),
          -np.log(clip(probs)[np.arange(4), CLASSES]))


def test_sparse_categorical_crossentropy_higher_rank_and_axis():
    logits = RNG.randn(2, 3, 4).astype(np.float32)
    labels = np.array([[0, 3, 1], [2, 2, 0]])
    expected = -np.log(np.take_along_axis(softmax(logits), labels[..., None], -1)[..., 0])
    close(losses.sparse_categorical_crossentropy(labels, logits, from_logits=True), expected)
    out = losses.sparse_categorical_crossentropy(labels[..., None], logits, from_logits=True)
    assert out.shape == (2, 3)
    close(out, expected)
    moved = np.moveaxis(logits, -1, 1)  # classes on axis 1
    close(losses.sparse_categorical_crossentropy(labels, moved, from_logits=True, axis=1),
          expected)


def test_focal_crossentropies_match_formulas():
    alpha, gamma = 0.4, 1.5
    probs = softmax(LOGITS)
    expected = (alpha * (1 - clip(probs)) ** gamma * -ONE_HOT * np.log(clip(probs))).sum(-1)
    close(losses.categorical_focal_crossentropy(ONE_HOT, LOGITS, alpha=alpha, gamma=gamma,
                                                from_logits=True), expected)
    p = sigmoid(LOGITS)
    p_t = ONE_HOT * p + (1 - ONE_HOT) * (1 - p)
    bce = np.maximum(LOGITS, 0) - LOGITS * ONE_HOT + np.log1p(np.exp(-np.abs(LOGITS)))
    weight = ONE_HOT * alpha + (1 - ONE_HOT) * (1 - alpha)
    close(losses.binary_focal_crossentropy(ONE_HOT, LOGITS, apply_class_balancing=True,
                                           alpha=alpha, gamma=gamma, from_logits=True),
          (weight * (1 - p_t) ** gamma * bce).mean(-1), rtol=1e-4)


# -- sample weights and reductions ------------------------------------------------------------

def per_sample_mse():
    return ((TARGETS - PROBS) ** 2).mean(-1)


@pytest.mark.parametrize("weight,expected", [
    (2.0, lambda l: 2 * l.mean()),
    ([1.0, 0.0, 2.0, 0.5], lambda l: (l * [1, 0, 2, 0.5]).mean()),
    (np.array([[1.0], [0.0], [2.0], [0.5]]), lambda l: (l * [1, 0, 2, 0.5]).mean()),
    # two ranks above the losses: no squeeze, the weights broadcast against them
    (np.array([[[1.0]], [[0.0]], [[2.0]], [[0.5]]]),
     lambda l: (np.reshape([1, 0, 2, 0.5], (4, 1, 1)) * l).mean()),
    (tf.constant([1, 2, 3, 4]), lambda l: (l * [1, 2, 3, 4]).mean()),
], ids=["scalar", "per_sample", "column", "rank3_broadcast", "int"])
def test_sample_weight_ranks(weight, expected):
    close(losses.MeanSquaredError()(TARGETS, PROBS, sample_weight=weight),
          expected(per_sample_mse()))


def test_sum_over_batch_size_divides_by_every_element():
    # zero weights still count: the sum is divided by the number of losses
    weights = np.array([[1., 0., 0.], [0., 0., 0.]])
    y, p = np.zeros((2, 3, 1), np.float32), np.full((2, 3, 1), 2.0, np.float32)
    close(losses.MeanSquaredError()(y, p, sample_weight=weights), 4.0 / 6)
    close(losses.MeanSquaredError(reduction="sum")(y, p, sample_weight=weights), 4.0)
    close(losses.MeanSquaredError(reduction="none")(y, p, sample_weight=weights),
          4.0 * weights)
    assert losses.MeanSquaredError()(y, p, sample_weight=[1., 0.]).numpy() == pytest.approx(2)


def test_weights_of_a_wrong_shape_raise():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Can not squeeze dim"):
        losses.MeanSquaredError()(TARGETS, PROBS, sample_weight=np.ones((4, 3)))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Incompatible shapes"):
        losses.MeanSquaredError()(TARGETS, PROBS, sample_weight=np.ones(5))


def test_empty_batch_costs_zero_and_integer_losses_stay_integers():
    empty = np.zeros((0, 2), np.float32)
    assert losses.MeanSquaredError()(empty, empty).numpy() == 0.0
    assert losses.MeanSquaredError(reduction="sum")(empty, empty).numpy() == 0.0
    out = losses.MeanSquaredError(reduction="sum")(tf.constant([[1, 2], [3, 3]]),
                                                   tf.constant([[2, 5], [0, 0]]))
    assert out.dtype == tf.int32 and out.numpy() == 14
    assert losses.MeanSquaredError()(np.array([[1, 2]]), np.array([[2, 5]])).numpy() == 5


def test_compute_weighted_loss():
    from tests.internals import compute_weighted_loss
    values = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    close(compute_weighted_loss(values), 2.5)
    close(compute_weighted_loss(values, [1.0, 0.0], "sum"), 3.0)
    close(compute_weighted_loss(values, [1.0, 0.0], "auto"), 0.75)
    with pytest.raises(ValueError, match="Invalid Reduction Key: mean"):
        compute_weighted_loss(values, reduction="mean")


def test_reduction_names_and_validation():
    assert losses.Reduction.all() == ("auto", "none", "sum", "sum_over_batch_size")
    assert losses.Reduction.SUM_OVER_BATCH_SIZE == "sum_over_batch_size"
    losses.Reduction.validate("none")
    message = ('Invalid Reduction Key: foo. Expected keys are '
               '"(\'auto\', \'none\', \'sum\', \'sum_over_batch_size\')"')
    with pytest.raises(ValueError) as info:
        losses.MeanSquaredError(reduction="foo")
    assert str(info.value) == message


# -- shapes ------------------------------------------------------------------------------------

def test_trailing_unit_axis_is_squeezed_for_tensors():
    y, p = tf.constant([1., 2., 3.]), tf.constant([[1.5], [2.], [4.]])
    close(losses.MeanSquaredError(reduction="none")(y, p), (0.25 + 1.0) / 3)
    close(losses.MeanSquaredError()(p, y), (0.25 + 1.0) / 3)


def test_numpy_inputs_broadcast_without_squeezing_as_keras_does():
    # Keras squeezes only when both are tensors; arrays of (n,) and (n, 1) broadcast
    y, p = np.array([1., 2., 3.]), np.array([[1.5], [2.], [4.]])
    out = losses.MeanSquaredError(reduction="none")(y, p)
    assert out.shape == (3,) and out.dtype == tf.float64
    close(out, ((p - y) ** 2).mean(-1))


def test_shape_mismatches_raise():
    with pytest.raises(ValueError, match=r"Shapes \(3, 2\) and \(3, 4\) are incompatible"):
        losses.CategoricalCrossentropy()(tf.ones((3, 2)), tf.ones((3, 4)))
    with pytest.raises(ValueError, match="`labels.shape` must equal `logits.shape` except"):
        losses.SparseCategoricalCrossentropy()(tf.constant([0, 1]), tf.ones((3, 4)))
    with pytest.raises(ValueError, match="`logits` and `labels` must have the same shape"):
        losses.BinaryCrossentropy(from_logits=True)(tf.ones((3, 2)), tf.ones((3, 4)))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Incompatible shapes: \[3,4\] vs. \[3,2\]"):
        losses.MeanSquaredError()(tf.ones((3, 2)), tf.ones((3, 4)))
    with pytest.raises(tf.errors.InvalidArgumentError, match="label value of 5"):
        losses.sparse_categorical_crossentropy([0, 5], LOGITS[:2], from_logits=True)


def test_argument_errors_and_warnings():
    with pytest.raises(ValueError, match="`axis` must be of type `int`"):
        losses.categorical_crossentropy(ONE_HOT, PROBS, axis=True)
    with pytest.warns(SyntaxWarning, match="Consider using 'binary_crossentropy'"):
        losses.categorical_crossentropy(np.ones((2, 1), np.float32), np.ones((2, 1), np.float32))
    with pytest.raises(NotImplementedError, match="Must be implemented in subclasses"):
        losses.Loss()([1.0], [2.0])


# -- ignore_class and masks --------------------------------------------------------------------

def test_ignore_class_zeroes_and_masks_out_labels():
    labels = np.array([0, -1, 1, 2])
    per_sample = -np.log(softmax(LOGITS)[np.arange(4), np.maximum(labels, 0)])
    per_sample[1] = 0.0
    none = losses.SparseCategoricalCrossentropy(from_logits=True, ignore_class=-1,
                                                reduction="none")(labels, LOGITS)
    close(none, per_sample)
    # the mean runs over the three valid labels only
    close(losses.SparseCategoricalCrossentropy(from_logits=True, ignore_class=-1)(
        labels, LOGITS), per_sample.sum() / 3)
    close(losses.SparseCategoricalCrossentropy(from_logits=True, ignore_class=-1,
                                               reduction="sum")(labels, LOGITS),
          per_sample.sum())
    weights = np.array([1., 2., 3., 4.])
    close(losses.SparseCategoricalCrossentropy(from_logits=True, ignore_class=-1)(
        labels, LOGITS, sample_weight=weights), (per_sample * weights).sum() / 3)
    function = losses.sparse_categorical_crossentropy(labels, LOGITS, from_logits=True,
                                                      ignore_class=-1)
    assert function._keras_mask.numpy().tolist() == [True, False, True, True]


def test_ignore_class_on_sequences_and_everything_ignored():
    logits = RNG.randn(2, 3, 4).astype(np.float32)
    labels = np.array([[0, 3, 1], [2, 0, 0]])
    out = losses.SparseCategoricalCrossentropy(from_logits=True, ignore_class=0,
                                               reduction="none")(labels, logits)
    expected = -np.log(np.take_along_axis(softmax(logits), labels[..., None], -1)[..., 0])
    close(out, np.where(labels == 0, 0.0, expected))
    close(losses.SparseCategoricalCrossentropy(from_logits=True, ignore_class=0)(
        labels, logits), expected[labels != 0].mean())
    everything = losses.SparseCategoricalCrossentropy(from_logits=True, ignore_class=0)(
        [0, 0], LOGITS[:2])
    assert np.isnan(everything.numpy())  # as Keras: 0 valid entries weigh 0/0


def test_mask_of_the_predictions_weighs_the_losses():
    y_pred = tf.constant(PROBS)
    y_pred._keras_mask = tf.constant([True, False, True, True])
    kept = per_sample_mse()[[0, 2, 3]]
    close(losses.MeanSquaredError()(TARGETS, y_pred), kept.mean())
    close(losses.MeanSquaredError(reduction="sum")(TARGETS, y_pred,
                                                   sample_weight=[1., 2., 3., 4.]),
          (kept * [1, 3, 4]).sum())


def test_masks_travel_on_tensors():
    from tests.internals import get_mask, set_mask

    values, mask = tf.constant([1.0, 2.0]), tf.constant([True, False])
    assert get_mask(values) is None
    set_mask(values, mask)
    assert get_mask(values) is mask


# -- logits behind softmax and sigmoid outputs -------------------------------------------------

def test_crossentropies_use_the_logits_of_keras_activations():
    scores = tf.constant([[100.0, 0.0]])
    # from clipped probabilities the loss would stop at -log(epsilon) = 16.1
    close(losses.categorical_crossentropy([[0., 1.]], activations.softmax(scores)), [100.0])
    close(losses.sparse_categorical_crossentropy([1], activations.softmax(scores)), [100.0])
    close(losses.binary_crossentropy([[0.]], activations.sigmoid(tf.constant([[100.0]]))),
          [100.0])
    close(losses.categorical_crossentropy([[0., 1.]], tf.nn.softmax(scores)), [-np.log(EPS)])
    with pytest.warns(UserWarning, match="received `from_logits=True`, but the `output`"):
        losses.categorical_crossentropy([[0., 1.]], activations.softmax(scores),
                                        from_logits=True)


def test_crossentropies_use_the_logits_of_softmax_ops_in_graphs():
    @tf.function
    def crossentropies(x):
        return (losses.categorical_crossentropy([[0., 1.]], tf.nn.softmax(x)),
                losses.binary_crossentropy([[0.]], tf.sigmoid(x[:, :1])),
                losses.SparseCategoricalCrossentropy()([1], activations.softmax(x)),
                losses.categorical_crossentropy([[0., 0.], [1., 1.]], tf.nn.softmax(
                    tf.transpose(tf.concat([x, x], 0)), axis=0), axis=0))

    cce, bce, scce, over_rows = crossentropies(tf.constant([[100.0, 0.0]]))
    close(cce, [100.0])
    close(bce, [100.0])
    close(scce, 100.0)
    close(over_rows, [-np.log(EPS)] * 2)  # not the last axis: the probabilities are used


# -- tf.function and gradients -----------------------------------------------------------------

def test_losses_trace_into_functions_with_the_eager_values():
    cases = [
        (losses.MeanSquaredError(), TARGETS, PROBS, [1., 2., 0., 1.]),
        (losses.CategoricalCrossentropy(label_smoothing=0.1), ONE_HOT, PROBS, None),
        (losses.SparseCategoricalCrossentropy(from_logits=True, ignore_class=1),
         CLASSES.astype(np.int32), LOGITS, None),
        (losses.Hinge(), ONE_HOT, PROBS, None),
        (losses.BinaryFocalCrossentropy(apply_class_balancing=True), ONE_HOT, PROBS, 2.0),
    ]
    traced = tf.function(lambda loss, y, p, w: loss(y, p, sample_weight=w))
    for loss, y, p, w in cases:
        y, p = tf.constant(y), tf.constant(p)
        close(traced(loss, y, p, w), loss(y, p, sample_weight=w), rtol=1e-6)


def test_losses_trace_with_unknown_dimensions():
    squeeze = tf.function(lambda y, p: losses.MeanSquaredError(reduction="none")(y, p),
                          input_signature=[tf.TensorSpec([None]), tf.TensorSpec([None, 1])])
    close(squeeze(tf.constant([1., 2.]), tf.constant([[0.], [4.]])), 2.5)
    smoothed = tf.function(
        lambda y, p: losses.CategoricalCrossentropy(label_smoothing=0.2)(y, p),
        input_signature=[tf.TensorSpec([None, None]), tf.TensorSpec([None, None])])
    close(smoothed(tf.constant(ONE_HOT), tf.constant(PROBS)),
          losses.CategoricalCrossentropy(label_smoothing=0.2)(ONE_HOT, PROBS))
    logits = RNG.randn(2, 3, 4).astype(np.float32)
    labels = np.array([[[0], [3], [1]], [[2], [0], [0]]], np.int32)
    sequences = tf.function(
        lambda y, p: losses.SparseCategoricalCrossentropy(
            from_logits=True, ignore_class=0, reduction="none")(y, p),
        input_signature=[tf.TensorSpec([None, None, 1], tf.int32),
                         tf.TensorSpec([None, None, None])])
    close(sequences(tf.constant(labels), tf.constant(logits)),
          losses.SparseCategoricalCrossentropy(from_logits=True, ignore_class=0,
                                               reduction="none")(labels, logits))
    masked_mean = tf.function(
        lambda y, p: losses.SparseCategoricalCrossentropy(from_logits=True, ignore_class=-1)(
            y, p), input_signature=[tf.TensorSpec([None], tf.int32),
                                    tf.TensorSpec([None, None])])
    close(masked_mean(tf.constant([0, -1, 2], tf.int32), tf.constant(LOGITS[:3])),
          losses.SparseCategoricalCrossentropy(from_logits=True, ignore_class=-1)(
              [0, -1, 2], LOGITS[:3]))


def test_user_losses_get_autograph_in_functions():
    class CappedError(losses.Loss):
        def call(self, y_true, y_pred):
            error = tf.reduce_mean(tf.abs(y_true - y_pred), axis=-1)
            if tf.reduce_sum(error) > 1.0:
                error = error * 0.0
            return error

    traced = tf.function(lambda y, p: CappedError()(y, p))
    close(traced(tf.constant([[0., 1.]]), tf.constant([[0.2, 1.]])), 0.1)
    close(traced(tf.constant([[0., 1.]]), tf.constant([[5., 1.]])), 0.0)


def gradient(loss, y_true, y_pred):
    x = tf.Variable(y_pred)
    with tf.GradientTape() as tape:
        value = loss(y_true, x)
    return tape.gradient(value, x).numpy()


def test_gradients_match_analytic_formulas():
    n = LOGITS.size
    close(gradient(losses.MeanSquaredError(), TARGETS, PROBS), 2 * (PROBS - TARGETS) / n)
    close(gradient(losses.CategoricalCrossentropy(from_logits=True), ONE_HOT, LOGITS),
          (softmax(LOGITS) - ONE_HOT) / 4)
    close(gradient(losses.SparseCategoricalCrossentropy(from_logits=True), CLASSES, LOGITS),
          (softmax(LOGITS) - ONE_HOT) / 4)
    close(gradient(losses.BinaryCrossentropy(from_logits=True), ONE_HOT, LOGITS),
          (sigmoid(LOGITS) - ONE_HOT) / n)
    ignored = np.array([0, 1, 1, 2])
    expected = (softmax(LOGITS) - ONE_HOT) / 2
    expected[1:3] = 0.0  # two valid labels; the ignored ones get no gradient
    close(gradient(losses.SparseCategoricalCrossentropy(from_logits=True, ignore_class=1),
                   ignored, LOGITS), expected)


@pytest.mark.parametrize("loss", [losses.Huber(delta=0.5), losses.LogCosh(),
                                  losses.CategoricalFocalCrossentropy(),
                                  losses.KLDivergence(), losses.CosineSimilarity()],
                         ids=lambda loss: type(loss).__name__)
def test_gradients_match_finite_differences(loss):
    y, p = TARGETS.astype(np.float64), PROBS.astype(np.float64)
    if isinstance(loss, losses.Huber):  # Huber computes in floatx
        backend.set_floatx("float64")
    try:
        analytic = gradient(loss, y, p)
        numeric = np.zeros_like(p)
        h = 1e-6
        for index in np.ndindex(p.shape):
            step = np.zeros_like(p)
            step[index] = h
            numeric[index] = (loss(y, p + step).numpy() - loss(y, p - step).numpy()) / (2 * h)
    finally:
        backend.set_floatx("float32")
    np.testing.assert_allclose(analytic, numeric, rtol=1e-5, atol=1e-8)


# -- identifiers and configs -------------------------------------------------------------------

ALIASES = {
    "mse": "mean_squared_error", "MSE": "mean_squared_error", "mae": "mean_absolute_error",
    "MAE": "mean_absolute_error", "mape": "mean_absolute_percentage_error",
    "MAPE": "mean_absolute_percentage_error", "msle": "mean_squared_logarithmic_error",
    "MSLE": "mean_squared_logarithmic_error", "kld": "kl_divergence", "KLD": "kl_divergence",
    "kullback_leibler_divergence": "kl_divergence", "logcosh": "log_cosh", "huber": "huber",
    "huber_loss": "huber", "bce": "binary_crossentropy", "BCE": "binary_crossentropy",
    "categorical_crossentropy": "categorical_crossentropy",
    "sparse_categorical_crossentropy": "sparse_categorical_crossentropy",
    "binary_focal_crossentropy": "binary_focal_crossentropy",
    "categorical_focal_crossentropy": "categorical_focal_crossentropy",
    "categorical_hinge": "categorical_hinge", "squared_hinge": "squared_hinge",
    "hinge": "hinge", "poisson": "poisson", "cosine_similarity": "cosine_similarity",
}


def test_string_identifiers_and_aliases():
    for alias, name in ALIASES.items():
        fn = losses.get(alias)
        assert fn.__name__ == name and fn is getattr(losses, name, fn)
    assert losses.mse is losses.MSE is losses.mean_squared_error
    assert losses.kld is losses.kullback_leibler_divergence is losses.kl_divergence
    loss = losses.get("CategoricalCrossentropy")
    assert isinstance(loss, losses.CategoricalCrossentropy)
    assert loss.name == "categorical_crossentropy" and loss.reduction == "auto"
    assert losses.get(None) is None
    assert losses.get(losses.mae) is losses.mae
    with pytest.raises(ValueError, match="Unknown loss function: 'foo'. Please ensure"):
        losses.get("foo")
    with pytest.raises(ValueError, match="Could not interpret loss function identifier: 3"):
        losses.get(3)


def test_default_names_and_attributes():
    names = {losses.MeanSquaredError: "mean_squared_error", losses.LogCosh: "log_cosh",
             losses.KLDivergence: "kl_divergence", losses.Huber: "huber_loss",
             losses.CosineSimilarity: "cosine_similarity", losses.Poisson: "poisson",
             losses.MeanAbsolutePercentageError: "mean_absolute_percentage_error"}
    for cls, name in names.items():
        assert cls().name == name
    assert losses.BinaryCrossentropy(from_logits=True).from_logits is True
    focal = losses.BinaryFocalCrossentropy(apply_class_balancing=True, alpha=0.3, gamma=1.0)
    assert (focal.apply_class_balancing, focal.alpha, focal.gamma) == (True, 0.3, 1.0)


def test_configs_are_keras_configs():
    assert losses.serialize(losses.MeanSquaredError()) == {
        "module": "keras.losses", "class_name": "MeanSquaredError",
        "config": {"reduction": "auto", "name": "mean_squared_error",
                   "fn": "mean_squared_error"}, "registered_name": None}
    assert losses.BinaryFocalCrossentropy().get_config() == {
        "reduction": "auto", "name": "binary_focal_crossentropy",
        "apply_class_balancing": False, "alpha": 0.25, "gamma": 2.0, "from_logits": False,
        "label_smoothing": 0.0, "axis": -1, "fn": "binary_focal_crossentropy"}
    assert list(losses.SparseCategoricalCrossentropy().get_config()) == [
        "reduction", "name", "from_logits", "ignore_class", "fn"]
    assert losses.Huber(delta=tf.constant(2.0)).get_config()["delta"] == 2.0
    assert losses.serialize(losses.Hinge(), use_legacy_format=True) == {
        "class_name": "Hinge", "config": {"reduction": "auto", "name": "hinge", "fn": "hinge"}}
    with pytest.warns(UserWarning, match="should only be used for objects of type"):
        assert losses.serialize(losses.mse)["config"] == "mean_squared_error"


ROUND_TRIPS = [
    losses.BinaryCrossentropy(from_logits=True, label_smoothing=0.1, axis=0, reduction="sum"),
    losses.BinaryFocalCrossentropy(apply_class_balancing=True, alpha=0.4, gamma=3.0),
    losses.CategoricalCrossentropy(label_smoothing=0.2, name="cce"),
    losses.CategoricalFocalCrossentropy(alpha=0.5, gamma=1.0, from_logits=True),
    losses.SparseCategoricalCrossentropy(from_logits=True, ignore_class=-1, reduction="none"),
    losses.CosineSimilarity(axis=0), losses.Huber(delta=0.5), losses.Hinge(),
    losses.SquaredHinge(), losses.CategoricalHinge(), losses.KLDivergence(), losses.LogCosh(),
    losses.MeanAbsoluteError(), losses.MeanAbsolutePercentageError(),
    losses.MeanSquaredError(), losses.MeanSquaredLogarithmicError(), losses.Poisson(),
]


@pytest.mark.parametrize("loss", ROUND_TRIPS, ids=lambda loss: type(loss).__name__)
def test_serialization_round_trips(loss):
    restored = losses.deserialize(losses.serialize(loss))
    assert type(restored) is type(loss)
    assert restored.get_config() == loss.get_config()
    y = ONE_HOT if not isinstance(loss, losses.SparseCategoricalCrossentropy) else CLASSES
    close(restored(y, PROBS), loss(y, PROBS))
    assert type(losses.get(losses.serialize(loss))) is type(loss)
    assert type(type(loss).from_config(loss.get_config())) is type(loss)


def test_loss_function_wrapper_config_names_its_function():
    from tests.internals import LossFunctionWrapper
    wrapped = LossFunctionWrapper(losses.huber, name="h", delta=0.5)
    assert wrapped.get_config() == {"reduction": "auto", "name": "h", "delta": 0.5,
                                    "fn": "huber"}
    restored = LossFunctionWrapper.from_config(wrapped.get_config())
    assert restored.fn is losses.huber
    close(restored(TARGETS, PROBS), huber_numpy(TARGETS, PROBS, 0.5).mean())


def test_registered_custom_losses_resolve():
    @tf.keras.saving.register_keras_serializable(package="test_losses")
    def doubled_mae(y_true, y_pred):
        return 2 * losses.mae(y_true, y_pred)

    assert losses.get("test_losses>doubled_mae") is doubled_mae
    assert losses.deserialize("my_mae", custom_objects={"my_mae": doubled_mae}) is doubled_mae
    with tf.keras.saving.custom_object_scope({"scoped": losses.Huber}):
        assert isinstance(losses.get("scoped"), losses.Huber)


def test_public_names_match_tf_keras():
    names = """BinaryCrossentropy BinaryFocalCrossentropy CategoricalCrossentropy
        CategoricalFocalCrossentropy CategoricalHinge CosineSimilarity Hinge Huber KLD
        KLDivergence LogCosh Loss MAE MAPE MSE MSLE MeanAbsoluteError
        MeanAbsolutePercentageError MeanSquaredError MeanSquaredLogarithmicError Poisson
        Reduction SparseCategoricalCrossentropy SquaredHinge binary_crossentropy
        binary_focal_crossentropy categorical_crossentropy categorical_focal_crossentropy
        categorical_hinge cosine_similarity deserialize get hinge huber kl_divergence kld
        kullback_leibler_divergence log_cosh logcosh mae mape mean_absolute_error
        mean_absolute_percentage_error mean_squared_error mean_squared_logarithmic_error mse
        msle poisson serialize sparse_categorical_crossentropy squared_hinge""".split()
    assert sorted(n for n in dir(losses) if not n.startswith("_")) == sorted(names)


def test_no_warnings_on_the_common_paths():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        losses.SparseCategoricalCrossentropy(from_logits=True)(CLASSES, LOGITS)
        losses.CategoricalCrossentropy()(ONE_HOT, activations.softmax(LOGITS))


def test_serialize_writes_a_function_as_a_config_naming_it():
    import warnings  # noqa: PLC0415
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (tf_keras warns: not a Loss instance)
        config = tf.keras.losses.serialize(tf.keras.losses.mean_squared_error)
        legacy = tf.keras.losses.serialize(tf.keras.losses.mean_squared_error,
                                           use_legacy_format=True)
    assert config == {"module": "builtins", "class_name": "function",
                      "config": "mean_squared_error", "registered_name": "function"}
    assert legacy == "mean_squared_error"
    assert tf.keras.losses.deserialize(config) is tf.keras.losses.mean_squared_error


def test_losses_without_a_ragged_version_raise_tfs_error_for_ragged_inputs():
    # (TF 2.21: an eager ValueError naming the failed len(); a TypeError when traced)
    yt = tf.ragged.constant([[[1., 0.]], [[0., 1.], [1., 0.]]], ragged_rank=1)
    yp = tf.ragged.constant([[[0.6, 0.4]], [[0.7, 0.3], [0.2, 0.8]]], ragged_rank=1)
    for loss in [losses.KLDivergence(), losses.Hinge(), losses.Poisson(), losses.LogCosh(),
                 losses.CosineSimilarity(), losses.CategoricalHinge()]:
        with pytest.raises(ValueError, match="object of type 'RaggedTensor' has no len"):
            loss(yt, yp)
    with pytest.raises(ValueError, match="has no len"):
        losses.kl_divergence(yt, yp)
    with pytest.raises(TypeError, match="Failed to convert elements of"):
        tf.function(lambda a, b: losses.KLDivergence()(a, b))(yt, yp)


def test_binary_crossentropy_of_saturated_probabilities_in_a_function_as_tfs():
    # (TF 2.21: in a function log(1 - p + eps) runs as log((1 + eps) - p), eps folded into 1
    # first, so p = 1 gives -log(2.38e-7), not eagerly's -log(2.19e-7))
    y = tf.constant([[1., 0., 1., 0., 1.]])
    p = tf.Variable([[0., 0., 1., 1., 0.5]])
    assert losses.BinaryCrossentropy()(y, p).numpy() == pytest.approx(6.290267, rel=1e-6)
    assert tf.function(lambda: losses.BinaryCrossentropy()(y, p))().numpy() == \
        pytest.approx(6.273467, rel=1e-6)
    close(tf.function(lambda: backend.binary_crossentropy(y, p))(),
          [[15.424949, 0.0, 0.0, 15.249238, 0.693147]])


@pytest.mark.parametrize("nested", [False, True])
def test_crossentropy_of_a_sigmoid_layer_output_in_a_model_being_built(nested):
    # (the old-style VAE: add_loss of a crossentropy of a decoder's sigmoid output; the
    # activation's logits are no layer's output, so the loss is built from the probabilities)
    inputs = tf.keras.Input((4,))
    dense = tf.keras.layers.Dense(4, activation="sigmoid",
                                  kernel_initializer=tf.keras.initializers.Constant(0.3))
    if nested:
        inner = tf.keras.Input((4,))
        outputs = tf.keras.Model(inner, dense(inner))(inputs)
    else:
        outputs = dense(inputs)
    model = tf.keras.Model(inputs, outputs)
    model.add_loss(tf.keras.backend.mean(tf.keras.losses.binary_crossentropy(inputs, outputs)))
    model.compile(optimizer="sgd")
    x = np.random.default_rng(0).uniform(size=(6, 4)).astype(np.float32)
    p = np.clip(model.predict(x, verbose=0), 1e-7, 1 - 1e-7)
    expected = -np.mean(x * np.log(p + 1e-7) + (1 - x) * np.log(1 - p + 1e-7))
    np.testing.assert_allclose(model.evaluate(x, verbose=0), expected, rtol=1e-5)

"""tf.keras.metrics: results against tf_keras 2.21 (its documented examples and values
computed by running it), NumPy formulas, state handling eagerly and inside `tf.function`,
configs, errors and identifiers."""
import copy

import numpy as np
import pytest

import eagerflow as tf
from eagerflow.keras import backend, metrics as public
from eagerflow.keras.layers import Layer
from tests.internals import confusion_metrics, metrics

M = metrics


def _run(metric, steps):
    """The result after each ``(y_true, y_pred, sample_weight)`` step (``y_pred`` None:
    ``update_state(values, sample_weight)``)."""
    out = []
    for y_true, y_pred, weights in steps:
        if y_pred is None:
            metric.update_state(y_true, sample_weight=weights)
        else:
            metric.update_state(y_true, y_pred, sample_weight=weights)
        out.append(metric.result().numpy())
    return out


# ----------------------------------------------------------------------------- documented

# Keras's documented results: the examples of tf_keras 2.21's metric docstrings, as
# (metric, y_true, y_pred, result, sample_weight, weighted result). y_pred None: Mean-like.
DOCUMENTED = [
    ("AUC(num_thresholds=3)", [0, 0, 1, 1], [0, 0.5, 0.3, 0.9], 0.75, [1, 0, 0, 1], 1.0),
    ("Accuracy()", [[1], [2], [3], [4]], [[0], [2], [3], [4]], 0.75, [1, 1, 0, 0], 0.5),
    ("BinaryAccuracy()", [[1], [1], [0], [0]], [[0.98], [1], [0], [0.6]], 0.75, [1, 0, 0, 1],
     0.5),
    ("BinaryCrossentropy()", [[0, 1], [0, 0]], [[0.6, 0.4], [0.4, 0.6]], 0.81492424, [1, 0],
     0.9162905),
    ("BinaryIoU(target_class_ids=[0, 1], threshold=0.3)", [0, 1, 0, 1], [0.1, 0.2, 0.4, 0.7],
     0.33333334, [0.2, 0.3, 0.4, 0.1], 0.17361112),
    ("CategoricalAccuracy()", [[0, 0, 1], [0, 1, 0]], [[0.1, 0.9, 0.8], [0.05, 0.95, 0]], 0.5,
     [0.7, 0.3], 0.3),
    ("CategoricalCrossentropy()", [[0, 1, 0], [0, 0, 1]], [[0.05, 0.95, 0], [0.1, 0.8, 0.1]],
     1.1769392, [0.3, 0.7], 1.6271976),
    ("CategoricalHinge()", [[0, 1], [0, 0]], [[0.6, 0.4], [0.4, 0.6]], 1.4000001, [1, 0], 1.2),
    ("CosineSimilarity(axis=1)", [[0., 1.], [1., 1.]], [[1., 0.], [1., 1.]], 0.49999997,
     [0.3, 0.7], 0.6999999),
    ("FalseNegatives()", [0, 1, 1, 1], [0, 1, 0, 0], 2.0, [0, 0, 1, 0], 1.0),
    ("FalsePositives()", [0, 1, 0, 0], [0, 0, 1, 1], 2.0, [0, 0, 1, 0], 1.0),
    ("Hinge()", [[0, 1], [0, 0]], [[0.6, 0.4], [0.4, 0.6]], 1.3, [1, 0], 1.1),
    ("IoU(num_classes=2, target_class_ids=[0])", [0, 0, 1, 1], [0, 1, 0, 1], 0.33333334,
     [0.3, 0.3, 0.3, 0.1], 0.33333334),
    ("KLDivergence()", [[0, 1], [0, 0]], [[0.6, 0.4], [0.4, 0.6]], 0.45814306, [1, 0],
     0.9162892),
    ("LogCoshError()", [[0, 1], [0, 0]], [[1, 1], [0, 0]], 0.10844523, [1, 0], 0.21689045),
    ("Mean()", [1, 3, 5, 7], None, 4.0, [1, 1, 0, 0], 2.0),
    ("MeanAbsoluteError()", [[0, 1], [0, 0]], [[1, 1], [0, 0]], 0.25, [1, 0], 0.5),
    ("MeanAbsolutePercentageError()", [[0, 1], [0, 0]], [[1, 1], [0, 0]], 250000000.0, [1, 0],
     500000000.0),
    ("MeanIoU(num_classes=2)", [0, 0, 1, 1], [0, 1, 0, 1], 0.33333334, [0.3, 0.3, 0.3, 0.1],
     0.23809525),
    ("MeanSquaredError()", [[0, 1], [0, 0]], [[1, 1], [0, 0]], 0.25, [1, 0], 0.5),
    ("MeanSquaredLogarithmicError()", [[0, 1], [0, 0]], [[1, 1], [0, 0]], 0.12011322, [1, 0],
     0.24022643),
    ("Poisson()", [[0, 1], [0, 0]], [[1, 1], [0, 0]], 0.49999997, [1, 0], 0.99999994),
    ("Precision()", [0, 1, 1, 1], [1, 0, 1, 1], 0.6666667, [0, 0, 1, 0], 1.0),
    ("PrecisionAtRecall(0.5)", [0, 0, 0, 1, 1], [0, 0.3, 0.8, 0.3, 0.8], 0.5, [2, 2, 2, 1, 1],
     0.33333333),
    ("Recall()", [0, 1, 1, 1], [1, 0, 1, 1], 0.6666667, [0, 0, 1, 0], 1.0),
    ("RecallAtPrecision(0.8)", [0, 0, 1, 1], [0, 0.5, 0.3, 0.9], 0.5, [1, 0, 0, 1], 1.0),
    ("RootMeanSquaredError()", [[0, 1], [0, 0]], [[1, 1], [0, 0]], 0.5, [1, 0], 0.70710677),
    ("SensitivityAtSpecificity(0.5)", [0, 0, 0, 1, 1], [0, 0.3, 0.8, 0.3, 0.8], 0.5,
     [1, 1, 2, 2, 1], 0.333333),
    ("SparseCategoricalAccuracy()", [[2], [1]], [[0.1, 0.6, 0.3], [0.05, 0.95, 0]], 0.5,
     [0.7, 0.3], 0.3),
    ("SparseCategoricalCrossentropy()", [1, 2], [[0.05, 0.95, 0], [0.1, 0.8, 0.1]], 1.1769392,
     [0.3, 0.7], 1.6271976),
    ("SparseTopKCategoricalAccuracy(k=1)", [2, 1], [[0.1, 0.9, 0.8], [0.05, 0.95, 0]], 0.5,
     [0.7, 0.3], 0.3),
    ("SpecificityAtSensitivity(0.5)", [0, 0, 0, 1, 1], [0, 0.3, 0.8, 0.3, 0.8], 0.66666667,
     [1, 1, 2, 2, 2], 0.5),
    ("SquaredHinge()", [[0, 1], [0, 0]], [[0.6, 0.4], [0.4, 0.6]], 1.86, [1, 0], 1.46),
    ("TopKCategoricalAccuracy(k=1)", [[0, 0, 1], [0, 1, 0]], [[0.1, 0.9, 0.8], [0.05, 0.95, 0]],
     0.5, [0.7, 0.3], 0.3),
    ("TrueNegatives()", [0, 1, 0, 0], [1, 1, 0, 0], 2.0, [0, 0, 1, 0], 1.0),
    ("TruePositives()", [0, 1, 1, 1], [1, 0, 1, 1], 2.0, [0, 0, 1, 0], 1.0),
]


@pytest.mark.parametrize("ctor,y_true,y_pred,expected,weights,weighted", DOCUMENTED,
                         ids=[case[0] for case in DOCUMENTED])
def test_documented_examples(ctor, y_true, y_pred, expected, weights, weighted):
    metric = eval(ctor, vars(M))
    # the documented values are rounded to 6 or more digits
    assert _run(metric, [(y_true, y_pred, None)])[0] == pytest.approx(expected, rel=1e-5)
    metric.reset_state()
    assert _run(metric, [(y_true, y_pred, weights)])[0] == pytest.approx(weighted, rel=1e-5)


def test_documented_examples_without_reset():
    # Keras's documented results: Sum, MeanTensor, OneHot(Mean)IoU, MeanRelativeError,
    # F1Score, FBetaScore and R2Score
    assert M.Sum()([1, 3, 5, 7]).numpy() == 16.0
    m = M.MeanTensor()
    m.update_state([0, 1, 2, 3])
    m.update_state([4, 5, 6, 7])
    np.testing.assert_allclose(m.result(), [2., 3., 4., 5.])
    m.update_state([12, 10, 8, 6], sample_weight=[0, 0.2, 0.5, 1])
    np.testing.assert_allclose(m.result(), [2., 3.6363635, 4.8, 5.3333335], rtol=1e-6)
    m = M.MeanTensor(dtype=tf.float64, shape=(1, 4))
    np.testing.assert_array_equal(m.result(), [[0., 0., 0., 0.]])
    m.update_state([[0, 1, 2, 3]])
    m.update_state([[4, 5, 6, 7]])
    assert m.result().dtype == tf.float64
    np.testing.assert_array_equal(m.result(), [[2., 3., 4., 5.]])

    y_true = [[0, 0, 1], [1, 0, 0], [0, 1, 0], [1, 0, 0]]
    y_pred = [[0.2, 0.3, 0.5], [0.1, 0.2, 0.7], [0.5, 0.3, 0.1], [0.1, 0.4, 0.5]]
    weights = [0.1, 0.2, 0.3, 0.4]
    m = M.OneHotIoU(num_classes=3, target_class_ids=[0, 2])
    assert m(y_true, y_pred, sample_weight=weights).numpy() == pytest.approx(0.071, abs=1e-3)
    m = M.OneHotMeanIoU(num_classes=3)
    assert m(y_true, y_pred, sample_weight=weights).numpy() == pytest.approx(0.048, abs=1e-3)
    m = M.MeanRelativeError(normalizer=[1, 3, 2, 3])
    assert m([1, 3, 2, 3], [2, 4, 6, 8]).numpy() == 1.25

    y_true = np.array([[1, 1, 1], [1, 0, 0], [1, 1, 0]], np.int32)
    y_pred = np.array([[0.2, 0.6, 0.7], [0.2, 0.6, 0.6], [0.6, 0.8, 0.0]], np.float32)
    np.testing.assert_allclose(M.F1Score(threshold=0.5)(y_true, y_pred),
                               [0.5, 0.8, 0.6666667], rtol=1e-6)
    np.testing.assert_allclose(M.FBetaScore(beta=2.0, threshold=0.5)(y_true, y_pred),
                               [0.3846154, 0.90909094, 0.8333334], rtol=1e-6)
    r2 = M.R2Score()(np.array([[1], [4], [3]], np.float32), np.array([[2], [4], [4]],
                                                                    np.float32))
    assert r2.numpy() == pytest.approx(0.57142854, rel=1e-6)


def test_documented_function_forms():
    # Keras's documented results of the metric functions
    np.testing.assert_array_equal(
        M.binary_accuracy([[1], [1], [0], [0]], [[1], [1], [0], [0]]), [1., 1., 1., 1.])
    np.testing.assert_array_equal(
        M.categorical_accuracy([[0, 0, 1], [0, 1, 0]], [[0.1, 0.9, 0.8], [0.05, 0.95, 0]]),
        [0., 1.])
    np.testing.assert_array_equal(
        M.sparse_categorical_accuracy([2, 1], [[0.1, 0.9, 0.8], [0.05, 0.95, 0]]), [0., 1.])
    np.testing.assert_array_equal(
        M.top_k_categorical_accuracy([[0, 0, 1], [0, 1, 0]],
                                     [[0.1, 0.9, 0.8], [0.05, 0.95, 0]], k=3), [1., 1.])
    np.testing.assert_array_equal(
        M.sparse_top_k_categorical_accuracy([2, 1], [[0.1, 0.9, 0.8], [0.05, 0.95, 0]], k=3),
        [1., 1.])
    np.testing.assert_allclose(M.binary_crossentropy([[0, 1], [0, 0]], [[0.6, 0.4], [0.4, 0.6]]),
                               [0.916, 0.714], atol=1e-3)


def test_sparse_top_k_metric_in_fit():
    # the metric runs in_top_k inside the traced train step (values from tf_keras 2.21)
    x = np.random.RandomState(0).rand(32, 4).astype("float32")
    y = np.random.RandomState(1).randint(0, 10, 32)
    kernel = tf.keras.initializers.Constant(np.random.RandomState(2).randn(4, 10))
    model = tf.keras.Sequential([tf.keras.layers.Dense(10, activation="softmax",
                                                       kernel_initializer=kernel)])
    model.compile("sgd", "sparse_categorical_crossentropy",
                  metrics=["sparse_top_k_categorical_accuracy"])
    history = model.fit(x, y, epochs=2, batch_size=8, verbose=0, shuffle=False).history
    np.testing.assert_allclose(history["sparse_top_k_categorical_accuracy"], [0.53125] * 2)
    np.testing.assert_allclose(history["loss"], [2.99935, 2.97731], atol=1e-5)


# ----------------------------------------------------------------------------- reference

_rs = np.random.RandomState(0)
BIN_T = _rs.randint(0, 2, size=(40,)).astype(np.float32)
BIN_P = np.clip(BIN_T * 0.3 + _rs.uniform(size=(40,)) * 0.7, 0, 1).astype(np.float32)
BIN_W = _rs.uniform(size=(40,)).astype(np.float32)
ML_T = _rs.randint(0, 2, size=(12, 3)).astype(np.float32)
ML_P = _rs.uniform(size=(12, 3)).astype(np.float32)
LOGITS = _rs.normal(size=(12, 3)).astype(np.float32)
CLS_T = _rs.randint(0, 4, size=(10,))
CLS_P = _rs.uniform(size=(10, 4)).astype(np.float32)
SEG_T = _rs.randint(0, 3, size=(2, 4, 4))
SEG_P = _rs.randint(0, 3, size=(2, 4, 4))
SEG_W = _rs.uniform(size=(2, 4, 4)).astype(np.float32)
REG_T = _rs.uniform(size=(6, 3)).astype(np.float32)
REG_P = _rs.uniform(size=(6, 3)).astype(np.float32)
REG_W = _rs.uniform(size=(6,)).astype(np.float32)
P2 = [[0.1, 0.9, 0.8, 0.3], [0.6, 0.2, 0.1, 0.5], [0.3, 0.3, 0.7, 0.9]]
T2 = [[0, 1, 1, 0], [1, 0, 0, 1], [0, 1, 0, 0]]
W12 = [1.0, 2.0, 0.5, 1.0, 1.0, 1.0, 2.0, 0.5, 1.0, 1.0, 3.0, 1.0]
VALUES = [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
CUBE = np.arange(24, dtype=np.float32).reshape(2, 3, 4)

# (metric, [(y_true, y_pred, sample_weight), ...], the result after each step as tf_keras
# 2.21 computes it)
REFERENCE = [
    ("Precision(thresholds=[0.3, 0.6])",
     [([0, 1, 1, 1], [0.5, 0.4, 0.7, 0.2], None), (T2, P2, [1.0, 2.0, 0.5])],
     [[0.6666667, 1.0], [0.8, 0.75]]),
    ("Precision(thresholds=[0.0, 0.5, 1.0])",
     [([0, 1, 1, 1, 0, 1], [0.0, 0.5, 1.0, 0.7, 0.2, 0.5], None)], [[0.8, 1.0, 0.0]]),
    ("Precision(top_k=2)", [(T2, P2, None)], [0.6666667]),
    ("Precision(class_id=2)", [(T2, P2, None)], [0.5]),
    ("Precision(top_k=1, class_id=3)", [(T2, P2, None)], [0.0]),
    ("Recall(thresholds=[0.2, 0.5, 0.8])", [(BIN_T, BIN_P, BIN_W)],
     [[1.0, 0.63878953, 0.03948204]]),
    ("Recall(top_k=2)", [(T2, P2, [[1, 1, 2, 1], [1, 0, 1, 1], [2, 2, 2, 2]])], [0.71428573]),
    ("TruePositives(thresholds=[0.15, 0.5, 0.85])", [(T2, P2, [1.0, 0.5, 2.0])],
     [[5.0, 2.5, 1.0]]),
    ("FalsePositives(thresholds=[0.15, 0.5, 0.85])", [(T2, P2, [1.0, 0.5, 2.0])],
     [[7.5, 4.0, 2.0]]),
    ("TrueNegatives(thresholds=[0.15, 0.5, 0.85])", [(T2, P2, [1.0, 0.5, 2.0])],
     [[1.5, 5.0, 7.0]]),
    ("FalseNegatives(thresholds=[0.15, 0.5, 0.85])", [(T2, P2, [1.0, 0.5, 2.0])],
     [[0.0, 2.5, 4.0]]),
    ("TruePositives(thresholds=[0.0, 0.25, 0.5, 0.75, 1.0])", [(BIN_T, BIN_P, None)],
     [[23.0, 23.0, 15.0, 6.0, 0.0]]),
    ("FalseNegatives(thresholds=[0.0, 0.25, 0.5, 0.75, 1.0])", [(BIN_T, BIN_P, BIN_W)],
     [[0.0, 0.0, 3.103929, 7.805591, 8.59313]]),
    ("SensitivityAtSpecificity(0.6)", [(BIN_T, BIN_P, None)], [0.82608694]),
    ("SensitivityAtSpecificity(0.7, num_thresholds=1)", [(BIN_T, BIN_P, None)], [0.65217394]),
    ("SpecificityAtSensitivity(0.8, class_id=1)", [(ML_T, ML_P, None)], [0.5714286]),
    ("PrecisionAtRecall(0.7, num_thresholds=10)", [(BIN_T, BIN_P, BIN_W)], [0.7671663]),
    ("RecallAtPrecision(0.6)", [(BIN_T, BIN_P, None)], [1.0]),
    ("AUC()", [(BIN_T, BIN_P, None), (BIN_T[:10], 1 - BIN_P[:10], None)],
     [0.82352936, 0.7334465]),
    ("AUC(num_thresholds=50)", [(BIN_T, BIN_P, BIN_W)], [0.8773831]),
    ("AUC(curve='PR')", [(BIN_T, BIN_P, None)], [0.8700283]),
    ("AUC(curve='PR', summation_method='majoring')", [(BIN_T, BIN_P, None)], [0.8730928]),
    ("AUC(summation_method='minoring')", [(BIN_T, BIN_P, None)], [0.82352936]),
    ("AUC(curve='PR_GAIN', num_thresholds=20)", [(BIN_T, BIN_P, None)], [0.57247233]),
    ("AUC(thresholds=[0.3, 0.5, 0.7])", [(BIN_T, BIN_P, None)], [0.8056266]),
    ("AUC(thresholds=[0.75, 0.25, 0.5])", [(BIN_T, BIN_P, None)], [0.7800512]),
    ("AUC(multi_label=True)", [(ML_T, ML_P, None)], [0.6273809]),
    ("AUC(multi_label=True, label_weights=[0.2, 0.8, 1.0], curve='PR')", [(ML_T, ML_P, None)],
     [0.63705003]),
    ("AUC(multi_label=True, num_labels=3, thresholds=[0.2, 0.6])", [(ML_T, ML_P, W12)],
     [0.6910012]),
    ("AUC(label_weights=[0.2, 0.8, 1.0])", [(ML_T, ML_P, None)], [0.6103084]),
    ("AUC(from_logits=True)", [(ML_T, LOGITS, None)], [0.46875]),
    ("MeanIoU(num_classes=3)", [(SEG_T, SEG_P, None), (SEG_T, SEG_P, SEG_W)],
     [0.18564385, 0.17927016]),
    ("MeanIoU(num_classes=3, ignore_class=0)", [(SEG_T, SEG_P, SEG_W)], [0.10925999]),
    ("IoU(num_classes=4, target_class_ids=[1, 3], sparse_y_pred=False)",
     [(CLS_T, CLS_P, None)], [0.3611111]),
    ("BinaryIoU(target_class_ids=[1], threshold=0.6)", [(BIN_T, BIN_P, BIN_W)], [0.532386]),
    ("Mean()", [(VALUES, None, [1.0, 0.5])], [3.0]),
    ("Mean()", [(VALUES, None, [[1.0], [0.5]])], [3.0]),
    ("Mean()", [(VALUES, None, [[1.0, 0.0, 2.0], [0.5, 1.0, 1.0]])], [3.6363637]),
    ("Mean()", [([1.0, 2.0, 3.0], None, 0.5), ([4.0], None, None)], [2.0, 2.8]),
    ("Mean()", [(CUBE, None, [1.0, 3.0])], [14.5]),
    ("Sum()", [(CUBE, None, [1.0, 3.0])], [696.0]),
    ("MeanTensor()", [([[1.0, 2.0], [3.0, 4.0]], None, None),
                      ([[5.0, 6.0], [7.0, 8.0]], None, [1.0, 0.25])],
     [[[1.0, 2.0], [3.0, 4.0]], [[3.0, 4.0], [3.8, 4.8]]]),
    ("Accuracy()", [([[1, 2], [3, 4]], [[1, 2], [0, 4]], [1.0, 0.5])], [0.8333333]),
    ("BinaryAccuracy(threshold=0.7)", [(BIN_T, BIN_P, BIN_W)], [0.54359907]),
    ("BinaryAccuracy()", [(ML_T, ML_P, [1.0, 2.0, 0.0] + W12[3:])], [0.5862069]),
    ("CategoricalAccuracy()", [(ML_T, ML_P, None)], [0.41666666]),
    ("SparseCategoricalAccuracy()",
     [(CLS_T, CLS_P, None), (CLS_T.reshape(-1, 1), CLS_P, np.linspace(0, 1, 10))],
     [0.3, 0.3037037]),
    ("SparseCategoricalAccuracy()", [(CLS_T.reshape(2, 5), CLS_P.reshape(2, 5, 4), None)],
     [0.3]),
    ("TopKCategoricalAccuracy(k=2)", [(ML_T, ML_P, None)], [0.75]),
    ("SparseTopKCategoricalAccuracy(k=2)",
     [(CLS_T, CLS_P, None), (CLS_T.reshape(2, 5), CLS_P.reshape(2, 5, 4), None)], [0.4, 0.4]),
    ("BinaryCrossentropy(from_logits=True, label_smoothing=0.2)", [(ML_T, LOGITS, None)],
     [0.8036416]),
    ("CategoricalCrossentropy(label_smoothing=0.1)", [(ML_T, ML_P, REG_W[:1])], [1.498738]),
    ("SparseCategoricalCrossentropy(ignore_class=-1)",
     [([1, -1, 2, 0], [[0.1, 0.8, 0.1], [0.3, 0.3, 0.4], [0.2, 0.2, 0.6], [0.5, 0.25, 0.25]],
       None)], [0.47570542]),
    ("SparseCategoricalCrossentropy(from_logits=True)", [(CLS_T, CLS_P, None)], [1.4060087]),
    ("KLDivergence()", [(REG_T, REG_P, REG_W)], [0.5627105]),
    ("Poisson()", [(REG_T, REG_P, REG_W)], [0.93853676]),
    ("Hinge()", [(2 * ML_T - 1, LOGITS, None)], [1.0977546]),
    ("SquaredHinge()", [(ML_T, LOGITS, None)], [1.8749161]),
    ("CategoricalHinge()", [(ML_T, ML_P, None)], [0.872637]),
    ("MeanSquaredError()", [(REG_T, REG_P, REG_W)], [0.13098387]),
    ("MeanAbsoluteError()", [(REG_T, REG_P, None)], [0.30158523]),
    ("MeanAbsolutePercentageError()", [(REG_T, REG_P, REG_W)], [143.9146]),
    ("MeanSquaredLogarithmicError()", [(REG_T, REG_P, None)], [0.05410345]),
    ("RootMeanSquaredError()", [(REG_T, REG_P, REG_W)], [0.36191693]),
    ("LogCoshError()", [(REG_T, REG_P, REG_W)], [0.06319013]),
    ("CosineSimilarity()", [(REG_T, REG_P, REG_W)], [0.7259303]),
    ("F1Score(average='macro')", [(ML_T, ML_P, None)], [0.46560848]),
    ("F1Score(average='micro', threshold=0.5)", [(ML_T, ML_P, np.repeat(REG_W[:1], 12))],
     [0.56410253]),
    ("FBetaScore(beta=2.0, average='weighted', threshold=0.4)", [(ML_T, ML_P, None)],
     [0.71314096]),
    ("R2Score()", [(REG_T, REG_P, None)], [-1.3602324]),
    ("R2Score(class_aggregation='variance_weighted_average', num_regressors=1)",
     [(REG_T, REG_P, REG_W)], [-1.9696746]),
    ("MeanRelativeError(normalizer=[1.0, 3.0, 2.0, 3.0])",
     [([1, 3, 2, 3], [2, 4, 6, 8], [1.0, 0.0, 1.0, 2.0])], [1.5833333]),
]


@pytest.mark.parametrize("ctor,steps,expected", REFERENCE,
                         ids=[f"{i}-{case[0]}" for i, case in enumerate(REFERENCE)])
def test_matches_tf_keras(ctor, steps, expected):
    got = _run(eval(ctor, vars(M)), steps)
    # counts that tf_keras gets as a difference of float32 sums (fn = all positives - tp)
    # may differ by a rounding error
    np.testing.assert_allclose(np.asarray(got, dtype=np.float64), expected, rtol=2e-6,
                               atol=2e-6)


def test_sample_weights_shaped_like_keras():
    # squeezes, expansions and refusals as tf_keras 2.21 makes them
    t, p, w = [0., 1., 1., 0.], [0.2, 0.7, 0.4, 0.9], [1., 2., 0.5, 1.]
    col = lambda x: [[v] for v in x]  # noqa: E731
    for y_true, y_pred, weights in [(col(t), p, w), (col(t), col(p), w), (t, p, col(w))]:
        assert M.Precision()(y_true, y_pred, sample_weight=weights).numpy() == \
            pytest.approx(2 / 3, rel=1e-6)
        assert M.BinaryAccuracy()(y_true, y_pred, sample_weight=weights).numpy() == \
            pytest.approx(2 / 3, rel=1e-6)
    # weights follow y_pred's rank from before the squeeze, then fail to broadcast
    with pytest.raises(ValueError, match="weights can not be broadcast to values"):
        M.Precision().update_state(t, col(p), sample_weight=w)
    with pytest.raises(tf.errors.InvalidArgumentError):
        M.MeanSquaredError().update_state(t, col(p), sample_weight=w)
    assert M.MeanSquaredError()(col(t), col(p), sample_weight=2.0).numpy() == \
        pytest.approx(0.325, rel=1e-6)
    assert M.Mean()(col([1., 2., 3.]), sample_weight=[1., 0., 2.]).numpy() == \
        pytest.approx(7 / 3, rel=1e-6)
    assert M.SparseCategoricalAccuracy()([[1], [0]], [[0.1, 0.9], [0.3, 0.7]],
                                         sample_weight=[[2.], [1.]]).numpy() == \
        pytest.approx(2 / 3, rel=1e-6)
    # masked-out labels (ignore_class) weigh nothing, whatever their weight
    assert M.SparseCategoricalCrossentropy(ignore_class=-1)(
        [1, -1, 0], [[0.2, 0.8], [0.5, 0.5], [0.6, 0.4]], sample_weight=[1., 5., 2.]
    ).numpy() == pytest.approx(0.41493, abs=1e-5)
    # predictions outside [0, 1]: compared as they are, or clipped with even thresholds
    np.testing.assert_array_equal(
        M.Precision(thresholds=[0.0, 0.5, 1.0])([1, 0, 1, 1], [1.5, -0.5, 0.0, 1.0]),
        [1.0, 1.0, 0.0])
    assert M.AUC(num_thresholds=4)([1, 0, 1], [1.5, -0.5, 0.5]).numpy() == 1.0
    with pytest.raises(tf.errors.InvalidArgumentError, match="Incompatible shapes"):
        M.Mean().update_state([[1., 2., 3.]], sample_weight=[[1., 2.]])


# ----------------------------------------------------------------------------- formulas

def test_confusion_counts_against_numpy():
    rs = np.random.RandomState(1)
    y_true = rs.randint(0, 2, size=(50, 2))
    y_pred = rs.uniform(size=(50, 2)).astype(np.float32)
    weights = rs.uniform(size=(50,)).astype(np.float32)
    thresholds = [0.1, 0.45, 0.8]
    w = np.broadcast_to(weights[:, None], y_pred.shape)
    positive = y_pred[None] > np.array(thresholds)[:, None, None]
    label = y_true[None] == 1
    expected = {
        "TruePositives": (positive & label), "FalsePositives": (positive & ~label),
        "TrueNegatives": (~positive & ~label), "FalseNegatives": (~positive & label)}
    for name, cells in expected.items():
        got = getattr(M, name)(thresholds=thresholds)(y_true, y_pred, sample_weight=weights)
        np.testing.assert_allclose(got, (cells * w).sum(axis=(1, 2)), rtol=1e-5)
    tp = (positive & label).sum(axis=(1, 2))
    np.testing.assert_allclose(M.Precision(thresholds=thresholds)(y_true, y_pred),
                               tp / positive.sum(axis=(1, 2)), rtol=1e-6)
    np.testing.assert_allclose(M.Recall(thresholds=thresholds)(y_true, y_pred),
                               tp / label.sum(axis=(1, 2)), rtol=1e-6)


def test_auc_against_numpy_trapezoids():
    rs = np.random.RandomState(2)
    y_true = rs.randint(0, 2, size=(200,))
    y_pred = rs.uniform(size=(200,)).astype(np.float32)
    m = M.AUC(num_thresholds=100)
    thresholds = np.array(m.thresholds, np.float32)
    assert thresholds[0] < 0 < 1 < thresholds[-1]
    positive = y_pred[None] > thresholds[:, None]
    tpr = (positive & (y_true == 1)).sum(1) / (y_true == 1).sum()
    fpr = (positive & (y_true == 0)).sum(1) / (y_true == 0).sum()
    expected = np.sum((fpr[:-1] - fpr[1:]) * (tpr[:-1] + tpr[1:]) / 2)
    assert m(y_true, y_pred).numpy() == pytest.approx(expected, rel=1e-5)
    # the exact area (Mann-Whitney statistic) is close with enough thresholds
    pos, neg = y_pred[y_true == 1], y_pred[y_true == 0]
    exact = (pos[:, None] > neg[None]).mean()
    assert M.AUC(num_thresholds=2000)(y_true, y_pred).numpy() == pytest.approx(exact, abs=1e-3)


def test_auc_label_count_unknown_while_tracing_is_checked_when_the_graph_runs():
    # (TF 2.21: 0.5546875, then an assertion failure naming the mismatch)
    rs = np.random.RandomState(7)
    y_true = rs.randint(0, 2, size=(10, 3)).astype(np.float32)
    y_pred = rs.rand(10, 3).astype(np.float32)
    m = M.AUC(label_weights=[1.0, 2.0, 3.0])

    @tf.function(input_signature=[tf.TensorSpec([None, None]), tf.TensorSpec([None, None])])
    def step(a, b):
        m.update_state(a, b)
        return m.result()

    assert step(y_true, y_pred).numpy() == pytest.approx(0.5546875)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"\[Number of labels is not consistent\.\.  \] \[Specified by tensor "
                             r"a:0 dimension 1\]"):
        step(y_true[:, :2], y_pred[:, :2])


def test_adjusted_r2_score_decides_on_its_sample_count_eagerly_only():
    # (TF 2.21: the count is a Python decision, so a traced result raises TF's error)
    y_true = np.arange(12, dtype=np.float32).reshape(4, 3)
    y_pred = y_true[::-1]
    m = M.R2Score(num_regressors=2)
    m.update_state(y_true, y_pred)
    assert m.result().numpy() == pytest.approx(-3.8888888)
    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError,
                       match="Using a symbolic `tf.Tensor` as a Python `bool`"):
        tf.function(lambda: m.result())()


def test_reductions_and_regression_against_numpy():
    rs = np.random.RandomState(3)
    y_true = rs.uniform(size=(8, 5)).astype(np.float32)
    y_pred = rs.uniform(size=(8, 5)).astype(np.float32)
    weights = rs.uniform(size=(8,)).astype(np.float32)
    mse = ((y_true - y_pred) ** 2).mean(-1)
    assert M.MeanSquaredError()(y_true, y_pred, sample_weight=weights).numpy() == \
        pytest.approx(np.average(mse, weights=weights), rel=1e-5)
    assert M.RootMeanSquaredError()(y_true, y_pred).numpy() == \
        pytest.approx(np.sqrt(((y_true - y_pred) ** 2).mean()), rel=1e-5)
    assert M.MeanAbsoluteError()(y_true, y_pred).numpy() == \
        pytest.approx(np.abs(y_true - y_pred).mean(), rel=1e-5)
    cosine = (y_true * y_pred).sum(-1) / np.linalg.norm(y_true, axis=-1) / \
        np.linalg.norm(y_pred, axis=-1)
    assert M.CosineSimilarity()(y_true, y_pred).numpy() == pytest.approx(cosine.mean(),
                                                                         rel=1e-5)
    values = rs.normal(size=(8, 5)).astype(np.float32)
    assert M.Mean()(values, sample_weight=weights).numpy() == \
        pytest.approx(np.average(values.mean(-1), weights=weights), rel=1e-5)
    assert M.Sum()(values, sample_weight=weights[:, None]).numpy() == \
        pytest.approx((values * weights[:, None]).sum(), rel=1e-5)


def test_accuracy_and_iou_against_numpy():
    rs = np.random.RandomState(4)
    labels = rs.randint(0, 5, size=(64,))
    scores = rs.uniform(size=(64, 5)).astype(np.float32)
    top1 = scores.argmax(-1) == labels
    assert M.SparseCategoricalAccuracy()(labels, scores).numpy() == \
        pytest.approx(top1.mean(), rel=1e-6)
    assert M.CategoricalAccuracy()(np.eye(5)[labels], scores).numpy() == \
        pytest.approx(top1.mean(), rel=1e-6)
    top3 = (np.argsort(-scores, -1)[:, :3] == labels[:, None]).any(-1)
    assert M.SparseTopKCategoricalAccuracy(k=3)(labels, scores).numpy() == \
        pytest.approx(top3.mean(), rel=1e-6)
    predicted = scores.argmax(-1)
    cm = np.zeros((5, 5))
    np.add.at(cm, (labels, predicted), 1)
    iou = np.diag(cm) / (cm.sum(0) + cm.sum(1) - np.diag(cm))
    assert M.MeanIoU(num_classes=5)(labels, predicted).numpy() == \
        pytest.approx(iou.mean(), rel=1e-6)
    np.testing.assert_array_equal(M.MeanIoU(5)(labels, predicted).numpy(), M.OneHotMeanIoU(5)(
        np.eye(5)[labels], scores).numpy())


# ----------------------------------------------------------------------------- tf.function

@pytest.mark.parametrize("make,args", [
    (lambda: M.Mean(), ([1.0, 2.0],)),
    (lambda: M.SparseCategoricalAccuracy(), ([1, 0], [[0.1, 0.9], [0.3, 0.7]])),
    (lambda: M.CategoricalAccuracy(), ([[0., 1.], [1., 0.]], [[0.2, 0.8], [0.6, 0.3]])),
    (lambda: M.BinaryAccuracy(), ([[1.], [0.]], [[0.7], [0.6]])),
    (lambda: M.AUC(), ([0, 0, 1, 1], [0.1, 0.5, 0.3, 0.9])),
    (lambda: M.AUC(multi_label=True), ([[0., 1.], [1., 0.]], [[0.2, 0.8], [0.6, 0.3]])),
    (lambda: M.Precision(thresholds=[0.3, 0.6]), ([0, 1, 1, 1], [0.5, 0.4, 0.7, 0.2])),
    (lambda: M.MeanIoU(2), ([0, 0, 1, 1], [0, 1, 0, 1])),
    (lambda: M.MeanTensor(), ([1.0, 2.0],)),
    (lambda: M.SparseCategoricalCrossentropy(ignore_class=-1), ([1, -1], [[0.1, 0.9],
                                                                         [0.3, 0.7]])),
], ids=["Mean", "SparseCategoricalAccuracy", "CategoricalAccuracy", "BinaryAccuracy", "AUC",
        "AUC-multi_label", "Precision", "MeanIoU", "MeanTensor", "SparseCCE"])
def test_update_inside_function_accumulates(make, args):
    eager, traced = make(), make()
    for _ in range(3):
        eager.update_state(*args)

    @tf.function
    def step(*tensors):
        traced.update_state(*tensors)
        return traced.result()

    tensors = [tf.constant(a) for a in args]
    first = step(*tensors).numpy()
    step(*tensors)
    traces = step.experimental_get_tracing_count()  # 2 when the first trace made variables
    np.testing.assert_allclose(step(*tensors), eager.result(), rtol=1e-6)
    np.testing.assert_allclose(first, make()(*args), rtol=1e-6)
    assert step.experimental_get_tracing_count() == traces


class _CountPositive(M.Metric):
    """A user metric whose `update_state` branches on a tensor."""

    def __init__(self, name="count_positive", **kwargs):
        super().__init__(name=name, **kwargs)
        self.count = self.add_weight("count", initializer="zeros")

    def update_state(self, values):
        if tf.reduce_sum(values) > 0:
            self.count.assign_add(1.0)

    def result(self):
        return self.count


def test_user_metric_is_converted_in_graphs_and_returns_tensors():
    metric = _CountPositive()
    step = tf.function(lambda x: metric(x))
    results = [step(tf.constant([v])).numpy() for v in (1.0, -1.0, 2.0)]
    assert results == [1.0, 1.0, 2.0]
    assert isinstance(metric.result(), tf.Tensor)  # Keras returns a copy, never the variable
    with pytest.raises(RuntimeError, match="can only be a single Tensor/Variable"):
        type("Bad", (_CountPositive,), {"result": lambda self: object()})().result()


class _ClippedError(M.Mean):
    """A user subclass of a built-in metric, calling the base `update_state`."""

    def update_state(self, y_true, y_pred, sample_weight=None):
        error = tf.abs(tf.cast(y_true, tf.float32) - y_pred)
        if tf.reduce_max(error) > 10.0:
            error = tf.zeros_like(error)
        return super().update_state(error, sample_weight)


class _Stats(M.Metric):
    """A user metric with a dict result."""

    def __init__(self):
        super().__init__(name="stats")
        self.total = self.add_weight("total", initializer="zeros")
        self.count = self.add_weight("count", initializer="zeros")

    def update_state(self, values):
        self.total.assign_add(tf.reduce_sum(values))
        self.count.assign_add(tf.cast(tf.size(values), tf.float32))

    def result(self):
        return {"sum": self.total, "mean": self.total / self.count}


def test_user_subclasses_in_functions():
    metric = _ClippedError()
    step = tf.function(lambda a, b: metric(a, b))
    assert step(tf.constant([1., 2.]), tf.constant([2., 4.])).numpy() == 1.5
    assert step(tf.constant([1., 2.]), tf.constant([20., 4.])).numpy() == 0.75
    stats = _Stats()
    assert {k: v.numpy() for k, v in stats([1., 2., 3.]).items()} == {"sum": 6.0, "mean": 2.0}
    result = tf.function(lambda x: stats(x))(tf.constant([4.]))
    assert all(isinstance(v, tf.Tensor) for v in result.values())
    assert {k: v.numpy() for k, v in result.items()} == {"sum": 10.0, "mean": 2.5}


# ----------------------------------------------------------------------------- state

def test_state_variables_names_and_printing():
    m = M.Mean()
    assert [v.name for v in m.variables] == ["total:0", "count:0"]
    assert [v.trainable for v in m.variables] == [False, False]
    assert m.trainable_weights == [] and m.stateful and m.built
    assert m.dtype == "float32" and m.name == "mean"
    assert str(m) == "Mean(name=mean,dtype=float32)"
    update = m.update_state([1.0, 2.0])
    assert repr(update).startswith("<tf.Variable 'UnreadVariable' shape=() dtype=float32")
    assert float(update.numpy()) == 2.0  # the count, as tf_keras returns it
    result = m([3.0])
    assert isinstance(result, tf.Tensor) and result.numpy() == 2.0
    m.reset_state()
    assert [v.numpy() for v in m.variables] == [0.0, 0.0]
    m.update_state(5.0)
    m.reset_states()
    assert m.result().numpy() == 0.0
    backend.reset_uids()
    assert [M.AUC().name, M.AUC().name, M.AUC(name="x").name] == ["auc", "auc_1", "x"]
    assert M.Mean(dtype="float64")([1.0, 2.0]).dtype == tf.float64


def test_metrics_are_not_sub_layers():
    class Block(Layer):
        def __init__(self):
            super().__init__()
            self.tracker = M.Mean(name="tracker")

        def call(self, x):
            self.tracker.update_state(x)
            return x

    block = Block()
    block(tf.ones((2, 3)))
    assert not M.Metric._TRACKED_AS_LAYER
    assert block.submodules == (block.tracker,) and block.weights == []  # as in TF
    assert block.tracker.result().numpy() == 1.0


def test_reset_merge_and_copy():
    a, b = M.AUC(num_thresholds=5), M.AUC(num_thresholds=5)
    a.update_state([0, 1], [0.2, 0.9])
    b.update_state([1, 0], [0.3, 0.6])
    both = M.AUC(num_thresholds=5)
    both.update_state([0, 1, 1, 0], [0.2, 0.9, 0.3, 0.6])
    a.merge_state([b])
    assert a.result().numpy() == both.result().numpy()
    with pytest.raises(ValueError, match=r"Metric Sum\(name=sum,dtype=float32\) is not "
                                         r"compatible with Mean\(name=mean,dtype=float32\)"):
        M.Mean().merge_state([M.Sum()])
    clone = copy.deepcopy(a)
    assert clone is not a and clone.result().numpy() == a.result().numpy()
    a.reset_state()
    assert a.result().numpy() == 0.0 and clone.result().numpy() != 0.0
    lazy = M.MeanTensor()
    lazy.reset_state()  # nothing built yet: nothing to reset
    assert lazy.variables == []


def test_deprecated_reset_states_override_is_called_with_a_warning():
    class Old(_CountPositive):
        def reset_states(self):
            self.count.assign(-1.0)

    old = Old()
    with pytest.warns(UserWarning, match="rename it to `reset_state\\(\\)`"):
        old.reset_state()
    assert old.count.numpy() == -1.0


def test_configs_round_trip():
    for metric in [M.AUC(num_thresholds=10, curve="PR", summation_method="minoring",
                         multi_label=True, num_labels=3, from_logits=True),
                   M.AUC(thresholds=[0.5, 0.2]), M.Precision(top_k=2, class_id=1),
                   M.SpecificityAtSensitivity(0.4, num_thresholds=10, class_id=2),
                   M.IoU(3, [0, 1], ignore_class=2), M.BinaryIoU(), M.OneHotMeanIoU(3),
                   M.BinaryAccuracy(threshold=0.3), M.CategoricalCrossentropy(axis=1),
                   M.F1Score(), M.MeanTensor(shape=(2,))]:
        config = metric.get_config()
        assert type(metric).from_config(config).get_config() == config
    # Keras's configs
    backend.reset_uids()
    assert M.AUC(thresholds=[0.5, 0.2], name="auc_2").get_config() == {
        "name": "auc_2", "dtype": "float32", "num_thresholds": 4, "curve": "ROC",
        "summation_method": "interpolation", "multi_label": False, "num_labels": None,
        "label_weights": None, "from_logits": False, "thresholds": [0.2, 0.5]}
    assert M.Precision(thresholds=[0.3, 0.6]).get_config() == {
        "name": "precision", "dtype": "float32", "thresholds": [0.3, 0.6], "top_k": None,
        "class_id": None}
    assert M.BinaryIoU(name="binary_io_u").get_config() == {
        "target_class_ids": [0, 1], "threshold": 0.5, "name": "binary_io_u",
        "dtype": "float32"}
    assert M.SensitivityAtSpecificity(0.5).get_config() == {
        "name": "sensitivity_at_specificity", "dtype": "float32", "class_id": None,
        "num_thresholds": 200, "specificity": 0.5}
    wrapper = M.MeanMetricWrapper(M.binary_accuracy, name="ba", threshold=0.2)
    config = wrapper.get_config()
    assert config == {"name": "ba", "dtype": "float32", "threshold": 0.2,
                      "fn": M.binary_accuracy}
    restored = M.MeanMetricWrapper.from_config(config)
    assert restored([[1.0]], [[0.3]]).numpy() == 1.0


def test_iou_configs_list_arguments_in_keras_order():
    # MeanIoU and the other subclasses follow their signature; IoU begins with name, dtype
    assert list(M.MeanIoU(3).get_config()) == [
        "num_classes", "name", "dtype", "ignore_class", "sparse_y_true", "sparse_y_pred", "axis"]
    assert list(M.OneHotIoU(3, [1]).get_config()) == [
        "num_classes", "target_class_ids", "name", "dtype", "ignore_class", "sparse_y_pred",
        "axis"]
    assert list(M.OneHotMeanIoU(3).get_config())[:2] == ["num_classes", "name"]
    assert list(M.IoU(3, [0]).get_config())[:4] == [
        "name", "dtype", "num_classes", "target_class_ids"]


def test_thresholds_and_lazy_build():
    assert M.AUC(num_thresholds=3).thresholds == pytest.approx([-1e-7, 0.5, 1 + 1e-7])
    # NumPy floats, as tf_keras's list of its threshold array
    assert repr(M.AUC(thresholds=[0.2]).thresholds[1]) == "np.float64(0.2)"
    assert repr(M.AUC(thresholds=[0.2]).get_config()["thresholds"]) == "[np.float64(0.2)]"
    assert M.Precision().thresholds == [0.5]
    assert M.Precision(top_k=3).thresholds == [confusion_metrics.NEG_INF]
    m = M.AUC(multi_label=True)
    assert m.variables == []
    m.update_state([[0, 1, 1]], [[0.1, 0.6, 0.8]])
    assert [tuple(v.shape) for v in m.variables] == [(200, 3)] * 4


# ----------------------------------------------------------------------------- errors

@pytest.mark.parametrize("code,error,message", [
    ("Precision(thresholds=[1.5])", ValueError,
     r"Threshold values must be in \[0, 1\]. Received: \[1.5\]"),
    ("AUC(curve='foo')", ValueError, 'Invalid AUC curve value: "foo"'),
    ("AUC(summation_method='bar')", ValueError, 'Invalid AUC summation method value: "bar"'),
    ("AUC(num_thresholds=1)", ValueError, "must be an integer > 1"),
    ("AUC(num_labels=3)", ValueError, "`num_labels` is needed only when `multi_label` is True"),
    ("AUC(label_weights=[-1.0, 1.0])", tf.errors.InvalidArgumentError,
     "All values of `label_weights` must be non-negative"),
    ("AUC(multi_label=True).update_state([0., 1.], [0.3, 0.6])", ValueError,
     "`y_pred` must have rank 2 when `multi_label=True`"),
    ("AUC(label_weights=[1.0, 2.0]).update_state([[0., 1., 1.]], [[0.3, 0.6, 0.1]])",
     ValueError, r"Number of labels is not consistent\.\.  Specified by tensor shape=\(1, 3\) "
                 r"dtype=float32 dimension 1\.  Tensor shape=\(2,\) dtype=float32 dimension 0 "
                 r"must have size 3\.  Received size 2, shape \(2,\)"),
    ("AUC(multi_label=True, num_labels=2).update_state([[0., 1., 1.]], [[0.3, 0.6, 0.1]])",
     ValueError, r"Specified by tensor shape=\(1, 3\) dtype=float32 dimension 1\.  Tensor "
                 r"shape=\(200, 2\) dtype=float32 dimension 1 must have size 3"),
    ("SensitivityAtSpecificity(1.5)", ValueError,
     r"Argument `specificity` must be in the range \[0, 1\]"),
    ("SpecificityAtSensitivity(0.5, num_thresholds=0)", ValueError,
     "must be an integer > 0"),
    ("IoU(2, [2])", ValueError, r"Target class id 2 is out of range, which is \[0, 2\)"),
    ("MeanIoU(2).update_state([0, 3], [0, 1])", tf.errors.InvalidArgumentError,
     "`labels` out of bound"),
    ("MeanIoU(2).update_state([0, 1], [0, -1])", tf.errors.InvalidArgumentError,
     "`predictions` contains negative values"),
    ("MeanTensor().result()", ValueError, "MeanTensor does not have any value yet"),
    ("Mean().update_state({'a': 1.0})", RuntimeError,
     "To return a dict of values, implement a custom Metric subclass"),
    ("Precision().update_state([[0, 1, 1]], [[0.5, 0.2]])", ValueError,
     r"Shapes \(1, 2\) and \(1, 3\) are incompatible"),
    ("Accuracy().update_state([[1, 2, 3]], [[1, 2]])", ValueError, "are incompatible"),
    ("SparseCategoricalAccuracy().update_state([[1, 0, 0]], [[0.1, 0.9, 0.0]])",
     tf.errors.InvalidArgumentError, "Can not squeeze dim"),
    ("FBetaScore(beta=2)", ValueError, "It should be a Python float"),
    ("F1Score().update_state([1., 0.], [0.2, 0.6])", ValueError,
     "FBetaScore expects 2D inputs"),
    ("R2Score().update_state([1., 2.], [1., 3.])", ValueError, "R2Score expects 2D inputs"),
    ("Metric()", TypeError, "Can't instantiate abstract class Metric"),
    ("Mean(foo=1)", TypeError, "unexpected keyword argument 'foo'"),
])
def test_errors(code, error, message):
    with pytest.raises(error, match=message):
        eval(code, vars(M))


def test_mean_tensor_keeps_its_shape():
    m = M.MeanTensor()
    m.update_state([1.0, 2.0])
    with pytest.raises(ValueError, match=r"Expected shape \(set during the first call\): "
                                         r"\(2,\). Got: \(3,\)"):
        m.update_state([1.0, 2.0, 3.0])


# ----------------------------------------------------------------------------- identifiers

def test_get_serialize_deserialize():
    assert M.get("acc") is M.accuracy and M.get("accuracy") is M.accuracy
    assert M.get("mse") is M.mean_squared_error is public.MSE
    assert M.get("binary_accuracy") is M.binary_accuracy
    assert M.get("logcosh") is M.log_cosh
    assert isinstance(M.get("AUC"), M.AUC) and isinstance(M.get("Precision"), M.Precision)
    m = M.get({"class_name": "CategoricalCrossentropy", "config": {"from_logits": True}})
    assert isinstance(m, M.CategoricalCrossentropy) and m.get_config()["from_logits"]
    assert M.get(M.binary_accuracy) is M.binary_accuracy
    for bad in (5, None):
        with pytest.raises(ValueError, match=f"Could not interpret metric identifier: {bad}"):
            M.get(bad)
    # as tf_keras: a name it does not know stands for itself, failing where it is called
    assert M.get("no_such_metric") == "no_such_metric" == M.deserialize("no_such_metric")
    config = M.serialize(M.AUC(num_thresholds=7, name="my_auc"))
    assert config["module"] == "keras.metrics" and config["class_name"] == "AUC"
    assert config["registered_name"] is None
    restored = M.deserialize(config)
    assert isinstance(restored, M.AUC) and restored.num_thresholds == 7
    assert restored.name == "my_auc"
    with pytest.warns(UserWarning, match="should only be used for objects of type"):
        assert M.serialize(M.binary_accuracy)["config"] == "binary_accuracy"
    assert M.deserialize({"module": "builtins", "class_name": "function",
                          "config": "binary_accuracy", "registered_name": "function"}) is \
        M.binary_accuracy


def test_mean_metric_wrapper_config_holds_its_function():
    # As tf_keras: get_config gives the function itself, and serialize writes it as a
    # function's config (a named function inside any config is written so)
    wrapper = M.MeanMetricWrapper(M.mean_absolute_error, name="w")
    assert wrapper.get_config()["fn"] is M.mean_absolute_error
    config = M.serialize(wrapper)
    assert config["config"] == {"name": "w", "dtype": "float32", "fn": {
        "module": "builtins", "class_name": "function", "config": "mean_absolute_error",
        "registered_name": "function"}}
    restored = M.deserialize(config)
    assert type(restored) is M.MeanMetricWrapper and restored._fn is M.mean_absolute_error
    assert restored([[1.0]], [[3.0]]).numpy() == 2.0


@pytest.mark.parametrize("identifier,true_shape,pred_shape,expected", [
    ("accuracy", [None, 1], [None, 1], "binary_accuracy"),
    ("acc", [None], [None, 10], "sparse_categorical_accuracy"),
    ("ACC", [None, 1], [None, 10], "sparse_categorical_accuracy"),
    ("accuracy", [None, 10], [None, 10], "categorical_accuracy"),
    ("crossentropy", [None, 1], [None, 1], "binary_crossentropy"),
    ("ce", [None], [None, 4], "sparse_categorical_crossentropy"),
    ("crossentropy", [None, 4], [None, 4], "categorical_crossentropy"),
    ("mse", [None, 4], [None, 4], "mean_squared_error"),
])
def test_get_metric_object_chooses_like_compile(identifier, true_shape, pred_shape, expected):
    metric = M.get_metric_object(identifier, tf.TensorSpec(true_shape),
                                 tf.TensorSpec(pred_shape))
    assert isinstance(metric, M.MeanMetricWrapper)
    assert metric.name == identifier and metric._fn.__name__ == expected


def test_get_metric_object_keeps_metrics_and_names_callables():
    spec = tf.TensorSpec([None, 3])
    auc = M.AUC()
    assert M.get_metric_object(auc, spec, spec) is auc
    assert isinstance(M.get_metric_object("AUC", spec, spec), M.AUC)
    assert M.get_metric_object(None, spec, spec) is None
    assert M.get_metric_object(M.mae, spec, spec).name == "mean_absolute_error"
    from eagerflow.keras import losses
    wrapped = M.get_metric_object(losses.Huber(name="hub"), spec, spec)
    assert wrapped.name == "hub"
    assert wrapped([[0.0, 1.0, 2.0]], [[0.0, 1.0, 4.0]]).numpy() == pytest.approx(0.5)


def test_public_names():
    expected = {
        "AUC", "Accuracy", "BinaryAccuracy", "BinaryCrossentropy", "BinaryIoU",
        "CategoricalAccuracy", "CategoricalCrossentropy", "CategoricalHinge",
        "CosineSimilarity", "F1Score", "FBetaScore", "FalseNegatives", "FalsePositives",
        "Hinge", "IoU", "KLD", "KLDivergence", "LogCoshError", "MAE", "MAPE", "MSE", "MSLE",
        "Mean", "MeanAbsoluteError", "MeanAbsolutePercentageError", "MeanIoU",
        "MeanMetricWrapper", "MeanRelativeError", "MeanSquaredError",
        "MeanSquaredLogarithmicError", "MeanTensor", "Metric", "OneHotIoU", "OneHotMeanIoU",
        "Poisson", "Precision", "PrecisionAtRecall", "R2Score", "Recall", "RecallAtPrecision",
        "RootMeanSquaredError", "SensitivityAtSpecificity", "SparseCategoricalAccuracy",
        "SparseCategoricalCrossentropy", "SparseTopKCategoricalAccuracy",
        "SpecificityAtSensitivity", "SquaredHinge", "Sum", "TopKCategoricalAccuracy",
        "TrueNegatives", "TruePositives", "binary_accuracy", "binary_crossentropy",
        "binary_focal_crossentropy", "categorical_accuracy", "categorical_crossentropy",
        "categorical_focal_crossentropy", "deserialize", "get", "hinge", "kl_divergence", "kld",
        "kullback_leibler_divergence", "log_cosh", "logcosh", "mae", "mape",
        "mean_absolute_error", "mean_absolute_percentage_error", "mean_squared_error",
        "mean_squared_logarithmic_error", "mse", "msle", "poisson", "serialize",
        "sparse_categorical_accuracy", "sparse_categorical_crossentropy",
        "sparse_top_k_categorical_accuracy", "squared_hinge", "top_k_categorical_accuracy",
        "experimental"}
    assert {n for n in dir(public) if not n.startswith("_")} == expected


def test_update_state_in_a_tf1_graph_is_one_op_running_every_update():
    # As tf_keras: the op returned runs all the metric's updates (the Mean's count alone was
    # returned, so a session running it never summed the values: 0.0 where TF gives 2.0)
    graph = tf.Graph()
    with graph.as_default():
        mean = tf.keras.metrics.Mean()
        update = mean.update_state([1.0, 2.0, 3.0])
        result = mean.result()
        accuracy = tf.keras.metrics.Accuracy()
        accuracy_update = accuracy.update_state([1, 2, 3], [1, 2, 0])
        with tf.compat.v1.Session() as sess:
            sess.run(tf.compat.v1.variables_initializer(mean.variables + accuracy.variables))
            assert sess.run(update) is None
            sess.run(update)
            assert sess.run(result) == 2.0
            assert sess.run(mean.variables) == [12.0, 6.0]
            sess.run(accuracy_update)
            assert sess.run(accuracy.result()) == np.float32(2 / 3)

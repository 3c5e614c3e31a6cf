"""TF 1 streaming metrics (``tf.compat.v1.metrics``) run by both TF (to record their results,
`data/make_v1_metrics_data.py`) and eagerflow (`test_v1_metrics.py`): each metric is built in
a graph over placeholders, its update op run on three batches, and after each batch the
update's result and the metric's value are kept, with the local variables it made."""
import numpy as np

SCORES = [  # three batches of [3, 4] class scores, in [0, 1] for the threshold metrics
    [[0.1, 0.5, 0.2, 0.9], [0.8, 0.05, 0.3, 0.1], [0.2, 0.25, 0.7, 0.6]],
    [[0.6, 0.4, 0.3, 0.35], [0.0, 1.0, 0.45, 0.5], [0.3, 0.3, 0.2, 0.95]],
    [[0.9, 0.1, 0.8, 0.2], [0.15, 0.65, 0.55, 0.05], [0.5, 0.5, 0.5, 0.5]],
]
ONE_LABEL = [[3, 0, 1], [0, 3, 2], [2, 1, 7]]  # (7 is out of range: 4 classes)
MULTI_LABELS = [  # several labels per row, -1 padding (dense) as TF 1 programs pad them
    [[3, 1], [0, -1], [2, 3]],
    [[0, 2], [1, 3], [3, -1]],
    [[1, 2], [2, -1], [0, 1]],
]
SPARSE_LABELS = [  # (indices, values): rows of 2, 0 and 1 labels, then 1, 2, 1
    ([[0, 0], [0, 1], [2, 0]], [3, 1, 2]),
    ([[0, 0], [1, 0], [1, 1], [2, 0]], [0, 1, 3, 3]),
    ([[0, 0], [0, 1], [1, 0], [2, 0]], [1, 2, 2, 0]),
]
ROW_WEIGHTS = [[1.0, 0.0, 2.0], [0.5, 1.0, 1.0], [3.0, 1.0, 0.0]]
TOP2 = [[[3, 1], [0, 2], [2, 3]], [[0, 1], [1, 3], [3, 0]], [[0, 2], [1, 2], [0, 1]]]
BINARY = [  # labels of the threshold metrics, one per score
    [[1, 0, 1, 1], [0, 0, 1, 0], [1, 1, 0, 1]],
    [[0, 1, 0, 1], [1, 1, 0, 0], [0, 0, 0, 1]],
    [[1, 0, 1, 0], [0, 1, 1, 1], [1, 0, 0, 0]],
]
NORMALIZER = [[1.0, 2.0, 0.0, 4.0], [0.5, 1.0, 1.0, 2.0], [2.0, 0.0, 1.0, 1.0]]


def _cases(tf):
    """name -> (function of the placeholders building (value, update_op), feeds of batch i)."""
    M = tf.compat.v1.metrics

    def scores():
        return tf.compat.v1.placeholder(tf.float32, [3, 4], name="scores")

    def with_labels(make, labels_of, dtype=tf.int64, shape=None):
        def build(ph):
            ph["scores"] = scores()
            ph["labels"] = tf.compat.v1.placeholder(dtype, shape, name="labels")
            return make(ph)
        return build, lambda i: {"scores": SCORES[i], "labels": labels_of(i)}

    def one(make):
        return with_labels(make, lambda i: ONE_LABEL[i], shape=[3])

    def multi(make):
        return with_labels(make, lambda i: MULTI_LABELS[i], shape=[3, 2])

    def sparse(make):
        def build(ph):
            ph["scores"] = scores()
            ph["labels"] = tf.compat.v1.sparse_placeholder(tf.int64, [3, 2], name="labels")
            return make(ph)
        return build, lambda i: {"scores": SCORES[i], "labels": SPARSE_LABELS[i]}

    def weighted(make, labels=one):
        build, feeds = labels(make)

        def build_w(ph):
            ph["weights"] = tf.compat.v1.placeholder(tf.float32, [3], name="weights")
            return build(ph)
        return build_w, lambda i: dict(feeds(i), weights=ROW_WEIGHTS[i])

    def binary(make):
        def build(ph):
            ph["scores"] = scores()
            ph["labels"] = tf.compat.v1.placeholder(tf.bool, [3, 4], name="labels")
            ph["weights"] = tf.compat.v1.placeholder(tf.float32, [3, 1], name="weights")
            return make(ph)
        return build, lambda i: {"scores": SCORES[i], "labels": np.array(BINARY[i], bool),
                                 "weights": [[w] for w in ROW_WEIGHTS[i]]}

    def s(ph):
        return ph["scores"]

    def lab(ph):
        return ph["labels"]

    def w(ph):
        return ph["weights"]

    thresholds = [0.0, 0.3, 0.5, 0.9]
    return {
        "precision_at_1": one(lambda ph: M.precision_at_k(lab(ph), s(ph), 1)),
        "precision_at_2": multi(lambda ph: M.precision_at_k(lab(ph), s(ph), 2)),
        "precision_at_2_class3": multi(lambda ph: M.precision_at_k(lab(ph), s(ph), 2,
                                                                    class_id=3)),
        "precision_at_2_weighted": weighted(lambda ph: M.precision_at_k(
            lab(ph), s(ph), 2, weights=w(ph))),
        "precision_at_3_sparse": sparse(lambda ph: M.precision_at_k(lab(ph), s(ph), 3)),
        "precision_at_3_sparse_class1": sparse(lambda ph: M.precision_at_k(
            lab(ph), s(ph), 3, class_id=1)),
        "sparse_precision_at_k": multi(lambda ph: M.sparse_precision_at_k(
            lab(ph), s(ph), 2, name="sp")),
        "recall_at_1": one(lambda ph: M.recall_at_k(lab(ph), s(ph), 1)),
        "recall_at_2": multi(lambda ph: M.recall_at_k(lab(ph), s(ph), 2)),
        "recall_at_2_class0": multi(lambda ph: M.recall_at_k(lab(ph), s(ph), 2, class_id=0)),
        "recall_at_2_weighted": weighted(lambda ph: M.recall_at_k(
            lab(ph), s(ph), 2, weights=w(ph)), labels=multi),
        "recall_at_3_sparse": sparse(lambda ph: M.recall_at_k(lab(ph), s(ph), 3)),
        "precision_at_top_k": multi(lambda ph: M.precision_at_top_k(
            lab(ph), tf.nn.top_k(s(ph), 2)[1])),
        "recall_at_top_k": multi(lambda ph: M.recall_at_top_k(
            lab(ph), tf.nn.top_k(s(ph), 2)[1], k=2, class_id=2)),
        "average_precision_at_1": one(lambda ph: M.average_precision_at_k(lab(ph), s(ph), 1)),
        "average_precision_at_3": multi(lambda ph: M.average_precision_at_k(
            lab(ph), s(ph), 3)),
        "average_precision_at_3_one": one(lambda ph: M.average_precision_at_k(
            lab(ph), s(ph), 3)),
        "average_precision_at_2_weighted": weighted(lambda ph: M.average_precision_at_k(
            lab(ph), s(ph), 2, weights=w(ph)), labels=multi),
        "average_precision_at_4_sparse": sparse(lambda ph: M.average_precision_at_k(
            lab(ph), s(ph), 4)),
        "sparse_average_precision_at_k": multi(lambda ph: M.sparse_average_precision_at_k(
            lab(ph), s(ph), 2)),
        "true_positives_at_thresholds": binary(lambda ph: M.true_positives_at_thresholds(
            lab(ph), s(ph), thresholds, weights=w(ph))),
        "false_positives_at_thresholds": binary(lambda ph: M.false_positives_at_thresholds(
            lab(ph), s(ph), thresholds)),
        "true_negatives_at_thresholds": binary(lambda ph: M.true_negatives_at_thresholds(
            lab(ph), s(ph), thresholds, weights=w(ph))),
        "false_negatives_at_thresholds": binary(lambda ph: M.false_negatives_at_thresholds(
            lab(ph), s(ph), thresholds)),
        "precision_at_thresholds": binary(lambda ph: M.precision_at_thresholds(
            lab(ph), s(ph), thresholds, weights=w(ph))),
        "recall_at_thresholds": binary(lambda ph: M.recall_at_thresholds(
            lab(ph), s(ph), thresholds)),
        "sensitivity_at_specificity": binary(lambda ph: M.sensitivity_at_specificity(
            lab(ph), s(ph), 0.6, num_thresholds=20)),
        "sensitivity_at_specificity_weighted": binary(lambda ph: M.sensitivity_at_specificity(
            lab(ph), s(ph), 0.8, weights=w(ph))),
        "specificity_at_sensitivity": binary(lambda ph: M.specificity_at_sensitivity(
            lab(ph), s(ph), 0.5, num_thresholds=20)),
        "specificity_at_sensitivity_weighted": binary(lambda ph: M.specificity_at_sensitivity(
            lab(ph), s(ph), 0.9, weights=w(ph))),
        "mean_cosine_distance": binary(lambda ph: M.mean_cosine_distance(
            tf.nn.l2_normalize(tf.cast(lab(ph), tf.float32), 1),
            tf.nn.l2_normalize(s(ph), 1), dim=1, weights=w(ph))),
        "mean_relative_error": binary(lambda ph: M.mean_relative_error(
            tf.cast(lab(ph), tf.float32), s(ph), tf.constant(NORMALIZER), weights=w(ph))),
        "mean_tensor": binary(lambda ph: M.mean_tensor(s(ph), weights=w(ph))),
        "mean_tensor_unweighted": binary(lambda ph: M.mean_tensor(s(ph), name="mt")),
        "percentage_below": binary(lambda ph: M.percentage_below(s(ph), 0.5, weights=w(ph))),
        "percentage_below_unweighted": binary(lambda ph: M.percentage_below(s(ph), 0.3)),
        "auc_roc": binary(lambda ph: M.auc(lab(ph), s(ph), weights=w(ph), num_thresholds=20)),
        "auc_roc_minoring": binary(lambda ph: M.auc(lab(ph), s(ph), num_thresholds=20,
                                                    summation_method="minoring")),
        "auc_roc_majoring": binary(lambda ph: M.auc(lab(ph), s(ph), weights=w(ph),
                                                    summation_method="majoring")),
        "auc_pr_trapezoidal": binary(lambda ph: M.auc(lab(ph), s(ph), curve="PR")),
        "auc_pr_careful_interpolation": binary(lambda ph: M.auc(
            lab(ph), s(ph), weights=w(ph), curve="PR",
            summation_method="careful_interpolation")),
        "auc_pr_careful_thresholds": binary(lambda ph: M.auc(
            lab(ph), s(ph), curve="PR", thresholds=thresholds,
            summation_method="careful_interpolation")),
        "auc_pr_minoring": binary(lambda ph: M.auc(lab(ph), s(ph), curve="PR",
                                                   summation_method="minoring")),
    }


def _json(v):
    v = np.asarray(v)
    if v.dtype.kind == "f":  # nan kept as a string (JSON has none)
        return np.where(np.isnan(v), "nan", v.astype(object)).tolist()
    return v.tolist()


def metric_runs(tf):
    """name -> {"runs": [[update, value] per batch], "variables": [(name, dtype, shape)],
    "dtypes": [value's, update's], "shapes": [...]}."""
    results = {}
    for name, (build, feeds) in _cases(tf).items():
        g = tf.Graph()
        with g.as_default():
            ph = {}
            value, update = build(ph)
            init = tf.compat.v1.local_variables_initializer()
            variables = [(v.name, v.dtype.base_dtype.name, v.shape.as_list())
                         for v in tf.compat.v1.local_variables()]
            assert variables == [(v.name, v.dtype.base_dtype.name, v.shape.as_list())
                                 for v in g.get_collection("metric_variables")]
        runs = []
        with tf.compat.v1.Session(graph=g) as sess:
            sess.run(init)
            for i in range(3):
                feed = {ph[k]: v for k, v in feeds(i).items()}
                got = sess.run(update, feed)
                runs.append([_json(got), _json(sess.run(value))])
        results[name] = {"runs": runs, "variables": variables,
                         "dtypes": [value.dtype.name, update.dtype.name],
                         "shapes": [value.shape.as_list(), update.shape.as_list()]}
    return results


def eager_errors(tf):
    """The error each metric raises when called eagerly."""
    M = tf.compat.v1.metrics
    calls = {
        "precision_at_k": lambda: M.precision_at_k([1], [[0.1, 0.9]], 1),
        "sparse_precision_at_k": lambda: M.sparse_precision_at_k([1], [[0.1, 0.9]], 1),
        "recall_at_k": lambda: M.recall_at_k([1], [[0.1, 0.9]], 1),
        "precision_at_top_k": lambda: M.precision_at_top_k([1], [[1]]),
        "average_precision_at_k": lambda: M.average_precision_at_k([1], [[0.1, 0.9]], 1),
        "sparse_average_precision_at_k": lambda: M.sparse_average_precision_at_k(
            [1], [[0.1, 0.9]], 1),
        "precision_at_thresholds": lambda: M.precision_at_thresholds([1], [0.5], [0.5]),
        "recall_at_thresholds": lambda: M.recall_at_thresholds([1], [0.5], [0.5]),
        "true_positives_at_thresholds": lambda: M.true_positives_at_thresholds(
            [1], [0.5], [0.5]),
        "sensitivity_at_specificity": lambda: M.sensitivity_at_specificity([1], [0.5], 0.5),
        "specificity_at_sensitivity": lambda: M.specificity_at_sensitivity([1], [0.5], 0.5),
        "mean_cosine_distance": lambda: M.mean_cosine_distance([[1.0]], [[1.0]], 1),
        "mean_relative_error": lambda: M.mean_relative_error([1.0], [1.0], [1.0]),
        "mean_tensor": lambda: M.mean_tensor([1.0]),
        "percentage_below": lambda: M.percentage_below([1.0], 0.5),
    }
    out = {}
    for name, call in calls.items():
        try:
            call()
            out[name] = None
        except Exception as e:  # noqa: BLE001 (recording whichever TF raises)
            out[name] = [type(e).__name__, str(e).splitlines()[0]]
    return out


def graph_errors(tf):
    """Errors raised while building, for arguments TF refuses."""
    M = tf.compat.v1.metrics
    calls = {
        "average_precision_k0": lambda: M.average_precision_at_k([[1]], [[0.1, 0.9]], 0),
        "specificity_out_of_range": lambda: M.sensitivity_at_specificity(
            [True], [0.5], 1.5),
        "sensitivity_out_of_range": lambda: M.specificity_at_sensitivity(
            [True], [0.5], -0.1),
        "labels_rank": lambda: M.precision_at_top_k(
            tf.constant([[[1]]], tf.int64), tf.constant([[1, 2]], tf.int64)),
        "auc_summation_method": lambda: M.auc(tf.constant([True]), tf.constant([0.5]),
                                              summation_method="simpson"),
        "auc_curve": lambda: M.auc([True], [0.5], curve="DET"),
    }
    out = {}
    for name, call in calls.items():
        with tf.Graph().as_default():
            try:
                call()
                out[name] = None
            except Exception as e:  # noqa: BLE001
                out[name] = [type(e).__name__, str(e).splitlines()[0]]
    return out


def out_of_range_predictions(tf):
    """Running a threshold metric on a prediction outside [0, 1] fails as TF's does."""
    g = tf.Graph()
    with g.as_default():
        p = tf.compat.v1.placeholder(tf.float32, [2])
        _, update = tf.compat.v1.metrics.precision_at_thresholds(
            tf.constant([True, False]), p, [0.5])
        init = tf.compat.v1.local_variables_initializer()
    with tf.compat.v1.Session(graph=g) as sess:
        sess.run(init)
        try:
            sess.run(update, {p: [0.5, 1.5]})
            return None
        except Exception as e:  # noqa: BLE001
            return [type(e).__name__, str(e).splitlines()[0]]

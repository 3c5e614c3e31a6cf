"""TF 1 loss programs (``tf.compat.v1.losses``) run by both TF (to record their results,
`data/make_v1_losses_data.py`) and eagerflow (`test_v1_losses.py`)."""
import numpy as np

LABELS = [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]
PRED = [[0.8, 0.3], [0.4, 0.6], [0.9, 0.2]]
LOGITS = [[2.0, -1.0], [0.5, 1.5], [-0.3, 0.7]]
LABELS_3D = (np.arange(24, dtype=np.float32).reshape(2, 3, 4) / 7.0).tolist()
PRED_3D = np.cos(np.arange(24, dtype=np.float32)).reshape(2, 3, 4).tolist()
WEIGHTS = [[1.0], [0.0], [2.0]]  # broadcast along the last axis; one row weighs nothing


def _cases(tf):
    """name -> a function building the loss tensor."""
    lab, pred, logits = tf.constant(LABELS), tf.constant(PRED), tf.constant(LOGITS)
    w = tf.constant(WEIGHTS)
    L = tf.losses
    R = L.Reduction
    cases = {
        "mse": lambda: L.mean_squared_error(lab, pred),
        "mse_weighted": lambda: L.mean_squared_error(lab, pred, weights=w),
        "mse_scalar_weight": lambda: L.mean_squared_error(lab, pred, weights=3.0),
        "absolute_difference": lambda: L.absolute_difference(lab, pred, weights=w),
        "log_loss": lambda: L.log_loss(lab, pred, weights=w),
        "sigmoid_ce": lambda: L.sigmoid_cross_entropy(lab, logits, weights=w),
        "sigmoid_ce_smooth": lambda: L.sigmoid_cross_entropy(lab, logits, label_smoothing=0.2),
        "softmax_ce": lambda: L.softmax_cross_entropy(
            tf.constant([[1.0, 0.0], [0.0, 1.0], [0.5, 0.5]]), logits,
            weights=tf.constant([1.0, 0.0, 2.0])),
        "softmax_ce_smooth": lambda: L.softmax_cross_entropy(
            tf.constant([[1.0, 0.0], [0.0, 1.0], [0.5, 0.5]]), logits, label_smoothing=0.1),
        "sparse_softmax_ce": lambda: L.sparse_softmax_cross_entropy(
            tf.constant([0, 1, 1]), logits, weights=tf.constant([1.0, 0.0, 2.0])),
        "hinge": lambda: L.hinge_loss(lab, logits, weights=w),
        "huber": lambda: L.huber_loss(lab, tf.constant(LOGITS), weights=w, delta=0.5),
        "none": lambda: L.mean_squared_error(lab, pred, weights=w, reduction=R.NONE,
                                            loss_collection=None),
        "sum": lambda: L.mean_squared_error(lab, pred, weights=w, reduction=R.SUM),
        "mean": lambda: L.mean_squared_error(lab, pred, weights=w, reduction=R.MEAN),
        "sum_over_batch_size": lambda: L.mean_squared_error(
            lab, pred, weights=w, reduction=R.SUM_OVER_BATCH_SIZE),
        "all_zero_weights": lambda: L.absolute_difference(lab, pred, weights=0.0),
        "mean_pairwise": lambda: L.mean_pairwise_squared_error(lab, pred),
        "mean_pairwise_weighted": lambda: L.mean_pairwise_squared_error(lab, pred, weights=w),
        "mean_pairwise_scalar_weight": lambda: L.mean_pairwise_squared_error(
            tf.constant(LABELS_3D), tf.constant(PRED_3D), weights=2.5),
        "mean_pairwise_3d": lambda: L.mean_pairwise_squared_error(
            tf.constant(LABELS_3D), tf.constant(PRED_3D),
            weights=tf.constant([[[1.0]], [[3.0]]])),
        "compute_weighted_loss": lambda: L.compute_weighted_loss(
            tf.constant([[1.0, 2.0], [3.0, 4.0]]), tf.constant([[0.0], [2.0]])),
    }
    return cases


def _json(v):
    return np.asarray(v).tolist()


def eager_losses(tf):
    return {name: _json(make()) for name, make in _cases(tf).items()}


def graph_losses(tf):
    """The same losses built in a graph and run by a Session, with the loss collection."""
    g = tf.Graph()
    with g.as_default():
        built = {name: make() for name, make in _cases(tf).items()}
        names = {name: t.name for name, t in built.items()}
        collected = [t.name for t in tf.losses.get_losses()]
        total = tf.losses.get_total_loss()
        reg = tf.losses.get_regularization_loss()
    with tf.Session(graph=g) as sess:
        values = sess.run(built)
        total, reg = sess.run([total, reg])
    return {"values": {k: _json(v) for k, v in values.items()}, "names": names,
            "collected": collected, "total": float(total), "regularization": float(reg),
            "reductions": sorted(tf.losses.Reduction.all())}

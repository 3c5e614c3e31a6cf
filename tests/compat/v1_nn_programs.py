"""TF 1 ``nn`` programs (``tf.compat.v1.nn``'s TF 1 signatures) run by both TF (to record
their results, `data/make_v1_nn_data.py`) and eagerflow (`test_v1_nn.py`)."""
import numpy as np

RNG = np.random.RandomState(3)
X = RNG.randn(2, 5, 5, 3).astype(np.float32)
W = RNG.randn(3, 3, 3, 4).astype(np.float32)
LOGITS = RNG.randn(4, 3).astype(np.float32)
LABELS = np.eye(3, dtype=np.float32)[[0, 2, 1, 1]] * 0.8 + 0.2 / 3
M = RNG.randn(4, 6).astype(np.float32)
MW = RNG.randn(6, 2).astype(np.float32)
MB = RNG.randn(2).astype(np.float32)
TABLE = RNG.randn(5, 2).astype(np.float32)


def _cases(tf):
    nn = tf.nn
    x, w = tf.constant(X), tf.constant(W)
    logits, labels = tf.constant(LOGITS), tf.constant(LABELS)
    return {
        "conv2d_filter": lambda: nn.conv2d(x, filter=w, strides=[1, 1, 1, 1], padding="SAME",
                                           use_cudnn_on_gpu=False),
        "conv2d_positional": lambda: nn.conv2d(x, w, [1, 2, 2, 1], "VALID", True, "NHWC"),
        "conv1d_value": lambda: nn.conv1d(value=x[:, 0], filters=w[0], stride=1,
                                          padding="VALID"),
        "conv2d_transpose_value": lambda: nn.conv2d_transpose(
            value=x, filter=tf.transpose(w, [0, 1, 3, 2]), output_shape=[2, 5, 5, 4],
            strides=[1, 1, 1, 1]),
        "depthwise_rate": lambda: nn.depthwise_conv2d(x, w[:, :, :, :1], [1, 1, 1, 1], "SAME",
                                                      rate=[2, 2]),
        "convolution_dilation_rate": lambda: nn.convolution(x, w, "SAME",
                                                            dilation_rate=[2, 2]),
        "max_pool": lambda: nn.max_pool(x, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1],
                                        padding="VALID"),
        "max_pool_value": lambda: nn.max_pool(value=x, ksize=3, strides=2, padding="SAME"),
        "avg_pool": lambda: nn.avg_pool(x, [1, 3, 3, 1], [1, 1, 1, 1], "SAME"),
        "moments_keep_dims": lambda: nn.moments(x, [0, 1, 2], keep_dims=True),
        "moments": lambda: nn.moments(x, [1, 2]),
        "sufficient_statistics": lambda: nn.sufficient_statistics(x, [0], keep_dims=True)[:3],
        "weighted_moments": lambda: nn.weighted_moments(tf.constant(M), [1],
                                                        tf.constant(MW[:4, :1]), keep_dims=True),
        "softmax_ce_v1": lambda: nn.softmax_cross_entropy_with_logits(labels=labels,
                                                                      logits=logits),
        "softmax_ce_v1_dim": lambda: nn.softmax_cross_entropy_with_logits(
            labels=tf.transpose(labels), logits=tf.transpose(logits), dim=0),
        "softmax_ce_v2": lambda: nn.softmax_cross_entropy_with_logits_v2(labels, logits),
        "softmax_dim": lambda: nn.softmax(logits, dim=0),
        "log_softmax_dim": lambda: nn.log_softmax(logits, dim=0),
        "in_top_k": lambda: nn.in_top_k(logits, tf.constant([0, 2, 1, 1]), 2),
        "xw_plus_b": lambda: nn.xw_plus_b(tf.constant(M), tf.constant(MW), tf.constant(MB)),
        "relu_layer": lambda: nn.relu_layer(tf.constant(M), tf.constant(MW), tf.constant(MB)),
        "embedding_lookup_mod": lambda: nn.embedding_lookup(
            [tf.constant(TABLE[:3]), tf.constant(TABLE[3:])], tf.constant([0, 1, 2, 3, 4])),
        "embedding_lookup_div": lambda: nn.embedding_lookup(
            [tf.constant(TABLE[:3]), tf.constant(TABLE[3:])], tf.constant([4, 0, 3]),
            partition_strategy="div"),
        "dropout_keep_all": lambda: nn.dropout(x, keep_prob=1.0),
        "depth_to_space": lambda: nn.depth_to_space(tf.reshape(x[:, :4, :4], [2, 2, 2, 12]),
                                                    2),
    }


def _json(v):
    if isinstance(v, (tuple, list)):
        return [_json(a) for a in v]
    return np.asarray(v).tolist()


def eager_results(tf):
    return {name: _json(make()) for name, make in _cases(tf).items()}


def graph_results(tf):
    """The same built in a graph: values from a Session, and the names of the results."""
    g = tf.Graph()
    with g.as_default():
        built = {name: make() for name, make in _cases(tf).items()}
        names = {name: [t.name for t in v] if isinstance(v, (tuple, list)) else v.name
                 for name, v in built.items()}
        logits = tf.constant(LOGITS)
        labels = tf.constant(LABELS)
        v1_loss = tf.reduce_sum(tf.nn.softmax_cross_entropy_with_logits(labels=labels,
                                                                       logits=logits))
        v2_loss = tf.reduce_sum(tf.nn.softmax_cross_entropy_with_logits_v2(labels, logits))
        v1_grad = tf.gradients(v1_loss, labels)[0]
        v2_grad = tf.gradients(v2_loss, labels)[0]
    with tf.Session(graph=g) as sess:
        values = sess.run(built)
        v2_grad = sess.run(v2_grad)
    return {"values": {k: _json(v) for k, v in values.items()}, "names": names,
            "labels_gradient_v1": v1_grad, "labels_gradient_v2": _json(v2_grad)}

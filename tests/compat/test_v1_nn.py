"""TF 1's signatures of ``tf.compat.v1.nn`` eagerly and in graphs, against TF's recorded
results (`data/make_v1_nn_data.py`)."""
import json
import os

import numpy as np
import pytest

import eagerflow as tf
import eagerflow.compat.v1 as tf1

from tests.compat.v1_nn_programs import X, eager_results, graph_results

with open(os.path.join(os.path.dirname(__file__), "data", "v1_nn.json")) as _f:
    RECORDED = json.load(_f)

# results named by their op as the user sees it (the others' names are TF's inner ops)
NAMED = ("avg_pool", "conv2d_filter", "conv2d_positional", "max_pool", "max_pool_value",
         "relu_layer", "xw_plus_b")

TUPLES = ("moments", "moments_keep_dims", "sufficient_statistics", "weighted_moments")


def _close(got, want):
    assert sorted(got) == sorted(want)
    for name in want:
        parts = want[name] if name in TUPLES else [want[name]]
        for g, w in zip(got[name] if name in TUPLES else [got[name]], parts, strict=True):
            np.testing.assert_allclose(np.asarray(g, np.float64), np.asarray(w, np.float64),
                                       rtol=2e-5, atol=2e-5, err_msg=name)


def test_eager_results_are_tfs():
    _close(eager_results(tf1), RECORDED["eager"])


def test_graph_results_names_and_the_v1_cross_entropy_stopping_labels_gradient():
    got, want = graph_results(tf1), RECORDED["graph"]
    _close(got.pop("values"), want.pop("values"))
    names, want_names = got.pop("names"), want.pop("names")
    assert {k: names[k] for k in NAMED} == {k: want_names[k] for k in NAMED}
    np.testing.assert_allclose(got.pop("labels_gradient_v2"), want.pop("labels_gradient_v2"),
                               rtol=1e-5, atol=1e-6)
    assert got == want


def test_tf1_spellings_are_exclusive_with_tf2_ones():
    x = tf.constant(X)
    with pytest.raises(ValueError, match="Cannot specify both 'keep_prob' and 'rate'."):
        tf1.nn.dropout(x, keep_prob=0.5, rate=0.5)
    with pytest.raises(ValueError, match="`rate` must be provided"):
        tf1.nn.dropout(x)
    with pytest.raises(ValueError, match="Cannot specify both 'keep_dims' and 'keepdims'."):
        tf1.nn.moments(x, [0], keep_dims=True, keepdims=False)
    with pytest.raises(ValueError, match="Cannot specify both 'filter' and 'filters'."):
        tf1.nn.conv2d(x, filter=x, filters=x, strides=1, padding="SAME")
    with pytest.raises(ValueError, match="Cannot specify both 'value' and 'input'."):
        tf1.nn.max_pool(value=x, input=x, ksize=2, strides=2, padding="VALID")
    with pytest.raises(ValueError, match="Cannot specify both 'dim' and 'axis'."):
        tf1.nn.softmax(x, dim=0, axis=1)


def test_dropout_keep_prob_keeps_or_scales_each_element():
    x = tf.ones([1000])
    y = tf1.nn.dropout(x, keep_prob=0.25, seed=1).numpy()
    assert set(np.unique(y)) <= {0.0, 4.0} and 0 < (y == 4.0).sum() < 1000
    with pytest.raises(ValueError, match="keep_prob"):
        tf1.nn.dropout(x, keep_prob=0.0)


def test_other_names_are_tf2s():
    assert tf1.nn.relu is tf.nn.relu and tf1.nn.l2_loss is tf.nn.l2_loss
    with pytest.raises(AttributeError, match="no attribute 'not_a_function'"):
        tf1.nn.not_a_function


def test_an_op_named_by_its_name_scope_takes_the_scopes_name():
    g = tf1.Graph()
    with g.as_default():
        with tf1.name_scope("a") as scope:
            x = tf.add(1.0, 2.0, name=scope)
        y = tf.add(1.0, 2.0, name="a")
    assert (x.name, y.name) == ("a:0", "a_1:0")

    @tf.function
    def f():
        with tf.name_scope("b") as scope:
            return tf.add(1.0, 2.0, name=scope)
    assert f.get_concrete_function().graph.get_operation_by_name("b").type == "AddV2"


def test_gradient_of_a_pad_with_unknown_dims():
    @tf.function(input_signature=[tf.TensorSpec([None, 2])])
    def grad(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.pad(x, [[1, 0], [0, 2]], constant_values=1.0) * tf.range(4.0)
        return tape.gradient(y, x)
    assert grad(tf.ones([3, 2])).numpy().tolist() == [[0.0, 1.0]] * 3


def test_fused_batch_norm_trains_and_infers_with_its_gradient():
    x = tf.constant(np.arange(24, dtype=np.float32).reshape(1, 2, 3, 4) / 7.0)
    with tf.GradientTape() as t:
        t.watch(x)
        y, mean, var = tf.compat.v1.nn.fused_batch_norm(x, tf.ones([4]), tf.zeros([4]))
        loss = tf.reduce_sum(y ** 3)
    flat = x.numpy().reshape(-1, 4)
    np.testing.assert_allclose(mean.numpy(), flat.mean(0), rtol=1e-6)
    np.testing.assert_allclose(var.numpy(), flat.var(0, ddof=1), rtol=1e-5)
    assert t.gradient(loss, x).shape == (1, 2, 3, 4)
    y2 = tf.compat.v1.nn.fused_batch_norm(x, tf.ones([4]), tf.zeros([4]), mean, var,
                                          is_training=False)[0]
    np.testing.assert_allclose(y2.numpy().reshape(-1, 4),
                               (flat - flat.mean(0)) / np.sqrt(flat.var(0, ddof=1) + 1e-3),
                               rtol=1e-4, atol=1e-5)
    with pytest.raises(ValueError, match="Both `mean` and `variance`"):
        tf.compat.v1.nn.fused_batch_norm(x, tf.ones([4]), tf.zeros([4]), is_training=False)


@pytest.mark.parametrize("strategy, rows", [
    ("mod", [[[0., 1.], [8., 9.]], [[4., 5.], [6., 7.]]]),
    ("div", [[[0., 1.], [6., 7.]], [[8., 9.], [2., 3.]]])])
def test_sharded_embedding_lookup_gives_each_shard_a_sparse_gradient(strategy, rows):
    # TF's values; each shard's gradient is an IndexedSlices, and the shards may have dims
    # known only when the function runs
    a = tf.Variable(np.arange(6, dtype=np.float32).reshape(3, 2))
    b = tf.Variable(np.arange(6, 10, dtype=np.float32).reshape(2, 2))
    ids = [[0, 3], [4, 1]]
    with tf.GradientTape() as tape:
        y = tf1.nn.embedding_lookup([a, b], ids, partition_strategy=strategy)
        loss = tf.reduce_sum(y * [[1.], [2.]])
    assert y.numpy().tolist() == rows
    grads = tape.gradient(loss, [a, b])
    assert [type(g) for g in grads] == [tf.IndexedSlices] * 2
    dense = {"mod": [[[1., 1.], [0., 0.], [1., 1.]], [[2., 2.], [2., 2.]]],
             "div": [[[1., 1.], [2., 2.], [0., 0.]], [[2., 2.], [1., 1.]]]}[strategy]
    assert [tf.convert_to_tensor(g).numpy().tolist() for g in grads] == dense
    lookup = tf.function(
        lambda p, q: tf1.nn.embedding_lookup([p, q], ids, partition_strategy=strategy),
        input_signature=[tf.TensorSpec([None, None])] * 2)
    assert lookup(a, b).numpy().tolist() == rows


def test_tf1_argument_orders_and_spellings_of_pooling_convolution_and_losses():
    # (TF's values of these calls)
    nn = tf1.nn
    x = tf.constant(np.arange(150, dtype=np.float32).reshape(2, 5, 5, 3) % 7)
    assert nn.pool(x, [2, 2], "MAX", "SAME").numpy().sum() == 739.0  # (padding fourth)
    assert nn.pool(x, [2, 2], "AVG", "VALID", [2, 2]).numpy().sum() == 155.5  # dilation_rate
    assert nn.pool(x, [2, 2], "AVG", "VALID", dilation_rate=[1, 2]).numpy().sum() == 206.75
    assert nn.pool(x, [2, 2], "MAX", "SAME", None, [2, 2], "p").numpy().sum() == 246.0
    with pytest.raises(ValueError, match="Cannot specify both 'dilation_rate' and 'dilations'"):
        nn.pool(x, [2, 2], "MAX", "VALID", dilation_rate=[2, 2], dilations=[2, 2])
    assert nn.avg_pool2d(value=x, ksize=2, strides=2, padding="SAME").numpy().sum() == 157.5
    f = tf.ones([2, 2, 3, 1])
    y = tf.nn.depthwise_conv2d(x, f, [1, 1, 1, 1], "SAME")
    assert nn.depthwise_conv2d_native_backprop_filter(
        x, [2, 2, 3, 1], y, [1, 1, 1, 1], "SAME").numpy().sum() == 16628.0
    assert nn.depthwise_conv2d_native_backprop_input(
        [2, 5, 5, 3], f, y, [1, 1, 1, 1], "SAME").numpy().sum() == 5210.0
    np.testing.assert_allclose(nn.weighted_cross_entropy_with_logits(
        targets=[1., 0.], logits=[0.5, -1.], pos_weight=2.), [0.948154, 0.31326175], rtol=1e-6)
    np.testing.assert_allclose(nn.batch_norm_with_global_normalization(
        t=x, m=tf.constant([1., 2., 3.]), v=tf.constant([1., 1., 4.]), beta=tf.zeros([3]),
        gamma=tf.ones([3]), variance_epsilon=0.001,
        scale_after_normalization=True).numpy().sum(), 144.42761, rtol=1e-5)
    x3, f3 = tf.ones([1, 2, 2, 2, 1]), tf.ones([2, 2, 2, 1, 1])
    assert nn.conv3d_transpose(x3, f3, [1, 4, 4, 4, 1], [1, 2, 2, 2, 1], "SAME", "NDHWC",
                               "ct").numpy().sum() == 64.0  # (name seventh)
    assert nn.conv3d_transpose(value=x3, filter=f3, output_shape=[1, 4, 4, 4, 1],
                               strides=[1, 2, 2, 2, 1]).numpy().sum() == 64.0
    assert nn.crelu(tf.constant([[1., -2.]]), "c", 0).numpy().tolist() == [[1.0, 0.0],
                                                                            [0.0, 2.0]]


def test_sparse_embedding_lookups_split_shards_by_tf1s_partition_strategy():
    # (TF's values: TF 1's embedding_lookup_sparse puts id i in shard i % 2 by default)
    shards = [tf.constant([[0.], [2.], [4.]]), tf.constant([[1.], [3.]])]
    ids = tf.SparseTensor([[0, 0], [0, 1], [1, 0], [2, 0]], tf.constant([1, 2, 3, 4], tf.int64),
                          [3, 2])
    w = tf.SparseTensor([[0, 0], [0, 1], [1, 0], [2, 0]], tf.constant([1., 2., 3., 1.]), [3, 2])
    nn = tf1.nn
    for got, want in (
            (nn.embedding_lookup_sparse(shards, ids, None), [1.5, 3., 4.]),
            (nn.embedding_lookup_sparse(shards, ids, w, combiner="sum"), [5., 9., 4.]),
            (nn.embedding_lookup_sparse(shards, ids, w, "div", combiner="sum"), [10., 3., 3.]),
            (nn.embedding_lookup_sparse(shards, ids, None, partition_strategy="div"),
             [3., 1., 3.]),
            (tf.nn.embedding_lookup_sparse(shards, ids, None), [3., 1., 3.]),
            (nn.safe_embedding_lookup_sparse(shards, ids), [3., 1., 3.]),
            (nn.safe_embedding_lookup_sparse(shards, ids, partition_strategy="mod"),
             [1.5, 3., 4.]),
            (nn.safe_embedding_lookup_sparse(shards, ids, w, "sum", None, None, "mod"),
             [5., 9., 4.])):
        np.testing.assert_allclose(got.numpy().ravel(), want)
    v = [tf.Variable(s) for s in shards]
    with tf.GradientTape() as tape:
        r = nn.embedding_lookup_sparse(v, ids, w, combiner="sum")
    grads = tape.gradient(r, v)
    assert [tf.convert_to_tensor(g).numpy().ravel().tolist() for g in grads] == [
        [0.0, 2.0, 1.0], [1.0, 3.0]]


def test_sampled_losses_split_sharded_weights_by_tf1s_partition_strategy():
    # (TF's values: TF 1's losses take class i from shard i % 2 by default, TF 2's "div")
    w = [tf.constant(np.arange(6, dtype=np.float32).reshape(3, 2) / 5),
         tf.constant(-np.arange(4, dtype=np.float32).reshape(2, 2) / 3)]
    b = tf.constant([0.1, 0.2, 0.3, 0.4, 0.5])
    x = tf.constant([[1., 2.], [0.5, -1.]])
    labels = tf.constant([[1], [4]], tf.int64)
    sampled = (tf.constant([0, 3], tf.int64), tf.constant([[0.5], [0.5]]),
               tf.constant([0.25, 0.25]))
    mod_div = {"mod": ([2.960647, 4.5056734], [1.8853909, 2.243105]),
               "div": ([3.5089836, 3.9079862], [0.5868293, 1.0509012])}
    for strategy, kwargs in (("mod", {}), ("div", {"partition_strategy": "div"}),
                             ("mod", {"partition_strategy": "mod"})):
        nce, softmax = mod_div[strategy]
        np.testing.assert_allclose(tf1.nn.nce_loss(w, b, labels, x, 2, 5,
                                                   sampled_values=sampled, **kwargs),
                                   nce, rtol=1e-6)
        np.testing.assert_allclose(tf1.nn.sampled_softmax_loss(w, b, labels, x, 2, 5,
                                                               sampled_values=sampled, **kwargs),
                                   softmax, rtol=1e-6)
    np.testing.assert_allclose(tf.nn.nce_loss(w, b, labels, x, 2, 5, sampled_values=sampled),
                               mod_div["div"][0], rtol=1e-6)


def test_max_pool_with_argmax_takes_tf1s_targmax_and_argument_order():
    x = tf.constant(np.arange(32, dtype=np.float32).reshape(2, 4, 4, 1) % 5)
    args = (x, [1, 2, 2, 1], [1, 2, 2, 1], "SAME")
    for kwargs, dtype in (({"Targmax": tf.int32}, tf.int32), ({}, tf.int64),
                          ({"output_dtype": tf.int32}, tf.int32)):
        _, argmax = tf1.nn.max_pool_with_argmax(*args, **kwargs)
        assert argmax.dtype == dtype
        assert argmax.numpy().ravel().tolist() == [4, 3, 9, 14, 1, 3, 8, 11]
    _, argmax = tf1.nn.max_pool_with_argmax(*args, "NHWC", tf.int32, "m")
    assert argmax.dtype == tf.int32
    with pytest.raises(ValueError, match="Cannot specify both 'Targmax' and 'output_dtype'"):
        tf1.nn.max_pool_with_argmax(*args, Targmax=tf.int32, output_dtype=tf.int64)

"""Attention layers and EinsumDense against NumPy references for fixed weights: masks (Keras
masks, attention masks, causal), attention over several axes, weights as tf_keras 2.21 names
and orders them, configs, gradients, dropout, functional models, tracing and errors."""
import logging
import math
import warnings

import numpy as np
import pytest

import eagerflow as tf
from eagerflow.keras import layers as attention
from eagerflow.keras.layers import EinsumDense

RNG = np.random.default_rng(0)


def rand(*shape):
    return RNG.standard_normal(shape).astype(np.float32)


def randomize(layer):
    weights = [rand(*w.shape) * 0.5 for w in layer.get_weights()]
    layer.set_weights(weights)
    return weights


def linspace_weights(layer):
    layer.set_weights([np.linspace(-1, 1, w.size, dtype=np.float32).reshape(w.shape)
                       for w in layer.get_weights()])


def np_softmax(x, axis=-1):
    e = np.exp(x - x.max(axis, keepdims=True))
    return e / e.sum(axis, keepdims=True)


def np_causal(query_length, value_length):
    return np.tril(np.ones((query_length, value_length), bool))


# -- MultiHeadAttention -------------------------------------------------------------------

def np_mha(query, value, key, weights, key_dim, mask=None, use_bias=True):
    """Multi-head attention of (B, T, D) query over (B, S, D) key/value; `weights` in Keras's
    order. Returns (output (B, T, *out), scores (B, N, T, S))."""
    kernels = weights[::2] if use_bias else weights
    biases = weights[1::2] if use_bias else [0.0] * 4
    q, k, v = (np.einsum("btd,dnh->btnh", x, w) + b
               for x, w, b in zip((query, key, value), kernels[:3], biases[:3]))
    scores = np.einsum("bsnh,btnh->bnts", k, q / math.sqrt(key_dim))
    if mask is not None:
        scores = scores - 1e9 * (1.0 - mask[:, None].astype(np.float32))
    scores = np_softmax(scores)
    context = np.einsum("bnts,bsnh->btnh", scores, v)
    output = np.tensordot(context, kernels[3], ([2, 3], [0, 1])) + biases[3]
    return output, scores


@pytest.mark.parametrize("kwargs, with_key, with_mask, causal", [
    ({"num_heads": 2, "key_dim": 3}, False, False, False),
    ({"num_heads": 3, "key_dim": 2, "value_dim": 4}, True, True, False),
    ({"num_heads": 2, "key_dim": 3, "output_shape": (2, 5), "use_bias": False}, False, False,
     True),
    ({"num_heads": 2, "key_dim": 3, "softmax_robust_masking": True}, False, True, True),
    ({"num_heads": 1, "key_dim": 4, "output_shape": 3}, True, True, True),
])
def test_mha_matches_numpy(kwargs, with_key, with_mask, causal):
    query, value, key = rand(2, 4, 6), rand(2, 5, 6), rand(2, 5, 6)
    mask = RNG.random((2, 4, 5)) > 0.3
    layer = attention.MultiHeadAttention(**kwargs)
    call = {"key": key if with_key else None, "attention_mask": mask if with_mask else None,
            "use_causal_mask": causal, "return_attention_scores": True}
    layer(query, value, **call)
    weights = randomize(layer)
    output, scores = layer(query, value, **call)
    full_mask = (mask if with_mask else np.ones((2, 4, 5), bool)) & \
        (np_causal(4, 5) if causal else True)
    expected, expected_scores = np_mha(query, value, key if with_key else value, weights,
                                       kwargs["key_dim"], full_mask,
                                       kwargs.get("use_bias", True))
    np.testing.assert_allclose(scores.numpy(), expected_scores, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(output.numpy(), expected.reshape(output.shape), rtol=1e-4,
                               atol=1e-5)


def test_mha_tf_keras_values():
    # tf_keras 2.21, every weight np.linspace(-1, 1, size) reshaped, causal mask.
    query = np.linspace(-1, 1, 24, dtype=np.float32).reshape(2, 3, 4)
    value = np.cos(np.arange(16, dtype=np.float32)).reshape(2, 2, 4)
    layer = attention.MultiHeadAttention(num_heads=2, key_dim=2)
    layer(query, value)
    linspace_weights(layer)
    output, scores = layer(query, value, return_attention_scores=True, use_causal_mask=True)
    np.testing.assert_allclose(output.numpy()[0], [[2.303118, 1.984693, 1.666268, 1.347843],
                                                   [2.941719, 3.737879, 4.534038, 5.330197],
                                                   [3.657607, 4.359982, 5.062358, 5.764733]],
                               rtol=1e-5)
    np.testing.assert_allclose(output.numpy()[1, 0], [-0.006001, 0.734882, 1.475766, 2.216649],
                               rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(scores.numpy()[1, 1], [[1, 0], [0.870348, 0.129652],
                                                      [0.900158, 0.099842]], rtol=1e-5)


@pytest.mark.parametrize("shape, axes", [((2, 3, 4, 2, 6), (2, 3)), ((2, 3, 4, 6), 2),
                                         ((2, 3, 4, 6), (1, 2))])
def test_mha_attention_axes(shape, axes):
    """Attending over several axes is attending over their flattening; the other axes act as
    extra batch axes."""
    x = rand(*shape)
    layer = attention.MultiHeadAttention(num_heads=2, key_dim=2, attention_axes=axes)
    layer(x, x)
    weights = randomize(layer)
    output, scores = layer(x, x, return_attention_scores=True)
    axes = (axes,) if isinstance(axes, int) else axes
    batch_axes = [a for a in range(1, len(shape) - 1) if a not in axes]
    moved = np.transpose(x, [0, *batch_axes, *axes, len(shape) - 1])
    lead, attended = moved.shape[:1 + len(batch_axes)], moved.shape[1 + len(batch_axes):-1]
    flat = moved.reshape(-1, math.prod(attended), shape[-1])
    expected, expected_scores = np_mha(flat, flat, flat, weights, 2)
    np.testing.assert_allclose(
        scores.numpy(), expected_scores.reshape(*lead, 2, *attended, *attended), rtol=1e-4,
        atol=1e-6)
    expected = expected.reshape(*lead, *attended, shape[-1])
    restore = np.argsort([0, *batch_axes, *axes, len(shape) - 1])
    np.testing.assert_allclose(output.numpy(), np.transpose(expected, restore), rtol=1e-4,
                               atol=1e-5)


def test_mha_keras_masks():
    """The query's and value's Keras masks restrict attention, and the output keeps the
    query's mask."""
    embedding = tf.keras.layers.Embedding(10, 6, mask_zero=True)
    query_ids = np.array([[1, 2, 0, 0], [3, 4, 5, 0]])
    value_ids = np.array([[1, 0, 2], [3, 4, 0]])
    query, value = embedding(query_ids), embedding(value_ids)
    layer = attention.MultiHeadAttention(num_heads=2, key_dim=3)
    layer(query, value)
    weights = randomize(layer)
    extra = RNG.random((2, 4, 3)) > 0.2
    output, scores = layer(query, value, attention_mask=extra, return_attention_scores=True)
    mask = (query_ids != 0)[:, :, None] & (value_ids != 0)[:, None, :] & extra
    expected, expected_scores = np_mha(query.numpy(), value.numpy(), value.numpy(), weights, 3,
                                       mask)
    np.testing.assert_allclose(scores.numpy(), expected_scores, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(output.numpy(), expected, rtol=1e-4, atol=1e-5)
    np.testing.assert_array_equal(output._keras_mask.numpy(), query_ids != 0)


def test_mha_weights_as_keras():
    layer = attention.MultiHeadAttention(num_heads=2, key_dim=3, value_dim=5, name="mha")
    layer(rand(1, 4, 6), rand(1, 2, 7))
    assert [(w.name, tuple(w.shape)) for w in layer.weights] == [
        ("mha/query/kernel:0", (6, 2, 3)), ("mha/query/bias:0", (2, 3)),
        ("mha/key/kernel:0", (7, 2, 3)), ("mha/key/bias:0", (2, 3)),
        ("mha/value/kernel:0", (7, 2, 5)), ("mha/value/bias:0", (2, 5)),
        ("mha/attention_output/kernel:0", (2, 5, 6)), ("mha/attention_output/bias:0", (6,))]
    unbiased = attention.MultiHeadAttention(num_heads=2, key_dim=3, use_bias=False,
                                            output_shape=(7,), name="nobias")
    unbiased(rand(1, 4, 6), rand(1, 2, 6))
    assert [w.name for w in unbiased.weights] == [
        "nobias/query/kernel:0", "nobias/key/kernel:0", "nobias/value/kernel:0",
        "nobias/attention_output/kernel:0"]
    assert unbiased.weights[-1].shape == (2, 3, 7)


def test_mha_initializers_regularizers_constraints():
    layer = attention.MultiHeadAttention(
        num_heads=2, key_dim=2, kernel_initializer="ones", bias_initializer="ones",
        kernel_regularizer="l2", kernel_constraint="non_neg")
    layer(rand(1, 3, 4), rand(1, 3, 4))
    assert all(np.all(w.numpy() == 1) for w in layer.weights)
    assert len(layer.losses) == 4  # one per kernel
    assert all(w.constraint is not None for w in layer.weights if "kernel" in w.name)


def test_mha_config_round_trip():
    layer = attention.MultiHeadAttention(num_heads=2, key_dim=3, attention_axes=1,
                                         output_shape=(5,), dropout=0.1, name="m")
    config = layer.get_config()
    assert config["attention_axes"] == (1,)
    assert config["query_shape"] is None
    query, value = rand(2, 4, 6), rand(2, 3, 6)
    layer(query, value)
    config = layer.get_config()
    assert {k: config[k] for k in ("num_heads", "key_dim", "value_dim", "dropout", "use_bias",
                                   "output_shape", "query_shape", "key_shape",
                                   "value_shape", "softmax_robust_masking")} == {
        "num_heads": 2, "key_dim": 3, "value_dim": 3, "dropout": 0.1, "use_bias": True,
        "output_shape": (5,), "query_shape": [2, 4, 6], "key_shape": [2, 3, 6],
        "value_shape": [2, 3, 6], "softmax_robust_masking": False}
    assert config["kernel_initializer"]["class_name"] == "GlorotUniform"
    clone = attention.MultiHeadAttention.from_config(config)
    assert clone.get_config() == config
    clone(query, value)
    clone.set_weights(layer.get_weights())
    np.testing.assert_allclose(clone(query, value).numpy(), layer(query, value).numpy())
    assert type(tf.keras.layers.deserialize(
        {"class_name": "MultiHeadAttention", "config": config})) is attention.MultiHeadAttention


def test_mha_dropout():
    query, value = rand(2, 4, 6), rand(2, 5, 6)
    layer = attention.MultiHeadAttention(num_heads=2, key_dim=3, dropout=0.5)
    plain = attention.MultiHeadAttention(num_heads=2, key_dim=3)
    plain(query, value)
    layer(query, value)
    layer.set_weights(plain.get_weights())
    np.testing.assert_array_equal(layer(query, value, training=False).numpy(),
                                  plain(query, value).numpy())
    dropped, scores = layer(query, value, training=True, return_attention_scores=True)
    assert not np.allclose(dropped.numpy(), plain(query, value).numpy())
    # The returned scores are those before dropout.
    np.testing.assert_allclose(scores.numpy(),
                               plain(query, value, return_attention_scores=True)[1].numpy(),
                               rtol=1e-6)


def test_mha_gradients_reach_every_weight():
    layer = attention.MultiHeadAttention(num_heads=2, key_dim=3)
    query = tf.Variable(rand(2, 4, 6))
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(layer(query, rand(2, 5, 6), use_causal_mask=True) ** 2)
    grads = tape.gradient(loss, layer.trainable_weights + [query])
    assert len(grads) == 9
    assert all(g is not None and np.all(np.isfinite(g.numpy())) and np.any(g.numpy() != 0)
               for g in grads)


def test_mha_in_functional_model():
    query, value = tf.keras.Input((4, 6)), tf.keras.Input((5, 6))
    layer = attention.MultiHeadAttention(num_heads=2, key_dim=3)
    output, scores = layer(query, value, return_attention_scores=True)
    assert output.shape.as_list() == [None, 4, 6] and scores.shape.as_list() == [None, 2, 4, 5]
    model = tf.keras.Model([query, value], [output, scores])
    q, v = rand(2, 4, 6), rand(2, 5, 6)
    got = model([q, v])
    expected = layer(q, v, return_attention_scores=True)
    for a, b in zip(got, expected):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-6)
    assert len(model.trainable_weights) == 8


def test_mha_traced_creates_weights_and_accepts_unknown_lengths():
    layer = attention.MultiHeadAttention(num_heads=2, key_dim=3, name="traced")
    traced = tf.function(lambda q, v: layer(q, v, use_causal_mask=True),
                         input_signature=[tf.TensorSpec((None, None, 6)),
                                          tf.TensorSpec((None, None, 6))])
    q, v = rand(2, 4, 6), rand(2, 3, 6)
    out = traced(q, v)
    assert layer.weights[0].name == "traced/query/kernel:0"
    np.testing.assert_allclose(out.numpy(), layer(q, v, use_causal_mask=True).numpy(),
                               rtol=1e-6)
    np.testing.assert_allclose(traced(q[:, :2], v).numpy(),
                               layer(q[:, :2], v, use_causal_mask=True).numpy(), rtol=1e-6)


def test_mha_output_shape():
    layer = attention.MultiHeadAttention(num_heads=2, key_dim=3)
    assert layer.compute_output_shape((None, 3, 4), (None, 5, 4)).as_list() == [None, 3, 4]
    assert attention.MultiHeadAttention(2, 3, output_shape=(2, 3)).compute_output_shape(
        (None, 3, 4), (None, 5, 4)).as_list() == [None, 3, 2, 3]
    with pytest.raises(ValueError, match=r"^The last dimension of `query_shape` and "
                                         r"`value_shape` must be equal, but are 4, 6\."):
        layer.compute_output_shape((None, 3, 4), (None, 5, 6))
    with pytest.raises(ValueError, match=r"^All dimensions of `value` and `key`, except the "
                                         r"last one, must be equal\. Received \(None, 5, 4\) "
                                         r"and \(None, 6, 4\)$"):
        layer.compute_output_shape((None, 3, 4), (None, 5, 4), (None, 6, 4))


# -- Attention and AdditiveAttention ------------------------------------------------------

def np_dense_attention(scores, value, query_mask, value_mask, causal):
    """softmax(masked scores) @ value, zero at masked query steps; (output, weights)."""
    keep = value_mask[:, None, :] & (np_causal(*scores.shape[1:]) if causal else True)
    weights = np_softmax(scores - 1e9 * (1.0 - keep))
    return (weights @ value) * query_mask[:, :, None], weights


@pytest.mark.parametrize("kwargs, causal", [
    ({}, False), ({"use_scale": True}, True), ({"score_mode": "concat"}, False),
    ({"use_scale": True, "score_mode": "concat"}, True)])
def test_attention_matches_numpy(kwargs, causal):
    query, value, key = rand(2, 4, 6), rand(2, 5, 6), rand(2, 5, 6)
    query_mask, value_mask = RNG.random((2, 4)) > 0.3, RNG.random((2, 5)) > 0.2
    value_mask[:, 0] = True
    layer = attention.Attention(**kwargs)
    layer([query, value, key])
    weights = randomize(layer)
    output, scores = layer([query, value, key], mask=[query_mask, value_mask],
                           use_causal_mask=causal, return_attention_scores=True)
    scale = weights[0] if kwargs.get("use_scale") else 1.0
    if kwargs.get("score_mode") == "concat":
        raw = weights[-1] * np.tanh(scale * (query[:, :, None] + key[:, None])).sum(-1)
    else:
        raw = scale * query @ key.transpose(0, 2, 1)
    expected, expected_scores = np_dense_attention(raw, value, query_mask, value_mask, causal)
    np.testing.assert_allclose(scores.numpy(), expected_scores, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(output.numpy(), expected, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("use_scale", [True, False])
def test_additive_attention_matches_numpy(use_scale):
    query, value = rand(2, 4, 6), rand(2, 5, 6)
    layer = attention.AdditiveAttention(use_scale=use_scale)
    layer([query, value])
    scale = randomize(layer)[0] if use_scale else 1.0
    output, scores = layer([query, value], use_causal_mask=True, return_attention_scores=True)
    raw = (scale * np.tanh(query[:, :, None] + value[:, None])).sum(-1)
    expected, expected_scores = np_dense_attention(raw, value, np.ones((2, 4), bool),
                                                   np.ones((2, 5), bool), True)
    np.testing.assert_allclose(scores.numpy(), expected_scores, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(output.numpy(), expected, rtol=1e-5, atol=1e-6)


def test_additive_attention_tf_keras_values():
    # tf_keras 2.21 with scale = np.linspace(-1, 1, 4).
    query = np.linspace(-1, 1, 24, dtype=np.float32).reshape(2, 3, 4)
    value = np.cos(np.arange(16, dtype=np.float32)).reshape(2, 2, 4)
    layer = attention.AdditiveAttention()
    layer([query, value])
    linspace_weights(layer)
    out = layer([query, value], mask=[np.array([[True, True, False], [True, True, True]]),
                                      np.array([[True, False], [True, True]])])
    np.testing.assert_allclose(out.numpy(), [
        [[1, 0.540302, -0.416147, -0.989992], [1, 0.540302, -0.416147, -0.989992],
         [0, 0, 0, 0]],
        [[0.005186, -0.634148, -0.690449, -0.111954], [0.046263, -0.558642, -0.649934,
                                                      -0.143679],
         [0.116764, -0.42905, -0.580398, -0.198131]]], rtol=1e-4, atol=1e-6)


def test_dense_attention_masks_and_weights():
    embedding = tf.keras.layers.Embedding(10, 4, mask_zero=True)
    ids = np.array([[1, 2, 0], [3, 0, 0]])
    x = embedding(ids)
    out = attention.Attention()([x, x])
    np.testing.assert_array_equal(out._keras_mask.numpy(), ids != 0)
    np.testing.assert_array_equal(out.numpy()[ids == 0], 0)
    layer = attention.Attention(use_scale=True, score_mode="concat", name="att")
    layer([x, x])
    assert [(w.name, tuple(w.shape)) for w in layer.weights] == [
        ("att/scale:0", ()), ("att/concat_score_weight:0", ())]
    additive = attention.AdditiveAttention(name="add_att")
    additive([x, x])
    assert [(w.name, tuple(w.shape)) for w in additive.weights] == [("add_att/scale:0", (4,))]
    assert additive.compute_output_shape([(None, 3, 4), (None, 5, 4)]).as_list() == \
        [None, 3, 4]


def test_dense_attention_configs(caplog):
    layer = attention.Attention(use_scale=True, score_mode="concat", dropout=0.2, name="a")
    assert layer.get_config() == {"name": "a", "trainable": True, "dtype": "float32",
                                  "dropout": 0.2, "use_scale": True, "score_mode": "concat"}
    assert attention.Attention.from_config(layer.get_config()).get_config() == \
        layer.get_config()
    additive = attention.AdditiveAttention(use_scale=False, name="b")
    assert additive.get_config() == {"name": "b", "trainable": True, "dtype": "float32",
                                     "dropout": 0.0, "use_scale": False}
    with caplog.at_level(logging.WARNING, "absl"):  # (logged as tf_keras logs it)
        causal = attention.Attention(causal=True)
    assert any("`causal` argument is deprecated" in r.getMessage() for r in caplog.records
               if r.name == "absl")
    x = rand(1, 3, 2)
    np.testing.assert_allclose(causal([x, x]).numpy(),
                               attention.Attention()([x, x], use_causal_mask=True).numpy())


def test_dense_attention_dropout_and_gradients():
    query, value = rand(2, 4, 6), rand(2, 5, 6)
    layer = attention.Attention(dropout=0.5, use_scale=True)
    np.testing.assert_allclose(layer([query, value], training=False).numpy(),
                               attention.Attention()([query, value]).numpy(), rtol=1e-6)
    _, scores = layer([query, value], training=True, return_attention_scores=True)
    assert np.any(scores.numpy() == 0)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(layer([query, value]) ** 2)
    grad, = tape.gradient(loss, layer.trainable_weights)
    assert grad is not None and np.isfinite(grad.numpy())


def test_dense_attention_in_functional_model_and_traced():
    query, value = tf.keras.Input((4, 6)), tf.keras.Input((5, 6))
    layer = attention.AdditiveAttention()
    model = tf.keras.Model([query, value], layer([query, value]))
    q, v = rand(2, 4, 6), rand(2, 5, 6)
    np.testing.assert_allclose(model([q, v]).numpy(), layer([q, v]).numpy(), rtol=1e-6)
    traced = tf.function(lambda a, b: layer([a, b], use_causal_mask=True),
                         input_signature=[tf.TensorSpec((None, None, 6))] * 2)
    np.testing.assert_allclose(traced(q, v).numpy(),
                               layer([q, v], use_causal_mask=True).numpy(), rtol=1e-6)


@pytest.mark.parametrize("call, message", [
    (lambda layer, q, v: layer(q), "Attention layer must be called on a list of inputs, "
                                   "namely [query, value] or [query, value, key]. Received: "),
    (lambda layer, q, v: layer([q, v, v, v]), "Attention layer accepts inputs list of length "
                                              "2 or 3, namely [query, value] or [query, value, "
                                              "key]. Received length: 4."),
    (lambda layer, q, v: layer([q, v], mask=np.ones((1, 1), bool)),
     "Attention layer mask must be a list, namely [query_mask, value_mask]. Received: "),
    # as Keras, which tests a mask's truth value first
    (lambda layer, q, v: layer([q, v], mask=np.ones((2, 3), bool)),
     "The truth value of an array with more than one element is ambiguous."),
    (lambda layer, q, v: layer([q, v], mask=[np.ones((2, 3), bool)]),
     "Attention layer mask must be a list of length 2, namely [query_mask, value_mask]. "
     "Received length: 1."),
])
def test_dense_attention_errors(call, message):
    with pytest.raises(ValueError) as info:
        call(attention.Attention(), tf.ones((2, 3, 4)), tf.ones((2, 5, 4)))
    # raised in `call`: the message follows the layer's "Exception encountered" header
    assert str(info.value).startswith("Exception encountered when calling layer 'attention")
    assert f"\n\n{message}" in str(info.value)


def test_mha_softmax_is_a_sublayer():
    layer = attention.MultiHeadAttention(num_heads=2, key_dim=2)
    layer(tf.ones((2, 3, 4)), tf.ones((2, 5, 4)))
    subs = list(layer._flatten_layers())
    assert [type(sub).__name__ for sub in subs][4:6] == ["Softmax", "Dropout"]
    with pytest.raises(tf.errors.InvalidArgumentError) as info:  # a mask of the wrong shape
        layer(tf.ones((2, 3, 4)), tf.ones((2, 5, 4)), attention_mask=np.ones((2, 3, 2), bool))
    assert str(info.value).startswith(f"Exception encountered when calling layer "
                                      f"'{subs[4].name}' (type Softmax)")


def test_score_mode_error():
    with pytest.raises(ValueError, match=r'^Received: score_mode=x\. Acceptable values are: '
                                         r'\["dot", "concat"\]$'):
        attention.Attention(score_mode="x")


# -- EinsumDense ---------------------------------------------------------------------------

@pytest.mark.parametrize("equation, output_shape, bias_axes, input_shape, kernel, bias, out", [
    ("ab,bc->ac", 4, "c", (2, 3), (3, 4), (4,), (2, 4)),
    ("abc,cd->abd", (None, 4), "d", (2, 3, 5), (5, 4), (4,), (2, 3, 4)),
    ("abc,cde->abde", (None, 2, 4), "de", (2, 3, 5), (5, 2, 4), (2, 4), (2, 3, 2, 4)),
    ("abc,cde->abde", (None, 2, 4), "d", (2, 3, 5), (5, 2, 4), (2, 1), (2, 3, 2, 4)),
    ("...b,bc->...c", 4, "c", (2, 7, 3, 5), (5, 4), (4,), (2, 7, 3, 4)),
    ("...ab,bc->...ac", (3, 4), "a", (2, 7, 3, 5), (5, 4), (3, 1), (2, 7, 3, 4)),
    ("ab...,bc->ac...", 4, "c", (2, 3, 5), (3, 4), (4, 1), (2, 4, 5)),
    ("abcd,cde->abe", (None, 6), None, (2, 3, 2, 4), (2, 4, 6), None, (2, 3, 6)),
])
def test_einsum_dense_matches_numpy(equation, output_shape, bias_axes, input_shape, kernel,
                                    bias, out):
    layer = EinsumDense(equation, output_shape, bias_axes=bias_axes, activation="relu")
    x = rand(*input_shape)
    layer(x)
    assert tuple(layer.kernel.shape) == kernel
    assert (None if layer.bias is None else tuple(layer.bias.shape)) == bias
    weights = randomize(layer)
    expected = np.einsum(equation, x, weights[0]) + (weights[1] if bias else 0)
    result = layer(x)
    assert result.shape == out
    np.testing.assert_allclose(result.numpy(), np.maximum(expected, 0), rtol=1e-5, atol=1e-6)
    assert layer.compute_output_shape(input_shape).is_compatible_with(out)


def test_einsum_dense_weights_and_config():
    layer = EinsumDense("ab,bc->ac", output_shape=4, bias_axes="c", name="ed")
    layer(rand(2, 3))
    assert [(w.name, tuple(w.shape)) for w in layer.weights] == [("ed/kernel:0", (3, 4)),
                                                                 ("ed/bias:0", (4,))]
    config = layer.get_config()
    assert {k: config[k] for k in ("output_shape", "equation", "activation", "bias_axes",
                                   "kernel_regularizer", "bias_constraint")} == {
        "output_shape": [4], "equation": "ab,bc->ac", "activation": "linear", "bias_axes": "c",
        "kernel_regularizer": None, "bias_constraint": None}
    clone = EinsumDense.from_config(config)
    assert clone.get_config() == config
    clone(rand(2, 3))
    clone.set_weights(layer.get_weights())
    x = rand(2, 3)
    np.testing.assert_array_equal(clone(x).numpy(), layer(x).numpy())
    assert layer.compute_output_shape((None, 3)).as_list() == [None, 4]


def test_einsum_dense_gradients_and_tracing():
    layer = EinsumDense("abc,cd->abd", output_shape=(None, 4), bias_axes="d")
    x = rand(2, 3, 5)
    traced = tf.function(layer, input_signature=[tf.TensorSpec((None, None, 5))])
    np.testing.assert_allclose(traced(x).numpy(), layer(x).numpy(), rtol=1e-6)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(layer(x) ** 2)
    assert all(g is not None for g in tape.gradient(loss, layer.trainable_weights))


@pytest.mark.parametrize("equation, bias_axes, message", [
    ("ab,bc", None, "Invalid einsum equation 'ab,bc'. Equations must be in the form "
                    "[X],[Y]->[Z], ...[X],[Y]->...[Z], or [X]...,[Y]->[Z]...."),
    ("ab,bc->ab", None, "Input shape and output shape do not match at shared dimension 'b'. "
                        "Input shape is 3, and output shape is 4."),
    ("ab,bc->ad", None, "Dimension 'd' was specified in the output 'ad' but has no "
                        "corresponding dim in the input spec 'ab' or weight spec 'ad'"),
    ("ab,bcd->ac", None, "Weight dimension 'd' did not have a match in either the input spec "
                         "'ab' or the output spec 'ac'. For this layer, the weight must be "
                         "fully specified."),
    ("ab,bc->ac", "x", "Bias dimension 'x' was requested, but is not part of the output spec "
                       "'ac'"),
])
def test_einsum_dense_errors(equation, bias_axes, message):
    with pytest.raises(ValueError) as info:
        EinsumDense(equation, output_shape=4, bias_axes=bias_axes)(np.ones((2, 3), np.float32))
    assert str(info.value) == message


def test_no_warnings_on_plain_use():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        attention.Attention()([rand(1, 2, 3), rand(1, 2, 3)])


def test_additive_attention_on_one_tensor_fails_in_call_naming_the_layer():
    layer = tf.keras.layers.AdditiveAttention()
    with pytest.raises(ValueError, match=r"(?s)Exception encountered when calling layer "
                                         r"'additive_attention.*must be called on a list"):
        layer(np.ones((2, 5, 4), np.float32))


def test_multi_head_attention_over_the_features_axis_is_rejected():
    # as in tf_keras, whose einsum rejects the scores' equation (a value came back before)
    layer = attention.MultiHeadAttention(2, 3, attention_axes=(3,))
    with pytest.raises(ValueError, match="Output subscripts contain a label appearing more "
                                         "than once: abcd,abcd->abcdd"):
        layer(rand(2, 4, 6), rand(2, 5, 6))


@pytest.mark.parametrize("cls", [attention.Attention, attention.AdditiveAttention])
def test_dense_attention_output_shape_is_the_querys(cls):
    # as Keras: the query's shape, whatever the value's features (the call's output has them)
    layer = cls()
    assert layer.compute_output_shape([(None, 3, 4), (None, 5, 9)]).as_list() == [None, 3, 4]
    assert layer.compute_output_shape(
        [(2, 3, 4), (2, 5, 6), (2, 5, 4)]).as_list() == [2, 3, 4]
    assert layer.compute_output_shape([(None, None, 4), (None, None, 5)]).as_list() == \
        [None, None, 4]

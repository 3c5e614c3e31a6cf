"""A sweep of tf.keras.layers, run by TF (data/make_layer_sweep_data.py records the outcomes
into data/layer_sweep_tf.json) and by eagerflow (test_layer_sweep.py compares).

Each case builds a layer, gives its weights fixed values, and reports: its config, weights
(names, shapes, dtypes), outputs with training False and True, gradients, output dtype,
compute_output_shape, compute_mask, count_params, the output of a layer made again from its
config, of the layer in a functional model with unknown batch (and time) dims, and in a
function of unknown dims. Float tensors are kept as summaries (dtype, shape, sums and the
first values), so that the recorded data stays small.
"""
import zlib

import numpy as np

F, F32 = "float", "float32"


def det(shape, key, kind="float", dtype="float32", lo=-1.0, hi=1.0):
    """Values fixed by `key`: uniform in [lo, hi) (or integers; or in [0.5, 1.5) "pos")."""
    rng = np.random.RandomState(zlib.crc32(key.encode()) % (2 ** 31))
    if kind == "int":
        return rng.randint(int(lo), int(hi), size=shape).astype(dtype)
    if kind == "pos":
        return rng.uniform(0.5, 1.5, size=shape).astype(dtype)
    return rng.uniform(lo, hi, size=shape).astype(dtype)


def _round(x):
    return float(f"{x:.5g}") if np.isfinite(x) else str(x)


def jsonable(v):
    """Outcomes as JSON: float arrays summarized, small other arrays in full."""
    if v is None or isinstance(v, (bool, int, str)):
        return v
    if isinstance(v, float):
        return _round(v)
    if hasattr(v, "dense_shape"):
        return {"sparse": [jsonable(v.indices), jsonable(v.values), jsonable(v.dense_shape)]}
    if hasattr(v, "as_list") and not hasattr(v, "numpy"):
        return {"TensorShape": None if v.rank is None else v.as_list()}
    if hasattr(v, "numpy"):
        dtype, v = v.dtype.name, v.numpy()
        if isinstance(v, np.ndarray) and v.dtype.kind == "f" or dtype == "bfloat16":
            a = np.asarray(v, np.float64)
            mix = np.sin(np.arange(a.size)).reshape(a.shape) if a.size else a
            return {"dtype": dtype, "shape": list(a.shape), "sum": _round(a.sum()),
                    "l1": _round(np.abs(a).sum()), "mix": _round((a * mix).sum()),
                    "head": [_round(x) for x in a.reshape(-1)[:3]]}
        if isinstance(v, np.ndarray) and v.dtype == object:
            v = np.vectorize(lambda b: b.decode() if isinstance(b, bytes) else b,
                             otypes=[object])(v) if v.size else v
        return {"dtype": dtype, "shape": list(np.shape(v)), "value": np.asarray(v).tolist()}
    if isinstance(v, np.generic):
        return jsonable(v.item())
    if isinstance(v, (list, tuple)):
        return [jsonable(x) for x in v]
    if isinstance(v, dict):
        return {str(k): jsonable(x) for k, x in v.items()}
    if hasattr(v, "is_floating") and hasattr(v, "name"):
        return "dtype:" + v.name
    return "<%s>" % type(v).__name__


def _error(e):
    return {"error": type(e).__name__, "message": str(e).strip().split("\n")[0][:200]}


def _attempt(fn):
    try:
        return jsonable(fn())
    except Exception as e:  # noqa: BLE001 - an error is an outcome too
        return _error(e)


def _fix_weights(tf, layer, key):
    for i, w in enumerate(layer.weights):
        if not hasattr(w, "assign") or not w.dtype.is_floating or \
                not w.shape.is_fully_defined():  # (lookup tables, IDF weights)
            continue
        positive = any(s in w.name for s in ("variance", "gamma", "moving_std"))
        w.assign(det(tuple(w.shape.as_list()), key + str(i), "pos" if positive else "float",
                     w.dtype.name))


def _inputs(name, inputs):
    arrays = []
    for i, spec in enumerate(inputs):
        shape, kind, dtype = spec[:3]
        if kind == "str":
            arrays.append(np.array(spec[3]).reshape(shape))
        else:
            lo, hi = (spec[3], spec[4]) if len(spec) > 3 else (-2.0, 2.0)
            arrays.append(det(shape, name + "in%d" % i, kind, dtype, lo, hi))
    return arrays


def run(tf, name, make, inputs, call_kw=None, train=True, sym=True, function=True,
        positional=False):
    """The outcome of one case (see the module's docstring). `inputs`: (shape, kind, dtype[,
    low, high]) each, or (shape, "str", None, values); `sym`: the functional model's inputs
    know all dims but the batch (True), only the last ("time") or none ("none"); `function`:
    whether to call the layer in a function of unknown dims too; `positional`: the inputs go
    as separate arguments (query and value of MultiHeadAttention)."""
    call_kw = call_kw or {}
    arrays = _inputs(name, inputs)
    xs = [tf.constant(a) for a in arrays]
    kw = {k: tf.constant(v) if isinstance(v, np.ndarray) else v for k, v in call_kw.items()}
    x = xs[0] if len(xs) == 1 else xs

    def call(layer, inputs, **kwargs):
        return layer(*inputs, **kwargs) if positional else layer(inputs, **kwargs)
    rec = {}
    try:
        layer = make()
    except Exception as e:  # noqa: BLE001
        return {"make": _error(e)}
    rec["config"] = _attempt(layer.get_config)
    rec["config_keys"] = _attempt(lambda: list(layer.get_config()))
    try:
        call(layer, x, training=False, **kw)
    except Exception as e:  # noqa: BLE001
        rec["call"] = _error(e)
        return rec
    _fix_weights(tf, layer, name)
    rec["weights"] = [[w.name, w.shape.as_list(), w.dtype.name, bool(w.trainable)]
                      for w in layer.weights if hasattr(w, "assign")]
    rec["out"] = _attempt(lambda: call(layer, x, training=False, **kw))
    if train:
        rec["out_train"] = _attempt(lambda: call(layer, x, training=True, **kw))
        rec["weights_after"] = _attempt(
            lambda: [w for w in layer.weights if hasattr(w, "assign")])

    def gradients():
        floats = [t for t in xs if t.dtype.is_floating]
        with tf.GradientTape() as tape:
            tape.watch(floats)
            outs = [t for t in tf.nest.flatten(call(layer, x, training=False, **kw))
                    if t.dtype.is_floating]
            loss = tf.add_n([tf.reduce_sum(tf.cast(t, tf.float32) * det(
                tuple(t.shape), name + "g%d" % i)) for i, t in enumerate(outs)])
        return tape.gradient(loss, floats + list(layer.trainable_weights))
    rec["gradients"] = _attempt(gradients)

    def in_function():
        specs = [tf.TensorSpec([None] * (a.ndim - 1) + list(a.shape[-1:]),
                               tf.string if a.dtype.kind == "U" else a.dtype) for a in arrays]

        @tf.function(input_signature=[specs[0] if len(specs) == 1 else specs])
        def f(v):
            o = call(layer, v, training=False, **kw)
            return o, [str(t.shape) for t in tf.nest.flatten(o)]
        out, shapes = f(x)
        return [out, [s.numpy().decode() for s in shapes]]
    if function and not any(hasattr(v, "shape") for v in tf.nest.flatten(kw)):
        rec["function"] = _attempt(in_function)
    rec["count_params"] = _attempt(layer.count_params)
    shapes = [tuple(a.shape) for a in arrays]
    rec["output_shape"] = _attempt(
        lambda: layer.compute_output_shape(*shapes) if positional else
        layer.compute_output_shape(shapes[0] if len(shapes) == 1 else shapes))
    rec["mask"] = _attempt(lambda: layer.compute_mask(x, kw.get("mask")))
    rec["dtypes"] = _attempt(lambda: [layer.dtype, layer.compute_dtype,
                                      layer.dtype_policy.name])
    rec["input_spec"] = _attempt(lambda: repr(layer.input_spec).replace("ListWrapper", ""))
    rec["losses"] = _attempt(lambda: list(layer.losses))
    rec["supports_masking"] = _attempt(lambda: layer.supports_masking)

    def from_config():
        again = type(layer).from_config(layer.get_config())
        call(again, x, training=False, **kw)
        again.set_weights(layer.get_weights())
        return [again.get_config() == layer.get_config(), call(again, x, training=False, **kw)]
    rec["from_config"] = _attempt(from_config)
    if sym:
        def functional():
            def dims(a):
                if sym == "none":
                    return (None,) * (a.ndim - 1)
                if sym == "time" and a.ndim > 2:
                    return (None,) * (a.ndim - 2) + a.shape[-1:]
                return a.shape[1:]
            ins = [tf.keras.Input(dims(a), dtype=tf.string if a.dtype.kind == "U" else a.dtype)
                   for a in arrays]
            again = type(layer).from_config(layer.get_config())
            extra = {k: tf.keras.Input(v.shape[1:], dtype=v.dtype)
                     for k, v in call_kw.items() if isinstance(v, np.ndarray) and k != "mask"}
            plain = {k: v for k, v in call_kw.items() if not isinstance(v, np.ndarray)}
            out = call(again, ins[0] if len(ins) == 1 else ins, **extra, **plain)
            model = tf.keras.Model(ins + list(extra.values()), out)
            again.set_weights(layer.get_weights())
            feed = xs + [tf.constant(call_kw[k]) for k in extra]
            return [model.output_shape, [t.dtype for t in tf.nest.flatten(model.outputs)],
                    model(feed[0] if len(feed) == 1 else feed, training=False)]
        rec["functional"] = _attempt(functional)
    return rec


def cases(tf):
    """name -> zero-argument function of `tf` (TF or eagerflow) giving the case's outcome."""
    L = tf.keras.layers
    out = {}

    def case(name, make, inputs, policy=None, **kwargs):
        def fn():
            if policy:
                tf.keras.mixed_precision.set_global_policy(policy)
            try:
                return run(tf, name, make, inputs, **kwargs)
            finally:
                if policy:  # (None: back to floatx's policy, not one pinned to float32)
                    tf.keras.mixed_precision.set_global_policy(None)
        out[name] = fn

    def error(name, fn):
        out["error_" + name] = fn

    x3, x4 = [((2, 3, 4), F, F32)], [((2, 5, 6, 3), F, F32)]
    x5 = [((2, 4, 5, 6, 2), F, F32)]
    seq, steps_mask = [((2, 4, 3), F, F32)], np.array([[1, 1, 1, 0], [1, 1, 0, 0]], bool)
    # core
    case("dense", lambda: L.Dense(3, activation="relu", kernel_regularizer="l2"), x3,
         sym="time")
    case("dense_float64", lambda: L.Dense(2, dtype="float64"), [((2, 4), F, "float64")])
    case("dense_float16_inputs", lambda: L.Dense(2), [((2, 4), F, "float16")])
    case("dense_mixed", lambda: L.Dense(2), [((2, 4), F, F32)], policy="mixed_float16")
    case("einsum_dense", lambda: L.EinsumDense("abc,cd->abd", (None, 5), bias_axes="d"), x3)
    case("activation", lambda: L.Activation("gelu"), x3)
    case("flatten_channels_first", lambda: L.Flatten(data_format="channels_first"), x4)
    case("reshape", lambda: L.Reshape((-1, 2)), x3, sym="time")
    case("permute", lambda: L.Permute((3, 1, 2)), x4)
    case("repeat_vector", lambda: L.RepeatVector(3), [((2, 4), F, F32)])
    case("identity", lambda: L.Identity(), x3)
    case("masking", lambda: L.Masking(0.5), [((2, 3, 2), "int", F32, 0, 2)], sym="time")
    case("embedding_mask_zero", lambda: L.Embedding(5, 3, mask_zero=True),
         [((2, 4), "int", "int32", 0, 5)])
    case("embedding_mixed", lambda: L.Embedding(5, 3), [((2, 4), "int", "int64", 0, 5)],
         policy="mixed_float16")
    # convolutions
    case("conv1d_causal", lambda: L.Conv1D(2, 3, padding="causal", dilation_rate=2), x3)
    case("conv1d_groups", lambda: L.Conv1D(4, 2, groups=2), x3)
    case("conv2d", lambda: L.Conv2D(4, 3, padding="same", activation="relu"), x4, sym="time")
    case("conv2d_mixed", lambda: L.Conv2D(2, 2), x4, policy="mixed_float16")
    case("conv3d", lambda: L.Conv3D(2, 2, padding="same"), x5)
    case("conv1d_transpose", lambda: L.Conv1DTranspose(2, 3, strides=2, padding="same",
                                                       output_padding=1), x3, sym="time")
    case("conv2d_transpose", lambda: L.Conv2DTranspose(3, 3, strides=(2, 3),
                                                       output_padding=(1, 2)), x4)
    case("conv3d_transpose", lambda: L.Conv3DTranspose(2, 3, strides=(1, 2, 2),
                                                       padding="same"), x5)
    case("separable_conv1d", lambda: L.SeparableConv1D(2, 3, padding="same", strides=2), x3)
    case("separable_conv2d", lambda: L.SeparableConv2D(4, 3, depth_multiplier=2), x4)
    case("depthwise_conv1d", lambda: L.DepthwiseConv1D(2, strides=2, padding="same"), x3)
    case("depthwise_conv2d", lambda: L.DepthwiseConv2D(3, depth_multiplier=2), x4,
         sym="time")
    case("locally_connected1d", lambda: L.LocallyConnected1D(2, 2), x3)
    # pooling
    case("max_pooling1d_same", lambda: L.MaxPooling1D(3, strides=2, padding="same"), x3,
         sym="time")
    case("average_pooling2d_channels_first",
         lambda: L.AveragePooling2D(2, data_format="channels_first"), x4)
    case("max_pooling3d", lambda: L.MaxPooling3D(), x5)
    case("global_average_pooling1d_mask", lambda: L.GlobalAveragePooling1D(), seq,
         call_kw={"mask": steps_mask})
    case("global_max_pooling2d_keepdims", lambda: L.GlobalMaxPooling2D(keepdims=True), x4,
         sym="time")
    case("global_average_pooling3d_channels_first",
         lambda: L.GlobalAveragePooling3D(data_format="channels_first"), x5)
    # normalization
    case("batch_norm_axes", lambda: L.BatchNormalization(axis=[1, 3], momentum=0.9), x4)
    case("batch_norm_virtual_batch", lambda: L.BatchNormalization(virtual_batch_size=2),
         [((4, 3, 2), F, F32)])
    case("batch_norm_renorm", lambda: L.BatchNormalization(
        renorm=True, renorm_clipping={"rmax": 1.5, "rmin": 0.5, "dmax": 0.3}),
        [((4, 3), F, F32)])
    case("batch_norm_mixed", lambda: L.BatchNormalization(), x4, policy="mixed_float16")
    # (in a function not knowing the normalized dims, TF fails with a TypeError, from
    # converting a shape with None in graph mode, where eagerflow's is a ValueError)
    case("layer_norm_axes", lambda: L.LayerNormalization(axis=[1, 2]), x4, function=False)
    case("layer_norm_float16", lambda: L.LayerNormalization(), [((2, 3), F, "float16")])
    case("group_norm_axis1", lambda: L.GroupNormalization(groups=2, axis=1),
         [((2, 4, 3), F, F32)])
    case("group_norm_instance", lambda: L.GroupNormalization(groups=-1, center=False), x4,
         sym="time")
    case("unit_norm_axes", lambda: L.UnitNormalization(axis=[1, 2]), x3)
    # attention
    q, v = ((2, 3, 4), F, F32), ((2, 5, 4), F, F32)
    masks = [np.array([[1, 1, 0], [1, 0, 0]], bool), np.array([[1, 1, 1, 0, 0],
                                                               [1, 0, 1, 1, 1]], bool)]
    case("attention_masks_scores", lambda: L.Attention(use_scale=True), [q, v],
         call_kw={"mask": masks, "return_attention_scores": True})
    case("attention_concat_causal", lambda: L.Attention(score_mode="concat"), [q, q],
         call_kw={"use_causal_mask": True})
    case("additive_attention", lambda: L.AdditiveAttention(), [q, v, v], sym="time")
    case("multi_head_attention", lambda: L.MultiHeadAttention(2, 3), [q, v], sym="time",
         positional=True)
    case("multi_head_attention_causal_scores",
         lambda: L.MultiHeadAttention(2, 3, value_dim=2, output_shape=6), [q, q],
         call_kw={"use_causal_mask": True, "return_attention_scores": True}, positional=True)
    case("multi_head_attention_key_mask", lambda: L.MultiHeadAttention(1, 2), [q, v, v],
         call_kw={"attention_mask": np.array([[[1, 0, 1, 0, 1]] * 3, [[1, 1, 1, 1, 0]] * 3],
                                             bool)}, positional=True)
    case("multi_head_attention_axes", lambda: L.MultiHeadAttention(2, 2, attention_axes=(1, 2)),
         [((2, 3, 2, 4), F, F32), ((2, 3, 2, 4), F, F32)], positional=True)
    case("multi_head_attention_mixed", lambda: L.MultiHeadAttention(2, 3), [q, v],
         policy="mixed_float16", positional=True)
    # reshaping
    case("cropping2d", lambda: L.Cropping2D(((1, 2), (0, 1))), x4, sym="time")
    case("zero_padding3d", lambda: L.ZeroPadding3D((1, 0, 2)), x5)
    case("up_sampling1d", lambda: L.UpSampling1D(3), x3, sym="time")
    case("up_sampling2d_bilinear", lambda: L.UpSampling2D(2, interpolation="bilinear"), x4)
    case("up_sampling2d_bicubic_channels_first", lambda: L.UpSampling2D(
        2, data_format="channels_first", interpolation="bicubic"), x4)
    case("up_sampling3d", lambda: L.UpSampling3D((1, 2, 2)), x5)
    # merging
    two = [((2, 3, 4), F, F32), ((2, 3, 4), F, F32)]
    for cls in ("Add", "Subtract", "Multiply", "Average", "Maximum", "Minimum"):
        case("merge_" + cls.lower(), lambda cls=cls: getattr(L, cls)(), two, sym="time")
    case("concatenate_axis1", lambda: L.Concatenate(axis=1),
         [((2, 3, 4), F, F32), ((2, 2, 4), F, F32)], sym="time")
    case("add_broadcast", lambda: L.Add(), [((2, 3, 4), F, F32), ((2, 1, 4), F, F32)])
    case("dot_normalize", lambda: L.Dot(axes=(1, 2), normalize=True),
         [((2, 3, 4), F, F32), ((2, 5, 3), F, F32)])
    # activations and regularization
    case("relu_max_threshold_slope", lambda: L.ReLU(1.0, negative_slope=0.1, threshold=0.5),
         x3)
    case("relu_float16", lambda: L.ReLU(max_value=1.0, threshold=0.3), [((2, 4), F, "float16")])
    case("leaky_relu", lambda: L.LeakyReLU(0.5), x3)
    case("prelu_shared_axes", lambda: L.PReLU(shared_axes=[1]), x3, sym="time")
    case("elu", lambda: L.ELU(alpha=0.5), x3)
    case("thresholded_relu", lambda: L.ThresholdedReLU(0.5), x3)
    case("softmax_axes", lambda: L.Softmax(axis=[1, 2]), x3)
    case("softmax_mask", lambda: L.Softmax(), x3,
         call_kw={"mask": np.array([[[1, 1, 0, 0]] * 3, [[0, 0, 0, 0]] * 3], bool)})
    case("dropout_noise_shape", lambda: L.Dropout(0.5, noise_shape=(None, 1, 4)), x3,
         train=False)
    case("spatial_dropout2d", lambda: L.SpatialDropout2D(0.5), x4, train=False)
    for cls in ("GaussianNoise", "GaussianDropout", "AlphaDropout"):
        case(cls.lower(), lambda cls=cls: getattr(L, cls)(0.5), x3, train=False)
    case("activity_regularization", lambda: L.ActivityRegularization(l1=0.1, l2=0.2), x3)
    # recurrent
    for cls in ("SimpleRNN", "GRU", "LSTM"):
        rnn = getattr(L, cls)
        case(cls.lower(), lambda rnn=rnn: rnn(3), seq, sym="time")
        case(cls.lower() + "_sequences_state_backwards", lambda rnn=rnn: rnn(
            2, return_sequences=True, return_state=True, go_backwards=True), seq)
        case(cls.lower() + "_mask_unroll", lambda rnn=rnn: rnn(2, unroll=True), seq,
             call_kw={"mask": steps_mask})
        case(cls.lower() + "_mixed", lambda rnn=rnn: rnn(2, return_sequences=True), seq,
             policy="mixed_float16")
    case("gru_reset_before", lambda: L.GRU(2, reset_after=False), seq)
    case("rnn_stacked_cells", lambda: L.RNN(L.StackedRNNCells([L.LSTMCell(2), L.GRUCell(3)]),
                                            return_sequences=True), seq,
         call_kw={"mask": steps_mask})
    for mode in ("sum", "mul", "ave", None):
        case(f"bidirectional_{mode}", lambda mode=mode: L.Bidirectional(
            L.GRU(2, return_sequences=True), merge_mode=mode), seq)
    case("bidirectional_state", lambda: L.Bidirectional(L.LSTM(2, return_state=True)), seq,
         sym="time")
    case("time_distributed_conv", lambda: L.TimeDistributed(L.Conv2D(2, 2)),
         [((2, 3, 4, 4, 1), F, F32)], sym="time")
    case("time_distributed_mask", lambda: L.TimeDistributed(L.Dense(2)), seq,
         call_kw={"mask": steps_mask})
    case("conv_lstm1d", lambda: L.ConvLSTM1D(2, 3, padding="same", return_sequences=True,
                                            return_state=True), [((2, 3, 5, 2), F, F32)])
    case("conv_lstm2d_mask", lambda: L.ConvLSTM2D(2, 2), [((2, 4, 3, 3, 1), F, F32)],
         call_kw={"mask": steps_mask})
    case("conv_lstm2d_channels_first", lambda: L.ConvLSTM2D(
        2, 2, data_format="channels_first", strides=2, return_sequences=True,
        go_backwards=True), [((2, 3, 1, 5, 4), F, F32)], sym="time")
    case("conv_lstm3d_channels_first", lambda: L.ConvLSTM3D(
        2, 2, data_format="channels_first", dilation_rate=2, use_bias=False),
        [((1, 2, 1, 4, 4, 3), F, F32)])
    # preprocessing
    ints = [((2, 3), "int", "int64", 0, 5)]
    words = [((2, 2), "str", None, ["a", "z", "c", ""])]

    def adapted(layer, data):
        layer.adapt(data)
        return layer
    case("normalization_adapt_invert", lambda: adapted(
        L.Normalization(axis=(1, 2), invert=True), np.arange(24.0).reshape(2, 3, 4)), x3)
    case("discretization_count", lambda: L.Discretization([-1.0, 0.0, 1.0],
                                                          output_mode="count"),
         [((4, 3), F, F32)])
    case("category_encoding_count", lambda: L.CategoryEncoding(5, output_mode="count"), ints)
    case("hashing_salt_multi_hot", lambda: L.Hashing(4, salt=7, output_mode="multi_hot"),
         words)
    case("string_lookup_mask_oov", lambda: L.StringLookup(vocabulary=["a", "b", "c"],
                                                          mask_token="", num_oov_indices=2),
         words)
    case("string_lookup_tf_idf", lambda: L.StringLookup(
        vocabulary=["a", "b", "c"], output_mode="tf_idf", idf_weights=[1.0, 2.0, 3.0]), words)
    case("integer_lookup_invert", lambda: L.IntegerLookup(vocabulary=[10, 20, 30],
                                                          invert=True), ints)
    image = [((2, 6, 8, 3), F, F32, 0, 255)]
    case("resizing_crop_to_aspect_ratio", lambda: L.Resizing(5, 2, crop_to_aspect_ratio=True),
         image)
    case("resizing_area_uint8", lambda: L.Resizing(3, 4, interpolation="area"),
         [((1, 6, 8, 1), "int", "uint8", 0, 255)])
    case("center_crop_larger", lambda: L.CenterCrop(8, 10), image)
    case("rescaling_mixed", lambda: L.Rescaling(1 / 255.0, offset=-0.5), image,
         policy="mixed_float16")
    case("text_vectorization_bigram_counts", lambda: adapted(
        L.TextVectorization(output_mode="count", ngrams=2),
        ["The cat sat", "a DOG, a dog!"]), [((2,), "str", None, ["the dog sat", "a cat"])],
        sym=False)
    # errors of bad arguments
    error("dense_units", lambda: L.Dense(-1))
    error("conv_groups", lambda: L.Conv2D(3, 2, groups=2))
    error("conv_strides_and_dilation", lambda: L.Conv2D(2, 2, strides=2, dilation_rate=2))
    error("conv_transpose_output_padding",
          lambda: L.Conv2DTranspose(2, 2, strides=2, output_padding=2))
    error("permute_dims", lambda: L.Permute((1, 3)))
    error("batch_norm_virtual_batch", lambda: L.BatchNormalization(virtual_batch_size=3)(
        tf.ones((4, 3)), training=True))
    error("group_norm_groups", lambda: L.GroupNormalization(groups=3)(tf.ones((2, 4))))
    error("multi_head_attention_axes", lambda: L.MultiHeadAttention(
        2, 3, attention_axes=5)(tf.ones((2, 3, 4)), tf.ones((2, 3, 4))))
    error("conv_lstm_rank", lambda: L.ConvLSTM2D(2, 2)(tf.ones((2, 3, 4, 4))))
    error("bidirectional_merge_mode", lambda: L.Bidirectional(L.LSTM(2), merge_mode="x"))
    error("dot_shapes", lambda: L.Dot(axes=1)([tf.ones((2, 3)), tf.ones((2, 4))]))
    error("relu_negative_slope", lambda: L.ReLU(negative_slope=-1))
    error("category_encoding_range", lambda: L.CategoryEncoding(3)(tf.constant([[5]])))
    return out

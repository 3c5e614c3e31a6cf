"""The small Keras models of the TFLite tests, built the same way under TF and eagerflow.

`build(tf, name)` makes model `name` with the given ``tf`` module (TensorFlow's or
eagerflow's); the tests give both the same weights, recorded by
``data/make_lite_data.py``.
"""
import numpy as np

INPUTS = {"mlp": (8,), "cnn": (8, 8, 2), "branches": (8, 8, 3), "mlp_quant": (48,),
          "text": (6,), "conv1d": (10, 3), "upsample": (5, 5, 4), "cnn_quant": (8, 8, 8),
          "cnn_int8": (8, 8, 2), "cnn_f16": (6, 6, 2), "transformer": (6,),
          "resize": (6, 6, 3), "mlp_uint8": (6,), "branches_ptq": (5,),
          "transformer_ptq": (6,), "upsample_ptq": (5, 5, 4), "dilated": (9, 2)}
# models quantized fully from another's layers (their float operators differ from TF's:
# attention's products and layer normalization arranged otherwise, an upsampling as tiles)
QUANTIZED_FROM = {"transformer_ptq": "transformer", "upsample_ptq": "upsample"}
# models quantized fully (int8 kernels): ``_int8`` int8 inputs and outputs and only int8
# operators, ``_uint8`` uint8 inputs and outputs, ``_ptq`` float inputs and outputs
FULL_INTEGER = {"cnn_int8", "mlp_uint8", "branches_ptq", "transformer_ptq", "upsample_ptq"}
# (those eagerflow converts with TF's results: the upsampling's tiles round otherwise)
CONVERTED_FULL_INTEGER = FULL_INTEGER - {"upsample_ptq"}
# recurrent models, converted from a function of batch 1 (as TF's converter needs for
# Keras's LSTM): their TFLite files carry the LSTM's state from one invoke to the next
RECURRENT = {"lstm": (4, 2), "lstm_seq": (5, 3), "gru": (4, 2), "simple_rnn": (3, 2),
             "bidi_gru": (5, 3), "bidi_lstm": (4, 2), "lstm_quant": (5, 40),
             "gru_quant": (4, 40)}
# (TF writes GRUs and simple RNNs as WHILE loops, eagerflow's converter as their steps)
RECURRENT_CONVERTED = set(RECURRENT)
# models whose inputs are token ids
INTEGER_INPUTS = {"text", "transformer", "transformer_ptq"}


def build(tf, name):
    """The Keras model `name` (see `INPUTS`)."""
    name = QUANTIZED_FROM.get(name, name)
    L = tf.keras.layers
    if name == "mlp":
        return tf.keras.Sequential([L.Dense(16, activation="relu", input_shape=(8,)),
                                    L.Dense(8, activation="tanh"),
                                    L.Dense(4, activation="softmax")])
    if name == "cnn":
        return tf.keras.Sequential([
            L.Conv2D(4, 3, activation="relu", input_shape=(8, 8, 2)),
            L.DepthwiseConv2D(3, padding="same"), L.MaxPooling2D(),
            L.AveragePooling2D(), L.Flatten(), L.Dense(10, activation="softmax")])
    if name == "branches":
        inp = L.Input((8, 8, 3), name="image")
        a = L.Conv2D(4, 3, padding="same", strides=1)(inp)
        a = L.BatchNormalization()(a)
        a = L.ReLU(6.0)(a)
        b = L.DepthwiseConv2D(3, padding="same", depth_multiplier=2, use_bias=False)(inp)
        c = L.Concatenate()([a, b])
        c = L.ZeroPadding2D(1)(c)
        c = L.AveragePooling2D()(c)
        g = L.GlobalAveragePooling2D()(c)
        d = L.Dense(5, activation="sigmoid")(g)
        e = L.Dense(6)(d)
        p = L.Permute((2, 1))(L.Reshape((2, 3))(e))
        return tf.keras.Model(inp, [L.Softmax(name="probs")(d), L.LeakyReLU(0.2, name="leaky")(p)])
    if name == "mlp_quant":
        return tf.keras.Sequential([L.Dense(32, activation="relu", input_shape=(48,)),
                                    L.Dense(3)])
    if name == "cnn_quant":  # (weights of 1024 elements and more are quantized)
        return tf.keras.Sequential([
            L.Conv2D(16, 3, activation="relu", padding="same", input_shape=(8, 8, 8)),
            L.DepthwiseConv2D(3, depth_multiplier=8), L.Flatten(), L.Dense(4)])
    if name == "transformer":  # (attention's einsums, layer normalization)
        tokens = L.Input((6,), name="tokens")
        e = L.Embedding(20, 8)(tokens)
        a = L.MultiHeadAttention(num_heads=2, key_dim=4)(e, e)
        h = L.LayerNormalization(epsilon=1e-6)(e + a)
        h = L.LayerNormalization(epsilon=1e-6)(h + L.Dense(8, activation="relu")(h))
        pooled = L.GlobalAveragePooling1D()(h)
        return tf.keras.Model(tokens, L.Dense(2, activation="softmax")(pooled))
    if name == "resize":
        return tf.keras.Sequential([L.Resizing(9, 9, input_shape=(6, 6, 3)),
                                    L.Conv2D(2, 3, activation="swish"), L.Flatten(),
                                    L.Dense(2)])
    if name == "cnn_f16":
        return tf.keras.Sequential([L.Conv2D(4, 3, activation="relu", input_shape=(6, 6, 2)),
                                    L.Flatten(), L.Dense(3)])
    if name == "cnn_int8":
        return tf.keras.Sequential([
            L.Conv2D(6, 3, activation="relu", padding="same", input_shape=(8, 8, 2)),
            L.MaxPooling2D(), L.Conv2D(4, 3, activation="relu6"), L.Flatten(),
            L.Dense(5), L.Softmax()])
    if name == "dilated":  # (TF: SPACE_TO_BATCH_ND and BATCH_TO_SPACE_ND around it; PRELU)
        return tf.keras.Sequential([L.Conv1D(3, 3, dilation_rate=2, input_shape=(9, 2)),
                                    L.PReLU(shared_axes=[1]), L.Flatten(), L.Dense(2)])
    if name == "mlp_uint8":
        return tf.keras.Sequential([L.Dense(8, activation="relu", input_shape=(6,)),
                                    L.Dense(3), L.Softmax()])
    if name == "branches_ptq":  # (a concatenation's inputs share its parameters; sin: float)
        inp = L.Input((5,), name="values")
        a = L.Dense(4, activation="sigmoid")(inp)
        b = L.Dense(4, activation="tanh")(inp)
        c = L.Concatenate()([L.Add()([a, b]), L.Multiply()([a, b]), a])
        d = L.Dense(3, name="scores")(c)
        return tf.keras.Model(inp, [d, L.Lambda(lambda x: tf.sin(x), name="wave")(d)])
    if name == "text":
        return tf.keras.Sequential([L.Embedding(20, 4, input_length=6),
                                    L.GlobalAveragePooling1D(), L.Dropout(0.2),
                                    L.Dense(1, activation="sigmoid")])
    if name == "conv1d":
        return tf.keras.Sequential([L.Conv1D(4, 3, activation="relu", input_shape=(10, 3)),
                                    L.MaxPooling1D(), L.Flatten(), L.Dense(2)])
    if name == "upsample":
        inp = L.Input((5, 5, 4), name="features")
        a = L.Rescaling(0.5, offset=-0.25)(inp)
        a = L.SeparableConv2D(3, 3, activation="elu")(a)
        a = L.UpSampling2D()(a)
        return tf.keras.Model(inp, L.Conv2DTranspose(2, 3, strides=2, padding="same")(a))
    raise ValueError(name)


def build_recurrent(tf, name):
    """The recurrent Keras model `name` (see `RECURRENT`)."""
    L = tf.keras.layers
    if name == "lstm":
        return tf.keras.Sequential([L.LSTM(3, input_shape=RECURRENT[name])])
    if name == "lstm_seq":
        return tf.keras.Sequential([L.LSTM(4, return_sequences=True,
                                           input_shape=RECURRENT[name]), L.Dense(2)])
    if name == "gru":
        return tf.keras.Sequential([L.GRU(3, input_shape=RECURRENT[name])])
    if name == "simple_rnn":
        return tf.keras.Sequential([L.SimpleRNN(3, return_sequences=True,
                                                input_shape=RECURRENT[name])])
    if name == "lstm_quant":   # (weights of 1024 elements and more: int8)
        return tf.keras.Sequential([L.LSTM(64, input_shape=RECURRENT[name])])
    if name == "gru_quant":    # (TF's loop of int8 weights; eagerflow's steps)
        return tf.keras.Sequential([L.GRU(32, input_shape=RECURRENT[name])])
    if name == "bidi_gru":   # (the backward layer's input and output reversed)
        return tf.keras.Sequential([L.Bidirectional(L.GRU(3, return_sequences=True),
                                                    input_shape=RECURRENT[name])])
    if name == "bidi_lstm":
        return tf.keras.Sequential([L.Bidirectional(L.LSTM(2), merge_mode="sum",
                                                    input_shape=RECURRENT[name])])
    raise ValueError(name)


def recurrent_converter(tf, model, name):
    """A converter of `model`'s function of one sequence (batch 1)."""
    fn = tf.function(lambda x: model(x))
    spec = tf.TensorSpec((1,) + RECURRENT[name], tf.float32)
    converter = tf.lite.TFLiteConverter.from_concrete_functions(
        [fn.get_concrete_function(spec)], model)
    configure(converter, name, tf)
    return converter


def run_twice(interpreter, x):
    """The output of two invokes on `x` (the second from the state the first left), and of
    a third after `reset_all_variables`."""
    interpreter.allocate_tensors()
    index = interpreter.get_output_details()[0]["index"]
    outputs = []
    for reset in (False, False, True):
        if reset:
            interpreter.reset_all_variables()
        interpreter.set_tensor(interpreter.get_input_details()[0]["index"], x)
        interpreter.invoke()
        outputs.append(interpreter.get_tensor(index))
    return outputs


def weights(model, seed=0):
    """Random weights for `model`, as `set_weights` takes them: 1-D ones (biases, batch
    normalization's statistics) in [0.5, 1.5), so that variances are positive."""
    rng = np.random.RandomState(seed)
    return [rng.uniform(0.5, 1.5, w.shape).astype(np.float32) if w.ndim == 1 else
            rng.uniform(-0.5, 0.5, w.shape).astype(np.float32) for w in model.get_weights()]


def sample(name, batch=2, seed=1):
    """An input batch of model `name`."""
    rng = np.random.RandomState(seed)
    if name in INTEGER_INPUTS:
        return rng.randint(0, 20, (batch,) + INPUTS[name]).astype(np.float32)
    return rng.uniform(-1, 1, (batch,) + INPUTS[name]).astype(np.float32)


def representative(name, count=8, seed=2):
    """Calibration batches of model `name`, as a representative dataset yields them."""
    rng = np.random.RandomState(seed)
    if name in INTEGER_INPUTS:
        return [[rng.randint(0, 20, (1,) + INPUTS[name]).astype(np.float32)]
                for _ in range(count)]
    return [[rng.uniform(-1, 1, (1,) + INPUTS[name]).astype(np.float32)] for _ in range(count)]


def quantized_input(x, details):
    """Float `x` as the integers of an input of `details` (x itself for a float input)."""
    if details["dtype"] == np.float32:
        return x
    scale, zero = details["quantization"]
    info = np.iinfo(details["dtype"])
    return np.clip(np.round(x / scale) + zero, info.min, info.max).astype(details["dtype"])


def configure(converter, name, tf):
    """Sets `converter`'s options for model `name` (by its suffix: ``_quant`` dynamic range,
    ``_f16`` float16, ``_int8``, ``_uint8`` and ``_ptq`` full integer)."""
    if name.endswith(("_quant", "_f16", "_int8", "_uint8", "_ptq")):
        converter.optimizations = [tf.lite.Optimize.DEFAULT]
    if name.endswith("_f16"):
        converter.target_spec.supported_types = [tf.float16]
    if name in FULL_INTEGER:
        converter.representative_dataset = lambda: iter(representative(name))
    if name.endswith("_int8"):
        converter.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS_INT8]
        converter.inference_input_type = tf.int8
        converter.inference_output_type = tf.int8
    if name.endswith("_uint8"):
        converter.inference_input_type = tf.uint8
        converter.inference_output_type = tf.uint8


def single_ops(tf):
    """``{name: (function, input specs)}``: functions of one operation TF's converter writes
    as one TFLite operator (or two), for ``data/make_op_files.py`` and the tests."""
    S = tf.TensorSpec
    return {
        "add_n": (lambda x, y: tf.add_n([x, y, x]), [S([2, 5]), S([2, 5])]),
        "arg_min": (lambda x: tf.argmin(x, axis=1), [S([2, 5])]),
        "atan2": (lambda x, y: tf.atan2(x, y), [S([2, 5]), S([2, 5])]),
        "cumsum": (lambda x: tf.cumsum(x, axis=1, exclusive=True, reverse=True), [S([2, 5])]),
        "depth_to_space": (lambda x: tf.nn.depth_to_space(x, 2), [S([1, 2, 3, 8])]),
        "space_to_depth": (lambda x: tf.nn.space_to_depth(x, 2), [S([1, 4, 2, 3])]),
        "gather_nd": (lambda x, i: tf.gather_nd(x, i), [S([3, 4]), S([2, 2], tf.int32)]),
        "l2_normalize": (lambda x: tf.math.l2_normalize(x, axis=-1), [S([2, 5])]),
        "matrix_diag": (lambda x: tf.linalg.diag(x), [S([2, 3])]),
        "mirror_pad": (lambda x: tf.pad(x, [[1, 1], [2, 2]], mode="REFLECT") +
                       tf.pad(x, [[1, 1], [2, 2]], mode="SYMMETRIC"), [S([3, 4])]),
        "one_hot": (lambda i: tf.one_hot(i, 4, on_value=2.0, off_value=-1.0, axis=0),
                    [S([3], tf.int32)]),
        "range": (lambda n: tf.range(1, n, 2), [S([], tf.int32)]),
        "reduce_any": (lambda x: tf.reduce_any(x > 0.5, axis=1), [S([2, 5])]),
        "segment_sum": (lambda x: tf.math.segment_sum(x, [0, 0, 1]), [S([3, 2])]),
        "top_k": (lambda x: tf.math.top_k(x, 3), [S([2, 5])]),
        "sort": (lambda x: tf.sort(x, axis=-1, direction="DESCENDING"), [S([2, 5])]),
        "batch_matmul": (lambda a, b: tf.matmul(a, b, transpose_b=True),
                         [S([2, 3, 4]), S([2, 5, 4])]),
        "log1p_expm1": (lambda x: tf.math.log1p(tf.abs(x)) + tf.math.expm1(x), [S([2, 5])]),
        "unstack": (lambda x: tf.unstack(x, axis=1)[2], [S([2, 5])]),
    }


def op_sample(spec, rng):
    """An input of `spec` for `single_ops` (integers: indices within the cases' shapes)."""
    if spec.dtype.name == "int32":
        return rng.randint(0, 3 if spec.shape.rank else 9, spec.shape).astype(np.int32)
    return rng.uniform(-1, 1, spec.shape).astype(np.float32)

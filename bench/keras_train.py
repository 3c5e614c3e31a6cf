"""Keras training throughput: samples per second, beside PyTorch, TF and the GEMM floor.

    python bench/keras_train.py [--reps 3]

* ``mlp_step_function``: a 784-256-128-10 MLP, Adam, batch 128, 8192 samples:
  a custom train step (tape, loss, ``apply_gradients``) under ``function``;
* ``mlp_fit``: the same model and data through ``model.fit`` (one epoch);
* ``cnn_step_function``: Conv2D(16)-Conv2D(32)-GAP-Dense(10) on 28x28x1,
  batch 32, 1024 samples;
* ``resnet_step_function``: a ResNet-style stack on 32x32x3, batch 32, 512
  samples: a Conv-BN-ReLU stem, then three stages of one residual block each
  (Conv-BN-ReLU, Conv-BN, plus the input, or its 1x1 strided projection when
  the stage halves the size; 16, 32, 64 filters), GAP, Dense(10);
* ``digits_cnn_fit``: the README's digits CNN (examples/digits_cnn.py) through
  ``model.fit``, one epoch of 1344 synthetic 8x8x1 digits, batch 32;
* ``lstm_step_function``: LSTM(64)-Dense(10) over 32 steps of 16 features,
  batch 64, 512 samples;
* ``compat_session_mlp``: the MLP of ``mlp_step_function`` as a ``compat.v1`` graph
  (placeholders, ``AdamOptimizer(1e-3).minimize``), one ``Session.run([loss, train],
  feed_dict)`` per batch of 128;
* ``mixed_float16_fit``: the model of TF's mixed-precision guide (784-4096-4096-10,
  a float32 softmax, RMSprop) under the ``mixed_float16`` policy through ``fit``:
  one step of batch 8192 on synthetic data of MNIST's shape;
* ``float32_fit``: the same model and data under the ``float32`` policy.

Figures are seconds per sample (printed as us/op); the ``numpy`` row is the
MLP's GEMM floor: the six matrix products of its forward and backward pass,
nothing else; for ``cnn_step_function`` it is the step's five oneDNN
convolutions (see ``_cnn_floor``). PyTorch runs the same models with ``torch.optim.Adam``.
TensorFlow (tf.keras) runs in the interpreter named by EF_BENCH_TF_PYTHON.
"""
import sys

import numpy as np

import harness

_RNG = np.random.default_rng(0)
MLP_X = _RNG.random((8192, 784), dtype=np.float32)
MLP_Y = _RNG.integers(0, 10, 8192).astype(np.int64)
CNN_X = _RNG.random((1024, 28, 28, 1), dtype=np.float32)
CNN_Y = _RNG.integers(0, 10, 1024).astype(np.int64)
RESNET_X = _RNG.random((512, 32, 32, 3), dtype=np.float32)
RESNET_Y = _RNG.integers(0, 10, 512).astype(np.int64)
DIGITS_X = _RNG.random((1344, 8, 8, 1), dtype=np.float32)
DIGITS_Y = _RNG.integers(0, 10, 1344).astype(np.int64)
LSTM_X = _RNG.random((512, 32, 16), dtype=np.float32)
LSTM_Y = _RNG.integers(0, 10, 512).astype(np.int64)


def _batches(x, y, size, make):
    return [(make(x[i:i + size]), make(y[i:i + size])) for i in range(0, len(x), size)]


def _keras_step(tf, model, from_logits):
    opt = tf.keras.optimizers.Adam(1e-3)
    loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=from_logits)

    @tf.function
    def step(xb, yb):
        with tf.GradientTape() as tape:
            loss = loss_fn(yb, model(xb, training=True))
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        return loss
    return step


def _epoch(step, batches):
    def run():
        for xb, yb in batches:
            loss = step(xb, yb)
        return float(loss)
    return run


def _torch_epoch(torch, model, batches, log_softmax_applied=False):
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    loss_fn = torch.nn.NLLLoss() if log_softmax_applied else torch.nn.CrossEntropyLoss()

    def run():
        for xb, yb in batches:
            opt.zero_grad()
            loss = loss_fn(model(xb), yb)
            loss.backward()
            opt.step()
        return float(loss)
    return run


def _mlp_floor():
    """The eight GEMMs of one MLP step per batch (three forward, the gradients of two hidden
    layers' inputs and of three weights): the floor no framework can beat."""
    w = [np.ones(s, np.float32) * 0.01 for s in ((784, 256), (256, 128), (128, 10))]
    batches = [MLP_X[i:i + 128] for i in range(0, len(MLP_X), 128)]

    def run():
        for xb in batches:
            h1 = xb @ w[0]
            h2 = h1 @ w[1]
            out = h2 @ w[2]
            g2 = out @ w[2].T
            g1 = g2 @ w[1].T
            xb.T @ g1, h1.T @ g2, h2.T @ out  # noqa: B018 (the weight gradients)
    return run


def mlp_step_function(lib, make):
    name = getattr(lib, "__name__", "")
    if lib is np:
        return _mlp_floor(), len(MLP_X)
    if name == "torch":
        model = lib.nn.Sequential(lib.nn.Linear(784, 256), lib.nn.ReLU(), lib.nn.Linear(256, 128),
                                  lib.nn.ReLU(), lib.nn.Linear(128, 10))
        return _torch_epoch(lib, model, _batches(MLP_X, MLP_Y, 128, lib.from_numpy)), len(MLP_X)
    keras = lib.keras
    model = keras.Sequential([keras.layers.Dense(256, activation="relu"),
                              keras.layers.Dense(128, activation="relu"),
                              keras.layers.Dense(10)])
    return _epoch(_keras_step(lib, model, True), _batches(MLP_X, MLP_Y, 128, make)), len(MLP_X)


def compat_session_mlp(lib, make):
    if lib is np:  # (the same products as the Keras step's)
        return _mlp_floor(), len(MLP_X)
    v1 = getattr(getattr(lib, "compat", None), "v1", None)
    if v1 is None or not hasattr(v1, "Session"):
        return None
    graph = v1.Graph()
    with graph.as_default():
        xp = v1.placeholder(lib.float32, [None, 784])
        yp = v1.placeholder(lib.int64, [None])
        rng = np.random.default_rng(0)
        h = xp
        for n_in, n_out, relu in ((784, 256, True), (256, 128, True), (128, 10, False)):
            w = v1.Variable(rng.normal(0, 0.05, (n_in, n_out)).astype(np.float32))
            b = v1.Variable(np.zeros(n_out, np.float32))
            h = v1.matmul(h, w) + b
            h = v1.nn.relu(h) if relu else h
        loss = v1.reduce_mean(v1.nn.sparse_softmax_cross_entropy_with_logits(labels=yp, logits=h))
        train = v1.train.AdamOptimizer(1e-3).minimize(loss)
        init = v1.global_variables_initializer()
    sess = v1.Session(graph=graph)
    sess.run(init)
    batches = [(MLP_X[i:i + 128], MLP_Y[i:i + 128]) for i in range(0, len(MLP_X), 128)]

    def run():
        for xb, yb in batches:
            value, _ = sess.run([loss, train], {xp: xb, yp: yb})
        return float(value)
    return run, len(MLP_X)


def mlp_fit(lib, make):
    if not hasattr(lib, "keras"):
        return None
    keras = lib.keras
    model = keras.Sequential([keras.layers.Dense(256, activation="relu"),
                              keras.layers.Dense(128, activation="relu"),
                              keras.layers.Dense(10)])
    model.compile(optimizer="adam",
                  loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"])
    return (lambda: model.fit(MLP_X, MLP_Y, batch_size=128, epochs=1, verbose=0)), len(MLP_X)


def _cnn_floor():
    """The five convolutions of one CNN step per batch, run on oneDNN as TensorFlow runs
    them too: both layers forward (bias and ReLU fused), the second's input gradient and
    both filter gradients with their bias sums. A framework calling these kernels cannot
    be faster than this; None where oneDNN does not load."""
    try:
        from eagerflow._src.backend import onednn, onednn_conv as conv
    except ImportError:
        return None
    if not onednn.enabled():
        return None
    geometry = ((1, 1), (1, 1), [(0, 0), (0, 0)], False, 1)
    relu = ((conv.RELU, 0.0, 0.0),)
    w1, w2 = (_RNG.random(s, dtype=np.float32) * 0.1 for s in ((3, 3, 1, 16), (3, 3, 16, 32)))
    b1, b2 = np.zeros(16, np.float32), np.zeros(32, np.float32)
    batches = [CNN_X[i:i + 32] for i in range(0, len(CNN_X), 32)]

    def run():
        for xb in batches:
            y1 = conv.forward(xb, w1, *geometry, bias=b1, post_ops=relu)
            y2 = conv.forward(y1, w2, *geometry, bias=b2, post_ops=relu)
            conv.backward_data(w2, y2, y1.shape, *geometry)
            conv.backward_weights(y1, y2, w2.shape, *geometry, bias=True)
            conv.backward_weights(xb, y1, w1.shape, *geometry, bias=True)
    return run


def cnn_step_function(lib, make):
    name = getattr(lib, "__name__", "")
    if lib is np:
        floor = _cnn_floor()
        return None if floor is None else (floor, len(CNN_X))
    if name == "torch":
        nn = lib.nn
        model = nn.Sequential(nn.Conv2d(1, 16, 3), nn.ReLU(), nn.Conv2d(16, 32, 3), nn.ReLU(),
                              nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(32, 10),
                              nn.LogSoftmax(dim=1))
        x = np.ascontiguousarray(CNN_X.transpose(0, 3, 1, 2))
        return _torch_epoch(lib, model, _batches(x, CNN_Y, 32, lib.from_numpy), True), len(x)
    keras = lib.keras
    model = keras.Sequential([
        keras.layers.Conv2D(16, (3, 3), activation="relu", input_shape=(28, 28, 1)),
        keras.layers.Conv2D(32, (3, 3), activation="relu"),
        keras.layers.GlobalAveragePooling2D(),
        keras.layers.Dense(10, activation="softmax")])
    return _epoch(_keras_step(lib, model, False), _batches(CNN_X, CNN_Y, 32, make)), len(CNN_X)


def _resnet(keras):
    def conv_bn(x, filters, kernel, stride=1, relu=True):
        x = keras.layers.Conv2D(filters, kernel, strides=stride, padding="same",
                                use_bias=False)(x)
        x = keras.layers.BatchNormalization()(x)
        return keras.layers.ReLU()(x) if relu else x

    inputs = keras.Input(shape=(32, 32, 3))
    x = conv_bn(inputs, 16, 3)
    for filters, stride in ((16, 1), (32, 2), (64, 2)):
        y = conv_bn(conv_bn(x, filters, 3, stride), filters, 3, relu=False)
        skip = x if stride == 1 else conv_bn(x, filters, 1, stride, relu=False)
        x = keras.layers.ReLU()(keras.layers.Add()([y, skip]))
    x = keras.layers.GlobalAveragePooling2D()(x)
    return keras.Model(inputs, keras.layers.Dense(10)(x))


def resnet_step_function(lib, make):
    if not hasattr(lib, "keras"):
        return None
    model = _resnet(lib.keras)
    return (_epoch(_keras_step(lib, model, True), _batches(RESNET_X, RESNET_Y, 32, make)),
            len(RESNET_X))


def digits_cnn_fit(lib, make):
    if not hasattr(lib, "keras"):
        return None
    keras = lib.keras
    model = keras.Sequential([  # examples/digits_cnn.py's model
        keras.layers.Conv2D(32, 3, padding="same", activation="relu", input_shape=(8, 8, 1)),
        keras.layers.MaxPooling2D(),
        keras.layers.Conv2D(64, 3, padding="same", activation="relu"),
        keras.layers.GlobalAveragePooling2D(),
        keras.layers.Dropout(0.2),
        keras.layers.Dense(10, activation="softmax")])
    model.compile(optimizer=keras.optimizers.Adam(learning_rate=3e-3),
                  loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    return ((lambda: model.fit(DIGITS_X, DIGITS_Y, batch_size=32, epochs=1, verbose=0)),
            len(DIGITS_X))


def lstm_step_function(lib, make):
    name = getattr(lib, "__name__", "")
    if lib is np:
        return None
    if name == "torch":
        class Net(lib.nn.Module):
            def __init__(self):
                super().__init__()
                self.lstm = lib.nn.LSTM(16, 64, batch_first=True)
                self.out = lib.nn.Linear(64, 10)

            def forward(self, x):
                return self.out(self.lstm(x)[0][:, -1])
        return _torch_epoch(lib, Net(), _batches(LSTM_X, LSTM_Y, 64, lib.from_numpy)), \
            len(LSTM_X)
    keras = lib.keras
    model = keras.Sequential([keras.layers.LSTM(64), keras.layers.Dense(10)])
    return _epoch(_keras_step(lib, model, True), _batches(LSTM_X, LSTM_Y, 64, make)), \
        len(LSTM_X)


GUIDE_X = _RNG.random((8192, 784), dtype=np.float32)
GUIDE_Y = _RNG.integers(0, 10, 8192).astype(np.int64)


def _guide_fit(lib, policy):
    """TF's mixed-precision guide model built under `policy`, one `fit` step of 8192."""
    if not hasattr(lib, "keras"):
        return None
    keras = lib.keras
    keras.mixed_precision.set_global_policy(policy)
    try:
        inputs = keras.Input(shape=(784,))
        x = keras.layers.Dense(4096, activation="relu")(inputs)
        x = keras.layers.Dense(4096, activation="relu")(x)
        x = keras.layers.Dense(10)(x)
        outputs = keras.layers.Activation("softmax", dtype="float32")(x)
        model = keras.Model(inputs, outputs)
    finally:
        keras.mixed_precision.set_global_policy("float32")
    model.compile(loss="sparse_categorical_crossentropy", optimizer=keras.optimizers.RMSprop(),
                  metrics=["accuracy"])
    return (lambda: model.fit(GUIDE_X, GUIDE_Y, batch_size=8192, epochs=1, verbose=0)), \
        len(GUIDE_X)


def mixed_float16_fit(lib, make):
    return _guide_fit(lib, "mixed_float16")


def float32_fit(lib, make):
    return _guide_fit(lib, "float32")


CASES = {
    "mlp_step_function": mlp_step_function,
    "mlp_fit": mlp_fit,
    "cnn_step_function": cnn_step_function,
    "resnet_step_function": resnet_step_function,
    "digits_cnn_fit": digits_cnn_fit,
    "lstm_step_function": lstm_step_function,
    "compat_session_mlp": compat_session_mlp,
    "mixed_float16_fit": mixed_float16_fit,
    "float32_fit": float32_fit,
}

if __name__ == "__main__":
    sys.exit(harness.main(CASES, __file__, reps=3))

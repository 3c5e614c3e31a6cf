"""The modules the SavedModel tests save, written once for both frameworks.

`affine_class(tf)` makes one with the given `tf` module: real TensorFlow in
data/make_tf_savedmodels.py, eagerflow in test_saved_model.py (and `ragged_class(tf)` in
data/make_ours.py too).
"""
import numpy as np


def affine_class(tf):
    """A `tf.Module` computing relu(x @ w + b) with a traced, signed `__call__`."""

    class Affine(tf.Module):
        def __init__(self):
            super().__init__()
            self.w = tf.Variable([[1.0, -2.0], [0.5, 3.0]], name="w")
            self.b = tf.Variable([0.25, -1.0], name="b")

        @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32, name="x")])
        def __call__(self, x):
            return tf.nn.relu(tf.matmul(x, self.w) + self.b)

    return Affine


def subclassed_classes(tf):
    """``(Scale, Subclassed)``: a custom layer with an activity loss, and a subclassed Keras
    model with no config (layers, that layer, dropout taking `training`)."""

    class Scale(tf.keras.layers.Layer):
        def build(self, input_shape):
            self.scale = self.add_weight("scale", shape=(input_shape[-1],),
                                         initializer="ones")

        def call(self, x):
            self.add_loss(0.01 * tf.reduce_sum(tf.abs(x)))
            return x * self.scale

    class Subclassed(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.hidden = tf.keras.layers.Dense(5, activation="relu")
            self.scale = Scale()
            self.drop = tf.keras.layers.Dropout(0.5)
            self.out = tf.keras.layers.Dense(2)

        def call(self, x, training=False):
            return self.out(self.drop(self.scale(self.hidden(x)), training=training))

    return Scale, Subclassed


def subclassed_model(tf, seed):
    """A subclassed Keras model with no config (layers, a custom layer with an activity
    loss, dropout taking `training`) after a step of Adam: ``(model, x)``, `x` its inputs."""
    _, Subclassed = subclassed_classes(tf)
    tf.keras.backend.clear_session()
    tf.keras.utils.set_random_seed(seed)
    model = Subclassed()
    model.compile(tf.keras.optimizers.Adam(0.1), "mse")
    x = np.arange(8, dtype=np.float32).reshape(2, 4) / 7.0
    model.fit(x, np.ones((2, 2), np.float32), epochs=1, verbose=0)
    return model, x


RAGGED_X = [[1.0, 2.0], [], [3.0]]
RAGGED_IDS = [[[1, 2], [3]], [], [[4, 5, 6], [], [7]]]
RAGGED_W = [1.0, 2.0, 3.0]


def ragged_class(tf):
    """A `tf.Module` whose signed functions take and return ragged tensors (of ragged rank 1
    and 2) and a sparse one, and a function of ragged layout ops."""

    class Ragged(tf.Module):
        def __init__(self):
            super().__init__()
            self.scale = tf.Variable(2.0, name="scale")

        @tf.function(input_signature=[tf.RaggedTensorSpec([None, None], tf.float32)])
        def scaled(self, x):
            return x * self.scale + 1.0

        @tf.function(input_signature=[tf.RaggedTensorSpec([None, None, None], tf.int64),
                                      tf.TensorSpec([None], tf.float32, name="w")])
        def summary(self, ids, w):
            total = tf.cast(tf.reduce_sum(ids, axis=[1, 2]), tf.float32) * w
            return {"row_sums": tf.reduce_sum(ids, axis=2), "total": total,
                    "ids": ids * 10,
                    "sparse": tf.sparse.from_dense(tf.reduce_sum(ids, axis=2).to_tensor())}

        @tf.function(input_signature=[tf.RaggedTensorSpec([None, None], tf.float32)])
        def layout(self, x):
            # (TF's graph of these holds its ops RaggedTensorToSparse, RaggedRange and
            # RaggedGather)
            return {"indices": x.to_sparse().indices,
                    "positions": tf.ragged.range(x.row_lengths()), "heads": x[:, :1],
                    "gathered": tf.gather(x, [[2], [0]]), "joined": tf.concat([x, x], 1)}

        @tf.function(input_signature=[tf.RaggedTensorSpec([None, None], tf.int64),
                                      tf.RaggedTensorSpec([None, None], tf.string)])
        def features(self, ids, words):
            # (TF's graph of these holds its ops RaggedCross, RaggedBincount,
            # RaggedCountSparseOutput, and map_fn's RaggedTensorToVariant and
            # RaggedTensorFromVariant around a while loop over tensor lists)
            return {"crossed": tf.ragged.cross([ids, words]),
                    "hashed": tf.ragged.cross_hashed([words, ids], num_buckets=10),
                    "counts": tf.math.bincount(ids, axis=-1, minlength=4),
                    "present": tf.math.bincount(ids, axis=-1, binary_output=True,
                                                dtype=tf.float32),
                    "sparse_counts": tf.sparse.bincount(ids, axis=-1),
                    "doubled": tf.map_fn(lambda row: row * 2, ids),
                    "sums": tf.map_fn(tf.reduce_sum, ids, fn_output_signature=tf.int64),
                    "lengths": tf.map_fn(lambda row: tf.strings.length(row), words,
                                         fn_output_signature=tf.RaggedTensorSpec(
                                             [None], tf.int32, 0, tf.int64))}

    return Ragged


RAGGED_FEATURE_IDS = [[1, 2, 2], [], [5, 0]]
RAGGED_FEATURE_WORDS = [["a"], ["bb", "c"], ["d", "ee"]]


DENSE_KEYS = ["a", "b", "c", "d", "zzz"]


def dense_table_module(tf):
    """A `tf.Module` with a DenseHashTable (string -> int64, 4 buckets at first: it grows)
    that its signed function `lookup` uses; "c" was inserted then removed."""
    m = tf.Module()
    m.table = tf.lookup.experimental.DenseHashTable(tf.string, tf.int64, -1, empty_key="",
                                                    deleted_key="$", initial_num_buckets=4)
    m.table.insert(tf.constant(["a", "b", "c", "d"]), tf.constant([1, 2, 3, 4], tf.int64))
    m.table.remove(tf.constant(["c"]))

    @tf.function(input_signature=[tf.TensorSpec([None], tf.string, name="keys")])
    def lookup(keys):
        return {"values": m.table.lookup(keys), "size": m.table.size()}

    m.lookup = lookup
    return m


VECTOR_KEYS, VECTOR_IDS = ["a", "b", "zz"], [5, 7, 9, 8]


def vector_table_module(tf):
    """A `tf.Module` with tables of vectors, which its signed function `lookup` uses: a
    MutableHashTable (string -> float32 pairs) and a DenseHashTable (int64 -> int32
    triples, 4 buckets at first: it grows)."""
    m = tf.Module()
    m.strings = tf.lookup.experimental.MutableHashTable(tf.string, tf.float32, [0.0, -1.0])
    m.strings.insert(tf.constant(["a", "b"]), tf.constant([[1.0, 2.0], [3.0, 4.0]]))
    m.numbers = tf.lookup.experimental.DenseHashTable(tf.int64, tf.int32, [0, 0, 0],
                                                      empty_key=-1, deleted_key=-2,
                                                      initial_num_buckets=4)
    m.numbers.insert(tf.constant([5, 7, 9], tf.int64),
                     tf.constant([[1, 2, 3], [4, 5, 6], [7, 8, 9]]))

    @tf.function(input_signature=[tf.TensorSpec([None], tf.string, name="keys"),
                                  tf.TensorSpec([None], tf.int64, name="ids")])
    def lookup(keys, ids):
        return {"strings": m.strings.lookup(keys), "numbers": m.numbers.lookup(ids)}

    m.lookup = lookup
    return m


CUSTOM_GRADIENT_X = [1.0, -2.0, 0.5]


def custom_gradient_module(tf):
    """A `tf.Module` whose signed functions use `tf.custom_gradient`: `f` one whose gradient
    reads a forward value (log1pexp's exp) and clips, `g` one that reads a variable."""

    @tf.custom_gradient
    def log1pexp(x):
        e = tf.exp(x)

        def grad(upstream):
            return tf.clip_by_value(upstream * (1 - 1 / (1 + e)), -0.5, 0.5)
        return tf.math.log(1 + e), grad

    class CustomGradients(tf.Module):
        def __init__(self):
            super().__init__()
            self.v = tf.Variable(2.0, name="v")
            self.w = tf.Variable(3.0, name="w")

        @tf.function(input_signature=[tf.TensorSpec([None], tf.float32, name="x")])
        def f(self, x):
            return tf.reduce_sum(log1pexp(x * self.v))

        @tf.function(input_signature=[tf.TensorSpec([None], tf.float32, name="x")])
        def g(self, x):
            @tf.custom_gradient
            def scale(x):
                def grad(dy, variables=None):
                    return dy * self.w * 10.0, [tf.reduce_sum(dy * x) * 100.0]
                return x * self.w, grad
            return tf.reduce_sum(scale(x))

    return CustomGradients


def custom_gradient_results(tf, m):
    """The values and gradients of `m`'s functions (a custom_gradient_module's, loaded) on
    CUSTOM_GRADIENT_X, eagerly and in a tf.function, as JSON-ready lists."""
    x = tf.constant(CUSTOM_GRADIENT_X)
    out = {}
    for name, fn, variable in (("f", m.f, m.v), ("g", m.g, m.w),
                               ("signature_f", lambda x: m.signatures["f"](x=x)["output_0"],
                                m.v)):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = fn(x)
        dx, dv = tape.gradient(y, [x, variable])
        out[name] = [float(y.numpy()), dx.numpy().tolist(), float(dv.numpy())]

    @tf.function
    def step(x):
        with tf.GradientTape() as tape:
            y = m.f(x) + m.g(x)
        return tape.gradient(y, [m.v, m.w])
    out["traced"] = [float(t.numpy()) for t in step(x)]
    return out


LOOP_GRADIENT_XS = [[1.0, -2.0], [1.0, 2.0], [0.1, 0.2]]


def loop_gradient_class(tf):
    """A `tf.Module` whose signed `grad` differentiates a nested traced call holding a
    `tf.range` loop with a branch inside and a branch after it: TF's saved gradient keeps
    the loop's values in TensorLists (``EmptyTensorList``, ``TensorListPushBack``/``PopBack``)
    and the branches' in optionals (``OptionalFromValue``, ``OptionalNone``,
    ``OptionalGetValue``)."""

    class LoopGradient(tf.Module):
        def __init__(self):
            super().__init__()
            self.w = tf.Variable(1.5, name="w")

        @tf.function
        def inner(self, x):
            acc = tf.zeros_like(x)
            for i in tf.range(3):
                if tf.reduce_sum(acc) > 1.0:
                    acc = acc * self.w + x
                else:
                    acc = acc + x * tf.cast(i + 1, tf.float32) * self.w
            if tf.reduce_sum(x) > 0:
                acc = tf.sin(acc) * self.w
            else:
                acc = acc * 2.0
            return acc

        @tf.function(input_signature=[tf.TensorSpec([None], tf.float32, name="x")])
        def grad(self, x):
            with tf.GradientTape() as tape:
                tape.watch(x)
                y = tf.reduce_sum(self.inner(x) ** 2)
            dx, dw = tape.gradient(y, [x, self.w])
            return {"y": y, "dx": dx, "dw": dw}

    return LoopGradient


def loop_gradient_results(tf, m):
    """`m.grad` (a loop_gradient_class's) on each of LOOP_GRADIENT_XS, and the second
    derivatives of ``sum(dx)`` (through the saved gradient's lists and optionals), as
    JSON-ready lists."""
    out = []
    for x in LOOP_GRADIENT_XS:
        x = tf.constant(x)
        with tf.GradientTape() as tape:
            tape.watch(x)
            values = m.grad(x)
            total = tf.reduce_sum(values["dx"])
        second = tape.gradient(total, [x, m.w])
        out.append({**{k: v.numpy().tolist() for k, v in values.items()},
                    "d2x": second[0].numpy().tolist(), "d2w": second[1].numpy().tolist()})
    return out


def custom_functional_model(tf, seed):
    """A functional Keras model of a custom layer (``Scale``, with a config) and a Dense
    with a custom activation (``custom_act``), after two steps of Adam: ``(model, x,
    custom_objects)``."""

    class Scale(tf.keras.layers.Layer):
        def __init__(self, factor=2.0, **kwargs):
            super().__init__(**kwargs)
            self.factor = factor

        def build(self, input_shape):
            self.w = self.add_weight("w", shape=(input_shape[-1],), initializer="ones")

        def call(self, x):
            return x * self.w * self.factor

        def get_config(self):
            return {**super().get_config(), "factor": self.factor}

    def custom_act(x):
        return tf.nn.relu(x) - 0.1

    tf.keras.backend.clear_session()
    tf.keras.utils.set_random_seed(seed)
    inputs = tf.keras.Input((4,), name="feat")
    hidden = tf.keras.layers.Dense(3, activation=custom_act)(inputs)
    hidden = Scale(3.0, name="scale")(hidden)
    model = tf.keras.Model(inputs, tf.keras.layers.Dense(2, name="out")(hidden))
    model.compile(tf.keras.optimizers.Adam(0.01), "mse", metrics=["mae"])
    x = np.arange(8, dtype=np.float32).reshape(2, 4) / 7.0
    model.fit(x, np.ones((2, 2), np.float32), epochs=2, verbose=0)
    return model, x, {"Scale": Scale, "custom_act": custom_act}


def custom_functional_results(tf, model, x):
    """What a loaded custom_functional_model reports, as JSON-ready values."""
    return {"layers": [[type(layer).__name__, layer.name] for layer in model.layers],
            "inputs": [str(t.shape) for t in model.inputs],
            "outputs": [str(t.shape) for t in model.outputs],
            "predict": model.predict(x, verbose=0).tolist(),
            "evaluate": model.evaluate(x, np.ones((2, 2), np.float32), verbose=0)}

"""Writes the SavedModels of TensorFlow 2.21 the tests load (run with real TF, not by the tests):

    TF_USE_LEGACY_KERAS=1 /root/tfvenv/bin/python tests/saved_model/data/make_tf_savedmodels.py

With the names of sections (``embedding``, ``v1``) as arguments, writes those alone and updates
their outputs in tf_outputs.json.
"""
import json
import os
import shutil
import sys

import numpy as np
import tensorflow as tf

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))

from tests.saved_model.programs import (  # noqa: E402
    DENSE_KEYS, RAGGED_FEATURE_IDS, RAGGED_FEATURE_WORDS, RAGGED_IDS, RAGGED_W, RAGGED_X,
    VECTOR_IDS, VECTOR_KEYS, affine_class, custom_gradient_module, custom_gradient_results,
    loop_gradient_class, loop_gradient_results, custom_functional_model,
    custom_functional_results,
    dense_table_module, ragged_class, subclassed_model, vector_table_module)

HERE = os.path.dirname(os.path.abspath(__file__))


Affine = affine_class(tf)


def main():
    outputs = {}
    x = np.array([[1.0, 2.0], [-3.0, 0.5], [0.0, 0.0]], np.float32)
    path = os.path.join(HERE, "tf_module")
    shutil.rmtree(path, ignore_errors=True)
    m = Affine()
    tf.saved_model.save(m, path)
    outputs["tf_module"] = {"x": x.tolist(), "y": m(x).numpy().tolist()}

    containers = tf.Module()
    containers.items = [tf.Variable(1.0), tf.Variable([2, 3], dtype=tf.int64)]
    containers.table = {"a": tf.Variable(b"text")}
    path = os.path.join(HERE, "tf_containers")
    shutil.rmtree(path, ignore_errors=True)
    tf.saved_model.save(containers, path)

    tf.keras.utils.set_random_seed(1)
    model = tf.keras.Sequential([tf.keras.layers.Dense(3, activation="tanh", input_shape=(4,)),
                                 tf.keras.layers.Dense(2)])
    xk = np.arange(8, dtype=np.float32).reshape(2, 4) / 7.0
    path = os.path.join(HERE, "tf_keras")
    shutil.rmtree(path, ignore_errors=True)
    tf.saved_model.save(model, path)
    outputs["tf_keras"] = {"x": xk.tolist(), "y": model(xk).numpy().tolist()}

    # model.save of a compiled model after a step of training: a SavedModel with
    # keras_metadata.pb, which keras.models.load_model reads
    model.compile(tf.keras.optimizers.Adam(0.1), "mse")
    model.fit(xk, np.ones((2, 2), np.float32), epochs=1, verbose=0)
    path = os.path.join(HERE, "tf_keras_model_save")
    shutil.rmtree(path, ignore_errors=True)
    model.save(path)
    outputs["tf_keras_model_save"] = {"x": xk.tolist(), "y": model(xk).numpy().tolist()}
    # a small CNN (convolution, batch normalization, pooling, dropout) after a step of
    # training: its training-mode function draws random numbers and updates moving statistics
    tf.keras.utils.set_random_seed(0)
    cnn = tf.keras.Sequential([
        tf.keras.layers.Conv2D(4, 3, activation="relu", input_shape=(8, 8, 1)),
        tf.keras.layers.BatchNormalization(),
        tf.keras.layers.MaxPooling2D(),
        tf.keras.layers.Dropout(0.5),
        tf.keras.layers.Flatten(),
        tf.keras.layers.Dense(3, activation="softmax")])
    xc = np.random.RandomState(0).rand(2, 8, 8, 1).astype(np.float32)
    cnn.compile("adam", "sparse_categorical_crossentropy")
    cnn.fit(xc, np.array([0, 2]), epochs=1, verbose=0)
    path = os.path.join(HERE, "tf_keras_cnn")
    shutil.rmtree(path, ignore_errors=True)
    cnn.save(path)
    outputs["tf_keras_cnn"] = {"x": xc.tolist(), "y": cnn(xc).numpy().tolist()}
    # an LSTM: its functions hold TF's while loop over tensor lists
    tf.keras.utils.set_random_seed(0)
    rnn = tf.keras.Sequential([tf.keras.layers.LSTM(3, input_shape=(5, 2)),
                               tf.keras.layers.Dense(2)])
    xr = np.random.RandomState(0).rand(2, 5, 2).astype(np.float32)
    path = os.path.join(HERE, "tf_keras_lstm")
    shutil.rmtree(path, ignore_errors=True)
    rnn.save(path)
    outputs["tf_keras_lstm"] = {"x": xr.tolist(), "y": rnn(xr).numpy().tolist()}
    embedding(outputs)
    v1(outputs)
    tables(outputs)
    ragged(outputs)
    dense(outputs)
    vector_tables(outputs)
    subclassed(outputs)
    custom_gradients(outputs)
    assets(outputs)
    user_resource(outputs)
    variable_resource(outputs)
    loop_gradients(outputs)
    custom_functional(outputs)
    with open(os.path.join(HERE, "tf_outputs.json"), "w") as f:
        json.dump(outputs, f, indent=1)


def embedding(outputs):
    """An Embedding layer: its functions read the table's rows with ResourceGather."""
    tf.keras.utils.set_random_seed(0)
    model = tf.keras.Sequential([tf.keras.layers.Embedding(10, 4, input_length=3),
                                 tf.keras.layers.Flatten(), tf.keras.layers.Dense(2)])
    x = np.array([[1, 2, 3], [4, 5, 9]], np.float32)
    with tf.GradientTape() as tape:
        y = model(x)
        loss = tf.reduce_sum(y * y)
    grad = tape.gradient(loss, model.layers[0].embeddings)
    path = os.path.join(HERE, "tf_keras_embedding")
    shutil.rmtree(path, ignore_errors=True)
    tf.saved_model.save(model, path)
    outputs["tf_keras_embedding"] = {
        "x": x.tolist(), "y": y.numpy().tolist(), "grad_indices": grad.indices.numpy().tolist(),
        "grad_values": grad.values.numpy().tolist()}


def v1(outputs):
    """TF 1 SavedModels (no object graph): simple_save of a graph with two variables, and a
    SavedModelBuilder's with two signatures, one of two inputs, and an int64 variable."""
    compat = tf.compat.v1
    path = os.path.join(HERE, "tf1_simple_save")
    shutil.rmtree(path, ignore_errors=True)
    x_value = np.array([[1.0, 2.0], [-3.0, 0.5]], np.float32)
    with tf.Graph().as_default():
        x = compat.placeholder(tf.float32, [None, 2], name="x")
        w = compat.get_variable("w", initializer=np.array([[1.0, -2.0], [0.5, 3.0]],
                                                          np.float32))
        b = compat.Variable([0.25, -1.0], name="b")
        y = tf.nn.relu(tf.matmul(x, w) + b, name="y")
        with compat.Session() as sess:
            sess.run(compat.global_variables_initializer())
            compat.saved_model.simple_save(sess, path, inputs={"x": x}, outputs={"y": y})
            outputs["tf1_simple_save"] = {"x": x_value.tolist(),
                                          "y": sess.run(y, {x: x_value}).tolist()}
    path = os.path.join(HERE, "tf1_builder")
    shutil.rmtree(path, ignore_errors=True)
    with tf.Graph().as_default():
        a = compat.placeholder(tf.float32, [None], name="a")
        c = compat.placeholder(tf.float32, [None], name="c")
        scale = compat.Variable(3.0, name="scale")
        count = compat.Variable(np.int64(7), name="count", trainable=False)
        total = tf.add(a * scale, c, name="total")
        shifted = tf.add(tf.cast(count, tf.float32), a, name="shifted")
        with compat.Session() as sess:
            sess.run(compat.global_variables_initializer())
            builder = compat.saved_model.Builder(path)
            sig = compat.saved_model.signature_def_utils.predict_signature_def
            builder.add_meta_graph_and_variables(sess, ["serve"], signature_def_map={
                "serving_default": sig({"a": a, "c": c}, {"total": total}),
                "shift": sig({"a": a}, {"shifted": shifted, "count": count.read_value()})})
            builder.save()
            feed = {a: np.array([1.0, 2.0], np.float32), c: np.array([0.5, -1.0], np.float32)}
            outputs["tf1_builder"] = {"a": [1.0, 2.0], "c": [0.5, -1.0],
                                      "total": sess.run(total, feed).tolist(),
                                      "shifted": sess.run(shifted, feed).tolist()}


def tables(outputs):
    """Lookup tables: a Module with a StaticHashTable from constants, a StaticVocabularyTable
    from a vocabulary file (an asset) and a MutableHashTable; a tf_keras model with a
    StringLookup layer."""
    path = os.path.join(HERE, "tf_tables")
    shutil.rmtree(path, ignore_errors=True)
    vocab = os.path.join(HERE, "tables_vocab.txt")
    with open(vocab, "w") as f:
        f.write("red\ngreen\nblue\n")
    m = tf.Module()
    m.hash = tf.lookup.StaticHashTable(
        tf.lookup.KeyValueTensorInitializer(["a", "b", "c"], tf.constant([1, 2, 3], tf.int64)),
        default_value=-1)
    m.vocab = tf.lookup.StaticVocabularyTable(
        tf.lookup.TextFileInitializer(vocab, tf.string, tf.lookup.TextFileIndex.WHOLE_LINE,
                                      tf.int64, tf.lookup.TextFileIndex.LINE_NUMBER),
        num_oov_buckets=2)
    m.mutable = tf.lookup.experimental.MutableHashTable(tf.string, tf.float32, -1.0)
    m.mutable.insert(["x", "y"], [0.5, 1.5])

    @tf.function(input_signature=[tf.TensorSpec([None], tf.string)])
    def lookup(keys):
        return {"hash": m.hash.lookup(keys), "vocab": m.vocab.lookup(keys),
                "mutable": m.mutable.lookup(keys)}

    m.lookup = lookup
    tf.saved_model.save(m, path)
    keys = ["a", "green", "x", "c", "zzz", "blue"]
    outputs["tf_tables"] = {"keys": keys, **{
        k: v.numpy().tolist() for k, v in m.lookup(tf.constant(keys)).items()}}

    path = os.path.join(HERE, "tf_keras_stringlookup")
    shutil.rmtree(path, ignore_errors=True)
    inputs = tf.keras.Input((None,), dtype=tf.string)
    ids = tf.keras.layers.StringLookup(vocabulary=["cat", "dog", "bird"])(inputs)
    model = tf.keras.Model(inputs, ids)
    model.save(path)
    x = [["dog", "fish"], ["bird", "cat"]]
    outputs["tf_keras_stringlookup"] = {"x": x, "y": model(tf.constant(x)).numpy().tolist()}

    path = os.path.join(HERE, "tf_keras_text")
    shutil.rmtree(path, ignore_errors=True)
    layer = tf.keras.layers.TextVectorization(max_tokens=20, output_sequence_length=4)
    layer.adapt(["the cat sat", "the dog ran far", "a bird"])
    inputs = tf.keras.Input((), dtype=tf.string)
    model = tf.keras.Model(inputs, layer(inputs))
    model.save(path)
    x = ["the bird sat", "zebra cat", ""]
    outputs["tf_keras_text"] = {"x": x, "y": model(tf.constant(x)).numpy().tolist()}


def ragged(outputs):
    """A Module whose signed functions take and return ragged tensors (and a sparse one),
    with signatures."""
    path = os.path.join(HERE, "tf_ragged")
    shutil.rmtree(path, ignore_errors=True)
    m = ragged_class(tf)()
    tf.saved_model.save(m, path, signatures={"serving_default": m.scaled,
                                             "summary": m.summary})
    x = tf.ragged.constant(RAGGED_X)
    ids = tf.ragged.constant(RAGGED_IDS, tf.int64)
    summary = m.summary(ids, tf.constant(RAGGED_W))
    outputs["tf_ragged"] = {
        "scaled": m.scaled(x).to_list(),
        "summary": {k: v.to_list() for k, v in summary.items()
                    if isinstance(v, tf.RaggedTensor)},
        "total": summary["total"].numpy().tolist(),
        "sparse": [summary["sparse"].indices.numpy().tolist(),
                   summary["sparse"].values.numpy().tolist(),
                   summary["sparse"].dense_shape.numpy().tolist()],
        "layout": {k: v.to_list() if isinstance(v, tf.RaggedTensor) else v.numpy().tolist()
                   for k, v in m.layout(x).items()},
        "features": {k: _plain(v) for k, v in m.features(
            tf.ragged.constant(RAGGED_FEATURE_IDS, tf.int64),
            tf.ragged.constant(RAGGED_FEATURE_WORDS)).items()}}


def _plain(value):
    """A result as JSON: a ragged tensor's list, a SparseTensor's parts, a tensor's list
    (strings decoded)."""
    if isinstance(value, tf.SparseTensor):
        return [_plain(value.indices), _plain(value.values), _plain(value.dense_shape)]
    listed = value.to_list() if isinstance(value, tf.RaggedTensor) else value.numpy().tolist()
    return json.loads(json.dumps(listed, default=bytes.decode))


def dense(outputs):
    """A Module whose function uses a DenseHashTable (programs.dense_table_module)."""
    path = os.path.join(HERE, "tf_dense")
    shutil.rmtree(path, ignore_errors=True)
    m = dense_table_module(tf)
    tf.saved_model.save(m, path)
    outputs["tf_dense"] = {k: v.numpy().tolist()
                           for k, v in m.lookup(tf.constant(DENSE_KEYS)).items()}


def vector_tables(outputs):
    """A Module whose function uses tables of vectors (programs.vector_table_module)."""
    path = os.path.join(HERE, "tf_vector_tables")
    shutil.rmtree(path, ignore_errors=True)
    m = vector_table_module(tf)
    tf.saved_model.save(m, path)
    outputs["tf_vector_tables"] = {k: v.numpy().tolist() for k, v in m.lookup(
        tf.constant(VECTOR_KEYS), tf.constant(VECTOR_IDS, tf.int64)).items()}


def subclassed(outputs):
    """A subclassed Keras model (programs.subclassed_model) by model.save: its class is not
    in the SavedModel, its call functions are; its outputs, losses and weights' names."""
    model, x = subclassed_model(tf, 6)
    path = os.path.join(HERE, "tf_keras_subclassed")
    shutil.rmtree(path, ignore_errors=True)
    model.save(path)
    outputs["tf_keras_subclassed"] = {
        "x": x.tolist(), "y": model(x, training=False).numpy().tolist(),
        "losses": [float(v) for v in model.losses],
        "weights": [v.name for v in model.weights]}


def random_layers(outputs):
    """A Sequential of RandomFlip, RandomRotation and Dense: the random layers' functions draw
    with a tf.random.Generator (RngReadAndSkip and the stateless V2 ops); inference is the
    identity through them."""
    tf.keras.utils.set_random_seed(3)
    model = tf.keras.Sequential([
        tf.keras.layers.RandomFlip("horizontal", input_shape=(4, 4, 1)),
        tf.keras.layers.RandomRotation(0.2),
        tf.keras.layers.Flatten(), tf.keras.layers.Dense(2)])
    x = np.arange(32, dtype=np.float32).reshape(2, 4, 4, 1) / 31.0
    path = os.path.join(HERE, "tf_keras_random_layers")
    shutil.rmtree(path, ignore_errors=True)
    tf.saved_model.save(model, path)
    # the loaded model's first two training calls: draws from the saved generators' states
    loaded = tf.saved_model.load(path)
    outputs["tf_keras_random_layers"] = {
        "x": x.tolist(), "y": model(x, training=False).numpy().tolist(),
        "y_train": [loaded(x, training=True).numpy().tolist() for _ in range(2)]}


def custom_gradients(outputs):
    """A Module whose functions use tf.custom_gradient (programs.custom_gradient_module):
    their gradients are saved, and the loaded functions differentiate with them."""
    path = os.path.join(HERE, "tf_custom_gradients")
    shutil.rmtree(path, ignore_errors=True)
    m = custom_gradient_module(tf)()
    tf.saved_model.save(m, path, signatures={"f": m.f})
    outputs["tf_custom_gradients"] = custom_gradient_results(tf, tf.saved_model.load(path))


def assets(outputs):
    """A Module of two assets whose signature ``read`` reads both files (TF writes each as a
    string variable its init op assigns from the asset's placeholder)."""
    import tempfile  # noqa: PLC0415
    path = os.path.join(HERE, "tf_assets")
    shutil.rmtree(path, ignore_errors=True)
    source = tempfile.mkdtemp()
    for name in ("a.txt", "b.txt"):
        with open(os.path.join(source, name), "w") as f:
            f.write(name.upper())

    class Reader(tf.Module):
        def __init__(self):
            super().__init__()
            self.a = tf.saved_model.Asset(os.path.join(source, "a.txt"))
            self.b = tf.saved_model.Asset(os.path.join(source, "b.txt"))

        @tf.function(input_signature=[])
        def read(self):
            return {"a": tf.io.read_file(self.a.asset_path),
                    "b": tf.io.read_file(self.b.asset_path)}

    m = Reader()
    tf.saved_model.save(m, path, signatures={"read": m.read})
    shutil.rmtree(source)
    with tf.compat.v1.Session(graph=tf.Graph()) as sess:
        meta = tf.compat.v1.saved_model.load(sess, ["serve"], path)
        session = {k: sess.run(v.name).decode() for k, v in
                   meta.signature_def["read"].outputs.items()}
    outputs["tf_assets"] = {
        "read": {k: v.numpy().decode() for k, v in
                 tf.saved_model.load(path).signatures["read"]().items()},
        "v1_session_read": session}


def user_resource(outputs):
    """A Module holding a user's TrackableResource (a table its ``_create_resource`` makes
    by TF's op, filled by its ``_initialize``), which its function reads by the handle."""
    class Counts(tf.saved_model.experimental.TrackableResource):
        def _create_resource(self):
            return tf.raw_ops.MutableHashTableV2(key_dtype=tf.string, value_dtype=tf.int64)

        def _initialize(self):
            tf.raw_ops.LookupTableInsertV2(table_handle=self.resource_handle,
                                           keys=tf.constant(["a", "b"]),
                                           values=tf.constant([1, 2], tf.int64))

    m = tf.Module()
    m.counts = Counts()
    m.counts.resource_handle  # (made eagerly: the function captures it)
    m.find = tf.function(
        lambda k: tf.raw_ops.LookupTableFindV2(table_handle=m.counts.resource_handle, keys=k,
                                               default_value=tf.constant(-1, tf.int64)),
        input_signature=[tf.TensorSpec([None], tf.string)])
    path = os.path.join(HERE, "tf_user_resource")
    shutil.rmtree(path, ignore_errors=True)
    tf.saved_model.save(m, path)
    loaded = tf.saved_model.load(path)  # (its _initialize run: the table filled)
    outputs["tf_user_resource"] = {
        "loaded_type": type(loaded.counts).__name__,
        "find": loaded.find(tf.constant(["a", "z", "b"])).numpy().tolist()}


def variable_resource(outputs):
    """A Module holding a user's TrackableResource whose ``_create_resource`` makes a variable
    by TF's ``VarHandleOp``, which its ``_initialize`` assigns and its function counts up."""
    class Counter(tf.saved_model.experimental.TrackableResource):
        def _create_resource(self):
            return tf.raw_ops.VarHandleOp(dtype=tf.int64, shape=[], shared_name="")

        def _initialize(self):
            tf.raw_ops.AssignVariableOp(resource=self.resource_handle,
                                        value=tf.constant(10, tf.int64))

        def _destroy_resource(self):
            tf.raw_ops.DestroyResourceOp(resource=self.resource_handle)

    m = tf.Module()
    m.counter = Counter()
    m.counter._initialize()

    def bump():
        handle = m.counter.resource_handle
        tf.raw_ops.AssignAddVariableOp(resource=handle, value=tf.constant(1, tf.int64))
        return tf.raw_ops.ReadVariableOp(resource=handle, dtype=tf.int64)
    m.bump = tf.function(bump, input_signature=[])
    m.bump()
    path = os.path.join(HERE, "tf_variable_resource")
    shutil.rmtree(path, ignore_errors=True)
    tf.saved_model.save(m, path)
    loaded = tf.saved_model.load(path)  # (its _initialize run: the variable is 10 again)
    outputs["tf_variable_resource"] = {
        "loaded_type": type(loaded.counter).__name__,
        "bumps": [int(loaded.bump()), int(loaded.bump())]}


def loop_gradients(outputs):
    """A Module whose signed function differentiates a loop with branches
    (programs.loop_gradient_class): TF's gradient functions keep the loop's values in
    TensorLists and the branches' in optionals."""
    path = os.path.join(HERE, "tf_loop_gradients")
    shutil.rmtree(path, ignore_errors=True)
    m = loop_gradient_class(tf)()
    tf.saved_model.save(m, path)
    outputs["tf_loop_gradients"] = loop_gradient_results(tf, m)


def custom_functional(outputs):
    """A functional model of a custom layer and activation (programs.custom_functional_model)
    saved by ``model.save``; loaded with and without its custom objects."""
    path = os.path.join(HERE, "tf_keras_custom_functional")
    shutil.rmtree(path, ignore_errors=True)
    model, x, custom = custom_functional_model(tf, 0)
    model.save(path)
    outputs["tf_keras_custom_functional"] = {
        "x": x.tolist(),
        "with_custom_objects": custom_functional_results(
            tf, tf.keras.models.load_model(path, custom_objects=custom), x),
        "revived": custom_functional_results(tf, tf.keras.models.load_model(path), x)}


def only(names):
    path = os.path.join(HERE, "tf_outputs.json")
    with open(path) as f:
        outputs = json.load(f)
    for name in names:
        globals()[name](outputs)
    with open(path, "w") as f:
        json.dump(outputs, f, indent=1)


if __name__ == "__main__":
    if sys.argv[1:]:
        only(sys.argv[1:])
    else:
        main()

"""TensorFlow 2.21 loads the SavedModels eagerflow wrote (make_ours.py) and records what it
computes and what ``saved_model_cli show --all`` prints (run by hand with real TF):

    /root/tfvenv/bin/python tests/saved_model/data/load_ours_in_tf.py
"""
import json
import os
import shutil
import subprocess
import sys

import numpy as np

os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")  # (tf.keras: tf_keras, which reads SavedModels)
import tensorflow as tf  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))

from tests.saved_model.programs import (  # noqa: E402
    RAGGED_FEATURE_IDS, RAGGED_FEATURE_WORDS, RAGGED_IDS, RAGGED_W, RAGGED_X,
    custom_gradient_results)

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", ".."))

from tests.saved_model.programs import DENSE_KEYS, VECTOR_IDS, VECTOR_KEYS  # noqa: E402


def main():
    path = os.path.join(HERE, "ours_module")
    m = tf.saved_model.load(path)
    x = np.load(os.path.join(HERE, "ours_module_x.npy"))
    sig = m.signatures["serving_default"](features=tf.constant(x))
    out = {
        "predict": {k: v.numpy().tolist() for k, v in m.predict(x).items()},
        "serving_default": {k: v.numpy().tolist() for k, v in sig.items()},
        "count": m.count(tf.constant(4)).numpy().tolist(),
        "variables": sorted(v.name for v in m.variables) if hasattr(m, "variables") else [],
        "bias": float(m.bias.numpy()),
        "scale": m.inner.scale.numpy().tolist(),
    }
    keras = tf.saved_model.load(os.path.join(HERE, "ours_keras"))
    y = np.load(os.path.join(HERE, "ours_keras_y.npy"))
    xk = np.arange(8, dtype=np.float32).reshape(2, 4) / 7.0
    served = keras.signatures["serving_default"](hidden_input=tf.constant(xk))
    out["keras_serving_default"] = {k: v.numpy().tolist() for k, v in served.items()}
    out["keras_expected"] = y.tolist()
    out["keras_call"] = keras(tf.constant(xk)).numpy().tolist()
    # the functions saved for every layer, as tf_keras saves them, called by TF
    first = getattr(keras, "layer_with_weights-0")
    functional = tf.saved_model.load(os.path.join(HERE, "ours_keras_functional"))
    out["keras_layer_functions"] = {
        "root": sorted(k for k in dir(keras) if not k.startswith("_")),
        "layer": sorted(k for k in dir(first) if not k.startswith("_")),
        "keras_api": sorted(k for k in dir(keras.keras_api) if not k.startswith("_")),
        "layer_call": first(tf.constant(xk)).numpy().tolist(),
        "layer_keras_api_call": first.keras_api.call_and_return_conditional_losses(
            tf.constant(xk))[0].numpy().tolist(),
        "call_and_return_all_conditional_losses": keras.call_and_return_all_conditional_losses(
            tf.constant(xk), False)[0].numpy().tolist(),
        "functional_regularization_losses": [float(f()) for f in
                                             functional.regularization_losses],
    }
    # TF 1's loader (TF Serving's C++ one) restores the variables by running the restore
    # the SaverDef names, and its save writes a checkpoint TF reads
    with tf.compat.v1.Session(graph=tf.Graph()) as sess:
        meta = tf.compat.v1.saved_model.load(sess, ["serve"], path)
        sig = meta.signature_def["serving_default"]
        fetched = sess.run({k: v.name for k, v in sig.outputs.items()},
                           {sig.inputs["features"].name: x})
        out["v1_session_serving_default"] = {k: v.tolist() for k, v in fetched.items()}
        saver = meta.saver_def
        prefix = os.path.join(HERE, "resaved_by_tf", "ckpt")
        sess.run(saver.save_tensor_name, {saver.filename_tensor_name: prefix})
        out["v1_saver_wrote"] = {k: tf.train.load_variable(prefix, k).tolist()
                                 for k, _ in tf.train.list_variables(prefix)
                                 if k != "_CHECKPOINTABLE_OBJECT_GRAPH"}
        shutil.rmtree(os.path.dirname(prefix))
    with tf.compat.v1.Session(graph=tf.Graph()) as sess:
        meta = tf.compat.v1.saved_model.load(sess, ["serve"], os.path.join(HERE, "ours_keras"))
        sig = meta.signature_def["serving_default"]
        fetched = sess.run({k: v.name for k, v in sig.outputs.items()},
                           {sig.inputs["hidden_input"].name: xk})
        out["keras_v1_session_serving_default"] = {k: v.tolist() for k, v in fetched.items()}
    # the shapes TF gives the signatures' outputs (read from the functions' bodies)
    out["output_shapes"] = {
        "serving_default": [str(t.shape) for t in m.signatures["serving_default"].outputs],
        "keras_serving_default": [str(t.shape) for t in
                                  keras.signatures["serving_default"].outputs]}
    cli = os.path.join(os.path.dirname(sys.executable), "saved_model_cli")
    shown = subprocess.run([cli, "show", "--all", "--dir", path], capture_output=True,
                           text=True, check=True)
    out["saved_model_cli_ok"] = "signature_def['serving_default']" in shown.stdout
    with open(os.path.join(HERE, "tf_loaded_ours.json"), "w") as f:
        json.dump(out, f, indent=1)
    with open(os.path.join(HERE, "tf_cli_show_ours.txt"), "w") as f:
        f.write(shown.stdout)


def _record(key, out):
    """Writes `out` into tf_loaded_ours.json under `key`, keeping the other entries."""
    path = os.path.join(HERE, "tf_loaded_ours.json")
    with open(path) as f:
        recorded = json.load(f)
    recorded[key] = out
    with open(path, "w") as f:
        json.dump(recorded, f, indent=1)


def tables():
    """TF's lookups through our tables (``... load_ours_in_tf.py tables`` alone): written
    into tf_loaded_ours.json under ``tables``."""
    keys = ["a", "green", "x", "c", "zzz", "blue"]
    text = ["the bird sat", "zebra cat", ""]
    m = tf.saved_model.load(os.path.join(HERE, "ours_tables"))
    served = m.signatures["serving_default"](keys=tf.constant(keys))
    keras = tf.saved_model.load(os.path.join(HERE, "ours_keras_text"))
    out = {"keys": keys, "lookup": {k: v.numpy().tolist()
                                    for k, v in m.lookup(tf.constant(keys)).items()},
           "serving_default": {k: v.numpy().tolist() for k, v in served.items()},
           "text": text, "text_call": keras(tf.constant(text)).numpy().tolist(),
           "text_serving_default": {k: v.numpy().tolist() for k, v in keras.signatures[
               "serving_default"](tf.constant(text)).items()}}
    # TF 1's loader (TF Serving's): the init op fills the static tables (fed the asset's
    # path), the SaverDef's restore the mutable one
    with tf.compat.v1.Session(graph=tf.Graph()) as sess:
        meta = tf.compat.v1.saved_model.load(sess, ["serve"], os.path.join(HERE, "ours_tables"))
        sig = meta.signature_def["serving_default"]
        fetched = sess.run({k: v.name for k, v in sig.outputs.items()},
                           {sig.inputs["keys"].name: keys})
        out["v1_session_serving_default"] = {k: v.tolist() for k, v in fetched.items()}
    _record("tables", out)


def vector_tables():
    """TF's lookups through our tables of vectors (``... load_ours_in_tf.py vector_tables``
    alone): written into tf_loaded_ours.json under ``vector_tables``."""
    path = os.path.join(HERE, "ours_vector_tables")
    m = tf.saved_model.load(path)
    keys, ids = tf.constant(VECTOR_KEYS), tf.constant(VECTOR_IDS, tf.int64)
    out = {"lookup": {k: v.numpy().tolist() for k, v in m.lookup(keys, ids).items()},
           "serving_default": {k: v.numpy().tolist() for k, v in
                               m.signatures["serving_default"](keys=keys, ids=ids).items()}}
    # TF 1's loader: the SaverDef's restore fills the tables
    with tf.compat.v1.Session(graph=tf.Graph()) as sess:
        meta = tf.compat.v1.saved_model.load(sess, ["serve"], path)
        sig = meta.signature_def["serving_default"]
        fetched = sess.run({k: v.name for k, v in sig.outputs.items()},
                           {sig.inputs["keys"].name: VECTOR_KEYS,
                            sig.inputs["ids"].name: VECTOR_IDS})
        out["v1_session_serving_default"] = {k: v.tolist() for k, v in fetched.items()}
    _record("vector_tables", out)


def dense():
    """TF's lookups through our DenseHashTable (``... load_ours_in_tf.py dense`` alone):
    written into tf_loaded_ours.json under ``dense``."""
    m = tf.saved_model.load(os.path.join(HERE, "ours_dense"))
    keys = tf.constant(DENSE_KEYS)
    out = {"lookup": {k: v.numpy().tolist() for k, v in m.lookup(keys).items()},
           "serving_default": {k: v.numpy().tolist() for k, v in
                               m.signatures["serving_default"](keys=keys).items()}}
    # TF 1's loader (TF Serving's): the SaverDef's restore fills the table's buckets
    with tf.compat.v1.Session(graph=tf.Graph()) as sess:
        meta = tf.compat.v1.saved_model.load(sess, ["serve"], os.path.join(HERE, "ours_dense"))
        sig = meta.signature_def["serving_default"]
        fetched = sess.run({k: v.name for k, v in sig.outputs.items()},
                           {sig.inputs["keys"].name: DENSE_KEYS})
        out["v1_session_serving_default"] = {k: v.tolist() for k, v in fetched.items()}
    try:
        m.lookup(tf.constant([""]))
    except tf.errors.InvalidArgumentError as e:
        out["empty_key_error"] = str(e).split("\n")[-2].strip()
    _record("dense", out)


def keras_load_model():
    """tf_keras's load_model of the Keras models saved here by model.save (``...
    load_ours_in_tf.py keras`` alone, with TF_USE_LEGACY_KERAS=1): the classes and layers it
    rebuilt, its predictions, whether it compiled them and could train a step; written into
    tf_loaded_ours.json under ``keras_load_model``."""
    xk = np.arange(8, dtype=np.float32).reshape(2, 4) / 7.0
    xc = np.load(os.path.join(HERE, "ours_keras_cnn_x.npy"))
    out = {}
    for name, x, y in [("ours_keras", xk, np.ones((2, 2), np.float32)),
                       ("ours_keras_functional", xk, None),
                       ("ours_keras_nested", xk, None),
                       ("ours_keras_cnn", xc, np.array([0, 2])),
                       ("ours_keras_lstm", np.load(os.path.join(HERE, "ours_keras_lstm_x.npy")),
                        None)]:
        model = tf.keras.models.load_model(os.path.join(HERE, name))
        got = {"class": type(model).__name__,
               "layers": [[type(layer).__name__, layer.name] for layer in model.layers],
               "predict": model.predict(x, verbose=0).tolist(),
               "compiled": model.optimizer is not None}
        if got["compiled"]:
            got["optimizer"] = type(model.optimizer).__name__
            # uncompiled, its saved optimizer revived (tf_keras's RestoredOptimizer)
            restored = tf.keras.models.load_model(os.path.join(HERE, name),
                                                  compile=False).optimizer
            got["restored_optimizer"] = {
                "class": type(restored).__name__,
                "iterations": int(restored.iterations.numpy()),
                "variables": [v.name for v in restored.variables]}
            loss = model.fit(x, y, epochs=1, verbose=0).history["loss"][0]
            got["trained_a_step"] = bool(np.isfinite(loss))
        out[name] = got
    _record("keras_load_model", out)


def plain(value):
    """A ragged, sparse or dense result as JSON."""
    if isinstance(value, tf.RaggedTensor):  # (strings decoded)
        return {"ragged": json.loads(json.dumps(value.to_list(), default=bytes.decode)),
                "splits_dtype": value.row_splits.dtype.name}
    if isinstance(value, tf.SparseTensor):
        return {"indices": value.indices.numpy().tolist(), "values": value.values.numpy().tolist(),
                "dense_shape": value.dense_shape.numpy().tolist()}
    return value.numpy().tolist()


def ragged():
    """TF's calls of our ragged functions and signatures (``... load_ours_in_tf.py ragged``
    alone): written into tf_loaded_ours.json under ``ragged``."""
    m = tf.saved_model.load(os.path.join(HERE, "ours_ragged"))
    x = tf.ragged.constant(RAGGED_X)
    ids = tf.ragged.constant(RAGGED_IDS, tf.int64)
    w = tf.constant(RAGGED_W)
    summary = m.signatures["summary"]
    out = {"scaled": plain(m.scaled(x)),
           "summary": {k: plain(v) for k, v in m.summary(ids, w).items()},
           "serving_default": {k: plain(v) for k, v in m.signatures["serving_default"](
               x=x.values, x_1=x.row_splits).items()},
           "summary_signature": {k: plain(v) for k, v in summary(
               ids=ids.flat_values, ids_1=ids.row_splits, ids_2=ids.values.row_splits,
               w=w).items()},
           "summary_outputs": {k: repr(v) for k, v in summary.structured_outputs.items()},
           "layout": {k: plain(v) for k, v in m.layout(x).items()},
           "features": {k: plain(v) for k, v in m.features(
               tf.ragged.constant(RAGGED_FEATURE_IDS, tf.int64),
               tf.ragged.constant(RAGGED_FEATURE_WORDS)).items()}}
    _record("ragged", out)


def custom_gradients():
    """TF's values and gradients of our functions using tf.custom_gradient
    (``... load_ours_in_tf.py custom_gradients`` alone): written into tf_loaded_ours.json
    under ``custom_gradients``."""
    m = tf.saved_model.load(os.path.join(HERE, "ours_custom_gradients"))
    _record("custom_gradients", custom_gradient_results(tf, m))


def keras_subclassed():
    """tf_keras's load_model of our subclassed model (``... load_ours_in_tf.py subclassed``
    alone, with TF_USE_LEGACY_KERAS=1): its class, predictions (training or not), losses, a
    step of training, and tf.saved_model.load's call and signature; written into
    tf_loaded_ours.json under ``keras_subclassed``."""
    path = os.path.join(HERE, "ours_keras_subclassed")
    x = np.arange(8, dtype=np.float32).reshape(2, 4) / 7.0
    model = tf.keras.models.load_model(path)
    out = {"class": type(model).__name__,
           "predict": model.predict(x, verbose=0).tolist(),
           "call": model(x, training=False).numpy().tolist(),
           "losses": [float(v) for v in model.losses],
           "weights": sorted(v.name for v in model.weights),
           "compiled": model.optimizer is not None}
    tf.keras.utils.set_random_seed(0)
    trained = model(x, training=True).numpy()
    out["training_differs"] = bool(not np.allclose(trained, out["predict"]))
    if out["compiled"]:
        loss = model.fit(x, np.ones((2, 2), np.float32), epochs=1, verbose=0).history["loss"]
        out["trained_a_step"] = bool(np.isfinite(loss[0]))
    loaded = tf.saved_model.load(path)
    out["saved_model_call"] = loaded(tf.constant(x), training=False).numpy().tolist()
    out["saved_model_variables"] = [v.name for v in loaded.variables]
    out["saved_model_trainable_variables"] = [v.name for v in loaded.trainable_variables]
    out["saved_model_scale_variables"] = [v.name for v in loaded.scale.variables]
    served = loaded.signatures["serving_default"](tf.constant(x))
    out["serving_default"] = {k: v.numpy().tolist() for k, v in served.items()}
    _record("keras_subclassed", out)


OURS = ["ours_module", "ours_keras", "ours_keras_cnn", "ours_keras_functional", "ours_keras_lstm",
        "ours_keras_nested", "ours_keras_text", "ours_keras_subclassed", "ours_tables",
        "ours_ragged", "ours_dense"]


def fingerprints():
    """The fingerprint TF computes of each SavedModel written here (its C++ fingerprinting,
    as its save writes fingerprint.pb; ``... load_ours_in_tf.py fingerprints`` alone):
    written into tf_loaded_ours.json under ``fingerprints``."""
    from tensorflow.core.protobuf import fingerprint_pb2
    from tensorflow.python.saved_model.pywrap_saved_model import fingerprinting
    out = {}
    # (and of TF's own: tf_keras rewrites a Keras model's saved_model.pb after its
    # fingerprint.pb, whose checksum is then of the file as first written)
    for name in OURS + ["tf_module", "tf_keras", "tf_containers", "tf_keras_cnn",
                        "tf_keras_lstm", "tf_keras_embedding", "tf_keras_model_save"]:
        found = fingerprint_pb2.FingerprintDef.FromString(
            fingerprinting.CreateFingerprintDef(os.path.join(HERE, name)))
        out[name] = {field: getattr(found, field) for field in (
            "saved_model_checksum", "graph_def_program_hash", "signature_def_hash",
            "saved_object_graph_hash", "checkpoint_hash")}
        out[name]["producer"] = found.version.producer
    _record("fingerprints", out)


if __name__ == "__main__":
    if sys.argv[1:] == ["subclassed"]:
        keras_subclassed()
        sys.exit()
    if sys.argv[1:] == ["fingerprints"]:
        fingerprints()
        sys.exit()
    if sys.argv[1:] == ["tables"]:
        tables()
    elif sys.argv[1:] == ["dense"]:
        dense()
    elif sys.argv[1:] == ["vector_tables"]:
        vector_tables()
    elif sys.argv[1:] == ["keras"]:
        keras_load_model()
    elif sys.argv[1:] == ["ragged"]:
        ragged()
    elif sys.argv[1:] == ["custom_gradients"]:
        custom_gradients()
    else:
        main()
        tables()
        dense()
        vector_tables()
        keras_load_model()
        ragged()
        custom_gradients()
        keras_subclassed()
        fingerprints()

"""SavedModel signatures of functions with ragged inputs and results: one input per component,
named as TF names them (``x``, ``x_1``, ...); a ragged or sparse result is a composite
output (TF's ``TensorInfo.composite_tensor``), which TF reads back as one."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import eagerflow as tf
from tests.saved_model.programs import (RAGGED_FEATURE_IDS, RAGGED_FEATURE_WORDS, RAGGED_IDS,
                                        RAGGED_W, RAGGED_X, ragged_class)


class _Weighted(tf.Module):
    @tf.function(input_signature=[tf.RaggedTensorSpec([None, None], tf.int32),
                                  tf.TensorSpec([None], tf.float32, name="w")])
    def g(self, ids, w):
        return tf.reduce_sum(tf.cast(ids, tf.float32), axis=1) * w


class _Nested(tf.Module):
    @tf.function(input_signature=[tf.RaggedTensorSpec([None, None, None], tf.float32)])
    def f(self, x):
        return {"s": tf.reduce_sum(x, axis=[1, 2])}


def test_ragged_input_gets_a_default_serving_signature(tmp_path):
    tf.saved_model.save(_Weighted(), str(tmp_path))
    loaded = tf.saved_model.load(str(tmp_path))
    assert list(loaded.signatures) == ["serving_default"]
    serving = loaded.signatures["serving_default"]
    _, inputs = serving.structured_input_signature
    assert {k: (v.dtype, v.shape.as_list()) for k, v in inputs.items()} == {
        "ids": (tf.int32, [None]), "ids_1": (tf.int64, [None]), "w": (tf.float32, [None])}
    out = serving(ids=tf.constant([1, 2, 3]), ids_1=tf.constant([0, 2, 3], tf.int64),
                  w=tf.constant([1., 2.]))
    np.testing.assert_allclose(out["output_0"].numpy(), [3., 6.])
    np.testing.assert_allclose(loaded.g(tf.ragged.constant([[1, 2], [3]]),
                                        tf.constant([1., 2.])).numpy(), [3., 6.])


def test_ragged_rank_two_signature_inputs(tmp_path):
    module = _Nested()
    tf.saved_model.save(module, str(tmp_path), signatures=module.f)
    serving = tf.saved_model.load(str(tmp_path)).signatures["serving_default"]
    assert sorted(serving.structured_input_signature[1]) == ["x", "x_1", "x_2"]
    out = serving(x=tf.constant([1., 2., 3.]), x_1=tf.constant([0, 2, 3], tf.int64),
                  x_2=tf.constant([0, 1, 3, 3], tf.int64))
    np.testing.assert_allclose(out["s"].numpy(), [6., 0.])


# -- interop with TF 2.21 (tests/saved_model/data: make_tf_savedmodels.py ragged, make_ours.py
# ragged and load_ours_in_tf.py ragged recorded what TF wrote and computed) -------------------

DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "saved_model",
                    "data")


def _json(name):
    with open(os.path.join(DATA, name)) as f:
        return json.load(f)


def _plain(value):
    """A result as load_ours_in_tf.py recorded TF's."""
    if isinstance(value, tf.RaggedTensor):
        return {"ragged": value.to_list(), "splits_dtype": value.row_splits.dtype.name}
    if isinstance(value, tf.SparseTensor):
        return {"indices": value.indices.numpy().tolist(),
                "values": value.values.numpy().tolist(),
                "dense_shape": value.dense_shape.numpy().tolist()}
    return value.numpy().tolist()


def _inputs():
    return (tf.ragged.constant(RAGGED_X), tf.ragged.constant(RAGGED_IDS, tf.int64),
            tf.constant(RAGGED_W))


def test_tf_savedmodel_with_ragged_signatures_loads_and_gives_tfs_results():
    expected = _json("tf_outputs.json")["tf_ragged"]
    m = tf.saved_model.load(os.path.join(DATA, "tf_ragged"))
    x, ids, w = _inputs()
    assert m.scaled(x).to_list() == expected["scaled"]
    out = m.summary(ids, w)
    served = m.signatures["summary"](ids=ids.flat_values, ids_1=ids.row_splits,
                                     ids_2=ids.values.row_splits, w=w)
    for result in (out, served):
        assert {k: result[k].to_list() for k in ("ids", "row_sums")} == expected["summary"]
        assert result["total"].numpy().tolist() == expected["total"]
        sparse = result["sparse"]
        assert [sparse.indices.numpy().tolist(), sparse.values.numpy().tolist(),
                sparse.dense_shape.numpy().tolist()] == expected["sparse"]
    outputs = m.signatures["summary"].structured_outputs
    # TF 2.21: specs, as for a dense output
    assert outputs["ids"] == tf.RaggedTensorSpec([None, None, None], tf.int64, 2, tf.int64)
    assert outputs["sparse"] == tf.SparseTensorSpec([None, None], tf.int64)
    assert outputs["total"] == tf.TensorSpec([None], tf.float32, name="total")
    rows = m.signatures["serving_default"](x=x.values, x_1=x.row_splits)["output_0"]
    assert rows.to_list() == expected["scaled"]
    # (TF's graph of `layout` holds its ops RaggedTensorToSparse, RaggedRange and
    # RaggedGather, whose list of row splits its body refers to by name)
    layout = m.layout(x)
    assert {k: v.to_list() if isinstance(v, tf.RaggedTensor) else v.numpy().tolist()
            for k, v in layout.items()} == expected["layout"]


def test_tf_loaded_our_ragged_signatures_and_gave_our_results():
    """TF loaded data/ours_ragged: its functions and signatures gave these, and TF read the
    signatures' ragged and sparse outputs as composite tensors."""
    expected = _json("tf_loaded_ours.json")["ragged"]
    assert expected["summary_outputs"] == {
        "ids": "RaggedTensorSpec(TensorShape([None, None, None]), tf.int64, 2, tf.int64)",
        "row_sums": "RaggedTensorSpec(TensorShape([None, None]), tf.int64, 1, tf.int64)",
        "sparse": "SparseTensorSpec(TensorShape([None, None]), tf.int64)",
        "total": "TensorSpec(shape=(None,), dtype=tf.float32, name='total')"}
    m = tf.saved_model.load(os.path.join(DATA, "ours_ragged"))
    x, ids, w = _inputs()
    assert _plain(m.scaled(x)) == expected["scaled"]
    assert {k: _plain(v) for k, v in m.summary(ids, w).items()} == expected["summary"]
    assert {k: _plain(v) for k, v in m.signatures["serving_default"](
        x=x.values, x_1=x.row_splits).items()} == expected["serving_default"]
    assert {k: _plain(v) for k, v in m.signatures["summary"](
        ids=ids.flat_values, ids_1=ids.row_splits, ids_2=ids.values.row_splits,
        w=w).items()} == expected["summary_signature"]
    assert expected["summary"] == expected["summary_signature"]
    assert {k: _plain(v) for k, v in m.layout(x).items()} == expected["layout"]


def test_ragged_savedmodel_written_today_is_the_one_tf_loaded(tmp_path):
    # (written by a fresh interpreter, as make_ours.py wrote it: the library functions of
    # loops are numbered per process, and this one has loaded loops already)
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    code = ("import sys\nimport eagerflow as tf\n"
            "from tests.saved_model.programs import ragged_class\n"
            "m = ragged_class(tf)()\n"
            "tf.saved_model.save(m, sys.argv[1], signatures={'serving_default': m.scaled, "
            "'summary': m.summary})\n")
    path = os.pathsep.join([os.path.join(root, "src"), root])
    subprocess.run([sys.executable, "-c", code, str(tmp_path)], check=True, cwd=root,
                   env=dict(os.environ, PYTHONPATH=path))
    with open(os.path.join(DATA, "ours_ragged", "saved_model.pb"), "rb") as f:
        checked_in = f.read()
    with open(str(tmp_path / "saved_model.pb"), "rb") as f:
        assert f.read() == checked_in


class _Scaled(tf.Module):
    @tf.function(input_signature=[tf.RaggedTensorSpec([None, None], tf.float32)])
    def scaled(self, x):
        return x * 2.0 + 1.0


def test_a_ragged_result_gets_a_default_serving_signature(tmp_path):
    tf.saved_model.save(_Scaled(), str(tmp_path))  # (its one function with an input signature)
    serving = tf.saved_model.load(str(tmp_path)).signatures["serving_default"]
    assert serving.structured_outputs["output_0"] == tf.RaggedTensorSpec([None, None],
                                                                         tf.float32, 1)
    out = serving(x=tf.constant([1., 2., 3.]), x_1=tf.constant([0, 2, 2, 3], tf.int64))
    assert out["output_0"].to_list() == [[3., 5.], [], [7.]]


def test_a_signature_returning_a_nested_structure_raises_tfs_valueerror(tmp_path):
    class Nested(tf.Module):
        @tf.function(input_signature=[tf.RaggedTensorSpec([None, None], tf.float32)])
        def f(self, x):
            return {"pair": (x, x)}
    with pytest.raises(ValueError, match="Got a non-Tensor value .* for key 'pair' in the "
                                         "output of the function __inference_f_.* used to "
                                         "generate the SavedModel signature "
                                         "'serving_default'. Outputs for functions used as "
                                         "signatures must be a single Tensor"):
        tf.saved_model.save(Nested(), str(tmp_path), signatures=Nested().f)


def _features():
    return (tf.ragged.constant(RAGGED_FEATURE_IDS, tf.int64),
            tf.ragged.constant(RAGGED_FEATURE_WORDS))


def _text(value):
    """Strings of a result decoded, as the recording scripts wrote them."""
    return json.loads(json.dumps(value, default=bytes.decode))


def test_tf_savedmodel_of_crosses_bincounts_and_map_fn_gives_tfs_results():
    """TF's graph of `features` holds RaggedCross, RaggedBincount, RaggedCountSparseOutput
    and map_fn's while loop over rows encoded by RaggedTensorToVariant, its results decoded by
    RaggedTensorFromVariant."""
    expected = _json("tf_outputs.json")["tf_ragged"]["features"]
    m = tf.saved_model.load(os.path.join(DATA, "tf_ragged"))
    out = m.features(*_features())
    got = {}
    for k, v in out.items():
        if isinstance(v, tf.SparseTensor):
            got[k] = [v.indices.numpy().tolist(), v.values.numpy().tolist(),
                      v.dense_shape.numpy().tolist()]
        else:
            got[k] = _text(v.to_list() if isinstance(v, tf.RaggedTensor) else v.numpy().tolist())
    assert got == expected
    assert out["counts"].dtype == tf.int32 and out["present"].dtype == tf.float32


def test_tf_loaded_our_crosses_bincounts_and_map_fn_and_gave_our_results():
    expected = _json("tf_loaded_ours.json")["ragged"]["features"]
    m = tf.saved_model.load(os.path.join(DATA, "ours_ragged"))
    assert {k: _text(_plain(v)) for k, v in m.features(*_features()).items()} == expected
    # (eagerly too; a trace here would number the functions of the SavedModel written below)
    module = ragged_class(tf)()
    assert {k: _text(_plain(v)) for k, v in type(module).features.python_function(
        module, *_features()).items()} == expected

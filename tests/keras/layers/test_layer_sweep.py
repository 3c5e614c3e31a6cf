"""tf.keras.layers against TF 2.21's recorded outcomes of the same cases
(data/layer_sweep_tf.json, from data/make_layer_sweep_data.py): configs, weights, outputs
(training and not), gradients, output shapes, masks and dtypes, in eager calls, functional
models with unknown dims and functions; float outputs compared by their summaries."""
import json
import os

import pytest

import eagerflow as tf
from tests.recorded import assert_same
from tests.keras.layers.layer_sweep_cases import cases, jsonable

with open(os.path.join(os.path.dirname(__file__), "data", "layer_sweep_tf.json")) as _f:
    RECORDED = json.load(_f)
CASES = cases(tf)


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_tf(name):
    tf.keras.backend.clear_session()  # (layer names count from 0, as when recorded)
    try:
        ours = jsonable(CASES[name]())
    except Exception as e:  # noqa: BLE001 - an error is an outcome too, recorded as TF's
        ours = {"error": type(e).__name__, "message": str(e)}
    ours = json.loads(json.dumps(ours, ensure_ascii=False, default=str))
    # (float16 computations round apart within their precision, gradients the more)
    loose = "mixed" in name or "float16" in name
    assert_same(ours, RECORDED[name], rel=3e-2 if loose else 2e-4, abs=2e-2 if loose else 2e-5)


def test_every_case_is_recorded():
    assert sorted(CASES) == sorted(RECORDED)

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
from tests.keras.layers.tf_outcomes import as_recorded

with open(os.path.join(os.path.dirname(__file__), "data", "layer_sweep_tf.json")) as _f:
    RECORDED = json.load(_f)
CASES = cases(tf)


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_tf(name):
    ours = as_recorded(tf, CASES[name], jsonable)
    # (float16 computations round apart within their precision, gradients the more)
    loose = "mixed" in name or "float16" in name
    assert_same(ours, RECORDED[name], rel=3e-2 if loose else 2e-4, abs=2e-2 if loose else 2e-5)


def test_every_case_is_recorded():
    assert sorted(CASES) == sorted(RECORDED)

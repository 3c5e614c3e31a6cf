"""TF's ragged-tensor guide's examples print what TF prints (recorded by record_tf.py)."""
import json

import pytest

import eagerflow as tf
from tests.ragged import record_tf
from tests.ragged.guide_examples import EXAMPLES

with open(record_tf.PATH) as _f:
    EXPECTED = json.load(_f)


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_guide_example_prints_tf_output(name):
    assert record_tf.run_one(tf, name) == EXPECTED[name]

"""Specs of the runtime-check ops (debugging_ops.py)."""
import numpy as np

import eagerflow as tf
from eagerflow import debugging as dbg
from tests.ops.spec import OpSpec, rand


def _asserted(condition, data):
    """``Assert(condition, [data])``, then "ok" (a failing one raises: see test_debugging_ops)."""
    dbg.Assert(condition, [data])
    return tf.constant("ok")


SPECS = [
    OpSpec("CheckNumerics", lambda x: dbg.check_numerics(x, "finite"), [rand(2, 3)],
           lambda x: x),
    OpSpec("CheckNumerics", lambda x: dbg.check_numerics(x, "finite"),
           [rand(4, dtype=np.float64)], lambda x: x, name="CheckNumerics-float64"),
    # (the check `enable_check_numerics` adds to each op; its raw op is the one way to call it)
    OpSpec("CheckNumericsV2", lambda x: tf.raw_ops.CheckNumericsV2(tensor=x, message="finite"),
           [rand(2, 3)], lambda x: x),
    OpSpec("Assert", _asserted, [np.array(True), np.array([1, 2])],
           lambda c, d: np.array(b"ok", object), grad="an assertion has no gradient"),
]

"""Specs of the runtime-check ops (debugging_ops.py)."""
import numpy as np

from eagerflow._src.ops import debugging_ops as dbg
from tests.ops.spec import OpSpec, rand

SPECS = [
    OpSpec("CheckNumerics", lambda x: dbg.check_numerics(x, "finite"), [rand(2, 3)],
           lambda x: x),
    OpSpec("CheckNumerics", lambda x: dbg.check_numerics(x, "finite"),
           [rand(4, dtype=np.float64)], lambda x: x, name="CheckNumerics-float64"),
]

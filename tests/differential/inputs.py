"""Deterministic input arrays shared by the recording (TF) and the check (eagerflow).

Every case names its inputs by key so that the case table stays plain data
and both libraries see bit-identical arrays.  Only NumPy and ml_dtypes are
used here: this module is imported by the TF recording script too.
"""
import ml_dtypes
import numpy as np

F32 = np.finfo(np.float32)
F64 = np.finfo(np.float64)
BF16 = ml_dtypes.bfloat16

_x = [[-1.5, -0.5, 0.25], [0.5, 1.0, 2.0]]          # generic values, both signs
_pos = [[0.5, 1.0, 2.0], [3.0, 4.0, 10.0]]          # domain of log, sqrt, lgamma...
_unit = [[-0.9, -0.5, 0.0], [0.25, 0.5, 0.75]]      # domain of asin, atanh...
_y = [[2.0, -1.0, 0.5], [-3.0, 0.75, 4.0]]          # second operand, no zeros

INPUTS = {
    # float32
    "f32": np.array(_x, np.float32),
    "f32pos": np.array(_pos, np.float32),
    "f32unit": np.array(_unit, np.float32),
    "f32b": np.array(_y, np.float32),
    "f32row": np.array([2.0, -1.0, 0.5], np.float32),        # broadcasts against [2, 3]
    "f32col": np.array([[2.0], [-0.5]], np.float32),
    "f32two": np.array([1.0, 2.0], np.float32),              # does not broadcast against [2, 3]
    "f32s": np.array(1.5, np.float32),
    "f32v": np.array([-1.5, 0.5, 2.0, 3.0], np.float32),
    "f32e0": np.zeros([0], np.float32),
    "f32e03": np.zeros([0, 3], np.float32),
    "f32e3": np.zeros([3, 0], np.float32),
    "f32nf": np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0], np.float32),
    "f32nfb": np.array([1.0, np.inf, np.inf, -np.inf, np.nan, 0.0], np.float32),
    # extremes: the largest finite and smallest normal magnitudes (no denormals: see f32den)
    "f32ex": np.array([F32.max, -F32.max, F32.tiny, -F32.tiny, 1e30, -1e-30], np.float32),
    "f32exb": np.array([F32.max, F32.max, F32.tiny, 1e-30, -1e30, 3.0], np.float32),
    # denormals, kept apart because TF's CPU kernels flush them to zero (known.TF_WRONG)
    "f32den": np.array([1e-45, -1e-45, 1e-40, 0.0, 1.0, F32.tiny], np.float32),
    "f32denb": np.array([1.0, 1e-45, 2.0, 1e-40, 1e-45, 1e-40], np.float32),
    "f32r3": np.arange(24, dtype=np.float32).reshape(2, 3, 4) / 8.0 - 1.0,
    "f32r4": (np.arange(2 * 4 * 4 * 3, dtype=np.float32).reshape(2, 4, 4, 3) % 7) / 4.0 - 0.5,
    # float64 / float16 / bfloat16
    "f64": np.array(_x, np.float64),
    "f64pos": np.array(_pos, np.float64),
    "f64unit": np.array(_unit, np.float64),
    "f64b": np.array(_y, np.float64),
    "f64nf": np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0], np.float64),
    "f64ex": np.array([F64.max, -F64.max, F64.tiny, -F64.tiny, 1e300, -1e-300], np.float64),
    "f64den": np.array([5e-324, -5e-324, 1e-310, 0.0, 1.0, F64.tiny], np.float64),
    "f16": np.array(_x, np.float16),
    "f16pos": np.array(_pos, np.float16),
    "bf16": np.array(_x, BF16),
    "bf16pos": np.array(_pos, BF16),
    # square matrices for linalg: well conditioned, symmetric positive definite, singular
    "m22": np.array([[2.0, 1.0], [0.5, 3.0]], np.float32),
    "m33": np.array([[4.0, 1.0, -1.0], [2.0, 5.0, 0.5], [-1.0, 0.5, 3.0]], np.float32),
    "spd33": np.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.25], [0.5, 0.25, 2.0]], np.float32),
    "spd33d": np.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.25], [0.5, 0.25, 2.0]], np.float64),
    "sing33": np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 0.0, 1.0]], np.float32),
    "m33nf": np.array([[np.nan, 1.0, 0.0], [1.0, np.inf, 0.0], [0.0, 0.0, 1.0]], np.float32),
    "m32": np.array([[1.0, 2.0], [3.0, 4.0], [5.0, -1.0]], np.float32),
    "m23": np.array([[1.0, 2.0, 3.0], [4.0, 5.0, -1.0]], np.float32),
    "bm233": np.stack([np.eye(3) * 2 + 0.5, np.eye(3) * 3 - 0.25]).astype(np.float32),
    "m00": np.zeros([0, 0], np.float32),
    "m033": np.zeros([0, 3, 3], np.float32),
    "v3": np.array([1.0, -2.0, 0.5], np.float32),
    "v3b": np.array([0.5, 1.0, 2.0], np.float32),
    "m31": np.array([[1.0], [-2.0], [0.5]], np.float32),
    # integers
    "i32": np.array([[-3, -1, 0], [1, 2, 5]], np.int32),
    "i32b": np.array([[2, -2, 3], [-1, 4, 2]], np.int32),
    "i32z": np.array([[2, 0, 3], [-1, 0, 2]], np.int32),     # division by zero
    "i32ex": np.array([2**31 - 1, -2**31, 0, 1, -1, 7], np.int32),
    "i32exb": np.array([1, -1, 1, -1, 3, -2], np.int32),
    "i32v": np.array([3, 1, 2, 0], np.int32),
    "i32e0": np.zeros([0], np.int32),
    "i32s": np.array(2, np.int32),
    "i64": np.array([[-3, -1, 0], [1, 2, 5]], np.int64),
    "i64ex": np.array([2**63 - 1, -2**63, 0, 1, -1, 7], np.int64),
    "u8": np.array([[0, 1, 2], [127, 128, 255]], np.uint8),
    "u8b": np.array([[1, 3, 2], [1, 7, 4]], np.uint8),
    "i8": np.array([[-128, -1, 0], [1, 2, 127]], np.int8),
    "seg": np.array([0, 0, 1, 2], np.int32),
    "segbad": np.array([0, 2, 1, 1], np.int32),               # not sorted
    "idx": np.array([2, 0, 1], np.int32),
    "idxbad": np.array([0, 5], np.int32),                      # out of range
    "idxneg": np.array([-1, 0], np.int32),
    "idx2": np.array([[1, 0], [0, 2]], np.int32),
    "perm": np.array([2, 0, 3, 1], np.int32),
    # other dtypes
    "bool": np.array([[True, False, True], [False, False, True]]),
    "boolb": np.array([[True, True, False], [False, True, True]]),
    "boolv": np.array([True, False, True, True]),
    "bools": np.array(True),
    "c64": np.array([[1 + 2j, -0.5j, 3.0], [0.0, -1 - 1j, 2 + 0.5j]], np.complex64),
    "c128": np.array([1 + 2j, -0.5j, 3.0, -1 - 1j], np.complex128),
    "str": np.array([b"Hello", b"tf", b"", b"  x Y  "], dtype=object),
    "strnum": np.array([b"1.5", b"-2", b"abc"], dtype=object),
    "strs": np.array(b"a,b,,c", dtype=object),
}


class Py:
    """An argument passed as a raw Python value (list, scalar, None), never converted."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value

    def __repr__(self):
        return f"Py({self.value!r})"


FLOAT_KINDS = "fc"


def is_float(key):
    """Whether the input named `key` is a real floating array (differentiable source)."""
    a = INPUTS[key]
    return a.dtype.kind == "f" or a.dtype == BF16

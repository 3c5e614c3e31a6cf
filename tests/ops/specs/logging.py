"""Specs of the printing ops (logging_ops.py): formatting tensors as text and writing it."""
import os
import tempfile
import time

import numpy as np

import eagerflow as tf
from tests.ops.spec import OpSpec

_NO_GRAD = "text output"


def _printed(*inputs, **kwargs):
    """What `print` writes for `inputs`, read back from a file, as a string tensor."""
    fd, path = tempfile.mkstemp()
    os.close(fd)
    try:
        tf.print(*inputs, output_stream=f"file://{path}", **kwargs)
        with open(path, encoding="utf-8") as f:
            return tf.constant(f.read())
    finally:
        os.remove(path)


def _now(outputs, args):
    """A clock reading: float64 seconds since the epoch, near the host's time."""
    (value,) = outputs if isinstance(outputs, (list, tuple)) else (outputs,)
    assert value.dtype == np.float64 and value.shape == ()
    assert abs(float(value) - time.time()) < 600


def _text(value):
    return np.array(value.encode(), object)


SPECS = [
    OpSpec("StringFormat", lambda x: tf.strings.format("x={}", x), [np.arange(10, dtype=np.int32)],
           lambda x: _text("x=[0 1 2 ... 7 8 9]"), grad=_NO_GRAD),
    OpSpec("StringFormat", lambda x, y: tf.strings.format("{}; {}", [x, y], summarize=1),
           [np.array([[1.5, 2.0], [3.0, 1 / 3]], np.float32), np.array([True, False])],
           lambda x, y: _text("[[1.5 2]\n [3 0.333333343]]; [1 0]"),
           name="StringFormat-floats-bools", grad=_NO_GRAD),
    OpSpec("PrintV2", lambda x: _printed("v:", x, end="!"), [np.array([b"a", b""], object)],
           lambda x: _text('v: ["a" ""]!'), grad=_NO_GRAD),
    OpSpec("PrintV2", _printed, [np.array(b"raw", object)], lambda x: _text("raw\n"),
           name="PrintV2-scalar-string", grad=_NO_GRAD),
    OpSpec("Print", lambda x: tf.compat.v1.Print(x, [x, x[:1]], "x: "),
           [np.array([[1.5, 2.0], [3.0, -1.0]], np.float32)], lambda x: x),
    OpSpec("Timestamp", tf.timestamp, [], check=_now, grad="a clock reading"),
]

"""Specs of the TF 1 reader ops (compat/readers.py), run eagerly on a text-line reader's
value and an eager queue of file names."""
import os
import tempfile

import numpy as np

import eagerflow as tf
from tests.internals import compat_readers, dispatch, registry
from tests.ops.spec import OpSpec

_NO_GRAD = "reader op"


def _on_file(x, *ops):
    """The outputs of reader ops `ops` (names, with extra inputs), in order, on a file
    holding the lines of `x` (strings)."""
    fd, path = tempfile.mkstemp(suffix=".txt")
    os.close(fd)
    with open(path, "wb") as f:
        f.write(b"\n".join(x.numpy().tolist()) + b"\n")
    try:
        reader = compat_readers.text_line_handle()
        files = tf.queue.FIFOQueue(2, tf.string)
        files.enqueue(path)
        files.close()
        outputs = []
        for name, *extra in ops:
            op = registry.get(name)
            takes_queue = name.startswith("ReaderRead")
            out = dispatch(op, (reader, files.queue_ref, *extra) if takes_queue else (reader,))
            outputs.extend(out if isinstance(out, (list, tuple)) else [out])
        return outputs
    finally:
        os.remove(path)


def _bytes(*words):
    out = np.empty(len(words), object)
    out[:] = [w.encode() for w in words]
    return out


_WORDS = _bytes("alpha", "beta")
_COUNTS = [("ReaderReadV2",), ("ReaderNumRecordsProducedV2",),
           ("ReaderNumWorkUnitsCompletedV2",)]

SPECS = [
    OpSpec("ReaderReadV2", lambda x: _on_file(x, ("ReaderReadV2",))[1], [_WORDS],
           lambda x: x[:1].reshape(()), grad=_NO_GRAD),
    OpSpec("ReaderReadUpToV2",
           lambda x: _on_file(x, ("ReaderReadUpToV2", tf.constant(5, tf.int64)))[1],
           [_WORDS], lambda x: x, grad=_NO_GRAD),
    OpSpec("ReaderNumRecordsProducedV2", lambda x: _on_file(x, *_COUNTS)[2:], [_WORDS],
           lambda x: [np.int64(1), np.int64(0)], grad=_NO_GRAD),
    OpSpec("ReaderNumWorkUnitsCompletedV2", lambda x: _on_file(x, *_COUNTS)[2:], [_WORDS],
           lambda x: [np.int64(1), np.int64(0)], grad=_NO_GRAD,
           name="ReaderNumWorkUnitsCompletedV2"),
    OpSpec("ReaderResetV2",
           lambda x: _on_file(x, ("ReaderReadV2",), ("ReaderResetV2",),
                              ("ReaderNumRecordsProducedV2",))[2:], [_WORDS],
           lambda x: [np.int64(0)], grad=_NO_GRAD),
]

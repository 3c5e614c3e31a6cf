"""TF 1's readers (``tf.compat.v1.TextLineReader``, `TFRecordReader`, `WholeFileReader`,
`FixedLengthRecordReader`, `IdentityReader`): each `read` gives the next record (key and
value) of the file it is reading, taking the next file name from a queue (a
`string_input_producer`) when its file is done. Each session reads on its own.

>>> import os, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), "lines.txt")
>>> with open(path, "w") as f:
...     _ = f.write("header\\nfirst\\nsecond\\n")
>>> g = tf.Graph()
>>> with g.as_default():
...     files = tf.compat.v1.FIFOQueue(1, tf.string)
...     put = files.enqueue(path)
...     reader = tf.compat.v1.TextLineReader(skip_header_lines=1)
...     key, value = reader.read(files)
>>> with tf.compat.v1.Session(graph=g) as sess:
...     sess.run(put)
...     sess.run(value), sess.run(key).decode().endswith("lines.txt:3")
(b'first', True)
"""
import collections
import gzip
import itertools
import threading
import zlib

import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.compat import graph_mode
from eagerflow._src.core import context, errors
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.core.node_forms import NodeForm, tf_args, tf_nodes
from eagerflow._src.core.registry import register
from eagerflow._src.core.tensor import EagerTensor
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.io import tf_record
from eagerflow._src.ops import data_flow_ops

_NO_GRAD = "reader op"
_Read = collections.namedtuple("ReaderReadV2", ["key", "value"])
_ReadUpTo = collections.namedtuple("ReaderReadUpToV2", ["keys", "values"])
_making = threading.Lock()


class _ReaderState:
    def __init__(self):
        self.lock = threading.Lock()
        self.work = None        # the file being read
        self.records = None     # its (key, value) pairs still to read
        self.produced = 0
        self.completed = 0


class ReaderValue:
    """The value of a reader's tensor: how it turns a file into records, and where its
    position is (that of the session running its graph)."""

    __slots__ = ("records", "runs", "_own", "__weakref__")
    shape = ()
    ndim = 0
    dtype = _d.resource

    def __init__(self, records, runs):
        self.records, self.runs = records, runs  # records(file name) -> (key, value) pairs
        self._own = None

    def state(self):
        """Where this run's reading is: the running session's (made at its first use), or
        the reader's own (one run eagerly by the op specs)."""
        store = None if self.runs is None else getattr(self.runs(), "store", None)
        with _making:
            if store is None:
                if self._own is None:
                    self._own = _ReaderState()
                return self._own
            found = store.get(self)
            if found is None:
                found = store[self] = _ReaderState()
            return found


def text_line_handle(skip_header_lines=0):
    """An eager tensor holding a text-line reader's value that reads on its own (not per
    session): what the op specs run the reader ops on, eagerly."""
    return EagerTensor._wrap(ReaderValue(
        lambda filename: _text_lines(filename, skip_header_lines), None))


def _next_record(reader, queue, state):
    """The next (key, value) of `reader`, going on to the queue's next file name when
    the current file is done (blocking on the queue; its OutOfRangeError once drained)."""
    while True:
        if state.records is None:
            work, = data_flow_ops._dequeue(queue, None, False)
            work = work.item() if isinstance(work, np.ndarray) else work
            state.work = work if isinstance(work, bytes) else str(work).encode()
            state.records = iter(reader.records(state.work))
        found = next(state.records, None)
        if found is not None:
            state.produced += 1
            return found
        state.records = None
        state.completed += 1


def _scalar(value):
    out = np.empty((), object)
    out[()] = value
    return out


def _read(xp, reader, queue):
    state = reader.state()
    with state.lock:
        key, value = _next_record(reader, queue, state)
    return [_scalar(key), _scalar(value)]


def _read_up_to(xp, reader, queue, num_records):
    state = reader.state()
    keys, values = [], []
    with state.lock:
        while len(keys) < int(num_records):
            if state.records is None and keys:
                break  # (what the current file gave, as TF's readers return)
            key, value = _next_record(reader, queue, state)
            keys.append(key)
            values.append(value)
            if state.records is not None and _at_end(state):
                break
    return [np.array(keys, object), np.array(values, object)]


def _at_end(state):
    """Whether the current file has no record left (it is then marked done)."""
    following = next(state.records, None)
    if following is None:
        state.records = None
        state.completed += 1
        return True
    state.records = itertools.chain([following], state.records)
    return False


def _reset(xp, reader):
    state = reader.state()
    with state.lock:
        state.work = state.records = None
        state.produced = state.completed = 0
    return ()


def _counter(field):
    def count(xp, reader):
        state = reader.state()
        with state.lock:
            return np.int64(getattr(state, field))
    return count


def _pair_rule(*_, **__):
    return [(TensorShape([]), _d.string), (TensorShape([]), _d.string)]


def _pairs_rule(*_, **__):
    return [(TensorShape([None]), _d.string), (TensorShape([None]), _d.string)]


_READ = register("ReaderReadV2", _read, _pair_rule, multi=True, tied=(), stateful=True,
                 not_differentiable=_NO_GRAD)
_READ_UP_TO = register("ReaderReadUpToV2", _read_up_to, _pairs_rule, multi=True, tied=(),
                       stateful=True, not_differentiable=_NO_GRAD)
_RESET = register("ReaderResetV2", _reset, lambda *_, **__: [], multi=True, tied=(),
                  stateful=True, not_differentiable=_NO_GRAD)
_PRODUCED = register("ReaderNumRecordsProducedV2", _counter("produced"),
                     lambda *_: (TensorShape([]), _d.int64), tied=(), stateful=True,
                     not_differentiable=_NO_GRAD)
_COMPLETED = register("ReaderNumWorkUnitsCompletedV2", _counter("completed"),
                      lambda *_: (TensorShape([]), _d.int64), tied=(), stateful=True,
                      not_differentiable=_NO_GRAD)
tf_nodes[_READ] = NodeForm(types={}, outputs=("key", "value"))
tf_nodes[_READ_UP_TO] = NodeForm(types={}, outputs=("keys", "values"))
tf_nodes[_RESET] = NodeForm(types={})
tf_nodes[_PRODUCED] = NodeForm(types={}, outputs=("records_produced",))
tf_nodes[_COMPLETED] = NodeForm(types={}, outputs=("units_completed",))
# (no raw ops: the reader and queue are Python objects where TF takes resource tensors)
tf_args.assign(None, _READ, _READ_UP_TO, _RESET, _PRODUCED, _COMPLETED)


# -- the readers ------------------------------------------------------------------------------

def _text_lines(filename, skip):
    """The (key, line) records of text file `filename`, after its first `skip` lines."""
    with _open(filename) as f:
        for number, line in enumerate(f, 1):
            if number <= skip:
                continue
            if line.endswith(b"\n"):
                line = line[:-1]
            if line.endswith(b"\r"):
                line = line[:-1]
            yield filename + b":" + str(number).encode(), line


def _open(filename):
    try:
        return open(filename.decode(), "rb")  # noqa: SIM115 (closed by its reader)
    except FileNotFoundError:
        raise errors.NotFoundError(None, None, f"{filename.decode()}; No such file or "
                                               f"directory") from None


@export("compat.v1.ReaderBase")
class ReaderBase:
    """What every reader has: `read` (one record), `read_up_to`, the counts of records
    read and files done, and `reset`."""

    _op_name = "ReaderBase"

    def __init__(self, name=None):
        if context.executing_eagerly():
            raise RuntimeError("Readers are not supported when eager execution is enabled. "
                               "Instead, please use tf.data to get data into your model.")
        graph = context.get().graph
        value = ReaderValue(self._records, graph_mode.Graph.session_runs)
        self._handle = EagerTensor._wrap(value)
        self._reader_ref = graph.constant(value, name=graph.unique_name(name or self._op_name))
        graph._captures[id(self._handle)] = (self._handle, self._reader_ref)

    reader_ref = property(lambda self: self._reader_ref)
    supports_serialize = False

    def _records(self, filename):
        raise NotImplementedError

    @staticmethod
    def _queue(queue):
        if isinstance(queue, data_flow_ops.QueueBase):
            return queue._handle
        return convert_to_tensor(queue)

    def read(self, queue, name=None):
        """``(key, value)``: the next record, taking the next file name from `queue` (a
        queue of strings) when needed; OutOfRangeError once `queue` is closed and drained."""
        return _Read(*dispatch(_READ, (self._handle, self._queue(queue)), name=name))

    def read_up_to(self, queue, num_records, name=None):
        """``(keys, values)``: up to `num_records` records of the file being read."""
        n = convert_to_tensor(num_records, _d.int64)
        return _ReadUpTo(*dispatch(_READ_UP_TO, (self._handle, self._queue(queue), n),
                                   name=name))

    def num_records_produced(self, name=None):
        """How many records this reader has read (int64 scalar)."""
        return dispatch(_PRODUCED, (self._handle,), name=name)

    def num_work_units_completed(self, name=None):
        """How many files this reader has read to their end (int64 scalar)."""
        return dispatch(_COMPLETED, (self._handle,), name=name)

    def reset(self, name=None):
        """Forgets the file being read and the counts."""
        dispatch(_RESET, (self._handle,), name=name)
        return context.get().graph.get_operations()[-1]

    def serialize_state(self, name=None):
        raise errors.UnimplementedError(None, None, f"{type(self).__name__} does not support "
                                                    f"serializing its state")

    def restore_state(self, state, name=None):
        raise errors.UnimplementedError(None, None, f"{type(self).__name__} does not support "
                                                    f"restoring its state")


@export("compat.v1.TextLineReader")
class TextLineReader(ReaderBase):
    """Reads the lines of text files (without their line ends), keyed
    ``"<file>:<line number>"``; the first `skip_header_lines` lines of each are skipped."""

    _op_name = "TextLineReaderV2"

    def __init__(self, skip_header_lines=None, name=None):
        self._skip = int(skip_header_lines or 0)
        super().__init__(name)

    def _records(self, filename):
        return _text_lines(filename, self._skip)


@export("compat.v1.WholeFileReader")
class WholeFileReader(ReaderBase):
    """Reads each file as one record: its name and its contents."""

    _op_name = "WholeFileReaderV2"

    def __init__(self, name=None):
        super().__init__(name)

    def _records(self, filename):
        with _open(filename) as f:
            yield filename, f.read()


@export("compat.v1.IdentityReader")
class IdentityReader(ReaderBase):
    """Reads each name taken from the queue as one record, both key and value."""

    _op_name = "IdentityReaderV2"
    supports_serialize = True

    def __init__(self, name=None):
        super().__init__(name)

    def _records(self, filename):
        yield filename, filename


@export("compat.v1.TFRecordReader")
class TFRecordReader(ReaderBase):
    """Reads the records of TFRecord files, keyed ``"<file>:<offset>"`` (compressed as
    `options`, a `TFRecordOptions` or compression name, says)."""

    _op_name = "TFRecordReaderV2"

    def __init__(self, name=None, options=None):
        self._compression = tf_record.TFRecordOptions.get_compression_type_string(options)
        super().__init__(name)

    def _records(self, filename):
        reader = tf_record.RecordReader(filename.decode(), self._compression)
        try:
            while True:
                offset = reader.offset
                record = next(reader, None)
                if record is None:
                    return
                yield filename + b":" + str(offset).encode(), record
        finally:
            reader.close()


@export("compat.v1.FixedLengthRecordReader")
class FixedLengthRecordReader(ReaderBase):
    """Reads records of `record_bytes` bytes, after a header of `header_bytes` and before
    a footer of `footer_bytes` (each `hop_bytes` apart when given), keyed
    ``"<file>:<record number>"``; `encoding`: "ZLIB" or "GZIP" for compressed files."""

    _op_name = "FixedLengthRecordReaderV2"

    def __init__(self, record_bytes, header_bytes=None, footer_bytes=None, hop_bytes=None,
                 name=None, encoding=None):
        self._record, self._header = int(record_bytes), int(header_bytes or 0)
        self._footer, self._hop = int(footer_bytes or 0), int(hop_bytes or 0)
        self._encoding = encoding or ""
        super().__init__(name)

    def _records(self, filename):
        with _open(filename) as f:
            data = f.read()
        if self._encoding == "GZIP":
            data = gzip.decompress(data)
        elif self._encoding == "ZLIB":
            data = zlib.decompress(data)
        end = len(data) - self._footer
        step = self._hop or self._record
        start, number = self._header, 0
        while start + self._record <= end:
            yield (filename + b":" + str(number).encode(),
                   data[start:start + self._record])
            start += step
            number += 1

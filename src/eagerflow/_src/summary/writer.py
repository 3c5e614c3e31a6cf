"""Summary writers and the summary state (default writer, step, recording condition).

A file writer appends TF's ``Event`` protos to a TFRecord file named as TF 2 names
it, ``events.out.tfevents.<seconds>.<host>.<pid>.<id><suffix>``: first the
``file_version`` event, then one event per summary. Events wait in memory and go
to the file when `max_queue` of them wait, every `flush_millis` (a daemon thread,
and, as TF's writer, at a summary written when the last flush is that old), on
`flush`, `close`, leaving `as_default`, and at interpreter exit, so that writing a
summary mostly costs no system call.

>>> import tempfile
>>> writer = tf.summary.create_file_writer(tempfile.mkdtemp())
>>> with writer.as_default(step=1):
...     tf.summary.scalar("loss", 0.5)
<tf.Tensor: shape=(), dtype=bool, numpy=True>
>>> tf.summary.scalar("loss", 0.5, step=2)  # no default writer: nothing written
<tf.Tensor: shape=(), dtype=bool, numpy=False>
"""
import atexit
import contextlib
import itertools
import os
import socket
import struct
import threading
import time
import weakref

import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.backend.wire import varint as _varint
from eagerflow._src.core import context
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import errors
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.core.node_forms import NodeForm, tf_nodes
from eagerflow._src.core.node_forms import tf_args
from eagerflow._src.core.registry import register
from eagerflow._src.io import gfile
from eagerflow._src.io.crc32c import _python_crc, _zeros_tables, mask
from eagerflow._src.io.tf_record import _length_crc, frame
from eagerflow._src.ops import file_system

_IDS = itertools.count()
# id -> file writer, as the summary op's `writer` attr names it (weakly: a writer no one
# holds is closed, and the summaries of functions traced under it go nowhere)
_WRITERS = weakref.WeakValueDictionary()
_OPEN = weakref.WeakSet()  # writers flushed and closed at exit


class _State(threading.local):
    """The summary state of a thread (TF keeps it per thread, too)."""

    def __init__(self):
        self.writer = None
        self.step = None
        self.is_recording = True
        self.trace = None  # the graphs collected between trace_on and trace_export
        self.trace_graph = self.trace_profiler = False  # (what trace_on asked for)


state = _State()


_WALL_TIME = struct.Struct("<Bd")


class _Segment:
    """Constant bytes of records, with what a CRC needs to pass over them at once: the
    register they leave from register 0, and the tables shifting a register past them
    (a CRC register's update is linear: after bytes B from register r it is
    shift_len(B)(r) ^ register(B from 0))."""

    def __init__(self, data):
        self.data = data
        self.register = _python_crc(data, 0)
        self.tables = _zeros_tables(len(data))

    def crc_after(self, register):
        t0, t1, t2, t3 = self.tables
        return (t0[register & 0xFF] ^ t1[(register >> 8) & 0xFF] ^ t2[(register >> 16) & 0xFF]
                ^ t3[register >> 24] ^ self.register)


_SCALAR_PARTS = {}  # (tag, metadata) -> the constant bytes around a scalar's 4 bytes
_LENGTH = struct.Struct("<Q")
_CRC = struct.Struct("<I")
_FLOAT = struct.Struct("<f")


def _scalar_parts(tag, metadata):
    """The bytes of a scalar event after its wall time and step, around the value: the
    ``Summary`` field of the ``Event`` up to the float32's 4 bytes, then the rest."""
    value_head = b"\x0a" + _varint(len(tag)) + tag + b"\x42\x0a\x08\x01\x12\x00\x22\x04"
    value_tail = b"\x4a" + _varint(len(metadata)) + metadata if metadata else b""
    value_len = len(value_head) + 4 + len(value_tail)
    summary = b"\x0a" + _varint(value_len)
    summary_len = len(summary) + value_len
    parts = (_Segment(b"\x2a" + _varint(summary_len) + summary + value_head),
             _Segment(value_tail) if value_tail else None)
    if len(_SCALAR_PARTS) < 4096:
        _SCALAR_PARTS[tag, metadata] = parts
    return parts


def scalar_record(step, tag, metadata, value):
    """The framed TFRecord of the event of scalar summary `value` (a float, or the
    4 bytes of a float32) under `tag` (bytes) with `metadata` (bytes) at `step`: the
    hot path of training loops, so its checksum passes over the constant parts at once."""
    head, tail = _SCALAR_PARTS.get((tag, metadata)) or _scalar_parts(tag, metadata)
    start = _WALL_TIME.pack(0x09, time.time())
    if step:
        start += b"\x10" + _varint(step)
    number = value if type(value) is bytes else _FLOAT.pack(value)
    register = _python_crc(start, 0xFFFFFFFF)
    register = _python_crc(number, head.crc_after(register))
    data = start + head.data + number
    if tail is not None:
        register = tail.crc_after(register)
        data += tail.data
    length = _LENGTH.pack(len(data))
    return b"".join((length, _CRC.pack(_length_crc(length)), data,
                     _CRC.pack(mask(register ^ 0xFFFFFFFF))))


def event_bytes(step, summary_bytes, wall_time=None):
    """A serialized ``Event`` of `step` holding the serialized ``Summary`` `summary_bytes`
    (written by hand: the hot path of every summary)."""
    head = _WALL_TIME.pack(0x09, time.time() if wall_time is None else wall_time)
    if step:
        head += b"\x10" + _varint(step)
    return head + b"\x2a" + _varint(len(summary_bytes)) + summary_bytes


class _EventFile:
    """The buffered TFRecord file of a writer's events."""

    def __init__(self, logdir, max_queue, flush_millis, filename_suffix, process_unique=True):
        """(`process_unique`: the file's name ends with the process and writer ids, as
        TF 2's writers name theirs; TF 1's `FileWriter` names its without.)"""
        from eagerflow._src.summary import protos  # noqa: PLC0415
        self.uid = uid = next(_IDS)
        if logdir:  # ("": the working directory, as TF's)
            try:
                gfile.makedirs(logdir)
            except errors.AlreadyExistsError:  # (a file in the way: TF's writer says so)
                raise errors.FailedPreconditionError(None, None, "Not a directory") from None
            except errors.FailedPreconditionError as e:
                # (gfile names the file in the way; TF's writer names one among the
                # parents, and says no more of the directory itself)
                text = ("Not a directory" if os.path.isfile(logdir.rstrip("/"))
                        else e.message)
                raise errors.FailedPreconditionError(None, None, text) from None
        unique = f".{os.getpid()}.{uid}" if process_unique else ""
        if process_unique and not filename_suffix.startswith("."):
            filename_suffix = "." + filename_suffix  # (as TF 2: ".<id>." without a suffix)
        name = (f"events.out.tfevents.{int(time.time()):010d}.{socket.gethostname()}"
                f"{unique}{filename_suffix}")
        self.path = os.path.join(logdir, name)
        try:
            self._file = file_system.open_file(self.path, "ab")  # (``ram://`` too)
        except OSError as e:
            raise errors.NotFoundError(None, None, f"{self.path}; {e.strerror}") from None
        self._queue = []
        # (as TF's writer: a negative count or time never flushes; only flush and close do)
        self._max_queue = max_queue if max_queue >= 0 else float("inf")
        self._flush_seconds = flush_millis / 1000 if flush_millis >= 0 else float("inf")
        self._flushed_at = time.monotonic()
        self._lock = threading.Lock()
        first = protos.Event(wall_time=float(int(time.time())), file_version="brain.Event:2",
                             source_metadata=protos.SourceMetadata(
                                 writer="tensorflow.core.util.events_writer"))
        self._file.write(frame([first.SerializeToString()]))
        self._file.flush()
        self._stop = threading.Event()
        self._thread = None
        if flush_millis > 0:
            self._thread = threading.Thread(target=self._flush_every, args=(flush_millis / 1000,),
                                            name="summary_flusher", daemon=True)
            self._thread.start()

    def add(self, record):
        """Queues `record`, a framed TFRecord."""
        self._queue.append(record)
        # (as TF's writer: also when the last flush is older than flush_millis)
        if len(self._queue) > self._max_queue or \
                time.monotonic() - self._flushed_at >= self._flush_seconds:
            self.flush()

    def _flush_every(self, seconds):
        while not self._stop.wait(seconds):
            self.flush()

    def flush(self):
        with self._lock:
            if self._file is None:
                return
            # one list for good: records appended while this runs (another thread's
            # summaries, without the lock) stay after the ones taken
            queue = self._queue
            count = len(queue)
            if count:
                self._file.write(b"".join(queue[:count]))
                del queue[:count]
            self._file.flush()
            self._flushed_at = time.monotonic()

    def close(self):
        self._stop.set()
        self.flush()
        with self._lock:
            if self._file is not None:
                self._file.close()
                self._file = None
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join()
            self._thread = None

    @property
    def closed(self):
        return self._file is None


@export("summary.SummaryWriter")
class SummaryWriter:
    """Writes summaries to a destination (``tf.summary.SummaryWriter``); made by
    `create_file_writer` or `create_noop_writer`."""

    def set_as_default(self, step=None):
        """Makes this the default writer of the summaries that follow (and `step`, if
        given, their default step) until another is set."""
        self._check_open()
        state.writer = self
        if step is not None:
            state.step = step

    def as_default(self, step=None):
        """A context manager making this the default writer (and `step`, if given, the
        default step) inside its block; leaving it flushes the default writer and restores
        both. Entered without leaving (``as_default().__enter__()``), this stays the
        default, as with `set_as_default`."""
        self._check_open()
        return _DefaultWriter(self, step)

    def _check_open(self):
        pass

    def init(self):
        """Opens the writer's resources (they open when it is made; kept for TF's API)."""
        self._check_open()

    def flush(self):
        """Writes the summaries waiting in memory to their destination."""

    def close(self):
        """Flushes and closes the writer; it writes nothing more."""


def _flush_writer(xp, *, writer):
    target = _WRITERS.get(writer)
    if target is not None:
        target._file.flush()
    return ()


# A flush in a function (leaving `as_default` inside it, `flush`) runs at each call, in order.
_FLUSH = register("FlushSummaryWriter", _flush_writer, lambda **_: [], multi=True, tied=(),
                  stateful=True, not_differentiable="summary")
tf_nodes[_FLUSH] = NodeForm(types={}, local={"writer": -1})
tf_args[_FLUSH] = None  # (the writer is an attr, not TF's resource input: no raw op)


def _close_writer(xp, *, writer):
    target = _WRITERS.get(writer)
    if target is not None:
        target._close_now()
    return ()


# `close` in a TF 1 graph: the writer closes when a session runs it.
_CLOSE = register("CloseSummaryWriter", _close_writer, lambda **_: [], multi=True, tied=(),
                  stateful=True, not_differentiable="summary")
tf_nodes[_CLOSE] = NodeForm(types={}, local={"writer": -1})
tf_args[_CLOSE] = None  # (as FlushSummaryWriter)


def _built_op():
    """The op just built, in a graph (what TF's writer methods give there, for a session
    to run), else None."""
    graph = context.get().graph
    return None if graph is None else graph.get_operations()[-1]


def gone_error(writer_id):
    """TF's error of a summary op writing to writer `writer_id` once it is closed or no
    one holds it (its resource is gone): summaries are never dropped silently."""
    return errors.NotFoundError(
        None, None, f"Resource localhost/_AnonymousVar{writer_id}/"
                    f"N10tensorflow22SummaryWriterInterfaceE does not exist.")


class _ResourceSummaryWriter(SummaryWriter):
    """A `SummaryWriter` appending events to a file in a log directory."""

    def __init__(self, logdir, max_queue, flush_millis, filename_suffix):
        self._logdir = logdir
        self._file = _EventFile(logdir, max_queue, flush_millis, filename_suffix)
        self._id = self._file.uid
        _WRITERS[self._id] = self
        _OPEN.add(self)

    def _closed_error(self, op_name="WriteSummary", name=None):
        """TF's error of eager op `op_name` writing to this writer after `close`."""
        return errors.NotFoundError(None, None, errors.eager_message(
            gone_error(self._id).message, op_name, name=name))

    def _write(self, step, summary_bytes):
        if self._file.closed:
            raise self._closed_error()
        self._file.add(frame([event_bytes(step, summary_bytes)]))

    def _write_scalar(self, step, tag, metadata, value):
        if self._file.closed:
            raise self._closed_error()
        self._file.add(scalar_record(step, tag, metadata, value))

    def _check_open(self):
        # (only eagerly, as TF: in a function, the ops writing to it fail when they run)
        if self._file.closed and context.executing_eagerly():
            raise RuntimeError(f"SummaryWriter {self!r} is already closed")

    def write_event(self, event, op_name="WriteGraphSummary"):
        """Appends `event` (an ``Event`` proto) as it is (after `close`, the error of TF's
        op `op_name` writing it)."""
        if self._file.closed:
            raise self._closed_error(op_name, "")
        self._file.add(frame([event.SerializeToString()]))

    def init(self):
        """Opens the writer's resources (they open when it is made: in a graph, an op that
        does nothing, for TF 1 programs that run it first)."""
        self._check_open()
        graph = context.get().graph
        if getattr(graph, "building_function", True) is False:
            return graph._add(None, "NoOp", graph.unique_name("init_summary_writer"), (), {},
                              [])
        return context.no_outputs()

    def flush(self):
        """Writes the summaries waiting in memory to the file (in a graph, the op that
        does, when it runs)."""
        dispatch(_FLUSH, (), {"writer": self._id})
        return _built_op()

    def close(self):
        """Flushes and closes the writer; it writes nothing more. While a TF 1 graph is
        built, the op that does so when a session runs it."""
        if not context.executing_eagerly() and \
                getattr(context.get().graph, "building_function", True) is False:
            with context.get().graph.control_dependencies([self.flush()]):
                dispatch(_CLOSE, (), {"writer": self._id})
            return _built_op()
        self._close_now()
        return None

    def _close_now(self):
        self._file.close()
        _WRITERS.pop(self._id, None)

    def __del__(self):
        file = getattr(self, "_file", None)
        if file is not None and not file.closed:
            file.close()

    def __repr__(self):
        return f"<SummaryWriter to {self._logdir!r}>"


class _TrackableResourceSummaryWriter(_ResourceSummaryWriter):
    """A file writer that checkpoints may hold (``experimental_trackable``): it has no
    state of its own to save."""

    def _trackable_children(self):
        return []


class _DefaultWriter:
    """The context manager of `SummaryWriter.as_default`: a class, not a generator, so
    that one entered and dropped unexited leaves its writer the default (a generator's
    cleanup would restore the old one)."""

    def __init__(self, writer, step):
        self._writer = writer
        self._step = step
        self._old_writer = self._old_step = None

    def __enter__(self):
        self._old_writer, state.writer = state.writer, self._writer
        if self._step is not None:
            self._old_step, state.step = state.step, self._step
        return self._writer

    def __exit__(self, *exc):
        # (as TF: the writer flushed is the default one now, which the block may have set)
        state.writer.flush()
        state.writer = self._old_writer
        if self._step is not None:
            state.step = self._old_step
        return False


class _NoopSummaryWriter(SummaryWriter):
    """A writer that writes nothing: summaries under it return False."""

    _writes = False

    def __repr__(self):
        return "<noop SummaryWriter>"

    # As TF's: making it the default changes nothing (a writer already set keeps writing,
    # and the step stays).
    def set_as_default(self, step=None):
        pass

    @contextlib.contextmanager
    def as_default(self, step=None):
        yield  # (None, as TF's)


def _path(value):
    if hasattr(value, "numpy"):
        value = value.numpy()
    if isinstance(value, bytes):
        return value.decode("utf-8", "surrogateescape")
    if not isinstance(value, (str, os.PathLike)):
        value = convert_to_tensor(value, _d.string).numpy()  # (TF's TypeError)
        return value.decode("utf-8", "surrogateescape")
    return os.fspath(value)


def _int_argument(value, default):
    """`max_queue` or `flush_millis` as an int (TF converts them to int32 tensors)."""
    if value is None:
        return default
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return int(value)
    return int(convert_to_tensor(value, _d.int32).numpy())


@export("summary.create_file_writer")
def create_file_writer(logdir, max_queue=None, flush_millis=None, filename_suffix=None,
                       name=None, experimental_trackable=False, experimental_mesh=None):
    """A `SummaryWriter` writing TensorBoard event files into directory `logdir`.

    `max_queue`: summaries kept in memory before a write to the file (default 10);
    `flush_millis`: the longest they wait (default 120000); `filename_suffix`: the end
    of the file's name (default ".v2"); `experimental_trackable`: a writer that
    `tf.train.Checkpoint` and `tf.Module` may hold.

    >>> import os, tempfile
    >>> logdir = tempfile.mkdtemp()
    >>> writer = tf.summary.create_file_writer(logdir, filename_suffix=".run")
    >>> writer.close()
    >>> [n.startswith("events.out.tfevents.") and n.endswith(".run") for n in os.listdir(logdir)]
    [True]
    """
    if logdir is None:
        raise ValueError("Argument `logdir` cannot be None")
    max_queue = _int_argument(max_queue, 10)
    flush_millis = _int_argument(flush_millis, 120000)
    suffix = ".v2" if filename_suffix is None else _path(filename_suffix)
    kind = _TrackableResourceSummaryWriter if experimental_trackable else \
        _ResourceSummaryWriter
    try:
        return kind(_path(logdir), max_queue, flush_millis, suffix)
    except errors.OpError as e:  # (TF's eager op making the writer failed)
        raise type(e)(None, None, errors.eager_message(
            e.message, "CreateSummaryFileWriter", name="")) from None


@export("summary.create_noop_writer")
def create_noop_writer():
    """A `SummaryWriter` that writes nothing (summaries under it return False)."""
    return _NoopSummaryWriter()


@export("summary.flush")
def flush(writer=None, name=None):
    """Flushes `writer` (by default the default writer) to its file."""
    writer = state.writer if writer is None else writer
    if writer is None:
        return context.no_outputs()
    if not isinstance(writer, SummaryWriter):
        raise ValueError(f"Invalid argument to flush(): {writer!r}")
    return writer.flush()


@export("summary.experimental.set_step")
def set_step(step):
    """Sets the default step of summaries (an int, a tensor or a Variable, read each
    time a summary is written; None clears it).

    >>> tf.summary.experimental.set_step(5)
    >>> tf.summary.experimental.get_step()
    5
    >>> tf.summary.experimental.set_step(None)
    """
    state.step = step


@export("summary.experimental.get_step")
def get_step():
    """The default step of summaries (as set), or None."""
    return state.step


@export("summary.record_if")
@contextlib.contextmanager
def record_if(condition):
    """A context manager: summaries inside are written only when `condition` holds (a
    bool, a boolean tensor, or a callable returning one, called at each summary).

    >>> with tf.summary.record_if(False):
    ...     tf.summary.should_record_summaries()
    <tf.Tensor: shape=(), dtype=bool, numpy=False>
    """
    old = state.is_recording
    state.is_recording = condition
    try:
        yield
    finally:
        state.is_recording = old


def _close_all():
    for writer in list(_OPEN):
        try:
            writer._close_now()
        except Exception:  # noqa: BLE001 (exit goes on for the other writers)
            pass


atexit.register(_close_all)


@export("compat.v1.train.summary_iterator")
def summary_iterator(path):
    """The ``Event`` protos of the event file at `path`, in order (a damaged record raises
    `errors.DataLossError`).

    >>> import glob, tempfile
    >>> logdir = tempfile.mkdtemp()
    >>> with tf.summary.create_file_writer(logdir).as_default() as writer:
    ...     _ = tf.summary.scalar("loss", 0.5, step=3)
    >>> writer.close()
    >>> [(e.step, [v.tag for v in e.summary.value])
    ...  for e in tf.compat.v1.train.summary_iterator(glob.glob(logdir + "/*")[0])]
    [(0, []), (3, ['loss'])]
    """
    from eagerflow._src.io.tf_record import read_records  # noqa: PLC0415
    from eagerflow._src.summary import protos  # noqa: PLC0415
    for record in read_records(path):
        yield protos.Event.FromString(record)

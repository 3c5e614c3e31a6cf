"""``tf.profiler.experimental``: one profiling session at a time, its `Trace` spans
written for TensorBoard's profile plugin.

`start` begins a session, `stop` ends it and (with `save`) writes what it
recorded as an ``XSpace`` (TF's ``xplane.proto``) to
``<logdir>/plugins/profile/<YYYY_MM_DD_HH_MM_SS>/<host>.xplane.pb``: one
host plane with a line per Python thread and an event per `Trace` span that
ran in the session (its keyword arguments as the event's stats, as TF's
``step_num`` marks steps). Ops are not timed one by one: a `Trace` costs an
attribute check when no session runs, and nothing else is on the ops' path.

>>> import os, tempfile
>>> logdir = tempfile.mkdtemp()
>>> tf.profiler.experimental.start(logdir)
>>> with tf.profiler.experimental.Trace("train", step_num=1, _r=1):
...     _ = tf.constant(1.0) + 1.0
>>> tf.profiler.experimental.stop()
>>> os.listdir(os.path.join(logdir, "plugins", "profile"))  # doctest: +ELLIPSIS
['..._..._..._..._..._...']
"""
import collections
import datetime
import os
import socket
import threading
import time

from eagerflow._src.backend.api_export import export
from eagerflow._src.backend.log import logger as _logger
from eagerflow._src.core import errors
from eagerflow._src.core.protos.schema import build

_XPLANE = build("tensorflow/tsl/profiler/protobuf/xplane.proto", """
    package tensorflow.profiler;
    message XSpace {
      repeated XPlane planes = 1;
      repeated string errors = 2;
      repeated string warnings = 3;
      repeated string hostnames = 4;
    }
    message XPlane {
      int64 id = 1;
      string name = 2;
      repeated XLine lines = 3;
      map<int64, XEventMetadata> event_metadata = 4;
      map<int64, XStatMetadata> stat_metadata = 5;
      repeated XStat stats = 6;
    }
    message XLine {
      int64 id = 1;
      int64 display_id = 10;
      string name = 2;
      string display_name = 11;
      int64 timestamp_ns = 3;
      int64 duration_ps = 9;
      repeated XEvent events = 4;
    }
    message XEvent {
      int64 metadata_id = 1;
      oneof data { int64 offset_ps = 2; int64 num_occurrences = 5; }
      int64 duration_ps = 3;
      repeated XStat stats = 4;
    }
    message XStat {
      int64 metadata_id = 1;
      oneof value {
        double double_value = 2; uint64 uint64_value = 3; int64 int64_value = 4;
        string str_value = 5; bytes bytes_value = 6; uint64 ref_value = 7;
      }
    }
    message XEventMetadata {
      int64 id = 1;
      string name = 2;
      string display_name = 4;
      bytes metadata = 3;
      repeated XStat stats = 5;
      repeated int64 child_id = 6;
    }
    message XStatMetadata {
      int64 id = 1;
      string name = 2;
      string description = 3;
    }
""")
XSpace = _XPLANE["XSpace"]

ProfilerOptions = collections.namedtuple(
    "ProfilerOptions", ["host_tracer_level", "python_tracer_level", "device_tracer_level",
                        "delay_ms"], defaults=(2, 0, 1, None))
ProfilerOptions.__doc__ = """How much a profiling session records (TF's levels; here the
`Trace` spans are recorded at any host level above 0)."""
export("profiler.experimental.ProfilerOptions").export_constant(__name__, "ProfilerOptions")


class _Session:
    """A running profiler: where it writes and the spans recorded, (name, stats, thread id,
    thread name, start ns, end ns)."""

    def __init__(self, logdir, options):
        self.logdir = logdir
        self.options = options
        self.started_ns = time.time_ns()
        self.spans = []
        self.recording = (options.host_tracer_level or 0) > 0


_session = None  # the running _Session
_lock = threading.Lock()


@export("profiler.experimental.start")
def start(logdir, options=None):
    """Starts profiling, for `stop` to write into `logdir`; `AlreadyExistsError` while
    another session runs.

    >>> import tempfile
    >>> tf.profiler.experimental.start(tempfile.mkdtemp())
    >>> tf.profiler.experimental.start(tempfile.mkdtemp())
    Traceback (most recent call last):
    ...
    eagerflow.errors.AlreadyExistsError: Another profiler is running.
    >>> tf.profiler.experimental.stop(save=False)
    """
    global _session
    if not isinstance(logdir, (str, os.PathLike)):
        raise TypeError("start(): incompatible function arguments. The following argument "
                        "types are supported:\n    1. (logdir: str, options: dict) -> None")
    options = ProfilerOptions() if options is None else options
    with _lock:
        if _session is not None:
            raise errors.AlreadyExistsError(None, None, "Another profiler is running.")
        _session = _Session(os.fspath(logdir), options)


@export("profiler.experimental.stop")
def stop(save=True):
    """Stops profiling and, with `save`, writes the session's trace under its logdir;
    `UnavailableError` when no session runs.

    >>> tf.profiler.experimental.stop()
    Traceback (most recent call last):
    ...
    eagerflow.errors.UnavailableError: Cannot export profiling results. No profiler is running.
    """
    global _session
    with _lock:
        session, _session = _session, None
    if session is None:
        raise errors.UnavailableError(None, None, "Cannot export profiling results. No "
                                                  "profiler is running.")
    if save:
        _write(session)


def _write(session):
    folder = os.path.join(session.logdir, "plugins", "profile",
                          datetime.datetime.now().strftime("%Y_%m_%d_%H_%M_%S"))
    os.makedirs(folder, exist_ok=True)
    host = socket.gethostname()
    with open(os.path.join(folder, f"{host}.xplane.pb"), "wb") as f:
        f.write(_xspace(session, host).SerializeToString())


def _xspace(session, host):
    """The session's spans as an XSpace: a ``/host:CPU`` plane, a line per thread."""
    space = XSpace(hostnames=[host])
    plane = space.planes.add(id=0, name="/host:CPU")
    events, stats, lines = {}, {}, {}

    def metadata_id(table, name):
        if name not in table:
            table[name] = len(table) + 1
        return table[name]
    for name, values, thread, thread_name, begin, end in session.spans:
        line = lines.get(thread)
        if line is None:
            line = lines[thread] = plane.lines.add(
                id=thread, display_id=thread, name=thread_name,
                timestamp_ns=session.started_ns)
        event = line.events.add(metadata_id=metadata_id(events, name),
                                offset_ps=(begin - session.started_ns) * 1000,
                                duration_ps=(end - begin) * 1000)
        for key, value in values.items():
            stat = event.stats.add(metadata_id=metadata_id(stats, key))
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                stat.str_value = str(value)
            elif isinstance(value, int):
                stat.int64_value = value
            else:
                stat.double_value = value
    for name, i in events.items():
        plane.event_metadata[i].id = i
        plane.event_metadata[i].name = name
    for name, i in stats.items():
        plane.stat_metadata[i].id = i
        plane.stat_metadata[i].name = name
    return space


@export("profiler.experimental.Profile")
class Profile:
    """Profiles the code of a ``with`` block (`start` on entry, `stop` on exit).

    >>> import tempfile
    >>> with tf.profiler.experimental.Profile(tempfile.mkdtemp()):
    ...     _ = tf.constant([1.0, 2.0]) * 2.0
    """

    def __init__(self, logdir, options=None):
        self._logdir = logdir
        self._options = options

    def __enter__(self):
        start(self._logdir, self._options)

    def __exit__(self, typ, value, tb):
        stop()


@export("profiler.experimental.Trace")
class Trace:
    """A named span of the profile, around a ``with`` block: its keyword arguments are
    recorded with it (``step_num`` marks a training step, as in TF). Free when no
    profiler runs.

    >>> with tf.profiler.experimental.Trace("train", step_num=3, _r=1):
    ...     _ = tf.constant(1.0) + 1.0
    """

    def __init__(self, name, **kwargs):
        session = _session
        self._session = session if session is not None and session.recording else None
        if self._session is not None:
            self._name = str(name)
            self._values = kwargs
            self._begin = None

    def __enter__(self):
        if self._session is not None:
            self._begin = time.time_ns()
        return self

    def set_metadata(self, **kwargs):
        """Adds (or replaces) keyword arguments recorded with the span."""
        if self._session is not None:
            self._values = {**self._values, **kwargs}

    def __exit__(self, typ, value, tb):
        session = self._session
        if session is not None and self._begin is not None and session is _session:
            thread = threading.current_thread()
            session.spans.append((self._name, self._values, thread.ident or 0, thread.name,
                                  self._begin, time.time_ns()))


@export("profiler.experimental.server.start")
def start_server(port):
    """TF's profiler server for remote capture: there is none here (a warning says so); the
    port is checked as TF checks it."""
    if not isinstance(port, int) or isinstance(port, bool):
        raise TypeError("start_server(): incompatible function arguments. The following "
                        "argument types are supported:\n    1. (arg0: int) -> None")
    _logger.warning("No profiler server runs here (port %d): profile this process with "
                    "tf.profiler.experimental.start and stop.", port)


@export("profiler.experimental.client.trace")
def trace(service_addr, logdir, duration_ms, worker_list="", num_tracing_attempts=3,
          options=None):
    """Remote capture from a profiler server: no server is reachable from here
    (`UnavailableError`)."""
    raise errors.UnavailableError(None, None, f"No profiler server is reachable at "
                                              f"{service_addr}: remote capture is not "
                                              f"available here.")


@export("profiler.experimental.client.monitor")
def monitor(service_addr, duration_ms, level=1):
    """Remote monitoring of a profiler server: none is reachable from here
    (`UnavailableError`)."""
    raise errors.UnavailableError(None, None, f"No profiler server is reachable at "
                                              f"{service_addr}: monitoring is not available "
                                              f"here.")

"""TF 1's `Supervisor`, `SessionManager` and `LooperThread` (``tf.compat.v1.train``): sessions
whose model is initialized, or restored from the latest checkpoint of a log directory,
with the queue runners started and checkpoints and summaries saved by threads while
training runs.

>>> import tempfile
>>> g = tf.Graph()
>>> with g.as_default():
...     w = tf.compat.v1.Variable(2.0, name="w")
...     manager = tf.compat.v1.train.SessionManager(
...         ready_op=tf.compat.v1.report_uninitialized_variables())
...     sess = manager.prepare_session("", init_op=tf.compat.v1.global_variables_initializer())
...     float(sess.run(w))
2.0
"""
import contextlib
import os
import threading
import time

from eagerflow._src.backend.api_export import export
from eagerflow._src.checkpoint import management
from eagerflow._src.compat import coordinator as _coordinator
from eagerflow._src.compat import graph_mode, logging_v1, queue_runner
from eagerflow._src.compat import saver as _saver
from eagerflow._src.compat import session as _session
from eagerflow._src.compat import summary as _summary
from eagerflow._src.compat import variable_scope
from eagerflow._src.compat.gradient_descent import get_global_step
from eagerflow._src.compat.graph_mode import GraphKeys
from eagerflow._src.core import errors
from eagerflow._src.io import graph_io


@export("compat.v1.train.LooperThread")
class LooperThread(threading.Thread):
    """A daemon thread calling `target` (or `run_loop`) every `timer_interval_secs` seconds
    (back to back when None) until `coord` asks to stop; an exception stops `coord`."""

    def __init__(self, coord, timer_interval_secs, target=None, args=None, kwargs=None):
        if not isinstance(coord, _coordinator.Coordinator):
            raise ValueError("'coord' argument must be a Coordinator: %s" % coord)
        super().__init__()
        self.daemon = True
        self._coord, self._timer_interval_secs = coord, timer_interval_secs
        self._target = target
        if self._target:
            self._args, self._kwargs = args or (), kwargs or {}
        elif args or kwargs:
            raise ValueError("'args' and 'kwargs' argument require that you also pass "
                             "'target'")
        self._coord.register_thread(self)

    @staticmethod
    def loop(coord, timer_interval_secs, target, args=None, kwargs=None):
        """Starts and returns a LooperThread calling `target`."""
        looper = LooperThread(coord, timer_interval_secs, target=target, args=args,
                              kwargs=kwargs)
        looper.start()
        return looper

    def run(self):
        with self._coord.stop_on_exception():
            self.start_loop()
            if self._timer_interval_secs is None:
                while not self._coord.should_stop():
                    self.run_loop()
            else:
                next_time = time.time()
                while not self._coord.wait_for_stop(max(0.0, next_time - time.time())):
                    next_time += self._timer_interval_secs
                    self.run_loop()
            self.stop_loop()

    def start_loop(self):
        """Called once when the thread starts."""

    def stop_loop(self):
        """Called once when the thread stops."""

    def run_loop(self):
        """One step of the loop: calls `target`."""
        if self._target:
            self._target(*self._args, **self._kwargs)


def _not_ready(sess, op, feed_dict=None):
    """None when `op` (a `report_uninitialized_variables` or a boolean) says the model is
    ready, else why not."""
    if op is None:
        return None
    try:
        value = sess.run(op, feed_dict=feed_dict)
    except errors.FailedPreconditionError as e:
        return str(e)
    if value is None or getattr(value, "size", 1) == 0 or value is True:
        return None
    names = ", ".join(v.decode() if isinstance(v, bytes) else str(v)
                      for v in getattr(value, "flat", [value]))
    return f"Variables not initialized: {names}"


@export("compat.v1.train.SessionManager")
class SessionManager:
    """Makes sessions whose model is ready: restored from a checkpoint, else initialized
    (`prepare_session`), or waiting until another process made it so (`wait_for_session`)."""

    def __init__(self, local_init_op=None, ready_op=None, ready_for_local_init_op=None,
                 graph=None, recovery_wait_secs=30, local_init_run_options=None,
                 local_init_feed_dict=None):
        self._graph = graph if graph is not None else graph_mode.default_v1_graph()
        self._local_init_op, self._ready_op = local_init_op, ready_op
        self._ready_for_local_init_op = ready_for_local_init_op
        self._recovery_wait_secs = recovery_wait_secs
        self._local_init_feed_dict = local_init_feed_dict
        if ready_for_local_init_op is not None and local_init_op is None:
            raise ValueError(f"If you pass a ready_for_local_init_op you must also pass a "
                             f"local_init_op , ready_for_local_init_op "
                             f"[{ready_for_local_init_op}]")

    def _restore(self, master, saver, checkpoint_dir, checkpoint_filename_with_path,
                 wait_for_checkpoint, max_wait_secs, config):
        sess = _session.Session(master, graph=self._graph, config=config)
        if checkpoint_dir and checkpoint_filename_with_path:
            raise ValueError("Can not provide both checkpoint_dir and "
                             "checkpoint_filename_with_path.")
        if not saver or not (checkpoint_dir or checkpoint_filename_with_path):
            return sess, False
        if checkpoint_filename_with_path:
            saver.restore(sess, checkpoint_filename_with_path)
            return sess, True
        deadline = time.time() + max_wait_secs
        path = management.latest_checkpoint(checkpoint_dir)
        while path is None and wait_for_checkpoint and time.time() < deadline:
            time.sleep(min(self._recovery_wait_secs, max(0.0, deadline - time.time())))
            path = management.latest_checkpoint(checkpoint_dir)
        if path is None:
            return sess, False
        saver.restore(sess, path)
        return sess, True

    def _local_init(self, sess):
        """Runs the local init op when the model is ready for it; why not, else None."""
        if self._local_init_op is None:
            return None
        why = _not_ready(sess, self._ready_for_local_init_op)
        if why is not None:
            return why
        logging_v1.info("Running local_init_op.")
        sess.run(self._local_init_op, feed_dict=self._local_init_feed_dict)
        logging_v1.info("Done running local_init_op.")
        return None

    def prepare_session(self, master, init_op=None, saver=None, checkpoint_dir=None,
                        checkpoint_filename_with_path=None, wait_for_checkpoint=False,
                        max_wait_secs=7200, config=None, init_feed_dict=None, init_fn=None):
        """A session restored from the latest checkpoint of `checkpoint_dir` (by `saver`),
        else initialized by `init_op` and `init_fn`; RuntimeError unless then ready."""
        sess, restored = self._restore(master, saver, checkpoint_dir,
                                       checkpoint_filename_with_path, wait_for_checkpoint,
                                       max_wait_secs, config)
        if not restored:
            if init_op is None and not init_fn and self._local_init_op is None:
                raise RuntimeError("Model is not initialized and no init_op or init_fn or "
                                   "local_init_op was given")
            if init_op is not None:
                sess.run(init_op, feed_dict=init_feed_dict)
            if init_fn:
                init_fn(sess)
        why = self._local_init(sess)
        if why is not None:
            raise RuntimeError(f"Init operations did not make model ready for local_init.  "
                               f"Init op: {_name(init_op)}, init fn: {init_fn}, error: {why}")
        why = _not_ready(sess, self._ready_op)
        if why is not None:
            raise RuntimeError(f"Init operations did not make model ready.  Init op: "
                               f"{_name(init_op)}, init fn: {init_fn}, local_init_op: "
                               f"{self._local_init_op}, error: {why}")
        return sess

    def recover_session(self, master, saver=None, checkpoint_dir=None,
                        checkpoint_filename_with_path=None, wait_for_checkpoint=False,
                        max_wait_secs=7200, config=None):
        """``(session, initialized)``: a session restored from a checkpoint if there is
        one, and whether its model is ready."""
        sess, restored = self._restore(master, saver, checkpoint_dir,
                                       checkpoint_filename_with_path, wait_for_checkpoint,
                                       max_wait_secs, config)
        self._local_init(sess)
        if not restored:
            return sess, False
        why = _not_ready(sess, self._ready_op)
        if why is not None:
            logging_v1.info("Restoring model from %s did not make model ready for local "
                            "init: %s", checkpoint_dir, why)
            return sess, False
        return sess, True

    def wait_for_session(self, master, config=None, max_wait_secs=float("Inf")):
        """A session once another process made the model ready (checked every
        `recovery_wait_secs`); DeadlineExceededError after `max_wait_secs`."""
        deadline = time.time() + max_wait_secs
        while True:
            sess = _session.Session(master, graph=self._graph, config=config)
            if self._local_init(sess) is None and _not_ready(sess, self._ready_op) is None:
                return sess
            sess.close()
            left = deadline - time.time()
            if left <= 0:
                raise errors.DeadlineExceededError(
                    None, None, f"Session was not ready after waiting {max_wait_secs} secs.")
            time.sleep(min(self._recovery_wait_secs, left))


def _name(op):
    return None if op is None else op.name


_USE_DEFAULT = 0


@export("compat.v1.train.Supervisor")
class Supervisor:
    """A training session's helper (TF 1's, before `MonitoredTrainingSession`): makes the
    missing init, ready and summary ops and the saver, finalizes the graph, and gives a
    session (`managed_session`) restored from `logdir` or initialized, with the queue runners
    started and, every `save_model_secs` / `save_summaries_secs`, a checkpoint and the
    summaries written to `logdir`."""

    USE_DEFAULT = _USE_DEFAULT

    def __init__(self, graph=None, ready_op=_USE_DEFAULT, ready_for_local_init_op=_USE_DEFAULT,
                 is_chief=True, init_op=_USE_DEFAULT, init_feed_dict=None,
                 local_init_op=_USE_DEFAULT, logdir=None, summary_op=_USE_DEFAULT,
                 saver=_USE_DEFAULT, global_step=_USE_DEFAULT, save_summaries_secs=120,
                 save_model_secs=600, recovery_wait_secs=30, stop_grace_secs=120,
                 checkpoint_basename="model.ckpt", session_manager=None,
                 summary_writer=_USE_DEFAULT, init_fn=None, local_init_run_options=None):
        self._graph = graph if graph is not None else graph_mode.default_v1_graph()
        with self._graph.as_default():
            self._is_chief = is_chief
            self._coord = _coordinator.Coordinator()
            self._started_threads = []
            self._recovery_wait_secs = recovery_wait_secs
            self._stop_grace_secs = stop_grace_secs
            self._init_fn, self._init_feed_dict = init_fn, init_feed_dict
            self._ready_op = (variable_scope.report_uninitialized_variables()
                              if ready_op is _USE_DEFAULT else ready_op)
            self._ready_for_local_init_op = (
                variable_scope.report_uninitialized_variables(
                    variable_scope.global_variables())
                if ready_for_local_init_op is _USE_DEFAULT else ready_for_local_init_op)
            self._init_op = (variable_scope.global_variables_initializer()
                             if init_op is _USE_DEFAULT else init_op)
            if local_init_op is _USE_DEFAULT:
                local_init_op = graph_mode.group(
                    variable_scope.local_variables_initializer(),
                    variable_scope.tables_initializer())
            self._local_init_op = local_init_op
            self._summary_op = (_summary.merge_all() if summary_op is _USE_DEFAULT
                                else summary_op)
            if saver is _USE_DEFAULT:
                savers = self._graph.get_collection(GraphKeys.SAVERS)
                saver = savers[0] if savers else (
                    _saver.Saver() if variable_scope.global_variables() else None)
                if not savers and saver is not None:
                    self._graph.add_to_collection(GraphKeys.SAVERS, saver)
            self._saver = saver
            self._global_step = get_global_step() if global_step is _USE_DEFAULT \
                else global_step
        self._logdir = logdir
        self._save_summaries_secs, self._save_model_secs = save_summaries_secs, save_model_secs
        self._save_path = os.path.join(logdir, checkpoint_basename) if logdir else None
        if summary_writer is _USE_DEFAULT:
            summary_writer = _summary.FileWriter(logdir) if logdir and is_chief else None
        self._summary_writer = summary_writer
        self._session_manager = session_manager or SessionManager(
            local_init_op=self._local_init_op, ready_op=self._ready_op,
            ready_for_local_init_op=self._ready_for_local_init_op, graph=self._graph,
            recovery_wait_secs=recovery_wait_secs)
        self._graph.finalize()

    is_chief = property(lambda self: self._is_chief)
    session_manager = property(lambda self: self._session_manager)
    coord = property(lambda self: self._coord)
    init_op = property(lambda self: self._init_op)
    init_feed_dict = property(lambda self: self._init_feed_dict)
    ready_op = property(lambda self: self._ready_op)
    ready_for_local_init_op = property(lambda self: self._ready_for_local_init_op)
    summary_writer = property(lambda self: self._summary_writer)
    summary_op = property(lambda self: self._summary_op)
    save_summaries_secs = property(lambda self: self._save_summaries_secs)
    global_step = property(lambda self: self._global_step)
    saver = property(lambda self: self._saver)
    save_model_secs = property(lambda self: self._save_model_secs)
    save_path = property(lambda self: self._save_path)

    def _write_graph(self):
        if self._is_chief and self._logdir:
            graph_io.write_graph(self._graph.as_graph_def(), self._logdir, "graph.pbtxt")
        if self._summary_writer is not None:
            self._summary_writer.add_graph(self._graph)

    def start_standard_services(self, sess):
        """Starts the threads saving checkpoints and summaries (chief only); returns them."""
        if not self._is_chief:
            raise TypeError("Standard services need a 'logdir' passed to the SessionManager")
        threads = []
        if self._summary_writer is not None and self._summary_op is not None and \
                self._save_summaries_secs:
            threads.append(self.loop(self._save_summaries_secs, self._write_summaries,
                                     args=(sess,)))
        if self._saver is not None and self._save_path and self._save_model_secs:
            threads.append(self.loop(self._save_model_secs, self._save, args=(sess,)))
        return threads

    def _write_summaries(self, sess):
        if self._global_step is not None:
            summary, step = sess.run([self._summary_op, self._global_step])
        else:
            summary, step = sess.run(self._summary_op), None
        self.summary_computed(sess, summary, step)

    def _save(self, sess):
        self._saver.save(sess, self._save_path, global_step=self._global_step)
        if self._summary_writer is not None and self._global_step is not None:
            self._summary_writer.add_session_log(
                _summary.SessionLog(status=_summary.SessionLog.CHECKPOINT,
                                    checkpoint_path=self._save_path),
                int(sess.run(self._global_step)))

    def prepare_or_wait_for_session(self, master="", config=None,
                                    wait_for_checkpoint=False, max_wait_secs=7200,
                                    start_standard_services=True):
        """The chief's session restored from `logdir` or initialized (the graph written
        and the standard services started); a worker's, once the chief made it ready.
        The queue runners are started."""
        if self._coord.joined:
            self._coord.clear_stop()
        if self._is_chief:
            sess = self._session_manager.prepare_session(
                master, init_op=self._init_op, saver=self._saver, checkpoint_dir=self._logdir,
                wait_for_checkpoint=wait_for_checkpoint, max_wait_secs=max_wait_secs,
                config=config, init_feed_dict=self._init_feed_dict, init_fn=self._init_fn)
            self._write_graph()
            if start_standard_services:
                self._started_threads.extend(self.start_standard_services(sess))
        else:
            sess = self._session_manager.wait_for_session(master, config=config,
                                                          max_wait_secs=max_wait_secs)
        if start_standard_services:
            self._started_threads.extend(self.start_queue_runners(sess))
        return sess

    def start_queue_runners(self, sess, queue_runners=None):
        """Starts the threads of `queue_runners` (the graph's) under the coordinator."""
        if queue_runners is None:
            queue_runners = self._graph.get_collection(GraphKeys.QUEUE_RUNNERS)
        threads = []
        for qr in queue_runners:
            threads.extend(qr.create_threads(sess, coord=self._coord, daemon=True,
                                             start=True))
        return threads

    def loop(self, timer_interval_secs, target, args=None, kwargs=None):
        """Starts a `LooperThread` calling `target` every `timer_interval_secs` seconds."""
        looper = LooperThread(self._coord, timer_interval_secs, target=target, args=args,
                              kwargs=kwargs)
        looper.start()
        return looper

    def stop(self, threads=None, close_summary_writer=True, ignore_live_threads=False):
        """Stops the threads and waits for them; raises the exception one stopped on."""
        self._coord.request_stop()
        try:
            self._coord.join(threads, stop_grace_period_secs=self._stop_grace_secs,
                             ignore_live_threads=ignore_live_threads)
        finally:
            if close_summary_writer and self._summary_writer is not None:
                self._summary_writer.add_session_log(
                    _summary.SessionLog(status=_summary.SessionLog.STOP))
                self._summary_writer.close()
            self._started_threads = []

    def request_stop(self, ex=None):
        self._coord.request_stop(ex=ex)

    def should_stop(self):
        return self._coord.should_stop()

    def stop_on_exception(self):
        return self._coord.stop_on_exception()

    def wait_for_stop(self):
        self._coord.wait_for_stop()

    def summary_computed(self, sess, summary, global_step=None):
        """Writes `summary` (a serialized `Summary`) to the summary writer."""
        if self._summary_writer is None:
            raise RuntimeError("Writing a summary requires a summary writer.")
        if global_step is None and self._global_step is not None:
            global_step = int(sess.run(self._global_step))
        self._summary_writer.add_summary(summary, global_step)

    @contextlib.contextmanager
    def managed_session(self, master="", config=None, start_standard_services=True,
                        close_summary_writer=True):
        """A session from `prepare_or_wait_for_session`, stopped and closed at the end of
        the block; an OutOfRangeError in it ends it quietly, others are raised again."""
        sess = None
        try:
            sess = self.prepare_or_wait_for_session(
                master=master, config=config, start_standard_services=start_standard_services)
            yield sess
        except Exception as e:  # noqa: BLE001 (the coordinator raises it again, as TF's)
            self.request_stop(e)
        finally:
            try:
                self.stop(close_summary_writer=close_summary_writer)
            finally:
                if sess is not None:
                    sess.close()

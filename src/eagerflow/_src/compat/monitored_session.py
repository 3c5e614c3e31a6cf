"""TF 1's monitored sessions (``tf.compat.v1.train.MonitoredTrainingSession``,
`MonitoredSession`, `SingularMonitoredSession`) and their session-run hooks
(`StopAtStepHook`, `CheckpointSaverHook`, `LoggingTensorHook`, `SummarySaverHook`,
`StepCounterHook`).

A monitored session finalizes its graph, initializes the variables (or restores the
latest checkpoint of its `checkpoint_dir`), and calls its hooks around every `run`:
``begin``, ``after_create_session``, ``before_run`` (whose `SessionRunArgs` are fetched
in the same run), ``after_run`` and ``end``.  It starts the graph's queue runners (with a
`Coordinator` it gives the hooks), and stops them when it closes.  An `OutOfRangeError`
(the end of the input) ends its ``with`` block quietly.  `MonitoredTrainingSession` counts steps per second, writes the merged
summaries to event files in its summary directory and saves checkpoints, as TF does.
"""
import abc
import collections
import functools
import inspect
import os
import time

import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.checkpoint import management
from eagerflow._src.compat import graph_mode, saver as _saver, session as _session
from eagerflow._src.compat import meta_graph as _meta_graph, summary as _summary
from eagerflow._src.compat import coordinator, logging_v1, queue_runner, variable_scope
from eagerflow._src.compat.gradient_descent import get_global_step
from eagerflow._src.compat.graph_mode import GraphKeys
from eagerflow._src.core import errors


@export("compat.v1.train.SessionRunArgs")
class SessionRunArgs(collections.namedtuple("SessionRunArgs",
                                            ["fetches", "feed_dict", "options"])):
    """What a hook's `before_run` adds to a run: fetches, feeds and options."""

    def __new__(cls, fetches, feed_dict=None, options=None):
        return super().__new__(cls, fetches, feed_dict, options)


@export("compat.v1.train.SessionRunValues")
class SessionRunValues(collections.namedtuple("SessionRunValues",
                                              ["results", "options", "run_metadata"])):
    """What a hook's `after_run` gets: the results of its `SessionRunArgs` fetches."""


@export("compat.v1.train.SessionRunContext")
class SessionRunContext:
    """The run a hook is called around: the caller's `original_args`, the `session`, and
    `request_stop` (the monitored session stops after this run)."""

    def __init__(self, original_args, session):
        self._original_args = original_args
        self._session = session
        self._stop_requested = False

    original_args = property(lambda self: self._original_args)
    session = property(lambda self: self._session)
    stop_requested = property(lambda self: self._stop_requested)

    def request_stop(self):
        self._stop_requested = True


@export("compat.v1.train.SessionRunHook")
class SessionRunHook:
    """The base of hooks: each method does nothing unless overridden."""

    def begin(self):
        pass

    def after_create_session(self, session, coord):
        pass

    def before_run(self, run_context):
        return None

    def after_run(self, run_context, run_values):
        pass

    def end(self, session):
        pass


class _Timer:
    """Whether to act at a step: every `every_steps` steps or `every_secs` seconds."""

    def __init__(self, every_secs=None, every_steps=None):
        self._secs, self._steps = every_secs, every_steps
        self.reset()

    def reset(self):
        self._last_time = self._last_step = None

    def should_trigger_for_step(self, step):
        if self._last_step is None:
            return True
        if self._last_step == step:
            return False
        if self._secs is not None and time.time() >= self._last_time + self._secs:
            return True
        return self._steps is not None and step >= self._last_step + self._steps

    def update_last_triggered_step(self, step):
        now = time.time()
        elapsed = None if self._last_time is None else now - self._last_time
        steps = None if self._last_step is None else step - self._last_step
        self._last_time, self._last_step = now, step
        return elapsed, steps

    last_triggered_step = property(lambda self: self._last_step)


def _global_step_or_fail(hook):
    step = get_global_step()
    if step is None:
        raise RuntimeError(f"Global step should be created to use {hook}.")
    return step


@export("compat.v1.train.StopAtStepHook")
class StopAtStepHook(SessionRunHook):
    """Requests a stop once the global step reaches `last_step` (or `num_steps` past the
    step the session starts at)."""

    def __init__(self, num_steps=None, last_step=None):
        if num_steps is None and last_step is None:
            raise ValueError("One of num_steps or last_step must be specified.")
        if num_steps is not None and last_step is not None:
            raise ValueError("Only one of num_steps or last_step can be specified.")
        if num_steps is not None and num_steps < 0:
            raise ValueError("'num_steps' should be non-negative")
        self._num_steps, self._last_step = num_steps, last_step

    def begin(self):
        self._step = _global_step_or_fail("StopAtStepHook")

    def after_create_session(self, session, coord):
        if self._last_step is None:
            self._last_step = int(session.run(self._step)) + self._num_steps

    def before_run(self, run_context):
        return SessionRunArgs(self._step)

    def after_run(self, run_context, run_values):
        if run_values.results + 1 >= self._last_step:
            # (the step read in the run may precede its increment: read it again)
            if run_context.session.run(self._step) >= self._last_step:
                run_context.request_stop()


@export("compat.v1.train.CheckpointSaverHook")
class CheckpointSaverHook(SessionRunHook):
    """Saves a checkpoint ``<checkpoint_dir>/model.ckpt-<global step>`` when the session
    starts, every `save_steps` steps or `save_secs` seconds, and at the end; writes the
    graph (``graph.pbtxt`` with `save_graph_def`, and to the event file of
    `checkpoint_dir`) at the start and a ``CHECKPOINT`` session log for each save."""

    def __init__(self, checkpoint_dir, save_secs=None, save_steps=None, saver=None,
                 checkpoint_basename="model.ckpt", scaffold=None, listeners=None,
                 save_graph_def=True):
        logging_v1.info("Create CheckpointSaverHook.")
        if saver is not None and scaffold is not None:
            raise ValueError("You cannot provide both saver and scaffold.")
        if (save_secs is None) == (save_steps is None):
            raise ValueError("exactly one of save_secs or save_steps should be set.")
        self._saver, self._scaffold = saver, scaffold
        self._dir = checkpoint_dir
        self._path = os.path.join(checkpoint_dir, checkpoint_basename)
        self._timer = _Timer(every_secs=save_secs, every_steps=save_steps)
        self._listeners = list(listeners or [])
        self._save_graph_def = save_graph_def

    def begin(self):
        self._writer = _summary.FileWriterCache.get(self._dir)
        self._step = _global_step_or_fail("CheckpointSaverHook")
        for listener in self._listeners:
            listener.begin()

    def after_create_session(self, session, coord):
        os.makedirs(self._dir, exist_ok=True)  # (TF writes the graph there first)
        graph = graph_mode.default_v1_graph()
        graph_def = _meta_graph.graph_def_of(graph, add_shapes=True)
        if self._save_graph_def:
            from google.protobuf import text_format  # noqa: PLC0415
            with open(os.path.join(self._dir, "graph.pbtxt"), "w") as f:
                f.write(text_format.MessageToString(graph_def))
        saver = self._get_saver()
        self._writer.add_graph(graph)
        self._writer.add_meta_graph(_meta_graph.export_meta_graph(
            graph_def=graph_def, graph=graph,
            saver_def=None if saver is None else saver.as_saver_def()))
        step = int(session.run(self._step))
        self._save(session, step)
        self._timer.update_last_triggered_step(step)

    def before_run(self, run_context):
        return SessionRunArgs(self._step)

    def after_run(self, run_context, run_values):
        if self._timer.should_trigger_for_step(run_values.results + 1):
            step = int(run_context.session.run(self._step))
            if self._timer.should_trigger_for_step(step):
                self._timer.update_last_triggered_step(step)
                if self._save(run_context.session, step):
                    run_context.request_stop()

    def end(self, session):
        step = int(session.run(self._step))
        if step != self._timer.last_triggered_step:
            self._save(session, step)
        for listener in self._listeners:
            listener.end(session, step)

    def _save(self, session, step):
        """Saves; True when a listener asks to stop."""
        logging_v1.info("Calling checkpoint listeners before saving checkpoint %d...", step)
        for listener in self._listeners:
            listener.before_save(session, step)
        logging_v1.info("Saving checkpoints for %d into %s.", step, self._path)
        self._get_saver().save(session, self._path, global_step=step)
        self._writer.add_session_log(_summary.SessionLog(
            status=_summary.SessionLog.CHECKPOINT, checkpoint_path=self._path), step)
        logging_v1.info("Calling checkpoint listeners after saving checkpoint %d...", step)
        return any(listener.after_save(session, step) for listener in self._listeners)

    def _get_saver(self):
        if self._saver is not None:
            return self._saver
        if self._scaffold is not None:
            return self._scaffold.saver
        savers = graph_mode.default_v1_graph().get_collection(GraphKeys.SAVERS)
        if len(savers) != 1:
            raise RuntimeError(f"More than one item in collection {GraphKeys.SAVERS}. Please "
                               f"indicate which one to use by passing it to the constructor."
                               if savers else
                               f"No items in collection {GraphKeys.SAVERS}. Please add a "
                               f"saver to the collection or provide a saver or scaffold.")
        return savers[0]


@export("compat.v1.train.LoggingTensorHook")
class LoggingTensorHook(SessionRunHook):
    """Logs (``tf.get_logger().info``) the values of `tensors` (a dict of tags to
    tensors or names, or a list) every `every_n_iter` runs or `every_n_secs` seconds,
    and with `at_end` when the session ends."""

    def __init__(self, tensors, every_n_iter=None, every_n_secs=None, at_end=False,
                 formatter=None):
        only_at_end = at_end and every_n_iter is None and every_n_secs is None
        if not only_at_end and (every_n_iter is None) == (every_n_secs is None):
            raise ValueError("either at_end and/or exactly one of every_n_iter and "
                             "every_n_secs must be provided.")
        if every_n_iter is not None and every_n_iter <= 0:
            raise ValueError(f"invalid every_n_iter={every_n_iter}.")
        if isinstance(tensors, dict):
            self._tag_order = sorted(tensors)
        else:
            self._tag_order = list(tensors)
            tensors = {item: item for item in tensors}
        self._tensors = tensors
        self._formatter = formatter
        self._at_end = at_end
        self._timer = None if only_at_end else _Timer(every_secs=every_n_secs,
                                                      every_steps=every_n_iter)

    def begin(self):
        if self._timer is not None:
            self._timer.reset()
        self._iter_count = 0
        graph = graph_mode.default_v1_graph()
        self._current = {tag: graph.as_graph_element(t) if isinstance(t, str) else t
                         for tag, t in self._tensors.items()}

    def before_run(self, run_context):
        self._should_trigger = (self._timer is not None
                                and self._timer.should_trigger_for_step(self._iter_count))
        return SessionRunArgs(self._current) if self._should_trigger else None

    def after_run(self, run_context, run_values):
        if self._should_trigger:
            self._log(run_values.results)
        self._iter_count += 1

    def end(self, session):
        if self._at_end:
            self._log(session.run(self._current))

    def _log(self, values):
        from eagerflow._src.compat.toplevel import get_logger  # noqa: PLC0415
        elapsed = None
        if self._timer is not None:
            elapsed, _ = self._timer.update_last_triggered_step(self._iter_count)
        if self._formatter is not None:
            get_logger().info(self._formatter(values))
            return
        with np.printoptions(suppress=True):
            stats = ", ".join(f"{tag} = {values[tag]}" for tag in self._tag_order)
        if elapsed is not None:
            get_logger().info("%s (%.3f sec)", stats, elapsed)
        else:
            get_logger().info("%s", stats)


@export("compat.v1.train.SummarySaverHook")
class SummarySaverHook(SessionRunHook):
    """Writes the value of `summary_op` (by default the scaffold's, all the summaries
    merged) to the event file of `output_dir` at the first step, then every `save_steps`
    steps or `save_secs` seconds, at the global step after the run."""

    def __init__(self, save_steps=None, save_secs=None, output_dir=None, summary_writer=None,
                 scaffold=None, summary_op=None):
        if (scaffold is None) == (summary_op is None):
            raise ValueError("Exactly one of scaffold or summary_op must be provided.")
        if (save_secs is None) == (save_steps is None):
            raise ValueError("exactly one of save_secs or save_steps should be set.")
        self._summary_op, self._scaffold = summary_op, scaffold
        self._writer, self._dir = summary_writer, output_dir
        self._timer = _Timer(every_secs=save_secs, every_steps=save_steps)

    def begin(self):
        if self._writer is None and self._dir:
            self._writer = _summary.FileWriterCache.get(self._dir)
        self._next_step = None
        self._step = _global_step_or_fail("SummarySaverHook")

    def _summaries(self):
        op = self._summary_op if self._summary_op is not None else self._scaffold.summary_op
        if op is None:
            return None
        return list(op) if isinstance(op, (list, tuple)) else [op]

    def before_run(self, run_context):
        self._request = self._next_step is None or self._timer.should_trigger_for_step(
            self._next_step)
        requests = {"global_step": self._step}
        summaries = self._summaries() if self._request else None
        if summaries is not None:
            requests["summary"] = summaries
        return SessionRunArgs(requests)

    def after_run(self, run_context, run_values):
        if self._writer is None:
            return
        step = int(run_values.results["global_step"]) + 1
        if self._next_step is None or self._request:
            step = int(run_context.session.run(self._step))
        if self._next_step is None:
            self._writer.add_session_log(_summary.SessionLog(
                status=_summary.SessionLog.START), step)
        if self._request:
            self._timer.update_last_triggered_step(step)
            for value in run_values.results.get("summary", ()):
                self._writer.add_summary(value, step)
        self._next_step = step + 1

    def end(self, session):
        if self._writer is not None:
            self._writer.flush()


@export("compat.v1.train.StepCounterHook")
class StepCounterHook(SessionRunHook):
    """Writes the global steps per second, as ``global_step/sec``, to the event file of
    `output_dir` every `every_n_steps` steps or `every_n_secs` seconds."""

    def __init__(self, every_n_steps=100, every_n_secs=None, output_dir=None,
                 summary_writer=None):
        if (every_n_steps is None) == (every_n_secs is None):
            raise ValueError("exactly one of every_n_steps and every_n_secs should be provided.")
        self._timer = _Timer(every_secs=every_n_secs, every_steps=every_n_steps)
        self._writer, self._dir = summary_writer, output_dir

    def begin(self):
        if self._writer is None and self._dir:
            self._writer = _summary.FileWriterCache.get(self._dir)
        self._step = _global_step_or_fail("StepCounterHook")
        self._tag = self._step.name.split(":")[0] + "/sec"

    def before_run(self, run_context):
        return SessionRunArgs(self._step)

    def after_run(self, run_context, run_values):
        step = int(run_values.results) + 1
        if not self._timer.should_trigger_for_step(step):
            return
        step = int(run_context.session.run(self._step))
        if not self._timer.should_trigger_for_step(step):
            return
        elapsed, steps = self._timer.update_last_triggered_step(step)
        if elapsed is not None and self._writer is not None:
            rate = steps / elapsed if elapsed > 0 else float("inf")
            self._writer.add_summary(_summary.Summary(value=[_summary.Summary.Value(
                tag=self._tag, simple_value=rate)]), step)


@export("compat.v1.train.Scaffold")
class Scaffold:
    """What a monitored session needs of its graph: the ops initializing it and the
    saver, made (where not given) when it finalizes the graph."""

    def __init__(self, init_op=None, init_feed_dict=None, init_fn=None, ready_op=None,
                 ready_for_local_init_op=None, local_init_op=None, summary_op=None,
                 saver=None, copy_from_scaffold=None, local_init_feed_dict=None):
        self._init_op, self._init_feed_dict, self._init_fn = init_op, init_feed_dict, init_fn
        self._local_init_op, self._local_init_feed_dict = local_init_op, local_init_feed_dict
        self._saver, self._summary_op = saver, summary_op
        self._ready_op, self._ready_for_local_init_op = ready_op, ready_for_local_init_op

    init_op = property(lambda self: self._init_op)
    ready_op = property(lambda self: self._ready_op)
    ready_for_local_init_op = property(lambda self: self._ready_for_local_init_op)
    init_feed_dict = property(lambda self: self._init_feed_dict)
    init_fn = property(lambda self: self._init_fn)
    local_init_op = property(lambda self: self._local_init_op)
    local_init_feed_dict = property(lambda self: self._local_init_feed_dict)
    saver = property(lambda self: self._saver)
    summary_op = property(lambda self: self._summary_op)

    def finalize(self):
        """Makes the missing ops and the saver, then finalizes the default graph."""
        graph = graph_mode.default_v1_graph()
        if self._init_op is None:
            self._init_op = variable_scope.global_variables_initializer()
        if self._local_init_op is None:
            self._local_init_op = variable_scope.local_variables_initializer()
        if self._saver is None:
            savers = graph.get_collection(GraphKeys.SAVERS)
            if savers:
                self._saver = savers[0]
            elif variable_scope.global_variables():
                self._saver = _saver.Saver()
                graph.add_to_collection(GraphKeys.SAVERS, self._saver)
        if self._summary_op is None:
            found = graph.get_collection(GraphKeys.SUMMARY_OP)
            self._summary_op = found[0] if found else _summary.merge_all()
            if self._summary_op is not None and not found:
                graph.add_to_collection(GraphKeys.SUMMARY_OP, self._summary_op)
        graph.finalize()
        logging_v1.info("Graph was finalized.")
        return self


class _MonitoredSession:
    """A session over the default graph that calls its hooks around every run."""

    def __init__(self, session_creator, hooks, stop_grace_period_secs=120):
        self._hooks = list(hooks or [])
        self._grace = stop_grace_period_secs
        for hook in self._hooks:
            hook.begin()
        self._graph_was_finalized = graph_mode.default_v1_graph().finalized
        self._sess = session_creator.create_session()
        self._stop = self._closed = False
        # the graph's queue runners fill its input queues until the session closes
        self._coord = coordinator.Coordinator()
        self._threads = queue_runner.start_queue_runners(self._sess, self._coord)
        for hook in self._hooks:
            hook.after_create_session(self._sess, self._coord)

    graph = property(lambda self: self._sess.graph)

    def run(self, fetches, feed_dict=None, options=None, run_metadata=None):
        """`Session.run` of `fetches`, with the hooks' fetches and feeds in the same run."""
        if self._closed:
            raise RuntimeError("Run called even after should_stop requested.")
        context = SessionRunContext(SessionRunArgs(fetches, feed_dict, options), self._sess)
        feeds = dict(feed_dict or {})
        extra = {}
        for i, hook in enumerate(self._hooks):
            args = hook.before_run(context)
            if args is None:
                continue
            if args.fetches is not None:  # (a hook that only feeds: `FeedFnHook`)
                extra[i] = args.fetches
            for key, value in (args.feed_dict or {}).items():
                if key in feeds:
                    raise RuntimeError("Same tensor is fed by a SessionRunHook and user. "
                                       f"Conflict(s): {[key]}")
                feeds[key] = value
        try:
            results = self._sess.run({"caller": fetches, "hooks": extra},
                                     feed_dict=feeds or None, options=options,
                                     run_metadata=run_metadata)
        except Exception:
            # (the error a queue runner stopped on, which is why this run failed, first)
            self._coord.raise_requested_exception()
            raise
        for i, hook in enumerate(self._hooks):
            hook.after_run(context, SessionRunValues(results["hooks"].get(i), options,
                                                     run_metadata))
        self._stop = self._stop or context.stop_requested
        return results["caller"]

    def run_step_fn(self, step_fn):
        """What `step_fn` returns, called with a `StepContext` (its argument, named
        ``step_context``): its `session` runs without the hooks, its `run_with_hooks` with
        them (as `run`), and its `request_stop` raises StopIteration, which leaving the
        session's ``with`` block ends quietly."""
        args = _fn_args(step_fn)
        if args not in (("step_context",), ("self", "step_context")):
            raise ValueError(f"`step_fn` may either have one `step_context` argument, or "
                             f"`self` and `step_context` arguments if it's an instance method. "
                             f"Got {args} instead.")
        return step_fn(self.StepContext(self._sess, self.run))

    class StepContext:
        """What a `run_step_fn` step gets: the raw `session`, `run_with_hooks`, and
        `request_stop`."""

        def __init__(self, session, run_with_hooks_fn):
            self._session, self._run_with_hooks_fn = session, run_with_hooks_fn

        session = property(lambda self: self._session)

        def run_with_hooks(self, *args, **kwargs):
            return self._run_with_hooks_fn(*args, **kwargs)

        def request_stop(self):
            raise StopIteration("step_fn has requested the iterations to stop.")

    def should_stop(self):
        return self._closed or self._stop or self._coord.should_stop()

    def close(self):
        self._close(None)

    def _close(self, exception_type):
        if self._closed:
            return
        try:
            if exception_type is None:
                for hook in self._hooks:
                    hook.end(self._sess)
        finally:
            self._closed = True
            self._coord.request_stop()
            try:
                self._coord.join(self._threads, stop_grace_period_secs=self._grace,
                                 ignore_live_threads=True)
            except Exception:
                if exception_type is None:
                    raise  # (a queue runner's error; else the block's own is raised)
            finally:
                self._sess.close()
                if not self._graph_was_finalized:  # (as it was: more may be built, and run)
                    self._sess.graph._unsafe_unfinalize()

    def __enter__(self):
        return self

    def __exit__(self, exception_type, exception_value, traceback):
        if exception_type is not None and issubclass(exception_type, (errors.OutOfRangeError,
                                                                      StopIteration)):
            exception_type = None
        self._close(exception_type)
        return exception_type is None


def _fn_args(fn):
    """The names of `fn`'s positional parameters, a bound method's first one left out (as
    TF counts them)."""
    if isinstance(fn, functools.partial):
        return tuple(_fn_args(fn.func)[len(fn.args):])
    call = fn if inspect.isfunction(fn) or inspect.ismethod(fn) else fn.__call__
    args = inspect.getfullargspec(call).args
    return tuple(args[1:] if inspect.ismethod(call) else args)


@export("compat.v1.train.MonitoredSession")
class MonitoredSession(_MonitoredSession):
    """A session that initializes (or restores) the default graph's variables and calls
    `hooks` around every run. `session_creator`: a `ChiefSessionCreator`."""

    def __init__(self, session_creator=None, hooks=None, stop_grace_period_secs=120):
        super().__init__(session_creator or ChiefSessionCreator(), hooks,
                         stop_grace_period_secs)


@export("compat.v1.train.SingularMonitoredSession")
class SingularMonitoredSession(_MonitoredSession):
    """A `MonitoredSession` of one process, whose `raw_session` is its `Session`."""

    def __init__(self, hooks=None, scaffold=None, master="", config=None, checkpoint_dir=None,
                 stop_grace_period_secs=120, checkpoint_filename_with_path=None):
        super().__init__(ChiefSessionCreator(scaffold, master, config, checkpoint_dir,
                                             checkpoint_filename_with_path),
                         hooks, stop_grace_period_secs)

    def raw_session(self):
        return self._sess


@export("compat.v1.train.SessionCreator")
class SessionCreator(abc.ABC):
    """What makes a `MonitoredSession`'s session: `create_session()` (abstract)."""

    @abc.abstractmethod
    def create_session(self):
        raise NotImplementedError(f"create_session is not implemented for {self}.")


@export("compat.v1.train.ChiefSessionCreator")
class ChiefSessionCreator(SessionCreator):
    """How a `MonitoredSession` starts: its scaffold (finalized) and the checkpoint it
    restores, else the scaffold's initialization."""

    def __init__(self, scaffold=None, master="", config=None, checkpoint_dir=None,
                 checkpoint_filename_with_path=None):
        self._scaffold, self._config = scaffold or Scaffold(), config
        self._checkpoint_dir = checkpoint_dir
        self._checkpoint_filename_with_path = checkpoint_filename_with_path

    def create_session(self):
        s = self._scaffold.finalize()
        sess = _session.Session(graph=graph_mode.default_v1_graph(), config=self._config)
        path = self._checkpoint_filename_with_path or (
            management.latest_checkpoint(self._checkpoint_dir) if self._checkpoint_dir
            else None)
        if path is not None and s.saver is not None:
            s.saver.restore(sess, path)
        else:
            sess.run(s.init_op, feed_dict=s.init_feed_dict)
            if s.init_fn is not None:
                s.init_fn(s, sess)
        if s.local_init_op is not None:
            logging_v1.info("Running local_init_op.")
            sess.run(s.local_init_op, feed_dict=s.local_init_feed_dict)
            logging_v1.info("Done running local_init_op.")
        return sess


@export("compat.v1.train.WorkerSessionCreator")
class WorkerSessionCreator(SessionCreator):
    """How a worker's `MonitoredSession` starts: it waits (up to `max_wait_secs`) until
    the model is ready (initialized by the chief), then runs the local init op."""

    def __init__(self, scaffold=None, master="", config=None, max_wait_secs=30 * 60):
        self._scaffold, self._master = scaffold or Scaffold(), master
        self._config, self._max_wait_secs = config, max_wait_secs

    def create_session(self):
        from eagerflow._src.compat import supervisor  # noqa: PLC0415 (it imports this)
        s = self._scaffold
        ready, ready_for_local = s.ready_op, s.ready_for_local_init_op
        if ready is None:  # (what the variables' initialization makes ready)
            ready = variable_scope.report_uninitialized_variables()
        if ready_for_local is None:
            ready_for_local = variable_scope.report_uninitialized_variables(
                variable_scope.global_variables())
        s.finalize()
        manager = supervisor.SessionManager(
            local_init_op=s.local_init_op, ready_op=ready,
            ready_for_local_init_op=ready_for_local, graph=graph_mode.default_v1_graph())
        return manager.wait_for_session(self._master, config=self._config,
                                        max_wait_secs=self._max_wait_secs)


_USE_DEFAULT = object()


def _every(steps, secs, default):
    """``(steps, secs)`` of a periodic hook: `default` when neither was given, else None for
    the one left out."""
    if steps is _USE_DEFAULT and secs is _USE_DEFAULT:
        return default
    return (None if steps is _USE_DEFAULT else steps, None if secs is _USE_DEFAULT else secs)


@export("compat.v1.train.MonitoredTrainingSession")
def MonitoredTrainingSession(master="", is_chief=True, checkpoint_dir=None,  # noqa: N802
                             scaffold=None, hooks=None, chief_only_hooks=None,
                             save_checkpoint_secs=_USE_DEFAULT,
                             save_summaries_steps=_USE_DEFAULT,
                             save_summaries_secs=_USE_DEFAULT, config=None,
                             stop_grace_period_secs=120, log_step_count_steps=100,
                             max_wait_secs=7200, save_checkpoint_steps=_USE_DEFAULT,
                             summary_dir=None, save_graph_def=True):
    """A `MonitoredSession` for training: restores the latest checkpoint of
    `checkpoint_dir` and saves there every `save_checkpoint_steps` steps or
    `save_checkpoint_secs` seconds (600 when neither is given); in `summary_dir` (by
    default `checkpoint_dir`) writes the steps per second every `log_step_count_steps`
    steps and the merged summaries every `save_summaries_steps` steps or
    `save_summaries_secs` seconds (100 steps when neither is given)."""
    save_summaries_steps, save_summaries_secs = _every(save_summaries_steps,
                                                       save_summaries_secs, (100, None))
    summary_dir = summary_dir or checkpoint_dir
    save_checkpoint_steps, save_checkpoint_secs = _every(save_checkpoint_steps,
                                                         save_checkpoint_secs, (None, 600))
    scaffold = scaffold or Scaffold()
    all_hooks = list(hooks or [])
    if is_chief:
        all_hooks += list(chief_only_hooks or [])
        if summary_dir and log_step_count_steps and log_step_count_steps > 0:
            all_hooks.append(StepCounterHook(output_dir=summary_dir,
                                             every_n_steps=log_step_count_steps))
        if summary_dir and ((save_summaries_steps and save_summaries_steps > 0) or
                            (save_summaries_secs and save_summaries_secs > 0)):
            all_hooks.append(SummarySaverHook(
                scaffold=scaffold, save_steps=save_summaries_steps or None,
                save_secs=save_summaries_secs or None, output_dir=summary_dir))
        if checkpoint_dir and (save_checkpoint_secs or save_checkpoint_steps):
            all_hooks.append(CheckpointSaverHook(checkpoint_dir,
                                                 save_secs=save_checkpoint_secs or None,
                                                 save_steps=save_checkpoint_steps or None,
                                                 scaffold=scaffold))
    return MonitoredSession(ChiefSessionCreator(scaffold, master, config, checkpoint_dir),
                            all_hooks, stop_grace_period_secs)

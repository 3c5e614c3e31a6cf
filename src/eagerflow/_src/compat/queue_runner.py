"""TF 1's queue runners (``tf.compat.v1.train.QueueRunner``): threads that run a queue's
enqueue ops in a session until the queue they read from runs out, then close their queue,
so the training loop's dequeues end with OutOfRangeError once the input is used up.

>>> g = tf.Graph()
>>> with g.as_default():
...     q = tf.compat.v1.FIFOQueue(4, tf.int32, shapes=[[]])
...     counter = tf.compat.v1.train.limit_epochs(tf.constant([1, 2]), num_epochs=2)
...     tf.compat.v1.train.add_queue_runner(tf.compat.v1.train.QueueRunner(
...         q, [q.enqueue_many([counter])]))
...     batch = q.dequeue_many(2)
...     init = tf.compat.v1.local_variables_initializer()
>>> with tf.compat.v1.Session(graph=g) as sess:
...     sess.run(init)
...     coord = tf.compat.v1.train.Coordinator()
...     threads = tf.compat.v1.train.start_queue_runners(sess, coord)
...     batches = [sess.run(batch).tolist() for _ in range(2)]
...     coord.request_stop()
...     coord.join(threads)
>>> batches
[[1, 2], [1, 2]]
"""
import threading
import weakref

from eagerflow._src.backend.api_export import export
from eagerflow._src.compat import graph_mode, logging_v1
from eagerflow._src.compat import session as _session
from eagerflow._src.compat.graph_mode import GraphKeys
from eagerflow._src.core import errors


@export("compat.v1.train.QueueRunner", "compat.v1.train.queue_runner.QueueRunner")
class QueueRunner:
    """Runs `enqueue_ops` (one thread each) in a session until one raises an error of
    `queue_closed_exception_types` (OutOfRangeError: its input ran out); the last to end
    closes `queue`. Any other error asks the coordinator to stop (and is raised by its
    `join`)."""

    def __init__(self, queue=None, enqueue_ops=None, close_op=None, cancel_op=None,
                 queue_closed_exception_types=None, queue_runner_def=None, import_scope=None):
        if queue_runner_def is not None:
            if queue is not None:
                raise ValueError("queue_runner_def and queue are mutually exclusive.")
            raise NotImplementedError("A QueueRunner from a QueueRunnerDef is not supported.")
        if queue is None or not enqueue_ops:
            raise ValueError("Must provide queue and enqueue_ops.")
        self._queue = queue
        self._enqueue_ops = list(enqueue_ops)
        self._close_op = close_op if close_op is not None else queue.close()
        self._cancel_op = cancel_op if cancel_op is not None else queue.close(
            cancel_pending_enqueues=True)
        self._queue_closed_exception_types = tuple(
            queue_closed_exception_types or (errors.OutOfRangeError,))
        self._lock = threading.Lock()
        self._runs_per_session = weakref.WeakKeyDictionary()
        self._exceptions_raised = []

    queue = property(lambda self: self._queue)
    enqueue_ops = property(lambda self: self._enqueue_ops)
    close_op = property(lambda self: self._close_op)
    cancel_op = property(lambda self: self._cancel_op)
    queue_closed_exception_types = property(lambda self: self._queue_closed_exception_types)
    name = property(lambda self: self._queue.name)

    @property
    def exceptions_raised(self):
        """The exceptions the threads raised (when run without a coordinator)."""
        return self._exceptions_raised

    def _run(self, sess, enqueue_op, coord):
        decremented = False
        try:
            while not (coord is not None and coord.should_stop()):
                try:
                    sess.run(enqueue_op)
                except self._queue_closed_exception_types:
                    with self._lock:
                        self._runs_per_session[sess] -= 1
                        decremented = True
                        if self._runs_per_session[sess] == 0:
                            try:
                                sess.run(self._close_op)
                            except Exception as e:  # noqa: BLE001 (as TF: ignored)
                                logging_v1.vlog(1, "Ignored exception: %s", str(e))
                    return
        except Exception as e:  # noqa: BLE001 (handed to the coordinator, as TF does)
            if coord is not None:
                coord.request_stop(e)
            else:
                logging_v1.error("Exception in QueueRunner: %s", str(e))
                with self._lock:
                    self._exceptions_raised.append(e)
                raise
        finally:
            if not decremented:
                with self._lock:
                    self._runs_per_session[sess] -= 1

    def _close_on_stop(self, sess, coord):
        coord.wait_for_stop()
        try:
            sess.run(self._cancel_op)
        except Exception as e:  # noqa: BLE001 (as TF: ignored)
            logging_v1.vlog(1, "Ignored exception: %s", str(e))

    def create_threads(self, sess, coord=None, daemon=False, start=False):
        """The threads running the enqueue ops in `sess` (and, with `coord`, one closing
        the queue when a stop is requested); none when they already run in `sess`."""
        with self._lock:
            if self._runs_per_session.get(sess, 0) > 0:
                return []
            self._runs_per_session[sess] = len(self._enqueue_ops)
            self._exceptions_raised = []
        threads = [threading.Thread(target=self._run, args=(sess, op, coord))
                   for op in self._enqueue_ops]
        if coord is not None:
            threads.append(threading.Thread(target=self._close_on_stop, args=(sess, coord)))
        for t in threads:
            if coord is not None:
                coord.register_thread(t)
            t.daemon = daemon
            if start:
                t.start()
        return threads


@export("compat.v1.train.add_queue_runner", "compat.v1.train.queue_runner.add_queue_runner")
def add_queue_runner(qr, collection=GraphKeys.QUEUE_RUNNERS):
    """Adds `qr` to the graph's queue runners (which `start_queue_runners` starts)."""
    graph_mode.add_to_collection(collection, qr)


@export("compat.v1.train.start_queue_runners",
        "compat.v1.train.queue_runner.start_queue_runners")
def start_queue_runners(sess=None, coord=None, daemon=True, start=True,
                        collection=GraphKeys.QUEUE_RUNNERS):
    """Starts the threads of the queue runners of `sess`'s graph (the default session's);
    returns them."""
    if graph_mode.executing_eagerly_outside_functions():
        raise RuntimeError("Queues are not compatible with eager execution.")
    if sess is None:
        sess = _session.get_default_session()
        if not sess:
            raise ValueError("Cannot start queue runners: No default session is registered. "
                             "Use `with sess.as_default()` or pass an explicit session to "
                             "tf.start_queue_runners(sess=sess)")
    if not isinstance(sess, _session.Session):
        if type(sess).__name__ in ("MonitoredSession", "SingularMonitoredSession"):
            return []  # (they start the queue runners themselves)
        raise TypeError(f"sess must be a `tf.Session` object. Given class: {type(sess)}")
    threads = []
    for qr in sess.graph.get_collection(collection):
        threads.extend(qr.create_threads(sess, coord=coord, daemon=daemon, start=start))
    return threads

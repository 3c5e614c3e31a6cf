"""TF 1's ``train.SyncReplicasOptimizer`` for the one worker eagerflow runs: every step's
gradients are those of all the replicas to aggregate, so each training step applies them
with the wrapped optimizer (incrementing the global step) and sets the worker's local step
to the global step it computed them at, as TF's does once its chief has aggregated them.

>>> with tf.compat.v1.Graph().as_default():
...     step = tf.compat.v1.train.get_or_create_global_step()
...     w = tf.compat.v1.Variable(1.0)
...     opt = tf.compat.v1.train.SyncReplicasOptimizer(
...         tf.compat.v1.train.GradientDescentOptimizer(0.5), replicas_to_aggregate=1)
...     train = opt.minimize(w * w, global_step=step)
...     hook = opt.make_session_run_hook(is_chief=True)
...     with tf.compat.v1.train.MonitoredTrainingSession(hooks=[hook]) as sess:
...         print(sess.run(train), *sess.run([step, w]))
0 1 0.0
"""
from eagerflow._src.backend.api_export import export
from eagerflow._src.compat import graph_mode
from eagerflow._src.compat import variable_scope as vs
from eagerflow._src.compat.gradient_descent import Optimizer
from eagerflow._src.compat.graph_mode import GraphKeys
from eagerflow._src.compat.monitored_session import SessionRunHook
from eagerflow._src.compat.queue_runner import QueueRunner
from eagerflow._src.core import context
from eagerflow._src.ops import array_ops, cast_ops, data_flow_ops


class _ChiefQueueRunner(QueueRunner):
    """The chief's runner of the token queue: with one worker the training step itself
    applies the aggregated gradients, so it starts no thread."""

    def create_threads(self, sess, coord=None, daemon=False, start=False):
        return []


@export("compat.v1.train.SyncReplicasOptimizer")
class SyncReplicasOptimizer(Optimizer):
    """Synchronous training over `replicas_to_aggregate` replicas of the wrapped optimizer
    `opt` (deprecated in TF; one worker here). `minimize` and `apply_gradients` need the
    global step; `make_session_run_hook` gives the hook that initializes the worker's
    local step in a monitored session."""

    def __init__(self, opt, replicas_to_aggregate, total_num_replicas=None,
                 variable_averages=None, variables_to_average=None, use_locking=False,
                 name="sync_replicas"):
        if total_num_replicas is None:
            total_num_replicas = replicas_to_aggregate
        super().__init__(use_locking, name)
        self._opt = opt
        self._replicas_to_aggregate = replicas_to_aggregate
        self._total_num_replicas = total_num_replicas
        self._tokens_per_step = max(total_num_replicas, replicas_to_aggregate)
        self._variable_averages = variable_averages
        self._variables_to_average = variables_to_average
        self._gradients_applied = False
        self._global_step = self._sync_token_queue = self._chief_queue_runner = None
        self._local_step = None

    def compute_gradients(self, *args, **kwargs):
        return self._opt.compute_gradients(*args, **kwargs)

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        """The training step: applies the gradients with the wrapped optimizer (the
        aggregate of one worker's) and gives the global step they were computed at, which
        becomes the local step."""
        grads_and_vars = list(grads_and_vars)
        if not grads_and_vars:
            raise ValueError("Must supply at least one variable")
        if global_step is None:
            raise ValueError("Global step is required to check staleness")
        self._global_step = global_step
        dtype = global_step.dtype.base_dtype
        self._local_step = vs.GraphVariable(
            lambda: array_ops.zeros([], dtype), trainable=False,
            collections=[GraphKeys.LOCAL_VARIABLES], name="sync_rep_local_step")
        self.local_step_init_op = vs.assign(self._local_step, global_step)
        self.ready_for_local_init_op = vs.report_uninitialized_variables(
            vs.global_variables())
        with context.name_scope_push(""):
            # (the step the gradients belong to, read before the update increments it)
            token = cast_ops.identity(global_step)
            with graph_mode.control_dependencies([token]):
                update_op = self._opt.apply_gradients(grads_and_vars, global_step)
            self._sync_token_queue = data_flow_ops.FIFOQueue(
                -1, dtype, shapes=(), name="sync_token_q", shared_name="sync_token_q")
            if self._variable_averages is not None:
                with graph_mode.control_dependencies([update_op]):
                    update_op = self._variable_averages.apply(self._variables_to_average)
            with graph_mode.control_dependencies([update_op]):
                train_op = vs.assign(self._local_step, token)
            self._chief_queue_runner = _ChiefQueueRunner(self._sync_token_queue,
                                                         [update_op])
        self.chief_init_op = graph_mode.group(self.local_step_init_op)
        self._gradients_applied = True
        return train_op

    def get_chief_queue_runner(self):
        """The chief's queue runner (to start with the session; it has nothing to run
        for one worker)."""
        if self._gradients_applied is False:
            raise ValueError("Should be called after apply_gradients().")
        return self._chief_queue_runner

    def get_slot(self, *args, **kwargs):
        return self._opt.get_slot(*args, **kwargs)

    def get_slot_names(self, *args, **kwargs):
        return self._opt.get_slot_names(*args, **kwargs)

    def variables(self):
        return self._opt.variables()

    def get_init_tokens_op(self, num_tokens=-1):
        """The op putting `num_tokens` tokens (default `replicas_to_aggregate`) of the
        global step in the token queue, for the chief to run once."""
        if self._gradients_applied is False:
            raise ValueError("get_init_tokens_op() should be called after "
                             "apply_gradients().")
        needed = self._replicas_to_aggregate - self._total_num_replicas
        if num_tokens == -1:
            num_tokens = self._replicas_to_aggregate
        elif num_tokens < needed:
            raise ValueError(f"Too few tokens to finish the first step: {num_tokens} (given) "
                             f"vs {needed} (needed)")
        with context.name_scope_push(""):
            if num_tokens > 0:
                return self._sync_token_queue.enqueue_many(
                    (array_ops.fill([num_tokens], self._global_step),))
            return graph_mode.no_op(name="no_init_tokens")

    def make_session_run_hook(self, is_chief, num_tokens=-1):
        """The hook initializing the local step (and the chief's tokens) once the
        session's variables are."""
        return _SyncReplicasOptimizerHook(self, is_chief, num_tokens)


class _SyncReplicasOptimizerHook(SessionRunHook):
    def __init__(self, sync_optimizer, is_chief, num_tokens):
        self._sync_optimizer, self._is_chief, self._num_tokens = (sync_optimizer, is_chief,
                                                                  num_tokens)

    def begin(self):
        opt = self._sync_optimizer
        if opt._gradients_applied is False:
            raise ValueError("SyncReplicasOptimizer.apply_gradient should be called before "
                             "using the hook.")
        self._ready_for_local_init_op = opt.ready_for_local_init_op
        if self._is_chief:
            self._local_init_op = opt.chief_init_op
            self._q_runner = opt.get_chief_queue_runner()
            self._init_tokens_op = opt.get_init_tokens_op(self._num_tokens)
        else:
            self._local_init_op = opt.local_step_init_op
            self._q_runner = self._init_tokens_op = None

    def after_create_session(self, session, coord):
        missing = session.run(self._ready_for_local_init_op)
        if len(missing):
            names = ", ".join(n.decode() if isinstance(n, bytes) else str(n) for n in missing)
            raise RuntimeError(f"Init operations did not make model ready for "
                               f"SyncReplicasOptimizer local_init. Init op: "
                               f"{self._local_init_op.name}, error: Variables not "
                               f"initialized: {names}")
        session.run(self._local_init_op)
        if self._init_tokens_op is not None:
            session.run(self._init_tokens_op)
        if self._q_runner is not None:
            self._q_runner.create_threads(session, coord=coord, daemon=True, start=True)

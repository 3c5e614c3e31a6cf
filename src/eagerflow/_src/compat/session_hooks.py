"""More of TF 1's session-run hooks and training-loop helpers (``tf.compat.v1.train``):
`NanTensorHook`, `FeedFnHook`, `FinalOpsHook`, `GlobalStepWaiterHook`,
`CheckpointSaverListener`, `SecondOrStepTimer`, `assert_global_step` and
`basic_train_loop`.

>>> timer = tf.compat.v1.train.SecondOrStepTimer(every_steps=2)
>>> timer.should_trigger_for_step(0), timer.update_last_triggered_step(0)
(True, (None, None))
>>> timer.should_trigger_for_step(1), timer.should_trigger_for_step(2)
(False, True)
"""
import time

import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.compat import logging_v1
from eagerflow._src.compat.monitored_session import (SessionRunArgs, SessionRunHook, _Timer,
                                                     _global_step_or_fail)
from eagerflow._src.core.tensor import Tensor
from eagerflow._src.core.variables import Variable


@export("compat.v1.train.SecondOrStepTimer")
class SecondOrStepTimer(_Timer):
    """Says when to act: every `every_secs` seconds or every `every_steps` steps (exactly
    one of them), counted from the step it last triggered at."""

    def __init__(self, every_secs=None, every_steps=None):
        if every_secs is None and every_steps is None:
            raise ValueError("Either every_secs or every_steps should be provided.")
        if every_secs is not None and every_steps is not None:
            raise ValueError("Can not provide both every_secs and every_steps.")
        super().__init__(every_secs, every_steps)

    def last_triggered_step(self):
        """The step it last triggered at (None before)."""
        return self._last_step


@export("compat.v1.train.NanLossDuringTrainingError")
class NanLossDuringTrainingError(RuntimeError):
    """What `NanTensorHook` raises when the loss is NaN."""

    def __str__(self):
        return "NaN loss during training."


@export("compat.v1.train.NanTensorHook")
class NanTensorHook(SessionRunHook):
    """Checks `loss_tensor` after each run: when NaN, raises `NanLossDuringTrainingError`
    (with `fail_on_nan_loss`), else logs it and asks the session to stop."""

    def __init__(self, loss_tensor, fail_on_nan_loss=True):
        self._loss_tensor = loss_tensor
        self._fail_on_nan_loss = fail_on_nan_loss

    def before_run(self, run_context):
        return SessionRunArgs(self._loss_tensor)

    def after_run(self, run_context, run_values):
        if np.isnan(run_values.results):
            message = "Model diverged with loss = NaN."
            if self._fail_on_nan_loss:
                logging_v1.error(message)
                raise NanLossDuringTrainingError
            logging_v1.warning(message)
            run_context.request_stop()


@export("compat.v1.train.FeedFnHook")
class FeedFnHook(SessionRunHook):
    """Feeds each run what `feed_fn()` returns (a feed dict)."""

    def __init__(self, feed_fn):
        self.feed_fn = feed_fn

    def before_run(self, run_context):
        return SessionRunArgs(fetches=None, feed_dict=self.feed_fn())


@export("compat.v1.train.FinalOpsHook")
class FinalOpsHook(SessionRunHook):
    """Runs `final_ops` (a tensor, or a list or dict of them) when the session ends
    (feeding `final_ops_feed_dict`); their values are then `final_ops_values`."""

    def __init__(self, final_ops, final_ops_feed_dict=None):
        self._final_ops = final_ops
        self._final_ops_feed_dict = final_ops_feed_dict
        self._final_ops_values = None

    final_ops_values = property(lambda self: self._final_ops_values)

    def end(self, session):
        if self._final_ops is not None:
            self._final_ops_values = session.run(self._final_ops,
                                                 feed_dict=self._final_ops_feed_dict)


@export("compat.v1.train.GlobalStepWaiterHook")
class GlobalStepWaiterHook(SessionRunHook):
    """Holds each run until the global step reaches `wait_until_step` (as a worker waits
    for the chief to start training)."""

    def __init__(self, wait_until_step):
        self._wait_until_step = wait_until_step

    def begin(self):
        self._worker_is_started = False
        self._step = _global_step_or_fail("GlobalStepWaiterHook")

    def before_run(self, run_context):
        if self._worker_is_started or self._wait_until_step <= 0:
            self._worker_is_started = True
            return None
        last_logged = None
        while True:
            step = int(run_context.session.run(self._step))
            if step >= self._wait_until_step:
                self._worker_is_started = True
                return None
            if last_logged != step:
                logging_v1.info("Waiting for global step %d before starting training.",
                                self._wait_until_step)
                last_logged = step
            time.sleep(0.5)


@export("compat.v1.train.CheckpointSaverListener")
class CheckpointSaverListener:
    """Called by `CheckpointSaverHook` around its saves; `after_save` returning True asks
    the session to stop. Each method does nothing unless overridden."""

    def begin(self):
        pass

    def before_save(self, session, global_step_value):
        pass

    def after_save(self, session, global_step_value):
        pass

    def end(self, session, global_step_value):
        pass


@export("compat.v1.train.assert_global_step")
def assert_global_step(global_step_tensor):
    """Checks that `global_step_tensor` can be a global step: an integer scalar variable
    or tensor (TypeError otherwise)."""
    if not isinstance(global_step_tensor, (Variable, Tensor)):
        raise TypeError(f"Existing \"global_step\" must be a Variable or Tensor: "
                        f"{global_step_tensor}.")
    if not global_step_tensor.dtype.is_integer:
        raise TypeError(f"Existing \"global_step\" does not have integer type: "
                        f"{global_step_tensor.dtype}")
    if global_step_tensor.shape.rank != 0 and global_step_tensor.shape.is_fully_defined():
        raise TypeError(f"Existing \"global_step\" is not scalar: {global_step_tensor.shape}")


@export("compat.v1.train.basic_train_loop")
def basic_train_loop(supervisor, train_step_fn, args=None, kwargs=None, master=""):
    """Calls ``train_step_fn(session, *args, **kwargs)`` in `supervisor`'s managed session
    until the supervisor asks to stop."""
    with supervisor.managed_session(master) as sess:
        while not supervisor.should_stop():
            train_step_fn(sess, *(args or []), **(kwargs or {}))

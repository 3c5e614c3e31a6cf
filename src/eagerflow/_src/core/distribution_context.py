"""Which `tf.distribute` strategy and replica are current, for ops that depend on it.

`eagerflow._src.distribute` pushes (strategy, replica context) pairs here; a
``None`` replica context means cross-replica context (inside `scope()`, outside
`run`). Ops such as ``tf.nn.compute_average_loss`` read it without importing
the strategies.
"""
import threading


class _State(threading.local):
    def __init__(self):
        self.stack = []  # (strategy, replica_context or None), innermost last


state = _State()


def in_cross_replica_scope():
    """Whether a strategy's `scope()` is active outside its `run`."""
    return bool(state.stack) and state.stack[-1][1] is None


def num_replicas_in_sync():
    """How many replicas the current strategy runs in sync (1 outside any strategy)."""
    return state.stack[-1][0].num_replicas_in_sync if state.stack else 1


def synced_replica():
    """The replica context of a `run` whose replicas synchronize (more than one), or None:
    code that must combine their values (an optimizer's gradients) uses its `all_reduce`
    and `merge_call`."""
    if not state.stack:
        return None
    replica = state.stack[-1][1]
    return replica if getattr(replica, "_thread", None) is not None else None


def current_strategy():
    """The strategy whose scope or `run` is current, or None outside any."""
    return state.stack[-1][0] if state.stack else None


def replica_id_in(strategy):
    """The id (a Python int) of the replica of `strategy`'s `run` this code runs as; None
    outside its `run` (cross-replica context, or another strategy's)."""
    if not state.stack or state.stack[-1][0] is not strategy or state.stack[-1][1] is None:
        return None
    return int(getattr(state.stack[-1][1], "_replica_id", 0))

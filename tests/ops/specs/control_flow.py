"""Specs of the control-flow ops (graph/control_flow.py): If, Case and While, each run
eagerly as the op a traced function holds, its attributes naming the bodies in the
function's library."""
import numpy as np

import eagerflow as tf
from tests.internals import CallGradient, dispatch
from tests.ops.spec import OpSpec, graph_op, rand


def _checked(x):
    """`x` after an assertion on it: a stateful op in a body."""
    tf.debugging.Assert(tf.reduce_all(tf.math.is_finite(x)), [x])
    return x


def _if(p, x):
    return tf.cond(p, lambda: x * 2.0, lambda: x - 1.0)


def _stateful_if(p, x):
    return tf.cond(p, lambda: _checked(x) * 2.0, lambda: x - 1.0)


def _case(i, x):
    return tf.switch_case(i, [lambda: x * 2.0, lambda: x - 1.0, lambda: x * x])


def _stateful_case(i, x):
    return tf.switch_case(i, [lambda: x * 2.0, lambda: _checked(x) - 1.0, lambda: x * x])


def _while(i, s, x):
    return tf.while_loop(lambda i, s: i < 3, lambda i, s: (i + 1, s * 0.5 + x), [i, s])


def _stateful_while(i, s, x):
    return tf.while_loop(lambda i, s: i < 3, lambda i, s: (i + 1, _checked(s) * 0.5 + x),
                         [i, s])


def _while_ref(i, s, x):
    while i < 3:
        i, s = i + 1, s * 0.5 + x
    return [np.int32(i), s]


_IF_ARGS = [np.array(True), rand(3)]
_CASE_ARGS = [np.array(1, np.int32), rand(3)]
_WHILE_ARGS = [np.array(0, np.int32), rand(3, seed=1), rand(3, seed=2)]

SPECS = [
    OpSpec("StatelessIf", graph_op(_if, "StatelessIf"), _IF_ARGS, lambda p, x: x * 2),
    OpSpec("StatelessIf", graph_op(_if, "StatelessIf"), [np.array(False), rand(3)],
           lambda p, x: x - 1, name="StatelessIf-false"),
    OpSpec("If", graph_op(_stateful_if, "If"), _IF_ARGS, lambda p, x: x * 2),
    OpSpec("StatelessCase", graph_op(_case, "StatelessCase"), _CASE_ARGS, lambda i, x: x - 1),
    OpSpec("Case", graph_op(_stateful_case, "Case"), _CASE_ARGS, lambda i, x: x - 1),
    OpSpec("StatelessWhile", graph_op(_while, "StatelessWhile"), _WHILE_ARGS, _while_ref,
           rtol=1e-5),
    OpSpec("While", graph_op(_stateful_while, "While"), _WHILE_ARGS, _while_ref, rtol=1e-5),
]


# -- the call ops, as a tape records a call of a traced function ----------------------------

_CALLS = {}  # fn -> its CallGradient (which the call op's `f` names)


def _call(fn, op_type):
    """``run(*tensors)``: the call op of ``function(fn)`` traced on tensors like them,
    dispatched on them as a tape records a first-order call."""
    def run(*tensors):
        key = (fn, tuple((t.dtype, tuple(t.shape)) for t in tensors))
        calls = _CALLS.get(key)
        if calls is None:
            concrete = tf.function(fn, autograph=False).get_concrete_function(
                *[tf.TensorSpec(t.shape, t.dtype) for t in tensors])
            calls = _CALLS[key] = CallGradient(concrete)
        assert calls._op.name == op_type
        attrs = {"f": calls.body.name, "Tin": tuple(t.dtype for t in tensors),
                 "Tout": tuple(t.dtype for t in calls.body.outputs), "_higher": False,
                 "_saved": ()}
        return dispatch(calls._op, tensors, attrs)
    return run


def _affine(x, y):
    return x * y + 1.0, y - x


def _checked_affine(x, y):
    return _checked(x) * y + 1.0, y - x


_CALL_GRAD = "differentiated as a recorded call, with the values its backward keeps " \
             "(tests/function/test_call_gradients.py)"

SPECS += [
    OpSpec("PartitionedCall", _call(_affine, "PartitionedCall"), [rand(3), rand(3, seed=1)],
           lambda x, y: [x * y + 1, y - x], grad=_CALL_GRAD),
    OpSpec("StatefulPartitionedCall", _call(_checked_affine, "StatefulPartitionedCall"),
           [rand(3), rand(3, seed=1)], lambda x, y: [x * y + 1, y - x], grad=_CALL_GRAD),
    OpSpec("IdentityN", lambda x, y: tf.identity_n([x, y]), [rand(2, 3), rand(4)],
           lambda x, y: [x, y]),
]

"""Batched backward passes: a jacobian's rows computed at once equal rows computed one by one."""
import numpy as np
import pytest

import eagerflow as tf
from tests.internals import compiled_backward, tape_compiler, vectorize
from tests.ops.specs import all_specs

GRAD_SPECS = [s for s in all_specs() if s.grad is True]


def _floating(a):
    return isinstance(a, np.ndarray) and a.dtype.kind == "f"


def _jacobians(spec):
    tensors = [tf.constant(a) for a in spec.args]
    wrt = [t for t, a in zip(tensors, spec.args) if _floating(a)]
    with tf.GradientTape() as tape:
        tape.watch(wrt)
        out = spec.fn(*tensors)
        outs = [o for o in (out if isinstance(out, (list, tuple)) else [out])
                if o.dtype.is_floating]
        target = tf.concat([tf.reshape(tf.cast(o, tf.float64), [-1]) for o in outs], 0)
    return tape.jacobian(target, wrt), int(target.shape[0])


@pytest.mark.parametrize("spec", GRAD_SPECS, ids=lambda s: s.name)
def test_batched_jacobian_equals_row_by_row(spec, monkeypatch):
    if not any(_floating(a) for a in spec.args):
        pytest.skip("no floating input")
    out = spec.fn(*map(tf.constant, spec.args))
    if not any(o.dtype.is_floating for o in (out if isinstance(out, (list, tuple)) else [out])):
        pytest.skip("no floating output")
    tape_compiler._cache.clear()
    failures = []
    run_batch = tape_compiler._Program.run_batch

    def checked(self, values, weightings):  # the batched pass must run, not fall back
        try:
            return run_batch(self, values, weightings)
        except Exception as e:
            failures.append(e)
            raise
    monkeypatch.setattr(tape_compiler._Program, "run_batch", checked)
    batched, n = _jacobians(spec)
    assert not failures, failures
    if n > 1:  # a single row is played as a gradient
        programs = [p for p in tape_compiler._cache.values()
                    if isinstance(p, tape_compiler._Program)]
        # lists of tensors have no batch axis: their rows may run one by one (a loop's
        # gradient keeps the values of its iterations in lists), nor have variants of
        # ragged rows
        assert programs and (programs[0].batch is not None
                             or spec.name.startswith(("TensorList", "EmptyTensorList",
                                                  "RaggedTensorToVariant"))
                             or spec.op.endswith("While"))
    monkeypatch.setattr(compiled_backward, "run", None)  # every row played eagerly
    rows, _ = _jacobians(spec)
    for a, b in zip(batched, rows):
        assert (a is None) == (b is None)
        if a is not None:
            np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-6, atol=1e-12)


def test_common_gradient_ops_have_batching_rules():

    def op_of(fn):
        graph = tf.function(fn).get_concrete_function(tf.TensorSpec([2, 3])).graph
        return [o for o in graph.get_operations()
                if o.op_def is not None and o.type != "Identity"][-1]

    for fn in (lambda x: x * 2.0, lambda x: tf.exp(x), lambda x: x > 0.0,
               lambda x: tf.reduce_sum(x, 1), lambda x: tf.reshape(x, [3, 2]),
               lambda x: tf.broadcast_to(x, [4, 2, 3]), lambda x: tf.transpose(x),
               lambda x: tf.matmul(x, x, transpose_b=True), lambda x: tf.nn.relu(x),
               lambda x: tf.cast(x, tf.float64)):
        op = op_of(fn)
        assert vectorize._rule(op) is not None, op.type
    assert vectorize._rule(op_of(lambda x: tf.cumsum(x, 1))) is None  # per element instead


def test_batched_runs_ops_without_a_rule_per_element():
    x = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.cumsum(x * x, axis=1, reverse=True)
    tape_compiler._cache.clear()
    jac = tape.jacobian(y, x).numpy()
    expected = np.zeros((2, 3, 2, 3))
    for i in range(2):
        for j in range(3):
            expected[i, j, i, j:] = 2 * x.numpy()[i, j:]
    np.testing.assert_allclose(jac, expected)


def test_batch_jacobian_is_batched_too():
    x = tf.constant(np.arange(6.0).reshape(2, 3))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.matmul(x, tf.ones([3, 4], tf.float64)) * tf.reduce_sum(x, 1, keepdims=True)
    tape_compiler._cache.clear()
    jac = tape.batch_jacobian(y, x)
    assert jac.shape == [2, 4, 3]
    s = x.numpy().sum(1)
    expected = np.broadcast_to((s[:, None, None] + s[:, None, None]), (2, 4, 3))
    np.testing.assert_allclose(jac.numpy(), expected)
    assert any(isinstance(p, tape_compiler._Program) and p.batch is not None
               for p in tape_compiler._cache.values())

"""The registry sweep: every op has a spec; values, shape rules and dtypes are checked."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow import TensorShape
from tests.internals import context, registry, unknown_shape
from tests.ops.specs import all_specs

SPECS = all_specs()


class _Recorder:
    """Sees every dispatched op (as a tape would) so shape rules can be checked."""

    def __init__(self):
        self.seen = []

    def record(self, op, inputs, attrs, outputs):
        self.seen.append((op, inputs, attrs, outputs))


class _Static:
    """A stand-in input with only static information: `.shape` and `.dtype`."""

    def __init__(self, shape, dtype):
        self.shape, self.dtype = shape, dtype


def _as_list(x):
    return list(x) if isinstance(x, (tuple, list)) else [x]


def _run(spec):
    tensors = [tf.constant(a) for a in spec.args]
    recorder = _Recorder()
    with context.recording(recorder):
        out = spec.fn(*tensors)
    return out, recorder.seen


def _check_rule(op, inputs, attrs, outputs):
    outs = _as_list(outputs)
    rule = _as_list(op.shape(*inputs, **attrs)) if op.multi else [op.shape(*inputs, **attrs)]
    assert len(rule) == len(outs), f"{op.name}: rule gives {len(rule)} outputs, op {len(outs)}"
    for (shape, dtype), t in zip(rule, outs):
        assert TensorShape(shape).is_compatible_with(t.shape), \
            f"{op.name}: static shape {shape} vs real {t.shape}"
        assert dtype == t.dtype, f"{op.name}: static dtype {dtype} vs real {t.dtype}"
    # With every dim unknown the rule must still run and stay compatible.
    blurred = [_Static(unknown_shape(i.shape.rank), i.dtype) if hasattr(i, "shape") else i
               for i in inputs]
    rule = _as_list(op.shape(*blurred, **attrs)) if op.multi else [op.shape(*blurred, **attrs)]
    for (shape, dtype), t in zip(rule, outs):
        assert TensorShape(shape).is_compatible_with(t.shape), \
            f"{op.name}: unknown-dims rule {shape} vs real {t.shape}"
        assert dtype == t.dtype


def test_every_op_has_a_spec():
    covered = {s.op for s in SPECS}
    missing = sorted(set(registry.all_ops()) - covered)
    assert not missing, f"ops without a test spec: {missing}"


def _check_declared(op):
    """Every interpreter has what it needs of `op`: a rule, or properties that give one."""
    missing = registry.undeclared(op)
    assert not missing, f"{op.name} declares nothing for: {', '.join(missing)}"


def test_every_op_declares_a_rule_for_every_interpreter():
    for op in registry.all_ops().values():
        _check_declared(op)


def _unregistered(name, **properties):
    op = registry.OpDef(name, lambda xp, x: x[..., ::-1], lambda x: (x.shape, x.dtype),
                        multi=False, tied=(0,), dtypes=None, stateful=False,
                        not_differentiable=None)
    for key, value in properties.items():
        setattr(op, key, value)
    return op


def test_an_op_missing_a_rule_fails_the_sweep():
    with pytest.raises(AssertionError, match="Reverse declares nothing for: gradient, batching"):
        _check_declared(_unregistered("Reverse"))
    # a reason for having no gradient, and a property that gives the batching rule
    _check_declared(_unregistered("Flip", not_differentiable="an example", elementwise=True))
    with pytest.raises(AssertionError, match="Flip declares nothing for: batching"):
        _check_declared(_unregistered("Flip", not_differentiable="an example"))


def test_specs_name_registered_ops():
    unknown = sorted({s.op for s in SPECS} - set(registry.all_ops()))
    assert not unknown, f"specs for unregistered ops: {unknown}"


@pytest.fixture
def unseeded():
    """The random specs' references assume no global seed; an earlier test may have set one."""
    tf.random.set_seed(None)


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.name)
def test_spec(spec, unseeded):
    out, seen = _run(spec)
    assert any(op.name == spec.op for op, *_ in seen), f"{spec.op} was not dispatched"
    for op, inputs, attrs, outputs in seen:
        _check_rule(op, inputs, attrs, outputs)
    got = [np.asarray(t) for t in _as_list(out)]
    if spec.check is not None:
        spec.check(got if isinstance(out, (tuple, list)) else got[0], spec.args)
        return
    want = spec.ref(*spec.args)
    want = _as_list(want) if isinstance(out, (tuple, list)) else [want]
    assert len(got) == len(want)
    for g, w in zip(got, want):
        w = np.asarray(w)
        assert g.shape == w.shape, f"shape {g.shape} != {w.shape}"
        assert g.dtype == w.dtype, f"dtype {g.dtype} != reference {w.dtype}"
        if w.dtype.kind in "fc":
            np.testing.assert_allclose(g, w, rtol=spec.rtol, atol=spec.atol)
        else:
            np.testing.assert_array_equal(g, w)

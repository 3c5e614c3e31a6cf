"""`ForwardAccumulator`: Jacobian-vector products (forward-mode autodiff).

The accumulator records the block's ops on a persistent tape watching the
primals. ``jvp(y)`` is the derivative of y along the tangents: J t, where J is
dy/dprimals. The backward pass gives u -> J^T u, linear in u; its gradient
with respect to u of <J^T u, t> is J t. So a JVP costs two backward passes,
and it is recorded like any other computation (by enclosing tapes too).

>>> x = tf.constant(2.0)
>>> with tf.autodiff.ForwardAccumulator(x, tf.constant(1.0)) as acc:
...     y = x ** 3
>>> acc.jvp(y)
<tf.Tensor: shape=(), dtype=float32, numpy=12.0>
"""
from eagerflow._src.autodiff.backprop import backprop
from eagerflow._src.autodiff.tape import (
    GradientTape, UnconnectedGradients, _Recorder, is_differentiable)
from eagerflow._src.backend.api_export import export
from eagerflow._src.core import context, nest
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.core.registry import get as get_op
from eagerflow._src.core.variables import Variable
from eagerflow._src.ops import array_ops, math_ops
from eagerflow._src.ops import reduction_ops
from eagerflow._src.ops.indexed_slices import IndexedSlices


_IDENTITY_N = get_op("IdentityN")


class _TangentRecorder(_Recorder):
    """An accumulator's recorder. As in TF, a custom gradient's outputs that already have a
    tangent from the ops its function ran take it (its IdentityN is a plain identity here);
    otherwise (a forward through stop_gradient, or through ops whose gradients are None,
    like round's) the JVP transposes its grad_fn."""
    __slots__ = ()

    def record(self, op, inputs, attrs, outputs):
        # (the IdentityN's first input is the function's first output)
        if (op is _IDENTITY_N and "_gradient_op_type" in attrs and id(inputs[0]) in self.watched
                and self._has_tangent(inputs[0])):
            attrs = {k: v for k, v in attrs.items() if k != "_gradient_op_type"}
        super().record(op, inputs, attrs, outputs)

    def _has_tangent(self, t):
        """Whether a backward pass from `t` reaches a primal (else t's JVP is None)."""
        primals = [self.watched[i] for i in self.roots if is_differentiable(self.watched[i])]
        if not primals:
            return False
        with context.unrecorded():
            grads = backprop(self.entries, [t], None, primals, self.watched)
        return any(g is not None for g in grads)


@export("autodiff.ForwardAccumulator")
class ForwardAccumulator:
    """Computes Jacobian-vector products of what runs in its block along `tangents`."""

    def __init__(self, primals, tangents):
        self._primals = nest.flatten(primals)
        flat_tangents = nest.flatten(tangents)
        if len(flat_tangents) != len(self._primals):
            raise ValueError(f"primals and tangents must have the same structure, got "
                             f"{len(self._primals)} primals and {len(flat_tangents)} tangents.")
        if len({id(p) for p in self._primals}) != len(self._primals):  # (TF's text, its {} too)
            raise ValueError("Tensor {} was specified as a primal multiple times. This may "
                             "indicate an error. If it was intended, please sum the "
                             "corresponding tangents.")
        self._tangents = []
        for primal, tangent in zip(self._primals, flat_tangents):
            self._tangents.append(convert_to_tensor(tangent, dtype=primal.dtype))
        self._tape = GradientTape(persistent=True, watch_accessed_variables=False)
        self._tape._recorder = _TangentRecorder(False, True)
        self._tape._watch(self._primals, "primal")
        self._tape._started = True  # (TF's accumulator exists from here: before its block,
        # or without one, a primal's JVP is its tangent and any other tensor's is None)
        self._around = []  # the tapes and accumulators recording around the block

    def __enter__(self):
        for r in context.get().recorders:
            if isinstance(r, _Recorder) and r not in self._around:
                self._around.append(r)
        self._tape.__enter__()
        return self

    def __exit__(self, *exc):
        self._tape.__exit__(*exc)

    def jvp(self, primals, unconnected_gradients=UnconnectedGradients.NONE):
        """The derivative of each tensor of `primals` along the tangents (None, or zeros
        with ``unconnected_gradients='zero'``, where it does not depend on them).

        TF computes tangents as the block runs, so the tapes and accumulators around
        the block record their computation (and no others): here they record the
        computation of the JVP, wherever it is asked for.
        """
        others = [r for r in context.get().recorders if not isinstance(r, _Recorder)]
        with context.recorded_by(others + self._around):
            return self._jvp(primals, unconnected_gradients)

    def _jvp(self, primals, unconnected_gradients):
        def one(y):
            if isinstance(y, Variable):
                # a watched variable's own tangent; any other variable's reads are unconnected
                for primal, tangent in zip(self._primals, self._tangents):
                    if primal is y:
                        return tangent
                y = y.value()
            elif isinstance(y, IndexedSlices):  # (a gather's gradient) its values' tangents
                values = one(y.values)
                return None if values is None else IndexedSlices(values, y.indices,
                                                                 y.dense_shape)
            result = None
            if is_differentiable(y):
                u = array_ops.zeros_like(y)
                with GradientTape() as outer:
                    outer.watch(u)
                    grads = self._tape.gradient(y, self._primals, output_gradients=u)
                    dots = [reduction_ops.reduce_sum(math_ops.multiply(g, t))
                            for g, t in zip(grads, self._tangents) if g is not None]
                    total = reduction_ops.add_n(dots) if dots else None
                if total is not None:
                    result = outer.gradient(total, u)
            if result is None and UnconnectedGradients(
                    unconnected_gradients) is UnconnectedGradients.ZERO:
                result = array_ops.zeros_like(y)
            return result
        return nest.map_structure(one, primals)

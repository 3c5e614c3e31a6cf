"""`GradientTape`: records the ops run on watched tensors, then plays them backwards.

A tape is a recorder of the per-thread context (see core/context.py): while
it is active, `dispatch` shows it every op; it keeps only ops that touch a
watched tensor, so work on unwatched values costs one membership test.

>>> x = tf.constant(3.0)
>>> with tf.GradientTape() as tape:
...     tape.watch(x)
...     y = x * x
>>> tape.gradient(y, x)
<tf.Tensor: shape=(), dtype=float32, numpy=6.0>
"""
import enum

import numpy as np

from eagerflow._src.autodiff import compiled_backward, gradient_names
from eagerflow._src.autodiff.backprop import backprop, connected
from eagerflow._src.backend.api_export import export
from eagerflow._src.backend.log import logger as _logger
from eagerflow._src.core import context, dtypes, errors, nest
from eagerflow._src.core.convert import convert_to_tensor, is_tensor_like
from eagerflow._src.core.tensor import EagerTensor, Tensor
from eagerflow._src.core.variables import _READ, ResourceHandle, Variable, variable_of
from eagerflow._src.ops import array_ops, cast_ops, math_ops

# Lists (variant) carry the gradients of their elements; a resource (a table's handle) counts
# too, as in TF (and, as a variant, is then an input of the calls and branches using it).
_DIFFERENTIABLE = frozenset(d for d in dtypes.ALL if d.is_floating or d.is_complex) | {
    dtypes.variant, dtypes.resource}
_warnings_given = {}  # kind -> how many times it was logged


def _warn_first(kind, message, n=5):
    """Logs `message` if warnings of its `kind` were logged fewer than `n` times (as TF)."""
    given = _warnings_given.get(kind, 0)
    if given < n:
        _warnings_given[kind] = given + 1
        _logger.warning(message)


@export("UnconnectedGradients")
class UnconnectedGradients(enum.Enum):
    """What `gradient` returns for a source the target does not depend on."""

    NONE = "none"
    ZERO = "zero"


class _Recorder:
    """The recording part of a tape: watched values and the ops that touched them."""

    __slots__ = ("entries", "watched", "roots", "variables", "watch_accessed_variables",
                 "persistent")

    def __init__(self, watch_accessed_variables, persistent=False):
        self.entries = []
        self.watched = {}      # id -> watched tensor or variable (kept alive)
        self.roots = set()     # ids of the values watched directly, not as an op's output
        self.variables = {}    # id -> watched variable, in watch order
        self.watch_accessed_variables = watch_accessed_variables
        self.persistent = persistent  # its gradients may be differentiated again

    def watch(self, value, listed=True):
        self.watched[id(value)] = value
        self.roots.add(id(value))
        if listed and isinstance(value, Variable):
            self.variables[id(value)] = value

    def record(self, op, inputs, attrs, outputs):
        # as TF's: an op is recorded when it reads a watched tensor that gradients flow
        # through (an integer one, like a top_k's indices, does not count)
        watched = self.watched
        for t in inputs:
            if id(t) in watched and t.dtype in _DIFFERENTIABLE:
                break
        else:
            if not (op is _READ and self.watch_accessed_variables and inputs[0].trainable):
                return
            self.watch(inputs[0])  # trainable variables are watched when read
        if op.not_differentiable and not (attrs and "_gradient_op_type" in attrs):
            return  # its outputs stay unconnected: their gradients are None
        self.entries.append((op, inputs, attrs, outputs))
        for o in (outputs if op.multi else (outputs,)):
            watched[id(o)] = o


def watch_accessed(variables):
    """Every active tape that watches accessed variables watches the trainable `variables`.

    For variables read where tapes do not see the read: inside a custom
    gradient's function, a branch or a loop body.
    """
    for recorder in context.get().recorders:
        if isinstance(recorder, _Recorder) and recorder.watch_accessed_variables:
            for v in variables:
                if v.trainable:
                    recorder.watch(v)


def records(inputs):
    """Whether an active tape would record an op reading `inputs` (it watches one)."""
    return any(isinstance(r, _Recorder) and any(id(t) in r.watched and t.dtype in _DIFFERENTIABLE
                                                for t in inputs)
               for r in context.get().recorders)


def _check_parallel_iterations(parallel_iterations, use_pfor, method):
    """TF's checks of a Jacobian's `parallel_iterations`: vectorized, it must exceed 1 (its
    vectorization fails else); in a loop, be positive."""
    if parallel_iterations is None:
        return
    if use_pfor:
        if parallel_iterations <= 1:
            raise ValueError(f"Encountered an exception while vectorizing the {method} "
                             f"computation. Vectorization can be disabled by setting "
                             f"experimental_use_pfor to False.")
    elif parallel_iterations < 1:
        raise TypeError("'parallel_iterations' must be a positive integer.")


@export("GradientTape", "autodiff.GradientTape")
class GradientTape:
    """Records operations for automatic differentiation.

    Trainable variables read inside the block are watched automatically;
    tensors must be watched with `watch`.  A non-persistent tape computes
    gradients once; `persistent=True` allows several calls.
    """

    def __init__(self, persistent=False, watch_accessed_variables=True):
        self._persistent = persistent
        self._watch_accessed_variables = watch_accessed_variables
        self._recorder = _Recorder(watch_accessed_variables, persistent)
        self._recording = None   # while inside `with`: the context recorded into
        self._used = False
        self._started = False    # (TF's tape exists once first entered)
        self._naming = None      # how a pass built into a graph names its ops (`tf.gradients`)

    # -- context ----------------------------------------------------------------
    def __enter__(self):
        self._push()
        return self

    def __exit__(self, *exc):
        if self._recording is not None:
            self._pop()

    def _push(self):
        if self._recording is not None:
            raise ValueError("Tape is still recording, This can happen if you try to re-enter "
                             "an already-active tape.")
        self._recording = context.add_recorder(self._recorder)
        self._started = True

    def _pop(self):
        ctx, self._recording = self._recording, None
        context.remove_recorder(ctx, self._recorder)

    def stop_recording(self):
        """A context manager in which this tape records nothing.

        >>> x = tf.constant(3.0)
        >>> with tf.GradientTape() as tape:
        ...     tape.watch(x)
        ...     with tape.stop_recording():
        ...         y = x * 2           # not differentiated
        ...     z = x * y
        >>> tape.gradient(z, x)
        <tf.Tensor: shape=(), dtype=float32, numpy=6.0>
        """
        return _Paused(self)

    def reset(self):
        """Forgets everything recorded so far (the tape stays active)."""
        if self._recording is None:
            raise ValueError("Tape is not recording.")
        self._pop()
        self._recorder = _Recorder(self._watch_accessed_variables, self._persistent)
        self._push()
        self._used = False

    # -- watching -----------------------------------------------------------------
    def watch(self, tensor):
        """Ensures `tensor` (or a nested structure of tensors/variables) is traced.

        As in TF, a tape watches nothing while no tape records (in its own
        `stop_recording` block, or between two of its `with` blocks).
        """
        self._watch(tensor, "tensor")

    def _watch(self, tensor, what):
        idle = (what == "tensor" and self._started
                and not any(type(r) is _Recorder for r in context.get().recorders))
        for t in _watchable(tensor):
            # (a variable's handle watches the variable, which then is not listed among the
            # watched variables, as in TF)
            variable = _variable_of_handle(t)
            if variable is not None:
                if not idle:
                    self._recorder.watch(variable, listed=False)
                continue
            graph = getattr(t, "graph", None)
            lifted = getattr(graph, "lifts_eager_ops", False) and context.get().graph is not graph
            if not is_tensor_like(t) or lifted:  # (a Keras tensor is none of those, in TF)
                raise ValueError(f"Passed in object {t} of type "
                                 f"{type(t).__name__!r}, not tf.Tensor or tf.Variable or "
                                 f"ExtensionType.")
            # (a ForwardAccumulator's primals: TF's own message, for any non-float dtype)
            if not (t.dtype.is_floating if what == "primal" else is_differentiable(t)):
                _warn_first(f"watched {what}", f"The dtype of the watched {what} must be "
                            f"floating (e.g. tf.float32), got {t.dtype!r}")
            if not idle:
                self._recorder.watch(t)

    def _record_operations(self, operations, held=()):
        """Records graph `operations` (in creation order) as `dispatch` recorded them while
        they were built; no gradient flows through the operations of the tensors `held`."""
        held = {id(t) for t in held}
        self._started = True
        for op in operations:
            if op.op_def is None:  # placeholders and constants
                continue
            if not any(id(o) in held for o in op.outputs):
                override = op.graph.__dict__.get("gradient_op_types", {}).get(op)
                attrs = op.attrs if override is None else {**op.attrs,
                                                           "_gradient_op_type": override}
                self._recorder.record(op.op_def, op.inputs, attrs,
                                      op.outputs if op.op_def.multi else op.outputs[0])

    def watched_variables(self):
        """The variables this tape watches, in the order they were created (as TF)."""
        return tuple(sorted(self._recorder.variables.values(), key=lambda v: v._unique_id))

    # -- gradients ------------------------------------------------------------------
    def gradient(self, target, sources, output_gradients=None,
                 unconnected_gradients=UnconnectedGradients.NONE):
        """Gradients of `target` (summed over its leaves) with respect to `sources`.

        `sources` and the result share one nested structure; `output_gradients`
        weights each target leaf (default: ones).
        """
        _check_unconnected(unconnected_gradients)
        if target is None:
            raise TypeError("Argument `target` should be a list or nested structure of Tensors, "
                            "Variables or CompositeTensors to be differentiated, but received "
                            "None.")
        targets = [_checked_target(_gradient_components(t)) for t in nest.flatten(target)]
        composite_sources = nest.flatten(sources)
        flat_sources = [_gradient_components(s) for s in composite_sources]
        weights = None if output_gradients is None else _output_gradients(targets,
                                                                           output_gradients)
        results = [rows[0] if rows else None
                   for rows in self._backward(targets, flat_sources, [weights])]
        if (unconnected_gradients is not UnconnectedGradients.NONE
                and UnconnectedGradients(unconnected_gradients) is UnconnectedGradients.ZERO):
            results = [array_ops.zeros_like(s) if g is None else g
                       for s, g in zip(flat_sources, results)]
        results = [_with_gradient_components(s, g) for s, g in zip(composite_sources, results)]
        return nest.pack_sequence_as(sources, results)

    def jacobian(self, target, sources, unconnected_gradients=UnconnectedGradients.NONE,
                 parallel_iterations=None, experimental_use_pfor=True):
        """d(target)/d(sources): for each source, shape ``target.shape + source.shape``.

        Each row is the backward pass of one element of `target`.  They run
        as one batched pass (``graph.vectorize``) when the pass compiles, as
        TF's pfor; otherwise one after another (the recorded tape is reused).
        """
        _check_unconnected(unconnected_gradients)
        target = _checked_target(_jacobian_target(target))
        if not experimental_use_pfor and not self._persistent and context.executing_eagerly():
            # TF's eager while_loop fallback reruns the tape once per row
            raise RuntimeError("GradientTape must be created with persistent=True to compute the "
                               "jacobian with eager execution enabled and with  "
                               "experimental_use_pfor set to False.")
        _check_parallel_iterations(parallel_iterations, experimental_use_pfor, "jacobian")
        if not target.shape.is_fully_defined():
            return nest.pack_sequence_as(sources, self._rows_in_loop(
                target, nest.flatten(sources), unconnected_gradients, per_example=False))
        n = target.shape.num_elements()
        if n == 0:  # no rows: one pass of zero weights tells which sources it reaches
            rows = self._backward([target], nest.flatten(sources), compiled_backward.Rows(
                [np.zeros([1] + target.shape.as_list(), target.dtype.as_numpy_dtype)]))
            return nest.pack_sequence_as(sources, [
                self._assemble(r, [1], s, unconnected_gradients,
                               lambda _, s=s: array_ops.zeros(_joined(target.shape, s), s.dtype),
                               _joined(target.shape, s))
                for r, s in zip(rows, nest.flatten(sources))])
        eye = np.eye(n, dtype=target.dtype.as_numpy_dtype)
        rows = self._backward([target], nest.flatten(sources),
                              compiled_backward.Rows([eye.reshape([n] + target.shape.as_list())]))
        return nest.pack_sequence_as(sources, [
            self._assemble(r, target.shape.as_list(), s, unconnected_gradients,
                           lambda g, s=s: array_ops.reshape(g, _joined(target.shape, s)),
                           _joined(target.shape, s))
            for r, s in zip(rows, nest.flatten(sources))])

    def batch_jacobian(self, target, source, unconnected_gradients=UnconnectedGradients.NONE,
                       parallel_iterations=None, experimental_use_pfor=True):
        """Per-example Jacobians: ``target[b, y...]`` by ``source[b, x...]``.

        Examples are independent, so each backward pass covers one output
        position for the whole batch at once (and those passes run batched,
        as `jacobian`'s rows do).
        """
        _check_unconnected(unconnected_gradients)
        target = _checked_target(_jacobian_target(target))
        if target.shape.rank == 0:  # (TF reads the first of its dimensions)
            raise IndexError("list index out of range")
        dims = target.shape.as_list()
        target.shape.with_rank_at_least(2)  # TF's ValueError for a target or source of rank < 2
        source.shape.with_rank_at_least(2)
        if source.shape.rank is None or not source.shape[:1].is_compatible_with(dims[:1]):
            raise ValueError(f"Need first dimension of target shape ({target.shape}) and source "
                             f"shape ({source.shape}) to match.")
        if not experimental_use_pfor and not self._persistent and context.executing_eagerly():
            raise RuntimeError("GradientTape must be created with persistent=True to compute the "
                               "batch_jacobian with eager execution enabled and  with "
                               "experimental_use_pfor set to False.")
        _check_parallel_iterations(parallel_iterations, experimental_use_pfor,
                                   "batch_jacobian")
        if not target.shape.is_fully_defined():
            found = self._rows_in_loop(target, [source], unconnected_gradients,
                                       per_example=True)[0]
            if found is None:  # as TF: zeros in the target's dtype, never None
                return array_ops.zeros(array_ops.concat(
                    [array_ops.shape(target), array_ops.shape(source)[1:]], 0), target.dtype)
            return found
        per_example = int(np.prod(dims[1:], dtype=np.int64))
        # pass j weights output position j of every example
        eye = np.eye(per_example, dtype=target.dtype.as_numpy_dtype)[:, None, :]
        weights = np.broadcast_to(eye, (per_example, dims[0], per_example))
        rows, = self._backward([target], [source], compiled_backward.Rows(
            [weights.reshape([per_example] + dims)]))

        def arrange(stacked):  # (y, b, x...) -> (b, y..., x...)
            moved = array_ops.transpose(stacked, [1, 0] + list(range(2, source.shape.rank + 1)))
            return array_ops.reshape(moved, _joined(dims, source, 1))
        found = self._assemble(rows, [per_example], source, unconnected_gradients, arrange,
                               zeros_shape=_joined(dims, source, 1))
        # an unconnected target gives zeros in its own dtype whatever unconnected_gradients
        # says, as in TF
        return array_ops.zeros(_joined(dims, source, 1), target.dtype) if found is None else found

    def _rows_in_loop(self, target, sources, unconnected, per_example):
        """Jacobians (or per-example ones) of a target whose size is known only when the
        function runs: one backward pass per row, in a loop of the graph."""
        size = array_ops.size(target)
        rows = size // array_ops.shape(target)[0] if per_example else size
        reached = [False] * len(sources)

        def one_row(i):
            weights = cast_ops.cast(math_ops.equal(array_ops.range(rows), i), target.dtype)
            if per_example:  # position i of every example
                weights = array_ops.broadcast_to(weights, array_ops.stack(
                    [array_ops.shape(target)[0], rows]))
            grads = self._backward([target], sources,
                                   [[array_ops.reshape(weights, array_ops.shape(target))]])
            out = []
            for k, (s, g) in enumerate(zip(sources, grads)):
                g = None if g is None else g[0]
                reached[k] = reached[k] or g is not None
                out.append(array_ops.zeros_like(s) if g is None else g)
            return out

        # (at least one pass, cut off after, so that an empty target still stacks rows of
        # a known shape)
        stacked = compiled_backward.map_rows(
            one_row, array_ops.range(math_ops.maximum(rows, 1)),
            fn_output_signature=[s.dtype for s in sources])
        results = []
        for s, g, hit in zip(sources, stacked, reached):
            if not hit and UnconnectedGradients(unconnected) is UnconnectedGradients.NONE:
                results.append(None)
                continue
            g = g[:rows]
            if per_example:  # (y, b, x...) -> (b, y..., x...)
                g = array_ops.transpose(g, [1, 0] + list(range(2, s.shape.rank + 1)))
                shape = array_ops.concat([array_ops.shape(target), array_ops.shape(s)[1:]], 0)
                static = target.shape.concatenate(s.shape[1:])
            else:
                shape = array_ops.concat([array_ops.shape(target), array_ops.shape(s)], 0)
                static = target.shape.concatenate(s.shape)
            g = array_ops.reshape(g, shape)
            g.set_shape(static)
            results.append(g)
        return results

    def _backward(self, targets, sources, weightings):
        """One backward pass per weighting of `targets`; for each source, its gradients.

        A source gets None when no pass reaches it (unwatched, not floating or
        unconnected).  A one-shot tape is released afterwards.
        """
        if self._used and not self._persistent or not self._started:
            raise RuntimeError("A non-persistent GradientTape can only be used to compute one "
                               "set of gradients (or jacobians)")
        if self._recording is not None:
            if self._persistent:
                _warn_first("inside", "Calling GradientTape.gradient on a persistent tape inside "
                           "its context is significantly less efficient than calling it "
                           "outside the context (it causes the gradient ops to be recorded on "
                           "the tape, leading to increased CPU and memory usage). Only call "
                           "GradientTape.gradient inside the context if you actually want to "
                           "trace the gradient in order to compute higher order derivatives.")
            else:
                self._pop()  # a one-shot tape stops recording, as in TF
        recorder = self._recorder
        watched = recorder.watched  # unwatched sources have no gradient, as in TF
        # ... unless the source is a target itself: its gradient is (at least) the target's
        # incoming gradient, whatever the tape saw, as in TF (``tape.gradient(v, v)`` is 1).
        targeted = {id(t) for t in targets}
        live, unwatched = [], False
        for s in sources:
            if type(s) is not EagerTensor and not is_tensor_like(s):
                raise TypeError(f"GradientTape.gradient sources must be tensors or variables; "
                                f"got {s!r} of type {type(s).__name__}.")
            if id(s) in targeted:
                live.append(s)
                unwatched = unwatched or id(s) not in watched
            elif not is_differentiable(s):  # None, said once per dtype (TF says nothing)
                # ... and nothing at all by `tf.gradients` (its tape names its graph ops)
                if self._naming is not None:
                    continue
                _warn_first(("source", s.dtype), f"The dtype of the source tensor must be "
                            f"floating (e.g. tf.float32) when calling GradientTape.gradient, "
                            f"got {s.dtype!r}; its gradient is None.", n=1)
            elif id(s) in watched:
                live.append(s)
        # Everything watched depends on a root; when every root is a source, the
        # watched set is exactly what depends on the sources, with no walk.
        passes = None
        if compiled_backward.run is not None and not unwatched:  # for tapes that repeat
            passes = compiled_backward.run(recorder.entries, targets, weightings, live)
        if passes is None:
            ids = {id(s) for s in live}
            reached = (watched if recorder.roots <= ids and not unwatched
                       else connected(recorder.entries, live))
            naming = self._naming
            if naming is None and context.get().graph is not None:
                naming = gradient_names.TapeGradients()
            passes = [backprop(recorder.entries, targets, weights, live, reached, naming)
                      for weights in weightings]
        if not self._persistent:
            self._used = True
            recorder.entries, recorder.watched = [], {}  # free the tape
        if type(passes) is compiled_backward.Stacked:
            found = dict(zip(map(id, live), passes))
        else:
            found = {id(s): rows for s, rows in zip(live, zip(*passes))}
        return [found.get(id(s)) for s in sources]

    @staticmethod
    def _assemble(rows, lead, source, unconnected, arrange, zeros_shape=None):
        """Stacks per-row gradients (None rows: zeros), unless stacked already, and arranges
        them."""
        if type(rows) is EagerTensor:
            return arrange(rows)
        shape = lead + source.shape.as_list() if zeros_shape is None else zeros_shape
        if rows is None or all(g is None for g in rows):
            if UnconnectedGradients(unconnected) is UnconnectedGradients.ZERO:
                return array_ops.zeros(shape, source.dtype)
            return None
        rows = [array_ops.zeros_like(source) if g is None else g for g in rows]
        return arrange(array_ops.stack(rows))


def _joined(lead, source, start=0):
    """`lead` (known dims) followed by source's dims from `start`: a list, or a tensor where
    those are known only at run time (a source of a function traced with None dims)."""
    if source.shape[start:].is_fully_defined():
        return list(lead) + source.shape.as_list()[start:]
    return array_ops.concat([list(lead), array_ops.shape(source)[start:]], 0)


def _check_unconnected(value):
    try:
        UnconnectedGradients(value)
    except ValueError:
        raise ValueError(f"Unknown value for unconnected_gradients: {value!r}") from None


class _Paused:
    """`GradientTape.stop_recording()`: removes the tape from the active recorders."""

    def __init__(self, tape):
        self._tape = tape

    def __enter__(self):
        if not self._tape._started:
            raise RuntimeError("Trying to stop recording a tape which is not recording.")
        if self._tape._recording is None:
            raise ValueError("Tape is not recording.")
        self._tape._pop()

    def __exit__(self, *exc):
        self._tape._push()


def _gradient_components(value):
    """The tensor through which gradients reach composite `value` (a ragged tensor's flat
    values: its ``__composite_gradient__``, TF's protocol), else `value` itself; ValueError
    for a composite without the protocol (an `ExtensionType`), as in TF."""
    protocol = getattr(type(value), "__composite_gradient__", None)
    if protocol is not None:
        return protocol.get_gradient_components(value)
    variable = _variable_of_handle(value)
    if variable is not None:  # (a variable's handle: the variable's gradient, as in TF)
        return variable
    if _components(value) is not None:
        raise ValueError(f"Type {type(value).__name__} is not supported as a gradient source "
                         f"or gradient target.")
    return value


def _variable_of_handle(value):
    """The variable whose handle (``v.handle``) `value` is, else None."""
    return variable_of(value) if type(value) is ResourceHandle else None


def _components(value):
    """The component tensors of composite `value` (its spec's), or None for others."""
    if isinstance(value, (Tensor, Variable)):
        return None
    spec = getattr(value, "_type_spec", None)
    return spec._to_components(value) if hasattr(spec, "_to_components") else None


def _watchable(value):
    """What watching `value` watches: its tensors and variables, composites' components
    (a ragged tensor's row splits and an `ExtensionType`'s fields too), as in TF."""
    for t in nest.flatten(value):
        components = _components(t)
        if components is None:
            yield t
        else:
            yield from _watchable(components)


def _with_gradient_components(source, grad):
    """The gradient of composite `source` from `grad`, its components' (None stays None)."""
    protocol = getattr(type(source), "__composite_gradient__", None)
    if protocol is None or grad is None:
        return grad
    return protocol.replace_gradient_components(source, grad)


def _jacobian_target(t):
    """The target of a Jacobian: one tensor (TF reads its shape first: AttributeError for
    anything else, a list of tensors included)."""
    if not hasattr(t, "shape"):
        raise AttributeError(f"'{type(t).__name__}' object has no attribute 'shape'")
    return t


def _checked_target(t):
    if type(t) is not EagerTensor and not is_tensor_like(t):
        raise TypeError(f"GradientTape.gradient target must be a tensor or variable; got {t!r} "
                        f"of type {type(t).__name__}.")
    return t


def is_differentiable(t):
    """Whether gradients flow through tensor or variable `t`: floating, complex, variant or
    resource."""
    return t.dtype in _DIFFERENTIABLE


def _output_gradients(targets, output_gradients):
    """The incoming gradient of each target leaf, as TF takes it: converted on its own (a
    None in a list fails), of the target's dtype and shape, or a scalar.  (Like TF, a
    scalar flows as it is: op gradients broadcast it as their arithmetic does, so that
    ``y = x * 2`` with a scalar one gives a scalar.)"""
    weights = nest.flatten(output_gradients)
    if len(weights) != len(targets):
        raise ValueError(f"output_gradients has {len(weights)} leaves, but target has "
                         f"{len(targets)}.")
    return [_as_like(w, t) for t, w in zip(targets, weights)]


def _as_like(w, target):
    w = convert_to_tensor(w)
    if w.dtype != target.dtype:  # TF's class, from the first op it reaches
        raise errors.InvalidArgumentError(
            None, None, f"output_gradients was expected to be a {target.dtype.name} tensor "
                        f"(the target's dtype) but is a {w.dtype.name} tensor")
    if w.shape.rank != 0 and not w.shape.is_compatible_with(target.shape):
        raise errors.InvalidArgumentError(
            None, None, f"Mismatch between the shape of output_gradients {w.shape} and the "
                        f"shape of the target {target.shape}.")
    return w



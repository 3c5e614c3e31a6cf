"""Higher-order functions over the rows of tensors: `map_fn`, `scan`, `foldl`, `foldr` and
`vectorized_map`.

Each is a `while_loop` reading the rows of `elems` from `TensorArray`s and,
for `map_fn` and `scan`, writing results to others that are stacked at the
end; so they run eagerly as Python loops and in graphs as one ``While`` op,
and gradients flow through both.  `elems` may be a nested structure of
tensors with the same number of rows, as may accumulators and results.

>>> tf.map_fn(lambda x: x * x, tf.constant([1, 2, 3]))
<tf.Tensor: shape=(3,), dtype=int32, numpy=array([1, 4, 9], dtype=int32)>
>>> tf.scan(lambda total, x: total + x, tf.constant([1, 2, 3]))
<tf.Tensor: shape=(3,), dtype=int32, numpy=array([1, 3, 6], dtype=int32)>
"""
import numpy as np

from eagerflow._src.autodiff import compiled_backward, script_ops
from eagerflow._src.backend.api_export import export
from eagerflow._src.core import context, errors, nest
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.core.tensor import EagerTensor, Tensor
from eagerflow._src.core.tensor_shape import Dimension, TensorShape
from eagerflow._src.core.tensor_spec import TensorSpec
from eagerflow._src.core.variables import Variable
from eagerflow._src.graph import executor
from eagerflow._src.graph.control_flow import while_loop
from eagerflow._src.graph.graph import Graph
from eagerflow._src.graph.lock_step import (
    BRANCH_OPS, LOOP_OPS, PRINT_OPS, LockStep, nested_maps)
from eagerflow._src.graph.tensor_array import TensorArray
from eagerflow._src.ops import (
    array_ops, cast_ops, math_ops, random_ops, reduction_ops, sparse_ops)
from eagerflow._src.ops.extension_type import ExtensionTypeBatchEncoder
from eagerflow._src.ops.sparse_tensor import SparseTensor, SparseTensorSpec


def _check_callable(fn):
    if not callable(fn):
        raise TypeError("fn must be callable.")


class _Rows:
    """The rows of the tensors of `elems`, held in TensorArrays for a loop to read.

    `count` is their number: an int when known now, else a tensor.  A scalar in `elems`
    raises ValueError for `map_fn`; `scan` and the folds (`caller` names them) index its
    empty shape in TF and so raise IndexError.
    """

    def __init__(self, elems, caller=None):
        self.expand = _has_extension_type(elems)
        flat = [e if isinstance(e, SparseTensor) else convert_to_tensor(e)
                for e in nest.flatten(elems, self.expand)]
        if not flat:
            raise ValueError(f"elems must be a Tensor or (possibly nested) sequence of Tensors. "
                             f"Got {elems}, which does not contain any Tensors.")
        if any(t.shape.rank == 0 for t in flat):
            if caller is not None:
                raise IndexError(f"{caller} unpacks every tensor of elems along its first "
                                 f"dimension, but elems holds a scalar")
            raise ValueError("Elements in elems must be 1+ dimensional Tensors, not scalars")
        static = Dimension(None)
        for t in flat:
            if t.shape.rank is not None:
                static = static.merge_with(t.shape[0])
        self.count = static.value if static.value is not None else array_ops.shape(flat[0])[0]
        self._structure = elems
        # (a sparse tensor's rows are cut from it as they are read)
        self._arrays = [t if isinstance(t, SparseTensor) else
                        TensorArray(t.dtype, size=self.count, element_shape=_row_shape(t))
                        .unstack(t) for t in flat]

    @property
    def dtypes(self):
        return [ta.dtype for ta in self._arrays]

    @property
    def specs(self):
        """Each result's spec when `fn` keeps the structure of `elems`: sparse rows give sparse
        results."""
        return [SparseTensorSpec(None, ta.dtype) if isinstance(ta, SparseTensor) else
                TensorSpec(None, ta.dtype) for ta in self._arrays]

    def __getitem__(self, i):
        """Row `i` of every tensor, in the structure of `elems`."""
        return nest.pack_sequence_as(self._structure, [
            _sparse_row(ta, i) if isinstance(ta, SparseTensor) else ta.read(i)
            for ta in self._arrays], self.expand)


def _sparse_row(sp, i):
    """Row `i` of sparse tensor `sp`: its entries there, one dimension less."""
    here = math_ops.equal(sp.indices[:, 0], cast_ops.cast(i, _d.int64))
    row = SparseTensor(array_ops.boolean_mask(sp.indices, here)[:, 1:],
                       array_ops.boolean_mask(sp.values, here), sp.dense_shape[1:])
    return sparse_ops._with_shape(row, sp.shape[1:])


class SparseResults:
    """The sparse results of `map_fn`'s rows, gathered in the loop's TensorArrays (entries'
    indices prefixed with the row, values, shapes) and joined after it into one sparse
    tensor, its shape the largest of the rows' behind their number."""

    def __init__(self, spec, count):
        self.spec, self.count = spec, count
        self.arrays = [TensorArray(_d.int64, size=count, infer_shape=False),
                       TensorArray(spec.dtype, size=count, infer_shape=False),
                       TensorArray(_d.int64, size=count, infer_shape=False)]

    def write(self, arrays, i, value):
        if not isinstance(value, SparseTensor):
            raise ValueError(f"Error in map_fn:\n  Expected `fn` to return a:\n    {self.spec}\n"
                             f"  But it returned a:\n    {value}\n  To fix, update the "
                             f"`fn_output_signature` (or `dtype`) argument to `map_fn`.")
        row = array_ops.fill(array_ops.stack([array_ops.shape(value.indices)[0], 1]),
                             cast_ops.cast(i, _d.int64))
        return [arrays[0].write(i, array_ops.concat([row, value.indices], 1)),
                arrays[1].write(i, value.values), arrays[2].write(i, value.dense_shape)]

    def join(self, arrays):
        rank = self.spec.shape.rank
        shapes = arrays[2].stack()
        if isinstance(self.count, int) and self.count == 0:
            inner = [d or 0 for d in self.spec.shape.as_list()] if rank is not None else []
            return SparseTensor(array_ops.zeros([0, len(inner) + 1], _d.int64),
                                array_ops.zeros([0], self.spec.dtype), [0, *inner])
        shape = array_ops.concat([array_ops.reshape(cast_ops.cast(self.count, _d.int64), [1]),
                                  math_ops.maximum(reduction_ops.reduce_max(shapes, 0),
                                                   np.int64(0))], 0)
        return SparseTensor(arrays[0].concat(), arrays[1].concat(), shape)


def _has_extension_type(structure):
    """Whether `structure` holds an `ExtensionType` value: its rows are those of its tensors
    (other composites keep their own handling)."""
    return any(hasattr(getattr(leaf, "_type_spec", None), "_from_component_specs")
               for leaf in nest.flatten(structure))


def _row_shape(t):
    """The shape of a row of `t` (None: unknown rank)."""
    return t.shape[1:] if t.shape.rank is not None else None


def _is_extension(value):
    """Whether `value` is an `ExtensionType` value or spec."""
    return hasattr(value, "_from_component_specs") or hasattr(
        getattr(value, "_type_spec", None), "_from_component_specs")


def _check_extension_results(expected, result):
    """TF's ValueError unless each result is an extension type where `expected` (the
    signature, or the row `fn` was given) has one of its class, and a tensor elsewhere."""
    for want, got in zip(nest.flatten(expected), nest.flatten(result)):
        if not (_is_extension(want) or _is_extension(got)):
            continue
        want_spec = want if hasattr(want, "_from_component_specs") else \
            want._type_spec if _is_extension(want) else _spec(want)
        if _is_extension(got):
            got_spec = got._type_spec
        else:
            got = convert_to_tensor(got)
            got_spec = TensorSpec(got.shape, got.dtype)
        if type(got_spec) is not type(want_spec):
            raise ValueError(
                f"Error in map_fn:\n  Expected `fn` to return a:\n    {want_spec}\n  But it "
                f"returned a:\n    {got_spec}\n    (value={got!s})\n  To fix, update the "
                f"`fn_output_signature` (or `dtype`) argument to `map_fn`.")


def _spec(signature):
    """A result's `TensorSpec` from a signature entry: a spec or a dtype."""
    if isinstance(signature, (TensorSpec, SparseTensorSpec)):
        return signature
    return TensorSpec(None, _d.as_dtype(signature))


@export("map_fn")
def map_fn(fn, elems, dtype=None, parallel_iterations=None, back_prop=True, swap_memory=False,
           infer_shape=True, name=None, fn_output_signature=None):
    """``fn`` applied to each row of `elems`, the results stacked.

    Results have the structure and dtypes of `elems` unless
    `fn_output_signature` (dtypes, `TensorSpec`s, `RaggedTensorSpec`s or
    `SparseTensorSpec`s, nested as the results; `dtype` is its deprecated
    name) says otherwise.  The rows of a `SparseTensor` in `elems` are sparse
    tensors of one dimension less; sparse results are stacked into one whose
    shape is the largest of theirs.

    >>> sp = tf.sparse.SparseTensor([[0, 1], [2, 0]], [1.0, 2.0], [3, 2])
    >>> tf.map_fn(tf.sparse.reduce_sum, sp, fn_output_signature=tf.float32)
    <tf.Tensor: shape=(3,), dtype=float32, numpy=array([1., 0., 2.], dtype=float32)>

    >>> tf.map_fn(lambda x: x[0] * x[1], (tf.constant([1, 2]), tf.constant([3, 4])),
    ...        fn_output_signature=tf.int32)
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([3, 8], dtype=int32)>
    """
    signature = dtype if fn_output_signature is None else fn_output_signature
    _check_callable(fn)
    fn = _converted(fn)
    if ragged_results is not None and any(type(s).__name__ == "RaggedTensorSpec"
                                          for s in nest.flatten(signature)):
        return ragged_results(fn, elems, signature, _Rows)
    rows = _Rows(elems)
    if signature is None:
        structure = elems
        specs = rows.specs
        expand = rows.expand
    else:
        structure = signature
        # (an ExtensionType's spec stands for its tensors: their rows are stacked)
        expand = any(hasattr(s, "_from_component_specs") for s in nest.flatten(signature))
        specs = [_spec(s) for s in nest.flatten(signature, expand)]
    results = [SparseResults(s, rows.count) if isinstance(s, SparseTensorSpec) else
               TensorArray(s.dtype, size=rows.count, infer_shape=infer_shape,
                           element_shape=s.shape) for s in specs]
    arrays = [r.arrays if isinstance(r, SparseResults) else r for r in results]

    def compute(i, arrays):
        row = rows[i]
        result = fn(row)
        nest.assert_same_structure(structure, result)
        if expand or rows.expand:
            _check_extension_results(row if signature is None else signature, result)
        return i + 1, [r.write(ta, i, v) if isinstance(r, SparseResults) else ta.write(i, v)
                       for r, ta, v in zip(results, arrays, nest.flatten(result, expand))]

    _, arrays = while_loop(lambda i, _: i < rows.count, compute, (0, arrays),
                           parallel_iterations=parallel_iterations or 10, back_prop=back_prop,
                           swap_memory=swap_memory, name=name)
    if signature is not None and expand:  # (a row's spec: the batch's has the rows' number
        count = rows.count if isinstance(rows.count, int) else None  # in its shape fields)
        structure = nest.map_structure(
            lambda s: ExtensionTypeBatchEncoder().batch(s, count) if _is_extension(s) else s,
            signature)
    return nest.pack_sequence_as(structure, [
        r.join(ta) if isinstance(r, SparseResults) else ta.stack()
        for r, ta in zip(results, arrays)], expand)


compiled_backward.map_rows = map_fn
# ``convert_user_function(fn)``: `fn` as AutoGraph converts it unless the code running has it
# off (set by AutoGraph, a layer below): TF's map_fn converts its `fn`
convert_user_function = None
# ``convert_traced_function(fn)``: `fn` converted only inside a function traced with
# AutoGraph (set by AutoGraph): TF's vectorized_map, whose eager call traces `fn` as it is
convert_traced_function = None


def _converted(fn, convert=None):
    convert = convert or convert_user_function
    return fn if convert is None else convert(fn)
# ``ragged_results(fn, elems, signature, rows_class)``: `map_fn` of dense `elems` whose
# results (some of them) are ragged (`RaggedTensorSpec`s in the signature), set by the ragged
# package
ragged_results = None


@export("scan")
def scan(fn, elems, initializer=None, parallel_iterations=10, back_prop=True, swap_memory=False,
         infer_shape=True, reverse=False, name=None):
    """The running accumulation ``a = fn(a, row)`` over the rows of `elems`, stacked.

    The accumulator starts as `initializer`, or else as the first row (the
    last with `reverse`, which runs from the last row to the first).

    >>> tf.scan(lambda a, x: a * x, tf.constant([1, 2, 3]), reverse=True)
    <tf.Tensor: shape=(3,), dtype=int32, numpy=array([6, 6, 3], dtype=int32)>
    """
    _check_callable(fn)
    rows = _Rows(elems, "scan")
    last = rows.count - 1

    def position(i):
        return last - i if reverse else i

    if initializer is None:
        structure, start = elems, 1
        accumulator = nest.flatten(rows[position(0)])
    else:
        structure, start = initializer, 0
        accumulator = [convert_to_tensor(v) for v in nest.flatten(initializer)]
    results = [TensorArray(a.dtype, size=rows.count, infer_shape=infer_shape,
                           element_shape=a.shape if infer_shape else None) for a in accumulator]
    if initializer is None:
        results = [ta.write(position(0), a) for ta, a in zip(results, accumulator)]

    initial = accumulator

    def compute(i, accumulator, results):
        result = fn(nest.pack_sequence_as(structure, accumulator), rows[position(i)])
        nest.assert_same_structure(structure, result)
        accumulator = nest.flatten(result)
        if not context.executing_eagerly():  # the loop's own error, before the writes'
            for old, new in zip(initial, accumulator):
                new = convert_to_tensor(new)
                if new.dtype != old.dtype:
                    raise TypeError(
                        f"Loop var {old.name} enters the loop with type {old.dtype} but has "
                        f"type {new.dtype} after 1 iteration. {old.name} type should remain "
                        f"constant.")
        return i + 1, accumulator, [ta.write(position(i), a)
                                    for ta, a in zip(results, accumulator)]

    _, _, results = while_loop(lambda i, *_: i < rows.count, compute,
                               (start, accumulator, results),
                               parallel_iterations=parallel_iterations, back_prop=back_prop,
                               swap_memory=swap_memory, name=name)
    return nest.pack_sequence_as(structure, [ta.stack() for ta in results])


def _fold(fn, elems, initializer, reverse, parallel_iterations, back_prop, swap_memory, name):
    """``a = fn(a, row)`` over the rows of `elems` (from the last with `reverse`); the last `a`."""
    _check_callable(fn)
    rows = _Rows(elems, "foldr" if reverse else "foldl")
    last = rows.count - 1

    def row(i):
        return rows[last - i if reverse else i]

    if initializer is None:
        accumulator, start = row(0), 1
    else:
        accumulator, start = initializer, 0
    return while_loop(lambda i, _: i < rows.count, lambda i, a: (i + 1, fn(a, row(i))),
                      (start, accumulator), parallel_iterations=parallel_iterations,
                      back_prop=back_prop, swap_memory=swap_memory, name=name)[1]


@export("foldl")
def foldl(fn, elems, initializer=None, parallel_iterations=10, back_prop=True,
          swap_memory=False, name=None):
    """``a = fn(a, row)`` over the rows of `elems`, first to last; returns the last `a`.

    `a` starts as `initializer`, or else as the first row.

    >>> tf.foldl(lambda a, x: a - x, tf.constant([1, 2, 3]), initializer=10)
    <tf.Tensor: shape=(), dtype=int32, numpy=4>
    """
    return _fold(fn, elems, initializer, False, parallel_iterations, back_prop, swap_memory,
                 name)


@export("foldr")
def foldr(fn, elems, initializer=None, parallel_iterations=10, back_prop=True,
          swap_memory=False, name=None):
    """``a = fn(a, row)`` over the rows of `elems`, last to first; returns the last `a`.

    `a` starts as `initializer`, or else as the last row.

    >>> tf.foldr(lambda a, x: a - x, tf.constant([1, 2, 3]))
    <tf.Tensor: shape=(), dtype=int32, numpy=0>
    """
    return _fold(fn, elems, initializer, True, parallel_iterations, back_prop, swap_memory,
                 name)


@export("vectorized_map")
def vectorized_map(fn, elems, fallback_to_while_loop=True, warn=True):
    """``fn`` applied to each row of `elems`, the results stacked.

    As in TensorFlow, `fn` is traced once, on symbolic rows (converted by
    AutoGraph only inside a function traced with it); each row then runs the
    traced graph, in a loop as `map_fn`'s, and its random ops draw for all
    rows at once (one in a branch or loop of `fn` for the rows that take the
    branch, or still run the loop's step; inside a `function`, one op runs the
    rows so when the function runs).  Tensors of `elems` that
    have one row are broadcast: every row gets that row.  Every tensor needs a
    first dimension to unpack: a scalar raises IndexError, as in TensorFlow.

    >>> tf.vectorized_map(lambda x: x[0] * x[1], (tf.constant([1, 2]), tf.constant([3])))
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([3, 6], dtype=int32)>
    """
    _check_callable(fn)
    fn = _converted(fn, convert_traced_function)
    expand = _has_extension_type(elems)  # (an extension type's rows are its tensors')
    flat = nest.flatten(elems, expand)
    for e in flat:
        if isinstance(e, SparseTensor):  # (TF's, gathering its rows)
            raise TypeError(f"Failed to convert elements of {e} to Tensor. Consider casting "
                            f"elements to a supported type. See "
                            f"https://www.tensorflow.org/api_docs/python/tf/dtypes for "
                            f"supported TF dtypes.")
    flat = [convert_to_tensor(e) for e in flat]
    if not flat:  # (TF's, taking the largest first dimension of none)
        raise ValueError("max() arg is an empty sequence")
    scalars = [i for i, t in enumerate(flat) if t.shape.rank == 0]
    if scalars:
        raise IndexError(f"vectorized_map unpacks every tensor of elems along its first "
                         f"dimension, but element {scalars[0]} of elems is a scalar")
    positions = ([i for i, t in enumerate(flat) if t.shape[0] != 1]
                 or list(range(len(flat))))
    counts = sorted({flat[i].shape[0] for i in positions} - {None})
    if len(counts) > 1:  # (TF fails reading past the shorter one's rows, at run time)
        raise errors.InvalidArgumentError(
            None, None, f"vectorized_map needs the tensors of elems to have one number of rows "
                        f"(or one row, broadcast), but they have {counts[0]} and {counts[1]}")

    first = []  # eagerly, the shapes of the first row's results

    def call(rows):
        rows = iter(rows)
        values = [next(rows) if i in positions else t[0]
                  for i, t in enumerate(flat)]  # the others are broadcast
        result = fn(nest.pack_sequence_as(elems, values, expand))
        if context.executing_eagerly():
            _check_row_shapes(first, result)
        return result

    mapped = [flat[i] for i in positions]
    # TF vectorizes `fn`: its random ops draw for all rows at once (see `RowDraws`); in the
    # function of a map drawing row by row, they record nothing and draw row by row too
    draws = random_ops.RowDraws()
    with draws.off() if draws.row_by_row() else draws.recording():
        trace = _Trace(call, mapped, first)
    if trace.signature is None:  # (`fn` returns nothing: TF traces it once and returns None)
        return None
    count = mapped[0].shape[0]
    if not draws.vectorized and count != 0 and trace.outputs is not None:
        # (random ops in its branches or loops, or with a row's own parameters: TF draws
        # once for the rows reaching them together, which the rows run in lock step for)
        if context.executing_eagerly() and not draws.nested:
            return trace.lock_step(mapped, draws)
        feeds = None if draws.skips and draws.in_nest else trace.feeds(draws)
        if feeds is not None:  # (in a graph: when it runs)
            return trace.lock_step_op(mapped, draws, feeds)
    if not (draws.records and draws.vectorized):
        draws.records = []  # (they draw row by row)
        draws.draw(count)
        with draws.off():
            return map_fn(trace.row_function(call), mapped,
                          fn_output_signature=trace.signature)
    draws.draw(array_ops.shape(mapped[0])[0] if count is None else count)

    if trace.outputs is None:
        def call_row(rows):
            with draws.replaying(rows[-1]):
                return call(rows[:-1])
    else:
        def call_row(rows):
            return trace.replay(rows[:-1], lambda op: draws.drawn(op, rows[-1]))

    index = array_ops.range(array_ops.shape(mapped[0])[0] if count is None else count)
    return map_fn(call_row, mapped + [index], fn_output_signature=trace.signature)


class _LockStepMap:
    """The kernel of the op that runs a traced function's rows in lock step (see
    `_Trace.lock_step_op`): called with the values of the mapped tensors and of the
    captured ones, the results stacked."""

    def __init__(self, trace, draws, mapped, feeds, results):
        self.trace, self.draws, self.mapped, self.results = trace, draws, mapped, results
        self.inputs = trace.rows + [internal for _, internal in feeds]
        self.kernels = draws._kernels

    def __call__(self, *values):
        columns, fed = list(values[:self.mapped]), list(values[self.mapped:])
        n = int(columns[0].shape[0])
        if n == 0:
            return self._empty()
        columns = [array_ops.unstack(t, n) for t in columns]
        if self.draws.skips:  # (see `_Trace.lock_step`; its other random ops draw apart)
            self.draws.lock_step()
            LockStep(self.draws, prints=False).run(self.trace.graph, self.inputs,
                                                   self.trace.outputs,
                                                   [c[:1] for c in columns] + fed, [0])
        if not self.draws.nested:  # (a nested map's: the outer map's lock step makes them)
            self.draws._kernels = self.kernels
        outputs = self._rows(columns, fed, n)
        return [array_ops.stack(c) for c in outputs]

    def _empty(self):
        return [array_ops.zeros([0] + [d or 0 for d in t.shape.as_list()], t.dtype)
                for t in self.results]

    def _rows(self, columns, fed, n):
        """The results of `n` rows, a list of one per row for each; `columns`: each mapped
        tensor's rows, `fed`: the captured values, each shared or a list of one per row."""
        outputs = LockStep(self.draws).run(self.trace.graph, self.inputs, self.trace.outputs,
                                           columns + fed, list(range(n)))
        outputs = [v if isinstance(v, list) else [v] * n for v in outputs]
        first = []
        for i in range(n):
            _check_row_shapes(first, [column[i] for column in outputs])
        return outputs

    def nested(self, args, rows):
        """The op's results for the rows `rows` of the map whose function it is in, each a
        list of one per row: all their rows run in lock step at once, as TF's vectorized
        function runs a map in a map's function along both (its random ops drawing once
        for all the pairs of rows that reach them)."""
        per_row = [[a[i] if isinstance(a, list) else a for a in args[:self.mapped]]
                   for i in range(len(rows))]
        counts = [int(values[0].shape[0]) for values in per_row]
        columns = [[row for values, c in zip(per_row, counts)
                    for row in array_ops.unstack(values[j], c)] for j in range(self.mapped)]
        fed = [[v for v, c in zip(a, counts) for _ in range(c)] if isinstance(a, list) else a
               for a in args[self.mapped:]]
        total = sum(counts)
        outputs = self._rows(columns, fed, total) if total else [[] for _ in self.results]
        results = [[] for _ in self.results]
        start = 0
        for c in counts:
            for column, output, empty in zip(results, outputs, self._empty()):
                column.append(array_ops.stack(output[start:start + c]) if c else empty)
            start += c
        return results


def _check_row_shapes(first, result):
    """TF's error stacking results of rows that differ in shape (a vectorized map's results
    are stacked as one tensor each): `first` holds the first row's shapes, once known."""
    shapes = [tuple(t.shape) for t in nest.flatten(result) if isinstance(t, Tensor)]
    if not first:
        first.append(shapes)
        return
    for want, got in zip(first[0], shapes):
        if want != got:
            raise errors.InvalidArgumentError(
                None, None, f"PartialTensorShape: Incompatible shapes during merge: "
                            f"[{','.join(map(str, want))}] vs. [{','.join(map(str, got))}]")


# The ops that pass a variable fed to a lock-step map's op on to their bodies (its reads are
# the one other use the op allows, see `_Trace.feeds`)
_PASSING_ON = BRANCH_OPS | LOOP_OPS


def _variable_uses(graph, variables, seen):
    """Adds to `variables` (id -> a set) the types of the ops of `graph` and of the
    functions its ops call that take each variable, but for those passing it on."""
    for op in graph.get_operations():
        for t in op.inputs:
            if id(t) in variables and op.type not in _PASSING_ON:
                variables[id(t)].add(op.type)
    for name, function in graph.functions.items():
        if name not in seen:
            seen.add(name)
            _variable_uses(function.graph, variables, seen)


class _Trace:
    """``fn(rows of flat)`` traced once in a graph: its results' specs (nested as they are:
    a `TensorSpec` of each tensor, an extension type's own spec) and, where every result is
    a tensor, the graph that each row then runs (`replay`) instead of calling `fn` again,
    so that, as in TF, `fn` runs once whatever the number of rows."""

    def __init__(self, fn, flat, first):
        self.first = first  # eagerly, the shapes of the first row's results (`fn`'s too)
        self.graph = Graph("signature")
        with context.building(self.graph):
            self.rows = [self.graph.placeholder(t.dtype, _row_shape(t), "row") for t in flat]
            self.result = fn(self.rows)
            self.signature = self.outputs = None
            if self.result is None:
                return
            self.signature = nest.map_structure(self._spec, self.result)
            leaves = nest.flatten(self.result)
            if all(isinstance(v, Tensor) or not hasattr(v, "_type_spec") for v in leaves):
                outputs = [convert_to_tensor(v) for v in leaves]
                if all(getattr(t, "graph", None) is self.graph for t in outputs):
                    self.outputs = outputs

    @staticmethod
    def _spec(value):
        composite = None if isinstance(value, Tensor) else getattr(value, "_type_spec", None)
        if composite is not None:
            return composite
        value = convert_to_tensor(value)
        return TensorSpec(value.shape, value.dtype)

    def replay(self, rows, drawn=None):
        """The results for `rows` (the values of the traced rows), the graph's ops run on
        them; `drawn(op)`: the values of a random op drawn for all rows, or None.

        As in TF (whose vectorized function runs the ops its results do not need once,
        for the first row), eagerly a print prints for the first row only."""
        first = not self.first

        def stateful(op, args):
            if op.type in PRINT_OPS and not first and context.executing_eagerly():
                return []
            values = None if drawn is None else drawn(op)
            return None if values is None else [values]
        values = executor.replay(self.graph, self.rows, self.outputs, list(rows), stateful)
        result = nest.pack_sequence_as(self.result, values)
        if context.executing_eagerly():
            _check_row_shapes(self.first, result)
        return result

    def lock_step(self, mapped, draws):
        """The results for all the rows of `mapped`, the graph run for them in lock step
        (see `LockStep`).  A `Generator`'s draws in it first run for the first row alone,
        as TF's trace of the function runs them (other random ops there draw apart)."""
        n = mapped[0].shape[0]
        columns = [array_ops.unstack(t, n) for t in mapped]
        if draws.skips:
            draws.lock_step()
            LockStep(draws, prints=False).run(self.graph, self.rows, self.outputs,
                                              [c[:1] for c in columns], [0])
        draws.lock_step()
        outputs = LockStep(draws).run(self.graph, self.rows, self.outputs, columns,
                                      list(range(n)))
        outputs = [v if isinstance(v, list) else [v] * n for v in outputs]
        for i in range(n):
            _check_row_shapes(self.first, [column[i] for column in outputs])
        return nest.pack_sequence_as(self.result, [array_ops.stack(c) for c in outputs])

    def feeds(self, draws):
        """The graph's captures of tensors of the graph being built and of variables,
        which an op running it at run time takes as inputs (a variable's value read
        then, so that gradients flow to it as to a tensor); None where it captures
        something else, or a variable that it does more with than read where it runs
        (which such an op would not do to the variable itself) but the state of a
        `Generator` that `draws` draws from (which the op's run moves on)."""
        captures = [(external, internal) for external, internal in self.graph.captures
                    if not isinstance(external, EagerTensor)]
        if any(not isinstance(e, (Tensor, Variable)) for e, _ in captures):
            return None
        variables = {id(i): set() for e, i in captures if isinstance(e, Variable)}
        _variable_uses(self.graph, variables, set())
        fed = []
        for external, internal in captures:
            uses = variables.get(id(internal), set())
            if uses == {"RngReadAndSkip"} and id(external) in draws.generator_states:
                continue
            if uses - {"ReadVariableOp"}:
                return None
            fed.append((external, internal))
        return fed

    def lock_step_op(self, mapped, draws, feeds):
        """`lock_step` as one op of the graph being built: it runs the rows in lock step
        on their values at each run.  Its random ops are seeded as in the trace, each
        going on along its stream from one run to the next (as a function's kernels
        do), and a `Generator`'s draws move its state on; gradients flow through it to
        `mapped`, the captured tensors and the variables it reads.  In the
        function of another map (`draws.nested`), that map's lock step runs the op for
        the rows of all its rows at once (see `_LockStepMap`); `feeds`: `feeds(draws)`."""
        draws.lock_step(lasting=True)
        results = [convert_to_tensor(t) for t in nest.flatten(self.result)]
        run = _LockStepMap(self, draws, len(mapped), feeds, results)
        fed = [e.read_value() if isinstance(e, Variable) else e for e, _ in feeds]
        flat = script_ops.py_function(run, list(mapped) + fed,
                                      [t.dtype for t in results])
        if draws.nested:
            nested_maps[flat[0].op.attrs["token"]] = run
        rows = mapped[0].shape[0]
        for t, r in zip(flat, results):
            t.set_shape(TensorShape([rows]).concatenate(r.shape))
        return nest.pack_sequence_as(self.result, flat)

    def row_function(self, call):
        """The function of a row: the graph run on it, or else `call` (`fn` called)."""
        return call if self.outputs is None else self.replay

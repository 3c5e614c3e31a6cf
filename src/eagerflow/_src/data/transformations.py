"""Dataset transformations beyond the basic ones of `dataset_ops`, installed on `Dataset`."""
import builtins
import collections
import itertools

import numpy as np

from eagerflow._src.backend.threads import cores
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import errors
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.core.errors import op_error
from eagerflow._src.core import context, nest
from eagerflow._src.core.tensor import EagerTensor, Tensor
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.core.tensor_spec import TensorSpec
from eagerflow._src.data import structure
from eagerflow._src.data.dataset_ops import (
    AUTOTUNE, INFINITE, UNKNOWN, Dataset, _batch_size, _batched_cardinality, _get_next_error, _int, _known,
    captures, dataset_error, input_made_first,
    _num_threads, _UnaryDataset, stack_components, warn_unused_deterministic)
from eagerflow._src.data.dataset_spec import DatasetSpec, DatasetFunction
from eagerflow._src.data.structured_function import StructuredFunction, branch_iterator
from eagerflow._src.ops.sparse_tensor import SparseTensor, SparseTensorSpec
from eagerflow._src.ragged.ragged_tensor import RaggedTensorSpec


def _method(fn):
    setattr(Dataset, fn.__name__, fn)
    return fn


# -- reduce and scan ---------------------------------------------------------------------------

def _relaxed(old, new, what):
    """The state spec that fits both `old` and `new`; TypeError (TF's words for `what`, reduce
    or scan) when they differ in kind."""
    def fail(kind, expected, got):
        if what == "Dataset.scan()":
            return TypeError(f"Invalid `scan_func`. The element {kind} for the new state must "
                             f"match the initial state. Expected {expected}, got {got}.")
        return TypeError(f"The element {kind} for the new state must match the initial state. "
                         f"Expected {expected} but got {got}.")
    if not structure.same_structure(old, new):
        raise fail("classes", old, new)
    out = []
    for a, b in zip(structure.flatten(old), structure.flatten(new)):
        if a.dtype != b.dtype:
            raise fail("types", structure.map_structure(lambda s: s.dtype, old),
                       structure.map_structure(lambda s: s.dtype, new))
        out.append(TensorSpec(a.shape.most_specific_compatible_shape(b.shape), a.dtype))
    return structure.pack(old, out)


def trace_state_function(func, name, state_spec, element_spec, returns_output):
    """`func(state, element)` traced until the state's spec is a fixed point (TF relaxes the
    dimensions that change); returns (function, state spec)."""
    while True:
        fn = StructuredFunction(func, name, (state_spec, element_spec)).trace()
        out = fn.output_spec
        if returns_output:
            if not isinstance(out, tuple) or len(out) != 2:
                raise TypeError(f"Invalid `scan_func`. `scan_func` should return a pair "
                                f"consisting of new state and the output value but its "
                                f"return type is {out}.")
            new_state = out[0]
        else:
            new_state = out
        relaxed = _relaxed(state_spec, new_state, name)
        if relaxed == state_spec:
            return fn, state_spec
        state_spec = relaxed


def _state(initial_state):
    state = structure.normalize(initial_state)
    # (a symbolic state, while a function traces, has no value yet: the dataset is built
    # again from its value when the function runs)
    return state, structure.spec_of(state), tuple(
        t._data if isinstance(t, EagerTensor) else None for t in structure.flatten(state))


def reduce_dataset(dataset, initial_state, reduce_func):
    _, state_spec, flat = _state(initial_state)
    fn, state_spec = trace_state_function(reduce_func, "Dataset.reduce()", state_spec,
                                          dataset.element_spec, False)
    from eagerflow._src.data.iterator_ops import eager_error, scoped_source  # noqa: PLC0415
    try:
        for element in scoped_source(dataset):  # (a new iteration, as TF's)
            flat = fn(flat + element)
    except errors.OpError as e:  # (TF's ReduceDataset op, sized by its captures and state)
        captures = len(fn._concrete.graph.captures) if fn._concrete is not None else 0
        raise eager_error(e, "ReduceDataset", state_spec, [
            ("Targuments", captures), ("Tstate", len(structure.flatten(state_spec)))]) \
            from e.__cause__
    return structure.Packer(state_spec).pack(flat)


class _ScanDataset(_UnaryDataset):
    def __init__(self, input_dataset, initial_state, scan_func):
        super().__init__(input_dataset)
        _, state_spec, self._initial = _state(initial_state)
        self._fn, self._state_spec = trace_state_function(
            scan_func, "Dataset.scan()", state_spec, input_dataset.element_spec, True)
        self._n_state = len(structure.flatten(self._state_spec))
        self._spec = self._fn.output_spec[1]

    @input_made_first
    def _iterator(self, source):
        state, fn, n = self._initial, self._fn, self._n_state
        for element in source:
            out = fn(state + element)
            state = out[:n]
            yield out[n:]


@_method
def scan(self, initial_state, scan_func, name=None):
    """A running `scan_func(state, element) -> (new_state, output)` over the elements.

    >>> ds = tf.data.Dataset.range(5).scan(np.int64(0), lambda s, x: (s + x, s + x))
    >>> [int(v) for v in ds]
    [0, 1, 3, 6, 10]
    """
    return _ScanDataset(self, initial_state, scan_func)


# -- batching ----------------------------------------------------------------------------------

def _padded_shape(value, component):
    """A padded shape given by the user (list, TensorShape, tensor, int) as a TensorShape."""
    given = value
    if isinstance(value, Tensor):
        value = value.numpy().tolist()
    if isinstance(value, (int, np.integer)):
        value = [value]
    if isinstance(value, (list, tuple)):  # (-1: unknown, as a tensor of the shape says it)
        value = [None if isinstance(d, (int, np.integer)) and d == -1 else d for d in value]
    try:
        shape = TensorShape(value) if not isinstance(value, TensorShape) else value
    except (TypeError, ValueError):
        _check_shape_vector(given)
        raise
    dims = [None if d is None or d == -1 else d for d in shape.as_list()] \
        if shape.rank is not None else None
    return TensorShape(dims)


def _check_shape_vector(given):
    """TF's error for a padded shape that is no vector of integers."""
    shown = given.numpy() if isinstance(given, EagerTensor) else given
    t = convert_to_tensor(given, dtype_hint=_d.int64)
    if t.shape.rank != 1:
        raise ValueError(f"Padded shape {shown} must be a `tf.int64` vector tensor, but its "
                         f"shape was {t.shape}.")
    if not t.dtype.is_integer:
        raise TypeError(f"Padded shape {shown} must be a `tf.int64` vector tensor, but its "
                        f"element type was {t.dtype.name}.")


def _can_pad(padded, shape):
    """Whether elements of `shape` can be padded to `padded` (TF's static check)."""
    if padded.rank is None or shape.rank is None:
        return True
    if padded.rank != shape.rank:
        return False
    return all(p is None or d is None or p >= d
               for p, d in zip(padded.as_list(), shape.as_list()))


def _default_padding(spec):
    if spec.dtype == _d.string:
        return np.array(b"", dtype=object)
    return np.zeros((), spec.dtype.as_numpy_dtype)


class _PaddedBatchDataset(_UnaryDataset):
    def __init__(self, input_dataset, batch_size, padded_shapes, padding_values,
                 drop_remainder):
        super().__init__(input_dataset)
        spec = input_dataset.element_spec
        specs = structure.flatten(spec)
        for s in nest.flatten(spec) + specs:  # (an extension type's spec, then its parts)
            if isinstance(s, DatasetSpec):
                raise TypeError("`padded_batch` is only supported for datasets that produce "
                                "tensor elements but the input dataset produces elements of "
                                "unsupported type DatasetSpec.")
            if not isinstance(s, TensorSpec):  # (sparse, ragged, other composite specs)
                raise TypeError(f"`padded_batch` is only supported for datasets that produce "
                                f"tensor elements but type spec of elements in the input "
                                f"dataset is not a subclass of TensorSpec: `{s!r}`.")
        n = len(structure.flatten(input_dataset.element_spec))
        self._batch_size = _batch_size(batch_size, "PaddedBatchDatasetV2",
                                       (("N", n), ("Toutput_types", n)))
        self._drop = bool(drop_remainder)
        if padded_shapes is None:
            shapes = []
            for s in specs:
                if s.shape.rank is None:
                    raise ValueError("You must provide `padded_shapes` argument because "
                                     "component 0 has unknown rank.")
                shapes.append(s.shape)
        else:
            shapes = _flatten_like(spec, padded_shapes, "padded_shapes", _padded_shape)
            for s, p in zip(specs, shapes):
                if not _can_pad(p, s.shape):
                    raise ValueError(f"The padded shape {p} is not compatible with the shape "
                                     f"{s.shape} of the corresponding input component.")
        if padding_values is None:
            pads = [_default_padding(s) for s in specs]
        else:
            pads = []
            for s, v in zip(specs, _flatten_like(spec, padding_values, "padding_values",
                                                 lambda v, s: v)):
                if v is None:  # (a None part of the structure keeps its default padding)
                    pads.append(_default_padding(s))
                    continue
                if not isinstance(v, Tensor):
                    # Converted on its own, as TF does: a Python int is int32, so it only
                    # pads int32 components.
                    with context.init_scope():  # a value, even while a function traces
                        v = convert_to_tensor(v)
                t = v
                if t.shape.rank != 0:
                    raise ValueError(f"Invalid `padding_values`. `padding_values` values should "
                                     f"be scalars, but got {t.shape}.")
                if t.dtype != s.dtype:
                    raise TypeError(f"Invalid `padding_values`. `padding_values` values type "
                                    f"{t.dtype} does not match type {s.dtype} of the "
                                    f"corresponding input component.")
                # (a symbolic value, while a function traces, only gives the spec)
                pads.append(t._data if isinstance(t, EagerTensor) else None)
        self._shapes, self._pads = shapes, pads
        static = self._batch_size if self._drop else None
        self._spec = structure.pack(spec, [
            TensorSpec(TensorShape([static]).concatenate(p), s.dtype)
            for s, p in zip(specs, shapes)])

    def _cardinality(self):
        return _batched_cardinality(self._input, self._batch_size, self._drop)

    @input_made_first
    def _iterator(self, source):
        size = self._batch_size
        while True:
            chunk = list(_take(source, size))
            if not chunk or (self._drop and len(chunk) < size):
                return
            yield tuple(self._pad(c, [e[c] for e in chunk]) for c in range(len(chunk[0])))
            if len(chunk) < size:
                return

    def _pad(self, c, parts):
        padded = self._shapes[c]
        rank = parts[0].ndim
        target = []
        for d in range(rank):
            largest = max(p.shape[d] for p in parts)
            want = padded[d] if padded.rank is not None else None
            if want is None:
                target.append(largest)
            else:
                if largest > want:
                    raise op_error(errors.DataLossError, "IteratorGetNext",
                                   "Attempted to pad to a smaller size than the input "
                                   "element.")
                target.append(want)
        pad = self._pads[c]
        out = np.full((len(parts), *target), pad, dtype=parts[0].dtype)
        for i, p in enumerate(parts):
            if p.ndim == 0:
                out[i] = p[()]  # (an object array would hold a 0-d array as one item)
            else:
                out[(i, *(slice(0, n) for n in p.shape))] = p
        return out


def _flatten_like(spec, values, what, convert):
    """`values` (a nest matching `spec`, or one value for a single component) flattened, each
    through ``convert(value, spec)``."""
    specs = structure.flatten(spec)
    if structure.is_nested(spec):
        if isinstance(values, list):
            values = tuple(values)
        try:
            flat = _flatten_up_to(spec, values)
        except (TypeError, ValueError, KeyError) as e:
            # (TF's class: TypeError where a dict stands for a tuple or the reverse)
            raise (TypeError if isinstance(e, TypeError) else ValueError)(
                f"Invalid `{what}`: the structure of {values!r} does not match the "
                f"dataset's element structure {spec}.") from None
    else:
        flat = [values]
    return [convert(v, s) for v, s in zip(flat, specs)]


def _flatten_up_to(spec, values):
    if not structure.is_nested(spec):
        return [values]
    if isinstance(spec, dict) != isinstance(values, dict):
        raise TypeError("sequence type")
    if isinstance(spec, dict):
        children = [(spec[k], values[k]) for k in sorted(spec)]
    else:
        if len(spec) != len(values):
            raise ValueError("length")
        children = list(zip(spec, values))
    out = []
    for s, v in children:
        out.extend(_flatten_up_to(s, v))
    return out


def _take(it, n):
    for _, e in zip(builtins.range(n), it):
        yield e


@_method
def padded_batch(self, batch_size, padded_shapes=None, padding_values=None,
                 drop_remainder=False, name=None):
    """Batches of elements padded to a common shape (the largest in the batch by default).

    >>> ds = tf.data.Dataset.range(1, 4).map(lambda x: tf.fill([x], x)).padded_batch(2)
    >>> [b.tolist() for b in ds.as_numpy_iterator()]
    [[[1, 0], [2, 2]], [[3, 3, 3]]]
    """
    return _PaddedBatchDataset(self, batch_size, padded_shapes, padding_values, drop_remainder)


class _UnbatchDataset(_UnaryDataset):
    def __init__(self, input_dataset):
        super().__init__(input_dataset)
        specs = [s for s in structure.flatten(input_dataset.element_spec)
                 if type(s) is not structure.NoneTensorSpec]  # (None components stay None)
        for s in specs:
            if isinstance(s, SparseTensorSpec) and s.shape.rank == 0:
                raise ValueError(f"Unbatching a sparse tensor is only supported for rank >= 1. "
                                 f"Obtained input: {s!r}.")
        if any(s.shape.rank == 0 for s in specs):
            raise ValueError("Cannot unbatch an input with scalar components.")
        self._sparse = any(isinstance(s, structure.COMPOSITE_SPECS)
                           for s in structure.flatten(input_dataset.element_spec))
        # (TF counts the rows of dense components only: sparse ones travel serialized)
        known = {s.shape[0] for s in specs if s.shape.rank is not None and s.shape[0] is not None
                 and not isinstance(s, SparseTensorSpec)}
        if len(known) > 1:
            a, b = sorted(known)[:2]
            raise ValueError(f"`unbatch()` is only supported for datasets of elements whose "
                             f"components have a matching leading dimension. Encountered both "
                             f"{a} and {b}.")
        self._known = known.pop() if known else None
        self._spec = structure.unbatched_spec(input_dataset.element_spec)

    def _cardinality(self):
        n = self._input._cardinality()
        if n == INFINITE:
            return INFINITE if self._known != 0 else UNKNOWN
        if n >= 0 and self._known is not None:
            return n * self._known
        return UNKNOWN

    def _iterator(self):
        source = self._input._iterator()  # made with this iterator, as in TF
        return self._sparse_rows(source) if self._sparse else self._rows(source)

    def _rows(self, source):
        for batch in source:
            n = batch[0].shape[0]
            for c, a in enumerate(batch[1:], 1):
                if a.shape[0] != n:
                    raise _get_next_error(  # (TF's words, comma included)
                        f"Input element must have the same batch size in each component. "
                        f"Component 0 had size {n} but component {c} had size, {a.shape[0]}.")
            for i in builtins.range(n):
                yield tuple(a[i] if a.ndim > 1 else a[i:i + 1].reshape(()) for a in batch)

    def _sparse_rows(self, source):
        """`_iterator` for elements holding sparse tensors (their rows taken apart)."""
        for batch in source:
            getters, sizes = [], []
            for a in batch:
                if a is None:
                    getters.append(lambda i: None)
                    continue
                if isinstance(a, SparseTensor):
                    get, n = structure.sparse_rows(a)
                elif structure.is_composite(a):
                    get, n = structure.ragged_rows(a)
                else:
                    get, n = (a.__getitem__ if a.ndim > 1 else
                              lambda i, a=a: a[i:i + 1].reshape(())), a.shape[0]
                getters.append(get)
                sizes.append(n)
            for c, n in enumerate(sizes[1:], 1):
                if n != sizes[0]:
                    raise _get_next_error(
                        f"Input element must have the same batch size in each component. "
                        f"Component 0 had size {sizes[0]} but component {c} had size, {n}.")
            for i in builtins.range(sizes[0]):
                yield tuple(g(i) for g in getters)


@_method
def unbatch(self, name=None):
    """The elements of each batch, one at a time.

    >>> [int(x) for x in tf.data.Dataset.range(3).batch(2).unbatch()]
    [0, 1, 2]
    """
    return _UnbatchDataset(self)


class _SparseBatchDataset(_UnaryDataset):
    _tf_name = "_DenseToSparseBatchDataset"

    def __init__(self, input_dataset, batch_size, row_shape):
        super().__init__(input_dataset)
        spec = input_dataset.element_spec
        if not isinstance(spec, TensorSpec):
            raise TypeError(f"`sparse_batch` is only supported for datasets of single tensor "
                            f"elements, but the input dataset produces elements of type "
                            f"{spec!r}.")
        self._batch_size = _batch_size(batch_size, "DenseToSparseBatchDataset")
        if isinstance(row_shape, Tensor):
            row_shape = [None if d < 0 else d for d in row_shape.numpy().tolist()]
        self._row = TensorShape(row_shape).as_list()
        self._spec = SparseTensorSpec(TensorShape([None] + self._row), spec.dtype)

    def _cardinality(self):
        return _batched_cardinality(self._input, self._batch_size, False)

    @input_made_first
    def _iterator(self, source):
        size, row = self._batch_size, self._row
        while True:
            chunk = [e[0] for e in itertools.islice(source, size)]
            if not chunk:
                return
            for a in chunk:
                if a.ndim != len(row):
                    raise _get_next_error(
                        f"Input element had shape ({errors.shape_text(a.shape)}) that is "
                        f"incompatible with the row shape ({errors.shape_text(row)}).")
                if any(r is not None and d > r for d, r in zip(a.shape, row)):
                    raise op_error(errors.DataLossError, "IteratorGetNext",
                                   f"Input element had shape ({errors.shape_text(a.shape)}) "
                                   f"that is larger than the row shape "
                                   f"({errors.shape_text(row)}).")
            # every entry of an element is a value of the batch (zeros too), row-major
            indices = np.concatenate([np.concatenate(
                [np.full((a.size, 1), i, np.int64),
                 np.indices(a.shape, np.int64).reshape(a.ndim, a.size).T], axis=1)
                for i, a in enumerate(chunk)])
            values = np.concatenate([a.reshape(-1) for a in chunk])
            dense = [len(chunk)] + [r if r is not None else max(a.shape[d] for a in chunk)
                                    for d, r in enumerate(row)]
            yield (structure.sparse_value(indices, values, np.array(dense, np.int64)),)
            if len(chunk) < size:
                return


@_method
def sparse_batch(self, batch_size, row_shape, name=None):
    """Consecutive dense elements as one `SparseTensor` per batch: every entry of each
    element is a value, rows of the dense shape `row_shape` (None: the batch's largest).

    >>> ds = tf.data.Dataset.range(1, 4).map(lambda x: tf.fill([x], x)).sparse_batch(2, [3])
    >>> [tf.sparse.to_dense(b).numpy().tolist() for b in ds]
    [[[1, 0, 0], [2, 2, 0]], [[3, 3, 3]]]
    """
    return _SparseBatchDataset(self, batch_size, row_shape)


class _RebatchDataset(_UnaryDataset):
    def __init__(self, input_dataset, batch_sizes, drop_remainder):
        super().__init__(input_dataset)
        specs = structure.flatten(input_dataset.element_spec)
        if any(s.shape.rank == 0 for s in specs):
            raise ValueError("Invalid `batch_sizes`. Expected dataset with rank of >= 1 but "
                             "found a dataset with scalar elements. Fix the issue by adding "
                             "the `batch` transformation to the dataset.")
        if isinstance(batch_sizes, Tensor):
            batch_sizes = batch_sizes.numpy().tolist()
        sizes = [int(b) for b in (batch_sizes if isinstance(batch_sizes, (list, tuple))
                                  else [batch_sizes])]
        # TF allows empty batches in the cycle, as long as some batch takes rows
        if not sizes or any(b < 0 for b in sizes) or not any(sizes):
            raise ValueError("Invalid `batch_sizes`. Every batch size must be positive.")
        self._sizes, self._drop = sizes, bool(drop_remainder)
        static = None
        if len(set(sizes)) == 1:
            dims = {s.shape[0] for s in specs if s.shape.rank is not None}
            if self._drop or (len(dims) == 1 and None not in dims and
                              next(iter(dims)) % sizes[0] == 0):
                static = sizes[0]
        self._spec = structure.batched_spec(structure.unbatched_spec(input_dataset.element_spec),
                                            static)

    def _cardinality(self):
        return UNKNOWN  # TF's, even of an infinite input

    def _iterator(self):
        specs = structure.flatten(self._spec)
        if any(isinstance(s, (SparseTensorSpec, RaggedTensorSpec)) for s in specs):
            return self._row_batches(_UnbatchDataset(self._input)._iterator())
        return self._dense_batches(self._input._iterator())  # made now, as in TF

    def _dense_batches(self, source):
        sizes, k = self._sizes, 0
        pieces, have = collections.deque(), 0  # input rows not handed out yet

        def take(n):  # the next `n` rows, copied only when they span input batches
            if not n:
                return tuple(a[:0] for a in batch)
            parts = []
            while n:
                head = pieces[0]
                rows = head[0].shape[0]
                if rows <= n:
                    parts.append(pieces.popleft())
                    n -= rows
                else:
                    parts.append(tuple(a[:n] for a in head))
                    pieces[0] = tuple(a[n:] for a in head)
                    n = 0
            return parts[0] if len(parts) == 1 else tuple(np.concatenate(c)
                                                          for c in zip(*parts))
        for batch in source:
            pieces.append(batch)
            have += batch[0].shape[0]
            while have >= sizes[k % len(sizes)]:
                size = sizes[k % len(sizes)]
                have -= size
                k += 1
                yield take(size)
        if have and not self._drop:
            yield take(have)


    def _row_batches(self, rows):
        """`_iterator` for elements holding sparse or ragged tensors: `rows` (the input's
        taken apart) batched."""
        sizes, k = self._sizes, 0
        splits = next((s.row_splits_dtype.as_numpy_dtype for s in structure.flatten(self._spec)
                       if isinstance(s, RaggedTensorSpec)), np.int64)
        while True:
            size = sizes[k % len(sizes)]
            chunk = list(itertools.islice(rows, size))
            if not chunk or len(chunk) < size and self._drop:
                return
            yield stack_components(chunk, splits_dtype=splits)
            k += 1


@_method
def rebatch(self, batch_size, drop_remainder=False, name=None):
    """The batched elements re-cut into batches of `batch_size` (or the cycle of sizes).

    >>> ds = tf.data.Dataset.range(8).batch(4).rebatch(2)
    >>> [b.tolist() for b in ds.as_numpy_iterator()]
    [[0, 1], [2, 3], [4, 5], [6, 7]]
    """
    return _RebatchDataset(self, batch_size, drop_remainder)


# -- windows and groups ------------------------------------------------------------------------

class _VariantDataset(Dataset):
    """The elements of a window: a dataset over a list of flat tuples."""

    def __init__(self, elements, spec):
        self._elements = elements
        self._spec = spec

    def _cardinality(self):
        return len(self._elements)

    def _iterator(self):
        return iter(self._elements)


class _WindowDataset(_UnaryDataset):
    def __init__(self, input_dataset, size, shift, stride, drop_remainder):
        super().__init__(input_dataset)
        self._size = _int(size)
        self._shift = self._size if shift is None else _int(shift)
        self._stride = _int(stride)
        self._drop = bool(drop_remainder)
        for what, v in (("size", self._size), ("shift", self._shift),
                        ("stride", self._stride)):
            if _known(v) and v <= 0:
                raise dataset_error("WindowDataset", f"Window {what} must be greater than zero.")
        self._component_specs = structure.flatten(input_dataset.element_spec)
        self._spec = structure.map_structure(lambda s: DatasetSpec(s),
                                             input_dataset.element_spec)

    def _cardinality(self):
        n = self._input._cardinality()
        if n < 0 or not _known(self._size, self._shift, self._stride):
            return n if n < 0 else UNKNOWN
        if self._drop:
            span = self._stride * (self._size - 1) + 1
            return 0 if n < span else (n - span) // self._shift + 1
        return -(-n // self._shift)

    @input_made_first
    def _iterator(self, source):
        size, shift, stride = self._size, self._shift, self._stride
        span = stride * (size - 1) + 1
        buffer = collections.deque()
        done = False
        specs = self._component_specs
        while True:
            while not done and len(buffer) < span:
                element = next(source, None)
                if element is None:
                    done = True
                else:
                    buffer.append(element)
            if not buffer:
                return
            window = list(buffer)[::stride][:size]
            if self._drop and len(window) < size:  # (the input has ended: the rest are short)
                return
            yield tuple(_VariantDataset([(e[c],) for e in window], specs[c])
                        for c in builtins.range(len(specs)))
            for _ in builtins.range(shift):  # the next window starts `shift` elements on
                if buffer:
                    buffer.popleft()
                elif not done and next(source, None) is None:
                    done = True


@_method
def window(self, size, shift=None, stride=1, drop_remainder=False, name=None):
    """Windows of `size` elements (datasets), every `shift` elements, `stride` apart.

    >>> ds = tf.data.Dataset.range(7).window(3, drop_remainder=True)
    >>> [[int(x) for x in w] for w in ds]
    [[0, 1, 2], [3, 4, 5]]
    """
    return _WindowDataset(self, size, shift, stride, drop_remainder)


class _GroupByWindowDataset(_UnaryDataset):
    def __init__(self, input_dataset, key_func, reduce_func, window_size, window_size_func,
                 traced=True):
        super().__init__(input_dataset)
        spec = input_dataset.element_spec
        self._key_fn = StructuredFunction(key_func, "Dataset.group_by_window()", spec).trace()
        out = self._key_fn.output_spec
        if not (isinstance(out, TensorSpec) and out.dtype == _d.int64 and out.shape.rank == 0):
            raise ValueError(f"Invalid `key_func`. `key_func` must return a single `tf.int64` "
                             f"scalar tensor but its return type is {out}.")
        if window_size_func is None:
            size = _int(window_size)
            self._size_fn = lambda key: size
        else:
            fn = StructuredFunction(window_size_func, "Dataset.group_by_window()",
                                    TensorSpec([], _d.int64)).trace()
            self._size_fn = lambda key: int(fn((key,))[0])
        self._window_spec = spec
        self._reduce = DatasetFunction(reduce_func, "Dataset.group_by_window()",
                                       (TensorSpec([], _d.int64), DatasetSpec(spec)),
                                       traced=traced)
        self._spec = self._reduce.output_spec

    def _cardinality(self):
        n = self._input._cardinality()
        return INFINITE if n == INFINITE else UNKNOWN

    @input_made_first
    def _iterator(self, source):
        groups, sizes = {}, {}
        for element in source:
            key = int(self._key_fn(element)[0])
            if key not in groups:
                groups[key] = []
                sizes[key] = self._size_fn(np.array(key, np.int64))
                if sizes[key] <= 0:
                    raise op_error(errors.InvalidArgumentError, "IteratorGetNext",
                                   f"Window size must be greater than zero, but got "
                                   f"{sizes[key]}.")
            groups[key].append(element)
            if len(groups[key]) >= sizes[key]:
                yield from self._reduced(key, groups.pop(key))
                del sizes[key]
        for key in sorted(groups):  # what is left, by key (TF keeps its groups in a map)
            yield from self._reduced(key, groups[key])

    def _reduced(self, key, elements):
        window = _VariantDataset(elements, self._window_spec)
        return self._reduce((np.array(key, np.int64), window))._iterator()


@_method
def group_by_window(self, key_func, reduce_func, window_size=None, window_size_func=None,
                    name=None):
    """Elements grouped by ``key_func(element)`` into windows, each reduced to a dataset by
    ``reduce_func(key, window)``.

    >>> ds = tf.data.Dataset.range(6).group_by_window(
    ...     lambda x: x % 2, lambda key, window: window.batch(3), window_size=3)
    >>> [b.tolist() for b in ds.as_numpy_iterator()]
    [[0, 2, 4], [1, 3, 5]]
    """
    if (window_size is None) == (window_size_func is None):
        raise ValueError("Either the `window_size` argument or the `window_size_func` argument "
                         "must be specified.")
    return _GroupByWindowDataset(self, key_func, reduce_func, window_size, window_size_func)


@_method
def bucket_by_sequence_length(self, element_length_func, bucket_boundaries, bucket_batch_sizes,
                              padded_shapes=None, padding_values=None,
                              pad_to_bucket_boundary=False, no_padding=False,
                              drop_remainder=False, name=None):
    """Elements batched with others of similar length (``element_length_func``), one bucket per
    interval of `bucket_boundaries`, padded per batch.

    >>> ds = tf.data.Dataset.from_tensor_slices([1, 2, 3]).map(
    ...     lambda x: tf.fill([x], x)).bucket_by_sequence_length(
    ...     lambda x: tf.shape(x)[0], [2], [2, 2])
    >>> [b.tolist() for b in ds.as_numpy_iterator()]
    [[[2, 2, 0], [3, 3, 3]], [[1]]]
    """
    boundaries = [int(b) for b in bucket_boundaries]
    sizes = [int(b) for b in bucket_batch_sizes]
    if len(sizes) != len(boundaries) + 1:
        raise ValueError(f"`len(bucket_batch_sizes)` must equal `len(bucket_boundaries) + 1` "
                         f"but `len(bucket_batch_sizes)={len(sizes)}` and "
                         f"`len(bucket_boundaries)={len(boundaries)}`.")
    from eagerflow._src.ops import array_ops, math_ops, reduction_ops  # noqa: PLC0415
    from eagerflow._src.ops.cast_ops import cast  # noqa: PLC0415

    # (Python lists, as TF compares them: int32, so the length must be an int32 too)
    lower = [int(np.iinfo(np.int32).min)] + boundaries
    upper = boundaries + [int(np.iinfo(np.int32).max)]

    def bucket_of(*args):
        length = element_length_func(*args)
        inside = math_ops.logical_and(math_ops.less_equal(lower, length),
                                      math_ops.less(length, upper))
        return reduction_ops.argmax(cast(inside, _d.int32), output_type=_d.int64)

    def size_of(bucket_id):
        return array_ops.gather(np.array(sizes, np.int64), bucket_id)

    def batching(bucket_id, window):
        if no_padding:
            return window.batch(size_of(bucket_id), drop_remainder=drop_remainder)
        filler = None
        if pad_to_bucket_boundary:
            bucket = _int(bucket_id)
            if bucket is not None:  # (while tracing for the spec, the bucket is unknown)
                if bucket >= len(boundaries):
                    # (TF's assertion fails in the function batching the window, whose
                    # errors reach the iterator as InternalErrors)
                    raise op_error(
                        errors.InternalError, "IteratorGetNext",
                        "Got error code INVALID_ARGUMENT and message: {\nassertion failed: "
                        "[When pad_to_bucket_boundary=True, elements must have length < "
                        "max(bucket_boundaries).] [Condition x < y did not hold "
                        f"element-wise:] [x (args_0:0) = ] [{bucket}] [y (Const_1:0) = ] "
                        f"[{len(boundaries)}]\n}} \nfrom running user-defined function "
                        "Dataset_group_by_window_batching_fn: ")
                filler = boundaries[bucket] - 1
        shapes = structure.map_structure(
            lambda s: TensorShape([filler if d is None else d for d in TensorShape(s).as_list()]),
            padded_shapes if padded_shapes is not None else structure.map_structure(
                lambda spec: spec.shape, window.element_spec))
        return window.padded_batch(size_of(bucket_id), shapes, padding_values,
                                   drop_remainder=drop_remainder)

    # (`batching` reads the bucket's number: it runs per window, eagerly)
    return _GroupByWindowDataset(self, bucket_of, batching, None, size_of, traced=False)


# -- functions returning datasets --------------------------------------------------------------

class _FlatMapDataset(_UnaryDataset):
    def __init__(self, input_dataset, map_func):
        super().__init__(input_dataset)
        self._fn = DatasetFunction(map_func, "Dataset.flat_map()", input_dataset.element_spec,
                                   input_dataset)
        self._spec = self._fn.output_spec

    def _cardinality(self):
        return UNKNOWN

    @input_made_first
    def _iterator(self, source):
        fn = self._fn
        for element in source:
            yield from branch_iterator(fn(element), "inner")


@_method
def flat_map(self, map_func, name=None):
    """The elements of the datasets that `map_func` makes of each element, in order.

    >>> ds = tf.data.Dataset.range(3).flat_map(lambda x: tf.data.Dataset.range(x))
    >>> [int(v) for v in ds]
    [0, 0, 1]
    """
    return _FlatMapDataset(self, map_func)


def _interleave_cycle(cycle, calls):
    """``(cycle length, misfit)`` of an interleave given `cycle` (-1: AUTOTUNE) and
    `calls` threads (None: sequential, -1: AUTOTUNE), as TF picks them from the cores: all
    of them sequentially; in parallel, one a thread up to the cores, or with both tuned one
    a third of the cores (each open input also prefetches two more).  `misfit` is the
    thread count when it exceeds the cycle, which TF refuses, else 0."""
    if cycle is None:  # (symbolic while a function traces: known when the dataset is rebuilt)
        return None, 0
    if cycle == -1:
        if calls is None:
            cycle = cores()
        elif calls == AUTOTUNE:
            cycle = -(-cores() // 3)
        else:
            cycle = min(calls, cores())
    misfit = calls if calls is not None and calls != AUTOTUNE and calls > cycle > 0 else 0
    return cycle, misfit


class _InterleaveDataset(_UnaryDataset):
    def __init__(self, input_dataset, map_func, cycle_length, block_length,
                 num_parallel_calls=None, deterministic=None):
        super().__init__(input_dataset)
        self._fn = DatasetFunction(map_func, "Dataset.interleave()",
                                   input_dataset.element_spec, input_dataset)
        self._spec = self._fn.output_spec
        cycle = -1 if cycle_length is None else _int(cycle_length)
        self._block = 1 if block_length is None else _int(block_length)
        op = "InterleaveDataset" if num_parallel_calls is None else \
            "ParallelInterleaveDatasetV4"
        counts = captures(self._fn)
        calls = None if num_parallel_calls is None else _int(num_parallel_calls)
        # (a bad thread count is refused before the cycle it would pick)
        self._threads = None if num_parallel_calls is None else _num_threads(
            num_parallel_calls, op, counts)
        self._cycle, self._misfit = _interleave_cycle(cycle, calls)
        if self._misfit and cycle != -1:  # a cycle given is checked as the dataset is made
            raise dataset_error(op, self._misfit_message(), counts)
        if _known(self._cycle) and self._cycle <= 0:
            raise dataset_error(op, "cycle_length must be greater than zero.", counts)
        if _known(self._block) and self._block <= 0:
            raise dataset_error(op, "block_length must be greater than zero.", counts)
        if num_parallel_calls is not None:
            self._tf_name = "_ParallelInterleaveDataset"

    def _misfit_message(self):
        return ("If `cycle_length` is set to a fixed value, `num_parallel_calls` must be "
                "either `tf.data.AUTOTUNE` or a value less than or equal to `cycle_length`. "
                f"However, `num_parallel_calls` is {self._misfit} and `cycle_length` is "
                f"{self._cycle}")

    def _cardinality(self):
        # TF's parallel interleave knows an infinite input makes it infinite
        if self._threads is not None and self._input._cardinality() == INFINITE:
            return INFINITE
        return UNKNOWN

    def _iterator(self):
        if self._misfit:  # one picked from the cores is checked as the iterator starts
            raise errors.eager_error(
                errors.InvalidArgumentError, "MakeIterator", self._misfit_message()
                + "\n\t [[{{node ParallelInterleaveDatasetV4}}]]", "")
        if self._threads is not None:
            return self._parallel()
        return self._sequential(lambda it: it)

    def _sequential(self, opened):
        source = self._input._iterator()
        cycle, block, fn = self._cycle, self._block, self._fn
        slots = [None] * cycle
        open_count, index, produced = 0, 0, 0
        end_of_input = False
        while not end_of_input or open_count:
            current = slots[index]
            if current is not None:
                element = next(current, None)
                if element is not None:
                    yield element
                    produced += 1
                    if produced == block:
                        produced, index = 0, (index + 1) % cycle
                    continue
                slots[index] = None
                open_count -= 1
                produced, index = 0, (index + 1) % cycle
            elif not end_of_input:
                element = next(source, None)
                if element is None:
                    end_of_input = True
                else:
                    slots[index] = opened(branch_iterator(fn(element), "inner"))
                    open_count += 1
            else:
                produced, index = 0, (index + 1) % cycle

    def _parallel(self):
        from eagerflow._src.data.parallel import prefetched  # noqa: PLC0415
        # Each open input dataset fills its own buffer on a thread; the order stays the
        # sequential interleave's, as TF's deterministic parallel interleave keeps it.  A
        # buffer's thread stops when its slot lets go of it (or this iterator is dropped).
        block = max(1, self._block)
        return self._sequential(lambda it: prefetched(it, block))


@_method
def interleave(self, map_func, cycle_length=None, block_length=None, num_parallel_calls=None,
               deterministic=None, name=None):
    """The datasets `map_func` makes of the elements, `cycle_length` at a time, taking
    `block_length` elements from each in turn.

    >>> ds = tf.data.Dataset.range(1, 4).interleave(
    ...     lambda x: tf.data.Dataset.from_tensors(x).repeat(2), cycle_length=2)
    >>> [int(v) for v in ds]
    [1, 2, 1, 2, 3, 3]
    """
    warn_unused_deterministic(num_parallel_calls, deterministic)
    return _InterleaveDataset(self, map_func, cycle_length, block_length, num_parallel_calls,
                              deterministic)


# -- the rest ----------------------------------------------------------------------------------

class _CacheDataset(_UnaryDataset):
    def __init__(self, input_dataset, filename):
        super().__init__(input_dataset)
        self._filename = filename
        self._cache = None

    def _iterator(self):
        if self._cache is not None:
            return iter(self._cache)
        # (the input's iterator made now, as TF makes it: a shuffle before the cache draws
        # this iteration's order as the iterator is made, not when it is first read)
        return self._filling(self._input._iterator())

    def _filling(self, source):
        elements = []
        for element in source:
            elements.append(element)
            yield element
        if self._cache is None:
            self._cache = elements


class CacheDataset(_CacheDataset):
    """TF's name for the cache dataset class (printed in its repr)."""


@_method
def cache(self, filename="", name=None):
    """The elements, kept after the first complete iteration and read from there after.

    >>> ds = tf.data.Dataset.range(3).map(lambda x: x * 10).cache()
    >>> [int(v) for v in ds], [int(v) for v in ds]
    ([0, 10, 20], [0, 10, 20])

    With a `filename`, the elements go to files (``<filename>.index`` and
    ``<filename>.data-00000-of-00001``) that later iterations, and later
    programs, read instead of running the input.
    """
    if isinstance(filename, Tensor):
        filename = filename.numpy().decode()
    if filename:
        from eagerflow._src.data.file_cache import FileCacheDataset  # noqa: PLC0415
        return FileCacheDataset(self, filename)
    return CacheDataset(self, filename)


class _ShardDataset(_UnaryDataset):
    def __init__(self, input_dataset, num_shards, index):
        super().__init__(input_dataset)
        self._n, self._index = _int(num_shards), _int(index)
        if not _known(self._n, self._index):
            return
        if self._n <= 0:
            raise dataset_error("ShardDataset", f"Number of shards must be greater than zero "
                                                f"(currently num_shards = {self._n}).")
        if not 0 <= self._index < self._n:
            raise dataset_error("ShardDataset", f"Index must be between 0 and {self._n - 1} "
                                                f"(currently index = {self._index}).")

    def _cardinality(self):
        n = self._input._cardinality()
        if n < 0 or not _known(self._n, self._index):
            return n if n < 0 else UNKNOWN
        return n // self._n + (1 if n % self._n > self._index else 0)

    def _iterator(self):
        n, index = self._n, self._index
        return (e for i, e in enumerate(self._input._iterator()) if i % n == index)


@_method
def shard(self, num_shards, index, name=None):
    """Every `num_shards`-th element, starting at `index`.

    >>> [int(x) for x in tf.data.Dataset.range(10).shard(3, 1)]
    [1, 4, 7]
    """
    return _ShardDataset(self, num_shards, index)


class _TakeWhileDataset(_UnaryDataset):
    def __init__(self, input_dataset, predicate):
        super().__init__(input_dataset)
        self._fn = StructuredFunction(predicate, "Dataset.take_while()",
                                      input_dataset.element_spec).trace()
        out = self._fn.output_spec
        if not (isinstance(out, TensorSpec) and out.dtype == _d.bool and out.shape.rank == 0):
            raise ValueError(f"Invalid `predicate`. `predicate` must return a `tf.bool` scalar "
                             f"tensor but its return type is{out}.")  # (TF's words)

    def _cardinality(self):
        return UNKNOWN

    @input_made_first
    def _iterator(self, source):
        fn = self._fn
        for element in source:
            if not fn(element)[0]:
                return
            yield element


@_method
def take_while(self, predicate, name=None):
    """The elements up to the first for which `predicate` is False.

    >>> [int(x) for x in tf.data.Dataset.range(10).take_while(lambda x: x < 3)]
    [0, 1, 2]
    """
    return _TakeWhileDataset(self, predicate)


class _UniqueDataset(_UnaryDataset):
    def __init__(self, input_dataset):
        super().__init__(input_dataset)
        spec = input_dataset.element_spec
        # TF checks each component's type (a None component's is its spec), then that there
        # is one component (a dict of one tensor is fine)
        flat = structure.flatten(spec)
        for s in flat:
            kind = getattr(s, "dtype", s)
            if not isinstance(kind, _d.DType) or kind not in (_d.int32, _d.int64, _d.string):
                raise TypeError(f"`tf.data.Dataset.unique` does not support type {kind} -- "
                                f"only `tf.int32`, `tf.int64`, and `tf.string` are supported.")
        if len(flat) != 1:
            raise op_error(errors.InvalidArgumentError, "UniqueDataset",
                           "UniqueDataset only supports inputs with a single component.")
        if not isinstance(flat[0], TensorSpec):  # (a sparse or ragged one)
            raise op_error(errors.InvalidArgumentError, "UniqueDataset",
                           "UniqueDataset only supports inputs with a single `tf.int32`, "
                           "`tf.int64`, or `tf.string` component.")

    def _cardinality(self):
        return UNKNOWN  # TF's, even of an infinite input

    @input_made_first
    def _iterator(self, source):
        seen = set()
        for element in source:
            a = element[0]
            key = (a.shape, tuple(a.reshape(-1).tolist()) if a.dtype == object else a.tobytes())
            if key not in seen:
                seen.add(key)
                yield element


@_method
def unique(self, name=None):
    """The elements, each the first time it appears (int32, int64 or string scalars).

    >>> [int(x) for x in tf.data.Dataset.from_tensor_slices([1, 2, 1, 3]).unique()]
    [1, 2, 3]
    """
    return _UniqueDataset(self)


class _IgnoreErrorsDataset(_UnaryDataset):
    def __init__(self, input_dataset, log_warning=False):
        super().__init__(input_dataset)
        self._log = log_warning

    def _cardinality(self):
        return UNKNOWN  # TF's, even of an infinite input

    @input_made_first
    def _iterator(self, source):
        while True:
            try:
                element = next(source)
            except StopIteration:
                return
            except errors.OpError as e:
                if self._log:
                    from eagerflow._src.backend.log import logger  # noqa: PLC0415
                    logger.warning("%s", e)
                continue  # map and filter go on after an element fails; generators end
            yield element


@_method
def ignore_errors(self, log_warning=False, name=None):
    """The elements, skipping those whose computation raised an error."""
    return _IgnoreErrorsDataset(self, log_warning)


# -- rejection resampling ----------------------------------------------------------------------

def _acceptance_and_mixing(initial, target):
    """Per-class acceptance probabilities and the probability of drawing from the data as it
    is, which together turn `initial`'s class distribution into `target`'s with the fewest
    rejections (TF's resampler)."""
    from eagerflow._src.ops import reduction_ops  # noqa: PLC0415
    ratio = target / (initial + np.finfo(np.float32).tiny)
    smallest = reduction_ops.reduce_min(ratio)
    return (ratio - smallest) / (reduction_ops.reduce_max(ratio) - smallest), smallest


def _estimated_distribution(target, classes, batch_size=32, smoothing=10):
    """The class distribution seen so far, element by element (counts start at `smoothing`
    per class and are updated every `batch_size` elements)."""
    from eagerflow._src.ops import array_ops, reduction_ops  # noqa: PLC0415
    from eagerflow._src.ops.cast_ops import cast  # noqa: PLC0415
    num_classes = target.shape[0]

    def update(seen, c):
        seen = seen + reduction_ops.reduce_sum(array_ops.one_hot(c, num_classes,
                                                                 dtype=_d.int64), 0)
        dist = cast(seen / reduction_ops.reduce_sum(seen), _d.float32)
        return seen, array_ops.tile(array_ops.expand_dims(dist, 0), [batch_size, 1])
    start = np.full([num_classes], smoothing, np.int64)
    return classes.batch(batch_size).scan(start, update).unbatch()


def _warn_on_large_rejection(accept, initial):
    """`accept`, printing to stderr (the first 10 times, as TF) when the sampler rejects
    half the data or more: the proportion rejected, `initial` and `accept`."""
    from eagerflow._src.graph import control_flow  # noqa: PLC0415
    from eagerflow._src.ops import logging_ops, reduction_ops  # noqa: PLC0415
    rejected = reduction_ops.reduce_sum((1 - accept) * initial)
    return control_flow.cond(rejected < 0.5, lambda: accept, lambda: logging_ops.Print(
        accept, [rejected, initial, accept],
        message="Proportion of examples rejected by sampler is high: ", summarize=100,
        first_n=10))


@_method
def rejection_resample(self, class_func, target_dist, initial_dist=None, seed=None,
                       name=None):
    """``(class, element)`` pairs resampled so that the classes (``class_func(element)``, int32
    scalars) follow `target_dist`, by rejecting elements and mixing in the data as it is.
    `initial_dist` is the data's class distribution, estimated as it streams when None."""
    from eagerflow._src.ops import array_ops, random_ops  # noqa: PLC0415
    from eagerflow._src.ops.cast_ops import cast  # noqa: PLC0415
    with context.init_scope():
        target = cast(convert_to_tensor(target_dist), _d.float32)
        if initial_dist is not None:
            initial = cast(convert_to_tensor(initial_dist), _d.float32)
            accept, mix = _acceptance_and_mixing(initial, target)
            initial_ds = Dataset.from_tensors(initial).repeat()
            accept_ds = Dataset.from_tensors(accept).repeat()
            mix_ds = Dataset.from_tensors(mix).repeat()
            mix_static = float(np.min(target.numpy() / initial.numpy()))
        else:
            initial_ds = _estimated_distribution(target, self.map(class_func))
            both = initial_ds.map(lambda d: _acceptance_and_mixing(d, target))
            accept_ds = both.map(lambda a, _: a)
            mix_ds = both.map(lambda _, m: m)
            mix_static = None

    def with_class(*x):
        return (class_func(*x), x[0]) if len(x) == 1 else (class_func(*x), x)

    def class_and_acceptance(accept, data):
        c = class_func(*data) if isinstance(data, tuple) else class_func(data)
        return c, array_ops.gather(accept, c), data

    accept_ds = Dataset.zip((accept_ds, initial_ds)).map(_warn_on_large_rejection)
    kept = Dataset.zip((accept_ds, self)).map(class_and_acceptance).filter(
        lambda _, p, __: random_ops.uniform([], seed=seed, dtype=p.dtype) < p).map(
        lambda c, _, data: (c, data)).prefetch(3)
    if mix_static == 1:
        return self.map(with_class)
    if mix_static == 0:
        return kept
    return Dataset.sample_from_datasets([self.map(with_class), kept],
                                        weights=mix_ds.map(lambda p: [(p, 1.0 - p)]),
                                        seed=seed, stop_on_empty_dataset=True)

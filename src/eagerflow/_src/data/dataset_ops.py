"""`Dataset` (``tf.data.Dataset``): input pipelines as immutable graphs of Python nodes.

>>> ds = tf.data.Dataset.from_tensor_slices([1, 2, 3]).map(lambda x: x * 2)
>>> list(ds.as_numpy_iterator())
[np.int32(2), np.int32(4), np.int32(6)]
>>> ds.batch(2).element_spec
TensorSpec(shape=(None,), dtype=tf.int32, name=None)

See the package docstring (``eagerflow._src.data``) for the node protocol.
"""
import builtins
import itertools
import os
import re
import threading
import warnings

import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import context
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import errors
from eagerflow._src.core.dispatch import fed_values
from eagerflow._src.core.convert import convert_to_tensor, get_static_value
from eagerflow._src.core.errors import op_error
from eagerflow._src.core.tensor import EagerTensor, Tensor
from eagerflow._src.core.tensor_spec import TensorSpec
from eagerflow._src.core.variables import Variable
from eagerflow._src.data import structure
from eagerflow._src.data.structured_function import (
    ReturnsDatasets, ReturnsNothing, branch_iterator, scoped_call, traced)
from eagerflow._src.ops.random_ops import draw_scope
from eagerflow._src.ops.sparse_tensor import SparseTensor, SparseTensorSpec
from eagerflow._src.ragged.ragged_tensor import RaggedTensor, RaggedTensorSpec
from eagerflow._src.core.composite_tensor import CompositeTensor

INFINITE = -1
UNKNOWN = -2
export("data.INFINITE_CARDINALITY", "data.experimental.INFINITE_CARDINALITY").export_constant(
    __name__, "INFINITE")
export("data.UNKNOWN_CARDINALITY", "data.experimental.UNKNOWN_CARDINALITY").export_constant(
    __name__, "UNKNOWN")
AUTOTUNE = -1
export("data.AUTOTUNE", "data.experimental.AUTOTUNE").export_constant(__name__, "AUTOTUNE")

_INT64_MAX = 2 ** 63 - 1
_new = object.__new__


def _int(value, name=None):
    """A Python int from a Python number, NumPy scalar or scalar tensor; None for a symbolic
    tensor (a dataset built while a function traces, whose counts are unknown).  With the
    argument's `name`, a tensor or variable must be an int64 one (TF's ValueError)."""
    if name is not None and isinstance(value, (Tensor, Variable)) and value.dtype != _d.int64:
        convert_to_tensor(value, dtype=_d.int64, name=name)
    if isinstance(value, Variable):
        value = value.value()  # (while a function traces, a symbolic read)
    if isinstance(value, Tensor):
        if not isinstance(value, EagerTensor):
            return None
        value = value.numpy()
    elif isinstance(value, (str, bytes, float)):  # TF converts to int64: its TypeError
        convert_to_tensor(value, dtype=_d.int64)
    return int(value)


def _known(*values):
    return all(v is not None for v in values)


def dataset_error(op, message, counts=()):
    """The InvalidArgumentError of dataset op `op`'s kernel refusing its arguments as the
    dataset is made, in TF's form (see `errors.eager_message`)."""
    return errors.eager_error(errors.InvalidArgumentError, op, message, "", counts)


def captures(fn):
    """The ``Targuments`` count of a dataset op running traced function `fn`: its captured
    tensors (0 for a function called per element)."""
    return (("Targuments", len(getattr(getattr(fn, "_concrete", None), "captured_inputs",
                                       ()))),)


def _batch_size(batch_size, op, counts=()):
    """`batch_size` as `_int` gives it; InvalidArgumentError from `op` when not positive."""
    size = _int(batch_size, "batch_size")
    if _known(size) and size <= 0:
        raise dataset_error(op, "Batch size must be greater than zero.", counts)
    return size


def _batched_cardinality(input_dataset, batch_size, drop_remainder):
    """How many batches of `batch_size` `input_dataset`'s elements make (the last one
    partial unless `drop_remainder`)."""
    n = input_dataset._cardinality()
    if n < 0 or not _known(batch_size):
        return n if n < 0 else UNKNOWN
    return n // batch_size if drop_remainder else -(-n // batch_size)


def warn_unused_deterministic(num_parallel_calls, deterministic):
    """TF's UserWarning for a `deterministic` given without `num_parallel_calls`."""
    if num_parallel_calls is None and deterministic is not None:
        warnings.warn("The `deterministic` argument has no effect unless the "
                      "`num_parallel_calls` argument is specified.")


def _get_next_error(message, op="IteratorGetNext"):
    return op_error(errors.InvalidArgumentError, op, message)


_function_nodes = itertools.count(1)  # numbers the datasets running functions, as TF's names
_GRAPH_ERROR = re.compile(r"Graph execution error:\n\nDetected at node .*? defined at \(most recent "
                          r"call last\):\n((?:  File [^\n]*\n\n)*)(.*)\n\t "
                          r"\[\[(\{\{node .*?\}\})\]\] \[Op:[^\]]*\]$", re.S)


def function_label(kind):
    """TF's name of a dataset running a function (``MapDataset:<n>``), numbered as made."""
    return f"{kind}:{next(_function_nodes)}"


def framed(fn, label, iterator, preserve_cardinality=False):
    """`fn` (a dataset's function on flat tuples) raising TF's error for a failing element:
    the error's class, its message introduced by the dataset's `label` and its iterator
    (``Map``), then the failing node, as TF ends it.
    `preserve_cardinality` (maps): an OutOfRangeError of the function is an
    InvalidArgumentError, not taken for the end of the data (as in TF).  Framed as each
    iteration starts, so a copy of the dataset fed other captured values frames its own."""

    def call(element):
        try:
            return fn(element)
        except errors.OpError as e:
            error = _function_error(e, label, iterator)
            if preserve_cardinality and isinstance(e, errors.OutOfRangeError):
                error = errors.InvalidArgumentError(
                    None, error.op, f"Function invocation produced OutOfRangeError: "
                                    f"{error.message}")
            raise error from None
    return call


def _function_error(e, label, iterator):
    message = e.message
    found = _GRAPH_ERROR.match(message)
    if found is not None:  # (TF's text says the node, not where its op was made)
        _, text, node = found.groups()
        message = f"{text.strip()}\n\t [[{node}]]"
    else:
        message = errors.bare_message(message)
    return op_error(type(e), "IteratorGetNext",
                    f"Error in user-defined function passed to {label} transformation with "
                    f"iterator: Iterator::Root::{iterator}: {message}")


@export("data.Dataset")
@CompositeTensor.register
class Dataset:
    """A sequence of elements, each a nest (tuple, named tuple, dict) of tensors.

    A dataset is immutable: transformations return new datasets.  Iterating
    (``for x in ds``, ``iter(ds)``) runs the pipeline, eagerly.

    >>> ds = tf.data.Dataset.range(5).filter(lambda x: x % 2 == 0)
    >>> [int(x) for x in ds]
    [0, 2, 4]
    """

    def __new__(cls, *args, **kwargs):
        # While a function traces, a node keeps its constructor's arguments: one built from
        # the function's tensors is built again from their values on every call
        # (`iterator_graph.bound_dataset`), as TF builds its dataset ops at run time.
        # (so is one a dataset function builds per element from them: `dispatch.feeding`)
        self = super().__new__(cls)
        if not context.executing_eagerly() or fed_values() is not None:
            self._recipe = (args, kwargs)
            # (built in a loop's body or a branch: built again on each run of it)
            self._in_body = getattr(context.get().graph, "control_flow_body", False)
        return self

    # -- what every node defines ---------------------------------------------------------------
    def _iterator(self):
        """A fresh Python iterator of this dataset's elements, each a flat tuple of backend
        arrays in ``structure.flatten(self.element_spec)`` order."""
        raise NotImplementedError

    def _cardinality(self):
        """The number of elements: an int, `INFINITE` or `UNKNOWN`."""
        return UNKNOWN

    def _inputs(self):
        return []

    def _batches(self, batch_size, drop_remainder):
        """An iterator of whole batches made without stacking one element at a time, or
        None (sources over arrays slice them in ranges)."""
        return None

    @property
    def element_spec(self):
        """The `TensorSpec` nest of one element."""
        return self._spec

    # -- iteration -----------------------------------------------------------------------------
    def __iter__(self):
        from eagerflow._src.data import iterator_graph  # noqa: PLC0415
        if iterator_graph.building_graph():  # a new iteration on every call of the function
            return iterator_graph.dataset_as_graph_iterator(self)
        from eagerflow._src.data.iterator_ops import OwnedIterator  # noqa: PLC0415
        return OwnedIterator(self)

    def _as_function_argument(self):
        """(trace key, variant tensor): a `function` argument keys by its `DatasetSpec`."""
        from eagerflow._src.data import iterator_graph  # noqa: PLC0415
        return iterator_graph.as_function_argument(self)

    def _as_graph_iterator(self):
        """The iterator AutoGraph's ``for`` loops over while a function traces."""
        from eagerflow._src.data import iterator_graph  # noqa: PLC0415
        return iterator_graph.dataset_as_graph_iterator(self)

    def __bool__(self):
        return True

    def __len__(self):
        n = self._cardinality()
        if n == INFINITE:
            raise TypeError("The dataset is infinite.")
        if n == UNKNOWN:
            raise TypeError("The dataset length is unknown.")
        return n

    def cardinality(self):
        """The number of elements as an int64 scalar tensor: `INFINITE_CARDINALITY` (-1) or
        `UNKNOWN_CARDINALITY` (-2) when it cannot be known without iterating.

        >>> tf.data.Dataset.range(10).batch(3).cardinality()
        <tf.Tensor: shape=(), dtype=int64, numpy=4>
        """
        from eagerflow._src.data import iterator_graph  # noqa: PLC0415
        if iterator_graph.building_graph():  # built from the function's tensors: counted
            counted = iterator_graph.cardinality(self)  # on every call
            if counted is not None:
                return counted
        return convert_to_tensor(np.int64(self._cardinality()))

    def as_numpy_iterator(self):
        """An iterator of the elements as NumPy values (nests kept).

        >>> list(tf.data.Dataset.from_tensor_slices({"a": [1, 2]}).as_numpy_iterator())
        [{'a': np.int32(1)}, {'a': np.int32(2)}]
        """
        from eagerflow._src.data.iterator_ops import NumpyIterator  # noqa: PLC0415
        extension = structure.extension_type_in(self.element_spec)
        if extension is not None:
            raise TypeError(f"`tf.data.Dataset.as_numpy_iterator()` is not supported for "
                            f"datasets that produce values of type {extension}")
        for spec in structure.flatten(self.element_spec):
            if not isinstance(spec, (TensorSpec,) + structure.COMPOSITE_SPECS):
                raise TypeError(f"`tf.data.Dataset.as_numpy_iterator()` is not supported for "
                                f"datasets that produce values of type {Dataset}")
        return NumpyIterator(self)

    # The class name TF prints, where this class differs from TF's.
    _tf_name = None

    def __repr__(self):
        name = self._tf_name or type(self).__name__
        return f"<{name} element_spec={self.element_spec!r}>"

    def options(self):
        """The `Options` set on this dataset and its inputs (merged)."""
        from eagerflow._src.data.options import Options  # noqa: PLC0415
        found = getattr(self, "_options_value", None)
        if found is not None:
            return found
        merged = Options()
        for d in self._inputs():
            merged = merged.merge(d.options())
        return merged

    # -- constructors --------------------------------------------------------------------------
    @staticmethod
    def from_tensor_slices(tensors, name=None):
        """The slices of `tensors` along their first dimension, one element each.

        >>> list(tf.data.Dataset.from_tensor_slices(([1, 2], [3, 4])).as_numpy_iterator())
        [(np.int32(1), np.int32(3)), (np.int32(2), np.int32(4))]

        A `SparseTensor` gives its rows; batches of them are sparse tensors again:

        >>> st = tf.SparseTensor(indices=[[0, 1], [1, 0]], values=[5, 7], dense_shape=[2, 3])
        >>> ds = tf.data.Dataset.from_tensor_slices(st)
        >>> ds.element_spec
        SparseTensorSpec(TensorShape([3]), tf.int32)
        >>> tf.sparse.to_dense(next(iter(ds.batch(2)))).numpy().tolist()
        [[0, 5, 0], [7, 0, 0]]
        """
        return _TensorSliceDataset(tensors)

    @staticmethod
    def from_tensors(tensors, name=None):
        """A dataset of one element, `tensors`.

        >>> tf.data.Dataset.from_tensors([1, 2]).element_spec
        TensorSpec(shape=(2,), dtype=tf.int32, name=None)
        """
        return _TensorDataset(tensors)

    @staticmethod
    def range(*args, output_type=_d.int64, name=None):
        """Python's ``range`` as a dataset of scalars of `output_type` (int64).

        >>> list(tf.data.Dataset.range(1, 6, 2).as_numpy_iterator())
        [np.int64(1), np.int64(3), np.int64(5)]
        """
        return _RangeDataset(*args, output_type=output_type)

    @staticmethod
    def zip(*args, datasets=None, name=None):
        """Elements of several datasets side by side, in their nest; stops at the shortest.

        >>> a, b = tf.data.Dataset.range(3), tf.data.Dataset.range(10, 12)
        >>> list(tf.data.Dataset.zip(a, b).as_numpy_iterator())
        [(np.int64(0), np.int64(10)), (np.int64(1), np.int64(11))]
        """
        if datasets is not None and args:
            raise TypeError("Both `*args` and `datasets` cannot be set.")
        if datasets is None:
            if not args:
                raise TypeError("Must pass at least one dataset to `zip`.")
            datasets = args[0] if len(args) == 1 else args
        return _ZipDataset(datasets)

    @staticmethod
    def counter(start=0, step=1, dtype=_d.int64, name=None):
        """``start, start + step, ...`` forever.

        >>> list(tf.data.Dataset.counter(5).take(3).as_numpy_iterator())
        [np.int64(5), np.int64(6), np.int64(7)]
        """
        return _CounterDataset(start, None, step, output_type=dtype)

    @staticmethod
    def from_generator(generator, output_types=None, output_shapes=None, args=None,
                       output_signature=None, name=None):
        """The elements a Python generator yields, checked against `output_signature`.

        >>> def gen():
        ...     yield 1
        ...     yield 2
        >>> ds = tf.data.Dataset.from_generator(
        ...     gen, output_signature=tf.TensorSpec(shape=(), dtype=tf.int32))
        >>> list(ds.as_numpy_iterator())
        [np.int32(1), np.int32(2)]
        """
        from eagerflow._src.data.sources import from_generator  # noqa: PLC0415
        return from_generator(generator, output_types, output_shapes, args, output_signature)

    @staticmethod
    def list_files(file_pattern, shuffle=None, seed=None, name=None):
        """The file names matching the glob pattern(s), shuffled unless ``shuffle=False``."""
        from eagerflow._src.data.sources import list_files  # noqa: PLC0415
        return list_files(file_pattern, shuffle, seed)

    @staticmethod
    def random(seed=None, rerandomize_each_iteration=None, name=None):
        """Pseudorandom int64 values in ``[0, 2**32)``, forever (TF's values for a seed).

        >>> tf.random.set_seed(None)
        >>> ds = tf.data.Dataset.random(seed=4).take(2)
        >>> [int(x) for x in ds]
        [3128586565, 2023892699]
        """
        from eagerflow._src.data.sources import random_dataset  # noqa: PLC0415
        return random_dataset(seed, rerandomize_each_iteration)

    @staticmethod
    def sample_from_datasets(datasets, weights=None, seed=None, stop_on_empty_dataset=False,
                             rerandomize_each_iteration=None):
        """Elements drawn at random from `datasets` with probabilities `weights` (TF's draws
        for a seed); `weights` may be a dataset of weights, one per element drawn.

        >>> tf.random.set_seed(None)
        >>> ds = tf.data.Dataset.sample_from_datasets(
        ...     [tf.data.Dataset.range(3), tf.data.Dataset.range(10, 13)], seed=7)
        >>> [int(x) for x in ds]
        [10, 0, 11, 1, 2, 12]
        """
        from eagerflow._src.data.sources import sample_from_datasets  # noqa: PLC0415
        return sample_from_datasets(datasets, weights, seed, stop_on_empty_dataset,
                                    rerandomize_each_iteration)

    @staticmethod
    def choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset=True):
        """The elements of ``datasets[i]`` for each ``i`` that `choice_dataset` gives.

        >>> letters = [tf.data.Dataset.from_tensors(c).repeat() for c in "ab"]
        >>> ds = tf.data.Dataset.choose_from_datasets(
        ...     letters, tf.data.Dataset.from_tensor_slices(np.array([0, 1, 1], np.int64)))
        >>> list(ds.as_numpy_iterator())
        [b'a', b'b', b'b']
        """
        from eagerflow._src.data.sources import choose_from_datasets  # noqa: PLC0415
        return choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset)

    # -- transformations -----------------------------------------------------------------------
    def map(self, map_func, num_parallel_calls=None, deterministic=None, synchronous=None,
            use_unbounded_threadpool=False, name=None):
        """`map_func` applied to every element (traced once; tuple elements unpacked).

        `synchronous` (no parallel calls) and `use_unbounded_threadpool` are TF's
        scheduling hints; the elements are the same.

        >>> list(tf.data.Dataset.range(3).map(lambda x: x + 1).as_numpy_iterator())
        [np.int64(1), np.int64(2), np.int64(3)]
        """
        if synchronous and num_parallel_calls is not None:
            raise ValueError("`synchronous` is not supported with `num_parallel_calls`, but "
                             "`num_parallel_calls` was set to ", num_parallel_calls)
        warn_unused_deterministic(num_parallel_calls, deterministic)
        if num_parallel_calls is None:
            return _MapDataset(self, map_func)
        return _ParallelMapDataset(self, map_func, num_parallel_calls, deterministic)

    def filter(self, predicate, name=None):
        """The elements for which `predicate` is True.

        >>> list(tf.data.Dataset.range(6).filter(lambda x: x % 3 == 0).as_numpy_iterator())
        [np.int64(0), np.int64(3)]
        """
        return _FilterDataset(self, predicate)

    def batch(self, batch_size, drop_remainder=False, num_parallel_calls=None,
              deterministic=None, name=None):
        """Consecutive elements stacked into batches of `batch_size`.

        >>> [b.tolist() for b in tf.data.Dataset.range(5).batch(2).as_numpy_iterator()]
        [[0, 1], [2, 3], [4]]
        """
        warn_unused_deterministic(num_parallel_calls, deterministic)
        if num_parallel_calls is None:
            return _BatchDataset(self, batch_size, drop_remainder)
        return _ParallelBatchDataset(self, batch_size, drop_remainder, num_parallel_calls)

    def ragged_batch(self, batch_size, drop_remainder=False, row_splits_dtype=_d.int64,
                     name=None):
        """Consecutive elements batched into `RaggedTensor`s where their shapes may differ
        (components of a fully known shape batch as `batch` does).

        >>> ds = tf.data.Dataset.range(3).map(lambda n: tf.range(n)).ragged_batch(3)
        >>> print(next(iter(ds)))
        <tf.RaggedTensor [[], [0], [0, 1]]>
        """
        def as_ragged(s):  # (a ragged element keeps its row splits dtype)
            if isinstance(s, TensorSpec) and s.shape.rank != 0 and (
                    not s.shape.is_fully_defined()):
                # ragged up to its last unknown dimension, as TF makes it
                dims = s.shape.as_list() if s.shape.rank is not None else [None]
                last = max(i for i, d in enumerate(dims) if d is None)
                return RaggedTensorSpec(s.shape, s.dtype, last, row_splits_dtype)
            return s
        spec = structure.map_structure(as_ragged, self.element_spec)
        return _BatchDataset(_AsSpec(self, spec, _d.as_dtype(row_splits_dtype)), batch_size,
                             drop_remainder)

    def shuffle(self, buffer_size, seed=None, reshuffle_each_iteration=None, name=None):
        """Elements in random order through a buffer of `buffer_size` (TF's order for a seed);
        each iteration reshuffles unless ``reshuffle_each_iteration=False``.

        >>> tf.random.set_seed(None)
        >>> [int(x) for x in tf.data.Dataset.range(10).shuffle(4, seed=1)]
        [0, 4, 5, 1, 2, 7, 9, 8, 6, 3]
        """
        from eagerflow._src.data.shuffle import _ShuffleDataset  # noqa: PLC0415
        return _ShuffleDataset(self, buffer_size, seed, reshuffle_each_iteration)

    def repeat(self, count=None, name=None):
        """The dataset `count` times (forever when None or -1).

        >>> list(tf.data.Dataset.range(2).repeat(2).as_numpy_iterator())
        [np.int64(0), np.int64(1), np.int64(0), np.int64(1)]
        """
        return _RepeatDataset(self, count)

    def take(self, count, name=None):
        """The first `count` elements (all when -1).

        >>> [int(x) for x in tf.data.Dataset.range(10).take(3)]
        [0, 1, 2]
        """
        return _TakeDataset(self, count)

    def skip(self, count, name=None):
        """All but the first `count` elements (none when -1).

        >>> [int(x) for x in tf.data.Dataset.range(10).skip(7)]
        [7, 8, 9]
        """
        return _SkipDataset(self, count)

    def prefetch(self, buffer_size, name=None):
        """Elements produced ahead by a background thread, up to `buffer_size` of them
        (`AUTOTUNE` picks the size); the thread stops with the iterator.

        >>> [int(x) for x in tf.data.Dataset.range(3).prefetch(tf.data.AUTOTUNE)]
        [0, 1, 2]
        """
        return _PrefetchDataset(self, buffer_size)

    def concatenate(self, dataset, name=None):
        """This dataset's elements, then `dataset`'s.

        >>> a = tf.data.Dataset.range(1, 3)
        >>> list(a.concatenate(tf.data.Dataset.range(7, 8)).as_numpy_iterator())
        [np.int64(1), np.int64(2), np.int64(7)]
        """
        return _ConcatenateDataset(self, dataset)

    def enumerate(self, start=0, name=None):
        """``(index, element)`` pairs, the index an int64 from `start`.

        >>> list(tf.data.Dataset.from_tensor_slices([7, 8]).enumerate().as_numpy_iterator())
        [(np.int64(0), np.int32(7)), (np.int64(1), np.int32(8))]
        """
        return _ZipDataset((_RangeDataset(start, _INT64_MAX), self))

    def apply(self, transformation_func):
        """``transformation_func(self)``, which must return a dataset."""
        result = transformation_func(self)
        if not isinstance(result, Dataset):
            raise TypeError(f"`transformation_func` must return a `tf.data.Dataset` object. "
                            f"Got {type(result)}.")
        return result

    def reduce(self, initial_state, reduce_func, name=None):
        """`reduce_func(state, element)` folded over the elements from `initial_state`.

        >>> tf.data.Dataset.range(5).reduce(np.int64(0), lambda s, x: s + x)
        <tf.Tensor: shape=(), dtype=int64, numpy=10>
        """
        from eagerflow._src.data import iterator_graph  # noqa: PLC0415
        if iterator_graph.building_graph():  # a graph loop, run on every call
            return iterator_graph.reduce_in_graph(self, initial_state, reduce_func)
        from eagerflow._src.data.transformations import reduce_dataset  # noqa: PLC0415
        return reduce_dataset(self, initial_state, reduce_func)

    def get_single_element(self, name=None):
        """The dataset's only element; InvalidArgumentError when it has none or more.

        >>> tf.data.Dataset.from_tensors([1, 2]).get_single_element()
        <tf.Tensor: shape=(2,), dtype=int32, numpy=array([1, 2], dtype=int32)>
        """
        from eagerflow._src.data import iterator_graph  # noqa: PLC0415
        if iterator_graph.building_graph():  # an op, run on every call
            return iterator_graph.single_element(self)
        from eagerflow._src.data.iterator_ops import eager_error  # noqa: PLC0415
        op = "DatasetToSingleElement"
        try:
            it = self._iterator()  # (TF's function state goes on from call to call here)
            try:
                first = next(it)
            except StopIteration:
                raise _get_next_error("Dataset was empty.", op) from None
            try:
                next(it)
            except StopIteration:
                return structure.Packer(self.element_spec).pack(first)
            raise _get_next_error("Dataset had more than one element.", op)
        except errors.OpError as e:
            raise eager_error(e, op, self.element_spec) from e.__cause__

    def with_options(self, options, name=None):
        """This dataset with `options` (merged with those set on it before)."""
        from eagerflow._src.data.options import _OptionsDataset  # noqa: PLC0415
        return _OptionsDataset(self, options)

    def save(self, path, compression=None, shard_func=None, checkpoint_args=None):
        """Writes the elements and the element spec to directory `path` (see `load`).

        `shard_func` maps an element to the int64 index of the shard file it goes to.
        """
        from eagerflow._src.data.save_load import save  # noqa: PLC0415
        save(self, path, compression, shard_func, checkpoint_args)

    @staticmethod
    def load(path, element_spec=None, compression=None, reader_func=None, wait=False):
        """The dataset `save` wrote to `path`; `reader_func` turns the dataset of its shards
        (datasets) into one (by default, an interleave of all of them). `wait` (TF's: read
        a save still being written) has nothing to wait for here: a save is complete once
        written.

        >>> import tempfile, os
        >>> path = os.path.join(tempfile.mkdtemp(), "saved")
        >>> tf.data.Dataset.range(3).map(lambda x: {"x": x}).save(path)
        >>> list(tf.data.Dataset.load(path).as_numpy_iterator())
        [{'x': np.int64(0)}, {'x': np.int64(1)}, {'x': np.int64(2)}]
        """
        from eagerflow._src.data.save_load import load  # noqa: PLC0415
        return load(path, element_spec, compression, reader_func)

    def snapshot(self, path, compression="AUTO", reader_func=None, shard_func=None,
                 name=None):
        """The elements, saved under `path` by the first complete iteration (as `save`
        writes) and read from there by later iterations and programs."""
        from eagerflow._src.data.save_load import _SnapshotDataset  # noqa: PLC0415
        return _SnapshotDataset(self, path, compression, reader_func, shard_func)

    # Defined in `transformations` (imported at the end of this module).
    padded_batch = unbatch = rebatch = cache = flat_map = interleave = scan = window = None
    group_by_window = bucket_by_sequence_length = shard = take_while = unique = None
    ignore_errors = None


# -- sources -----------------------------------------------------------------------------------

def _element_arrays(element):
    """A user's element normalized: (nest of tensors, flat tuple of arrays); the arrays are
    None when a tensor is symbolic (a dataset built while a function traces)."""
    element = structure.normalize(element)
    flat = structure.flatten(element)
    if any(map(structure.is_composite, flat)):  # (each travels as one value)
        if not all(isinstance(c, EagerTensor) for t in flat for c in structure.components(t)):
            return element, None
        return element, tuple(map(structure.flat_value, flat))
    if not all(isinstance(t, EagerTensor) for t in flat):
        # Values known while tracing (constants written in the function) are values.
        known = [get_static_value(t) for t in flat]
        if any(v is None for v in known):
            return element, None
        return element, tuple(np.asarray(v) for v in known)
    return element, tuple(t._data for t in flat)


def _with_datasets(element):
    """(flat tuple, spec) of an element holding datasets (a `DatasetSpec` each), which
    travel as themselves (as a function's result does, see `dataset_spec`)."""
    from eagerflow._src.data.dataset_spec import DatasetSpec  # noqa: PLC0415 (it imports us)
    element = structure.map_structure(
        lambda v: v if isinstance(v, Dataset) else structure.to_tensor(v), element)
    flat = structure.flatten(element)
    if not all(isinstance(v, (Dataset, EagerTensor)) for v in flat):
        raise TypeError("A dataset element holding datasets takes eager tensors only.")
    spec = structure.map_structure(
        lambda v: DatasetSpec(v.element_spec) if isinstance(v, Dataset)
        else structure.leaf_spec(v), element)
    return tuple(v if isinstance(v, Dataset) else v._data for v in flat), spec


def _values(arrays):
    if arrays is None:
        raise TypeError("A dataset made from symbolic tensors (while a function traced) "
                        "cannot be iterated.")
    return arrays


def _item_getter(array):
    """``i -> array[i]`` as an array (a 0-d one for vectors, keeping the dtype)."""
    if array.ndim > 1:
        return array.__getitem__
    if array.dtype == object:
        shape = array.shape[1:]
        return lambda i: array[i:i + 1].reshape(shape)
    asarray = np.asarray
    return lambda i: asarray(array[i])


def _none(i):
    return None


def _dataset_list(value):
    """Whether `value` is a list of datasets (sliced: one dataset per element)."""
    return (isinstance(value, list) and value
            and all(isinstance(v, Dataset) for v in value))


class _TensorSliceDataset(Dataset):
    def __init__(self, tensors):
        if any(map(_dataset_list, structure.flatten(tensors))):
            self._slice_datasets(tensors)
            return
        element, arrays = _element_arrays(tensors)
        flat = structure.flatten(element)
        if all(t is None for t in flat):
            raise ValueError("Invalid `element`. `element` should not be empty.")
        first = None
        for t in flat:
            if t is None:  # (a None component: None in every slice)
                continue
            shape = t.shape
            if shape.rank == 0:
                raise ValueError("Unbatching a tensor is only supported for rank >= 1")
            dim = shape[0] if shape.rank is not None else None
            if first is None:
                first = dim
            elif dim is not None and dim != first:
                raise ValueError(f"Dimensions {first} and {dim} are not compatible")
        self._arrays = arrays
        self._n = UNKNOWN if first is None else int(first)
        self._spec = structure.unbatched_spec(structure.spec_of(element))
        self._sparse = any(map(structure.is_composite, flat))

    def _slice_datasets(self, tensors):
        """Slices of lists of datasets (and tensors beside them): each dataset a row."""
        from eagerflow._src.data.dataset_spec import DatasetSpec  # noqa: PLC0415
        flat = structure.flatten(tensors)
        lengths = {len(v) if _dataset_list(v) else structure.to_tensor(v).shape[0]
                   for v in flat}
        if len(lengths) != 1:
            raise ValueError(f"Dimensions {' and '.join(map(str, sorted(lengths)))} are not "
                             f"compatible")
        self._n = lengths.pop()
        self._sparse = True  # (rows are batched as elements are)
        self._arrays = tuple(v if _dataset_list(v) else structure.to_tensor(v)._data
                             for v in flat)
        self._spec = structure.pack(tensors, [
            DatasetSpec(v[0].element_spec) if _dataset_list(v)
            else structure.unbatched_spec(structure.leaf_spec(structure.to_tensor(v)))
            for v in flat])

    def _cardinality(self):
        return self._n

    def _iterator(self):
        getters = [_none if a is None else a.__getitem__ if isinstance(a, list) else structure.sparse_rows(a)[0] if isinstance(a, SparseTensor)
                   else structure.ragged_rows(a)[0] if isinstance(a, RaggedTensor)
                   else _item_getter(a) for a in _values(self._arrays)]
        if len(getters) == 1:
            get = getters[0]
            return ((get(i),) for i in builtins.range(self._n))
        return (tuple(g(i) for g in getters) for i in builtins.range(self._n))

    def _batches(self, batch_size, drop_remainder):
        if self._sparse:
            return None  # (batched as elements are: see `stack_components`)
        arrays, n = _values(self._arrays), self._n
        stop = n - n % batch_size if drop_remainder else n
        # Slices are copied: the batches are new tensors, never views of the source.
        return (tuple(None if a is None else a[i:i + batch_size].copy() for a in arrays)
                for i in builtins.range(0, stop, batch_size))


class _TensorDataset(Dataset):
    def __init__(self, tensors):
        if any(isinstance(v, Dataset) for v in structure.flatten(tensors)):
            self._arrays, self._spec = _with_datasets(tensors)
            return
        element, self._arrays = _element_arrays(tensors)
        if all(t is None for t in structure.flatten(element)):
            raise errors.InvalidArgumentError(
                None, "TensorDataset", "Length for attr 'output_shapes' of 0 must be at least "
                                       "minimum 1")
        self._spec = structure.spec_of(element)

    def _cardinality(self):
        return 1

    def _iterator(self):
        return iter((_values(self._arrays),))


class _RangeDataset(Dataset):
    def __init__(self, *args, output_type=_d.int64):
        if not args or len(args) > 3:
            raise ValueError(f"Invalid `args`. The length of `args` should be between 1 and 3 "
                             f"but was {len(args)}.")
        names = ("stop",) if len(args) == 1 else ("start", "stop", "step")
        values = [_range_int(a, n) if a is not None else None for a, n in zip(args, names)]
        self._symbolic = any(v is None for v, a in zip(values, args) if a is not None)
        if self._symbolic:
            values = [0 if v is None else v for v in values]
        if len(values) == 1:
            start, stop, step = 0, values[0], 1
        elif len(values) == 2:
            (start, stop), step = values, 1
        else:
            start, stop, step = values
        if step == 0 and not self._symbolic:
            raise dataset_error("RangeDataset", "step must be a non-zero integer.")
        self._start, self._stop, self._step = start, stop, step
        self._dtype = _d.as_dtype(output_type)
        self._spec = TensorSpec([], self._dtype)

    def _cardinality(self):
        if self._symbolic:
            return UNKNOWN
        if self._stop is None or self._stop == _INT64_MAX:  # (TF's, as `enumerate` counts)
            return INFINITE
        start, stop, step = self._start, self._stop, self._step
        n = max(0, -((start - stop) // step))
        return (n + 2 ** 63) % 2 ** 64 - 2 ** 63  # an int64, as TF's wraps around

    def _iterator(self):
        if self._symbolic:  # (its bounds are not known: not an empty range)
            _values(None)
        np_dtype = self._dtype.as_numpy_dtype
        array = np.array
        if self._stop is None:
            return ((array(i, np_dtype),) for i in _count(self._start, self._step))
        return ((array(i, np_dtype),) for i in builtins.range(self._start, self._stop,
                                                               self._step))

    def _batches(self, batch_size, drop_remainder):
        if self._stop is None:
            return None
        values = builtins.range(self._start, self._stop, self._step)
        n = len(values)
        stop = n - n % batch_size if drop_remainder else n
        np_dtype = self._dtype.as_numpy_dtype
        start, step = self._start, self._step
        return ((np.arange(start + i * step, start + min(i + batch_size, n) * step, step,
                           dtype=np_dtype),)
                for i in builtins.range(0, stop, batch_size))


class _CounterDataset(_RangeDataset):
    _tf_name = "_ScanDataset"  # TF counts with a scan


def _range_int(value, name):
    """A bound or step of `range`: an integer, or a tensor converting to int64 (TF's error
    for a float)."""
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return int(value)
    t = convert_to_tensor(value, dtype=_d.int64, name=name)
    return _int(t)


def _count(start, step):
    i = start
    while True:
        yield i
        i += step


class _ZipDataset(Dataset):
    def __init__(self, datasets):
        for d in structure.flatten(datasets):
            if not isinstance(d, Dataset):
                if isinstance(datasets, list) or isinstance(d, list):
                    raise TypeError("Invalid input to `zip`. Inputs are expected to be (nested)"
                                    " structures of `tf.data.Dataset` objects. Python `list` "
                                    "is not supported and you should use `tuple` instead.")
                raise TypeError(f"Invalid input to `zip`. Inputs are expected to be (nested) "
                                f"structures of `tf.data.Dataset` objects but encountered "
                                f"object of type {type(d)}.")
        self._structure = datasets
        self._datasets = structure.flatten(datasets)
        self._spec = structure.map_structure(lambda d: d.element_spec, datasets)

    def _inputs(self):
        return list(self._datasets)

    def _cardinality(self):
        cards = [d._cardinality() for d in self._datasets]
        if UNKNOWN in cards:
            return UNKNOWN
        finite = [c for c in cards if c >= 0]
        return min(finite) if finite else INFINITE

    def _iterator(self):
        its = [branch_iterator(d, i) for i, d in enumerate(self._datasets)]
        if len(its) == 1:
            return its[0]
        return (sum(parts, ()) for parts in zip(*its))


def _merged_spec(a, b):
    """The most specific spec nest both `a` and `b` fit; TypeError when incompatible."""
    def fail():
        return TypeError(f"Incompatible dataset elements:\n  {a} vs.   {b}")
    if not structure.same_structure(a, b):
        raise fail()
    fa, fb = structure.flatten(a), structure.flatten(b)
    out = []
    for x, y in zip(fa, fb):
        if type(x) is structure.NoneTensorSpec is type(y):
            out.append(x)
            continue
        # (a ragged spec keeps its ragged rank and row splits' dtype, which must agree)
        merged = x.most_specific_common_supertype([y]) if type(x) is type(y) else None
        if merged is None:
            raise fail()
        out.append(merged)
    return structure.pack(a, out)


class _ConcatenateDataset(Dataset):
    def __init__(self, input_dataset, dataset):
        self._input, self._other = input_dataset, dataset
        self._spec = _merged_spec(input_dataset.element_spec, dataset.element_spec)

    def _inputs(self):
        return [self._input, self._other]

    def _cardinality(self):
        a, b = self._input._cardinality(), self._other._cardinality()
        if a == INFINITE or b == INFINITE:
            return INFINITE
        if a == UNKNOWN or b == UNKNOWN:
            return UNKNOWN
        return a + b

    def _iterator(self):
        # the first input's iterator is made with this one, the second's when it is reached
        return self._chained(branch_iterator(self._input, 0))

    def _chained(self, first):
        yield from first
        yield from branch_iterator(self._other, 1)


# -- element-wise transformations --------------------------------------------------------------

def input_made_first(elements):
    """The `_iterator` of a dataset whose generator method `elements(self, source)` takes
    its input's iterator: that iterator made as this one is, as TF's iterators make their
    inputs' (so one dropped unused, as Keras's fit and adapt drop their first, still has
    advanced the reshuffling seeds under it)."""
    def _iterator(self):
        return elements(self, self._input._iterator())
    _iterator.__doc__ = elements.__doc__
    return _iterator


class _UnaryDataset(Dataset):
    def __init__(self, input_dataset):
        self._input = input_dataset
        self._spec = input_dataset.element_spec

    def _inputs(self):
        return [self._input]

    def _cardinality(self):
        return self._input._cardinality()


def _trace(func, name, spec):
    return traced(func, name, spec)


# TF's signatures of the map ops, as their errors print them
_MAP_SIGNATURES = {
    "MapDataset": "input_dataset:variant, other_arguments: -> handle:variant; attr=f:func; "
                  "attr=Targuments:list(type),min=0; attr=output_types:list(type),min=1; "
                  "attr=output_shapes:list(shape),min=1; "
                  "attr=use_inter_op_parallelism:bool,default=true; "
                  "attr=preserve_cardinality:bool,default=false; "
                  "attr=force_synchronous:bool,default=false; attr=metadata:string,default=\"\"",
    "ParallelMapDatasetV2": "input_dataset:variant, other_arguments:, num_parallel_calls:int64 "
                            "-> handle:variant; attr=f:func; attr=Targuments:list(type),min=0; "
                            "attr=output_types:list(type),min=1; "
                            "attr=output_shapes:list(shape),min=1; "
                            "attr=use_inter_op_parallelism:bool,default=true; "
                            "attr=deterministic:string,default=\"default\"; "
                            "attr=preserve_cardinality:bool,default=false; "
                            "attr=use_unbounded_threadpool:bool,default=false; "
                            "attr=metadata:string,default=\"\""}


def _map_function(map_func, input_dataset, op_name="MapDataset"):
    """A map function traced, or, when it takes or returns datasets, called per element."""
    spec = input_dataset.element_spec
    if all(isinstance(s, (TensorSpec,) + structure.COMPOSITE_SPECS)
           for s in structure.flatten(spec)):
        try:
            return _trace(map_func, "Dataset.map()", spec)
        except ReturnsDatasets:
            pass
        except ReturnsNothing:  # (an element of no tensors: the op takes at least one)
            raise errors.InvalidArgumentError(
                None, op_name, f"Length for attr 'output_types' of 0 must be at least minimum 1"
                f"\n\t; NodeDef: {{{{node {op_name}}}}}; Op<name={op_name}; signature="
                f"{_MAP_SIGNATURES[op_name]}> [Op:{op_name}] name: ") from None
    from eagerflow._src.data.dataset_spec import ElementFunction  # noqa: PLC0415
    return ElementFunction(map_func, "Dataset.map()", spec, input_dataset)


class _MapDataset(_UnaryDataset):
    def __init__(self, input_dataset, map_func):
        super().__init__(input_dataset)
        self._fn = _map_function(map_func, input_dataset)
        self._spec = self._fn.output_spec
        self._label = function_label("MapDataset")

    def _iterator(self):
        call = framed(self._fn, self._label, "Map", preserve_cardinality=True)
        chunks = _map_chunks(self._fn, self._input)
        if chunks is not None:
            return _ChunkedMap(call, *chunks)
        return map(call, self._input._iterator())

    def _batches(self, batch_size, drop_remainder, fused=False):
        return _mapped_batches(self, batch_size, drop_remainder, "Map", fused)


_CHUNK_BYTES = 1 << 22  # about what a chunk of elements holds, in and out
_MAX_CHUNK = 128


def _element_bytes(specs):
    """About how many bytes an element of `specs` holds (guessed where they leave shapes
    or sizes open: 4096 values, 64 bytes a string)."""
    total = 0
    for s in specs:
        count = s.shape.num_elements() if s.shape.is_fully_defined() else 4096
        total += count * (_d.as_dtype(s.dtype).size or 64)
    return total


def _map_chunks(fn, input_dataset, batch_size=None):
    """(the chunk runner of map function `fn`, chunks of `input_dataset`'s elements), or
    None where `fn` runs element by element: a graph `chunked` cannot run, or an input
    whose chunks are not slices of arrays (whose elements could cost work or effects the
    map would not make otherwise).  The chunks are `batch_size` elements, or sized so a
    chunk holds a few megabytes."""
    chunked = getattr(fn, "chunked", None)
    if chunked is not None and getattr(fn, "_op_states", None) and _draws_shared():
        return None  # (each element's draws in turn with the other datasets')
    run = chunked() if chunked is not None else None
    if run is None:
        return None
    if not all(isinstance(s, TensorSpec) and s.shape.is_fully_defined()
               for s in structure.flatten(fn.input_spec)):
        return None  # (elements of differing shapes do not make a chunk)
    if batch_size is None:
        size = _element_bytes(structure.flatten(fn.input_spec)) + _element_bytes(
            structure.flatten(fn.output_spec))
        batch_size = max(1, min(_MAX_CHUNK, _CHUNK_BYTES // max(size, 1)))
        if batch_size < 4:
            return None
    source = input_dataset._batches(batch_size, False)
    return None if source is None else (run, source)


def _draws_shared():
    """Whether the datasets a function made (a flat_map's, an interleave's) are being
    iterated: their random ops draw one sequence, in the order their elements come."""
    scope = draw_scope()
    return scope is not None and "inner" in scope[1]


def _mapped_batches(dataset, batch_size, drop_remainder, kind, fused=False):
    """`_batches` of a map: its function run on its input's batches at once; a batch
    with an element that fails is made element by element, raising that element's error.
    `fused`: stacked as TF's fused map and batch does (see `stack_components`)."""
    found = _map_chunks(dataset._fn, dataset._input, batch_size)
    if found is None:
        return None
    call = framed(dataset._fn, dataset._label, kind, preserve_cardinality=True)
    run, source = found
    return _chunk_batches(run, call, source, batch_size, drop_remainder, fused)


def _chunk_batches(run, call, source, batch_size, drop_remainder, fused=False):
    """Batches of mapped chunks; after a chunk that failed, each batch element by element
    (elements that do not stack would fail every chunk)."""
    from eagerflow._src.ops.random_ops import Draws  # noqa: PLC0415
    for chunk in source:
        if drop_remainder and len(chunk[0]) < batch_size:
            return
        out = None
        if run is not None:
            with Draws() as draws:
                try:
                    out = run(*chunk)
                except Exception:  # noqa: BLE001 (made again element by element, raising)
                    run = None
                    draws.give_back()
        if out is None:
            out = stack_components([call(_row(chunk, k)) for k in range(len(chunk[0]))],
                                   fused=fused)
        elif any(type(a) is list for a in out):  # (elements of differing shapes: TF's error)
            out = stack_components([_row(out, k) for k in range(len(chunk[0]))], fused=fused)
        yield tuple(np.array(a) if not a.flags.writeable else a for a in out)


def _row(arrays, k):
    return tuple(a[k] if type(a) is list else a[k, ...] for a in arrays)


class _ChunkedMap:
    """``map(call, elements)`` over chunks of elements, `run` mapping a whole chunk at
    once; a chunk with an element that fails is mapped element by element (`call`
    raising TF's error for it), its draws given back first, and so are the chunks after
    it.  As the builtin ``map``, it goes on after an element's call raised (for
    ``ignore_errors``)."""

    __slots__ = ("_call", "_run", "_source", "_rows", "_pending", "_k", "_takes")

    def __init__(self, call, run, source):
        self._call, self._run, self._source = call, run, source
        self._rows = None     # the outputs of the chunk being handed out
        self._pending = None  # or the inputs of a chunk mapped element by element
        self._k = 0
        self._takes = None    # the random-op draws that made `_rows` (`Draws.takes`)

    def __del__(self):
        """Gives back the draws of the rows never handed out (a ``take`` stopped early): a
        later iteration at the same place (a repeat's next epoch) draws them, as TF's map,
        which draws element by element, would."""
        rows, takes, k = self._rows, self._takes, self._k
        if rows is None or not takes or k >= len(rows[0]):
            return
        n = len(rows[0])
        try:
            for state, epoch, offset, samples in reversed(takes):
                if samples % n == 0:  # (a whole chunk's draws at once: n equal parts)
                    each = samples // n
                    state.give_back(epoch, offset + each * k, each * (n - k))
        except Exception:  # noqa: BLE001,S110 (dropped at interpreter exit: nothing to keep)
            pass

    def __iter__(self):
        return self

    def __next__(self):
        from eagerflow._src.ops.random_ops import Draws  # noqa: PLC0415
        while True:
            arrays = self._rows if self._rows is not None else self._pending
            if arrays is not None and self._k < len(arrays[0]):
                k = self._k
                self._k += 1
                if self._rows is not None:
                    return _row(arrays, k)
                return self._call(_row(arrays, k))
            chunk = next(self._source)
            self._k = 0
            self._rows, self._pending = None, chunk
            if self._run is None:
                continue
            with Draws() as draws:
                try:
                    self._rows, self._pending = tuple(
                        a if type(a) is list or a.flags.writeable else np.array(a)
                        for a in self._run(*chunk)), None
                except Exception:  # noqa: BLE001 (mapped again element by element)
                    self._run = None
                    draws.give_back()
            self._takes = draws.takes


def _num_threads(num_parallel_calls, op="ParallelMapDatasetV2", counts=()):
    n = _int(num_parallel_calls)
    if n == AUTOTUNE:
        return max(2, os.cpu_count() or 2)
    if n <= 0:
        raise dataset_error(op, "num_parallel_calls must be greater than zero.", counts)
    return n


class _ParallelMapDataset(_UnaryDataset):
    def __init__(self, input_dataset, map_func, num_parallel_calls, deterministic):
        super().__init__(input_dataset)
        self._fn = _map_function(map_func, input_dataset, "ParallelMapDatasetV2")
        self._spec = self._fn.output_spec
        self._label = function_label("ParallelMapDatasetV2")
        self._threads = _num_threads(num_parallel_calls, counts=captures(self._fn))
        self._deterministic = deterministic

    def _iterator(self):
        from eagerflow._src.data.parallel import parallel_map  # noqa: PLC0415
        ordered = self._deterministic
        if ordered is None:  # the dataset's options decide, deterministic by default
            ordered = self.options().deterministic is not False
        call = scoped_call(
            framed(self._fn, self._label, "ParallelMapV2", preserve_cardinality=True))
        # (a chunk at once beats threads mapping its elements, but an unordered map lets
        # elements pass a slow one)
        chunks = _map_chunks(self._fn, self._input) if ordered else None
        if chunks is not None:
            return _ChunkedMap(call, *chunks)
        return parallel_map(call, self._input._iterator(), self._threads, ordered)

    def _batches(self, batch_size, drop_remainder, fused=False):
        if self._deterministic is False or (self._deterministic is None
                                            and self.options().deterministic is False):
            return None
        return _mapped_batches(self, batch_size, drop_remainder, "ParallelMapV2", fused)


class _FilterDataset(_UnaryDataset):
    def __init__(self, input_dataset, predicate):
        super().__init__(input_dataset)
        self._fn = _trace(predicate, "Dataset.filter()", input_dataset.element_spec)
        out = self._fn.output_spec
        if not isinstance(out, TensorSpec) or out.dtype != _d.bool or out.shape.rank not in (
                0, None):
            raise ValueError(f"Invalid `predicate`. `predicate` must return a `tf.bool` scalar "
                             f"tensor, but its return type is {out}.")
        self._label = function_label("FilterDataset")

    def _cardinality(self):
        return UNKNOWN  # TF's, even of an infinite input

    def _iterator(self):
        fn = framed(self._fn, self._label, "Filter")
        return filter(lambda e: fn(e)[0], self._input._iterator())  # (goes on after errors)


class _BatchDataset(_UnaryDataset):
    def __init__(self, input_dataset, batch_size, drop_remainder):
        super().__init__(input_dataset)
        self._batch_size = _batch_size(batch_size, "BatchDatasetV2")
        self._drop = bool(drop_remainder)
        if not all(isinstance(s, (TensorSpec,) + structure.COMPOSITE_SPECS)
                   for s in structure.flatten(self._spec)):
            raise TypeError("Dataset.batch() cannot batch elements that are datasets; batch "
                            "each of them (flat_map) instead.")
        static = self._batch_size if self._drop else None
        self._spec = structure.batched_spec(input_dataset.element_spec, static)

    def _cardinality(self):
        return _batched_cardinality(self._input, self._batch_size, self._drop)

    def _iterator(self):
        fused = self._fuses_map()
        fast = self._input._batches(self._batch_size, self._drop, fused=True) if fused else \
            self._input._batches(self._batch_size, self._drop)
        if fast is not None:
            return fast
        return _stacked_batches(self._input._iterator(), self._batch_size, self._drop,
                                fused=fused)

    def _fuses_map(self):
        """Whether TF fuses this batch with the map before it (its default optimization),
        whose batches take their rows' shape from the first element."""
        if type(self) is not _BatchDataset or not isinstance(
                self._input, (_MapDataset, _ParallelMapDataset)):
            return False
        optimization = self.options().experimental_optimization
        if optimization.map_and_batch_fusion is not None:
            return bool(optimization.map_and_batch_fusion)
        return optimization.apply_default_optimizations is not False

    def _batches(self, batch_size, drop_remainder):
        return None


class _AsSpec(_UnaryDataset):
    """`input_dataset`'s elements seen as `spec` (its tensors of unknown shape as rows of
    ragged tensors, for `ragged_batch`)."""

    def __init__(self, input_dataset, spec, splits_dtype):
        super().__init__(input_dataset)
        self._spec = spec
        # (the ragged rank each dense component takes; None: it stays as it is)
        self._rows = [s.ragged_rank if isinstance(s, RaggedTensorSpec) and
                      not isinstance(a, RaggedTensorSpec) else None
                      for s, a in zip(structure.flatten(spec),
                                      structure.flatten(input_dataset.element_spec))]
        self._splits = splits_dtype.as_numpy_dtype

    @input_made_first
    def _iterator(self, source):
        rows, splits = self._rows, self._splits
        for element in source:
            yield tuple(a if k is None else _uniform_ragged(a, k, splits)
                        for a, k in zip(element, rows))

    def _batches(self, batch_size, drop_remainder):
        # (its rows batch into ragged tensors of the row splits dtype asked for)
        return _stacked_batches(self._iterator(), batch_size, drop_remainder, self._splits)


def _uniform_ragged(array, ragged_rank, splits_dtype):
    """Dense `array` as an eager ragged tensor of `ragged_rank` (its rows all full); of
    ragged rank 0, a tensor (a row of a ragged tensor)."""
    value = structure.wrap(array)
    dims = array.shape
    if ragged_rank:
        value = structure.wrap(array.reshape((int(np.prod(dims[:ragged_rank + 1])),)
                                             + dims[ragged_rank + 1:]))
    for level in builtins.range(ragged_rank, 0, -1):
        n = int(np.prod(dims[:level]))
        splits = np.arange(n + 1, dtype=splits_dtype) * dims[level]
        value = RaggedTensor(value, structure.wrap(splits), internal=True)
    return value


def stack_components(elements, op="IteratorGetNext", splits_dtype=np.int64, fused=False):
    """Flat tuples of arrays stacked componentwise; TF's error when shapes differ.
    `fused` (TF's fused map and batch): each row takes the first element's shape, an
    element of as many values as it has too, another one failing with that kernel's text."""
    out = []
    for c, parts in enumerate(zip(*elements)):
        if parts[0] is None:  # (a None component batches to None)
            out.append(None)
            continue
        if isinstance(parts[0], SparseTensor):
            out.append(structure.stack_sparse(parts))
            continue
        if isinstance(parts[0], (RaggedTensor, EagerTensor)):  # (rows of a ragged tensor)
            out.append(structure.stack_ragged(parts, splits_dtype))
            continue
        first = parts[0].shape
        for i, p in enumerate(parts):
            if p.shape != first and fused:
                if p.size != parts[0].size:
                    raise _get_next_error(
                        f"Cannot add tensor to the batch: number of elements does not match. "
                        f"Shapes are: [tensor]: {errors.shape_text(p.shape)}, [batch]: "
                        f"{errors.shape_text(first)}", op)
                parts = [q.reshape(first) for q in parts]
            elif p.shape != first:
                raise _get_next_error(
                    f"Cannot batch tensors with different shapes in component {c}. First "
                    f"element had shape {errors.shape_text(first)} and element {i} had shape "
                    f"{errors.shape_text(p.shape)}.", op)
        out.append(np.stack(parts))
    return tuple(out)


def _stacked_batches(source, batch_size, drop, splits_dtype=np.int64, fused=False):
    while True:
        chunk = []
        for element in source:
            chunk.append(element)
            if len(chunk) == batch_size:
                break
        if not chunk or (drop and len(chunk) < batch_size):
            return
        yield stack_components(chunk, splits_dtype=splits_dtype, fused=fused)
        if len(chunk) < batch_size:
            return


class _ParallelBatchDataset(_BatchDataset):
    def __init__(self, input_dataset, batch_size, drop_remainder, num_parallel_calls):
        super().__init__(input_dataset, batch_size, drop_remainder)
        self._threads = _num_threads(num_parallel_calls)


_END = object()


class _RepeatDataset(_UnaryDataset):
    def __init__(self, input_dataset, count):
        super().__init__(input_dataset)
        self._count = -1 if count is None else _int(count, "count")

    def _cardinality(self):
        n = self._input._cardinality()
        if not _known(self._count):
            return UNKNOWN
        if self._count == 0:
            return 0
        if self._count < 0:
            return 0 if n == 0 else INFINITE  # (an input of unknown size too)
        if n < 0:
            return n
        return n * self._count

    def _iterator(self):
        if getattr(self._input, "_reshuffle", False) and self._count != 0:
            # TF's shuffle-and-repeat draws the first epoch's seeds as the iterator is made
            return self._reshuffled(self._input._iterator())
        # the first epoch's iterator is made with this one, as in TF
        return self._epochs(self._input._iterator() if self._count != 0 else None)

    def _epochs(self, first):
        count = self._count
        epoch = 0
        while count < 0 or epoch < count:
            produced = False
            for element in first if epoch == 0 else self._input._iterator():
                produced = True
                yield element
            if not produced:  # an empty input repeats to an empty dataset, as in TF
                return
            epoch += 1

    def _reshuffled(self, source):
        # TF's shuffle-and-repeat draws the next epoch's seeds when the element after an
        # epoch's last is asked for, and TF's iterators ask for it ahead of the consumer (the
        # prefetch TF ends every pipeline with), so an iterator that stops at an epoch's end
        # has used them: peek one element ahead to know the last.  A take() that ends there
        # asks for nothing more, so the draw is given back (see `_islice`).
        count = self._count
        epoch = 0
        pending = next(source, _END)
        while pending is not _END:
            following = next(source, _END)
            drawn = None
            if following is _END:
                epoch += 1
                if count < 0 or epoch < count:
                    drawn = self._input._seed_mark()
                    source = self._input._iterator()
                    following = next(source, _END)
            try:
                yield pending
            except GeneratorExit:
                if drawn is not None and _ending_take.active:
                    self._input._undo_draw(drawn)
                raise
            pending = following


class _EndingTake(threading.local):
    active = False  # while a take() that produced its last element closes its input


_ending_take = _EndingTake()


class _TakeDataset(_UnaryDataset):
    def __init__(self, input_dataset, count):
        super().__init__(input_dataset)
        self._count = _int(count, "count")

    def _cardinality(self):
        n = self._input._cardinality()
        if not _known(self._count) or n == UNKNOWN:
            return UNKNOWN
        if self._count == -1:
            return n
        # (TF's rule: any other negative count takes everything yet counts as unknown)
        return self._count if n == INFINITE else max(min(n, self._count), UNKNOWN)

    def _iterator(self):
        if self._count < 0:
            return self._input._iterator()
        return _islice(self._input._iterator(), self._count)

    def _batches(self, batch_size, drop_remainder):
        return None


def _islice(it, n):
    """The first `n` elements of iterator `it`.  After the last, `it` is let go at once:
    TF's take asks its input for nothing more, so nothing below reads ahead (a repeat
    that reshuffles gives back the next epoch's seeds, see `_reshuffled`)."""
    for i in builtins.range(n):
        element = next(it, _END)
        if element is _END:
            return
        if i == n - 1:
            _ending_take.active = True
            try:
                del it  # (its last reference: the generators below it are closed now)
            finally:
                _ending_take.active = False
        yield element


class _SkipDataset(_UnaryDataset):
    def __init__(self, input_dataset, count):
        super().__init__(input_dataset)
        self._count = _int(count, "count")

    def _cardinality(self):
        n = self._input._cardinality()
        if n < 0 or not _known(self._count):
            return n if n < 0 else UNKNOWN
        if self._count < 0:
            return 0
        return max(0, n - self._count)

    @input_made_first
    def _iterator(self, it):
        if self._count < 0:
            for _ in it:
                pass
            return
        for _ in builtins.range(self._count):
            if next(it, None) is None:
                return
        yield from it


class _PrefetchDataset(_UnaryDataset):
    def __init__(self, input_dataset, buffer_size):
        super().__init__(input_dataset)
        n = AUTOTUNE if buffer_size is None else _int(buffer_size, "buffer_size")
        if n < -1:
            raise dataset_error("PrefetchDataset", "buffer_size must be >= 0 or set "
                                "buffer_size to be -1 for auto-tuning")
        self._buffer_size = n

    def _iterator(self):
        from eagerflow._src.data.parallel import prefetched  # noqa: PLC0415
        size = self._buffer_size
        if size == 0:
            return self._input._iterator()
        return prefetched(self._input._iterator(), None if size == AUTOTUNE else size)


# The rest of the transformations install their methods on `Dataset`.
import eagerflow._src.data.transformations  # noqa: E402,F401


@export("data.experimental.cardinality")
def cardinality(dataset):
    """``dataset.cardinality()``: an int64 scalar, -1 for infinite, -2 for unknown.

    >>> tf.data.experimental.cardinality(tf.data.Dataset.range(4).repeat())
    <tf.Tensor: shape=(), dtype=int64, numpy=-1>
    """
    return dataset.cardinality()

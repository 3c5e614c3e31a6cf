"""``tf.data.experimental``: the transformations TF kept there, as functions for `apply`."""
from eagerflow._src.backend.api_export import export
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import errors
from eagerflow._src.core.errors import op_error
from eagerflow._src.data import structure, structured_function
from eagerflow._src.data.dataset_ops import (
    INFINITE, Dataset, _int, _UnaryDataset)
from eagerflow._src.data.shuffle import _ShuffleAndRepeatDataset
from eagerflow._src.data.sources import _RandomDataset
from eagerflow._src.ops import array_ops, lookup_ops


@export("data.experimental.Counter")
def Counter(start=0, step=1, dtype=_d.int64, name=None):  # noqa: N802 (TF's name)
    """``start, start + step, ...`` forever (``Dataset.counter``).

    >>> [int(x) for x in tf.data.experimental.Counter(2, 3).take(3)]
    [2, 5, 8]
    """
    return Dataset.counter(start, step, dtype)


@export("data.experimental.RandomDataset")
class RandomDatasetV2(_RandomDataset):
    """``Dataset.random`` as a class (TF's ``tf.data.experimental.RandomDataset``)."""

    def __init__(self, seed=None, rerandomize_each_iteration=None, name=None):
        super().__init__(seed, rerandomize_each_iteration)


class _AssertCardinalityDataset(_UnaryDataset):
    def __init__(self, input_dataset, expected):
        super().__init__(input_dataset)
        self._expected = _int(expected)

    def _cardinality(self):
        return self._expected

    def _iterator(self):
        expected, n = self._expected, 0
        for element in self._input._iterator():
            n += 1
            if expected != INFINITE and n > expected:
                raise op_error(errors.FailedPreconditionError, "IteratorGetNext",
                               f"Input dataset was expected to contain "
                               f"{_count_text(expected)} but contained at least "
                               f"{_count_text(n)}.")
            yield element
        if n != expected:
            raise op_error(errors.FailedPreconditionError, "IteratorGetNext",
                           f"Input dataset was expected to contain {_count_text(expected)} but "
                           f"contained only {_count_text(n)}.")


def _count_text(n):
    return "an infinite number of elements" if n == INFINITE else f"{n} element" + (
        "" if n == 1 else "s")


@export("data.experimental.assert_cardinality")
def assert_cardinality(expected_cardinality):
    """A transformation declaring the cardinality, checked while iterating.

    >>> ds = tf.data.Dataset.range(5).filter(lambda x: True)
    >>> int(ds.apply(tf.data.experimental.assert_cardinality(5)).cardinality())
    5
    """
    return lambda dataset: _AssertCardinalityDataset(dataset, expected_cardinality)


@export("data.experimental.pad_to_cardinality")
def pad_to_cardinality(cardinality, mask_key="valid"):
    """A transformation padding a dataset of dicts with all-zero elements up to
    `cardinality` elements; each element's `mask_key` entry says whether it is real.

    >>> ds = tf.data.Dataset.from_tensor_slices({"a": [1, 2]})
    >>> [(int(e["a"]), bool(e["valid"])) for e in ds.apply(
    ...     tf.data.experimental.pad_to_cardinality(3))]
    [(1, True), (2, True), (0, False)]
    """
    from eagerflow._src.core import context  # noqa: PLC0415
    from eagerflow._src.ops import array_ops  # noqa: PLC0415

    def apply_fn(dataset):
        if context.executing_eagerly():  # (a traced cardinality is known only when run)
            n = int(dataset.cardinality())
            if n < 0:
                raise ValueError(f"The dataset passed into `pad_to_cardinality` must have a "
                                 f"known cardinalty, but has cardinality {n}")
            if n > cardinality:
                raise ValueError(f"The dataset passed into `pad_to_cardinality` must have a "
                                 f"cardinalty less than the target cardinality "
                                 f"({cardinality}), but has cardinality {n}")
        spec = dataset.element_spec
        if not isinstance(spec, dict):
            raise ValueError("`pad_to_cardinality` requires its input dataset to be a "
                             "dictionary.")
        filler = {k: structure.map_structure(
            lambda s: array_ops.zeros(s.shape, s.dtype), v) for k, v in spec.items()}
        filler[mask_key] = False
        filler = Dataset.from_tensors(filler).repeat(cardinality - dataset.cardinality())
        return dataset.map(lambda x: {**x, mask_key: True}).concatenate(filler)
    return apply_fn


@export("data.experimental.DatasetInitializer")
class DatasetInitializer(lookup_ops.TableInitializerBase):
    """Fills a static lookup table with the (key, value) pairs a dataset yields.

    >>> pairs = tf.data.Dataset.zip((tf.data.Dataset.range(3), tf.data.Dataset.range(10, 13)))
    >>> table = tf.lookup.StaticHashTable(tf.data.experimental.DatasetInitializer(pairs), -1)
    >>> table.lookup(tf.constant([2, 5], tf.int64)).numpy()
    array([12, -1])
    """

    def __init__(self, dataset):
        if len(dataset.element_spec) != 2:
            raise ValueError("The given dataset must contain pairs.")
        key_spec, value_spec = dataset.element_spec
        super().__init__(key_spec.dtype, value_spec.dtype)
        self.dataset = dataset

    def initialize(self, table):
        pairs = list(self.dataset)  # (tables fill eagerly, even while a function is traced)
        keys = array_ops.stack([k for k, _ in pairs]) if pairs else []
        values = array_ops.stack([v for _, v in pairs]) if pairs else []
        lookup_ops.KeyValueTensorInitializer(keys, values, self.key_dtype,
                                             self.value_dtype).initialize(table)


@export("data.experimental.table_from_dataset")
def table_from_dataset(dataset=None, num_oov_buckets=0, vocab_size=None, default_value=None,
                       hasher_spec=None, key_dtype=_d.string, name=None):
    """A static lookup table of the (key, value) pairs of `dataset`; with
    `num_oov_buckets`, other keys get one of that many ids after the table's, by hash."""
    key_dtype = _d.as_dtype(key_dtype)
    if num_oov_buckets < 0:
        raise ValueError(f"`num_oov_buckets` must be greater than or equal to 0, got "
                         f"{num_oov_buckets}.")
    if vocab_size is not None and vocab_size < 1:
        raise ValueError(f"`vocab_size` must be greater than 0, got {vocab_size}.")
    if not key_dtype.is_integer and key_dtype != _d.string:
        raise TypeError(f"Invalid `key_dtype`, expected integer or string, got {key_dtype}.")
    initializer = DatasetInitializer(dataset)
    if num_oov_buckets:
        return lookup_ops.StaticVocabularyTable(initializer, num_oov_buckets,
                                                lookup_key_dtype=key_dtype, name=name)
    return lookup_ops.StaticHashTable(initializer, default_value, name=name)


@export("data.experimental.index_table_from_dataset")
def index_table_from_dataset(dataset=None, num_oov_buckets=0, vocab_size=None,
                             default_value=-1, hasher_spec=None, key_dtype=_d.string,
                             name=None):
    """A table of each element of `dataset` (the keys) to its position (int64 ids); other
    keys get `default_value`, or with `num_oov_buckets` one of that many ids by hash.

    >>> words = tf.data.Dataset.from_tensor_slices(["a", "b"])
    >>> tf.data.experimental.index_table_from_dataset(words).lookup(
    ...     tf.constant(["b", "z"])).numpy()
    array([ 1, -1])
    """
    return table_from_dataset(dataset.enumerate().map(lambda v, k: (k, v)), num_oov_buckets,
                              vocab_size, default_value, hasher_spec, key_dtype, name)


@export("data.experimental.enumerate_dataset")
def enumerate_dataset(start=0):
    """``Dataset.enumerate(start)`` as a transformation."""
    return lambda dataset: dataset.enumerate(start)


@export("data.experimental.ignore_errors")
def ignore_errors(log_warning=False):
    """``Dataset.ignore_errors`` as a transformation."""
    return lambda dataset: dataset.ignore_errors(log_warning)


@export("data.experimental.get_single_element")
def get_single_element(dataset):
    """``dataset.get_single_element()``."""
    if not isinstance(dataset, Dataset):
        raise TypeError(f"Invalid `dataset`. Expected a `tf.data.Dataset` object but got "
                        f"{type(dataset)}.")
    return dataset.get_single_element()


@export("data.experimental.get_structure")
def get_structure(dataset_or_iterator):
    """The element spec of a dataset or iterator."""
    try:
        return dataset_or_iterator.element_spec
    except AttributeError:
        raise TypeError(f"Invalid `dataset_or_iterator`. `dataset_or_iterator` must be a "
                        f"`tf.data.Dataset` or tf.data.Iterator object, but got "
                        f"{type(dataset_or_iterator)}.") from None


@export("data.experimental.group_by_window")
def group_by_window(key_func, reduce_func, window_size=None, window_size_func=None):
    """``Dataset.group_by_window`` as a transformation."""
    return lambda dataset: dataset.group_by_window(key_func, reduce_func, window_size,
                                                   window_size_func)


@export("data.experimental.bucket_by_sequence_length")
def bucket_by_sequence_length(element_length_func, bucket_boundaries, bucket_batch_sizes,
                              padded_shapes=None, padding_values=None,
                              pad_to_bucket_boundary=False, no_padding=False,
                              drop_remainder=False):
    """``Dataset.bucket_by_sequence_length`` as a transformation."""
    return lambda dataset: dataset.bucket_by_sequence_length(
        element_length_func, bucket_boundaries, bucket_batch_sizes, padded_shapes,
        padding_values, pad_to_bucket_boundary, no_padding, drop_remainder)


@export("data.experimental.sample_from_datasets")
def sample_from_datasets(datasets, weights=None, seed=None, stop_on_empty_dataset=False):
    """``Dataset.sample_from_datasets``."""
    return Dataset.sample_from_datasets(datasets, weights, seed, stop_on_empty_dataset)


@export("data.experimental.choose_from_datasets")
def choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset=False):
    """``Dataset.choose_from_datasets``."""
    return Dataset.choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset)


@export("data.experimental.parallel_interleave")
def parallel_interleave(map_func, cycle_length, block_length=1, sloppy=False,
                        buffer_output_elements=None, prefetch_input_elements=None):
    """``Dataset.interleave`` with inputs read ahead on threads, as a transformation."""
    return lambda dataset: dataset.interleave(map_func, cycle_length, block_length,
                                              num_parallel_calls=cycle_length)


@export("data.experimental.scan")
def scan(initial_state, scan_func):
    """``Dataset.scan`` as a transformation."""
    return lambda dataset: dataset.scan(initial_state, scan_func)


@export("data.experimental.shuffle_and_repeat")
def shuffle_and_repeat(buffer_size, count=None, seed=None):
    """``shuffle(buffer_size, seed).repeat(count)`` as a transformation.

    >>> ds = tf.data.Dataset.range(5).apply(
    ...     tf.data.experimental.shuffle_and_repeat(3, 2, seed=1))
    >>> tf.random.set_seed(None)
    >>> [int(x) for x in ds]
    [1, 3, 0, 4, 2, 1, 3, 0, 4, 2]
    """
    return lambda dataset: _ShuffleAndRepeatDataset(dataset, buffer_size, count, seed)


@export("data.experimental.take_while")
def take_while(predicate):
    """``Dataset.take_while`` as a transformation."""
    return lambda dataset: dataset.take_while(predicate)


@export("data.experimental.unique")
def unique():
    """``Dataset.unique`` as a transformation."""
    return lambda dataset: dataset.unique()


@export("data.experimental.dense_to_sparse_batch")
def dense_to_sparse_batch(batch_size, row_shape):
    """``Dataset.sparse_batch`` as a transformation."""
    return lambda dataset: dataset.sparse_batch(batch_size, row_shape)


@export("data.experimental.dense_to_ragged_batch")
def dense_to_ragged_batch(batch_size, drop_remainder=False, row_splits_dtype=_d.int64):
    """``Dataset.ragged_batch`` as a transformation."""
    return lambda dataset: dataset.ragged_batch(batch_size, drop_remainder, row_splits_dtype)


@export("data.experimental.unbatch")
def unbatch():
    """``Dataset.unbatch`` as a transformation."""
    return lambda dataset: dataset.unbatch()


class _MapAndBatchDataset(_UnaryDataset):
    def __init__(self, input_dataset, map_func, batch_size, num_parallel_calls,
                 drop_remainder):
        super().__init__(input_dataset)
        mapped = input_dataset.map(map_func, num_parallel_calls)
        self._batched = mapped.batch(batch_size, drop_remainder)
        self._spec = self._batched.element_spec

    def _cardinality(self):
        return self._batched._cardinality()

    def _iterator(self):
        return self._batched._iterator()


@export("data.experimental.map_and_batch")
def map_and_batch(map_func, batch_size, num_parallel_batches=None, drop_remainder=False,
                  num_parallel_calls=None):
    """``map(map_func)`` then ``batch(batch_size)`` as one transformation."""
    if num_parallel_batches is not None and num_parallel_calls is not None:
        raise ValueError("`map_and_batch` allows only one of `num_parallel_batches` and "
                         "`num_parallel_calls` to be set, but `num_parallel_batches` was set "
                         f"to {num_parallel_batches} and `num_parallel_calls` as set to "
                         f"{num_parallel_calls}.")
    parallel = num_parallel_calls if num_parallel_calls is not None else (
        None if num_parallel_batches is None else _int(num_parallel_batches) * _int(batch_size))
    return lambda dataset: _MapAndBatchDataset(dataset, map_func, batch_size, parallel,
                                               drop_remainder)


class _ListDataset(Dataset):
    def __init__(self, elements):
        if not elements:
            raise ValueError("Invalid `elements`. `elements` should not be empty. If you want an "
                             "empty dataset, use `tf.data.Dataset.range(0)`.")
        normalized = [structure.normalize(e) for e in elements]
        spec = structure.spec_of(normalized[0])
        for e in normalized[1:]:
            other = structure.spec_of(e)
            if not structure.same_structure(spec, other):
                raise ValueError(f"Invalid `elements`. All elements should have the same "
                                 f"structure but got {elements[0]} and {e}.")
            spec = structure.pack(spec, [
                type(a)(a.shape.most_specific_compatible_shape(b.shape), a.dtype)
                for a, b in zip(structure.flatten(spec), structure.flatten(other))])
        self._spec = spec
        self._elements = [tuple(t._data for t in structure.flatten(e)) for e in normalized]

    def _cardinality(self):
        return len(self._elements)

    def _iterator(self):
        return iter(self._elements)


@export("data.experimental.from_list")
def from_list(elements, name=None):
    """A dataset of the Python list `elements` (each a nest of tensors).

    >>> list(tf.data.experimental.from_list([(1, "a"), (2, "b")]).as_numpy_iterator())
    [(np.int32(1), b'a'), (np.int32(2), b'b')]
    """
    return _ListDataset(list(elements))


@export("data.experimental.enable_debug_mode")
def enable_debug_mode():
    """From now on, the functions of dataset transformations run as Python, eagerly, one
    element at a time (``print`` and breakpoints work in them), as TF's debug mode does.

    Their element specs still come from tracing them once.
    """
    structured_function.debug_mode = True


SHARD_HINT = -1
export("data.experimental.SHARD_HINT").export_constant(__name__, "SHARD_HINT")



@export("data.experimental.get_next_as_optional")
def get_next_as_optional(iterator):
    """``iterator.get_next_as_optional()``."""
    return iterator.get_next_as_optional()


@export("data.experimental.rejection_resample")
def rejection_resample(class_func, target_dist, initial_dist=None, seed=None):
    """``Dataset.rejection_resample`` as a transformation."""
    return lambda dataset: dataset.rejection_resample(class_func, target_dist, initial_dist,
                                                      seed)


@export("data.experimental.snapshot")
def snapshot(path, compression="AUTO", reader_func=None, shard_func=None):
    """``Dataset.snapshot`` as a transformation."""
    return lambda dataset: dataset.snapshot(path, compression, reader_func, shard_func)


@export("data.experimental.at")
def at(dataset, index):
    """The element of `dataset` at `index`; OutOfRangeError outside ``[0, cardinality)``.

    >>> tf.data.experimental.at(tf.data.Dataset.range(5).map(lambda x: x * 10), 3)
    <tf.Tensor: shape=(), dtype=int64, numpy=30>
    """
    i = _int(index)
    n = dataset._cardinality()
    if i < 0 or (n >= 0 and i >= n):
        raise op_error(errors.OutOfRangeError, "GetElementAtIndex",
                       f"Index out of range [0, {n}):{i}")
    for k, element in enumerate(dataset._iterator()):
        if k == i:
            return structure.Packer(dataset.element_spec).pack(element)
    raise op_error(errors.OutOfRangeError, "GetElementAtIndex",
                   f"Index out of range [0, {n}):{i}")


@export("data.experimental.prefetch_to_device")
def prefetch_to_device(device, buffer_size=None):
    """``prefetch`` (the elements are already on the host device, the only one here)."""
    return lambda dataset: dataset.prefetch(-1 if buffer_size is None else buffer_size)


class _CopyToDeviceDataset(_UnaryDataset):
    def _iterator(self):
        return self._input._iterator()


@export("data.experimental.copy_to_device")
def copy_to_device(target_device, source_device="/cpu:0"):
    """The dataset as it is (its elements already live on the host device)."""
    return lambda dataset: _CopyToDeviceDataset(dataset)


@export("data.experimental.Reducer")
class Reducer:
    """How `group_by_reducer` reduces a group: ``init_func(key)`` makes its state,
    ``reduce_func(state, element)`` updates it, ``finalize_func(state)`` gives the output."""

    def __init__(self, init_func, reduce_func, finalize_func):
        self._init_func = init_func
        self._reduce_func = reduce_func
        self._finalize_func = finalize_func

    init_func = property(lambda self: self._init_func)
    reduce_func = property(lambda self: self._reduce_func)
    finalize_func = property(lambda self: self._finalize_func)


class _GroupByReducerDataset(_UnaryDataset):
    def __init__(self, input_dataset, key_func, reducer):
        super().__init__(input_dataset)
        from eagerflow._src.core.tensor_spec import TensorSpec  # noqa: PLC0415
        from eagerflow._src.data.structured_function import StructuredFunction  # noqa: PLC0415
        from eagerflow._src.data.transformations import trace_state_function  # noqa: PLC0415
        spec = input_dataset.element_spec
        name = "tf.data.experimental.group_by_reducer()"
        self._key_fn = StructuredFunction(key_func, name, spec).trace()
        out = self._key_fn.output_spec
        if not (isinstance(out, TensorSpec) and out.dtype == _d.int64 and out.shape.rank == 0):
            raise ValueError(f"Invalid `key_func`. Expected `key_func` to return a scalar "
                             f"tf.int64 tensor, but instead `key_func` has output types={out}")
        self._init_fn = StructuredFunction(reducer.init_func, name,
                                           TensorSpec([], _d.int64)).trace()
        self._reduce_fn, state_spec = trace_state_function(
            reducer.reduce_func, "Dataset.reduce()", self._init_fn.output_spec, spec, False)
        self._finalize_fn = StructuredFunction(reducer.finalize_func, name, state_spec).trace()
        self._spec = self._finalize_fn.output_spec

    def _cardinality(self):
        n = self._input._cardinality()
        return INFINITE if n == INFINITE else -2

    def _iterator(self):
        import numpy as np  # noqa: PLC0415
        states = {}
        for element in self._input._iterator():
            key = int(self._key_fn(element)[0])
            state = states.get(key)
            if state is None:
                state = self._init_fn((np.array(key, np.int64),))
            states[key] = self._reduce_fn(state + element)
        for key in sorted(states):  # TF keeps its groups in a map, by key
            yield self._finalize_fn(states[key])


@export("data.experimental.group_by_reducer")
def group_by_reducer(key_func, reducer):
    """Elements grouped by ``key_func(element)`` and each group reduced by `reducer`; one
    output per group, by key, once the input ends.

    >>> reducer = tf.data.experimental.Reducer(
    ...     init_func=lambda _: np.int64(0), reduce_func=lambda s, x: s + x,
    ...     finalize_func=lambda s: s)
    >>> ds = tf.data.Dataset.range(10).apply(
    ...     tf.data.experimental.group_by_reducer(lambda x: x % 2, reducer))
    >>> [int(x) for x in ds]
    [20, 25]
    """
    return lambda dataset: _GroupByReducerDataset(dataset, key_func, reducer)


@export("data.experimental.save")
def save(dataset, path, compression=None, shard_func=None, checkpoint_args=None):
    """``dataset.save(path, ...)`` (TF's older spelling)."""
    dataset.save(path, compression, shard_func, checkpoint_args)


@export("data.experimental.load")
def load(path, element_spec=None, compression=None, reader_func=None):
    """``tf.data.Dataset.load(path, ...)`` (TF's older spelling)."""
    return Dataset.load(path, element_spec, compression, reader_func)


@export("data.experimental.parse_example_dataset")
def parse_example_dataset(features, num_parallel_calls=1, deterministic=None):
    """For `apply`: parses a dataset of string vectors (serialized `Example`s) with
    ``tf.io.parse_example(batch, features)``."""
    from eagerflow._src.core.tensor_spec import TensorSpec  # noqa: PLC0415
    from eagerflow._src.ops.parsing_ops import parse_example  # noqa: PLC0415
    if features is None:
        raise ValueError("Argument `features` is required, but not specified.")

    def _apply_fn(dataset):
        spec = dataset.element_spec
        if not (isinstance(spec, TensorSpec) and spec.dtype == _d.string
                and spec.shape.rank == 1):
            raise TypeError(f"Input dataset should be a dataset of vectors of strings. Instead "
                            f"it is `{spec!r}`.")
        out = dataset.map(lambda serialized: parse_example(serialized, features),
                          num_parallel_calls=num_parallel_calls, deterministic=deterministic)
        # TF parses in one dataset op, then (for ragged features) builds them in a map
        if not any(hasattr(f, "_var_len_features") for f in features.values()):
            out._tf_name = "_ParseExampleDataset"
        return out
    return _apply_fn

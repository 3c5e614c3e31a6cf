"""Specs of the iterator ops that datasets and iterators become inside traced functions."""
import numpy as np

import eagerflow as tf
from tests.internals import iterator_graph as IG
from tests.ops.spec import OpSpec, rand

_NO_GRAD = "the elements of a dataset"


def _first_row(x):
    spec = tf.TensorSpec(x.shape[1:], x.dtype)
    resource = IG.make_iterator(tf.data.Dataset.from_tensor_slices(x), spec)
    return IG.get_next(resource, spec)


def _optional_rows(x):
    """has_value and value of the first row's optional, and has_value after the last row."""
    spec = tf.TensorSpec(x.shape[1:], x.dtype)
    resource = IG.make_iterator(tf.data.Dataset.from_tensor_slices(x), spec)
    first = IG.get_next_as_optional(resource, spec)
    for _ in range(len(x) - 1):
        IG.get_next(resource, spec)
    return first.has_value(), first.get_value(), \
        IG.get_next_as_optional(resource, spec).has_value()


def _made_optionals(x):
    """has_value and value of an optional made from `x`, and has_value of an empty one."""
    full = tf.experimental.Optional.from_value(x)
    empty = tf.experimental.Optional.empty(tf.TensorSpec(x.shape, x.dtype))
    full, empty = [IG.OptionalSpec(o.element_spec)._from_components(
        IG.OptionalSpec(o.element_spec)._to_components(o)) for o in (full, empty)]
    return full.has_value(), full.get_value(), empty.has_value()


def _first_row_by_handle(x):
    """The first row, through an iterator found by its string handle."""
    spec = tf.TensorSpec(x.shape[1:], x.dtype)
    resource = IG.make_iterator(tf.data.Dataset.from_tensor_slices(x), spec)
    return IG.get_next(IG.from_string_handle(IG.string_handle(resource), spec), spec)


def _count_rows(x):
    return IG.counted(tf.data.Dataset.from_tensor_slices(x))


def _single_row(x):
    return IG.single_element(tf.data.Dataset.from_tensor_slices(x).take(1))


def _count_rows_passed_on(x):
    """The rows counted by a function the dataset is passed to (built for the call: a
    ``BindDataset`` while a function traces)."""
    ds = tf.data.Dataset.from_tensor_slices(x)
    variant = IG.dataset_tensor(ds)
    bound = IG.dispatch(IG._BIND, (variant, *variant._data.tensors))
    return IG.counted(tf.data.experimental.from_variant(bound, ds.element_spec))


SPECS = [
    OpSpec(name, _first_row, [rand(3, 2)], lambda x: x[0], grad=_NO_GRAD)
    for name in ("AnonymousIteratorV3", "MakeIterator", "IteratorGetNext")
] + [
    OpSpec(name, _optional_rows, [rand(2, 4, dtype=np.int32)],
           lambda x: (np.bool_(True), x[0], np.bool_(False)), grad=_NO_GRAD)
    for name in ("IteratorGetNextAsOptional", "OptionalHasValue", "OptionalGetValue")
] + [
    OpSpec(name, _made_optionals, [rand(2, 3)], lambda x: (np.bool_(True), x, np.bool_(False)),
           grad="an optional")
    for name in ("OptionalFromValue", "OptionalNone")
] + [
    OpSpec(name, _first_row_by_handle, [rand(3, 2)], lambda x: x[0], grad=_NO_GRAD)
    for name in ("IteratorToStringHandle", "IteratorFromStringHandleV2")
] + [
    OpSpec("DatasetToSingleElement", _single_row, [rand(3, 2)], lambda x: x[0], grad=_NO_GRAD),
    OpSpec("DatasetCardinality", _count_rows, [rand(3, 2)], lambda x: np.int64(len(x)),
           grad="an integer"),
    OpSpec("BindDataset", _count_rows_passed_on, [rand(3, 2)], lambda x: np.int64(len(x)),
           grad="an integer"),
]

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


SPECS = [
    OpSpec(name, _first_row, [rand(3, 2)], lambda x: x[0], grad=_NO_GRAD)
    for name in ("AnonymousIteratorV3", "MakeIterator", "IteratorGetNext")
] + [
    OpSpec(name, _optional_rows, [rand(2, 4, dtype=np.int32)],
           lambda x: (np.bool_(True), x[0], np.bool_(False)), grad=_NO_GRAD)
    for name in ("IteratorGetNextAsOptional", "OptionalHasValue", "OptionalGetValue")
]

"""Iterators over datasets: `OwnedIterator` (``iter(dataset)``) and `NumpyIterator`."""
from eagerflow._src.backend.api_export import export
from eagerflow._src.backend.log import logger
from eagerflow._src.core import context as _context
from eagerflow._src.core import errors
from eagerflow._src.core.errors import op_error
from eagerflow._src.data import structure
from eagerflow._src.data.optional_ops import Optional


@export("data.Iterator")
class Iterator:
    """The interface of dataset iterators (``tf.data.Iterator``)."""

    @property
    def element_spec(self):
        raise NotImplementedError

    def get_next(self):
        raise NotImplementedError

    def get_next_as_optional(self):
        raise NotImplementedError


class OwnedIterator(Iterator):
    """An iterator over a dataset's elements, made by ``iter(dataset)``.

    >>> it = iter(tf.data.Dataset.range(2))
    >>> it.get_next()
    <tf.Tensor: shape=(), dtype=int64, numpy=0>
    >>> next(it)
    <tf.Tensor: shape=(), dtype=int64, numpy=1>
    >>> it.get_next_as_optional().has_value()
    <tf.Tensor: shape=(), dtype=bool, numpy=False>
    """

    def __init__(self, dataset):
        self._dataset = dataset
        self._spec = dataset.element_spec
        self._source = dataset._iterator()
        self._pack = structure.Packer(self._spec).pack

    @property
    def element_spec(self):
        return self._spec

    def __iter__(self):
        return self

    def __next__(self):
        if _context.get().graph is not None:
            _warn_tracing()
        try:
            flat = next(self._source)
        except StopIteration:
            raise StopIteration from None
        return self._pack(flat)

    def next(self):
        return self.__next__()

    def get_next(self, name=None):
        """The next element; `OutOfRangeError` at the end."""
        if _context.get().graph is not None:
            _warn_tracing()
        try:
            flat = next(self._source)
        except StopIteration:
            raise op_error(errors.OutOfRangeError, "IteratorGetNext", "End of sequence") \
                from None
        return self._pack(flat)

    def get_next_as_optional(self):
        """The next element as an `Optional`, empty at the end."""
        if _context.get().graph is not None:
            _warn_tracing()
        try:
            flat = next(self._source)
        except StopIteration:
            return Optional.empty(self._spec)
        return Optional.from_value(self._pack(flat))

    def _close(self):
        close = getattr(self._source, "close", None)
        if close is not None:
            close()


_warned = []


def _warn_tracing():
    """Said once: a dataset read while a function traces enters its graph as constants."""
    if not _warned:
        _warned.append(True)
        logger.warning(
            "A tf.data iterator is read while a function is traced: its elements are taken "
            "now and become constants of the traced graph (the loop is unrolled), so later "
            "calls of the function see the same elements. Iterate the dataset outside the "
            "function and pass each element to it instead.")


@export("data.NumpyIterator")
class NumpyIterator:
    """An iterator of a dataset's elements as NumPy values (``as_numpy_iterator``)."""

    def __init__(self, dataset):
        self._iterator = iter(dataset)
        self._spec = dataset.element_spec

    def __iter__(self):
        return self

    def __next__(self):
        return structure.map_structure(lambda t: t.numpy(), next(self._iterator))

    next = __next__

    def __repr__(self):
        return f"NumpyIterator(iterator={self._iterator!r})"

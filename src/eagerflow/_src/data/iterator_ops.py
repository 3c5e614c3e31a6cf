"""Iterators over datasets: `OwnedIterator` (``iter(dataset)``) and `NumpyIterator`."""
import threading

from eagerflow._src import backend
from eagerflow._src.backend.api_export import export
from eagerflow._src.core import context, errors
from eagerflow._src.core.errors import op_error
from eagerflow._src.data import iterator_state, structure
from eagerflow._src.data.optional_ops import Optional
from eagerflow._src.data.structured_function import Scoped
from eagerflow._src.ops.random_ops import enter_draw_scope, exit_draw_scope
from eagerflow._src.core.composite_tensor import CompositeTensor


def _building_graph():
    return not context.executing_eagerly()


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


def restart_draws(dataset):
    """Restarts the seeded random ops of the pipeline's functions (TF runs a new iterator's
    functions anew: two iterations of a dataset draw the same values).  True when the
    pipeline has such ops, or functions making datasets (which may have them)."""
    found = False
    for node in iterator_state._nodes(dataset):
        for value in vars(node).values():
            restart = getattr(value, "restart_draws", None)
            if restart is not None:
                found = restart() or found
    return found


def scoped_source(dataset, make=None):
    """``dataset._iterator()`` (or ``make()``) of a new top-level iterator: its functions'
    seeded random ops draw from the start, in states of its own (`random_ops.draw_scope`)
    where the pipeline has any."""
    make = make or dataset._iterator
    if not restart_draws(dataset):
        return make()
    scope = ({}, ())
    token = enter_draw_scope(scope)
    try:
        source = make()
    finally:
        exit_draw_scope(token)
    return Scoped(source, scope)


def eager_error(error, op, spec=None, counts=()):
    """`error` (an `OpError` raised making an element of `spec`) as TF's eager op `op`
    (``IteratorGetNext``, ``DatasetToSingleElement``) raises it: in its one-op function's
    form (`errors.eager_message`), sized by `counts` then by the element's components."""
    counts = [*counts] if spec is None else [*counts, output_types(spec)]
    return type(error)(None, None, errors.eager_message(  # (an eager error names no op)
        errors.bare_message(error.message), op, counts, name=""))


def output_types(spec):
    """The ``output_types`` count of a dataset op making elements of `spec`."""
    return ("output_types", len(structure.flatten(spec)))


@CompositeTensor.register
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
        # (the shuffles' seed state before this iterator draws its seeds: a checkpoint's)
        self._seed_state = iterator_state.seed_state(dataset)
        self._source = scoped_source(dataset)
        self._pack = structure.Packer(self._spec).pack
        if backend.canonical_device("/cpu:1") != backend.host_device():
            # the host is split into logical CPUs: the elements are on the one the iterator
            # was made on, wherever they are taken
            self._pack = _on_device(self._pack, context.get().device_name)
        self._n = 0  # elements handed out: the position a checkpoint saves
        # Elements are taken one thread at a time, as TF's iterators serve several threads:
        # the sources (generators, prefetch buffers) each serve one consumer.
        self._lock = threading.RLock()

    @property
    def element_spec(self):
        return self._spec

    def __iter__(self):
        return self

    def __next__(self):
        if _building_graph():
            return self.get_next()
        return self._pack(self._next_flat())

    def next(self):
        return self.__next__()

    def _next_flat(self):
        """The source's next flat element, counted; its errors as TF's ``IteratorGetNext``
        raises them."""
        try:
            return self._take()
        except errors.OpError as e:
            raise eager_error(e, "IteratorGetNext", self._spec) from e.__cause__

    def _take(self):
        with self._lock:
            flat = next(self._source)
            self._n += 1
        return flat

    def get_next(self, name=None):
        """The next element; `OutOfRangeError` at the end."""
        if _building_graph():  # an op advancing this iterator on every call
            from eagerflow._src.data import iterator_graph  # noqa: PLC0415
            return iterator_graph.get_next(iterator_graph.iterator_tensor(self), self._spec)
        try:
            flat = self._next_flat()
        except StopIteration:
            raise eager_error(op_error(errors.OutOfRangeError, "IteratorGetNext",
                                       "End of sequence"), "IteratorGetNext", self._spec) \
                from None
        return self._pack(flat)

    def get_next_as_optional(self):
        """The next element as an `Optional`, empty at the end."""
        if _building_graph():
            from eagerflow._src.data import iterator_graph  # noqa: PLC0415
            return iterator_graph.get_next_as_optional(iterator_graph.iterator_tensor(self),
                                                       self._spec)
        try:
            flat = self._take()
        except StopIteration:
            return Optional.empty(self._spec)
        except errors.OpError as e:
            raise eager_error(e, "IteratorGetNextAsOptional") from e.__cause__
        return Optional.from_value(self._pack(flat))

    def _as_function_argument(self):
        """(trace key, resource tensor): a `function` argument keys by its `IteratorSpec`."""
        from eagerflow._src.data import iterator_graph  # noqa: PLC0415
        return iterator_graph.IteratorSpec(self._spec), iterator_graph.iterator_tensor(self)

    def _as_graph_iterator(self):
        """What AutoGraph's ``for`` loops over while a function traces: this iterator, which
        each call advances."""
        from eagerflow._src.data import iterator_graph  # noqa: PLC0415
        return iterator_graph.owned_as_graph_iterator(self)

    def _counting_source(self):
        """The source as graph ops read it: counting the position too (and following a
        restore)."""
        return _Counting(self)

    def _serialize_to_tensors(self):
        """The position and shuffle seeds (`iterator_state`), as a checkpoint stores them."""
        return iterator_state.serialize(self)

    def _restore_from_tensors(self, tensors):
        iterator_state.restore(self, tensors)

    def _close(self, wait=False):
        """Closes the source; with `wait`, once a prefetch's thread at its top has stopped
        (so that it draws no more seeds)."""
        source = self._source
        close = getattr(source, "close", None)
        if close is None:
            return
        top = getattr(source, "_it", source)  # (under a random-op scope's wrapper)
        if wait and hasattr(top, "_thread"):
            close(wait=True)
        else:
            close()


class _Counting:
    __slots__ = ("_owner",)

    def __init__(self, owner):
        self._owner = owner

    def __iter__(self):
        return self

    def __next__(self):
        return self._owner._take()


def _on_device(pack, device):
    """`pack` making its tensors on `device`."""
    def placed(flat):
        with context.device(device):
            return pack(flat)
    return placed


def _numpy(value):
    """A component as NumPy: a tensor's array, a sparse tensor's dense array (as in TF); None
    stays None."""
    if value is None:
        return None
    return value._numpy() if hasattr(value, "_numpy") else value.numpy()


@export("data.NumpyIterator")
class NumpyIterator:
    """An iterator of a dataset's elements as NumPy values (``as_numpy_iterator``)."""

    def __init__(self, dataset):
        self._iterator = iter(dataset)
        self._spec = dataset.element_spec

    def __iter__(self):
        return self

    def __next__(self):
        return structure.map_structure(_numpy, next(self._iterator))

    next = __next__

    def __repr__(self):
        return f"NumpyIterator(iterator={self._iterator!r})"


# Registers the iterator ops that datasets and iterators become inside traced functions.
from eagerflow._src.data import iterator_graph  # noqa: E402,F401

"""TF 1's dataset iterators in graphs (``tf.compat.v1.data.make_one_shot_iterator``,
`make_initializable_iterator`): each `Session` iterates on its own.

>>> g = tf.compat.v1.Graph()
>>> with g.as_default():
...     it = tf.compat.v1.data.make_one_shot_iterator(tf.data.Dataset.range(3))
...     nxt = it.get_next()
>>> with tf.compat.v1.Session(graph=g) as sess:
...     [sess.run(nxt) for _ in range(3)]
[np.int64(0), np.int64(1), np.int64(2)]
"""
from eagerflow._src.backend.api_export import export
from eagerflow._src.compat import graph_mode, variable_scope
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import errors
from eagerflow._src.core.convert import get_static_value
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.data import iterator_graph, structure
from eagerflow._src.data.iterator_graph import IteratorValue


class _SessionIteratorValue(IteratorValue):
    """An iterator's value whose position is that of the session running the graph; a
    one-shot iterator starts on its dataset at its first use in each session."""

    __slots__ = ("dataset", "one_shot")

    def __init__(self, dataset, one_shot):  # noqa: PLW0231 (no position of its own)
        self.dataset, self.one_shot = dataset, one_shot

    @property
    def source(self):
        store = variable_scope.running.store
        found = store.get(self)
        if found is None and self.one_shot:
            found = store[self] = self.dataset._iterator()
        return found

    @source.setter
    def source(self, iterator):
        variable_scope.running.store[self] = iterator


@export("compat.v1.data.Iterator")
class Iterator:
    """An iterator of a v1 graph (``tf.compat.v1.data.Iterator``): `get_next` adds the op
    yielding the next element; an initializable one starts (again) when a session runs
    its `initializer`."""

    def __init__(self, dataset, one_shot):
        if graph_mode.v1_graph() is None:
            raise RuntimeError("`make_initializable_iterator()` is not supported in eager "
                               "mode. Use Python-style iteration instead.")
        if one_shot:
            _check_one_shot(dataset)
        self._spec = dataset.element_spec
        self._resource = iterator_graph._wrap(_SessionIteratorValue(dataset, one_shot))
        self._made_handle()
        self._initializer = None
        if not one_shot:
            self._initializer = self.make_initializer(dataset)

    @staticmethod
    def from_structure(output_types, output_shapes=None, shared_name=None,
                       output_classes=None):
        """An iterator of elements of `output_types` and `output_shapes` (nested alike), on
        no dataset until `make_initializer(dataset)` gives it one (a reinitializable
        iterator, one initializer per dataset)."""
        del shared_name, output_classes
        self = object.__new__(Iterator)
        self._spec = Iterator._spec_of(output_types, output_shapes)
        self._resource = iterator_graph._wrap(_SessionIteratorValue(None, False))
        self._made_handle()
        self._initializer = None
        return self

    def _made_handle(self):
        # (as TF's constructor, which makes the op `string_handle` gives)
        self._string_handle = iterator_graph.string_handle(self._resource)

    @staticmethod
    def _spec_of(output_types, output_shapes):
        """The element spec of `output_types` and `output_shapes` (nested alike)."""
        from eagerflow._src.core import nest  # noqa: PLC0415
        from eagerflow._src.core.tensor_shape import TensorShape  # noqa: PLC0415
        from eagerflow._src.core.tensor_spec import TensorSpec  # noqa: PLC0415
        flat_types = nest.flatten(output_types)
        flat_shapes = ([None] * len(flat_types) if output_shapes is None else
                       _shapes_up_to(output_types, output_shapes))
        specs = [TensorSpec(TensorShape(s), _d.as_dtype(t))
                 for t, s in zip(flat_types, flat_shapes)]
        return nest.pack_sequence_as(output_types, specs)

    @staticmethod
    def from_string_handle(string_handle, output_types, output_shapes=None,
                           output_classes=None):
        """An iterator of elements of `output_types` and `output_shapes`, standing for the
        iterator whose `string_handle` the string tensor `string_handle` (a placeholder
        fed per run) holds: one `get_next` switching between datasets."""
        del output_classes
        from eagerflow._src.core.convert import convert_to_tensor  # noqa: PLC0415
        handle = convert_to_tensor(string_handle, _d.string)
        self = object.__new__(Iterator)
        self._spec = Iterator._spec_of(output_types, output_shapes)
        self._resource = iterator_graph.from_string_handle(handle, self._spec)
        self._made_handle()
        self._initializer = None
        return self

    def string_handle(self, name=None):
        """A string tensor naming this iterator, to feed `from_string_handle`'s placeholder."""
        if name is None:
            return self._string_handle
        return iterator_graph.string_handle(self._resource, name)

    element_spec = property(lambda self: self._spec)
    output_types = property(lambda self: structure_map(self._spec, lambda s: s.dtype))
    output_shapes = property(lambda self: structure_map(self._spec, lambda s: s.shape))
    output_classes = property(lambda self: _legacy_classes(self))

    @property
    def initializer(self):
        if self._initializer is None:
            raise ValueError("The iterator does not have an initializer. This means it was "
                             "likely created using `tf.data.Dataset.make_one_shot_iterator()`. "
                             "For an initializable iterator, use "
                             "`tf.data.Dataset.make_initializable_iterator()` instead.")
        return self._initializer

    def make_initializer(self, dataset, name=None):
        """The operation (re)starting this iterator on `dataset`."""
        graph = graph_mode.v1_graph()
        variant = iterator_graph.dataset_tensor(dataset)
        # the tensors the dataset was built from (placeholders fed to the initializer's run)
        arguments = tuple(a._variant_tensor_value for a in variant._data.arguments) + \
            variant._data.tensors
        dispatch(iterator_graph._MAKE_ITERATOR, (variant, self._resource, *arguments),
                 name=name)
        return graph.get_operations()[-1]

    def get_next(self, name=None):
        """The next element (`OutOfRangeError` in the run that passes the end)."""
        return iterator_graph.get_next(self._resource, self._spec)

    def __repr__(self):
        return f"<tf.compat.v1.data.Iterator element_spec={self._spec!r}>"


def _shapes_up_to(types, shapes):
    """The shapes of `shapes` for each dtype of `types`, flat (a shape is a leaf, even as
    a list of dims)."""
    if isinstance(types, dict):
        return [s for k in sorted(types) for s in _shapes_up_to(types[k], shapes[k])]
    if isinstance(types, (list, tuple)):
        return [s for t, sh in zip(types, shapes) for s in _shapes_up_to(t, sh)]
    return [shapes]


def structure_map(spec, fn):
    from eagerflow._src.core import nest  # noqa: PLC0415
    return nest.map_structure(fn, spec)


def _legacy_classes(iterator):
    from eagerflow._src.compat import dataset_v1  # noqa: PLC0415
    return dataset_v1.get_output_classes(iterator)


def _check_one_shot(dataset):
    """TF's error for a one-shot iterator over a dataset built from a placeholder or a
    stateful op's result (a variable's value): those exist only in a run, which an
    initializable iterator's initializer is."""
    for t in iterator_graph._symbolic_tensors(dataset, {}, set()).values():
        op = getattr(t, "op", None)
        if op is None or get_static_value(t) is not None:  # (a constant's value is known)
            continue
        if op.type in ("Placeholder", "PlaceholderWithDefault"):
            raise ValueError(f"Cannot capture a placeholder (name:{op.name}, "
                             f"type:{op.type}) by value.")
        raise ValueError(f"Cannot capture a stateful node (name:{op.name}, type:{op.type}) "
                         f"by value.: A likely cause of this error is that the dataset for "
                         f"which you are calling `make_one_shot_iterator()` captures a "
                         f"stateful object, such as a `tf.Variable` or "
                         f"`tf.lookup.StaticHashTable`, which is not supported. Use "
                         f"`make_initializable_iterator()` instead.")


@export("compat.v1.data.make_one_shot_iterator")
def make_one_shot_iterator(dataset):
    """An iterator over `dataset` that needs no initialization: in a v1 graph one whose
    `get_next` a session runs; eagerly or in a `tf.function`, ``iter(dataset)``."""
    if graph_mode.v1_graph() is None:
        return iter(dataset)
    return Iterator(dataset, one_shot=True)


@export("compat.v1.data.make_initializable_iterator")
def make_initializable_iterator(dataset, shared_name=None):
    """An iterator over `dataset` that a session starts by running its `initializer`."""
    del shared_name
    return Iterator(dataset, one_shot=False)


del errors, structure

"""Symbolic inputs of the functional API: `KerasTensor`s and the `Node`s linking layers.

``keras.Input`` makes a placeholder of one process-wide scratch graph; a layer
called on such tensors runs its `call` into that graph (learning its output
shapes and building its weights) and records a `Node`: which layer turned
which tensors into which. TF functions and operators applied to these tensors
(``x * 2``, ``tf.concat``) join the same graph as layers of their own
(`TFOpLambda`, see ``layers/tf_op_layers.py``). `Functional` models later
replay the layers on real tensors.

In TF 1's graph mode (after ``disable_eager_execution``) the graph is the TF 1 graph being
built, as in TF 1's Keras: inputs are its placeholders and layers' outputs its tensors
(carrying the same history), which a `Session` runs and ``tf.compat.v1.gradients``
differentiates; TF functions applied to them outside a layer's call are plain ops there.

>>> tf.keras.backend.clear_session()  # layer names count from zero again
>>> x = tf.keras.Input(shape=(3,))
>>> x * 2
<KerasTensor: shape=(None, 3) dtype=float32 (created by layer 'tf.math.multiply')>
"""
import collections
import contextlib
import weakref

from eagerflow._src.backend.api_export import SymbolicCall, export
from eagerflow._src.compat import graph_mode
from eagerflow._src.core import context, nest
from eagerflow._src.core.convert import constant
from eagerflow._src.core.tensor import Tensor
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.core.tensor_spec import TensorSpec
from eagerflow._src.graph.graph import Graph, SymbolicTensor
from eagerflow._src.ops import cast_ops
from eagerflow._src.ops.extension_type import ExtensionType
from eagerflow._src.ops.sparse_tensor import SparseTensor, SparseTensorSpec
from eagerflow._src.ragged.ragged_tensor import RaggedTensor, RaggedTensorSpec
from eagerflow._src.core import dtypes as _d
from eagerflow._src.keras import backend, late


class KerasTensor(SymbolicTensor):
    """A symbolic tensor of the functional API: a shape, a dtype and the layer that made it."""

    @property
    def type_spec(self):
        return TensorSpec(self.shape, self.dtype, self._spec_name())

    @property
    def numpy(self):
        # raised on access, so that hasattr(x, "numpy") is False, as for Keras's tensors
        raise AttributeError(f"'KerasTensor' object has no attribute 'numpy': {self.name} is a "
                             f"symbolic input or output of a functional model, with no value")

    def _spec_name(self):
        return self.op.name if self.op.type == "Placeholder" else None

    @property
    def name(self):
        return self.op.name if self.op.type == "Placeholder" else super().name

    @property
    def node(self):
        history = getattr(self, "_keras_history", None)
        return None if history is None else history[0]._inbound_nodes[history[1]]

    def _creator(self):
        """The name of the layer that made this tensor; None for one no layer made (a mask)."""
        history = getattr(self, "_keras_history", None)
        return None if history is None else history[0].name

    def __repr__(self):
        creator = self._creator()
        made_by = "" if creator is None else f" (created by layer '{creator}')"
        return f"<KerasTensor: shape={self.shape} dtype={self.dtype.name}{made_by}>"

    def __str__(self):
        name = self._spec_name()
        spec = (f"TensorSpec(shape={self.shape}, dtype=tf.{self.dtype.name}, "
                f"name={name!r})")
        creator = self._creator()
        made_by = "" if creator is None else f", description=\"created by layer '{creator}'\""
        return f"KerasTensor(type_spec={spec}, name={self.name!r}{made_by})"

    def __hash__(self):
        return id(self)

    # Outside a layer's call, as Keras's symbolic tensors: no length (nor truth value, which
    # Python would take from it), and iteration over the first dimension when it is known,
    # as slices (a layer each). Inside a call they are graph tensors.
    def __len__(self):
        if building_symbolically():
            return super().__len__()
        raise TypeError(_NO_LEN)

    def __bool__(self):
        if building_symbolically():
            return super().__bool__()
        raise TypeError(_NO_LEN)

    def __iter__(self):
        if building_symbolically():
            return super().__iter__()
        shape = self.shape
        if shape.rank is None:
            raise TypeError("Cannot iterate over a Tensor with unknown shape.")
        if shape.rank == 0:
            raise TypeError("Cannot iterate over a scalar.")
        if shape[0] is None:
            raise TypeError("Cannot iterate over a Tensor with unknown first dimension.")
        return (self[i] for i in range(shape[0]))

    def __array__(self, dtype=None, copy=None):
        # what an API without dispatch support meets when it reads the tensor's value
        raise TypeError(_not_dispatchable(self))


_NO_LEN = ("Keras symbolic inputs/outputs do not implement `__len__`. You may be trying to "
           "pass TF-Keras symbolic inputs/outputs to a TF API that does not register "
           "dispatching, preventing TF-Keras from automatically converting the API call to a "
           "lambda layer in the Functional Model. This error will also get raised if you try "
           "asserting a symbolic input/output directly.")


def _operator(name):
    method = getattr(Tensor, name)

    def operator(self, *other):
        try:
            return method(self, *other)
        except SymbolicCall:  # outside a layer's call: the layer of the operator's TF function
            return late.layers.tf_op_layers.apply_operator(name, self, other)
    operator.__name__ = operator.__qualname__ = name
    return operator


# Operators of Keras tensors dispatch to their TF functions' layers (as TF's functions do,
# see `api_export`), named by TF's name of the operator (``tf.__operators__.add``).
for _name in Tensor.OVERLOADABLE_OPERATORS:
    setattr(KerasTensor, _name, _operator(_name))


class _WeakList:
    """A list of items held weakly (those gone drop out), but the latest one added: what
    the Keras graph lists of its operations and inputs."""

    def __init__(self):
        self._refs = []
        self._latest = None
        self._kept = 0  # the items alive when the list was last swept of those gone

    def append(self, item):
        if len(self._refs) > 2 * self._kept + 64:
            self._refs = [r for r in self._refs if r() is not None]
            self._kept = len(self._refs)
        self._refs.append(weakref.ref(item))
        self._latest = item

    def pop(self):
        self._latest = None
        return self._refs.pop()()

    def _items(self):
        return [item for item in (r() for r in self._refs) if item is not None]

    def __iter__(self):
        return iter(self._items())

    def __len__(self):
        return len(self._items())

    def __getitem__(self, index):
        return self._items()[index]


class _KerasGraph(Graph):
    """The graph Keras tensors belong to, which never runs. It holds its operations, inputs
    and captured values weakly: a model built and dropped leaves nothing behind (tf_keras
    builds each layer call in a scratch graph of its own), so models built in a loop do not
    hold ever more memory."""
    tensor_type = KerasTensor
    lifts_eager_ops = True
    unique_scopes = False

    def __init__(self, name):
        super().__init__(name)
        self._operations = _WeakList()
        self.inputs = _WeakList()
        self._unnamed = weakref.WeakValueDictionary()

    def capture(self, value):
        inner = super().capture(value)
        self._captures.pop(id(value), None)  # (the next capture of it makes another)
        return inner

    @contextlib.contextmanager
    def own_names(self):
        """Names the ops built in the block unique among themselves only, as tf_keras names
        the tensors of each input and layer call, built in a scratch graph of its own
        (a layer called twice gives ``dense/BiasAdd:0`` twice)."""
        taken, self._names = self._names, {}
        try:
            yield
        finally:
            self._names = taken

    def placeholder(self, dtype, shape, name="Placeholder"):
        with self.own_names():  # (two inputs named alike are named alike)
            return super().placeholder(dtype, shape, name)

    def create_op(self, op_def, inputs, attrs, name=None):
        if context.get().graph is self:  # a layer's call, traced into this graph
            return super().create_op(op_def, inputs, attrs, name)
        # An op on Keras tensors outside a layer's call: the public function called dispatches
        # to a layer (see `api_export`); an API that cannot dispatch fails as in TF.
        tensor = next(t for t in inputs if isinstance(t, KerasTensor))
        error = SymbolicCall(_not_dispatchable(tensor))
        error.__suppress_context__ = True  # raised while dispatch handles an AttributeError
        raise error


def _not_dispatchable(tensor):
    """tf_keras's message for a Keras tensor given to an API that cannot dispatch."""
    return (f"You are passing {tensor}, an intermediate TF-Keras symbolic input/output, to a "
            f"TF API that does not allow registering custom dispatchers, such as `tf.cond`, "
            f"`tf.function`, gradient tapes, or `tf.map_fn`. TF-Keras Functional model "
            f"construction only supports TF API calls that *do* support dispatching, such as "
            f"`tf.math.add` or `tf.reshape`. Other APIs cannot be called directly on symbolic "
            f"Kerasinputs/outputs. You can work around this limitation by putting the "
            f"operation in a custom TF-Keras layer `call` and calling that layer on this "
            f"symbolic input/output.")


def keras_graph():
    """The graph of functional-API tensors: the scratch graph (`clear_session` starts a new
    one), or in TF 1's graph mode the TF 1 graph being built, as TF 1's Keras builds its
    models into the default graph."""
    graph = graph_mode.v1_graph()
    if graph is not None:
        return graph
    if backend.scratch_graph is None:
        backend.scratch_graph = _KerasGraph("keras_graph")
    return backend.scratch_graph


def placeholder(dtype, shape, name):
    """A symbolic input of `keras_graph()` (a placeholder fed by name in a TF 1 graph)."""
    if graph_mode.v1_graph() is not None:
        return graph_mode.placeholder(dtype, shape, name)
    return keras_graph().placeholder(dtype, shape, name)


def building_symbolically():
    """Whether a layer is being connected into a functional model right now."""
    graph = backend.scratch_graph
    return graph is not None and context.get().graph is graph


@export("keras.backend.is_keras_tensor")
def public_is_keras_tensor(x):
    """Whether `x` is a symbolic input or output of a functional model being built; a
    ValueError for values that are no tensor (arrays, numbers), as Keras's check raises."""
    from eagerflow._src.core.variables import Variable  # noqa: PLC0415
    if not isinstance(x, (Tensor, Variable, SparseTensor, RaggedTensor)):
        raise ValueError(f"Unexpectedly found an instance of type `{type(x)}`. Expected a "
                         f"symbolic tensor instance.")
    return is_keras_tensor(x)


def is_keras_tensor(value):
    if isinstance(value, ExtensionType):  # symbolic when its tensors are
        parts = value._type_spec._to_components(value)
        return bool(parts) and all(is_keras_tensor(p) for p in parts)
    if isinstance(value, SparseTensor):  # a sparse input: its components are symbolic
        value = value.values
    elif isinstance(value, RaggedTensor):
        value = RaggedTensor.flat_values.fget(value)  # (not a Keras tensor's layer of it)
    if isinstance(value, KerasTensor):  # (one of a graph before `clear_session` too)
        return isinstance(value.graph, _KerasGraph)
    # (TF 1's graph mode: a tensor of a TF 1 graph that an input or a layer's call made)
    return isinstance(value, SymbolicTensor) and "_keras_history" in value.__dict__ and \
        graph_mode.is_v1(value.graph)


def sparse_placeholder(dtype, shape, name):
    """A sparse symbolic input of `shape`: a SparseTensor of three placeholders."""
    rank = shape.rank
    value = SparseTensor(placeholder(_d.int64, TensorShape([None, rank]), f"{name}/indices"),
                         placeholder(dtype, TensorShape([None]), f"{name}/values"),
                         placeholder(_d.int64, TensorShape([rank]), f"{name}/shape"))
    value._shape_hint = shape
    value.name = name
    value.__class__ = SparseKerasTensor
    return value


def _printed(spec, tensor):
    """A sparse or ragged Keras tensor's ``str``: an input's names it, a layer's output not."""
    creator = _composite_creator(tensor)
    name = f"name={tensor.name!r}, " if "name" in vars(tensor) else ""
    return f"KerasTensor(type_spec={spec!r}, {name}description=\"created by layer '{creator}'\")"


def _composite_creator(tensor):
    """The layer that made a sparse or ragged Keras tensor (an input's is its own name)."""
    history = getattr(tensor, "_keras_history", None)
    return tensor.name if history is None else history[0].name


class SparseKerasTensor(SparseTensor):
    """A sparse symbolic input or output, printed as Keras prints it (by its spec)."""

    @property
    def type_spec(self):
        return SparseTensorSpec(self.shape, self.dtype)

    def __repr__(self):
        spec = SparseTensorSpec(self.shape, self.dtype)
        return f"<KerasTensor: type_spec={spec!r} (created by layer '{_composite_creator(self)}')>"

    def __str__(self):
        return _printed(SparseTensorSpec(self.shape, self.dtype), self)


class RaggedKerasTensor(RaggedTensor):
    """A ragged symbolic input or output of a functional model, printed as Keras prints it
    (by its spec).

    Outside a layer's call it stands for the whole ragged value, as tf_keras's does: its
    operators and TF functions given it make `TFOpLambda` layers, and its row-partition
    properties and methods (``x.flat_values``, ``x.row_lengths()``, ``x.to_tensor()``)
    make `InstanceProperty` and `InstanceMethod` layers. Inside a layer's call it is the
    ragged tensor of its components."""

    def _spec(self):
        return RaggedTensorSpec(self.shape, self.dtype, self.ragged_rank, self.row_splits_dtype)

    type_spec = property(_spec)

    # (static: read from the components, never through layers)
    dtype = property(lambda self: RaggedTensor.flat_values.fget(self).dtype)
    row_splits_dtype = property(lambda self: self._row_splits.dtype)

    @property
    def _keras_symbolic(self):
        """Whether the tensor stands for its whole value here (outside a layer's call): TF
        functions given it are then not run on its components (see `ragged_dispatch`)."""
        return not building_symbolically()

    def __repr__(self):
        return (f"<KerasTensor: type_spec={self._spec()!r} (created by layer "
                f"'{_composite_creator(self)}')>")

    def __str__(self):
        return _printed(self._spec(), self)


def _delegated_property(name):
    own = getattr(RaggedTensor, name)

    def get(self):
        if building_symbolically():
            return own.fget(self)
        return late.layers.tf_op_layers.InstanceProperty(name)(self)
    return property(get, doc=own.__doc__)


def _delegated_method(name):
    own = getattr(RaggedTensor, name)

    def method(self, *args, **kwargs):
        if building_symbolically():
            return own(self, *args, **kwargs)
        return late.layers.tf_op_layers.InstanceMethod(name)(self, args, kwargs)
    method.__name__ = method.__qualname__ = name
    method.__doc__ = own.__doc__
    return method


def _ragged_operator(name):
    own = getattr(RaggedTensor, name, None)

    def operator(self, *other):
        if building_symbolically() and own is not None:
            return own(self, *other)
        return late.layers.tf_op_layers.apply_operator(name, self, other, ragged=True)
    operator.__name__ = operator.__qualname__ = name
    return operator


# (tf_keras's: `uniform_row_length` is left out, being None or a tensor)
for _name in ("values", "flat_values", "row_splits", "nested_row_splits"):
    setattr(RaggedKerasTensor, _name, _delegated_property(_name))
for _name in ("value_rowids", "nested_value_rowids", "nrows", "row_starts", "row_limits",
              "row_lengths", "nested_row_lengths", "bounding_shape", "with_values",
              "with_flat_values", "with_row_splits_dtype", "merge_dims", "to_tensor",
              "to_sparse"):
    setattr(RaggedKerasTensor, _name, _delegated_method(_name))
for _name in Tensor.OVERLOADABLE_OPERATORS - {"__matmul__", "__rmatmul__"}:
    setattr(RaggedKerasTensor, _name, _ragged_operator(_name))


def extension_placeholder(spec, name):
    """A symbolic input of the `ExtensionType` `spec` describes: its value of placeholders.
    As in tf_keras, the type must have a ``shape`` (a field or a property)."""
    if not hasattr(spec, "shape"):
        raise ValueError(f"KerasTensor only supports TypeSpecs that have a shape field; got "
                         f"{type(spec).__name__}, which does not have a shape.")
    value = spec._from_components([placeholder(s.dtype, s.shape, f"{name}/{i}")
                                   for i, s in enumerate(spec._component_specs)])
    object.__setattr__(value, "__class__", _extension_keras_type(type(value)))
    return value


_EXTENSION_KERAS_TYPES = {}  # an ExtensionType class -> its symbolic values' class


def _extension_keras_type(value_type):
    """The class of `value_type`'s symbolic values in a functional model: the type itself,
    printed as a Keras tensor of its spec (as tf_keras prints it)."""
    found = _EXTENSION_KERAS_TYPES.get(value_type)
    if found is None:
        def __repr__(self):
            return (f"<KerasTensor: type_spec={self._type_spec!r} (created by layer "
                    f"'{_composite_creator(self)}')>")

        def __str__(self):
            return _printed(self._type_spec, self)
        found = _EXTENSION_KERAS_TYPES[value_type] = type(value_type)(
            value_type.__name__, (value_type,),
            {"_tf_extension_type_base": True, "__repr__": __repr__, "__str__": __str__,
             "type_spec": property(lambda self: self._type_spec),  # (a Keras tensor's)
             "__qualname__": value_type.__qualname__, "__module__": value_type.__module__})
    return found


def ragged_placeholder(dtype, shape, name, ragged_rank=None):
    """A ragged symbolic input of `shape`: a RaggedTensor of placeholders (its flat values
    and row splits), by default ragged up to its last unknown axis after the first (as
    tf_keras's inputs are: ``(None, None, 2)`` has ragged rank 1)."""
    if ragged_rank is None:
        ragged_rank = max([i for i in range(1, shape.rank) if shape[i] is None], default=0)
    spec = RaggedTensorSpec(shape, dtype, ragged_rank=ragged_rank)
    value = spec._from_components([placeholder(s.dtype, s.shape, f"{name}/{i}")
                                   for i, s in enumerate(spec._component_specs)])
    value.name = name
    value.__class__ = RaggedKerasTensor
    return value


def constant_value(value):
    """`value`, or its value as an eager tensor when it is a Const of a graph."""
    op = getattr(value, "op", None)
    return constant(op.value) if op is not None and op.type == "Const" else value


# Where a Keras tensor comes from: the layer, which of its calls, and which of that call's
# outputs (``x._keras_history.layer``, as in Keras).
KerasHistory = collections.namedtuple("KerasHistory", ["layer", "node_index", "tensor_index"])


class Node:
    """One call of `layer` on symbolic tensors: its arguments and outputs.

    `args` and `kwargs` keep the call's structure with the `KerasTensor`s in
    place; `input_tensors` is the first argument, `keras_inputs` every
    `KerasTensor` anywhere in the arguments. An input layer's node (`is_input`)
    starts the graph: as in Keras, it has no arguments, and its tensor in a list
    is both its input and its output.
    """

    is_input = False

    def __init__(self, layer, args, kwargs, outputs):
        self.layer, self.args, self.kwargs, self.outputs = layer, args, kwargs, outputs
        self.keras_inputs = [x for x in nest.flatten((args, kwargs)) if is_keras_tensor(x)]
        # the common call, on one tensor alone: models run it without walking the arguments
        self.lone_input = args[0] if len(args) == 1 and not kwargs and is_keras_tensor(
            args[0]) else None
        self.index = len(layer._inbound_nodes)
        layer._inbound_nodes.append(self)
        for x in self.keras_inputs:
            producer = getattr(x, "_keras_history", None)
            if producer is not None:
                producer[0]._outbound_nodes.append(self)
        self._own(outputs)

    def _own(self, outputs):
        for i, out in enumerate(nest.flatten(outputs)):
            if out is None:  # (an output a layer leaves out, ``return x, None``)
                continue
            if isinstance(out, ExtensionType):  # (immutable: its Keras marks set around that)
                object.__setattr__(out, "_keras_history", KerasHistory(self.layer, self.index, i))
                object.__setattr__(out, "node", self)
                object.__setattr__(out, "__class__",
                                   _extension_keras_type(out._type_spec.value_type))
                continue
            out._keras_history = KerasHistory(self.layer, self.index, i)
            if not isinstance(out, KerasTensor):  # (a KerasTensor finds its node by its
                out.node = self                   # history)
                if type(out) is RaggedTensor:
                    out.__class__ = RaggedKerasTensor
                elif type(out) is SparseTensor:
                    out.__class__ = SparseKerasTensor

    def set_outputs(self, outputs):
        """Makes `outputs` the node's outputs in place of the current ones."""
        kept = {id(t) for t in nest.flatten(outputs)}
        for out in nest.flatten(self.outputs):
            if out is not None and id(out) not in kept:
                _disown(out)
        self.outputs = outputs
        self._own(outputs)

    def discard(self):
        """Undoes the node: its layer and its inputs' producers forget it."""
        self.layer._inbound_nodes.remove(self)
        for x in self.keras_inputs:
            producer = getattr(x, "_keras_history", None)
            if producer is not None:
                producer[0]._outbound_nodes.remove(self)
        for out in nest.flatten(self.outputs):
            if out is not None:
                _disown(out)

    call_args = property(lambda self: [] if self.is_input else self.args)
    call_kwargs = property(lambda self: self.kwargs)

    @property
    def input_tensors(self):
        return [self.outputs] if self.is_input else self.args[0]

    @property
    def output_tensors(self):
        return [self.outputs] if self.is_input else self.outputs

    @property
    def inbound_layers(self):
        """The layers that made the node's inputs, in their structure (none for an input)."""
        if self.is_input:
            return []
        return nest.map_structure(lambda x: getattr(x, "_keras_history", (None,))[0],
                                  self.input_tensors)

    @property
    def input_shapes(self):
        shapes = _shapes(self.input_tensors)
        # (as Keras: a call's one input is given by its shape, out of its list)
        if not self.is_input and isinstance(shapes, (list, tuple)) and len(shapes) == 1:
            return shapes[0]
        return shapes

    @property
    def output_shapes(self):
        return _shapes(self.output_tensors)

    @property
    def parent_nodes(self):
        return [x.node for x in self.keras_inputs if x.node is not None]

    def iterate_inbound(self):
        """``(layer, node_index, tensor_index, tensor)`` of each Keras tensor the call was
        given."""
        for x in self.keras_inputs:
            layer, node_index, tensor_index = x._keras_history
            yield layer, node_index, tensor_index, x

    @property
    def flat_input_ids(self):
        return [str(id(x)) for x in self.keras_inputs]

    @property
    def flat_output_ids(self):
        return [str(id(x)) for x in nest.flatten(self.outputs)]


def _disown(tensor):
    """`tensor` made by no layer again."""
    object.__delattr__(tensor, "_keras_history")
    if not isinstance(tensor, KerasTensor) and "node" in vars(tensor):
        object.__delattr__(tensor, "node")


def _shapes(tensors):
    # (a ragged or sparse tensor's too, as tf_keras gives it)
    return nest.map_structure(
        lambda t: tuple(t.shape.as_list()) if isinstance(t, (Tensor, RaggedTensor, SparseTensor))
        else None, tensors)


def call_symbolically(layer, inputs, args, kwargs):
    """Calls `layer` on `KerasTensor` inputs: traces `call` into the scratch graph and
    records the `Node`; returns `KerasTensor` outputs."""
    graph = keras_graph()
    # (its outputs given their own tensors, named in the call too; a TF 1 graph's names are
    # unique across it, as TF 1's Keras builds them there)
    names = graph.own_names() if isinstance(graph, _KerasGraph) else contextlib.nullcontext()
    with names:
        return _call_symbolically(graph, layer, inputs, args, kwargs)


def _call_symbolically(graph, layer, inputs, args, kwargs):
    if layer.dynamic and isinstance(graph, _KerasGraph):
        outputs = _dynamic_outputs(graph, layer, inputs)
    else:
        with graph.as_default(), backend.separate_uids():
            outputs = layer._call(inputs, args, dict(kwargs))
    if outputs is None or type(outputs) is context.Operation:
        return None  # a call of nothing but side effects (``tf.debugging.assert_equal``)
    # (and the components of sparse and ragged arguments: ``x.flat_values`` is a new tensor)
    taken = {id(x) for x in nest.flatten((inputs, args, kwargs))}
    taken.update(id(c) for x in nest.flatten((inputs, args, kwargs)) for c in _components(x))

    def own(t):
        if t is None:  # (an output the layer leaves out stays None)
            return None
        if isinstance(t, ExtensionType) and hasattr(t, "shape"):  # (its own, as tf_keras's)
            if id(t) in taken or hasattr(t, "_keras_history"):
                t = t._type_spec._from_components([_fresh(p) for p in
                                                   t._type_spec._to_components(t)])
            taken.add(id(t))
            return t
        if not isinstance(t, (Tensor, RaggedTensor, SparseTensor)) and \
                hasattr(t, "_type_spec"):  # (``tf.shape`` of a ragged tensor, say)
            raise ValueError(f"KerasTensor only supports TypeSpecs that have a shape field; "
                             f"got {type(t).__name__}.Spec, which does not have a shape.")
        # (an output given twice, an RNN's last output and state say, is two tensors, as
        # each carries its own place among the outputs)
        if id(t) in taken or hasattr(t, "_keras_history") or not _of(t, graph):
            t = _fresh(t)
        # A layer's symbolic output keeps no logits of its activation, as in tf_keras: they
        # are no layer's output, so a loss built from them could not be part of a model
        # (when the model runs, crossentropies still find them on the real tensors).
        vars(t).pop("_keras_logits", None)
        taken.add(id(t))
        return t

    outputs = nest.map_structure(own, outputs)
    Node(layer, (inputs, *args), dict(kwargs), outputs)
    return outputs


def _dynamic_outputs(graph, layer, inputs):
    """The outputs of a `dynamic=True` layer, whose call runs eagerly only: symbolic
    tensors of the shapes its `compute_output_shape` gives (the call is not traced, and
    the layer is built when first called on values, as in tf_keras)."""
    flat = [t for t in nest.flatten(inputs) if hasattr(t, "shape")]
    shapes = nest.map_structure(lambda t: t.shape, inputs)
    with graph.as_default():
        output_shape = layer.compute_output_shape(shapes)
    dtype = _d.as_dtype(layer.compute_dtype or (flat[0].dtype if flat else "float32"))

    def placeholder_of(shape):
        return graph.placeholder(dtype, TensorShape(shape), name=layer.name)
    if is_shape(output_shape):
        return placeholder_of(output_shape)
    if isinstance(output_shape, dict):
        return {k: placeholder_of(s) for k, s in output_shape.items()}
    return [placeholder_of(s) for s in output_shape]


def _of(tensor, graph):
    """Whether `tensor` is a symbolic tensor of `graph` (the graph a layer was called in)."""
    if isinstance(graph, _KerasGraph):
        return is_keras_tensor(tensor)
    return isinstance(tensor, SymbolicTensor) and tensor.graph is graph


def _components(value):
    """The component tensors of a ragged value (read directly, not through layers)."""
    out = []
    while isinstance(value, RaggedTensor):
        out.append(value._row_splits)
        value = value._values
    return out + [value] if out else []


def _fresh(tensor):
    """A new graph tensor equal to `tensor`, so that it can carry this layer's history."""
    graph = keras_graph()
    with graph.as_default():
        out = cast_ops.identity(tensor)
    mask = getattr(tensor, "_keras_mask", None)
    if mask is not None:
        out._keras_mask = mask
    return out


def infer_output_signature(layer, input_signature):
    """The `TensorSpec`s of `layer`'s outputs for inputs of `input_signature`."""
    graph = Graph("compute_output_signature")
    with graph.as_default():
        placeholders = nest.map_structure(
            lambda s: graph.placeholder(s.dtype, s.shape), input_signature)
        # Shape inference runs the inference-mode path, as Keras does.
        outputs = layer(placeholders, training=False)
    return nest.map_structure(lambda t: TensorSpec(t.shape, t.dtype), outputs)


def infer_output_shape(layer, input_shape):
    """The output shape(s) of `layer` for inputs of `input_shape` (TensorShapes)."""
    dtype = layer.compute_dtype or "float32"
    if is_shape(input_shape):
        signature = TensorSpec(TensorShape(input_shape), dtype)
    elif isinstance(input_shape, dict):
        signature = {k: TensorSpec(TensorShape(s), dtype) for k, s in input_shape.items()}
    else:
        signature = [TensorSpec(TensorShape(s), dtype) for s in input_shape]
    return nest.map_structure(lambda s: s.shape, infer_output_signature(layer, signature))


def is_shape(value):
    """True for one shape (a TensorShape, or a tuple/list of ints and Nones)."""
    if isinstance(value, TensorShape):
        return True
    return isinstance(value, (tuple, list)) and all(
        v is None or isinstance(v, int) for v in value)


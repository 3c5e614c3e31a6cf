"""Graphs built by tracing: operations in program order, symbolic tensors between them.

While a graph is being built (`context.building(graph)`), `dispatch` hands
every op to `Graph.create_op`, which infers the static shape and dtype of
its outputs with the op's registered rule and returns `SymbolicTensor`s.
Values from outside the graph become captures: eager tensors by value,
variables by reference (a later assignment is seen by the next run), and
tensors of an enclosing graph as placeholders fed by it.  A variable passed
as an argument of the traced function is reached through a stand-in
(`VariableArgument`) that each call binds to the variable it passes.

>>> g = Graph("f")
>>> x = g.placeholder(tf.float32, tf.TensorShape([None]), "x")
>>> x
<tf.Tensor 'x:0' shape=(None,) dtype=float32>
"""
import contextlib
import os
import re
import sys
import threading
import weakref

import numpy as np

from eagerflow._src.backend.devices import DeviceSpec
from eagerflow._src.core import context, errors, registry
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import variables as _variables
from eagerflow._src.core.node_forms import tf_node, tf_nodes
from eagerflow._src.core.registry import check_dtypes
from eagerflow._src.core.tensor import EagerTensor, Tensor
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.core.variables import ResourceHandle, Variable
from eagerflow._src.graph import node_def
from eagerflow._src.ops import random_ops

_PACKAGE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_FORBIDDEN_NAME = re.compile(r"[^A-Za-z0-9_.\-/>]")


class Operation(context.Operation):
    """One node of a graph (``tf.Operation``): an op, its inputs, attrs and outputs.

    `type` is the registered op's name (``Mul``) or a graph-only kind
    (``Placeholder``, ``Const``); `location` is the user's ``(file, line)``
    that created it, for error messages.
    """

    __slots__ = ("graph", "op_def", "type", "name", "inputs", "attrs", "_outputs", "location",
                 "value", "stateful", "device", "name_scope", "__weakref__")

    def __init__(self, graph, op_def, type_name, name, inputs, attrs, location, value=None):
        self.graph, self.op_def, self.type, self.name = graph, op_def, type_name, name
        self.inputs, self.attrs, self.location, self.value = inputs, attrs, location, value
        self.stateful = op_def is not None and op_def.stateful
        self.outputs = ()
        self.device = ""  # the device a `tf.device` block requested, as TF canonicalizes it
        self.name_scope = context.get().scope  # the scope it was made in (``a/b/``)

    @property
    def outputs(self):
        """The tensors this operation produces, a list (as TF's)."""
        return self._outputs

    @outputs.setter
    def outputs(self, tensors):
        self._outputs = list(tensors)

    def values(self):
        """Its outputs, as a tuple."""
        return tuple(self._outputs)

    @property
    def node_def(self):
        """This operation as TF's `NodeDef` proto: the node of the graph's `as_graph_def()`."""
        for node in self.graph.as_graph_def().node:
            if node.name == self.name:
                return node
        raise ValueError(f"Operation {self.name} has no NodeDef in its graph.")

    def get_attr(self, name):
        """The value of attr `name`: eagerflow's, else TF's form of the node's (``T``), or the
        gradient a `gradient_override_map` gave it (``_gradient_op_type``)."""
        if name in self.attrs:
            value = self.attrs[name]
            form = tf_nodes.get(self.op_def) if self.op_def is not None else None
            if form is not None and name in form.functions:  # TF's: a NameAttrList
                # (protobuf loads only when a program reads one)
                from eagerflow._src.core.protos import framework as pb  # noqa: PLC0415
                return (pb.NameAttrList(name=value) if isinstance(value, str)
                        else [pb.NameAttrList(name=v) for v in value])
            return value
        if name == "_gradient_op_type" and gradient_override(self) is not None:
            return gradient_override(self).encode()
        if self.op_def is not None:
            try:
                found = tf_node(self.op_def, self.name, self.inputs, self.attrs, self.outputs)[1]
            except (ValueError, TypeError):
                found = {}
            if found.get(name) is not None:
                return found[name]
        raise ValueError(f"Operation {self.name!r} has no attr named {name!r}.")

    @property
    def control_inputs(self):
        """The operations this one runs after besides its inputs' (`control_dependencies`)."""
        names = (getattr(self.graph, "control_inputs", None) or {}).get(self.name)
        if not names:
            return []
        ops = {op.name: op for op in self.graph._operations}
        return [ops[n] for n in names if n in ops]

    def __repr__(self):
        return f"<tf.Operation '{self.name}' type={self.type}>"

    def __str__(self):
        # (`print(op)` shows its NodeDef, as TF's does)
        try:
            return str(self.node_def)
        except ValueError:  # (no node of its own in the GraphDef)
            return repr(self)


class SymbolicTensor(Tensor):
    """A tensor of a graph being built: an operation's output with a static shape and dtype."""

    __slots__ = ("_op", "_index", "_shape", "_dtype", "__weakref__", "__dict__")

    def __init__(self, op, index, shape, dtype):
        self._op, self._index, self._shape, self._dtype = op, index, shape, dtype

    shape = property(lambda self: self._shape)
    dtype = property(lambda self: self._dtype)
    op = property(lambda self: self._op)
    graph = property(lambda self: self._op.graph)
    value_index = property(lambda self: self._index)
    device = property(lambda self: self._op.device)

    @property
    def name(self):
        return f"{self._op.name}:{self._index}"

    def consumers(self):
        """The operations of its graph that take this tensor as an input, in creation order."""
        return [op for op in self._op.graph.get_operations()
                if any(t is self for t in op.inputs)]

    def static_value(self, partial=False):
        """The value when constants alone determine it (static shapes count), else None.

        With `partial`, a value only partly known is an object array holding None
        where run time decides (``tf.get_static_value(t, partial=True)``): the
        shape ``[tf.shape(x)[0], 3]`` of an ``x`` of shape (None, 3) is
        ``array([None, 3], dtype=object)``.
        """
        found = _evaluate(self)
        if found is None or not (partial or found[1]):
            return None
        return found[0]

    def set_shape(self, shape):
        """Narrows the static shape (TF's ``Tensor.set_shape``)."""
        shape = TensorShape(shape)
        if not self._shape.is_compatible_with(shape):
            raise ValueError(f"Tensor's shape {self._shape} is not compatible with supplied "
                             f"shape {shape}.")
        self._shape = self._shape.merge_with(shape)

    def __bool__(self):
        raise _not_allowed("Using a symbolic `tf.Tensor` as a Python `bool`")

    def __iter__(self):
        raise _not_allowed("Iterating over a symbolic `tf.Tensor`")

    def __len__(self):
        raise TypeError(f"len is not well defined for a symbolic Tensor ({self.name}). Please "
                        f"call `x.shape` rather than `len(x)` for shape information.")

    def __array__(self, dtype=None, copy=None):
        raise NotImplementedError(
            f"Cannot convert a symbolic tf.Tensor ({self.name}) to a numpy array. This error "
            f"may indicate that you're trying to pass a Tensor to a NumPy call, which is not "
            f"supported.")

    def __index__(self):
        raise TypeError(f"A symbolic tensor ({self.name}) has no integer value while a graph "
                        f"is being built.")

    @property
    def numpy(self):
        # raised on access, so that hasattr(x, "numpy") is False, as for TF's graph tensors
        raise AttributeError(f"'SymbolicTensor' object has no attribute 'numpy': {self.name} "
                             f"has no value while its graph is being built (`numpy()` is only "
                             f"available on eager tensors). "
                             f"Return the tensor from the function, or use tf.print.")

    def __repr__(self):
        return f"<tf.Tensor '{self.name}' shape={self._shape} dtype={self._dtype.name}>"

    def __str__(self):
        # (TF leaves out the shape when even the rank is unknown)
        shape = "" if self._shape.rank is None else f", shape={self._shape}"
        return f'Tensor("{self.name}"{shape}, dtype={self._dtype.name})'


def _not_allowed(what):
    """TF's error for Python using a graph tensor's value (the traceback shows where)."""
    return errors.OperatorNotAllowedInGraphError(
        f"{what} is not allowed. You can attempt the following resolutions to the problem: "
        f"If you are running in Graph mode, use Eager execution mode or decorate this function "
        f"with @tf.function. If you are using AutoGraph, you can try decorating this function "
        f"with @tf.function. If that does not work, then you may be using an unsupported "
        f"feature or your source code may not be visible to AutoGraph. See https://github.com/"
        f"tensorflow/tensorflow/blob/master/tensorflow/python/autograph/g3doc/reference/"
        f"limitations.md#access-to-source-code for more information.")


class Graph:
    """A graph of `Operation`s in the order they were created (``tf.Graph``/``FuncGraph``).

    `captures` maps what the graph closed over to its inner placeholders:
    ``(external, internal)`` pairs, in capture order.
    """

    tensor_type = SymbolicTensor  # the class of the outputs of its operations
    lifts_eager_ops = False  # whether ops on its tensors run outside it join it (see dispatch)
    building_function = True  # (a TF 1 graph is not a function's)
    control_flow_body = False  # (a branch's or a loop's: see `control_flow`)

    seed_used = False  # (whether a random op took its seed from the graph's, given none)

    @property
    def seed(self):
        """The graph-level random seed (or None): its random ops' seeds come from it."""
        return self._seed

    @seed.setter
    def seed(self, seed):
        self._seed = seed

    unique_scopes = True  # (`name_scope` blocks of one name get unique names: ``b``, ``b_1``)
    finalized = False

    def __init__(self, name="graph"):
        self.name = name
        self._operations = []
        self._names = {}
        self._captures = {}         # id(external) -> (external, internal placeholder or var)
        self._unnamed = {}          # id(op) -> op: Consts converted from values, not yet used
        self.inputs = []            # placeholders of the arguments, then of the captures
        self.outputs = []
        self.variables = []         # variables created while building (in init_scope)
        # The function library: name -> `function_library.FunctionBody` of every function
        # its ops (If, While, ...) name, those the functions' own ops name included.
        self.functions = {}
        # Variables passed as arguments, by their handle's id (an assignment's result shares
        # it), and their stand-ins -> the stand-in.  The graphs of control flow built inside
        # share the mapping (a branch reads the stand-in).
        outer = context.get().graph
        # (weakly: a function's graph must not keep the graph of its caller's trace alive)
        self._outer = None if outer is None else weakref.ref(outer)
        self.variable_arguments = getattr(outer, "variable_arguments", None) or {}
        self.variable_inputs = []   # this graph's own stand-ins, in the order they were made
        self._collections = _inherited_collections(outer)
        self.control_inputs = {}    # op name -> names of the ops it runs after
        self.version = 0            # (one more with each op added)
        # the graph-level random seed: the enclosing graph's, else the global one
        self._seed = outer.seed if outer is not None else random_ops.global_seed()
        self._control_stack = []    # the `control_dependencies` blocks entered

    @property
    def outer_graph(self):
        """The graph this one was built in (``FuncGraph.outer_graph``): the graph of the
        function, branch or TF 1 graph being built then, else (eagerly) the global graph;
        the global graph too once the one it was built in is gone."""
        found = self._outer() if self._outer is not None else None
        return found if found is not None else global_graph()

    def _built_in(self, graph):
        """Whether this graph is `graph` or was built inside it (at any depth)."""
        inner = self
        while inner is not None:
            if inner is graph:
                return True
            inner = inner._outer() if inner._outer is not None else None
        return False

    # -- inspection --------------------------------------------------------------
    def get_operations(self):
        """The operations, in the order they were created."""
        return list(self._operations)

    def _find(self, name):
        for op in self._operations:
            if op.name == name:
                return op
        return None

    def _variable_named(self, name):
        """A variable the graph holds by name outside its operations (a TF 1 graph's), or
        None."""
        return None

    def get_operation_by_name(self, name):
        """The operation named `name`; TF's errors for a name it lacks or a tensor's."""
        if not isinstance(name, str):
            raise TypeError(f"Operation names are strings (or similar), not "
                            f"{type(name).__name__}.")
        if ":" in name:
            raise ValueError(f"Name {name!r} appears to refer to a Tensor, not a Operation.")
        op = self._find(name)
        if op is None:
            variable = self._variable_named(name + ":0")
            op = getattr(variable, "op", None)
            if op is None:
                raise KeyError(f"The name {name!r} refers to an Operation not in the graph.")
        return op

    def get_tensor_by_name(self, name):
        """The tensor named `name` (``"op:index"``); TF's errors for a name it lacks or an
        operation's."""
        if not isinstance(name, str):
            raise TypeError(f"Tensor names are strings (or similar), not {type(name).__name__}.")
        if ":" not in name:
            if self._find(name) is None:
                raise ValueError(f"The name {name!r} looks like an (invalid) Operation name, "
                                 f"not a Tensor. Tensor names must be of the form "
                                 f"\"<op_name>:<output_index>\".")
            raise ValueError(f"The name {name!r} refers to an Operation, not a Tensor. Tensor "
                             f"names must be of the form \"<op_name>:<output_index>\".")
        op_name, _, index = name.partition(":")
        op = self._find(op_name)
        if op is None:
            variable = self._variable_named(name)
            if variable is not None:
                return variable
            raise KeyError(f"The name {name!r} refers to a Tensor which does not exist. The "
                           f"operation, {op_name!r}, does not exist in the graph.")
        if int(index) >= len(op.outputs):
            raise KeyError(f"The name {name!r} refers to a Tensor which does not exist. The "
                           f"operation, {op_name!r}, exists but only has {len(op.outputs)} "
                           f"outputs.")
        return op.outputs[int(index)]

    def as_graph_element(self, obj, allow_tensor=True, allow_operation=True):
        """The tensor (``"x:0"``) or operation (``"x"``) named `obj`, or `obj` itself when it
        is one of this graph's; TF's errors for names it lacks."""
        if isinstance(obj, str):
            if ":" in obj and allow_tensor or not allow_operation:
                return self.get_tensor_by_name(obj)
            return self.get_operation_by_name(obj)
        if getattr(obj, "graph", None) is not self:
            raise ValueError(f"{obj!r} is not an element of this graph.")
        return obj

    def as_graph_def(self, add_shapes=False):
        """This graph as TensorFlow's `GraphDef` protobuf (see `graph_def.graph_to_graph_def`);
        `add_shapes` gives each node an ``_output_shapes`` attr."""
        from eagerflow._src.graph import graph_def  # noqa: PLC0415 (protobuf when asked)
        return graph_def.graph_to_graph_def(self, add_shapes=add_shapes)

    @property
    def captures(self):
        return list(self._captures.values())

    @property
    def structured_input_signature(self):
        """``(args, kwargs)`` of the call traced into this graph, as its concrete function
        gives them (``FuncGraph.structured_input_signature``): a function's graph only."""
        traced = self.__dict__.get("_traced_by")
        concrete = traced() if traced is not None else None
        if concrete is None:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute "
                                 f"'structured_input_signature'")
        return concrete.structured_input_signature

    @property
    def external_captures(self):
        """What the graph closed over, in capture order: tensors, variables by their handles
        (``FuncGraph.external_captures``)."""
        return [external.handle if isinstance(external, Variable) else external
                for external, _ in self._captures.values()]

    @property
    def internal_captures(self):
        """What stands for each capture inside, in capture order: the placeholder of an
        outer tensor, the constant holding an eager tensor, and for a variable (which the
        ops here take itself) a placeholder of dtype resource (``FuncGraph.internal_captures``)."""
        return [self.resource_input(external) if isinstance(external, Variable) else internal
                for external, internal in self._captures.values()]

    def resource_input(self, variable):
        """A placeholder of dtype resource standing for `variable`'s handle, as TF lists it,
        named after the first op taking the variable (``ReadVariableOp/resource``); not an
        operation of the graph (its ops take the variable itself)."""
        made = self.__dict__.setdefault("_resource_inputs", {})
        found = made.get(id(variable._handle))
        if found is None:
            name = variable.__dict__.get("_argument_name")  # a variable argument's
            if name is None:
                consumer = next((op.name for op in self._operations
                                 if any(t is variable for t in op.inputs)),
                                variable.name.split(":")[0])
                name = f"{consumer}/resource"
            op = Operation(self, None, "Placeholder", name, (),
                           {"dtype": _d.resource, "shape": TensorShape([])}, None)
            op.outputs = (self.tensor_type(op, 0, TensorShape([]), _d.resource),)
            found = made[id(variable._handle)] = op.outputs[0]
        return found

    def as_default(self):
        """Builds ops into this graph inside the block."""
        return context.building(self)

    # -- building ----------------------------------------------------------------
    def unique_name(self, name, mark_as_used=True):
        """`name` in the current name scope, made unique in this graph as TF does (``mul_1``);
        a name ending in ``/`` (a name scope's, ``name=scope``) names the op as it is. Unless
        `mark_as_used`, the name is not taken (the next call gives it again)."""
        if name.endswith("/"):
            return _FORBIDDEN_NAME.sub("_", name[:-1])
        return self._unique(_FORBIDDEN_NAME.sub("_", context.scoped_name(name)).rstrip("/"),
                            mark_as_used)

    def _unique(self, name, mark=True):
        """`name` (already scoped) made unique in this graph; names differing in case clash."""
        base, n = name, self._names.get(name.lower(), 0)
        count = n + 1
        if n:
            name = f"{base}_{n}"
            while name.lower() in self._names:
                n += 1
                name = f"{base}_{n}"
        if mark:
            self._names[base.lower()] = count
            if name is not base:
                self._names[name.lower()] = 1
        return name

    def _release(self, name):
        """Frees `name`, the last one `_unique` gave of its base (a converted operand's
        ``Const`` renamed after its op), so the next ``Const`` is named as in TF."""
        base, _, index = name.rpartition("_")
        key = name.lower()
        if index.isdigit() and base and self._names.get(base.lower()) == int(index) + 1 \
                and self._names.get(key) == 1:
            self._names[base.lower()] = int(index)
            del self._names[key]
        elif self._names.get(key) == 1:
            del self._names[key]

    def _add(self, op_def, type_name, name, inputs, attrs, specs, value=None):
        """Appends an operation named `name` (unique, scoped) with outputs of `specs`."""
        op = Operation(self, op_def, type_name, name, inputs, attrs, _user_location(), value)
        spec = context.get().device_spec
        if spec:
            op.device = DeviceSpec.from_string(spec).to_string()
        op.outputs = tuple(self.tensor_type(op, i, shape, dtype)
                           for i, (shape, dtype) in enumerate(specs))
        self._operations.append(op)
        self.version += 1
        if self._control_stack:
            self._add_control_inputs(op)
        return op

    def _add_control_inputs(self, op):
        """Makes `op` run after the ops of the `control_dependencies` blocks entered, but
        those it takes an input of."""
        data = {id(getattr(t, "op", None)) for t in op.inputs}
        names = []
        for block in self._control_stack:
            for dep in block:
                if id(dep) not in data and dep.name not in names:
                    names.append(dep.name)
        if names:
            self.control_inputs[op.name] = names

    def placeholder(self, dtype, shape, name="Placeholder"):
        """A graph input of `dtype` and `shape` (an argument of the traced function)."""
        op = self._add(None, "Placeholder", self.unique_name(name), (),
                       {"dtype": dtype, "shape": shape}, [(TensorShape(shape), dtype)])
        self.inputs.append(op.outputs[0])
        return op.outputs[0]

    def constant(self, array, name=None):
        """A ``Const`` node holding `array` (what `constant` gives while tracing).

        Unless `name` (scoped and unique) is given, it is ``Const`` until a
        binary op first uses it, which names it as TensorFlow names a converted
        operand: ``x * 2.0`` makes ``mul/y`` and ``mul``.
        """
        dtype = _d.from_numpy(array.dtype)
        op = self._add(None, "Const", name or self.unique_name("Const"), (), {"dtype": dtype},
                       [(TensorShape(array.shape), dtype)], value=array)
        if name is None:
            self._unnamed[id(op)] = op
        return op.outputs[0]

    def name_constant(self, tensor, name):
        """`tensor`, when a ``Const`` of `constant` not yet named, named `name` (scoped and
        unique), as TF names a value converted under a name (``convert_to_tensor(x,
        name="c")``); other tensors as they are."""
        op = getattr(tensor, "op", None)
        if op is not None and self._unnamed.pop(id(op), None) is not None:
            self._release(op.name)
            self._rename(op, self.unique_name(name))
        return tensor

    def _rename(self, op, name):
        """Names `op` `name`; the control inputs it was given (kept by its name) go with
        it, not to the next op that takes its old name."""
        old, op.name = op.name, name
        if old in self.control_inputs:
            self.control_inputs[name] = self.control_inputs.pop(old)

    def variable_argument(self, variable, shape):
        """The stand-in through which this graph reaches `variable`, an argument (of `shape`)
        of the function it traces: made once, it reaches the variable of each call."""
        arguments = self.variable_arguments
        found = arguments.get(id(variable._handle))
        if found is None or found.graph is not self:
            found = VariableArgument(variable, self, shape)
            arguments[id(variable._handle)] = arguments[id(found._handle)] = found
            self.variable_inputs.append(found)
        return found

    def capture(self, value):
        """The inner stand-in for `value` from outside the graph (captured once)."""
        if isinstance(value, Variable):
            value = self.variable_arguments.get(id(value._handle), value)
            if isinstance(value, VariableArgument) and value.graph is self:
                return value  # an argument, not a capture
            key = id(value)
            if key not in self._captures:
                self._captures[key] = (value, value)  # by reference: read at every run
            return value
        if isinstance(value, SymbolicTensor) and value.graph is self:
            return value
        found = self._captures.get(id(value))
        if found is not None:
            return found[1]
        if isinstance(value, EagerTensor):
            # By value: a Const holding the array, which the passes may fold (a variant's or
            # a resource's value, such as a dataset or a table, is held as it is: by
            # reference).
            data = value._data
            inner = self.constant(data if not value.dtype.is_numpy_compatible
                                  else np.asarray(data))
        else:  # a tensor of an enclosing graph, fed to this one when it runs inside it
            self._check_accessible(value)
            inner = self.placeholder(value.dtype, value.shape, "Placeholder")
            self.inputs.pop()  # not an argument (`remove` would compare tensors with ==)
        self._captures[id(value)] = (value, inner)
        return inner

    def _check_accessible(self, t):
        """TF's InaccessibleTensorError for a tensor of a graph built inside this one (a
        branch's or loop body's, kept in a Python variable): it has no value here."""
        inner = getattr(t, "graph", None)
        if inner is not None and inner._built_in(self):
            raise errors.InaccessibleTensorError(
                f"{t!r} is out of scope and cannot be used here. Use return values, "
                f"explicit Python locals or TensorFlow collections to access it.\nPlease "
                f"see https://www.tensorflow.org/guide/function#all_outputs_of_a_tffunction"
                f"_must_be_return_values for more information.\n\nThe tensor {t!r} cannot "
                f"be accessed from FuncGraph(name={self.name}, id={id(self)}), because it "
                f"was defined in FuncGraph(name={t.graph.name}, id={id(t.graph)}), which "
                f"is out of scope.")

    def create_op(self, op_def, inputs, attrs, name=None):
        """Adds `op_def` applied to `inputs`; returns its symbolic output(s), as `dispatch` does.

        The op is named `name` (operators pass theirs: ``mul``), else after its
        type; see `constant` for the names of its converted operands.
        """
        # (TF's wrapper opened a scope of the op's name: the op was made in it)
        own_scope = isinstance(name, errors.ScopeName) or name is not None and name.endswith("/")
        if not own_scope:
            context.check_scope_name(name)
        # (after its type less a leading "_": TF's node names cannot start with one)
        name = self.unique_name(name or op_def.name.lstrip("_"))
        inputs = tuple(self.capture(t) for t in inputs)
        for i, t in enumerate(inputs):
            fresh = self._unnamed.pop(id(t.op), None) if isinstance(t, SymbolicTensor) else None
            if fresh is not None and op_def.tied_pair and len(inputs) == 2:  # `x * 2.0`
                self._release(fresh.name)
                self._rename(fresh, self._unique(f"{name}/{'xy'[i]}"))
        if op_def.tied:
            check_dtypes(op_def, [np.dtype(t.dtype.as_numpy_dtype)
                                  for t in op_def.listed(inputs, attrs)], True)
        try:
            specs = op_def.shape(*inputs, **attrs)
        except ValueError as e:  # TF's text names the node, which only the graph knows
            rule = getattr(e, "shape_rule", None)
            if rule is None:
                raise
            sentence, detail = rule
            raise ValueError(f"{sentence} for '{node_def.node_text(name, op_def, inputs, attrs)}'"
                             f" with input shapes: {detail}.") from None
        except errors.InvalidArgumentError as e:
            # A rule that rejects static shapes or attrs: TF reports it while the graph is
            # built, as a ValueError naming the node, rather than when the graph runs.
            sentence = errors.bare_message(e.message)
            detail = ", ".join("?" if t.shape.rank is None else errors.shape_text(t.shape)
                               for t in inputs)
            raise ValueError(f"{sentence} for '{node_def.node_text(name, op_def, inputs, attrs)}'"
                             f" with input shapes: {detail}.") from None
        if not op_def.multi:
            specs = [specs]
        op = self._add(op_def, op_def.name, name, inputs, attrs, specs)
        if own_scope:
            op.name_scope = name + "/"
        overrides = self.__dict__.get("_gradient_overrides")
        if overrides and op_def.name in overrides:  # see `gradient_override_map`
            overridden_gradient(op, overrides[op_def.name])
        return op.outputs if op_def.multi else op.outputs[0]

    # -- the TF 1 API of a graph being built (``tf.compat.v1.get_default_graph()``) ----------
    def name_scope(self, name):
        """A name scope of the ops built in the block (see ``tf.name_scope``), made unique in
        this graph; while another context builds (eager code), one of the graph's own."""
        if context.get().graph is self:
            return self._building_name_scope(name)
        return self._own_name_scope(name)

    def _building_name_scope(self, name):
        return context.name_scope(name)

    @contextlib.contextmanager
    def _own_name_scope(self, name):
        saved = self.__dict__.get("_name_stack", "")
        if not name:
            scope = ""
        elif name.endswith("/"):
            scope = name
        else:
            scope = self._unique(saved + name) + "/"
        self._name_stack = scope
        try:
            yield scope
        finally:
            self._name_stack = saved

    def get_name_scope(self):
        """The name scope now open in this graph, without its trailing ``/``."""
        ctx = context.get()
        if ctx.graph is self:
            return ctx.scope.rstrip("/")
        return self.__dict__.get("_name_stack", "").rstrip("/")

    def device(self, device_name_or_function):
        """Places the ops built in the block on a device (see ``tf.device``)."""
        return context.device(device_name_or_function)

    @contextlib.contextmanager
    def control_dependencies(self, control_inputs):
        """Ops made in the block run after `control_inputs` (operations or tensors; in a
        function's graph, those of other graphs are left out); None clears the dependencies
        of enclosing blocks. (A function runs its stateful ops in program order anyway.)"""
        if control_inputs is None:
            saved, self._control_stack = self._control_stack, []
            try:
                yield
            finally:
                self._control_stack = saved
            return
        ops = []
        for c in control_inputs:
            if type(c) is context.Operation:  # a check done as the graph was built
                continue
            c = getattr(c, "op", c) if not isinstance(c, Operation) else c
            if hasattr(c, "_initializer_op") and not isinstance(c, Operation):
                c = c._initializer_op
            if self.building_function and getattr(c, "graph", None) is not self:
                continue  # (TF's function captures it instead)
            if not isinstance(c, Operation):
                raise TypeError(f"Control input must be Operation or Tensor: {c!r}")
            ops.append(c)
        self._control_stack.append(ops)
        try:
            yield
        finally:
            self._control_stack.pop()

    def is_fetchable(self, tensor_or_op):
        return True

    def add_to_collection(self, name, value):
        self._collections.setdefault(name, []).append(value)

    def add_to_collections(self, names, value):
        for name in ([names] if isinstance(names, str) else set(names)):
            self.add_to_collection(name, value)

    def get_collection_ref(self, name):
        """The list of collection `name` itself (made when missing)."""
        return self._collections.setdefault(name, [])

    def get_collection(self, name, scope=None):
        """A copy of collection `name`, only the items whose name starts with `scope`
        when given."""
        items = list(self._collections.get(name, ()))
        if scope is None:
            return items
        pattern = re.compile(scope)
        return [v for v in items if hasattr(v, "name") and pattern.match(v.name)]

    def get_all_collection_keys(self):
        return [k for k, v in self._collections.items() if v]

    def clear_collection(self, name):
        self._collections.pop(name, None)

    @contextlib.contextmanager
    def gradient_override_map(self, op_type_map):
        """Within it, ops of a type of `op_type_map` (op type -> name) are differentiated
        by the gradient registered under the name (``tf.RegisterGradient``)."""
        if not all(isinstance(k, str) and isinstance(v, str) for k, v in op_type_map.items()):
            raise TypeError("op_type_map must be a dictionary mapping strings to strings")
        saved = self.__dict__.get("_gradient_overrides") or {}
        self._gradient_overrides = {**saved, **op_type_map}
        try:
            yield
        finally:
            self._gradient_overrides = saved


def gradient_override(op):
    """The name of the gradient a `Graph.gradient_override_map` gave `op`, or None."""
    overrides = op.graph.__dict__.get("gradient_op_types")
    return None if not overrides else overrides.get(op)


def overridden_gradient(op, name):
    """Differentiates `op` by the gradient registered under `name` (as within
    `Graph.gradient_override_map`)."""
    op.graph.__dict__.setdefault("gradient_op_types", {})[op] = name


def keep_gradient_override(op, copy):
    """Gives `copy` (of `op`, in its own graph) the gradient a map gave `op`, if any."""
    override = gradient_override(op)
    if override is not None:
        overridden_gradient(copy, override)


# The collections a graph built inside another shares with it (as TF's FuncGraph does: the
# variables and the variable stores); it starts with a copy of the others.
_SHARED_COLLECTIONS = ("variables", "local_variables", "trainable_variables")
# () -> the global TF 1 graph (set by the TF 1 graph mode when loaded): the outer graph of
# a graph built eagerly
global_graph = lambda: None  # noqa: E731
# The collections of the global TF 1 graph, or None (set by the TF 1 graph mode when loaded):
# those a function traced eagerly starts from.
global_collections = None


def _inherited_collections(outer):
    source = getattr(outer, "_collections", None) if outer is not None else (
        global_collections() if global_collections is not None else None)
    if source is None:
        return {}
    for key in _SHARED_COLLECTIONS:
        source.setdefault(key, [])
    return {k: v if k in _SHARED_COLLECTIONS else list(v) for k, v in source.items()}


class _ForwardingHandle(ResourceHandle):
    """A handle that reads and writes the handle it is bound to (`target`).

    The binding is per thread: threads calling one concrete function with different
    variables each reach their own.
    """

    __slots__ = ("_traced", "_bound")

    def __init__(self, target):
        self._traced = target  # the variable seen while tracing, until a call binds another
        self._bound = threading.local()

    @property
    def target(self):
        return getattr(self._bound, "target", self._traced)

    @target.setter
    def target(self, handle):
        self._bound.target = handle

    @property
    def value(self):
        return self.target.value

    @value.setter
    def value(self, array):
        self.target.value = array


class VariableArgument(Variable):
    """A variable passed to a traced function, as the function's graph holds it.

    As in TF, a trace serves any variable of the same dtype, shape and
    trainability: its ops read and write the variable bound for the current
    call (`ConcreteFunction` binds it), not the one seen while tracing.
    """

    def __init__(self, variable, graph, shape):
        self.__dict__.update(variable.__dict__)
        self._shape = TensorShape(shape)
        self._handle = _ForwardingHandle(variable._handle)
        self._unique_id = next(_variables._creation_order)
        self.graph = graph


def _evaluate(tensor):
    """``(value, complete)`` of `tensor` as far as Const nodes and static shapes determine it.

    An incomplete value is an object array with None where run time decides;
    None when nothing is known. Ops with a `registry.static_value_rules` rule take
    their value from their input's static shape; ops that move elements
    (``moves_elements``), run on object arrays holding None for the elements only
    run time knows, say which elements of their output are known.
    """
    op = tensor.op
    if op.type == "Const":
        return op.value, True
    if tensor.__dict__.get("_fed_default"):
        return None  # (a default a run may feed another value for: a sparse placeholder's shape)
    if not tensor.dtype.is_numpy_compatible:
        return None  # a list (variant) has no array value
    if op.op_def is None or op.stateful or op.op_def.multi:
        return None
    value_of = registry.static_value_rules.get(op.op_def)
    if value_of is not None:
        found = value_of(op.inputs[0].shape)
        if found is None:
            return None
        value, complete = found
        return np.asarray(value, tensor.dtype.as_numpy_dtype if complete else object), complete
    moving = op.op_def.moves_elements
    # Only the elements moved may be unknown: every input of a variadic op (Pack, ConcatV2),
    # else input 0. The others say where they go (a slice's bounds, a gather's indices, a
    # shape), and a None there would read as a bound left out (``x[:None]``).
    moved = len(op.op_def.listed(op.inputs, op.attrs)) if op.op_def.variadic else 1
    args, complete = [], True
    for i, t in enumerate(op.inputs):
        found = _evaluate(t) if isinstance(t, SymbolicTensor) else None
        if found is None:
            if not (moving and i < moved and t.shape.is_fully_defined()):
                return None
            found = np.full(t.shape.as_list(), None, object), False  # elements to move
        elif i >= moved and not found[1]:
            return None
        args.append(found[0])
        complete = complete and found[1]
    if not complete and not moving:
        return None
    try:
        value = np.asarray(op.op_def.host_kernel(*args, **op.attrs))
    except Exception:  # noqa: BLE001 (then it is simply not known before run time)
        return None
    if not complete:
        unknown = sum(v is None for v in value.flat)
        if unknown == value.size and value.size:
            return None
        if not unknown:  # only the known parts were kept
            return value.astype(tensor.dtype.as_numpy_dtype), True
    return value, complete


def _user_location():
    """(file, line, stack) of the innermost caller outside this package, where the user
    made the op; `stack`: the ``(file, line, function)`` of every caller outside this
    package, outermost first (what TF's errors list as where the op was defined)."""
    frame = sys._getframe(2)
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        frame = frame.f_back
    if frame is None:
        return None
    stack, caller = [], frame
    while caller is not None:
        code = caller.f_code
        if not code.co_filename.startswith(_PACKAGE):
            stack.append((code.co_filename, caller.f_lineno, code.co_name))
        caller = caller.f_back
    stack.reverse()
    return frame.f_code.co_filename, frame.f_lineno, tuple(stack)

"""How each op is written as TF's NodeDef: TF's attrs and inputs, declared at its registration.

An op's graph node holds its inputs and eagerflow's attrs. TF's NodeDef of
the same op differs in regular ways, which a `NodeForm` declares as data:

* TF takes some of eagerflow's attrs as inputs (a `Reshape`'s static shape,
  a reduction's axes): `inputs` lists TF's inputs in TF's order, each the
  index of one of ours, ``"*"`` for all of a variadic op's, or an `AttrInput`
  naming the attr (written as a ``Const`` node ``<node>/<TF's input name>``);
* type attributes (``T``, ``Tidx``, ``SrcT``, ``dtype``) name the dtype of an
  input or output: `types` maps each to an input index, ``"out<i>"``, or
  ``"*<i>"`` (the list of the dtypes of the inputs from `i` on); by default
  ``<op.type_attr>`` is the dtype of the first input that is not a variable (none
  when the op takes one dtype only);
* `renamed` attrs (ours -> TF's), `fixed` attrs TF has that eagerflow's kernels
  never vary (``grad_a=False``), `implied` attrs eagerflow has and TF does not
  (TF's value is always the one given), `ignored` TF attrs eagerflow's kernels do
  not take, `number` attrs (``N``) counting a variadic op's inputs, and the
  `byte_attrs` eagerflow holds as bytes (TF's string attrs are read as text),
  `local` attrs eagerflow alone has (never written), `defaults` of attrs a
  GraphDef may leave out, and inputs to `cast` to the type attribute's dtype;
* `outputs`: TF's output argument names, as function bodies refer to outputs
  (``MatMul:product:0``), where TF's usual ``z``, ``y`` or ``output`` is not it,
  and `output_number`, an attr counting the outputs (``num_split``);
* `lower`: an op TF has no kernel for (a fused op of eagerflow's), written as
  the graph of its composite formulation: ``lower(inputs, attrs) -> outputs``
  builds it from ops on symbolic `inputs` of the node's shapes and dtypes (or
  raises ValueError saying why it cannot), and the writer puts that graph in
  the library, the node a ``PartitionedCall`` of it.

Two tables beside the forms declare what reading TF's form needs beyond them: `tf_args`,
TF's names of an op's inputs (as ``tf.raw_ops`` takes them), and `tf_defaults`, TF's
defaults of the attrs eagerflow's kernels need (a raw op's call and a GraphDef written
without its default-valued attrs leave them out).

Interpreters that write or read graphs (``graph.node_def``, ``graph.graph_def``)
look forms up in `tf_nodes`, a `registry.RuleTable` keyed by `OpDef`; an op with
no entry is written with its own attrs and ``T`` of its first input.

>>> tf_node(get("Reshape"), "r", [x], {"shape": (2, -1)})  # doctest: +SKIP
('Reshape', {'Tshape': tf.int32, 'T': tf.float32}, [('input', 0), ('const', 'r/shape')],
 [('r/shape', array([ 2, -1], dtype=int32))])
"""
import types

import numpy as np

from eagerflow._src.core import dtypes as _d
from eagerflow._src.core.registry import RuleTable
from eagerflow._src.core.registry import same_shape as _same_shape


_ABSENT = object()


class AttrInput:
    """One of eagerflow's attrs that TF takes as an input (of integers, unless `like`).

    `name`: TF's input name (by default the attr's); `type_attr`: the TF attr giving its
    dtype; `kind`: how eagerflow holds the value (`tuple` of ints, `int`, ``"scalar"``: a
    number, `bytes`: a string, or None: an int for a scalar, else a tuple); `runtime`: eagerflow's op also
    takes it as an input when no constant gives it (appended after its other inputs, or at
    index `at` counted from the end: -2, before the seed of a stateless random op);
    `everything`: the value None of the attr means every axis of input 0 (``"reversed"``:
    in reverse order); `like`: the input whose dtype the value has (a padding value);
    `default`: the value when eagerflow's node lacks the attr; `fixed`: eagerflow has no
    such attr, TF's input always has this value.
    """

    __slots__ = ("attr", "name", "type_attr", "kind", "runtime", "everything", "like",
                 "default", "fixed", "at")

    def __init__(self, attr, name=None, type_attr="Tidx", kind=tuple, runtime=False,
                 everything=False, like=None, default=_ABSENT, fixed=_ABSENT, at=-1):
        self.attr, self.name, self.type_attr = attr, name or attr, type_attr
        self.at = at
        self.kind, self.runtime, self.everything = kind, runtime, everything
        self.like, self.fixed = like, fixed
        self.default = fixed if fixed is not _ABSENT else default

    def to_array(self, value, first, dtype=None):
        """TF's input for the attr's `value` (`first`: op's input 0, for `everything`), of
        `dtype` where another input fixes it, else int32 when the values fit."""
        if value is None and self.everything:
            if first.shape.rank is None:
                raise ValueError(f"an input of unknown rank reduced over all axes ({self.name})")
            value = tuple(range(first.shape.rank))
            if self.everything == "reversed":  # ReduceJoin joins the last axis first
                value = value[::-1]
        if value is None or isinstance(value, (tuple, list)) and None in value:
            raise ValueError(f"'{self.attr}' is known only at run time")
        if self.kind is bytes:  # a string
            return np.array(value, dtype=object)
        array = np.asarray(value)
        if array.dtype.kind not in "fc" or dtype is None:
            array = array.astype(np.int64)
        if self.kind is int and array.ndim:
            array = array.reshape(-1)[0]
        if dtype is not None:
            return array.astype(dtype.as_numpy_dtype)
        fits = array.size == 0 or (array.min() >= -2**31 and array.max() < 2**31)
        return array.astype(np.int32 if fits else np.int64)

    def from_array(self, array):
        """The attr's value for TF's constant input `array`."""
        array = np.asarray(array)
        if self.kind is bytes:
            value = array.reshape(-1)[0]
            return value.encode() if isinstance(value, str) else bytes(value)
        if self.kind == "scalar":
            return array.reshape(-1)[0].item()
        if self.kind is int or self.kind is None and array.ndim == 0:
            return int(array.reshape(-1)[0])
        if array.ndim > 1:  # paddings: a pair per dim
            return tuple(tuple(int(v) for v in row) for row in array.reshape(len(array), -1))
        return tuple(int(v) for v in array.reshape(-1))


class ExtraInputs(ValueError):
    """Raised by a `NodeForm.rewrite`: the node takes tensors beyond its first `own`
    inputs, which TF's op has no inputs for (a dataset op fed the graph's tensors its
    dataset is built from). A function's GraphDef refuses the node; a TF 1 graph's, which
    holds its datasets as placeholders anyway, writes it with its own inputs only."""

    def __init__(self, own, message):
        super().__init__(message)
        self.own = own


class NodeForm:
    """TF's NodeDef form of one op (see the module docstring)."""

    __slots__ = ("op_type", "inputs", "types", "renamed", "fixed", "implied", "ignored",
                 "number", "outputs", "output_number", "byte_attrs", "local", "defaults",
                 "cast", "keep", "rewrite", "functions", "lower")

    def __init__(self, *, op_type=None, inputs=None, types=None, renamed=None, fixed=None,
                 implied=None, ignored=(), number=None, outputs=None, output_number=None,
                 byte_attrs=(), local=None, defaults=None, cast=(), keep=(), rewrite=None,
                 functions=(), lower=None):
        self.op_type = op_type  # TF's op name where it is not the registered one
        self.inputs = None if inputs is None else tuple(inputs)
        self.types = types
        self.renamed = dict(renamed or {})
        self.fixed = dict(fixed or {})
        self.implied = dict(implied or {})
        self.ignored = frozenset(ignored)
        self.number = number
        # TF's output argument names, as function bodies refer to outputs (``values``,
        # ``indices``), where a name per output (or TF's usual one for all) is not enough
        self.outputs = outputs
        self.output_number = output_number  # an attr counting the outputs (``num_split``)
        self.byte_attrs = frozenset(byte_attrs)  # string attrs eagerflow holds as bytes
        # attrs of eagerflow's alone (message text, a random op's stream), never written; read
        # as these values (a callable makes one per node)
        self.local = dict(local or {})
        # values of attrs a GraphDef may leave out (eagerflow's None is not written)
        self.defaults = dict(defaults or {})
        # inputs TF types by `T` that eagerflow takes in another float dtype: cast for TF
        self.cast = frozenset(cast)
        # attrs named with TF's leading underscore that the op reads (others are TF's notes)
        self.keep = frozenset(keep)
        # ``rewrite(attrs, inputs) -> attrs``: TF's attrs where no data says it (a While's
        # captured values passed through its body as loop variables); or ``(attrs, extra)``,
        # `extra` a list of ``(input name, array)`` written as ``Const`` inputs after the
        # op's (a limited While's iteration counter)
        self.rewrite = rewrite
        # attrs naming functions of a library (``then_branch``, ``body``, ``f``)
        self.functions = frozenset(functions)
        # ``lower(inputs, attrs) -> outputs``: the op as ops TF has (see the module docstring)
        self.lower = lower

    def attr_inputs(self):
        return [spec for spec in self.inputs or () if isinstance(spec, AttrInput)]


_DEFAULT = NodeForm()


# The TF NodeDef form of each op that differs from the default (its own attrs, ``T`` of its
# first input): every op has one.
tf_nodes = RuleTable("TF NodeDef form", default=lambda op: True)


# TF's names of each op's inputs, as ``tf.raw_ops`` takes them as keyword arguments, in
# TF's order (TF's inputs of the op's form: an `AttrInput` is one): ``tf_args[op] = ("a",
# "b")``, a name starting with ``*`` for a list of tensors (``("*values", "axis")``), or
# None for an op of eagerflow's own that TF lacks, or one that takes other inputs than TF's
# op of its name (a Python object where TF takes a resource or variant). `arg_names` gives
# the default of the others: ``x`` and ``y`` for two tied inputs, ``x`` for an op shaped
# like its one input, ``*values`` for a variadic op, else ``input``; an `AttrInput` its own
# name.
# The ops whose first input is a lookup table's resource, whose node in a GraphDef does not
# say what the table holds: reading one, their shape rules size their outputs.
table_ops = set()

tf_args = RuleTable("TF argument names", default=lambda op: True)


# TF's default values of the attrs of each op that eagerflow's kernels take without one:
# ``tf_defaults[op] = {"out_idx": int32}`` (eagerflow's attr names), or a function
# ``(inputs, attrs) -> value`` for an attr TF infers from the inputs (an If's ``Tcond``). A
# raw op's call and a GraphDef written without its default-valued attrs leave them out.
tf_defaults = RuleTable("TF attr defaults", default=lambda op: True)


def input_dtype(i):
    """A `tf_defaults` function: the dtype of input `i` (an If's ``Tcond``)."""
    return lambda inputs, attrs: _dtype_of(inputs[i])


def input_dtypes(first=0):
    """A `tf_defaults` function: the dtypes of the inputs from `first` on (``Tin``)."""
    return lambda inputs, attrs: tuple(_dtype_of(t) for t in inputs[first:])


def arg_names(op_def):
    """TF's input argument names of `op_def` (see `tf_args`), or None if TF has no such op."""
    if op_def in tf_args:
        names = tf_args.get(op_def)
        return None if names is None else tuple(names)
    form = tf_nodes.get(op_def, _DEFAULT)
    if form.inputs is None:
        specs = ["*"] if op_def.variadic else [0, 1] if op_def.tied_pair else [0]
    else:
        specs = form.inputs
    ours = [s for s in specs if isinstance(s, int)]
    plain = iter(("x", "y") if len(ours) == 2 else ("x",) if len(ours) == 1 and (
        op_def.elementwise or op_def.shape is _same_shape) else ("input",) * len(ours))
    return tuple("*values" if s == "*" else next(plain) if isinstance(s, int) else s.name
                 for s in specs)


def _dtype_of(t):
    """An input's dtype in TF's graph: a variable is its resource handle."""
    return _d.resource if getattr(t, "_handle", None) is not None else t.dtype


def tf_node(op_def, node_name, inputs, attrs, outputs=None):
    """TF's form of a node: ``(op type, attrs, inputs, constants)``.

    `inputs` are the node's inputs (objects with ``.dtype`` and ``.shape``), `outputs`
    its output specs (objects with ``.dtype``) where known. TF's inputs are returned as
    ``(kind, value)``: ``("input", i)`` for our input `i`, ``("const", name)`` for one of
    the `constants`, a list of ``(name, array)`` to write as ``Const`` nodes, and
    ``("cast", (i, dtype))`` for our input `i` cast to `dtype` by a ``Cast`` node.
    """
    form = tf_nodes.get(op_def, _DEFAULT)
    extra = ()
    if form.rewrite is not None:
        attrs = form.rewrite(attrs, inputs)
        if isinstance(attrs, tuple):
            attrs, extra = attrs
    for k, v in form.implied.items():
        if k in attrs and attrs[k] != v:
            raise ValueError(f"TensorFlow's {op_def.name} has no attr {k} (it is always {v})")
    tf_attrs = {form.renamed.get(k, k): v for k, v in attrs.items()
                if k not in form.implied and k not in form.local
                and not _is_attr_input(form, k)}
    tf_attrs.update(form.fixed)
    order = list(range(len(inputs)))  # our index of each input, run-time attr inputs last
    for spec in form.attr_inputs():
        if spec.runtime and spec.at != -1 and spec.attr not in attrs and len(inputs) >= -spec.at:
            order.append(order.pop(len(inputs) + spec.at))
    types = _types(op_def, form, inputs) if inputs else {}
    for attr, where in types.items():
        if attr in tf_attrs:  # the op holds it already, as TF does (a While's T)
            continue
        if where.startswith("*") if isinstance(where, str) else False:  # "*<i>": a list
            tf_attrs[attr] = tuple(_dtype_of(t) for t in inputs[int(where[1:] or 0):])
        elif isinstance(where, str):  # "out<i>"
            if outputs is not None:
                tf_attrs[attr] = outputs[int(where[3:])].dtype
        elif where < len(inputs):
            tf_attrs[attr] = _dtype_of(inputs[order[where]])
    if form.output_number and outputs is not None:
        tf_attrs[form.output_number] = len(outputs)
    tf_inputs, constants = [], []
    specs = form.inputs
    if specs is None:
        tf_inputs = [("input", i) for i in range(len(inputs))]
    else:
        absent = [s for s in form.attr_inputs()
                  if s.attr not in attrs and s.default is _ABSENT]
        ordinary = len(inputs) - len(absent)
        extra = iter(range(ordinary, len(inputs)))
        for spec in specs:
            if spec == "*":
                tf_inputs += [("input", i) for i in range(ordinary)]
            elif isinstance(spec, int):
                tf_inputs.append(("input", order[spec]))
            elif spec.attr in attrs or spec.default is not _ABSENT:
                dtype = tf_attrs.get(spec.type_attr) if spec.type_attr else None
                if spec.like is not None:
                    dtype = _dtype_of(inputs[spec.like])
                array = spec.to_array(attrs.get(spec.attr, spec.default),
                                      inputs[0] if inputs else None, dtype)
                const = f"{node_name}/{spec.name}"
                constants.append((const, array))
                tf_inputs.append(("const", const))
                if spec.type_attr:
                    tf_attrs[spec.type_attr] = _d.from_numpy(array.dtype)
            else:
                if not spec.runtime:
                    raise ValueError(f"'{spec.attr}' is known only at run time")
                i = order[next(extra)]
                tf_inputs.append(("input", i))
                if spec.type_attr:
                    tf_attrs[spec.type_attr] = _dtype_of(inputs[i])
    if form.number:
        tf_attrs[form.number] = len(inputs) if specs is None else ordinary
    for name, array in extra:
        constants.append((f"{node_name}/{name}", array))
        tf_inputs.append(("const", constants[-1][0]))
    target = tf_attrs.get(op_def.type_attr)
    for j, (kind, i) in enumerate(tf_inputs):
        if kind == "input" and i in form.cast and _dtype_of(inputs[i]) != target:
            tf_inputs[j] = ("cast", (i, target))
    return form.op_type or op_def.name, tf_attrs, tf_inputs, constants


def _types(op_def, form, inputs):
    """TF's type attributes of `op_def`'s node: the form's, else ``T`` (`op_def.type_attr`)
    of its first input that is not a variable (an optimizer's update takes the variables
    first) unless the op takes one dtype only (TF's input then has a fixed type)."""
    if form.types is not None:
        return form.types
    if op_def.declared is not None and len(op_def.declared) == 1:
        return {}
    first = next((i for i, t in enumerate(inputs) if getattr(t, "_handle", None) is None), 0)
    return {op_def.type_attr: first}


def _is_attr_input(form, attr):
    return any(s.attr == attr for s in form.attr_inputs())


def from_tf_node(op_def, tf_attrs, tf_inputs):
    """eagerflow's attrs and inputs of a node written in TF's form: the inverse of `tf_node`.

    `tf_attrs` are TF's attrs as Python values; `tf_inputs` TF's inputs, each a pair
    ``(tensor, constant array or None)``. Returns ``(attrs, inputs)``, or raises
    ValueError naming what eagerflow cannot take (an attr input known only at run time).
    """
    form = tf_nodes.get(op_def, _DEFAULT)
    back = {v: k for k, v in form.renamed.items()}
    dropped = set(form.fixed) | form.ignored | {form.number, form.output_number}
    dropped |= set(_types(op_def, form, ()))
    attrs = {}
    for k, v in tf_attrs.items():
        if k not in form.keep and (k.startswith("_") or k in dropped):
            continue
        k = back.get(k, k)
        if k in form.byte_attrs:
            v = v.encode() if isinstance(v, str) else tuple(
                e.encode() if isinstance(e, str) else e for e in v) if isinstance(v, tuple) else v
        attrs[k] = v
    attrs.update(form.implied)
    attrs.update({k: v() if callable(v) else v for k, v in form.local.items()})
    for k, v in form.defaults.items():
        attrs.setdefault(k, v)
    if form.inputs is None:
        return _tf_defaults(op_def, attrs, [t for t, _ in tf_inputs])
    inputs, extra = [], []  # (our index, tensor) pairs; run-time attr inputs
    specs = form.inputs
    star = len(tf_inputs) - (len(specs) - 1) if "*" in specs else 0
    position = 0
    for spec in specs:
        if spec == "*":
            inputs += enumerate(t for t, _ in tf_inputs[position:position + star])
            position += star
            continue
        t, value = tf_inputs[position]
        position += 1
        if isinstance(spec, int):
            inputs.append((spec, t))
            continue
        attrs.pop(spec.type_attr, None)
        if spec.fixed is not _ABSENT:
            if value is None or np.any(np.asarray(value) != spec.fixed):
                raise ValueError(f"input '{spec.name}' of {op_def.name} must be {spec.fixed}")
        elif value is not None:
            attrs[spec.attr] = spec.from_array(value)
        elif spec.runtime:
            extra.append((spec.at, t))
        else:
            raise ValueError(f"input '{spec.name}' of {op_def.name} must be a constant")
    inputs = [t for _, t in sorted(inputs, key=lambda pair: pair[0])]
    for at, t in extra:
        inputs.insert(len(inputs) + 1 + at, t)
    return _tf_defaults(op_def, attrs, inputs)


def _tf_defaults(op_def, attrs, inputs):
    """``(attrs, inputs)`` with TF's defaults of the attrs left out (see `tf_defaults`)."""
    for k, v in (tf_defaults.get(op_def) or {}).items():
        if isinstance(v, types.FunctionType):
            if not attrs.get(k):  # (TF's empty list of an inferred attr: not given)
                attrs[k] = v(inputs, attrs)
        elif k not in attrs:
            attrs[k] = v
    return attrs, inputs

"""The op registry: every op defined once, kernel, shape rule and gradient side by side.

An op is registered with

* ``name``: TensorFlow's op name where one exists (``AddV2``, ``MatMul``);
* ``kernel(xp, *arrays, **attrs)``: computes the outputs with the array module
  ``xp`` (NumPy or CuPy) and returns one array, or a tuple for multi-output ops;
  a string names a function of ``xp`` (``"add"``), called without a wrapper.
  A kernel may offer NumPy functions that compute it for some input dtypes
  directly, with ``kernel.direct(dtype)`` returning one or None (see `OpDef.direct`);
* ``shape(*inputs, **attrs)``: the static rule, given objects with ``.shape``
  (`TensorShape`, dims may be None) and ``.dtype``, returning ``(shape, dtype)``
  or a list of them;
* a type constraint: the inputs at ``tied`` share one dtype, drawn from
  ``dtypes`` (TensorFlow's type attribute ``T``), of which ``kernels`` (all by
  default) are computed: TF declares some dtypes for which it has no CPU kernel;
* the gradient slot, ``grad(op, *output_grads)``, filled by the autodiff layer
  with `register_gradient`, or a reason why the op is not differentiable;
* its properties, as keyword arguments of `register` (see there): ``elementwise``,
  ``reduction``, ``fresh`` (returns a new array), ``keeps_no_view``, ``moves_elements``,
  ``shape_only``, ``stateful``, ``input_names``. Interpreters of graphs read them
  instead of op names.

>>> op = get("Neg")  # register("Neg", "negative", same_shape, dtypes=SIGNED_NUMBER)
>>> op.name, op.host_kernel, op.shape is same_shape
('Neg', <ufunc 'negative'>, True)

What an interpreter needs beyond the properties (a batching rule, the op a product
becomes when fused with its bias) sits in that interpreter's `RuleTable`, keyed by the
`OpDef` and filled next to the op's `register` call: the interpreter (in ``graph/``)
reads the table and knows no op names. A table may take a property as its rule's
default; `undeclared` lists the tables (and the gradient) an op has declared nothing for,
which the registry sweep requires to be none.

>>> flip = OpDef("Flip", lambda xp, x: xp.flip(x, -1), lambda x: (x.shape, x.dtype),
...             multi=False, tied=(0,), dtypes=NUMBER, stateful=False,
...             not_differentiable="an example")  # (as `register` makes it, unregistered)
>>> undeclared(flip)
['batching']
>>> batching_rules[flip] = PER_ELEMENT  # no rule: a batch runs it once per element
>>> undeclared(flip)
[]
"""
import functools
import weakref

from eagerflow._src.backend import numpy_module as _numpy

from eagerflow._src.core import config
from eagerflow._src.core import context
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import errors
from eagerflow._src.core.tensor_shape import TensorShape

_OPS = {}
_SETTING_DEPENDENT = weakref.WeakSet()  # ops whose kernels choose their direct functions


class OpDef:
    """Everything that defines one op. See the module docstring."""

    __slots__ = ("name", "kernel", "host_kernel", "direct", "_direct_of", "shape", "multi",
                 "tied", "tied_rest", "tied_pair", "variadic", "allowed", "allowed_dtypes",
                 "declared", "kernel_dtypes", "stateful", "grad", "not_differentiable",
                 "registered", "grad_takes_none", "type_attr", "elementwise",
                 "reduction", "fresh", "keeps_no_view", "moves_elements", "shape_only",
                 "input_names", "grad_passes_sparse", "replayable", "takes_out", "tail_attr",
                 "__weakref__")

    def __init__(self, name, kernel, shape, multi, tied, dtypes, stateful, not_differentiable):
        self.name = name
        if isinstance(kernel, str):  # the name of an array-module function, e.g. "add"
            self.kernel = _named_kernel(kernel)
            self.host_kernel = getattr(_numpy, kernel)
        else:
            self.kernel = kernel
            self.host_kernel = functools.partial(kernel, _numpy)
        self._direct_of = getattr(kernel, "direct", None)
        if self._direct_of is not None:
            _SETTING_DEPENDENT.add(self)
        self.shape = shape
        self.multi = multi
        self.variadic = tied == "all"  # every input shares input 0's dtype (AddN, ConcatV2)
        self.tied = (0,) if self.variadic else tuple(tied)
        self.tied_rest = self.tied[1:]
        self.tied_pair = self.tied == (0, 1)  # dispatch's inline check
        self.tail_attr = None
        # declared: the dtypes the type attribute allows; allowed: those with a kernel
        # (quantized dtypes are listed in errors, as TF lists them, but have no kernel here)
        self.declared = None if dtypes is None else frozenset(
            _numpy_dtype(d) for d in dtypes if not d.is_quantized)
        self.allowed_dtypes = None if dtypes is None else tuple(dtypes)
        self.kernel_dtypes = None
        # (an op without a type constraint has kernels for every dtype but the narrow ones,
        # unless `takes_narrow` says it moves them too)
        self.allowed = _WIDE_DTYPES if self.declared is None else self.declared
        self.stateful = stateful
        self.grad = None
        self.not_differentiable = not_differentiable
        # In the registry: its gradient depends on nothing but the op's inputs,
        # outputs and attrs (unlike a custom gradient's closure).
        self.registered = False
        self.grad_takes_none = False  # see `register`
        self.type_attr = "T"  # see `register`
        # the properties `register` declares; an op built elsewhere claims none of them
        self.elementwise = self.reduction = self.fresh = self.keeps_no_view = False
        self.moves_elements = self.shape_only = self.takes_out = False
        self.input_names = None
        self.replayable = not stateful
        self.grad_passes_sparse = False  # see `register_gradient`
        self.bind_direct()

    def __repr__(self):
        return f"<OpDef {self.name}>"

    def listed(self, inputs, attrs):
        """A variadic op's `inputs` that its list holds: all, less the last when it gives
        the attr `tail_attr` at run time (ConcatV2's axis, not tied to the values)."""
        return inputs[:-1] if self.tail_attr is not None and self.tail_attr not in attrs \
            else inputs

    def bind_direct(self):
        """Fills `direct`: input dtype -> the host function of the input arrays alone (no
        attrs) computing the op's one output for inputs of that dtype.

        Eager dispatch calls it in place of `host_kernel`, one call instead of a wrapper's
        several: the kernel's own ``direct(dtype)`` where it gives one (a NumPy ufunc), else
        `host_kernel`. Dtypes outside the type constraint are absent, so finding a function
        also checks the dtype; multi-output ops have none. Rebound when settings the kernels'
        choice depends on change.
        """
        direct = {}
        if not self.multi:
            for dtype in self.allowed:
                fn = self._direct_of(dtype) if self._direct_of is not None else None
                direct[dtype] = self.host_kernel if fn is None else fn
        self.direct = direct


# The NumPy dtypes of tensors' arrays: what an op without a type constraint takes directly
# (not the narrow types: TF has kernels of few ops for them, see `takes_narrow`).
_TENSOR_DTYPES = frozenset(d for d in _d._BY_NUMPY if isinstance(d, _numpy.dtype))
_NARROW_DTYPES = frozenset(_numpy.dtype(d.as_numpy_dtype) for d in _d.NARROW)
_WIDE_DTYPES = _TENSOR_DTYPES - _NARROW_DTYPES


def takes_narrow(dtypes, *ops):
    """Declares that `ops` (without a type constraint) have kernels for the narrow `dtypes`
    (float8, int4, ...), as TF's ops that only move elements have for some of them."""
    for op in ops:
        op.allowed = op.allowed | {_numpy_dtype(d) for d in dtypes}
        unchecked = _UNCHECKED.get(op.name)
        if unchecked is not None and _NARROW_DTYPES <= op.allowed:  # nothing left to check
            op.kernel, op.host_kernel = unchecked
        op.bind_direct()


def _numpy_dtype(d):
    return _numpy.dtype(d.as_numpy_dtype)


def _named_kernel(fn_name):
    def kernel(xp, *arrays, **attrs):
        return getattr(xp, fn_name)(*arrays, **attrs)
    kernel.__name__ = fn_name
    return kernel


def register(name, kernel, shape, *, multi=False, tied=(0,), dtypes=None, kernels=None,
             stateful=False, not_differentiable=None, grad_takes_none=False, type_attr="T",
             elementwise=False, reduction=False, fresh=False, keeps_no_view=False,
             moves_elements=False, shape_only=False, input_names=None, replayable=False,
             takes_out=False, tail_attr=None):
    """Registers op `name` and returns its `OpDef`.

    `tied`: indices of the inputs that share the type attribute (checked to
    have one dtype), or "all" for variadic ops; `dtypes`: the dtypes that attribute allows
    (None: any); `kernels`: those of `dtypes` TF has a CPU kernel for, in the order TF's
    errors list them (None: all): the others raise TF's NotFoundError eagerly and its
    InvalidArgumentError ('No OpKernel') in a graph;
    `not_differentiable`: a reason string for ops that have no gradient;
    `grad_takes_none`: a multi-output op's gradient takes None for the outputs no gradient
    reaches (else zeros are made for them), to skip their share of the work;
    `type_attr`: TF's name of the type attribute, as dtype errors give it (``Tcomplex``).

    Properties (a NumPy ufunc kernel is `elementwise`, and `fresh` with one output):
    `elementwise`: the kernel broadcasts its operands as NumPy does, each output element
    computed from the matching input elements (so it takes a leading batch axis as it is);
    `reduction`: the kernel reduces attr ``axis`` (None: all), keeping dims per ``keepdims``;
    `fresh`: the result is a new array and the kernel keeps no view of its inputs;
    `keeps_no_view`: the kernel keeps no view of its inputs (implied by `fresh`);
    `moves_elements`: the outputs only hold elements of the inputs, moved (so the kernel can
    run on object arrays holding None for elements only run time knows);
    `shape_only`: the outputs depend on nothing but the shape and dtype of input 0;
    `input_names`: TF's names of the inputs the type attribute ties, as graph-time dtype
    errors name them (by default ``x`` and ``y``, or ``values`` for variadic ops);
    `replayable`: running the op again has no effect beyond recomputing its outputs (a
    variable's read, an assertion, a print), so a gradient that replays a body holding it
    is right (implied for ops that are not `stateful`);
    `takes_out`: the host kernel (one output) takes ``out=``, an array of the result's shape
    and dtype that it writes the result into and returns, as a NumPy ufunc does; it may be
    one of the inputs (a graph's dead intermediate, see `graph.passes.buffer_reuse`);
    `tail_attr`: an attr of a variadic op that, when a call lacks it, is given at run time
    as its last input, outside the tie (see `OpDef.listed`).
    """
    if name in _OPS:
        raise KeyError(f"Op {name!r} is already registered.")
    op = OpDef(name, kernel, shape, multi, tied, dtypes, stateful, not_differentiable)
    op.registered = True
    op.grad_takes_none = grad_takes_none
    op.type_attr = type_attr
    if kernels is not None:
        op.kernel_dtypes = tuple(kernels)
        op.allowed = frozenset(_numpy_dtype(d) for d in kernels)
        op.kernel, op.host_kernel = _with_kernel_check(op, op.kernel, op.host_kernel)
        op.bind_direct()  # (the dtypes without a kernel are not among its direct ones)
    elif dtypes is None and not tied and not shape_only:
        # no input is checked by dispatch: the kernel turns narrow types away itself
        op.kernel, op.host_kernel = _with_narrow_check(op, op.kernel, op.host_kernel)
    ufunc = isinstance(op.host_kernel, _numpy.ufunc)
    op.elementwise = elementwise or ufunc
    op.reduction = reduction
    op.fresh = fresh or ufunc and op.host_kernel.nout == 1 and not multi
    op.keeps_no_view = keeps_no_view or op.fresh
    op.moves_elements = moves_elements
    op.shape_only = shape_only
    op.input_names = None if input_names is None else tuple(input_names)
    op.replayable = replayable or not stateful
    op.takes_out = takes_out
    op.tail_attr = tail_attr
    _OPS[name] = op
    return op


def _checking(check, kernel, host_kernel):
    """`kernel` and `host_kernel` calling ``check(arrays)`` on their input arrays first."""
    def checked(xp, *arrays, **attrs):
        check(arrays)
        return kernel(xp, *arrays, **attrs)

    def host_checked(*arrays, **attrs):
        check(arrays)
        return host_kernel(*arrays, **attrs)
    return checked, host_checked


def _with_kernel_check(op, kernel, host_kernel):
    """`op`'s kernels failing for the dtypes without one. Eagerly, dispatch's dtype check
    raises first (NotFoundError); a graph is built (as in TF) and fails when it runs."""
    first = op.tied[0]

    def check(arrays):
        dtype = arrays[first].dtype
        if dtype not in op.allowed:
            raise no_kernel_error(op.name, {op.type_attr: _d.from_numpy(dtype)},
                                  op.kernel_dtypes, graph=True)
    return _checking(check, kernel, host_kernel)


_UNCHECKED = {}  # op name -> its kernels without `_with_narrow_check`


def _with_narrow_check(op, kernel, host_kernel):
    """`op`'s kernels raising TF's NotFoundError for an input of a narrow type (float8, int4,
    ...) unless `takes_narrow` declared it (TF has kernels of few ops for them)."""
    _UNCHECKED[op.name] = kernel, host_kernel

    def check(arrays):
        for a in arrays:
            dtype = getattr(a, "dtype", None)
            if dtype in _NARROW_DTYPES and dtype not in op.allowed:
                raise no_kernel_error(op.name, {op.type_attr: _d.from_numpy(dtype)}, ())
    return _checking(check, kernel, host_kernel)


def _rebind_all():
    for op in list(_SETTING_DEPENDENT):
        op.bind_direct()


config.on_float_setting_change.append(_rebind_all)


def get(name):
    try:
        return _OPS[name]
    except KeyError:
        raise errors.NotFoundError(None, None, f"Op type not registered '{name}'") from None


def all_ops():
    """A copy of the registry: name -> `OpDef`."""
    return dict(_OPS)


def no_gradient_entry(*names):
    """Gives ops `names`, which TF registers no gradient for (nor marks not differentiable),
    TF's behaviour: a gradient reaching one raises its LookupError.  (An op TF marks not
    differentiable is registered with `not_differentiable` instead: its gradient is None.)"""
    for name in names:
        register_gradient(name)(_no_entry)


def _no_entry(op, *output_grads):
    raise LookupError(f"gradient registry has no entry for: {op.type}")


def register_gradient(name, *, passes_sparse=False):
    """Decorator filling the gradient slot of op `name`: ``grad(op, *output_grads)``.

    `passes_sparse`: the gradient takes an `IndexedSlices` as it is (it hands it on
    unchanged); others are given it made dense.
    """
    def decorate(fn):
        op = get(name)
        if op.not_differentiable:
            raise ValueError(f"Op {name} is registered as not differentiable "
                             f"({op.not_differentiable}).")
        op.grad = fn
        op.grad_passes_sparse = passes_sparse
        return fn
    return decorate


class RuleTable:
    """One interpreter's rules, keyed by `OpDef`, filled where each op is registered.

    `default(op)`: whether `op`'s properties give the interpreter its rule (an
    elementwise op batches as it is), so it needs no entry; None: every op needs one.
    """

    def __init__(self, name, default=None):
        self.name = name
        self._rules = {}
        self._default = default

    def __repr__(self):
        return f"<RuleTable {self.name}: {len(self._rules)} ops>"

    def __setitem__(self, op, rule):
        if not isinstance(op, OpDef):
            raise TypeError(f"The {self.name} table is keyed by OpDef, not {op!r}.")
        if op in self._rules:
            raise KeyError(f"Op {op.name} already has a {self.name} rule.")
        self._rules[op] = rule

    def assign(self, rule, *ops):
        """Gives each of `ops` the one `rule` (`PER_ELEMENT` for a family of ops)."""
        for op in ops:
            self[op] = rule

    def __contains__(self, op):
        return op in self._rules

    def get(self, op, default=None):
        return self._rules.get(op, default)

    def items(self):
        return self._rules.items()

    def declared(self, op):
        """Whether `op` has a rule here or its properties give one."""
        return op in self._rules or self._default is not None and self._default(op)


# The rule of an op that has no batching rule: a batch runs it once per element.
PER_ELEMENT = "per element"

# Batching (graph.vectorize): ``rule(op, args) -> output arrays`` running `op` on `args`, a
# list of (array, whether it has a leading batch axis), with the batch axis leading every
# output; it returns None where it does not apply (then the op runs per element), or is
# `PER_ELEMENT`. Elementwise ops and reductions batch by their property, ops shaped like
# their input (`same_shape`) as elementwise ones when they have no attrs, and a stateful
# op runs once per element (its effects happen in order).
batching_rules = RuleTable(
    "batching", lambda op: op.elementwise or op.reduction or op.shape is same_shape
    # (`one_shape`: a rule of inputs of one shape, as ``ops.shape_rules.same_shapes`` makes)
    or getattr(op.shape, "one_shape", False) or op.stateful)
# Runs (graph.vectorize, for a map's function run on a chunk of elements at once): what
# `n` successive runs of a stateful op give when none of its inputs has a batch axis,
# ``rule(op, arrays, n) -> output arrays`` each with a leading axis of n (a random op's
# next n draws), or `RUNS_ONCE`: the n runs are one run (a check, a read). A stateful op
# without one keeps a graph from running a chunk at once (its effects are per element).
runs_rules = RuleTable("runs")
RUNS_ONCE = "once"
# Fusion (graph.passes.fusion): the op that computes a product op followed by a bias add
# and an optional activation, taking the product's inputs and attrs, then the bias.
fusion_rules = RuleTable("fusion")
# Static values (graph.graph): ``rule(shape) -> (value, complete)`` or None: the value of
# an op whose result follows from its input's static shape, as far as that shape is known
# (an incomplete value is a list holding None where run time decides).
static_value_rules = RuleTable("static value")
# The interpreters every op must declare a rule for.
_REQUIRED = (batching_rules,)


def undeclared(op):
    """The names of what `op` declares nothing for: its gradient (or a reason it has none)
    and the rules every interpreter needs."""
    missing = [] if op.grad is not None or op.not_differentiable else ["gradient"]
    return missing + [table.name for table in _REQUIRED if not table.declared(op)]


def aligned(args, rank):
    """For batching rules: the arrays of `args` ((array, batched) pairs), the batched ones
    given size-1 dims so that the batch axis leads at rank `rank` + 1."""
    out = []
    for a, b in args:
        if b and a.ndim - 1 < rank:
            a = a.reshape((a.shape[0],) + (1,) * (rank + 1 - a.ndim) + a.shape[1:])
        out.append(a)
    return out


_KERNEL_TYPE_NAMES = {_d.float16: "half", _d.float32: "float", _d.float64: "double"}


def kernel_type_name(dtype):
    """The type name TensorFlow's kernels use in messages (``float`` for float32)."""
    return _KERNEL_TYPE_NAMES.get(dtype, dtype.name)


# The input whose dtype a type attribute gives, as TF's graph-time dtype errors name it.
_ATTR_INPUTS = {"Tindices": "indices", "Tshape": "shape", "TI": "indices", "Tlabels": "labels",
                "Tidx": "axis", "Tpaddings": "paddings", "Tmultiples": "multiples",
                "Tperm": "perm", "index_type": "dims"}


def attr_dtype_error(op_name, attr, dtype, allowed, param=None):
    """TF's InvalidArgumentError for a type attribute `attr` of `op_name` whose `dtype` is
    not among the `allowed` dtypes: the list, then the op on a line of its own.

    >>> print(attr_dtype_error("Log", "T", _d.int32, (_d.float32,)).message)
    Value for attr 'T' of int32 is not in the list of allowed values: float
    	; NodeDef: {{node Log}}; Op<name=Log> [Op:Log]

    While a graph is built it is the TypeError TF raises as it adds the op, which
    names the input (`param`, by default the usual input of `attr`).
    """
    if not context.executing_eagerly():
        if param is None:
            param = _ATTR_INPUTS.get(attr, "x")
        return TypeError(f"Value passed to parameter '{param}' has DataType {dtype.name} not in "
                         f"list of allowed values: {', '.join(d.name for d in allowed)}")
    return errors.before_kernel(errors.InvalidArgumentError(
        None, op_name,
        f"Value for attr '{attr}' of {kernel_type_name(dtype)} is not in the list of allowed "
        f"values: {', '.join(map(kernel_type_name, allowed))}\n\t; NodeDef: {{{{node {op_name}}}}}"
        f"; Op<name={op_name}> [Op:{op_name}]"))


def check_dtypes(op, dtypes, building=False):
    """Raises InvalidArgumentError when input dtypes break `op`'s type constraint.

    `dtypes` are the NumPy dtypes of the inputs, in order.  While a graph is
    `building`, the error is the TypeError TF raises when it adds the op.
    """
    tied = range(len(dtypes)) if op.variadic else op.tied
    if not tied or len(dtypes) <= tied[0]:
        return
    first = dtypes[tied[0]]
    if op.declared is None:  # any dtype, but a narrow one only where TF has a kernel for it
        if first in _NARROW_DTYPES and first not in op.allowed and not building:
            raise no_kernel_error(op.name, {op.type_attr: _d.from_numpy(first)}, ())
        _check_tied_match(op, tied, dtypes, building)
        return
    # a declared dtype without a kernel: TF's NotFoundError eagerly; a graph takes it
    no_kernel = first in op.declared and first not in op.allowed
    if first not in op.allowed and not no_kernel:
        dtype = _d.from_numpy(first)
        if len(op.declared) == 1 and not building:
            # one allowed dtype: in TF the inputs have that fixed type (``input: bool``)
            # rather than a type attribute, and the error names the input
            raise _wrong_input_type(op, tied[0], op.allowed_dtypes[0], dtype)
        if building:
            raise TypeError(f"Value passed to parameter '{_input_names(op)[0]}' has DataType "
                            f"{dtype.name} not in list of allowed values: "
                            f"{', '.join(d.name for d in op.allowed_dtypes)}")
        raise attr_dtype_error(op.name, op.type_attr, dtype, op.allowed_dtypes)
    _check_tied_match(op, tied, dtypes, building)
    if no_kernel and not building:
        raise no_kernel_error(op.name, {op.type_attr: _d.from_numpy(first)}, op.kernel_dtypes)


def _check_tied_match(op, tied, dtypes, building):
    """TF's error for a tied input whose dtype is not the first tied input's."""
    first = dtypes[tied[0]]
    for i in tied[1:]:
        if i < len(dtypes) and dtypes[i] != first:
            expected, got = _d.from_numpy(first), _d.from_numpy(dtypes[i])
            if building:
                raise _graph_mismatch(op, tied, dtypes, i, expected, got)
            raise _wrong_input_type(op, i, expected, got)


def _enum_name(dtype):
    return "DT_" + kernel_type_name(dtype).upper()


def no_kernel_error(op_name, attrs, kernels, graph=False):
    """TF's error for an op whose type attributes `attrs` ({name: dtype}) are allowed but
    have no CPU kernel (`kernels`: the dtypes of the first attribute that have one):
    NotFoundError eagerly, InvalidArgumentError when a `graph` runs.

    >>> print(no_kernel_error("Rint", {"T": _d.float16}, (_d.float64, _d.float32)).message)
    Could not find device for node: {{node Rint}} = Rint[T=DT_HALF]
    All kernels registered for op Rint:
      device='CPU'; T in [DT_DOUBLE]
      device='CPU'; T in [DT_FLOAT]
     [Op:Rint]
    """
    first = next(iter(attrs))
    listed = "".join(f"  device='CPU'; {first} in [{_enum_name(k)}]\n" for k in kernels)
    values = ", ".join(f"{k}={_enum_name(v)}" for k, v in attrs.items())
    if graph:
        return errors.InvalidArgumentError(
            None, op_name, f"No OpKernel was registered to support Op '{op_name}' used by "
                           f"{{{{node {op_name}}}}} with these attrs: [{values}]\nRegistered "
                           f"devices: [CPU]\nRegistered kernels:\n{listed}")
    return errors.before_kernel(errors.NotFoundError(
        None, op_name, f"Could not find device for node: {{{{node {op_name}}}}} = "
                       f"{op_name}[{values}]\nAll kernels registered for op {op_name}:\n"
                       f"{listed} [Op:{op_name}]"))


def fixed_input_error(op, i, input_name, expected, got, building=False):
    """TF's error for input `i` (`input_name`) of fixed type `expected` given a `got`
    tensor: InvalidArgumentError eagerly, TypeError while a graph is built."""
    if building:
        return TypeError(f"Input '{input_name}' of '{op.name}' Op has type {got.name} that does "
                         f"not match expected type of {expected.name}.")
    return _wrong_input_type(op, i, expected, got)


def _wrong_input_type(op, i, expected, got):
    return errors.before_kernel(errors.InvalidArgumentError(
        None, op.name,
        f"cannot compute {errors.kernel_name(op.name, expected)} as input #{i}(zero-based) was "
        f"expected to be a {kernel_type_name(expected)} tensor but is a {kernel_type_name(got)} "
        f"tensor "
        f"[Op:{op.name}]"))


def _input_names(op):
    """TF's names of the inputs that share the type attribute, in order (see `register`)."""
    if op.input_names is not None:
        return op.input_names
    return ("values",) if op.variadic else ("x", "y")


def _graph_mismatch(op, tied, dtypes, i, expected, got):
    """TF's TypeError for inputs of one type attribute that differ, as a graph is built."""
    names = _input_names(op)
    if op.variadic:
        found = ", ".join(_d.from_numpy(dtypes[j]).name for j in tied)
        return TypeError(f"Tensors in list passed to '{names[0]}' of '{op.name}' Op have types "
                         f"[{found}] that don't all match.")
    if op.tied_pair or op.input_names is not None:
        return TypeError(f"Input '{names[tied.index(i)]}' of '{op.name}' Op has type {got.name} "
                         f"that does not match type {expected.name} of argument '{names[0]}'.")
    return TypeError(f"Input #{i} of '{op.name}' Op has type {got.name} that does not match "
                     f"type {expected.name} of the inputs before it.")


# Dtype groups used as `dtypes=` constraints.
FLOAT = (_d.bfloat16, _d.float16, _d.float32, _d.float64)  # TF's order, as errors list them
COMPLEX = (_d.complex64, _d.complex128)
FLOAT_COMPLEX = FLOAT + COMPLEX
SIGNED_INT = (_d.int8, _d.int16, _d.int32, _d.int64)
UNSIGNED_INT = (_d.uint8, _d.uint16, _d.uint32, _d.uint64)
INT = SIGNED_INT + UNSIGNED_INT
REAL = FLOAT + INT
NUMBER = REAL + COMPLEX
SIGNED_NUMBER = FLOAT + SIGNED_INT + COMPLEX
BOOL_ONLY = (_d.bool,)
NUMBER_BOOL = NUMBER + (_d.bool,)
# TF's own groups in its order, for the ops whose errors list them so: the floats of NN ops,
# NumberTypes and RealNumberTypes (their quantized dtypes are only listed in errors)
NN_FLOAT = (_d.float16, _d.bfloat16, _d.float32, _d.float64)
NUMBER_TYPES = (_d.float32, _d.float64, _d.int32, _d.uint8, _d.int16, _d.int8, _d.complex64,
                _d.int64, _d.qint8, _d.quint8, _d.qint32, _d.bfloat16, _d.qint16, _d.quint16,
                _d.uint16, _d.complex128, _d.float16, _d.uint32, _d.uint64)
REAL_NUMBER_TYPES = (_d.float32, _d.float64, _d.int32, _d.uint8, _d.int16, _d.int8, _d.int64,
                     _d.bfloat16, _d.uint16, _d.float16, _d.uint32, _d.uint64)
QUANTIZED = (_d.qint8, _d.quint8, _d.qint32, _d.qint16, _d.quint16)
ANY = None


def same_shape(x, *_, **__):
    """Shape rule of elementwise unary ops: output like the first input."""
    return x.shape, x.dtype


def unknown(dtype):
    """A shape rule for outputs whose shape depends on values (e.g. `unique`)."""
    return lambda *_, **__: (TensorShape(None), dtype)

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
  with `register_gradient`, or a reason why the op is not differentiable.

>>> op = register("Neg", lambda xp, x: xp.negative(x), same_shape, dtypes=NUMBER)
>>> get("Neg") is op
True
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
                 "registered", "grad_takes_none", "type_attr", "__weakref__")

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
        # declared: the dtypes the type attribute allows; allowed: those with a kernel
        self.declared = None if dtypes is None else frozenset(_numpy_dtype(d) for d in dtypes)
        self.allowed_dtypes = None if dtypes is None else tuple(dtypes)
        self.kernel_dtypes = None
        self.allowed = self.declared
        self.stateful = stateful
        self.grad = None
        self.not_differentiable = not_differentiable
        # In the registry: its gradient depends on nothing but the op's inputs,
        # outputs and attrs (unlike a custom gradient's closure).
        self.registered = False
        self.grad_takes_none = False  # see `register`
        self.type_attr = "T"  # see `register`
        self.bind_direct()

    def __repr__(self):
        return f"<OpDef {self.name}>"

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
            for dtype in _TENSOR_DTYPES if self.allowed is None else self.allowed:
                fn = self._direct_of(dtype) if self._direct_of is not None else None
                direct[dtype] = self.host_kernel if fn is None else fn
        self.direct = direct


# The NumPy dtypes of tensors' arrays: what an op without a type constraint takes directly.
_TENSOR_DTYPES = frozenset(d for d in _d._BY_NUMPY if isinstance(d, _numpy.dtype))


def _numpy_dtype(d):
    return _numpy.dtype(d.as_numpy_dtype)


def _named_kernel(fn_name):
    def kernel(xp, *arrays, **attrs):
        return getattr(xp, fn_name)(*arrays, **attrs)
    kernel.__name__ = fn_name
    return kernel


def register(name, kernel, shape, *, multi=False, tied=(0,), dtypes=None, kernels=None,
             stateful=False, not_differentiable=None, grad_takes_none=False, type_attr="T"):
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
    _OPS[name] = op
    return op


def _with_kernel_check(op, kernel, host_kernel):
    """`op`'s kernels failing for the dtypes without one. Eagerly, dispatch's dtype check
    raises first (NotFoundError); a graph is built (as in TF) and fails when it runs."""
    first = op.tied[0]

    def check(arrays):
        dtype = arrays[first].dtype
        if dtype not in op.allowed:
            raise no_kernel_error(op.name, {op.type_attr: _d.from_numpy(dtype)},
                                  op.kernel_dtypes, graph=True)

    def checked(xp, *arrays, **attrs):
        check(arrays)
        return kernel(xp, *arrays, **attrs)

    def host_checked(*arrays, **attrs):
        check(arrays)
        return host_kernel(*arrays, **attrs)
    return checked, host_checked


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


def register_gradient(name):
    """Decorator filling the gradient slot of op `name`: ``grad(op, *output_grads)``."""
    def decorate(fn):
        op = get(name)
        if op.not_differentiable:
            raise ValueError(f"Op {name} is registered as not differentiable "
                             f"({op.not_differentiable}).")
        op.grad = fn
        return fn
    return decorate


_KERNEL_TYPE_NAMES = {_d.float16: "half", _d.float32: "float", _d.float64: "double"}


def kernel_type_name(dtype):
    """The type name TensorFlow's kernels use in messages (``float`` for float32)."""
    return _KERNEL_TYPE_NAMES.get(dtype, dtype.name)


# The input whose dtype a type attribute gives, as TF's graph-time dtype errors name it.
_ATTR_INPUTS = {"Tindices": "indices", "Tshape": "shape", "TI": "indices", "Tlabels": "labels",
                "Tidx": "axis", "Tpaddings": "paddings", "Tmultiples": "multiples",
                "Tperm": "perm"}


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
            param = "segment_ids" if "Segment" in op_name else _ATTR_INPUTS.get(attr, "x")
        return TypeError(f"Value passed to parameter '{param}' has DataType {dtype.name} not in "
                         f"list of allowed values: {', '.join(d.name for d in allowed)}")
    return errors.InvalidArgumentError(
        None, op_name,
        f"Value for attr '{attr}' of {kernel_type_name(dtype)} is not in the list of allowed "
        f"values: {', '.join(map(kernel_type_name, allowed))}\n\t; NodeDef: {{{{node {op_name}}}}}"
        f"; Op<name={op_name}> [Op:{op_name}]")


def check_dtypes(op, dtypes, building=False):
    """Raises InvalidArgumentError when input dtypes break `op`'s type constraint.

    `dtypes` are the NumPy dtypes of the inputs, in order.  While a graph is
    `building`, the error is the TypeError TF raises when it adds the op.
    """
    tied = range(len(dtypes)) if op.variadic else op.tied
    if not tied or len(dtypes) <= tied[0]:
        return
    first = dtypes[tied[0]]
    # a declared dtype without a kernel: TF's NotFoundError eagerly; a graph takes it
    no_kernel = op.allowed is not None and first in op.declared and first not in op.allowed
    if op.allowed is not None and first not in op.allowed and not no_kernel:
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
    for i in tied[1:]:
        if i < len(dtypes) and dtypes[i] != first:
            expected, got = _d.from_numpy(first), _d.from_numpy(dtypes[i])
            if building:
                raise _graph_mismatch(op, tied, dtypes, i, expected, got)
            raise _wrong_input_type(op, i, expected, got)
    if no_kernel and not building:
        raise no_kernel_error(op.name, {op.type_attr: _d.from_numpy(first)}, op.kernel_dtypes)


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
    return errors.NotFoundError(
        None, op_name, f"Could not find device for node: {{{{node {op_name}}}}} = "
                       f"{op_name}[{values}]\nAll kernels registered for op {op_name}:\n"
                       f"{listed} [Op:{op_name}]")


def fixed_input_error(op, i, input_name, expected, got, building=False):
    """TF's error for input `i` (`input_name`) of fixed type `expected` given a `got`
    tensor: InvalidArgumentError eagerly, TypeError while a graph is built."""
    if building:
        return TypeError(f"Input '{input_name}' of '{op.name}' Op has type {got.name} that does "
                         f"not match expected type of {expected.name}.")
    return _wrong_input_type(op, i, expected, got)


def _wrong_input_type(op, i, expected, got):
    return errors.InvalidArgumentError(
        None, op.name,
        f"cannot compute {op.name} as input #{i}(zero-based) was expected to be a "
        f"{kernel_type_name(expected)} tensor but is a {kernel_type_name(got)} tensor "
        f"[Op:{op.name}]")


# TF's names of the inputs that share the type attribute, in order, as dtype errors give
# them, where they are not ``x`` and ``y``.
_INPUT_NAMES = {"MatMul": ("a", "b"), "AddN": ("inputs",), "InTopKV2": ("targets", "k")}


def _input_names(op):
    return _INPUT_NAMES.get(op.name, ("values",) if op.variadic else ("x", "y"))


def _graph_mismatch(op, tied, dtypes, i, expected, got):
    """TF's TypeError for inputs of one type attribute that differ, as a graph is built."""
    names = _input_names(op)
    if op.variadic:
        found = ", ".join(_d.from_numpy(dtypes[j]).name for j in tied)
        return TypeError(f"Tensors in list passed to '{names[0]}' of '{op.name}' Op have types "
                         f"[{found}] that don't all match.")
    if op.tied_pair or op.name in _INPUT_NAMES:
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
ANY = None


def same_shape(x, *_, **__):
    """Shape rule of elementwise unary ops: output like the first input."""
    return x.shape, x.dtype


def unknown(dtype):
    """A shape rule for outputs whose shape depends on values (e.g. `unique`)."""
    return lambda *_, **__: (TensorShape(None), dtype)

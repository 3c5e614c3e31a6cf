"""`py_function` and `numpy_function`: Python functions run as ops.

Eagerly they call the function now; inside a `function` (and so in a
dataset's ``map``) they are graph nodes: ``EagerPyFunc`` (`py_function`,
which hands the function eager tensors and is differentiable) and ``PyFunc``
/ ``PyFuncStateless`` (`numpy_function`, NumPy arrays, no gradient).  A node
names its callable by a ``token`` attribute (``pyfunc_<n>``), as TF's do, so
graphs stay plain data: the registry here maps tokens to callables and holds
them only weakly; the graph that uses one (or, eagerly, the tensors it made)
keeps it alive.  Such a node can be written to a GraphDef, but it runs only in
the process that made it.

The function's outputs have unknown static shapes; ``set_shape`` them when
known.  A Python exception raised by the function becomes TF's error for it
(``InvalidArgumentError`` for ``ValueError`` and ``TypeError``,
``OutOfRangeError`` for ``StopIteration``, ``UnimplementedError``,
``ResourceExhaustedError`` for ``MemoryError``, ``UnknownError`` otherwise)
with the original message and traceback.

>>> def double(x):
...     return x * 2
>>> tf.py_function(double, [tf.constant([1.0, 2.0])], Tout=tf.float32)
<tf.Tensor: shape=(2,), dtype=float32, numpy=array([2., 4.], dtype=float32)>
"""
import functools
import itertools
import threading
import traceback
import weakref

import numpy as np

from eagerflow._src.autodiff.tape import GradientTape
from eagerflow._src.backend.api_export import export
from eagerflow._src.core import context, errors
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.core.node_forms import NodeForm, tf_nodes
from eagerflow._src.core.node_forms import tf_args
from eagerflow._src.core.registry import PER_ELEMENT, batching_rules, kernel_type_name, \
    register, register_gradient
from eagerflow._src.core.tensor import EagerTensor, Tensor
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.core.tensor_spec import TensorSpec
from eagerflow._src.core.variables import Variable
from eagerflow._src.ops import array_ops
from eagerflow._src.ops.sparse_tensor import SparseTensor, SparseTensorSpec

_new = object.__new__


# -- the registry of callables ---------------------------------------------------------------

class _Registry:
    """Tokens to callables, held weakly (their graphs or tensors hold them); thread-safe."""

    def __init__(self):
        self._lock = threading.Lock()
        self._funcs = weakref.WeakValueDictionary()
        self._ids = itertools.count()

    def insert(self, func):
        with self._lock:
            token = f"pyfunc_{next(self._ids)}"
            self._funcs[token] = func
        return token

    def get(self, token):
        with self._lock:
            func = self._funcs.get(token)
        if func is None:  # (a graph from elsewhere: its Python functions are not here)
            raise errors.InvalidArgumentError(
                None, None, f"ValueError: Could not find callback with key={token} in the "
                            f"registry.")
        return func


_registry = _Registry()


def _error_for(exc):
    """TF's error class for a Python exception raised by the function."""
    if isinstance(exc, (ValueError, TypeError)):
        return errors.InvalidArgumentError
    if isinstance(exc, StopIteration):
        return errors.OutOfRangeError
    if isinstance(exc, NotImplementedError):
        return errors.UnimplementedError
    if isinstance(exc, MemoryError):
        return errors.ResourceExhaustedError
    return errors.UnknownError


class _Mismatch(Exception):
    """The function returned the wrong number or dtypes of values (InvalidArgumentError)."""


class _Callable:
    """The function of one node: called with its inputs' arrays, it returns its outputs'."""

    def __init__(self, func, tout, eager, n_grads=None):
        self.func, self.tout, self.eager = func, tuple(tout), eager
        self.token = _registry.insert(self)
        self._grad = None
        # A gradient's callable takes the gradients of its function's `n_grads` outputs,
        # then that function's inputs (for a call that recorded no tape).
        self.n_grads = n_grads
        # Calls run under a tape when a tape may record them, or always once a graph holds
        # this node's gradient; the latest call's (tape, inputs, outputs) gives the gradient,
        # as TF's tape cache does, so that the function runs once.
        self.record = False
        self.recorded = None

    def run(self, arrays):
        """The output arrays of the function called on input `arrays`."""
        record = self.eager and (self.record or bool(context.get().recorders))
        with context.init_scope():  # eager, unseen by tapes, even while a graph runs
            try:
                args = self.arguments(arrays)
                if not record:
                    values = self._values(self.func(*args))
                    return tuple(self._out(i, v, d)
                                 for i, (v, d) in enumerate(zip(values, self.tout)))
                with GradientTape(persistent=True) as tape:  # (kept for every gradient asked)
                    for a in args:
                        if _differentiable(a.dtype):
                            tape.watch(a)
                    values = self._values(self.func(*args))
                    outputs = [self._out_tensor(v, d) for v, d in zip(values, self.tout)]
                self.recorded = (tape, args, outputs)
                return tuple(t._data for t in outputs)
            except _Mismatch as e:
                raise errors.InvalidArgumentError(None, None, str(e)) from None
            except Exception as e:  # noqa: BLE001 (every exception becomes TF's error)
                raise self._error(e) from None

    @staticmethod
    def _error(exc):
        first = f"{type(exc).__name__}: {exc}"  # (TF's first line, bare class name)
        trace = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
        return _error_for(exc)(None, None, f"{first}\n{trace}")

    def arguments(self, arrays):
        if self.eager:
            out = []
            for a in arrays:
                t = _new(EagerTensor)
                t._data = a
                out.append(t)
            return out
        # copies, as the function may write into them; a scalar comes as a NumPy scalar
        # (bytes for a string), as TF's kernel passes it
        return [np.array(a) if np.ndim(a) else np.asarray(a)[()] for a in arrays]

    def _values(self, result):
        if result is None and not self.tout:
            return ()
        values = list(result) if isinstance(result, (list, tuple)) else [result]
        if len(values) != len(self.tout):
            raise _Mismatch(f"{self.token} returns {len(values)} values, but expects to see "
                            f"{len(self.tout)} values.")
        return values

    @staticmethod
    def _out_tensor(value, dtype):
        if isinstance(value, Variable):
            raise RuntimeError(
                "Attempting to return a variable from an eagerly executed py_func. Only "
                "numeric data structures like Tensors or NumPy arrays should be returned; "
                "to return the value of a variable, make sure to obtain the Tensor backing "
                f"it by calling `.read_value()` on the variable in question: {value}")
        return convert_to_tensor(value, dtype)

    def _out(self, index, value, dtype):
        if self.eager:
            return self._out_tensor(value, dtype)._data
        array = np.asarray(value)
        if array.dtype.kind in "US" or (array.dtype == object and any(
                isinstance(s, str) for s in array.reshape(-1).tolist())):
            # text: TF's strings are bytes (str, alone or in an object array, as UTF-8)
            array = np.vectorize(lambda s: s.encode() if isinstance(s, str) else bytes(s),
                                 otypes=[object])(array) if array.size else \
                array.astype(object)
        got = _d.string if array.dtype == object else _d.as_dtype(array.dtype)
        if got != dtype:
            raise _Mismatch(f"{index}-th value returned by {self.token} is "
                            f"{kernel_type_name(got)}, but expects {kernel_type_name(dtype)}")
        return array

    def grad(self, in_dtypes):
        """The callable of this one's gradient (made once). It takes the gradients of the
        outputs, then the inputs (of `in_dtypes`): the tape the call recorded gives the
        gradients of the inputs; where the call recorded none, the function runs again
        on the inputs, under a tape."""
        if self._grad is None:
            n_in, n_out = len(in_dtypes), len(self.tout)

            def gradient(*args):
                dys, xs = args[:n_out], args[n_out:]
                if self.recorded is not None:
                    tape, xs, ys = self.recorded
                else:
                    with GradientTape() as tape:
                        for x in xs:
                            if _differentiable(x.dtype):
                                tape.watch(x)
                        ys = [self._out_tensor(y, d)
                              for y, d in zip(self._values(self.func(*xs)), self.tout)]
                wrt = [i for i, x in enumerate(xs) if _differentiable(x.dtype)]
                pairs = [(y, dy) for y, dy in zip(ys, dys) if _differentiable(y.dtype)]
                grads = [None] * n_in
                if pairs and wrt:
                    found = tape.gradient([y for y, _ in pairs], [xs[i] for i in wrt],
                                          output_gradients=[dy for _, dy in pairs])
                    for i, g in zip(wrt, found):
                        grads[i] = g
                # no gradient is a zero one (the op's outputs are one list of tensors)
                return [array_ops.zeros_like(x) if g is None else g for x, g in zip(xs, grads)]

            self._grad = _Callable(gradient, in_dtypes, eager=True, n_grads=n_out)
        return self._grad


def _differentiable(dtype):
    return dtype.is_floating or dtype.is_complex


def _call_kernel(xp, *arrays, token, **_):
    return _registry.get(token).run(arrays)


def _shape_rule(*inputs, Tout, **_):
    return [(TensorShape(None), d) for d in Tout]


_EAGER_PY_FUNC = register("EagerPyFunc", _call_kernel, _shape_rule, multi=True, tied=(),
                          stateful=True)
tf_args[_EAGER_PY_FUNC] = None  # (tokens of eagerflow's own function table: no raw op)
_PY_FUNC = register("PyFunc", _call_kernel, _shape_rule, multi=True, tied=(), stateful=True,
                    not_differentiable="a NumPy function (tf.numpy_function has no gradient)")
tf_args[_PY_FUNC] = None
# TF lets its optimizer merge or drop stateless calls; eagerflow keeps every call, in order.
_PY_FUNC_STATELESS = register(
    "PyFuncStateless", _call_kernel, _shape_rule, multi=True, tied=(), stateful=True,
    not_differentiable="a NumPy function (tf.numpy_function has no gradient)")
tf_args[_PY_FUNC_STATELESS] = None
for _op in (_EAGER_PY_FUNC, _PY_FUNC, _PY_FUNC_STATELESS):
    tf_nodes[_op] = NodeForm(types={"Tin": "*0"}, outputs=("output",))
    batching_rules[_op] = PER_ELEMENT  # one call per element, as the function is written


@register_gradient("EagerPyFunc")
def _eager_py_func_grad(op, *dys):
    inputs = list(op.inputs)
    func = _registry.get(op.attrs["token"])
    if context.get().graph is not None:
        func.record = True  # (the graph's runs of the node record what its gradient needs)
    grad = func.grad(tuple(t.dtype for t in inputs))
    grads = _run(grad, list(dys) + inputs, _EAGER_PY_FUNC, {"is_async": False})
    if func.n_grads is not None:
        # A gradient's gradient flows to the output gradients it took, not to the inputs of
        # the function (TF's gradient op takes no such inputs: a second derivative of a
        # py_function is None, as TF gives it).
        grads[func.n_grads:] = [None] * (len(grads) - func.n_grads)
    return grads


# -- running a callable ----------------------------------------------------------------------

def _keep_alive(func, outputs):
    """Ties `func`'s lifetime to the graph being built, else to the eager `outputs`."""
    graph = context.get().graph
    if graph is not None:
        try:
            graph._py_funcs.append(func)
        except AttributeError:
            graph._py_funcs = [func]
        return
    for t in outputs:
        t._py_func = func


def _run(func, inputs, op, extra_attrs, name=None):
    attrs = {"token": func.token, "Tout": func.tout, **extra_attrs}
    outputs = dispatch(op, inputs, attrs, name)
    _keep_alive(func, outputs)
    return list(outputs)


def _dtype(t):
    if isinstance(t, (dict, list, tuple)):  # (nests are not types: TF's message)
        raise TypeError(f"Cannot convert the argument `type_value`: {t!r} to a DType.")
    return _d.as_dtype(t)


def _flat_dtypes(tout):
    """Tout as one list of dtypes, and a function packing the outputs back into it."""
    is_list = isinstance(tout, (list, tuple))
    entries = list(tout) if is_list else [tout]
    specs = [t if isinstance(t, (TensorSpec, SparseTensorSpec)) else _dtype(t) for t in entries]
    dtypes = []
    for s in specs:
        if isinstance(s, SparseTensorSpec):
            dtypes += [_d.int64, s.dtype, _d.int64]
        else:
            dtypes.append(s.dtype if isinstance(s, TensorSpec) else s)

    def pack(outputs):
        it = iter(outputs)
        out = []
        for s in specs:
            if isinstance(s, SparseTensorSpec):
                value = SparseTensor(next(it), next(it), next(it))
                value._shape_hint = s.shape
                out.append(value)
            else:
                out.append(next(it))
        return out if is_list else out[0]

    def flatten(result):
        """The function's result with each sparse tensor as its three components."""
        if not any(isinstance(s, SparseTensorSpec) for s in specs):
            return result
        values = list(result) if isinstance(result, (list, tuple)) else [result]
        flat = []
        for v, s in zip(values, specs):
            if isinstance(s, SparseTensorSpec):
                if not isinstance(v, SparseTensor) or not s.is_compatible_with(v):
                    raise ValueError(f"py_function: func returned {result!r}, which did not "
                                     f"match Tout={tout!r}.\nIn particular, {v!r} is not "
                                     f"compatible with {s!r}.")
                flat += [v.indices, v.values, v.dense_shape]
            else:
                if isinstance(v, SparseTensor):
                    raise ValueError(f"py_function: func returned {result!r}, which did not "
                                     f"match Tout={tout!r}.\nIn particular, {v!r} is not a "
                                     f"Tensor.")
                flat.append(v)
        return flat
    return dtypes, pack, flatten


def _flat_inputs(inp):
    """The inputs as tensors, each sparse tensor as its three components; and a function
    rebuilding the function's arguments from them."""
    kinds, flat = [], []
    for v in inp:
        if isinstance(v, SparseTensor):
            kinds.append(v.shape)
            flat += [v.indices, v.values, v.dense_shape]
        else:
            kinds.append(None)
            flat.append(v.read_value() if isinstance(v, Variable) else
                        v if isinstance(v, Tensor) else convert_to_tensor(v))

    def unflatten(args):
        it = iter(args)
        out = []
        for shape in kinds:
            if shape is None:
                out.append(next(it))
            else:
                value = SparseTensor(next(it), next(it), next(it))
                value._shape_hint = shape
                out.append(value)
        return out
    return flat, unflatten


def _check_args(name, func, inp, Tout):
    if Tout is None:
        raise TypeError(f"Missing required argument: 'Tout'\n  If using {name} as a decorator, "
                        f"set `Tout`\n  **by name** above the function:\n  "
                        f"`@{name}(Tout=tout)`")
    if func is None:
        if inp is not None:
            raise TypeError(f"Don't set the `inp` argument when using {name} as a decorator "
                            f"(`func=None`).")
        return
    if inp is None:
        raise TypeError(f"Missing argument `inp`:\n  You must set the `inp` argument (the list "
                        f"of arguments to the\n  function), unless you use `{name}` as a "
                        f"decorator(`func=None`).")
    if not callable(func):
        raise ValueError(f"Expected func to be callable. Received func={func} of type "
                         f"{type(func)}.")


def _decorator(fn, **kwargs):
    def decorate(func):
        @functools.wraps(func)
        def wrapper(*args):
            return fn(func, inp=args, **kwargs)
        return wrapper
    return decorate


@export("py_function", "compat.v1.py_function")
def py_function(func=None, inp=None, Tout=None, name=None):
    """Runs the Python function `func` on `inp` as an op, eagerly, even inside a `function`.

    `func` takes eager tensors and returns tensors (or values convertible to them) of the
    dtypes `Tout` lists: a list of dtypes (a list comes back), one dtype (one tensor), or
    `TensorSpec`s / `SparseTensorSpec`s.  Inside a `function` the call is an
    ``EagerPyFunc`` node whose outputs have unknown shapes.  Gradients flow through it, to
    its inputs: a call that a tape may differentiate runs `func` under a tape of its own,
    whose gradient the backward pass takes (`func` is not run again; as in TF, the
    gradient has no second derivative).  With `func` None it is a decorator.

    >>> @tf.function
    ... def f(x):
    ...     y = tf.py_function(lambda v: v * v, [x], tf.float32)
    ...     return y
    >>> x = tf.constant(3.0)
    >>> with tf.GradientTape() as tape:
    ...     tape.watch(x)
    ...     y = f(x)
    >>> float(y), float(tape.gradient(y, x))
    (9.0, 6.0)
    """
    _check_args("tf.py_function", func, inp, Tout)
    if func is None:
        return _decorator(py_function, Tout=Tout, name=name)
    dtypes, pack, flatten = _flat_dtypes(Tout)
    flat, unflatten = _flat_inputs(list(inp))

    def call(*args):
        return flatten(func(*unflatten(args)))
    wrapped = _Callable(call, dtypes, eager=True)
    outputs = _run(wrapped, flat, _EAGER_PY_FUNC, {"is_async": False}, name)
    if not isinstance(Tout, (list, tuple)) or Tout:
        return pack(outputs)
    return []


def _numpy_call(func, inp, Tout, stateful, name):
    is_list = isinstance(Tout, (list, tuple))
    dtypes = [_dtype(t) for t in (Tout if is_list else [Tout])]
    tensors = [t.read_value() if isinstance(t, Variable) else
               t if isinstance(t, Tensor) else convert_to_tensor(t) for t in inp]
    # eagerly, as TF: the function's result as it is (a symbolic input, a functional model's
    # tensor, takes the op's way, which makes the call a layer)
    if context.get().graph is None and all(isinstance(t, EagerTensor) for t in tensors):
        result = func(*[np.array(t._data) for t in tensors])
        flat = [v for v in (list(result) if isinstance(result, (list, tuple)) else [result])]
        flat = [v if v is None else convert_to_tensor(v) for v in flat]
        return flat[0] if len(flat) == 1 else flat
    wrapped = _Callable(func, dtypes, eager=False)
    op = _PY_FUNC if stateful else _PY_FUNC_STATELESS
    outputs = _run(wrapped, tensors, op, {}, name)
    return outputs if is_list else outputs[0]


@export("numpy_function", "compat.v1.numpy_function")
def numpy_function(func=None, inp=None, Tout=None, stateful=True, name=None):
    """Runs the NumPy function `func` on the arrays of `inp` as an op (no gradient).

    `func` takes NumPy arrays (copies) and returns arrays of the dtypes `Tout` lists
    (a list, or one dtype for one output).  Eagerly it is called at once; inside a
    `function` it is a ``PyFunc`` node (``PyFuncStateless`` when not `stateful`) whose
    outputs have unknown shapes, and a result of another dtype raises
    InvalidArgumentError.  With `func` None it is a decorator.

    >>> tf.numpy_function(lambda a: np.sinh(a), [tf.constant([0.0])], tf.float32)
    <tf.Tensor: shape=(1,), dtype=float32, numpy=array([0.], dtype=float32)>
    """
    _check_args("tf.numpy_function", func, inp, Tout)
    if func is None:
        return _decorator(numpy_function, Tout=Tout, stateful=stateful, name=name)
    return _numpy_call(func, inp, Tout, stateful, name)


@export("compat.v1.py_func")
def py_func(func, inp, Tout, stateful=True, name=None):
    """TF1's `numpy_function` (``tf.compat.v1.py_func``): `func` takes and returns arrays.

    >>> tf.compat.v1.py_func(lambda a: a + 1, [tf.constant(1.0)], tf.float32)
    <tf.Tensor: shape=(), dtype=float32, numpy=2.0>
    """
    if not callable(func):
        raise ValueError(f"Expected func to be callable. Received func={func} of type "
                         f"{type(func)}.")
    return _numpy_call(func, inp, Tout, stateful, name)

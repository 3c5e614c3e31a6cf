"""``tf.raw_ops``: every registered op by TF's name, called with TF's keyword arguments.

A raw op takes TF's inputs by TF's argument names (`node_forms.arg_names`) and TF's
attrs by name, keyword arguments only. The call is read as a TF NodeDef would be (TF's
inputs in order, TF's attrs), turned into eagerflow's inputs and attrs the way GraphDef
import does (`node_forms.from_tf_node`), and run through `dispatch`: eagerly, in a
`function` being traced, and on tapes alike.

>>> tf.raw_ops.AddV2(x=tf.constant(1.0), y=2.0)
<tf.Tensor: shape=(), dtype=float32, numpy=3.0>
>>> tf.raw_ops.Unique(x=[3, 3, 1]).idx
<tf.Tensor: shape=(3,), dtype=int32, numpy=array([0, 0, 1], dtype=int32)>
"""
import collections
import importlib
import inspect
import re
import weakref

import numpy as np

from eagerflow._src.core import context
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import errors
from eagerflow._src.core import registry
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.core.op_attr_table import ATTRS
from eagerflow._src.core.op_attrs import checked_attrs
from eagerflow._src.core.node_forms import arg_names, from_tf_node, tf_nodes
from eagerflow._src.core.tensor import EagerTensor, Tensor
from eagerflow._src.core.variables import ResourceHandle, variable_of
from eagerflow._src.function.concrete_function import ConcreteFunction
from eagerflow._src.graph.function_library import FunctionBody, add_function
from eagerflow._src.graph.graph import SymbolicTensor

# Modules registering ops that ``import eagerflow`` does not load (tf.data's, tf.summary's).
_LATE = ("eagerflow._src.data.iterator_graph", "eagerflow._src.summary.summary_ops",
         "eagerflow._src.summary.writer", "eagerflow._src.compat.summary",
         "eagerflow._src.checkpoint.save_restore_ops")

# The attrs TF's Python functions name otherwise than TF's op: Python name -> TF's
_PYTHON_ATTRS = {"Squeeze": {"axis": "squeeze_dims"}}

# TF's output arguments that are lists, each sized by an attr (a number, or a list's length)
_LIST_OUTPUTS = {"ParseExample": (
    ("sparse_indices", "sparse_types"), ("sparse_values", "sparse_types"),
    ("sparse_shapes", "sparse_types"), ("dense_values", "Tdense")),
    "ParseSingleExample": (
    ("sparse_indices", "num_sparse"), ("sparse_values", "sparse_types"),
    ("sparse_shapes", "num_sparse"), ("dense_values", "Tdense")),
    "ParseSingleSequenceExample": (
        ("context_sparse_indices", "context_sparse_types"),
        ("context_sparse_values", "context_sparse_types"),
        ("context_sparse_shapes", "context_sparse_types"),
        ("context_dense_values", "Tcontext_dense"),
        ("feature_list_sparse_indices", "feature_list_sparse_types"),
        ("feature_list_sparse_values", "feature_list_sparse_types"),
        ("feature_list_sparse_shapes", "feature_list_sparse_types"),
        ("feature_list_dense_values", "feature_list_dense_types")),
    "ParseExampleV2": (
    ("sparse_indices", "num_sparse"), ("sparse_values", "sparse_types"),
    ("sparse_shapes", "num_sparse"), ("dense_values", "Tdense"),
    ("ragged_values", "ragged_value_types"), ("ragged_row_splits", "ragged_split_types")),
    "ParseSequenceExampleV2": (
        ("context_sparse_indices", "Ncontext_sparse"),
        ("context_sparse_values", "context_sparse_types"),
        ("context_sparse_shapes", "Ncontext_sparse"), ("context_dense_values", "Tcontext_dense"),
        ("context_ragged_values", "context_ragged_value_types"),
        ("context_ragged_row_splits", "context_ragged_split_types"),
        ("feature_list_sparse_indices", "Nfeature_list_sparse"),
        ("feature_list_sparse_values", "feature_list_sparse_types"),
        ("feature_list_sparse_shapes", "Nfeature_list_sparse"),
        ("feature_list_dense_values", "feature_list_dense_types"),
        ("feature_list_dense_lengths", "Nfeature_list_dense"),
        ("feature_list_ragged_values", "feature_list_ragged_value_types"),
        ("feature_list_ragged_outer_splits", "feature_list_ragged_split_types"),
        ("feature_list_ragged_inner_splits", "feature_list_ragged_split_types"))}

_made = {}  # TF op name -> its raw op function
_kernel_state = {}  # (op, attrs, input dtypes) -> the eagerflow-only attrs of its eager kernel
_names = None


def op_names():
    """The sorted names of the ops TF has by the same name (``dir(tf.raw_ops)``)."""
    global _names
    if _names is None:
        for module in _LATE:
            importlib.import_module(module)
        _names = sorted(name for name, op in registry.all_ops().items()
                        if not name.startswith("_") and arg_names(op) is not None)
    return _names


def raw_op(name):
    """The raw op function of TF op `name`, or AttributeError if eagerflow lacks it."""
    fn = _made.get(name)
    if fn is not None:
        return fn
    op = registry.all_ops().get(name)  # (the late modules load only for an op not found)
    if op is not None and not name.startswith("_") and arg_names(op) is not None:
        fn = _made[name] = _make(op)
        return fn
    if name not in op_names():
        if name[:1].isupper():
            raise AttributeError(f"module 'eagerflow.raw_ops' has no attribute {name!r}: "
                                 f"eagerflow does not implement the op {name} yet")
        raise AttributeError(f"module 'eagerflow.raw_ops' has no attribute {name!r}")
    fn = _made[name] = _make(registry.get(name))
    return fn


# TF's Python functions of these ops take a leading underscore (Python's keywords and
# builtins, and ops TF's API hides), as its errors name them
_HIDDEN = frozenset(("abs", "all", "any", "assert", "clip_by_value", "complex",
                     "fused_batch_norm", "histogram_fixed_width", "if",
                     "max", "min", "pow", "print", "range", "slice", "sum", "while"))


def snake_case(name):
    """TF's Python name of op `name` (``MatMul`` -> ``mat_mul``, ``FFT2D`` -> ``fft2d``)."""
    snake = re.sub(r"(?<=[a-z])(?=[A-Z])|(?<=.)(?=[A-Z][a-z])", "_", name).lower()
    return "_" + snake if snake in _HIDDEN else snake


def _make(op_def):
    args = arg_names(op_def)
    keys = [a.lstrip("*") for a in args]
    python_name = snake_case(op_def.name)

    def fn(*positional, **kwargs):
        if positional:
            raise TypeError(f"{python_name} only takes keyword args (possible keys: "
                            f"{keys + ['name']}). Please pass these args as kwargs instead.")
        return _call(op_def, args, python_name, kwargs)
    fn.__name__ = fn.__qualname__ = python_name
    fn.__signature__ = inspect.Signature(
        [inspect.Parameter(k, inspect.Parameter.POSITIONAL_OR_KEYWORD) for k in keys]
        + [inspect.Parameter("name", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=None),
           inspect.Parameter("attrs", inspect.Parameter.VAR_KEYWORD)])
    fn.__doc__ = (f"TF's raw op {op_def.name}: ``tf.raw_ops.{op_def.name}("
                  f"{', '.join(f'{k}=...' for k in keys)}, <attrs>, name=None)``.")
    return fn


def _call(op_def, args, python_name, kwargs):
    name = kwargs.pop("name", None)
    missing = [a.lstrip("*") for a in args if a.lstrip("*") not in kwargs]
    # (TF's attrs without a default are required arguments too, after the inputs)
    missing += [attr for attr, (_, _, _, has_default) in ATTRS.get(op_def.name, {}).items()
                if not has_default and attr not in kwargs]
    if missing:
        quoted = [f"'{m}'" for m in missing]
        listed = quoted[0] if len(quoted) == 1 else \
            ", ".join(quoted[:-1]) + (", and " if len(quoted) > 2 else " and ") + quoted[-1]
        raise TypeError(f"{python_name}() missing {len(missing)} required positional "
                        f"argument{'s' * (len(missing) > 1)}: {listed}")
    values = [kwargs.pop(a.lstrip("*")) for a in args]
    try:
        kwargs = checked_attrs(op_def.name, kwargs, python_name, name)
    except errors.OpError as e:
        raise _listed(e, args, values) from None
    tensors = _tensors(op_def, args, values)
    renamed = _PYTHON_ATTRS.get(op_def.name, {})
    attrs = {renamed.get(k, k): _attr(k, v) for k, v in kwargs.items()}
    form = tf_nodes.get(op_def)
    for k in getattr(form, "functions", ()):
        if k in attrs:
            attrs[k] = _function_names(attrs[k])
    try:
        our_attrs, our_inputs = from_tf_node(op_def, attrs, tensors)
    except ValueError as e:  # (an input eagerflow takes as an attr, known only at run time)
        raise errors.UnimplementedError(None, op_def.name, f"{e} [Op:{op_def.name}]") from None
    local = getattr(form, "local", None)
    if local and context.get().graph is None:
        # TF runs an eager op by the kernel it keeps for the op's attrs and input dtypes: a
        # seeded random op's next call continues its stream
        key = (op_def.name, repr(sorted(attrs.items())), tuple(t.dtype for t, _ in tensors))
        our_attrs.update(_kernel_state.setdefault(key, {k: our_attrs[k] for k in local}))
    try:
        result = dispatch(op_def, our_inputs, our_attrs, name)
    except errors.InvalidArgumentError as e:
        # a keyword the op does not take, which the kernel refused: TF's TypeError
        unknown = re.search(r"unexpected keyword argument '(\w+)'", e.message or "")
        if unknown and unknown.group(1) in kwargs:
            raise TypeError(f"{python_name}() got an unexpected keyword argument "
                            f"'{unknown.group(1)}'") from None
        raise _listed(e, args, values) from None
    except errors.OpError as e:
        raise _listed(e, args, values) from None
    _check_output_types(op_def, form, attrs, result, tensors)
    return _outputs(op_def, result, our_attrs)


def _check_output_types(op_def, form, attrs, result, tensors):
    """TF's error for a type attr of an output (``Tout``) given other than the dtype the
    op's kernel for its inputs gives (ComplexAbs of complex128 as float32): TF has no
    kernel for it, where eagerflow's op takes the dtype from its inputs."""
    for attr, where in (getattr(form, "types", None) or {}).items():
        if not (isinstance(where, str) and where.startswith("out")) or attr not in attrs:
            continue
        out = result[int(where[3:])] if op_def.multi else result
        if out.dtype != attrs[attr]:
            given = {k: tensors[i][0].dtype for k, i in form.types.items()
                     if isinstance(i, int) and i < len(tensors)}
            given[attr] = attrs[attr]
            raise registry.no_kernel_error(op_def.name, given, (),
                                           graph=context.get().graph is not None)


def _listed(error, args, values):
    """`error` as TF raises it when an input was given as a Python list or string (not in a
    list input's list of tensors): its slower path, without the name (`errors.listed`)."""
    given = [x for a, v in zip(args, values)
             for x in (v if a.startswith("*") and isinstance(v, (list, tuple)) else [v])]
    return errors.listed(error, *given)


def _tensors(op_def, args, values):
    """TF's inputs as ``(tensor, constant value or None)`` pairs, list arguments flattened.

    Values that are not tensors take the dtype of a tensor given for an input of the same
    type attribute (``Mul(x=tensor, y=3)``), or else of the first of them, as TF's conversion
    does."""
    form = tf_nodes.get(op_def)
    specs = form.inputs if form is not None and form.inputs is not None else None
    tied = set(op_def.tied) | ({"*"} if op_def.variadic else set())
    flat = []  # (value, whether tied)
    for j, (arg, value) in enumerate(zip(args, values)):
        ours = specs[j] if specs is not None and j < len(specs) else j
        is_tied = ours in tied or (op_def.variadic and isinstance(ours, int))
        if arg.startswith("*"):
            if isinstance(value, (Tensor, np.ndarray)) or not isinstance(value, (list, tuple)):
                raise TypeError(f"Expected list for '{arg[1:]}' argument to "
                                f"'{op_def.name}' Op, not {value!r}.")
            flat += [(v, is_tied) for v in value]
        else:
            flat.append((value, is_tied))
    # (with no tensor among them, the first value converted sets the dtype of the others)
    hint = next((v.dtype for v, t in flat if t and isinstance(v, Tensor)), None)
    if hint is None and op_def.declared is not None and len(op_def.declared) == 1:
        hint = next(iter(op_def.declared))  # (TF's input of a fixed type: values take it)
    out = []
    for value, is_tied in flat:
        if isinstance(value, ResourceHandle):  # ``v.handle``: the variable, for a resource input
            variable = variable_of(value)
            # (as TF's, a handle outlives its variable object: then the handle itself, a
            # resource tensor, holds the variable's value)
            out.append((EagerTensor._wrap(value) if variable is None else variable, None))
            continue
        t = convert_to_tensor(value, dtype=hint if is_tied and not isinstance(value, Tensor)
                              else None)
        if is_tied and hint is None:
            hint = t.dtype
        out.append((t, _constant(t)))
    return out


def _constant(t):
    """What a NodeDef's constant input would give: the value, where known before running."""
    if isinstance(t, EagerTensor):
        return t._data if t.dtype.is_numpy_compatible else None
    if isinstance(t, SymbolicTensor) and t.dtype.is_numpy_compatible:
        return t.op.value if t.op.type == "Const" else t.static_value()
    return None


# TF's names of type attrs (``T``, ``DstT``, ``out_type``, ``output_dtype``), whose string
# values name dtypes (``DstT="float32"``)
_TYPE_ATTR = re.compile(r"^T|^SrcT$|^DstT$|type$|dtype$|^out_idx$")


def _attr(name, value):
    """An attr as GraphDef import reads it: dtypes as `DType`, lists as tuples."""
    if isinstance(value, list):
        return tuple(_attr(name, v) for v in value)
    if isinstance(value, (np.dtype, type)) or isinstance(value, str) and _TYPE_ATTR.search(name):
        try:
            return _d.as_dtype(value)
        except TypeError:
            return value
    return value


_bodies = weakref.WeakKeyDictionary()  # ConcreteFunction -> its library function


def _function_names(value):
    """A function attr: each `ConcreteFunction` (TF's raw ops take them) made a function of
    the library, by name, added to the graph being built if any."""
    if isinstance(value, tuple):
        return tuple(_function_names(v) for v in value)
    if not isinstance(value, ConcreteFunction):
        return value
    body = _bodies.get(value)
    if body is None:
        body = _bodies[value] = FunctionBody(value.name, value.graph, value.inputs,
                                             value.outputs)
    graph = context.get().graph
    if graph is not None:
        add_function(graph, body)
    return body.name


_tuples = {}


def _outputs(op_def, result, attrs):
    """TF's result: one tensor, a list for one list output, a namedtuple of several."""
    if not op_def.multi:
        return result
    form = tf_nodes.get(op_def)
    fields = getattr(form, "outputs", None)
    grouped = _LIST_OUTPUTS.get(op_def.name)
    if grouped is None and fields and not all(isinstance(f, str) for f in fields):
        # (a form's ``(name, attr)``: a list of outputs that attr counts)
        grouped = [(f, None) if isinstance(f, str) else f for f in fields]
    if grouped:
        fields, lists, start = [field for field, _ in grouped], [], 0
        for _, size in grouped:
            if size is None:
                lists.append(result[start])
                start += 1
                continue
            n = attrs[size] if isinstance(attrs[size], int) else len(attrs[size])
            lists.append(list(result[start:start + n]))
            start += n
        result = lists
    if fields and len(fields) > 1 and len(fields) == len(result):
        cls = _tuples.get(op_def.name)
        if cls is None:
            cls = _tuples[op_def.name] = collections.namedtuple(op_def.name, fields)
        return cls(*result)
    if result:
        return list(result)
    graph = context.get().graph  # (no outputs: the operation in a graph, as TF's, else None)
    return None if graph is None else graph.get_operations()[-1]

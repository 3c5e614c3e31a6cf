"""TF's one-line text of a graph node, ``{{node add}} = AddV2[T=DT_FLOAT](a, b)``, which its
shape errors quote.

The node is written in TF's form (its attrs and inputs as TF has them, which each op
declares where it is registered: see ``core.node_forms``): a static `Reshape` shape is
the input ``Reshape/shape``.

>>> node_text(graph.get_operation_by_name("add"))  # doctest: +SKIP
'{{node add}} = AddV2[T=DT_FLOAT](a, b)'
"""
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core.node_forms import tf_node
from eagerflow._src.core.registry import kernel_type_name


def _dtype_text(dtype):
    return "DT_" + kernel_type_name(dtype).upper()  # DT_FLOAT, DT_INT32


def _value_text(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, _d.DType):
        return _dtype_text(value)
    if isinstance(value, bytes):
        value = value.decode("utf-8", "backslashreplace")
    if isinstance(value, str):  # TF quotes strings and writes lists in brackets
        return f'"{value}"'
    if isinstance(value, (list, tuple)):
        return f"[{', '.join(map(_value_text, value))}]"
    return str(value)


def _input_name(t):
    op = getattr(t, "op", None)
    if op is None:  # a variable captured by reference
        return t.name.split(":")[0]
    return op.name if t.value_index == 0 else f"{op.name}:{t.value_index}"


def node_text(name, op_def, inputs, attrs):
    """The node `name` of `op_def` on `inputs` with `attrs`, as TF's messages write it."""
    typed = [t for t in inputs if hasattr(t, "dtype")]
    op_type, fields, tf_inputs, _ = tf_node(op_def, name, typed, attrs)
    names = [value if kind == "const" else f"{name}/Cast" if kind == "cast"
             else _input_name(typed[value]) for kind, value in tf_inputs]
    shown = ", ".join(f"{k}={_value_text(v)}" for k, v in sorted(fields.items())
                      if v is not None)
    return f"{{{{node {name}}}}} = {op_type}[{shown}]({', '.join(names)})"

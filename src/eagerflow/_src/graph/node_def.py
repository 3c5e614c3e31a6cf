"""TF's one-line text of a graph node, ``{{node add}} = AddV2[T=DT_FLOAT](a, b)``, which its
shape errors quote.

eagerflow holds some of TF's inputs as attrs (a static `Reshape` shape, a
`ConcatV2` axis) and leaves out attrs that only TF's kernels read; the table
below gives each such op TF's form.

>>> node_text(graph.get_operation_by_name("add"))  # doctest: +SKIP
'{{node add}} = AddV2[T=DT_FLOAT](a, b)'
"""
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core.registry import kernel_type_name


def _dtype_text(dtype):
    return "DT_" + kernel_type_name(dtype).upper()  # DT_FLOAT, DT_INT32


def _value_text(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, _d.DType):
        return _dtype_text(value)
    return str(value)


# Each form maps ``(node name, input names, attrs, inputs)`` to TF's attrs and input names.

def _attr_input(attr, index_attr, count=None):
    """An op holding TF's input `attr` as an attr: it becomes the input ``<node>/<attr>``,
    of dtype attr `index_attr` (and attr `count` says how many inputs come before it)."""
    def form(name, names, attrs, inputs):
        rest = {k: v for k, v in attrs.items() if k != attr}
        rest[index_attr] = _d.int32
        if count:
            rest[count] = len(names)
        return rest, [*names, f"{name}/{attr}"]
    return form


def _reduction(index, renamed=()):
    """A reduction holding TF's input `index` (``reduction_indices``) as attr ``axis``,
    with attrs `renamed` ``(ours, TF's)``."""
    form = _attr_input("axis", "Tidx")

    def reduction(name, names, attrs, inputs):
        if "axis" in attrs:
            attrs, names = form(name, names, attrs, inputs)
            names = [*names[:-1], f"{name}/{index}"]
        else:  # the axes are already an input, known only at run time
            attrs = {**attrs, "Tidx": inputs[-1].dtype}
        for ours, theirs in renamed:
            if ours in attrs:
                attrs[theirs] = attrs.pop(ours)
        return attrs, names
    return reduction


def _with(**extra):
    return lambda name, names, attrs, inputs: ({**attrs, **extra}, names)


_TF_FORMS = {
    "Reshape": _attr_input("shape", "Tshape"),
    "ConcatV2": _attr_input("axis", "Tidx", count="N"),
    "Pack": lambda name, names, attrs, inputs: ({**attrs, "N": len(names)}, names),
    "MatMul": _with(grad_a=False, grad_b=False),
    "BatchMatMulV2": _with(grad_x=False, grad_y=False),
    "Equal": _with(incompatible_shape_error=True),
    "NotEqual": _with(incompatible_shape_error=True),
    **{op: _reduction("reduction_indices", [("keepdims", "keep_dims")])
       for op in ("Sum", "Mean", "Prod", "Max", "Min", "Any", "All", "EuclideanNorm")},
    "ArgMax": _reduction("dimension"),
    "ArgMin": _reduction("dimension"),
    "InTopKV2": lambda name, names, attrs, inputs: ({**attrs, "T": inputs[1].dtype}, names),
}


def _input_name(t):
    op = getattr(t, "op", None)
    if op is None:  # a variable captured by reference
        return t.name.split(":")[0]
    return op.name if t.value_index == 0 else f"{op.name}:{t.value_index}"


def node_text(name, op_def, inputs, attrs):
    """The node `name` of `op_def` on `inputs` with `attrs`, as TF's messages write it."""
    names = [_input_name(t) for t in inputs]
    form = _TF_FORMS.get(op_def.name)
    if form is not None:
        attrs, names = form(name, names, attrs, inputs)
    fields = dict(attrs)
    if inputs and hasattr(inputs[0], "dtype"):
        fields.setdefault(op_def.type_attr, inputs[0].dtype)
    shown = ", ".join(f"{k}={_value_text(v)}" for k, v in sorted(fields.items()))
    return f"{{{{node {name}}}}} = {op_def.name}[{shown}]({', '.join(names)})"

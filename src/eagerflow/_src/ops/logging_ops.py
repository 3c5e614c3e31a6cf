"""Printing tensors: `print` (``tf.print``) and `format` (``tf.strings.format``).

Tensors are written as TensorFlow writes them: nested brackets without
commas, floats with the fewest of 6 or 9 significant digits (15 or 17 for
float64) that read back exactly, bools as 1/0, strings quoted and C-escaped,
and only the first and last `summarize` entries of each dimension.

>>> tf.strings.format("x = {}", [tf.constant(list(range(10)))])
<tf.Tensor: shape=(), dtype=string, numpy=b'x = [0 1 2 ... 7 8 9]'>
"""
import collections.abc
import sys
import time

import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import context
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core.convert import is_tensor_like
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.core.node_forms import NodeForm, tf_nodes
from eagerflow._src.core.node_forms import tf_args
from eagerflow._src.core.node_forms import tf_defaults
from eagerflow._src.core.registry import register, register_gradient, takes_narrow
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.core.registry import PER_ELEMENT, batching_rules
from eagerflow._src.ops import late
from eagerflow._src.ops.float_math import denormals_read_as_zero
from eagerflow._src.ops.wrappers import as_tensor

_NO_GRAD = "text output"


# -- formatting one tensor -------------------------------------------------------------------

def _float_text(value, digits, more_digits):
    """The shorter of `digits` or `more_digits` significant digits that reads back as `value`."""
    text = "%.*g" % (digits, value)
    return text if type(value)(float(text)) == value else "%.*g" % (more_digits, value)


_ESCAPES = {ord("\n"): "\\n", ord("\r"): "\\r", ord("\t"): "\\t", ord('"'): '\\"',
            ord("'"): "\\'", ord("\\"): "\\\\"}


def _string_text(value, errors="replace"):
    """A quoted string: quotes, backslashes and control bytes escaped (C style), the other
    bytes kept (non-ASCII ones decoded as UTF-8, invalid ones as `errors` says: with
    "surrogateescape" they come back as they were when the text is encoded so).
    """
    text, run = [], bytearray()  # run: pending non-ASCII bytes, decoded together
    for byte in value:
        if byte >= 0x80:
            run.append(byte)
            continue
        if run:
            text.append(run.decode("utf-8", errors))
            run.clear()
        escaped = _ESCAPES.get(byte)
        if escaped is None:
            escaped = "\\%03o" % byte if byte < 0x20 or byte == 0x7F else chr(byte)
        text.append(escaped)
    text.append(run.decode("utf-8", errors))
    return '"' + "".join(text) + '"'


def _element_formatter(dtype):
    """A function formatting one element of an array of NumPy `dtype`."""
    if dtype == np.float64:
        return lambda v: _float_text(v, 15, 17)
    if dtype.kind == "f" or dtype == _d.bfloat16.as_numpy_dtype:
        return lambda v: _float_text(np.float32(v), 6, 9)  # half types print as float32
    if dtype.kind == "b":
        return lambda v: "1" if v else "0"
    if dtype.kind in "iu":
        return str
    if dtype.kind == "O":  # (invalid UTF-8 kept as it is, as TF's text keeps the bytes)
        return lambda v: _string_text(v, "surrogateescape")
    if dtype in _NARROW:
        return str  # (ml_dtypes' scalars print as TF's: 6 significant digits, %g style)
    return None  # complex and other types have no text form


_NARROW = frozenset(np.dtype(d.as_numpy_dtype) for d in _d.NARROW)


def _dim_separator(depth, rank):
    """What separates the entries of dimension `depth`: a space in the innermost one, else
    newlines (more between larger blocks) and an indent."""
    if depth == rank - 1:
        return " "
    return "\n" * (rank - depth - 1) + " " * (depth + 1)


def tensor_text(array, summarize=3):
    """`array` as TensorFlow prints it, eliding all but `summarize` entries at each end of
    every dimension (-1: print everything).
    """
    array = denormals_read_as_zero(array)  # (TF's kernels print them as zeros)
    element = _element_formatter(array.dtype)
    keep = array.size if summarize < 0 else min(summarize, array.size)
    if element is None:  # a "?" per entry, the first `summarize` of the flat array only
        text = " ".join("?" * keep) + ("..." if keep < array.size else "")
        return text if array.ndim == 0 else "[" + text + "]"
    if array.ndim == 0:
        return element(array[()])
    rank = array.ndim

    def dim_text(block, depth):
        if depth == rank:
            return element(block)
        count, separator = block.shape[0], _dim_separator(depth, rank)
        text = separator.join(dim_text(block[i], depth + 1) for i in range(min(keep, count)))
        if count > 2 * keep:
            text += separator + "..."  # a separator even when nothing precedes it
        for i in range(max(keep, count - keep), count):
            text += separator + dim_text(block[i], depth + 1)
        return "[" + text + "]"

    return dim_text(array, 0)


# -- StringFormat ----------------------------------------------------------------------------

def _string_format(xp, *arrays, template, placeholder, summarize):
    pieces = template.split(placeholder)
    out = [pieces[0]]
    for array, piece in zip(arrays, pieces[1:]):
        out += [tensor_text(np.asarray(array), summarize), piece]
    return np.array("".join(out).encode("utf-8", "surrogateescape"), dtype=object)


_STRING_FORMAT = register(
    "StringFormat", _string_format, lambda *_, **__: (TensorShape([]), _d.string), tied=(),
    not_differentiable=_NO_GRAD)
tf_nodes[_STRING_FORMAT] = NodeForm(types={"T": "*"})
takes_narrow(_d.NARROW, _STRING_FORMAT)  # (tf.print of float8 and int4 tensors)
tf_args[_STRING_FORMAT] = ("*inputs",)
tf_defaults[_STRING_FORMAT] = {"template": "%s", "placeholder": "%s", "summarize": 3}


@export("strings.format")
def format(template, inputs, placeholder="{}", summarize=3, name=None):
    """A scalar string: `template` with each `placeholder` replaced by the text of one input.

    >>> tf.strings.format("{} and {}", ("a", 1))
    <tf.Tensor: shape=(), dtype=string, numpy=b'"a" and 1'>
    """
    if is_tensor_like(inputs):
        inputs = [inputs]
    tensors = [as_tensor(t) for t in inputs]
    wanted = template.count(placeholder)
    if wanted != len(tensors):
        raise ValueError(f"The template expects {wanted} tensors, but the inputs only has "
                         f"{len(tensors)}. Please ensure the number of placeholders in template "
                         f"matches inputs length.")
    attrs = {"template": template, "placeholder": placeholder, "summarize": int(summarize)}
    return dispatch(_STRING_FORMAT, tensors, attrs, name)


# -- PrintV2 ---------------------------------------------------------------------------------

def _write(xp, text, output_stream, end):
    line = text[()].decode("utf-8", "replace") + end
    if output_stream.startswith("file://"):
        with open(output_stream[len("file://"):], "a", encoding="utf-8") as f:
            f.write(line)
    else:  # the stream current now, so redirections of sys.stdout/stderr see it
        stream = sys.stdout if output_stream == "stdout" else sys.stderr
        stream.write(line)
        stream.flush()
    return ()


_PRINT = register("PrintV2", _write, lambda *_, **__: [], multi=True, tied=(), stateful=True,
                  dtypes=(_d.string,), not_differentiable=_NO_GRAD, replayable=True)
tf_defaults[_PRINT] = {"output_stream": "stderr", "end": "\n"}


def _stream_name(output_stream):
    """"stdout", "stderr" or "file://<path>" for `output_stream`; ValueError for others."""
    if output_stream is sys.stdout or output_stream is sys.__stdout__:
        return "stdout"
    if output_stream in (sys.stderr, sys.__stderr__, _DEFAULT_STREAM):
        return "stderr"
    if isinstance(output_stream, str) and output_stream.startswith("file://"):
        return output_stream
    raise ValueError(f"Unsupported output stream, logging level, or file.{output_stream}. "
                     f"Supported streams are sys.stdout, sys.stderr, tf.logging.info, "
                     f"tf.logging.warning, tf.logging.error. File needs to be in the form of "
                     f"'file://<filepath>'.")


class _Slot:
    """Stands for a tensor inside a printed structure: its repr is the placeholder, and
    making it records the tensor, so tensors are listed in the order they print.
    """

    def __init__(self, tensor, placeholder, printed):
        self._tensor, self._placeholder, self._printed = tensor, placeholder, printed

    def __repr__(self):
        self._printed.append(self._tensor)
        return self._placeholder


class _SparseText:
    """A SparseTensor inside printed values: TF shows it as a quoted string of its parts."""

    def __init__(self, *parts):
        self._parts = parts

    def __repr__(self):
        indices, values, shape = (repr(p) for p in self._parts)
        return f"'SparseTensor(indices={indices}, values={values}, shape={shape})'"


def _displayed(value, slot):
    """`value` with each tensor replaced by ``slot(tensor)`` and dict keys sorted, as TF
    shows structures."""
    if is_tensor_like(value):
        return slot(value)
    if isinstance(value, late.sparse_tensor.SparseTensor):
        return _SparseText(*(slot(t) for t in (value.indices, value.values, value.dense_shape)))
    if isinstance(value, collections.abc.Mapping):
        try:
            keys = sorted(value)
        except TypeError:  # keys of mixed types
            keys = sorted(value, key=repr)
        return {k: _displayed(value[k], slot) for k in keys}
    if isinstance(value, tuple) and hasattr(type(value), "_fields"):  # a namedtuple
        return type(value)(*(_displayed(v, slot) for v in value))
    if isinstance(value, (list, tuple)):
        return type(value)(_displayed(v, slot) for v in value)
    return value


def _placeholder(inputs):
    """A placeholder that no string among `inputs` contains."""
    text = repr(inputs)
    mark = "{}"
    while mark in text:
        mark = "{" + mark + "}"
    return mark


_DEFAULT_STREAM = sys.stderr


@export("print")
def print(*inputs, output_stream=_DEFAULT_STREAM, summarize=3, sep=" ", end="\n", name=None):
    """Prints `inputs` (tensors, strings, or structures of them) separated by `sep`.

    Strings print as they are, tensors as TensorFlow formats them (a lone scalar
    string tensor unquoted), other values as their repr (with the tensors inside
    formatted). Writes to sys.stderr by default.

    >>> tf.print("x:", tf.constant([1, 2]), output_stream=sys.stdout)
    x: [1 2]
    """
    stream = _stream_name(output_stream)
    if len(inputs) == 1 and is_tensor_like(inputs[0]):
        only = as_tensor(inputs[0])
        if only.dtype == _d.string and only.shape.rank == 0:  # printed as it is, unquoted
            dispatch(_PRINT, (only,), {"output_stream": stream, "end": end}, name)
            return _printed()
    text = line_text(inputs, summarize, sep)
    dispatch(_PRINT, (text,), {"output_stream": stream, "end": end}, name)
    return _printed()


def _printed():
    graph = context.get().graph
    if getattr(graph, "building_function", True) is False:
        return graph.get_operations()[-1]  # (in a TF 1 graph, the op: for control dependencies)
    return context.no_outputs()


def line_text(inputs, summarize=3, sep=" "):
    """The line `print` writes for `inputs` (a scalar string tensor): strings as they are,
    tensors as TF formats them, other values as their repr with their tensors formatted."""
    mark = _placeholder(inputs)
    tensors, parts = [], []
    for value in inputs:
        if is_tensor_like(value):
            tensors.append(as_tensor(value))
            parts.append(mark)
        elif isinstance(value, str):
            parts.append(value)
        else:
            parts.append(repr(_displayed(value, lambda t: _Slot(as_tensor(t), mark, tensors))))
    return format(sep.join(parts), tensors, placeholder=mark, summarize=summarize)


# -- Print (TF 1's) ---------------------------------------------------------------------------

def summarized_text(array, summarize):
    """`array` as TF 1's `Print` and a graph's `Assert` write it: its first `summarize`
    entries (-1: all) in nested brackets, ``...`` where entries were left out, strings
    escaped but unquoted."""
    array = denormals_read_as_zero(array)
    if array.dtype.kind == "O":
        # (escaped as tf.print's strings, without their quotes)
        element = lambda v: _string_text(v)[1:-1] if isinstance(v, bytes) else str(v)
    else:  # ("?" for the types without a text form, complex ones)
        element = _element_formatter(array.dtype) or (lambda v: "?")
    flat = array.reshape(-1)
    limit = flat.size if summarize < 0 else min(summarize, flat.size)
    cut = "..." if flat.size > limit else ""
    if array.ndim == 0:
        return " ".join(element(v) for v in flat[:limit]) + cut
    out, index = [], [0]

    def dim(depth):
        if index[0] >= limit:
            return
        if depth == array.ndim - 1:
            for i in range(array.shape[depth]):
                if index[0] >= limit:
                    if depth:
                        out.append("...")
                    return
                out.append((" " if i else "") + element(flat[index[0]]))
                index[0] += 1
            return
        for _ in range(array.shape[depth]):
            opened = index[0] < limit
            if opened:
                out.append("[")
            dim(depth + 1)
            if opened or index[0] < limit:
                out.append("]")
    dim(0)
    return "".join(out) + cut


class _PrintCount:
    """How many times one `Print` op has printed (for its `first_n`)."""

    def __init__(self):
        self.n = 0


def _print_v1(xp, input_, *data, message, first_n, summarize, counter):
    if first_n >= 0:
        if counter.n >= first_n:
            return input_
        counter.n += 1
    text = message + "".join(f"[{summarized_text(d, summarize)}]" for d in data)
    sys.stderr.write(text + "\n")
    sys.stderr.flush()
    return input_


_PRINT_V1 = register("Print", _print_v1, lambda x, *_, **__: (x.shape, x.dtype), stateful=True,
                     replayable=True)
tf_nodes[_PRINT_V1] = NodeForm(types={"T": 0, "U": "*1"}, local={"counter": _PrintCount},
                               defaults={"message": "", "first_n": -1, "summarize": 3})
tf_args[_PRINT_V1] = ("input", "*data")
register_gradient("Print")(lambda op, dy: [dy] + [None] * (len(op.inputs) - 1))


@export("compat.v1.Print")
def Print(input_, data, message=None, first_n=None, summarize=None, name=None):  # noqa: N802
    """`input_`, printing `message` and each tensor of `data` to stderr whenever it is
    computed (the first `first_n` times when given), each as its first `summarize` (3)
    entries in brackets (TF 1's ``tf.Print``; `print` replaces it).

    >>> tf.compat.v1.Print(tf.constant([1, 2]), [tf.constant([1.5, 2.0, 3.0, 4.0])], "x: ")
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([1, 2], dtype=int32)>
    """
    input_ = as_tensor(input_)
    data = [as_tensor(d) for d in data]
    attrs = {"message": message or "", "first_n": -1 if first_n is None else int(first_n),
             "summarize": 3 if summarize is None else int(summarize), "counter": _PrintCount()}
    return dispatch(_PRINT_V1, (input_, *data), attrs, name)


# No batching rule: a vectorized graph runs these once per batch element.
batching_rules.assign(PER_ELEMENT, _STRING_FORMAT)


def _timestamp(xp):
    return np.asarray(time.time(), np.float64)


_TIMESTAMP = register("Timestamp", _timestamp, lambda **_: (TensorShape([]), _d.float64),
                      tied=(), stateful=True, not_differentiable="a clock reading")
tf_args[_TIMESTAMP] = ()
tf_nodes[_TIMESTAMP] = NodeForm(outputs=("ts",))


@export("timestamp")
def timestamp(name=None):
    """Returns the current time as a float64 scalar: seconds since the Unix epoch.

    A stateful op: a `tf.function` reads the clock each time it runs.

    >>> tf.timestamp().dtype
    tf.float64
    """
    return dispatch(_TIMESTAMP, (), {}, name=name)

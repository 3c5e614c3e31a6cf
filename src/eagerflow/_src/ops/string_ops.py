"""String operations (`tf.strings`): joining, lengths, case, substrings, regular
expressions, number parsing and formatting.

String tensors are NumPy object arrays of `bytes`, and they always live on the
host: these kernels use NumPy directly and apply Python's bytes operations
element by element. Regular expressions follow RE2's conventions where Python's
`re` differs: ``\\d``, ``\\w`` and ``\\s`` are ASCII-only, and rewrites name groups
as ``\\1``.

>>> tf.strings.join([tf.constant(["a", "b"]), tf.constant(["c", "d"])], separator="-")
<tf.Tensor: shape=(2,), dtype=string, numpy=array([b'a-c', b'b-d'], dtype=object)>
>>> tf.strings.length(tf.constant(["abc", "é"]), unit="UTF8_CHAR")
<tf.Tensor: shape=(2,), dtype=int32, numpy=array([3, 1], dtype=int32)>
"""
import functools
import math
import operator
import re

import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import context
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import errors
from eagerflow._src.core.errors import shape_text
from eagerflow._src.core.convert import convert_input, convert_to_tensor
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.core.op_attrs import checked_attrs
from eagerflow._src.core.node_forms import AttrInput, NodeForm, tf_nodes
from eagerflow._src.core.node_forms import tf_args
from eagerflow._src.core.node_forms import tf_defaults
from eagerflow._src.core.registry import kernel_type_name, register
from eagerflow._src.core.tensor import Tensor
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.core.registry import PER_ELEMENT, batching_rules
from eagerflow._src.ops import shape_rules as rules
from eagerflow._src.ops.float_math import denormals_read_as_zero
from eagerflow._src.ops.reduction_ops import axis_attr, check_attr_dtype
from eagerflow._src.ops.wrappers import as_tensor, binary_operands
from eagerflow._src.ops import re2_syntax, unicode_scripts

_STRING = (_d.string,)
_NO_GRAD = "string op"


# --- helpers -------------------------------------------------------------------------------------

def _invalid(message):
    return errors.InvalidArgumentError(None, None, message)


def _map(fn, *arrays, dtype=object):
    """`fn` applied to every element of `arrays` (broadcast), as an array of `dtype`."""
    if len(arrays) == 1 and dtype is object and isinstance(arrays[0], np.ndarray):
        # (one `map` in C over a list: about half the time of a ufunc of Python calls)
        x = arrays[0]
        out = np.empty(x.size, object)
        out[:] = list(map(fn, x.reshape(-1).tolist()))
        return out.reshape(x.shape)
    out = np.asarray(np.frompyfunc(fn, len(arrays), 1)(*arrays), dtype=object)
    return out if dtype is object else out.astype(dtype)


def _strings(value):
    """`value` as a string tensor: Python values must convert to strings (TypeError if not)."""
    return convert_input(value, _d.string)


def _attr_bytes(value, name):
    """A string attr as bytes; TypeError for non-strings."""
    if isinstance(value, str):
        return value.encode("utf-8")
    if isinstance(value, bytes):
        return value
    raise TypeError(f"Expected string for argument '{name}' not {value!r}.")


def _checked_unit(op_name, unit, name, given):
    """`unit` checked as TF's op `op_name` checks it (`given`: the function's string input,
    its error without the name when a Python list, see `errors.listed`)."""
    try:
        return checked_attrs(op_name, {"unit": unit}, name=name).get("unit", "BYTE")
    except errors.OpError as e:
        raise errors.listed(e, given) from None


def _decode(s):
    return s.decode("utf-8", "surrogateescape")


def _encode(text):
    return text.encode("utf-8", "surrogateescape")


def _lengths(flat, unit):
    """Lengths of the bytes of 1-D object array `flat` in bytes or in UTF-8 characters."""
    sizes = np.fromiter(map(len, flat), np.int64, count=flat.size)
    if unit == "BYTE":
        return sizes
    # Characters are the bytes that do not continue a multi-byte sequence (0b10xxxxxx).
    data = np.frombuffer(b"".join(flat), np.uint8)
    starts = np.concatenate([np.zeros(1, np.int64), np.cumsum((data & 0xC0) != 0x80)])
    ends = np.cumsum(sizes)
    return starts[ends] - starts[ends - sizes]


# --- StringJoin, ReduceJoin ----------------------------------------------------------------------

def _string_join(xp, *arrays, separator):
    shaped = [a for a in arrays if a.ndim]
    for a in shaped[1:]:
        if a.shape != shaped[0].shape:
            raise _invalid(f"Input shapes do not match: {shape_text(shaped[0].shape)} vs. "
                           f"{shape_text(a.shape)}")
    return _map(lambda *parts: separator.join(parts), *arrays)


def _string_join_rule(*inputs, separator):
    shape = TensorShape([])
    for t in inputs:
        if t.shape.rank != 0:
            if shape.rank != 0 and not shape.is_compatible_with(t.shape) and \
                    not context.executing_eagerly():  # (eagerly the kernel says it)
                raise rules.shape_error("StringJoin", rules.merge_failure(shape, t.shape),
                                        [i.shape for i in inputs])
            shape = t.shape if shape.rank == 0 else shape.merge_with(t.shape)
    return shape, _d.string


_STRING_JOIN = register("StringJoin", _string_join, _string_join_rule, tied="all",
                        dtypes=_STRING, not_differentiable=_NO_GRAD)
tf_nodes[_STRING_JOIN] = NodeForm(number="N", byte_attrs={"separator"})
tf_args[_STRING_JOIN] = ("*inputs",)
tf_defaults[_STRING_JOIN] = {"separator": b""}


@export("strings.join")
def join(inputs, separator="", name=None):
    """Joins the strings of `inputs` element-wise with `separator`.

    Inputs are scalars or tensors of one shape; scalars repeat.

    >>> tf.strings.join(["x", tf.constant(["a", "b"])], separator=",")
    <tf.Tensor: shape=(2,), dtype=string, numpy=array([b'x,a', b'x,b'], dtype=object)>
    """
    separator = _attr_bytes(separator, "separator")
    if isinstance(inputs, Tensor):  # a tensor is the sequence of its rows
        return reduce_join(inputs, 0, separator=separator, name=name)
    given = inputs
    inputs = [convert_to_tensor(t, _d.string) for t in inputs]  # (TF's ValueError, if not)
    if not inputs:
        return as_tensor(b"")
    try:
        return dispatch(_STRING_JOIN, inputs, {"separator": separator}, name)
    except errors.OpError as e:  # (its name dropped where a Python list is given, as TF's)
        raise errors.listed(e, *given) from None


def _reduce_join(xp, x, axis, keepdims, separator):
    """Joins along `axis` in order: the first listed axis varies fastest in each group."""
    ndim = x.ndim
    axes = tuple(range(ndim - 1, -1, -1)) if axis is None else axis
    reduced = []
    for a in axes:
        if not -ndim <= a < ndim:
            raise errors.OutOfRangeError(None, None, f"Invalid reduction dimension {a} for "
                                                     f"input with {ndim} dimension(s)")
        if a % ndim in reduced:
            raise _invalid(f"Duplicate reduction dimension {a % ndim}")
        reduced.append(a % ndim)
    kept = [i for i in range(ndim) if i not in reduced]
    kept_shape = [x.shape[i] for i in kept]
    groups = np.transpose(x, kept + reduced[::-1]).reshape(
        int(np.prod(kept_shape, dtype=np.int64)), int(np.prod([x.shape[i] for i in reduced])))
    out = np.array([separator.join(g) for g in groups.tolist()], dtype=object)
    if keepdims:
        return out.reshape([1 if i in reduced else d for i, d in enumerate(x.shape)])
    return out.reshape(kept_shape)


_REDUCE_JOIN = register("ReduceJoin", _reduce_join, rules.reduction(), dtypes=_STRING,
                        not_differentiable=_NO_GRAD, reduction=True)
tf_nodes[_REDUCE_JOIN] = NodeForm(
    inputs=(0, AttrInput("axis", "reduction_indices", type_attr=None,
                         everything="reversed")),
    renamed={"keepdims": "keep_dims"}, byte_attrs={"separator"})
tf_args[_REDUCE_JOIN] = ("inputs", "reduction_indices")
tf_defaults[_REDUCE_JOIN] = {"keepdims": False, "separator": b""}


@export("strings.reduce_join")
def reduce_join(inputs, axis=None, keepdims=False, separator="", name=None):
    """Joins the strings of `inputs` across `axis` (None: all, in row-major order).

    Several axes join in the order given.

    >>> tf.strings.reduce_join(tf.constant([["a", "b"], ["c", "d"]]), axis=1, separator="-")
    <tf.Tensor: shape=(2,), dtype=string, numpy=array([b'a-b', b'c-d'], dtype=object)>
    """
    attrs = {"axis": axis_attr(axis), "keepdims": bool(keepdims),
             "separator": _attr_bytes(separator, "separator")}
    # (converted as it is: TF's op refuses what is not text, an empty list of floats too)
    return dispatch(_REDUCE_JOIN, (convert_to_tensor(inputs),), attrs, name)


# --- StringLength, StringLower, StringUpper, StringStrip -----------------------------------------

def _string_length(xp, x, unit):
    return _lengths(x.reshape(-1), unit).astype(np.int32).reshape(x.shape)


_STRING_LENGTH = register("StringLength", _string_length, rules.unary_to(_d.int32),
                          dtypes=_STRING, not_differentiable=_NO_GRAD, elementwise=True)
tf_args[_STRING_LENGTH] = ("input",)
tf_defaults[_STRING_LENGTH] = {"unit": "BYTE"}


@export("strings.length")
def length(input, unit="BYTE", name=None):
    """The length of each string, in bytes or (`unit="UTF8_CHAR"`) in characters.

    >>> tf.strings.length(tf.constant(["abc", "é"]))
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([3, 2], dtype=int32)>
    """
    unit = _checked_unit("StringLength", unit, name, input)
    return dispatch(_STRING_LENGTH, (_strings(input),), {"unit": unit}, name)


def _change_case(method):
    """ASCII-only without an encoding (as bytes methods are); full Unicode for utf-8."""
    def kernel(xp, x, encoding):
        if encoding == "":
            fn = getattr(bytes, method)
        elif encoding == "utf-8":  # (as ICU: up to a NUL, bad bytes as U+FFFD)
            def fn(s):
                text = s.split(b"\0", 1)[0].decode("utf-8", "replace")
                return _encode(getattr(text, method)())
        else:
            raise _invalid(f"only utf-8 or '' (no encoding) is supported, received {encoding}")
        return _map(fn, x)
    return kernel


_UNARY_STRING = rules.unary_to(_d.string)
_STRING_LOWER = register("StringLower", _change_case("lower"), _UNARY_STRING, dtypes=_STRING,
                         not_differentiable=_NO_GRAD, elementwise=True)
tf_args[_STRING_LOWER] = ("input",)
tf_defaults[_STRING_LOWER] = {"encoding": ""}
_STRING_UPPER = register("StringUpper", _change_case("upper"), _UNARY_STRING, dtypes=_STRING,
                         not_differentiable=_NO_GRAD, elementwise=True)
tf_args[_STRING_UPPER] = ("input",)
tf_defaults[_STRING_UPPER] = {"encoding": ""}
_STRING_STRIP = register("StringStrip", lambda xp, x: _map(bytes.strip, x), _UNARY_STRING,
                         dtypes=_STRING, not_differentiable=_NO_GRAD, elementwise=True)
tf_args[_STRING_STRIP] = ("input",)


@export("strings.lower")
def lower(input, encoding="", name=None):
    """Lower-cases each string (ASCII letters only unless `encoding="utf-8"`).

    >>> tf.strings.lower(tf.constant("AbC"))
    <tf.Tensor: shape=(), dtype=string, numpy=b'abc'>
    """
    return dispatch(_STRING_LOWER, (_strings(input),), {"encoding": encoding}, name)


@export("strings.upper")
def upper(input, encoding="", name=None):
    """Upper-cases each string (ASCII letters only unless `encoding="utf-8"`).

    >>> tf.strings.upper(tf.constant("AbC"))
    <tf.Tensor: shape=(), dtype=string, numpy=b'ABC'>
    """
    return dispatch(_STRING_UPPER, (_strings(input),), {"encoding": encoding}, name)


@export("strings.strip")
def strip(input, name=None):
    """Removes leading and trailing ASCII whitespace from each string.

    >>> tf.strings.strip(tf.constant(["  a b \\n"]))
    <tf.Tensor: shape=(1,), dtype=string, numpy=array([b'a b'], dtype=object)>
    """
    return dispatch(_STRING_STRIP, (_strings(input),), name=name)


# --- StringSplitV2 ------------------------------------------------------------------------------

_ASCII_SPACE = np.zeros(256, bool)
_ASCII_SPACE[list(b" \t\n\v\f\r")] = True  # what bytes.split() splits at


def _split_whitespace(x):
    """Each string's count of whitespace-separated tokens, and all the tokens in order: one
    split of the strings joined by spaces, counted per string with NumPy."""
    flat = x.tolist()
    joined = b" ".join(flat)
    data = _ASCII_SPACE[np.frombuffer(joined, np.uint8)]
    starts = ~data
    starts[1:] &= data[:-1]  # a token starts after whitespace (or at the very start)
    # (the tokens starting before each string's end, less those before the previous end)
    ends = np.cumsum(np.fromiter(map(len, flat), np.int64, count=len(flat)) + 1) - 1
    before = np.searchsorted(np.flatnonzero(starts), ends)
    return np.diff(before, prepend=0), joined.split()


# Bytes that are neither whitespace, nor changed by ASCII lower-casing: one absent from a
# batch of strings can join them, marking where each ends.
_SEPARATORS = [c for c in range(32) if not _ASCII_SPACE[c]]
TOKEN_PAD = 16  # zero bytes after the last token of `whitespace_tokens`' buffer


def whitespace_tokens(flat, lower=False, strip_pattern=None):
    """The tokens of the strings of list `flat`, split at runs of ASCII whitespace after
    (optionally) ASCII lower-casing them and deleting the matches of `strip_pattern`, as
    `StringLower` and `StaticRegexReplace` with an empty rewrite would, without one bytes
    object per token: ``(data, starts, lengths, counts)``, the uint8 buffer of all the
    strings (with `TOKEN_PAD` zero bytes after them), each token's start and length in it,
    and each string's number of tokens. None where that would not be exact: a pattern that
    is more than one class of ASCII characters, or no separator byte is free."""
    deleted = b""
    if strip_pattern is not None:
        deleted = _ascii_class(_attr_bytes(strip_pattern, "pattern"))
        if deleted is None:
            return None
    for sep in _SEPARATORS:
        if sep in deleted:
            continue
        sep = bytes([sep])
        joined = sep.join(flat)
        if joined.count(sep) == max(len(flat) - 1, 0):  # (in no string)
            break
    else:
        return None
    if lower:  # (one pass: deleting the bytes that lower-case into `deleted`, lower-casing)
        deleted = bytes(c for c in range(256) if _LOWER[c] in deleted)
    if lower or deleted:
        joined = joined.translate(_LOWER if lower else None, deleted)
    size = len(joined)
    data = np.frombuffer(joined + bytes(TOKEN_PAD), np.uint8)
    # (True at whitespace, at the separators and after the end, by a table)
    space = np.frombuffer(joined.translate(_space_table(sep[0])) + b"\x01" * (TOKEN_PAD + 1),
                          bool)
    first = np.empty(space.size, bool)  # where tokens start
    first[0] = not space[0]
    np.greater(space[:-1], space[1:], out=first[1:])
    starts = np.flatnonzero(first)
    ends = np.flatnonzero(space[1:] > space[:-1]) + 1
    # (each string's part of the buffer ends at its separator, or at the end)
    bounds = np.flatnonzero(data[:size] == sep[0])
    bounds = np.concatenate([np.zeros(1, np.intp), bounds + 1])
    counts = np.add.reduceat(first, bounds, dtype=np.int64) if len(flat) else \
        np.zeros(0, np.int64)
    return data, starts, ends - starts, counts


_LOWER = bytes(range(256)).lower()


@functools.lru_cache(maxsize=None)
def _space_table(sep):
    return bytes(1 if _ASCII_SPACE[c] or c == sep else 0 for c in range(256))


def _string_split(xp, x, sep, maxsplit):
    """Splits each string of vector `x`; the pieces as a sparse matrix (indices, values, shape).

    An empty `sep` splits on runs of whitespace, ignoring leading and trailing ones.
    """
    if x.ndim != 1:
        raise _invalid(f"input must be a vector, got shape: {shape_text(x.shape)}")
    if not sep and maxsplit == -1 and x.size:
        counts, tokens = _split_whitespace(x)
    else:
        pieces = [s.split(sep or None, maxsplit) for s in x] if sep or maxsplit < 0 else \
            [_split_spaces(s, maxsplit) for s in x]
        counts = np.fromiter(map(len, pieces), np.int64, count=len(pieces))
        tokens = [p for row in pieces for p in row]
    rows = np.repeat(np.arange(len(counts), dtype=np.int64), counts)
    starts = np.repeat(np.cumsum(counts) - counts, counts)
    cols = np.arange(rows.size, dtype=np.int64) - starts
    values = np.empty(rows.size, object)
    values[:] = tokens
    shape = np.array([len(counts), counts.max(initial=0)], np.int64)
    return np.stack([rows, cols], axis=1), values, shape


def _split_spaces(s, maxsplit):
    """`s` split on whitespace at most `maxsplit` (>= 0) times, as TF does: 0 keeps `s`
    whole, and the rest after the last split is a piece even when empty."""
    if not maxsplit:
        return [s]
    pieces = s.split(None, maxsplit)
    return pieces + [b""] if len(pieces) == maxsplit else pieces


def _string_split_rule(x, sep, maxsplit):
    return [(TensorShape([None, 2]), _d.int64), (TensorShape([None]), _d.string),
            (TensorShape([2]), _d.int64)]


_STRING_SPLIT = register("StringSplitV2", _string_split, _string_split_rule, multi=True,
                         dtypes=_STRING, not_differentiable=_NO_GRAD)
tf_nodes[_STRING_SPLIT] = NodeForm(inputs=(0, AttrInput("sep", type_attr=None, kind=bytes)),
                                   outputs=("indices", "values", "shape"))
tf_defaults[_STRING_SPLIT] = {"maxsplit": -1}


# --- Substr --------------------------------------------------------------------------------------

def _substr(xp, x, pos, size, unit):
    if pos.shape != size.shape:
        raise _invalid(f"pos and len should have the same shape, got: {shape_text(pos.shape)} "
                       f"vs. {shape_text(size.shape)}")
    try:
        x, pos, size = np.broadcast_arrays(x, pos, size)
    except ValueError:
        raise _invalid(f"Incompatible shapes: {shape_text(x.shape)} vs. "
                       f"{shape_text(pos.shape)}") from None
    if unit == "BYTE":
        lengths = _lengths(x.reshape(-1), unit).reshape(x.shape)
    else:
        bounds = np.empty(x.size, object)
        for i, text in enumerate(x.reshape(-1).tolist()):
            bounds[i] = _char_bounds(text)
        bounds = bounds.reshape(x.shape)
        lengths = np.fromiter(map(len, bounds.reshape(-1)), np.int64,
                              count=x.size).reshape(x.shape) - 1
    bad = (pos > lengths) | (pos < -lengths)
    if unit != "BYTE":  # (TF steps back from the end only for a length of 0 or more)
        bad |= (pos < 0) & (size < 0)
    bad = np.flatnonzero(bad)
    if bad.size:
        i = int(bad[0])
        # (TF writes the bytes as they are between b'...', not escaped)
        shown = f" b'{x.reshape(-1)[i].decode('utf-8', 'replace')}'" if unit == "BYTE" else ""
        raise _invalid(f"pos {int(pos.reshape(-1)[i])} out of range for string{shown} at "
                       f"index {i}")
    start = np.where(pos < 0, pos + lengths, pos)
    # (a negative length: the rest of the string in bytes, no characters in UTF8_CHAR)
    end = np.where(size < 0, lengths if unit == "BYTE" else start,
                   np.minimum(start + size, lengths))
    if unit == "BYTE":
        return _map(lambda s, a, b: s[a:b], x, start, end)
    return _map(lambda s, c, a, b: s[c[a]:c[b]], x, bounds, start, end)


def _char_bounds(s):
    """The byte offsets where the characters of `s` start, then its size: a character is
    a byte and the continuation bytes (0b10xxxxxx) after it, as TF's Substr steps through
    UTF-8 even where it is invalid."""
    if not s:
        return [0]
    data = np.frombuffer(s, np.uint8)
    starts = np.flatnonzero((data[1:] & 0xC0) != 0x80) + 1
    return [0, *starts.tolist(), len(s)]


def _substr_rule(x, pos, size, unit):
    if not context.executing_eagerly():  # (eagerly the kernel says what is wrong)
        _check_substr_graph_shapes(x, pos, size)
    return rules.broadcast_shapes(x.shape, pos.shape, "Substr"), _d.string


def _check_substr_graph_shapes(x, pos, size):
    """TF's shape function for Substr while a graph is built: `pos` and `len` have one
    rank and equal dims (an unknown dim equals no known one), and `pos` broadcasts
    with `input`."""
    shapes = [x.shape, pos.shape, size.shape]
    if pos.shape.rank is None:
        return
    if size.shape.rank is not None:
        if pos.shape.rank != size.shape.rank:
            raise rules.shape_error("Substr", f"Shape must be rank {size.shape.rank} but is "
                                    f"rank {pos.shape.rank}", shapes)
        if pos.shape.as_list() != size.shape.as_list():
            raise rules.shape_error(
                "Substr", f"pos and len shapes must match: {shape_text(pos.shape.as_list())} "
                f"vs. {shape_text(size.shape.as_list())}", shapes)
    if x.shape.rank is None:
        return
    a, b = x.shape.as_list(), pos.shape.as_list()
    n = max(len(a), len(b))
    for p, q in zip([1] * (n - len(a)) + a, [1] * (n - len(b)) + b):
        if 1 not in (p, q) and None not in (p, q) and p != q:
            raise rules.shape_error("Substr", f"Dimensions must be equal, but are {p} and {q}",
                                    shapes)


_SUBSTR = register("Substr", _substr, _substr_rule, tied=(1, 2), dtypes=(_d.int32, _d.int64),
                   not_differentiable=_NO_GRAD)
tf_nodes[_SUBSTR] = NodeForm(types={"T": 1})
tf_args[_SUBSTR] = ("input", "pos", "len")
tf_defaults[_SUBSTR] = {"unit": "BYTE"}


@export("strings.substr")
def substr(input, pos, len, unit="BYTE", name=None):
    """The substrings of `len` bytes (or UTF-8 characters) from `pos` of each string.

    Negative `pos` counts from the end; `len` past the end (or negative) takes the
    rest. `pos` and `len` have one shape, which broadcasts with `input`.

    >>> tf.strings.substr(tf.constant(["hello", "world"]), 1, 3)
    <tf.Tensor: shape=(2,), dtype=string, numpy=array([b'ell', b'orl'], dtype=object)>
    """
    unit = _checked_unit("Substr", unit, name, input)
    x = _strings(input)
    if x.dtype != _d.string:
        raise errors.InvalidArgumentError(
            None, None, "cannot compute Substr as input #0(zero-based) was expected to be a "
            f"string tensor but is a {kernel_type_name(x.dtype)} tensor [Op:Substr] name: ")
    start, size = binary_operands(pos, len)
    try:
        return dispatch(_SUBSTR, (x, start, size), {"unit": unit}, name)
    except errors.OpError as e:
        raise errors.listed(e, input, pos, len) from None


# --- regular expressions -------------------------------------------------------------------------

@functools.lru_cache(maxsize=256)
def _compile(pattern):
    """RE2's `pattern` (bytes) as a compiled Python regex matching what RE2 matches."""
    text = _decode(pattern)
    try:
        return re.compile(re2_syntax.translate(text))
    except (re.error, re2_syntax.Re2Error) as e:
        raise _invalid(f"Invalid pattern: {text}, error: {e}") from None


_REWRITE_TOKEN = re.compile(r"\\(\d)|\\(\\)|\\(.?)", re.S)


@functools.lru_cache(maxsize=256)
def _template(rewrite, groups):
    """RE2's `rewrite` (``\\N`` a group, ``\\\\`` a backslash) as a template of Python's `re`.

    None when it names a group the pattern lacks (RE2 then replaces nothing); any
    other escape makes RE2 replace matches with nothing.
    """
    invalid = []

    def convert(m):
        if m.group(1) is not None:
            if int(m.group(1)) > groups:
                invalid.append("group")
            return rf"\g<{m.group(1)}>"
        if m.group(2) is not None:
            return r"\\"
        invalid.append("escape")
        return ""
    template = _REWRITE_TOKEN.sub(convert, _decode(rewrite))
    if "group" in invalid:
        return None
    return "" if invalid else template


def _scalar(array, what):
    if array.ndim:
        raise _invalid(f"{what} must be scalar, but received {shape_text(array.shape)}")
    return array[()]


def _full_match(x, pattern):
    regex = _compile(pattern)
    return _map(lambda s: regex.fullmatch(_decode(s)) is not None, x, dtype=bool)


@functools.lru_cache(maxsize=64)
def _ascii_class(pattern):
    """The bytes `pattern` matches when it is one class of ASCII characters (``[,.!]``),
    else None: deleting them all is then `bytes.translate` (a multi-byte UTF-8 character
    holds no ASCII byte)."""
    regex = _compile(pattern)
    try:
        parsed = list(re._parser.parse(regex.pattern, regex.flags))
    except Exception:  # noqa: BLE001 - no parser of this Python: the general path
        return None
    if len(parsed) != 1 or parsed[0][0] not in (re._constants.IN, re._constants.LITERAL):
        return None
    items = parsed[0][1] if parsed[0][0] is re._constants.IN else [parsed[0]]
    for op, value in items:
        if not (op is re._constants.LITERAL and value < 128 or
                op is re._constants.RANGE and value[1] < 128):
            return None
    return bytes(c for c in range(128) if regex.fullmatch(chr(c)))


def _replace(x, pattern, rewrite, replace_global):
    regex = _compile(pattern)
    template = _template(rewrite, regex.groups)
    if template is None:
        return x
    if template == "" and replace_global:
        deleted = _ascii_class(pattern)
        if deleted is not None:
            return _map(operator.methodcaller("translate", None, deleted), x)
    count = 0 if replace_global else 1
    if not regex.search("") and "\\b" not in regex.pattern and "\\B" not in regex.pattern:
        # (no empty match: Python's replacing is RE2's)
        return _map(lambda s: _encode(regex.sub(template, _decode(s), count)), x)
    return _map(lambda s: _encode(re2_syntax.replace(regex, template, _decode(s), count)), x)


_STATIC_REGEX_FULL_MATCH = register(
    "StaticRegexFullMatch", lambda xp, x, pattern: _full_match(x, pattern),
    rules.unary_to(_d.bool), dtypes=_STRING, not_differentiable=_NO_GRAD, elementwise=True)
_REGEX_FULL_MATCH = register(
    "RegexFullMatch", lambda xp, x, pattern: _full_match(x, _scalar(pattern, "Pattern")),
    lambda x, pattern: (x.shape, _d.bool), tied=(0, 1), dtypes=_STRING,
    not_differentiable=_NO_GRAD)
tf_args[_REGEX_FULL_MATCH] = ("input", "pattern")
tf_nodes[_REGEX_FULL_MATCH] = NodeForm(outputs=("output",))
_STATIC_REGEX_REPLACE = register(
    "StaticRegexReplace",
    lambda xp, x, pattern, rewrite, replace_global: _replace(x, pattern, rewrite, replace_global),
    _UNARY_STRING, dtypes=_STRING, not_differentiable=_NO_GRAD, elementwise=True)
tf_nodes[_STATIC_REGEX_FULL_MATCH] = NodeForm(byte_attrs={"pattern"})
tf_args[_STATIC_REGEX_FULL_MATCH] = ("input",)
tf_nodes[_STATIC_REGEX_REPLACE] = NodeForm(byte_attrs={"pattern", "rewrite"})
tf_args[_STATIC_REGEX_REPLACE] = ("input",)
tf_defaults[_STATIC_REGEX_REPLACE] = {"replace_global": True}
_REGEX_REPLACE = register(
    "RegexReplace",
    lambda xp, x, pattern, rewrite, replace_global: _replace(
        x, _scalar(pattern, "Pattern"), _scalar(rewrite, "Rewrite"), replace_global),
    lambda x, pattern, rewrite, **_: (x.shape, _d.string), tied=(0, 1, 2), dtypes=_STRING,
    not_differentiable=_NO_GRAD)
tf_args[_REGEX_REPLACE] = ("input", "pattern", "rewrite")
tf_defaults[_REGEX_REPLACE] = {"replace_global": True}


def _is_text(value):
    return isinstance(value, (str, bytes))


@export("strings.regex_full_match")
def regex_full_match(input, pattern, name=None):
    """True where the whole string matches the regular expression `pattern`.

    >>> tf.strings.regex_full_match(tf.constant(["abc", "abcd"]), "a.c")
    <tf.Tensor: shape=(2,), dtype=bool, numpy=array([ True, False])>
    """
    x = _strings(input)
    try:
        if _is_text(pattern):
            attrs = {"pattern": _attr_bytes(pattern, "pattern")}
            return dispatch(_STATIC_REGEX_FULL_MATCH, (x,), attrs, name)
        return dispatch(_REGEX_FULL_MATCH, (x, _strings(pattern)), name=name)
    except errors.OpError as e:
        # (TF's static op takes the pattern as an attr: only the input decides the path)
        raise errors.listed(e, *((input,) if _is_text(pattern) else (input, pattern))) \
            from None


@export("strings.regex_replace")
def regex_replace(input, pattern, rewrite, replace_global=True, name=None):
    """Replaces the matches of `pattern` with `rewrite` (``\\1`` names a group).

    Only the first match of each string is replaced unless `replace_global`.

    >>> tf.strings.regex_replace(tf.constant(["ab12"]), r"(\\d)", r"<\\1>")
    <tf.Tensor: shape=(1,), dtype=string, numpy=array([b'ab<1><2>'], dtype=object)>
    """
    x = _strings(input)
    try:
        if _is_text(pattern) and _is_text(rewrite):
            attrs = {"pattern": _attr_bytes(pattern, "pattern"),
                     "rewrite": _attr_bytes(rewrite, "rewrite"),
                     "replace_global": bool(replace_global)}
            return dispatch(_STATIC_REGEX_REPLACE, (x,), attrs, name)
        return dispatch(_REGEX_REPLACE, (x, _strings(pattern), _strings(rewrite)),
                        {"replace_global": bool(replace_global)}, name)
    except errors.OpError as e:
        # (TF's static op takes the pattern as an attr: only the input decides the path)
        given = (input,) if _is_text(pattern) and _is_text(rewrite) else (
            input, pattern, rewrite)
        raise errors.listed(e, *given) from None


# --- StringToNumber, AsString --------------------------------------------------------------------

def _not_a_number(s):
    return _invalid(f"StringToNumberOp could not correctly convert string: "
                    f"{s.decode('utf-8', 'replace')}")


# C's strtod also reads a NaN with a payload in parentheses: "nan(123)", "-NAN(abc)".
_NAN_WITH_PAYLOAD = re.compile(rb"\s*([+-]?)nan\([0-9A-Za-z_]*\)\s*", re.IGNORECASE)


def nan_with_payload(text):
    """The NaN C's strtod reads from bytes `text` of the form ``nan(chars)``, else None."""
    found = _NAN_WITH_PAYLOAD.fullmatch(text)
    return None if found is None else float(found.group(1).decode() + "nan")


def _parse_float(s):
    """Like C's strtod: decimal or hex (0x...) floats, inf and nan, surrounding spaces."""
    if b"_" in s:  # Python accepts digit separators; C does not
        nan = nan_with_payload(s)
        if nan is None:
            raise _not_a_number(s)
        return nan
    try:
        return float(s)
    except ValueError:
        body = s.strip()
        if body.lstrip(b"+-")[:2].lower() == b"0x":
            try:
                return float.fromhex(body.decode("ascii"))
            except ValueError:
                pass
        nan = nan_with_payload(s)
        if nan is not None:
            return nan
        raise _not_a_number(s) from None


def _integer_parser(dtype):
    info = np.iinfo(dtype)

    def parse(s):
        if b"_" in s:
            raise _not_a_number(s)
        try:
            value = int(s)
        except ValueError:
            raise _not_a_number(s) from None
        if not info.min <= value <= info.max:
            raise _not_a_number(s)
        return value
    return parse


def _string_to_number(xp, x, out_type):
    target = np.dtype(out_type.as_numpy_dtype)
    parse = _parse_float if target.kind == "f" else _integer_parser(target)
    with np.errstate(over="ignore"):  # 1e300 as float32 is inf, silently
        return _map(parse, x, dtype=target)


_STRING_TO_NUMBER = register("StringToNumber", _string_to_number,
                             lambda x, out_type: (x.shape, out_type), dtypes=_STRING,
                             not_differentiable=_NO_GRAD)
tf_args[_STRING_TO_NUMBER] = ("string_tensor",)
tf_defaults[_STRING_TO_NUMBER] = {"out_type": _d.float32}
_NUMBER_TYPES = (_d.float32, _d.float64, _d.int32, _d.int64, _d.uint32, _d.uint64)


@export("strings.to_number")
def to_number(input, out_type=_d.float32, name=None):
    """Parses each string as a number of `out_type` (InvalidArgumentError if it is not one).

    >>> tf.strings.to_number(tf.constant(["1.5", " -2 ", "inf"]))
    <tf.Tensor: shape=(3,), dtype=float32, numpy=array([ 1.5, -2. ,  inf], dtype=float32)>
    """
    out_type = _d.as_dtype(out_type)
    check_attr_dtype("StringToNumber", "out_type", out_type, _NUMBER_TYPES)
    try:
        return dispatch(_STRING_TO_NUMBER, (_strings(input),), {"out_type": out_type}, name)
    except errors.OpError as e:
        raise errors.listed(e, input) from None


def _as_string(xp, x, precision, scientific, shortest, width, fill):
    """printf-style formatting: %d for integers, %f/%e/%g for floats, (re,im) for complex."""
    kind = x.dtype.kind
    if kind == "b":
        return _map(lambda v: b"true" if v else b"false", x)
    spec = "%" + fill + (str(width) if width >= 0 else "")
    if kind in "iu":
        fmt = spec + "d"
        return _map(lambda v: (fmt % v).encode(), x.astype(object))
    if kind == "O":  # (padded to `width` bytes, as C's %s pads: not characters)
        fmt = (spec + "s").encode()
        return _map(lambda v: fmt % (v if isinstance(v, bytes) else _encode(v)), x)
    fmt = spec + (f".{precision}" if precision >= 0 else "") + \
        ("e" if scientific else "g" if shortest else "f")
    x = denormals_read_as_zero(x)  # (TF's kernel prints them as zeros)
    # (C's printf pads inf and nan with spaces where Python's zero-fills them)
    spaced = fmt.replace("%0", "%", 1)

    def text(v):
        return (fmt if math.isfinite(v) else spaced) % v

    if kind == "c":
        return _map(lambda v: f"({text(v.real)},{text(v.imag)})".encode(),
                    x.astype(np.complex128))
    return _map(lambda v: text(v).encode(), x.astype(np.float64))


_AS_STRING = register("AsString", _as_string, _UNARY_STRING, tied=(),
                      not_differentiable=_NO_GRAD, elementwise=True)
tf_args[_AS_STRING] = ("input",)
tf_defaults[_AS_STRING] = {"precision": -1, "scientific": False, "shortest": False, "width": -1,
                           "fill": ""}
_FILLS = ("", " ", "+", "-", "0", "#")


def _as_string_attr_error(dtype, precision, scientific, shortest, fill):
    """What is wrong with `as_string`'s formatting attrs for `dtype`, or None."""
    if len(fill) > 1:
        return "Fill string must be one or fewer characters"
    if fill not in _FILLS:
        return f'Fill argument not supported: "{fill}"'
    if scientific and shortest:
        return "Cannot select both scientific and shortest notation"
    if dtype.is_floating or dtype.is_complex or dtype == _d.string:  # (strings ignore them)
        return None
    if scientific or shortest:
        return f"scientific and shortest format not supported for datatype {dtype.name}"
    if precision >= 0:
        return f"precision not supported for datatype {dtype.name}"
    return None


@export("strings.as_string", "as_string")
def as_string(input, precision=-1, scientific=False, shortest=False, width=-1, fill="",
              name=None):
    """Formats each element as a string, printf-style.

    Floats print with 6 decimals unless `precision`, `scientific` (%e) or
    `shortest` (%g) say otherwise; `width` pads, `fill` is a printf flag
    (" ", "0", "-", "+" or "#"). Booleans print as true/false.

    >>> tf.as_string(tf.constant([1.5, 2.0]), precision=2)
    <tf.Tensor: shape=(2,), dtype=string, numpy=array([b'1.50', b'2.00'], dtype=object)>
    """
    x = as_tensor(input)
    error = _as_string_attr_error(x.dtype, precision, scientific, shortest, fill)
    if error:  # (the kernel's check, in its form)
        raise errors.listed(errors.eager_error(errors.InvalidArgumentError, "AsString", error),
                            input)
    attrs = {"precision": int(precision), "scientific": bool(scientific),
             "shortest": bool(shortest), "width": int(width), "fill": fill}
    return dispatch(_AS_STRING, (x,), attrs, name)


# No batching rule: a vectorized graph runs these once per batch element.
batching_rules.assign(PER_ELEMENT, _STRING_JOIN, _STRING_SPLIT, _STRING_TO_NUMBER, _SUBSTR,
                      _REGEX_FULL_MATCH, _REGEX_REPLACE)


# --- UnicodeScript -----------------------------------------------------------------------------

_SCRIPT_TABLE = None


def _script_table():
    """(run starts, script codes) as arrays, decoded from `unicode_scripts` on first use."""
    global _SCRIPT_TABLE
    if _SCRIPT_TABLE is None:
        deltas, codes = zip(*(entry.split(":") for entry in unicode_scripts.RUNS.split()))
        starts = np.cumsum([int(d, 16) for d in deltas])
        _SCRIPT_TABLE = (starts, np.array([int(c, 16) for c in codes], np.int32))
    return _SCRIPT_TABLE


def _unicode_script(xp, x):
    starts, codes = _script_table()
    out = codes[np.searchsorted(starts, x, side="right") - 1]
    return np.where((x < 0) | (x > 0x10FFFF), np.int32(-1), out).astype(np.int32)


_UNICODE_SCRIPT = register("UnicodeScript", _unicode_script, rules.unary_to(_d.int32),
                           dtypes=(_d.int32,), not_differentiable=_NO_GRAD, elementwise=True)
tf_args[_UNICODE_SCRIPT] = ("input",)


@export("strings.unicode_script")
def unicode_script(input, name=None):
    """The ICU script code (UScriptCode) of each int32 Unicode code point; -1 for values that
    are not code points.

    >>> tf.strings.unicode_script([ord("a"), ord("Я"), ord("語"), ord("!"), -1])
    <tf.Tensor: shape=(5,), dtype=int32, numpy=array([25,  8, 17,  0, -1], dtype=int32)>
    """
    x = as_tensor(input) if hasattr(input, "dtype") else as_tensor(input, _d.int32)
    return dispatch(_UNICODE_SCRIPT, (x,), {}, name)

"""String functions whose results are ragged: `strings.split` of a tensor, `ngrams`,
`unicode_decode`, `unicode_split`, `bytes_split`.

>>> print(tf.strings.split(["a b", "c"]))
<tf.RaggedTensor [[b'a', b'b'], [b'c']]>
"""
import codecs
import re

import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import errors
from eagerflow._src.core import errors as errors_module
from eagerflow._src.core.convert import constant as _constant
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.core.node_forms import NodeForm, tf_args, tf_defaults, tf_nodes
from eagerflow._src.core.registry import PER_ELEMENT, batching_rules, kernel_type_name, register
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.core.tensor import Tensor
from eagerflow._src.ops import array_ops, cast_ops, shape_rules, string_ops
from eagerflow._src.ragged import ragged_ops
from eagerflow._src.ragged.ragged_tensor import RaggedTensor

_I64 = _d.int64
_NO_GRAD = "string op"


def _strings(value, name=None, to_op=False):
    """`value` as a string tensor (or ragged one), converted as TF's function converts it:
    a tensor of another dtype is a ValueError naming the argument `name`, a Python value
    that is not text a TypeError; `to_op`: converted as it is, for the op's type check to
    refuse (InvalidArgumentError), as TF's unicode functions do."""
    if isinstance(value, RaggedTensor):
        if value.dtype != _d.string and not to_op:
            raise ValueError(f"Tensor conversion requested dtype string for RaggedTensor with "
                             f"dtype {value.dtype.name}: {value!r}.")
        return value
    if to_op:
        return convert_to_tensor(value)
    return convert_to_tensor(value, _d.string, name=name)


def _over_rows(fn, input, *, dense_rank0=None, unknown_rank=None):
    """`fn` (1-D string tensor -> ragged) on `input`: a scalar gives `fn`'s one row, a ragged
    tensor or one of rank > 1 keeps its outer dims.  A rank unknown while tracing is TF's
    ValueError `unknown_rank`, or (None) taken for 1."""
    if isinstance(input, RaggedTensor):
        return input.with_flat_values(_over_rows(fn, input.flat_values,
                                                 unknown_rank=unknown_rank))
    rank = input.shape.rank
    if rank is None:
        if unknown_rank is not None:
            raise ValueError(unknown_rank)
        rank = 1
    if rank == 0:  # (one row: its values, whatever the row partition says)
        return fn(array_ops.reshape(input, [1])).values
    if rank == 1:
        return fn(input)
    result = fn(array_ops.reshape(input, [-1]))
    shape = array_ops.shape(input, out_type=_I64)
    for axis in range(rank - 1, 0, -1):
        result = RaggedTensor.from_uniform_row_length(result, shape[axis])
    return result


@export("strings.split")
def split(input, sep=None, maxsplit=-1, name=None):
    """Splits each string at `sep` (default: runs of whitespace): a scalar into a vector, a
    tensor of strings into ragged rows (one more dimension).

    >>> tf.strings.split(tf.constant("a b  c"))
    <tf.Tensor: shape=(3,), dtype=string, numpy=array([b'a', b'b', b'c'], dtype=object)>
    """
    input = _strings(input, "input")
    attrs = {"sep": b"" if sep is None else string_ops._attr_bytes(sep, "sep"),
             "maxsplit": int(maxsplit)}

    def rows(vector):
        indices, values, shape = dispatch(string_ops._STRING_SPLIT, (vector,), attrs, name)
        return RaggedTensor.from_value_rowids(values, indices[:, 0], shape[0], validate=False)
    return _over_rows(rows, input)


# -- UnicodeDecode -----------------------------------------------------------------------------
_CODECS = {"UTF-8": "utf-8", "UTF-16-BE": "utf-16-be", "UTF-32-BE": "utf-32-be",
           "UTF8": "utf-8", "UTF-16BE": "utf-16-be"}


_ERROR_MODES = ("strict", "replace", "ignore")
_OUTPUT_ENCODINGS = ("UTF-8", "UTF-16-BE", "UTF-32-BE")


def _check_allowed(attr, value, allowed, op_name):
    """TF's op-definition check of a string attr of `op_name` with a list of allowed
    values."""
    text = value.decode() if isinstance(value, bytes) else value
    if text not in allowed:
        listed = ", ".join(f'"{a}"' for a in allowed)
        raise errors.InvalidArgumentError(
            None, op_name, f'Value for attr \'{attr}\' of "{text}" is not in the list of '
                           f'allowed values: {listed}\n\t; NodeDef: {{{{node {op_name}}}}}; '
                           f'Op<name={op_name}> [Op:{op_name}]')


def _codec(encoding):
    name = encoding.decode() if isinstance(encoding, bytes) else str(encoding)
    codec = _CODECS.get(name.upper())
    if codec is None:  # other input encodings ICU knows (ISO-8859-1, US-ASCII, ...)
        try:
            codec = codecs.lookup(name).name
        except LookupError:
            codec = None
    if codec is None:
        raise errors.InvalidArgumentError(None, None, f"Could not create converter for input "
                                                      f"encoding: {name}")
    return codec


def _check_replacement_char(replacement_char):
    if not 0 <= replacement_char <= 0x10FFFF:
        raise errors.InvalidArgumentError(None, None,
                                          "replacement_char out of unicode codepoint range")


_SURROGATES = re.compile("[\ud800-\udfff]")


def _encoded(text, codec):
    """`text` in `codec`, as TF's ICU writes it: a surrogate (a replacement character
    can be one) is U+FFFD in UTF-8, and written as it is in UTF-16 and UTF-32."""
    if codec == "utf-8":
        return _SURROGATES.sub("\ufffd", text).encode(codec)
    return text.encode(codec, "surrogatepass")


# ICU's windows-1252 reads the five bytes the code page leaves undefined (0x81, 0x8D, 0x8F,
# 0x90, 0x9D) as the C1 control characters of the same number; Python's codec refuses them
_CP1252 = "".join(bytes([b]).decode("cp1252", "ignore") or chr(b) for b in range(256))


def _decoded(piece, codec):
    if codec == "cp1252":
        return "".join(_CP1252[b] for b in piece)
    return piece.decode(codec)


def _decode_one(s, codec, errors_mode, replacement_char, replace_control_characters):
    """The code points of bytes `s` and the byte offset of each. A UTF-16 high surrogate
    with only one byte after it ends the input as one cut-short character, as ICU reads it."""
    points, offsets, pos = [], [], 0
    unit = 2 if codec == "utf-16-be" else 4 if codec == "utf-32-be" else 1
    n = len(s)
    while pos < n:
        ok = False
        for size in ((1, 2, 3, 4) if unit == 1 else (unit, 2 * unit) if unit == 2 else (4,)):
            piece = s[pos:pos + size]
            try:
                text = _decoded(piece, codec)
            except UnicodeDecodeError:
                continue
            if len(text) == 1:
                cp = ord(text)
                if replace_control_characters and cp < 0x20:
                    if errors_mode == "ignore":  # (TF drops them then, as invalid bytes)
                        pos += size
                        ok = True
                        break
                    cp = replacement_char
                points.append(cp)
                offsets.append(pos)
                pos += size
                ok = True
                break
        if not ok:
            if errors_mode == "strict":
                raise errors.InvalidArgumentError(None, None,
                                                  "Invalid formatting on input string")
            if errors_mode == "replace":
                points.append(replacement_char)
                offsets.append(pos)
            pos += (_invalid_run(s, pos) if unit == 1 else
                    3 if unit == 2 and n - pos == 3 and 0xD8 <= s[pos] <= 0xDB else unit)
    return points, offsets


def _invalid_run(s, pos):
    """The bytes at `pos` that make one invalid UTF-8 sequence, as ICU (and Unicode's
    practice of maximal subparts) counts them: the longest start of a valid sequence (cut
    short), else the byte alone; a lead byte's second byte has its own range (no overlong
    forms, surrogates or code points past U+10FFFF)."""
    lead = s[pos]
    need, low, high = ((1, 0x80, 0xBF) if 0xC2 <= lead <= 0xDF else
                       (2, 0xA0, 0xBF) if lead == 0xE0 else
                       (2, 0x80, 0x9F) if lead == 0xED else
                       (2, 0x80, 0xBF) if 0xE1 <= lead <= 0xEF else
                       (3, 0x90, 0xBF) if lead == 0xF0 else
                       (3, 0x80, 0x8F) if lead == 0xF4 else
                       (3, 0x80, 0xBF) if 0xF1 <= lead <= 0xF3 else (0, 0, 0))
    if not need or pos + 1 >= len(s) or not low <= s[pos + 1] <= high:
        return 1
    n = 2
    while n <= need and pos + n < len(s) and 0x80 <= s[pos + n] <= 0xBF:
        n += 1
    return n


def _unicode_decode(xp, input, input_encoding, errors, replacement_char,
                    replace_control_characters, Tsplits=_I64, with_offsets=False):
    codec = _codec(input_encoding)
    _check_replacement_char(replacement_char)
    flat = np.asarray(input).reshape(-1)
    splits, points, offsets = [0], [], []
    for s in flat:
        p, o = _decode_one(bytes(s), codec, errors, replacement_char,
                           replace_control_characters)
        points.extend(p)
        offsets.extend(o)
        splits.append(len(points))
    out = (np.asarray(splits, Tsplits.as_numpy_dtype), np.asarray(points, np.int32))
    return out + (np.asarray(offsets, np.int64),) if with_offsets else out


def _unicode_decode_rule(input, **attrs):
    n = input.shape.num_elements()
    splits = TensorShape([None if n is None else n + 1])
    dtype = attrs.get("Tsplits", _I64)
    rule = [(splits, dtype), (TensorShape([None]), _d.int32)]
    return rule + [(TensorShape([None]), _I64)] if attrs.get("with_offsets") else rule


_UNICODE_DECODE = register("UnicodeDecode", _unicode_decode, _unicode_decode_rule, multi=True,
                           dtypes=(_d.string,), not_differentiable=_NO_GRAD)
_UNICODE_DECODE_OFFSETS = register(
    "UnicodeDecodeWithOffsets", lambda xp, input, **attrs: _unicode_decode(
        xp, input, with_offsets=True, **attrs),
    lambda input, **attrs: _unicode_decode_rule(input, with_offsets=True, **attrs),
    multi=True, dtypes=(_d.string,), not_differentiable=_NO_GRAD)
for _op in (_UNICODE_DECODE, _UNICODE_DECODE_OFFSETS):
    batching_rules[_op] = PER_ELEMENT
    tf_nodes[_op] = NodeForm(outputs=("row_splits", "char_values") + (
        ("char_to_byte_starts",) if _op is _UNICODE_DECODE_OFFSETS else ()))
    tf_defaults[_op] = {"errors": "replace", "replacement_char": 65533,
                        "replace_control_characters": False, "Tsplits": _I64}


def _decode(input, input_encoding, errors_mode, replacement_char, replace_control_characters,
            with_offsets, name):
    input = _strings(input, to_op=True)
    _check_allowed("errors", errors_mode, _ERROR_MODES,
                   "UnicodeDecodeWithOffsets" if with_offsets else "UnicodeDecode")
    attrs = {"input_encoding": input_encoding, "errors": errors_mode,
             "replacement_char": int(replacement_char),
             "replace_control_characters": bool(replace_control_characters), "Tsplits": _I64}

    def rows(vector):
        op = _UNICODE_DECODE_OFFSETS if with_offsets else _UNICODE_DECODE
        out = dispatch(op, (vector,), attrs, name)
        chars = RaggedTensor.from_row_splits(out[1], out[0], validate=False)
        if with_offsets:
            return chars, chars.with_values(out[2])
        return chars
    unknown = "Rank of `input` must be statically known."
    if with_offsets:
        codes = _over_rows(lambda v: rows(v)[0], input, unknown_rank=unknown)
        offsets = _over_rows(lambda v: rows(v)[1], input, unknown_rank=unknown)
        return codes, offsets
    return _over_rows(rows, input, unknown_rank=unknown)


@export("strings.unicode_decode")
def unicode_decode(input, input_encoding, errors="replace", replacement_char=65533,
                   replace_control_characters=False, name=None):
    """The code points (int32) of each string, as ragged rows.

    >>> print(tf.strings.unicode_decode(["hé", "a"], "UTF-8"))
    <tf.RaggedTensor [[104, 233], [97]]>
    """
    return _decode(input, input_encoding, errors, replacement_char, replace_control_characters,
                   False, name)


@export("strings.unicode_decode_with_offsets")
def unicode_decode_with_offsets(input, input_encoding, errors="replace",
                                replacement_char=65533, replace_control_characters=False,
                                name=None):
    """`unicode_decode`'s code points and the byte offset where each character starts."""
    return _decode(input, input_encoding, errors, replacement_char, replace_control_characters,
                   True, name)


# -- UnicodeTranscode -------------------------------------------------------------------------
def _unicode_transcode(xp, input, input_encoding, output_encoding, errors, replacement_char,
                       replace_control_characters):
    source, target = _codec(input_encoding), _codec(output_encoding)
    _check_replacement_char(replacement_char)
    out = np.empty(np.shape(input), object)
    flat = out.reshape(-1)
    for i, s in enumerate(np.asarray(input, object).reshape(-1)):
        points, _ = _decode_one(bytes(s), source, errors, replacement_char,
                                replace_control_characters and errors != "strict")
        if errors == "strict" and replace_control_characters and min(points, default=32) < 32:
            # (transcoding strictly, a control character is invalid input)
            raise errors_module.InvalidArgumentError(None, None,
                                                     "Invalid formatting on input string")
        flat[i] = _encoded("".join(map(chr, points)), target)
    return out


_UNICODE_TRANSCODE = register("UnicodeTranscode", _unicode_transcode,
                              lambda input, **_: (input.shape, _d.string), dtypes=(_d.string,),
                              not_differentiable=_NO_GRAD, elementwise=True)
tf_args[_UNICODE_TRANSCODE] = ("input",)
tf_defaults[_UNICODE_TRANSCODE] = {"errors": "replace", "replacement_char": 65533,
                                   "replace_control_characters": False}


@export("strings.unicode_transcode")
def unicode_transcode(input, input_encoding, output_encoding, errors="replace",
                      replacement_char=65533, replace_control_characters=False, name=None):
    """Each string re-encoded from `input_encoding` into `output_encoding` (UTF-8,
    UTF-16-BE or UTF-32-BE); invalid input is replaced, dropped or an error, as `errors` says.

    >>> tf.strings.unicode_transcode("h\u00e9", "UTF-8", "UTF-16-BE").numpy()
    b'\\x00h\\x00\\xe9'
    """
    _check_allowed("output_encoding", output_encoding, _OUTPUT_ENCODINGS, "UnicodeTranscode")
    _check_allowed("errors", errors, _ERROR_MODES, "UnicodeTranscode")
    attrs = {"input_encoding": input_encoding, "output_encoding": output_encoding,
             "errors": errors, "replacement_char": int(replacement_char),
             "replace_control_characters": bool(replace_control_characters)}
    # (a tensor goes to the op as it is; a Python value converts to strings)
    given, input = input, _strings(input, to_op=isinstance(input, (Tensor, RaggedTensor)))
    try:
        if isinstance(input, RaggedTensor):
            return input.with_flat_values(dispatch(_UNICODE_TRANSCODE, (input.flat_values,),
                                                   attrs, name))
        return dispatch(_UNICODE_TRANSCODE, (input,), attrs, name)
    except errors_module.OpError as e:  # (TF's slower path for Python values: no name)
        raise errors_module.listed(e, given) from None


def _substrings(input, starts, limits):
    """The substrings ``input[row][starts:limits]`` (bytes), as ragged rows of starts."""
    rows = starts.value_rowids()
    owners = array_ops.gather(input, rows)
    pieces = string_ops.substr(owners, starts.values, limits.values - starts.values)
    return starts.with_values(pieces)


@export("strings.unicode_split")
def unicode_split(input, input_encoding, errors="replace", replacement_char=65533, name=None):
    """Each string cut into its characters, each encoded in `input_encoding` (an invalid
    sequence as `replacement_char`, with ``errors="replace"``).

    >>> print(tf.strings.unicode_split(["h\u00e9"], "UTF-8"))
    <tf.RaggedTensor [[b'h', b'\xc3\xa9']]>
    """
    codes = unicode_decode(input, input_encoding, errors, replacement_char, False, name)
    if isinstance(codes, RaggedTensor):
        return codes.with_flat_values(_encode_each(codes.flat_values, input_encoding))
    return _encode_each(codes, input_encoding)


@export("strings.unicode_split_with_offsets")
def unicode_split_with_offsets(input, input_encoding, errors="replace", replacement_char=65533,
                               name=None):
    """`unicode_split`'s characters and the byte offset where each starts in its string.

    >>> chars, starts = tf.strings.unicode_split_with_offsets(["h\u00e9!"], "UTF-8")
    >>> starts.to_list()
    [[0, 1, 3]]
    """
    codes, offsets = unicode_decode_with_offsets(input, input_encoding, errors,
                                                 replacement_char, False, name)
    if isinstance(codes, RaggedTensor):
        return codes.with_flat_values(_encode_each(codes.flat_values, input_encoding)), offsets
    return _encode_each(codes, input_encoding), offsets


def _encode_each(points, encoding):
    """Each code point of vector `points` as a string of its own."""
    _check_allowed("output_encoding", encoding, _OUTPUT_ENCODINGS, "UnicodeEncode")
    n = array_ops.size(points, out_type=_I64)
    return dispatch(_UNICODE_ENCODE, (points, ragged_ops.range(n + 1).values),
                    {"output_encoding": encoding, "errors": "replace",
                     "replacement_char": 65533})


# -- UnicodeEncode ----------------------------------------------------------------------------
def _unicode_encode(xp, input_values, input_splits, output_encoding, errors, replacement_char):
    codec = _codec(output_encoding)
    _check_replacement_char(replacement_char)
    points = np.asarray(input_values).reshape(-1)
    splits = np.asarray(input_splits).reshape(-1)
    out = np.empty(max(splits.size - 1, 0), object)
    for i, (a, b) in enumerate(zip(splits[:-1], splits[1:])):
        chars = []
        for cp in points[a:b]:
            cp = int(cp)
            if not (0 <= cp <= 0x10FFFF) or 0xD800 <= cp <= 0xDFFF:
                if errors == "strict":
                    raise errors_module.InvalidArgumentError(
                        None, None, "Code point is out of range for Unicode, or is a "
                                    "surrogate.")
                if errors == "ignore":
                    continue
                cp = replacement_char
            chars.append(chr(cp))
        out[i] = _encoded("".join(chars), codec)
    return out


def _unicode_encode_rule(input_values, input_splits, **attrs):
    n = input_splits.shape[0] if input_splits.shape.rank else None
    return TensorShape([None if n is None else n - 1]), _d.string


_UNICODE_ENCODE = register("UnicodeEncode", _unicode_encode, _unicode_encode_rule,
                           tied=(1,), dtypes=(_d.int32, _d.int64), type_attr="Tsplits",
                           not_differentiable=_NO_GRAD)
batching_rules[_UNICODE_ENCODE] = PER_ELEMENT
tf_nodes[_UNICODE_ENCODE] = NodeForm(types={"Tsplits": 1})
tf_args[_UNICODE_ENCODE] = ("input_values", "input_splits")
tf_defaults[_UNICODE_ENCODE] = {"errors": "replace", "replacement_char": 65533}


@export("strings.unicode_encode")
def unicode_encode(input, output_encoding, errors="replace", replacement_char=65533,
                   name=None):
    """The strings of code points `input` (int32; its innermost dimension, ragged or not,
    holds one string's characters) encoded in `output_encoding`.

    >>> tf.strings.unicode_encode([104, 233], "UTF-8").numpy()
    b'h\xc3\xa9'
    """
    _check_allowed("errors", errors, _ERROR_MODES, "UnicodeEncode")
    _check_allowed("output_encoding", output_encoding, _OUTPUT_ENCODINGS, "UnicodeEncode")
    attrs = {"output_encoding": output_encoding, "errors": errors,
             "replacement_char": int(replacement_char)}
    dtype = getattr(input, "dtype", _d.int32)
    if dtype != _d.int32:  # (code points are int32 only, ragged or not)
        raise errors_module.InvalidArgumentError(
            None, None, f"cannot compute UnicodeEncode as input #0(zero-based) was expected to "
                        f"be a int32 tensor but is a {kernel_type_name(dtype)} tensor "
                        f"[Op:UnicodeEncode] name: ")
    if isinstance(input, RaggedTensor):
        if isinstance(input.values, RaggedTensor):
            return input.with_values(unicode_encode(input.values, output_encoding, errors,
                                                    replacement_char, name))
        if input.values.shape.rank == 1:
            return dispatch(_UNICODE_ENCODE, (input.values, input.row_splits), attrs, name)
        return input.with_values(unicode_encode(input.values, output_encoding, errors,
                                                replacement_char, name))
    input = convert_to_tensor(input, _d.int32)
    rank = input.shape.rank
    if rank is None:
        raise ValueError("Rank of input_tensor must be statically known.")
    if rank == 0:
        raise ValueError("input_tensor's rank must be at least 1.")
    if rank == 1:
        n = array_ops.size(input, out_type=_I64)
        splits = array_ops.stack([array_ops.zeros([], _I64), n])
        return array_ops.reshape(dispatch(_UNICODE_ENCODE, (input, splits), attrs, name), [])
    return unicode_encode(RaggedTensor.from_tensor(input, ragged_rank=rank - 1),
                          output_encoding, errors, replacement_char, name).to_tensor() \
        if rank > 2 else _dense_rows_encoded(input, attrs, name)


def _dense_rows_encoded(input, attrs, name):
    rt = RaggedTensor.from_tensor(input)
    return dispatch(_UNICODE_ENCODE, (rt.values, rt.row_splits), attrs, name)


@export("strings.bytes_split")
def bytes_split(input, name=None):
    """Each string cut into its bytes.

    >>> tf.strings.bytes_split("abc").numpy().tolist()
    [b'a', b'b', b'c']
    """
    input = _strings(input)

    def rows(vector):
        lengths = cast_ops.cast(string_ops.length(vector), _I64)
        starts = ragged_ops.range(lengths)
        return _substrings(vector, starts, starts + 1)
    return _over_rows(rows, input, unknown_rank="input must have a statically-known rank.")


# -- StringNGrams ------------------------------------------------------------------------------
def _string_ngrams(xp, data, data_splits, separator, ngram_widths, left_pad, right_pad,
                   pad_width, preserve_short_sequences):
    splits = np.asarray(data_splits)
    data = np.asarray(data)
    if splits.size and (splits[0] != 0 or splits[-1] != data.size or (np.diff(splits) < 0).any()):
        raise errors.InvalidArgumentError(None, "StringNGrams",
                                          "Invalid split value in data_splits")
    sep = separator
    out, out_splits = [], [0]
    for a, b in zip(splits[:-1], splits[1:]):
        tokens = list(data[a:b])
        row = []
        for w in ngram_widths:
            pad = min(pad_width if pad_width >= 0 else w - 1, w - 1)
            padded = [left_pad] * pad + tokens + [right_pad] * pad
            row.extend(sep.join(padded[i:i + w]) for i in range(len(padded) - w + 1))
        if not row and preserve_short_sequences and tokens:
            pad = max(0, min(pad_width if pad_width >= 0 else 1, 1))
            row.append(sep.join([left_pad] * pad + tokens + [right_pad] * pad))
        out.extend(row)
        out_splits.append(len(out))
    values = np.empty(len(out), object)
    values[:] = out
    return values, np.asarray(out_splits, splits.dtype)


def _string_ngrams_rule(data, data_splits, **attrs):
    return [(TensorShape([None]), _d.string), (data_splits.shape, data_splits.dtype)]


_STRING_NGRAMS = register("StringNGrams", _string_ngrams, _string_ngrams_rule, multi=True,
                          tied=(1,), dtypes=(_d.int32, _d.int64), type_attr="Tsplits",
                          not_differentiable=_NO_GRAD)
batching_rules[_STRING_NGRAMS] = PER_ELEMENT
tf_nodes[_STRING_NGRAMS] = NodeForm(types={"Tsplits": 1}, outputs=("ngrams", "ngrams_splits"),
                                    byte_attrs=("separator", "left_pad", "right_pad"))
tf_args[_STRING_NGRAMS] = ("data", "data_splits")


@export("strings.ngrams")
def ngrams(data, ngram_width, separator=" ", pad_values=None, padding_width=None,
           preserve_short_sequences=False, name=None):
    """The n-grams (joined with `separator`) of the innermost dimension of `data`, for each
    width in `ngram_width`.

    >>> tf.strings.ngrams(["a", "b", "c"], 2).numpy().tolist()
    [b'a b', b'b c']
    """
    widths = [ngram_width] if isinstance(ngram_width, int) else list(ngram_width)
    if any(w < 1 for w in widths):
        raise ValueError(f"All ngram_widths must be greater than 0. Got {ngram_width}")
    if pad_values is None:
        if padding_width is not None:
            raise ValueError("pad_values must be provided if padding_width is set.")
        left = right = b""
        pad = 0
    else:
        text = (str, bytes)
        if isinstance(pad_values, (tuple, list)):  # (as TF: the first two, by index)
            left, right = pad_values[0], pad_values[1]
        else:
            left = right = pad_values
        if not (isinstance(left, text) and isinstance(right, text)):
            raise TypeError("pad_values must be a string, tuple of strings, or None.")
        pad = -1 if padding_width is None else int(padding_width)
        if padding_width is not None and padding_width < 1:
            raise ValueError("padding_width must be greater than 0.")
    as_bytes = (lambda v: v.encode() if isinstance(v, str) else bytes(v))
    attrs = {"separator": as_bytes(separator), "ngram_widths": tuple(widths),
             "left_pad": as_bytes(left), "right_pad": as_bytes(right), "pad_width": pad,
             "preserve_short_sequences": bool(preserve_short_sequences)}

    def on(rt):
        if isinstance(rt.values, RaggedTensor):
            return rt.with_values(on(rt.values))
        values, splits = dispatch(_STRING_NGRAMS, (rt.values, rt.row_splits), attrs, name)
        return RaggedTensor.from_row_splits(values, splits, validate=False)
    if isinstance(data, RaggedTensor):
        return on(data)
    data = _strings(data, "data")
    rank = data.shape.rank
    if rank is None:
        raise ValueError("Rank of data must be known.")
    if rank == 0:
        raise ValueError("Data must have rank>0")
    if rank == 1:
        return on(RaggedTensor.from_tensor(array_ops.expand_dims(data, 0))).values
    return on(RaggedTensor.from_tensor(data, ragged_rank=rank - 1)).to_tensor()


# -- UnsortedSegmentJoin ------------------------------------------------------------------------
def _unsorted_segment_join(xp, inputs, segment_ids, num_segments, separator):
    inputs = np.asarray(inputs)
    ids = np.asarray(segment_ids)
    num_segments = np.asarray(num_segments)
    if num_segments.size == 0:
        raise errors.InvalidArgumentError(None, None, "Number of segments cannot be empty.")
    if num_segments.ndim:
        raise errors.InvalidArgumentError(None, None, "Number of segments must be a scalar")
    n = int(num_segments)
    if n < 0:
        raise errors.InvalidArgumentError(
            None, None, f"Number of segments must be non-negative but got {n}")
    if ids.ndim == 0:
        raise errors.InvalidArgumentError(None, None, "Segment_id cannot have rank 0")
    if ids.ndim > inputs.ndim:
        raise errors.OutOfRangeError(
            None, None, f"Invalid segment_id rank {ids.ndim} for input with {inputs.ndim} "
                        f"dimension(s)")
    for axis, (size, data_size) in enumerate(zip(ids.shape, inputs.shape)):
        if size != data_size:  # (TF's text gives the input's rank as its "dimension")
            raise errors.InvalidArgumentError(
                None, None, f"Segment dimension is {size} while input dimension is "
                            f"{inputs.ndim} in rank {axis}")
    ids = ids.reshape(-1)
    if ids.size and (ids.min() < 0 or ids.max() >= n):
        raise errors.InvalidArgumentError(
            None, None, "segment_ids are not allowed to exceed num_segments or to have "
                        "negative values.")
    inner = inputs.shape[segment_ids.ndim:]
    width = int(np.prod(inner, dtype=np.int64))
    rows = inputs.reshape((ids.size, width))  # (no data: each segment's strings are empty)
    pieces = [[[] for _ in range(width)] for _ in range(n)]
    for row, i in zip(rows, ids):
        for j in range(width):
            pieces[i][j].append(row[j])
    out = np.empty((n, width), object)
    for i in range(n):
        for j in range(width):
            out[i, j] = _join_after_text(pieces[i][j], separator)
    return out.reshape((n,) + tuple(inner))


def _join_after_text(parts, separator):
    """`parts` joined as TF's segment join does: the separator goes in only once some text
    has (leading empty strings leave none: "", "a" give "a")."""
    out = b""
    for part in parts:
        out = out + separator + part if out else part
    return out


def _unsorted_segment_join_rule(inputs, segment_ids, num_segments, separator):
    shapes = [inputs.shape, segment_ids.shape, num_segments.shape]
    shape_rules.check_rank("UnsortedSegmentJoin", [inputs, segment_ids, num_segments], 2, 0)
    if segment_ids.shape.rank is None:
        return TensorShape(None), _d.string
    if inputs.shape.rank is not None:
        shape_rules.merge_prefix("UnsortedSegmentJoin", inputs.shape, segment_ids.shape, shapes)
    known = shape_rules.known_value(num_segments)
    first = None if known is None else int(known)
    if first is not None and first < 0:
        raise shape_rules.shape_error(
            "UnsortedSegmentJoin", f"Dimension size, given by scalar input 2, must be "
                                   f"non-negative but is {first}", shapes, computed=[(2, first)])
    if inputs.shape.rank is None:
        return TensorShape(None), _d.string
    return TensorShape([first]).concatenate(inputs.shape[segment_ids.shape.rank:]), _d.string


_UNSORTED_SEGMENT_JOIN = register(
    "UnsortedSegmentJoin", _unsorted_segment_join, _unsorted_segment_join_rule,
    tied=(1,), dtypes=(_d.int32, _d.int64), type_attr="Tindices", not_differentiable=_NO_GRAD)
batching_rules[_UNSORTED_SEGMENT_JOIN] = PER_ELEMENT
tf_nodes[_UNSORTED_SEGMENT_JOIN] = NodeForm(types={"Tindices": 1, "Tnumsegments": 2},
                                            byte_attrs=("separator",))
tf_args[_UNSORTED_SEGMENT_JOIN] = ("inputs", "segment_ids", "num_segments")
tf_defaults[_UNSORTED_SEGMENT_JOIN] = {"separator": b""}


@export("strings.unsorted_segment_join")
def unsorted_segment_join(inputs, segment_ids, num_segments, separator="", name=None):
    """The strings of `inputs` joined (with `separator`) per segment id, `num_segments`
    segments (an empty one gives "").

    >>> tf.strings.unsorted_segment_join(["a", "b", "c"], [1, 0, 1], 2).numpy().tolist()
    [b'b', b'ac']
    """
    given = (inputs, segment_ids, num_segments)
    if not isinstance(inputs, (Tensor, RaggedTensor)):
        inputs = convert_to_tensor(inputs)  # (then a tensor of strings, as TF converts it)
    inputs = _strings(inputs)
    segment_ids = convert_to_tensor(segment_ids)
    if segment_ids.dtype not in (_d.int32, _d.int64):
        segment_ids = convert_to_tensor(segment_ids, _d.int32)
    num_segments = convert_to_tensor(num_segments)
    sep = separator.encode() if isinstance(separator, str) else bytes(separator)
    try:
        return dispatch(_UNSORTED_SEGMENT_JOIN, (inputs, segment_ids, num_segments),
                        {"separator": sep}, name)
    except errors_module.OpError as e:
        raise errors_module.listed(e, *given) from None


class Join:
    """String joins with `separator`, as `ragged_ops.reduce` takes a kind of reduction."""

    def __init__(self, separator):
        self.separator = separator

    def dense(self, x, axis=None, keepdims=False):
        return string_ops.reduce_join(x, axis=axis, keepdims=keepdims,
                                      separator=self.separator)

    def segments(self, values, ids, n):
        return unsorted_segment_join(values, ids, n, separator=self.separator)

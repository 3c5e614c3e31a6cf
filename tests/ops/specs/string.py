"""Specs of the string ops (string_ops.py): inputs are object arrays of bytes."""
import re

import numpy as np

import eagerflow as tf
from eagerflow import strings as s
from tests.ops.spec import OpSpec

_NO_GRAD = "string op"


def _bytes(*values):
    return np.array([v.encode() if isinstance(v, str) else v for v in values], object)


def _map(fn, x, dtype=object):
    return np.array([fn(v) for v in x.ravel()], dtype).reshape(x.shape)


_WORDS = _bytes("Hello", " World\t", "", "caf\u00e9", "ABC def")
_GRID = np.array([[b"a", b"b", b"c"], [b"d", b"e", b"f"]], object)

SPECS = [
    OpSpec("StringJoin", lambda a, b: s.join([a, "-", b], separator="+"),
           [_bytes("a", "b"), _bytes("c", "d")], lambda a, b: _bytes("a+-+c", "b+-+d"),
           grad=_NO_GRAD),
    OpSpec("StringJoin", lambda a: s.join([a, a]), [np.array(b"x", object)],
           lambda a: np.array(b"xx", object), name="StringJoin-scalars", grad=_NO_GRAD),
    OpSpec("ReduceJoin", lambda x: s.reduce_join(x, 1, separator=","), [_GRID],
           lambda x: _bytes("a,b,c", "d,e,f"), grad=_NO_GRAD),
    OpSpec("ReduceJoin", lambda x: s.reduce_join(x, [0, 1], keepdims=True), [_GRID],
           lambda x: np.array([[b"adbecf"]], object), name="ReduceJoin-axes-in-order",
           grad=_NO_GRAD),
    OpSpec("ReduceJoin", s.reduce_join, [_GRID], lambda x: np.array(b"abcdef", object),
           name="ReduceJoin-all", grad=_NO_GRAD),
    OpSpec("StringLength", s.length, [_WORDS], lambda x: _map(len, x, np.int32),
           grad=_NO_GRAD),
    OpSpec("StringLength", lambda x: s.length(x, unit="UTF8_CHAR"), [_WORDS],
           lambda x: _map(lambda v: len(v.decode()), x, np.int32), name="StringLength-utf8",
           grad=_NO_GRAD),
    OpSpec("StringLower", s.lower, [_WORDS], lambda x: _map(bytes.lower, x), grad=_NO_GRAD),
    OpSpec("StringUpper", lambda x: s.upper(x, encoding="utf-8"), [_WORDS],
           lambda x: _map(lambda v: v.decode().upper().encode(), x), grad=_NO_GRAD),
    OpSpec("StringStrip", s.strip, [_WORDS], lambda x: _map(bytes.strip, x), grad=_NO_GRAD),
    OpSpec("Substr", lambda x: s.substr(x, 0, 3), [_WORDS], lambda x: _map(lambda v: v[:3], x),
           grad=_NO_GRAD),
    OpSpec("Substr", s.substr, [_bytes("hello", "world"), np.array([-3, 1], np.int64),
                                np.array([2, -1], np.int64)],
           lambda x, p, n: _bytes("ll", "orld"), name="Substr-negative", grad=_NO_GRAD),
    OpSpec("Substr", lambda x: s.substr(x, 2, 2, unit="UTF8_CHAR"), [_bytes("caf\u00e9s")],
           lambda x: _bytes("f\u00e9"), name="Substr-utf8", grad=_NO_GRAD),
    OpSpec("StaticRegexFullMatch", lambda x: s.regex_full_match(x, r"[A-Z]\w+"), [_WORDS],
           lambda x: _map(lambda v: re.fullmatch(rb"[A-Z]\w+", v) is not None, x, bool),
           grad=_NO_GRAD),
    OpSpec("RegexFullMatch", s.regex_full_match, [_WORDS, np.array(b".*o.*", object)],
           lambda x, p: _map(lambda v: b"o" in v, x, bool), grad=_NO_GRAD),
    OpSpec("StaticRegexReplace", lambda x: s.regex_replace(x, r"([a-z])([A-Z])", r"\2\1"),
           [_bytes("aBcD", "xy")], lambda x: _bytes("BaDc", "xy"), grad=_NO_GRAD),
    OpSpec("StaticRegexReplace", lambda x: s.regex_replace(x, "l", "L", False), [_WORDS],
           lambda x: _map(lambda v: v.replace(b"l", b"L", 1), x), name="StaticRegexReplace-once",
           grad=_NO_GRAD),
    OpSpec("RegexReplace", s.regex_replace, [_WORDS, np.array(rb"\s+", object),
                                             np.array(b"_", object)],
           lambda x, p, w: _map(lambda v: re.sub(rb"\s+", b"_", v), x), grad=_NO_GRAD),
    OpSpec("StringToNumber", s.to_number, [_bytes("1.5", " -2", "1e3", "inf")],
           lambda x: np.array([1.5, -2, 1000, np.inf], np.float32), grad=_NO_GRAD),
    OpSpec("StringToNumber", lambda x: s.to_number(x, tf.int64), [_bytes("12", "-9", "+0")],
           lambda x: np.array([12, -9, 0], np.int64), name="StringToNumber-int64",
           grad=_NO_GRAD),
    OpSpec("AsString", s.as_string, [np.array([1.5, -2.25], np.float32)],
           lambda x: _bytes("1.500000", "-2.250000"), grad=_NO_GRAD),
    OpSpec("AsString", lambda x: s.as_string(x, width=4, fill="0"),
           [np.array([[7, -3]], np.int64)], lambda x: np.array([[b"0007", b"-003"]], object),
           name="AsString-int-width", grad=_NO_GRAD),
    OpSpec("AsString", lambda x: s.as_string(x, shortest=True), [np.array([0.1, 1e20])],
           lambda x: _bytes("0.1", "1e+20"), name="AsString-shortest", grad=_NO_GRAD),
    OpSpec("AsString", s.as_string, [np.array([True, False])],
           lambda x: _bytes("true", "false"), name="AsString-bool", grad=_NO_GRAD),
    OpSpec("StringSplitV2", s.split, [np.array(b"a b  c", object)],
           lambda x: _bytes("a", "b", "c"), grad=_NO_GRAD),
    OpSpec("StringSplitV2", lambda x: s.split(x, ",", maxsplit=1), [np.array(b"a,,b", object)],
           lambda x: _bytes("a", ",b"), name="StringSplitV2-sep", grad=_NO_GRAD),
    OpSpec("StringSplitV2", s.split, [np.array(b"", object)], lambda x: _bytes(),
           name="StringSplitV2-empty", grad=_NO_GRAD),
]

SPECS += [
    OpSpec("UnicodeScript", tf.strings.unicode_script,
           [np.array([[65, 1488, 12354], [-1, 33, 0x110000]], np.int32)],
           lambda x: np.array([[25, 19, 20], [-1, 0, -1]], np.int32), grad="string op"),
]

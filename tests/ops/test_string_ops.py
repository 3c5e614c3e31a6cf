"""String ops: bytes in and out, TF's parsing/formatting rules, regex conventions, errors."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow.errors import InvalidArgumentError, OutOfRangeError
from eagerflow import strings as s, TensorShape
from tests.internals import registry


def _strings(*values):
    return np.array([v.encode() if isinstance(v, str) else v for v in values], object)


def _assert_strings(t, expected):
    got = t.numpy()
    assert t.dtype == tf.string
    if isinstance(got, np.ndarray):
        assert got.dtype == object and all(isinstance(v, bytes) for v in got.ravel())
    np.testing.assert_array_equal(got, np.array(expected, object))


def test_outputs_are_object_arrays_of_bytes():
    _assert_strings(s.lower(["AB", "Cd"]), [b"ab", b"cd"])
    _assert_strings(s.join(["a", ["b", "c"]], separator="-"), [b"a-b", b"a-c"])
    _assert_strings(s.as_string([1, 2]), [b"1", b"2"])
    _assert_strings(s.upper("ab"), b"AB")  # scalars stay scalars


def test_join_shapes():
    _assert_strings(s.join(["x", ["a", "b"], "y"], separator=","), [b"x,a,y", b"x,b,y"])
    _assert_strings(s.join([]), b"")
    _assert_strings(s.join(tf.constant(["a", "b"])), b"ab")
    with pytest.raises(InvalidArgumentError, match=r"Input shapes do not match: \[2\] vs. \[3\]"):
        s.join([["a", "b"], ["a", "b", "c"]])
    with pytest.raises(TypeError, match="Expected string for argument 'separator'"):
        s.join(["a"], separator=1)
    with pytest.raises(TypeError, match="dtype string"):
        s.join([["a"], [1]])


def test_reduce_join_axes_order_and_errors():
    grid = [["a", "b"], ["c", "d"]]
    _assert_strings(s.reduce_join(grid), b"abcd")
    _assert_strings(s.reduce_join(grid, axis=[0, 1]), b"acbd")
    _assert_strings(s.reduce_join(grid, axis=[1, 0]), b"abcd")
    _assert_strings(s.reduce_join(grid, axis=-1, separator="-"), [b"a-b", b"c-d"])
    assert s.reduce_join(grid, keepdims=True).shape == (1, 1)
    _assert_strings(s.reduce_join(np.zeros((2, 0), object), axis=1), [b"", b""])
    with pytest.raises(OutOfRangeError, match="Invalid reduction dimension 2 for input with 2"):
        s.reduce_join(grid, axis=2)
    with pytest.raises(InvalidArgumentError, match="Duplicate reduction dimension 1"):
        s.reduce_join(grid, axis=[1, -1])


def test_lengths():
    words = _strings("abc", "\u00e9", "", b"\xff\xfe", b"\x80a")
    np.testing.assert_array_equal(s.length(words).numpy(), [3, 2, 0, 2, 2])
    np.testing.assert_array_equal(s.length(words, unit="UTF8_CHAR").numpy(), [3, 1, 0, 2, 1])
    assert s.length("abc").dtype == tf.int32
    with pytest.raises(InvalidArgumentError, match='attr \'unit\' of "X"'):
        s.length(["a"], unit="X")


def test_case_changes():
    _assert_strings(s.lower(["Ab\u00c9"]), ["ab\u00c9".encode()])  # ASCII only by default
    _assert_strings(s.lower(["Ab\u00c9"], encoding="utf-8"), ["ab\u00e9".encode()])
    _assert_strings(s.upper(["stra\u00dfe"], encoding="utf-8"), [b"STRASSE"])
    with pytest.raises(InvalidArgumentError, match="only utf-8 or ''"):
        s.lower(["A"], encoding="latin1")
    _assert_strings(s.strip(["  a b \n\t", "\u00a0a"]), [b"a b", "\u00a0a".encode()])


def test_substr():
    _assert_strings(s.substr(["hello", "ab"], 1, 3), [b"ell", b"b"])
    _assert_strings(s.substr("hello", -2, -1), b"lo")
    _assert_strings(s.substr("hello", 5, 1), b"")
    _assert_strings(s.substr(["hello", "world"], [[0], [1]], [[2], [2]]),
                    [[b"he", b"wo"], [b"el", b"or"]])
    _assert_strings(s.substr(["h\u00e9llo"], 1, 2, unit="UTF8_CHAR"), ["\u00e9l".encode()])
    _assert_strings(s.substr("hello", tf.constant(1, tf.int64), 2), b"el")


@pytest.mark.parametrize("args, message", [
    ((["hello", "ab"], 3, 1), r"pos 3 out of range for string b'ab' at index 1"),
    ((["hello"], -6, 1), r"pos -6 out of range for string b'hello' at index 0"),
    ((["h\u00e9"], 5, 1), "pos 5 out of range for string b'h\u00e9' at index 0"),  # unescaped
    ((["hello"], [0, 1], 2), r"pos and len should have the same shape, got: \[2\] vs. \[\]"),
])
def test_substr_errors(args, message):
    with pytest.raises(InvalidArgumentError, match=message):
        s.substr(*args)


def test_substr_utf8_error_omits_the_string():
    with pytest.raises(InvalidArgumentError, match="pos 3 out of range for string at index 0"):
        s.substr("h\u00e9", 3, 1, unit="UTF8_CHAR")


def test_regex_full_match():
    np.testing.assert_array_equal(s.regex_full_match(["abc", "abcd"], "a.c").numpy(),
                                  [True, False])
    assert s.regex_full_match(["\u00e9"], ".").numpy()[0]  # one character, two bytes
    assert not s.regex_full_match(["\u0663"], r"\d").numpy()[0]  # \d is ASCII-only
    assert s.regex_full_match(["abc"], tf.constant("a.*")).numpy()[0]
    with pytest.raises(InvalidArgumentError, match="Invalid pattern: a\\(c"):
        s.regex_full_match(["abc"], "a(c")
    with pytest.raises(InvalidArgumentError, match=r"Pattern must be scalar, but received \[2\]"):
        s.regex_full_match(["a", "b"], tf.constant(["a", "b"]))


def test_regex_replace_rewrites():
    _assert_strings(s.regex_replace(["aaa bb"], "a", "x"), [b"xxx bb"])
    _assert_strings(s.regex_replace(["aaa bb"], "a", "x", replace_global=False), [b"xaa bb"])
    _assert_strings(s.regex_replace(["ab12"], r"(\d)", r"<\1>"), [b"ab<1><2>"])
    _assert_strings(s.regex_replace(["ab12"], r"\d", r"[\0]"), [b"ab[1][2]"])
    _assert_strings(s.regex_replace(["ab"], "a", r"\\"), [b"\\b"])
    _assert_strings(s.regex_replace(["a$b"], r"\$", "$1"), [b"a$1b"])
    _assert_strings(s.regex_replace(["ab"], "", "-"), [b"-a-b-"])
    _assert_strings(s.regex_replace(["ab"], "a", r"\2"), [b"ab"])  # no such group: unchanged
    _assert_strings(s.regex_replace(["ab"], tf.constant("a"), tf.constant("x")), [b"xb"])
    with pytest.raises(InvalidArgumentError, match="Rewrite must be scalar"):
        s.regex_replace(["ab"], "a", tf.constant(["x"]))


def test_to_number_accepts_what_c_parsers_accept():
    got = s.to_number(["1.5", " -2", "inf", "-nan", "1e400", "0x1p3", ".5", "1."]).numpy()
    np.testing.assert_array_equal(got, np.array([1.5, -2, np.inf, np.nan, np.inf, 8, 0.5, 1],
                                                np.float32))
    np.testing.assert_array_equal(
        s.to_number([" 7 ", "+0", "010", "-2147483648"], tf.int32).numpy(),
        [7, 0, 10, -2**31])
    assert s.to_number(["18446744073709551615"], tf.uint64).numpy()[0] == 2**64 - 1


@pytest.mark.parametrize("text, out_type", [
    ("abc", tf.float32), ("1_0", tf.float32), ("", tf.float32), ("1.5", tf.int32),
    ("3000000000", tf.int32), ("-1", tf.uint32), ("0x10", tf.int64), ("1e2", tf.int64),
])
def test_to_number_errors(text, out_type):
    with pytest.raises(InvalidArgumentError,
                       match="StringToNumberOp could not correctly convert string"):
        s.to_number([text], out_type)


def test_to_number_out_type():
    with pytest.raises(InvalidArgumentError, match="'out_type' of int16"):
        s.to_number(["1"], tf.int16)


def test_as_string_formats():
    _assert_strings(s.as_string([1.5, 2.0]), [b"1.500000", b"2.000000"])
    _assert_strings(s.as_string([314.159], scientific=True), [b"3.141590e+02"])
    _assert_strings(s.as_string([0.1, 1e20, 3.0], shortest=True), [b"0.1", b"1e+20", b"3"])
    _assert_strings(s.as_string([-3.14159], width=10, precision=2, fill="0"), [b"-000003.14"])
    _assert_strings(s.as_string([7], width=4, fill="-"), [b"7   "])
    _assert_strings(s.as_string([1 + 2j], width=10, precision=1),
                    [b"(       1.0,       2.0)"])
    _assert_strings(s.as_string([True, False]), [b"true", b"false"])
    _assert_strings(s.as_string([np.nan, np.inf]), [b"nan", b"inf"])
    _assert_strings(s.as_string(tf.constant([1.5], tf.bfloat16)), [b"1.500000"])


def test_as_string_prints_denormals_as_zeros():
    # TF's CPU kernel reads float32, bfloat16 and float64 denormals as zeros; float16 ones
    # widen to normal numbers
    _assert_strings(s.as_string([1e-45, -1e-40, 1.2e-38], scientific=True),
                    [b"0.000000e+00", b"-0.000000e+00", b"1.200000e-38"])
    _assert_strings(s.as_string(tf.constant([5e-324], tf.float64), shortest=True), [b"0"])
    _assert_strings(s.as_string(tf.constant([1e-39], tf.bfloat16), scientific=True),
                    [b"0.000000e+00"])
    _assert_strings(s.as_string(tf.constant([1e-7], tf.float16), scientific=True),
                    [b"1.192093e-07"])
    _assert_strings(s.as_string(tf.constant([1e-39 + 1j], tf.complex64), precision=1),
                    [b"(0.0,1.0)"])


def test_as_string_of_strings_pads_bytes_and_ignores_float_options():
    # TF 2.21: `width` counts UTF-8 bytes, as C's %s; precision/scientific/shortest pass
    text = tf.constant(["\u00fcber", "ab", "\u65e5\u672c"])
    _assert_strings(s.as_string(text, width=6),
                    [b" \xc3\xbcber", b"    ab", "\u65e5\u672c".encode()])
    _assert_strings(s.as_string(text, width=7, fill="-"),
                    [b"\xc3\xbcber  ", b"ab     ", "\u65e5\u672c ".encode()])
    _assert_strings(s.as_string(text, precision=3), [t.encode() for t in
                                                     ("\u00fcber", "ab", "\u65e5\u672c")])
    _assert_strings(s.as_string(text, scientific=True)[1:2], [b"ab"])


@pytest.mark.parametrize("kwargs, message", [
    ({"fill": "ab"}, "Fill string must be one or fewer characters"),
    ({"fill": "x"}, 'Fill argument not supported: "x"'),
    ({"precision": 2}, "precision not supported for datatype int32"),
    ({"scientific": True}, "scientific and shortest format not supported"),
])
def test_as_string_errors(kwargs, message):
    with pytest.raises(InvalidArgumentError, match=message):
        s.as_string([7], **kwargs)


def test_string_ops_reject_numbers():
    with pytest.raises(TypeError, match="dtype string"):
        s.length([1])
    with pytest.raises(InvalidArgumentError):
        s.reduce_join(tf.constant([1, 2]))


def test_static_shape_rules():
    class Static:
        def __init__(self, shape, dtype):
            self.shape, self.dtype = TensorShape(shape), dtype

    join_rule = registry.get("StringJoin").shape
    shape, dtype = join_rule(Static([], tf.string), Static([None, 2], tf.string),
                             Static([3, None], tf.string), separator=b"")
    assert shape == [3, 2] and dtype == tf.string
    substr_rule = registry.get("Substr").shape
    shape, _ = substr_rule(Static([None, 1], tf.string), Static([4], tf.int32),
                           Static([4], tf.int32), unit="BYTE")
    assert shape == [None, 4]


def test_split_of_a_vector_gives_ragged_rows():
    rt = tf.strings.split(tf.constant(["a b", "c"]))
    assert isinstance(rt, tf.RaggedTensor)
    assert rt.to_list() == [[b"a", b"b"], [b"c"]]


def test_values_that_are_not_text_fail_as_each_tf_function_converts_them():
    one = tf.constant(1)
    with pytest.raises(ValueError, match=r"^input: Tensor conversion requested dtype string for "
                                         r"Tensor with dtype int32: <tf.Tensor: shape=\(\)"):
        s.split(one)
    with pytest.raises(ValueError, match=r"^data: Tensor conversion requested dtype string"):
        s.ngrams(one, 2)
    with pytest.raises(ValueError, match=r"for RaggedTensor with dtype int32: <tf.RaggedTensor "
                                         r"\[\[1\]\]>\.$"):
        s.split(tf.ragged.constant([[1]]))
    with pytest.raises(ValueError, match="^Tensor conversion requested dtype string"):
        s.join([one, "a"])
    with pytest.raises(TypeError, match=r"Cannot convert \[1, 2\] to EagerTensor of dtype string"):
        s.split([1, 2])
    # the unicode ops and reduce_join take the tensor as it is: their type check refuses it
    for fn, op in ((lambda v: s.unicode_decode(v, "UTF-8"), "UnicodeDecode"),
                   (lambda v: s.unicode_transcode(v, "UTF-8", "UTF-16-BE"), "UnicodeTranscode"),
                   (s.reduce_join, "ReduceJoin")):
        with pytest.raises(InvalidArgumentError, match=f"cannot compute {op} as input #0"):
            fn(one)
    with pytest.raises(InvalidArgumentError, match="expected to be a string tensor but is a "
                                                   "float tensor"):
        s.reduce_join([])
    with pytest.raises(InvalidArgumentError, match="but is a float tensor"):
        s.substr(tf.constant([1.5]), 0, 1)
    with pytest.raises(ValueError, match="^x: Tensor conversion requested"):
        tf.convert_to_tensor(one, tf.string, name="x")


def test_texts_of_refused_patterns_formats_and_code_points():
    with pytest.raises(InvalidArgumentError) as info:
        s.regex_replace("abc", "(", "b")
    assert str(info.value).endswith("[Op:StaticRegexReplace]")  # (TF's slower path)
    with pytest.raises(InvalidArgumentError) as info:
        s.regex_replace(tf.constant("abc"), "(", "b")
    assert str(info.value).endswith("[Op:StaticRegexReplace] name: ")
    with pytest.raises(InvalidArgumentError) as info:
        s.as_string([1], precision=2)
    assert str(info.value) == (
        "{{function_node __wrapped__AsString_device_/job:localhost/replica:0/task:0/device:CPU:0"
        "}} precision not supported for datatype int32 [Op:AsString]")
    with pytest.raises(InvalidArgumentError, match=r"Code point is out of range for Unicode, or "
                                                   r"is a surrogate. \[Op:UnicodeEncode\]"):
        s.unicode_encode([1114112], "UTF-8", errors="strict")
    with pytest.raises(ValueError, match=r"^All ngram_widths must be greater than 0. Got 0$"):
        s.ngrams(["a", "b"], 0)
    with pytest.raises(InvalidArgumentError) as info:
        s.unsorted_segment_join(["a", "b"], [0, 3], 2)
    assert str(info.value).endswith("[Op:UnsortedSegmentJoin]")


def test_split_on_whitespace_with_maxsplit_keeps_the_rest_as_tf_does():
    s = tf.constant(["a ", "  a ", "", "a b", " hello world "])
    assert tf.strings.split(s, maxsplit=1).to_list() == [
        [b"a", b""], [b"a", b""], [], [b"a", b"b"], [b"hello", b"world "]]
    assert tf.strings.split(s, maxsplit=2).to_list() == [
        [b"a"], [b"a"], [], [b"a", b"b", b""], [b"hello", b"world", b""]]
    # no split at all keeps each string whole, its spaces and the empty one too
    assert tf.strings.split(s, maxsplit=0).to_list() == [
        [b"a "], [b"  a "], [b""], [b"a b"], [b" hello world "]]


def test_substr_of_utf8_chars_steps_over_invalid_bytes_as_tf_does():
    s = tf.constant([b"\xe6\x97", b"\x97\x97a", b"a\x97\x97b", b"\xe6\x97\x97\x97x"])
    assert tf.strings.substr(s, 0, 1, unit="UTF8_CHAR").numpy().tolist() == [
        b"\xe6\x97", b"\x97\x97", b"a\x97\x97", b"\xe6\x97\x97\x97"]
    assert tf.strings.substr(s, 1, 1, unit="UTF8_CHAR").numpy().tolist() == [
        b"", b"a", b"b", b"x"]
    assert tf.strings.substr(s, -1, 1, unit="UTF8_CHAR").numpy().tolist() == [
        b"\xe6\x97", b"a", b"b", b"x"]


def test_as_string_zero_fill_pads_inf_and_nan_with_spaces():
    x = tf.constant([float("nan"), float("inf"), -float("inf"), 1.5])
    assert tf.strings.as_string(x, width=8, fill="0").numpy().tolist() == [
        b"     nan", b"     inf", b"    -inf", b"1.500000"]
    assert tf.strings.as_string(x, width=8, fill="0", shortest=True).numpy().tolist() == [
        b"     nan", b"     inf", b"    -inf", b"000001.5"]
    c = tf.constant([complex(float("nan"), 1)], tf.complex64)
    assert tf.strings.as_string(c, width=8, fill="0").numpy().tolist() == [
        b"(     nan,1.000000)"]


def test_errors_end_as_tfs_wrappers_end_them():
    # a Python list among the arguments: TF's slower path, whose errors end without the name
    with pytest.raises(InvalidArgumentError) as info:
        tf.strings.substr(tf.constant([["abc"], ["defg"]]), [0, 1], 2)
    assert str(info.value).endswith("got: [2] vs. [] [Op:Substr]")
    with pytest.raises(InvalidArgumentError) as info:
        tf.strings.substr(tf.constant(["abc"]), tf.constant([0, 1]), tf.constant(2))
    assert str(info.value).endswith("got: [2] vs. [] [Op:Substr] name: ")
    # an attr below its minimum is refused before the kernel runs
    with pytest.raises(InvalidArgumentError) as info:
        tf.strings.to_hash_bucket_fast(["a"], 0)
    assert str(info.value).startswith(
        "Value for attr 'num_buckets' of 0 must be at least minimum 1\n")
    with pytest.raises(InvalidArgumentError) as info:
        tf.strings.to_hash_bucket_strong(tf.constant(["a"]), 0, [1, 2])
    assert str(info.value).startswith("Value for attr 'num_buckets' of 0 must be at least")
    assert str(info.value).endswith("[Op:StringToHashBucketStrong] name: ")


def test_fingerprint_of_rows_as_tf_computes_it():
    def prints(data, **kw):
        return tf.fingerprint(data, **kw).numpy().tolist()
    assert prints(tf.constant([["a", "b"], ["", "c"]])) == [
        [122, 64, 59, 169, 136, 60, 55, 83], [146, 4, 241, 178, 47, 233, 29, 30]]
    assert prints(tf.constant([[1, 2], [3, 4]])) == [
        [76, 18, 253, 133, 168, 204, 240, 10], [254, 162, 60, 240, 103, 244, 53, 255]]
    assert prints(tf.ones([2, 3, 4], tf.float64)) == [[160, 0, 163, 124, 88, 62, 233, 223]] * 2
    assert prints(tf.constant([True, False])) == [
        [62, 88, 126, 177, 19, 76, 162, 71], [84, 75, 233, 245, 237, 86, 96, 190]]
    assert prints(tf.constant(["z" * 200])) == [[92, 35, 204, 156, 101, 63, 35, 121]]
    assert prints(tf.zeros([2, 0])) == [[79, 64, 144, 47, 59, 106, 225, 154]] * 2
    assert tf.fingerprint(tf.zeros([0, 3])).shape == (0, 8)
    traced = tf.function(tf.fingerprint)(tf.constant(["x", "y"]))
    assert traced.numpy().tolist() == [[2, 104, 255, 236, 186, 253, 126, 193],
                                       [145, 234, 44, 28, 233, 79, 165, 142]]
    with pytest.raises(InvalidArgumentError,
                       match=r"`data` should have at least one dimension: \[\] \[Op:Fingerprint]$"):
        tf.fingerprint(tf.constant(1))
    with pytest.raises(InvalidArgumentError, match="Unsupported fingerprint method: md5"):
        tf.fingerprint(tf.constant([1]), method="md5")


@pytest.mark.parametrize("fn, dtype, message", [
    (lambda s: tf.strings.unicode_split(s, "UTF-8"), tf.string,
     "Rank of `input` must be statically known."),
    (lambda s: tf.strings.unicode_decode_with_offsets(s, "UTF-8"), tf.string,
     "Rank of `input` must be statically known."),
    (tf.strings.bytes_split, tf.string, "input must have a statically-known rank."),
    (lambda s: tf.strings.ngrams(s, 2), tf.string, "Rank of data must be known."),
    (lambda s: tf.strings.unicode_encode(s, "UTF-8"), tf.int32,
     "Rank of input_tensor must be statically known."),
])
def test_string_ops_of_unknown_rank_while_tracing(fn, dtype, message):
    traced = tf.function(fn, input_signature=[tf.TensorSpec(None, dtype)], autograph=False)
    with pytest.raises(ValueError, match=f"^{message}$"):
        traced.get_concrete_function()


def test_split_of_unknown_rank_splits_a_vector():
    traced = tf.function(tf.strings.split, input_signature=[tf.TensorSpec(None, tf.string)])
    assert traced(tf.constant(["a b", "c"])).to_list() == [[b"a", b"b"], [b"c"]]


_RE2_TEXTS = tf.constant(["a\n", "abc\nabc", "x\x0by", "aaa", "tab\there", "été"])


@pytest.mark.parametrize("pattern, rewrite, expected", [
    # "$" is the end of the text alone; "\s" leaves out "\v"
    ("$", "X", [b"a\nX", b"abc\nabcX", b"x\x0byX", b"aaaX", b"tab\thereX",
                "étéX".encode()]),
    (r"\s", "_", [b"a_", b"abc_abc", b"x\x0by", b"aaa", b"tab_here", "été".encode()]),
    # no empty match right after the previous match
    ("a*", "-", [b"-\n-", b"-b-c-\n-b-c-", b"-x-\x0b-y-", b"-", b"-t-b-\t-h-e-r-e-",
                 "-é-t-é-".encode()]),
    # what RE2 has and Python's re lacks
    ("[[:alpha:]]", ".", [b".\n", b"...\n...", b".\x0b.", b"...", b"...\t....",
                          "é.é".encode()]),
    (r"\pL", "L", [b"L\n", b"LLL\nLLL", b"L\x0bL", b"LLL", b"LLL\tLLLL", b"LLL"]),
    (r"\z", "z", [b"a\nz", b"abc\nabcz", b"x\x0byz", b"aaaz", b"tab\therez", "étéz".encode()]),
    (r"\Qa\E+", "Q", [b"Q\n", b"Qbc\nQbc", b"x\x0by", b"Q", b"tQb\there", "été".encode()]),
    ("a{,2}", "x", [b"a\n", b"abc\nabc", b"x\x0by", b"aaa", b"tab\there", "été".encode()]),
    ("(?i)A(?i)B|C", "_", [b"a\n", b"__\n__", b"x\x0by", b"aaa", b"t_\there", "été".encode()]),
])
def test_regex_replace_matches_as_re2_does(pattern, rewrite, expected):
    assert tf.strings.regex_replace(_RE2_TEXTS, pattern, rewrite).numpy().tolist() == expected


@pytest.mark.parametrize("pattern, message", [
    ("(", "missing ): ("), ("a)", "unexpected ): a)"), ("x[ab", "missing ]: [ab"),
    ("*a", "no argument for repetition operator: *"), ("a*?*", "bad repetition operator: *?*"),
    ("x{2}{3}", "bad repetition operator: {2}{3}"), ("(?=b)", "invalid perl operator: (?="),
    ("(?<=a)b", "invalid perl operator: (?<"), (r"(a)\1", r"invalid escape sequence: \1"),
    (r"\Z", r"invalid escape sequence: \Z"), ("[z-a]", "invalid character class range: z-a"),
    ("a{2,1}", "invalid repetition size: {2,1}"), (r"\p{Foo}",
                                                    r"invalid character class range: \p{Foo}"),
])
def test_regex_patterns_re2_refuses(pattern, message):
    with pytest.raises(InvalidArgumentError) as info:
        tf.strings.regex_replace(_RE2_TEXTS, pattern, "X")
    assert f"Invalid pattern: {pattern}, error: {message} [Op:StaticRegexReplace]" in str(
        info.value)


def test_regex_full_match_as_re2_does():
    assert tf.strings.regex_full_match(_RE2_TEXTS, r"\S+").numpy().tolist() == [
        False, False, True, True, False, True]
    assert tf.strings.regex_full_match(_RE2_TEXTS, r"x\sy").numpy().tolist() == [False] * 6


def test_windows_1252_undefined_bytes_decode_as_c1_controls():
    # ICU (TF's converter) reads 0x81, 0x8D, 0x8F, 0x90, 0x9D as U+0081 ...; values from TF
    b = tf.constant([b"a\x81\x8d\x80\x9f\xff", b"\x90x"])
    assert tf.strings.unicode_decode(b, "windows-1252").to_list() == [
        [97, 129, 141, 8364, 376, 255], [144, 120]]
    assert tf.strings.unicode_transcode(b, "WINDOWS-1252", "UTF-8").numpy().tolist() == [
        b"a\xc2\x81\xc2\x8d\xe2\x82\xac\xc5\xb8\xc3\xbf", b"\xc2\x90x"]


def test_unicode_decode_replaces_invalid_utf8_by_maximal_subparts():
    # a lead byte whose next byte is outside its range (overlong, surrogate, past U+10FFFF)
    # is one invalid byte; a valid start cut short is one replacement
    bad = tf.constant([b"\xc0\xaf", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xe6\x97", b"a\xf0\x9f"])
    assert tf.strings.unicode_decode(bad, "UTF-8").to_list() == [
        [65533] * 2, [65533] * 3, [65533] * 4, [65533], [97, 65533]]
    assert tf.strings.unicode_split(tf.constant([b"\xed\xa0\x80z"]), "UTF-8").to_list() == [
        [b"\xef\xbf\xbd"] * 3 + [b"z"]]


def test_regex_full_match_errors_keep_the_name_for_a_pattern_attr():
    # a Python pattern is the static op's attr: the input alone decides TF's path
    with pytest.raises(InvalidArgumentError) as info:
        tf.strings.regex_full_match(tf.constant(["a"]), "[a")
    assert str(info.value).endswith("[Op:StaticRegexFullMatch] name: ")


@pytest.mark.parametrize("pos, size, expected", [
    (0, -1, ["", ""]), (2, -7, ["", ""]), (1, 2, ["bc", "本語"]), (-2, 1, ["b", "本"])])
def test_substr_in_characters_takes_nothing_for_a_negative_length(pos, size, expected):
    strings = tf.constant(["abc", "日本語"])
    out = tf.strings.substr(strings, pos, size, unit="UTF8_CHAR")
    assert [v.decode() for v in out.numpy().tolist()] == expected
    assert tf.strings.substr(strings, 1, -1).numpy().tolist()[0] == b"bc"  # (bytes: the rest)


def test_substr_in_characters_refuses_negative_position_and_length():
    with pytest.raises(InvalidArgumentError, match="pos -1 out of range for string at index 0"):
        tf.strings.substr(tf.constant(["abc"]), -1, -1, unit="UTF8_CHAR")
    with pytest.raises(InvalidArgumentError, match=r"Incompatible shapes: \[3\] vs. \[2\]"):
        tf.strings.substr(tf.constant(["a", "b", "c"]), [0, 1], [1, 1])


def test_utf8_case_changes_read_strings_as_icu():
    # up to a NUL; invalid bytes become U+FFFD, by maximal subparts
    strings = tf.constant([b"a\x00b", b"a\xed\xa0\x80b", b"\xc0\xafz", b"\xe2\x82x",
                           "straße".encode()])
    assert tf.strings.upper(strings, encoding="utf-8").numpy().tolist() == [
        b"A", "A\ufffd\ufffd\ufffdB".encode(), "\ufffd\ufffdZ".encode(),
        "\ufffdX".encode(), b"STRASSE"]
    assert tf.strings.lower(tf.constant([b"A\xffB"]), encoding="utf-8").numpy().tolist() == [
        "a\ufffdb".encode()]
    assert tf.strings.lower(tf.constant([b"A\xffB"])).numpy().tolist() == [b"a\xffb"]


def test_ngrams_check_their_padding_as_tf():
    words = tf.constant(["a", "b"])
    assert tf.strings.ngrams(words, 2, pad_values=["<", ">", "x"]).numpy().tolist() == [
        b"< a", b"a b", b"b >"]
    with pytest.raises(TypeError, match="^pad_values must be a string, tuple of strings, or "
                                        "None.$"):
        tf.strings.ngrams(words, 2, pad_values=5)
    with pytest.raises(ValueError, match="^pad_values must be provided if padding_width is "
                                         "set.$"):
        tf.strings.ngrams(words, 2, padding_width=1)


def test_control_characters_are_those_below_u0020():
    # (DEL and the C1 controls stay, as in TF)
    strings = tf.constant(["a\x01\x1f\x7f\x85\x9f\xa0".encode(), b"\x00x"])
    assert tf.strings.unicode_decode(strings, "UTF-8", replace_control_characters=True,
                                     replacement_char=42).to_list() == [
        [97, 42, 42, 127, 133, 159, 160], [42, 120]]
    assert tf.strings.unicode_transcode(strings, "UTF-8", "UTF-8", replacement_char=42,
                                        replace_control_characters=True).numpy().tolist() == [
        "a**\x7f\x85\x9f\xa0".encode(), b"*x"]
    with pytest.raises(ValueError, match="^input_tensor's rank must be at least 1.$"):
        tf.strings.unicode_encode(tf.constant(97), "UTF-8")


@pytest.mark.parametrize("codes", [tf.ragged.constant([[97]], dtype=tf.int64),
                                   tf.constant([[97]], tf.int64), tf.constant([97], tf.int64)])
def test_unicode_encode_takes_int32_code_points_only(codes):
    with pytest.raises(InvalidArgumentError, match=r"^cannot compute UnicodeEncode as input "
                       r"#0\(zero-based\) was expected to be a int32 tensor but is a int64 "
                       r"tensor \[Op:UnicodeEncode\] name: $"):
        tf.strings.unicode_encode(codes, "UTF-8")
    assert tf.strings.unicode_encode([104, 233], "UTF-8").numpy() == "hé".encode()


def test_unsorted_segment_join_puts_the_separator_only_after_text():
    # TF 2.21: empty strings before any text leave no separator; after text they do
    text = tf.constant(["", "a", "", "b", "", ""])
    _assert_strings(tf.strings.unsorted_segment_join(text, [0, 0, 1, 1, 2, 2], 4, separator=":"),
                    [b"a", b"b", b"", b""])
    _assert_strings(tf.strings.unsorted_segment_join(text, [0] * 6, 1, separator=":"),
                    [b"a::b::"])
    got = tf.strings.unsorted_segment_join(tf.constant([["", "x"], ["y", ""]]), [1, 1], 2,
                                           separator="-")
    assert got.numpy().tolist() == [[b"", b""], [b"y", b"x-"]]


@pytest.mark.parametrize("args, error, message", [
    (("a", 0, 2), InvalidArgumentError, "Segment_id cannot have rank 0"),  # (no join of "a")
    ((["a", "b"], [[1, 0]], 2), OutOfRangeError,
     "Invalid segment_id rank 2 for input with 1 dimension(s)"),
    # (TF's text gives the input's rank where it says "dimension")
    ((tf.fill([5, 3], "a"), [0, 1, 0, 1], 2), InvalidArgumentError,
     "Segment dimension is 4 while input dimension is 2 in rank 0"),
    ((["a"], [0], tf.zeros([0], tf.int32)), InvalidArgumentError,
     "Number of segments cannot be empty."),
    ((["a"], [0], [2]), InvalidArgumentError, "Number of segments must be a scalar"),
    ((["a"], [0], -1), InvalidArgumentError, "Number of segments must be non-negative but got -1"),
])
def test_unsorted_segment_join_checks_its_arguments(args, error, message):
    with pytest.raises(error) as info:
        tf.strings.unsorted_segment_join(*args)
    assert message + " [Op:UnsortedSegmentJoin]" in str(info.value)


@pytest.mark.parametrize("args, message", [
    ((tf.fill([5, 3], "a"), [0, 1, 0, 1], 2), "Dimensions must be equal, but are 5 and 4"),
    ((["a"], [0], [2]), "Shape must be rank 0 but is rank 1"),
    ((["a"], [0], -1), "Dimension size, given by scalar input 2, must be non-negative but is -1"),
])
def test_unsorted_segment_join_shape_errors_while_tracing(args, message):
    with pytest.raises(ValueError, match=message):
        tf.function(lambda: tf.strings.unsorted_segment_join(*args))()


def test_unsorted_segment_join_of_no_strings_gives_empty_segments():
    empty = tf.constant([], tf.string)
    _assert_strings(tf.strings.unsorted_segment_join(empty, tf.constant([], tf.int32), 2),
                    [b"", b""])
    assert tf.strings.unsorted_segment_join(empty, tf.constant([], tf.int32), 0).shape == [0]
    got = tf.strings.unsorted_segment_join(tf.zeros([0, 3], tf.string),
                                           tf.constant([], tf.int32), 2)
    assert got.shape == [2, 3] and got.numpy().tolist() == [[b""] * 3] * 2
    # what joins a ragged tensor's rows, and prints one
    joined = tf.strings.reduce_join(tf.ragged.constant([[]], dtype=tf.string), axis=1)
    assert joined.numpy().tolist() == [b""]
    assert tf.strings.format("{}", tf.ragged.constant([[]], dtype=tf.float32)).numpy() == b"[[]]"
    assert tf.strings.format("{}", tf.ragged.constant([[[]], []])).numpy() == b"[[[]], []]"


def test_unicode_transcode_strict_error_ends_as_tfs():
    # Given a Python list TF runs the op on its slower path, whose message has no name.
    with pytest.raises(InvalidArgumentError, match=r"Invalid formatting on input string "
                                                   r"\[Op:UnicodeTranscode\]$"):
        tf.strings.unicode_transcode([b"a\xffb"], "UTF-8", "UTF-8", errors="strict")
    with pytest.raises(InvalidArgumentError, match=r"\[Op:UnicodeTranscode\] name: nm$"):
        tf.strings.unicode_transcode(tf.constant([b"a\xffb"]), "UTF-8", "UTF-8",
                                     errors="strict", name="nm")


def test_substr_shapes_checked_while_tracing_as_tfs_shape_function_checks_them():
    def traced(*specs):
        fn = tf.function(lambda x, p, n: tf.strings.substr(x, p, n))
        return fn.get_concrete_function(*specs).structured_outputs.shape.as_list()

    S = tf.TensorSpec
    assert traced(S([2, 3], tf.string), S([3], tf.int32), S([3], tf.int32)) == [2, 3]
    assert traced(S([], tf.string), S([3], tf.int32), S([3], tf.int32)) == [3]
    with pytest.raises(ValueError, match=r"Shape must be rank 0 but is rank 1 for '{{node "
                                         r"Substr}}"):
        traced(S([None], tf.string), S([None], tf.int32), S([], tf.int32))
    with pytest.raises(ValueError, match=r"pos and len shapes must match: \[2\] vs. \[3\]"):
        traced(S([None], tf.string), S([2], tf.int32), S([3], tf.int32))
    with pytest.raises(ValueError, match="Dimensions must be equal, but are 2 and 3"):
        traced(S([2], tf.string), S([3], tf.int32), S([3], tf.int32))
    # eagerly the kernel's own messages
    with pytest.raises(InvalidArgumentError, match=r"pos and len should have the same shape, "
                                                   r"got: \[2\] vs. \[\]"):
        tf.strings.substr(tf.constant(["hello", "world"]), tf.constant([1, 2]), 2)


def test_string_join_of_shapes_that_cannot_merge_fails_while_tracing_with_tfs_words():
    def traced(*specs):
        fn = tf.function(lambda x, y: tf.strings.join([x, y]))
        return fn.get_concrete_function(*specs).structured_outputs.shape.as_list()

    S = tf.TensorSpec
    assert traced(S([None, 2], tf.string), S([3, None], tf.string)) == [3, 2]
    with pytest.raises(ValueError, match=r"Shapes must be equal rank, but are 2 and 1 for "
                                         r"'{{node StringJoin}}"):
        traced(S([None, 1], tf.string), S([3], tf.string))
    with pytest.raises(ValueError, match=r"Dimension 0 in both shapes must be equal, but are 2 "
                                         r"and 3. Shapes are \[2\] and \[3\]."):
        traced(S([2], tf.string), S([3], tf.string))


def test_regex_matches_no_byte_that_is_not_utf8_as_re2_does():
    text = [b"a\xffb\n"]
    replaced = {pattern: tf.strings.regex_replace(text, pattern, "*").numpy()[0]
                for pattern in [".", "[^a]", r"\D", r"\W", r"\S", "(?s).", "[^a]+", ".*",
                                r"\PL"]}
    assert replaced == {".": b"*\xff*\n", "[^a]": b"a\xff**", r"\D": b"*\xff**",
                        r"\W": b"a\xffb*", r"\S": b"*\xff*\n", "(?s).": b"*\xff**",
                        "[^a]+": b"a\xff*", ".*": b"*\xff*\n*", r"\PL": b"a\xffb*"}
    assert tf.strings.regex_full_match([b"\xff", b"a\xffb", "é"], ".").numpy().tolist() == \
        [False, False, True]


@pytest.mark.parametrize("text", ["nan()", "nan(abc)", "-nan(1)", " NaN(a_b) ", "+nan(0x1)"])
def test_a_nan_with_a_payload_reads_as_nan_as_cs_strtod_reads_it(text):
    assert np.isnan(tf.strings.to_number([text]).numpy()[0])
    assert np.isnan(tf.strings.to_number([text], tf.float64).numpy()[0])
    assert np.isnan(tf.io.decode_csv([text], [[0.0]])[0].numpy()[0])


@pytest.mark.parametrize("text", ["nan(1", "nan(1)x", "inf(1)", "nan(1.5)"])
def test_a_malformed_nan_payload_is_no_number(text):
    with pytest.raises(InvalidArgumentError, match="could not correctly convert string"):
        tf.strings.to_number([text])
    with pytest.raises(InvalidArgumentError, match="is not a valid float"):
        tf.io.decode_csv([text], [[0.0]])
    with pytest.raises(InvalidArgumentError, match="is not a valid int32"):
        tf.io.decode_csv(["nan(1)"], [[0]])


def test_regex_case_folding_and_ascii_classes_as_re2():
    # TF 2.21 (RE2): (?i) folds case as Unicode does, but not İ and ı with i; \w, \d and \b
    # are ASCII's; [[:^alpha:]] is a negated POSIX class
    def full(texts, pattern):
        return s.regex_full_match(texts, pattern).numpy().tolist()

    assert full(["\u212a", "\u017f", "k", "\u00c9", "\u1e9e", "\u03c2", "\u0130", "\u0131", "i"],
                "(?i)[a-z]") == [True, True, True, False, False, False, False, False, True]
    assert full(["\u00e9", "\u00c9"], "(?i)\u00e9") == [True, True]
    assert full(["\u03c2", "\u03a3"], "(?i)\u03c3") == [True, True]
    assert full(["\u0130", "\u0131", "I"], "(?i)i") == [False, False, True]
    assert full(["\u0130", "i"], "(?i)[^a-z]") == [True, False]
    assert full(["\u00e9", "1"], r"\w") == [False, True]
    assert full(["\u00e9", "\u0660"], r"[\W][\D]") == [False, False]
    assert full(["\u00e9\u0660"], r"[\W][\D]") == [True]
    assert full([""], r"\B") == [True]
    _assert_strings(s.regex_replace(["Hello World", "\u00c9COLE \u00e9cole"], "(?i)\u00e9cole",
                                    r"<\0>"),
                    [b"Hello World", "<\u00c9COLE> <\u00e9cole>".encode()])
    _assert_strings(s.regex_replace(["x{2}y", "caf\u00e9 1"], "[[:^alpha:]]", "#"),
                    [b"x###y", b"caf###"])
    _assert_strings(s.regex_replace(["aaa"], "a*?", r"<\0>"), [b"<>a<>a<>a<>"])
    _assert_strings(s.regex_replace(["\u00e9t\u00e9 a"], r"\b", "|"),
                    ["\u00e9|t|\u00e9 |a|".encode()])


def test_regex_ungreedy_flag_swaps_what_repetitions_prefer():
    # TF 2.21 (RE2): under (?U) a+ takes as few as it may and a+? as many
    texts = ["aaa", "<b>x</b><b>y</b>"]
    _assert_strings(s.regex_replace(texts, "(?U)a+", r"<\0>"),
                    [b"<a><a><a>", b"<b>x</b><b>y</b>"])
    _assert_strings(s.regex_replace(texts, "(?U)a+?", r"<\0>"), [b"<aaa>", b"<b>x</b><b>y</b>"])
    _assert_strings(s.regex_replace(texts, "(?U:a+)a", r"<\0>"), [b"<aa>a", b"<b>x</b><b>y</b>"])
    _assert_strings(s.regex_replace(texts, "(?U)(?-U:a+)", r"<\0>"),
                    [b"<aaa>", b"<b>x</b><b>y</b>"])
    _assert_strings(s.regex_replace(texts, "(?sU)<b>.*</b>", "_"), [b"aaa", b"__"])
    assert s.regex_full_match(["aaa"], "(?iU)A+").numpy().tolist() == [True]

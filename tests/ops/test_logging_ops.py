"""tf.print and tf.strings.format: TensorFlow's text for tensors, streams and structures."""
import sys

import numpy as np
import pytest

import eagerflow as tf
from tests.internals import tensor_text


@pytest.mark.parametrize("value, summarize, text", [
    (np.arange(6), 3, "[0 1 2 3 4 5]"),
    (np.arange(7), 3, "[0 1 2 ... 4 5 6]"),
    (np.arange(7), -1, "[0 1 2 3 4 5 6]"),
    (np.arange(7), 0, "[ ...]"),
    (np.arange(8).reshape(2, 2, 2), 3, "[[[0 1]\n  [2 3]]\n\n [[4 5]\n  [6 7]]]"),
    (np.arange(48).reshape(3, 8, 2), 1,
     "[[[0 1]\n  ...\n  [14 15]]\n\n ...\n\n [[32 33]\n  ...\n  [46 47]]]"),
    (np.zeros((0, 2)), 3, "[]"),
    (np.zeros((2, 0)), 3, "[\n ...]"),
    (np.array([True, False]), 3, "[1 0]"),
    (np.array([1.5, 2.0, 1 / 3], np.float32), 3, "[1.5 2 0.333333343]"),
    (np.array(1 / 3), 3, "0.33333333333333331"),
    (np.array([1e20, -0.0, np.nan], np.float32), 3, "[1e+20 -0 nan]"),
    (np.array([b"a\nb", b"q\"t", b"\x01", "é".encode()], object), 3,
     '["a\\nb" "q\\"t" "\\001" "é"]'),
    (np.array([1j]), 3, "[?]"),
    (np.array(1j), 3, "?"),
    (np.zeros((2, 2), complex), 3, "[? ? ?...]"),  # the first entries of the flat array
    (np.zeros((2, 2), complex), -1, "[? ? ? ?]"),
    (np.zeros((0, 2), complex), 3, "[]"),
])
def test_tensor_text(value, summarize, text):
    assert tensor_text(value, summarize) == text


def test_print_writes_to_the_current_stream(capsys):
    tf.print("x:", tf.constant([1, 2]), output_stream=sys.stdout)
    tf.print(tf.constant("raw"), tf.range(10), sep="|", end="!")
    out = capsys.readouterr()
    assert out.out == "x: [1 2]\n" and out.err == '"raw"|[0 1 2 ... 7 8 9]!'


def test_print_structures_and_plain_values(capsys):
    tf.print({"b": tf.constant(1), "a": [tf.constant(2.0), "s"]}, None, "{} kept",
             output_stream=sys.stdout)
    tf.print(tf.constant("lone scalar strings print unquoted"), output_stream=sys.stdout)
    assert capsys.readouterr().out == ("{'a': [2, 's'], 'b': 1} None {} kept\n"
                                       "lone scalar strings print unquoted\n")


def test_print_sparse_tensors_as_quoted_text_of_their_parts(capsys):
    st = tf.sparse.SparseTensor([[0, 1], [1, 0]], [5.5, 1.0], [2, 2])
    tf.print(st, [tf.sparse.SparseTensor([[0, 1]], ["a"], [2, 2])], output_stream=sys.stdout)
    assert capsys.readouterr().out == (
        "'SparseTensor(indices=[[0 1]\n [1 0]], values=[5.5 1], shape=[2 2])' "
        "['SparseTensor(indices=[[0 1]], values=[\"a\"], shape=[2 2])']\n")


def test_print_to_a_file(tmp_path):
    path = tmp_path / "log.txt"
    tf.print(tf.constant([1.5]), output_stream=f"file://{path}")
    tf.print("again", output_stream=f"file://{path}")
    assert path.read_text() == "[1.5]\nagain\n"


def test_print_rejects_other_streams():
    with pytest.raises(ValueError, match="Unsupported output stream"):
        tf.print(1, output_stream="bogus")


def test_format():
    assert tf.strings.format("{} and {}", ("a", 1)).numpy() == b'"a" and 1'
    assert tf.strings.format("<>", tf.constant([1]), placeholder="<>").numpy() == b"[1]"
    with pytest.raises(ValueError, match="template expects 2 tensors"):
        tf.strings.format("{} {}", [tf.constant(1)])


def test_format_and_print_write_denormals_as_zeros(capsys):
    assert tf.strings.format("{}", tf.constant([-1e-40, 1.0])).numpy() == b"[-0 1]"
    assert tf.strings.format("{}", tf.constant(1e-310, tf.float64)).numpy() == b"0"
    assert tf.strings.format("{}", tf.constant([1e-7], tf.float16)).numpy() == \
        b"[1.1920929e-07]"
    tf.print(tf.constant([1e-40, 2.0]), output_stream=sys.stdout)
    assert capsys.readouterr().out == "[0 2]\n"


def test_format_keeps_the_bytes_of_invalid_utf8():
    # TF 2.21 writes a string's bytes as they are, control bytes escaped
    assert tf.strings.format("{}", tf.constant([b"\xff\x01", "\u00e9"])).numpy() == \
        b'["\xff\\001" "\xc3\xa9"]'

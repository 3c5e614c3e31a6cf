"""The batched kernels behind TextVectorization: whitespace split of many strings and
deletion of a class of ASCII characters, against per-string Python and TF 2.21's values."""
import eagerflow as tf

_TRICKY = ["", "   ", "a", " lead", "trail ", "tab\tand\nnew\r\x0bline\x0cfeed", "x\x1cy",
           "ünï cödé  ", "a  b   c", "\x00 z"]


def test_whitespace_split_of_a_vector_matches_per_string_split():
    vectorize = tf.keras.layers.TextVectorization(standardize=None, output_mode=None)
    tokens = vectorize(tf.constant(_TRICKY)).numpy()
    for row, text in zip(tokens, _TRICKY):
        expected = text.encode().split()
        assert row.tolist() == expected + [b""] * (len(row) - len(expected))


def test_regex_replace_deleting_ascii_classes_matches_tf():
    x = tf.constant(["Hé,llo! [w]o\\rld's ~x^_`", "a-b.c/d:e", "", "ünï.cödé;"])
    strip = r'[!"#$%&()\*\+,-\./:;<=>?@\[\\\]^_`{|}~\']'
    assert tf.strings.regex_replace(x, strip, "").numpy().tolist() == [
        "Héllo worlds x".encode(), b"abcde", b"", "ünïcödé".encode()]
    assert tf.strings.regex_replace(x, "[a-c]", "").numpy().tolist()[1] == b"-./d:e"
    assert tf.strings.regex_replace(x, "[^a]", "").numpy().tolist() == [b"", b"a", b"", b""]
    assert tf.strings.regex_replace(x, "[,.]", "", replace_global=False).numpy().tolist()[1] \
        == b"a-bc/d:e"

"""tf.strings.unicode_script against TF's (ICU's) script codes."""
import numpy as np
import pytest

import eagerflow as tf

# code points and TF's results
CODE_POINTS = [65, 768, 1488, 1575, 2309, 3585, 12354, 12450, 44032, 128512, 1114111, 57344,
               131072, 119808, 8544, 66560, 65313, 12293, 0xD800, 0x378, -5, 0x110000]
SCRIPTS = [25, 1, 19, 2, 10, 38, 20, 22, 18, 0, 103, 103, 17, 0, 25, 9, 25, 17, 103, 103, -1, -1]


def test_values_shapes_and_function():
    out = tf.strings.unicode_script(CODE_POINTS)
    assert out.dtype == tf.int32
    np.testing.assert_array_equal(out, SCRIPTS)
    assert tf.strings.unicode_script(tf.constant(ord("a"))).numpy() == 25
    grid = tf.strings.unicode_script(tf.reshape(tf.constant(CODE_POINTS[:6]), [2, 3]))
    np.testing.assert_array_equal(grid, np.reshape(SCRIPTS[:6], [2, 3]))
    chars = tf.strings.unicode_decode("Hi Я", "UTF-8")
    np.testing.assert_array_equal(tf.function(tf.strings.unicode_script)(chars), [25, 25, 0, 8])


def test_int64_is_rejected():
    with pytest.raises(tf.errors.InvalidArgumentError, match="int32"):
        tf.strings.unicode_script(tf.constant([1], tf.int64))

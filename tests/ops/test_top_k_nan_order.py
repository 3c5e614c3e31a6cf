"""top_k on rows holding NaN returns TF's indices: NaN compares false with everything, so
where it lands depends on the steps of TF's kernel for that k (recorded from TF 2.21)."""
import numpy as np
import pytest

import eagerflow as tf

nan, inf = np.nan, np.inf

# (row, k, dtype, sorted, TF's indices)
TF_CASES = [
    ([1, 2, nan], 1, "float32", True, [0]),
    ([1, 2, nan], 1, "float32", False, [0]),
    ([nan, 1, 2], 1, "float32", True, [2]),
    ([nan, 1, 2], 1, "float32", False, [2]),
    ([2, nan, 1, 4, nan, 4, nan, -1, 3, 3, nan, nan, nan, -5, nan, 5, 2, 2, -4, 3, nan],
     1, "float32", True, [0]),
    ([2, nan, 1, 4, nan, 4, nan, -1, 3, 3, nan, nan, nan, -5, nan, 5, 2, 2, -4, 3, nan],
     1, "float32", False, [0]),
    ([2, nan, 1, 4, nan, 4, nan, -1, 3, 3, 7, nan, nan, -5], 1, "float64", True, [10]),
    ([2, nan, 1, 4, nan, 4, nan, -1, 3, 3, 7, nan, nan, -5], 1, "float64", False, [10]),
    ([2, nan, 1, 4, nan, 4, nan, -1, 3, 3, nan, 0, 9, -5], 1, "float16", True, [12]),
    ([2, nan, 1, 4, nan, 4, nan, -1, 3, 3, nan, 0, 9, -5], 1, "float16", False, [12]),
    ([3, nan, 1, 2], 2, "float32", True, [0, 1]),
    ([3, nan, 1, 2], 2, "float32", False, [1, 0]),
    ([-5, -inf, -4, nan, 3, -inf, 4], 4, "float32", True, [6, 4, 2, 3]),
    ([-5, -inf, -4, nan, 3, -inf, 4], 4, "float32", False, [3, 4, 2, 6]),
    ([-2, nan, 4, 1, nan, -inf, -3, 0], 6, "float64", True, [1, 2, 3, 7, 0, 4]),
    ([-2, nan, 4, 1, nan, -inf, -3, 0], 6, "float64", False, [4, 3, 0, 2, 1, 7]),
    ([1, 1, inf, nan, -2, nan, -3, inf, nan, 1, nan, nan, nan, inf, 1, nan],
     9, "bfloat16", True, [2, 7, 13, 0, 1, 3, 9, 4, 5]),
    ([1, 1, inf, nan, -2, nan, -3, inf, nan, 1, nan, nan, nan, inf, 1, nan],
     9, "bfloat16", False, [5, 4, 3, 1, 9, 0, 2, 7, 13]),
]


@pytest.mark.parametrize("row, k, dtype, sorted_, expected", TF_CASES)
def test_rows_with_nan_take_tfs_order(row, k, dtype, sorted_, expected):
    x = tf.constant(row, dtype)
    result = tf.math.top_k(x, k, sorted=sorted_)
    assert result.indices.numpy().tolist() == expected
    np.testing.assert_array_equal(result.values.numpy().astype(np.float64),
                                  np.asarray(row, np.float64)[expected])


def test_in_a_function_beside_rows_without_nan():
    x = tf.constant([[3.0, nan, 1.0, 2.0], [4.0, 1.0, 4.0, 2.0], [nan, nan, 1.0, nan]])
    got = tf.function(lambda t: tf.math.top_k(t, 2).indices)(x).numpy().tolist()
    assert got == [[0, 1], [0, 2], [0, 1]]  # TF's, the last row too

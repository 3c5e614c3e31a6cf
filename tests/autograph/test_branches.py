"""Graph ifs trace both branches: each starts from the state before the if."""
import numpy as np
import pytest

import eagerflow as tf


def _one_branch_modifies_what_the_other_reads(a, b):
    v1, v3 = b, a + b
    if a > 100:
        if v3 < b:
            v1 -= a
        else:
            v3 += b
    else:
        i = 0
        while i < a % 3 + 1:
            i += 1
            return v1, v3
    v1 = v3 * 2
    return v1, v3


def _neither_branch_returns(a, b, limit=100):
    if a > 0:
        if limit < 0:  # Python: this branch does not return
            return a, b
    else:
        if limit < 1:
            return b, a
    return a + 1, b + 1


@pytest.mark.parametrize("fn", [_one_branch_modifies_what_the_other_reads,
                                _neither_branch_returns])
@pytest.mark.parametrize("a, b", [(2, 2), (200, 3), (-1, 4)])
def test_branches_match_python(fn, a, b):
    expected = [np.asarray(v) for v in fn(tf.constant(a), tf.constant(b))]
    got = [v.numpy() for v in tf.function(fn)(tf.constant(a), tf.constant(b))]
    np.testing.assert_equal(got, expected)

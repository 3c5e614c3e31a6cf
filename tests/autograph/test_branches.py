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


def _branch_retraced_after_a_loop(a, b, limit=0):
    v0, v1, v2 = a, b, limit
    if 0 < v0:
        for i in tf.constant([2, 0, -1]):
            if v2 > a:
                v1 = -2
            else:
                v2 = v1 + 1
        if v1 <= 0:
            v0 = v1
        elif limit > 2:  # Python: no return here, so the branches are traced again swapped
            return v0, v1, v2
    v1 = v0 % 101
    return v0, v1, v2


def _loop_whose_return_does_not_run(a, b, limit=4):
    v0, i = a, 0
    while i < a % 3 + 1:
        i += 1
        if limit < 2:  # Python: false, the loop never returns
            return v0, b
        v0 += b
    return v0, b


@pytest.mark.parametrize("fn", [_branch_retraced_after_a_loop,
                                _loop_whose_return_does_not_run])
@pytest.mark.parametrize("a, b", [(5, 3), (-1, 4)])
def test_retraced_branches_and_unset_returns_match_python(fn, a, b):
    expected = [np.asarray(v) for v in fn(tf.constant(a), tf.constant(b))]
    got = [v.numpy() for v in tf.function(fn)(tf.constant(a), tf.constant(b))]
    np.testing.assert_equal(got, expected)

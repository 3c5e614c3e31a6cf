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


class _Holder:
    def __init__(self):
        self.total = tf.constant(0)


def test_attributes_and_items_set_in_graph_control_flow_are_its_state():
    holder = _Holder()

    @tf.function
    def loop_attribute(n):
        for i in tf.range(n):
            holder.total = holder.total + i
        return holder.total
    assert int(loop_attribute(tf.constant(5))) == 10

    @tf.function
    def branch_item(x):
        d = {"a": x}
        if x > 0:
            d["a"] = x + 1
        return d["a"]
    assert int(branch_item(tf.constant(1))) == 2 and int(branch_item(tf.constant(-1))) == -1

    @tf.function
    def both_branches_define(x):
        d = {}
        if x > 0:
            d["a"] = x
        else:
            d["a"] = -x
        return d["a"]
    assert int(both_branches_define(tf.constant(-3))) == 3

    @tf.function
    def while_attribute_and_list_items(x):
        o = _Holder()
        items = [tf.constant(0), tf.constant(1)]
        while o.total < x:
            o.total += 2
            items[1] = items[1] * 2
        return o.total, items
    total, items = while_attribute_and_list_items(tf.constant(5))
    assert int(total) == 6 and [int(v) for v in items] == [0, 8]

    @tf.function
    def one_branch_only(x):
        d = {}
        if x > 0:
            d["a"] = x
        return d
    with pytest.raises(ValueError, match="d\\['a'\\]"):
        one_branch_only(tf.constant(1))


class _Counted(tf.experimental.ExtensionType):
    x: tf.Tensor
    n: int = 1


def test_an_if_assigning_an_extension_type_in_both_branches():
    # (it failed: the branches' values were compared leaf by leaf, by a dtype they lack)
    @tf.function
    def f(b):
        p = _Counted(tf.constant(1.0))
        if b:
            p = _Counted(p.x + 1.0)
        else:
            p = _Counted(p.x - 1.0)
        return p

    assert float(f(tf.constant(True)).x) == 2.0
    assert float(f(tf.constant(False)).x) == 0.0

    @tf.function
    def g(b):
        p = _Counted(tf.constant(1.0))
        if b:
            p = _Counted(p.x + 1.0, 2)
        else:
            p = _Counted(p.x - 1.0, 3)
        return p

    with pytest.raises(TypeError, match="'p' must have the same nested structure in the "
                                        "main and else branches"):
        g(tf.constant(True))


def test_a_loop_changing_an_extension_types_python_field_is_tfs_type_error():
    @tf.function
    def f(k):
        p = _Counted(tf.constant(1.0))
        for _ in tf.range(k):
            p = _Counted(p.x * 2.0, 2)
        return p

    with pytest.raises(TypeError, match="'p' does not have the same nested structure after "
                                        "one iteration"):
        f(tf.constant(3))

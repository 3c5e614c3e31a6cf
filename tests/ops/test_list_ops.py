"""TensorList values: immutable versions whose linear writes share one list."""
import numpy as np
from hypothesis import given, settings, strategies as st

import eagerflow as tf
from tests.internals import TensorList


def test_old_versions_keep_their_elements():
    a = TensorList([None, None, None])
    b = a.replaced(1, 2, ["x"])
    c = b.replaced(3, 3, ["grown"])
    assert list(a) == [None, None, None]
    assert list(c) == [None, "x", None, "grown"]
    assert list(b) == [None, "x", None]
    assert len(a) == 3 and len(c) == 4
    assert a[1] is None and c[3] == "grown"


def test_writing_an_old_version_branches():
    a = TensorList([1, 2])
    b = a.replaced(0, 1, [10])
    c = a.replaced(1, 2, [20])  # a second write on `a`: a sibling of b
    assert (list(a), list(b), list(c)) == ([1, 2], [10, 2], [1, 20])


# A version is picked (by index among those made so far) and written: its
# slice [start:stop] replaced; every version must read as a plain tuple would.
_steps = st.lists(st.tuples(st.integers(0, 50), st.integers(0, 6), st.integers(0, 3),
                            st.lists(st.integers(), max_size=3)), max_size=30)


@settings(max_examples=200, deadline=None)
@given(_steps, st.lists(st.integers(0, 50), max_size=10))
def test_versions_read_as_tuples_under_any_write_order(steps, reads):
    versions, expected = [TensorList([0, 1, 2])], [(0, 1, 2)]
    for pick, start, width, items in steps:
        k = pick % len(versions)
        start = min(start, len(expected[k]))
        stop = min(start + width, len(expected[k]))
        versions.append(versions[k].replaced(start, stop, items))
        model = list(expected[k])
        model[start:stop] = items
        expected.append(tuple(model))
    for k in reads + list(range(len(versions)))[::-1]:
        k %= len(versions)
        assert tuple(versions[k]) == expected[k]


def test_a_graph_loop_writes_in_linear_time():
    # 5,000 writes through a traced loop: each copies nothing, and the result is exact
    @tf.function
    def fill(n):
        ta = tf.TensorArray(tf.float32, size=n)
        for i in tf.range(n):
            ta = ta.write(i, tf.cast(i, tf.float32) * 2.0)
        return ta.stack()

    np.testing.assert_array_equal(fill(tf.constant(5000)).numpy(),
                                  np.arange(5000, dtype=np.float32) * 2)


def test_loop_gradient_through_a_tensor_array():
    x = tf.constant([1.0, 2.0, 3.0])

    @tf.function
    def f(x):
        ta = tf.TensorArray(tf.float32, size=3)
        for i in tf.range(3):
            ta = ta.write(i, x[i] * x[i])
        return tf.reduce_sum(ta.stack())

    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [2.0, 4.0, 6.0])

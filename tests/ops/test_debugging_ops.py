"""tf.debugging: TF's error classes for failed value, rank, shape and dtype checks."""
import re

import pytest

import eagerflow as tf


def test_value_comparisons():
    assert tf.debugging.assert_equal(tf.constant([1, 2]), [1, 2]) is None
    assert tf.debugging.assert_less(1, 2) is None and tf.assert_greater([2, 3], 1) is None
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"boom\nCondition x == y did not hold.\nIndices of first 1"):
        tf.debugging.assert_equal(tf.constant([1, 2]), tf.constant([1, 3]), message="boom")
    with pytest.raises(tf.errors.InvalidArgumentError, match="Condition x < y"):
        tf.assert_less(2, 1)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Incompatible shapes"):
        tf.debugging.assert_equal(tf.constant([1, 2]), tf.constant([1, 2, 3]))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"\[Op:Equal\]"):
        tf.debugging.assert_equal(tf.constant([1]), 1.5)  # as `add` converts: the op reports


def test_signs_and_tolerance():
    tf.debugging.assert_positive([1, 2])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Condition x >= 0 did not hold"):
        tf.debugging.assert_non_negative(tf.constant([-1.0]))
    tf.debugging.assert_near(1.0, 1.0000001)
    with pytest.raises(tf.errors.InvalidArgumentError, match="not equal to tolerance"):
        tf.debugging.assert_near(1.0, 1.1)
    with pytest.raises(ValueError, match="Tensor conversion requested dtype float32"):
        tf.debugging.assert_near(tf.constant([1.0]), tf.constant([1.0], tf.float64))


def test_static_checks():
    tf.assert_rank(tf.zeros([2, 3]), 2)
    with pytest.raises(ValueError, match=r"must have rank 3.  Received rank 2, shape \(2, 3\)"):
        tf.debugging.assert_rank(tf.zeros([2, 3]), 3)
    with pytest.raises(ValueError, match="at least 2"):
        tf.debugging.assert_rank_at_least(tf.zeros([2]), 2)
    with pytest.raises(ValueError, match=r"in \(0, 2\)"):
        tf.debugging.assert_rank_in(tf.zeros([2]), [0, 2])
    with pytest.raises(ValueError, match="Expected scalar shape"):
        tf.debugging.assert_scalar(tf.constant([1]))
    with pytest.raises(TypeError, match="M.  tensor must be of type tf.float32; got tf.int32"):
        tf.debugging.assert_type(tf.constant(1), tf.float32, message="M")
    with pytest.raises(TypeError, match="to be integer type"):
        tf.debugging.assert_integer(tf.constant(1.0))
    assert tf.debugging.is_numeric_tensor(tf.constant(1))
    assert not tf.debugging.is_numeric_tensor(tf.constant("a"))


def test_assert_shapes():
    x, y = tf.zeros([2, 3]), tf.zeros([3])
    tf.debugging.assert_shapes([(x, ("N", 3)), (tf.zeros([2]), ("N",)), (x, ("...", 3)),
                                (x, (".", 3)), (tf.zeros([]), ())])
    with pytest.raises(ValueError, match="Specified explicitly.  Tensor shape=.* dimension 1"):
        tf.debugging.assert_shapes([(x, ("N", 4))])
    with pytest.raises(ValueError, match="Specified by tensor shape=\\(2, 3\\) dtype=float32"):
        tf.debugging.assert_shapes([(x, ("N", 3)), (y, ("N",))])
    with pytest.raises(ValueError, match="must have rank"):
        tf.debugging.assert_shapes([(x, ("N",))])


def test_assert_shapes_of_sizes_unknown_while_tracing_checks_when_run():
    @tf.function(input_signature=[tf.TensorSpec(None, tf.float32),
                                  tf.TensorSpec([None, 2], tf.float32)])
    def f(a, b):
        tf.debugging.assert_shapes([(a, ("N", "D")), (b, ("N", 2))], message="mine")
        return a

    assert f(tf.ones([3, 2]), tf.ones([3, 2])).shape == [3, 2]
    with pytest.raises(tf.errors.InvalidArgumentError, match="Tensor a:0 must have rank"):
        f(tf.ones([3]), tf.ones([3, 2]))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"mine.*Specified by tensor a:0 dimension 0.*must have size"):
        f(tf.ones([4, 2]), tf.ones([3, 2]))


def test_assert_shapes_innermost_dims_and_scalars():
    x = tf.ones([2, 3, 4])
    tf.debugging.assert_shapes([(x, (..., "D")), (tf.ones([4]), ("D",))])
    with pytest.raises(ValueError, match=r"Specified by tensor shape=\(2, 3, 4\).*dimension -1"):
        tf.debugging.assert_shapes([(x, ("*", "D")), (tf.ones([5]), ("D",))])
    with pytest.raises(ValueError, match="only allowed as the first entry"):
        tf.debugging.assert_shapes([(x, ("N", "*", 4))])
    # ("..." is a dimension's name, as any string but "*" and ".")
    with pytest.raises(ValueError, match="must have rank 2"):
        tf.debugging.assert_shapes([(x, ("...", 4))])
    # (a scalar, and no dims, are one dimension of size 1)
    tf.debugging.assert_shapes([(tf.constant(2.), [1])])
    with pytest.raises(ValueError, match="dimension 0 must have size 1.  Received size 3"):
        tf.debugging.assert_shapes([(tf.ones([3]), [])])
    tf.debugging.assert_shapes([(tf.ones([2, 3]), ("2", None)), (tf.ones([2]), None)])
    sparse = tf.sparse.SparseTensor([[0, 0]], [1.], [2, 3])
    with pytest.raises(ValueError, match="dimension 1 must have size 4"):
        tf.debugging.assert_shapes([(sparse, ("N", 4))])
def test_assert_shapes_checks_sizes_unknown_while_tracing_when_the_graph_runs():
    @tf.function(input_signature=[tf.TensorSpec([None, None]), tf.TensorSpec([None])])
    def f(a, b):
        tf.debugging.assert_shapes([(a, ("N", "L")), (b, ("L",)), (tf.zeros([5, 3]), ("T", "L"))],
                                   message="m.")
        return tf.shape(a)

    assert f(tf.zeros([2, 3]), tf.zeros([3])).numpy().tolist() == [2, 3]
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"\[m\.\.  \] \[Specified by tensor a:0 dimension 1\] "
                             r"\[Tensor b:0 dimension\] \[0\] \[must have size\] \[2\] "
                             r"\[Received shape: \] \[3\]"):
        f(tf.zeros([2, 2]), tf.zeros([3]))

    @tf.function(input_signature=[tf.TensorSpec(None)])
    def g(a):
        tf.debugging.assert_shapes([(a, ("N", 2))])
        return tf.shape(a)

    assert g(tf.zeros([4, 2])).numpy().tolist() == [4, 2]
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"\[Specified explicitly\] \[Tensor a:0 dimension\] \[1\] "
                             r"\[must have size\] \[2\] \[Received shape: \] \[2 3\]"):
        g(tf.zeros([2, 3]))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"\[Tensor a:0 must have rank\] "
                                                             r"\[2\] \[Received shape: \] \[3\]"):
        g(tf.zeros([3]))


def test_assert_type_of_ragged_and_rank_arguments():
    rt = tf.ragged.constant([[1, 2], [3]])
    assert tf.debugging.assert_type(rt, tf.int32) is None
    with pytest.raises(TypeError, match="must be of type tf.int64; got tf.int32"):
        tf.debugging.assert_type(rt, tf.int64)
    with pytest.raises(ValueError, match="Rank must be a scalar."):
        tf.debugging.assert_rank(tf.ones([2]), [1])
    assert tf.debugging.assert_rank(tf.ones([2]), tf.constant(1)) is None


def test_check_numerics_and_assert():
    assert tf.debugging.check_numerics(tf.constant([1.0]), "ok").numpy().tolist() == [1.0]
    for values, found in (([float("nan")], "NaN"), ([float("inf")], "Inf"),
                          ([float("inf"), float("nan")], "Inf and NaN")):
        with pytest.raises(tf.errors.InvalidArgumentError, match=f"m : Tensor had {found} values"):
            tf.debugging.assert_all_finite(tf.constant(values), "m")
    tf.debugging.Assert(tf.constant([True]), ["never"])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Expected 'False' to be true. Summarized data: 1, 2\nb's'"):
        tf.debugging.Assert(False, [tf.constant([1, 2]), "s"])
    # eagerly a tensor condition is shown as printed, and several values are ambiguous
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"^Expected 'tf.Tensor\(False, shape=\(\), dtype=bool\)' to be "
                             r"true. Summarized data: b'm'$"):
        tf.debugging.Assert(tf.constant(False), ["m"])
    with pytest.raises(ValueError, match="truth value"):
        tf.debugging.Assert(tf.constant([True, False]), ["m"])


def test_assert_in_a_graph_checks_when_it_runs():
    @tf.function
    def positive(x):
        tf.debugging.Assert(x > 0, ["not positive:", x, tf.constant([1.5, 2.0])])
        return x + 1

    assert positive(tf.constant(2)).numpy() == 3
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"assertion failed: \[not positive:\] \[-1\] \[1.5 2\]"):
        positive(tf.constant(-1))


def test_sign_check_messages_and_graphs():
    # TF ends a given message with ".  " before the condition
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"^m.  \nCondition x > 0 did not hold element-wise:\n"
                             r"x \(shape=\(1,\) dtype=int32\) = \n\['0'\]$"):
        tf.debugging.assert_positive(tf.constant([0]), message="m")
    # TF's assert_non_positive runs the condition and the operand's line together
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"^\nCondition x <= 0 did not hold element-wise:"
                             r"x \(shape=\(1,\) dtype=int32\) = \n\['1'\]$"):
        tf.debugging.assert_non_positive(tf.constant([1]))
    # a scalar shows as its value, not as a list
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"^\nCondition x >= 0 did not hold element-wise:\n"
                             r"x \(shape=\(\) dtype=float32\) = \n-1.5$"):
        tf.debugging.assert_non_negative(tf.constant(-1.5))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"assertion failed: \[\] \[Condition x <= 0 did not hold "
                             r"element-wise:x \(x:0\) = \] \[1\]"):
        tf.function(lambda x: [tf.debugging.assert_non_positive(x)] and None)(tf.constant([1]))
    # in a function an assertion is an op that checks when the graph runs
    checked = tf.function(lambda x: (tf.debugging.assert_non_negative(x, message="m"),
                                     tf.debugging.assert_less(x, 3), x * 2)[-1])
    assert checked(tf.constant([1, 2])).numpy().tolist() == [2, 4]
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"assertion failed: \[m.  \] \[Condition x >= 0 did not hold "
                             r"element-wise:\] \[x \(.*\) = \] \[1 -2\]"):
        checked(tf.constant([1, -2]))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"assertion failed: \[Condition x < y did not hold element-wise:\]"):
        checked(tf.constant([1, 5]))


def test_assertions_on_values_known_while_tracing_fail_at_trace_time():
    """Captured eager tensors and constants have no graph name: a function asserting on
    them fails as it traces, with TF's InvalidArgumentError and message."""
    x = tf.constant([1, 2, 3])

    @tf.function
    def equal():
        tf.debugging.assert_equal(x, tf.constant([1, 2, 4]), message="msg")

    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"msg\n\s*Condition x == y did not hold element-wise:\n\s*"
                             r"x \(shape=\(3,\) dtype=int32\) = \n\s*\[1 2 3\]"):
        equal()

    @tf.function
    def negative():
        tf.debugging.assert_negative(x, message="neg")

    with pytest.raises(tf.errors.InvalidArgumentError, match=r"neg\.  \n\s*Condition x < 0"):
        negative()

    @tf.function
    def against(y):  # one side known, the other not: checked as the graph runs
        tf.debugging.assert_equal(x, y)
        tf.debugging.assert_positive(x)
        return tf.reduce_sum(y)

    assert int(against(tf.constant([1, 2, 3]))) == 6
    with pytest.raises(tf.errors.InvalidArgumentError, match="x \\(shape=\\(3,\\) dtype=int32\\)"):
        against(tf.constant([1, 2, 4]))

    @tf.function
    def holds():
        tf.debugging.assert_less(x, tf.constant([5, 5, 5]))
        return 1

    assert int(holds()) == 1


def test_eager_assert_shows_numpy_values_and_cuts_long_data():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Summarized data: 0\.1, 2\.5\n1, 2, 3, \.\.\.$"):
        tf.debugging.Assert(False, [tf.constant([0.1, 2.5]), tf.range(1, 10)])


def test_eager_assert_near_is_tfs_assert_with_its_data():
    x = tf.constant([1.0, 2.0, 3.0])
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.debugging.assert_near(x, x + 1e-3, message="close")
    assert info.value.message == (
        "Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. Summarized data: "
        "b'close.  '\nb'x and y not equal to tolerance rtol = tf.Tensor(1.1920929e-06, "
        "shape=(), dtype=float32), atol = tf.Tensor(1.1920929e-06, shape=(), dtype=float32)'\n"
        "b'x (shape=(3,) dtype=float32) = '\n1.0, 2.0, 3.0\n"
        "b'y (shape=(3,) dtype=float32) = '\n1.001, 2.001, 3.001")


def test_rank_assertions_name_the_graph_tensor_and_check_unknown_ranks_when_run():
    for check, wanted in [(lambda a: tf.debugging.assert_rank(a, 2), ""),
                          (lambda a: tf.debugging.assert_rank_at_least(a, 2), " at least"),
                          (lambda a: tf.debugging.assert_rank_in(a, [2, 3]), " in")]:
        def fn(a, check=check):
            check(a)
            return a

        with pytest.raises(ValueError, match=f"Tensor a:0 must have rank{wanted} "):
            tf.function(fn)(tf.constant([1]))
        f = tf.function(fn, input_signature=[tf.TensorSpec(None, tf.int32)])
        assert f(tf.constant([[1]])).shape == (1, 1)
        ranks = "[2] [3]" if wanted == " in" else "[2]"
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match=re.escape(f"assertion failed: [] [Tensor a:0 must have "
                                           f"rank{wanted}] {ranks} [Received shape: ] [1]")):
            f(tf.constant([1]))
    with pytest.raises(ValueError, match=r"^Tensor  must have rank 2\.  Received rank 1"):
        tf.debugging.assert_rank(tf.constant([1]), 2)


def test_dump_debug_info_is_accepted_and_checks_its_mode(tmp_path):
    assert tf.debugging.experimental.enable_dump_debug_info(
        str(tmp_path / "dump"), tensor_debug_mode="FULL_HEALTH", circular_buffer_size=-1) is None
    assert tf.debugging.experimental.disable_dump_debug_info() is None
    assert not (tmp_path / "dump").exists()  # (no tfdbg event files are written)
    with pytest.raises(ValueError, match=r"Invalid value in tensor_debug_mode \('BAD'\)"):
        tf.debugging.experimental.enable_dump_debug_info(str(tmp_path), tensor_debug_mode="BAD")

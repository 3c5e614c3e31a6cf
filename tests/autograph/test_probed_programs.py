"""AutoGraph programs found by comparing with TF 2.21 (results checked there)."""
import numpy as np

import eagerflow as tf


def test_for_over_a_range_that_is_empty_because_start_is_past_limit():
    # tf.range(2, 0, 2) alone fails, but a loop over it runs no times, as in TF
    @tf.function
    def f(n, d):
        s = tf.constant(0.0)
        for k in tf.range(2, n, 2):
            s += 1.0
        for m in tf.range(0, n, d):
            s += 100.0
            if s > 2000.0:
                break
        for j in tf.range(0.0, tf.cast(n, tf.float32), 0.75):
            s += j
        return s, k, m

    assert [v.numpy().tolist() for v in f(tf.constant(0), tf.constant(1))] == [0.0, 2, 0]
    assert [v.numpy().tolist() for v in f(tf.constant(5), tf.constant(2))] == [317.75, 4, 4]
    assert [v.numpy().tolist() for v in f(tf.constant(6), tf.constant(-1))] == [23.0, 4, 0]


def test_a_loop_variable_set_to_none_is_tfs_value_error():
    import pytest

    @tf.function
    def f(n):
        x = tf.constant(1)
        for i in tf.range(n):
            x = None
        return x

    with pytest.raises(ValueError, match="'x' is None at the end of the iteration."):
        f(tf.constant(2))


def _times_ten(fn):
    import functools

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs) * 10
    return wrapper


@tf.function
@_times_ten
def _add_one(x):
    if x > 0:
        return x + 1
    return x


def test_a_functools_wraps_wrapper_is_converted_itself_not_the_function_it_wraps():
    assert int(_add_one(tf.constant(1))) == 20 and int(_add_one(tf.constant(-1))) == -10


def test_a_return_under_a_tensor_if_with_unknown_dimensions():
    # The fall-through branch needs a stand-in of the returned value's type: a value with
    # unknown dimensions (or rank) stands in with zero-size ones.
    @tf.function(input_signature=[tf.TensorSpec([None, 2])])
    def f(x):
        if tf.reduce_sum(x) > 0:
            return x * 2
        return x

    @tf.function(input_signature=[tf.TensorSpec(None)])
    def g(x):
        if tf.reduce_sum(x) > 0:
            return {"a": x * 2, "b": (x[..., :1], 3)}
        return {"a": -x, "b": (x[..., 1:2], 4)}

    assert f(tf.constant([[1., 2.]])).numpy().tolist() == [[2., 4.]]
    assert f(tf.constant([[-1., 2.], [-3., 0.]])).numpy().tolist() == [[-1., 2.], [-3., 0.]]
    assert f.get_concrete_function().structured_outputs.shape.as_list() == [None, 2]
    r = g(tf.constant([[-1., -2.]]))
    assert r["a"].numpy().tolist() == [[1., 2.]] and r["b"][0].numpy().tolist() == [[-2.]]
    assert int(r["b"][1]) == 4
    assert g.get_concrete_function().structured_outputs["a"].shape.rank is None


def test_a_loop_defines_a_variable_with_unknown_dimensions():
    @tf.function(input_signature=[tf.TensorSpec([None])])
    def f(x):
        for i in tf.range(3):
            y = x * tf.cast(i, tf.float32)
            x = y + 1
        return y, x

    y, x = f(tf.constant([1., 2.]))
    assert y.numpy().tolist() == [4., 4.] and x.numpy().tolist() == [5., 5.]
    assert [t.shape.as_list() for t in f.get_concrete_function().structured_outputs] == \
        [[None], [None]]


def test_bare_super_in_a_converted_method_inside_tensor_control_flow():
    class A:
        def m(self, x):
            return x + 1

    class B(A):
        def m(self, x):
            if x > 0:
                return super().m(x) * 10
            return super().m(x)

    b = B()
    f = tf.function(lambda x: b.m(x))
    assert int(f(tf.constant(1))) == 20 and int(f(tf.constant(-1))) == 0


def test_sorted_of_a_graph_tensor():
    @tf.function
    def f(x):
        return sorted(x), sorted(x, reverse=True), sorted(x, key=lambda v: -v)

    assert [t.numpy().tolist() for t in f(tf.constant([3, 1, 2]))] == \
        [[1, 2, 3], [3, 2, 1], [3, 2, 1]]


def test_a_conditional_expression_names_its_condition_in_branch_errors():
    import pytest

    @tf.function
    def mixed(x):
        return 1.0 if x > 0 else x

    @tf.function
    def none(x):
        return 1.0 if x > 0 else None

    with pytest.raises(TypeError, match="'x > 0' has dtype float32 in the main branch, but "
                                        "dtype int32 in the else branch"):
        mixed(tf.constant(1))
    with pytest.raises(ValueError, match="'x > 0' is None at the end of the else branch."):
        none(tf.constant(1))


def test_a_lambda_made_in_a_python_loop_keeps_its_iterations_value():
    # TF's converted loop bodies are functions: a variable the body binds itself, read
    # neither later nor in the next iteration, is the body's own, so each lambda sees its
    # iteration's value (tf.switch_case branches built in a loop rely on it). Variables
    # bound in a nested if, read after the loop, or read by a nested def stay shared.
    @tf.function
    def f(x):
        fs, gs, hs, branches = [], [], [], []
        for k in range(3):
            fs.append(lambda: x * k)
        i = 0
        while i < 3:
            y = i * 10
            gs.append(lambda: x + y)
            i += 1
        for j in range(3):
            if j > 0:
                z = j * 2
            else:
                z = -1
            m = j + 1
            hs.append(lambda: x * z)
            branches.append(lambda: x * m)
        return ([g() for g in fs], [g() for g in gs], [h() for h in hs],
                tf.switch_case(tf.constant(1), branches))

    @tf.function
    def g(x):
        def show():
            return x * y
        fs = []
        for k in range(3):
            y = k
            fs.append(lambda: x * k)
        return show(), [h() for h in fs], k

    fs, gs, hs, switched = f(tf.constant(1))
    assert [int(v) for v in fs] == [0, 1, 2] and [int(v) for v in gs] == [1, 11, 21]
    assert [int(v) for v in hs] == [4, 4, 4] and int(switched) == 2
    shown, fs, k = g(tf.constant(1))
    assert int(shown) == 2 and [int(v) for v in fs] == [2, 2, 2] and int(k) == 2


def test_code_after_an_if_that_returns_is_its_else_one_graph_if():
    import pytest

    @tf.function
    def f(x):
        if x > 0:
            return x * 2
        return x - 1

    @tf.function
    def mixed(x):
        if x > 0:
            return 1
        return 2.5

    @tf.function
    def none(x):
        if x > 0:
            return x
        return None

    assert int(f(tf.constant(3))) == 6 and int(f(tf.constant(-3))) == -4
    ops = [op.type for op in f.get_concrete_function(tf.TensorSpec([], tf.int32))
           .graph.get_operations()]
    assert sum("If" in t for t in ops) == 1
    # TF's messages: the if's own body is the main branch, what follows it the else
    with pytest.raises(TypeError, match="'retval_' has dtype int32 in the main branch, but "
                                        "dtype float32 in the else branch"):
        mixed(tf.constant(1))
    with pytest.raises(ValueError, match="'retval_' is None at the end of the else branch."):
        none(tf.constant(1))


def test_len_of_a_dataset_of_the_functions_tensors_is_counted_when_it_runs():
    import pytest

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def f(x):
        return len(tf.data.Dataset.from_tensor_slices(x)), len(
            tf.data.Dataset.from_tensor_slices(x).batch(2))

    got = f(tf.constant([1.0, -2.0, 3.0]))
    assert [g.numpy() for g in got] == [3, 2] and got[0].dtype == tf.int64

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def g(x):
        return len(tf.data.Dataset.from_tensor_slices(x).filter(lambda v: v > 0))

    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"len requires dataset with definitive cardinality, got -2"):
        g(tf.constant([1.0]))


def test_builtins_over_datasets_in_converted_code_are_dataset_transformations():
    import pytest

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def f(x):
        a, b = tf.data.Dataset.from_tensor_slices(x), tf.data.Dataset.range(3)
        s = tf.constant(0.0)
        for u in map(lambda t, w: t * tf.cast(w, tf.float32), a, b):  # zipped, then mapped
            s += u
        for u in filter(lambda t: t > 0, a):
            s += 10.0 * u
        for u in abs(a):
            s += 100.0 * u
        flags = tf.data.Dataset.from_tensor_slices(x > 3)
        return s, any(flags), all(flags), all(flags.take(0))

    s, some, every, vacuous = f(tf.constant([1.0, -2.0, 3.0, 4.0, -5.0]))
    assert s.numpy() == 4.0 + 80.0 + 1500.0
    assert (some.numpy(), every.numpy(), vacuous.numpy()) == (True, False, True)

    @tf.function
    def g(x):
        return any(tf.data.Dataset.from_tensor_slices(x))

    with pytest.raises(ValueError, match='the "any" builtin only supports datasets that return '
                                         "bool scalars"):
        g(tf.constant([1.0]))


def test_len_of_a_ragged_or_sparse_tensor_in_converted_code_counts_its_rows():
    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def f(x):
        return (len(tf.RaggedTensor.from_row_lengths(x, [2, 3])),
                len(tf.sparse.from_dense(tf.reshape(x, [5, 1]))))

    assert [v.numpy() for v in f(tf.constant([1.0, 2.0, 3.0, 4.0, 5.0]))] == [2, 5]


def test_a_loop_over_a_dataset_runs_to_its_end_whatever_its_maximum_iterations():
    # TF's loop over a dataset is a scan, which the option does not reach; over an iterator
    # it is a while loop, which stops there
    @tf.function
    def f(x):
        over_dataset, over_iterator = tf.constant(0.0), tf.constant(0.0)
        for v in tf.data.Dataset.from_tensor_slices(x):
            tf.autograph.experimental.set_loop_options(maximum_iterations=2)
            over_dataset += v
        for v in iter(tf.data.Dataset.from_tensor_slices(x)):
            tf.autograph.experimental.set_loop_options(maximum_iterations=2)
            over_iterator += v
        return over_dataset, over_iterator

    assert [v.numpy() for v in f(tf.constant([1.0, 2.0, 3.0]))] == [6.0, 3.0]


def _positive_or_negated(x):
    if x > 0:
        return x * 2
    return -x


def test_an_error_with_no_converted_code_on_its_way_is_not_framed_in_user_code():
    import pytest
    plain = tf.function(tf.autograph.experimental.do_not_convert(_positive_or_negated))
    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError,
                       match=r"^Using a symbolic `tf.Tensor` as a Python `bool`"):
        plain(tf.constant(3.0))

    @tf.function
    def outer(x):  # converted: the error is framed from here
        return tf.autograph.experimental.do_not_convert(_positive_or_negated)(x)

    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError, match=r"^in user code:"):
        outer(tf.constant(3.0))


def test_chained_comparisons_of_graph_tensors_are_conjunctions():
    calls = []

    def middle(v):
        calls.append(v)
        return v

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def f(x):
        inside = 0 < x[0] < 5
        ordered = x[0] <= middle(x[1]) < x[2]  # the middle operand evaluated once
        if -1.0 < x[1] <= x[2] != 7.0:
            flag = 1
        else:
            flag = 0
        return inside, ordered, flag, 0 < x.shape.rank <= 3

    assert [bool(v) for v in f(tf.constant([1.0, 2.0, 3.0]))] == [True, True, True, True]
    assert len(calls) == 1
    assert [bool(v) for v in f(tf.constant([7.0, 2.0, 7.0]))] == [False, False, False, True]


def test_a_function_with_an_assignment_expression_runs_unconverted_as_in_tf():
    import pytest

    def countdown(n):
        total = 0
        while (n := n - 1) > 0:
            total += n
        return total

    assert tf.function(countdown)(5).numpy() == 10  # Python values: it runs as it is
    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError, match="^Using a symbolic"):
        tf.function(countdown)(tf.constant(5))


def test_a_loop_target_that_is_an_attribute_or_an_item_is_loop_state():
    class Holder:
        pass

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def f(x):
        o, d = Holder(), {"k": tf.constant(0.0)}
        o.v = tf.constant(0.0)
        s = tf.constant(0.0)
        for o.v in x:
            s += o.v
        for d["k"], w in zip(tf.unstack(x, num=3), [1.0, 2.0, 3.0]):  # unrolled: Python's
            s += d["k"] * w
        for d["k"] in x * 10:
            s += d["k"]
        return s, o.v, d["k"]

    assert [v.numpy() for v in f(tf.constant([1.0, -2.0, 4.0]))] == [42.0, 4.0, 40.0]


def _magnitude(v):
    if v > 0:
        return v
    return -v


def test_map_fn_and_vectorized_map_convert_their_function_as_tf():
    import pytest

    def f(x):
        return tf.map_fn(_magnitude, x), tf.vectorized_map(_magnitude, x)

    x = tf.constant([1.0, -2.0, 3.0])
    for got in tf.function(f)(x):
        assert got.numpy().tolist() == [1.0, 2.0, 3.0]
    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError):  # unless AutoGraph is off
        tf.function(f, autograph=False)(x)


def test_an_eager_vectorized_map_traces_its_function_unconverted_as_tf():
    import pytest

    # (TF converts it only inside a function traced with AutoGraph; one traced before
    # leaves no trace of it)
    tf.function(lambda x: x + 1)(tf.constant(1.0))
    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError):
        tf.vectorized_map(_magnitude, tf.constant([1.0, -2.0]))
    assert tf.map_fn(_magnitude, tf.constant([1.0, -2.0])).numpy().tolist() == [1.0, 2.0]


def test_a_strategys_run_converts_its_function_inside_a_traced_function():
    strategy = tf.distribute.get_strategy()

    @tf.function
    def f(x):
        return strategy.run(_magnitude, args=(x,))

    assert [f(tf.constant(v)).numpy() for v in (3.0, -3.0)] == [3.0, 3.0]
    assert strategy.run(_magnitude, args=(tf.constant(-2.0),)).numpy() == 2.0  # eagerly


def test_to_graph_and_to_code_of_something_without_code_raise_tfs_conversion_error():
    import pytest
    for convert in (tf.autograph.to_graph, tf.autograph.to_code):
        with pytest.raises(Exception, match=r"^converting 3: ValueError: Cannot apply autograph "
                                            r"to a function that doesn't expose a __code__ "
                                            r"object\.") as caught:
            convert(3)
        assert type(caught.value).__name__ == "ConversionError"

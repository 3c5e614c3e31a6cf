"""Same result as Python: each function runs natively with Python values and under
`function` with tensors (graph control flow), and the two must agree in result, printed
output and exception class."""
import io
import sys

import numpy as np
import pytest

import eagerflow as tf
from tests.internals import InaccessibleTensorError


def _run(fn, args):
    out, err = io.StringIO(), None
    saved, sys.stdout = sys.stdout, out
    try:
        result = fn(*args)
    except Exception as e:  # noqa: BLE001 (the class is what is compared)
        result, err = None, type(e)
    finally:
        sys.stdout = saved
    return result, out.getvalue(), err


def _plain(value):
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return None if value is None else np.asarray(value).tolist()


def check(fn, *args, graph_error=None, options=None):
    """Runs `fn` on Python `args` and, under `function` (with AutoGraph's optional features
    `options`), on them as tensors; compares."""
    expected, printed, error = _run(fn, args)
    tensors = [tf.constant(a) if isinstance(a, (int, float, bool, list)) else a for a in args]
    got, graph_printed, got_error = _run(
        tf.function(fn, experimental_autograph_options=options), tensors)
    wanted = graph_error or error
    # (as TF's, a KeyError of staged code is one of a subclass of that name, shown framed)
    assert got_error is wanted or wanted is not None and got_error is not None and \
        issubclass(got_error, wanted) and got_error.__name__ == wanted.__name__, \
        (error, got_error)
    assert graph_printed == printed
    if error is None:
        assert _plain(got) == pytest.approx(_plain(expected)) if isinstance(
            _plain(expected), float) else _plain(got) == _plain(expected)
    return got


def _print(*values):
    tf.print(*values, output_stream=sys.stdout)


# -- loops with 0, 1, 2 variables ---------------------------------------------------------------

def loop_no_vars(n):
    while n > 100:
        _print("never")
    return n


def loop_one_var(n):
    while n < 10:
        n = n + 3
    return n


def loop_two_vars(n):
    i, s = 0, 0
    while i < n:
        s = s + i * i
        i = i + 1
    return i, s


def for_range(n):
    s = 0
    for i in range(n):
        s += i
    return s


def for_range_start_step(n):
    s = 0
    for i in range(2, n, 3):
        s = s * 2 + i
    return s


def nested_loops(n):
    total = 0
    for i in range(n):
        j = 0
        while j < i:
            total += i * j
            j += 1
    return total


def for_over_tensor(x):
    s = 0.0
    for row in x:
        s = s + row * row
    return s


def loop_var_only_read_after(n):
    while n > 0:
        last = n
        n -= 1
    return last


@pytest.mark.parametrize("fn, args", [
    (loop_no_vars, (3,)), (loop_one_var, (1,)), (loop_one_var, (20,)), (loop_two_vars, (5,)),
    (loop_two_vars, (0,)), (for_range, (6,)), (for_range, (0,)), (for_range_start_step, (11,)),
    (nested_loops, (5,)), (for_over_tensor, ([1.0, 2.0, 3.0],)),
    (loop_var_only_read_after, (3,)),
])
def test_loops(fn, args):
    check(fn, *args)


# -- break, continue, return in loops -------------------------------------------------------------

def while_break(n):
    i = 0
    while i < n:
        if i * i > 20:
            break
        i += 1
    return i


def while_continue(n):
    i, odd = 0, 0
    while i < n:
        i += 1
        if i % 2 == 0:
            continue
        odd += i
    return odd


def for_break_continue(n):
    s = 0
    for i in range(n):
        if i % 3 == 0:
            continue
        if s > 12:
            break
        s += i
    return s


def nested_break(n):
    count = 0
    for i in range(n):
        for j in range(n):
            if j > i:
                break
            count += 1
    return count


def return_in_loop(n):
    i = 0
    while i < 100:
        if i * 3 > n:
            return i
        i += 1
    return -1


def return_in_for(n):
    for i in range(n):
        if i * i >= n:
            return i * 10
    return 0


def break_in_python_loop_on_tensor(x):
    for i in [1, 2, 3, 4]:
        if x < i:
            break
        x = x + 1
    return x


@pytest.mark.parametrize("fn, args", [
    (while_break, (10,)), (while_break, (3,)), (while_continue, (9,)),
    (for_break_continue, (20,)), (nested_break, (4,)),
])
def test_jumps(fn, args):
    check(fn, *args)


@pytest.mark.parametrize("x", [2, 0])
def test_break_in_python_loop_on_tensor_raises(x):
    # TF 2.21's AutoGraph: a Python loop cannot break on a tensor condition
    break_in_python_loop_on_tensor(x)  # runs as Python
    with pytest.raises(NotImplementedError, match="break and return statements which depend "
                       "on a TF condition are not supported in Python for loops"):
        tf.function(break_in_python_loop_on_tensor)(tf.constant(x))


@pytest.mark.parametrize("fn, args, graph_error", [
    # TF 2.21's AutoGraph: a graph `if` in a loop body returns in both branches or neither,
    # and no return sits inside a graph loop
    (return_in_loop, (10,), ValueError), (return_in_loop, (400,), ValueError),
    (return_in_for, (10,), NotImplementedError), (return_in_for, (0,), NotImplementedError),
])
def test_returns_in_loops_on_tensors_raise(fn, args, graph_error):
    fn(*args)  # runs as Python
    with pytest.raises(graph_error, match="must also have a return statement|a return "
                       "statement cannot be placed inside this TensorFlow loop"):
        tf.function(fn)(*[tf.constant(a) for a in args])


# -- conditionals --------------------------------------------------------------------------------

def if_modifies(x):
    y = 0
    if x > 0:
        y = x * 2
    return y


def if_else_creates(x):
    if x > 0:
        y = 1
        z = x
    else:
        y = -1
        z = -x
    return y * z


def if_temporary_in_one_branch(x):
    if x > 0:
        t = x * 3
        y = t + 1
    else:
        y = x
    return y


def elif_chain(x):
    if x < 0:
        sign = -1
    elif x == 0:
        sign = 0
    else:
        sign = 1
    return sign


def nested_ifs(x, y):
    if x > 0:
        if y > 0:
            q = 1
        else:
            q = 4
    else:
        q = 2 if y > 0 else 3
    return q


def early_return(x):
    if x > 5:
        return x - 5
    x = x * 2
    if x > 4:
        return x
    return -x


def return_in_both_branches(x):
    if x % 2 == 0:
        return x // 2
    else:
        return 3 * x + 1


def ternary(x):
    return x * 2 if x > 1 else x - 1


@pytest.mark.parametrize("fn, args", [
    (if_modifies, (3,)), (if_modifies, (-3,)), (if_else_creates, (2,)), (if_else_creates, (-2,)),
    (if_temporary_in_one_branch, (2,)), (if_temporary_in_one_branch, (-2,)),
    (elif_chain, (-4,)), (elif_chain, (0,)), (elif_chain, (4,)),
    (nested_ifs, (1, 1)), (nested_ifs, (1, -1)), (nested_ifs, (-1, 1)), (nested_ifs, (-1, -1)),
    (early_return, (9,)), (early_return, (3,)), (early_return, (1,)),
    (return_in_both_branches, (6,)), (return_in_both_branches, (7,)),
    (ternary, (3,)), (ternary, (0,)),
])
def test_conditionals(fn, args):
    check(fn, *args)


# -- logical expressions -----------------------------------------------------------------------

def logical(x, y):
    a = x > 0 and y > 0
    b = x > 0 or y > 0
    c = not x > 0
    return a, b, c


def chained_comparison(x):
    return 0 < x < 10


def short_circuit(x):
    values = [3, 4]
    if x < 2 and values[1] > 0:  # a Python right side next to a tensor left side
        return 1
    return 0


def bool_in_loop_condition(n):
    i, s = 0, 0
    while i < n and s < 20:
        s += i
        i += 1
    return s


@pytest.mark.parametrize("fn, args", [
    (logical, (1, 1)), (logical, (1, -1)), (logical, (-1, -1)),
    (chained_comparison, (5,)), (chained_comparison, (12,)), (chained_comparison, (0,)),
    (short_circuit, (1,)), (short_circuit, (3,)), (bool_in_loop_condition, (100,)),
])
def test_logical(fn, args):
    check(fn, *args)


# -- prints, asserts, builtins, calls -------------------------------------------------------------

def prints_in_loop(n):
    i = 0
    while i < n:
        _print("i =", i)
        i += 1
    return i


def prints_in_branches(x):
    if x > 0:
        _print("positive", x)
    else:
        _print("not positive")
    return x


def helper_with_control_flow(x):
    if x > 0:
        return x
    return -x


def calls_user_function(n):
    s = 0
    for i in range(n):
        s += helper_with_control_flow(i - 2)
    return s


def builtins_on_tensors(x):
    return len(x), int(x[0] * 2.5), float(x[1])


def abs_builtin(x):
    total = 0
    for v in x:
        total += abs(v)
    return total


@pytest.mark.parametrize("fn, args", [
    (prints_in_loop, (3,)), (prints_in_branches, (2,)), (prints_in_branches, (-2,)),
    (calls_user_function, (5,)), (abs_builtin, ([-1, 2, -3],)),
])
def test_prints_and_calls(fn, args):
    check(fn, *args)


def test_len_int_float_cast_tensors():
    got = tf.function(builtins_on_tensors)(tf.constant([1.0, 2.0, 3.0]))
    assert [np.asarray(g).tolist() for g in got] == [3, 2, 2.0]
    assert got[1].dtype == tf.int32 and got[2].dtype == tf.float32


def positive_or_fail(x):
    assert x > 0, "x must be positive"
    return x


def test_assert_is_python_for_python_values_and_an_op_for_tensors():
    assert positive_or_fail(2) == 2
    with pytest.raises(AssertionError, match="x must be positive"):
        positive_or_fail(-2)
    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError):  # by default, as in TF
        tf.function(positive_or_fail)(tf.constant(2))
    f = tf.function(positive_or_fail,
                    experimental_autograph_options=tf.autograph.experimental.Feature.ASSERT_STATEMENTS)
    assert f(tf.constant(2)).numpy() == 2
    with pytest.raises(tf.errors.InvalidArgumentError, match="x must be positive"):
        f(tf.constant(-2))


# -- errors ----------------------------------------------------------------------------------------

def raises_in_loop(n):
    i = 0
    while i < n:
        i += 1
    raise KeyError("done")


def test_exceptions_match():
    check(raises_in_loop, 3)


def defined_in_one_branch(x):
    if x > 0:
        y = 1
    return y


def test_variable_defined_in_one_branch():
    assert defined_in_one_branch(1) == 1
    with pytest.raises(UnboundLocalError):
        defined_in_one_branch(-1)
    with pytest.raises(ValueError, match="'y' must also be initialized in the else branch"):
        tf.function(defined_in_one_branch)(tf.constant(1))


# -- lists built in loops ----------------------------------------------------------------------

def list_building_for(n):
    squares = []
    for i in range(n):
        squares.append(i * i)
    return tf.stack(squares), len(squares)


def list_building_while(n):
    values = [100]
    i = 0
    while i < n:
        values.append(i + 1)
        i += 1
    last = values.pop()
    return tf.stack(values), last


def list_of_fixed_length_in_loop(n):
    pair = [0, 1]
    for _ in range(n):
        pair = [pair[1], pair[0] + pair[1]]
    return pair


@pytest.mark.parametrize("fn, args", [
    (list_building_for, (4,)), (list_building_while, (3,)),
    (list_of_fixed_length_in_loop, (6,)),
])
def test_lists(fn, args):
    check(fn, *args, options=tf.autograph.experimental.Feature.LISTS)


def appends_python_values(n):
    out = []
    for _ in range(n):
        out.append(1)
    return len(out), out


def test_without_the_lists_feature_a_tensor_loop_appends_once_per_trace():
    # as TF's default: the body runs once, while the loop is traced; its tensors stay inside
    size, out = tf.function(appends_python_values)(tf.constant(3))
    assert size.numpy() == 1 and [v.numpy() for v in out] == [1]
    with pytest.raises(InaccessibleTensorError, match="is out of scope"):
        tf.function(list_building_for)(tf.constant(4))


def list_returned_for(n):
    out = []
    for i in range(n):
        out.append(i)
    return out, n


def list_returned_while(n):
    out = []
    i = 0
    while i < n:
        out.append(i)
        i += 1
    return {"values": out}


@pytest.mark.parametrize("fn", [list_returned_for, list_returned_while])
def test_a_returned_list_grown_by_a_tensor_loop_is_out_of_scope(fn):
    # as TF: its elements are the loop body's tensors, which the function cannot return
    with pytest.raises(InaccessibleTensorError, match=r"^<tf.Tensor '.*' shape=\(\) dtype=int32> "
                       r"is out of scope and cannot be used here\. Use return values, explicit "
                       r"Python locals or TensorFlow collections to access it\.\n"):
        tf.function(fn)(tf.constant(3))


def test_original_autograph_list_example():
    from eagerflow.autograph import experimental as ag

    def squares(n):
        z = []
        ag.set_element_type(z, tf.int32)
        for i in range(n):
            z.append(i * i)
        return ag.stack(z)

    f = tf.function(squares, experimental_autograph_options=tf.autograph.experimental.Feature.LISTS)
    assert f(tf.constant(5)).numpy().tolist() == [0, 1, 4, 9, 16]
    assert ag.stack([1, 2]).numpy().tolist() == [1, 2]

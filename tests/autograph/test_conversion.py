"""Conversion itself: what gets converted, readable code, directives, errors at user lines."""
import logging

import numpy as np
import pytest

import eagerflow as tf
from tests.internals import conversion


def _collatz(n):
    count = 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        count += 1
    return count


def test_collatz_runs_as_one_graph_loop():
    f = tf.function(_collatz)
    assert f(tf.constant(77031)).numpy() == 350 == _collatz(77031)
    ops = [op.type for op in f.get_concrete_function(tf.constant(1)).graph.get_operations()]
    assert "While" in ops or "StatelessWhile" in ops


def test_to_code_is_readable_python():
    code = tf.autograph.to_code(_collatz)
    assert "ag__.while_stmt(" in code and "ag__.if_stmt(" in code
    compile(code, "<to_code>", "exec")  # valid Python
    assert tf.autograph.to_code(tf.function(_collatz)) == code


def test_to_graph_gives_a_function_usable_eagerly_and_in_graphs():
    converted = tf.autograph.to_graph(_collatz)
    assert converted(6) == 8  # plain Python values: plain Python control flow
    assert tf.function(converted, autograph=False)(tf.constant(6)).numpy() == 8


def test_autograph_false_traces_python_as_it_is():
    f = tf.function(_collatz, autograph=False)
    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError):
        f(tf.constant(6))


def _absolute(x):
    return x if x >= 0 else -x


class _Scaler:
    def __init__(self, factor):
        self.factor = factor

    def scale(self, x):
        if x > 0:
            return x * self.factor
        return x

    def __call__(self, x):
        while x < 10:
            x = self.scale(x) + 1
        return x


def test_user_functions_methods_callables_and_lambdas_convert_recursively():
    scaler = _Scaler(2)
    double_positive = lambda x: x * 2 if x > 0 else x  # noqa: E731

    @tf.function
    def f(x):
        return _absolute(x) + scaler(x) + double_positive(x)

    for x in (-3, 2):
        assert f(tf.constant(x)).numpy() == _absolute(x) + scaler(x) + double_positive(x)


def test_closures_and_nested_functions():
    offset = 5

    @tf.function
    def f(x):
        def inner(y):
            if y > offset:
                y = y - offset
            return y
        total = 0
        for i in tf.range(x):
            total += inner(i)
        return total

    assert f(tf.constant(8)).numpy() == sum(i - 5 if i > 5 else i for i in range(8))


def test_library_code_is_not_converted():
    assert conversion.convert(np.sum) is np.sum
    assert conversion.convert(tf.reduce_sum) is tf.reduce_sum
    assert conversion.convert(len) is not len  # builtins get their tensor-aware version


def test_do_not_convert_runs_the_function_as_it_is():
    @tf.autograph.experimental.do_not_convert
    def python_only(x):
        if x > 0:
            return x
        return -x

    assert conversion.convert(python_only) is python_only
    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError):
        tf.function(lambda x: python_only(x))(tf.constant(1))


def test_source_unavailable_warns_once_and_runs_as_it_is(caplog):
    namespace = {}
    code = compile("def made(x):\n    return x * 2\n", "/nonexistent/made.py", "exec")
    exec(code, namespace)  # noqa: S102 (a file that does not exist: no source)
    f = tf.function(namespace["made"])
    with caplog.at_level(logging.WARNING, logger="tensorflow"):
        assert f(tf.constant(2)).numpy() == 4
        assert f(tf.constant(3.0)).numpy() == 6.0
    warnings = [r for r in caplog.records if "could not transform" in r.getMessage()]
    assert len(warnings) == 1 and "run it as-is" in warnings[0].getMessage()


def test_code_from_exec_of_a_string_runs_as_it_is_without_a_warning(caplog):
    namespace = {}
    exec("def double(x):\n    return x * 2\n"  # noqa: S102
         "def positive(x):\n    if x > 0:\n        return x\n    return -x\n", namespace)
    with caplog.at_level(logging.WARNING, logger="tensorflow"):
        assert tf.function(namespace["double"])(tf.constant(2.0)).numpy() == 4.0
        ds = tf.data.Dataset.range(3).map(namespace["double"])
        assert list(ds.as_numpy_iterator()) == [0, 2, 4]
        with pytest.raises(tf.errors.OperatorNotAllowedInGraphError):
            tf.function(namespace["positive"])(tf.constant(2.0))  # unconverted: a tensor `if`
    assert not [r for r in caplog.records if "could not transform" in r.getMessage()]


def _generator_user(x):
    def gen():
        yield 1
    return x + sum(gen())


def test_generators_stay_python():
    assert tf.function(_generator_user)(tf.constant(1)).numpy() == 2


def _counter(n):
    for i in range(n):
        yield i


def test_a_called_generator_function_runs_unconverted_without_a_warning(caplog):
    @tf.function
    def f(x):
        for i in _counter(3):
            x += i
        return x
    with caplog.at_level(logging.WARNING, logger="tensorflow"):
        assert f(tf.constant(1)).numpy() == 4
    assert not [r for r in caplog.records if "could not transform" in r.getMessage()]


def test_a_function_defining_a_generator_is_not_converted_with_tfs_warning(caplog):
    def g(x):
        def gen():
            yield 1
        if x > 0:  # unconverted: a tensor condition cannot run
            x = x + sum(gen())
        return x
    with caplog.at_level(logging.WARNING, logger="tensorflow"):
        with pytest.raises(tf.errors.OperatorNotAllowedInGraphError):
            tf.function(g)(tf.constant(1))
    warnings = [r.getMessage() for r in caplog.records if "could not transform" in r.getMessage()]
    assert len(warnings) == 1 and "Cause: generators are not supported\n" in warnings[0]


# -- loop options and loop variables -------------------------------------------------------------

def test_set_loop_options_maximum_iterations_and_shape_invariants():
    @tf.function
    def grow(x):
        i = tf.constant(0)  # a tensor condition: a graph loop, which the options apply to
        while i < 10:
            tf.autograph.experimental.set_loop_options(
                maximum_iterations=3, shape_invariants=[(x, tf.TensorShape([None]))])
            x = tf.concat([x, x], 0)
            i += 1
        return x, i

    x, i = grow(tf.constant([1]))
    assert x.numpy().tolist() == [1] * 8 and i.numpy() == 3


def test_shape_change_without_invariant_names_the_variable():
    def grow(x):
        while tf.reduce_sum(x) < 10:
            x = tf.concat([x, x], 0)
        return x

    with pytest.raises(ValueError, match=r"'x' has shape \(1,\) before the loop, but shape "
                                         r"\(2,\) after one iteration"):
        tf.function(grow)(tf.constant([1]))


def test_dtype_change_names_the_variable():
    def f(x):
        while x > 0:
            x = tf.cast(x, tf.float32)
        return x

    with pytest.raises(TypeError, match="'x' has dtype int32 before the loop, but dtype "
                                        "float32 after one iteration"):
        tf.function(f)(tf.constant(1))


def test_variable_first_defined_in_a_tensor_loop():
    def f(x):
        y = None
        while x > 0:
            x -= 1
            y = x * 2
        return y

    assert tf.function(f)(tf.constant(3)).numpy() == 0


def test_variable_read_before_defined_in_a_tensor_loop():
    def f(x):
        while x > 0:
            x -= 1
            y = y + 1  # noqa: F821
        return y

    with pytest.raises(ValueError, match="'y' must be defined before the loop"):
        tf.function(f)(tf.constant(3))


def test_for_else_over_tensors_is_refused_but_works_in_python():
    def f(n):
        s = 0
        for i in range(n):
            s += i
        else:
            s = -s
        return s

    assert f(3) == -3
    assert tf.function(f)(3).numpy() == -3  # a Python loop (n is a Python int)
    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError, match="else clause"):
        tf.function(f)(tf.constant(3))


def test_loop_with_a_python_then_a_tensor_condition_raises():
    def f(x):
        i = 0
        while i < 2 or x < 100:  # Python while i < 2, then a tensor condition
            x = x * 3
            i += 1
        return x, i

    # TF 2.21's error: the kind of loop is decided by its first test
    with pytest.raises(NotImplementedError, match="The condition of while loop started as "
                       "non-Tensor, then changed to Tensor."):
        tf.function(f)(tf.constant(2))


def test_while_else_whose_break_depends_on_a_tensor_is_refused_as_tf_refuses_it():
    def f(x):
        i = 0
        while i < 10:
            i += 1
            if i > x:  # a tensor condition: the loop would become a graph loop
                break
        else:
            i = -1
        return i

    # TF leaves a function with a loop/else unconverted, so the tensor test fails in Python
    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError, match="else clause"):
        tf.function(f)(tf.constant(3))
    assert tf.function(f)(30) == -1


# -- errors ------------------------------------------------------------------------------------

def _one_sided(x):
    if x > 0:
        y = 1
    return y


def test_errors_point_at_the_user_line():
    with pytest.raises(ValueError) as info:
        tf.function(_one_sided)(tf.constant(1))
    message = str(info.value)
    assert message.startswith("in user code:")
    assert "test_conversion.py" in message and "in _one_sided  *" in message
    assert "if x > 0:" in message
    assert "'y' must also be initialized in the else branch" in message
    frames = [f for f in __import__("traceback").extract_tb(info.value.__traceback__)
              if f.name == "_one_sided"]
    assert frames and frames[0].line == "if x > 0:"  # the real traceback shows it too


def test_errors_in_branches_name_their_kind():
    def dtypes(x):
        if x > 0:
            y = 1.0
        else:
            y = 1
        return y

    def none(x):
        if x > 0:
            y = x
        else:
            y = None
        return y

    def none_first(x):
        if x > 0:
            y = None
        else:
            y = x
        return y

    def structure(x):
        if x > 0:
            y = [x, x]
        else:
            y = [x]
        return y

    def missing_return(x):
        if x > 0:
            return x

    for fn, error, text in (
            (dtypes, TypeError, "'y' has dtype float32 in the main branch, but dtype int32 "
                                "in the else branch"),
            (none, ValueError, "'y' is None at the end of the else branch."),
            (none_first, ValueError, "'y' is None at the end of the main branch."),
            (structure, TypeError, "'y' must have the same nested structure in the main and "
                                   "else branches"),
            (missing_return, ValueError, "the else branch must also have a return statement.")):
        with pytest.raises(error, match=text.replace("(", r"\(").replace(".", r"\.")):
            tf.function(fn)(tf.constant(1))


def test_gradients_flow_through_converted_control_flow():
    @tf.function
    def grad_of_power(x, n):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.constant(1.0, tf.float64)
            i = 0
            while i < n:  # x ** n by a loop with a data-dependent trip count
                if x > 0:
                    y = y * x
                else:
                    y = y * -x
                i += 1
        return tape.gradient(y, x)

    x = tf.constant(1.5, tf.float64)
    for n in (0, 1, 4):
        eps = 1e-6
        numeric = ((1.5 + eps) ** n - (1.5 - eps) ** n) / (2 * eps)
        got = grad_of_power(x, tf.constant(n)).numpy()
        assert got == pytest.approx(numeric, rel=1e-6)


def test_trace_prints_its_arguments_and_set_verbosity_takes_tf_arguments(capsys):
    tf.autograph.trace("value:", 3)
    assert capsys.readouterr().out == "value: 3\n"
    tf.autograph.set_verbosity(3, alsologtostdout=True)
    with pytest.raises(TypeError):
        tf.autograph.set_verbosity()  # the level is required, as in TF


def _adds_half(v):
    return v + 0.5


def _loop_calling_a_helper(n):
    x = 0
    for i in tf.range(n):
        if i > 1:
            x = _adds_half(x)
    return x


def test_error_frames_are_the_user_functions_as_tf_shows_them():
    """Generated loop and branch bodies count as the function they come from (its innermost
    line), frames follow each other, and every line of the message is indented."""
    with pytest.raises(TypeError) as info:
        tf.function(_loop_calling_a_helper)(tf.constant(3))
    path = __file__
    assert str(info.value) == (
        f'in user code:\n\n'
        f'    File "{path}", line {_loop_calling_a_helper.__code__.co_firstlineno + 4}, in '
        f'_loop_calling_a_helper  *\n        x = _adds_half(x)\n'
        f'    File "{path}", line {_adds_half.__code__.co_firstlineno + 1}, in _adds_half  *\n'
        f'        return v + 0.5\n\n'
        f"    TypeError: Input 'y' of 'AddV2' Op has type float32 that does not match type int32 "
        f"of argument 'x'.\n")


def _spans_lines(x):
    return tf.reshape(x,
                      [5])


def test_a_frame_of_a_statement_over_several_lines_names_its_first_line():
    # as TF's source map: the line the converted statement starts on
    with pytest.raises(ValueError) as info:
        tf.function(_spans_lines)(tf.constant([1.0, 2.0]))
    first = _spans_lines.__code__.co_firstlineno + 1
    assert f'line {first}, in _spans_lines  *\n        return tf.reshape(x,\n' in \
        str(info.value)


def test_a_dataset_loop_state_may_take_an_element_of_unknown_rank():
    @tf.function
    def total(dataset):
        loss = tf.constant(0)
        for x, y in dataset:  # from_generator without shapes: elements of unknown rank
            loss += tf.abs(y - x)
        return loss
    dataset = tf.data.Dataset.from_generator(lambda: [(1, 3)] * 3, (tf.int32, tf.int32))
    assert int(total(dataset)) == 6
    assert total.get_concrete_function(dataset).structured_outputs.shape.rank is None


class _DefaultInitError(Exception):
    pass


def test_errors_raised_while_tracing_keep_or_take_tfs_types():
    def raising(error):
        @tf.function
        def f(x):
            raise error
        return lambda: f(tf.constant(1))
    # TF re-raises these types with the "in user code" message ...
    for error in (ValueError("v"), TypeError("t"), KeyError("k"), _DefaultInitError("d")):
        with pytest.raises(type(error), match="in user code"):
            raising(error)()
    # ... and the others as a StagingError
    for error in (IndexError("i"), ZeroDivisionError("z"), RecursionError("r")):
        with pytest.raises(Exception, match="in user code") as caught:
            raising(error)()
        assert type(caught.value).__name__ == "StagingError"
        assert f"{type(error).__name__}: " in str(caught.value)


def test_a_loop_over_a_scalar_tensor_is_tfs_len_error():
    @tf.function
    def total(x):
        s = 0.0
        for v in x:
            s += v
        return s

    @tf.function
    def length(x):
        return len(x)

    text = 'len requires a non-scalar tensor, got one of shape Tensor("Shape:0", shape=(0,)'
    for f in (total, length):
        with pytest.raises(ValueError, match=text.replace("(", r"\(").replace(")", r"\)")):
            f(tf.constant(1.0))
    assert float(total(tf.constant([1.0, 2.0]))) == 3.0


def test_frozen_standard_library_functions_are_not_converted(caplog):
    # ``os.path.join``'s code is ``<frozen posixpath>``: library code, called as it is
    import os

    @tf.function
    def f():
        return os.path.join("a", "b")
    with caplog.at_level(logging.WARNING, logger="tensorflow"):
        assert f().numpy() == b"a/b"
    assert not [r for r in caplog.records if "could not transform" in r.getMessage()]


def test_a_generator_function_traced_itself_warns_one_called_from_converted_code_does_not(
        caplog):
    def halves(x):
        for i in range(2):
            yield x * i

    @tf.function
    def uses(x):
        return sum(halves(x))

    @tf.function
    def generates(x):
        yield x

    with caplog.at_level(logging.WARNING, logger="tensorflow"):
        assert int(uses(tf.constant(2))) == 2
        assert not [r for r in caplog.records if "could not transform" in r.getMessage()]
        with pytest.raises(TypeError):
            generates(tf.constant(1))
    warnings = [r.getMessage() for r in caplog.records if "could not transform" in r.getMessage()]
    assert len(warnings) == 1 and "generates" in warnings[0]
    assert "Cause: generators are not supported" in warnings[0]


def test_a_key_error_in_user_code_shows_its_framed_message():
    # As TF's: a KeyError framed in user code is a KeyError (by name too) whose str is the
    # framed message itself, not its repr with the lines escaped
    @tf.function
    def lookup(x):
        return {"a": x}["b"]

    with pytest.raises(KeyError) as info:
        lookup(tf.constant(1.0))
    assert type(info.value).__name__ == "KeyError"
    assert str(info.value).startswith("in user code:\n\n")
    assert str(info.value).endswith("\n    KeyError: 'b'\n")
    assert info.value.args == ("KeyError: 'b'",)

"""cond, case, switch_case and while_loop: eagerly as Python, in graphs as one op each."""
import numpy as np
import pytest

import eagerflow as tf
from tests.graph.gradient_check import check_gradients


def _op_types(fn, *specs):
    return [op.type for op in fn.get_concrete_function(*specs).graph.get_operations()]


SCALAR = tf.TensorSpec([], tf.float32)


# -- cond -----------------------------------------------------------------------------------------

def test_eager_cond_runs_one_branch_and_returns_its_value_as_is():
    ran = []
    out = tf.cond(tf.constant(True), lambda: ran.append("t") or 1, lambda: ran.append("f") or 2)
    assert out == 1 and ran == ["t"]
    assert tf.cond(False, lambda: 1.0, lambda: 2.0) == 2.0


@pytest.mark.parametrize("x", [3.0, -3.0])
def test_cond_in_a_graph_is_one_op_and_matches_eager(x):
    def f(x):
        return tf.cond(x > 0, lambda: x * 2.0, lambda: x - 1.0)
    g = tf.function(f)
    assert float(g(tf.constant(x))) == float(f(tf.constant(x)))
    assert "StatelessIf" in _op_types(g, SCALAR)


def test_cond_branches_capture_outer_tensors_and_variables():
    v = tf.Variable(10.0)
    c = tf.constant(5.0)

    @tf.function
    def f(x, y):
        return tf.cond(x > y, lambda: (x * v, c), lambda: (y + v, x))

    a, b = f(tf.constant(2.0), tf.constant(1.0))
    assert (float(a), float(b)) == (20.0, 5.0)
    a, b = f(tf.constant(1.0), tf.constant(2.0))
    assert (float(a), float(b)) == (12.0, 1.0)


def test_two_conds_on_the_same_inputs_stay_two():
    @tf.function
    def f(p):
        return (tf.cond(p, lambda: tf.constant(1.0), lambda: tf.constant(2.0)),
                tf.cond(p, lambda: tf.constant(10.0), lambda: tf.constant(20.0)))
    assert [float(t) for t in f(tf.constant(True))] == [1.0, 10.0]


def test_stateful_branches_run_only_when_taken():
    v = tf.Variable(0.0)

    @tf.function
    def f(x):
        return tf.cond(x > 0, lambda: v.assign_add(1.0), lambda: v.assign_add(100.0))

    f(tf.constant(1.0))
    f(tf.constant(1.0))
    assert float(v) == 2.0
    assert "If" in _op_types(f, SCALAR)


def test_cond_output_shapes_merge_to_the_most_specific_compatible():
    @tf.function
    def f(x):
        return tf.cond(x > 0, lambda: tf.zeros([2]), lambda: tf.zeros([3]))
    out = f.get_concrete_function(SCALAR).structured_outputs
    assert out.shape.as_list() == [None]
    assert f(tf.constant(-1.0)).shape == [3]


def test_cond_errors():
    with pytest.raises(TypeError, match="'true_fn' must be callable"):
        tf.cond(tf.constant(True), 1, lambda: 2)
    with pytest.raises(TypeError, match=r"cond\(\): 'false_fn' argument required"):
        tf.cond(tf.constant(True), lambda: 1)
    with pytest.raises(ValueError, match="truth value"):  # as TF's eager cond
        tf.cond(tf.constant([True, False]), lambda: 1, lambda: 2)
    assert tf.cond(tf.constant([False]), lambda: 1, lambda: 2) == 2

    @tf.function
    def mixed(x):
        return tf.cond(x > 0, lambda: x, lambda: tf.cast(x, tf.int32))
    with pytest.raises(TypeError, match="same number, type, and overall structure"):
        mixed(tf.constant(1.0))

    @tf.function
    def uneven(x):
        return tf.cond(x > 0, lambda: (x, x), lambda: x)
    with pytest.raises(TypeError, match="same number, type, and overall structure"):
        uneven(tf.constant(1.0))


@pytest.mark.parametrize("spec", [tf.TensorSpec([1], tf.bool), tf.TensorSpec([1, 1], tf.bool),
                                  tf.TensorSpec(None, tf.bool), tf.TensorSpec([None], tf.bool)])
def test_graph_cond_takes_a_predicate_of_one_element_of_any_shape(spec):
    # as TF's If: the predicate's shape is checked when the op runs, not when it is built
    g = tf.function(lambda p, x: tf.cond(p, lambda: x * 2.0, lambda: -x), input_signature=[
        spec, SCALAR])
    shape = [1] * (spec.shape.rank or 1)
    assert float(g(tf.fill(shape, True), tf.constant(3.0))) == 6.0
    assert float(g(tf.fill(shape, False), tf.constant(3.0))) == -3.0
    if spec.shape.rank is None or spec.shape[0] is None:
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match=r"The second input must be a scalar, but it has shape \[2\]"):
            g(tf.constant([True, False]), tf.constant(3.0))
    with tf.GradientTape() as tape:
        x = tf.constant(3.0)
        tape.watch(x)
        y = tf.function(lambda p, x: tf.cond(p, lambda: x * x, lambda: x))(
            tf.constant([True]), x)
    assert float(tape.gradient(y, x)) == 6.0


def test_graph_while_condition_of_unknown_shape_must_hold_one_element_when_it_runs():
    # as TF's loop: checked when the loop runs, an InvalidArgumentError
    g = tf.function(lambda x: tf.while_loop(lambda i: i < x, lambda i: i + 1, [tf.zeros_like(x)]),
                    input_signature=[tf.TensorSpec(None, tf.int32)])
    assert g(tf.constant([3]))[0].numpy().tolist() == [3]
    assert g(tf.constant([[2]]))[0].numpy().tolist() == [[2]]
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"The second input must be a scalar, but it has shape \[2\]"):
        g(tf.constant([1, 2]))


@pytest.mark.parametrize("dtype", [tf.int32, tf.float32])
def test_graph_cond_rejects_a_predicate_that_is_not_bool_when_it_runs(dtype):
    g = tf.function(lambda p: tf.cond(p, lambda: 1, lambda: 2))
    name = "int32" if dtype == tf.int32 else "float"
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=f"Input 'pred' passed {name} expected bool while building NodeDef"):
        g(tf.constant(1, dtype))


@pytest.mark.parametrize("x", [2.0, -2.0])
def test_gradient_through_cond_in_a_graph(x):
    @tf.function
    def grad(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.cond(x > 0, lambda: x * x * x, lambda: tf.sin(x) * 3.0)
        return tape.gradient(y, x)

    eps = 1e-3
    f = (lambda v: v ** 3) if x > 0 else (lambda v: np.sin(v) * 3.0)
    numeric = (f(x + eps) - f(x - eps)) / (2 * eps)
    np.testing.assert_allclose(float(grad(tf.constant(x))), numeric, rtol=1e-3)


def test_a_tape_in_a_function_watches_variables_read_by_a_branch():
    v = tf.Variable(3.0)

    @tf.function
    def f(x):
        with tf.GradientTape() as tape:
            y = tf.cond(x > 0, lambda: x * v, lambda: x)
        return tape.gradient(y, v)
    assert float(f(tf.constant(2.0))) == 2.0


def test_gradient_through_a_traced_function_with_cond():
    @tf.function
    def f(x, w):
        return tf.cond(tf.reduce_sum(x) > 0, lambda: tf.reduce_sum(x * w), lambda: w * 0.0)

    x, w = tf.constant([1.0, 2.0]), tf.Variable(3.0)
    with tf.GradientTape() as tape:
        y = f(x, w)
    assert float(tape.gradient(y, w)) == 3.0


# -- case and switch_case -------------------------------------------------------------------------

def test_case_takes_the_first_true_predicate_or_the_default():
    def f(x):
        return tf.case([(x < 0, lambda: -1.0), (x < 10, lambda: 1.0)], default=lambda: 10.0)
    g = tf.function(f)
    for x in (-5.0, 5.0, 50.0):
        assert float(g(tf.constant(x))) == f(tf.constant(x))
    assert [f(tf.constant(x)) for x in (-5.0, 5.0, 50.0)] == [-1.0, 1.0, 10.0]


def test_case_exclusive_checks_the_predicates_before_the_default():
    true = tf.constant(True)
    pairs = [(true, lambda: tf.constant(1)), (true, lambda: tf.constant(2))]
    # Without a default the last pair is the default, outside the check (as in TF).
    assert int(tf.case(pairs, exclusive=True)) == 1
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"more than 1 conditions \(\?, \?\) evaluated as True:'\nTrue, True"):
        tf.case(pairs, default=lambda: tf.constant(3), exclusive=True)
    g = tf.function(lambda a, b: tf.case([(a, pairs[0][1]), (b, pairs[1][1])],
                                         default=lambda: tf.constant(3), exclusive=True))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"\(a:0, b:0\).*\] \[1 1\]"):
        g(true, true)


def test_case_without_default_asserts_that_a_predicate_holds():
    false = tf.constant(False)
    pairs = [(false, lambda: tf.constant(1)), (false, lambda: tf.constant(2))]
    with pytest.raises(tf.errors.InvalidArgumentError, match=(
            r"Expected 'tf.Tensor\(False, shape=\(\), dtype=bool\)' to be true. Summarized "
            r"data: b'Input error: None of conditions evaluated as True:'\nFalse, False")):
        tf.case(pairs)
    g = tf.function(lambda a, b: tf.case([(a, pairs[0][1]), (b, pairs[1][1])]))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"True:\] \[0 0\]"):
        g(false, false)
    assert int(g(false, tf.constant(True))) == 2


def test_case_argument_errors():
    with pytest.raises(TypeError, match="pred must be a Tensor, got: True"):
        tf.case([(True, lambda: 1)])
    with pytest.raises(TypeError, match="must be a 2-tuple. Received False."):
        tf.case((tf.constant(False), lambda: 1))


def test_case_unpacks_one_element_results_unless_strict():
    x = tf.constant(3)
    pairs = [(x < 4, lambda: [tf.constant(1)])]
    default = lambda: [tf.constant(3)]
    assert int(tf.case(pairs, default=default)) == 1  # not [1]
    strict = tf.case(pairs, default=default, strict=True)
    assert isinstance(strict, list) and [int(t) for t in strict] == [1]
    # In a tf.function (TF 2's control flow) TF ignores strict: the list stays a list.
    g = tf.function(lambda i: tf.case([(i < 4, pairs[0][1])], default=default))
    out = g(tf.constant(9))
    assert isinstance(out, list) and [int(t) for t in out] == [3]


def test_case_refuses_non_bool_predicates_and_no_pairs():
    with pytest.raises(TypeError, match="pred must be Tensor of type bool"):
        tf.case([(tf.constant(1), lambda: 1)], default=lambda: 3)
    with pytest.raises(ValueError):
        tf.case([], default=lambda: 3)
    # in a graph TF names the predicate by its tensor's name
    with pytest.raises(TypeError, match="pred must be Tensor of type bool: Const:0\n"):
        tf.function(lambda: tf.case([(tf.constant(1), lambda: 1)], default=lambda: 3))()
    with pytest.raises(TypeError, match=r"fn for pred Greater:0 must be callable.\n"):
        tf.function(lambda x: tf.case([(x > 0, 1.0)], default=lambda: 0.0))(tf.constant(1.0))


def test_switch_case_and_its_default():
    fns = [lambda: tf.constant(10), lambda: tf.constant(20), lambda: tf.constant(30)]
    g = tf.function(lambda i: tf.switch_case(i, fns))
    for i, expected in ((0, 10), (1, 20), (2, 30), (7, 30), (-1, 30)):
        assert int(tf.switch_case(tf.constant(i), fns)) == expected
        assert int(g(tf.constant(i))) == expected
    assert int(tf.switch_case(tf.constant(5), {1: fns[0], 0: fns[2]}, default=fns[1])) == 20
    assert int(tf.switch_case(tf.constant(1), ((1, fns[0]), (0, fns[2])))) == 10


def test_graph_switch_case_is_one_op_over_all_branches():
    fns = [lambda x: lambda: x * 1.0, lambda x: lambda: x * 2.0, lambda x: lambda: x * 3.0]
    g = tf.function(lambda i, x: tf.switch_case(i, [f(x) for f in fns[:2]], default=fns[2](x)))
    ops = _op_types(g, tf.TensorSpec([], tf.int32), SCALAR)
    assert "StatelessCase" in ops and "StatelessIf" not in ops
    for i, want in ((0, 2.0), (1, 4.0), (2, 6.0), (-1, 6.0)):
        with tf.GradientTape() as tape:
            x = tf.constant(2.0)
            tape.watch(x)
            y = g(tf.constant(i), x)
        assert float(y) == want and float(tape.gradient(y, x)) == want / 2


def test_switch_case_refuses_a_non_scalar_index():
    fns = [lambda: tf.constant(1), lambda: tf.constant(2)]
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"must be a scalar.*\[1\]"):
        tf.switch_case(tf.constant([1]), fns)
    g = tf.function(lambda i: tf.switch_case(i, fns),
                    input_signature=[tf.TensorSpec([None], tf.int32)])
    with pytest.raises(tf.errors.InvalidArgumentError, match="must be a scalar"):
        g(tf.constant([1]))


def test_graph_switch_case_errors_name_the_branches():
    def call(*fns):
        return tf.function(lambda i: tf.switch_case(i, list(fns)))(tf.constant(0))
    one, two = (lambda: tf.constant(1)), (lambda: tf.constant(2.0))
    with pytest.raises(TypeError, match=r"TypeError: branches\[0\] and branches\[2\] arguments to "
                       r"tf.switch_case must have the same number, type, and overall structure"):
        call(one, one, two)
    with pytest.raises(TypeError, match=r"branches\[1\] output: \["):
        call(lambda: (one(), one()), lambda: [one(), one()])
    with pytest.raises(ValueError, match=r"Lengths of branch outputs of case must match\.\n *"
                                         r"len\(graphs\[0\]\.outputs\): 1\n"):
        call(one, lambda: None)


def test_switch_case_argument_errors():
    fns = [lambda: 1, lambda: 2]
    with pytest.raises(TypeError, match="'branch_index' must be a Tensor, got <class 'int'>"):
        tf.switch_case(1, fns)
    with pytest.raises(TypeError, match="must be an integer Tensor, got <dtype: 'float32'>"):
        tf.switch_case(tf.constant(1.0), fns)
    with pytest.raises(ValueError, match=r"contiguous range of \[0 to 2\) but found \{0,3\}"):
        tf.switch_case(tf.constant(0), {0: fns[0], 3: fns[1]})
    with pytest.raises(ValueError, match="at least one item in 'branch_fns'"):
        tf.switch_case(tf.constant(0), [])


# -- while_loop -----------------------------------------------------------------------------------

def _collatz(n):
    return tf.while_loop(lambda n, steps: n != 1,
                         lambda n, steps: (tf.where(n % 2 == 0, n // 2, 3 * n + 1), steps + 1),
                         (n, tf.constant(0)))[1]


def test_while_loop_eager_and_graph_agree():
    g = tf.function(_collatz)
    for n in (1, 6, 27, 77031):
        assert int(g(tf.constant(n))) == int(_collatz(tf.constant(n)))
    assert int(_collatz(tf.constant(77031))) == 350
    assert "StatelessWhile" in _op_types(g, tf.TensorSpec([], tf.int32))


def test_while_loop_keeps_the_loop_variables_structure():
    out = tf.while_loop(lambda i: i < 3, lambda i: [i + 1], [tf.constant(0)])
    assert isinstance(out, list) and int(out[0]) == 3
    out = tf.function(lambda: tf.while_loop(lambda i: i < 3, lambda i: (i + 1,), [0]))()
    assert isinstance(out, list) and int(out[0]) == 3
    # A lone tensor for a one-item list: a function accepts it, eager TF iterates over it.
    out = tf.function(lambda: tf.while_loop(lambda i: i < 3, lambda i: i + 1, [0]))()
    assert isinstance(out, list) and int(out[0]) == 3


def test_eager_while_loop_checks_the_body_result_structure():
    # As TF eagerly: list(result) must have the structure of the loop variables.
    with pytest.raises(TypeError, match="Cannot iterate over a scalar tensor"):
        tf.while_loop(lambda i: i < 5, lambda i: i + 1, [tf.constant(0)])
    with pytest.raises(ValueError, match="don't have the same nested structure"):
        tf.while_loop(lambda i, j: i < 5, lambda i, j: [i + 1], [tf.constant(0), 1.0])
    with pytest.raises(ValueError, match="don't have the same nested structure"):
        tf.while_loop(lambda i: i < 5, lambda i: tf.constant([1, 2]), [tf.constant(0)])
    with pytest.raises(TypeError, match="not iterable"):
        tf.while_loop(lambda i: i < 5, lambda i: 5.0, [tf.constant(0)])
    # With maximum_iterations TF compares the result itself: its container type counts.
    with pytest.raises(TypeError, match="don't have the same nested structure"):
        tf.while_loop(lambda i, j: i < 5, lambda i, j: (i + 1, j), [tf.constant(0), 1.0],
                      maximum_iterations=3)
    out = tf.while_loop(lambda i, j: i < 5, lambda i, j: (i + 1, j), [tf.constant(0), 1.0])
    assert isinstance(out, tuple) and int(out[0]) == 5
    # The body never runs: nothing to check.
    assert int(tf.while_loop(lambda i: i > 5, lambda i: i + 1, [0])[0]) == 0


def test_while_loop_condition_must_be_a_scalar_bool_in_a_function():
    with pytest.raises(tf.errors.InvalidArgumentError, match="passed int32 expected bool"):
        tf.function(lambda: tf.while_loop(lambda i: i, lambda i: [i - 1], [tf.constant(3)]))()
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"must be a scalar.*\[2\]"):
        tf.function(lambda: tf.while_loop(lambda i: tf.constant([True, False]),
                                          lambda i: [i - 1], [tf.constant(3)]))()
    # Eagerly the condition is Python truthiness, as in TF.
    assert int(tf.while_loop(lambda i: i, lambda i: [i - 1], [tf.constant(3)])[0]) == 0


def test_eager_while_loop_runs_as_python():
    """As TF eagerly: values reach the body unconverted, and the result has the body's
    structure (the loop variables' when the body never runs), made tensors."""
    seen = []

    def body(i, x):
        seen.append(type(x))
        return i + 1, x * 2.5
    out = tf.while_loop(lambda i, x: i < 2, body, [0, 1])
    assert seen == [int, float] and isinstance(out, tuple)
    assert out[1].dtype == tf.float32 and float(out[1]) == 6.25
    out = tf.while_loop(lambda i: i > 5, lambda i: (i + 1,), [0])
    assert isinstance(out, list) and out[0].dtype == tf.int32
    out = tf.while_loop(lambda s: s["i"] < 2, lambda s: {"i": s["i"] + 1}, {"i": 0})
    assert int(out["i"]) == 2


def test_while_loop_maximum_iterations():
    def f(limit):
        return tf.while_loop(lambda i: True, lambda i: [i + 1], [0], maximum_iterations=limit)[0]
    assert int(f(4)) == 4
    assert int(tf.function(f)(tf.constant(6))) == 6


def test_while_loop_shape_must_stay_unless_an_invariant_allows_it():
    def grow(x):
        return tf.while_loop(lambda x: tf.shape(x)[0] < 4, lambda x: tf.concat([x, x], 0), [x])

    with pytest.raises(ValueError, match="shape_invariants"):
        tf.function(grow)(tf.constant([1.0]))

    @tf.function
    def allowed(x):
        return tf.while_loop(lambda x: tf.shape(x)[0] < 4, lambda x: tf.concat([x, x], 0), [x],
                             shape_invariants=[tf.TensorShape([None])])
    assert allowed(tf.constant([1.0]))[0].shape == [4]


def test_a_graph_loops_maximum_iterations_is_an_int32_scalar():
    def loop(limit):
        return tf.while_loop(lambda i: i < 100, lambda i: (i + 1,), (0,),
                             maximum_iterations=limit)
    assert int(tf.function(loop)(tf.constant(3))[0]) == 3
    with pytest.raises(ValueError, match="ValueError: maximum_iterations: Tensor conversion requested "
                       "dtype int32 for Tensor with dtype int64"):
        tf.function(loop)(tf.constant(3, tf.int64))
    with pytest.raises(TypeError):
        tf.function(loop)(3.0)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"The second input must be a scalar, but it has shape \[1\]"):
        tf.function(loop)(tf.constant([3]))
    # eagerly TF takes any integer
    assert int(loop(tf.constant(3, tf.int64))[0]) == 3


def test_a_tensors_shape_invariant_may_be_its_type_spec():
    def grow(spec):
        return tf.function(lambda x: tf.while_loop(
            lambda i, a: i < 2, lambda i, a: (i + 1, tf.concat([a, a], 0)), [0, x],
            shape_invariants=[tf.TensorShape([]), spec]))(tf.ones([2]))
    assert grow(tf.TensorSpec([None]))[1].shape == [8]
    assert grow(tf.TensorSpec(None))[1].shape == [8]
    for spec in (tf.TensorSpec([None], tf.int32), tf.TensorSpec([3])):
        with pytest.raises(TypeError, match=r"TypeSpec TensorSpec\(.*\) is not compatible with"):
            grow(spec)


def test_graph_while_loop_structure_errors_are_tfs():
    # TF 2.21: the invariants must have the loop variables' structure; a body's result is
    # compared with them (the result named first), with nest's message alone
    def short_invariants():
        i, x = tf.constant(0), tf.ones([2])
        return tf.while_loop(lambda i, x: i < 3, lambda i, x: (i + 1, x), [i, x],
                             shape_invariants=[i.shape])

    with pytest.raises(ValueError) as info:
        tf.function(short_invariants)()
    text = str(info.value)
    assert "    ValueError: The two structures don't have the same nested structure." in text
    assert "Second structure: type=list str=[TensorShape([])]" in text

    def short_result():
        return tf.while_loop(lambda i, x: i < 3, lambda i, x: (i + 1,),
                             [tf.constant(0), tf.ones([1])])

    with pytest.raises(ValueError) as info:
        tf.function(short_result)()
    text = str(info.value)
    assert "    ValueError: The two structures don't have the same nested structure." in text
    assert text.index("First structure: type=tuple") < text.index(
        "Second structure: type=list")


def test_while_loop_dtype_must_stay():
    @tf.function
    def f(x):
        return tf.while_loop(lambda x: x < 3, lambda x: tf.cast(x, tf.float32) + 1.0, [x])
    with pytest.raises(TypeError, match="enters the loop with type <dtype: .int32.> but has type "
                                        "<dtype: .float32.> after 1 iteration"):
        f(tf.constant(0))


def test_while_loop_with_cond_inside_and_captures():
    scale = tf.constant(2.0)

    @tf.function
    def f(x):
        return tf.while_loop(
            lambda i, acc: i < 5,
            lambda i, acc: (i + 1, tf.cond(i % 2 == 0, lambda: acc + scale, lambda: acc * x)),
            (tf.constant(0), tf.constant(0.0)))[1]

    acc = 0.0
    for i in range(5):
        acc = acc + 2.0 if i % 2 == 0 else acc * 3.0
    assert float(f(tf.constant(3.0))) == acc


def test_while_loop_argument_errors():
    with pytest.raises(TypeError, match="^'cond' must be callable.$"):
        tf.while_loop(1, lambda i: i, [0])
    with pytest.raises(TypeError, match="^'body' must be callable.$"):
        tf.while_loop(lambda i: True, 1, [0])
    with pytest.raises(TypeError, match="^'parallel_iterations' must be a positive integer.$"):
        tf.while_loop(lambda i: i < 4, lambda i: i + 1, [0], parallel_iterations=0)
    with pytest.raises(ValueError, match=r"'maximum_iterations' must be a scalar. Received "
                       r"shape: \(1,\)"):
        tf.while_loop(lambda i: i < 4, lambda i: (i + 1,), (0,), maximum_iterations=[2])
    with pytest.raises(ValueError, match="'loop_vars' must be provided."):
        tf.while_loop(lambda: False, lambda: (), ())


# -- gradients through while_loop -----------------------------------------------------------------

def _power(x, n):
    """x ** n by repeated multiplication: the trip count is a tensor's value."""
    return tf.while_loop(lambda i, y: i < n, lambda i, y: (i + 1, y * x),
                         (tf.constant(0), tf.ones_like(x)))[1]


@pytest.mark.parametrize("n", [0, 1, 3])
def test_gradient_of_a_loop_with_a_data_dependent_trip_count(n):
    check_gradients(lambda x: _power(x, tf.constant(n)), [1.5, -0.7])


def test_a_loop_keeps_its_iterations_only_under_a_tape():
    def outputs(watched):
        @tf.function
        def f(x):
            with tf.GradientTape() as tape:
                tape.watch(watched(x))
                return _power(x, tf.constant(3))
        op, = [op for op in f.get_concrete_function(SCALAR).graph.get_operations()
               if op.type == "StatelessWhile"]
        return len(op.outputs)
    assert outputs(lambda x: []) == 2  # the loop variables
    assert outputs(lambda x: x) == 5   # and the count, and each variable's values by iteration


def test_gradient_of_a_loop_whose_condition_reads_the_variable():
    def grow(x):
        return tf.while_loop(lambda v: v < 100.0, lambda v: [v * 1.5 + tf.sin(v)], [x])[0]
    check_gradients(grow, 3.0)
    check_gradients(grow, 150.0)  # no iteration: the identity


def test_gradient_of_nested_loops():
    def f(x):
        def outer(i, acc):
            inner = tf.while_loop(lambda j, a: j < i, lambda j, a: (j + 1, a * x + 1.0),
                                  (tf.constant(0), acc))[1]
            return i + 1, inner
        return tf.while_loop(lambda i, acc: i < 3, outer, (tf.constant(0), x))[1]
    check_gradients(f, [0.9, 1.1])


def test_gradient_of_a_loop_with_a_cond_and_captured_tensors():
    def f(x, w):
        scale = w * 2.0  # computed outside, read by every iteration
        return tf.while_loop(
            lambda i, acc: i < 4,
            lambda i, acc: (i + 1, tf.cond(i % 2 == 0, lambda: acc * scale,
                                           lambda: tf.tanh(acc + x))),
            (tf.constant(0), x))[1]
    check_gradients(f, [0.3, -0.2], 0.8)


def test_gradient_of_a_loop_with_maximum_iterations():
    def f(x):
        return tf.while_loop(lambda v: True, lambda v: [tf.sin(v) * 2.0], [x],
                             maximum_iterations=tf.constant(3))[0]
    check_gradients(f, [0.5, 1.0])


def test_gradient_of_a_loop_whose_variables_change_shape():
    def f(x):
        return tf.while_loop(lambda v: tf.shape(v)[0] < 8, lambda v: [tf.tile(v, [2]) * x],
                             [x], shape_invariants=[tf.TensorShape([None])])[0]
    check_gradients(f, [1.2])


def test_gradient_of_a_loop_reaches_a_captured_variable():
    v = tf.Variable(0.9, dtype=tf.float64)

    def f(x):
        return tf.while_loop(lambda i, a: i < 3, lambda i, a: (i + 1, a * v + x),
                             (0, x))[1]

    @tf.function
    def inside(x):
        with tf.GradientTape() as tape:
            y = f(x)
        return tape.gradient(y, v)

    def value(at):
        v.assign(at)
        return float(f(tf.constant(2.0, tf.float64)))
    eps = 1e-6
    numeric = (value(0.9 + eps) - value(0.9 - eps)) / (2 * eps)
    v.assign(0.9)
    traced = tf.function(f)
    x = tf.constant(2.0, tf.float64)
    with tf.GradientTape() as tape:
        y = traced(x)
    for got in (inside(x), tape.gradient(y, v)):
        np.testing.assert_allclose(float(got), numeric, rtol=1e-6)


def test_integer_loop_variables_get_no_gradient():
    @tf.function
    def f(x, n):
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(x)
            i, y = tf.while_loop(lambda i, y: i < n, lambda i, y: (i + 1, y * x), (0, x))
        return tape.gradient(y, x), tape.gradient(tf.cast(i, tf.float32), x)
    dy, di = f(tf.constant(2.0), tf.constant(3))
    assert float(dy) == 32.0 and di is None


def test_a_loop_without_back_prop_stops_gradients_in_graphs():
    @tf.function
    def f(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.while_loop(lambda v: v < 10.0, lambda v: [v * 2.0], [x], back_prop=False)[0]
        return y, tape.gradient(y, x)
    y, dy = f(tf.constant(3.0))
    assert float(y) == 12.0 and dy is None


# -- captured eager tensors a tape watches --------------------------------------------------------

_OUTER = tf.constant(3.0)


@pytest.mark.parametrize("construct", ["cond", "while", "switch_case"])
def test_watched_eager_tensor_captured_by_a_branch_or_body_gets_its_gradient(construct):
    def build(n):
        if construct == "cond":
            return tf.cond(n > 0, lambda: _OUTER * _OUTER, lambda: _OUTER)
        if construct == "switch_case":
            return tf.switch_case(n - 1, [lambda: _OUTER, lambda: _OUTER * _OUTER])
        return tf.while_loop(lambda i, a: i < n, lambda i, a: (i + 1, a * _OUTER),
                             (0, tf.constant(1.0)))[1]

    def grad(n):
        with tf.GradientTape() as tape:
            tape.watch(_OUTER)
            y = build(n)
        return tape.gradient(y, _OUTER)

    eager = grad(tf.constant(2))
    traced = tf.function(grad)(tf.constant(2))
    assert traced is not None and float(traced) == float(eager) == 6.0


def test_unwatched_eager_tensor_used_by_a_body_is_an_input_of_the_loop_and_a_constant_in_it():
    # The function captures it (as TF, for a tape outside the function), while the body's
    # ops read it as a constant, which the passes fold.
    c = tf.constant(2.0)
    f = tf.function(lambda x: tf.while_loop(lambda i, a: i < 3, lambda i, a: (i + 1, a * c),
                                            [0, x])[1])
    cf = f.get_concrete_function(tf.TensorSpec([], tf.float32))
    assert cf.captured_inputs == [c]
    loop, = [op for op in cf.graph.get_operations() if op.type == "StatelessWhile"]
    assert len(loop.inputs) == 3
    body = cf.graph.functions[loop.attrs["body"]]
    mul, = [op for op in body.graph.get_operations() if op.type == "Mul"]
    assert mul.inputs[1].op.type == "Const"
    assert float(f(tf.constant(1.0))) == 8.0


# -- higher-order gradients of graph loops --------------------------------------------------------

def _second_derivative(body, x, n=3):
    """d2/dx2 of the loop value after `n` steps of `body(a, x)` from x."""
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            _, y = tf.while_loop(lambda i, a: i < n, lambda i, a: (i + 1, body(a, x)), (0, x))
        g = inner.gradient(y, x)
    return g, outer.gradient(g, x)


@pytest.mark.parametrize("body, want", [
    (lambda a, x: a * x, (4 * 27.0, 12 * 9.0)),          # x**4
    (lambda a, x: a * a, (8 * 3.0 ** 7, 56 * 3.0 ** 6)),  # x**8: through the kept values only
    (lambda a, x: tf.sin(a) + x, None),
])
def test_second_derivative_of_a_graph_while_loop_matches_eager(body, want):
    x = tf.constant(3.0)
    eager = _second_derivative(body, x)
    traced = tf.function(_second_derivative, autograph=False)(body, x)
    if want is not None:
        np.testing.assert_allclose([float(eager[0]), float(eager[1])], want, rtol=1e-6)
    np.testing.assert_allclose([float(traced[0]), float(traced[1])],
                               [float(eager[0]), float(eager[1])], rtol=1e-5)


def test_hessian_of_scan_in_a_function_matches_eager():
    def hessian(x):
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = tf.reduce_sum(tf.scan(lambda a, e: a * e + e * e, x))
            g = inner.gradient(y, x)
        return outer.jacobian(g, x)

    x = tf.constant([1.0, 2.0, 3.0])
    np.testing.assert_allclose(tf.function(hessian)(x).numpy(), hessian(x).numpy(), rtol=1e-6)


def test_branches_and_loop_bodies_are_traced_in_their_ops_name_scope():
    """As in TF: the scope of a cond or while_loop op (made unique first) is the name scope
    of its branches' and bodies' ops."""
    seen = []

    @tf.function
    def f(x):
        def branch():
            seen.append(tf.get_current_name_scope())
            return tf.identity(x * 2.0, name="dbl")

        with tf.name_scope("outer"):
            tf.cond(x > 0, branch, lambda: x)
            y = tf.cond(x > 0, branch, lambda: x)

        def body(i):
            seen.append(tf.get_current_name_scope())
            return i + 1

        tf.while_loop(lambda i: i < 2, body, [0], name="loop")
        return y

    graph = f.get_concrete_function(tf.constant(1.0)).graph
    assert seen == ["outer/cond", "outer/cond_1", "loop"]
    graph_def = graph.as_graph_def()
    nodes = {node.name: node for node in graph_def.node}
    assert {"outer/cond", "outer/cond_1", "loop"} <= set(nodes)
    library = {fdef.signature.name: fdef for fdef in graph_def.library.function}
    then = library[nodes["outer/cond_1"].attr["then_branch"].func.name]
    assert "outer/cond_1/dbl" in [node.name for node in then.node_def]

"""Tests for tf.function: tracing, the trace cache, captures and concrete functions."""
import gc
import os

import numpy as np
import pytest

import eagerflow as tf


def _values(t):
    return t.numpy().tolist()


# --- decorator and call forms ---------------------------------------------------------------


def test_decorator_without_arguments():
    @tf.function
    def f(x, y):
        return x * y + 1.0

    out = f(tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0]))
    assert type(out).__name__ == "EagerTensor"
    assert out.dtype == tf.float32
    assert _values(out) == [4.0, 9.0]


def test_decorator_with_arguments():
    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)], reduce_retracing=True)
    def f(x):
        return tf.reduce_sum(x)

    assert f(tf.constant([1.0, 2.0, 3.0])).numpy() == 6.0
    assert f(tf.constant([5.0])).numpy() == 5.0
    assert f.experimental_get_tracing_count() == 1


def test_call_form_and_python_function():
    def double(x):
        return x * 2

    f = tf.function(double)
    assert f.python_function is double
    assert _values(f(tf.constant([1, 2, 3]))) == [2, 4, 6]


class _Scale(tf.Module):
    def __init__(self, k):
        super().__init__()
        self.k = tf.Variable(k)

    @tf.function
    def __call__(self, x):
        return x * self.k

    @tf.function
    def plus(self, x):
        return x + self.k


def test_methods_are_bound_per_instance():
    a, b = _Scale(2.0), _Scale(3.0)
    t = tf.constant([1.0, 2.0])
    assert _values(a(t)) == [2.0, 4.0]
    assert _values(b(t)) == [3.0, 6.0]
    assert _values(a.plus(t)) == [3.0, 4.0]
    assert _values(b.plus(t)) == [4.0, 5.0]
    assert a.__call__.experimental_get_tracing_count() == 1
    assert b.__call__.experimental_get_tracing_count() == 1
    a(t)
    assert a.__call__.experimental_get_tracing_count() == 1


def test_method_sees_assignment_to_its_variable():
    a = _Scale(2.0)
    t = tf.constant([1.0, 2.0])
    assert _values(a(t)) == [2.0, 4.0]
    a.k.assign(10.0)
    assert _values(a(t)) == [10.0, 20.0]
    assert a.__call__.experimental_get_tracing_count() == 1


# --- results ----------------------------------------------------------------------------------


def test_nested_outputs_keep_their_structure():
    @tf.function
    def f(x):
        return {"a": x, "b": [x, (x + 1, None)]}

    out = f(tf.constant(1))
    assert isinstance(out, dict) and sorted(out) == ["a", "b"]
    assert isinstance(out["b"], list) and isinstance(out["b"][1], tuple)
    assert out["b"][1][1] is None
    assert out["a"].numpy() == 1
    assert out["b"][0].numpy() == 1
    assert out["b"][1][0].numpy() == 2


def test_python_scalar_outputs_become_tensors():
    @tf.function
    def f(x):
        return 3, 4.0, None

    a, b, c = f(tf.constant(1))
    assert tf.is_tensor(a) and a.dtype == tf.int32 and a.numpy() == 3
    assert tf.is_tensor(b) and b.dtype == tf.float32 and b.numpy() == 4.0
    assert c is None


def test_python_scalar_argument_returned_as_tensor():
    @tf.function
    def f(x):
        return x

    one = f(1)
    assert tf.is_tensor(one) and one.dtype == tf.int32 and one.numpy() == 1
    half = f(2.5)
    assert tf.is_tensor(half) and half.dtype == tf.float32 and half.numpy() == 2.5


# --- trace cache --------------------------------------------------------------------------------


def test_each_new_python_scalar_retraces():
    @tf.function
    def f(x):
        return x * 2

    assert f(1).numpy() == 2
    assert f(2).numpy() == 4
    assert f.experimental_get_tracing_count() == 2
    assert f(1).numpy() == 2
    assert f.experimental_get_tracing_count() == 2


def test_tensors_retrace_only_on_new_dtype_or_shape():
    @tf.function
    def f(x):
        return x * 2

    f(tf.constant(1))
    f(tf.constant(2))
    assert f.experimental_get_tracing_count() == 1
    f(tf.constant(1.0))
    assert f.experimental_get_tracing_count() == 2
    f(tf.constant([1.0]))
    assert f.experimental_get_tracing_count() == 3
    f(tf.constant([1.0, 2.0]))
    assert f.experimental_get_tracing_count() == 4
    f(tf.constant([3.0, 4.0]))
    assert f.experimental_get_tracing_count() == 4


def test_reduce_retracing_relaxes_the_shape():
    @tf.function(reduce_retracing=True)
    def f(x):
        return x * 2

    f(tf.constant([1.0, 2.0, 3.0]))
    f(tf.constant([1.0, 2.0, 3.0, 4.0]))
    assert _values(f(tf.constant([1.0, 2.0, 3.0, 4.0, 5.0]))) == [2.0, 4.0, 6.0, 8.0, 10.0]
    assert f.experimental_get_tracing_count() == 2
    first = f.get_concrete_function(tf.TensorSpec([3], tf.float32))
    relaxed = f.get_concrete_function(tf.TensorSpec([7], tf.float32))
    assert first.inputs[0].shape.as_list() == [3]
    assert relaxed.inputs[0].shape.as_list() == [None]
    assert f.experimental_get_tracing_count() == 2


def test_input_signature_traces_once_for_any_length():
    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def f(x):
        return tf.reduce_sum(x)

    assert f(tf.constant([1.0])).numpy() == 1.0
    assert f(tf.constant([1.0, 2.0])).numpy() == 3.0
    assert f([1.0, 2.0, 3.0]).numpy() == 6.0
    assert f.experimental_get_tracing_count() == 1


# --- side effects -----------------------------------------------------------------------------


def test_python_side_effects_run_only_while_tracing(capsys):
    log = []

    @tf.function
    def f(x):
        print("traced with", x)
        log.append(1)
        return x + 1

    for i in range(3):
        assert f(tf.constant(i)).numpy() == i + 1
    assert log == [1]
    assert capsys.readouterr().out == 'traced with Tensor("x:0", shape=(), dtype=int32)\n'


def test_tf_print_runs_on_every_call(capfd):
    @tf.function
    def f(x):
        tf.print("run", x)
        return x

    f(tf.constant(1))
    f(tf.constant(2))
    f(tf.constant(3))
    assert f.experimental_get_tracing_count() == 1
    assert capfd.readouterr().err == "run 1\nrun 2\nrun 3\n"


# --- captures ---------------------------------------------------------------------------------


def test_variable_is_captured_by_reference():
    v = tf.Variable(1.0)

    @tf.function
    def f():
        return v * 2.0

    assert f().numpy() == 2.0
    v.assign(5.0)
    assert f().numpy() == 10.0
    assert f.experimental_get_tracing_count() == 1
    assert len(f.get_concrete_function().captured_inputs) == 1


def test_assign_add_inside_persists():
    v = tf.Variable(5.0)

    @tf.function
    def inc():
        v.assign_add(1.0)
        return v.read_value()

    assert inc().numpy() == 6.0
    assert inc().numpy() == 7.0
    assert v.numpy() == 7.0


def test_closure_over_eager_tensor_uses_its_value():
    c = tf.constant([1.0, 2.0])

    @tf.function
    def f(x):
        return x + c

    assert _values(f(tf.constant([10.0, 20.0]))) == [11.0, 22.0]
    cf = f.get_concrete_function(tf.TensorSpec([2], tf.float32))
    assert [_values(t) for t in cf.captured_inputs] == [[1.0, 2.0]]


# --- variables created inside -------------------------------------------------------------------


class _Lazy(tf.Module):
    def __init__(self):
        super().__init__()
        self.v = None

    @tf.function
    def __call__(self, x):
        if self.v is None:
            self.v = tf.Variable(2.0)
        return self.v * x


def test_variable_created_on_first_trace():
    m = _Lazy()
    assert m(tf.constant(3.0)).numpy() == 6.0
    assert isinstance(m.v, tf.Variable) and m.v.numpy() == 2.0
    assert m(tf.constant(4.0)).numpy() == 8.0
    m.v.assign(0.5)
    assert m(tf.constant(4.0)).numpy() == 2.0


def test_variable_initial_value_built_from_constant_ops_inside_function():
    holder = []

    @tf.function
    def f(x):
        if not holder:
            holder.append(tf.Variable(tf.zeros([2]) + tf.ones([2])))
        return holder[0].assign_add(x)

    assert f(tf.constant([1.0, 2.0])).numpy().tolist() == [2.0, 3.0]
    assert holder[0].dtype == tf.float32 and holder[0].shape == (2,)


def test_variable_initial_value_from_function_inputs_uses_the_first_call():
    class Accumulator(tf.Module):
        def __init__(self):
            self.v = None

        @tf.function
        def __call__(self, x):
            if self.v is None:
                self.v = tf.Variable(tf.ones_like(x) * 2.0)
            self.v.assign_add(x)
            return self.v.read_value()

    acc = Accumulator()
    assert acc(tf.constant([1.0, 2.0])).numpy().tolist() == [3.0, 4.0]
    assert acc(tf.constant([1.0, 2.0])).numpy().tolist() == [4.0, 6.0]
    assert acc.v.numpy().tolist() == [4.0, 6.0]

    class Offset(tf.Module):
        def __init__(self):
            self.v = None

        @tf.function(input_signature=[tf.TensorSpec([None])])
        def __call__(self, x):
            if self.v is None:
                self.v = tf.Variable(x + 1.0)
            return self.v + 0.0

    offset = Offset()
    assert offset(tf.constant([1.0, 2.0])).numpy().tolist() == [2.0, 3.0]
    assert offset.v.shape.as_list() == [None]  # as TF: the signature's shape
    assert offset(tf.constant([5.0, 6.0])).numpy().tolist() == [2.0, 3.0]


def test_variable_from_function_inputs_on_every_call_raises():
    @tf.function
    def f(x):
        return tf.Variable(x * 2.0)

    with pytest.raises(ValueError, match="only supports singleton tf.Variables"):
        f(tf.constant(1.0))


def test_new_variable_on_every_call_raises():
    @tf.function
    def f(x):
        w = tf.Variable(1.0)
        return w * x

    with pytest.raises(ValueError, match=r"w = tf.Variable\(1.0\)\n\n    ValueError: "
                                         r"tf.function only supports singleton tf.Variables "
                                         r"created on the first call. Make sure the tf.Variable "
                                         r"is only created once or created outside tf.function. "
                                         r"See https://www.tensorflow.org/guide/function#creating"
                                         r"_tfvariables for more information.\n$"):
        f(tf.constant(1.0))
        f(tf.constant([1.0, 2.0]))


def test_variable_made_only_by_a_later_trace_raises():
    traces = []

    @tf.function
    def f(x):
        traces.append(x.dtype)
        if len(traces) > 1:
            tf.Variable(1.0)
        return x

    f(tf.constant(1))
    with pytest.raises(ValueError) as info:
        f(tf.constant(1.0))
    assert str(info.value) == ("Creating variables on a non-first call to a function "
                               "decorated with tf.function.")


def test_non_tensor_result_error_shows_the_python_function():
    class Holder:
        @tf.function
        def method(self):
            return object()

    @tf.function
    def g():
        return 1.0, object()

    scope = "test_non_tensor_result_error_shows_the_python_function.<locals>."
    for call, shown in ((g, scope + "g"), (Holder().method, scope + "Holder.method")):
        with pytest.raises(TypeError, match=(
                r"^To be compatible with tf.function, Python functions must return zero or "
                r"more Tensors or ExtensionTypes or None values; in compilation of "
                rf"<function {shown} at 0x[0-9a-f]+>, found return value of type object, "
                r"which is not a Tensor or ExtensionType.$")):
            call()


@pytest.mark.parametrize("make", [
    lambda x: tf.debugging.assert_equal(x, x), lambda x: tf.no_op(), lambda x: tf.group(x),
    lambda x: tf.print(x), lambda x: (x, tf.debugging.Assert(True, [x])),
    lambda x: tf.debugging.assert_rank(x, 0), lambda x: tf.debugging.assert_rank_in(x, [0])])
def test_returning_an_op_without_outputs_from_a_function_is_a_type_error(make):
    # eagerly these give None; in a function TF's graph operation, which is no tensor
    assert make(tf.constant(1)) is None or make(tf.constant(1))[1] is None
    with pytest.raises(TypeError, match="found return value of type Operation, which is not a "
                                         "Tensor or ExtensionType"):
        tf.function(make)(tf.constant(1))


def test_a_branch_returning_an_op_without_outputs_gives_the_predicate():
    # as TF's: the cond's output is its predicate (the switch_case's, its index), after the op
    branched = []
    v = tf.Variable(0)

    @tf.function
    def f(x, i):
        branched.append(tf.cond(x > 0, lambda: tf.debugging.assert_equal(x, x), tf.no_op))
        with tf.control_dependencies([tf.debugging.assert_positive(x), tf.no_op()]):
            return x + 1, branched[-1], tf.switch_case(
                i, [tf.no_op, lambda: tf.group(v.assign_add(10))])
    y, pred, index = f(tf.constant(1), tf.constant(1))
    assert y.numpy() == 2 and pred.dtype == tf.bool and bool(pred)
    assert int(index) == 1 and int(v) == 10
    assert branched[0].name == "cond/Identity:0"
    # eagerly the branch's own result: None
    assert tf.cond(tf.constant(True), tf.no_op, tf.no_op) is None


# --- concrete functions -----------------------------------------------------------------------


def _affine(x):
    return x * 2.0 + 1.0


def test_concrete_function_attributes():
    cf = tf.function(_affine).get_concrete_function(tf.TensorSpec([3], tf.float32))
    assert type(cf).__name__ == "ConcreteFunction"
    assert cf.graph is not None
    assert len(cf.inputs) == 1
    x = cf.inputs[0]
    assert x.name == "x:0"
    assert x.shape.as_list() == [3] and x.dtype == tf.float32
    assert len(cf.outputs) == 1
    assert cf.outputs[0].shape.as_list() == [3] and cf.outputs[0].dtype == tf.float32
    assert cf.structured_outputs.shape.as_list() == [3]
    args, kwargs = cf.structured_input_signature
    assert kwargs == {} and len(args) == 1
    assert args[0].shape.as_list() == [3] and args[0].dtype == tf.float32
    assert list(cf.captured_inputs) == []


def test_concrete_function_is_callable():
    cf = tf.function(_affine).get_concrete_function(tf.TensorSpec([3], tf.float32))
    out = cf(tf.constant([1.0, 2.0, 3.0]))
    assert type(out).__name__ == "EagerTensor"
    assert _values(out) == [3.0, 5.0, 7.0]


def test_concrete_function_structured_outputs_keep_structure():
    @tf.function
    def f(x):
        return x + 1.0, [x * 2.0]

    cf = f.get_concrete_function(tf.TensorSpec([None, 2], tf.float32))
    first, rest = cf.structured_outputs
    assert isinstance(rest, list) and len(rest) == 1
    assert first.shape.as_list() == [None, 2]
    assert len(cf.outputs) == 2


def test_concrete_function_graph_operations():
    cf = tf.function(_affine).get_concrete_function(tf.TensorSpec([3], tf.float32))
    ops = cf.graph.get_operations()
    types = [op.type for op in ops]
    assert {"Placeholder", "Const", "Mul", "AddV2"} <= set(types)
    assert types.index("Placeholder") < types.index("Mul") < types.index("AddV2")
    placeholder = ops[types.index("Placeholder")]
    assert placeholder.name == "x"
    assert [t.name for t in placeholder.outputs] == ["x:0"]


# --- eager execution switch -------------------------------------------------------------------


def test_run_functions_eagerly():
    calls = []

    @tf.function
    def f(x):
        calls.append(tf.executing_eagerly())
        return x.numpy() * 2

    tf.config.run_functions_eagerly(True)
    try:
        assert float(f(tf.constant(1.0))) == 2.0
        assert float(f(tf.constant(1.0))) == 2.0
    finally:
        tf.config.run_functions_eagerly(False)
    assert calls == [True, True]
    assert not tf.config.functions_run_eagerly()


# --- symbolic tensors -------------------------------------------------------------------------


def test_symbolic_tensor_properties_inside_trace():
    seen = {}

    @tf.function
    def f(x):
        seen["eager"] = tf.executing_eagerly()
        seen["shape"] = x.shape.as_list()
        seen["dtype"] = x.dtype
        return x

    f(tf.constant([[1.0, 2.0, 3.0]]))
    assert seen == {"eager": False, "shape": [1, 3], "dtype": tf.float32}
    assert tf.executing_eagerly()


def test_bool_of_symbolic_tensor_raises():
    @tf.function(autograph=False)
    def f(x):
        if x > 0:
            return x
        return -x

    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError,
                       match="as a Python `bool` is not allowed"):
        f(tf.constant(1.0))
    assert issubclass(tf.errors.OperatorNotAllowedInGraphError, TypeError)


def test_numpy_of_symbolic_tensor_raises():
    @tf.function
    def f(x):
        return x.numpy()

    with pytest.raises(AttributeError, match="numpy"):
        f(tf.constant(1.0))


# --- bad input --------------------------------------------------------------------------------


_VECTOR_SIGNATURE = [tf.TensorSpec([None], tf.float32)]


def test_input_signature_rejects_wrong_dtype():
    f = tf.function(lambda x: x, input_signature=_VECTOR_SIGNATURE)
    with pytest.raises(TypeError, match="Binding inputs to tf.function"):
        f(tf.constant([1, 2]))


def test_input_signature_rejects_wrong_rank():
    f = tf.function(lambda x: x, input_signature=_VECTOR_SIGNATURE)
    with pytest.raises(TypeError, match="Binding inputs to tf.function"):
        f(tf.constant([[1.0, 2.0]]))


# --- gradients --------------------------------------------------------------------------------


def _train_step(w, x, y):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((tf.linalg.matvec(x, w) - y) ** 2)
    grad = tape.gradient(loss, w)
    w.assign_sub(0.1 * grad)
    return loss, grad


def test_train_step_in_graph_matches_eager():
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    y = tf.constant([1.0, 0.0])
    w_eager = tf.Variable([1.0, -2.0])
    w_graph = tf.Variable([1.0, -2.0])
    step = tf.function(_train_step)
    for _ in range(2):
        want_loss, want_grad = _train_step(w_eager, x, y)
        loss, grad = step(w_graph, x, y)
        np.testing.assert_allclose(loss.numpy(), want_loss.numpy(), rtol=1e-6)
        np.testing.assert_allclose(grad.numpy(), want_grad.numpy(), rtol=1e-6)
        np.testing.assert_allclose(w_graph.numpy(), w_eager.numpy(), rtol=1e-6)
    w = tf.Variable([1.0, -2.0])
    loss, grad = step(w, x, y)
    assert loss.numpy() == pytest.approx(20.5)
    np.testing.assert_allclose(grad.numpy(), [-19.0, -28.0], rtol=1e-6)
    np.testing.assert_allclose(w.numpy(), [2.9, 0.8], rtol=1e-6)


def test_tape_outside_a_traced_call():
    @tf.function
    def cube(a):
        return a * a * a

    a = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(a)
        out = cube(a)
    assert out.numpy() == 8.0
    assert tape.gradient(out, a).numpy() == 12.0

    v = tf.Variable(3.0)

    @tf.function
    def square():
        return v * v

    with tf.GradientTape() as tape:
        out = square()
    assert tape.gradient(out, v).numpy() == 6.0


# --- runtime errors ---------------------------------------------------------------------------


def test_runtime_error_names_op_and_user_file():
    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def f(x):
        return tf.reshape(x, [2, 3])

    assert f.get_concrete_function().outputs[0].shape.as_list() == [2, 3]
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        f(tf.constant([1.0, 2.0, 3.0, 4.0]))
    message = str(info.value)
    assert "Reshape" in message
    assert os.path.basename(__file__) in message


# --- memory -----------------------------------------------------------------------------------


def test_repeated_calls_do_not_grow_objects():
    @tf.function
    def f(x):
        return x + 1.0

    x = tf.constant(1.0)
    for _ in range(200):
        f(x)
    gc.collect()
    before = len(gc.get_objects())
    for _ in range(20000):
        f(x)
    gc.collect()
    assert len(gc.get_objects()) - before < 50
    assert f.experimental_get_tracing_count() == 1


# --- tensors of other graphs ------------------------------------------------------------------


def test_a_tensor_leaked_from_another_trace_is_out_of_scope():
    leaked = []

    @tf.function
    def f(x):
        y = x * 2
        leaked.append(y)
        return y

    f(tf.constant(1.0))

    @tf.function
    def g(x):
        return x + leaked[0]

    cf = g.get_concrete_function(tf.TensorSpec([]))  # as in TF, tracing it succeeds
    for call in (lambda: g(tf.constant(1.0)), lambda: cf(tf.constant(1.0))):
        with pytest.raises(TypeError) as info:
            call()
        message = str(info.value)
        assert message.startswith(
            "<tf.Tensor 'mul:0' shape=() dtype=float32> is out of scope and cannot be used "
            "here. Use return values, explicit Python locals or TensorFlow collections to "
            "access it.\n")
        assert "was defined here:\n    File \"" in message
        assert f", line {f.python_function.__code__.co_firstlineno + 2}, in f\n" in message
        assert message.endswith("because it was defined in FuncGraph(name=f, id="
                                f"{id(leaked[0].graph)}), which is out of scope.")
    with tf.GradientTape() as tape:  # a recording tape raises the same
        x = tf.constant(1.0)
        tape.watch(x)
        with pytest.raises(TypeError, match="is out of scope"):
            g(x)


def test_a_function_traced_inside_another_captures_its_tensors():
    @tf.function
    def outer(x):
        y = x * 2

        @tf.function
        def inner():
            return y + 1
        return inner()

    assert outer(tf.constant(1.0)).numpy() == 3.0
    assert outer(tf.constant(2.0)).numpy() == 5.0


def test_concrete_function_output_shapes_and_dtypes_follow_the_outputs_structure():
    @tf.function
    def f(x):
        return {"a": x, "b": (x, 3), "c": None}
    concrete = f.get_concrete_function(tf.TensorSpec([None], tf.float32))
    assert concrete.output_shapes == {"a": tf.TensorShape([None]), "b": (
        tf.TensorShape([None]), tf.TensorShape([])), "c": tf.TensorShape(None)}
    assert concrete.output_dtypes == {"a": tf.float32, "b": (tf.float32, tf.int32), "c": None}
    ragged = tf.function(lambda x: tf.RaggedTensor.from_row_lengths(x, [1, 1]))
    concrete = ragged.get_concrete_function(tf.TensorSpec([2], tf.float32))
    assert concrete.output_shapes == [tf.TensorShape([2]), tf.TensorShape([3])]
    assert concrete.output_dtypes == [tf.float32, tf.int64]


def test_concrete_function_type_prints_the_traced_signature():
    @tf.function
    def power(a, b):
        return a ** b
    concrete = power.get_concrete_function(a=tf.TensorSpec([], dtype=tf.float32), b=3)
    function_type = concrete.function_type
    assert str(function_type) == ("(a: TensorSpec(shape=(), dtype=tf.float32, name=None), "
                                  "b: Literal[3]) -> TensorSpec(shape=(), dtype=tf.float32, "
                                  "name=None)")
    assert repr(function_type).startswith("Input Parameters:\n  a (POSITIONAL_OR_KEYWORD): ")
    assert list(function_type.parameters) == ["a", "b"]
    assert function_type.output == tf.TensorSpec([], tf.float32)


def test_types_experimental_names_the_function_and_tensor_like_types():
    fn = tf.function(lambda x: x)
    assert isinstance(fn, tf.types.experimental.GenericFunction)
    assert isinstance(fn, tf.types.experimental.PolymorphicFunction)
    concrete = fn.get_concrete_function(tf.TensorSpec([]))
    assert isinstance(concrete, tf.types.experimental.ConcreteFunction)
    assert isinstance(concrete.function_type, tf.types.experimental.FunctionType)
    # both are TF's callables; a plain Python function is not
    assert isinstance(fn, tf.types.experimental.Callable)
    assert isinstance(concrete, tf.types.experimental.Callable)
    assert not isinstance(lambda: 1, tf.types.experimental.Callable)
    for value in (tf.constant(1), tf.Variable(1.0), 1.5, [1, 2], np.zeros(2)):
        assert isinstance(value, tf.types.experimental.TensorLike)
    assert not isinstance(object(), tf.types.experimental.TensorLike)


def test_nested_input_specs_are_named_by_their_path_as_in_tf(tmp_path):
    @tf.function(input_signature=[{"a": tf.TensorSpec([2], tf.float32),
                                   "b": (tf.TensorSpec([], tf.int32),
                                         tf.TensorSpec([None], tf.float32, name="named"))}])
    def g(d):
        return d["a"]
    cf = g.get_concrete_function()
    assert repr(cf.structured_input_signature) == (
        "(({'a': TensorSpec(shape=(2,), dtype=tf.float32, name='d_a'), "
        "'b': (TensorSpec(shape=(), dtype=tf.int32, name='d_b_0'), "
        "TensorSpec(shape=(None,), dtype=tf.float32, name='named'))},), {})")
    assert [t.name for t in cf.inputs] == ["d:0", "d_1:0", "named:0"]
    h = tf.function(lambda x, y: x + y[0]).get_concrete_function(tf.TensorSpec([2]),
                                                                 [tf.TensorSpec([2])])
    assert [s.name for s in tf.nest.flatten(h.structured_input_signature)] == ["x", "y_0"]
    m = tf.Module()
    m.g = g
    tf.saved_model.save(m, str(tmp_path))  # (the signature's keys: the placeholders')
    loaded = tf.saved_model.load(str(tmp_path))
    assert sorted(loaded.signatures["serving_default"].structured_input_signature[1]) == \
        ["d", "d_1", "named"]
    assert repr(loaded.g.concrete_functions[0].structured_input_signature) == \
        repr(cf.structured_input_signature)


def test_a_function_is_named_after_its_python_function():
    def my_fn(x):
        return x

    class K:
        @tf.function
        def meth(self, x):
            return x

    assert tf.function(my_fn).name == "my_fn"
    assert tf.function(lambda x: x).name == "<lambda>"
    assert K().meth.name == "meth" and K.meth.name == "meth"

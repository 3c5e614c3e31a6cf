"""`function_type`, `experimental_get_compiler_ir`, `get_initialization_function` and
`function_spec` of `tf.function` objects (values checked against TF 2.21)."""
import re

import pytest

import eagerflow as tf

SCALAR = "TensorSpec(shape=(), dtype=tf.float32, name=None)"


def test_function_type_before_tracing_lists_the_python_parameters():
    @tf.function
    def f(x, y=2, *, z=None):
        return x * y

    ft = f.function_type
    assert isinstance(ft, tf.types.experimental.FunctionType)
    assert str(ft) == "(x, y=<captured_default_value>, *, z=<captured_default_value>)"
    assert repr(ft) == ("Input Parameters:\n  x (POSITIONAL_OR_KEYWORD): None\n"
                        "  y (POSITIONAL_OR_KEYWORD): None\n  z (KEYWORD_ONLY): None\n"
                        "Output Type:\n  None\nCaptures:\n  None")
    x, y, z = ft.parameters.values()
    assert repr(y) == ("Parameter(name=y, kind=POSITIONAL_OR_KEYWORD, optional=True, "
                       "type_constraint=None)")
    assert (x.optional, y.optional, x.type_constraint) == (False, True, None)
    assert str(z.kind) == "KEYWORD_ONLY"
    assert ft.output is None and dict(ft.captures) == {}
    f(tf.constant(1.0))  # (tracing does not change it)
    assert str(f.function_type) == str(ft)


def test_function_type_with_input_signature_holds_the_specs():
    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32, name="inp")])
    def f(a, b=3):
        return a

    ft = f.function_type
    assert str(ft) == ("(a: TensorSpec(shape=(None,), dtype=tf.float32, name='inp'), "
                       "b: Literal[3] = <captured_default_value>)")
    a, b = ft.parameters.values()
    assert a.type_constraint == tf.TensorSpec([None], tf.float32, "inp")
    assert repr(b.type_constraint) == "Literal[3]" and b.type_constraint.value == 3
    assert "Output Type:\n  None" in repr(ft)


def test_concrete_function_type_parameters_output_and_captures():
    v = tf.Variable(1.0)

    @tf.function
    def f(x, y=2):
        return {"s": x * v, "t": (x, x)}

    ft = f.get_concrete_function(tf.TensorSpec([None], tf.float32)).function_type
    x, y = ft.parameters.values()
    assert repr(x) == ("Parameter(name=x, kind=POSITIONAL_OR_KEYWORD, optional=False, "
                       "type_constraint=TensorSpec(shape=(None,), dtype=tf.float32, name=None))")
    assert x.annotation == tf.TensorSpec([None], tf.float32) and not y.optional
    vector = "TensorSpec(shape=(None,), dtype=tf.float32, name=None)"
    assert repr(ft.output) == f"Dict[['s', {vector}], ['t', Tuple[{vector}, {vector}]]]"
    assert str(ft) == f"(x: {vector}, y: Literal[2]) -> {ft.output!r}"
    assert list(ft.captures.values()) == [tf.TensorSpec([], tf.resource)]
    assert re.search(r"Captures:\n  \d+: TensorSpec\(shape=\(\), dtype=tf.resource", repr(ft))
    # equal to the type of the same trace got again
    again = f.get_concrete_function(tf.TensorSpec([None], tf.float32)).function_type
    assert again == ft and hash(again) == hash(ft)


def test_concrete_function_type_of_varargs_marks_positional_only_and_keyword_only():
    @tf.function
    def k(*args, a, b=3, **kw):
        return args[0]

    cf = k.get_concrete_function(tf.constant([1, 2]), 5, a=tf.constant(1.0))
    ints = "TensorSpec(shape=(2,), dtype=tf.int32, name=None)"
    assert str(cf.function_type) == (f"(args_0: {ints}, args_1: Literal[5], /, *, a: {SCALAR}, "
                                     f"b: Literal[3]) -> {ints}")
    assert str(k.function_type) == "(*args, a, b=<captured_default_value>, **kw)"


def test_experimental_get_compiler_ir_needs_jit_compile():
    f = tf.function(lambda x: x + 1)
    with pytest.raises(ValueError, match="Compiler IR can only be returned for functions "
                                         "marked with 'jit_compile=True'"):
        f.experimental_get_compiler_ir(tf.constant(1.0))
    g = tf.function(lambda x, y: x + y, jit_compile=True)
    with pytest.raises(ValueError, match=r"supports either \(1\) all inputs are TensorSpec"):
        g.experimental_get_compiler_ir(tf.TensorSpec([]), tf.constant(1.0))
    generate = g.experimental_get_compiler_ir(tf.constant(1.0), tf.constant(2.0))
    with pytest.raises(ValueError, match="Invalid stage selected: 'bogus'. Valid values are: "
                                         "'hlo', 'hlo_serialized', 'optimized_hlo', "):
        generate(stage="bogus")
    with pytest.raises(tf.errors.UnimplementedError, match="XLA is not available"):
        generate(stage="hlo")


def test_get_initialization_function_assigns_the_first_trace_variables():
    class M(tf.Module):
        def __init__(self):
            self.v = None

        @tf.function
        def f(self, x):
            if self.v is None:
                self.v = tf.Variable(2.0)
            return self.v + x

    m = M()
    init = m.f.get_initialization_function(tf.constant(3.0))
    assert isinstance(init, tf.types.experimental.ConcreteFunction)
    assert init.structured_input_signature == ((), {})
    assert "Output Type:\n  Literal[None]" in init.pretty_printed_signature()
    m.v.assign(5.0)
    assert init() is None and m.v.numpy() == 2.0
    assert m.f(tf.constant(1.0)).numpy() == 3.0
    with pytest.raises(RuntimeError, match="get_initialization_function cannot be called "
                                           "after the function has been used"):
        m.f.get_initialization_function(tf.constant(3.0))


def test_function_spec_names_the_signature():
    f = tf.function(lambda x, y=1: x, input_signature=[tf.TensorSpec([2])])
    spec = f.function_spec
    assert spec.input_signature == (tf.TensorSpec([2]),)
    assert list(spec.function_type.parameters) == ["x", "y"]


def test_concrete_function_def_is_the_graph_as_a_function_def():
    v = tf.Variable(2.0)

    @tf.function
    def f(x, y):
        return {"a": x * v + y}

    cf = f.get_concrete_function(tf.TensorSpec([2], tf.float32),
                                 tf.TensorSpec([], tf.float32, name="yy"))
    fd = cf.function_def
    assert fd.signature.name.startswith("__inference_f_")
    assert [(a.name, a.type) for a in fd.signature.input_arg][:2] == [("x", 1), ("yy", 1)]
    assert fd.signature.input_arg[2].type == tf.resource.as_datatype_enum
    assert [(a.name, a.type) for a in fd.signature.output_arg] == [("identity", 1)]
    assert sorted(n.op for n in fd.node_def) == ["AddV2", "Identity", "Mul", "NoOp",
                                                 "ReadVariableOp"]
    assert dict(fd.ret) == {"identity": "Identity:output:0"} and fd.signature.is_stateful


def test_function_type_of_methods_and_nested_signatures():
    class A:
        @tf.function(input_signature=[tf.TensorSpec([])])
        def m(self, x):
            return x

    assert str(A.m.function_type) == f"(self, x: {SCALAR})"  # (the instance's: no spec)
    assert str(A().m.function_type) == f"(x: {SCALAR})"
    nested = tf.function(lambda a: a[0], input_signature=[
        [tf.TensorSpec([2]), {"k": tf.TensorSpec([None], tf.int32)}]])
    assert str(nested.function_type) == (
        "(a: List[TensorSpec(shape=(2,), dtype=tf.float32, name=None), "
        "Dict[['k', TensorSpec(shape=(None,), dtype=tf.int32, name=None)]]])")


def test_function_type_flat_inputs_outputs_and_captures():
    v = tf.Variable(1.0)

    @tf.function
    def f(x, y=2, *, z=None):
        return {"b": (x, y), "a": x + v}

    ft = f.get_concrete_function(tf.TensorSpec([2]), 3, z=tf.constant(1)).function_type
    vector, int_scalar = tf.TensorSpec([2]), tf.TensorSpec([], tf.int32)
    assert ft.flat_inputs == [vector, int_scalar]  # (no Literal)
    assert ft.flat_outputs == [vector, vector, int_scalar]  # (a dict by key)
    assert ft.flat_captures == [tf.TensorSpec([], tf.resource)]
    ragged = tf.function(lambda r: r).get_concrete_function(
        tf.ragged.constant([[1, 2], [3]])).function_type
    assert ragged.flat_inputs == [tf.TensorSpec([None], tf.int32), tf.TensorSpec([3], tf.int64)]

"""Attributes of `tf.function` objects as TF 2.21 gives them: `python_function` of a method,
`input_signature` of a function of no parameters, and the types of values of the tracing
protocol in printed signatures."""
import inspect

import eagerflow as tf


class _Model:
    @tf.function
    def call(self, x):
        return x

    @tf.function
    def constant(self):
        return 1


def test_python_function_of_a_method_is_the_function_itself():
    m = _Model()
    assert not inspect.ismethod(m.call.python_function)
    assert m.call.python_function.__qualname__ == "_Model.call"
    bound = _Model().call  # a Python bound method traced as it is stays bound
    assert tf.function(bound).python_function == bound


def test_a_function_of_no_parameters_has_an_empty_input_signature():
    def noarg():
        return 2

    g = tf.function(noarg)
    assert g.input_signature == ()
    assert g.experimental_get_tracing_count() == 0
    printed = g.pretty_printed_concrete_signatures()  # traces it, as in TF
    assert printed == ("Input Parameters:\nOutput Type:\n"
                       "  TensorSpec(shape=(), dtype=tf.int32, name=None)\nCaptures:\n  None")
    assert g.experimental_get_tracing_count() == 1
    assert int(g()) == 2 and g.get_concrete_function() is g.get_concrete_function()
    assert g.experimental_get_tracing_count() == 1
    assert _Model().constant.input_signature == ()
    assert tf.function(lambda x: x).input_signature is None


def test_a_value_of_the_tracing_protocol_prints_as_its_trace_type():
    class Fruit:
        def __init__(self, w):
            self.w = w

        def __tf_tracing_type__(self, context):
            return FruitType(self.w)

    class FruitType(tf.types.experimental.TraceType):
        def __init__(self, w):
            self.w = w

        def is_subtype_of(self, other):
            return self == other

        def most_specific_common_supertype(self, others):
            return self if all(self == o for o in others) else None

        def placeholder_value(self, placeholder_context=None):
            return Fruit(self.w)

        def __eq__(self, other):
            return type(other) is FruitType and self.w == other.w

        def __hash__(self):
            return hash(self.w)

        def __repr__(self):
            return f"FruitType({self.w})"

    @tf.function
    def eat(f, x):
        return x * f.w

    cf = eat.get_concrete_function(Fruit(2), tf.TensorSpec([]))
    assert str(cf.function_type) == (
        "(f: FruitType(2), x: TensorSpec(shape=(), dtype=tf.float32, name=None)) -> "
        "TensorSpec(shape=(), dtype=tf.float32, name=None)")
    assert "  f (POSITIONAL_OR_KEYWORD): FruitType(2)\n" in eat.pretty_printed_concrete_signatures()
    assert float(eat(Fruit(2), tf.constant(3.0))) == 6.0


def test_mappings_of_any_type_share_a_dict_trace():
    import collections

    seen = []

    @tf.function
    def g(x):
        seen.append(type(x).__name__)
        return x["a"] * 2

    assert int(g(collections.OrderedDict(a=tf.constant(1)))) == 2
    assert int(g({"a": tf.constant(2)})) == 4
    assert int(g(collections.defaultdict(int, a=tf.constant(3)))) == 6
    assert g.experimental_get_tracing_count() == 1 and seen == ["OrderedDict"]


def test_a_defaultdict_argument_traces_as_a_dict():
    import collections

    @tf.function
    def g(x):
        assert type(x) is dict
        return x["a"] + x["b"]

    d = collections.defaultdict(int, b=tf.constant(1), a=tf.constant(2))
    assert int(g(d)) == 3


def test_input_signature_over_varargs_binds_args_0_args_1_positionally():
    import pytest

    def va(*args):
        return args[0] + args[1]

    f = tf.function(va, input_signature=[tf.TensorSpec([]), tf.TensorSpec([])])
    scalar = "TensorSpec(shape=(), dtype=tf.float32, name=None)"
    signature = f"(args_0: {scalar}, args_1: {scalar}, /)"
    assert str(f.function_type) == signature
    assert float(f(1.0, 2.0)) == 3.0
    with pytest.raises(TypeError) as info:
        f(1.0)
    assert str(info.value) == (
        "Binding inputs to tf.function failed due to `missing a required argument: "
        f"'args_1'`. Received args: (1.0,) and kwargs: {{}} for signature: {signature}.")

    def mixed(a, *rest):
        return a

    g = tf.function(mixed, input_signature=[tf.TensorSpec([]), tf.TensorSpec([])])
    assert str(g.function_type) == f"(a: {scalar}, rest_0: {scalar}, /)"
    with pytest.raises(TypeError, match="too many positional arguments"):
        g(1.0, 2.0, 3.0)


def test_parameters_beyond_the_input_signature_take_only_their_defaults():
    import pytest

    def kwd(a, b=2.0):
        return a * b

    f = tf.function(kwd, input_signature=[tf.TensorSpec([])])
    assert float(f(1.0)) == 2.0 and float(f(1.0, 2.0)) == 2.0 and float(f(1.0, b=2.0)) == 2.0
    for call in (lambda: f(1.0, 3.0), lambda: f(1.0, b=3.0)):
        with pytest.raises(TypeError) as info:
            call()
        assert str(info.value).startswith(
            "Binding inputs to tf.function failed due to `Can not cast 3.0 to Literal[2.0]`.")
        assert str(info.value).endswith(
            "for signature: (a: TensorSpec(shape=(), dtype=tf.float32, name=None), "
            "b: Literal[2.0] = <captured_default_value>).")

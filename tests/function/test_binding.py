"""Calling a ConcreteFunction: the structured signature first, then the flat one, as TF."""
import collections
import re

import numpy as np
import pytest

import eagerflow as tf


@tf.function
def _scaled(x, y, *, scale=2.0):
    return x * scale + tf.cast(y, tf.float32)


def test_literals_and_tensors_bind_by_position_or_name():
    cf = _scaled.get_concrete_function(tf.TensorSpec([None]), 3, scale=2.0)
    x = tf.constant([1.0])
    assert float(cf(x, 3, scale=2.0)[0]) == 5.0
    assert float(cf(x=[1.0], y=3.0, scale=2.0)[0]) == 5.0  # 3.0 == 3, a list converts
    assert float(cf(x)[0]) == 5.0  # the flat signature: the tensors alone


def test_a_call_that_fits_neither_signature_names_both_reasons():
    cf = _scaled.get_concrete_function(tf.TensorSpec([None]), 3, scale=2.0)
    with pytest.raises(TypeError) as info:
        cf(tf.constant([1.0]), 4, scale=2.0)
    assert str(info.value) == (
        "Binding inputs to tf.function failed due to `Can not cast 4 to Literal[3]`. Received "
        "args: (<tf.Tensor: shape=(1,), dtype=float32, numpy=array([1.], dtype=float32)>, 4) "
        "and kwargs: {'scale': 2.0} for signature: (x: TensorSpec(shape=(None,), "
        "dtype=tf.float32, name=None), y: Literal[3], *, scale: Literal[2.0]) -> "
        "TensorSpec(shape=(None,), dtype=tf.float32, name=None).\n"
        "Fallback to flat signature also failed due to: _scaled(x) takes 1 positional "
        "arguments, got 2.")


def test_python_values_are_checked_against_their_spec():
    cf = tf.function(lambda a: a + a).get_concrete_function(tf.TensorSpec([2]))
    assert cf([1.0, 2.0]).numpy().tolist() == [2.0, 4.0]
    with pytest.raises(TypeError, match=r"`Can not cast TensorSpec\(shape=\(\), dtype=tf.float32, "
                                        r"name=None\) to TensorSpec\(shape=\(2,\), dtype=tf."
                                        r"float32, name=None\)`(.|\n)*expected argument #0"
                                        r"\(zero-based\) to be a Tensor; got float \(3.0\)."):
        cf(3.0)
    with pytest.raises(TypeError, match=r"`missing a required argument: 'a'`(.|\n)*"
                                        r"missing required arguments: a.$"):
        cf()


def test_a_tensor_of_another_dtype_fails_when_the_graph_runs():
    cf = tf.function(lambda a: a + a).get_concrete_function(tf.TensorSpec([2]))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"input #0\(zero-based\) was expected to be a float tensor but is "
                             r"a int32 tensor"):
        cf(tf.constant([1, 2]))


def test_structures_bind_by_key():
    f = tf.function(lambda d: d["a"] - d["b"])
    cf = f.get_concrete_function({"a": tf.TensorSpec([]), "b": tf.TensorSpec([])})
    assert float(cf({"b": 2.0, "a": 5.0})) == 3.0
    with pytest.raises(TypeError, match="has different keys with the TraceType Dict"):
        cf({"a": tf.constant(1.0)})


def test_varargs_placeholders_are_named_after_the_parameter():
    cf = tf.function(lambda *args: args[0]).get_concrete_function(
        tf.TensorSpec([]), tf.TensorSpec([]))
    assert [t.op.name for t in cf.inputs] == ["args_0", "args_1"]
    with pytest.raises(TypeError, match=r"args_1: TensorSpec\(.*\), /\) -> (.|\n)*"
                                        r"<lambda>\(args_0, args_1\) missing"):
        cf(1.0)


def test_input_signature_calls_take_the_python_defaults_and_tfs_binding_errors():
    @tf.function(input_signature=[tf.TensorSpec([], tf.int32), tf.TensorSpec([], tf.int32)])
    def add(a, b=tf.constant(5)):
        return a + b
    assert int(add(tf.constant(1))) == 6 and int(add(1, b=2)) == 3
    for call, why in [(lambda: add(), "missing a required argument: 'a'"),
                      (lambda: add(b=1), "missing a required argument: 'a'"),
                      (lambda: add(1, c=3), "got an unexpected keyword argument 'c'"),
                      (lambda: add(1, 2, 3), "too many positional arguments"),
                      (lambda: add(c=3), "missing a required argument: 'a'"),
                      (lambda: add(1, a=2), "multiple values for argument 'a'")]:
        with pytest.raises(TypeError, match=f"Binding inputs to tf.function failed due to `{why}`"):
            call()


def test_input_signature_of_a_dict_binds_by_key():
    @tf.function(input_signature=[{"a": tf.TensorSpec([None]), "b": tf.TensorSpec([])}])
    def f(d):
        return d["a"] * d["b"]

    assert f({"a": tf.ones([2]), "b": tf.constant(2.0)}).numpy().tolist() == [2.0, 2.0]
    assert f({"b": 3.0, "a": [1.0, 2.0]}).numpy().tolist() == [3.0, 6.0]
    spec = ("Dict[['a', TensorSpec(shape=(None,), dtype=tf.float32, name=None)], "
            "['b', TensorSpec(shape=(), dtype=tf.float32, name=None)]]")
    with pytest.raises(TypeError, match=re.escape(f"has different keys with the TraceType "
                                                  f"{spec}.`")):
        f({"a": tf.ones([2])})
    with pytest.raises(TypeError, match=re.escape("to a Dict type.`") + ".*" +
                       re.escape(f"for signature: (d: {spec}).")):
        f([tf.ones([2]), 2.0])


def test_input_signature_errors_of_tuples():
    f = tf.function(lambda t: t[0] + t[1],
                    input_signature=[(tf.TensorSpec([]), tf.TensorSpec([]))])
    with pytest.raises(TypeError, match=re.escape("`Expected (1.0,) to have length of 2`")):
        f((1.0,))


_S = tf.TensorSpec([])
_SCALAR = "TensorSpec(shape=(), dtype=tf.float32, name=None)"
_P = collections.namedtuple("P", "a b")


def test_a_tuple_of_the_signature_takes_no_list_and_a_list_no_tuple():
    f = tf.function(lambda t: t[0] + t[1], input_signature=[(_S, _S)])
    g = tf.function(lambda t: t[0] + t[1], input_signature=[[_S, _S]])
    assert f(_P(1.0, 2.0)).numpy() == 3.0  # (a namedtuple is a tuple)
    with pytest.raises(TypeError, match=re.escape(
            "failed due to `Can not cast [1.0, 2.0] to tuple type.`. Received args: "
            f"([1.0, 2.0],) and kwargs: {{}} for signature: (t: Tuple[{_SCALAR}, {_SCALAR}]).")):
        f([1.0, 2.0])
    with pytest.raises(TypeError, match=re.escape("`Can not cast (1.0, 2.0) to list type.`")):
        g((1.0, 2.0))
    with pytest.raises(TypeError, match=re.escape("`object of type 'Tuple' has no len()`")):
        g([1.0])  # (TF's words)
    # the concrete function binds as strictly, then tries the flat signature
    with pytest.raises(TypeError, match=re.escape(
            "`Can not cast [1.0, 2.0] to tuple type.`") + "(?s:.*)" + re.escape(
            "Fallback to flat signature also failed due to: <lambda>(t, t_1) missing required "
            "arguments: t_1.")):
        f.get_concrete_function()([1.0, 2.0])


def test_a_namedtuple_of_the_signature_takes_values_with_its_fields_by_name():
    R = collections.namedtuple("R", "b a")
    Q = collections.namedtuple("Q", "a b c")
    h = tf.function(lambda x: x[0] - x[1], input_signature=[_P(_S, _S)])
    assert h(_P(3.0, 1.0)).numpy() == 2.0
    assert h(R(1.0, 3.0)).numpy() == 2.0  # a=3.0, b=1.0
    text = f"P[['a', {_SCALAR}], ['b', {_SCALAR}]]"
    with pytest.raises(TypeError, match=re.escape(
            f"`Cannot cast (1.0, 2.0) to type {_P}.`. Received args: ((1.0, 2.0),) and kwargs: "
            f"{{}} for signature: (x: {text}).")):
        h((1.0, 2.0))
    with pytest.raises(TypeError, match=re.escape(
            f"`Q(a=1.0, b=2.0, c=3.0) has different attributes with the TraceType {text}`")):
        h(Q(1.0, 2.0, 3.0))
    cf = h.get_concrete_function()
    assert str(cf).splitlines()[1] == f"  x (POSITIONAL_OR_KEYWORD): {text}"
    assert cf(R(1.0, 3.0)).numpy() == 2.0
    with pytest.raises(TypeError, match=re.escape(f"`Cannot cast [1.0, 2.0] to type {_P}.`")):
        cf([1.0, 2.0])


def test_namedtuple_arguments_print_as_their_class():
    f = tf.function(lambda x: x.a + x.b)
    assert f(_P(1.0, 2.0)).numpy() == 3.0
    assert "x (POSITIONAL_OR_KEYWORD): P[['a', Literal[1.0]], ['b', Literal[2.0]]]" in \
        f.pretty_printed_concrete_signatures()


def test_input_signature_converts_python_values_and_variables_to_its_dtype():
    # TF 2.21: a value other than a tensor is converted to the spec's dtype, and its
    # conversion error is the binding's reason
    f = tf.function(lambda x: x, input_signature=[tf.TensorSpec([None], tf.float32)])
    g = tf.function(lambda x: x, input_signature=[tf.TensorSpec([2], tf.int64)])
    assert f([1, 2]).dtype == tf.float32 and f(tf.Variable([1.0, 2.0])).numpy().tolist() == [1, 2]
    assert g(np.array([1, 2], "int32")).dtype == tf.int64
    for fn, value, why in (
            (g, [1.5, 2], "Cannot convert [1.5, 2] to EagerTensor of dtype int64"),
            (f, ["a"], "Cannot convert ['a'] to EagerTensor of dtype float"),
            (f, tf.Variable([1, 2]), "Incompatible type conversion requested to type float32 "
                                     "for `tf.Variable of type int32.")):
        with pytest.raises(TypeError, match=re.escape(f"failed due to `{why}")):
            fn(value)
    with pytest.raises(TypeError, match=re.escape(
            "`Can not cast TensorSpec(shape=(2,), dtype=tf.int32, name=None) to TensorSpec("
            "shape=(None,), dtype=tf.float32, name=None)`")):
        f(tf.constant([1, 2]))  # (a tensor is never converted)


def test_input_signature_must_fit_the_parameters():
    spec = tf.TensorSpec([])
    for signature, fn, message in [
            (spec, lambda x: x, "input_signature must be either a tuple or a list, got <class"),
            ([spec, 2, "a"], lambda x: x, "input_signature must be a possibly nested sequence "
             "of TensorSpec objects, got invalid args [2, 'a'] with types [<class 'int'>, "
             "<class 'str'>]."),
            ([[spec, 2]], lambda x: x, "got invalid args [2] with types [<class 'int'>]."),
            ([spec, spec], lambda x: x, "input_signature contains 1 extra type constraints."),
            ([spec], lambda x, y: x, "input_signature missing type constraint for y"),
            ([spec], lambda x, *, k: x, "Since input_signature is defined, keyword-only "
             "parameter `k` must have a default value"),
            # TF's order of the checks: a missing spec, a keyword-only parameter, extra specs
            ([spec, spec], lambda x, *, k: x, "keyword-only parameter `k` must have a default"),
            ([spec], lambda x, z, *, k: x, "input_signature missing type constraint for z")]:
        with pytest.raises(TypeError, match=re.escape(message)):
            tf.function(fn, input_signature=signature)
    # what fits: defaults, *args, and a method's own `self`
    assert float(tf.function(lambda x, y=2.0: x * y, input_signature=[spec])(3.0)) == 6.0
    assert float(tf.function(lambda *a: a[0] + a[1], input_signature=[spec, spec])(1, 2)) == 3

    class M(tf.Module):
        @tf.function(input_signature=[spec])
        def twice(self, x):
            return x * 2

    assert float(M().twice(4.0)) == 8.0


def test_input_signature_get_concrete_function_checks_the_specs_it_is_given():
    f = tf.function(lambda x: x * 2, input_signature=[tf.TensorSpec([None], tf.float32)])
    assert f.get_concrete_function(tf.TensorSpec([3], tf.float32)) is f.get_concrete_function()
    with pytest.raises(TypeError, match=re.escape(
            "failed due to `Can not cast TensorSpec(shape=(None,), dtype=tf.int32, name=None) "
            "to TensorSpec(shape=(None,), dtype=tf.float32, name=None)`")):
        f.get_concrete_function(tf.TensorSpec([None], tf.int32))

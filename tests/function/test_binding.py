"""Calling a ConcreteFunction: the structured signature first, then the flat one, as TF."""
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

"""`ConcreteFunction.inputs` and `captured_inputs`, and `internal_captures` /
`external_captures` of its graph, as TF 2.21 lists them: the arguments' placeholders, then
what stands for each capture."""
import numpy as np

import eagerflow as tf


def test_inputs_list_the_captures_after_the_arguments():
    v = tf.Variable(2.0)
    c = tf.constant([1.0, 2.0])

    @tf.function
    def f(x, y=1):
        return x * v + c + y

    cf = f.get_concrete_function(tf.TensorSpec([2], tf.float32))
    assert [t.dtype for t in cf.inputs] == [tf.float32, tf.resource, tf.float32]
    assert [t.shape for t in cf.inputs] == [tf.TensorShape([2]), tf.TensorShape([]),
                                            tf.TensorShape([2])]
    assert cf.inputs[0].name == "x:0" and cf.inputs[2].name == "add/y:0"
    assert cf.inputs[1].name.endswith("/resource:0")
    assert cf.inputs[1].op.type == "Placeholder"
    # the captures: the variable by its handle, the tensor itself
    assert len(cf.captured_inputs) == 2
    assert cf.captured_inputs[0] is v.handle and cf.captured_inputs[1] is c
    assert cf.graph.external_captures[0] is v.handle
    assert [t.name for t in cf.graph.internal_captures] == [t.name for t in cf.inputs[1:]]
    assert cf.inputs[1] is cf.inputs[1:][0] and cf.inputs[1] is cf.graph.internal_captures[0]
    # the function type lists the variable's capture under its handle's id
    assert list(cf.function_type.captures) == [id(v.handle), id(c)]
    assert [x.name for x in cf.variables] == [v.name]
    assert cf(tf.constant([1.0, 1.0])).numpy().tolist() == [4.0, 5.0]
    # (the function's body in TF's form still takes the argument first)
    assert cf.function_def.signature.input_arg[0].name == "x"


def test_inputs_without_captures_are_the_arguments():
    @tf.function
    def g(a, b):
        return {"s": a + b, "d": (a - b, None)}

    cg = g.get_concrete_function(tf.TensorSpec([None, 3], tf.float32, name="aa"),
                                 tf.TensorSpec([], tf.float32))
    assert [(t.name, t.shape) for t in cg.inputs] == [("aa:0", tf.TensorShape([None, 3])),
                                                      ("b:0", tf.TensorShape([]))]
    assert cg.captured_inputs == [] and cg.graph.internal_captures == []
    assert cg.graph.structured_outputs is cg.structured_outputs
    assert cg.graph.structured_input_signature == (
        (tf.TensorSpec([None, 3], tf.float32, name="aa"), tf.TensorSpec([], tf.float32, "b")), {})


def test_variable_arguments_are_resource_inputs_in_their_place():
    v = tf.Variable(1.0)

    @tf.function
    def f(x, w, y):
        return x + w + y

    cf = f.get_concrete_function(tf.constant(1.0), v, tf.constant(2.0))
    assert [(t.name, t.dtype) for t in cf.inputs] == [
        ("x:0", tf.float32), ("w:0", tf.resource), ("y:0", tf.float32)]
    assert cf.captured_inputs == []
    other = tf.Variable(5.0)
    assert float(cf(tf.constant(1.0), other, tf.constant(2.0))) == 8.0


def test_large_captured_constants_keep_their_values():
    big = tf.constant(np.ones([100, 100], np.float32))

    @tf.function
    def f(x):
        return x + tf.reduce_sum(big)

    cf = f.get_concrete_function(tf.TensorSpec([]))
    assert len(cf.inputs) == 2 and cf.inputs[1].shape == (100, 100)
    assert cf.captured_inputs[0] is big
    assert float(cf(tf.constant(1.0))) == 10001.0

"""tf.RegisterGradient / tf.no_gradient: TF's registry of gradients by op type name."""
import pytest

import eagerflow as tf


def test_registering_returns_the_function_and_rejects_a_second_name():
    @tf.RegisterGradient("RegisterGradientTestTwice")
    def grad(op, dy):
        return dy

    assert callable(grad) and grad.__name__ == "grad"
    with pytest.raises(KeyError, match="Registering two gradient with name "
                                       "'RegisterGradientTestTwice'!"):
        tf.RegisterGradient("RegisterGradientTestTwice")(lambda op, dy: dy)
    assert tf.no_gradient("RegisterGradientTestNone") is None
    with pytest.raises(KeyError, match="'RegisterGradientTestNone'"):
        tf.no_gradient("RegisterGradientTestNone")
    assert tf.compat.v1.NotDifferentiable is tf.no_gradient
    assert tf.compat.v1.RegisterGradient is tf.RegisterGradient


def test_an_op_type_with_a_gradient_is_taken():
    with pytest.raises(KeyError, match="'Square'"):
        tf.RegisterGradient("Square")(lambda op, dy: dy)
    with pytest.raises(KeyError, match="'Square'"):
        tf.no_gradient("Square")


def test_op_type_must_be_a_string():
    with pytest.raises(TypeError, match="op_type must be a string"):
        tf.RegisterGradient(3)
    with pytest.raises(TypeError, match="op_type must be a string"):
        tf.no_gradient(3)


def test_a_node_naming_the_gradient_uses_it():
    # A GraphDef TF wrote for a custom gradient: an IdentityN whose _gradient_op_type
    # attr names the gradient function (3.0 in TF 2.21)
    @tf.RegisterGradient("RegisterGradientTestTriple")
    def _triple(op, *grads):
        return [3 * g for g in grads]

    gd = tf.compat.v1.GraphDef()
    x = gd.node.add(name="x", op="Placeholder")
    x.attr["dtype"].type = tf.float32.as_datatype_enum
    y = gd.node.add(name="y", op="IdentityN", input=["x"])
    y.attr["T"].list.type.append(tf.float32.as_datatype_enum)
    y.attr["_gradient_op_type"].s = b"RegisterGradientTestTriple"

    @tf.function
    def f(x):
        (y,) = tf.graph_util.import_graph_def(gd, input_map={"x": x}, return_elements=["y:0"])
        return tf.gradients(y, x)

    assert float(f(tf.constant(1.0))[0]) == 3.0


def test_gradient_override_map_in_a_v1_graph():
    @tf.RegisterGradient("RegisterGradientTestOverride")
    def _triple(op, grad):
        return 3 * grad

    graph = tf.Graph()
    with graph.as_default():
        x = tf.constant(2.0)
        with graph.gradient_override_map({"Identity": "RegisterGradientTestOverride"}):
            y = tf.identity(x)
        z = tf.identity(x)  # outside the map: Identity's own gradient
        with tf.compat.v1.Session() as sess:
            assert sess.run(tf.gradients(y, x)) == [3.0]
            assert sess.run(tf.gradients(z, x)) == [1.0]
        with pytest.raises(TypeError, match="op_type_map must be a dictionary mapping "
                                            "strings to strings"):
            with graph.gradient_override_map({"Identity": 3}):
                pass

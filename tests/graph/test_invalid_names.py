"""A graph refuses names its nodes cannot take, with TF's ValueError (eagerly names are not
used, and any name goes)."""
import pytest

import eagerflow as tf

ROOT = "is not a valid root scope name"


def test_eager_names_are_free():
    assert tf.constant(1, name="bad name!").numpy() == 1
    assert tf.add(1, 2, name="a b").numpy() == 3
    assert tf.Variable(1.0, name="v ar").name == "v ar:0"
    with tf.name_scope("bad scope!") as scope:
        assert scope == "bad scope!/"


def test_graph_names():
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="`bad name!` is not a valid node name"):
            tf.constant(1, name="bad name!")
        with pytest.raises(ValueError, match="`_x` is not a valid node name"):
            tf.constant(1, name="_x")
        with pytest.raises(ValueError, match=f"'a b' {ROOT}"):
            tf.add(1, 2, name="a b")
        with pytest.raises(ValueError, match=f"'i:d' {ROOT}"):
            tf.identity(tf.constant(1), name="i:d")
        with pytest.raises(ValueError, match=f"'bad scope!' {ROOT}"):
            with tf.compat.v1.name_scope("bad scope!"):
                pass
        with pytest.raises(ValueError, match=f"'p h' {ROOT}"):
            tf.compat.v1.placeholder(tf.float32, name="p h")
        with pytest.raises(ValueError, match=f"'v ar' {ROOT}"):
            tf.compat.v1.Variable(1.0, name="v ar")
        with pytest.raises(ValueError, match=f"'w x' {ROOT}"):
            tf.compat.v1.get_variable("w x", shape=[1])
        # valid: '.' may start a name, '-', '>', '/' and '_' follow; a nested scope may
        # start with '_'
        assert tf.constant(1, name=".x").name == ".x:0"
        assert tf.constant(1, name="a.b-c_d/e>f").name == "a.b-c_d/e>f:0"
        with tf.name_scope("outer"):
            with tf.name_scope("_inner") as scope:
                assert scope == "outer/_inner/"
            with pytest.raises(ValueError, match="'a b' is not a valid scope name"):
                tf.add(1, 2, name="a b")


def test_function_names():
    @tf.function
    def f(x):
        return tf.add(x, 1, name="bad name!")

    with pytest.raises(ValueError, match=f"'bad name!' {ROOT}"):
        f(tf.constant(1))

    made = []

    @tf.function
    def g():
        if not made:
            made.append(tf.Variable(1.0, name="v ar"))
        return made[0] + 1

    with pytest.raises(ValueError, match=f"'v ar' {ROOT}"):
        g()

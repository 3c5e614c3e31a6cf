"""``tf.compat.v1.make_template``: variables made on the first call, shared by later ones
(the names and errors are TF's)."""
import logging

import pytest

import eagerflow as tf
import eagerflow.compat.v1 as tf1


def _scale(x, scalar_name):
    var = tf1.get_variable(scalar_name, shape=[], initializer=tf1.constant_initializer(1))
    return x * var


def test_template_shares_its_variables_across_calls():
    g = tf.Graph()
    with g.as_default():
        scale = tf1.make_template("scale_by_y", _scale, scalar_name="y")
        assert scale.name == "scale_by_y" and scale.variable_scope_name is None
        assert scale.variables == []
        z, w = scale(tf.constant(2.0)), scale(tf.constant(3.0))
        assert (z.name, w.name) == ("scale_by_y/mul:0", "scale_by_y_1/mul:0")
        assert [v.name for v in scale.variables] == ["scale_by_y/y:0"]
        assert [v.name for v in scale.trainable_variables] == ["scale_by_y/y:0"]
        assert [v.name for v in scale.global_variables] == ["scale_by_y/y:0"]
        assert scale.non_trainable_variables == [] and scale.local_variables == []
        assert scale.variable_scope.name == "scale_by_y"
        assert scale.variable_scope_name == "scale_by_y/"
        assert [v.name for v in tf1.global_variables()] == ["scale_by_y/y:0"]
        # a second template of the same name gets a scope of its own
        again = tf1.make_template("scale_by_y", _scale, scalar_name="y")
        assert again(tf.constant(1.0)).name == "scale_by_y_2/mul:0"
        assert again.variable_scope_name == "scale_by_y_1/"
        assert [v.name for v in again.variables] == ["scale_by_y_1/y:0"]
        train = tf1.train.GradientDescentOptimizer(0.5).minimize(z + w)
        init = tf1.global_variables_initializer()
    with tf1.Session(graph=g) as sess:
        sess.run(init)
        assert sess.run([z, w]) == [2.0, 3.0]
        sess.run(train)
        assert sess.run([z, w]) == [-3.0, -4.5]  # (one variable, both gradients)


def test_template_scopes_made_now_and_at_the_first_call():
    g = tf.Graph()
    with g.as_default():
        with tf1.variable_scope("outer"):
            now = tf1.make_template("tmpl", _scale, create_scope_now_=True, scalar_name="s")
            assert now.variable_scope_name == "outer/tmpl/"
        assert now(tf.constant(1.0)).name == "tmpl/mul:0"
        assert [v.name for v in now.variables] == ["outer/tmpl/s:0"]
        with tf1.variable_scope("other"):
            assert now(tf.constant(1.0)).name == "other/tmpl/mul:0"
        later = tf1.make_template("tmpl4", _scale, scalar_name="q")
        with tf1.variable_scope("other2"):
            assert later(tf.constant(1.0)).name == "other2/tmpl4/mul:0"
        assert later.variable_scope_name == "other2/tmpl4/"
        named = tf1.make_template("uniq", _scale, unique_name_="uniq_given", scalar_name="a")
        named(tf.constant(1.0))
        assert named.variable_scope_name == "uniq_given/"
        assert [v.name for v in named.variables] == ["uniq_given/a:0"]


def test_nested_templates_keep_their_variables_in_the_outer_scope():
    g = tf.Graph()
    with g.as_default():
        inner = tf1.make_template("inner", _scale, scalar_name="i")

        def outer_fn(x):
            return inner(x) * tf1.get_variable("o", [], initializer=tf1.ones_initializer())
        outer = tf1.make_template("outer_t", outer_fn)
        outer(tf.constant(1.0))
        outer(tf.constant(1.0))
        assert [v.name for v in outer.variables] == ["outer_t/inner/i:0", "outer_t/o:0"]
        assert [v.name for v in inner.variables] == ["outer_t/inner/i:0"]


def test_template_making_variables_after_the_first_call_raises():
    g = tf.Graph()
    with g.as_default():
        count = [0]

        def new_name_each_call(x):
            count[0] += 1
            return x * tf1.get_variable(f"v{count[0]}", [], initializer=tf1.zeros_initializer())
        t = tf1.make_template("bad", new_name_each_call)
        t(tf.constant(1.0))
        with pytest.raises(ValueError, match="Variable bad/v2 does not exist, or was not "
                                             "created with tf.get_variable()"):
            t(tf.constant(1.0))

        t = tf1.make_template("noget", lambda x: x * tf1.Variable(1.0, name="plain"))
        t(tf.constant(1.0))
        with pytest.raises(ValueError, match="Trainable variable created when calling a "
                                             "template after the first time"):
            t(tf.constant(1.0))
        assert [v.name for v in t.variables] == ["noget/plain:0"]
        with pytest.raises(TypeError):
            tf1.make_template("not_callable", 5)(1)


def test_eager_template_keeps_its_variables():
    t = tf1.make_template("eager_t", _scale, scalar_name="y")
    assert type(t).__name__ == "EagerTemplate"
    assert float(t(tf.constant(2.0))) == 2.0 and float(t(tf.constant(3.0))) == 3.0
    assert [v.name for v in t.variables] == ["eager_t/y:0"]
    assert t.trainable_variables[0] is t.variables[0]
    with tf.GradientTape() as tape:
        y = t(tf.constant(4.0))
    assert float(tape.gradient(y, t.variables[0])) == 4.0
    assert len(t.variables) == 1

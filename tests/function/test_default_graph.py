"""`tf.compat.v1.get_default_graph()` while a `function` traces: the graph being built (TF's
FuncGraph), whose `gradient_override_map`, collections and scopes act on the trace."""
import pytest

import eagerflow as tf


@tf.RegisterGradient("DefaultGraphTestTimesTen")
def _times_ten(op, grad):
    return 10.0 * grad


def test_the_default_graph_of_a_trace_is_the_graph_being_built():
    seen = {}

    @tf.function
    def f(x):
        graph = tf.compat.v1.get_default_graph()
        seen.update(graph=graph, same=x.graph is graph, building=graph.building_function,
                    ops=[(op.name, op.type) for op in graph.get_operations()])
        y = tf.add(x, 1.0, name="plus")
        seen["after"] = [op.name for op in graph.get_operations()]
        seen["nodes"] = [(n.name, n.op) for n in graph.as_graph_def().node]
        return y

    global_graph = tf.compat.v1.get_default_graph()
    assert not global_graph.building_function
    assert float(f(tf.constant(1.0))) == 2.0
    assert seen["same"] and seen["building"] and seen["graph"] is not global_graph
    assert seen["ops"] == [("x", "Placeholder")]
    assert seen["after"] == ["x", "plus/y", "plus"]
    assert seen["nodes"] == [("x", "Placeholder"), ("plus/y", "Const"), ("plus", "AddV2")]
    assert global_graph.get_operations() == []
    assert tf.compat.v1.get_default_graph() is global_graph  # (TF's global graph, eagerly)


def test_gradient_override_map_in_a_function_under_a_tape():
    @tf.function
    def f(x):
        with tf.compat.v1.get_default_graph().gradient_override_map(
                {"Identity": "DefaultGraphTestTimesTen"}):
            y = tf.identity(x)
        return y + tf.identity(x)  # (the second identity keeps its own gradient)

    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    assert float(tape.gradient(y, x)) == 11.0

    v = tf.Variable(3.0)

    @tf.function
    def g():
        with tf.compat.v1.get_default_graph().gradient_override_map(
                {"Identity": "DefaultGraphTestTimesTen"}):
            return tf.identity(v * 1.0)

    with tf.GradientTape() as tape:
        y = g()
    assert float(tape.gradient(y, v)) == 10.0


def test_gradient_override_map_with_tf_gradients_in_a_function():
    @tf.function
    def f(x):
        with tf.compat.v1.get_default_graph().gradient_override_map(
                {"Identity": "DefaultGraphTestTimesTen"}):
            y = tf.identity(x)
        z = tf.identity(x)
        return tf.gradients(y, x)[0], tf.gradients(z, x)[0]

    assert [float(g) for g in f(tf.constant(2.0))] == [10.0, 1.0]


def test_a_tape_inside_the_function_keeps_the_ops_own_gradient():
    # As in TF: a tape looks gradients up by op type, whatever the map says
    @tf.function
    def f(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            with tf.compat.v1.get_default_graph().gradient_override_map(
                    {"Identity": "DefaultGraphTestTimesTen"}):
                y = tf.identity(x)
        return tape.gradient(y, x)

    assert float(f(tf.constant(2.0))) == 1.0


def test_nested_functions_each_build_their_own_graph():
    graphs = {}

    @tf.function
    def inner(x):
        graphs["inner"] = tf.compat.v1.get_default_graph()
        with graphs["inner"].gradient_override_map({"Identity": "DefaultGraphTestTimesTen"}):
            return tf.identity(x)

    @tf.function
    def outer(x):
        graphs["outer"] = tf.compat.v1.get_default_graph()
        return inner(x) * 2.0

    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = outer(x)
    assert float(tape.gradient(y, x)) == 20.0
    assert graphs["inner"] is not graphs["outer"]
    assert tf.compat.v1.get_default_graph() not in graphs.values()


def test_a_v1_graph_entered_in_a_function_is_left_for_the_functions_graph():
    seen = {}

    @tf.function
    def f(x):
        with tf.Graph().as_default() as g:
            seen["inner"] = tf.compat.v1.get_default_graph() is g
        seen["after"] = tf.compat.v1.get_default_graph() is x.graph
        return x

    f(tf.constant(1.0))
    assert seen == {"inner": True, "after": True}


def test_collections_of_a_trace_are_its_own():
    seen = {}
    tf.compat.v1.add_to_collection("default_graph_test_seen", "outer")

    @tf.function
    def f(x):
        graph = tf.compat.v1.get_default_graph()
        seen["start"] = tf.compat.v1.get_collection("default_graph_test_seen")
        tf.compat.v1.add_to_collection("default_graph_test_seen", "inner")
        graph.add_to_collection("default_graph_test_own", 1)
        seen["end"] = (graph.get_collection("default_graph_test_seen"),
                       tf.compat.v1.get_collection("default_graph_test_own"))
        return x

    f(tf.constant(1.0))
    assert seen == {"start": ["outer"], "end": (["outer", "inner"], [1])}
    # (the global graph's collections are untouched)
    assert tf.compat.v1.get_collection("default_graph_test_seen") == ["outer"]
    assert tf.compat.v1.get_collection("default_graph_test_own") == []


def test_scopes_of_the_functions_graph():
    seen = {}

    @tf.function
    def f(x):
        graph = tf.compat.v1.get_default_graph()
        with graph.name_scope("block") as scope:
            seen["scope"] = (scope, graph.get_name_scope())
            seen["name"] = tf.identity(x, name="y").name
        with graph.control_dependencies([x]):
            seen["dep"] = tf.identity(x, name="after").name
        with graph.device("/cpu:0"):
            seen["device"] = tf.identity(x).device
        with tf.init_scope():
            seen["lifted"] = tf.executing_eagerly()
        seen["eager"] = (tf.executing_eagerly(), tf.inside_function())
        return x

    f(tf.constant(1.0))
    assert seen == {"scope": ("block/", "block"), "name": "block/y:0", "dep": "after:0",
                    "device": "/device:CPU:0", "lifted": True, "eager": (False, True)}


def test_gradient_override_map_in_a_v1_graph_still_applies():
    graph = tf.Graph()
    with graph.as_default():
        x = tf.constant(2.0)
        with tf.compat.v1.get_default_graph().gradient_override_map(
                {"Identity": "DefaultGraphTestTimesTen"}):
            y = tf.identity(x)
        with tf.compat.v1.Session() as sess:
            assert sess.run(tf.gradients(y, x)) == [10.0]
        assert not tf.compat.v1.get_default_graph().building_function


def test_gradient_override_map_rejects_a_map_of_other_types():
    @tf.function
    def f(x):
        with tf.compat.v1.get_default_graph().gradient_override_map({"Identity": 3}):
            return x

    with pytest.raises(TypeError, match="op_type_map must be a dictionary mapping strings to "
                                        "strings"):
        f(tf.constant(1.0))


def test_an_override_may_name_an_op_types_own_gradient():
    # The straight-through estimator: Round and Sign differentiated as Identity
    @tf.function
    def f(x):
        with tf.compat.v1.get_default_graph().gradient_override_map(
                {"Round": "Identity", "Sign": "Identity", "StopGradient": "Identity"}):
            return tf.round(x) + tf.sign(x) + tf.stop_gradient(x)

    x = tf.constant([0.3, -1.7, 2.5])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    assert tape.gradient(y, x).numpy().tolist() == [3.0, 3.0, 3.0]

    @tf.function
    def g(x):
        with tf.compat.v1.get_default_graph().gradient_override_map({"Floor": "Square"}):
            return tf.floor(x)

    with tf.GradientTape() as tape:
        tape.watch(x)
        y = g(x)
    assert tape.gradient(y, x).numpy().tolist() == pytest.approx([0.6, -3.4, 5.0])

    graph = tf.Graph()
    with graph.as_default():
        a = tf.constant([0.3, -1.7])
        with graph.gradient_override_map({"Round": "Identity"}):
            b = tf.round(a)
        with tf.compat.v1.Session() as sess:
            assert sess.run(tf.gradients(b, a))[0].tolist() == [1.0, 1.0]


def test_an_override_naming_a_gradient_of_none_stops_there():
    tf.no_gradient("DefaultGraphTestNone")

    @tf.function
    def f(x):
        with tf.compat.v1.get_default_graph().gradient_override_map(
                {"Square": "DefaultGraphTestNone"}):
            a = tf.square(x)
        with tf.compat.v1.get_default_graph().gradient_override_map({"Exp": "StopGradient"}):
            b = tf.exp(x)
        return a + b + x

    x = tf.constant([0.5, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    assert tape.gradient(y, x).numpy().tolist() == [1.0, 1.0]


def test_an_override_in_a_called_function_holds_for_its_callers_gradients():
    @tf.function
    def inner(x):
        with tf.compat.v1.get_default_graph().gradient_override_map(
                {"Identity": "DefaultGraphTestTimesTen"}):
            return tf.identity(x) * 1.0

    @tf.function
    def by_gradients(x):
        return tf.gradients(inner(x), x)[0]

    @tf.function
    def by_tape(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = inner(x)
        return tape.gradient(y, x)

    x = tf.constant(2.0)
    assert float(by_gradients(x)) == 10.0
    assert float(by_tape(x)) == 10.0
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = inner(x) * x
        g = tape.gradient(y, x)
    assert (float(g), float(outer.gradient(g, x))) == (22.0, 20.0)


def test_control_dependencies_in_a_function_are_the_ops_control_inputs():
    seen = {}

    @tf.function
    def f(x):
        graph = tf.compat.v1.get_default_graph()
        y = tf.add(x, 1.0, name="a")
        with tf.control_dependencies([y]):
            z = tf.identity(x, name="b")
        with graph.control_dependencies([y, x]):  # (x, an input of c, is no control input)
            with graph.control_dependencies([z.op]):
                w = tf.identity(x, name="c")
            with graph.control_dependencies(None):
                n = tf.identity(x, name="d")
        with tf.compat.v1.control_dependencies([outside, v]):  # (other graphs': left out)
            e = tf.identity(x, name="e")
        seen.update({t.op.name: [o.name for o in t.op.control_inputs] for t in (z, w, n, e)})
        seen["nodes"] = [(node.name, list(node.input)) for node in graph.as_graph_def().node
                         if node.name in "bcd"]
        return w

    v, outside = tf.Variable(1.0), tf.constant(1.0)
    assert float(f(tf.constant(1.0))) == 1.0
    assert seen == {"b": ["a"], "c": ["a", "b"], "d": [], "e": [],
                    "nodes": [("b", ["x", "^a"]), ("c", ["x", "^a", "^b"]), ("d", ["x"])]}


def test_control_inputs_of_a_v1_graphs_ops():
    graph = tf.Graph()
    with graph.as_default():
        a = tf.constant(1.0, name="a")
        b = tf.constant(2.0, name="b")
        with graph.control_dependencies([a, b]):
            c = tf.identity(a, name="c")  # (a, its input, is no control input)
        assert [op.name for op in c.op.control_inputs] == ["b"]
        assert a.op.control_inputs == []
        assert [list(n.input) for n in graph.as_graph_def().node if n.name == "c"] == [
            ["a", "^b"]]


def test_init_scope_lifts_out_of_functions_only():
    graph = tf.Graph()
    with graph.as_default():
        with tf.name_scope("outer"):
            with tf.init_scope():  # (a TF 1 graph is no function: it stays, in its scope)
                assert not tf.executing_eagerly()
                assert tf.compat.v1.get_default_graph() is graph
                c = tf.constant(1.0, name="c")
        assert c.graph is graph and c.name == "outer/c:0"
        seen = {}

        @tf.function
        def f(x):
            with tf.compat.v1.init_scope():  # (into the TF 1 graph the function is called in)
                seen["lifted"] = (tf.executing_eagerly(), tf.compat.v1.get_default_graph())
            return x

        f(tf.constant(1.0))
        assert seen["lifted"] == (False, graph)
    with tf.init_scope():
        assert tf.executing_eagerly()


def test_names_looked_up_in_a_functions_graph():
    seen = {}

    @tf.function(autograph=False)
    def f(x):
        graph = tf.compat.v1.get_default_graph()
        version = graph.version
        tf.identity(x, name="y")
        seen["found"] = (graph.get_tensor_by_name("y:0").name, graph.get_operation_by_name("y").type,
                         graph.as_graph_element("x:0") is x, graph.version > version,
                         graph.is_fetchable(x))
        for name in ("nope:0", "x:1", "nope", "x", 3):
            for lookup in (graph.get_tensor_by_name, graph.get_operation_by_name):
                try:
                    lookup(name)
                except Exception as e:  # noqa: BLE001 (the class and text are what is checked)
                    seen[name, lookup.__name__] = (type(e).__name__, str(e))
        return x

    f(tf.constant(1.0))
    exist = "refers to a Tensor which does not exist. The operation,"
    form = "Tensor names must be of the form \"<op_name>:<output_index>\"."
    assert seen == {
        "found": ("y:0", "Identity", True, True, True),
        ("nope:0", "get_tensor_by_name"): ("KeyError", f"\"The name 'nope:0' {exist} 'nope', "
                                                       f"does not exist in the graph.\""),
        ("nope:0", "get_operation_by_name"): (
            "ValueError", "Name 'nope:0' appears to refer to a Tensor, not a Operation."),
        ("x:1", "get_tensor_by_name"): ("KeyError", f"\"The name 'x:1' {exist} 'x', exists "
                                                    f"but only has 1 outputs.\""),
        ("x:1", "get_operation_by_name"): (
            "ValueError", "Name 'x:1' appears to refer to a Tensor, not a Operation."),
        ("nope", "get_tensor_by_name"): (
            "ValueError", f"The name 'nope' looks like an (invalid) Operation name, not a "
                          f"Tensor. {form}"),
        ("nope", "get_operation_by_name"): (
            "KeyError", "\"The name 'nope' refers to an Operation not in the graph.\""),
        ("x", "get_tensor_by_name"): (
            "ValueError", f"The name 'x' refers to an Operation, not a Tensor. {form}"),
        (3, "get_tensor_by_name"): ("TypeError", "Tensor names are strings (or similar), not "
                                                 "int."),
        (3, "get_operation_by_name"): (
            "TypeError", "Operation names are strings (or similar), not int."),
    }


def test_the_global_graph_has_no_name_scope_of_eager_code():
    with tf.name_scope("eager"):
        assert tf.compat.v1.get_default_graph().get_name_scope() == ""
        assert tf.get_current_name_scope() == "eager"


class _Overridden(tf.Module):
    @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
    def f(self, x):
        with tf.compat.v1.get_default_graph().gradient_override_map(
                {"Identity": "DefaultGraphTestTimesTen"}):
            return tf.identity(x) * 1.0


def test_an_override_is_the_nodes_gradient_op_type_in_graph_defs(tmp_path):
    module = _Overridden()
    graph = module.f.get_concrete_function().graph
    identity = graph.get_operation_by_name("Identity")
    assert identity.get_attr("_gradient_op_type") == b"DefaultGraphTestTimesTen"
    assert identity.get_attr("T") == tf.float32
    with pytest.raises(ValueError, match="Operation 'Identity' has no attr named 'nope'."):
        identity.get_attr("nope")
    graph_def = graph.as_graph_def()
    assert [(n.name, n.attr["_gradient_op_type"].s) for n in graph_def.node
            if "_gradient_op_type" in n.attr] == [("Identity", b"DefaultGraphTestTimesTen")]

    imported = tf.Graph()
    with imported.as_default():
        tf.graph_util.import_graph_def(graph_def, name="")
        x, y = imported.get_tensor_by_name("x:0"), imported.get_tensor_by_name("mul:0")
        with tf.compat.v1.Session() as sess:
            assert sess.run(tf.gradients(y, x), {x: 2.0}) == [10.0]

    tf.saved_model.save(module, str(tmp_path))
    loaded = tf.saved_model.load(str(tmp_path))
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = loaded.f(x)
    assert float(tape.gradient(y, x)) == 10.0


def test_name_scopes_of_one_name_in_a_function_are_made_unique():
    seen = {}

    @tf.function
    def f(x):
        graph = tf.compat.v1.get_default_graph()
        scopes = []
        for opener in (tf.name_scope, graph.name_scope, tf.compat.v1.name_scope):
            for _ in range(2):
                with opener("s") as scope:
                    scopes.append(scope)
        with tf.name_scope("a"):
            first = tf.identity(x, name="i")
        with tf.name_scope("a"):
            second = tf.identity(x, name="i")
        with tf.name_scope("a/") as absolute:  # (an absolute scope is taken as it is)
            scopes.append(absolute)
        for _ in range(2):
            with tf.compat.v1.variable_scope("vs"):
                scopes.append(graph.get_name_scope())
        seen.update(scopes=scopes, names=(first.name, second.name))
        return x

    f(tf.constant(1.0))
    assert seen == {"scopes": ["s/", "s_1/", "s_2/", "s_3/", "s_4/", "s_5/", "a/", "vs",
                               "vs_1"],
                    "names": ("a/i:0", "a_1/i:0")}
    assert not tf.inside_function()
    with tf.Graph().as_default():
        assert not tf.inside_function()


def test_name_scopes_of_a_graph_not_being_built_are_its_own():
    graph = tf.compat.v1.get_default_graph()
    with graph.name_scope("default_graph_test") as outer:
        with graph.name_scope("inner") as inner:
            assert (outer, inner) == ("default_graph_test/", "default_graph_test/inner/")
            assert graph.get_name_scope() == "default_graph_test/inner"
            assert tf.get_current_name_scope() == ""
    with graph.name_scope("default_graph_test") as again:
        assert again == "default_graph_test_1/"
    other = tf.Graph()
    with other.name_scope("x"):
        with other.as_default():
            assert other.get_name_scope() == "x"
            assert tf.constant(1.0, name="c").name == "x/c:0"


def test_init_scope_in_a_function_keeps_the_functions_default_graph():
    seen = {}

    @tf.function
    def f(x):
        with tf.init_scope():
            seen["lifted"] = (tf.executing_eagerly(), tf.inside_function(),
                              tf.compat.v1.get_default_graph() is x.graph)
        return x

    f(tf.constant(1.0))
    assert seen == {"lifted": (True, True, True)}
    assert not tf.inside_function()


def test_a_functions_graph_has_the_global_seed_of_its_trace():
    seeds = []

    @tf.function
    def f(x):
        seeds.append(tf.compat.v1.get_default_graph().seed)
        return tf.cond(x > 0, lambda: seeds.append(tf.compat.v1.get_default_graph().seed) or x,
                       lambda: x)

    tf.random.set_seed(None)
    f(tf.constant(1.0))
    tf.random.set_seed(7)
    f(tf.constant(2))
    tf.random.set_seed(None)
    assert seeds == [None, None, 7, 7]


def test_a_functions_graph_is_a_tf_graph_nested_in_the_graph_it_was_traced_in():
    # TF 2.21: FuncGraph subclasses tf.Graph; its outer_graph is the graph being built when
    # it was made (the global graph eagerly, the caller's while tracing, a v1 graph's inside
    # it), and a plain tf.Graph has no outer_graph
    seen = {}

    @tf.function
    def inner(x):
        seen["inner"] = tf.compat.v1.get_default_graph()
        return x + 1.0

    @tf.function
    def outer(x):
        seen["outer"] = graph = tf.compat.v1.get_default_graph()
        seen["tensor"] = x.graph

        def body(i):
            seen["body"] = tf.compat.v1.get_default_graph()
            return i + 1

        tf.while_loop(lambda i: i < 3, body, [0])
        return inner(x)

    global_graph = tf.compat.v1.get_default_graph()
    concrete = outer.get_concrete_function(tf.constant(1.0))
    graph = seen["outer"]
    assert concrete.graph is graph and seen["tensor"] is graph
    assert all(isinstance(g, tf.Graph) and g.building_function
               for g in (graph, seen["inner"], seen["body"]))
    assert issubclass(type(graph), tf.Graph)
    assert graph.outer_graph is global_graph
    assert seen["inner"].outer_graph is graph and seen["body"].outer_graph is graph
    assert not hasattr(global_graph, "outer_graph")
    assert isinstance(global_graph, tf.Graph) and not global_graph.building_function

    with tf.Graph().as_default() as v1:
        @tf.function
        def h(x):
            seen["h"] = tf.compat.v1.get_default_graph()
            return x * 2.0

        h(tf.constant(1.0))
    assert seen["h"].outer_graph is v1
    assert not isinstance(object(), tf.Graph) and not issubclass(int, tf.Graph)

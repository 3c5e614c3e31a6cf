"""Module: attribute containers wrapped as TF wraps them, and what is tracked through them."""
import collections
import copy
import json

import eagerflow as tf
from tests.internals import DictWrapper, ListWrapper, TupleWrapper


def _module(**attributes):
    module = tf.Module()
    for name, value in attributes.items():
        setattr(module, name, value)
    return module


def test_lists_and_dicts_print_as_wrappers():
    m = _module(a=[1], d={"x": 1, "y": [2, 3]}, t=(1, [2]), n=[[1, 2], [3]])
    assert str(m.a) == repr(m.a) == "ListWrapper([1])"
    assert str(m.d) == "{'x': 1, 'y': ListWrapper([2, 3])}"
    assert repr(m.d) == "DictWrapper({'x': 1, 'y': ListWrapper([2, 3])})"
    assert str(m.t) == "(1, ListWrapper([2]))"
    assert repr(m.t) == "_TupleWrapper((1, ListWrapper([2])))"
    assert str(m.n) == "ListWrapper([ListWrapper([1, 2]), ListWrapper([3])])"


def test_wrappers_stay_builtin_containers():
    m = _module(a=[1], d={"k": [1]}, t=(1, [2]))
    assert isinstance(m.a, list) and isinstance(m.d, dict) and isinstance(m.t, tuple)
    assert m.a == [1] and [1] == m.a and m.d == {"k": [1]} and m.t == (1, [2])
    assert json.dumps({"a": m.a, "d": m.d}) == '{"a": [1], "d": {"k": [1]}}'
    assert type(m.a + [2]) is list and type(m.a[:]) is list and type(m.a * 2) is list


def test_only_plain_containers_and_tuples_of_trackables_are_wrapped():
    point = collections.namedtuple("Point", "x y")
    m = _module(t=(1, 2), s={1}, p=point([1], 2), sub=collections.OrderedDict(a=1),
                v=(1, tf.Variable(1.0)))
    assert type(m.t) is tuple and type(m.s) is set and type(m.sub) is collections.OrderedDict
    assert type(m.p) is point and str(m.p) == "Point(x=ListWrapper([1]), y=2)"
    assert type(m.v) is TupleWrapper


def test_mutations_wrap_what_they_add():
    m = _module(a=[1], d={})
    m.a.append([5])
    m.a += [[6]]
    m.a.insert(0, {"k": 1})
    m.a[1:2] = [[7]]
    m.d["z"] = [7]
    m.d.update(q={"r": 1})
    m.d.setdefault("s", [])
    assert [type(v).__name__ for v in m.a] == ["_DictWrapper", "ListWrapper", "ListWrapper",
                                               "ListWrapper"]
    assert all(isinstance(v, (DictWrapper, ListWrapper)) for v in m.a)
    assert type(m.a) is ListWrapper
    assert all(isinstance(m.d[k], w) for k, w in
               (("z", ListWrapper), ("q", DictWrapper), ("s", ListWrapper)))


def test_copies_stay_wrappers():
    m = _module(a=[[1]], d={"k": [1]})
    for copied in (m.a.copy(), copy.copy(m.a), copy.deepcopy(m.a)):
        assert type(copied) is ListWrapper and copied == [[1]]
    assert type(copy.deepcopy(m.a)[0]) is ListWrapper
    for copied in (m.d.copy(), copy.copy(m.d), copy.deepcopy(m.d)):
        assert type(copied) is DictWrapper and copied == {"k": [1]}


def test_nest_keeps_wrappers_and_matches_lists():
    m = _module(a=[1, 2], d={"x": 1, "y": [2]})
    doubled = tf.nest.map_structure(lambda v: 2 * v, m.a)
    assert type(doubled) is ListWrapper and doubled == [2, 4]
    assert type(tf.nest.map_structure(lambda v: v, m.d)) is DictWrapper
    assert tf.nest.flatten(m.d) == [1, 2]
    tf.nest.assert_same_structure(m.a, [3, 4])
    assert type(tf.nest.map_structure(lambda x, y: x + y, [1, 2], m.a)) is list


def test_variables_and_modules_added_after_assignment_are_tracked():
    m = _module(vs=[], d={})
    m.vs.append(tf.Variable(1.0, name="a"))
    m.d["k"] = tf.Module(name="inner")
    m.d["k"].v = tf.Variable(2.0, name="b")
    assert [v.name for v in m.variables] == ["a:0", "b:0"]
    assert [s.name for s in m.submodules] == ["inner"]


def test_a_module_reachable_from_its_submodules_is_not_its_own_submodule():
    root = tf.Module()
    root.v = tf.Variable(1.0)
    root.child = tf.Module()
    root.child.w = tf.Variable(2.0)
    root.child.parent = root  # a cycle
    assert root.submodules == (root.child,)
    assert [float(v) for v in root.variables] == [1.0, 2.0]


def test_a_dict_whose_keys_do_not_sort_fails_to_list_variables_as_in_tf():
    module = _module(d={1: tf.Variable(1.0), "b": tf.Variable(2.0)})
    for listing in ("variables", "trainable_variables", "submodules"):
        try:
            getattr(module, listing)
        except ValueError as e:
            assert str(e) == f"Error processing property 'd' of {module.d!r}"
            assert isinstance(e.__cause__, TypeError)
        else:
            raise AssertionError(f"{listing} listed a dict whose keys do not sort")


def test_a_wrapper_shares_the_list_or_dict_its_caller_still_holds():
    items, table = [1, 2], {"a": 1}
    m = _module(items=items, table=table)
    m.items.append(3)  # through the attribute: the caller's list changes too
    m.table["b"] = 2
    assert items == [1, 2, 3] and table == {"a": 1, "b": 2}
    items.append(4)  # the caller's change: seen through the attribute
    table["c"] = 3
    del items[0]
    assert list(m.items) == [2, 3, 4] and len(m.items) == 3 and m.items[-1] == 4
    assert dict(m.table) == {"a": 1, "b": 2, "c": 3} and m.table["c"] == 3
    assert type(m.items).__name__ == "ListWrapper" and isinstance(m.items, ListWrapper)
    assert type(m.table).__name__ == "_DictWrapper" and isinstance(m.table, DictWrapper)
    assert repr(m.items) == "ListWrapper([2, 3, 4])"


def test_variables_appended_to_a_shared_list_are_tracked():
    variables = [tf.Variable(1.0)]
    m = _module(held=variables)
    variables.append(tf.Variable(2.0))
    assert [v.numpy() for v in m.trainable_variables] == [1.0, 2.0]


def test_layers_appended_to_a_list_after_assigning_it_are_the_models():
    class Model(tf.keras.Model):
        def __init__(self):
            super().__init__()
            blocks = []
            self.blocks = blocks
            for _ in range(2):
                blocks.append(tf.keras.layers.Dense(2, kernel_initializer="ones"))

        def call(self, x):
            for block in self.blocks:
                x = block(x)
            return x

    model = Model()
    assert model(tf.ones([1, 2])).numpy().tolist() == [[4.0, 4.0]]
    assert len(model.trainable_variables) == 4 and len(model.layers) == 2


def test_default_names_in_snake_case_as_tf_modules_and_keras_layers_take_them():
    # tf.Module and Keras split class names differently; both kept digits with the next
    # word's capital ('VAE2' was 'va_e2')
    expected = {"VAE2": ("vae2", "vae2"), "Conv2DTranspose": ("conv2_d_transpose",
                                                              "conv2d_transpose"),
                "ResNet50V2": ("res_net50_v2", "res_net50v2"),
                "CNNBlock3D": ("cnn_block3_d", "cnn_block3d"),
                "HTTPServer": ("http_server", "http_server"), "Gen2Net": ("gen2_net", "gen2_net")}
    for name, (module, layer) in expected.items():
        assert type(name, (tf.Module,), {})().name == module
        assert type(name, (tf.keras.layers.Layer,), {})().name.startswith(layer)

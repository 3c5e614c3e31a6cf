import collections

import pytest

import eagerflow as tf

Point = collections.namedtuple("Point", "x y")


def test_flatten_orders_dict_keys_and_keeps_none_as_leaf():
    assert tf.nest.flatten({"b": [1, 2], "a": 3}) == [3, 1, 2]
    assert tf.nest.flatten(None) == [None]
    assert tf.nest.flatten([1, (2, Point(3, 4))]) == [1, 2, 3, 4]
    assert tf.nest.flatten(5) == [5]


def test_pack_keeps_container_types_and_key_order():
    packed = tf.nest.pack_sequence_as({"b": [0, 0], "a": 0}, [3, 1, 2])
    assert packed == {"b": [1, 2], "a": 3} and list(packed) == ["b", "a"]
    assert tf.nest.pack_sequence_as(Point(0, (0,)), [1, 2]) == Point(1, (2,))
    assert tf.nest.pack_sequence_as([0, 0], (7, 8)) == [7, 8]
    with pytest.raises(ValueError, match=r"^Could not pack sequence. Structure had 2 atoms, but "
                                         r"flat_sequence had 1 items.  Structure: \[0, 0\], "
                                         r"flat_sequence: \[1\].$"):
        tf.nest.pack_sequence_as([0, 0], [1])
    with pytest.raises(ValueError, match="However the input is a sequence"):
        tf.nest.pack_sequence_as(0, [1, 2])
    with pytest.raises(TypeError, match="found incompatible type `<class 'int'>`"):
        tf.nest.pack_sequence_as([0], 5)


def test_map_structure_and_assert_same_structure():
    assert tf.nest.map_structure(lambda a, b: a + b, [1, (2,)], [10, (20,)]) == [11, (22,)]
    with pytest.raises(ValueError):
        tf.nest.assert_same_structure([1, 2], [1])
    with pytest.raises(TypeError):
        tf.nest.assert_same_structure([1], (1,))
    tf.nest.assert_same_structure([1], (1,), check_types=False)


def test_map_structure_check_types_and_unknown_keywords():
    assert tf.nest.map_structure(lambda a, b: a + b, [1, 2], (3, 4), check_types=False) == [4, 6]
    with pytest.raises(TypeError):
        tf.nest.map_structure(lambda a, b: a + b, [1, 2], (3, 4))
    with pytest.raises(ValueError, match="Only valid keyword arguments are `check_types` and "
                                         "`expand_composites`, not: `bad`"):
        tf.nest.map_structure(lambda a: a, [1], bad=1)


def test_assert_same_structure_message_shows_where_and_the_shapes():
    with pytest.raises(ValueError) as info:
        tf.nest.assert_same_structure([1, (1, 2)], [1, (1, 2, 3)])
    assert str(info.value) == (
        "The two structures don't have the same nested structure.\n\n"
        "First structure: type=list str=[1, (1, 2)]\n\n"
        "Second structure: type=list str=[1, (1, 2, 3)]\n\n"
        "More specifically: The two structures don't have the same number of elements. First "
        "structure: type=tuple str=(1, 2). Second structure: type=tuple str=(1, 2, 3)\n"
        "Entire first structure:\n[., (., .)]\nEntire second structure:\n[., (., ., .)]")
    with pytest.raises(ValueError, match=r'"type=tuple str=\(2,\)" is a sequence, while '
                                         r'substructure "type=str str=s" is not'):
        tf.nest.assert_same_structure([None, "s"], [1, (2,)])
    with pytest.raises(ValueError, match=r"keys type=list str=\['a', 'b'\], while second "
                                         r"structure has keys type=list str=\['a', 'c'\]"):
        tf.nest.assert_same_structure({"a": 1, "b": 2}, {"a": 1, "c": 2})
    with pytest.raises(TypeError, match="has type Point, while second structure type=tuple"):
        tf.nest.assert_same_structure(Point(1, 2), (1, 2))
    assert tf.nest.is_nested([]) and not tf.nest.is_nested(tf.constant(1))


def test_list_subclasses_have_the_structure_of_lists():
    class Items(list):
        pass
    tf.nest.assert_same_structure(Items([1]), [2])
    with pytest.raises(TypeError, match="don't have the same sequence type"):
        tf.nest.assert_same_structure((1,), [2])


def test_a_dicts_views_nest_as_lists_of_their_elements():
    d = {"b": 1, "a": [2, 3]}
    assert tf.nest.is_nested(d.values())
    assert tf.nest.flatten(d.values()) == [1, 2, 3]
    assert tf.nest.flatten(d.keys()) == ["b", "a"]
    assert tf.nest.flatten(d.items()) == ["b", 1, "a", 2, 3]
    assert tf.nest.map_structure(lambda x: x * 2, d.values()) == [2, [4, 6]]
    assert tf.nest.pack_sequence_as(d.values(), [7, 8, 9]) == [7, [8, 9]]
    with pytest.raises(TypeError, match="don't have the same nested structure"):
        tf.nest.assert_same_structure(d.values(), [1, [2, 3]])


@pytest.mark.parametrize("call", [
    lambda d: tf.nest.flatten(d),
    lambda d: tf.nest.flatten({"outer": [d]}),
    lambda d: tf.nest.map_structure(lambda x: x, d),
    lambda d: tf.nest.map_structure(lambda x, y: x, d, d),
    lambda d: tf.nest.assert_same_structure(d, d),
    lambda d: tf.nest.flatten(collections.OrderedDict(d)),  # (sorted too, as in TF)
])
def test_dict_keys_that_do_not_sort_raise_pythons_type_error(call):
    with pytest.raises(TypeError, match=r"^'<' not supported between instances of 'str' and "
                                        r"'int'$"):
        call({1: "a", "b": 2})


def test_packing_into_a_dict_whose_keys_do_not_sort_raises_tensorflows_type_error():
    with pytest.raises(TypeError, match=r"^nest only supports dicts with sortable keys\.$"):
        tf.nest.pack_sequence_as({1: 0, "b": 0}, [1, 2])
    assert tf.nest.flatten({1.5: "x", 1: "y"}) == ["y", "x"]  # (numbers of mixed types sort)


def test_a_composite_against_a_container_is_a_type_error_naming_both_types():
    class Masked(tf.experimental.ExtensionType):
        values: tf.Tensor
        mask: tf.Tensor

    m = Masked([1, 2], [True, False])
    for a, b in [(m, [1, 2]), ((1, 2), m), (tf.ragged.constant([[1]]), {"a": 1})]:
        with pytest.raises(TypeError, match="don't have the same sequence type"):
            tf.nest.assert_same_structure(a, b, expand_composites=True)
    with pytest.raises(ValueError, match="is a sequence, while"):
        tf.nest.assert_same_structure(m, tf.constant(1), expand_composites=True)

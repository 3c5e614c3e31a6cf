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
    with pytest.raises(ValueError, match="2 leaves"):
        tf.nest.pack_sequence_as([0, 0], [1])


def test_map_structure_and_assert_same_structure():
    assert tf.nest.map_structure(lambda a, b: a + b, [1, (2,)], [10, (20,)]) == [11, (22,)]
    with pytest.raises(ValueError):
        tf.nest.assert_same_structure([1, 2], [1])
    with pytest.raises(TypeError):
        tf.nest.assert_same_structure([1], (1,))
    tf.nest.assert_same_structure([1], (1,), check_types=False)
    assert tf.nest.is_nested([]) and not tf.nest.is_nested(tf.constant(1))

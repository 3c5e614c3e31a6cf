import collections

import tensorflow as tf

Point = collections.namedtuple("Point", ["x", "y"])

structure = {"b": [1, 2], "a": (3, Point(4, 5)), "c": None}
print(tf.nest.flatten(structure))
print(tf.nest.is_nested(structure), tf.nest.is_nested(3), tf.nest.is_nested("abc"))
doubled = tf.nest.map_structure(lambda v: v * 2, {"b": [1, 2], "a": (3, Point(4, 5))})
print(doubled)
print(tf.nest.pack_sequence_as(structure, list(range(10, 16))))
print(tf.nest.map_structure(lambda a, b: a + b, [1, (2, 3)], [10, (20, 30)]))
print(tf.nest.flatten(Point(x=tf.constant(1.0), y=tf.constant([2, 3]))))

tensors = {"w": tf.ones([2, 2]), "b": tf.zeros([2])}
print(tf.nest.map_structure(lambda t: t.shape, tensors))
print(tf.nest.map_structure(tf.reduce_sum, tensors))
print(tf.nest.flatten(tensors))

for a, b in [([1, 2], [3]), ([1, 2], (3, 4)), ({"a": 1}, {"b": 1}), (1, [1])]:
    try:
        tf.nest.assert_same_structure(a, b)
        print("same", a, b)
    except (ValueError, TypeError) as e:
        print(type(e).__name__, e)
tf.nest.assert_same_structure([1, (2, 3)], ["a", ("b", "c")])
print("ok")
tf.nest.assert_same_structure([1, 2], (3, 4), check_types=False)
print("ok without types")
for bad in (lambda: tf.nest.pack_sequence_as([1, [2]], [1, 2, 3]),
            lambda: tf.nest.map_structure(lambda a, b: a, [1, 2], [1, 2, 3]),
            lambda: tf.nest.map_structure(lambda a: a, [1], strict=True),
            lambda: tf.nest.map_structure(lambda a: a)):
    try:
        bad()
    except ValueError as e:
        print("ValueError:", e)
print(tf.nest.map_structure(lambda a, b: a + b, [1, 2], (3, 4), check_types=False))
print(tf.nest.flatten([[], {}, ()]))
print(tf.nest.map_structure(lambda v: v + 1, Point(1, [2, 3])))
od = collections.OrderedDict([("z", 1), ("a", 2)])
print(tf.nest.flatten(od))
print(tf.nest.flatten({"z": 1, "a": 2}))
print(tf.nest.pack_sequence_as(od, [7, 8]))
print(tf.nest.flatten(tf.constant([1, 2])))
print(tf.nest.flatten("text"), tf.nest.flatten(None))
print(tf.nest.map_structure(lambda v: v, (1,)))


@tf.function
def apply(params, x):
    return tf.nest.map_structure(lambda p: p * x, params)


out = apply({"k": tf.constant([1.0, 2.0]), "q": (tf.constant(3.0),)}, tf.constant(2.0))
print(out)
spec = tf.nest.map_structure(tf.TensorSpec.from_tensor, out)
print(spec)
specs = tf.nest.map_structure(lambda t: tf.TensorSpec(t.shape, t.dtype), tensors)
print(specs)
print(tf.nest.flatten(specs))

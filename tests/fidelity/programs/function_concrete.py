import tensorflow as tf


@tf.function
def double(a):
    print("Tracing with", a)
    return a + a


print(double(tf.constant(1)))
print(double(tf.constant("a")))
cf = double.get_concrete_function(tf.constant("a"))
print(cf)
print(cf(tf.constant("b")))
print(double.get_concrete_function(tf.TensorSpec(shape=[None], dtype=tf.float32)))
print(double.pretty_printed_concrete_signatures())
print(cf.structured_input_signature)
print(cf.structured_outputs)
print(cf.inputs, cf.outputs)
print(type(cf).__name__)
try:
    cf(tf.constant(1))
except tf.errors.InvalidArgumentError as e:
    print("InvalidArgumentError:", str(e).split(" as input")[1].split(" [Op:")[0])


@tf.function
def affine(x, y=1, *, scale=2.0):
    return {"out": x * scale + tf.cast(y, tf.float32), "pair": (x, y)}


c2 = affine.get_concrete_function(tf.TensorSpec([2, None], tf.float32, name="inp"), y=3)
print(c2)
print(c2.structured_input_signature)
print(c2(tf.ones((2, 3)), 3, scale=2.0))
print(c2(tf.ones((2, 1))))  # the flat signature: the tensors alone
for args, kwargs in (((tf.ones((2, 1)), 4), {"scale": 2.0}), ((tf.ones((2, 1)), 3), {}),
                     ((), {})):
    try:
        c2(*args, **kwargs)
    except TypeError as e:
        print("TypeError:", e)

c3 = double.get_concrete_function(tf.TensorSpec([2], tf.float32))
print(c3([1.0, 2.0]))
print(c3(tf.constant([1.0, 2.0, 3.0])))
try:
    c3(3.0)
except TypeError as e:
    print("TypeError:", e)


@tf.function
def total(d):
    return d["a"] - d["b"]


c4 = total.get_concrete_function({"a": tf.TensorSpec([]), "b": tf.TensorSpec([])})
print(c4)
print(c4({"b": 2.0, "a": 5.0}))
for bad in ({"a": tf.constant(1.0)}, [1.0, 2.0]):
    try:
        c4(bad)
    except TypeError as e:
        print("TypeError:", e)

c5 = tf.function(lambda *args: args[0] * 2).get_concrete_function(
    tf.TensorSpec([]), tf.TensorSpec([]))
print(c5)
print([t.name for t in c5.inputs])

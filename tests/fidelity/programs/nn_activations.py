import tensorflow as tf

x = tf.constant([-3.0, -1.0, -0.5, 0.0, 0.5, 1.0, 3.0, 8.0])
print(tf.nn.relu(x))
print(tf.nn.relu6(x))
print(tf.nn.leaky_relu(x))
print(tf.nn.leaky_relu(x, alpha=0.5))
print(tf.nn.relu(tf.constant([-1, 2, -3])))
print(tf.nn.relu(tf.constant([-1, 2], dtype=tf.int8)))
print(tf.nn.elu(tf.constant([0.0, 1.0, 2.0])))
print(tf.nn.selu(tf.constant([0.0])))
print(tf.nn.softsign(tf.constant([-1.0, 0.0, 1.0, 3.0])))
print(tf.nn.sigmoid(tf.constant([0.0])), tf.sigmoid(tf.constant(0.0, tf.float64)))
print(tf.nn.tanh(tf.constant([0.0])), tf.math.tanh(tf.constant(0.0)))
print(tf.nn.softplus(tf.constant([0.0])).shape)
print(tf.nn.gelu(tf.constant([0.0])), tf.nn.gelu(tf.constant([0.0]), approximate=True))
print(tf.nn.silu(tf.constant([0.0])), tf.nn.swish(tf.constant([0.0])))
print(tf.nn.relu(tf.constant([float("nan"), -float("inf"), float("inf")])))
print(tf.nn.relu(tf.zeros([2, 0])))
print(tf.nn.bias_add(tf.ones([2, 3]), tf.constant([1.0, 2.0, 3.0])))
print(tf.nn.bias_add(tf.ones([1, 2, 2]), tf.constant([1.0, 2.0]), data_format="NCHW" if False else None))
print(tf.nn.l2_loss(tf.constant([1.0, 2.0, 3.0])))
print(tf.nn.relu(x).dtype, tf.nn.relu6(tf.constant([7], dtype=tf.int32)))

def show(fn):
    try:
        print(fn())
    except Exception as e:
        print(type(e).__name__)

show(lambda: tf.nn.relu(tf.constant([True])))
show(lambda: tf.nn.relu(tf.constant(["a"])))
show(lambda: tf.nn.elu(tf.constant([1])))
show(lambda: tf.nn.bias_add(tf.ones([2, 3]), tf.constant([1.0, 2.0])))
show(lambda: tf.nn.sigmoid(tf.constant([1])))

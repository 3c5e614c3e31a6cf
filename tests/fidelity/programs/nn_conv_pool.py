import tensorflow as tf

img = tf.reshape(tf.range(16.0), [1, 4, 4, 1])
k = tf.ones([2, 2, 1, 1])
print(tf.nn.conv2d(img, k, strides=1, padding="VALID"))
print(tf.nn.conv2d(img, k, strides=[1, 2, 2, 1], padding="SAME"))
print(tf.nn.conv2d(img, k, 1, "SAME").shape)
print(tf.nn.conv2d(tf.ones([2, 5, 5, 3]), tf.ones([3, 3, 3, 4]), 2, "VALID").shape)
print(tf.nn.conv2d(tf.ones([1, 5, 5, 1]), tf.ones([3, 3, 1, 1]), 1, "VALID", dilations=2))
print(tf.nn.max_pool2d(img, 2, 2, "VALID"))
print(tf.nn.avg_pool2d(img, ksize=2, strides=2, padding="VALID"))
print(tf.nn.max_pool2d(img, 3, 1, "SAME").shape)
print(tf.nn.avg_pool2d(img, 3, 2, "SAME"))
print(tf.nn.max_pool(img, [1, 2, 2, 1], [1, 1, 1, 1], "VALID").shape)
seq = tf.reshape(tf.range(8.0), [1, 8, 1])
print(tf.nn.conv1d(seq, tf.ones([3, 1, 2]), stride=1, padding="VALID"))
print(tf.nn.max_pool1d(seq, 2, 2, "VALID"))
print(tf.nn.avg_pool1d(seq, 4, 4, "VALID"))
print(tf.nn.depthwise_conv2d(tf.ones([1, 3, 3, 2]), tf.ones([2, 2, 2, 1]), [1, 1, 1, 1], "VALID"))
print(tf.nn.conv2d_transpose(tf.ones([1, 2, 2, 1]), tf.ones([2, 2, 1, 1]), [1, 4, 4, 1], 2))
print(tf.nn.conv3d(tf.ones([1, 3, 3, 3, 1]), tf.ones([2, 2, 2, 1, 1]), [1, 1, 1, 1, 1], "VALID").shape)
print(tf.nn.conv2d(tf.ones([1, 3, 3, 1], tf.float64), tf.ones([2, 2, 1, 1], tf.float64), 1, "VALID").dtype)

def show(fn):
    try:
        print(fn())
    except Exception as e:
        print(type(e).__name__)

show(lambda: tf.nn.conv2d(img, tf.ones([2, 2, 2, 1]), 1, "VALID"))
show(lambda: tf.nn.conv2d(img, k, 1, "FULL"))
show(lambda: tf.nn.conv2d(tf.ones([4, 4, 1]), k, 1, "VALID"))
show(lambda: tf.nn.max_pool2d(img, 5, 1, "VALID"))
show(lambda: tf.nn.conv2d(tf.ones([1, 3, 3, 1], tf.int32), tf.ones([2, 2, 1, 1], tf.int32), 1, "VALID"))

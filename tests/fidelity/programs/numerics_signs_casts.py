import tensorflow as tf
import numpy as np

np.set_printoptions(precision=4, suppress=True)

# singular vectors' and eigenvectors' signs (TF's CPU kernels: Eigen's solvers)
r = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 7.0], [1.0, 0.0]])
s, u, v = tf.linalg.svd(r)
print(s.numpy(), u.numpy(), v.numpy(), sep="\n")
s, u, v = tf.linalg.svd(tf.transpose(r), full_matrices=True)
print(u.numpy(), v.numpy()[:, :2], sep="\n")
a = tf.constant([[4.0, 1.0, 2.0], [1.0, 3.0, 0.0], [2.0, 0.0, 5.0]], tf.float64)
e, w = tf.linalg.eigh(a)
print(e.numpy(), w.numpy(), sep="\n")
x = np.random.RandomState(3).randn(5, 4)
s, u, v = tf.linalg.svd(tf.constant(x))
print(np.round(u.numpy()[0], 4), np.round(v.numpy()[0], 4))
cov = tf.constant(np.cov(x, rowvar=False))
e, w = tf.linalg.eigh(cov)
print(np.round(w.numpy()[0], 4))

# float to narrow integer casts out of range: vector steps saturate, the tail wraps
print(tf.cast(tf.fill([34], 300.0), tf.uint8).numpy())
print(tf.cast(tf.constant(np.linspace(-200.0, 200.0, 40)), tf.int8).numpy())
img = tf.reshape(tf.linspace(-0.25, 1.25, 48), [4, 4, 3])
print(tf.image.convert_image_dtype(img, tf.uint8).numpy().ravel())

# top_k unsorted: the order of TF's heap
print(tf.math.top_k([[1.0, 3.0, 3.0, 2.0], [4.0, 4.0, 0.0, 1.0]], 2, sorted=False))
print(tf.math.top_k(tf.constant([5, 1, 4, 2, 3, 9, 0]), 4, sorted=False).indices)

# zero-preserving unary ops on sparse tensors
sp = tf.sparse.SparseTensor([[0, 0], [1, 1]], [-3.0, 4.0], [2, 2])
for fn in (tf.abs, tf.square, tf.math.negative, tf.sign, tf.identity):
    print(tf.sparse.to_dense(fn(sp)).numpy().tolist())

# TF 1's resize_images aligns corners
print(tf.compat.v1.image.resize_images(tf.reshape(tf.range(4.0), [1, 2, 2, 1]), [2, 4])[0, :, :, 0])

# gradients and Jacobian-vector products
v = tf.Variable([1.0, 2.0])
with tf.autodiff.ForwardAccumulator(v, tf.constant([1.0, -1.0])) as acc:
    y = v * v
print(acc.jvp(y), acc.jvp(v))
z = tf.constant([[0.0, 0.0], [3.0, 4.0]])
with tf.GradientTape(persistent=True) as tape:
    tape.watch(z)
    n = tf.math.reduce_euclidean_norm(z, axis=1)
    area = tf.image.resize(z[None, :, :, None], [3, 3], method="area")
print(tape.gradient(n, z))
for target, source in [(n, z), (z[0], z)]:
    try:
        tape.batch_jacobian(target, source)
    except ValueError as err:
        print("ValueError", err)
try:
    tape.gradient(area, z)
except LookupError as err:
    print("LookupError", err)
try:
    tf.subtract([1, 2], [1, 2, 3])
except tf.errors.InvalidArgumentError as err:
    print(repr(str(err)[-50:]))
try:
    tf.pad([1, 2], [[-1, 1]])
except tf.errors.InvalidArgumentError as err:
    print(repr(str(err)[-50:]))

import numpy as np
import tensorflow as tf
import tensorflow.experimental.numpy as tnp

tnp.experimental_enable_numpy_behavior()
inf, nan = np.inf, np.nan
print(tnp.logaddexp(tnp.asarray([1.0, -inf, inf, inf]), tnp.asarray([2.0, -inf, inf, -inf])))
print(tnp.logaddexp2(tnp.asarray([1.0, -inf, 1000.0]), tnp.asarray([2.0, -inf, 1000.0])))
print(tnp.lcm(tnp.asarray([2 ** 20 * 3], dtype=tnp.int32), tnp.asarray([2 ** 20 * 5], dtype=tnp.int32)))
print(tnp.lcm(tnp.asarray([4, -6, 0]), tnp.asarray([6, 4, 5])), tnp.gcd(tnp.asarray([12, -18, 0]), 8))
print(tnp.arange(tf.constant(3)), tnp.arange(tf.constant(1.0), 3), tnp.arange(0, 1, 0.25))
print(tnp.asarray([tf.constant(1.0), 2.0]), tnp.asarray([np.float32(1.5), 2]))
print(tnp.asarray([np.int32(1), 2]), tnp.asarray([np.uint8(1), -1]))
print(tnp.argsort(tnp.asarray([[3, 1], [0, 2]]), axis=None))
print(tnp.polyval(5, tnp.asarray([2, 3])), tnp.kron(tnp.ones((2, 1, 1)), tnp.asarray([[1, 2], [3, 4]])))
print(tnp.diag(tnp.reshape(tnp.arange(9), (3, 3)), k=5), tnp.fix(tnp.asarray([-2.5, 2.5, -0.3])))
print(tnp.round(tnp.asarray([0.5, 1.5, 2.5, -0.5, -1.5])), tnp.around(tnp.asarray([1.25, 1.35]), 1))
print(tnp.floor_divide(tnp.asarray([7, -7, 7, -7]), tnp.asarray([2, 2, -2, -2])))
print(tnp.remainder(tnp.asarray([7, -7, 7, -7]), tnp.asarray([3, 3, -3, -3])))
print(tnp.mod(tnp.asarray([7.5, -7.5]), tnp.asarray([-2.0, 2.0])), tnp.divmod(tnp.asarray([7, -7]), 3))
print(tnp.heaviside(tnp.asarray([-1.5, 0.0, 2.0, nan]), 0.5), tnp.sinc(tnp.asarray([0.0, 0.5])))
print(tnp.nanmean(tnp.asarray([1.0, nan, 3.0])), tnp.nansum(tnp.asarray([nan, 2.0])))
print(tnp.std(tnp.asarray([1.0, 2.0, 4.0])), tnp.var(tnp.asarray([1, 2, 4])))
print(tnp.linspace(0, 1, 5, retstep=True), tnp.linspace(0, 1, 4, endpoint=False))
print(tf.math.bincount(tf.zeros((2, 0), tf.int32), axis=-1))


@tf.function(input_signature=[tf.TensorSpec(None, tf.float32), tf.TensorSpec([None], tf.float32)])
def graph(bound, v):
    return tnp.linspace(bound, 2.0, 5), tnp.vander(v), tnp.kron(v, v)


print(graph(tf.constant(1.0), tf.constant([1.0, 3.0, 2.0])))

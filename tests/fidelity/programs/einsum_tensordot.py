import tensorflow as tf

a = tf.reshape(tf.range(6.0), [2, 3])
b = tf.reshape(tf.range(12.0), [3, 4])
print(tf.einsum("ij,jk->ik", a, b))
print(tf.einsum("ij->ji", a))
print(tf.einsum("ij->", a), tf.einsum("ij->i", a))
print(tf.einsum("i,i->", tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0])))
print(tf.einsum("i,j->ij", tf.constant([1, 2]), tf.constant([3, 4, 5])))
print(tf.einsum("bij,bjk->bik", tf.ones([2, 2, 3]), tf.ones([2, 3, 1])).shape)
print(tf.einsum("...ij,...jk->...ik", tf.ones([5, 2, 3]), tf.ones([3, 2])).shape)
print(tf.einsum("ii->i", tf.eye(3)))
print(tf.tensordot(a, b, 1).shape, tf.tensordot(a, tf.transpose(a), [[0, 1], [1, 0]]))
print(tf.tensordot(tf.ones([2, 3, 4]), tf.ones([4, 3, 5]), axes=[[1, 2], [1, 0]]).shape)
print(tf.linalg.matmul(a, b, a_is_sparse=False).shape)
print(tf.linalg.matvec(b, tf.ones([4]), transpose_a=False))
print(tf.linalg.tensor_diag([1, 2]))
print(tf.linalg.tensor_diag_part(tf.eye(2) * 3))
print(tf.linalg.diag([[1, 2], [3, 4]]).shape)
print(tf.linalg.diag_part(tf.reshape(tf.range(9), [3, 3])))
print(tf.linalg.band_part(tf.ones([3, 3], tf.int32), 1, 0))

def show(fn):
    try:
        print(fn())
    except Exception as e:
        print(type(e).__name__)

show(lambda: tf.einsum("ij,jk->ik", a, a))
show(lambda: tf.einsum("ij->k", a))
show(lambda: tf.tensordot(a, b, 2))
show(lambda: tf.einsum("ij,jk", a, tf.cast(b, tf.int32)))

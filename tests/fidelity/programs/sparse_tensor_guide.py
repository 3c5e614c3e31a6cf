# The examples of TF's "Working with sparse tensors" guide.
import numpy as np
import tensorflow as tf

st1 = tf.sparse.SparseTensor(indices=[[0, 3], [2, 4]], values=[10, 20], dense_shape=[3, 10])
print(st1)


def pprint_sparse_tensor(st):
    s = "<SparseTensor shape=%s \n values={" % (st.dense_shape.numpy().tolist(),)
    for (index, value) in zip(st.indices, st.values):
        s += f"\n  %s: %s" % (index.numpy().tolist(), value.numpy().tolist())
    return s + "}>"


print(pprint_sparse_tensor(st1))

st2 = tf.sparse.from_dense([[1, 0, 0, 8], [0, 0, 0, 0], [0, 0, 3, 0]])
print(pprint_sparse_tensor(st2))
st3 = tf.sparse.to_dense(st2)
print(st3)

# Manipulating sparse tensors
st_a = tf.sparse.SparseTensor(indices=[[0, 2], [3, 4]], values=[31, 2], dense_shape=[4, 10])
st_b = tf.sparse.SparseTensor(indices=[[0, 2], [3, 0]], values=[56, 38], dense_shape=[4, 10])
st_sum = tf.sparse.add(st_a, st_b)
print(pprint_sparse_tensor(st_sum))

st_c = tf.sparse.SparseTensor(indices=([0, 1], [1, 0], [1, 1]), values=[13, 15, 17],
                              dense_shape=(2, 2))
mb = tf.constant([[4], [6]])
product = tf.sparse.sparse_dense_matmul(st_c, mb)
print(product)

sparse_pattern_A = tf.sparse.SparseTensor(indices=[[2, 4], [3, 3], [3, 4], [4, 3], [4, 4], [5, 4]],
                                          values=[1, 1, 1, 1, 1, 1], dense_shape=[8, 5])
sparse_pattern_B = tf.sparse.SparseTensor(indices=[[0, 2], [1, 1], [1, 3], [2, 0], [2, 4], [2, 5],
                                                   [3, 5], [4, 5], [5, 0], [5, 4], [5, 5], [6, 1],
                                                   [6, 3], [7, 2]],
                                          values=[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
                                          dense_shape=[8, 6])
sparse_pattern_C = tf.sparse.SparseTensor(indices=[[3, 0], [4, 0]], values=[1, 1],
                                          dense_shape=[8, 6])
sparse_patterns_list = [sparse_pattern_A, sparse_pattern_B, sparse_pattern_C]
sparse_pattern = tf.sparse.concat(axis=1, sp_inputs=sparse_patterns_list)
print(tf.sparse.to_dense(sparse_pattern))

sparse_slice_A = tf.sparse.slice(sparse_pattern_A, start=[0, 0], size=[8, 5])
sparse_slice_B = tf.sparse.slice(sparse_pattern_B, start=[0, 5], size=[8, 6])
sparse_slice_C = tf.sparse.slice(sparse_pattern_C, start=[0, 10], size=[8, 6])
print(tf.sparse.to_dense(sparse_slice_A))
print(tf.sparse.to_dense(sparse_slice_B))
print(tf.sparse.to_dense(sparse_slice_C))

st2_plus_5 = tf.sparse.map_values(tf.add, st2, 5)
print(tf.sparse.to_dense(st2_plus_5))
st2_plus_5 = tf.sparse.SparseTensor(st2.indices, st2.values + 5, st2.dense_shape)
print(tf.sparse.to_dense(st2_plus_5))

# tf.keras
x = tf.keras.Input(shape=(4,), sparse=True)
y = tf.keras.layers.Dense(4)(x)
model = tf.keras.Model(x, y)
sparse_data = tf.sparse.SparseTensor(indices=[(0, 0), (0, 1), (0, 2), (4, 3), (5, 0), (5, 1)],
                                     values=[1, 1, 1, 1, 1, 1], dense_shape=(6, 4))
print(model(sparse_data).shape)
print(model.predict(sparse_data, verbose=0).shape)

# tf.data
dataset = tf.data.Dataset.from_tensor_slices(sparse_data)
for element in dataset:
    print(pprint_sparse_tensor(element))
batched_dataset = dataset.batch(2)
for element in batched_dataset:
    print(pprint_sparse_tensor(element))
unbatched_dataset = batched_dataset.unbatch()
for element in unbatched_dataset:
    print(pprint_sparse_tensor(element))


# tf.function
@tf.function
def f(x, y):
    return tf.sparse.sparse_dense_matmul(x, y)


a = tf.sparse.SparseTensor(indices=[[0, 3], [2, 4]], values=[15, 25], dense_shape=[3, 10])
b = tf.sparse.to_dense(tf.sparse.transpose(a))
c = f(a, b)
print(c)

# Distinguishing missing values from zero values
sparse_tensor = tf.sparse.SparseTensor(indices=[[0, 0], [2, 3], [4, 2]], values=[3, 0, 8],
                                       dense_shape=[5, 4])
print(tf.sparse.to_dense(sparse_tensor))
print(tf.sparse.reduce_max(sparse_tensor))
st_d = tf.sparse.SparseTensor(indices=[[0, 0], [2, 1], [2, 2]], values=[-5.0, -1.0, 0.0],
                              dense_shape=[3, 3])
print(tf.sparse.reduce_max(st_d, axis=1))
print(tf.math.reduce_max(tf.sparse.to_dense(st_d), axis=1))

# Softmax over the values present only
st_e = tf.sparse.SparseTensor(indices=[[0, 0], [0, 2], [1, 1]], values=[1.0, 2.0, 3.0],
                              dense_shape=[2, 3])
print(np.round(tf.sparse.to_dense(tf.sparse.softmax(st_e)).numpy(), 4))
print(np.round(tf.nn.softmax(tf.sparse.to_dense(st_e)).numpy(), 4))

# Other tf.sparse ops
print(tf.sparse.reorder(tf.sparse.SparseTensor([[1, 0], [0, 1]], [1, 2], [2, 2])))
print(tf.sparse.reshape(st1, [6, 5]).indices)
print(tf.sparse.reduce_sum(st1, axis=0))
print(tf.sparse.to_dense(tf.sparse.expand_dims(st2, 0)).shape)
filled, empty = tf.sparse.fill_empty_rows(st2, -1)
print(tf.sparse.to_dense(filled, default_value=0), empty)
print(tf.sparse.to_dense(tf.sparse.retain(st2, [True, False, True])))
print(tf.sparse.bincount(tf.constant([[1, 1, 2], [3, 3, 3]]), axis=-1))
print(tf.sparse.cross([tf.constant([["a"], ["b"]]), tf.constant([["c"], ["d"]])]).values)
print(tf.sparse.to_indicator(tf.sparse.SparseTensor([[0, 0], [1, 0]], tf.constant([2, 1], tf.int64),
                                                    [2, 1]), 3))

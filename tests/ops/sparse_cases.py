"""Cases of tf.sparse, run by TF (data/make_sparse_data.py records the outcomes into
data/sparse_tf.json) and by eagerflow (test_sparse_ops.py compares)."""
from tests.keras.layers.preprocessing_cases import jsonable  # noqa: F401 (shared by both)


def cases(tf):
    """name -> zero-argument function of `tf` (TF or eagerflow) giving a JSON value."""
    out = {}

    def case(fn):
        out[fn.__name__] = fn
        return fn

    def st(indices, values, shape, dtype=None):
        return tf.sparse.SparseTensor(indices, tf.constant(values, dtype), shape)

    a = lambda: st([[0, 1], [1, 0], [2, 3]], [1.0, 2.0, 3.0], [3, 4])  # noqa: E731
    b = lambda: st([[0, 1], [1, 2], [2, 3]], [10.0, 20.0, -3.0], [3, 4])  # noqa: E731

    @case
    def reorder():
        return tf.sparse.reorder(st([[2, 0], [0, 3], [1, 1], [0, 1]], [1, 2, 3, 4], [3, 4]))

    @case
    def reshape():
        x = a()
        return [tf.sparse.reshape(x, [4, 3]), tf.sparse.reshape(x, [-1, 2]),
                tf.sparse.reshape(x, [12])]

    @case
    def expand_dims():
        return [tf.sparse.expand_dims(a(), 0), tf.sparse.expand_dims(a(), -1),
                tf.sparse.expand_dims(a(), 1)]

    @case
    def to_indicator():
        return tf.sparse.to_indicator(st([[0, 0], [0, 1], [2, 0], [2, 1]], [0, 3, 1, 2],
                                         [3, 2], tf.int64), 5)

    @case
    def add():
        return [tf.sparse.add(a(), b()), tf.sparse.add(a(), b(), threshold=5.0),
                tf.sparse.add(a(), tf.ones([3, 4])),
                tf.sparse.add(tf.zeros([3, 4]), b())]

    @case
    def concat():
        x = st([[0, 0], [1, 1]], [1, 2], [2, 2])
        y = st([[0, 2], [1, 0]], [3, 4], [2, 3])
        z = st([[0, 0]], [5], [1, 5])
        return [tf.sparse.concat(1, [x, y]), tf.sparse.concat(0, [x, z],
                                                               expand_nonconcat_dims=True),
                tf.sparse.concat(-1, [x, y, x])]

    @case
    def slice():
        x = st([[0, 1], [1, 0], [2, 3], [3, 2]], [1, 2, 3, 4], [4, 4])
        return [tf.sparse.slice(x, [1, 0], [2, 4]), tf.sparse.slice(x, [2, 2], [5, 5]),
                tf.sparse.slice(x, [0, 0], [1, 1])]

    @case
    def retain():
        return tf.sparse.retain(a(), tf.constant([True, False, True]))

    @case
    def reduce_sum():
        x = st([[0, 1, 0], [1, 0, 1], [1, 2, 1], [2, 3, 0]], [1.0, 2.0, 3.0, 4.0], [3, 4, 2])
        return [tf.sparse.reduce_sum(x), tf.sparse.reduce_sum(x, axis=1),
                tf.sparse.reduce_sum(x, axis=[0, 2], keepdims=True),
                tf.sparse.reduce_sum(x, axis=1, output_is_sparse=True),
                tf.sparse.reduce_sum(x, axis=-1, keepdims=True, output_is_sparse=True)]

    @case
    def reduce_max():
        x = st([[0, 1], [0, 3], [2, 0]], [-1.0, -5.0, 4.0], [3, 4])
        return [tf.sparse.reduce_max(x), tf.sparse.reduce_max(x, axis=1),
                tf.sparse.reduce_max(x, axis=0, output_is_sparse=True),
                tf.sparse.reduce_max(st([[0, 1], [2, 0]], [-1, -5], [3, 2]), axis=1)]

    @case
    def sparse_dense_matmul():
        x = a()
        m = tf.reshape(tf.range(8, dtype=tf.float32), [4, 2])
        n = tf.reshape(tf.range(6, dtype=tf.float32), [3, 2])
        return [tf.sparse.sparse_dense_matmul(x, m),
                tf.sparse.sparse_dense_matmul(x, n, adjoint_a=True),
                tf.sparse.sparse_dense_matmul(x, tf.transpose(m), adjoint_b=True),
                tf.sparse.sparse_dense_matmul(tf.transpose(n), x)]

    @case
    def segments():
        data = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
        idx = tf.constant([0, 2, 1, 2])
        seg = tf.constant([0, 0, 2, 2])
        return [tf.sparse.segment_sum(data, idx, seg), tf.sparse.segment_mean(data, idx, seg),
                tf.sparse.segment_sqrt_n(data, idx, seg),
                tf.sparse.segment_sum(data, idx, seg, num_segments=4),
                tf.sparse.segment_mean(data, idx, seg, num_segments=4)]

    @case
    def fill_empty_rows():
        x = st([[0, 1], [2, 0], [2, 3]], [1, 2, 3], [5, 4])
        filled, empty = tf.sparse.fill_empty_rows(x, -1)
        return [filled, empty]

    @case
    def bincount():
        x = st([[0, 0], [0, 1], [1, 0], [1, 1], [2, 2]], [1, 3, 3, 3, 0], [3, 4], tf.int64)
        dense = tf.constant([[1, 1, 2], [0, 5, 5]])
        return [tf.sparse.bincount(x), tf.sparse.bincount(x, axis=-1),
                tf.sparse.bincount(dense, axis=-1, binary_output=True),
                tf.sparse.bincount(dense, minlength=7),
                tf.sparse.bincount(dense, weights=tf.constant([[0.5, 1.0, 2.0], [1.0, 1.0, 3.0]]),
                                   maxlength=3)]

    @case
    def minimum_maximum():
        return [tf.sparse.maximum(a(), b()), tf.sparse.minimum(a(), b())]

    @case
    def softmax():
        x = st([[0, 0], [0, 2], [1, 1], [2, 0], [2, 1], [2, 3]],
               [1.0, 2.0, 5.0, -1.0, 0.0, 3.0], [3, 4])
        return tf.sparse.softmax(x)

    @case
    def transpose():
        x = st([[0, 1, 2], [1, 0, 0], [1, 2, 1]], [1, 2, 3], [2, 3, 4])
        return [tf.sparse.transpose(x), tf.sparse.transpose(x, [1, 0, 2])]

    @case
    def mask():
        slices = tf.IndexedSlices(tf.constant([[1.0], [2.0], [3.0]]), tf.constant([2, 5, 7]),
                                  tf.constant([10, 1]))
        masked = tf.sparse.mask(slices, [5, 9])
        return [masked.values, masked.indices]

    @case
    def cross():
        x = st([[0, 0], [0, 1], [1, 0]], ["x", "y", "z"], [2, 2])
        d = tf.constant([["p", "q"], ["r", "s"]])
        n = tf.constant([[1], [2]], tf.int64)
        return [tf.sparse.cross([x, d]), tf.sparse.cross([n, x], separator="+"),
                tf.sparse.cross_hashed([x, d, n], 100),
                tf.sparse.cross_hashed([d, n], 0, hash_key=7)]

    @case
    def gradients():
        x = a()
        m = tf.reshape(tf.range(8, dtype=tf.float32), [4, 2])
        dense = tf.ones([3, 4])
        with tf.GradientTape(persistent=True) as tape:
            tape.watch([x.values, m, dense])
            product = tf.reduce_sum(tf.sparse.sparse_dense_matmul(x, m) ** 2)
            summed = tf.reduce_sum(tf.sparse.reduce_sum(x, axis=1) ** 2)
            added = tf.reduce_sum(tf.sparse.add(x, dense) ** 2)
            both = tf.sparse.add(x, b())
            pairs = tf.reduce_sum(both.values ** 2)
            densified = tf.reduce_sum(tf.sparse.to_dense(x) * 3.0)
            soft = tf.reduce_sum(tf.sparse.softmax(x).values * tf.constant([1.0, 2.0, 3.0]))
        return [tape.gradient(product, [x.values, m]), tape.gradient(summed, x.values),
                tape.gradient(added, [x.values, dense]), tape.gradient(pairs, x.values),
                tape.gradient(densified, x.values), tape.gradient(soft, x.values)]

    @case
    def operators():
        x = a()
        dense = tf.reshape(tf.range(1.0, 13.0), [3, 4])
        row = tf.constant([1.0, 2.0, 4.0, 8.0])
        with tf.GradientTape() as tape:
            tape.watch([x.values, dense])
            product = x * dense
            loss = tf.reduce_sum(product.values ** 2)
        return [product, x * 3.0, x / row, x / tf.constant([[2.0], [4.0], [8.0]]),
                tape.gradient(loss, [x.values, dense])]

    @case
    def eye_split_reset_shape():
        x = st([[0, 1], [1, 0], [2, 3], [4, 2]], [1, 2, 3, 4], [5, 4])
        return [tf.sparse.eye(3), tf.sparse.eye(2, 4, dtype=tf.int32),
                tf.sparse.split(sp_input=x, num_split=2, axis=0),
                tf.sparse.split(sp_input=x, num_split=3, axis=1),
                tf.sparse.reset_shape(x), tf.sparse.reset_shape(x, [6, 5])]

    @case
    def in_function():
        @tf.function
        def f(x, y):
            return tf.sparse.sparse_dense_matmul(x, y), tf.sparse.reduce_sum(x, axis=0)

        m = tf.ones([4, 2])
        return list(f(a(), m))

    @case
    def sets_dense():
        x = tf.constant([[1, 2, 3], [4, 5, 6]])
        y = tf.constant([[3, 2, 9], [7, 4, 4]])
        return [tf.sets.intersection(x, y), tf.sets.union(x, y), tf.sets.difference(x, y),
                tf.sets.difference(x, y, aminusb=False),
                tf.sets.intersection(tf.constant([[[1, 2], [3, 4]]]),
                                     tf.constant([[[1, 5], [4, 3]]])),
                tf.sets.union(tf.zeros([2, 0], tf.int64), tf.zeros([2, 0], tf.int64)),
                tf.sets.union(tf.constant([["a", "b"]]), tf.constant([["c", "a"]]))]

    @case
    def sets_sparse():
        x = tf.constant([[1, 2, 3], [4, 5, 6]])
        y = tf.sparse.from_dense(tf.constant([[3, 2, 9], [7, 0, 4]]))
        return [tf.sets.intersection(x, y), tf.sets.intersection(y, x), tf.sets.union(y, y),
                tf.sets.difference(y, x), tf.sets.difference(x, y),
                tf.sets.difference(x, y, aminusb=False), tf.sets.union(y, x)]

    @case
    def sets_size():
        return [tf.sets.size(tf.sparse.from_dense(tf.constant([[1, 1, 2], [3, 3, 3]]))),
                tf.sets.size(tf.sparse.from_dense(tf.constant([[[1, 1, 2], [3, 0, 3]]],
                                                              tf.int16))),
                tf.compat.v1.sets.set_size(st([[0, 0], [2, 1]], [5, 5], [4, 3], tf.int64))]

    @case
    def sets_in_function():
        @tf.function
        def f(x, y):
            return tf.sets.intersection(x, y), tf.sets.size(tf.sets.union(x, y))

        return list(f(tf.constant([[1, 2, 3], [4, 5, 6]]), tf.constant([[3, 2, 9], [7, 4, 4]])))

    return out

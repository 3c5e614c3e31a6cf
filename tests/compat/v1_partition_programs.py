"""TF 1 partitioned variables (`get_variable` with a partitioner, the partitioners,
`create_partitioned_variables`) run by both TF (to record their results,
`data/make_v1_partition_data.py`) and eagerflow (`test_v1_partitioned.py`)."""
import numpy as np

SHAPES = [([10, 4], "float32"), ([3, 7], "float64"), ([2, 2], "string"), ([9], "int64"),
          ([1000, 3], "float32")]


def _error(e):
    return [type(e).__name__, str(e).splitlines()[0]]


def _call(f):
    try:
        return f()
    except Exception as e:  # noqa: BLE001 (recording whichever TF raises)
        return _error(e)


def partitioners(tf):
    """The shards per axis each partitioner gives for `SHAPES`, and its argument errors."""
    tf1 = tf.compat.v1
    made = {
        "fixed_3": tf1.fixed_size_partitioner(3),
        "fixed_5_axis1": tf1.fixed_size_partitioner(5, axis=1),
        "min_max_4_64": tf1.min_max_variable_partitioner(4, min_slice_size=64),
        "min_max_4_axis1_10": tf1.min_max_variable_partitioner(4, axis=1, min_slice_size=10),
        "min_max_default": tf1.min_max_variable_partitioner(8),
        "min_max_strings": tf1.min_max_variable_partitioner(8, min_slice_size=20,
                                                            bytes_per_string_element=7),
        "axis_size_100": tf1.variable_axis_size_partitioner(100),
        "axis_size_50_axis1_max3": tf1.variable_axis_size_partitioner(50, axis=1, max_shards=3),
        "axis_size_strings": tf1.variable_axis_size_partitioner(40, bytes_per_string_element=4),
    }
    out = {}
    for name, p in made.items():
        for shape, dtype in SHAPES:
            if len(shape) == 1 and "axis1" in name:
                continue  # (TF: an IndexError of its own code)
            out[f"{name} {shape} {dtype}"] = _call(
                lambda: p(shape=tf.TensorShape(shape), dtype=getattr(tf, dtype)))
    errors = {
        "axis_size_0": lambda: tf1.variable_axis_size_partitioner(0),
        "axis_size_max_shards_0": lambda: tf1.variable_axis_size_partitioner(10, max_shards=0),
        "axis_size_unknown": lambda: tf1.variable_axis_size_partitioner(10)(
            tf.TensorShape([None, 2]), tf.float32),
        "axis_size_list": lambda: tf1.variable_axis_size_partitioner(10)([2, 2], tf.float32),
        "min_max_axis": lambda: tf1.min_max_variable_partitioner(2, axis=2)(
            tf.TensorShape([2, 2]), tf.float32),
    }
    for name, f in errors.items():
        out[name] = _call(lambda: (f(), None)[1])
    return out


def partitioned_graph(tf):
    """Variables made with partitioners in a graph: names, shapes, values, reuse, errors,
    lookups and a training step."""
    tf1 = tf.compat.v1
    out = {}
    g = tf.Graph()
    with g.as_default():
        with tf1.variable_scope("emb", partitioner=tf1.fixed_size_partitioner(3)):
            w = tf1.get_variable(
                "w", initializer=tf.constant(np.arange(14.0).reshape(7, 2), tf.float32))
        out["w"] = [type(w).__name__, w.name, w.dtype.name, w.shape.as_list(),
                    w.get_shape().as_list(), len(w), w._get_partitions(),
                    [(v.name, v.shape.as_list()) for v in w]]
        out["globals"] = [v.name for v in tf1.global_variables()]
        out["trainable"] = [v.name for v in tf1.trainable_variables()]
        u = tf1.get_variable("u", initializer=tf.reshape(tf.range(10.0), [5, 2]),
                             partitioner=tf1.fixed_size_partitioner(2))
        a = tf1.get_variable("a", [3, 5], initializer=tf1.ones_initializer(),
                             partitioner=tf1.fixed_size_partitioner(2, axis=1),
                             dtype=tf.float64)
        n = tf1.get_variable("n", [3, 2], initializer=np.arange(6, dtype=np.float32).reshape(
            3, 2), partitioner=tf1.fixed_size_partitioner(4))
        c = tf1.get_variable("c", [6, 1], initializer=tf1.constant_initializer(2.5),
                             partitioner=tf1.min_max_variable_partitioner(4, min_slice_size=8))
        scalar = tf1.get_variable("scalar", [], partitioner=tf1.fixed_size_partitioner(4),
                                  initializer=tf1.zeros_initializer())
        glorot = tf1.get_variable("glorot", [400, 3],
                                  partitioner=tf1.fixed_size_partitioner(4))
        out["others"] = [[(v.name, v.shape.as_list(), v.dtype.name) for v in p]
                         for p in (u, a, n, c)]
        out["scalar"] = [scalar.name, scalar.shape.as_list()]
        t = tf.convert_to_tensor(w)
        out["tensor"] = [t.name, t.shape.as_list(), w.as_tensor().name]
        out["matmul_shape"] = tf.matmul(tf.ones([1, 7]), w).shape.as_list()
        look = tf.nn.embedding_lookup(w, [0, 3, 6, 5])
        look_mod = tf1.nn.embedding_lookup(w, [0, 3, 6, 5])
        look_div = tf1.nn.embedding_lookup(w, [0, 3, 6, 5], partition_strategy="div")
        loss = tf.reduce_sum(tf.square(look)) + tf.cast(tf.reduce_sum(a), tf.float32)
        train = tf1.train.GradientDescentOptimizer(0.1).minimize(loss)
        assign = w.assign(np.ones([7, 2], np.float32))
        assign_add = u.assign_add(np.ones([5, 2], np.float32))
        with tf1.variable_scope("emb", reuse=True):
            out["reused"] = tf1.get_variable("w") is w
            out["reused_same"] = tf1.get_variable(
                "w", [7, 2], partitioner=tf1.fixed_size_partitioner(3)) is w
        with tf1.variable_scope("emb", reuse=tf1.AUTO_REUSE):
            out["auto_reused"] = tf1.get_variable(
                "w", [7, 2], partitioner=tf1.fixed_size_partitioner(3)) is w
        errors = {
            "exists": lambda: tf1.get_variable(
                "emb/w", [7, 2], partitioner=tf1.fixed_size_partitioner(3)),
            "unknown_shape": lambda: tf1.get_variable(
                "q", partitioner=tf1.fixed_size_partitioner(3)),
            "two_axes": lambda: tf1.get_variable(
                "q2", [2, 2], partitioner=lambda shape, dtype: [2, 2]),
            "zero": lambda: tf1.get_variable(
                "q3", [2, 2], partitioner=lambda shape, dtype: [0, 1]),
            "rank": lambda: tf1.get_variable(
                "q4", [2, 2], partitioner=lambda shape, dtype: [1]),
            "not_callable": lambda: tf1.get_variable("q5", [2, 2], partitioner=3),
            "partial_shape": lambda: tf1.get_variable(
                "q6", [None, 2], partitioner=tf1.fixed_size_partitioner(2)),
            "unpartitioned_exists": lambda: tf1.get_variable(
                "scalar", [2], partitioner=tf1.fixed_size_partitioner(2)),
            "partitioned_exists": lambda: tf1.get_variable("u", [5, 2]),
        }
        with tf1.variable_scope("emb", reuse=True):
            errors["reuse_partitions"] = lambda: tf1.get_variable(
                "w", [7, 2], partitioner=tf1.fixed_size_partitioner(2))
            errors["reuse_shape"] = lambda: tf1.get_variable(
                "w", [7, 3], partitioner=tf1.fixed_size_partitioner(3))
            errors["reuse_missing"] = lambda: tf1.get_variable(
                "zz", [7, 3], partitioner=tf1.fixed_size_partitioner(3))
            for name in ("reuse_partitions", "reuse_shape", "reuse_missing"):
                out[name] = _call(lambda: (errors.pop(name)(), None)[1])
        for name, f in errors.items():
            out[name] = _call(lambda: (f(), None)[1])
        created = tf1.create_partitioned_variables([5, 3], [1, 2],
                                                   tf1.constant_initializer(2.0), name="cp")
        created2 = tf1.create_partitioned_variables([4], [3], np.arange(4, dtype=np.float32))
        out["created"] = [[(v.name, v.shape.as_list()) for v in vs]
                          for vs in (created, created2)]
        out["create_error"] = _call(lambda: tf1.create_partitioned_variables(
            [5, 3], [1], tf1.zeros_initializer()))
        init = tf1.global_variables_initializer()
    with tf1.Session(graph=g) as sess:
        sess.run(init)
        out["values"] = [sess.run(x).tolist() for x in (t, look, look_mod, look_div)]
        out["other_values"] = [sess.run(tf.convert_to_tensor(p)).tolist() for p in (u, a, n, c)]
        glorot_value = sess.run(tf.convert_to_tensor(glorot))
        # (the limit of Glorot's uniform draw follows the whole variable: sqrt(6 / 403))
        out["glorot_within"] = bool(np.abs(glorot_value).max() <= np.sqrt(6 / 403.0))
        out["glorot_spread"] = bool(np.abs(glorot_value).max() > np.sqrt(6 / 103.0) * 0.5)
        out["created_values"] = [[x.tolist() for x in sess.run(vs)]
                                 for vs in (created, created2)]
        sess.run(train)
        out["trained"] = [sess.run(t).tolist(), sess.run(tf.convert_to_tensor(a)).tolist()]
        out["assigned"] = [x.tolist() for x in sess.run(assign)]
        sess.run(assign_add)
        out["assigned_add"] = sess.run(tf.convert_to_tensor(u)).tolist()
    return out

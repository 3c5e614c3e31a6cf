"""TF 1 dataset programs (``tf.compat.v1.data.Dataset``) run by both TF (to record their
results, `data/make_v1_data_data.py`) and eagerflow (`test_v1_data.py`): each takes the
``compat.v1`` module and returns a JSON-able value."""
import numpy as np


def _kind(ds):
    """'v1' for a TF 1 dataset, 'v2' for a TF 2 one."""
    return "v1" if hasattr(ds, "make_one_shot_iterator") else "v2"


def _str(nest):
    if isinstance(nest, (tuple, list)):
        return [_str(x) for x in nest]
    if isinstance(nest, dict):
        return {k: _str(v) for k, v in nest.items()}
    if isinstance(nest, type):
        return nest.__name__
    return str(nest)


def kinds(tf):
    """Which constructors and transformations give a TF 1 dataset."""
    D = tf.data.Dataset
    ds = D.range(4)
    made = {
        "range": ds, "from_tensor_slices": D.from_tensor_slices([1, 2]),
        "from_tensors": D.from_tensors([1, 2]),
        "from_generator": D.from_generator(lambda: iter([1]), output_types=tf.int32),
        "zip": D.zip((ds, ds)), "batch": ds.batch(2), "padded_batch": ds.padded_batch(2),
        "unbatch": ds.batch(2).unbatch(), "map": ds.map(lambda x: x + 1),
        "filter": ds.filter(lambda x: x > 1), "shuffle": ds.shuffle(2), "repeat": ds.repeat(2),
        "take": ds.take(2), "skip": ds.skip(1), "prefetch": ds.prefetch(1), "cache": ds.cache(),
        "shard": ds.shard(2, 0), "concatenate": ds.concatenate(ds), "window": ds.window(2),
        "flat_map": ds.flat_map(lambda x: D.from_tensors(x)),
        "interleave": ds.interleave(lambda x: D.from_tensors(x)),
        "apply": ds.apply(lambda d: d.skip(1)), "with_options": ds.with_options(tf.data.Options()),
        "enumerate": ds.enumerate(), "take_while": ds.take_while(lambda x: x < 2),
        "scan": ds.scan(np.int64(0), lambda s, x: (s + x, s)),
    }
    out = {k: _kind(v) for k, v in made.items()}
    out["repr"] = repr(ds.batch(2))
    out["reader"] = repr(tf.data.TFRecordDataset([]))
    out["reader_kind"] = _kind(tf.data.TFRecordDataset([]).map(lambda x: x))
    out["values"] = [int(x) for x in ds.map(lambda y: y * 2).filter(lambda z: z > 0)]
    out["len"] = len(ds.batch(3))
    return out


def legacy_structure(tf):
    """``output_shapes``/``output_types``/``output_classes`` of several element kinds."""
    D = tf.data.Dataset
    st = tf.SparseTensor([[0, 1]], [1.0], [2, 3])
    made = {
        "scalar": D.range(3),
        "nest": D.range(3).map(lambda x: (x, {"a": tf.cast(x, tf.float32)})).batch(2),
        "sparse": D.from_tensor_slices(st),
        "sparse_slices": D.from_sparse_tensor_slices(st),
        "window": D.range(3).window(2),
    }
    out = {k: [_str(v.output_shapes), _str(v.output_types), _str(v.output_classes)]
           for k, v in made.items()}
    out["get_of_tf2"] = _str([tf.data.get_output_shapes(tf.data.Dataset.range(3).batch(2)),
                              tf.data.get_output_types(tf.data.Dataset.range(3)),
                              tf.data.get_output_classes(tf.data.Dataset.range(3))])
    out["sparse_slice_values"] = [[np.asarray(c).tolist() for c in e] for e in
                                  made["sparse_slices"].as_numpy_iterator()]
    return out


def eager_iterators(tf):
    """The v1 iterator methods eagerly: one-shot is ``iter``, initializable fails."""
    ds = tf.data.Dataset.range(3)
    out = {"method": [int(x) for x in ds.make_one_shot_iterator()],
           "function": [int(x) for x in tf.data.make_one_shot_iterator(ds)],
           "get_next": int(ds.make_one_shot_iterator().get_next())}
    for key, make in (("init_method", lambda: ds.make_initializable_iterator()),
                      ("init_function", lambda: tf.data.make_initializable_iterator(ds))):
        try:
            make()
        except RuntimeError as e:
            out[key] = str(e).split("\n")[0]
    return out


def graph_iterators(tf):
    """v1 iterators in a graph: placeholders fed at initialization, `OutOfRangeError`."""
    out = {}
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [None])
        ds = tf.data.Dataset.from_tensor_slices(x).map(lambda v: v * 2).batch(2)
        out["kind"] = _kind(ds)
        it = ds.make_initializable_iterator()
        nxt = it.get_next()
        out["iterator"] = _str([it.output_shapes, it.output_types, it.output_classes])
        out["names"] = [nxt.name, it.initializer.name, it.initializer.type]
        try:
            ds.make_one_shot_iterator()
        except ValueError as e:
            out["one_shot_placeholder"] = str(e)
        v = tf.Variable([1.0, 2.0])
        try:
            tf.data.Dataset.from_tensor_slices(v).make_one_shot_iterator()
        except ValueError as e:
            text = str(e)
            out["one_shot_variable"] = [text.split(" (name:")[0],
                                        text.split("type:")[1].split(")")[0],
                                        text.split("by value.: ")[1]]
        doubled = tf.data.Dataset.from_tensor_slices(tf.constant([1, 2]) * 2)
        doubled_next = doubled.map(lambda d: d + 1).make_one_shot_iterator().get_next()
        one = tf.data.Dataset.from_tensor_slices(({"a": [1, 2]}, [3.0, 4.0]))
        one_next = one.shuffle(1).repeat(2).make_one_shot_iterator().get_next()
        try:
            tf.data.Dataset.range(1).make_one_shot_iterator().initializer
        except ValueError as e:
            out["no_initializer"] = str(e)
    runs = []
    with tf.Session(graph=g) as sess:
        try:
            sess.run(nxt)
        except tf.errors.FailedPreconditionError:
            runs.append("not initialized")
        sess.run(it.initializer, {x: np.arange(5.0)})
        for _ in range(4):
            try:
                runs.append(sess.run(nxt).tolist())
            except tf.errors.OutOfRangeError:
                runs.append("end")
        sess.run(it.initializer, feed_dict={x: [7.0]})
        runs.append(sess.run(nxt).tolist())
        elements = []
        for _ in range(5):
            try:
                d, y = sess.run(one_next)
                elements.append([int(d["a"]), float(y)])
            except tf.errors.OutOfRangeError:
                elements.append("end")
        out["constant"] = [int(sess.run(doubled_next)), int(sess.run(doubled_next))]
    out["runs"] = runs
    out["one_shot"] = elements
    return out


PROGRAMS = {"kinds": kinds, "legacy_structure": legacy_structure,
            "eager_iterators": eager_iterators, "graph_iterators": graph_iterators}

"""Datasets and iterators inside `function`: graph loops over iterator ops, as in TF.

The expected values were checked against TensorFlow 2.21.
"""
import numpy as np
import pytest

import eagerflow as tf


def _op_types(fn, *args):
    return [op.type for op in fn.get_concrete_function(*args).graph.get_operations()]


def test_for_over_a_dataset_is_a_graph_loop_run_on_every_call():
    ds = tf.data.Dataset.range(5)
    trace_count = []

    @tf.function
    def total():
        trace_count.append(1)
        t = tf.constant(0, tf.int64)
        for x in ds:
            t += x
        return t

    assert int(total()) == 10 and int(total()) == 10
    assert len(trace_count) == 1
    types = _op_types(total)
    # not unrolled: one loop, the iterator made in the graph
    assert "While" in types and "AnonymousIteratorV3" in types and "MakeIterator" in types
    assert types.count("AddV2") == 0  # the additions are in the loop body


def test_each_call_iterates_afresh_and_sees_a_reshuffle():
    ds = tf.data.Dataset.range(4).shuffle(4, seed=1)

    @tf.function
    def collect():
        ta = tf.TensorArray(tf.int64, size=0, dynamic_size=True)
        i = 0
        for x in ds:
            ta = ta.write(i, x)
            i += 1
        return ta.stack()

    # TF's orders for seed 1: a new one on each iteration
    assert collect().numpy().tolist() == [0, 3, 1, 2]
    assert collect().numpy().tolist() == [2, 3, 1, 0]


def test_break_and_return_inside_the_loop():
    ds = tf.data.Dataset.range(5)

    @tf.function
    def with_break():
        t = tf.constant(0, tf.int64)
        for x in ds:
            if x > 2:
                break
            t += x
        return t

    @tf.function
    def with_return():
        for x in ds:
            if x > 2:
                return x * 10
        return tf.constant(-1, tf.int64)

    assert int(with_break()) == 3
    # TF 2.21's AutoGraph limitation and message: no return inside a dataset loop
    with pytest.raises(NotImplementedError, match="a return statement cannot be placed inside "
                       "this TensorFlow loop"):
        with_return()


def test_tuple_dict_and_batched_elements():
    pairs = tf.data.Dataset.from_tensor_slices(
        (np.arange(6.0, dtype=np.float32).reshape(3, 2), np.array([1, 2, 3], np.int32))).batch(2)
    dicts = tf.data.Dataset.from_tensor_slices({"a": [1, 2, 3], "b": [4., 5., 6.]})

    @tf.function
    def tuples():
        s, n = tf.constant(0.0), tf.constant(0)
        for x, y in pairs:
            s += tf.reduce_sum(x)
            n += tf.reduce_sum(y)
        return s, n

    @tf.function
    def dict_loop():
        s = tf.constant(0.0)
        for d in dicts:
            s += tf.cast(d["a"], tf.float32) * d["b"]
        return s

    s, n = tuples()
    assert float(s) == 15.0 and int(n) == 6
    assert float(dict_loop()) == 32.0


def test_pipelines_with_functions_empty_datasets_and_prints(capsys):
    @tf.function
    def mapped():
        t = tf.constant(0, tf.int64)
        for x in tf.data.Dataset.range(4).map(lambda v: v * 2).filter(lambda v: v > 2):
            t += x
        return t

    @tf.function
    def empty():
        t = tf.constant(7, tf.int64)
        for x in tf.data.Dataset.range(0):
            t += x
        return t

    @tf.function
    def prints():
        for x in tf.data.Dataset.range(3):
            tf.print("x", x)
        return 0

    assert int(mapped()) == 10
    assert int(empty()) == 7
    prints()
    prints()
    assert capsys.readouterr().err == "x 0\nx 1\nx 2\n" * 2


def test_an_iterator_made_outside_advances_on_every_call():
    it = iter(tf.data.Dataset.range(10))

    @tf.function
    def step():
        return next(it)

    @tf.function
    def step2():
        return it.get_next()

    @tf.function
    def optional():
        o = it.get_next_as_optional()
        return o.has_value(), o.get_value()

    assert [int(step()) for _ in range(3)] == [0, 1, 2]
    assert [int(step2()) for _ in range(2)] == [3, 4]
    has, value = optional()
    assert bool(has) and int(value) == 5
    assert int(next(it)) == 6  # eager use continues where the function left off


def test_for_over_an_iterator_consumes_it_up_to_the_break():
    it = iter(tf.data.Dataset.range(6))

    @tf.function
    def loop():
        t = tf.constant(0, tf.int64)
        for x in it:
            t += x
            if x >= 2:
                break
        return t

    assert int(loop()) == 3  # 0 + 1 + 2
    assert int(loop()) == 3  # 3, then the break
    assert int(next(it)) == 4


def test_end_of_an_iterator_raises_out_of_range():
    it = iter(tf.data.Dataset.range(2))

    @tf.function
    def step():
        return it.get_next()

    assert [int(step()), int(step())] == [0, 1]
    with pytest.raises(tf.errors.OutOfRangeError, match="End of sequence"):
        step()


def test_an_iterator_made_inside_is_new_on_every_call():
    @tf.function
    def two():
        i = iter(tf.data.Dataset.range(3))
        a = next(i)
        b = next(i)
        return a + b

    @tf.function
    def optionals():
        i = iter(tf.data.Dataset.range(2))
        o1, o2, o3 = (i.get_next_as_optional() for _ in range(3))
        return o1.has_value(), o2.has_value(), o3.has_value(), o2.get_value()

    @tf.function
    def empty_value():
        i = iter(tf.data.Dataset.range(1))
        next(i)
        return i.get_next_as_optional().get_value()

    assert int(two()) == 1 and int(two()) == 1
    assert [bool(v) if i < 3 else int(v) for i, v in enumerate(optionals())] == \
        [True, True, False, 1]
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="The given optional does not have a value."):
        empty_value()


def test_reduce_inside_a_function():
    @tf.function
    def total():
        return tf.data.Dataset.range(5).reduce(np.int64(0), lambda s, x: s + x)

    @tf.function
    def growing(d):
        return d.reduce(tf.zeros([0], tf.int64), lambda s, x: tf.concat([s, [x]], 0))

    assert int(total()) == 10 and int(total()) == 10
    assert "While" in _op_types(total)
    assert growing(tf.data.Dataset.range(3)).numpy().tolist() == [0, 1, 2]
    assert growing(tf.data.Dataset.range(2)).numpy().tolist() == [0, 1]


def test_a_dataset_argument_is_traced_once_per_element_spec():
    @tf.function
    def f(d):
        t = tf.constant(0, tf.int64)
        for x in d.map(lambda v: v * 2).batch(2):
            t += tf.reduce_sum(x)
        return t

    assert int(f(tf.data.Dataset.range(3))) == 6
    assert int(f(tf.data.Dataset.range(5))) == 20
    assert f.experimental_get_tracing_count() == 1
    cf = f.get_concrete_function(tf.data.Dataset.range(3))
    assert repr(cf.structured_input_signature) == (
        "((DatasetSpec(TensorSpec(shape=(), dtype=tf.int64, name=None), TensorShape([])),), "
        "{})")
    assert int(cf(tf.data.Dataset.range(4))) == 12
    with pytest.raises(TypeError, match="AddV2"):  # a new trace, for float elements
        f(tf.data.Dataset.range(3).map(lambda x: tf.cast(x, tf.float32)))
    with pytest.raises(TypeError, match="Can not cast"):
        cf(tf.data.Dataset.range(3).map(lambda x: tf.cast(x, tf.float32)))


def test_a_trace_for_unknown_batch_sizes_serves_known_ones():
    @tf.function
    def total(ds):
        return ds.reduce(tf.constant(0, tf.int64), lambda a, b: a + tf.reduce_sum(b))

    counts = []
    for ds in [tf.data.Dataset.range(5).batch(2), tf.data.Dataset.range(6).batch(2),
               tf.data.Dataset.range(6).batch(2, drop_remainder=True),
               tf.data.Dataset.range(6).batch(3, drop_remainder=True)]:
        assert int(total(ds)) in (10, 15)
        counts.append(total.experimental_get_tracing_count())
    assert counts == [1, 1, 1, 1]  # TF's: element specs (2,) and (3,) fit the (None,) trace
    assert tf.type_spec_from_value(tf.data.Dataset.range(3).batch(2)) == tf.data.DatasetSpec(
        tf.TensorSpec([None], tf.int64))
    with pytest.raises(TypeError, match="AddV2"):  # (float elements: a trace of their own)
        total(tf.data.Dataset.range(3).map(lambda x: tf.cast(x, tf.float32)).batch(2))
    first = tf.function(lambda it: next(it))
    assert int(first(iter(tf.data.Dataset.range(3)))) == 0
    assert int(first(iter(tf.data.Dataset.range(3).map(lambda x: tf.cast(x, tf.int32))))) == 0
    assert first.experimental_get_tracing_count() == 2


def test_a_training_loop_over_a_dataset_in_a_function():
    x = np.linspace(-1, 1, 64).astype(np.float32)[:, None]
    y = 3 * x + 1
    ds = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(64, seed=0).batch(16)
    w, b = tf.Variable([[0.0]]), tf.Variable([0.0])
    opt = tf.keras.optimizers.SGD(0.5)

    @tf.function
    def epoch():
        loss = tf.constant(0.0)
        for xb, yb in ds:
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean((xb @ w + b - yb) ** 2)
            opt.apply_gradients(zip(tape.gradient(loss, [w, b]), [w, b]))
        return loss

    for _ in range(30):
        last = epoch()
    assert float(last) < 1e-3
    np.testing.assert_allclose(w.numpy(), [[3.0]], atol=0.05)


def test_eager_loops_inside_converted_code_stay_python():
    tf.config.run_functions_eagerly(True)
    try:
        @tf.function
        def total():
            t = tf.constant(0, tf.int64)
            for x in tf.data.Dataset.range(4):
                t += x
            return t
        assert int(total()) == 6
    finally:
        tf.config.run_functions_eagerly(False)


def test_enumerate_and_zip_of_datasets_are_dataset_loops():
    ds = tf.data.Dataset.range(3, 6)

    @tf.function
    def enumerated():
        t = tf.constant(0, tf.int64)
        for i, x in enumerate(ds):
            t += i * x
        return t

    @tf.function
    def zipped():
        t = tf.constant(0, tf.int64)
        for a, b in zip(ds, tf.data.Dataset.range(10, 20)):
            t += a * b
        return t

    @tf.function
    def python_lists():
        t = tf.constant(0, tf.int64)
        for i, x in enumerate([1, 2]):
            t += i * x
        return t

    assert int(enumerated()) == 14  # 0*3 + 1*4 + 2*5, as TF
    assert int(zipped()) == 134
    assert int(python_lists()) == 2
    assert "While" in _op_types(enumerated)


def test_gradient_through_a_loop_over_a_dataset_and_nested_functions():
    w = tf.Variable(2.0)
    ds = tf.data.Dataset.from_tensor_slices([1.0, 2.0, 3.0])

    @tf.function
    def loss():
        t = tf.constant(0.0)
        for x in ds:
            t += w * x
        return t

    @tf.function
    def outer():
        return loss() * 2

    with tf.GradientTape() as tape:
        value = loss()
    assert float(value) == 12.0
    assert float(tape.gradient(value, w)) == 6.0  # (TF's reduce-based loop gives None)
    assert float(outer()) == 24.0 and float(outer()) == 24.0


def test_python_iteration_while_tracing_stops_with_tfs_error():
    ds = tf.data.Dataset.range(3)

    @tf.function(autograph=False)
    def unconverted():
        t = tf.constant(0, tf.int64)
        for x in ds:
            t += x
        return t

    @tf.function
    def listed():
        return list(ds)

    for fn in (unconverted, listed):
        with pytest.raises(ValueError, match="An unusually high number of "
                                             r"`tf.data.Iterator.get_next\(\)` calls"):
            fn()


def test_an_iterator_argument_is_traced_once_per_element_spec():
    @tf.function
    def step(it):
        return next(it) * 10

    it = iter(tf.data.Dataset.range(5))
    assert [int(step(it)), int(step(it)), int(next(it)), int(step(it))] == [0, 10, 2, 30]
    assert int(step(iter(tf.data.Dataset.range(100, 105)))) == 1000
    assert step.experimental_get_tracing_count() == 1
    assert repr(step.get_concrete_function(it).structured_input_signature) == (
        "((IteratorSpec(TensorSpec(shape=(), dtype=tf.int64, name=None),),), {})")
    assert repr(tf.data.IteratorSpec(tf.TensorSpec([], tf.int64))) == \
        "IteratorSpec(TensorSpec(shape=(), dtype=tf.int64, name=None),)"


def test_datasets_of_constants_written_in_the_function():
    @tf.function
    def joined():
        out = tf.constant("")
        for s in tf.data.Dataset.from_tensor_slices(["a", "b"]):
            out = out + s
        return out

    @tf.function
    def total():
        return tf.data.Dataset.from_tensor_slices([1, 2, 3]).reduce(0, lambda a, b: a + b)

    assert joined().numpy() == b"ab"  # as TF
    assert int(total()) == 6


def test_datasets_of_ragged_and_sparse_tensors_made_in_the_function():
    @tf.function
    def ragged_total(scale):
        s = tf.constant(0)
        for r in tf.data.Dataset.from_tensor_slices(tf.ragged.constant([[1, 2], [3]]) * scale):
            s += tf.reduce_sum(r)
        return s

    @tf.function
    def sparse_total():
        ds = tf.data.Dataset.from_tensors(tf.sparse.from_dense([[1, 0], [0, 3]]))
        return ds.reduce(tf.constant(0), lambda a, st: a + tf.sparse.reduce_sum(st))

    assert int(ragged_total(tf.constant(1))) == 6
    assert int(ragged_total(tf.constant(2))) == 12
    assert int(sparse_total()) == 4


def test_counts_held_in_variables_are_read_on_every_call():
    count = tf.Variable(2, dtype=tf.int64)
    r = tf.data.Dataset.range(7)

    @tf.function
    def run():
        total = r.take(count).reduce(tf.constant(0, tf.int64), lambda a, b: a * 3 + b)
        sizes = r.batch(count).reduce(tf.constant(0, tf.int64),
                                      lambda a, b: a * 10 + tf.size(b, tf.int64))
        return total, sizes, r.skip(count).cardinality()

    assert [int(t) for t in run()] == [1, 2221, 5]
    count.assign(3)
    assert [int(t) for t in run()] == [5, 331, 4]


def test_interleave_cycle_length_from_a_function_argument():
    @tf.function
    def run(k):
        ds = tf.data.Dataset.range(7).interleave(lambda x: tf.data.Dataset.range(x),
                                                 cycle_length=k)
        return ds.reduce(tf.constant(0, tf.int64), lambda a, b: a * 3 + b)

    assert int(run(tf.constant(3, tf.int64))) == 183786317  # TF's values
    assert int(run(tf.constant(4, tf.int64))) == 63680651


def test_scan_from_a_function_argument():
    @tf.function
    def run(k):
        ds = tf.data.Dataset.range(7).scan(k, lambda s, x: (s + x, s))
        return ds.reduce(tf.constant(0, tf.int64), lambda a, b: a * 3 + b)

    assert int(run(tf.constant(3, tf.int64))) == 3540  # TF's values
    assert int(run(tf.constant(4, tf.int64))) == 4633


def test_a_range_of_a_traced_tensor_built_per_element_is_not_empty():
    @tf.function
    def run(k):
        ds = tf.data.Dataset.range(3).flat_map(lambda x: tf.data.Dataset.range(k))
        return ds.reduce(tf.constant(0, tf.int64), lambda a, b: a + b)

    assert int(run(tf.constant(2, tf.int64))) == 3  # TF's values
    assert int(run(tf.constant(4, tf.int64))) == 18


def _digits(ds):
    return ds.reduce(tf.constant(0, tf.int64), lambda a, b: a * 10 + b)


def test_dataset_functions_closing_over_the_functions_tensors():
    # flat_map's, interleave's and group_by_window's functions read each call's values
    # of the tensors they close over, directly, through ops, through nested functions
    @tf.function
    def nested(t):
        return _digits(tf.data.Dataset.range(1, 3).flat_map(
            lambda x: tf.data.Dataset.range(t).map(lambda y: y * t + x)))

    @tf.function
    def deeper(t):
        return _digits(tf.data.Dataset.range(2).flat_map(
            lambda x: tf.data.Dataset.range(2).flat_map(
                lambda y: tf.data.Dataset.from_tensors(x * 3 + y + t))))

    v = tf.Variable(2, dtype=tf.int64)

    @tf.function
    def parallel(t):
        return _digits(tf.data.Dataset.range(3).interleave(
            lambda x: tf.data.Dataset.range(v + t).map(lambda y: y + x), cycle_length=2,
            num_parallel_calls=2))

    @tf.function
    def windows(t):
        ds = tf.data.Dataset.range(6).group_by_window(
            lambda x: x % 2, lambda k, w: w.batch(t), window_size=3)
        return _digits(ds.map(tf.reduce_sum))

    @tf.function(input_signature=[tf.TensorSpec([None], tf.int64)])
    def computed(t):
        u = t * 2
        return _digits(tf.data.Dataset.range(2).flat_map(
            lambda x: tf.data.Dataset.from_tensor_slices(u + x)))

    assert [int(nested(tf.constant(k, tf.int64))) for k in (2, 3)] == [1324, 147258]  # TF's values
    assert [int(deeper(tf.constant(k, tf.int64))) for k in (1, 5)] == [1245, 5689]
    assert int(parallel(tf.constant(0, tf.int64))) == 11223
    v.assign(1)
    assert int(parallel(tf.constant(0, tf.int64))) == 12
    assert [int(windows(tf.constant(k, tf.int64))) for k in (2, 3)] == [2445, 69]
    assert int(computed(tf.constant([1, 2], tf.int64))) == 2435
    assert int(computed(tf.constant([3], tf.int64))) == 67


def test_a_dataset_built_in_a_function_is_built_once_per_call():
    # iterating it again in the same call goes on with its state: a shuffle reshuffles (each
    # epoch of a loop, each reduce, through a prefix two pipelines share), as in TF; one
    # built in a loop's body is built again on each run of the body
    def digits(ds):
        return ds.reduce(tf.constant(0, tf.int64), lambda a, b: a * 10 + b)

    @tf.function
    def epochs():
        ds = tf.data.Dataset.range(5).shuffle(5, seed=4)
        out = tf.TensorArray(tf.int64, size=3)
        for e in tf.range(3):
            s = tf.constant(0, tf.int64)
            for x in ds:
                s = s * 10 + x
            out = out.write(e, s)
        return out.stack()

    @tf.function
    def in_body():
        out = tf.TensorArray(tf.int64, size=2)
        for e in tf.range(2):
            out = out.write(e, digits(tf.data.Dataset.range(5).shuffle(5, seed=4)))
        return out.stack()

    @tf.function
    def shared_prefix(n):
        ds = tf.data.Dataset.range(n).shuffle(6, seed=4)
        return digits(ds.map(lambda x: x)), digits(ds.take(6)), digits(ds)

    @tf.function
    def passed_on():
        ds = tf.data.Dataset.range(6).shuffle(6, seed=4)
        return digits_of(ds), digits_of(ds)

    digits_of = tf.function(digits)
    for _ in range(2):  # (each call starts again: TF's values)
        assert epochs().numpy().tolist() == [12430, 31420, 14023]
        assert in_body().numpy().tolist() == [12430, 12430]
        assert [int(v) for v in shared_prefix(tf.constant(6, tf.int64))] == [
            120435, 134052, 52431]
        assert [int(v) for v in passed_on()] == [120435, 134052]


def test_a_rerandomizing_random_dataset_built_in_a_function_starts_again_each_call():
    tf.random.set_seed(11)  # (TF's values for this global seed)

    @tf.function
    def draws():
        ds = tf.data.Dataset.random(seed=5, rerandomize_each_iteration=True).map(
            lambda x: x % 100).take(2)
        return [ds.reduce(tf.constant(0, tf.int64), lambda a, b: a * 100 + b)
                for _ in range(2)]

    try:
        for _ in range(2):  # TF's values: the second iteration draws anew, each call alike
            assert [int(v) for v in draws()] == [6696, 950]
    finally:
        tf.random.set_seed(None)


def test_a_dataset_built_from_a_functions_tensors_passed_to_another_function():
    digits = tf.function(
        lambda ds: ds.reduce(tf.constant(0, tf.int64), lambda a, b: a * 10 + b))

    @tf.function
    def ranged(n):
        return digits(tf.data.Dataset.range(n))

    @tf.function
    def mapped(n):
        return digits(tf.data.Dataset.range(3).map(lambda x: x + n))

    assert int(ranged(tf.constant(3, tf.int64))) == 12  # TF's values
    assert int(ranged(tf.constant(4, tf.int64))) == 123
    assert int(mapped(tf.constant(3, tf.int64))) == 345


def test_len_of_a_dataset_inside_a_function_is_its_cardinality():
    @tf.function
    def sizes():
        return len(tf.data.Dataset.range(6)), len(tf.data.Dataset.range(7).batch(2))

    @tf.function
    def infinite():
        return len(tf.data.Dataset.range(3).repeat())

    a, b = sizes()
    assert (a.dtype, int(a), int(b)) == (tf.int64, 6, 4)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"len requires dataset with definitive cardinality, got -1"):
        infinite()


def test_loops_with_continue_nested_datasets_and_ragged_batches():
    ds = tf.data.Dataset.range(6)

    @tf.function
    def odd_sum():
        t = tf.constant(0, tf.int64)
        for x in ds:
            if x % 2 == 0:
                continue
            t += x
        return t

    @tf.function
    def nested():
        t = tf.constant(0, tf.int64)
        for x in tf.data.Dataset.range(3):
            for y in tf.data.Dataset.range(2):
                t += x * 10 + y
        return t

    @tf.function
    def rows():
        n = tf.constant(0)
        for b in tf.data.Dataset.range(7).batch(3):
            n += tf.shape(b)[0]
        return n

    assert (int(odd_sum()), int(nested()), int(rows())) == (9, 63, 7)  # TF's values


def test_dataset_and_iterator_specs_stand_for_arguments():
    spec = tf.data.DatasetSpec(tf.TensorSpec([], tf.int64))

    @tf.function
    def total(d):
        t = tf.constant(0, tf.int64)
        for x in d:
            t += x
        return t

    @tf.function(input_signature=[spec])
    def reduced(d):
        return d.reduce(tf.constant(0, tf.int64), lambda a, b: a + b)

    @tf.function
    def first(it):
        return next(it)

    cf = total.get_concrete_function(spec)
    assert int(cf(tf.data.Dataset.range(4))) == 6  # as TF
    assert int(reduced(tf.data.Dataset.range(4))) == 6
    assert int(reduced(tf.data.Dataset.range(5))) == 10
    with pytest.raises(TypeError, match="does not match DatasetSpec"):
        reduced(tf.data.Dataset.range(3).map(lambda x: tf.cast(x, tf.int32)))
    cg = first.get_concrete_function(tf.data.IteratorSpec(tf.TensorSpec([], tf.int64)))
    assert int(cg(iter(tf.data.Dataset.range(3, 5)))) == 3

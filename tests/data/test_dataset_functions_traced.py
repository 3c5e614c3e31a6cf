"""Functions returning datasets (``flat_map``, ``interleave``, ``group_by_window``'s
``reduce_func``) are traced once, as TF traces them: their Python runs once, on symbolic
tensors, AutoGraph converts them, and each element runs the traced graph.  Expected values
are TF 2.21's."""
import eagerflow as tf


def _values(ds):
    return [v.tolist() for v in ds.as_numpy_iterator()]


def test_flat_map_runs_the_python_function_once_on_symbolic_tensors():
    calls = []

    def f(x):
        calls.append(type(x).__name__)
        return tf.data.Dataset.from_tensors(x).repeat(2)

    assert _values(tf.data.Dataset.range(3).flat_map(f)) == [0, 0, 1, 1, 2, 2]
    assert calls == ["SymbolicTensor"]


def test_flat_map_function_builds_graph_control_flow():
    def f(x):
        return tf.data.Dataset.from_tensors(tf.while_loop(
            lambda i: i < x, lambda i: i + 2, [tf.constant(0, tf.int64)])[0])

    assert _values(tf.data.Dataset.range(3).flat_map(f)) == [0, 2, 2]


def test_flat_map_function_is_converted_by_autograph():
    calls = []

    def f(x):
        calls.append(1)
        if x > 0:
            y = x * 10
        else:
            y = x - 1
        return tf.data.Dataset.range(y, y + 2)

    assert _values(tf.data.Dataset.range(3).flat_map(f)) == [-1, 0, 10, 11, 20, 21]
    assert len(calls) == 1


def test_interleave_function_traced_once_and_its_inner_map_fed_per_element():
    calls = []

    def f(x):
        calls.append(1)
        return tf.data.Dataset.range(x).map(lambda y: y + x)

    ds = tf.data.Dataset.range(3).interleave(f, cycle_length=2)
    assert _values(ds) == [1, 2, 3]
    assert _values(ds) == [1, 2, 3]
    assert len(calls) == 1


def test_window_then_flat_map_and_group_by_window_traced_once():
    calls = []

    def batched(w):
        calls.append(1)
        return w.batch(3)

    assert _values(tf.data.Dataset.range(6).window(3).flat_map(batched)) == [[0, 1, 2],
                                                                              [3, 4, 5]]
    assert len(calls) == 1

    def reduce_func(key, window):
        calls.append(1)
        return window.batch(10).map(lambda b: b * key + 100)

    ds = tf.data.Dataset.range(7).group_by_window(lambda x: x % 2, reduce_func, 2)
    assert _values(ds) == [[100, 100], [101, 103], [100, 100], [105]]
    assert len(calls) == 2


def test_flat_map_reads_a_variable_per_element():
    v = tf.Variable(1, dtype=tf.int64)
    ds = tf.data.Dataset.range(3).flat_map(lambda x: tf.data.Dataset.from_tensors(x + v))
    assert _values(ds) == [1, 2, 3]
    v.assign(10)
    assert _values(ds) == [10, 11, 12]


def test_flat_map_in_a_function_closing_over_its_argument():
    @tf.function
    def total(n):
        ds = tf.data.Dataset.range(3).flat_map(lambda x: tf.data.Dataset.range(x + n))
        return ds.reduce(tf.constant(0, tf.int64), lambda a, b: a + b)

    assert int(total(tf.constant(1, tf.int64))) == 4
    assert int(total(tf.constant(2, tf.int64))) == 10


def test_flat_map_random_ops_draw_as_graph_ops():
    tf.random.set_seed(3)
    ds = tf.data.Dataset.range(3).flat_map(lambda x: tf.data.Dataset.from_tensors(
        tf.random.uniform([]) + tf.cast(x, tf.float32)).repeat(2))
    expected = [0.12736404, 0.12736404, 1.8580158, 1.8580158, 2.8898706, 2.8898706]
    for _ in range(2):  # (each iteration draws from the start)
        got = _values(ds)
        assert all(abs(a - b) < 1e-6 for a, b in zip(got, expected)), got


def test_map_returning_datasets_runs_its_traced_graph():
    def f(x):  # (a graph while_loop: calling it eagerly per element fails)
        n = tf.while_loop(lambda i: i < x, lambda i: i + 2, [tf.constant(0, tf.int64)])[0]
        return tf.data.Dataset.range(n), n

    ds = tf.data.Dataset.range(4).map(f)
    assert ds.element_spec == (tf.data.DatasetSpec(tf.TensorSpec([], tf.int64)),
                               tf.TensorSpec([], tf.int64))
    assert [(_values(d), int(n)) for d, n in ds] == [([], 0), ([0, 1], 2), ([0, 1], 2),
                                                      ([0, 1, 2, 3], 4)]


def test_window_functions_reading_the_window_run_per_window():
    windows = tf.data.Dataset.range(7).window(3)
    sums = windows.flat_map(lambda w: tf.data.Dataset.from_tensors(
        w.reduce(tf.constant(0, tf.int64), lambda s, x: s + x)))
    assert _values(sums) == [3, 12, 6]
    assert _values(windows.flat_map(lambda w: w.take(w.cardinality() - 1))) == [0, 1, 3, 4]

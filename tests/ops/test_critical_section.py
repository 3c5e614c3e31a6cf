"""tf.CriticalSection: functions run one at a time (eagerly, in a `function`, from several
threads), results as TF returns them, and TF's errors for nesting and shared resources."""
import threading
import time

import pytest

import eagerflow as tf

NESTED = (r"Attempting to lock a CriticalSection \(signature=\('', \d+, "
          r"'/job:localhost/replica:0/task:0/device:CPU:0'\)\) in which we are already "
          r"running. This is illegal and may cause deadlocks.")


def test_execute_eagerly_returns_tensors():
    cs = tf.CriticalSection()
    v = tf.Variable(0)

    def fn():
        v.assign_add(1)
        return v.read_value()
    assert cs.execute(fn).numpy() == 1
    out = cs.execute(lambda: (v + 1, {"a": tf.constant(2.0)}))
    assert out[0].numpy() == 2 and out[1]["a"].numpy() == 2.0
    got = cs.execute(lambda: v)  # a variable comes back as a tensor of its value
    assert not isinstance(got, tf.Variable) and got.numpy() == 1
    assert cs.execute(lambda: None) is None
    assert cs.execute(fn, exclusive_resource_access=False, name="x").numpy() == 2
    assert cs._handle.shape == ()


def _two_increments(first, second, v):
    """A function adding 1 to `v` in section `first`, then again in `second`."""
    @tf.function
    def g():
        a = first.execute(lambda: v.assign_add(1))
        b = second.execute(lambda: v.assign_add(1))
        return a, b
    return g


def test_execute_in_function_runs_at_every_call():
    cs = tf.CriticalSection()
    g = _two_increments(cs, cs, tf.Variable(0))
    assert [t.numpy() for t in g()] == [1, 2]
    assert [t.numpy() for t in g()] == [3, 4]


def test_nested_execute_is_a_value_error_and_releases_the_lock():
    cs = tf.CriticalSection()
    with pytest.raises(ValueError, match=NESTED):
        cs.execute(lambda: cs.execute(lambda: tf.constant(1)))
    assert cs.execute(lambda: tf.constant(7)).numpy() == 7  # (the lock was given back)

    @tf.function
    def h():
        return cs.execute(lambda: cs.execute(lambda: tf.constant(1)))
    with pytest.raises(ValueError, match=NESTED):
        h()
    with pytest.raises(TypeError, match="'int' object is not callable"):
        cs.execute(5)
    assert cs.execute(lambda: tf.constant(8)).numpy() == 8


def test_error_in_function_releases_the_lock():
    cs = tf.CriticalSection()

    def fails():
        raise RuntimeError("boom")
    with pytest.raises(RuntimeError, match="boom"):
        cs.execute(fails)
    assert cs.execute(lambda: tf.constant(1)).numpy() == 1


def test_exclusive_resource_access_across_sections():
    cs, cs2 = tf.CriticalSection(), tf.CriticalSection()
    v = tf.Variable(0)
    k = _two_increments(cs, cs2, v)
    with pytest.raises(ValueError, match=r"This execution would access resources: .*Did you "
                                         r"mean to call execute with keyword argument "
                                         r"exclusive_resource_access=False\?"):
        k()

    @tf.function
    def shared():
        a = cs.execute(v.read_value, exclusive_resource_access=False)
        b = cs2.execute(v.read_value, exclusive_resource_access=False)
        return a + b
    assert shared().numpy() == 0


def _racy_count(run_in_section, traced):
    """4 threads x 10 runs of read, pause, write: lost updates unless serialized."""
    cs = tf.CriticalSection()
    count = tf.Variable(0)

    def body():
        x = count.read_value()
        y = tf.py_function(lambda a: (time.sleep(0.002), a)[1], [x], tf.int32)
        count.assign(y + 1)
        return count.read_value()

    def step():
        return cs.execute(body) if run_in_section else body()
    step = tf.function(step) if traced else step
    threads = [threading.Thread(target=lambda: [step() for _ in range(10)]) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return int(count.numpy())


@pytest.mark.parametrize("traced", [False, True])
def test_execute_serializes_threads(traced):
    assert _racy_count(True, traced) == 40
    assert _racy_count(False, traced) < 40  # (the same steps outside the section race)


def test_name():
    cs = tf.CriticalSection(name="cs1")
    with pytest.raises(AttributeError, match="Tensor.op is undefined when eager execution "
                                             "is enabled."):
        cs.name

    @tf.function
    def f():
        inner = tf.CriticalSection(name="inner")
        assert inner.name == "inner"
        return inner.execute(lambda: tf.constant(1))
    assert f().numpy() == 1


def test_failed_run_in_function_gives_the_lock_back_while_its_error_is_kept():
    cs = tf.CriticalSection()

    @tf.function
    def f(x):
        def body():
            with tf.control_dependencies([tf.debugging.assert_equal(x, 0)]):
                return x + 1
        return cs.execute(body)
    kept = []
    try:
        f(tf.constant(1))
    except tf.errors.InvalidArgumentError as e:
        kept.append(e)  # (its traceback holds the failed run's frame, and so its lock)
    assert f(tf.constant(0)).numpy() == 1

    def fail_on_a_thread():
        try:
            f(tf.constant(1))
        except tf.errors.InvalidArgumentError as e:
            kept.append(e)
    thread = threading.Thread(target=fail_on_a_thread)
    thread.start()
    thread.join()
    assert len(kept) == 2
    assert f(tf.constant(0)).numpy() == 1


def test_the_mutex_handle_is_a_resource():
    # TF 2.21: a critical section's handle is a resource tensor, eagerly and in a function
    cs = tf.CriticalSection()
    assert cs._handle.dtype == tf.resource
    assert repr(cs._handle) == (
        '<tf.Tensor: shape=(), dtype=resource, value=<ResourceHandle(name="", '
        'device="/job:localhost/replica:0/task:0/device:CPU:0", container="localhost", '
        'type="tensorflow::(anonymous namespace)::Mutex", dtype and shapes : "[  ]")>>')
    seen = []

    @tf.function
    def f():
        seen.append(cs._handle.dtype)
        return cs.execute(lambda: tf.constant(1))

    assert int(f()) == 1 and seen == [tf.resource]
    nodes = f.get_concrete_function().graph.as_graph_def().node
    assert [n.attr["dtype"].type for n in nodes if n.op == "Placeholder"] == \
        [tf.resource.as_datatype_enum]

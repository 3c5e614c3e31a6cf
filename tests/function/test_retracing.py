"""Why a function retraced: the explanation kept for every trace, and the warning."""
import logging
import threading
import typing

import pytest

import eagerflow as tf
from tests.concurrency import in_threads


def test_explanation_names_the_argument_and_its_old_and_new_key():
    @tf.function
    def f(x, n):
        return x * n

    f(tf.constant([1.0, 2.0]), 2)
    f(tf.constant([1.0, 2.0]), 3)
    f(tf.constant([1, 2]), 3)
    text = f.experimental_explain_retracing()
    lines = text.splitlines()
    assert lines[0] == "f was traced 3 times:"
    assert lines[1].startswith("  1. first call: x=TensorSpec(shape=(2,), dtype=tf.float32")
    assert lines[2] == "  2. n changed from int 2 to int 3"
    assert lines[3] == ("  3. x changed from TensorSpec(shape=(2,), dtype=tf.float32, "
                        "name=None) to TensorSpec(shape=(2,), dtype=tf.int32, name=None)")


def test_reduce_retracing_explains_the_relaxed_trace():
    f = tf.function(lambda x: x + 1.0, reduce_retracing=True)
    f(tf.ones([2]))
    f(tf.ones([3]))
    f(tf.ones([4]))  # covered by the relaxed trace
    assert f.experimental_get_tracing_count() == 2
    assert "to TensorSpec(shape=(None,)" in f.experimental_explain_retracing()


def _retracing_warnings(caplog):
    return [r.getMessage() for r in caplog.records
            if "triggered tf.function retracing" in r.getMessage()]


def test_repeated_retracing_warns_twice_as_tf_does_with_the_explanation(caplog):
    @tf.function
    def g(k):
        return tf.constant(k)

    with caplog.at_level(logging.WARNING, logger="tensorflow"):
        for k in range(9):
            g(k)
    warnings = _retracing_warnings(caplog)
    assert [w.split(" calls to ")[0] for w in warnings] == ["5 out of the last 5",
                                                           "6 out of the last 6"]
    assert warnings[0].startswith("5 out of the last 5 calls to <function ")
    assert "g at 0x" in warnings[0] and "reduce_retracing" in warnings[0]
    assert "g was traced 5 times" in warnings[0]
    assert "k changed from int 3 to int 4" in warnings[0]


def _calls(pattern, caplog):
    """Calls a new function by `pattern` (T: a new shape, N: the last shape again); the
    counts its retracing warnings start with."""
    namespace = {}
    exec(f"def f(x):\n    {pattern!r}\n    return x", namespace)  # its own code object
    f = tf.function(namespace["f"])
    n = 1
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="tensorflow"):
        for c in pattern:
            n += c == "T"
            f(tf.zeros([n]))
    return [w.split(" calls to ")[0] for w in _retracing_warnings(caplog)]


@pytest.mark.parametrize("pattern, expected", [
    ("TTTT", []),
    ("TNTNTNTNTNT", ["5 out of the last 9", "6 out of the last 11"]),
    ("TNNTNNTNNTNNTNN", ["5 out of the last 13"]),
    ("TNNNNNNNNNNTTTT", ["5 out of the last 15"]),
    ("TTTNNNNNNNTTT", []),  # the old traces fall out of the last calls counted
    ("TTNNNNNNNNNNNNNNNNNTTTTT", ["5 out of the last 22", "6 out of the last 23"]),
])
def test_the_retracing_warning_counts_recent_calls_as_tf_does(pattern, expected, caplog):
    assert _calls(pattern, caplog) == expected


def test_retracing_is_counted_by_the_python_function_not_the_tf_function(caplog):
    with caplog.at_level(logging.WARNING, logger="tensorflow"):
        for _ in range(6):
            @tf.function
            def h(x):
                return x
            h(tf.constant(1.0))
    warnings = _retracing_warnings(caplog)
    assert len(warnings) == 2 and "h was traced" not in warnings[0]


def test_no_retracing_warning_for_nested_calls_or_concrete_functions(caplog):
    @tf.function
    def inner(x):
        return x * 2

    @tf.function
    def outer(x):
        for i in range(6):
            inner(tf.zeros([i]))
        return x

    @tf.function
    def k(x):
        return x

    with caplog.at_level(logging.WARNING, logger="tensorflow"):
        outer(1.0)
        for i in range(6):
            k.get_concrete_function(tf.TensorSpec([i]))
        k(tf.zeros([7]))
    assert _retracing_warnings(caplog) == []


def test_functions_creating_variables_trace_twice_and_say_so():
    class Counter(tf.Module):
        def __init__(self):
            self.v = None

        @tf.function
        def __call__(self):
            if self.v is None:
                self.v = tf.Variable(0)
            return self.v.assign_add(1)

    c = Counter()
    assert c().numpy() == 1 and c().numpy() == 2
    f = type(c).__call__.__get__(c)
    assert f.experimental_get_tracing_count() == 2
    assert "traced again after creating variables" in f.experimental_explain_retracing()


def test_calls_are_bound_to_the_signature_before_keying():
    @tf.function
    def h(x, training=False, *, k=1):
        return x

    for args, kwargs in (((1,), {}), ((1, False), {}), ((1,), {"training": False, "k": 1}),
                         ((), {"x": 1}), ((1,), {"k": 1.0})):
        h(*args, **kwargs)
    assert h.experimental_get_tracing_count() == 1  # defaults filled in, 1.0 == 1
    h(1, True)
    h(1, 1)  # 1 == True: the same trace, as in TF
    assert h.experimental_get_tracing_count() == 2


def test_a_call_that_does_not_bind_is_tfs_type_error():
    @tf.function
    def h(x, training=False, *, k=1):
        return x

    with pytest.raises(TypeError) as info:
        h(1, 2, 3)
    assert str(info.value) == (
        "Binding inputs to tf.function failed due to `too many positional arguments`. Received "
        "args: (1, 2, 3) and kwargs: {} for signature: (x, training=<captured_default_value>, *, "
        "k=<captured_default_value>).")


def test_tracked_containers_share_a_trace_with_plain_ones():
    module = tf.Module()
    module.items = [tf.constant(1.0), {"b": tf.constant(2.0)}]
    traces = []

    @tf.function
    def total(items):
        traces.append(1)
        return items[0] + items[1]["b"]

    assert total(module.items).numpy() == 3.0
    assert total([tf.constant(4.0), {"b": tf.constant(5.0)}]).numpy() == 9.0
    assert len(traces) == 1


def test_numpy_scalars_are_passed_as_tensors():
    import numpy as np
    seen = []

    @tf.function
    def f(x):
        seen.append(tf.is_tensor(x))
        return x * 2

    out = f(np.float32(1.5))
    assert seen == [True] and out.dtype == tf.float32 and float(out) == 3.0
    assert int(f(np.float32(4.0))) == 8 and f.experimental_get_tracing_count() == 1
    assert f(np.int64(2)).dtype == tf.int64 and f.experimental_get_tracing_count() == 2


def test_objects_with_an_array_are_passed_as_tensors():
    # as TF passes a pandas Series: by its array's dtype and shape, one trace for each
    import numpy as np

    class Column:
        __hash__ = None

        def __init__(self, values):
            self.values = np.asarray(values)

        def __array__(self, dtype=None, copy=None):
            return self.values
    shapes = []

    @tf.function
    def f(x):
        shapes.append((x.dtype, tuple(x.shape)))
        return x * 2

    assert f(Column([1.0, 2.0])).numpy().tolist() == [2.0, 4.0]
    assert f(Column([3.0, 4.0])).numpy().tolist() == [6.0, 8.0]
    assert f({"a": Column([1, 2])}["a"]).dtype == tf.int64
    assert shapes == [(tf.float64, (2,)), (tf.int64, (2,))]
    g = tf.function(lambda d: d["a"] + 1)
    assert g({"a": Column([1.5])}).numpy().tolist() == [2.5]


def test_an_unhashable_argument_is_tfs_type_error():
    class Unhashable:
        __hash__ = None

    f = tf.function(lambda x: 1)
    with pytest.raises(TypeError, match="Could not generate a generic TraceType for"):
        f(Unhashable())


def test_explanation_shows_an_extension_types_fields_and_component_specs():
    class Pair(tf.experimental.ExtensionType):
        values: tf.Tensor
        label: str

    @tf.function
    def f(p):
        return p.values * 2

    f(Pair([1.0, 2.0], "x"))
    f(Pair([1.0, 2.0], "y"))
    lines = f.experimental_explain_retracing().splitlines()
    assert lines[2] == ("  2. p changed from Pair(label='x', TensorSpec(shape=(2,), "
                        "dtype=tf.float32, name=None)) to Pair(label='y', TensorSpec(shape=(2,), "
                        "dtype=tf.float32, name=None))")


def test_explanation_points_into_containers_and_tells_objects_apart():
    class Config:
        pass

    @tf.function
    def f(x, c=None, **options):
        return tf.constant(0)

    f([1, 2], {"a": 1}); f([1, 3], {"a": 1}); f([1, 3], {"a": 2}); f([1, 3], {"a": 2}, k=1)
    f([1, 3], {"a": 2}, k=2); f(Config()); f(Config())
    lines = f.experimental_explain_retracing().splitlines()
    assert lines[2:5] == ["  2. x[1] changed from int 2 to int 3",
                          "  3. c['a'] changed from int 1 to int 2",
                          "  4. arguments changed from 2 given to 3 given"]
    assert lines[5] == "  5. k changed from int 1 to int 2"
    assert lines[7] == "  7. x changed from Config object to another Config object"


class _FruitType(tf.types.experimental.TraceType):
    """The tracing protocol example of TF's "Better performance with tf.function" guide."""

    def __init__(self, fruit):
        self.fruit_type, self.fruit_value = type(fruit), fruit

    def is_subtype_of(self, other):
        return type(other) is _FruitType and self.fruit_type is other.fruit_type

    def most_specific_common_supertype(self, others):
        return self if all(self == other for other in others) else None

    def placeholder_value(self, placeholder_context=None):
        return self.fruit_value

    def __eq__(self, other):
        return type(other) is _FruitType and self.fruit_type == other.fruit_type

    def __hash__(self):
        return hash(self.fruit_type)


class _Fruit:
    def __tf_tracing_type__(self, context):
        return _FruitType(self)


def test_tracing_protocol_keys_traces_by_the_arguments_trace_type():
    class Apple(_Fruit):
        flavor = tf.constant([1, 2])

    class Mango(_Fruit):
        flavor = tf.constant([3, 4])

    traced = []

    @tf.function
    def mix(a, b):
        traced.append(type(a).__name__)
        return a.flavor + b.flavor

    assert mix(Apple(), Mango()).numpy().tolist() == [4, 6]
    Apple.flavor = tf.constant([1, 1])  # the same trace type: the trace (and its constant) stay
    assert mix(Apple(), Mango()).numpy().tolist() == [4, 6]
    assert mix(Mango(), Mango()).numpy().tolist() == [6, 8]
    assert traced == ["Apple", "Mango"] and mix.experimental_get_tracing_count() == 2
    assert isinstance(Apple(), tf.types.experimental.SupportsTracingProtocol)
    assert not isinstance(object(), tf.types.experimental.SupportsTracingProtocol)


def test_first_call_names_keyword_only_arguments_by_their_names():
    @tf.function
    def f(x, y=2, *, z=None):
        return x * y

    f(tf.constant(1.0))
    f(tf.constant(1.0), z=tf.constant(2.0))
    lines = f.experimental_explain_retracing().splitlines()
    assert lines[1] == ("  1. first call: x=TensorSpec(shape=(), dtype=tf.float32, name=None), "
                        "y=int 2, z=NoneType None")
    assert lines[2].startswith("  2. z changed from NoneType None to TensorSpec(shape=()")


def test_sparse_and_ragged_arguments_reuse_a_trace_of_a_relaxed_shape():
    traces = []

    @tf.function
    def f(x):
        traces.append(x.shape.as_list())
        return tf.sparse.to_dense(x)

    f.get_concrete_function(tf.SparseTensorSpec([None, 5], tf.float32))
    assert f(tf.sparse.SparseTensor([[0, 1]], [1.0], [2, 5])).shape == [2, 5]
    assert f(tf.sparse.SparseTensor([[0, 1]], [1.0], [3, 5])).shape == [3, 5]
    assert traces == [[None, 5]]

    traces.clear()

    @tf.function(reduce_retracing=True)
    def g(x):
        traces.append(x.shape.as_list())
        return tf.shape(tf.sparse.to_dense(x))

    for n in (2, 1, 3, 4):
        assert g(tf.sparse.SparseTensor([[0, 1]], [1.0], [n, 5])).numpy().tolist() == [n, 5]
    assert traces == [[2, 5], [None, 5]]  # (the relaxed trace knows no more than its shape)

    @tf.function
    def h(x):
        traces.append(x.shape.as_list())
        return tf.reduce_sum(x)

    traces.clear()
    h.get_concrete_function(tf.RaggedTensorSpec([None, None], tf.float32))
    assert h(tf.ragged.constant([[1.0], [2.0, 3.0]])).numpy() == 6.0
    assert traces == [[None, None]]


class _Inner(tf.experimental.ExtensionType):
    t: tf.Tensor
    n: int


class _Outer(tf.experimental.ExtensionType):
    inner: _Inner


def test_a_nested_extension_types_python_fields_key_the_trace():
    # (a trace made for n=2 once served n=3: 2.0 where TF gives 3.0)
    @tf.function
    def f(o):
        return o.inner.t * o.inner.n

    assert float(f(_Outer(_Inner(1.0, 2)))) == 2.0
    assert float(f(_Outer(_Inner(1.0, 3)))) == 3.0

    class Items(tf.experimental.ExtensionType):
        items: typing.Tuple[_Inner, ...]

    @tf.function
    def g(x):
        return x.items[0].t * x.items[0].n

    assert float(g(Items([_Inner(1.0, 2)]))) == 2.0
    assert float(g(Items([_Inner(1.0, 3)]))) == 3.0
    assert g.experimental_get_tracing_count() == 2


class _Shaped(tf.experimental.ExtensionType):
    x: tf.Tensor
    shape: tf.TensorShape = None


def test_a_trace_for_an_unknown_shape_field_serves_a_known_one():
    seen = []

    @tf.function
    def f(c):
        seen.append(c.shape)
        return c.x

    f(_Shaped(1.0))
    f(_Shaped(1.0, shape=[2]))  # TensorShape([2]) is a subtype of TensorShape(None), as in TF
    assert f.experimental_get_tracing_count() == 1
    f(_Shaped(1.0, shape=[None]))
    assert seen == [tf.TensorShape(None)]


def test_reduce_retracing_relaxes_a_shape_field_and_traces_with_the_relaxed_shape():
    seen = []

    @tf.function(reduce_retracing=True)
    def f(c):
        seen.append(c.shape)
        return c.x

    for n in (2, 3, 4):
        f(_Shaped(1.0, shape=[n]))  # (a field named "shape" made the relaxing fail)
    assert [s.as_list() for s in seen] == [[2], [None]]
    f(_Shaped(1.0, shape=[5, 1]))
    assert seen[-1].rank is None


def test_explanation_shows_nested_extension_type_fields():
    @tf.function
    def f(o):
        return o.inner.t

    f(_Outer(_Inner(1.0, 2)))
    f(_Outer(_Inner(1.0, 3)))
    lines = f.experimental_explain_retracing().splitlines()
    assert lines[2] == ("  2. o changed from _Outer(inner=_Inner(n=2), TensorSpec(shape=(), "
                        "dtype=tf.float32, name=None)) to _Outer(inner=_Inner(n=3), "
                        "TensorSpec(shape=(), dtype=tf.float32, name=None))")


def test_a_sparse_field_of_another_shape_traces_again():
    # (its shape was no part of the key: a trace made for (3, 2) served (4, 2))
    class Holder(tf.experimental.ExtensionType):
        sp: tf.SparseTensor

    @tf.function
    def rows(h):
        return h.sp.shape[0]

    assert int(rows(Holder(tf.sparse.SparseTensor([[0, 0]], [1.0], [3, 2])))) == 3
    assert int(rows(Holder(tf.sparse.SparseTensor([[0, 0]], [1.0], [4, 2])))) == 4

    seen = []

    @tf.function(reduce_retracing=True)
    def relaxed(h):
        seen.append(h.sp.shape.as_list())
        return tf.sparse.reduce_sum(h.sp)

    for n in (2, 3, 4):
        relaxed(Holder(tf.sparse.from_dense(tf.ones([n, 2]))))
    assert seen == [[2, 2], [None, 2]]


def test_calls_spanning_another_threads_trace_do_not_count_as_retracing(caplog):
    # Three calls of a traced signature are running while another thread traces a second
    # one: two traces in all, too few for the warning, however the calls interleave.
    started = threading.Barrier(4, timeout=30)  # the three running calls and the trace
    traced = threading.Barrier(4, timeout=30)
    tracer = []

    def hold(x):
        if tracer:
            started.wait()  # running while the other thread traces
            traced.wait()
        return x

    @tf.function
    def f(x):
        if tracer and threading.current_thread() is tracer[0]:
            started.wait()
        return tf.py_function(hold, [x], tf.float32) if x.shape[0] == 1 else x

    f(tf.ones([1]))  # traced here, on its own
    tracer.append(None)

    def trace_a_new_shape():
        tracer[0] = threading.current_thread()
        f(tf.ones([2]))
        traced.wait()

    def run(job):
        job()
    with caplog.at_level(logging.WARNING, logger="tensorflow"):
        in_threads(run, [(lambda: f(tf.ones([1])),)] * 3 + [(trace_a_new_shape,)])
        for _ in range(3):
            f(tf.ones([2]))
    assert f.experimental_get_tracing_count() == 2
    assert _retracing_warnings(caplog) == []

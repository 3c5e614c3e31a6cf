"""``tf.raw_ops``: every op by TF's name with TF's keyword arguments, against TF's recorded
signatures and results (`data/make_raw_ops_data.py`, samples in `raw_ops_programs.py`)."""
import ast
import inspect
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import eagerflow as tf

from tests.compat.raw_ops_programs import gradients, samples
from tests.internals import registry

with open(os.path.join(os.path.dirname(__file__), "data", "raw_ops.json")) as _f:
    RECORDED = json.load(_f)
SIGNATURES = RECORDED["signatures"]
RESULTS = RECORDED["results"]
SAMPLES = samples(tf)


def _input_names(name):
    params = inspect.signature(getattr(tf.raw_ops, name)).parameters
    return [p for p in params if p not in ("name", "attrs")]


@pytest.mark.parametrize("name", sorted(SIGNATURES))
def test_argument_names_are_tfs(name):
    want = SIGNATURES[name]
    assert want is not None, f"TF has no raw op {name}"
    assert _input_names(name) == [a.lstrip("*") for a in want["args"]]
    assert getattr(tf.raw_ops, name).__name__ == want["function"]


# Ops of TF's names whose eagerflow ops take other inputs than TF's: no raw ops
UNLIKE_TF = {
    **dict.fromkeys(["AnonymousIteratorV3", "MakeIterator", "IteratorGetNext",
                     "IteratorGetNextAsOptional", "OptionalGetValue", "OptionalHasValue",
                     "OptionalFromValue", "OptionalNone",
                     "DatasetCardinality", "DatasetToSingleElement",
                     "IteratorToStringHandle", "IteratorFromStringHandleV2", "BindDataset"],
                    "datasets and iterators are Python objects, not variant tensors"),
    **dict.fromkeys(["WriteSummary", "WriteRawProtoSummary", "FlushSummaryWriter",
                     "CloseSummaryWriter"],
                    "the summary writer is an attr, not a resource input"),
    **dict.fromkeys(["EagerPyFunc", "PyFunc", "PyFuncStateless"],
                    "the token names a function of eagerflow's own table"),
    **dict.fromkeys(["StatefulUniformFullInt", "StatefulRandomBinomial"],
                    "a Generator's state is not a resource variable"),
    "StatelessShuffle": "it takes a seed where TF's takes key, counter and alg",
    "MatrixSolveLs": "it solves exactly, without TF's l2_regularizer input and fast attr",
    "InitializeTableFromTextFileV2": "the table is a Python object, not a resource",
    **dict.fromkeys(["QueueEnqueueV2", "QueueEnqueueManyV2", "QueueDequeueV2",
                     "QueueDequeueManyV2", "QueueDequeueUpToV2", "QueueCloseV2", "QueueSizeV2",
                     "QueueIsClosedV2"], "the queue is a Python object, not a resource"),
    **dict.fromkeys(["ReaderReadV2", "ReaderReadUpToV2", "ReaderResetV2",
                     "ReaderNumRecordsProducedV2", "ReaderNumWorkUnitsCompletedV2"],
                    "the reader and its queue are Python objects, not resources"),
    "ResourceCountUpTo": "it takes the variable where TF's takes its resource handle",
    **dict.fromkeys(["MutexLock", "ConsumeMutexLock"],
                    "a critical section's mutex is a Python object, not a resource"),
    **dict.fromkeys(["ResourceAccumulatorApplyGradient", "ResourceAccumulatorTakeGradient",
                     "ResourceAccumulatorSetGlobalStep", "ResourceAccumulatorNumAccumulated",
                     "SparseAccumulatorApplyGradient", "SparseAccumulatorTakeGradient"],
                    "the accumulator is a Python object, not a resource"),
}


def test_every_registered_op_tf_has_is_listed():
    listed = set(dir(tf.raw_ops))
    assert listed == set(SIGNATURES), (
        f"ops without TF's recorded signature: {sorted(listed - set(SIGNATURES))} (declare "
        f"tf_args, rerun tests/compat/data/make_raw_ops_data.py with TF); recorded ops not "
        f"listed: {sorted(set(SIGNATURES) - listed)}")
    registered = {n for n in registry.all_ops() if not n.startswith("_")}
    assert listed == registered & set(RECORDED["tf_ops"]) - set(UNLIKE_TF)
    for name in sorted(registered - listed):  # eagerflow's own ops: TF has none of the name
        with pytest.raises(AttributeError, match="does not implement"):
            getattr(tf.raw_ops, name)


def _check(got, want, where):
    if want is None:
        assert got is None, where
    elif "fields" in want:
        assert type(got).__name__ == where.split(":")[0] and list(got._fields) == want["fields"]
        for g, w, field in zip(got, want["values"], want["fields"]):
            _check(g, w, f"{where}.{field}")
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), where
        for k, (g, w) in enumerate(zip(got, want)):
            _check(g, w, f"{where}[{k}]")
    else:
        assert isinstance(got, tf.Tensor), where
        assert (got.dtype.name, list(got.shape)) == (want["dtype"], want["shape"]), where
        array = np.asarray(got.numpy(), dtype=object if got.dtype == tf.string else None)
        if array.dtype == object:
            assert np.array([b.decode("latin-1") for b in array.reshape(-1)],
                            dtype=object).reshape(array.shape).tolist() == want["value"], where
        elif array.dtype.kind == "c":
            np.testing.assert_allclose(array.real, want["value"][0], rtol=2e-5, atol=1e-6,
                                       err_msg=where)
            np.testing.assert_allclose(array.imag, want["value"][1], rtol=2e-5, atol=1e-6,
                                       err_msg=where)
        else:
            np.testing.assert_allclose(array.astype(np.float64), want["value"], rtol=2e-5,
                                       atol=1e-6, err_msg=where)


@pytest.mark.parametrize("name", sorted(RESULTS))
def test_sample_gives_tfs_result(name):
    want = RESULTS[name]
    sample = SAMPLES[name]
    call = sample if callable(sample) else lambda: getattr(tf.raw_ops, name)(**sample)
    if isinstance(want, dict) and "error" in want:
        with pytest.raises(getattr(tf.errors, want["error"], None) or Exception):
            call()
        return
    _check(call(), want, name)


@pytest.mark.parametrize("name", sorted(n for n, s in SAMPLES.items() if not callable(s)))
def test_sample_in_a_function_gives_tfs_result(name):
    kwargs = SAMPLES[name]

    def call():
        out = getattr(tf.raw_ops, name)(**kwargs)
        # (an op without outputs gives its Operation in a graph, as TF's: not returned)
        return None if isinstance(out, tf.Operation) else out
    got = tf.function(call)()
    _check(got, RESULTS[name], name)


# Gradients eagerflow computes otherwise than TF, reached through a raw op only
GRADIENTS_DIFFER = {}


@pytest.mark.parametrize("name", [
    pytest.param(n, marks=pytest.mark.xfail(strict=True, reason=GRADIENTS_DIFFER[n]))
    if n in GRADIENTS_DIFFER else n
    for n, g in sorted(RECORDED["gradients"].items()) if "error" not in g])
def test_sample_gradient_is_tfs(name):
    got = gradients(tf, name, SAMPLES[name])
    for arg, want in RECORDED["gradients"][name].items():
        _check(got[arg], want, f"{name}: d/d{arg}")


def _tf_defaults(name):
    """TF's attrs of raw op `name` that have defaults, at those defaults."""
    out = {}
    for attr, default in SIGNATURES[name]["attrs"]:
        if default is not None:
            out[attr] = getattr(tf, default[3:]) if default.startswith("tf.") else \
                ast.literal_eval(default)
    return out


@pytest.mark.parametrize("name", sorted(
    n for n, s in SAMPLES.items() if not callable(s) and set(_tf_defaults(n)) - set(s)))
def test_attrs_given_at_tfs_defaults_change_nothing(name):
    sample = SAMPLES[name]
    given = {k: v for k, v in _tf_defaults(name).items() if k not in sample}
    _check(getattr(tf.raw_ops, name)(**sample, **given), RESULTS[name], name)


def test_keyword_arguments_only():
    with pytest.raises(TypeError, match=r"add_v2 only takes keyword args \(possible keys: "
                                        r"\['x', 'y', 'name'\]\)"):
        tf.raw_ops.AddV2(1.0, 2.0)
    with pytest.raises(TypeError, match=r"mat_mul\(\) missing 1 required positional argument: "
                                        r"'b'"):
        tf.raw_ops.MatMul(a=[[1.0]])
    with pytest.raises(TypeError, match=r"missing 2 required positional arguments: 'values' "
                                        r"and 'axis'"):
        tf.raw_ops.ConcatV2()
    with pytest.raises(TypeError, match=r"mat_mul\(\) got an unexpected keyword argument 'foo'"):
        tf.raw_ops.MatMul(a=[[1.0]], b=[[2.0]], foo=True)


def test_attrs_without_a_default_are_required_arguments():
    # TF's raw ops take an attr without a default as a required argument after the inputs
    with pytest.raises(TypeError, match=r"^split\(\) missing 2 required positional arguments: "
                                        r"'axis' and 'num_split'$"):
        tf.raw_ops.Split(value=[1, 2])
    with pytest.raises(TypeError, match=r"^bucketize\(\) missing 1 required positional "
                                        r"argument: 'boundaries'$"):
        tf.raw_ops.Bucketize(input=[1.0])


def test_attrs_left_out_take_tfs_defaults():
    assert tf.raw_ops.SobolSample(dim=1, num_results=2, skip=0).dtype == tf.float32
    assert tf.raw_ops.UnsortedSegmentJoin(inputs=["a", "b", "c"], segment_ids=[0, 1, 0],
                                          num_segments=2).numpy().tolist() == [b"ac", b"b"]
    splits, chars = tf.raw_ops.UnicodeDecode(input=["ab\xff", "\xe9"], input_encoding="UTF-8")
    assert splits.numpy().tolist() == [0, 3, 4] and chars.numpy().tolist() == [97, 98, 255, 233]


def test_name_and_attrs_with_defaults():
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    np.testing.assert_array_equal(tf.raw_ops.MatMul(a=x, b=x, transpose_a=True, name="m"),
                                  tf.matmul(x, x, transpose_a=True))
    np.testing.assert_array_equal(tf.raw_ops.MatMul(a=x, b=x), tf.matmul(x, x))
    kept = tf.raw_ops.Sum(input=x, axis=[1], keep_dims=True)
    assert kept.shape == (2, 1)
    assert tf.raw_ops.Unique(x=[1, 1], out_idx=tf.int64).idx.dtype == tf.int64


def test_list_inputs():
    a, b = tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0])
    np.testing.assert_array_equal(tf.raw_ops.AddN(inputs=[a, b, a]), [5.0, 8.0])
    np.testing.assert_array_equal(tf.raw_ops.ConcatV2(values=(a, [5.0]), axis=0),
                                  [1.0, 2.0, 5.0])
    with pytest.raises(TypeError, match="Expected list for 'inputs' argument to 'AddN' Op"):
        tf.raw_ops.AddN(inputs=a)


def test_errors_end_with_the_name_unless_an_input_is_a_python_list():
    # as TF: a list (or a list inside a list input) sends the op down its slower path,
    # whose errors do not end with " name: "; tensors and Python scalars do not
    a = tf.constant([1.0, 2.0])
    cases = [(lambda: tf.raw_ops.MatMul(a=[[1.0, 2.0]], b=[[1.0, 2.0]]), False),
             (lambda: tf.raw_ops.MatMul(a=tf.ones((1, 2)), b=tf.ones((1, 2))), True),
             (lambda: tf.raw_ops.ConcatV2(values=(a, [5.0]), axis=3), False),
             (lambda: tf.raw_ops.ConcatV2(values=(a, a), axis=3), True),
             (lambda: tf.raw_ops.Reshape(tensor=a, shape=(3,)), False),
             (lambda: tf.raw_ops.Reshape(tensor=a, shape=3), True)]
    for call, named in cases:
        with pytest.raises(tf.errors.InvalidArgumentError) as info:
            call()
        assert str(info.value).endswith("] name: ") is named, str(info.value)


def test_operands_take_the_dtype_of_a_tensor_given():
    got = tf.raw_ops.Mul(x=tf.constant([1.5], tf.float64), y=2)
    assert got.dtype == tf.float64
    with pytest.raises(TypeError, match="Cannot convert 2.5 to EagerTensor of dtype int32"):
        tf.raw_ops.Mul(x=[1, 2], y=2.5)


def test_several_outputs_are_a_namedtuple():
    y, idx = tf.raw_ops.Unique(x=[3, 3, 1])
    assert repr(tf.raw_ops.Unique(x=[3, 3, 1])).startswith("Unique(y=<tf.Tensor")
    np.testing.assert_array_equal(y, [3, 1])
    top = tf.raw_ops.TopKV2(input=[1.0, 3.0, 2.0], k=2)
    np.testing.assert_array_equal(top.values, [3.0, 2.0])
    np.testing.assert_array_equal(top.indices, [1, 2])
    assert isinstance(tf.raw_ops.Split(axis=0, value=[1, 2], num_split=2), list)


def test_gradients_flow_through_raw_ops():
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    v = tf.Variable([1.0, -2.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.raw_ops.Sum(input=tf.raw_ops.MatMul(a=x, b=x, transpose_b=True), axis=[0, 1])
        z = tf.raw_ops.ConcatV2(values=[v * 2.0, x[0]], axis=0)
    with tf.GradientTape(persistent=True) as want:
        want.watch(x)
        y2 = tf.reduce_sum(tf.matmul(x, x, transpose_b=True))
        z2 = tf.concat([v * 2.0, x[0]], 0)
    np.testing.assert_allclose(tape.gradient(y, x), want.gradient(y2, x))
    np.testing.assert_allclose(tape.gradient(z, v), want.gradient(z2, v))

    @tf.function
    def grad(x):
        with tf.GradientTape() as t:
            t.watch(x)
            out = tf.raw_ops.Tanh(x=x)
        return t.gradient(out, x)
    np.testing.assert_allclose(grad(x), 1.0 - np.tanh(x.numpy()) ** 2, rtol=1e-6)


def test_in_a_function_with_unknown_dims():
    @tf.function(input_signature=[tf.TensorSpec([None, None], tf.float32)])
    def f(x):
        return tf.raw_ops.Reshape(tensor=x, shape=[-1]), tf.raw_ops.Sum(input=x, axis=1)
    flat, total = f(tf.constant([[1.0, 2.0], [3.0, 4.0]]))
    np.testing.assert_array_equal(flat, [1.0, 2.0, 3.0, 4.0])
    np.testing.assert_array_equal(total, [3.0, 7.0])


def test_variables_through_their_handles():
    v = tf.Variable([1.0, 2.0])
    assert tf.raw_ops.AssignAddVariableOp(resource=v.handle, value=[1.0, 1.0]) is None
    np.testing.assert_array_equal(v, [2.0, 3.0])
    with tf.GradientTape() as tape:
        y = tf.raw_ops.ReadVariableOp(resource=v.handle, dtype=tf.float32) * [3.0, 4.0]
    np.testing.assert_array_equal(tape.gradient(y, v), [3.0, 4.0])

    @tf.function
    def step():
        tf.raw_ops.AssignVariableOp(resource=v.handle, value=[5.0, 6.0])
        return tf.raw_ops.ReadVariableOp(resource=v.handle, dtype=tf.float32)
    np.testing.assert_array_equal(step(), [5.0, 6.0])
    np.testing.assert_array_equal(v, [5.0, 6.0])
    # a variable given for a tensor is read, as TF converts it
    np.testing.assert_array_equal(tf.raw_ops.AddV2(x=v, y=1.0), [6.0, 7.0])


def test_dtype_attrs_by_name():
    np.testing.assert_array_equal(tf.raw_ops.Cast(x=[1.5, 2.5], DstT="int32"), [1, 2])
    assert tf.raw_ops.Cast(x=[1], DstT=np.float64).dtype == tf.float64
    assert tf.raw_ops.StringJoin(inputs=["a", "b"], separator="T").numpy() == b"aTb"


def test_ops_eagerflow_lacks_raise_attribute_error():
    with pytest.raises(AttributeError, match="eagerflow does not implement the op Abort yet"):
        tf.raw_ops.Abort  # noqa: B018
    with pytest.raises(AttributeError, match="has no attribute 'not_an_op'"):
        tf.raw_ops.not_an_op  # noqa: B018
    assert not hasattr(tf.raw_ops, "_FusedMatMul")


def test_import_eagerflow_does_not_load_raw_ops():
    code = ("import sys, eagerflow as tf; "
            "loaded = lambda: any(m.endswith('compat.raw_ops') for m in sys.modules); "
            "assert not loaded(); tf.raw_ops.AddV2; assert loaded()")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    subprocess.run([sys.executable, "-c", code], check=True, env=env)


def test_control_flow_takes_concrete_functions_in_a_function():
    spec = tf.TensorSpec([], tf.float32)
    plus = tf.function(lambda x: x + 1.0).get_concrete_function(spec)
    minus = tf.function(lambda x: x - 1.0).get_concrete_function(spec)

    @tf.function
    def pick(x):
        return tf.raw_ops.If(cond=x > 0, input=[x], Tout=[tf.float32], then_branch=plus,
                             else_branch=minus)[0]
    assert float(pick(tf.constant(3.0))) == 4.0
    assert float(pick(tf.constant(-3.0))) == -4.0

    below = tf.function(lambda i, x: i < 3).get_concrete_function(
        tf.TensorSpec([], tf.int32), spec)
    twice = tf.function(lambda i, x: (i + 1, x * 2.0)).get_concrete_function(
        tf.TensorSpec([], tf.int32), spec)
    x = tf.constant(1.5)
    with tf.GradientTape() as tape:
        tape.watch(x)
        _, y = tf.raw_ops.While(input=[tf.constant(0), x], cond=below, body=twice)
    assert float(y) == 12.0
    assert float(tape.gradient(y, x)) == 8.0


def test_name_names_the_node_in_a_graph():
    fn = tf.function(lambda x: tf.raw_ops.AddV2(x=x, y=1.0, name="plus_one"))
    graph = fn.get_concrete_function(tf.TensorSpec([2], tf.float32)).graph
    assert "plus_one" in [op.name for op in graph.get_operations()]


def test_in_a_tf1_graph_and_session():
    tf1 = tf.compat.v1
    assert tf1.raw_ops.AddV2 is tf.raw_ops.AddV2
    with tf1.Graph().as_default():
        x = tf1.placeholder(tf.float32, [2])
        y = tf1.raw_ops.Mul(x=x, y=3.0)
        unique = tf1.raw_ops.Unique(x=[1, 1, 2])
        with tf1.Session() as session:
            got, ys = session.run([y, unique.y], {x: [1.0, 2.0]})
    assert got.tolist() == [3.0, 6.0] and ys.tolist() == [1, 2]


def test_an_output_type_attr_other_than_the_kernels_fails_as_tfs():
    z = tf.constant([3 + 4j], tf.complex128)
    assert tf.raw_ops.ComplexAbs(x=z, Tout=tf.float64).numpy().tolist() == [5.0]
    for call in (lambda: tf.raw_ops.Real(input=z, Tout=tf.float32),
                 lambda: tf.raw_ops.Angle(input=z, Tout=tf.float32),
                 lambda: tf.raw_ops.ComplexAbs(x=tf.constant([1j], tf.complex64),
                                               Tout=tf.float64)):
        with pytest.raises(tf.errors.NotFoundError, match="Could not find device for node"):
            call()
    with pytest.raises(tf.errors.NotFoundError,
                       match=r"Imag\[T=DT_COMPLEX128, Tout=DT_FLOAT\]"):
        tf.raw_ops.Imag(input=z, Tout=tf.float32)
    # an attr the op takes as its own is kept (its argmax in int32, as asked)
    _, argmax = tf.raw_ops.MaxPoolWithArgmax(
        input=tf.ones([1, 2, 2, 1]), ksize=[1, 2, 2, 1], strides=[1, 1, 1, 1],
        padding="VALID", Targmax=tf.int32)
    assert argmax.dtype == tf.int32


def test_required_attrs_not_given_are_tfs_type_error():
    with pytest.raises(TypeError, match=r"bucketize\(\) missing 1 required positional "
                                        r"argument: 'boundaries'"):
        tf.raw_ops.Bucketize(input=[1.0])
    with pytest.raises(TypeError, match=r"depth_to_space\(\) missing 2 required positional "
                                        r"arguments: 'input' and 'block_size'"):
        tf.raw_ops.DepthToSpace()

"""nn ops: TensorFlow's errors and edge cases, composites, dropout, lookups, shape rules."""
import warnings

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import eagerflow as tf
from eagerflow import errors, TensorShape
from tests.internals import nn_ops as n
from tests import internals

F32, F64 = np.float32, np.float64


def _needs(module, *names):
    mod = getattr(internals, module)
    missing = [name for name in names if not hasattr(mod, name)]
    if missing:
        pytest.skip(f"{module} lacks {missing}")


# ----------------------------------------------------------------------------- activations

def test_activations_do_not_overflow_or_warn():
    x = tf.constant([-1000.0, -1.0, 0.0, 1000.0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        np.testing.assert_allclose(tf.nn.elu(x).numpy(), [-1, np.expm1(-1), 0, 1000], rtol=1e-6)
        assert np.isfinite(tf.nn.selu(x).numpy()).all()
        np.testing.assert_allclose(tf.math.log_softmax(tf.constant([1.0, 1000.0])).numpy(),
                                   [-999, 0])
        np.testing.assert_allclose(tf.math.softmax(tf.constant([0.0, 1000.0])).numpy(), [0, 1])


def test_relu_family_dtypes():
    assert tf.nn.relu(tf.constant([1, 2], tf.uint8)).dtype == tf.uint8
    np.testing.assert_array_equal(tf.nn.relu6(tf.constant([1, 9], tf.uint8)).numpy(), [1, 6])
    leaky = tf.nn.leaky_relu(tf.constant([-1, 7]))
    assert leaky.dtype == tf.float32
    np.testing.assert_allclose(leaky.numpy(), [-0.2, 7])
    assert tf.nn.leaky_relu(tf.constant([-1.0], tf.float16)).dtype == tf.float16
    with pytest.raises(errors.InvalidArgumentError, match="Value for attr 'T' of bool"):
        tf.nn.relu(tf.constant([True]))
    with pytest.raises(errors.InvalidArgumentError, match="Value for attr 'T' of int32"):
        tf.nn.elu(tf.constant([1]))


def test_relu_grad_needs_same_shapes_and_keeps_the_dtype():
    with pytest.raises(errors.InvalidArgumentError, match="must have the same size and shape"):
        n.relu_grad(tf.constant([1.0]), tf.constant([1.0, -1.0]))
    got = n.relu_grad(tf.constant([5, 6, 7], tf.uint8), tf.constant([0, 1, 2], tf.uint8))
    assert got.dtype == tf.uint8
    np.testing.assert_array_equal(got.numpy(), [0, 6, 7])
    half = n.relu_grad(tf.constant([2.0, 3.0], tf.bfloat16), tf.constant([-1.0, 1.0], tf.bfloat16))
    assert half.dtype == tf.bfloat16 and half.numpy().tolist() == [0, 3]


def test_activation_argument_errors():
    with pytest.raises(TypeError, match="Expected float for argument 'alpha'"):
        tf.nn.leaky_relu(tf.constant([1.0]), tf.constant(0.5))
    with pytest.raises(ValueError, match=r"`features.dtype` must be a floating point tensor."
                                         r"Received:features.dtype=<dtype: 'int32'>"):
        tf.nn.gelu(tf.constant([1]))
    with pytest.raises(errors.InvalidArgumentError, match="Sigmoid"):
        tf.nn.swish(tf.constant([1, 2]))
    assert tf.nn.swish is tf.nn.silu


def test_silu_beta_takes_the_features_dtype():
    got = tf.nn.silu(tf.constant([-1.0, 9.0], tf.float64), 2.0)
    assert got.dtype == tf.float64
    np.testing.assert_allclose(got.numpy(), [-0.11920292, 8.99999986], rtol=1e-7)


# ----------------------------------------------------------------------------- softmax

@settings(max_examples=40, deadline=None)
@given(x=hnp.arrays(F64, hnp.array_shapes(min_dims=1, max_dims=3, max_side=4),
                    elements=st.floats(-50, 50)), data=st.data())
def test_softmax_properties(x, data):
    axis = data.draw(st.integers(-x.ndim, x.ndim - 1))
    p = tf.math.softmax(x, axis).numpy()
    np.testing.assert_allclose(p.sum(axis), 1)
    np.testing.assert_allclose(tf.math.log_softmax(x, axis).numpy(), np.log(p), atol=1e-9)
    np.testing.assert_allclose(tf.math.softmax(x + 7.5, axis).numpy(), p, atol=1e-12)


def test_softmax_errors_and_edges():
    x = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    with pytest.raises(errors.InvalidArgumentError,
                       match=r"`dim` must be in the range \[-2, 2\) where 2 is the number of "
                             r"dimensions in the input. Received: dim=5"):
        tf.math.softmax(x, axis=5)
    with pytest.raises(errors.InvalidArgumentError,
                       match=r"logits must have >= 1 dimension, got \[\] \[Op:Softmax\]"):
        tf.math.softmax(tf.constant(1.0))
    with pytest.raises(errors.InvalidArgumentError, match="Value for attr 'T' of int32"):
        tf.math.softmax(tf.constant([1, 2]))
    assert tf.math.softmax(np.zeros((2, 0), F32)).shape == (2, 0)
    np.testing.assert_allclose(tf.math.softmax(x, axis=tf.constant(0)).numpy(),
                               tf.math.softmax(x, axis=-2).numpy())
    half = tf.math.softmax(tf.constant([1.0, 2.0, 30.0], tf.float16))
    assert half.dtype == tf.float16
    np.testing.assert_array_equal(half.numpy(), [0, 0, 1])


# ----------------------------------------------------------------------------- bias_add

def test_bias_add_formats_and_errors():
    ones = np.ones((1, 2, 3), F32)
    for fmt in ("NCHW", "NCW", "NC"):
        np.testing.assert_array_equal(tf.nn.bias_add(ones, [1.0, 2.0], data_format=fmt).numpy(),
                                      [[[2, 2, 2], [3, 3, 3]]])
    np.testing.assert_array_equal(tf.nn.bias_add(ones, [1.0, 2.0, 3.0], "NWC").numpy(),
                                  [[[2, 3, 4]] * 2])
    np.testing.assert_array_equal(tf.nn.bias_add(np.ones((2, 3), F32), [1.0, 2.0, 3.0], "NCHW"),
                                  [[2, 3, 4]] * 2)
    with pytest.raises(ValueError, match="`data_format` must be of the form `N...C` or `NC...`. "
                                         "Received: data_format=HWC"):
        tf.nn.bias_add(ones, [1.0], data_format="HWC")
    with pytest.raises(errors.InvalidArgumentError,
                       match=r"Must provide as many biases as the last dimension of the input "
                             r"tensor: \[2\] vs. \[2,3\] \[Op:BiasAdd\]"):
        tf.nn.bias_add(np.ones((2, 3), F32), [1.0, 2.0])
    with pytest.raises(errors.InvalidArgumentError, match=r"Biases must be 1D: \[1,3\]"):
        tf.nn.bias_add(np.ones((2, 3), F32), [[1.0, 2.0, 3.0]])
    with pytest.raises(errors.InvalidArgumentError,
                       match=r"Input tensor must be at least 2D: \[2\]"):
        tf.nn.bias_add(np.ones(2, F32), [1.0, 2.0])
    with pytest.raises(TypeError, match="Cannot convert"):
        tf.nn.bias_add(tf.constant([[1, 2]]), [1.0, 2.0])


def test_bias_add_grad_formats_errors_and_tape():
    dy = np.arange(24, dtype=F32).reshape(2, 3, 4)
    np.testing.assert_array_equal(n.bias_add_grad(dy).numpy(), dy.sum((0, 1)))
    np.testing.assert_array_equal(n.bias_add_grad(dy, "NCHW").numpy(), dy.sum((0, 2)))
    np.testing.assert_array_equal(n.bias_add_grad(dy[0], "NCHW").numpy(), dy[0].sum(0))
    with pytest.raises(errors.InvalidArgumentError,
                       match=r"Input tensor must be at least 2D: \[2\] \[Op:BiasAddGrad\]"):
        n.bias_add_grad(np.ones(2, F32))
    bias = tf.constant([1.0, 2.0, 3.0, 4.0])
    with tf.GradientTape() as tape:
        tape.watch(bias)
        y = tf.nn.bias_add(dy, bias) * 2.0
    np.testing.assert_array_equal(tape.gradient(y, bias).numpy(), [12.0] * 4)

    def grad(x, b):  # TF's graph: the bias gradient is one BiasAddGrad
        with tf.GradientTape() as tape:
            tape.watch(b)
            y = tf.nn.bias_add(x, b)
        return tape.gradient(y, b)

    graph = tf.function(grad).get_concrete_function(tf.TensorSpec([None, 3], tf.float32),
                                                    tf.TensorSpec([3], tf.float32)).graph
    assert "BiasAddGrad" in [op.type for op in graph.get_operations()]


# ----------------------------------------------------------------------------- losses

def test_softmax_cross_entropy_semantics():
    labels = [[0.0, 1.0, 0.0], [0.5, 0.5, 0.0]]
    logits = tf.constant([[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]])
    np.testing.assert_allclose(tf.nn.softmax_cross_entropy_with_logits(labels, logits).numpy(),
                               [1.4076059, 1.0986123], rtol=1e-6)
    as_f64 = tf.nn.softmax_cross_entropy_with_logits([[0, 1]],
                                                     tf.constant([[1.0, 2.0]], tf.float64))
    assert as_f64.dtype == tf.float64  # labels take the logits' dtype
    assert tf.nn.softmax_cross_entropy_with_logits([0.0, 1.0], [1.0, 2.0]).shape == ()
    half = tf.nn.softmax_cross_entropy_with_logits(tf.constant([[0.0, 1.0]], tf.float16),
                                               tf.constant([[1.0, 20.0]], tf.float16))
    assert half.dtype == tf.float16 and half.numpy()[0] == 0
    with pytest.raises(errors.InvalidArgumentError,
                       match=r"logits and labels must be broadcastable: logits_size=\[2,3\] "
                             r"labels_size=\[2,2\]"):
        tf.nn.softmax_cross_entropy_with_logits([[0.0, 1.0], [1.0, 0.0]], logits)


def test_sparse_softmax_cross_entropy_errors():
    logits = np.zeros((3, 3), F32)
    for labels, bad in [([5, 0, 1], 5), ([0, 5, -1], -1), ([0, -1, 5], -1)]:
        values = " ".join(map(str, labels))
        with pytest.raises(errors.InvalidArgumentError,
                           match=rf"Received a label value of {bad} which is outside the valid "
                                 rf"range of \[0, 3\).  Label values: {values} "
                                 r"\[Op:SparseSoftmaxCrossEntropyWithLogits\]"):
            tf.nn.sparse_softmax_cross_entropy_with_logits(labels, logits)
    with pytest.raises(errors.InvalidArgumentError,
                       match="Value for attr 'Tlabels' of float is not in the list of allowed "
                             "values: int32, int64"):
        tf.nn.sparse_softmax_cross_entropy_with_logits([1.0, 0.0, 0.0], logits)
    with pytest.raises(ValueError, match=r"`labels.shape.rank` must equal `logits.shape.rank - "
                                         r"1`. Received: labels.shape=\(1, 3\) of rank 2 and "
                                         r"logits.shape=\(3, 3\) of rank 2"):
        tf.nn.sparse_softmax_cross_entropy_with_logits([[2, 0, 1]], logits)
    with pytest.raises(ValueError, match=r"`labels.shape` must equal `logits.shape` except for "
                                         r"the last dimension. Received: labels.shape=\(2,\) "
                                         r"and logits.shape=\(3, 3\)"):
        tf.nn.sparse_softmax_cross_entropy_with_logits([2, 0], logits)
    with pytest.raises(ValueError, match="`logits` cannot be a scalar. Received logits=2.0"):
        tf.nn.sparse_softmax_cross_entropy_with_logits(1, 2.0)
    with pytest.raises(errors.InvalidArgumentError,
                       match=r"Must have at least one class, but got logits shape \[2,0\]"):
        tf.nn.sparse_softmax_cross_entropy_with_logits([0, 0], np.zeros((2, 0), F32))


def test_sparse_softmax_cross_entropy_op_checks_labels_against_logits():
    # the raw op, as Keras's sparse loss reaches it with one-hot labels flattened: TF's
    # kernel and shape function words, not an indexing error
    xent = tf.raw_ops.SparseSoftmaxCrossEntropyWithLogits
    logits = tf.ones([10, 3])
    for labels, message in [
            (tf.zeros([30], tf.int32), r"logits and labels must have the same first dimension, "
                                       r"got logits shape \[10,3\] and labels shape \[30\]"),
            (tf.zeros([10, 1], tf.int32), r"labels must be 1-D, but got shape \[10,1\]")]:
        with pytest.raises(errors.InvalidArgumentError,
                           match=message + r" \[Op:SparseSoftmaxCrossEntropyWithLogits\]"):
            xent(features=logits, labels=labels)
    for labels, message in [
            (tf.TensorSpec([30], tf.int32), r"Dimensions must be equal, but are 10 and 30 for "
                                            r"'\{\{node SparseSoftmaxCrossEntropyWithLogits\}\}"),
            (tf.TensorSpec([10, 1], tf.int32), r"Shape must be rank 1 but is rank 2 for "
                                               r"'\{\{node SparseSoftmaxCrossEntropyWithLogits")]:
        with pytest.raises(ValueError, match=message):
            tf.function(lambda f, l: xent(features=f, labels=l)).get_concrete_function(
                tf.TensorSpec([10, 3]), labels)
    run_time = tf.function(lambda f, l: xent(features=f, labels=l).loss,
                           input_signature=[tf.TensorSpec([None, 3]),
                                            tf.TensorSpec([None], tf.int32)])
    with pytest.raises(errors.InvalidArgumentError, match="must have the same first dimension"):
        run_time(logits, tf.zeros([30], tf.int32))


def _op_types(fn, *specs):
    return {op.type for op in tf.function(fn).get_concrete_function(*specs).graph
            .get_operations()}


def test_cross_entropy_gradients_skip_the_unused_backprop_output():
    # Only second derivatives reach the ops' backprop output: first ones make no softmax.
    logits_spec = tf.TensorSpec([4, 3], tf.float32)

    def sparse(logits):
        with tf.GradientTape() as tape:
            tape.watch(logits)
            loss = tf.nn.sparse_softmax_cross_entropy_with_logits([0, 1, 2, 0], logits)
        return tape.gradient(loss, logits)

    def dense(logits):
        with tf.GradientTape() as tape:
            tape.watch(logits)
            loss = tf.nn.softmax_cross_entropy_with_logits(tf.one_hot([0, 1, 2, 0], 3), logits)
        return tape.gradient(loss, logits)
    for fn in (sparse, dense):
        types = _op_types(fn, logits_spec)
        assert "Softmax" not in types and "LogSoftmax" not in types


@pytest.mark.parametrize("sparse", [True, False])
def test_cross_entropy_second_derivatives(sparse):
    rng = np.random.default_rng(0)
    logits = tf.constant(rng.normal(size=(3, 4)))
    labels = tf.constant([1, 3, 0]) if sparse else tf.constant(rng.dirichlet(np.ones(4), 3))
    xent = (tf.nn.sparse_softmax_cross_entropy_with_logits if sparse
            else tf.nn.softmax_cross_entropy_with_logits)

    def first(x):  # a gradient's norm: differentiating it reads the backprop output
        with tf.GradientTape() as tape:
            tape.watch(x)
            loss = tf.reduce_sum(xent(labels, x) * tf.constant([1.0, 2.0, 3.0], tf.float64))
        return tf.reduce_sum(tf.square(tape.gradient(loss, x)))
    theoretical, numerical = tf.test.compute_gradient(first, [logits], delta=1e-6)
    np.testing.assert_allclose(theoretical[0], numerical[0], rtol=1e-6, atol=1e-8)
    if not sparse:  # the labels' gradient, first and second order
        def by_labels(y):
            with tf.GradientTape() as tape:
                tape.watch(y)
                loss = tf.reduce_sum(tf.nn.softmax_cross_entropy_with_logits(y, logits))
            return tf.reduce_sum(tape.gradient(loss, y) * logits)
        theoretical, numerical = tf.test.compute_gradient(by_labels, [labels], delta=1e-6)
        np.testing.assert_allclose(theoretical[0], numerical[0], rtol=1e-6, atol=1e-8)


def test_sparse_softmax_cross_entropy_edges():
    empty = tf.nn.sparse_softmax_cross_entropy_with_logits(np.zeros(0, np.int32),
                                                       np.zeros((0, 3), F32))
    assert empty.shape == (0,) and empty.dtype == tf.float32
    scalar = tf.nn.sparse_softmax_cross_entropy_with_logits(1, [1.0, 2.0])
    np.testing.assert_allclose(scalar.numpy(), 0.31326166, rtol=1e-6)
    half = tf.nn.sparse_softmax_cross_entropy_with_logits([1],
                                                          tf.constant([[1.0, 20.0]], tf.float16))
    assert half.dtype == tf.float16 and half.numpy()[0] == 0


def test_sigmoid_cross_entropy():
    got = tf.nn.sigmoid_cross_entropy_with_logits(labels=[0.0, 1.0, 0.5, 1.0],
                                              logits=[-100.0, 100.0, 0.0, -100.0])
    np.testing.assert_allclose(got.numpy(), [0, 0, np.log(2), 100], atol=1e-6)
    with pytest.raises(ValueError, match=r"`logits` and `labels` must have the same shape, "
                                         r"received \(\(3,\) vs \(2,\)\)."):
        tf.nn.sigmoid_cross_entropy_with_logits(labels=[0.0, 1.0], logits=[1.0, 2.0, 3.0])
    with pytest.raises(errors.InvalidArgumentError,
                       match="cannot compute Mul as input #1.zero-based. was expected to be a "
                             "float tensor but is a double tensor"):
        tf.nn.sigmoid_cross_entropy_with_logits(labels=tf.constant([0.0], tf.float64), logits=[1.0])


def test_l2_loss():
    assert tf.nn.l2_loss(np.zeros(0, F32)).numpy() == 0
    got = tf.nn.l2_loss(tf.constant([[1.0, 2.0], [3.0, 4.0]], tf.float64))
    assert got.dtype == tf.float64 and got.numpy() == 15
    with pytest.raises(errors.InvalidArgumentError, match="Value for attr 'T' of int32"):
        tf.nn.l2_loss([1, 2])


# ----------------------------------------------------------------------------- in_top_k

def test_in_top_k_semantics():
    p = tf.constant([[0.1, 0.3, 0.3, 0.2], [0.5, np.nan, 0.1, 0.2]])
    cases = [([1, 0], 1, [True, False]),  # a non-finite row is never in
             ([2, 0], 1, [True, False]),  # ties with the k-th score are in
             ([3, 1], 2, [False, False]), ([4, 0], 1, [False, False]),
             ([-1, 0], 1, [False, False]), ([1, 0], 0, [False, False]),
             ([1, 0], -1, [False, False]), ([1, 0], 10, [True, False])]
    for targets, k, want in cases:
        np.testing.assert_array_equal(tf.math.in_top_k(targets, p, k).numpy(), want)
    assert tf.math.in_top_k(tf.constant([0], tf.int64), [[1.0, 2.0]],
                            tf.constant(2, tf.int64)).numpy()
    assert not tf.math.in_top_k([0], [[np.inf, 1.0]], 1).numpy()[0]


def test_in_top_k_errors():
    p = tf.constant([[0.1, 0.9], [0.5, 0.5]])
    with pytest.raises(ValueError, match="Tensor conversion requested dtype float32"):
        tf.math.in_top_k([0, 1], tf.cast(p, tf.float64), 1)
    with pytest.raises(errors.InvalidArgumentError, match="Value for attr 'T' of float"):
        tf.math.in_top_k([0.0, 1.0], p, 1)
    with pytest.raises(TypeError, match="Cannot convert 2.0 to EagerTensor of dtype int32"):
        tf.math.in_top_k([0, 1], p, 2.0)
    with pytest.raises(errors.InvalidArgumentError,
                       match=r"predictions must be 2-dimensional \[Op:InTopKV2\]"):
        tf.math.in_top_k([0], [1.0, 2.0], 1)
    with pytest.raises(errors.InvalidArgumentError, match="targets must be 1-dimensional"):
        tf.math.in_top_k([[0]], p, 1)
    with pytest.raises(errors.InvalidArgumentError,
                       match="First dimension of predictions 2 must match length of targets 3"):
        tf.math.in_top_k([0, 1, 1], p, 1)


def test_in_top_k_in_graphs():
    # k is an input of the op: a Python k is a constant of the graph, a tensor k may be computed
    p = tf.constant([[0.1, 0.5, 0.4], [0.5, 0.3, 0.2]])
    graph = tf.function(lambda t, k: (tf.math.in_top_k(t, p, 2), tf.math.in_top_k(t, p, k + 1)))
    top2, top1 = graph(tf.constant([2, 1]), tf.constant(0))
    np.testing.assert_array_equal(top2.numpy(), [True, True])
    np.testing.assert_array_equal(top1.numpy(), [False, False])
    unknown = tf.function(lambda t, p, k: tf.math.in_top_k(t, p, k), input_signature=[
        tf.TensorSpec(None, tf.int32), tf.TensorSpec(None), tf.TensorSpec(None, tf.int32)])
    assert unknown.get_concrete_function().structured_outputs.shape.as_list() == [None]
    with pytest.raises(errors.InvalidArgumentError, match=r"k must be 0-D, got shape \[1\]"):
        unknown(tf.constant([0, 1]), p, tf.constant([1]))


def test_in_top_k_graph_errors():
    p = tf.constant([[0.1, 0.5, 0.4], [0.5, 0.3, 0.2]])
    call = tf.function(lambda t, p, k: tf.math.in_top_k(t, p, k))
    with pytest.raises(TypeError, match="Value passed to parameter 'targets' has DataType "
                                        "float32 not in list of allowed values: int32, int64"):
        call(tf.constant([0.0, 2.0]), p, 1)
    with pytest.raises(TypeError, match="Input 'k' of 'InTopKV2' Op has type int32 that does "
                                        "not match type int64 of argument 'targets'"):
        call(tf.constant([0, 2], tf.int64), p, tf.constant(1))
    with pytest.raises(errors.InvalidArgumentError, match="as input #2.* int64 tensor but is a "
                                                          "int32 tensor"):
        tf.math.in_top_k(tf.constant([0, 2], tf.int64), p, tf.constant(1))
    with pytest.raises(ValueError, match=r"Shape must be rank 2 but is rank 1 for '\{\{node "
                                         r"InTopKV2\}\} = InTopKV2\[T=DT_INT32\]\(p, t, Const\)' "
                                         r"with input shapes: \[2\], \[1\], \[\]\."):
        call(tf.constant([0]), tf.constant([1.0, 2.0]), 1)
    with pytest.raises(ValueError, match="Shape must be rank 1 but is rank 2"):
        call(tf.constant([[0]]), tf.constant([[1.0, 2.0]]), 1)
    with pytest.raises(ValueError, match="Dimensions must be equal, but are 2 and 3"):
        call(tf.constant([0, 1, 1]), p, 1)


# ----------------------------------------------------------------------------- composites

def test_moments():
    _needs("reduction_ops", "reduce_mean")
    _needs("array_ops", "squeeze")
    y = np.array([[1.0, 2.0, 3.0], [4.0, 6.0, 8.0]], F32)
    mean, variance = tf.nn.moments(y, [0])
    np.testing.assert_allclose(mean.numpy(), y.mean(0))
    np.testing.assert_allclose(variance.numpy(), y.var(0))
    mean, variance = tf.nn.moments(y, [0, 1], keepdims=True)
    assert mean.shape == variance.shape == (1, 1)
    np.testing.assert_allclose(variance.numpy(), [[y.var()]], rtol=1e-6)
    mean, variance = tf.nn.moments(tf.cast(y, tf.float16), -1)
    assert mean.dtype == variance.dtype == tf.float16
    np.testing.assert_allclose(variance.numpy(), y.var(-1), rtol=1e-3)
    mean, variance = tf.nn.moments(tf.constant([[1, 2], [3, 5]]), [1])
    assert mean.dtype == tf.int32
    np.testing.assert_array_equal([mean.numpy(), variance.numpy()], [[1, 4], [0, 1]])
    mean, variance = tf.nn.moments(y, [])
    np.testing.assert_array_equal(mean.numpy(), y)
    np.testing.assert_array_equal(variance.numpy(), np.zeros_like(y))


def test_batch_normalization():
    y = np.array([[1.0, 2.0, 3.0], [4.0, 6.0, 8.0]], F32)
    got = tf.nn.batch_normalization(y, 1.0, 4.0, 0.5, 2.0, 1e-3)
    np.testing.assert_allclose(got.numpy(), (y - 1) / np.sqrt(4.001) * 2 + 0.5, rtol=1e-6)
    half = tf.nn.batch_normalization(tf.cast(y, tf.float16), 1.0, 4.0, None, None, 1e-3)
    assert half.dtype == tf.float16
    with pytest.raises(errors.InvalidArgumentError, match="cannot compute Mul"):
        tf.nn.batch_normalization(y, tf.constant(1.0, tf.float64), 4.0, None, None, 1e-3)


def test_dropout_argument_errors():
    x = np.ones((2, 3), F32)
    for rate in (1.0, -0.1):
        with pytest.raises(ValueError, match=r"`rate` must be a scalar tensor or a float in the "
                                             rf"range \[0, 1\). Received: rate={rate}"):
            tf.nn.dropout(x, rate)
    with pytest.raises(ValueError, match="`x.dtype` must be a floating point tensor as `x` will "
                                         "be scaled. Received: x_dtype=<dtype: 'int32'>"):
        tf.nn.dropout(tf.constant([1, 2]), 0.5)
    with pytest.raises(ValueError, match="`rate` must be a scalar or scalar tensor"):
        tf.nn.dropout(x, [0.5, 0.5])
    with pytest.raises(ValueError, match="`x.dtype` must be compatible with `rate.dtype`"):
        tf.nn.dropout(x, tf.constant(0.5, tf.float64))
    t = tf.constant(x)
    assert tf.nn.dropout(t, 0.0) is t and tf.nn.dropout(t, 0) is t


def test_dropout_masks_with_uniform_noise(monkeypatch):
    """Keeps where noise >= rate, scales by 1 / (1 - rate), zeroes dropped NaNs."""
    draws = []

    def uniform(shape, dtype, seed):
        draws.append((list(shape), dtype, seed))
        return tf.constant(np.array([[0.1], [0.6]], F64))
    monkeypatch.setattr(internals.random_ops, "uniform", uniform)
    x = np.array([[1.0, np.nan, 3.0], [4.0, 5.0, np.inf]])
    got = tf.nn.dropout(x, 0.5, noise_shape=[None, 1], seed=7)
    assert draws == [([2, 1], tf.float64, 7)]
    np.testing.assert_array_equal(got.numpy(), [[0, 0, 0], [8, 10, np.inf]])
    got = tf.nn.dropout(x, tf.constant(0.5, tf.float64))
    np.testing.assert_array_equal(got.numpy(), [[0, 0, 0], [8, 10, np.inf]])
    assert draws[-1] == ([2, 3], tf.float64, None)


def test_dropout_keeps_and_scales():
    _needs("random_ops", "uniform")
    x = np.full((200, 100), 3.0, F32)
    x[0, :] = np.nan  # dropped NaNs become zeros
    got = tf.nn.dropout(x, 0.25, seed=5).numpy()
    kept = got[1:] != 0
    np.testing.assert_allclose(got[1:][kept], 4.0)
    assert 0.7 < kept.mean() < 0.8
    assert (np.isnan(got[0]) | (got[0] == 0)).all()
    rows = tf.nn.dropout(np.ones((50, 4), F64), tf.constant(0.5, tf.float64),
                     noise_shape=[None, 1]).numpy()
    assert (rows == rows[:, :1]).all() and set(np.unique(rows)) <= {0.0, 2.0}


def test_embedding_lookup():
    _needs("array_ops", "gather", "concat")
    _needs("reduction_ops", "reduce_sum")
    p = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], F32)
    np.testing.assert_array_equal(tf.nn.embedding_lookup(p, [2, 0]).numpy(), p[[2, 0]])
    assert tf.nn.embedding_lookup(p, [[2], [0]]).shape == (2, 1, 2)
    assert tf.nn.embedding_lookup([p], 1).shape == (2,)
    shards = [p[:2], p[:2] * 10, p[:1] * 100]  # ids 0-1, 2-3, 4: contiguous ranges
    np.testing.assert_array_equal(tf.nn.embedding_lookup(shards, [4, 0, 3]).numpy(),
                                  [[100, 200], [1, 2], [30, 40]])
    np.testing.assert_allclose(tf.nn.embedding_lookup(p, [2, 0], max_norm=2.0).numpy(),
                               [[1.2803688, 1.5364425], [0.8944272, 1.7888544]], rtol=1e-6)
    table = np.arange(12.0, dtype=F32).reshape(3, 2, 2)  # the norm spans each whole embedding
    np.testing.assert_allclose(tf.nn.embedding_lookup(table, [2], max_norm=2.0).numpy(),
                               [[[0.8363334, 0.94087505], [1.0454167, 1.1499584]]], rtol=1e-6)
    with pytest.raises(ValueError, match="Length of params is currently 0"):
        tf.nn.embedding_lookup([], [1])
    with pytest.raises(errors.InvalidArgumentError):
        tf.nn.embedding_lookup(p, [3])


def test_embedding_lookup_shards_follow_the_div_layout_of_the_total():
    # (TF places id i by the layout of the rows' total, whatever the shards' own sizes:
    # 10 rows in 3 shards are ids 0-3, 4-6, 7-9, so shards of 3, 3 and 4 rows put id 9 in
    # the last shard's row 2 (the table's row 8) and have no row for id 3)
    table = np.arange(20.0, dtype=F32).reshape(10, 2)
    shards = [tf.constant(s) for s in np.split(table, [3, 6])]
    np.testing.assert_array_equal(tf.nn.embedding_lookup(shards, [9, 0, 4]).numpy(),
                                  table[[8, 0, 3]])
    with pytest.raises(errors.InvalidArgumentError, match=r"indices\[3\] = 3 is not in \[0, 3\)"):
        tf.nn.embedding_lookup(shards, tf.range(10))
    ids = tf.sparse.SparseTensor([[0, 0], [0, 1]], tf.constant([0, 9], tf.int64), [1, 2])
    np.testing.assert_array_equal(
        tf.nn.embedding_lookup_sparse(shards, ids, None, combiner="sum").numpy(), [[16, 18]])
    # the gradient of each shard is its own rows'
    variables = [tf.Variable(s) for s in np.split(table[:7], [3, 5])]
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.nn.embedding_lookup(variables, [[6, 2], [2, 3]]))
    grads = [tf.convert_to_tensor(g).numpy() for g in tape.gradient(loss, variables)]
    np.testing.assert_array_equal(grads[0], [[0, 0], [0, 0], [2, 2]])
    np.testing.assert_array_equal(grads[1], [[1, 1], [0, 0]])
    np.testing.assert_array_equal(grads[2], [[0, 0], [1, 1]])


# ----------------------------------------------------------------------------- shape rules

class _Static:
    def __init__(self, shape, dtype=tf.float32):
        self.shape, self.dtype = TensorShape(shape), dtype


def test_shape_rules_with_unknown_dims():
    shape, _ = n._BIAS_ADD.shape(_Static([None, 4, None]), _Static([3]), data_format="NHWC")
    assert shape.as_list() == [None, 4, 3]
    shape, _ = n._BIAS_ADD.shape(_Static([2, None, 5]), _Static([None]), data_format="NCHW")
    assert shape.as_list() == [2, None, 5]
    with pytest.raises(errors.InvalidArgumentError, match="Must provide as many biases"):
        n._BIAS_ADD.shape(_Static([None, 4]), _Static([3]), data_format="NHWC")
    (loss, _), (backprop, _) = n._SOFTMAX_XENT.shape(_Static([None, 5]), _Static([1, 5]),
                                                     axis=-1)
    assert loss.as_list() == [None] and backprop.as_list() == [None, 5]
    (loss, _), _ = n._SOFTMAX_XENT.shape(_Static(None), _Static([2, 5]), axis=0)
    assert loss.rank is None
    (loss, _), (backprop, _) = n._SPARSE_SOFTMAX_XENT.shape(_Static([None, 5]),
                                                            _Static([None], tf.int32))
    assert loss.as_list() == [None] and backprop.as_list() == [None, 5]
    k = _Static([], tf.int32)
    shape, dtype = n._IN_TOP_K.shape(_Static([None, 5]), _Static([None], tf.int32), k)
    assert shape.as_list() == [None] and dtype == tf.bool
    assert n._IN_TOP_K.shape(_Static([3, 5]), _Static(None), k)[0].as_list() == [3]
    assert n._L2_LOSS.shape(_Static(None)) == (TensorShape([]), tf.float32)
    shape, _ = n._BIAS_ADD_GRAD.shape(_Static([None, 5, None]), data_format="NCHW")
    assert shape.as_list() == [5]
    shape, _ = n._BIAS_ADD_GRAD.shape(_Static(None), data_format="NHWC")
    assert shape.as_list() == [None]


def test_average_and_statistics_composites():
    from eagerflow import nn
    assert nn.compute_average_loss(tf.constant([1, 2])).dtype == tf.float64
    assert float(nn.compute_average_loss(tf.constant([1.0, 2.0]), global_batch_size=0)) == 0.0
    with pytest.raises(ValueError, match="at least rank 1"):
        nn.compute_average_loss(tf.constant(1.0))
    mean, variance = nn.weighted_moments(tf.constant([1.0, 2.0]), [0], tf.constant([3.0, 1.0]))
    assert (float(mean), float(variance)) == (1.25, 0.1875)
    counts, total, squares, _ = nn.sufficient_statistics(tf.constant([1.0, 3.0]), [0])
    assert [float(v) for v in nn.normalize_moments(counts, total, squares, None)] == [2.0, 1.0]


def test_space_depth_round_trip():
    from eagerflow import nn
    x = tf.reshape(tf.range(32), [2, 2, 2, 4])
    assert nn.space_to_depth(nn.depth_to_space(x, 2), 2).numpy().tolist() == x.numpy().tolist()
    with pytest.raises(tf.errors.InvalidArgumentError, match="should be divisible"):
        nn.space_to_depth(tf.ones([1, 3, 3, 1]), 2)


def test_space_depth_are_tfs_ops():
    # one node each in a traced graph (as TF's GraphDef holds), whose shapes keep known dims
    fn = tf.function(lambda x: (tf.nn.depth_to_space(x, 2), tf.nn.space_to_depth(x[:, :, :2], 2)))
    graph = fn.get_concrete_function(tf.TensorSpec([None, None, 3, 8])).graph
    types = [op.type for op in graph.get_operations()]
    assert "DepthToSpace" in types and "SpaceToDepth" in types and "Transpose" not in types
    assert [o.shape.as_list() for o in graph.outputs] == [[None, None, 6, 2], [None, None, 1, 32]]
    with pytest.raises(tf.errors.InvalidArgumentError, match="must be at least minimum 2"):
        tf.raw_ops.DepthToSpace(input=tf.ones([1, 1, 1, 4]), block_size=1)
    with pytest.raises(tf.errors.NotFoundError):  # (as TF's CPU kernels: NHWC only)
        tf.nn.depth_to_space(tf.ones([1, 4, 1, 1]), 2, data_format="NCHW")
    with pytest.raises(ValueError, match="evenly divisible by 4 but is 7"):
        tf.function(lambda x: tf.nn.depth_to_space(x, 2))(tf.ones([1, 2, 3, 7]))
    assert tf.nn.depth_to_space(tf.constant([[[["a", "b", "c", "d"]]]]), 2).shape == [1, 2, 2, 1]


def test_perfect_fit_costs_positive_zero():
    from eagerflow import nn
    loss = nn.softmax_cross_entropy_with_logits([[1.0, 0.0]], [[100.0, 0.0]])
    sparse = nn.sparse_softmax_cross_entropy_with_logits([0], [[100.0, 0.0]])
    assert str(loss.numpy()[0]) == "0.0" and str(sparse.numpy()[0]) == "0.0"


INF, NAN = np.inf, np.nan


@pytest.mark.parametrize("logits, dtype, softmax, log_softmax", [  # TF 2.21's values
    ([1.5, INF], tf.float32, [0, NAN], [NAN, NAN]),
    ([1.5, INF], tf.float16, [NAN, NAN], [NAN, NAN]),  # (float16 rounds each step: NaN)
    ([1.5, INF], tf.float64, [NAN, NAN], [NAN, NAN]),
    ([1.5, -INF], tf.float32, [1, 0], [0, -INF]),
    ([1.0, -INF, 2.0], tf.float32, [0.26894143, 0, 0.7310586], [-1.3132616, -INF, -0.31326166]),
    ([-INF, -INF], tf.float32, [NAN, NAN], [NAN, NAN]),
    ([INF, INF], tf.float32, [NAN, NAN], [NAN, NAN]),
])
def test_softmax_of_infinite_logits(logits, dtype, softmax, log_softmax):
    x = tf.constant(logits, dtype)
    for fn, want in ((tf.math.softmax, softmax), (tf.math.log_softmax, log_softmax)):
        got = fn(x)
        assert got.dtype == dtype
        np.testing.assert_allclose(got.numpy().astype(np.float64), want, rtol=1e-6)
        # the same in a batch of rows, and traced
        batch = fn(tf.stack([x, tf.zeros_like(x)])).numpy()[0].astype(np.float64)
        np.testing.assert_allclose(batch, want, rtol=1e-6)
        traced = tf.function(fn)(x).numpy().astype(np.float64)
        np.testing.assert_allclose(traced, want, rtol=1e-6)


def test_cross_entropy_of_infinite_logits():
    dense = tf.nn.softmax_cross_entropy_with_logits
    sparse = tf.nn.sparse_softmax_cross_entropy_with_logits
    assert np.isnan(dense([[0.5, 0.5]], [[1.5, INF]]).numpy()).all()
    assert np.isnan(dense([[1.0, 0.0]], [[1.5, -INF]]).numpy()).all()  # 0 * inf
    assert sparse([0], [[1.5, -INF]]).numpy().tolist() == [0.0]
    assert np.isnan(sparse([0], [[1.5, INF]]).numpy()).all()


@pytest.mark.parametrize("keepdims, shape", [(False, ()), (True, (1, 1))])
def test_moments_over_every_axis_when_axes_is_none(keepdims, shape):
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    for fn in (lambda t: tf.nn.moments(t, axes=None, keepdims=keepdims),
               lambda t: tf.nn.weighted_moments(t, None, 1.0, keepdims=keepdims),
               tf.function(lambda t: tf.nn.moments(t, axes=None, keepdims=keepdims))):
        mean, variance = fn(x)
        assert mean.shape == variance.shape == shape
        assert (float(tf.reshape(mean, [])), float(tf.reshape(variance, []))) == (2.5, 1.25)
    unknown = tf.function(lambda t: tf.nn.moments(t, None), input_signature=[tf.TensorSpec(None)])
    assert [float(v) for v in unknown(x)] == [2.5, 1.25]


@pytest.fixture(params=[False, True], ids=["numpy", "emulated"])
def float_kernels(request):
    """Each test twice: with NumPy's kernels, and emulating TensorFlow's."""
    tf.config.experimental.enable_tf_cpu_float_emulation(request.param)
    yield
    tf.config.experimental.enable_tf_cpu_float_emulation(False)


ZERO_SIZE_NN = {
    "softmax": tf.math.softmax, "log_softmax": tf.math.log_softmax, "softplus": tf.nn.softplus,
    "elu": tf.nn.elu,
    "selu": tf.nn.selu, "relu": tf.nn.relu, "relu6": tf.nn.relu6, "leaky_relu": tf.nn.leaky_relu,
    "softsign": tf.math.softsign, "sigmoid": tf.sigmoid, "gelu": tf.nn.gelu, "silu": tf.nn.silu,
    "log_sigmoid": tf.math.log_sigmoid,
    "sigmoid_xent": lambda t: tf.nn.sigmoid_cross_entropy_with_logits(t, t),
    "weighted_xent": lambda t: tf.nn.weighted_cross_entropy_with_logits(t, t, 2.0),
}


@pytest.mark.usefixtures("float_kernels")
@pytest.mark.parametrize("dtype", [tf.float32, tf.float64, tf.float16, tf.bfloat16])
@pytest.mark.parametrize("shape", [[0], [0, 3], [3, 0]])
@pytest.mark.parametrize("name", sorted(ZERO_SIZE_NN))
def test_zero_size_inputs_give_empty_results(name, shape, dtype):
    got = ZERO_SIZE_NN[name](tf.zeros(shape, dtype))
    assert got.shape == shape and got.dtype == dtype


@pytest.mark.usefixtures("float_kernels")
@pytest.mark.parametrize("shape", [[0, 3], [3, 0]])
def test_zero_size_cross_entropies(shape):
    z = tf.zeros(shape)
    loss = tf.nn.softmax_cross_entropy_with_logits(z, z)
    assert loss.shape == shape[:1] and not loss.numpy().any()  # no classes: a loss of 0
    if shape[1]:
        sparse = tf.nn.sparse_softmax_cross_entropy_with_logits(tf.zeros([0], tf.int32), z)
        assert sparse.shape == [0]
    mean, variance = tf.nn.moments(z, [0])
    assert mean.shape == variance.shape == shape[1:]
    assert np.isnan(mean.numpy()).all() and np.isnan(variance.numpy()).all()  # 0 / 0


def test_leaky_relu_alpha_is_a_float32_attr_for_float64_features():
    # TF rounds alpha to float32: 0.2 is 0.20000000298023224 on float64 features
    x = tf.Variable([-1.0, 2.0], dtype=tf.float64)
    with tf.GradientTape() as tape:
        y = tf.nn.leaky_relu(x, 0.2)
    assert y.numpy().tolist() == [-0.20000000298023224, 2.0]
    assert tape.gradient(y, x).numpy().tolist() == [0.20000000298023224, 1.0]
    assert tf.function(tf.nn.leaky_relu)(x, 1e-50).numpy().tolist() == [-0.0, 2.0]


def test_weighted_moments_of_all_zero_weights_are_zero():
    x = tf.Variable([[1.0, 2.0], [3.0, 5.0]])
    weights = tf.Variable([[0.0, 0.0], [1.0, 3.0]])
    with tf.GradientTape(persistent=True) as tape:
        mean, variance = tf.nn.weighted_moments(x, [1], weights)
        total = tf.reduce_sum(mean) + tf.reduce_sum(variance)
    assert mean.numpy().tolist() == [0.0, 4.5] and variance.numpy().tolist() == [0.0, 0.75]
    assert tape.gradient(total, x).numpy().tolist() == [[0.0, 0.0], [-0.5, 1.5]]
    assert tape.gradient(total, weights).numpy().tolist() == [[0.0, 0.0], [0.0, 0.0]]
    moments = tf.nn.weighted_moments(tf.constant([1.0, 2.0]), [0], tf.constant(0.0))
    assert [float(v) for v in moments] == [0.0, 0.0]


def test_poisson_and_weighted_cross_entropy_losses_check_shapes():
    a, b = tf.zeros([2]), tf.Variable(tf.zeros([2, 3]))
    with pytest.raises(ValueError, match=r"^`log_input` and `targets` must have the same "
                                         r"shape, received \(\(2,\) vs \(2, 3\)\)\.$"):
        tf.nn.log_poisson_loss(b, a)
    with pytest.raises(ValueError, match=r"^`logits` and `labels` must have the same shape, "
                                         r"received \(\(2, 3\) vs \(2,\)\)\.$"):
        tf.nn.weighted_cross_entropy_with_logits(a, b, 2.0)


def test_compute_average_loss_with_global_batch_size_inside_function():
    x = tf.constant([1.0, 2.0, 3.0, 9.0])
    f = tf.function(lambda t: tf.nn.compute_average_loss(t, global_batch_size=8))
    assert float(f(x)) == 1.875
    with pytest.raises(ValueError, match=r"at least rank 1. Received per_example_loss=Tensor"):
        tf.function(tf.nn.compute_average_loss)(tf.constant(1.0))


def test_block_and_statistics_wrappers_with_unknown_static_dims():
    image = tf.reshape(tf.range(96.0), [2, 4, 4, 3])
    unknown = [tf.TensorSpec([None] * 4)]
    for fn in (lambda x: tf.nn.space_to_depth(x, 2),
               lambda x: tf.nn.depth_to_space(tf.nn.space_to_depth(x, 2), 2)):
        got = tf.function(fn, input_signature=unknown)(image)
        np.testing.assert_array_equal(got.numpy(), fn(image).numpy())
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.function(lambda x: tf.nn.space_to_depth(x, 3), input_signature=unknown)(image)

    x = tf.reshape(tf.range(6.0), [2, 3])
    stats = tf.function(lambda t: tf.nn.sufficient_statistics(t, [0], shift=0.5)[:3],
                        input_signature=[tf.TensorSpec([None, None])])(x)
    want = tf.nn.sufficient_statistics(x, [0], shift=0.5)[:3]
    for got, expected in zip(stats, want):
        np.testing.assert_array_equal(got.numpy(), expected.numpy())


# TF 2.21's softmax of rows holding non-finite logits: its float32 kernel is NaN at NaN and +inf
# logits (every logit of an all -inf row) and 0 at the others; float64 and float16 (which rounds
# each step to half precision) are all NaN.
_INF, _NAN = np.inf, np.nan
_NONFINITE_ROWS = [
    ([1.5, _INF], [0, _NAN]),
    ([_NAN, 1.0], [_NAN, 0]),
    ([_NAN, _INF, -_INF, 0.0, -0.0, 1.0], [_NAN, _NAN, 0, 0, 0, 0]),
    ([-_INF, -_INF], [_NAN, _NAN]),
    ([_INF, _INF, 1.0], [_NAN, _NAN, 0]),
    ([_INF, -_INF], [_NAN, 0]),
    ([_NAN, -_INF, 2.0], [_NAN, 0, 0]),
    ([-_INF, 1.0], [0, 1]),
]


@pytest.mark.parametrize("row, expected", _NONFINITE_ROWS)
@pytest.mark.parametrize("dtype", [tf.float32, tf.float16, tf.float64])
def test_softmax_of_non_finite_rows_as_tf(row, expected, dtype):
    finite_row = [1.0, 2.0]
    x = tf.constant([row, finite_row + [-_INF] * (len(row) - 2)], dtype)
    out = tf.nn.softmax(x).numpy().astype(np.float64)
    if dtype != tf.float32 and not np.all(np.isfinite(row) | (np.array(row) == -_INF)):
        expected = [_NAN] * len(row)
    np.testing.assert_array_equal(out[0], np.array(expected, np.float64))
    np.testing.assert_allclose(out[1][:2], [0.26894142, 0.73105858], rtol=1e-3)  # untouched


@pytest.mark.parametrize("op", [tf.nn.silu, tf.nn.swish])
def test_silu_of_string_rejects_the_dtype_while_tracing(op):
    # TF's Cast of beta stays in the graph unrun; the product rejects the string input.
    with pytest.raises(TypeError, match="Value passed to parameter 'x' has DataType string not "
                                        "in list of allowed values: bfloat16, float16"):
        tf.function(op)(tf.constant(["a"]))
    with pytest.raises(TypeError, match="has DataType int32 not in list of allowed values: "
                                        "bfloat16, float16, float32, float64, complex64, "
                                        "complex128"):
        tf.function(op)(tf.constant([1, 2]))
    with pytest.raises(tf.errors.UnimplementedError, match="Cast float to string"):
        op(tf.constant(["a"]))  # eagerly beta's cast runs first, as in TF
    assert np.allclose(tf.function(op)(tf.constant([1.0, 2.0])), [0.7310586, 1.7615943])


def test_stateless_dropout_masks_with_the_stateless_uniform_of_its_seed():
    x = tf.reshape(tf.range(1.0, 13.0), [3, 4])
    out = tf.nn.experimental.stateless_dropout(x, 0.5, seed=[1, 2])
    keep = tf.random.stateless_uniform([3, 4], seed=[1, 2]) >= 0.5
    np.testing.assert_array_equal(out.numpy(), np.where(keep.numpy(), x.numpy() * 2, 0))
    np.testing.assert_array_equal(out.numpy(), tf.nn.experimental.stateless_dropout(
        x, 0.5, seed=[1, 2]).numpy())  # the same seed drops the same elements
    rows = tf.nn.experimental.stateless_dropout(x, 0.3, seed=[7, 0], noise_shape=[3, 1])
    assert all(len(set(row != 0)) == 1 for row in rows.numpy())
    with pytest.raises(ValueError, match="must be a scalar tensor or a float in the range"):
        tf.nn.experimental.stateless_dropout(x, 1.0, seed=[1, 2])


@settings(max_examples=150, deadline=None)
@given(batch=st.lists(st.integers(0, 5), max_size=2), classes=st.integers(1, 130),
       dtype=st.sampled_from([np.float32, np.float64]), data=st.data())
def test_sparse_softmax_cross_entropy_of_few_classes_matches_the_row_kernel(
        batch, classes, dtype, data):
    # up to `_FEW_CLASSES` classes the kernel runs on the logits classes first
    logits = data.draw(hnp.arrays(dtype, (*batch, classes), elements=st.floats(
        -30, 30, width=32)))
    if data.draw(st.booleans()) and logits.size:
        logits.flat[data.draw(st.integers(0, logits.size - 1))] = data.draw(
            st.sampled_from([np.inf, -np.inf, np.nan]))
    labels = data.draw(hnp.arrays(np.int64, tuple(batch), elements=st.integers(0, classes - 1)))
    given_logits = logits.copy()
    with np.errstate(invalid="ignore", over="ignore"):
        loss, backprop = n._sparse_softmax_xent(np, logits, labels)
        np.testing.assert_array_equal(logits, given_logits)  # (not written in place)
        rows = n._FEW_CLASSES
        try:
            n._FEW_CLASSES = 0
            want_loss, want_backprop = n._sparse_softmax_xent(np, logits, labels)
        finally:
            n._FEW_CLASSES = rows
    assert loss.shape == labels.shape and backprop.shape == logits.shape
    assert loss.dtype == backprop.dtype == dtype and backprop.flags.c_contiguous
    # (sums in another order: within the row kernel's float32 roundings, one per class at
    # most, of a sum of about 1)
    atol = 1e-6 + (classes * 6e-8 if dtype == np.float32 else 0)
    np.testing.assert_allclose(loss, want_loss, rtol=1e-6, atol=atol)
    np.testing.assert_allclose(backprop, want_backprop, rtol=1e-6, atol=atol)


def test_sparse_softmax_cross_entropy_of_a_confident_row_keeps_its_precision():
    # many small terms beside one large: the sum of exps drifts if added up in float32
    logits = np.zeros((2, 24), F32)
    logits[0, 0] = 7.0
    loss, _ = n._sparse_softmax_xent(np, logits, np.array([0, 3]))
    # (TF's: the log of the float32 sum, several float32 ulps off the exact log1p)
    want = np.log(np.array([1 + 23 * np.exp(-7.0), 24.0]).astype(F32))
    np.testing.assert_allclose(loss, want, rtol=1e-6)
    exact = np.log1p(np.float64(np.exp(np.float32(-10.0))) + np.exp(np.float32(-13.0)))
    loss, _ = n._sparse_softmax_xent(np, np.array([[10.0, 0.0, -3.0]], F32), np.array([0]))
    assert abs(loss[0] - np.float32(4.7682581e-05)) <= 2e-11 and abs(loss[0] - exact) > 1e-8


def test_general_dropout_takes_a_generator_sampler_as_tf():
    # values printed by TF 2.21 for the same calls
    x = tf.constant([1.1, 2.2, 3.3, 4.4, 5.5])
    g = tf.random.Generator.from_seed(7)
    np.testing.assert_allclose(tf.nn.experimental.general_dropout(x, 0.5, g.uniform).numpy(),
                               [0.0, 4.4, 6.6, 8.8, 11.0], rtol=1e-6)
    np.testing.assert_allclose(
        tf.nn.experimental.general_dropout(x, 0.5, g.uniform, noise_shape=[1]).numpy(),
        [2.2, 4.4, 6.6, 8.8, 11.0], rtol=1e-6)
    stateless = tf.nn.experimental.general_dropout(
        x, 0.5, lambda shape, dtype: tf.random.stateless_uniform(shape, (1, 2), dtype=dtype))
    np.testing.assert_allclose(stateless.numpy(), [2.2, 0.0, 6.6, 0.0, 0.0], rtol=1e-6)


def test_compute_average_loss_checks_the_global_batch_size_as_tf():
    loss = tf.constant([1.0, 2.0])
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.nn.compute_average_loss(loss, global_batch_size=-1)
    assert str(info.value) == ("global_batch_size must be non-negative..  \nCondition x >= 0 "
                               "did not hold element-wise:\nx (shape=() dtype=int32) = \n-1")
    with pytest.raises(TypeError, match=r'^global_batch_size must be an integer\.\.  Expected "x" '
                                        r'to be integer type\.  Found: tensor of dtype'):
        tf.nn.compute_average_loss(loss, global_batch_size=2.5)
    # a size only run time knows is checked when the function runs
    average = tf.function(lambda size: tf.nn.compute_average_loss(loss, global_batch_size=size))
    assert float(average(tf.constant(4))) == 0.75
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"assertion failed: \[global_batch_size must be non-negative"):
        average(tf.constant(-1))


def test_log_poisson_full_loss_leaves_out_only_targets_in_0_1():
    # TF 2.21: Stirling's term is added outside [0, 1], so negative targets give NaN
    targets = tf.constant([-2.0, -0.5, 0.0, 0.5, 1.0, 1.5])
    got = tf.nn.log_poisson_loss(targets, tf.fill([6], 0.3), compute_full_loss=True).numpy()
    assert np.isnan(got[:2]).all()
    np.testing.assert_allclose(got[2:], [1.3498588, 1.1998588, 1.0498588, 1.1297274], rtol=1e-6)


def test_in_top_k_of_non_float32_predictions_raises_tfs_errors():
    # TF 2.21: the op's float input refuses other tensors (InvalidArgumentError eagerly,
    # TypeError as a graph is built); Python lists convert to float32
    for predictions, name in ((tf.constant([[0.1, 0.9]], tf.float16), "half"),
                              (tf.constant([[1, 2]]), "int32")):
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match=f"expected to be a float tensor but is a {name} tensor"):
            tf.math.in_top_k(tf.constant([1]), predictions, 1)
    with pytest.raises(TypeError, match="Input 'predictions' of 'InTopKV2' Op has type float64"):
        tf.function(lambda p: tf.math.in_top_k(tf.constant([1]), p, 1))(
            tf.constant([[0.1, 0.9]], tf.float64))
    assert tf.math.in_top_k(tf.constant([1]), [[1, 2]], 1).numpy().tolist() == [True]


def test_embedding_lookup_max_norm_with_ranks_known_at_run_time():
    # TF 2.21 clips over the dims after the ids' dims however late their ranks are known
    traced = tf.function(lambda p, i: tf.nn.embedding_lookup(p, i, max_norm=1.0),
                         input_signature=[tf.TensorSpec(None, tf.float32),
                                          tf.TensorSpec(None, tf.int64)])
    params = tf.constant(np.arange(15, dtype=np.float32).reshape(5, 3))
    ids = tf.constant([[0, 4], [2, 2]], tf.int64)
    np.testing.assert_allclose(traced(params, ids).numpy(),
                               tf.nn.embedding_lookup(params, ids, max_norm=1.0).numpy())
    np.testing.assert_allclose(np.linalg.norm(traced(params, ids).numpy()[0, 1]), 1.0,
                               rtol=1e-6)


def test_compute_average_loss_matches_the_sample_weight_to_the_losses_as_tf():
    losses = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    # a weight per example (rank one less) weighs that example's row, not a column
    assert float(tf.nn.compute_average_loss(losses, sample_weight=[1.0, 0.0])) == 1.5
    assert float(tf.nn.compute_average_loss(losses, sample_weight=tf.constant([1, 0]))) == 1.5
    assert float(tf.nn.compute_average_loss(losses, sample_weight=[[1.0], [0.0]])) == 1.5
    # a weight of rank one more loses its last axis
    assert float(tf.nn.compute_average_loss(tf.constant([1.0, 2.0]),
                                            sample_weight=[[1.0], [0.0]])) == 0.5
    unknown = tf.function(lambda l, w: tf.nn.compute_average_loss(l, sample_weight=w),
                          input_signature=[tf.TensorSpec(None), tf.TensorSpec(None)])
    assert float(unknown(losses, tf.constant([1.0, 0.0]))) == 1.5
    assert float(unknown(tf.constant([1.0, 2.0]), tf.constant([[1.0], [0.0]]))) == 0.5
    assert float(unknown(losses, tf.constant(2.0))) == 10.0
    # weighed in float32, then cast back to the losses' dtype (an integer one truncates)
    ints = tf.nn.compute_average_loss(tf.constant([1, 3]), sample_weight=[0.5, 0.5])
    assert ints.dtype == tf.float64 and float(ints) == 0.5
    half = tf.nn.compute_average_loss(tf.constant([1.0, 2.0], tf.float16),
                                      sample_weight=tf.constant([0.5, 1.0]))
    assert half.dtype == tf.float16 and float(half) == 1.25
    double = tf.nn.compute_average_loss(tf.constant([0.1, 1e-10], tf.float64),
                                        sample_weight=tf.constant([1.0, 1.0], tf.float64))
    assert double.numpy().item() == 0.050000000795058064


@pytest.mark.parametrize("dtype, selu, softplus", [  # TF 2.21's values: each step rounded
    (tf.float16, [-1.669921875, -1.1103515625, -0.455810546875, 0.73583984375, 2.626953125,
                  -1.75390625, -1.73828125],
     [0.048583984375, 0.313232421875, 0.55419921875, 1.103515625, 2.578125,
      0.002475738525390625, 0.01104736328125]),
    (tf.bfloat16, [-1.671875, -1.109375, -0.453125, 0.73046875, 2.625, -1.75, -1.734375],
     [0.0498046875, 0.3125, 0.5546875, 1.1015625, 2.578125, 0.002471923828125,
      0.0111083984375]),
])
def test_16_bit_selu_and_softplus_round_each_step_as_tf(dtype, selu, softplus):
    x = tf.constant([-3.0, -1.0, -0.3, 0.7, 2.5, -6.0, -4.5], dtype)
    assert tf.nn.selu(x).numpy().astype(float).tolist() == selu
    assert tf.nn.softplus(x).numpy().astype(float).tolist() == softplus


def test_v1_embedding_lookup_names_the_strategies_it_takes():
    shards = [tf.ones([2, 1]), tf.ones([1, 1])]
    with pytest.raises(ValueError, match=r"^Unrecognized partition strategy: foo\.Must be one "
                                         r"of either `mod` or `div`\.$"):
        tf.compat.v1.nn.embedding_lookup(shards, [1], partition_strategy="foo")

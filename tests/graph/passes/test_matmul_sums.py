"""Sums of products merged into one product of concatenations."""
import numpy as np
import pytest

import eagerflow as tf
from tests.internals import merge_matmul_sums, optimize
from tests.graph.passes.helpers import evaluate, traced, types


def _spec(*shape):
    return tf.TensorSpec(shape, tf.float32)


def _feeds(*shapes, seed=0):
    rng = np.random.default_rng(seed)
    return [rng.normal(size=s).astype(np.float32) for s in shapes]


def _merged(fn, *shapes):
    """(program before, program after, feeds): the results checked equal within rounding."""
    before = traced(fn, *[_spec(*s) for s in shapes])
    after = merge_matmul_sums(before)
    feeds = _feeds(*shapes)
    for got, want in zip(evaluate(after, *feeds), evaluate(before, *feeds)):
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    return before, after


@pytest.mark.parametrize("transpose_a, transpose_b", [(False, False), (True, False),
                                                      (False, True), (True, True)])
def test_a_sum_of_products_is_one_product(transpose_a, transpose_b):
    def f(a, b, c, d):
        return (tf.matmul(a, b, transpose_a=transpose_a, transpose_b=transpose_b)
                + tf.matmul(c, d, transpose_a=transpose_a, transpose_b=transpose_b))

    def shape(rows, cols, transposed):
        return (cols, rows) if transposed else (rows, cols)

    # inner dimensions of 8 and 4: operands of different widths join
    _, after = _merged(f, shape(32, 8, transpose_a), shape(8, 40, transpose_b),
                       shape(32, 4, transpose_a), shape(4, 40, transpose_b))
    assert types(after) == ["ConcatV2", "ConcatV2", "MatMul"]
    matmul, = [op for op in after.operations if op.type == "MatMul"]
    assert (matmul.attrs["transpose_a"], matmul.attrs["transpose_b"]) == (transpose_a,
                                                                          transpose_b)


def test_an_accumulation_over_steps_reuses_the_stack_of_its_operands():
    # the gradient of a weight shared by unrolled steps: h_t^T dz_t summed, dz stacked
    def f(hs, dzs):
        hs, dzs = tf.unstack(hs), tf.unstack(dzs)
        total = tf.matmul(hs[0], dzs[0], transpose_a=True)
        for h, dz in zip(hs[1:], dzs[1:]):
            total = total + tf.matmul(h, dz, transpose_a=True)
        return total, tf.stack(dzs[::-1])

    before, after = _merged(f, (5, 16, 32), (5, 16, 64))
    assert types(before).count("MatMul") == 5
    assert types(after) == ["Unpack", "Unpack", "ConcatV2", "Pack", "Reshape", "MatMul"]


def test_other_terms_and_other_transposes_stay_in_the_sum():
    def f(a, b, c, d, e):
        return tf.matmul(a, b) + e + tf.matmul(c, d) + tf.matmul(a, b, transpose_b=True)

    _, after = _merged(f, (32, 32), (32, 32), (32, 16), (16, 32), (32, 32))
    assert types(after).count("MatMul") == 2  # the merged pair and the transposed product
    assert types(after).count("ConcatV2") == 2


def test_products_read_elsewhere_narrow_large_or_broadcast_are_left_alone():
    def read_elsewhere(a, b, c, d):
        p = tf.matmul(a, b)
        return p + tf.matmul(c, d), p

    def narrow(a, b, c, d):  # a matrix-vector product: copying the matrix costs as much
        return tf.matmul(a, b) + tf.matmul(c, d)

    def broadcast(a, b, c, d, bias):
        return tf.matmul(a, b) + bias + tf.matmul(c, d)

    shapes = [(32, 8), (8, 32), (32, 4), (4, 32)]
    for fn, extra in ((read_elsewhere, []), (broadcast, [(32,)])):
        before, after = _merged(fn, *shapes, *extra)
        assert types(after) == types(before)
    before, after = _merged(narrow, (1, 8), (8, 32), (1, 4), (4, 32))
    assert types(after) == types(before)
    before, after = _merged(narrow, (64, 1024), (1024, 64), (64, 8), (8, 64))  # 2**22 madds
    assert types(after) == types(before)


def test_the_pipeline_merges_a_recurrent_weight_gradient():
    w = tf.Variable(np.eye(32, dtype=np.float32) * 0.5)

    def f(xs):
        with tf.GradientTape() as tape:
            h = tf.zeros([16, 32])
            for x in tf.unstack(xs):
                h = tf.tanh(x + tf.matmul(h, w))
            loss = tf.reduce_sum(h)
        return tape.gradient(loss, w)

    cf = tf.function(f).get_concrete_function(_spec(6, 16, 32))
    program = optimize(cf.graph, cf.inputs, cf.outputs)
    matmuls = [op for op in program.operations if op.type == "MatMul"]
    assert len(matmuls) == 6 + 5 + 1  # forward, gradients of h, the weight's one product
    xs = _feeds((6, 16, 32))[0]
    want = tf.function(f)(tf.constant(xs)).numpy()
    with tf.GradientTape() as tape:
        h = tf.zeros([16, 32])
        for x in xs:
            h = tf.tanh(x + tf.matmul(h, w))
        loss = tf.reduce_sum(h)
    np.testing.assert_allclose(want, tape.gradient(loss, w).numpy(), rtol=1e-5, atol=1e-6)

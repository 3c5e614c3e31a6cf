"""Gradients on paths found by comparing programs with TF 2.21 (values checked there)."""
import re
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import eagerflow as tf


@pytest.mark.parametrize("dtype", ["bfloat16", "float16", "float32"])
def test_sqrt_gradient_in_every_float_dtype(dtype):
    x = tf.constant([4.0, 0.25], dtype)
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.sqrt(x)
    g = t.gradient(y, x)
    assert g.dtype == x.dtype
    np.testing.assert_allclose(g.numpy().astype(np.float32), [0.25, 1.0])


def test_div_no_nan_gradient_of_complex_inputs_uses_conjugates():
    a = tf.constant([2.0, -3.0], tf.float64)
    with tf.GradientTape() as t:
        t.watch(a)
        y = tf.reduce_sum(tf.math.real(tf.math.divide_no_nan(tf.complex(a, a),
                                                                tf.complex(a * a, a))))
    # the same as plain division away from zero denominators
    np.testing.assert_allclose(t.gradient(y, a), [-0.28, -0.02])


def test_second_derivative_of_complex_abs_is_zero_off_the_origin():
    a = tf.constant([2.0, -3.0], tf.float64)
    with tf.GradientTape() as t2:
        t2.watch(a)
        with tf.GradientTape() as t1:
            t1.watch(a)
            y = tf.reduce_sum(tf.abs(tf.complex(a, 0.5 * a)))
        g = t1.gradient(y, a)
    np.testing.assert_allclose(g, [1.25 ** 0.5, -(1.25 ** 0.5)])
    np.testing.assert_allclose(t2.gradient(g, a), [0.0, 0.0], atol=1e-12)


@pytest.mark.parametrize("pfor", [True, False])
def test_batch_jacobian_with_unknown_batch_size_in_a_function(pfor):
    @tf.function(input_signature=[tf.TensorSpec([None, 2])])
    def f(x):
        with tf.GradientTape(persistent=True) as t:
            t.watch(x)
            y = tf.concat([x * x, tf.sin(x)], 1)
        j = t.batch_jacobian(y, x, experimental_use_pfor=pfor)
        z = t.batch_jacobian(y, tf.ones_like(x), unconnected_gradients="zero",
                             experimental_use_pfor=pfor)
        assert j.shape.as_list() == [None, 4, 2] and z.shape.as_list() == [None, 4, 2]
        return j, z

    x = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], np.float32)
    j, z = f(tf.constant(x))
    want = np.zeros((3, 4, 2), np.float32)
    for k in range(2):
        want[:, k, k] = 2 * x[:, k]
        want[:, 2 + k, k] = np.cos(x[:, k])
    np.testing.assert_allclose(j, want, rtol=1e-6)
    np.testing.assert_array_equal(z, np.zeros((3, 4, 2)))


def test_jacobian_with_unknown_sizes_in_a_function_and_its_gradient():
    v = tf.Variable([1.0, 2.0])

    @tf.function(input_signature=[tf.TensorSpec([None])])
    def f(x):
        with tf.GradientTape() as t2:
            t2.watch(x)
            with tf.GradientTape() as t:
                t.watch(x)
                y = x * x * v[0] + tf.reduce_sum(x) * tf.sin(x)
            jx, jv, none = t.jacobian(y, [x, v, tf.constant(1.0)])
            assert none is None and jx.shape.as_list() == [None, None]
            assert jv.shape.as_list() == [None, 2]
            s = tf.reduce_sum(jx)
        return jx, jv, t2.gradient(s, x)

    x = np.array([1.0, 2.0, 0.5], np.float32)
    jx, jv, g = f(tf.constant(x))
    want = np.diag(2 * x + np.sum(x) * np.cos(x)) + np.sin(x)[:, None]
    np.testing.assert_allclose(jx, want, rtol=1e-6)
    np.testing.assert_allclose(jv, np.stack([x * x, 0 * x], 1), rtol=1e-6)
    # sum(jx) = 2 sum(x) + sum(x) sum(cos x) + n sum(sin x)
    np.testing.assert_allclose(g, 2 + np.sum(np.cos(x)) - np.sum(x) * np.sin(x)
                               + len(x) * np.cos(x), rtol=1e-5)


def test_sparse_gradients_of_one_loss_list_slices_in_the_order_the_gathers_ran():
    v = tf.Variable(tf.zeros([5, 2]))
    with tf.GradientTape() as t:
        y = (tf.reduce_sum(tf.gather(v, [1])) + tf.reduce_sum(tf.gather(v, [2, 2]))
             + tf.reduce_sum(tf.gather(v, [3])) * 2.0)
    g = t.gradient(y, v)
    assert isinstance(g, tf.IndexedSlices)
    np.testing.assert_array_equal(g.indices, [1, 2, 2, 3])
    np.testing.assert_array_equal(g.values[:, 0], [1.0, 1.0, 1.0, 2.0])
    n = -g
    assert isinstance(n, tf.IndexedSlices)
    np.testing.assert_array_equal(n.values[:, 0], [-1.0, -1.0, -1.0, -2.0])
    np.testing.assert_array_equal(n.indices, g.indices)


def test_broadcast_gradient_reduces_dims_unknown_while_tracing():
    @tf.function(input_signature=[tf.TensorSpec([None, None]), tf.TensorSpec([None])])
    def f(a, b):
        with tf.GradientTape() as t:
            t.watch([a, b])
            y = tf.reduce_sum(a * b + tf.maximum(a, b))
        return t.gradient(y, [a, b])

    # a's second dim is 1 at run time: its gradient sums over b's length
    ga, gb = f(tf.constant([[1.0], [3.0]]), tf.constant([0.5, 2.5]))
    assert ga.shape == (2, 1) and gb.shape == (2,)
    np.testing.assert_allclose(ga, [[4.0], [5.0]])
    np.testing.assert_allclose(gb, [4.0, 5.0])
    ga, gb = f(tf.constant([[1.0, 2.0]]), tf.constant([0.5, 2.5]))
    assert ga.shape == (1, 2)


@pytest.mark.parametrize("axis", [-1, 0, None, [0, 1]])
def test_reduce_prod_gradient_of_unknown_rank(axis):
    x = np.array([[0.0, 2.0, 3.0], [1.5, 2.0, -1.0]])

    @tf.function(input_signature=[tf.TensorSpec(None, tf.float64)])
    def f(x):
        with tf.GradientTape() as t:
            t.watch(x)
            y = tf.reduce_prod(x, axis=axis) * 2.0
        return t.gradient(y, x)

    with tf.GradientTape() as t:  # the same, eagerly
        c = tf.constant(x)
        t.watch(c)
        y = tf.reduce_prod(c, axis=axis) * 2.0
    np.testing.assert_allclose(f(tf.constant(x)), t.gradient(y, c))


@pytest.mark.parametrize("axis, idx", [(1, [2, 0, 2]), (-1, [[3, 3], [0, 1]]), (0, [1, 1])])
def test_gather_gradient_of_unknown_rank(axis, idx):
    x = np.arange(24.0).reshape(2, 3, 4)

    def loss(x):
        y = tf.gather(x, idx, axis=axis)
        return y * tf.cast(tf.reshape(tf.range(tf.size(y)), tf.shape(y)), y.dtype)

    @tf.function(input_signature=[tf.TensorSpec(None, tf.float64)])
    def f(x):
        with tf.GradientTape() as t:
            t.watch(x)
            y = loss(x)
        return tf.convert_to_tensor(t.gradient(y, x))

    with tf.GradientTape() as t:
        c = tf.constant(x)
        t.watch(c)
        y = loss(c)
    np.testing.assert_array_equal(f(tf.constant(x)), tf.convert_to_tensor(t.gradient(y, c)))


def test_second_derivative_through_sqrt_at_zero_is_nan_as_in_tf():
    # std of equal values is sqrt(0): TF's second derivative through it is NaN, and so is
    # everything it reaches, even where the first derivative was exactly 0
    x0 = tf.constant([1.0, 2.0], tf.float64)
    x1 = tf.constant([1.84], tf.float64)
    with tf.GradientTape(persistent=True) as t2:
        t2.watch([x0, x1])
        with tf.GradientTape() as t1:
            t1.watch([x0, x1])
            y = tf.reduce_sum(x0 * (tf.math.reduce_std(x1, -1, keepdims=True) ** 3 + 1.0))
        g0, g1 = t1.gradient(y, [x0, x1])
        s = tf.reduce_sum(tf.sin(g0)) + tf.reduce_sum(tf.sin(g1))
    np.testing.assert_array_equal(g0, [1.0, 1.0])
    np.testing.assert_array_equal(g1, [0.0])
    h0, h1 = t2.gradient(s, [x0, x1])
    assert np.isnan(h0).all() and np.isnan(h1).all()


def test_gather_nd_of_whole_rows_gives_a_sparse_gradient():
    v = tf.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    with tf.GradientTape(persistent=True) as t:
        rows = tf.reduce_sum(tf.gather_nd(v, [[1], [1], [2]]) ** 2)
        elements = tf.reduce_sum(tf.gather_nd(v, [[1, 0], [1, 0]]) ** 2)
    g = t.gradient(rows, v)
    assert isinstance(g, tf.IndexedSlices)
    np.testing.assert_array_equal(g.indices, [1, 1, 2])
    np.testing.assert_array_equal(tf.convert_to_tensor(g), [[0, 0], [12, 16], [10, 12]])
    assert not isinstance(t.gradient(elements, v), tf.IndexedSlices)
    np.testing.assert_array_equal(t.gradient(elements, v), [[0, 0], [12, 0], [0, 0]])


_BINARY = [tf.add, tf.multiply, tf.maximum, tf.math.squared_difference,
           lambda a, b: a / (b * b + 1.0), lambda a, b: tf.where(a > b, a * b, a - b)]


@settings(max_examples=25, deadline=None)
@given(st.lists(st.sampled_from([1, 2, 3]), min_size=0, max_size=3),
       st.lists(st.booleans(), min_size=3, max_size=3),
       st.integers(0, len(_BINARY) - 1), st.integers(0, 2))
def test_traced_gradients_with_unknown_dims_equal_eager_ones(shape, ones, op, drop):
    """Generated: broadcasting binary ops, differentiated eagerly and in a function whose
    input_signature leaves every dim (or the rank) unknown."""
    a_shape = list(shape)
    b_shape = [1 if one else d for d, one in zip(shape, ones)][drop:]  # b broadcasts
    rng = np.random.RandomState(len(shape) * 7 + op)
    a = tf.constant(rng.uniform(-2, 2, a_shape))
    b = tf.constant(rng.uniform(-2, 2, b_shape))
    fn = _BINARY[op]

    def grads(a, b):
        with tf.GradientTape() as t:
            t.watch([a, b])
            y = fn(a, b) if op % 2 else fn(b, a)
            y = tf.reduce_sum(y * tf.reshape(tf.cast(tf.range(1, tf.size(y) + 1), y.dtype),
                                             tf.shape(y)))
        return t.gradient(y, [a, b])

    want = grads(a, b)
    for spec in ([None] * len(a_shape), [None] * len(b_shape)), (None, None):
        got = tf.function(grads, input_signature=[tf.TensorSpec(spec[0], tf.float64),
                                                  tf.TensorSpec(spec[1], tf.float64)])(a, b)
        for w, g in zip(want, got):
            assert g.shape == w.shape
            np.testing.assert_allclose(g, w, rtol=1e-12)


def test_sign_of_complex_tensors_has_the_gradient_of_x_over_abs_x():
    x = tf.constant([0.5 + 0.3j, -1.0 + 2.0j, 0.0], tf.complex128)
    w = tf.constant([1 + 1j, 2 - 1j, 0.5], tf.complex128)
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        y = tf.reduce_sum(tf.math.real(tf.math.sign(x) * w))
        same = tf.reduce_sum(tf.math.real(tf.math.divide_no_nan(x, tf.cast(tf.abs(x), x.dtype)) * w))
    np.testing.assert_allclose(t.gradient(y, x), t.gradient(same, x))
    assert np.abs(t.gradient(y, x).numpy()[:2]).min() > 0.1  # not the real sign's zeros
    np.testing.assert_allclose(tf.math.sign(x), [0.5 + 0.3j, -1 + 2j, 0] / np.abs(
        [0.5 + 0.3j, -1 + 2j, 1]) * [1, 1, 0])


def test_second_derivatives_through_moments_are_tfs():
    # TF stops the mean's gradient inside the variance: first derivatives are unchanged (the
    # deviations sum to zero), second ones differ from the unstopped formula.
    # Expected values: TF 2.21 on the same program.
    x = tf.Variable(np.array([[1., 2., 4.], [3., 0., 5.]], np.float32))
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            m, v = tf.nn.moments(x, [1])
            y = tf.reduce_sum(v * v) + tf.reduce_sum(m * v)
        g = inner.gradient(y, x)
        z = tf.reduce_sum(g * g)
    np.testing.assert_allclose(g.numpy(), [[-4.3210, -0.6914, 6.5679],
                                           [3.8765, -18.3457, 18.6914]], rtol=1e-4)
    np.testing.assert_allclose(outer.gradient(z, x).numpy(),
                               [[-64.911, -7.759, 106.546], [155.358, -679.901, 712.198]],
                               rtol=1e-4)


def test_unsupported_qr_and_svd_gradients_raise_pythons_not_implemented_error():
    x = tf.constant(np.random.RandomState(0).randn(5, 3).astype(np.float32))
    for loss, first in [
            (lambda a: tf.linalg.qr(a, full_matrices=True)[1],
             "QrGrad not implemented when nrows > ncols and full_matrices is true."),
            (lambda a: tf.linalg.svd(a, full_matrices=True)[1],
             "svd gradient is not implemented for abs(m - n) > 1 when full_matrices is True.")]:
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = loss(x)
        with pytest.raises(NotImplementedError, match=re.escape(first)):
            tape.gradient(y, x)

    @tf.function(input_signature=[tf.TensorSpec([None, None])])
    def unknown(a):
        with tf.GradientTape() as tape:
            tape.watch(a)
            y = tf.linalg.svd(a)[0]
        return tape.gradient(y, a)
    with pytest.raises(NotImplementedError, match="SVD gradient has not been implemented for "
                                                  "input with unknown inner matrix shape"):
        unknown.get_concrete_function()


def test_xlogy_family_and_cumprod_gradients_of_complex_inputs_are_not_conjugated_as_in_tf():
    # TF 2.21 conjugates for Mul, Log, ..., but not in the gradients of Xlogy, Xlog1py, Xdivy
    # and Cumprod: a real loss Re f(z) has the gradient f'(z) there, not conj(f'(z)).
    x = np.array([0.8 + 0.3j, 1.2 - 0.4j], np.complex64)
    y = np.array([0.5 - 0.2j, 0.9 + 0.6j], np.complex64)
    cases = [(tf.math.xlogy, [np.log(y), x / y]),
             (tf.math.xlog1py, [np.log1p(y), x / (y + 1)]),
             (tf.math.xdivy, [1 / y, -x / y ** 2]),
             (lambda a, b: tf.math.cumprod(tf.concat([a, b], 0)),
              None)]
    for fn, want in cases:
        a, b = tf.constant(x), tf.constant(y)
        with tf.GradientTape() as tape:
            tape.watch([a, b])
            loss = tf.math.real(fn(a, b))
        got = tape.gradient(loss, [a, b])
        if want is None:  # cumprod of [x0, x1, y0, y1]: d/dz_i of the sum of the prefixes
            z = np.concatenate([x, y])
            prefixes = np.cumprod(z)
            want_all = np.cumsum(prefixes[::-1])[::-1] / z
            want = [want_all[:2], want_all[2:]]
        for g, w in zip(got, want):
            np.testing.assert_allclose(g.numpy(), w, rtol=1e-5)


def test_determinant_gradient_of_a_complex_matrix_is_tfs_det_times_inverse_adjoint():
    # TF 2.21: the gradient of det(A) for upstream g is g det(A) inv(A)^H (det not conjugated)
    a = np.array([[1 + 1j, 2 - 0.5j], [0.3j, 1.5 + 0.2j]], np.complex64)
    x = tf.constant(a)
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = tf.math.real(tf.linalg.det(x))
    want = np.linalg.det(a) * np.linalg.inv(a).conj().T
    np.testing.assert_allclose(tape.gradient(loss, x).numpy(), want, rtol=1e-5)


def test_batch_jacobian_of_an_unconnected_target_is_zeros_of_the_targets_dtype():
    x = tf.ones([2, 3])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.constant([[1], [2]])
    for pfor in (True, False):
        got = tape.batch_jacobian(y, x, experimental_use_pfor=pfor)
        assert got.dtype == tf.int32 and got.numpy().tolist() == [[[0, 0, 0]], [[0, 0, 0]]]

    @tf.function(input_signature=[tf.TensorSpec([None, 3])])
    def unknown_batch(x):
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(x)
            y = tf.zeros_like(x[:, :2], tf.float64)
        return (tape.batch_jacobian(y, x),
                tape.batch_jacobian(y, x, experimental_use_pfor=False))
    for got in unknown_batch(tf.ones([2, 3])):
        assert got.dtype == tf.float64 and got.shape == (2, 2, 3)
        assert not got.numpy().any()


def test_linalg_gradients_with_matrix_sizes_unknown_while_tracing_equal_eager_ones():
    m = np.array([[2.0, 0.5, 0.1], [0.3, 3.0, 0.2], [0.1, 0.4, 1.5]], np.float32)
    spd, b = m @ m.T, np.arange(6, dtype=np.float32).reshape(3, 2)
    losses = [lambda a, r: tf.linalg.diag_part(a) ** 2,
              lambda a, r: tf.linalg.trace(a) ** 2,
              lambda a, r: tf.linalg.logdet(a),
              lambda a, r: tf.linalg.cholesky(a) * tf.reshape(tf.range(9.0), [3, 3]),
              lambda a, r: tf.linalg.cholesky_solve(tf.linalg.cholesky(a), r) ** 2,
              lambda a, r: tf.linalg.lstsq(a, r) ** 2]

    def grads(loss, a, r):
        with tf.GradientTape() as tape:
            tape.watch([a, r])
            y = loss(a, r)
        return tape.gradient(y, [a, r], unconnected_gradients="zero")

    for loss in losses:
        traced = tf.function(lambda a, r, loss=loss: grads(loss, a, r), input_signature=[
            tf.TensorSpec([None, None]), tf.TensorSpec([None, None])])
        want = grads(loss, tf.constant(spd), tf.constant(b))
        got = traced(tf.constant(spd), tf.constant(b))
        for g, w in zip(got, want):
            np.testing.assert_allclose(g.numpy(), w.numpy(), rtol=2e-5, atol=1e-5)


def test_tensor_scatter_max_and_min_gradients_with_unknown_dims():
    x = np.arange(12, dtype=np.float32).reshape(3, 4) / 3.0 - 1.5

    def grads(fn, a, u):
        with tf.GradientTape() as tape:
            tape.watch([a, u])
            y = fn(a, [[0, 1], [1, 1]], u) ** 2
        return tape.gradient(y, [a, u])

    for fn in (tf.tensor_scatter_nd_max, tf.tensor_scatter_nd_min):
        traced = tf.function(lambda a, u, fn=fn: grads(fn, a, u), input_signature=[
            tf.TensorSpec([None, None]), tf.TensorSpec([None])])
        want = grads(fn, tf.constant(x), tf.constant([1.0, -2.0]))
        got = traced(tf.constant(x), tf.constant([1.0, -2.0]))
        for g, w in zip(got, want):
            np.testing.assert_allclose(g.numpy(), w.numpy())


_EINSUMS = [("ij,jk->ik", [(2, 3), (3, 4)]), ("ii->", [(3, 3)]), ("ii->i", [(3, 3)]),
            ("ij->j", [(2, 3)]), ("i,j->ij", [(2,), (3,)]),
            ("...ij,...jk->...ik", [(2, 2, 3), (2, 3, 2)]),
            ("...ij,jk->...ik", [(2, 2, 3), (3, 2)]),
            ("bij,bjk->bik", [(2, 2, 3), (2, 3, 4)]),
            ("a...b,b...->a...", [(2, 1, 3, 4), (4, 3)]),
            ("...ij,...jk->...ik", [(1, 2, 3), (4, 3, 2)])]


@pytest.mark.parametrize("case", _EINSUMS, ids=[e for e, _ in _EINSUMS])
@settings(max_examples=3, deadline=None)
@given(st.integers(0, 2 ** 16))
def test_einsum_gradients_with_unknown_dims_equal_eager_ones(case, seed):
    equation, shapes = case
    rng = np.random.RandomState(seed)
    values = [tf.constant(rng.randn(*s).astype(np.float32)) for s in shapes]

    def grads(*xs):
        with tf.GradientTape() as tape:
            tape.watch(list(xs))
            y = tf.einsum(equation, *xs)
            y = y * tf.reshape(tf.cast(tf.range(tf.size(y)), y.dtype), tf.shape(y))
        return tape.gradient(y, list(xs))

    want = grads(*values)
    traced = tf.function(grads, input_signature=[tf.TensorSpec([None] * len(s))
                                                 for s in shapes])
    for g, w in zip(traced(*values), want):
        assert g.shape == w.shape
        np.testing.assert_allclose(g.numpy(), w.numpy(), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("mode", ["REFLECT", "SYMMETRIC"])
def test_mirror_pad_gradient_with_unknown_dims_equals_the_eager_one(mode):
    x = np.random.RandomState(0).rand(2, 5, 4, 3).astype(np.float32)
    paddings = [[0, 0], [1, 2], [2, 1], [0, 0]]

    def grads(a):
        with tf.GradientTape() as tape:
            tape.watch(a)
            y = tf.pad(a, paddings, mode)
            y = y * tf.reshape(tf.cast(tf.range(tf.size(y)), y.dtype), tf.shape(y))
        return tape.gradient(y, a)

    traced = tf.function(grads, input_signature=[tf.TensorSpec([None] * 4)])
    np.testing.assert_allclose(traced(tf.constant(x)).numpy(), grads(tf.constant(x)).numpy(),
                               rtol=1e-6)


@pytest.mark.parametrize("loss, indices", [
    (lambda e: tf.reduce_sum(tf.gather(e, [1]) ** 2) + tf.reduce_sum(tf.gather(e, [3])), [3, 1]),
    (lambda e: tf.reduce_sum(tf.gather(e, [0]) * tf.reduce_sum(tf.gather(e, [1])
                                                               + tf.gather(e, [2])))
     + tf.reduce_sum(tf.gather(e, [4])), [4, 0, 1, 2]),
    (lambda e: tf.reduce_sum(tf.concat([tf.gather(e, [1]), tf.gather(e, [2]) * 3.0,
                                        tf.gather(e, [0])], 0)), [1, 0, 2]),
])
def test_sparse_gradients_list_slices_in_the_order_tf_plays_the_tape(loss, indices):
    # TF plays an op once every reader of its outputs has had its turn, first come first
    # served; a sum of sparse gradients lists their slices in the order they arrive
    v = tf.Variable(tf.reshape(tf.range(10.0), [5, 2]))
    with tf.GradientTape() as t:
        y = loss(v)
    g = t.gradient(y, v)
    assert isinstance(g, tf.IndexedSlices)
    np.testing.assert_array_equal(g.indices, indices)


def test_spectral_norm_of_a_zero_matrix_has_a_zero_gradient():
    # TF's norm(ord=2) takes |singular values|: abs's gradient at 0 is 0
    for x in (tf.zeros([2, 2], tf.float64), tf.zeros([3, 2, 2], tf.float64)):
        with tf.GradientTape() as t:
            t.watch(x)
            y = tf.reduce_sum(tf.norm(x, ord=2, axis=[-2, -1]))
        np.testing.assert_array_equal(t.gradient(y, x), np.zeros(x.shape))
    x = tf.eye(2, dtype=tf.float64)  # away from zero, unchanged: ties share the gradient
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.norm(x, ord=2, axis=[0, 1])
    np.testing.assert_allclose(t.gradient(y, x), [[0.5, 0.0], [0.0, 0.5]])


def test_gradient_of_reordered_sparse_values_is_a_dense_tensor():
    v = tf.constant([1.0, -2.0, 3.0])
    with tf.GradientTape(persistent=True) as t:
        t.watch(v)
        s = tf.sparse.SparseTensor([[2, 1], [0, 0], [1, 2]], v, [3, 3])
        reordered = tf.sparse.reorder(s).values * [1.0, 2.0, 3.0]
        transposed = tf.sparse.transpose(tf.sparse.reorder(s)).values * [1.0, 2.0, 3.0]
    for y, want in ((reordered, [3.0, 1.0, 2.0]), (transposed, [2.0, 1.0, 3.0])):
        g = t.gradient(y, v)
        assert not isinstance(g, tf.IndexedSlices)  # as TF's SparseReorder gradient
        np.testing.assert_allclose(g, want)


def test_sparse_concat_passes_no_gradient_to_the_values():
    v = tf.constant([1.0, -2.0, 3.0])
    with tf.GradientTape() as t:
        t.watch(v)
        s = tf.sparse.SparseTensor([[0, 0], [1, 2], [2, 1]], v, [3, 3])
        y = tf.reduce_sum(tf.sparse.concat(0, [s, s]).values)
    assert t.gradient(y, v) is None  # TF declares SparseConcat not differentiable

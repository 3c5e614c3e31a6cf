"""TF's training ops as `tf.raw_ops` runs them, against values recorded from TF."""
import numpy as np
import pytest

import eagerflow as tf


def test_sparse_apply_updates_a_repeated_row_once_per_occurrence():
    v, a = tf.Variable([[1.0], [2.0]]), tf.Variable([[0.0], [0.0]])
    tf.raw_ops.ResourceSparseApplyMomentum(
        var=v.handle, accum=a.handle, lr=0.1, grad=tf.constant([[1.0], [1.0], [3.0]]),
        indices=tf.constant([0, 0, 1]), momentum=0.9)
    np.testing.assert_allclose(v.numpy(), [[0.71], [1.7]], rtol=1e-6)
    np.testing.assert_allclose(a.numpy(), [[1.9], [3.0]], rtol=1e-6)
    v, a = tf.Variable([1.0, 2.0]), tf.Variable([1.0, 1.0])
    tf.raw_ops.ResourceSparseApplyAdagradV2(
        var=v.handle, accum=a.handle, lr=1.0, epsilon=0.0, grad=tf.constant([1.0, 1.0]),
        indices=tf.constant([1, 1], tf.int64))
    np.testing.assert_allclose(v.numpy(), [1.0, 0.7155429], rtol=1e-6)
    np.testing.assert_allclose(a.numpy(), [1.0, 3.0])


def test_legacy_keras_sums_a_repeated_row_first():
    emb = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
    opt = tf.keras.optimizers.legacy.SGD(0.1, momentum=0.9)
    for _ in range(2):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.gather(emb, [1, 1, 0]) ** 2)
        opt.apply_gradients(zip(tape.gradient(loss, [emb]), [emb]))
    np.testing.assert_allclose(emb.numpy(), [[0.46, 0.92], [0.0, 0.0]], atol=1e-6)


def test_sparse_apply_index_out_of_range():
    v, a = tf.Variable(np.ones((4, 2), np.float32)), tf.Variable(np.ones((4, 2), np.float32))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Index 5 at offset 1 in indices is out of range"):
        tf.raw_ops.ResourceSparseApplyMomentum(
            var=v.handle, accum=a.handle, lr=0.1, grad=tf.ones((2, 2)),
            indices=tf.constant([0, 5]), momentum=0.9)
    s, sa = tf.Variable(1.0), tf.Variable(0.0)
    with pytest.raises(tf.errors.InvalidArgumentError, match="var must be at least 1 dimensional"):
        tf.raw_ops.ResourceSparseApplyMomentum(var=s.handle, accum=sa.handle, lr=0.1,
                                               grad=tf.constant([1.0]), indices=[0], momentum=0.9)
    with pytest.raises(tf.errors.InvalidArgumentError, match="indices must be one-dimensional"):
        tf.raw_ops.ResourceSparseApplyMomentum(
            var=v.handle, accum=a.handle, lr=0.1, grad=tf.ones((1, 2)),
            indices=tf.constant([[0]]), momentum=0.9)


def test_proximal_updates():
    v = tf.Variable([1.0, -0.05, 0.5])
    tf.raw_ops.ResourceApplyProximalGradientDescent(
        var=v.handle, alpha=0.1, l1=1.0, l2=0.5, delta=tf.constant([1.0, 1.0, -2.0]))
    np.testing.assert_allclose(v.numpy(), [0.7619048, -0.04761905, 0.5714285], rtol=1e-6)
    v = tf.Variable([[1.0, -0.05], [0.5, 2.0]])
    tf.raw_ops.ResourceSparseApplyProximalGradientDescent(
        var=v.handle, alpha=0.1, l1=1.0, l2=0.5, grad=tf.ones((2, 2)), indices=tf.constant([0, 0]))
    np.testing.assert_allclose(v.numpy(), [[0.5351474, -0.04535148], [0.5, 2.0]], rtol=1e-6)
    v, a = tf.Variable([1.0, -0.05, 0.5]), tf.Variable([1.0, 1.0, 3.0])
    tf.raw_ops.ResourceApplyProximalAdagrad(
        var=v.handle, accum=a.handle, lr=0.1, l1=0.2, l2=0.5, grad=tf.constant([1.0, 1.0, -2.0]))
    np.testing.assert_allclose(v.numpy(), [0.8838967, -0.10292945, 0.55749786], rtol=1e-6)
    np.testing.assert_allclose(a.numpy(), [2.0, 2.0, 7.0])


def test_tf1_adagrad_sparse_update():
    v, a = tf.Variable([1.0, 2.0]), tf.Variable([1.0, 1.0])
    tf.raw_ops.ResourceSparseApplyAdagrad(var=v.handle, accum=a.handle, lr=1.0,
                                          grad=tf.constant([1.0, 1.0]), indices=tf.constant([1, 1]))
    np.testing.assert_allclose(v.numpy(), [1.0, 0.7155429], rtol=1e-6)
    np.testing.assert_allclose(a.numpy(), [1.0, 3.0])


@pytest.mark.parametrize("multiply, var, linear", [
    (False, [0.0012008192, -0.15946102, 0.5455839], [-0.056514643, 1.238973, -5.2188516]),
    (True, [-0.14626013, 0.06853719, 0.26059285], [0.084348537, -0.056102693, -0.25188518]),
])
def test_ftrl(multiply, var, linear):
    v, a, l = tf.Variable([0.5, -1.0, 2.0]), tf.Variable([0.2, 0.3, 0.4]), \
        tf.Variable([0.1, -0.2, 0.3])
    tf.raw_ops.ResourceApplyFtrl(var=v.handle, accum=a.handle, linear=l.handle,
                                 grad=tf.constant([0.3, -0.5, 0.7]), lr=0.1, l1=0.05, l2=0.02,
                                 lr_power=-0.5, multiply_linear_by_lr=multiply)
    np.testing.assert_allclose(v.numpy(), var, rtol=1e-5)
    np.testing.assert_allclose(l.numpy(), linear, rtol=1e-5)
    np.testing.assert_allclose(a.numpy(), [0.29, 0.55, 0.89], rtol=1e-6)


def test_adagrad_dual_averaging():
    v, g, gg = tf.Variable([1.0, 2.0]), tf.Variable([0.5, -0.1]), tf.Variable([1.0, 1.0])
    tf.raw_ops.ResourceApplyAdagradDA(
        var=v.handle, gradient_accumulator=g.handle, gradient_squared_accumulator=gg.handle,
        grad=tf.constant([1.0, 0.2]), lr=0.1, l1=0.1, l2=0.2,
        global_step=tf.constant(3, tf.int64))
    np.testing.assert_allclose(v.numpy(), [-0.08139934, 0.0], rtol=1e-6)
    np.testing.assert_allclose(g.numpy(), [1.5, 0.1], rtol=1e-6)


def test_update_scalars_and_slots_are_checked():
    v, a = tf.Variable(np.ones((4, 2), np.float32)), tf.Variable(np.ones((4, 2), np.float32))
    with pytest.raises(tf.errors.InvalidArgumentError, match="alpha is not a scalar: \\[2\\]"):
        tf.raw_ops.ResourceApplyGradientDescent(var=v.handle, alpha=[0.1, 0.2],
                                                delta=tf.ones((4, 2)))
    with pytest.raises(tf.errors.InvalidArgumentError, match="momentum is not a scalar: \\[1\\]"):
        tf.raw_ops.ResourceApplyMomentum(var=v.handle, accum=a.handle, lr=0.1,
                                         grad=tf.ones((4, 2)), momentum=[0.9])
    b = tf.Variable(np.ones((4, 3), np.float32))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"var and accum do not have the same shape\[4,2\] \[4,3\]"):
        tf.raw_ops.ResourceApplyMomentum(var=v.handle, accum=b.handle, lr=0.1,
                                         grad=tf.ones((4, 2)), momentum=0.9)
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.raw_ops.ResourceApplyGradientDescent(var=v.handle, alpha=tf.constant(0.1, tf.float64),
                                                delta=tf.ones((4, 2), tf.float64))
    np.testing.assert_array_equal(v.numpy(), np.ones((4, 2)))


def test_sign_updates():
    v, m = tf.Variable([1.0, -2.0, 0.5, 0.0]), tf.Variable([0.1, 0.3, -0.2, 0.0])
    g = tf.constant([0.5, -1.0, 0.7, 0.0])
    for _ in range(2):
        tf.raw_ops.ResourceApplyAddSign(var=v.handle, m=m.handle, lr=0.1, alpha=1.0,
                                        sign_decay=0.5, beta=0.9, grad=g)
    np.testing.assert_allclose(v.numpy(), [0.85, -1.9, 0.43, 0.0], rtol=1e-6)
    np.testing.assert_allclose(m.numpy(), [0.176, 0.053, -0.029, 0.0], rtol=1e-5)
    v, m = tf.Variable([1.0, -2.0, 0.5, 0.0]), tf.Variable([0.1, 0.3, -0.2, 0.0])
    for _ in range(2):
        tf.raw_ops.ResourceApplyPowerSign(var=v.handle, m=m.handle, lr=0.1,
                                          logbase=float(np.log(2.0)), sign_decay=0.5, beta=0.9,
                                          grad=g)
    np.testing.assert_allclose(v.numpy(), [0.8585787, -1.8585787, 0.40100503, 0.0], rtol=1e-6)


def test_sparse_adagrad_dual_averaging():
    v = tf.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    g = tf.Variable([[0.5, -0.1], [0.2, 0.3], [0.0, 1.0]])
    gg = tf.Variable(np.ones((3, 2), np.float32))
    for step in (1, 2):
        tf.raw_ops.ResourceSparseApplyAdagradDA(
            var=v.handle, gradient_accumulator=g.handle, gradient_squared_accumulator=gg.handle,
            grad=tf.constant([[1.0, 0.2], [-0.3, 0.05], [0.4, 0.4]]),
            indices=tf.constant([2, 0, 2], tf.int64), lr=0.1, l1=0.1, l2=0.2,
            global_step=tf.constant(step, tf.int64))
    np.testing.assert_allclose(v.numpy(), [[0.0, 0.0], [3.0, 4.0], [-0.1396283, -0.16350345]],
                               rtol=1e-6)
    np.testing.assert_allclose(gg.numpy(), [[1.18, 1.005], [1.0, 1.0], [3.32, 1.4]], rtol=1e-6)


def test_complex_variables_train_as_in_tf():
    grad = tf.constant([0.3 - 0.2j, 0.1 + 0.4j], tf.complex64)
    want = {"sgd": [0.913 + 2.058j, -0.529 - 0.016j],
            "adam": [0.800002 + 2.000001j, -0.699998 + 0.099999j]}
    for name, opt in (("sgd", tf.keras.optimizers.SGD(0.1, momentum=0.9)),
                      ("sgd", tf.keras.optimizers.legacy.SGD(0.1, momentum=0.9)),
                      ("sgd", tf.compat.v1.train.MomentumOptimizer(0.1, 0.9)),
                      ("adam", tf.keras.optimizers.legacy.Adam(0.1))):
        v = tf.Variable([1.0 + 2.0j, -0.5 + 0.1j], dtype=tf.complex64)
        for _ in range(2):
            opt.apply_gradients([(grad, v)])
        np.testing.assert_allclose(v.numpy(), want[name], atol=2e-6)


def test_complex_sparse_momentum():
    v = tf.Variable([1.0 + 2.0j, -0.5 + 0.1j], dtype=tf.complex64)
    a = tf.Variable([0.2 + 0.1j, 0.3 - 0.1j], dtype=tf.complex64)
    for _ in range(2):
        tf.raw_ops.ResourceSparseApplyMomentum(
            var=v.handle, accum=a.handle, lr=tf.constant(0.1, tf.complex64),
            grad=tf.constant([0.3 - 0.2j], tf.complex64), indices=tf.constant([1]),
            momentum=tf.constant(0.9, tf.complex64))
    np.testing.assert_allclose(v.numpy(), [1.0 + 2.0j, -0.6383 + 0.1751j], atol=1e-6)
    np.testing.assert_allclose(a.numpy(), [0.2 + 0.1j, 0.813 - 0.461j], atol=1e-6)


@pytest.mark.parametrize("make, want", [
    (lambda: tf.keras.optimizers.Adagrad(0.1), [0.85652 + 2.03004j, -0.71081 + 0.05783j]),
    (lambda: tf.compat.v1.train.AdagradOptimizer(0.1), [0.85652 + 2.03004j, -0.71081 + 0.05783j]),
    (lambda: tf.keras.optimizers.Nadam(0.1), [0.81636 + 2.0j, -0.68364 + 0.1j]),
    (lambda: tf.keras.optimizers.AdamW(0.1), [0.79924 + 1.9984j, -0.69956 + 0.09992j]),
])
def test_keras_complex_updates(make, want):
    v = tf.Variable([1.0 + 2.0j, -0.5 + 0.1j], dtype=tf.complex64)
    opt = make()
    for _ in range(2):
        opt.apply_gradients([(tf.constant([0.3 - 0.2j, 0.1 + 0.4j], tf.complex64), v)])
    np.testing.assert_allclose(v.numpy(), want, atol=1e-5)


def test_nesterov_momentum_rounds_as_tfs_kernels():
    # TF's dense kernel steps by grad * lr + accum * momentum * lr, its sparse kernel by
    # lr * grad + (lr * momentum) * accum (tf 2.21's results)
    v, a = tf.Variable([-2.0]), tf.Variable([0.0])
    tf.raw_ops.ResourceApplyMomentum(var=v.handle, accum=a.handle, lr=tf.constant(0.1),
                                     grad=tf.constant([-19.0]), momentum=tf.constant(0.9),
                                     use_nesterov=True)
    assert v.numpy().tolist() == [1.6100001335144043]
    out = []
    for g in (-19.0, 7.4175):
        v, a = tf.Variable([[-2.0], [1.0]]), tf.Variable([[0.3], [0.0]])
        tf.raw_ops.ResourceSparseApplyMomentum(
            var=v.handle, accum=a.handle, lr=tf.constant(0.1), grad=tf.constant([[g]]),
            indices=tf.constant([0]), momentum=tf.constant(0.9), use_nesterov=True)
        out.append(v.numpy().ravel().tolist())
    assert out == [[1.5857000350952148, 1.0], [-3.4336249828338623, 1.0]]


def test_ada_max_rounds_as_tfs_kernel():
    # TF's kernel steps by lr / (1 - beta1_power) * (m / (v + epsilon)) (tf 2.21's result)
    v = tf.Variable([0.5, -1.0, 2.0, 0.1, 0.2, -0.3, 1.5, -2.5, 0.7])
    m, u = tf.Variable(tf.zeros([9])), tf.Variable(tf.zeros([9]))
    for i in range(12):
        g = tf.constant([0.85, -1.6, 3.3, 0.07, 2.2, -0.9, 1.7, 0.31, -0.44]) * (1.0 + 0.37 * i)
        tf.raw_ops.ResourceApplyAdaMax(
            var=v.handle, m=m.handle, v=u.handle, beta1_power=tf.constant(0.9 ** (i + 1)),
            lr=tf.constant(0.01), beta1=tf.constant(0.9), beta2=tf.constant(0.999),
            epsilon=tf.constant(1e-7), grad=g)
    assert v.numpy().tolist() == [
        0.4096413552761078, -0.9096413254737854, 1.9096413850784302, 0.0096413753926754,
        0.10964129865169525, -0.20964136719703674, 1.4096413850784302, -2.590358257293701,
        0.7903586626052856]

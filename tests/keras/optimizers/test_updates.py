"""Optimizer updates: tf_keras's trajectories, the documented formulas in NumPy, sparse
gradients, eager code and traced functions, and in-place updates that keep earlier reads."""
import numpy as np
import pytest

import eagerflow as tf
from tests.internals import optimizers

GRADS = [[0.5, -1.0, 2.0], [-0.3, 0.2, 1.0], [0.1, 0.4, -2.0]]

# Produced by tf_keras 2.21 (the reference TF venv), eager:
#   w = tf.Variable([1.0, -2.0, 0.5]); opt = getattr(tf_keras.optimizers, name)(**kwargs)
#   for g in GRADS: opt.apply_gradients([(tf.constant(g), w)])
#   [float(x) for x in w.numpy()]
TF_KERAS = [
    ("SGD", {'learning_rate': 0.1},
     [0.9700000286102295, -1.959999918937683, 0.40000003576278687]),
    ("SGD", {'learning_rate': 0.1, 'momentum': 0.9},
     [0.9114999771118164, -1.806999921798706, -0.031999990344047546]),
    ("SGD", {'learning_rate': 0.1, 'momentum': 0.9, 'nesterov': True},
     [0.8903499841690063, -1.7862999439239502, -0.07879999279975891]),
    ("Adam", {'learning_rate': 0.1},
     [0.8554555177688599, -1.835475206375122, 0.295705646276474]),
    ("Adam", {'learning_rate': 0.1, 'amsgrad': True},
     [0.8554555177688599, -1.835475206375122, 0.295705646276474]),
    ("Adam", {'learning_rate': 0.1, 'adaptive_epsilon': True, 'epsilon': 0.1},
     [0.8816123008728027, -1.8526235818862915, 0.30661749839782715]),
    ("AdamW", {'learning_rate': 0.1, 'weight_decay': 0.1},
     [0.8279359936714172, -1.7785742282867432, 0.2837773263454437]),
    ("Adamax", {'learning_rate': 0.1},
     [0.8668168783187866, -1.8546169996261597, 0.3166479766368866]),
    ("Nadam", {'learning_rate': 0.1},
     [0.9198693633079529, -1.9402644634246826, 0.40483003854751587]),
    ("RMSprop", {'learning_rate': 0.1},
     [0.7944326400756836, -1.875118374824524, 0.258005827665329]),
    ("RMSprop", {'learning_rate': 0.1, 'momentum': 0.5, 'centered': True},
     [0.6121964454650879, -1.6436169147491455, -0.10411004722118378]),
    ("Adagrad", {'learning_rate': 0.1},
     [0.9458041787147522, -1.9584678411483765, 0.4232456386089325]),
    ("Adadelta", {'learning_rate': 1.0, 'rho': 0.5, 'epsilon': 0.001},
     [0.9763917922973633, -2.0074191093444824, 0.474908709526062]),
    ("Ftrl", {'learning_rate': 0.1},
     [0.4112817347049713, -1.3554450273513794, 0.34515875577926636]),
    ("Ftrl", {'learning_rate': 0.1, 'l1_regularization_strength': 0.01,
              'l2_regularization_strength': 0.02, 'l2_shrinkage_regularization_strength': 0.03,
              'beta': 0.5, 'learning_rate_power': -0.7},
     [0.2429000735282898, -1.0620648860931396, 0.33580681681632996]),
    ("Adafactor", {'learning_rate': 0.1},
     [0.9188858866691589, -1.9904093742370605, 0.43124550580978394]),
    ("Adafactor", {'learning_rate': 0.5, 'relative_step': False, 'clip_threshold': 0.5,
                   'epsilon_2': 0.1, 'beta_2_decay': -0.5},
     [0.8490793704986572, -2.1032280921936035, 0.2817162573337555]),
    ("Lion", {'learning_rate': 0.1},
     [0.8999999761581421, -2.0999999046325684, 0.4000000059604645]),
    ("Lion", {'learning_rate': 0.01, 'beta_1': 0.5, 'beta_2': 0.8, 'weight_decay': 0.1},
     [0.9870129823684692, -2.0040159225463867, 0.4885315001010895]),
]
IDS = [f"{name}-{i}" for i, (name, _, _) in enumerate(TF_KERAS)]


def _train(name, kwargs, grads, traced, w0=(1.0, -2.0, 0.5), dtype=tf.float32):
    w = tf.Variable(np.asarray(w0), dtype=dtype)
    opt = getattr(optimizers, name)(**kwargs)

    def step(g):
        opt.apply_gradients([(g, w)])
    if traced:
        # built first: tf_keras's Nadam traced while it builds reads a stale momentum
        # product on its first step (see test_nadam_traced_momentum_product_as_tf_keras)
        opt.build([w])
        step = tf.function(step)
    for g in grads:
        step(g if isinstance(g, tf.IndexedSlices) else tf.constant(g, dtype))
    return w.numpy(), opt


# The kernels follow tf_keras's order of operations; TensorFlow's pow and rsqrt still differ
# from NumPy's in the last bit now and then.
@pytest.mark.parametrize("traced", [False, True], ids=["eager", "function"])
@pytest.mark.parametrize("name,kwargs,expected", TF_KERAS, ids=IDS)
def test_matches_tf_keras(name, kwargs, expected, traced):
    got, _ = _train(name, kwargs, GRADS, traced)
    np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-7)


def test_adafactor_factors_the_second_moment_of_matrices():
    # from tf_keras 2.21: the same steps on a matrix, each row getting the gradient reversed
    w = tf.Variable([[1.0, -2.0, 0.5], [0.3, 0.2, -0.1]], name="w")
    opt = tf.keras.optimizers.Adafactor(0.1)
    for g in GRADS:
        opt.apply_gradients([(tf.constant([g, g[::-1]]), w)])
    np.testing.assert_allclose(w.numpy(), [
        [0.9847331643104553, -1.9941604137420654, 0.4319308400154114],
        [0.23193086683750153, 0.2058396190404892, -0.115266814827919]], rtol=1e-6)
    assert [(v.name, v.shape.as_list()) for v in opt.variables] == [
        ("iteration:0", []), ("Adafactor/r/w:0", [2]), ("Adafactor/c/w:0", [3]),
        ("Adafactor/v/w:0", [2, 3])]


def _f32(x):
    """`x` as ``tf.cast(x, tf.float64)`` gives a Python number: through float32."""
    return float(np.float32(x))


def _reference(name, cfg, w, grads):
    """`w` after each of `grads` by the update rules tf_keras documents, in float64. The
    hyperparameters tf_keras passes through ``tf.cast`` are float32 numbers (`_f32`)."""
    lr = _f32(cfg.get("learning_rate", 0.001))  # held in a floatx variable
    b1, b2, eps = cfg.get("beta_1", 0.9), cfg.get("beta_2", 0.999), cfg.get("epsilon", 1e-7)
    rho = cfg.get("rho", 0.95 if name == "Adadelta" else 0.9)
    momentum = cfg.get("momentum", 0.0)
    zeros = np.zeros_like(w)
    s = {"m": zeros, "v": zeros, "vhat": zeros, "mg": zeros, "mom": zeros, "u_product": 1.0,
         "acc": zeros + cfg.get("initial_accumulator_value", 0.1 * (name != "Adadelta"))}
    if name == "Ftrl":  # (filled in float32, then cast)
        s["acc"] = zeros + _f32(cfg.get("initial_accumulator_value", 0.1))
    for t, g in enumerate(grads, 1):
        g = np.asarray(g, np.float64)
        if cfg.get("weight_decay"):
            w = w - w * _f32(cfg["weight_decay"]) * lr
        if name == "SGD":
            s["mom"] = _f32(momentum) * s["mom"] - lr * g
            w = w + (_f32(momentum) * s["mom"] - lr * g if cfg.get("nesterov") else s["mom"])
        elif name in ("Adam", "AdamW", "Nadam"):
            if name == "Nadam":  # every use of its betas is cast
                b1, b2 = _f32(cfg.get("beta_1", 0.9)), _f32(cfg.get("beta_2", 0.999))
            s["m"] = b1 * s["m"] + (1 - b1) * g
            s["v"] = b2 * s["v"] + (1 - b2) * g * g
            if name == "Nadam":
                u_t, u_next = (b1 * (1 - 0.5 * _f32(0.96) ** k) for k in (t, t + 1))
                s["u_product"] *= u_t
                m_hat = (u_next * s["m"] / (1 - s["u_product"] * u_next)
                         + (1 - u_t) * g / (1 - s["u_product"]))
                w = w - lr * m_hat / (np.sqrt(s["v"] / (1 - b2 ** t)) + eps)
                continue
            s["vhat"] = np.maximum(s["vhat"], s["v"])
            v = s["vhat"] if cfg.get("amsgrad") else s["v"]
            b1_power, b2_power = _f32(b1) ** t, _f32(b2) ** t
            eps_hat = eps * np.sqrt(1 - b2_power) if cfg.get("adaptive_epsilon") else eps
            w = w - lr * np.sqrt(1 - b2_power) / (1 - b1_power) * s["m"] / (np.sqrt(v) + eps_hat)
        elif name == "Adamax":
            s["m"] = b1 * s["m"] + (1 - b1) * g
            s["v"] = np.maximum(b2 * s["v"], np.abs(g))
            w = w - lr / (1 - _f32(b1) ** t) * s["m"] / (s["v"] + eps)
        elif name == "RMSprop":
            s["v"] = rho * s["v"] + (1 - rho) * g * g
            s["mg"] = rho * s["mg"] + (1 - rho) * g
            denominator = s["v"] - s["mg"] ** 2 if cfg.get("centered") else s["v"]
            s["mom"] = momentum * s["mom"] + lr * g / np.sqrt(denominator + eps)
            w = w - s["mom"]
        elif name == "Adagrad":
            s["acc"] = s["acc"] + g * g
            w = w - lr * g / np.sqrt(s["acc"] + eps)
        elif name == "Adadelta":
            s["acc"] = rho * s["acc"] + (1 - rho) * g * g
            delta = np.sqrt(s["v"] + eps) / np.sqrt(s["acc"] + eps) * g
            s["v"] = rho * s["v"] + (1 - rho) * delta * delta
            w = w - lr * delta
        elif name == "Ftrl":
            power = cfg.get("learning_rate_power", -0.5)
            l1 = cfg.get("l1_regularization_strength", 0.0)
            l2 = cfg.get("l2_regularization_strength", 0.0) + cfg.get("beta", 0.0) / (2 * lr)
            shrink = cfg.get("l2_shrinkage_regularization_strength", 0.0)
            new_acc = s["acc"] + g * g
            s["m"] = (s["m"] + g + 2 * shrink * w
                      - (new_acc ** -power - s["acc"] ** -power) / lr * w)
            w = (np.clip(s["m"], -l1, l1) - s["m"]) / (new_acc ** -power / lr + 2 * l2)
            s["acc"] = new_acc
        elif name == "Lion":
            b1, b2 = _f32(b1), _f32(cfg.get("beta_2", 0.99))
            w = w - lr * np.sign(b1 * s["m"] + (1 - b1) * g)
            s["m"] = b2 * s["m"] + (1 - b2) * g
        elif name == "Adafactor":
            w = _adafactor_step(cfg, lr, t, s, w, g)
    return w


def _adafactor_step(cfg, lr, t, s, w, g):
    """One Adafactor step by its documented formula; `s` keeps ``r``, ``c`` and ``v``."""
    beta = 1 - t ** cfg.get("beta_2_decay", -0.8)
    squared = g * g + cfg.get("epsilon_1", 1e-30)
    if w.ndim >= 2:
        s["r"] = beta * s.get("r", 0.0) + (1 - beta) * squared.mean(-1)
        s["c"] = beta * s.get("c", 0.0) + (1 - beta) * squared.mean(-2)
        v = (s["r"] / s["r"].mean(-1, keepdims=True))[..., None] * s["c"][..., None, :]
    else:
        v = s["v"] = beta * s["v"] + (1 - beta) * squared
    update = g / np.sqrt(v)
    update = update / max(1.0, np.sqrt(np.mean(update ** 2)) / cfg.get("clip_threshold", 1.0))
    step_size = min(lr, t ** -0.5) * max(_f32(cfg.get("epsilon_2", 1e-3)), np.sqrt(np.mean(w ** 2)))
    return w - step_size * update


_RNG = np.random.default_rng(7)
_W0 = _RNG.normal(size=(5, 3))
_DENSE = [_RNG.normal(size=(5, 3)) for _ in range(4)]
_ROWS = [(_RNG.normal(size=(3, 3)), np.array([4, 1, 4])) for _ in range(4)]  # a row twice


def _dense_of(values, indices):
    dense = np.zeros_like(_W0)
    np.add.at(dense, indices, values)
    return dense


@pytest.mark.parametrize("dtype", [tf.float32, tf.float64], ids=["float32", "float64"])
@pytest.mark.parametrize("traced", [False, True], ids=["eager", "function"])
@pytest.mark.parametrize("sparse", [False, True], ids=["dense", "sparse"])
@pytest.mark.parametrize("name,kwargs,_", TF_KERAS, ids=IDS)
def test_matches_the_documented_formula(name, kwargs, _, sparse, traced, dtype):
    np_dtype = dtype.as_numpy_dtype
    if sparse:
        grads = [tf.IndexedSlices(tf.constant(v.astype(np_dtype)), tf.constant(i),
                                  tf.constant([5, 3])) for v, i in _ROWS]
        dense = [_dense_of(v, i) for v, i in _ROWS]
    else:
        grads = dense = [g.astype(np_dtype) for g in _DENSE]
    got, _ = _train(name, kwargs, grads, traced, _W0.astype(np_dtype), dtype)
    assert got.dtype == np_dtype
    want = _reference(name, kwargs, _W0.astype(np_dtype).astype(np.float64), dense)
    tolerance = 2e-5 if dtype == tf.float32 else 1e-12
    np.testing.assert_allclose(got, want, rtol=tolerance, atol=tolerance)


def test_mixed_dtypes_in_one_step():
    w32, w64 = tf.Variable([1.0, 2.0]), tf.Variable([1.0, 2.0], dtype=tf.float64)
    opt = tf.keras.optimizers.Nadam(0.1)
    for _ in range(3):
        opt.apply_gradients([(tf.constant([1.0, -1.0]), w32),
                             (tf.constant([1.0, -1.0], tf.float64), w64)])
    want = _reference("Nadam", {"learning_rate": 0.1}, np.array([1.0, 2.0]),
                      [np.array([1.0, -1.0])] * 3)
    np.testing.assert_allclose(w32.numpy(), want, rtol=1e-6)
    # The running momentum product is kept in the first variable's dtype, as in tf_keras.
    np.testing.assert_allclose(w64.numpy(), want, rtol=1e-7)


@pytest.mark.parametrize("name", ["SGD", "Adagrad"])
def test_sparse_updates_touch_only_their_rows(name):
    w = tf.Variable(_W0.astype(np.float32))
    before = w.numpy()
    opt = getattr(optimizers, name)(0.1)
    opt.apply_gradients([(tf.IndexedSlices(tf.constant(np.ones((2, 3), np.float32)),
                                           tf.constant([3, 3]), tf.constant([5, 3])), w)])
    after = w.numpy()
    np.testing.assert_array_equal(after[[0, 1, 2, 4]], before[[0, 1, 2, 4]])
    assert np.all(after[3] < before[3])


def test_gradient_of_a_gather_updates_rows():
    table = tf.Variable(np.arange(12, dtype=np.float32).reshape(4, 3))
    opt = tf.keras.optimizers.SGD(0.5)

    @tf.function
    def step():
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.gather(table, [0, 2, 0]))
        opt.apply_gradients(zip(tape.gradient(loss, [table]), [table]))

    step()
    want = np.arange(12, dtype=np.float32).reshape(4, 3)
    want[0] -= 1.0
    want[2] -= 0.5
    np.testing.assert_array_equal(table.numpy(), want)


def test_sparse_indices_out_of_range():
    w = tf.Variable(np.zeros((3, 2), np.float32))
    grad = tf.IndexedSlices(tf.constant(np.ones((1, 2), np.float32)), tf.constant([5]),
                            tf.constant([3, 2]))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices\[0\] = 5 is not in "
                                                             r"\[0, 3\)"):
        tf.keras.optimizers.SGD().apply_gradients([(grad, w)])


def test_gradient_shape_must_match():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"var and grad do not have the same shape\[2\] \[3\]"):
        tf.keras.optimizers.Adam().apply_gradients([(tf.constant([1.0, 2.0, 3.0]),
                                            tf.Variable([1.0, 2.0]))])


def test_gradient_dtype_must_match():
    with pytest.raises(tf.errors.InvalidArgumentError, match="float64 tensor"):
        tf.keras.optimizers.Adam().apply_gradients([(tf.constant([1.0], tf.float64),
                                            tf.Variable([1.0]))])


def test_numpy_gradients_are_converted():
    w = tf.Variable([1.0, 2.0])
    tf.keras.optimizers.SGD(0.5).apply_gradients([(np.array([1.0, 1.0]), w)])
    np.testing.assert_array_equal(w.numpy(), [0.5, 1.5])


# -- in place, without disturbing earlier reads ---------------------------------------

@pytest.mark.parametrize("name", ["SGD", "Adam", "RMSprop", "Adagrad", "Ftrl"])
def test_reads_before_a_step_keep_their_value(name):
    w = tf.Variable([1.0, -2.0])
    opt = getattr(optimizers, name)(0.1, **({"momentum": 0.9} if name == "SGD" else {}))
    opt.apply_gradients([(tf.constant([1.0, 1.0]), w)])
    read = w.value()
    slots = [v.value() for v in opt.variables[1:]]
    slot_values = [s.numpy() for s in slots]
    value = read.numpy()
    opt.apply_gradients([(tf.constant([1.0, 1.0]), w)])
    np.testing.assert_array_equal(read.numpy(), value)
    for s, kept in zip(slots, slot_values):
        np.testing.assert_array_equal(s.numpy(), kept)
    assert not np.array_equal(w.numpy(), value)


def test_numpy_views_of_a_read_keep_their_value():
    w = tf.Variable(np.ones((2, 2), np.float32))
    opt = tf.keras.optimizers.SGD(0.5)
    opt.apply_gradients([(tf.ones((2, 2)), w)])
    view = np.asarray(w.value())[0]
    opt.apply_gradients([(tf.ones((2, 2)), w)])
    np.testing.assert_array_equal(view, [0.5, 0.5])
    np.testing.assert_array_equal(w.numpy(), [[0.0, 0.0], [0.0, 0.0]])


def test_unshared_arrays_are_updated_in_place():
    w = tf.Variable(np.ones((4, 3), np.float32))
    opt = tf.keras.optimizers.Adam(0.1)
    grad = tf.ones((4, 3))
    opt.apply_gradients([(grad, w)])  # the first step copies: the initial value is shared
    arrays = [id(v.handle.value) for v in (w, *opt.variables[1:])]
    opt.apply_gradients([(grad, w)])
    assert [id(v.handle.value) for v in (w, *opt.variables[1:])] == arrays


def test_training_step_in_a_function_updates_slots_in_place():
    w = tf.Variable(np.ones((4, 3), np.float32))
    x = tf.ones((2, 4))
    opt = tf.keras.optimizers.Adam(0.1)

    @tf.function
    def step():
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.matmul(x, w))
        opt.apply_gradients(zip(tape.gradient(loss, [w]), [w]))
        return loss

    step()
    slots = [id(v.handle.value) for v in opt.variables[1:]]
    first = step()
    second = step()
    assert [id(v.handle.value) for v in opt.variables[1:]] == slots
    assert float(second) < float(first)


def test_first_adam_step_agrees_with_tf_keras_to_the_bit():
    var = tf.Variable(1.0)
    tf.keras.optimizers.Adam(0.1).minimize(lambda: var ** 2, [var])
    assert float(var) == 0.900000810623169  # tf_keras 2.21 prints 0.9000008


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32", "float64"])
@pytest.mark.parametrize("name,kwargs", [
    ("Adam", {"learning_rate": 0.1}), ("AdamW", {"learning_rate": 0.1, "weight_decay": 0.1}),
    ("RMSprop", {"learning_rate": 0.1}), ("RMSprop", {"learning_rate": 0.1, "momentum": 0.5}),
    ("Adagrad", {"learning_rate": 0.1}), ("SGD", {"learning_rate": 0.1, "momentum": 0.9})])
def test_small_variables_update_alike_eagerly_and_in_a_function(name, kwargs, dtype):
    # eagerly the step's scalars reach the kernels as 0-d arrays, in a function as NumPy
    # scalars: both give the same bits, with non-finite gradients too
    grads = [g.astype(np.float32) for g in _DENSE]
    grads[1][0, 0], grads[2][1, 1], grads[3][2, 2] = np.nan, np.inf, -np.inf
    got = [_train(name, kwargs, grads, traced, _W0, getattr(tf, dtype))[0]
           for traced in (False, True)]
    assert got[0].dtype == getattr(tf, dtype).as_numpy_dtype
    bits = f"u{got[0].itemsize}"  # (NaNs and signed zeros alike too)
    np.testing.assert_array_equal(got[0].view(bits), got[1].view(bits))


# tf_keras 2.21 (TF values): Nadam's update of each variable advances the running momentum
# product unless a count kept in Python says it is current; a traced step compares the count
# as it stood at the trace (one more per variable traced, and a step that makes the
# optimizer's variables is traced twice), so the product advances once per variable there.
_NADAM_VARIABLES = ([1.0, 2.0], [[0.5]], 3.0, [-1.0, 0.0, 1.0])
_NADAM_TF = {  # u_product after steps 1, 2 and 6, then the variables after step 6
    False: ([0.46799996, 0.22711103, 0.017233334],
            [0.568316, 1.548502, 0.116413, 2.542517, -0.568316, 0.0, 0.568316]),
    True: ([0.047971498, 0.0026604363, 5.8335957e-07],
           [0.5917, 1.574832, 0.155783, 2.611466, -0.633245, 0.0, 0.633245]),
}


@pytest.mark.parametrize("traced", [False, True], ids=["eager", "function"])
def test_nadam_traced_momentum_product_as_tf_keras(traced):
    opt = tf.keras.optimizers.Nadam(0.1)
    variables = [tf.Variable(v) for v in _NADAM_VARIABLES]

    def step():
        with tf.GradientTape() as tape:
            loss = sum(tf.reduce_sum(v * v) for v in variables)
        opt.apply_gradients(zip(tape.gradient(loss, variables), variables))
    run = tf.function(step) if traced else step
    products = []
    for _ in range(6):
        run()
        products.append(float(opt._u_product.numpy()))
    want_products, want_values = _NADAM_TF[traced]
    np.testing.assert_allclose([products[0], products[1], products[5]], want_products,
                               rtol=1e-6)
    got = np.concatenate([np.ravel(v.numpy()) for v in variables])
    np.testing.assert_allclose(got, want_values, rtol=2e-6, atol=1e-6)
    if traced:  # a new trace (the optimizer built): the count has moved on by 4 per trace
        again = tf.function(step)
        again()
        again()
        np.testing.assert_allclose(float(opt._u_product.numpy()), 1.1073017e-08, rtol=1e-5)


def test_nadam_first_traced_step_of_one_variable_divides_by_zero():
    # tf_keras 2.21: traced while it builds, the one variable's update finds the product
    # "current" at 1.0 on the first step: its gradient's weight (1 - u_1) / (1 - 1) is inf
    opt = tf.keras.optimizers.Nadam(0.1)
    w = tf.Variable([1.0, 2.0])
    step = tf.function(lambda: opt.apply_gradients([(tf.constant([1.0, -1.0]), w)]))
    step()
    assert w.numpy().tolist() == [-np.inf, np.inf]
    assert float(opt._u_product.numpy()) == 1.0
    step()
    np.testing.assert_allclose(float(opt._u_product.numpy()), 0.48528, rtol=1e-6)


def test_sgd_without_momentum_keeps_its_last_step_in_m():
    # tf_keras updates the slot m = -lr * grad + m * momentum even when momentum is 0: m
    # holds the last step, and an overflow in it turns the next steps into nan.
    w = tf.Variable([1.0, 2.0])
    opt = tf.keras.optimizers.SGD(0.5)
    opt.apply_gradients([(tf.constant([1.0, 3.0]), w)])
    np.testing.assert_array_equal(opt.variables[1].numpy(), [-0.5, -1.5])
    np.testing.assert_array_equal(w.numpy(), [0.5, 0.5])
    opt.apply_gradients([(tf.constant([np.inf, 1.0]), w)])
    opt.apply_gradients([(tf.constant([1.0, 1.0]), w)])
    assert np.isnan(w.numpy()[0]) and w.numpy()[1] == -0.5
    rows = tf.Variable(np.ones((3, 2), np.float32))
    sparse = tf.keras.optimizers.SGD(0.5)
    sparse.apply_gradients([(tf.IndexedSlices(tf.constant([[2.0, 4.0]]), tf.constant([1]),
                                              tf.constant([3, 2])), rows)])
    np.testing.assert_array_equal(sparse.variables[1].numpy(), [[0, 0], [-1, -2], [0, 0]])
    np.testing.assert_array_equal(rows.numpy(), [[1, 1], [0, -1], [1, 1]])


# tf_keras 2.21: three steps of SGD(0.01, **kwargs) on `_gathered_twice`'s loss.
DUPLICATE_ROWS = [
    ({}, [[0.4381847083568573, -1.325866460800171], [0.1, 0.2],
          [1.4031561613082886, -2.8035812377929688]]),
    ({"momentum": 0.9}, [[0.38286998867988586, -1.5940444469451904], [0.1, 0.2],
                         [1.3177130222320557, -3.061643123626709]]),
    ({"momentum": 0.9, "nesterov": True}, [[0.3438189625740051, -2.017695426940918], [0.1, 0.2],
                                           [1.2481999397277832, -3.363410472869873]]),
]


@pytest.mark.parametrize("kwargs, expected", DUPLICATE_ROWS)
def test_a_row_gathered_twice_steps_by_its_summed_gradient(kwargs, expected):
    # tf_keras sums the slices of a repeated index before the step: adding them to the
    # slot one at a time rounds differently
    v = tf.Variable([[0.5, -1.0], [0.1, 0.2], [1.5, -2.5]])
    opt = tf.keras.optimizers.SGD(0.01, **kwargs)
    for _ in range(3):
        with tf.GradientTape() as tape:
            rows = tf.gather(v, [0, 2, 0])
            loss = tf.reduce_sum(rows * rows * rows * tf.constant([[1.0], [0.5], [2.0]]))
        opt.apply_gradients([(tape.gradient(loss, v), v)])
    np.testing.assert_array_equal(v.numpy(), np.float32(expected))


def test_nadam_restored_before_its_first_step_continues_its_momentum_product(tmp_path):
    # tf_keras makes the product before the slots, so a checkpoint restored before the
    # first step (waiting for the slots) restores it too (values from tf_keras 2.21)
    def make():
        model = tf.keras.Sequential([tf.keras.layers.Dense(1, kernel_initializer="ones",
                                                           input_shape=(2,))])
        model.compile(optimizer=tf.keras.optimizers.Nadam(0.1), loss="mse")
        return model
    x = np.array([[1.0, 2.0], [0.5, -1.0]], np.float32)
    y = np.array([[1.0], [0.0]], np.float32)
    model = make()
    model.fit(x, y, epochs=2, verbose=0)
    path = tf.train.Checkpoint(optimizer=model.optimizer, model=model).save(
        str(tmp_path / "ck"))
    restored = make()
    tf.train.Checkpoint(optimizer=restored.optimizer, model=restored).restore(path)
    restored.fit(x, y, epochs=1, verbose=0)
    assert float(restored.optimizer._u_product.numpy()) == 0.053342606872320175
    assert [w.numpy().ravel().tolist() for w in restored.weights] == [
        [0.7726081013679504, 0.7654105424880981], [-0.1810653805732727]]


def test_adamax_sparse_step_rounds_as_tf_keras():
    # tf_keras's sparse Adamax decays every row and adds the gradient's rows in (2.21's
    # result; the dense step on the scattered gradient rounds otherwise)
    v = tf.Variable([[0.5, -1.0], [0.1, 0.2], [1.5, -2.5]])
    opt = tf.keras.optimizers.Adamax(0.1)
    for _ in range(12):
        with tf.GradientTape() as tape:
            rows = tf.gather(v, [0, 2, 0])
            loss = tf.reduce_sum(rows * rows * rows * tf.constant([[1.0], [0.5], [2.0]]))
        opt.apply_gradients([(tape.gradient(loss, v), v)])
    np.testing.assert_array_equal(v.numpy(), np.float32(
        [[-0.013849022798240185, -1.9523743391036987], [0.1, 0.2],
         [0.6654907464981079, -3.5550756454467773]]))

"""Stateless gamma, Poisson, binomial and truncated normal samples, shuffles, index shuffles,
RNG states and the gradients TF defines for samples: TF 2.21's values (CPU) and errors."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow import errors
from tests.internals import random_ops as r

InvalidArgumentError = errors.InvalidArgumentError
_SEED = [7, 11]


@pytest.fixture(autouse=True)
def _no_global_seed():
    tf.random.set_seed(None)
    yield
    tf.random.set_seed(None)


def _equal(got, want, dtype=None):
    got = np.asarray(got)
    assert got.dtype == np.dtype(dtype or got.dtype)
    np.testing.assert_array_equal(got, np.asarray(want, got.dtype))


def _grads(fn, *args):
    xs = [tf.constant(a) for a in args]
    with tf.GradientTape() as tape:
        tape.watch(xs)
        loss = fn(*xs)
    return [None if g is None else g.numpy() for g in tape.gradient(loss, xs)]


# -- the namespace -----------------------------------------------------------------------------

def test_public_names_are_tensorflows():
    assert {n for n in dir(tf.random.experimental) if not n.startswith("_")} == {
        "Algorithm", "Generator", "create_rng_state", "get_global_generator", "index_shuffle",
        "set_global_generator", "stateless_fold_in", "stateless_shuffle", "stateless_split"}
    assert tf.random.experimental.stateless_split is tf.random.split
    assert tf.random.experimental.stateless_fold_in is tf.random.fold_in
    assert tf.random.experimental.Generator is tf.random.Generator
    for name in ("create_rng_state", "stateless_gamma", "stateless_poisson",
                 "stateless_binomial", "stateless_parameterized_truncated_normal"):
        assert callable(getattr(tf.random, name))


# -- values: TensorFlow 2.21's on CPU, to the last bit -----------------------------------------

def test_stateless_gamma_values_are_tensorflows():
    _equal(tf.random.stateless_gamma([3, 3], _SEED, alpha=[0.5, 1.0, 3.0]),
           [[0.12291134148836136, 1.9775797128677368, 1.8755747079849243],
            [0.6412787437438965, 0.582352340221405, 4.92051887512207],
            [1.7718313932418823, 0.8879188895225525, 2.9692862033843994]], np.float32)
    _equal(tf.random.stateless_gamma([2, 2, 2], _SEED, alpha=[[0.5], [2.0]], beta=[1.0, 3.0],
                                     dtype=tf.float64),
           [[[0.12291134419468544, 0.5906104459742585], [0.7660860130609877, 0.3533549278511974]],
            [[0.6412787276579851, 0.07291089090178089], [0.5184714904838957, 1.1830603734122536]]])
    _equal(tf.random.stateless_gamma([4], [1, 2], alpha=2.0, dtype=tf.float16),
           [2.81640625, 1.923828125, 3.3359375, 2.21875], np.float16)
    _equal(tf.random.stateless_gamma(tf.constant([2, 2]), [1, 2], alpha=[1.0, 2.0]),
           [[3.4994423389434814, 3.3360066413879395], [1.7193093299865723, 2.218280553817749]])
    # alpha 1 takes -log1p(-u), alpha < 1 u ** (1 / alpha): the C library's, not NumPy's
    x = tf.random.stateless_gamma([8], [5, 6], alpha=1.0, dtype=tf.float64).numpy()
    _equal(x[[0, 1, 7]], [0.3972297871673238, 3.8039779800024958, 0.48348263951409776])


def test_stateless_gamma_edges():
    tiny = np.finfo(np.float32).tiny
    _equal(tf.random.stateless_gamma([2, 4], [1, 2], alpha=[0.0, -1.0, np.inf, np.nan]),
           [[tiny, np.nan, np.inf, np.nan]] * 2, np.float32)
    _equal(tf.random.stateless_gamma([3], [1, 2], alpha=1e-3), [tiny] * 3)
    _equal(tf.random.stateless_gamma([2], [1, 2], alpha=1.0, beta=0.0), [np.inf] * 2)
    assert tf.random.stateless_gamma([0, 2], [1, 2], alpha=[1.0, 2.0]).shape == (0, 2)
    assert tf.random.stateless_gamma([2, 0], [1, 2], alpha=tf.zeros([0])).shape == (2, 0)
    assert tf.random.stateless_gamma([], [1, 2], alpha=2.0).numpy() == np.float32(
        2.8172736167907715)


def test_stateless_poisson_values_are_tensorflows():
    _equal(tf.random.stateless_poisson([3, 3], _SEED, lam=[0.5, 3.0, 25.0]),
           [[0, 1, 27], [1, 5, 14], [2, 5, 20]], np.int32)
    _equal(tf.random.stateless_poisson([2, 2], [1, 2], lam=tf.constant([1, 30], tf.int64),
                                       dtype=tf.float64), [[3.0, 38.0], [3.0, 45.0]], np.float64)
    _equal(tf.random.stateless_poisson([2], [1, 2], lam=tf.constant([1.0, 30.0], tf.float16),
                                       dtype=tf.float16), [3.0, 34.0], np.float16)
    _equal(tf.random.stateless_poisson([3], [1, 2], lam=1e6), [1001209, 1001037, 1001468])
    _equal(tf.random.stateless_poisson([2, 3], [1, 2], lam=[0.0, -1.0, np.inf],
                                       dtype=tf.float32), [[0.0, 0.0, np.inf]] * 2)
    assert tf.random.stateless_poisson([], [1, 2], lam=3.0).numpy() == 5


def test_stateless_binomial_values_are_tensorflows():
    b = tf.random.stateless_binomial
    # p above 1/2 counts failures; count * p from 10 on takes BTRS, else inversion
    _equal(b([3, 4], _SEED, counts=[5.0, 20.0, 100.0, 1000.0], probs=[0.3, 0.5, 0.9, 0.01]),
           [[2, 13, 89, 11], [1, 10, 96, 13], [0, 11, 93, 10]], np.int32)
    _equal(b([2, 3], _SEED, counts=[[10.0], [50.0]], probs=[0.1, 0.6, 0.95],
             output_dtype=tf.float32), [[0.0, 6.0, 10.0], [7.0, 31.0, 49.0]], np.float32)
    _equal(b([4], [1, 2], counts=10.0, probs=0.5, output_dtype=tf.int64), [6, 6, 7, 7],
           np.int64)
    _equal(b([2, 2], [1, 2], counts=tf.constant([10.0, 30.0], tf.float16),
             probs=tf.constant([0.5, 0.7], tf.float16), output_dtype=tf.float16),
           [[6.0, 20.0], [6.0, 21.0]], np.float16)
    _equal(b([3], [1, 2], counts=1e6, probs=0.7), [699446, 699525, 699328])
    _equal(b([2], [1, 2], counts=[10, 20], probs=0.5), [6, 7])  # counts take probs' dtype
    _equal(b([2, 5], [1, 2], counts=[0.0, -3.0, 5.0, 5.0, 7.0],
             probs=[0.5, 0.5, 0.0, 1.0, np.nan], output_dtype=tf.float32),
           [[0.0, 0.0, 0.0, 5.0, np.nan]] * 2)
    rng = np.random.default_rng(5)  # 15000 samples of 300 parameter pairs
    counts = np.round(rng.uniform(0, 200, 300)).astype(np.float32)
    x = b([50, 300], [3, 9], counts, rng.uniform(0, 1, 300).astype(np.float32)).numpy()
    assert x.astype(np.int64).sum() == 713119
    _equal(x[0, :8], [115, 28, 38, 2, 1, 12, 20, 7])
    _equal(x[49, -4:], [101, 31, 34, 14])


def test_generator_binomial_values_and_state_are_tensorflows():
    g = tf.random.Generator.from_seed(1)
    _equal(g.binomial([3, 2], counts=[10.0, 50.0], probs=[0.5, 0.9]),
           [[5, 47], [5, 49], [7, 43]], np.int32)
    _equal(g.state, [153601, 0, 0])  # 50 * (samples + 3) values per parameter pair
    _equal(g.binomial([4], counts=100.0, probs=0.2, dtype=tf.float32),
           [22.0, 26.0, 31.0, 17.0], np.float32)
    with pytest.raises(InvalidArgumentError, match="Shape passed in must end with broadcasted"):
        g.binomial([3], counts=[10.0, 20.0], probs=0.5)
    _equal(g.state, [243201, 0, 0])  # a failed call takes nothing
    f = tf.function(lambda: g.binomial([3, 2], counts=[10.0, 50.0], probs=[0.5, 0.9]))
    f()
    _equal(g.state, [243201 + 153600, 0, 0])


def test_generator_binomial_draws_only_with_philox():
    # TF's kernel has no other algorithm: it raises after its shape checks, taking nothing
    g = tf.random.Generator.from_seed(123, alg="auto_select")
    with pytest.raises(InvalidArgumentError, match=r"^\{\{function_node __wrapped__"
                       r"StatefulRandomBinomial_device_.*\}\} Unsupported algorithm id: 3 "
                       r"\[Op:StatefulRandomBinomial\]"):
        g.binomial([3, 2], counts=[10.0, 20.0], probs=[0.3, 0.8])
    _equal(g.state, [123, 0, 0])
    with pytest.raises(InvalidArgumentError, match="Shape passed in must end with broadcasted"):
        g.binomial([4], counts=[10.0, 20.0], probs=0.5)
    g = tf.random.Generator.from_seed(123, alg="threefry")
    with pytest.raises(InvalidArgumentError, match="Unsupported algorithm id: 2"):
        g.binomial([3, 2], counts=[10.0, 20.0], probs=[0.3, 0.8])


def test_stateless_truncated_normal_values_are_tensorflows():
    t = tf.random.stateless_parameterized_truncated_normal
    _equal(t([6], _SEED), [0.3736024796962738, 0.7093726396560669, 1.103570818901062,
                           -0.08560418337583542, 0.7084914445877075, -0.8373997807502747],
           np.float32)
    # normals kept within the bounds; uniform proposals; exponential ones (both tails)
    _equal(t([2, 3], _SEED, means=[0.0, 1.0, -1.0], stddevs=[1.0, 2.0, 0.5], minvals=-3.0,
             maxvals=[3.0, 10.0, 1.0]),
           [[0.3736024796962738, 2.416982889175415, -0.9250661134719849],
            [0.7093726396560669, -0.6747995615005493, -1.134535789489746]])
    _equal(t([5], _SEED, minvals=0.5, maxvals=0.7),
           [0.6450274586677551, 0.5154301524162292, 0.6083881855010986, 0.5524641871452332,
            0.6907354593276978])
    _equal(t([5], _SEED, minvals=2.0, maxvals=np.inf),
           [2.1331257820129395, 2.253746509552002, 2.24919056892395, 2.5819969177246094,
            2.019646167755127])
    _equal(t([5], _SEED, means=0.0, minvals=-np.inf, maxvals=-3.0),
           [-3.0973103046417236, -3.1854798793792725, -3.182149648666382, -3.425419330596924,
            -3.0143606662750244])
    _equal(t([5], _SEED, means=5.0, minvals=0.0, maxvals=1.0),
           [0.9241290092468262, 0.8553853034973145, 0.8579816818237305, 0.668309211730957,
            0.9888033866882324])
    f64, f16 = ([tf.constant(v, dtype) for v in ([0.0] * 3, 1.0, [-1.0, 0.5, 2.0],
                                                  [1.0, 0.7, np.inf])]
                for dtype in (tf.float64, tf.float16))
    _equal(t([4, 3], _SEED, *f64),
           [[0.6021988394750308, 0.5261382660116132, 2.1727477441998855],
            [0.25883841298192545, 0.6990394732611008, 2.1583698001422684],
            [0.2592181591019438, 0.6435986546183201, 2.28252545076084],
            [-0.6459417250262032, 0.5089397469659327, 2.6510903592295096]], np.float64)
    _equal(t([4, 3], _SEED, *f16),
           [[-0.349609375, 0.60498046875, 2.078125], [-0.962890625, 0.58544921875, 3.03515625],
            [0.16015625, 0.61083984375, 2.98828125], [0.8671875, 0.5556640625, 2.619140625]],
           np.float16)
    assert t([0, 3], _SEED, means=[0.0, 1.0, 2.0], stddevs=-1.0).shape == (0, 3)


@pytest.mark.parametrize("threads,f32,f64,f16", [
    (2, [0.3736024796962738, 0.05679886043071747, 1.33196222782135, 0.02858227863907814,
         0.8277302384376526],
     [0.5721170971858979, -0.6361870221989988, -0.7595991919203356, -0.5830341539406262,
      1.5164646903330399],
     [0.37353515625, 0.98876953125, 0.189208984375, 0.61572265625, -1.337890625]),
    (4, [0.3736024796962738, 0.05679886043071747, -0.04352119565010071, -1.0876233577728271,
         0.20521678030490875],
     [0.5721170971858979, -0.6361870221989988, -1.130128623520906, -0.01770064268222875,
      -0.1520399055336232],
     [0.37353515625, 0.98876953125, 0.7451171875, 0.4765625, 1.4814453125]),
])
def test_truncated_normal_outputs_split_as_a_thread_pool_splits_them(monkeypatch, threads, f32,
                                                                      f64, f16):
    # Outputs are split into blocks (213 float32 values, 155 float64, 186 float16) when a
    # pool of 2 or more threads would split them; each block reads its own part of the stream.
    monkeypatch.setattr(r, "_threads", lambda: threads)
    t = tf.random.stateless_parameterized_truncated_normal
    for n, at, dtype, want in ((1200, [0, 212, 213, 214, 1199], tf.float32, f32),
                               (900, [0, 154, 155, 156, 899], tf.float64, f64),
                               (1000, [0, 185, 186, 187, 999], tf.float16, f16)):
        params = [tf.constant(v, dtype) for v in (0.0, 1.0, -2.0, 2.0)]
        _equal(t([n], _SEED, *params).numpy()[at], want)


def test_stateless_shuffle_values_are_tensorflows():
    s = tf.random.experimental.stateless_shuffle
    _equal(s(tf.range(10), _SEED), [5, 0, 4, 7, 3, 8, 9, 1, 6, 2])
    _equal(s(tf.reshape(tf.range(12), [6, 2]), tf.constant([3, 4], tf.int64)),
           [[2, 3], [6, 7], [8, 9], [0, 1], [10, 11], [4, 5]])
    _equal(s(tf.range(2**16), [1, 2])[:5], [2604, 64650, 23618, 51666, 54047])
    _equal(s(["a", "b", "c"], [1, 2]), [b"b", b"c", b"a"])
    assert s(3, [1, 2]).numpy() == 3


def test_index_shuffle_values_are_tensorflows():
    i = tf.random.experimental.index_shuffle
    _equal(i(tf.range(10), [5, 8], 9), [3, 8, 0, 1, 2, 7, 6, 9, 4, 5], np.int32)
    _equal(i(tf.range(10, dtype=tf.int64), [5, 8], 9), [3, 8, 0, 1, 2, 7, 6, 9, 4, 5],
           np.int64)
    _equal(i(3, [5, 8], 2**20), 16822)
    _equal([i(2**18, [5, 8], 2**18), i(7, [5, 8], 2**18)], [112008, 158825])
    _equal(i(3, [5, 8], [9, 20, 100]), [1, 15, 15])
    _equal(i(tf.constant([3, 4], tf.uint64), tf.constant([5, 8], tf.int64),
             tf.constant(2**40, tf.uint64)), [560521496476, 560981807469], np.uint64)
    _equal(i(tf.constant(2**62, tf.int64), [5, 8], tf.constant(2**63 - 1, tf.int64)),
           7585607907156946024)
    _equal(i(3, tf.constant([1, 8], tf.uint32), 9), 6)
    _equal(i([1, 2, 3], tf.constant([[1, 8, 3], [4, 5, 6]]), 9), [6, 4, 7])
    _equal(i(0, [5, 8], 0), 0)


def test_index_shuffle_is_a_permutation():
    out = tf.random.experimental.index_shuffle(tf.range(5000), [1, 2], 4999).numpy()
    assert sorted(out.tolist()) == list(range(5000))
    f = tf.function(lambda x: tf.random.experimental.index_shuffle(x, [5, 9], 3),
                    input_signature=[tf.TensorSpec([None], tf.int32)])
    _equal(f(tf.range(4)), [2, 0, 1, 3])


def test_create_rng_state_is_tensorflows():
    c = tf.random.create_rng_state
    _equal(c(1234, "philox"), [1234, 0, 0], np.int64)
    _equal(c(-5, 1), [-5, -1, -1])
    _equal(c(2**70 + 3, "philox"), [3, 64, 0])
    _equal(c([1, 2], "philox"), [0, 1, 2])  # short seeds are padded on the left
    _equal(c([1, 2, 3, 4], "philox"), [1, 2, 3])
    _equal(c([[1, 2]], "philox"), [0, 1, 2])
    _equal(c(np.int64(7), 3), [0, 0, 7])  # not a Python int: a sequence of one
    _equal(c(1.5, "philox"), [0, 0, 1])
    _equal(c(np.array([2**63], np.uint64), "philox"), [0, 0, -2**63])
    _equal(c(5, "threefry"), [5, 0])
    _equal(tf.random.Generator.from_seed([1, 2]).state, [0, 1, 2])
    with pytest.raises(ValueError, match="Argument `alg` got unsupported value bogus"):
        c(5, "bogus")


# -- gradients (TF's), within float rounding ----------------------------------------------------

def test_gamma_gradients_are_tensorflows():
    ga, gb = _grads(lambda a, b: tf.reduce_sum(tf.square(tf.random.stateless_gamma(
        [4, 3, 2], seed=[12, 34], alpha=a, beta=b))), [[1.0], [3.0], [0.5]], [[3.0, 4.0]])
    np.testing.assert_allclose(ga, [[1.2937865257263184], [5.39185094833374],
                                    [1.1722911596298218]], rtol=1e-6)
    np.testing.assert_allclose(gb, [[-4.8066887855529785, -1.2925397157669067]], rtol=1e-6)
    (g,) = _grads(lambda a: tf.random.stateless_gamma([3, 2], seed=[1, 2], alpha=a,
                                                      dtype=tf.float64), np.array([0.5, 2.0]))
    # (within the float64 rounding of lgamma and digamma, with or without SciPy)
    np.testing.assert_allclose(g, [2.6393623989798742, 3.2333697455092643], rtol=1e-13)
    # the first two calls of the kernel of op seed 4 (the fixture restarted its stream)
    (g,) = _grads(lambda a: tf.random.gamma([3], alpha=a, seed=4), [0.5, 2.0])
    np.testing.assert_allclose(g, [1.2438902854919434, 2.728299856185913], rtol=1e-6)
    ga, gb = _grads(lambda a, b: tf.random.gamma([3], alpha=a, beta=b, seed=4),
                    [[0.5], [2.0]], [1.0, 2.0, 3.0])
    np.testing.assert_allclose(ga, [[7.288014888763428], [5.464949607849121]], rtol=1e-6)
    np.testing.assert_allclose(gb, [-6.21048641204834, -2.5021238327026367,
                                    -0.8391834497451782], rtol=1e-6)
    with pytest.raises(InvalidArgumentError, match="'T' of half is not in the list"):
        _grads(lambda a: tf.random.stateless_gamma([2], [1, 2], alpha=a, dtype=tf.float16),
               np.float16(0.5))


def test_random_gamma_grad_is_tensorflows():
    got = r.random_gamma_grad([0.5, 1.0, 3.0, 0.01, 100.0], [0.3, 2.0, 0.5, 1e-30, 120.0])
    np.testing.assert_allclose(got, [1.0098021030426025, 1.6316916942596436, 0.3761753737926483,
                                     6.851667570108631e-27, 1.095749855041504], rtol=3e-6)
    _equal(r.random_gamma_grad([0.0, -1.0, 2.0, 2.0, np.nan, 2.0],
                               [1.0, 1.0, 0.0, -1.0, 1.0, np.inf]),
           [np.nan, np.nan, 0.0, np.nan, np.nan, -0.0])
    np.testing.assert_allclose(r.random_gamma_grad([[0.5], [2.0]], [0.3, 2.0, 5.0]),
                               [[1.0098021030426025, 2.511890172958374, 3.4371237754821777],
                                [0.3591711223125458, 1.0862083435058594, 1.6580688953399658]],
                               rtol=3e-6)


def test_truncated_normal_gradients_are_tensorflows():
    grads = _grads(lambda m, s, lo, hi: tf.reduce_sum(tf.square(
        tf.random.stateless_parameterized_truncated_normal([3, 2], _SEED, m, s, lo, hi))),
        [0.0, 1.0], 2.0, [-1.0, 0.0], [1.0, 5.0])
    want = [[-0.6230840682983398, 5.400148391723633], 1.0082875490188599,
            [-1.2287261486053467, 3.3994579315185547], [0.5597942471504211, 0.21820834279060364]]
    for g, w in zip(grads, want):
        np.testing.assert_allclose(g, w, rtol=1e-6)


def test_poisson_and_binomial_samples_have_no_gradient():
    assert _grads(lambda lam: tf.random.stateless_poisson([3], [1, 2], lam, tf.float32),
                  [2.0, 3.0, 4.0]) == [None]
    assert _grads(lambda n, p: tf.random.stateless_binomial([2], [1, 2], n, p, tf.float32),
                  [2.0, 3.0], [0.5, 0.5]) == [None, None]


# -- errors: TF's classes and messages ---------------------------------------------------------

@pytest.mark.parametrize("call,error,message", [
    (lambda: tf.random.stateless_gamma([3], [1, 2], alpha=[1.0, 2.0]), InvalidArgumentError,
     r"Shape passed in must end with broadcasted shape. \[Op:StatelessRandomGammaV3\]"),
    (lambda: tf.random.stateless_gamma([2], [1, 2], alpha=1.0, dtype=tf.int32), TypeError,
     "Cannot convert 1.0 to EagerTensor of dtype int32"),
    (lambda: tf.random.stateless_gamma([2], [1, 2], alpha=1.0, dtype=tf.bfloat16),
     InvalidArgumentError, r"'dtype' of bfloat16 is not in the list of allowed values: half, "
     r"float, double\n\t; NodeDef: \{\{node StatelessRandomGammaV3\}\}"),
    (lambda: tf.random.stateless_gamma([2], [1, 2, 3], alpha=1.0), InvalidArgumentError,
     r"seed must have shape \[2\], not \[3\] \[Op:StatelessRandomGetKeyCounter\]"),
    (lambda: tf.random.stateless_normal([2], [1, 2, 3]), InvalidArgumentError,
     r"seed must have shape \[2\], not \[3\] \[Op:StatelessRandomGetKeyCounter\]"),
    (lambda: tf.random.stateless_uniform([2], [[1, 2]], dtype=tf.int64, minval=None,
                                         maxval=None), InvalidArgumentError,
     r"not \[1,2\] \[Op:StatelessRandomGetKeyCounter\]"),
    (lambda: tf.random.stateless_truncated_normal([2], [1.0, 2.0]), InvalidArgumentError,
     r"'Tseed' of float is not in the list of allowed values: int32, int64\n\t; NodeDef: "
     r"\{\{node StatelessRandomGetKeyCounter\}\}"),
    (lambda: tf.random.stateless_poisson([3], [1, 2], lam=[1.0, 2.0]), InvalidArgumentError,
     r"Shape passed in must end with broadcasted shape. \[Op:StatelessRandomPoisson\]"),
    (lambda: tf.random.stateless_poisson([2], [1, 2], lam=tf.constant(1, tf.int8)),
     InvalidArgumentError, "'Rtype' of int8 is not in the list of allowed values"),
    (lambda: tf.random.stateless_binomial([3, 2], [1, 2], [10.0, 20.0], [0.5, 0.5, 0.5]),
     InvalidArgumentError, r"counts and probs must have compatible batch dimensions: \[2\] vs. "
     r"\[3\] \[Op:StatelessRandomBinomial\]"),
    (lambda: tf.random.stateless_binomial([2], [1, 2], tf.constant([10.0, 20.0], tf.float64),
                                          0.5), InvalidArgumentError,
     r"input #3\(zero-based\) was expected to be a double tensor but is a float tensor"),
    (lambda: tf.random.stateless_binomial([2], [1, 2], tf.constant([10, 20]), 0.5),
     errors.NotFoundError, "Could not find device for node: {{node StatelessRandomBinomial}}"),
    (lambda: tf.random.stateless_binomial([2], [1, 2], 10.0, 0.5, output_dtype=tf.int16),
     InvalidArgumentError, "'dtype' of int16 is not in the list of allowed values"),
    (lambda: tf.random.stateless_parameterized_truncated_normal([2], [1, 2], stddevs=-1.0),
     InvalidArgumentError, r"Invalid parameters \[Op:StatelessParameterizedTruncatedNormal\]"),
    (lambda: tf.random.stateless_parameterized_truncated_normal([2], [1, 2], minvals=-np.inf,
                                                                maxvals=np.inf),
     InvalidArgumentError, "Invalid parameters"),
    (lambda: tf.random.stateless_parameterized_truncated_normal([2], [1, 2], means=np.nan),
     errors.InternalError, "TruncatedNormal exponential distribution rejection sampler failed "
     "to accept a sample"),
    (lambda: tf.random.stateless_parameterized_truncated_normal(
        [2, 3], [1, 2], means=[1.0, 2.0, 3.0], stddevs=[1.0, 2.0]), InvalidArgumentError,
     r"means, stddevs, minvals, maxvals must have compatible batch dimensions: \[3\] vs. \[2\] "
     r"vs. \[\] vs. \[\]"),
    (lambda: tf.random.stateless_parameterized_truncated_normal([2], [1, 2], means=0),
     InvalidArgumentError, "'dtype' of int32 is not in the list of allowed values"),
    (lambda: tf.random.experimental.stateless_shuffle([1, 2], [1, 2], alg="threefry"),
     InvalidArgumentError, r"counter must be a vector.*\[Op:StatelessShuffle\]"),
    (lambda: tf.random.experimental.index_shuffle(tf.constant(-5, tf.int64), [5, 8],
                                                  tf.constant(-1, tf.int64)),
     InvalidArgumentError, r"index must be >= 0 but was -5 \[Op:RandomIndexShuffle\]"),
    (lambda: tf.random.experimental.index_shuffle(5, [5, 8], -1), InvalidArgumentError,
     "max_index must be >= 0 but was -1"),
    (lambda: tf.random.experimental.index_shuffle(50, [5, 8], 9), InvalidArgumentError,
     "max_index must be >= index, but 9 < 50"),
    (lambda: tf.random.experimental.index_shuffle([1, 2], [5, 8], [9, 20, 100]),
     InvalidArgumentError, "Index bust be a scalar or vector."),
    (lambda: tf.random.experimental.index_shuffle(3, [1, 5, 8], 9), InvalidArgumentError,
     r"Seed must be a vector of size \[3\] or a matrix of size \[1, 3\] but got \[4\]."),
    (lambda: tf.random.experimental.index_shuffle([1, 2], [[1, 8], [4, 5]], 9),
     InvalidArgumentError, r"matrix of size \[2, 3\] but got \[3,2\]"),
    (lambda: tf.random.experimental.index_shuffle(3.0, [1, 8], 9.0), InvalidArgumentError,
     "'dtype' of float is not in the list of allowed values: int32, uint32, int64, uint64"),
    (lambda: tf.random.experimental.index_shuffle(3, [1.0, 8.0], 9), InvalidArgumentError,
     "'Tseed' of float is not in the list of allowed values"),
    (lambda: tf.random.stateless_uniform([2], [1, 2], minval=0, maxval=5, dtype=tf.uint32),
     ValueError, "Argument `dtype` got invalid value <dtype: 'uint32'> when argument `minval` "
     "is not None. Please don't use unsigned integers in this case."),
    (lambda: tf.random.stateless_uniform([2], [1, 2], minval=0, maxval=5, dtype=tf.uint64),
     ValueError, "got invalid value <dtype: 'uint64'> when argument `minval`"),
])
def test_argument_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()


# -- properties ----------------------------------------------------------------------------------

def test_stateless_samples_depend_only_on_the_seed():
    calls = [
        lambda seed: tf.random.stateless_gamma([50, 2], seed, alpha=[0.5, 4.0]),
        lambda seed: tf.random.stateless_poisson([50, 2], seed, lam=[0.5, 40.0]),
        lambda seed: tf.random.stateless_binomial([50, 2], seed, [5.0, 100.0], [0.3, 0.8]),
        lambda seed: tf.random.stateless_parameterized_truncated_normal([50], seed),
        lambda seed: tf.random.experimental.stateless_shuffle(tf.range(50), seed),
    ]
    for call in calls:
        a = call([1, 2])
        tf.random.set_seed(4)  # the global seed plays no part
        _equal(call(tf.constant([1, 2], tf.int64)), a)
        _equal(tf.function(lambda: call([1, 2]))(), a)
        assert not np.array_equal(call([1, 3]), a)


def test_samples_follow_their_distributions():
    n = 20000
    x = tf.random.stateless_binomial([n, 3], [5, 5], [4.0, 30.0, 200.0], [0.2, 0.6, 0.97])
    x = x.numpy().astype(np.float64)
    np.testing.assert_allclose(x.mean(0), [0.8, 18.0, 194.0], rtol=0.03)
    np.testing.assert_allclose(x.var(0), [0.64, 7.2, 5.82], rtol=0.06)
    assert x.min() >= 0 and (x <= [4, 30, 200]).all()
    y = tf.random.stateless_parameterized_truncated_normal(
        [n, 2], [5, 5], means=[0.0, 10.0], stddevs=[1.0, 0.1], minvals=[-1.0, 10.05],
        maxvals=[3.0, 10.06]).numpy()
    assert y[:, 0].min() >= -1 and y[:, 0].max() <= 3
    assert y[:, 1].min() >= 10.05 and y[:, 1].max() <= 10.06
    np.testing.assert_allclose(y[:, 0].mean(), 0.2828, atol=0.02)


def test_stateless_poisson_and_binomial_errors_with_python_lists_end_without_the_name():
    with pytest.raises(InvalidArgumentError, match=r"\[Op:StatelessRandomPoisson\]$"):
        tf.random.stateless_poisson([4], seed=[1, 2], lam=[1.0, 20.0])
    with pytest.raises(InvalidArgumentError, match=r"\[Op:StatelessRandomPoisson\] name: $"):
        tf.random.stateless_poisson(tf.constant([4]), tf.constant([1, 2]), tf.constant([1., 2.]))
    with pytest.raises(InvalidArgumentError, match=r"\[Op:StatelessRandomBinomial\]$"):
        tf.random.stateless_binomial([4], seed=[1, 2], counts=[10.0, 20.0], probs=0.5)


def test_float_seed_in_a_function_is_tfs_type_error():
    @tf.function
    def f():
        return tf.random.stateless_normal([2], seed=[1.0, 2.0])
    with pytest.raises(TypeError, match="Value passed to parameter 'seed' has DataType "
                                        "float32 not in list of allowed values: int32, int64"):
        f()


def test_index_shuffle_seed_of_a_wrong_size_fails_as_the_function_traces():
    # (TF's index_shuffle pads a seed by one: a seed of 3 becomes one of 4, for 3 words)
    f = tf.function(lambda: tf.random.experimental.index_shuffle(tf.range(3), [1, 2, 3], 5))
    with pytest.raises(ValueError, match=r"ValueError: Seed must have shape \[3\] or \[n, 3\] "
                                         r"but got \[4\]\. for '\{\{node RandomIndexShuffle"):
        f()


@pytest.mark.parametrize("seed, suffix", [([1, 2], ""), (tf.constant([1, 2]), " name: ")])
def test_errors_of_ops_taking_the_seed_as_given_end_as_tfs(seed, suffix):
    """The binomial and parameterized truncated normal ops take the seed itself (the other
    arguments are converted first): a Python list seed gives TF's error without the name."""
    with pytest.raises(InvalidArgumentError, match=r"broadcasted shape\. "
                       rf"\[Op:StatelessRandomBinomial\]{suffix}$"):
        tf.random.stateless_binomial([3], seed, counts=[1.0, 2.0], probs=0.5)
    with pytest.raises(InvalidArgumentError, match=r"Invalid parameters "
                       rf"\[Op:StatelessParameterizedTruncatedNormal\]{suffix}$"):
        tf.random.stateless_parameterized_truncated_normal([3], seed, minvals=6.0, maxvals=5.0)

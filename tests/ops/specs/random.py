"""Specs of random ops (random_ops.py): shapes, dtypes, ranges, moments and seeded determinism.

Values cannot be compared with a reference, so each spec's `check` asserts properties with
generous tolerances (10000 draws: a sample mean is within ~0.04 standard deviations).
"""
import numpy as np

import eagerflow as tf
from tests.internals import random_ops as r
from tests.ops.spec import OpSpec

N = 10000
_RANDOM = "random"


def _pair(fn):
    """Calls `fn` twice: seeded ops give two draws to compare."""
    return lambda *args: (fn(*args), fn(*args))


def _check(dtype, shape, low=None, high=None, mean=None, std=None, same=None, tol=0.05):
    """A check of (first, second) draws: dtype, shape, range, moments, equal or not."""
    def check(outs, args):
        first, second = outs
        for x in outs:
            assert x.dtype == np.dtype(dtype) and x.shape == shape, (x.dtype, x.shape)
            wide = x.astype(np.float64)
            if low is not None:
                assert wide.min() >= low
            if high is not None:
                assert wide.max() < high
            if mean is not None:
                assert abs(wide.mean() - mean) < tol * max(std or 1, 1), wide.mean()
            if std is not None:
                assert abs(wide.std() - std) < tol * std, wide.std()
        if same is not None:
            assert np.array_equal(first, second) == same
    return check


def _stateless(fn):
    """`fn(seed)` called with a seed and again with the same seed: equal draws."""
    return lambda: (fn(seed=[3, 4]), fn(seed=[3, 4]))


def _uniform_specs():
    return [
        OpSpec("RandomUniform", _pair(lambda: tf.random.uniform([N], seed=1)), [],
               check=_check(np.float32, (N,), 0, 1, 0.5, 12 ** -0.5, same=False), grad=_RANDOM),
        OpSpec("RandomUniform",
               _pair(lambda: tf.random.uniform([100, 100], -3.0, 5.0, tf.float64)), [],
               check=_check(np.float64, (100, 100), -3, 5, 1.0, 8 * 12 ** -0.5, same=False),
               name="RandomUniform-range-float64", grad=_RANDOM),
        OpSpec("RandomUniform", _pair(lambda: tf.random.uniform([N], dtype=tf.float16)), [],
               check=_check(np.float16, (N,), 0, 1, 0.5), name="RandomUniform-float16",
               grad=_RANDOM),
        OpSpec("RandomUniform", _pair(lambda: tf.random.uniform([N], dtype=tf.bfloat16)), [],
               check=_check(tf.bfloat16.as_numpy_dtype, (N,), 0, 1, 0.5),
               name="RandomUniform-bfloat16", grad=_RANDOM),
        OpSpec("StatelessRandomUniform",
               _stateless(lambda seed: tf.random.stateless_uniform([N], seed)),
               [], check=_check(np.float32, (N,), 0, 1, 0.5, 12 ** -0.5, same=True),
               grad=_RANDOM),
        OpSpec("RandomUniformInt", _pair(lambda: tf.random.uniform([N], 5, 15, tf.int64, seed=2)),
               [],
               check=_check(np.int64, (N,), 5, 15, 9.5, (99 / 12) ** 0.5, same=False),
               grad=_RANDOM),
        OpSpec("StatelessRandomUniformInt",
               _stateless(lambda seed: tf.random.stateless_uniform([N], seed, -4, 4, tf.int32)), [],
               check=_check(np.int32, (N,), -4, 4, -0.5, same=True), grad=_RANDOM),
        OpSpec("StatelessRandomUniformFullInt",
               _stateless(lambda seed: tf.random.stateless_uniform([N], seed, None, None,
                                                                   tf.uint32)),
               [], check=_check(np.uint32, (N,), 0, 2**32, 2**31 - 0.5, 2**32 * 12 ** -0.5,
                                same=True), grad=_RANDOM),
        OpSpec("StatefulUniformFullInt",
               _pair(lambda: tf.random.Generator.from_seed(7).uniform_full_int([N], tf.int64)), [],
               check=_check(np.int64, (N,), -2**63, 2**63, 0, 2**64 * 12 ** -0.5, same=True),
               grad=_RANDOM),
    ]


def _normal_specs():
    return [
        OpSpec("RandomStandardNormal", _pair(lambda: tf.random.normal([N], 2.0, 3.0, seed=5)), [],
               check=_check(np.float32, (N,), mean=2.0, std=3.0, same=False), grad=_RANDOM),
        OpSpec("RandomStandardNormal",
               _pair(lambda: tf.random.Generator.from_seed(3).normal([N], dtype=tf.float64)), [],
               check=_check(np.float64, (N,), mean=0.0, std=1.0, same=True),
               name="RandomStandardNormal-generator", grad=_RANDOM),
        OpSpec("StatelessRandomNormal",
               _stateless(lambda seed: tf.random.stateless_normal([100, 100], seed,
                                                                  dtype=tf.float16)),
               [], check=_check(np.float16, (100, 100), mean=0.0, std=1.0, same=True),
               grad=_RANDOM),
        # a normal truncated at 2 standard deviations has std ~0.8796
        OpSpec("TruncatedNormal", _pair(lambda: tf.random.truncated_normal([N], 1.0, 2.0)), [],
               check=_check(np.float32, (N,), -3.0, 5.0001, 1.0, 2 * 0.8796, same=False),
               grad=_RANDOM),
        OpSpec("StatelessTruncatedNormal",
               _stateless(lambda seed: tf.random.stateless_truncated_normal([N], seed)), [],
               check=_check(np.float32, (N,), -2.0, 2.0001, 0.0, 0.8796, same=True),
               grad=_RANDOM),
    ]


def _categorical_check(probs, dtype, same):
    def check(outs, args):
        first, second = outs
        for x in outs:
            assert x.dtype == np.dtype(dtype) and x.shape == (len(probs), N)
            for row, p in zip(x, probs):
                freq = np.bincount(row, minlength=len(p)) / N
                np.testing.assert_allclose(freq, p, atol=0.03)
        assert np.array_equal(first, second) == same
    return check


_LOGITS = np.log(np.array([[0.2, 0.3, 0.5], [1.0, 1e-30, 1e-30]], np.float32))


def _other_specs():
    probs = np.exp(_LOGITS.astype(np.float64))
    return [
        OpSpec("Multinomial", _pair(lambda logits: tf.random.categorical(logits, N, seed=9)),
               [_LOGITS],
               check=_categorical_check(probs, np.int64, same=False), grad=_RANDOM),
        OpSpec("StatelessMultinomial",
               lambda logits: (tf.random.stateless_categorical(logits, N, [1, 2], dtype=tf.int32),
                               tf.random.stateless_categorical(logits, N, [1, 2], dtype=tf.int32)),
               [_LOGITS], check=_categorical_check(probs, np.int32, same=True), grad=_RANDOM),
        OpSpec("RandomShuffle", _pair(lambda x: tf.random.shuffle(x, seed=4)),
               [np.arange(2 * N, dtype=np.int32).reshape(N, 2)], check=_check_shuffle,
               grad=_RANDOM),
        OpSpec("RandomPoissonV2", _pair(lambda lam: tf.random.poisson([N], lam, seed=1)),
               [np.array([0.5, 4.0], np.float32)], check=_check_moments(
                   np.float32, (N, 2), [0.5, 4.0], [0.5 ** 0.5, 2.0], integral=True),
               grad=_RANDOM),
        OpSpec("RandomPoissonV2", _pair(lambda lam: tf.random.poisson([N], lam, dtype=tf.int64)),
               [np.array(3, np.int32)], check=_check_moments(np.int64, (N,), 3.0, 3 ** 0.5),
               name="RandomPoissonV2-int", grad=_RANDOM),
        OpSpec("RandomGamma", _pair(lambda a, b: tf.random.gamma([N], a, b, tf.float64, seed=2)),
               [np.array([[1.0], [4.0]]), np.array([1.0, 2.0])],
               check=_check_moments(np.float64, (N, 2, 2), [[1.0, 0.5], [4.0, 2.0]],
                                    [[1.0, 0.5], [2.0, 1.0]]), grad=_IMPLICIT),
    ]


# Gradients of samples by implicit reparameterization are not the derivatives of the samples
# of a fixed seed (which finite differences measure): test_stateless_random_ops holds TF's.
_IMPLICIT = "implicit reparameterization: compared with TF's gradients in its tests"


def _stateless_specs():
    """The stateless samplers (each run twice with one seed: equal draws) and their helpers."""
    return [
        OpSpec("StatelessRandomGammaV2",
               lambda a, b: tuple(tf.random.stateless_gamma([N, 2, 2], [3, 4], a, b, tf.float64)
                                  for _ in range(2)),
               [np.array([[1.0], [4.0]]), np.array([1.0, 2.0])],
               check=_check_moments(np.float64, (N, 2, 2), [[1.0, 0.5], [4.0, 2.0]],
                                    [[1.0, 0.5], [2.0, 1.0]], same=True), grad=_IMPLICIT),
        OpSpec("StatelessRandomPoisson",
               _stateless(lambda seed: tf.random.stateless_poisson([N, 2], seed, [0.5, 40.0])), [],
               check=_check_moments(np.int32, (N, 2), [0.5, 40.0], [0.5 ** 0.5, 40 ** 0.5],
                                    same=True), grad=_RANDOM),
        OpSpec("StatelessRandomBinomial",
               lambda n, p: tuple(tf.random.stateless_binomial([N, 2], [3, 4], n, p, tf.float32)
                                  for _ in range(2)),
               [np.array([5.0, 100.0], np.float32), np.array([0.3, 0.8], np.float32)],
               check=_check_moments(np.float32, (N, 2), [1.5, 80.0], [1.05 ** 0.5, 4.0],
                                    integral=True, same=True), grad=_RANDOM),
        OpSpec("StatefulRandomBinomial",
               lambda n, p: tuple(tf.random.Generator.from_seed(5).binomial([N, 2, 2], n, p)
                                  for _ in range(2)),
               [np.array([[30.0], [4.0]]), np.array([0.5, 0.05])],
               check=_check_moments(np.int32, (N, 2, 2), [[15.0, 1.5], [2.0, 0.2]],
                                    [[7.5 ** 0.5, 1.425 ** 0.5], [1.0, 0.19 ** 0.5]],
                                    integral=True, same=True), grad=_RANDOM),
        # a normal truncated to [-1, 3] has mean ~0.2828, deviation ~0.7849
        OpSpec("StatelessParameterizedTruncatedNormal",
               lambda m, s, lo, hi: tuple(tf.random.stateless_parameterized_truncated_normal(
                   [N, 2], [3, 4], m, s, lo, hi) for _ in range(2)),
               [np.array([0.0, 5.0], np.float32), np.array([1.0, 2.0], np.float32),
                np.array([-1.0, 3.0], np.float32), np.array([3.0, 11.0], np.float32)],
               check=_check_truncated, grad=_IMPLICIT),
        OpSpec("StatelessShuffle",
               lambda x: (tf.random.experimental.stateless_shuffle(x, [3, 4]),
                          tf.random.experimental.stateless_shuffle(x, [3, 4])),
               [np.arange(2 * N, dtype=np.int32).reshape(N, 2)],
               check=_check_shuffle_pair(same=True), grad=_RANDOM),
        OpSpec("RandomIndexShuffle", lambda i: tf.random.experimental.index_shuffle(i, [5, 9], 999),
               [np.arange(1000, dtype=np.int64)], check=_check_permutation,
               grad="integer positions of a permutation"),
        # TF 2.21's values (float64)
        OpSpec("RandomGammaGrad", lambda a, x: r.random_gamma_grad(a, x),
               [np.array([0.5, 1.0, 3.0, 0.01, 100.0]), np.array([0.3, 2.0, 0.5, 1e-30, 120.0])],
               lambda a, x: np.array([1.0098019459488548, 1.6316914623496996,
                                      0.3761753563104819, 6.851666733195268e-27,
                                      1.095752510707004]),
               rtol=1e-13, grad="TensorFlow defines no gradient for it"),
    ]


def _check_truncated(outs, args):
    first, second = outs
    assert np.array_equal(first, second)
    assert first.dtype == np.float32 and first.shape == (N, 2)
    assert first[:, 0].min() >= -1 and first[:, 0].max() <= 3
    assert first[:, 1].min() >= 3 and first[:, 1].max() <= 11
    std = np.array([0.7849, 2 * 0.7849])
    np.testing.assert_allclose(first.mean(0), [0.2828, 5 + 2 * 0.2828], atol=0.04 * std.max())
    np.testing.assert_allclose(first.std(0), std, rtol=0.05)


def _check_permutation(out, args):
    assert out.dtype == np.int64 and sorted(out.tolist()) == args[0].tolist()
    assert not np.array_equal(out, args[0])


def _check_shuffle_pair(same):
    def check(outs, args):
        (value,) = args
        first, second = outs
        for x in outs:
            assert x.dtype == value.dtype and x.shape == value.shape
            np.testing.assert_array_equal(x[:, 1] - x[:, 0], 1)  # rows move whole
            np.testing.assert_array_equal(np.sort(x[:, 0]), value[:, 0])
        assert not np.array_equal(first, value) and np.array_equal(first, second) == same
    return check


_check_shuffle = _check_shuffle_pair(same=False)


def _check_moments(dtype, shape, mean, std, integral=False, same=False):
    """Per-column sample moments (over axis 0) of the first and second draws."""
    def check(outs, args):
        for x in outs:
            assert x.dtype == np.dtype(dtype) and x.shape == shape
            wide = x.astype(np.float64)
            assert wide.min() >= 0
            if integral:
                np.testing.assert_array_equal(wide, np.round(wide))
            np.testing.assert_allclose(wide.mean(axis=0), mean, rtol=0.1)
            np.testing.assert_allclose(wide.std(axis=0), std, rtol=0.1)
        assert np.array_equal(*outs) == same
    return check


def _with_shape_input(ops, attrs, *inputs, seed=None):
    """Runs `ops` as a function does when only run time knows the shape: the shape tensor
    (the spec's first arg) becomes an input of the op."""
    def fn(shape):
        return r._run(ops, inputs, {**attrs, "shape": shape},
                      r._seed_attrs(None) if seed is None else seed, None)
    return fn


def _shape_input_specs():
    shape = [np.array([N], np.int32)]
    return [
        OpSpec("RandomUniform", _pair(_with_shape_input(r._UNIFORM, {"dtype": tf.float32})),
               shape, check=_check(np.float32, (N,), 0, 1, 0.5, 12 ** -0.5, same=False),
               name="RandomUniform-shape-input", grad=_RANDOM),
        OpSpec("RandomUniformInt",
               _pair(_with_shape_input(r._UNIFORM_INT, {}, tf.constant(-2), tf.constant(3))),
               shape, check=_check(np.int32, (N,), -2, 3, 0.0, 2 ** 0.5, same=False),
               name="RandomUniformInt-shape-input", grad=_RANDOM),
        OpSpec("StatelessRandomNormal",
               _pair(_with_shape_input(r._NORMAL, {"dtype": tf.float32},
                                       seed=tf.constant([3, 4]))),
               [np.array([N], np.int64)], check=_check(np.float32, (N,), mean=0, std=1, same=True),
               name="StatelessRandomNormal-shape-input", grad=_RANDOM),
    ]


SPECS = (_uniform_specs() + _normal_specs() + _other_specs() + _stateless_specs() +
         _shape_input_specs())


def _check_sampler(range_max, probability):
    """A check of a unique sampler's (candidates, true counts, sampled counts) for true
    classes [[1], [2]]: distinct candidates in range, counts of a draw until 4 distinct ones
    (each count 4 p when the first 4 tries were distinct, else 1 - (1 - p) ** tries, one
    `tries` for all)."""
    def check(outs, args):
        sampled, true_count, sampled_count = outs
        assert sampled.dtype == np.int64 and sampled.shape == (4,)
        assert len(set(sampled.tolist())) == 4
        assert sampled.min() >= 0 and sampled.max() < range_max
        p = probability(np.arange(range_max, dtype=np.float64))
        p /= p.sum()
        if np.allclose(true_count, 4 * p[[[1], [2]]], rtol=1e-6):
            np.testing.assert_allclose(sampled_count, 4 * p[sampled], rtol=1e-6)
            return
        tries = np.log1p(-true_count[0, 0]) / np.log1p(-p[1])
        np.testing.assert_allclose(true_count, 1 - (1 - p[[[1], [2]]]) ** tries, rtol=1e-4)
        np.testing.assert_allclose(sampled_count, 1 - (1 - p[sampled]) ** tries, rtol=1e-4)
    return check


def _check_learned_sampler(outs, args):
    """A check of the learned sampler's draw for true classes [[1], [2]]: distinct
    candidates in range, their counts those of one count of tries, whatever the classes
    its earlier calls learned."""
    sampled, true_count, sampled_count = outs
    assert sampled.dtype == np.int64 and sampled.shape == (4,)
    assert len(set(sampled.tolist())) == 4 and 0 <= sampled.min() and sampled.max() < 10
    assert true_count.shape == (2, 1) and np.all((true_count > 0) & (sampled_count > 0))


SPECS += [
    OpSpec("LogUniformCandidateSampler",
           lambda t: tuple(tf.random.log_uniform_candidate_sampler(t, 1, 4, True, 10, seed=3)),
           [np.array([[1], [2]], np.int64)],
           check=_check_sampler(10, lambda k: np.log((k + 2) / (k + 1))), grad=_RANDOM),
    OpSpec("UniformCandidateSampler",
           lambda t: tuple(tf.random.uniform_candidate_sampler(t, 1, 4, True, 10, seed=3)),
           [np.array([[1], [2]], np.int64)], check=_check_sampler(10, np.ones_like),
           grad=_RANDOM),
    OpSpec("FixedUnigramCandidateSampler",
           lambda t: tuple(tf.random.fixed_unigram_candidate_sampler(
               t, 1, 4, True, 10, unigrams=np.arange(1.0, 11.0) ** 2, distortion=0.5,
               seed=3)),
           [np.array([[1], [2]], np.int64)], check=_check_sampler(10, lambda k: k + 1),
           grad=_RANDOM),
    OpSpec("LearnedUnigramCandidateSampler",
           lambda t: tuple(tf.random.learned_unigram_candidate_sampler(t, 1, 4, True, 10,
                                                                       seed=3)),
           [np.array([[1], [2]], np.int64)], check=_check_learned_sampler, grad=_RANDOM),
    OpSpec("AllCandidateSampler",
           lambda t: tuple(tf.random.all_candidate_sampler(t, 1, 4, True)),
           [np.array([[1], [2]], np.int64)],
           lambda t: (np.arange(4), np.ones((2, 1), np.float32), np.ones(4, np.float32)),
           grad=_RANDOM),
]


# TF's key/counter ops (tf.random.Generator's draws and the stateless functions in TF's graphs):
# TF 2.21's values at the key and counter of the seed [1, 2].
_KEY, _COUNTER = np.array([10413732777507651514], np.uint64), np.array(
    [0, 17830669156045600267], np.uint64)


def _v2(op, **kwargs):
    return lambda: getattr(tf.raw_ops, op)(shape=[3], key=_KEY, counter=_COUNTER, alg=1,
                                           **kwargs)


def _exactly(*expected):
    def check(outs, args):
        outs = outs if isinstance(outs, (tuple, list)) else (outs,)
        for out, want in zip(outs, expected):
            assert out.dtype == want.dtype, (out.dtype, want.dtype)
            np.testing.assert_array_equal(out, want)
    return check


def _read_and_skip():
    state = tf.Variable([-2, 5, 7], dtype=tf.int64)
    before = tf.raw_ops.RngReadAndSkip(resource=state.handle, alg=1,
                                       delta=tf.constant(1, tf.uint64))
    return before, state.read_value()


_NORMALS = np.array([0.5441101, 0.20738031, 0.07356432], np.float32)
SPECS += [
    OpSpec("StatelessRandomGetKeyCounter",
           lambda s: tuple(tf.raw_ops.StatelessRandomGetKeyCounter(seed=s)),
           [np.array([1, 2], np.int32)], check=_exactly(_KEY, _COUNTER), grad=_RANDOM),
    OpSpec("StatelessRandomGetKeyCounterAlg",
           lambda s: tuple(tf.raw_ops.StatelessRandomGetKeyCounterAlg(seed=s)),
           [np.array([1, 2], np.int64)], check=_exactly(_KEY, _COUNTER, np.array(1, np.int32)),
           grad=_RANDOM),
    OpSpec("StatelessRandomGetAlg", lambda: tf.raw_ops.StatelessRandomGetAlg(), [],
           check=_exactly(np.array(1, np.int32)), grad=_RANDOM),
    OpSpec("RngReadAndSkip", _read_and_skip, [],
           check=_exactly(np.array([-2, 5, 7]), np.array([254, 6, 7])), grad=_RANDOM),
    OpSpec("StatelessRandomUniformV2", _v2("StatelessRandomUniformV2"), [],
           check=_exactly(np.array([0.8440604, 0.19204533, 0.9962232], np.float32)),
           grad=_RANDOM),
    OpSpec("StatelessRandomNormalV2", _v2("StatelessRandomNormalV2"), [],
           check=_exactly(_NORMALS), grad=_RANDOM),
    OpSpec("StatelessTruncatedNormalV2", _v2("StatelessTruncatedNormalV2"), [],
           check=_exactly(_NORMALS), grad=_RANDOM),
    OpSpec("StatelessRandomUniformFullIntV2",
           _v2("StatelessRandomUniformFullIntV2", dtype=tf.int64), [],
           check=_exactly(np.array([7464880146280614444, 1591045637757961278,
                                    -1057468755545501549])), grad=_RANDOM),
    OpSpec("StatelessRandomUniformIntV2",
           lambda: tf.raw_ops.StatelessRandomUniformIntV2(
               shape=[5], key=_KEY, counter=_COUNTER, alg=1, minval=3, maxval=100), [],
           check=_exactly(np.array([60, 62, 95, 18, 36], np.int32)), grad=_RANDOM),
]

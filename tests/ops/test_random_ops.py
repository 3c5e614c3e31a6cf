"""Random ops: TensorFlow's seeding rules (one test each), Generator, stateless ops, errors."""
import re
import subprocess
import sys

import numpy as np
import pytest

import eagerflow as tf
from eagerflow import errors, TensorShape
from tests.internals import context, random_ops as r, registry

InvalidArgumentError = errors.InvalidArgumentError


@pytest.fixture(autouse=True)
def _no_global_seed():
    tf.random.set_seed(None)
    yield
    tf.random.set_seed(None)


def _u(**kwargs):
    return tf.random.uniform([4], **kwargs).numpy()


def _same(a, b):
    return np.array_equal(np.asarray(a), np.asarray(b))


# -- seeding rules ---------------------------------------------------------------------------

def test_without_any_seed_values_are_nondeterministic():
    assert not _same(_u(), _u())
    tf.random.set_seed(None)
    first = _u()
    tf.random.set_seed(None)
    assert not _same(first, _u())


def test_global_seed_makes_the_sequence_of_ops_reproducible():
    tf.random.set_seed(1)
    run1 = [_u(), _u(), tf.random.normal([3]).numpy()]
    tf.random.set_seed(1)
    run2 = [_u(), _u(), tf.random.normal([3]).numpy()]
    assert all(_same(a, b) for a, b in zip(run1, run2))
    assert not _same(run1[0], run1[1])  # successive ops get different op seeds


def test_set_seed_again_restarts_the_sequence():
    tf.random.set_seed(1)
    a = tf.random.uniform([1])
    tf.random.set_seed(1)
    b = tf.random.uniform([1])
    assert _same(a, b)


def test_different_global_seeds_give_different_values():
    tf.random.set_seed(1)
    a = _u()
    tf.random.set_seed(2)
    assert not _same(a, _u())


def test_op_seeds_are_shared_by_all_op_kinds():
    tf.random.set_seed(7)
    tf.random.normal([2])
    second = _u()
    tf.random.set_seed(7)
    _u()
    assert _same(second, _u())  # the second op of the program, whatever the first was


def test_op_seed_only_uses_the_default_global_seed():
    a = _u(seed=5)
    tf.random.set_seed(r.DEFAULT_GRAPH_SEED)
    assert _same(a, _u(seed=5))
    assert r.get_seed(5) == (r.DEFAULT_GRAPH_SEED, 5)


def test_op_seed_only_is_reproducible_across_program_runs():
    a = [_u(seed=5), _u(seed=5)]
    tf.random.set_seed(None)  # a new "program run"
    assert _same(a, [_u(seed=5), _u(seed=5)])


def test_same_seed_pair_twice_gives_different_values():
    tf.random.set_seed(1)
    assert not _same(_u(seed=5), _u(seed=5))


def test_seed_pair_streams_restart_with_set_seed():
    tf.random.set_seed(1)
    run1 = [_u(seed=5), _u(seed=5)]
    tf.random.set_seed(1)
    assert _same(run1, [_u(seed=5), _u(seed=5)])


def test_explicit_op_seeds_do_not_advance_the_global_sequence():
    tf.random.set_seed(3)
    a = [_u(), _u(seed=9), _u()]
    tf.random.set_seed(3)
    b = [_u(), _u()]
    assert _same(a[0], b[0]) and _same(a[2], b[1])


def test_seed_pair_streams_are_independent_of_call_order():
    tf.random.set_seed(1)
    a5, a6 = _u(seed=5), _u(seed=6)
    tf.random.set_seed(1)
    b6, b5 = _u(seed=6), _u(seed=5)
    assert _same(a5, b5) and _same(a6, b6) and not _same(a5, a6)


def test_random_state_lives_in_attrs_so_a_rerun_reproduces_the_call():
    class Recorder:
        seen = []

        def record(self, op, inputs, attrs, outputs):
            self.seen.append((op, attrs, outputs))

    recorder = Recorder()
    with context.recording(recorder):
        first = tf.random.uniform([5])  # no seeds: entropy drawn into the attrs
    op, attrs, out = recorder.seen[0]
    assert op.name == "RandomUniform" and op.stateful and op.not_differentiable
    assert set(attrs) == {"shape", "dtype", "seed", "seed2", "stream"}
    np.testing.assert_array_equal(op.host_kernel(**attrs), first.numpy())


# -- stateless ops --------------------------------------------------------------------------

def test_stateless_ops_depend_only_on_their_seed():
    for fn in (tf.random.stateless_uniform, tf.random.stateless_normal,
               tf.random.stateless_truncated_normal):
        a = fn([3, 2], seed=[1, 2])
        tf.random.set_seed(4)  # the global seed plays no part
        assert _same(a, fn([3, 2], seed=[1, 2]))
        assert _same(a, fn([3, 2], seed=tf.constant([1, 2], tf.int64)))
        assert not _same(a, fn([3, 2], seed=[1, 3]))
    logits = tf.constant([[0.0, 0.0, 0.0]])
    assert _same(tf.random.stateless_categorical(logits, 20, [5, 5]),
                 tf.random.stateless_categorical(logits, 20, [5, 5]))


def test_stateless_seed_errors():
    with pytest.raises(InvalidArgumentError, match=r"seed must have shape \[2\], not \[3\]"):
        tf.random.stateless_uniform([2], seed=[1, 2, 3])
    with pytest.raises(InvalidArgumentError, match="'Tseed' of float is not in the list"):
        tf.random.stateless_uniform([2], seed=[1.0, 2.0])
    with pytest.raises(ValueError, match="argument `minval` and `maxval` must be both None"):
        tf.random.stateless_uniform([2], seed=[1, 2], dtype=tf.int32)


def test_stateless_full_range_integers():
    x = tf.random.stateless_uniform([1000], [1, 2], minval=None, maxval=None,
                                    dtype=tf.uint64).numpy()
    assert x.dtype == np.uint64 and x.max() > 2**63


def test_split_and_fold_in_derive_new_seeds_deterministically():
    seeds = tf.random.split([1, 2], num=3)
    assert seeds.dtype == tf.int32 and seeds.shape == (3, 2)
    assert _same(seeds,
                 tf.random.split([1, 2], num=3)) and len({tuple(s) for s in seeds.numpy()}) == 3
    assert tf.random.split(tf.constant([1, 2], tf.int64)).dtype == tf.int64
    folded = tf.random.fold_in([1, 2], 7)
    assert folded.numpy()[1] == 7 and _same(folded, tf.random.fold_in([1, 2], 7))
    assert not _same(tf.random.stateless_uniform([3], folded),
                     tf.random.stateless_uniform([3], [1, 2]))


# -- Generator ------------------------------------------------------------------------------

def test_generator_from_seed_is_reproducible_and_advances_per_call():
    g = tf.random.Generator.from_seed(1)
    a, b = g.normal([3]), g.normal([3])
    assert not _same(a, b)
    h = tf.random.Generator.from_seed(1)
    assert _same(a, h.normal([3])) and _same(b, h.normal([3]))
    assert g.state.numpy().tolist() == [1 + 2 * 3 * 256, 0, 0] and g.algorithm == 1


def test_generator_ignores_the_global_seed():
    tf.random.set_seed(1)
    a = tf.random.Generator.from_seed(9).uniform([3])
    tf.random.set_seed(2)
    assert _same(a, tf.random.Generator.from_seed(9).uniform([3]))


def test_generator_state_copy_skip_and_reset():
    g = tf.random.Generator.from_seed(4)
    g.uniform([2])
    copy = tf.random.Generator(copy_from=g)
    from_state = tf.random.Generator.from_state(g.state, tf.random.Algorithm.PHILOX)
    want = g.uniform([2])
    assert _same(want, copy.uniform([2])) and _same(want, from_state.uniform([2]))
    skipped = tf.random.Generator.from_seed(4)
    skipped.skip(2)  # as if 2 values had been drawn
    assert _same(want, skipped.uniform([2]))
    g.reset_from_seed(4)
    assert _same(g.uniform([2]), tf.random.Generator.from_seed(4).uniform([2]))


def test_generator_split_and_make_seeds():
    g = tf.random.Generator.from_seed(2)
    seeds = g.make_seeds(3)
    assert seeds.dtype == tf.int64 and seeds.shape == (2, 3)
    children = g.split(2)
    a, b = (c.normal([4]) for c in children)
    assert not _same(a, b) and not _same(a, g.normal([4]))


def test_generator_uniform_bounds():
    g = tf.random.Generator.from_non_deterministic_state()
    ints = g.uniform([500], minval=-3, maxval=3, dtype=tf.int64).numpy()
    assert ints.min() == -3 and ints.max() == 2
    assert g.uniform([2], minval=None, maxval=None, dtype=tf.uint32).dtype == tf.uint32
    with pytest.raises(ValueError, match="minval and maxval must be both `None` or both"):
        g.uniform([2], dtype=tf.int32)
    with pytest.raises(InvalidArgumentError, match="'dtype' of int8 is not in the list"):
        g.uniform([2], maxval=3, dtype=tf.int8)


def test_global_generator():
    g = tf.random.get_global_generator()
    assert g is tf.random.get_global_generator()
    mine = tf.random.Generator.from_seed(0)
    tf.random.set_global_generator(mine)
    try:
        assert tf.random.get_global_generator() is mine
    finally:
        tf.random.set_global_generator(g)


# -- values and errors ----------------------------------------------------------------------

def test_uniform_shapes_dtypes_and_ranges():
    assert tf.random.uniform([]).shape == ()
    assert tf.random.uniform(tf.constant([2, 1])).shape == (2, 1)
    assert tf.random.uniform(TensorShape([3])).shape == (3,)
    ints = tf.random.uniform([1000], minval=-2, maxval=2, dtype=tf.int32).numpy()
    assert ints.dtype == np.int32 and set(ints.tolist()) == {-2, -1, 0, 1}
    for dtype in (tf.float16, tf.bfloat16):  # narrow types never round up to maxval
        x = tf.random.uniform([20000], dtype=dtype).numpy().astype(np.float32)
        assert x.min() >= 0 and x.max() < 1
    per_column = tf.random.uniform([1000, 2], minval=[0.0, 10.0], maxval=[1.0, 11.0]).numpy()
    assert (per_column[:, 1] >= 10).all() and (per_column[:, 0] < 1).all()


@pytest.mark.parametrize("call,error,message", [
    (lambda: tf.random.uniform([2], dtype=tf.int32), ValueError, "Must specify maxval for integer"),
    (lambda: tf.random.uniform([2], dtype=tf.int8), ValueError,
     r"Argument `dtype` got invalid value <dtype: 'int8'>. Accepted dtypes are \(tf.float16"),
    (lambda: tf.random.uniform([2], 5, 5, tf.int32), InvalidArgumentError,
     r"Need minval < maxval, got 5 >= 5 \[Op:RandomUniformInt\]"),
    (lambda: tf.random.uniform([-1]), InvalidArgumentError, "Dimension -1 must be >= 0"),
    (lambda: tf.random.uniform(3), InvalidArgumentError,
     r"shape must be a vector of \{int32,int64\}"),
    (lambda: tf.random.uniform([2.0]), InvalidArgumentError, "'T' of float is not in the list"),
    (lambda: tf.random.uniform([3], minval=[0, 1, 2], maxval=5, dtype=tf.int32),
     InvalidArgumentError,
     r"minval must be 0-D, got shape \[3\]"),
    (lambda: tf.random.normal([2], dtype=tf.int32), TypeError, "Cannot convert 0.0"),
    (lambda: tf.random.normal([2], dtype=tf.complex64), InvalidArgumentError,
     r"'dtype' of complex64 is not in the list(.|\n)*\[Op:RandomStandardNormal\]"),
    (lambda: tf.random.poisson([2], [1.0], dtype=tf.int8), InvalidArgumentError,
     "'dtype' of int8 is not in the list of allowed values: half, float, double, int32, int64"),
    (lambda: tf.random.gamma([2], 1.0, dtype=tf.int32), TypeError, "Cannot convert 1.0"),
])
def test_argument_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_truncated_normal_stays_within_two_stddevs():
    x = tf.random.truncated_normal([20000], mean=5.0, stddev=0.5, dtype=tf.float64).numpy()
    assert x.min() >= 4.0 and x.max() <= 6.0 and x.dtype == np.float64


def test_normal_broadcasts_mean_and_stddev():
    x = tf.random.normal([3, 2], mean=[1.0, -1.0], stddev=[0.0, 0.0]).numpy()
    np.testing.assert_array_equal(x, [[1.0, -1.0]] * 3)


def test_categorical_never_draws_impossible_classes():
    x = tf.random.categorical([[-np.inf, 0.0, -np.inf], [0.0, 0.0, -np.inf]], 500).numpy()
    assert x.dtype == np.int64 and (x[0] == 1).all() and set(x[1].tolist()) == {0, 1}
    assert tf.random.categorical([[0.0, 0.0]], 0).shape == (1, 0)


@pytest.mark.parametrize("logits,samples,message", [
    ([0.0, 0.0], 3, r"logits should be a matrix, got shape \[2\]"),
    (np.zeros((1, 0), np.float32), 3, "num_classes should be positive, got 0"),
    ([[0.0, 0.0]], -1, "num_samples should be non-negative, got -1"),
])
def test_categorical_errors(logits, samples, message):
    with pytest.raises(InvalidArgumentError, match=message + r" \[Op:Multinomial\]"):
        tf.random.categorical(logits, samples)


def test_categorical_dtype_argument():
    assert tf.random.categorical([[0.0, 1.0]], 2, dtype=tf.int32).dtype == tf.int32
    with pytest.raises(ValueError, match=r"Accepted dtypes are \(tf.int32, tf.int64\)"):
        tf.random.categorical([[0.0, 1.0]], 2, dtype=tf.int16)


def test_categorical_of_integer_logits_has_no_kernel_as_in_tf():
    """TF's Multinomial ops allow every real type of logits but have kernels for floating
    ones only: integer logits fail as the op runs (NotFoundError eagerly, InvalidArgumentError
    in a graph), complex ones by the op's type constraint; `num_samples` is an int32 input."""
    for run in (lambda: tf.random.categorical([[1, 2]], 2),
                lambda: tf.random.stateless_categorical([[1, 2]], 2, seed=[1, 2]),
                lambda: tf.random.categorical(tf.constant([[1, 2]], tf.uint8), 2)):
        with pytest.raises(errors.NotFoundError, match=r"^Could not find device for node: "
                                                       r"\{\{node (Stateless)?Multinomial\}\}"):
            run()
    with pytest.raises(errors.InvalidArgumentError, match="No OpKernel was registered to "
                                                          "support Op 'Multinomial'"):
        tf.function(lambda x: tf.random.categorical(x, 2))(tf.constant([[1, 2]]))
    with pytest.raises(errors.InvalidArgumentError, match="^Value for attr 'T' of complex64 "):
        tf.random.categorical(tf.constant([[1, 2]], tf.complex64), 2)
    with pytest.raises(errors.InvalidArgumentError,
                       match=r"^cannot compute Multinomial as input #1\(zero-based\) was "
                             r"expected to be a int32 tensor but is a int64 tensor "
                             r"\[Op:Multinomial\] name: $"):
        tf.random.categorical([[1.0, 2.0]], tf.constant(2, tf.int64))
    with pytest.raises(TypeError, match="Input 'num_samples' of 'Multinomial' Op has type "
                                        "int64 that does not match expected type of int32"):
        tf.function(lambda x: tf.random.categorical(x, tf.constant(2, tf.int64)))(
            tf.constant([[1.0, 2.0]]))
    assert tf.random.categorical([[0.0, 1.0]], tf.constant(3), seed=1).shape == (1, 3)
    assert tf.random.categorical(tf.constant([[0.0, 1.0]], tf.float16), 2).shape == (1, 2)


def test_shuffle_permutes_the_first_dimension_only():
    x = np.arange(40).reshape(20, 2)
    out = tf.random.shuffle(x).numpy()
    np.testing.assert_array_equal(np.sort(out[:, 0]), x[:, 0])
    np.testing.assert_array_equal(out[:, 1] - out[:, 0], 1)
    assert tf.random.shuffle(3).numpy() == 3
    assert tf.random.shuffle(np.zeros((0, 2), np.float32)).shape == (0, 2)
    assert sorted(tf.random.shuffle([b"a", b"b"]).numpy().tolist()) == [b"a", b"b"]


def test_shuffle_reserves_one_word_per_swap():
    # n elements take n - 1 swaps: the stream of a seeded op moves on by ceil((n - 1) / 4)
    # blocks, which shows from n = 5 on its second call (values from TF 2.21)
    tf.random.set_seed(5)
    assert [tf.random.shuffle(tf.range(5), seed=7).numpy().tolist() for _ in range(3)] == \
        [[0, 4, 3, 2, 1], [4, 1, 0, 3, 2], [2, 3, 0, 4, 1]]
    assert [tf.random.shuffle(tf.range(9), seed=7).numpy().tolist() for _ in range(3)] == \
        [[2, 1, 6, 3, 8, 7, 0, 5, 4], [3, 7, 1, 4, 6, 2, 8, 0, 5], [3, 6, 8, 4, 7, 0, 5, 2, 1]]


def test_poisson_and_gamma_edges():
    assert (tf.random.poisson([5], [-1.0, 0.0]).numpy() == 0).all()  # non-positive rates give 0
    assert tf.random.poisson([2], [1, 5]).dtype == tf.float32
    g = tf.random.gamma([4], [0.0, -1.0]).numpy()
    assert (g[:, 0] == np.finfo(np.float32).tiny).all() and np.isnan(g[:, 1]).all()
    assert tf.random.gamma([2], [[1.0], [5.0]], beta=[1.0, 2.0, 3.0]).shape == (2, 2, 3)


def test_random_shape_rules_with_unknown_dims():
    class Static:
        def __init__(self, shape, dtype=tf.float32):
            self.shape, self.dtype = TensorShape(shape), dtype

    multinomial = registry.get("Multinomial").shape
    assert multinomial(Static([None, 3]), num_samples=4, output_dtype=tf.int64) == \
        (TensorShape([None, 4]), tf.int64)
    assert multinomial(Static(None), num_samples=4, output_dtype=tf.int32)[0].as_list() == \
        [None, 4]
    poisson = registry.get("RandomPoissonV2").shape
    assert poisson(Static([None]), shape=(2,), dtype=tf.int64) == \
        (TensorShape([2, None]), tf.int64)
    assert poisson(Static(None), shape=(2,), dtype=tf.int64)[0].rank is None


# -- random ops in graphs: each run draws the op's next values -------------------------------

def _pair():
    return tf.random.uniform([3]), tf.random.normal([3])


def _runs(f, n=2):
    return [[t.numpy() for t in f()] for _ in range(n)]


def _all_same(runs_a, runs_b):
    return all(_same(a, b) for ra, rb in zip(runs_a, runs_b) for a, b in zip(ra, rb))


def test_a_function_draws_new_values_at_each_call():
    f = tf.function(_pair)
    first, second = _runs(f)
    assert not _same(first[0], second[0]) and not _same(first[1], second[1])


def test_global_seed_set_before_tracing_makes_the_calls_reproducible():
    tf.random.set_seed(1)
    f = tf.function(_pair)
    runs = _runs(f, 3)
    assert not _same(runs[0][0], runs[1][0])
    tf.random.set_seed(1)  # restarts the sequence of the function already traced
    assert _all_same(_runs(f, 3), runs)
    assert f.experimental_get_tracing_count() == 1


def test_functions_of_the_same_code_draw_the_same_sequence():
    tf.random.set_seed(7)
    f, g = tf.function(_pair), tf.function(_pair)
    assert _all_same(_runs(f), _runs(g))


def test_graph_ops_with_one_op_seed_each_keep_their_own_stream():
    f = tf.function(lambda: (tf.random.uniform([2], seed=3), tf.random.uniform([2], seed=3)))
    (a1, b1), (a2, b2) = _runs(f)
    assert _same(a1, b1) and _same(a2, b2)  # two ops, two states, from the same pair
    assert not _same(a1, a2)
    g = tf.function(lambda: (tf.random.uniform([2], seed=3), tf.random.uniform([2], seed=3)))
    assert _same(g()[0], a1)  # an op seed alone is reproducible too


def test_unseeded_graph_ops_stay_nondeterministic_under_set_seed():
    f = tf.function(lambda: tf.random.uniform([4]))
    f()
    tf.random.set_seed(1)
    a = f().numpy()
    tf.random.set_seed(1)
    assert not _same(a, f())


def test_a_generator_used_in_a_function_advances_its_state_at_each_run():
    g = tf.random.Generator.from_seed(5)
    f = tf.function(lambda: g.normal([2]))
    drawn = [f().numpy(), f().numpy(), g.normal([2]).numpy()]
    fresh = tf.random.Generator.from_seed(5)
    assert all(_same(d, fresh.normal([2])) for d in drawn)


def test_stateless_ops_in_a_function_repeat_their_values():
    f = tf.function(lambda: tf.random.stateless_normal([3], seed=[4, 2]))
    assert _same(f(), f())
    assert _same(f(), tf.random.stateless_normal([3], seed=[4, 2]))


# -- values: TensorFlow 2.21's on CPU, to the last bit ---------------------------------------

def _equal(got, want, dtype=None):
    got = np.asarray(got)
    np.testing.assert_array_equal(got, np.asarray(want, dtype or got.dtype))


_SEED = [7, 11]


@pytest.mark.parametrize("dtype,uniform,normal,truncated", [
    (tf.float32, [0.7251373529434204, 0.07715070247650146, 0.5419409275054932,
                  0.26232099533081055, 0.5479346513748169],
     [0.3736024796962738, 0.7093726396560669, 1.103570818901062, -0.08560418337583542,
      0.7084914445877075],
     [0.3736024796962738, 0.7093726396560669, 1.103570818901062, -0.08560418337583542,
      0.11584892868995667]),
    (tf.float64, [0.8010994197375154, 0.3355276235608775, 0.3834773681838828,
                  0.962810050529932, 0.6294192064909627],
     [0.5721170971858979, -0.3409141641154505, -0.32059098871919944, 1.3469115655857593,
      -0.6998264265709605],
     [0.5721170971858979, -0.3409141641154505, -1.4383148326660065, -0.30746722339271454,
      -1.061688353490174]),
    (tf.float16, [0.3251953125, 0.0185546875, 0.580078125, 0.93359375, 0.6806640625],
     [0.37353515625, 0.70947265625, 1.103515625, -0.08563232421875, 0.70849609375],
     [0.37353515625, 0.70947265625, 1.103515625, -0.08563232421875, 0.1158447265625]),
    (tf.bfloat16, [0.6015625, 0.1484375, 0.640625, 0.46875, 0.4453125],
     [0.373046875, 0.7109375, 1.1015625, -0.08544921875, 0.70703125],
     [0.373046875, 0.7109375, 1.1015625, -0.08544921875, 0.11572265625]),
])
def test_stateless_float_values_are_tensorflows(dtype, uniform, normal, truncated):
    for fn, want in ((tf.random.stateless_uniform, uniform), (tf.random.stateless_normal, normal),
                     (tf.random.stateless_truncated_normal, truncated)):
        _equal(fn([5], _SEED, dtype=dtype).numpy().astype(np.float64), want)


def test_stateless_values_are_tensorflows():
    _equal(tf.random.stateless_uniform([2], seed=[1, 2]), [0.8440604, 0.19204533], np.float32)
    _equal(tf.random.stateless_uniform([2, 3], _SEED, minval=-2.0, maxval=3.0),
           [[1.6256866455078125, -1.6142464876174927, 0.7097046375274658],
            [-0.6883950233459473, 0.7396731376647949, -0.05879533290863037]])
    _equal(tf.random.stateless_normal([4], _SEED, mean=1.0, stddev=0.5),
           [1.1868011951446533, 1.3546862602233887, 1.5517854690551758, 0.957197904586792])
    _equal(tf.random.stateless_uniform([6], _SEED, minval=-5, maxval=100, dtype=tf.int32),
           [25, 17, -3, 20, 97, 53])
    _equal(tf.random.stateless_uniform([6], _SEED, minval=-5, maxval=100, dtype=tf.int64),
           [92, 97, 35, 35, 22, 3])
    _equal(tf.random.stateless_uniform([3], _SEED, minval=None, maxval=None, dtype=tf.uint32),
           [3478966605, 2685001747, 3603258962])
    _equal(tf.random.stateless_uniform([3], _SEED, minval=None, maxval=None, dtype=tf.int64),
           [-6914749377162718899, 3936589988564917842, 3040406804523000505])
    _equal(tf.random.stateless_uniform([3], tf.constant([-1, 2**40], tf.int64)),
           [0.49345242977142334, 0.21545755863189697, 0.07238852977752686])
    logits = tf.math.log([[0.1, 0.2, 0.7], [0.5, 0.5, 0.0]])
    _equal(tf.random.stateless_categorical(logits, 6, _SEED),
           [[2, 2, 2, 2, 2, 2], [1, 1, 0, 1, 0, 1]])
    _equal(tf.random.split(_SEED, 3), [[-816000691, -1609965549], [-691708334, 916558780],
                               [1145447097, 707899873]])
    _equal(tf.random.fold_in(_SEED, 5), [-816000691, 5])
    assert tf.random.fold_in(tf.constant(_SEED, tf.int64), 5).dtype == tf.int32  # data's dtype


def test_global_seed_values_are_tensorflows():
    tf.random.set_seed(42)
    _equal(tf.random.uniform([3]), [0.6645621061325073, 0.44100677967071533, 0.3528825044631958])
    _equal(tf.random.normal([3]), [0.08422458171844482, -0.8609037399291992, 0.37812304496765137])
    _equal(tf.random.truncated_normal([3]), [-0.5590973496437073, -0.5347213745117188,
                                     -1.572593092918396])
    _equal(tf.random.uniform([4], minval=0, maxval=10, dtype=tf.int32), [4, 0, 4, 4])
    _equal(tf.random.shuffle(tf.range(8)), [1, 7, 2, 6, 5, 4, 0, 3])
    _equal(tf.random.categorical(tf.math.log([[0.2, 0.3, 0.5]]), 8), [[2, 2, 2, 2, 2, 2, 2, 0]])
    # one pair's kernel continues its stream; a new dtype is a new kernel
    _equal(tf.random.uniform([2], seed=1), [0.15012848377227783, 0.6399253606796265])
    _equal(tf.random.uniform([2], seed=1), [0.3665804862976074, 0.8912454843521118])
    _equal(tf.random.uniform([2], dtype=tf.float64), [0.48444366739106415, 0.9739749507365789])
    _equal(tf.random.normal([3], dtype=tf.float16), [1.14453125, -1.609375, -1.34765625])
    tf.random.set_seed(None)
    _equal(tf.random.uniform([2], seed=3), [0.38692939281463623, 0.3600262403488159])
    tf.random.set_seed(0)  # the pair (0, 0) means "unseeded" to kernels: it becomes (0, 2**31 - 1)
    assert r.get_seed(0) == (0, 2**31 - 1)
    _equal(tf.random.uniform([2]), [0.29197514057159424, 0.2065664529800415])
    _equal(tf.nn.dropout(tf.ones([2, 4]), 0.5, seed=3), [[0, 2, 2, 2], [2, 2, 0, 0]])
    _equal(tf.random.shuffle(tf.reshape(tf.range(12), [6, 2]), seed=7),
           [[10, 11], [0, 1], [2, 3], [4, 5], [6, 7], [8, 9]])


def test_seeds_are_taken_modulo_2_31_minus_1():
    tf.random.set_seed(2**33 + 5)
    assert r.get_seed(2**40) == (9, 512)
    _equal(tf.random.uniform([2], seed=2**40), [0.9580652713775635, 0.9981238842010498])


def test_function_values_are_tensorflows():
    tf.random.set_seed(1)
    f = tf.function(lambda: (tf.random.uniform([2]), tf.random.normal([2])))
    _equal([t.numpy() for t in f()], [[0.8126964569091797, 0.07857465744018555],
                                      [0.2818339467048645, 2.3878283500671387]], np.float32)
    _equal([t.numpy() for t in f()], [[0.8489425182342529, 0.09832477569580078],
                                      [1.0040135383605957, -0.301073282957077]], np.float32)


def test_generator_values_and_state_are_tensorflows():
    g = tf.random.Generator.from_seed(1)
    _equal(g.normal([3]), [0.4384227395057678, -0.5343984365463257, -0.07710261642932892])
    _equal(g.state, [769, 0, 0])  # 256 blocks per value drawn
    _equal(g.uniform([3], minval=2.0, maxval=5.0),
           [4.082402229309082, 4.340141773223877, 3.008127212524414])
    _equal(g.uniform([3], minval=2, maxval=50, dtype=tf.int64), [28, 5, 33])
    _equal(g.uniform_full_int([2], dtype=tf.int32), [-1594009972, -632736865])
    _equal(g.truncated_normal([3]), [-1.0439486503601074, -0.2353706657886505,
                                     0.5547064542770386])
    _equal(g.normal([3], dtype=tf.float64),
           [1.2073635193018872, -1.0319164694102183, -0.8748989991687405])
    _equal(g.make_seeds(2), [[-3206527474837102847, -822974215341821412], [0, 0]])
    _equal([c.state.numpy() for c in g.split(2)],
           [[0, 0, -7204024886673235746], [0, 0, -4472212563072582704]])
    _equal(g.state, [5377, 0, 0])
    _equal(tf.random.Generator.from_seed(-5).state, [-5, -1, -1])
    _equal(tf.random.Generator.from_seed(2**64 + 3).state, [3, 1, 0])
    _equal(tf.random.Generator.from_key_counter(5, [7, 0], tf.random.Algorithm.PHILOX).state,
           [7, 0, 5])


def test_algorithms():
    want = tf.random.stateless_uniform([2], [1, 2]).numpy()
    for alg in ("philox", "auto_select", tf.random.Algorithm.PHILOX, 3):
        _equal(tf.random.stateless_uniform([2], [1, 2], alg=alg), want)
    with pytest.raises(InvalidArgumentError, match="counter must be a vector"):
        tf.random.stateless_uniform([2], [1, 2], alg="threefry")
    with pytest.raises(ValueError, match="Argument `alg` got unsupported value bogus"):
        tf.random.stateless_normal([2], [1, 2], alg="bogus")
    g = tf.random.Generator.from_seed(1, alg="auto_select")
    assert g.algorithm == 3
    _equal(g.normal([2]), [0.4384227395057678, -0.5343984365463257], np.float32)
    with pytest.raises(errors.UnimplementedError, match="Non-XLA devices don't support"):
        tf.random.Generator.from_seed(1, alg="threefry").normal([2])


def test_multinomial_rows_split_as_a_thread_pool_splits_them(monkeypatch):
    # 300 rows of 50 samples: two threads take blocks of 38 rows, each block reading its
    # own part of the stream (as TensorFlow on a two-core machine).
    monkeypatch.setattr(r, "_threads", lambda: 2)
    out = tf.random.stateless_categorical(tf.zeros([300, 10]), 50, seed=[1, 2]).numpy()
    _equal(out[0, :10], [7, 9, 1, 8, 5, 6, 8, 2, 8, 8])
    _equal(out[38, :10], [8, 4, 9, 3, 4, 1, 7, 4, 1, 5])
    _equal(out[299, -5:], [2, 5, 7, 5, 2])


def test_gamma_and_poisson_values_are_tensorflows():
    _equal(tf.random.gamma([2], [0.5, 1.0, 3.0], seed=5),
           [[0.027734944596886635, 0.5686103105545044, 2.823315382003784],
            [0.08037696033716202, 0.5916012525558472, 2.1533925533294678]])
    _equal(tf.random.gamma([2], [[0.5], [2.0]], beta=[1.0, 3.0], seed=5, dtype=tf.float64),
           [[[0.027734944165202002, 0.03495884262003155],
             [1.7911356662918902, 0.19623340388214616]],
            [[0.08037696213740272, 0.0077303621792135825],
             [1.268402662629048, 1.0113453769393244]]])
    _equal(tf.random.poisson([2], [0.5, 3.0, 25.0], seed=5), [[0, 4, 29], [0, 3, 26]])
    _equal(tf.random.poisson([2], tf.constant([2, 12]), seed=5, dtype=tf.int32), [[1, 11], [2, 11]])
    tf.random.set_seed(3)  # rates from 10 up: Hormann's rejection
    _equal(tf.random.poisson([2], [1e6, 150.0, 10.0]), [[1003205, 123, 5], [999942, 140, 16]])


def test_a_checkpoint_saves_and_restores_a_generators_state(tmp_path):
    g = tf.random.Generator.from_seed(42)
    model = tf.Module()
    model.g = g
    checkpoint = tf.train.Checkpoint(model=model)
    path = checkpoint.save(str(tmp_path / "ckpt"))
    assert ("model/g/_state_var/.ATTRIBUTES/VARIABLE_VALUE", [3]) in tf.train.list_variables(path)
    first = g.normal([2])
    checkpoint.restore(path).assert_consumed()
    np.testing.assert_array_equal(g.normal([2]).numpy(), first.numpy())
    other = tf.random.Generator.from_seed(0)
    fresh = tf.Module()
    fresh.g = other
    tf.train.Checkpoint(model=fresh).restore(path)
    np.testing.assert_array_equal(other.normal([2]).numpy(), first.numpy())


def test_categorical_logits_of_another_rank_fail_while_tracing():
    for shape, rank in (([3], 1), ([3, 2, 1], 3)):
        with pytest.raises(ValueError, match=f"Shape must be rank 2 but is rank {rank}"):
            tf.function(lambda x: tf.random.categorical(x, 2))(tf.ones(shape))
    with pytest.raises(tf.errors.InvalidArgumentError):  # eagerly: the kernel's error
        tf.random.categorical(tf.ones([3]), 2)


@pytest.mark.parametrize("key, counter, message", [
    (1, [0, 0, 0], "Shapes (3,) and [2] are incompatible"),
    ([1], [0, 0], "Shapes (1,) and [] are incompatible"),
    (1, [[0, 0]], "Shapes (1, 2) and [2] are incompatible")])
def test_generator_from_key_counter_checks_shapes_as_tf(key, counter, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        tf.random.Generator.from_key_counter(key=key, counter=counter, alg="philox")


def test_categorical_needs_a_scalar_number_of_samples():
    with pytest.raises(tf.errors.InvalidArgumentError, match="num_samples should be a scalar"):
        tf.random.categorical([[0.0, 1.0]], tf.constant([2, 3]))


def test_op_determinism_refuses_unseeded_random_ops():
    # (in a process of its own: determinism, once enabled, stays on)
    code = """
import eagerflow as tf
tf.config.experimental.enable_op_determinism()
tf.random.set_seed(None)
def error(f):
    try:
        f()
    except RuntimeError as e:
        return str(e)
print(error(lambda: tf.random.uniform([1])))
print(error(lambda: list(tf.data.Dataset.range(3).shuffle(3))))
print(error(lambda: tf.nn.dropout(tf.ones([2]), 0.5)))
print(error(tf.random.Generator.from_non_deterministic_state))
print(error(tf.random.get_global_generator))
print(tf.random.uniform([1], seed=1).shape, tf.random.stateless_uniform([1], [1, 2]).shape)
tf.random.set_seed(1)
print(tf.random.uniform([1]).shape)
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.splitlines()
    unseeded = ("Random ops require a seed to be set when determinism is enabled. Please set a "
                "seed before running the op, e.g. by calling tf.random.set_seed(1).")
    assert out == [unseeded, unseeded, unseeded,
                   '"from_non_deterministic_state" cannot be called when determinism is '
                   'enabled.',
                   '"get_global_generator" cannot be called if determinism is enabled, unless '
                   '"set_global_generator" has already been called. Please call '
                   '"set_global_generator" first.',
                   "(1,) (1,)", "(1,)"]


@pytest.mark.parametrize("set_seed,op_seed,message", [
    ("3", None, "not all arguments converted during string formatting"),
    (None, "a", "not all arguments converted during string formatting"),
    (None, [1, 2], "unsupported operand type"),
])
def test_seeds_that_are_not_numbers_fail_as_the_op_takes_them(set_seed, op_seed, message):
    # (TF keeps a global seed as given; an op takes its seeds modulo 2**31 - 1)
    tf.random.set_seed(set_seed)
    try:
        with pytest.raises(TypeError, match=message):
            tf.random.uniform([1], seed=op_seed)
    finally:
        tf.random.set_seed(None)


def test_failed_calls_leave_the_global_sequence_as_tf_does():
    """A conversion error (Python's) comes before the op seed is taken; an error of the op
    (a shape or dtype its kernel refuses) after: the next unseeded draws are TF's (2.21)."""
    tf.random.set_seed(2)
    calls = [
        (TypeError, lambda: tf.random.normal([2], dtype=tf.int32)),
        (InvalidArgumentError, lambda: tf.random.uniform([2.5])),
        (InvalidArgumentError, lambda: tf.random.uniform([-1])),
        (InvalidArgumentError, lambda: tf.random.poisson([2], 1., dtype=tf.string)),
        (InvalidArgumentError, lambda: tf.random.gamma([-2], 1.)),
        (TypeError, lambda: tf.random.truncated_normal([2], dtype=tf.int32)),
        (ValueError, lambda: tf.random.uniform([2], tf.constant(1), 9, dtype=tf.int64, seed=4)),
    ]
    after = []
    for error, call in calls:
        with pytest.raises(error):
            call()
        after.append(float(tf.random.uniform([])))
    np.testing.assert_allclose(after, [0.1469024419784546, 0.47942936420440674,
                                       0.22934579849243164, 0.1358187198638916,
                                       0.058936357498168945, 0.22643983364105225,
                                       0.7955312728881836], rtol=1e-7)


def test_bound_conversion_errors_name_the_bound():
    with pytest.raises(ValueError, match="^min: Tensor conversion requested dtype int64"):
        tf.random.uniform([2], tf.constant(1), 9, dtype=tf.int64)
    with pytest.raises(ValueError, match="^max: Tensor conversion requested dtype int64"):
        tf.random.uniform([2], 1, tf.constant(9), dtype=tf.int64)


def test_an_int64_shape_has_a_kernel_of_its_own():
    """TF's eager kernels are cached by attrs, the shape's type among them: a seeded op given
    an int64 shape starts its own sequence, a list or int32 shape goes on with the first;
    `poisson` and `gamma` convert the shape to int32 (recorded with TF 2.21)."""
    tf.random.set_seed(3)
    first = tf.random.normal([2], seed=1).numpy()
    int64 = tf.random.normal(np.array([2]), seed=1).numpy()
    int64_tensor = tf.random.normal(tf.constant([2], tf.int64), seed=1).numpy()
    again = tf.random.normal([2], seed=1).numpy()
    np.testing.assert_array_equal(int64, first)
    assert int64_tensor.tolist() != int64.tolist() and again.tolist() != first.tolist()
    tf.random.set_seed(3)
    draws = [tf.random.poisson(s, 3.0, seed=1).numpy().tolist()
             for s in ([2], np.array([2]), [2])]
    assert draws == [[0.0, 1.0], [3.0, 6.0], [4.0, 1.0]]
    with pytest.raises(ValueError, match="^shape: Tensor conversion requested dtype int32"):
        tf.random.gamma(tf.constant([2], tf.int64), 3.0)


def test_a_variable_gives_the_shape():
    v = tf.Variable([2, 1], dtype=tf.int64)
    assert tf.random.uniform(v, seed=1).shape == (2, 1)
    np.testing.assert_allclose(tf.random.stateless_uniform(v, [1, 2]).numpy().ravel(),
                               [0.8440604209899902, 0.19204533100128174], rtol=1e-7)

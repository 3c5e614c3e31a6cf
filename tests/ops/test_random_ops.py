"""Random ops: TensorFlow's seeding rules (one test each), Generator, stateless ops, errors."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.core import context, errors, registry
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.ops import random_ops as r

InvalidArgumentError = errors.InvalidArgumentError


@pytest.fixture(autouse=True)
def _no_global_seed():
    r.set_seed(None)
    yield
    r.set_seed(None)


def _u(**kwargs):
    return r.uniform([4], **kwargs).numpy()


def _same(a, b):
    return np.array_equal(np.asarray(a), np.asarray(b))


# -- seeding rules ---------------------------------------------------------------------------

def test_without_any_seed_values_are_nondeterministic():
    assert not _same(_u(), _u())
    r.set_seed(None)
    first = _u()
    r.set_seed(None)
    assert not _same(first, _u())


def test_global_seed_makes_the_sequence_of_ops_reproducible():
    r.set_seed(1)
    run1 = [_u(), _u(), r.normal([3]).numpy()]
    r.set_seed(1)
    run2 = [_u(), _u(), r.normal([3]).numpy()]
    assert all(_same(a, b) for a, b in zip(run1, run2))
    assert not _same(run1[0], run1[1])  # successive ops get different op seeds


def test_set_seed_again_restarts_the_sequence():
    r.set_seed(1)
    a = r.uniform([1])
    r.set_seed(1)
    b = r.uniform([1])
    assert _same(a, b)


def test_different_global_seeds_give_different_values():
    r.set_seed(1)
    a = _u()
    r.set_seed(2)
    assert not _same(a, _u())


def test_op_seeds_are_shared_by_all_op_kinds():
    r.set_seed(7)
    r.normal([2])
    second = _u()
    r.set_seed(7)
    _u()
    assert _same(second, _u())  # the second op of the program, whatever the first was


def test_op_seed_only_uses_the_default_global_seed():
    a = _u(seed=5)
    r.set_seed(r.DEFAULT_GRAPH_SEED)
    assert _same(a, _u(seed=5))
    assert r.get_seed(5) == (r.DEFAULT_GRAPH_SEED, 5)


def test_op_seed_only_is_reproducible_across_program_runs():
    a = [_u(seed=5), _u(seed=5)]
    r.set_seed(None)  # a new "program run"
    assert _same(a, [_u(seed=5), _u(seed=5)])


def test_same_seed_pair_twice_gives_different_values():
    r.set_seed(1)
    assert not _same(_u(seed=5), _u(seed=5))


def test_seed_pair_streams_restart_with_set_seed():
    r.set_seed(1)
    run1 = [_u(seed=5), _u(seed=5)]
    r.set_seed(1)
    assert _same(run1, [_u(seed=5), _u(seed=5)])


def test_explicit_op_seeds_do_not_advance_the_global_sequence():
    r.set_seed(3)
    a = [_u(), _u(seed=9), _u()]
    r.set_seed(3)
    b = [_u(), _u()]
    assert _same(a[0], b[0]) and _same(a[2], b[1])


def test_seed_pair_streams_are_independent_of_call_order():
    r.set_seed(1)
    a5, a6 = _u(seed=5), _u(seed=6)
    r.set_seed(1)
    b6, b5 = _u(seed=6), _u(seed=5)
    assert _same(a5, b5) and _same(a6, b6) and not _same(a5, a6)


def test_random_state_lives_in_attrs_so_a_rerun_reproduces_the_call():
    class Recorder:
        seen = []

        def record(self, op, inputs, attrs, outputs):
            self.seen.append((op, attrs, outputs))

    recorder = Recorder()
    with context.recording(recorder):
        first = r.uniform([5])  # no seeds: entropy drawn into the attrs
    op, attrs, out = recorder.seen[0]
    assert op.name == "RandomUniform" and op.stateful and op.not_differentiable
    assert set(attrs) == {"shape", "dtype", "seed", "seed2", "stream"}
    np.testing.assert_array_equal(op.host_kernel(**attrs), first.numpy())


# -- stateless ops --------------------------------------------------------------------------

def test_stateless_ops_depend_only_on_their_seed():
    for fn in (r.stateless_uniform, r.stateless_normal, r.stateless_truncated_normal):
        a = fn([3, 2], seed=[1, 2])
        r.set_seed(4)  # the global seed plays no part
        assert _same(a, fn([3, 2], seed=[1, 2]))
        assert _same(a, fn([3, 2], seed=tf.constant([1, 2], tf.int64)))
        assert not _same(a, fn([3, 2], seed=[1, 3]))
    logits = tf.constant([[0.0, 0.0, 0.0]])
    assert _same(r.stateless_categorical(logits, 20, [5, 5]),
                 r.stateless_categorical(logits, 20, [5, 5]))


def test_stateless_seed_errors():
    with pytest.raises(InvalidArgumentError, match=r"seed must have shape \[2\], not \[3\]"):
        r.stateless_uniform([2], seed=[1, 2, 3])
    with pytest.raises(InvalidArgumentError, match="'Tseed' of float is not in the list"):
        r.stateless_uniform([2], seed=[1.0, 2.0])
    with pytest.raises(ValueError, match="argument `minval` and `maxval` must be both None"):
        r.stateless_uniform([2], seed=[1, 2], dtype=tf.int32)


def test_stateless_full_range_integers():
    x = r.stateless_uniform([1000], [1, 2], minval=None, maxval=None, dtype=tf.uint64).numpy()
    assert x.dtype == np.uint64 and x.max() > 2**63


def test_split_and_fold_in_derive_new_seeds_deterministically():
    seeds = r.split([1, 2], num=3)
    assert seeds.dtype == tf.int32 and seeds.shape == (3, 2)
    assert _same(seeds, r.split([1, 2], num=3)) and len({tuple(s) for s in seeds.numpy()}) == 3
    assert r.split(tf.constant([1, 2], tf.int64)).dtype == tf.int64
    folded = r.fold_in([1, 2], 7)
    assert folded.numpy()[1] == 7 and _same(folded, r.fold_in([1, 2], 7))
    assert not _same(r.stateless_uniform([3], folded), r.stateless_uniform([3], [1, 2]))


# -- Generator ------------------------------------------------------------------------------

def test_generator_from_seed_is_reproducible_and_advances_per_call():
    g = r.Generator.from_seed(1)
    a, b = g.normal([3]), g.normal([3])
    assert not _same(a, b)
    h = r.Generator.from_seed(1)
    assert _same(a, h.normal([3])) and _same(b, h.normal([3]))
    assert g.state.numpy().tolist() == [2, 0, 1] and g.algorithm == 1


def test_generator_ignores_the_global_seed():
    r.set_seed(1)
    a = r.Generator.from_seed(9).uniform([3])
    r.set_seed(2)
    assert _same(a, r.Generator.from_seed(9).uniform([3]))


def test_generator_state_copy_skip_and_reset():
    g = r.Generator.from_seed(4)
    g.uniform([2])
    copy = r.Generator(copy_from=g)
    from_state = r.Generator.from_state(g.state, r.Algorithm.PHILOX)
    want = g.uniform([2])
    assert _same(want, copy.uniform([2])) and _same(want, from_state.uniform([2]))
    skipped = r.Generator.from_seed(4)
    skipped.skip(1)
    assert _same(want, skipped.uniform([2]))
    g.reset_from_seed(4)
    assert _same(g.uniform([2]), r.Generator.from_seed(4).uniform([2]))


def test_generator_split_and_make_seeds():
    g = r.Generator.from_seed(2)
    seeds = g.make_seeds(3)
    assert seeds.dtype == tf.int64 and seeds.shape == (2, 3)
    children = g.split(2)
    a, b = (c.normal([4]) for c in children)
    assert not _same(a, b) and not _same(a, g.normal([4]))


def test_generator_uniform_bounds():
    g = r.Generator.from_non_deterministic_state()
    ints = g.uniform([500], minval=-3, maxval=3, dtype=tf.int64).numpy()
    assert ints.min() == -3 and ints.max() == 2
    assert g.uniform([2], minval=None, maxval=None, dtype=tf.uint32).dtype == tf.uint32
    with pytest.raises(ValueError, match="minval and maxval must be both `None` or both"):
        g.uniform([2], dtype=tf.int32)
    with pytest.raises(InvalidArgumentError, match="'dtype' of int8 is not in the list"):
        g.uniform([2], maxval=3, dtype=tf.int8)


def test_global_generator():
    g = r.get_global_generator()
    assert g is r.get_global_generator()
    mine = r.Generator.from_seed(0)
    r.set_global_generator(mine)
    try:
        assert r.get_global_generator() is mine
    finally:
        r.set_global_generator(g)


# -- values and errors ----------------------------------------------------------------------

def test_uniform_shapes_dtypes_and_ranges():
    assert r.uniform([]).shape == ()
    assert r.uniform(tf.constant([2, 1])).shape == (2, 1)
    assert r.uniform(TensorShape([3])).shape == (3,)
    ints = r.uniform([1000], minval=-2, maxval=2, dtype=tf.int32).numpy()
    assert ints.dtype == np.int32 and set(ints.tolist()) == {-2, -1, 0, 1}
    for dtype in (tf.float16, tf.bfloat16):  # narrow types never round up to maxval
        x = r.uniform([20000], dtype=dtype).numpy().astype(np.float32)
        assert x.min() >= 0 and x.max() < 1
    per_column = r.uniform([1000, 2], minval=[0.0, 10.0], maxval=[1.0, 11.0]).numpy()
    assert (per_column[:, 1] >= 10).all() and (per_column[:, 0] < 1).all()


@pytest.mark.parametrize("call,error,message", [
    (lambda: r.uniform([2], dtype=tf.int32), ValueError, "Must specify maxval for integer"),
    (lambda: r.uniform([2], dtype=tf.int8), ValueError,
     r"Argument `dtype` got invalid value <dtype: 'int8'>. Accepted dtypes are \(tf.float16"),
    (lambda: r.uniform([2], 5, 5, tf.int32), InvalidArgumentError,
     r"Need minval < maxval, got 5 >= 5 \[Op:RandomUniformInt\]"),
    (lambda: r.uniform([-1]), InvalidArgumentError, "Dimension -1 must be >= 0"),
    (lambda: r.uniform(3), InvalidArgumentError, r"shape must be a vector of \{int32,int64\}"),
    (lambda: r.uniform([2.0]), InvalidArgumentError, "'T' of float is not in the list"),
    (lambda: r.uniform([3], minval=[0, 1, 2], maxval=5, dtype=tf.int32), InvalidArgumentError,
     r"minval must be 0-D, got shape \[3\]"),
    (lambda: r.normal([2], dtype=tf.int32), TypeError, "Cannot convert 0.0"),
    (lambda: r.normal([2], dtype=tf.complex64), InvalidArgumentError,
     r"'dtype' of complex64 is not in the list.*\[Op:RandomStandardNormal\]"),
    (lambda: r.poisson([2], [1.0], dtype=tf.int8), InvalidArgumentError,
     "'dtype' of int8 is not in the list of allowed values: half, float, double, int32, int64"),
    (lambda: r.gamma([2], 1.0, dtype=tf.int32), TypeError, "Cannot convert 1.0"),
])
def test_argument_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_truncated_normal_stays_within_two_stddevs():
    x = r.truncated_normal([20000], mean=5.0, stddev=0.5, dtype=tf.float64).numpy()
    assert x.min() >= 4.0 and x.max() <= 6.0 and x.dtype == np.float64


def test_normal_broadcasts_mean_and_stddev():
    x = r.normal([3, 2], mean=[1.0, -1.0], stddev=[0.0, 0.0]).numpy()
    np.testing.assert_array_equal(x, [[1.0, -1.0]] * 3)


def test_categorical_never_draws_impossible_classes():
    x = r.categorical([[-np.inf, 0.0, -np.inf], [0.0, 0.0, -np.inf]], 500).numpy()
    assert x.dtype == np.int64 and (x[0] == 1).all() and set(x[1].tolist()) == {0, 1}
    assert r.categorical([[0.0, 0.0]], 0).shape == (1, 0)


@pytest.mark.parametrize("logits,samples,message", [
    ([0.0, 0.0], 3, r"logits should be a matrix, got shape \[2\]"),
    (np.zeros((1, 0), np.float32), 3, "num_classes should be positive, got 0"),
    ([[0.0, 0.0]], -1, "num_samples should be non-negative, got -1"),
])
def test_categorical_errors(logits, samples, message):
    with pytest.raises(InvalidArgumentError, match=message + r" \[Op:Multinomial\]"):
        r.categorical(logits, samples)


def test_categorical_dtype_argument():
    assert r.categorical([[0.0, 1.0]], 2, dtype=tf.int32).dtype == tf.int32
    with pytest.raises(ValueError, match=r"Accepted dtypes are \(tf.int32, tf.int64\)"):
        r.categorical([[0.0, 1.0]], 2, dtype=tf.int16)


def test_shuffle_permutes_the_first_dimension_only():
    x = np.arange(40).reshape(20, 2)
    out = r.shuffle(x).numpy()
    np.testing.assert_array_equal(np.sort(out[:, 0]), x[:, 0])
    np.testing.assert_array_equal(out[:, 1] - out[:, 0], 1)
    assert r.shuffle(3).numpy() == 3
    assert r.shuffle(np.zeros((0, 2), np.float32)).shape == (0, 2)
    assert sorted(r.shuffle([b"a", b"b"]).numpy().tolist()) == [b"a", b"b"]


def test_poisson_and_gamma_edges():
    assert (r.poisson([5], [-1.0, 0.0]).numpy() == 0).all()  # non-positive rates give 0
    assert r.poisson([2], [1, 5]).dtype == tf.float32
    g = r.gamma([4], [0.0, -1.0]).numpy()
    assert (g[:, 0] == np.finfo(np.float32).tiny).all() and np.isnan(g[:, 1]).all()
    assert r.gamma([2], [[1.0], [5.0]], beta=[1.0, 2.0, 3.0]).shape == (2, 2, 3)


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
    return r.uniform([3]), r.normal([3])


def _runs(f, n=2):
    return [[t.numpy() for t in f()] for _ in range(n)]


def _all_same(runs_a, runs_b):
    return all(_same(a, b) for ra, rb in zip(runs_a, runs_b) for a, b in zip(ra, rb))


def test_a_function_draws_new_values_at_each_call():
    f = tf.function(_pair)
    first, second = _runs(f)
    assert not _same(first[0], second[0]) and not _same(first[1], second[1])


def test_global_seed_set_before_tracing_makes_the_calls_reproducible():
    r.set_seed(1)
    f = tf.function(_pair)
    runs = _runs(f, 3)
    assert not _same(runs[0][0], runs[1][0])
    r.set_seed(1)  # restarts the sequence of the function already traced
    assert _all_same(_runs(f, 3), runs)
    assert f.experimental_get_tracing_count() == 1


def test_functions_of_the_same_code_draw_the_same_sequence():
    r.set_seed(7)
    f, g = tf.function(_pair), tf.function(_pair)
    assert _all_same(_runs(f), _runs(g))


def test_graph_ops_with_one_op_seed_each_keep_their_own_stream():
    f = tf.function(lambda: (r.uniform([2], seed=3), r.uniform([2], seed=3)))
    (a1, b1), (a2, b2) = _runs(f)
    assert _same(a1, b1) and _same(a2, b2)  # two ops, two states, from the same pair
    assert not _same(a1, a2)
    g = tf.function(lambda: (r.uniform([2], seed=3), r.uniform([2], seed=3)))
    assert _same(g()[0], a1)  # an op seed alone is reproducible too


def test_unseeded_graph_ops_stay_nondeterministic_under_set_seed():
    f = tf.function(lambda: r.uniform([4]))
    f()
    r.set_seed(1)
    a = f().numpy()
    r.set_seed(1)
    assert not _same(a, f())


def test_a_generator_used_in_a_function_advances_its_state_at_each_run():
    g = r.Generator.from_seed(5)
    f = tf.function(lambda: g.normal([2]))
    drawn = [f().numpy(), f().numpy(), g.normal([2]).numpy()]
    fresh = r.Generator.from_seed(5)
    assert all(_same(d, fresh.normal([2])) for d in drawn)


def test_stateless_ops_in_a_function_repeat_their_values():
    f = tf.function(lambda: r.stateless_normal([3], seed=[4, 2]))
    assert _same(f(), f())
    assert _same(f(), r.stateless_normal([3], seed=[4, 2]))

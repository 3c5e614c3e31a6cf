"""Rules of the transformations, checked on many sizes: values against plain Python, and the
static cardinality against the number of elements iterated."""
from hypothesis import given, settings, strategies as st
import numpy as np

import eagerflow as tf

sizes = st.integers(0, 40)
counts = st.integers(-1, 45)


def ints(ds):
    return [np.asarray(x).tolist() for x in ds]


def check_cardinality(ds):
    n = int(ds.cardinality())
    got = ints(ds)
    if n >= 0:
        assert n == len(got)
    return got


@settings(max_examples=60, deadline=None)
@given(sizes, st.integers(1, 12), st.booleans())
def test_batch_is_chunking(n, size, drop):
    got = check_cardinality(tf.data.Dataset.range(n).batch(size, drop_remainder=drop))
    want = [list(range(i, min(i + size, n))) for i in range(0, n, size)]
    if drop:
        want = [b for b in want if len(b) == size]
    assert got == want
    # the slicing path of array sources gives the same batches as stacking elements
    slices = tf.data.Dataset.from_tensor_slices(np.arange(n, dtype=np.int64))
    assert ints(slices.batch(size, drop_remainder=drop)) == want
    assert ints(slices.map(lambda x: x).batch(size, drop_remainder=drop)) == want


@settings(max_examples=60, deadline=None)
@given(sizes, st.integers(1, 12))
def test_unbatch_undoes_batch(n, size):
    ds = tf.data.Dataset.range(n).batch(size, drop_remainder=True).unbatch()
    assert check_cardinality(ds) == list(range(n - n % size))
    assert ints(tf.data.Dataset.range(n).batch(size).unbatch()) == list(range(n))


@settings(max_examples=80, deadline=None)
@given(sizes, counts, counts)
def test_take_skip_are_slices(n, a, b):
    ds = tf.data.Dataset.range(n)
    take = list(range(n)) if a == -1 else list(range(n))[:a]
    skip = [] if b == -1 else list(range(n))[b:]
    assert check_cardinality(ds.take(a)) == take
    assert check_cardinality(ds.skip(b)) == skip
    assert check_cardinality(ds.skip(max(b, 0)).take(a)) == (
        list(range(n))[max(b, 0):] if a == -1 else list(range(n))[max(b, 0):][:a])


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10), st.integers(0, 4))
def test_repeat_and_infinite_cardinality(n, times):
    ds = tf.data.Dataset.range(n)
    assert check_cardinality(ds.repeat(times)) == list(range(n)) * times
    forever = ds.repeat()
    assert int(forever.cardinality()) == (0 if n == 0 else tf.data.INFINITE_CARDINALITY)
    if n:
        assert ints(forever.take(3 * n)) == list(range(n)) * 3
        assert int(forever.take(7).cardinality()) == 7


@settings(max_examples=60, deadline=None)
@given(sizes, st.integers(1, 6), st.integers(1, 6), st.integers(1, 3), st.booleans())
def test_window_matches_python(n, size, shift, stride, drop):
    ds = tf.data.Dataset.range(n).window(size, shift, stride, drop_remainder=drop)
    got = [ints(w) for w in ds]
    want = []
    for start in range(0, n, shift):
        w = list(range(start, n, stride))[:size]
        if drop and len(w) < size:
            break
        want.append(w)
    assert got == want
    assert int(ds.cardinality()) == len(want)


@settings(max_examples=60, deadline=None)
@given(sizes, st.integers(1, 5), st.integers(0, 4))
def test_shard_and_cardinality(n, shards, index):
    index = index % shards
    assert check_cardinality(tf.data.Dataset.range(n).shard(shards, index)) == list(
        range(index, n, shards))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(1, 5), min_size=1, max_size=4), st.integers(0, 30),
       st.integers(1, 7), st.booleans())
def test_rebatch_keeps_the_elements(sizes_, n, batch, drop):
    ds = tf.data.Dataset.range(n).batch(batch).rebatch(sizes_, drop_remainder=drop)
    got = ints(ds)
    flat = [x for b in got for x in b]
    want, i, k = [], 0, 0
    while i < n:
        size = sizes_[k % len(sizes_)]
        want.append(list(range(i, min(i + size, n))))
        i, k = i + size, k + 1
    if drop and want and len(want[-1]) < sizes_[(len(want) - 1) % len(sizes_)]:
        want.pop()
    assert got == want
    assert flat == [x for b in want for x in b]


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 30), st.integers(1, 40), st.integers(0, 2**31 - 1))
def test_shuffle_is_a_permutation(n, buffer, seed):
    ds = tf.data.Dataset.range(n).shuffle(buffer, seed=seed)
    got = check_cardinality(ds)
    assert sorted(got) == list(range(n))
    if buffer == 1:
        assert got == list(range(n))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 30), st.integers(1, 40), st.integers(1, 8), st.booleans(),
       st.integers(0, 2**31 - 1))
def test_shuffled_batches_of_arrays_follow_the_element_order(n, buffer, size, drop, seed):
    slices = tf.data.Dataset.from_tensor_slices(
        (np.arange(n, dtype=np.int64), np.arange(n, dtype=np.float32).reshape(n, 1)))
    whole = slices.shuffle(buffer, seed=seed, reshuffle_each_iteration=False)
    def nested(ds):
        return [tf.nest.map_structure(lambda t: t.numpy().tolist(), e) for e in ds]
    by_element = nested(whole.map(lambda a, b: (a, b)).batch(size, drop_remainder=drop))
    assert nested(whole.batch(size, drop_remainder=drop)) == by_element


def _interleave_model(lengths, cycle, block):
    """TF's interleave order, written from its documentation: `cycle` inputs open at once,
    `block` elements from each in turn; an exhausted input's place goes to the next input
    when the cycle comes back to it."""
    inputs = iter([[(i, j) for j in range(n)] for i, n in enumerate(lengths)])
    slots, out, index, done = [None] * cycle, [], 0, False
    while not done or any(s is not None for s in slots):
        if slots[index] is None and not done:
            nxt = next(inputs, None)
            if nxt is None:
                done = True
            else:
                slots[index] = iter(nxt)
        if slots[index] is not None:
            taken = 0
            while taken < block:
                e = next(slots[index], None)
                if e is None:
                    slots[index] = None
                    break
                out.append(e)
                taken += 1
        index = (index + 1) % cycle
    return out


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 5), max_size=7), st.integers(1, 4), st.integers(1, 3),
       st.booleans())
def test_interleave_order(lengths, cycle, block, parallel):
    ds = tf.data.Dataset.from_tensor_slices(np.array(lengths, np.int64)).enumerate().interleave(
        lambda i, n: tf.data.Dataset.range(n).map(lambda j: (i, j)), cycle_length=cycle,
        block_length=block, num_parallel_calls=min(2, cycle) if parallel else None)
    got = [tuple(int(v) for v in e) for e in ds]
    assert got == _interleave_model(lengths, cycle, block)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 4), max_size=9), st.integers(1, 4))
def test_padded_batch_pads_to_the_longest(lengths, size):
    ds = tf.data.Dataset.from_tensor_slices(np.array(lengths, np.int64)).map(
        lambda n: tf.fill([n], n + 1)).padded_batch(size)
    got = [b.numpy().tolist() for b in ds]
    want = []
    for i in range(0, len(lengths), size):
        chunk = lengths[i:i + size]
        width = max(chunk)
        want.append([[n + 1] * n + [0] * (width - n) for n in chunk])
    assert got == want


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(-3, 3), max_size=300), st.integers(1, 8))
def test_parallel_map_and_ignore_errors_match_sequential(items, threads):
    ds = tf.data.Dataset.from_tensor_slices(np.array(items, np.float32)).map(
        lambda x: tf.debugging.check_numerics(1.0 / x, "zero"), num_parallel_calls=threads)
    want = [float(np.float32(1.0) / np.float32(x)) for x in items if x != 0]
    assert [float(x) for x in ds.ignore_errors()] == want
    if 0 not in items:
        assert [float(x) for x in ds] == want


@settings(max_examples=60, deadline=None)
@given(st.integers(-20, 20), st.integers(-20, 20), st.integers(-5, 5).filter(bool),
       st.integers(1, 6), st.booleans())
def test_range_and_its_batches_match_python(start, stop, step, size, drop):
    ds = tf.data.Dataset.range(start, stop, step)
    want = list(range(start, stop, step))
    assert check_cardinality(ds) == want
    chunks = [want[i:i + size] for i in range(0, len(want), size)]
    if drop:
        chunks = [c for c in chunks if len(c) == size]
    assert ints(ds.batch(size, drop_remainder=drop)) == chunks

"""Batching token sequences as text pipelines do: ragged batches of ragged elements and
buckets padded to their boundaries, as TF gives them."""
import pytest

import eagerflow as tf


def test_ragged_batch_of_ragged_elements_keeps_their_row_splits_dtype():
    # (row_splits_dtype applies to the dense elements it makes ragged)
    rows = tf.data.Dataset.from_tensor_slices(tf.ragged.constant([[[1], [2, 3]], [[4]], []]))
    batches = rows.ragged_batch(2, row_splits_dtype=tf.int32)
    assert batches.element_spec == tf.RaggedTensorSpec([None, None, None], tf.int32, 2,
                                                       tf.int64)
    first = next(iter(batches))
    assert first.to_list() == [[[1], [2, 3]], [[4]]]
    assert first.row_splits.dtype == tf.int64
    mixed = tf.data.Dataset.zip((rows, tf.data.Dataset.range(3).map(tf.range)))
    ragged, made = next(iter(mixed.ragged_batch(2, row_splits_dtype=tf.int32)))
    assert ragged.row_splits.dtype == tf.int64 and made.row_splits.dtype == tf.int32
    assert made.to_list() == [[], [0]]


def test_bucket_past_the_last_boundary_is_an_internal_error():
    # TF's assertion fails inside the function batching each window: the iterator raises
    # it as an InternalError
    lengths = tf.data.Dataset.range(1, 6).map(tf.range).filter(lambda t: tf.size(t) != 2)
    buckets = lengths.bucket_by_sequence_length(lambda t: tf.shape(t)[0], [3], [2, 2],
                                                pad_to_bucket_boundary=True)
    with pytest.raises(tf.errors.InternalError,
                       match="elements must have length < max\\(bucket_boundaries\\)"):
        list(buckets)


def test_an_unread_iterator_draws_its_shuffle_order_and_fills_no_cache():
    # Keras's fit makes an iterator it never reads before each epoch makes its own: as in
    # TF, that one draws the first order of a shuffle before a cache (when it is made) and
    # the epoch the second, which the cache keeps
    tf.random.set_seed(42)
    try:
        ds = tf.data.Dataset.range(20).shuffle(10, seed=1).batch(4).cache().prefetch(
            tf.data.AUTOTUNE)
        unread = iter(ds)
        epoch = [b.numpy().tolist() for b in iter(ds)]
        del unread
        assert epoch[0] == [8, 5, 10, 9]
        assert [b.numpy().tolist() for b in ds] == epoch
        # a prefetching iterator read once leaves the cache unfilled: each draws an order
        tf.random.set_seed(42)
        cached = tf.data.Dataset.range(20).shuffle(10, seed=1).cache()
        assert [int(next(iter(cached.prefetch(2)))) for _ in range(3)] == [1, 8, 6]
    finally:
        tf.random.set_seed(None)

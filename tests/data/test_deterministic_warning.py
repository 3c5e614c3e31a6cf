"""`deterministic` without `num_parallel_calls` has no effect: TensorFlow warns of it."""
import warnings

import pytest

import eagerflow as tf

_MESSAGE = ("The `deterministic` argument has no effect unless the `num_parallel_calls` "
            "argument is specified.")


@pytest.mark.parametrize("make", [
    lambda ds: ds.map(lambda x: x + 1, deterministic=False),
    lambda ds: ds.map(lambda x: x + 1, deterministic=True),
    lambda ds: ds.batch(2, deterministic=False),
    lambda ds: ds.interleave(lambda x: tf.data.Dataset.from_tensors(x), deterministic=False),
])
def test_deterministic_alone_warns(make):
    with pytest.warns(UserWarning) as record:
        ds = make(tf.data.Dataset.range(3))
    assert [str(w.message) for w in record] == [_MESSAGE]
    assert len(list(ds)) >= 2


@pytest.mark.parametrize("make", [
    lambda ds: ds.map(lambda x: x + 1),
    lambda ds: ds.map(lambda x: x + 1, num_parallel_calls=2, deterministic=False),
    lambda ds: ds.batch(2, num_parallel_calls=2, deterministic=True),
])
def test_no_warning_otherwise(make):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        make(tf.data.Dataset.range(3))

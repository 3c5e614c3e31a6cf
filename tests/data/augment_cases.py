"""Image augmentation pipelines with seeded random ops in their map functions, written once
for TensorFlow and eagerflow: ``CASES[name](tf)`` runs one and returns its output arrays.

`record_augment.py` stores TensorFlow's into ``augment_tf.npz``; the tests compare.
The maps run on sources over arrays (whose elements eagerflow maps a chunk at once),
with sizes that leave partial chunks and batches.
"""
import numpy as np

_RNG = np.random.default_rng(3)
IMAGES = _RNG.integers(0, 256, (75, 12, 10, 3)).astype(np.uint8)
SEEDS = _RNG.integers(-2**40, 2**40, (75, 2)).astype(np.int64)

CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


def _arrays(ds):
    """Every element's arrays, component by component, stacked."""
    rows = [tuple(np.asarray(t) for t in (e if isinstance(e, tuple) else (e,))) for e in ds]
    return tuple(np.stack(column) for column in zip(*rows))


@case
def crop_flip_normalize(tf):
    tf.random.set_seed(5)

    def aug(im):
        im = tf.image.random_crop(im, (8, 7, 3))
        im = tf.image.random_flip_left_right(im)
        im = tf.image.random_flip_up_down(im)
        return tf.cast(im, tf.float32) / 255.0 - 0.5
    # (TF's parallel map draws in the order its threads run: not repeatable)
    ds = tf.data.Dataset.from_tensor_slices(IMAGES).map(aug).batch(16)
    return _arrays(ds.unbatch())


@case
def draws_by_element(tf):
    tf.random.set_seed(11)

    def draws(im):
        return (tf.random.uniform([2, 3]), tf.random.normal([5], dtype=tf.float64),
                tf.random.uniform([], -7, 40, tf.int64), tf.random.uniform([3], 0, 9, tf.int32),
                tf.random.uniform([2], seed=9), tf.random.truncated_normal([3]),
                tf.image.random_brightness(tf.cast(im, tf.float32), 20.0)[0, 0])
    return _arrays(tf.data.Dataset.from_tensor_slices(IMAGES).map(draws))


@case
def stateless_by_seed(tf):
    def aug(im, seed):
        im = tf.image.stateless_random_crop(im, (9, 9, 3), seed)
        im = tf.image.stateless_random_flip_left_right(im, seed + 1)
        im = tf.image.stateless_random_brightness(tf.cast(im, tf.float32), 30.0, seed + 2)
        return im, tf.random.stateless_normal([4], seed), tf.random.stateless_uniform(
            [2], seed, 0, 100, tf.int64)
    ds = tf.data.Dataset.from_tensor_slices((IMAGES, SEEDS)).map(aug).batch(10)
    return _arrays(ds.unbatch())


@case
def generator_seeds(tf):
    rng = tf.random.Generator.from_seed(123)

    def aug(im):
        seed = rng.make_seeds(2)[0]
        im = tf.image.stateless_random_crop(im, (6, 6, 3), seed)
        return tf.image.stateless_random_flip_up_down(im, seed), seed
    return _arrays(tf.data.Dataset.from_tensor_slices(IMAGES).map(aug).batch(32,
                                                                                drop_remainder=True))


@case
def map_then_take(tf):
    tf.random.set_seed(2)
    ds = tf.data.Dataset.range(50).map(lambda x: x + tf.random.uniform([], 0, 1000, tf.int64))
    return _arrays(ds.take(7)) + _arrays(ds.skip(3).take(4)) + _arrays(ds.batch(6).take(2))

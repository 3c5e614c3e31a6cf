"""Image ops on images whose rank only run time knows (a function traced for any shape):
3-D images and batches both work, and an image of fewer than 3 dims fails TF's assertion."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow import errors

_X3 = np.arange(2 * 3 * 2, dtype=np.float32).reshape(2, 3, 2)
_X4 = np.arange(2 * 2 * 3 * 1, dtype=np.float32).reshape(2, 2, 3, 1)
_ANY = [tf.TensorSpec(None, tf.float32)]

_DETERMINISTIC = {
    "flip_left_right": tf.image.flip_left_right, "flip_up_down": tf.image.flip_up_down,
    "rot90": tf.image.rot90, "rot90-k3": lambda x: tf.image.rot90(x, k=3),
    "rot90-k-tensor": lambda x: tf.image.rot90(x, k=tf.constant(2)),
    "transpose": tf.image.transpose,
    "stateless_random_flip_left_right":
        lambda x: tf.image.stateless_random_flip_left_right(x, seed=[1, 2]),
    "stateless_random_flip_up_down":
        lambda x: tf.image.stateless_random_flip_up_down(x, seed=[3, 2]),
}


@pytest.mark.parametrize("name", sorted(_DETERMINISTIC))
def test_any_rank_gives_what_the_known_rank_gives(name):
    fn = _DETERMINISTIC[name]
    traced = tf.function(fn, input_signature=_ANY)
    assert traced.get_concrete_function().outputs[0].shape.rank is None
    for x in (_X3, _X4):
        np.testing.assert_array_equal(traced(x).numpy(), fn(tf.constant(x)).numpy())


# TF's values (tf.random.set_seed(1); one traced function run on _X3, then on _X4)
_SEEDED = {
    "random_flip_left_right": (tf.image.random_flip_left_right, [
        [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0],
        [2.0, 1.0, 0.0, 5.0, 4.0, 3.0, 8.0, 7.0, 6.0, 11.0, 10.0, 9.0]]),
    "random_flip_up_down": (tf.image.random_flip_up_down, [
        [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0],
        [3.0, 4.0, 5.0, 0.0, 1.0, 2.0, 9.0, 10.0, 11.0, 6.0, 7.0, 8.0]]),
}


@pytest.mark.parametrize("name", sorted(_SEEDED))
def test_seeded_random_flips_of_any_rank_draw_tfs_values(name):
    fn, want = _SEEDED[name]
    tf.random.set_seed(1)
    traced = tf.function(lambda x: fn(x, seed=3), input_signature=_ANY)
    assert [traced(x).numpy().ravel().tolist() for x in (_X3, _X4)] == want


@pytest.mark.parametrize("name", sorted(_DETERMINISTIC) + sorted(_SEEDED))
def test_fewer_than_three_dims_fail_tfs_assertion(name):
    fn = _DETERMINISTIC.get(name) or (lambda x: _SEEDED[name][0](x, seed=3))
    traced = tf.function(fn, input_signature=_ANY)
    with pytest.raises(errors.InvalidArgumentError,
                       match=r"\[\\'image\\' must be at least three-dimensional\.\]"):
        traced(np.zeros((2, 2), np.float32))


def test_random_flips_of_any_rank_in_a_map():
    # a dataset of images of unknown rank (a generator's) flipped as known-rank images are
    ds = tf.data.Dataset.from_generator(lambda: iter([_X3, _X3 + 1]),
                                        output_signature=tf.TensorSpec(None, tf.float32))
    got = [x.numpy() for x in ds.map(lambda x: tf.image.stateless_random_flip_up_down(
        x, seed=[5, 5]))]
    want = [tf.image.stateless_random_flip_up_down(x, seed=[5, 5]).numpy()
            for x in (_X3, _X3 + 1)]
    np.testing.assert_array_equal(np.stack(got), np.stack(want))


def test_grayscale_and_crops_of_unknown_rank():
    image = np.random.RandomState(0).rand(4, 5, 3).astype(np.float32)
    gray = tf.function(tf.image.rgb_to_grayscale, input_signature=_ANY)
    assert gray.get_concrete_function().outputs[0].shape.rank is None
    np.testing.assert_array_equal(gray(image).numpy(), tf.image.rgb_to_grayscale(image).numpy())
    crop = tf.function(lambda x: tf.image.stateless_random_crop(x, [2, 3, 3], seed=(1, 2)),
                       input_signature=_ANY)
    assert crop.get_concrete_function().outputs[0].shape == (2, 3, 3)
    np.testing.assert_array_equal(
        crop(image).numpy(), tf.image.stateless_random_crop(image, [2, 3, 3], (1, 2)).numpy())
    random_crop = tf.function(lambda x: tf.image.random_crop(x, [2, 3, 3]), input_signature=_ANY)
    assert random_crop(image).shape == (2, 3, 3)


def test_yuv_of_unknown_rank_is_tfs_type_error():
    with pytest.raises(TypeError, match="unsupported operand type"):
        tf.function(tf.image.rgb_to_yuv, input_signature=_ANY).get_concrete_function()


def test_grayscale_to_rgb_of_unknown_dims_has_three_channels():
    # TF 2.21 sets the static shape: [None, None, 3] for [None, None, None] images
    traced = tf.function(tf.image.grayscale_to_rgb,
                         input_signature=[tf.TensorSpec([None, None, None], tf.float32)])
    assert traced.get_concrete_function().outputs[0].shape.as_list() == [None, None, 3]
    assert traced(_X4[0]).numpy().shape == (2, 3, 3)

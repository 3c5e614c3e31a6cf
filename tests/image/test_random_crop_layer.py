"""keras.layers.RandomCrop: seeded windows when training, a centered resize otherwise.

Expected values are TF 2.21 + tf_keras 2.21's observed outputs.
"""
import eagerflow as tf

IMG = tf.reshape(tf.range(96, dtype=tf.float32), [2, 6, 8, 1])


def corners(t):
    return t.numpy()[:, 0, 0, 0].tolist()


def test_seeded_windows_then_inference_resize():
    layer = tf.keras.layers.RandomCrop(3, 4, seed=7)
    assert [corners(layer(IMG, training=True)) for _ in range(3)] == [
        [16.0, 64.0], [28.0, 76.0], [26.0, 74.0]]
    assert corners(layer(IMG, training=False)) == [4.5, 52.5]  # smart resize
    assert tf.keras.layers.RandomCrop(8, 10, seed=1)(IMG, training=True).shape == (2, 8, 10, 1)
    assert layer.get_config()["rng_type"] == "stateful"


def test_sequential_and_dataset_map():
    model = tf.keras.Sequential([tf.keras.layers.RandomCrop(2, 2, seed=5)])
    assert model(IMG).numpy()[..., 0].tolist() == [[[2.0, 3.0], [10.0, 11.0]],
                                                   [[50.0, 51.0], [58.0, 59.0]]]
    layer = tf.keras.layers.RandomCrop(3, 4, seed=7)
    ds = tf.data.Dataset.from_tensor_slices(IMG).map(lambda x: layer(x, training=True))
    assert [float(e[0, 0, 0]) for e in ds] == [16.0, 76.0]

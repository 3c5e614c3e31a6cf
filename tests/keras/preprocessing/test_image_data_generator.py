"""keras.preprocessing.image.ImageDataGenerator and its iterators; the expected values were
observed with tf_keras 2.21 (NumPy's global RandomState seeded the same way)."""
import os

import numpy as np
import pytest

import eagerflow as tf

I = tf.keras.preprocessing.image
PIL = pytest.importorskip("PIL.Image")
pytest.importorskip("scipy.ndimage")


def _images():
    rs = np.random.RandomState(0)
    return rs, rs.randint(0, 256, (5, 4, 6, 3)).astype("float32")


def test_flow_is_a_sequence_with_seeded_flips_shift_and_brightness():
    _, x = _images()
    y = np.array([0, 1, 0, 1, 2])
    g = I.ImageDataGenerator(rescale=1 / 255., horizontal_flip=True, vertical_flip=True,
                             channel_shift_range=5, brightness_range=(0.5, 1.5))
    it = g.flow(x, y, batch_size=2, seed=3)
    assert isinstance(it, I.NumpyArrayIterator)
    assert isinstance(it, tf.keras.utils.Sequence)
    assert (len(it), it.n, it.batch_size) == (3, 5, 2)
    bx, by = it[0]
    assert bx.shape == (2, 4, 6, 3) and bx.dtype == np.float32
    assert by.tolist() == [1, 2]
    assert round(float(bx.sum()), 3) == 79.361
    bx, by = it.next()
    assert by.tolist() == [0, 1]
    assert round(float(bx.sum()), 3) == 66.624
    assert g.random_transform(x[0], seed=1).sum() == 7235.0
    with pytest.raises(ValueError, match="Asked to retrieve element 3, but the Sequence has "
                                         "length 3"):
        it[3]


def test_get_random_transform_draws_like_keras():
    g = I.ImageDataGenerator(rotation_range=30, width_shift_range=0.2, height_shift_range=2,
                             zoom_range=0.1, shear_range=10, channel_shift_range=5,
                             brightness_range=(0.5, 1.5), horizontal_flip=True)
    p = g.get_random_transform((4, 6, 3), seed=5)
    got = {k: round(float(v), 4) for k, v in p.items()}
    assert got == {"theta": -16.6804, "tx": 1.0, "ty": -0.7039, "shear": 8.3722, "zx": 0.9977,
                   "zy": 1.0223, "flip_horizontal": 0.0, "flip_vertical": 0.0,
                   "channel_shift_intensity": -2.032, "brightness": 0.6877}


def test_apply_affine_transform_values():
    x = np.arange(60, dtype="float32").reshape(4, 5, 3)
    out = I.apply_affine_transform(x, theta=30, tx=1, ty=-1, shear=10, zx=0.9, zy=1.1,
                                   row_axis=0, col_axis=1, channel_axis=2, fill_mode="constant",
                                   cval=7)
    np.testing.assert_allclose(out[:2, :, 0], [
        [7.0, 7.0, 7.0, 7.0, 7.0],
        [8.956758499145508, 18.045026779174805, 27.1332950592041, 7.0, 7.0]], rtol=1e-6)
    out = I.apply_affine_transform(x.transpose(2, 0, 1), theta=45, fill_mode="wrap")
    np.testing.assert_allclose(out[1, 0], [44.43755340576172, 12.165475845336914,
                                           24.89339828491211, 37.62131881713867,
                                           38.3492431640625], rtol=1e-6)


def test_seeded_affine_flow_and_channels_first():
    x = np.arange(60, dtype="float32").reshape(4, 5, 3)
    g = I.ImageDataGenerator(rotation_range=30, width_shift_range=[1, 2],
                             height_shift_range=0.3, zoom_range=[0.8, 1.2], shear_range=10,
                             fill_mode="reflect", horizontal_flip=True)
    it = g.flow(np.stack([x, x + 1, x * 2]), batch_size=2, seed=11)
    np.testing.assert_allclose(np.round(it[0], 4).ravel()[:6],
                               [24.908, 25.908, 26.908, 15.1038, 16.1038, 17.1038], rtol=1e-6)
    np.testing.assert_allclose(np.round(it.next(), 4).ravel()[-4:],
                               [21.632, 19.277, 20.277, 21.277], atol=1e-3)
    gc = I.ImageDataGenerator(rotation_range=20, data_format="channels_first")
    out = gc.random_transform(x.transpose(2, 0, 1), seed=2)
    np.testing.assert_allclose(out[2, 0], [3.035, 5.0984, 7.7305, 10.7275, 13.7245], atol=1e-4)


def test_fit_featurewise_and_standardize():
    _, x = _images()
    y = np.array([0, 1, 0, 1, 2])
    with pytest.warns(UserWarning, match="overrides setting of `featurewise_center`"):
        g = I.ImageDataGenerator(featurewise_std_normalization=True, samplewise_center=True)
    g.fit(x)
    np.testing.assert_allclose(g.mean.ravel(), [120.775, 121.9333, 123.75], atol=1e-4)
    np.testing.assert_allclose(g.std.ravel(), [73.1595, 72.3863, 73.0643], atol=1e-4)
    assert g.mean.shape == (1, 1, 3)
    it = g.flow(x, y, batch_size=3, shuffle=False)
    assert it[0][1].tolist() == [0, 1, 0] and it[1][1].tolist() == [1, 2]
    np.testing.assert_allclose(it[1][0][0, 0, 0], [-1.0263, -2.6143, -0.3019], atol=1e-4)
    # rescale is applied in place, then nothing else is configured
    z = np.full((2, 2, 1), 4.0, "float32")
    assert I.ImageDataGenerator(rescale=0.5).standardize(z) is z and z.max() == 2.0
    with pytest.warns(UserWarning, match="hasn't been fit"):
        I.ImageDataGenerator(featurewise_center=True).standardize(np.ones((2, 2, 1)))


def test_flip_parameters_and_errors():
    x = np.arange(12, dtype="float32").reshape(2, 2, 3)
    g = I.ImageDataGenerator()
    out = g.apply_transform(x, {"flip_horizontal": True, "flip_vertical": True})
    np.testing.assert_array_equal(out, x[::-1, ::-1])
    with pytest.raises(ValueError, match="`validation_split` must be strictly between 0 and 1"):
        I.ImageDataGenerator(validation_split=1.5)
    with pytest.raises(ValueError, match="`zoom_range` should be a float"):
        I.ImageDataGenerator(zoom_range=(1, 2, 3))
    with pytest.raises(ValueError, match="should have the same length"):
        g.flow(np.ones((3, 2, 2, 1)), np.ones(2))
    with pytest.raises(ValueError, match="different number of classes"):
        I.ImageDataGenerator(validation_split=0.5).flow(
            np.ones((4, 2, 2, 1)), np.array([0, 0, 1, 1]), subset="training")


@pytest.fixture
def image_dir(tmp_path):
    rs, _ = _images()
    for name, count in [("cat", 3), ("dog", 2), ("ant", 1)]:
        os.makedirs(tmp_path / name)
        for i in range(count):
            PIL.fromarray(rs.randint(0, 256, (5, 7, 3)).astype("uint8")).save(
                tmp_path / name / f"im{i}.png")
    (tmp_path / "cat" / "readme.txt").write_text("not an image")
    return str(tmp_path)


def test_flow_from_directory(image_dir, capsys):
    g = I.ImageDataGenerator(rescale=0.5, validation_split=0.5)
    it = g.flow_from_directory(image_dir, target_size=(4, 4), batch_size=4, shuffle=False)
    assert capsys.readouterr().out == "Found 6 images belonging to 3 classes.\n"
    assert isinstance(it, I.DirectoryIterator)
    assert it.class_indices == {"ant": 0, "cat": 1, "dog": 2}
    assert it.classes.tolist() == [0, 1, 1, 1, 2, 2] and it.classes.dtype == np.int32
    assert it.filenames == [os.path.join(*p.split("/")) for p in [
        "ant/im0.png", "cat/im0.png", "cat/im1.png", "cat/im2.png", "dog/im0.png",
        "dog/im1.png"]]
    assert (it.samples, len(it)) == (6, 2)
    bx, by = it[0]
    assert bx.shape == (4, 4, 4, 3) and bx.dtype == np.float32 and bx.sum() == 11486.5
    np.testing.assert_array_equal(by, [[1, 0, 0], [0, 1, 0], [0, 1, 0], [0, 1, 0]])


@pytest.mark.parametrize("subset,count,files,labels", [
    ("training", 4, ["ant/im0.png", "cat/im1.png", "cat/im2.png", "dog/im1.png"], [2.0, 1.0]),
    ("validation", 2, ["cat/im0.png", "dog/im0.png"], [1.0, 2.0])])
def test_flow_from_directory_subsets(image_dir, capsys, subset, count, files, labels):
    it = I.ImageDataGenerator(validation_split=0.5).flow_from_directory(
        image_dir, target_size=(4, 4), subset=subset, class_mode="sparse",
        color_mode="grayscale", shuffle=True, seed=1, batch_size=2)
    assert capsys.readouterr().out == f"Found {count} images belonging to 3 classes.\n"
    assert it.filenames == [os.path.join(*f.split("/")) for f in files]
    bx, by = it[0]
    assert bx.shape == (2, 4, 4, 1) and by.tolist() == labels


def test_model_fit_on_generator():
    _, x = _images()
    model = tf.keras.Sequential([tf.keras.layers.Flatten(input_shape=(4, 6, 3)),
                                 tf.keras.layers.Dense(3, activation="softmax")])
    model.compile("sgd", "sparse_categorical_crossentropy")
    flow = I.ImageDataGenerator(rescale=1 / 255.).flow(x, np.array([0, 1, 0, 1, 2]),
                                                       batch_size=2)
    history = model.fit(flow, epochs=2, verbose=0)
    assert len(history.history["loss"]) == 2

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


def test_random_helpers_draw_like_keras():
    x = np.random.RandomState(0).randint(0, 256, (6, 3, 4, 1)).astype("float32")
    axes = dict(row_axis=0, col_axis=1, channel_axis=2)
    np.random.seed(4)
    expected = [
        (I.random_rotation(x[0], 40, **axes), [55.083, 138.206, 133.525, 175.487]),
        (I.random_shift(x[0], 0.3, 0.3, **axes), [75.051, 239.33, 167.363, 121.688]),
        (I.random_shear(x[0], 20, **axes), [143.384, 65.647, 134.492, 190.502]),
        (I.random_zoom(x[0], (0.7, 1.3), **axes), [145.17, 99.126, 140.766, 169.259]),
        (I.random_channel_shift(x[0], 30, channel_axis=2), [200.576, 75.576, 145.576, 220.576]),
        (I.random_brightness(x[0], (0.5, 1.5)), [86.0, 20.0, 57.0, 97.0]),
    ]
    for got, want in expected:
        np.testing.assert_allclose(got.ravel()[:4], want, atol=1e-3)
    with pytest.raises(ValueError, match="`zoom_range` should be a tuple or list of two floats"):
        I.random_zoom(x[0], (1,))


def test_zca_whitening():
    x = np.random.RandomState(0).randint(0, 256, (6, 3, 4, 1)).astype("float32")
    with pytest.warns(UserWarning, match="`zca_whitening`, which overrides"):
        g = I.ImageDataGenerator(zca_whitening=True)
    g.fit(x)
    np.testing.assert_allclose(g.zca_whitening_matrix[:2, :4],
                               [[0.008, 0.0015, 0.0035, 0.0015],
                                [0.0015, 0.0078, -0.0014, 0.0036]], atol=1e-4)
    np.testing.assert_allclose(g.flow(x, shuffle=False, batch_size=4)[1].ravel()[:3],
                               [0.2672, 0.7236, -0.9054], atol=1e-4)


def test_flow_extra_inputs_sample_weight_and_tensor_input():
    x = np.random.RandomState(0).randint(0, 256, (6, 3, 4, 1)).astype("float32")
    it = I.ImageDataGenerator().flow((x, np.arange(6) * 10), np.arange(6),
                                     sample_weight=np.ones(6) / 2, batch_size=4, shuffle=False)
    bx, by, bw = it[1]
    assert isinstance(bx, list) and bx[1].tolist() == [40, 50]
    assert by.tolist() == [4, 5] and bw.tolist() == [0.5, 0.5]
    it = I.ImageDataGenerator().flow(tf.constant(x), batch_size=4, shuffle=True, seed=0)
    assert type(it[0]) is np.ndarray and it[0].shape == (4, 3, 4, 1)
    assert it[1][:, 0, 0, 0].tolist() == [172.0, 142.0]
    # next() runs on endlessly, the last batch of each epoch being short
    assert [it.next().shape[0] for _ in range(3)] == [4, 2, 4]


@pytest.mark.parametrize("mode", ["binary", "input", None])
def test_flow_from_directory_class_modes_nested_rgba_channels_first(tmp_path, capsys, mode):
    rs = np.random.RandomState(1)
    for name, count in [("b", 2), ("a", 3)]:
        os.makedirs(tmp_path / name / "sub")
        for i in range(count):
            PIL.fromarray(rs.randint(0, 256, (5, 7, 4)).astype("uint8")).save(
                tmp_path / name / ("sub" if i else "") / f"{i}.png")
    it = I.ImageDataGenerator(data_format="channels_first").flow_from_directory(
        str(tmp_path), target_size=(3, 5), class_mode=mode, color_mode="rgba",
        classes=["b", "a"], shuffle=False, interpolation="bilinear")
    assert capsys.readouterr().out == "Found 5 images belonging to 2 classes.\n"
    assert it.filenames == [os.path.join(*f.split("/")) for f in [
        "b/0.png", "b/sub/1.png", "a/0.png", "a/sub/1.png", "a/sub/2.png"]]
    batch = it[0]
    if mode is None:
        assert isinstance(batch, np.ndarray) and batch.shape == (5, 4, 3, 5)
    elif mode == "input":
        np.testing.assert_array_equal(batch[0], batch[1])
    else:
        assert batch[1].tolist() == [0.0, 0.0, 1.0, 1.0, 1.0]


def test_flow_from_directory_errors(image_dir):
    g = I.ImageDataGenerator(validation_split=0.2)
    with pytest.raises(ValueError, match="Invalid class_mode: foo; expected one of"):
        g.flow_from_directory(image_dir, class_mode="foo")
    with pytest.raises(ValueError, match="Invalid color mode:"):
        g.flow_from_directory(image_dir, color_mode="rgbx")
    with pytest.raises(ValueError, match='Invalid subset name: test;expected "training"'):
        g.flow_from_directory(image_dir, subset="test")


def test_empty_data_format_is_rejected_not_defaulted():
    with pytest.raises(ValueError, match="Received: $"):
        I.ImageDataGenerator(data_format="")

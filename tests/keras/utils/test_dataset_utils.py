"""Datasets from arrays and directories, compared with tf_keras 2.21's results."""
import os
import struct
import zlib

import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras


def test_timeseries_windows_and_targets():
    ds = keras.utils.timeseries_dataset_from_array(np.arange(10), np.arange(10) * 10,
                                                   sequence_length=3, sequence_stride=2,
                                                   batch_size=2)
    assert [(a.numpy().tolist(), b.numpy().tolist()) for a, b in ds] == [
        ([[0, 1, 2], [2, 3, 4]], [0, 20]), ([[4, 5, 6], [6, 7, 8]], [40, 60])]


def test_timeseries_sampling_rate_and_range():
    data = np.arange(100, dtype="float32").reshape(50, 2)
    ds = keras.utils.timeseries_dataset_from_array(data, np.arange(50), sequence_length=5,
                                                   sequence_stride=3, sampling_rate=2,
                                                   batch_size=4, start_index=3, end_index=40)
    x, y = next(iter(ds))
    assert x.numpy()[0].tolist() == [[6, 7], [10, 11], [14, 15], [18, 19], [22, 23]]
    assert y.numpy().tolist() == [3, 6, 9, 12] and x.dtype == tf.float32
    assert sum(int(a.shape[0]) for a, _ in ds) == 10
    unlabelled = keras.utils.timeseries_dataset_from_array(np.arange(20).reshape(10, 2), None,
                                                           sequence_length=4, sampling_rate=2,
                                                           batch_size=3)
    assert [tuple(a.shape) for a in unlabelled] == [(3, 4, 2), (1, 4, 2)]
    assert unlabelled.element_spec == tf.TensorSpec((None, None, 2), tf.int64)


def test_timeseries_shuffle_keeps_every_window():
    ds = keras.utils.timeseries_dataset_from_array(np.arange(30), None, 4, shuffle=True, seed=3,
                                                   batch_size=None)
    assert sorted(int(w[0]) for w in ds) == list(range(27))


@pytest.mark.parametrize("kwargs, message", [
    (dict(start_index=-1), "`start_index` must be 0 or greater"),
    (dict(sampling_rate=0), "`sampling_rate` must be higher than 0"),
    (dict(sequence_stride=100), "`sequence_stride` must be lower than the length"),
    (dict(end_index=100), "`end_index` must be lower than the length"),
    (dict(start_index=5, end_index=3), "`end_index` must be higher than `start_index`")])
def test_timeseries_argument_errors(kwargs, message):
    with pytest.raises(ValueError, match=message):
        keras.utils.timeseries_dataset_from_array(np.arange(30), None, 4, **kwargs)


@pytest.fixture
def text_dir(tmp_path):
    for c in ["neg", "pos"]:
        (tmp_path / c / "sub").mkdir(parents=True)
        for i in range(5):
            (tmp_path / c / f"{i}.txt").write_text(f"{c} review {i} " * 3)
        (tmp_path / c / "sub" / "x.TXT").write_text("nested")
        (tmp_path / c / "skip.md").write_text("no")
    return tmp_path


def test_text_dataset_labels_from_subdirectories(text_dir, capsys):
    ds = keras.utils.text_dataset_from_directory(text_dir, batch_size=4, shuffle=False,
                                                 max_length=10)
    assert capsys.readouterr().out == "Found 12 files belonging to 2 classes.\n"
    assert ds.class_names == ["neg", "pos"]
    texts, labels = next(iter(ds))
    assert texts.numpy().tolist() == [b"neg review", b"neg review", b"neg review",
                                      b"neg review"]
    assert [int(v) for _, b in ds for v in b] == [0] * 6 + [1] * 6
    assert ds.element_spec == (tf.TensorSpec((None,), tf.string),
                               tf.TensorSpec((None,), tf.int32))
    binary = keras.utils.text_dataset_from_directory(text_dir, label_mode="binary",
                                                     batch_size=20, shuffle=False,
                                                     class_names=["pos", "neg"])
    assert next(iter(binary))[1].numpy().ravel().tolist() == [1.0] * 6 + [0.0] * 6


def test_text_dataset_follows_linked_directories_and_batches_last(text_dir, tmp_path_factory):
    # Keras lists files with tf.io.gfile.walk unless follow_links, which goes into a linked
    # directory all the same; text files are prefetched before batching (images after)
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    (elsewhere / "far.txt").write_text("linked")
    os.symlink(elsewhere, text_dir / "pos" / "link")
    for follow_links in (False, True):
        ds = keras.utils.text_dataset_from_directory(text_dir, batch_size=20, shuffle=False,
                                                     follow_links=follow_links)
        texts, labels = next(iter(ds))
        assert texts.numpy().tolist()[-2:] == [b"linked", b"nested"]
        assert labels.numpy().tolist()[-2:] == [1, 1]
    assert type(ds).__name__ == "_BatchDataset"
    train, val = keras.utils.text_dataset_from_directory(
        text_dir, validation_split=0.5, subset="both", seed=1)
    assert type(train).__name__ == type(val).__name__ == "_BatchDataset"


def test_text_dataset_validation_split_is_disjoint(text_dir):
    train, val = keras.utils.text_dataset_from_directory(text_dir, batch_size=3, seed=7,
                                                         validation_split=0.3, subset="both")
    val_texts = sorted(x for b, _ in val for x in b.numpy().tolist())
    train_texts = sorted(x for b, _ in train for x in b.numpy().tolist())
    assert len(val_texts) == 3 and len(train_texts) == 9
    assert not set(val_texts) & set(train_texts)
    # the file order is NumPy's shuffle with the seed, as in Keras
    assert val_texts == [b"neg review 4 neg review 4 neg review 4 ",
                         b"pos review 0 pos review 0 pos review 0 ",
                         b"pos review 3 pos review 3 pos review 3 "]


@pytest.mark.parametrize("kwargs, message", [
    (dict(labels="x"), "`labels` argument should be a list/tuple"),
    (dict(label_mode="y"), "`label_mode` argument must be one of"),
    (dict(validation_split=1.5, subset="training", seed=1), "must be between 0 and 1"),
    (dict(subset="training"), "If `subset` is set, `validation_split` must be set"),
    (dict(validation_split=0.2, subset="training"), "you must provide a `seed`"),
    (dict(class_names=["a"]), "did not match the names of the subdirectories")])
def test_text_dataset_argument_errors(text_dir, kwargs, message):
    with pytest.raises(ValueError, match=message):
        keras.utils.text_dataset_from_directory(text_dir, **kwargs)


def _png(path, width, height, value):
    rows = b"".join(b"\x00" + bytes([(value + 7 * x + 3 * y) % 256 for x in range(width)
                                     for _ in range(3)]) for y in range(height))

    def chunk(kind, data):
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff))
    path.write_bytes(b"\x89PNG\r\n\x1a\n"
                     + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
                     + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


@pytest.fixture
def image_dir(tmp_path):
    for c in ["cats", "dogs"]:
        (tmp_path / c).mkdir()
        for i in range(5):
            _png(tmp_path / c / f"img{i}.png", 6 + i, 4 + i, 30 * i + (c == "dogs") * 5)
    return tmp_path


def test_image_dataset_split_and_labels(image_dir):
    train, val = keras.utils.image_dataset_from_directory(
        image_dir, image_size=(4, 5), batch_size=2, validation_split=0.4, subset="both",
        seed=11, label_mode="categorical")
    assert [p.split("/")[-2] + "/" + p.split("/")[-1] for p in train.file_paths] == [
        "dogs/img2.png", "dogs/img3.png", "cats/img2.png", "dogs/img1.png", "cats/img4.png",
        "dogs/img0.png"]
    assert [p.split("/")[-1] for p in val.file_paths] == ["img1.png", "img3.png", "img0.png",
                                                          "img4.png"]
    images, labels = next(iter(val))
    assert images.shape == (2, 4, 5, 3) and images.dtype == tf.float32
    assert labels.numpy().tolist() == [[1.0, 0.0], [1.0, 0.0]]
    np.testing.assert_allclose(images.numpy()[0, 0, :, 0],
                               [31.775, 41.575, 51.375, 61.175, 70.975], atol=1e-3)
    assert train.element_spec == (tf.TensorSpec((None, 4, 5, 3), tf.float32),
                                  tf.TensorSpec((None, 2), tf.float32))


def test_image_dataset_crop_to_aspect_ratio(image_dir):
    ds = keras.utils.image_dataset_from_directory(image_dir, image_size=(3, 3), batch_size=10,
                                                  shuffle=False, interpolation="area",
                                                  crop_to_aspect_ratio=True)
    images, _ = next(iter(ds))
    np.testing.assert_allclose(images.numpy()[3, :, :, 1], [
        [104.143, 120.143, 136.143], [111.0, 127.0, 143.0], [117.857, 133.857, 149.857]],
        atol=1e-3)
    nearest = keras.utils.image_dataset_from_directory(image_dir, image_size=(3, 3),
                                                       shuffle=False, interpolation="nearest")
    assert nearest.element_spec[0].dtype == tf.uint8


def test_image_dataset_argument_errors(image_dir):
    with pytest.raises(ValueError, match="`color_mode` must be one of"):
        keras.utils.image_dataset_from_directory(image_dir, color_mode="cmyk")
    with pytest.raises(TypeError, match="Unknown keywords argument"):
        keras.utils.image_dataset_from_directory(image_dir, foo=1)
    with pytest.raises(ValueError, match="there must be exactly 2"):
        keras.utils.image_dataset_from_directory(image_dir / "cats", label_mode="binary")


def test_smart_resize_of_numpy_image_is_numpy():
    image = np.arange(2 * 6 * 1, dtype="float32").reshape(2, 6, 1)
    out = keras.preprocessing.image.smart_resize(image, (2, 2))
    assert isinstance(out, np.ndarray) and out.shape == (2, 2, 1)
    np.testing.assert_allclose(out[..., 0], [[2.0, 3.0], [8.0, 9.0]])


def test_smart_resize_of_unknown_rank_image_in_a_function():
    # An input of unknown rank is taken as one (height, width, channels) image.
    @tf.function(input_signature=[tf.TensorSpec(None)])
    def resize(image):
        return keras.preprocessing.image.smart_resize(image, (2, 2))
    image = np.arange(2 * 6 * 1, dtype="float32").reshape(2, 6, 1)
    out = resize(image)
    assert out.shape == (2, 2, 1)
    np.testing.assert_allclose(out.numpy()[..., 0], [[2.0, 3.0], [8.0, 9.0]])


@pytest.mark.parametrize("make", [tf.keras.utils.image_dataset_from_directory,
                                  tf.keras.utils.text_dataset_from_directory])
def test_missing_directory_raises_not_found(tmp_path, make):
    (tmp_path / "file.txt").write_text("x")
    for missing in (tmp_path / "nope", tmp_path / "file.txt"):
        with pytest.raises(tf.errors.NotFoundError, match="Could not find directory"):
            make(str(missing))


def test_split_dataset_of_arrays_and_datasets():
    # values and orders as tf_keras 2.21 gives them
    left, right = keras.utils.split_dataset(np.arange(10), left_size=0.7)
    assert list(left.as_numpy_iterator()) == list(range(7))
    assert list(right.as_numpy_iterator()) == [7, 8, 9]
    left, right = keras.utils.split_dataset(np.arange(10), left_size=0.25, right_size=0.25)
    assert list(right.as_numpy_iterator()) == [8, 9]  # the right side is taken from the end
    left, right = keras.utils.split_dataset(np.arange(10), left_size=0.5, shuffle=True, seed=1)
    assert list(left.as_numpy_iterator()) == [6, 8, 9, 7, 5]
    x, y = np.arange(10).reshape(5, 2), np.arange(5) * 10
    left, right = keras.utils.split_dataset((x, y), left_size=0.6)
    assert [(a.tolist(), b) for a, b in right.as_numpy_iterator()] == [([6, 7], 30), ([8, 9], 40)]
    batched = tf.data.Dataset.from_tensor_slices((x.astype("float32"), y)).batch(2)
    left, right = keras.utils.split_dataset(batched, right_size=1)
    assert left.element_spec[0].shape.as_list() == [None, 2]
    assert [b.tolist() for _, b in left.as_numpy_iterator()] == [[0, 10], [20, 30]]
    left, right = keras.utils.split_dataset(tf.data.Dataset.from_tensor_slices({"y": y}),
                                            left_size=3)
    assert [e["y"] for e in right.as_numpy_iterator()] == [30, 40]


def test_split_dataset_rejects_bad_arguments():
    with pytest.raises(TypeError, match="must be either a `tf.data.Dataset`"):
        keras.utils.split_dataset({"a": np.arange(3)}, left_size=1)
    with pytest.raises(ValueError, match="At least one of the `left_size` or `right_size`"):
        keras.utils.split_dataset(np.arange(3))
    with pytest.raises(ValueError, match="`left_size` should be either a positive integer"):
        keras.utils.split_dataset(np.arange(10), left_size=10)
    with pytest.raises(ValueError, match="greater than 1"):
        keras.utils.split_dataset(np.arange(10), left_size=0.6, right_size=0.6)
    with pytest.raises(ValueError, match="left side dataset split will be empty"):
        keras.utils.split_dataset(np.arange(10), left_size=0.01)
    with pytest.raises(TypeError, match="Invalid `left_size` Type"):
        keras.utils.split_dataset(np.arange(10), left_size="a")


def _write_wavs(root):
    for label in ("yes", "no"):
        os.makedirs(os.path.join(root, label))
        for i in range(3):
            n = 800 + 100 * i
            wave = (0.3 * np.sin(np.arange(n) * (0.05 if label == "yes" else 0.2)))
            tf.io.write_file(os.path.join(root, label, f"{i}.wav"),
                             tf.audio.encode_wav(wave.astype(np.float32)[:, None], 8000))


def test_audio_dataset_from_directory(tmp_path, capsys):
    tf.random.set_seed(None)  # the order below is TF's without a global seed
    root = str(tmp_path)
    _write_wavs(root)
    train, val = tf.keras.utils.audio_dataset_from_directory(
        root, batch_size=2, validation_split=0.34, seed=0, output_sequence_length=1000,
        subset="both")
    assert capsys.readouterr().out.splitlines() == [
        "Found 6 files belonging to 2 classes.", "Using 4 files for training.",
        "Using 2 files for validation."]
    assert train.class_names == ["no", "yes"]
    assert train.element_spec[0].shape.as_list() == [None, 1000, None]
    audio, labels = next(iter(train))  # TF 2.21's first batch for seed 0
    assert audio.shape == (2, 1000, 1) and labels.numpy().tolist() == [1, 0]
    # without a length, batches are padded to their longest file
    padded = tf.keras.utils.audio_dataset_from_directory(root, batch_size=4, seed=1)
    assert [a.shape[1] for a, _ in padded] == [1000, 1000]
    ragged = tf.keras.utils.audio_dataset_from_directory(root, batch_size=4, ragged=True,
                                                         label_mode="categorical", seed=1)
    audio, labels = next(iter(ragged))
    assert isinstance(audio, tf.RaggedTensor) and labels.shape == (4, 2)
    with pytest.raises(ValueError, match="Cannot set both `ragged` and"):
        tf.keras.utils.audio_dataset_from_directory(root, ragged=True, output_sequence_length=3)
    with pytest.raises(ImportError, match="tensorflow_io"):
        tf.keras.utils.audio_dataset_from_directory(root, sampling_rate=16000)


def test_image_dataset_unknown_interpolation_raises_before_listing(image_dir, capsys):
    with pytest.raises(NotImplementedError, match="Value not recognized for `interpolation`: "
                                                  "bogus. Supported values are: dict_keys"):
        tf.keras.utils.image_dataset_from_directory(image_dir, interpolation="bogus")
    assert "Found" not in capsys.readouterr().out


def test_image_dataset_explicit_labels_are_int32_and_prefetched_last(image_dir):
    # Keras slices a list of Python ints (int32) and prefetches after batching.
    ds = keras.utils.image_dataset_from_directory(image_dir, labels=list(range(10)),
                                                  image_size=(4, 4), batch_size=3,
                                                  shuffle=False)
    assert ds.element_spec[1] == tf.TensorSpec((None,), tf.int32)
    assert next(iter(ds))[1].numpy().tolist() == [0, 1, 2]
    assert type(ds).__name__ == "_PrefetchDataset"
    train, val = keras.utils.image_dataset_from_directory(
        image_dir, image_size=(4, 4), validation_split=0.2, subset="both", seed=1)
    assert type(train).__name__ == type(val).__name__ == "_PrefetchDataset"
    assert train.class_names == ["cats", "dogs"]


def test_image_dataset_both_subsets_counted_before_an_empty_one_raises(tmp_path, capsys):
    (tmp_path / "only").mkdir()
    (tmp_path / "only" / "readme.txt").write_text("x")
    with pytest.raises(ValueError, match="No training images found"):
        keras.utils.image_dataset_from_directory(tmp_path, validation_split=0.5, subset="both",
                                                 seed=1)
    assert capsys.readouterr().out.splitlines() == [
        "Found 0 files belonging to 1 classes.", "Using 0 files for training.",
        "Using 0 files for validation."]

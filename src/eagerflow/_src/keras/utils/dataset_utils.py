"""Datasets made from arrays and directories: windows of a time series, text files, images.

>>> ds = tf.keras.utils.timeseries_dataset_from_array(np.arange(6), None, sequence_length=3,
...                                                   batch_size=2)
>>> [batch.numpy().tolist() for batch in ds]
[[[0, 1, 2], [1, 2, 3]], [[2, 3, 4], [3, 4, 5]]]
"""
import os

import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.data.dataset_ops import Dataset
from eagerflow._src.io import gfile
from eagerflow._src.ops import array_ops, audio_ops, cast_ops, image_codecs, image_ops, io_ops, \
    math_ops, string_ops
from eagerflow._src.core import errors
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.core.tensor import Tensor
from eagerflow._src.keras.utils.io_utils import print_msg
from eagerflow._src.ragged.ragged_tensor import RaggedTensor

IMAGE_FORMATS = (".bmp", ".gif", ".jpeg", ".jpg", ".png")
_AUTOTUNE = -1

# Keras 2's interpolation names, as tf.image.resize takes them
KNOWN_INTERPOLATIONS = ("bilinear", "nearest", "bicubic", "area", "lanczos3", "lanczos5",
                        "gaussian", "mitchellcubic")


def interpolation_method(interpolation):
    """`interpolation` in lower case, once checked to be one of Keras 2's names for
    tf.image.resize's methods."""
    method = interpolation.lower()
    if method not in KNOWN_INTERPOLATIONS:
        raise NotImplementedError(f"Value not recognized for `interpolation`: {method}. "
                                  f"Supported values are: "
                                  f"{dict.fromkeys(KNOWN_INTERPOLATIONS).keys()}")
    return method


def _check_positive_below(name, value, length):
    if value <= 0:
        raise ValueError(f"`{name}` must be higher than 0. Received: {name}={value}")
    if value >= length:
        raise ValueError(f"`{name}` must be lower than the length of the data. Received: "
                         f"{name}={value}, for data of length {length}")


@export("keras.utils.timeseries_dataset_from_array",
        "keras.preprocessing.timeseries_dataset_from_array")
def timeseries_dataset_from_array(data, targets, sequence_length, sequence_stride=1,
                                  sampling_rate=1, batch_size=128, shuffle=False, seed=None,
                                  start_index=None, end_index=None):
    """A dataset of sliding windows over `data` (and the target of each window's first step).

    Window ``i`` holds ``data[s, s + sampling_rate, ...]`` (`sequence_length` steps) for
    ``s = start_index + i * sequence_stride``; its target is ``targets[i * sequence_stride]``.
    Windows are batched by `batch_size` (None: unbatched) and optionally shuffled.
    """
    if start_index:
        if start_index < 0:
            raise ValueError(f"`start_index` must be 0 or greater. Received: "
                             f"start_index={start_index}")
        if start_index >= len(data):
            raise ValueError(f"`start_index` must be lower than the length of the data. "
                             f"Received: start_index={start_index}, for data of length "
                             f"{len(data)}")
    if end_index:
        if start_index and end_index <= start_index:
            raise ValueError(f"`end_index` must be higher than `start_index`. Received: "
                             f"start_index={start_index}, and end_index={end_index} ")
        if end_index >= len(data):
            raise ValueError(f"`end_index` must be lower than the length of the data. "
                             f"Received: end_index={end_index}, for data of length "
                             f"{len(data)}")
        if end_index <= 0:
            raise ValueError(f"`end_index` must be higher than 0. Received: "
                             f"end_index={end_index}")
    _check_positive_below("sampling_rate", sampling_rate, len(data))
    _check_positive_below("sequence_stride", sequence_stride, len(data))
    start_index = start_index or 0
    end_index = len(data) if end_index is None else end_index
    count = end_index - start_index - (sequence_length - 1) * sampling_rate
    if targets is not None:
        count = min(count, len(targets))
    index_dtype = "int32" if count < 2 ** 31 - 1 else "int64"
    starts = np.arange(0, count, sequence_stride, dtype=index_dtype)
    if shuffle:
        if seed is None:
            seed = np.random.randint(1e6)
        np.random.RandomState(seed).shuffle(starts)
    length = cast_ops.cast(sequence_length, index_dtype)
    rate = cast_ops.cast(sampling_rate, index_dtype)
    numbered = Dataset.zip((Dataset.range(len(starts)), Dataset.from_tensors(starts).repeat()))
    windows = numbered.map(
        lambda i, positions: array_ops.range(positions[i], positions[i] + length * rate, rate),
        num_parallel_calls=_AUTOTUNE)
    dataset = _gather(data, windows, start_index, end_index)
    if targets is not None:
        first_steps = numbered.map(lambda i, positions: positions[i],
                                   num_parallel_calls=_AUTOTUNE)
        dataset = Dataset.zip((dataset, _gather(targets, first_steps, start_index, end_index)))
    return _batch(dataset.prefetch(_AUTOTUNE), batch_size, shuffle, seed)


def _gather(array, indices, start_index, end_index):
    """The rows of `array[start_index:end_index]` that each element of `indices` picks."""
    steps = Dataset.from_tensors(array[start_index:end_index]).repeat()
    return Dataset.zip((steps, indices)).map(lambda s, i: array_ops.gather(s, i),
                                             num_parallel_calls=_AUTOTUNE)


def _batch(dataset, batch_size, shuffle, seed):
    if batch_size is not None:
        if shuffle:
            dataset = dataset.shuffle(buffer_size=batch_size * 8, seed=seed)
        return dataset.batch(batch_size)
    return dataset.shuffle(buffer_size=1024, seed=seed) if shuffle else dataset


# -- directories of files, one subdirectory per class ------------------------------------------

def _files(directory, subdir, formats, follow_links):
    """The files under `directory`/`subdir` with an extension in `formats`, directories and
    names in sorted order, as paths relative to `directory`."""
    top = os.path.join(directory, subdir)
    found = []
    # (as Keras's, without `follow_links` the files are listed by tf.io.gfile.walk, which
    # goes into linked directories all the same)
    walk = os.walk(top, followlinks=True) if follow_links else gfile.walk(top)
    for root, _, names in sorted(walk, key=lambda entry: entry[0]):
        for name in sorted(names):
            if name.lower().endswith(formats):
                found.append(os.path.join(subdir, os.path.relpath(os.path.join(root, name), top)))
    return found


def index_directory(directory, labels, formats, class_names=None, shuffle=True, seed=None,
                    follow_links=False):
    """``(file_paths, labels, class_names)`` of the files in `directory`; with labels
    ``"inferred"`` each subdirectory is a class, in sorted order unless `class_names` orders
    them. Shuffling uses NumPy's generator with `seed`, so paths come in Keras's order."""
    if labels != "inferred":
        subdirs = class_names = [""]
    else:
        if not os.path.isdir(directory):  # TF's file system reports it so
            raise errors.NotFoundError(None, None, f"Could not find directory {directory}")
        subdirs = [name.rstrip("/") for name in sorted(os.listdir(directory))
                   if os.path.isdir(os.path.join(directory, name)) and not name.startswith(".")]
        if not class_names:
            class_names = subdirs
        elif set(class_names) != set(subdirs):
            raise ValueError(f"The `class_names` passed did not match the names of the "
                             f"subdirectories of the target directory. Expected: {subdirs}, "
                             f"but received: {class_names}")
    class_indices = {name: i for i, name in enumerate(class_names)}
    filenames, found_labels = [], []
    for subdir in subdirs:
        files = _files(directory, subdir, formats, follow_links)
        filenames += files
        found_labels += [class_indices[subdir]] * len(files)
    if labels not in ("inferred", None):
        if len(labels) != len(filenames):
            raise ValueError(f"Expected the lengths of `labels` to match the number of files in "
                             f"the target directory. len(labels) is {len(labels)} while we "
                             f"found {len(filenames)} files in directory {directory}.")
        class_names = sorted(set(labels))
    else:  # without labels too: the files are counted as one class
        labels = np.array(found_labels, dtype="int32")
    print_msg(f"Found {len(filenames)} files belonging to {len(class_names)} classes.")
    paths = [os.path.join(directory, name) for name in filenames]
    if shuffle:
        if seed is None:
            seed = np.random.randint(1e6)
        np.random.RandomState(seed).shuffle(paths)
        np.random.RandomState(seed).shuffle(labels)
    return paths, labels, class_names


def _split(samples, labels, validation_split, subset):
    """The training or validation part: the validation files are the last ones."""
    if not validation_split:
        return samples, labels
    count = int(validation_split * len(samples))
    if subset == "training":
        print_msg(f"Using {len(samples) - count} files for training.")
        return samples[:-count], labels[:-count] if labels is not None else None
    if subset == "validation":
        print_msg(f"Using {count} files for validation.")
        return samples[-count:], labels[-count:] if labels is not None else None
    raise ValueError(f'`subset` must be either "training" or "validation", received: {subset}')


def _check_arguments(labels, label_mode, class_names, validation_split, subset, shuffle, seed,
                     what):
    if labels not in ("inferred", None):
        if not isinstance(labels, (list, tuple)):
            raise ValueError(
                f"`labels` argument should be a list/tuple of integer labels, of the same size "
                f"as the number of {what} files in the target directory. If you wish to infer "
                f"the labels from the subdirectory names in the target directory, pass "
                f'`labels="inferred"`. If you wish to get a dataset that only contains '
                f"{what}{'s' if what == 'image' else ' samples'} (no labels), pass "
                f"`labels=None`. Received: labels={labels}")
        if class_names:
            raise ValueError(f'You can only pass `class_names` if `labels="inferred"`. '
                             f"Received: labels={labels}, and class_names={class_names}")
    if label_mode not in {"int", "categorical", "binary", None}:
        raise ValueError(f'`label_mode` argument must be one of "int", "categorical", '
                         f'"binary", or None. Received: label_mode={label_mode}')
    if validation_split and not 0 < validation_split < 1:
        raise ValueError(f"`validation_split` must be between 0 and 1, received: "
                         f"{validation_split}")
    if (validation_split or subset) and not (validation_split and subset):
        raise ValueError("If `subset` is set, `validation_split` must be set, and inversely.")
    if subset not in ("training", "validation", "both", None):
        raise ValueError(f'`subset` must be either "training", "validation" or "both", '
                         f"received: {subset}")
    if validation_split and shuffle and seed is None:
        raise ValueError("If using `validation_split` and shuffling the data, you must provide "
                         "a `seed` argument, to make sure that there is no overlap between the "
                         "training and validation subset.")


def _from_directory(directory, labels, label_mode, class_names, batch_size, shuffle, seed,
                    validation_split, subset, follow_links, formats, load, what, no_files,
                    batch=_batch):
    """The dataset (or ``[training, validation]`` for subset "both") of ``load(path)``
    and the labels of the files in `directory`, batched by `batch`."""
    _check_arguments(labels, label_mode, class_names, validation_split, subset, shuffle, seed,
                     what)
    if labels is None or label_mode is None:
        labels = label_mode = None
    if seed is None:
        seed = np.random.randint(1e6)
    paths, labels, class_names = index_directory(directory, labels, formats, class_names,
                                                 shuffle, seed, follow_links)
    if label_mode == "binary" and len(class_names) != 2:
        raise ValueError(f'When passing `label_mode="binary"`, there must be exactly 2 '
                         f"class_names. Received: class_names={class_names}")

    def make(part_paths, part_labels, train, prefix=""):
        if not part_paths:
            raise ValueError(no_files.format(prefix=prefix, directory=directory))
        dataset = Dataset.from_tensor_slices(part_paths).map(load, num_parallel_calls=_AUTOTUNE)
        if label_mode:
            dataset = Dataset.zip((dataset, _labels(part_labels, label_mode,
                                                    len(class_names))))
        if what != "image":  # Keras prefetches text and audio before batching, images after
            dataset = batch(dataset.prefetch(_AUTOTUNE), batch_size, shuffle and train, seed)
        else:
            dataset = batch(dataset, batch_size, shuffle and train, seed).prefetch(_AUTOTUNE)
        dataset.class_names = class_names
        if what == "image":
            dataset.file_paths = part_paths
        return dataset

    if subset == "both":  # (both parts are counted before either is checked)
        training = _split(paths, labels, validation_split, "training")
        validation = _split(paths, labels, validation_split, "validation")
        return [make(*training, True, "training "), make(*validation, False, "validation ")]
    return make(*_split(paths, labels, validation_split, subset), True)


def _labels(labels, label_mode, num_classes):
    dataset = Dataset.from_tensor_slices(labels)  # a list of Python ints gives int32
    if label_mode == "binary":
        return dataset.map(lambda x: array_ops.expand_dims(cast_ops.cast(x, "float32"), -1),
                           num_parallel_calls=_AUTOTUNE)
    if label_mode == "categorical":
        return dataset.map(lambda x: array_ops.one_hot(x, num_classes),
                           num_parallel_calls=_AUTOTUNE)
    return dataset


@export("keras.utils.text_dataset_from_directory",
        "keras.preprocessing.text_dataset_from_directory")
def text_dataset_from_directory(directory, labels="inferred", label_mode="int",
                                class_names=None, batch_size=32, max_length=None, shuffle=True,
                                seed=None, validation_split=None, subset=None,
                                follow_links=False):
    """A dataset of the contents of the ``.txt`` files in `directory` (truncated to
    `max_length` bytes), labelled by subdirectory unless `labels` says otherwise."""
    def load(path):
        text = io_ops.read_file(path)
        return text if max_length is None else string_ops.substr(text, 0, max_length)
    return _from_directory(directory, labels, label_mode, class_names, batch_size, shuffle, seed,
                           validation_split, subset, follow_links, (".txt",), load, "text",
                           "No {prefix}text files found in directory {directory}. "
                           "Allowed format: .txt")


@export("keras.utils.audio_dataset_from_directory")
def audio_dataset_from_directory(directory, labels="inferred", label_mode="int",
                                 class_names=None, batch_size=32, sampling_rate=None,
                                 output_sequence_length=None, ragged=False, shuffle=True,
                                 seed=None, validation_split=None, subset=None,
                                 follow_links=False):
    """A dataset of the ``.wav`` files in `directory` as float32 ``[samples, channels]``
    arrays (cut or zero-padded to `output_sequence_length`; otherwise batches are padded to
    their longest, or ragged), labelled by subdirectory unless `labels` says otherwise."""
    if ragged and output_sequence_length is not None:
        raise ValueError("Cannot set both `ragged` and `output_sequence_length`")
    if sampling_rate is not None:
        if not isinstance(sampling_rate, int):
            raise ValueError(f"`sampling_rate` should have an integer value. Received: "
                             f"sampling_rate={sampling_rate}")
        if sampling_rate <= 0:
            raise ValueError(f"`sampling_rate` should be higher than 0. Received: "
                             f"sampling_rate={sampling_rate}")
        raise ImportError("To use the argument `sampling_rate`, you should install "
                          "tensorflow_io. You can install it via `pip install tensorflow-io`.")
    labelled = labels is not None and label_mode is not None

    def load(path):
        audio, _ = audio_ops.decode_wav(io_ops.read_file(path), desired_samples=(
            -1 if output_sequence_length is None else output_sequence_length))
        return RaggedTensor.from_tensor(audio) if ragged else audio

    def batch(dataset, size, shuffled, seed):
        if size is None or ragged or output_sequence_length is not None:
            return _batch(dataset, size, shuffled, seed)
        if shuffled:
            dataset = dataset.shuffle(buffer_size=size * 8, seed=seed)
        return dataset.padded_batch(size, padded_shapes=([None, None], []) if labelled
                                    else [None, None])
    return _from_directory(directory, labels, label_mode, class_names, batch_size, shuffle, seed,
                           validation_split, subset, follow_links, (".wav",), load, "audio",
                           "No {prefix}audio files found in directory {directory}. "
                           "Allowed format(s): ('.wav',)", batch)


@export("keras.preprocessing.image.smart_resize")
def smart_resize(x, size, interpolation="bilinear"):
    """`x` (one image or a batch, channels last) resized to `size` = (height, width) after
    cropping its largest centered part of that aspect ratio, so nothing is distorted."""
    if len(size) != 2:
        raise ValueError(f"Expected `size` to be a tuple of 2 integers, but got: {size}.")
    image = convert_to_tensor(x)
    if image.shape.rank is not None and image.shape.rank not in (3, 4):
        raise ValueError(f"Expected an image array with shape `(height, width, channels)`, or "
                         f"`(batch_size, height, width, channels)`, but got input with "
                         f"incorrect rank, of shape {image.shape}.")
    dims = array_ops.shape(image)
    height, width = dims[-3], dims[-2]
    target_height, target_width = size
    crop_height = math_ops.minimum(height, cast_ops.cast(
        cast_ops.cast(width * target_height, "float32") / target_width, "int32"))
    crop_width = math_ops.minimum(width, cast_ops.cast(
        cast_ops.cast(height * target_width, "float32") / target_height, "int32"))
    top = cast_ops.cast(cast_ops.cast(height - crop_height, "float32") / 2, "int32")
    left = cast_ops.cast(cast_ops.cast(width - crop_width, "float32") / 2, "int32")
    if image.shape.rank is None:
        # An image of unknown rank is taken as one (height, width, channels) image.
        image = array_ops.slice(image, array_ops.stack([top, left, 0]),
                                array_ops.stack([crop_height, crop_width, -1]))
    else:
        image = image[..., top:top + crop_height, left:left + crop_width, :]
    image = image_ops.resize(image, size, method=interpolation)
    if isinstance(x, np.ndarray):
        return image.numpy()
    return image


@export("keras.utils.image_dataset_from_directory",
        "keras.preprocessing.image_dataset_from_directory")
def image_dataset_from_directory(directory, labels="inferred", label_mode="int",
                                 class_names=None, color_mode="rgb", batch_size=32,
                                 image_size=(256, 256), shuffle=True, seed=None,
                                 validation_split=None, subset=None, interpolation="bilinear",
                                 follow_links=False, crop_to_aspect_ratio=False, **kwargs):
    """A dataset of the images (bmp, gif, jpeg, png) in `directory` as float32 arrays of
    `image_size`, labelled by subdirectory unless `labels` says otherwise."""
    if "smart_resize" in kwargs:
        crop_to_aspect_ratio = kwargs.pop("smart_resize")
    if kwargs:
        raise TypeError(f"Unknown keywords argument(s): {tuple(kwargs.keys())}")
    channels = {"rgb": 3, "rgba": 4, "grayscale": 1}.get(color_mode)
    if channels is None:
        raise ValueError(f'`color_mode` must be one of {{"rgb", "rgba", "grayscale"}}. '
                         f"Received: color_mode={color_mode}")
    interpolation_method(interpolation)  # checked before the files are listed

    def load(path):
        image = image_codecs.decode_image(io_ops.read_file(path), channels=channels,
                                          expand_animations=False)
        if crop_to_aspect_ratio:
            image = smart_resize(image, image_size, interpolation)
        else:
            image = image_ops.resize(image, image_size, method=interpolation)
        image.set_shape((image_size[0], image_size[1], channels))
        return image
    return _from_directory(directory, labels, label_mode, class_names, batch_size, shuffle, seed,
                           validation_split, subset, follow_links, IMAGE_FORMATS, load, "image",
                           "No {prefix}images found in directory {directory}. "
                           f"Allowed formats: {IMAGE_FORMATS}")


# -- splitting a small in-memory dataset in two -------------------------------------------------

@export("keras.utils.split_dataset")
def split_dataset(dataset, left_size=None, right_size=None, shuffle=False, seed=None):
    """Two datasets: the first `left_size` samples of `dataset` (a `tf.data.Dataset`, an array
    or a list/tuple of arrays of one length) and its last `right_size` ones.

    A float size is a fraction of the samples, an int a count; either may be None (the
    complement of the other). `shuffle` shuffles the samples first with Python's `random`
    seeded by `seed`. A batched dataset's splits are batched alike.

    >>> left, right = tf.keras.utils.split_dataset(np.arange(10), left_size=0.8)
    >>> int(left.cardinality()), int(right.cardinality())
    (8, 2)
    """
    kind = _split_kind(dataset)
    if kind is None:
        raise TypeError(f"The `dataset` argument must be either a `tf.data.Dataset` object or a "
                        f"list/tuple of arrays. Received: dataset={dataset} of type "
                        f"{type(dataset)}")
    if left_size is None and right_size is None:
        raise ValueError("At least one of the `left_size` or `right_size` must be specified. "
                         "Received: left_size=None and right_size=None")
    samples = _split_samples(dataset, kind)
    if shuffle:
        import random  # noqa: PLC0415  (Keras shuffles with Python's generator)
        random.seed(random.randint(0, int(1e6)) if seed is None else seed)
        random.shuffle(samples)
    left_size, right_size = _split_sizes(left_size, right_size, len(samples))
    splits = []
    for part in (samples[:left_size], samples[-right_size:]):
        if kind is Dataset and isinstance(dataset.element_spec, dict):
            part = {key: [sample[key] for sample in part] for key in part[0]}
        elif kind is not np.ndarray:
            part = tuple(np.array(column) for column in zip(*part))
        elif np.ndim(part[0]):  # (rows stacked keep the array's dtype; TF converts a
            part = np.array(part)  # list of scalars as it converts Python lists)
        split = Dataset.from_tensor_slices(part)
        if kind is Dataset and getattr(dataset, "_batch_size", None) is not None:
            split = split.batch(dataset._batch_size)
        splits.append(split.prefetch(_AUTOTUNE))
    return tuple(splits)


def _split_kind(dataset):
    for kind in (tuple, list, np.ndarray, Dataset):
        if isinstance(dataset, kind):
            return kind
    return None


def _split_samples(dataset, kind):
    """The samples of `dataset`, a list: rows of an array, tuples of the arrays' rows, the
    elements of a (unbatched) dataset."""
    if kind in (list, tuple):
        noun = "list" if kind is list else "tuple"
        if not dataset:
            raise ValueError(f"Received an empty {noun} dataset. Please provide a non-empty "
                             f"{noun} of arrays.")
        if not isinstance(dataset[0], np.ndarray):
            raise ValueError(f"Expected a {noun} of `numpy.ndarray` objects,Received: "
                             f"{type(dataset[0])}")
        length = dataset[0].shape[0]
        for i, array in enumerate(dataset):
            if np.shape(array)[0] != length:
                raise ValueError(f"Received a {noun} of NumPy arrays with different lengths. "
                                 f"Mismatch found at index {i}, Expected shape="
                                 f"{dataset[0].shape} Received shape={np.shape(array)}."
                                 f"Please provide a {noun} of NumPy arrays with the same length.")
        rows = zip(*dataset)
    elif kind is Dataset:
        rows = dataset.unbatch() if getattr(dataset, "_batch_size", None) is not None \
            else dataset
    else:
        rows = dataset
    samples = []
    for sample in rows:
        if kind in (list, tuple):
            try:
                sample = np.array(sample)
            except ValueError:  # rows of different shapes
                sample = np.array(sample, dtype=object)
        elif samples and isinstance(sample, (np.ndarray, Tensor)) and \
                np.shape(sample) != np.shape(samples[0]):
            raise ValueError(f"All `dataset` samples must have same shape, Expected shape: "
                             f"{np.shape(samples[0])} Received shape: {np.shape(sample)} at "
                             f"index {len(samples) - 1}.")
        samples.append(sample)
    if not samples:
        raise ValueError("Received an empty Dataset. `dataset` must be a non-empty list/tuple "
                         "of `numpy.ndarray` objects or `tf.data.Dataset` objects.")
    return samples


def _split_sizes(left_size, right_size, total):
    """`left_size` and `right_size` as counts of samples out of `total`."""
    left_type, right_type = type(left_size), type(right_size)
    for name, size, size_type in (("left_size", left_size, left_type),
                                  ("right_size", right_size, right_type)):
        if size is not None and size_type not in (int, float):
            raise TypeError(f"Invalid `{name}` Type. Expected: int or float or None, "
                            f"Received: type({name})={size_type}.")
    if left_size == 0 and right_size == 0:
        raise ValueError("Both `left_size` and `right_size` are zero. At least one of the split "
                         "sizes must be non-zero.")
    for name, size, size_type in (("left_size", left_size, left_type),
                                  ("right_size", right_size, right_type)):
        if (size_type is int and not 0 < size < total) or \
                (size_type is float and not 0 < size < 1):
            raise ValueError(f"`{name}` should be either a positive integer smaller than "
                             f"{total}, or a float within the range `[0, 1]`. Received: "
                             f"{name}={size}")
    if left_type is right_type is float and left_size + right_size > 1:
        raise ValueError("The sum of `left_size` and `right_size` is greater than 1. It must "
                         "be less than or equal to 1.")
    left = round(left_size * total) if left_type is float else left_size
    right = round(right_size * total) if right_type is float else right_size
    left = total - right if left is None else left
    right = total - left if right is None else right
    if left + right > total:
        raise ValueError(f"The sum of `left_size` and `right_size` should be smaller than the "
                         f"total length {total}. Received: left_size + right_size = "
                         f"{left + right} and total_length = {total}")
    for split, side in ((left, "left"), (right, "right")):
        if split == 0:
            raise ValueError(f"With `dataset` of length={total}, `left_size`={left} and "
                             f"`right_size`={right}. Resulting {side} side dataset split will "
                             f"be empty. Adjust any of the aforementioned parameters")
    return int(left), int(right)

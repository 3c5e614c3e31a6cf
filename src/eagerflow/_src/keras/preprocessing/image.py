"""Keras's legacy image augmentation on NumPy arrays: ``ImageDataGenerator`` and its iterators
(``tf.keras.preprocessing.image``). Random parameters come from NumPy's global RandomState, so
a seed reproduces Keras's draws; affine transforms need SciPy, brightness and files need PIL.

>>> gen = tf.keras.preprocessing.image.ImageDataGenerator(rescale=0.5)
>>> it = gen.flow(np.ones((3, 2, 2, 1)), np.arange(3), batch_size=2, shuffle=False)
>>> len(it), it[0][0].shape, it[0][1].tolist(), float(it[1][0].max())
(2, (2, 2, 2, 1), [0, 1], 0.5)
"""
import os
import threading
import warnings

import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.keras import backend
from eagerflow._src.keras.utils import image_utils
from eagerflow._src.keras.utils.data_utils import Sequence
from eagerflow._src.keras.utils.io_utils import print_msg

_IMAGE_FORMATS = ("png", "jpg", "jpeg", "bmp", "ppm", "tif", "tiff")


@export("keras.preprocessing.image.Iterator")
class Iterator(Sequence):
    """Batches of `n` samples by index (a `Sequence`) and endlessly by `next()`; the order is
    reshuffled each epoch when `shuffle`, seeding NumPy with `seed` + batches seen."""

    white_list_formats = _IMAGE_FORMATS

    def __init__(self, n, batch_size, shuffle, seed):
        self.n = n
        self.batch_size = batch_size
        self.seed = seed
        self.shuffle = shuffle
        self.batch_index = 0
        self.total_batches_seen = 0
        self.lock = threading.Lock()
        self.index_array = None
        self.index_generator = self._flow_index()

    def _set_index_array(self):
        self.index_array = np.random.permutation(self.n) if self.shuffle else np.arange(self.n)

    def __getitem__(self, idx):
        if idx >= len(self):
            raise ValueError(f"Asked to retrieve element {idx}, but the Sequence has length "
                             f"{len(self)}")
        if self.seed is not None:
            np.random.seed(self.seed + self.total_batches_seen)
        self.total_batches_seen += 1
        if self.index_array is None:
            self._set_index_array()
        start = self.batch_size * idx
        return self._get_batches_of_transformed_samples(
            self.index_array[start:start + self.batch_size])

    def __len__(self):
        return -(-self.n // self.batch_size)

    def on_epoch_end(self):
        self._set_index_array()

    def reset(self):
        self.batch_index = 0

    def _flow_index(self):
        self.reset()
        while True:
            if self.seed is not None:
                np.random.seed(self.seed + self.total_batches_seen)
            if self.batch_index == 0:
                self._set_index_array()
            start = (self.batch_index * self.batch_size) % self.n if self.n else 0
            # The last batch of an epoch may be short; the next one starts a new epoch.
            self.batch_index = self.batch_index + 1 if self.n > start + self.batch_size else 0
            self.total_batches_seen += 1
            yield self.index_array[start:start + self.batch_size]

    def __iter__(self):
        return self

    def __next__(self):
        return self.next()

    def next(self):
        """The next batch (endless: epochs follow one another)."""
        with self.lock:
            index_array = next(self.index_generator)
        return self._get_batches_of_transformed_samples(index_array)

    def _get_batches_of_transformed_samples(self, index_array):
        raise NotImplementedError


def _augment(generator, x):
    params = generator.get_random_transform(x.shape)
    return generator.standardize(generator.apply_transform(x, params))


@export("keras.preprocessing.image.NumpyArrayIterator")
class NumpyArrayIterator(Iterator):
    """Batches of the rank-4 array `x` (and `y`, `sample_weight`), each image augmented and
    standardized by `image_data_generator`."""

    def __init__(self, x, y, image_data_generator, batch_size=32, shuffle=False,
                 sample_weight=None, seed=None, data_format=None, save_to_dir=None,
                 save_prefix="", save_format="png", subset=None, ignore_class_split=False,
                 dtype=None):
        data_format = backend.image_data_format() if data_format is None else data_format
        self.dtype = dtype = backend.floatx() if dtype is None else dtype
        x_misc = []
        if isinstance(x, (tuple, list)):
            x_misc = ([np.asarray(m) for m in x[1]] if isinstance(x[1], list)
                      else [np.asarray(x[1])])
            x = x[0]
            for m in x_misc:
                if len(x) != len(m):
                    raise ValueError(f"All of the arrays in `x` should have the same length. "
                                     f"Found a pair with: len(x[0]) = {len(x)}, len(x[?]) = "
                                     f"{len(m)}")
        if y is not None and len(x) != len(y):
            raise ValueError(f"`x` (images tensor) and `y` (labels) should have the same length. "
                             f"Found: x.shape = {np.asarray(x).shape}, y.shape = "
                             f"{np.asarray(y).shape}")
        if sample_weight is not None and len(x) != len(sample_weight):
            raise ValueError(f"`x` (images tensor) and `sample_weight` should have the same "
                             f"length. Found: x.shape = {np.asarray(x).shape}, "
                             f"sample_weight.shape = {np.asarray(sample_weight).shape}")
        if subset is not None:
            if subset not in {"training", "validation"}:
                raise ValueError("Invalid subset name:", subset,
                                 '; expected "training" or "validation".')
            cut = int(len(x) * image_data_generator._validation_split)
            if (y is not None and not ignore_class_split
                    and not np.array_equal(np.unique(y[:cut]), np.unique(y[cut:]))):
                raise ValueError("Training and validation subsets have different number of "
                                 "classes after the split. If your numpy arrays are sorted by "
                                 "the label, you might want to shuffle them.")
            part = slice(None, cut) if subset == "validation" else slice(cut, None)
            x = x[part]
            x_misc = [np.asarray(m[part]) for m in x_misc]
            if y is not None:
                y = y[part]
        self.x = np.asarray(x, dtype=dtype)
        self.x_misc = x_misc
        if self.x.ndim != 4:
            raise ValueError("Input data in `NumpyArrayIterator` should have rank 4. You passed "
                             "an array with shape", self.x.shape)
        axis = 3 if data_format == "channels_last" else 1
        if self.x.shape[axis] not in {1, 3, 4}:
            warnings.warn(f'NumpyArrayIterator is set to use the data format convention '
                          f'"{data_format}" (channels on axis {axis}), i.e. expected either 1, '
                          f'3, or 4 channels on axis {axis}. However, it was passed an array '
                          f'with shape {self.x.shape} ({self.x.shape[axis]} channels).',
                          stacklevel=2)
        self.y = None if y is None else np.asarray(y)
        self.sample_weight = None if sample_weight is None else np.asarray(sample_weight)
        self.image_data_generator = image_data_generator
        self.data_format = data_format
        self.save_to_dir = save_to_dir
        self.save_prefix = save_prefix
        self.save_format = save_format
        super().__init__(self.x.shape[0], batch_size, shuffle, seed)

    def _get_batches_of_transformed_samples(self, index_array):
        batch_x = np.zeros((len(index_array),) + self.x.shape[1:], dtype=self.dtype)
        for i, j in enumerate(index_array):
            batch_x[i] = _augment(self.image_data_generator, self.x[j].astype(self.dtype))
        if self.save_to_dir:
            for i, j in enumerate(index_array):
                img = image_utils.array_to_img(batch_x[i], self.data_format, scale=True)
                name = f"{self.save_prefix}_{j}_{np.random.randint(1e4)}.{self.save_format}"
                img.save(os.path.join(self.save_to_dir, name))
        misc = [m[index_array] for m in self.x_misc]
        out = (batch_x if not misc else [batch_x] + misc,)
        if self.y is None:
            return out[0]
        out += (self.y[index_array],)
        if self.sample_weight is not None:
            out += (self.sample_weight[index_array],)
        return out


def _walk_images(directory, follow_links):
    """(root, filename) of the image files under `directory`, in sorted order."""
    for root, _, files in sorted(os.walk(directory, followlinks=follow_links),
                                 key=lambda entry: entry[0]):
        for name in sorted(files):
            if name.lower().endswith(".tiff"):
                warnings.warn('Using ".tiff" files with multiple bands will cause distortion. '
                              'Please verify your output.', stacklevel=3)
            if name.lower().endswith(_IMAGE_FORMATS):
                yield root, name


@export("keras.preprocessing.image.DirectoryIterator")
class DirectoryIterator(Iterator):
    """Batches of the images under `directory`, one subdirectory per class, loaded with
    `load_img` at `target_size` and augmented by `image_data_generator`."""

    allowed_class_modes = {"categorical", "binary", "sparse", "input", None}

    def __init__(self, directory, image_data_generator, target_size=(256, 256),
                 color_mode="rgb", classes=None, class_mode="categorical", batch_size=32,
                 shuffle=True, seed=None, data_format=None, save_to_dir=None, save_prefix="",
                 save_format="png", follow_links=False, subset=None, interpolation="nearest",
                 keep_aspect_ratio=False, dtype=None):
        data_format = backend.image_data_format() if data_format is None else data_format
        self.dtype = backend.floatx() if dtype is None else dtype
        self.image_data_generator = image_data_generator
        self.target_size = tuple(target_size)
        self.keep_aspect_ratio = keep_aspect_ratio
        if color_mode not in {"rgb", "rgba", "grayscale"}:
            raise ValueError("Invalid color mode:", color_mode,
                             '; expected "rgb", "rgba", or "grayscale".')
        self.color_mode = color_mode
        self.data_format = data_format
        channels = {"rgba": 4, "rgb": 3, "grayscale": 1}[color_mode]
        self.image_shape = (self.target_size + (channels,) if data_format == "channels_last"
                            else (channels,) + self.target_size)
        self.save_to_dir = save_to_dir
        self.save_prefix = save_prefix
        self.save_format = save_format
        self.interpolation = interpolation
        split = None
        if subset is not None:
            frac = image_data_generator._validation_split
            if subset == "validation":
                split = (0, frac)
            elif subset == "training":
                split = (frac, 1)
            else:
                raise ValueError(f'Invalid subset name: {subset};expected "training" or '
                                 f'"validation"')
        self.split = split
        self.subset = subset
        self.directory = directory
        if class_mode not in self.allowed_class_modes:
            raise ValueError(f"Invalid class_mode: {class_mode}; expected one of: "
                             f"{self.allowed_class_modes}")
        self.class_mode = class_mode
        if not classes:
            classes = [d for d in sorted(os.listdir(directory))
                       if os.path.isdir(os.path.join(directory, d))]
        self.num_classes = len(classes)
        self.class_indices = dict(zip(classes, range(len(classes))))
        self.filenames = []
        labels = []
        for name in classes:
            subdir = os.path.join(directory, name)
            found = list(_walk_images(subdir, follow_links))
            if split:
                found = found[int(split[0] * len(found)):int(split[1] * len(found))]
            for root, fname in found:
                labels.append(self.class_indices[name])
                self.filenames.append(
                    os.path.join(name, os.path.relpath(os.path.join(root, fname), subdir)))
        self.samples = len(self.filenames)
        self.classes = np.array(labels, dtype="int32").reshape(self.samples)
        print_msg(f"Found {self.samples} images belonging to {self.num_classes} classes.")
        self._filepaths = [os.path.join(directory, f) for f in self.filenames]
        super().__init__(self.samples, batch_size, shuffle, seed)

    @property
    def filepaths(self):
        """The full path of each image."""
        return self._filepaths

    @property
    def labels(self):
        """The class index of each image."""
        return self.classes

    @property
    def sample_weight(self):
        return None

    def _get_batches_of_transformed_samples(self, index_array):
        batch_x = np.zeros((len(index_array),) + self.image_shape, dtype=self.dtype)
        for i, j in enumerate(index_array):
            img = image_utils.load_img(self._filepaths[j], color_mode=self.color_mode,
                                       target_size=self.target_size,
                                       interpolation=self.interpolation,
                                       keep_aspect_ratio=self.keep_aspect_ratio)
            x = image_utils.img_to_array(img, data_format=self.data_format)
            if hasattr(img, "close"):
                img.close()
            if self.image_data_generator:
                x = _augment(self.image_data_generator, x)
            batch_x[i] = x
        if self.save_to_dir:
            for i, j in enumerate(index_array):
                img = image_utils.array_to_img(batch_x[i], self.data_format, scale=True)
                name = f"{self.save_prefix}_{j}_{np.random.randint(1e7)}.{self.save_format}"
                img.save(os.path.join(self.save_to_dir, name))
        if self.class_mode == "input":
            return batch_x, batch_x.copy()
        if self.class_mode in {"binary", "sparse"}:
            return batch_x, self.classes[index_array].astype(self.dtype)
        if self.class_mode == "categorical":
            batch_y = np.zeros((len(batch_x), len(self.class_indices)), dtype=self.dtype)
            batch_y[np.arange(len(batch_x)), self.classes[index_array]] = 1.0
            return batch_x, batch_y
        return batch_x


def _flip_axis(x, axis):
    return np.flip(np.asarray(x), axis)


@export("keras.preprocessing.image.apply_channel_shift")
def apply_channel_shift(x, intensity, channel_axis=0):
    """`x` with `intensity` added to every channel, clipped to `x`'s original range."""
    x = np.moveaxis(x, channel_axis, 0)
    low, high = np.min(x), np.max(x)
    x = np.stack([np.clip(c + intensity, low, high) for c in x], axis=0)
    return np.moveaxis(x, 0, channel_axis)


@export("keras.preprocessing.image.apply_brightness_shift")
def apply_brightness_shift(x, brightness, scale=True):
    """`x` with PIL's brightness enhancement by the factor `brightness` (PIL is needed)."""
    image_utils._need_pil("apply_brightness_shift")
    from PIL import ImageEnhance
    low, high = np.min(x), np.max(x)
    out_of_range = (low < 0) or (high > 255)
    img = image_utils.array_to_img(x, scale=out_of_range or scale)
    x = image_utils.img_to_array(ImageEnhance.Brightness(img).enhance(brightness))
    if not scale and out_of_range:
        x = x / 255 * (high - low) + low
    return x


def _centered(matrix, rows, cols):
    """`matrix` applied about the image centre rather than its corner."""
    o_x, o_y = float(rows) / 2 - 0.5, float(cols) / 2 - 0.5
    to_centre = np.array([[1, 0, o_x], [0, 1, o_y], [0, 0, 1]])
    back = np.array([[1, 0, -o_x], [0, 1, -o_y], [0, 0, 1]])
    return to_centre @ matrix @ back


@export("keras.preprocessing.image.apply_affine_transform")
def apply_affine_transform(x, theta=0, tx=0, ty=0, shear=0, zx=1, zy=1, row_axis=1, col_axis=2,
                           channel_axis=0, fill_mode="nearest", cval=0.0, order=1):
    """The rank-3 image `x` rotated by `theta` degrees, shifted by (`tx`, `ty`) pixels
    (rows, columns), sheared by `shear` degrees and zoomed by (`zx`, `zy`), about its centre,
    sampling with SciPy's `affine_transform` (`order`, `fill_mode`, `cval`)."""
    try:
        from scipy import ndimage
    except ImportError:
        raise ImportError("Image transformations require SciPy. Install SciPy.") from None
    if np.unique([row_axis, col_axis, channel_axis]).size != 3:
        raise ValueError("'row_axis', 'col_axis', and 'channel_axis' must be distinct")
    bad = {row_axis, col_axis, channel_axis} - {0, 1, 2}
    if bad:
        raise ValueError(f"Invalid axis' indices: {bad}")
    if x.ndim != 3:
        raise ValueError("Input arrays must be multi-channel 2D images.")
    if channel_axis not in (0, 2):
        raise ValueError("Channels are allowed and the first and last dimensions.")
    parts = []
    if theta != 0:
        t = np.deg2rad(theta)
        parts.append(np.array([[np.cos(t), -np.sin(t), 0], [np.sin(t), np.cos(t), 0],
                               [0, 0, 1]]))
    if tx != 0 or ty != 0:
        parts.append(np.array([[1, 0, tx], [0, 1, ty], [0, 0, 1]]))
    if shear != 0:
        s = np.deg2rad(shear)
        parts.append(np.array([[1, -np.sin(s), 0], [0, np.cos(s), 0], [0, 0, 1]]))
    if zx != 1 or zy != 1:
        parts.append(np.array([[zx, 0, 0], [0, zy, 0], [0, 0, 1]]))
    if not parts:
        return x
    matrix = parts[0]
    for part in parts[1:]:
        matrix = matrix @ part
    matrix = _centered(matrix, x.shape[row_axis], x.shape[col_axis])
    x = np.moveaxis(x, channel_axis, 0)
    if col_axis > row_axis:  # the matrix is in (row, col) order of the channel images
        matrix[:, [0, 1]] = matrix[:, [1, 0]]
        matrix[[0, 1]] = matrix[[1, 0]]
    x = np.stack([ndimage.affine_transform(c, matrix[:2, :2], matrix[:2, 2], order=order,
                                           mode=fill_mode, cval=cval) for c in x], axis=0)
    return np.moveaxis(x, 0, channel_axis)


def _affine(x, row_axis, col_axis, channel_axis, fill_mode, cval, order, **params):
    return apply_affine_transform(x, row_axis=row_axis, col_axis=col_axis,
                                  channel_axis=channel_axis, fill_mode=fill_mode, cval=cval,
                                  order=order, **params)


@export("keras.preprocessing.image.random_rotation")
def random_rotation(x, rg, row_axis=1, col_axis=2, channel_axis=0, fill_mode="nearest",
                    cval=0.0, interpolation_order=1):
    """`x` rotated by a random angle in +-`rg` degrees."""
    theta = np.random.uniform(-rg, rg)
    return _affine(x, row_axis, col_axis, channel_axis, fill_mode, cval, interpolation_order,
                   theta=theta)


@export("keras.preprocessing.image.random_shift")
def random_shift(x, wrg, hrg, row_axis=1, col_axis=2, channel_axis=0, fill_mode="nearest",
                 cval=0.0, interpolation_order=1):
    """`x` shifted by random fractions of its height (+-`hrg`) and width (+-`wrg`)."""
    tx = np.random.uniform(-hrg, hrg) * x.shape[row_axis]
    ty = np.random.uniform(-wrg, wrg) * x.shape[col_axis]
    return _affine(x, row_axis, col_axis, channel_axis, fill_mode, cval, interpolation_order,
                   tx=tx, ty=ty)


@export("keras.preprocessing.image.random_shear")
def random_shear(x, intensity, row_axis=1, col_axis=2, channel_axis=0, fill_mode="nearest",
                 cval=0.0, interpolation_order=1):
    """`x` sheared by a random angle in +-`intensity` degrees."""
    shear = np.random.uniform(-intensity, intensity)
    return _affine(x, row_axis, col_axis, channel_axis, fill_mode, cval, interpolation_order,
                   shear=shear)


@export("keras.preprocessing.image.random_zoom")
def random_zoom(x, zoom_range, row_axis=1, col_axis=2, channel_axis=0, fill_mode="nearest",
                cval=0.0, interpolation_order=1):
    """`x` zoomed by random factors in `zoom_range` = (low, high) along each axis."""
    if len(zoom_range) != 2:
        raise ValueError("`zoom_range` should be a tuple or list of two floats. Received: "
                         f"{zoom_range}")
    if zoom_range[0] == 1 and zoom_range[1] == 1:
        zx, zy = 1, 1
    else:
        zx, zy = np.random.uniform(zoom_range[0], zoom_range[1], 2)
    return _affine(x, row_axis, col_axis, channel_axis, fill_mode, cval, interpolation_order,
                   zx=zx, zy=zy)


@export("keras.preprocessing.image.random_channel_shift")
def random_channel_shift(x, intensity_range, channel_axis=0):
    """`x` with a random intensity in +-`intensity_range` added to every channel."""
    intensity = np.random.uniform(-intensity_range, intensity_range)
    return apply_channel_shift(x, intensity, channel_axis=channel_axis)


@export("keras.preprocessing.image.random_brightness")
def random_brightness(x, brightness_range, scale=True):
    """`x` with a brightness factor drawn from `brightness_range` = (low, high)."""
    if len(brightness_range) != 2:
        raise ValueError("`brightness_range should be tuple or list of two floats. Received: "
                         f"{brightness_range}")
    return apply_brightness_shift(x, np.random.uniform(*brightness_range), scale)


def _shift(spec, size):
    """A random shift drawn as Keras does: from the choices of an int or list `spec` with a
    random sign, else uniform in +-`spec`; fractions of `size` when all below 1."""
    try:
        shift = np.random.choice(spec)
        shift *= np.random.choice([-1, 1])
    except ValueError:  # a float range
        shift = np.random.uniform(-spec, spec)
    if np.max(spec) < 1:
        shift *= size
    return shift


@export("keras.preprocessing.image.ImageDataGenerator")
class ImageDataGenerator:
    """Batches of images with random augmentation (rotation, shifts, shear, zoom, channel shift,
    flips, brightness) and normalization (rescale, sample- or feature-wise centring and
    scaling, ZCA whitening), from arrays (`flow`) or directories (`flow_from_directory`)."""

    def __init__(self, featurewise_center=False, samplewise_center=False,
                 featurewise_std_normalization=False, samplewise_std_normalization=False,
                 zca_whitening=False, zca_epsilon=1e-6, rotation_range=0, width_shift_range=0.0,
                 height_shift_range=0.0, brightness_range=None, shear_range=0.0, zoom_range=0.0,
                 channel_shift_range=0.0, fill_mode="nearest", cval=0.0, horizontal_flip=False,
                 vertical_flip=False, rescale=None, preprocessing_function=None,
                 data_format=None, validation_split=0.0, interpolation_order=1, dtype=None):
        data_format = backend.image_data_format() if data_format is None else data_format
        self.featurewise_center = featurewise_center
        self.samplewise_center = samplewise_center
        self.featurewise_std_normalization = featurewise_std_normalization
        self.samplewise_std_normalization = samplewise_std_normalization
        self.zca_whitening = zca_whitening
        self.zca_epsilon = zca_epsilon
        self.rotation_range = rotation_range
        self.width_shift_range = width_shift_range
        self.height_shift_range = height_shift_range
        self.shear_range = shear_range
        self.channel_shift_range = channel_shift_range
        self.fill_mode = fill_mode
        self.cval = cval
        self.horizontal_flip = horizontal_flip
        self.vertical_flip = vertical_flip
        self.rescale = rescale
        self.preprocessing_function = preprocessing_function
        self.dtype = backend.floatx() if dtype is None else dtype
        self.interpolation_order = interpolation_order
        if data_format not in {"channels_last", "channels_first"}:
            raise ValueError('`data_format` should be `"channels_last"` (channel after row and '
                             'column) or `"channels_first"` (channel before row and column). '
                             f'Received: {data_format}')
        self.data_format = data_format
        self.channel_axis, self.row_axis, self.col_axis = (
            (3, 1, 2) if data_format == "channels_last" else (1, 2, 3))
        if validation_split and not 0 < validation_split < 1:
            raise ValueError("`validation_split` must be strictly between 0 and 1.  Received: "
                             f"{validation_split}")
        self._validation_split = validation_split
        self.mean = None
        self.std = None
        self.zca_whitening_matrix = None
        if isinstance(zoom_range, (float, int)):
            self.zoom_range = [1 - zoom_range, 1 + zoom_range]
        elif len(zoom_range) == 2 and all(isinstance(v, (float, int)) for v in zoom_range):
            self.zoom_range = [zoom_range[0], zoom_range[1]]
        else:
            raise ValueError("`zoom_range` should be a float or a tuple or list of two floats. "
                             f"Received: {zoom_range}")
        if zca_whitening:
            if not featurewise_center:
                self.featurewise_center = True
                warnings.warn("This ImageDataGenerator specifies `zca_whitening`, which "
                              "overrides setting of `featurewise_center`.", stacklevel=2)
            if featurewise_std_normalization:
                self.featurewise_std_normalization = False
                warnings.warn("This ImageDataGenerator specifies `zca_whitening` which "
                              "overrides setting of`featurewise_std_normalization`.",
                              stacklevel=2)
        if featurewise_std_normalization and not featurewise_center:
            self.featurewise_center = True
            warnings.warn("This ImageDataGenerator specifies `featurewise_std_normalization`, "
                          "which overrides setting of `featurewise_center`.", stacklevel=2)
        if samplewise_std_normalization and not samplewise_center:
            self.samplewise_center = True
            warnings.warn("This ImageDataGenerator specifies `samplewise_std_normalization`, "
                          "which overrides setting of `samplewise_center`.", stacklevel=2)
        if brightness_range is not None and (
                not isinstance(brightness_range, (tuple, list)) or len(brightness_range) != 2):
            raise ValueError("`brightness_range should be tuple or list of two floats. "
                             f"Received: {brightness_range}")
        self.brightness_range = brightness_range

    def flow(self, x, y=None, batch_size=32, shuffle=True, sample_weight=None, seed=None,
             save_to_dir=None, save_prefix="", save_format="png", ignore_class_split=False,
             subset=None):
        """A `NumpyArrayIterator` over the images `x` (rank 4) and labels `y`."""
        return NumpyArrayIterator(x, y, self, batch_size=batch_size, shuffle=shuffle,
                                  sample_weight=sample_weight, seed=seed,
                                  data_format=self.data_format, save_to_dir=save_to_dir,
                                  save_prefix=save_prefix, save_format=save_format,
                                  ignore_class_split=ignore_class_split, subset=subset,
                                  dtype=self.dtype)

    def flow_from_directory(self, directory, target_size=(256, 256), color_mode="rgb",
                            classes=None, class_mode="categorical", batch_size=32, shuffle=True,
                            seed=None, save_to_dir=None, save_prefix="", save_format="png",
                            follow_links=False, subset=None, interpolation="nearest",
                            keep_aspect_ratio=False):
        """A `DirectoryIterator` over the images in the class subdirectories of `directory`."""
        return DirectoryIterator(directory, self, target_size=target_size,
                                 color_mode=color_mode, keep_aspect_ratio=keep_aspect_ratio,
                                 classes=classes, class_mode=class_mode,
                                 data_format=self.data_format, batch_size=batch_size,
                                 shuffle=shuffle, seed=seed, save_to_dir=save_to_dir,
                                 save_prefix=save_prefix, save_format=save_format,
                                 follow_links=follow_links, subset=subset,
                                 interpolation=interpolation, dtype=self.dtype)

    def standardize(self, x):
        """`x` normalized as configured (in place where possible, as in Keras)."""
        if self.preprocessing_function:
            x = self.preprocessing_function(x)
        if self.rescale:
            x *= self.rescale
        if self.samplewise_center:
            x -= np.mean(x, keepdims=True)
        if self.samplewise_std_normalization:
            x /= np.std(x, keepdims=True) + 1e-6
        unfit = ("This ImageDataGenerator specifies `{}`, but it hasn't been fit on any "
                 "training data. Fit it first by calling `.fit(numpy_data)`.")
        if self.featurewise_center:
            if self.mean is not None:
                x -= self.mean
            else:
                warnings.warn(unfit.format("featurewise_center"), stacklevel=2)
        if self.featurewise_std_normalization:
            if self.std is not None:
                x /= self.std + 1e-6
            else:
                warnings.warn(unfit.format("featurewise_std_normalization"), stacklevel=2)
        if self.zca_whitening:
            if self.zca_whitening_matrix is not None:
                flat = x.reshape(-1, np.prod(x.shape[-3:]))
                x = np.reshape(flat @ self.zca_whitening_matrix, x.shape)
            else:
                warnings.warn(unfit.format("zca_whitening"), stacklevel=2)
        return x

    def get_random_transform(self, img_shape, seed=None):
        """A dict of random transform parameters for an image of `img_shape`, drawn in Keras's
        order from NumPy's global RandomState (seeded with `seed` if given)."""
        rows, cols = img_shape[self.row_axis - 1], img_shape[self.col_axis - 1]
        if seed is not None:
            np.random.seed(seed)
        theta = (np.random.uniform(-self.rotation_range, self.rotation_range)
                 if self.rotation_range else 0)
        tx = _shift(self.height_shift_range, rows) if self.height_shift_range else 0
        ty = _shift(self.width_shift_range, cols) if self.width_shift_range else 0
        shear = np.random.uniform(-self.shear_range, self.shear_range) if self.shear_range else 0
        if self.zoom_range[0] == 1 and self.zoom_range[1] == 1:
            zx, zy = 1, 1
        else:
            zx, zy = np.random.uniform(self.zoom_range[0], self.zoom_range[1], 2)
        flip_horizontal = (np.random.random() < 0.5) * self.horizontal_flip
        flip_vertical = (np.random.random() < 0.5) * self.vertical_flip
        channel_shift = None
        if self.channel_shift_range != 0:
            channel_shift = np.random.uniform(-self.channel_shift_range,
                                              self.channel_shift_range)
        brightness = None
        if self.brightness_range is not None:
            brightness = np.random.uniform(self.brightness_range[0], self.brightness_range[1])
        return {"theta": theta, "tx": tx, "ty": ty, "shear": shear, "zx": zx, "zy": zy,
                "flip_horizontal": flip_horizontal, "flip_vertical": flip_vertical,
                "channel_shift_intensity": channel_shift, "brightness": brightness}

    def apply_transform(self, x, transform_parameters):
        """The image `x` (rank 3) transformed by the parameters of `get_random_transform`."""
        p = transform_parameters
        row, col, channel = self.row_axis - 1, self.col_axis - 1, self.channel_axis - 1
        x = apply_affine_transform(x, p.get("theta", 0), p.get("tx", 0), p.get("ty", 0),
                                   p.get("shear", 0), p.get("zx", 1), p.get("zy", 1),
                                   row_axis=row, col_axis=col, channel_axis=channel,
                                   fill_mode=self.fill_mode, cval=self.cval,
                                   order=self.interpolation_order)
        if p.get("channel_shift_intensity") is not None:
            x = apply_channel_shift(x, p["channel_shift_intensity"], channel)
        if p.get("flip_horizontal", False):
            x = _flip_axis(x, col)
        if p.get("flip_vertical", False):
            x = _flip_axis(x, row)
        if p.get("brightness") is not None:
            x = apply_brightness_shift(x, p["brightness"], False)
        return x

    def random_transform(self, x, seed=None):
        """The image `x` under a random transform (seeded with `seed` if given)."""
        return self.apply_transform(x, self.get_random_transform(x.shape, seed))

    def fit(self, x, augment=False, rounds=1, seed=None):
        """Computes the feature-wise mean, std and ZCA matrix of the rank-4 sample `x` (after
        `rescale`, and over `rounds` augmented copies with `augment`)."""
        x = np.asarray(x, dtype=self.dtype)
        if x.ndim != 4:
            raise ValueError(f"Input to `.fit()` should have rank 4. Got array with shape: "
                             f"{x.shape}")
        ch = self.channel_axis
        if x.shape[ch] not in {1, 3, 4}:
            warnings.warn(f'Expected input to be images (as Numpy array) following the data '
                          f'format convention "{self.data_format}" (channels on axis {ch}), '
                          f'i.e. expected either 1, 3 or 4 channels on axis {ch}. However, it '
                          f'was passed an array with shape {x.shape} ({x.shape[ch]} channels).',
                          stacklevel=2)
        if seed is not None:
            np.random.seed(seed)
        x = np.copy(x)
        if self.rescale:
            x *= self.rescale
        if augment:
            ax = np.zeros((rounds * x.shape[0],) + x.shape[1:], dtype=self.dtype)
            for r in range(rounds):
                for i in range(x.shape[0]):
                    ax[i + r * x.shape[0]] = self.random_transform(x[i])
            x = ax
        shape = [1, 1, 1]
        shape[ch - 1] = x.shape[ch]
        axes = (0, self.row_axis, self.col_axis)
        if self.featurewise_center:
            self.mean = np.reshape(np.mean(x, axis=axes), shape)
            x -= self.mean
        if self.featurewise_std_normalization:
            self.std = np.reshape(np.std(x, axis=axes), shape)
            x /= self.std + 1e-6
        if self.zca_whitening:
            n = len(x)
            u, s, _ = np.linalg.svd(np.reshape(x, (n, -1)).T, full_matrices=False)
            self.zca_whitening_matrix = (u * (np.sqrt(n) / (s + self.zca_epsilon))).dot(u.T)

"""tf.data input pipelines: per-element cost of iterating, beside a NumPy loop and TF.

    python bench/data_pipeline.py [--reps 5]

Times are per element.  The NumPy floor is the same work written as a plain
loop over arrays (slices for batches, fancy indexing for shuffles).

* ``slices_batch32``: ``from_tensor_slices((x, y)).batch(32)`` over 60000
  28x28 float32 images and int64 labels (the issue's goal: at most half TF's
  time per element);
* ``slices_elements``: the same dataset element by element (10000 of them);
* ``map_batch32``: ``map(scale)`` then ``batch(32)`` (10000 elements);
* ``shuffle_batch32_prefetch``: ``shuffle(1000).batch(32).prefetch(AUTOTUNE)``;
* ``image_pipeline``: PNG images decoded, randomly cropped and flipped,
  normalized, batched by 64 and prefetched, feeding a training step (a dense
  layer's gradient step), per image (needs ``tf.io.decode_png`` and
  ``tf.image``);
* ``augment_pipeline``: the shared anchor's image augmentation: 2048 40x40 RGB
  images randomly cropped to 32x32 and flipped, normalized
  (``map(num_parallel_calls=AUTOTUNE)``), batched by 64 and prefetched, per image;
* ``stateless_augment_pipeline``: the same with ``stateless_random_crop``/``flip``
  and a brightness change, seeded by a seed per element (TF's recommended way);
* ``image_pipeline_function``: the same, with the loop over the dataset inside
  one ``tf.function`` (a graph loop over the iterator ops, as TF runs it);
* ``fit_dataset``: ``model.fit`` on ``from_tensor_slices -> shuffle -> batch(64)
  -> prefetch`` of 8192 flattened images (a dense softmax classifier), per
  sample.
"""
import struct
import sys
import zlib

import numpy as np

import harness

_RNG = np.random.default_rng(0)
X = _RNG.random((60000, 28, 28), dtype=np.float32)
Y = np.arange(60000, dtype=np.int64)


def _has_data(lib):
    return hasattr(lib, "data")


def _drain(ds):
    for _ in ds:
        pass


def slices_batch32(lib, make):
    if lib is np:
        def run():
            for i in range(0, len(X), 32):
                X[i:i + 32].copy(), Y[i:i + 32].copy()
        return run, len(X)
    if not _has_data(lib):
        return None
    ds = lib.data.Dataset.from_tensor_slices((X, Y)).batch(32)
    return (lambda: _drain(ds)), len(X)


def slices_elements(lib, make):
    n = 10000
    if lib is np:
        def run():
            for i in range(n):
                X[i], Y[i]
        return run, n
    if not _has_data(lib):
        return None
    ds = lib.data.Dataset.from_tensor_slices((X[:n], Y[:n]))
    return (lambda: _drain(ds)), n


def map_batch32(lib, make):
    n = 10000
    if lib is np:
        def run():
            for i in range(0, n, 32):
                np.stack([X[j] * 2.0 for j in range(i, min(i + 32, n))])
        return run, n
    if not _has_data(lib):
        return None
    ds = lib.data.Dataset.from_tensor_slices((X[:n], Y[:n])).map(
        lambda x, y: (x * 2.0, y)).batch(32)
    return (lambda: _drain(ds)), n


def shuffle_batch32_prefetch(lib, make):
    n = 20000
    if lib is np:
        def run():
            order = _RNG.permutation(n)
            for i in range(0, n, 32):
                X[order[i:i + 32]], Y[order[i:i + 32]]
        return run, n
    if not _has_data(lib):
        return None
    ds = lib.data.Dataset.from_tensor_slices((X[:n], Y[:n])).shuffle(1000).batch(32).prefetch(
        lib.data.AUTOTUNE)
    return (lambda: _drain(ds)), n


def _chunk(kind, data):
    return (struct.pack(">I", len(data)) + kind + data
            + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))


def _pngs(count, size=40):
    """PNG files' bytes of random 8-bit RGB images (rows unfiltered, written here so that
    every interpreter gets the same files without an image library)."""
    rng = np.random.default_rng(1)
    out = []
    for _ in range(count):
        pixels = rng.integers(0, 256, (size, size, 3), dtype=np.uint8)
        rows = np.concatenate([np.zeros((size, 1), np.uint8), pixels.reshape(size, -1)], axis=1)
        out.append(b"\x89PNG\r\n\x1a\n"
                   + _chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0))
                   + _chunk(b"IDAT", zlib.compress(rows.tobytes()))
                   + _chunk(b"IEND", b""))
    return out


def _decode(data, size=40):
    """The pixels of one of `_pngs`' files (the NumPy floor's decoder)."""
    start = data.index(b"IDAT") + 4
    length = struct.unpack(">I", data[start - 8:start - 4])[0]
    rows = np.frombuffer(zlib.decompress(data[start:start + length]), np.uint8)
    return rows.reshape(size, -1)[:, 1:].reshape(size, size, 3)


def image_pipeline(lib, make):
    n = 1024
    if lib is np:
        pngs = _pngs(n)
        w = np.zeros((32 * 32 * 3, 10), np.float32)

        def run():
            for i in range(0, n, 64):
                batch = []
                for data in pngs[i:i + 64]:
                    img = _decode(data)
                    top, left = _RNG.integers(0, 9, 2)
                    img = img[top:top + 32, left:left + 32]
                    if _RNG.random() < 0.5:
                        img = img[:, ::-1]
                    batch.append(img.astype(np.float32) / 255.0)
                x = np.stack(batch).reshape(len(batch), -1)
                grad = x.T @ (x @ w)
                w[...] -= 0.01 * grad / len(batch)
        return run, n
    if not _has_data(lib):
        return None
    tf = lib
    pngs = _pngs(n)
    w = tf.Variable(tf.zeros([32 * 32 * 3, 10]))

    def load(data):
        img = tf.io.decode_png(data, channels=3)
        img = tf.image.random_crop(img, [32, 32, 3])
        img = tf.image.random_flip_left_right(img)
        return tf.cast(img, tf.float32) / 255.0

    @tf.function
    def step(x):
        x = tf.reshape(x, [tf.shape(x)[0], -1])
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(tf.matmul(x, w)))
        w.assign_sub(0.01 * tape.gradient(loss, w))

    ds = tf.data.Dataset.from_tensor_slices(pngs).map(
        load, num_parallel_calls=tf.data.AUTOTUNE).batch(64).prefetch(tf.data.AUTOTUNE)

    def run():
        for x in ds:
            step(x)
    return run, n


def _image_dataset(tf, n):
    def load(data):
        img = tf.io.decode_png(data, channels=3)
        img = tf.image.random_crop(img, [32, 32, 3])
        img = tf.image.random_flip_left_right(img)
        return tf.cast(img, tf.float32) / 255.0
    return tf.data.Dataset.from_tensor_slices(_pngs(n)).map(
        load, num_parallel_calls=tf.data.AUTOTUNE).batch(64).prefetch(tf.data.AUTOTUNE)


_AUGMENT_IMAGES = np.random.default_rng(0).integers(0, 256, (2048, 40, 40, 3)).astype(np.uint8)
_AUGMENT_SEEDS = np.random.default_rng(1).integers(0, 2**31, (2048, 2)).astype(np.int64)


def _augment_floor():
    def run():
        for i in range(0, len(_AUGMENT_IMAGES), 64):
            batch = []
            for img in _AUGMENT_IMAGES[i:i + 64]:
                top, left = _RNG.integers(0, 9, 2)
                img = img[top:top + 32, left:left + 32]
                if _RNG.random() < 0.5:
                    img = img[:, ::-1]
                batch.append(img.astype(np.float32) / 255.0 - 0.5)
            np.stack(batch)
    return run, len(_AUGMENT_IMAGES)


def augment_pipeline(lib, make):
    if lib is np:
        return _augment_floor()
    if not _has_data(lib):
        return None
    tf = lib

    def aug(im):
        im = tf.image.random_crop(im, (32, 32, 3))
        im = tf.image.random_flip_left_right(im)
        return tf.cast(im, tf.float32) / 255.0 - 0.5
    ds = tf.data.Dataset.from_tensor_slices(_AUGMENT_IMAGES).map(
        aug, num_parallel_calls=tf.data.AUTOTUNE).batch(64).prefetch(tf.data.AUTOTUNE)
    return (lambda: _drain(ds)), len(_AUGMENT_IMAGES)


def stateless_augment_pipeline(lib, make):
    if lib is np:
        return _augment_floor()
    if not _has_data(lib):
        return None
    tf = lib

    def aug(im, seed):
        im = tf.image.stateless_random_crop(im, (32, 32, 3), seed)
        im = tf.image.stateless_random_flip_left_right(im, seed + 1)
        im = tf.image.stateless_random_brightness(tf.cast(im, tf.float32) / 255.0, 0.2, seed + 2)
        return im - 0.5
    ds = tf.data.Dataset.from_tensor_slices((_AUGMENT_IMAGES, _AUGMENT_SEEDS)).map(
        aug, num_parallel_calls=tf.data.AUTOTUNE).batch(64).prefetch(tf.data.AUTOTUNE)
    return (lambda: _drain(ds)), len(_AUGMENT_IMAGES)


def image_pipeline_function(lib, make):
    if lib is np or not _has_data(lib):
        return None
    tf, n = lib, 1024
    w = tf.Variable(tf.zeros([32 * 32 * 3, 10]))
    ds = _image_dataset(tf, n)

    @tf.function
    def epoch():
        for x in ds:
            x = tf.reshape(x, [tf.shape(x)[0], -1])
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(tf.matmul(x, w)))
            w.assign_sub(0.01 * tape.gradient(loss, w))
    return epoch, n


def fit_dataset(lib, make):
    if lib is np or not _has_data(lib):
        return None
    tf, n = lib, 8192
    x = X[:n].reshape(n, -1)
    y = (Y[:n] % 10).astype(np.int32)
    model = tf.keras.Sequential([tf.keras.layers.Dense(10, activation="softmax",
                                                       input_shape=(784,))])
    model.compile("sgd", "sparse_categorical_crossentropy")
    ds = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(n).batch(64).prefetch(
        tf.data.AUTOTUNE)
    return (lambda: model.fit(ds, epochs=1, verbose=0)), n


CASES = {
    "slices_batch32": slices_batch32,
    "slices_elements": slices_elements,
    "map_batch32": map_batch32,
    "shuffle_batch32_prefetch": shuffle_batch32_prefetch,
    "image_pipeline": image_pipeline,
    "augment_pipeline": augment_pipeline,
    "stateless_augment_pipeline": stateless_augment_pipeline,
    "image_pipeline_function": image_pipeline_function,
    "fit_dataset": fit_dataset,
}

if __name__ == "__main__":
    sys.exit(harness.main(CASES, __file__))

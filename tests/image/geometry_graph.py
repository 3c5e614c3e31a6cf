"""A program holding every registered op of image_ops.py and image_codecs.py, traced by TF
into a GraphDef (recorded by record_tf.py as data/tf_geometry_graph.pb with its outputs) and
run here; see test_geometry_graphdef.py."""
import os

import numpy as np

from tests.image.codec_cases import read
from tests.image.geometry_cases import image

GRAPH = os.path.join(os.path.dirname(__file__), "data", "tf_geometry_graph")
BOXES = np.array([[0.1, 0.2, 0.8, 0.9], [0.3, -0.1, 0.9, 0.6]], np.float32)


def inputs():
    return [image(2, 5, 7, 2), BOXES, np.array(read("rgb.png"), dtype=object),
            np.array(read("rgb.jpg"), dtype=object), np.array(read("anim.gif"), dtype=object),
            np.array(read("rgba.bmp"), dtype=object)]


def graph_program(tf, x, boxes, png, jpg, gif, bmp):
    v1 = tf.compat.v1.image
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, boxes])
        resized = [v1.resize_bilinear(x, [3, 4], half_pixel_centers=True),
                   v1.resize_nearest_neighbor(x, [9, 11]),
                   v1.resize_bicubic(x, [4, 9], align_corners=True),
                   tf.image.resize(x, [3, 4], "lanczos3", antialias=True),
                   tf.image.crop_and_resize(x, boxes, [0, 1], [3, 3]),
                   tf.image.extract_patches(x, [1, 2, 3, 1], [1, 2, 1, 1], [1, 1, 2, 1],
                                            "SAME")]
    grads = [tape.gradient(r, x) for r in resized] + [tape.gradient(resized[4], boxes)]
    image_png = tf.io.decode_png(png)
    codecs = [image_png, tf.io.decode_png(png, channels=1, dtype=tf.uint16),
              tf.io.decode_jpeg(jpg, dct_method="INTEGER_ACCURATE"),
              tf.io.decode_image(gif), tf.io.decode_gif(gif), tf.io.decode_bmp(bmp),
              tf.io.extract_jpeg_shape(jpg),
              tf.io.decode_png(tf.io.encode_png(image_png, compression=9)),
              tf.io.extract_jpeg_shape(tf.io.encode_jpeg(image_png, quality=80)),
              tf.image.adjust_jpeg_quality(image_png, 70, dct_method="INTEGER_ACCURATE")]
    drawn = tf.image.draw_bounding_boxes(x[..., :1], tf.stack([boxes, boxes]),
                                         [[0.5, 0.0, 1.0]])
    return tuple(resized + [v1.resize_area(x, [3, 3])] + grads + codecs + [drawn])

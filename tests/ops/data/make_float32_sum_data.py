"""Records TensorFlow's float32 sums and means (the order of its additions) into
float32_sums_tf.json. Run with TensorFlow installed:  python make_float32_sum_data.py"""
import json
import pathlib

import numpy as np
import tensorflow as tf

LENGTHS = [3, 9, 12, 31, 33, 34, 64, 100, 129, 1000, 5000, 9000, 100000]
AXES = [((37, 29), [0]), ((3, 40, 9), [1]), ((20, 16), [0]), ((64, 10), [0]),
        ((5, 6, 7), [0, 2]), ((2, 3, 4, 5), [1, 3]), ((37, 29), [1]), ((4, 3000), [1])]


def vector(n):
    return np.random.RandomState(n).standard_normal(n).astype(np.float32) * 10 + 3


def array(shape):
    return np.random.RandomState(7).standard_normal(shape).astype(np.float32)


def bits(t):
    return np.asarray(t, np.float32).reshape(-1).view(np.uint32).tolist()


out = {"vectors": {n: [bits(tf.reduce_sum(vector(n))), bits(tf.reduce_mean(vector(n))),
                       bits(tf.reduce_sum(tf.fill([n], 0.1)))] for n in LENGTHS},
       "axes": [[list(shape), axis, bits(tf.reduce_sum(array(shape), axis)),
                 bits(tf.reduce_mean(array(shape), axis))] for shape, axis in AXES]}
pathlib.Path(__file__).with_name("float32_sums_tf.json").write_text(json.dumps(out))

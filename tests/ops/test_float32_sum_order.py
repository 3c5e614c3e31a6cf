"""With TF's CPU results emulated, float32 sums and means add in TF's order and give its
values bit for bit (recorded by data/make_float32_sum_data.py); by default they stay NumPy's,
within a few ulps."""
import json
import pathlib

import numpy as np
import pytest

import eagerflow as tf

_DATA = json.loads((pathlib.Path(__file__).parent / "data" / "float32_sums_tf.json").read_text())


def _vector(n):
    return np.random.RandomState(n).standard_normal(n).astype(np.float32) * 10 + 3


def _array(shape):
    return np.random.RandomState(7).standard_normal(shape).astype(np.float32)


def _bits(t):
    return np.asarray(t, np.float32).reshape(-1).view(np.uint32).tolist()


@pytest.fixture
def emulated():
    tf.config.experimental.enable_tf_cpu_float_emulation(True)
    yield
    tf.config.experimental.enable_tf_cpu_float_emulation(False)


@pytest.mark.parametrize("n", sorted(int(n) for n in _DATA["vectors"]))
def test_whole_sums_and_means_are_tfs(emulated, n):
    total, mean, tenths = _DATA["vectors"][str(n)]
    assert _bits(tf.reduce_sum(_vector(n))) == total
    assert _bits(tf.reduce_mean(tf.constant(_vector(n)))) == mean
    assert _bits(tf.reduce_sum(tf.fill([n], 0.1))) == tenths


@pytest.mark.parametrize("case", _DATA["axes"], ids=lambda c: f"{c[0]}-{c[1]}")
def test_sums_over_axes_are_tfs(emulated, case):
    shape, axis, total, mean = case
    x = _array(shape)
    assert _bits(tf.reduce_sum(x, axis)) == total
    assert _bits(tf.function(lambda v: tf.reduce_mean(v, axis))(tf.constant(x))) == mean


def test_default_sums_are_close_to_tfs():
    # (NumPy's pairwise order: a few ulps from TF's)
    for n, (total, _, tenths) in _DATA["vectors"].items():
        want = np.uint32(total).view(np.float32)
        got = tf.reduce_sum(_vector(int(n))).numpy()
        assert abs(got - want) <= 8 * np.spacing(np.abs(want)) * max(1, np.log2(int(n)))
    assert tf.reduce_sum(tf.fill([64], 0.1)).numpy() == pytest.approx(6.4, rel=1e-6)

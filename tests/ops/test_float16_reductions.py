"""float16 sums, means, products and norms add in float16 in TF's CPU order (values recorded
from TensorFlow 2.21 on x86-64): each partial sum rounds to half precision."""
import numpy as np
import pytest

import eagerflow as tf
from tests.internals import half_sums


def _data(shape, scale=3.0):
    n = int(np.prod(shape))
    return ((np.arange(n) * 7919 % 1000) / 1000 * scale).astype(np.float16).reshape(shape)


# (shape, axis): TF's first sums and means
_RECORDED = {
    ((3000,), None): ([4496.0], [1.4990234375]),
    ((5, 100), 1): ([147.125, 150.125, 153.25, 150.125, 150.125],
                    [1.4716796875, 1.5009765625, 1.5322265625, 1.5009765625, 1.5009765625]),
    ((300, 7), 0): ([443.75, 449.25, 448.75, 450.5, 453.0, 448.75],
                    [1.4794921875, 1.4970703125, 1.49609375, 1.501953125, 1.509765625,
                     1.49609375]),
    ((40, 37), 0): ([7.01953125, 78.25, 107.5625, 97.875, 88.125, 78.4375],
                    [0.175537109375, 1.9560546875, 2.689453125, 2.447265625, 2.203125,
                     1.9609375]),
    ((4, 50, 9), 1): ([71.8125, 74.75, 74.625, 74.5, 77.3125, 77.1875],
                      [1.4365234375, 1.4951171875, 1.4921875, 1.490234375, 1.5458984375,
                       1.5439453125]),
    ((4, 50, 9), (0, 2)): ([51.15625, 56.375, 52.65625, 54.875, 51.15625, 56.4375],
                           [1.4208984375, 1.56640625, 1.462890625, 1.5244140625,
                            1.4208984375, 1.5673828125]),
    ((2, 7, 7, 64), (1, 2)): ([70.875, 73.9375, 74.0, 74.125, 74.25, 74.3125],
                              [1.4462890625, 1.5087890625, 1.509765625, 1.5126953125,
                               1.515625, 1.5166015625]),
    ((2, 3, 4, 5), (0, 2)): ([11.1015625, 12.15625, 13.2109375, 14.2734375, 12.3203125,
                              11.21875],
                             [1.3876953125, 1.51953125, 1.6513671875, 1.7841796875,
                              1.5400390625, 1.40234375]),
    ((3, 1700), 1): ([2550.0, 2548.0, 2544.0], [1.5, 1.4990234375, 1.49609375]),
    ((7, 1605), 1): ([2404.0, 2404.0, 2404.0, 2404.0, 2404.0, 2408.0],
                     [1.498046875, 1.498046875, 1.498046875, 1.498046875, 1.498046875, 1.5]),
}


@pytest.mark.parametrize("shape, axis", list(_RECORDED))
def test_float16_sums_and_means_round_as_tensorflow(shape, axis):
    x = _data(shape)
    sums, means = _RECORDED[shape, axis]
    assert tf.reduce_sum(x, axis).numpy().ravel()[:6].tolist() == sums
    assert tf.reduce_mean(x, axis).numpy().ravel()[:6].tolist() == means


def test_float16_sum_drifts_and_overflows_as_in_tensorflow():
    tenths = tf.fill([5000], tf.constant(0.1, tf.float16))
    assert float(tf.reduce_sum(tenths)) == 498.5  # not 500: every partial sum is rounded
    assert float(tf.reduce_mean(tenths)) == np.float16(498.5) / np.float16(5000)
    assert np.isinf(tf.reduce_sum(tf.constant([60000.0, 60000.0, -60000.0], tf.float16)))
    # 8-lane vectors, four accumulators: where the large value sits decides the rounding
    for n, first, last in [(8, 2056, 2056), (16, 2062, 2062), (32, 2076, 2080),
                           (64, 2110, 2110), (100, 2148, 2148)]:
        ones = np.ones(n, np.float16)
        ones[0] = 2048
        assert float(tf.reduce_sum(ones)) == first
        assert float(tf.reduce_sum(ones[::-1].copy())) == last


def test_float16_sum_in_a_function_and_with_keepdims():
    x = _data((4, 50, 9))
    f = tf.function(lambda t: tf.reduce_sum(t, 1, keepdims=True),
                    input_signature=[tf.TensorSpec([None, None, 9], tf.float16)])
    assert f(x).numpy().ravel()[:6].tolist() == _RECORDED[(4, 50, 9), 1][0]
    assert f(x).shape == (4, 1, 9)


def test_float16_whole_sum_splits_over_the_thread_pool():
    x = (np.random.RandomState(0).randn(140001) * 2.7).astype(np.float16)
    before = tf.config.threading.get_intra_op_parallelism_threads()
    try:
        tf.config.threading.set_intra_op_parallelism_threads(2)  # as TF ran on two cores
        assert float(tf.reduce_sum(x)) == 1643.0
    finally:
        tf.config.threading.set_intra_op_parallelism_threads(before)


def test_float16_norm_and_product_round_as_tensorflow():
    x = _data((1000,))
    assert float(tf.math.reduce_euclidean_norm(x)) == 54.75
    assert np.isinf(tf.math.reduce_euclidean_norm(tf.fill([100], tf.constant(100.0, tf.float16))))
    near_one = (1 + (x - 1.5) / 50).astype(np.float16)
    assert float(tf.reduce_prod(near_one)) == 0.80859375


def test_bfloat16_sums_stay_in_float32():
    x = tf.cast(tf.fill([1000], 0.1), tf.bfloat16)
    assert float(tf.reduce_sum(x)) == float(tf.cast(tf.constant(100.097656), tf.bfloat16))


def test_float16_softmax_rounds_each_step_as_tensorflow():
    x = tf.constant([[1.0, 2.0, 3.0]], tf.float16)
    assert tf.nn.softmax(x).numpy().tolist() == [[0.09002685546875, 0.24462890625,
                                                  0.6650390625]]
    assert tf.nn.log_softmax(x).numpy().tolist() == [[-2.408203125, -1.408203125,
                                                      -0.407958984375]]
    wide = ((np.arange(200) * 7919 % 1000) / 100 - 5).astype(np.float16).reshape(4, 50)
    assert tf.nn.softmax(wide).numpy()[1, :4].tolist() == [
        0.11346435546875, 0.05047607421875, 0.022491455078125, 0.01000213623046875]
    assert tf.nn.log_softmax(wide).numpy()[3, :4].tolist() == [
        -3.12890625, -3.939453125, -4.75, -5.55859375]
    assert tf.nn.softmax(wide, axis=0).numpy()[:, 3].tolist() == [
        0.455078125, 0.27587890625, 0.16748046875, 0.1015625]


def test_float16_softmax_of_a_row_with_nan_or_inf_is_nan():
    x = tf.constant([[1.0, np.nan, 2.0], [1.0, np.inf, 2.0], [-np.inf, 0.0, 1.0]], tf.float16)
    out = tf.nn.softmax(x).numpy()
    assert np.isnan(out[:2]).all()
    assert out[2, 0] == 0 and np.isfinite(out[2]).all()
    assert tf.nn.softmax(tf.constant([], tf.float16)).shape == (0,)


def test_float16_average_pooling_adds_each_window_in_half_precision():
    x = ((np.arange(2 * 7 * 7 * 3) * 7919 % 1000) / 250).astype(np.float16).reshape(2, 7, 7, 3)
    assert tf.nn.avg_pool2d(x, 7, 1, "VALID").numpy().ravel().tolist() == [
        1.8984375, 2.0625, 1.982421875, 2.0234375, 1.9443359375, 2.111328125]
    assert tf.nn.avg_pool2d(x, 3, 2, "SAME").numpy()[0, :2, :, 0].ravel().tolist() == [
        1.111328125, 1.98828125, 1.3779296875, 2.251953125, 1.90625, 1.78125, 2.060546875,
        1.7119140625]


def test_float16_depthwise_convolution_rounds_each_tap_as_tensorflow():
    x = ((np.arange(6 * 6 * 4) * 7919 % 1000) / 250 - 2).astype(np.float16).reshape(1, 6, 6, 4)
    f = ((np.arange(3 * 3 * 4 * 2) * 613 % 100) / 50 - 1).astype(np.float16).reshape(3, 3, 4, 2)
    assert tf.nn.depthwise_conv2d(x, f, [1, 1, 1, 1], "SAME").numpy()[0, 1, 1].tolist() == [
        3.140625, 2.193359375, -1.1689453125, -0.79541015625, 0.60791015625, 1.26171875,
        -1.728515625, -1.5673828125]
    assert tf.nn.depthwise_conv2d(x, f, [1, 2, 2, 1], "VALID").numpy()[0, 0, 1].tolist() == [
        2.681640625, 1.9111328125, 0.0033283233642578125, -0.488525390625, 1.810546875,
        2.640625, -0.6240234375, -0.73681640625]


def test_bfloat16_log_softmax_rounds_each_step_and_softmax_runs_in_float32_as_tensorflow():
    x = tf.cast(tf.constant(((np.arange(120) * 7919 % 1000) / 100 - 5).reshape(3, 40),
                            tf.float32), tf.bfloat16)
    assert tf.nn.log_softmax(x).numpy()[:, :4].astype(float).tolist() == [
        [-11.375, -2.1875, -3.0, -3.8125], [-3.671875, -4.5, -5.28125, -6.125],
        [-6.0625, -6.875, -7.6875, -8.5]]
    assert tf.nn.softmax(x).numpy()[0, :4].astype(float).tolist() == [
        1.1563301086425781e-05, 0.11328125, 0.05029296875, 0.0223388671875]


def test_16_bit_sparse_reduce_sum_adds_each_group_as_tensorflow():
    vals = ((np.arange(3000) * 7919 % 1000) / 300).astype(np.float32)
    for dtype, whole, rows in ((tf.float16, 3330.0, [1665.0, 1663.0, 1667.0]),
                               (tf.bfloat16, 3328.0, [1664.0, 1664.0, 1664.0])):
        v = tf.cast(vals, dtype)
        one = tf.sparse.SparseTensor([[0, i] for i in range(2000)], v[:2000], [1, 2000])
        assert float(tf.sparse.reduce_sum(one)) == whole  # was 3268 (added one by one)
        three = tf.sparse.reorder(tf.sparse.SparseTensor(
            [[i % 3, i // 3] for i in range(3000)], v, [3, 3000]))
        assert tf.sparse.reduce_sum(three, 1).numpy().astype(float).tolist() == rows
        sparse = tf.sparse.reduce_sum(three, 1, output_is_sparse=True)
        assert sparse.values.numpy().astype(float).tolist() == rows


# Shapes whose partial sums add many values per step (64 rows and more, long columns): the
# step loop runs in float32 on whole vectors, rounding each step to half precision.
# (shape, axis): TF's first sums and means, and the float64 total of all its sums
_RECORDED_WIDE = {
    ((512, 1024), 1): ([1534.0, 1534.0, 1536.0, 1534.0, 1534.0, 1536.0],
                       [1.498046875, 1.498046875, 1.5, 1.498046875, 1.498046875, 1.5], 785654.0),
    ((96, 1600), 1): ([2400.0, 2392.0, 2400.0, 2400.0, 2396.0, 2400.0],
                      [1.5, 1.4951171875, 1.5, 1.5, 1.4970703125, 1.5], 230172.0),
    ((70, 3300), 1): ([4944.0, 4944.0, 4944.0, 4944.0, 4948.0, 4944.0],
                      [1.498046875, 1.498046875, 1.498046875, 1.498046875, 1.4990234375,
                       1.498046875], 346136.0),
    ((4096, 16), 0): ([6092.0, 6188.0, 6168.0, 6160.0, 6152.0, 6124.0],
                      [1.4873046875, 1.5107421875, 1.505859375, 1.50390625, 1.501953125,
                       1.4951171875], 98216.0),
    ((40, 64, 40), 1): ([90.5, 101.9375, 101.375, 97.8125, 100.3125, 99.6875],
                        [1.4140625, 1.5927734375, 1.583984375, 1.5283203125, 1.5673828125,
                         1.5576171875], 153453.9375),
    ((128, 7, 7, 64), (1, 2)): ([70.875, 73.9375, 74.0, 74.125, 74.25, 74.3125],
                                [1.4462890625, 1.5087890625, 1.509765625, 1.5126953125,
                                 1.515625, 1.5166015625], 601546.5625),
    ((2, 600, 1030), 2): ([1546.0, 1540.0, 1543.0, 1544.0, 1541.0, 1548.0],
                          [1.5009765625, 1.4951171875, 1.498046875, 1.4990234375, 1.49609375,
                           1.5029296875], 1852116.0),
}


@pytest.mark.parametrize("shape, axis", list(_RECORDED_WIDE))
def test_wide_float16_sums_round_each_step_as_tensorflow(shape, axis):
    x = _data(shape)
    sums, means, total = _RECORDED_WIDE[shape, axis]
    got = tf.reduce_sum(x, axis).numpy().ravel()
    assert got[:6].tolist() == sums
    assert float(got.astype(np.float64).sum()) == total  # (every output, not just the first)
    assert tf.reduce_mean(x, axis).numpy().ravel()[:6].tolist() == means


def test_wide_float16_sums_and_products_of_signed_values_round_as_tensorflow():
    y = (np.random.RandomState(1).randn(300, 2000) * 40).astype(np.float16)
    sums = tf.reduce_sum(y, 1).numpy()
    assert sums[:4].tolist() == [2644.0, -744.5, 939.0, -920.0]
    assert float(sums.astype(np.float64).sum()) == 40507.1875
    z = (1 + np.random.RandomState(2).randn(256, 64) / 30).astype(np.float16)
    products = tf.reduce_prod(z, 0).numpy()
    assert products[:4].tolist() == [0.80078125, 1.3447265625, 0.736328125, 1.3603515625]
    assert float(products.astype(np.float64).sum()) == 59.6376953125


def test_half_precision_step_rounding_is_numpy_float16_conversion():
    # Every float32 a step can make: ties, the subnormal halves' fixed quantum, the overflow
    # boundary (65520 rounds to 65536: infinity), signed zeros, infinities and NaN.
    edges = np.array([0.0, -0.0, 2.0 ** -25, -(2.0 ** -25), 2.0 ** -25 * 1.5, 2.0 ** -24 * 2.5,
                      2.0 ** -14 - 2.0 ** -25, 2.0 ** -14, 1 + 2.0 ** -11, 1 + 3 * 2.0 ** -11,
                      65504.0, 65519.996, 65520.0, -65520.0, 1e6, 3e38, np.inf, -np.inf, np.nan],
                     np.float32)
    rng = np.random.default_rng(0)
    bits = rng.integers(0, 2 ** 32, 200000, dtype=np.uint64).astype(np.uint32)
    t = np.concatenate([edges, bits.view(np.float32),
                        rng.standard_normal(50000).astype(np.float32) * 1e-5])
    with np.errstate(all="ignore"):
        expected = t.astype(np.float16).astype(np.float32)
        got = t.copy()
        half_sums._round_half(got, np.empty(got.shape, np.int32))
    same = (got.view(np.uint32) == expected.view(np.uint32)) | (np.isnan(got) & np.isnan(expected))
    assert same.all(), t[~same][:5]


@pytest.mark.parametrize("dtype", [np.float16, tf.bfloat16.as_numpy_dtype])
def test_stepwise_half_precision_loop_adds_as_numpy_half_arithmetic(dtype):
    rng = np.random.default_rng(1)
    x = (rng.standard_normal((3, 40, 700)) * 300).astype(dtype)
    x[0, 5, 3] = np.inf
    for ufunc in (np.add, np.multiply):
        with np.errstate(all="ignore"):
            expected = ufunc.accumulate(x, axis=1, dtype=x.dtype)[:, -1]
            got = half_sums._sequential(ufunc, x, 1)
        assert got.dtype == x.dtype
        np.testing.assert_array_equal(got.view(np.uint16), expected.view(np.uint16))


def test_bfloat16_products_multiply_in_bfloat16_as_tensorflow():
    # TF's Prod kernel rounds each partial product to bfloat16 (its sums, unlike its
    # products, accumulate bfloat16 in float32); a float32 product is ~7% off here.
    n = 1000
    x = (0.9 + (np.arange(n) * 7919 % 1000) / 1000 * 0.22) * np.where(np.arange(n) % 3 == 0, -1, 1)
    xb = tf.cast(tf.constant(x, tf.float32), tf.bfloat16)
    assert float(tf.reduce_prod(xb)) == 2224.0

    def first(y):
        return np.asarray(y[:4]).astype(np.float64).tolist()

    assert first(tf.reduce_prod(tf.reshape(xb[:999], [37, 27]), 0)) == [
        -1.0546875, 1.625, 1.3203125, -1.046875]
    assert first(tf.reduce_prod(tf.reshape(xb[:999], [37, 27]), 1)) == [
        -1.25, -1.2421875, -1.21875, -1.21875]
    assert first(tf.reduce_prod(tf.reshape(xb[:960], [4, 40, 6]), [0, 2])) == [
        1.2890625, 1.1015625, 1.4921875, 1.03125]

"""tf.quantization.fake_quant_*: values, gradients and errors as TF 2.21 gives them (the
values below were printed by TF for the same calls)."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow import errors
from tests.op_errors import op_text

Q = tf.quantization
_X = [-7.0, -6.0, -1.3, -0.1, 0.0, 0.05, 0.26, 1.5, 5.9, 6.0, 6.2, 100., np.nan, np.inf, -np.inf]


def _equal(got, want):  # (TF's values as printed, to 8 digits)
    np.testing.assert_allclose(np.asarray(got), np.float32(want), rtol=1e-6, atol=0)


def test_args_values_are_tfs():
    x = tf.constant(_X)
    _equal(Q.fake_quant_with_min_max_args(x), [
        -6.0235295, -5.9764705, -1.3176471, -0.09411765, 0., 0.04705882, 0.28235295,
        1.5058824, 5.882353, 5.9764705, 5.9764705, 5.9764705, np.nan, 5.9764705, -6.0235295])
    _equal(Q.fake_quant_with_min_max_args(x, -1.0, 1.5)[:8],
           [-1., -1., -1., -0.09803922, 0., 0.04901961, 0.2647059, 1.5])
    _equal(Q.fake_quant_with_min_max_args(x, 0.1, 5.0, num_bits=4, narrow_range=True)[5:9],
           [0., 0.35, 1.4, 4.9])
    _equal(Q.fake_quant_with_min_max_args(x, -5.0, -0.5, num_bits=3)[:3],
           [-4.5, -4.5, -1.2857143])
    _equal(Q.fake_quant_with_min_max_args([1, 2]), [0.9882353, 2.0235295])
    _equal(Q.fake_quant_with_min_max_args([1.2, 2.7]), [1.2235295, 2.682353])


def test_vars_values_are_tfs():
    x = tf.constant(_X)
    _equal(Q.fake_quant_with_min_max_vars(x, tf.constant(-0.3), tf.constant(2.2), num_bits=5,
                                          narrow_range=True)[:9],
           [-0.33333334, -0.33333334, -0.33333334, -0.08333334, 0., 0.08333334, 0.25, 1.5,
            2.1666667])
    _equal(Q.fake_quant_with_min_max_vars([0.3, 2.0], -1.0, 1.5), [0.30392158, 1.5])
    _equal(Q.fake_quant_with_min_max_vars(x, 2.0, 1.0)[:3], [1., 1., 1.])  # no check: TF's
    _equal(Q.fake_quant_with_min_max_vars([-1.0, 0.3, 2.0], 0.0, 0.0), [0., 0., 0.])
    xc = tf.reshape(tf.constant(np.linspace(-3, 3, 24), tf.float32), [2, 3, 4])
    got = Q.fake_quant_with_min_max_vars_per_channel(xc, [-1., -2., 0.5, -0.1],
                                                     [1., 0.5, 2., 0.1])
    _equal(got[0, 2], [-0.909804, -0.6568628, 0., -0.10039216])
    _equal(got[1, 0], [0.13333334, 0.39215687, 0.65294117, 0.09960784])
    _equal(Q.fake_quant_with_min_max_vars_per_channel([[0.3, 0.3]], [0.0, -1.0], [0.0, 1.0]),
           [[0., 0.29803923]])


def test_gradients_are_tfs():
    x = tf.constant(_X)
    _equal(Q.fake_quant_with_min_max_args_gradient(tf.ones_like(x), x, -1.0, 1.5),
           [0, 0, 0, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0])
    dx, dmin, dmax = Q.fake_quant_with_min_max_vars_gradient(tf.range(15, dtype=tf.float32),
                                                             x, -1.0, 1.5)
    _equal(dx, [0, 0, 0, 3, 4, 5, 6, 7, 0, 0, 0, 0, 0, 0, 0])
    assert (float(dmin), float(dmax)) == (17.0, 51.0)
    xc = tf.reshape(tf.constant(np.linspace(-3, 3, 24), tf.float32), [2, 3, 4])
    dx, dmin, dmax = Q.fake_quant_with_min_max_vars_per_channel_gradient(
        tf.ones_like(xc), xc, [-1., -2., 0.5, -0.1], [1., 0.5, 2., 0.1], num_bits=4)
    _equal(dx[:, :, 1], [[0, 1, 1], [1, 0, 0]])
    _equal(dmin, [2, 1, 3, 3])
    _equal(dmax, [2, 2, 2, 3])
    v, low, high = tf.Variable(x[:12]), tf.Variable(-1.0), tf.Variable(1.5)
    with tf.GradientTape() as tape:
        y = Q.fake_quant_with_min_max_vars(v, low, high) * tf.range(12, dtype=tf.float32)
    dv, dlow, dhigh = tape.gradient(y, [v, low, high])
    _equal(dv, [0, 0, 0, 3, 4, 5, 6, 7, 0, 0, 0, 0])
    assert (float(dlow), float(dhigh)) == (3.0, 38.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        g = Q.fake_quant_with_min_max_args_gradient(x, x)
    assert tape.gradient(g, x) is None  # TF declares the gradient ops not differentiable


@pytest.mark.parametrize("call, message", [
    (lambda: Q.fake_quant_with_min_max_args([1.], 1.0, 1.0),
     "min has to be smaller than max, was: 1 >= 1 [Op:FakeQuantWithMinMaxArgs]"),
    (lambda: Q.fake_quant_with_min_max_args([1.], 2.25, 1e-7),
     "min has to be smaller than max, was: 2.25 >= 1e-07 [Op:FakeQuantWithMinMaxArgs]"),
    (lambda: Q.fake_quant_with_min_max_args([1.], num_bits=17),
     "num_bits must be between 2 and 16, inclusive [Op:FakeQuantWithMinMaxArgs]"),
    (lambda: Q.fake_quant_with_min_max_vars([1.], [-1.0], [1.0]),
     "`min` must be rank 0 but is rank 1 [Op:FakeQuantWithMinMaxVars]"),
    (lambda: Q.fake_quant_with_min_max_vars_per_channel([[1.]], 0., 1.),
     "`min` must be rank 1 but is rank 0 [Op:FakeQuantWithMinMaxVarsPerChannel]"),
    (lambda: Q.fake_quant_with_min_max_vars_per_channel([1., 2.], [0., 0.], [1.]),
     "max has incorrect size, expected 2 was 1 [Op:FakeQuantWithMinMaxVarsPerChannel]"),
    (lambda: Q.fake_quant_with_min_max_vars_gradient([1.], [1., 2.], 0., 1.),
     "gradient and input must be the same size [Op:FakeQuantWithMinMaxVarsGradient]"),
])
def test_errors_are_tfs(call, message):
    with pytest.raises(errors.InvalidArgumentError) as info:
        call()
    assert op_text(info.value) == message


def test_float64_inputs_are_refused_as_tf():
    with pytest.raises(ValueError, match="Tensor conversion requested dtype float32"):
        Q.fake_quant_with_min_max_args(tf.constant([1.0], tf.float64))


def test_in_a_function_and_as_raw_op():
    f = tf.function(lambda a: Q.fake_quant_with_min_max_vars(a, -1., 1.),
                    input_signature=[tf.TensorSpec(None)])
    assert f.get_concrete_function().structured_outputs.shape.rank is None
    _equal(f(tf.constant([[0.3, 2.]])), [[0.29803923, 1.0039216]])
    _equal(tf.raw_ops.FakeQuantWithMinMaxArgs(inputs=[0.3, 7.0]), [0.28235295, 5.9764705])


_V = [-1.0, -0.37, 0.0, 0.3, 0.55, 1.25, 2.0, 3.5]


def test_quantize_and_dequantize_values_are_tfs():
    x = tf.constant(_V)
    _equal(Q.quantize_and_dequantize_v2(x, -1.0, 2.0),
           [-0.992126, -0.35826772, 0., 0.3031496, 0.5511811, 1.2401575, 2.011811, 3.5])
    _equal(Q.quantize_and_dequantize_v2(x, -1.0, 2.0, num_bits=3, range_given=True),
           [-1.3333334, -0.6666667, 0., 0., 0.6666667, 1.3333334, 2., 2.])
    _equal(Q.quantize_and_dequantize_v2(x, -1.0, 2.0, signed_input=False, num_bits=4,
                                        range_given=True),
           [0., 0., 0., 0.26666668, 0.53333336, 1.2, 2., 2.])
    _equal(Q.quantize_and_dequantize_v2(x, -1.0, 2.0, signed_input=False, num_bits=4),
           [-0.93333334, -0.46666667, 0., 0.23333333, 0.46666667, 1.1666666, 2.1, 3.5])
    _equal(Q.quantize_and_dequantize_v2(x, -1.0, 2.0, num_bits=2, round_mode="HALF_UP",
                                        narrow_range=True), [0, 0, 0, 0, 0, 0, 3.5, 3.5])
    _equal(Q.quantize_and_dequantize(x, -1.0, 2.0, num_bits=3),
           [-1.1666666, 0., 0., 0., 0., 1.1666666, 2.3333333, 3.5])
    got = Q.quantize_and_dequantize_v2(tf.constant([0.1, 0.7, -0.3], tf.float64), 0., 0.,
                                       num_bits=5)
    assert got.dtype == tf.float64
    np.testing.assert_allclose(got, [0.09333333, 0.7, -0.28], rtol=1e-7)
    _equal(Q.quantize_and_dequantize_v2(tf.zeros([3]), 0., 0.), [0, 0, 0])
    _equal(Q.quantize_and_dequantize_v2([0.2, 0.9], 0., 0., num_bits=3), [0.29999998, 0.9])
    m = tf.reshape(tf.constant(np.linspace(-2, 3, 12), tf.float32), [3, 4])
    _equal(Q.quantize_and_dequantize_v2(m, [0.] * 3, [0.] * 3, num_bits=3, axis=0),
           [[-2., -1.5, -1., -0.5], [0., 0.39393938, 0.78787875, 1.1818181], [2, 2, 3, 3]])
    # without range_given the range inputs go unread, whatever their shape
    _equal(Q.quantize_and_dequantize_v2(m, [0.] * 3, [0.] * 3)[0],
           [-2.007874, -1.535433, -1.0866141, -0.63779527])


def test_quantize_and_dequantize_gradients_are_tfs():
    v = tf.Variable(_V)
    with tf.GradientTape(persistent=True) as tape:
        y1 = Q.quantize_and_dequantize(v, -0.5, 1.0) * tf.range(8.)
        y2 = Q.quantize_and_dequantize_v2(v, -0.5, 1.0) * tf.range(8.)
    _equal(tape.gradient(y1, v), [0, 1, 2, 3, 4, 5, 6, 7])
    _equal(tape.gradient(y2, v), [0, 1, 2, 3, 4, 0, 0, 0])
    m = tf.Variable(tf.reshape(tf.constant(np.linspace(-2, 3, 12), tf.float32), [3, 4]))
    low, high = tf.Variable([-1., -0.5, 0., -2.]), tf.Variable([1., 2., 3., 0.5])
    with tf.GradientTape() as tape:
        y = Q.quantize_and_dequantize_v2(m, low, high, axis=1)
    dm, dlow, dhigh = tape.gradient(y, [m, low, high])
    _equal(dm, [[0, 0, 0, 1], [1, 1, 1, 0], [0, 0, 1, 0]])
    _equal(dlow, [0, 0, 0, 0])
    _equal(dhigh, [0, 0, 0, 0])


@pytest.mark.parametrize("kwargs, message", [
    ({"input_min": 2.0, "input_max": 1.0, "range_given": True},
     "Invalid range: input_min 2 > input_max 1"),
    ({"num_bits": 0}, "num_bits is out of range: 0 with signed_input_ 1"),
    ({"axis": 3}, "Shape must be at least rank 4 but is rank 1"),
    ({"input_min": [-1.0] * 8, "input_max": [2.0] * 8, "range_given": True, "axis": 0},
     "input_min must be a scalar."),  # (TF 2.21 refuses any range given with an axis)
])
def test_quantize_and_dequantize_errors_are_tfs(kwargs, message):
    args = {"input_min": -1.0, "input_max": 1.0, **kwargs}
    with pytest.raises(errors.InvalidArgumentError) as info:
        Q.quantize_and_dequantize_v2(tf.constant(_V), **args)
    assert op_text(info.value) == f"{message} [Op:QuantizeAndDequantizeV4]"
    with pytest.raises(errors.InvalidArgumentError, match="Value for attr 'round_mode' of "
                       "\"UP\" is not in the list of allowed values"):
        Q.quantize_and_dequantize_v2(tf.constant(_V), -1.0, 1.0, round_mode="UP")
    with pytest.raises(errors.InvalidArgumentError, match="Value for attr 'T' of int32"):
        Q.quantize_and_dequantize_v2(tf.constant([1, 2]), 0, 3)


def test_quantized_tensors_print_and_give_their_integers_as_tf():
    # a quantized value is its integers to NumPy and in print, as TF's (a record array was)
    q = tf.constant([1, 2], tf.qint8)
    assert str(q) == "tf.Tensor([1 2], shape=(2,), dtype=qint8)"
    assert repr(q) == "<tf.Tensor: shape=(2,), dtype=qint8, numpy=array([1, 2], dtype=int8)>"
    assert str(tf.constant([[1, 200]], tf.quint8)) == (
        "tf.Tensor([[  1 200]], shape=(1, 2), dtype=quint8)")
    assert str(tf.constant(5, tf.qint32)) == "tf.Tensor(5, shape=(), dtype=qint32)"
    assert q.numpy().dtype == np.int8 and np.asarray(q).tolist() == [1, 2]
    assert repr(tf.Variable(q)) == (
        "<tf.Variable 'Variable:0' shape=(2,) dtype=qint8, numpy=array([1, 2], dtype=int8)>")
    assert tf.cast(tf.constant([1.5, 2.0]), tf.qint8).numpy().tolist() == [1, 2]


_INTEGERS = {tf.quint8: tf.uint8, tf.qint8: tf.int8, tf.qint16: tf.int16}
_QX = tf.constant([-1.0, 0.0, 0.3, 1.7, 2.5, 6.0, 10.0])


@pytest.mark.parametrize("mode, T, round_mode, narrow_range, want, low", [
    # TF 2.21's values (its CPU kernels, oneDNN's where TF takes them) for these calls
    ("MIN_COMBINED", tf.quint8, "HALF_AWAY_FROM_ZERO", False, [0, 36, 47, 98, 127, 255, 255], -1.0),
    ("MIN_COMBINED", tf.qint8, "HALF_AWAY_FROM_ZERO", True, [-128, -92, -81, -30, -1, 127, 127],
     -1.0),
    ("MIN_COMBINED", tf.qint16, "HALF_AWAY_FROM_ZERO", False,
     [-32768, -23406, -20597, -7490, -1, 32767, 32767], -1.0),
    ("MIN_FIRST", tf.quint8, "HALF_AWAY_FROM_ZERO", False, [0, 36, 47, 98, 128, 255, 255], -1.0),
    ("MIN_FIRST", tf.quint8, "HALF_AWAY_FROM_ZERO", True, [0, 36, 47, 98, 127, 255, 255], -1.0),
    ("MIN_FIRST", tf.qint8, "HALF_AWAY_FROM_ZERO", False, [-128, -92, -81, -30, -1, 127, 127],
     -1.0),
    ("SCALED", tf.quint8, "HALF_AWAY_FROM_ZERO", True, [1, 1, 13, 72, 106, 255, 255],
     0.0235294122248888),
    ("SCALED", tf.qint8, "HALF_AWAY_FROM_ZERO", False, [-21, 0, 6, 36, 53, 127, 127],
     -6.047244071960449),
    ("SCALED", tf.qint8, "HALF_TO_EVEN", False, [-21, 0, 6, 36, 53, 127, 127], -6.0),
    ("SCALED", tf.qint16, "HALF_AWAY_FROM_ZERO", False,
     [-5461, 0, 1638, 9284, 13653, 32767, 32767], -6.00018310546875)])
def test_quantize_gives_tfs_integers_and_range(mode, T, round_mode, narrow_range, want, low):
    q = tf.quantization.quantize(_QX, -1.0, 6.0, T, mode=mode, round_mode=round_mode,
                                 narrow_range=narrow_range)
    assert q.output.dtype == T
    assert tf.bitcast(q.output, _INTEGERS[T]).numpy().tolist() == want
    assert float(q.output_min) == np.float32(low) and float(q.output_max) == 6.0


def test_dequantize_gives_tfs_values():
    x = tf.constant([-1.0, -0.5, 0.0, 0.3, 1.0, 1.5, 2.5, 3.3, 4.9, 6.0])
    for T, mode, want in [
            (tf.quint8, "MIN_COMBINED", [-1.0, -0.5058823823928833, -0.011764705181121826,
                                         0.2901960611343384, 1.0039215087890625,
                                         1.4980392456054688, 2.486274480819702,
                                         3.3098039627075195, 4.901960849761963, 6.0]),
            (tf.quint8, "MIN_FIRST", [-0.9882352948188782, -0.4941176474094391, 0.0,
                                      0.3019607663154602, 1.015686273574829,
                                      1.5098040103912354, 2.5254902839660645,
                                      3.321568727493286, 4.91372537612915, 6.0117645263671875]),
            (tf.qint8, "MIN_FIRST", [-0.9882352352142334, -0.49411749839782715, 0.0,
                                     0.30196094512939453, 0.988235354423523, 1.5098040103912354,
                                     2.4980392456054688, 3.2941176891326904, 4.913725852966309,
                                     6.0117645263671875]),
            (tf.qint8, "SCALED", [-0.9921259880065918, -0.5196850299835205, 0.0,
                                  0.28346455097198486, 0.9921259880065918, 1.5118110179901123,
                                  2.503937005996704, 3.307086706161499, 4.91338586807251, 6.0])]:
        q = tf.quantization.quantize(x, -1.0, 6.0, T, mode=mode)
        got = tf.quantization.dequantize(q.output, q.output_min, q.output_max, mode=mode)
        assert got.numpy().tolist() == want, (T, mode)


def test_quantize_traced_and_its_errors_are_tfs():
    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def round_trip(x):
        q = tf.quantization.quantize(x, -1.0, 6.0, tf.quint8)
        return tf.quantization.dequantize(*q)
    assert round_trip(tf.constant([0.3, 6.0])).numpy().tolist() == [
        0.2901960611343384, 6.0]
    with pytest.raises(errors.InvalidArgumentError,
                       match="Round mode 'HALF_TO_EVEN' only supported for mode 'SCALED', but "
                             "mode is 'MIN_COMBINED'."):
        tf.quantization.quantize(_QX, -1.0, 6.0, tf.quint8, round_mode="HALF_TO_EVEN")
    with pytest.raises(errors.InvalidArgumentError, match="Value for attr 'mode' of \"BAD\""):
        tf.quantization.quantize(_QX, -1.0, 6.0, tf.quint8, mode="BAD")
    q = tf.quantization.quantize([0.0, 1.0, 2.0], 0.0, 2.0, tf.quint8)
    assert type(q).__name__ == "QuantizeV2" and q.output.numpy().tolist() == [0, 128, 255]
    assert tf.bitcast(tf.constant([1, -2], tf.int8), tf.qint8).numpy().tolist() == [1, -2]


def test_quantize_and_dequantize_have_no_gradient_as_in_tf():
    x, low = tf.constant([0.5]), tf.constant(-1.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, low])
        q = tf.quantization.quantize(x, low, 6.0, tf.quint8)
        back = tf.quantization.dequantize(q.output, low, q.output_max)
    for target, source, op in [(q.output_min, x, "QuantizeV2"), (back, low, "Dequantize")]:
        with pytest.raises(LookupError, match=f"gradient registry has no entry for: {op}"):
            tape.gradient(target, source)


def test_quantize_per_channel_is_tfs():
    x = tf.constant([[-1.0, 0.5, 3.0], [2.0, -0.25, 7.0]])
    low, high = [-1.0, -0.5, 0.0], [2.0, 1.0, 6.0]
    q = tf.quantization.quantize(x, low, high, tf.qint8, mode="SCALED", axis=1)
    assert tf.bitcast(q.output, tf.int8).numpy().tolist() == [[-64, 64, 64], [127, -32, 127]]
    assert q.output_min.numpy().tolist() == [-2.0157480239868164, -1.0078740119934082,
                                             -6.047244071960449]
    back = tf.quantization.dequantize(*q, mode="SCALED", axis=1)
    assert back.numpy().tolist() == [[-1.0078740119934082, 0.5039370059967041, 3.0236220359802246],
                                     [2.0, -0.25196850299835205, 6.0]]
    with pytest.raises(errors.UnimplementedError, match="MIN_FIRST mode is not implemented"):
        tf.quantization.quantize(x, low, high, tf.qint8, mode="MIN_FIRST", axis=1)


def test_quantize_and_dequantize_v3_raw_op_and_kernel_dtypes_are_tfs():
    x = tf.constant([-3.0, -1.0, -0.55, -0.1, 0.26, 0.5, 1.49, 7.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        out = tf.raw_ops.QuantizeAndDequantizeV3(input=x, input_min=-1.0, input_max=2.2,
                                                 num_bits=4)
    assert out.numpy().tolist() == [
        -2.5142858028411865, -0.9428571462631226, -0.6285714507102966, -0.0,
        0.3142857253551483, 0.6285714507102966, 1.571428656578064, 2.200000047683716]
    assert tape.gradient(out, x).numpy().tolist() == [1.0] * 8  # (passed through everywhere)
    # TF's CPU has no half or bfloat16 kernel (they computed)
    with pytest.raises(errors.NotFoundError, match="QuantizeAndDequantizeV4"):
        Q.quantize_and_dequantize_v2(tf.constant([0.5], tf.float16), tf.constant(-1.0, tf.float16),
                                     tf.constant(2.0, tf.float16), range_given=True)


def test_quantized_concat_moves_inputs_onto_one_range_as_tf():
    a = Q.quantize([[0.0, 1.0], [2.0, 3.0]], 0.0, 3.0, tf.quint8)
    b = Q.quantize([[-1.0, 5.0]], -1.0, 5.0, tf.quint8)
    c = Q.quantize([[0.5, 2.5]], 0.0, 3.0, tf.quint8)

    def joined(*qs, low=None, high=None):
        out = Q.quantized_concat(0, [q.output for q in qs],
                                 low or [q.output_min for q in qs],
                                 high or [q.output_max for q in qs])
        return (tf.bitcast(out.output, tf.uint8).numpy().tolist(), float(out.output_min),
                float(out.output_max))
    assert joined(a, c) == ([[0, 85], [170, 255], [43, 213]], 0.0, 3.0)
    assert joined(a, b) == ([[43, 86], [128, 171], [0, 255]], -1.0, 5.0)
    # the output's range holds 0
    assert joined(a, c, low=[1.0, 1.0], high=[3.0, 4.0]) == (
        [[64, 106], [149, 191], [96, 224]], 0.0, 4.0)
    for dim, message in [
            (2, r"ConcatOp : Expected concatenating dimensions in the range \[0, 2\), but got 2"),
            (1, r"ConcatOp : Dimensions of inputs should match: shape\[0\] = \[2,2\] vs. "
                r"shape\[1\] = \[1,2\]")]:
        with pytest.raises(errors.InvalidArgumentError, match=message):
            Q.quantized_concat(dim, [a.output, b.output], [0.0, -1.0], [3.0, 5.0])
    with pytest.raises(errors.NotFoundError, match=r"QuantizedConcat\[T=DT_QINT8\]"):
        Q.quantized_concat(0, [tf.constant([1], tf.qint8)] * 2, [0.0, 0.0], [1.0, 1.0])


def test_quantize_and_dequantize_refuse_what_tf_refuses():
    for kwargs, message in [
            (dict(input=[0.5], min_range=3.0, max_range=1.0),
             "input_max_range must be larger than input_min_range."),
            (dict(input=[0.5, 1.0], min_range=[0.0, 0.0], max_range=[2.0, 2.0]),
             "If axis is not specified, min_range must contain a single float element, but it "
             "contains 2 elements"),
            (dict(input=tf.constant([0.5], tf.float64), min_range=0.0, max_range=2.0),
             r"input #0\(zero-based\) was expected to be a float tensor but is a double tensor")]:
        with pytest.raises(errors.InvalidArgumentError, match=message):
            Q.quantize(T=tf.quint8, **kwargs)
    with pytest.raises(errors.InvalidArgumentError, match="Value for attr 'T' of int8"):
        Q.quantize([0.5], 0.0, 2.0, tf.int8)
    q = Q.quantize(tf.Variable([0.5, 1.5]), 0.0, 2.0, tf.quint8)
    assert q.output.numpy().tolist() == [64, 191]
    assert Q.quantize(tf.zeros([0]), 0.0, 2.0, tf.quint8).output.shape == [0]
    assert Q.dequantize(*q, dtype=tf.bfloat16).dtype == tf.bfloat16
    with pytest.raises(errors.InvalidArgumentError, match="Value for attr 'dtype' of half"):
        Q.dequantize(*q, dtype=tf.float16)
    with pytest.raises(errors.InvalidArgumentError, match="Value for attr 'T' of float"):
        Q.dequantize(tf.constant([1.0]), 0.0, 1.0)

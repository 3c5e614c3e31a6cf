"""tf.signal.fftnd, ifftnd, rfftnd, irfftnd and their raw ops FFTND, IFFTND, RFFTND, IRFFTND.

TF 2.21 has GPU kernels only for these (on a CPU every call raises NotFoundError), limited
to the 1-3 innermost axes in order; the values here are NumPy's, which TF's GPU kernels
agree with where they run.  Wrapper-level behaviour (signatures, dtype errors, `norm`) is
TF's, checked in TF 2.21.
"""
import inspect

import numpy as np
import pytest

import eagerflow as tf
from eagerflow import errors
from tests.op_errors import op_text

S = tf.signal
_RNG = np.random.default_rng(3)
_X = _RNG.standard_normal((2, 3, 5))
_C = _X + 1j * _RNG.standard_normal((2, 3, 5))
_FNS = {"fftnd": (S.fftnd, np.fft.fftn, _C), "ifftnd": (S.ifftnd, np.fft.ifftn, _C),
        "rfftnd": (S.rfftnd, np.fft.rfftn, _X), "irfftnd": (S.irfftnd, np.fft.irfftn, _C)}


def test_signatures_are_tfs():
    for name in _FNS:
        assert str(inspect.signature(getattr(S, name))) == (
            "(input_tensor, fft_length=None, axes=None, norm=None, name=None)")


@pytest.mark.parametrize("name", sorted(_FNS))
@pytest.mark.parametrize("length, axes", [
    (None, None), (None, [0, 2]), ([4, 7], [0, 2]), ([1, 2], [-1, 0]), ([6], [1]),
    ([3, 2, 4], [0, 1, 2])])
def test_values_crop_pad_and_negative_axes(name, length, axes):
    fn, ref, x = _FNS[name]
    got = fn(tf.constant(x), length, axes)
    want = ref(x, s=length, axes=axes if axes is not None else [0, 1, 2])
    assert got.shape == want.shape
    assert got.dtype == tf.as_dtype(want.dtype)
    np.testing.assert_allclose(got, want, atol=1e-10)


def test_dtypes():
    assert S.fftnd(tf.constant(_C, tf.complex64)).dtype == tf.complex64
    assert S.ifftnd(tf.constant(_C)).dtype == tf.complex128
    assert S.rfftnd(tf.constant(_X, tf.float32)).dtype == tf.complex64
    assert S.rfftnd(tf.constant(_X)).dtype == tf.complex128
    assert S.irfftnd(tf.constant(_C, tf.complex64)).dtype == tf.float32
    assert S.irfftnd(tf.constant(_C)).dtype == tf.float64
    # as TF converts them: a NumPy array to the wrapper's preferred dtype
    assert S.rfftnd(np.array([1., 2., 3.])).dtype == tf.complex64
    assert S.fftnd(np.array([1., 2., 3.])).dtype == tf.complex64


@pytest.mark.parametrize("norm", ["ortho", "forward", "backward"])
def test_norm(norm):
    for name, (fn, ref, x) in _FNS.items():
        np.testing.assert_allclose(fn(tf.constant(x), axes=[1, 2], norm=norm),
                                   ref(x, axes=[1, 2], norm=norm), atol=1e-10)


@pytest.mark.parametrize("call, cls, message", [
    (lambda: S.fftnd(tf.constant([1., 2.])), errors.InvalidArgumentError,
     "Value for attr 'Tcomplex' of float is not in the list of allowed values: complex64, "
     "complex128\n\t; NodeDef: {{node FFTND}}; Op<name=FFTND> [Op:FFTND]"),
    (lambda: S.rfftnd(tf.constant([1j])), ValueError,
     "RFFT requires tf.float32 or tf.float64 inputs, got: tf.Tensor([0.+1.j], shape=(1,), "
     "dtype=complex128)"),
    (lambda: S.irfftnd(tf.constant([1.])), ValueError,
     "IRFFT requires tf.complex64 or tf.complex128 inputs, got: tf.Tensor([1.], shape=(1,), "
     "dtype=float32)"),
    (lambda: S.fftnd(tf.ones([2, 2], tf.complex64), [2, 2], [0]),
     errors.InvalidArgumentError, "fft_length must have shape [1], but got: 2. [Op:FFTND]"),
    (lambda: S.rfftnd(tf.ones([2, 2]), [-1], [0]), errors.InvalidArgumentError,
     "fft_length[0] must >= 0, but got: -1 [Op:RFFTND]"),
    (lambda: S.fftnd(tf.ones([2, 2], tf.complex64), axes=[0, 1, 2]), ValueError,
     "Shape (2, 2) must have rank at least 3"),
    (lambda: tf.raw_ops.FFTND(input=tf.ones([2], tf.complex64), fft_length=[2, 2],
                              axes=[0, 1]),
     errors.InvalidArgumentError, "Input must have rank of at least 2 but got: [2] [Op:FFTND]"),
])
def test_errors(call, cls, message):
    with pytest.raises(cls) as info:
        call()
    assert op_text(info.value) == message


def test_raw_ops():
    x = tf.constant(_X)
    got = tf.raw_ops.RFFTND(input=x, fft_length=[3, 4], axes=[-2, -1], Tcomplex=tf.complex128)
    np.testing.assert_allclose(got, np.fft.rfftn(_X, s=[3, 4], axes=[-2, -1]), atol=1e-10)
    got = tf.raw_ops.IRFFTND(input=tf.constant(_C), fft_length=[5], axes=[2],
                             Treal=tf.float64)
    np.testing.assert_allclose(got, np.fft.irfft(_C, 5), atol=1e-10)
    got = tf.raw_ops.IFFTND(input=tf.constant(_C), fft_length=[1, 3], axes=[1, 2])
    np.testing.assert_allclose(got, np.fft.ifftn(_C, s=[1, 3], axes=[1, 2]), atol=1e-10)


def test_in_a_function_with_unknown_sizes_and_run_time_lengths():
    spec = [tf.TensorSpec([None, 3, None], tf.float64), tf.TensorSpec([2], tf.int32)]
    shapes = []

    @tf.function(input_signature=spec)
    def f(x, n):
        y = S.rfftnd(x, axes=[1, 2])
        shapes.append(y.shape)
        return y, S.irfftnd(tf.cast(x, tf.complex128), n, axes=[0, 2])
    y, z = f(tf.constant(_X), tf.constant([3, 7]))
    assert shapes[0].as_list() == [None, 3, None]
    np.testing.assert_allclose(y, np.fft.rfftn(_X, axes=[1, 2]), atol=1e-10)
    np.testing.assert_allclose(z, np.fft.irfftn(_X.astype(complex), s=[3, 7], axes=[0, 2]),
                               atol=1e-10)
    g = tf.function(lambda x: S.fftnd(x, [4, 6], axes=[0, 2]))
    concrete = g.get_concrete_function(tf.TensorSpec([2, 3, 5], tf.complex64))
    assert concrete.structured_outputs.shape.as_list() == [4, 3, 6]


def test_graph_def_takes_lengths_and_axes_as_inputs():
    concrete = tf.function(lambda x: S.rfftnd(x, [4, 6], axes=[0, 2])).get_concrete_function(
        tf.TensorSpec([2, 3, 5]))
    node, = [n for n in concrete.graph.as_graph_def().node if n.op == "RFFTND"]
    assert list(node.input) == ["x", "RFFTND/fft_length", "RFFTND/axes"]
    assert sorted(node.attr) == ["Tcomplex", "Treal"]


def test_gradients_of_a_variable():
    v = tf.Variable(_X)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.abs(S.rfftnd(v, [4, 6], axes=[0, 2])) ** 2)
    # Parseval: the full spectrum's energy is n times the padded signal's; the half
    # spectrum counts the mirrored bins once, so compare against NumPy's finite differences.
    grad = tape.gradient(loss, v).numpy()

    def energy(x):
        return np.sum(np.abs(np.fft.rfftn(x, s=[4, 6], axes=[0, 2])) ** 2)
    eps, i = 1e-6, (1, 2, 3)
    bumped = _X.copy()
    bumped[i] += eps
    assert abs(grad[i] - (energy(bumped) - energy(_X)) / eps) < 1e-3


def test_top_level_ops_take_every_argument():
    # TF 2.21 exports the raw ops as tf.fftnd, tf.ifftnd, tf.rfftnd, tf.irfftnd
    assert str(inspect.signature(tf.fftnd)) == "(input, fft_length, axes, name=None)"
    assert str(inspect.signature(tf.irfftnd)) == (
        "(input, fft_length, axes, Treal=tf.float32, name=None)")
    np.testing.assert_allclose(tf.fftnd(tf.constant(_C), [3, 2], [-2, -1]),
                               np.fft.fftn(_C, s=[3, 2], axes=[-2, -1]), atol=1e-10)
    np.testing.assert_allclose(tf.ifftnd(tf.constant(_C), [4], [0]), np.fft.ifftn(_C, s=[4], axes=[0]),
                               atol=1e-10)
    got = tf.rfftnd(tf.constant(_X), [3, 6], [1, 2], Tcomplex=tf.complex128)
    np.testing.assert_allclose(got, np.fft.rfftn(_X, s=[3, 6], axes=[1, 2]), atol=1e-10)
    got = tf.irfftnd(tf.constant(_C), [3, 6], [1, 2], Treal=tf.float64)
    np.testing.assert_allclose(got, np.fft.irfftn(_C, s=[3, 6], axes=[1, 2]), atol=1e-10)
    with pytest.raises(errors.InvalidArgumentError, match="Wrong types for forward real FFT"):
        tf.rfftnd(tf.constant(_X), [3], [2])  # float64 input, complex64 output asked


def test_quantized_dtypes_under_tf_dtypes():
    assert tf.dtypes.qint8 is tf.qint8 and tf.dtypes.quint16 is tf.quint16
    assert {tf.qint8, tf.quint8, tf.qint16, tf.quint16, tf.qint32} <= tf.dtypes.QUANTIZED_DTYPES

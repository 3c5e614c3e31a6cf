"""`tf.experimental.numpy`: NumPy's functions and dtype rules on tensors (expected values
from TF 2.21)."""
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import eagerflow as tf
import eagerflow.experimental.numpy as tnp


def _r(t):
    return repr(t)


def test_default_dtypes_are_numpys():
    assert _r(tnp.arange(5)) == ("<tf.Tensor: shape=(5,), dtype=int64, numpy=array([0, 1, 2, "
                                 "3, 4])>")
    assert _r(tnp.linspace(0, 1, 5)) == ("<tf.Tensor: shape=(5,), dtype=float64, numpy=array("
                                         "[0.  , 0.25, 0.5 , 0.75, 1.  ])>")
    assert tnp.ones((2, 3)).dtype == tf.float64
    assert tnp.zeros([2], dtype=tnp.int32).dtype == tf.int32
    assert tnp.asarray([1, 2, 3]).dtype == tf.int64
    assert tnp.asarray(1.5).dtype == tf.float64
    assert tnp.asarray(tf.constant([1, 2])).dtype == tf.int32
    assert tnp.float32 is np.float32 and tnp.ndarray is tf.Tensor
    assert isinstance(tnp.ones(2), tnp.ndarray)


def test_promotion_of_arrays_and_python_scalars():
    a = tnp.asarray([1, 2], dtype=tnp.int32)
    f = tnp.asarray([1., 2.], dtype=tnp.float32)
    assert tnp.add(a, 1).dtype == tf.int32
    assert tnp.add(f, 1.5).dtype == tf.float32
    assert tnp.add(a, 1.5).dtype == tf.float64
    assert tnp.add(a, f).dtype == tf.float64
    assert tnp.true_divide(a, a).dtype == tf.float64
    assert tnp.mean(a).dtype == tf.float64
    assert tnp.sum(a).dtype == tf.int64
    assert tnp.sqrt(f).dtype == tf.float32
    assert tnp.result_type(tnp.int32, tnp.float32) == tf.float64
    assert _r(tnp.add(tnp.asarray([1, 2]), 1.5)) == (
        "<tf.Tensor: shape=(2,), dtype=float64, numpy=array([2.5, 3.5])>")


def test_common_functions():
    assert tnp.reshape(tnp.arange(6), (2, 3)).shape == [2, 3]
    assert tnp.sum(tnp.ones((2, 3)), axis=0).numpy().tolist() == [2., 2., 2.]
    assert tnp.dot(tnp.ones((2, 3)), tnp.ones((3,))).numpy().tolist() == [3., 3.]
    assert tnp.where(tnp.asarray([True, False]), 1, 2).numpy().tolist() == [1, 2]
    assert tnp.clip(tnp.arange(5), 1, 3).numpy().tolist() == [1, 1, 2, 3, 3]
    assert tnp.cumsum(tnp.arange(5)).numpy().tolist() == [0, 1, 3, 6, 10]
    assert tnp.argsort(tnp.asarray([3, 1, 2])).numpy().tolist() == [1, 2, 0]
    assert tnp.moveaxis(tnp.ones((1, 2, 3)), 0, -1).shape == [2, 3, 1]
    assert tnp.swapaxes(tnp.ones((1, 3)), 0, 1).shape == [3, 1]
    assert [t.numpy().tolist() for t in tnp.nonzero(tnp.asarray([0, 1, 2]))] == [[1, 2]]
    assert float(tnp.std(tnp.asarray([1., 2., 3.]))) == pytest.approx(0.816496580927726)
    assert float(tnp.var(tnp.asarray([1., 2., 3.]), ddof=1)) == 1.0
    assert float(tnp.average(tnp.asarray([1., 2.]), weights=tnp.asarray([1., 3.]))) == 1.75
    assert tnp.triu(tnp.ones((2, 2))).numpy().tolist() == [[1., 1.], [0., 1.]]
    assert tnp.diff(tnp.asarray([1, 4, 9])).numpy().tolist() == [3, 5]
    assert tnp.roll(tnp.arange(3), 1).numpy().tolist() == [2, 0, 1]
    assert tnp.size(tnp.ones((2, 3))) == 6 and tnp.ndim(tnp.ones((2, 3))) == 2
    assert bool(tnp.allclose(tnp.ones(2), tnp.ones(2)))
    assert tnp.random.rand(2, 3).shape == [2, 3]
    assert tnp.random.randn(2).dtype == tf.float64
    assert tnp.random.randint(0, 5, size=(3,)).dtype == tf.int64


def test_in_a_function_and_under_a_tape():
    @tf.function
    def f(a):
        return tnp.sum(tnp.reshape(tnp.square(a), [-1]))

    assert float(f(tnp.ones((2, 3)))) == 6.0
    v = tf.Variable([1., 2.], dtype=tf.float64)
    with tf.GradientTape() as t:
        y = tnp.sum(tnp.multiply(v, v))
    assert t.gradient(y, v).numpy().tolist() == [2., 4.]


_NUMPY_BEHAVIOR = textwrap.dedent("""
    import numpy as np
    import eagerflow as tf
    import eagerflow.experimental.numpy as tnp
    tnp.experimental_enable_numpy_behavior()
    x = tf.constant([[1., 2.], [3., 4.]])
    print(x.reshape(4).shape, x.reshape(1, 4).shape, x.T.numpy().tolist())
    print(x.astype(np.int32).dtype, x.ravel().shape, repr(x.size), x.tolist())
    print(x.mean(axis=0).numpy().tolist(), float(x.max()), hasattr(x, "sum"))
    print((tf.constant([1], tf.int32) + tf.constant([1.], tf.float32)).dtype)
    print((tf.constant([1], tf.int32) + 1.5).dtype, (tf.constant([1.], tf.float32) + 1.5).dtype)
    print((tf.constant([1.], tf.float32) + tf.constant([1.], tf.float64)).dtype)
    y = tf.constant([[1., 2.], [3., 4.], [5., 6.]])
    print(y[[0, 2]].numpy().tolist(), y[y[:, 0] > 2].numpy().tolist())
    print(y[tf.constant([2, 0])].numpy().tolist(), y[1].numpy().tolist())
    print((tf.constant([1], tf.int32) < 1.5).numpy().tolist())
""")


def _printed_by(script):
    """The lines `script` prints in a fresh interpreter (numpy behaviour is process-wide)."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         env=env, timeout=300)
    assert out.returncode == 0, out.stderr
    return out.stdout.splitlines()


def test_experimental_enable_numpy_behavior():
    assert _printed_by(_NUMPY_BEHAVIOR) == [
        "(4,) (1, 4) [[1.0, 3.0], [2.0, 4.0]]",
        "<dtype: 'int32'> (4,) np.int64(4) [[1.0, 2.0], [3.0, 4.0]]",
        "[2.0, 3.0] 4.0 False",
        "<dtype: 'float64'>",
        "<dtype: 'float64'> <dtype: 'float32'>",
        "<dtype: 'float64'>",
        "[[1.0, 2.0], [5.0, 6.0]] [[3.0, 4.0], [5.0, 6.0]]",
        "[[5.0, 6.0], [1.0, 2.0]] [3.0, 4.0]",
        "[True]",
    ]


_PREFER_FLOAT32 = textwrap.dedent("""
    import numpy as np
    import eagerflow as tf
    import eagerflow.experimental.numpy as tnp
    tnp.experimental_enable_numpy_behavior(prefer_float32=True)
    print(tnp.array([1.5, 2]).dtype, tnp.asarray([1j]).dtype, tnp.array(np.array([1.5])).dtype)
    print(tnp.linspace(0, 1, 3).dtype, tnp.arange(0.0, 2.0).dtype, tnp.full([2], 1.5).dtype)
    print((np.float64(1.5) + tf.constant([1.0])).dtype, (tf.constant([1]) + 1.5).dtype)
    print(tnp.where(tnp.array([True, False]), 1, 2.5).dtype, tnp.zeros(2).dtype)
""")


def test_numpy_behavior_preferring_float32():
    # TF 2.21's dtypes: Python floats (and NumPy float64 scalars) count as float32
    assert _printed_by(_PREFER_FLOAT32) == [
        "<dtype: 'float32'> <dtype: 'complex64'> <dtype: 'float64'>",
        "<dtype: 'float32'> <dtype: 'float32'> <dtype: 'float32'>",
        "<dtype: 'float32'> <dtype: 'float64'>",
        "<dtype: 'float32'> <dtype: 'float64'>",
    ]


def test_numpy_methods_before_numpy_behavior_is_enabled():
    with pytest.raises(AttributeError, match=r"EagerTensor object has no attribute 'reshape'. "
                                             r"\n        If you are looking for numpy-related "
                                             r"methods, please run the following:\n        "
                                             r"tf.experimental.numpy."
                                             r"experimental_enable_numpy_behavior\(\)"):
        tf.constant([1, 2]).reshape((2, 1))
    # round() too: TF's tensors round through `astype` (a TypeError for a Variable)
    with pytest.raises(AttributeError, match=r"EagerTensor object has no attribute 'astype'"):
        round(tf.constant(3.7), 2)
    with pytest.raises(TypeError, match="doesn't define __round__"):
        round(tf.Variable(3.7))
    with pytest.raises(AttributeError, match="'EagerTensor' object has no attribute 'foo'"):
        tf.constant(1).foo
    assert getattr(tf.constant(1), "_missing", None) is None


def test_less_common_functions():
    assert tnp.pad(tnp.ones((2, 2)), ((1, 0), (0, 2)), "constant",
                   constant_values=5).numpy().tolist() == [[5., 5., 5., 5.], [1., 1., 5., 5.],
                                                          [1., 1., 5., 5.]]
    assert tnp.kron(tnp.eye(2), tnp.ones((2, 2))).shape == [4, 4]
    assert tnp.gcd(tnp.asarray([12, 0, -8]), tnp.asarray([18, 5, 12])).numpy().tolist() == [
        6, 5, 4]
    assert tnp.lcm(tnp.asarray([4, 0, -3]), tnp.asarray([6, 5, 4])).numpy().tolist() == [
        12, 0, 12]
    assert tnp.float_power(2, 3).dtype == tf.int64  # (as TF: the operands' promoted dtype)
    assert float(tnp.logaddexp(1., 2.)) == pytest.approx(2.3132616875182228)
    assert [a.shape for a in tnp.broadcast_arrays(tnp.ones((2, 1)), tnp.ones(3))] == [
        [2, 3], [2, 3]]
    assert float(tnp.nansum(tnp.asarray([1., float("nan")]))) == 1.0
    assert tnp.promote_types(tnp.int32, tnp.float32) == np.dtype("float64")
    assert tnp.diag_indices(2)[0].dtype == tf.int32
    assert tnp.rot90(tnp.asarray([[1, 2], [3, 4]]), 3).numpy().tolist() == [[3, 1], [4, 2]]
    assert tnp.polyval(tnp.asarray([1, 0, -1]), tnp.asarray([1, 2, 3])).numpy().tolist() == [
        0, 3, 8]
    assert tnp.sinc(tnp.asarray([0., 0.5])).numpy().tolist() == pytest.approx(
        [1.0, 0.6366197723675814])
    assert tnp.int_ is np.int64 and tnp.float_ is np.float64


def test_random_and_poisson():
    tnp.random.seed(1)
    r = tnp.random.random((2, 3))
    assert r.dtype == tf.float64 and r.shape == (2, 3)
    assert bool(tf.reduce_all((r >= 0) & (r < 1)))
    assert tnp.random.random().shape == ()
    p = tnp.random.poisson(3.0, (400,))
    assert p.dtype == tf.int64 and p.shape == (400,)
    assert 2.5 < float(tf.reduce_mean(tf.cast(p, tf.float64))) < 3.5


_ADVANCED_INDEXING = textwrap.dedent("""
    import eagerflow as tf
    import eagerflow.experimental.numpy as tnp
    tnp.experimental_enable_numpy_behavior()
    x = tnp.arange(24).reshape(2, 3, 4)
    print(x[:, (True, False, True)].numpy().tolist())
    print(x[1, (0, 0, 1), tnp.asarray([0, 1, 1])].numpy().tolist())
    print(x[[0, 1], :, [1, 2]].shape, x[..., [3]].shape, x[1, tnp.newaxis, 1:3, ...].shape)
    print(x[1, :, [0, 1]].shape, x[:, 1, [0, 1]].shape, x[1, [0, 1]].shape)
    cols = tf.function(lambda a: a[:, [0, 2]], input_signature=[tf.TensorSpec([None, 3])])
    print(cols(tf.reshape(tf.range(6.), [2, 3])).numpy().tolist())
    v = tf.Variable(tf.ones([2, 3]))
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.convert_to_tensor(v)[:, [0, 0, 2]])
    print(tape.gradient(y, v).numpy().tolist())
    print((tf.constant([1, 2], tf.int8) * 300).numpy().tolist(),
          (300 + tf.constant([1], tf.uint8)).numpy().tolist(), int(tnp.asarray(300, tnp.int8)))
""")


def test_numpy_behavior_advanced_index_tuples_and_wrapping_ints():
    # TF's NumPy indexing: arrays of ints or bools mixed with ints, slices and newaxis; a
    # Python int past an operand's range wraps around
    assert _printed_by(_ADVANCED_INDEXING) == [
        "[[[0, 1, 2, 3], [8, 9, 10, 11]], [[12, 13, 14, 15], [20, 21, 22, 23]]]",
        "[12, 13, 17]",
        "(2, 3) (2, 3, 1) (1, 2, 4)",
        "(2, 3) (2, 2) (2, 4)",
        "[[0.0, 2.0], [3.0, 5.0]]",
        "[[2.0, 0.0, 1.0], [2.0, 0.0, 1.0]]",
        "[44, 88] [45] 44",
    ]


def test_average_weights_run_along_the_axis():
    import eagerflow.experimental.numpy as tnp
    a = tnp.asarray([[1, 2], [3, 4]], dtype=tnp.int32)
    assert tnp.average(a, axis=0, weights=[1, 3]).numpy().tolist() == [2.5, 3.5]
    assert tnp.average(a, axis=1, weights=[1, 3]).numpy().tolist() == [1.75, 3.75]
    avg, total = tnp.average(a, axis=-2, weights=[1, 3], returned=True)
    assert avg.numpy().tolist() == [2.5, 3.5] and total.numpy().tolist() == [4.0, 4.0]


def test_sort_with_no_axis_sorts_the_flattened_array():
    import eagerflow.experimental.numpy as tnp
    assert tnp.sort(tnp.asarray([[4, 1], [3, 2]]), axis=None).numpy().tolist() == [1, 2, 3, 4]


def test_arange_of_python_floats_counts_in_float32_as_tf():
    import eagerflow.experimental.numpy as tnp
    # TF's tf.range of the Python floats (float32), cast to float64: its values and length
    assert tnp.arange(1, 2.2, 0.4).numpy().tolist() == [1.0, 1.399999976158142,
                                                         1.7999999523162842]
    assert tnp.arange(0, 1, 0.3).dtype == tnp.float64
    assert tnp.arange(5, 0, -2).numpy().tolist() == [5, 3, 1]
    assert tnp.arange(5, 1).shape == (0,)
    with pytest.raises(ValueError, match="step must be non-zero"):
        tnp.arange(0, 1, 0)


def test_trace_keeps_the_dtype_only_on_the_last_two_axes():
    import eagerflow.experimental.numpy as tnp
    a = tnp.asarray([[1, 2], [3, 4]], dtype=tnp.int32)
    assert tnp.trace(a).dtype == tnp.int32 and int(tnp.trace(a)) == 5
    assert tnp.trace(a, offset=1).dtype == tnp.int64 and int(tnp.trace(a, offset=1)) == 2


def test_matmul_takes_vectors_as_numpy_does():
    # TF 2.21's values: a 1-D operand is a row or column vector, dropped from the result
    a, v = tnp.reshape(tnp.arange(6.), [2, 3]), tnp.arange(3.)
    assert tnp.matmul(a, v).numpy().tolist() == [5.0, 14.0]
    assert tnp.matmul(tnp.arange(2.), a).numpy().tolist() == [3.0, 4.0, 5.0]
    out = tnp.matmul(v, v)
    assert out.shape == () and float(out) == 5.0
    assert tnp.matmul(tnp.ones([4, 3, 2]), tnp.ones([2])).shape == (4, 3)
    assert tnp.matmul(tnp.ones([3]), tnp.ones([4, 3, 2])).shape == (4, 2)
    assert tnp.matmul(tnp.ones([2, 1, 2, 3]), tnp.ones([5, 3, 4])).shape == (2, 5, 2, 4)
    with pytest.raises(ValueError, match="Matrix size-incompatible: In\\[0\\]: \\[2,3\\], "
                                         "In\\[1\\]: \\[2,3\\]"):
        tnp.matmul(a, a)


def test_lists_of_python_numbers_promote_weakly():
    # as Python scalars do: the tensor's dtype wins unless the list's kind is higher
    assert tnp.add(tf.ones([1]), [1.5]).dtype == tf.float32
    assert tnp.add(tf.ones([1], tf.int32), [1]).dtype == tf.int32
    assert tnp.add(tf.ones([1], tf.int32), [1.5]).dtype == tf.float64
    assert tnp.add([1.5], [2]).dtype == tf.float64
    assert tnp.matmul(tf.ones([1, 1]), [[2.]]).dtype == tf.float32
    assert tnp.where([True], tf.ones([1]), [2.]).dtype == tf.float32
    assert tnp.add(tf.ones([1]), [1j]).dtype == tf.complex64
    assert tnp.add(tf.ones([1]), [np.float64(1)]).dtype == tf.float64  # (NumPy's: strong)


_NUMPY_OPERATORS = textwrap.dedent("""
    import numpy as np
    import eagerflow as tf
    import eagerflow.experimental.numpy as tnp
    tnp.experimental_enable_numpy_behavior()
    a = tnp.reshape(tnp.arange(6.), [2, 3])
    print((a @ tnp.arange(3.)).numpy().tolist(), (tnp.arange(2.) @ a).numpy().tolist())
    print((tf.Variable(tf.ones([2, 2])) @ tf.ones([2])).numpy().tolist())
    print(([[1., 2.]] @ tf.ones([2, 1])).dtype, (np.ones([1, 2]) @ tf.ones([2, 1])).dtype)
    print((tf.ones([1]) + [1.5]).dtype, ([1.5] + tf.ones([1])).dtype)
    print((tf.ones([1], tf.int32) + [1]).dtype, (tf.ones([1], tf.int32) + [1.5]).dtype)
    print((tf.ones([2]) + [1, 2.5]).dtype, (tf.ones([1], tf.float16) + (1.5,)).dtype)
    print((tf.constant([True]) + [1]).dtype, (tf.ones([1]) + []).dtype)
""")


def test_numpy_behavior_operators():
    # TF 2.21's results for the same lines
    assert _printed_by(_NUMPY_OPERATORS) == [
        "[5.0, 14.0] [3.0, 4.0, 5.0]",
        "[2.0, 2.0]",
        "<dtype: 'float32'> <dtype: 'float64'>",
        "<dtype: 'float32'> <dtype: 'float32'>",
        "<dtype: 'int32'> <dtype: 'float64'>",
        "<dtype: 'float32'> <dtype: 'float16'>",
        "<dtype: 'int64'> <dtype: 'float32'>",
    ]


def test_take_clips_or_wraps_out_of_range_indices():
    # TF's default mode is "clip": -1 and 5 land on the first and last element.
    assert tnp.take([10, 20, 30], [-1, 5, 1]).numpy().tolist() == [10, 30, 20]
    assert tnp.take([10, 20, 30], [-1, 5, 1], mode="wrap").numpy().tolist() == [30, 30, 20]
    got = tnp.take([[10, 20, 30], [1, 2, 3]], [-1, 3], axis=1)
    assert got.numpy().tolist() == [[10, 30], [1, 3]]
    for kwargs, first_line in (({"mode": "raise"}, "The 'raise' mode to take is not "
                                "supported."), ({"mode": "foo"}, "Invalid mode 'foo' for take"),
                               ({"out": 1}, "out argument is not supported in take.")):
        with pytest.raises(ValueError, match=first_line.replace(".", r"\.")):
            tnp.take([10, 20, 30], [0], **kwargs)

    f = tf.function(lambda x, i: tnp.take(x, i),
                    input_signature=[tf.TensorSpec([None], tf.int32),
                                     tf.TensorSpec([None], tf.int64)])
    assert f(tf.constant([1, 2, 3]), tf.constant([-4, 7], tf.int64)).numpy().tolist() == [1, 3]


def test_take_along_axis_broadcasts_and_counts_negative_indices_from_the_end():
    a = tnp.asarray([[10, 20], [30, 40]])
    got = tnp.take_along_axis(a, tnp.asarray([[1, 0]]), axis=0)
    assert got.shape == (1, 2) and got.numpy().tolist() == [[30, 20]]
    assert tnp.take_along_axis(a, tnp.asarray([[-1], [0]]), axis=1).numpy().tolist() == [
        [20], [30]]
    assert tnp.take_along_axis(a, tnp.asarray([[1], [0]]), axis=-1).numpy().tolist() == [
        [20], [30]]
    # the indices' size-1 axis broadcasts against the array's
    got = tnp.take_along_axis(tnp.reshape(tnp.arange(6), (2, 3)), tnp.asarray([[2, 0]]),
                              axis=1)
    assert got.numpy().tolist() == [[2, 0], [5, 3]]


def _v(t):
    return t.dtype.name, t.numpy().tolist()


def test_true_divide_of_small_integers_is_float32_as_tfs_truediv():
    i8 = tf.constant([1, -2, 3], tf.int8)
    u8 = tf.constant([1, 2, 250], tf.uint8)
    assert _v(tnp.true_divide(i8, i8)) == ("float32", [1., 1., 1.])
    assert tnp.divide(i8, u8).dtype == tf.float32  # (int16 operands)
    assert tnp.divide(i8, 2).dtype == tf.float32
    assert tnp.divide(tf.constant([1]), tf.constant([2])).dtype == tf.float64
    assert tnp.divide([1, 2], [2, 2]).dtype == tf.float64
    assert _v(tnp.true_divide(tf.constant([True]), tf.constant([True]))) == ("float64", [1.])


def test_bool_operands_take_tfs_logical_forms():
    b = tf.constant([True, False])
    assert _v(tnp.add(b, b)) == ("bool", [True, False])
    assert _v(tnp.multiply(b, tf.constant([True, True]))) == ("bool", [True, False])
    assert _v(tnp.maximum(b, b)) == ("bool", [True, False])
    assert _v(tnp.minimum(b, tf.constant([False, False]))) == ("bool", [False, False])
    assert _v(tnp.less(b, tf.constant([True, True]))) == ("bool", [False, True])
    assert _v(tnp.bitwise_and(b, b)) == ("bool", [True, False])
    assert _v(tnp.bitwise_not(b)) == ("bool", [False, True])
    assert _v(tnp.amax(b)) == ("bool", True) and _v(tnp.amin(b)) == ("bool", False)
    assert _v(tnp.signbit(b)) == ("bool", [False, False])
    assert _v(tnp.diff(b)) == ("bool", [True])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Integer division by zero"):
        tnp.floor_divide(b, b)
    with pytest.raises(ValueError, match="Setting out is not supported."):
        tnp.amax(b, out=1)


def test_logical_functions_and_tests_take_any_dtype():
    i8 = tf.constant([1, 0, 3], tf.int8)
    assert _v(tnp.all(i8)) == ("bool", False) and _v(tnp.any(i8)) == ("bool", True)
    assert _v(tnp.logical_and(i8, 2.5)) == ("bool", [True, False, True])
    assert _v(tnp.logical_not(i8)) == ("bool", [False, True, False])
    assert _v(tnp.isnan(i8)) == ("bool", [False, False, False])
    assert _v(tnp.isfinite(tf.constant([True]))) == ("bool", [True])
    assert tnp.isinf(i8) is False and tnp.isposinf(i8) is False
    assert _v(tnp.isinf(tf.constant([1., np.inf]))) == ("bool", [False, True])


def test_cumulative_sums_widen_integers_as_numpy_with_int():
    assert _v(tnp.cumsum(tf.constant([1, 2, 250], tf.uint8))) == ("int64", [1, 3, 253])
    assert _v(tnp.cumprod(tf.constant([2, 3], tf.int8))) == ("int64", [2, 6])
    assert tnp.cumsum(tf.constant([1], tf.uint64)).dtype == tf.float64
    assert tnp.cumsum(tf.constant([1], tf.uint8), dtype=tnp.uint8).dtype == tf.uint8
    with pytest.raises(tf.errors.InvalidArgumentError):
        tnp.cumsum(tf.constant([True]))


def test_reshape_in_fortran_order():
    got = tnp.reshape(tnp.arange(6), (2, 3), order="F")
    assert got.numpy().tolist() == [[0, 2, 4], [1, 3, 5]]
    with pytest.raises(ValueError, match="Unsupported order argument K"):
        tnp.reshape(tnp.arange(6), (2, 3), order="K")


def test_around_works_as_tf_through_a_float32_factor():
    # TF's factor 10**decimals goes through float32: 0.01 is not exact
    np.testing.assert_allclose(tnp.around([1234.5], -2).numpy(), [1200.0000268220901])
    assert _v(tnp.around(tf.constant([1234, 1251]), -2)) == ("int32", [1200, 1300])
    assert _v(tnp.around([1.25, 2.5])) == ("float64", [1.0, 2.0])


def test_numpy_argument_checks():
    assert _v(tnp.clip([1, 5], None, 3)) == ("int64", [1, 3])
    assert _v(tnp.clip([1, 5], 2, None)) == ("int64", [2, 5])
    with pytest.raises(ValueError, match="Not more than one of `a_min` and `a_max` may be "):
        tnp.clip([1], None, None)
    with pytest.raises(ValueError, match="Both x and y must be ndarrays, or both must be None."):
        tnp.where([True], [1])
    assert _v(tnp.argsort([3, 1, 2], kind="stable")) == ("int64", [1, 2, 0])
    with pytest.raises(ValueError, match='Only kind="quicksort" is supported. Received: '
                                         'kind=stable'):
        tnp.sort([3, 1], kind="stable")
    with pytest.raises(ValueError, match="The `order` argument is not supported"):
        tnp.argsort([3, 1], order="x")
    for fn in (tnp.gcd, tnp.lcm):
        with pytest.raises(ValueError, match="Arguments to gcd must be integers."):
            fn(tf.constant([1], tf.uint8), 2.5)
    assert tnp.result_type("float32", "int64") == tf.float64


def test_linspace_dtype_follows_the_bounds_and_the_step_is_a_tensor():
    got = tnp.linspace(0, 10, 4, dtype=np.int32)  # (as TF with NumPy 2: the bounds' float)
    assert got.dtype == tf.float64
    np.testing.assert_allclose(got.numpy(), [0., 10 / 3, 20 / 3, 10.])
    values, step = tnp.linspace(0, 1, 5, retstep=True)
    assert isinstance(step, tf.Tensor) and _v(step) == ("float64", 0.25)
    assert tnp.linspace(tf.constant(0.), tf.constant(1.), 3).dtype == tf.float32


def test_angle_of_real_numbers_is_float32():
    assert _v(tnp.angle(tf.constant([1, -2], tf.int8))) == ("float32", [0.0, np.float32(np.pi)])
    assert tnp.angle(tnp.asarray([1.0])).dtype == tf.float32
    assert tnp.angle(tnp.asarray([1j])).dtype == tf.float64


_NUMPY_INDEX_DETAILS = textwrap.dedent("""
    import eagerflow as tf
    import eagerflow.experimental.numpy as tnp
    tnp.experimental_enable_numpy_behavior()
    x = tnp.reshape(tnp.arange(24), (2, 3, 4))
    print(x[[-1]].shape, x[[-1]][0, 0].numpy().tolist(), x[:, [-1, 0], 0].numpy().tolist())
    for key in (1.0, [], (0, [0.5])):
        try:
            x[key]
        except IndexError as e:
            print(str(e).split(", got ")[1])
    print(x.reshape((4, 6), order="F")[0].numpy().tolist())
    print(x.astype(float).dtype, round(tnp.asarray([1.26]), 1).numpy().tolist())
""")


def test_numpy_indexing_counts_negative_rows_from_the_end_and_refuses_floats():
    assert _printed_by(_NUMPY_INDEX_DETAILS) == [
        "(1, 3, 4) [12, 13, 14, 15] [[8, 0], [20, 12]]",
        "1.0", "[]", "[0.5]",
        "[0, 8, 5, 2, 10, 7]",
        "<dtype: 'float32'> [1.3]",
    ]


def test_size_and_bands_of_unknown_shapes():
    sig = [tf.TensorSpec([None, None], tf.float32)]
    got = tf.function(lambda a: tnp.size(a), input_signature=sig)(tf.ones([3, 4]))
    assert got.dtype == tf.int32 and got.numpy() == 12  # (tf.size, as TF)
    assert tnp.size(tf.ones([2, 3])) == 6 and tnp.size(2.5) == 1
    with pytest.raises(NotImplementedError, match="axis argument is not supported"):
        tnp.size(tf.ones([2, 3]), axis=0)
    with pytest.raises(ValueError, match="Currently, the last two dimensions of the input array "
                                         "need to be known."):
        tf.function(lambda a: tnp.tril(a), input_signature=sig)(tf.ones([2, 2]))


def test_numpy_behavior_modes_not_implemented_warn_and_unknown_ones_raise():
    # (in a fresh interpreter: numpy behaviour is process-wide)
    assert _printed_by(textwrap.dedent("""
        import warnings
        import eagerflow.experimental.numpy as tnp
        try:
            tnp.experimental_enable_numpy_behavior(dtype_conversion_mode="bogus")
        except ValueError as e:
            print(str(e).split(".")[0])
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            tnp.experimental_enable_numpy_behavior(dtype_conversion_mode="all")
        print(len(caught), "is not implemented" in str(caught[0].message))
    """)) == ["The provided promotion mode bogus does not exist", "1 True"]


def test_cross_of_2_and_3_element_vectors_along_any_axes():
    # NumPy's rules: 2-element vectors get a zero third element; two of them give the
    # third element alone; operands broadcast; axisa/axisb/axisc/axis place the vectors
    assert _r(tnp.cross([1, 2], [3, 4])) == "<tf.Tensor: shape=(), dtype=int64, numpy=-2>"
    assert tnp.cross([1, 2], [3., 4, 5]).numpy().tolist() == [10., -5., -2.]
    a = np.arange(12.).reshape(2, 3, 2)
    b = np.arange(6.).reshape(3, 2) + 1
    assert tnp.cross(a, b).numpy().tolist() == [[-1.] * 3, [5.] * 3]
    c, d = np.ones((2, 3)), np.arange(6.).reshape(2, 3)
    assert tnp.cross(c, d, axisc=0).numpy().tolist() == [[1., 1.], [-2., -2.], [1., 1.]]
    assert tnp.cross(d.T, d, axisa=0, axisb=1).numpy().tolist() == [[0.] * 3] * 2
    e = np.arange(6.).reshape(3, 2)
    assert tnp.cross(np.ones((3, 2)), e, axis=0).numpy().tolist() == [[2., 2.], [-4., -4.],
                                                                       [2., 2.]]
    assert tnp.cross(np.ones((2, 1, 3)), np.ones((4, 3))).shape == (2, 4, 3)
    f = tf.function(lambda x: tnp.cross(x, x[::-1]),
                    input_signature=[tf.TensorSpec([None, 2], tf.float32)])
    assert f(tf.reshape(tf.range(6.), (3, 2))).numpy().tolist() == [-4., 0., 4.]
    v = tf.Variable([1., 2., 3.])
    with tf.GradientTape() as t:
        y = tnp.sum(tnp.cross(v, tf.constant([1., 0.])))
    assert t.gradient(y, v).numpy().tolist() == [0., -1., 1.]


_NUMPY_METHODS_IN_FUNCTION = textwrap.dedent("""
    import eagerflow as tf
    import eagerflow.experimental.numpy as tnp
    tnp.experimental_enable_numpy_behavior()
    @tf.function(input_signature=[tf.TensorSpec([None, 3])])
    def f(a):
        print(repr(a.size), a.ndim)
        try:
            a.tolist()
        except ValueError as e:
            print(e)
        return a
    f(tf.ones([2, 3]))
    print(repr(tf.ones([2, 3]).size), repr(tf.zeros([0, 3]).size))
""")


def test_size_and_tolist_of_a_tensor_in_a_function():
    # `.size` is None while a dimension is unknown; `.tolist()` of a symbolic tensor is a
    # ValueError
    assert _printed_by(_NUMPY_METHODS_IN_FUNCTION) == [
        "None 2", "Symbolic Tensors do not support the tolist API.",
        "np.int64(6) np.int64(0)"]


def test_var_and_std_of_complex_values_are_real():
    # NumPy's: the mean of |x - mean|² (it was the mean of the complex (x - mean)²)
    c = tnp.asarray([[1 + 1j, 2, 3j], [0, 1, -1]], dtype=tnp.complex64)
    assert _r(tnp.var(c)) == "<tf.Tensor: shape=(), dtype=float32, numpy=2.1388890743255615>"
    assert _r(tnp.std(c)) == "<tf.Tensor: shape=(), dtype=float32, numpy=1.462494134902954>"
    assert tnp.var(c, axis=0).numpy().tolist() == [0.5, 0.25, 2.5]
    assert tnp.var(tnp.asarray([1 + 2j])).dtype == tf.float64


def test_logaddexp_of_equal_infinities_is_that_infinity():
    a = tnp.asarray([1.0, -np.inf, np.inf, np.inf, np.nan, 1000.0])
    b = tnp.asarray([2.0, -np.inf, np.inf, -np.inf, 1.0, 1000.0])
    np.testing.assert_allclose(tnp.logaddexp(a, b).numpy(),
                               [2.313262, -np.inf, np.inf, np.inf, np.nan, 1000.693147],
                               rtol=1e-6)
    np.testing.assert_allclose(tnp.logaddexp2(a, b).numpy(),
                               [2.584963, -np.inf, np.inf, np.inf, np.nan, 1001.0], rtol=1e-6)


def test_fix_rounds_toward_zero_and_has_no_gradient():
    x = tf.Variable([-2.5, -0.3, 0.7, 2.5])
    with tf.GradientTape() as tape:
        y = tnp.fix(x)
    assert y.numpy().tolist() == [-2.0, -0.0, 0.0, 2.0]
    assert np.signbit(y.numpy()[1])
    assert tape.gradient(y, x) is None


def test_linspace_of_bounds_known_only_when_the_graph_runs():
    spec = tf.TensorSpec(None, tf.float32)

    def run(**kw):
        f = tf.function(lambda a, b: tnp.linspace(a, b, **kw), input_signature=[spec, spec])
        return f(tf.constant(1.0), tf.constant(2.0))

    y = run(num=4)
    assert y.dtype == tf.float32
    np.testing.assert_allclose(y.numpy(), [1.0, 4 / 3, 5 / 3, 2.0], rtol=1e-6)
    assert y.numpy()[-1] == 2.0
    np.testing.assert_allclose(run(num=4, endpoint=False).numpy(), [1.0, 1.25, 1.5, 1.75])
    values, step = run(num=1, retstep=True)
    assert values.numpy().tolist() == [1.0] and np.isnan(step.numpy())
    assert run(num=0).shape == (0,)
    g = tf.function(lambda a, b: tnp.linspace(a, b, 3, axis=-1),
                    input_signature=[tf.TensorSpec([None], tf.float32)] * 2)
    assert g(tf.constant([1.0, 0.0]), tf.constant([2.0, 4.0])).numpy().tolist() == [
        [1.0, 1.5, 2.0], [0.0, 2.0, 4.0]]


def test_vander_of_a_length_known_only_when_the_graph_runs():
    f = tf.function(lambda a: (tnp.vander(a), tnp.vander(a, increasing=True)),
                    input_signature=[tf.TensorSpec([None], tf.float32)])
    down, up = f(tf.constant([1.0, 3.0, 2.0]))
    assert down.numpy().tolist() == [[1, 1, 1], [9, 3, 1], [4, 2, 1]]
    assert up.numpy().tolist() == [[1, 1, 1], [1, 3, 9], [1, 2, 4]]


def test_lcm_does_not_overflow_where_the_result_fits():
    a = tnp.asarray([2 ** 20 * 3], dtype=tnp.int32)
    b = tnp.asarray([2 ** 20 * 5], dtype=tnp.int32)
    assert tnp.lcm(a, b).numpy().tolist() == [15728640]
    assert tnp.lcm(tnp.asarray([-4, 6, 0, -3]), tnp.asarray([6, -4, 0, 0])).numpy().tolist() == [
        12, 12, 0, 0]


def test_arange_of_tensors_keeps_their_dtype():
    assert tnp.arange(tf.constant(3)).dtype == tf.int32
    assert tnp.arange(tf.constant(1, tf.int32), 5).numpy().tolist() == [1, 2, 3, 4]
    assert tnp.arange(tf.constant(1, tf.int32), 5).dtype == tf.int32
    assert tnp.arange(tf.constant(1.0), 3).dtype == tf.float32
    assert tnp.arange(0, tf.constant(1.0, tf.float64), 0.5).dtype == tf.float64
    assert tnp.arange(3).dtype == tf.int64


def test_argsort_polyval_kron_meshgrid_shapes():
    assert tnp.argsort(tnp.asarray([[3, 1], [0, 2]]), axis=None).numpy().tolist() == [2, 1, 3, 0]
    assert tnp.polyval(5, tnp.asarray([2, 3])).numpy().tolist() == [5, 5]
    k = tnp.kron(tnp.ones((2, 1, 1)), tnp.asarray([[1, 2], [3, 4]]))
    assert k.shape == (2, 2, 2) and k.numpy().tolist() == [[[1, 2], [3, 4]]] * 2
    assert tnp.kron(tnp.asarray([[1, 2]]), tnp.ones((2, 1, 2))).shape == (2, 1, 4)
    assert tnp.kron(tnp.asarray([[1, 2]]), tnp.asarray([3, 4])).numpy().tolist() == [[3, 4, 6, 8]]
    np.testing.assert_array_equal(
        tnp.kron(tnp.asarray([[1, 2], [3, 4]]), tnp.asarray([[0, 1], [1, 0]])).numpy(),
        np.kron([[1, 2], [3, 4]], [[0, 1], [1, 0]]))
    with pytest.raises(ValueError, match="sparse"):
        tnp.meshgrid(tnp.arange(2), tnp.arange(3), sparse=True)


def test_asarray_of_a_list_holding_tensors_or_numpy_scalars_takes_their_dtype():
    assert tnp.asarray([tf.constant(1.0), 2.0]).dtype == tf.float32
    assert tnp.asarray([np.float32(1.5), 2]).dtype == tf.float32
    assert tnp.asarray([np.int32(1), 2]).dtype == tf.int32
    assert tnp.asarray([np.int32(1), 2.5]).dtype == tf.float64
    assert tnp.array([[np.float32(1)], [2.0]]).dtype == tf.float32
    assert tnp.asarray([tf.constant(1), tf.constant(2.0)]).dtype == tf.float64
    t = tnp.asarray([tf.constant([1, 2], tf.int8), [3, 4]])
    assert t.dtype == tf.int8 and t.numpy().tolist() == [[1, 2], [3, 4]]
    assert tnp.asarray([np.uint8(1), -1]).numpy().tolist() == [1, 255]
    assert tnp.asarray([1, 2.5]).dtype == tf.float64


def test_diag_past_the_corner_is_empty():
    a = tnp.reshape(tnp.arange(9), (3, 3))
    assert tnp.diag(a, k=5).shape == (0,) and tnp.diag(a, k=5).dtype == tf.int64
    assert tnp.diag(a, k=-3).shape == (0,)
    assert tnp.diag(a, k=-2).numpy().tolist() == [6]


def test_triu_and_tril_of_a_vector_raise_value_error():
    for fn in (tnp.triu, tnp.tril):
        with pytest.raises(ValueError, match="must have rank at least 2"):
            fn(tnp.asarray([1, 2, 3]))
    assert tnp.triu(tnp.ones((2, 2))).numpy().tolist() == [[1, 1], [0, 1]]


def test_diff_vander_take_along_axis_reject_bad_arguments():
    with pytest.raises(ValueError, match="non-negative"):
        tnp.diff(tnp.ones(3), n=-1)
    with pytest.raises(ValueError, match="one-dimensional"):
        tnp.vander(tnp.ones((2, 2)))
    with pytest.raises(tf.errors.InvalidArgumentError, match="same number of dimensions"):
        tnp.take_along_axis(tnp.ones((2, 3)), tnp.asarray([0]), axis=1)
    assert tnp.diff(tnp.asarray([1, 4]), n=0).numpy().tolist() == [1, 4]


def test_moveaxis_of_several_axes_and_out_of_range():
    x = tnp.zeros((2, 3, 4, 5))
    assert tnp.moveaxis(x, 0, -1).shape == (3, 4, 5, 2)
    assert tnp.moveaxis(x, [0, 1], [-1, -2]).shape == (4, 5, 3, 2)
    assert tnp.moveaxis(x, (0, 2), (3, 0)).shape == (4, 3, 5, 2)
    with pytest.raises(AssertionError):
        tnp.moveaxis(x, 0, 5)
    with pytest.raises(ValueError):
        tnp.moveaxis(x, [0, 1], [0])

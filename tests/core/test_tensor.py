"""Tensors: printing, dtype rules, conversions, NumPy interop (expected forms checked on TF)."""
import copy
import pickle
import re

import numpy as np
import pytest

import eagerflow as tf


@pytest.mark.parametrize("value, text", [
    ([[4.0]], "tf.Tensor([[4.]], shape=(1, 1), dtype=float32)"),
    (1, "tf.Tensor(1, shape=(), dtype=int32)"),
    (2.5, "tf.Tensor(2.5, shape=(), dtype=float32)"),
    (True, "tf.Tensor(True, shape=(), dtype=bool)"),
    ([1, 2], "tf.Tensor([1 2], shape=(2,), dtype=int32)"),
    ("ab", "tf.Tensor(b'ab', shape=(), dtype=string)"),
    (1e10, "tf.Tensor(1e+10, shape=(), dtype=float32)"),
    (np.zeros((0, 3)), "tf.Tensor([], shape=(0, 3), dtype=float64)"),
    (np.zeros((2, 2, 2), np.int32),
     "tf.Tensor(\n[[[0 0]\n  [0 0]]\n\n [[0 0]\n  [0 0]]], shape=(2, 2, 2), dtype=int32)"),
])
def test_str(value, text):
    assert str(tf.constant(value)) == text


@pytest.mark.parametrize("value, text", [
    ([1, 2], "<tf.Tensor: shape=(2,), dtype=int32, numpy=array([1, 2], dtype=int32)>"),
    (1.0, "<tf.Tensor: shape=(), dtype=float32, numpy=1.0>"),
    (np.float32(0.1), "<tf.Tensor: shape=(), dtype=float32, numpy=0.10000000149011612>"),
    (1e10, "<tf.Tensor: shape=(), dtype=float32, numpy=10000000000.0>"),
    (["a"], "<tf.Tensor: shape=(1,), dtype=string, numpy=array([b'a'], dtype=object)>"),
    (b"x", "<tf.Tensor: shape=(), dtype=string, numpy=b'x'>"),
    (1 + 2j, "<tf.Tensor: shape=(), dtype=complex128, numpy=(1+2j)>"),
    ([[1.5, 2], [3, 4]], "<tf.Tensor: shape=(2, 2), dtype=float32, numpy=\n"
                         "array([[1.5, 2. ],\n       [3. , 4. ]], dtype=float32)>"),
])
def test_repr(value, text):
    assert repr(tf.constant(value)) == text


@pytest.mark.parametrize("value, dtype", [
    (1, tf.int32), (2**40, tf.int64), ([1, 2**40], tf.int64), (1.5, tf.float32),
    ([1, 2.5], tf.float32), (True, tf.bool), (1 + 2j, tf.complex128), ("s", tf.string),
    (np.float64(2.0), tf.float64), (np.int64(3), tf.int64), (np.array([1], np.uint16), tf.uint16),
    (np.float16(1.5), tf.float16),
])
def test_constant_dtype_inference(value, dtype):
    assert tf.constant(value).dtype == dtype


@pytest.mark.parametrize("value, kwargs, exc, match", [
    ([1.5], {"dtype": "int32"}, TypeError, "Cannot convert"),
    (1, {"dtype": "bool"}, TypeError, "Cannot convert 1 to EagerTensor of dtype bool"),
    ("a", {"dtype": "float32"}, TypeError, "dtype float"),
    ([True, 1], {}, ValueError, "mixed types"),
    # the first element sets the type: a bool (Python's or NumPy's) takes no numbers,
    # an integer no bools
    ([np.bool_(True), 2], {}, ValueError, "mixed types"),
    ([True, 2.5], {}, ValueError, "mixed types"),
    ([2, np.bool_(True)], {}, ValueError, "mixed types"),
    ([[np.bool_(True)], [2]], {"dtype": "int32"}, ValueError, "mixed types"),
    ([1, "a"], {}, ValueError, "mixed types"),
    ([[1.0], ["a"]], {}, ValueError, "mixed types"),
    (["a", [b"b"]], {}, ValueError, "non-rectangular"),
    ([[1], [2, 3]], {}, ValueError, "non-rectangular"),
    (None, {}, ValueError, "unsupported type"),
    ({"a": 1}, {}, ValueError, "unsupported type"),
    (2**70, {}, ValueError, "out-of-range integer"),
    (1e40, {}, ValueError, "out of range for a double-precision float"),
    ([1, -1e39], {}, ValueError, "out of range for a double-precision float"),
    (tf.constant([1, 2]), {"dtype": "float32"}, TypeError, r"Expected tensor \[1 2\] with dtype"),
    ([1.0, tf.constant(2)], {}, ValueError, "mixed types"),  # tensors in lists: TF 2.21's errors
    ([tf.constant(1), tf.constant(2.0)], {}, ValueError, r"Scalar tensor has no `len\(\)`"),
    ([tf.constant([1, 2]), [3]], {}, ValueError, r"Scalar tensor has no `len\(\)`"),
    (tf.TensorShape([1, None]), {}, ValueError, r"partially known TensorShape \(1, None\)"),
    ([1, 2, 3], {"shape": [2, 2]}, TypeError, "has 3 elements"),
])
def test_constant_errors(value, kwargs, exc, match):
    with pytest.raises(exc, match=match):
        tf.constant(value, **kwargs)


def test_lists_holding_tensors_take_their_dtype():
    assert tf.convert_to_tensor([tf.constant([1]), [2]]).dtype == tf.int32
    assert tf.convert_to_tensor([tf.constant(1.0), 2]).numpy().tolist() == [1.0, 2.0]
    assert tf.convert_to_tensor([tf.constant(1), np.float32(2.5)]).numpy().tolist() == [1, 2]
    assert tf.convert_to_tensor([tf.constant(1), 2], dtype=tf.float32).dtype == tf.float32  # cast
    assert tf.convert_to_tensor([tf.Variable(1.5)]).dtype == tf.float32


def test_ranges_and_shapes_convert_to_int_vectors():
    assert tf.constant(range(3)).numpy().tolist() == [0, 1, 2] and tf.constant(range(0)).dtype \
        == tf.int32
    assert tf.constant(tf.TensorShape([2, 3])).dtype == tf.int32
    assert tf.constant(tf.TensorShape([2**40])).dtype == tf.int64
    assert tf.constant(tf.Variable([1.5]), dtype=tf.int32).numpy().tolist() == [1]


def test_strings_mixed_with_bytes():
    t = tf.constant(["é", b"\xff"])
    assert t.dtype == tf.string and t.numpy().tolist() == ["é".encode(), b"\xff"]


def test_constant_casts_and_shapes():
    assert tf.constant(300, dtype=tf.int8).numpy() == 44  # wraps like TF
    np.testing.assert_array_equal(tf.constant(np.array([1.5]), dtype=tf.int32), [1])
    assert tf.constant(True, dtype=tf.int32).numpy() == 1
    np.testing.assert_array_equal(tf.constant(7, shape=[2, 3]), np.full((2, 3), 7))
    assert tf.constant([1, 2, 3, 4], shape=[2, 2]).shape == (2, 2)


def test_convert_to_tensor():
    t = tf.constant(1)
    assert tf.convert_to_tensor(t) is t
    with pytest.raises(ValueError, match="requested dtype float32 for Tensor with dtype int32"):
        tf.convert_to_tensor(t, dtype=tf.float32)
    assert tf.convert_to_tensor(1, dtype_hint=tf.float32).dtype == tf.float32
    assert tf.convert_to_tensor(1.5, dtype_hint=tf.int32).dtype == tf.float32
    assert tf.convert_to_tensor([tf.constant(1), 2]).numpy().tolist() == [1, 2]


def test_lists_holding_tensors_pack_as_ops():
    """As TF packs them: tapes see the tensors inside, and graph tensors can be inside."""
    x, c = tf.Variable(2.0), tf.constant(3.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(c)
        y = tf.convert_to_tensor([x, [c, 1.0]][:1] + [c])
        z = tf.reduce_sum(tf.constant([[1.0, 2.0]]) * [c, x])
    assert y.numpy().tolist() == [2.0, 3.0] and float(tape.gradient(y, x)) == 1.0
    assert [float(g) for g in tape.gradient(z, [x, c])] == [2.0, 1.0]

    @tf.function
    def f(a):
        return tf.concat([a, [a[0] * 2]], 0), tf.reshape(a, [tf.shape(a)[0], -1])
    packed, reshaped = f(tf.constant([1.0, 2.0]))
    assert packed.numpy().tolist() == [1.0, 2.0, 2.0] and reshaped.shape == (2, 1)
    # a requested dtype other than the tensors' converts them as constants (cast)
    assert tf.convert_to_tensor([tf.constant(1), 2], dtype_hint=tf.float32).dtype == tf.float32
    assert (tf.constant([1.0]) * [tf.constant(1)]).dtype == tf.float32


def test_scalar_operands_adopt_dtype():
    x = tf.constant([1, 2], tf.int8)
    assert (x + 300).dtype == tf.int8 and (x + 300).numpy().tolist() == [45, 46]
    f = tf.constant([1.0, 2.0])
    assert (f + np.float64(1)).dtype == tf.float32
    assert (f + np.array(1.0)).dtype == tf.float32
    assert (np.array([1.0, 2.0]) + f).dtype == tf.float32
    assert (2 ** tf.constant(3.0)).numpy() == 8.0


@pytest.mark.parametrize("fn", [
    lambda: tf.constant(1) + tf.constant(1.0),
    lambda: tf.constant(1) + 2.5,
    lambda: tf.constant([1, 2], tf.int8) + True,
])
def test_no_silent_promotion(fn):
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"cannot compute AddV2 as input #1"
                       r"\(zero-based\) was expected to be a \w+ tensor but is a \w+ tensor"):
        fn()


def test_int_overflow_wraps():
    assert (tf.constant(np.int32(2**31 - 1)) + 1).numpy() == -2**31


OUT_OF_RANGE = "Can't convert Python sequence with out-of-range integer to Tensor."


@pytest.mark.parametrize("make", [
    lambda: tf.constant([1, 2**63]),                    # NumPy would make this float64
    lambda: tf.constant([[1], [-2**63 - 1]]),
    lambda: tf.constant(2**64),
    lambda: tf.constant([1, 2]) + 2**63,                # NumPy would wrap it to [1, 2]
    lambda: tf.constant([1, 2], tf.int64) - 2**63,
    lambda: tf.convert_to_tensor([1, 2**63], tf.int64),
    lambda: tf.constant([1, 2**63], tf.complex64),
    lambda: tf.constant([-1, 2**63], tf.uint64),
    lambda: tf.constant([1], tf.uint64) + 2**64,
])
def test_python_ints_beyond_int64_raise(make):
    with pytest.raises(ValueError, match=re.escape(OUT_OF_RANGE)):
        make()


def test_python_ints_beyond_int64_fit_uint64_and_floats():
    assert tf.constant([1, 2**63], tf.uint64).numpy().tolist() == [1, 2**63]
    assert (tf.constant([1], tf.uint64) + 2**63).numpy().tolist() == [2**63 + 1]
    assert tf.constant(2**64 - 1, tf.uint64).numpy() == 2**64 - 1
    assert tf.constant([1, 2**63], tf.float32).dtype == tf.float32
    mixed = tf.constant([1.0, 2**63])  # a float among them: a float list
    assert mixed.dtype == tf.float32 and mixed.numpy()[1] == np.float32(2.0**63)
    assert tf.constant(-2**63).dtype == tf.int64


def test_truediv_and_floor_ops():
    assert (tf.constant([1, 2]) / 2).dtype == tf.float64
    assert (tf.constant([1, 2], tf.int8) / 2).dtype == tf.float32
    assert (tf.constant(7) // 2).numpy() == 3 and (tf.constant(-7) % 3).numpy() == 2
    with pytest.raises(tf.errors.InvalidArgumentError, match="Integers to negative"):
        tf.constant(2) ** -1


def test_bool_int_float_index_len_iter():
    assert bool(tf.constant(True)) and int(tf.constant(3)) == 3
    assert float(tf.constant(2.5)) == 2.5
    assert [10, 20, 30][tf.constant(1)] == 20
    assert len(tf.constant([[1], [2]])) == 2
    items = list(tf.constant([1, 2]))
    assert [repr(i) for i in items] == ["<tf.Tensor: shape=(), dtype=int32, numpy=1>",
                                        "<tf.Tensor: shape=(), dtype=int32, numpy=2>"]
    with pytest.raises(ValueError, match="ambiguous"):
        bool(tf.constant([1, 2]))
    with pytest.raises(TypeError, match="len"):
        len(tf.constant(1))
    with pytest.raises(TypeError):
        int(tf.constant([1, 2]))
    with pytest.raises(AttributeError):  # NumPy's float32 has no __index__, as in TF
        [1][tf.constant(1.5)]
    assert f"{tf.constant(1.5):.3f}" == "1.500"
    assert f"{tf.constant([1, 2])}" == "[1 2]"  # NumPy's format of the values, as in TF


def test_numpy_interop():
    a, b = tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0])
    out = np.multiply(a, b)
    assert isinstance(out, np.ndarray) and out.tolist() == [3.0, 8.0]
    assert np.asarray(a).dtype == np.float32
    n = a.numpy()
    n[0] = 100.0  # numpy() is a copy: the tensor stays unchanged
    assert a.numpy()[0] == 1.0
    assert isinstance(tf.constant(1.0).numpy(), np.float32)
    assert tf.constant("ab").numpy() == b"ab"


def test_hash_ref_copy_pickle():
    t = tf.constant([1, 2])
    with pytest.raises(TypeError, match=r"Tensor is unhashable. Instead, use tensor.ref\(\)"):
        hash(t)
    d = {t.ref(): 1}
    assert d[t.ref()] == 1 and t.ref().deref() is t and t.experimental_ref() == t.ref()
    assert copy.copy(t) is t and copy.deepcopy(t) is t
    assert pickle.loads(pickle.dumps(t)).numpy().tolist() == [1, 2]


def test_metadata():
    t = tf.constant([[1.0, 2.0]])
    assert t.shape == tf.TensorShape([1, 2]) and t.ndim == 2 and t.get_shape() == [1, 2]
    assert t.dtype == tf.float32
    assert t.device == "/job:localhost/replica:0/task:0/device:CPU:0"
    with pytest.raises(AttributeError, match="eager execution"):
        t.name
    with pytest.raises(ValueError):
        t.set_shape([3, 3])


def test_equality_semantics():
    t = tf.constant([1, 2])
    assert (t == None) is False  # noqa: E711
    assert (t != None) is True  # noqa: E711
    assert repr(t == tf.constant([1, 2, 3])) == "<tf.Tensor: shape=(), dtype=bool, numpy=False>"
    assert (t == tf.constant([1, 3])).numpy().tolist() == [True, False]
    with pytest.raises(TypeError):
        t == "a"


def test_operators():
    x = tf.constant(5)
    assert (~x).numpy() == -6 and (x & 3).numpy() == 1 and (x | 2).numpy() == 7
    assert (x ^ 1).numpy() == 4
    assert (tf.constant(True) & False).numpy() == False  # noqa: E712
    assert (~tf.constant(True)).numpy() == False  # noqa: E712
    assert abs(tf.constant(-3)).numpy() == 3 and (-tf.constant(2.0)).numpy() == -2.0
    assert (tf.constant(1.0) < 2).numpy()
    m = tf.constant([[1.0, 2.0]]) @ tf.constant([[1.0], [2.0]])
    assert m.numpy().tolist() == [[5.0]]
    with pytest.raises(tf.errors.InvalidArgumentError, match="allowed values"):
        -tf.constant(True)


def test_numpy_object_arrays_convert_as_text_or_to_a_requested_dtype():
    assert tf.constant(np.array(["a", b"b"], dtype=object)).numpy().tolist() == [b"a", b"b"]
    assert tf.constant(np.array([1, 2], dtype=object), tf.float32).numpy().tolist() == [1.0, 2.0]
    for arr, kind in ((np.array([1, 2], dtype=object), "int"),
                      (np.array([[None], [1]], dtype=object), "NoneType")):
        with pytest.raises(ValueError, match=re.escape(
                f"Failed to convert a NumPy array to a Tensor (Unsupported object type {kind}).")):
            tf.convert_to_tensor(arr)


def test_numpy_views_of_a_tensor_cannot_change_it():
    t = tf.constant([1.0, 2.0])
    view = np.asarray(t)
    with pytest.raises(ValueError, match="read-only"):
        view[1] = 7.0
    copied = t.numpy()  # .numpy() stays a writable array of its own
    copied[0] = 5.0
    assert t.numpy().tolist() == [1.0, 2.0]
    assert np.array(t, copy=True).flags.writeable


def test_eager_shape_is_one_object_that_callers_cannot_change():
    a, b = tf.constant([[1., 2.]]), tf.constant([[3., 4.]])
    assert a.shape is a.shape  # as in TF: reading `.shape` again builds nothing
    dims, dim_objects = a.shape.as_list(), a.shape.dims
    dims.append(7)
    dim_objects.append(tf.compat.v1.Dimension(7))
    assert a.shape.merge_with([None, 2]) == [1, 2]
    assert a.shape.concatenate([5]) == [1, 2, 5]
    assert a.shape == b.shape == [1, 2] and a.shape.as_list() == [1, 2]
    with pytest.raises(AttributeError):
        a.shape = tf.TensorShape([2])
    assert a.shape == [1, 2] and a.get_shape() == [1, 2] and a.ndim == 2


def test_eager_shape_of_many_shapes_and_of_variables():
    for n in range(5000):  # more shapes than are kept at once
        assert tf.zeros([n % 7, n]).shape.as_list() == [n % 7, n]
    assert tf.constant(3.).shape == [] and tf.reshape(tf.range(6), [2, 3]).shape == [2, 3]
    v = tf.Variable([[1., 2.]])
    assert v.shape == [1, 2] and v.shape is v.shape and v.value().shape == [1, 2]
    u = tf.Variable([1., 2.], shape=tf.TensorShape(None))
    u.assign([1., 2., 3.])
    assert u.shape.rank is None and u.value().shape == [3]
    assert v.shape == [1, 2]


def test_lists_led_by_numpy_float_scalars_keep_their_dtype():
    # TF infers a list's float dtype from its first leaf: a NumPy scalar's own, else float32
    assert tf.constant([np.float64(1.5), 2.5]).dtype == tf.float64
    assert tf.convert_to_tensor([np.float16(1), 3]).dtype == tf.float16
    assert tf.constant((np.float64(1.5),)).dtype == tf.float64
    assert tf.constant([2.5, np.float64(1.5)]).dtype == tf.float32
    assert tf.constant([[1.0], [np.float64(2)]]).dtype == tf.float32
    assert tf.constant([np.int64(3), np.float64(1)]).dtype == tf.float32
    ds = tf.data.Dataset.from_tensor_slices([np.float64(0.5), np.float64(1.5)])
    assert ds.element_spec == tf.TensorSpec([], tf.float64)


def test_lists_led_by_numpy_float_arrays_keep_their_dtype():
    # the first leaf is the first array's first number (rows of a float64 frame, stacked)
    rows = [np.array([1.0, 2.0]), np.array([3.0, 4.0])]
    for convert in (tf.constant, tf.convert_to_tensor, tf.stack):
        assert convert(rows).dtype == tf.float64
        assert convert([rows[0], [5.0, 6.0]]).dtype == tf.float64
        assert convert([[5.0, 6.0], rows[0]]).dtype == tf.float32
        assert convert([np.array([1.0], np.float32), np.array([1.5])]).dtype == tf.float32
        assert convert([np.array([1, 2])]).dtype == tf.int32  # (NumPy ints are as Python's)
        assert convert([np.zeros(0)]).dtype == tf.float32  # (no number to infer from)
    assert tf.data.Dataset.from_tensors(rows).element_spec.dtype == tf.float64


def test_numpy_bytes_in_a_list_become_plain_bytes():
    t = tf.constant([b"a", np.bytes_(b"b"), np.str_("c")])
    assert [type(v) for v in t.numpy().tolist()] == [bytes] * 3


def test_bools_after_a_float_or_into_a_float_dtype_convert():
    assert tf.constant([1.0, True]).numpy().tolist() == [1.0, 1.0]
    assert tf.constant([True, 1.5], tf.float32).numpy().tolist() == [1.0, 1.5]
    assert tf.constant([np.int32(1), 2.5]).dtype == tf.float32


@pytest.mark.parametrize("value, dtype, expected", [
    # a Python bool is an int among numbers (TF 2.21), a NumPy bool only ever a bool
    ([1, True], None, (tf.int32, [1, 1])),
    ([np.int64(1), True], None, (tf.int32, [1, 1])),
    ([1, 2.5, True], None, (tf.float32, [1.0, 2.5, 1.0])),
    ([[1, 2], [True, False]], tf.int64, (tf.int64, [[1, 2], [1, 0]])),
    ([True, 1], tf.int32, (tf.int32, [1, 1])),
    ([True, np.bool_(False)], None, (tf.bool, [True, False])),
    ([np.bool_(True), 2], tf.float32, ValueError),
    ([1, np.bool_(True)], None, ValueError),
    ([1.5, np.bool_(True)], tf.float32, ValueError),
    ([True, 1.5], tf.int32, ValueError),
    ([True, 1], tf.bool, ValueError),
    ([True, np.bool_(False)], tf.int32, TypeError),
    ([1, True], tf.bool, TypeError),
])
def test_sequences_mixing_bools_with_numbers_as_tf(value, dtype, expected):
    if isinstance(expected, type):
        with pytest.raises(expected, match="mixed types" if expected is ValueError
                           else "Cannot convert"):
            tf.constant(value, dtype)
    else:
        t = tf.constant(value, dtype)
        assert (t.dtype, t.numpy().tolist()) == expected


@pytest.mark.parametrize("value, message", [
    (["a", None], "Can't convert Python sequence with mixed types to Tensor."),
    ([1, None], "Can't convert Python sequence with mixed types to Tensor."),
    ([1.5, None], "Can't convert Python sequence with mixed types to Tensor."),
    ([None, 1], "Attempt to convert a value (None) with an unsupported type "
                "(<class 'NoneType'>) to a Tensor."),
    ([[None]], "Attempt to convert a value (None) with an unsupported type "
               "(<class 'NoneType'>) to a Tensor."),
])
def test_missing_values_in_sequences_are_tfs_errors(value, message):
    with pytest.raises(ValueError) as info:
        tf.constant(value)
    assert str(info.value) == message


def test_constant_of_a_shape_with_unknown_dims_fails_as_tf():
    # eagerly TF fills the shape as a tensor (an unknown dim fails to convert there); a
    # traced constant needs every dim as an int
    with pytest.raises(ValueError, match=re.escape(
            "Attempt to convert a value (None) with an unsupported type (<class 'NoneType'>) "
            "to a Tensor.")):
        tf.constant(1.0, shape=(None, 3))
    with pytest.raises(ValueError, match="Can't convert Python sequence with mixed types"):
        tf.constant(1.0, shape=tf.TensorShape([2, None]))
    with pytest.raises(TypeError, match=re.escape(
            "has 2 elements, but got `shape` (None, 3) with None elements).")):
        tf.constant([1.0, 2.0], shape=(None, 3))
    with pytest.raises(ValueError, match="as_list\\(\\) is not defined on an unknown"):
        tf.constant(1.0, shape=tf.TensorShape(None))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=re.escape("value must represent a scalar, got shape [1,1] "
                                       "[Op:Fill]") + "$"):
        tf.constant([[1.0]], shape=(2, 3))
    assert tf.constant([1.0], shape=(2, 3)).shape == (2, 3)
    with pytest.raises(TypeError, match="int\\(\\) argument must be .* not 'NoneType'"):
        tf.function(lambda: tf.constant(1.0, shape=(None, 3)))()
    with pytest.raises(TypeError, match=re.escape("Expected Tensor's shape: (2, 3), but got "
                                                  "(5,).")):
        tf.function(lambda: tf.constant([1.0, 2.0, 3.0, 4.0, 5.0], shape=(2, 3)))()


def test_a_partially_known_shape_input_fails_as_tf():
    # TF's eager message is the conversion's own; a traced op's names its input
    shape = tf.TensorShape([None, 3])
    with pytest.raises(ValueError, match="^Cannot convert a partially known TensorShape"):
        tf.fill(shape, 1.0)
    with pytest.raises(ValueError, match="Tried to convert 'dims' to a tensor and failed"):
        tf.function(lambda: tf.fill(shape, 1.0))()


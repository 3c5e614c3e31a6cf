"""`tensor[key]` and strided_slice: NumPy agreement on random keys, TF's errors, shape rules."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import eagerflow as tf
from eagerflow import errors, strided_slice, TensorShape
from tests.internals import context, getitem, slicing, unknown_shape
from tests.op_errors import op_text, prefix

InvalidArgument = errors.InvalidArgumentError
_BAD_KEY = ("Only integers, slices (`:`), ellipsis (`...`), tf.newaxis (`None`) and scalar "
            "tf.int32/tf.int64 tensors are valid indices, got ")

X = tf.constant(np.arange(24, dtype=np.int32).reshape(2, 3, 4))


class _Recorder:
    def __init__(self):
        self.ops = []

    def record(self, op, inputs, attrs, outputs):
        self.ops.append(op.name)


@st.composite
def shapes_and_keys(draw):
    """A shape and a valid basic-indexing key for it (ints in range, any slices, ..., None)."""
    shape = draw(hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=5))
    bound = st.one_of(st.none(), st.integers(-7, 7))
    step = st.one_of(st.none(), st.sampled_from([1, 2, 3, -1, -2, -3]))

    def entry(n):
        choices = [st.builds(slice, bound, bound, step)]
        if n:
            choices.append(st.integers(-n, n - 1))
        return draw(st.one_of(*choices))

    rank = len(shape)
    lead = draw(st.integers(0, rank))
    entries = [entry(n) for n in shape[:lead]]
    if draw(st.booleans()):  # an ellipsis, then entries for some trailing dims
        trail = draw(st.integers(0, rank - lead))
        entries += [Ellipsis] + [entry(n) for n in shape[rank - trail:]]
    for _ in range(draw(st.integers(0, 2))):  # new axes anywhere
        entries.insert(draw(st.integers(0, len(entries))), None)
    key = entries[0] if len(entries) == 1 and draw(st.booleans()) else tuple(entries)
    return shape, key


@settings(max_examples=300, deadline=None)
@given(case=shapes_and_keys(), dtype=st.sampled_from([np.float32, np.int64, np.bool_]))
def test_getitem_matches_numpy(case, dtype):
    shape, key = case
    data = (np.arange(int(np.prod(shape))) % 7).astype(dtype).reshape(shape)
    got = getitem(tf.constant(data), key)
    want = data[key]
    assert got.shape == want.shape
    assert got.dtype == tf.as_dtype(dtype)
    np.testing.assert_array_equal(got.numpy(), want)


@settings(max_examples=150, deadline=None)
@given(case=shapes_and_keys())
def test_static_shape_rule_matches_numpy(case):
    """The rule gives the exact shape when dims are known, and stays compatible when not."""
    shape, key = case
    want = np.zeros(shape)[key].shape
    attrs = slicing._key_attrs(key if isinstance(key, tuple) else (key,))
    rule = slicing._strided_slice_rule

    class Static:
        def __init__(self, dims):
            self.shape, self.dtype = TensorShape(dims), tf.float32

    assert rule(Static(shape), **attrs)[0] == TensorShape(want)
    assert rule(Static([None] * len(shape)), **attrs)[0].is_compatible_with(want)
    assert rule(Static(None), **attrs)[0] == unknown_shape()


@settings(max_examples=150, deadline=None)
@given(shape=hnp.array_shapes(min_dims=1, max_dims=3, max_side=4),
       data=st.data())
def test_strided_slice_masks_match_numpy(shape, data):
    """Random begin/end/strides with begin/end/shrink masks agree with the NumPy index."""
    n = len(shape)
    begin = data.draw(st.lists(st.integers(-6, 6), min_size=n, max_size=n))
    end = data.draw(st.lists(st.integers(-6, 6), min_size=n, max_size=n))
    strides = data.draw(st.lists(st.sampled_from([-2, -1, 1, 2]), min_size=n, max_size=n))
    begin_mask, end_mask, shrink = (data.draw(st.integers(0, 2 ** n - 1)) for _ in range(3))
    index = []
    for i in range(n):
        bit = 1 << i
        if shrink & bit:
            if not -shape[i] <= begin[i] < shape[i]:
                shrink &= ~bit  # keep shrinks in range: errors are tested separately
            else:
                strides[i] = 1
                index.append(begin[i])
                continue
        index.append(slice(None if begin_mask & bit else begin[i],
                           None if end_mask & bit else end[i], strides[i]))
    x = np.arange(int(np.prod(shape))).reshape(shape)
    got = strided_slice(x, begin, end, strides, begin_mask=begin_mask, end_mask=end_mask,
                        shrink_axis_mask=shrink)
    np.testing.assert_array_equal(got.numpy(), x[tuple(index)])


def test_one_strided_slice_op_per_key():
    recorder = _Recorder()
    with context.recording(recorder):
        getitem(X, (0, slice(None, None, -1), None, Ellipsis))
        getitem(X, 1)
        getitem(X, slice(None))
    assert recorder.ops == ["StridedSlice"] * 3


@pytest.mark.parametrize("key, want", [
    ([0, 1], np.arange(24).reshape(2, 3, 4)[0, 1]),        # a list reads as a tuple
    ([0], np.arange(24).reshape(2, 3, 4)[0]),
    ([], np.arange(24).reshape(2, 3, 4)),
    ((), np.arange(24).reshape(2, 3, 4)),
    (np.int64(1), np.arange(24).reshape(2, 3, 4)[1]),
    (np.uint8(1), np.arange(24).reshape(2, 3, 4)[1]),
    (np.array(1), np.arange(24).reshape(2, 3, 4)[1]),
    (tf.constant(1), np.arange(24).reshape(2, 3, 4)[1]),
    (tf.constant(-1, tf.int64), np.arange(24).reshape(2, 3, 4)[-1]),
    (tf.constant(1, tf.int16), np.arange(24).reshape(2, 3, 4)[1]),
    ([tf.constant(1), tf.constant(0)], np.arange(24).reshape(2, 3, 4)[1, 0]),
    ((slice(tf.constant(1), None), slice(None, tf.constant(2))),
     np.arange(24).reshape(2, 3, 4)[1:, :2]),
    (slice(None, None, tf.constant(-1)), np.arange(24).reshape(2, 3, 4)[::-1]),
    (slice(np.int32(0), np.int64(2)), np.arange(24).reshape(2, 3, 4)[0:2]),
    ((slice(-100, 100), slice(100, -100, -1)), np.arange(24).reshape(2, 3, 4)[:, ::-1]),
    (slice(5, 10), np.zeros((0, 3, 4))),
])
def test_index_entry_forms(key, want):
    got = getitem(X, key)
    assert got.shape == want.shape
    np.testing.assert_array_equal(got.numpy(), want)


def test_boolean_masks_select():
    data = X.numpy()
    np.testing.assert_array_equal(getitem(X, tf.constant([True, False])).numpy(), data[[0]])
    np.testing.assert_array_equal(getitem(X, np.array([False, True])).numpy(), data[[1]])
    mask = np.array([[True, False, True], [False, False, True]])
    np.testing.assert_array_equal(getitem(X, tf.constant(mask)).numpy(), data[mask])
    with pytest.raises(ValueError, match="mask cannot be scalar."):
        getitem(X, True)


def test_scalar_tensors():
    s = tf.constant(3)
    assert getitem(s, Ellipsis).numpy() == 3
    assert getitem(s, None).shape == (1,)
    with pytest.raises(InvalidArgument) as info:
        getitem(s, 0)
    assert str(info.value) == (prefix("StridedSlice") + "Attempting to slice scalar input. "
                               "[Op:StridedSlice] name: strided_slice/")


def test_results_are_arrays_and_strings_work():
    t = getitem(X, (1, 2, 3))
    assert t.shape == () and t.numpy() == 23 and isinstance(t._data, np.ndarray)
    words = tf.constant([["a", "b"], ["c", "d"]])
    assert getitem(words, (1, 0)).numpy() == b"c"
    assert getitem(words, (slice(None), -1)).numpy().tolist() == [b"b", b"d"]


@pytest.mark.parametrize("key, message", [
    (5, "slice index 5 of dimension 0 out of bounds. [Op:StridedSlice]"),
    (-3, "slice index -1 of dimension 0 out of bounds. [Op:StridedSlice]"),
    ((slice(None), 3), "slice index 3 of dimension 1 out of bounds."),
    ((Ellipsis, -5), "slice index -1 of dimension 2 out of bounds."),
    ((0, 0, 0, 0), "Index out of range using input dim 3; input has only 3 dims"),
    ((slice(None),) * 4, "Index out of range using input dim 3; input has only 3 dims"),
    ((Ellipsis, Ellipsis), "Multiple ellipses in slice spec not allowed"),
    (slice(None, None, 0), "strides[0] must be non-zero"),
    ((0, tf.constant([[0]])), "Only scalar integer tensors can index a tensor"),
])
def test_invalid_argument_errors(key, message):
    with pytest.raises(InvalidArgument) as info:
        getitem(X, key)
    assert op_text(info.value).startswith(message)


def test_out_of_range_on_empty_dimension():
    with pytest.raises(InvalidArgument, match="slice index 0 of dimension 0 out of bounds"):
        getitem(tf.constant(np.zeros((0, 2))), 0)


@pytest.mark.parametrize("key, shown", [
    (np.array([0, 1]), "array([0, 1])"),
    (tf.constant([0, 1]), "<tf.Tensor: shape=(2,)"),
    (tf.constant(1.0), "<tf.Tensor: shape=(), dtype=float32"),
    (tf.constant(1, tf.uint8), "<tf.Tensor: shape=(), dtype=uint8"),
    (1.0, "1.0"),
    ("a", "'a'"),
    (np.bool_(True), "np.True_"),
    (slice(1.0, 2), "1.0"),
    ([[0]], "[0]"),
    ([np.array([True, False])], "array([ True, False])"),
    (range(2), "range(0, 2)"),
    ((True, 0), "True"),
    ((tf.constant(True), 0), "<tf.Tensor: shape=(), dtype=bool"),
])
def test_type_errors_for_numpy_style_keys(key, shown):
    """Lists of indices, index arrays and non-integers are not indices (TF has gather)."""
    with pytest.raises(TypeError) as info:
        getitem(X, key)
    assert str(info.value).startswith(_BAD_KEY + shown)


def test_cached_int_keys_do_not_accept_look_alikes():
    getitem(X, 1)
    with pytest.raises(TypeError):
        getitem(X, 1.0)
    with pytest.raises(ValueError):  # True is a (scalar) mask, not the index 1
        getitem(X, True)


def test_strided_slice_argument_checks():
    def bad(**kw):
        args = dict(begin=[0, 0], end=[1, 1], strides=[1, 1])
        args.update(kw)
        with pytest.raises(InvalidArgument) as info:
            strided_slice(X, **args)
        return str(info.value)

    # (TF's kernel checks these: its message names the one-op function it ran)
    prefix = "{{function_node __wrapped__StridedSlice_device_/job:localhost/replica:0/task:0/"
    assert bad(end=[1]).startswith(prefix)
    assert ("} Expected begin, end, and strides to be 1D equal size tensors, but got shapes "
            "[2], [1], and [2] instead. [Op:StridedSlice]") in bad(end=[1])
    assert ("} Expected begin, end, and strides to be 1D equal size tensors, but got shapes [], "
            "[], and [] instead.") in bad(begin=1, end=2, strides=1)
    assert bad(begin=[0.0, 0.0]).startswith("Value for attr 'Index' of float is not in the list "
                                            "of allowed values: int16, int32, int64")
    assert "only stride 1 allowed on non-range indexing." in bad(strides=[-1, 1],
                                                                 shrink_axis_mask=1)
    assert "slice index 5 of dimension 0" in bad(begin=[5, 0], end=[6, 1], shrink_axis_mask=1)


def test_strided_slice_mask_precedence():
    x = np.arange(12).reshape(3, 4)
    # ellipsis beats new axis, new axis beats shrink, shrink ignores begin/end masks
    out = strided_slice(x, [0], [0], [1], ellipsis_mask=1, new_axis_mask=1)
    assert out.shape == (3, 4)
    out = strided_slice(x, [0], [1], [1], new_axis_mask=1, shrink_axis_mask=1)
    assert out.shape == (1, 3, 4)
    out = strided_slice(x, [1], [0], [1], shrink_axis_mask=1, begin_mask=1, end_mask=1)
    np.testing.assert_array_equal(out.numpy(), x[1])
    np.testing.assert_array_equal(strided_slice(x, [1], [2]).numpy(), x[1:2])


# -- indices known only when a traced graph runs ---------------------------------------------

_GRID = np.arange(24, dtype=np.float32).reshape(4, 6)
_RUN_TIME_KEYS = [
    (lambda x, i: x[i], lambda x, i: x[i], [6]),
    (lambda x, i: x[:, i], lambda x, i: x[:, i], [4]),
    (lambda x, i: x[i:i + 2, 1::2], lambda x, i: x[i:i + 2, 1::2], [None, None]),  # as TF
    (lambda x, i: x[i, i], lambda x, i: x[i, i], []),
    (lambda x, i: x[..., i, None], lambda x, i: x[..., i, None], [4, 1]),
    (lambda x, i: x[-i], lambda x, i: x[-i], [6]),
]


@pytest.mark.parametrize("key, ref, static", _RUN_TIME_KEYS)
@pytest.mark.parametrize("dtype", [tf.int32, tf.int64])
def test_traced_tensor_index_is_read_when_the_graph_runs(key, ref, static, dtype):
    f = tf.function(key)
    concrete = f.get_concrete_function(tf.TensorSpec([4, 6]), tf.TensorSpec([], dtype))
    assert concrete.outputs[0].shape.as_list() == static
    for i in (1, 2):  # one trace serves every index
        np.testing.assert_array_equal(f(tf.constant(_GRID), tf.constant(i, dtype)).numpy(),
                                      ref(_GRID, i))
    assert f.experimental_get_tracing_count() == 1


def test_traced_tensor_index_out_of_range_raises_when_run():
    f = tf.function(lambda x, i: x[i])
    with pytest.raises(tf.errors.InvalidArgumentError, match="out of bounds"):
        f(tf.constant(_GRID), tf.constant(7))


def test_gradient_through_a_traced_tensor_index():
    x = tf.constant(_GRID)

    @tf.function
    def f(x, i):
        return tf.reduce_sum(x[i, 1:] * 2.0)

    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x, tf.constant(2))
    expected = np.zeros_like(_GRID)
    expected[2, 1:] = 2.0
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), expected)


def test_variable_index_is_read_when_the_graph_runs():
    i = tf.Variable(0)
    f = tf.function(lambda x: x[i])
    x = tf.constant(_GRID)
    np.testing.assert_array_equal(f(x).numpy(), _GRID[0])
    i.assign(3)
    np.testing.assert_array_equal(f(x).numpy(), _GRID[3])


def test_strided_slice_with_traced_bounds():
    f = tf.function(lambda x, b, e: tf.strided_slice(x, b, e, [1, 2]))
    out = f(tf.constant(_GRID), tf.constant([1, 0]), tf.constant([3, 5]))
    np.testing.assert_array_equal(out.numpy(), _GRID[1:3, 0:5:2])


def test_strided_slice_with_python_bounds_in_a_function():
    # Python lists are constants while tracing: the op keeps them as attributes.
    f = tf.function(lambda x: tf.strided_slice(x, [1, 0], [3, 5], [1, 2]))
    np.testing.assert_array_equal(f(tf.constant(_GRID)).numpy(), _GRID[1:3, 0:5:2])
    g = tf.function(lambda x: tf.strided_slice(x, [1, 0], [3, 5], [1, 2]))
    np.testing.assert_array_equal(g(tf.Variable(_GRID)).numpy(), _GRID[1:3, 0:5:2])

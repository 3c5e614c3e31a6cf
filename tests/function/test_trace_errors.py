"""Errors TF reports while a function is traced: dtype and static shape checks."""
import numpy as np
import pytest

import eagerflow as tf


def _trace(fn, *args, signature=None):
    return tf.function(fn, input_signature=signature)(*args)


X = tf.constant([1.0, 2.0])
UNKNOWN = [tf.TensorSpec([None], tf.float32)]


@pytest.mark.parametrize("signature", [None, UNKNOWN])
@pytest.mark.parametrize("fn, op", [
    (tf.subtract, "Sub"), (tf.maximum, "Maximum"), (tf.math.equal, "Equal"),
    (tf.math.floormod, "FloorMod"), (tf.pow, "Pow"),
])
def test_leading_python_int_converts_on_its_own(fn, op, signature):
    with pytest.raises(TypeError, match=f"Input 'y' of '{op}' Op has type float32 that does "
                                        f"not match type int32 of argument 'x'"):
        _trace(lambda x: fn(3, x), X, signature=signature)


def test_leading_list_and_numpy_array_convert_on_their_own():
    with pytest.raises(TypeError, match="has type float32 that does not match type int64"):
        _trace(lambda x: tf.subtract(np.array([1, 2]), x), X)
    with pytest.raises(TypeError, match="has type float32 that does not match type int32"):
        _trace(lambda x: tf.subtract([1, 2], x), X)
    with pytest.raises(TypeError, match="has type float32 that does not match type int32"):
        _trace(lambda x: tf.maximum(3, x), tf.Variable([1.0, 2.0]))


def test_leading_python_float_and_reflected_operators_still_work():
    assert _trace(lambda x: tf.subtract(3.0, x), X).numpy().tolist() == [2.0, 1.0]
    assert _trace(lambda x: 3 - x, X).numpy().tolist() == [2.0, 1.0]
    # eagerly the Python value takes the tensor's dtype
    assert tf.subtract(3, X).numpy().tolist() == [2.0, 1.0]


def test_leading_python_int_outside_the_allowed_dtypes():
    with pytest.raises(TypeError, match="Value passed to parameter '.*' has DataType int32 "
                                        "not in list of allowed values"):
        _trace(lambda x: tf.math.xlogy(3, x), X)


@pytest.mark.parametrize("trace", [True, False])
def test_multiply_no_nan_converts_y_to_the_dtype_of_x(trace):
    fn = lambda x: tf.math.multiply_no_nan(3, x)  # noqa: E731
    with pytest.raises(ValueError, match="y: Tensor conversion requested dtype int32 for "
                                         "Tensor with dtype float32"):
        _trace(fn, X) if trace else fn(X)
    assert tf.math.multiply_no_nan(X, 2.0).numpy().tolist() == [2.0, 4.0]


def test_library_functions_with_python_scalars_trace():
    f64 = tf.constant([1.0, -2.0], tf.float64)
    assert _trace(lambda x: tf.nn.gelu(x), f64).dtype == tf.float64
    assert _trace(lambda x: tf.clip_by_norm(x, 1.0), X).numpy().tolist() == pytest.approx(
        [0.4472136, 0.8944272])
    assert _trace(lambda x: tf.math.divide_no_nan(3, x), X).numpy().tolist() == [3.0, 1.5]


M = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
M_UNKNOWN = [tf.TensorSpec([None, None], tf.float32)]


@pytest.mark.parametrize("signature", [None, M_UNKNOWN])
@pytest.mark.parametrize("fn, message", [
    (lambda x: tf.reduce_sum(x, axis=2), r"Invalid reduction dimension 2 for input with 2 "
                                         r"dimensions. for '\{\{node Sum\}\} = Sum\["),
    (lambda x: tf.argmax(x, axis=2), "for '{{node ArgMax}}"),
    (lambda x: tf.squeeze(x, axis=3), "for '{{node Squeeze}}"),
    (lambda x: tf.nn.l2_normalize(x, axis=3), "Invalid reduction dimension 3"),
])
def test_static_errors_of_shape_rules_are_value_errors_while_tracing(fn, message, signature):
    traced = tf.function(fn, input_signature=signature)
    with pytest.raises(ValueError, match=message):
        traced.get_concrete_function() if signature else traced.get_concrete_function(M)


IMAGES = tf.zeros([2, 4, 4, 3])


@pytest.mark.parametrize("fn, message", [
    (lambda x: tf.nn.max_pool2d(x, 2, 2, "FULL"), "Value for attr 'padding' of \"FULL\""),
    (lambda x: tf.nn.avg_pool2d(x, 2, 0, "VALID"), "Stride must be > 0"),
    (lambda x: tf.nn.depth_to_space(x, 2), "should be divisible by"),
    (lambda x: tf.nn.bias_add(x, tf.zeros([2])), "Must provide as many biases"),
])
def test_static_checks_of_op_wrappers_are_value_errors_while_tracing(fn, message):
    with pytest.raises(tf.errors.InvalidArgumentError, match=message):
        fn(IMAGES)
    with pytest.raises(ValueError, match=message):
        tf.function(fn).get_concrete_function(IMAGES)


def test_pooling_window_larger_than_the_input_is_a_value_error_while_tracing():
    pool = lambda x: tf.nn.avg_pool2d(x, 5, 1, "VALID")  # noqa: E731
    assert pool(IMAGES).shape == [2, 0, 0, 3]  # eagerly TF's kernel gives an empty result
    with pytest.raises(ValueError, match=r"Negative dimension size caused by subtracting 5 "
                                         r"from 4 for '\{\{node AvgPool"):
        tf.function(pool).get_concrete_function(IMAGES)
    unknown = tf.TensorSpec([None, None, None, 3])
    out = tf.function(pool).get_concrete_function(unknown).structured_outputs
    assert out.shape.as_list() == [None, None, None, 3]


@pytest.mark.parametrize("fn", [
    lambda x: tf.nn.conv2d(x, tf.ones([3, 3, 1, 2]), 1, "VALID"),
    lambda x: tf.nn.max_pool2d(x, 3, 1, "VALID"),
])
def test_window_larger_than_one_spatial_dim_is_tfs_negative_dimension_while_tracing(fn):
    # one spatial dim fits (8), the next (1) does not: TF's shape function's words for it,
    # not the kernel's "Computed output size would be negative"
    with pytest.raises(ValueError, match=r"Negative dimension size caused by subtracting 3 "
                                         r"from 1 for '\{\{node "):
        tf.function(fn).get_concrete_function(tf.TensorSpec([8, 8, 1, 1]))


@pytest.mark.parametrize("fn, x, w, message", [
    (lambda x, w: tf.nn.conv2d(x, w, 1, "VALID"), [None, 8, 8, 5], [3, 3, 4, 2],
     r"Depth of input \(5\) is not a multiple of input depth of filter \(4\) for "
     r"'\{\{node Conv2D\}\}"),
    (lambda x, w: tf.nn.conv3d(x, w, [1] * 5, "VALID"), [None, 6, 6, 6, 5], [3, 3, 3, 4, 2],
     r"Depth of input \(5\) is not a multiple of input depth of filter \(4\) for "
     r"'\{\{node Conv3D\}\}"),
    (lambda x, w: tf.nn.depthwise_conv2d(x, w, [1] * 4, "VALID"), [None, 8, 8, 5],
     [3, 3, 4, 1], r"Dimensions must be equal, but are 5 and 4 for '\{\{node "),
    (lambda x, w: tf.nn.conv2d(x, w, 1, "VALID"), [None, 8, 8], [3, 3, 4, 2],
     r"Shape must be rank 4 but is rank 3 for '\{\{node Conv2D\}\}"),
])
def test_convolutions_refuse_channels_and_ranks_in_tfs_shape_function_words(fn, x, w, message):
    with pytest.raises(ValueError, match=message):
        tf.function(fn).get_concrete_function(tf.TensorSpec(x), tf.TensorSpec(w))


def test_softmax_axis_out_of_range_stays_invalid_argument_while_tracing():
    # TF's softmax wrapper raises InvalidArgumentError itself, in graphs as well
    with pytest.raises(tf.errors.InvalidArgumentError, match="`dim` must be in the range"):
        tf.function(lambda x: tf.nn.softmax(x, axis=3)).get_concrete_function(M)


@pytest.mark.parametrize("fn, param", [
    (lambda x: tf.gather(x, tf.constant([0.0])), "indices"),
    (lambda x: tf.math.segment_sum(x, tf.constant([0.0, 0.0])), "segment_ids"),
    (lambda x: tf.one_hot(tf.constant([0.0]), 2), "indices"),
    (lambda x: tf.nn.sparse_softmax_cross_entropy_with_logits(tf.constant([0.0, 1.0]), x),
     "labels"),
])
def test_index_dtype_outside_the_allowed_list_is_a_type_error_while_tracing(fn, param):
    with pytest.raises(tf.errors.InvalidArgumentError, match="is not in the list of allowed"):
        fn(M)
    with pytest.raises(TypeError, match=f"Value passed to parameter '{param}' has DataType "
                                        f"float32 not in list of allowed values: "):
        tf.function(fn).get_concrete_function(M)


@pytest.mark.parametrize("fn, args, message", [
    (tf.nn.softmax, [tf.constant(1.0)], "Shape must be at least rank 1 but is rank 0 for "
                                        "'{{node Softmax}}"),
    (tf.nn.log_softmax, [tf.constant(1.0)], "Shape must be at least rank 1 but is rank 0"),
    (lambda x: tf.math.top_k(x, 9), [tf.zeros([2, 4])], "input must have last dimension >= "
                                                         "k = 9 but is 4"),
    (lambda x: tf.math.top_k(x, 1), [tf.constant(1.0)], "Shape must be at least rank 1"),
    (lambda x: tf.unique(x), [M], "Shape must be rank 1 but is rank 2 for '{{node Unique}}"),
    (lambda x: tf.math.unsorted_segment_sum(x, tf.constant([0, 1, 0, 1]), 2), [tf.zeros([3, 2])],
     "Dimensions must be equal, but are 3 and 4"),
    (lambda a, x: tf.math.betainc(a, tf.ones([2]), x), [M, M],
     "Shapes must be equal rank, but are 2 and 1"),
])
def test_shape_rules_check_what_tf_checks_while_tracing(fn, args, message):
    with pytest.raises(ValueError, match=message.replace("{", r"\{").replace("}", r"\}")):
        tf.function(fn).get_concrete_function(*args)


def test_checked_shape_rules_accept_unknown_dims():
    spec = tf.TensorSpec([None, None])
    assert tf.function(tf.nn.softmax).get_concrete_function(spec).structured_outputs.shape.rank == 2
    top = tf.function(lambda x: tf.math.top_k(x, 9).values).get_concrete_function(spec)
    assert top.structured_outputs.shape.as_list() == [None, 9]
    seg = tf.function(lambda x: tf.math.unsorted_segment_sum(x, tf.constant([0, 1, 0]), 2))
    assert seg(tf.ones([3, 2])).numpy().tolist() == [[2.0, 2.0], [1.0, 1.0]]


@pytest.mark.parametrize("fn, message", [
    (lambda x: tf.nn.log_poisson_loss(tf.zeros([3]), x), "`log_input` and `targets` must have "
                                                         "the same shape"),
    (lambda x: tf.nn.weighted_cross_entropy_with_logits(tf.zeros([3]), x, 2.0),
     "`logits` and `labels` must have the same shape"),
    (lambda x: tf.math.polyval(tf.constant([1.0, 2.0]), x), "Argument coeffs must be list type"),
])
def test_python_checks_of_nn_and_math_wrappers_hold_for_unknown_dims(fn, message):
    with pytest.raises(ValueError, match=message):
        tf.function(fn, input_signature=M_UNKNOWN).get_concrete_function()
    with pytest.raises(ValueError, match=message):
        fn(M)


def test_argmin_with_a_list_axis():
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"dim must be a scalar, but "
                                                             r"received tensor of shape: \[2\]"):
        tf.argmin(M, axis=tf.constant([0, 1]))
    with pytest.raises(ValueError, match="Shape must be rank 0 but is rank 1"):
        tf.function(lambda x: tf.argmin(x, axis=tf.constant([0, 1]))).get_concrete_function(M)
    with pytest.raises(ValueError, match="Shape must be rank 0 but is rank 1"):
        tf.function(lambda x: tf.argmin(x, axis=[0, 1])).get_concrete_function(M)
    with pytest.raises(tf.errors.InvalidArgumentError, match="dim must be a scalar"):
        tf.argmin(M, axis=[0, 1])
    with pytest.raises(TypeError, match="axis must be int or Tensor with integer datatype"):
        tf.argmax(M, axis=[0, 1])
    assert tf.argmin(M, axis=tf.constant(1)).numpy().tolist() == [0, 0]


@pytest.mark.parametrize("fn, rank", [(tf.signal.fft2d, 2), (tf.signal.ifft3d, 3)])
def test_fft_of_too_low_a_rank_is_a_value_error_while_tracing(fn, rank):
    x = tf.constant([1.0, 2.0], tf.complex64)
    with pytest.raises(ValueError, match=f"Shape must be at least rank {rank} but is rank 1"):
        tf.function(fn).get_concrete_function(x)
    assert tf.function(fn).get_concrete_function(tf.TensorSpec(None, x.dtype)) is not None


def test_equality_operators_of_unknown_shapes_that_do_not_broadcast_are_unequal():
    spec = [tf.TensorSpec([None, None])] * 2
    eq = tf.function(lambda x, y: x == y, input_signature=spec)
    ne = tf.function(lambda x, y: x != y, input_signature=spec)
    a, b = tf.zeros([2, 3]), tf.zeros([3, 2])
    assert eq(a, b).numpy().tolist() is False and eq(a, b).shape == []
    assert ne(a, b).numpy().tolist() is True
    assert eq(a, a).numpy().tolist() == [[True] * 3] * 2
    assert eq.get_concrete_function().structured_outputs.shape.as_list() == [None, None]
    partly = tf.function(lambda x, y: x == y,
                         input_signature=[tf.TensorSpec([2, 3]), tf.TensorSpec([None, 3])])
    assert partly.get_concrete_function().structured_outputs.shape.rank is None
    with pytest.raises(tf.errors.InvalidArgumentError):  # tf.equal keeps raising
        tf.function(tf.equal, input_signature=spec)(a, b)


def test_sort_of_a_scalar():
    with pytest.raises(tf.errors.InvalidArgumentError, match="slice index -1 of dimension 0"):
        tf.sort(tf.constant(1.0))
    with pytest.raises(ValueError, match="slice index -1 of dimension 0 out of bounds"):
        tf.function(tf.sort).get_concrete_function(tf.constant(1.0))


AXIS_SPEC = [tf.TensorSpec([None, None]), tf.TensorSpec([], tf.int32)]


@pytest.mark.parametrize("fn", [tf.argmax, tf.argmin, tf.cumsum, tf.math.cumprod,
                                tf.math.cumulative_logsumexp])
def test_axis_known_only_at_run_time(fn):
    traced = tf.function(lambda x, axis: fn(x, axis), input_signature=AXIS_SPEC)
    for axis in (0, 1, -1):
        want = fn(M, axis).numpy()
        assert np.allclose(traced(M, tf.constant(axis)).numpy(), want)
    with pytest.raises(tf.errors.InvalidArgumentError):
        traced(M, tf.constant(2))


def test_gradient_of_a_scan_along_a_run_time_axis():
    @tf.function(input_signature=AXIS_SPEC)
    def grads(x, axis):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(tf.cumsum(x, axis) * tf.math.cumprod(x, axis))
        return tape.gradient(y, x)

    with tf.GradientTape() as tape:
        tape.watch(M)
        y = tf.reduce_sum(tf.cumsum(M, 1) * tf.math.cumprod(M, 1))
    assert np.allclose(grads(M, tf.constant(1)).numpy(), tape.gradient(y, M).numpy())


@pytest.mark.parametrize("fn, message", [
    (lambda x: tf.unstack(x, num=3), "Dimension must be 3 but is 2"),
    (lambda x: tf.split(x, 0), "Attr 'num_split' of 'Split' Op passed 0 less than minimum 1"),
    (lambda x: tf.fill([2], x), "Shape must be rank 0 but is rank 2"),
    (lambda x: tf.one_hot([0], -1), "must be non-negative but is -1"),
    (lambda x: tf.pad(x, [[1, 1], [-1, 0]]), "Paddings must be non-negative"),
    (lambda x: tf.gather_nd(x, [[0, 0, 0]]), r"indices.shape\[-1\] must be <= params.rank"),
    (lambda x: tf.reverse(x, [0, -2]), "axis 0 specified more than once"),
    (lambda x: tf.roll(x, [1, 1], [0]), "Dimension 0 in both shapes must be equal, but are 2 "
                                        "and 1"),
    (lambda x: tf.linalg.tensor_diag(x[0, 0]), "Shape must be at least rank 1 but is rank 0"),
])
def test_array_shape_rules_check_what_tf_checks_while_tracing(fn, message):
    with pytest.raises(ValueError, match=message):
        tf.function(fn).get_concrete_function(M)


def test_array_checks_leave_eager_errors_and_unknown_dims_alone():
    for fn in (lambda: tf.split(M, 0), lambda: tf.roll(M, [1, 1], [0]),
               lambda: tf.one_hot([0], -1), lambda: tf.unstack(M, num=3)):
        with pytest.raises(tf.errors.InvalidArgumentError):
            fn()
    spec = tf.TensorSpec([None, None])
    assert tf.function(lambda x: tf.unstack(x, num=3)).get_concrete_function(spec) is not None


def test_expand_dims_at_a_run_time_axis():
    traced = tf.function(lambda x, axis: tf.expand_dims(x, axis), input_signature=AXIS_SPEC)
    for axis in (0, 2, -1):
        assert traced(M, tf.constant(axis)).shape == tf.expand_dims(M, axis).shape
    assert traced.get_concrete_function().structured_outputs.shape.as_list() == [None] * 3

    @tf.function(input_signature=AXIS_SPEC)
    def grad(x, axis):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(tf.expand_dims(x, axis) * 2.0)
        return tape.gradient(y, x)

    assert grad(M, tf.constant(1)).numpy().tolist() == [[2.0] * 3] * 2


@pytest.mark.parametrize("fn", [
    lambda x: tf.scatter_nd([[0], [1]], x, [4]),
    lambda x: tf.tensor_scatter_nd_add(tf.zeros([4]), [[0], [1]], x),
    lambda x: tf.tensor_scatter_nd_update(tf.zeros([4]), [[0], [1]], x),
])
def test_scatter_with_updates_not_matching_the_indices(fn):
    x = tf.ones([3])
    with pytest.raises(ValueError, match=r"Dimensions \[0,1\) of indices\[shape=\[2,1\]\] = "
                                         r"\[2\] must match dimensions \[0,1\) of updates"):
        tf.function(fn).get_concrete_function(x)
    with pytest.raises(tf.errors.InvalidArgumentError):
        fn(x)
    assert tf.function(fn).get_concrete_function(tf.TensorSpec([None])) is not None


def _gather_at(x, i):
    return tf.gather(x, i)


def _call_gather(f):
    return f(tf.constant([1, 2, 3]), tf.constant(5))


def test_run_time_errors_list_every_user_frame_that_made_the_op():
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        _call_gather(tf.function(_gather_at))
    text = str(info.value)
    head, rest = text.split("Detected at node GatherV2 defined at (most recent call last):\n")
    assert head == "Graph execution error:\n\n"
    frames = rest.split("indices = 5 is not in [0, 3)")[0]
    assert f'", line {_call_gather.__code__.co_firstlineno + 1}, in _call_gather\n\n' in frames
    assert frames.endswith(f'", line {_gather_at.__code__.co_firstlineno + 1}, in _gather_at\n\n')
    assert frames.index("in test_run_time_errors") < frames.index("in _call_gather")


def test_a_branch_tensor_used_after_the_cond_is_tfs_inaccessible_tensor_error():
    import pytest

    @tf.function
    def f(x):
        box = []

        def true_fn():
            v = x * 2
            box.append(v)
            return v
        r = tf.cond(x > 0, true_fn, lambda: x)
        return box[0] + r

    # (TF's class is not public: its name shows in the error)
    with pytest.raises(ValueError, match="is out of scope and cannot be used here") as e:
        f(tf.constant(1))
    assert type(e.value).__name__ == "InaccessibleTensorError"


def test_a_tensor_leaked_from_a_trace_is_out_of_scope_with_tfs_message():
    leaked = []

    @tf.function
    def f():
        leaked.append(tf.constant(1))
        return tf.constant(1)

    f()
    with pytest.raises(TypeError, match=r"^<tf.Tensor 'Const:0' shape=\(\) dtype=int32> is out "
                       r"of scope and cannot be used here. Use return values, explicit Python "
                       r"locals or TensorFlow collections to access it.\nPlease see "):
        leaked[0] + 1

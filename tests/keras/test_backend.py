"""keras.backend: global settings, name counters, learning phase and helpers; dtype policies."""
import re
import warnings

import numpy as np
import pytest

import eagerflow as tf

K = tf.keras.backend


def test_floatx_epsilon_and_image_format():
    assert K.floatx() == "float32" and K.epsilon() == 1e-7
    assert K.image_data_format() == "channels_last"
    with pytest.raises(ValueError, match="Unknown `floatx` value: float8"):
        K.set_floatx("float8")
    with pytest.raises(ValueError, match="Unknown `floatx` value: <dtype: 'float64'>"):
        K.set_floatx(tf.float64)  # a DType is not a floatx name
    assert K.floatx() == "float32"
    with pytest.raises(ValueError, match="data_format"):
        K.set_image_data_format("nhwc")
    K.set_floatx("float64")
    try:
        assert K.cast_to_floatx([1.0]).dtype == np.float64
        assert tf.keras.layers.Dense(1).dtype == "float64"
    finally:
        K.set_floatx("float32")


def test_uids_restart_with_the_session():
    K.clear_session()
    assert (K.get_uid("x"), K.get_uid("x"), K.get_uid("y")) == (1, 2, 1)
    assert tf.keras.layers.Dense(1).name == "dense"
    assert tf.keras.Input((2,)).name == "input_1"
    K.clear_session()
    assert K.get_uid("x") == 1
    assert tf.keras.Input((2,)).name == "input_1"


def test_learning_phase_and_train_phase_selection():
    K.clear_session()
    assert K.learning_phase() == 0
    assert K.in_train_phase(1.0, 2.0) == 2.0
    assert K.in_train_phase(lambda: "train", lambda: "test", training=True) == "train"
    assert K.in_test_phase("test", "train", training=False) == "test"
    deprecated = ("`tf.keras.backend.set_learning_phase` is deprecated and will be removed "
                  "after 2020-10-11.")
    with pytest.warns(UserWarning, match=re.escape(deprecated)):
        K.set_learning_phase(1)
    try:
        assert K.in_train_phase("train", "test") == "train"
    finally:
        K.clear_session()
    with pytest.raises(ValueError, match="Expected learning phase to be 0 or 1"), \
            pytest.warns(UserWarning, match=re.escape(deprecated)):
        K.set_learning_phase(2)
    with warnings.catch_warnings(record=True) as caught:  # (the scope warns once, for itself)
        warnings.simplefilter("always")
        with K.learning_phase_scope(1):
            assert K.learning_phase() == 1
    assert [str(w.message).split(" is ")[0] for w in caught] == [
        "`tf.keras.backend.learning_phase_scope`"]

    @tf.function
    def choose(flag):
        return K.in_train_phase(lambda: tf.constant(1.0), lambda: tf.constant(0.0), flag)

    assert float(choose(tf.constant(True))) == 1.0
    assert float(choose(tf.constant(False))) == 0.0


def test_shape_and_value_helpers():
    v = tf.Variable(np.zeros((2, 3), "float32"))
    assert K.int_shape(v) == (2, 3) and K.ndim(v) == 2 and K.dtype(v) == "float32"
    assert K.count_params(v) == 6
    K.set_value(v, np.ones((2, 3)))
    np.testing.assert_array_equal(K.get_value(v), np.ones((2, 3)))
    K.batch_set_value([(v, np.full((2, 3), 2.0))])
    np.testing.assert_array_equal(K.batch_get_value([v])[0], np.full((2, 3), 2.0))
    assert K.is_keras_tensor(tf.keras.Input((2,))) and not K.is_keras_tensor(tf.constant(1.0))


def test_get_value_returns_what_is_no_tensor_as_it_is():
    # as tf_keras: so LR callbacks on an optimizer whose rate is a schedule fail as TF's do
    schedule = tf.keras.optimizers.schedules.ExponentialDecay(0.1, 2, 0.5)
    for value in (3.0, 2, [1, 2], "s", None, schedule):
        assert K.get_value(value) is value
    array = np.array([1.5])
    assert K.get_value(array) is array
    with pytest.raises(AttributeError):
        K.batch_get_value([3.0])
    model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1)])
    model.compile(tf.keras.optimizers.legacy.SGD(schedule), "mse")
    reduce = tf.keras.callbacks.ReduceLROnPlateau(monitor="loss", patience=0, min_delta=10)
    with pytest.raises(TypeError, match="'<' not supported"):
        model.fit(np.ones((4, 2)), np.ones((4, 1)), epochs=2, verbose=0, callbacks=[reduce])


def test_dtype_policies():
    policy = tf.keras.mixed_precision.Policy("mixed_bfloat16")
    assert (policy.compute_dtype, policy.variable_dtype) == ("bfloat16", "float32")
    with pytest.raises(ValueError, match="Cannot convert value float8 to a mixed precision"):
        tf.keras.mixed_precision.Policy("float8")
    with pytest.raises(TypeError, match="must be a string, not a DType"):
        tf.keras.mixed_precision.Policy(tf.float32)
    tf.keras.mixed_precision.set_global_policy("mixed_float16")
    try:
        assert tf.keras.layers.Dense(1).compute_dtype == "float16"
        with pytest.raises(ValueError, match="floating-point policies"):
            tf.keras.mixed_precision.set_global_policy("int32")
    finally:
        tf.keras.mixed_precision.set_global_policy(None)
    assert tf.keras.mixed_precision.global_policy().name == "float32"


# -- tensor functions ----------------------------------------------------------------------

def test_reductions_and_their_bool_and_default_axes():
    x = K.constant([[1.0, -2.0, 3.0], [0.5, 0.0, -1.5]])
    assert x.dtype == tf.float32 and K.constant([1, 2]).dtype == tf.float32  # floatx
    assert float(K.sum(x)) == 1.0 and K.sum(x, axis=1, keepdims=True).shape == (2, 1)
    assert float(K.mean(K.greater(x, 0.0))) == 0.5  # booleans count as floatx
    np.testing.assert_allclose(K.std(x).numpy(), np.std(x.numpy()), rtol=1e-6)
    np.testing.assert_array_equal(K.any(x, axis=1).numpy(), [True, True])
    assert not bool(K.all(x))
    np.testing.assert_array_equal(K.argmax(x).numpy(), [2, 0])


def test_sqrt_of_negatives_and_clip_bounds():
    x = K.constant([-4.0, 0.25, 9.0])
    np.testing.assert_array_equal(K.sqrt(x).numpy(), [0.0, 0.5, 3.0])
    np.testing.assert_array_equal(K.clip(x, 2, 1).numpy(), [2.0, 2.0, 2.0])
    np.testing.assert_array_equal(K.clip(x, None, 0.5).numpy(), [-4.0, 0.25, 0.5])


def test_shapes_and_products():
    x = K.constant(np.arange(6).reshape(2, 3))
    assert K.batch_flatten(K.ones((2, 2, 3))).shape == (2, 6)
    assert K.flatten(x).shape == (6,)
    np.testing.assert_array_equal(K.repeat_elements(x, 2, axis=1).numpy()[0],
                                  [0, 0, 1, 1, 2, 2])
    assert K.repeat(x, 4).shape == (2, 4, 3)
    assert K.concatenate([x, x]).shape == (2, 6)
    assert K.dot(K.ones((2, 3, 4)), K.ones((4, 5))).shape == (2, 3, 5)
    assert K.dot(K.ones((3, 4)), K.ones((2, 4, 5))).shape == (3, 2, 5)


def test_zeros_and_ones_are_variables_unless_empty():
    z = K.zeros((2, 3))
    assert isinstance(z, tf.Variable) and z.dtype == tf.float32
    assert isinstance(K.ones((2,), dtype="int32"), tf.Variable)
    assert not isinstance(K.zeros((0, 2)), tf.Variable)
    v = K.variable([[1, 2], [3, 4]])
    K.moving_average_update(v, K.zeros((2, 2)), 0.9)
    np.testing.assert_allclose(K.eval(v), [[0.9, 1.8], [2.7, 3.6]], rtol=1e-6)


def test_switch_scalar_and_tiled_conditions():
    x = K.constant([[1.0, -2.0, 3.0], [0.5, 0.0, -1.5]])
    np.testing.assert_array_equal(K.switch(K.constant(False, dtype="bool"), x, -x).numpy(),
                                  -x.numpy())
    rows = K.constant([[True], [False]], dtype="bool")  # tiled along the last axis
    np.testing.assert_array_equal(K.switch(rows, x, -x).numpy(),
                                  [[1.0, -2.0, 3.0], [-0.5, -0.0, 1.5]])
    with pytest.raises(ValueError, match="Rank of `condition` should be less than"):
        K.switch(K.ones((2, 2, 2), dtype="bool"), x, x)


def test_keras_activations_and_bias_add():
    x = K.constant([[-1.0, 0.5, 3.0]])
    np.testing.assert_allclose(K.relu(x, alpha=0.1, max_value=2.0).numpy(), [[-0.1, 0.5, 2.0]])
    np.testing.assert_allclose(K.hard_sigmoid(x).numpy(), [[0.3, 0.6, 1.0]], rtol=1e-6)
    np.testing.assert_array_equal(K.bias_add(x, K.constant([1.0, 2.0, 3.0])).numpy(),
                                  [[0.0, 2.5, 6.0]])
    np.testing.assert_array_equal(K.in_top_k(x, [2], 1).numpy(), [True])


def test_unseeded_random_functions_take_numpy_seeds():
    def draw(numpy_seed):
        tf.random.set_seed(1)
        np.random.seed(numpy_seed)
        return K.random_uniform((3,)).numpy()
    np.testing.assert_array_equal(draw(0), draw(0))
    assert not np.array_equal(draw(0), draw(1))


def test_unseeded_random_variables_take_numpy_seeds_below_10e8():
    # tf_keras's random variables draw their seed as np.random.randint(10e8)
    tf.random.set_seed(None)
    np.random.seed(0)
    u = K.random_uniform_variable([2], 0, 1)
    n = K.random_normal_variable([2], 0, 1)
    np.testing.assert_allclose(u.numpy(), [0.81926107, 0.45749211], rtol=1e-6)
    np.testing.assert_allclose(n.numpy(), [0.04415143, -0.31713587], rtol=1e-5)
    assert np.random.randint(10) == 5


def test_random_binomial_warns_that_it_is_deprecated():
    with pytest.warns(UserWarning, match="`tf.keras.backend.random_binomial` is deprecated"):
        K.random_binomial([2], 0.5, seed=1)


def test_print_tensor_writes_to_stdout(capsys):
    x = K.constant([1.0, 2.0])
    assert K.print_tensor(x, message="x =") is x
    assert capsys.readouterr().out == "x = [1 2]\n"


# -- tf_keras's backend functions beyond the basic ones (values from tf_keras 2.21) ------------

def test_backend_name_arange_eye_reverse():
    assert K.backend() == "tensorflow"
    assert K.arange(5).numpy().tolist() == [0, 1, 2, 3, 4] and K.arange(-3).numpy().size == 0
    assert K.arange(1, 7, 2, dtype="float32").numpy().tolist() == [1.0, 3.0, 5.0]
    eye = K.eye(2, dtype="int32")
    assert isinstance(eye, tf.Variable) and eye.numpy().tolist() == [[1, 0], [0, 1]]
    x = K.constant([[1, 2], [3, 4]])
    assert K.reverse(x, 1).numpy().tolist() == [[2, 1], [4, 3]]
    assert K.reverse(x, [0, 1]).numpy().tolist() == [[4, 3], [2, 1]]


@pytest.mark.parametrize("x_shape, y_shape, axes, shape, total", [
    ((2, 3, 4), (2, 4, 5), None, (2, 3, 5), 34860.0),
    ((32, 20, 1), (32, 30, 20), (1, 2), (32, 1, 30), 19200.0),
    ((2, 3), (2, 3), 1, (2, 1), 6.0),
    ((2, 3), (2, 3, 4), (1, 1), (2, 4), 24.0),
    ((2, 3, 4), (2, 4), (2, 1), (2, 3), 24.0)])
def test_batch_dot_shapes(x_shape, y_shape, axes, shape, total):
    def values(s):  # a ramp for the first case, ones for the others
        n = np.arange(np.prod(s)) if axes is None else np.ones(np.prod(s))
        return K.constant(n.reshape(s).astype("float32"))
    result = K.batch_dot(values(x_shape), values(y_shape), axes=axes)
    assert result.shape == shape and float(K.sum(result)) == total


def test_batch_dot_errors():
    x, y = K.ones((2, 3, 4)), K.ones((2, 4, 5))
    with pytest.raises(ValueError, match="Cannot perform batch_dot over axis 0"):
        K.batch_dot(x, y, axes=0)
    with pytest.raises(ValueError, match=r"x.shape\[1\] != y.shape\[2\] \(3 != 5\)"):
        K.batch_dot(x, y, axes=(1, 2))


def test_crossentropies():
    t, p = K.constant([[0., 1.], [1., 0.]]), K.constant([[0.2, 0.8], [0.6, 0.4]])
    np.testing.assert_allclose(K.categorical_crossentropy(t, p), [0.22314353, 0.5108256],
                               rtol=1e-6)
    np.testing.assert_allclose(K.categorical_crossentropy(t, p, from_logits=True),
                               [0.437488, 0.59813887], rtol=1e-6)
    np.testing.assert_allclose(K.binary_crossentropy(t, p),
                               [[0.22314338, 0.22314338], [0.5108254, 0.5108254]], rtol=1e-6)
    np.testing.assert_allclose(K.binary_crossentropy(t, p, from_logits=True),
                               [[0.79813886, 0.37110066], [0.43748793, 0.91301525]], rtol=1e-6)
    np.testing.assert_allclose(K.sparse_categorical_crossentropy(K.constant([1, 0]), p),
                               [0.22314355, 0.5108256], rtol=1e-6)
    np.testing.assert_allclose(K.binary_focal_crossentropy(t, p),
                               [[0.00892573, 0.00892573], [0.08173206, 0.08173206]], rtol=1e-5)
    np.testing.assert_allclose(K.categorical_focal_crossentropy(t, p),
                               [0.00223144, 0.02043302], rtol=1e-5)


def test_convolutions_pooling_padding_resizing():
    img = K.constant(np.arange(32, dtype="float32").reshape(1, 4, 4, 2))
    kernel = K.ones((2, 2, 2, 3))
    assert K.conv2d(img, kernel).shape == (1, 3, 3, 3)
    assert float(K.sum(K.conv2d(img, kernel, padding="same", strides=(2, 2)))) == 1488.0
    assert K.conv2d(K.permute_dimensions(img, (0, 3, 1, 2)), kernel,
                    data_format="channels_first").shape == (1, 3, 3, 3)
    assert K.conv1d(K.ones((1, 5, 2)), K.ones((3, 2, 1)),
                    padding="causal").numpy().ravel().tolist() == [2, 4, 6, 6, 6]
    assert K.conv1d(K.ones((1, 5, 2)), K.ones((3, 2, 1)), dilation_rate=2).shape == (1, 1, 1)
    assert K.pool2d(img, (2, 2), strides=(2, 2)).numpy().ravel().tolist() == [
        10, 11, 14, 15, 26, 27, 30, 31]
    assert K.pool2d(img, (2, 2), pool_mode="avg", padding="same").shape == (1, 4, 4, 2)
    assert K.pool3d(K.ones((1, 4, 4, 4, 1)), (2, 2, 2), (2, 2, 2)).shape == (1, 2, 2, 2, 1)
    assert K.depthwise_conv2d(img, K.ones((2, 2, 2, 1))).shape == (1, 3, 3, 2)
    assert K.separable_conv2d(img, K.ones((2, 2, 2, 1)), K.ones((1, 1, 2, 3))).shape == \
        (1, 3, 3, 3)
    assert K.conv2d_transpose(img, K.ones((2, 2, 3, 2)), (1, 8, 8, 3),
                              strides=(2, 2)).shape == (1, 8, 8, 3)
    assert K.temporal_padding(K.ones((1, 2, 1)), (1, 2)).shape == (1, 5, 1)
    assert K.spatial_2d_padding(img).shape == (1, 6, 6, 2)
    assert K.spatial_2d_padding(img, ((0, 1), (2, 0)),
                                data_format="channels_first").shape == (1, 4, 5, 4)
    assert K.spatial_3d_padding(K.ones((1, 2, 2, 2, 1))).shape == (1, 4, 4, 4, 1)
    assert K.resize_images(img, 2, 3, "channels_last").shape == (1, 8, 12, 2)
    np.testing.assert_allclose(
        K.resize_images(img, 2, 2, "channels_last", interpolation="bilinear")[0, :3, 0, 0],
        [0.0, 2.0, 6.0])


def test_random_sparse_loops_and_scopes():
    assert K.random_bernoulli((4,), p=1.0).numpy().tolist() == [1.0] * 4
    assert K.random_bernoulli((2,), p=0.0, dtype="float64").dtype == tf.float64
    assert isinstance(K.random_normal_variable((2,), 0, 1), tf.Variable)
    sparse = tf.sparse.SparseTensor([[0, 1]], [2.0], [2, 2])
    assert K.is_sparse(sparse) and not K.is_sparse(K.ones(1))
    assert K.to_dense(sparse).numpy().tolist() == [[0.0, 2.0], [0.0, 0.0]]
    assert K.map_fn(lambda v: v * 2, K.constant([1., 2.])).numpy().tolist() == [2.0, 4.0]
    assert float(K.foldl(lambda a, v: a + v, K.constant([1., 2., 3.]))) == 6.0
    assert float(K.foldr(lambda a, v: a - v, K.constant([1., 2., 3.]))) == 0.0
    with pytest.warns(UserWarning, match="learning_phase_scope` is deprecated"):
        with K.learning_phase_scope(1):
            assert K.learning_phase() == 1
    assert K.learning_phase() == 0


def test_rnn_loop():
    def step(x, states):
        return states[0] + x, [states[0] + x]
    last, outputs, states = K.rnn(step, K.ones((2, 3, 4)), [K.zeros((2, 4))])
    assert last.numpy()[0].tolist() == [3.0] * 4 and outputs.shape == (2, 3, 4)
    mask = K.constant(np.array([[1, 1, 0], [1, 0, 0]], bool), dtype="bool")
    last, outputs, _ = K.rnn(step, K.ones((2, 3, 4)), [K.zeros((2, 4))], mask=mask,
                             go_backwards=True)
    assert last.numpy()[:, 0].tolist() == [2.0, 1.0]
    assert outputs.numpy()[:, :, 0].tolist() == [[0.0, 1.0, 2.0], [0.0, 0.0, 1.0]]


def test_function_of_keras_tensors():
    inp = tf.keras.Input((2,))
    out = tf.keras.layers.Dense(1, kernel_initializer="ones")(inp)
    values = K.function([inp], [out])([np.ones((1, 2))])
    assert isinstance(values, list) and isinstance(values[0], np.ndarray)
    assert values[0].tolist() == [[2.0]]
    assert isinstance(K.function(inp, out)(np.ones((1, 2))), np.ndarray)


def test_is_keras_tensor_rejects_values_that_are_no_tensor():
    K = tf.keras.backend
    assert K.is_keras_tensor(tf.keras.Input((2,)))
    assert not K.is_keras_tensor(tf.constant(1.0)) and not K.is_keras_tensor(tf.Variable(1.0))
    for value in (3, np.ones(2)):
        with pytest.raises(ValueError, match="Expected a symbolic tensor instance"):
            K.is_keras_tensor(value)


def test_get_uid_counts_apart_from_layer_names():
    tf.keras.backend.clear_session()
    assert tf.keras.layers.Dense(2).name == "dense"
    assert [tf.keras.backend.get_uid("dense") for _ in range(2)] == [1, 2]
    assert tf.keras.layers.Dense(2).name == "dense_1"
    assert tf.keras.backend.get_uid("dense") == 3
    tf.keras.backend.reset_uids()
    assert tf.keras.backend.get_uid("dense") == 1
    assert tf.keras.layers.Dense(2).name == "dense"


def test_placeholder_is_a_keras_input_of_the_whole_shape():
    K = tf.keras.backend
    x = K.placeholder((None, 2))
    assert K.is_keras_tensor(x) and K.int_shape(x) == (None, 2) and x.dtype == tf.float32
    assert K.int_shape(K.placeholder(ndim=3, dtype="int32")) == (None, None, None)
    out = tf.keras.layers.Dense(1)(x)
    assert tf.keras.Model(x, out)(np.ones((3, 2), "float32")).shape == (3, 1)
    with pytest.raises(ValueError, match="Cannot set both sparse and ragged"):
        K.placeholder((2,), sparse=True, ragged=True)


def test_gradients_only_inside_a_function_and_legacy_settings():
    K = tf.keras.backend
    with pytest.raises(RuntimeError, match="tf.gradients is not supported when eager"):
        K.gradients(tf.constant(1.0), [tf.constant(1.0)])

    @tf.function
    def grad(v):
        return K.gradients(v * v, [v])
    assert float(grad(tf.constant(3.0))[0]) == 6.0
    assert K.manual_variable_initialization(True) is None
    K.manual_variable_initialization(False)
    with pytest.raises(ValueError, match=r"^Unknown `data_format`: bad. Expected one of"):
        K.set_image_data_format("bad")


def test_batch_normalization_helpers():
    K = tf.keras.backend
    x = np.array([[1.0, -2.0], [3.0, 4.0]], "float32")
    out = K.batch_normalization(x, np.zeros(2, "float32"), np.ones(2, "float32"),
                                np.zeros(2, "float32"), np.ones(2, "float32"))
    np.testing.assert_allclose(out.numpy(), x / np.sqrt(1.001), rtol=1e-6)
    normed, mean, var = K.normalize_batch_in_training(x, np.ones(2, "float32"),
                                                      np.zeros(2, "float32"), [0])
    np.testing.assert_allclose(mean.numpy(), [2.0, 1.0])
    np.testing.assert_allclose(var.numpy(), [1.0, 9.0])
    np.testing.assert_allclose(normed.numpy(), (x - [2.0, 1.0]) / np.sqrt([1.001, 9.001]),
                               rtol=1e-6)
    images = np.arange(16, dtype="float32").reshape(2, 2, 2, 2)
    _, mean, var = K.normalize_batch_in_training(images, None, None, [0, 1, 2])
    np.testing.assert_allclose(var.numpy(), images.reshape(-1, 2).var(0, ddof=1), rtol=1e-6)


def test_local_convolutions_and_resize_volumes_give_tf_keras_values():
    # values printed by tf_keras 2.21 for the same calls
    K = tf.keras.backend
    x = tf.constant(np.arange(30, dtype="float32").reshape(2, 5, 3))
    k = tf.constant(np.arange(48, dtype="float32").reshape(4, 6, 2) / 10)
    out = K.local_conv1d(x, k, (2,), (1,))
    assert out.shape == (2, 4, 2)
    np.testing.assert_allclose(out.numpy().ravel()[:8],
                               [11.0, 12.5, 59.6, 62.9, 151.4, 156.5, 286.4, 293.3], rtol=1e-6)
    strided = K.local_conv1d(x, tf.constant(np.arange(24, dtype="float32").reshape(2, 6, 2)
                                            / 10), (2,), (2,))
    np.testing.assert_allclose(strided.numpy().ravel(),
                               [11.0, 12.5, 90.2, 95.3, 56.0, 66.5, 243.2, 257.3], rtol=1e-6)
    x2 = tf.constant(np.arange(96, dtype="float32").reshape(2, 4, 4, 3))
    k2 = tf.constant(np.arange(216, dtype="float32").reshape(9, 12, 2) / 100)
    last = K.local_conv2d(x2, k2, (2, 2), (1, 1), (3, 3))
    assert last.shape == (2, 3, 3, 2)
    np.testing.assert_allclose(last.numpy().ravel()[:4], [16.24, 17.26, 53.32, 54.7], rtol=1e-5)
    first = K.local_conv2d(tf.transpose(x2, (0, 3, 1, 2)), k2, (2, 2), (1, 1), (3, 3),
                           data_format="channels_first")
    assert first.shape == (2, 2, 3, 3)
    np.testing.assert_allclose(first.numpy().ravel()[:4], [13.48, 50.56, 104.92, 206.44],
                               rtol=1e-5)
    with pytest.raises(ValueError, match="^Unknown data_format: bad$"):
        K.local_conv1d(x, k, (2,), (1,), data_format="bad")
    v = tf.constant(np.arange(16, dtype="float32").reshape(2, 2, 2, 2, 1))
    up = K.resize_volumes(v, 2, 3, 1, "channels_last")
    assert up.shape == (2, 4, 6, 2, 1)
    np.testing.assert_array_equal(up.numpy().ravel()[:12], [0, 1, 0, 1, 0, 1, 2, 3, 2, 3, 2, 3])
    assert K.resize_volumes(tf.transpose(v, (0, 4, 1, 2, 3)), 2, 1, 2,
                            "channels_first").shape == (2, 1, 4, 2, 4)
    with pytest.raises(ValueError, match="^Invalid data_format: bad$"):
        K.resize_volumes(v, 2, 2, 2, "bad")


def test_dot_of_a_sparse_matrix_and_a_dense_one():
    x = tf.sparse.from_dense([[1.0, 0.0], [0.0, 2.0]])
    out = tf.keras.backend.dot(x, tf.ones([2, 3]))
    assert out.numpy().tolist() == [[1.0] * 3, [2.0] * 3]

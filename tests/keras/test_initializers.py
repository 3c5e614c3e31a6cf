"""tf.keras.initializers: values and statistics, fans, seeding, dtypes, errors, identifiers
and configs, as tf_keras 2.21 has them."""
import math
import random
import threading
import warnings

import numpy as np
import pytest

import eagerflow as tf
from eagerflow.keras.utils import set_random_seed
from eagerflow.keras import initializers
from tests.internals import initializers as init_src, keras_backend as backend

TRUNCATED_STD = 0.87962566103423978  # std of a standard normal truncated to [-2, 2]
SHAPE = (200, 300)  # 60000 draws: sample statistics within ~1% of the formulas


@pytest.fixture
def floatx64():
    tf.keras.backend.set_floatx("float64")
    yield
    tf.keras.backend.set_floatx("float32")


def check_stats(x, mean, std, low=None, high=None):
    """Sample mean and std of `x` within 6 standard errors of `mean` and `std` (the std's
    standard error bounded by the normal's, whose kurtosis exceeds the others'), and
    every value within [low, high]."""
    x = np.asarray(x, np.float64).ravel()
    n = x.size
    assert abs(x.mean() - mean) <= 6 * std / math.sqrt(n)
    assert abs(x.std() - std) <= 6 * std * math.sqrt(2.0 / n) / 2
    if low is not None:
        assert x.min() >= low
    if high is not None:
        assert x.max() <= high


# -- constant initializers ---------------------------------------------------------------------

def test_zeros_ones_constant_values_and_default_dtype():
    z = initializers.Zeros()((2, 3))
    assert isinstance(z, tf.Tensor) and z.dtype == tf.float32 and z.shape == (2, 3)
    np.testing.assert_array_equal(z.numpy(), np.zeros((2, 3)))
    np.testing.assert_array_equal(initializers.Ones()((4,)).numpy(), np.ones(4))
    c = initializers.Constant(2.5)((2, 2))
    np.testing.assert_array_equal(c.numpy(), np.full((2, 2), 2.5, np.float32))
    np.testing.assert_array_equal(initializers.Constant([1, 2, 3, 4])((2, 2)).numpy(),
                                  [[1, 2], [3, 4]])
    np.testing.assert_array_equal(initializers.Constant(tf.constant(3.0))((2,)).numpy(), [3, 3])


def test_zeros_ones_constant_take_any_numeric_or_bool_dtype():
    assert initializers.Zeros()((2,), dtype="int32").numpy().tolist() == [0, 0]
    assert initializers.Ones()((2,), dtype=tf.bool).numpy().tolist() == [True, True]
    assert initializers.Constant(7)((2,), dtype="int64").dtype == tf.int64
    with pytest.raises(ValueError, match=r"Expected numeric or boolean dtype, got "
                                         r"<dtype: 'string'>\."):
        initializers.Zeros()((2,), dtype="string")
    with pytest.raises(TypeError, match="unsupported shape"):
        initializers.Constant([1, 2])((3,))


def test_default_dtype_follows_floatx(floatx64):
    for init in (initializers.Ones(), initializers.GlorotUniform(seed=1),
                 initializers.Orthogonal(seed=1), initializers.Identity()):
        assert init((3, 3)).dtype == tf.float64


def test_shape_may_be_tensor_shape_or_list():
    assert initializers.HeNormal(seed=1)(tf.TensorShape([3, 4])).shape == (3, 4)
    assert initializers.Zeros()([2, 1]).shape == (2, 1)
    assert initializers.GlorotUniform(seed=1)(()).shape == ()


# -- random initializers: statistics -----------------------------------------------------------

def test_random_uniform_statistics_and_bounds():
    lo, hi = -0.3, 0.7
    x = initializers.RandomUniform(lo, hi, seed=3)(SHAPE)
    assert x.dtype == tf.float32 and x.shape == SHAPE
    check_stats(x, (lo + hi) / 2, (hi - lo) / math.sqrt(12), lo, hi)


def test_random_uniform_integers():
    x = initializers.RandomUniform(0, 10, seed=3)((1000,), dtype="int32").numpy()
    assert x.dtype == np.int32 and x.min() == 0 and x.max() == 9
    with pytest.raises(TypeError):  # the float default bounds do not convert
        initializers.RandomUniform(seed=3)((4,), dtype="int32")


def test_random_normal_statistics():
    check_stats(initializers.RandomNormal(mean=1.0, stddev=2.0, seed=5)(SHAPE), 1.0, 2.0)


def test_truncated_normal_statistics_and_bounds():
    mean, stddev = 0.5, 0.2
    x = initializers.TruncatedNormal(mean, stddev, seed=5)(SHAPE)
    check_stats(x, mean, stddev * TRUNCATED_STD, mean - 2 * stddev - 1e-6,
                mean + 2 * stddev + 1e-6)


def test_default_random_parameters():
    check_stats(initializers.RandomNormal(seed=1)(SHAPE), 0.0, 0.05)
    check_stats(initializers.RandomUniform(seed=1)(SHAPE), 0.0, 0.1 / math.sqrt(12),
                -0.05, 0.05)
    check_stats(initializers.TruncatedNormal(seed=1)(SHAPE), 0.0, 0.05 * TRUNCATED_STD,
                -0.1, 0.1)


@pytest.mark.parametrize("shape, fans", [
    ((), (1, 1)), ((7,), (7, 7)), ((4, 6), (4, 6)),
    ((5, 4, 3), (20, 15)), ((3, 3, 16, 32), (144, 288)), ((2, 3, 4, 5, 6), (120, 144))])
def test_fans_of_dense_and_conv_shapes(shape, fans):
    assert init_src._compute_fans(shape) == fans


@pytest.mark.parametrize("mode", ["fan_in", "fan_out", "fan_avg"])
@pytest.mark.parametrize("distribution", ["truncated_normal", "untruncated_normal", "uniform"])
def test_variance_scaling_statistics(mode, distribution):
    shape = (5, 5, 40, 60)  # conv kernel: fan_in 25 * 40, fan_out 25 * 60
    fan = {"fan_in": 1000, "fan_out": 1500, "fan_avg": 1250}[mode]
    scale = 3.0
    std = math.sqrt(scale / fan)
    x = initializers.VarianceScaling(scale, mode, distribution, seed=11)(shape)
    assert x.shape == shape
    if distribution == "uniform":
        limit = math.sqrt(3 * scale / fan)
        check_stats(x, 0.0, std, -limit, limit)
    elif distribution == "truncated_normal":
        bound = 2 * std / TRUNCATED_STD
        check_stats(x, 0.0, std, -bound, bound)
    else:
        check_stats(x, 0.0, std)


def test_variance_scaling_fan_at_least_one():
    # a shape with a zero dimension has fan 0: the scale is not divided
    init = initializers.VarianceScaling(scale=4.0, distribution="uniform", seed=1)
    assert init((0, 3)).shape == (0, 3)
    check_stats(init((1000,)), 0.0, math.sqrt(4.0 / 1000), -math.sqrt(12 / 1000),
                math.sqrt(12 / 1000))


@pytest.mark.parametrize("cls, scale, mode, distribution", [
    (initializers.GlorotUniform, 1.0, "fan_avg", "uniform"),
    (initializers.GlorotNormal, 1.0, "fan_avg", "truncated_normal"),
    (initializers.HeUniform, 2.0, "fan_in", "uniform"),
    (initializers.HeNormal, 2.0, "fan_in", "truncated_normal"),
    (initializers.LecunUniform, 1.0, "fan_in", "uniform"),
    (initializers.LecunNormal, 1.0, "fan_in", "truncated_normal")])
def test_presets_are_variance_scaling(cls, scale, mode, distribution):
    init = cls(seed=2)
    assert isinstance(init, initializers.VarianceScaling)
    assert (init.scale, init.mode, init.distribution) == (scale, mode, distribution)
    assert init.get_config() == {"seed": 2}
    # the same draws as the equivalent VarianceScaling
    general = initializers.VarianceScaling(scale, mode, distribution, seed=2)
    np.testing.assert_array_equal(init((3, 3, 8, 4)).numpy(), general((3, 3, 8, 4)).numpy())


def test_glorot_uniform_and_he_normal_formulas():
    fan_in, fan_out = SHAPE
    limit = math.sqrt(6.0 / (fan_in + fan_out))
    check_stats(initializers.GlorotUniform(seed=4)(SHAPE), 0.0, limit / math.sqrt(3),
                -limit, limit)
    check_stats(initializers.HeNormal(seed=4)(SHAPE), 0.0, math.sqrt(2.0 / fan_in))


def test_random_dtypes():
    for dtype in ("float16", "bfloat16", "float64"):
        x = initializers.GlorotNormal(seed=1)((4, 4), dtype=dtype)
        assert x.dtype == tf.as_dtype(dtype)
    for init in (initializers.RandomNormal(seed=1), initializers.TruncatedNormal(seed=1),
                 initializers.GlorotUniform(seed=1), initializers.Orthogonal(seed=1),
                 initializers.Identity()):
        with pytest.raises(ValueError, match=r"Expected floating point type, got "
                                             r"<dtype: 'int32'>\."):
            init((2, 2), dtype="int32")
    with pytest.raises(ValueError, match=r"Expected float or integer dtype, got "
                                         r"<dtype: 'bool'>\."):
        initializers.RandomUniform(seed=1)((2,), dtype="bool")


# -- orthogonal and identity -------------------------------------------------------------------

@pytest.mark.parametrize("shape", [(6, 6), (10, 4), (4, 10), (3, 3, 4, 8), (2, 2, 2, 40)])
def test_orthogonal(shape):
    gain = 1.5
    q = initializers.Orthogonal(gain=gain, seed=7)(shape, dtype="float64").numpy()
    assert q.shape == shape
    m = q.reshape(-1, shape[-1])
    rows, cols = m.shape
    # the smaller dimension is orthonormal (times gain)
    gram = m.T @ m if rows >= cols else m @ m.T
    np.testing.assert_allclose(gram, gain ** 2 * np.eye(min(rows, cols)), atol=1e-12)


def test_orthogonal_errors():
    with pytest.raises(ValueError, match=r"must be at least two-dimensional\. Received: "
                                         r"shape=\(5,\) of rank 1\."):
        initializers.Orthogonal()((5,))
    with pytest.raises(ValueError, match="Orthogonal initializer doesn't support "
                                         "partition-related arguments."):
        initializers.Orthogonal()((2, 2), partition_shape=(1, 2))


def test_identity():
    np.testing.assert_array_equal(initializers.Identity()((3, 3)).numpy(), np.eye(3))
    np.testing.assert_array_equal(initializers.Identity(gain=2.0)((2, 3)).numpy(),
                                  2 * np.eye(2, 3))
    with pytest.raises(ValueError, match=r"can only be used for 2D matrices\. Received: "
                                         r"shape=\(2, 2, 2\) of rank 3\."):
        initializers.Identity()((2, 2, 2))
    with pytest.raises(ValueError, match="partition-related"):
        initializers.Identity()((2, 2), partition_offset=(0, 0))


# -- seeding -----------------------------------------------------------------------------------

RANDOM = [initializers.RandomUniform, initializers.RandomNormal, initializers.TruncatedNormal,
          initializers.VarianceScaling, initializers.GlorotUniform, initializers.HeNormal,
          initializers.Orthogonal]


@pytest.mark.parametrize("cls", RANDOM)
def test_seeded_initializer_repeats_its_values(cls):
    init = cls(seed=42)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a seeded instance reused does not warn
        a, b = init((8, 5)).numpy(), init((8, 5)).numpy()
    np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(a, cls(seed=42)((8, 5)).numpy())
    assert not np.array_equal(a, cls(seed=43)((8, 5)).numpy())


@pytest.mark.parametrize("cls", RANDOM)
def test_unseeded_initializer_reused_warns_and_repeats(cls):
    init = cls()
    a = init((8, 5)).numpy()
    with pytest.warns(UserWarning, match=f"The initializer {cls.__name__} is unseeded and "
                                         f"being called multiple times"):
        b = init((8, 5)).numpy()
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, cls()((8, 5)).numpy())  # a new instance: new values


def test_keras_seed_makes_unseeded_initializers_reproducible():
    def draw():
        return [initializers.get(name)((4, 3)).numpy()
                for name in ("glorot_uniform", "he_normal", "orthogonal", "random_normal")]
    try:
        set_random_seed(123)
        first = draw()
        set_random_seed(123)
        second = draw()
        set_random_seed(124)
        third = draw()
    finally:
        tf.random.set_seed(None)
        backend._SEED_GENERATOR.generator = None
    for a, b, c in zip(first, second, third):
        np.testing.assert_array_equal(a, b)
        assert not np.array_equal(a, c)
    assert not np.array_equal(first[0], initializers.GlorotUniform()((4, 3)).numpy())


def test_unseeded_initializers_take_seeds_from_python_random_not_the_global_seed():
    # As tf_keras: `tf.random.set_seed` alone leaves them to Python's `random`. (In a new
    # thread: `tf.keras.utils.set_random_seed`, which earlier tests call, gives this thread
    # a seed generator of its own, as it does in tf_keras.)
    values = []

    def draw():
        try:
            for seed in (1, 2):
                random.seed(5)
                tf.random.set_seed(seed)
                values.append(initializers.GlorotUniform()((3,)).numpy())
        finally:
            tf.random.set_seed(None)

    thread = threading.Thread(target=draw)
    thread.start()
    thread.join()
    assert len(values) == 2
    np.testing.assert_array_equal(values[0], values[1])


def test_partitions():
    init = initializers.RandomNormal(seed=1)
    part = init((10, 4), partition_shape=(5, 4), partition_offset=(0, 0))
    assert part.shape == (5, 4)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # partitions share an unseeded instance silently too
        unseeded = initializers.GlorotUniform()
        unseeded((4,), partition_shape=(2,), partition_offset=(0,))
        unseeded((4,), partition_shape=(2,), partition_offset=(2,))
    other = init((10, 4), partition_shape=(5, 4), partition_offset=(5, 0))
    assert not np.array_equal(part.numpy(), other.numpy())
    np.testing.assert_array_equal(
        part.numpy(), init((10, 4), partition_shape=(5, 4), partition_offset=(0, 0)).numpy())
    np.testing.assert_array_equal(
        initializers.Ones()((10,), partition_shape=(3,)).numpy(), np.ones(3))


def test_keyword_arguments_checked():
    with pytest.raises(TypeError, match=r"Unknown keyword arguments: \['foo'\]\. Allowed "
                                        r"keyword arguments: \['partition_shape', "
                                        r"'partition_offset', 'layout'\]\."):
        initializers.Zeros()((2,), foo=1)
    with pytest.raises(NotImplementedError, match="DTensor"):
        initializers.RandomNormal(seed=1)((2,), layout="x")


def test_variance_scaling_arguments():
    with pytest.raises(ValueError, match=r"`scale` must be positive float\. Received: "
                                         r"scale=0\."):
        initializers.VarianceScaling(scale=0)
    with pytest.raises(ValueError, match="Invalid `mode` argument: fan. Please use one of"):
        initializers.VarianceScaling(mode="fan")
    with pytest.raises(ValueError, match="Invalid `distribution` argument: poisson."):
        initializers.VarianceScaling(distribution="poisson")
    # Keras 1's "normal" is the truncated one; names are case-insensitive
    assert initializers.VarianceScaling(distribution="Normal").distribution == \
        "truncated_normal"


# -- identifiers, configs and the public namespace ---------------------------------------------

def test_public_names_match_tf_keras():
    expected = {
        "Constant", "GlorotNormal", "GlorotUniform", "HeNormal", "HeUniform", "Identity",
        "Initializer", "LecunNormal", "LecunUniform", "Ones", "Orthogonal", "RandomNormal",
        "RandomUniform", "TruncatedNormal", "VarianceScaling", "Zeros", "constant",
        "deserialize", "get", "glorot_normal", "glorot_uniform", "he_normal", "he_uniform",
        "identity", "lecun_normal", "lecun_uniform", "ones", "orthogonal", "random_normal",
        "random_uniform", "serialize", "truncated_normal", "variance_scaling", "zeros"}
    assert {n for n in dir(initializers) if not n.startswith("_")} == expected
    assert initializers.glorot_uniform is initializers.GlorotUniform
    assert initializers.identity is initializers.Identity
    assert initializers.variance_scaling is initializers.VarianceScaling


@pytest.mark.parametrize("name, cls", [
    ("zeros", "Zeros"), ("Zeros", "Zeros"), ("zero", "Zeros"), ("one", "Ones"),
    ("ones", "Ones"), ("constant", "Constant"), ("uniform", "RandomUniform"),
    ("normal", "RandomNormal"), ("random_uniform", "RandomUniform"),
    ("truncated_normal", "TruncatedNormal"), ("variance_scaling", "VarianceScaling"),
    ("glorot_uniform", "GlorotUniform"), ("GlorotUniformV2", "GlorotUniform"),
    ("glorot_normalV2", "GlorotNormal"), ("he_normal", "HeNormal"), ("he_uniform", "HeUniform"),
    ("lecun_normal", "LecunNormal"), ("lecun_uniform", "LecunUniform"),
    ("orthogonal", "Orthogonal"), ("identity", "Identity"), ("IdentityV2", "Identity")])
def test_get_string_identifiers(name, cls):
    init = initializers.get(name)
    assert type(init) is getattr(initializers, cls)


def test_get_other_identifiers():
    assert initializers.get(None) is None
    assert type(initializers.get(initializers.Ones)) is initializers.Ones  # class: an instance
    init = initializers.RandomNormal(seed=1)
    assert initializers.get(init) is init

    def custom(shape, dtype=None):
        return tf.zeros(shape, dtype)
    assert initializers.get(custom) is custom
    got = initializers.get({"class_name": "RandomNormal", "config": {"stddev": 2.0}})
    assert type(got) is initializers.RandomNormal and got.stddev == 2.0
    with pytest.raises(ValueError, match="Could not interpret initializer identifier: 1"):
        initializers.get(1)
    with pytest.raises(ValueError, match="Unknown initializer: 'foo'"):
        initializers.get("foo")


INSTANCES = [
    initializers.Zeros(), initializers.Ones(), initializers.Constant(0.5),
    initializers.RandomUniform(-1.0, 2.0, seed=3), initializers.RandomNormal(1.0, 0.5, seed=4),
    initializers.TruncatedNormal(0.0, 0.1), initializers.VarianceScaling(2.0, "fan_out",
                                                                          "uniform", seed=9),
    initializers.GlorotUniform(seed=1), initializers.GlorotNormal(),
    initializers.HeUniform(seed=2), initializers.HeNormal(), initializers.LecunUniform(),
    initializers.LecunNormal(seed=5), initializers.Orthogonal(gain=2.0, seed=6),
    initializers.Identity(gain=3.0)]


@pytest.mark.parametrize("init", INSTANCES, ids=lambda i: type(i).__name__)
def test_config_round_trips(init):
    config = init.get_config()
    assert type(init).from_config(config).get_config() == config
    serialized = initializers.serialize(init)
    assert serialized == {"module": "keras.initializers", "class_name": type(init).__name__,
                          "config": config, "registered_name": None}
    restored = initializers.deserialize(serialized)
    assert type(restored) is type(init) and restored.get_config() == config
    legacy = initializers.serialize(init, use_legacy_format=True)
    assert legacy == {"class_name": type(init).__name__, "config": config}
    assert initializers.get(legacy).get_config() == config


def test_configs_match_tf_keras():
    assert initializers.RandomUniform().get_config() == {"minval": -0.05, "maxval": 0.05,
                                                         "seed": None}
    assert initializers.TruncatedNormal().get_config() == {"mean": 0.0, "stddev": 0.05,
                                                           "seed": None}
    assert initializers.VarianceScaling().get_config() == {
        "scale": 1.0, "mode": "fan_in", "distribution": "truncated_normal", "seed": None}
    assert initializers.Orthogonal().get_config() == {"gain": 1.0, "seed": None}
    assert initializers.Constant().get_config() == {"value": 0}
    # configs from older versions may carry a dtype
    assert type(initializers.Zeros.from_config({"dtype": "float32"})) is initializers.Zeros


def test_serialize_warns_for_non_initializers():
    def custom(shape, dtype=None):
        return tf.zeros(shape, dtype)
    with pytest.warns(UserWarning, match="should only be used for objects of type "
                                         "`keras.initializers.Initializer`"):
        assert initializers.serialize(custom)["config"] == "custom"
    assert initializers.serialize(None) is None


def test_custom_subclass():
    class Twos(initializers.Initializer):
        def __call__(self, shape, dtype=None, **kwargs):
            return tf.fill(shape, tf.constant(2.0, dtype or "float32"))

    assert Twos()((2,)).numpy().tolist() == [2.0, 2.0]
    assert Twos.from_config(Twos().get_config()).get_config() == {}
    with pytest.raises(NotImplementedError, match="must implement the `__call__\\(\\)`"):
        initializers.Initializer()((2,))


def test_initializer_inside_function():
    init = initializers.GlorotUniform(seed=8)

    @tf.function
    def make():
        return init((3, 2))
    np.testing.assert_array_equal(make().numpy(), init((3, 2)).numpy())


@pytest.mark.parametrize("init,shape,dtype,want", [  # tf_keras 2.21's values
    (initializers.GlorotUniform(seed=0), (2, 3), None,
     [[-0.6331334114074707, 0.4513453245162964, 0.6574059724807739],
      [0.5932761430740356, -0.2440900206565857, 0.8114168643951416]]),
    (initializers.GlorotNormal(seed=0), (2, 3), None,
     [[-1.2201765775680542, -0.3461124300956726, -0.47615188360214233],
      [0.0625615119934082, -0.19111014902591705, 0.06503364443778992]]),
    (initializers.HeNormal(seed=1), (3, 2), None,
     [[0.11756084859371185, -0.45763370394706726], [0.5858913660049438, -0.7322325110435486],
      [-0.8445576429367065, -0.37051767110824585]]),
    (initializers.LecunUniform(seed=2), (3,), None,
     [0.6019580364227295, 0.40943360328674316, 0.39435648918151855]),
    (initializers.RandomNormal(0.0, 0.1, seed=3), (4,), None,
     [-0.06715848296880722, 0.16760504245758057, -0.0944245457649231, 0.06079389527440071]),
    (initializers.RandomUniform(-1.0, 1.0, seed=4), (4,), None,
     [0.1611955165863037, 0.811577558517456, -0.42471790313720703, 0.5399966239929199]),
    (initializers.RandomUniform(0, 9, seed=4), (4,), "int32", [6, 1, 8, 8]),
    (initializers.TruncatedNormal(0.0, 1.0, seed=5), (4,), None,
     [1.158187747001648, 0.19160862267017365, -0.1297789067029953, 0.9068471789360046]),
    (initializers.VarianceScaling(2.0, "fan_out", "untruncated_normal", seed=6), (2, 2), None,
     [[1.2832610607147217, -0.4712347388267517], [0.4933731257915497, -0.22908936440944672]]),
])
def test_seeded_values_are_tf_keras(init, shape, dtype, want):
    got = init(shape, dtype=dtype).numpy()
    np.testing.assert_array_equal(got, np.asarray(want, got.dtype))


def test_orthogonal_values_are_tf_keras_up_to_the_qr_rounding():
    want = [[-0.3343079090118408, 0.06508983671665192, -0.9402134418487549],
            [-0.7303764224052429, -0.6483879089355469, 0.21480995416641235],
            [-0.5956411957740784, 0.7585225105285645, 0.2643013298511505]]
    np.testing.assert_allclose(initializers.Orthogonal(seed=7)((3, 3)).numpy(), want, atol=1e-6)


def test_keras_seed_gives_tf_keras_initial_weights():
    try:
        set_random_seed(0)
        model = tf.keras.Sequential([
            tf.keras.layers.Dense(4, input_shape=(3,)),
            tf.keras.layers.Dense(2, kernel_initializer="he_normal")])
        kernel, bias, kernel2, _ = model.get_weights()
    finally:
        tf.random.set_seed(None)
        backend._SEED_GENERATOR.generator = None
    np.testing.assert_array_equal(kernel, np.float32(
        [[0.029041826725006104, -0.35354846715927124, 0.6275290250778198, -0.7284318804740906],
         [-0.19455158710479736, -0.5800946354866028, -0.0017217397689819336, 0.9012525081634521],
         [0.10046720504760742, -0.11580634117126465, 0.5202245712280273, 0.14508628845214844]]))
    np.testing.assert_array_equal(bias, np.zeros(4, np.float32))
    np.testing.assert_array_equal(kernel2, np.float32(
        [[1.1413003206253052, 0.39859500527381897], [-1.171875238418579, -0.5213996767997742],
         [0.29117727279663086, 0.6825621128082275], [-0.22890402376651764, 0.771791398525238]]))


@pytest.mark.parametrize("make", [
    lambda: tf.keras.initializers.Ones(), lambda: tf.keras.initializers.Zeros(),
    lambda: tf.keras.initializers.RandomNormal(seed=1),
    lambda: tf.keras.initializers.RandomUniform(seed=1)])
def test_an_unknown_dimension_reaches_the_op_as_in_tf_keras(make):
    # tf_keras hands the shape to tf.ones, tf.random... as it is: their ValueError for None
    with pytest.raises(ValueError, match=r"Attempt to convert a value \(None\) with an "
                                         r"unsupported type"):
        make()((None, 3))


def test_fans_of_a_matrix_with_an_unknown_dimension_fail_as_in_tf_keras():
    with pytest.raises(TypeError, match="int\\(\\) argument must be"):
        tf.keras.initializers.GlorotUniform(seed=1)((None, 3))
    # a layer normalizing over axes unknown while tracing fails the same way
    traced = tf.function(lambda t: tf.keras.layers.LayerNormalization([1, 2])(t),
                         input_signature=[tf.TensorSpec([None, None, None, 3])])
    with pytest.raises(ValueError, match="Attempt to convert a value \\(None\\)"):
        traced.get_concrete_function()

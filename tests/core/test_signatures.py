"""Public functions take TF's parameters: the same names (callers pass them by keyword:
``tf.nn.relu(features=x)``), in the same order (a positional argument must land on the same
parameter) and with the same defaults, as recorded from TF in data/signatures_tf.json."""
import json
import os

import numpy as np
import pytest

import eagerflow as tf
from tests.core.signature_cases import public, signature

with open(os.path.join(os.path.dirname(__file__), "data", "signatures_tf.json")) as f:
    RECORDED = json.load(f)


def _object(default):
    return isinstance(default, str) and default.startswith("<") and default != "<required>"


@pytest.mark.parametrize("path", sorted(RECORDED))
def test_signature_is_tfs(path):
    ours, theirs = signature(public(tf, path)), RECORDED[path]
    assert [p[:2] for p in ours] == [p[:2] for p in theirs]
    for (name, _, default), (_, _, tfs) in zip(ours, theirs):
        # (an op's `name` defaults to its node's name here where TF's is None: the same
        # names; a default object, such as an initializer, is compared by its behaviour)
        if name != "name" and not _object(tfs):
            assert default == tfs, name


def test_keyword_arguments_by_tfs_names():
    x = tf.constant([-1.0, 2.0])
    assert tf.nn.relu(features=x).numpy().tolist() == [0.0, 2.0]
    assert tf.nn.relu6(features=x * 4).numpy().tolist() == [0.0, 6.0]
    assert tf.math.softplus(features=tf.constant(0.0)).numpy() == pytest.approx(0.6931472)
    assert tf.math.igamma(a=1.0, x=2.0).numpy() == pytest.approx(0.86466473)
    assert tf.math.polygamma(a=1.0, x=2.0).numpy() == pytest.approx(0.64493406)
    assert tf.keras.backend.pow(tf.constant([2.0, 3.0]), a=2).numpy().tolist() == [4.0, 9.0]

    @tf.function(input_signature=[tf.TensorSpec([None])])
    def f(v):
        return tf.nn.elu(features=v), tf.math.igammac(a=v, x=v)

    elu, _ = f(x)
    assert elu.numpy().tolist() == pytest.approx([-0.63212055, 2.0])


def test_keras_tensors_by_tfs_names():
    inputs = tf.keras.Input((2,))
    model = tf.keras.Model(inputs, tf.nn.relu(features=inputs))
    assert model(tf.constant([[-1.0, 2.0]])).numpy().tolist() == [[0.0, 2.0]]


def test_positional_arguments_land_where_tfs_do():
    # tf.convert_to_tensor's third parameter is dtype_hint (it was taken as the name)
    assert tf.convert_to_tensor(1, None, tf.float32).dtype == tf.float32
    assert tf.compat.v1.convert_to_tensor(1, None, "c", tf.int64).dtype == tf.int64
    # TF 1 passes `name` before the arguments TF 2 put in front of it
    c = tf.constant([[1 + 2j, 3 - 1j]])
    assert tf.compat.v1.transpose(c, None, "t").numpy().tolist() == [[1 + 2j], [3 - 1j]]
    assert tf.compat.v1.gather([[1, 2], [3, 4]], [1], None, "g", 1).numpy().tolist() == [[2], [4]]
    assert tf.compat.v1.pad([1, 2], [[1, 1]], "CONSTANT", "p", 9).numpy().tolist() == [9, 1, 2, 9]
    assert tf.compat.v1.boolean_mask([[1, 2], [3, 4]], [True, False], "m", 1).numpy().tolist() \
        == [[1], [3]]
    assert tf.compat.v1.shape([[1, 2]], "s", tf.int64).dtype == tf.int64
    assert tf.compat.v1.size([[1, 2]], "s", tf.int64).dtype == tf.int64
    assert tf.compat.v1.ones_like([1.5], tf.int32, "o").numpy().tolist() == [1]
    assert tf.compat.v1.strings.length(["héllo"], "l", "UTF8_CHAR").numpy().tolist() == [5]
    assert tf.compat.v1.random.poisson([2.0, 5.0], [3], seed=1).shape == [3, 2]
    parsed = tf.compat.v1.decode_csv(["1,2"], [[0], [0]], ",", True, "d", "", None)
    assert [t.numpy().tolist() for t in parsed] == [[1], [2]]
    assert tf.compat.v1.tuple([tf.constant(1)], "t")[0].numpy() == 1
    # tf.debugging.assert_none_equal takes summarize before message
    with pytest.raises(tf.errors.InvalidArgumentError, match="my message"):
        tf.debugging.assert_none_equal(tf.constant([1, 2]), tf.constant([1, 3]), 1, "my message")


def test_tf1_keyword_spellings():
    assert tf.compat.v1.zeros_like(tensor=[1, 2]).numpy().tolist() == [0, 0]
    assert tf.compat.v1.norm([3.0, 4.0], keep_dims=True).numpy().tolist() == [5.0]
    assert tf.compat.v1.reverse_sequence([[1, 2, 3], [4, 5, 6]], [2, 3], seq_dim=1,
                                         batch_dim=0).numpy().tolist() == [[2, 1, 3], [6, 5, 4]]
    assert tf.compat.v1.strings.to_number(input=["1.5"]).numpy().tolist() == [1.5]
    assert tf.strings.to_hash_bucket(input=["a"], num_buckets=10).numpy().tolist() == \
        tf.compat.v1.strings.to_hash_bucket(input=["a"], num_buckets=10).numpy().tolist()
    assert tf.compat.v1.io.decode_raw(bytes=[b"\x01\x00"], out_type=tf.int16).numpy().tolist() \
        == [[1]]
    assert tf.compat.v1.strings.reduce_join([["a", "b"]], keep_dims=True,
                                            reduction_indices=1).numpy().tolist() == [[b"ab"]]


def test_tf1_layer_functions_take_arguments_in_tf1s_order():
    x = tf.constant(np.linspace(-1, 1, 2 * 4 * 4 * 2).reshape(2, 4, 4, 2).astype(np.float32))
    init = tf.compat.v1.constant_initializer(0.1)
    layers = tf.compat.v1.layers
    # the activation is the seventh argument (it was taken as dilation_rate, then ignored)
    y = layers.conv2d_transpose(x, 3, 2, 2, "same", "channels_last", tf.nn.relu, True, init)
    assert y.shape == (2, 8, 8, 3)
    assert float(tf.reduce_sum(y)) == pytest.approx(19.5048, abs=1e-3)
    # depth_multiplier follows dilation_rate
    y = layers.separable_conv2d(x, 3, 2, (1, 1), "same", "channels_last", (1, 1), 2, tf.nn.relu,
                                True, init, init)
    assert float(tf.reduce_sum(y)) == pytest.approx(3.3867, abs=1e-3)


def test_tf1_signatures_of_ragged_functions():
    rt = tf.ragged.constant([[1, 2], [3]])
    assert tf.compat.v1.gather(rt, [1]).to_list() == [[3]]
    assert tf.compat.v1.zeros_like(rt).to_list() == [[0, 0], [0]]
    assert tf.compat.v1.size(rt).numpy() == 3
    words = tf.ragged.constant([["a", "bb"], []])
    assert tf.compat.v1.strings.length(words).to_list() == [[1, 2], []]
    assert tf.compat.v1.strings.reduce_join(words, axis=1).numpy().tolist() == [b"abb", b""]


def test_dataset_map_takes_tfs_scheduling_hints():
    ds = tf.data.Dataset.range(3)
    assert list(ds.map(lambda x: x + 1, synchronous=True).as_numpy_iterator()) == [1, 2, 3]
    assert list(ds.map(lambda x: x + 1, 2, use_unbounded_threadpool=True)
                .as_numpy_iterator()) == [1, 2, 3]
    with pytest.raises(ValueError, match="synchronous"):
        ds.map(lambda x: x, num_parallel_calls=2, synchronous=True)


def test_initializer_and_input_spec_options():
    init = tf.constant_initializer(3.0, support_partition=True)
    assert init([4], partition_shape=[2], partition_offset=[2]).numpy().tolist() == [3.0] * 4
    with pytest.raises(ValueError, match="doesn't support partition-related arguments$"):
        tf.constant_initializer(3.0)([4], partition_shape=[2], partition_offset=[2])
    identity = tf.compat.v1.initializers.identity(2.0, dtype=tf.float64)
    assert identity([2, 2]).dtype == tf.float64
    assert identity.get_config() == {"gain": 2.0, "dtype": "float64"}
    assert tf.keras.layers.InputSpec(ndim=2, optional=True).optional


def test_keras_deserialize_takes_custom_objects_second():
    class MyLayer(tf.keras.layers.Layer):
        def __init__(self, k=1, **kwargs):
            super().__init__(**kwargs)
            self.k = k

        def get_config(self):
            return {**super().get_config(), "k": self.k}

    config = tf.keras.utils.serialize_keras_object(obj=MyLayer(3, name="m"))
    assert tf.keras.utils.deserialize_keras_object(config, {"MyLayer": MyLayer}).k == 3
    assert tf.keras.utils.deserialize_keras_object(
        config=config, custom_objects={"MyLayer": MyLayer}, safe_mode=False).k == 3
    relu = tf.keras.utils.deserialize_keras_object(
        "relu", module_objects={"relu": tf.nn.relu}, printable_module_name="activation")
    assert relu is tf.nn.relu


def test_optimizer_arguments_by_position():
    # SGD(learning_rate, momentum, nesterov, weight_decay, clipnorm): the fifth clips
    opt = tf.keras.optimizers.SGD(1.0, 0.0, False, None, 1.0)
    assert opt.clipnorm == 1.0 and opt.name == "SGD"
    var = tf.Variable([0.0, 0.0])
    opt.apply_gradients([(tf.constant([3.0, 4.0]), var)])
    assert var.numpy().tolist() == pytest.approx([-0.6, -0.8])

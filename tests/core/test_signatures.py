"""Public functions take TF's parameters: the same names (callers pass them by keyword:
``tf.nn.relu(features=x)``), in the same order (a positional argument must land on the same
parameter) and with the same defaults, as recorded from TF in data/signatures_tf.json."""
import json
import os

import pytest

import eagerflow as tf
from tests.core.signature_cases import public, signature

with open(os.path.join(os.path.dirname(__file__), "data", "signatures_tf.json")) as f:
    RECORDED = json.load(f)


def _comparable(params):
    # An op's `name` defaults to its node's name here where TF's is None: the same names.
    return [[n, kind, None if n == "name" else d] for n, kind, d in params]


@pytest.mark.parametrize("path", sorted(RECORDED))
def test_signature_is_tfs(path):
    assert _comparable(signature(public(tf, path))) == _comparable(RECORDED[path])


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

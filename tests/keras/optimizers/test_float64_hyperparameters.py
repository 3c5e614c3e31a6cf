"""A float64 variable's update sees the hyperparameters tf_keras passes through ``tf.cast``
(Adam's and Adamax's betas in their powers, Nadam's and Lion's betas, SGD's momentum,
Adafactor's epsilon_2, the weight decay) as float32 numbers widened to float64; the others
(epsilon, ``1 - beta``) stay exact. Values recorded from tf_keras 2.21."""
import numpy as np
import pytest

import eagerflow as tf

O = tf.keras.optimizers

CASES = {
    "adam": (lambda: O.Adam(0.1), [[0.7076843800467081, 3.2923161503543867]] * 2),
    "adamax": (lambda: O.Adamax(0.1), [[0.7546805956878541, 3.2453194203279536]] * 2),
    "nadam": (lambda: O.Nadam(0.1), [[0.7067674777103071, 3.2932325430441485],
                                     [0.7067674777103071, 3.0]]),
    "lion": (lambda: O.Lion(0.1, beta_1=0.3), [[0.6999999955296516, 3.3000000044703484],
                                               [0.6999999955296516, 3.0]]),
    "adamw": (lambda: O.AdamW(0.1, weight_decay=0.3), [[0.629162830818158, 3.02152965843327],
                                                       [0.629162830818158, 2.738018986119702]]),
    "adafactor": (lambda: O.Adafactor(0.1, epsilon_2=0.3),
                  [[0.2944249930046694, 3.7055750069953306], [0.23118490995915597, 3.0]]),
    "sgd_weight_decay": (lambda: O.SGD(0.1, weight_decay=0.3),
                         [[0.5010099896910489, 4.09062600478974],
                          [0.5010099896910489, 2.738018986119702]]),
    "sgd_momentum": (lambda: O.SGD(0.1, momentum=0.9), [[0.3342999980911614, 5.187300006271898],
                                                        [0.3342999980911614, 3.0]]),
}


@pytest.mark.parametrize("name,sparse", [(n, s) for n in sorted(CASES) for s in (0, 1)
                                         if s == 0 or n not in ("adam", "adamax")])
def test_float64_update_matches_tf_keras(name, sparse):
    make, expected = CASES[name]
    opt = make()
    v = tf.Variable([1.0, 3.0], dtype="float64")
    for i in range(3):
        g = tf.constant([0.7, -2.3], "float64") * (i + 1)
        if sparse:
            g = tf.IndexedSlices(g[:1], tf.constant([0]), tf.constant([2]))
        opt.apply_gradients([(g, v)])
    np.testing.assert_allclose(v.numpy(), expected[sparse], rtol=1e-14, atol=0)


def test_float64_nesterov_momentum_matches_tf_keras():
    opt = O.SGD(0.1, momentum=0.9, nesterov=True)
    v = tf.Variable([1.0, 3.0], dtype="float64")
    for i in range(3):
        opt.apply_gradients([(tf.constant([0.7, -2.3], "float64") * (i + 1), v)])
    np.testing.assert_allclose(v.numpy(), [-0.019129992104917726, 6.348569974059015],
                               rtol=1e-14, atol=0)


def test_ftrl_fills_a_float64_accumulator_with_the_float32_initial_value():
    # tf_keras fills the accumulator in float32 and casts it (recorded with tf_keras 2.21)
    opt = tf.keras.optimizers.Ftrl(0.1)
    x = tf.Variable(tf.constant([1.0, 2.0], tf.float64))
    opt.apply_gradients([(tf.constant([0.5, -0.5], tf.float64), x)])
    assert opt.variables[1].numpy().tolist() == [0.3500000014901161] * 2
    assert x.numpy().tolist() == [0.38096208677818777, 1.015470453213331]

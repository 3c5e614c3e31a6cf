"""tf.compat.v1.distributions: argument checks and their errors, gradients through the
parameters, and graph use (the values themselves are TF's, recorded by the fidelity program
compat_v1_distributions)."""
import numpy as np
import pytest

import eagerflow as tf

tfd = tf.compat.v1.distributions


@pytest.mark.parametrize("make", [
    lambda: tfd.Normal(0.0, -1.0, validate_args=True),
    lambda: tfd.Laplace(0.0, [1.0, 0.0], validate_args=True),
    lambda: tfd.Gamma(-1.0, 1.0, validate_args=True),
    lambda: tfd.StudentT(-1.0, 0.0, 1.0, validate_args=True),
    lambda: tfd.Uniform(1.0, 0.0, validate_args=True),
    lambda: tfd.Beta(1.0, -2.0, validate_args=True),
    lambda: tfd.Bernoulli(probs=1.5, validate_args=True),
    lambda: tfd.Categorical(probs=[0.5, 0.6], validate_args=True),
    lambda: tfd.Multinomial(2.5, probs=[0.5, 0.5], validate_args=True),
    lambda: tfd.Dirichlet([1.0, -1.0], validate_args=True),
])
def test_validate_args_rejects_bad_parameters_eagerly(make):
    with pytest.raises(tf.errors.InvalidArgumentError):
        make()


@pytest.mark.parametrize("call", [
    lambda: tfd.Bernoulli(probs=0.5, validate_args=True).log_prob(2),
    lambda: tfd.Categorical(logits=[1.0, 2.0], validate_args=True).log_prob(1.5),
    lambda: tfd.Beta(1.0, 1.0, validate_args=True).log_prob(1.5),
    lambda: tfd.Multinomial(3.0, probs=[0.5, 0.5], validate_args=True).log_prob([1.0, 1.0]),
    lambda: tfd.Beta(0.5, 2.0, allow_nan_stats=False).mode(),
    lambda: tfd.StudentT(0.5, 0.0, 1.0, allow_nan_stats=False).variance(),
    lambda: tfd.kl_divergence(tfd.Normal(np.nan, 1.0), tfd.Normal(0.0, 1.0),
                              allow_nan_stats=False),
])
def test_validate_args_and_allow_nan_stats_reject_bad_values(call):
    with pytest.raises(tf.errors.InvalidArgumentError):
        call()


def test_allow_nan_stats_gives_nan_where_a_statistic_is_undefined():
    np.testing.assert_array_equal(tfd.Beta([0.5, 2.0], 2.0).mode().numpy(), [np.nan, 0.5])
    assert np.isnan(tfd.Normal(np.nan, 1.0).kl_divergence(tfd.Normal(0.0, 1.0)).numpy())


@pytest.mark.parametrize("make, error, text", [
    (lambda: tfd.Normal(0, 1), ValueError, "Expected floating point type, got"),
    (lambda: tfd.Normal(0.0, tf.constant(1.0, tf.float64)), ValueError, "must be of the same"),
    (lambda: tfd.Bernoulli(logits=1.0, probs=0.5), ValueError,
     "Must pass probs or logits, but not both."),
    (lambda: tfd.Categorical(logits=[1, 2]), TypeError, "logits must having floating type."),
    (lambda: tfd.Categorical(logits=[1.0], validate_args=True), ValueError,
     "must have at least 2 events"),
    (lambda: tfd.Normal(0.0, 1.0).sample([[2]]), ValueError,
     "Input is neither scalar nor vector."),
    (lambda: tfd.Gamma(1.0, 1.0).quantile(0.5), NotImplementedError,
     "quantile is not implemented: Gamma"),
    (lambda: tfd.Normal(0.0, 1.0).covariance(), NotImplementedError,
     "covariance is not implemented: Normal"),
    (lambda: tfd.kl_divergence(tfd.Normal(0.0, 1.0), tfd.Gamma(1.0, 1.0)), NotImplementedError,
     "No KL(distribution_a || distribution_b) registered for distribution_a type Normal and "
     "distribution_b type Gamma"),
    (lambda: tfd.Normal(tf.constant(0.0, tf.float16), tf.constant(1.0, tf.float16)).cdf(0.5),
     TypeError, "x.dtype=<dtype: 'float16'> is not handled"),
    (lambda: tfd.Normal(tf.constant(0.0, tf.float16), tf.constant(1.0, tf.float16)).log_cdf(
        0.5), TypeError, "x.dtype=<dtype: 'float16'> is not supported."),
    (lambda: tfd.Normal(tf.constant(0.0, tf.float16), tf.constant(1.0, tf.float16)).quantile(
        0.5), TypeError, "p.dtype=<dtype: 'float16'> is not handled"),
    (lambda: tfd.Uniform.param_static_shapes(tf.TensorShape([None])), ValueError,
     "TensorShape sample_shape must be fully defined"),
])
def test_bad_arguments_raise_tf_errors(make, error, text):
    with pytest.raises(error) as info:
        make()
    assert text in str(info.value)


def test_register_kl_takes_the_closest_registration_and_refuses_a_second():
    class Wide(tfd.Normal):
        pass

    assert float(tfd.kl_divergence(Wide(0.0, 1.0), tfd.Normal(1.0, 1.0))) == 0.5

    @tfd.RegisterKL(Wide, tfd.Normal)
    def _kl(a, b, name=None):
        return tf.constant(7.0)

    assert float(tfd.kl_divergence(Wide(0.0, 1.0), tfd.Normal(1.0, 1.0))) == 7.0
    with pytest.raises(ValueError, match=r"KL\(Wide \|\| Normal\) has already been registered"):
        tfd.RegisterKL(Wide, tfd.Normal)(_kl)
    with pytest.raises(TypeError, match="kl_fn must be callable"):
        tfd.RegisterKL(Wide, Wide)(3)


def test_gradients_of_log_prob_with_respect_to_variables():
    loc, scale = tf.Variable([0.5, -1.0]), tf.Variable(2.0)
    with tf.GradientTape() as tape:
        lp = tf.reduce_sum(tfd.Normal(loc, scale).log_prob([1.0, 2.0]))
    d_loc, d_scale = tape.gradient(lp, [loc, scale])
    np.testing.assert_allclose(d_loc.numpy(), [0.125, 0.75])
    np.testing.assert_allclose(d_scale.numpy(), 0.15625)


def test_reparameterized_samples_are_differentiable():
    loc, scale = tf.Variable([0.5, -1.0]), tf.Variable(2.0)
    with tf.GradientTape() as tape:
        x = tfd.Normal(loc, scale).sample(3, seed=5)
    d_loc, d_scale = tape.gradient(x, [loc, scale])
    np.testing.assert_allclose(d_loc.numpy(), [3.0, 3.0])
    np.testing.assert_allclose(d_scale.numpy(), np.sum((x.numpy() - loc.numpy()) / 2.0),
                               rtol=1e-5)
    conc, rate = tf.Variable([1.5, 3.0]), tf.Variable(2.0)
    with tf.GradientTape() as tape:
        g = tfd.Gamma(conc, rate).sample(2, seed=6)
    d_conc, d_rate = tape.gradient(g, [conc, rate])
    assert np.all(d_conc.numpy() > 0)  # larger shapes, larger samples
    np.testing.assert_allclose(d_rate.numpy(), -np.sum(g.numpy()) / 2.0, rtol=1e-5)
    assert tfd.Normal(0.0, 1.0).reparameterization_type is tfd.FULLY_REPARAMETERIZED
    assert tfd.Bernoulli(probs=0.5).reparameterization_type is tfd.NOT_REPARAMETERIZED


def test_parameters_are_read_when_the_distribution_is_made():
    loc = tf.Variable(1.0)
    dist = tfd.Normal(loc, 1.0)
    loc.assign(5.0)
    assert float(dist.mean()) == 1.0
    assert dist.parameters["loc"] is loc
    assert "self" not in tfd.Exponential(1.0).parameters


def test_in_a_graph_samples_get_static_shapes_and_checks_run_in_the_session():
    with tf.Graph().as_default():
        p = tf.compat.v1.placeholder(tf.float32, [None])
        dist = tfd.Normal(p, 1.0, validate_args=True)
        assert dist.name == "Normal/"
        assert tfd.Normal(0.0, 1.0).name == "Normal_1/"
        sample = dist.sample([2, 3], seed=1)
        assert sample.shape.as_list() == [2, 3, None]
        assert sample.name.startswith("Normal/sample/")
        assert dist.is_scalar_batch().name == "Normal/is_scalar_batch/is_scalar_batch:0"
        assert dist.cdf(0.0).name.startswith("Normal/cdf/ndtr/")
        assert tfd.Bernoulli(probs=0.5).logits.name.startswith("Bernoulli/logits/")
        scale_checked = tfd.Normal(0.0, p, validate_args=True).log_prob(0.0)
        with tf.compat.v1.Session() as sess:
            assert sess.run(sample, {p: [0.0, 1.0]}).shape == (2, 3, 2)
            with pytest.raises(tf.errors.InvalidArgumentError):
                sess.run(scale_checked, {p: [-1.0]})



def test_a_user_distribution_gets_the_base_machinery():
    class Const(tfd.Distribution):
        def __init__(self):
            super().__init__(dtype=tf.float32, reparameterization_type=tfd.NOT_REPARAMETERIZED,
                             validate_args=False, allow_nan_stats=True)

        def _log_prob(self, x):
            return -x

    dist = Const()
    assert float(dist.log_prob(2)) == -2.0
    np.testing.assert_allclose(dist.prob(1.0).numpy(), np.exp(-1.0), rtol=1e-6)
    assert repr(dist) == ("<tfp.distributions.Const 'None' batch_shape=<unknown> "
                          "event_shape=<unknown> dtype=float32>")
    assert str(dist) == 'tfp.distributions.Const("None", dtype=float32)'
    for method, text in [("sample", "sample_n"), ("batch_shape_tensor", "batch_shape_tensor"),
                         ("event_shape_tensor", "event_shape_tensor"), ("entropy", "entropy"),
                         ("stddev", "stddev")]:
        with pytest.raises(NotImplementedError, match=f"^{text} is not implemented: Const$"):
            getattr(dist, method)()
    with pytest.raises(NotImplementedError, match="^survival_function is not implemented: Const$"):
        dist.survival_function(1.0)
    with pytest.raises(ValueError, match="Graph parent item 0 is not a Tensor; 1.0."):
        tfd.Distribution(tf.float32, tfd.NOT_REPARAMETERIZED, False, True, graph_parents=[1.0])
    with pytest.raises(ValueError, match=r"Graph parent item 1 is not a Tensor; \[1. 1.\]."):
        tfd.Distribution(tf.float32, tfd.NOT_REPARAMETERIZED, False, True,
                         graph_parents=[tf.Variable(1.0), np.ones(2)])

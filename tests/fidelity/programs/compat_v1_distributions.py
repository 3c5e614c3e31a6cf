import numpy as np
import tensorflow as tf

tfd = tf.compat.v1.distributions
np.set_printoptions(precision=6, suppress=False)


def show(label, fn):
    try:
        r = fn()
        if hasattr(r, "numpy"):
            print(label, r.dtype.name, tuple(r.shape), repr(r.numpy()))
        else:
            print(label, r)
    except tf.errors.InvalidArgumentError as e:
        print(label, "InvalidArgumentError")
    except Exception as e:  # noqa
        print(label, type(e).__name__, str(e))


def methods(d, values, extra=()):
    print("==", repr(d))
    print("  ", str(d), d.reparameterization_type, d.dtype.name)
    show(" batch_shape_tensor", d.batch_shape_tensor)
    show(" event_shape_tensor", d.event_shape_tensor)
    show(" is_scalar_batch", d.is_scalar_batch)
    show(" is_scalar_event", d.is_scalar_event)
    for m in ("entropy", "mean", "mode", "variance", "stddev", "covariance"):
        show(" " + m, getattr(d, m))
    for v in values:
        for m in ("log_prob", "prob", "cdf", "log_cdf", "survival_function",
                  "log_survival_function") + tuple(extra):
            show(" %s(%r)" % (m, v), lambda: getattr(d, m)(v))


tf.random.set_seed(1234)
nan, inf = float("nan"), float("inf")

# Normal
n = tfd.Normal(loc=[0.0, 1.0, -2.0], scale=[1.0, 2.0, 0.5])
methods(n, [0.5, [[-1.0], [3.0]], [0.0, inf, nan], [-40.0, -12.0, 7.0]], ("quantile",))
show(" quantile", lambda: n.quantile([0.0, 0.3, 1.0]))
show(" quantile tails", lambda: tfd.Normal(0.0, 1.0).quantile([1e-30, 1e-5, 0.2, 0.9, 0.999999]))
show(" sample", lambda: n.sample(seed=3))
show(" sample 2x2", lambda: n.sample([2, 2], seed=4))
show(" sample 2", lambda: n.sample(2))
nd = tfd.Normal(np.float64(0.0), np.float64(1.0))
show(" f64 log_cdf", lambda: nd.log_cdf([-50.0, -25.0, -19.0, 0.0, 7.0, 9.0]))
show(" f32 log_cdf", lambda: tfd.Normal(0.0, 1.0).log_cdf([-50.0, -11.0, -9.0, 0.0, 4.0, 6.0, 40.0]))
show(" f64 sample", lambda: nd.sample(3, seed=5))
show(" zero scale", lambda: tfd.Normal(0.0, 0.0).log_prob([0.0, 1.0]))
show(" kl", lambda: tfd.kl_divergence(n, tfd.Normal(1.0, 1.0)))
show(" kl method", lambda: n.kl_divergence(tfd.Normal(0.5, [[1.0], [3.0]])))
show(" cross_entropy", lambda: n.cross_entropy(tfd.Normal(0.5, 2.0)))
show(" param_shapes", lambda: tfd.Normal.param_static_shapes([2, 3]))

# Bernoulli
for b in (tfd.Bernoulli(probs=[0.0, 0.3, 1.0]), tfd.Bernoulli(logits=[[-1.0], [2.0]]),
          tfd.Bernoulli(probs=0.4, dtype=tf.float32)):
    methods(b, [0, 1, [1, 0, 1], 0.5])
    show(" logits", lambda: b.logits)
    show(" probs", lambda: b.probs)
    show(" sample", lambda: b.sample([2, 3], seed=7))
show(" kl", lambda: tfd.kl_divergence(tfd.Bernoulli(probs=0.3), tfd.Bernoulli(probs=[0.1, 0.5])))
show(" kl 0", lambda: tfd.kl_divergence(tfd.Bernoulli(probs=0.0), tfd.Bernoulli(probs=0.0)))

# Categorical
for c in (tfd.Categorical(probs=[0.2, 0.5, 0.3]),
          tfd.Categorical(logits=[[0.0, 1.0, 2.0], [2.0, 1.0, -inf]]),
          tfd.Categorical(logits=[[[1.0, 2.0]], [[3.0, 1.0]]], dtype=tf.int64)):
    methods(c, [0, 1, [2, 0], [[0], [1]], 1.0, -1])
    show(" cdf(3)", lambda: c.cdf(3))
    show(" sample", lambda: c.sample(4, seed=11))
    show(" sample 2x3", lambda: c.sample([2, 3], seed=12))
    show(" event_size", lambda: c.event_size)
show(" kl", lambda: tfd.kl_divergence(tfd.Categorical(probs=[0.2, 0.8]),
                                      tfd.Categorical(logits=[[0.0, 1.0], [1.0, 0.0]])))
show(" float value", lambda: tfd.Categorical(probs=[0.2, 0.8]).log_prob(tf.constant(1.7)))

# Beta
for be in (tfd.Beta([0.5, 1.0, 2.0], [0.5, 3.0, 2.0]), tfd.Beta(2.0, [[1.5], [4.0]], allow_nan_stats=False)):
    methods(be, [0.0, 0.25, 1.0, [0.1, 0.5, 0.9], -0.5, 1.5, nan])
    show(" sample", lambda: be.sample(3, seed=13))
    show(" total_concentration", lambda: be.total_concentration)
show(" kl", lambda: tfd.kl_divergence(tfd.Beta(2.0, 3.0), tfd.Beta([1.0, 2.0], 2.0)))

# Dirichlet
for di in (tfd.Dirichlet([1.0, 2.0, 3.0]), tfd.Dirichlet([[0.5, 0.5], [2.0, 3.0]]),
           tfd.Dirichlet([2.0, 3.0], allow_nan_stats=False),
           tfd.Dirichlet([[0.5, 2.0]], allow_nan_stats=False)):
    methods(di, [[0.2, 0.3, 0.5], [0.5, 0.5], [[0.1, 0.9], [0.0, 1.0]], [1.0, 0.0]])
    show(" sample", lambda: di.sample(2, seed=17))
show(" kl", lambda: tfd.kl_divergence(tfd.Dirichlet([1.0, 2.0]), tfd.Dirichlet([[2.0, 2.0], [0.5, 1.0]])))

# Exponential
for ex in (tfd.Exponential([0.5, 1.0, 4.0]), tfd.Exponential(rate=2.0)):
    methods(ex, [0.0, 1.0, [0.5, -1.0, inf], nan])
    show(" sample", lambda: ex.sample([2], seed=19))
    show(" rate", lambda: ex.rate)
    show(" concentration", lambda: ex.concentration)
    print(" params", ex.parameters)
show(" kl", lambda: tfd.kl_divergence(tfd.Exponential(1.0), tfd.Exponential([2.0, 0.5])))
show(" kl gamma", lambda: tfd.kl_divergence(tfd.Exponential(1.0), tfd.Gamma(2.0, 1.0)))

# Gamma
for g in (tfd.Gamma([0.5, 1.0, 3.0], [1.0, 2.0, 0.5]), tfd.Gamma(3.0, 2.0, allow_nan_stats=False),
          tfd.Gamma(0.5, 2.0, allow_nan_stats=False)):
    methods(g, [0.0, 1.5, [0.1, 2.0, 10.0], -1.0, inf])
    show(" sample", lambda: g.sample(3, seed=23))
show(" kl", lambda: tfd.kl_divergence(tfd.Gamma(2.0, 3.0), tfd.Gamma([1.0, 4.0], 1.0)))
show(" int value", lambda: tfd.Gamma(2.0, 1.0).log_prob(2))
show(" f64 value", lambda: tfd.Gamma(2.0, 1.0).log_prob(tf.constant(2.0, tf.float64)))

# Laplace
la = tfd.Laplace([0.0, 1.0], [1.0, 3.0])
methods(la, [0.0, [-2.0, 4.0], [[-50.0], [60.0]], inf, nan])
show(" sample", lambda: la.sample(4, seed=29))

# Multinomial
for mu in (tfd.Multinomial(total_count=5.0, probs=[0.2, 0.3, 0.5]),
           tfd.Multinomial(total_count=[3.0, 4.0], logits=[[0.0, 1.0], [1.0, 1.0]])):
    methods(mu, [[1.0, 2.0, 2.0], [1.0, 2.0], [[3.0, 0.0], [2.0, 2.0]], [0.0, 0.0, 5.0]])
    show(" sample", lambda: mu.sample(2, seed=31))
    show(" sample 3", lambda: mu.sample([3], seed=32))

# StudentT
for st in (tfd.StudentT(df=[0.5, 1.5, 3.0], loc=[0.0, 1.0, 2.0], scale=2.0),
           tfd.StudentT(df=[[3.0], [0.8]], loc=0.0, scale=1.0, allow_nan_stats=False),
           tfd.StudentT(df=5.0, loc=0.0, scale=-1.0)):
    methods(st, [0.0, [-1.0, 2.0, 5.0], inf, nan])
    show(" sample", lambda: st.sample(3, seed=37))

# Uniform
for u in (tfd.Uniform(), tfd.Uniform([0.0, -1.0], [[1.0], [4.0]]), tfd.Uniform(2.0, 1.0)):
    methods(u, [0.0, 0.5, 1.0, [-1.0, 3.0], nan, inf])
    show(" sample", lambda: u.sample(3, seed=41))
    show(" range", lambda: u.range())

# DirichletMultinomial
for dm in (tfd.DirichletMultinomial(4.0, [1.0, 2.0, 3.0]),
           tfd.DirichletMultinomial([2.0, 5.0], [[0.5, 0.5], [2.0, 1.0]])):
    methods(dm, [[1.0, 1.0, 2.0], [[1.0, 1.0], [3.0, 2.0]], [2.0, 0.0]])
    show(" sample", lambda: dm.sample(2, seed=43))

# unseeded samples advance the global-seed stream
show("normal unseeded", lambda: tfd.Normal(0.0, 1.0).sample(3))
show("normal unseeded", lambda: tfd.Normal(0.0, 1.0).sample(3))

# errors
show("no kl", lambda: tfd.kl_divergence(tfd.Normal(0.0, 1.0), tfd.Gamma(1.0, 1.0)))
show("ints", lambda: tfd.Normal(0, 1))
show("mixed", lambda: tfd.Normal(0.0, tf.constant(1.0, tf.float64)))
show("both", lambda: tfd.Bernoulli(logits=1.0, probs=0.5))
show("neither", lambda: tfd.Categorical())
show("int logits", lambda: tfd.Categorical(logits=[1, 2]))
show("sample shape", lambda: tfd.Normal(0.0, 1.0).sample([[2]]))
show("no quantile", lambda: tfd.Gamma(1.0, 1.0).quantile(0.5))
show("no covariance", lambda: tfd.Normal(0.0, 1.0).covariance())
show("no cdf", lambda: tfd.Dirichlet([1.0, 2.0]).cdf([0.5, 0.5]))
show("no entropy", lambda: tfd.Multinomial(2.0, probs=[0.5, 0.5]).entropy())
show("no mode", lambda: tfd.Uniform().mode())
show("validate scale", lambda: tfd.Normal(0.0, -1.0, validate_args=True))
show("validate probs", lambda: tfd.Bernoulli(probs=1.5, validate_args=True))
show("validate event", lambda: tfd.Bernoulli(probs=0.5, validate_args=True).log_prob(2))
show("validate low", lambda: tfd.Uniform(1.0, 0.0, validate_args=True))
show("validate conc", lambda: tfd.Beta(-1.0, 1.0, validate_args=True))
show("validate beta x", lambda: tfd.Beta(1.0, 1.0, validate_args=True).log_prob(1.5))
show("validate dirichlet", lambda: tfd.Dirichlet([1.0], validate_args=True))
show("validate counts", lambda: tfd.Multinomial(3.0, probs=[0.5, 0.5], validate_args=True).log_prob([1.0, 1.0]))
show("validate total", lambda: tfd.Multinomial(2.5, probs=[0.5, 0.5], validate_args=True))
show("validate categorical 1", lambda: tfd.Categorical(logits=[1.0], validate_args=True))
show("validate categorical k", lambda: tfd.Categorical(logits=[1.0, 2.0], validate_args=True).log_prob(1.5))
show("validate probs sum", lambda: tfd.Categorical(probs=[0.5, 0.6], validate_args=True))
show("kl nan", lambda: tfd.kl_divergence(tfd.Normal(nan, 1.0), tfd.Normal(0.0, 1.0), allow_nan_stats=False))
show("kl nan ok", lambda: tfd.Normal(nan, 1.0).kl_divergence(tfd.Normal(0.0, 1.0)))
show("mode undefined", lambda: tfd.Beta(0.5, 2.0, allow_nan_stats=False).mode())
show("copy", lambda: tfd.Normal(0.0, 1.0, name="n").copy(loc=2.0).mean())
print(tfd.Normal(0.0, 1.0, validate_args=True).copy(scale=3.0).parameters)
print(tfd.Gamma.param_shapes([2]))
print(tfd.StudentT.param_static_shapes(tf.TensorShape([3, 1])))
show("bad static", lambda: tfd.Uniform.param_static_shapes(tf.TensorShape([None])))

# gradients of log_prob and of reparameterized samples with respect to variables
loc, scale = tf.Variable([0.5, -1.0]), tf.Variable(2.0)
with tf.GradientTape(persistent=True) as tape:
    d = tfd.Normal(loc, scale)
    lp = tf.reduce_sum(d.log_prob([1.0, 2.0]))
    s = tf.reduce_sum(d.sample(3, seed=51))
print("normal grads", [g.numpy() for g in tape.gradient(lp, [loc, scale])],
      [g.numpy() for g in tape.gradient(s, [loc, scale])])
conc, rate = tf.Variable([1.5, 3.0]), tf.Variable(2.0)
with tf.GradientTape(persistent=True) as tape:
    d = tfd.Gamma(conc, rate)
    lp = tf.reduce_sum(d.log_prob(0.7))
    s = tf.reduce_sum(d.sample(2, seed=52))
print("gamma grads", [g.numpy() for g in tape.gradient(lp, [conc, rate])],
      [g.numpy() for g in tape.gradient(s, [conc, rate])])
a, b = tf.Variable(2.0), tf.Variable([1.0, 3.0])
with tf.GradientTape() as tape:
    lp = tf.reduce_sum(tfd.Beta(a, b).log_prob(0.3)) + tf.reduce_sum(tfd.Beta(a, b).entropy())
print("beta grads", [g.numpy() for g in tape.gradient(lp, [a, b])])
logits = tf.Variable([[0.0, 1.0, -1.0]])
with tf.GradientTape() as tape:
    c = tfd.Categorical(logits=logits)
    out = tf.reduce_sum(c.log_prob([2])) + tf.reduce_sum(c.entropy())
print("categorical grads", tape.gradient(out, logits).numpy())
lo, hi = tf.Variable(-1.0), tf.Variable(3.0)
with tf.GradientTape() as tape:
    s = tf.reduce_sum(tfd.Uniform(lo, hi).sample(4, seed=53))
print("uniform grads", [g.numpy() for g in tape.gradient(s, [lo, hi])])
# (float64: TF's float32 digamma is a few ulps off, which this sum amplifies)
df, l2 = tf.Variable(4.0, dtype=tf.float64), tf.Variable(1.0, dtype=tf.float64)
with tf.GradientTape() as tape:
    d = tfd.StudentT(df, l2, tf.constant(2.0, tf.float64))
    out = tf.reduce_sum(d.log_prob(tf.constant([0.0, 3.0], tf.float64))) + d.entropy()
print("student grads", [g.numpy() for g in tape.gradient(out, [df, l2])])
with tf.GradientTape() as tape:
    out = tfd.kl_divergence(tfd.Normal(loc, scale), tfd.Normal(0.0, 1.0))
print("kl grads", [g.numpy() for g in tape.gradient(out, [loc, scale])])

# inside tf.function, with a static and an unknown batch dimension
@tf.function
def step(x):
    d = tfd.Normal(x, 1.0)
    return d.log_prob(0.0), d.sample(2, seed=61), d.batch_shape, d.name, d.mean()
print("function", step(tf.constant([0.0, 1.0])))

@tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
def dyn(logits):
    c = tfd.Categorical(logits=logits)
    print("traced batch_shape", c.batch_shape, c.event_size)
    return c.log_prob(tf.zeros(tf.shape(logits)[:1], tf.int32)), c.entropy(), c.batch_shape_tensor()
print("dyn", dyn(tf.constant([[0.0, 1.0, 2.0], [1.0, 1.0, 1.0]])))

# TF 1 graph and Session
with tf.Graph().as_default():
    tf.compat.v1.set_random_seed(7)
    p = tf.compat.v1.placeholder(tf.float32, [None])
    d = tfd.Normal(p, 2.0)
    g = tfd.Gamma(p, 1.0)
    print("graph", d.name, g.name, repr(d), d.batch_shape)
    sample = d.sample([2], seed=3)
    print("sample shape", sample.shape)
    lp = d.log_prob(1.0)
    with tf.compat.v1.Session() as sess:
        print(sess.run([lp, sample, g.mean()], {p: [1.0, 2.0, 3.0]}))
    checked = tfd.Normal(0.0, p, validate_args=True).log_prob(0.0)
    with tf.compat.v1.Session() as sess:
        print(sess.run(checked, {p: [1.0]}))
        try:
            sess.run(checked, {p: [-1.0]})
        except tf.errors.InvalidArgumentError:
            print("graph validate InvalidArgumentError")

# gradients of the other reparameterized samples, and of more log_probs and cdfs
tf.random.set_seed(9)
def grads(label, make, n=3, seed=1):
    vs = None
    with tf.GradientTape() as tape:
        d, vs = make()
        s = tf.reduce_sum(d.sample(n, seed=seed) * tf.range(1.0, n + 1.0)[:, None] if d.batch_shape.ndims else d.sample(n, seed=seed))
    print(label, [None if g is None else g.numpy() for g in tape.gradient(s, vs)])
a, b = tf.Variable([2.0, 0.5]), tf.Variable([3.0, 1.5])
grads("beta", lambda: (tfd.Beta(a, b), [a, b]))
c = tf.Variable([[1.0, 2.0, 3.0]])
with tf.GradientTape() as tape:
    s = tf.reduce_sum(tfd.Dirichlet(c).sample(2, seed=1) * [1.0, 2.0, 4.0])
print("dirichlet", tape.gradient(s, c).numpy())
r = tf.Variable([0.5, 2.0])
grads("exponential", lambda: (tfd.Exponential(r), [r]))
l, sc = tf.Variable([0.0, 1.0]), tf.Variable([1.0, 2.0])
grads("laplace", lambda: (tfd.Laplace(l, sc), [l, sc]))
df = tf.Variable([3.0, 7.0])
grads("studentt", lambda: (tfd.StudentT(df, l, sc), [df, l, sc]))
p = tf.Variable([0.3, 0.6])
grads("bernoulli", lambda: (tfd.Bernoulli(probs=p, dtype=tf.float32), [p]))
with tf.GradientTape() as tape:
    lp = tf.reduce_sum(tfd.Multinomial(4.0, probs=[p[0], 1 - p[0]]).log_prob([1.0, 3.0]))
    lp += tf.reduce_sum(tfd.DirichletMultinomial(4.0, c).log_prob([1.0, 1.0, 2.0]))
    lp += tf.reduce_sum(tfd.Dirichlet(c).log_prob([0.2, 0.3, 0.5]))
    lp += tf.reduce_sum(tfd.Laplace(l, sc).cdf(0.5)) + tf.reduce_sum(tfd.Normal(l, sc).log_cdf(-3.0))
    lp += tf.reduce_sum(tfd.Gamma(a, b).cdf(1.0))
print("lp grads", [g.numpy() for g in tape.gradient(lp, [p, c, l, sc, a, b])])

# a TF 1 graph whose parameters have unknown shapes (and a sample count known at run time)
with tf.Graph().as_default():
    tf.compat.v1.set_random_seed(1)
    x = tf.compat.v1.placeholder(tf.float32)
    c = tfd.Categorical(logits=x)
    print(c.batch_shape, c.event_shape, c.event_size)
    s = c.sample(2, seed=3)
    parts = [s, c.log_prob(tf.constant([[0, 1]])), c.cdf(1), c.entropy(), c.mode(),
             c.is_scalar_batch()]
    print([t.shape for t in parts])
    d = tfd.Dirichlet(x)
    print(d.batch_shape, d.event_shape)
    n = tfd.Normal(x, 1.0)
    dyn_n = tf.compat.v1.placeholder(tf.int32, [])
    parts += [d.sample(2, seed=4), d.mean(), n.sample([2], seed=5), n.sample(dyn_n, seed=6)]
    print([t.shape for t in parts[-4:]])
    with tf.compat.v1.Session() as sess:
        feed = {x: [[0.5, 1.0, 2.0], [1.0, 1.0, 1.0]], dyn_n: 3}
        for t in parts:
            print(sess.run(t, feed))
        print(sess.run(c.is_scalar_batch(), {x: [0.0, 1.0]}))

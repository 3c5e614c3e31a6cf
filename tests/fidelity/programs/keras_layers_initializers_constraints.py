import numpy as np
import tensorflow as tf
I = tf.keras.initializers
tf.keras.utils.set_random_seed(5)
inits = [I.GlorotUniform(), I.GlorotNormal(seed=1), I.HeNormal(seed=2), I.HeUniform(), I.LecunNormal(seed=3), I.LecunUniform(seed=3),
         I.RandomNormal(0.5, 0.1, seed=4), I.RandomUniform(-1, 1, seed=4), I.TruncatedNormal(stddev=2.0, seed=9),
         I.Orthogonal(seed=1), I.Orthogonal(gain=2.0), I.Identity(gain=3.0), I.Constant(0.7), I.Zeros(), I.Ones(),
         I.VarianceScaling(scale=2.0, mode="fan_avg", distribution="uniform", seed=11),
         I.VarianceScaling(mode="fan_out", distribution="untruncated_normal", seed=11)]
for init in inits:
    print(type(init).__name__, init.get_config())
    print(np.round(init((3, 4)).numpy(), 5))
print(np.round(I.GlorotUniform(seed=3)((2, 2, 3, 4)).numpy()[0, 0], 5))
print(I.get("glorot_uniform").get_config(), type(I.get("he_normal")).__name__, type(I.get("zeros")).__name__)
print(I.serialize(I.HeNormal(seed=7)))
print(type(I.deserialize({"class_name": "RandomNormal", "config": {"stddev": 0.2}})).__name__)
print(I.Constant([1.0, 2.0])((2,)).numpy())
print(I.RandomNormal(seed=1)((2,), dtype="float64").numpy().dtype)
try:
    I.Zeros()((2,), dtype="string")
except Exception as e:
    print(type(e).__name__, e)
try:
    I.Orthogonal()((3,))
except ValueError as e:
    print(e)
try:
    I.Identity()((2, 3, 4))
except ValueError as e:
    print(e)
try:
    I.VarianceScaling(scale=-1)
except ValueError as e:
    print(e)
# layers with seeded defaults
tf.keras.utils.set_random_seed(0)
d = tf.keras.layers.Dense(2, kernel_initializer="he_uniform", bias_initializer=I.Constant(0.1))
d.build((None, 3))
print(np.round(d.kernel.numpy(), 5), d.bias.numpy())
e = tf.keras.layers.Embedding(4, 2)
e.build((None,))
print(np.round(e.embeddings.numpy(), 5))
R = tf.keras.regularizers
for r in [R.L1(0.1), R.L2(0.2), R.L1L2(0.1, 0.2), R.l2(), R.OrthogonalRegularizer(0.1, mode="columns")]:
    print(type(r).__name__, r.get_config(), np.round(r(tf.constant([[1.0, -2.0], [0.5, 3.0]])).numpy(), 5))
print(R.get("l1").get_config(), type(R.get("l1_l2")).__name__, R.serialize(R.L2(0.3)))
C = tf.keras.constraints
w = tf.constant([[1.0, -2.0], [0.5, 3.0], [-0.1, 0.2]])
for c in [C.MaxNorm(2.0), C.MaxNorm(1.0, axis=1), C.NonNeg(), C.UnitNorm(), C.MinMaxNorm(0.5, 1.5, rate=0.5), C.RadialConstraint()]:
    print(type(c).__name__, c.get_config())
    try:
        print(np.round(c(w).numpy(), 5))
    except Exception as ex:
        print(type(ex).__name__, ex)
print(C.get("max_norm").get_config(), C.serialize(C.NonNeg()))
d = tf.keras.layers.Dense(2, kernel_regularizer="l2", kernel_constraint="non_neg", activity_regularizer=R.L1(0.01))
y = d(np.ones((2, 3), "float32"))
print(len(d.losses), [np.round(l.numpy(), 5) for l in d.losses])
print(d.get_config()["kernel_regularizer"], d.get_config()["kernel_constraint"], d.get_config()["activity_regularizer"])

import numpy as np
import tensorflow as tf

O = tf.keras.optimizers
def run(opt, steps=3):
    v = tf.Variable([1.0, -2.0, 3.0])
    w = tf.Variable([[0.5, -0.5], [1.5, 2.0]])
    for i in range(steps):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(v ** 2 * tf.constant([1.0, 2.0, 0.5])) + tf.reduce_sum(tf.sin(w)) * (i + 1)
        grads = tape.gradient(loss, [v, w])
        opt.apply_gradients(zip(grads, [v, w]))
    print(type(opt).__name__, np.round(v.numpy(), 5), np.round(w.numpy(), 5), opt.iterations.numpy())

run(O.SGD(0.1))
run(O.SGD(0.1, momentum=0.9))
run(O.SGD(0.1, momentum=0.9, nesterov=True))
run(O.SGD(0.1, weight_decay=0.01))
run(O.Adam(0.1))
run(O.Adam(0.1, amsgrad=True))
run(O.Adam(0.1, beta_1=0.8, beta_2=0.9, epsilon=1e-3))
run(O.AdamW(0.1, weight_decay=0.1))
run(O.Adamax(0.1))
run(O.Nadam(0.1))
run(O.RMSprop(0.1))
run(O.RMSprop(0.1, centered=True, momentum=0.5))
run(O.Adagrad(0.1))
run(O.Adadelta(1.0))
run(O.Ftrl(0.1))
run(O.Ftrl(0.1, l1_regularization_strength=0.01, l2_regularization_strength=0.02, beta=0.1, l2_shrinkage_regularization_strength=0.01))
run(O.Adafactor(0.1))
run(O.Adafactor(0.5, relative_step=False, clip_threshold=0.5, epsilon_2=0.1))
run(O.Lion(0.1))
run(O.Lion(0.01, beta_1=0.5, beta_2=0.8, weight_decay=0.1))
run(O.SGD(0.1, clipnorm=1.0))
run(O.SGD(0.1, clipvalue=0.5))
run(O.SGD(0.1, global_clipnorm=1.0))
run(O.Adam(0.1, use_ema=True, ema_momentum=0.9, ema_overwrite_frequency=2))
sched = O.schedules.ExponentialDecay(0.1, decay_steps=1, decay_rate=0.5, staircase=True)
run(O.SGD(sched))
run(O.Adam(O.schedules.PiecewiseConstantDecay([1, 2], [0.1, 0.05, 0.01])))
print(O.SGD().get_config())
print(O.Adam(amsgrad=True, clipnorm=1.0).get_config())
print(O.AdamW().get_config())
print(O.RMSprop().get_config())
print(O.Adagrad().get_config())
print(O.Adadelta().get_config())
print(O.Adamax().get_config())
print(O.Nadam().get_config())
print(O.Ftrl().get_config())
print(O.SGD(sched).get_config())
opt = O.Adam(0.01)
print(opt.learning_rate.numpy(), opt.lr.numpy())
opt.learning_rate = 0.5
print(opt.learning_rate.numpy())
print(O.get("adam").get_config()["name"], type(O.get("rmsprop")).__name__)
print(O.serialize(O.SGD())["class_name"])
print(type(O.deserialize({"class_name": "Adam", "config": {"learning_rate": 0.3}})).__name__)
o = O.Adam(0.1); v = tf.Variable([1.0, 2.0]); o.apply_gradients([(tf.constant([0.1, 0.2]), v)])
print([x.name for x in o.variables], len(o.variables))
S = tf.keras.optimizers.schedules
scheds = [
    S.ExponentialDecay(0.1, 10, 0.9),
    S.ExponentialDecay(0.1, 3, 0.5, staircase=True, name="exp"),
    S.PiecewiseConstantDecay([5, 10], [1.0, 0.5, 0.1]),
    S.PolynomialDecay(0.1, 20, end_learning_rate=0.01, power=2.0),
    S.PolynomialDecay(0.1, 8, cycle=True),
    S.InverseTimeDecay(0.1, 5, 0.5),
    S.InverseTimeDecay(0.1, 5, 0.5, staircase=True),
    S.CosineDecay(0.1, 20),
    S.CosineDecay(0.1, 20, alpha=0.1, warmup_target=0.5, warmup_steps=5),
    S.CosineDecayRestarts(0.1, 5, t_mul=2.0, m_mul=0.5, alpha=0.01),
]
for s in scheds:
    print(type(s).__name__, [round(float(s(step)), 6) for step in [0, 1, 3, 5, 7, 10, 13, 20, 25, 40]])
    print(s.get_config())
    v = s(tf.constant(4))
    print(v.dtype.name, v.shape)
print(S.serialize(scheds[0]))
print(type(S.deserialize(S.serialize(scheds[3]))).__name__)
p = S.PiecewiseConstantDecay([2], [1, 2])
print(p(1), p(3))
opt = tf.keras.optimizers.SGD(S.ExponentialDecay(0.1, 1, 0.5))
v = tf.Variable(1.0)
for _ in range(3):
    opt.apply_gradients([(tf.constant(1.0), v)])
    print(round(float(v.numpy()), 6), float(opt.learning_rate.numpy()) if hasattr(opt.learning_rate, "numpy") else opt.learning_rate)
print(opt.lr)
print(O.Adafactor().get_config())
print(O.Lion().get_config())

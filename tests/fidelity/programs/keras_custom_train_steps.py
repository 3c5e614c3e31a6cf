"""Customized training: train_step/test_step overrides through compute_loss and
compute_metrics (extra keys, a tracker metric), add_loss/add_metric in a subclassed model
with regularizers and seeded dropout, a two-optimizer (GAN) step, gradient accumulation
under tf.cond, and the batch numbers callbacks see with steps_per_execution."""
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(2)
x = np.random.RandomState(0).rand(13, 3).astype("float32")
y = x.sum(1)


def show(history):
    for key, values in history.history.items():
        print(key, np.round(values, 4).tolist())


class Custom(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.d = tf.keras.layers.Dense(1, kernel_regularizer=tf.keras.regularizers.l2(0.1))
        self.seen = tf.keras.metrics.Sum(name="seen")

    def call(self, inputs):
        return self.d(inputs)

    def train_step(self, data):
        xb, yb, sw = tf.keras.utils.unpack_x_y_sample_weight(data)
        with tf.GradientTape() as tape:
            yp = self(xb, training=True)
            loss = self.compute_loss(xb, yb, yp, sw)
        self.optimizer.minimize(loss, self.trainable_variables, tape=tape)
        self.seen.update_state(tf.shape(xb)[0])
        return self.compute_metrics(xb, yb, yp, sw)

    def test_step(self, data):
        xb, yb, sw = tf.keras.utils.unpack_x_y_sample_weight(data)
        yp = self(xb)
        self.compute_loss(xb, yb, yp, sw)
        return {"zz": tf.reduce_sum(yp), **self.compute_metrics(xb, yb, yp, sw)}


m = Custom()
m.compile("adam", "mae", metrics=["mse"], weighted_metrics=["mae"], loss_weights=0.5)
show(m.fit(x, y, sample_weight=np.linspace(1, 2, 13), batch_size=4, epochs=2, verbose=0,
           validation_data=(x, y, np.ones(13))))
print(m.metrics_names)
print(np.round(m.evaluate(x, y, verbose=0), 4).tolist())
print(sorted(m.evaluate(x, y, verbose=0, return_dict=True)))


class Noisy(tf.keras.layers.Layer):
    def call(self, inputs):
        self.add_loss(0.1 * tf.reduce_mean(tf.square(inputs)))
        self.add_metric(tf.reduce_mean(inputs), name="xmean", aggregation="mean")
        return inputs


class Sub(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.d = tf.keras.layers.Dense(3, kernel_regularizer="l2")
        self.noisy = Noisy()
        self.drop = tf.keras.layers.Dropout(0.5)
        self.o = tf.keras.layers.Dense(1, activity_regularizer="l1")

    def call(self, inputs, training=None):
        h = self.drop(self.noisy(self.d(inputs)), training=training)
        self.add_loss(0.01 * tf.reduce_sum(h))
        return self.o(h)


s = Sub()
s.compile(tf.keras.optimizers.Adam(0.01), "mse", metrics=["mae"])
show(s.fit(x, y[:, None], batch_size=5, epochs=2, verbose=0, validation_split=0.3,
           shuffle=False))
s(x[:4])
print(len(s.losses), [round(float(v), 4) for v in s.losses])

gen = tf.keras.Sequential([tf.keras.layers.Dense(4, input_shape=(2,), activation="relu"),
                           tf.keras.layers.Dense(3)])
disc = tf.keras.Sequential([tf.keras.layers.Dense(4, input_shape=(3,), activation="tanh"),
                            tf.keras.layers.Dropout(0.3), tf.keras.layers.Dense(1)])


class GAN(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.g_loss = tf.keras.metrics.Mean(name="g_loss")
        self.d_loss = tf.keras.metrics.Mean(name="d_loss")

    def compile(self, g_opt, d_opt):
        super().compile()
        self.g_opt, self.d_opt = g_opt, d_opt
        self.bce = tf.keras.losses.BinaryCrossentropy(from_logits=True)

    def train_step(self, real):
        n = tf.shape(real)[0]
        with tf.GradientTape() as tape:
            fake = gen(tf.random.normal((n, 2)))
            loss = (self.bce(tf.ones((n, 1)), disc(fake, training=True))
                    + self.bce(tf.zeros((n, 1)), disc(real, training=True)))
        self.d_opt.minimize(loss, disc.trainable_weights, tape=tape)
        with tf.GradientTape() as tape:
            g_loss = self.bce(tf.zeros((n, 1)), disc(gen(tf.random.normal((n, 2))),
                                                      training=True))
        self.g_opt.minimize(g_loss, gen.trainable_weights, tape=tape)
        self.g_loss.update_state(g_loss)
        self.d_loss.update_state(loss)
        return {"g_loss": self.g_loss.result(), "d_loss": self.d_loss.result()}


gan = GAN()
gan.compile(tf.keras.optimizers.Adam(1e-2), tf.keras.optimizers.RMSprop(1e-2))
show(gan.fit(np.random.RandomState(1).randn(20, 3).astype("float32"), batch_size=8, epochs=2,
             verbose=0))
print(gan.g_opt.iterations.numpy(), gan.d_opt.iterations.numpy())

tf.keras.backend.clear_session()
tf.keras.utils.set_random_seed(4)
inner = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,)), tf.keras.layers.Dense(1)])
print([w.name for w in inner.weights])


class Accumulate(tf.keras.Model):
    def __init__(self, every):
        super().__init__()
        self.every = every
        self.sums = [tf.Variable(tf.zeros_like(v), trainable=False)
                     for v in inner.trainable_variables]
        self.count = tf.Variable(0, trainable=False)

    def call(self, inputs):
        return inner(inputs)

    def train_step(self, data):
        xb, yb = data
        with tf.GradientTape() as tape:
            yp = self(xb, training=True)
            loss = self.compiled_loss(yb, yp)
        for total, g in zip(self.sums, tape.gradient(loss, inner.trainable_variables)):
            total.assign_add(g / self.every)
        self.count.assign_add(1)

        def apply():
            self.optimizer.apply_gradients(zip(self.sums, inner.trainable_variables))
            for total in self.sums:
                total.assign(tf.zeros_like(total))
            return tf.constant(0)

        tf.cond(self.count % self.every == 0, apply, lambda: tf.constant(0))
        self.compiled_metrics.update_state(yb, yp)
        return {metric.name: metric.result() for metric in self.metrics}


acc = Accumulate(2)
acc.compile(tf.keras.optimizers.SGD(0.1), "mse", metrics=["mae"])
show(acc.fit(x, y, batch_size=4, epochs=2, verbose=0))
print(acc.optimizer.iterations.numpy(), np.round(inner.get_weights()[0], 4).tolist())


class Batches(tf.keras.callbacks.Callback):
    def on_train_batch_end(self, batch, logs=None):
        print("train", batch, {k: round(float(v), 4) for k, v in logs.items()})

    def on_test_batch_end(self, batch, logs=None):
        print("test", batch, sorted(logs))

    def on_predict_batch_end(self, batch, logs=None):
        print("predict", batch, logs["outputs"].shape)


p = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(3,))])
p.compile("adam", "mse", metrics=["mae"], steps_per_execution=3)
history = p.fit(x, y, batch_size=2, epochs=2, verbose=0, callbacks=[Batches()],
                validation_data=(x, y), validation_freq=2)
show(history)
print(history.params)
print(np.round(p.evaluate(x, y, batch_size=5, verbose=0, callbacks=[Batches()]), 4).tolist())
print(p.predict(x, batch_size=4, verbose=0, callbacks=[Batches()]).shape)

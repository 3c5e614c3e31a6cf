"""The "advanced quickstart": a subclassed Model trained by a tf.function custom loop."""
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(2)
rng = np.random.RandomState(2)
x_train = rng.rand(48, 5, 5, 1).astype("float32")
y_train = (x_train.reshape(48, -1).sum(axis=1) > 12.5).astype("int32")
x_test = rng.rand(16, 5, 5, 1).astype("float32")
y_test = (x_test.reshape(16, -1).sum(axis=1) > 12.5).astype("int32")
x_train = x_train[..., 0][..., tf.newaxis]
print(x_train.shape, x_test.shape, y_train.dtype)


class MyModel(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.conv1 = tf.keras.layers.Conv2D(4, 3, activation="relu")
        self.flatten = tf.keras.layers.Flatten()
        self.d1 = tf.keras.layers.Dense(8, activation="relu")
        self.d2 = tf.keras.layers.Dense(2)

    def call(self, x):
        x = self.conv1(x)
        x = self.flatten(x)
        x = self.d1(x)
        return self.d2(x)


model = MyModel()
print(model.name, model.built, len(model.weights))
loss_object = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
optimizer = tf.keras.optimizers.Adam(learning_rate=0.01)

train_loss = tf.keras.metrics.Mean(name="train_loss")
train_accuracy = tf.keras.metrics.SparseCategoricalAccuracy(name="train_accuracy")
test_loss = tf.keras.metrics.Mean(name="test_loss")
test_accuracy = tf.keras.metrics.SparseCategoricalAccuracy(name="test_accuracy")
print(train_loss, train_accuracy.name, train_accuracy.dtype)


@tf.function
def train_step(images, labels):
    with tf.GradientTape() as tape:
        predictions = model(images, training=True)
        loss = loss_object(labels, predictions)
    gradients = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(gradients, model.trainable_variables))
    train_loss(loss)
    train_accuracy(labels, predictions)


@tf.function
def test_step(images, labels):
    predictions = model(images, training=False)
    t_loss = loss_object(labels, predictions)
    test_loss(t_loss)
    test_accuracy(labels, predictions)


EPOCHS = 3
for epoch in range(EPOCHS):
    train_loss.reset_states()
    train_accuracy.reset_states()
    test_loss.reset_states()
    test_accuracy.reset_states()
    for start in range(0, 48, 16):
        train_step(x_train[start:start + 16], y_train[start:start + 16])
    test_step(x_test, y_test)
    print(
        f"Epoch {epoch + 1}, "
        f"Loss: {train_loss.result():.3f}, "
        f"Accuracy: {train_accuracy.result() * 100:.1f}, "
        f"Test Loss: {test_loss.result():.3f}, "
        f"Test Accuracy: {test_accuracy.result() * 100:.1f}"
    )

print(model.built, [v.name for v in model.trainable_variables])
print([tuple(v.shape) for v in model.weights])
print(int(optimizer.iterations), len(optimizer.variables()))
print(type(train_loss.result()).__name__, train_loss.result().dtype, train_loss.result().shape)
print([v.name for v in train_accuracy.variables])
print(int(train_accuracy.count), float(train_accuracy.total) <= 48)
print(train_step.experimental_get_tracing_count(), test_step.experimental_get_tracing_count())
model.summary()

# The same loop, eagerly, with a plain Python loss function and SGD momentum.
model2 = tf.keras.Sequential([tf.keras.layers.Dense(3, activation="tanh"),
                              tf.keras.layers.Dense(1)])
opt = tf.keras.optimizers.SGD(learning_rate=0.05, momentum=0.9)
xs = tf.constant(rng.rand(20, 4).astype("float32"))
ys = tf.reduce_sum(xs, axis=1, keepdims=True)
mean = tf.keras.metrics.Mean()
for step in range(4):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model2(xs) - ys))
    grads = tape.gradient(loss, model2.trainable_weights)
    opt.apply_gradients(zip(grads, model2.trainable_weights))
    mean.update_state(loss)
    print(step, round(float(loss), 4), round(float(mean.result()), 4))
print(mean.name, int(opt.iterations), [v.name for v in opt.variables()])
print(sorted(opt.get_config()))
mean.reset_state()
print(mean.result())

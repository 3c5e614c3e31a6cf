import tensorflow as tf
import numpy as np

x = tf.Variable(2.0)
y = tf.Variable(3.0)
with tf.GradientTape() as t:
    x_sq = x * x
    with t.stop_recording():
        y_sq = y * y
    z = x_sq + y_sq
grad = t.gradient(z, {'x': x, 'y': y})
print('dz/dx:', grad['x'])
print('dz/dy:', grad['y'])

x = tf.Variable(2.0)
y = tf.Variable(3.0)
reset = True
with tf.GradientTape() as t:
    y_sq = y * y
    if reset:
        t.reset()
    z = x * x + y_sq
grad = t.gradient(z, {'x': x, 'y': y})
print('dz/dx:', grad['x'])
print('dz/dy:', grad['y'])

x = tf.Variable(2.0)
y = tf.Variable(3.0)
with tf.GradientTape() as t:
    y_sq = y**2
    z = x**2 + tf.stop_gradient(y_sq)
grad = t.gradient(z, {'x': x, 'y': y})
print('dz/dx:', grad['x'])
print('dz/dy:', grad['y'])

@tf.custom_gradient
def clip_gradients(y):
    def backward(dy):
        return tf.clip_by_norm(dy, 0.5)
    return y, backward

v = tf.Variable(2.0)
with tf.GradientTape() as t:
    output = clip_gradients(v * v)
print(t.gradient(output, v))

x0 = tf.constant(0.0)
with tf.GradientTape() as tape:
    tape.watch(x0)
    y = tf.nn.sigmoid(x0)
print(tape.gradient(y, x0))

x = tf.Variable(1.0)
with tf.GradientTape() as t2:
    with tf.GradientTape() as t1:
        y = x * x * x
    dy_dx = t1.gradient(y, x)
d2y_dx2 = t2.gradient(dy_dx, x)
print('dy_dx:', dy_dx.numpy())
print('d2y_dx2:', d2y_dx2.numpy())

tf.keras.utils.set_random_seed(1)
x = tf.random.normal([7, 5])
layer = tf.keras.layers.Dense(10, activation=tf.nn.relu)
with tf.GradientTape() as t2:
    with tf.GradientTape() as t1:
        t1.watch(x)
        y = layer(x)
        out = tf.reduce_sum(layer(x)**2)
    g1 = t1.gradient(out, x)
    g1_mag = tf.norm(g1)
dg1_mag = t2.gradient(g1_mag, layer.trainable_variables)
print([var.shape for var in dg1_mag])
print(np.round(dg1_mag[1].numpy(), 4))

x = tf.linspace(-10.0, 10.0, 200+1)
delta = tf.Variable(0.0)
with tf.GradientTape() as tape:
    y = tf.nn.sigmoid(x+delta)
dy_dx = tape.jacobian(y, delta)
print(y.shape, dy_dx.shape)
print(np.round(dy_dx[95:105].numpy(), 5))

x = tf.random.normal([7, 5])
layer = tf.keras.layers.Dense(10, activation=tf.nn.relu)
with tf.GradientTape(persistent=True) as tape:
    y = layer(x)
print(y.shape, layer.kernel.shape)
j = tape.jacobian(y, layer.kernel)
print(j.shape)
g = tape.gradient(y, layer.kernel)
print('g.shape:', g.shape)
j_sum = tf.reduce_sum(j, axis=[0, 1])
delta = tf.reduce_max(abs(g - j_sum)).numpy()
assert delta < 1e-3
print('delta ok')

x = tf.random.normal([2, 3])
layer1 = tf.keras.layers.Dense(8, activation=tf.nn.relu)
layer2 = tf.keras.layers.Dense(6, activation=tf.nn.relu)
with tf.GradientTape() as t2:
    with tf.GradientTape() as t1:
        x = layer1(x)
        x = layer2(x)
        loss = tf.reduce_mean(x**2)
    g = t1.gradient(loss, layer1.kernel)
h = t2.jacobian(g, layer1.kernel)
print(f'layer.kernel.shape: {layer1.kernel.shape}')
print(f'h.shape: {h.shape}')
n_params = tf.reduce_prod(layer1.kernel.shape)
g_vec = tf.reshape(g, [n_params, 1])
h_mat = tf.reshape(h, [n_params, n_params])
print(n_params, g_vec.shape, h_mat.shape)
eps = 1e-3
eye_eps = tf.eye(h_mat.shape[0])*eps
update = tf.linalg.solve(h_mat + eye_eps, g_vec)
print(update.shape)

x = tf.random.normal([7, 5])
layer1 = tf.keras.layers.Dense(8, activation=tf.nn.elu)
layer2 = tf.keras.layers.Dense(6, activation=tf.nn.elu)
with tf.GradientTape(persistent=True, watch_accessed_variables=False) as tape:
    tape.watch(x)
    y = layer1(x)
    y = layer2(y)
print(y.shape)
j = tape.jacobian(y, x)
print(j.shape)
jb = tape.batch_jacobian(y, x)
print(jb.shape)
j_sum = tf.reduce_sum(j, axis=2)
print(j_sum.shape)
j_select = tf.einsum('bxby->bxy', j)
print(j_select.shape)
print(bool(tf.reduce_max(abs(jb - j_select)) < 1e-5))

x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
with tf.GradientTape(persistent=True) as tape:
    tape.watch(x)
    y = tf.reduce_sum(x * x, axis=1)
print(tape.jacobian(y, x, experimental_use_pfor=False))

# forward accumulator
primals = tf.constant([1.0, 2.0])
tangents = tf.constant([1.0, 0.0])
with tf.autodiff.ForwardAccumulator(primals, tangents) as acc:
    out = tf.reduce_sum(primals ** 3)
print(acc.jvp(out))
x = tf.Variable([[1.0, 2.0]])
with tf.autodiff.ForwardAccumulator(x, tf.ones_like(x)) as acc:
    y = tf.matmul(x, [[2.0], [3.0]])
print(acc.jvp(y))
print(acc.jvp(tf.constant(1.0)))

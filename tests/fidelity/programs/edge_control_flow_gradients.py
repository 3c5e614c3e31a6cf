import numpy as np
import tensorflow as tf


def show(label, values):
    """Prints values rounded, so that last-digit differences of float math do not matter."""
    out = []
    for v in tf.nest.flatten(values):
        if v is None:
            out.append(None)
        else:
            v = tf.convert_to_tensor(v)
            out.append(np.round(v.numpy().astype(np.float64), 4).tolist())
    print(label, out)


outer = tf.constant(3.0)
v = tf.Variable(2.0)


def captured(n):
    """Gradients for an eager tensor from outside, watched, used in branches and loops."""
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(outer)
        a = tf.cond(n > 0, lambda: v * outer * outer, lambda: v + outer)
        b = tf.switch_case(n - 1, [lambda: outer, lambda: outer * outer * v])
        _, c = tf.while_loop(lambda i, acc: i < n, lambda i, acc: (i + 1, acc * outer + v),
                             (0, tf.constant(1.0)))
    return [tape.gradient(y, [outer, v]) for y in (a, b, c)]


show("captured eager", captured(tf.constant(2)))
show("captured traced", tf.function(captured)(tf.constant(2)))


def second_order(x):
    """Hessians through loops: while_loop, scan, map_fn, foldl and a TensorArray loop."""
    results = []
    bodies = [
        lambda z: tf.while_loop(lambda i, a: i < 3, lambda i, a: (i + 1, a * z),
                                (0, tf.ones_like(z)))[1],
        lambda z: tf.while_loop(lambda i, a: i < 2, lambda i, a: (i + 1, a * a), (0, z))[1],
        lambda z: tf.scan(lambda a, e: a * e + e * e, z),
        lambda z: tf.map_fn(lambda e: e * e * e, z),
        lambda z: tf.foldl(lambda a, e: a * e + tf.sin(e), z),
    ]
    for body in bodies:
        with tf.GradientTape() as t2:
            t2.watch(x)
            with tf.GradientTape() as t1:
                t1.watch(x)
                y = tf.reduce_sum(body(x))
            g = t1.gradient(y, x)
        results.append([y, g, t2.jacobian(g, x)])
    return results


x = tf.constant([1.0, 2.0, 3.0])
for label, fn in (("eager", second_order), ("traced", tf.function(second_order))):
    for i, result in enumerate(fn(x)):
        show(f"second order {label} {i}", result)


def third(x):
    with tf.GradientTape() as t3:
        t3.watch(x)
        with tf.GradientTape() as t2:
            t2.watch(x)
            with tf.GradientTape() as t1:
                t1.watch(x)
                _, y = tf.while_loop(lambda i, a: i < 3, lambda i, a: (i + 1, a * x + a),
                                     (0, tf.constant(1.0)))
            g = t1.gradient(y, x)
        h = t2.gradient(g, x)
    return y, g, h, t3.gradient(h, x)


show("third eager", third(tf.constant(2.0)))
show("third traced", tf.function(third)(tf.constant(2.0)))


def variable_hessian():
    with tf.GradientTape() as t2:
        with tf.GradientTape() as t1:
            _, y = tf.while_loop(lambda i, a: i < 3, lambda i, a: (i + 1, tf.sin(a) * v),
                                 (0, v * 1.0))
        g = t1.gradient(y, v)
    return y, g, t2.gradient(g, v)


show("variable hessian eager", variable_hessian())
show("variable hessian traced", tf.function(variable_hessian)())

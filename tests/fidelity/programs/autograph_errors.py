import tensorflow as tf


def show(fn, *args):
    try:
        print(fn(*args))
    except Exception as e:
        # the message, without the frames (their file paths differ from run to run)
        print(type(e).__name__, "|", str(e).split(f"{type(e).__name__}: ", 1)[-1].strip())


@tf.function
def one_branch(x):
    if x > 0:
        y = x * 2
    return y


show(one_branch, tf.constant(1))


@tf.function
def one_branch_else(x):
    if x > 0:
        pass
    else:
        z = 1
    return x


show(one_branch_else, tf.constant(1))


@tf.function
def dtype_change(x):
    if x > 0:
        y = 1
    else:
        y = 1.0
    return y


show(dtype_change, tf.constant(1))


@tf.function
def tensor_dtype_change(x):
    if x > 0:
        y = tf.constant(1)
    else:
        y = tf.constant(1.0)
    return y


show(tensor_dtype_change, tf.constant(1))


@tf.function
def loop_dtype(n):
    x = 0
    for i in tf.range(n):
        x = x + 0.5
    return x


show(loop_dtype, tf.constant(3))


@tf.function
def loop_tensor_dtype(n):
    x = tf.constant(0)
    for i in tf.range(n):
        x = tf.cast(x, tf.float32)
    return x


show(loop_tensor_dtype, tf.constant(3))


@tf.function
def loop_shape(n):
    x = tf.constant([1])
    for i in tf.range(n):
        x = tf.concat([x, [i]], 0)
    return x


show(loop_shape, tf.constant(3))


@tf.function
def loop_shape_ok(n):
    x = tf.constant([1])
    for i in tf.range(n):
        tf.autograph.experimental.set_loop_options(shape_invariants=[(x, tf.TensorShape([None]))])
        x = tf.concat([x, [i]], 0)
    return x


show(loop_shape_ok, tf.constant(3))


@tf.function
def loop_undefined(n):
    for i in tf.range(n):
        y = i
    return y


show(loop_undefined, tf.constant(3))


@tf.function
def loop_none(n):
    x = None
    for i in tf.range(n):
        x = i
    return x


show(loop_none, tf.constant(3))


@tf.function
def bool_of_tensor(x):
    return bool(x > 0)


show(bool_of_tensor, tf.constant(1))


@tf.function
def iterate_tensor_py(x):
    return [v for v in x]


show(iterate_tensor_py, tf.constant([1, 2]))


@tf.function
def structure_change(x):
    if x > 0:
        y = (x, x)
    else:
        y = x
    return y


show(structure_change, tf.constant(1))


@tf.function
def cond_in_python(x):
    if x.shape[0] > 2:
        return x[:2]
    return x


show(cond_in_python, tf.constant([1, 2, 3]))

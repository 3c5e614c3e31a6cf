import sys
import tensorflow as tf


@tf.function
def sum_even(items):
    s = 0
    for c in items:
        if c % 2 > 0:
            continue
        s += c
    return s


print(sum_even(tf.constant([10, 12, 15, 20])))


@tf.function
def fizzbuzz(n):
    for i in tf.range(1, n + 1):
        if i % 15 == 0:
            tf.print("FizzBuzz", output_stream=sys.stdout)
        elif i % 3 == 0:
            tf.print("Fizz", output_stream=sys.stdout)
        elif i % 5 == 0:
            tf.print("Buzz", output_stream=sys.stdout)
        else:
            tf.print(i, output_stream=sys.stdout)


fizzbuzz(tf.constant(15))


@tf.function
def collatz(x):
    steps = 0
    while x > 1:
        if x % 2 == 0:
            x = x // 2
        else:
            x = 3 * x + 1
        steps += 1
    return steps


print(collatz(tf.constant(27)))


@tf.function
def squares(n):
    ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
    for i in tf.range(n):
        ta = ta.write(i, tf.cast(i * i, tf.float32))
    return ta.stack()


print(squares(tf.constant(5)))


@tf.function
def running_mean(x):
    ta = tf.TensorArray(tf.float32, size=tf.shape(x)[0])
    total = tf.constant(0.0)
    for i in tf.range(tf.shape(x)[0]):
        total += x[i]
        ta = ta.write(i, total / tf.cast(i + 1, tf.float32))
    return ta.stack()


print(running_mean(tf.constant([1.0, 2.0, 3.0, 4.0])))


@tf.function
def python_loop(x):
    for i in range(3):
        x = x * 2 + i
    return x


print(python_loop(tf.constant(1)))


@tf.function
def early_break(x):
    total = tf.constant(0)
    for v in x:
        if v < 0:
            break
        total += v
    return total


print(early_break(tf.constant([1, 2, -1, 4])))


@tf.function
def clip_abs(x):
    if tf.reduce_sum(x) > 0:
        y = x
    else:
        y = -x
    return y


print(clip_abs(tf.constant([1.0, -3.0])))
print(clip_abs(tf.constant([1.0, 3.0])))


@tf.function
def logic(a, b):
    if a > 0 and b > 0:
        return 1
    elif a > 0 or b > 0:
        return 2
    else:
        return 3


print(logic(tf.constant(1), tf.constant(1)), logic(tf.constant(1), tf.constant(-1)),
      logic(tf.constant(-1), tf.constant(-1)))


@tf.function
def not_op(a):
    if not a:
        return tf.constant("no")
    return tf.constant("yes")


print(not_op(tf.constant(False)), not_op(tf.constant(True)))


@tf.function
def list_append(n):
    out = []
    for i in range(n):
        out.append(i * 2)
    return tf.stack(out)


print(list_append(4))


@tf.function
def nested(n):
    total = 0
    for i in tf.range(n):
        for j in tf.range(i):
            total += j
    return total


print(nested(tf.constant(5)))




@tf.function
def tuple_state(xs):
    pair = (tf.constant(1.0), tf.constant(0))
    for x in xs:
        pair = (pair[0] * x, pair[1] + 1)
    return pair


print(tuple_state(tf.constant([1.0, 2.0, 3.0])))


@tf.function
def ternary_and_print(x):
    y = x * 2 if x > 0 else -x
    print("traced")
    tf.print("y is", y, output_stream=sys.stdout)
    return y


print(ternary_and_print(tf.constant(3)), ternary_and_print(tf.constant(-4)))


@tf.function
def python_condition(x, flag):
    if flag:
        x = x + 100
    while tf.reduce_sum(x) > 50:
        x = x // 2
    return x


print(python_condition(tf.constant([30, 40]), True))
print(python_condition(tf.constant([30, 40]), False))


@tf.function
def loop_over_python_list(x):
    for scale in [1.0, 2.0, 3.0]:
        x = x * scale
    for k, v in {"a": 1.0, "b": 2.0}.items():
        x = x + v
    return x


print(loop_over_python_list(tf.constant(1.0)))


@tf.function
def while_else(n):
    i = tf.constant(0)
    while i < n:
        i += 2
    return i


print(while_else(tf.constant(7)))


@tf.function
def assert_in_graph(x):
    assert x.shape[0] == 2
    return tf.reduce_sum(x)


print(assert_in_graph(tf.constant([1, 2])))
print(tf.autograph.to_code(python_loop.python_function) != "")

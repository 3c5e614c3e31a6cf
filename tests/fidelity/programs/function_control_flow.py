import tensorflow as tf

T, F = tf.constant(True), tf.constant(False)


def show(fn):
    try:
        print(fn())
    except Exception as e:
        # the first line of the message, without TF's internal node names
        print(type(e).__name__, "|", str(e).split(f"{type(e).__name__}: ", 1)[-1].strip()
              .splitlines()[0].split(" [Op:")[0])


def body(i):
    print("body sees", i)
    return (i + 1,)


# while_loop: eagerly plain Python (the body's structure), in a graph the loop variables'.
show(lambda: tf.while_loop(lambda i: i < 2, body, [0]))
show(lambda: tf.while_loop(lambda i: i < 2, body, [tf.constant(0)]))
show(lambda: tf.while_loop(lambda i, j: i < 2, lambda i, j: (i + 1, j * 2.5), [0, 1]))
show(lambda: tf.while_loop(lambda i, s: i < 5, lambda i, s: [i + 1, s + i], (0, 0)))
show(lambda: tf.while_loop(lambda i, s: i > 5, lambda i, s: [i + 1, s + i], (0, 0)))
show(lambda: tf.while_loop(lambda i: i < 2, lambda i: [i + 1], (0,), maximum_iterations=0))
ta = tf.TensorArray(tf.int32, size=3)
show(lambda: tf.while_loop(lambda i, t: i < 3, lambda i, t: (i + 1, t.write(i, i * i)),
                           (0, ta))[1].stack())


@tf.function
def graph_loops():
    a = tf.while_loop(lambda i: i < 3, lambda i: (i + 1,), [0])
    b = tf.while_loop(lambda i, s: i < 5, lambda i, s: (i + 1, s + i), [0, 0])
    c = tf.while_loop(lambda i: i < 3, lambda i: [i + 1], (0,))
    d = tf.while_loop(lambda x: tf.shape(x)[0] < 3, lambda x: [tf.concat([x, x], 0)],
                      [tf.constant([1])], shape_invariants=[tf.TensorShape([None])])
    return a, b, c, d


show(graph_loops)


@tf.function
def graph_dtype_change():
    return tf.while_loop(lambda x: x < 3, lambda x: (tf.cast(x, tf.float32) + 1.0,), [0])


show(graph_dtype_change)

# case: the last pair is the default when none is given, asserting its predicate.
show(lambda: tf.case([(T, lambda: tf.constant(1)), (T, lambda: tf.constant(2))], exclusive=True))
show(lambda: tf.case([(T, lambda: tf.constant(1)), (T, lambda: tf.constant(2))],
                     default=lambda: tf.constant(3), exclusive=True))
show(lambda: tf.case([(F, lambda: tf.constant(1)), (F, lambda: tf.constant(2))]))
show(lambda: tf.case([(F, lambda: tf.constant(1)), (T, lambda: tf.constant(2))], exclusive=True))
show(lambda: tf.case([(F, lambda: tf.constant(1))]))
show(lambda: tf.case([(F, lambda: tf.constant(1)), (T, lambda: tf.constant(2.0))]))
show(lambda: tf.case([(F, lambda: tf.constant(1)), (True, lambda: tf.constant(2))]))
show(lambda: tf.case((F, lambda: tf.constant(1))))
show(lambda: tf.case({F: lambda: tf.constant(1)}, default=lambda: tf.constant(7)))


@tf.function
def c1(a, b):
    return tf.case([(a, lambda: tf.constant(1)), (b, lambda: tf.constant(2))])


@tf.function
def c2(a, b):
    return tf.case([(a, lambda: tf.constant(1)), (b, lambda: tf.constant(2))],
                   default=lambda: tf.constant(3), exclusive=True)


for args in [(T, F), (F, T), (F, F), (T, T)]:
    show(lambda: c1(*args))
    show(lambda: c2(*args))

# switch_case
fns = [lambda: tf.constant(10), lambda: tf.constant(20)]
for i in (0, 1, 5, -1):
    show(lambda: tf.switch_case(tf.constant(i), fns))
show(lambda: tf.switch_case(tf.constant(7), fns, default=lambda: tf.constant(-1)))
show(lambda: tf.switch_case(1, fns))
show(lambda: tf.switch_case(tf.constant(1, tf.int64), fns))
show(lambda: tf.switch_case(tf.constant(1.0), fns))
show(lambda: tf.switch_case(tf.constant(1), {0: fns[0], 3: fns[1]}))
show(lambda: tf.switch_case(tf.constant(1), {1: fns[0], 2: fns[1]}))
show(lambda: tf.switch_case(tf.constant(1), []))
show(lambda: tf.switch_case(tf.constant(1), {0: fns[0], "a": fns[1]}))
show(lambda: tf.switch_case(tf.constant(1), ((1, fns[0]), (0, fns[1]))))


@tf.function
def s1(i):
    return tf.switch_case(i, fns, default=lambda: tf.constant(-1))


for i in (0, 1, 2, -1):
    show(lambda: s1(tf.constant(i)))

# cond: results, and the branches' outputs must agree in a graph.
show(lambda: tf.cond(T, lambda: 1, lambda: 2))
show(lambda: tf.cond(T, lambda: tf.constant(1), lambda: tf.constant(1.0)))
show(lambda: tf.cond(tf.constant([True, False]), lambda: 1, lambda: 2))


@tf.function
def cond_none(x):
    r = tf.cond(x > 0, lambda: None, lambda: None)
    pair = tf.cond(x > 0, lambda: (x, None), lambda: (-x, None))
    return r, pair


show(lambda: cond_none(tf.constant(2)))


@tf.function
def cond_dtypes(x):
    return tf.cond(x > 0, lambda: tf.constant(1), lambda: tf.constant(1.0))


@tf.function
def cond_structures(x):
    return tf.cond(x > 0, lambda: [x, x], lambda: (x, x))


@tf.function
def cond_lengths(x):
    return tf.cond(x > 0, lambda: None, lambda: x)


for fn in (cond_dtypes, cond_structures, cond_lengths):
    show(lambda: fn(tf.constant(1)))

# nest's messages, which control flow errors show
show(lambda: tf.nest.assert_same_structure([1, (1, 2)], [1, (1, 2, 3)]))
show(lambda: tf.nest.assert_same_structure({"a": 1, "b": 2}, {"a": 1, "c": 2}))
show(lambda: tf.nest.pack_sequence_as([0, 0], [1]))

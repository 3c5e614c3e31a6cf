"""Writes GraphDefs of small programs traced by eagerflow, with their inputs and
eagerflow's outputs, for `run_eagerflow_graphs_in_tf.py` to run in real TensorFlow.

    PYTHONPATH=src:. python tests/graph/graphdef_data/make_eagerflow_graphs.py [NAME ...]

Each program ``NAME`` gives ``ef_NAME.pb`` and ``ef_NAME.npz``: ``feeds`` and ``fetches``
(tensor names), the inputs ``in0``, ... and eagerflow's outputs ``out0``, ...; for each
variable the graph reads (a resource placeholder), ``resources`` names the placeholder,
``var_before<i>`` its value before the call and ``var_after<i>`` after it.
"""
import os
import sys

import numpy as np

import eagerflow as tf
from tests.internals import graph_def as _graph_def

HERE = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(21)


def _weights(*shape):
    return tf.Variable(rng.normal(0, 0.5, shape).astype(np.float32))


def save(name, fn, specs, inputs):
    if ONLY and name not in ONLY:
        return
    concrete = fn.get_concrete_function(*specs)
    variables = {}
    gd = _graph_def.graph_to_graph_def(concrete.graph, variables=variables)
    resources = sorted(variables)
    before = [variables[r].numpy() for r in resources]
    outputs = concrete(*[tf.constant(a) for a in inputs])
    outputs = outputs if isinstance(outputs, (list, tuple)) else [outputs]
    with open(os.path.join(HERE, f"ef_{name}.pb"), "wb") as f:
        f.write(gd.SerializeToString(deterministic=True))
    np.savez(os.path.join(HERE, f"ef_{name}.npz"),
             feeds=np.array([t.name for t in concrete.inputs[:len(specs)]]),
             fetches=np.array([t.name for t in concrete.outputs]),
             resources=np.array(resources, dtype=str),
             **{f"in{i}": a for i, a in enumerate(inputs)},
             **{f"out{i}": np.asarray(o) for i, o in enumerate(outputs)},
             **{f"var_before{i}": v for i, v in enumerate(before)},
             **{f"var_after{i}": variables[r].numpy() for i, r in enumerate(resources)})
    print(name, sorted({n.op for n in gd.node}))


w1, b1, w2, b2 = _weights(4, 8), _weights(8), _weights(8, 3), _weights(3)


@tf.function
def mlp(x):
    h = tf.nn.relu(tf.nn.bias_add(tf.matmul(x, w1), b1))
    return tf.nn.softmax(tf.matmul(h, w2) + b2)


@tf.function
def mlp_train_step(x, y):
    """One SGD step: the loss and accuracy before it; the variables are updated."""
    with tf.GradientTape() as tape:
        h = tf.nn.relu(tf.nn.bias_add(tf.matmul(x, w1), b1))
        logits = tf.matmul(h, w2) + b2
        loss = tf.reduce_mean(
            tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
    grads = tape.gradient(loss, [w1, b1, w2, b2])
    for v, g in zip([w1, b1, w2, b2], grads):
        v.assign_sub(0.1 * g)
    accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(logits, 1, output_type=tf.int32), y),
                                      tf.float32))
    return loss, accuracy


k1, k2 = tf.constant(rng.normal(0, 0.5, (3, 3, 1, 4)).astype(np.float32)), \
    tf.constant(rng.normal(0, 0.5, (3, 3, 4, 6)).astype(np.float32))
dense = tf.constant(rng.normal(0, 0.5, (6 * 2 * 2, 5)).astype(np.float32))


@tf.function
def convnet(images):
    x = tf.nn.relu(tf.nn.conv2d(images, k1, 1, "SAME"))
    x = tf.nn.max_pool2d(x, 2, 2, "VALID")
    x = tf.nn.relu(tf.nn.conv2d(x, k2, 1, "SAME"))
    x = tf.nn.avg_pool2d(x, 2, 2, "VALID")
    x = tf.reshape(x, [-1, 6 * 2 * 2])
    return tf.nn.log_softmax(tf.matmul(x, dense))


@tf.function
def tensors(x, s):
    """Strings, shapes, slices, reductions over unknown dims, empty constants."""
    words = tf.strings.join([s, tf.constant(["!", "?"])])
    return (words, tf.shape(x), x[1:, ::2], tf.reduce_sum(x, axis=[0, 1], keepdims=True),
            tf.concat([x, tf.transpose(x)[:0, :] * 0.0 + 1.0], 0), tf.zeros([0, 2]),
            tf.expand_dims(tf.reduce_max(x, 1), -1), tf.cast(x > 0.0, tf.int64))


def save_function_call(name, fn, specs, inputs):
    """A GraphDef calling `fn`'s body, written as a `FunctionDef` of the library, through
    TF's PartitionedCall (checks the FunctionDef writer against TF)."""
    if ONLY and name not in ONLY:
        return
    concrete = fn.get_concrete_function(*specs)
    library = _graph_def.Library()
    _graph_def.function_def(concrete.graph, f"{name}_body", library)
    functions = library.functions
    gd = tf.compat.v1.GraphDef(versions={"producer": _graph_def.PRODUCER})
    gd.library.function.extend(functions.values())
    feeds = []
    for i, spec in enumerate(specs):
        node = gd.node.add(name=f"arg{i}", op="Placeholder")
        node.attr["dtype"].CopyFrom(_graph_def.attr_value(spec.dtype))
        feeds.append(f"arg{i}:0")
    call = gd.node.add(name="call", op="PartitionedCall", input=[f[:-2] for f in feeds])
    call.attr["Tin"].CopyFrom(_graph_def.attr_value(tuple(s.dtype for s in specs)))
    call.attr["Tout"].CopyFrom(_graph_def.attr_value(tuple(t.dtype for t in concrete.outputs)))
    call.attr["f"].func.name = f"{name}_body"
    outputs = concrete(*[tf.constant(a) for a in inputs])
    with open(os.path.join(HERE, f"ef_{name}.pb"), "wb") as f:
        f.write(gd.SerializeToString(deterministic=True))
    np.savez(os.path.join(HERE, f"ef_{name}.npz"), feeds=np.array(feeds),
             fetches=np.array([f"call:{i}" for i in range(len(outputs))]),
             resources=np.array([], dtype=str), **{f"in{i}": a for i, a in enumerate(inputs)},
             **{f"out{i}": np.asarray(o) for i, o in enumerate(outputs)})
    print(name, sorted({n.op for n in functions[f"{name}_body"].node_def}))


@tf.function
def body(x, y):
    s = tf.reduce_sum(tf.nn.softmax(x), axis=1)
    values, _ = tf.math.top_k(x, 2)
    return (s * 2.0 + tf.cast(tf.shape(x)[0], tf.float32), values, tf.concat([x, y], 0),
            tf.nn.relu(tf.matmul(x, y, transpose_b=True)))


def keras_cnn():
    """eagerflow's Keras model in inference mode (its weights are variables)."""
    tf.random.set_seed(21)
    model = tf.keras.Sequential([
        tf.keras.layers.Conv2D(4, 3, padding="same", input_shape=(8, 8, 3)),
        tf.keras.layers.BatchNormalization(), tf.keras.layers.ReLU(),
        tf.keras.layers.DepthwiseConv2D(3, padding="same"),
        tf.keras.layers.MaxPooling2D(), tf.keras.layers.Dropout(0.3),
        tf.keras.layers.GlobalAveragePooling2D(), tf.keras.layers.Dense(5, activation="tanh"),
        tf.keras.layers.LayerNormalization(), tf.keras.layers.Dense(3, activation="softmax")])
    return tf.function(lambda images: model(images, training=False))


@tf.custom_gradient
def _clipped_square(x):
    def grad(dy):
        return tf.clip_by_value(dy * 2.0 * x, -1.0, 1.0)
    return x * x, grad


@tf.function
def inner(x):
    return tf.nn.relu(x) * 3.0


@tf.function
def control_flow(x, n):
    """cond, while_loop with a TensorArray, switch_case, a nested function call and a custom
    gradient: control flow and calls as ops naming functions of the library."""
    y = tf.cond(tf.reduce_sum(x) > 0.0, lambda: x * 2.0, lambda: tf.reverse(x, [0]) - 1.0)
    squares = tf.TensorArray(tf.float32, size=0, dynamic_size=True)

    def body(i, total, arr):
        return i + 1, total + tf.reduce_sum(y) * tf.cast(i, tf.float32), arr.write(i, y * 1.5)

    _, total, squares = tf.while_loop(lambda i, *_: i < n, body, (0, 0.0, squares))
    picked = tf.switch_case(n % 3, [lambda: x, lambda: x * 10.0, lambda: -x])
    return y, total, squares.stack(), picked, inner(x - 0.5), _clipped_square(x)


def keras_attention():
    """Embedding, causal Conv1D with gelu, multi-head attention (einsum), layer norm, pooling."""
    tf.random.set_seed(5)
    tokens = tf.keras.Input((6,), dtype=tf.int32)
    x = tf.keras.layers.Embedding(20, 8)(tokens)
    x = tf.keras.layers.Conv1D(8, 3, padding="causal", activation="gelu")(x)
    x = tf.keras.layers.LayerNormalization()(tf.keras.layers.MultiHeadAttention(2, 4)(x, x) + x)
    pooled = tf.keras.layers.Concatenate()([tf.keras.layers.GlobalAveragePooling1D()(x),
                                            tf.keras.layers.GlobalMaxPooling1D()(x)])
    model = tf.keras.Model(tokens, tf.keras.layers.Dense(3, activation="softmax")(pooled))
    return tf.function(lambda tokens: model(tokens, training=False))


def keras_train_step(x, y):
    """One Adam step of a Keras model (fused ResourceApplyAdam updates of its variables)."""
    tf.random.set_seed(23)
    model = tf.keras.Sequential([tf.keras.layers.Dense(8, activation="relu", input_shape=(4,)),
                                 tf.keras.layers.Dense(3)])
    optimizer = tf.keras.optimizers.Adam(0.01)
    loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    model.compile(optimizer=optimizer, loss=loss_fn)
    model.train_on_batch(x, y)  # (makes the optimizer's slots)

    @tf.function
    def step(x, y):
        with tf.GradientTape() as tape:
            loss = loss_fn(y, model(x, training=True))
        variables = model.trainable_variables
        optimizer.apply_gradients(zip(tape.gradient(loss, variables), variables))
        return loss
    return step


def _recurrent_model():
    """LSTM and GRU layers over sequences of 3 features, run as fused ops (`_FusedRNN`)."""
    tf.random.set_seed(31)
    return tf.keras.Sequential([
        tf.keras.layers.LSTM(4, return_sequences=True, input_shape=(None, 3)),
        tf.keras.layers.GRU(3), tf.keras.layers.Dense(2)])


def keras_rnn():
    """A model of fused recurrent layers in inference mode: each written as its steps."""
    model = _recurrent_model()
    return tf.function(lambda x: model(x, training=False))


def keras_rnn_train_step():
    """One SGD step of the recurrent model: the fused layers' gradient op written as steps
    (or, for a sequence of unknown length, as reverse mode through a While loop of them)."""
    model = _recurrent_model()
    optimizer = tf.keras.optimizers.SGD(0.1)
    loss_fn = tf.keras.losses.MeanSquaredError()

    @tf.function
    def step(x, y):
        with tf.GradientTape() as tape:
            loss = loss_fn(y, model(x, training=True))
        variables = model.trainable_variables
        grads = tape.gradient(loss, variables)
        optimizer.apply_gradients(zip(grads, variables))
        return loss, grads[0], grads[3]
    return step


@tf.function
def limited_loops(x, n):
    """A while_loop with maximum_iterations capturing an outer tensor, and an AutoGraph loop
    over tf.range (traced to a While limited to the range's length)."""
    scale = x * 0.5
    i, y = tf.while_loop(lambda i, y: i < 100, lambda i, y: (i + 1, y * 2.0 + scale), (0, x),
                         maximum_iterations=n)
    total = tf.zeros_like(x)
    for k in tf.range(n + 2):
        total += tf.cast(k, tf.float32) * x
    return i, y, total


counter, acc = tf.Variable(1.0), tf.Variable([0.0, 0.0])


@tf.function
def variable_bodies(x, n):
    """A loop body and branches reading and updating captured variables (their handles
    are arguments of the bodies)."""
    def body(i, s):
        acc.assign_add(s)
        return i + 1, s * counter

    _, s = tf.while_loop(lambda i, s: i < n, body, (0, x))
    y = tf.cond(n > 2, lambda: counter.assign_add(1.0) * x, lambda: x - counter)
    return s, y, acc.read_value()


steps = tf.Variable(0.0)


@tf.function
def _scaled(x, w):
    steps.assign_add(1.0)  # stateful: a StatefulPartitionedCall
    return tf.matmul(x, w) * steps


@tf.function
def _squashed(x):
    return tf.tanh(x) * 2.0  # pure: a PartitionedCall


@tf.function
def nested_calls(x):
    """Calls of other functions as call ops naming their bodies (one reading and updating a
    variable, one called twice, one inside another) and, under a tape, TF's forward and
    backward functions."""
    w = tf.ones([3, 2]) * 0.5
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = _squashed(_scaled(x, w))
    return y, tape.gradient(y, x), _squashed(x) + _squashed(-x), steps.read_value()


@tf.function
def counts_and_draws(x, idx, s, logits):
    """DynamicStitch, DenseBincount, StringSplitV2 and the stateless multinomial, binomial,
    Poisson and gamma draws."""
    seed = tf.constant([7, 3], tf.int64)
    values = tf.strings.split(s, sep=",")
    gamma = tf.random.stateless_gamma([4], seed, 2.0)
    return (tf.dynamic_stitch([idx, tf.constant([1, 3])], [x[:2], x[2:]]), values, gamma,
            tf.math.bincount(idx, minlength=4),
            tf.math.bincount(tf.reshape(idx, [1, 2]), axis=-1, binary_output=True),
            tf.math.bincount(idx, weights=x[:2], maxlength=2),
            tf.random.stateless_categorical(logits, 5, seed),
            tf.random.stateless_binomial([4], seed, 10.0, 0.3),
            tf.random.stateless_poisson([4], seed, 3.0))


w_loop, b_loop, steps = _weights(3, 3), _weights(3), tf.Variable(0.0)


@tf.function
def loop_train_step(x, n):
    """A training step whose loss comes out of a loop a tape records, the loop body counting
    its iterations in a variable and scaling by the count it reads: the forward loop
    accumulates each iteration's values (and reads) in lists for the gradient loop, as TF's
    do. A cond updating the count under the tape too."""
    with tf.GradientTape() as tape:
        h = x
        for _ in tf.range(n):
            steps.assign_add(1.0)
            h = tf.tanh(tf.matmul(h, w_loop) + b_loop * steps)
        h = tf.cond(tf.reduce_sum(h) > 0, lambda: h * steps.assign_add(0.5), lambda: h - b_loop)
        loss = tf.reduce_mean(h * h)
    grads = tape.gradient(loss, [w_loop, b_loop])
    for v, g in zip([w_loop, b_loop], grads):
        v.assign_sub(0.1 * g)
    return loss, grads[0], grads[1]


@tf.function
def nested_loop_gradients(x, n):
    """The gradient, taken inside the function, of nested loops whose inner body counts in
    a variable and scales by the count it reads: the outer loop accumulates the inner
    loop's lists too."""
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x
        for _ in tf.range(n):
            for _ in tf.range(2):
                steps.assign_add(0.5)
                y = tf.sin(y) * steps
    return y, tape.gradient(y, x)


@tf.function
def ragged(values, splits):
    """Ragged ops on a ragged tensor built from its components: row reductions, padding,
    gathers (their row positions are TF's UpperBound searches of matrices) and repeat."""
    rt = tf.RaggedTensor.from_row_splits(values, splits)
    total = tf.reduce_sum(rt, axis=1)
    padded = (rt * 2.0 + 1.0).to_tensor(default_value=-1.0)
    rows = tf.gather(rt, [2, 0]).flat_values
    picked = tf.gather_nd(rt, [[2, 1], [0, 0]])
    repeated = tf.repeat(total, tf.cast(rt.row_lengths(), tf.int32))
    return (total, tf.reduce_mean(rt, axis=1), padded, rows, picked, rt.value_rowids(),
            repeated)


@tf.function
def decoders(x, n, labels):
    """CTCGreedyDecoder, CTCBeamSearchDecoder (two paths), EditDistance and the expected
    counts of UniformCandidateSampler (its draws are random)."""
    (greedy,), greedy_p = tf.nn.ctc_greedy_decoder(x, n)
    beams, beam_p = tf.nn.ctc_beam_search_decoder(x, n, beam_width=4, top_paths=2)
    truth = tf.sparse.from_dense(tf.cast(labels, tf.int64))
    sampled = tf.random.uniform_candidate_sampler(tf.cast(labels, tf.int64), 2, 3, False, 10)
    return (greedy.indices, greedy.values, greedy.dense_shape, greedy_p,
            *[tf.sparse.to_dense(b, default_value=-1) for b in beams], beam_p,
            tf.edit_distance(greedy, truth),
            tf.edit_distance(beams[1], truth, normalize=False),
            sampled.true_expected_count, sampled.sampled_expected_count)


if __name__ == "__main__":
    ONLY = set(sys.argv[1:])  # the programs to write (all by default)
    x = rng.normal(size=(5, 4)).astype(np.float32)
    y = rng.integers(0, 3, 5).astype(np.int32)
    save("mlp", mlp, [tf.TensorSpec([None, 4], tf.float32)], [x])
    save("mlp_train_step", mlp_train_step,
         [tf.TensorSpec([None, 4], tf.float32), tf.TensorSpec([None], tf.int32)], [x, y])
    save("convnet", convnet, [tf.TensorSpec([None, 8, 8, 1], tf.float32)],
         [rng.normal(size=(2, 8, 8, 1)).astype(np.float32)])
    save("tensors", tensors, [tf.TensorSpec([None, None], tf.float32),
                              tf.TensorSpec([2], tf.string)],
         [rng.normal(size=(4, 4)).astype(np.float32), np.array([b"a", b"bc"], object)])
    save("keras_cnn", keras_cnn(), [tf.TensorSpec([None, 8, 8, 3], tf.float32)],
         [rng.random((2, 8, 8, 3)).astype(np.float32)])
    save("keras_attention", keras_attention(), [tf.TensorSpec([None, 6], tf.int32)],
         [rng.integers(0, 20, (2, 6)).astype(np.int32)])
    x = rng.random((6, 4)).astype(np.float32)
    y = rng.integers(0, 3, 6).astype(np.int32)
    save("keras_train_step", keras_train_step(x, y),
         [tf.TensorSpec([None, 4]), tf.TensorSpec([None], tf.int32)], [x, y])
    save("control_flow", control_flow,
         [tf.TensorSpec([None], tf.float32), tf.TensorSpec([], tf.int32)],
         [rng.normal(size=4).astype(np.float32), np.array(4, np.int32)])
    save_function_call("function_call", body, [tf.TensorSpec([None, 3], tf.float32)] * 2,
                       [rng.normal(size=(4, 3)).astype(np.float32)] * 2)
    save("limited_loops", limited_loops,
         [tf.TensorSpec([None], tf.float32), tf.TensorSpec([], tf.int32)],
         [rng.normal(size=3).astype(np.float32), np.array(3, np.int32)])
    save("variable_bodies", variable_bodies,
         [tf.TensorSpec([2], tf.float32), tf.TensorSpec([], tf.int32)],
         [np.array([1.0, -2.0], np.float32), np.array(3, np.int32)])
    save("nested_calls", nested_calls, [tf.TensorSpec([None, 3], tf.float32)],
         [rng.normal(size=(2, 3)).astype(np.float32)])
    save("counts_and_draws", counts_and_draws,
         [tf.TensorSpec([4], tf.float32), tf.TensorSpec([2], tf.int32),
          tf.TensorSpec([], tf.string), tf.TensorSpec([2, 3], tf.float32)],
         [rng.normal(size=4).astype(np.float32), np.array([2, 0], np.int32),
          np.array(b"a,b,,c", object), rng.normal(size=(2, 3)).astype(np.float32)])
    save("loop_train_step", loop_train_step,
         [tf.TensorSpec([None, 3], tf.float32), tf.TensorSpec([], tf.int32)],
         [rng.normal(size=(4, 3)).astype(np.float32), np.array(3, np.int32)])
    sequences = rng.normal(size=(3, 5, 3)).astype(np.float32)
    save("keras_rnn", keras_rnn(), [tf.TensorSpec([None, 5, 3], tf.float32)], [sequences])
    save("keras_rnn_train_step", keras_rnn_train_step(),
         [tf.TensorSpec([None, 5, 3], tf.float32), tf.TensorSpec([None, 2], tf.float32)],
         [sequences, rng.normal(size=(3, 2)).astype(np.float32)])
    save("keras_rnn_any_length", keras_rnn_train_step(),
         [tf.TensorSpec([None, None, 3], tf.float32), tf.TensorSpec([None, 2], tf.float32)],
         [sequences, rng.normal(size=(3, 2)).astype(np.float32)])
    save("nested_loop_gradients", nested_loop_gradients,
         [tf.TensorSpec([None], tf.float32), tf.TensorSpec([], tf.int32)],
         [rng.normal(size=3).astype(np.float32), np.array(2, np.int32)])
    save("ragged", ragged, [tf.TensorSpec([None], tf.float32), tf.TensorSpec([None], tf.int64)],
         [np.array([1.0, 2.0, 3.0, 4.0, 5.0], np.float32), np.array([0, 2, 2, 5], np.int64)])
    save("decoders", decoders,
         [tf.TensorSpec([None, None, 4], tf.float32), tf.TensorSpec([None], tf.int32),
          tf.TensorSpec([None, 2], tf.int32)],
         [rng.normal(size=(5, 2, 4)).astype(np.float32), np.array([5, 3], np.int32),
          np.array([[1, 2], [0, 0]], np.int32)])

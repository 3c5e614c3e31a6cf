"""Writes the GraphDefs real TensorFlow makes for small programs, with their inputs and
TF's outputs, as test data for `tests/graph/test_graph_def.py` (which needs no TF).

Run with TensorFlow's Python from the repository root:

    python tests/graph/graphdef_data/make_tf_graphs.py [NAME ...]

Each program ``NAME`` gives ``tf_NAME.pb`` (a GraphDef: variables frozen into constants,
as TF's documented way to ship an inference graph) and ``tf_NAME.npz``: the inputs
``in0``, ``in1``, ... fed to the tensors named by ``feeds``, and TF's outputs ``out0``,
... of the tensors named by ``fetches``.
"""
import os
import sys

os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")  # tf.keras is tf_keras (Keras 2)

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
from tensorflow.python.framework.convert_to_constants import (  # noqa: E402
    convert_variables_to_constants_v2)

HERE = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(19)


def _weights(*shape):
    return tf.Variable(rng.normal(0, 0.5, shape).astype(np.float32))


def save(name, fn, specs, inputs, freeze=True, grads=False):
    """`fn`'s graph (frozen: TF's conversion lowers control flow to TF 1's dataflow ops, so
    a function without variables is written as traced). With `grads`, the npz also holds
    ``grad<i>``: TF's gradient of the sum of the outputs for input `i`, taken through the
    written graph imported and pruned."""
    if ONLY and name not in ONLY:
        return
    concrete = fn.get_concrete_function(*specs)
    frozen = convert_variables_to_constants_v2(concrete) if freeze else concrete
    gd = frozen.graph.as_graph_def()
    feeds = [t.name for t in frozen.inputs]
    fetches = [t.name for t in frozen.outputs]
    outputs = frozen(*[tf.constant(a) for a in inputs])
    outputs = outputs if isinstance(outputs, (list, tuple)) else [outputs]
    with open(os.path.join(HERE, f"tf_{name}.pb"), "wb") as f:
        f.write(gd.SerializeToString(deterministic=True))
    np.savez(os.path.join(HERE, f"tf_{name}.npz"), feeds=np.array(feeds),
             fetches=np.array(fetches), **{f"in{i}": a for i, a in enumerate(inputs)},
             **{f"out{i}": o.numpy() for i, o in enumerate(outputs)},
             **(_gradients(gd, feeds, fetches, inputs) if grads else {}))
    print(name, sorted({n.op for n in gd.node}))


def _gradients(gd, feeds, fetches, inputs):
    pruned = tf.compat.v1.wrap_function(
        lambda: tf.compat.v1.import_graph_def(gd, name=""), []).prune(feeds, fetches)
    xs = [tf.constant(a) for a in inputs]
    with tf.GradientTape() as tape:
        tape.watch(xs)
        total = tf.add_n([tf.reduce_sum(o) for o in tf.nest.flatten(pruned(*xs))])
    return {f"grad{i}": g.numpy() for i, g in enumerate(tape.gradient(total, xs))}


w1, b1, w2, b2 = _weights(4, 8), _weights(8), _weights(8, 3), _weights(3)


@tf.function
def mlp(x):
    h = tf.nn.relu(tf.nn.bias_add(tf.matmul(x, w1), b1))
    return tf.nn.softmax(tf.matmul(h, w2) + b2)


@tf.function
def mlp_train_step(x, y):
    """The loss, the gradients and the weights after one SGD step (not assigned: frozen)."""
    with tf.GradientTape() as tape:
        h = tf.nn.relu(tf.nn.bias_add(tf.matmul(x, w1), b1))
        logits = tf.matmul(h, w2) + b2
        loss = tf.reduce_mean(
            tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
    grads = tape.gradient(loss, [w1, b1, w2, b2])
    new = [v - 0.1 * g for v, g in zip([w1, b1, w2, b2], grads)]
    accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(logits, 1, output_type=tf.int32), y),
                                      tf.float32))
    return loss, accuracy, *grads, *new


k1, k2, dense = _weights(3, 3, 1, 4), _weights(3, 3, 4, 6), _weights(6 * 2 * 2, 5)


@tf.function
def convnet(images):
    x = tf.nn.relu(tf.nn.conv2d(images, k1, 1, "SAME"))
    x = tf.nn.max_pool2d(x, 2, 2, "VALID")
    x = tf.nn.relu(tf.nn.conv2d(x, k2, 1, "SAME"))
    x = tf.nn.avg_pool2d(x, 2, 2, "VALID")
    x = tf.reshape(x, [-1, 6 * 2 * 2])
    return tf.nn.log_softmax(tf.matmul(x, dense))


v, c = _weights(3, 2), _weights(2)


@tf.function
def dynamic_step(x, y):
    """Shapes known only at run time: TF's gradients compute their broadcasts
    (BroadcastGradientArgs), argsort takes its k from a shape."""
    with tf.GradientTape() as tape:
        h = tf.matmul(x, v) + c
        z = tf.reshape(h, [tf.shape(h)[0], -1]) * y
        loss = tf.reduce_mean(tf.square(z - 1.0)) + tf.reduce_sum(tf.gather(h, [0], axis=0))
    grads = tape.gradient(loss, [v, c, x])
    s = tf.stack([tf.reduce_max(h, axis=-1), tf.reduce_min(h, axis=-1)], axis=1)
    return (loss, *grads, s, tf.argsort(h, axis=-1), tf.clip_by_value(h, -0.5, 0.5),
            tf.where(h > 0, h, 0.0), tf.one_hot(tf.cast(y[:, 0] * 3, tf.int32), 3))


@tf.function
def many_ops(x, i, s):
    """Array, math, linalg, string, reduction and activation ops as TF 2.21 writes them."""
    square = tf.matmul(x, x, transpose_b=True) + tf.eye(3)
    return [
        tf.linalg.trace(x), tf.linalg.diag_part(x), tf.linalg.diag(tf.linalg.diag_part(x)),
        tf.linalg.band_part(x, 0, -1), tf.linalg.set_diag(x, tf.ones([2, 3])),
        tf.math.cumsum(x, axis=1), tf.math.cumprod(x, axis=2, exclusive=True),
        tf.math.unsorted_segment_sum(x, [0, 1], 3), tf.math.segment_max(x, [0, 0]),
        tf.gather_nd(x, [[0, 1], [1, 2]]), tf.scatter_nd([[1], [0]], tf.ones([2, 3]), [3, 3]),
        tf.math.top_k(tf.reshape(x, [2, 9]), 3).values, tf.one_hot(i, 4), tf.reverse(x, [1]),
        tf.roll(x, 1, axis=2), tf.tile(x, [1, 2, 1]),
        tf.pad(x, [[0, 0], [1, 1], [0, 2]], constant_values=2.0),
        tf.pad(x, [[0, 0], [1, 1], [0, 1]], mode="REFLECT"), tf.concat([x, x], -1),
        tf.stack([x, x], 1), tf.unstack(x, axis=1)[0], tf.split(x, 3, axis=2)[1],
        tf.split(x, [1, 2], 1)[1], tf.squeeze(tf.expand_dims(x, 0), 0),
        tf.transpose(x, [2, 0, 1]), tf.slice(x, [0, 1, 0], [1, 2, 3]),
        tf.strided_slice(x, [0, 0, 0], [2, 3, 3], [1, 2, 1]), x[:, ::-1, 1:], tf.where(x > 0.5),
        tf.math.argmax(x, 2), tf.math.argmin(x, 1, output_type=tf.int32),
        tf.reduce_prod(x, [1, 2]), tf.reduce_any(x > 0.9), tf.reduce_all(x > 0.0, 1, keepdims=True),
        tf.math.reduce_std(x), tf.math.reduce_logsumexp(x, 1), tf.nn.l2_normalize(x, -1),
        tf.clip_by_norm(x, 1.0), tf.sort(x, axis=-1), tf.argsort(x, direction="DESCENDING"),
        tf.math.floordiv(i, 2), tf.math.floormod(i, 3), tf.math.squared_difference(x, 0.5),
        tf.math.xlogy(x, x), tf.math.log1p(x), tf.math.erf(x), tf.math.lgamma(x + 1.0),
        tf.math.atan2(x, x + 1.0), tf.cast(x * 10, tf.int64) // 3, tf.math.rint(x * 3),
        tf.math.sign(x - 0.5), tf.strings.join([s, s], separator="-"), tf.strings.length(s),
        tf.strings.upper(s), tf.strings.regex_replace(s, "a", "b"), tf.strings.as_string(i),
        tf.strings.to_number(tf.strings.as_string(i)), tf.math.reduce_euclidean_norm(x, 1),
        tf.linalg.matmul(x, x, adjoint_b=True), tf.einsum("bij,bjk->bik", x, x),
        tf.linalg.inv(x + 3 * tf.eye(3)), tf.linalg.det(x + tf.eye(3)), tf.linalg.cholesky(square),
        tf.nn.sigmoid(x), tf.nn.softplus(x), tf.nn.elu(x), tf.nn.selu(x), tf.nn.leaky_relu(x),
        tf.nn.relu6(x), tf.nn.gelu(x), tf.math.is_nan(x), tf.math.maximum(x, 0.3),
        tf.fill([2, 2], 3.0), tf.zeros_like(x), tf.ones_like(i), tf.range(0, 10, 3),
        tf.linspace(0.0, 1.0, 5), tf.broadcast_to(i, [2, 3]), tf.size(x), tf.rank(x),
        tf.shape_n([x, x])[1], tf.math.in_top_k(tf.constant([0, 1]), tf.reshape(x, [2, 9]), 2),
    ]


@tf.function
def control_flow(x, n):
    """cond, while_loop over a TensorArray and switch_case: If, While and Case ops naming
    functions of the GraphDef's library."""
    y = tf.cond(tf.reduce_sum(x) > 0.0, lambda: x * 2.0, lambda: tf.reverse(x, [0]) - 1.0)
    squares = tf.TensorArray(tf.float32, size=0, dynamic_size=True)

    def body(i, total, arr):
        return i + 1, total + tf.reduce_sum(y) * tf.cast(i, tf.float32), arr.write(i, y * 1.5)

    _, total, squares = tf.while_loop(lambda i, *_: i < n, body, (0, 0.0, squares))
    picked = tf.switch_case(n % 3, [lambda: x, lambda: x * 10.0, lambda: -x])
    return y, total, squares.stack(), picked


@tf.function
def _inner(x):
    return tf.nn.relu(x) * 3.0


@tf.function
def nested_call(x):
    """A function calling another: a PartitionedCall naming the inner one's FunctionDef."""
    return _inner(x - 0.5) + 1.0


def keras_cnn():
    """A Keras model in inference mode: batch norm, depthwise conv, layer norm, dropout."""
    tf.random.set_seed(19)
    model = tf.keras.Sequential([
        tf.keras.layers.Conv2D(4, 3, padding="same", input_shape=(8, 8, 3)),
        tf.keras.layers.BatchNormalization(), tf.keras.layers.ReLU(),
        tf.keras.layers.DepthwiseConv2D(3, padding="same"),
        tf.keras.layers.MaxPooling2D(), tf.keras.layers.Dropout(0.3),
        tf.keras.layers.GlobalAveragePooling2D(), tf.keras.layers.Dense(5, activation="tanh"),
        tf.keras.layers.LayerNormalization(), tf.keras.layers.Dense(3, activation="softmax")])
    return tf.function(lambda images: model(images, training=False))


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


@tf.function
def _scaled(x, w):
    return tf.tanh(tf.matmul(x, w)), tf.reduce_sum(x)


@tf.function
def call_chain(x, w):
    """Two calls, one with several outputs, to differentiate through. (TF 2.21 cannot
    differentiate an imported call whose body calls another: its SymbolicGradient finds
    no gradient for the inner PartitionedCall.)"""
    a, s = _scaled(x * 2.0, w)
    return tf.reduce_sum(a * a, axis=1) * s, _inner(w) + tf.reduce_mean(x)


def save_with_variables(name, fn, specs, inputs, grads=False):
    """As `save` (not frozen) for a function updating variables: ``resources`` names the
    resource placeholders of the variables it captured, ``var_before<i>`` and
    ``var_after<i>`` their values before and after the call. With `grads`, the npz also holds
    TF's gradients of the sum of the outputs of the function (not of the written graph,
    which TF cannot differentiate through resource inputs) for input `i` (``grad<i>``) and
    variable `i` (``var_grad<i>``)."""
    if ONLY and name not in ONLY:
        return
    concrete = fn.get_concrete_function(*specs)
    gd = concrete.graph.as_graph_def()
    captured = [(outer, inner) for outer, inner in concrete.graph.captures
                if inner.dtype == tf.resource]
    by_handle = {id(v.handle): v for v in concrete.graph.variables}
    variables = [by_handle[id(outer)] for outer, _ in captured]
    before = [v.numpy() for v in variables]
    fetches = [t.name for t in concrete.outputs]  # (before a gradient adds outputs to it)
    gradients = {}
    if grads:
        xs = [tf.constant(a) for a in inputs]
        with tf.GradientTape() as tape:
            tape.watch(xs)
            total = tf.add_n([tf.reduce_sum(o) for o in tf.nest.flatten(concrete(*xs))])
        found = tape.gradient(total, xs + variables)
        gradients = {f"grad{i}": g.numpy() for i, g in enumerate(found[:len(xs)])}
        gradients.update({f"var_grad{i}": g.numpy() for i, g in enumerate(found[len(xs):])})
        for v, value in zip(variables, before):
            v.assign(value)
    outputs = concrete(*[tf.constant(a) for a in inputs])
    outputs = outputs if isinstance(outputs, (list, tuple)) else [outputs]
    with open(os.path.join(HERE, f"tf_{name}.pb"), "wb") as f:
        f.write(gd.SerializeToString(deterministic=True))
    np.savez(os.path.join(HERE, f"tf_{name}.npz"),
             feeds=np.array([t.name for t in concrete.inputs[:len(specs)]]),
             fetches=np.array(fetches),
             resources=np.array([inner.op.name for _, inner in captured]),
             **{f"in{i}": a for i, a in enumerate(inputs)},
             **{f"out{i}": o.numpy() for i, o in enumerate(outputs)},
             **{f"var_before{i}": v for i, v in enumerate(before)},
             **{f"var_after{i}": v.numpy() for i, v in enumerate(variables)}, **gradients)
    print(name, sorted({n.op for n in gd.node}),
          sorted({n.op for f in gd.library.function for n in f.node_def}))


counter, acc = tf.Variable(1.0), tf.Variable([0.0, 0.0])


@tf.function
def _bump(x):
    counter.assign_add(1.0)
    return x * counter.read_value()


@tf.function
def variable_bodies(x, n):
    """A nested function and a while body reading and updating captured variables (their
    resource handles are arguments of the bodies)."""
    y = _bump(x)

    def body(i, s):
        acc.assign_add(s)
        return i + 1, s * counter

    _, s = tf.while_loop(lambda i, s: i < n, body, (0, y))
    return y, s, acc.read_value()


scale = tf.Variable([0.5, -1.5])


@tf.function
def _weighted(x):
    return tf.sin(x) * scale


@tf.function
def variable_reads(x):
    """A nested function and a loop body reading a captured variable (its handle an argument
    of their bodies), for gradients through the imported bodies."""
    _, s = tf.while_loop(lambda i, s: i < 2, lambda i, s: (i + 1, s * scale), (0, x))
    return _weighted(x) * 2.0 + s


@tf.custom_gradient
def _clipped_square(x):
    def grad(dy):
        return tf.clip_by_value(dy * 2.0 * x, -1.0, 1.0)
    return x * x, grad


@tf.function
def custom_gradient(x):
    """A custom gradient: TF writes an IdentityN whose _gradient_op_type names a gradient
    registered in the writing process only (no function of the library)."""
    return _clipped_square(x) * 3.0


@tf.function
def counts_and_draws(x, idx, s, logits):
    """DynamicStitch, DenseBincount, StringSplitV2 and the stateless multinomial, binomial,
    Poisson and gamma draws."""
    seed = tf.constant([7, 3], tf.int64)
    indices, values, shape = tf.raw_ops.StringSplitV2(input=tf.reshape(s, [1]), sep=",")
    gamma = tf.raw_ops.StatelessRandomGammaV2(shape=[4], seed=seed, alpha=tf.constant(2.0))
    # (tf.random.stateless_gamma writes StatelessRandomGammaV3)
    return (tf.dynamic_stitch([idx, tf.constant([1, 3])], [x[:2], x[2:]]), indices, values, shape, gamma,
            tf.math.bincount(idx, minlength=4),
            tf.math.bincount(tf.reshape(idx, [1, 2]), axis=-1, binary_output=True),
            tf.math.bincount(idx, weights=x[:2], maxlength=2),
            tf.random.stateless_categorical(logits, 5, seed),
            tf.random.stateless_binomial([4], seed, 10.0, 0.3),
            tf.random.stateless_poisson([4], seed, 3.0))


@tf.function
def decoders(x, n, labels):
    """CTCGreedyDecoder, CTCBeamSearchDecoder (two paths), EditDistance and the expected
    counts of UniformCandidateSampler (its draws are random)."""
    (greedy,), greedy_p = tf.nn.ctc_greedy_decoder(x, n)
    beams, beam_p = tf.nn.ctc_beam_search_decoder(x, n, beam_width=4, top_paths=2)
    truth = tf.sparse.from_dense(labels)
    sampled = tf.random.uniform_candidate_sampler(tf.cast(labels, tf.int64), 2, 3, False, 10)
    return (greedy.indices, greedy.values, greedy.dense_shape, greedy_p,
            *[tf.sparse.to_dense(b, default_value=-1) for b in beams], beam_p,
            tf.edit_distance(greedy, tf.cast(truth, tf.int64)),
            tf.edit_distance(beams[1], tf.cast(truth, tf.int64), normalize=False),
            sampled.true_expected_count, sampled.sampled_expected_count)


if __name__ == "__main__":
    ONLY = set(sys.argv[1:])  # the programs to write (all by default)
    x = rng.normal(size=(5, 4)).astype(np.float32)
    y = rng.integers(0, 3, 5).astype(np.int32)
    save("mlp", mlp, [tf.TensorSpec([None, 4], tf.float32, "x")], [x])
    save("mlp_train_step", mlp_train_step,
         [tf.TensorSpec([None, 4], tf.float32, "x"), tf.TensorSpec([None], tf.int32, "y")],
         [x, y])
    save("convnet", convnet, [tf.TensorSpec([None, 8, 8, 1], tf.float32, "images")],
         [rng.normal(size=(2, 8, 8, 1)).astype(np.float32)])
    save("dynamic_step", dynamic_step,
         [tf.TensorSpec([None, 3], tf.float32, "x"), tf.TensorSpec([None, None], tf.float32, "y")],
         [rng.normal(size=(4, 3)).astype(np.float32), rng.random((4, 2)).astype(np.float32)])
    save("keras_cnn", keras_cnn(), [tf.TensorSpec([None, 8, 8, 3], tf.float32, "images")],
         [rng.random((2, 8, 8, 3)).astype(np.float32)])
    save("many_ops", many_ops,
         [tf.TensorSpec([2, 3, 3], tf.float32, "x"), tf.TensorSpec([3], tf.int32, "i"),
          tf.TensorSpec([2], tf.string, "s")],
         [rng.random((2, 3, 3)).astype(np.float32), np.array([0, 2, 1], np.int32),
          np.array([b"abc", b"xa"], object)])
    save("keras_attention", keras_attention(), [tf.TensorSpec([None, 6], tf.int32, "tokens")],
         [rng.integers(0, 20, (2, 6)).astype(np.int32)])
    save("control_flow", control_flow,
         [tf.TensorSpec([None], tf.float32, "x"), tf.TensorSpec([], tf.int32, "n")],
         [rng.normal(size=4).astype(np.float32), np.array(4, np.int32)], freeze=False)
    save("nested_call", nested_call, [tf.TensorSpec([None], tf.float32, "x")],
         [rng.normal(size=5).astype(np.float32)], freeze=False)
    save("limited_loops", limited_loops,
         [tf.TensorSpec([None], tf.float32, "x"), tf.TensorSpec([], tf.int32, "n")],
         [rng.normal(size=3).astype(np.float32), np.array(3, np.int32)], freeze=False)
    save("call_chain", call_chain,
         [tf.TensorSpec([None, 3], tf.float32, "x"), tf.TensorSpec([3, 2], tf.float32, "w")],
         [rng.normal(size=(4, 3)).astype(np.float32), rng.normal(size=(3, 2)).astype(np.float32)],
         freeze=False, grads=True)
    save_with_variables("variable_bodies", variable_bodies,
                        [tf.TensorSpec([2], tf.float32, "x"), tf.TensorSpec([], tf.int32, "n")],
                        [np.array([1.0, -2.0], np.float32), np.array(3, np.int32)])
    save_with_variables("variable_reads", variable_reads, [tf.TensorSpec([2], tf.float32, "x")],
                        [np.array([0.5, 1.5], np.float32)], grads=True)
    save("custom_gradient", custom_gradient, [tf.TensorSpec([None], tf.float32, "x")],
         [np.array([0.1, 2.0], np.float32)], freeze=False)
    save("counts_and_draws", counts_and_draws,
         [tf.TensorSpec([4], tf.float32, "x"), tf.TensorSpec([2], tf.int32, "idx"),
          tf.TensorSpec([], tf.string, "s"), tf.TensorSpec([2, 3], tf.float32, "logits")],
         [rng.normal(size=4).astype(np.float32), np.array([2, 0], np.int32),
          np.array(b"a,b,,c", object), rng.normal(size=(2, 3)).astype(np.float32)])
    save("decoders", decoders,
         [tf.TensorSpec([None, None, 4], tf.float32, "x"), tf.TensorSpec([None], tf.int32, "n"),
          tf.TensorSpec([None, 2], tf.int32, "labels")],
         [rng.normal(size=(5, 2, 4)).astype(np.float32), np.array([5, 3], np.int32),
          np.array([[1, 2], [0, 0]], np.int32)], freeze=False)

import numpy as np
import tensorflow as tf


def show(label, value):
    """Prints values rounded, so that last-digit differences of float math do not matter."""
    if isinstance(value, tf.IndexedSlices):
        print(label, "IndexedSlices", value.indices.numpy().tolist(),
              np.round(value.values.numpy(), 4).tolist())
        return
    value = tf.convert_to_tensor(value)
    array = value.numpy()
    if value.dtype.is_floating:
        array = np.round(array.astype(np.float64), 4)
    print(label, value.dtype.name, value.shape, array.tolist())


nan, inf = np.nan, np.inf

# NaN in segment extremes: the running extreme restarts after a NaN
for values in ([nan, 1.0], [2.0, nan, 1.0], [1.0, nan], [nan, -inf]):
    ids = [0] * len(values)
    show(f"segment_max {values}", tf.math.segment_max(values, ids))
    show(f"segment_min {values}", tf.math.segment_min(values, ids))
    show(f"unsorted_segment_max {values}", tf.math.unsorted_segment_max(values, ids, 2))

# cumulative_logsumexp with NaN and infinities
for values in ([nan, 1.0], [1.0, nan], [2.0, nan, 1.0], [inf, inf], [-inf, -inf, 1.0]):
    show(f"cumulative_logsumexp {values}", tf.math.cumulative_logsumexp(values))
    show(f"  exclusive reverse", tf.math.cumulative_logsumexp(values, exclusive=True,
                                                              reverse=True))
show("cumulative_logsumexp bfloat16",
     tf.math.cumulative_logsumexp(tf.constant([1.0, 2.0, 3.0], tf.bfloat16)))

# half-precision means and integer norms
h = tf.constant([1000.0, 1001.0, 1002.0], tf.float16)
show("float16 mean", tf.reduce_mean(h))
show("float16 variance", tf.math.reduce_variance(h))
show("float16 mean of an overflowing sum", tf.reduce_mean(tf.fill([100], tf.constant(1000.0, tf.float16))))
show("bfloat16 mean", tf.reduce_mean(tf.cast(h, tf.bfloat16)))
for values, dtype in (([3, 4], tf.int32), ([100, 100], tf.int8), ([-3, -4], tf.uint32),
                      ([50000, 50000], tf.int32)):
    show(f"euclidean_norm {values} {dtype.name}",
         tf.math.reduce_euclidean_norm(tf.cast(tf.constant(values, tf.int64), dtype)))

# clipping a sparse gradient (an embedding lookup taking row 0 twice)
table, w = tf.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]), tf.Variable([[1.0, 1.0]])
with tf.GradientTape() as tape:
    loss = tf.reduce_sum(tf.gather(table, [0, 2, 0]) * 3.0) + tf.reduce_sum(w * 10.0)
sparse, dense = tape.gradient(loss, [table, w])
show("global_norm", tf.linalg.global_norm([sparse, dense]))
show("clip_by_norm", tf.clip_by_norm(sparse, 1.0))
clipped, norm = tf.clip_by_global_norm([sparse, dense], 1.0)
show("clip_by_global_norm sparse", clipped[0])
show("clip_by_global_norm dense", clipped[1])
show("clip_by_global_norm norm", norm)
show("clip_by_norm negative clip_norm", tf.clip_by_norm([3.0, 4.0], -1.0))
show("clip_by_norm float64 by a float32 tensor",
     tf.clip_by_norm(tf.constant([3.0, 4.0], tf.float64), tf.constant(1.0)))

# tensor arguments and dimensions known only at run time inside tf.function
x = tf.constant([[1.0, 5.0, 3.0], [4.0, 2.0, 6.0]])


@tf.function(input_signature=[tf.TensorSpec([None, None], tf.float32)])
def unknown_dims(z):
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(z)
        outputs = {
            "sum_rank_axis": tf.reduce_sum(z, axis=tf.rank(z) - 1),
            "max_const_axis": tf.reduce_max(z, axis=tf.constant(-1)),
            "prod": tf.reduce_prod(z, 1),
            "top_k": tf.math.top_k(z, k=tf.shape(z)[1] - 1).values,
            "sort": tf.sort(z, axis=0, direction="DESCENDING"),
            "segment_mean": tf.math.segment_mean(z, [0, 1]),
            "segment_max": tf.math.segment_max(z, [0, 0]),
            "unsorted_segment_sum": tf.math.unsorted_segment_sum(
                z, [1, 0], num_segments=tf.shape(z)[0] + 1),
        }
        losses = {k: tf.reduce_sum(v * v) for k, v in outputs.items()}
    grads = {k: tape.gradient(losses[k], z) for k in outputs}
    return outputs, grads


outputs, grads = unknown_dims(x)
for key in sorted(outputs):
    show(key, outputs[key])
    show(f"  d/dz", grads[key])


@tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32),
                              tf.TensorSpec([None], tf.int32)])
def message_passing(nodes, receivers):
    with tf.GradientTape() as tape:
        tape.watch(nodes)
        messages = tf.gather(nodes, receivers)
        n = tf.shape(nodes)[0]
        total = tf.math.unsorted_segment_sum(messages, receivers, num_segments=n)
        mean = tf.math.unsorted_segment_mean(messages, receivers, n)
        loss = tf.reduce_sum(total * mean)
    print("traced shapes", total.shape, mean.shape)
    return total, mean, tf.convert_to_tensor(tape.gradient(loss, nodes))


for value in message_passing(tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]),
                             tf.constant([0, 2, 2, 0])):
    show("message_passing", value)

"""The summaries of the reference event files: `make_reference.py` writes them with
TensorFlow, the tests with eagerflow (`tf` is either module)."""
import numpy as np


def calls(tf):
    """The summaries written, by kind: the tests run the same function with eagerflow."""
    rng = np.random.RandomState(0)
    data = rng.normal(size=200).astype(np.float32)
    image = (rng.uniform(size=(3, 4, 5, 3)) * 255).astype(np.uint8)
    return {
        "scalars": lambda: [
            tf.summary.scalar("loss", 0.25, step=1),
            tf.summary.scalar("int_value", 7, step=2),
            tf.summary.scalar("f64", np.float64(1.5), step=3, description="a *double*"),
            tf.summary.scalar("var", tf.Variable(2.5), step=tf.constant(4, tf.int64)),
        ],
        "histograms": lambda: [
            tf.summary.histogram("normal", data, step=0),
            tf.summary.histogram("five", data, step=1, buckets=5),
            tf.summary.histogram("ints", tf.constant([1, 2, 2, 3, 9]), step=2),
            tf.summary.histogram("single", [3.0, 3.0, 3.0], step=3, buckets=4),
            tf.summary.histogram("empty", tf.zeros([0]), step=4),
            tf.summary.histogram("zero_buckets", data, step=5, buckets=0),
            tf.summary.histogram("infinite", [1.0, np.inf], step=6, buckets=3),
        ],
        "images": lambda: [
            tf.summary.image("uint8", image, step=0),
            tf.summary.image("three", image, step=1, max_outputs=3),
            tf.summary.image("float", image.astype(np.float32) / 255.0, step=2, max_outputs=2),
            tf.summary.image("gray", image[..., :1], step=3),
        ],
        "text": lambda: [
            tf.summary.text("greeting", "hello *world*", step=0),
            tf.summary.text("table", tf.constant([["a", "b"], ["c", "d"]]), step=1),
        ],
        "audio": lambda: [
            tf.summary.audio("tone", np.sin(np.arange(80, dtype=np.float32) / 3.0)
                             .reshape(1, 80, 1) * 0.5, 8000, step=0),
            tf.summary.audio("stereo", np.linspace(-1, 1, 2 * 2 * 40, dtype=np.float32)
                             .reshape(2, 40, 2), 16000, step=1, max_outputs=2),
        ],
        "write": lambda: [
            tf.summary.write("raw", tf.constant([[1, 2], [3, 4]]), step=0),
            tf.summary.write("with_meta", 3.5, step=1, metadata=tf.compat.v1.SummaryMetadata(
                plugin_data=tf.compat.v1.SummaryMetadata.PluginData(
                    plugin_name="custom", content=b"payload"))),
        ],
        "scopes": lambda: _scopes(tf),
    }


def _scopes(tf):
    with tf.name_scope("outer"):
        a = tf.summary.scalar("x", 1.0, step=0)
    tf.summary.experimental.set_step(5)
    b = tf.summary.scalar("default_step", 2.0)
    with tf.summary.experimental.summary_scope("inner", "fallback") as (tag, scope):
        c = tf.summary.scalar(tag + "_v", 3.0)
    tf.summary.experimental.set_step(None)
    return [a, b, c, tag, scope]


def export_trace(tf, logdir):
    """Traces a small function's graph into `logdir`; `trace_export`'s result (None)."""
    writer = tf.summary.create_file_writer(logdir)

    @tf.function
    def f(x):
        return tf.nn.relu(x * 2.0 + 1.0)

    tf.summary.trace_on(graph=True)
    f(tf.constant([1.0, -2.0]))
    with writer.as_default():
        result = tf.summary.trace_export("f_trace", step=0)
    writer.close()
    return result

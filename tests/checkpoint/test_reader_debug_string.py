"""CheckpointReader.debug_string: one ``key (DT_TYPE) [dims]`` line per tensor, as TF 2.21's
reader printed them for the same checkpoint."""
import eagerflow as tf


def test_debug_string_names_dtypes_and_shapes_as_tf(tmp_path):
    root = tf.Module()
    root.kernel = tf.Variable(tf.zeros([1, 5]))
    root.count = tf.Variable(3, dtype=tf.int64)
    path = tf.train.Checkpoint(net=root).write(str(tmp_path / "ck"))
    text = tf.train.load_checkpoint(path).debug_string().decode()
    assert text == ("_CHECKPOINTABLE_OBJECT_GRAPH (DT_STRING) []\n"
                    "net/count/.ATTRIBUTES/VARIABLE_VALUE (DT_INT64) []\n"
                    "net/kernel/.ATTRIBUTES/VARIABLE_VALUE (DT_FLOAT) [1,5]\n")

# The text of errors raised by eager ops (and by the Python code around them), whole: TF's
# ``{{function_node __wrapped__<kernel>...}}`` prefix, ``[Op:<op>]`` and `` name: <name>``.
import re
import traceback

import numpy as np
import tensorflow as tf


def show(label, fn):
    try:
        fn()
        print(label, "-> no error")
    except Exception as e:  # noqa: BLE001 (the error is what is printed)
        text = re.sub(r'File "[^"]*", line \d+', "File ...", str(e))
        print(f"{label} -> {type(e).__name__}: {text!r}")
        if isinstance(e, tf.errors.OpError):
            last = traceback.format_exception_only(type(e), e)[-1]
            print("   ", e.message == str(e), e.op, e.node_def, e.error_code, repr(e),
                  last.split(": ", 1)[1] == str(e) + "\n")


a = tf.ones([2, 3])
i = tf.constant([1, 2, 3])
show("matmul", lambda: tf.matmul(a, a))
show("matmul of a variable", lambda: tf.matmul(tf.Variable(a), a))
show("matmul of lists", lambda: tf.matmul([[1.0, 2.0]], [[1.0, 2.0]]))
show("matmul dtypes", lambda: tf.matmul(a, tf.ones([3, 2], tf.int32)))
show("matmul float64", lambda: tf.matmul(tf.ones([2, 3], tf.float64), tf.ones([2, 3], tf.float64)))
show("matmul float64 and int8", lambda: tf.matmul(tf.ones([2, 3], tf.float64),
                                                  tf.ones([3, 2], tf.int8)))
show("batch matmul", lambda: tf.matmul(tf.ones([2, 2, 3]), tf.ones([2, 2, 3])))
show("batch matmul transposed", lambda: tf.matmul(tf.ones([2, 3, 2]), tf.ones([2, 2, 3]),
                                                  transpose_a=True))
show("batch matmul int32", lambda: tf.matmul(tf.ones([2, 2, 3], tf.int32),
                                             tf.ones([2, 2, 3], tf.int32)))
show("einsum bfloat16", lambda: tf.einsum("ij,jk->ik", tf.ones([2, 3], tf.bfloat16),
                                          tf.ones([2, 3], tf.bfloat16)))
show("reshape to a list", lambda: tf.reshape(a, [4]))
show("reshape to a tensor", lambda: tf.reshape(a, tf.constant([4])))
show("reshape named", lambda: tf.reshape(a, tf.constant([4]), name="r"))
show("gather", lambda: tf.gather(i, 7))
show("gather a list of indices", lambda: tf.gather(i, [7]))
show("gather named", lambda: tf.gather(i, 7, name="g"))
show("gather_nd", lambda: tf.gather_nd(i, [[7]]))
show("concat", lambda: tf.concat([a, tf.ones([3])], 0))
show("concat of three, named", lambda: tf.concat([a, a, tf.ones([3])], 0, name="cc"))
show("stack", lambda: tf.stack([tf.ones([2]), tf.ones([3])]))
show("unstack", lambda: tf.unstack(a, num=3))
show("split", lambda: tf.split(tf.ones([5]), 2))
show("a + b", lambda: a + tf.ones([4]))
show("add", lambda: tf.add(a, tf.ones([4])))
show("add named", lambda: tf.add(a, tf.ones([4]), name="plus"))
show("divide named", lambda: tf.divide(a, tf.ones([4]), name="d"))
show("a * b", lambda: a * tf.ones([4]))
show("multiply named", lambda: tf.math.multiply(a, tf.ones([4]), name="m"))
show("a / b", lambda: a / tf.ones([4]))
show("a - variable", lambda: a - tf.Variable(tf.ones([4])))
show("add dtypes", lambda: tf.constant(1) + tf.constant(1.0))
show("cast", lambda: tf.cast(tf.constant(["x"]), tf.int32))
show("cast named", lambda: tf.cast(tf.constant([np.nan]), tf.string, name="c"))
show("i // 0", lambda: i // 0)
show("i % 0", lambda: i % 0)
show("check_numerics", lambda: tf.debugging.check_numerics(tf.constant([np.inf]), "bad"))
show("assert_equal", lambda: tf.debugging.assert_equal(tf.constant([1]), tf.constant([2])))
show("Assert", lambda: tf.debugging.Assert(False, ["boom"]))
show("t[5]", lambda: i[5])
show("t[0, 5]", lambda: a[0, 5])
show("variable[5]", lambda: tf.Variable(i)[5])
show("slice", lambda: tf.slice(i, [1], [5]))
show("conv2d", lambda: tf.nn.conv2d(tf.ones([1, 4, 4, 3]), tf.ones([2, 2, 4, 1]), 1, "VALID"))
show("conv2d float64", lambda: tf.nn.conv2d(tf.ones([1, 4, 4, 3], tf.float64),
                                            tf.ones([2, 2, 4, 1], tf.float64), 1, "VALID"))
show("conv2d dtypes", lambda: tf.nn.conv2d(tf.ones([1, 4, 4, 3]), tf.ones([2, 2, 3, 1], tf.float64),
                                           1, "VALID"))
show("transpose", lambda: tf.transpose(a, [0, 2]))
show("tile", lambda: tf.tile(a, [2]))
show("reduce_sum", lambda: tf.reduce_sum(a, 5))
show("reduce_sum of a list of axes", lambda: tf.reduce_sum(a, [5]))
show("reduce_max of a list", lambda: tf.reduce_max([[1.0]], 5))
show("segment_sum", lambda: tf.math.segment_sum(i, [0, 0]))
show("unsorted_segment_sum", lambda: tf.math.unsorted_segment_sum(i, tf.constant([0, 0, 5]), 2))
show("argmax", lambda: tf.argmax(a, 5))
show("squeeze", lambda: tf.squeeze(a, 0))
show("expand_dims", lambda: tf.expand_dims(a, 5))
show("range", lambda: tf.range(1, 5, 0))
show("range named", lambda: tf.range(1, 5, 0, name="r"))
show("fill", lambda: tf.fill([-1], 1))
show("zeros", lambda: tf.zeros([-1]))
show("one_hot", lambda: tf.one_hot(i, -1))
show("random.uniform", lambda: tf.random.uniform([-1]))
show("tensor_scatter_nd_update", lambda: tf.tensor_scatter_nd_update(i, [[5]], [1]))
show("linalg.inv", lambda: tf.linalg.inv(tf.zeros([2, 2])))
show("einsum", lambda: tf.einsum("ij,jk->ik", a, a))
show("broadcast_to", lambda: tf.broadcast_to(a, [4, 4]))
show("sparse_softmax_cross_entropy_with_logits",
     lambda: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[5], logits=[[1.0, 2.0]]))
show("top_k", lambda: tf.math.top_k(i, 5))
show("add_n", lambda: tf.add_n([a, tf.ones([4])]))
show("strings.to_number", lambda: tf.strings.to_number("abc"))
show("strings.to_number of a tensor", lambda: tf.strings.to_number(tf.constant(["abc"])))
show("strings.substr", lambda: tf.strings.substr("abc", 5, 1))
show("strings.substr of numbers", lambda: tf.strings.substr(tf.constant(1), 0, 1))
show("strings.to_hash_bucket_strong", lambda: tf.strings.to_hash_bucket_strong("a", 3, [1]))
show("io.decode_base64", lambda: tf.io.decode_base64("%%%"))
show("io.decode_compressed", lambda: tf.io.decode_compressed(b"garbage", "ZLIB"))
show("io.decode_compressed of a tensor",
     lambda: tf.io.decode_compressed(tf.constant(b"garbage"), "ZLIB"))
show("io.decode_compressed BZIP", lambda: tf.io.decode_compressed(b"x", "BZIP"))
show("sparse.reshape", lambda: tf.sparse.reshape(tf.sparse.SparseTensor([[0]], [1], [4]), [3]))
show("ragged gather", lambda: tf.gather(tf.ragged.constant([[1], [2, 3]]), [5]))
show("image.extract_patches", lambda: tf.image.extract_patches(
    tf.ones([1, 4, 4, 1]), [2, 2, 2, 2], [1, 1, 1, 1], [1, 1, 1, 1], "VALID"))
v = tf.Variable([1.0, 2.0])
show("assign", lambda: v.assign([1.0, 2.0, 3.0]))
show("assign_add", lambda: v.assign_add([1.0, 2.0, 3.0]))
show("scatter_nd_update", lambda: v.scatter_nd_update([[5]], [1.0]))
show("scatter_nd_add", lambda: v.scatter_nd_add([[5]], [1.0]))
show("scatter_nd_sub of tensors", lambda: v.scatter_nd_sub(tf.constant([[5]]), tf.constant([1.0])))
show("scatter_update", lambda: v.scatter_update(tf.IndexedSlices([1.0], [5])))
show("scatter_add", lambda: v.scatter_add(tf.IndexedSlices([1.0], [5])))
show("sparse_read", lambda: v.sparse_read([5]))
show("gather of a variable", lambda: tf.gather(v, 5))


@tf.function
def traced(x):
    return tf.matmul(x, x)


show("tf.function", lambda: traced(tf.ones([2, 3])))


@tf.function(input_signature=[tf.TensorSpec([None])])
def traced_unknown(x):
    return tf.gather(x, 5) + 1.0


try:
    traced_unknown(tf.ones([3]))
except tf.errors.InvalidArgumentError as e:  # (the frames TF lists between are its own)
    lines = re.sub(r"_\d+\]$", "]", str(e)).splitlines()  # (TF numbers its functions)
    print(type(e).__name__, lines[:3], lines[-2:], e.op, e.error_code)

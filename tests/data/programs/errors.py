# Errors of transformations given functions or arguments of the wrong kind.
import re

import numpy as np
import tensorflow as tf

for f in [lambda: tf.data.Dataset.range(4).take_while(lambda x: x),
          lambda: tf.data.Dataset.range(4).filter(lambda x: x),
          lambda: tf.data.Dataset.range(4).scan(np.int64(0), lambda s, x: (tf.cast(s, tf.int32), x)),
          lambda: tf.data.Dataset.range(4).reduce(tf.constant(0, tf.int64),
                                                  lambda s, x: tf.cast(s + x, tf.int32)),
          lambda: tf.data.Dataset.range(4).apply(lambda d: 5),
          lambda: tf.data.Dataset.zip([tf.data.Dataset.range(2)]),
          lambda: tf.data.Dataset.zip((tf.data.Dataset.range(2), 5)),
          lambda: tf.data.Dataset.zip(),
          lambda: tf.data.Dataset.range(),
          lambda: tf.data.Dataset.range(1, 2, 3, 4),
          lambda: tf.data.Dataset.range(3).batch(2).unbatch().batch(0),
          lambda: tf.data.Dataset.range(3).padded_batch(2, padding_values=1.5),
          lambda: tf.data.Dataset.range(3).map(lambda x: tf.fill([x], x)).padded_batch(
              2, padding_values=1.5)]:
    try:
        print("OK", f())
    except Exception as e:
        text = re.sub(r"\{\{function_node [^}]*\}\} ", "", str(e))
        print(type(e).__name__, text.split(" [Op:")[0].replace("\n", " ")[:250])

import tensorflow as tf

s = tf.constant(["Hello", "TensorFlow", ""])
print(tf.strings.length(s))
print(tf.strings.length(tf.constant("héllo")), tf.strings.length(tf.constant("héllo"), unit="UTF8_CHAR"))
print(tf.strings.upper(s), tf.strings.lower(s))
print(tf.strings.join(["a", "b", "c"], separator="-"))
print(tf.strings.join([tf.constant(["x", "y"]), tf.constant(["1", "2"])]))
print(tf.strings.reduce_join(s))
print(tf.strings.reduce_join(tf.constant([["a", "b"], ["c", "d"]]), axis=1, separator=","))
print(tf.strings.substr(tf.constant("abcdef"), 1, 3))
print(tf.strings.substr(tf.constant(["abcdef", "xy"]), 0, 2))
print(tf.strings.strip(tf.constant(["  pad  ", "\tx\n"])))
print(tf.strings.regex_replace(tf.constant("a1b22c333"), r"\d+", "#"))
print(tf.strings.regex_full_match(tf.constant(["abc", "a1"]), r"[a-z]+"))
print(tf.strings.to_number(tf.constant(["1.5", "-2", "3e2"])))
print(tf.strings.to_number(tf.constant(["7", "-8"]), out_type=tf.int32))
print(tf.strings.as_string(tf.constant([1.5, 2.0])))
print(tf.strings.as_string(tf.constant([3, 42])))
print(tf.strings.as_string(tf.constant([True, False])))
print(tf.strings.as_string(tf.constant([3.14159]), precision=2))
print(tf.strings.as_string(tf.constant([5]), width=4, fill="0"))
print(tf.strings.split(tf.constant("a b c")))
print(tf.strings.split(tf.constant("a,b,,c"), sep=","))
print(tf.constant("abc") + tf.constant("def"))
print(tf.constant(["a", "b"]) + "!")
print(tf.strings.length(tf.constant([["ab"], ["cde"]])))

def show(fn):
    try:
        print(fn())
    except Exception as e:
        print(type(e).__name__)

show(lambda: tf.strings.to_number(tf.constant(["abc"])))
show(lambda: tf.strings.upper(tf.constant([1])))
show(lambda: tf.strings.substr(tf.constant("abc"), 5, 1))
show(lambda: tf.strings.length(tf.constant(1.0)))

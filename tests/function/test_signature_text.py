"""Printed signatures of traced functions, in TF's notation (checked against TF 2.21)."""
import re

import eagerflow as tf


def _ids(text):
    return re.sub(r"\d{6,}", "<id>", text)


def test_function_lists_each_trace_in_tf_notation():
    v = tf.Variable(1.0)

    @tf.function
    def f(x, y=2, *args, z=None, **kw):
        return {"a": x * v, "b": (x, x + 1)}

    f(tf.constant(1.0), 3)
    f(tf.constant([1.0, 2.0]), z=tf.constant(1))
    scalar = "TensorSpec(shape=(), dtype=tf.float32, name=None)"
    vector = "TensorSpec(shape=(2,), dtype=tf.float32, name=None)"
    expected = f"""Input Parameters:
  x (POSITIONAL_ONLY): {scalar}
  y (POSITIONAL_ONLY): Literal[3]
  z (KEYWORD_ONLY): Literal[None]
Output Type:
  Dict[['a', {scalar}], ['b', Tuple[{scalar}, {scalar}]]]
Captures:
  <id>: TensorSpec(shape=(), dtype=tf.resource, name=None)

Input Parameters:
  x (POSITIONAL_ONLY): {vector}
  y (POSITIONAL_ONLY): Literal[2]
  z (KEYWORD_ONLY): TensorSpec(shape=(), dtype=tf.int32, name=None)
Output Type:
  Dict[['a', {vector}], ['b', Tuple[{vector}, {vector}]]]
Captures:
  <id>: TensorSpec(shape=(), dtype=tf.resource, name=None)"""
    assert _ids(f.pretty_printed_concrete_signatures()) == expected


def test_unknown_rank_prints_as_unknown_shape():
    f = tf.function(lambda x: x)
    text = str(f.get_concrete_function(tf.TensorSpec(None, tf.int64)))
    assert "x (POSITIONAL_OR_KEYWORD): TensorSpec(shape=<unknown>, dtype=tf.int64" in text
    assert "Output Type:\n  TensorSpec(shape=<unknown>, dtype=tf.int64, name=None)" in text


def test_concrete_function_str_and_repr():
    g = tf.function(lambda x: None)
    concrete = g.get_concrete_function(tf.TensorSpec([2], tf.int32, name="inp"))
    assert str(concrete) == """ConcreteFunction Input Parameters:
  x (POSITIONAL_OR_KEYWORD): TensorSpec(shape=(2,), dtype=tf.int32, name='inp')
Output Type:
  Literal[None]
Captures:
  None"""

    @tf.function
    def h(a, b):
        return [a, b], 3

    concrete = h.get_concrete_function([tf.constant(1.0), tf.constant(2)], True)
    f32, i32 = ("TensorSpec(shape=(), dtype=tf.float32, name=None)",
                "TensorSpec(shape=(), dtype=tf.int32, name=None)")
    assert f"a (POSITIONAL_OR_KEYWORD): List[{f32}, {i32}]" in str(concrete)
    assert (f"Tuple[List[List[{f32}, {i32}], TensorSpec(shape=(), dtype=tf.bool, name=None)], "
            f"{i32}]") in str(concrete)
    assert repr(concrete).startswith(f"<ConcreteFunction (a: List[{f32}, {i32}], "
                                     f"b: Literal[True]) -> Tuple[")


def test_a_variable_making_trace_runs_the_body_twice_and_both_traces_list(capsys):
    class Lazy(tf.Module):
        w = None

        @tf.function
        def __call__(self, x):
            print("tracing", x.shape)
            if self.w is None:
                self.w = tf.Variable(tf.ones([x.shape[-1], 2]))
            return x @ self.w

    m = Lazy()
    m(tf.ones([1, 3]))
    m(tf.ones([1, 3]))
    m(tf.ones([2, 3]))
    assert capsys.readouterr().out == "tracing (1, 3)\ntracing (1, 3)\ntracing (2, 3)\n"
    assert m.__call__.experimental_get_tracing_count() == 3
    one = "(x: TensorSpec(shape=(1, 3), dtype=tf.float32, name=None)) -> " \
          "TensorSpec(shape=(1, 2), dtype=tf.float32, name=None)"
    two = one.replace("(1, ", "(2, ")
    assert m.__call__.pretty_printed_concrete_signatures(verbose=False) == "\n".join(
        [one, one, two])

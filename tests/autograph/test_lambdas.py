"""Each lambda (and nested function) of converted code runs its own body, wherever it sits."""
import logging

import numpy as np

import eagerflow as tf


def _scale(a):
    return a * 10


def test_two_lambdas_on_one_line_of_a_dict():
    @tf.function
    def f(x, y):
        table = {
            "add": lambda x, y: x + y, "mul": lambda x, y: x * y,
        }
        return table["add"](x, y), table["mul"](x, y)

    a, m = f(tf.constant(3), tf.constant(4))
    assert (a.numpy(), m.numpy()) == (7, 12)


def test_lambdas_in_a_list_nested_and_as_defaults(caplog):
    @tf.function
    def f(x, y):
        ops = [lambda x, y: _scale(x) + y, lambda x, y: x @ y,
               lambda x, y: tf.cast(x < y, tf.int32), lambda x, y: x - y]
        curry = lambda a: lambda b: _scale(a) - b  # noqa: E731

        def with_defaults(a, k=lambda a: a * 3, j=lambda a: a * 4): return k(a) - j(a)
        return [op(x, y) for op in ops] + [curry(x)(y), with_defaults(x), (lambda x: x + 1)(x)]

    x, y = tf.constant([[1, 2], [3, 4]]), tf.constant([[2, 2], [2, 2]])
    with caplog.at_level(logging.WARNING, "eagerflow"):
        got = f(x, y)
    expected = f.python_function(x, y)
    assert len(got) == len(expected) == 7
    for g, e in zip(got, expected):
        np.testing.assert_array_equal(g.numpy(), e.numpy())
    assert "could not transform" not in caplog.text


def test_lambda_on_the_line_of_a_def():
    def f(x): return (lambda v: v - 1)(x) * (lambda v: v + 1)(x)  # noqa: E704
    assert tf.function(f)(tf.constant(5)).numpy() == 24


def test_lambdas_converted_on_their_own_pick_their_own_body():
    pair = [lambda x: x + 1 if x > 0 else x - 1, lambda x: x * 2 if x > 0 else x * 3]
    for fn, expected in zip(pair, (-3, -6)):
        assert tf.function(fn)(tf.constant(-2)).numpy() == expected
    assert "x * 2" in tf.autograph.to_code(pair[1])

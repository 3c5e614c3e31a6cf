"""A function that calls itself, and what `function` accepts (checked against TF 2.21)."""
import logging

import pytest

import eagerflow as tf


@tf.function
def recursive_fn(n):
    if n > 0:
        return recursive_fn(n - 1)
    else:
        return 1


def test_recursive_function_on_python_ints_traces_once_per_value():
    result = recursive_fn(5)
    assert repr(result) == "<tf.Tensor: shape=(), dtype=int32, numpy=1>"
    assert recursive_fn.experimental_get_tracing_count() == 6
    explained = recursive_fn.experimental_explain_retracing().splitlines()
    assert explained[:3] == ["recursive_fn was traced 6 times:", "  1. first call: n=int 5",
                             "  2. n changed from int 5 to int 4"]


def test_recursion_while_tracing_is_not_logged_as_retracing(caplog):
    @tf.function
    def countdown(n):
        return countdown(n - 1) + 1 if n > 0 else 0

    with caplog.at_level(logging.WARNING, logger="tensorflow"):
        assert countdown(7).numpy() == 7
    assert countdown.experimental_get_tracing_count() == 8
    assert "retracing" not in caplog.text.lower()


def test_recursive_function_without_autograph():
    @tf.function(autograph=False)
    def down(n):
        if n > 0:
            return down(n - 1)
        return 1

    assert down(3).numpy() == 1


def test_recursive_closure_keeps_its_cell():
    def make():
        @tf.function
        def fact(n):
            return n * fact(n - 1) if n > 1 else 1
        return fact

    assert make()(4).numpy() == 24


def test_failed_trace_is_not_counted():
    @tf.function
    def bad(x):
        raise ValueError("boom")

    with pytest.raises(ValueError, match="boom"):
        bad(1)
    assert bad.experimental_get_tracing_count() == 0


@pytest.mark.parametrize("value, text", [(5, "5"), ("abc", "'abc'"), ([1], "[1]")])
def test_function_of_a_non_callable_raises_type_error(value, text):
    with pytest.raises(TypeError, match=rf"^{__import__('re').escape(text)} is not a callable "
                                        r"object$"):
        tf.function(value)


def test_function_of_none_is_a_decorator():
    decorate = tf.function(None)
    assert decorate(lambda x: x * 2)(tf.constant(2)).numpy() == 4


def test_functions_keep_the_docstring_and_have_an_empty_one_otherwise():
    def documented(x):
        """doc"""
        return x

    class A:
        @tf.function
        def m(self, x):
            return x

    assert tf.function(documented).__doc__ == "doc"
    assert tf.function(lambda x: x).__doc__ == "" and A().m.__doc__ == ""

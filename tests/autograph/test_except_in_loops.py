"""An ``except ... as name`` inside a loop binds `name` for the handler alone (Python deletes
it after): it is no loop variable."""
import eagerflow as tf


def test_an_exception_name_in_nested_python_loops():
    seen = {}

    @tf.function
    def f(x):
        for name in ("a", "b"):
            for how in (str, repr):
                try:
                    raise KeyError(name)
                except KeyError as e:
                    seen[name, how.__name__] = how(e)
        return x

    assert float(f(tf.constant(1.0))) == 1.0
    assert seen == {("a", "str"): "'a'", ("a", "repr"): "KeyError('a')",
                    ("b", "str"): "'b'", ("b", "repr"): "KeyError('b')"}


def test_an_exception_name_in_a_tensor_loop():
    @tf.function
    def f(n):
        total = tf.constant(0)
        for i in tf.range(n):
            try:
                raise ValueError("caught")
            except ValueError as e:
                total += len(str(e)) + i
        return total

    assert int(f(tf.constant(3))) == 3 * 6 + 3

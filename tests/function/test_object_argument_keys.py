"""A Python object argument keys a trace by a weak reference, as in TF: equal live objects
share the trace, an object gone is never matched again (an equal one passed later traces
anew), and the traced function does not keep the object alive."""
import gc
import weakref

import eagerflow as tf


class Hashy:
    def __init__(self, v):
        self.v = v

    def __hash__(self):
        return hash(self.v)

    def __eq__(self, other):
        return isinstance(other, Hashy) and other.v == self.v


def test_equal_live_objects_share_a_trace():
    @tf.function
    def f(x):
        return x.v

    a, b = Hashy(2), Hashy(2)
    f(a)
    f(b)
    assert f.experimental_get_tracing_count() == 1
    f(Hashy(3))
    assert f.experimental_get_tracing_count() == 2


def test_an_object_gone_is_not_matched_again():
    traced = []

    @tf.function
    def f(x):
        traced.append(x.v)
        return 1

    f(Hashy(1))
    gc.collect()
    f(Hashy(1))
    f(Hashy(1))
    assert traced == [1, 1, 1]


def test_trace_does_not_keep_the_object_alive():
    @tf.function
    def f(x):
        return x.v

    h = Hashy(5)
    ref = weakref.ref(h)
    concrete = f.get_concrete_function(h)
    assert concrete.structured_input_signature == ((h,), {})
    assert int(f(h)) == 5
    del h
    gc.collect()
    assert ref() is None
    assert concrete.structured_input_signature == ((None,), {})


def test_values_without_weak_references_key_by_value():
    @tf.function
    def f(x):
        return len(x)

    f(range(3))  # (no weak reference to a range)
    f(range(3))
    assert f.experimental_get_tracing_count() == 1

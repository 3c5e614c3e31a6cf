"""Errors point at the user's lines: the library's frames are left out of their tracebacks
(as TF's are), unless filtering is turned off or the error is a fault of the library's."""
import os
import traceback

import pytest

import eagerflow as tf
from tests import internals

PACKAGE = os.path.dirname(tf.__file__) + os.sep


def frames(error):
    """(file is the library's, function name) of each frame of `error`'s traceback."""
    return [(f.filename.startswith(PACKAGE), f.name)
            for f in traceback.extract_tb(error.__traceback__)]


def library_frames(error):
    return sum(ours for ours, _ in frames(error))


def user_matmul(x):
    return tf.matmul(x, tf.zeros([2, 3]))


@tf.function
def traced_matmul(x):
    return user_matmul(x * 2.0)


def test_an_eager_op_error_shows_the_callers_frames_and_one_of_the_library():
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        user_matmul(tf.zeros([3, 3]))
    shown = frames(info.value)
    assert shown[-2] == (False, "user_matmul")  # the user's line, then the re-raise
    assert library_frames(info.value) == 1


def test_a_function_error_ends_at_the_users_lines():
    with pytest.raises(ValueError, match="in user code") as info:
        traced_matmul(tf.zeros([3, 3]))
    shown = frames(info.value)
    assert library_frames(info.value) == 1
    assert (False, "user_matmul") in shown and (False, "traced_matmul") in shown


def test_keras_fit_and_layer_call_errors_are_filtered():
    model = tf.keras.Sequential([tf.keras.layers.Dense(3)])
    model.compile("sgd", "mse")
    with pytest.raises(ValueError, match="Dimensions must be equal") as info:
        model.fit(tf.zeros([4, 5]), tf.zeros([4, 2]), verbose=0)
    assert library_frames(info.value) == 1

    layer = tf.keras.layers.Dense(2)
    layer(tf.zeros([1, 3]))
    with pytest.raises(ValueError) as info:
        layer(tf.zeros([1, 4]))
    assert library_frames(info.value) == 1


def test_turned_off_every_frame_shows():
    tf.debugging.disable_traceback_filtering()
    try:
        assert not tf.debugging.is_traceback_filtering_enabled()
        with pytest.raises(tf.errors.InvalidArgumentError) as info:
            user_matmul(tf.zeros([3, 3]))
        assert library_frames(info.value) > 2
    finally:
        tf.debugging.enable_traceback_filtering()
    assert tf.debugging.is_traceback_filtering_enabled()


def test_a_users_own_error_inside_a_function_is_filtered():
    @tf.function
    def f(x):
        return [1, 2][5] + x

    with pytest.raises(Exception, match="list index out of range") as info:  # (TF's StagingError)
        f(tf.constant(1))
    shown = frames(info.value)
    assert shown[-1][0] is False  # raised in the user's function, shown there
    assert library_frames(info.value) == 1


def test_the_library_s_own_faults_keep_their_frames(monkeypatch):
    # (an IndexError raised by the library is no error for users: its frames stay)
    linalg_ops = internals.ops_package.linalg_ops

    def broken(*args, **kwargs):
        raise IndexError("a fault of the library")
    broken.__code__ = broken.__code__.replace(co_filename=linalg_ops.__file__)
    monkeypatch.setattr(linalg_ops, "dispatch", broken)
    with pytest.raises(IndexError) as info:
        tf.matmul(tf.zeros([2, 2]), tf.zeros([2, 2]))
    assert frames(info.value)[-1][0] is True


def test_operator_errors_show_the_callers_line():
    def user_arithmetic(a, b, op):
        return op(a, b)

    for op in (lambda a, b: a + b, lambda a, b: a - b):  # (dtypes that do not match)
        with pytest.raises(tf.errors.InvalidArgumentError) as info:
            user_arithmetic(tf.constant(1), tf.constant(1.0), op)
        assert library_frames(info.value) == 1
        assert frames(info.value)[-3][1] == "user_arithmetic"

"""`tf.cast` of complex numbers to a floating dtype warns, as TF's does, that the imaginary
part is dropped (to integers and other complex dtypes it does not)."""
import logging

import eagerflow as tf


def test_cast_of_complex_to_floats_warns(caplog):
    with caplog.at_level(logging.WARNING):
        assert float(tf.cast(tf.constant(1 + 2j), tf.float32)) == 1.0
    assert [r.getMessage() for r in caplog.records] == [
        "You are casting an input of type complex128 to an incompatible dtype float32.  This "
        "will discard the imaginary part and may not be what you intended."]
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        tf.cast(tf.constant(1 + 2j), tf.int32)
        tf.cast(tf.constant(1 + 2j, tf.complex64), tf.complex128)
        tf.cast(tf.constant(1.5), tf.float64)
    assert caplog.records == []


def test_saturate_cast_of_complex_to_reals_warns(caplog):
    with caplog.at_level(logging.WARNING):
        assert int(tf.dtypes.saturate_cast(tf.constant(3e10 + 1j), tf.int32)) == 2147483647
    assert [r.getMessage() for r in caplog.records] == [
        "Casting complex to real discards imaginary part."]
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        tf.dtypes.saturate_cast(tf.constant(1 + 2j), tf.complex64)
        tf.dtypes.saturate_cast(tf.constant(300.0), tf.uint8)
    assert caplog.records == []

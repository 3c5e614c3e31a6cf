"""`tf.keras.mixed_precision.Policy` compares by identity, as tf_keras's does."""
import eagerflow as tf


def test_policies_of_the_same_name_are_not_equal():
    a = tf.keras.mixed_precision.Policy("mixed_float16")
    b = tf.keras.mixed_precision.Policy("mixed_float16")
    assert (a == b) is False and a == a and a != b
    assert a.name == b.name and a.get_config() == b.get_config()
    assert len({a, b}) == 2

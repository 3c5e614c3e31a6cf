"""A function prints its address as Python prints every object's: lowercase hex."""
import re

import eagerflow as tf


def test_function_repr_address_is_lowercase_hex():
    @tf.function
    def double(x):
        return x * 2

    assert re.fullmatch(r"<eagerflow\.function double at 0x[0-9a-f]+>", repr(double))
    assert repr(double).endswith(f"{id(double):x}>")


def test_restored_function_repr_address_is_lowercase_hex(tmp_path):
    module = tf.Module()
    module.f = tf.function(lambda x: x + 1, input_signature=[tf.TensorSpec([], tf.float32)])
    tf.saved_model.save(module, str(tmp_path))
    loaded = tf.saved_model.load(str(tmp_path))
    assert re.fullmatch(r"<RestoredFunction <lambda> at 0x[0-9a-f]+>", repr(loaded.f))

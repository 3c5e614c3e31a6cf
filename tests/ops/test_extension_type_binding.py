"""ExtensionType constructors and their Specs bind arguments as Python binds a signature
(positionally or by name, TF's TypeError texts); `==` is a Python False when the two values'
specs differ (shapes, dtypes), a bool tensor otherwise."""
import pytest

import eagerflow as tf


class Masked(tf.experimental.ExtensionType):
    values: tf.Tensor
    mask: tf.Tensor
    n: int = 3


_INT = tf.TensorSpec([None], tf.int32)
_BOOL = tf.TensorSpec([None], tf.bool)


def test_spec_takes_fields_positionally_and_requires_all():
    spec = Masked.Spec(_INT, _BOOL, 4)
    assert spec == Masked.Spec(values=_INT, mask=_BOOL, n=4)
    assert spec.values == _INT and spec.n == 4
    for args, kwargs, message in [((_INT, _BOOL), {}, "missing a required argument: 'n'"),
                                  ((_INT,), {}, "missing a required argument: 'mask'"),
                                  ((1, 2, 3, 4), {}, "too many positional arguments"),
                                  ((_INT,), {"values": _BOOL},
                                   "multiple values for argument 'values'")]:
        with pytest.raises(TypeError, match=f"^{message}$"):
            Masked.Spec(*args, **kwargs)


def test_value_constructor_checks_in_signature_order():
    with pytest.raises(TypeError, match="^got an unexpected keyword argument 'q'$"):
        Masked(1, True, q=1)
    with pytest.raises(TypeError, match="^missing a required argument: 'mask'$"):
        Masked(1, q=1)
    assert Masked(1, True).n == 3


def test_spec_as_input_signature():
    @tf.function(input_signature=[Masked.Spec(_INT, _BOOL, 3)])
    def valid(m):
        return tf.reduce_sum(tf.boolean_mask(m.values, m.mask))

    assert int(valid(Masked([1, 2, 3], [True, False, True]))) == 4


def test_equality_of_different_specs_is_python_false():
    a = Masked([1, 2], [True, False])
    assert (a == Masked([[3, 4], [5, 6]], [[False, True], [True, True]])) is False
    assert (a == Masked([1, 2, 3], [True, False, True])) is False  # (was a False tensor)
    assert (a == Masked([1., 2.], [True, False])) is False
    assert (a != Masked([1, 2, 3], [True, False, True])) is True
    same = a == Masked([1, 3], [True, False])
    assert isinstance(same, tf.Tensor) and not bool(same)
    assert bool(a == Masked([1, 2], [True, False]))

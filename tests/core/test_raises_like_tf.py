"""Places where TF 2.21 raises rather than computing a result; the classes and
messages below are TF 2.21's."""
import pytest

import eagerflow as tf


def test_len_of_variable_raises_type_error():
    v = tf.Variable([1, 2])
    with pytest.raises(TypeError, match=r"^object of type 'ResourceVariable' has no len\(\)$"):
        len(v)
    with pytest.raises(TypeError, match=r"^object of type '_UnreadVariable' has no len\(\)$"):
        len(v.assign([3, 4]))
    # An eager tensor keeps its len(); a variable still iterates and converts.
    assert len(tf.constant([1, 2, 3])) == 3
    assert [int(x) for x in v] == [3, 4]
    assert tf.convert_to_tensor(v).shape == (2,)

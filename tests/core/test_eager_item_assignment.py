"""Item assignment and deletion fail on tensors with Python's TypeError naming TF's type."""
import pytest

import eagerflow as tf


def test_eager_tensor_item_assignment_names_tfs_type():
    t = tf.constant([1, 2])
    with pytest.raises(TypeError, match=r"^'tensorflow\.python\.framework\.ops\.EagerTensor' "
                                        r"object does not support item assignment$"):
        t[0] = 5
    with pytest.raises(TypeError, match=r"^'tensorflow\.python\.framework\.ops\.EagerTensor' "
                                        r"object doesn't support item deletion$"):
        del t[0]
    assert t.numpy().tolist() == [1, 2]


def test_variable_and_symbolic_tensor_keep_their_names():
    v = tf.Variable([1, 2])
    with pytest.raises(TypeError, match=r"^'ResourceVariable' object does not support item "
                                        r"assignment$"):
        v[0] = 5
    seen = []

    @tf.function
    def f(x):
        try:
            x[0] = 5
        except TypeError as e:
            seen.append(str(e))
        return x

    f(tf.constant([1, 2]))
    assert seen == ["'SymbolicTensor' object does not support item assignment"]

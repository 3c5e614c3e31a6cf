"""Every test of tf.compat leaves eager execution on and a fresh default graph behind, so a
test that turned TF 1's graph mode on cannot change the next one."""
import pytest

import eagerflow.compat.v1 as tf1


@pytest.fixture(autouse=True)
def eager_after():
    yield
    tf1.enable_eager_execution()
    tf1.enable_v2_tensorshape()
    tf1.reset_default_graph()

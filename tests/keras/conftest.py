"""Fixtures of the Keras tests."""
import pytest

import eagerflow as tf


@pytest.fixture
def keras_graph_mode():
    """TF 1's graph mode in a fresh default graph, with a Keras session of its own."""
    tf.compat.v1.disable_eager_execution()
    tf.compat.v1.reset_default_graph()
    tf.compat.v1.keras.backend.set_session(tf.compat.v1.Session())
    yield
    tf.compat.v1.enable_eager_execution()
    tf.compat.v1.reset_default_graph()
    tf.compat.v1.keras.backend.set_session(None)

import pytest

import eagerflow as tf


@pytest.fixture(autouse=True)
def _no_global_seed():
    """Each test starts without a global seed, as a fresh TensorFlow program does."""
    tf.random.set_seed(None)
    yield
    tf.random.set_seed(None)

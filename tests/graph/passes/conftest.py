"""Fixtures of the pass tests."""
import pytest

import eagerflow as tf
from tests.internals import config


@pytest.fixture
def optimizer_options():
    """`tf.config.optimizer`, its switches at their defaults during the test (whatever ran
    before it) and restored after it."""
    saved = dict(config._optimizer_options)
    config._optimizer_options.clear()
    yield tf.config.optimizer
    config._optimizer_options.clear()
    config._optimizer_options.update(saved)

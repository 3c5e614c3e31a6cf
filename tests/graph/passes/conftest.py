"""Fixtures of the pass tests."""
import pytest

import eagerflow as tf
from tests.internals import config


@pytest.fixture
def optimizer_options():
    """`tf.config.optimizer`, its switches restored after the test."""
    saved = dict(config._optimizer_options)
    yield tf.config.optimizer
    config._optimizer_options.clear()
    config._optimizer_options.update(saved)

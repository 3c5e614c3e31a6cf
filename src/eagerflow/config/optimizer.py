"""``tf.config.optimizer``: switches of the graph passes run before a function executes."""
from eagerflow._src.core.config import (  # noqa: F401
    get_optimizer_experimental_options as get_experimental_options,
    set_optimizer_experimental_options as set_experimental_options)

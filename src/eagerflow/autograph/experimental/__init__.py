"""``tf.autograph.experimental``: loop options and opting out of conversion."""
from eagerflow._src.autograph.api import (  # noqa: F401
    Feature, do_not_convert, set_element_type, set_loop_options, stack)

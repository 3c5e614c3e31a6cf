"""String ops (``tf.strings``)."""
from eagerflow._src.ops.logging_ops import format  # noqa: F401,A004 (TF's public name)
from eagerflow._src.ops.string_ops import (  # noqa: F401
    as_string, join, length, lower, reduce_join, regex_full_match, regex_replace, split, strip,
    substr, to_number, upper)

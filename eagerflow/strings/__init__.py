"""String ops (``tf.strings``)."""
from eagerflow._src.ops.array_ops import (  # noqa: F401
    split)
from eagerflow._src.ops.string_ops import (  # noqa: F401
    as_string, join, length, lower, reduce_join, regex_full_match, regex_replace, strip,
    substr, to_number, upper)

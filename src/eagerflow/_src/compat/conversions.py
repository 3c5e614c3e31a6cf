"""``tf.compat``'s Python helpers: text and bytes conversions, the numeric type tuples, and
forward-compatibility checks against a horizon date.

>>> as_bytes("héllo"), as_text(b"h\\xc3\\xa9")
(b'h\\xc3\\xa9llo', 'hé')
"""
import contextlib
import datetime
import numbers
import os

import numpy as np

from eagerflow._src.backend.api_export import export

bytes_or_text_types = (bytes, str)
complex_types = (numbers.Complex, np.number)
integral_types = (numbers.Integral, np.integer)
real_types = (numbers.Real, np.integer, np.floating)
for _name in ("bytes_or_text_types", "complex_types", "integral_types", "real_types"):
    export(f"compat.{_name}", f"compat.v1.compat.{_name}").export_constant(__name__, _name)


@export("compat.as_bytes", "compat.v1.compat.as_bytes")
def as_bytes(bytes_or_text, encoding="utf-8"):
    """`bytes_or_text` as bytes: text encoded with `encoding`, bytes and bytearrays as they
    are; TypeError for anything else."""
    if isinstance(bytes_or_text, bytearray):
        return bytes(bytes_or_text)
    if isinstance(bytes_or_text, str):
        return bytes_or_text.encode(encoding)
    if isinstance(bytes_or_text, bytes):
        return bytes_or_text
    raise TypeError(f"Expected binary or unicode string, got {bytes_or_text!r}")


@export("compat.as_text", "compat.as_str", "compat.v1.compat.as_text",
        "compat.v1.compat.as_str")
def as_text(bytes_or_text, encoding="utf-8"):
    """`bytes_or_text` as text: bytes decoded with `encoding`, text as it is; TypeError for
    anything else."""
    if isinstance(bytes_or_text, str):
        return bytes_or_text
    if isinstance(bytes_or_text, bytes):
        return bytes_or_text.decode(encoding)
    raise TypeError(f"Expected binary or unicode string, got {bytes_or_text!r}")


as_str = as_text


@export("compat.as_str_any", "compat.v1.compat.as_str_any")
def as_str_any(value, encoding="utf-8"):
    """`value` as text: bytes decoded, anything else through ``str``."""
    if isinstance(value, bytes):
        return as_text(value, encoding)
    return str(value)


@export("compat.path_to_str", "compat.v1.compat.path_to_str")
def path_to_str(path):
    """A path-like object's path (``os.fspath``); anything else as it is."""
    return os.fspath(path) if isinstance(path, os.PathLike) else path


# the date after which TF's own graphs may use ops older binaries do not know
_HORIZON = datetime.date(2026, 1, 16)
_horizon_override = None


@export("compat.forward_compatible", "compat.v1.compat.forward_compatible")
def forward_compatible(year, month, day):
    """Whether the forward-compatibility horizon is past the date `year`-`month`-`day`.

    >>> forward_compatible(2021, 1, 1)
    True
    """
    return (_horizon_override or _HORIZON) > datetime.date(year, month, day)


@export("compat.forward_compatibility_horizon",
        "compat.v1.compat.forward_compatibility_horizon")
@contextlib.contextmanager
def forward_compatibility_horizon(year, month, day):
    """A context in which the horizon is `year`-`month`-`day` (for testing)."""
    global _horizon_override
    saved, _horizon_override = _horizon_override, datetime.date(year, month, day)
    try:
        yield
    finally:
        _horizon_override = saved

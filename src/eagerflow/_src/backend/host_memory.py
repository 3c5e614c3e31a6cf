"""Keeping freed host memory for reuse, so that repeated steps do not page-fault.

Each training step frees and allocates the same large arrays again. With
glibc's defaults, arrays above 128 KiB are fresh `mmap`s and freed memory at
the top of the heap goes back to the system, so every step touches new pages
(thousands of page faults, a third of a small CNN's step). Raising the mmap
and trim thresholds keeps those pages in the heap for the next step; the heap
then stays at the program's peak, as TensorFlow's own allocator does.

Set ``EAGERFLOW_RETURN_FREED_MEMORY=1`` to keep the system's defaults.

>>> isinstance(keep_freed_memory(), bool)
True
"""
import ctypes
import os
import sys

_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3
_THRESHOLD = 256 << 20  # arrays up to 256 MiB come from (and return to) the heap


def keep_freed_memory():
    """Tunes glibc's allocator (Linux only); True when the thresholds were set."""
    if not sys.platform.startswith("linux") or os.environ.get("EAGERFLOW_RETURN_FREED_MEMORY"):
        return False
    try:
        libc = ctypes.CDLL("libc.so.6")
        return bool(libc.mallopt(_M_MMAP_THRESHOLD, _THRESHOLD)) and \
            bool(libc.mallopt(_M_TRIM_THRESHOLD, _THRESHOLD))
    except (OSError, AttributeError):  # not glibc
        return False

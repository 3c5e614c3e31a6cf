"""Keras's console output: every message goes to the current ``sys.stdout``, flushed.

>>> print_msg("Epoch 1/3")
Epoch 1/3
"""
import logging
import sys
import threading

from eagerflow._src.backend.api_export import export

_INTERACTIVE = threading.local()


@export("keras.utils.enable_interactive_logging")
def enable_interactive_logging():
    """Keras's messages (progress bars, counts) go to stdout again (the default)."""
    _INTERACTIVE.enabled = True


@export("keras.utils.disable_interactive_logging")
def disable_interactive_logging():
    """Keras's messages go to the INFO level of logging instead of stdout (so, by default,
    nowhere)."""
    _INTERACTIVE.enabled = False


@export("keras.utils.is_interactive_logging_enabled")
def is_interactive_logging_enabled():
    """Whether Keras's messages go to stdout."""
    return getattr(_INTERACTIVE, "enabled", True)


def print_msg(message, line_break=True):
    """Writes `message` (and a newline unless `line_break` is False) to stdout and flushes it.

    The stream is looked up on every call, so ``redirect_stdout`` and test
    capture see the output; flushing makes ``\\r`` redraws appear at once.

    >>> print_msg("1/2", line_break=False)
    1/2
    """
    if not is_interactive_logging_enabled():
        logging.getLogger("absl").info(message)
        return
    sys.stdout.write(message + "\n" if line_break else message)
    sys.stdout.flush()

"""Keras's console output: every message goes to the current ``sys.stdout``, flushed.

>>> print_msg("Epoch 1/3")
Epoch 1/3
"""
import sys


def print_msg(message, line_break=True):
    """Writes `message` (and a newline unless `line_break` is False) to stdout and flushes it.

    The stream is looked up on every call, so ``redirect_stdout`` and test
    capture see the output; flushing makes ``\\r`` redraws appear at once.

    >>> print_msg("1/2", line_break=False)
    1/2
    """
    sys.stdout.write(message + "\n" if line_break else message)
    sys.stdout.flush()

"""Tracebacks that point at the user's code: the library's own frames left out.

An error raised inside eagerflow travels through many of its frames (the public
function, the op's wrapper, dispatch, the kernel) before it reaches the caller.
The public entry points (functions with dispatch support, `tf.function` calls,
Keras's model methods) re-raise what escapes them through `filtered`, which
drops the frames of files inside the package while filtering is on (the
default, as TF's; `tf.debugging.disable_traceback_filtering` turns it off to
see every frame). The exception itself, its class, message and cause, is
unchanged.

>>> def fail():
...     raise ValueError("bad")
>>> try:
...     fail()
... except ValueError as e:
...     filtered(e) is e
True
"""
import functools
import os
import types

enabled = [True]  # whether `filtered` leaves out the library's frames

# The package's folder (this file is in _src/backend/), with a separator: a frame is the
# library's when its file is inside it (the generated dispatch wrappers' names are too).
_PACKAGE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))) + os.sep


def filtered(error):
    """`error`, its traceback without the library's frames while filtering is on. An error
    the library raised that is not one it raises for its users (TF's error classes, defined
    in the package, ValueError, TypeError, NotImplementedError), an IndexError say, keeps its
    frames: it points at a fault of the library's own."""
    if not enabled[0]:
        return error
    kept, ours = [], False  # ours: whether the innermost frame is the library's
    tb = error.__traceback__
    while tb is not None:
        ours = tb.tb_frame.f_code.co_filename.startswith(_PACKAGE)
        if not ours:
            kept.append(tb)
        tb = tb.tb_next
    if ours and not isinstance(error, _FOR_USERS) and not type(error).__module__.startswith(
            "eagerflow"):
        return error
    chain = None
    for tb in reversed(kept):
        chain = types.TracebackType(chain, tb.tb_frame, tb.tb_lasti, tb.tb_lineno)
    return error.with_traceback(chain)


_FOR_USERS = (ValueError, TypeError, NotImplementedError)


def filtering(fn):
    """`fn`, its errors raised with their tracebacks `filtered` (for public entry points
    called rarely, as Keras's `fit`; hot ones inline the ``try``)."""
    @functools.wraps(fn)
    def entry(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except Exception as e:
            raise filtered(e)  # noqa: B904 (the same error, raised again)
    return entry

"""The slot through which `function` runs Python code converted by AutoGraph.

AutoGraph sits above this layer and fills the slot when it loads
(`autograph.conversion`): ``call(fn, args, kwargs, options)`` converts `fn`
(with the optional features `options`, None for all) and calls it while a graph
is traced.  Empty, functions are traced as they are.

`status` records whether the code running now was asked to be converted: off
inside a function traced with ``autograph=False`` (or a ``do_not_convert``
one), on inside one traced with AutoGraph. Code that converts what it calls
on its own (a Keras layer's ``call``) asks `enabled` first, as TF's
``control_status_ctx``.

>>> with status(False):
...     enabled()
False
>>> enabled()
True
"""
import contextlib
import threading

call = None

_state = threading.local()


def enabled():
    """False while the innermost function being traced (or called) runs without AutoGraph."""
    return getattr(_state, "enabled", None) is not False


def requested():
    """True only inside code that asked for AutoGraph: a function being traced with it (TF's
    ENABLED status; eager code has none, which `enabled` counts as on)."""
    return getattr(_state, "enabled", None) is True


@contextlib.contextmanager
def status(on):
    """AutoGraph on (True) or off (False) for the code run inside; after, the status before
    (none, eagerly: `requested` is False again)."""
    before = getattr(_state, "enabled", None)
    _state.enabled = bool(on)
    try:
        yield
    finally:
        _state.enabled = before

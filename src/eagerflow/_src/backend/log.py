"""TF's logger, ``logging.getLogger("tensorflow")``, through which eagerflow logs, with
`logging` imported when it first logs (importing it costs ~5 ms, a twentieth of
``import eagerflow``).

As in TF, when the root logger has no handler on first use, the logger gets one that
prints ``LEVEL:tensorflow:message`` on stderr.

>>> logger.name
'tensorflow'
"""
import sys

_configured = False


def get_logger():
    """The ``"tensorflow"`` logger, given its stderr handler on the first call."""
    import logging  # noqa: PLC0415
    global _configured
    logger = logging.getLogger("tensorflow")
    if not _configured:
        _configured = True
        # With the root logger configured, its handlers print our records (as in TF).
        if not logging.getLogger().handlers:
            handler = _StderrHandler()
            handler.setFormatter(logging.Formatter(logging.BASIC_FORMAT))
            logger.addHandler(handler)
    return logger


def _StderrHandler():
    import logging  # noqa: PLC0415

    class StderrHandler(logging.StreamHandler):
        """Writes to the current ``sys.stderr`` (which may be replaced after set-up)."""

        @property
        def stream(self):
            return sys.stderr

        @stream.setter
        def stream(self, value):
            pass

    return StderrHandler()


class _Logger:
    """Forwards every attribute to the ``"tensorflow"`` logger."""

    def __getattr__(self, name):
        return getattr(get_logger(), name)


logger = _Logger()

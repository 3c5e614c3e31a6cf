"""TF's logger, ``logging.getLogger("tensorflow")``, through which eagerflow logs, with
`logging` imported when it first logs (importing it costs ~5 ms, a twentieth of
``import eagerflow``).

As in TF, when the root logger has no handler on first use, the logger gets one that
prints ``LEVEL:tensorflow:message`` on stderr.

>>> logger.name
'tensorflow'
"""
import sys



_configured_names = set()


def get_logger(name="tensorflow"):
    """The ``"tensorflow"`` logger (or the `name` one: ``"absl"``, through which tf_keras
    logs some of its warnings), given its stderr handler on the first call."""
    import logging  # noqa: PLC0415
    logger = logging.getLogger(name)
    if name not in _configured_names:
        _configured_names.add(name)
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
    """Forwards every attribute to the ``"tensorflow"`` logger (or another, by name)."""

    def __init__(self, name="tensorflow"):
        self._name = name

    def __getattr__(self, name):
        return getattr(get_logger(self._name), name)


logger = _Logger()
absl_logger = _Logger("absl")  # (LEVEL:absl:message, as tf_keras's absl warnings print)

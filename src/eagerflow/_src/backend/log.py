"""eagerflow's logger, ``logging.getLogger("eagerflow")``, with `logging` imported when it
first logs (importing it costs ~5 ms, a twentieth of ``import eagerflow``).

>>> logger.name
'eagerflow'
"""


class _Logger:
    """Forwards every attribute to the ``"eagerflow"`` logger."""

    def __getattr__(self, name):
        import logging  # noqa: PLC0415
        return getattr(logging.getLogger("eagerflow"), name)


logger = _Logger()

"""TF 1's logging module (``tf.compat.v1.logging``): levels and functions over TF's
``"tensorflow"`` logger, which prints ``LEVEL:tensorflow:message`` on stderr.

>>> tf.compat.v1.logging.get_verbosity() == tf.compat.v1.logging.WARN
True
"""
import logging as _logging

from eagerflow._src.backend import log as _log
from eagerflow._src.backend.api_export import export

DEBUG, INFO, WARN, ERROR, FATAL = (_logging.DEBUG, _logging.INFO, _logging.WARN,
                                   _logging.ERROR, _logging.FATAL)
for _name in ("DEBUG", "INFO", "WARN", "ERROR", "FATAL"):
    export(f"compat.v1.logging.{_name}").export_constant(__name__, _name)
del _name


def _logger():
    return _log.get_logger()


@export("compat.v1.logging.set_verbosity")
def set_verbosity(v):
    """Logs only messages of level `v` (``INFO``, ``WARN``, ...) and above."""
    _logger().setLevel(v)


@export("compat.v1.logging.get_verbosity")
def get_verbosity():
    """The level of the least severe messages logged (``WARN`` at first)."""
    return _logger().getEffectiveLevel()


@export("compat.v1.logging.log")
def log(level, msg, *args, **kwargs):
    _logger().log(level, msg, *args, **kwargs)


@export("compat.v1.logging.debug")
def debug(msg, *args, **kwargs):
    _logger().debug(msg, *args, **kwargs)


@export("compat.v1.logging.info")
def info(msg, *args, **kwargs):
    _logger().info(msg, *args, **kwargs)


@export("compat.v1.logging.warning")
def warning(msg, *args, **kwargs):
    _logger().warning(msg, *args, **kwargs)


@export("compat.v1.logging.warn")
def warn(msg, *args, **kwargs):
    _logger().warning(msg, *args, **kwargs)


@export("compat.v1.logging.error")
def error(msg, *args, **kwargs):
    _logger().error(msg, *args, **kwargs)


@export("compat.v1.logging.fatal")
def fatal(msg, *args, **kwargs):
    _logger().fatal(msg, *args, **kwargs)


@export("compat.v1.logging.vlog")
def vlog(level, msg, *args, **kwargs):
    _logger().log(level, msg, *args, **kwargs)


@export("compat.v1.logging.log_if")
def log_if(level, msg, condition, *args):
    """Logs `msg` at `level` when `condition` holds."""
    if condition:
        _logger().log(level, msg, *args)


_counts = {}


def _count(token):
    _counts[token] = _counts.get(token, 0) + 1
    return _counts[token]


@export("compat.v1.logging.log_every_n")
def log_every_n(level, msg, n, *args):
    """Logs `msg` at `level` on the 1st, (n+1)th, (2n+1)th... call from one place."""
    import sys  # noqa: PLC0415
    caller = sys._getframe(1)
    count = _count((caller.f_code.co_filename, caller.f_lineno, "every"))
    log_if(level, msg, not (count - 1) % n, *args)


@export("compat.v1.logging.log_first_n")
def log_first_n(level, msg, n, *args):
    """Logs `msg` at `level` on the first `n` calls from one place."""
    import sys  # noqa: PLC0415
    caller = sys._getframe(1)
    count = _count((caller.f_code.co_filename, caller.f_lineno, "first"))
    log_if(level, msg, count <= n, *args)


@export("compat.v1.logging.flush")
def flush():
    for handler in _logger().handlers:
        handler.flush()


@export("compat.v1.logging.TaskLevelStatusMessage")
def TaskLevelStatusMessage(msg):  # noqa: N802 (TF's name)
    error(msg)

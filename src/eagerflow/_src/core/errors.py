"""TensorFlow's exception hierarchy: every op failure is an `OpError` subclass.

>>> issubclass(tf.errors.InvalidArgumentError, tf.errors.OpError)
True
"""

from eagerflow._src.backend.api_export import export

OK = 0
CANCELLED = 1
UNKNOWN = 2
INVALID_ARGUMENT = 3
DEADLINE_EXCEEDED = 4
NOT_FOUND = 5
ALREADY_EXISTS = 6
PERMISSION_DENIED = 7
RESOURCE_EXHAUSTED = 8
FAILED_PRECONDITION = 9
ABORTED = 10
OUT_OF_RANGE = 11
UNIMPLEMENTED = 12
INTERNAL = 13
UNAVAILABLE = 14
DATA_LOSS = 15
UNAUTHENTICATED = 16
export("errors.OK").export_constant(__name__, "OK")
export("errors.CANCELLED").export_constant(__name__, "CANCELLED")
export("errors.UNKNOWN").export_constant(__name__, "UNKNOWN")
export("errors.INVALID_ARGUMENT").export_constant(__name__, "INVALID_ARGUMENT")
export("errors.DEADLINE_EXCEEDED").export_constant(__name__, "DEADLINE_EXCEEDED")
export("errors.NOT_FOUND").export_constant(__name__, "NOT_FOUND")
export("errors.ALREADY_EXISTS").export_constant(__name__, "ALREADY_EXISTS")
export("errors.PERMISSION_DENIED").export_constant(__name__, "PERMISSION_DENIED")
export("errors.RESOURCE_EXHAUSTED").export_constant(__name__, "RESOURCE_EXHAUSTED")
export("errors.FAILED_PRECONDITION").export_constant(__name__, "FAILED_PRECONDITION")
export("errors.ABORTED").export_constant(__name__, "ABORTED")
export("errors.OUT_OF_RANGE").export_constant(__name__, "OUT_OF_RANGE")
export("errors.UNIMPLEMENTED").export_constant(__name__, "UNIMPLEMENTED")
export("errors.INTERNAL").export_constant(__name__, "INTERNAL")
export("errors.UNAVAILABLE").export_constant(__name__, "UNAVAILABLE")
export("errors.DATA_LOSS").export_constant(__name__, "DATA_LOSS")
export("errors.UNAUTHENTICATED").export_constant(__name__, "UNAUTHENTICATED")


# Tracebacks name a class by its module: users see (and catch) these as `eagerflow.errors.X`.
_PUBLIC_MODULE = "eagerflow.errors"


@export("errors.OpError")
class OpError(Exception):
    """An error raised while running an op: `op`, `node_def`, `message` and `error_code`."""

    __module__ = _PUBLIC_MODULE

    def __init__(self, node_def, op, message, *args):
        super().__init__(message, *args)
        self._node_def = node_def
        self._op = op
        self._message = message
        self._error_code = args[0] if args and isinstance(args[0], int) else self._code

    _code = UNKNOWN

    message = property(lambda self: self._message)
    op = property(lambda self: self._op)
    node_def = property(lambda self: self._node_def)
    error_code = property(lambda self: self._error_code)

    def __str__(self):
        return self._message

    def __reduce__(self):
        return type(self), (self._node_def, self._op, self._message)


def _error_class(name, code, doc):
    def __init__(self, node_def=None, op=None, message="", *args):
        OpError.__init__(self, node_def, op, message, *args)
    return type(name, (OpError,), {"__init__": __init__, "_code": code, "__doc__": doc,
                                   "__module__": _PUBLIC_MODULE})


CancelledError = _error_class("CancelledError", CANCELLED, "An operation was cancelled.")
export("errors.CancelledError")(CancelledError)
UnknownError = _error_class("UnknownError", UNKNOWN, "An unknown error.")
export("errors.UnknownError")(UnknownError)
InvalidArgumentError = _error_class("InvalidArgumentError", INVALID_ARGUMENT,
                                    "An op received an invalid argument.")
export("errors.InvalidArgumentError")(InvalidArgumentError)
DeadlineExceededError = _error_class("DeadlineExceededError", DEADLINE_EXCEEDED,
                                     "A deadline expired before the operation could complete.")
export("errors.DeadlineExceededError")(DeadlineExceededError)
NotFoundError = _error_class("NotFoundError", NOT_FOUND, "A requested entity was not found.")
export("errors.NotFoundError")(NotFoundError)
AlreadyExistsError = _error_class("AlreadyExistsError", ALREADY_EXISTS,
                                  "An entity that we attempted to create already exists.")
export("errors.AlreadyExistsError")(AlreadyExistsError)
PermissionDeniedError = _error_class("PermissionDeniedError", PERMISSION_DENIED,
                                     "The caller does not have permission to run an operation.")
export("errors.PermissionDeniedError")(PermissionDeniedError)
UnauthenticatedError = _error_class("UnauthenticatedError", UNAUTHENTICATED,
                                    "The request does not have valid credentials.")
export("errors.UnauthenticatedError")(UnauthenticatedError)
ResourceExhaustedError = _error_class("ResourceExhaustedError", RESOURCE_EXHAUSTED,
                                      "Some resource has been exhausted.")
export("errors.ResourceExhaustedError")(ResourceExhaustedError)
FailedPreconditionError = _error_class("FailedPreconditionError", FAILED_PRECONDITION,
                                       "The system is not in a state to run an operation.")
export("errors.FailedPreconditionError")(FailedPreconditionError)
AbortedError = _error_class("AbortedError", ABORTED, "An operation was aborted.")
export("errors.AbortedError")(AbortedError)
OutOfRangeError = _error_class("OutOfRangeError", OUT_OF_RANGE,
                               "An operation iterated past the valid input range.")
export("errors.OutOfRangeError")(OutOfRangeError)
UnimplementedError = _error_class("UnimplementedError", UNIMPLEMENTED,
                                  "An operation is not implemented or supported.")
export("errors.UnimplementedError")(UnimplementedError)
InternalError = _error_class("InternalError", INTERNAL, "The system hit an internal error.")
export("errors.InternalError")(InternalError)
UnavailableError = _error_class("UnavailableError", UNAVAILABLE,
                                "The runtime is currently unavailable.")
export("errors.UnavailableError")(UnavailableError)
DataLossError = _error_class("DataLossError", DATA_LOSS, "Unrecoverable data loss or corruption.")
export("errors.DataLossError")(DataLossError)

_BY_CODE = {c._code: c for c in (
    CancelledError, UnknownError, InvalidArgumentError, DeadlineExceededError, NotFoundError,
    AlreadyExistsError, PermissionDeniedError, UnauthenticatedError, ResourceExhaustedError,
    FailedPreconditionError, AbortedError, OutOfRangeError, UnimplementedError, InternalError,
    UnavailableError, DataLossError)}


@export("errors.OperatorNotAllowedInGraphError")
class OperatorNotAllowedInGraphError(TypeError):
    """A Python operation (`bool`, iteration) applied to a symbolic tensor while tracing."""

    __module__ = _PUBLIC_MODULE


class InaccessibleTensorError(ValueError):
    """A tensor used outside the graph that made it (a loop body's, a branch's)."""


def exception_type_from_error_code(error_code):
    return _BY_CODE[error_code]


def error_code_from_exception_type(cls):
    return cls._code


def op_error(cls, op_name, message):
    """An `OpError` of class `cls` whose message ends with TF's ``[Op:Name]`` tag."""
    return cls(None, op_name, f"{message} [Op:{op_name}]")


def shape_text(shape):
    """A shape as TensorFlow writes it in messages (``?`` for an unknown dim).

    >>> shape_text((2, None))
    '[2,?]'
    """
    return "[" + ",".join("?" if d is None else str(d) for d in shape) + "]"

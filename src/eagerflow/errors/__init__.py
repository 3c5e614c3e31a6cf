"""TensorFlow's exception types (``tf.errors``)."""
from eagerflow._src.core.errors import (  # noqa: F401
    ABORTED, ALREADY_EXISTS, CANCELLED, DATA_LOSS, DEADLINE_EXCEEDED, FAILED_PRECONDITION,
    INTERNAL, INVALID_ARGUMENT, NOT_FOUND, OK, OUT_OF_RANGE, PERMISSION_DENIED,
    RESOURCE_EXHAUSTED, UNAUTHENTICATED, UNAVAILABLE, UNIMPLEMENTED, UNKNOWN, AbortedError,
    AlreadyExistsError, CancelledError, DataLossError, DeadlineExceededError,
    FailedPreconditionError, InternalError, InvalidArgumentError, NotFoundError, OpError,
    OperatorNotAllowedInGraphError, OutOfRangeError, PermissionDeniedError, ResourceExhaustedError, UnauthenticatedError,
    UnavailableError, UnimplementedError, UnknownError)

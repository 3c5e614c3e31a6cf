"""TensorFlow's exception hierarchy: every op failure is an `OpError` subclass.

>>> issubclass(tf.errors.InvalidArgumentError, tf.errors.OpError)
True
"""
import re
import warnings

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

    def __init__(self, node_def, op, message, error_code, *args):
        super().__init__()  # (as TF's: no args, so the repr is ``InvalidArgumentError()``)
        self._node_def = node_def
        self._op = op
        self._message = message
        self._error_code = error_code

    _code = UNKNOWN

    message = property(lambda self: self._message)
    op = property(lambda self: self._op)
    node_def = property(lambda self: self._node_def)
    error_code = property(lambda self: self._error_code)
    # (TF's status payloads: its Python-raised errors carry none)
    experimental_payloads = property(lambda self: {})

    def __str__(self):
        # (as TF's: an error of a graph's operation ends with where the user made it)
        location = getattr(self._op, "location", None)
        if not location:
            return self._message
        frames = "".join(f'  File "{file}", line {line}, in {function}\n'
                         for file, line, function in location[2])
        return f"{self._message}\n\nOriginal stack trace for {self._op.name!r}:\n{frames}"

    def __reduce__(self):
        extra = (self._error_code,) if type(self) is OpError else ()
        return type(self), (self._node_def, self._op, self._message, *extra)


def _error_class(name, code, doc):
    def __init__(self, node_def, op, message, *args):  # (all three required, as in TF)
        OpError.__init__(self, node_def, op, message, code, *args)
    __init__.__qualname__ = f"{name}.__init__"  # (as TypeErrors of missing arguments name it)
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


@export("compat.v1.errors.exception_type_from_error_code")
def exception_type_from_error_code(error_code):
    """The `OpError` subclass of a TF error code (KeyError for another)."""
    return _BY_CODE[error_code]


@export("compat.v1.errors.error_code_from_exception_type")
def error_code_from_exception_type(cls):
    """The TF error code of an `OpError` subclass; for another class, as TF, a warning and
    an ``UnknownError("Unknown class exception")`` (returned, not raised)."""
    if _BY_CODE.get(getattr(cls, "_code", None)) is cls:
        return cls._code
    warnings.warn("Unknown class exception")
    return UnknownError(None, None, "Unknown class exception", None)


def op_error(cls, op_name, message):
    """An `OpError` of class `cls` whose message ends with TF's ``[Op:Name]`` tag."""
    return cls(None, op_name, f"{message} [Op:{op_name}]")


# The one device eager ops run on, as TF names it in the function it wraps a failed op in.
EAGER_DEVICE = "/job:localhost/replica:0/task:0/device:CPU:0"
# TF runs each eager op as a one-op function; its CPU kernels on oneDNN (for these dtypes)
# have other names. (float16 runs on oneDNN only on CPUs with float16 arithmetic; TF's
# default kernels take it elsewhere.)
_ONEDNN_DTYPES = frozenset({"float32", "bfloat16"})
_ONEDNN_KERNELS = {
    "MatMul": "_MklMatMul", "BatchMatMul": "_MklBatchMatMul",
    "BatchMatMulV2": "_MklBatchMatMulV2", "Einsum": "_MklEinsum",
    **{op: "_MklNative" + op for op in (
        "Conv2D", "Conv2DBackpropInput", "Conv2DBackpropFilter", "Conv3D",
        "Conv3DBackpropInputV2", "Conv3DBackpropFilterV2", "DepthwiseConv2dNative",
        "DepthwiseConv2dNativeBackpropInput", "DepthwiseConv2dNativeBackpropFilter",
        "FusedBatchNorm", "FusedBatchNormV2", "FusedBatchNormV3", "FusedBatchNormGrad",
        "FusedBatchNormGradV2", "FusedBatchNormGradV3")}}
_EAGER_FORM = re.compile(
    r"(?:\{\{function_node [^}]*\}\} )?(.*?) \[Op:([^\]]*)\](?: name: [^\n]*)?", re.S)


def kernel_name(op_name, dtype=None):
    """The name of the CPU kernel TF runs for op `op_name` on inputs of `dtype` (a NumPy
    dtype or a `DType`; None: float32), as its messages write it.

    >>> kernel_name("MatMul"), kernel_name("MatMul", tf.float64), kernel_name("Reshape")
    ('_MklMatMul', 'MatMul', 'Reshape')
    """
    if dtype is not None and getattr(dtype, "name", None) not in _ONEDNN_DTYPES:
        return op_name
    return _ONEDNN_KERNELS.get(op_name, op_name)


def eager_message(message, op_name, counts=(), name=None, dtype=None):
    """TF's text of eager op `op_name` failing in its kernel with `message`.

    The one-op function TF ran names the kernel, its `counts` (``(attr, n)`` pairs
    sizing the op's lists of inputs or outputs) and the device; ``[Op:<op_name>]``
    follows the message, then `` name: <name>`` unless `name` is None.

    >>> eager_message("Boom", "ConcatV2", [("N", 2)], "concat")  # doctest: +ELLIPSIS
    '{{function_node __wrapped__ConcatV2_N_2_device_/job:...CPU:0}} Boom [Op:ConcatV2] name: concat'
    """
    kernel = kernel_name(op_name, dtype)
    label = "".join(f"_{attr}_{n}" for attr, n in counts)
    underscore = "_" if kernel.startswith("_") else ""  # TF escapes a leading underscore
    text = (f"{{{{function_node __wrapped__{underscore}{kernel}{label}_device_{EAGER_DEVICE}}}}} "
            f"{message} [Op:{op_name}]")
    return text if name is None else f"{text} name: {name}"


def bare_message(message):
    """`message` without what TF's eager form adds around it (see `eager_message`).

    >>> bare_message(eager_message("Boom", "Sum", name=""))
    'Boom'
    """
    return split_tag(message)[0]


def split_tag(message):
    """``(text, op name)``: `message` without TF's eager form around it, and the op its
    ``[Op:X]`` tag names (None when it has none)."""
    found = _EAGER_FORM.fullmatch(message)
    return (message, None) if found is None else found.groups()


class ScopeName(str):
    """An op's default name that TF's Python wrapper opens a name scope with: a graph names
    the op by it, but eagerly the scope yields `eager` (``""`` mostly), which TF's error
    text ends with (see `eager_message`)."""

    def __new__(cls, name, eager=""):
        self = super().__new__(cls, name)
        self.eager = eager
        return self


def eager_error(cls, op_name, message, name="", counts=()):
    """An error of class `cls` with TF's text of eager op `op_name` failing in its kernel
    (see `eager_message`), for checks eagerflow makes before it runs the op."""
    return cls(None, None, eager_message(message, op_name, counts, name))


def python_raised(error):
    """Marks `error` as one TF's Python code raises itself where eagerflow runs an op (an
    eager ``Assert``): its text stays as it is."""
    error.python_raised = True
    return error


def before_kernel(error):
    """Marks `error` (its message tagged ``[Op:X]``) as raised before op X's kernel ran, as
    TF checks inputs' dtypes: TF's eager form of it has no function prefix (see
    `eager_message`)."""
    error.before_kernel = True
    return error


def listed(error, *values):
    """`error`, an eager op's, as TF raises it when a Python list, tuple or string is among
    the `values` its Python wrapper passed on: TF runs the op on its slower path then,
    whose errors do not end with the name."""
    for v in values:
        if type(v) in _SLOW_PATH_VALUES:
            return without_name(error)
    return error


_SLOW_PATH_VALUES = (list, tuple, str, bytes)


def counted(error, op_name, attr, n):
    """`error`, eager op `op_name`'s, with TF's one-op function named by the count `n` of
    its list attr `attr` (``SplitV_num_split_2``), where the op's form does not give it."""
    text = error.message.replace(f"__wrapped__{op_name}_device_",
                                 f"__wrapped__{op_name}_{attr}_{n}_device_", 1)
    return type(error)(error.node_def, error.op, text)


def renamed(error, op_name):
    """`error`, an eager op's in TF's form, as TF's op `op_name` raises it: the op TF runs
    where eagerflow computes the same with another (a variable's scatter)."""
    found = _EAGER_FORM.fullmatch(error.message)
    if found is None:
        return error
    old = found.group(2)
    text = error.message.replace(f"__wrapped__{old}_", f"__wrapped__{op_name}_", 1)
    at = text.rfind(f"[Op:{old}]")
    text = f"{text[:at]}[Op:{op_name}]{text[at + len(old) + 5:]}"
    return type(error)(error.node_def, error.op, text)


def scoped(error):
    """`error`, an eager op's, as TF raises it from a Python wrapper that opens a name scope
    (``matmul``, ``add``, ``cast``): eagerly the scope yields "", whatever name was given,
    and the text ends with an empty name."""
    text = error.message
    at = text.rfind("] name: ")
    if at < 0 or "[Op:" not in text[:at] or text.endswith("] name: "):
        return error
    return type(error)(error.node_def, error.op, text[:at + 8])


def without_name(error):
    """`error` (an eager op's) without TF's `` name: ...`` ending: the form of ops that TF's
    Python wrapper runs on its slower path, as it does when given a Python list."""
    text = error.message
    at = text.rfind("] name: ")
    if at < 0 or "[Op:" not in text[:at]:
        return error
    return type(error)(error.node_def, error.op, text[:at + 1])


def shape_text(shape):
    """A shape as TensorFlow writes it in messages (``?`` for an unknown dim).

    >>> shape_text((2, None))
    '[2,?]'
    """
    return "[" + ",".join("?" if d is None else str(d) for d in shape) + "]"

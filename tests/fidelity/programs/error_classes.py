import tensorflow as tf

print(issubclass(tf.errors.InvalidArgumentError, tf.errors.OpError))
print(issubclass(tf.errors.OpError, Exception), issubclass(tf.errors.InvalidArgumentError, ValueError))
for cls in [tf.errors.CancelledError, tf.errors.UnknownError, tf.errors.InvalidArgumentError,
            tf.errors.DeadlineExceededError, tf.errors.NotFoundError, tf.errors.AlreadyExistsError,
            tf.errors.PermissionDeniedError, tf.errors.ResourceExhaustedError,
            tf.errors.FailedPreconditionError, tf.errors.AbortedError, tf.errors.OutOfRangeError,
            tf.errors.UnimplementedError, tf.errors.InternalError, tf.errors.UnavailableError,
            tf.errors.DataLossError, tf.errors.UnauthenticatedError]:
    e = cls(None, None, "msg")
    print(cls.__name__, e.error_code, e.message, str(e), e.node_def, e.op)
print(tf.errors.OK, tf.errors.INVALID_ARGUMENT, tf.errors.OUT_OF_RANGE, tf.errors.UNIMPLEMENTED)
try:
    tf.constant([1, 2]) + tf.constant([1, 2, 3])
except tf.errors.InvalidArgumentError as e:
    print(type(e).__name__, e.error_code, isinstance(e, tf.errors.OpError))
    print(e.message.split(" [Op:")[0].split("}} ")[-1])
try:
    tf.reshape(tf.range(6), [4, 2])
except tf.errors.OpError as e:
    print(type(e).__name__, e.error_code)
try:
    tf.gather([1, 2, 3], [5])
except tf.errors.InvalidArgumentError as e:
    print(e.message.split(" [Op:")[0].split("}} ")[-1])
try:
    tf.linalg.inv(tf.zeros([2, 2]))
except tf.errors.OpError as e:
    print(type(e).__name__)
try:
    tf.cast(tf.constant(["1"]), tf.int32)
except tf.errors.UnimplementedError as e:
    print(type(e).__name__)
try:
    tf.constant([1, 2])[3]
except Exception as e:
    print(type(e).__name__, e.message.split(" [Op:")[0].split("}} ")[-1])
try:
    tf.matmul(tf.ones([2, 3]), tf.ones([2, 3]))
except Exception as e:
    print(type(e).__name__)
try:
    tf.zeros([2]) + tf.zeros([2], tf.int32)
except Exception as e:
    print(type(e).__name__, e.message.split(" [Op:")[0].split("}} ")[-1])
try:
    raise tf.errors.OutOfRangeError(None, None, "end of sequence")
except tf.errors.OpError as e:
    print(type(e).__name__, e.message)
print(tf.errors.exception_type_from_error_code(3).__name__ if hasattr(tf.errors, "exception_type_from_error_code") else "skip")

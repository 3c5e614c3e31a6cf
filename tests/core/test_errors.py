import pickle

import pytest

import eagerflow as tf
from tests.internals import exception_type_from_error_code


@pytest.mark.parametrize("cls, code", [
    (tf.errors.InvalidArgumentError, tf.errors.INVALID_ARGUMENT),
    (tf.errors.OutOfRangeError, tf.errors.OUT_OF_RANGE),
    (tf.errors.NotFoundError, tf.errors.NOT_FOUND),
    (tf.errors.UnimplementedError, tf.errors.UNIMPLEMENTED),
    (tf.errors.ResourceExhaustedError, tf.errors.RESOURCE_EXHAUSTED),
    (tf.errors.FailedPreconditionError, tf.errors.FAILED_PRECONDITION),
    (tf.errors.InternalError, tf.errors.INTERNAL),
])
def test_hierarchy_and_codes(cls, code):
    e = cls(None, None, "boom")
    assert isinstance(e, tf.errors.OpError) and isinstance(e, Exception)
    assert e.error_code == code and e.message == "boom" and str(e) == "boom"
    assert exception_type_from_error_code(code) is cls
    assert type(pickle.loads(pickle.dumps(e))) is cls


def test_op_errors_name_the_op():
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.constant([1.0, 2.0]) + tf.constant([1.0, 2.0, 3.0])
    assert info.value.op == "AddV2" and str(info.value).endswith("[Op:AddV2]")


def test_error_classes_print_as_public_names():
    """A traceback names the class as users import it, and pickling finds it there."""
    import traceback
    try:
        tf.constant(1) + tf.constant(1.0)
    except tf.errors.InvalidArgumentError:
        text = traceback.format_exc()
    assert "eagerflow.errors.InvalidArgumentError: cannot compute AddV2" in text
    for cls in (tf.errors.OpError, tf.errors.NotFoundError, tf.errors.DataLossError,
                tf.errors.OperatorNotAllowedInGraphError):
        assert cls.__module__ == "eagerflow.errors"
        assert getattr(tf.errors, cls.__name__) is cls
    err = pickle.loads(pickle.dumps(tf.errors.NotFoundError(None, None, "gone")))
    assert type(err) is tf.errors.NotFoundError and str(err) == "gone"

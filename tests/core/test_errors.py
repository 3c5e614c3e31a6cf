import pickle

import pytest

import eagerflow as tf
from tests.internals import exception_type_from_error_code
from tests.op_errors import prefix


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
    assert info.value.op is None and str(info.value).endswith("[Op:AddV2] name: ")


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


# -- the text of eager ops' errors, as TF 2.21 writes it (see also the fidelity program
# eager_error_messages, recorded from TF) ------------------------------------------------

_A = tf.ones([2, 3])
_I = tf.constant([1, 2, 3])


@pytest.mark.parametrize("call, text", [
    # a kernel's failure: the one-op function TF ran (oneDNN's kernel for MatMul), the op,
    # then the name its Python wrapper gave (none: an empty one)
    (lambda: tf.matmul(_A, _A), prefix("__MklMatMul") + "Matrix size-incompatible: In[0]: [2,3], "
                                "In[1]: [2,3] [Op:MatMul] name: "),
    # float16 runs on TF's default kernels (oneDNN takes it only on CPUs with float16 math)
    (lambda: tf.matmul(tf.ones([2, 3], tf.float16), tf.ones([2, 3], tf.float16)),
     prefix("MatMul") + "Matrix size-incompatible: In[0]: [2,3], In[1]: [2,3] [Op:MatMul] "
                        "name: "),
    # lists of inputs or outputs size the function's name; concat's wrapper names it
    (lambda: tf.concat([_A, tf.ones([3])], 0), prefix("ConcatV2_N_2") + "ConcatOp : Ranks of all "
     "input tensors should match: shape[0] = [2,3] vs. shape[1] = [3] [Op:ConcatV2] name: concat"),
    (lambda: tf.unstack(_A, num=3), prefix("Unpack_num_3") + "Input shape axis 0 must equal 3, "
     "got shape [2,3] [Op:Unpack] name: unstack"),
    (lambda: tf.gather(_I, 7, name="g"),
     prefix("GatherV2") + "indices = 7 is not in [0, 3) [Op:GatherV2] name: g"),
    # a Python list given to the wrapper: TF's slower path, whose text has no name
    (lambda: tf.reshape(_A, [4]), prefix("Reshape") + "Input to reshape is a tensor with 6 "
     "values, but the requested shape has 4 [Op:Reshape]"),
    (lambda: tf.reshape(_A, tf.constant([4])), prefix("Reshape") + "Input to reshape is a tensor "
     "with 6 values, but the requested shape has 4 [Op:Reshape] name: "),
    (lambda: tf.transpose(_A, [0, 2]),
     prefix("Transpose") + "2 is out of range [0 .. 2) [Op:Transpose]"),
    # operators and wrappers that open a name scope: eagerly it yields "" (or its own name)
    (lambda: _A + tf.ones([4]),
     prefix("AddV2") + "Incompatible shapes: [2,3] vs. [4] [Op:AddV2] name: "),
    (lambda: _I // 0, prefix("FloorDiv") + "Integer division by zero [Op:FloorDiv] name: "),
    (lambda: _I[5], prefix("StridedSlice") + "slice index 5 of dimension 0 out of bounds. "
     "[Op:StridedSlice] name: strided_slice/"),
    # checks eagerflow makes before the kernel runs read as the kernel's
    (lambda: tf.cast(tf.constant(["x"]), tf.int32),
     prefix("Cast") + "Cast string to int32 is not supported [Op:Cast] name: "),
    (lambda: tf.zeros([-1]), prefix("Fill") + "Dimension -1 must be >= 0 [Op:Fill] name: "),
    (lambda: tf.fill([-1], 1), prefix("Fill") + "Dimension -1 must be >= 0 [Op:Fill]"),
    (lambda: tf.one_hot([1], -2), prefix("OneHot") + "depth must be non-negative, got: -2 "
     "[Op:OneHot]"),
    (lambda: tf.one_hot(tf.constant([1]), -2), prefix("OneHot") + "depth must be non-negative, "
     "got: -2 [Op:OneHot] name: "),
    # inputs of the wrong dtype fail before any kernel: no function prefix
    (lambda: tf.constant(1) + tf.constant(1.0), "cannot compute AddV2 as input #1(zero-based) was "
     "expected to be a int32 tensor but is a float tensor [Op:AddV2] name: "),
    (lambda: tf.matmul(_A, tf.ones([3, 2], tf.int32)), "cannot compute _MklMatMul as input "
     "#1(zero-based) was expected to be a float tensor but is a int32 tensor [Op:MatMul] name: "),
    # an eager Assert raises from TF's Python code
    (lambda: tf.debugging.Assert(False, ["boom"]),
     "Expected 'False' to be true. Summarized data: b'boom'"),
    (lambda: tf.Variable([1.0, 2.0]).assign_add([1.0, 2.0, 3.0]),
     prefix("AssignAddVariableOp") + "Cannot update variable with shape [2] using a Tensor with "
     "shape [3], shapes must be equal. [Op:AssignAddVariableOp] name: "),
])
def test_eager_op_errors_read_as_in_tensorflow(call, text):
    with pytest.raises(tf.errors.OpError) as info:
        call()
    error = info.value
    assert str(error) == error.message == text
    assert error.op is None and error.node_def is None and error.args == ()
    assert repr(error) == f"{type(error).__name__}()"


def test_error_codes_follow_the_class_and_survive_pickling():
    error = tf.errors.UnknownError(None, None, "boom", 7)
    assert error.error_code == tf.errors.UNKNOWN
    assert tf.errors.OpError(None, None, "m", 5).error_code == 5
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.matmul(_A, _A)
    copy = pickle.loads(pickle.dumps(info.value))
    assert type(copy) is tf.errors.InvalidArgumentError and copy.message == info.value.message
    assert pickle.loads(pickle.dumps(tf.errors.OpError(None, None, "m", 5))).error_code == 5
    assert info.value.experimental_payloads == {}


def test_error_constructors_take_tfs_required_arguments():
    # a lone message is no error's whole text: TF's constructors refuse it
    with pytest.raises(TypeError, match=r"InvalidArgumentError.__init__\(\) missing 2 required "
                       r"positional arguments: 'op' and 'message'"):
        tf.errors.InvalidArgumentError("bad")
    with pytest.raises(TypeError, match="missing 1 required positional argument: 'error_code'"):
        tf.errors.OpError(None, None, "m")
    e = tf.errors.NotFoundError(node_def=None, op=None, message="gone")
    assert (str(e), e.error_code) == ("gone", tf.errors.NOT_FOUND)


@pytest.mark.parametrize("call, text", [
    (lambda v: v.scatter_nd_update([[5]], [1.0]), prefix("ResourceScatterNdUpdate")
     + "indices[0] = [5] does not index into shape [2] [Op:ResourceScatterNdUpdate]"),
    (lambda v: v.scatter_nd_add([[5]], [1.0]), prefix("ResourceScatterNdAdd")
     + "indices[0] = [5] does not index into shape [2] [Op:ResourceScatterNdAdd]"),
    (lambda v: v.scatter_nd_sub(tf.constant([[5]]), tf.constant([1.0])),
     prefix("ResourceScatterNdSub")
     + "indices[0] = [5] does not index into shape [2] [Op:ResourceScatterNdSub] name: "),
    (lambda v: v.scatter_update(tf.IndexedSlices([1.0], [5])), prefix("ResourceScatterUpdate")
     + "indices[0] = 5 is not in [0, 2) [Op:ResourceScatterUpdate]"),
    (lambda v: v.scatter_add(tf.IndexedSlices([1.0], tf.constant([-1]))),
     prefix("ResourceScatterAdd") + "indices[0] = -1 is not in [0, 2) [Op:ResourceScatterAdd] "
                                    "name: "),
    (lambda v: v.sparse_read([5]),
     prefix("ResourceGather") + "indices[0] = 5 is not in [0, 2) [Op:ResourceGather]"),
    (lambda v: tf.gather(v, 5),
     prefix("ResourceGather") + "indices = 5 is not in [0, 2) [Op:ResourceGather] name: "),
])
def test_variable_scatters_and_reads_name_tensorflows_ops(call, text):
    v = tf.Variable([1.0, 2.0])
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        call(v)
    assert str(info.value) == text
    assert v.numpy().tolist() == [1.0, 2.0]

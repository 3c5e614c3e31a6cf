"""``tf.raw_ops`` of variables by name: ``VarHandleOp`` makes a handle naming a variable,
which its first ``AssignVariableOp`` creates and ``DestroyResourceOp`` deletes, with TF's
errors for reading or updating a variable that does not exist; eagerly and in a `function`."""
import numpy as np
import pytest

import eagerflow as tf

R = tf.raw_ops


def _handle(name, dtype=tf.float32, shape=(2,)):
    return R.VarHandleOp(dtype=dtype, shape=shape, shared_name=name)


def test_a_named_variable_is_made_by_its_first_assignment_and_deleted_by_destroy():
    h = _handle("raw_v1")
    assert h.dtype == tf.resource and h.shape == ()
    assert not R.VarIsInitializedOp(resource=h).numpy()
    with pytest.raises(tf.errors.FailedPreconditionError,
                       match="Could not find variable raw_v1. This could mean that the "
                             "variable has been deleted.*Resource localhost/raw_v1/"
                             "N10tensorflow3VarE does not exist"):
        R.ReadVariableOp(resource=h, dtype=tf.float32)
    assert R.AssignVariableOp(resource=h, value=[1.0, 2.0]) is None
    assert R.VarIsInitializedOp(resource=h).numpy()
    R.AssignAddVariableOp(resource=h, value=[1.0, 1.0])
    R.AssignSubVariableOp(resource=h, value=[0.5, 0.5])
    read = R.ReadVariableOp(resource=h, dtype=tf.float32)
    assert read.dtype == tf.float32 and read.numpy().tolist() == [1.5, 2.5]
    assert R.ResourceGather(resource=h, indices=[1, 0], dtype=tf.float32).numpy().tolist() \
        == [2.5, 1.5]
    # another handle of the same name reaches the same variable
    assert R.ReadVariableOp(resource=_handle("raw_v1"), dtype=tf.float32).numpy()[0] == 1.5
    assert R.DestroyResourceOp(resource=h) is None
    assert not R.VarIsInitializedOp(resource=h).numpy()
    with pytest.raises(tf.errors.FailedPreconditionError, match="Could not find variable"):
        R.ReadVariableOp(resource=h, dtype=tf.float32)
    with pytest.raises(tf.errors.NotFoundError,
                       match="Resource localhost/raw_v1/N10tensorflow3VarE does not exist"):
        R.AssignAddVariableOp(resource=h, value=[1.0, 1.0])
    R.DestroyResourceOp(resource=h)  # (ignore_lookup_error=True by default)
    with pytest.raises(tf.errors.NotFoundError, match="raw_v1"):
        R.DestroyResourceOp(resource=h, ignore_lookup_error=False)
    R.AssignVariableOp(resource=h, value=[3.0])  # made again, of any shape
    assert R.ReadVariableOp(resource=h, dtype=tf.float32).numpy().tolist() == [3.0]


def test_writes_of_another_dtype_than_the_variables_are_refused():
    h = _handle("raw_v2")
    R.AssignVariableOp(resource=h, value=tf.constant([1, 2]))  # (the first value's dtype)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Trying to assign variable with wrong dtype. Expected int32 got "
                             "float"):
        R.AssignVariableOp(resource=h, value=[1.0, 2.0])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Trying to read variable with wrong dtype. Expected float got "
                             "int32"):
        R.ReadVariableOp(resource=h, dtype=tf.float32)
    v = tf.Variable([1.0, 2.0])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Expected float got int32"):
        R.AssignVariableOp(resource=v.handle, value=[1, 2])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="DType of variable handle and value does not match"):
        R.AssignAddVariableOp(resource=v.handle, value=[1, 2])
    assert v.numpy().dtype == np.float32 and v.numpy().tolist() == [1.0, 2.0]


@pytest.mark.parametrize("initial, delta", [("a", "b"), (True, True)])
def test_adding_to_a_string_or_bool_variable_has_no_kernel(initial, delta):
    v = tf.Variable(initial)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"^No OpKernel was registered to support Op 'AssignAddVariableOp' "
                             r"used by \{\{node AssignAddVariableOp\}\} with these attrs: "
                             r"\[dtype=DT_(STRING|BOOL)\]\n(.|\n)*\[Op:AssignAddVariableOp\] "
                             r"name: $"):
        v.assign_add(delta)
    with pytest.raises(tf.errors.InvalidArgumentError, match="AssignSubVariableOp"):
        v.assign_sub(delta)
    assert v.numpy() == (b"a" if initial == "a" else True)


def test_named_variables_in_a_function():
    @tf.function
    def count():
        h = R.VarHandleOp(dtype=tf.int64, shape=[], shared_name="raw_counter")
        if_made = R.VarIsInitializedOp(resource=h)
        R.AssignVariableOp(resource=h, value=tf.constant(10, tf.int64))
        R.AssignAddVariableOp(resource=h, value=tf.constant(1, tf.int64))
        return if_made, R.ReadVariableOp(resource=h, dtype=tf.int64)

    made, value = count()
    assert not made.numpy() and value.dtype == tf.int64 and value.numpy() == 11
    assert count()[0].numpy()
    eager = R.VarHandleOp(dtype=tf.int64, shape=[], shared_name="raw_counter")
    assert R.ReadVariableOp(resource=eager, dtype=tf.int64).numpy() == 11

    @tf.function
    def unset():
        h = R.VarHandleOp(dtype=tf.float32, shape=[], shared_name="raw_never_set")
        return R.ReadVariableOp(resource=h, dtype=tf.float32)
    with pytest.raises(tf.errors.FailedPreconditionError, match="raw_never_set"):
        unset()


def test_an_eager_handle_captured_by_a_function():
    h = _handle("raw_captured")
    R.AssignVariableOp(resource=h, value=[1.0, 2.0])

    @tf.function
    def bump(x):
        R.AssignAddVariableOp(resource=h, value=x)
        return R.ReadVariableOp(resource=h, dtype=tf.float32)
    assert bump(tf.constant([1.0, 1.0])).numpy().tolist() == [2.0, 3.0]
    assert bump(tf.constant([1.0, 1.0])).numpy().tolist() == [3.0, 4.0]
    assert bump.get_concrete_function(tf.constant([1.0, 1.0])).output_shapes == [2]
    assert len(bump.get_concrete_function(tf.constant([1.0, 1.0])).captured_inputs) == 1


def test_a_handle_prints_as_tfs_and_passes_out_of_a_function():
    h = R.VarHandleOp(dtype=tf.float32, shape=[2, 3], shared_name="raw_printed")
    assert str(h) == (
        'tf.Tensor(<ResourceHandle(name="raw_printed", device="/job:localhost/replica:0/task:0/'
        'device:CPU:0", container="localhost", type="tensorflow::Var", dtype and shapes : '
        '"[ DType enum: 1, Shape: [2,3] ]")>, shape=(), dtype=resource)')

    @tf.function
    def make():
        made = R.VarHandleOp(dtype=tf.float32, shape=[], shared_name="")
        R.AssignVariableOp(resource=made, value=3.0)
        return made

    @tf.function
    def twice(handle):
        return R.ReadVariableOp(resource=handle, dtype=tf.float32) * 2
    made = make()
    assert made.dtype == tf.resource
    assert R.ReadVariableOp(resource=made, dtype=tf.float32).numpy() == 3.0
    assert twice(made).numpy() == 6.0


ROWS = [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]


@pytest.mark.parametrize("op, want, scalar", [
    # TF 2.21's values: rows 0, 2, 0 updated by [1, 1], [2, 2], [3, 3]; row 1 by 10.0
    ("ResourceScatterAdd", [[5, 6], [3, 4], [7, 8]], [[1, 2], [13, 14], [5, 6]]),
    ("ResourceScatterSub", [[-3, -2], [3, 4], [3, 4]], [[1, 2], [-7, -6], [5, 6]]),
    ("ResourceScatterMul", [[3, 6], [3, 4], [10, 12]], [[1, 2], [30, 40], [5, 6]]),
    ("ResourceScatterDiv", [[1 / 3, 2 / 3], [3, 4], [2.5, 3]], [[1, 2], [0.3, 0.4], [5, 6]]),
    ("ResourceScatterMin", [[1, 1], [3, 4], [2, 2]], ROWS),
    ("ResourceScatterMax", [[3, 3], [3, 4], [5, 6]], [[1, 2], [10, 10], [5, 6]]),
    ("ResourceScatterUpdate", [[3, 3], [3, 4], [2, 2]], [[1, 2], [10, 10], [5, 6]]),
])
def test_scatter_updates_of_a_variables_rows(op, want, scalar):
    v = tf.Variable(ROWS)
    assert getattr(R, op)(resource=v.handle, indices=[0, 2, 0],
                          updates=[[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]]) is None
    np.testing.assert_allclose(v.numpy(), want, rtol=1e-6)
    v.assign(ROWS)
    getattr(R, op)(resource=v.handle, indices=[1], updates=10.0)
    np.testing.assert_allclose(v.numpy(), scalar, rtol=1e-6)


def test_scatter_errors_and_variable_shape():
    v = tf.Variable(ROWS)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"indices\[0\] = 5 is not in \[0, 3\) \[Op:ResourceScatterAdd\]"):
        R.ResourceScatterAdd(resource=v.handle, indices=[5], updates=[[1.0, 1.0]])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="DType of scatter resource and updates does not match"):
        R.ResourceScatterAdd(resource=v.handle, indices=[0], updates=[[1, 1]])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Must have updates.shape"):
        R.ResourceScatterAdd(resource=v.handle, indices=[0], updates=[[1.0, 1.0, 1.0]])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Value for attr 'dtype' of string is not in the list"):
        R.ResourceScatterAdd(resource=tf.Variable(["a"]).handle, indices=[0], updates=["z"])
    words = tf.Variable(["a", "b"])
    R.ResourceScatterUpdate(resource=words.handle, indices=[1], updates=["z"])
    assert words.numpy().tolist() == [b"a", b"z"]
    np.testing.assert_array_equal(v.numpy(), ROWS)
    shape = R.VariableShape(input=v.handle)
    assert shape.dtype == tf.int32 and shape.numpy().tolist() == [3, 2]
    assert R.VariableShape(input=v.handle, out_type=tf.int64).dtype == tf.int64

    @tf.function
    def add_rows(i):
        R.ResourceScatterAdd(resource=v.handle, indices=i, updates=tf.ones([tf.size(i), 2]))
        return R.VariableShape(input=v.handle), v.read_value()
    shape, value = add_rows(tf.constant([0, 0]))
    assert shape.numpy().tolist() == [3, 2] and value.numpy()[0].tolist() == [3.0, 4.0]


def test_a_handle_outlives_its_variable_object():
    h = tf.Variable([1.0, 2.0]).handle  # (the variable object is gone; its value is not)
    R.AssignAddVariableOp(resource=h, value=[1.0, 1.0])
    assert R.ReadVariableOp(resource=h, dtype=tf.float32).numpy().tolist() == [2.0, 3.0]
    assert R.VariableShape(input=h).numpy().tolist() == [2]


def test_an_optimizer_update_of_a_variable_made_by_name_in_a_function():
    h = R.VarHandleOp(dtype=tf.float32, shape=[2], shared_name="raw_trained")
    R.AssignVariableOp(resource=h, value=[1.0, 1.0])

    @tf.function
    def step():
        R.ResourceApplyGradientDescent(var=h, alpha=0.5, delta=tf.constant([1.0, 2.0]))
        return R.ReadVariableOp(resource=h, dtype=tf.float32)
    assert step().numpy().tolist() == [0.5, 0.0]
    R.ResourceApplyGradientDescent(var=h, alpha=1.0, delta=tf.constant([0.5, 0.5]))
    assert R.ReadVariableOp(resource=h, dtype=tf.float32).numpy().tolist() == [0.0, -0.5]

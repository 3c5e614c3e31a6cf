import copy
import re

import numpy as np
import pytest

import eagerflow as tf


def test_repr_and_names():
    v = tf.Variable(1.0)
    assert repr(v) == "<tf.Variable 'Variable:0' shape=() dtype=float32, numpy=1.0>"
    assert str(tf.Variable([1, 2])) == ("<tf.Variable 'Variable:0' shape=(2,) dtype=int32, "
                                        "numpy=array([1, 2], dtype=int32)>")
    assert tf.Variable(1.0, name="a").name == "a:0" == tf.Variable(2.0, name="a").name
    with tf.name_scope("outer"):
        with tf.name_scope("inner") as scope:
            assert scope == "outer/inner/"
            assert tf.Variable(1.0, name="w").name == "outer/inner/w:0"


def test_assign_family_chains():
    v = tf.Variable(1.0)
    r = v.assign(2.0)
    assert repr(r) == "<tf.Variable 'UnreadVariable' shape=() dtype=float32, numpy=2.0>"
    assert v.assign(3.0, read_value=False) is None
    v.assign_add(1).assign_sub(0.5)
    assert v.numpy() == 3.5
    assert v.assign(np.float64(2)).numpy() == 2.0


def test_assign_errors():
    v = tf.Variable([1.0, 2.0])
    with pytest.raises(ValueError, match="Shape mismatch"):
        v.assign([1.0, 2.0, 3.0])
    with pytest.raises(TypeError, match="Cannot convert 'a'"):
        v.assign("a")
    with pytest.raises(ValueError, match="initial_value"):
        tf.Variable(None)


def test_partial_shape_allows_resizing():
    v = tf.Variable([1.0, 2.0], shape=[None])
    v.assign([1.0, 2.0, 3.0])
    assert v.shape.as_list() == [None] and v.numpy().tolist() == [1.0, 2.0, 3.0]
    assert tf.Variable(1.0, shape=tf.TensorShape(None)).shape.rank is None


def test_behaves_as_tensor():
    v = tf.Variable([1.0, 2.0])
    assert (v + 1).numpy().tolist() == [2.0, 3.0] and (1 + v).dtype == tf.float32
    assert (v * v).numpy().tolist() == [1.0, 4.0]
    assert tf.multiply(2, v).numpy().tolist() == [2.0, 4.0]
    assert v[1].numpy() == 2.0
    assert np.asarray(v).tolist() == [1.0, 2.0]
    assert int(tf.Variable(3)) == 3 and float(tf.Variable(2.5)) == 2.5
    assert isinstance(tf.convert_to_tensor(v), tf.Tensor)
    with pytest.raises(ValueError, match="Incompatible type conversion"):
        tf.convert_to_tensor(v, dtype=tf.int32)
    with pytest.raises(TypeError, match="Variable is unhashable"):
        hash(v)


def test_reads_are_snapshots():
    v = tf.Variable([1.0, 2.0])
    before = v.value()
    v.assign_add([1.0, 1.0])
    assert before.numpy().tolist() == [1.0, 2.0] and v.numpy().tolist() == [2.0, 3.0]


def test_init_options():
    assert tf.Variable(lambda: tf.ones([2])).numpy().tolist() == [1.0, 1.0]
    assert tf.Variable([1, 2], dtype=tf.float32).dtype == tf.float32
    assert not tf.Variable(1.0, trainable=False).trainable
    v = tf.Variable(1.0, constraint=lambda x: x)
    assert callable(v.constraint)
    assert v.synchronization == tf.VariableSynchronization.AUTO
    assert v.aggregation == tf.VariableAggregation.NONE
    with pytest.raises(ValueError, match="constraint"):
        tf.Variable(1.0, constraint=3)


def test_deepcopy_is_independent():
    v = tf.Variable(2.0)
    w = copy.deepcopy(v)
    w.assign(100.0)
    assert v.numpy() == 2.0 and w.numpy() == 100.0


def test_copy_is_the_variable_itself():
    v = tf.Variable([1.0, 2.0], name="w", trainable=False)
    assert copy.copy(v) is v
    w = copy.deepcopy(v)
    assert w is not v and w.name == "w:0" and not w.trainable


def test_variables_compare_elementwise_with_variables():
    a = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
    b = tf.Variable([[1.0, 0.0], [0.0, 4.0]])
    assert (a == b).numpy().tolist() == [[True, False], [False, True]]
    assert (a != b).numpy().tolist() == [[False, True], [True, False]]
    assert (a == a).numpy().all() and (tf.constant(1.0) == b).numpy().tolist() == [
        [True, False], [False, False]]
    assert (a == tf.Variable([1.0, 2.0, 3.0])).numpy().tolist() is False  # (unbroadcastable)


def test_set_shape_narrows_the_static_shape():
    v = tf.Variable([1.0, 2.0], shape=tf.TensorShape(None))
    assert v.set_shape([2]) is None and v.shape == [2]
    with pytest.raises(ValueError, match="not compatible"):
        v.set_shape([3])
    with pytest.raises(ValueError, match="Shape mismatch"):
        v.assign([1.0, 2.0, 3.0])


def test_module_collects_variables():
    class Block(tf.Module):
        def __init__(self):
            super().__init__()
            self.b = tf.Variable(1.0, name="b")
            self.a = [tf.Variable(2.0, name="a", trainable=False)]
            self.sub = tf.Module(name="sub")
            self.sub.w = tf.Variable(3.0, name="w")
            self.alias = self.b

    m = Block()
    assert m.name == "block" and m.name_scope.name == "block/"
    # as in TF, __init__ does not enter the module's name scope by itself
    assert [v.name for v in m.variables] == ["a:0", "b:0", "w:0"]
    assert [v.name for v in m.trainable_variables] == ["b:0", "w:0"]
    with m.name_scope:
        assert tf.Variable(0.0, name="v").name == "block/v:0"
    assert m.submodules == (m.sub,)
    with pytest.raises(ValueError, match="valid module name"):
        tf.Module(name="not valid")


def test_variables_hold_their_values_row_major():
    """Optimizers update a variable in place, several times slower on a transposed
    (column-major) array: an initial or assigned value laid out so is stored row by row."""
    q = tf.keras.initializers.Orthogonal(seed=1)((6, 6))  # (a transposed QR factor)
    v = tf.Variable(q)
    np.testing.assert_array_equal(v.numpy(), q.numpy())
    assert v._handle.value.flags.c_contiguous
    v.assign(np.asfortranarray(np.arange(36, dtype=np.float32).reshape(6, 6)))
    assert v._handle.value.flags.c_contiguous
    np.testing.assert_array_equal(v.numpy(), np.arange(36).reshape(6, 6))
    layer = tf.keras.layers.LSTM(4)
    layer.build((None, 3, 2))
    assert all(w._handle.value.flags.c_contiguous for w in layer.weights)


def test_write_without_read_returns_operation_in_function_and_none_eagerly():
    v = tf.Variable(1.0)
    assert v.assign(2.0, read_value=False) is None
    assert v.assign_add(1.0, read_value=False) is None
    assert v.assign_sub(1.0, read_value=False) is None
    types = []

    @tf.function
    def f():
        ops = [v.assign(5.0, read_value=False), v.assign_add(1.0, read_value=False),
               v.assign_sub(2.0, read_value=False)]
        types.extend(op.type for op in ops)
        with tf.control_dependencies(ops):
            return v.read_value()

    assert float(f()) == 4.0
    assert types == ["AssignVariableOp", "AssignAddVariableOp", "AssignSubVariableOp"]


def test_variables_are_resource_variables_as_in_tf():
    v = tf.Variable(1.0)
    assert type(v).__name__ == "ResourceVariable" and type(v) is not tf.Variable
    assert isinstance(v, tf.Variable) and issubclass(type(v), tf.Variable)
    assert type(tf.Variable([1, 2], trainable=False)).__name__ == "ResourceVariable"
    with pytest.raises(TypeError, match="object of type 'ResourceVariable' has no len"):
        len(v)
    assert type(copy.deepcopy(v)).__name__ == "ResourceVariable"


def test_formatting_a_variable_gives_its_repr_and_takes_no_spec():
    # As TF: unlike a tensor's, a variable's f-string is its str(), and a spec is an error
    v = tf.Variable(0.5)
    assert f"{v}" == str(v) == "<tf.Variable 'Variable:0' shape=() dtype=float32, numpy=0.5>"
    assert format(tf.Variable([1, 2])) == str(tf.Variable([1, 2]))
    with pytest.raises(TypeError, match=r"^unsupported format string passed to "
                                        r"ResourceVariable.__format__$"):
        f"{v:.3f}"
    assert f"{v.value():.3f}" == "0.500" and f"{tf.constant(0.5)}" == "0.5"


def test_validate_shape_false_keeps_the_initial_shape_eagerly():
    v = tf.Variable([1, 2], validate_shape=False)
    assert v.shape == (2,)
    with pytest.raises(ValueError, match="Shape mismatch"):
        v.assign([1, 2, 3])
    w = tf.Variable([1, 2], shape=tf.TensorShape(None))  # the way to change shape
    w.assign([1, 2, 3])
    assert w.shape.rank is None and w.numpy().tolist() == [1, 2, 3]


@pytest.mark.parametrize("statement, message", [
    ("v += 1.0", "`variable += value` with `tf.Variable`s is not supported. Use "
                 "`variable.assign_add(value)` to modify the variable, or `out = variable + "
                 "value` if you need to get a new output Tensor."),
    ("v -= 1.0", "`variable -= value` with `tf.Variable`s is not supported. Use "
                 "`variable.assign_sub(value)`"),
    ("v *= 2.0", "`var *= value` with `tf.Variable`s is not supported. Use `var.assign(var * "
                 "value)`"),
    ("v /= 2.0", "`var /= value` with `tf.Variable`s is not supported."),
    ("v **= 2.0", "`var **= value` with `tf.Variable`s is not supported.")])
def test_augmented_assignment_to_a_variable_raises_tfs_runtime_error(statement, message):
    # it rebound the name to a tensor and left the variable as it was
    v = tf.Variable([4.0])
    scope = {"v": v}
    with pytest.raises(RuntimeError, match=re.escape(message)):
        exec(statement, scope)
    with pytest.raises(RuntimeError, match=re.escape(message)):
        exec(statement, {"v": v.assign([3.0])})
    assert v.numpy().tolist() == [3.0]

    def traced(w):
        exec(statement, {"v": w})
    with pytest.raises(RuntimeError, match=re.escape(message)):
        tf.function(traced)(v)


def test_augmented_assignment_still_rebinds_other_operands():
    v = tf.Variable([[4]])
    w = v
    w //= 2  # TF's variables define no in-place floor division: a new tensor
    assert not isinstance(w, tf.Variable) and w.numpy().tolist() == [[2]]
    x = v.read_value()
    x += 1
    assert x.numpy().tolist() == [[5]] and v.numpy().tolist() == [[4]]
    with tf.distribute.MirroredStrategy(["/cpu:0"]).scope():
        m = tf.Variable(1.0)
    m += 1.0  # a distributed variable takes it as m = m + 1, as TF's
    assert float(m) == 2.0 and not isinstance(m, tf.Variable)



def test_variable_handle_is_a_scalar_resource():
    v = tf.Variable([1.0, 2.0])
    assert v.handle.dtype == tf.resource and v.handle.shape == tf.TensorShape([])

    @tf.function
    def f():
        return tf.constant(v.handle.dtype == tf.resource and v.handle.shape.rank == 0)
    assert bool(f())


def test_eager_variable_has_no_op_or_graph_and_no_session_methods():
    # TF 2.21: its handle is an eager tensor, eagerly and inside a function alike
    v = tf.Variable(1.0)

    @tf.function
    def inside():
        with pytest.raises(AttributeError,
                           match="^Tensor.op is undefined when eager execution is enabled.$"):
            v.op
        return v.read_value()
    inside()
    with pytest.raises(AttributeError, match="^Tensor.graph is undefined when eager"):
        v.graph
    assert getattr(v, "op", None) is None and v.initializer is None
    for call in (v.eval, v.to_proto, lambda: v.create):
        with pytest.raises(RuntimeError,
                           match="^This operation is not supported when eager execution is "
                                 "enabled.$"):
            call()
    assert v.read_value_no_copy().numpy() == 1.0


def test_an_update_of_another_shape_fails_while_the_function_is_traced():
    w = tf.Variable([1.0, 2.0, 3.0])

    @tf.function
    def add(x):
        w.assign_add(x)
        return w.value()

    @tf.function
    def sub(x):
        w.assign_sub(x)
        return w.value()
    # TF 2.21's shape function: a ValueError naming the node, before anything runs
    with pytest.raises(ValueError, match=r"ValueError: Shapes must be equal rank, but are 1 "
                                         r"and 0 for '\{\{node AssignAddVariableOp\}\} = .* "
                                         r"with input shapes: \[\], \[\]\."):
        add(tf.constant(1.0))
    with pytest.raises(ValueError, match=r"ValueError: Dimension 0 in both shapes must be "
                                         r"equal, but are 3 and 2\. Shapes are \[3\] and "
                                         r"\[2\]\. for "
                                         r"'\{\{node AssignSubVariableOp\}\}.* with input "
                                         r"shapes: \[\], \[2\]\."):
        sub(tf.constant([1.0, 2.0]))
    assert w.numpy().tolist() == [1.0, 2.0, 3.0]
    assert add(tf.constant([1.0, 1.0, 1.0])).numpy().tolist() == [2.0, 3.0, 4.0]

    @tf.function(input_signature=[tf.TensorSpec(None, tf.float32)])
    def unknown(x):  # (checked when it runs)
        w.assign_add(x)
        return w.value()
    with pytest.raises(tf.errors.InvalidArgumentError, match="Cannot update variable"):
        unknown(tf.constant(1.0))


def test_tf1_methods_count_up_to_and_load():
    v = tf.Variable(0)
    assert [int(v.count_up_to(2)) for _ in range(2)] == [0, 1] and int(v.numpy()) == 2
    with pytest.raises(tf.errors.OutOfRangeError):
        v.count_up_to(2)
    with pytest.raises(TypeError):
        tf.Variable(0.0).count_up_to(2)
    w = tf.Variable([1.0, 2.0])
    assert w.load([3.0, 4.0]) is None and w.numpy().tolist() == [3.0, 4.0]
    with pytest.raises(ValueError):
        w.load([1.0])


def test_numpy_of_a_variable_inside_a_function_is_not_implemented():
    v = tf.Variable(3.0)

    @tf.function
    def f():
        return v.numpy()
    with pytest.raises(NotImplementedError, match="only available when eager execution"):
        f()
    assert v.numpy() == 3.0


def test_a_name_that_is_not_a_string_is_a_value_error():
    with pytest.raises(ValueError, match="must be a string"):
        tf.Variable(1.0, name=3)


def test_the_handle_names_the_variables_device():
    with tf.device("/CPU:0"):
        v = tf.Variable(1.0)
    assert v.handle.device == v.device == "/job:localhost/replica:0/task:0/device:CPU:0"


def test_a_ragged_value_is_a_value_error_for_a_variable():
    r = tf.ragged.constant([[1], [1, 2]])
    for make in (lambda: tf.Variable(r), lambda: tf.Variable(lambda: r),
                 lambda: tf.Variable([[1, 2], [3, 4]]).assign(r),
                 lambda: tf.Variable([[1, 2], [3, 4]]).assign_add(r)):
        with pytest.raises(ValueError, match="object of type 'RaggedTensor' has no len"):
            make()

"""Tests for the graphs that tf.function builds, seen through ConcreteFunction.graph."""
import os
import subprocess
import sys

import pytest

import eagerflow as tf

_ROW3 = tf.TensorSpec([None, 3], tf.float32)
_SQUARE = tf.TensorSpec([2, 2], tf.float32)


def _graph(fn, *specs):
    return tf.function(fn).get_concrete_function(*specs).graph


def _product_then_matmul(x, y):
    a = x * y
    b = a * 3.0
    return tf.matmul(b, tf.ones([3, 4])), tf.reduce_sum(a)


def _by_name(graph):
    return {op.name: op for op in graph.get_operations()}


def test_operations_listed_in_creation_order():
    graph = _graph(_product_then_matmul, _ROW3, _ROW3)
    kept = [(op.name, op.type) for op in graph.get_operations()
            if op.type in ("Placeholder", "Mul", "MatMul", "Sum")]
    assert kept == [("x", "Placeholder"), ("y", "Placeholder"), ("mul", "Mul"),
                    ("mul_1", "Mul"), ("MatMul", "MatMul"), ("Sum", "Sum")]


def test_operations_include_placeholders_and_constants():
    graph = _graph(lambda x: x * 2.0 + 1.0, tf.TensorSpec([3], tf.float32))
    types = [op.type for op in graph.get_operations()]
    assert types.count("Placeholder") == 1
    assert types.count("Const") >= 1
    assert {"Mul", "AddV2"} <= set(types)
    const = next(op for op in graph.get_operations() if op.type == "Const")
    assert list(const.inputs) == []
    assert const.outputs[0].shape.as_list() == []
    assert const.outputs[0].dtype == tf.float32


def test_op_names_are_uniquified():
    graph = _graph(_product_then_matmul, _ROW3, _ROW3)
    muls = [op.name for op in graph.get_operations() if op.type == "Mul"]
    assert muls == ["mul", "mul_1"]
    assert len({op.name for op in graph.get_operations()}) == len(graph.get_operations())


def test_op_inputs_and_outputs_are_symbolic_tensors():
    graph = _graph(_product_then_matmul, _ROW3, _ROW3)
    ops = _by_name(graph)
    mul, mul_1 = ops["mul"], ops["mul_1"]
    assert [t.name for t in mul.inputs] == ["x:0", "y:0"]
    assert [t.op.name for t in mul.inputs] == ["x", "y"]
    assert len(mul.outputs) == 1
    out = mul.outputs[0]
    assert out.name == "mul:0"
    assert out.op is mul
    assert out.dtype == tf.float32
    assert out.shape.as_list() == [None, 3]
    assert mul_1.inputs[0].name == "mul:0"
    assert mul_1.inputs[0].op is mul
    assert mul_1.outputs[0].name == "mul_1:0"


def test_placeholders_are_named_after_arguments():
    graph = _graph(lambda features, labels: features - labels, _ROW3, _ROW3)
    placeholders = [op for op in graph.get_operations() if op.type == "Placeholder"]
    assert [op.name for op in placeholders] == ["features", "labels"]
    assert [op.outputs[0].name for op in placeholders] == ["features:0", "labels:0"]
    assert all(list(op.inputs) == [] for op in placeholders)
    assert placeholders[0].outputs[0].shape.as_list() == [None, 3]


def test_unknown_dimension_propagates_through_matmul():
    graph = _graph(_product_then_matmul, _ROW3, _ROW3)
    ops = _by_name(graph)
    matmul = ops["MatMul"]
    assert matmul.type == "MatMul"
    assert matmul.inputs[1].shape.as_list() == [3, 4]
    assert matmul.outputs[0].shape.as_list() == [None, 4]
    assert matmul.outputs[0].name == "MatMul:0"
    assert ops["Sum"].outputs[0].shape.as_list() == []


def test_dtypes_propagate():
    graph = _graph(lambda x: tf.cast(x, tf.float64) * 2.0, tf.TensorSpec([2], tf.int32))
    ops = _by_name(graph)
    assert ops["x"].outputs[0].dtype == tf.int32
    assert ops["Cast"].type == "Cast"
    assert ops["Cast"].outputs[0].dtype == tf.float64
    assert ops["mul"].outputs[0].dtype == tf.float64
    assert ops["mul"].outputs[0].shape.as_list() == [2]


def test_outputs_of_concrete_function_are_graph_tensors():
    cf = tf.function(_product_then_matmul).get_concrete_function(_ROW3, _ROW3)
    names = {op.name for op in cf.graph.get_operations()}
    assert all(t.op.name in names for t in cf.outputs)
    assert [t.shape.as_list() for t in cf.outputs] == [[None, 4], []]
    assert all(t.name.endswith(":0") for t in list(cf.inputs) + list(cf.outputs))


def _names_and_types(fn, *specs):
    return [(op.name, op.type) for op in _graph(fn, *specs).get_operations()
            if op.type != "Placeholder"]


def test_operators_name_their_ops_after_the_operator():
    def f(x, y):
        return (x + y, x - y, x / y, x // y, x % y, x ** y, x @ y, x[0], -x,
                (x > y) & (y > x), (x > y) | (y > x))
    names = dict(_names_and_types(f, _SQUARE, _SQUARE))
    assert {n: names[n] for n in ("add", "sub", "truediv", "floordiv", "mod", "pow", "matmul",
                                  "strided_slice", "Neg", "and", "or")} == {
        "add": "AddV2", "sub": "Sub", "truediv": "RealDiv", "floordiv": "FloorDiv",
        "mod": "FloorMod", "pow": "Pow", "matmul": "MatMul", "strided_slice": "StridedSlice",
        "Neg": "Neg", "and": "LogicalAnd", "or": "LogicalOr"}


def test_public_functions_name_their_ops_after_the_op():
    names = _names_and_types(lambda x, y: (tf.multiply(x, y), tf.add(x, y), tf.matmul(x, y)),
                             _SQUARE, _SQUARE)
    assert names[:3] == [("Mul", "Mul"), ("Add", "AddV2"), ("MatMul", "MatMul")]


def test_python_operands_become_consts_named_after_their_op():
    def f(x):
        a = x * 2.0
        b = 3.0 - x
        with tf.name_scope("block"):
            c = tf.maximum(x, 0.0)
        return a, b, c
    assert _names_and_types(f, _SQUARE) == [
        ("mul/y", "Const"), ("mul", "Mul"), ("sub/x", "Const"), ("sub", "Sub"),
        ("block/Maximum/y", "Const"), ("block/Maximum", "Maximum"),
        ("Identity", "Identity"), ("Identity_1", "Identity"), ("Identity_2", "Identity")]


def test_a_const_used_first_by_another_op_keeps_its_name():
    def f(x):
        c = tf.constant(2.0)
        return tf.reshape(c, [1]) * x
    names = _names_and_types(f, tf.TensorSpec([1], tf.float32))
    assert names[0] == ("Const", "Const")


def test_static_value_is_partial_for_shapes_known_in_part():
    seen = {}

    def f(x):
        s = tf.shape(x)
        seen.update(shape=s, first=s[0], second=s[1], mixed=tf.stack([s[0], 4]),
                    known=tf.stack([-1, s[1]]), product=s[1] * 2)
        return x
    _graph(f, _ROW3)
    assert seen["shape"].static_value() is None
    assert seen["shape"].static_value(partial=True).tolist() == [None, 3]
    assert seen["first"].static_value(partial=True) is None
    assert seen["second"].static_value() == 3
    assert seen["mixed"].static_value(partial=True).tolist() == [None, 4]
    assert seen["known"].static_value().tolist() == [-1, 3]
    assert seen["product"].static_value() == 6


def test_a_slice_with_bounds_known_at_run_time_has_no_static_value():
    # (its bounds are unknown: the value is not the whole shape, nor the shape's shape)
    @tf.function(input_signature=[tf.TensorSpec([], tf.int32), tf.TensorSpec([None, 3, 4])])
    def f(n, y):
        known, partial = tf.shape(tf.zeros([2, 3, 4])), tf.shape(y)
        for piece in (known[:n], known[n:], partial[1:n], known[::n], partial[:, None][n]):
            assert tf.get_static_value(piece) is None
            assert piece.static_value(partial=True) is None
        return tf.ones(known[:n]), tf.ones(partial[1:n])
    first, second = f(tf.constant(2), tf.zeros([2, 3, 4]))
    assert first.shape == (2, 3) and second.shape == (3,)
    assert f.get_concrete_function().outputs[0].shape.rank is None  # (as in TF)


def test_dtype_errors_while_building_are_tfs_type_errors():
    cases = [
        (lambda x: x - tf.constant(1.0),
         "Input 'y' of 'Sub' Op has type float32 that does not match type int32 of argument 'x'."),
        (lambda x: tf.matmul(tf.reshape(x, [1, 1]), tf.constant([[1.0]])),
         "Input 'b' of 'MatMul' Op has type float32 that does not match type int32 of "
         "argument 'a'."),
        (lambda x: tf.add_n([x, tf.constant(1.0)]),
         "Tensors in list passed to 'inputs' of 'AddN' Op have types [int32, float32] that "
         "don't all match."),
        (lambda x: tf.sqrt(x),
         "Value passed to parameter 'x' has DataType int32 not in list of allowed values: "
         "bfloat16, float16, float32, float64, complex64, complex128"),
    ]
    for fn, message in cases:
        with pytest.raises(TypeError) as info:
            tf.function(fn, autograph=False)(tf.constant(1))
        assert str(info.value).endswith(message)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="bfloat16, half, float, double, complex64, complex128"):
        tf.sqrt(tf.constant(1))  # eagerly, the kernel's error


def test_python_uses_of_graph_tensors_fail_with_tfs_message():
    def iterate(x):
        return [v for v in x]  # a comprehension: not converted, even with AutoGraph on

    for fn, what in ((iterate, "Iterating over a symbolic `tf.Tensor`"),
                     (lambda x: bool(x), "Using a symbolic `tf.Tensor` as a Python `bool`")):
        for autograph in (True, False):
            with pytest.raises(tf.errors.OperatorNotAllowedInGraphError) as info:
                tf.function(fn, autograph=autograph)(tf.constant([1]))
            assert str(info.value).rstrip().endswith(
                f"{what} is not allowed. You can attempt the following resolutions to the "
                f"problem: If you are running in Graph mode, use Eager execution mode or decorate "
                f"this function with @tf.function. If you are using AutoGraph, you can try "
                f"decorating this function with @tf.function. If that does not work, then you "
                f"may be using an unsupported feature or your source code may not be visible to "
                f"AutoGraph. See https://github.com/tensorflow/tensorflow/blob/master/tensorflow/"
                f"python/autograph/g3doc/reference/limitations.md#access-to-source-code for more "
                f"information.")


def test_str_of_a_graph_tensor_of_unknown_rank_leaves_out_the_shape():
    # TF 2.21 printed these inside a function traced with TensorSpec(None, tf.float32)
    seen = []

    @tf.function(input_signature=[tf.TensorSpec(None, tf.float32)])
    def f(x):
        seen.append((str(x), repr(x), str(tf.reshape(x, [-1]))))
        return x

    f(tf.constant(1.0))
    assert seen == [('Tensor("x:0", dtype=float32)',
                     "<tf.Tensor 'x:0' shape=<unknown> dtype=float32>",
                     'Tensor("Reshape:0", shape=(None,), dtype=float32)')]


def test_operation_outputs_is_a_list_and_values_a_tuple():
    graph = _graph(lambda a: tf.unique(a), tf.TensorSpec([3], tf.float32))
    unique = _by_name(graph)["Unique"]
    assert isinstance(unique.outputs, list)
    assert [t.name for t in unique.outputs] == ["Unique:0", "Unique:1"]
    assert unique.values() == tuple(unique.outputs)
    assert isinstance(unique.values(), tuple)


def test_tensor_consumers_are_the_operations_reading_it():
    graph = _graph(lambda a, b: (a + b) * a, tf.TensorSpec([], tf.float32),
                   tf.TensorSpec([], tf.float32))
    ops = _by_name(graph)
    a = graph.get_tensor_by_name("a:0")
    assert [op.name for op in a.consumers()] == ["add", "mul"]
    assert [op.type for op in ops["mul"].outputs[0].consumers()] == ["Identity"]


def test_operation_node_def_is_its_graph_def_node():
    graph = _graph(lambda a, b: a + b, tf.TensorSpec([], tf.float32),
                   tf.TensorSpec([], tf.float32))
    node = _by_name(graph)["add"].node_def
    assert (node.name, node.op, list(node.input)) == ("add", "AddV2", ["a", "b"])
    assert node.attr["T"].type == tf.float32.as_datatype_enum


def test_consumers_and_node_def_need_no_tf1_module_imported_first():
    # (a program that never touches tf.compat.v1 has them too)
    code = """
import eagerflow as tf
@tf.function
def f(a, b):
    return a + b
graph = f.get_concrete_function(tf.TensorSpec([]), tf.TensorSpec([])).graph
print([op.name for op in graph.get_tensor_by_name("a:0").consumers()])
print(graph.get_operation_by_name("add").node_def.op)
"""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    out = subprocess.run([sys.executable, "-c", code], check=True, env=env,
                         capture_output=True, text=True).stdout
    assert out.split("\n")[:2] == ["['add']", "AddV2"]


def test_an_operation_of_a_function_graph_prints_as_its_node_def():
    graph = _graph(lambda a, b: a + b, tf.TensorSpec([], tf.float32),
                   tf.TensorSpec([], tf.float32))
    add = _by_name(graph)["add"]
    assert str(add).splitlines()[:4] == ['name: "add"', 'op: "AddV2"', 'input: "a"',
                                         'input: "b"']
    assert repr(add) == "<tf.Operation 'add' type=AddV2>"

"""GraphDefs of functions that use datasets and iterators made outside them.

The expected node types were checked against TensorFlow 2.21.
"""
import eagerflow as tf


def _node(graph_def, op):
    return [n for n in graph_def.node if n.op == op]


def test_a_captured_iterator_is_a_resource_placeholder():
    it = iter(tf.data.Dataset.range(3))

    @tf.function
    def h():
        return next(it)

    graph_def = h.get_concrete_function().graph.as_graph_def()
    assert sorted({n.op for n in graph_def.node}) == [
        "Identity", "IteratorGetNext", "NoOp", "Placeholder"]
    (placeholder,) = _node(graph_def, "Placeholder")
    assert placeholder.attr["dtype"].type == tf.resource.as_datatype_enum
    assert int(h()) == 0  # (writing the GraphDef left the function as it was)


def test_a_captured_dataset_is_a_variant_placeholder():
    ds = tf.data.Dataset.range(3)

    @tf.function
    def f():
        s = tf.constant(0, tf.int64)
        for e in ds:
            s += e
        return s

    graph_def = f.get_concrete_function().graph.as_graph_def()
    (placeholder,) = _node(graph_def, "Placeholder")
    assert placeholder.attr["dtype"].type == tf.variant.as_datatype_enum
    assert _node(graph_def, "MakeIterator")[0].input[0] == placeholder.name
    assert int(f()) == 3


def test_a_dataset_built_from_the_arguments_refuses_export_clearly():
    # TF's GraphDef would hold the dataset's own ops; eagerflow's holds datasets as inputs
    # of the graph, which cannot be fed a dataset made from the arguments
    import pytest
    from eagerflow import errors

    @tf.function
    def f(x):
        ds = tf.data.Dataset.from_tensor_slices(x).map(lambda v: v * 2).batch(2)
        total = tf.constant(0.0)
        for b in ds:
            total += tf.reduce_sum(b)
        return total, ds.cardinality(), ds.take(1).get_single_element()

    concrete = f.get_concrete_function(tf.TensorSpec([None], tf.float32))
    assert float(concrete(tf.constant([1.0, 2.0, 3.0]))[0]) == 12.0
    with pytest.raises(errors.UnimplementedError, match=r"\(MakeIterator\) cannot be written "
                       r"as TensorFlow's: its dataset is built inside the function from the "
                       r"function's tensors \(x:0\).*build the dataset outside the function"):
        concrete.graph.as_graph_def()


def test_a_dataset_of_constants_built_inside_still_exports():
    @tf.function
    def g():
        total = tf.constant(0, tf.int64)
        for e in tf.data.Dataset.range(4).map(lambda v: v + 1):
            total += e
        return total

    graph_def = g.get_concrete_function().graph.as_graph_def()
    assert len(_node(graph_def, "MakeIterator")[0].input) == 2
    assert int(g()) == 10

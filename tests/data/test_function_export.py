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

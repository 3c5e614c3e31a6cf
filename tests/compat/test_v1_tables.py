"""Lookup tables and assertions in TF 1 graphs run by a `Session`."""
import numpy as np
import pytest

import eagerflow as tf
import eagerflow.compat.v1 as tf1


def _static_table():
    keys = tf.constant(["a", "b", "c"])
    values = tf.constant([1, 2, 3], tf.int64)
    return tf1.lookup.StaticHashTable(tf1.lookup.KeyValueTensorInitializer(keys, values), -1)


def test_static_table_is_filled_by_tables_initializer_in_each_session():
    with tf1.Graph().as_default():
        table = _static_table()
        x = tf1.placeholder(tf.string, [None])
        out = table.lookup(x)
        size = table.size()
        assert tf1.get_collection(tf1.GraphKeys.TABLE_INITIALIZERS) == [table.initializer]
        assert table.initializer.type == "LookupTableImportV2"
        init = tf1.tables_initializer()
        with tf1.Session() as sess:
            with pytest.raises(tf.errors.FailedPreconditionError, match="Table not initialized"):
                sess.run(out, {x: ["a"]})
            assert sess.run(size) == 0
            sess.run(init)
            assert sess.run(out, {x: ["a", "z", "c"]}).tolist() == [1, -1, 3]
            assert sess.run(size) == 3
            sess.run(init)  # (again: the same entries)
            assert sess.run(out, feed_dict={x: np.array(["b"])}).tolist() == [2]
        with tf1.Session() as sess:  # (a session of its own: not initialized there)
            with pytest.raises(tf.errors.FailedPreconditionError, match="Table not initialized"):
                sess.run(out, {x: ["a"]})
            sess.run(init)
            assert sess.run(out, {x: ["b"]}).tolist() == [2]


def test_vocabulary_table_in_a_v1_graph():
    tf1.disable_eager_execution()  # (the default graph)
    table = tf1.lookup.StaticVocabularyTable(tf1.lookup.KeyValueTensorInitializer(
        ["x", "y"], tf.constant([0, 1], tf.int64)), 2)
    x = tf1.placeholder(tf.string, [None])
    ids = table.lookup(x)
    with tf1.Session() as sess:
        sess.run(tf1.tables_initializer())
        assert sess.run(ids, {x: ["x", "q", "y"]}).tolist() == [0, 3, 1]


def test_text_file_and_mutable_tables_in_a_v1_graph(tmp_path):
    vocabulary = tmp_path / "vocabulary.txt"
    vocabulary.write_text("a\nb\nc\n")
    with tf1.Graph().as_default():
        table = tf1.lookup.StaticHashTable(tf1.lookup.TextFileInitializer(
            str(vocabulary), tf.string, tf1.lookup.TextFileIndex.WHOLE_LINE, tf.int64,
            tf1.lookup.TextFileIndex.LINE_NUMBER), -1)
        mutable = tf1.lookup.experimental.MutableHashTable(tf.string, tf.int64, -1)
        insert = mutable.insert(tf.constant(["q"]), tf.constant([5], tf.int64))
        assert insert.type == "LookupTableInsertV2"
        x = tf1.placeholder(tf.string, [None])
        with tf1.Session() as sess:
            sess.run(tf1.tables_initializer())
            sess.run(tf1.tables_initializer())  # (again: the same entries, fine)
            assert sess.run(table.lookup(x), {x: ["b", "z"]}).tolist() == [1, -1]
            assert sess.run(mutable.lookup(x), {x: ["q"]}).tolist() == [-1]
            sess.run(insert)
            assert sess.run(mutable.lookup(x), {x: ["q"]}).tolist() == [5]


def test_fed_text_reaches_ops_as_bytes():
    with tf1.Graph().as_default():
        x = tf1.placeholder(tf.string, [None])
        y = tf.strings.join([x, x])
        with tf1.Session() as sess:
            for _ in range(2):  # (the second run takes the cached path)
                assert sess.run(y, {x: ["a", b"b"]}).tolist() == [b"aa", b"bb"]


def test_assert_near_in_a_v1_graph_checks_when_run():
    with tf1.Graph().as_default():
        x = tf1.placeholder(tf.float32, [None])
        check = tf1.assert_near(x, tf.constant([1.0, 2.0]), message="msg")
        assert check.type == "Assert"
        with tf1.control_dependencies([check]):
            y = tf.identity(x)
        loose = tf.debugging.assert_near(x, [1.0, 2.0], rtol=0.5)
        with tf1.Session() as sess:
            assert sess.run(y, {x: [1.0, 2.0]}).tolist() == [1.0, 2.0]
            with pytest.raises(tf.errors.InvalidArgumentError,
                               match=r"\[msg\.  \] \[x and y not equal to tolerance"):
                sess.run(y, {x: [1.0, 3.0]})
            sess.run(loose, {x: [1.0, 2.5]})
            with pytest.raises(tf.errors.InvalidArgumentError, match="not equal to tolerance"):
                sess.run(loose, {x: [1.0, 4.0]})


def test_assert_near_in_a_function():
    @tf.function
    def f(x):
        tf.debugging.assert_near(x, tf.constant([1.0, 2.0]))
        return x + 1.0

    assert f(tf.constant([1.0, 2.0])).numpy().tolist() == [2.0, 3.0]
    with pytest.raises(tf.errors.InvalidArgumentError, match="not equal to tolerance"):
        f(tf.constant([1.0, 3.0]))


def test_v2_assertions_in_a_v1_graph_give_their_assert_ops():
    with tf1.Graph().as_default():
        x = tf1.placeholder(tf.float32, [None])
        checks = [tf.debugging.assert_equal(x, [1.0, 2.0]),
                  tf.debugging.assert_positive(x), tf.debugging.Assert(
                      tf.reduce_all(x > 0.0), [x])]
        assert [c.type for c in checks] == ["Assert"] * 3
        with tf1.Session() as sess:
            sess.run(checks, {x: [1.0, 2.0]})
            with pytest.raises(tf.errors.InvalidArgumentError,
                               match=r"assertion failed: \[\] \[Condition x > 0 did not hold"):
                sess.run(checks[1], {x: [-1.0, 2.0]})


def test_static_assertion_errors_name_graph_tensors():
    with tf1.Graph().as_default():
        x = tf1.placeholder(tf.float32, [None], name="x")
        with pytest.raises(TypeError, match=r'^m\.  Expected "x" to be integer type\.  '
                                            r"Found: x:0 of dtype"):
            tf1.assert_integer(x, message="m")
        with pytest.raises(ValueError, match=r"^Expected scalar shape for x:0, saw shape"):
            tf1.assert_scalar(x)
        with pytest.raises(TypeError, match=r"^m\.  x:0 must be of type tf\.int32"):
            tf1.assert_type(x, tf.int32, message="m")
        passed = [tf1.assert_integer(tf1.placeholder(tf.int32)), tf1.assert_type(x, tf.float32)]
        assert [op.name for op in passed] == ["assert_integer/statically_determined_was_integer",
                                              "assert_type/statically_determined_correct_type"]
    with pytest.raises(TypeError, match=r'^m\.  Expected "x" to be integer type\.  '
                                        r"Found: tensor of dtype"):
        tf.debugging.assert_integer(tf.constant([1.0]), message="m")

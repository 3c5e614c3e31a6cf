"""``tf.raw_ops`` of lookup tables: the tables ``MutableHashTableV2``,
``MutableHashTableOfTensorsV2`` and ``HashTableV2`` make (eagerly, in a `function`, in a TF 1
graph), and the ``LookupTable*V2`` ops on them, with TF's dtype checks."""
import numpy as np
import pytest

import eagerflow as tf

R = tf.raw_ops


def _strings_table():
    table = R.MutableHashTableV2(key_dtype=tf.string, value_dtype=tf.int64)
    R.LookupTableInsertV2(table_handle=table, keys=tf.constant(["a", "b"]),
                          values=tf.constant([1, 2], tf.int64))
    return table


def test_a_mutable_table_eagerly():
    table = _strings_table()
    assert table.dtype == tf.resource and table.shape == ()
    found = R.LookupTableFindV2(table_handle=table, keys=tf.constant(["a", "c", "b"]),
                                default_value=tf.constant(-1, tf.int64))
    assert found.dtype == tf.int64 and found.numpy().tolist() == [1, -1, 2]
    assert R.LookupTableSizeV2(table_handle=table).numpy() == 2
    exported = R.LookupTableExportV2(table_handle=table, Tkeys=tf.string, Tvalues=tf.int64)
    assert type(exported).__name__ == "LookupTableExportV2"
    assert exported._fields == ("keys", "values")
    assert sorted(zip(exported.keys.numpy().tolist(), exported.values.numpy().tolist())) == [
        (b"a", 1), (b"b", 2)]
    assert R.LookupTableRemoveV2(table_handle=table, keys=tf.constant(["a"])) is None
    R.LookupTableImportV2(table_handle=table, keys=tf.constant(["x", "y"]),
                          values=tf.constant([7, 8], tf.int64))
    assert R.LookupTableSizeV2(table_handle=table).numpy() == 2


@pytest.mark.parametrize("call, message", [
    (lambda t: R.LookupTableFindV2(table_handle=t, keys=tf.constant([1]),
                                   default_value=tf.constant(-1, tf.int64)),
     "have: resource, int32, int64->int64 expected: resource, string, int64->int64"),
    (lambda t: R.LookupTableFindV2(table_handle=t, keys=tf.constant(["a"]),
                                   default_value=tf.constant(-1)),
     "have: resource, string, int32->int32 expected: resource, string, int64->int64"),
    (lambda t: R.LookupTableInsertV2(table_handle=t, keys=tf.constant(["a"]),
                                     values=tf.constant([1.0])),
     "have: resource, string, float-> expected: resource, string, int64->"),
    (lambda t: R.LookupTableRemoveV2(table_handle=t, keys=tf.constant([1])),
     "have: resource, int32-> expected: resource, string->"),
    (lambda t: R.LookupTableImportV2(table_handle=t, keys=tf.constant([1]),
                                     values=tf.constant([1], tf.int64)),
     "have: resource, int32, int64-> expected: resource, string, int64->"),
])
def test_keys_or_values_of_other_dtypes_are_tfs_signature_mismatch(call, message):
    # (not a lookup of keys that cannot be there, which silently gave the default)
    with pytest.raises(tf.errors.InvalidArgumentError, match=f"Signature mismatch, {message}"):
        call(_strings_table())


def test_shared_name_tables_are_one_table():
    first = R.MutableHashTableV2(key_dtype=tf.int64, value_dtype=tf.float32,
                                 shared_name="raw_table_test")
    R.LookupTableInsertV2(table_handle=first, keys=tf.constant([3], tf.int64),
                          values=tf.constant([1.5]))
    again = R.MutableHashTableV2(key_dtype=tf.int64, value_dtype=tf.float32,
                                 shared_name="raw_table_test")
    assert R.LookupTableSizeV2(table_handle=again).numpy() == 1
    assert 'name="raw_table_test"' in repr(again)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Conflicting key/value dtypes int32->float with int64-float for "
                             "table raw_table_test"):
        R.MutableHashTableV2(key_dtype=tf.int32, value_dtype=tf.float32,
                             shared_name="raw_table_test")


def test_a_table_of_vectors_and_a_static_table():
    table = R.MutableHashTableOfTensorsV2(key_dtype=tf.int64, value_dtype=tf.float32,
                                          value_shape=[2])
    R.LookupTableInsertV2(table_handle=table, keys=tf.constant([1, 2], tf.int64),
                          values=tf.constant([[1.0, 2.0], [3.0, 4.0]]))
    found = R.LookupTableFindV2(table_handle=table, keys=tf.constant([2, 5], tf.int64),
                                default_value=tf.constant([0.0, -1.0]))
    np.testing.assert_array_equal(found.numpy(), [[3.0, 4.0], [0.0, -1.0]])
    static = R.HashTableV2(key_dtype=tf.int32, value_dtype=tf.float32)
    with pytest.raises(tf.errors.FailedPreconditionError, match="Table not initialized"):
        R.LookupTableFindV2(table_handle=static, keys=tf.constant([1]),
                            default_value=tf.constant(0.0))
    R.InitializeTableV2(table_handle=static, keys=tf.constant([1, 2]),
                        values=tf.constant([1.0, 2.0]))
    assert R.LookupTableFindV2(table_handle=static, keys=tf.constant([1, 3]),
                               default_value=tf.constant(0.0)).numpy().tolist() == [1.0, 0.0]


def test_in_a_function_each_traced_table_lives_across_calls():
    @tf.function
    def grow(keys):
        table = R.MutableHashTableV2(key_dtype=tf.int32, value_dtype=tf.float32)
        R.LookupTableInsertV2(table_handle=table, keys=keys, values=tf.cast(keys, tf.float32))
        return R.LookupTableSizeV2(table_handle=table)

    # (as TF's kernel keeps its table: a new trace, a new table)
    assert [int(grow(tf.constant(k))) for k in ([1], [2], [2, 3])] == [1, 2, 2]


def test_in_a_tf1_graph_a_raw_op_without_outputs_is_its_operation():
    with tf.Graph().as_default():
        table = R.MutableHashTableV2(key_dtype=tf.string, value_dtype=tf.int64)
        insert = R.LookupTableInsertV2(table_handle=table, keys=["q"],
                                       values=tf.constant([9], tf.int64))
        assert isinstance(insert, tf.Operation) and insert.type == "LookupTableInsertV2"
        find = R.LookupTableFindV2(table_handle=table, keys=["q", "z"],
                                   default_value=tf.constant(0, tf.int64))
        with tf.compat.v1.Session() as sess:
            sess.run(insert)  # (the table lives across the session's runs)
            assert sess.run(find).tolist() == [9, 0]

"""Errors met while iterating a dataset read as TensorFlow's eager ``IteratorGetNext``
(or ``DatasetToSingleElement``) op raises them: the op's one-op function before the
message, ``[Op:...] name: `` after it, as TensorFlow 2.21 words them."""
import re

import pytest

import eagerflow as tf


def _wrapped(op, count, text, counts=""):
    return (f"{{{{function_node __wrapped__{op}{counts}_output_types_{count}_device_/job:"
            f"localhost/replica:0/task:0/device:CPU:0}}}} {text} [Op:{op}] name: ")


@pytest.mark.parametrize("make", [tf.data.TFRecordDataset, tf.data.TextLineDataset])
def test_missing_file_for_loop_and_next(make, tmp_path):
    path = str(tmp_path / "missing")
    expected = _wrapped("IteratorGetNext", 1, f"{path}; No such file or directory")
    with pytest.raises(tf.errors.NotFoundError) as info:
        for _ in make(path):
            pass
    assert str(info.value) == expected
    with pytest.raises(tf.errors.NotFoundError) as info:
        next(iter(make(path)))
    assert str(info.value) == expected


def test_counts_the_element_components(tmp_path):
    ds = tf.data.TextLineDataset(str(tmp_path / "missing")).map(lambda x: (x, x))
    with pytest.raises(tf.errors.NotFoundError, match=re.escape(
            "__wrapped__IteratorGetNext_output_types_2_device_")):
        next(iter(ds))


def test_decode_of_bad_data_in_map():
    ds = tf.data.Dataset.from_tensors("abc").map(lambda x: tf.io.decode_raw(x, tf.int32))
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        next(iter(ds))
    message = str(info.value)
    assert message.startswith(_wrapped("IteratorGetNext", 1, "Error in user-defined")[:-40])
    assert "Input to DecodeRaw has length 3 that is not a multiple of 4, the size of int32" \
        in message
    assert message.endswith("\t [[{{node DecodeRaw}}]] [Op:IteratorGetNext] name: ")


def test_end_of_sequence_of_get_next():
    it = iter(tf.data.Dataset.range(1))
    next(it)
    with pytest.raises(tf.errors.OutOfRangeError) as info:
        it.get_next()
    assert str(info.value) == _wrapped("IteratorGetNext", 1, "End of sequence")
    assert info.value.op is None and info.value.error_code == 11  # (as TF's eager errors)
    with pytest.raises(StopIteration):
        next(it)


def test_get_single_element_errors():
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.data.Dataset.range(0).get_single_element()
    assert str(info.value) == _wrapped("DatasetToSingleElement", 1, "Dataset was empty.")
    assert info.value.op is None
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.data.Dataset.range(2).get_single_element()
    assert str(info.value) == _wrapped("DatasetToSingleElement", 1,
                                       "Dataset had more than one element.")


def test_value_of_an_empty_optional():
    spec = (tf.TensorSpec([], tf.int32), {"a": tf.TensorSpec([2], tf.float32)})
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.experimental.Optional.empty(spec).get_value()
    assert str(info.value) == _wrapped("OptionalGetValue", 2,
                                       "The given optional does not have a value.")


def test_get_next_as_optional_and_reduce(tmp_path):
    path = str(tmp_path / "missing")
    ds = tf.data.TextLineDataset(path)
    missing = f"{path}; No such file or directory"
    with pytest.raises(tf.errors.NotFoundError) as info:
        iter(ds).get_next_as_optional()
    assert str(info.value) == (
        "{{function_node __wrapped__IteratorGetNextAsOptional_device_/job:localhost/replica:0/"
        f"task:0/device:CPU:0}}}} {missing} [Op:IteratorGetNextAsOptional] name: ")
    with pytest.raises(tf.errors.NotFoundError) as info:
        ds.reduce(tf.constant(0, tf.int64), lambda s, x: s + 1)
    assert str(info.value) == _wrapped("ReduceDataset", 1, missing, "_Targuments_0_Tstate_1")
    c = tf.constant(2, tf.int64)
    with pytest.raises(tf.errors.NotFoundError, match=re.escape(
            "__wrapped__ReduceDataset_Targuments_1_Tstate_2_output_types_2_device_")):
        ds.reduce((tf.constant(0, tf.int64), 0), lambda s, x: (s[0] + c, s[1]))

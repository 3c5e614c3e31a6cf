"""A dataset function failing on an element raises TF's error: the failing op's class, its
message introduced by the dataset and iterator that ran the function, as TensorFlow 2.21
words it (``programs/map_errors.py`` compares with TensorFlow)."""
import re

import pytest

import eagerflow as tf

# (the iterator's op, in the form TF's eager ops fail with)
_OP = (r"^\{{\{{function_node __wrapped__IteratorGetNext_output_types_1_device_"
       r"/job:localhost/replica:0/task:0/device:CPU:0\}}\}} ")
_INTRO = (_OP + r"Error in user-defined function passed to {kind}:\d+ transformation with "
          r"iterator: Iterator::Root::{iterator}: ")


def _positive(x):
    tf.debugging.assert_positive(x - 1, message="must be pos")
    return x


@pytest.mark.parametrize("calls, kind, iterator", [(None, "MapDataset", "Map"),
                                                   (2, "ParallelMapDatasetV2", "ParallelMapV2")])
def test_failing_map_function(calls, kind, iterator):
    ds = tf.data.Dataset.range(4).map(_positive, num_parallel_calls=calls)
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        list(ds)
    message = info.value.message
    assert re.match(_INTRO.format(kind=kind, iterator=iterator) + re.escape(
        "assertion failed: [must be pos.  ] [Condition x > 0 did not hold element-wise:] "
        "[x (sub:0) = ] [-1]\n"), message)
    assert "File" not in message  # (TF's says the failing node alone)
    assert message.endswith("\t [[{{node Assert}}]] [Op:IteratorGetNext] name: ")


def test_failing_filter_and_out_of_range_in_map():
    ds = tf.data.Dataset.range(4).filter(lambda x: tf.gather([True, False], x))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=_INTRO.format(kind="FilterDataset", iterator="Filter") +
                       re.escape("indices = 2 is not in [0, 2)")):
        list(ds)

    def fail(x):
        raise StopIteration  # an OutOfRangeError of the function: not the end of the data

    ds = tf.data.Dataset.range(2).map(lambda x: tf.py_function(fail, [x], tf.int64))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=_OP.format() + "Function invocation produced OutOfRangeError: " +
                       _INTRO.format(kind="MapDataset", iterator="Map")[len(_OP) - 4:] +
                       "StopIteration"):
        next(iter(ds))


def test_ignore_errors_still_skips_failing_elements():
    ds = tf.data.Dataset.range(4).map(_positive).ignore_errors()
    assert [int(x) for x in ds] == [2, 3]


def test_a_function_returning_what_is_no_element_is_tfs_type_error():
    thing = object()
    with pytest.raises(TypeError, match=re.escape(
            f"Unsupported return value from function passed to Dataset.map(): {thing}.")):
        tf.data.Dataset.range(3).map(lambda x: thing)
    assert [tuple(map(int, e)) for e in tf.data.Dataset.range(2).map(
        lambda x: [1, 2]).as_numpy_iterator()] == [(1, 2), (1, 2)]  # (a list: a tuple)


@pytest.mark.parametrize("result", [None, (), {}, []])
@pytest.mark.parametrize("parallel, op", [(None, "MapDataset"), (2, "ParallelMapDatasetV2")])
def test_a_map_function_returning_no_tensors_is_refused_by_tfs_op(result, parallel, op):
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=rf"^Length for attr 'output_(types|shapes)' of 0 must be at least "
                             rf"minimum 1\n\t; NodeDef: {{{{node {op}}}}}; Op<name={op}; "):
        tf.data.Dataset.range(3).map(lambda x: result, num_parallel_calls=parallel)

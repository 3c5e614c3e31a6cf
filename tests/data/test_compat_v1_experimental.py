"""``tf.compat.v1.data.experimental`` offers the names of ``tf.data.experimental``."""
import pytest

import eagerflow as tf


def test_v1_experimental_names_are_those_of_tf_data_experimental():
    v1 = tf.compat.v1.data.experimental
    for name in ("AUTOTUNE", "assert_cardinality", "cardinality", "sample_from_datasets",
                 "choose_from_datasets", "make_csv_dataset", "ignore_errors", "unbatch",
                 "Optional", "get_single_element", "parallel_interleave", "map_and_batch"):
        assert getattr(v1, name) is getattr(tf.data.experimental, name)
    assert v1.AUTOTUNE == -1 and v1.INFINITE_CARDINALITY == -1
    ds = tf.compat.v1.data.Dataset.range(4).apply(v1.assert_cardinality(4))
    assert int(v1.cardinality(ds)) == 4
    assert [int(x) for x in ds.apply(v1.ignore_errors())] == [0, 1, 2, 3]


def test_v1_experimental_unknown_name():
    with pytest.raises(AttributeError, match="has no attribute 'no_such_name'"):
        tf.compat.v1.data.experimental.no_such_name  # noqa: B018

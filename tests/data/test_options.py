"""tf.data.Options: typed options, merged by with_options, as TensorFlow's."""
import numpy as np
import pytest

import eagerflow as tf


def test_options_take_values_of_their_type_only():
    options = tf.data.Options()
    for group, name, value in [(options, "deterministic", 3), (options, "deterministic", None),
                               (options.threading, "private_threadpool_size", np.int64(3)),
                               (options.autotune, "autotune_algorithm", 1),
                               (options.experimental_distribute, "auto_shard_policy", 2),
                               (options, "framework_type", ("a",)), (options, "autotune", 5)]:
        with pytest.raises(TypeError, match=f'Property "{name}" must be of type'):
            setattr(group, name, value)
    with pytest.raises(TypeError, match='Property "threading" must be of type'):
        options.experimental_threading = 3
    options.threading.private_threadpool_size = True  # (a bool is an int)
    options.experimental_distribute.auto_shard_policy = tf.data.experimental.AutoShardPolicy.OFF
    options.experimental_service.pinned = True
    options.autotune.min_parallelism = 2
    assert options.deterministic is None
    ds = tf.data.Dataset.range(3).with_options(options)
    assert ds.options().experimental_distribute.auto_shard_policy == -1
    assert ds.options().autotune.min_parallelism == 2


def test_options_list_their_names():
    names = [n for n in dir(tf.data.Options()) if not n.startswith("_")]
    assert {"autotune", "deterministic", "experimental_deterministic", "experimental_service",
            "threading", "merge"} <= set(names)
    assert "min_parallelism" in dir(tf.data.experimental.AutotuneOptions())
    with pytest.raises(AttributeError):
        tf.data.experimental.OptimizationOptions().warm_start = True


def test_merging_options_reports_each_changed_value_in_the_order_set(caplog):
    first, second = tf.data.Options(), tf.data.Options()
    first.threading.private_threadpool_size = 2
    first.experimental_distribute.auto_shard_policy = tf.data.experimental.AutoShardPolicy.OFF
    first.experimental_slack = True
    second.threading.private_threadpool_size = 3
    second.experimental_distribute.auto_shard_policy = tf.data.experimental.AutoShardPolicy.DATA
    second.experimental_slack = True  # (the same value: nothing to report)
    with caplog.at_level("WARNING"):
        ds = tf.data.Dataset.range(2).with_options(first).with_options(second)
    assert ds.options().threading.private_threadpool_size == 3
    assert [r.getMessage() for r in caplog.records] == [  # TF's messages
        "Changing the value of option private_threadpool_size from 2 to 3.",
        "Changing the value of option auto_shard_policy from <AutoShardPolicy.OFF: -1> to "
        "<AutoShardPolicy.DATA: 2>."]

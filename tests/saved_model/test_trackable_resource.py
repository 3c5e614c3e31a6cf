"""tf.saved_model.experimental.TrackableResource: a user's resource, made on first use,
captured by functions, saved and re-created on load by its saved functions (TF 2.21's
values for the same programs)."""
import gc
import json
import os

import numpy as np
import pytest

import eagerflow as tf

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
Resource = tf.saved_model.experimental.TrackableResource


class _Counts(Resource):
    """A table its `_create_resource` makes, which `_initialize` fills."""

    def __init__(self):
        super().__init__()
        self.made = 0

    def _create_resource(self):
        self.made += 1
        self.table = tf.lookup.experimental.MutableHashTable(tf.string, tf.int64, -1)
        return self.table.resource_handle

    def _initialize(self):
        self.table.insert(tf.constant(["a", "b"]), tf.constant([1, 2], tf.int64))

    def lookup(self, keys):
        self.resource_handle  # (made on first use)
        return self.table.lookup(keys)


class _Holder(tf.Module):
    def __init__(self):
        self.counts = _Counts()

    @tf.function(input_signature=[tf.TensorSpec([None], tf.string)])
    def find(self, keys):
        return self.counts.lookup(keys)


def test_resource_is_made_on_first_use_and_not_initialized_eagerly():
    counts = _Counts()
    assert counts._resource_handle is None and counts.made == 0
    handle = counts.resource_handle
    # TF 2.21: <dtype: 'resource'> () and a table still empty (only loading runs _initialize)
    assert handle.dtype == tf.resource and handle.shape == []
    assert counts.resource_handle is handle and counts.made == 1
    assert int(counts.table.size()) == 0


def test_deleting_a_resource_destroys_it():
    destroyed = []

    class Logged(_Counts):
        def _destroy_resource(self):
            destroyed.append(self.made)

    r = Logged()
    del r
    r = Logged()
    r.resource_handle
    del r
    gc.collect()
    assert destroyed == [0, 1]  # TF 2.21: called on deletion, the handle made or not


def test_base_class_has_no_resource_of_its_own():
    with pytest.raises(NotImplementedError,
                       match="^TrackableResource._create_resource not implemented.$"):
        Resource().resource_handle


def test_lookup_tables_are_trackable_resources():
    assert isinstance(tf.lookup.experimental.MutableHashTable(tf.string, tf.int64, -1), Resource)
    assert isinstance(tf.lookup.StaticHashTable(
        tf.lookup.KeyValueTensorInitializer([1], [2]), -1), Resource)


def test_saved_resource_is_recreated_and_initialized_on_load(tmp_path):
    m = _Holder()
    np.testing.assert_array_equal(m.find(tf.constant(["a", "z"])), [-1, -1])
    path = str(tmp_path / "sm")
    tf.saved_model.save(m, path)
    loaded = tf.saved_model.load(path)
    assert isinstance(loaded.counts, Resource)
    assert loaded.counts.resource_handle.dtype == tf.resource
    # TF 2.21 loading the same program: [1 -1 2] (the loader ran the saved _initialize)
    np.testing.assert_array_equal(loaded.find(tf.constant(["a", "z", "b"])), [1, -1, 2])


def test_resource_tf_saved_is_recreated_and_initialized_on_load():
    with open(os.path.join(DATA, "tf_outputs.json")) as f:
        expected = json.load(f)["tf_user_resource"]
    loaded = tf.saved_model.load(os.path.join(DATA, "tf_user_resource"))
    assert isinstance(loaded.counts, Resource)
    assert type(loaded.counts).__name__ == expected["loaded_type"]
    np.testing.assert_array_equal(loaded.find(tf.constant(["a", "z", "b"])), expected["find"])


def test_resource_of_no_table_cannot_be_saved(tmp_path):
    class Constant(Resource):
        def _create_resource(self):
            return tf.constant(1.0)

    m = tf.Module()
    m.r = Constant()
    with pytest.raises(tf.errors.UnimplementedError, match="Cannot save Constant"):
        tf.saved_model.save(m, str(tmp_path / "sm"))


class _Counter(Resource):
    """A variable its `_create_resource` makes by name (``VarHandleOp``), which
    `_initialize` sets to `start`."""

    def __init__(self, start):
        super().__init__()
        self.start = start

    def _create_resource(self):
        return tf.raw_ops.VarHandleOp(dtype=tf.int64, shape=[], shared_name="")

    def _initialize(self):
        tf.raw_ops.AssignVariableOp(resource=self.resource_handle,
                                    value=tf.constant(self.start, tf.int64))

    def _destroy_resource(self):
        tf.raw_ops.DestroyResourceOp(resource=self.resource_handle)


class _Bumps(tf.Module):
    def __init__(self):
        self.counter = _Counter(10)
        self.counter._initialize()

    @tf.function(input_signature=[])
    def bump(self):
        handle = self.counter.resource_handle
        tf.raw_ops.AssignAddVariableOp(resource=handle, value=tf.constant(1, tf.int64))
        return tf.raw_ops.ReadVariableOp(resource=handle, dtype=tf.int64)


def test_a_variable_resource_is_recreated_and_initialized_on_load(tmp_path):
    m = _Bumps()
    assert [int(m.bump()), int(m.bump())] == [11, 12]
    path = str(tmp_path / "sm")
    tf.saved_model.save(m, path)
    loaded = tf.saved_model.load(path)
    # TF 2.21 loading the same program: RestoredResource, 11 12, the original's 13 (each
    # its own variable; the loader ran the saved _initialize)
    assert type(loaded.counter).__name__ == "RestoredResource"
    assert loaded.counter.resource_handle.dtype == tf.resource
    assert [int(loaded.bump()), int(loaded.bump())] == [11, 12]
    assert int(m.bump()) == 13
    again = str(tmp_path / "again")
    tf.saved_model.save(loaded, again)  # (saved again as it was loaded)
    assert int(tf.saved_model.load(again).bump()) == 11


def test_a_variable_resource_tf_saved_is_recreated_and_initialized_on_load():
    with open(os.path.join(DATA, "tf_outputs.json")) as f:
        expected = json.load(f)["tf_variable_resource"]
    loaded = tf.saved_model.load(os.path.join(DATA, "tf_variable_resource"))
    assert type(loaded.counter).__name__ == expected["loaded_type"]
    assert [int(loaded.bump()), int(loaded.bump())] == expected["bumps"]

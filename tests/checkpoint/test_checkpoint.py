"""tf.train.Checkpoint: round trips, matching by object graph, deferred restoration,
statuses, errors and damaged files."""
import os
import subprocess
import sys

import hypothesis.extra.numpy as hnp
import ml_dtypes
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import eagerflow as tf
from tests import internals

KEY = "/.ATTRIBUTES/VARIABLE_VALUE"


def _prefix(tmp_path, name="ckpt"):
    return os.path.join(str(tmp_path), name)


# -- round trips -------------------------------------------------------------------------

_DTYPES = [np.float32, np.float64, np.float16, ml_dtypes.bfloat16, np.int8, np.int16,
           np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64, np.bool_,
           np.complex64, np.complex128]


@st.composite
def _arrays(draw):
    dtype = np.dtype(draw(st.sampled_from(_DTYPES)))
    shape = draw(hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=4))
    if dtype == ml_dtypes.bfloat16:
        return draw(hnp.arrays(np.float32, shape, elements=st.floats(-100, 100, width=32))
                    ).astype(dtype)
    return draw(hnp.arrays(dtype, shape))


_strings = st.lists(st.binary(max_size=40), min_size=0, max_size=5).map(
    lambda v: np.array(v, object))
_leaf = st.one_of(_arrays(), _strings)
_structure = st.recursive(
    _leaf, lambda inner: st.one_of(
        st.lists(inner, min_size=1, max_size=3),
        st.dictionaries(st.text("abc./_", min_size=1, max_size=4), inner, min_size=1,
                        max_size=3)), max_leaves=8)


def _variables(structure):
    if isinstance(structure, list):
        return [_variables(v) for v in structure]
    if isinstance(structure, dict):
        return {k: _variables(v) for k, v in structure.items()}
    if structure.dtype == object:
        return tf.Variable(tf.constant(list(structure), tf.string)) if structure.size else \
            tf.Variable(tf.constant([], tf.string))
    return tf.Variable(structure)


def _leaves(structure):
    if isinstance(structure, list):
        return [x for v in structure for x in _leaves(v)]
    if isinstance(structure, dict):
        return [x for k in sorted(structure) for x in _leaves(structure[k])]  # as tf.nest
    return [structure]


def _same(a, b):
    a, b = np.asarray(a), np.asarray(b)
    assert a.shape == b.shape
    if a.dtype == object or a.dtype.kind == "S":
        assert [bytes(x) for x in a.reshape(-1)] == [bytes(x) for x in b.reshape(-1)]
    else:
        assert a.dtype == b.dtype
        assert a.tobytes() == b.tobytes()


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(structure=_structure)
def test_round_trip_of_nested_structures_and_dtypes(tmp_path, structure):
    module = tf.Module()
    module.state = _variables(structure)
    path = tf.train.Checkpoint(m=module).write(_prefix(tmp_path))
    zeros = tf.Module()
    zeros.state = _variables(structure)
    for v in tf.nest.flatten(zeros.state):
        if v.dtype != tf.string:
            v.assign(tf.zeros_like(v))
        else:
            v.assign(tf.fill(tf.shape(v), b"?"))
    tf.train.Checkpoint(m=zeros).read(path).assert_consumed()
    for saved, restored in zip(_leaves(structure), tf.nest.flatten(zeros.state)):
        _same(restored.numpy(), saved if saved.dtype != object or saved.size else
              np.array([], object))


def test_save_numbers_checkpoints_and_writes_the_state_file(tmp_path):
    v = tf.Variable(1.0)
    ckpt = tf.train.Checkpoint(v=v)
    assert os.path.basename(ckpt.save(_prefix(tmp_path))) == "ckpt-1"
    v.assign(2.0)
    path = ckpt.save(_prefix(tmp_path))
    assert os.path.basename(path) == "ckpt-2"
    assert int(ckpt.save_counter.numpy()) == 2
    with open(os.path.join(str(tmp_path), "checkpoint")) as f:
        assert f.read() == 'model_checkpoint_path: "ckpt-2"\nall_model_checkpoint_paths: ' \
                           '"ckpt-2"\n'
    assert tf.train.latest_checkpoint(str(tmp_path)) == path
    state = tf.train.get_checkpoint_state(str(tmp_path))
    assert state.model_checkpoint_path == path
    assert tf.compat.v1.train.checkpoint_exists(path)
    assert not tf.compat.v1.train.checkpoint_exists(path + "0")
    restored = tf.train.Checkpoint(v=tf.Variable(0.0))
    restored.restore(path).assert_consumed()
    assert float(restored.v.numpy()) == 2.0
    assert int(restored.save_counter.numpy()) == 2
    # write: exactly the prefix, no counting, no state file change
    assert ckpt.write(_prefix(tmp_path, "other")) == _prefix(tmp_path, "other")
    assert int(ckpt.save_counter.numpy()) == 2
    assert tf.train.latest_checkpoint(str(tmp_path)) == path


def test_matching_is_by_object_graph_not_variable_names(tmp_path):
    a = tf.Module()
    a.dense = tf.Module()
    a.dense.kernel = tf.Variable([1.0, 2.0], name="some_name")
    path = tf.train.Checkpoint(model=a).write(_prefix(tmp_path))
    b = tf.Module()
    b.dense = tf.Module()
    b.dense.kernel = tf.Variable([0.0, 0.0], name="another_name")
    tf.train.Checkpoint(model=b).read(path).assert_consumed()
    np.testing.assert_array_equal(b.dense.kernel.numpy(), [1.0, 2.0])
    assert [k for k, _ in tf.train.list_variables(path)] == [
        "_CHECKPOINTABLE_OBJECT_GRAPH", "model/dense/kernel" + KEY]


def test_keys_escape_dots_and_slashes_as_tf(tmp_path):
    path = tf.train.Checkpoint(d={"a.b/c": tf.Variable(1)}).write(_prefix(tmp_path))
    assert "d/a..b.Sc" + KEY in dict(tf.train.list_variables(path))


def test_shared_object_is_saved_once_under_its_first_path(tmp_path):
    m = tf.Module()
    m.a = tf.Variable(1.0)
    m.b = m.a
    path = tf.train.Checkpoint(m=m).write(_prefix(tmp_path))
    assert [k for k, _ in tf.train.list_variables(path)] == [
        "_CHECKPOINTABLE_OBJECT_GRAPH", "m/a" + KEY]


def test_root_checkpoint_adds_keywords_to_root(tmp_path):
    m = tf.Module()
    m.v = tf.Variable(1.0)
    extra = tf.Variable(2.0)
    path = tf.train.Checkpoint(root=m, extra=extra).save(_prefix(tmp_path))
    assert [k for k, _ in tf.train.list_variables(path)] == [
        "_CHECKPOINTABLE_OBJECT_GRAPH", "extra" + KEY, "save_counter" + KEY, "v" + KEY]
    m.v.assign(0.0)
    tf.train.Checkpoint(root=m, extra=extra).restore(path).assert_consumed()
    assert float(m.v.numpy()) == 1.0


def test_non_trackable_argument_is_refused():
    with pytest.raises(ValueError, match="`Checkpoint` was expecting a to be a trackable object"):
        tf.train.Checkpoint(a=1)


# -- deferred restoration -------------------------------------------------------------------

def test_values_go_to_attributes_and_list_items_created_after_restore(tmp_path):
    m = tf.Module()
    m.v = tf.Variable([1.0, 2.0])
    m.items = [tf.Variable(3), tf.Variable(4)]
    path = tf.train.Checkpoint(m=m).write(_prefix(tmp_path))
    late = tf.Module()
    late.items = []
    status = tf.train.Checkpoint(m=late).read(path)
    late.v = tf.Variable([0.0, 0.0])
    late.items.append(tf.Variable(0))
    late.items.append(tf.Variable(0))
    np.testing.assert_array_equal(late.v.numpy(), [1.0, 2.0])
    assert [int(x.numpy()) for x in late.items] == [3, 4]
    status.assert_consumed()


def test_keras_model_built_in_a_function_gets_restored_values(tmp_path):
    model = tf.keras.Sequential([tf.keras.layers.Dense(2)])
    model(tf.ones([1, 3]))
    path = tf.train.Checkpoint(model=model).write(_prefix(tmp_path))
    fresh = tf.keras.Sequential([tf.keras.layers.Dense(2)])
    tf.train.Checkpoint(model=fresh).restore(path)

    @tf.function
    def call(x):
        return fresh(x)

    np.testing.assert_allclose(call(tf.ones([1, 3])).numpy(), model(tf.ones([1, 3])).numpy())


def test_custom_object_saves_and_restores_its_own_tensors(tmp_path):
    class Position:
        """Stores a position as a dataset iterator does: tensors by name."""

        def __init__(self, n):
            self.n = n

        def _serialize_to_tensors(self):
            return {"POSITION": np.array(self.n, np.int64), "NAME": np.array(b"it", object)}

        def _restore_from_tensors(self, tensors):
            assert tensors["NAME"] == b"it"
            self.n = int(tensors["POSITION"])

    path = tf.train.Checkpoint(it=Position(7)).write(_prefix(tmp_path))
    assert "it/.ATTRIBUTES/POSITION" in dict(tf.train.list_variables(path))
    restored = Position(0)
    tf.train.Checkpoint(it=restored).read(path).assert_consumed()
    assert restored.n == 7


# -- statuses -----------------------------------------------------------------------------

def test_status_assertions(tmp_path):
    path = tf.train.Checkpoint(a=tf.Variable([1.0, 2.0]), s=tf.Variable(["x"])).save(
        _prefix(tmp_path))
    status = tf.train.Checkpoint(a=tf.Variable([0.0, 0.0])).restore(path)
    status.assert_existing_objects_matched()
    status.assert_nontrivial_match()
    with pytest.raises(AssertionError, match=r"Unresolved object in checkpoint \(root\)\.s"):
        status.assert_consumed()
    assert status.expect_partial() is status
    status.run_restore_ops()
    status = tf.train.Checkpoint(a=tf.Variable([0.0, 0.0]), b=tf.Variable(1.0)).restore(path)
    with pytest.raises(AssertionError, match="Found 1 Python objects that were not bound to "
                                             "checkpointed values.*Variable:0"):
        status.assert_existing_objects_matched()
    status = tf.train.Checkpoint(q=tf.Variable(1.0)).restore(
        tf.train.Checkpoint(a=tf.Variable(1.0)).write(_prefix(tmp_path, "written")))
    with pytest.raises(AssertionError, match="Nothing except the root object matched"):
        status.assert_nontrivial_match()
    status = tf.train.Checkpoint(a=tf.Variable(1.0)).restore(None)
    for check in (status.assert_consumed, status.assert_existing_objects_matched,
                  status.assert_nontrivial_match):
        with pytest.raises(AssertionError, match=r"No checkpoint specified \(save_path=None\)"):
            check()
    with pytest.raises(AssertionError, match="No checkpoint specified, so no restore ops are "
                                             "available"):
        status.run_restore_ops()
    status.initialize_or_restore()


# -- errors --------------------------------------------------------------------------------

def test_missing_checkpoint_raises_not_found(tmp_path):
    missing = _prefix(tmp_path, "nope")
    with pytest.raises(tf.errors.NotFoundError, match="Error when restoring from checkpoint or "
                       "SavedModel at .*nope: Unsuccessful TensorSliceReader constructor: "
                       "Failed to find any matching files for .*nope\nPlease double-check"):
        tf.train.Checkpoint(v=tf.Variable(1.0)).restore(missing)
    with pytest.raises(tf.errors.NotFoundError, match="Failed to find any matching files"):
        tf.train.load_checkpoint(missing)
    with pytest.raises(ValueError, match="Couldn't find 'checkpoint' file or checkpoints"):
        tf.train.list_variables(str(tmp_path))
    assert tf.train.latest_checkpoint(str(tmp_path)) is None
    with pytest.raises(tf.errors.DataLossError, match="Is a directory"):
        tf.train.Checkpoint(v=tf.Variable(1.0)).restore(str(tmp_path))


def test_shape_and_dtype_mismatches_raise_tf_errors(tmp_path):
    path = tf.train.Checkpoint(a=tf.Variable([1.0, 2.0, 3.0])).write(_prefix(tmp_path))
    with pytest.raises(ValueError, match=r"Received incompatible tensor with shape \(3,\) when "
                       r"attempting to restore variable with shape \(2,\) and name Variable:0"):
        tf.train.Checkpoint(a=tf.Variable([1.0, 2.0])).restore(path)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="tensor_name = a/.ATTRIBUTES/VARIABLE_VALUE; expected dtype int32 "
                             "does not equal original dtype float"):
        tf.train.Checkpoint(a=tf.Variable([1, 2, 3])).restore(path)


def _damage(path, offset, cut=False):
    with open(path, "rb") as f:
        data = bytearray(f.read())
    if cut:
        data = data[:offset]
    else:
        data[offset] ^= 0x10
    with open(path, "wb") as f:
        f.write(data)


def test_corrupt_or_truncated_data_raises_data_loss_naming_file_and_tensor(tmp_path):
    prefix = tf.train.Checkpoint(a=tf.Variable([1.0, 2.0, 3.0]),
                                 s=tf.Variable(["x", "yy"])).write(_prefix(tmp_path))
    data = prefix + ".data-00000-of-00001"
    _damage(data, 1)
    with pytest.raises(tf.errors.DataLossError, match=r"Checksum does not match") as e:
        tf.train.Checkpoint(a=tf.Variable([0.0, 0.0, 0.0])).restore(prefix)
    assert "a/.ATTRIBUTES/VARIABLE_VALUE" in str(e.value) and data in str(e.value)
    _damage(data, 5, cut=True)
    with pytest.raises(tf.errors.DataLossError, match="truncated") as e:
        tf.train.load_checkpoint(prefix).get_tensor("s/.ATTRIBUTES/VARIABLE_VALUE")
    assert "s/.ATTRIBUTES/VARIABLE_VALUE" in str(e.value) and data in str(e.value)


@pytest.mark.parametrize("threads_free", [True, False])
def test_large_tensors_round_trip_and_damage_is_found_anywhere(tmp_path, monkeypatch,
                                                               threads_free):
    # checkpoints this large write their bytes on a second thread, in batches, while the
    # checksums are computed; a tensor this large is read straight into its array, in
    # pieces read and checksummed on helper threads at once while they are free
    monkeypatch.setattr(internals.crc32c_module, "_threads_free", lambda: threads_free)
    rng = np.random.default_rng(0)
    big = rng.standard_normal(3_000_001).astype(np.float32)  # 12 MB, not whole chunks
    mid = rng.integers(-9, 9, (1024, 1024), dtype=np.int64)
    ckpt = tf.train.Checkpoint(big=tf.Variable(big), s=tf.Variable(["a", "bc"]),
                               mid=tf.Variable(mid), few=[tf.Variable(float(i)) for i in range(5)])
    prefix = ckpt.write(_prefix(tmp_path))
    data = prefix + ".data-00000-of-00001"
    with open(data, "rb") as f:
        content = f.read()
    assert big.tobytes() in content and mid.tobytes() in content
    restored = tf.train.Checkpoint(big=tf.Variable(np.zeros_like(big)), s=tf.Variable(["", ""]),
                                   mid=tf.Variable(np.zeros_like(mid)),
                                   few=[tf.Variable(0.0) for _ in range(5)])
    restored.read(prefix).assert_consumed()
    np.testing.assert_array_equal(restored.big.numpy(), big)
    np.testing.assert_array_equal(restored.mid.numpy(), mid)
    assert restored.s.numpy().tolist() == [b"a", b"bc"] and restored.few[4].numpy() == 4.0
    restored.big.assign_add(np.ones_like(big))  # the restored value is the variable's own
    np.testing.assert_array_equal(tf.train.load_variable(prefix, "big" + KEY), big)
    start = content.index(big.tobytes())
    _damage(data, start + 10_000_003)  # far into the tensor
    with pytest.raises(tf.errors.DataLossError, match=r"Checksum does not match") as e:
        restored.read(prefix)
    assert "big" + KEY in str(e.value) and data in str(e.value)
    _damage(data, start + 9_000_000, cut=True)
    with pytest.raises(tf.errors.DataLossError, match="truncated") as e:
        tf.train.load_variable(prefix, "big" + KEY)
    assert "big" + KEY in str(e.value) and "wanted 12000004 bytes" in str(e.value)


def test_a_large_checkpoint_written_again_at_its_prefix_reads_the_new_values(tmp_path):
    # (the replaced data file is closed, which frees its blocks, on another thread)
    v = tf.Variable(np.arange(2_000_000, dtype=np.float32))
    ckpt = tf.train.Checkpoint(v=v)
    prefix = ckpt.write(_prefix(tmp_path))
    with open(prefix + ".data-00000-of-00001", "rb") as f:
        held = f.read(64)  # a reader of the old file keeps reading it
        v.assign(-v)
        assert ckpt.write(_prefix(tmp_path)) == prefix
        assert f.read(64) == np.arange(16, 32, dtype=np.float32).tobytes()  # the old bytes
    np.testing.assert_array_equal(tf.train.load_variable(prefix, "v" + KEY),
                                  -np.arange(2_000_000, dtype=np.float32))
    assert held == np.arange(16, dtype=np.float32).tobytes()
    assert not [n for n in os.listdir(os.path.dirname(prefix)) if "_temp_" in n]


def test_overwriting_a_large_checkpoint_sends_its_bytes_to_the_disk_while_writing(
        tmp_path, monkeypatch):
    # (else the rename over the old file would start that writeback and wait for it, on
    # file systems such as ext4; a new checkpoint is left to the page cache)
    calls = []
    monkeypatch.setattr(internals.checkpoint_bundle, "_sync_file_range",
                        lambda: lambda fd, start, size, flags: calls.append((start, size)))
    v = tf.Variable(np.arange(3_000_001, dtype=np.float32))
    ckpt = tf.train.Checkpoint(v=v)
    prefix = ckpt.write(_prefix(tmp_path))
    assert calls == []
    v.assign(-v)
    assert ckpt.write(_prefix(tmp_path)) == prefix
    size = os.path.getsize(prefix + ".data-00000-of-00001")
    assert calls[0][0] == 0 and sum(n for _, n in calls) == size and len(calls) > 1
    assert all(a + n == b for (a, n), (b, _) in zip(calls, calls[1:]))  # in order, whole
    np.testing.assert_array_equal(tf.train.load_variable(prefix, "v" + KEY),
                                  -np.arange(3_000_001, dtype=np.float32))
    monkeypatch.setattr(internals.checkpoint_bundle, "_sync_file_range", lambda: None)
    v.assign(v * 2)  # where the system has no such call, the bytes stay in the page cache
    ckpt.write(_prefix(tmp_path))
    np.testing.assert_array_equal(tf.train.load_variable(prefix, "v" + KEY),
                                  -2 * np.arange(3_000_001, dtype=np.float32))


@pytest.mark.parametrize("imported", [True, False])
def test_large_checkpoints_are_written_and_read_at_interpreter_exit(tmp_path, imported):
    # no new threads start then: the bytes move on the calling thread
    code = ("import atexit, os, numpy as np\n"
            "import eagerflow as tf\n"
            + ("tf.train.Checkpoint\n" if imported else "") +
            "v = tf.Variable(np.arange(3_000_000, dtype=np.float32))\n"
            "def save():\n"
            f"    path = tf.train.Checkpoint(v=v).write({str(tmp_path / 'ckpt')!r})\n"
            "    r = tf.train.Checkpoint(v=tf.Variable(np.zeros(3_000_000, np.float32)))\n"
            "    r.read(path).assert_consumed()\n"
            "    assert (r.v.numpy() == v.numpy()).all()\n"
            "    print('restored')\n"
            "atexit.register(save)\n")
    src = os.path.join(os.path.dirname(tf.__file__), "..")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, env=dict(os.environ, PYTHONPATH=os.path.abspath(src)))
    assert done.stdout == "restored\n", done.stderr


def test_corrupt_index_raises_data_loss(tmp_path):
    prefix = tf.train.Checkpoint(a=tf.Variable(1.0)).write(_prefix(tmp_path))
    index = prefix + ".index"
    _damage(index, 20)
    with pytest.raises(tf.errors.DataLossError, match="block checksum mismatch"):
        tf.train.load_checkpoint(prefix)
    _damage(index, 30, cut=True)
    with pytest.raises(tf.errors.DataLossError, match="bad magic number"):
        tf.train.Checkpoint(a=tf.Variable(1.0)).restore(prefix)


def test_failed_write_leaves_the_previous_checkpoint(tmp_path):
    class Broken:
        def _serialize_to_tensors(self):
            return {"X": np.array([object()], object)}

        def _restore_from_tensors(self, tensors):
            pass

    v = tf.Variable(1.0)
    prefix = tf.train.Checkpoint(v=v).write(_prefix(tmp_path))
    v.assign(2.0)
    with pytest.raises(TypeError):
        tf.train.Checkpoint(v=v, z=Broken()).write(prefix)
    assert sorted(os.listdir(str(tmp_path))) == ["ckpt.data-00000-of-00001", "ckpt.index"]
    assert tf.train.load_variable(prefix, "v" + KEY) == 1.0


# -- reader ---------------------------------------------------------------------------------

def test_reader(tmp_path):
    prefix = tf.train.Checkpoint(w=tf.Variable([[1, 2]], dtype=tf.int64),
                                 s=tf.Variable("a")).write(_prefix(tmp_path))
    reader = tf.train.load_checkpoint(prefix)
    assert reader.get_variable_to_shape_map()["w" + KEY] == [1, 2]
    assert reader.get_variable_to_dtype_map()["w" + KEY] == tf.int64
    assert reader.get_variable_to_dtype_map()["_CHECKPOINTABLE_OBJECT_GRAPH"] == tf.string
    assert reader.has_tensor("s" + KEY) and not reader.has_tensor("s")
    assert reader.get_tensor("s" + KEY) == b"a"
    with pytest.raises(tf.errors.NotFoundError, match="Key w not found in checkpoint"):
        reader.get_tensor("w")
    np.testing.assert_array_equal(tf.train.load_variable(prefix, "w" + KEY), [[1, 2]])
    assert tf.compat.v1.train.NewCheckpointReader(prefix).has_tensor("w" + KEY)


def test_two_objects_under_one_name_are_refused(tmp_path):
    class Twice(tf.keras.layers.Layer):
        def build(self, shape):
            self.a = self.add_weight("w", shape=())
            self.b = self.add_weight("w", shape=())

    layer = Twice()
    layer(tf.ones([1]))
    with pytest.raises(ValueError, match="the name 'w' too"):
        tf.train.Checkpoint(layer=layer).write(_prefix(tmp_path))
    assert os.listdir(str(tmp_path)) == []


def test_root_may_be_a_weak_reference_and_options_are_accepted(tmp_path):
    import weakref
    m = tf.Module()
    m.v = tf.Variable(1.0)
    options = tf.train.CheckpointOptions(experimental_io_device="/job:localhost")
    ckpt = tf.train.Checkpoint(root=weakref.ref(m))
    path = ckpt.save(_prefix(tmp_path), options=options)
    m.v.assign(0.0)
    ckpt.restore(path, options=options).assert_consumed()
    assert float(m.v.numpy()) == 1.0
    assert "v" + KEY in dict(tf.train.list_variables(path))


def _object_graph(path):
    graph = internals.checkpoint_protos.TrackableObjectGraph()
    graph.ParseFromString(tf.train.load_checkpoint(path).get_tensor("_CHECKPOINTABLE_OBJECT_GRAPH"))
    return graph


def test_a_weight_held_by_an_attribute_of_its_name_is_one_edge(tmp_path):
    # TF: Dense's kernel is tracked once as "kernel" (by add_weight and by self.kernel);
    # a weight held under another attribute name has both edges.
    class Layer(tf.keras.layers.Layer):
        def build(self, shape):
            self.w = self.add_weight("kernel", shape=(2,))

        def call(self, x):
            return x * self.w

    dense, layer = tf.keras.layers.Dense(2), Layer()
    dense(tf.ones((1, 3)))
    layer(tf.ones((1, 2)))
    path = tf.train.Checkpoint(d=dense, l=layer).write(_prefix(tmp_path))
    graph = _object_graph(path)
    edges = {ref.local_name: [c.local_name for c in graph.nodes[ref.node_id].children]
             for ref in graph.nodes[0].children}
    assert edges == {"d": ["kernel", "bias"], "l": ["kernel", "w"]}


def test_a_list_or_dict_changed_outside_its_wrapper_is_not_saved(tmp_path):
    m = tf.Module()
    listed, table = [tf.Variable(1.0)], {"a": tf.Variable(1.0)}
    m.vs, m.d = listed, table
    m.vs.append(tf.Variable(2.0))  # through the wrapper: saved
    tf.train.Checkpoint(m=m).save(str(tmp_path / "ok"))
    listed.append(tf.Variable(3.0))  # the caller's own change: a restore could not rebuild it
    with pytest.raises(ValueError, match=r"^Unable to save the object ListWrapper\(\[<tf.Variable "
                                         r".*The wrapped list was modified outside the wrapper "
                                         r"\(its final value was \[<tf.Variable"):
        tf.train.Checkpoint(m=m).save(str(tmp_path / "list"))
    del m.vs
    table["b"] = tf.Variable(2.0)
    with pytest.raises(ValueError, match=r"^Unable to save the object \{'a': .*\(a dictionary "
                                         r"wrapper constructed automatically on attribute "
                                         r"assignment\). The wrapped dictionary was modified"):
        tf.train.Checkpoint(m=m).save(str(tmp_path / "dict"))


def test_trackable_and_checkpoint_views(tmp_path):
    class Model(tf.Module):
        def __init__(self):
            super().__init__()
            self.a = tf.Variable(1.0)
            self.sub = tf.Module()
            self.sub.b = tf.Variable(2.0)
            self.items = [tf.Variable(3.0)]

    model = Model()
    view = tf.train.TrackableView(model)
    assert view.root is model and list(view.children(model)) == ["a", "sub", "items"]
    assert [type(d).__name__ for d in view.descendants()] == [  # breadth first, as TF's
        "Model", "ResourceVariable", "Module", "ListWrapper", "ResourceVariable",
        "ResourceVariable"]
    path = tf.train.Checkpoint(model=model).save(str(tmp_path / "ckpt"))
    saved = tf.train.CheckpointView(path)
    assert saved.children(0) == {"model": 1, "save_counter": 2}
    assert saved.descendants() == list(range(8))
    other = Model()
    matched = saved.match(tf.train.Checkpoint(model=other))
    assert matched[1] is other and matched[3] is other.a and matched[7] is other.items[0]
    matched, nodes, objects = saved.diff(tf.train.Checkpoint(model=other))
    assert 2 in nodes and objects == []  # (the new checkpoint has no save counter yet)


def test_a_root_variables_key_starts_with_a_slash(tmp_path):
    # (TF joins the root's empty path into its keys: ``/.ATTRIBUTES/VARIABLE_VALUE``)
    v, w = tf.Variable(1.0), tf.Variable(2.0)
    path = tf.train.Checkpoint(v, w=w).save(_prefix(tmp_path, "rooted"))
    assert [k for k, _ in tf.train.list_variables(path)] == [
        "/" + KEY[1:], "_CHECKPOINTABLE_OBJECT_GRAPH", "save_counter" + KEY, "w" + KEY]
    v.assign(5.0)
    tf.train.Checkpoint(v, w=w).restore(path).assert_consumed()
    assert float(v.numpy()) == 1.0


def test_static_tables_are_checkpoint_nodes_with_nothing_to_save(tmp_path):
    def static():
        return tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(["a"], [1]), -1)
    vocab = tf.lookup.StaticVocabularyTable(
        tf.lookup.KeyValueTensorInitializer(["a"], tf.constant([0], tf.int64)), 2)
    path = tf.train.Checkpoint(t=static(), vocab=vocab, v=tf.Variable(1.0)).save(
        str(tmp_path / "ck"))
    # TF 2.21: only the variable and the save counter hold values
    assert [n for n, _ in tf.train.list_variables(path)] == [
        "_CHECKPOINTABLE_OBJECT_GRAPH", "save_counter/.ATTRIBUTES/VARIABLE_VALUE",
        "v/.ATTRIBUTES/VARIABLE_VALUE"]
    tf.train.Checkpoint(t=static(), vocab=vocab, v=tf.Variable(0.0)).restore(
        path).assert_consumed()


@pytest.mark.parametrize("key_dtype, value_dtype, key", [
    (tf.string, tf.int64, "mt/.ATTRIBUTES/table-values; expected dtype int64 does not equal "
                          "original dtype float"),
    (tf.int64, tf.float32, "mt/.ATTRIBUTES/table-keys; expected dtype int64 does not equal "
                           "original dtype string"),
])
def test_a_table_of_other_dtypes_than_saved_is_not_restored(tmp_path, key_dtype, value_dtype,
                                                            key):
    saved = tf.lookup.experimental.MutableHashTable(tf.string, tf.float32, 0.0)
    saved.insert(["a"], [1.5])
    path = tf.train.Checkpoint(mt=saved).write(str(tmp_path / "ck"))
    table = tf.lookup.experimental.MutableHashTable(key_dtype, value_dtype, 0)
    with pytest.raises(tf.errors.InvalidArgumentError, match=f"tensor_name = {key}"):
        tf.train.Checkpoint(mt=table).read(path)
    assert int(table.size()) == 0


def test_sync_after_an_asynchronous_save_finds_it_written(tmp_path):
    v = tf.Variable([1.0, 2.0])
    ckpt = tf.train.Checkpoint(v=v)
    path = ckpt.save(_prefix(tmp_path), options=tf.train.CheckpointOptions(enable_async=True))
    v.assign([10.0, 20.0])  # (after the save: not in it)
    assert ckpt.sync() is None
    assert tf.train.load_variable(path, "v/.ATTRIBUTES/VARIABLE_VALUE").tolist() == [1.0, 2.0]

"""TF 1's name-based `Saver` (``tf.compat.v1.train.Saver``), against a checkpoint TF's
`Saver` wrote (`data/make_v1_saver_data.py`)."""
import os

import numpy as np
import pytest

import eagerflow as tf
import eagerflow.compat.v1 as tf1

from tests.compat.v1_train_programs import saver_program

TF_CHECKPOINT = os.path.join(os.path.dirname(__file__), "data", "v1_saver", "model-3")


def _trained(steps):
    g, init, train, saver, fetch = saver_program(tf1)
    with tf1.Session(graph=g) as sess:
        sess.run(init)
        for _ in range(steps):
            sess.run(train)
        return sess.run(fetch)


def test_restores_tfs_checkpoint_by_name():
    want = _trained(3)
    g, init, train, saver, fetch = saver_program(tf1)
    with tf1.Session(graph=g) as sess:
        sess.run(init)
        saver.restore(sess, TF_CHECKPOINT)
        got = sess.run(fetch)
    assert sorted(got) == sorted(want)
    for name in want:
        np.testing.assert_allclose(got[name], want[name], rtol=1e-6, err_msg=name)
    assert int(got["global_step:0"]) == 3


def test_save_writes_tfs_keys_and_checkpoint_state(tmp_path):
    g, init, train, saver, fetch = saver_program(tf1)
    prefix = str(tmp_path / "model")
    with tf1.Session(graph=g) as sess:
        sess.run(init)
        sess.run(train)
        paths = [saver.save(sess, prefix, global_step=tf1.train.get_global_step(g))]
        sess.run(train)
        paths.append(saver.save(sess, prefix, global_step=2))
        saved = sess.run(fetch)
    assert paths == [prefix + "-1", prefix + "-2"]
    assert tf.train.latest_checkpoint(str(tmp_path)) == prefix + "-2"
    assert saver.last_checkpoints == paths
    mine = dict(tf.train.list_variables(prefix + "-2"))
    assert mine == dict(tf.train.list_variables(TF_CHECKPOINT))
    g2, init2, _, saver2, fetch2 = saver_program(tf1)
    with tf1.Session(graph=g2) as sess:
        sess.run(init2)
        saver2.restore(sess, tf.train.latest_checkpoint(str(tmp_path)))
        restored = sess.run(fetch2)
    for name in saved:
        np.testing.assert_array_equal(restored[name], saved[name])


def test_max_to_keep_deletes_old_checkpoints(tmp_path):
    w = tf.Variable(1.0, name="w")
    saver = tf1.train.Saver([w], max_to_keep=2)
    for step in range(3):
        saver.save(None, str(tmp_path / "ckpt"), global_step=step)
    assert not os.path.exists(str(tmp_path / "ckpt-0.index"))
    assert saver.last_checkpoints == [str(tmp_path / f"ckpt-{i}") for i in (1, 2)]


def test_restore_errors():
    w = tf.Variable(1.0, name="missing")
    saver = tf1.train.Saver({"missing": w})
    with pytest.raises(ValueError, match="not a valid checkpoint"):
        saver.restore(None, "/nonexistent/model")
    with pytest.raises(tf.errors.NotFoundError, match="Key missing not found in checkpoint"):
        saver.restore(None, TF_CHECKPOINT)
    with pytest.raises(RuntimeError, match="`var_list` must specify"):
        tf1.train.Saver()


def test_save_makes_the_checkpoint_directory_but_not_its_parents(tmp_path):
    # As TF's bundle writer: "train_dir/model" saves into a new train_dir, while a
    # path whose parent's parent is missing is TF's ValueError.
    w = tf.Variable(2.0, name="w")
    saver = tf1.train.Saver([w])
    path = saver.save(None, str(tmp_path / "train_dir" / "model"), global_step=1)
    assert os.path.exists(path + ".index")
    assert tf1.train.latest_checkpoint(str(tmp_path / "train_dir")) == path
    with pytest.raises(ValueError, match="Parent directory of .* doesn't exist"):
        saver.save(None, str(tmp_path / "a" / "b" / "model"))
    assert not os.path.exists(str(tmp_path / "a"))


def test_init_from_checkpoint_of_tfs_saver():
    # TF 2.21: init_from_checkpoint maps names, scopes ('old/': 'new/') or variables to a
    # checkpoint's tensors; their initializers assign them (an AssignVariableOp of a
    # checkpoint_initializer), and wrong maps raise TF's ValueErrors
    reader = tf.train.load_checkpoint(TF_CHECKPOINT)
    g = tf1.Graph()
    with g.as_default():
        with tf1.variable_scope("new"):
            w = tf1.get_variable("w", [2, 1])
            b = tf1.get_variable("b", [1])
            adam = tf1.get_variable("w/Adam", [2, 1])
        step = tf1.get_variable("step", [], tf.int64, tf1.zeros_initializer())
        other = tf1.get_variable("other", [1], initializer=tf1.ones_initializer())
        tf1.train.init_from_checkpoint(TF_CHECKPOINT, {"/": "new/"})  # (TF's: scope 'new')
        assert (w.initializer.name, b.initializer.name) == ("AssignVariableOp_1",
                                                             "AssignVariableOp")
        assert w.initial_value.name == "checkpoint_initializer_1:0"
        tf1.train.init_from_checkpoint(TF_CHECKPOINT, [("global_step", step)])
        with pytest.raises(ValueError, match=r"^Tensor zzz is not found in .*model-3 "
                                             r"checkpoint \{"):
            tf1.train.init_from_checkpoint(TF_CHECKPOINT, {"zzz": "other"})
        with pytest.raises(ValueError, match=r"^Shape of variable other:0 \(\(1,\)\) doesn't "
                                             r"match with shape of tensor w \(\[2, 1\]\) "
                                             r"from checkpoint reader.$"):
            tf1.train.init_from_checkpoint(TF_CHECKPOINT, {"w": "other"})
        with pytest.raises(ValueError, match="^Assignment map with scope only name new should "
                                             "map to scope only w. Should be 'scope/': "
                                             "'other_scope/'.$"):
            tf1.train.init_from_checkpoint(TF_CHECKPOINT, {"w": "new/zzz"})
        with pytest.raises(ValueError, match=r"^Tensor new/b \(ew/b in /\) is not found in "):
            tf1.train.init_from_checkpoint(TF_CHECKPOINT, {"/": "/"})
        init = tf1.global_variables_initializer()
    with tf1.Session(graph=g) as sess:
        sess.run(init)
        for var, name in ((w, "w"), (b, "b"), (adam, "w/Adam"), (step, "global_step")):
            np.testing.assert_array_equal(sess.run(var), reader.get_tensor(name))
        assert sess.run(other).tolist() == [1.0]


def test_checkpoint_state_functions_are_tfs(tmp_path):
    # TF 2.21: update_checkpoint_state writes the paths as given (latest_filename third),
    # generate_checkpoint_state_proto makes relative ones relative to a relative save_dir,
    # remove_checkpoint deletes the files there are
    d = str(tmp_path)
    tf1.train.update_checkpoint_state(d, os.path.join(d, "m-2"), [os.path.join(d, "m-1")])
    with open(os.path.join(d, "checkpoint")) as f:
        assert f.read() == (f'model_checkpoint_path: "{d}/m-2"\n'
                            f'all_model_checkpoint_paths: "{d}/m-1"\n'
                            f'all_model_checkpoint_paths: "{d}/m-2"\n')
    tf1.train.update_checkpoint_state(d, "m-4", None, "other_state")
    with open(os.path.join(d, "other_state")) as f:
        assert f.read() == 'model_checkpoint_path: "m-4"\nall_model_checkpoint_paths: "m-4"\n'
    state = tf1.train.generate_checkpoint_state_proto(
        "rel", "rel/m-5", ["rel/m-4"], all_model_checkpoint_timestamps=[1.0, 2.0],
        last_preserved_timestamp=0.5)
    assert type(state).__name__ == "CheckpointState"
    assert str(state) == ('model_checkpoint_path: "m-5"\nall_model_checkpoint_paths: "m-4"\n'
                          'all_model_checkpoint_paths: "m-5"\n'
                          'all_model_checkpoint_timestamps: 1\n'
                          'all_model_checkpoint_timestamps: 2\nlast_preserved_timestamp: 0.5\n')
    with pytest.raises(RuntimeError, match="^Save path '.*/checkpoint' conflicts with path "
                                           "used for checkpoint state.  Please use a "
                                           "different save path.$"):
        tf1.train.update_checkpoint_state(d, os.path.join(d, "checkpoint"))
    path = tf.train.Checkpoint(v=tf.Variable(1.0)).write(os.path.join(d, "ck"))
    tf1.train.remove_checkpoint(path)
    assert sorted(os.listdir(d)) == ["checkpoint", "other_state"]


def test_checkpoint_state_holds_the_paths_as_given_unless_relative_paths_are_asked(tmp_path):
    w = tf.Variable([1.0], name="w")
    absolute = str(tmp_path / "a" / "model")
    tf1.train.Saver([w]).save(None, absolute, global_step=1)
    with open(tmp_path / "a" / "checkpoint") as f:
        assert f.read() == (f'model_checkpoint_path: "{absolute}-1"\n'
                            f'all_model_checkpoint_paths: "{absolute}-1"\n')
    tf1.train.Saver([w], save_relative_paths=True).save(None, str(tmp_path / "b" / "model"))
    with open(tmp_path / "b" / "checkpoint") as f:
        assert f.read() == 'model_checkpoint_path: "model"\nall_model_checkpoint_paths: "model"\n'
    with pytest.raises(ValueError, match=r"^Parent directory of .*/c/d/model doesn't exist"):
        tf1.train.Saver([w]).save(None, str(tmp_path / "c" / "d" / "model"), global_step=2)


def test_saver_var_list_checks_and_last_checkpoints_as_tfs(tmp_path):
    with tf.Graph().as_default():
        w = tf1.get_variable("w", [4, 2], partitioner=tf1.fixed_size_partitioner(2))
        v = tf1.get_variable("v", [3])
        with pytest.raises(ValueError, match="^At least two variables have the same name: w$"):
            tf1.train.Saver([w, w])
        saver = tf1.train.Saver([v], max_to_keep=2)
        with pytest.raises(ValueError, match="^Parent directory of .* doesn't exist"):
            tf1.train.Saver([v], sharded=True).save(None, str(tmp_path / "new" / "m"))
        with tf1.Session() as sess:
            sess.run(tf1.global_variables_initializer())
            paths = [saver.save(sess, str(tmp_path / "m"), global_step=i) for i in range(2)]
        again = tf1.train.Saver([v], max_to_keep=5)
        again.recover_last_checkpoints(paths + [str(tmp_path / "gone")])
        assert again.last_checkpoints == paths
        again.set_last_checkpoints(paths[:1])
        assert again.last_checkpoints == paths[:1]


def test_import_meta_graph_restores_by_the_keys_of_the_saver_it_holds(tmp_path):
    # TF 2.21: the imported SaverDef's restore reads the keys the saver saved (a dict's),
    # and only its variables; the others stay uninitialized
    with tf.Graph().as_default():
        w = tf1.get_variable("w", initializer=tf.constant([[1.0, 2.0], [3.0, 4.0]]),
                             partitioner=tf1.fixed_size_partitioner(2))
        v = tf1.get_variable("v", initializer=tf.constant([5, 6]))
        tf1.get_variable("other", [1])
        saver = tf1.train.Saver({"pw": w, "vv": v})
        with tf1.Session() as sess:
            sess.run(tf1.global_variables_initializer())
            path = saver.save(sess, str(tmp_path / "m"))
    with tf.Graph().as_default():
        restorer = tf1.train.import_meta_graph(path + ".meta")
        with tf1.Session() as sess:
            restorer.restore(sess, path)
            got = {x.name: sess.run(x).tolist() for x in tf1.global_variables()
                   if x.name != "other:0"}
            with pytest.raises(tf.errors.FailedPreconditionError):
                sess.run(tf1.global_variables()[-1])
    assert got == {"w/part_0:0": [[1.0, 2.0]], "w/part_1:0": [[3.0, 4.0]], "v:0": [5, 6]}


def test_restore_checks_dtypes_and_eager_shapes_as_tf(tmp_path):
    k = tf.Variable([[1.0, 2.0]], name="k")
    i = tf.Variable(5, name="i")
    path = tf1.train.Saver([k, i]).save(None, str(tmp_path / "nb"))
    target = tf.Variable(0.0)
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf1.train.Saver({"i": target}).restore(None, path)
    assert str(info.value).startswith("Restoring from checkpoint failed. This is most likely "
                                      "due to a mismatch between the current graph and the "
                                      "graph from the checkpoint.")
    assert ("tensor_name = i; expected dtype float does not equal original dtype int32"
            in str(info.value))
    assert target.numpy() == 0.0
    with pytest.raises(ValueError, match=r"^Received incompatible tensor with shape \(1, 2\) "
                       r"when attempting to restore variable with shape \(2,\) and name k\.$"):
        tf1.train.Saver({"k": tf.Variable([1.0, 2.0])}).restore(None, path)
    with tf.Graph().as_default():
        wrong = tf1.get_variable("k", [1, 2], dtype=tf.int32)
        with tf1.Session() as sess:
            with pytest.raises(tf.errors.InvalidArgumentError,
                               match="tensor_name = k; expected dtype int32 does not equal "
                                     "original dtype float"):
                tf1.train.Saver([wrong]).restore(sess, path)


def test_an_empty_saver_fails_when_saving_eagerly_and_when_built_in_a_graph(tmp_path):
    saver = tf1.train.Saver([])  # (eagerly: made, as TF makes it)
    with pytest.raises(ValueError, match="^No variables to save$"):
        saver.save(None, str(tmp_path / "empty"))
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="^No variables to save$"):
            tf1.train.Saver([])


def _saves(tmp_path, steps, **kwargs):
    """The files and checkpoint state after `steps` saves of a Saver made with `kwargs`."""
    g = tf.Graph()
    with g.as_default():
        tf1.get_variable("w", initializer=tf.constant([1.0, 2.0]))
        saver = tf1.train.Saver(**kwargs)
        with tf1.Session() as sess:
            sess.run(tf1.global_variables_initializer())
            for i in range(steps):
                saver.save(sess, str(tmp_path / "k"), global_step=i)
    state = tf.train.get_checkpoint_state(str(tmp_path))
    kept = sorted(f[:-len(".index")] for f in os.listdir(tmp_path) if f.endswith(".index"))
    return kept, saver.last_checkpoints, [os.path.basename(p) for p in
                                          state.all_model_checkpoint_paths]


def test_keep_checkpoint_every_n_hours_keeps_what_max_to_keep_drops(tmp_path):
    # (every checkpoint is written after the time the next one is kept: none is deleted)
    kept, last, listed = _saves(tmp_path, 3, max_to_keep=1, keep_checkpoint_every_n_hours=0.0)
    assert kept == ["k-0", "k-1", "k-2"]
    assert [os.path.basename(p) for p in last] == ["k-2"] and listed == ["k-2"]


def test_without_max_to_keep_nothing_is_counted_or_deleted(tmp_path):
    for max_to_keep in (None, 0):
        kept, last, listed = _saves(tmp_path / str(max_to_keep), 3, max_to_keep=max_to_keep)
        assert kept == ["k-0", "k-1", "k-2"]
        assert last == [] and listed == ["k-2"]  # (TF's state file: the latest alone)


def test_checkpoints_set_as_last_are_never_deleted(tmp_path):
    g = tf.Graph()
    with g.as_default():
        tf1.get_variable("w", initializer=tf.constant(1.0))
        saver = tf1.train.Saver(max_to_keep=1)
        with tf1.Session() as sess:
            sess.run(tf1.global_variables_initializer())
            first = saver.save(sess, str(tmp_path / "a"))
            saver.set_last_checkpoints([first])
            saver.save(sess, str(tmp_path / "b"))
            saver.save(sess, str(tmp_path / "c"))
    assert sorted(f for f in os.listdir(tmp_path) if f.endswith(".index")) == [
        "a.index", "c.index"]

"""A CheckpointManager saving many checkpoints holds no more memory as it goes."""
import gc

import eagerflow as tf


def _objects():
    gc.collect()
    return len(gc.get_objects())


def test_saving_and_deleting_many_checkpoints_keeps_the_object_count(tmp_path):
    manager = tf.train.CheckpointManager(tf.train.Checkpoint(v=tf.Variable(1.0)),
                                         str(tmp_path), max_to_keep=2)
    for _ in range(10):
        manager.save()
    before = _objects()
    for _ in range(60):
        manager.save()
    after = _objects()
    assert after - before < 40  # (a compiled pattern per checkpoint deleted: 120 more)
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "checkpoint", "ckpt-69.data-00000-of-00001", "ckpt-69.index",
        "ckpt-70.data-00000-of-00001", "ckpt-70.index"]


def test_a_manager_at_the_root_of_the_ram_file_system_deletes_old_checkpoints():
    checkpoint = tf.train.Checkpoint(v=tf.Variable(1.0))
    manager = tf.train.CheckpointManager(checkpoint, "ram://", max_to_keep=1,
                                         checkpoint_name="rootckpt")
    first = manager.save()
    second = manager.save()
    names = tf.io.gfile.listdir("ram://")
    assert first.rpartition("/")[2] + ".index" not in names
    assert second.rpartition("/")[2] + ".index" in names


def test_remove_checkpoint_deletes_the_index_shards_and_meta_graph_only(tmp_path):
    prefix = tf.train.Checkpoint(v=tf.Variable(1.0)).save(str(tmp_path / "c"))
    (tmp_path / "c-1.meta").write_text("")
    (tmp_path / "c-1.data-00000-of-00001.bak").write_text("")
    (tmp_path / "c-10.index").write_text("")
    tf.compat.v1.train.remove_checkpoint(prefix)
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "c-1.data-00000-of-00001.bak", "c-10.index", "checkpoint"]
    tf.compat.v1.train.remove_checkpoint(str(tmp_path / "missing" / "c-1"))  # nothing to do

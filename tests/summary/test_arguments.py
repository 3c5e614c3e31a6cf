"""The arguments of the summary functions and writers are checked as TF 2 checks them:
when (before the writer, or only when a summary is written), with TF's classes and
messages; what is written for the odd ones is read back from the event file."""
import glob
import os

import numpy as np
import pytest

import eagerflow as tf


def events(logdir):
    (path,) = glob.glob(os.path.join(str(logdir), "events.out.tfevents.*"))
    return [tf.compat.v1.Event.FromString(r) for r in tf.compat.v1.io.tf_record_iterator(path)
            if r]


def written(logdir):
    """(step, tag, value) of each summary in `logdir`'s event file."""
    return [(e.step, v.tag, tf.make_ndarray(v.tensor).tolist())
            for e in events(logdir) for v in e.summary.value]


def test_step_must_have_one_element_even_without_a_writer():
    with pytest.raises(ValueError, match=r"^Argument `step` must be a scalar\. Received step "
                                         r"with shape \(2,\)\.$"):
        tf.summary.scalar("a", 1.0, step=[1, 2])
    with pytest.raises(TypeError, match="Cannot convert 'x' to EagerTensor of dtype int64"):
        tf.summary.scalar("a", 1.0, step="x")
    with pytest.raises(ValueError, match="out-of-range integer"):
        tf.summary.write("a", 1.0, step=2 ** 63)


def test_a_one_element_step_is_written_as_its_element(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path))
    with writer.as_default():
        assert bool(tf.summary.scalar("a", 1.0, step=[3]))
        assert bool(tf.summary.histogram("h", [1.0], step=np.array([[4]]), buckets=1))
        assert bool(tf.summary.scalar("b", 2.0, step=np.uint8(5)))
    writer.close()
    assert [(s, t) for s, t, _ in written(tmp_path)] == [(3, "a"), (4, "h"), (5, "b")]


def test_tags_and_metadata_convert_to_strings(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path))
    with writer.as_default(step=0):
        with pytest.raises(ValueError, match=r"^Attempt to convert a value \(None\)"):
            tf.summary.write(None, 1.0)
        with pytest.raises(TypeError, match="^Cannot convert 3 to EagerTensor of dtype string"):
            tf.summary.write(3, 1.0)
        with pytest.raises(TypeError, match="^Cannot convert 3 to EagerTensor of dtype string"):
            tf.summary.write("a", 1.0, metadata=3)
        with pytest.raises(TypeError, match="expected string or bytes-like object"):
            tf.summary.scalar(3, 1.0)
        assert bool(tf.summary.write(tf.constant("tensor_tag"), 1.0))
        assert bool(tf.summary.write(b"bytes_tag", 2.0))
        metadata = tf.compat.v1.SummaryMetadata(display_name="shown").SerializeToString()
        assert bool(tf.summary.write("str_metadata", 3.0, metadata=metadata.decode()))
    writer.close()
    assert written(tmp_path) == [(0, "tensor_tag", 1.0), (0, "bytes_tag", 2.0),
                                 (0, "str_metadata", 3.0)]
    assert events(tmp_path)[-1].summary.value[0].metadata.display_name == "shown"


def test_bucket_count_is_an_int32_scalar_checked_when_written(tmp_path):
    # no writer: the buckets are not looked at
    assert not bool(tf.summary.histogram("h", [1.0], step=0, buckets=2.5))
    with tf.summary.create_file_writer(str(tmp_path)).as_default(step=0):
        for buckets, dtype in [(2.5, "float32"), (np.int64(3), "int64"), (True, "bool")]:
            with pytest.raises(TypeError, match=f"^tensor must be of type tf.int32; "
                                                f"got tf.{dtype}$"):
                tf.summary.histogram("h", [1.0], buckets=buckets)
        with pytest.raises(ValueError, match=r"^Expected scalar shape, saw shape: \(1,\)\.$"):
            tf.summary.histogram("h", [1.0], buckets=[3])
        assert bool(tf.summary.histogram("h", [1.0, 2.0], buckets=tf.constant(2)))


def test_image_and_audio_are_checked_only_when_written(tmp_path):
    assert not bool(tf.summary.image("i", np.zeros([2, 2, 1]), step=0))
    assert not bool(tf.summary.audio("a", np.zeros([2, 2], np.float32), 8000, step=0))
    assert not bool(tf.summary.image("i", np.zeros([1, 2, 2, 1]), step=0, max_outputs=-1))
    with tf.summary.create_file_writer(str(tmp_path)).as_default(step=0):
        with tf.summary.record_if(False):
            assert not bool(tf.summary.image("i", np.zeros([2, 2, 1])))
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match=r"^\nCondition x >= 0 did not hold element-wise:\n"
                                 r"x \(shape=\(\) dtype=int32\) = \n-1$"):
            tf.summary.audio("a", np.zeros([2, 4, 1], np.float32), 8000, max_outputs=-1)
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match="input #1.*was expected to be a int32 tensor but is a float"):
            tf.summary.audio("a", np.zeros([1, 4, 1], np.float32), tf.constant(8000.0))


def test_scalar_of_unknown_rank_in_a_function(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path))

    @tf.function(input_signature=[tf.TensorSpec(None)])
    def log(x):
        with writer.as_default():
            return tf.summary.scalar("x", x, step=0)

    with pytest.raises(ValueError, match=r"Expected scalar shape for x:0, saw shape: "
                                         r"<unknown>\."):
        log(tf.constant(1.0))


def test_writer_arguments(tmp_path, monkeypatch):
    with pytest.raises(TypeError, match="^Cannot convert 3 to EagerTensor of dtype string"):
        tf.summary.create_file_writer(3)
    with pytest.raises(TypeError, match="^Cannot convert 'x' to EagerTensor of dtype int32"):
        tf.summary.create_file_writer(str(tmp_path), flush_millis="x")
    a_file = tmp_path / "a_file"
    a_file.write_text("")
    op_form = (r"^\{\{function_node __wrapped__CreateSummaryFileWriter_device_/job:localhost/"
               r"replica:0/task:0/device:CPU:0\}\} %s \[Op:CreateSummaryFileWriter\] name: $")
    with pytest.raises(tf.errors.FailedPreconditionError, match=op_form % "Not a directory"):
        tf.summary.create_file_writer(str(a_file))
    with pytest.raises(tf.errors.FailedPreconditionError,
                       match=op_form % f"{a_file} is not a directory"):
        tf.summary.create_file_writer(str(a_file / "run"))
    # "" is the working directory
    monkeypatch.chdir(tmp_path)
    writer = tf.summary.create_file_writer("", max_queue=np.int64(5))
    with writer.as_default(step=1):
        tf.summary.scalar("here", 1.0)
    writer.close()
    assert written(tmp_path) == [(1, "here", 1.0)]
    assert type(writer).__name__ == "_ResourceSummaryWriter"
    assert type(tf.summary.create_noop_writer()).__name__ == "_NoopSummaryWriter"


_GONE = (r"^\{\{function_node __wrapped__%s_device_/job:localhost/replica:0/task:0/device:CPU:0"
         r"\}\} Resource localhost/_AnonymousVar\d+/N10tensorflow22SummaryWriterInterfaceE "
         r"does not exist\. \[Op:%s\]%s$")


def test_a_closed_writer(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path))
    with writer.as_default(step=0):
        writer.close()
        gone = _GONE % ("WriteSummary", "WriteSummary", "")
        with pytest.raises(tf.errors.NotFoundError, match=gone):
            tf.summary.scalar("a", 1.0)
        with pytest.raises(tf.errors.NotFoundError, match=gone):
            tf.summary.histogram("h", [1.0])
        with pytest.raises(tf.errors.NotFoundError, match=gone):
            tf.summary.write("w", 1.0, name="named")
        with pytest.raises(tf.errors.NotFoundError,
                           match=_GONE % ("WriteRawProtoSummary", "WriteRawProtoSummary",
                                          " name: ")):
            tf.summary.experimental.write_raw_pb(b"", name="named")
        with pytest.raises(tf.errors.NotFoundError,
                           match=_GONE % ("WriteGraphSummary", "WriteGraphSummary", " name: ")):
            tf.summary.graph(tf.Graph())
        writer.flush()  # (as TF: nothing to do)
        writer.close()
    for reopen in (writer.init, writer.set_as_default, writer.as_default):
        with pytest.raises(RuntimeError, match=r"^SummaryWriter .* is already closed$"):
            reopen()


def test_write_raw_pb_merges_its_summaries_into_one_event(tmp_path):
    raw = tf.compat.v1.Summary(value=[tf.compat.v1.Summary.Value(
        tag="raw", simple_value=3.0)]).SerializeToString()
    writer = tf.summary.create_file_writer(str(tmp_path))
    with writer.as_default(step=2):
        assert bool(tf.summary.experimental.write_raw_pb(raw))
        assert bool(tf.summary.experimental.write_raw_pb([raw, raw], step=5))
        with pytest.raises(tf.errors.DataLossError,
                           match="Bad tf.compat.v1.Summary binary proto tensor string at "
                                 r"index 1 \[Op:WriteRawProtoSummary\]"):
            tf.summary.experimental.write_raw_pb([raw, b"\xff\xff"], step=6)
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match="was expected to be a string tensor but is a int32 tensor"):
            tf.summary.experimental.write_raw_pb(3, step=6)
        with pytest.raises(ValueError, match="^Argument `step` must be a scalar"):
            tf.summary.experimental.write_raw_pb(raw, step=[1, 2])
    writer.close()
    steps = [(e.step, [v.tag for v in e.summary.value]) for e in events(tmp_path)
             if e.summary.value]
    assert steps == [(2, ["raw"]), (5, ["raw", "raw"])]  # (nothing of the bad ones)


def test_write_raw_pb_needs_a_step_even_when_not_recording(tmp_path):
    with tf.summary.create_file_writer(str(tmp_path)).as_default(), \
            tf.summary.record_if(False):
        with pytest.raises(ValueError, match="No step set"):
            tf.summary.experimental.write_raw_pb(b"")


def test_record_if_a_number_and_summary_scope_defaults(tmp_path):
    with tf.summary.create_file_writer(str(tmp_path)).as_default(step=0):
        with tf.summary.record_if(0):
            assert not bool(tf.summary.should_record_summaries())
        with tf.summary.record_if(1):
            with pytest.raises(TypeError, match="Cannot convert 1 to EagerTensor of dtype bool"):
                tf.summary.should_record_summaries()
    with tf.summary.experimental.summary_scope("$$", "fallback") as (tag, scope):
        assert (tag, scope) == ("$$", "fallback/")
    with tf.summary.experimental.summary_scope("", "") as (tag, scope):
        assert (tag, scope) == ("", "")


def test_a_function_writing_to_a_closed_or_dropped_writer_raises(tmp_path):
    import gc

    writer = tf.summary.create_file_writer(str(tmp_path / "closed"))

    @tf.function
    def log(x):
        return tf.summary.scalar("x", x, step=1)

    with writer.as_default():
        assert bool(log(tf.constant(1.0)))
    writer.close()
    with pytest.raises(tf.errors.NotFoundError, match=r"(?s)^Graph execution error:.*node "
                                                      r"x_1/write_summary.*does not exist\."):
        log(tf.constant(2.0))
    dropped = tf.summary.create_file_writer(str(tmp_path / "dropped"))

    @tf.function
    def raw(x):
        return tf.summary.experimental.write_raw_pb(x, step=1)

    with dropped.as_default():
        assert bool(raw(tf.constant(b"")))
    del dropped
    gc.collect()
    with pytest.raises(tf.errors.NotFoundError, match="does not exist"):
        raw(tf.constant(b""))
    assert written(tmp_path / "closed") == [(1, "x", 1.0)]


def test_record_if_none_records(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path))
    with writer.as_default(step=2):
        with tf.summary.record_if(None):
            assert bool(tf.summary.should_record_summaries())
            assert bool(tf.summary.scalar("a", 1.0))
        with tf.summary.record_if(lambda: None):
            assert bool(tf.summary.scalar("b", 2.0))
    writer.close()
    assert written(tmp_path) == [(2, "a", 1.0), (2, "b", 2.0)]


def test_metadata_that_does_not_parse_is_written_empty(tmp_path):
    # (as TF's writer: the value keeps an empty metadata; the file stays readable)
    writer = tf.summary.create_file_writer(str(tmp_path))
    with writer.as_default(step=3):
        assert bool(tf.summary.write("bad", 1.0, metadata=b"\xff\xff"))
        assert bool(tf.summary.scalar("after", 2.0))
    writer.close()
    values = [v for e in events(tmp_path) for v in e.summary.value]
    assert [v.tag for v in values] == ["bad", "after"]
    assert values[0].HasField("metadata")
    assert values[0].metadata == tf.compat.v1.SummaryMetadata()


def test_graph_refuses_a_graph_context():
    @tf.function
    def f():
        return tf.summary.graph(tf.Graph())

    with pytest.raises(ValueError, match="graph\\(\\) cannot be invoked inside a graph context"):
        f()


def test_an_experimental_trackable_writer_goes_into_checkpoints(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path / "logs"), experimental_trackable=True)
    assert type(writer).__name__ == "_TrackableResourceSummaryWriter"
    assert isinstance(writer, tf.summary.SummaryWriter)
    step = tf.Variable(3, dtype=tf.int64)
    path = tf.train.Checkpoint(writer=writer, step=step).save(str(tmp_path / "ckpt" / "c"))
    step.assign(0)
    tf.train.Checkpoint(writer=writer, step=step).restore(path).assert_consumed()
    assert int(step) == 3
    with writer.as_default(step=1):
        assert bool(tf.summary.scalar("still_writes", 1.0))
    writer.close()
    with pytest.raises(ValueError, match="was expecting writer to be a trackable object"):
        tf.train.Checkpoint(writer=tf.summary.create_file_writer(str(tmp_path / "plain")))

"""tf.summary's writers, state and summaries, eagerly and inside functions."""
import os
import subprocess
import sys
import time

import numpy as np
import pytest

import eagerflow as tf
from tests import internals
from tests.summary.test_reference import read_events, tensor_value


def summaries(logdir):
    """(step, tag, value) of each summary event in `logdir`'s event file."""
    out = []
    for e in read_events(logdir):
        if e.HasField("summary"):
            v = e.summary.value[0]
            out.append((e.step, v.tag, np.asarray(tensor_value(v.tensor)).tolist()))
    return out


@pytest.fixture(autouse=True)
def clean_state():
    yield
    tf.summary.experimental.set_step(None)
    tf.summary.trace_off()


def test_a_suffix_follows_a_dot(tmp_path):
    # (as TF 2's writer: one is added when the suffix does not start with one)
    for suffix in ("", "abc", ".v3"):
        tf.summary.create_file_writer(str(tmp_path), filename_suffix=suffix).close()
    ends = [name.split(f".{os.getpid()}.", 1)[1] for name in os.listdir(tmp_path)]
    assert sorted(e.partition(".")[1:] for e in ends) == [(".", ""), (".", "abc"), (".", "v3")]


def test_file_name_and_first_event(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path / "run"))
    other = tf.summary.create_file_writer(str(tmp_path / "run"), filename_suffix=".mine")
    writer.close()
    other.close()
    names = sorted(os.listdir(tmp_path / "run"))
    assert len(names) == 2
    for name in names:
        parts = name.split(".")
        assert parts[:3] == ["events", "out", "tfevents"]
        assert parts[3].isdigit() and len(parts[3]) == 10
        assert parts[5] == str(os.getpid()) and parts[6].isdigit()
    assert {name.rsplit(".", 1)[1] for name in names} == {"v2", "mine"}
    (path,) = [n for n in names if n.endswith(".v2")]
    events = read_events_file(tmp_path / "run" / path)
    assert len(events) == 1 and events[0].file_version == "brain.Event:2"


def read_events_file(path):
    return [tf.compat.v1.Event.FromString(r)
            for r in tf.compat.v1.io.tf_record_iterator(str(path))]


def test_no_default_writer_returns_false():
    result = tf.summary.scalar("x", 1.0, step=0)
    assert result.dtype == tf.bool and not bool(result)
    assert not bool(tf.summary.should_record_summaries())
    with tf.summary.create_noop_writer().as_default():
        assert not bool(tf.summary.scalar("x", 1.0, step=0))
        assert not bool(tf.summary.should_record_summaries())


def test_a_writer_needs_a_logdir():
    with pytest.raises(ValueError, match="^Argument `logdir` cannot be None$"):
        tf.summary.create_file_writer(None)


def test_missing_step_raises(tmp_path):
    with tf.summary.create_file_writer(str(tmp_path)).as_default():
        with pytest.raises(ValueError, match="No step set"):
            tf.summary.scalar("x", 1.0)
        with pytest.raises(ValueError, match="No step set"):
            tf.summary.histogram("h", [1.0])


def test_scalar_shape_is_checked_before_the_writer():
    with pytest.raises(ValueError, match=r"Expected scalar shape, saw shape: \(2,\)"):
        tf.summary.scalar("bad", [1.0, 2.0], step=0)


def test_errors_of_other_summaries(tmp_path):
    with tf.summary.create_file_writer(str(tmp_path)).as_default(step=0):
        with pytest.raises(TypeError, match="tensor must be of type tf.string; got tf.int32"):
            tf.summary.text("t", 3)
        with pytest.raises(ValueError, match=r"must have rank 4.  Received rank 2"):
            tf.summary.image("i", tf.zeros([2, 3]))
        with pytest.raises(ValueError, match=r"must have rank 3.  Received rank 2"):
            tf.summary.audio("a", tf.zeros([2, 3]), 100)
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match="expected to be a float tensor but is a double tensor"):
            tf.summary.audio("a", np.zeros([1, 4, 1]), 100)
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match=r"^\nCondition x >= 0 did not hold element-wise:\n.*\n-1$"):
            tf.summary.image("i", tf.zeros([1, 2, 2, 3]), max_outputs=-1)
        with pytest.raises(tf.errors.InvalidArgumentError, match="got 5"):
            tf.summary.image("i", tf.zeros([1, 2, 2, 5]))
        with pytest.raises(tf.errors.UnimplementedError, match="Cast string to double"):
            tf.summary.histogram("h", ["a"])


def test_images_of_two_channels_and_none(tmp_path):
    with tf.summary.create_file_writer(str(tmp_path)).as_default(step=0) as writer:
        assert bool(tf.summary.image("two", tf.ones([1, 2, 3, 2])))
        assert bool(tf.summary.image("none", tf.ones([2, 2, 3, 3]), max_outputs=0))
    writer.close()
    (_, _, two), (_, _, none) = summaries(tmp_path)
    assert two[:2] == [b"3", b"2"] and len(two) == 3
    assert tf.io.decode_png(two[2]).shape == (2, 3, 2)
    assert none == [b"3", b"2"]


def test_default_step_is_read_when_writing(tmp_path):
    step = tf.Variable(3, dtype=tf.int64)
    writer = tf.summary.create_file_writer(str(tmp_path))
    with writer.as_default(step=step):
        assert tf.summary.experimental.get_step() is step
        tf.summary.scalar("a", 1.0)
        step.assign(7)
        tf.summary.scalar("a", 2.0)
        tf.summary.scalar("a", tf.constant(3.0), step=tf.constant(9, tf.int64))
        tf.summary.scalar("a", np.float64(4.5), step=np.int64(11))
    assert tf.summary.experimental.get_step() is None  # restored on leaving
    tf.summary.experimental.set_step(20)
    with writer.as_default():
        tf.summary.scalar("a", 5)
    writer.close()
    assert summaries(tmp_path) == [(3, "a", 1.0), (7, "a", 2.0), (9, "a", 3.0),
                                   (11, "a", 4.5), (20, "a", 5.0)]


def test_int32_variable_step_is_refused(tmp_path):
    with tf.summary.create_file_writer(str(tmp_path)).as_default():
        with pytest.raises((ValueError, TypeError)):
            tf.summary.scalar("a", 1.0, step=tf.Variable(3))


def test_as_default_plain_call_does_nothing_and_set_as_default_does(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path))
    writer.as_default()
    assert not bool(tf.summary.scalar("a", 1.0, step=0))
    writer.set_as_default(step=4)
    try:
        assert bool(tf.summary.scalar("a", 1.0))
        assert tf.summary.experimental.get_step() == 4
    finally:
        internals.summary_state.writer = None  # (a no-op writer would not replace it)
        internals.summary_state.step = None
    writer.close()
    assert summaries(tmp_path) == [(4, "a", 1.0)]



def test_as_default_entered_without_leaving_stays_the_default(tmp_path):
    # (as TF's: its context manager is an object, which dropping does not exit)
    writer = tf.summary.create_file_writer(str(tmp_path))
    try:
        assert writer.as_default(step=4).__enter__() is writer
        assert bool(tf.summary.scalar("a", 1.0))
        assert tf.summary.experimental.get_step() == 4
    finally:
        internals.summary_state.writer = None
        internals.summary_state.step = None
    writer.close()
    assert summaries(tmp_path) == [(4, "a", 1.0)]


def test_leaving_as_default_flushes_the_default_writer_and_restores(tmp_path):
    outer = tf.summary.create_file_writer(str(tmp_path / "outer"), max_queue=100)
    inner = tf.summary.create_file_writer(str(tmp_path / "inner"), max_queue=100)
    with outer.as_default(step=3):
        with inner.as_default(step=1):
            outer.set_as_default(step=8)  # (the block's exit flushes outer, as TF's)
            tf.summary.scalar("switched", 1.0)
        assert summaries(tmp_path / "outer") == [(8, "switched", 1.0)]
        assert tf.summary.experimental.get_step() == 3
        tf.summary.scalar("after", 2.0)
    assert summaries(tmp_path / "outer") == [(8, "switched", 1.0), (3, "after", 2.0)]
    assert summaries(tmp_path / "inner") == []
    inner.close()
    outer.close()


def test_noop_as_default_gives_none_and_flush_checks_its_writer():
    with tf.summary.create_noop_writer().as_default() as writer:
        assert writer is None
    with pytest.raises(ValueError, match=r"^Invalid argument to flush\(\): 'x'$"):
        tf.summary.flush("x")

def test_closed_writer(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path))
    writer.close()
    writer.close()
    with pytest.raises(RuntimeError, match="is already closed"):
        writer.as_default()  # (when called, as TF's)

    @tf.function
    def f():  # (in a function, the write fails when it runs, as in TF)
        with writer.as_default():
            return tf.summary.scalar("x", 1.0, step=1)

    with pytest.raises(tf.errors.NotFoundError, match="SummaryWriterInterface"):
        f()


def test_record_if(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path))
    with writer.as_default(step=1):
        with tf.summary.record_if(False):
            assert not bool(tf.summary.should_record_summaries())
            assert not bool(tf.summary.scalar("off", 1.0))
        with tf.summary.record_if(tf.constant(False)):
            assert not bool(tf.summary.scalar("off", 1.0))
        calls = []
        with tf.summary.record_if(lambda: calls.append(1) or len(calls) % 2 == 0):
            results = [bool(tf.summary.scalar("every_other", float(i))) for i in range(4)]
        assert results == [False, True, False, True]
        assert bool(tf.summary.should_record_summaries())
    writer.close()
    assert summaries(tmp_path) == [(1, "every_other", 1.0), (1, "every_other", 3.0)]


def test_summaries_in_a_function(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path))
    step = tf.Variable(0, dtype=tf.int64)

    @tf.function
    def train_step(x, record):
        with tf.summary.record_if(record):
            ok = tf.summary.scalar("loss", tf.reduce_sum(x), step=step)
        tf.summary.histogram("x", x, step=step, buckets=2)
        tf.summary.text("note", tf.strings.as_string(step), step=step)
        step.assign_add(1)
        return ok

    with writer.as_default():
        results = [bool(train_step(tf.constant([1.0, 2.0]) * i, tf.constant(i != 1)))
                   for i in range(3)]
    writer.close()
    assert results == [True, False, True]
    assert summaries(tmp_path) == [
        (0, "loss", 0.0), (0, "x", [[0.0, 0.0, 0.0], [0.0, 0.0, 2.0]]), (0, "note", b"0"),
        (1, "x", [[1.0, 1.5, 1.0], [1.5, 2.0, 1.0]]), (1, "note", b"1"),
        (2, "loss", 6.0), (2, "x", [[2.0, 3.0, 1.0], [3.0, 4.0, 1.0]]), (2, "note", b"2")]



def test_histogram_bucket_count_known_only_when_run(tmp_path):
    # (as TF: an int32 tensor or variable in a function; a negative one counts as 0)
    writer = tf.summary.create_file_writer(str(tmp_path))

    @tf.function(input_signature=[tf.TensorSpec(None), tf.TensorSpec([], tf.int32)])
    def log(x, buckets):
        return tf.summary.histogram("h", x, step=0, buckets=buckets)

    with writer.as_default():
        for x, buckets in (([1.0, 2.0, 3.0], 2), ([], 2), (7.0, 3), ([1.0], 0), ([1.0], -1)):
            assert bool(log(tf.constant(x), tf.constant(buckets)))
        assert bool(tf.summary.histogram("v", [1.0, 4.0], step=1, buckets=tf.Variable(1)))
    writer.close()
    assert summaries(tmp_path) == [
        (0, "h", [[1.0, 2.0, 1.0], [2.0, 3.0, 2.0]]), (0, "h", [[0.0] * 3] * 2),
        (0, "h", [[7.0, 7.0, 0.0], [7.0, 7.0, 0.0], [7.0, 7.0, 1.0]]), (0, "h", []),
        (0, "h", []), (1, "v", [[1.0, 4.0, 2.0]])]

def test_function_with_unknown_shapes(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path))

    @tf.function(input_signature=[tf.TensorSpec([None, None, None, 3], tf.uint8),
                                  tf.TensorSpec([None, None, 1])])
    def log(images, clips):
        tf.summary.image("img", images, step=0, max_outputs=2)
        tf.summary.audio("clip", clips, 8000, step=0)
        return tf.summary.histogram("h", tf.reshape(clips, [-1]), step=0)

    with writer.as_default():
        assert bool(log(tf.zeros([3, 2, 5, 3], tf.uint8), tf.zeros([1, 4, 1])))
        assert bool(log(tf.zeros([1, 4, 1, 3], tf.uint8), tf.zeros([0, 4, 1])))
    writer.close()
    got = [(e.summary.value[0].tag, tensor_value(e.summary.value[0].tensor).shape)
           for e in read_events(tmp_path) if e.HasField("summary")]
    assert got == [("img", (4,)), ("clip", (1, 2)), ("h", (30, 3)),
                   ("img", (3,)), ("clip", (0, 2)), ("h", (30, 3))]
    widths = [value[:2] for _, tag, value in summaries(tmp_path) if tag == "img"]
    assert widths == [[b"5", b"2"], [b"1", b"4"]]



def test_images_of_unknown_rank_in_a_function(tmp_path):
    # (as TF: no images or none asked are the sizes alone; the rank is checked when run)
    writer = tf.summary.create_file_writer(str(tmp_path))

    @tf.function(input_signature=[tf.TensorSpec(None), tf.TensorSpec([], tf.int32)])
    def log(images, max_outputs):
        return tf.summary.image("img", images, step=0, max_outputs=max_outputs)

    with writer.as_default():
        assert bool(log(tf.zeros([2, 3, 2, 1]), tf.constant(0)))
        assert bool(log(tf.zeros([0, 3, 2, 3]), tf.constant(1)))
        assert bool(log(tf.zeros([2, 3, 2, 1]), tf.constant(1)))
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match=r"Tensor images:0 must have rank\] \[4\]"):
            log(tf.zeros([3, 2, 1]), tf.constant(1))
    writer.close()
    assert [value[:2] + [len(value) - 2] for _, _, value in summaries(tmp_path)] == [
        [b"2", b"3", 0], [b"2", b"3", 0], [b"2", b"3", 1]]

def test_histogram_edge_cases(tmp_path):
    with tf.summary.create_file_writer(str(tmp_path)).as_default(step=0) as writer:
        tf.summary.histogram("single", [3.0, 3.0], buckets=3)
        tf.summary.histogram("empty", tf.zeros([0]), buckets=2)
        tf.summary.histogram("none", [1.0, 2.0], buckets=0)
        tf.summary.histogram("ints", tf.constant([[0, 4], [4, 4]]), buckets=2)
        tf.summary.histogram("var", tf.Variable([1.0, 3.0]), buckets=1)
    writer.close()
    assert summaries(tmp_path) == [
        (0, "single", [[3.0, 3.0, 0.0], [3.0, 3.0, 0.0], [3.0, 3.0, 2.0]]),
        (0, "empty", [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]),
        (0, "none", []),
        (0, "ints", [[0.0, 2.0, 1.0], [2.0, 4.0, 3.0]]),
        (0, "var", [[1.0, 3.0, 2.0]])]


def test_name_scopes_and_summary_scope(tmp_path):
    with tf.summary.create_file_writer(str(tmp_path)).as_default(step=0) as writer:
        with tf.name_scope("outer"):
            tf.summary.scalar("fast", 1.0)
            tf.summary.scalar("general", tf.constant(2, tf.int32))
            with tf.summary.experimental.summary_scope("in ner", "d") as (tag, scope):
                assert (tag, scope) == ("outer/in ner", "outer/inner/")
        with pytest.raises(ValueError, match=r"^name for name_scope must be a string\.$"):
            tf.name_scope(None)  # (TF 1's compat.v1.name_scope takes None: the top scope)
    writer.close()
    assert [t for _, t, _ in summaries(tmp_path)] == ["outer/fast", "outer/general"]


def test_write_with_callable_and_metadata(tmp_path):
    made = []
    with tf.summary.create_file_writer(str(tmp_path)).as_default(step=2) as writer:
        meta = tf.compat.v1.SummaryMetadata(display_name="shown")
        assert bool(tf.summary.write("lazy", lambda: made.append(1) or tf.constant([1, 2]),
                                     metadata=meta))
        with tf.summary.record_if(False):
            tf.summary.write("skipped", lambda: made.append(2) or 0)
        tf.summary.write("raw", "text", metadata=meta.SerializeToString())
    writer.close()
    assert made == [1]
    events = [e for e in read_events(tmp_path) if e.HasField("summary")]
    assert [e.summary.value[0].metadata.display_name for e in events] == ["shown", "shown"]
    assert summaries(tmp_path) == [(2, "lazy", [1, 2]), (2, "raw", b"text")]


def test_max_queue_and_flush(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path), max_queue=3, flush_millis=10 ** 8)
    with writer.as_default(step=0):
        for i in range(3):
            tf.summary.scalar("x", float(i))
        assert summaries(tmp_path) == []  # still in memory
        tf.summary.scalar("x", 3.0)  # more than max_queue wait: written
        assert len(summaries(tmp_path)) == 4
        tf.summary.scalar("x", 4.0)
        tf.summary.flush()
        assert len(summaries(tmp_path)) == 5
    writer.close()


def test_flush_millis_zero_writes_each_summary_at_once(tmp_path):
    # (as TF's writer: a summary written when the last flush is flush_millis old flushes)
    writer = tf.summary.create_file_writer(str(tmp_path), flush_millis=0)
    with writer.as_default(step=0):
        tf.summary.scalar("x", 1.0)
        assert summaries(tmp_path) == [(0, "x", 1.0)]
        tf.summary.histogram("h", [1.0], buckets=1)
        assert len(summaries(tmp_path)) == 2
    writer.close()



@pytest.mark.parametrize("options", [{"max_queue": -1}, {"flush_millis": -5}])
def test_negative_queue_or_time_never_flushes_by_itself(tmp_path, options):
    # (as TF's writer: only flush and close write the summaries)
    writer = tf.summary.create_file_writer(str(tmp_path), **options)
    with tf.summary.record_if(True):
        writer.set_as_default(step=0)
        try:
            for i in range(4):
                tf.summary.scalar("x", float(i))
            assert summaries(tmp_path) == []
        finally:
            internals.summary_state.writer = None
            internals.summary_state.step = None
    writer.flush()
    assert len(summaries(tmp_path)) == 4
    writer.close()

def test_flush_millis_flushes_in_the_background(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path), flush_millis=20)
    with writer.as_default(step=0):
        tf.summary.scalar("x", 1.0)
        for _ in range(500):  # (waits for the flushing thread, up to 10 s)
            if summaries(tmp_path):
                break
            time.sleep(0.02)
        assert summaries(tmp_path) == [(0, "x", 1.0)]
    writer.close()


def test_events_are_flushed_at_exit(tmp_path):
    code = ("import eagerflow as tf\n"
            f"w = tf.summary.create_file_writer({str(tmp_path)!r})\n"
            "w.set_as_default(step=5)\n"
            "tf.summary.scalar('x', 1.5)\n")
    src = os.path.join(os.path.dirname(tf.__file__), "..")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120,
                   env=dict(os.environ, PYTHONPATH=os.path.abspath(src)))
    assert summaries(tmp_path) == [(5, "x", 1.5)]


def test_graph_summary(tmp_path):
    @tf.function
    def f(x):
        return x * 2.0

    concrete = f.get_concrete_function(tf.TensorSpec([2]))
    with tf.summary.create_file_writer(str(tmp_path)).as_default() as writer:
        assert bool(tf.summary.graph(concrete.graph))
        with pytest.raises(ValueError, match="is not tf.Graph or tf.compat.v1.GraphDef"):
            tf.summary.graph("graph")
    writer.close()
    (event,) = [e for e in read_events(tmp_path) if e.HasField("graph_def")]
    graph_def = tf.compat.v1.GraphDef.FromString(event.graph_def)
    assert "Mul" in {n.op for n in graph_def.node}


def test_trace_export_needs_trace_on(tmp_path):
    with tf.summary.create_file_writer(str(tmp_path)).as_default(step=0):
        with pytest.raises(ValueError, match="Must enable trace before export"):
            tf.summary.trace_export("t")


def test_trace_collects_each_function_once(tmp_path):
    @tf.function
    def f(x):
        return x + 1.0

    @tf.function
    def g(x):
        return f(x) * 2.0

    f(tf.constant(0.0))  # traced before trace_on: its runs are still collected
    tf.summary.trace_on()
    for _ in range(3):
        f(tf.constant(1.0))
        g(tf.constant(1.0))
    with tf.summary.create_file_writer(str(tmp_path)).as_default() as writer:
        tf.summary.trace_export("t", step=3)
    writer.close()
    (event,) = [e for e in read_events(tmp_path) if e.HasField("summary")]
    run = tf.compat.v1.RunMetadata.FromString(event.summary.value[0].tensor.string_val[0])
    assert event.step == 3 and len(run.function_graphs) == 2
    # trace_export ends the trace
    with pytest.raises(ValueError, match="Must enable trace"):
        tf.summary.trace_export("t", step=3)


def test_wav_encoding():
    wav = tf.audio.encode_wav(tf.constant([[0.5, -1.0], [2.0, 0.0]]), 44100).numpy()
    assert wav[:4] == b"RIFF" and wav[8:16] == b"WAVEfmt "
    channels, rate = np.frombuffer(wav[22:24], "<u2")[0], np.frombuffer(wav[24:28], "<u4")[0]
    assert (channels, rate) == (2, 44100)
    assert np.frombuffer(wav[44:], "<i2").tolist() == [16384, -32768, 32767, 0]
    with pytest.raises(tf.errors.InvalidArgumentError, match="audio must be 2-dimensional"):
        tf.audio.encode_wav(tf.zeros([3]), 100)


def test_write_raw_pb_eagerly_and_in_a_function(tmp_path):
    def raw(tag, value):
        return tf.compat.v1.Summary(value=[tf.compat.v1.Summary.Value(
            tag=tag, simple_value=value)]).SerializeToString()

    @tf.function
    def log(serialized, step):
        return tf.summary.experimental.write_raw_pb(serialized, step=step)

    with tf.summary.create_file_writer(str(tmp_path)).as_default(step=1) as writer:
        assert bool(tf.summary.experimental.write_raw_pb(raw("a", 1.5)))
        assert bool(log(tf.constant([raw("b", 2.0), raw("c", 3.0)]), tf.constant(2, tf.int64)))
        with tf.summary.record_if(False):
            assert not bool(tf.summary.experimental.write_raw_pb(raw("d", 0.0)))
    writer.close()
    events = [e for e in read_events(tmp_path) if e.HasField("summary")]
    # (as TF: the summaries of one call merged into one event)
    assert [(e.step, [(v.tag, v.simple_value) for v in e.summary.value])
            for e in events] == [(1, [("a", 1.5)]), (2, [("b", 2.0), ("c", 3.0)])]


def test_a_dropped_writer_flushes_and_stops_its_thread(tmp_path):
    import gc
    import threading

    def flushers():
        return sum(t.name == "summary_flusher" for t in threading.enumerate())

    before = flushers()
    writer = tf.summary.create_file_writer(str(tmp_path))
    assert flushers() == before + 1
    with writer.as_default(step=1):
        tf.summary.scalar("x", 2.0)
    del writer
    gc.collect()
    for _ in range(1000):  # (the thread ends on its own once told: give it up to 10 s)
        if flushers() == before:
            break
        time.sleep(0.01)
    assert flushers() == before
    assert summaries(tmp_path) == [(1, "x", 2.0)]


def test_the_guide_example_flushes_at_each_call(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path), flush_millis=10 ** 8)

    @tf.function
    def my_func(step):
        with writer.as_default():  # leaving it flushes, at every call
            tf.summary.scalar("my_metric", 0.5, step=step)

    for step in tf.range(3, dtype=tf.int64):
        my_func(step)
        assert summaries(tmp_path)[-1] == (int(step), "my_metric", 0.5)
    assert my_func.experimental_get_tracing_count() == 1
    writer.close()


def test_trace_calls_inside_a_function_only_warn(caplog):
    @tf.function
    def f(x):
        tf.summary.trace_on()
        assert tf.summary.trace_export("t", step=0) is None
        return x + 1

    f(tf.constant(1))
    messages = [r.getMessage() for r in caplog.records]
    assert "Cannot enable trace inside a tf.function." in messages
    assert "Cannot export trace inside a tf.function." in messages


def test_threads_share_a_writer_without_losing_events(tmp_path):
    import threading

    writer = tf.summary.create_file_writer(str(tmp_path), max_queue=5, flush_millis=1)

    def work(thread):
        with writer.as_default(step=thread):  # (the default writer is per thread)
            for i in range(300):
                tf.summary.scalar("x", float(i))

    threads = [threading.Thread(target=work, args=(t,)) for t in range(4)]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads switch as often as they can: races show
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(interval)
    writer.close()
    got = summaries(tmp_path)
    assert sorted(got) == sorted((t, "x", float(i)) for t in range(4) for i in range(300))


def test_scalar_values_beyond_float32(tmp_path):
    with tf.summary.create_file_writer(str(tmp_path)).as_default(step=0) as writer:
        with pytest.raises(ValueError, match="out of range"):  # as tf.constant(1e39)
            tf.summary.scalar("big", 1e39)
        tf.summary.scalar("cast", np.float64(1e300))  # a float64 cast to float32
        tf.summary.scalar("nan", float("nan"))
        tf.summary.scalar("f32", np.float32(2.5))
        tf.summary.scalar("int", 2 ** 40 + 1)
    writer.close()
    got = summaries(tmp_path)
    assert [t for _, t, _ in got] == ["cast", "nan", "f32", "int"]
    assert got[0][2] == np.inf and np.isnan(got[1][2])
    assert got[2][2] == 2.5 and got[3][2] == float(np.float32(2 ** 40 + 1))


def test_scalar_int_beyond_int64_and_a_default_step_of_one_element(tmp_path):
    with tf.summary.create_file_writer(str(tmp_path)).as_default(step=0) as writer:
        # (as TF: an int no int64 holds is refused, even one a float32 holds exactly)
        with pytest.raises(ValueError, match="out-of-range integer"):
            tf.summary.scalar("big", 2 ** 70)
        # (as TF: a default step of one element, of any rank, is that element)
        for step in (np.array([3]), tf.constant([[4]], tf.int64)):
            tf.summary.experimental.set_step(step)
            assert bool(tf.summary.scalar("x", 1.0))
            assert bool(tf.summary.histogram("h", [1.0], buckets=1))
    writer.close()
    assert [(s, t) for s, t, _ in summaries(tmp_path)] == [(3, "x"), (3, "h"), (4, "x"),
                                                           (4, "h")]

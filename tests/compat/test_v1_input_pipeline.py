"""TF 1 queue-based input pipelines run by Session threads: readers, input producers,
batching, QueueRunner / start_queue_runners / Coordinator and monitored sessions (values,
names and errors as TF 2.21 gives them)."""
import gzip
import os

import numpy as np
import pytest

import eagerflow as tf
import eagerflow.compat.v1 as tf1


@pytest.fixture
def csv_files(tmp_path):
    first, second = tmp_path / "f1.csv", tmp_path / "f2.csv"
    first.write_text("a,1\nb,2\nc,3\n")
    second.write_text("d,4\ne,5\n")
    return str(first), str(second)


def _drain(sess, fetches, coord):
    got = []
    try:
        while not coord.should_stop():
            got.append(sess.run(fetches))
    except tf.errors.OutOfRangeError:
        pass
    finally:
        coord.request_stop()
    return got


def test_csv_files_through_string_input_producer_reader_and_batch(csv_files):
    with tf.Graph().as_default():
        files = tf1.train.string_input_producer(list(csv_files), num_epochs=1, shuffle=False)
        assert (type(files).__name__, files.name) == ("FIFOQueue", "input_producer")
        assert [v.name for v in tf1.local_variables()] == \
            ["input_producer/limit_epochs/epochs:0"]
        assert tf1.global_variables() == []
        reader = tf1.TextLineReader()
        assert reader.reader_ref.name == "TextLineReaderV2:0" and not reader.supports_serialize
        key, value = reader.read(files)
        assert (key.name, value.name, key.dtype, key.shape.rank) == (
            "ReaderReadV2:0", "ReaderReadV2:1", tf.string, 0)
        col1, col2 = tf.io.decode_csv(value, record_defaults=[[""], [0]])
        b1, b2 = tf1.train.batch([col1, col2], batch_size=2)
        assert (b1.name, b1.shape.as_list(), b2.name, b2.dtype) == ("batch:0", [2], "batch:1",
                                                                    tf.int32)
        assert [qr.name for qr in tf1.get_collection(tf1.GraphKeys.QUEUE_RUNNERS)] == \
            ["input_producer", "batch/fifo_queue"]
        assert [s.name for s in tf1.get_collection(tf1.GraphKeys.SUMMARIES)] == \
            ["input_producer/fraction_of_32_full:0", "batch/fraction_of_32_full:0"]
        with tf1.Session() as sess:
            sess.run([tf1.global_variables_initializer(), tf1.local_variables_initializer()])
            coord = tf1.train.Coordinator()
            threads = tf1.train.start_queue_runners(sess=sess, coord=coord)
            assert len(threads) == 4  # (an enqueue thread and a closing one per runner)
            got = _drain(sess, [b1, b2], coord)
            coord.join(threads)
    # (the fifth line is dropped: no smaller final batch)
    assert [[a.tolist(), b.tolist()] for a, b in got] == [[[b"a", b"b"], [1, 2]],
                                                         [[b"c", b"d"], [3, 4]]]


def test_text_line_reader_keys_counts_and_end(csv_files):
    with tf.Graph().as_default():
        reader = tf1.TextLineReader(skip_header_lines=1)
        files = tf1.FIFOQueue(5, tf.string)
        put = files.enqueue_many([list(csv_files)])
        key, value = reader.read(files)
        keys, values = reader.read_up_to(files, 2)
        assert keys.shape.as_list() == [None] and values.name == "ReaderReadUpToV2:1"
        with tf1.Session() as sess:
            sess.run(put)
            sess.run(files.close())
            assert sess.run([key, value]) == [csv_files[0].encode() + b":2", b"b,2"]
            assert sess.run([key, value]) == [csv_files[0].encode() + b":3", b"c,3"]
            assert sess.run(reader.num_records_produced()) == 2
            assert sess.run(reader.num_work_units_completed()) == 0
            assert sess.run([key, value]) == [csv_files[1].encode() + b":2", b"e,5"]
            with pytest.raises(tf.errors.OutOfRangeError,
                               match="is closed and has insufficient elements"):
                sess.run([key, value])
            sess.run(reader.reset())
            assert sess.run(reader.num_records_produced()) == 0


def test_whole_file_fixed_length_identity_and_tfrecord_readers(tmp_path):
    raw = tmp_path / "raw.bin"
    raw.write_bytes(b"HHabcdefghFF")
    packed = tmp_path / "raw.gz"
    packed.write_bytes(gzip.compress(b"HHabcdefghFF"))
    records = str(tmp_path / "r.tfrecord")
    with tf.io.TFRecordWriter(records) as w:
        for r in (b"one", b"two"):
            w.write(r)
    with tf.Graph().as_default():
        names = tf1.FIFOQueue(10, tf.string)
        whole, fixed, zipped, ident, tfr = (
            tf1.WholeFileReader(), tf1.FixedLengthRecordReader(3, header_bytes=2,
                                                               footer_bytes=2),
            tf1.FixedLengthRecordReader(4, header_bytes=2, footer_bytes=2, hop_bytes=2,
                                        encoding="GZIP"),
            tf1.IdentityReader(), tf1.TFRecordReader())
        fill = {r: names.enqueue(n) for r, n in ((whole, str(raw)), (fixed, str(raw)),
                                                 (zipped, str(packed)), (ident, "work"),
                                                 (tfr, records))}
        reads = {r: r.read(names) for r in fill}
        assert type(reads[whole]).__name__ == "ReaderReadV2"
        assert ident.supports_serialize and not tfr.supports_serialize
        with tf1.Session() as sess:
            def read(r, times):
                sess.run(fill[r])
                return [list(sess.run(reads[r])) for _ in range(times)]
            assert read(whole, 1) == [[str(raw).encode(), b"HHabcdefghFF"]]
            assert read(fixed, 2) == [[f"{raw}:0".encode(), b"abc"],
                                      [f"{raw}:1".encode(), b"def"]]
            sess.run(fixed.reset())
            assert read(zipped, 3) == [[f"{packed}:{i}".encode(), v]
                                       for i, v in enumerate([b"abcd", b"cdef", b"efgh"])]
            assert read(ident, 1) == [[b"work", b"work"]]
            assert read(tfr, 2) == [[f"{records}:0".encode(), b"one"],
                                    [f"{records}:19".encode(), b"two"]]


def test_readers_and_queue_pipelines_need_a_graph():
    with pytest.raises(RuntimeError, match="Readers are not supported when eager execution "
                                           "is enabled"):
        tf1.TextLineReader()
    with pytest.raises(RuntimeError, match="Input pipelines based on Queues are not "
                                           "supported when eager execution is enabled"):
        tf1.train.input_producer(tf.constant([1, 2]))
    with pytest.raises(RuntimeError, match="Queues are not compatible with eager execution"):
        tf1.train.start_queue_runners()


def test_batch_forms_shapes_and_padding():
    with tf.Graph().as_default():
        x, y = tf1.train.slice_input_producer(
            [tf.constant([[1, 2], [3, 4], [5, 6]]), tf.constant(["a", "b", "c"])],
            num_epochs=1, shuffle=False)
        assert (x.name, x.shape.as_list(), y.name) == ("input_producer/GatherV2:0", [2],
                                                       "input_producer/GatherV2_1:0")
        bx, by = tf1.train.batch([x, y], 2)
        assert (bx.name, bx.shape.as_list(), by.shape.as_list()) == ("batch:0", [2, 2], [2])
        as_dict = tf1.train.batch({"x": x, "y": y}, 1)
        assert sorted(as_dict) == ["x", "y"] and as_dict["y"].name == "batch_1:1"
        padded = tf1.train.batch([tf.range(x[0])], 2, dynamic_pad=True)
        assert (padded.name, padded.shape.as_list()) == ("batch_2:0", [2, None])
        with pytest.raises(ValueError, match=r"All shapes must be fully defined: "
                                             r"\[TensorShape\(\[None\]\)\]"):
            tf1.train.batch([tf.range(x[0])], 2)
        assert sorted(qr.name for qr in tf1.get_collection(tf1.GraphKeys.QUEUE_RUNNERS)) == [
            "batch/fifo_queue", "batch_1/fifo_queue", "batch_2/padding_fifo_queue",
            "input_producer/input_producer"]
    with tf.Graph().as_default():
        n = tf1.train.range_input_producer(5, num_epochs=1, shuffle=False).dequeue()
        padded = tf1.train.batch([tf.range(n)], 2, dynamic_pad=True,
                                 allow_smaller_final_batch=True)
        with tf1.Session() as sess:
            sess.run(tf1.local_variables_initializer())
            coord = tf1.train.Coordinator()
            threads = tf1.train.start_queue_runners(sess, coord)
            got = _drain(sess, padded, coord)
            coord.join(threads)
    assert [b.tolist() for b in got] == [[[0], [0]], [[0, 1, 0], [0, 1, 2]], [[0, 1, 2, 3]]]


def test_monitored_training_session_trains_from_tfrecords(tmp_path):
    path = str(tmp_path / "data.tfrecord")
    with tf.io.TFRecordWriter(path) as w:
        for i in range(5):
            ex = tf.train.Example(features=tf.train.Features(feature={
                "x": tf.train.Feature(float_list=tf.train.FloatList(value=[i, 2.0 * i])),
                "y": tf.train.Feature(int64_list=tf.train.Int64List(value=[i % 2]))}))
            w.write(ex.SerializeToString())
    with tf.Graph().as_default():
        files = tf1.train.string_input_producer([path], num_epochs=2, shuffle=False)
        _, serialized = tf1.TFRecordReader().read(files)
        feats = tf1.parse_single_example(serialized, {
            "x": tf1.FixedLenFeature([2], tf.float32), "y": tf1.FixedLenFeature([], tf.int64)})
        xb, yb = tf1.train.batch([feats["x"], feats["y"]], batch_size=3,
                                 allow_smaller_final_batch=True)
        assert (xb.shape.as_list(), yb.shape.as_list()) == ([None, 2], [None])
        w = tf1.get_variable("w", [2, 1], initializer=tf1.zeros_initializer())
        loss = tf.reduce_mean(tf.square(tf.squeeze(tf.matmul(xb, w), 1) -
                                        tf.cast(yb, tf.float32)))
        step = tf1.train.get_or_create_global_step()
        train = tf1.train.GradientDescentOptimizer(0.01).minimize(loss, global_step=step)
        losses = []
        with tf1.train.MonitoredTrainingSession(
                hooks=[tf1.train.StopAtStepHook(last_step=100)]) as sess:
            while not sess.should_stop():
                _, value, labels = sess.run([train, loss, yb])
                losses.append((round(float(value), 5), labels.tolist()))
        assert sess.should_stop()
    # (TF 2.21's losses: the two epochs in batches of 3, 3, 3 and 1)
    assert losses == [(0.33333, [0, 1, 0]), (0.27593, [1, 0, 0]), (0.43718, [1, 0, 1]),
                      (0.57535, [0])]


def test_monitored_sessions_start_and_stop_the_queue_runners():
    with tf.Graph().as_default():
        batch = tf1.train.batch([tf1.train.range_input_producer(
            7, num_epochs=1, shuffle=False).dequeue()], 3)
        with tf1.train.MonitoredSession() as sess:
            out = []
            while not sess.should_stop():
                out.append(sess.run(batch).tolist())
        assert out == [[0, 1, 2], [3, 4, 5]]
        assert tf1.train.start_queue_runners(sess) == []
    with tf.Graph().as_default():
        numbers = tf1.train.range_input_producer(10, num_epochs=1, shuffle=False).dequeue()
        shuffled = tf1.train.shuffle_batch([numbers], 4, capacity=20, min_after_dequeue=2,
                                           seed=1, allow_smaller_final_batch=True)
        assert (shuffled.name, shuffled.shape.as_list()) == ("shuffle_batch:0", [None])
        assert [s.name for s in tf1.get_collection(tf1.GraphKeys.SUMMARIES)] == [
            "input_producer/fraction_of_32_full:0", "shuffle_batch/fraction_over_2_of_18_full:0"]
        with tf1.train.SingularMonitoredSession() as sess:
            out = []
            while not sess.should_stop():
                out.extend(sess.run(shuffled).tolist())
        assert sorted(out) == list(range(10))


def test_queue_runner_errors_reach_the_coordinator():
    with tf.Graph().as_default():
        q = tf1.FIFOQueue(4, tf.float32, shapes=[[]])
        bad = q.enqueue(tf.debugging.check_numerics(tf.constant(np.nan, tf.float32), "bad"))
        qr = tf1.train.QueueRunner(q, [bad])
        assert (qr.queue is q, qr.enqueue_ops, qr.name) == (True, [bad], "fifo_queue")
        assert qr.queue_closed_exception_types == (tf.errors.OutOfRangeError,)
        assert (qr.close_op.type, qr.cancel_op.type) == ("QueueCloseV2", "QueueCloseV2")
        tf1.train.add_queue_runner(qr)
        take = q.dequeue()
        with tf1.Session() as sess:
            coord = tf1.train.Coordinator()
            threads = tf1.train.start_queue_runners(sess, coord)
            assert coord.wait_for_stop(10)
            with pytest.raises(tf.errors.InvalidArgumentError, match="bad"):
                coord.join(threads)
            with pytest.raises(tf.errors.CancelledError):  # (closed by the stop request)
                sess.run(q.enqueue(1.0))
            with pytest.raises(tf.errors.OutOfRangeError):
                sess.run(take)
        with pytest.raises(ValueError, match="Must provide queue and enqueue_ops."):
            tf1.train.QueueRunner(q, [])
        with pytest.raises(TypeError, match="sess must be a `tf.Session` object"):
            tf1.train.start_queue_runners(sess=object())


def test_limit_epochs_and_input_producer_checks():
    with tf.Graph().as_default():
        t = tf.constant([1, 2])
        assert tf1.train.limit_epochs(t) is t
        with pytest.raises(ValueError, match="num_epochs must be > 0 not 0."):
            tf1.train.limit_epochs(t, 0)
        limited = tf1.train.limit_epochs(t, 2)
        assert limited.name == "limit_epochs:0"
        with pytest.raises(ValueError, match="string_input_producer requires a non-null "
                                             "input tensor"):
            tf1.train.string_input_producer([])
        with pytest.raises(ValueError, match="Either `input_tensor` must have a fully "
                                             "defined shape or `element_shape` must be "
                                             "specified"):
            tf1.train.input_producer(tf1.placeholder(tf.float32, [None, None]))
        with tf1.Session() as sess:
            sess.run(tf1.local_variables_initializer())
            assert [sess.run(limited).tolist() for _ in range(2)] == [[1, 2], [1, 2]]
            with pytest.raises(tf.errors.OutOfRangeError, match="Reached limit of 2"):
                sess.run(limited)


def test_maybe_batch_match_filenames_once_and_a_clean_stop_of_blocked_runners(tmp_path):
    for n in ("a.txt", "b.txt", "c.csv"):
        (tmp_path / n).write_text("x")
    with tf.Graph().as_default():
        found = tf1.train.match_filenames_once(str(tmp_path / "*.txt"))
        assert found.name == "matching_filenames:0"
        assert [v.name for v in tf1.local_variables()] == ["matching_filenames:0"]
        n = tf1.train.range_input_producer(6, num_epochs=1, shuffle=False).dequeue()
        evens = tf1.train.maybe_batch([n], tf.equal(n % 2, 0), 2,
                                      allow_smaller_final_batch=True)
        assert (evens.name, evens.shape.as_list()) == ("batch:0", [None])
        # (an endless producer: its runner waits on a full queue when the stop comes)
        kept = tf1.train.maybe_batch([tf.constant([1, 2, 3, 4])],
                                     tf.constant([True, False, True, True]), 2,
                                     enqueue_many=True)
        assert kept.shape.as_list() == [2]
        for keep, many, message in (
                (tf.constant([True]), False, "`keep_input` cannot be a vector when "
                                             "`enqueue_many=False`."),
                (tf.constant([[True]]), True, "`keep_input` must be 0 or 1 dimensions."),
                (tf1.placeholder(tf.bool), False, "`keep_input` dimensions must be known at "
                                                  "graph construction.")):
            with pytest.raises(ValueError, match=message):
                tf1.train.maybe_batch([n], keep, 2, enqueue_many=many)
        with tf1.Session() as sess:
            sess.run(tf1.local_variables_initializer())
            assert sorted(os.path.basename(p.decode()) for p in sess.run(found)) == [
                "a.txt", "b.txt"]
            coord = tf1.train.Coordinator()
            threads = tf1.train.start_queue_runners(sess, coord)
            assert sess.run(evens).tolist() == [0, 2]
            assert sess.run(kept).tolist() == [1, 3]
            assert sess.run(evens).tolist() == [4]
            coord.request_stop()
            coord.join(threads)  # (the runner's cancelled enqueue is not an error)

"""Queues (``tf.queue`` / ``tf.compat.v1.FIFOQueue`` ...) run eagerly and through a TF 1
Session, with TF's names, shapes, values and errors (probed against TF 2.21)."""
import threading
import time

import numpy as np
import pytest

import eagerflow as tf
import eagerflow.compat.v1 as tf1


def _message(e):
    return e.value.message


def test_graph_queue_ops_names_and_shapes():
    g = tf.Graph()
    with g.as_default():
        q = tf1.FIFOQueue(3, tf.float32, shapes=[[2]], name="q")
        assert (q.name, q.dtypes, q.shapes, q.names) == ("q", [tf.float32],
                                                         [tf.TensorShape([2])], None)
        assert q.queue_ref.name == "q:0"
        enq = q.enqueue([[1.0, 2.0]])
        assert (enq.name, enq.type) == ("q_enqueue", "QueueEnqueueV2")
        many = q.enqueue_many([[[3.0, 4.0], [5.0, 6.0]]])
        assert (many.name, many.type) == ("q_EnqueueMany", "QueueEnqueueManyV2")
        deq = q.dequeue()
        assert (deq.name, deq.shape.as_list(), deq.op.type) == ("q_Dequeue:0", [2],
                                                                "QueueDequeueV2")
        deq2 = q.dequeue_many(2)
        assert (deq2.name, deq2.shape.as_list()) == ("q_DequeueMany:0", [2, 2])
        up_to = q.dequeue_up_to(2)
        assert (up_to.name, up_to.shape.as_list()) == ("q_DequeueUpTo:0", [None, 2])
        size, closed, close = q.size(), q.is_closed(), q.close()
        assert (size.name, size.dtype, closed.name, closed.dtype) == (
            "q_Size:0", tf.int32, "q_Is_Closed:0", tf.bool)
        assert (close.name, close.type) == ("q_Close", "QueueCloseV2")
        named = tf1.FIFOQueue(10, [tf.int32, tf.string], names=["a", "b"])
        assert named.shapes == [tf.TensorShape(None), tf.TensorShape(None)]
        put = named.enqueue({"a": 1, "b": "x"})
        got = named.dequeue()
        assert sorted(got) == ["a", "b"] and got["a"].name == "fifo_queue_Dequeue:0"
        assert got["a"].shape.rank is None
        with pytest.raises(ValueError, match=r"Shapes \(\) and \(2,\) are incompatible"):
            q.enqueue([1.0, 2.0, 3.0])
        with pytest.raises(ValueError, match="Keys in dictionary to enqueue do not match names "
                                             "of Queue.  Dictionary: \\['a'\\],Queue: "
                                             "\\['a', 'b'\\]"):
            named.enqueue({"a": 1})
    with tf1.Session(graph=g) as sess:
        assert sess.run(size) == 0
        sess.run(enq)
        sess.run(many)
        assert sess.run(size) == 3 and not sess.run(closed)
        assert sess.run(deq).tolist() == [1.0, 2.0]
        assert sess.run(deq2).tolist() == [[3.0, 4.0], [5.0, 6.0]]
        sess.run(enq)
        sess.run(close)
        assert sess.run(closed)
        with pytest.raises(tf.errors.CancelledError) as e:
            sess.run(enq)
        assert "FIFOQueue '_" in _message(e) and "_q' is closed." in _message(e)
        assert sess.run(up_to).tolist() == [[1.0, 2.0]]  # (what is left, once closed)
        with pytest.raises(tf.errors.OutOfRangeError) as e:
            sess.run(up_to)
        assert "_q' is closed and has insufficient elements (requested 2, current size 0)" \
            in _message(e)
        with pytest.raises(tf.errors.OutOfRangeError, match=r"requested 1, current size 0"):
            sess.run(deq)
        sess.run(put)
        assert sess.run(got) == {"a": 1, "b": b"x"}
    with tf1.Session(graph=g) as sess:  # (each session has its own elements)
        assert sess.run(size) == 0 and not sess.run(closed)


def test_dequeue_many_of_a_closed_queue_leaves_the_elements():
    g = tf.Graph()
    with g.as_default():
        q = tf1.FIFOQueue(10, [tf.int32, tf.float32], shapes=[[], []])
        put = q.enqueue_many(([1, 2, 3], [1.0, 2.0, 3.0]))
        two, one = q.dequeue_many(2), q.dequeue()
        assert [t.shape.as_list() for t in two] == [[2], [2]]
        unknown = tf1.FIFOQueue(10, tf.int32)
        unknown_many = unknown.dequeue_many(2)
        assert unknown_many.shape.rank is None
    with tf1.Session(graph=g) as sess:
        sess.run(put)
        a, b = sess.run(two)
        assert (a.tolist(), b.tolist(), a.dtype, b.dtype) == ([1, 2], [1.0, 2.0], np.int32,
                                                              np.float32)
        assert sess.run(one) == [3, 3.0]
        sess.run(put)
        sess.run(q.close())
        assert [x.tolist() for x in sess.run(two)] == [[1, 2], [1.0, 2.0]]
        with pytest.raises(tf.errors.OutOfRangeError, match=r"requested 2, current size 1"):
            sess.run(two)
        assert sess.run(q.size()) == 1
        assert [x.tolist() for x in sess.run(q.dequeue_up_to(5))] == [[3], [3.0]]
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match="FIFOQueue's DequeueMany and DequeueUpTo require the "
                                 "components to have specified shapes."):
            sess.run(unknown_many)


def test_padding_priority_and_shuffle_queues():
    g = tf.Graph()
    with g.as_default():
        pq = tf1.PaddingFIFOQueue(5, [tf.int32], shapes=[[None]])
        puts = [pq.enqueue([[1, 2, 3]]), pq.enqueue([[4]])]
        padded = pq.dequeue_many(2)
        assert padded.shape.as_list() == [2, None]
        rq = tf1.RandomShuffleQueue(10, 2, tf.int32, shapes=[[]], seed=3)
        fill = rq.enqueue_many([[1, 2, 3, 4, 5]])
        draw = rq.dequeue()
        prq = tf1.PriorityQueue(10, [tf.string], shapes=[[]])
        assert (prq.dtypes, prq.shapes) == ([tf.int64, tf.string],
                                            [tf.TensorShape([]), tf.TensorShape([])])
        prio = prq.enqueue_many(([3, 1, 2], ["c", "a", "b"]))
        by_priority = prq.dequeue_many(3)
    with tf1.Session(graph=g) as sess:
        for put in puts:
            sess.run(put)
        assert sess.run(padded).tolist() == [[1, 2, 3], [4, 0, 0]]
        sess.run(fill)
        drawn = [int(sess.run(draw)) for _ in range(3)]
        assert len(set(drawn)) == 3 and set(drawn) <= {1, 2, 3, 4, 5}
        assert sess.run(rq.size()) == 2  # (min_after_dequeue stay until it closes)
        with pytest.raises(tf.errors.DeadlineExceededError):
            sess.run(draw, options=tf1.RunOptions(timeout_in_ms=200))
        sess.run(rq.close())
        assert len({int(sess.run(draw)) for _ in range(2)} | set(drawn)) == 5
        sess.run(prio)
        priorities, values = sess.run(by_priority)
        assert priorities.tolist() == [1, 2, 3] and priorities.dtype == np.int64
        assert values.tolist() == [b"a", b"b", b"c"] and values.dtype == object


def test_feeds_shapes_and_timeouts():
    g = tf.Graph()
    with g.as_default():
        q = tf1.FIFOQueue(2, tf.int32, shapes=[[]])
        x = tf1.placeholder(tf.int32, [None])
        put, take = q.enqueue_many([x]), q.dequeue()
        q2 = tf1.FIFOQueue(2, tf.float32, shapes=[[2]])
        p = tf1.placeholder(tf.float32)
        put2 = q2.enqueue([p])
    with tf1.Session(graph=g) as sess:
        with pytest.raises(tf.errors.DeadlineExceededError):
            sess.run(take, options=tf1.RunOptions(timeout_in_ms=100))
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match=r"Shape mismatch in tuple component 0. Expected \[2\], "
                                 r"got \[3\]"):
            sess.run(put2, {p: [1.0, 2.0, 3.0]})
        sess.run(put, {x: [1, 2]})
        with pytest.raises(tf.errors.DeadlineExceededError):  # (full)
            sess.run(put, {x: [3]}, options=tf1.RunOptions(timeout_in_ms=100))
        assert sess.run(q.size()) == 2


def test_a_thread_waiting_on_a_queue_ends_when_it_closes():
    g = tf.Graph()
    with g.as_default():
        q = tf1.FIFOQueue(2, tf.int32, shapes=[[]])
        put, take, close = q.enqueue_many([[1, 2]]), q.dequeue(), q.close()
    out = []
    with tf1.Session(graph=g) as sess:
        sess.run(put)

        def consume():
            try:
                for _ in range(4):
                    out.append(int(sess.run(take)))
            except tf.errors.OutOfRangeError as e:
                out.append(type(e).__name__)
        t = threading.Thread(target=consume)
        t.start()
        time.sleep(0.2)
        sess.run(close)
        t.join(10)
    assert out == [1, 2, "OutOfRangeError"]


def test_closing_the_session_cancels_a_waiting_dequeue():
    g = tf.Graph()
    with g.as_default():
        q = tf1.FIFOQueue(2, tf.int32, shapes=[[]])
        take = q.dequeue()
    sess = tf1.Session(graph=g)
    out = []

    def consume():
        try:
            sess.run(take)
        except tf.errors.CancelledError as e:
            out.append(type(e).__name__)
    t = threading.Thread(target=consume)
    t.start()
    time.sleep(0.2)
    sess.close()
    t.join(10)
    assert out == ["CancelledError"]


def test_eager_queues():
    q = tf.queue.FIFOQueue(3, tf.int32, shapes=[[]])
    assert q.enqueue(1) is None and q.enqueue_many([[2, 3]]) is None
    assert int(q.size()) == 3
    assert int(q.dequeue()) == 1
    assert q.dequeue_many(2).numpy().tolist() == [2, 3]
    assert q.close() is None and bool(q.is_closed())
    with pytest.raises(tf.errors.OutOfRangeError,
                       match=r"FIFOQueue '\d+' is closed and has insufficient elements "
                             r"\(requested 1, current size 0\)"):
        q.dequeue()
    with pytest.raises(tf.errors.CancelledError, match=r"FIFOQueue '\d+' is closed."):
        q.enqueue(1)
    unknown = tf.queue.FIFOQueue(3, tf.int32)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="FIFOQueue's DequeueMany and DequeueUpTo require the components "
                             "to have specified shapes."):
        unknown.dequeue_many(2)
    assert tf.queue.QueueBase is tf1.QueueBase and tf1.io.RandomShuffleQueue is \
        tf.queue.RandomShuffleQueue and tf1.queue.PaddingFIFOQueue is tf1.PaddingFIFOQueue


def test_count_up_to():
    v = tf.Variable(0)
    assert [int(tf1.count_up_to(v, 2)) for _ in range(2)] == [0, 1]
    with pytest.raises(tf.errors.OutOfRangeError, match="Reached limit of 2"):
        tf1.count_up_to(v, 2)
    assert int(v.read_value()) == 2


def test_negative_dequeue_counts_raise_the_kernels_error_eagerly():
    # before the check of unspecified shapes, as TF's kernels order them
    q = tf.queue.FIFOQueue(3, tf.int32)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"DequeueManyOp requested -1 < 0 elements"):
        q.dequeue_many(-1)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"DequeueUpToOp requested -2 < 0 elements"):
        q.dequeue_up_to(-2)


def test_queue_shapes_arguments_and_checks():
    assert tf.queue.FIFOQueue(3, tf.int32, shapes=[]).shapes == [tf.TensorShape([])]
    assert tf.queue.FIFOQueue(3, tf.int32, shapes=[2]).shapes == [tf.TensorShape([2])]
    assert tf.queue.FIFOQueue(3, [tf.int32, tf.int32], shapes=[[2], []]).shapes == [
        tf.TensorShape([2]), tf.TensorShape([])]
    g = tf.Graph()
    with g.as_default():
        q = tf1.FIFOQueue(5, [tf.int32, tf.float32], shapes=[[], [2]])
        with pytest.raises(ValueError, match=r"Shapes \(\) and \(2,\) are incompatible"):
            q.enqueue_many(([1, 2], [1.0, 2.0]))
        with pytest.raises(ValueError, match="Input 'n' must be >= 0, but is -1"):
            q.dequeue_many(-1)
        with pytest.raises(ValueError, match=r"Queue shapes must have the same length as "
                                             r"dtypes, received len\(shapes\)=2, "
                                             r"len\(dtypes\)=1"):
            tf1.FIFOQueue(2, tf.int32, shapes=[[2], [3]])
        assert tf1.FIFOQueue(2, tf.int32).name == "fifo_queue_2"  # (the failed one's taken)
        with pytest.raises(ValueError, match=r"All shapes must be fully defined: "
                                             r"\[TensorShape\(\[None\]\)\]"):
            tf1.FIFOQueue(2, tf.int32, shapes=[[None]])
        x = tf1.placeholder(tf.int32, [None])
        q2 = tf1.FIFOQueue(5, tf.int32, shapes=[[]])
        put, many = q2.enqueue_many([x]), q2.dequeue_many(x[0])
        assert many.shape.as_list() == [None]
        up_to = q.dequeue_up_to(5)
        assert [t.shape.as_list() for t in up_to] == [[None], [None, 2]]
    with tf1.Session(graph=g) as sess:
        with pytest.raises(tf.errors.DeadlineExceededError):
            sess.run(put, {x: [1, 2, 3, 4, 5, 6]}, options=tf1.RunOptions(timeout_in_ms=100))
        assert sess.run(q2.size()) == 5  # (the elements that fitted stay)
        assert sess.run(many, {x: [2]}).tolist() == [1, 2]
        sess.run(q.enqueue_many(([1, 2], [[1.0, 2.0], [3.0, 4.0]])))
        sess.run(q.close(cancel_pending_enqueues=True))
        assert [a.tolist() for a in sess.run(up_to)] == [[1, 2], [[1.0, 2.0], [3.0, 4.0]]]


def test_eager_queue_in_functions():
    q = tf.queue.FIFOQueue(10, tf.float32, shapes=[[]])

    @tf.function
    def put(v):
        q.enqueue(v)
        return q.size()

    @tf.function
    def take():
        return q.dequeue()
    assert int(put(1.0)) == 1 and int(put(2.0)) == 2
    assert q.dequeue_many(2).numpy().tolist() == [1.0, 2.0]
    q.enqueue_many([[5.0, 6.0]])
    assert float(take()) == 5.0 and float(take()) == 6.0


def test_queue_and_reader_handles_are_resources():
    # TF 2.21: a queue's and a reader's handles are scalar resource tensors
    q = tf.queue.FIFOQueue(3, tf.float32)
    assert q.queue_ref.dtype == tf.resource and q.queue_ref.shape == ()
    assert repr(q.queue_ref).startswith("<tf.Tensor: shape=(), dtype=resource, value=<Resource"
                                        "Handle(name=")
    seen = []

    @tf.function
    def f():
        seen.append(q.queue_ref.dtype)
        q.enqueue(1.0)
        return q.size()

    assert int(f()) == 1 and seen == [tf.resource]
    g = tf.Graph()
    with g.as_default():
        named = tf.queue.FIFOQueue(3, tf.float32, name="qq")
        reader = tf.compat.v1.TextLineReader(name="rr")
    # (TF's also names the CPU the queue is placed on)
    assert str(named.queue_ref).startswith('Tensor("qq:0", shape=(), dtype=resource')
    assert str(reader.reader_ref) == 'Tensor("rr:0", shape=(), dtype=resource)'

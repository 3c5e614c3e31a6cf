"""Specs of the queue ops (data_flow_ops.py), run on eager queues, and of ResourceCountUpTo."""
import numpy as np

import eagerflow as tf
from tests.ops.spec import OpSpec

_NO_GRAD = "queue op"


def _queue(x, capacity=10):
    return tf.queue.FIFOQueue(capacity, tf.float32, shapes=[x.shape[1:]])


def _enqueued(x):
    q = _queue(x)
    for row in tf.unstack(x):
        q.enqueue(row)
    return q.dequeue_many(len(x))


def _enqueued_many(x):
    q = _queue(x)
    q.enqueue_many(x)
    return q.dequeue_many(len(x))


def _one(x):
    q = _queue(x)
    q.enqueue_many(x)
    return q.dequeue()


def _up_to(x):
    q = _queue(x)
    q.enqueue_many(x)
    q.close()
    return q.dequeue_up_to(len(x) + 5)


def _closed(x):
    q = _queue(x)
    before = q.is_closed()
    q.close()
    return before, q.is_closed()


def _size(x):
    q = _queue(x)
    q.enqueue_many(x)
    return q.size()


def _counted(x):
    v = tf.Variable(x)
    return tf.compat.v1.count_up_to(v, 10), v.read_value()


_ROWS = np.arange(6, dtype=np.float32).reshape(3, 2)

SPECS = [
    OpSpec("QueueEnqueueV2", _enqueued, [_ROWS], lambda x: x, grad=_NO_GRAD),
    OpSpec("QueueEnqueueManyV2", _enqueued_many, [_ROWS], lambda x: x, grad=_NO_GRAD),
    OpSpec("QueueDequeueManyV2", _enqueued_many, [_ROWS], lambda x: x, grad=_NO_GRAD,
           name="QueueDequeueManyV2"),
    OpSpec("QueueDequeueV2", _one, [_ROWS], lambda x: x[0], grad=_NO_GRAD),
    OpSpec("QueueDequeueUpToV2", _up_to, [_ROWS], lambda x: x, grad=_NO_GRAD),
    OpSpec("QueueCloseV2", _closed, [_ROWS], lambda x: (np.bool_(False), np.bool_(True)),
           grad=_NO_GRAD),
    OpSpec("QueueIsClosedV2", _closed, [_ROWS], lambda x: (np.bool_(False), np.bool_(True)),
           grad=_NO_GRAD, name="QueueIsClosedV2"),
    OpSpec("QueueSizeV2", _size, [_ROWS], lambda x: np.int32(3), grad=_NO_GRAD),
    OpSpec("ResourceCountUpTo", _counted, [np.int64(4)], lambda x: (np.int64(4), np.int64(5)),
           grad="variable update"),
]

"""TF 1's queue-based input pipelines (``tf.compat.v1.train.string_input_producer``,
`batch`, `shuffle_batch`, ...): each stage is a queue filled by a `QueueRunner`'s
threads, so a Session training loop dequeues batches while the threads read ahead.
An epoch limit (`limit_epochs`) ends the input with OutOfRangeError, which closes each
queue in turn and ends the loop.

>>> g = tf.Graph()
>>> with g.as_default():
...     x, y = tf.compat.v1.train.slice_input_producer(
...         [tf.constant([1, 2, 3, 4]), tf.constant([10, 20, 30, 40])], num_epochs=1,
...         shuffle=False)
...     xs, ys = tf.compat.v1.train.batch([x, y], batch_size=2)
...     init = tf.compat.v1.local_variables_initializer()
>>> with tf.compat.v1.Session(graph=g) as sess:
...     sess.run(init)
...     coord = tf.compat.v1.train.Coordinator()
...     threads = tf.compat.v1.train.start_queue_runners(sess, coord)
...     batches = []
...     try:
...         while True:
...             batches.append(sess.run([xs, ys]))
...     except tf.errors.OutOfRangeError:
...         coord.request_stop()
...     coord.join(threads)
>>> [[a.tolist(), b.tolist()] for a, b in batches]
[[[1, 2], [10, 20]], [[3, 4], [30, 40]]]
"""
from eagerflow._src.backend.api_export import export
from eagerflow._src.compat import graph_mode, queue_runner
from eagerflow._src.compat import summary as _summary
from eagerflow._src.compat import variable_scope
from eagerflow._src.compat.graph_mode import GraphKeys
from eagerflow._src.core import context
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.core.tensor import Tensor
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.ops import (array_ops, cast_ops, data_flow_ops, debugging_ops, io_ops,
                                math_ops, random_ops)

_NO_EAGER = ("Input pipelines based on Queues are not supported when eager execution is "
             "enabled. Please use tf.data to ingest data into your model instead.")


def _check_graph():
    if context.executing_eagerly():
        raise RuntimeError(_NO_EAGER)


@export("compat.v1.train.limit_epochs")
def limit_epochs(tensor, num_epochs=None, name=None):
    """`tensor`, which raises OutOfRangeError after `num_epochs` evaluations (counted by a
    local variable ``epochs``); `tensor` itself when `num_epochs` is None."""
    if num_epochs is None:
        return tensor
    if num_epochs <= 0:
        raise ValueError(f"num_epochs must be > 0 not {num_epochs}.")
    with graph_mode.name_scope(name, "limit_epochs") as scope:
        epochs = variable_scope.GraphVariable(
            convert_to_tensor(0, _d.int64), name="epochs", trainable=False,
            collections=[GraphKeys.LOCAL_VARIABLES])
        counter = data_flow_ops.count_up_to(epochs, num_epochs)
        with graph_mode.control_dependencies([counter]):
            return cast_ops.identity(tensor, name=scope)


@export("compat.v1.train.input_producer")
def input_producer(input_tensor, element_shape=None, num_epochs=None, shuffle=True, seed=None,
                   capacity=32, shared_name=None, summary_name=None, name=None, cancel_op=None):
    """A FIFO queue that a `QueueRunner` fills with the rows of `input_tensor` (shuffled
    each epoch when `shuffle`), `num_epochs` times (None: without end)."""
    _check_graph()
    with graph_mode.name_scope(name, "input_producer") as scope:
        input_tensor = convert_to_tensor(input_tensor, name="input_tensor")
        element_shape = input_tensor.shape[1:].merge_with(
            TensorShape(element_shape) if element_shape is not None else TensorShape(None))
        if not element_shape.is_fully_defined():
            raise ValueError("Either `input_tensor` must have a fully defined shape or "
                             "`element_shape` must be specified")
        if shuffle:
            input_tensor = random_ops.shuffle(input_tensor, seed=seed)
        input_tensor = limit_epochs(input_tensor, num_epochs)
        q = data_flow_ops.FIFOQueue(capacity=capacity, dtypes=[input_tensor.dtype],
                                    shapes=[element_shape], shared_name=shared_name,
                                    name=scope)
        enqueue = q.enqueue_many([input_tensor])
        queue_runner.add_queue_runner(queue_runner.QueueRunner(q, [enqueue],
                                                               cancel_op=cancel_op))
        if summary_name is not None:
            _summary.scalar(summary_name,
                            cast_ops.cast(q.size(), _d.float32) * (1.0 / capacity))
        return q


@export("compat.v1.train.string_input_producer")
def string_input_producer(string_tensor, num_epochs=None, shuffle=True, seed=None, capacity=32,
                          shared_name=None, name=None, cancel_op=None):
    """A queue of the strings of `string_tensor` (file names, for a reader), each epoch's
    shuffled when `shuffle`, for `num_epochs` epochs (None: without end).

    The queue runner's threads fill it once `start_queue_runners` starts them; with
    `num_epochs`, the local variable counting epochs needs
    `local_variables_initializer`.
    """
    message = "string_input_producer requires a non-null input tensor"
    if not isinstance(string_tensor, Tensor) and not string_tensor:
        raise ValueError(message)
    with graph_mode.name_scope(name, "input_producer") as scope:
        string_tensor = convert_to_tensor(string_tensor, _d.string)
        check = debugging_ops.Assert(math_ops.greater(array_ops.size(string_tensor), 0),
                                     [message])
        with graph_mode.control_dependencies([check]):
            string_tensor = cast_ops.identity(string_tensor)
        return input_producer(string_tensor, [], num_epochs, shuffle, seed, capacity,
                              shared_name, f"fraction_of_{capacity}_full", scope, cancel_op)


@export("compat.v1.train.range_input_producer")
def range_input_producer(limit, num_epochs=None, shuffle=True, seed=None, capacity=32,
                         shared_name=None, name=None):
    """A queue of the integers 0 to `limit` - 1 (int32), for `num_epochs` epochs."""
    with graph_mode.name_scope(name, "input_producer") as scope:
        range_tensor = array_ops.range(limit)
        return input_producer(range_tensor, [], num_epochs, shuffle, seed, capacity,
                              shared_name, f"fraction_of_{capacity}_full", scope)


@export("compat.v1.train.slice_input_producer")
def slice_input_producer(tensor_list, num_epochs=None, shuffle=True, seed=None, capacity=32,
                         shared_name=None, name=None):
    """One row of each tensor of `tensor_list` at a time (the same row of each), their
    rows taken in order (or shuffled), for `num_epochs` epochs."""
    with graph_mode.name_scope(name, "input_producer"):
        tensor_list = [convert_to_tensor(t) for t in tensor_list]
        if not tensor_list:
            raise ValueError("Expected at least one tensor in slice_input_producer().")
        range_size = array_ops.shape(tensor_list[0])[0]
        queue = range_input_producer(range_size, num_epochs=num_epochs, shuffle=shuffle,
                                     seed=seed, capacity=capacity, shared_name=shared_name)
        index = queue.dequeue()
        return [array_ops.gather(t, index) for t in tensor_list]


# -- batching ----------------------------------------------------------------------------------

def _flat(tensors):
    """The tensors to batch: a dict's by sorted key, else the list as given."""
    flat = [tensors[k] for k in sorted(tensors)] if isinstance(tensors, dict) else list(
        tensors)
    if not flat:
        raise ValueError("Expected at least one tensor in batch().")
    return [convert_to_tensor(t) for t in flat]


def _as_given(tensors, dequeued):
    """The batches in the form of `tensors`: a dict by key, else as the queue gave them (a
    single tensor for a single one, as TF's)."""
    if isinstance(tensors, dict):
        dequeued = dequeued if isinstance(dequeued, list) else [dequeued]
        return {k: dequeued[i] for i, k in enumerate(sorted(tensors))}
    return dequeued


def _shapes(tensor_lists, shapes, enqueue_many):
    if shapes is not None:
        return [TensorShape(s) for s in shapes]
    merged = []
    for i in range(len(tensor_lists[0])):
        shape = TensorShape(None)
        for tensors in tensor_lists:
            t = tensors[i]
            if t.shape.rank is None:
                raise ValueError(f"Cannot infer Tensor's rank: {t}")
            shape = shape.merge_with(t.shape[1:] if enqueue_many else t.shape)
        merged.append(shape)
    return merged


def _dtypes(tensor_lists):
    types = [t.dtype for t in tensor_lists[0]]
    for tensors in tensor_lists[1:]:
        if [t.dtype for t in tensors] != types:
            raise TypeError(f"Expected types to be {types} but got "
                            f"{[t.dtype for t in tensors]}")
    return types


def _keep(keep_input, enqueue_many):
    keep_input = convert_to_tensor(keep_input, _d.bool)
    rank = keep_input.shape.rank
    if rank is None:
        raise ValueError("`keep_input` dimensions must be known at graph construction.")
    if not enqueue_many and rank == 1:
        raise ValueError("`keep_input` cannot be a vector when `enqueue_many=False`.")
    if rank > 1:
        raise ValueError("`keep_input` must be 0 or 1 dimensions.")
    return keep_input


def _enqueue(queue, tensors, enqueue_many, keep_input):
    """The op adding `tensors` (one example, or many along dimension 0) to `queue`; with
    `keep_input` (a boolean, or one per example), only the examples it keeps."""
    if keep_input is None:
        return (queue.enqueue_many if enqueue_many else queue.enqueue)(tensors)
    if not enqueue_many:
        tensors = [array_ops.expand_dims(t, 0) for t in tensors]
    if keep_input.shape.rank == 0:
        keep_input = array_ops.fill(array_ops.shape(tensors[0])[:1], keep_input)
    return queue.enqueue_many([array_ops.boolean_mask(t, keep_input) for t in tensors])


def _batch(tensors, tensor_lists, batch_size, threads, make_queue, enqueue_many, shapes,
           allow_smaller_final_batch, summary, name, default, keep_input=None):
    """The batches of a queue (`make_queue(dtypes, shapes)`) that one enqueue op per
    thread (per list of `tensor_lists`) fills, shaped as `tensors`; `summary`: the name
    and value (of the queue) of the scalar summary of how full it is; `keep_input`: which
    examples to enqueue (None: all)."""
    _check_graph()
    with graph_mode.name_scope(name, default) as scope:
        if keep_input is not None:
            keep_input = _keep(keep_input, enqueue_many)
        queue = make_queue(_dtypes(tensor_lists), _shapes(tensor_lists, shapes, enqueue_many))
        enqueues = [_enqueue(queue, t, enqueue_many, keep_input)
                    for t in tensor_lists] * threads
        queue_runner.add_queue_runner(queue_runner.QueueRunner(queue, enqueues))
        _summary.scalar(summary[0], summary[1](queue))
        take = queue.dequeue_up_to if allow_smaller_final_batch else queue.dequeue_many
        return _as_given(tensors, take(batch_size, name=scope))


def _fraction_full(capacity):
    return lambda q: cast_ops.cast(q.size(), _d.float32) * (1.0 / capacity)


def _over(min_after_dequeue, capacity):
    """The summary of a shuffling queue: how full it is beyond `min_after_dequeue`."""
    room = capacity - min_after_dequeue
    return (f"fraction_over_{min_after_dequeue}_of_{room}_full",
            lambda q: cast_ops.cast(math_ops.maximum(0, q.size() - min_after_dequeue),
                                    _d.float32) * (1.0 / room))


def _fifo(capacity, dynamic_pad, shared_name):
    kind = data_flow_ops.PaddingFIFOQueue if dynamic_pad else data_flow_ops.FIFOQueue
    return lambda types, shapes: kind(capacity=capacity, dtypes=types, shapes=shapes,
                                      shared_name=shared_name)


def _shuffling(capacity, min_after_dequeue, seed, shared_name):
    return lambda types, shapes: data_flow_ops.RandomShuffleQueue(
        capacity=capacity, min_after_dequeue=min_after_dequeue, seed=seed, dtypes=types,
        shapes=shapes, shared_name=shared_name)


@export("compat.v1.train.batch")
def batch(tensors, batch_size, num_threads=1, capacity=32, enqueue_many=False, shapes=None,
          dynamic_pad=False, allow_smaller_final_batch=False, shared_name=None, name=None):
    """`tensors` (a structure of tensors, one example; or with `enqueue_many`, examples
    along dimension 0) batched `batch_size` at a time through a FIFO queue of `capacity`
    that `num_threads` threads fill. With `dynamic_pad`, unknown dims are padded to each
    batch's longest; with `allow_smaller_final_batch`, the last batch may be smaller."""
    flat = _flat(tensors)
    return _batch(tensors, [flat], batch_size, num_threads,
                  _fifo(capacity, dynamic_pad, shared_name), enqueue_many,
                  shapes, allow_smaller_final_batch,
                  (f"fraction_of_{capacity}_full", _fraction_full(capacity)), name, "batch")


@export("compat.v1.train.batch_join")
def batch_join(tensors_list, batch_size, capacity=32, enqueue_many=False, shapes=None,
               dynamic_pad=False, allow_smaller_final_batch=False, shared_name=None,
               name=None):
    """`batch` of several structures of tensors alike (one thread each), mixed into one
    queue."""
    lists = [_flat(t) for t in tensors_list]
    return _batch(tensors_list[0], lists, batch_size, 1,
                  _fifo(capacity, dynamic_pad, shared_name), enqueue_many,
                  shapes, allow_smaller_final_batch,
                  (f"fraction_of_{capacity}_full", _fraction_full(capacity)), name, "batch_join")


@export("compat.v1.train.shuffle_batch")
def shuffle_batch(tensors, batch_size, capacity, min_after_dequeue, num_threads=1, seed=None,
                  enqueue_many=False, shapes=None, allow_smaller_final_batch=False,
                  shared_name=None, name=None):
    """`batch` through a `RandomShuffleQueue`: each batch drawn at random from the
    examples queued, at least `min_after_dequeue` staying queued until the input ends."""
    flat = _flat(tensors)
    return _batch(tensors, [flat], batch_size, num_threads,
                  _shuffling(capacity, min_after_dequeue, seed, shared_name), enqueue_many,
                  shapes, allow_smaller_final_batch, _over(min_after_dequeue, capacity), name, "shuffle_batch")


@export("compat.v1.train.shuffle_batch_join")
def shuffle_batch_join(tensors_list, batch_size, capacity, min_after_dequeue, seed=None,
                       enqueue_many=False, shapes=None, allow_smaller_final_batch=False,
                       shared_name=None, name=None):
    """`shuffle_batch` of several structures of tensors alike (one thread each)."""
    lists = [_flat(t) for t in tensors_list]
    return _batch(tensors_list[0], lists, batch_size, 1,
                  _shuffling(capacity, min_after_dequeue, seed, shared_name), enqueue_many,
                  shapes, allow_smaller_final_batch, _over(min_after_dequeue, capacity), name, "shuffle_batch_join")


@export("compat.v1.train.maybe_batch")
def maybe_batch(tensors, keep_input, batch_size, num_threads=1, capacity=32, enqueue_many=False,
                shapes=None, dynamic_pad=False, allow_smaller_final_batch=False,
                shared_name=None, name=None):
    """`batch` of the examples `keep_input` keeps (a boolean, or with `enqueue_many` one
    per example)."""
    flat = _flat(tensors)
    return _batch(tensors, [flat], batch_size, num_threads,
                  _fifo(capacity, dynamic_pad, shared_name), enqueue_many,
                  shapes, allow_smaller_final_batch,
                  (f"fraction_of_{capacity}_full", _fraction_full(capacity)), name, "batch",
                  keep_input)


@export("compat.v1.train.maybe_batch_join")
def maybe_batch_join(tensors_list, keep_input, batch_size, capacity=32, enqueue_many=False,
                     shapes=None, dynamic_pad=False, allow_smaller_final_batch=False,
                     shared_name=None, name=None):
    """`batch_join` of the examples `keep_input` keeps."""
    lists = [_flat(t) for t in tensors_list]
    return _batch(tensors_list[0], lists, batch_size, 1,
                  _fifo(capacity, dynamic_pad, shared_name), enqueue_many,
                  shapes, allow_smaller_final_batch,
                  (f"fraction_of_{capacity}_full", _fraction_full(capacity)), name,
                  "batch_join", keep_input)


@export("compat.v1.train.maybe_shuffle_batch")
def maybe_shuffle_batch(tensors, batch_size, capacity, min_after_dequeue, keep_input,
                        num_threads=1, seed=None, enqueue_many=False, shapes=None,
                        allow_smaller_final_batch=False, shared_name=None, name=None):
    """`shuffle_batch` of the examples `keep_input` keeps."""
    flat = _flat(tensors)
    return _batch(tensors, [flat], batch_size, num_threads,
                  _shuffling(capacity, min_after_dequeue, seed, shared_name), enqueue_many,
                  shapes, allow_smaller_final_batch, _over(min_after_dequeue, capacity), name,
                  "shuffle_batch", keep_input)


@export("compat.v1.train.maybe_shuffle_batch_join")
def maybe_shuffle_batch_join(tensors_list, batch_size, capacity, min_after_dequeue, keep_input,
                             seed=None, enqueue_many=False, shapes=None,
                             allow_smaller_final_batch=False, shared_name=None, name=None):
    """`shuffle_batch_join` of the examples `keep_input` keeps."""
    lists = [_flat(t) for t in tensors_list]
    return _batch(tensors_list[0], lists, batch_size, 1,
                  _shuffling(capacity, min_after_dequeue, seed, shared_name), enqueue_many,
                  shapes, allow_smaller_final_batch, _over(min_after_dequeue, capacity), name,
                  "shuffle_batch_join", keep_input)


@export("compat.v1.train.match_filenames_once", "compat.v1.io.match_filenames_once")
def match_filenames_once(pattern, name=None):
    """A local variable holding the file names matching `pattern` (a glob), found when
    `local_variables_initializer` runs."""
    with graph_mode.name_scope(name, "matching_filenames") as scope:
        return variable_scope.GraphVariable(
            io_ops.matching_files(pattern), name=scope, trainable=False, validate_shape=False,
            collections=[GraphKeys.LOCAL_VARIABLES])

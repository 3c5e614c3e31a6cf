"""The summary functions of ``tf.summary`` and the ``WriteSummary`` op they share.

Each summary turns its data into the tensor TensorBoard's plugin expects (a
float32 scalar, ``[k, 3]`` float64 histogram buckets, PNG images with their
width and height, WAV clips with labels, strings) with ops, so it works eagerly
and inside `function`, then writes it with ``WriteSummary``: a stateful op that
keeps program order in a graph and appends an ``Event`` to the writer's file.

>>> import tempfile
>>> with tf.summary.create_file_writer(tempfile.mkdtemp()).as_default():
...     tf.summary.histogram("weights", [1.0, 2.0, 2.0, 5.0], step=0, buckets=2)
<tf.Tensor: shape=(), dtype=bool, numpy=True>
"""
import contextlib
import re

import numpy as np

from eagerflow._src.backend import log as _log
from eagerflow._src.backend.api_export import export
from eagerflow._src.backend.wire import field as _field, varint as _varint
from eagerflow._src.core import context, errors
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core.convert import constant, convert_to_tensor
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.core.node_forms import NodeForm, tf_nodes
from eagerflow._src.summary import profiler as profiler_module
from eagerflow._src.core.node_forms import tf_args
from eagerflow._src.core.registry import register
from eagerflow._src.core.tensor import EagerTensor, Tensor
from eagerflow._src.core.variables import Variable
from eagerflow._src.graph import control_flow
from eagerflow._src.graph.functional_ops import map_fn
from eagerflow._src.ops import (array_ops, cast_ops, debugging_ops, math_ops, reduction_ops,
                                string_ops)
from eagerflow._src.ops.audio_ops import encode_wav
from eagerflow._src.ops.image_codecs import encode_png
from eagerflow._src.ops.image_ops import convert_image_dtype
from eagerflow._src.summary import protos
from eagerflow._src.summary.writer import (
    _WRITERS, _ResourceSummaryWriter, gone_error, scalar_record, state)

# -- the WriteSummary op -----------------------------------------------------------------------

_SHAPES = {}


def _tensor_bytes(array):
    """A serialized ``TensorProto`` of `array` as TF's summary writer writes it: numbers
    as ``tensor_content``, strings as ``string_val``."""
    dtype = _d.from_numpy(array.dtype) if array.dtype != object else _d.string
    shape = _SHAPES.get(array.shape)
    if shape is None:
        shape = _SHAPES[array.shape] = _field(2, b"".join(
            _field(2, b"\x08" + _varint(d) if d else b"") for d in array.shape))
    out = b"\x08" + _varint(dtype.as_datatype_enum) + shape
    if dtype == _d.string:
        for v in array.reshape(-1):
            out += _field(8, v if isinstance(v, bytes) else str(v).encode())
    elif array.size:
        out += _field(4, np.ascontiguousarray(array).astype(
            array.dtype.newbyteorder("<"), copy=False).tobytes())
    return out


_VALUE_HEADS = {}


def summary_bytes(tag, array, metadata):
    """A serialized ``Summary`` with one value: `tag`, the tensor `array`, `metadata`
    (serialized ``SummaryMetadata``, written when not empty)."""
    key = (tag, metadata)
    head = _VALUE_HEADS.get(key)
    if head is None:
        head = _field(1, tag.encode() if isinstance(tag, str) else tag)
        if len(_VALUE_HEADS) < 4096:
            _VALUE_HEADS[key] = head
    value = head + _field(8, _tensor_bytes(array))
    if metadata:
        value += _field(9, metadata)
    return _field(1, value)


def _target(writer):
    """The open file writer of id `writer` (TF's error when it is closed or dropped)."""
    target = _WRITERS.get(writer)
    if target is None or target._file.closed:
        raise gone_error(writer)
    return target


def _write_summary(xp, step, tensor, tag, metadata, *, writer):
    target = _target(writer)
    tensor = np.asarray(tensor)
    if tensor.dtype == np.float32 and tensor.ndim == 0:  # a scalar: the quick way
        target._write_scalar(int(step), tag[()], metadata[()], tensor.tobytes())
    else:
        target._write(int(step), summary_bytes(tag[()], tensor, metadata[()]))
    return ()


_WRITE = register("WriteSummary", _write_summary, lambda *_, **__: [], multi=True,
                  tied=(1,), stateful=True, not_differentiable="summary")
tf_nodes[_WRITE] = NodeForm(types={"T": 1}, local={"writer": -1})
tf_args[_WRITE] = None  # (the writer is an attr, not TF's resource input: no raw op)

def _write_raw(xp, step, tensor, *, writer):
    target = _target(writer)
    # one event of the summaries merged (their bytes one after another)
    parts = [bytes(s) for s in np.asarray(tensor, object).reshape(-1)]
    for i, serialized in enumerate(parts):
        try:
            protos.Summary.FromString(serialized)
        except Exception:  # noqa: BLE001 (protobuf's DecodeError and its kin)
            raise errors.DataLossError(
                None, None, f"Bad tf.compat.v1.Summary binary proto tensor string at "
                            f"index {i}") from None
    target._write(int(np.asarray(step).reshape(())), b"".join(parts))
    return ()


_WRITE_RAW = register("WriteRawProtoSummary", _write_raw, lambda *_, **__: [], multi=True,
                      tied=(1,), dtypes=(_d.string,), stateful=True,
                      not_differentiable="summary")
tf_nodes[_WRITE_RAW] = NodeForm(types={}, local={"writer": -1})
tf_args[_WRITE_RAW] = None  # (as WriteSummary)

# -- state and the generic write ---------------------------------------------------------------

_TRUE = _FALSE = None


def _bool(value):
    """A boolean scalar tensor (cached eagerly: eager tensors never change)."""
    global _TRUE, _FALSE
    if not context.executing_eagerly():
        return constant(value)
    if _TRUE is None:
        _TRUE, _FALSE = constant(True), constant(False)
    return _TRUE if value else _FALSE


@export("summary.should_record_summaries")
def should_record_summaries():
    """Whether summaries are written now: a default writer exists and the `record_if`
    condition holds (a boolean tensor)."""
    if state.writer is None or not getattr(state.writer, "_writes", True):
        return _bool(False)
    condition = state.is_recording
    if callable(condition):
        condition = condition()
    if condition is None:  # (TF: no condition, so recording)
        return _bool(True)
    if isinstance(condition, (bool, np.bool_)):
        return _bool(bool(condition))
    if isinstance(condition, (int, np.integer)) and not condition:  # (TF: a falsy constant)
        return _bool(False)
    return convert_to_tensor(condition, _d.bool)


def _string(value):
    """The bytes of a string argument given as a tensor (TF converts tags and metadata to
    string tensors: anything else raises its error)."""
    value = convert_to_tensor(value, _d.string)
    if type(value) is not EagerTensor:
        raise TypeError(f"A summary's tag and metadata must be known when it is traced, "
                        f"got {value}")
    return value.numpy()


def _checked_step(step):
    """An explicit `step`, checked as TF checks it (castable to int64, one element)."""
    if type(step) is int and _INT64_MIN <= step <= _INT64_MAX:
        return step
    converted = convert_to_tensor(step, _d.int64)
    if converted.shape.num_elements() != 1:
        raise ValueError(f"Argument `step` must be a scalar. Received step with shape "
                         f"{converted.shape}.")
    # (a one-element step of more dimensions is written as its element)
    return array_ops.reshape(converted, []) if converted.shape.rank else step


def _step_tensor(step):
    """`step` as a Python int when known now, else an int64 tensor."""
    if isinstance(step, (int, np.integer)) and not isinstance(step, bool):
        return int(step)
    step = convert_to_tensor(step, _d.int64)
    if step.shape.rank:  # (a default step of one element, of any rank: TF writes it)
        step = _checked_step(step)
    if type(step) is EagerTensor:
        return int(step._data)
    return step


_NO_STEP = ("No step set. Please specify one either through the `step` argument or "
            "through tf.summary.experimental.set_step()")


@export("summary.write")
def write(tag, tensor, step=None, metadata=None, name=None):
    """Writes `tensor` (or the tensor a callable returns, called only when recording)
    under `tag` at `step` (default: `experimental.get_step()`) with `metadata` (a
    ``SummaryMetadata`` or its bytes) to the default writer.

    Returns True when written, False without a default writer or when `record_if`
    says not to (a boolean tensor).

    >>> import tempfile
    >>> with tf.summary.create_file_writer(tempfile.mkdtemp()).as_default(step=0):
    ...     tf.summary.write("raw", tf.constant([1, 2]))
    <tf.Tensor: shape=(), dtype=bool, numpy=True>
    """
    if step is not None:
        step = _checked_step(step)
    writer = state.writer
    if writer is None or not getattr(writer, "_writes", True):
        return _bool(False)
    if step is None:
        step = state.step
    if metadata is None:
        metadata = b""
    elif hasattr(metadata, "SerializeToString"):
        metadata = metadata.SerializeToString()
    elif not isinstance(metadata, bytes):
        metadata = _string(metadata)
    metadata = _parsed_metadata(metadata)
    if not isinstance(tag, bytes):
        tag = tag if isinstance(tag, str) else _string(tag)

    def record():
        if step is None:
            raise ValueError(_NO_STEP)
        value = tensor() if callable(tensor) else tensor
        value = convert_to_tensor(value)
        step_value = _step_tensor(step)
        if type(value) is EagerTensor and not isinstance(step_value, Tensor) \
                and context.get().fast:
            # the op's kernel, called as dispatch's fast path would
            writer._write(int(step_value), summary_bytes(tag, value._data, metadata))
            return _bool(True)
        if writer._file.closed and context.executing_eagerly():
            raise writer._closed_error()  # (TF's text of it names no op)
        dispatch(_WRITE, (convert_to_tensor(step_value, _d.int64), value,
                          constant(tag, _d.string), constant(metadata, _d.string)),
                 {"writer": writer._id}, name or "write_summary")
        return _written()

    condition = state.is_recording
    if condition is True:
        return _collected(record())
    if condition is False:
        return _collected(_bool(False))
    recording = should_record_summaries()
    if isinstance(recording, EagerTensor):
        return record() if recording.numpy() else _bool(False)
    return _collected(control_flow.cond(recording, record, lambda: constant(False)))


def _written():
    """True, once the write op just built runs: in a graph, a tensor depending on that op,
    so that a session fetching a summary's result writes it."""
    graph = context.get().graph
    if graph is None:
        return _bool(True)
    with graph.control_dependencies([graph.get_operations()[-1]]):
        return constant(True)


def _collected(result):
    """`result`, a summary's, added in a graph to the collection that
    ``tf.compat.v1.summary.all_v2_summary_ops`` gives (TF 1 programs run them by it)."""
    graph = context.get().graph
    if graph is not None:
        graph.add_to_collection(SUMMARY_COLLECTION, result)
    return result


SUMMARY_COLLECTION = "_SUMMARY_V2"


_PARSES = {}  # serialized metadata -> whether it parses


def _parsed_metadata(metadata):
    """`metadata`, serialized ``SummaryMetadata``, as TF's writer keeps it: bytes that do
    not parse as one leave the value with empty metadata (never a corrupt event file)."""
    parses = _PARSES.get(metadata)
    if parses is None:
        try:
            protos.SummaryMetadata.FromString(metadata)
            parses = True
        except Exception:  # noqa: BLE001 (protobuf's DecodeError and its kin)
            parses = False
        if len(_PARSES) < 4096:
            _PARSES[metadata] = parses
    return metadata if parses else _EMPTY_METADATA


# A SummaryMetadata that parses to an empty one, but as bytes is not empty, so the value
# still has its metadata field, as TF's has (its empty display name).
_EMPTY_METADATA = b"\x12\x00"


@export("summary.experimental.write_raw_pb")
def write_raw_pb(tensor, step=None, name=None):
    """Writes `tensor`, serialized ``Summary`` protos (a string or strings), merged into
    one event at `step` (default: `experimental.get_step()`).

    >>> import tempfile
    >>> raw = tf.compat.v1.Summary(value=[tf.compat.v1.Summary.Value(
    ...     tag="loss", simple_value=0.5)]).SerializeToString()
    >>> with tf.summary.create_file_writer(tempfile.mkdtemp()).as_default():
    ...     tf.summary.experimental.write_raw_pb(raw, step=1)
    <tf.Tensor: shape=(), dtype=bool, numpy=True>
    """
    if step is not None:
        step = _checked_step(step)
    writer = state.writer
    if writer is None or not getattr(writer, "_writes", True):
        return _bool(False)
    if step is None:
        step = state.step
        if step is None:
            raise ValueError(_NO_STEP)

    def record():
        value = convert_to_tensor(tensor)
        if value.dtype != _d.string:
            raise errors.InvalidArgumentError(
                None, None, f"cannot compute WriteRawProtoSummary as input #2(zero-based) was "
                            f"expected to be a string tensor but is a {value.dtype.name} tensor")
        dispatch(_WRITE_RAW, (convert_to_tensor(step, _d.int64), value),
                 {"writer": writer._id}, errors.ScopeName(name or "write_raw_pb"))
        return _written()

    recording = should_record_summaries()
    if isinstance(recording, EagerTensor):
        return record() if recording.numpy() else _bool(False)
    return _collected(control_flow.cond(recording, record, lambda: constant(False)))


# -- scopes ------------------------------------------------------------------------------------

_INVALID_SCOPE_CHARACTERS = re.compile(r"[^-_/.A-Za-z0-9]")


@export("summary.experimental.summary_scope")
@contextlib.contextmanager
def summary_scope(name, default_name="summary", values=None):
    """A context manager giving ``(tag, scope)``: the tag of a summary named `name`
    (the current name scope, then `name`) and the name scope opened for its ops."""
    name = name or default_name
    current = context.get().scope
    tag = current + name if current else name
    name = _INVALID_SCOPE_CHARACTERS.sub("", name) or default_name  # ("": the top scope)
    with context.name_scope(name) as scope:
        yield tag, scope


def _metadata(plugin_name, description=None, content=b""):
    return protos.SummaryMetadata(
        plugin_data=protos.SummaryMetadata.PluginData(plugin_name=plugin_name, content=content),
        summary_description=description or "").SerializeToString()


_SCALAR_METADATA = _metadata("scalars")

# -- the summaries -----------------------------------------------------------------------------


@export("summary.scalar")
def scalar(name, data, step=None, description=None):
    """Writes scalar `data` (cast to float32) for TensorBoard's Scalars dashboard.

    >>> import tempfile
    >>> with tf.summary.create_file_writer(tempfile.mkdtemp()).as_default():
    ...     tf.summary.scalar("loss", 0.25, step=3)
    <tf.Tensor: shape=(), dtype=bool, numpy=True>
    """
    metadata = _metadata("scalars", description) if description else _SCALAR_METADATA
    ctx = context.get()
    writer = state.writer
    if ctx.fast and state.is_recording is True and type(writer) is _ResourceSummaryWriter:
        # eagerly, a number or a float32 scalar at a known step: the event's bytes at once
        # (what the general path below writes, without its tensors)
        value = _float32_bytes(data)
        at = state.step if step is None else step
        at = at if type(at) is int and _INT64_MIN <= at <= _INT64_MAX else _eager_step(at)
        if value is not None and at is not None and not writer._file.closed \
                and (type(name) is str or not name):
            tag = (ctx.scope + name if ctx.scope else name) if name else "scalar_summary"
            writer._file.add(scalar_record(at, tag.encode(), metadata, value))
            return _TRUE if _TRUE is not None else _bool(True)
    with summary_scope(name, "scalar_summary") as (tag, _):
        data = convert_to_tensor(data)
        debugging_ops.assert_scalar(data)  # (also of unknown rank in a function, as TF)
        return write(tag, lambda: cast_ops.cast(data, _d.float32), step, metadata)


_FLOAT32_MAX = float(np.finfo(np.float32).max)
_INT64_MIN, _INT64_MAX = -2 ** 63, 2 ** 63 - 1


def _float32_bytes(data):
    """The 4 bytes of `data` as a float32 when it is a Python number or an eager float32
    scalar (else None: the general path converts it)."""
    kind = type(data)
    if kind is float or kind is int or kind is np.float64:  # (np.float64: Keras's logs)
        if not -_FLOAT32_MAX <= data <= _FLOAT32_MAX:
            return None  # beyond float32 (or NaN): the cast makes it inf, without a warning
        if kind is int and not _INT64_MIN <= data <= _INT64_MAX:
            return None  # (converted, it is TF's error: no int64 holds it)
        value = np.float32(data)
        return value.tobytes() if kind is not int or float(value) == data else None
    if kind is np.float32:
        return data.tobytes()
    if kind is EagerTensor:
        array = data._data
        if array.dtype == np.float32 and array.ndim == 0:
            return array.tobytes()
    return None


def _eager_step(step):
    """`step` as an int when it is known now without ops (an int, a NumPy integer, an
    eager integer tensor or a variable's value), else None."""
    if step is None or isinstance(step, bool):
        return None
    if isinstance(step, (int, np.integer)):
        return int(step) if _INT64_MIN <= step <= _INT64_MAX else None
    if isinstance(step, Variable) and step.dtype == _d.int64:
        step = step.value()
    if type(step) is EagerTensor and step.dtype == _d.int64 and step._data.ndim == 0:
        return int(step._data)
    return None


def _buckets(data, bucket_count):
    """The ``[k, 3]`` float64 tensor of (left edge, right edge, count) rows of TF 2's
    histograms: `k` equal buckets from the minimum to the maximum (the last one closed);
    all data in the last bucket when every value is the same; zeros without data. A
    negative `bucket_count` counts as 0; it may be a tensor known only when run."""
    data = cast_ops.cast(array_ops.reshape(data, [-1]), _d.float64)
    size = array_ops.size(data)
    if isinstance(bucket_count, (int, np.integer)) or type(bucket_count) is EagerTensor:
        k = max(0, int(bucket_count))
        if k == 0:
            return array_ops.zeros([0, 3], _d.float64)
        nothing = math_ops.equal(size, 0)
    else:  # (in a function, a count known when it runs)
        k = math_ops.maximum(bucket_count, 0)
        nothing = math_ops.logical_or(math_ops.equal(size, 0), math_ops.equal(k, 0))

    def empty():
        return array_ops.zeros(array_ops.stack([k, 3]), _d.float64)

    def nonempty():
        low = reduction_ops.reduce_min(data)
        high = reduction_ops.reduce_max(data)
        span = high - low

        def spread():
            width = span / cast_ops.cast(k, _d.float64)
            index = cast_ops.cast(math_ops.floor((data - low) / width), _d.int32)
            index = math_ops.minimum(index, k - 1)
            counts = reduction_ops.unsorted_segment_sum(
                array_ops.ones_like(data), index, k)
            # linspace(low, high, k + 1)'s values, with the ends exactly the minimum and
            # the maximum (also when one is infinite)
            inner = low + array_ops.range(1, k, dtype=_d.float64) * width
            edges = array_ops.concat([array_ops.reshape(low, [1]), inner,
                                      array_ops.reshape(high, [1])], 0)
            return array_ops.stack([edges[:-1], edges[1:], counts], axis=1)

        def single():
            edges = array_ops.fill([k], high)
            counts = array_ops.concat([array_ops.zeros([k - 1], _d.float64),
                                       array_ops.reshape(cast_ops.cast(size, _d.float64),
                                                         [1])], 0)
            return array_ops.stack([edges, edges, counts], axis=1)

        return control_flow.cond(math_ops.equal(span, 0.0), single, spread)

    return control_flow.cond(nothing, empty, nonempty)


_HISTOGRAM_METADATA = _metadata("histograms")


@export("summary.histogram")
def histogram(name, data, step=None, buckets=None, description=None):
    """Writes a histogram of the elements of `data` (castable to float64) in `buckets`
    equal-width buckets (default 30), for TensorBoard's Histograms and Distributions
    dashboards."""
    metadata = _metadata("histograms", description) if description else _HISTOGRAM_METADATA
    with summary_scope(name, "histogram_summary") as (tag, _):
        data = cast_ops.stop_gradient(convert_to_tensor(data))
        count = 30 if buckets is None else buckets

        def tensor():  # (the bucket count is checked only when written, as in TF)
            debugging_ops.assert_scalar(count)
            debugging_ops.assert_type(count, _d.int32)
            return _buckets(data, count)

        return write(tag, tensor, step, metadata)


@export("summary.image")
def image(name, data, step=None, max_outputs=3, description=None):
    """Writes up to `max_outputs` images of `data` (``[k, h, w, c]``, c 1, 3 or 4; floats
    in [0, 1] or integers, converted to uint8 as `convert_image_dtype` saturating) as
    PNGs, for TensorBoard's Images dashboard.

    >>> import tempfile
    >>> with tf.summary.create_file_writer(tempfile.mkdtemp()).as_default(step=0):
    ...     tf.summary.image("noise", tf.random.uniform([2, 8, 8, 3]), max_outputs=1)
    <tf.Tensor: shape=(), dtype=bool, numpy=True>
    """
    metadata = _metadata("images", description)
    with summary_scope(name, "image_summary") as (tag, _):
        data = convert_to_tensor(data)

        def tensor():  # (checked only when written, as in TF)
            debugging_ops.assert_rank(data, 4)  # (of unknown rank: when it runs)
            debugging_ops.assert_non_negative(max_outputs)
            images = convert_image_dtype(data, _d.uint8, saturate=True)
            limited = images[:max_outputs]
            encoded = encode_png(limited)  # (one PNG per image, also of none)
            shape = array_ops.shape(images)
            dims = array_ops.stack([string_ops.as_string(shape[2]),
                                    string_ops.as_string(shape[1])])
            return array_ops.concat([dims, encoded], 0)

        return write(tag, tensor, step, metadata)


@export("summary.text")
def text(name, data, step=None, description=None):
    """Writes string tensor `data` (Markdown) for TensorBoard's Text dashboard.

    >>> import tempfile
    >>> with tf.summary.create_file_writer(tempfile.mkdtemp()).as_default(step=0):
    ...     tf.summary.text("notes", "learning rate **halved**")
    <tf.Tensor: shape=(), dtype=bool, numpy=True>
    """
    metadata = _metadata("text", description)
    with summary_scope(name, "text_summary") as (tag, _):
        data = convert_to_tensor(data)
        if data.dtype != _d.string:
            raise TypeError(f"tensor must be of type tf.string; got tf.{data.dtype.name}")
        return write(tag, data, step, metadata)


@export("summary.audio")
def audio(name, data, sample_rate, step=None, max_outputs=3, encoding=None,
          description=None):
    """Writes up to `max_outputs` clips of `data` (float ``[k, frames, channels]`` in
    [-1, 1]) at `sample_rate` Hz as WAV files, for TensorBoard's Audio dashboard.

    >>> import tempfile
    >>> tone = tf.reshape(tf.sin(tf.range(800.0) / 4.0), [1, 800, 1])
    >>> with tf.summary.create_file_writer(tempfile.mkdtemp()).as_default(step=0):
    ...     tf.summary.audio("tone", tone, sample_rate=8000)
    <tf.Tensor: shape=(), dtype=bool, numpy=True>
    """
    if encoding not in (None, "wav"):
        raise ValueError(f"Unknown encoding: {encoding!r}")
    content = protos.AudioPluginData(encoding=protos.AudioPluginData.WAV).SerializeToString()
    metadata = _metadata("audio", description, content)
    with summary_scope(name, "audio_summary") as (tag, _):
        data = convert_to_tensor(data)

        def tensor():  # (checked only when written, as in TF)
            debugging_ops.assert_rank(data, 3)
            debugging_ops.assert_non_negative(max_outputs)
            clips = data[:max_outputs]  # (float32 only, as EncodeWav takes)
            # (a tensor goes to EncodeWav as it is, which says if it is not int32)
            rate = sample_rate if isinstance(sample_rate, Tensor) else \
                convert_to_tensor(sample_rate, _d.int32)
            encoded = map_fn(lambda clip: encode_wav(clip, rate), clips,
                             fn_output_signature=_d.string)
            labels = array_ops.fill(array_ops.shape(encoded)[:1], "")
            return array_ops.stack([encoded, labels], axis=1)

        return write(tag, tensor, step, metadata)


# -- graphs ------------------------------------------------------------------------------------


@export("summary.graph")
def graph(graph_data):
    """Writes `graph_data` (a graph, such as a traced function's ``.graph``, or a
    ``GraphDef``) to the default writer for TensorBoard's Graphs dashboard (eagerly
    only)."""
    if not context.executing_eagerly():
        raise ValueError("graph() cannot be invoked inside a graph context.")
    writer = state.writer
    if writer is None or not getattr(writer, "_writes", True):
        return _bool(False)
    if not bool(np.asarray(should_record_summaries())):
        return _bool(False)
    if hasattr(graph_data, "as_graph_def"):  # (a graph: with its shapes, as TF writes it)
        graph_data = graph_data.as_graph_def(add_shapes=True)
    if not hasattr(graph_data, "SerializeToString") or \
            graph_data.DESCRIPTOR.full_name != "tensorflow.GraphDef":
        raise ValueError(f"Argument 'graph_data' is not tf.Graph or tf.compat.v1.GraphDef. "
                         f"Received graph_data={graph_data} of type "
                         f"{type(graph_data).__name__}.")
    import time  # noqa: PLC0415
    writer.write_event(protos.Event(wall_time=time.time(), step=0,
                                    graph_def=graph_data.SerializeToString()))
    return _bool(True)


def _collect(concrete):
    trace = state.trace
    if trace is not None and all(f is not concrete for f in trace):
        trace.append(concrete)


@export("summary.trace_on")
def trace_on(graph=True, profiler=False, profiler_outdir=None):
    """Starts collecting the graphs of the functions that run (until `trace_export` or
    `trace_off`); with `profiler`, profiles them too (see ``tf.profiler.experimental``),
    into `profiler_outdir`, and the graphs go into the run's metadata."""
    from eagerflow._src.function import concrete_function  # noqa: PLC0415
    if not context.executing_eagerly():
        _log.logger.warning("Cannot enable trace inside a tf.function.")
        return
    if state.trace is not None:
        _log.logger.warning("Trace already enabled")
        return
    profiling = False
    if profiler:
        if profiler_outdir is None:
            _log.logger.warning("No `profiler_outdir` passed to trace_on(). Profiler won't "
                                "be enabled.")
        else:
            profiler_module.start(profiler_outdir)
            profiling = True
    # (as TF, graphs are collected for `graph` without the profiler, and with a profiler
    # that runs, as part of the run's metadata; either way trace_export writes a summary)
    state.trace = []
    state.trace_graph = bool(graph) and not profiler
    state.trace_profiler = bool(profiler)
    if (state.trace_graph or profiling) and _collect not in concrete_function.call_listeners:
        concrete_function.call_listeners.append(_collect)


@export("summary.trace_off")
def trace_off():
    """Stops collecting graphs and drops those collected."""
    from eagerflow._src.function import concrete_function  # noqa: PLC0415
    state.trace = None
    if _collect in concrete_function.call_listeners:
        concrete_function.call_listeners.remove(_collect)
    if state.trace_profiler:  # (as TF, after trace_export stopped it too)
        state.trace_profiler = False
        try:
            profiler_module.stop()
        except errors.OpError as e:
            _log.logger.warning("Error while stopping profiler: %s", e.message)


def _run_graph(concrete):
    """The graph of a traced function's run as TF's run metadata holds it: the body of its
    FunctionDef (``_Arg`` and ``_Retval`` nodes for its arguments and results)."""
    from eagerflow._src.graph import graph_def  # noqa: PLC0415 (protobuf when asked)
    library = graph_def.Library()
    fdef = graph_def.function_def(concrete, "__run", library)
    return graph_def.body_graph_def(fdef, library)


@export("summary.trace_export")
def trace_export(name, step=None, profiler_outdir=None):
    """Writes the graphs collected since `trace_on` as one summary `name` (TensorBoard's
    run-metadata graphs) at `step`, then stops collecting.

    >>> import tempfile
    >>> double = tf.function(lambda x: x * 2.0)
    >>> tf.summary.trace_on(graph=True)
    >>> _ = double(tf.constant(1.0))
    >>> with tf.summary.create_file_writer(tempfile.mkdtemp()).as_default():
    ...     tf.summary.trace_export("double", step=0)
    """
    if step is not None:
        step = _checked_step(step)
    if not context.executing_eagerly():
        _log.logger.warning("Cannot export trace inside a tf.function.")
        return None
    if state.trace is None:
        raise ValueError("Must enable trace before export through tf.summary.trace_on.")
    run = protos.RunMetadata()
    for concrete in state.trace:
        graph_def = _run_graph(concrete)
        entry = run.function_graphs.add()
        entry.partition_graphs.add().MergeFrom(graph_def)
        entry.pre_optimization_graph.MergeFrom(graph_def)
    # the graphs alone (TensorBoard's graph of the run), or, with the profiler or without
    # graphs, the run's metadata
    plugin = "graph_run_metadata_graph" if state.trace_graph else "graph_run_metadata"
    metadata = protos.SummaryMetadata(plugin_data=protos.SummaryMetadata.PluginData(
        plugin_name=plugin, content=b"1"))
    with summary_scope(name, plugin + "_summary") as (tag, _):
        write(tag, constant(run.SerializeToString()), step, metadata)
    # (as TF, a failed write leaves the trace on)
    if state.trace_profiler:
        if profiler_outdir:
            _log.logger.warning("Ignoring `profiler_outdir` passed to trace_export(). "
                                "Please pass it to trace_on() instead.")
        profiler_module.stop()
    trace_off()

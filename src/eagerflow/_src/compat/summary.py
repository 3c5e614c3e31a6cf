"""TF 1's summaries (``tf.compat.v1.summary``): ops whose value is a serialized ``Summary``
protobuf, run by a `Session` and written by a `FileWriter`.

`scalar` and `histogram` build ``ScalarSummary`` and ``HistogramSummary`` ops
(the histogram in TF's exponential buckets, empty runs of them collapsed),
each joining the ``summaries`` collection; `merge` and `merge_all` join
summaries into one (``MergeSummary``, which refuses a tag given twice).

>>> g = tf.compat.v1.Graph()
>>> with g.as_default():
...     loss = tf.compat.v1.summary.scalar("loss", tf.constant(0.5))
...     merged = tf.compat.v1.summary.merge_all()
>>> with tf.compat.v1.Session(graph=g) as sess:
...     tf.compat.v1.Summary.FromString(sess.run(merged)).value[0].simple_value
0.5
"""
import contextlib
import re
import sys
import time
import warnings

import numpy as np

from eagerflow._src.backend import log as _log
from eagerflow._src.backend.api_export import export
from eagerflow._src.compat import graph_mode
from eagerflow._src.compat.gradient_descent import get_global_step
from eagerflow._src.compat.graph_mode import GraphKeys, v1_graph
from eagerflow._src.core import context, errors
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core.convert import constant, convert_to_tensor
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.core.errors import shape_text
from eagerflow._src.core.node_forms import NodeForm, tf_nodes, tf_args
from eagerflow._src.core.registry import PER_ELEMENT, batching_rules, register
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.ops import array_ops
from eagerflow._src.summary import protos
from eagerflow._src.summary import summary_ops as v2
from eagerflow._src.summary.writer import _OPEN, _EventFile, _path, state as v2_state
from eagerflow._src.io.tf_record import frame

_NO_GRAD = "summary"
# (in the order of TF's messages)
_REAL = (_d.float32, _d.float64, _d.int32, _d.uint8, _d.int16, _d.int8, _d.int64, _d.bfloat16,
         _d.uint16, _d.float16, _d.uint32, _d.uint64)


def _invalid(message):
    return errors.InvalidArgumentError(None, None, message)


def _text(value):
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


def _bytes(summary):
    return np.array(summary.SerializeToString(), dtype=object)


# -- ScalarSummary --------------------------------------------------------------------

def _scalar_summary(xp, tags, values):
    tags, values = np.asarray(tags, object), np.asarray(values)
    if tags.shape != values.shape:
        single = f" (tag '{_text(tags[()])}')" if tags.ndim == 0 else ""
        raise _invalid(f"tags and values are not the same shape: {shape_text(tags.shape)} != "
                       f"{shape_text(values.shape)}{single}")
    summary = protos.Summary()
    for tag, value in zip(tags.reshape(-1), values.reshape(-1)):
        summary.value.add(tag=_text(tag), simple_value=float(value))
    return _bytes(summary)


def _scalar_rule(tags, values):
    # (as TF's: tags and values of different shapes fail only when it runs)
    return TensorShape([]), _d.string


_SCALAR = register("ScalarSummary", _scalar_summary, _scalar_rule, tied=(1,), dtypes=_REAL,
                   input_names=("values",), not_differentiable=_NO_GRAD)
tf_nodes[_SCALAR] = NodeForm(types={"T": 1})
tf_args[_SCALAR] = ("tags", "values")


# -- HistogramSummary: TF's exponential buckets ----------------------------------------

def _default_limits():
    """Bucket limits growing by 10% from 1e-12 to 1e20 on either side of 0, and the
    largest double at both ends (the limits of TF's histograms)."""
    positive, v = [], 1.0e-12
    while v < 1.0e20:
        positive.append(v)
        v *= 1.1
    positive.append(sys.float_info.max)
    return [-v for v in reversed(positive)] + [0.0] + positive


_LIMITS = _default_limits()


def histogram_proto(values):
    """The ``HistogramProto`` of `values` (doubles) in TF's default buckets: each bucket
    counts the values below its limit and at or above the previous one; runs of empty
    buckets are given as one."""
    limits = _LIMITS
    values = np.asarray(values, np.float64).reshape(-1)
    proto = protos.HistogramProto()
    if values.size:
        # (summed in order, as TF adds the values one by one)
        proto.min, proto.max = float(values.min()), float(values.max())
        proto.num = float(values.size)
        proto.sum = float(np.cumsum(values)[-1])
        proto.sum_squares = float(np.cumsum(values * values)[-1])
        index = np.minimum(np.searchsorted(limits, values, side="right"), len(limits) - 1)
        counts = np.bincount(index, minlength=len(limits)).astype(np.float64)
        nonzero = np.flatnonzero(counts)
        ends, buckets, i = [], [], 0
        for j in nonzero:
            if j > i:  # empty buckets i..j-1, collapsed into the last of them
                ends.append(limits[j - 1])
                buckets.append(0.0)
            ends.append(limits[j])
            buckets.append(float(counts[j]))
            i = j + 1
        if i < len(limits):
            ends.append(limits[-1])
            buckets.append(0.0)
        proto.bucket_limit.extend(ends)
        proto.bucket.extend(buckets)
    else:
        proto.min, proto.max = limits[-1], -limits[-1]
        proto.bucket_limit.append(limits[-1])
        proto.bucket.append(0.0)
    return proto


def _histogram_summary(xp, tag, values, *, node="HistogramSummary"):
    values = np.asarray(values)
    tag = _text(np.asarray(tag, object)[()])
    doubles = values.astype(np.float64).reshape(-1)
    if values.dtype.kind == "f" and not np.isfinite(doubles).all():
        # (as TF's: the first value not finite says which, and the node is named)
        first = doubles[np.flatnonzero(~np.isfinite(doubles))[0]]
        kind = "Nan in summary histogram" if np.isnan(first) else "Infinity in Histogram"
        raise _invalid(f"{kind} for: {node}")
    summary = protos.Summary()
    summary.value.add(tag=tag, histo=histogram_proto(doubles))
    return _bytes(summary)


def _histogram_rule(tag, values, **_):
    if tag.shape.rank not in (None, 0):
        raise ValueError(f"Shape must be rank 0 but is rank {tag.shape.rank}")
    return TensorShape([]), _d.string


_HISTOGRAM = register("HistogramSummary", _histogram_summary, _histogram_rule, tied=(1,),
                      dtypes=_REAL, input_names=("values",), not_differentiable=_NO_GRAD)
tf_nodes[_HISTOGRAM] = NodeForm(types={"T": 1}, local={"node": "HistogramSummary"})
tf_args[_HISTOGRAM] = ("tag", "values")


# -- MergeSummary -----------------------------------------------------------------------

def _merge_summary(xp, *inputs):
    merged, seen = protos.Summary(), set()
    for serialized in inputs:
        for item in np.asarray(serialized, object).reshape(-1):
            part = protos.Summary()
            try:
                part.ParseFromString(bytes(item))
            except Exception:  # noqa: BLE001 (protobuf's DecodeError and its kin)
                raise _invalid("Could not parse one of the summary inputs") from None
            for value in part.value:
                if value.tag in seen:
                    raise _invalid(f"Duplicate tag {value.tag} found in summary inputs ")
                seen.add(value.tag)
                merged.value.add().CopyFrom(value)
    return _bytes(merged)


_MERGE = register("MergeSummary", _merge_summary, lambda *_: (TensorShape([]), _d.string),
                  tied="all", dtypes=(_d.string,), not_differentiable=_NO_GRAD)
tf_nodes[_MERGE] = NodeForm(number="N")
tf_args[_MERGE] = ("*inputs",)


# -- TensorSummaryV2 ---------------------------------------------------------------------

def _tensor_summary(xp, tag, tensor, serialized_summary_metadata):
    from eagerflow._src.summary import summary_ops  # noqa: PLC0415
    field = summary_ops._field
    tag = np.asarray(tag, object)[()]
    metadata = np.asarray(serialized_summary_metadata, object)[()]
    value = (field(1, tag if isinstance(tag, bytes) else str(tag).encode())
             + field(8, summary_ops._tensor_bytes(np.asarray(tensor)))
             + field(9, bytes(metadata)))  # (written even when empty, as TF does)
    return np.array(field(1, value), dtype=object)


_TENSOR = register("TensorSummaryV2", _tensor_summary,
                   lambda *_, **__: (TensorShape([]), _d.string), tied=(1,),
                   not_differentiable=_NO_GRAD)
tf_nodes[_TENSOR] = NodeForm(types={"T": 1})
tf_args[_TENSOR] = ("tag", "tensor", "serialized_summary_metadata")

# -- ImageSummary -----------------------------------------------------------------------

_BAD_COLOR = np.array([255, 0, 0, 255], np.uint8)


def _as_uint8(image, bad_color):
    """A float image ``[h, w, depth]`` in uint8 as TF's summary makes it: scaled by 255 over
    its largest value, or (with negative values) by 127 over its largest magnitude around
    128, ignoring and painting `bad_color` the pixels holding a non-finite value."""
    finite = np.isfinite(image).all(axis=-1)
    values = image[finite]
    low = np.float32(values.min()) if values.size else np.float32(np.inf)
    high = np.float32(values.max()) if values.size else np.float32(-np.inf)
    if low < 0:
        largest = max(abs(low), abs(high))
        scale, offset = (0.0 if largest < 1e-6 else 127.0 / largest), 128.0
    else:
        scale, offset = (0.0 if high < 1e-6 else 255.0 / high), 0.0
    dtype = image.dtype.type
    scaled = image * dtype(scale) + dtype(offset)
    out = np.where(finite[..., None], np.nan_to_num(scaled), 0).astype(np.uint8)
    out[~finite] = bad_color[:image.shape[-1]]
    return out


def _image_summary(xp, tag, tensor, max_images=3, bad_color=None):
    from eagerflow._src.ops import image_codecs  # noqa: PLC0415
    images = np.asarray(tensor)
    if images.ndim != 4 or images.shape[-1] not in (1, 3, 4):
        raise _invalid(f"Tensor must be 4-D with last dim 1, 3, or 4, not "
                       f"{shape_text(images.shape)}")
    tag = _text(np.asarray(tag, object)[()])
    bad = _BAD_COLOR if bad_color is None else np.asarray(bad_color, np.uint8).reshape(-1)
    summary = protos.Summary()
    count = min(images.shape[0], max_images)
    for i in range(count):
        image = images[i] if images.dtype == np.uint8 else _as_uint8(images[i], bad)
        height, width, depth = image.shape
        encoded = image_codecs._encode_png(np, image)[()]
        summary.value.add(tag=f"{tag}/image" if max_images == 1 else f"{tag}/image/{i}",
                          image=protos.Summary.Image(height=height, width=width,
                                                     colorspace=depth,
                                                     encoded_image_string=encoded))
    return _bytes(summary)


_IMAGE = register("ImageSummary", _image_summary, lambda *_, **__: (TensorShape([]), _d.string),
                  tied=(1,), dtypes=(_d.uint8, _d.float16, _d.float32, _d.float64),
                  not_differentiable=_NO_GRAD)
tf_nodes[_IMAGE] = NodeForm(types={"T": 1})
tf_args[_IMAGE] = ("tag", "tensor")
# -- AudioSummaryV2 -----------------------------------------------------------------------

def _audio_summary(xp, tag, tensor, sample_rate, max_outputs=3):
    from eagerflow._src.ops import audio_ops  # noqa: PLC0415
    clips = np.asarray(tensor, np.float32)
    rate = np.asarray(sample_rate)
    if rate.size != 1:
        raise _invalid("sample_rate must be rank-0 or contain a single value")
    if clips.ndim not in (2, 3):
        raise _invalid(f"Tensor must be 3-D or 2-D, got: {shape_text(clips.shape)}")
    if clips.ndim == 2:
        clips = clips[..., None]
    tag = _text(np.asarray(tag, object)[()])
    rate = float(np.float32(rate.reshape(())))
    summary = protos.Summary()
    for i in range(min(clips.shape[0], max_outputs)):
        frames, channels = clips.shape[1:]
        encoded = audio_ops._encode_wav(np, clips[i], np.array(int(rate), np.int32))[()]
        summary.value.add(tag=f"{tag}/audio" if max_outputs == 1 else f"{tag}/audio/{i}",
                          audio=protos.Summary.Audio(
                              sample_rate=rate, num_channels=channels, length_frames=frames,
                              encoded_audio_string=encoded, content_type="audio/wav"))
    return _bytes(summary)


_AUDIO = register("AudioSummaryV2", _audio_summary,
                  lambda *_, **__: (TensorShape([]), _d.string),
                  tied=(1,), dtypes=(_d.float32,), not_differentiable=_NO_GRAD)
tf_nodes[_AUDIO] = NodeForm(types={})
tf_args[_AUDIO] = ("tag", "tensor", "sample_rate")


for _op in (_SCALAR, _HISTOGRAM, _MERGE, _TENSOR, _IMAGE, _AUDIO):
    tf_nodes.get(_op).outputs = ("summary",)

batching_rules.assign(PER_ELEMENT, _SCALAR, _HISTOGRAM, _MERGE, _TENSOR, _IMAGE, _AUDIO)


# -- the functions ------------------------------------------------------------------------

_INVALID_TAG = re.compile(r"[^-/\w\.]")


def _clean_tag(name):
    """`name` with the characters TensorBoard's tags cannot hold made ``_`` (as TF does)."""
    if name is None:
        return None
    cleaned = _INVALID_TAG.sub("_", name).lstrip("/")
    if cleaned != name:
        _log.logger.info(
            "Summary name %s is illegal; using %s instead.", name, cleaned)
    return cleaned


class _SummaryScope:
    """TF 1's summary scope: a name scope ``[family/]name`` and the tag it gives."""

    def __init__(self, name, family, values):
        self._name, self._family = _clean_tag(name), _clean_tag(family)
        base = self._name if self._family is None else f"{self._family}/{self._name}"
        self._scope = graph_mode.name_scope(base, None, values)

    def __enter__(self):
        scope = self._scope.__enter__()
        tag = scope.rstrip("/") if self._family is None else \
            f"{self._family}/{scope.rstrip('/')}"
        return tag, scope

    def __exit__(self, *exc):
        return self._scope.__exit__(*exc)


def _run(op, inputs, attrs, scope):
    """The summary op `op` named by `scope`; eagerly, as TF's, its errors end without a
    name (TF runs it on its wrapper's slower path)."""
    try:
        return dispatch(op, inputs, attrs, name=scope or None)
    except errors.OpError as e:
        if not context.executing_eagerly():
            raise
        raise errors.without_name(e) from None


def _collect(value, collections, default):
    graph = v1_graph()
    if graph is None:
        return
    for key in (default if collections is None else collections):
        graph.add_to_collection(key, value)


# -- TF 2's writer for TF 1's summaries -----------------------------------------------------

_NO_WRITER = ("Cannot activate TF2 compatibility support for TF1 summary ops: default "
              "summary writer not found.")
_NO_STEP = ("Cannot activate TF2 compatibility support for TF1 summary ops: global step not "
            "set. To set step for summary writer, use "
            "`tf.summary.SummaryWriter.as_default(step=_)`, "
            "`tf.summary.experimental.set_step()` or "
            "`tf.compat.v1.train.create_global_step()`.")


def _v2_step():
    """The step of TF 2's summaries (`set_step`'s), else TF 1's global step, else None."""
    step = v2_state.step
    return get_global_step() if step is None else step


def _to_v2_writer():
    """Whether a TF 1 summary goes to TF 2's default writer, as in TF: outside TF 1's graph
    mode (eagerly or in a `function`), with a default writer and a step (else it is built
    as TF 1's summary op, with a warning when only those two are missing)."""
    if not graph_mode.executing_eagerly_outside_functions():
        return False
    if v2_state.writer is None:
        warnings.warn(_NO_WRITER)
        return False
    if _v2_step() is None:
        warnings.warn(_NO_STEP)
        return False
    return True


@contextlib.contextmanager
def _v2_tag(name, family):
    """The tag of TF 1's summary `name` (under `family`), with the name scope reset so
    that TF 2's summary takes it as it is."""
    with _SummaryScope(name, family, None) as (tag, _), context.name_scope_push(""):
        yield tag


def _written(summary, name, family, data, **kwargs):
    """Writes `data` with TF 2's `summary` under TF 1's tag of `name`; TF 1's result then:
    an empty string (which `merge` accepts)."""
    with _v2_tag(name, family) as tag:
        summary(tag, data, step=_v2_step(), **kwargs)
    return constant(b"")


@export("compat.v1.summary.scalar")
def scalar(name, tensor, collections=None, family=None):
    """A ``Summary`` of the single value of `tensor` (a scalar), tagged by the name scope
    of `name` (under `family`); it joins `collections` (``summaries`` by default).

    Outside TF 1's graph mode, with a default ``tf.summary`` writer and step, it writes
    ``tf.summary.scalar`` instead and returns an empty string."""
    if _to_v2_writer():
        return _written(v2.scalar, name, family, tensor)
    with _SummaryScope(name, family, [tensor]) as (tag, scope):
        value = _run(_SCALAR, (constant(tag, name="tags"), convert_to_tensor(tensor)), {},
                     scope)
        _collect(value, collections, [GraphKeys.SUMMARIES])
    return value


@export("compat.v1.summary.histogram")
def histogram(name, values, collections=None, family=None):
    """A ``Summary`` of the histogram of `values` (TF's buckets); it joins `collections`
    (``summaries`` by default). Outside TF 1's graph mode, as `scalar`."""
    if _to_v2_writer():
        return _written(v2.histogram, name, family, values)
    with _SummaryScope(name, family, [values]) as (tag, scope):
        value = _run(_HISTOGRAM, (constant(tag, name="tag"), convert_to_tensor(values)),
                     {} if context.executing_eagerly() else {"node": scope.rstrip("/")}, scope)
        _collect(value, collections, [GraphKeys.SUMMARIES])
    return value


@export("compat.v1.summary.tensor_summary")
def tensor_summary(name, tensor, summary_description=None, collections=None,
                   summary_metadata=None, family=None, display_name=None):
    """A ``Summary`` holding `tensor` itself (any dtype and shape), with `summary_metadata`
    (a ``SummaryMetadata``; `summary_description` and `display_name` fill it)."""
    metadata = protos.SummaryMetadata()
    if summary_metadata is not None:
        # (by its bytes: TensorBoard's plugins pass their own protobuf class of it)
        metadata.ParseFromString(summary_metadata.SerializeToString())
    if summary_description is not None:
        metadata.summary_description = summary_description
    if display_name is not None:
        metadata.display_name = display_name
    with _SummaryScope(name, family, [tensor]) as (tag, scope):
        value = _run(_TENSOR, (constant(tag, name="tag"), convert_to_tensor(tensor),
                               constant(metadata.SerializeToString(),
                                        name="serialized_summary_metadata")), {}, scope)
        _collect(value, collections, [GraphKeys.SUMMARIES])
    return value


@export("compat.v1.summary.image")
def image(name, tensor, max_outputs=3, collections=None, family=None):
    """A ``Summary`` of up to `max_outputs` images of `tensor` (``[batch, height, width,
    channels]``, 1, 3 or 4 channels) as PNG: uint8 as they are, floats scaled into uint8
    per image (non-finite pixels red). Outside TF 1's graph mode, as `scalar`."""
    if _to_v2_writer():
        return _written(v2.image, name, family, tensor, max_outputs=max_outputs)
    with _SummaryScope(name, family, [tensor]) as (tag, scope):
        value = _run(_IMAGE, (constant(tag, name="tag"), convert_to_tensor(tensor)),
                     {"max_images": max_outputs}, scope)
        _collect(value, collections, [GraphKeys.SUMMARIES])
    return value


@export("compat.v1.summary.audio")
def audio(name, tensor, sample_rate, max_outputs=3, collections=None, family=None):
    """A ``Summary`` of up to `max_outputs` clips of `tensor` (float32 ``[batch, frames,
    channels]`` or ``[batch, frames]`` in [-1, 1]) at `sample_rate` Hz, as WAV files.

    >>> g = tf.compat.v1.Graph()
    >>> with g.as_default():
    ...     tone = tf.compat.v1.summary.audio("tone", tf.zeros([1, 80, 1]), 8000)
    >>> with tf.compat.v1.Session(graph=g) as sess:
    ...     value = tf.compat.v1.Summary.FromString(sess.run(tone)).value[0]
    >>> value.tag, value.audio.length_frames, value.audio.content_type
    ('tone/audio/0', 80, 'audio/wav')

    Outside TF 1's graph mode, as `scalar`.
    """
    if _to_v2_writer():
        tensor = convert_to_tensor(tensor)
        if tensor.shape.rank == 2:  # (TF 2's clips have channels)
            tensor = array_ops.expand_dims(tensor, 2)
        return _written(v2.audio, name, family, tensor, sample_rate=sample_rate,
                        max_outputs=max_outputs)
    with _SummaryScope(name, family, [tensor]) as (tag, scope):
        rate = convert_to_tensor(sample_rate, _d.float32, name="sample_rate")
        value = _run(_AUDIO, (constant(tag, name="tag"), convert_to_tensor(tensor), rate),
                     {"max_outputs": max_outputs}, scope)
        _collect(value, collections, [GraphKeys.SUMMARIES])
    return value


@export("compat.v1.summary.text")
def text(name, tensor, collections=None):
    """A ``Summary`` of the string `tensor` for TensorBoard's text plugin. Outside TF 1's
    graph mode, as `scalar` (tagged `name` in the current name scope)."""
    tensor = convert_to_tensor(tensor)
    if tensor.dtype != _d.string:
        raise ValueError(f"Expected tensor {getattr(tensor, 'name', tensor)} to have dtype "
                         f"string, got {tensor.dtype}")
    if _to_v2_writer():
        v2.text(name, tensor, step=_v2_step())
        return constant(b"")
    metadata = protos.SummaryMetadata(
        plugin_data=protos.SummaryMetadata.PluginData(plugin_name="text"))
    return tensor_summary(name, tensor, summary_metadata=metadata, collections=collections)


@export("compat.v1.summary.get_summary_description")
def get_summary_description(node_def):
    """The ``SummaryDescription`` of the ``TensorSummary`` node `node_def` (a ``NodeDef``):
    its ``description`` attr, JSON, parsed.

    >>> node = tf.compat.v1.NodeDef(op="TensorSummary")
    >>> node.attr["description"].s = b'{"typeHint": "scalar"}'
    >>> tf.compat.v1.summary.get_summary_description(node).type_hint
    'scalar'
    """
    from google.protobuf import json_format  # noqa: PLC0415 (protobuf when asked)
    if node_def.op != "TensorSummary":
        raise ValueError(f"Can't get_summary_description on {node_def.op}")
    description = protos.SummaryDescription()
    json_format.Parse(_text(node_def.attr["description"].s), description)
    return description


@export("compat.v1.summary.all_v2_summary_ops")
def all_v2_summary_ops():
    """The TF 2 summary ops of the default graph (None eagerly): ``tf.summary`` calls made
    while a graph is built run when the session runs what depends on them."""
    graph = v1_graph()
    return None if graph is None else graph.get_collection(v2.SUMMARY_COLLECTION)


@export("compat.v1.summary.initialize")
def initialize(graph=None, session=None):
    """Sets up the default TF 2 summary writer for `session` (by default the default
    session), writing `graph` (a ``Graph`` or ``GraphDef``), if given, at step 0. Eagerly
    it does nothing; the writer opens its file when made."""
    if context.executing_eagerly():
        return
    writer = v2_state.writer
    if writer is None:
        raise RuntimeError("No default tf.contrib.summary.SummaryWriter found")
    if session is None:
        from eagerflow._src.compat.session import get_default_session  # noqa: PLC0415
        if get_default_session() is None:
            raise ValueError("Argument `session must be passed if no default session exists")
    if graph is not None and getattr(writer, "_writes", True):
        if isinstance(graph, graph_mode.Graph):
            graph = graph.as_graph_def(add_shapes=True)
        writer.write_event(protos.Event(wall_time=time.time(), step=0,
                                        graph_def=graph.SerializeToString()))


def _refuse_eagerly():
    if context.executing_eagerly():
        raise RuntimeError("Merging tf.summary.* ops is not compatible with eager execution. "
                           "Use tf.contrib.summary instead.")


@export("compat.v1.summary.merge")
def merge(inputs, collections=None, name=None):
    """One ``Summary`` holding the values of the summaries `inputs` (their tags must
    differ); it joins `collections`."""
    _refuse_eagerly()
    if not inputs:
        raise ValueError("List argument 'inputs' to 'MergeSummary' Op with length 0 shorter "
                         "than minimum length 1.")
    with graph_mode.name_scope(name, "Merge", inputs):
        value = dispatch(_MERGE, tuple(convert_to_tensor(t) for t in inputs))
        _collect(value, collections, [])
    return value


@export("compat.v1.summary.merge_all")
def merge_all(key=GraphKeys.SUMMARIES, scope=None, name=None):
    """`merge` of the summaries of collection `key` (those under name scope `scope`), or
    None when there are none."""
    _refuse_eagerly()
    summaries = graph_mode.get_collection(key, scope=scope)
    return merge(summaries, name=name) if summaries else None


# -- FileWriter -------------------------------------------------------------------------

@export("compat.v1.summary.FileWriter")
class FileWriter:
    """Writes ``Event`` protos (summaries run by a `Session`, graphs, session logs) to an
    event file in `logdir`, for TensorBoard (``tf.compat.v1.summary.FileWriter``).

    Events wait in memory until `max_queue` of them do, every `flush_secs`, on `flush`
    and on `close`. Only in graph mode, as in TF.
    """

    def __init__(self, logdir, graph=None, max_queue=10, flush_secs=120, graph_def=None,
                 filename_suffix=None, session=None):
        del session
        if context.executing_eagerly():
            raise RuntimeError("v1.summary.FileWriter is not compatible with eager execution. "
                               "Use `tf.summary.create_file_writer`,or a `with "
                               "v1.Graph().as_default():` context")
        self._logdir = _path(logdir)
        # (named events.out.tfevents.<seconds>.<host><suffix>, as TF 1 names them)
        self._options = (max_queue, flush_secs * 1000, filename_suffix or "", False)
        self._open()
        self._seen_tags = set()
        self._run_tags = set()
        if graph is not None or graph_def is not None:
            self.add_graph(graph=graph, graph_def=graph_def)
            # and, only here, as TF's, the meta graph of it (TensorBoard's graph of the run)
            if isinstance(graph, graph_mode.Graph):
                graph = graph.as_graph_def(add_shapes=True)
            graph_def = graph_def or graph
            if not _is_message(graph_def, "tensorflow.GraphDef"):  # (a Graph as graph_def)
                raise TypeError(f"graph_def must be of type GraphDef. Received type: "
                                f"{type(graph_def)}.")
            self.add_meta_graph(_meta_graph(graph_def))

    def get_logdir(self):
        return self._logdir

    def _closed(self):
        """Whether the writer is closed (then, as TF's, it warns that nothing happens)."""
        if self._file is None:
            warnings.warn("Attempting to use a closed FileWriter. The operation will be a "
                          "noop unless the FileWriter is explicitly reopened.")
        return self._file is None

    def add_event(self, event):
        """Writes `event` (an ``Event``) as it is (nothing once closed, with TF's warning)."""
        if not self._closed():
            self._file.add(frame([event.SerializeToString()]))

    def _add(self, event, step):
        event.wall_time = time.time()
        if step is not None:
            event.step = int(step)
        self.add_event(event)

    def add_summary(self, summary, global_step=None):
        """Writes `summary` (a ``Summary`` or its serialized bytes, as `Session.run` gives a
        summary op's value) at step `global_step`. A tag's plugin metadata is written with
        its first value only (none for a tag first written without)."""
        if not isinstance(summary, (bytes, np.bytes_)):
            # (a copy, by its bytes: TensorBoard's `pb` functions give their own protobuf
            # class of it)
            summary = summary.SerializeToString()
        summary = protos.Summary.FromString(bytes(summary))
        for value in summary.value:
            if value.tag in self._seen_tags:
                value.ClearField("metadata")
            else:
                self._seen_tags.add(value.tag)
        self._add(protos.Event(summary=summary), global_step)

    def add_graph(self, graph, global_step=None, graph_def=None):
        """Writes `graph`'s ``GraphDef`` (or `graph_def`, TF 1's older argument)."""
        if graph is not None and graph_def is not None:
            raise ValueError("Please pass only graph, or graph_def (deprecated), but not both.")
        given = graph if graph is not None else graph_def
        if isinstance(given, graph_mode.Graph):
            if graph is None:
                _log.logger.warning("When passing a `Graph` object, please use the `graph` "
                                    "named argument instead of `graph_def`.")
            given = given.as_graph_def(add_shapes=True)
        elif _is_message(given, "tensorflow.GraphDef"):
            _log.logger.warning("Passing a `GraphDef` to the SummaryWriter is deprecated. "
                                "Pass a `Graph` object instead, such as `sess.graph`.")
        else:
            raise TypeError("The passed graph must be an instance of `Graph` or the "
                            "deprecated `GraphDef`")
        self._add(protos.Event(graph_def=given.SerializeToString()), global_step)

    def add_meta_graph(self, meta_graph_def, global_step=None):
        """Writes `meta_graph_def` (a ``MetaGraphDef``, as `export_meta_graph` gives)."""
        if not _is_message(meta_graph_def, "tensorflow.MetaGraphDef"):
            raise TypeError(f"meta_graph_def must be type MetaGraphDef, saw type: "
                            f"{type(meta_graph_def)}")
        self._add(protos.Event(meta_graph_def=meta_graph_def.SerializeToString()), global_step)

    def add_session_log(self, session_log, global_step=None):
        self._add(protos.Event(session_log=session_log), global_step)

    def add_run_metadata(self, run_metadata, tag, global_step=None):
        """Writes `run_metadata` (``RunMetadata``) under `tag` (once per tag)."""
        if tag in self._run_tags:
            raise ValueError("The provided tag was already used for this event type")
        self._run_tags.add(tag)
        tagged = protos.TaggedRunMetadata(tag=tag,
                                          run_metadata=run_metadata.SerializeToString())
        self._add(protos.Event(tagged_run_metadata=tagged), global_step)

    def flush(self):
        """Writes the events waiting in memory to the file."""
        if not self._closed():
            self._file.flush()

    def close(self):
        """Flushes and closes the file; `reopen` starts a new one."""
        if self._file is not None:
            self._file.close()
            self._file = None

    def reopen(self):
        """After `close`, writes to a new event file in the same directory."""
        if self._file is None:
            self._open()

    def _open(self):
        self._file = _EventFile(self._logdir, *self._options)
        _OPEN.add(self)  # (its events reach the file at exit, as TF's, also without close)

    def __del__(self):  # (a writer no one holds: its events reach the file)
        file = getattr(self, "_file", None)
        if file is not None:
            file.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _is_message(value, full_name):
    """Whether `value` is a protobuf message of type `full_name`."""
    descriptor = getattr(value, "DESCRIPTOR", None)
    return getattr(descriptor, "full_name", None) == full_name


def _meta_graph(graph_def):
    """A ``MetaGraphDef`` holding `graph_def` (what TensorBoard reads of it)."""
    from eagerflow._src.core import versions  # noqa: PLC0415
    from eagerflow._src.core.protos import saved_model as pb  # noqa: PLC0415
    meta = pb.MetaGraphDef()
    meta.graph_def.ParseFromString(graph_def.SerializeToString())
    meta.meta_info_def.tensorflow_version = versions.VERSION
    meta.meta_info_def.tensorflow_git_version = versions.GIT_VERSION
    return meta


@export("compat.v1.summary.FileWriterCache")
class FileWriterCache:
    """One `FileWriter` per log directory, shared."""

    _cache = {}

    @staticmethod
    def get(logdir):
        writer = FileWriterCache._cache.get(logdir)
        if writer is None:
            writer = FileWriterCache._cache[logdir] = FileWriter(
                logdir, graph=graph_mode.default_v1_graph())
        return writer

    @staticmethod
    def clear():
        for writer in FileWriterCache._cache.values():
            writer.close()
        FileWriterCache._cache.clear()


# The messages, also under this namespace.
Summary, Event, SessionLog = protos.Summary, protos.Event, protos.SessionLog
SummaryDescription, TaggedRunMetadata = protos.SummaryDescription, protos.TaggedRunMetadata
for _name in ("Summary", "Event", "SessionLog", "SummaryDescription", "TaggedRunMetadata"):
    export(f"compat.v1.summary.{_name}").export_constant(__name__, _name)
del _name

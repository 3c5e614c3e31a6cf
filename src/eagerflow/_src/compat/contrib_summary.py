"""``tf.contrib.summary``, TF 1.x's summaries for eager execution, kept as a thin deprecated
layer over ``tf.summary``: the first use of each name logs one note naming what replaces it.

Scalars and histograms are written as TF 1.x wrote them (a ``Summary`` value with
``simple_value`` or ``histo``), at `step` or else the global step
(`tf.compat.v1.train.get_or_create_global_step`), when a default writer is set and
the recording condition holds (`always_record_summaries`,
`record_summaries_every_n_global_steps`).

>>> import tempfile
>>> import eagerflow.contrib.summary as summary
>>> writer = summary.create_file_writer(tempfile.mkdtemp())
>>> with writer.as_default(), summary.always_record_summaries():
...     summary.scalar("loss", 0.5, step=1)
<tf.Tensor: shape=(), dtype=bool, numpy=True>
"""
import os

from eagerflow._src.backend import log as _log
from eagerflow._src.backend.api_export import export
from eagerflow._src.compat import summary as v1_summary
from eagerflow._src.core import context
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.ops import math_ops
from eagerflow._src.summary import summary_ops, writer as _writer

_noted = set()


def _deprecated(name, replacement):
    """Logs, once per process, that ``tf.contrib.summary.<name>`` gives way to `replacement`."""
    if name not in _noted:
        _noted.add(name)
        _log.logger.warning(
            "tf.contrib.summary.%s is deprecated and removed in TF 2. "
            "Instructions for updating: use %s instead.", name, replacement)


def _step(step):
    if step is not None:
        return step
    from eagerflow._src.compat import gradient_descent  # noqa: PLC0415
    return gradient_descent.get_or_create_global_step()


SummaryWriter = _writer.SummaryWriter
export("contrib.summary.SummaryWriter").export_constant(__name__, "SummaryWriter")


@export("contrib.summary.create_file_writer")
def create_file_writer(logdir, max_queue=None, flush_millis=None, filename_suffix=None,
                       name=None):
    """A writer of event files in `logdir` (``tf.summary.create_file_writer``); a None
    `logdir` gives one that writes nothing."""
    _deprecated("create_file_writer", "tf.summary.create_file_writer")
    if logdir is None:
        return _writer.create_noop_writer()
    return _writer.create_file_writer(logdir, max_queue, flush_millis, filename_suffix, name)


@export("contrib.summary.create_summary_file_writer")
def create_summary_file_writer(*args, **kwargs):
    """`create_file_writer` under its earlier name."""
    return create_file_writer(*args, **kwargs)


@export("contrib.summary.always_record_summaries")
def always_record_summaries():
    """A context manager in which summaries are always written."""
    _deprecated("always_record_summaries", "tf.summary.record_if(True)")
    return _writer.record_if(True)


@export("contrib.summary.never_record_summaries")
def never_record_summaries():
    """A context manager in which no summary is written."""
    _deprecated("never_record_summaries", "tf.summary.record_if(False)")
    return _writer.record_if(False)


@export("contrib.summary.record_summaries_every_n_global_steps")
def record_summaries_every_n_global_steps(n, global_step=None):
    """A context manager in which summaries are written when `global_step` (the global
    step by default) is a multiple of `n`."""
    _deprecated("record_summaries_every_n_global_steps",
                "tf.summary.record_if(lambda: step % n == 0)")
    global_step = _step(global_step)

    def should():
        return math_ops.equal(math_ops.floormod(convert_to_tensor(global_step), n), 0)
    return _writer.record_if(should if context.executing_eagerly() else should())


@export("contrib.summary.should_record_summaries")
def should_record_summaries():
    return summary_ops.should_record_summaries()


def _legacy(name, family, step, summary):
    """Writes the serialized ``Summary`` `summary(tag, scope)` makes, as TF 1.x did."""
    with v1_summary._SummaryScope(name, family, None) as (tag, scope):
        if _writer.state.writer is None:
            return summary_ops._bool(False)
        value = summary(tag, scope)
        return summary_ops.write_raw_pb(value, step=_step(step))


@export("contrib.summary.scalar")
def scalar(name, tensor, family=None, step=None):
    """Writes the scalar `tensor` under `name` (a ``simple_value``) at `step`."""
    _deprecated("scalar", "tf.summary.scalar")
    return _legacy(name, family, step, lambda tag, scope: dispatch(
        v1_summary._SCALAR, (convert_to_tensor(tag), convert_to_tensor(tensor)),
        name="ScalarSummary"))


@export("contrib.summary.histogram")
def histogram(name, tensor, family=None, step=None):
    """Writes the histogram of `tensor` under `name` (a ``histo``, TF's buckets) at
    `step`."""
    _deprecated("histogram", "tf.summary.histogram")
    return _legacy(name, family, step, lambda tag, scope: dispatch(
        v1_summary._HISTOGRAM, (convert_to_tensor(tag), convert_to_tensor(tensor)),
        name="HistogramSummary"))


@export("contrib.summary.generic")
def generic(name, tensor, metadata=None, family=None, step=None):
    """Writes `tensor` as it is under `name`, with `metadata` (a ``SummaryMetadata`` or
    its bytes), at `step`."""
    _deprecated("generic", "tf.summary.write")
    with v1_summary._SummaryScope(name, family, None) as (tag, _):
        return summary_ops.write(tag, tensor, step=_step(step), metadata=metadata)


@export("contrib.summary.image")
def image(name, tensor, bad_color=None, max_images=3, family=None, step=None):
    """Writes up to `max_images` images of `tensor` (``tf.summary.image``'s form)."""
    del bad_color
    _deprecated("image", "tf.summary.image")
    with v1_summary._SummaryScope(name, family, None) as (tag, _):
        return summary_ops.image(tag, tensor, step=_step(step), max_outputs=max_images)


@export("contrib.summary.audio")
def audio(name, tensor, sample_rate, max_outputs, family=None, step=None):
    """Writes up to `max_outputs` clips of `tensor` (``tf.summary.audio``'s form)."""
    _deprecated("audio", "tf.summary.audio")
    with v1_summary._SummaryScope(name, family, None) as (tag, _):
        return summary_ops.audio(tag, tensor, sample_rate, step=_step(step),
                                 max_outputs=max_outputs)


@export("contrib.summary.graph")
def graph(param, step=None, name=None):
    """Writes a graph (a `Graph` or ``GraphDef``) to the default writer."""
    del step, name
    _deprecated("graph", "tf.summary.graph")
    return summary_ops.graph(param)


@export("contrib.summary.flush")
def flush(writer=None, name=None):
    return _writer.flush(writer, name)


@export("contrib.summary.all_summary_ops")
def all_summary_ops():
    """The summary ops of the default graph (None eagerly), to run with each step."""
    return v1_summary.all_v2_summary_ops()


@export("contrib.summary.summary_writer_initializer_op")
def summary_writer_initializer_op():
    """The writers' initializers: none are needed (a writer opens its file when made)."""
    return []


@export("contrib.summary.initialize")
def initialize(graph=None, session=None):
    """Writes `graph` if given; the writers need no initialization."""
    del session
    if graph is not None:
        summary_ops.graph(graph)


@export("contrib.summary.eval_dir")
def eval_dir(model_dir, name=None):
    """The directory of evaluation summaries in `model_dir`: ``eval`` or ``eval_<name>``."""
    return os.path.join(model_dir, "eval" if not name else "eval_" + name)


"""What `Model.compile` turns its `loss` and `metrics` arguments into.

`LossesContainer` maps losses onto the model's outputs (one loss for all, a
list in output order, or a dict by output name or by the key of a dict of
outputs), weights and sums them with the regularization losses, and tracks
their mean as the ``loss`` metric. `MetricsContainer` does the same for
metrics, created on the first batch, when the shapes of labels and
predictions tell which accuracy ``'accuracy'`` means.

>>> container = LossesContainer("mse")
>>> float(container(tf.constant([[1.0]]), tf.constant([[3.0]])))
4.0
"""
import contextlib

import numpy as np

from eagerflow._src.compat import graph_mode as _graph_mode
from eagerflow._src.core import context, distribution_context, nest
from eagerflow._src.core import dtypes as _dtypes
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.core.tensor import Tensor
from eagerflow._src.ops import array_ops, cast_ops, reduction_ops
from eagerflow._src.keras import backend
from eagerflow._src.keras import losses as losses_mod
from eagerflow._src.keras import metrics as metrics_mod
from eagerflow._src.ragged.ragged_tensor import RaggedTensor


class _Outputs:
    """How a model's outputs are named, and how per-output arguments map onto them.

    `names` name the outputs in metrics (``dense_1_loss``): the model's output names, or
    for a subclassed model the outputs' paths (``output_1``, or a dict's keys). A dict
    argument is matched by the keys of a dict of outputs, else by `names`.
    """

    def __init__(self, y_pred, output_names):
        self.count = len(nest.flatten(y_pred))
        self.names = output_names if output_names is not None and \
            len(output_names) == self.count else pseudo_output_names(y_pred)
        self.keys = sorted(y_pred) if isinstance(y_pred, dict) else None
        self.structure = y_pred

    def conform(self, struct):
        """`struct` as one entry per output (None for an output it leaves out)."""
        if struct is None:
            return [None] * self.count
        if isinstance(struct, dict):
            if self.keys is not None:
                return [struct.get(key) for key in self.keys]
            unknown = {k: v for k, v in struct.items() if k not in self.names}
            if unknown:
                raise ValueError(f"Found unexpected losses or metrics that do not correspond "
                                 f"to any Model output: {unknown.keys()}. Valid mode output "
                                 f"names: {self.names}. Received struct is: {unknown}.")
            return [struct.get(name) for name in self.names]
        if not nest.is_nested(struct):
            return [struct] * self.count
        if _same_nesting(self.structure, struct):  # (nested outputs: one entry per leaf)
            return nest.flatten(struct)
        # Entries pair with outputs in order; those without a partner are left out.
        return (list(struct) + [None] * self.count)[:self.count]

    def paired(self, *structs):
        """How many outputs, first to last, the arguments pair with: as Keras zips them with
        the outputs, a list (of targets, sample weights, loss weights) shorter than the
        outputs leaves the last ones out."""
        return min([self.count] + [len(nest.flatten(s)) for s in structs
                                   if isinstance(s, (list, tuple))])

    def broadcast(self, objects, nested_ok):
        """One copy of `objects` per output when it is a single loss or metric (or, with
        `nested_ok`, a flat list of metrics); otherwise `objects` as given per output (as
        Keras, a list of metrics lists one entry per output)."""
        single = not nest.is_nested(objects) or nested_ok and \
            isinstance(objects, (list, tuple)) and not any(nest.is_nested(o) for o in objects)
        if not single:
            if nested_ok and self.count > 1 and isinstance(objects, (list, tuple)) and \
                    len(objects) != self.count:
                raise ValueError(f"The two structures don't have the same sequence length. "
                                 f"Input structure has length {len(objects)}, while shallow "
                                 f"structure has length {self.count}.")
            return self.conform(objects)
        if self.count == 1:
            return [objects]
        return [_copy(objects) for _ in range(self.count)]


def check_targets(model, y):
    """TF 1's Keras (graph mode, a model with a graph, targets as arrays): refuses, before any
    step, targets of another shape than their output's for the losses that need them alike
    (mean squared error, binary and categorical crossentropy: they would broadcast), and a
    single class column for categorical crossentropy."""
    outputs = getattr(model, "outputs", None)
    if y is None or not outputs or getattr(model, "compiled_loss", None) is None:
        return
    mapped = _Outputs(outputs, getattr(model, "output_names", None))
    targets = mapped.conform(y)
    user_losses = model.compiled_loss._user_losses
    losses = [None if loss is None else _loss_object(loss)
              for loss in mapped.broadcast(user_losses, nested_ok=False)]
    alike = (losses_mod.mean_squared_error, losses_mod.binary_crossentropy,
             losses_mod.categorical_crossentropy)
    for target, loss, output in zip(targets, losses, outputs):
        if target is None or loss is None or isinstance(target, Tensor) or \
                not hasattr(target, "shape") and not isinstance(target, (list, tuple)):
            continue
        shape = np.shape(target)
        fn = getattr(loss, "fn", None)
        if fn is losses_mod.categorical_crossentropy and shape and shape[-1] == 1:
            raise ValueError(
                f"You are passing a target array of shape {shape} while using as loss "
                f"`categorical_crossentropy`. `categorical_crossentropy` expects targets to be "
                f"binary matrices (1s and 0s) of shape (samples, classes). If your targets "
                f"are integer classes, you can convert them to the expected format via:\n"
                f"```\nfrom tf_keras.src.utils import to_categorical\ny_binary = "
                f"to_categorical(y_int)\n```\n\nAlternatively, you can use the loss function "
                f"`sparse_categorical_crossentropy` instead, which does expect integer "
                f"targets.")
        if fn not in alike:
            continue
        output_shape = tuple(output.shape.as_list())
        for target_dim, out_dim in zip(shape[1:], output_shape[1:]):
            if out_dim is not None and target_dim != out_dim:
                raise ValueError(
                    f"A target array with shape {shape} was passed for an output of shape "
                    f"{output_shape} while using as loss `{loss.name}`. This loss expects "
                    f"targets to have the same shape as the output.")


def _same_nesting(y_pred, struct):
    """Whether `struct` nests as outputs nested deeper than a list or dict do (lists and
    tuples alike): it then gives one entry per output."""
    if not nest.is_nested(y_pred):
        return False
    children = y_pred.values() if isinstance(y_pred, dict) else y_pred
    if not any(nest.is_nested(child) for child in children):
        return False  # (flat outputs: their entries pair in order)
    try:
        nest.assert_same_structure(y_pred, struct, check_types=False)
    except (ValueError, TypeError):
        return False
    return True


def pseudo_output_names(y_pred):
    """The names tf_keras gives the outputs of a model with no output names (a subclassed
    one), one per flattened output: its path joined by ``_``, list positions counted from 1
    and a path starting at a position prefixed ``output_``: ``output_1`` for a single
    output, ``output_1, output_2`` for a list, a dict's keys for a dict, ``output_2_1`` or
    ``output_2_2_k`` inside nested ones."""
    if not nest.is_nested(y_pred):
        return ["output_1"]
    names = []
    for path in _flat_paths(y_pred, ()):
        name = "_".join(str(p) for p in path)
        names.append(f"output_{name}" if isinstance(path[0], int) else name)
    return names


def _flat_paths(value, path):
    """The path of each leaf of `value`, in `nest.flatten`'s order (list positions from 1)."""
    if not nest.is_nested(value):
        yield path
    elif isinstance(value, dict):
        for key in sorted(value):
            yield from _flat_paths(value[key], path + (key,))
    elif hasattr(value, "_fields"):  # a namedtuple: its fields by name
        for key, child in zip(value._fields, value):
            yield from _flat_paths(child, path + (key,))
    else:
        for i, child in enumerate(value):
            yield from _flat_paths(child, path + (i + 1,))


def _copy(value):
    """`value` with each loss and metric object replaced by a new one of the same config
    (every output tracks its own); names of losses and metrics are kept."""
    if isinstance(value, (list, tuple)):
        return type(value)(_copy(v) for v in value)
    if isinstance(value, (losses_mod.Loss, metrics_mod.Metric)):
        return type(value).from_config(value.get_config())
    return value


class LossesContainer:
    """The compiled loss: callable on ``(y_true, y_pred, sample_weight)``; returns the total,
    or None when no output has both a loss and a target."""

    def __init__(self, losses, loss_weights=None, output_names=None):
        self._user_losses, self._user_weights = losses, loss_weights
        self._output_names = output_names
        self._outputs = None
        self._loss_metric = metrics_mod.Mean(name="loss")
        self._per_output_metrics = []
        self.batch_values = {}  # the last call's losses by their metrics' names

    def build(self, y_pred):
        self._outputs = outputs = _Outputs(y_pred, self._output_names)
        self._losses = [None if loss is None else _loss_object(loss)
                        for loss in outputs.broadcast(self._user_losses, nested_ok=False)]
        self._weights = outputs.broadcast(self._user_weights, nested_ok=False)
        if outputs.count > 1:
            self._per_output_metrics = [
                metrics_mod.Mean(name=f"{name}_loss") if loss is not None else None
                for name, loss in zip(outputs.names, self._losses)]

    @property
    def metrics(self):
        if self._outputs is None:
            return []
        return [self._loss_metric] + [m for m in self._per_output_metrics if m is not None]

    def __call__(self, y_true, y_pred, sample_weight=None, regularization_losses=None):
        self.batch_values = {}
        if self._outputs is None:
            self.build(y_pred)
        outputs = nest.flatten(y_pred)
        targets = self._outputs.conform(y_true)
        weights = self._outputs.conform(sample_weight)
        paired = self._outputs.paired(y_true, sample_weight, self._user_weights)
        total, shown, batch = [], [], None
        for i, (loss, w, yt, yp, sw) in enumerate(zip(self._losses, self._weights, targets,
                                                      outputs[:paired], weights)):
            if loss is None or yt is None:
                continue
            yt, sw = _match_dtype_and_rank(yt, yp, sw)
            value = loss(yt, yp, sample_weight=sw)  # the loss applies the mask
            if batch is None:
                batch = cast_ops.cast(array_ops.shape(yt)[0], "float32")
            # Over several replicas (`fit` under a strategy) the gradients are summed: a
            # loss averaged over a replica's batch is divided by their number, and the
            # metrics see a summed loss times it (the mean over all replicas' examples).
            value, seen = _for_replicas(value, loss.reduction == losses_mod.Reduction.SUM)
            if self._per_output_metrics:
                self._per_output_metrics[i].update_state(seen, sample_weight=batch)
                self.batch_values[self._per_output_metrics[i].name] = seen
            total.append(value if w is None else value * w)
            shown.append(seen if w is None else seen * w)
        if regularization_losses:
            regularization = reduction_ops.add_n(_common_dtype(regularization_losses))
            total.append(_for_replicas(regularization, False)[0])
            shown.append(regularization)
        if not total:
            return None
        self.batch_values[self._loss_metric.name] = _added(shown)
        self._loss_metric.update_state(self.batch_values[self._loss_metric.name],
                                       sample_weight=batch)
        return _added(total)

    def reset_state(self):
        for m in self.metrics:
            m.reset_state()


class MetricsContainer:
    """The compiled metrics: `update_state` on each batch; created on the first one."""

    def __init__(self, metrics=None, weighted_metrics=None, output_names=None):
        self._user_metrics, self._user_weighted = metrics, weighted_metrics
        self._output_names = output_names
        self._outputs = None
        # (set by the legacy loaders: the metrics are named as saved, their outputs' already)
        self.from_serialized = False

    def build(self, y_true, y_pred):
        self._outputs = outputs = _Outputs(y_pred, self._output_names)
        targets = outputs.conform(y_true)
        flat = nest.flatten(y_pred)

        def make(spec):
            return [[metrics_mod.get_metric_object(m, yt, yp) for m in nest.flatten(ms)]
                    for ms, yt, yp in zip(outputs.broadcast(spec, nested_ok=True), targets,
                                          flat)]
        # Built while `fit` traces its step: names count from scratch in that function's
        # graph, as Keras's per-graph counters do ('auc', not 'auc_2' after two AUC())
        names = backend.separate_uids() if context.get().graph is not None \
            else contextlib.nullcontext()
        with names:
            self._metrics = make(self._user_metrics)
            self._weighted = make(self._user_weighted)
        self._set_names()

    def _set_names(self):
        """Prefixes the output's name in multi-output models, and ``weighted_`` to a weighted
        metric whose name is taken (to each, after `disable_v2_behavior`, as TF 1's Keras);
        two metrics may not share a name."""
        taken = set()
        multi = self._outputs.count > 1 and not self.from_serialized
        # TF 1's loop (TF 1's graph mode, TF 2's behaviour on) numbers a name taken instead:
        # ``accuracy_1``
        numbered = _graph_mode.tf2_enabled() and \
            not _graph_mode.executing_eagerly_outside_functions()

        def number(m):
            base, i = m.name, 1
            while m.name in taken:
                m._name, i = f"{base}_{i}", i + 1

        def keep_one_by_name(ms):  # (TF 1's loop keeps an output's metrics by name)
            seen = set()
            for i, m in enumerate(ms):
                if m is not None and m.name in seen:
                    ms[i] = None
                elif m is not None:
                    seen.add(m.name)

        for name, plain, weighted in zip(self._outputs.names, self._metrics, self._weighted):
            if numbered:
                keep_one_by_name(plain)
                keep_one_by_name(weighted)
            for m in plain:
                if m is None:
                    continue
                if multi:
                    m._name = f"{name}_{m.name}"
                if numbered:
                    number(m)
                if m.name in taken:
                    raise ValueError(f"Found two metrics with the same name: {m.name}. All "
                                     f"the metrics added to the model need to have unique "
                                     f"names.")
                taken.add(m.name)
            for m in weighted:
                if m is None:
                    continue
                if not _graph_mode.tf2_enabled():  # (TF 1's names: always marked weighted)
                    m._name = f"{name}_weighted_{m.name}" if multi else f"weighted_{m.name}"
                elif numbered:
                    if multi:
                        m._name = f"{name}_{m.name}"
                    number(m)
                elif multi:
                    m._name = f"{name}_weighted_{m.name}" if f"{name}_{m.name}" in taken \
                        else f"{name}_{m.name}"
                elif m.name in taken:
                    m._name = f"weighted_{m.name}"
                if m.name in taken:
                    raise ValueError(f"Found two weighted metrics with the same name: "
                                     f"{m.name}.All the metrics added to the model need to "
                                     f"have unique names.")
                taken.add(m.name)

    @property
    def metrics(self):
        """Each output's metrics, then its weighted metrics, output by output."""
        if self._outputs is None:
            return []
        return [m for plain, weighted in zip(self._metrics, self._weighted)
                for m in plain + weighted if m is not None]

    def update_state(self, y_true, y_pred, sample_weight=None):
        if self._outputs is None:
            self.build(y_true, y_pred)
        outputs = nest.flatten(y_pred)[:self._outputs.paired(y_true, sample_weight)]
        targets = self._outputs.conform(y_true)
        weights = self._outputs.conform(sample_weight)
        for yt, yp, sw, plain, weighted in zip(targets, outputs, weights, self._metrics,
                                               self._weighted):
            if yt is None:
                continue
            yt, sw = _match_dtype_and_rank(yt, yp, sw)
            mask = getattr(yp, "_keras_mask", None)
            for m in plain:
                if m is not None:
                    m.update_state(yt, yp, sample_weight=_with_mask(None, yp)
                                   if mask is not None else None)
            for m in weighted:
                if m is not None:
                    m.update_state(yt, yp, sample_weight=_with_mask(sw, yp))

    def reset_state(self):
        for m in self.metrics:
            m.reset_state()


def _added(losses):
    return losses[0] if len(losses) == 1 else reduction_ops.add_n(_common_dtype(losses))


def _for_replicas(value, summed):
    """(`value` to minimize, `value` for the loss metrics) in one of several replicas."""
    n = distribution_context.num_replicas_in_sync()
    if n == 1 or distribution_context.synced_replica() is None:
        return value, value
    if summed:
        return value, value * cast_ops.cast(n, value.dtype)
    return value / cast_ops.cast(n, value.dtype), value


def _loss_object(loss):
    """A loss instance: strings and functions are wrapped as Keras wraps them. A compiled
    loss may average over the batch under a distribution strategy."""
    fn = loss if isinstance(loss, losses_mod.Loss) else losses_mod.get(loss)
    if not isinstance(fn, losses_mod.Loss):
        # (named as the function, as Keras names it: 'mse' is ``mean_squared_error``)
        name = getattr(fn, "__name__", loss if isinstance(loss, str) else "loss")
        fn = losses_mod.LossFunctionWrapper(fn, name=name)
    fn._allow_sum_over_batch_size = True
    return fn


def _common_dtype(losses):
    """`losses` cast to the widest floating dtype among them (float32 for float16 with
    bfloat16), as tf_keras sums them; left alone if one is complex or none floating."""
    widest = None
    for loss in losses:
        dtype = loss.dtype
        if dtype.is_complex:
            return losses
        if dtype.is_floating:
            if widest is None or dtype.size > widest.size:
                widest = dtype
            elif {dtype.name, widest.name} == {"bfloat16", "float16"}:
                widest = _dtypes.float32
    return losses if widest is None else [cast_ops.cast(loss, widest) for loss in losses]


def _match_dtype_and_rank(y_true, y_pred, sample_weight):
    """Labels (and weights) of shape ``(batch,)`` for predictions of shape ``(batch, n)``
    get a last axis, and take the predictions' dtype within the same kind (float or int).

    Keras does this before any loss or metric sees the labels, so a ``(batch,)`` label
    never broadcasts against a ``(batch, 1)`` prediction.
    """
    if not isinstance(y_true, RaggedTensor):  # (ragged labels go to the losses as they are)
        y_true = convert_to_tensor(y_true)
    if y_true.shape.rank == 1 and y_pred.shape.rank == 2:
        y_true = array_ops.expand_dims(y_true, -1)
    if (y_true.dtype.is_floating and y_pred.dtype.is_floating) or \
            (y_true.dtype.is_integer and y_pred.dtype.is_integer):
        y_true = cast_ops.cast(y_true, y_pred.dtype)
    if sample_weight is not None:
        sample_weight = convert_to_tensor(sample_weight)
        if sample_weight.shape.rank == 1 and y_pred.shape.rank == 2:
            sample_weight = array_ops.expand_dims(sample_weight, -1)
        sample_weight = cast_ops.cast(sample_weight, y_pred.dtype)
    return y_true, sample_weight


def _with_mask(sample_weight, y_pred):
    """`sample_weight` times the mask Keras attached to `y_pred`, if any (weights of one
    axis fewer than the mask, one per sequence, get an axis to broadcast over it)."""
    mask = getattr(y_pred, "_keras_mask", None)
    if mask is None:
        return sample_weight
    mask = cast_ops.cast(mask, y_pred.dtype)
    if sample_weight is None:
        return mask
    sample_weight = losses_mod.weights_like(
        cast_ops.cast(convert_to_tensor(sample_weight), y_pred.dtype), mask)
    return mask * sample_weight


def compiled_names(model):
    """`model.metrics_names` as TF 1's Keras gives them from `compile` on, where `model` was
    compiled in TF 1's graph mode (`session_steps.note_compile`) and no step has built its compiled losses and metrics yet:
    ``loss``, each output's loss (with several outputs), the compiled metrics named as they
    will be (made in a scratch graph, on the model's outputs) and the layers' metrics; else
    None (the metrics built name themselves)."""
    if not model.__dict__.get("_compiled_in_v1_graph") or \
            model.compiled_loss.metrics or not getattr(model, "_is_compiled", False):
        return None
    outputs = model.__dict__.get("_nested_outputs") if model.built else None
    names = ["loss"]
    if outputs is not None:
        args, output_names = model._compile_arguments, getattr(model, "output_names", None)
        given = [m for m in nest.flatten([args["metrics"], args["weighted_metrics"]])
                 if hasattr(m, "_name")]  # (metric objects, which naming renames: restored)
        kept = [m._name for m in given]
        with _graph_mode.Graph().as_default():
            losses = LossesContainer(args["loss"], args["loss_weights"], output_names)
            losses.build(outputs)
            metrics = MetricsContainer(args["metrics"], args["weighted_metrics"], output_names)
            metrics.build(outputs, outputs)
        names = [m.name for m in losses.metrics + metrics.metrics]
        for m, name in zip(given, kept):
            m._name = name
    return names + [m.name for layer in model._flatten_layers() for m in layer._metrics]


def total_loss(model):
    """TF 1's ``model.total_loss`` of a model compiled in TF 1's graph mode (an
    AttributeError otherwise, as TF 2's Keras has none): each output's loss against a
    placeholder of its targets (``<output>_target``, in ``model._targets``), weighted, plus
    the model's regularization losses, in the ``loss`` scope of that graph; built once."""
    built = model.__dict__.get("_v1_total_loss")
    if built is not None:
        return built
    graph = model.__dict__.get("_compiled_in_v1_graph")
    outputs = model.__dict__.get("_nested_outputs") if model.built else None
    if graph is None or outputs is None:
        raise AttributeError(f"'{type(model).__name__}' object has no attribute 'total_loss'")
    args, names = model._compile_arguments, model.output_names
    flat = nest.flatten(outputs)
    with graph.as_default():
        targets = [_graph_mode.placeholder(y.dtype, [None] * y.shape.rank, name=f"{n}_target")
                   for y, n in zip(flat, names)]
        losses = LossesContainer(args["loss"], args["loss_weights"], names)
        losses.build(outputs)
        with context.name_scope("loss"):
            terms = [(1.0 if weight is None else weight) * loss(target, y)
                     for loss, weight, target, y in zip(losses._losses, losses._weights,
                                                        targets, flat) if loss is not None]
            terms += model.losses
            total = terms[0] if len(terms) == 1 else reduction_ops.add_n(terms)
    object.__setattr__(model, "_targets", targets)
    object.__setattr__(model, "_feed_targets", targets)
    object.__setattr__(model, "_v1_total_loss", total)
    return total

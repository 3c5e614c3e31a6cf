"""What `Model.compile` turns its `loss` and `metrics` arguments into.

`LossesContainer` maps losses onto the model's outputs (one loss for all, a
list in output order, or a dict by output name), weights and sums them with
the regularization losses, and tracks their mean as the ``loss`` metric.
`MetricsContainer` does the same for metrics, created on the first batch,
when the shapes of labels and predictions tell which accuracy ``'accuracy'``
means.

>>> from eagerflow._src.core.convert import constant
>>> container = LossesContainer("mse")
>>> float(container(constant([[1.0]]), constant([[3.0]])))
4.0
"""
from eagerflow._src.core import nest
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.ops import array_ops, cast_ops, reduction_ops
from eagerflow._src.keras import losses as losses_mod
from eagerflow._src.keras import metrics as metrics_mod


def _per_output(spec, output_names, kind):
    """`spec` (one value, a list in output order, or a dict by name) as a list per output."""
    if output_names is None or len(output_names) == 1:
        if isinstance(spec, dict):
            if output_names is None or set(spec) - set(output_names):
                raise ValueError(f"Found unexpected {kind} keys {sorted(spec)}. Expected: "
                                 f"{output_names}")
            return [spec.get(name) for name in output_names]
        if isinstance(spec, (list, tuple)) and kind == "losses" and len(spec) == 1:
            return [spec[0]]
        return [spec]
    if isinstance(spec, dict):
        unknown = set(spec) - set(output_names)
        if unknown:
            raise ValueError(f"Found unexpected {kind} keys {sorted(unknown)}. Valid output "
                             f"names are: {output_names}")
        return [spec.get(name) for name in output_names]
    if isinstance(spec, (list, tuple)):
        if len(spec) != len(output_names):
            raise ValueError(f"When passing a list as {kind}, it should have one entry per "
                             f"model output. The model has {len(output_names)} outputs, but "
                             f"you passed {kind}={spec}")
        return list(spec)
    return [spec] * len(output_names)


def _match(targets, outputs, output_names):
    """`targets` as a list aligned with the flat `outputs` (dicts are matched by name)."""
    if isinstance(targets, dict) and output_names is not None:
        return [targets.get(name) for name in output_names]
    flat = nest.flatten(targets)
    if len(flat) == 1 and len(outputs) > 1:
        return flat * len(outputs)
    return flat


class LossesContainer:
    """The compiled loss: callable on ``(y_true, y_pred, sample_weight)``; returns the total."""

    def __init__(self, losses, loss_weights=None, output_names=None):
        self._user_losses, self._user_weights = losses, loss_weights
        self._output_names = output_names
        self._losses = None
        self._loss_metric = metrics_mod.Mean(name="loss")
        self._per_output_metrics = []

    def build(self, y_pred):
        names = self._output_names
        flat = nest.flatten(y_pred)
        if names is None or len(names) != len(flat):
            names = None if len(flat) == 1 else [f"output_{i + 1}" for i in range(len(flat))]
            self._output_names = names
        self._losses = [None if l is None else _loss_object(l)
                        for l in _per_output(self._user_losses, names, "losses")]
        weights = self._user_weights
        self._weights = [1.0] * len(self._losses) if weights is None else \
            [1.0 if w is None else w for w in _per_output(weights, names, "loss_weights")]
        if len(flat) > 1:
            self._per_output_metrics = [
                metrics_mod.Mean(name=f"{name}_loss") if loss is not None else None
                for name, loss in zip(names, self._losses)]

    @property
    def metrics(self):
        if self._losses is None:
            return []
        return [self._loss_metric] + [m for m in self._per_output_metrics if m is not None]

    def __call__(self, y_true, y_pred, sample_weight=None, regularization_losses=None):
        if self._losses is None:
            self.build(y_pred)
        outputs = nest.flatten(y_pred)
        targets = _match(y_true, outputs, self._output_names)
        weights = _match(sample_weight, outputs, self._output_names) if \
            sample_weight is not None else [None] * len(outputs)
        total, batch = [], None
        for i, (loss, w, yt, yp, sw) in enumerate(zip(self._losses, self._weights, targets,
                                                      outputs, weights)):
            if loss is None or yt is None:
                continue
            value = loss(yt, yp, sample_weight=sw)  # the loss applies the mask
            if self._per_output_metrics:
                self._per_output_metrics[i].update_state(value, sample_weight=_batch(yp))
            total.append(value if w == 1 else value * w)
            batch = yp if batch is None else batch
        if regularization_losses:
            total.append(reduction_ops.add_n([cast_ops.cast(l, "float32")
                                         for l in regularization_losses]))
        if not total:
            raise ValueError("The model cannot be compiled because it has no loss to optimize.")
        loss = total[0] if len(total) == 1 else reduction_ops.add_n(total)
        self._loss_metric.update_state(loss, sample_weight=_batch(batch))
        return loss

    def reset_state(self):
        for m in self.metrics:
            m.reset_state()


class MetricsContainer:
    """The compiled metrics: `update_state` on each batch; created on the first one."""

    def __init__(self, metrics=None, weighted_metrics=None, output_names=None):
        self._user_metrics, self._user_weighted = metrics, weighted_metrics
        self._output_names = output_names
        self._metrics = self._weighted = None

    def build(self, y_true, y_pred):
        flat = nest.flatten(y_pred)
        names = self._output_names
        if names is None or len(names) != len(flat):
            names = None if len(flat) == 1 else [f"output_{i + 1}" for i in range(len(flat))]
        targets = _match(y_true, flat, names)
        multi = len(flat) > 1

        def make(spec):
            count = len(flat)
            if spec is None:
                per_output = [[]] * count
            elif isinstance(spec, dict):
                per_output = _per_output(spec, names, "metrics")
            elif isinstance(spec, (list, tuple)) and multi and \
                    any(isinstance(m, (list, tuple, dict)) for m in spec):
                per_output = _per_output(list(spec), names, "metrics")  # one entry per output
            else:  # the same metrics for every output
                per_output = [spec] * count
            return [[_metric_object(m, targets[i], flat[i], names[i] if multi else None)
                     for m in ([] if ms is None else ms if isinstance(ms, (list, tuple))
                               else [ms])]
                    for i, ms in enumerate(per_output)]
        self._metrics = make(self._user_metrics)
        self._weighted = make(self._user_weighted)

    @property
    def metrics(self):
        if self._metrics is None:
            return []
        return [m for group in (self._metrics, self._weighted) for ms in group for m in ms]

    def update_state(self, y_true, y_pred, sample_weight=None):
        if self._metrics is None:
            self.build(y_true, y_pred)
        outputs = nest.flatten(y_pred)
        targets = _match(y_true, outputs, self._output_names)
        weights = _match(sample_weight, outputs, self._output_names) if \
            sample_weight is not None else [None] * len(outputs)
        for yt, yp, sw, plain, weighted in zip(targets, outputs, weights, self._metrics,
                                               self._weighted):
            if yt is None:
                continue
            mask = getattr(yp, "_keras_mask", None)
            for m in plain:
                m.update_state(yt, yp, sample_weight=_with_mask(None, yp) if mask is not None
                               else None)
            for m in weighted:
                m.update_state(yt, yp, sample_weight=_with_mask(sw, yp))

    def reset_state(self):
        for m in self.metrics:
            m.reset_state()


def _loss_object(loss):
    """A loss instance: strings and functions are wrapped as Keras wraps them."""
    if isinstance(loss, losses_mod.Loss):
        return loss
    fn = losses_mod.get(loss)
    if isinstance(fn, losses_mod.Loss):
        return fn
    name = loss if isinstance(loss, str) else getattr(fn, "__name__", "loss")
    return losses_mod.LossFunctionWrapper(fn, name=name)


def _metric_object(metric, y_true, y_pred, output_name):
    """The metric for `metric` (``'accuracy'`` chosen by label shapes), prefixed with the
    output's name in multi-output models."""
    made = metrics_mod.get_metric_object(metric, y_true, y_pred)
    if output_name is not None:
        made._name = f"{output_name}_{made.name}"
    return made


def _batch(y_pred):
    return cast_ops.cast(array_ops.shape(y_pred)[0], "float32")


def _with_mask(sample_weight, y_pred):
    """`sample_weight` times the mask Keras attached to `y_pred`, if any."""
    mask = getattr(y_pred, "_keras_mask", None)
    if mask is None:
        return sample_weight
    mask = cast_ops.cast(mask, y_pred.dtype)
    if sample_weight is None:
        return mask
    sample_weight = cast_ops.cast(convert_to_tensor(sample_weight), y_pred.dtype)
    return mask * sample_weight

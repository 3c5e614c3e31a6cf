"""Keras's training loops in TF 1's graph mode (after ``disable_eager_execution``).

The loops of `Model` run as they do eagerly, over the same data handling and callbacks;
only what touches the model's variables goes through the Keras session
(``compat.v1.keras.backend.get_session``): each step (`train_step`, `test_step`,
`predict_step`), a traced `function` (which runs its reads and updates in program order),
is called once per input signature in the TF 1 graph, on placeholders, and each batch is
one `Session.run` of that call, fed the batch's arrays. The metrics' resets
and results are built and run the same way. Variables a step makes (optimizer slots,
metrics) are initialized in the session when the step is built, as Keras's session does.
"""
import contextlib
import functools

import numpy as np

from eagerflow._src.backend import log as _log
from eagerflow._src.compat import graph_mode, session as session_mod
from eagerflow._src.core import context, nest
from eagerflow._src.core.tensor import Tensor
from eagerflow._src.core.variables import Variable
from eagerflow._src.data.dataset_ops import Dataset
from eagerflow._src.data.shuffle import _ShuffleDataset as ShuffleDataset
from eagerflow._src.function.polymorphic_function import function
from eagerflow._src.keras import backend, callbacks
from eagerflow._src.keras.utils import data_utils


def graph_of(model):
    """The TF 1 graph `model`'s loop runs its steps in (inside a loop), else None."""
    return model.__dict__.get("_session_graph")


def running(model):
    """Whether `model`'s loop runs now, outside the graph its steps are built in."""
    return graph_of(model) is not None and context.get().graph is None


def in_session(method):
    """`method` (a loop of `Model`) run eagerly over its data, its steps run in the Keras
    session, when called while a TF 1 graph is being built."""

    @functools.wraps(method)
    def run(model, *args, **kwargs):
        graph = graph_mode.v1_graph()
        if graph is None or graph_of(model) is not None or graph.building_function:
            return method(model, *args, **kwargs)
        object.__setattr__(model, "_session_graph", graph)
        backend.session_loops.append(graph)
        try:
            with _eager():
                return method(model, *args, **kwargs)
        finally:
            backend.session_loops.pop()
            object.__setattr__(model, "_session_graph", None)

    return run


@contextlib.contextmanager
def _eager():
    """Eager execution for the block (the loop's data and its own counters)."""
    with context._swap(graph=None, scope=""):
        yield


class Counter:
    """The loop's count of steps, kept in Python (the eager loop's is a variable)."""

    value = 0

    def assign(self, value, read_value=True):
        self.value = value

    def assign_add(self, delta, read_value=True):
        self.value += delta


def samples(model, x):
    """The number of samples of `x` (arrays) that `model`'s loop in the session counts,
    else None (eager loops count steps)."""
    if graph_of(model) is None:
        return None
    leaves = nest.flatten(x) if x is not None else []
    shape = getattr(leaves[0], "shape", None) if leaves else None
    return int(shape[0]) if shape else None


def progbar_logger(model, x, val_x, steps, validation_steps):
    """In the session's loop, TF 1's progress bar of `fit` on `x`, after its first line (the
    numbers of training and validation samples, or of steps for other data); else None."""
    if graph_of(model) is None:
        return None
    count = samples(model, x)
    unit = "steps" if count is None else "samples"
    if count is None:
        count, val = steps, validation_steps
    else:
        val = None if val_x is None else int(np.shape(nest.flatten(val_x)[0])[0])
    print(f"Train on {count} {unit}" + ("" if not val else f", validate on {val} {unit}"))
    return ProgbarLogger(count_mode=unit)


class EpochLosses:
    """The losses of a loop over `x` in the session, as TF 1's loop gives them: a batch's
    logs hold its number (``batch``) and size (its samples, or 1 where the loop counts steps:
    a dataset), its own losses (not their means so far) and the metrics as they stand; the
    epoch's losses are the means of the batches' losses over the samples (or steps), in
    float64. With `steps` (those `evaluate` was asked for, or None), the losses are those of
    TF 1's test loop: summed in float32, and divided by the samples or steps, or, where the
    loop counted a dataset of known size itself, by its cardinality, an int64 (the mean is
    then a float64, else a float32)."""

    def __init__(self, model, x, steps=False):
        self._model = model
        self._by_steps = samples(model, x) is None
        self._float32 = steps is not False
        known = self._by_steps and steps in (None, -1) and \
            getattr(x, "_cardinality", lambda: -1)() >= 0
        self._count = np.int64 if known and self._float32 else int
        self._totals, self._seen = {}, 0

    def _size(self, batches):
        return len(batches) if self._by_steps else \
            sum(int(np.shape(nest.flatten(b)[0])[0]) for b in batches)

    def begin_logs(self, batches, batch):
        """The logs the begin hook of `batches` gets: in the session, their number and size."""
        if graph_of(self._model) is None:
            return None
        return {"batch": batch, "size": self._size(batches)}

    def predict_logs(self, outputs, batches, batch):
        """The logs of `predict`'s batch end hook: the `outputs`; in the session, as TF 1's
        loop gives them, a list of them, after the batches' number and size."""
        if graph_of(self._model) is None:
            return {"outputs": outputs}
        return {"batch": batch, "size": self._size(batches), "outputs": nest.flatten(outputs)}

    def batch_logs(self, logs, batches, batch, step):
        """The logs of `batches` (the last run of `step`) the callbacks get."""
        if graph_of(self._model) is None or not isinstance(logs, dict):
            return logs
        size = self._size(batches)
        losses = getattr(step, "batch_losses", {})
        self._seen += size
        for name, value in losses.items():
            # (as TF 1's test loop adds the session's results: in NumPy float32 arithmetic)
            value = np.float32(value) if self._float32 else float(value)
            self._totals[name] = self._totals.get(name, 0.0) + value * size
        out = {"batch": batch, "size": size}
        out.update((k, _python(losses.get(k, v))) for k, v in logs.items())
        return out

    def epoch_logs(self, logs):
        """The epoch's `logs` with its losses' means over the samples (or steps)."""
        if not isinstance(logs, dict):  # (a custom step's: the callbacks get it as it is)
            return logs
        means = {k: _python(v) for k, v in self.results(logs).items()}
        self._totals, self._seen = {}, 0
        return means

    def results(self, logs):
        """The loop's `logs` with its losses' means over the samples (or steps), as NumPy
        scalars (the metrics' results as they are)."""
        if not self._seen:
            return logs
        return {k: self._totals[k] / self._count(self._seen) if k in self._totals else v
                for k, v in logs.items()}


def _python(value):
    """A NumPy scalar as a Python number (as TF 1's callbacks see it); arrays as they are."""
    value = np.asarray(value)
    return value.item() if value.ndim == 0 else value


class ProgbarLogger(callbacks.ProgbarLogger):
    """TF 1's progress bar of `fit`: the batches' losses averaged over the samples seen, the
    metrics shown as they stand."""

    def _maybe_init_progbar(self):
        super()._maybe_init_progbar()
        compiled = getattr(self.model, "compiled_loss", None)
        losses = {m.name for m in compiled.metrics} if compiled is not None else set()
        self.stateful_metrics -= losses
        self.progbar.stateful_metrics = self.progbar.stateful_metrics - losses


def check_inputs(model, x):
    """TF 1's check, before any step, of arrays given for a model with a graph against its
    inputs: their ranks (a vector stands for a column), then their shapes past the batch."""
    inputs = getattr(model, "inputs", None)
    names = getattr(model, "input_names", None)
    if x is None or not inputs or not names or len(names) != len(inputs):
        return
    if isinstance(x, dict):
        data = [x.get(name) for name in names]
    elif isinstance(x, (list, tuple)):
        if not x:
            return
        data = [np.asarray(v) for v in x] if isinstance(x[0], (list, tuple)) else \
            [np.asarray(x)] if len(names) == 1 and isinstance(x[0], (float, int)) else list(x)
    else:
        data = [x]
    if len(data) != len(names):
        return
    for name, value, tensor in zip(names, data, inputs):
        if not isinstance(value, np.ndarray) or tensor.shape.rank is None:
            continue
        shape, given = tuple(tensor.shape.as_list()), value.shape
        if len(given) == 1 and len(shape) != 1:
            given = given + (1,)
        if len(given) != len(shape):
            raise ValueError(f"Error when checking input: expected {name} to have "
                             f"{len(shape)} dimensions, but got array with shape {given}")
        if any(ref is not None and ref != dim for dim, ref in zip(given[1:], shape[1:])):
            raise ValueError(f"Error when checking input: expected {name} to have shape "
                             f"{shape[1:]} but got array with shape {given[1:]}")


def callback_params(model, x, batch_size, epochs, steps, verbose, validate=False,
                    kind="train"):
    """The `params` the loop gives the callbacks of `model`'s `kind` loop over `x`: TF 2's
    (verbose, epochs, steps), or in the session's loop TF 1's (also its batch size, samples,
    and ``metrics``: the names of the logs)."""
    if graph_of(model) is None:
        return {"verbose": verbose, "epochs": epochs, "steps": steps}
    count = samples(model, x)
    if count is None:  # (a dataset or generator: counted in steps, a dataset's an int64)
        batch_size = None
        steps = np.int64(steps) if isinstance(x, Dataset) and steps is not None else steps
        count = steps
    else:
        batch_size, steps = batch_size or 32, None
    names = [] if kind == "predict" else list(model.metrics_names)
    if validate:
        names += [f"val_{name}" for name in names]
    return {"batch_size": batch_size, "epochs": epochs, "steps": steps, "samples": count,
            "verbose": verbose, "do_validation": bool(validate), "metrics": names}


def check_shuffled(model, x, shuffle):
    """TF 1's warning, when `fit` of `model` in the session is asked to `shuffle` a dataset
    `x` that shuffles nowhere in its pipeline (the loop does not shuffle datasets)."""
    if graph_of(model) is None or not shuffle or not isinstance(x, Dataset):
        return
    pending, seen = [x], set()
    while pending:
        dataset = pending.pop()
        if isinstance(dataset, ShuffleDataset):
            return
        if id(dataset) not in seen:
            seen.add(id(dataset))
            pending.extend(d for d in dataset._inputs() if isinstance(d, Dataset))
    _log.logger.warning("Expected a shuffled dataset but input dataset `x` is not shuffled. "
                        "Please invoke `shuffle()` on input dataset.")


def numpy_logs(logs):
    """A step's results as TF 1's loop returns them: NumPy scalars (and arrays)."""
    return {k: np.asarray(v)[()] for k, v in logs.items()}


def _session():
    return session_mod.get_session()


class SessionStep:
    """`step` built into `graph` once per input signature, each call one session run."""

    def __init__(self, model, step, graph, kind):
        self._model, self._step, self._graph, self._kind = model, step, graph, kind
        self._built = {}
        self._losses = kind in ("train", "test")  # (the step gives its batch's losses too)
        self.batch_losses = {}  # (with `losses`) the last run's own losses, by name

    def __call__(self, data):
        flat = [np.asarray(v.numpy() if isinstance(v, (Tensor, Variable)) else v)
                for v in nest.flatten(data)]
        key = (repr(nest.map_structure(lambda _: None, data)),
               tuple((a.dtype.str, a.shape[1:]) for a in flat))
        built = self._built.get(key)
        if built is None:
            with self._graph.as_default():
                holders = [graph_mode.placeholder(a.dtype, (None,) + a.shape[1:])
                           for a in flat]
            inputs = nest.pack_sequence_as(data, holders)
            _build_model(self._model, self._graph, inputs)

            def build():
                return self._step(inputs)

            if self._kind == "train":
                _build_optimizer(self._model, self._graph)
            outputs, ops = _build(self._graph, build)
            if self._kind == "train":
                _collect_optimizer_variables(self._model, self._graph)
            built = self._built[key] = (holders, outputs, ops)
            initialize(self._model, self._graph)
        holders, outputs, ops = built
        results = _run(outputs, ops, dict(zip(holders, flat)))
        if self._losses:
            results, self.batch_losses = results
        return results


def step(model, kind, step_fn):
    """The model's `kind` step (``"train"``, ``"test"``, ``"predict"``) as a `SessionStep`
    of its loop's graph."""
    steps = model.__dict__.setdefault("_session_steps", {})
    graph = graph_of(model)
    if (kind, id(graph)) not in steps:
        run = model._on_replicas(step_fn)
        if kind in ("train", "test"):  # (TF 1's loop logs each batch's own losses)
            step_fn = run

            def run(data):
                compiled = model.compiled_loss
                compiled.batch_values = {}
                logs = step_fn(data)
                return logs, dict(compiled.batch_values)
        # (as a traced function, which runs its updates and reads in program order)
        steps[kind, id(graph)] = SessionStep(model, function(run, autograph=True), graph, kind)
    return steps[kind, id(graph)]


def _build(graph, build):
    """What `build()` returns, built into `graph`, and the operations it added there
    (run with it: a step's updates)."""
    with graph.as_default():
        first = len(graph.get_operations())
        outputs = build()
    return outputs, graph.get_operations()[first:]


def forget(model):
    """Drops the steps and runs built for `model` in sessions so far (`compile` again: its
    loss, metrics and optimizer are new)."""
    model.__dict__.pop("_session_steps", None)
    model.__dict__.pop("_session_built", None)


def collect_trainable(model):
    """At `compile` in TF 1's graph mode: keeps the variables trainable then, which its train
    steps update (as TF 1's Keras collects them at compile: a model frozen afterwards, a
    GAN's discriminator inside the combined model, still trains on its own)."""
    collected = list(model.trainable_variables) if backend.building_v1_graph() and \
        model.built else None
    object.__setattr__(model, "_compiled_trainable", collected)


def note_compile(model):
    """At `compile`: the TF 1 graph `model` is compiled in (None outside TF 1's graph mode; see
    `compile_utils.compiled_names` and `compile_utils.total_loss`)."""
    object.__setattr__(model, "_compiled_in_v1_graph", graph_mode.v1_graph())
    model.__dict__.pop("_v1_total_loss", None)


def trained_variables(model):
    """The variables `model`'s train step updates (see `collect_trainable`)."""
    collected = model.__dict__.get("_compiled_trainable")
    return model.trainable_variables if collected is None else collected


def _build_model(model, graph, data):
    """Calls `model`, not built yet, on the inputs of `data` (a step's placeholders) in
    `graph`, as TF 1's Keras does before its first step: its weights are variables of the
    graph, which the session holds (made inside the traced step, they would be eager ones,
    which a ``Saver`` or ``Session.run`` cannot take)."""
    if model.built:
        return
    x, _, _ = data_utils.unpack_x_y_sample_weight(data)
    with graph.as_default():
        model(x)


def _build_optimizer(model, graph):
    """Makes the variables of `model`'s optimizer for its weights in `graph` (as TF 1's
    optimizer makes its slots there, in Keras's ``training`` name scope), before a step
    traced there uses them."""
    optimizer = getattr(model, "optimizer", None)
    build = getattr(optimizer, "build", None)
    weights = trained_variables(model) if model.built else []
    with graph.as_default():
        with context.name_scope("training"):
            make = getattr(optimizer, "_make_graph_variables", None)
            if make is not None and weights:
                make([(None, w) for w in weights])
            elif build is not None and weights:
                build(weights)
        with context.name_scope("training"):
            pass  # (TF 1's Keras opens it again for its training function: training_1)


def optimizer_variables(model):
    """At `compile`: the variables of `model`'s optimizer, kept out of the TF 1 graph's
    collections (as TF 1's Keras leaves them out until it trains, under other names)."""
    if _made_when_used(model):
        return []  # (made in the graph when first used: TF 1's Keras collects them)
    return [backend.out_of_collections(v) for v in _optimizer_variables(model)]


def _made_when_used(model):
    """Whether `model`'s optimizer makes its variables in the TF 1 graph when first used, as
    TF's legacy optimizers do there."""
    return bool(getattr(getattr(model, "optimizer", None), "_made_when_used", False))


def _optimizer_variables(model):
    """The optimizer's variables (and, once made in a TF 1 graph, its hyperparameters')."""
    optimizer = getattr(model, "optimizer", None)
    if optimizer is None or not hasattr(optimizer, "variables"):
        return []
    hypers = getattr(optimizer, "_graph_hypers", None) or []
    return list(optimizer.variables() if callable(optimizer.variables)
                else optimizer.variables) + list(hypers)


def _collect_optimizer_variables(model, graph):
    """Once `model` has a train step in `graph`: its optimizer's variables (steps, learning
    rate, slots) join the graph's global variables, as TF 1's Keras makes them there when it
    builds its training function (a ``Saver()`` made afterwards saves them too)."""
    optimizer = getattr(model, "optimizer", None)
    if optimizer is None or _made_when_used(model):  # (the latter: made there, in order)
        return
    v1 = getattr(optimizer, "optimizer", None)  # (a TF 1 optimizer, wrapped)
    if hasattr(v1, "_made"):
        variables = [v for _, v in v1._made]
    else:
        variables = _optimizer_variables(model)
        rate = getattr(optimizer, "_learning_rate", None)
        if isinstance(rate, Variable):
            variables.insert(1 if variables else 0, rate)
    variables = [v for v in variables if getattr(v, "graph", None) is graph]
    ids = {id(v) for v in variables}
    kept = graph.get_collection_ref(graph_mode.GraphKeys.GLOBAL_VARIABLES)
    kept[:] = [v for v in kept if id(v) not in ids] + variables  # (in the optimizer's order)


def initialize(model, graph):
    """Runs the initializers of the variables of `graph` (and `model`'s, its optimizer's)
    that the Keras session has no value for yet."""
    variables = list(model.variables) + _optimizer_variables(model)
    session_mod.initialize_variables(_session(), variables)


def run_built(model, name, build):
    """The value of what `build()` makes in the model's graph, built once under `name` for
    the metrics the model has then (compiled metrics appear at the first step)."""
    graph = graph_of(model)
    cache = model.__dict__.setdefault("_session_built", {})
    key = (name, id(graph), tuple(id(v) for m in model.metrics for v in m.variables))
    if key not in cache:
        cache[key] = _build(graph, build)
        initialize(model, graph)
    return _run(*cache[key])


def _run(outputs, ops, feed_dict=None):
    """`outputs`' values, running `ops` in the same session run."""
    if outputs is None:
        _session().run(ops, feed_dict=feed_dict)
        return None
    return _session().run((outputs, ops), feed_dict=feed_dict)[0]

"""``tf.contrib.eager`` (the eager guide's ``tfe``) kept as a thin deprecated layer.

TF 1.x's eager helpers, each mapped on its TF 2 replacement; the first use of
each logs one deprecation note (``tf.get_logger()``) naming that replacement.

>>> import eagerflow.contrib.eager as tfe
>>> grad = tfe.gradients_function(lambda x: x * x)
>>> grad(3.0)
[<tf.Tensor: shape=(), dtype=float32, numpy=6.0>]
"""
import sys

from eagerflow._src import backend
from eagerflow._src.backend import log as _log
from eagerflow._src.autodiff import eager_compat, script_ops
from eagerflow._src.autodiff.tape import GradientTape
from eagerflow._src.backend.api_export import export
from eagerflow._src.checkpoint import checkpoint as _checkpoint
from eagerflow._src.compat import contrib_summary, graph_mode, saver, variable_scope
from eagerflow._src.core import context
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import variables as _variables
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.function import polymorphic_function
from eagerflow._src.keras.engine import training
from eagerflow._src.keras.metrics import accuracy_metrics, base_metric
from eagerflow._src.summary import writer as _writer

_noted = set()


def _deprecated(name, replacement):
    """Logs, once per process, that ``tf.contrib.eager.<name>`` gives way to `replacement`."""
    if name not in _noted:
        _noted.add(name)
        _log.logger.warning(
            "tf.contrib.eager.%s is deprecated and removed in TF 2. "
            "Instructions for updating: use %s instead.", name, replacement)


def _gradients(name, f, params):
    def decorated(*args, **kwargs):
        dy = kwargs.pop("dy", None)
        args = [convert_to_tensor(a) if not isinstance(a, _variables.Variable) else a
                for a in args]
        wanted = range(len(args)) if params is None else params
        with GradientTape(persistent=False) as tape:
            sources = []
            for i in wanted:
                if i >= len(args):
                    raise ValueError(f"{name}: parameter index {i} is out of range for "
                                     f"a call with {len(args)} arguments")
                tape.watch(args[i])
                sources.append(args[i])
            value = f(*args, **kwargs)
        if value is None:
            raise ValueError(f"{name}: the function returned None; it must return a tensor "
                             f"to differentiate")
        if dy is not None and not isinstance(value, (list, tuple, dict)):
            dy = convert_to_tensor(dy, dtype=convert_to_tensor(value).dtype)  # one array
        grads = tape.gradient(value, sources, output_gradients=dy)
        return value, list(grads)
    return decorated


@export("contrib.eager.gradients_function")
def gradients_function(f, params=None):
    """A function returning the gradients of `f` with respect to its arguments (those whose
    indices `params` lists; all by default), as a list.

    >>> import eagerflow.contrib.eager as tfe
    >>> tfe.gradients_function(lambda x, y: x * y, params=[1])(3.0, 2.0)
    [<tf.Tensor: shape=(), dtype=float32, numpy=3.0>]
    """
    _deprecated("gradients_function", "tf.GradientTape")
    both = _gradients("gradients_function", f, params)

    def decorated(*args, **kwargs):
        return both(*args, **kwargs)[1]
    return decorated


@export("contrib.eager.value_and_gradients_function")
def value_and_gradients_function(f, params=None):
    """Like `gradients_function`, returning ``(f's value, gradients)``.

    >>> import eagerflow.contrib.eager as tfe
    >>> value, grads = tfe.value_and_gradients_function(lambda x: x * x)(3.0)
    >>> float(value), [float(g) for g in grads]
    (9.0, [6.0])
    """
    _deprecated("value_and_gradients_function", "tf.GradientTape")
    return _gradients("value_and_gradients_function", f, params)


@export("contrib.eager.implicit_value_and_gradients")
def implicit_value_and_gradients(f):
    """A function returning ``(f's value, [(gradient, variable), ...])`` over the trainable
    variables `f` used; ValueError when it used none.

    >>> import eagerflow.contrib.eager as tfe
    >>> v = tf.Variable(2.0)
    >>> value, [(g, var)] = tfe.implicit_value_and_gradients(lambda x: v * x)(3.0)
    >>> float(value), float(g), var is v
    (6.0, 3.0, True)
    """
    _deprecated("implicit_value_and_gradients", "tf.GradientTape")
    return eager_compat.implicit_value_and_gradients(f)


@export("contrib.eager.implicit_gradients")
def implicit_gradients(f):
    """Like `implicit_value_and_gradients`, returning only ``[(gradient, variable), ...]``."""
    _deprecated("implicit_gradients", "tf.GradientTape")
    both = eager_compat.implicit_value_and_gradients(f)

    def decorated(*args, **kwargs):
        return both(*args, **kwargs)[1]
    return decorated


@export("contrib.eager.Variable")
class Variable(variable_scope.GraphVariable):
    """``tf.Variable``; in a TF 1 graph, a graph variable (``tf.compat.v1.Variable``) that
    joins the graph's collections, as TF 1's resource variables did."""

    def __init__(self, *args, **kwargs):
        _deprecated("Variable", "tf.Variable")
        super().__init__(*args, **kwargs)


@export("contrib.eager.Checkpoint")
class Checkpoint(_checkpoint.Checkpoint):
    """``tf.train.Checkpoint``."""

    def __init__(self, *args, **kwargs):
        _deprecated("Checkpoint", "tf.train.Checkpoint")
        super().__init__(*args, **kwargs)


class _Summarized:
    """TF 1's metrics: named after their class and of float64 by default; `result` also
    writes the value as the scalar summary named after the metric when a default summary
    writer records."""

    _updating = False

    def __init__(self, name=None, dtype=_d.float64, **kwargs):
        super().__init__(name=name or type(self).__name__, dtype=dtype, **kwargs)

    def init_variables(self):
        """Sets the state back to its start (TF 1's; `reset_state` replaces it)."""
        self.reset_state()

    def __call__(self, *args, **kwargs):
        # (an update returns the result without writing it: only `result()` writes)
        self._updating = True
        try:
            return super().__call__(*args, **kwargs)
        finally:
            self._updating = False

    def result(self, write_summary=True):
        value = super().result()
        if write_summary and not self._updating and _writer.state.writer is not None:
            contrib_summary.scalar(self.name, value)
        return value


@export("contrib.eager.metrics.Mean")
class Mean(_Summarized, base_metric.Mean):
    """``tf.keras.metrics.Mean``: ``m(values)`` accumulates, ``m.result()`` is the mean.

    >>> import eagerflow.contrib.eager as tfe
    >>> m = tfe.metrics.Mean()
    >>> _ = m([1.0, 3.0])
    >>> float(m.result())
    2.0
    """

    def __init__(self, *args, **kwargs):
        _deprecated("metrics.Mean", "tf.keras.metrics.Mean")
        super().__init__(*args, **kwargs)


@export("contrib.eager.metrics.Accuracy")
class Accuracy(_Summarized, accuracy_metrics.Accuracy):
    """``tf.keras.metrics.Accuracy``: ``m(labels, predictions)``, then ``m.result()``."""

    def __init__(self, *args, **kwargs):
        _deprecated("metrics.Accuracy", "tf.keras.metrics.Accuracy")
        super().__init__(*args, **kwargs)


@export("contrib.eager.Iterator")
def Iterator(dataset):  # noqa: N802 (TF 1's class name)
    """An iterator over `dataset` (``iter(dataset)``)."""
    _deprecated("Iterator", "iter(dataset)")
    return iter(dataset)


@export("contrib.eager.defun")
def defun(func=None, input_signature=None, autograph=False):
    """``tf.function`` (TF 1's ``defun`` did not convert Python control flow by default)."""
    _deprecated("defun", "tf.function")
    return polymorphic_function.function(func, input_signature=input_signature,
                                         autograph=autograph)


@export("contrib.eager.py_func")
def py_func(func, inp, Tout, name=None):  # noqa: N803 (TF's argument name)
    """``tf.py_function``."""
    _deprecated("py_func", "tf.py_function")
    return script_ops.py_function(func, inp, Tout, name=name)


@export("contrib.eager.num_gpus")
def num_gpus():
    """The number of GPUs eagerflow can use (those CuPy finds; 0 without CuPy)."""
    _deprecated("num_gpus", "len(tf.config.list_physical_devices('GPU'))")
    return len(backend.list_devices("GPU"))


@export("contrib.eager.executing_eagerly")
def executing_eagerly():
    """``tf.executing_eagerly``."""
    _deprecated("executing_eagerly", "tf.executing_eagerly")
    return context.executing_eagerly()


@export("contrib.eager.enable_eager_execution")
def enable_eager_execution(config=None, device_policy=None, execution_mode=None):
    """Turns eager execution on (TF 2 executes eagerly already)."""
    _deprecated("enable_eager_execution", "nothing (TF 2 executes eagerly)")
    return graph_mode.enable_eager_execution(config, device_policy, execution_mode)


@export("contrib.eager.Network")
class Network(training.Model):
    """TF 1's ``tfe.Network``: a Keras `Model` whose layers its `__init__` keeps as
    attributes, through `track_layer`.

    >>> import eagerflow.contrib.eager as tfe
    >>> class Net(tfe.Network):
    ...     def __init__(self):
    ...         super().__init__()
    ...         self.dense = self.track_layer(tf.keras.layers.Dense(2, use_bias=False))
    ...     def call(self, x):
    ...         return self.dense(x)
    >>> net = Net()
    >>> net(tf.ones([1, 3])).shape, [v.shape.as_list() for v in net.variables]
    (TensorShape([1, 2]), [[3, 2]])
    """

    def __init__(self, name=None):
        _deprecated("Network", "tf.keras.Model")
        super().__init__(name=name)

    def track_layer(self, layer):
        """Returns `layer`, which the network tracks once kept in one of its attributes."""
        return layer


@export("contrib.eager.in_eager_mode")
def in_eager_mode():
    """``tf.executing_eagerly``."""
    _deprecated("in_eager_mode", "tf.executing_eagerly")
    return context.executing_eagerly()


@export("contrib.eager.Saver")
class Saver(saver.Saver):
    """TF 1's saver of variables by name for eager programs: ``Saver(var_list)``, then
    ``save(file_prefix, global_step=None)`` (the path written) and ``restore(file_prefix)``.

    >>> import os, tempfile, eagerflow.contrib.eager as tfe
    >>> x = tf.Variable(2.0, name="x")
    >>> saver = tfe.Saver([x])
    >>> path = saver.save(os.path.join(tempfile.mkdtemp(), "ckpt"))
    >>> _ = x.assign(11.0)
    >>> saver.restore(path)
    >>> float(x)
    2.0
    """

    def __init__(self, var_list):
        _deprecated("Saver", "tf.train.Checkpoint")
        super().__init__(var_list)

    def save(self, file_prefix, global_step=None):  # noqa: D102
        return super().save(None, file_prefix, global_step=global_step)

    def restore(self, file_prefix):  # noqa: D102
        super().restore(None, file_prefix)


# TF 2's objects under the names TF 1's ``tfe`` gave them.
for _name, _module, _attribute in (
        ("custom_gradient", "eagerflow._src.autodiff.custom_gradient", "custom_gradient"),
        ("GradientTape", "eagerflow._src.autodiff.tape", "GradientTape"),
        ("TensorSpec", "eagerflow._src.core.tensor_spec", "TensorSpec")):
    export(f"contrib.eager.{_name}").export_constant(_module, _attribute)


@export("contrib.eager.run")
def run(main=None, argv=None):
    """Runs ``main(argv)`` (``__main__.main`` by default) and exits with its result, as
    ``tf.compat.v1.app.run``."""
    _deprecated("run", "absl.app.run")
    main = main or sys.modules["__main__"].main
    sys.exit(main(sys.argv if argv is None else argv))



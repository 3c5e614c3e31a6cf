"""`tf.train.ExponentialMovingAverage`: shadow variables that follow other variables.

>>> w = tf.Variable([1.0, 2.0], name="w")
>>> ema = tf.train.ExponentialMovingAverage(decay=0.9)
>>> ema.apply([w])
>>> _ = w.assign([2.0, 4.0])
>>> ema.apply([w])
>>> ema.average(w)
<tf.Variable 'w/ExponentialMovingAverage:0' shape=(2,) dtype=float32, numpy=array([1.1, 2.2], dtype=float32)>
"""
from eagerflow._src.backend.api_export import export
from eagerflow._src.compat import graph_mode, variable_scope
from eagerflow._src.core import context, dtypes
from eagerflow._src.core.tensor import Tensor
from eagerflow._src.core.variables import Variable
from eagerflow._src.ops import cast_ops, math_ops

_FLOAT_TYPES = (dtypes.bfloat16, dtypes.float16, dtypes.float32, dtypes.float64)


def _base_name(var):
    return var.name[:-2] if var.name.endswith(":0") else var.name


@export("train.ExponentialMovingAverage", "compat.v1.train.ExponentialMovingAverage")
class ExponentialMovingAverage:
    """Keeps a moving average of variables: ``shadow -= (shadow - var) * (1 - decay)`` at
    each `apply`.

    With `num_updates` (a step count), the decay is ``min(decay, (1 + num_updates) /
    (10 + num_updates))``, so early averages move faster. Each shadow variable is named
    after its variable: ``<var name>/<name>``, as TF 1 checkpoints hold it.
    """

    def __init__(self, decay, num_updates=None, zero_debias=False,
                 name="ExponentialMovingAverage"):
        self._decay = decay
        self._num_updates = num_updates
        self._zero_debias = zero_debias  # (TF debiases only averages of tensors)
        self._name = name
        self._averages = {}  # id(var) -> (var, shadow variable)

    @property
    def name(self):
        return self._name

    def apply(self, var_list=None):
        """Creates shadow variables for the new ones of `var_list` (by default the
        trainable variables), then moves each shadow toward its variable.

        Returns None eagerly, the grouped update op while a graph is built.
        """
        if var_list is None:
            var_list = variable_scope.trainable_variables()
        for var in var_list:
            if isinstance(var, Tensor) and not isinstance(var, Variable):
                raise TypeError("tf.train.ExponentialMovingAverage does not support "
                                "non-Variable tensors when eager execution is enabled.")
        for var in var_list:
            if var.dtype.base_dtype not in _FLOAT_TYPES:
                raise TypeError(f"The variables must be half, float, or double: {var.name}")
            if id(var) not in self._averages:
                with context.lifting_scope():  # (in a TF 1 graph: into it, as TF's)
                    # (there, the variable's initial value in a run that has not
                    # initialized it yet, as TF's shadow starts)
                    initial = (var.initialized_value() if graph_mode.v1_graph() is not None
                               and hasattr(var, "initialized_value") else var.read_value())
                    shadow = Variable(initial, trainable=False,
                                      name=f"{_base_name(var)}/{self._name}")
                graph_mode.add_to_collection(graph_mode.GraphKeys.MOVING_AVERAGE_VARIABLES,
                                             var)
                self._averages[id(var)] = (var, shadow)
        with context.name_scope(self._name) as scope:
            decay = cast_ops.cast(self._decay, dtypes.float32)
            if self._num_updates is not None:
                num_updates = cast_ops.cast(self._num_updates, dtypes.float32)
                decay = math_ops.minimum(decay, (1.0 + num_updates) / (10.0 + num_updates))
            updates = []
            for var in var_list:
                shadow = self._averages[id(var)][1]
                rate = cast_ops.cast(1.0 - decay, shadow.dtype)
                updates.append(shadow.assign_sub((shadow - var) * rate))
            return graph_mode.group(*updates, name=scope)  # (named as the scope, as TF's)

    def average(self, var):
        """The shadow variable of `var`, or None if `apply` has not seen it."""
        entry = self._averages.get(id(var))
        return None if entry is None else entry[1]

    def average_name(self, var):
        """The name of the shadow variable of `var` (what it is saved under)."""
        entry = self._averages.get(id(var))
        if entry is not None:
            return _base_name(entry[1])
        return f"{_base_name(var)}/{self._name}"

    def variables_to_restore(self, moving_avg_variables=None):
        """Names to variables for restoring the averages into the variables (a TF 1
        `Saver`'s `var_list`): each averaged variable under its shadow's name, the other
        global variables under their own."""
        if moving_avg_variables is None:
            moving_avg_variables = variable_scope.trainable_variables() + graph_mode.get_collection(
                graph_mode.GraphKeys.MOVING_AVERAGE_VARIABLES)
        unique = list({id(v): v for v in moving_avg_variables}.values())
        name_map = {self.average_name(v): v for v in unique}
        averaged = {v.name for v in unique}
        for v in variable_scope.global_variables():
            if v.name not in averaged and _base_name(v) not in name_map:
                name_map[_base_name(v)] = v
        return name_map

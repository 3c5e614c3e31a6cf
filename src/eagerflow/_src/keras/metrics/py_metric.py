"""`PyMetric`: a metric whose state lives in Python, updated and read outside the graph.

A subclass writes `update_state`, `result` and `reset_state` in plain Python (NumPy,
scikit-learn, ...); inside a traced training step they run as `tf.py_function`s, on eager
tensors. `reset_state` also runs at construction, to make the state.

>>> class Count(tf.keras.metrics.experimental.PyMetric):
...     def update_state(self, y_true, y_pred, sample_weight=None):
...         self.count += int(tf.size(y_true))
...     def reset_state(self):
...         self.count = 0
...     def result(self):
...         return self.count
>>> metric = Count()
>>> _ = metric.update_state([1, 2], [1, 2])
>>> float(metric.result())
2.0
"""
import functools

from eagerflow._src.autodiff import script_ops
from eagerflow._src.backend.api_export import export
from eagerflow._src.keras.metrics.base_metric import Metric


@export("keras.metrics.experimental.PyMetric")
class PyMetric(Metric):
    """A metric computed in Python: subclasses implement `update_state`, `result` (one
    scalar) and `reset_state`, which run eagerly even within a traced step."""

    def __init__(self, name=None, dtype=None, **kwargs):
        super().__init__(name=name, dtype=dtype, **kwargs)
        self.reset_state()

    def __init_subclass__(cls, **kwargs):
        # (not Metric's: the methods run in Python, never converted by AutoGraph)
        super(Metric, cls).__init_subclass__(**kwargs)
        if "update_state" in cls.__dict__:
            cls.update_state = _outside_the_graph(cls.__dict__["update_state"])
        if "result" in cls.__dict__:
            cls.result = _result_outside_the_graph(cls.__dict__["result"])

    def update_state(self, y_true, y_pred, sample_weight=None):
        raise NotImplementedError("Subclasses should implement `update_state`")

    def merge_state(self, metrics):
        raise NotImplementedError("Subclasses should implement `merge_state`")

    def reset_state(self):
        raise NotImplementedError("Subclasses should implement `reset_state`")

    def result(self):
        raise NotImplementedError("Subclasses should implement `result`")


def _outside_the_graph(update_state):
    @functools.wraps(update_state)
    def wrapper(self, y_true, y_pred, sample_weight=None):
        inputs = [y_true, y_pred] + ([] if sample_weight is None else [sample_weight])
        return script_ops.py_function(lambda *values: update_state(self, *values), inputs,
                                      Tout=[])
    return wrapper


def _result_outside_the_graph(result):
    @functools.wraps(result)
    def wrapper(self):
        return script_ops.py_function(lambda: result(self), [], Tout=self.dtype)
    return wrapper

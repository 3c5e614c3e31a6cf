"""``tf.compat.v1.keras.utils.track_tf1_style_variables``: TF 1 model code (`get_variable`,
``tf.compat.v1.layers``, `make_template`) run as the forward pass of a Keras layer or a
`tf.Module`, as the "Use TF1.x models in TF2 workflows" guide runs it.

The decorated method keeps the variables `get_variable` makes in a store of
its object (``_tf1_style_var_store``, a `tf.Module`): named by their variable
scopes as in TF 1 (``dense/kernel:0``), made on the first call and reused by
every later one, tracked for checkpoints under
``_tf1_style_var_store/_vars/<name>``. A layer also takes the regularization
losses of the variables made with a regularizer.

>>> class Scale(tf.keras.layers.Layer):
...     @tf.compat.v1.keras.utils.track_tf1_style_variables
...     def call(self, x):
...         with tf.compat.v1.variable_scope("scale"):
...             w = tf.compat.v1.get_variable(
...                 "w", [], initializer=tf.compat.v1.constant_initializer(2.0),
...                 regularizer=lambda v: 0.5 * v)
...         return x * w
>>> layer = Scale()
>>> float(layer(tf.constant(3.0))), float(layer(tf.constant(1.0)))
(6.0, 2.0)
>>> [v.name for v in layer.weights], [float(loss) for loss in layer.losses]
(['scale/w:0'], [1.0])
"""
import functools
from unittest import mock

from eagerflow._src.backend.api_export import export
from eagerflow._src.compat import variable_scope as vs
from eagerflow._src.core import context
from eagerflow._src.core.module import Module
from eagerflow._src.keras.engine import base_layer
from eagerflow._src.ops import random_ops, reduction_ops


class _EagerVariableStore(Module):
    """The variables (``_vars``, by full name), the regularizers of the regularized ones
    and the layers (`get_or_create_layer`) of a ``track_tf1_style_variables`` method."""

    _UNTRACKED_ATTRIBUTES = frozenset(("_regularizers",))

    def __init__(self):
        super().__init__()
        self._vars = {}
        self._regularizers = {}  # name -> a function of no arguments giving the loss
        self._layers = {}

    def scope(self):
        """The block in which `get_variable` uses this store."""
        return vs.shim_variable_store(self)

    def add_regularizer(self, var, regularizer):
        self._regularizers[var.name] = functools.partial(regularizer, var)

    def get_or_create_layer(self, name, create_layer_method):
        if name not in self._layers:
            layer = create_layer_method()
            self._layers[name] = layer
            if isinstance(layer, base_layer.Layer):
                self._regularizers[name] = lambda: reduction_ops.reduce_sum(layer.losses)
        return self._layers[name]


@export("compat.v1.keras.utils.track_tf1_style_variables")
def track_tf1_style_variables(method):
    """Decorates a method of a `tf.Module`, Keras layer or model so that the variables
    `get_variable` makes in it (directly, through ``tf.compat.v1.layers`` or a template)
    are its object's, made once and reused by later calls; on a layer, the regularization
    losses of those variables become the layer's losses."""

    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        store = getattr(self, "_tf1_style_var_store", None)
        if store is None:
            if not isinstance(self, Module):
                raise ValueError(
                    f"`@tf.compat.v1.keras.utils.track_tf1_layers_and_variables` must be "
                    f"applied to a method of a subclassed `tf.Module`, "
                    f"`tf.keras.layers.Layer`, or `tf.keras.Model` and which takes `self` as "
                    f"the first argument. But, the first argument passed to the decorated "
                    f"method was {self}, which does not extend Module, Layer, or Model.")
            store = _EagerVariableStore()
            self._tf1_style_var_store = store
        known = set(store._regularizers)
        with store.scope():
            out = method(self, *args, **kwargs)
        if isinstance(self, base_layer.Layer):
            for name, regularizer in list(store._regularizers.items()):
                if name not in known:
                    self.add_loss(regularizer)
        return out
    return wrapper


@export("compat.v1.keras.utils.get_or_create_layer")
def get_or_create_layer(name, create_layer_method):
    """The layer `create_layer_method()` made on the first call of the
    ``track_tf1_style_variables`` method running with this `name` (in its variable
    scope), kept and tracked by the method's store; its losses are the object's too."""
    store = vs.shim_store()
    if store is None:
        if not context.executing_eagerly():
            return create_layer_method()
        raise ValueError("Tried to call get_or_create_layer in eager mode from a method "
                         "notdecorated with @tf.compat.v1.keras.utils.track_tf1_style_variables.")
    return store.get_or_create_layer(f"{vs.get_variable_scope().name}/{name}",
                                     create_layer_method)


@export("compat.v1.keras.utils.DeterministicRandomTestTool")
class DeterministicRandomTestTool:
    """Makes the random ops run in `scope` draw the same numbers in two programs that make
    them in the same order (a model in TF 1 style and its migrated version).

    ``mode='constant'``: every random op uses the operation seed 0 (so ops of one shape
    draw the same numbers); ``'num_random_ops'``: the ops take the operation seeds 0, 1,
    2, ... in order (`operation_seed`, which may be set, is the next one).

    >>> tool = tf.compat.v1.keras.utils.DeterministicRandomTestTool(mode="num_random_ops")
    >>> with tool.scope():
    ...     a = tf.random.uniform([2])
    >>> tool.operation_seed
    1
    """

    def __init__(self, seed: int = 42, mode="constant"):
        if mode not in {"constant", "num_random_ops"}:
            raise ValueError(f"Mode arg must be 'constant' or 'num_random_ops'. Got: {mode}")
        self._mode = mode
        self._seed = seed
        self.operation_seed = 0
        self._observed_seeds = set()

    def scope(self):
        """A block whose random ops take this tool's seeds (sets the global seed)."""
        random_ops.set_seed(self._seed)

        def get_seed(_):
            op_seed = self.operation_seed
            if self._mode == "constant":
                random_ops.set_seed(op_seed)
            else:
                if op_seed in self._observed_seeds:
                    raise ValueError(
                        f"This `DeterministicRandomTestTool` object is trying to re-use the "
                        f"already-used operation seed {op_seed}. It cannot guarantee random "
                        f"numbers will match between eager and sessions when an operation "
                        f"seed is reused. You most likely set `operation_seed` explicitly but "
                        f"used a value that caused the naturally-incrementing operation seed "
                        f"sequences to overlap with an already-used seed.")
                self._observed_seeds.add(op_seed)
                self.operation_seed += 1
            return self._seed, op_seed
        return mock.patch.object(random_ops, "get_seed", wraps=get_seed)

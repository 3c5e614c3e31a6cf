"""`Model`: a layer that trains: `compile`, `fit`, `evaluate`, `predict` and friends.

`fit` runs `train_step` on each batch; unless ``run_eagerly``, the step is
traced once by `function` into one optimized graph (forward pass, gradient,
optimizer update and metric updates), so a training step costs one call.

>>> import numpy as np
>>> model = tf.keras.Sequential(
...     [tf.keras.layers.Dense(1, input_shape=(2,), kernel_initializer="zeros")])
>>> model.compile(optimizer="sgd", loss="mse")
>>> history = model.fit(np.ones((8, 2)), np.ones((8, 1)), epochs=2, verbose=0)
>>> sorted(history.history)
['loss']
"""
import copy
import functools
import inspect
import itertools
import warnings
import weakref

import numpy as np

from eagerflow._src.autodiff.tape import GradientTape
from eagerflow._src.backend import log as _log
from eagerflow._src.backend import tracebacks
from eagerflow._src.backend.api_export import export
from eagerflow._src.checkpoint import trackable
from eagerflow._src.core import config as _config, context as _context, errors, nest
from eagerflow._src.core.dtypes import as_dtype
from eagerflow._src.core.module import leaves
from eagerflow._src.core.tensor import Tensor
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.core.variables import Variable
from eagerflow._src.function.polymorphic_function import Function, function
from eagerflow._src.graph.graph import Graph
from eagerflow._src.keras import backend
from eagerflow._src.keras import callbacks as callbacks_mod
from eagerflow._src.keras import late
from eagerflow._src.keras import optimizers
from eagerflow._src.keras.engine import compile_utils, data_adapter, session_steps
from eagerflow._src.keras.engine.base_layer import Layer, _unique, call_keeping_losses
from eagerflow._src.keras.mixed_precision.loss_scale_optimizer import LossScaleOptimizer
from eagerflow._src.keras.utils import layer_utils, serialization
from eagerflow._src.keras.utils.data_utils import unpack_x_y_sample_weight
from eagerflow._src.ops import sparse_ops
from eagerflow._src.ops.array_ops import concat
from eagerflow._src.ops.cast_ops import identity_n
from eagerflow._src.ops.sparse_tensor import SparseTensor
from eagerflow._src.ragged import ragged_ops
from eagerflow._src.ragged.ragged_tensor import RaggedTensor


_logger = _log.logger


def _build_call_arguments(call):
    """The arguments `Model.build` gives `call` besides its inputs, as Keras: ``training=False``
    for a `training` without default; any other argument without one cannot be given."""
    params = [p for p in list(inspect.signature(call).parameters.values())[1:]  # (no self)
              if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    if not params:
        raise ValueError("You can only call `build()` on a model if its `call()` method "
                         "accepts an `inputs` argument.")
    required = [p.name for p in params[1:] if p.default is p.empty]
    if any(name != "training" for name in required):
        raise ValueError(
            "Currently, you cannot build your model if it has positional or keyword arguments "
            "that are not inputs to the model, but are required for its `call()` method. "
            "Instead, in order to instantiate and build your model, `call()` your model on "
            "real tensor data with all expected call arguments. The argument for `call()` "
            "can be a single list/tuple that contains multiple inputs.")
    return {"training": False} if required else {}


def _compiled_trainable_state(method):
    """As tf_keras: `method` (`fit`, `train_on_batch`) runs with each layer's `trainable`
    as it was at `compile`; a change since takes effect at the next `compile`."""
    @functools.wraps(method)
    def wrapped(self, *args, **kwargs):
        compiled = self.__dict__.get("_compiled_trainable_state")
        current = {layer: layer.trainable for layer in self._flatten_layers()}
        if compiled is None or all(current.get(layer, trainable) == trainable
                                   for layer, trainable in compiled.items()):
            return method(self, *args, **kwargs)
        _set_trainable_state(current, compiled)
        try:
            return method(self, *args, **kwargs)
        finally:
            _set_trainable_state(current, current)
    return wrapped


def _set_trainable_state(layers, state):
    """Sets each of `layers` that `state` holds to its `trainable` there (each on its own:
    a model's setter would set its sub-layers too)."""
    for layer in layers:
        if layer in state:
            layer._trainable = state[layer]


_STEP_CODES = {}  # name ("train_function") -> the code of the models' functions so named


def _from_iterator(data):
    """A traced step's batch as TF's step functions take it from their iterator: its tensors
    are the outputs of one ``IteratorGetNext`` op (``IteratorGetNext:1``), as errors name them.
    """
    flat = nest.flatten(data)
    if not flat or _context.executing_eagerly() or \
            not all(isinstance(t, Tensor) for t in flat):
        return data
    return nest.pack_sequence_as(data, identity_n(flat, name="IteratorGetNext"))


def _compile_kwargs(steps_per_execution, experimental_steps_per_execution=None,
                    cloning=None, experimental_run_tf_function=None, distribute=None,
                    target_tensors=None, **kwargs):
    """`compile`'s steps per execution, given its legacy keyword arguments `kwargs`, which
    tf_keras ignores (``cloning``, ``sample_weight_mode``...), rejects or renamed."""
    del cloning, experimental_run_tf_function  # (TF 1's: never used)
    if distribute is not None:
        raise ValueError(f"`distribute` argument in compile is not available in TF 2.0. Please "
                         f"create the model under the `strategy.scope()`. Received: "
                         f"{distribute}.")
    if target_tensors is not None:
        raise ValueError(f"`target_tensors` argument is not supported when executing "
                         f"eagerly. Received: {target_tensors}.")
    invalid = set(kwargs) - {"sample_weight_mode"}
    if invalid:
        raise TypeError(f"Invalid keyword argument(s) in `compile()`: {(invalid,)}. Valid "
                        f'keyword arguments include "cloning", "experimental_run_tf_function", '
                        f'"distribute", "target_tensors", or "sample_weight_mode".')
    if experimental_steps_per_execution is not None:
        _logger.warning("The argument `steps_per_execution` is no longer experimental. Pass "
                        "`steps_per_execution` instead of `experimental_steps_per_execution`.")
        return steps_per_execution or experimental_steps_per_execution
    return steps_per_execution


@export("keras.Model", "keras.models.Model")
class Model(Layer):
    """A `Layer` with training: subclass it and write `call`, or build it functionally
    with ``Model(inputs, outputs)``."""

    _saved_model_identifier = ("_tf_keras_model", 1, 1)

    # The graph of a functional model is kept in plain lists and dicts, as in Keras.
    _UNTRACKED_ATTRIBUTES = Layer._UNTRACKED_ATTRIBUTES | frozenset((
        "inputs", "outputs", "input_names", "output_names", "_input_layers", "_nested_inputs",
        "_nested_outputs", "_steps", "_depths", "_nodes",
        # (the compiled steps, which a SavedModel leaves out as tf_keras does)
        "train_function", "test_function", "predict_function",
        # (what `compile` was given — its metrics are not the model's, as in Keras — and the
        # steps counter: no part of tf_keras's checkpoints)
        "_compile_arguments", "_steps_per_execution", "_autotune_steps_per_execution",
        "_train_counter", "_test_counter",
        "_predict_counter", "_compiled_trainable_state"))

    def __new__(cls, *args, **kwargs):
        if cls is Model and _functional_arguments(args, kwargs):
            Functional = late.engine.functional.Functional  # a Model subclass, defined later
            return Functional.__new__(Functional)
        return super().__new__(cls, *args, **kwargs)

    def __reduce__(self):
        """As tf_keras: a built model pickles as the bytes of its `.keras` archive
        (`saving.pickle_utils`); one not yet built as a plain Python object."""
        if self.built:
            utils = late.saving.pickle_utils
            return (utils.deserialize_model_from_bytecode,
                    (utils.serialize_model_as_bytecode(self),))
        return super().__reduce__()

    def __deepcopy__(self, memo):
        """As tf_keras: a built model is copied through its `.keras` archive; one not yet
        built attribute by attribute."""
        if self.built:
            utils = late.saving.pickle_utils
            new = utils.deserialize_model_from_bytecode(utils.serialize_model_as_bytecode(self))
            memo[id(self)] = new
            return new
        cls = type(self)
        new = memo[id(self)] = cls.__new__(cls)
        new.__dict__.update(copy.deepcopy(self.__dict__, memo))
        return new

    def call(self, inputs, training=None, mask=None):
        """A subclass's computation; the base has none (as tf_keras's)."""
        raise NotImplementedError(
            "Unimplemented `tf.keras.Model.call()`: if you intend to create a `Model` with the "
            "Functional API, please provide `inputs` and `outputs` arguments. Otherwise, "
            "subclass `Model` with an overridden `call()` method.")

    def __init__(self, *args, **kwargs):
        if _functional_arguments(args, kwargs):
            Functional = late.engine.functional.Functional  # a Model subclass, defined later
            if not isinstance(self, Functional):
                # A subclass of Model built from inputs and outputs: as in Keras, its
                # classes derive from Functional from now on.
                _derive_from(type(self), Functional)
                Functional.__init__(self, *args, **kwargs)
                return
        trainable = kwargs.pop("trainable", True)
        super().__init__(trainable=trainable, name=kwargs.pop("name", None), **kwargs)
        self._record_strategy()
        self.optimizer = None
        self.compiled_loss = self.compiled_metrics = None
        self.stop_training = False
        self.history = None
        self.train_function = self.test_function = self.predict_function = None
        self._run_eagerly = None
        self._jit_compile = None
        self._is_compiled = False
        # Both set without the layer's tracking, which would count the compiled metrics
        # twice and the variable among the model's weights.
        object.__setattr__(self, "_compile_arguments", None)
        object.__setattr__(self, "_steps_per_execution", None)
        self.inputs = self.outputs = None
        self.output_names = None  # (a functional model's output layers' names)

    # -- structure ------------------------------------------------------------------
    @property
    def layers(self):
        return self._direct_layers()

    # Keras lists a model's weights layer by layer (each layer's trainable weights, then its
    # others), the model's own last; `get_weights` and checkpoints follow this order.
    @property
    def trainable_weights(self):
        self._update_weights()
        if not self._trainable:
            return []
        return _unique([w for layer in self._direct_layers() for w in layer.trainable_weights]
                       + self._trainable_weights)

    @property
    def non_trainable_weights(self):
        self._update_weights()
        holders = self._weight_holders()
        fixed = [w for layer in holders for w in layer.non_trainable_weights]
        if not self._trainable:
            fixed = [w for layer in holders for w in layer.trainable_weights] + \
                self._trainable_weights + fixed
        return _unique(fixed + self._non_trainable_weights)

    @property
    def weights(self):
        self._update_weights()
        return _unique([w for group in self._weight_groups() for w in group]
                       + self._trainable_weights + self._non_trainable_weights)

    def _weight_groups(self):
        """The weights of each holder: a layer's (or metric's), or, for the layers a list,
        tuple or dict attribute holds, the trainable weights of them all, then their others
        (Keras tracks such a container as one object with weights)."""
        for key, value in vars(self).items():
            if key in self._UNTRACKED_ATTRIBUTES:
                continue
            found = [leaf for leaf in leaves(value) if isinstance(leaf, Layer) and leaf is not self]
            if not isinstance(value, (list, tuple, dict)) or key == "_self_tracked_layers":
                yield from (layer.weights for layer in found)
            elif found:
                yield [w for layer in found for w in layer.trainable_weights] + \
                    [w for layer in found for w in layer.non_trainable_weights]

    variables = weights
    trainable_variables = trainable_weights
    non_trainable_variables = non_trainable_weights

    def _direct_layers(self):
        return self._flatten_layers(include_self=False, recursive=False)

    def _weight_holders(self):
        """The layers and metrics whose weights are the model's: as in Keras, the metrics
        a model (not a plain layer) holds in attributes count among its weights."""
        return _unique(self._direct_sublayers(metrics=True))

    def _update_weights(self):
        """Checks that the weights exist, then tracks those put into containers since."""
        self._assert_weights_created()
        self._track_container_variables()

    def _assert_weights_created(self):
        # Only a model class that defines `build` itself is known to create weights there.
        if "build" in type(self).__dict__ and type(self) is not Model and not self.built \
                and not self.dynamic:
            raise ValueError(f"Weights for model '{self.name}' have not yet been created. "
                             f"Weights are created when the model is first called on inputs "
                             f"or `build()` is called with an `input_shape`.")

    def get_weight_paths(self):
        """``{path: variable}``: each variable by the first path that reaches it, breadth
        first through the checkpoint names, joined with dots (``'dense.kernel'``,
        ``'blocks.0.bias'``). A functional model starts each path at one of its layers,
        by that layer's name; deeper down, a nested model's layers are reached by their
        checkpoint names (``'inner.layer_with_weights-0.kernel'``).

        >>> model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(2,),
        ...                                                    name="out")])
        >>> list(model.get_weight_paths())
        ['out.kernel', 'out.bias']
        """
        if isinstance(self, late.engine.functional.Functional):
            found = {}
            for layer in self.layers:
                found.update(_weight_paths_below(layer, (layer.name,)))
            return found
        return _weight_paths_below(self, ())

    @property
    def state_updates(self):
        """Deprecated, as in TF 2: updates run when made; always empty."""
        warnings.warn("`Model.state_updates` will be removed in a future version. This "
                      "property should not be used in TensorFlow 2.0, as `updates` are "
                      "applied automatically.", stacklevel=2)
        return []

    @property
    def distribute_reduction_method(self):
        """How `fit` reduces a step's results across replicas (``'auto'`` unless set)."""
        return self.__dict__.get("_distribute_reduction_method") or "auto"

    @distribute_reduction_method.setter
    def distribute_reduction_method(self, value):
        object.__setattr__(self, "_distribute_reduction_method", value)

    def get_layer(self, name=None, index=None):
        """The layer called `name`, or at position `index` of `layers`."""
        if index is not None and name is not None:
            raise ValueError(f"Provide only a layer name or a layer index. Received: "
                             f"index={index}, name={name}.")
        if index is not None:
            if len(self.layers) <= index:
                raise ValueError(f"Was asked to retrieve layer at index {index} but model "
                                 f"only has {len(self.layers)} layers.")
            return self.layers[index]
        if name is None:
            raise ValueError("Provide either a layer name or layer index at `get_layer`.")
        for layer in self.layers:
            if layer.name == name:
                return layer
        raise ValueError(f"No such layer: {name}. Existing layers are: "
                         f"{[layer.name for layer in self.layers]}.")

    def build(self, input_shape):
        """Creates the weights by running `call` on placeholders of `input_shape` (again
        when built, as Keras: the shape given last is the model's build config)."""
        if input_shape is None:
            raise ValueError("Input shape must be defined when calling `build()` on a "
                             "`Model` subclass.")
        if not isinstance(input_shape, (tuple, list, TensorShape, dict)):
            raise ValueError(f"Specified input shape is not one of the valid types. Please "
                             f"specify a batch input shape of type tuple or list of input "
                             f"shapes. User provided input type: {type(input_shape)}.")
        kwargs = _build_call_arguments(type(self).call)
        graph = Graph("build_graph")
        dtype = as_dtype(backend.floatx())  # (as Keras's placeholders, whatever the policy)
        with graph.as_default():
            if isinstance(input_shape, dict):
                inputs = {k: graph.placeholder(dtype, TensorShape(s), k)
                          for k, s in input_shape.items()}
            elif isinstance(input_shape, list) and input_shape and \
                    not isinstance(input_shape[0], (int, type(None))):
                inputs = [graph.placeholder(dtype, TensorShape(s))
                          for s in input_shape]
            else:
                inputs = graph.placeholder(dtype, TensorShape(input_shape))
            try:
                self.call(inputs, **kwargs)
            except (errors.InvalidArgumentError, TypeError) as e:
                raise ValueError(
                    f"You cannot build your model by calling `build` if your layers do not "
                    f"support float type inputs. Instead, in order to instantiate and build "
                    f"your model, call your model on real tensor data (of the correct "
                    f"dtype).\n\nThe actual error from `call` is: {e}.") from None
        self._build_input_shape = input_shape
        self.built = True

    build._is_default = True  # a model builds by being called, unless build is overridden

    def call(self, inputs, training=None, mask=None):
        """The forward pass: a subclass defines it (a functional model has its graph's)."""
        raise NotImplementedError(
            "Unimplemented `tf.keras.Model.call()`: if you intend to create a `Model` with the "
            "Functional API, please provide `inputs` and `outputs` arguments. Otherwise, "
            "subclass `Model` with an overridden `call()` method.")

    def summary(self, line_length=None, positions=None, print_fn=None, expand_nested=False,
                show_trainable=False, layer_range=None):
        """Prints Keras's table of layers, output shapes and parameter counts."""
        if not self.built:
            raise ValueError("This model has not yet been built. Build the model first by "
                             "calling `build()` or by calling the model on a batch of data.")
        layer_utils.print_summary(self, line_length, positions, print_fn, show_trainable,
                                  expand_nested, layer_range)

    @property
    def metrics(self):
        """The loss tracker, compiled metrics, then metrics that layers added."""
        found = []
        if self._is_compiled:
            found += self.compiled_loss.metrics + self.compiled_metrics.metrics
        for layer in self._flatten_layers():
            found.extend(layer._metrics)
        return found

    @property
    def total_loss(self):
        """The loss tensor of a model compiled in TF 1's graph mode (`compile_utils.total_loss`);
        TF 2's Keras has none."""
        return compile_utils.total_loss(self)

    @property
    def metrics_names(self):
        compiled = compile_utils.compiled_names(self)  # (TF 1's graph mode: named at compile)
        return compiled if compiled is not None else [m.name for m in self.metrics]

    def _record_strategy(self):
        from eagerflow._src.distribute import strategy  # noqa: PLC0415
        if strategy.has_strategy():
            self.__dict__["_distribution_strategy"] = strategy.get_strategy()

    @property
    def run_eagerly(self):
        # unset (None), it follows tf.config.run_functions_eagerly, as in tf_keras
        return bool(self._run_eagerly) or self.dynamic or (
            self._run_eagerly is None and _config.functions_run_eagerly())

    @run_eagerly.setter
    def run_eagerly(self, value):
        self._run_eagerly = value

    @property
    def jit_compile(self):
        """The `jit_compile` that `compile` was given (None by default). XLA does not exist
        here: it is recorded, and the steps run as they would without it."""
        return self._jit_compile

    @jit_compile.setter
    def jit_compile(self, value):
        self._jit_compile = value

    @property
    def distribute_strategy(self):
        """The strategy whose `scope()` the model was created in (else the current one)."""
        from eagerflow._src.distribute import strategy  # noqa: PLC0415
        return self.__dict__.get("_distribution_strategy") or strategy.get_strategy()

    # -- compile ---------------------------------------------------------------------
    def compile(self, optimizer="rmsprop", loss=None, metrics=None, loss_weights=None,
                weighted_metrics=None, run_eagerly=None, steps_per_execution=None,
                jit_compile=None, pss_evaluation_shards=0, **kwargs):
        """Sets the optimizer, loss and metrics that `fit` and `evaluate` use."""
        per_execution = _compile_kwargs(steps_per_execution, **kwargs)
        from eagerflow._src.distribute import strategy  # noqa: PLC0415
        strategy.check_model_strategy(self, self.__dict__.get("_distribution_strategy"))
        # (a list of optimizers is kept as one: a model's own `train_step` gives each its part)
        self.optimizer = [self._get_optimizer(o) for o in optimizer] \
            if isinstance(optimizer, (list, tuple)) else self._get_optimizer(optimizer)
        session_steps.optimizer_variables(self)
        session_steps.collect_trainable(self)
        session_steps.note_compile(self)
        session_steps.forget(self)
        self.loss = loss or {}
        names = getattr(self, "output_names", None)
        self.compiled_loss = compile_utils.LossesContainer(loss, loss_weights, names)
        self.compiled_metrics = compile_utils.MetricsContainer(metrics, weighted_metrics, names)
        self._run_eagerly = run_eagerly
        self._jit_compile = jit_compile
        object.__setattr__(self, "_compile_arguments", dict(
            optimizer=optimizer, loss=loss, metrics=metrics, loss_weights=loss_weights,
            weighted_metrics=weighted_metrics, run_eagerly=run_eagerly,
            steps_per_execution=steps_per_execution, jit_compile=jit_compile))
        # Batches still run one at a time; the value is kept for callers that read it.
        # ("auto" asks tf_keras to tune it as training runs, from 1: running one batch a
        # call, there is nothing to tune here, and results are the same)
        autotune = isinstance(per_execution, str) and per_execution == "auto"
        object.__setattr__(self, "_autotune_steps_per_execution", autotune)
        object.__setattr__(self, "_steps_per_execution", backend.out_of_collections(
            Variable(1 if autotune else per_execution or 1, dtype="int64")))
        self._is_compiled = True
        self.stop_training = False
        self.train_function = self.test_function = self.predict_function = None
        # each layer's `trainable` now, which `fit` and `train_on_batch` train by
        object.__setattr__(self, "_compiled_trainable_state", weakref.WeakKeyDictionary(
            {layer: layer.trainable for layer in self._flatten_layers()}))

    def _get_optimizer(self, identifier):
        optimizer = optimizers.get(identifier)
        if isinstance(optimizer, str):  # (a config of a class unknown: its name, refused as
            optimizer = optimizers.get(optimizer)  # tf_keras's compile refuses that name)
        if self.dtype_policy.compute_dtype == "float16" and \
                not isinstance(optimizer, LossScaleOptimizer):
            # float16 gradients underflow without loss scaling (`minimize` then scales).
            optimizer = LossScaleOptimizer(optimizer)
        return optimizer

    @property
    def steps_per_execution(self):
        """The `steps_per_execution` given to `compile` (an int64 variable), or None."""
        return getattr(self, "_steps_per_execution", None)

    def _steps_per_execution_for(self, handler):
        """How many batches each call of a step function runs (the callbacks see one batch
        for each); more than one needs the number of batches known."""
        if self._steps_per_execution is None:
            per_execution = 1
        elif session_steps.graph_of(self) is not None:
            per_execution = int(session_steps.run_built(
                self, "steps_per_execution", self._steps_per_execution.read_value))
        else:
            per_execution = int(self._steps_per_execution.numpy())
        if per_execution > 1 and handler.inferred_steps is None:
            raise ValueError("Could not infer the size of the data. With "
                             "`steps_per_execution > 1`, you must specify the number of "
                             "steps to run.")
        return per_execution

    @steps_per_execution.setter
    def steps_per_execution(self, value):
        if self.steps_per_execution is None:
            object.__setattr__(self, "_steps_per_execution", Variable(value, dtype="int64"))
        else:
            self._steps_per_execution.assign(value)

    @property
    def autotune_steps_per_execution(self):
        """Whether `compile` was given ``steps_per_execution="auto"`` (False before)."""
        return getattr(self, "_autotune_steps_per_execution", False)

    @autotune_steps_per_execution.setter
    def autotune_steps_per_execution(self, value):
        object.__setattr__(self, "_autotune_steps_per_execution", value)

    def get_compile_config(self):
        """The arguments `compile` was called with, serialized; None before `compile`."""
        if getattr(self, "_compile_arguments", None) is None:
            return None
        return {key: late.saving.saving_lib._serialize(value)
                for key, value in self._compile_arguments.items()}

    def compile_from_config(self, config):
        """Compiles the model with the arguments of a `get_compile_config` dict (and builds
        its optimizer when the model is built). As tf_keras: a model whose class overrides
        `compile` (and not this) is left uncompiled, with a warning."""
        if type(self).compile is not Model.compile:
            _logger.warning(
                "`compile()` was not called as part of model loading because the model's "
                "`compile()` method is custom. All subclassed Models that have `compile()` "
                "overridden should also override `get_compile_config()` and "
                "`compile_from_config(config)`. Alternatively, you can call `compile()` "
                "manually after loading.")
            return
        arguments = dict(optimizer="rmsprop", loss=None, metrics=None, weighted_metrics=None)
        arguments.update(config)
        with serialization.archive_loading():  # (as Keras: a function or class it cannot
            arguments = late.saving.saving_lib._compile_arguments(arguments)  # find: TypeError)
        self.compile(**arguments)
        if self.built and isinstance(self.optimizer, optimizers.Optimizer):
            self.optimizer.build(self.trainable_variables)  # (its saved state is loaded next)

    def _assert_compile_was_called(self):
        if not self._is_compiled:
            raise RuntimeError("You must compile your model before training/testing. Use "
                               "`model.compile(optimizer, loss)`.")

    # -- steps -----------------------------------------------------------------------
    def compute_loss(self, x=None, y=None, y_pred=None, sample_weight=None):
        """The compiled loss of `y_pred` against `y`, plus the model's regularization losses."""
        return self.compiled_loss(y, y_pred, sample_weight, regularization_losses=self.losses)

    def compute_metrics(self, x, y, y_pred, sample_weight):
        """Updates the compiled metrics; returns every metric's result by name."""
        self.compiled_metrics.update_state(y, y_pred, sample_weight)
        return self.get_metrics_result()

    def get_metrics_result(self):
        if session_steps.running(self):
            return session_steps.run_built(self, "metrics_result", self._metrics_result)
        return self._metrics_result()

    def _metrics_result(self):
        results = {}
        for metric in self.metrics:
            result = metric.result()
            if isinstance(result, dict):
                results.update(result)
            else:
                results[metric.name] = result
        return results

    def train_step(self, data):
        """One optimization step on a batch: forward, loss, gradients, update, metrics."""
        x, y, sample_weight = unpack_x_y_sample_weight(data)
        with GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self.compute_loss(x, y, y_pred, sample_weight)
        self._validate_target_and_loss(y, loss)
        self.optimizer.minimize(loss, session_steps.trained_variables(self), tape=tape)
        return self.compute_metrics(x, y, y_pred, sample_weight)

    def _validate_target_and_loss(self, y, loss):
        if self.loss and y is None:
            raise ValueError("Target data is missing. Your model was compiled with loss="
                             f"{self.loss}, and therefore expects target data to be provided "
                             f"in `fit()`.")
        if loss is None:
            raise ValueError("No loss found. You may have forgotten to provide a `loss` "
                             "argument in the `compile()` method.")

    def test_step(self, data):
        """Evaluates a batch: forward, loss (for the loss metric) and metrics."""
        x, y, sample_weight = unpack_x_y_sample_weight(data)
        y_pred = self(x, training=False)
        self.compute_loss(x, y, y_pred, sample_weight)
        return self.compute_metrics(x, y, y_pred, sample_weight)

    def predict_step(self, data):
        x, _, _ = unpack_x_y_sample_weight(data)
        return self(x, training=False)

    def _compiled(self, step, name):
        """`step` as the function named `name` (``train_function``) that the loops call, as
        TF's: traced unless `run_eagerly` (its traces, errors and frames carry that name)."""
        if self.run_eagerly:
            return step

        def compiled(data):  # (the step runs as Python: a model's own is not converted)
            return step(_from_iterator(data))
        compiled.__name__ = name
        compiled.__qualname__ = f"Model.make_{name}.<locals>.{name}"  # (as tf_keras's)
        # one code for each name, as tf_keras's functions share theirs: the functions of
        # models made one after another count as one in TF's warning of frequent retracing
        code = _STEP_CODES.get(name)
        if code is None:
            code = _STEP_CODES[name] = compiled.__code__.replace(co_name=name,
                                                                 co_qualname=name)
        compiled.__code__ = code
        return function(compiled, reduce_retracing=True)

    def make_train_function(self, force=False):
        """`train_step` as the function `fit` calls per batch (traced unless `run_eagerly`)."""
        if session_steps.graph_of(self) is not None:
            return session_steps.step(self, "train", self.train_step)
        if self.train_function is None or force:
            self.train_function = self._compiled(self._on_replicas(self.train_step),
                                                 "train_function")
        return self.train_function

    def make_test_function(self, force=False):
        if session_steps.graph_of(self) is not None:
            return session_steps.step(self, "test", self.test_step)
        if self.test_function is None or force:
            self.test_function = self._compiled(self._on_replicas(self.test_step),
                                                "test_function")
        return self.test_function

    def make_predict_function(self, force=False):
        if session_steps.graph_of(self) is not None:
            return session_steps.step(self, "predict", self.predict_step)
        if self.predict_function is None or force:
            counter = self._counter("predict")

            def counted_step(data):
                # As TF's step: the count after the outputs, waiting on the first (which
                # keeps the ops that make it out of graph fusion, as TF's remapper does:
                # a final ReLU keeps NaN)
                outputs = self.predict_step(data)
                graph = _context.get().graph
                first = next((t for t in nest.flatten(outputs, expand_composites=True)
                              if not isinstance(t, Variable)), None)
                if graph is None or first is None:
                    counter.assign_add(1, read_value=False)
                else:
                    with graph.control_dependencies([first]):
                        counter.assign_add(1, read_value=False)
                return outputs
            self.predict_function = self._compiled(
                self._on_replicas(counted_step, concat=True), "predict_function")
        return self.predict_function

    def _on_replicas(self, step, concat=False):
        """`step` run by each replica of the model's strategy on its part of the batch."""
        from eagerflow._src.distribute import strategy  # noqa: PLC0415
        return strategy.replicated_step(self.distribute_strategy, step, concat,
                                        self.distribute_reduction_method)

    def _step_without_input(self):
        """What TF's traced training step still does when its input has run out: the
        optimizer's updates that wait on no gradient (its count of iterations among them)."""
        for optimizer in self.optimizer if isinstance(self.optimizer, list) else [self.optimizer]:
            step = getattr(optimizer, "_step_without_gradients", None)
            if step is not None:
                step(self.trainable_variables)
            elif getattr(optimizer, "iterations", None) is not None:
                optimizer.iterations.assign_add(1)

    def _counter(self, which):
        """The model's count of ``"train"``, ``"test"`` or ``"predict"`` steps run since
        that loop began (an int64 variable, made at first use, no weight of the model): as
        in Keras, the TensorBoard callback reads it as the step of the summaries written
        inside a step."""
        if session_steps.graph_of(self) is not None:
            return session_steps.Counter()
        name = f"_{which}_counter"
        counter = self.__dict__.get(name)
        if counter is None:
            counter = Variable(0, dtype="int64", trainable=False)
            object.__setattr__(self, name, counter)
        return counter

    def reset_metrics(self):
        if session_steps.running(self):
            session_steps.run_built(self, "reset_metrics", self._reset_metric_ops)
            return
        for metric in self.metrics:
            metric.reset_state()

    def _reset_metric_ops(self):
        for metric in self.metrics:
            metric.reset_state()

    # -- loops -----------------------------------------------------------------------
    @tracebacks.filtering
    @session_steps.in_session
    @_compiled_trainable_state
    def fit(self, x=None, y=None, batch_size=None, epochs=1, verbose="auto", callbacks=None,
            validation_split=0.0, validation_data=None, shuffle=True, class_weight=None,
            sample_weight=None, initial_epoch=0, steps_per_epoch=None, validation_steps=None,
            validation_batch_size=None, validation_freq=1, max_queue_size=10, workers=1,
            use_multiprocessing=False):
        """Trains for `epochs` epochs; returns the `History` of losses and metrics."""
        self._assert_compile_was_called()
        verbose = _verbosity(verbose)
        if validation_split and validation_data is None:
            (x, y, sample_weight), validation_data = data_adapter.train_validation_split(
                (x, y, sample_weight), validation_split)
        val_x = val_y = val_sw = None
        # (as tf_keras, by its truth: none for an empty tuple, and an array of several
        # elements fails as NumPy's does)
        validate = bool(validation_data)
        if validate:
            val_x, val_y, val_sw = unpack_x_y_sample_weight(validation_data)
        self._check_arrays(x, y)
        if validate:
            self._check_arrays(val_x, val_y)
        session_steps.check_shuffled(self, x, shuffle)
        handler = data_adapter.DataHandler(
            x, y, sample_weight, batch_size, steps_per_epoch, initial_epoch, epochs, shuffle,
            class_weight, max_queue_size, workers, model=self)
        per_execution = self._steps_per_execution_for(handler)
        if not isinstance(callbacks, callbacks_mod.CallbackList):  # (as Keras: taken as is)
            logger = session_steps.progbar_logger(self, x, val_x, handler.inferred_steps,
                                                  validation_steps) if verbose else None
            if logger is not None:  # (TF 1's loop, counting samples or steps)
                callbacks = (nest.flatten(callbacks) if callbacks else []) + [logger]
            params = session_steps.callback_params(
                self, x, batch_size, epochs, handler.inferred_steps, verbose, validate)
            callbacks = callbacks_mod.CallbackList(
                callbacks, add_history=True, add_progbar=verbose != 0, model=self, **params)
        self.stop_training = False
        train = self.make_train_function()
        counter = self._counter("train")
        counter.assign(0)
        callbacks.on_train_begin()
        resumed = self.__dict__.pop("_initial_epoch_from_backup", None)  # BackupAndRestore
        # (TF's: the first epoch then runs its steps after this one, on its first batches)
        initial_step = self.__dict__.pop("_initial_step_from_backup", 0)
        if resumed is not None:
            handler.initial_epoch = max(handler.initial_epoch, resumed)
        logs, epoch_logs, val_handler = None, {}, None
        for epoch in handler.enumerate_epochs():
            self.reset_metrics()
            losses = session_steps.EpochLosses(self, x)
            callbacks.on_epoch_begin(epoch)
            batches = handler.batches()
            if initial_step and handler.inferred_steps is not None:
                batches = itertools.islice(batches, max(handler.inferred_steps - initial_step, 0))
            next_step = initial_step
            for step, end_step, group in _executions(batches, per_execution, initial_step):
                next_step = end_step + 1
                callbacks.on_train_batch_begin(step, losses.begin_logs(group, step))
                for batch in group:
                    if step == initial_step and batch is group[0]:
                        _trace_for_every_batch(train, handler, batch)
                    logs = train(batch)
                    counter.assign_add(1, read_value=False)
                callbacks.on_train_batch_end(end_step, losses.batch_logs(logs, group, end_step,
                                                                          train))
                if self.stop_training:
                    break
            if handler.ran_past_end():
                # TF's step that met the end of the data began (its callbacks saw it) and
                # still ran the updates that wait on no input (an optimizer iteration,
                # sparse slots' decay), which the next steps see
                callbacks.on_train_batch_begin(next_step)
                if logs is not None:
                    self._step_without_input()
            if logs is None:  # no batch ever came
                raise ValueError("Unexpected result of `train_function` (Empty logs). This "
                                 "could be due to issues in input pipeline that resulted in "
                                 "an empty dataset. Otherwise, please check the "
                                 "implementation of your `train_step`.")
            # (as Keras: the metrics' results, which an epoch whose data ran out at once
            # leaves as reset)
            results = self.get_metrics_result()
            if isinstance(logs, dict) and set(logs) == set(results):
                logs = results
            initial_step = 0
            epoch_logs = losses.epoch_logs(_to_python(logs))
            if validate and _should_validate(epoch, validation_freq):
                if val_handler is None:
                    # As Keras: one for the whole fit, made at the first validation; once
                    # its data ran out, the later epochs validate on nothing.
                    val_handler = self._evaluation_handler(
                        val_x, val_y, val_sw, validation_batch_size or batch_size,
                        validation_steps, max_queue_size, workers)
                val_logs = self.evaluate(
                    val_x, val_y, sample_weight=val_sw,
                    batch_size=validation_batch_size or batch_size, steps=validation_steps,
                    callbacks=callbacks, verbose=0, return_dict=True, _in_fit=val_handler)
                epoch_logs.update({"val_" + k: v for k, v in val_logs.items()})
            callbacks.on_epoch_end(epoch, epoch_logs)
            if self.stop_training:
                break
        callbacks.on_train_end(epoch_logs)
        return self.history

    @tracebacks.filtering
    @session_steps.in_session
    def evaluate(self, x=None, y=None, batch_size=None, verbose="auto", sample_weight=None,
                 steps=None, callbacks=None, max_queue_size=10, workers=1,
                 use_multiprocessing=False, return_dict=False, **kwargs):
        """The loss and metrics over the data: a scalar, a list, or a dict by name."""
        self._assert_compile_was_called()
        self._check_arrays(x, y)
        weighted = sample_weight is not None or isinstance(x, data_adapter.Dataset) and \
            isinstance(x.element_spec, tuple) and len(x.element_spec) == 3
        # (TF 1's loops, in the Keras session, give no such warning)
        if weighted and self.compiled_metrics._user_weighted is None and \
                session_steps.graph_of(self) is None:
            _logger.warning(
                "`evaluate()` received a value for `sample_weight`, but `weighted_metrics` were "
                "not provided.  Did you mean to pass metrics to `weighted_metrics` in "
                "`compile()`?  If this is intentional you can pass `weighted_metrics=[]` to "
                "`compile()` in order to silence this warning.")
        handler = in_fit = kwargs.pop("_in_fit", None)  # (fit's validation data)
        if kwargs:
            raise TypeError(f"Invalid keyword arguments: {list(kwargs)}")
        if handler is None:
            handler = self._evaluation_handler(x, y, sample_weight, batch_size, steps,
                                               max_queue_size, workers)
        per_execution = self._steps_per_execution_for(handler)
        verbose = _verbosity(verbose, quiet=session_steps.graph_of(self) is not None)
        if not isinstance(callbacks, callbacks_mod.CallbackList):
            # (as Keras, with a fresh `History`: `model.history` is then an empty one)
            params = session_steps.callback_params(
                self, x, batch_size, 1, handler.inferred_steps, verbose, kind="test")
            callbacks = callbacks_mod.CallbackList(
                callbacks, add_history=True, add_progbar=verbose != 0, model=self, **params)
        test = self.make_test_function()
        losses = session_steps.EpochLosses(self, x, steps)
        self.reset_metrics()
        counter = self._counter("test")
        counter.assign(0)
        callbacks.on_test_begin()
        logs = {}
        handler.start()
        # (none once the data ran out in an earlier validation of the same fit)
        source = () if handler.insufficient else handler.batches()
        next_step = 0
        for step, end_step, batches in _executions(source, per_execution):
            next_step = end_step + 1
            callbacks.on_test_batch_begin(step, losses.begin_logs(batches, step))
            for batch in batches:
                if step == 0 and batch is batches[0]:
                    _trace_for_every_batch(test, handler, batch)
                logs = test(batch)
                counter.assign_add(1, read_value=False)
            callbacks.on_test_batch_end(end_step, losses.batch_logs(logs, batches, end_step, test))
        if handler.ran_past_end():  # (TF's step that met the end of the data began)
            callbacks.on_test_batch_begin(next_step)
        handler.end_epoch()
        values = losses.results(logs)
        logs = _to_python(values)
        # (TF 1's loop gives the end of its test loop no logs)
        callbacks.on_test_end(logs if session_steps.graph_of(self) is None else {})
        if return_dict or in_fit is not None:
            return logs
        if session_steps.graph_of(self) is not None:  # (NumPy scalars, as TF 1's loop)
            return _in_order(session_steps.numpy_logs(values), self.metrics_names)
        return _in_order(logs, self.metrics_names)

    def _evaluation_handler(self, x, y, sample_weight, batch_size, steps, max_queue_size,
                            workers):
        return data_adapter.DataHandler(x, y, sample_weight, batch_size, steps,
                                        max_queue_size=max_queue_size, workers=workers,
                                        model=self)

    @tracebacks.filtering
    @session_steps.in_session
    def predict(self, x, batch_size=None, verbose="auto", steps=None, callbacks=None,
                max_queue_size=10, workers=1, use_multiprocessing=False):
        """The model's outputs for `x`, batch by batch, concatenated into NumPy arrays."""
        self._check_arrays(x)
        handler = data_adapter.DataHandler(x, batch_size=batch_size, steps_per_epoch=steps,
                                           max_queue_size=max_queue_size, workers=workers,
                                           model=self)
        per_execution = self._steps_per_execution_for(handler)
        verbose = _verbosity(verbose, quiet=session_steps.graph_of(self) is not None)
        if not isinstance(callbacks, callbacks_mod.CallbackList):
            params = session_steps.callback_params(
                self, x, batch_size, 1, handler.inferred_steps, verbose, kind="predict")
            callbacks = callbacks_mod.CallbackList(
                callbacks, add_history=True, add_progbar=verbose != 0, model=self, **params)
        predict = self.make_predict_function()
        losses = session_steps.EpochLosses(self, x)  # (only for the logs of TF 1's loop)
        counter = self._counter("predict")
        counter.assign(0)
        callbacks.on_predict_begin()
        outputs = []
        handler.start()
        # (none once the data ran out in an earlier validation of the same fit)
        source = () if handler.insufficient else handler.batches()
        next_step = 0
        for step, end_step, batches in _executions(source, per_execution):
            next_step = end_step + 1
            callbacks.on_predict_batch_begin(step, losses.begin_logs(batches, step))
            outs = []
            for batch in batches:
                if step == 0 and batch is batches[0]:
                    _trace_for_every_batch(predict, handler, batch)
                outs.append(predict(batch))  # (which counts the step)
                outputs.append(outs[-1])
            # (one execution's outputs together, as Keras gives them)
            out = outs[0] if len(outs) == 1 else nest.map_structure(
                lambda *parts: concat(list(parts), 0), *outs)
            callbacks.on_predict_batch_end(end_step, losses.predict_logs(out, batches, end_step))
        if handler.ran_past_end():  # (TF's step that met the end of the data began)
            callbacks.on_predict_batch_begin(next_step)
        handler.end_epoch()
        if not outputs:
            raise ValueError("Unexpected result of `predict_function` (Empty batch_outputs). "
                             "Please use `Model.compile(..., run_eagerly=True)`, or "
                             "`tf.config.run_functions_eagerly(True)` for more information "
                             "of where went wrong, or file a issue/bug to `tf.keras`.")
        callbacks.on_predict_end()
        return nest.map_structure(_joined_batches, *outputs)

    def fit_generator(self, generator, steps_per_epoch=None, epochs=1, verbose=1,
                      callbacks=None, validation_data=None, validation_steps=None,
                      validation_freq=1, class_weight=None, max_queue_size=10, workers=1,
                      use_multiprocessing=False, shuffle=True, initial_epoch=0):
        """Deprecated: `fit`, which takes generators."""
        _deprecated("fit")
        return self.fit(generator, steps_per_epoch=steps_per_epoch, epochs=epochs,
                        verbose=verbose, callbacks=callbacks, validation_data=validation_data,
                        validation_steps=validation_steps, validation_freq=validation_freq,
                        class_weight=class_weight, max_queue_size=max_queue_size,
                        workers=workers, use_multiprocessing=use_multiprocessing,
                        shuffle=shuffle, initial_epoch=initial_epoch)

    def evaluate_generator(self, generator, steps=None, callbacks=None, max_queue_size=10,
                           workers=1, use_multiprocessing=False, verbose=0):
        """Deprecated: `evaluate`, which takes generators."""
        _deprecated("evaluate")
        return self.evaluate(generator, steps=steps, max_queue_size=max_queue_size,
                             workers=workers, use_multiprocessing=use_multiprocessing,
                             verbose=verbose, callbacks=callbacks)

    def predict_generator(self, generator, steps=None, callbacks=None, max_queue_size=10,
                          workers=1, use_multiprocessing=False, verbose=0):
        """Deprecated: `predict`, which takes generators."""
        _deprecated("predict")
        return self.predict(generator, steps=steps, max_queue_size=max_queue_size,
                            workers=workers, use_multiprocessing=use_multiprocessing,
                            verbose=verbose, callbacks=callbacks)

    @tracebacks.filtering
    @session_steps.in_session
    @_compiled_trainable_state
    def train_on_batch(self, x, y=None, sample_weight=None, class_weight=None,
                       reset_metrics=True, return_dict=False):
        """One `train_step` on one batch; returns the loss and metrics."""
        self._assert_compile_was_called()
        self._check_arrays(x, y)
        in_session = session_steps.graph_of(self) is not None
        if reset_metrics or in_session:
            self._reset_before_batch(reset_metrics)
        handler = data_adapter.DataHandler(x, y, sample_weight, class_weight=class_weight,
                                           single_batch=True)
        logs = {}
        for batch in handler.batches():
            logs = self.make_train_function()(batch)
        if reset_metrics and in_session:
            self.reset_metrics()
        return self._batch_result(logs, return_dict)

    @tracebacks.filtering
    @session_steps.in_session
    def test_on_batch(self, x, y=None, sample_weight=None, reset_metrics=True,
                      return_dict=False):
        self._assert_compile_was_called()
        self._check_arrays(x, y)
        in_session = session_steps.graph_of(self) is not None
        if reset_metrics or in_session:
            self._reset_before_batch(reset_metrics)
        handler = data_adapter.DataHandler(x, y, sample_weight, single_batch=True)
        logs = {}
        for batch in handler.batches():
            logs = self.make_test_function()(batch)
        if reset_metrics and in_session:
            self.reset_metrics()
        return self._batch_result(logs, return_dict)

    def _check_arrays(self, x, y=None):
        """In TF 1's loop: TF 1's checks of input arrays against the model's inputs, and of
        target arrays against its outputs and losses, before any step."""
        if session_steps.graph_of(self) is not None:
            session_steps.check_inputs(self, x)
            compile_utils.check_targets(self, y)

    def _reset_before_batch(self, reset_metrics):
        """What `train_on_batch` and `test_on_batch` reset before their batch: every metric
        (`reset_metrics`); in TF 1's loop, only the losses (its results are the batch's loss
        and the metrics as they stood plus the batch; `reset_metrics` resets them after)."""
        if session_steps.graph_of(self) is None:
            self.reset_metrics()
        else:
            session_steps.run_built(self, "reset_losses", self._reset_loss_metric_ops)

    def _reset_loss_metric_ops(self):
        for metric in self.compiled_loss.metrics:
            metric.reset_state()

    @tracebacks.filtering
    @session_steps.in_session
    def predict_on_batch(self, x):
        self._check_arrays(x)
        handler = data_adapter.DataHandler(x, single_batch=True)
        out = [self.make_predict_function()(b) for b in handler.batches()][0]
        return nest.map_structure(_numpy_or_python, out)

    def _batch_result(self, logs, return_dict):
        if session_steps.graph_of(self) is not None and not return_dict:
            return _in_order(session_steps.numpy_logs(logs), self.metrics_names)
        logs = _to_python(logs)
        if return_dict:
            return logs
        return _in_order(logs, self.metrics_names)

    # -- saving -----------------------------------------------------------------------
    def save_weights(self, filepath, overwrite=True, save_format=None, options=None):
        """Writes the model's (and optimizer's) variables to `filepath`, under TF's keys."""
        late.saving.weights.save_weights(self, filepath, overwrite, save_format, options)

    def load_weights(self, filepath, skip_mismatch=False, by_name=False, options=None):
        """Restores the variables `save_weights` (or `save`) wrote; returns a load status."""
        return late.saving.weights.load_weights(self, filepath, skip_mismatch, by_name, options)

    def save(self, filepath, overwrite=True, save_format=None, **kwargs):
        """Saves architecture, compile arguments and weights to a `.keras` archive."""
        late.saving.saving_lib.save_model(self, filepath, overwrite, save_format, **kwargs)

    def export(self, filepath):
        """Writes an inference-only SavedModel of the model's call (its endpoint ``serve``),
        loadable by `tf.saved_model.load` without the model's code."""
        late.saving.export_lib.export_model(self, filepath)

    def save_spec(self, dynamic_batch=True):
        """The `tf.TensorSpec`s of the model's inputs, ``([inputs], {})``, as its first call
        (or its `Input`s) gave them, named by input (``input_1``, ... when the inputs are not
        named); None before the model was called. `dynamic_batch` makes the batch size of
        specs a call gave None (an `Input`'s own batch size stays, as tf_keras keeps it).
        """
        from eagerflow._src.core.tensor_spec import TensorSpec  # noqa: PLC0415
        inputs = getattr(self, "inputs", None)
        # (a Sequential's inputs inferred from a call or `build` are a call's: batch relaxed)
        inferred = getattr(self, "_inferred_input_shape", None) is not None
        if inputs:
            # (a sparse or ragged input: its own spec, unnamed, as tf_keras gives it)
            specs = [TensorSpec(t.shape, t.dtype, name) if isinstance(t, Tensor) else
                     t._type_spec for t, name in zip(inputs, self.input_names)]
            nested = getattr(self, "_nested_inputs", None)
            if isinstance(nested, dict) or isinstance(nested, (list, tuple)) and (
                    isinstance(nested, tuple) or any(not isinstance(x, Tensor) for x in nested)):
                specs = nest.pack_sequence_as(nested, specs)  # (as the Inputs were given)
            else:
                specs = specs[0] if len(specs) == 1 else specs
            if dynamic_batch and inferred:
                specs = nest.map_structure(_without_batch_size, specs)
        else:
            specs = self.__dict__.get("_saved_model_inputs_spec")
            if specs is None:
                return None
            specs = _named_specs(specs)
            if dynamic_batch:
                specs = nest.map_structure(_without_batch_size, specs)
        return [specs], {}

    def _saved_model_call(self):
        """The `tf.function` a SavedModel of this model saves as its ``__call__``: the model
        called (not training) on its inputs, named by input; None while they are unknown."""
        found = self.save_spec()
        if found is None:
            return None
        from eagerflow._src.function.polymorphic_function import function  # noqa: PLC0415

        def __call__(inputs):  # noqa: N807 (the saved function's name)
            return call_keeping_losses(self, inputs, training=False)[0]

        if isinstance(found[0][0], dict):  # (traced for its inputs: a dict is no signature)
            traced = function(__call__)
            traced.get_concrete_function(found[0][0])
            return traced
        return function(__call__, input_signature=found[0])

    def _default_save_signature(self):
        """The concrete function a SavedModel of this model serves as ``serving_default``,
        as tf_keras saves it: the model's call on its inputs, named by input, returning its
        outputs by output name; None while the model's inputs are unknown."""
        call = self._saved_model_call()
        if call is None:
            return None
        from eagerflow._src.function.polymorphic_function import function  # noqa: PLC0415
        output_names = self.output_names

        def serve(inputs):
            outputs = call(inputs)
            # As tf_keras: a functional model's outputs (a dict's too) are named by the
            # layers giving them, a subclassed model's by their paths (output_1, a dict's
            # keys, ...).
            names = output_names or compile_utils.pseudo_output_names(outputs)
            return dict(zip(names, nest.flatten(outputs)))

        return function(serve).get_concrete_function(self.save_spec()[0][0])

    def to_json(self, **kwargs):
        """The model's class and config as JSON (``keras.models.model_from_json`` reads it)."""
        return late.saving.saving_lib.model_to_json(self, **kwargs)

    def to_yaml(self, **kwargs):
        """Removed, as in TF since 2.6 (YAML can run arbitrary code): RuntimeError."""
        raise RuntimeError("Method `model.to_yaml()` has been removed due to security risk of "
                           "arbitrary code execution. Please use `model.to_json()` instead.")

    def reset_states(self):
        """Resets the states of the stateful layers (those of nested models included)."""
        for layer in self.layers:
            if isinstance(layer, Model) or layer.stateful and hasattr(layer, "reset_states"):
                layer.reset_states()

    # -- config -----------------------------------------------------------------------
    def get_config(self):
        """A subclassed model's config is the arguments it was constructed with (override to
        make it cloneable); empty when they are not plain Python values."""
        try:
            return super().get_config()
        except NotImplementedError:
            _logger.warning("Model's `__init__()` arguments contain non-serializable objects. "
                            "Please implement a `get_config()` method in the subclassed Model "
                            "for proper saving and loading. Defaulting to empty config.")
            return {}

    get_config._is_default = True

    @classmethod
    def from_config(cls, config, custom_objects=None):
        if "layers" in config and "input_layers" in config:  # a functional model's config
            Functional = late.engine.functional.Functional  # a Model subclass, defined later
            return Functional.from_config(config, custom_objects)
        return revive_by_constructor(cls, config)


def revive_by_constructor(cls, config):
    """A model of `cls` made by its constructor from `config` (a subclass's own config),
    with Keras's explanation when the constructor does not take it."""
    try:
        return cls(**config)
    except TypeError as e:
        raise TypeError(
            "Unable to revive model from config. When overriding the `get_config()` "
            "method, make sure that the returned config contains all items used as "
            f"arguments in the  constructor to {cls}, which is the default behavior. "
            "You can override this default behavior by defining a "
            "`from_config(cls, config)` class method to specify how to create an "
            f"instance of {cls.__name__} from its config.\n\nReceived config="
            f"{config}\n\nError encountered during deserialization: {e}") from None


def _executions(batches, per_execution, first=0):
    """`batches` in groups of `per_execution`, as Keras runs them (the last group may be
    smaller): ``(first step, last step, group)``, the steps its callbacks get, counted from
    `first` (an epoch resumed at a batch)."""
    group = []
    for batch in batches:
        group.append(batch)
        if len(group) == per_execution:
            yield first, first + len(group) - 1, group
            first, group = first + len(group), []
    if group:
        yield first, first + len(group) - 1, group


def _joined_batches(*parts):
    """One output's batches from `predict`, joined as Keras joins them: ragged and sparse
    tensors as such, scalars stacked, arrays whose inner dimensions differ from batch to
    batch as a `RaggedTensor` (ragged in the dimensions that differ and those before them);
    then as NumPy values (a scalar as a Python number)."""
    if len(parts) == 1:
        return _numpy_or_python(parts[0])
    if isinstance(parts[0], SparseTensor):
        return sparse_ops.concat(0, list(parts))
    if isinstance(parts[0], RaggedTensor):
        return concat(list(parts), 0)
    # (NumPy arrays already where TF 1's session loop ran the steps)
    arrays = [np.asarray(part.numpy() if isinstance(part, (Tensor, Variable)) else part)
              for part in parts]
    if arrays[0].ndim == 0:
        return np.stack(arrays)
    inner = [a.shape[1:] for a in arrays]
    if all(shape == inner[0] for shape in inner) or \
            any(len(shape) != len(inner[0]) for shape in inner):
        return np.concatenate(arrays)
    constant = [len(set(sizes)) == 1 for sizes in zip(*inner)]
    same_inside = constant[::-1].index(False)  # (the inner dimensions all batches share)
    return ragged_ops.constant(
        arrays, dtype=arrays[0].dtype,
        inner_shape=inner[0][len(inner[0]) - same_inside:] if same_inside else None,
    ).merge_dims(0, 1)


def _numpy_or_python(value):
    """A tensor (or variable) as a NumPy array, a scalar as a Python number; ragged and
    sparse tensors as they are."""
    if isinstance(value, (Tensor, Variable)):
        value = value.numpy()
    if isinstance(value, (np.ndarray, np.generic)) and np.ndim(value) == 0:
        return value.item()
    return value


def _trace_for_every_batch(step, handler, batch):
    """Traces a compiled `step` for any batch of `handler`, as TF traces for a dataset's
    element spec: the model then sees an unknown batch size, and no batch retraces."""
    if isinstance(step, Function):
        step._trace_for_next_call(handler.batch_spec(batch))


def _verbosity(verbose, quiet=False):
    """`verbose` as a number ("auto" is 1); 0 where `quiet` (TF 1's evaluate and predict,
    which show no progress bar)."""
    if quiet:
        return 0
    return 1 if verbose == "auto" else verbose


def _deprecated(method):
    """Keras's warning for the ``*_generator`` methods, pointing at the caller's line."""
    warnings.warn(f"`Model.{method}_generator` is deprecated and will be removed in a future "
                  f"version. Please use `Model.{method}`, which supports generators.",
                  stacklevel=3)


def _should_validate(epoch, freq):
    if isinstance(freq, int):
        return (epoch + 1) % freq == 0
    if isinstance(freq, list):
        return epoch + 1 in freq
    raise ValueError(f"Expected `validation_freq` to be a list or int. Received: "
                     f"validation_freq={freq} of the type {type(freq)}.")


def _to_python(logs):
    """Logs with tensors as Python floats (or NumPy arrays for non-scalars); a step's
    result that is no dict (a list, a tuple...) converted tensor by tensor, as tf_keras
    converts it (its callbacks, and `History`, then fail on it)."""
    if not isinstance(logs, dict):
        return nest.map_structure(_numpy_or_python, logs)
    return {k: _numpy_or_python(v) for k, v in copy.copy(logs).items()}



def _in_order(logs, metrics_names):
    """The values of `logs` as Keras lists them: those named in `metrics_names` in its order,
    then the others (a metric's dict of results, say) by name; one value alone."""
    values = [logs[name] for name in metrics_names if name in logs]
    # (`keys()`, as tf_keras: a step's list of results fails with its AttributeError)
    values += [logs[key] for key in sorted(logs.keys()) if key not in metrics_names]
    return values[0] if len(values) == 1 else values


def _functional_arguments(args, kwargs):
    """Whether a model's constructor arguments are the inputs and outputs of a graph."""
    return len(args) == 2 or (len(args) == 1 and "outputs" in kwargs) or \
        ("inputs" in kwargs and "outputs" in kwargs)


def _derive_from(cls, functional):
    """Puts `functional` in place of `Model` among the bases of `cls` and its ancestors."""
    if cls is Model:
        return functional
    if issubclass(cls, Model) and functional not in cls.__mro__:
        cls.__bases__ = tuple(_derive_from(base, functional) for base in cls.__bases__)
    return cls


def _named_specs(specs):
    """A subclassed model's input specs named as tf_keras names them: a dict's by key, others
    ``input_1``, ``input_2``, ... in order (nested ones ``input_1_1``, ...)."""
    from eagerflow._src.core.tensor_spec import TensorSpec  # noqa: PLC0415

    def named(value, name):
        if isinstance(value, TensorSpec):
            return TensorSpec(value.shape, value.dtype, name)
        if isinstance(value, dict):
            return {k: named(v, str(k)) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return type(value)(named(v, f"{name}_{i + 1}") for i, v in enumerate(value))
        return value

    if isinstance(specs, (list, tuple)):
        return type(specs)(named(v, f"input_{i + 1}") for i, v in enumerate(specs))
    return named(specs, "input_1")


def _without_batch_size(spec):
    from eagerflow._src.core.tensor_spec import TensorSpec  # noqa: PLC0415
    if isinstance(spec, TensorSpec) and spec.shape.rank:
        return TensorSpec([None] + spec.shape.as_list()[1:], spec.dtype, spec.name)
    return spec


def _weight_paths_below(root, prefix):
    """Breadth first from ``root`` through checkpoint children: ``{path: variable}``
    with each variable under the first (shortest) path that reaches it."""
    found, seen, level = {}, {id(root)}, [(prefix, root)]
    while level:
        deeper = []
        for path, obj in level:
            for name, child in trackable.children(obj):
                if id(child) in seen:
                    continue
                seen.add(id(child))
                if isinstance(child, Variable):
                    found[".".join((*path, name))] = child
                else:
                    deeper.append(((*path, name), child))
        level = deeper
    return found

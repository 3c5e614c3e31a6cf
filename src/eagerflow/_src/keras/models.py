"""Model-level utilities: `clone_model` and `model_from_config`.

>>> model = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,))])
>>> clone = tf.keras.models.clone_model(model)
>>> [w.shape for w in clone.weights] == [w.shape for w in model.weights]
True
"""

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import nest
from eagerflow._src.keras import layers as layers_mod
from eagerflow._src.keras.engine import keras_tensor
from eagerflow._src.keras.engine.input_layer import Input, InputLayer
from eagerflow._src.keras.engine.functional import Functional, takes_functional_arguments
from eagerflow._src.keras.engine.sequential import Sequential
from eagerflow._src.keras.utils import serialization


@export("keras.models.model_from_config")
def model_from_config(config, custom_objects=None):
    """The model (or layer) that a ``{'class_name', 'config'}`` dict describes."""
    if isinstance(config, list):
        raise TypeError("`model_from_config` expects a dictionary, not a list. "
                        f"Received: config={config}. Did you meant to use "
                        "`Sequential.from_config(config)`?")
    return layers_mod.deserialize(config, custom_objects=custom_objects)


@export("keras.models.clone_model")
def clone_model(model, input_tensors=None, clone_function=None):
    """A new model with the same architecture and freshly initialized weights.

    `clone_function(layer)` makes each new layer (default: from the layer's config).
    `input_tensors` (Keras tensors of `Input`s, or tensors to wrap in new ones) replace the
    model's inputs: the clone is built on them.

    >>> inputs = tf.keras.Input((3,), name="features")
    >>> model = tf.keras.Model(inputs, tf.keras.layers.Dense(2)(inputs))
    >>> clone = tf.keras.models.clone_model(model, input_tensors=tf.keras.Input((3,), name="x"))
    >>> clone.input_names
    ['x']
    """
    with serialization.in_memory_configs():  # Lambda layers keep their functions
        # (as Keras: a functional model with a config of its own is remade from it, unless
        # layers or inputs are to be made anew)
        if isinstance(model, Sequential) or isinstance(model, Functional) and (
                type(model).get_config is Functional.get_config or clone_function
                or input_tensors is not None):
            return _clone(model, input_tensors, clone_function)
        # as Keras: any other model (or layer) is remade from its config, which needs no
        # layer made anew and no new inputs
        if clone_function or input_tensors:
            raise ValueError("Arguments clone_function and input_tensors are only supported "
                             "for Sequential models or Functional models. Received model of "
                             f"type '{type(model).__name__}', with clone_function="
                             f"{clone_function} and input_tensors={input_tensors}")
        return type(model).from_config(model.get_config())


def _clone(model, input_tensors, clone_function):
    if clone_function is not None and not callable(clone_function):
        raise ValueError("Expected `layer_fn` argument to be a callable. "
                         f"Received: layer_fn={clone_function}")
    clone_function = clone_function or (lambda layer: type(layer).from_config(
        layer.get_config()))
    if isinstance(model, Sequential):
        clone = Sequential(name=model.name)
        if input_tensors is not None:  # (as Keras: its input layer instead of the model's)
            clone.add(_sequential_input_layer(input_tensors))
        elif model._has_explicit_input_shape:  # (as Keras: its input layer cloned, by name)
            inputs = model._input_layer
            clone.add(type(inputs).from_config(inputs.get_config()))
        for layer in model.layers:  # (as Keras: a layer added twice is cloned once)
            clone.add(clone_function(layer))
        if not clone.built and model._input_layer is not None:
            clone.build(model._input_layer._batch_input_shape)
        return clone
    # as Keras: each layer but the inputs made by `clone_function` (a shared layer once), by
    # default from its own class (so a custom class needs no registering)
    config = model.get_config()
    originals = {layer.name: layer for layer in model.layers}
    created = {spec["name"]: clone_function(originals[spec["name"]])
               for spec in config["layers"]
               if spec["class_name"] != "InputLayer" and spec.get("name") in originals}
    if input_tensors is not None:
        # the input layers of `input_tensors` stand for the model's, in order; a tensor that
        # is not a Keras one is wrapped in a new `Input`, as Keras wraps it
        for original, tensor in zip(model._input_layers, nest.flatten(input_tensors)):
            if not keras_tensor.is_keras_tensor(tensor):
                tensor = Input(tensor=tensor, name="input_wrapper_for_" + original.name)
            created[original.name] = tensor.node.layer
    # as Keras: the clone is of the model's class where that class is built as `Functional`
    # is (a `Model` subclass that keeps Model's constructor), else a `Functional`
    model_class = type(model) if takes_functional_arguments(type(model)) else Functional
    return Functional.from_config.__func__(model_class, config, _created_layers=created)


def _sequential_input_layer(input_tensors):
    """The input layer of a Sequential model's clone on `input_tensors` (one tensor)."""
    tensors = input_tensors if isinstance(input_tensors, (list, tuple)) else [input_tensors]
    if len(tensors) != 1:
        raise ValueError("To clone a `Sequential` model, we expect at most one tensor as part "
                         f"of `input_tensors`. Received: input_tensors={input_tensors}")
    tensor = tensors[0]
    if not keras_tensor.is_keras_tensor(tensor):
        return Input(tensor=tensor, name=f"input_wrapper_for_{tensor.name}").node.layer
    if not isinstance(tensor.node.layer, InputLayer):
        raise ValueError("Cannot clone a `Sequential` model on top of a tensor that comes "
                         "from a TF-Keras layer other than an `InputLayer`. Use the "
                         f"Functional API instead. Received: input_tensors={input_tensors}")
    return tensor.node.layer


@export("keras.estimator.model_to_estimator")
def model_to_estimator(keras_model=None, keras_model_path=None, custom_objects=None,
                       model_dir=None, config=None, checkpoint_format="checkpoint",
                       metric_names_map=None, export_outputs=None):
    """An `Estimator` of a Keras model: as in TF 2.21 without ``tensorflow_estimator``,
    NotImplementedError (Estimators are gone from TF).

    >>> tf.keras.estimator.model_to_estimator(tf.keras.Sequential())
    Traceback (most recent call last):
    ...
    NotImplementedError: tf.keras.estimator.model_to_estimator function not available in your installation.
    """
    raise NotImplementedError("tf.keras.estimator.model_to_estimator function not available "
                              "in your installation.")

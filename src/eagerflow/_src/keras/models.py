"""Model-level utilities: `clone_model` and `model_from_config`.

>>> model = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,))])
>>> clone = tf.keras.models.clone_model(model)
>>> [w.shape for w in clone.weights] == [w.shape for w in model.weights]
True
"""
from eagerflow._src.backend.api_export import export
from eagerflow._src.keras import layers as layers_mod
from eagerflow._src.keras.engine.functional import Functional
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
    """
    if not isinstance(model, (Sequential, Functional)):
        raise ValueError(f"Expected `model` argument to be a functional `Model` instance, "
                         f"but got a subclassed model instead: {model}")
    with serialization.in_memory_configs():  # Lambda layers keep their functions
        return _clone(model, input_tensors, clone_function)


def _clone(model, input_tensors, clone_function):
    clone_function = clone_function or (lambda layer: type(layer).from_config(
        layer.get_config()))
    if isinstance(model, Sequential):
        clone = Sequential(name=model.name)
        if model._has_explicit_input_shape:  # (as Keras: its input layer cloned, by name)
            inputs = model._input_layer
            clone.add(type(inputs).from_config(inputs.get_config()))
        for layer in model.layers:  # (as Keras: a layer added twice is cloned once)
            clone.add(clone_function(layer))
        if not clone.built and model._input_layer is not None:
            clone.build(model._input_layer._batch_input_shape)
        return clone
    if input_tensors is not None:
        raise NotImplementedError("clone_model of a functional model with new "
                                  "`input_tensors` is not supported; clone, then call the "
                                  "clone on them.")
    # as Keras: each layer but the inputs made by `clone_function` (a shared layer once), by
    # default from its own class (so a custom class needs no registering)
    config = model.get_config()
    originals = {layer.name: layer for layer in model.layers}
    created = {spec["name"]: clone_function(originals[spec["name"]])
               for spec in config["layers"]
               if spec["class_name"] != "InputLayer" and spec.get("name") in originals}
    return Functional.from_config(config, _created_layers=created)


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

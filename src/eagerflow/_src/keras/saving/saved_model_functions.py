"""The call functions tf_keras saves with a layer or model in a SavedModel.

tf_keras's `load_model` rebuilds a layer whose class it knows from the config
recorded with it; one it does not know (a subclassed model, a custom layer) it
revives from the SavedModel itself, calling the functions saved under the
layer's ``keras_api``: ``call_and_return_conditional_losses`` (the layer's
outputs and the losses its call added) traced with the inputs of the layer's
first call, once with ``training=True`` and once with ``training=False`` when
`call` takes `training`. The layer itself holds them as ``__call__`` (the
outputs alone) and ``call_and_return_all_conditional_losses``, as tf_keras
saves them.
"""
import inspect

from eagerflow._src.core import nest
from eagerflow._src.core.module import Module
from eagerflow._src.core.tensor_spec import TensorSpec
from eagerflow._src.function.polymorphic_function import function
from eagerflow._src.keras.engine.base_layer import call_keeping_losses


class _KerasApi(Module):
    """A layer's ``keras_api`` node: the functions tf_keras's loader calls."""


def _is_builtin(layer):
    """Whether tf_keras rebuilds `layer` from its config (one of Keras's own classes)."""
    return type(layer).__module__.startswith("eagerflow.")


def _input_specs(layer):
    """The specs of `layer`'s first call's inputs, with a batch size of None (a model's named
    as `save_spec` names them); None when it was never called."""
    if hasattr(type(layer), "save_spec"):  # (a model)
        found = layer.save_spec()
        return None if found is None else found[0][0]
    specs = layer.__dict__.get("_saved_model_inputs_spec")
    if specs is None:
        return None

    def relaxed(spec):
        if isinstance(spec, TensorSpec) and spec.shape.rank:
            return TensorSpec([None] + spec.shape.as_list()[1:], spec.dtype, spec.name)
        return spec

    return nest.map_structure(relaxed, specs)


def children(layer):
    """``[(name, tf.function or object)]``: what a SavedModel saves of `layer` beside its
    weights and sub-layers, for tf_keras to call it; empty for Keras's own classes (rebuilt
    from their configs) and for layers never called."""
    if _is_builtin(layer) or getattr(layer, "_saved_model_inputs_spec", None) is None:
        return []
    inputs = _input_specs(layer)
    if inputs is None:
        return []
    signature = inspect.signature(layer.call)

    def call(args, kwargs):
        if not any(p.kind is p.VAR_POSITIONAL for p in signature.parameters.values()):
            # (the arguments after the inputs by name: `training` among them is not moved)
            bound = list(signature.bind(*args, **kwargs).arguments.items())
            args, kwargs = (bound[0][1],), dict(bound[1:])
        return call_keeping_losses(layer, *args, **kwargs)

    def call_and_return_conditional_losses(*args, **kwargs):
        return call(args, kwargs)

    def layer_call(*args, **kwargs):
        return call(args, kwargs)[0]

    found = []
    for name, python_function in (("call_and_return_conditional_losses",
                                   call_and_return_conditional_losses),
                                  ("__call__", layer_call)):
        python_function.__signature__ = signature
        python_function.__name__ = f"{layer.name}_layer_{name.strip('_') or 'call_fn'}"
        traced = function(python_function)
        if "training" in signature.parameters:
            traced.get_concrete_function(inputs, training=True)
            traced.get_concrete_function(inputs, training=False)
        else:
            traced.get_concrete_function(inputs)
        found.append(traced)
    keras_api = _KerasApi()
    keras_api.call_and_return_conditional_losses = found[0]
    keras_api.call_and_return_all_conditional_losses = found[0]
    keras_api.__call__ = found[1]
    return [("keras_api", keras_api), ("__call__", found[1]),
            ("call_and_return_all_conditional_losses", found[0])]

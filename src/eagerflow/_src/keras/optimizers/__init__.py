"""Keras optimizers (``tf.keras.optimizers``): the algorithms, and resolving them by name.

>>> tf.keras.optimizers.get("Adam").name
'Adam'
>>> type(tf.keras.optimizers.get({"class_name": "SGD", "config": {"learning_rate": 0.5}})).__name__
'SGD'
"""

from eagerflow._src.compat import graph_mode as _graph_mode
from eagerflow._src.keras import late
from eagerflow._src.backend.api_export import export
from eagerflow._src.keras.optimizers.adadelta import Adadelta
from eagerflow._src.keras.optimizers.adafactor import Adafactor
from eagerflow._src.keras.optimizers.adagrad import Adagrad
from eagerflow._src.keras.optimizers.adam import Adam
from eagerflow._src.keras.optimizers.adamax import Adamax
from eagerflow._src.keras.optimizers.adamw import AdamW
from eagerflow._src.keras.optimizers.ftrl import Ftrl
from eagerflow._src.keras.optimizers.lion import Lion
from eagerflow._src.keras.optimizers.nadam import Nadam
from eagerflow._src.keras.optimizers import optimizer_v1
from eagerflow._src.keras.optimizers.optimizer import Optimizer
from eagerflow._src.keras.optimizers.rmsprop import RMSprop
from eagerflow._src.keras.optimizers.sgd import SGD
from eagerflow._src.keras.utils.serialization import (Identifiers, deserialize_keras_object,
                                                     register_public)

# Names resolve case-insensitively, as in tf_keras ('Adam', 'adam', 'ADAM').
_BY_NAME = {
    "adadelta": Adadelta, "adagrad": Adagrad, "adam": Adam, "adamw": AdamW, "adamax": Adamax,
    "experimentaladadelta": Adadelta, "experimentaladagrad": Adagrad,
    "experimentaladam": Adam, "experimentalsgd": SGD, "nadam": Nadam, "rmsprop": RMSprop,
    "sgd": SGD, "ftrl": Ftrl,
}
# As tf_keras registers them: 'Custom>Adam' (how its SavedModels' configs name an optimizer
# wrapped for loss scaling) finds Adam.
for _cls in (Adadelta, Adafactor, Adagrad, Adam, AdamW, Adamax, Ftrl, Lion, Nadam, RMSprop, SGD):
    register_public(_cls)
del _cls
# Serializing is every family's; resolving names is the optimizers' own (case-insensitive,
# legacy optimizers on request), as in tf_keras.
_IDENTIFIERS = Identifiers("optimizer", _BY_NAME, Optimizer, "keras.optimizers")


@export("keras.optimizers.serialize")
def serialize(optimizer, use_legacy_format=False):
    """The optimizer's config as ``{'module', 'class_name', 'config', 'registered_name'}``.

    >>> tf.keras.optimizers.serialize(tf.keras.optimizers.SGD())["class_name"]
    'SGD'
    """
    return _IDENTIFIERS.serialize(optimizer, use_legacy_format)


@export("keras.optimizers.deserialize")
def deserialize(config, custom_objects=None, use_legacy_format=False, **kwargs):
    """The optimizer a `serialize` result (or ``{'class_name', 'config'}``) describes.

    >>> float(tf.keras.optimizers.deserialize({"class_name": "adam",
    ...                                        "config": {"learning_rate": 0.5}}).learning_rate)
    0.5
    """
    use_legacy = kwargs.pop("use_legacy_optimizer", False)
    if kwargs:
        raise TypeError(f"Invalid keyword arguments: {kwargs}")
    config = dict(config)
    if config.get("config"):
        # As tf_keras: a config without the key is a legacy optimizer's
        use_legacy = config["config"].get("is_legacy_optimizer", True)
    if not (_graph_mode.tf2_enabled() and _graph_mode.executing_eagerly_outside_functions()):
        use_legacy = True  # (TF 1's graph mode, or TF 2's behaviour off: as tf_keras)
    by_name = dict(_BY_NAME)
    if use_legacy:
        from eagerflow._src.keras.optimizers import legacy  # noqa: PLC0415 (it imports this)
        by_name.update(legacy.BY_NAME)
    if config["class_name"].lower() in by_name:
        config["class_name"] = config["class_name"].lower()
    # The loss-scaling wrapper (under the name tf_keras writes for it too) needs this module.
    LossScaleOptimizer = late.mixed_precision.LossScaleOptimizer  # mixed_precision: a tier up
    # Adafactor and Lion resolve by class name only: tf_keras's `get` knows no 'lion'.
    by_class_name = {"LossScaleOptimizer": LossScaleOptimizer,
                     "LossScaleOptimizerV3": LossScaleOptimizer,
                     "Adafactor": Adafactor, "Lion": Lion}
    return deserialize_keras_object(config, module_objects={**by_name, **by_class_name},
                                    custom_objects=custom_objects,
                                    printable_module_name="optimizer")


@export("keras.optimizers.get")
def get(identifier, **kwargs):
    """An optimizer from an instance (returned as is), a name (``'adam'``) or a config dict.

    >>> tf.keras.optimizers.get("rmsprop").name
    'RMSprop'
    """
    use_legacy = kwargs.pop("use_legacy_optimizer", False)
    if kwargs:
        raise TypeError(f"Invalid keyword arguments: {kwargs}")
    if isinstance(identifier, Optimizer):
        return identifier
    if optimizer_v1.is_v1_optimizer(identifier):  # (TF 1's: wrapped, as tf_keras)
        return optimizer_v1.TFOptimizer(identifier)
    if isinstance(identifier, dict):
        return deserialize(identifier, use_legacy_optimizer=use_legacy)
    if isinstance(identifier, str):
        return deserialize({"class_name": str(identifier), "config": {}},
                           use_legacy_optimizer=use_legacy)
    raise ValueError(f"Could not interpret optimizer identifier: {identifier}")

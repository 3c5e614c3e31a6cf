"""The public names: ``tf.keras.optimizers``, ``.schedules`` and ``.legacy``."""
import eagerflow as tf
import eagerflow.keras  # noqa: F401
from tests.internals import optimizers, schedules


def test_optimizers_namespace_matches_tf_keras():
    public = tf.keras.optimizers
    names = {"Adadelta", "Adafactor", "Adagrad", "Adam", "AdamW", "Adamax", "Ftrl", "Lion",
             "Nadam", "Optimizer", "RMSprop", "SGD", "deserialize", "get", "serialize",
             "schedules", "legacy"}
    assert names <= set(dir(public))
    assert public.Adam is optimizers.Adam and public.get is optimizers.get
    # the legacy names are tf_keras's OptimizerV2 classes, not the current ones
    for name in ("Adadelta", "Adagrad", "Adam", "Adamax", "Ftrl", "Nadam", "RMSprop", "SGD"):
        legacy = getattr(public.legacy, name)
        assert legacy is not getattr(optimizers, name)
        assert issubclass(legacy, public.legacy.Optimizer)
        assert not issubclass(getattr(optimizers, name), public.legacy.Optimizer)
    assert public.legacy.Optimizer is not optimizers.Optimizer


def test_schedules_namespace():
    public = tf.keras.optimizers.schedules
    for name in ("CosineDecay", "CosineDecayRestarts", "ExponentialDecay", "InverseTimeDecay",
                 "LearningRateSchedule", "PiecewiseConstantDecay", "PolynomialDecay",
                 "serialize", "deserialize"):
        assert getattr(public, name) is getattr(schedules, name)

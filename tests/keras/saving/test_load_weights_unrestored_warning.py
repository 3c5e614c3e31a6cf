"""`Model.load_weights` of a TF checkpoint that holds more than the model: as TF, the
values left unrestored are logged when the model goes, unless `expect_partial` was called."""
import gc

import eagerflow as tf
from eagerflow import keras

_DETECTING = "Detecting that an object or model or tf.train.Checkpoint is being deleted"
_MISSING = "Value in checkpoint could not be found in the restored object: "


def _model(depth):
    inputs = keras.Input((3,))
    x = inputs
    for i in range(depth):
        x = keras.layers.Dense(2, name=f"l{i}")(x)
    return keras.Model(inputs, x)


def _logged(caplog):
    gc.collect()
    return [r.getMessage() for r in caplog.records if r.name == "tensorflow"]


def test_values_the_model_lacks_are_logged_when_it_goes(tmp_path, caplog):
    caplog.set_level("WARNING")
    path = str(tmp_path / "w")
    _model(2).save_weights(path)
    model = _model(1)
    model.load_weights(path)
    assert _logged(caplog) == []  # (not while the model lives)
    del model
    logged = _logged(caplog)
    assert logged[0].startswith(_DETECTING)
    assert logged[1:] == [_MISSING + "(root).layer_with_weights-1.kernel",
                          _MISSING + "(root).layer_with_weights-1.bias"]


def test_no_warning_with_expect_partial_or_when_everything_is_restored(tmp_path, caplog):
    caplog.set_level("WARNING")
    path = str(tmp_path / "w")
    _model(2).save_weights(path)
    model = _model(1)
    model.load_weights(path).expect_partial()
    bigger = _model(3)
    bigger.load_weights(path)  # (the model has more: nothing of the checkpoint unused)
    del model, bigger
    assert _logged(caplog) == []

"""`keras.applications` NASNet and ResNet-RS build tf_keras's models: same layers, weights,
outputs, counts and errors.

``data/nasnet_resnet_rs.json`` is what tf_keras 2.21 built, computed and raised
(``data/make_nasnet_resnet_rs_data.py`` wrote it).
"""
import hashlib
import importlib.util
import json
import logging
import pathlib

import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras
from tests import internals

DATA = pathlib.Path(__file__).parent / "data"
_spec = importlib.util.spec_from_file_location("make_nasnet_resnet_rs_data",
                                               DATA / "make_nasnet_resnet_rs_data.py")
make_data = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(make_data)
REFERENCE = json.loads((DATA / "nasnet_resnet_rs.json").read_text())
base = make_data.base


@pytest.fixture(autouse=True)
def zero_he_kernels(monkeypatch):
    """The models' He-style kernels (VarianceScaling) start as zeros here: what the tests
    compare is the structure, or outputs once the weights are set, and the models build
    without drawing their 30M to 190M random numbers. (The modules' doctests build models
    with their initializers, whose configurations `layer_configs` compares.)"""
    initializers = internals.keras_package.initializers
    monkeypatch.setattr(initializers.VarianceScaling, "__call__",
                        lambda self, shape, dtype=None, **kwargs: tf.zeros(shape, dtype or
                                                                           "float32"))


def build(key):
    return base.build(keras, make_data.CONFIGS[key])


@pytest.mark.parametrize("key", [key for key in make_data.CONFIGS
                                 if key not in make_data.NUMERIC])
def test_models_have_tf_keras_layers_weights_and_names(key):
    model = build(key)
    got, want = base.describe(model), REFERENCE["configs"][key]
    assert got["layers"] == want["layers"]
    assert {k: v for k, v in got.items() if k != "layers"} == \
        {k: v for k, v in want.items() if k != "layers"}


@pytest.mark.parametrize("key", make_data.NUMERIC)
def test_models_compute_what_tf_keras_computes_with_the_same_weights(key):
    # (and have its layers, weights and names)
    model = build(key)
    want = REFERENCE["configs"][key]
    got = base.describe(model)
    assert got["layers"] == want["layers"]
    assert {k: v for k, v in got.items() if k != "layers"} == \
        {k: v for k, v in want.items() if k not in ("layers", "output", "summary",
                                                     "layer_configs")}
    assert make_data.layer_configs(model) == want["layer_configs"]
    assert base.summary(model) == want["summary"]
    model.set_weights(base.fill([(w.name, w.shape.as_list()) for w in model.weights]))
    x = base.inputs(model.input_shape[1:])
    expected = np.array(want["output"])
    np.testing.assert_allclose(model(x, training=False).numpy(), expected, rtol=1e-4,
                               atol=1e-5 * np.abs(expected).max())


@pytest.mark.parametrize("function", make_data.COUNTS)
@pytest.mark.parametrize("top", [True, False])
def test_each_model_has_tf_keras_counts(function, top):
    # with the default input size and top (which drops out 0.25 or 0.4 of its inputs), or
    # none: the counts, ends and drop connect rates (ResNetRS200 on) of the models
    keras.backend.clear_session()
    model = getattr(keras.applications, function)(**({"weights": None} if top else
                                                      make_data.NOTOP))
    assert make_data.counts(model) == REFERENCE["counts"][function + ("" if top else "_notop")]


def _error(function, **kwargs):
    """The type and first line of what building the model raises."""
    with pytest.raises(Exception) as info:
        function(**kwargs)
    return [type(info.value).__name__, str(info.value).splitlines()[0]]


@pytest.mark.parametrize("key", make_data.ERRORS)
def test_arguments_are_checked_as_tf_keras_checks_them(key):
    function, kwargs = make_data.ERRORS[key]
    missing = str(DATA / "missing.h5")
    kwargs = {k: missing if v == "MISSING" else v for k, v in kwargs.items()}
    kind, message = _error(getattr(keras.applications, function), **kwargs)
    message = message.replace(missing, "MISSING")
    want = REFERENCE["errors"][key]
    if key == "resnet_rs_activation":  # the message shows the function (tf_keras's or ours)
        assert kind == want[0] and message.startswith(want[1].split("<function")[0])
    else:
        assert [kind, message] == want


def test_nasnet_builds_channels_last_models_under_channels_first(caplog):
    keras.backend.set_image_data_format("channels_first")
    try:
        with caplog.at_level("WARNING", logger="tensorflow"):
            model = keras.applications.NASNetMobile(weights=None, include_top=False,
                                                    input_tensor=keras.Input((40, 40, 3)),
                                                    pooling="max")
        assert keras.backend.image_data_format() == "channels_first"
    finally:
        keras.backend.set_image_data_format("channels_last")
    assert [r.getMessage().split(" (")[0] for r in caplog.records] == [
        'The NASNet family of models is only available for the input data format '
        '"channels_last"']
    assert (model.input_shape, model.output_shape) == ((None, 40, 40, 3), (None, 1056))
    assert model.get_layer("stem_conv1").output_shape == (None, 19, 19, 32)


def _stand_in_imagenet_file(tmp_path, monkeypatch, model, file_name):
    """`fill`'s weights in `model`, saved as Keras's ImageNet file `file_name` in
    ``~/.keras/models`` (where 'imagenet' reads it from, without downloading it)."""
    monkeypatch.setenv("HOME", str(tmp_path))
    model.set_weights(base.fill([(w.name, w.shape.as_list()) for w in model.weights]))
    (tmp_path / ".keras" / "models").mkdir(parents=True, exist_ok=True)
    path = tmp_path / ".keras" / "models" / file_name
    model.save_weights(path)
    return hashlib.md5(path.read_bytes()).hexdigest()


def test_nasnet_imagenet_weights_are_keras_file(tmp_path, monkeypatch):
    kwargs = {"include_top": False, "input_shape": (32, 32, 3)}
    model = keras.applications.NASNetMobile(weights=None, **kwargs)
    digest = _stand_in_imagenet_file(tmp_path, monkeypatch, model, "nasnet_mobile_no_top.h5")
    nasnet = internals.keras_package.applications.nasnet
    bucket, fname, _ = nasnet._FILES[224][1]
    monkeypatch.setitem(nasnet._FILES, 224, (nasnet._FILES[224][0], (bucket, fname, digest)))
    loaded = keras.applications.NASNetMobile(weights="imagenet", **kwargs)
    x = base.inputs((32, 32, 3))
    np.testing.assert_array_equal(loaded(x).numpy(), model(x).numpy())


def test_resnet_rs_imagenet_weights_are_keras_file_for_the_input_size(tmp_path, monkeypatch):
    """'imagenet' is the file of the largest size Keras has, 'imagenet-i<size>' that of
    `size`; the files' hashes are patched for stand-ins."""
    kwargs = {"include_top": False, "input_shape": (32, 32, 3)}
    model = keras.applications.ResNetRS50(weights=None, **kwargs)
    hashes = internals.keras_package.applications.resnet_rs.WEIGHT_HASHES
    name = "resnet-rs-50-i160_notop.h5"
    monkeypatch.setitem(hashes, name, _stand_in_imagenet_file(tmp_path, monkeypatch, model,
                                                              name))
    x = base.inputs((32, 32, 3))
    for weights in ("imagenet", "imagenet-i160"):
        loaded = keras.applications.ResNetRS50(weights=weights, **kwargs)
        np.testing.assert_array_equal(loaded(x).numpy(), model(x).numpy())


def test_preprocess_input_and_decode_predictions(monkeypatch):
    pre = REFERENCE["preprocess"]
    images = np.array(pre["images"], "float32")
    preprocess = keras.applications.nasnet.preprocess_input
    np.testing.assert_allclose(preprocess(images.copy()), pre["nasnet"], rtol=1e-6)
    np.testing.assert_allclose(preprocess(tf.constant(images)).numpy(), pre["nasnet_tensor"],
                               rtol=1e-6)
    np.testing.assert_allclose(preprocess(images.astype("uint8")), pre["nasnet_uint8"],
                               rtol=1e-6)
    # ResNet-RS normalizes its inputs itself
    assert keras.applications.resnet_rs.preprocess_input(images) is images
    index = {str(i): [f"n{i:08d}", f"class_{i}"] for i in range(1000)}
    monkeypatch.setattr(internals.keras_package.applications.imagenet_utils, "CLASS_INDEX",
                        index)
    preds = np.zeros((1, 1000), "float32")
    preds[0, [5, 9]] = [0.25, 0.75]
    for module in (keras.applications.nasnet, keras.applications.resnet_rs):
        assert [row[:2] for row in module.decode_predictions(preds, top=2)[0]] == [
            ("n00000009", "class_9"), ("n00000005", "class_5")]


def test_public_names_are_tf_keras_ones():
    applications = keras.applications
    assert applications.NASNetMobile is applications.nasnet.NASNetMobile
    assert applications.NASNetLarge is applications.nasnet.NASNetLarge
    for depth in (50, 101, 152, 200, 270, 350, 420):
        function = getattr(applications, f"ResNetRS{depth}")
        assert function is getattr(applications.resnet_rs, f"ResNetRS{depth}")
        assert function.__name__ == f"ResNetRS{depth}"

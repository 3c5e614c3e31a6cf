"""`keras.applications` builds tf_keras's models: same layers, weights, outputs and files.

``data/applications.json`` and ``data/preprocess.json`` are what tf_keras 2.21 built and
computed (``data/make_applications_data.py`` wrote them); ``data/mobilenet_v2_035_32.h5.gz``
is a weights file its ``save_weights`` wrote.
"""
import gzip
import hashlib
import importlib.util
import json
import pathlib

import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras
from tests import internals

DATA = pathlib.Path(__file__).parent / "data"
_spec = importlib.util.spec_from_file_location("make_applications_data",
                                               DATA / "make_applications_data.py")
make_data = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(make_data)
REFERENCE = json.loads((DATA / "applications.json").read_text())
# VGG16's default 138M parameters take seconds to initialize: its layers are those of
# "vgg16_top_10_32" at another input size
STRUCTURES = [key for key in make_data.CONFIGS if key != "vgg16"]


def build(key):
    return make_data.build(keras, make_data.CONFIGS[key])


@pytest.mark.parametrize("key", STRUCTURES)
def test_models_have_tf_keras_layers_weights_and_names(key):
    model = build(key)
    got, want = make_data.describe(model), REFERENCE[key]
    assert got["layers"] == want["layers"]
    assert {k: v for k, v in got.items() if k != "layers"} == \
        {k: v for k, v in want.items() if k not in ("layers", "output", "summary")}


@pytest.mark.parametrize("key", make_data.NUMERIC)
def test_models_compute_what_tf_keras_computes_with_the_same_weights(key):
    model = build(key)
    assert make_data.summary(model) == REFERENCE[key]["summary"]
    model.set_weights(make_data.fill([(w.name, w.shape.as_list()) for w in model.weights]))
    x = make_data.inputs(model.input_shape[1:])
    want = np.array(REFERENCE[key]["output"])
    np.testing.assert_allclose(model(x, training=False).numpy(), want, rtol=1e-4,
                               atol=1e-5 * np.abs(want).max())


def test_a_weights_file_written_by_tf_keras_loads_by_path(tmp_path):
    path = tmp_path / "mobilenet_v2_035_32.h5"
    path.write_bytes(gzip.decompress((DATA / "mobilenet_v2_035_32.h5.gz").read_bytes()))
    keras.backend.clear_session()
    model = keras.applications.MobileNetV2(weights=str(path), alpha=0.35,
                                           input_shape=(32, 32, 3), classes=10)
    x = make_data.inputs((32, 32, 3))
    np.testing.assert_allclose(model.predict(x, verbose=0),
                               REFERENCE["mobilenet_v2_035_32"]["output"], atol=1e-6)


@pytest.mark.parametrize("key", make_data.H5)
def test_save_weights_writes_the_file_tf_keras_writes(key, tmp_path):
    """What tf_keras reads back: the same groups, attributes (layer and weight names in
    order), datasets and values as its own file of the model."""
    h5py = pytest.importorskip("h5py")
    ours, theirs = tmp_path / "ours.h5", tmp_path / "theirs.h5"
    theirs.write_bytes(gzip.decompress((DATA / (key + ".h5.gz")).read_bytes()))
    model = build(key)
    model.set_weights(make_data.fill([(w.name, w.shape.as_list()) for w in model.weights]))
    model.save_weights(ours)

    def contents(path):
        items = []
        with h5py.File(path, "r") as f:
            items.append(sorted((k, np.asarray(v).tolist()) for k, v in f.attrs.items()))
            f.visititems(lambda name, obj: items.append((
                name, type(obj).__name__,
                sorted((k, np.asarray(v).tolist()) for k, v in obj.attrs.items()),
                obj[()].tolist() if isinstance(obj, h5py.Dataset) else None,
                str(obj.dtype) if isinstance(obj, h5py.Dataset) else None)))
        return items
    assert contents(ours) == contents(theirs)


def test_a_model_trains_on_its_inputs():
    keras.utils.set_random_seed(0)
    model = keras.applications.MobileNetV2(weights=None, alpha=0.35, input_shape=(32, 32, 3),
                                           classes=3)
    x = np.random.default_rng(0).uniform(-1, 1, (6, 32, 32, 3)).astype("float32")
    y = np.array([0, 1, 2, 0, 1, 2])
    model.compile(keras.optimizers.Adam(3e-4), "sparse_categorical_crossentropy")
    # the batch has no batch dimension until it runs: the padding's gradient must not need it
    history = model.fit(x, y, epochs=5, batch_size=6, verbose=0).history["loss"]
    assert history[-1] < history[0]


@pytest.mark.parametrize("function", ["ResNet50", "MobileNetV2", "VGG16", "ResNet50V2",
                                      "DenseNet121", "Xception", "InceptionV3",
                                      "InceptionResNetV2", "ConvNeXtTiny", "RegNetX002"])
def test_arguments_are_checked_as_tf_keras_checks_them(function, tmp_path):
    build_model = getattr(keras.applications, function)
    minimum = {"Xception": 71, "InceptionV3": 75, "InceptionResNetV2": 75}.get(function, 32)
    with pytest.raises(ValueError, match="The `weights` argument should be either"):
        build_model(weights=str(tmp_path / "missing.h5"))
    with pytest.raises(ValueError, match="with `include_top` as true, `classes` should be 1000"):
        build_model(weights="imagenet", classes=10)
    with pytest.raises(ValueError, match=rf"Input size must be at least {minimum}x{minimum}; "
                                         r"Received: input_shape=\(16, 16, 3\)"):
        build_model(weights=None, include_top=False, input_shape=(16, 16, 3))
    with pytest.raises(ValueError, match="If `include_top` is True, you should specify a "
                                         "static `input_shape`"):
        build_model(weights=None, input_shape=(None, None, 3))
    if function != "VGG16":  # VGG16 checks after making its 120M dense weights
        with pytest.raises(ValueError, match="Only `None` and `softmax` activations"):
            build_model(weights="imagenet", classifier_activation="relu")


def test_an_intermediate_keras_tensor_as_input_tensor_makes_a_model_of_its_inputs():
    inputs = keras.Input((40, 40, 3))
    scaled = keras.layers.Rescaling(1 / 127.5, offset=-1)(inputs)
    model = keras.applications.VGG16(weights=None, include_top=False, input_tensor=scaled,
                                     pooling="avg")
    assert model.inputs[0] is inputs
    assert model.output_shape == (None, 512)
    assert model(np.zeros((1, 40, 40, 3), "float32")).shape == (1, 512)


PREPROCESS = json.loads((DATA / "preprocess.json").read_text())


@pytest.mark.parametrize("module", make_data.PREPROCESS_MODULES)
def test_preprocess_input_gives_tf_keras_values(module):
    images = np.array(PREPROCESS["images"], "float32")
    preprocess = getattr(keras.applications, module).preprocess_input
    out = preprocess(images.copy())
    assert isinstance(out, np.ndarray)
    np.testing.assert_allclose(out, PREPROCESS[module], rtol=1e-6, atol=1e-5)
    tensor = preprocess(tf.constant(images))
    assert isinstance(tensor, tf.Tensor) and tensor.dtype == tf.float32
    np.testing.assert_allclose(tensor.numpy(), PREPROCESS[module + "_tensor"], rtol=1e-6,
                               atol=1e-5)
    np.testing.assert_allclose(preprocess(images.copy(), data_format="channels_first"),
                               PREPROCESS[module + "_channels_first"], rtol=1e-6, atol=1e-5)
    # integer arrays become float32 ones; tensors keep their dtype, as in Keras
    ints = preprocess(np.full((1, 2, 2, 3), 255, "uint8"))
    assert ints.dtype == np.float32
    for dtype in ("int32", "uint8", "float64"):
        kind, want = PREPROCESS[f"{module}_{dtype}"]
        if kind == "TypeError":
            with pytest.raises(TypeError, match=want):
                preprocess(tf.constant(images.astype(dtype)))
        else:
            got = preprocess(tf.constant(images.astype(dtype)))
            assert got.dtype.name == kind
            np.testing.assert_allclose(got.numpy(), want, rtol=1e-12, atol=0)


@pytest.mark.parametrize("module", ["convnext", "regnet"])
def test_preprocess_input_of_self_normalizing_models_passes_inputs_through(module):
    # the models normalize their inputs themselves (include_preprocessing)
    preprocess = getattr(keras.applications, module).preprocess_input
    images = np.array(PREPROCESS["images"], "float32")
    assert preprocess(images) is images
    ints = np.full((1, 2, 2, 3), 255, "uint8")
    assert preprocess(ints) is ints


def test_preprocess_input_torch_mode_gives_tf_keras_values():
    images = np.array(PREPROCESS["images"], "float32")
    preprocess = keras.applications.imagenet_utils.preprocess_input
    np.testing.assert_allclose(preprocess(images.copy(), mode="torch"), PREPROCESS["torch"],
                               rtol=1e-6)
    np.testing.assert_allclose(preprocess(tf.constant(images), mode="torch").numpy(),
                               PREPROCESS["torch_tensor"], rtol=1e-6)
    np.testing.assert_allclose(preprocess(images.copy(), mode="torch",
                                          data_format="channels_first"),
                               PREPROCESS["torch_channels_first"], rtol=1e-6)


def test_preprocess_input_inside_a_function():
    fn = tf.function(keras.applications.resnet50.preprocess_input)
    x = np.random.default_rng(0).uniform(0, 255, (2, 4, 4, 3)).astype("float32")
    np.testing.assert_allclose(fn(tf.constant(x)).numpy(),
                               keras.applications.resnet50.preprocess_input(x.copy()),
                               rtol=1e-6)


def test_preprocess_input_rejects_unknown_modes():
    with pytest.raises(ValueError, match="Expected mode to be one of `caffe`, `tf` or `torch`. "
                                         "Received: mode=keras"):
        keras.applications.imagenet_utils.preprocess_input(np.zeros((1, 2, 2, 3)), mode="keras")
    with pytest.raises(ValueError, match="Received: data_format=NHWC"):
        keras.applications.vgg16.preprocess_input(np.zeros((1, 2, 2, 3)), data_format="NHWC")


def test_decode_predictions(monkeypatch):
    index = {str(i): [f"n{i:08d}", f"class_{i}"] for i in range(1000)}
    monkeypatch.setattr(internals.keras_package.applications.imagenet_utils, "CLASS_INDEX",
                        index)
    preds = np.zeros((2, 1000), "float32")
    preds[0, [7, 3, 900]] = [0.5, 0.3, 0.2]
    preds[1, 42] = 1.0
    decoded = keras.applications.resnet50.decode_predictions(preds, top=3)
    assert [row[:2] for row in decoded[0]] == [("n00000007", "class_7"),
                                                ("n00000003", "class_3"),
                                                ("n00000900", "class_900")]
    assert decoded[1][0] == ("n00000042", "class_42", np.float32(1.0))
    with pytest.raises(ValueError, match=r"a 2D array of shape \(samples, 1000\)\). Found "
                                         r"array with shape: \(2, 10\)"):
        keras.applications.mobilenet_v2.decode_predictions(np.zeros((2, 10)))


def test_imagenet_weights_load_from_keras_cache(tmp_path, monkeypatch):
    """'imagenet' reads Keras's file from ``~/.keras/models`` when it is there (without
    downloading); here a file of the same name and layout stands in for it."""
    monkeypatch.setenv("HOME", str(tmp_path))
    kwargs = {"alpha": 0.35, "include_top": False, "input_shape": (32, 32, 3)}
    model = keras.applications.MobileNetV2(weights=None, **kwargs)
    model.set_weights(make_data.fill([(w.name, w.shape.as_list()) for w in model.weights]))
    (tmp_path / ".keras" / "models").mkdir(parents=True)
    # 32 is not a size Keras has weights for: it loads those of 224x224 images
    model.save_weights(tmp_path / ".keras" / "models" /
                       "mobilenet_v2_weights_tf_dim_ordering_tf_kernels_0.35_224_no_top.h5")
    loaded = keras.applications.MobileNetV2(weights="imagenet", **kwargs)
    x = make_data.inputs((32, 32, 3))
    np.testing.assert_array_equal(loaded(x).numpy(), model(x).numpy())
    assert loaded.name == "mobilenetv2_0.35_224"


@pytest.mark.parametrize("function, name, params, layers, last", [
    (lambda **kw: tf.keras.applications.VGG19(**kw), "vgg19", 20024384, 23, "block5_pool"),
    (lambda **kw: tf.keras.applications.vgg19.VGG19(**kw), "vgg19", 20024384, 23,
     "block5_pool"),
    (lambda **kw: tf.keras.applications.ResNet101(**kw), "resnet101", 42658176, 346,
     "conv5_block3_out"),
    (lambda **kw: tf.keras.applications.resnet.ResNet152(**kw), "resnet152", 58370944, 516,
     "conv5_block3_out"),
])
def test_deeper_vgg_and_resnet_variants_are_tf_keras_models(function, name, params, layers,
                                                            last):
    # (counts and names as tf_keras 2.21 builds them)
    model = function(weights=None, include_top=False, input_shape=(32, 32, 3), pooling="avg")
    assert (model.name, model.count_params(), len(model.layers), model.layers[-2].name) == (
        name, params, layers, last)
    with pytest.raises(ValueError, match="with `include_top` as true, `classes` should be 1000"):
        function(weights="imagenet", classes=10)


def test_vgg19_has_vgg16s_top_and_preprocessing():
    assert tf.keras.applications.VGG19(weights=None).count_params() == 143667240
    np.testing.assert_allclose(
        tf.keras.applications.vgg19.preprocess_input(np.full((1, 1, 1, 3), 100.0)).ravel(),
        [-3.939003, -16.779, -23.68], rtol=1e-6)


def test_inception_resnet_v2_scale_layer_round_trips_as_tf_keras_registers_it():
    layer = internals.keras_package.applications.inception_resnet_v2.CustomScaleLayer(0.17)
    assert keras.utils.get_registered_name(type(layer)) == "Custom>CustomScaleLayer"
    config = keras.layers.serialize(layer)
    assert config["registered_name"] == "Custom>CustomScaleLayer"
    again = keras.layers.deserialize(config)
    assert again.scale == 0.17
    np.testing.assert_allclose(again([np.ones((1, 2), "float32"), np.full((1, 2), 2.0,
                                                                           "float32")]).numpy(),
                               [[1.34, 1.34]], rtol=1e-6)


def test_layers_of_the_applications_modules_are_serialized_as_tf_keras_serializes_them():
    # (the module and registered name of tf_keras 2.21's configs: saved models name them so)
    applications = internals.keras_package.applications
    layers = [applications.convnext.LayerScale(0.5, 3, name="scale"),
              applications.convnext.StochasticDepth(0.1, name="drop"),
              applications.inception_resnet_v2.CustomScaleLayer(0.17, name="add")]
    assert [(config["module"], config["class_name"], config["registered_name"])
            for config in map(keras.layers.serialize, layers)] == [
        ("tf_keras.src.applications.convnext", "LayerScale", "LayerScale"),
        ("tf_keras.src.applications.convnext", "StochasticDepth", "StochasticDepth"),
        ("tf_keras.src.applications.inception_resnet_v2", "CustomScaleLayer",
         "Custom>CustomScaleLayer")]
    model = keras.applications.ConvNeXtTiny(weights=None, input_shape=(32, 32, 3), classes=5)
    config = [layer for layer in model.get_config()["layers"]
              if layer["class_name"] == "LayerScale"][0]
    assert config["module"] == "tf_keras.src.applications.convnext"
    # loading the model's JSON needs the class, as in tf_keras
    scale = type(model.get_layer("convnext_tiny_stage_0_block_0_layer_scale"))
    again = keras.models.model_from_json(model.to_json(), custom_objects={"LayerScale": scale})
    assert again.count_params() == model.count_params()


def test_convnext_stochastic_depth_drops_whole_examples_while_training():
    convnext = internals.keras_package.applications.convnext
    layer = convnext.StochasticDepth(0.5)
    x = np.ones((400, 3), "float32")
    np.testing.assert_array_equal(layer(x).numpy(), x)  # inference: the identity
    y = layer(x, training=True).numpy()
    assert set(np.unique(y)) <= {0.0, 2.0}
    assert (y == y[:, :1]).all()  # each example kept or dropped whole
    assert 100 < (y[:, 0] == 0).sum() < 300
    assert layer.get_config()["drop_path_rate"] == 0.5
    scale = convnext.LayerScale(1e-6, 3, name="ls")
    scale(x)
    assert [w.name for w in scale.weights] == ["ls/gamma:0"]
    np.testing.assert_allclose(scale(x).numpy(), np.full((400, 3), 1e-6), rtol=1e-6)


def test_regnet_heads_are_numbered_per_session_as_in_tf_keras():
    keras.backend.clear_session()
    first = keras.applications.RegNetX002(weights=None, input_shape=(32, 32, 3), classes=3)
    second = keras.applications.RegNetY002(weights=None, input_shape=(32, 32, 3), classes=3)
    assert [layer.name for layer in first.layers[-2:]] == ["1_head_gap", "1head_dense"]
    assert [layer.name for layer in second.layers[-2:]] == ["2_head_gap", "2head_dense"]
    # tf_keras's RegNet head has no activation, whatever classifier_activation says
    assert second.layers[-1].get_config()["activation"] == "linear"


# MobileNet, MobileNetV3, EfficientNet


def _stand_in_imagenet_file(tmp_path, monkeypatch, model, file_name, hashes=None):
    """`fill`'s weights in `model`, saved as Keras's ImageNet file `file_name` in
    ``~/.keras/models``, where 'imagenet' reads it from (without downloading it). With
    `hashes` (module name, key, index of the file's hash there), the model's hash of the file
    becomes that of the stand-in. Returns the weights."""
    monkeypatch.setenv("HOME", str(tmp_path))
    values = make_data.fill([(w.name, w.shape.as_list()) for w in model.weights])
    model.set_weights(values)
    (tmp_path / ".keras" / "models").mkdir(parents=True)
    path = tmp_path / ".keras" / "models" / file_name
    model.save_weights(path)
    if hashes is not None:
        module, key, index = hashes
        table = getattr(internals.keras_package.applications, module)._HASHES
        pair = list(table[key])
        pair[index] = hashlib.md5(path.read_bytes()).hexdigest()
        monkeypatch.setitem(table, key, tuple(pair))
    return values


def _error(function, **kwargs):
    """The type and first line of what building the model raises."""
    with pytest.raises(Exception) as info:
        function(**kwargs)
    return type(info.value).__name__, str(info.value).splitlines()[0]


def test_mobilenet_checks_its_arguments_as_tf_keras_does(tmp_path):
    # (messages as tf_keras 2.21 words them)
    mobilenet = keras.applications.mobilenet.MobileNet
    assert _error(mobilenet, weights="imagenet", depth_multiplier=2) == (
        "ValueError", "If imagenet weights are being loaded, depth multiplier must be 1.  "
                      "Received depth_multiplier=2")
    assert _error(mobilenet, weights="imagenet", alpha=0.3) == (
        "ValueError", "If imagenet weights are being loaded, alpha can be one of`0.25`, "
                      "`0.50`, `0.75` or `1.0` only.  Received alpha=0.3")
    missing = str(tmp_path / "missing.h5")
    assert _error(mobilenet, weights=missing) == (
        "ValueError", "The `weights` argument should be either `None` (random "
                      "initialization), `imagenet` (pre-training on ImageNet), or the path to "
                      f"the weights file to be loaded.  Received weights={missing}")
    assert _error(mobilenet, weights="imagenet", classes=10) == (
        "ValueError", 'If using `weights` as `"imagenet"` with `include_top` as true, '
                      "`classes` should be 1000.  Received classes=10")
    assert _error(mobilenet, weights=None, foo=1) == (
        "ValueError", "Unknown argument(s): ({'foo': 1},)")
    assert _error(mobilenet, weights=None, include_top=False, input_shape=(16, 16, 3)) == (
        "ValueError", "Input size must be at least 32x32; Received: input_shape=(16, 16, 3)")
    assert _error(mobilenet, weights="imagenet", classifier_activation="relu")[1].startswith(
        "Only `None` and `softmax` activations")
    # the name tells the input size ImageNet weights would be for
    assert mobilenet(weights=None, input_shape=(160, 160, 3)).name == "mobilenet_1.00_160"
    assert mobilenet(weights=None, include_top=False).name == "mobilenet_1.00_None"


def test_mobilenet_imagenet_weights_are_keras_file(tmp_path, monkeypatch):
    kwargs = {"alpha": 0.25, "include_top": False, "input_shape": (32, 32, 3)}
    model = keras.applications.MobileNet(weights=None, **kwargs)
    _stand_in_imagenet_file(tmp_path, monkeypatch, model, "mobilenet_2_5_224_tf_no_top.h5")
    loaded = keras.applications.MobileNet(weights="imagenet", **kwargs)
    x = make_data.inputs((32, 32, 3))
    np.testing.assert_array_equal(loaded(x).numpy(), model(x).numpy())
    assert loaded.name == "mobilenet_0.25_224"


def test_mobilenet_preprocess_input_gives_tf_keras_values():
    images = np.array(PREPROCESS["images"], "float32")
    preprocess = keras.applications.mobilenet.preprocess_input
    np.testing.assert_allclose(preprocess(images.copy()), PREPROCESS["mobilenet"], rtol=1e-6)
    np.testing.assert_allclose(preprocess(tf.constant(images)).numpy(),
                               PREPROCESS["mobilenet_tensor"], rtol=1e-6)


def test_mobilenet_v3_checks_its_arguments_as_tf_keras_does():
    small, large = keras.applications.MobileNetV3Small, keras.applications.MobileNetV3Large
    alpha_error = ("ValueError", "If imagenet weights are being loaded, alpha can be one of "
                                 "`0.75`, `1.0` for non minimalistic or `1.0` for minimalistic "
                                 "only.")
    assert _error(small, weights="imagenet", alpha=0.5) == alpha_error
    assert _error(large, weights="imagenet", alpha=0.75, minimalistic=True) == alpha_error
    assert _error(small, weights="imagenet", classes=10) == (
        "ValueError", 'If using `weights` as `"imagenet"` with `include_top` as true, '
                      "`classes` should be 1000.  Received classes=10")
    assert _error(small, weights=None, input_shape=(16, 40, 3)) == (
        "ValueError", "Input size must be at least 32x32; Received `input_shape=(16, 40, 3)`")
    assert _error(small, weights=None, input_shape=(40, 40, 3),
                  input_tensor=keras.Input((40, 50, 3))) == (
        "ValueError", "input_shape[1] must equal backend.int_shape(input_tensor)[2].  Received "
                      "input_shape=(40, 40, 3), backend.int_shape(input_tensor)=(None, 40, 50, "
                      "3)")
    # the shape taken from an input tensor has its rows and columns swapped, as in Keras
    assert _error(large, weights=None, input_tensor=keras.Input((20, 50, 3))) == (
        "ValueError", "Input size must be at least 32x32; Received `input_shape=(50, 20, 3)`")
    model = small(weights=None, input_shape=(40, 50, 3), input_tensor=keras.Input((40, 50, 3)))
    assert model.input_shape == (None, 40, 50, 3)
    x = np.arange(6.0)
    assert keras.applications.mobilenet_v3.preprocess_input(x) is x


def test_mobilenet_v3_imagenet_weights_are_keras_file(tmp_path, monkeypatch, caplog):
    """'imagenet' reads Keras's file (checked against its hash) from ``~/.keras/models``;
    here a file of the same name and layout, with the hash patched, stands in for it."""
    kwargs = {"alpha": 0.75, "input_shape": (32, 32, 3)}
    model = keras.applications.MobileNetV3Large(weights=None, **kwargs)
    _stand_in_imagenet_file(tmp_path, monkeypatch, model,
                            "weights_mobilenet_v3_large_224_0.75_float.h5",
                            ("mobilenet_v3", "large_224_0.75_float", 0))
    with caplog.at_level("WARNING", logger="tensorflow"):
        loaded = keras.applications.MobileNetV3Large(weights="imagenet", **kwargs)
    # logged on TF's logger, as tf_keras does
    assert [(r.name, r.getMessage().split(",")[0]) for r in caplog.records] == [
        ("tensorflow", "`input_shape` is undefined or non-square")]
    x = make_data.inputs((32, 32, 3))
    np.testing.assert_array_equal(loaded(x).numpy(), model(x).numpy())


def test_a_mobilenet_v3_weights_file_written_by_tf_keras_loads(tmp_path):
    # its layers' names nest ("Conv" and "Conv/BatchNorm"), as do the file's groups
    key = "mobilenet_v3_small_025_notop_32"
    path = tmp_path / (key + ".h5")
    path.write_bytes(gzip.decompress((DATA / (key + ".h5.gz")).read_bytes()))
    model = build(key)
    x = make_data.inputs((32, 32, 3))
    want = REFERENCE[key]["output"]
    model.load_weights(str(path))
    np.testing.assert_allclose(model(x).numpy(), want, rtol=1e-5, atol=1e-6)
    keras.backend.clear_session()
    model = keras.applications.MobileNetV3Small(weights=str(path), alpha=0.25,
                                                include_top=False, input_shape=(32, 32, 3))
    np.testing.assert_allclose(model(x).numpy(), want, rtol=1e-5, atol=1e-6)
    model = build(key)
    model.load_weights(str(path), by_name=True)
    np.testing.assert_allclose(model(x).numpy(), want, rtol=1e-5, atol=1e-6)


def test_efficientnet_checks_its_arguments_as_tf_keras_does(tmp_path):
    # (messages as tf_keras 2.21 words them)
    b0 = keras.applications.EfficientNetB0
    assert _error(b0, weights=str(tmp_path / "missing.h5")) == (
        "ValueError", "The `weights` argument should be either `None` (random initialization), "
                      "`imagenet` (pre-training on ImageNet), or the path to the weights file "
                      "to be loaded.")
    assert _error(b0, weights="imagenet", classes=10) == (
        "ValueError", 'If using `weights` as `"imagenet"` with `include_top` as true, '
                      "`classes` should be 1000")
    assert _error(b0, weights=None, foo=1) == (
        "TypeError", "EfficientNet() got an unexpected keyword argument 'foo'")
    assert _error(b0, weights=None, dropout_rate=0.1) == (
        "TypeError", "EfficientNet() got multiple values for argument 'dropout_rate'")
    assert _error(keras.applications.efficientnet.EfficientNetB1, weights=None,
                  include_top=False, input_shape=(16, 16, 3)) == (
        "ValueError", "Input size must be at least 32x32; Received: input_shape=(16, 16, 3)")
    assert _error(b0, weights="imagenet", input_shape=(32, 32, 3)) == (
        "ValueError", "When setting `include_top=True` and loading `imagenet` weights, "
                      "`input_shape` should be (224, 224, 3).  Received: input_shape=(32, 32, "
                      "3)")
    # what the builder's keyword arguments change (as in tf_keras: counts of its models)
    model = b0(weights=None, include_top=False, drop_connect_rate=0.0, activation="relu",
               depth_divisor=16, input_shape=(32, 32, 3))
    assert (model.count_params(), len(model.layers)) == (4090411, 228)
    assert model.get_layer("stem_activation").get_config()["activation"] == "relu"
    x = np.arange(6.0)
    assert keras.applications.efficientnet.preprocess_input(x) is x


def test_efficientnet_drops_whole_residual_branches_at_a_rate_growing_with_depth():
    model = keras.applications.EfficientNetB0(weights=None, include_top=False,
                                              input_shape=(32, 32, 3))
    drops = [layer for layer in model.layers if layer.name.endswith("_drop")]
    # tf_keras's rates: 0.2 times the index of the block among the 16
    assert [(layer.name, layer.rate) for layer in drops[:2]] == [("block2b_drop", 0.2 * 2 / 16),
                                                                 ("block3b_drop", 0.2 * 4 / 16)]
    assert all(layer.noise_shape == (None, 1, 1, 1) for layer in drops)
    # in training a sample's branch is kept (scaled) or dropped as a whole
    x = tf.random.normal((64, 4, 4, 8))
    out = drops[-1](x, training=True).numpy()
    kept = np.abs(out).reshape(64, -1).max(axis=1) > 0
    np.testing.assert_allclose(out[kept], x.numpy()[kept] / (1 - drops[-1].rate), rtol=1e-6)
    assert not np.any(out[~kept])


def test_efficientnet_imagenet_weights_go_with_imagenet_scaling(tmp_path, monkeypatch):
    """With 'imagenet' the model divides its normalized inputs by the square roots of
    ImageNet's standard deviations (a ``tf.math.multiply`` layer), as tf_keras's does, and
    reads Keras's file (checked against its hash: patched here for a stand-in file)."""
    keras.backend.clear_session()
    kwargs = {"include_top": False, "input_shape": (32, 32, 3)}
    model = keras.applications.EfficientNetB0(weights=None, **kwargs)
    values = _stand_in_imagenet_file(tmp_path, monkeypatch, model, "efficientnetb0_notop.h5",
                                     ("efficientnet", "b0", 1))
    loaded = keras.applications.EfficientNetB0(weights="imagenet", **kwargs)
    scale = loaded.layers[3]
    assert (scale.name, type(scale).__name__, scale.output_shape) == (
        "tf.math.multiply", "TFOpLambda", (None, 32, 32, 3))
    assert [layer.name for layer in loaded.layers[4:6]] == ["stem_conv_pad", "stem_conv"]
    # the same as normalizing by variances times the standard deviations
    assert model.weights[1].name == "normalization/variance:0"
    values[1] = values[1] * np.array([0.229, 0.224, 0.225], "float32")
    model.set_weights(values)
    x = make_data.inputs((32, 32, 3))
    np.testing.assert_allclose(loaded(x).numpy(), model(x).numpy(), rtol=1e-5, atol=1e-5)


def test_efficientnet_v2_checks_its_arguments_as_tf_keras_does(tmp_path):
    # (messages as tf_keras 2.21 words them)
    b0 = keras.applications.EfficientNetV2B0
    missing = str(tmp_path / "missing.h5")
    assert _error(b0, weights=missing) == (
        "ValueError", "The `weights` argument should be either `None` (random initialization), "
                      "`imagenet` (pre-training on ImageNet), or the path to the weights file "
                      f"to be loaded.Received: weights={missing}")
    assert _error(b0, weights="imagenet", classes=10) == (
        "ValueError", "If using `weights` as `'imagenet'` with `include_top` as true, "
                      "`classes` should be 1000Received: classes=10")
    assert _error(b0, weights=None, foo=1) == (
        "TypeError", "EfficientNetV2B0() got an unexpected keyword argument 'foo'")
    assert _error(keras.applications.efficientnet_v2.EfficientNetV2B1, weights=None,
                  include_top=False, input_shape=(16, 16, 3)) == (
        "ValueError", "Input size must be at least 32x32; Received: input_shape=(16, 16, 3)")
    x = np.arange(6.0)
    assert keras.applications.efficientnet_v2.preprocess_input(x) is x


def test_efficientnet_v2_models_are_tf_keras_ones():
    keras.backend.clear_session()
    model = keras.applications.EfficientNetV2B0(weights=None, include_top=False,
                                                input_shape=(32, 32, 3))
    # tf_keras's rates: 0.2 times the index of the block among the stages' 21 repeats
    assert [(layer.name, round(layer.rate, 6)) for layer in model.layers
            if layer.name.endswith("_drop")][:2] == [("block2b_drop", 0.019048),
                                                      ("block3b_drop", 0.038095)]
    # ImageNet's colour statistics are constants of the B models, not weights
    norm = model.get_layer("normalization")
    assert (norm.weights, norm.get_config()["mean"]) == ([], [0.485, 0.456, 0.406])


def test_efficientnet_v2_imagenet_weights_are_keras_file(tmp_path, monkeypatch):
    kwargs = {"include_top": False, "input_shape": (32, 32, 3)}
    model = keras.applications.EfficientNetV2B0(weights=None, **kwargs)
    _stand_in_imagenet_file(tmp_path, monkeypatch, model, "efficientnetv2-b0_notop.h5",
                            ("efficientnet_v2", "b0", 1))
    loaded = keras.applications.EfficientNetV2B0(weights="imagenet", **kwargs)
    x = make_data.inputs((32, 32, 3))
    np.testing.assert_array_equal(loaded(x).numpy(), model(x).numpy())

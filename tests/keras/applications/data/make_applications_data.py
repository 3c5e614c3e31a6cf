"""Writes what tf_keras's applications are, for `test_applications.py` to compare with.

``applications.json``: for each model of `CONFIGS`, its name, layers (name, class, output
shape, weights' names and shapes), weight and parameter counts; and, for the models of
`NUMERIC`, its ``summary()`` and its outputs on `inputs()` once `fill` set its weights. ``preprocess.json``: what
each module's ``preprocess_input`` gives. ``<model>.h5`` for the models of `H5`: the weights
``save_weights`` wrote for `fill`'s weights of the model (checked in gzipped), with its
outputs in ``applications.json``.

Run with TensorFlow 2.x and tf_keras: ``TF_USE_LEGACY_KERAS=1 python make_applications_data.py``.
"""
import gzip
import json
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))

# name -> (function, keyword arguments; "input_tensor" is the shape of an `Input` to pass)
CONFIGS = {
    "resnet50": ("ResNet50", {"weights": None}),
    "resnet50_notop_avg_32": ("ResNet50", {"weights": None, "include_top": False,
                                           "input_shape": (32, 32, 3), "pooling": "avg"}),
    "resnet50_top_10_32": ("ResNet50", {"weights": None, "input_shape": (32, 32, 3),
                                        "classes": 10, "classifier_activation": None}),
    "resnet50_notop_none": ("ResNet50", {"weights": None, "include_top": False}),
    "mobilenet_v2": ("MobileNetV2", {"weights": None}),
    "mobilenet_v2_035_32": ("MobileNetV2", {"weights": None, "alpha": 0.35,
                                            "input_shape": (32, 32, 3), "classes": 10}),
    "mobilenet_v2_130_96_max": ("MobileNetV2", {"weights": None, "alpha": 1.3,
                                                "include_top": False, "pooling": "max",
                                                "input_shape": (96, 96, 3)}),
    "mobilenet_v2_050_33_tensor": ("MobileNetV2", {"weights": None, "alpha": 0.5,
                                                   "include_top": False,
                                                   "input_tensor": (33, 33, 3)}),
    "vgg16": ("VGG16", {"weights": None}),
    "vgg16_notop_max_32": ("VGG16", {"weights": None, "include_top": False,
                                     "input_shape": (32, 32, 3), "pooling": "max"}),
    "vgg16_top_10_32": ("VGG16", {"weights": None, "input_shape": (32, 32, 3),
                                  "classes": 10}),
    # ResNetV2, DenseNet, Xception, InceptionV3
    "resnet50v2_notop_avg_32": ("ResNet50V2", {"weights": None, "include_top": False,
                                               "input_shape": (32, 32, 3), "pooling": "avg"}),
    "resnet101v2_top_10_32": ("ResNet101V2", {"weights": None, "input_shape": (32, 32, 3),
                                              "classes": 10}),
    "densenet121_top_10_32": ("DenseNet121", {"weights": None, "input_shape": (32, 32, 3),
                                              "classes": 10}),
    "densenet169_notop_max_32": ("DenseNet169", {"weights": None, "include_top": False,
                                                 "input_shape": (32, 32, 3), "pooling": "max"}),
    "xception_top_10_71": ("Xception", {"weights": None, "input_shape": (71, 71, 3),
                                        "classes": 10}),
    "inception_v3_top_10_75": ("InceptionV3", {"weights": None, "input_shape": (75, 75, 3),
                                               "classes": 10}),
    "inception_v3_notop_max_tensor": ("InceptionV3", {"weights": None, "include_top": False,
                                                      "pooling": "max",
                                                      "input_tensor": (80, 80, 3)}),
    "inception_resnet_v2_top_10_75": ("InceptionResNetV2", {"weights": None,
                                                            "input_shape": (75, 75, 3),
                                                            "classes": 10}),
    "convnext_tiny_top_10_32": ("ConvNeXtTiny", {"weights": None, "input_shape": (32, 32, 3),
                                                 "classes": 10}),
    "convnext_small_notop_max_32": ("ConvNeXtSmall", {"weights": None, "include_top": False,
                                                      "include_preprocessing": False,
                                                      "input_shape": (32, 32, 3),
                                                      "pooling": "max"}),
    "regnetx002_top_10_32": ("RegNetX002", {"weights": None, "input_shape": (32, 32, 3),
                                            "classes": 10}),
    "regnety002_top_10_32": ("RegNetY002", {"weights": None, "input_shape": (32, 32, 3),
                                            "classes": 10}),
    "regnetx080_notop_max_32": ("RegNetX080", {"weights": None, "include_top": False,
                                               "input_shape": (32, 32, 3), "pooling": "max"}),
    "regnety016_notop_avg_nopre_40": ("RegNetY016", {"weights": None, "include_top": False,
                                                     "include_preprocessing": False,
                                                     "input_shape": (40, 40, 3),
                                                     "pooling": "avg"}),
    # MobileNet, MobileNetV3, EfficientNet
    "mobilenet": ("MobileNet", {"weights": None}),
    "mobilenet_025_32": ("MobileNet", {"weights": None, "alpha": 0.25,
                                       "input_shape": (32, 32, 3), "classes": 10}),
    "mobilenet_050_dm2_35_avg": ("MobileNet", {"weights": None, "alpha": 0.5,
                                               "depth_multiplier": 2, "include_top": False,
                                               "pooling": "avg", "input_shape": (35, 35, 3)}),
    "mobilenet_025_tensor_max": ("MobileNet", {"weights": None, "alpha": 0.25,
                                               "include_top": False, "pooling": "max",
                                               "input_tensor": (33, 40, 3)}),
    "mobilenet_v3_small": ("MobileNetV3Small", {"weights": None}),
    "mobilenet_v3_large": ("MobileNetV3Large", {"weights": None}),
    "mobilenet_v3_small_025_32": ("MobileNetV3Small", {"weights": None, "alpha": 0.25,
                                                       "input_shape": (32, 32, 3),
                                                       "classes": 10}),
    "mobilenet_v3_small_125_min_32": ("MobileNetV3Small", {"weights": None, "alpha": 1.25,
                                                           "minimalistic": True,
                                                           "input_shape": (32, 32, 3),
                                                           "classes": 7}),
    "mobilenet_v3_large_025_min_40_avg": ("MobileNetV3Large", {"weights": None, "alpha": 0.25,
                                                               "minimalistic": True,
                                                               "include_top": False,
                                                               "pooling": "avg",
                                                               "input_shape": (40, 40, 3)}),
    "mobilenet_v3_large_050_tensor": ("MobileNetV3Large", {"weights": None, "alpha": 0.5,
                                                           "input_tensor": (48, 40, 3),
                                                           "include_preprocessing": False,
                                                           "dropout_rate": 0, "classes": 5}),
    "mobilenet_v3_small_025_notop_32": ("MobileNetV3Small", {"weights": None, "alpha": 0.25,
                                                             "include_top": False,
                                                             "input_shape": (32, 32, 3)}),
    "efficientnet_b0_32_10": ("EfficientNetB0", {"weights": None, "input_shape": (32, 32, 3),
                                                 "classes": 10}),
    "efficientnet_b0_notop_tensor_max": ("EfficientNetB0", {"weights": None,
                                                            "include_top": False,
                                                            "input_tensor": (40, 36, 3),
                                                            "pooling": "max"}),
    "efficientnet_b2_notop_avg_32": ("EfficientNetB2", {"weights": None, "include_top": False,
                                                        "input_shape": (32, 32, 3),
                                                        "pooling": "avg"}),
    "efficientnetv2_b0_32_10": ("EfficientNetV2B0", {"weights": None, "input_shape": (32, 32, 3),
                                                     "classes": 10}),
    "efficientnetv2_b0_notop_1ch_max": ("EfficientNetV2B0", {"weights": None,
                                                             "include_top": False,
                                                             "input_shape": (32, 32, 1),
                                                             "pooling": "max"}),
}
NUMERIC = ["resnet50_notop_avg_32", "mobilenet_v2_035_32", "mobilenet_v2_050_33_tensor",
           "vgg16_notop_max_32",
           # ResNetV2, DenseNet, Xception, InceptionV3
           "resnet50v2_notop_avg_32", "densenet121_top_10_32", "xception_top_10_71",
           "inception_v3_top_10_75", "inception_resnet_v2_top_10_75", "convnext_tiny_top_10_32",
           "regnety002_top_10_32", "regnety016_notop_avg_nopre_40",
           # MobileNet, MobileNetV3, EfficientNet
           "mobilenet_025_32", "mobilenet_050_dm2_35_avg", "mobilenet_025_tensor_max",
           "mobilenet_v3_small_025_32", "mobilenet_v3_small_125_min_32",
           "mobilenet_v3_large_025_min_40_avg", "mobilenet_v3_large_050_tensor",
           "mobilenet_v3_small_025_notop_32",
           "efficientnet_b0_32_10", "efficientnet_b0_notop_tensor_max",
           "efficientnetv2_b0_32_10", "efficientnetv2_b0_notop_1ch_max"]
H5 = ("mobilenet_v2_035_32", "mobilenet_v3_small_025_notop_32")
PREPROCESS_MODULES = ("resnet50", "mobilenet_v2", "vgg16", "resnet_v2", "densenet", "xception",
                      "inception_v3", "inception_resnet_v2", "mobilenet")


def fill(weights):
    """Values for weights named and shaped as `weights` (pairs) that keep activations in range."""
    values = []
    for i, (name, shape) in enumerate(weights):
        rng = np.random.default_rng(i)
        base = name.rsplit("/", 1)[-1].split(":")[0]
        if base in ("gamma", "moving_variance"):
            value = rng.uniform(0.5, 1.5, shape)
        elif base in ("beta", "bias", "moving_mean"):
            value = rng.normal(0.0, 0.1, shape)
        elif base == "depthwise_kernel":
            value = rng.normal(0.0, 1.0, shape) / np.sqrt(np.prod(shape[:2]))
        else:
            value = rng.normal(0.0, 1.0, shape) / np.sqrt(np.prod(shape[:-1]))
        # multiples of 1/256: short mantissas, so that the checked-in weights file compresses
        values.append((np.round(value * 256) / 256).astype("float32"))
    return values


def inputs(shape):
    return np.random.default_rng(0).uniform(-1.0, 1.0, (2, *shape)).astype("float32")


def build(keras, config):
    """The model of `config` (a function's name and keyword arguments, as in `CONFIGS`) that
    `keras` builds in a new session."""
    function, kwargs = config
    keras.backend.clear_session()
    kwargs = dict(kwargs)
    if "input_tensor" in kwargs:
        kwargs["input_tensor"] = keras.Input(kwargs["input_tensor"])
    return getattr(keras.applications, function)(**kwargs)


def summary(model):
    lines = []
    model.summary(print_fn=lines.append)
    return lines


def describe(model):
    return {
        "name": model.name,
        "layers": [[layer.name, type(layer).__name__,
                    [list(s) for s in _shapes(layer.output_shape)],
                    [[w.name, list(w.shape)] for w in layer.weights]]
                   for layer in model.layers],
        "weights": len(model.weights),
        "trainable_weights": len(model.trainable_weights),
        "params": int(model.count_params()),
        "input_shape": list(model.input_shape),
        "output_shape": list(model.output_shape),
    }


def _shapes(shape):
    return shape if isinstance(shape, list) else [shape]


def main():
    os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
    import tensorflow as tf
    keras = tf.keras
    out = {}
    for key, config in CONFIGS.items():
        model = build(keras, config)
        out[key] = describe(model)
        if key in NUMERIC:
            out[key]["summary"] = summary(model)
            model.set_weights(fill([(w.name, w.shape.as_list()) for w in model.weights]))
            x = inputs(model.input_shape[1:])
            out[key]["output"] = model(x, training=False).numpy().round(6).tolist()
            if key in H5:
                path = os.path.join(HERE, key + ".h5")
                model.save_weights(path)
                with open(path, "rb") as f, gzip.GzipFile(path + ".gz", "wb", mtime=0) as g:
                    g.write(f.read())
                os.remove(path)
        print(key, out[key]["params"])
    with open(os.path.join(HERE, "applications.json"), "w") as f:
        json.dump(out, f, separators=(",", ":"))

    images = np.random.default_rng(1).uniform(0, 255, (2, 3, 4, 3)).astype("float32")
    pre = {"images": images.tolist()}
    for module in PREPROCESS_MODULES:
        fn = getattr(keras.applications, module).preprocess_input
        pre[module] = fn(images.copy()).tolist()
        pre[module + "_tensor"] = fn(tf.constant(images)).numpy().tolist()
        pre[module + "_channels_first"] = fn(images.copy(), data_format="channels_first").tolist()
        for dtype in ("int32", "uint8", "float64"):  # Keras's arithmetic on other dtypes
            try:
                out = fn(tf.constant(images.astype(dtype)))
                pre[f"{module}_{dtype}"] = [out.dtype.name, out.numpy().tolist()]
            except TypeError as e:
                pre[f"{module}_{dtype}"] = ["TypeError", str(e)]
    torch = keras.applications.imagenet_utils.preprocess_input
    pre["torch"] = torch(images.copy(), mode="torch").tolist()
    pre["torch_tensor"] = torch(tf.constant(images), mode="torch").numpy().tolist()
    pre["torch_channels_first"] = torch(images.copy(), mode="torch",
                                        data_format="channels_first").tolist()
    with open(os.path.join(HERE, "preprocess.json"), "w") as f:
        json.dump(pre, f)


if __name__ == "__main__":
    main()

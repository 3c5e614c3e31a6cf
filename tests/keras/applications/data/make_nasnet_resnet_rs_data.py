"""Writes what tf_keras's NASNet and ResNet-RS models are, for `test_nasnet_resnet_rs.py`.

``nasnet_resnet_rs.json``: for each model of `CONFIGS`, what `make_applications_data.describe`
tells (layers, weights, parameters); for those of `NUMERIC`, the distinct configurations of
its layers, its ``summary()`` and its outputs on `make_applications_data.inputs` once
`make_applications_data.fill` set its weights; for each builder of `COUNTS` (default
arguments, then without the top), its counts and a few layers; for each case of `ERRORS`,
the exception it raises; and what ``nasnet.preprocess_input`` gives.

Run with TensorFlow 2.x and tf_keras:
``TF_USE_LEGACY_KERAS=1 python make_nasnet_resnet_rs_data.py``.
"""
import importlib.util
import json
import os
import re

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("make_applications_data",
                                               os.path.join(HERE, "make_applications_data.py"))
base = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(base)

# name -> (function, keyword arguments; "input_tensor" is the shape of an `Input` to pass)
CONFIGS = {
    "nasnet_mobile_top_10_32": ("NASNetMobile", {"weights": None, "input_shape": (32, 32, 3),
                                                 "classes": 10}),
    "nasnet_mobile_notop_avg_tensor": ("NASNetMobile", {"weights": None, "include_top": False,
                                                        "pooling": "avg",
                                                        "input_tensor": (40, 48, 3)}),
    "resnet_rs_50_top_10_32": ("ResNetRS50", {"weights": None, "input_shape": (32, 32, 3),
                                              "classes": 10, "classifier_activation": None}),
    "resnet_rs_50_notop_max_1ch": ("ResNetRS50", {"weights": None, "include_top": False,
                                                  "input_shape": (36, 40, 1),
                                                  "pooling": "max"}),
    "resnet_rs_101_notop_avg_nopre_tensor": ("ResNetRS101", {"weights": None,
                                                             "include_top": False,
                                                             "include_preprocessing": False,
                                                             "pooling": "avg",
                                                             "input_tensor": (32, 32, 3)}),
}
NUMERIC = ["nasnet_mobile_top_10_32", "resnet_rs_50_top_10_32", "resnet_rs_50_notop_max_1ch"]
# the builders whose counts are recorded, with the default arguments and without the top
COUNTS = ("NASNetMobile", "NASNetLarge", "ResNetRS50", "ResNetRS101", "ResNetRS152",
          "ResNetRS200", "ResNetRS270", "ResNetRS350", "ResNetRS420")
NOTOP = {"weights": None, "include_top": False, "input_shape": (32, 32, 3), "pooling": "avg"}
# name -> (function, keyword arguments; "MISSING" stands for the path of a missing file)
ERRORS = {
    "nasnet_missing_file": ("NASNetMobile", {"weights": "MISSING"}),
    "nasnet_imagenet_classes": ("NASNetMobile", {"weights": "imagenet", "classes": 10}),
    "nasnet_imagenet_dynamic": ("NASNetLarge", {"weights": "imagenet", "include_top": False,
                                                "input_shape": (None, None, 3)}),
    "nasnet_imagenet_shape": ("NASNetMobile", {"weights": "imagenet",
                                               "input_shape": (32, 32, 3)}),
    "nasnet_large_imagenet_shape": ("NASNetLarge", {"weights": "imagenet",
                                                    "input_shape": (224, 224, 3)}),
    "nasnet_small": ("NASNetMobile", {"weights": None, "include_top": False,
                                      "input_shape": (16, 16, 3)}),
    "nasnet_not_static": ("NASNetMobile", {"weights": None, "input_shape": (None, None, 3)}),
    "nasnet_channels": ("NASNetMobile", {"weights": "imagenet", "include_top": False,
                                         "input_shape": (32, 32, 1)}),
    "nasnet_unknown": ("NASNetMobile", {"weights": None, "alpha": 1.0}),
    "resnet_rs_missing_file": ("ResNetRS50", {"weights": "MISSING"}),
    "resnet_rs_variant": ("ResNetRS50", {"weights": "imagenet-i224"}),
    "resnet_rs_imagenet_classes": ("ResNetRS152", {"weights": "imagenet", "classes": 10}),
    "resnet_rs_variant_classes": ("ResNetRS101", {"weights": "imagenet-i160", "classes": 10}),
    "resnet_rs_activation": ("ResNetRS50", {"weights": "imagenet", "input_shape": (32, 32, 3),
                                            "classifier_activation": "relu"}),
    "resnet_rs_small": ("ResNetRS101", {"weights": None, "include_top": False,
                                        "input_shape": (16, 16, 3)}),
    "resnet_rs_not_static": ("ResNetRS50", {"weights": None, "input_shape": (None, 32, 3)}),
    "resnet_rs_unknown": ("ResNetRS50", {"weights": None, "alpha": 1.0}),
}


def counts(model):
    """What a large model is, told briefly: its counts, ends and dropout layers."""
    dropouts = [[layer.name, layer.rate] for layer in model.layers
                if type(layer).__name__ == "Dropout"]
    return {
        "name": model.name,
        "params": int(model.count_params()),
        "trainable_params": int(sum(np.prod(w.shape) for w in model.trainable_weights)),
        "weights": len(model.weights),
        "layers": len(model.layers),
        "input_shape": list(model.input_shape),
        "output_shape": list(model.output_shape),
        "first": [layer.name for layer in model.layers[:4]],
        "last": [layer.name for layer in model.layers[-4:]],
        "dropouts": dropouts[:2] + dropouts[-1:],
        "dropout_count": len(dropouts),
    }


def layer_configs(model):
    """The distinct configurations of the model's layers (less their names), with their
    classes: initializers, strides, paddings, momenta, rates and the like."""
    return sorted({json.dumps([type(layer).__name__,
                               {k: v for k, v in layer.get_config().items() if k != "name"}],
                              sort_keys=True, default=repr)
                   for layer in model.layers})


def main():
    os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
    import tensorflow as tf
    keras = tf.keras
    out = {"configs": {}, "counts": {}, "errors": {}}
    for key, config in CONFIGS.items():
        model = base.build(keras, config)
        out["configs"][key] = entry = base.describe(model)
        if key in NUMERIC:
            entry["summary"] = base.summary(model)
            entry["layer_configs"] = layer_configs(model)
            model.set_weights(base.fill([(w.name, w.shape.as_list()) for w in model.weights]))
            x = base.inputs(model.input_shape[1:])
            entry["output"] = model(x, training=False).numpy().round(6).tolist()
        print(key, entry["params"], flush=True)
    for fn in COUNTS:
        for suffix, kwargs in (("", {"weights": None}), ("_notop", NOTOP)):
            keras.backend.clear_session()
            model = getattr(keras.applications, fn)(**kwargs)
            out["counts"][fn + suffix] = counts(model)
            print(fn + suffix, out["counts"][fn + suffix]["params"], flush=True)
            del model
    for key, (fn, kwargs) in ERRORS.items():
        keras.backend.clear_session()
        kwargs = {k: os.path.join(HERE, "missing.h5") if v == "MISSING" else v
                  for k, v in kwargs.items()}
        try:
            getattr(keras.applications, fn)(**kwargs)
            out["errors"][key] = None
        except Exception as e:  # noqa: BLE001 (recorded as it is)
            message = str(e).replace(os.path.join(HERE, "missing.h5"), "MISSING")
            message = re.sub(r" at 0x[0-9a-f]+", "", message)  # a function's address
            out["errors"][key] = [type(e).__name__, message.splitlines()[0]]
        print(key, out["errors"][key], flush=True)

    images = np.random.default_rng(1).uniform(0, 255, (2, 3, 4, 3)).astype("float32")
    pre = {"images": images.tolist()}
    fn = keras.applications.nasnet.preprocess_input
    pre["nasnet"] = fn(images.copy()).tolist()
    pre["nasnet_tensor"] = fn(tf.constant(images)).numpy().tolist()
    pre["nasnet_uint8"] = fn(images.astype("uint8")).tolist()
    out["preprocess"] = pre
    with open(os.path.join(HERE, "nasnet_resnet_rs.json"), "w") as f:
        json.dump(out, f, separators=(",", ":"))


if __name__ == "__main__":
    main()

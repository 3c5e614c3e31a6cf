"""tf.lite.TFLiteConverter: our conversions run with TF's results, here and (recorded) in TF."""
import importlib.util
import os

import numpy as np
import pytest

import eagerflow as tf
from tests.internals import lite_schema
from tests.lite import models

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")


def _write_ours():
    spec = importlib.util.spec_from_file_location("write_ours", os.path.join(DATA, "write_ours.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run_signature(content, x):
    runner = tf.lite.Interpreter(model_content=content).get_signature_runner("serving_default")
    (key,) = runner.get_input_details()
    return runner(**{key: x})


def outputs_of(name):
    data = np.load(os.path.join(DATA, f"{name}.npz"))
    return {k[4:]: data[k] for k in data.files if k.startswith("out_")}


@pytest.mark.parametrize("name", sorted(set(models.INPUTS) - models.FULL_INTEGER))
def test_from_keras_model_gives_tfs_results(name):
    # the same model and weights TF converted: our file, our interpreter, TF's outputs
    content = _write_ours().converted(name)
    x = np.load(os.path.join(DATA, f"{name}.npz"))["x"]
    got, want = run_signature(content, x), outputs_of(name)
    assert sorted(got) == sorted(want)
    for k in want:
        np.testing.assert_allclose(got[k], want[k], rtol=1e-5, atol=2e-6)


@pytest.mark.parametrize("name", sorted(set(models.INPUTS) - models.FULL_INTEGER))
def test_our_files_ran_in_tf_with_our_results(name):
    # ours_<name>.tflite, loaded by TF's interpreter when recorded: the same outputs here
    with open(os.path.join(DATA, f"ours_{name}.tflite"), "rb") as f:
        content = f.read()
    x = np.load(os.path.join(DATA, f"{name}.npz"))["x"]
    got, want = run_signature(content, x), outputs_of(f"ours_{name}")
    assert sorted(got) == sorted(want)
    for k in want:
        np.testing.assert_allclose(got[k], want[k], rtol=1e-5, atol=2e-6)


def test_keras_model_names_and_operators_as_tf():
    content = _write_ours().converted("cnn")
    interpreter = tf.lite.Interpreter(model_content=content)
    assert content[4:8] == b"TFL3"
    assert [op["op_name"] for op in interpreter._get_ops_details()] == [
        "CONV_2D", "DEPTHWISE_CONV_2D", "MAX_POOL_2D", "AVERAGE_POOL_2D", "RESHAPE",
        "FULLY_CONNECTED", "SOFTMAX"]
    (inp,), (out,) = interpreter.get_input_details(), interpreter.get_output_details()
    assert inp["name"] == "serving_default_conv2d_input:0"
    assert inp["shape"].tolist() == [1, 8, 8, 2]
    assert inp["shape_signature"].tolist() == [-1, 8, 8, 2]
    assert out["name"] == "StatefulPartitionedCall:0"
    assert out["shape_signature"].tolist() == [-1, 10]


def test_optimize_default_stores_int8_weights_per_channel():
    content = _write_ours().converted("mlp_quant")
    interpreter = tf.lite.Interpreter(model_content=content)
    weights = [d for d in interpreter.get_tensor_details() if d["dtype"] is np.int8]
    assert len(weights) == 1 and weights[0]["shape"].tolist() == [32, 48]
    scales = weights[0]["quantization_parameters"]["scales"]
    tf_weights = [d for d in tf.lite.Interpreter(
        model_path=os.path.join(DATA, "mlp_quant.tflite")).get_tensor_details()
        if d["dtype"] is np.int8]
    np.testing.assert_array_equal(scales, tf_weights[0]["quantization_parameters"]["scales"])


def test_from_concrete_functions_names_and_values():
    v = tf.Variable([[1.0, 2.0], [3.0, -4.0]])

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32, name="inp")])
    def g(x):
        return tf.nn.relu(tf.matmul(x, v)), x * 2.0 - 1.0

    converter = tf.lite.TFLiteConverter.from_concrete_functions([g.get_concrete_function()], g)
    interpreter = tf.lite.Interpreter(model_content=converter.convert())
    assert interpreter.get_signature_list() == {}
    assert [(d["name"], d["shape_signature"].tolist())
            for d in interpreter.get_input_details()] == [("inp", [-1, 2])]
    assert [(d["name"], d["shape_signature"].tolist())
            for d in interpreter.get_output_details()] == [("Identity", [-1, 2]),
                                                           ("Identity_1", [-1, 2])]
    interpreter.allocate_tensors()
    interpreter.set_tensor(0, np.float32([[1, 2]]))
    interpreter.invoke()
    got = [interpreter.get_tensor(d["index"]) for d in interpreter.get_output_details()]
    np.testing.assert_array_equal(got[0], [[7.0, 0.0]])
    np.testing.assert_array_equal(got[1], [[1.0, 3.0]])


def test_from_concrete_functions_takes_concrete_functions():
    f = tf.function(lambda x: x)
    with pytest.raises(ValueError, match="^This function takes in a list of ConcreteFunction."):
        tf.lite.TFLiteConverter.from_concrete_functions([f])


def test_from_saved_model_signatures(tmp_path):
    class M(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([2], tf.float32, name="q")])
        def f(self, q):
            return {"y": q * 3.0}

        @tf.function(input_signature=[tf.TensorSpec([2], tf.float32, name="r")])
        def g(self, r):
            return {"z": r - 1.0, "a": tf.exp(r)}

    module = M()
    tf.saved_model.save(module, str(tmp_path), signatures={"one": module.f, "two": module.g})
    content = tf.lite.TFLiteConverter.from_saved_model(str(tmp_path)).convert()
    interpreter = tf.lite.Interpreter(model_content=content)
    assert interpreter.get_signature_list() == {
        "one": {"inputs": ["q"], "outputs": ["y"]},
        "two": {"inputs": ["r"], "outputs": ["a", "z"]}}
    # (functions reading no variables are called with PartitionedCall in TF's signatures)
    assert [d["name"] for d in interpreter.get_output_details()] == ["PartitionedCall:0"]
    out = interpreter.get_signature_runner("two")(r=np.float32([0, 1]))
    np.testing.assert_array_equal(out["a"], np.float32([1.0, 2.7182817]))
    np.testing.assert_array_equal(out["z"], [-1.0, 0.0])
    with pytest.raises(ValueError, match="^Invalid signature key 'nope' found. Valid keys are "
                                         "'one,two'.$"):
        tf.lite.TFLiteConverter.from_saved_model(str(tmp_path), signature_keys=["nope"])


def test_from_saved_keras_model_keeps_output_shape(tmp_path):
    model = tf.keras.Sequential([
        tf.keras.layers.Dense(3, activation="relu", input_shape=(4,), name="hidden"),
        tf.keras.layers.Dense(2, name="scores")])
    tf.saved_model.save(model, str(tmp_path))
    interpreter = tf.lite.Interpreter(
        model_content=tf.lite.TFLiteConverter.from_saved_model(str(tmp_path)).convert())
    out = interpreter.get_output_details()[0]
    assert out["shape"].tolist() == [1, 2] and out["shape_signature"].tolist() == [-1, 2]
    x = np.float32([[1, 2, 3, 4], [0, -1, 0, 1]])
    got = interpreter.get_signature_runner()(hidden_input=x)["scores"]
    np.testing.assert_allclose(got, model(x).numpy(), rtol=1e-6)


def test_unsupported_op_raises_converter_error():
    @tf.function(input_signature=[tf.TensorSpec([3, 3], tf.float32)])
    def f(x):
        return tf.linalg.svd(x)[0]

    converter = tf.lite.TFLiteConverter.from_concrete_functions([f.get_concrete_function()], f)
    with pytest.raises(Exception, match="op is neither a custom op nor a flex op") as info:
        converter.convert()
    assert type(info.value).__name__ == "ConverterError"
    assert str(info.value).startswith("Could not translate MLIR to FlatBuffer.")


def test_enums_and_target_spec():
    assert str(tf.lite.Optimize.DEFAULT) == "DEFAULT"
    assert repr(tf.lite.Optimize.DEFAULT) == "<Optimize.DEFAULT: 'DEFAULT'>"
    assert [o.value for o in tf.lite.OpsSet][:3] == ["TFLITE_BUILTINS", "SELECT_TF_OPS",
                                                     "TFLITE_BUILTINS_INT8"]
    spec = tf.lite.TargetSpec()
    assert spec.supported_ops == {tf.lite.OpsSet.TFLITE_BUILTINS}
    assert spec.supported_types == set()
    converter = tf.lite.TFLiteConverter.from_keras_model(
        tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,))]))
    assert converter.optimizations == set() and converter.representative_dataset is None
    assert converter.inference_input_type == tf.float32
    gen = tf.lite.RepresentativeDataset(lambda: iter([]))
    assert callable(gen.input_gen)


def test_batch_norm_bias_and_relu_fold_into_convolutions():
    # as TF's converter folds them: no MUL/ADD of batch normalization or depthwise bias
    interpreter = tf.lite.Interpreter(model_content=_write_ours().converted("branches"))
    ops = interpreter._get_ops_details()
    names = [op["op_name"] for op in ops]
    assert names[:2] == ["CONV_2D", "DEPTHWISE_CONV_2D"]
    assert "MUL" not in names and "ADD" not in names and "RELU6" not in names
    model = lite_schema.read_model(_write_ours().converted("branches"))
    conv = model["subgraphs"][0]["operators"][0]
    assert conv["builtin_options"]["fused_activation_function"] == lite_schema.ACTIVATIONS["RELU6"]


def test_integer_and_reduction_functions_as_tf_runs_them():
    @tf.function(input_signature=[tf.TensorSpec([None], tf.int32, name="n"),
                                  tf.TensorSpec([None], tf.float32, name="f")])
    def g(n, f):
        return {"twice": n * 2 + 1, "mix": tf.cast(n, tf.float32) * f,
                "mx": tf.reduce_max(f, keepdims=True), "am": tf.argmax(f),
                "st": tf.stack([f, f], axis=1)}

    content = tf.lite.TFLiteConverter.from_concrete_functions([g.get_concrete_function()],
                                                              g).convert()
    interpreter = tf.lite.Interpreter(model_content=content)
    # (TF's outputs: the dict's values by sorted key, named Identity, Identity_1, ...)
    assert [(d["name"], d["dtype"], d["shape_signature"].tolist())
            for d in interpreter.get_output_details()] == [
        ("Identity", np.int64, []), ("Identity_1", np.float32, [-1]),
        ("Identity_2", np.float32, [1]), ("Identity_3", np.float32, [-1, 2]),
        ("Identity_4", np.int32, [-1])]
    inputs = {d["name"]: d["index"] for d in interpreter.get_input_details()}
    interpreter.resize_tensor_input(inputs["n"], [3])
    interpreter.resize_tensor_input(inputs["f"], [3])
    interpreter.allocate_tensors()
    interpreter.set_tensor(inputs["n"], np.int32([1, 2, 3]))
    interpreter.set_tensor(inputs["f"], np.float32([1.5, -4, np.nan]))
    interpreter.invoke()
    am, mix, mx, st, twice = [interpreter.get_tensor(d["index"])
                              for d in interpreter.get_output_details()]
    assert type(am) is np.int64 and am == 0   # (TFLite's arg max passes over a NaN)
    np.testing.assert_array_equal(mix, np.float32([1.5, -8, np.nan]))
    np.testing.assert_array_equal(mx, np.float32([np.nan]))
    assert st.shape == (3, 2)
    np.testing.assert_array_equal(twice, np.int32([3, 5, 7]))
    with pytest.raises(ValueError, match="^Cannot set tensor: Got value of type INT64 but "
                                         "expected type INT32 for input 0, name: n $"):
        interpreter.set_tensor(inputs["n"], np.int64([1, 2, 3]))
    with pytest.raises(ValueError, match="^num_threads should >= 1$"):
        tf.lite.Interpreter(model_content=content, num_threads=-5)


def test_float16_quantization_stores_half_constants():
    interpreter = tf.lite.Interpreter(model_content=_write_ours().converted("cnn_f16"))
    names = [op["op_name"] for op in interpreter._get_ops_details()]
    assert names[-3:] == ["CONV_2D", "RESHAPE", "FULLY_CONNECTED"]
    assert set(names[:-3]) == {"DEQUANTIZE"}
    halves = [d for d in interpreter.get_tensor_details() if d["dtype"] is np.float16]
    assert sorted(d["shape"].tolist() for d in halves)[-1] == [4, 3, 3, 2]


def test_model_without_input_shape_fails_to_convert():
    converter = tf.lite.TFLiteConverter.from_keras_model(
        tf.keras.Sequential([tf.keras.layers.Dense(2)]))
    with pytest.raises(Exception, match=r"^Could not translate MLIR to FlatBuffer\.") as info:
        converter.convert()
    assert type(info.value).__name__ == "ConverterError"


def test_subclassed_model_signature_names():
    class Sub(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.d = tf.keras.layers.Dense(3)

        def call(self, x):
            return tf.nn.relu(self.d(x))

    model = Sub()
    model(np.zeros((1, 4), np.float32))
    interpreter = tf.lite.Interpreter(
        model_content=tf.lite.TFLiteConverter.from_keras_model(model).convert())
    assert interpreter.get_signature_list() == {
        "serving_default": {"inputs": ["input_1"], "outputs": ["output_1"]}}
    x = np.float32([[1, -2, 3, 0.5]])
    out = interpreter.get_signature_runner()(input_1=x)["output_1"]
    np.testing.assert_allclose(out, model(x).numpy(), rtol=1e-6)


def test_select_tf_ops_are_not_written():
    @tf.function(input_signature=[tf.TensorSpec([3, 3], tf.float32)])
    def f(x):
        return tf.linalg.svd(x)[0]

    converter = tf.lite.TFLiteConverter.from_concrete_functions([f.get_concrete_function()], f)
    converter.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS,
                                           tf.lite.OpsSet.SELECT_TF_OPS]
    with pytest.raises(Exception, match="no select TF \\(flex\\) or custom operators"):
        converter.convert()


def test_gelu_lowers_to_tflite_gelu():
    fn = tf.function(lambda x: tf.nn.gelu(x))
    cf = fn.get_concrete_function(tf.TensorSpec([None, 3], tf.float32, name="x"))
    interpreter = tf.lite.Interpreter(
        model_content=tf.lite.TFLiteConverter.from_concrete_functions([cf], fn).convert())
    assert [op["op_name"] for op in interpreter._get_ops_details()] == ["GELU"]
    x = np.float32([[-3, -0.5, 0], [0.25, 1, 4]])
    interpreter.resize_tensor_input(0, [2, 3])
    interpreter.allocate_tensors()
    interpreter.set_tensor(0, x)
    interpreter.invoke()
    got = interpreter.get_tensor(interpreter.get_output_details()[0]["index"])
    np.testing.assert_allclose(got, tf.nn.gelu(x).numpy(), rtol=1e-6, atol=1e-7)


def test_replaced_constants_leave_no_buffers():
    # float16 storage and folded batch normalization replace constants: their float32
    # buffers are not written (the file is smaller than TF's own for these models)
    for name in ("cnn_f16", "branches"):
        content = _write_ours().converted(name)
        model = lite_schema.read_model(content)
        read = {t["buffer"] for sub in model["subgraphs"] for t in sub["tensors"]}
        assert read | {0} == set(range(len(model["buffers"])))
        assert len(content) < os.path.getsize(os.path.join(DATA, f"{name}.tflite"))


def test_slices_splits_and_reductions():
    @tf.function(input_signature=[tf.TensorSpec([None, 4], tf.float32, name="x")])
    def f(x):
        a, b = tf.split(x, 2, axis=1)
        c, d = tf.split(x, [1, 3], axis=1)
        return {"s": tf.slice(x, [0, 1], [-1, 2]), "a": a * b,
                "c": tf.reduce_sum(d, 1) - c[:, 0], "m": tf.reduce_min(x, 1),
                "p": tf.reduce_prod(x, 1), "e": x[..., None][:, 1:3]}

    interpreter = tf.lite.Interpreter(
        model_content=tf.lite.TFLiteConverter.from_concrete_functions(
            [f.get_concrete_function()], f).convert())
    assert {"SLICE", "SPLIT", "SPLIT_V", "REDUCE_MIN", "REDUCE_PROD"} <= {
        op["op_name"] for op in interpreter._get_ops_details()}
    x = np.random.RandomState(0).uniform(-1, 1, (3, 4)).astype(np.float32)
    interpreter.resize_tensor_input(0, [3, 4])
    interpreter.allocate_tensors()
    interpreter.set_tensor(0, x)
    interpreter.invoke()
    want = f(x)
    for d, key in zip(interpreter.get_output_details(), sorted(want)):
        np.testing.assert_allclose(interpreter.get_tensor(d["index"]), want[key].numpy(),
                                   rtol=1e-6)


def test_comparisons_selects_and_rounding_as_tflite():
    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32, name="x")])
    def f(x):
        return {"w": tf.where(x > 0.5, tf.sin(x), tf.cos(x)),
                "fd": tf.math.floordiv(x, 0.3), "fm": tf.math.floormod(x, 0.3),
                "r": tf.round(x * 4.0), "c": tf.math.ceil(x), "s": tf.sign(x - 0.5),
                "l": tf.cast(tf.logical_and(x > 0.2, tf.logical_not(x > 0.7)), tf.float32)}

    interpreter = tf.lite.Interpreter(model_content=tf.lite.TFLiteConverter.from_concrete_functions(
        [f.get_concrete_function()], f).convert())
    x = np.float32([-1.3, -0.5, 0, 0.125, 0.375, 0.5, 0.6, 0.875, 1.5, 2.5])
    interpreter.resize_tensor_input(0, [10])
    interpreter.allocate_tensors()
    interpreter.set_tensor(0, x)
    interpreter.invoke()
    got = dict(zip(["c", "fd", "fm", "l", "r", "s", "w"],
                   [interpreter.get_tensor(d["index"])
                    for d in interpreter.get_output_details()]))
    # TF's interpreter's results on TF's conversion of `f` (TF 2.21)
    np.testing.assert_array_equal(got["c"], [-1, -0.0, 0, 1, 1, 1, 1, 1, 2, 3])
    np.testing.assert_array_equal(got["fd"], [-5, -2, 0, 0, 1, 1, 2, 2, 4, 8])   # 1.5 // 0.3
    np.testing.assert_allclose(got["fm"], [0.2000001, 0.10000002, 0, 0.125, 0.07499999,
                                           0.19999999, 0, 0.27499998, 0.29999995,
                                           0.0999999], rtol=1e-6, atol=1e-7)
    np.testing.assert_array_equal(got["l"], [0, 0, 0, 0, 1, 1, 1, 0, 0, 0])
    np.testing.assert_array_equal(got["r"], [-5, -2, 0, 0, 2, 2, 2, 4, 6, 10])   # half to even
    np.testing.assert_array_equal(got["s"], [-1, -1, -1, -1, -1, 0, 1, 1, 1, 1])
    np.testing.assert_allclose(got["w"], [0.267499, 0.87758255, 1, 0.9921977, 0.9305077,
                                          0.8775826, 0.56464249, 0.7675435, 0.997495,
                                          0.5984722], rtol=1e-6)


def test_integer_settings_checked_as_tf_checks_them():
    model = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,))])
    converter = tf.lite.TFLiteConverter.from_keras_model(model)
    converter.inference_input_type = tf.int8
    with pytest.raises(ValueError, match="^The inference_input_type and inference_output_type "
                                         "must be tf.float32.$"):
        converter.convert()
    converter = tf.lite.TFLiteConverter.from_keras_model(model)
    converter.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS_INT8]
    with pytest.raises(ValueError, match="^For full integer quantization, a "
                                         "`representative_dataset` must be specified.$"):
        converter.convert()
    converter = tf.lite.TFLiteConverter.from_keras_model(model)
    converter.optimizations = [tf.lite.Optimize.DEFAULT]
    converter.representative_dataset = lambda: iter([[np.zeros((1, 3), np.float32)]])
    converter.inference_input_type = tf.int16
    with pytest.raises(ValueError, match=r"^Unsupported `inference_input_type` value. Expected "
                                         r"to be in \('tf.uint8', 'tf.int8'\), instead got "
                                         r"tf.int16.$"):
        converter.convert()
    converter.inference_input_type = tf.float16   # (not an integer or float32 type at all)
    with pytest.raises(ValueError, match=r"^The inference_input_type and inference_output_type "
                                         r"must be in \['tf.float32', 'tf.int8', 'tf.uint8', "
                                         r"'tf.int16'\].$"):
        converter.convert()
    converter.inference_input_type = tf.int8
    converter.representative_dataset = lambda: iter([np.zeros((1, 3), np.float32)])
    with pytest.raises(ValueError, match="^You need to provide either a dictionary with input "
                                         "names and values"):
        converter.convert()   # (each sample is a list of the inputs, or a dict)
    converter.representative_dataset = lambda: iter([[np.zeros((1, 4), np.float32)]])
    with pytest.raises(RuntimeError, match="^Attempting to resize dimension 1 of tensor 0 with "
                                           "value 3 to 4."):
        converter.convert()


def test_representative_dataset_without_optimization_gives_a_float_model():
    model = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,))])
    converter = tf.lite.TFLiteConverter.from_keras_model(model)
    converter.representative_dataset = lambda: iter([[np.ones((1, 3), np.float32)]])
    interpreter = tf.lite.Interpreter(model_content=converter.convert())
    assert [op["op_name"] for op in interpreter._get_ops_details()] == ["FULLY_CONNECTED"]
    assert interpreter.get_input_details()[0]["dtype"] is np.float32


def _step_of(interpreter, index):
    """One quantization step of output `index`: 1 for integers, the scale of the int8 tensor
    a DEQUANTIZE made it from for floats (else a float tolerance)."""
    details = {d["index"]: d for d in interpreter.get_tensor_details()}
    if details[index]["dtype"] is not np.float32:
        return 1
    for op in interpreter._get_ops_details():
        if index in op["outputs"].tolist() and op["op_name"] == "DEQUANTIZE":
            return details[int(op["inputs"][0])]["quantization"][0]
    return 2e-6


def _within_a_step(content, x, want):
    interpreter = tf.lite.Interpreter(model_content=content)
    runner = interpreter.get_signature_runner()
    ((key, details),) = runner.get_input_details().items()
    got = runner(**{key: models.quantized_input(x, details)})
    assert sorted(got) == sorted(want)
    outputs = runner.get_output_details()
    for k in want:
        assert got[k].dtype == want[k].dtype and got[k].shape == want[k].shape
        step = _step_of(interpreter, outputs[k]["index"])
        diff = np.abs(got[k].astype(np.float64) - want[k].astype(np.float64)).max()
        assert diff <= step * 1.001, (k, diff, step)


@pytest.mark.parametrize("name", sorted(models.CONVERTED_FULL_INTEGER))
def test_full_integer_quantization_gives_tfs_results(name):
    # the same model, weights and representative data TF quantized: our file, our
    # interpreter, TF's interpreter's outputs on TF's file, within one quantization step
    content = _write_ours().converted(name)
    _within_a_step(content, np.load(os.path.join(DATA, f"{name}.npz"))["x"], outputs_of(name))


@pytest.mark.parametrize("name", sorted(models.CONVERTED_FULL_INTEGER))
def test_full_integer_files_ran_in_tf_with_our_results(name):
    with open(os.path.join(DATA, f"ours_{name}.tflite"), "rb") as f:
        content = f.read()
    _within_a_step(content, np.load(os.path.join(DATA, f"{name}.npz"))["x"],
                   outputs_of(f"ours_{name}"))


def _quantized_outputs(interpreter):
    """``{operator name: sorted [(scale, zero point)] of its int8 outputs}`` and the
    per-channel weight scales of the convolution and dense operators, in order."""
    details = {d["index"]: d for d in interpreter.get_tensor_details()}
    outputs, weights = {}, []
    for op in interpreter._get_ops_details():
        for i in op["outputs"]:
            q = details[int(i)]["quantization_parameters"]
            if details[int(i)]["dtype"] is np.int8 and op["op_name"] not in ("QUANTIZE",):
                outputs.setdefault(op["op_name"], []).append(
                    (float(q["scales"][0]), int(q["zero_points"][0])))
        if op["op_name"] in ("FULLY_CONNECTED", "CONV_2D", "DEPTHWISE_CONV_2D"):
            weights.append(details[int(op["inputs"][1])]["quantization_parameters"]["scales"])
    return {k: sorted(v) for k, v in outputs.items()}, weights


@pytest.mark.parametrize("name", sorted(models.CONVERTED_FULL_INTEGER -
                                         set(models.QUANTIZED_FROM)))
def test_full_integer_parameters_are_tfs(name):
    # calibrated activation ranges (min and max per tensor, zero included), fixed softmax,
    # logistic and tanh outputs, per-channel symmetric weights: TF's parameters
    ours = tf.lite.Interpreter(model_content=_write_ours().converted(name))
    theirs = tf.lite.Interpreter(model_path=os.path.join(DATA, f"{name}.tflite"))
    for a, b in zip(ours.get_input_details() + ours.get_output_details(),
                    theirs.get_input_details() + theirs.get_output_details()):
        assert a["dtype"] is b["dtype"]
        np.testing.assert_allclose(a["quantization"][0], b["quantization"][0], rtol=1e-6)
        assert a["quantization"][1] == b["quantization"][1]
    (our_outputs, our_weights), (tf_outputs, tf_weights) = map(_quantized_outputs,
                                                               (ours, theirs))
    for op in set(our_outputs) & set(tf_outputs) - {"RESHAPE"}:
        assert [z for _, z in our_outputs[op]] == [z for _, z in tf_outputs[op]], op
        np.testing.assert_allclose([s for s, _ in our_outputs[op]],
                                   [s for s, _ in tf_outputs[op]], rtol=1e-6)
    assert sorted(map(len, our_weights)) == sorted(map(len, tf_weights))
    np.testing.assert_allclose(np.sort(np.concatenate(our_weights)),
                               np.sort(np.concatenate(tf_weights)), rtol=1e-6)


def test_full_integer_operators_as_tf_writes_them():
    interpreter = tf.lite.Interpreter(model_content=_write_ours().converted("mlp_uint8"))
    # (uint8 at the edges: QUANTIZE to int8 and back, the zero point 128 higher)
    assert [op["op_name"] for op in interpreter._get_ops_details()] == [
        "QUANTIZE", "FULLY_CONNECTED", "FULLY_CONNECTED", "SOFTMAX", "QUANTIZE"]
    (inp,), (out,) = interpreter.get_input_details(), interpreter.get_output_details()
    assert inp["dtype"] is np.uint8 and out["dtype"] is np.uint8
    assert out["quantization"] == (0.00390625, 0)
    types = sorted(d["dtype"].__name__ for d in interpreter.get_tensor_details())
    assert "float32" not in types and types.count("int32") == 2
    # (TF's operators: the logistic's output requantized to the concatenation's parameters
    # for all its readers; sin, without int8 kernel, on the dequantized output)
    # (attention's products: int8 BATCH_MATMULs, as TF's quantizer writes them)
    ours = tf.lite.Interpreter(model_content=_write_ours().converted("transformer_ptq"))
    details = {d["index"]: d for d in ours.get_tensor_details()}
    products = [op for op in ours._get_ops_details() if op["op_name"] == "BATCH_MATMUL"]
    assert len(products) == 2 and all(
        details[int(i)]["dtype"] is np.int8 for op in products
        for i in list(op["inputs"]) + list(op["outputs"]))
    for name in ("branches_ptq", "mlp_uint8"):
        ours = tf.lite.Interpreter(model_content=_write_ours().converted(name))
        theirs = tf.lite.Interpreter(model_path=os.path.join(DATA, f"{name}.tflite"))
        assert [op["op_name"] for op in ours._get_ops_details()] == \
            [op["op_name"] for op in theirs._get_ops_details()]


@pytest.mark.parametrize("name", sorted(models.RECURRENT_CONVERTED))
def test_keras_recurrent_layers_convert_with_tfs_results(name):
    # LSTMs: TF's fused operator, its state carried from one invoke to the next; GRUs and
    # simple RNNs (which TF writes as WHILE loops): their steps, stateless
    content = _write_ours().converted(name)
    interpreter = tf.lite.Interpreter(model_content=content)
    ops = [op["op_name"] for op in interpreter._get_ops_details()]
    theirs = [op["op_name"] for op in tf.lite.Interpreter(
        model_path=os.path.join(DATA, f"{name}.tflite"))._get_ops_details()]
    lstm = ops.count("UNIDIRECTIONAL_SEQUENCE_LSTM")
    assert lstm == theirs.count("UNIDIRECTIONAL_SEQUENCE_LSTM")
    assert ("WHILE" in theirs) is (not lstm) and "WHILE" not in ops
    if name.startswith("lstm"):
        assert ops[0] == theirs[0] == "UNIDIRECTIONAL_SEQUENCE_LSTM"
        # (TF clips the cell state to [-10, 10]; dynamic range quantization: the eight
        # weights int8, one scale each, the inputs quantized asymmetrically per step)
        ours_options, their_options = (
            lite_schema.read_model(data)["subgraphs"][0]["operators"][0]["builtin_options"]
            for data in (content, open(os.path.join(DATA, f"{name}.tflite"), "rb").read()))
        assert ours_options == their_options
        weights = [d for d in interpreter.get_tensor_details()
                   if d["index"] in interpreter._get_ops_details()[0]["inputs"][1:9]]
        assert [(d["dtype"], len(d["quantization_parameters"]["scales"])) for d in weights] \
            == [(np.int8, 1) if name.endswith("_quant") else (np.float32, 0)] * 8
    if "bidi" in name:
        assert "REVERSE_V2" in ops
    if name == "gru_quant":   # (the steps' products by int8 weights, as TF's loop's)
        assert np.int8 in {d["dtype"] for d in interpreter.get_tensor_details()}
    states = [d for d in lite_schema.read_model(content)["subgraphs"][0]["tensors"]
              if d["is_variable"]]
    assert len(states) == 2 * lstm
    data = np.load(os.path.join(DATA, f"{name}.npz"))
    ours = np.load(os.path.join(DATA, f"ours_{name}.npz"))   # (TF's interpreter, our file)
    for value, key in zip(models.run_twice(interpreter, data["x"]),
                          ("first", "second", "reset")):
        np.testing.assert_allclose(value, data[key], rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(value, ours[key], rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("layer", ["LSTM", "GRU", "SimpleRNN"])
def test_recurrent_layer_of_unknown_batch_fails_to_convert(layer):
    # (TF's converter needs the batch size of the sequence it writes)
    model = tf.keras.Sequential([getattr(tf.keras.layers, layer)(2, input_shape=(3, 2))])
    with pytest.raises(Exception, match=r": error: 'tf\.TensorListReserve' op requires "
                                        r"element_shape to be static during TF Lite "
                                        r"transformation pass$") as info:
        tf.lite.TFLiteConverter.from_keras_model(model).convert()
    assert type(info.value).__name__ == "ConverterError"


@pytest.mark.parametrize("layer", [
    lambda L: L.GRU(4), lambda L: L.GRU(3, return_sequences=True, reset_after=False),
    lambda L: L.SimpleRNN(4, return_sequences=True),
    lambda L: L.SimpleRNN(2, activation="relu"),
    lambda L: L.Bidirectional(L.GRU(3), merge_mode="mul"),
    lambda L: L.Bidirectional(L.SimpleRNN(2, return_sequences=True)),
    lambda L: L.Bidirectional(L.LSTM(2, return_sequences=True), merge_mode="ave")])
def test_keras_recurrent_model_of_fixed_batch_converts_with_its_values(layer):
    # (an Input of a batch size: TF converts such models, GRUs and simple RNNs as loops)
    tf.keras.backend.clear_session()
    inputs = tf.keras.Input((5, 3), batch_size=2, name="sequence")
    model = tf.keras.Model(inputs, layer(tf.keras.layers)(inputs))
    model.set_weights(models.weights(model))
    x = np.random.RandomState(3).uniform(-1, 1, (2, 5, 3)).astype(np.float32)
    interpreter = tf.lite.Interpreter(
        model_content=tf.lite.TFLiteConverter.from_keras_model(model).convert())
    (detail,) = interpreter.get_input_details()
    assert detail["shape_signature"].tolist() == [2, 5, 3]
    (got,) = interpreter.get_signature_runner()(sequence=x).values()
    np.testing.assert_allclose(got, model(x).numpy(), rtol=1e-5, atol=1e-6)


def test_full_integer_resize_keeps_its_input_parameters():
    # (TF's interpreter delegates int8 RESIZE_BILINEAR only with the same parameters in and
    # out, as TF's quantizer gives it)
    model = tf.keras.Sequential([tf.keras.layers.Resizing(5, 5, input_shape=(3, 3, 2)),
                                 tf.keras.layers.Conv2D(2, 3)])
    rng = np.random.RandomState(0)
    model.set_weights([rng.uniform(-0.5, 0.5, w.shape).astype(np.float32)
                       for w in model.get_weights()])
    converter = tf.lite.TFLiteConverter.from_keras_model(model)
    converter.optimizations = [tf.lite.Optimize.DEFAULT]
    samples = [[rng.uniform(-1, 1, (1, 3, 3, 2)).astype(np.float32)] for _ in range(4)]
    converter.representative_dataset = lambda: iter(samples)
    interpreter = tf.lite.Interpreter(model_content=converter.convert())
    details = {d["index"]: d for d in interpreter.get_tensor_details()}
    (resize,) = [op for op in interpreter._get_ops_details()
                 if op["op_name"] == "RESIZE_BILINEAR"]
    assert details[int(resize["inputs"][0])]["quantization"] == \
        details[int(resize["outputs"][0])]["quantization"] != (0.0, 0)
    x = samples[0][0]   # (within the calibrated ranges)
    (got,) = interpreter.get_signature_runner()(
        **{next(iter(interpreter.get_signature_list()["serving_default"]["inputs"])): x}
    ).values()
    np.testing.assert_allclose(got, model(x).numpy(), atol=0.05)


def test_representative_samples_by_name_or_signature():
    # (a list of the inputs, a dict by input name, or (signature key, dict): the same model)
    model = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,), name="d")])
    model.set_weights([np.float32([[1, -1], [0.5, 0], [0, 2]]), np.float32([0.1, -0.1])])
    rng = np.random.RandomState(0)
    arrays = [rng.uniform(-1, 1, (1, 3)).astype(np.float32) for _ in range(4)]
    contents = []
    for form in (lambda a: [a], lambda a: {"d_input": a},
                 lambda a: ("serving_default", {"d_input": a})):
        converter = tf.lite.TFLiteConverter.from_keras_model(model)
        converter.optimizations = [tf.lite.Optimize.DEFAULT]
        converter.representative_dataset = lambda form=form: (form(a) for a in arrays)
        contents.append(converter.convert())
    assert contents[0] == contents[1] == contents[2]


def test_full_integer_transposed_convolution_and_float_elu():
    # TF's quantizer: an int8 TRANSPOSE_CONV of per-channel weights (the input's scale times
    # theirs for the bias), ELU left in float; our conversion within three steps of TF's
    # results (TF also folds the rescaling before into the depthwise convolution)
    content = _write_ours().converted("upsample_ptq")
    interpreter = tf.lite.Interpreter(model_content=content)
    details = {d["index"]: d for d in interpreter.get_tensor_details()}
    ops = {op["op_name"]: op for op in interpreter._get_ops_details()}
    transpose = ops["TRANSPOSE_CONV"]
    weights = details[int(transpose["inputs"][1])]
    assert weights["dtype"] is np.int8 and len(weights["quantization_parameters"]["scales"]) == 2
    assert details[int(transpose["inputs"][2])]["dtype"] is np.int8
    assert details[int(ops["ELU"]["inputs"][0])]["dtype"] is np.float32
    data = np.load(os.path.join(DATA, "upsample_ptq.npz"))
    (key,) = interpreter.get_signature_list()["serving_default"]["inputs"]
    got = interpreter.get_signature_runner()(**{key: data["x"]})["conv2d_transpose"]
    step = _step_of(interpreter, interpreter.get_output_details()[0]["index"])
    assert np.abs(got - data["out_conv2d_transpose"]).max() <= 3 * step


def test_keras_outputs_in_model_order_signatures_by_name():
    # (TF's converter: the subgraph's outputs in the model's order, named by their place
    # among the output names; a signature's inputs and outputs listed by name)
    L = tf.keras.layers
    zeta, alpha = L.Input((2,), name="zeta"), L.Input((2,), name="alpha")
    h = L.Concatenate()([zeta, alpha])
    model = tf.keras.Model([zeta, alpha], [L.Dense(1, name="z_out")(h),
                                           L.Dense(2, name="a_out")(h),
                                           L.Dense(3, name="m_out")(h)])
    interpreter = tf.lite.Interpreter(
        model_content=tf.lite.TFLiteConverter.from_keras_model(model).convert())
    assert interpreter.get_signature_list() == {
        "serving_default": {"inputs": ["alpha", "zeta"], "outputs": ["a_out", "m_out", "z_out"]}}
    assert [(d["name"], d["shape"].tolist()) for d in interpreter.get_output_details()] == [
        ("StatefulPartitionedCall:2", [1, 1]), ("StatefulPartitionedCall:0", [1, 2]),
        ("StatefulPartitionedCall:1", [1, 3])]
    x = {"zeta": np.float32([[1, 2]]), "alpha": np.float32([[-1, 3]])}
    got = interpreter.get_signature_runner()(**x)
    want = model([x["zeta"], x["alpha"]])
    for name, value in zip(["z_out", "a_out", "m_out"], want):
        np.testing.assert_allclose(got[name], value.numpy(), rtol=1e-6)
    interpreter.allocate_tensors()
    for d in interpreter.get_input_details():
        interpreter.set_tensor(d["index"], x[d["name"][len("serving_default_"):-2]])
    interpreter.invoke()
    first = interpreter.get_tensor(interpreter.get_output_details()[0]["index"])
    np.testing.assert_allclose(first, want[0].numpy(), rtol=1e-6)


@pytest.mark.parametrize("name", sorted(models.single_ops(tf)))
def test_single_operations_convert_as_tf_with_its_results(name):
    # (data/make_op_files.py: TF's file of the function and its outputs; eagerflow's
    # l2_normalize is several ops, converted so)
    fn, specs = models.single_ops(tf)[name]
    content = tf.lite.TFLiteConverter.from_concrete_functions(
        [tf.function(fn).get_concrete_function(*specs)]).convert()
    ours = tf.lite.Interpreter(model_content=content)
    theirs = tf.lite.Interpreter(model_path=os.path.join(DATA, "ops", f"{name}.tflite"))
    if name != "l2_normalize":
        assert [op["op_name"] for op in ours._get_ops_details()] == \
            [op["op_name"] for op in theirs._get_ops_details()]
    data = np.load(os.path.join(DATA, "ops", f"{name}.npz"))
    ours.allocate_tensors()
    for n, d in enumerate(ours.get_input_details()):
        ours.set_tensor(d["index"], data[f"in_{n}"])
    ours.invoke()
    for n, d in enumerate(ours.get_output_details()):
        got, want = ours.get_tensor(d["index"]), data[f"out_{n}"]
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-7)


def test_converter_errors_of_what_it_cannot_convert():
    # (not a Keras model: TF's converter fails when it calls it; a string tensor: the ops
    # reading it have no TFLite operator)
    converter = tf.lite.TFLiteConverter.from_keras_model(lambda x: x)
    with pytest.raises(AttributeError, match="^'function' object has no attribute 'call'$"):
        converter.convert()
    concrete = tf.function(lambda s: tf.strings.length(s)).get_concrete_function(
        tf.TensorSpec([2], tf.string))
    with pytest.raises(Exception, match=r"error: 'tf\.StringLength' op is neither a custom op "
                                        r"nor a flex op") as info:
        tf.lite.TFLiteConverter.from_concrete_functions([concrete]).convert()
    assert type(info.value).__name__ == "ConverterError"
    # (TF's options of its own converter's internals are there, with TF's defaults)
    assert converter.experimental_new_dynamic_range_quantizer is True
    assert converter.unfold_batchmatmul is False
    assert converter._experimental_lower_tensor_list_ops is True


def test_full_integer_quantization_of_each_signature(tmp_path):
    # (each signature's subgraph calibrated on its own samples and quantized; TF 2.21's
    # outputs: `b`'s saturate at the top of its calibrated range)
    class Module(tf.Module):
        def __init__(self):
            self.w = tf.Variable(np.random.RandomState(0).uniform(-1, 1, (4, 3)).astype(
                np.float32))

        @tf.function(input_signature=[tf.TensorSpec([1, 4], tf.float32, name="x")])
        def a(self, x):
            return {"y": tf.matmul(x, self.w)}

        @tf.function(input_signature=[tf.TensorSpec([1, 4], tf.float32, name="x")])
        def b(self, x):
            return {"z": tf.nn.relu(tf.matmul(x, self.w) + 1.0)}

    module = Module()
    tf.saved_model.save(module, str(tmp_path), signatures={"a": module.a, "b": module.b})
    converter = tf.lite.TFLiteConverter.from_saved_model(str(tmp_path))
    converter.optimizations = [tf.lite.Optimize.DEFAULT]
    rng = np.random.RandomState(1)

    def samples():
        for _ in range(5):
            yield "a", {"x": rng.uniform(-1, 1, (1, 4)).astype(np.float32)}
            yield "b", {"x": rng.uniform(-1, 1, (1, 4)).astype(np.float32)}
    converter.representative_dataset = samples
    interpreter = tf.lite.Interpreter(model_content=converter.convert())
    x = np.float32([[0.5, -0.5, 0.25, 1.0]])
    np.testing.assert_allclose(interpreter.get_signature_runner("a")(x=x)["y"],
                               [[-0.239272, 0.545009, 0.239272]], atol=2e-6)
    np.testing.assert_allclose(interpreter.get_signature_runner("b")(x=x)["z"],
                               [[0.751373, 1.140478, 1.140478]], atol=2e-6)

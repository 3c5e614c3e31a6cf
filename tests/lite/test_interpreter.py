"""tf.lite.Interpreter on TFLite files TensorFlow's converter wrote (tests/lite/data)."""
import os

import numpy as np
import pytest

import eagerflow as tf
from tests.internals import lite_schema
from tests.lite import models

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")


def path(name):
    return os.path.join(DATA, f"{name}.tflite")


def recorded(name):
    return np.load(os.path.join(DATA, f"{name}.npz"))


def outputs_of(data):
    return {k[4:]: data[k] for k in data.files if k.startswith("out_")}


@pytest.mark.parametrize("name", sorted(models.INPUTS))
def test_runs_tf_written_models_with_tfs_results(name):
    data = recorded(name)
    runner = tf.lite.Interpreter(model_path=path(name)).get_signature_runner("serving_default")
    ((key, details),) = runner.get_input_details().items()
    got = runner(**{key: models.quantized_input(data["x"], details)})
    want = outputs_of(data)
    assert sorted(got) == sorted(want)
    for k in want:
        assert got[k].dtype == want[k].dtype and got[k].shape == want[k].shape
        if want[k].dtype == np.float32:
            np.testing.assert_allclose(got[k], want[k], rtol=1e-5, atol=1e-6)
        else:  # (integer kernels exact; softmax on real values within one step)
            assert np.abs(got[k].astype(int) - want[k]).max() <= 1


def test_hybrid_fully_connected_matches_tflite():
    # TF's dynamic range model: int8 weights, inputs quantized per row at run time
    data = recorded("mlp_quant")
    interpreter = tf.lite.Interpreter(model_content=open(path("mlp_quant"), "rb").read())
    weights = [d for d in interpreter.get_tensor_details() if d["dtype"] is np.int8]
    assert len(weights) == 1 and weights[0]["quantization_parameters"]["scales"].shape == (32,)
    interpreter.resize_tensor_input(0, [2, 48])
    interpreter.allocate_tensors()
    interpreter.set_tensor(0, data["x"])
    interpreter.invoke()
    out = interpreter.get_tensor(interpreter.get_output_details()[0]["index"])
    np.testing.assert_allclose(out, data["out_dense_1"], rtol=1e-6, atol=2e-6)


def test_details_as_tf_gives_them():
    interpreter = tf.lite.Interpreter(model_path=path("cnn"))
    (inp,), (out,) = interpreter.get_input_details(), interpreter.get_output_details()
    assert sorted(inp) == ["dtype", "index", "name", "quantization", "quantization_parameters",
                           "shape", "shape_signature", "sparsity_parameters"]
    assert inp["name"] == "serving_default_conv2d_input:0" and inp["index"] == 0
    assert inp["shape"].dtype == np.int32 and inp["shape"].tolist() == [1, 8, 8, 2]
    assert inp["shape_signature"].tolist() == [-1, 8, 8, 2]
    assert inp["dtype"] is np.float32 and inp["quantization"] == (0.0, 0)
    q = inp["quantization_parameters"]
    assert q["scales"].dtype == np.float32 and q["zero_points"].dtype == np.int32
    assert q["quantized_dimension"] == 0 and q["block_size"] == 0
    assert inp["sparsity_parameters"] == {}
    assert out["name"] == "StatefulPartitionedCall:0" and out["shape"].tolist() == [1, 10]
    assert interpreter.get_signature_list() == {
        "serving_default": {"inputs": ["conv2d_input"], "outputs": ["dense"]}}
    assert len(interpreter.get_tensor_details()) == 15


def test_resize_then_allocate_gives_new_shapes():
    interpreter = tf.lite.Interpreter(model_path=path("cnn"))
    interpreter.resize_tensor_input(0, [3, 8, 8, 2])
    assert interpreter.get_input_details()[0]["shape"].tolist() == [3, 8, 8, 2]
    interpreter.allocate_tensors()
    assert interpreter.get_output_details()[0]["shape"].tolist() == [3, 10]
    x = recorded("cnn")["x"]
    interpreter.set_tensor(0, np.concatenate([x, x[:1]]))
    interpreter.invoke()
    out = interpreter.get_tensor(interpreter.get_output_details()[0]["index"])
    np.testing.assert_allclose(out[:2], recorded("cnn")["out_dense"], rtol=1e-5, atol=1e-6)


def test_errors_as_tf_raises_them():
    content = open(path("cnn"), "rb").read()
    interpreter = tf.lite.Interpreter(model_content=content)
    with pytest.raises(RuntimeError, match="^Invoke called on model that is not ready.$"):
        interpreter.invoke()
    with pytest.raises(ValueError, match=r"^Tensor data is null. Run allocate_tensors\(\) first$"):
        interpreter.get_tensor(0)
    with pytest.raises(ValueError, match="Cannot set tensor: Tensor is unallocated"):
        interpreter.set_tensor(0, np.zeros((1, 8, 8, 2), np.float32))
    interpreter.allocate_tensors()
    with pytest.raises(ValueError, match="^Cannot set tensor: Dimension mismatch. Got 2 but "
                                         "expected 1 for dimension 0 of input 0.$"):
        interpreter.set_tensor(0, np.zeros((2, 8, 8, 2), np.float32))
    with pytest.raises(ValueError, match="^Cannot set tensor: Dimension mismatch. Got 3 but "
                                         "expected 4 for input 0.$"):
        interpreter.set_tensor(0, np.zeros((1, 8, 8), np.float32))
    with pytest.raises(ValueError, match="^Cannot set tensor: Got value of type FLOAT64 but "
                                         "expected type FLOAT32 for input 0, name: "
                                         "serving_default_conv2d_input:0 $"):
        interpreter.set_tensor(0, np.zeros((1, 8, 8, 2)))
    with pytest.raises(ValueError, match="^Invalid tensor index 100 exceeds max tensor index 15$"):
        interpreter.get_tensor(100)
    with pytest.raises(ValueError, match='^Invalid signature_key provided: "bad".$'):
        interpreter.get_signature_runner("bad")
    with pytest.raises(ValueError, match=r"^Invalid Input name \(wrong\) for SignatureDef$"):
        interpreter.get_signature_runner()(wrong=np.zeros((1, 8, 8, 2), np.float32))
    with pytest.raises(ValueError, match="^The model is not a valid Flatbuffer buffer$"):
        tf.lite.Interpreter(model_content=b"garbage")
    with pytest.raises(ValueError, match="^Could not open '/nonexistent.tflite'.$"):
        tf.lite.Interpreter(model_path="/nonexistent.tflite")
    with pytest.raises(ValueError, match="^`model_path` or `model_content` must be specified.$"):
        tf.lite.Interpreter()
    # (a strict resize: a dimension the signature fixes, or another rank)
    with pytest.raises(RuntimeError, match=r"^Attempting to resize dimension 1 of tensor 0 "
                                           r"with value 8 to 9\. ResizeInputTensorStrict only "
                                           r"allows mutating unknown dimensions identified by "
                                           r"-1\.$"):
        interpreter.resize_tensor_input(0, [1, 9, 8, 2], strict=True)
    with pytest.raises(RuntimeError, match=r"^tensorflow/lite/core/subgraph\.cc:1260 "
                                           r"tensor->dims->size != dims\.size\(\) \(4 != 3\)$"):
        interpreter.resize_tensor_input(0, [1, 8, 8], strict=True)


def test_flatbuffer_round_trip_keeps_tfs_file():
    content = open(path("branches"), "rb").read()
    model = lite_schema.read_model(content)
    again = lite_schema.read_model(lite_schema.write_model(model))
    assert again["signature_defs"] == model["signature_defs"]
    assert [len(b["data"] or b"") for b in again["buffers"]] == \
        [len(b["data"] or b"") for b in model["buffers"]]
    written = lite_schema.write_model(model)
    runner = tf.lite.Interpreter(model_content=written).get_signature_runner()
    got = runner(image=recorded("branches")["x"])
    np.testing.assert_allclose(got["probs"], recorded("branches")["out_probs"], rtol=1e-5)


def test_full_integer_model_details_and_exact_integer_kernels():
    interpreter = tf.lite.Interpreter(model_path=path("cnn_int8"))
    (inp,), (out,) = interpreter.get_input_details(), interpreter.get_output_details()
    assert inp["dtype"] is np.int8 and out["dtype"] is np.int8
    scale, zero = inp["quantization"]
    assert isinstance(scale, float) and isinstance(zero, int) and scale > 0
    assert inp["quantization_parameters"]["scales"].tolist() == [np.float32(scale)]
    assert inp["quantization_parameters"]["zero_points"].tolist() == [zero]
    ops = [op["op_name"] for op in interpreter._get_ops_details()]
    assert ops[:2] == ["CONV_2D", "MAX_POOL_2D"] and ops[-1] == "SOFTMAX"
    # integer convolutions and dense layer as TFLite's, then a softmax of real values
    data = recorded("cnn_int8")
    interpreter.allocate_tensors()
    interpreter.set_tensor(inp["index"], models.quantized_input(data["x"][:1], inp))
    interpreter.invoke()
    got = interpreter.get_tensor(out["index"])
    assert got.dtype == np.int8
    assert np.abs(got.astype(int) - data[f"out_{_only_output('cnn_int8')}"][:1]).max() <= 1


def _only_output(name):
    (key,) = outputs_of(recorded(name))
    return key


def _doubling():
    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32, name="x")])
    def f(x):
        return x * 2.0 + 1.0

    return tf.lite.Interpreter(model_content=tf.lite.TFLiteConverter.from_concrete_functions(
        [f.get_concrete_function()], f).convert())


def test_tensor_returns_the_buffer_itself():
    # TF's raw access: writing into tensor(input)() sets the input; an output's array
    # holds what each later invoke computes
    interpreter = _doubling()
    inp = interpreter.get_input_details()[0]["index"]
    out = interpreter.tensor(interpreter.get_output_details()[0]["index"])
    interpreter.allocate_tensors()
    interpreter.tensor(inp)()[0] = [1, 2, 3]
    interpreter.invoke()
    np.testing.assert_array_equal(out(), [[3, 5, 7]])
    interpreter.tensor(inp)().fill(0.5)
    interpreter.invoke()
    np.testing.assert_array_equal(out(), [[2, 2, 2]])
    interpreter.set_tensor(inp, np.float32([[1, 1, 0]]))
    np.testing.assert_array_equal(interpreter.tensor(inp)(), [[1, 1, 0]])
    copy = interpreter.get_tensor(inp)   # (get_tensor copies: holding it is safe)
    interpreter.invoke()
    np.testing.assert_array_equal(out(), [[3, 3, 1]])
    copy[0, 0] = 9
    assert interpreter.get_tensor(inp)[0, 0] == 1


def test_held_tensor_arrays_block_invoke_allocate_and_resize():
    interpreter = _doubling()
    interpreter.allocate_tensors()
    held = interpreter.tensor(0)()[0]   # (a slice of the view keeps it alive)
    message = "^There is at least 1 reference to internal data"
    with pytest.raises(RuntimeError, match=message):
        interpreter.invoke()
    with pytest.raises(RuntimeError, match=message):
        interpreter.allocate_tensors()
    with pytest.raises(RuntimeError, match=message):
        interpreter.resize_tensor_input(0, [2, 3])
    del held
    interpreter.resize_tensor_input(0, [2, 3])
    interpreter.allocate_tensors()
    interpreter.tensor(0)()[:] = np.float32([[1, 2, 3], [4, 5, 6]])
    interpreter.invoke()
    np.testing.assert_array_equal(interpreter.get_tensor(interpreter.get_output_details()[0]
                                                         ["index"]), [[3, 5, 7], [9, 11, 13]])


def test_signature_runner_without_key_needs_exactly_one_signature():
    with pytest.raises(ValueError, match="^SignatureDef signature_key is None and model has 0 "
                                         "Signatures. None is only allowed when the model has "
                                         "1 SignatureDef$"):
        _doubling().get_signature_runner()


@pytest.mark.parametrize("name", sorted(models.RECURRENT))
def test_tf_recurrent_files_with_tfs_results(name):
    # TF's UNIDIRECTIONAL_SEQUENCE_LSTM keeps its output and cell state in variable
    # tensors: a second invoke goes on from the first's state; reset_all_variables zeroes
    # it. GRUs and simple RNNs: WHILE loops of a condition and a body subgraph, stateless
    # (a bidirectional layer's backward one reads its input reversed: REVERSE_V2)
    data = recorded(name)
    interpreter = tf.lite.Interpreter(model_path=path(name))
    ops = [op["op_name"] for op in interpreter._get_ops_details()]
    lstm = "lstm" in name
    assert ("REVERSE_V2" in ops) is name.startswith("bidi")
    assert ("UNIDIRECTIONAL_SEQUENCE_LSTM" if lstm else "WHILE") in ops
    got = models.run_twice(interpreter, data["x"])
    for value, key in zip(got, ("first", "second", "reset")):
        np.testing.assert_allclose(value, data[key], rtol=1e-5, atol=1e-6)
    assert np.allclose(data["first"], data["second"]) is not lstm


OPS = sorted(f[:-len(".tflite")] for f in os.listdir(os.path.join(DATA, "ops"))
             if f.endswith(".tflite"))


@pytest.mark.parametrize("name", OPS)
def test_tf_files_of_single_operations_with_tfs_results(name):
    # (data/make_op_files.py: TF's converter's file of one operation, TF's outputs)
    data = np.load(os.path.join(DATA, "ops", f"{name}.npz"))
    interpreter = tf.lite.Interpreter(model_path=os.path.join(DATA, "ops", f"{name}.tflite"))
    interpreter.allocate_tensors()
    for n, d in enumerate(interpreter.get_input_details()):
        interpreter.set_tensor(d["index"], data[f"in_{n}"])
    interpreter.invoke()
    for n, d in enumerate(interpreter.get_output_details()):
        got, want = interpreter.get_tensor(d["index"]), data[f"out_{n}"]
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-7)

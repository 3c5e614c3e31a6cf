"""`tf.lite.Interpreter`: runs a ``.tflite`` model's builtin operators on NumPy arrays.

Any ``.tflite`` file whose operators `kernels` knows runs, whether eagerflow's
converter or TensorFlow's wrote it. Tensor details, errors and signature runners
follow TF's interpreter.

>>> fn = tf.function(lambda x: tf.nn.relu(x) * 2.0)
>>> cf = fn.get_concrete_function(tf.TensorSpec([2], tf.float32))
>>> data = tf.lite.TFLiteConverter.from_concrete_functions([cf]).convert()
>>> interpreter = tf.lite.Interpreter(model_content=data)
>>> interpreter.allocate_tensors()
>>> interpreter.set_tensor(interpreter.get_input_details()[0]["index"], np.float32([-1, 3]))
>>> interpreter.invoke()
>>> interpreter.get_tensor(interpreter.get_output_details()[0]["index"])
array([0., 6.], dtype=float32)
"""
import weakref

import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.lite import kernels, quantized, schema
from eagerflow._src.lite.kernels import KERNELS

_HYBRID = frozenset({"FULLY_CONNECTED", "CONV_2D", "DEPTHWISE_CONV_2D", "BATCH_MATMUL"})
# (what runs: the float kernels, and QUANTIZE, which needs its output's parameters)
_RUNS = frozenset(KERNELS).union({"QUANTIZE", "WHILE"})
# (operators whose int8 weights TFLite multiplies by quantized inputs, per channel)
_HYBRID_KERNELS = frozenset({"FULLY_CONNECTED", "CONV_2D", "DEPTHWISE_CONV_2D"})
# (operators of two int8 inputs computed in integers, as TFLite's kernels)
_INTEGER_BINARY = frozenset({"ADD", "SUB", "MUL"})


def _quantization(tensor):
    """``(scales, int32 zero points, quantized dimension)`` of a tensor dict."""
    scales, zeros = quantized.params(tensor)
    return scales, zeros.astype(np.int32), _axis(tensor)


def _axis(tensor):
    return int((tensor["quantization"] or {}).get("quantized_dimension") or 0)


class _Subgraph:
    """One subgraph's tensors, their current shapes and values, and its operators."""

    def __init__(self, model, index):
        self.model, self.called = model, {}   # (subgraphs WHILE calls, by index)
        sub = model["subgraphs"][index]
        self.tensors = sub["tensors"] or []
        self.inputs = [int(i) for i in (sub["inputs"] if sub["inputs"] is not None else [])]
        self.outputs = [int(i) for i in (sub["outputs"] if sub["outputs"] is not None else [])]
        codes = model["operator_codes"] or []
        self.operators = [(schema.operator_name(codes[op["opcode_index"]]), op)
                          for op in (sub["operators"] or [])]
        for code in codes:
            name = schema.operator_name(code)
            if name not in _RUNS and schema.operator_code(code) != schema.OPERATORS_CUSTOM:
                raise ValueError(
                    f"Didn't find op for builtin opcode '{name}' version '{code['version']}'. "
                    f"An older version of this builtin might be supported. Are you using an "
                    f"old TFLite binary with a newer model?\nRegistration failed.\n")
        buffers = model["buffers"] or []
        self.constants, self.variables = {}, {}
        for i, t in enumerate(self.tensors):
            # (a model being rewritten may hold empty buffers as ``{}``)
            data = buffers[t["buffer"]].get("data") if t["buffer"] < len(buffers) else None
            if data is not None and len(data):
                value = np.frombuffer(data, self.dtype(i)).reshape(
                    [int(d) for d in self.file_shape(i)])
                (self.variables if t.get("is_variable") else self.constants)[i] = value
            elif t.get("is_variable"):   # (a state an operator updates: zeros at first)
                self.variables[i] = np.zeros([int(d) for d in self.file_shape(i)],
                                             self.dtype(i))
        self.shapes = [np.asarray(self.file_shape(i), np.int32) for i in range(len(self.tensors))]
        self.values = None
        self.resized = False

    def dtype(self, i):
        t = self.tensors[i]["type"]
        if t not in schema.TENSOR_TYPES:
            raise ValueError(f"Tensor type {schema.TYPE_NAMES.get(t, t)} is not supported.")
        return schema.TENSOR_TYPES[t]

    def file_shape(self, i):
        shape = self.tensors[i]["shape"]
        return shape if shape is not None else np.zeros([0], np.int32)

    def allocate(self):
        for n, (name, _) in enumerate(self.operators):
            if name not in _RUNS:
                raise RuntimeError(f"Encountered unresolved custom op: {name}.\nSee "
                                   f"instructions: https://www.tensorflow.org/lite/guide/"
                                   f"ops_custom \nNode number {n} ({name}) failed to prepare.\n")
        self.values = dict(self.constants)
        self.reset_variables()
        for i in self.inputs:
            if i not in self.values:
                self.values[i] = np.zeros(self.shapes[i], self.dtype(i))
        if self.resized:  # (the other tensors' shapes follow from the new inputs')
            self.run()
            self.resized = False
        for i in range(len(self.tensors)):
            if i not in self.values and self.tensors[i]["type"] in schema.TENSOR_TYPES:
                self.values[i] = np.zeros(self.shapes[i], self.dtype(i))

    def reset_variables(self):
        for i, value in self.variables.items():
            self.values[i] = np.array(value)

    def call(self, arrays):
        """The outputs of this subgraph run on input `arrays` (as WHILE runs its condition
        and body)."""
        self.values = dict(self.constants)
        self.reset_variables()
        for i, a in zip(self.inputs, arrays):
            self.values[i] = np.array(a)
            self.shapes[i] = np.asarray(np.shape(a), np.int32)
        self.run()
        return [np.array(self.values[i]) for i in self.outputs]

    def subgraph(self, index):
        if index not in self.called:
            self.called[index] = _Subgraph(self.model, index)
        return self.called[index]

    def hybrid(self, op):
        """Whether `op` multiplies float inputs by int8 constant weights."""
        w = int(op["inputs"][1])
        return w in self.constants and self.constants[w].dtype == np.int8 and \
            self.dtype(int(op["inputs"][0])) == np.float32

    def run(self):
        for name, op in self.operators:
            ins = [int(i) for i in op["inputs"]]
            outs = [int(i) for i in op["outputs"]]
            results = self.operator(name, op, ins, outs)
            for i, r in zip(outs, results):
                self.store(i, r)
            if name == "UNIDIRECTIONAL_SEQUENCE_LSTM":   # (its new state, for the next run)
                for i, r in zip([ins[n] for n in kernels.LSTM_STATE], results[len(outs):]):
                    if i >= 0:
                        self.store(i, r)

    def store(self, i, value):
        """Writes `value` into tensor `i`'s buffer: in place while its shape stays (arrays
        `Interpreter.tensor` handed out see it, as TFLite's views of its arena do), else
        into a new buffer of the tensor's own (never shared with another tensor)."""
        value = np.asarray(value)
        current = self.values.get(i)
        if current is not None and i not in self.constants and current.shape == value.shape \
                and current.dtype == value.dtype:
            np.copyto(current, value)
        else:
            self.values[i] = np.array(value)
            self.shapes[i] = np.asarray(value.shape, np.int32)

    def quantized(self, i):
        """Whether tensor `i` holds quantized integers (int8/uint8/int16 with a scale)."""
        return i >= 0 and quantized.is_quantized(self.tensors[i], self.dtype(i))

    def operator(self, name, op, ins, outs):
        """The output arrays of one operator."""
        values, options = self.values, op["builtin_options"] or {}
        raw = [values[i] if i >= 0 else None for i in ins]
        out_types = [self.dtype(i) for i in outs]
        if name == "WHILE":   # (the body on the loop values while the condition holds)
            cond = self.subgraph(options["cond_subgraph_index"])
            body = self.subgraph(options["body_subgraph_index"])
            while bool(np.ravel(cond.call(raw)[0])[0]):
                raw = body.call(raw)
            return raw
        if name == "DEQUANTIZE":
            x = raw[0]
            return [quantized.dequantize(x, self.tensors[ins[0]], _axis(self.tensors[ins[0]]))
                    if self.quantized(ins[0]) else x.astype(out_types[0])]
        if name == "QUANTIZE" and self.quantized(ins[0]):   # (a requantization)
            return [quantized.requantize(raw[0], self.tensors[ins[0]], self.tensors[outs[0]],
                                         out_types[0])]
        if name == "QUANTIZE":
            return [quantized.quantize(raw[0], self.tensors[outs[0]], out_types[0])]
        if name == "BATCH_MATMUL" and all(self.quantized(i) for i in ins + outs) and \
                np.dtype(out_types[0]) == np.int8:
            return [quantized.integer_batch_matmul(raw[0], raw[1],
                                                   [self.tensors[i] for i in ins], options,
                                                   self.tensors[outs[0]], out_types[0])]
        if name in _INTEGER_BINARY and all(self.quantized(i) for i in ins + outs) and \
                np.dtype(out_types[0]).itemsize == 1:
            return [quantized.integer_binary(name, raw[0], raw[1],
                                             [self.tensors[i] for i in ins], options,
                                             self.tensors[outs[0]], out_types[0])]
        if name in _HYBRID_KERNELS and self.quantized(ins[0]) and self.quantized(outs[0]):
            return [quantized.integer_kernel(name, raw, [self.tensors[i] for i in ins[:2]],
                                             options, self.tensors[outs[0]], out_types[0])]
        if name == "TRANSPOSE_CONV" and self.quantized(ins[2]) and self.quantized(outs[0]):
            return [quantized.integer_kernel(name, raw, [self.tensors[ins[2]],
                                                         self.tensors[ins[1]]],
                                             options, self.tensors[outs[0]], out_types[0])]
        if name in _HYBRID_KERNELS and self.hybrid(op):
            scales, _, _ = _quantization(self.tensors[ins[1]])
            args = (raw[0], raw[1], scales, raw[2] if len(raw) > 2 else None, options,
                    out_types[0])
            return [kernels.hybrid_fully_connected(*args) if name == "FULLY_CONNECTED"
                    else kernels.hybrid_conv(name, *args)]
        if name == "UNIDIRECTIONAL_SEQUENCE_LSTM" and any(
                v is not None and v.dtype == np.int8 for v in raw[1:9]):
            # (int8 weights: the hybrid kernel, of the weights' integers and scales)
            scales = [quantized.params(self.tensors[i])[0][0] if v is not None and
                      v.dtype == np.int8 else None for i, v in zip(ins, raw)]
            return kernels.sequence_lstm(raw, options, out_types, scales)
        real = any(self.quantized(i) for i in ins + outs)
        # (other operators on quantized tensors: on their real values, quantized again; an
        # int32 bias of a scale among them too)
        floats = [quantized.dequantize(v, self.tensors[i], _axis(self.tensors[i]))
                  if v is not None and (self.quantized(i) or (name in _HYBRID and
                                                              i in self.constants and
                                                              v.dtype.kind in "iu") or
                                        (real and v.dtype == np.int32 and
                                         len(quantized.params(self.tensors[i])[0])))
                  else v for i, v in zip(ins, raw)]
        kinds = [np.dtype(np.float32) if self.quantized(i) else t for i, t in zip(outs, out_types)]
        results = KERNELS[name](floats, options, kinds)
        if not real:
            return results
        return [quantized.quantize(r, self.tensors[i], t) if self.quantized(i) else r
                for i, r, t in zip(outs, results, out_types)]


@export("lite.Interpreter")
class Interpreter:
    """Runs a TFLite model (``model_path`` or ``model_content``) on NumPy arrays."""

    def __init__(self, model_path=None, model_content=None, experimental_delegates=None,
                 num_threads=None, experimental_op_resolver_type=None,
                 experimental_preserve_all_tensors=False,
                 experimental_disable_delegate_clustering=False,
                 experimental_default_delegate_latest_features=False):
        if num_threads is not None:
            if not isinstance(num_threads, int):
                raise ValueError("type of num_threads should be int")
            if num_threads < 1:
                raise ValueError("num_threads should >= 1")
        if model_path is not None and model_content is None:
            try:
                with open(model_path, "rb") as f:
                    model_content = f.read()
            except OSError:
                raise ValueError(f"Could not open '{model_path}'.") from None
        elif model_content is None:
            raise ValueError("`model_path` or `model_content` must be specified.")
        try:
            data = bytes(model_content)
            if data[4:8] != schema.IDENTIFIER and len(data) >= 8 and data[4:8] != b"\0" * 4:
                raise ValueError
            self._model = schema.read_model(data)
        except Exception:  # noqa: BLE001 (any malformed buffer)
            raise ValueError("The model is not a valid Flatbuffer buffer") from None
        if not self._model["subgraphs"]:
            raise ValueError("The model is not a valid Flatbuffer buffer")
        self._subgraphs = {}
        self._main = self._subgraph(0)
        self._views = []   # (weak references to what arrays from `tensor` are views of)

    def _subgraph(self, index):
        if index not in self._subgraphs:
            self._subgraphs[index] = _Subgraph(self._model, index)
        return self._subgraphs[index]

    # -- running -------------------------------------------------------------------------------

    def allocate_tensors(self):
        """Makes room for every tensor (after the inputs' shapes last changed)."""
        self._ensure_safe()
        self._main.allocate()

    def invoke(self):
        """Runs the model on the inputs set."""
        self._ensure_safe()
        if self._main.values is None:
            raise RuntimeError("Invoke called on model that is not ready.")
        self._main.run()

    def _ensure_safe(self):
        """Raises TF's RuntimeError while an array `tensor` returned (or a slice of it) is
        alive: running or reallocating could change what it shows."""
        self._views = [v for v in self._views if v() is not None]
        if self._views:
            raise RuntimeError("There is at least 1 reference to internal data\n      in the "
                               "interpreter in the form of a numpy array or slice. Be sure to"
                               "\n      only hold the function returned from tensor() if you "
                               "are using raw\n      data access.")

    def _check_index(self, index):
        n = len(self._main.tensors)
        if not 0 <= int(index) < n:
            raise ValueError(f"Invalid tensor index {index} exceeds max tensor index {n}")
        return int(index)

    def set_tensor(self, tensor_index, value):
        """Copies `value` into the tensor `tensor_index`."""
        sub, i = self._main, self._check_index(tensor_index)
        value = np.asarray(value)
        if sub.values is None:
            raise ValueError("Cannot set tensor: Tensor is unallocated. Try calling "
                             "allocate_tensors() first")
        want = sub.dtype(i)
        if value.dtype != want:
            raise ValueError(
                f"Cannot set tensor: Got value of type {_type_name(value.dtype)} but expected "
                f"type {_type_name(want)} for input {i}, name: {sub.tensors[i]['name']} ")
        shape = sub.shapes[i]
        if value.ndim != len(shape):
            raise ValueError(f"Cannot set tensor: Dimension mismatch. Got {value.ndim} but "
                             f"expected {len(shape)} for input {i}.")
        for d, (got, expected) in enumerate(zip(value.shape, shape)):
            if got != expected:
                raise ValueError(f"Cannot set tensor: Dimension mismatch. Got {got} but "
                                 f"expected {expected} for dimension {d} of input {i}.")
        sub.store(i, value)

    def get_tensor(self, tensor_index, subgraph_index=0):
        """A copy of the tensor `tensor_index`'s value."""
        sub, i = self._subgraph(subgraph_index), self._check_index(tensor_index)
        if sub.values is None or i not in sub.values:
            raise ValueError("Tensor data is null. Run allocate_tensors() first")
        value = np.array(sub.values[i])
        return value[()] if value.ndim == 0 else value   # (a scalar as a NumPy scalar)

    def reset_all_variables(self):
        """Resets variable tensors (the states of LSTM operators, which each `invoke`
        carries on from the last) to their initial values."""
        if self._main.values is not None:
            self._main.reset_variables()

    def tensor(self, tensor_index):
        """A function returning the tensor `tensor_index`'s buffer itself (not a copy): what
        is written into the array returned for an input is what the next `invoke` reads, and
        an array returned for an output holds the values of each later `invoke`."""
        def buffer():
            sub, i = self._main, self._check_index(tensor_index)
            if sub.values is None or i not in sub.values:
                raise ValueError("Tensor data is null. Run allocate_tensors() first")
            view = _View(sub.values[i])
            self._views.append(weakref.ref(view))
            return np.asarray(view)
        return buffer

    def resize_tensor_input(self, input_index, tensor_size, strict=False):
        """Gives the input `input_index` a new shape (effective at `allocate_tensors`)."""
        self._ensure_safe()
        sub, i = self._main, self._check_index(input_index)
        size = np.asarray(tensor_size, np.int32)
        if strict:
            signature = self._details(sub, i)["shape_signature"]
            if len(signature) != len(size):
                raise RuntimeError(f"tensorflow/lite/core/subgraph.cc:1260 tensor->dims->size "
                                   f"!= dims.size() ({len(signature)} != {len(size)})")
            for d, (s, n) in enumerate(zip(signature, size)):
                if s != -1 and s != n:
                    raise RuntimeError(
                        f"Attempting to resize dimension {d} of tensor {i} with value {s} to "
                        f"{n}. ResizeInputTensorStrict only allows mutating unknown "
                        f"dimensions identified by -1.")
        sub.shapes[i] = size
        sub.values = None
        sub.resized = True

    # -- details -------------------------------------------------------------------------------

    def _details(self, sub, i):
        t = sub.tensors[i]
        scales, zeros, axis = _quantization(t)
        signature = t["shape_signature"]
        return {
            "name": t["name"] or "",
            "index": i,
            "shape": np.array(sub.shapes[i], np.int32),
            "shape_signature": np.array(signature if signature is not None
                                        else sub.shapes[i], np.int32),
            "dtype": sub.dtype(i).type,
            "quantization": (float(scales[0]), int(zeros[0])) if len(scales) == 1
            and len(zeros) else (0.0, 0),
            "quantization_parameters": {"scales": scales, "zero_points": zeros,
                                        "quantized_dimension": axis, "block_size": 0},
            "sparsity_parameters": {},
        }

    def get_input_details(self):
        """One dict per input: name, index, shape, shape_signature, dtype, quantization, ..."""
        return [self._details(self._main, i) for i in self._main.inputs]

    def get_output_details(self):
        """One dict per output, as `get_input_details`."""
        return [self._details(self._main, i) for i in self._main.outputs]

    def get_tensor_details(self):
        """The details of every tensor of the main subgraph."""
        return [self._details(self._main, i) for i in range(len(self._main.tensors))]

    def _get_ops_details(self):
        return [{"index": n, "op_name": name, "inputs": np.asarray(op["inputs"], np.int32),
                 "outputs": np.asarray(op["outputs"], np.int32)}
                for n, (name, op) in enumerate(self._main.operators)]

    # -- signatures ----------------------------------------------------------------------------

    def _signatures(self):
        return {s["signature_key"]: s for s in self._model["signature_defs"] or []}

    def get_signature_list(self):
        """``{key: {'inputs': [names], 'outputs': [names]}}`` of the model's signatures."""
        return {key: {"inputs": [m["name"] for m in s["inputs"] or []],
                      "outputs": [m["name"] for m in s["outputs"] or []]}
                for key, s in self._signatures().items()}

    def get_signature_runner(self, signature_key=None):
        """A callable running the signature `signature_key` on keyword arrays."""
        signatures = self._signatures()
        if signature_key is None:
            if len(signatures) != 1:
                raise ValueError(f"SignatureDef signature_key is None and model has "
                                 f"{len(signatures)} Signatures. None is only allowed when the "
                                 f"model has 1 SignatureDef")
            signature_key = next(iter(signatures))
        if signature_key not in signatures:
            raise ValueError(f'Invalid signature_key provided: "{signature_key}".')
        return SignatureRunner(self, signatures[signature_key])


class SignatureRunner:
    """Runs one signature: ``runner(**inputs)`` returns ``{output name: array}``."""

    def __init__(self, interpreter, signature):
        self._interpreter = interpreter
        self._sub = interpreter._subgraph(signature["subgraph_index"])
        self._inputs = {m["name"]: m["tensor_index"] for m in signature["inputs"] or []}
        self._outputs = {m["name"]: m["tensor_index"] for m in signature["outputs"] or []}

    def __call__(self, **kwargs):
        if len(kwargs) != len(self._inputs):
            raise ValueError(f"Invalid number of inputs provided for running a SignatureDef, "
                             f"expected {len(self._inputs)} vs provided {len(kwargs)}")
        sub = self._sub
        for name in kwargs:
            if name not in self._inputs:
                raise ValueError(f"Invalid Input name ({name}) for SignatureDef")
        for name, value in kwargs.items():
            i = self._inputs[name]
            value = np.asarray(value)
            if tuple(sub.shapes[i]) != value.shape:
                sub.shapes[i] = np.asarray(value.shape, np.int32)
                sub.resized = True
        if sub.values is None or sub.resized:
            sub.allocate()
        for name, value in kwargs.items():
            i = self._inputs[name]
            value = np.asarray(value)
            if value.dtype != sub.dtype(i):
                raise ValueError(
                    f"Cannot set tensor: Got value of type {_type_name(value.dtype)} but "
                    f"expected type {_type_name(sub.dtype(i))} for input {i}, name: "
                    f"{sub.tensors[i]['name']} ")
            sub.store(i, value)
        sub.run()
        return {name: np.array(sub.values[i]) for name, i in self._outputs.items()}

    def get_input_details(self):
        """``{input name: details}`` (see `Interpreter.get_input_details`)."""
        return {n: self._interpreter._details(self._sub, i) for n, i in self._inputs.items()}

    def get_output_details(self):
        """``{output name: details}``."""
        return {n: self._interpreter._details(self._sub, i) for n, i in self._outputs.items()}


class _View:
    """What an array `Interpreter.tensor` returns is a view of (alive while any view or
    slice of it is)."""

    def __init__(self, array):
        self.__array_interface__ = array.__array_interface__
        self.array = array


def _type_name(dtype):
    number = schema.TYPE_NUMBERS.get(np.dtype(dtype))
    return schema.TYPE_NAMES.get(number, str(np.dtype(dtype)).upper())

"""`tf.lite.TFLiteConverter`: Keras models, concrete functions and SavedModels to ``.tflite``.

The converter traces the model (as its SavedModel would serve it), runs the
graph passes functions run (constant folding, bias and activation fusion),
and lowers each operation to TFLite's builtin operators (`lowering`).
``optimizations=[tf.lite.Optimize.DEFAULT]`` stores large convolution and
dense weights as int8 with per-channel scales (dynamic range quantization); with
``target_spec.supported_types=[tf.float16]``, every float constant as float16;
with a ``representative_dataset``, every operator TFLite can run so in int8
(full integer quantization, `full_integer`).

>>> model = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,))])
>>> data = tf.lite.TFLiteConverter.from_keras_model(model).convert()
>>> data[4:8]
b'TFL3'
>>> tf.lite.Interpreter(model_content=data).get_signature_list()
{'serving_default': {'inputs': ['dense_input'], 'outputs': ['dense']}}
"""
import enum

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import dtypes
from eagerflow._src.lite import full_integer as full_integer_quantization
from eagerflow._src.lite.lowering import ConversionError, ModelBuilder
from eagerflow._src.lite.schema import read_model, write_model
from eagerflow._src.saved_model import load as _load
from eagerflow._src.saved_model import save as _save


class ConverterError(Exception):
    """Raised when a model cannot be converted (TF's ``convert_phase.ConverterError``)."""


@export("lite.Optimize")
class Optimize(enum.Enum):
    """Optimizations the converter may apply (``DEFAULT``: dynamic range quantization)."""

    DEFAULT = "DEFAULT"
    OPTIMIZE_FOR_SIZE = "OPTIMIZE_FOR_SIZE"
    OPTIMIZE_FOR_LATENCY = "OPTIMIZE_FOR_LATENCY"
    EXPERIMENTAL_SPARSITY = "EXPERIMENTAL_SPARSITY"

    def __str__(self):
        return str(self.value)


@export("lite.OpsSet")
class OpsSet(enum.Enum):
    """Sets of operators a converted model may use."""

    TFLITE_BUILTINS = "TFLITE_BUILTINS"
    SELECT_TF_OPS = "SELECT_TF_OPS"
    TFLITE_BUILTINS_INT8 = "TFLITE_BUILTINS_INT8"
    EXPERIMENTAL_TFLITE_BUILTINS_ACTIVATIONS_INT16_WEIGHTS_INT8 = \
        "EXPERIMENTAL_TFLITE_BUILTINS_ACTIVATIONS_INT16_WEIGHTS_INT8"
    EXPERIMENTAL_STABLEHLO_OPS = "EXPERIMENTAL_STABLEHLO_OPS"

    def __str__(self):
        return str(self.value)


@export("lite.TargetSpec")
class TargetSpec:
    """The operators (`supported_ops`) and types (`supported_types`) a target runs."""

    def __init__(self, supported_ops=None, supported_types=None,
                 experimental_select_user_tf_ops=None, experimental_supported_backends=None):
        self.supported_ops = set(supported_ops) if supported_ops is not None else \
            {OpsSet.TFLITE_BUILTINS}
        self.supported_types = set(supported_types or ())
        self.experimental_select_user_tf_ops = set(experimental_select_user_tf_ops or ())
        self.experimental_supported_backends = experimental_supported_backends


@export("lite.RepresentativeDataset")
class RepresentativeDataset:
    """A generator of sample inputs, for calibrating full integer quantization."""

    def __init__(self, input_gen):
        self.input_gen = input_gen


@export("lite.TFLiteConverter")
class TFLiteConverter:
    """Converts a model to TFLite's flatbuffer format (`convert` returns its bytes)."""

    def __init__(self, functions, trackable_obj=None):
        self._functions = functions   # (signature key or None, concrete, in names, out names)
        self._trackable_obj = trackable_obj
        self.optimizations = set()
        self.representative_dataset = None
        self.target_spec = TargetSpec()
        self.inference_input_type = dtypes.float32
        self.inference_output_type = dtypes.float32
        self.allow_custom_ops = False
        self.experimental_new_converter = True
        self.experimental_new_quantizer = True
        self.experimental_enable_resource_variables = True
        self.exclude_conversion_metadata = False
        # (TF's options of its converter's internals: kept, without effect here)
        self.experimental_new_dynamic_range_quantizer = True
        self.experimental_lower_to_saved_model = True
        self.experimental_use_stablehlo_quantizer = False
        self.unfold_batchmatmul = False
        self.legalize_custom_tensor_list_ops = False
        self.canonicalizing_inf_as_min_max_float = True
        self.serialize_debug_metadata = False
        self.enable_timing = None
        self._experimental_lower_tensor_list_ops = True
        self._not_a_model = None

    @classmethod
    def from_keras_model(cls, model):
        """A converter of `model`'s serving function (``serving_default``, by layer names)."""
        signatures = _save._canonical_signatures(model, None,
                                                 _save._keras_default_signature(model))
        # (a model not built yet has no serving function: converting it fails, as in TF)
        functions = _signature_functions(signatures)
        if not hasattr(model, "call"):   # (TF's converter fails calling it)
            converter = cls([], model)
            converter._not_a_model = type(model).__name__
            return converter
        # (the outputs in the model's order, named ``StatefulPartitionedCall:n`` by their
        # names' order, as TF's converter writes a Keras model's)
        names = list(getattr(model, "output_names", None) or ())
        for n, (key, concrete, in_names, out_names) in enumerate(functions):
            if sorted(names) == sorted(out_names):
                functions[n] += ([out_names.index(k) for k in names],)
        return cls(functions, model)

    @classmethod
    def from_concrete_functions(cls, funcs, trackable_obj=None):
        """A converter of concrete functions (one only), their inputs and outputs by name."""
        for f in funcs:
            if not hasattr(f, "graph") or not hasattr(f, "inputs"):
                raise ValueError("This function takes in a list of ConcreteFunction. To get the "
                                 "ConcreteFunction from a Function, call "
                                 "get_concrete_function.")
        if len(funcs) != 1:
            raise ValueError("This converter can only convert a single ConcreteFunction. "
                             "Converting multiple functions is under development.")
        concrete = funcs[0]
        in_names = [t.op.name for t in concrete._inputs]
        out_names = [_tensor_base_name(n, t) for n, t in enumerate(concrete.outputs)]
        return cls([(None, concrete, in_names, out_names)], trackable_obj)

    @classmethod
    def from_saved_model(cls, saved_model_dir, signature_keys=None, tags=None):
        """A converter of a SavedModel's signatures (default: all of them)."""
        loaded = _load.load(saved_model_dir, tags)
        available = dict(getattr(loaded, "signatures", {}) or {})
        keys = list(signature_keys) if signature_keys else sorted(available)
        for key in keys:
            if key not in available:
                raise ValueError(f"Invalid signature key '{key}' found. Valid keys are "
                                 f"'{','.join(sorted(available))}'.")
        if not keys:
            raise ValueError("Only support at least one signature key.")
        signatures = _save._canonical_signatures(loaded, {k: available[k] for k in keys})
        return cls(_signature_functions(signatures), loaded)

    def convert(self):
        """The converted model, the bytes of a ``.tflite`` file."""
        if self._not_a_model:
            raise AttributeError(f"'{self._not_a_model}' object has no attribute 'call'")
        ops = set(self.target_spec.supported_ops)
        quantize = bool({Optimize.DEFAULT, Optimize.OPTIMIZE_FOR_SIZE,
                         Optimize.OPTIMIZE_FOR_LATENCY}.intersection(self.optimizations or ()))
        float16 = quantize and any(dtypes.as_dtype(t) == dtypes.float16
                                   for t in self.target_spec.supported_types)
        # (a representative dataset without the optimization, or with float16, is not used)
        full_integer = quantize and not float16 and self.representative_dataset is not None
        io_types = [dtypes.as_dtype(self.inference_input_type),
                    dtypes.as_dtype(self.inference_output_type)]
        if full_integer and any(t not in (dtypes.float32, dtypes.int8, dtypes.uint8,
                                          dtypes.int16) for t in io_types):
            raise ValueError("The inference_input_type and inference_output_type must be in "
                             "['tf.float32', 'tf.int8', 'tf.uint8', 'tf.int16'].")
        for kind, t in zip(("input", "output"), io_types):
            if full_integer and t not in (dtypes.float32, dtypes.int8, dtypes.uint8):
                raise ValueError(f"Unsupported `inference_{kind}_type` value. Expected to be "
                                 f"in ('tf.uint8', 'tf.int8'), instead got tf.{t.name}.")
        if OpsSet.TFLITE_BUILTINS_INT8 in ops and self.representative_dataset is None:
            raise ValueError("For full integer quantization, a `representative_dataset` "
                             "must be specified.")
        if not full_integer and io_types != [dtypes.float32, dtypes.float32]:
            raise ValueError("The inference_input_type and inference_output_type must be "
                             "tf.float32.")
        if ops - {OpsSet.TFLITE_BUILTINS, OpsSet.SELECT_TF_OPS, OpsSet.TFLITE_BUILTINS_INT8}:
            raise ValueError(f"Converting to {sorted(str(o) for o in ops)} is not supported: "
                             f"only float, dynamic range and int8 models convert.")
        if not self._functions:
            raise ConverterError("Could not translate MLIR to FlatBuffer.\nThe model has no "
                                 "function to convert: its input shapes are unknown (call it "
                                 "on data, or give it an input shape, first).")
        keyed = all(key is not None for key, *_ in self._functions)
        dynamic_range = quantize and not float16 and not full_integer
        try:
            content = ModelBuilder(dynamic_range, float16).model(
                self._functions, signatures=keyed)
        except ConversionError as e:
            flex = OpsSet.SELECT_TF_OPS in ops or self.allow_custom_ops
            raise ConverterError(_unsupported_message(e, flex)) from None
        if not full_integer:
            return content
        dataset = self.representative_dataset
        samples = dataset.input_gen if isinstance(dataset, RepresentativeDataset) else dataset
        return write_model(full_integer_quantization.quantize_model(
            read_model(content), samples(), *[t.as_numpy_dtype for t in io_types]))


def _signature_functions(signatures):
    """``(key, concrete, input names, output names)`` of canonical signatures."""
    out = []
    for key, sig in sorted(signatures.items()):
        concrete = sig.concrete
        out_names = [None] * len(concrete.outputs)
        for name, spec, positions in sig.out_keys:
            if spec is not None:
                raise ValueError(f"Signature {key!r} returns a composite tensor {name!r}, "
                                 f"which TFLite cannot hold.")
            out_names[positions[0]] = name
        out.append((key, concrete, list(sig.keys), out_names))
    return out


def _tensor_base_name(n, t):
    """The name TF's converter gives a concrete function's output `n` (its Identity's)."""
    return "Identity" if n == 0 else f"Identity_{n}"


def _unsupported_message(error, flex):
    op = error.op
    where = f"{op.location[0]}:{op.location[1]}:1" if op.location else "<unknown>:0"
    if error.message:
        return f"{where}: error: {error.message}"
    if flex:  # (TF would keep it as a TensorFlow (flex) or custom op, which cannot run here)
        return (f"Could not translate MLIR to FlatBuffer.{where}: error: 'tf.{op.type}' op has "
                f"no TFLite builtin operator, and this converter writes no select TF (flex) "
                f"or custom operators")
    return (f"Could not translate MLIR to FlatBuffer.{where}: error: 'tf.{op.type}' op is "
            f"neither a custom op nor a flex op\n<unknown>:0: error: failed while converting: "
            f"'main': \nSome ops in the model are custom ops, See instructions to implement "
            f"custom ops: https://www.tensorflow.org/lite/guide/ops_custom \n"
            f"Custom ops: {op.type}")

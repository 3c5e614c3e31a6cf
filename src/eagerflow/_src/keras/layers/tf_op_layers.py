"""`TFOpLambda`: calls of TensorFlow functions on Keras tensors, as layers.

In a functional model, each call of a TF function or operator on
`KerasTensor`s (``x / 255.0``, ``tf.nn.relu(x)``, ``tf.concat([a, b], -1)``,
``x[:, 0]``) becomes one layer, named after the function's canonical TF name
(``tf.math.truediv``, ``tf.nn.relu``, ``tf.concat``,
``tf.__operators__.getitem``), whose node holds the call's arguments; so
`Model.layers`, `summary`, `get_config` and `clone_model` see it as Keras does.

How calls are found: TF's dispatch support. An op on a Keras tensor outside
a layer's call raises `SymbolicCall` in the Keras graph; the outermost public
function of the call (see `api_export`) catches it and hands its function and
arguments to the dispatcher registered here, which calls a `TFOpLambda` of
that function on them: the layer, named after the function, whose node holds
the arguments the user passed (those left at their defaults out, the first
positionally and the others by keyword). `KerasTensor`'s operators make the
layer of their TF function (``x + 1`` makes ``tf.__operators__.add``) the same
way. The layer runs its function, on Keras tensors in the Keras graph and on
real tensors when the model runs.

A layer is named after its function's declaration (``@export``): its
canonical name, or its ``dispatch_name`` where tf_keras names the layer after
the TF 1 function TF dispatches through (``tf.transpose`` makes
``tf.compat.v1.transpose``).

>>> from eagerflow._src.keras.engine.input_layer import Input
>>> y = Input(shape=(2,)) / 255.0
>>> layer = y.node.layer
>>> type(layer).__name__, layer.get_config()["function"], layer.count_params()
('TFOpLambda', 'math.truediv', 0)
"""
import inspect
import numbers
import sys
import types

from eagerflow._src.backend import api_export
from eagerflow._src.backend.log import logger as _logger
from eagerflow._src.compat import graph_mode
from eagerflow._src.core import context, nest
from eagerflow._src.core.convert import constant
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.core.convert import operand
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.graph.graph import SymbolicTensor
from eagerflow._src.keras import backend
from eagerflow._src.keras.engine import keras_tensor
from eagerflow._src.keras.engine.base_layer import Layer, watching_variables
from eagerflow._src.ops import math_ops
from eagerflow._src.ragged.ragged_tensor import FACTORY_HOOKS, RaggedTensor


def _add(x, y, name=None):
    # TF's function behind `+` makes a node of the op's own name ("AddV2")
    return math_ops.add(x, y, name="AddV2" if name is None else name)


def _eq(self, other):
    return self == other


def _ne(self, other):
    return self != other


def _getitem(tensor, slice_spec):
    return tensor[_slices(slice_spec)]


def _ragged_getitem(rt_input, key):
    return rt_input[_slices(key)]


# TF's functions behind operators that have no public path in eagerflow.
_OPERATOR_FUNCTIONS = {"__operators__.add": _add, "__operators__.eq": _eq,
                       "__operators__.ne": _ne, "__operators__.getitem": _getitem,
                       "__operators__.ragged_getitem": _ragged_getitem}

# KerasTensor's operators (``__add__`` and ``__radd__`` under "add"): TF's name for each, and
# the keyword its second operand takes (None: unary). `&`, `|`, `^` and `~` are logical on bools
# and bitwise on integers.
_OPERATORS = {
    "add": ("__operators__.add", "y"), "sub": ("math.subtract", "y"),
    "mul": ("math.multiply", "y"), "truediv": ("math.truediv", "y"),
    "floordiv": ("compat.v1.floor_div", "y"), "mod": ("math.floormod", "y"),
    "pow": ("math.pow", "y"), "matmul": ("linalg.matmul", "b"),
    "lt": ("math.less", "y"), "le": ("math.less_equal", "y"), "gt": ("math.greater", "y"),
    "ge": ("math.greater_equal", "y"), "eq": ("__operators__.eq", "other"),
    "ne": ("__operators__.ne", "other"), "getitem": ("__operators__.getitem", "slice_spec"),
    "and": (("math.logical_and", "bitwise.bitwise_and"), "y"),
    "or": (("math.logical_or", "bitwise.bitwise_or"), "y"),
    "xor": (("math.logical_xor", "bitwise.bitwise_xor"), "y"),
    "neg": ("math.negative", None), "abs": ("math.abs", None),
    "invert": (("math.logical_not", "bitwise.invert"), None),
}
# A ragged tensor's own operators where they differ (a Keras tensor's are a tensor's, as in
# tf_keras).
_RAGGED_OPERATORS = {"add": ("math.add", "y"), "mul": ("math.multiply", "y"),
                     "getitem": ("__operators__.ragged_getitem", "key")}


class TFOpLambda(Layer):
    """A TF function applied to Keras tensors: ``TFOpLambda(tf.nn.relu)(x)``.

    Named ``tf.`` and the function's canonical TF name; no weights. Its call
    is the function's: inputs are not cast, and take no ``training``.
    """

    _preserve_input_structure = True  # its config keeps the first argument's structure
    # (unexported: configs name it as tf_keras does; built on its first call, which records
    # its first argument's shapes in its build config)
    _serialized_module = "tf_keras.src.layers.core.tf_op_layer"
    _serialized_registered_name = "TFOpLambda"

    def __init__(self, function, **kwargs):
        self.function = function
        self.symbol = _index().names.get(function) or function.__name__
        if kwargs.get("name") is None:
            base = f"tf.{self.symbol}"
            kwargs["name"] = backend.unique_object_name(base)
        super().__init__(**kwargs)
        self._function_signature = _signature(function)
        self._varargs = next((p.name for p in self._function_signature.parameters.values()
                              if p.kind is p.VAR_POSITIONAL), None)

    def _call(self, inputs, args, kwargs):
        if not self.built:  # its first call: the shapes of its first argument's tensors
            # (and numbers', a config's constants: ``2 - x``), as tf_keras records them
            leaves = nest.flatten(inputs)
            if all(hasattr(x, "shape") or isinstance(x, numbers.Number) for x in leaves):
                self._build_input_shape = nest.map_structure(
                    lambda x: x.shape if hasattr(x, "shape") else TensorShape([]), inputs)
            self.built = True
        with context.name_scope_push(self.name), \
                watching_variables() as (created, tape):  # (for the checks below)
            if self._varargs in kwargs:  # from a config, which names them
                args = (*args, *kwargs.pop(self._varargs))
            result = self.function(inputs, *args, **kwargs)
        self._check_variables(created, tape.watched_variables())
        return result

    def _check_variables(self, created, used):
        # As Keras: a variable made at each call is refused, and one read that the layer
        # does not track (so no model's weight) is most likely a mistake, warned of once.
        if created:
            listed = "\n".join(f"  {v}" for v in created)
            raise ValueError(
                f"The following Variables were created within a Lambda layer ({self.name}) "
                f"but are not tracked by said layer: {listed}\nThe layer cannot safely ensure "
                "proper Variable reuse across multiple calls, and consequently this behavior "
                "is disallowed for safety reasons. Lambda layers are not well suited for "
                "stateful computation; instead, writing a subclassed Layer is the recommend "
                "way to define layers with Variables.")
        if used and not getattr(self, "_already_warned", False):
            listed = "\n".join(f"  {v}" for v in used)
            _logger.warning(
                f"The following Variables were used in a Lambda layer's call ({self.name}), "
                f"but are not present in its tracked objects: {listed}. This is a strong "
                "indication that the Lambda layer should be rewritten as a subclassed Layer.")
            self._already_warned = True

    def get_config(self):
        if _index().functions.get(self.symbol) is None:
            raise NotImplementedError(
                f"Layer {self.name!r} applies {self.symbol}, which is no public TF function, "
                f"so it has no config. Wrap the computation in a `Lambda` layer or a custom "
                f"layer to make the model serializable.")
        config = super().get_config()
        config["function"] = self.symbol
        return config

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        symbol = config.pop("function")
        function = _index().functions.get(symbol)
        if function is None:
            raise ValueError(f"Unknown TF function {symbol!r} in the config of layer "
                             f"{config.get('name')!r}.")
        return cls(function, **config)


class SlicingOpLambda(TFOpLambda):
    """``tensor[slice_spec]`` on Keras tensors; its node holds the slices as dicts
    (``{'start', 'stop', 'step'}``), so that tensors bounding them are among its inputs."""

    _serialized_module = TFOpLambda._serialized_module
    _serialized_registered_name = "SlicingOpLambda"


CLASSES = {"TFOpLambda": TFOpLambda, "SlicingOpLambda": SlicingOpLambda}


class TensorFlowOpLayer(Layer):
    """An op of a TF 1 graph on Keras tensors outside any layer (``h * 2`` after
    ``disable_eager_execution``), as TF 1's Keras wraps it when a model is built of its
    outputs: named ``tf_op_layer_`` and the op's name, its call adds the op again on its
    inputs' values, the op's other inputs taken as the values they had then (constants)."""

    def __init__(self, op, constants, name=None, **kwargs):
        super().__init__(name=name or f"tf_op_layer_{op.name}", **kwargs)
        self.op, self.constants = op, constants  # {input's index: its array}
        self.built = True

    def _call(self, inputs, args, kwargs):
        given = iter(nest.flatten(inputs))
        values = [constant(self.constants[i]) if i in self.constants else next(given)
                  for i in range(len(self.op.inputs))]
        with context.name_scope_push(self.name):
            outputs = dispatch(self.op.op_def, values, self.op.attrs)
        return list(outputs) if isinstance(outputs, tuple) else outputs


def wrap_graph_ops(outputs):
    """Gives the ops of a TF 1 graph between Keras tensors and `outputs` that no layer made
    their `TensorFlowOpLayer`s (each output its history), as TF 1's Keras does when a model
    is built of them."""
    def visit(tensor):
        if keras_tensor.is_keras_tensor(tensor) or not isinstance(tensor, SymbolicTensor) or \
                not graph_mode.is_v1(tensor.graph):
            return
        op = tensor.op
        if op.op_def is None or op.type in ("Placeholder", "Const"):
            return
        for x in op.inputs:
            visit(x)
        made = [x for x in op.inputs if keras_tensor.is_keras_tensor(x)]
        if not made:  # (not computed from the model's tensors)
            return
        others = [i for i, x in enumerate(op.inputs) if not keras_tensor.is_keras_tensor(x)]
        values = backend.batch_get_value([op.inputs[i] for i in others]) if others else []
        layer = TensorFlowOpLayer(op, dict(zip(others, values)))
        outs = list(op.outputs) if len(op.outputs) > 1 else op.outputs[0]
        keras_tensor.Node(layer, (made,), {}, outs)

    for tensor in nest.flatten(outputs):
        visit(tensor)


def _slice_dicts(spec):
    """`spec` with its slices as ``{'start', 'stop', 'step'}`` dicts."""
    if isinstance(spec, slice):
        return {"start": spec.start, "stop": spec.stop, "step": spec.step}
    if isinstance(spec, (list, tuple)):
        return type(spec)(_slice_dicts(s) for s in spec)
    return spec


def _slices(spec):
    """`spec` with the dicts of `_slice_dicts` (and a JSON config's Ellipsis) as slices."""
    if isinstance(spec, dict):
        if spec == {"class_name": "__ellipsis__"}:
            return Ellipsis
        return slice(spec["start"], spec["stop"], spec["step"])
    if isinstance(spec, (list, tuple)):
        return tuple(_slices(s) for s in spec)
    return spec


# -- the layers of calls on Keras tensors ------------------------------------------------
class _Index:
    """eagerflow's dispatched TF functions: the name of each one's layers (without ``tf.``),
    and the function of each such name and public path."""

    def __init__(self):
        self.names = {}
        self.functions = {}
        for function, _, _, _ in api_export.EXPORTS:
            if isinstance(function, types.FunctionType) and "_tf_api_names" in vars(function) \
                    and not function._tf_api_names[0].startswith(api_export.UNDISPATCHED):
                symbol = getattr(function, "_tf_dispatch_name", None) or \
                    api_export.canonical_name(function)
                self._add(function, symbol)
                for path in function._tf_api_names:
                    self.functions.setdefault(path, function)
        for symbol, function in _OPERATOR_FUNCTIONS.items():
            self._add(function, symbol)

    def _add(self, function, symbol):
        self.names[function] = symbol
        self.functions.setdefault(symbol, function)


_the_index = None


def _index():
    global _the_index
    if _the_index is None:
        _the_index = _Index()
    return _the_index


# TF's functions without dispatch support: tf_keras makes no layer of them, and they fail on
# Keras tensors (those that first build a TypeSpec of each argument say so).
_UNDISPATCHED = frozenset({
    "compat.v1.wrap_function", "constant", "custom_gradient", "debugging.is_numeric_tensor",
    "device", "dtypes.as_dtype", "executing_eagerly", "function", "get_static_value",
    "grad_pass_through", "gradients", "graph_util.import_graph_def", "init_scope", "is_tensor",
    "linalg.slogdet", "map_fn", "random.create_rng_state", "random.get_global_generator",
    "random.set_global_generator", "random.set_seed", "recompute_grad",
    "register_tensor_conversion_function", "signal.irfft", "signal.irfft2d", "signal.irfft3d",
    "signal.rfft", "signal.rfft2d", "signal.rfft3d", "switch_case", "vectorized_map",
    "while_loop"})
_BUILDS_TYPE_SPECS = frozenset({"map_fn", "while_loop"})

# TF's functions that are its ops' generated wrappers: these hand the dispatcher every
# argument by keyword, those left at their defaults too (``name``: None), so tf_keras's
# nodes record them all (``tf.nn.relu(x)`` records ``{'name': None}``).
_GENERATED = frozenset({
    "approx_top_k", "audio.decode_wav", "audio.encode_wav", "bitcast", "bitwise.bitwise_and",
    "bitwise.bitwise_or", "bitwise.bitwise_xor", "bitwise.invert", "bitwise.left_shift",
    "bitwise.right_shift", "broadcast_to", "compat.v1.arg_max", "compat.v1.arg_min",
    "compat.v1.floor_div", "compat.v1.image.resize_area", "debugging.check_numerics",
    "dynamic_partition", "dynamic_stitch", "extract_volume_patches", "fftnd", "identity_n",
    "ifftnd", "image.hsv_to_rgb", "image.rgb_to_hsv", "io.decode_and_crop_jpeg",
    "io.decode_base64", "io.decode_bmp", "io.decode_compressed", "io.decode_gif",
    "io.decode_jpeg", "io.decode_png", "io.decode_proto", "io.decode_webp",
    "io.encode_base64", "io.encode_jpeg", "io.encode_proto", "io.extract_jpeg_shape",
    "io.matching_files", "io.parse_tensor", "io.write_file", "irfftnd", "linalg.band_part",
    "linalg.cholesky", "linalg.cross", "linalg.det", "linalg.inv", "linalg.logm", "linalg.lu",
    "linalg.qr", "linalg.slogdet", "linalg.solve", "linalg.sqrtm", "linalg.tensor_diag",
    "math.acosh", "math.asin", "math.asinh", "math.atan", "math.atan2", "math.atanh",
    "math.betainc", "math.cos", "math.cosh", "math.digamma", "math.erf", "math.erfc",
    "math.expm1", "math.floormod", "math.greater", "math.greater_equal", "math.igamma",
    "math.igammac", "math.invert_permutation", "math.is_finite", "math.is_inf", "math.is_nan",
    "math.less", "math.less_equal", "math.lgamma", "math.log", "math.log1p",
    "math.logical_and", "math.logical_not", "math.logical_or", "math.maximum", "math.minimum",
    "math.negative", "math.nextafter", "math.polygamma", "math.reciprocal", "math.rint",
    "math.segment_max", "math.segment_mean", "math.segment_min", "math.segment_prod",
    "math.segment_sum", "math.sin", "math.sinh", "math.square", "math.squared_difference",
    "math.tan", "math.tanh", "math.unsorted_segment_max", "math.unsorted_segment_min",
    "math.unsorted_segment_prod", "math.unsorted_segment_sum", "math.xlogy", "math.zeta",
    "nn.elu", "nn.l2_loss", "nn.local_response_normalization", "nn.relu", "nn.selu",
    "nn.softsign", "no_op", "quantization.fake_quant_with_min_max_args",
    "quantization.fake_quant_with_min_max_args_gradient",
    "quantization.fake_quant_with_min_max_vars",
    "quantization.fake_quant_with_min_max_vars_gradient",
    "quantization.fake_quant_with_min_max_vars_per_channel",
    "quantization.fake_quant_with_min_max_vars_per_channel_gradient",
    "quantization.quantized_concat", "random_index_shuffle", "realdiv", "reverse", "rfftnd",
    "scatter_nd", "signal.fft", "signal.fft2d", "signal.fft3d", "signal.ifft",
    "signal.ifft2d", "signal.ifft3d", "space_to_batch_nd", "strings.as_string",
    "strings.lower", "strings.strip", "strings.to_hash_bucket_fast",
    "strings.to_hash_bucket_strong", "strings.unicode_script", "strings.unicode_transcode",
    "strings.upper", "tensor_scatter_nd_add", "tensor_scatter_nd_max",
    "tensor_scatter_nd_min", "tensor_scatter_nd_sub", "tile", "timestamp", "truncatediv",
    "truncatemod", "unravel_index"})


def _dispatch(function, arguments):
    """The dispatcher of calls on Keras tensors (see `api_export.dispatch_call`): the outputs
    of a `TFOpLambda` of `function` called on `arguments` ({parameter: value}); for a
    function TF does not dispatch, or a Keras tensor out of the arguments' reach, TF's
    TypeError (a plain one: the `SymbolicCall` being handled stays internal)."""
    tensors = [t for t in nest.flatten(list(arguments.values()))
               if keras_tensor.is_keras_tensor(t)]
    name = api_export.canonical_name(function)
    if tensors and name in _BUILDS_TYPE_SPECS:
        raise TypeError(f"Could not build a TypeSpec for {tensors[0]} of unsupported type "
                        f"{type(tensors[0])}.") from None
    if not tensors or name in _UNDISPATCHED:
        raise TypeError(*sys.exc_info()[1].args) from None
    args, kwargs = _arguments(_signature(function), arguments,
                              keep_defaults=_index().names.get(function) in _GENERATED)
    return TFOpLambda(function)(*args, **kwargs)


# Keras calls TF functions as tf_keras does, from outside TF; but an operator of a Keras tensor
# runs the Tensor operator, whose own function it dispatches (see `apply_operator`).
api_export.add_dispatcher(_dispatch, outside=(__name__.rpartition(".layers.")[0] + ".",),
                          inside=(keras_tensor.__name__,))


def apply_operator(name, x, other, ragged=False):
    """``x.<name>(*other)`` for a `KerasTensor` operator outside a layer's call (of a
    `RaggedKerasTensor` with `ragged`): the outputs of the layer of its TF function."""
    reflected = name.startswith("__r") and name[3:-2] in _OPERATORS
    base = name[3:-2] if reflected else name[2:-2]
    table = {**_OPERATORS, **_RAGGED_OPERATORS} if ragged else _OPERATORS
    function, args, kwargs = _operator_call(_index(), table, base, reflected, x, other)
    layer = (SlicingOpLambda if function in (_getitem, _ragged_getitem) else TFOpLambda)(
        function)
    return layer(*args, **kwargs)


class InstanceProperty(Layer):
    """``x.<attr_name>`` of a ragged Keras tensor, as a layer (``x.flat_values`` makes
    ``input.flat_values``)."""

    _preserve_input_structure = True

    def __init__(self, attr_name, **kwargs):
        self.attr_name = attr_name
        if kwargs.get("name") is None:
            kwargs["name"] = backend.unique_object_name(f"input.{attr_name}")
        kwargs["autocast"] = False
        super().__init__(**kwargs)
        self.built = True

    def call(self, obj):
        return getattr(obj, self.attr_name)

    def get_config(self):
        return {**super().get_config(), "attr_name": self.attr_name}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class InstanceMethod(InstanceProperty):
    """``x.<attr_name>(*args, **kwargs)`` of a ragged Keras tensor, as a layer called on
    ``(x, args, kwargs)``."""

    def call(self, obj, args, kwargs):
        return getattr(obj, self.attr_name)(*args, **kwargs)


class ClassMethod(Layer):
    """A factory class method of `tf.RaggedTensor` called on Keras tensors, as a layer
    (``tf.RaggedTensor.from_row_lengths``) called on ``(args, kwargs)``."""

    _preserve_input_structure = True

    def __init__(self, cls_ref, method_name, **kwargs):
        self.cls_ref, self.method_name = cls_ref, method_name
        self.cls_symbol = api_export.canonical_name(cls_ref)
        if kwargs.get("name") is None:
            kwargs["name"] = backend.unique_object_name(f"tf.{self.cls_symbol}.{method_name}")
        kwargs["autocast"] = False
        super().__init__(**kwargs)
        self.built = True

    def call(self, args, kwargs):
        return getattr(self.cls_ref, self.method_name)(*args, **kwargs)

    def get_config(self):
        return {**super().get_config(), "cls_symbol": self.cls_symbol,
                "method_name": self.method_name}

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        symbol = config.pop("cls_symbol")
        if symbol != "RaggedTensor":
            raise ValueError(f"TensorFlow symbol `{symbol}` could not be found.")
        return cls(RaggedTensor, **config)


def _factory_hook(cls, name, args, kwargs):
    """A `tf.RaggedTensor` factory given Keras tensors outside a layer's call: the outputs of
    its `ClassMethod` layer."""
    if backend.scratch_graph is None or keras_tensor.building_symbolically() or not any(
            keras_tensor.is_keras_tensor(x) for x in nest.flatten((args, kwargs))):
        return NotImplemented
    return ClassMethod(cls, name)(args, kwargs)


FACTORY_HOOKS.append(_factory_hook)
CLASSES.update(InstanceProperty=InstanceProperty, InstanceMethod=InstanceMethod,
               ClassMethod=ClassMethod)


def _signature(function):
    try:
        return inspect.signature(function)
    except (TypeError, ValueError):  # a builtin: no parameters to name
        return inspect.Signature()


def _operator_call(index, table, base, reflected, x, other):
    """TF's function, arguments and keywords for operator `base` (of `table`) of `x` with
    operands `other` (empty for a unary one)."""
    symbol, keyword = table[base]
    if isinstance(symbol, tuple):
        symbol = symbol[0] if x.dtype.is_bool else symbol[1]
    function = index.functions[symbol]
    kwargs = {}
    if keyword is not None:
        y = other[0]
        if reflected:  # ``2 - x`` is ``subtract(2.0, x)``, as TF converts the 2
            x, y = operand(y, x), x
        kwargs[keyword] = _slice_dicts(y) if base == "getitem" else y
    if "name" in _signature(function).parameters:
        kwargs["name"] = None
    return function, (x,), kwargs


def _arguments(signature, local, keep_defaults=False):
    """The arguments of a call from its parameters' values (`local`): the first parameter (and
    any ``*args``) positionally, the others by keyword unless still at their defaults (unless
    `keep_defaults`)."""
    args, kwargs = [], {}
    for i, param in enumerate(signature.parameters.values()):
        value = local.get(param.name, param.default)
        if param.kind is param.VAR_POSITIONAL:
            args.extend(value)
        elif param.kind is param.VAR_KEYWORD:
            kwargs.update(value)
        elif i == 0:
            args.append(value)
        elif value is not param.empty and (keep_defaults or
                                           not _is_default(value, param.default)):
            kwargs[param.name] = value
    return tuple(args), kwargs


def _is_default(value, default):
    if value is default:
        return True
    # Compares plain Python values only: `==` on a tensor would make an op.
    return type(value) is type(default) and isinstance(value, (bool, int, float, str)) and \
        value == default

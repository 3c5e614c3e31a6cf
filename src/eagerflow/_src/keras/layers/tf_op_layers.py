"""`TFOpLambda`: calls of TensorFlow functions on Keras tensors, as layers.

In a functional model, each call of a TF function or operator on
`KerasTensor`s (``x / 255.0``, ``tf.nn.relu(x)``, ``tf.concat([a, b], -1)``,
``x[:, 0]``) becomes one layer, named after the function's canonical TF name
(``tf.math.truediv``, ``tf.nn.relu``, ``tf.concat``,
``tf.__operators__.getitem``), whose node holds the call's arguments; so
`Model.layers`, `summary`, `get_config` and `clone_model` see it as Keras does.

How calls are found. eagerflow's functions carry no Keras hook, so that the
eager path pays nothing. An op on a Keras tensor reaches the Keras graph,
which lifts it (see `dispatch`); only there `lift` walks the Python stack
from the op up to the user's code and takes the outermost frame running a
public function as the call. Public functions are known by their code
objects, in an index of the ``@export`` declarations built on first use
(functions sharing code are told apart by their closures); `KerasTensor`'s
operators run in frames of their own for the same purpose. Every op lifted
while that frame runs belongs to the call's layer. The node's arguments are
the frame's parameters when its first op is lifted (those still at their
defaults left out), so a function that normalizes an argument before its
first op records the normalized form; its outputs are what the frame
returns, seen by a profile hook set while such a call runs (when another
profiler is active: the outputs of the call's last op).

Running the layer replays the ops its call made, exactly; a layer made from
a config calls its function with the config's arguments.

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
import os
import sys
import types

from eagerflow._src.backend import api_export
from eagerflow._src.core import context, nest
from eagerflow._src.core.convert import operand
from eagerflow._src.core.tensor import Tensor
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.keras import backend
from eagerflow._src.keras.engine import keras_tensor
from eagerflow._src.keras.engine.base_layer import Layer

# Namespaces whose functions TF does not dispatch: the TF functions they call on Keras tensors
# are the layers (``tf.nest.map_structure(tf.nn.relu, xs)`` makes a ``tf.nn.relu`` per tensor).
_UNDISPATCHED = ("nest.", "config.", "autograph.", "test.")


def _add(x, y, name=None):
    return x + y


def _eq(self, other):
    return self == other


def _ne(self, other):
    return self != other


def _getitem(tensor, slice_spec):
    return tensor[_slices(slice_spec)]


# TF's functions behind operators that have no public path in eagerflow.
_OPERATOR_FUNCTIONS = {"__operators__.add": _add, "__operators__.eq": _eq,
                       "__operators__.ne": _ne, "__operators__.getitem": _getitem}

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
_PACKAGE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))) + os.sep


class TFOpLambda(Layer):
    """A TF function applied to Keras tensors: ``TFOpLambda(tf.nn.relu)(x)``.

    Named ``tf.`` and the function's canonical TF name; no weights. Its call
    is the function's: inputs are not cast, and take no ``training``.
    """

    _preserve_input_structure = True  # its config keeps the first argument's structure

    def __init__(self, function, **kwargs):
        self.function = function
        self.symbol = _index().names.get(function) or function.__name__
        if kwargs.get("name") is None:
            base = f"tf.{self.symbol}"
            uid = backend.get_uid(base)
            kwargs["name"] = base if uid == 1 else f"{base}_{uid - 1}"
        super().__init__(**kwargs)
        self.built = True
        self._ops = []  # when made by a call on Keras tensors: the ops it made, in order
        self._function_signature = _signature(function)
        self._varargs = next((p.name for p in self._function_signature.parameters.values()
                              if p.kind is p.VAR_POSITIONAL), None)

    def _call(self, inputs, args, kwargs):
        with context.name_scope_push(self.name):
            if self._ops:  # made by a call on Keras tensors: do what that call did
                flat = nest.flatten((inputs, args, kwargs))
                if len(flat) == len(self._recorded_arguments()):
                    return self._replay(flat)
            if self._varargs in kwargs:  # from a config, which names them
                args = (*args, *kwargs.pop(self._varargs))
            return self.function(inputs, *args, **kwargs)

    def _recorded_arguments(self):
        node = self._inbound_nodes[0]
        return nest.flatten((node.args, node.kwargs))

    def _replay(self, flat):
        """Runs the ops of the call that made this layer on new arguments (`flat`, in the call's
        structure): exactly what the function did, whatever it made of its arguments."""
        values = {id(ref): value for ref, value in zip(self._recorded_arguments(), flat)}
        for op in self._ops:
            out = dispatch(op.op_def, [values[id(t)] if id(t) in values else
                                       keras_tensor.constant_value(t) for t in op.inputs],
                           op.attrs)
            for tensor, value in zip(op.outputs, out if op.op_def.multi else (out,)):
                values[id(tensor)] = value
        return nest.map_structure(lambda t: values[id(t)], self._inbound_nodes[0].outputs)

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


CLASSES = {"TFOpLambda": TFOpLambda, "SlicingOpLambda": SlicingOpLambda}


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


# -- finding the call of a lifted op ------------------------------------------------------
class _Index:
    """eagerflow's public TF functions: by code object, by canonical TF name and back."""

    def __init__(self):
        self.by_code = {}    # id(code) -> [functions running that code]
        self.names = {}      # function -> the name of its layers (without ``tf.``)
        self.functions = {}  # those names and every public path -> function
        for function, _, _, _ in api_export.EXPORTS:
            if isinstance(function, types.FunctionType) and "_tf_api_names" in vars(function) \
                    and not function._tf_api_names[0].startswith(_UNDISPATCHED):
                symbol = getattr(function, "_tf_dispatch_name", None) or \
                    api_export.canonical_name(function)
                self._add(function, symbol)
                for path in function._tf_api_names:
                    self.functions.setdefault(path, function)
        for symbol, function in _OPERATOR_FUNCTIONS.items():
            self._add(function, symbol)
        self.operators = {}  # KerasTensor's operators -> (base name, reflected)
        for name, function in vars(keras_tensor.KerasTensor).items():
            reflected = name.startswith("__r") and name[3:-2] in _OPERATORS
            base = name[3:-2] if reflected else name[2:-2]
            if name in Tensor.OVERLOADABLE_OPERATORS and base in _OPERATORS:
                self.by_code.setdefault(id(function.__code__), []).append(function)
                self.operators[function] = base, reflected

    def _add(self, function, symbol):
        self.names[function] = symbol
        self.functions.setdefault(symbol, function)
        self.by_code.setdefault(id(function.__code__), []).append(function)

    def function_of(self, frame):
        """The indexed function `frame` runs, or None."""
        candidates = self.by_code.get(id(frame.f_code))
        if candidates is None or len(candidates) == 1:
            return candidates and candidates[0]
        local = frame.f_locals
        for function in candidates:  # one code, several closures: compare the cells
            if all(local.get(name, cell) is _contents(cell) for name, cell in
                   zip(frame.f_code.co_freevars, function.__closure__ or ())):
                return function
        return None


def _contents(cell):
    try:
        return cell.cell_contents
    except ValueError:  # an empty cell matches nothing
        return cell


_the_index = None


def _index():
    global _the_index
    if _the_index is None:
        _the_index = _Index()
    return _the_index


def _signature(function):
    try:
        return inspect.signature(function)
    except (TypeError, ValueError):  # a builtin: no parameters to name
        return inspect.Signature()


class _Call:
    """One call of a TF function on Keras tensors: its layer, its node and its ops."""

    def __init__(self, frame, layer, args, kwargs):
        self.frame, self.layer, self.args, self.kwargs = frame, layer, args, kwargs
        self.node = None
        self.op_ids = set()

    def made(self, outputs):
        """Adds the op of `outputs` (a tensor or tuple) to the call; they are its outputs so far."""
        flat = list(outputs) if isinstance(outputs, tuple) else [outputs]
        if not flat:  # an op of no outputs (an assertion)
            return
        self.layer._ops.append(flat[0].op)
        self.op_ids.add(id(flat[0].op))
        if self.node is None:
            self.node = keras_tensor.Node(self.layer, self.args, self.kwargs, outputs)
        else:
            self.node.set_outputs(outputs)

    def returned(self, value):
        """Makes the call's outputs the Keras tensors it returned (`value`) that it made."""
        if self.node is None:
            return
        leaves = nest.flatten(value)
        own = [t for t in leaves
               if isinstance(t, keras_tensor.KerasTensor) and id(t.op) in self.op_ids]
        if not own:  # it returned nothing of its own (an assertion, an input...)
            self.node.discard()
        elif len(own) == len(leaves):
            self.node.set_outputs(value)
        else:
            self.node.set_outputs(own[0] if len(own) == 1 else own)


def lift(graph, create, op_def, inputs, attrs, name):
    """Adds to `graph` the op that a TF function applied to Keras tensors (`create` makes it);
    the function's call gains it, becoming a layer with its first op."""
    calls = graph.op_calls
    index = _index()
    frame, function = _api_frame(index)
    call = calls.get(frame) if frame is not None else None
    if call is None:
        call = _start(graph, index, frame, function, op_def, inputs, attrs)
    with context.name_scope_push(call.layer.name + "/"):
        outputs = create(op_def, inputs, attrs, name)
    call.made(outputs)
    return outputs


def _api_frame(index):
    """The outermost frame running a public function between the op and the user's code,
    with that function; (None, None) when none does."""
    found = None, None
    frame = sys._getframe(2)
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        function = index.function_of(frame)
        if function:
            found = frame, function
        frame = frame.f_back
    return found


def _start(graph, index, frame, function, op_def, inputs, attrs):
    """The call running in `frame`, from its first op; finished when the frame returns."""
    if function is None:  # an internal helper's op: a layer of its own
        return _Call(None, TFOpLambda(_RawOp(op_def, attrs)), tuple(inputs), {})
    if function in index.operators:
        function, args, kwargs = _operator_call(index, *index.operators[function],
                                                frame.f_locals)
    else:
        args, kwargs = _arguments(_signature(function), frame.f_locals)
    layer = (SlicingOpLambda if function is _getitem else TFOpLambda)(function)
    call = _Call(frame, layer, args, kwargs)
    _watch(graph.op_calls, call)
    return call


def _operator_call(index, base, reflected, local):
    """TF's function, arguments and keywords for an operator run with locals `local`."""
    x = local["self"]
    symbol, keyword = _OPERATORS[base]
    if isinstance(symbol, tuple):
        symbol = symbol[0] if x.dtype.is_bool else symbol[1]
    function = index.functions[symbol]
    kwargs = {}
    if keyword is not None:
        y = local["other"][0]
        if reflected:  # ``2 - x`` is ``subtract(2.0, x)``, as TF converts the 2
            x, y = operand(y, x), x
        kwargs[keyword] = _slice_dicts(y) if base == "getitem" else y
    if "name" in _signature(function).parameters:
        kwargs["name"] = None
    return function, (x,), kwargs


def _arguments(signature, local):
    """The arguments of a call from its frame's locals: the first parameter (and any
    ``*args``) positionally, the others by keyword unless still at their defaults."""
    args, kwargs = [], {}
    for i, param in enumerate(signature.parameters.values()):
        value = local.get(param.name, param.default)
        if param.kind is param.VAR_POSITIONAL:
            args.extend(value)
        elif param.kind is param.VAR_KEYWORD:
            kwargs.update(value)
        elif i == 0:
            args.append(value)
        elif value is not param.empty and not _is_default(value, param.default):
            kwargs[param.name] = value
    return tuple(args), kwargs


def _is_default(value, default):
    if value is default:
        return True
    # Compares plain Python values only: `==` on a tensor would make an op.
    return type(value) is type(default) and isinstance(value, (bool, int, float, str)) and \
        value == default


def _watch(calls, call):
    """Registers `call` in `calls` (frame -> call), to be finished by a profile hook when its
    frame returns; with another profiler active, its outputs stay those of its last op."""
    hook = sys.getprofile()
    if getattr(hook, "calls", None) is not calls:
        calls.clear()  # calls that no hook watches end where the next one starts
        if hook is not None:
            calls[call.frame] = call
            return
        sys.setprofile(_returns(calls))
    calls[call.frame] = call


def _returns(calls):
    def hook(frame, event, value):
        if event == "return" and frame in calls:
            calls.pop(frame).returned(value)
            if not calls:
                sys.setprofile(None)
    hook.calls = calls
    return hook


class _RawOp:
    """Runs one registered op (an op on Keras tensors that no public function made)."""

    def __init__(self, op_def, attrs):
        self.op_def, self.attrs = op_def, attrs
        self.__name__ = f"raw_ops.{op_def.name}"

    def __call__(self, *inputs):
        return dispatch(self.op_def, inputs, self.attrs)


"""Type-based dispatch of public APIs (TF's ``tf.experimental.dispatch_for_api``).

A handler registered for an API, with a signature (parameter name -> type annotation), runs
in its place when a call's arguments match the signature and one of them is of a type the
signature names other than a tensor (an `ExtensionType`, a `RaggedTensor`): calls with plain
tensors and Python values never dispatch. The API is replaced, in the public namespaces that
hold it, by a wrapper that checks its calls against the handlers registered for it.
"""
import functools
import inspect
import sys
import typing

from eagerflow._src.backend.api_export import export
from eagerflow._src.core.tensor import Tensor

_WRAPPERS = {}  # id(api or its wrapper) -> _Dispatching
_ELEMENTWISE = {}  # (type,) or (x type, y type) -> handler, for the error of a second one


def _resolve(name):
    obj = sys.modules[__name__.partition("._src")[0]]
    for part in name.split("."):
        obj = getattr(obj, part, None)
    return obj


# TF's unary and binary elementwise APIs (those of its list that eagerflow has).
_UNARY = tuple(f"math.{n}" for n in (
    "abs", "acos", "acosh", "angle", "asin", "asinh", "atan", "atanh", "bessel_i0",
    "bessel_i0e", "bessel_i1", "bessel_i1e", "ceil", "conj", "cos", "cosh", "digamma", "erf",
    "erfc", "erfcinv", "erfinv", "exp", "expm1", "floor", "imag", "invert_permutation",
    "is_finite", "is_inf", "is_nan", "lgamma", "log", "log1p", "log_sigmoid", "logical_not",
    "ndtri", "negative", "real", "reciprocal", "reciprocal_no_nan", "rint", "round", "rsqrt",
    "sigmoid", "sign", "sin", "sinh", "softplus", "sqrt", "square", "tan", "tanh")) + (
    "nn.elu", "nn.gelu", "nn.leaky_relu", "nn.relu", "nn.relu6", "nn.selu", "nn.silu",
    "nn.softsign", "bitwise.invert", "cast", "dtypes.saturate_cast", "ones_like", "zeros_like",
    "identity", "strings.length", "strings.lower", "strings.upper", "strings.strip",
    "strings.as_string", "strings.to_number", "strings.substr", "strings.regex_full_match",
    "strings.regex_replace", "strings.to_hash_bucket_fast", "strings.unicode_script",
    "io.decode_base64", "io.encode_base64", "debugging.check_numerics", "clip_by_value")
_BINARY = tuple(f"math.{n}" for n in (
    "add", "atan2", "divide", "divide_no_nan", "equal", "floordiv", "floormod", "greater",
    "greater_equal", "less", "less_equal", "logical_and", "logical_or", "logical_xor",
    "maximum", "minimum", "multiply", "multiply_no_nan", "not_equal", "pow", "realdiv",
    "squared_difference", "subtract", "truediv", "truncatediv", "truncatemod", "xdivy",
    "xlog1py", "xlogy", "zeta", "polygamma", "igamma", "igammac")) + (
    "bitwise.bitwise_and", "bitwise.bitwise_or", "bitwise.bitwise_xor", "bitwise.left_shift",
    "bitwise.right_shift")


def _matches(value, annotation):
    """Whether `value` is of the type `annotation` (a class, or typing's Union, Optional,
    List, Tuple, Sequence, Mapping or Any of those)."""
    if annotation is typing.Any:
        return True
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is typing.Union:
        return any(_matches(value, a) for a in args)
    if origin in (list, tuple) or origin is not None and origin.__name__ in ("Sequence",):
        kinds = (list, tuple) if origin is not tuple else tuple
        if not isinstance(value, kinds):
            return False
        if origin is tuple and args and args[-1] is not Ellipsis:
            return len(value) == len(args) and all(map(_matches, value, args))
        return not args or all(_matches(v, args[0]) for v in value)
    if origin is not None and origin.__name__ == "Mapping" or origin is dict:
        return isinstance(value, dict) and (not args or all(
            _matches(k, args[0]) and _matches(v, args[1]) for k, v in value.items()))
    if annotation is None or annotation is type(None):
        return value is None
    return isinstance(value, annotation)


def _named_types(annotation):
    """The classes `annotation` names, at any depth."""
    args = typing.get_args(annotation)
    if args:
        return [t for a in args for t in _named_types(a)]
    return [annotation] if isinstance(annotation, type) else []


class _Dispatching:
    """The replacement of one API: its calls checked against the handlers for it."""

    def __init__(self, api):
        self.api = api
        self.signature = inspect.signature(api)
        self.targets = []  # (signature {parameter: annotation}, handler)
        self.dispatchable = ()  # the non-tensor types the signatures name

        @functools.wraps(api)
        def wrapper(*args, **kwargs):
            handler = self.handler(args, kwargs) if self.targets else None
            if handler is None:
                return api(*args, **kwargs)
            return handler(*args, **kwargs)
        wrapper._tf_dispatch = self
        self.wrapper = wrapper
        _WRAPPERS[id(api)] = _WRAPPERS[id(wrapper)] = self

    def handler(self, args, kwargs):
        values = list(args) + list(kwargs.values())
        if not any(isinstance(v, self.dispatchable) or isinstance(v, (list, tuple)) and any(
                isinstance(e, self.dispatchable) for e in v) for v in values):
            return None
        try:
            bound = self.signature.bind(*args, **kwargs)
        except TypeError:
            return None
        bound.apply_defaults()
        for checks, handler in self.targets:
            if all(_matches(bound.arguments.get(p), a) for p, a in checks.items()):
                return handler
        return None

    def add(self, checks, handler):
        unknown = [p for p in checks if p not in self.signature.parameters]
        if unknown:
            raise ValueError(f"Dispatch function's signature {checks} contains parameters "
                             f"{unknown} that are not in the API's signature "
                             f"{self.signature}.")
        self.targets.append((checks, handler))
        self.dispatchable = tuple({t for c, _ in self.targets for a in c.values()
                                   for t in _named_types(a) if not issubclass(t, Tensor)})

    def install(self):
        """Binds the wrapper wherever a public namespace holds the API."""
        _rebind(self.api, self.wrapper)

    def uninstall(self):
        """Binds the API back (no handler is left for it)."""
        _rebind(self.wrapper, self.api)
        del _WRAPPERS[id(self.api)], _WRAPPERS[id(self.wrapper)]


def _rebind(old, new):
    """Binds `new` wherever a public namespace holds `old`."""
    root = __name__.partition("._src")[0]
    for name, module in list(sys.modules.items()):
        if module is None or not (name == root or name.startswith(root + ".")) \
                or "._src" in name:
            continue
        namespace = getattr(module, "__dict__", {})
        for key, value in list(namespace.items()):
            if value is old:
                namespace[key] = new


def _dispatching(api):
    found = _WRAPPERS.get(id(api))
    if found is None:
        if not callable(api):
            raise ValueError(f"{api} does not support dispatch.")
        found = _Dispatching(api)
        found.install()
    return found


@export("experimental.dispatch_for_api")
def dispatch_for_api(api, *signatures):
    """Decorator: the decorated function runs in place of `api` when a call's arguments
    match one of `signatures` (parameter name -> type; by default the decorated function's
    annotations).

    >>> class Box(tf.experimental.ExtensionType):
    ...     value: tf.Tensor
    >>> @tf.experimental.dispatch_for_api(tf.math.reduce_sum)
    ... def box_sum(input_tensor: Box, axis=None, keepdims=False, name=None):
    ...     return tf.math.reduce_sum(input_tensor.value)
    >>> int(tf.math.reduce_sum(Box([1, 2, 3])))
    6
    >>> tf.experimental.unregister_dispatch_for(box_sum)
    """
    target = _dispatching(api)

    def decorator(handler):
        given = signatures
        if not given:
            annotations = {p.name: p.annotation for p in inspect.signature(
                handler).parameters.values() if p.annotation is not p.empty}
            if not annotations:
                raise ValueError("must call dispatch_for_api with at least one signature, or "
                                 "the dispatch target must have type annotations.")
            given = (annotations,)
        for checks in given:
            target.add(dict(checks), handler)
        handler._tf_dispatch_api = target
        return handler
    return decorator


def _elementwise(names, types, kind, make):
    if types in _ELEMENTWISE:
        raise ValueError(f"A {kind} elementwise dispatch handler ({_ELEMENTWISE[types]}) has "
                         f"already been registered for {types}.")

    def decorator(handler):
        _ELEMENTWISE[types] = handler
        for name in names:
            api = _resolve(name)
            if api is None:
                continue
            target = _dispatching(api)
            params = list(target.signature.parameters)
            target.add(dict(zip(params, types)), make(target, params, handler))
        return handler
    return decorator


def _bound_api(target, args, kwargs, count):
    """The API as a function of its first `count` arguments (the others of the call, but
    the name, bound), and those arguments."""
    bound = target.signature.bind(*args, **kwargs)
    params = list(target.signature.parameters)
    firsts = [bound.arguments[p] for p in params[:count]]
    rest = {p: v for p, v in bound.arguments.items() if p not in params[:count]
            and p != "name"}
    api = target.api
    return (lambda *xs: api(*xs, **rest)) if rest else api, firsts


@export("experimental.dispatch_for_unary_elementwise_apis")
def dispatch_for_unary_elementwise_apis(x_type):
    """Decorator: ``handler(api_func, x)`` runs in place of each unary elementwise API
    (``tf.math.abs``, ``tf.ones_like``, ...) called with an `x` of type `x_type`; `api_func`
    is the API on plain tensors."""
    def make(target, params, handler):
        def dispatch_target(*args, **kwargs):
            api, (x,) = _bound_api(target, args, kwargs, 1)
            return handler(api, x)
        dispatch_target._tf_handler = handler
        return dispatch_target
    return _elementwise(_UNARY, (x_type,), "unary", make)


@export("experimental.dispatch_for_binary_elementwise_apis")
def dispatch_for_binary_elementwise_apis(x_type, y_type):
    """Decorator: ``handler(api_func, x, y)`` runs in place of each binary elementwise API
    (``tf.math.add``, ``tf.math.maximum``, ...) called with `x` of type `x_type` and `y` of
    type `y_type`."""
    def make(target, params, handler):
        def dispatch_target(*args, **kwargs):
            api, (x, y) = _bound_api(target, args, kwargs, 2)
            return handler(api, x, y)
        dispatch_target._tf_handler = handler
        return dispatch_target
    return _elementwise(_BINARY, (x_type, y_type), "binary", make)


@export("experimental.unregister_dispatch_for")
def unregister_dispatch_for(dispatch_target):
    """Removes `dispatch_target` (a function a ``dispatch_for_*`` decorator registered) from
    the APIs it handles; an API left without handlers is bound back as it was."""
    found = False
    for target in {id(t): t for t in _WRAPPERS.values()}.values():
        kept = [(c, h) for c, h in target.targets
                if h is not dispatch_target and getattr(h, "_tf_handler", None)
                is not dispatch_target]
        found = found or len(kept) != len(target.targets)
        target.targets = kept
        if not kept:
            target.uninstall()
    for types, handler in list(_ELEMENTWISE.items()):
        if handler is dispatch_target:
            del _ELEMENTWISE[types]
    if not found:
        raise ValueError(f"Function {dispatch_target} was not registered using a "
                         f"`@dispatch_for_*` decorator.")

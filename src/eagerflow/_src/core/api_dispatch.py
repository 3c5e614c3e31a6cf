"""User-registered versions of TF's functions for their own types
(``tf.experimental.dispatch_for_api`` and the elementwise forms).

A target is registered for a public function with one or more signatures
(``{parameter: type}``, or the target's own annotations): a call whose arguments
match one runs the target instead. Types are classes, ``Union[...]``,
``Optional[...]`` and ``List[...]`` (a list or tuple of matching values).

Only `ExtensionType` values (and eagerflow's own LinearOperators, see
`dispatch_for_types`) are dispatched on, as in TF. They cannot be
converted to tensors, so a call meets them where it converts its arguments:
the conversion raises `api_export.TypeDispatch` for the registered types, and
the public function's dispatch support hands the call to `_dispatch` (see
`api_export`). Calls on tensors never reach this module.

>>> __name__ = "__main__"  # (a user's program: eagerflow's own calls are not dispatched)
>>> class Box(tf.experimental.ExtensionType):
...     value: tf.Tensor
>>> @tf.experimental.dispatch_for_api(tf.math.abs)
... def box_abs(x: Box, name=None):
...     return Box(tf.math.abs(x.value))
>>> tf.math.abs(Box(-2.0)).value
<tf.Tensor: shape=(), dtype=float32, numpy=2.0>
>>> tf.experimental.unregister_dispatch_for(box_abs)
"""
import inspect
import sys
import typing

from eagerflow._src.backend import api_export
from eagerflow._src.backend.api_export import export

# TF's elementwise APIs, by canonical name (those eagerflow has are registered).
_UNARY = (
    "bitwise.invert", "cast", "clip_by_value", "debugging.check_numerics",
    "dtypes.saturate_cast", "image.adjust_brightness", "image.adjust_gamma",
    "image.convert_image_dtype", "image.random_brightness", "image.stateless_random_brightness",
    "io.decode_base64", "io.decode_compressed", "io.encode_base64", "math.abs", "math.acos",
    "math.acosh", "math.angle", "math.asin", "math.asinh", "math.atan", "math.atanh",
    "math.bessel_i0", "math.bessel_i0e", "math.bessel_i1", "math.bessel_i1e", "math.ceil",
    "math.conj", "math.cos", "math.cosh", "math.digamma", "math.erf", "math.erfc",
    "math.erfcinv", "math.erfinv", "math.exp", "math.expm1", "math.floor", "math.imag",
    "math.is_finite", "math.is_inf", "math.is_nan", "math.lgamma", "math.log", "math.log1p",
    "math.log_sigmoid", "math.logical_not", "math.ndtri", "math.negative", "math.nextafter",
    "math.real", "math.reciprocal", "math.reciprocal_no_nan", "math.rint", "math.round",
    "math.rsqrt", "math.sigmoid", "math.sign", "math.sin", "math.sinh", "math.softplus",
    "math.special.bessel_j0", "math.special.bessel_j1", "math.special.bessel_k0",
    "math.special.bessel_k0e", "math.special.bessel_k1", "math.special.bessel_k1e",
    "math.special.bessel_y0", "math.special.bessel_y1", "math.special.dawsn",
    "math.special.expint", "math.special.fresnel_cos", "math.special.fresnel_sin",
    "math.special.spence", "math.sqrt", "math.square", "math.tan", "math.tanh", "nn.elu",
    "nn.gelu", "nn.leaky_relu", "nn.log_softmax", "nn.relu", "nn.relu6", "nn.selu", "nn.silu",
    "nn.softsign", "ones_like", "strings.as_string", "strings.length", "strings.lower",
    "strings.regex_full_match", "strings.regex_replace", "strings.strip", "strings.substr",
    "strings.to_hash_bucket", "strings.to_hash_bucket_fast", "strings.to_hash_bucket_strong",
    "strings.to_number", "strings.unicode_script", "strings.unicode_transcode",
    "strings.upper", "zeros_like")
_BINARY = (
    "bitwise.bitwise_and", "bitwise.bitwise_or", "bitwise.bitwise_xor", "bitwise.left_shift",
    "bitwise.right_shift", "dtypes.complex", "math.add", "math.atan2", "math.divide",
    "math.divide_no_nan", "math.equal", "math.floordiv", "math.floormod", "math.greater",
    "math.greater_equal", "math.less", "math.less_equal", "math.logical_and",
    "math.logical_or", "math.logical_xor", "math.maximum", "math.minimum", "math.multiply",
    "math.multiply_no_nan", "math.not_equal", "math.pow", "math.scalar_mul",
    "math.squared_difference", "math.subtract", "math.truediv", "math.xdivy", "math.xlog1py",
    "math.xlogy", "math.zeta", "nn.sigmoid_cross_entropy_with_logits", "realdiv",
    "truncatediv", "truncatemod")
_ASSERT = tuple(f"debugging.assert_{kind}" for kind in (
    "equal", "greater", "greater_equal", "less", "less_equal", "near", "none_equal"))

# TF's functions without dispatch support (dispatch_for_api refuses them): these namespaces,
# but for the sparse functions named after them, and these functions.
_UNDISPATCHED_NAMESPACES = ("experimental.", "summary.", "profiler.", "distribute.",
                            "sysconfig.", "sparse.")
_DISPATCHED_THERE = ("sparse.bincount", "sparse.reshape")
_UNDISPATCHED = frozenset((
    "compat.as_bytes", "compat.as_str_any", "compat.as_text", "compat.dimension_at_index",
    "compat.dimension_value", "compat.forward_compatibility_horizon",
    "compat.forward_compatible", "compat.path_to_str", "compat.v1.add_to_collection",
    "compat.v1.add_to_collections", "compat.v1.arg_max", "compat.v1.arg_min",
    "compat.v1.control_dependencies", "compat.v1.control_flow_v2_enabled",
    "compat.v1.disable_eager_execution", "compat.v1.disable_v2_behavior",
    "compat.v1.disable_v2_tensorshape", "compat.v1.enable_eager_execution",
    "compat.v1.enable_v2_behavior", "compat.v1.enable_v2_tensorshape",
    "compat.v1.executing_eagerly", "compat.v1.executing_eagerly_outside_functions",
    "compat.v1.get_collection", "compat.v1.get_collection_ref",
    "compat.v1.get_default_graph", "compat.v1.io.tf_record_iterator",
    "compat.v1.placeholder", "compat.v1.placeholder_with_default",
    "compat.v1.reset_default_graph", "compat.v1.resource_variables_enabled",
    "compat.v1.sparse_placeholder", "compat.v1.train.summary_iterator",
    "compat.v1.while_loop", "compat.v1.wrap_function", "constant", "control_dependencies",
    "custom_gradient", "debugging.disable_check_numerics",
    "debugging.disable_traceback_filtering", "debugging.enable_check_numerics",
    "debugging.enable_traceback_filtering",
    "debugging.experimental.disable_dump_debug_info",
    "debugging.experimental.enable_dump_debug_info", "debugging.get_log_device_placement",
    "debugging.is_numeric_tensor", "debugging.is_traceback_filtering_enabled",
    "debugging.set_log_device_placement", "device", "dtypes.as_dtype", "einsum",
    "executing_eagerly", "function", "get_current_name_scope", "get_logger",
    "get_static_value", "grad_pass_through", "gradients", "group", "hessians",
    "import_graph_def", "init_scope", "inside_function", "io.decode_json_example",
    "io.gfile.copy", "io.gfile.exists", "io.gfile.glob", "io.gfile.isdir", "io.gfile.join",
    "io.gfile.listdir", "io.gfile.makedirs", "io.gfile.mkdir", "io.gfile.remove",
    "io.gfile.rename", "io.gfile.rmtree", "io.gfile.stat", "io.gfile.walk", "io.is_jpeg",
    "io.read_file", "io.serialize_tensor", "io.write_graph", "is_symbolic_tensor",
    "is_tensor", "linalg.banded_triangular_solve", "linalg.logm", "linalg.slogdet",
    "make_ndarray", "make_tensor_proto", "map_fn", "meshgrid", "no_gradient", "print",
    "ragged.map_flat_values", "random.create_rng_state", "random.get_global_generator",
    "random.set_global_generator", "random.set_seed", "recompute_grad",
    "register_tensor_conversion_function", "required_space_to_batch_paddings",
    "signal.irfft", "signal.irfft2d", "signal.irfft3d", "signal.rfft", "signal.rfft2d",
    "signal.rfft3d", "switch_case", "type_spec_from_value", "variable_creator_scope",
    "vectorized_map", "while_loop"))

_targets = {}  # undispatched public function -> [_Target], in registration order
_registered = {}  # what the user registered -> its _Targets (to unregister them)
_own_types = set()  # eagerflow's classes TF's functions dispatch on (`dispatch_for_types`)


class _Target:
    """`function` (called as the API was, or with all its arguments by keyword when
    `accepted` is None) for calls matching one of `annotations` ({parameter: type})."""

    def __init__(self, function, annotations, accepted=None):
        self.function = function
        self.annotations = annotations
        self.signatures = [{n: _checker(a) for n, a in s.items()} for s in annotations]
        self.accepted = accepted  # the parameters `function` takes

    def __call__(self, api, arguments):
        if self.accepted is None:
            return self.function(**arguments)
        return _call(self.function, api, arguments, self.accepted)

    def matches(self, arguments):
        return any(all(check(arguments.get(name)) for name, check in signature.items())
                   for signature in self.signatures)


def _api_key(api):
    """The function `api`'s dispatch support calls dispatchers with (undispatched), or TF's
    ValueError when `api` has none."""
    name = api_export.canonical_name(api) if getattr(api, "_dispatches_itself", False) \
        else None
    if name is None or name in _UNDISPATCHED or (
            name.startswith(_UNDISPATCHED_NAMESPACES) and name not in _DISPATCHED_THERE):
        raise ValueError(f"{api!r} does not support dispatch.")
    return api_export.undispatched(api)


def _parameters(fn):
    return list(inspect.signature(fn).parameters.values())


def _checker(annotation):
    """A predicate of values for a type annotation: a class, Union, Optional or List."""
    origin = typing.get_origin(annotation)
    if origin is typing.Union:
        checks = [_checker(a) for a in typing.get_args(annotation)]
        return lambda value: any(check(value) for check in checks)
    if origin is list and len(typing.get_args(annotation)) == 1:
        check = _checker(typing.get_args(annotation)[0])
        return lambda value: isinstance(value, (list, tuple)) and all(map(check, value))
    if isinstance(annotation, type) and origin is None:
        return lambda value: isinstance(value, annotation)
    raise ValueError(f"Type annotation {annotation} is not currently supported by dispatch.  "
                     f"Supported annotations: type objects,  List[...], and Union[...]")


def _classes(annotation):
    args = typing.get_args(annotation)
    if args:
        return [c for a in args for c in _classes(a)]
    return [annotation] if isinstance(annotation, type) else []


def _update_dispatch_types():
    """The types whose values dispatch: the `ExtensionType`s any signature names."""
    found = {c for targets in _targets.values() for t in targets
             for annotations in t.annotations for a in annotations.values()
             for c in _classes(a) if hasattr(c, "_tf_extension_type_fields")}
    api_export.dispatch_types = tuple(found | _own_types)


def dispatch_for_types(api, cls, parameters):
    """Decorator (for eagerflow's own types, as TF's internal one): the decorated function,
    called with the call's arguments by keyword, runs in place of the public function `api`
    for a user's calls where any of `parameters` is a `cls` (TF's functions taking its
    LinearOperators)."""
    def decorator(target):
        _targets.setdefault(_api_key(api), []).append(
            _Target(target, [{p: cls} for p in parameters]))
        _own_types.add(cls)
        _update_dispatch_types()
        return target
    return decorator


def _add(key, target, registered):
    _targets.setdefault(key, []).append(target)
    _registered.setdefault(registered, []).append((key, target))


def _check_target_parameters(api, function):
    """TF's ValueError when `function`'s parameters are not the API's (the ``name`` one may
    be left out); returns the names it takes."""
    mine, theirs = _parameters(function), _parameters(api)
    shown = mine
    names = [p.name for p in mine]
    if "name" not in names:
        shown = mine + [p for p in theirs if p.name == "name"]
    if [p.name for p in shown] != [p.name for p in theirs] or any(
            a.kind != b.kind for a, b in zip(shown, theirs)):
        raise ValueError(f"Dispatch function's signature {inspect.Signature(shown)} does not "
                         f"match API's signature {inspect.signature(api)}.")
    return frozenset(names)


@export("experimental.dispatch_for_api")
def dispatch_for_api(api, *signatures):
    """Decorator: the decorated function runs in place of `api` for calls matching one of
    `signatures` (dicts of parameter name to type), or else its own type annotations.

    >>> __name__ = "__main__"  # (a user's program)
    >>> class Box(tf.experimental.ExtensionType):
    ...     value: tf.Tensor
    >>> @tf.experimental.dispatch_for_api(tf.math.add)
    ... def box_add(x: Box, y: Box, name=None):
    ...     return Box(x.value + y.value)
    >>> tf.math.add(Box(1.0), Box(2.0)).value
    <tf.Tensor: shape=(), dtype=float32, numpy=3.0>
    >>> tf.experimental.unregister_dispatch_for(box_add)
    """
    key = _api_key(api)
    api_names = {p.name for p in _parameters(key)}

    def decorator(dispatch_target):
        if not callable(dispatch_target):
            raise TypeError(f"Expected dispatch_target to be callable; got {dispatch_target!r}")
        given = list(signatures)
        _check_signature_names(given, api_names)  # (given signatures first, as TF checks)
        accepted = _check_target_parameters(key, dispatch_target)
        if not given:
            annotations = {p.name: p.annotation for p in _parameters(dispatch_target)
                           if p.annotation is not p.empty}
            if not annotations:
                raise ValueError("The dispatch_for_api decorator must be called with at least "
                                 "one signature, or applied to a function that has type "
                                 "annotations on its parameters.")
            given = [annotations]
            _check_signature_names(given, api_names)
        _add(key, _Target(dispatch_target, given, accepted), dispatch_target)
        _update_dispatch_types()
        return dispatch_target
    return decorator


def _check_signature_names(signatures, api_names):
    for signature in signatures:
        for name in signature:
            if name not in api_names:
                raise ValueError(f"signature includes annotation for unknown parameter "
                                 f"{name!r}.")


def _public_functions(names):
    """The public functions among canonical `names` eagerflow has."""
    wanted, found = set(names), {}
    for obj, _, attr, paths in api_export.EXPORTS:
        if attr is None and paths and paths[0] in wanted and callable(obj):
            found[paths[0]] = obj
    return [found[n] for n in names if n in found]


# (kind, operand types) -> the elementwise handler registered for them: one each, as TF
_elementwise_handlers = {}
_KIND_LABELS = {"dispatch_for_unary_elementwise_apis": "unary elementwise",
                "dispatch_for_binary_elementwise_apis": "binary elementwise",
                "dispatch_for_binary_elementwise_assert_apis": "binary elementwise assert"}


def _elementwise(names, types, kind):
    """The decorator registering a handler ``handler(api_func, *operands)`` for every API of
    `names` whose first len(types) parameters hold values of `types`."""
    def decorator(handler):
        existing = _elementwise_handlers.get((kind, types))
        if existing is not None:
            shown = types[0] if len(types) == 1 else types
            raise ValueError(f"A {_KIND_LABELS[kind]} dispatch handler ({existing!r}) has "
                             f"already been registered for {shown}.")
        _elementwise_handlers[kind, types] = handler
        for api in _public_functions(names):
            key = _api_key(api)
            params = [p.name for p in _parameters(key)]
            operands = params[:len(types)]
            _add(key, _Target(_elementwise_target(api, key, operands, handler),
                              [dict(zip(operands, types))]), handler)
        _update_dispatch_types()
        return handler
    decorator.__qualname__ = f"{kind}.<locals>.decorator"
    return decorator


def _elementwise_target(api, key, operands, handler):
    """The target calling `handler` with `api` bound to the call's other arguments."""
    def target(**arguments):
        def api_func(*values):
            return api(**{**arguments, **dict(zip(operands, values))})
        return handler(api_func, *(arguments[n] for n in operands))
    target.__name__ = target.__qualname__ = f"elementwise_dispatch_target_for_{key.__name__}"
    return target


@export("experimental.dispatch_for_unary_elementwise_apis")
def dispatch_for_unary_elementwise_apis(x_type):
    """Decorator: ``handler(api_func, x)`` runs every unary elementwise API (``tf.math.abs``,
    ``tf.cast``, ...) called on an `x` of `x_type`; ``api_func(v)`` calls the API with the
    call's other arguments.

    >>> __name__ = "__main__"  # (a user's program)
    >>> class Box(tf.experimental.ExtensionType):
    ...     value: tf.Tensor
    >>> @tf.experimental.dispatch_for_unary_elementwise_apis(Box)
    ... def box_unary(api_func, x):
    ...     return Box(api_func(x.value))
    >>> tf.cast(Box([1.5, -2.0]), tf.int32).value
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([ 1, -2], dtype=int32)>
    >>> tf.experimental.unregister_dispatch_for(box_unary)
    """
    return _elementwise(_UNARY, (x_type,), "dispatch_for_unary_elementwise_apis")


@export("experimental.dispatch_for_binary_elementwise_apis")
def dispatch_for_binary_elementwise_apis(x_type, y_type):
    """Decorator: ``handler(api_func, x, y)`` runs every binary elementwise API
    (``tf.math.add``, ``tf.maximum``, ...) called on an `x` of `x_type` and a `y` of
    `y_type`.

    >>> __name__ = "__main__"  # (a user's program)
    >>> class Box(tf.experimental.ExtensionType):
    ...     value: tf.Tensor
    >>> @tf.experimental.dispatch_for_binary_elementwise_apis(Box, tf.Tensor)
    ... def box_binary(api_func, x, y):
    ...     return Box(api_func(x.value, y))
    >>> tf.maximum(Box([1.0, 5.0]), tf.constant(2.0)).value
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([2., 5.], dtype=float32)>
    >>> tf.experimental.unregister_dispatch_for(box_binary)
    """
    return _elementwise(_BINARY, (x_type, y_type), "dispatch_for_binary_elementwise_apis")


@export("experimental.dispatch_for_binary_elementwise_assert_apis")
def dispatch_for_binary_elementwise_assert_apis(x_type, y_type):
    """Decorator: ``handler(assert_func, x, y)`` runs the elementwise assertions
    (``tf.debugging.assert_equal``, ...) called on values of `x_type` and `y_type`."""
    return _elementwise(_ASSERT, (x_type, y_type),
                        "dispatch_for_binary_elementwise_assert_apis")


@export("experimental.unregister_dispatch_for")
def unregister_dispatch_for(dispatch_target):
    """Removes a function registered with a ``dispatch_for_*`` decorator from every API."""
    entries = _registered.pop(dispatch_target, None) if _hashable(dispatch_target) else None
    if entries is None:
        raise ValueError(f"Function {dispatch_target} was not registered using a "
                         f"`@dispatch_for_*` decorator.")
    for key, target in entries:
        _targets[key].remove(target)
        if not _targets[key]:
            del _targets[key]
    for registered, handler in list(_elementwise_handlers.items()):
        if handler is dispatch_target:
            del _elementwise_handlers[registered]
    _update_dispatch_types()


def _hashable(value):
    try:
        hash(value)
    except TypeError:
        return False
    return True


def _dispatch(function, arguments):
    """The dispatcher of calls meeting registered types (see `api_export.dispatch_call`)."""
    matched = [t for t in _targets.get(api_export.undispatched(function), ())
               if t.matches(arguments)]
    if not matched:
        error = sys.exc_info()[1]
        if isinstance(error, api_export.TypeDispatch):  # TF's error for the value
            raise ValueError(str(error)) from None
        return NotImplemented
    if len(matched) > 1:
        raise ValueError(f"Multiple dispatch targets that were registered with "
                         f"tf.dispatch_for ({matched[0].function!r} and "
                         f"{matched[1].function!r}) match the arguments to "
                         f"{api_export.undispatched(function).__name__}")
    return matched[0](api_export.undispatched(function), arguments)


def _call(target, api, arguments, accepted):
    """`target` called as the API was (its parameters in order: positionally until one it
    does not take, by keyword after)."""
    args, kwargs, positional = [], {}, True
    for p in _parameters(api):
        if p.name not in accepted:
            positional = False
            continue
        value = arguments[p.name]
        if p.kind is p.VAR_POSITIONAL:
            args.extend(value)
        elif p.kind is p.VAR_KEYWORD:
            kwargs.update(value)
        elif positional and p.kind is not p.KEYWORD_ONLY:
            args.append(value)
        else:
            kwargs[p.name] = value
    return target(*args, **kwargs)


api_export.add_dispatcher(_dispatch, first=True)

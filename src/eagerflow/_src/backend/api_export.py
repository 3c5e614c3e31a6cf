"""Public names, declared where each function, class or constant is defined.

``@export("math.add", "add")`` above a ``def`` or ``class`` says under which
paths of the public package the object appears (``tf.math.add``,
``tf.add``); the first is TF's canonical name. The public modules
(``eagerflow/__init__.py``, ``eagerflow/math/__init__.py``, ...) are plain
re-exports written from these declarations by ``tools/gen_api.py``.

The decorator sets ``_tf_api_names`` (``_keras_api_names`` for ``keras.*``
paths, as tf_keras does) and adds the declaration to `EXPORTS`. It lives in
the lowest layer so that every layer can declare.

Dispatch support (TF's ``add_dispatch_support``). An op that cannot run on
its arguments because one is a symbolic tensor outside its graph (a Keras
functional-model tensor) raises `SymbolicCall`. A TF function (one with a
``tf.`` path) is returned wrapped: a function of the same signature that
calls it and, on `SymbolicCall`, hands the call (the function and its
arguments by parameter name) to the registered dispatchers (Keras makes a
layer of it). Only the outermost public call is dispatched: a `SymbolicCall`
of a public function called by eagerflow's own code goes on to the public
function that called it. Classes, constants, Keras-only functions, and
functions that handle `SymbolicCall` themselves (`dispatches_itself`: the
elementwise fast-path functions) are returned as they are. Declaring an
already defined function (``export("nn.relu")(relu)``) rebinds its name in
the declaring module to the wrapper (the name it was defined with, or the
last part of a public path). ``tools/gen_api.py`` writes the wrappers as
source (`eagerflow._src.backend.dispatch_wrappers`), so that they load from
bytecode; one declared since is compiled when declared.

>>> @export("math.my_op", "my_op")
... def my_op(x):
...     return x
>>> my_op._tf_api_names, canonical_name(my_op)
(('math.my_op', 'my_op'), 'math.my_op')
>>> del EXPORTS[-1]
"""
import functools
from inspect import CO_VARARGS, CO_VARKEYWORDS
import linecache
import os
import sys
import types

from eagerflow._src.backend.tracebacks import filtered

# Every declaration in import order: (object, module holding it, attribute or None, names).
# The attribute is None for a function or class (found by its name in its module).
EXPORTS = []


class export:  # noqa: N801 (TF's spelling, a decorator)
    """Declares the public paths of a function, class or (`export_constant`) constant.

    `dispatch_name`: the name tf_keras gives a layer calling this function on
    Keras tensors when it differs from the canonical name (TF dispatches some
    TF 2 functions through their TF 1 versions: ``tf.transpose`` makes a
    ``tf.compat.v1.transpose`` layer).
    """

    __slots__ = ("names", "dispatch_name")

    def __init__(self, *names, dispatch_name=None):
        self.names = names
        self.dispatch_name = dispatch_name

    def __call__(self, obj):
        tf_names = tuple(n for n in self.names if not n.startswith("keras."))
        keras_names = tuple(n for n in self.names if n.startswith("keras."))
        if tf_names:
            obj._tf_api_names = tf_names
        if keras_names:
            obj._keras_api_names = keras_names
        if self.dispatch_name is not None:
            obj._tf_dispatch_name = self.dispatch_name
        module = sys._getframe(1).f_globals
        if tf_names and _dispatchable(obj):
            wrapper = _with_dispatch(obj, tf_names[0])
            _rebind(module, obj, wrapper, self.names)
            obj = wrapper
        # The declaring module, not ``obj.__module__`` (errors name their public module there).
        EXPORTS.append((obj, module["__name__"], None, self.names))
        return obj

    def export_constant(self, module_name, attr):
        """Declares the module-level constant `attr` of `module_name` (a DType, a number)."""
        EXPORTS.append((None, module_name, attr, self.names))


def api_names(obj):
    """The public paths `obj` was declared under (its own, not a base class's); () if none."""
    own = getattr(obj, "__dict__", {})
    return own.get("_tf_api_names", ()) + own.get("_keras_api_names", ())


def canonical_name(obj):
    """TF's canonical name of a declared function or class (its first path), or None."""
    names = api_names(obj)
    return names[0] if names else None


# -- dispatch support ---------------------------------------------------------------------
class SymbolicCall(TypeError):  # noqa: N818 (TF raises TypeError for such calls)
    """An op was given a symbolic tensor of a graph it cannot join from here (a Keras tensor
    outside a layer's call): the public function called is dispatched instead."""


class TypeDispatch(SymbolicCall, ValueError):
    """A value of a type with dispatch targets (``tf.experimental.dispatch_for_api``) met
    where a tensor is needed: the public function called is dispatched. Its message is
    TF's ValueError for the value, which the user sees when no target takes the call."""


# The types whose values an op meets raise `TypeDispatch` instead of ValueError (set by
# ``eagerflow._src.core.api_dispatch``; an op converting them fails anyway, so this costs
# the ops nothing).
dispatch_types = ()

# Callables ``dispatcher(function, arguments)`` (arguments: {parameter: value}, as the call
# bound them) returning the call's result, or NotImplemented for calls they do not handle.
DISPATCHERS = []

# Namespaces whose functions TF does not dispatch: the TF functions they call are dispatched
# (``tf.nest.map_structure(tf.nn.relu, xs)`` makes a ``tf.nn.relu`` layer per tensor).
UNDISPATCHED = ("nest.", "config.", "autograph.", "test.")
_UNDISPATCHED_MODULES = set()  # the modules defining those, seen through like user code

_OWN = __name__.rpartition("._src.")[0] + "."  # "eagerflow."
_outside = ()  # prefixes of eagerflow modules whose calls are dispatched as the user's are
_inside = set()  # modules among those whose calls are not


def add_dispatcher(dispatcher, outside=(), inside=(), first=False):
    """Registers `dispatcher` (see `DISPATCHERS`), before the others with `first`; calls of TF
    functions from modules named by the prefixes `outside` (other than the modules `inside`)
    are dispatched like the user's."""
    global _outside
    if first:
        DISPATCHERS.insert(0, dispatcher)
    else:
        DISPATCHERS.append(dispatcher)
    _outside += tuple(outside)
    _inside.update(inside)


def see_through(module_name):
    """Calls of TF functions from module `module_name` (helpers of Tensor's operators) are
    dispatched as calls from its caller."""
    _UNDISPATCHED_MODULES.add(module_name)


def dispatches_itself(function):
    """Marks `function` as catching `SymbolicCall` itself (see `dispatch_call`)."""
    function._dispatches_itself = True
    return function


def with_parameter_names(function, names):
    """`function`, whose leading parameters are called ``x`` (and ``y``), with them called
    `names` instead (TF's names: ``nn.relu(features)``), so that they are passed by those
    keywords; the body, which uses no other local of those names, is unchanged.

    >>> def f(x, name=None):
    ...     return x
    >>> with_parameter_names(f, ("features",))(features=3)
    3
    """
    code = function.__code__
    renamed = dict(zip(code.co_varnames, names))
    function.__code__ = code.replace(
        co_varnames=tuple(renamed.get(v, v) for v in code.co_varnames))
    return function


def _dispatchable(obj):
    if not isinstance(obj, types.FunctionType) or getattr(obj, "_dispatches_itself", False):
        return False
    if obj._tf_api_names[0].startswith(UNDISPATCHED):
        _UNDISPATCHED_MODULES.add(obj.__module__)
        return False
    return True


def dispatch_call(function, arguments):
    """Handles the `SymbolicCall` being raised in `function` (called with `arguments`, by
    parameter name): re-raises it when eagerflow's own code made the call, else returns what
    a dispatcher makes of the call."""
    frame = sys._getframe(2)  # the caller of `function`'s wrapper
    module = frame.f_globals.get("__name__", "")
    # tf.nest calling a TF function: see who called it (a module of `_outside` calls it for
    # the user)
    while module in _UNDISPATCHED_MODULES and not module.startswith(_outside):
        frame = frame.f_back
        module = frame.f_globals.get("__name__", "") if frame is not None else ""
    if module.startswith(_OWN) and (not module.startswith(_outside) or module in _inside):
        raise  # noqa: PLE0704 (the SymbolicCall being handled)
    for dispatcher in DISPATCHERS:
        try:
            result = dispatcher(function, arguments)
        except SymbolicCall:
            # (a dispatcher whose own ops met the symbolic tensors: a ragged reduction of a
            # ragged Keras tensor, say; the next one, Keras's, makes the call a layer)
            continue
        if result is not NotImplemented:
            return result
    raise  # noqa: PLE0704


_FOLDER = os.path.dirname(os.path.abspath(__file__))
_factories = {}  # source of a wrapper factory -> the factory
_VARIADIC = CO_VARARGS | CO_VARKEYWORDS
_GENERATED = None  # see _generated


def _generated():
    """{canonical name: factory of its wrapper} written by ``tools/gen_api.py``: the wrappers
    load from bytecode, with nothing compiled at import. {} when the module is missing or
    unreadable (a merge left conflict markers), so that gen_api can still import eagerflow
    to write it again."""
    global _GENERATED
    try:
        from eagerflow._src.backend import dispatch_wrappers  # noqa: PLC0415
        _GENERATED = dispatch_wrappers.WRAPPERS
    except (ImportError, SyntaxError):
        _GENERATED = {}
    return _GENERATED


def _same_parameters(a, b):
    """Whether code objects `a` and `b` take the same parameters (names and kinds)."""
    n = a.co_argcount + a.co_kwonlyargcount + bool(a.co_flags & CO_VARARGS) + bool(
        a.co_flags & CO_VARKEYWORDS)
    return (a.co_varnames[:n] == b.co_varnames[:n] and a.co_argcount == b.co_argcount
            and a.co_posonlyargcount == b.co_posonlyargcount
            and a.co_kwonlyargcount == b.co_kwonlyargcount
            and not (a.co_flags ^ b.co_flags) & _VARIADIC)


def _rebind(module, obj, wrapper, names):
    """Binds `wrapper` where `module` holds `obj` under its name or a public name's last part
    (``export(...)(f)`` after ``def f``; a decorated function is not bound yet)."""
    if module.get(obj.__name__) is obj:
        module[obj.__name__] = wrapper
    for name in names:
        name = name.rpartition(".")[2]
        if module.get(name) is obj:
            module[name] = wrapper


def wrapper_source(fn, factory="_export_factory", generic=False):
    """The source of ``def factory(_export_fn, _export_dispatch, _export_symbolic,
    _export_filtered)``, which returns `fn`'s dispatch wrapper: a function of `fn`'s
    parameters (defaults are `fn`'s own, set afterwards) that calls it, on `SymbolicCall`
    dispatches the call, and raises other errors with their tracebacks filtered
    (`tracebacks.filtered`). With `generic`,
    the parameters are named g0, g1, ... (one source serves every signature of that shape);
    returns the source and {name in the source: parameter name}."""
    # The parameters, read off the code object (inspect.signature costs ~50x as much).
    code = fn.__code__
    positional = code.co_varnames[:code.co_argcount]
    keyword_only = code.co_varnames[code.co_argcount:code.co_argcount + code.co_kwonlyargcount]
    rest = code.co_argcount + code.co_kwonlyargcount
    star = code.co_varnames[rest] if code.co_flags & CO_VARARGS else None
    rest += star is not None
    star_star = code.co_varnames[rest] if code.co_flags & CO_VARKEYWORDS else None
    first_default = len(positional) - len(fn.__defaults__ or ())
    names = [*positional, *([star] if star else []), *keyword_only,
             *([star_star] if star_star else [])]
    local = {name: f"g{i}" if generic else name for i, name in enumerate(names)}
    params, call = [], []
    for i, name in enumerate(positional):
        params.append(local[name] + ("=None" if i >= first_default else ""))
        call.append(local[name])
        if i + 1 == code.co_posonlyargcount:
            params.append("/")
    if star is not None:
        params.append(f"*{local[star]}")
        call.append(f"*{local[star]}")
    elif keyword_only:
        params.append("*")
    for name in keyword_only:
        params.append(local[name] + ("=None" if name in (fn.__kwdefaults__ or {}) else ""))
        call.append(f"{local[name]}={local[name]}")
    if star_star is not None:
        params.append(f"**{local[star_star]}")
        call.append(f"**{local[star_star]}")
    arguments = ", ".join(f"{local[n]!r}: {local[n]}" for n in names)
    source = (f"def {factory}(_export_fn, _export_dispatch, _export_symbolic, _export_filtered):\n"
              f"    def _export_wrapper({', '.join(params)}):\n"
              f"        try:\n"
              f"            return _export_fn({', '.join(call)})\n"
              f"        except _export_symbolic:\n"
              f"            return _export_dispatch(_export_wrapper, {{{arguments}}})\n"
              f"        except Exception as _export_error:\n"
              f"            raise _export_filtered(_export_error)\n"
              f"    return _export_wrapper\n")
    return source, {g: name for name, g in local.items()}


def _with_dispatch(fn, canonical):
    """`fn` with dispatch support: a wrapper of `fn`'s own signature (no packing of arguments,
    so that an ordinary call costs one plain call more)."""
    factory = (_GENERATED if _GENERATED is not None else _generated()).get(canonical)
    wrapper = factory(fn, dispatch_call, SymbolicCall, filtered) if factory is not None else None
    if wrapper is None or not _same_parameters(wrapper.__code__, fn.__code__):
        wrapper = _compiled_wrapper(fn)  # declared since tools/gen_api.py last ran
    wrapper.__defaults__ = fn.__defaults__
    wrapper.__kwdefaults__ = fn.__kwdefaults__
    functools.update_wrapper(wrapper, fn)
    wrapper._dispatches_itself = True  # declared again: not wrapped twice
    wrapper._undispatched = fn
    return wrapper


def _compiled_wrapper(fn):
    """`fn`'s wrapper compiled now, once per shape of signature, with the names g0, g1, ...,
    then taking `fn`'s names (its locals, keyword names and argument-dict keys are those)."""
    source, real = wrapper_source(fn, generic=True)
    factory = _factories.get(source)
    if factory is None:
        # A file name inside the package: op locations and tracebacks see library code.
        filename = os.path.join(_FOLDER, f"<dispatch wrapper {len(_factories)}>")
        linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
        scope = {"__name__": __name__}
        exec(compile(source, filename, "exec"), scope)  # noqa: S102
        factory = _factories[source] = scope["_export_factory"]
    wrapper = factory(fn, dispatch_call, SymbolicCall, filtered)
    template = wrapper.__code__
    wrapper.__code__ = template.replace(
        co_varnames=tuple(real.get(v, v) for v in template.co_varnames),
        co_consts=tuple(tuple(real.get(c, c) for c in const)
                        if isinstance(const, tuple) else const for const in template.co_consts))
    return wrapper


def undispatched(fn):
    """The function that `fn`, a public function, runs without its dispatch support (`fn`
    itself if it has none): for callers that dispatch themselves (operators)."""
    return fn.__dict__.get("_undispatched", fn)

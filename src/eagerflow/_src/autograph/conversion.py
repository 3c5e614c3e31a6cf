"""Converting user functions, and calling them from converted code.

`convert` rewrites a function's syntax tree with the converters and compiles
it so that it shares the original's globals and closure; the compiled code
keeps the user's file name and line numbers, so tracebacks and error
messages show the user's own lines.  `converted_call` is what every call in
converted code goes through: user functions are converted (recursively, at
first call), library code and builtins are called as they are.

>>> def f(x):
...     return -x if x < 0 else x
>>> convert(f)(-3)
3
"""
import ast
import enum
import functools
import inspect
import linecache
import os
import types
import weakref

from eagerflow._src.autograph import operators
from eagerflow._src.autograph.converters import (
    asserts, break_statements, call_trees, conditional_expressions, continue_statements,
    control_flow, directives, lists, logical_expressions, return_statements, variables)
from eagerflow._src.autograph.operators import data_structures, py_builtins
from eagerflow._src.autograph.pyct import parser
from eagerflow._src.autograph.pyct.naming import Namer
from eagerflow._src.backend.api_export import export
from eagerflow._src.backend.log import logger as _logger
from eagerflow._src.core import errors
from eagerflow._src.function import autograph_slot
from eagerflow._src.graph import functional_ops
from eagerflow._src.function.polymorphic_function import Function

# eagerflow's own folder: three up from eagerflow/_src/autograph/conversion.py
_PACKAGE_FOLDER = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_LIBRARY_PACKAGES = {"numpy", "scipy", "ml_dtypes", "pandas", "tensorflow", "keras", "tf_keras",
                     "torch", "jax", "pytest", "_pytest", "hypothesis", "pluggy", "absl"}


@functools.cache
def _library_folders():
    """Code outside these folders and `_LIBRARY_PACKAGES` is the user's and gets converted.
    (Found on first use: sysconfig costs ~2 ms of eagerflow's import.)"""
    import sysconfig  # noqa: PLC0415
    return tuple(os.path.normcase(os.path.realpath(p)) + os.sep for p in {
        _PACKAGE_FOLDER, *(sysconfig.get_paths()[k] for k in ("stdlib", "platstdlib"))})


class ConversionError(Exception):
    """A function that cannot be converted (the reason is the message)."""


@export("autograph.experimental.Feature")
class Feature(enum.Enum):
    """Optional parts of the conversion (``tf.autograph.experimental.Feature``).

    As in TF, none is on unless ``tf.function``'s ``experimental_autograph_options``
    or ``to_graph``'s and ``to_code``'s ``experimental_optional_features`` names
    it (nor in ``tf.data`` functions and Keras calls): without ``ASSERT_STATEMENTS``
    an ``assert`` on a graph tensor is Python's, refused, and without ``LISTS`` a
    list grown in a tensor loop holds the body's tensors, out of scope after it.
    ``ASSERT_STATEMENTS`` turns ``assert`` into ``tf.debugging.Assert``, ``LISTS``
    lets tensor loops grow Python lists and ``BUILTIN_FUNCTIONS`` makes ``print`` of a
    graph tensor print when the graph runs; the others are accepted.
    """
    ALL = "ALL"
    AUTO_CONTROL_DEPS = "AUTO_CONTROL_DEPS"
    ASSERT_STATEMENTS = "ASSERT_STATEMENTS"
    BUILTIN_FUNCTIONS = "BUILTIN_FUNCTIONS"
    EQUALITY_OPERATORS = "EQUALITY_OPERATORS"
    LISTS = "LISTS"
    NAME_SCOPES = "NAME_SCOPES"


ALL_FEATURES = frozenset(Feature) - {Feature.ALL}
CORE = frozenset()  # no optional feature: what every conversion uses unless told, as in TF


def features(optional):
    """The set of features that `optional` (None, a Feature, or several) turns on."""
    if optional is None:
        return frozenset()
    chosen = [optional] if isinstance(optional, Feature) else list(optional) \
        if isinstance(optional, (list, tuple, set, frozenset)) else [optional]
    for feature in chosen:
        if not isinstance(feature, Feature):
            raise ValueError(f"optional features must be tf.autograph.experimental.Feature "
                             f"members, got {feature!r}")
    return ALL_FEATURES if Feature.ALL in chosen else frozenset(chosen)


# -- the converters, in order ---------------------------------------------------------------

def _convert_tree(node, optional=CORE):
    """The converted syntax tree of the function or lambda `node` (changed in place), with
    the `optional` features."""
    if isinstance(node, ast.Lambda):
        return _expressions(node, optional)
    if any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in ast.walk(node)):
        raise ConversionError("generators are not supported")
    if any(isinstance(n, ast.NamedExpr) for n in ast.walk(node)):
        raise ConversionError("assignment expressions (:=) are not supported")  # nor in TF
    if isinstance(node, ast.AsyncFunctionDef):
        raise ConversionError("async functions are not supported")
    namer = Namer(node)
    scopes = [n for n in ast.walk(node) if isinstance(n, ast.FunctionDef)]  # outermost first
    if Feature.LISTS in optional:
        for scope in scopes:
            lists.transform(scope)  # before calls are wrapped: it looks for `l.append(x)`
    node = _expressions(node, optional)
    for scope in scopes:
        break_statements.transform(scope, namer)
        continue_statements.transform(scope, namer)
        return_statements.transform(scope, namer)
        variables.transform(scope, control_flow.annotate(scope))
        control_flow.transform(scope, namer)
    return node


def _expressions(node, optional):
    """The converters that work statement by statement, anywhere in the tree."""
    for converter in (directives, asserts, call_trees, conditional_expressions,
                      logical_expressions):
        if converter is not asserts or Feature.ASSERT_STATEMENTS in optional:
            node = converter.transform(node)
    return node


# -- compiling ----------------------------------------------------------------------------------

class _Converted:
    """The converted code of one function's code object, and its readable source."""

    def __init__(self, code, source):
        self.code, self.source = code, source


# original code object -> {features: _Converted or ConversionError}
_cache = weakref.WeakKeyDictionary()


def _compile(fn, optional=CORE):
    """The converted code of `fn` with the `optional` features (cached per code object);
    ConversionError if it cannot be."""
    versions = _cache.setdefault(fn.__code__, {})
    found = versions.get(optional)
    if found is None:
        try:
            found = _compile_fresh(fn, optional)
        except (ConversionError, parser.SourceUnavailableError, SyntaxError) as e:
            found = ConversionError(str(e))
        versions[optional] = found
    if isinstance(found, ConversionError):
        raise found
    return found


def _compile_fresh(fn, optional):
    node = _convert_tree(parser.parse_entity(fn), optional)
    source = ast.unparse(node)
    freevars = fn.__code__.co_freevars
    if isinstance(node, ast.Lambda):
        inner = [ast.Return(node)]
    else:
        if "__class__" in freevars:  # keeps the cell zero-argument super() reads
            node.body.insert(0, ast.Expr(ast.Name("__class__", ast.Load())))
        inner = [node, ast.Return(ast.Name(node.name, ast.Load()))]
        if node.name not in freevars:
            # The def binds its name in the factory; declared global there, the name stays
            # what it is in the user's code (a recursive function finds itself as a global).
            inner.insert(0, ast.Global([node.name]))
    # The factory only shapes the code: its parameters make the closure's names free
    # variables of the converted function; it is never called.
    factory = ast.FunctionDef(
        "ag__factory", ast.arguments([], [ast.arg(n) for n in ("ag__", *freevars)], None, [],
                                     [], None, []), inner, [], None)
    module = ast.fix_missing_locations(ast.Module([ast.copy_location(factory, node)], []))
    code = compile(module, fn.__code__.co_filename, "exec")
    factory_code = next(c for c in code.co_consts if isinstance(c, types.CodeType))
    name = "<lambda>" if isinstance(node, ast.Lambda) else node.name
    inner_code = next(c for c in factory_code.co_consts
                      if isinstance(c, types.CodeType) and c.co_name == name)
    _remember(inner_code, name)
    return _Converted(inner_code, source)


# Converted code objects and those nested in them -> the user function they come from.
_converted_code = weakref.WeakKeyDictionary()


def _remember(code, name):
    _converted_code[code] = name
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            _remember(const, name)


def _instantiate(fn, converted, optional):
    """A function running the converted code with `fn`'s globals, defaults and closure; the
    functions it calls are converted with the `optional` features too."""
    cells = dict(zip(fn.__code__.co_freevars, fn.__closure__ or ()))
    closure = tuple(types.CellType(_namespace(optional)) if n == "ag__" else cells[n]
                    for n in converted.code.co_freevars)
    new = types.FunctionType(converted.code, fn.__globals__, fn.__name__, fn.__defaults__,
                             closure)
    new.__kwdefaults__ = fn.__kwdefaults__
    new.__dict__.update(fn.__dict__)
    new.__wrapped__ = fn
    new.__ag_converted__ = True
    return new


# -- what to convert ----------------------------------------------------------------------------

def _is_user_function(fn):
    if getattr(fn, "__ag_converted__", False) or getattr(fn, "__ag_do_not_convert__", False):
        return False
    if fn.__code__ in _converted_code:  # made by converted code: converted with it
        return False
    module = (getattr(fn, "__module__", None) or "").split(".")[0]
    if module in _LIBRARY_PACKAGES or module == "eagerflow":
        return False
    if fn.__code__.co_filename == "<string>":  # exec'd code runs as it is, silently, as in TF
        return False
    return not _in_library(fn.__code__.co_filename)


def _in_library(filename):
    if filename.startswith("<frozen "):  # a standard module frozen into the interpreter
        return True                      # (``os.path.join`` is ``<frozen posixpath>``)
    return os.path.normcase(os.path.realpath(filename)).startswith(_library_folders())


def _in_keras(filename):
    """Whether `filename` is Keras's: shown among the frames of an error in user code, as TF
    shows tf_keras's (a package outside TF), though never converted."""
    return os.path.normcase(os.path.realpath(filename)).startswith(_keras_folder())


@functools.cache
def _keras_folder():
    return os.path.normcase(os.path.realpath(os.path.join(_PACKAGE_FOLDER, "_src", "keras"))) \
        + os.sep


_warned = weakref.WeakSet()


def _convert_function(fn, optional):
    """Python function `fn` converted, or `fn` itself when it is not user code or cannot be
    converted (then it runs as it is, with one warning)."""
    if not _is_user_function(fn) or fn.__code__.co_flags & inspect.CO_GENERATOR:
        return fn  # a generator function itself runs as Python, without a warning, as in TF
    try:
        converted = _compile(fn, optional)
    except ConversionError as e:
        _warn_unconverted(fn, e)
        return fn
    return _instantiate(fn, converted, optional)


def _warn_unconverted(fn, cause):
    """TF's warning (once per function) that `fn` runs as it is, for `cause`."""
    if fn.__code__ not in _warned:
        _warned.add(fn.__code__)
        _logger.warning("AutoGraph could not transform %s and will run it as-is.\nCause: "
                        "%s\nTo silence this warning, decorate the function with "
                        "@tf.autograph.experimental.do_not_convert", fn, cause)


def convert(f, optional=CORE):
    """What converted code calls for callable `f`: `f` converted (with the `optional`
    features) when it is user code, the tensor-aware version of a builtin, else `f` itself."""
    if isinstance(f, (types.BuiltinFunctionType, type)):
        if f is print and Feature.BUILTIN_FUNCTIONS in optional:
            return py_builtins.print_  # (without the feature ``print`` is Python's, as TF's)
        return py_builtins.OVERRIDES.get(f, f)
    if isinstance(f, types.FunctionType) and f in data_structures.OVERRIDES:
        return data_structures.OVERRIDES[f]
    if isinstance(f, Function) or getattr(f, "__ag_do_not_convert__", False):
        return f
    if isinstance(f, types.FunctionType):
        return _convert_function(f, optional)
    if isinstance(f, types.MethodType) and isinstance(f.__func__, types.FunctionType):
        converted = _convert_function(f.__func__, optional)
        return f if converted is f.__func__ else types.MethodType(converted, f.__self__)
    if isinstance(f, functools.partial):
        inner = convert(f.func, optional)
        return f if inner is f.func else functools.partial(inner, *f.args, **f.keywords)
    call = getattr(type(f), "__call__", None)
    if isinstance(call, types.FunctionType) and _is_user_function(call):
        return types.MethodType(_convert_function(call, optional), f)
    return f


def convert_as_enabled(f):
    """`f` converted unless the code running now has AutoGraph off (a function traced with
    ``autograph=False``, or a ``do_not_convert`` one): how a Keras layer's ``call`` runs
    while a graph is built, as tf_keras's ``tf_convert(call, control_status_ctx())``."""
    return convert(f) if autograph_slot.enabled() else f


def convert_if_requested(f):
    """`f` converted only inside a function traced with AutoGraph, as TF's ``tf_convert`` with
    ``convert_by_default=False`` (how a strategy's ``run`` takes its function): eagerly, or in
    a TF 1 graph, `f` runs as it is."""
    return convert(f) if autograph_slot.requested() else f


def converted_call(f, args, kwargs=None, optional=CORE):
    """``f(*args, **kwargs)`` as converted code makes it (see the module doc)."""
    target = convert(f, optional)
    return target(*args, **kwargs) if kwargs else target(*args)


_namespaces = {}  # features -> the ``ag__`` module that code converted with them calls


def _namespace(optional):
    found = _namespaces.get(optional)
    if found is None:
        found = _namespaces[optional] = types.ModuleType("ag__", "What converted code calls.")
        for name in operators.__all__:
            setattr(found, name, getattr(operators, name))
        found.converted_call = functools.partial(converted_call, optional=optional)
    return found


# -- errors in user code -------------------------------------------------------------------------

def _user_frames(traceback):
    """``(filename, line, function name, converted)`` of the user's frames, outermost first.

    The functions that converted control flow generates (loop and branch
    bodies) count as the user function they come from: of consecutive frames
    in one function, the innermost stands for them.
    """
    frames = []
    for frame, line in _walk(traceback):
        filename = frame.f_code.co_filename
        if _in_library(filename) and not _in_keras(filename) or not os.path.exists(filename):
            continue
        name = _converted_code.get(frame.f_code)
        if name is not None:  # (TF's source map names the line a converted statement starts)
            line = _statement_start(filename, line)
        entry = (filename, line, name or frame.f_code.co_name, name is not None)
        if name is not None and frames and frames[-1][::2] == entry[::2] and frames[-1][3]:
            frames[-1] = entry
        else:
            frames.append(entry)
    return frames


def _statement_start(filename, line):
    """The first line of the innermost statement of `filename` spanning `line`."""
    starts = _statement_starts(filename)
    return starts.get(line, line)


@functools.lru_cache(maxsize=64)
def _statement_starts(filename):
    """``{line: first line of the innermost statement over it}`` for the lines of `filename`
    (empty when it does not parse)."""
    try:
        tree = ast.parse("".join(linecache.getlines(filename)))
    except (SyntaxError, ValueError):
        return {}
    spans = sorted(((n.lineno, n.end_lineno) for n in ast.walk(tree)
                    if isinstance(n, ast.stmt) and n.end_lineno),
                   key=lambda span: span[1] - span[0], reverse=True)
    starts = {}
    for first, last in spans:  # widest first: inner statements overwrite their lines
        for line in range(first, last + 1):
            starts[line] = first
    return starts


def _walk(traceback):
    while traceback is not None:
        yield traceback.tb_frame, traceback.tb_lineno
        traceback = traceback.tb_next


def _framed(error, traceback):
    """`error` with TF's "in user code" framing: the user's frames on `traceback`, then the
    message; None where no user frame is in its way, unless the call itself failed (a
    function taking other arguments), which TF frames with no frames."""
    lines = []
    frames = _user_frames(traceback)
    for filename, line, name, converted in frames:
        text = linecache.getline(filename, line).strip()
        lines.append(f'    File "{filename}", line {line}, in {name}{"  *" if converted else ""}'
                     f"\n        {text}\n")
    if not lines and traceback.tb_next is not None:
        return None
    if lines and not any(converted or _in_keras(filename)
                         for filename, _, _, converted in frames):
        return None  # no converted code on the way (do_not_convert, or not convertible)
    shown = "\n".join(f"    {line}" for line in f"{type(error).__name__}: {error}".split("\n"))
    message = "in user code:\n\n" + "".join(lines) + f"\n{shown}\n"
    kind = type(error)
    try:
        if isinstance(error, errors.OpError):
            framed = kind(error.node_def, error.op, message,
                          *((error.error_code,) if kind is errors.OpError else ()))
        elif kind is KeyError:  # (whose str would show the message's repr)
            framed = _MultilineKeyError(message, f"{type(error).__name__}: {error}")
        elif kind in _REFRAMED or kind.__init__ is Exception.__init__:
            framed = kind(message)
        else:  # TF re-raises other errors of staged code as a StagingError
            framed = StagingError(message)
    except Exception:  # an exception class that takes other arguments: leave it as it is
        return None
    framed.ag_framed = error  # (framed again, with the outer frames, by an enclosing trace)
    return framed


class _MultilineKeyError(KeyError):
    """A `KeyError` framed in user code, shown as its message (as TF's, a `KeyError` by name):
    a plain one shows the repr of its argument, the message's lines escaped."""

    def __init__(self, message, key):
        super().__init__(key)
        self._message = message

    def __str__(self):
        return self._message


_MultilineKeyError.__name__ = KeyError.__name__


class AutoGraphError(Exception):
    """Base of the errors AutoGraph raises."""


class StagingError(AutoGraphError):
    """An error raised while a function was converted and traced, of a type TF does not
    re-raise as it is (IndexError, ZeroDivisionError, RecursionError, ...)."""


# The types TF re-raises with the framed message (the others become StagingError).
_REFRAMED = frozenset({
    AssertionError, AttributeError, KeyError, NameError, NotImplementedError, RuntimeError,
    StopIteration, TypeError, UnboundLocalError, ValueError,
    errors.InaccessibleTensorError, errors.OperatorNotAllowedInGraphError})


def call_traced(fn, args, kwargs, options=None):
    """`fn` converted (with the features of `options`, default none) and called while a graph
    is traced; errors framed in the user's code."""
    optional = features(options)
    target = getattr(fn, "__func__", fn)
    if isinstance(target, types.FunctionType) and \
            target.__code__.co_flags & inspect.CO_GENERATOR and _is_user_function(target):
        # the function itself a generator: TF tries to convert it, and warns
        _warn_unconverted(target, "generators are not supported")
    try:
        result = convert(fn, optional)(*args, **kwargs)
    except Exception as e:
        # An error an inner function's trace framed is framed again from its own error,
        # with every user frame from here down (the outer function's call lines too).
        framed = _framed(getattr(e, "ag_framed", e), e.__traceback__)
        if framed is None:
            raise
        raise framed.with_traceback(e.__traceback__) from None
    data_structures.check_returned(result)
    return result


def check_convertible(entity):
    """TF's ConversionError unless `entity` is a function (or method) with code to convert."""
    if not hasattr(getattr(entity, "__func__", entity), "__code__"):
        raise ConversionError(
            f"converting {entity!r}: ValueError: Cannot apply autograph to a function that "
            f"doesn't expose a __code__ object. If this is a @tf.function, try passing "
            f"f.python_function instead.")


def to_code(entity, optional=CORE):
    """The source of `entity` converted: readable Python that calls ``ag__`` operators."""
    entity = getattr(entity, "python_function", entity)
    check_convertible(entity)
    entity = getattr(entity, "__func__", entity)
    try:
        return _compile(entity, optional).source + "\n"
    except ConversionError as e:
        raise ConversionError(f"could not convert {entity!r}: {e}") from None


@export("autograph.experimental.do_not_convert")
def do_not_convert(func=None):
    """Marks `func` to run as it is in converted code (a decorator, with or without call)."""
    if func is None:
        return do_not_convert

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        with autograph_slot.status(False):  # nor does what it calls convert on its own
            return func(*args, **kwargs)
    wrapper.__ag_do_not_convert__ = True
    return wrapper


autograph_slot.call = call_traced
functional_ops.convert_user_function = convert_as_enabled
functional_ops.convert_traced_function = convert_if_requested

"""Runs one case in one mode on a TensorFlow-like library and encodes the outcome.

The same code runs under TensorFlow (tests/differential/record_tf.py) and
under eagerflow (the pytest check), so every difference in the encoded
results is a difference between the libraries, not between two harnesses.
An outcome is plain JSON data: the outputs' dtypes, shapes and values, or
the class name of the exception raised.
"""
import numpy as np

from .inputs import INPUTS, Py, is_float

# Modes: how a user reaches the op.
#   eager     eager call with Tensors
#   var       eager call with tf.Variable in place of every float tensor argument
#   fn        inside tf.function, traced with the inputs' static shapes
#   fn_unk    inside tf.function with input_signature of unknown dims ([None] * rank)
#   grad      d/dx reduce_sum(op(x)) under a GradientTape (watched Tensor sources)
#   grad_var  the same with tf.Variable sources
#   grad2     second derivative under two nested tapes
MODES = ("eager", "var", "fn", "fn_unk", "grad", "grad_var", "grad2")


class T:
    """A tensor keyword argument: `axis=T("i32s")` passes tf.constant(INPUTS["i32s"]).

    In positional arguments a str is an input key; in keyword arguments a str
    is a plain Python value (padding="SAME"), so tensors there need T.
    """

    __slots__ = ("key",)

    def __init__(self, key):
        self.key = key

    def __repr__(self):
        return f"T({self.key!r})"


def resolve(lib, path):
    """`lib.math.sin` for path "math.sin"; "operator.X" is Python's operator X (x + y, x[i])."""
    if path.startswith("operator."):
        import operator
        return getattr(operator, path.split(".", 1)[1])
    obj = lib
    for part in path.split("."):
        obj = getattr(obj, part)
    return obj


def leaves(case):
    """Input keys of a case's tensor arguments, in a fixed order."""
    out = []

    def walk(a, kw):
        if isinstance(a, str) and not kw:
            out.append(a)
        elif isinstance(a, T):
            out.append(a.key)
        elif isinstance(a, (list, tuple)):
            for b in a:
                walk(b, kw)

    for a in case.args:
        walk(a, False)
    for k in sorted(case.kwargs):
        walk(case.kwargs[k], True)
    return out


def rebuild(case, flat):
    """Arguments and keyword arguments with the i-th tensor leaf replaced by flat[i]."""
    it = iter(flat)

    def put(a, kw):
        if isinstance(a, T) or (isinstance(a, str) and not kw):
            return next(it)
        if isinstance(a, Py):
            return a.value
        if isinstance(a, list):
            return [put(b, kw) for b in a]
        if isinstance(a, tuple):
            return tuple(put(b, kw) for b in a)
        return a

    args = [put(a, False) for a in case.args]
    kwargs = {k: put(case.kwargs[k], True) for k in sorted(case.kwargs)}
    return args, kwargs


def float_leaf_positions(case):
    return [i for i, k in enumerate(leaves(case)) if is_float(k)]


def _dtype_of(lib, arr):
    return lib.string if arr.dtype == object else lib.as_dtype(arr.dtype)


def _encode_array(arr, dtype_name):
    arr = np.asarray(arr)
    if arr.dtype == object or arr.dtype.kind == "S":
        vals = [v.decode("latin-1") if isinstance(v, bytes) else str(v) for v in arr.ravel().tolist()]
    elif arr.dtype.kind == "c":
        vals = [[float(v.real), float(v.imag)] for v in arr.ravel().tolist()]
    elif arr.dtype.kind in "biu":
        vals = arr.ravel().tolist()
    else:
        vals = arr.astype(np.float64).ravel().tolist()
    return {"dtype": dtype_name, "shape": list(arr.shape), "v": vals}


def encode(lib, obj):
    """JSON-able description of an op's result (nested structures kept)."""
    if obj is None:
        return {"none": True}
    if type(obj).__name__ == "IndexedSlices":
        obj = lib.convert_to_tensor(obj)
    if hasattr(obj, "numpy") and hasattr(obj, "dtype"):
        return _encode_array(obj.numpy(), obj.dtype.name)
    if type(obj).__name__ == "TensorShape":
        return {"tshape": None if obj.rank is None else obj.as_list()}
    if isinstance(obj, dict):
        return {"dict": {str(k): encode(lib, obj[k]) for k in sorted(obj)}}
    if isinstance(obj, (list, tuple)):
        return {"seq": [encode(lib, o) for o in obj]}
    if isinstance(obj, (bool, int, float, complex, np.generic, np.ndarray)):
        arr = np.asarray(obj)
        return _encode_array(arr, "py:" + type(obj).__name__)
    if hasattr(obj, "name") and type(obj).__name__ == "DType":
        return {"dtype_obj": obj.name}
    return {"other": type(obj).__name__}


def _flatten_out(obj):
    """Tensors in a (possibly nested) op result."""
    if isinstance(obj, dict):
        return [t for k in sorted(obj) for t in _flatten_out(obj[k])]
    if isinstance(obj, (list, tuple)):
        return [t for o in obj for t in _flatten_out(o)]
    if hasattr(obj, "dtype") and hasattr(obj, "shape") and not isinstance(obj, np.ndarray):
        return [obj]
    return []


def _targets(lib, out):
    """reduce_sum of every real floating output: what the gradient is taken of."""
    return [lib.reduce_sum(t) for t in _flatten_out(out)
            if t.dtype.is_floating]


def _error(exc):
    msg = str(exc).strip().splitlines()
    return {"err": type(exc).__name__, "msg": msg[0][:160] if msg else ""}


def run(lib, case, mode):
    """Outcome of `case` in `mode` on `lib`: an encoded result or {"err": ClassName}."""
    fn = resolve(lib, case.fn)
    keys = leaves(case)
    floats = float_leaf_positions(case)
    try:
        if mode in ("eager", "var"):
            flat = [lib.Variable(INPUTS[k]) if mode == "var" and i in floats
                    else lib.constant(INPUTS[k]) for i, k in enumerate(keys)]
            args, kwargs = rebuild(case, flat)
            return {"out": encode(lib, fn(*args, **kwargs))}
        if mode in ("fn", "fn_unk"):
            def body(*flat):
                args, kwargs = rebuild(case, flat)
                return fn(*args, **kwargs)
            # autograph=False: the sweep is about ops, and `body` has no control flow.
            if mode == "fn":
                f = lib.function(body, autograph=False)
            else:
                sig = [lib.TensorSpec([None] * INPUTS[k].ndim, _dtype_of(lib, INPUTS[k])) for k in keys]
                f = lib.function(body, input_signature=sig, autograph=False)
            return {"out": encode(lib, f(*[lib.constant(INPUTS[k]) for k in keys]))}
        # Gradient modes.
        make = (lambda a: lib.Variable(a)) if mode == "grad_var" else (lambda a: lib.constant(a))
        flat = [make(INPUTS[k]) if i in floats else lib.constant(INPUTS[k]) for i, k in enumerate(keys)]
        sources = [flat[i] for i in floats]
        if mode in ("grad", "grad_var"):
            with lib.GradientTape() as tape:
                if mode == "grad":
                    for s in sources:
                        tape.watch(s)
                args, kwargs = rebuild(case, flat)
                ys = _targets(lib, fn(*args, **kwargs))
            return {"out": encode(lib, tape.gradient(ys, sources))}
        with lib.GradientTape() as outer:
            for s in sources:
                outer.watch(s)
            with lib.GradientTape() as inner:
                for s in sources:
                    inner.watch(s)
                args, kwargs = rebuild(case, flat)
                ys = _targets(lib, fn(*args, **kwargs))
            firsts = inner.gradient(ys, sources)
            zs = [lib.reduce_sum(lib.convert_to_tensor(g)) for g in firsts if g is not None]
        return {"out": encode(lib, outer.gradient(zs, sources) if zs else None)}
    except Exception as exc:  # every exception class is part of the contract
        return _error(exc)


def modes_for(case):
    """The modes that make sense for a case: Variable and gradient modes need float inputs."""
    has_float = bool(float_leaf_positions(case))
    has_tensor = bool(leaves(case))
    out = ["eager"]
    if has_tensor:
        out += ["fn", "fn_unk"]
    if has_float:
        out.append("var")
    if case.grad and has_float:
        out += ["grad", "grad_var"]
        if case.grad2:
            out.append("grad2")
    return [m for m in MODES if m in out]

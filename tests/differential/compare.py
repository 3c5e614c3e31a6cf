"""Compares eagerflow's outcome of a case with TensorFlow's recorded one.

Values are compared with a tolerance, never bitwise: eagerflow computes with
NumPy, TF with Eigen, and both are right to a few ulps.  NaN positions and
infinities must match exactly; dtypes, shapes and nesting must be equal;
exceptions must have the same class name (TF's errors.X against eagerflow's
errors.X, builtins by name).
"""
import math

import numpy as np

# Relative tolerance by dtype (about 100 ulps for the binary floats), gradients 4x.
RTOL = {"float64": 1e-12, "float32": 1e-5, "float16": 2e-3, "bfloat16": 1.6e-2,
        "complex128": 1e-12, "complex64": 1e-5, "py:float": 1e-12, "py:complex": 1e-12}
# Per-op looser tolerances where TF and NumPy/SciPy use different series whose
# float32 results differ by more than ~100 ulps (documented at the op).
OP_RTOL = {
    "math.lgamma": 1e-4, "math.digamma": 1e-4, "math.igamma": 1e-4, "math.igammac": 1e-4,
    "math.bessel_i0": 1e-4, "math.bessel_i0e": 1e-4, "math.bessel_i1": 1e-4,
    "math.bessel_i1e": 1e-4, "math.betainc": 1e-4, "math.polygamma": 1e-4,
    "math.lbeta": 1e-4,
}
# float64 results are compared at 1e-12 except where TF itself computes in a
# lower-accuracy series (special functions): there float64 gets 1e-9.
OP_RTOL64 = {k: 1e-9 for k in OP_RTOL}

# Exception classes TF raises from ops: anything else from eagerflow is a bug class of its own.
TF_CLASSES = {
    "InvalidArgumentError", "UnimplementedError", "NotFoundError", "OutOfRangeError",
    "FailedPreconditionError", "ResourceExhaustedError", "InternalError", "UnknownError",
    "AbortedError", "AlreadyExistsError", "CancelledError", "DataLossError",
    "DeadlineExceededError", "PermissionDeniedError", "UnauthenticatedError",
    "UnavailableError", "OpError", "TypeError", "ValueError", "NotImplementedError",
    "OperatorNotAllowedInGraphError",
}

# Mismatch categories (also the summary table's rows).
CATEGORIES = (
    "value",          # silent value difference (beyond tolerance, or NaN/inf placement)
    "dtype",          # same values, different dtype
    "shape",          # different shape or nesting
    "exc_class",      # both raise, different exception classes
    "non_tf_exc",     # eagerflow raises a class TF never raises (IndexError, ZeroDivisionError...)
    "ef_raises",      # TF returns a value, eagerflow raises a TF class
    "tf_raises",      # TF raises, eagerflow silently returns a value
    "hang",           # eagerflow did not finish (check.CASE_SECONDS)
)


def _tol(dtype, fn, grad):
    rtol = RTOL.get(dtype)
    if rtol is None:
        return None
    if dtype in ("float32", "complex64", "float16", "bfloat16") and fn in OP_RTOL:
        rtol = max(rtol, OP_RTOL[fn])
    if dtype in ("float64", "complex128") and fn in OP_RTOL64:
        rtol = max(rtol, OP_RTOL64[fn])
    return rtol * (4 if grad else 1)


_TINY = {"float64": np.finfo(np.float64).tiny, "float32": np.finfo(np.float32).tiny,
         "float16": 6.1e-5, "bfloat16": 1.2e-38}


def _close(exp, act, rtol, dtype, floor=0.0):
    """Element-wise closeness; NaNs at the same places, infinities equal.

    The absolute floor is rtol times the result's scale (capped at 1) plus the
    smallest normal number, so flushed denormals and cancellation to ~0 pass.
    """
    e = np.asarray(exp, np.float64)
    a = np.asarray(act, np.float64)
    if e.shape != a.shape:
        return False
    if not np.array_equal(np.isnan(e), np.isnan(a)):
        return False
    inf = np.isinf(e) | np.isinf(a)
    if not np.array_equal(e[inf], a[inf]):
        return False
    fin = ~(np.isnan(e) | inf)
    if not fin.any():
        return True
    scale = max(min(float(np.max(np.abs(e[fin]))), 1.0), floor)
    atol = rtol * scale + _TINY.get(dtype.replace("complex128", "float64").replace("complex64", "float32"), 0.0)
    return bool(np.all(np.abs(e[fin] - a[fin]) <= rtol * np.abs(e[fin]) + atol))


def _values_equal(exp, act, fn, grad):
    """None when equal, else (category, detail)."""
    keys_e, keys_a = set(exp), set(act)
    if keys_e != keys_a:
        return "shape", f"expected {_short(exp)}, got {_short(act)}"
    if "none" in exp:
        return None
    if "seq" in exp:
        if len(exp["seq"]) != len(act["seq"]):
            return "shape", f"expected {len(exp['seq'])} outputs, got {len(act['seq'])}"
        for i, (e, a) in enumerate(zip(exp["seq"], act["seq"])):
            r = _values_equal(e, a, fn, grad)
            if r:
                return r[0], f"[{i}] {r[1]}"
        return None
    if "dict" in exp:
        if set(exp["dict"]) != set(act["dict"]):
            return "shape", f"keys {sorted(exp['dict'])} vs {sorted(act['dict'])}"
        for k in exp["dict"]:
            r = _values_equal(exp["dict"][k], act["dict"][k], fn, grad)
            if r:
                return r[0], f"[{k}] {r[1]}"
        return None
    if "dtype" not in exp:
        return None if exp == act else ("value", f"expected {exp}, got {act}")
    if exp["shape"] != act["shape"]:
        return "shape", f"shape {exp['shape']} vs {act['shape']}"
    if exp["dtype"] != act["dtype"]:
        return "dtype", f"dtype {exp['dtype']} vs {act['dtype']}"
    ev, av = exp["v"], act["v"]
    rtol = _tol(exp["dtype"], fn, grad)
    if rtol is None:
        ok = ev == av
    elif exp["dtype"].startswith(("complex", "py:complex")):
        ok = (_close([v[0] for v in ev], [v[0] for v in av], rtol, exp["dtype"])
              and _close([v[1] for v in ev], [v[1] for v in av], rtol, exp["dtype"]))
    else:
        # Gradients are sums over O(1) inputs: an absolute floor of rtol keeps
        # exact zeros computed as 1e-8 round-off from counting as differences.
        ok = _close(ev, av, rtol, exp["dtype"], 1.0 if grad else 0.0)
    if ok:
        return None
    return "value", f"{exp['dtype']}{exp['shape']} expected {_short(ev)}, got {_short(av)}"


def _short(x, n=120):
    s = repr(x)
    return s if len(s) <= n else s[:n] + "..."


# Outputs defined only up to the sign of each column (eigenvectors, singular
# vectors): op -> indices of such outputs.  LAPACK and Eigen pick different signs.
SIGN_FREE = {"linalg.eigh": (1,), "linalg.svd": (1, 2)}


def _fix_signs(enc):
    """Flip each column so its largest-magnitude entry is positive."""
    if "dtype" not in enc or not enc["dtype"].startswith("float") or len(enc["shape"]) < 2:
        return enc
    a = np.array(enc["v"], np.float64).reshape(enc["shape"])
    if a.size:
        idx = np.argmax(np.abs(np.nan_to_num(a)), axis=-2)[..., None, :]
        sign = np.sign(np.take_along_axis(a, idx, axis=-2))
        a = a * np.where(sign == 0, 1.0, sign)
    return dict(enc, v=a.ravel().tolist())


def _normalize(fn, enc):
    if fn in SIGN_FREE and "seq" in enc:
        seq = [(_fix_signs(e) if i in SIGN_FREE[fn] else e) for i, e in enumerate(enc["seq"])]
        return dict(enc, seq=seq)
    return enc


def compare(expected, actual, fn, mode):
    """None when eagerflow's outcome matches TF's, else (category, detail)."""
    grad = mode.startswith("grad")
    e_err, a_err = expected.get("err"), actual.get("err")
    if e_err and a_err:
        if e_err == a_err:
            return None
        if a_err not in TF_CLASSES:
            return "non_tf_exc", f"TF {e_err}, eagerflow {a_err}: {actual.get('msg', '')}"
        return "exc_class", f"TF {e_err}: {expected.get('msg', '')} | eagerflow {a_err}: {actual.get('msg', '')}"
    if a_err:
        cat = "ef_raises" if a_err in TF_CLASSES else "non_tf_exc"
        return cat, f"TF returns, eagerflow {a_err}: {actual.get('msg', '')}"
    if e_err:
        return "tf_raises", f"TF {e_err}: {expected.get('msg', '')} | eagerflow returns {_short(actual['out'])}"
    return _values_equal(_normalize(fn, expected["out"]), _normalize(fn, actual["out"]), fn, grad)

"""The case table: for each public op, a few argument sets built by op family.

A case is plain data: the op's dotted public path, its arguments (input keys
from inputs.INPUTS for tensors, Py(...) for raw Python values, T(...) for
tensor keyword arguments) and whether gradients are compared.  Argument sets
deliberately include the inputs users hit by accident: empty shapes,
non-finite and extreme values, Python lists and scalars, wrong dtypes and
ranks.  Case ids are "<op path>:<argument set name>".
"""
from collections import namedtuple

from . import cases_array, cases_more
from .harness import T
from .inputs import Py

Case = namedtuple("Case", "id fn args kwargs grad grad2 family")

_CASES = {}


def add(fn, name, *args, family, grad=False, grad2=False, **kwargs):
    """Add one case; later additions with the same id are a table error."""
    cid = f"{fn}:{name}"
    assert cid not in _CASES, cid
    _CASES[cid] = Case(cid, fn, list(args), kwargs, grad, grad2, family)


def _in(namespaces, names):
    """Dotted paths of `names` in each namespace ("" is the top level)."""
    return [f"{ns}.{n}" if ns else n for ns in namespaces for n in names]


# ---------------------------------------------------------------- unary elementwise
# Each op gets argument sets for its natural domain plus the accident inputs.
# domain: which normal input suits it ("f32" any real, "f32pos" > 0, "f32unit" |x| < 1).
UNARY_FLOAT = {
    # name: (namespaces, domain, differentiable, second derivative compared)
    "abs": (["", "math"], "f32", True, True),
    "negative": (["", "math"], "f32", True, False),
    "sign": (["", "math"], "f32", True, False),
    "square": (["", "math"], "f32", True, True),
    "sqrt": (["", "math"], "f32pos", True, True),
    "rsqrt": (["math"], "f32pos", True, True),
    "exp": (["", "math"], "f32", True, True),
    "expm1": (["math"], "f32", True, True),
    "log": (["math"], "f32pos", True, True),
    "log1p": (["math"], "f32pos", True, True),
    "reciprocal": (["math"], "f32", True, True),
    "reciprocal_no_nan": (["math"], "f32", True, False),
    "sin": (["", "math"], "f32", True, True),
    "cos": (["", "math"], "f32", True, True),
    "tan": (["", "math"], "f32", True, True),
    "asin": (["", "math"], "f32unit", True, True),
    "acos": (["", "math"], "f32unit", True, True),
    "atan": (["", "math"], "f32", True, True),
    "sinh": (["", "math"], "f32", True, True),
    "cosh": (["", "math"], "f32", True, True),
    "tanh": (["", "math", "nn"], "f32", True, True),
    "asinh": (["", "math"], "f32", True, True),
    "acosh": (["", "math"], "f32pos", True, True),
    "atanh": (["", "math"], "f32unit", True, True),
    "sigmoid": (["", "math", "nn"], "f32", True, True),
    "log_sigmoid": (["math"], "f32", True, True),
    "softplus": (["math", "nn"], "f32", True, True),
    "softsign": (["math", "nn"], "f32", True, True),
    "floor": (["", "math"], "f32", True, False),
    "ceil": (["math"], "f32", True, False),
    "round": (["", "math"], "f32", True, False),
    "rint": (["math"], "f32", True, False),
    "erf": (["math"], "f32", True, True),
    "erfc": (["math"], "f32", True, True),
    "lgamma": (["math"], "f32pos", True, True),
    "digamma": (["math"], "f32pos", True, False),
    "bessel_i0": (["math"], "f32", True, False),
    "bessel_i0e": (["math"], "f32", True, False),
    "bessel_i1": (["math"], "f32", True, False),
    "bessel_i1e": (["math"], "f32", True, False),
    "relu": (["nn"], "f32", True, False),
    "relu6": (["nn"], "f32", True, False),
    "elu": (["nn"], "f32", True, True),
    "selu": (["nn"], "f32", True, True),
    "gelu": (["nn"], "f32", True, True),
    "silu": (["nn"], "f32", True, True),
    "swish": (["nn"], "f32", True, False),
    "leaky_relu": (["nn"], "f32", True, False),
    "crelu": (["nn"], "f32", True, False),
    "is_finite": (["math"], "f32", False, False),
    "is_inf": (["math"], "f32", False, False),
    "is_nan": (["math"], "f32", False, False),
}

# Argument sets for a unary float op, derived from its domain.  The domain set
# and its float64 twin are differentiated; the accident inputs only compared.
def _unary_sets(domain):
    f64 = domain.replace("f32", "f64")
    return [
        (domain, [domain], True),
        ("f64", [f64], True),
        ("f16", ["f16pos" if domain == "f32pos" else "f16"], False),
        ("bf16", ["bf16pos" if domain == "f32pos" else "bf16"], False),
        ("nonfinite", ["f32nf"], True),
        ("nonfinite64", ["f64nf"], False),
        ("extreme", ["f32ex"], False),
        ("extreme64", ["f64ex"], False),
        ("denormal", ["f32den"], False),
        ("denormal64", ["f64den"], False),
        ("empty", ["f32e0"], True),
        ("empty03", ["f32e03"], False),
        ("scalar", ["f32s"], True),
        ("pylist", [Py([0.5, 1.0, 2.0])], False),
        ("pyscalar", [Py(0.5)], False),
        ("int32", ["i32"], False),
        ("string", ["str"], False),
    ]


for _name, (_nss, _dom, _grad, _grad2) in UNARY_FLOAT.items():
    for _path in _in(_nss, [_name]):
        for _set, _args, _g in _unary_sets(_dom):
            add(_path, _set, *_args, family="unary", grad=_grad and _g, grad2=_grad2 and _g)

# ---------------------------------------------------------------- binary elementwise
BINARY = {
    # name: (namespaces, differentiable, second operand has no zeros needed)
    "add": (["", "math"], True),
    "subtract": (["", "math"], True),
    "multiply": (["", "math"], True),
    "divide": (["", "math"], True),
    "truediv": (["", "math"], True),
    "realdiv": ([""], True),
    "floordiv": (["math"], False),
    "floormod": (["math"], False),
    "mod": (["math"], False),
    "truncatediv": ([""], False),
    "truncatemod": ([""], False),
    "maximum": (["", "math"], True),
    "minimum": (["", "math"], True),
    "pow": (["", "math"], True),
    "atan2": (["", "math"], True),
    "squared_difference": (["math"], True),
    "xdivy": (["math"], True),
    "xlogy": (["math"], True),
    "xlog1py": (["math"], True),
    "divide_no_nan": (["math"], True),
    "multiply_no_nan": (["math"], True),
    "equal": (["", "math"], False),
    "not_equal": (["", "math"], False),
    "less": (["", "math"], False),
    "less_equal": (["", "math"], False),
    "greater": (["", "math"], False),
    "greater_equal": (["", "math"], False),
    "igamma": (["math"], False),
    "igammac": (["math"], False),
}


def _binary_sets():
    return [
        ("same", ["f32", "f32b"], True),
        ("pos", ["f32pos", "f32pos"], True),
        ("bcast_row", ["f32", "f32row"], True),
        ("bcast_col", ["f32col", "f32row"], True),
        ("scalar", ["f32", "f32s"], True),
        ("f64", ["f64", "f64b"], True),
        ("f16", ["f16", "f16pos"], False),
        ("bf16", ["bf16", "bf16pos"], False),
        ("nonfinite", ["f32nf", "f32nfb"], True),
        ("extreme", ["f32ex", "f32exb"], False),
        ("denormal", ["f32den", "f32denb"], False),
        ("empty", ["f32e0", "f32e0"], True),
        ("empty_bcast", ["f32e03", "f32row"], True),
        ("pylist", ["f32", Py([1.0, 2.0, 3.0])], False),
        ("pyscalar", ["f32", Py(2)], False),
        ("pyint_first", [Py(3), "f32"], False),
        ("int32", ["i32", "i32b"], False),
        ("int32_zero", ["i32", "i32z"], False),
        ("int32_extreme", ["i32ex", "i32exb"], False),
        ("int64_extreme", ["i64ex", "i64ex"], False),
        ("uint8", ["u8", "u8b"], False),
        ("mixed_dtype", ["f32", "i32"], False),
        ("bad_shape", ["f32", "f32two"], False),
        ("string", ["str", "str"], False),
    ]


for _name, (_nss, _grad) in BINARY.items():
    for _path in _in(_nss, [_name]):
        for _set, _args, _g in _binary_sets():
            add(_path, _set, *_args, family="binary", grad=_grad and _g,
                grad2=_grad and _g and _set in ("same", "pos", "bcast_row"))


def add_in(namespaces, name, setname, *args, family, **kw):
    """The same case under each namespace where the op is public."""
    for path in _in(namespaces, [name]):
        add(path, setname, *args, family=family, **kw)


# ---------------------------------------------------------------- reductions
REDUCTIONS = {
    # name: (namespaces, differentiable, takes keepdims)
    "reduce_sum": (["", "math"], True, True),
    "reduce_mean": (["", "math"], True, True),
    "reduce_max": (["", "math"], True, True),
    "reduce_min": (["", "math"], True, True),
    "reduce_prod": (["", "math"], True, True),
    "reduce_logsumexp": (["", "math"], True, True),
    "reduce_std": (["math"], True, True),
    "reduce_variance": (["math"], True, True),
    "reduce_euclidean_norm": (["math"], True, True),
    "reduce_all": (["", "math"], False, True),
    "reduce_any": (["", "math"], False, True),
    "count_nonzero": (["math"], False, True),
    "argmax": (["", "math"], False, False),
    "argmin": (["", "math"], False, False),
}


def _reduction_sets(keepdims):
    keep = {"keepdims": True} if keepdims else {}
    return [
        ("all", ["f32"], {}, True),
        ("axis0", ["f32"], {"axis": 0}, True),
        ("axis1_keep", ["f32"], dict(axis=1, **keep), True),
        ("axis_neg", ["f32r3"], {"axis": -1}, True),
        ("axis_list", ["f32r3"], {"axis": [0, 2]}, True),
        ("axis_tensor", ["f32r3"], {"axis": T("i32s")}, True),
        ("axis_oob", ["f32"], {"axis": 2}, False),
        ("f64", ["f64"], {"axis": 0}, True),
        ("f16", ["f16"], {"axis": 1}, False),
        ("bf16", ["bf16"], {"axis": 1}, False),
        ("nonfinite", ["f32nf"], {}, True),
        ("extreme", ["f32ex"], {}, False),
        ("denormal", ["f32den"], {}, False),
        ("empty", ["f32e0"], {}, True),
        ("empty03_axis0", ["f32e03"], {"axis": 0}, True),
        ("empty03_axis1", ["f32e03"], {"axis": 1}, False),
        ("int32", ["i32"], {"axis": 0}, False),
        ("int32_extreme", ["i32ex"], {}, False),
        ("bool", ["bool"], {"axis": 1}, False),
        ("pylist", [Py([[1.0, 2.0], [3.0, -4.0]])], {}, False),
        ("string", ["str"], {}, False),
    ]


for _name, (_nss, _grad, _keep) in REDUCTIONS.items():
    for _set, _args, _kw, _g in _reduction_sets(_keep):
        add_in(_nss, _name, _set, *_args, family="reduction", grad=_grad and _g,
               grad2=_grad and _g and _set in ("all", "axis1_keep"), **_kw)

# Reduction-like ops with their own signatures.
for _ns in (["math"], ["nn"]):
    for _set, _a in [("f32", "f32"), ("nonfinite", "f32nf"), ("empty", "f32e0"), ("int32", "i32")]:
        add_in(_ns, "zero_fraction", _set, _a, family="reduction")
for _set, _a, _g in [("f32", "f32", True), ("f64", "f64", True), ("nonfinite", "f32nf", True),
                     ("empty", "f32e0", True), ("int32", "i32", False), ("extreme", "f32ex", False)]:
    add("nn.l2_loss", _set, _a, family="reduction", grad=_g)
    add("math.lbeta", _set, _a.replace("f32", "f32pos") if _a in ("f32",) else _a,
        family="reduction", grad=_g)
for _name in ("is_non_decreasing", "is_strictly_increasing"):
    for _set, _a in [("f32v", "f32v"), ("sorted", "v3b"), ("int32", "i32v"), ("empty", "f32e0"),
                     ("nonfinite", "f32nf"), ("string", "str")]:
        add("math." + _name, _set, _a, family="reduction")
for _ns in ("", "linalg"):
    _p = f"{_ns}.norm" if _ns else "norm"
    for _set, _args, _kw, _g in [
            ("f32", ["f32"], {}, True), ("axis0", ["f32"], {"axis": 0}, True),
            ("ord1", ["f32"], {"ord": 1}, True), ("ord_inf_axis1", ["f32"], {"ord": float("inf"), "axis": 1}, True),
            ("fro_matrix", ["m33"], {"ord": "fro", "axis": [0, 1]}, True),
            ("ord1_matrix", ["m33"], {"ord": 1, "axis": [0, 1]}, True),
            ("keepdims", ["f32r3"], {"axis": 2, "keepdims": True}, True),
            ("bad_ord", ["f32"], {"ord": 3, "axis": [0, 1]}, False),
            ("f64", ["f64"], {}, True), ("nonfinite", ["f32nf"], {}, True),
            ("extreme", ["f32ex"], {}, False), ("empty", ["f32e0"], {}, True),
            ("int32", ["i32"], {}, False), ("pylist", [Py([3.0, 4.0])], {}, False)]:
        add(_p, _set, *_args, family="reduction", grad=_g, **_kw)
for _set, _args, _g in [("two", [["f32", "f32row"]], True), ("f64", [["f64"]], True),
                        ("nonfinite", [["f32nf"]], True), ("empty_list", [Py([])], False),
                        ("empty_tensor", [["f32e0"]], True), ("int32", [["i32"]], False)]:
    add("linalg.global_norm", _set, *_args, family="reduction", grad=_g)

# ---------------------------------------------------------------- scans and normalizations
SCANS = {"cumsum": ["", "math"], "cumprod": ["math"], "cumulative_logsumexp": ["math"]}
for _name, _nss in SCANS.items():
    for _set, _args, _kw, _g in [
            ("f32", ["f32"], {}, True), ("axis1", ["f32"], {"axis": 1}, True),
            ("exclusive", ["f32"], {"exclusive": True}, True), ("reverse", ["f32"], {"reverse": True, "axis": 1}, True),
            ("exclusive_reverse", ["f32r3"], {"exclusive": True, "reverse": True, "axis": -1}, True),
            ("axis_tensor", ["f32"], {"axis": T("i32s")}, False),
            ("axis_oob", ["f32"], {"axis": 2}, False), ("f64", ["f64"], {}, True),
            ("nonfinite", ["f32nf"], {}, True), ("extreme", ["f32ex"], {}, False),
            ("empty", ["f32e0"], {}, True), ("empty03", ["f32e03"], {"axis": 1}, True),
            ("int32", ["i32"], {}, False), ("pylist", [Py([1.0, 2.0, 3.0])], {}, False),
            ("scalar", ["f32s"], {}, False), ("string", ["str"], {}, False)]:
        add_in(_nss, _name, _set, *_args, family="scan", grad=_g, grad2=_g and _set == "f32", **_kw)

NORMALIZING = {"softmax": ["math", "nn"], "log_softmax": ["math", "nn"],
               "l2_normalize": ["math", "nn", "linalg"]}
for _name, _nss in NORMALIZING.items():
    for _set, _args, _kw, _g in [
            ("f32", ["f32"], {}, True), ("axis0", ["f32"], {"axis": 0}, True),
            ("f64", ["f64"], {}, True), ("f16", ["f16"], {}, False), ("bf16", ["bf16"], {}, False),
            ("nonfinite", ["f32nf"], {}, True), ("extreme", ["f32ex"], {}, False),
            ("empty", ["f32e0"], {}, True), ("empty03", ["f32e03"], {}, True),
            ("rank3", ["f32r3"], {"axis": 1}, True), ("axis_oob", ["f32"], {"axis": 3}, False),
            ("int32", ["i32"], {}, False), ("pylist", [Py([1.0, 2.0, 3.0])], {}, False),
            ("scalar", ["f32s"], {}, False)]:
        add_in(_nss, _name, _set, *_args, family="normalize", grad=_g, grad2=_g and _set == "f32", **_kw)
for _set, _args, _kw, _g in [("f32", ["f32"], {}, True), ("axis1", ["f32"], {"axis": 1}, True),
                             ("ord1", ["f32"], {"ord": 1, "axis": 0}, True), ("nonfinite", ["f32nf"], {}, False),
                             ("empty", ["f32e0"], {}, False), ("int32", ["i32"], {}, False)]:
    add("linalg.normalize", _set, *_args, family="normalize", grad=_g, **_kw)


# Row-table cases whose second derivative is compared too (nested tapes
# through matrix, convolution, pooling, indexing and loss gradients).
GRAD2 = {
    ("linalg.det", "m33"), ("linalg.inv", "m33"), ("linalg.slogdet", "spd"), ("linalg.logdet", "spd"),
    ("linalg.cholesky", "spd"), ("linalg.eigvalsh", "spd"), ("linalg.trace", "m33"),
    ("linalg.pinv", "m33"), ("linalg.solve", "f32"), ("matmul", "f32"), ("einsum", "matmul"),
    ("tensordot", "axes1"), ("nn.conv2d", "valid"), ("nn.max_pool2d", "valid"),
    ("nn.avg_pool2d", "valid"), ("gather", "f32"), ("operator.getitem", "slice"),
    ("concat", "axis0"), ("nn.softmax_cross_entropy_with_logits", "f32"),
    ("nn.sparse_softmax_cross_entropy_with_logits", "f32"), ("nn.batch_normalization", "none_offsets"),
    ("clip_by_norm", "f32"), ("norm", "f32"), ("nn.moments", "axis0"), ("where", "select"),
}


def _add_rows(rows, family):
    for nss, name, setname, args, kwargs, grad in rows:
        for path in _in(nss, [name]):
            fam = family or (path.split(".")[0] if "." in path else "top")
            add(path, setname, *args, family=fam, grad=grad,
                grad2=grad and (path, setname) in GRAD2, **kwargs)


_add_rows(cases_array.ROWS, "array")
_add_rows(cases_more.ROWS, None)  # family: the namespace


def all_cases():
    """Every case, in table order."""
    return list(_CASES.values())

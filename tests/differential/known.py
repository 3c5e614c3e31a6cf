"""Known differences from TensorFlow, each an xfail(strict=True) in test_differential.

Keys are fnmatch patterns over "case_id@mode" (or over the case id alone,
meaning every mode).  A fix that makes a listed case pass makes its test
fail as XPASS, so the entry must then be removed.  TF_WRONG lists the cases
where TF itself is wrong and eagerflow deliberately differs; they are skipped,
not compared.
"""

KNOWN = {
}

TF_WRONG = {
}

# Public functions of both libraries that are not swept, with the reason.
_MACHINERY = "API machinery, not an op on tensors: tested in tests/function, tests/autodiff, tests/core"
_STATEFUL = ("stateful random: values depend on the global seed and op counters; "
             "streams are compared in tests/ops/test_random_ops.py")
NOT_SWEPT = {
    "broadcast_static_shape": "takes TensorShape objects, no tensors: tested in tests/core/test_tensor_shape.py",
    "case": "control flow taking (predicate, callable) pairs: tested in tests/graph/test_control_flow.py",
    "custom_gradient": _MACHINERY,
    "device": _MACHINERY,
    "function": _MACHINERY,
    "grad_pass_through": _MACHINERY,
    "gradients": _MACHINERY,
    "init_scope": _MACHINERY,
    "print": "writes to stderr, returns nothing: tested in tests/ops/test_logging_ops.py",
    "recompute_grad": _MACHINERY,
    "register_tensor_conversion_function": _MACHINERY,
    "random.categorical": _STATEFUL,
    "random.gamma": _STATEFUL,
    "random.normal": _STATEFUL,
    "random.poisson": _STATEFUL,
    "random.shuffle": _STATEFUL,
    "random.truncated_normal": _STATEFUL,
    "random.uniform": _STATEFUL,
    "random.get_global_generator": _MACHINERY,
    "random.set_global_generator": _MACHINERY,
    "random.set_seed": _MACHINERY,
}

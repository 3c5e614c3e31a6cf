"""Dtype policies (``tf.keras.mixed_precision``): the dtype a layer computes in and the
dtype of its weights.

>>> p = tf.keras.mixed_precision.Policy("mixed_float16")
>>> p.compute_dtype, p.variable_dtype
('float16', 'float32')
"""
from eagerflow._src.backend import log as _log
from eagerflow._src.backend.api_export import export
from eagerflow._src.core import dtypes as _dtypes
from eagerflow._src.keras import backend

_MIXED = {"mixed_float16": "float16", "mixed_bfloat16": "bfloat16"}
_global_policy = None
_compatibility_checked = False


def _log_device_compatibility_check(name):
    """tf_keras's one-time warning, on the first mixed policy, that float16 runs slowly on a
    machine without a GPU (every machine eagerflow runs on)."""
    global _compatibility_checked
    if _compatibility_checked:
        return
    _compatibility_checked = True
    if name == "mixed_float16":
        _log.logger.warning(
            "Mixed precision compatibility check (mixed_float16): WARNING\nThe dtype policy "
            "mixed_float16 may run slowly because this machine does not have a GPU. Only "
            "Nvidia GPUs with compute capability of at least 7.0 run quickly with "
            "mixed_float16.\nIf you will use compatible GPU(s) not attached to this host, "
            "e.g. by running a multi-worker model, you can ignore this warning. This message "
            "will only be logged once")


@export("keras.mixed_precision.Policy")
class Policy:
    """A named pair of compute and variable dtypes: a dtype name, ``'mixed_float16'`` or
    ``'mixed_bfloat16'``."""

    def __init__(self, name):
        if isinstance(name, _dtypes.DType):
            raise TypeError(f"'name' must be a string, not a DType. Instead, pass "
                            f"DType.name. Received: name={name.name}")
        if not isinstance(name, str):
            raise TypeError(f"'name' must be a string, but got: {name}")
        self._name = name
        if name in _MIXED:
            self._compute, self._variable = _MIXED[name], "float32"
            _log_device_compatibility_check(name)
        elif name == "_infer":
            self._compute = self._variable = None
        else:
            try:
                dtype = _dtypes.as_dtype(name).name
            except TypeError:
                raise ValueError(f"Cannot convert value {name} to a mixed precision Policy. "
                                 f"Valid policies include 'mixed_float16', 'mixed_bfloat16', "
                                 f"and the name of any dtype such as 'float32'.") from None
            self._compute = self._variable = dtype

    name = property(lambda self: self._name)
    compute_dtype = property(lambda self: self._compute)
    variable_dtype = property(lambda self: self._variable)

    def __repr__(self):
        return f'<Policy "{self._name}">'

    def get_config(self):
        return {"name": self._name}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        return cls(**config)


@export("keras.mixed_precision.global_policy")
def global_policy():
    """The policy new layers get: the one set by `set_global_policy`, else `floatx()` (or,
    with TF 1's dtype behaviour, ``'_infer'``: the dtype of a layer's first input)."""
    if _global_policy is not None:
        return _global_policy
    return Policy(backend.floatx() if _v2_dtype_behavior else "_infer")


_v2_dtype_behavior = True


@export("compat.v1.keras.layers.enable_v2_dtype_behavior")
def enable_v2_dtype_behavior():
    """Layers made from now on default to the global policy and cast their inputs to it."""
    global _v2_dtype_behavior
    _v2_dtype_behavior = True


@export("compat.v1.keras.layers.disable_v2_dtype_behavior")
def disable_v2_dtype_behavior():
    """TF 1's dtype behaviour for layers made from now on: without a dtype, a layer takes
    its first input's, and inputs are not cast.

    >>> tf.compat.v1.keras.layers.disable_v2_dtype_behavior()
    >>> tf.keras.layers.Dense(2)(tf.ones((1, 3), tf.float64)).dtype
    tf.float64
    >>> tf.compat.v1.keras.layers.enable_v2_dtype_behavior()
    """
    global _v2_dtype_behavior
    _v2_dtype_behavior = False


def v2_dtype_behavior_enabled():
    return _v2_dtype_behavior


@export("keras.mixed_precision.set_global_policy")
def set_global_policy(policy):
    """Sets the policy of layers created from now on (a `Policy`, a name, or None to reset)."""
    global _global_policy
    if policy is not None and not isinstance(policy, Policy):
        policy = Policy(policy)
    if policy is not None and policy.compute_dtype is not None and \
            not _dtypes.as_dtype(policy.compute_dtype).is_floating:
        raise ValueError(f"set_global_policy can only be used to set the global policy to "
                         f"floating-point policies, such as \"float32\" and \"mixed_float16\", "
                         f"but got policy: {policy.name}")
    _global_policy = policy


def get(identifier):
    """A `Policy` from a policy, a dtype (name) or a serialized policy; None: the global one."""
    if identifier is None:
        return global_policy()
    if isinstance(identifier, Policy):
        return identifier
    if isinstance(identifier, dict):
        return Policy.from_config(identifier["config"])
    if isinstance(identifier, str) and identifier in _MIXED:
        return Policy(identifier)
    # (any other name is a dtype's: an unknown one is the dtype conversion's TypeError)
    return Policy(_dtypes.as_dtype(identifier).name)


def serialize(policy):
    """A plain policy as its dtype name; a mixed one as a config dict (as layer configs hold);
    None for ``'_infer'``."""
    if policy.name == "_infer":
        return None
    if policy.name not in _MIXED:
        return policy.name
    return {"module": "keras.mixed_precision", "class_name": "Policy",
            "config": policy.get_config(), "registered_name": None}

"""``tf.compat.v1.keras.initializers``: Keras 2's TF 1 initializers, TF 1's classes (the
ops and seeds of ``tf.compat.v1.random_normal_initializer`` and kin), with Keras's defaults
(a standard deviation, or bounds, of 0.05) where they differ.

>>> init = tf.compat.v1.keras.initializers.RandomNormal(seed=1)
>>> init([2]).shape, init.stddev
(TensorShape([2]), 0.05)
"""
from eagerflow._src.backend.api_export import export
# (variable_scope first: init_ops_v1, which it imports, can't be the first of their cycle)
from eagerflow._src.compat import variable_scope  # noqa: F401
from eagerflow._src.compat import init_ops_v1 as _v1
from eagerflow._src.core import dtypes as _d

_NS = "compat.v1.keras.initializers"


@export(f"{_NS}.RandomNormal", f"{_NS}.normal", f"{_NS}.random_normal")
class RandomNormal(_v1.RandomNormal):
    """Normal values of mean `mean` and standard deviation `stddev` (0.05)."""

    def __init__(self, mean=0.0, stddev=0.05, seed=None, dtype=_d.float32):
        super().__init__(mean=mean, stddev=stddev, seed=seed, dtype=dtype)


@export(f"{_NS}.RandomUniform", f"{_NS}.uniform", f"{_NS}.random_uniform")
class RandomUniform(_v1.RandomUniform):
    """Uniform values in ``[minval, maxval)`` (``[-0.05, 0.05)``)."""

    def __init__(self, minval=-0.05, maxval=0.05, seed=None, dtype=_d.float32):
        super().__init__(minval=minval, maxval=maxval, seed=seed, dtype=dtype)


@export(f"{_NS}.TruncatedNormal", f"{_NS}.truncated_normal")
class TruncatedNormal(_v1.TruncatedNormal):
    """Normal values within two standard deviations (0.05) of `mean`."""

    def __init__(self, mean=0.0, stddev=0.05, seed=None, dtype=_d.float32):
        super().__init__(mean=mean, stddev=stddev, seed=seed, dtype=dtype)


def _scaling(name, scale, distribution):
    def __init__(self, seed=None):
        _v1.VarianceScaling.__init__(self, scale, "fan_in", distribution, seed)

    def get_config(self):
        return {"seed": self.seed}
    return type(name, (_v1.VarianceScaling,), {
        "__init__": __init__, "get_config": get_config, "__module__": __name__,
        "__doc__": f"Variance scaling of scale {scale} by the fan-in ({distribution})."})


LecunNormal = export(f"{_NS}.lecun_normal")(_scaling("LecunNormal", 1.0, "truncated_normal"))
LecunUniform = export(f"{_NS}.lecun_uniform")(_scaling("LecunUniform", 1.0, "uniform"))
HeNormal = export(f"{_NS}.he_normal")(_scaling("HeNormal", 2.0, "truncated_normal"))
HeUniform = export(f"{_NS}.he_uniform")(_scaling("HeUniform", 2.0, "uniform"))

# (TF 1's own classes under their Keras names)
for _attr, _names in (("Constant", ("Constant", "constant")),
                      ("Identity", ("Identity", "identity")),
                      ("Ones", ("Ones", "ones")),
                      ("Zeros", ("Zeros", "zeros")),
                      ("Orthogonal", ("Orthogonal", "orthogonal")),
                      ("VarianceScaling", ("VarianceScaling",)),
                      ("GlorotNormal", ("glorot_normal",)),
                      ("GlorotUniform", ("glorot_uniform",))):
    export(*(f"{_NS}.{n}" for n in _names)).export_constant(_v1.__name__, _attr)
del _attr, _names

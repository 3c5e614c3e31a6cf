"""The public functions whose signatures tests/core/test_signatures.py compares with TF's
(recorded by data/make_signatures_data.py), and how a signature is written down."""
import inspect

# Functions whose parameters callers pass by TF's names or positions.
NAMES = [
    "nn.relu", "nn.relu6", "nn.elu", "nn.selu", "nn.softsign", "nn.softplus",
    "math.softplus", "math.softsign", "math.igamma", "math.igammac", "math.polygamma",
    "compat.v1.nn.relu", "compat.v1.igamma",
    "keras.backend.pow", "keras.backend.softplus", "keras.backend.softsign",
    "keras.backend.zeros_like", "keras.backend.ones_like", "keras.backend.gather",
    "keras.backend.reshape", "keras.backend.transpose",
]


def _default(value):
    """A plain Python default as it is; any other object as its type's name."""
    if value is inspect.Parameter.empty:
        return "<required>"
    if value is None or type(value) in (bool, int, float, str):
        return value
    return f"<{type(value).__name__}>"


def signature(fn):
    """[[name, kind, default], ...] of `fn`'s parameters, in order."""
    return [[p.name, p.kind.name, _default(p.default)]
            for p in inspect.signature(fn).parameters.values()]


def public(module, path):
    """The object at `path` ("nn.relu") of `module` (tf)."""
    for part in path.split("."):
        module = getattr(module, part)
    return module

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
    "convert_to_tensor", "debugging.assert_none_equal", "strings.to_hash_bucket",
    # TF 1 takes `name` before the arguments TF 2 moved in front of it
    "compat.v1.convert_to_tensor", "compat.v1.transpose", "compat.v1.gather",
    "compat.v1.gather_nd", "compat.v1.manip.gather_nd", "compat.v1.pad",
    "compat.v1.boolean_mask", "compat.v1.shape", "compat.v1.size", "compat.v1.zeros_like",
    "compat.v1.ones_like", "compat.v1.norm", "compat.v1.linalg.norm",
    "compat.v1.reverse_sequence", "compat.v1.strings.length", "compat.v1.parse_example",
    "compat.v1.io.parse_example", "compat.v1.parse_single_example",
    "compat.v1.io.parse_single_example", "compat.v1.serialize_sparse",
    "compat.v1.io.serialize_sparse", "compat.v1.serialize_many_sparse",
    "compat.v1.io.serialize_many_sparse", "compat.v1.decode_csv", "compat.v1.io.decode_csv",
    "compat.v1.hessians", "compat.v1.tuple", "compat.v1.io.decode_raw",
    "compat.v1.strings.to_hash_bucket", "compat.v1.strings.to_number",
    "compat.v1.string_to_number", "compat.v1.strings.substr", "compat.v1.strings.reduce_join",
    "compat.v1.random.poisson", "compat.v1.layers.conv1d", "compat.v1.layers.conv2d",
    "compat.v1.layers.conv3d", "compat.v1.layers.conv2d_transpose",
    "compat.v1.layers.conv3d_transpose", "compat.v1.layers.separable_conv1d",
    "compat.v1.layers.separable_conv2d", "data.Dataset.map", "data.Dataset.load",
    "constant_initializer", "compat.v1.initializers.identity", "keras.layers.InputSpec",
    "Graph.get_collection", "Graph.get_collection_ref", "keras.utils.serialize_keras_object",
    "keras.utils.deserialize_keras_object", "keras.saving.serialize_keras_object",
    "keras.saving.deserialize_keras_object",
    *(f"keras.optimizers.{name}" for name in (
        "Adadelta", "Adafactor", "Adagrad", "Adam", "AdamW", "Adamax", "Ftrl", "Lion", "Nadam",
        "RMSprop", "SGD")),
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

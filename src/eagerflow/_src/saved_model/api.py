"""``tf.saved_model``: objects with their functions and variables, written and read in
TensorFlow's SavedModel format.

>>> import os, tempfile
>>> class Scale(tf.Module):
...     def __init__(self):
...         super().__init__()
...         self.k = tf.Variable(3.0)
...     @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
...     def __call__(self, x):
...         return x * self.k
>>> path = os.path.join(tempfile.mkdtemp(), "scale")
>>> tf.saved_model.save(Scale(), path)
>>> sorted(os.listdir(path))
['assets', 'fingerprint.pb', 'saved_model.pb', 'variables']
>>> loaded = tf.saved_model.load(path)
>>> loaded(tf.constant([1.0, 2.0]))
<tf.Tensor: shape=(2,), dtype=float32, numpy=array([3., 6.], dtype=float32)>
>>> loaded.signatures["serving_default"](x=tf.constant([1.0]))
{'output_0': <tf.Tensor: shape=(1,), dtype=float32, numpy=array([3.], dtype=float32)>}
"""
import enum
import os

from eagerflow._src.backend.api_export import export
from eagerflow._src.ops import file_system
from eagerflow._src.saved_model import load as _load
from eagerflow._src.saved_model import save as _save

SERVING = _save.SERVING
DEFAULT_SERVING_SIGNATURE_DEF_KEY = _save.DEFAULT_SERVING_SIGNATURE_DEF_KEY
PREDICT_METHOD_NAME = _save.PREDICT_METHOD_NAME
SAVED_MODEL_FILENAME_PB = _load.SAVED_MODEL_FILENAME_PB
SAVED_MODEL_FILENAME_PBTXT = _load.SAVED_MODEL_FILENAME_PBTXT
VARIABLES_DIRECTORY = _load.VARIABLES_DIRECTORY
VARIABLES_FILENAME = _load.VARIABLES_FILENAME
# (the names of a SavedModel's parts, tags and serving signature keys, as TF's)
ASSETS_DIRECTORY, ASSETS_KEY = "assets", "saved_model_assets"
DEBUG_DIRECTORY, DEBUG_INFO_FILENAME_PB = "debug", "saved_model_debug_info.pb"
CLASSIFY_METHOD_NAME, REGRESS_METHOD_NAME = ("tensorflow/serving/classify",
                                             "tensorflow/serving/regress")
CLASSIFY_INPUTS, CLASSIFY_OUTPUT_CLASSES, CLASSIFY_OUTPUT_SCORES = "inputs", "classes", "scores"
PREDICT_INPUTS, PREDICT_OUTPUTS = "inputs", "outputs"
REGRESS_INPUTS, REGRESS_OUTPUTS = "inputs", "outputs"
GPU, TPU, TRAINING = "gpu", "tpu", "train"
SAVED_MODEL_SCHEMA_VERSION = 1
for _name in ("SERVING", "DEFAULT_SERVING_SIGNATURE_DEF_KEY", "PREDICT_METHOD_NAME",
              "SAVED_MODEL_FILENAME_PB", "SAVED_MODEL_FILENAME_PBTXT", "VARIABLES_DIRECTORY",
              "VARIABLES_FILENAME", "ASSETS_DIRECTORY", "ASSETS_KEY", "DEBUG_DIRECTORY",
              "DEBUG_INFO_FILENAME_PB", "CLASSIFY_METHOD_NAME", "REGRESS_METHOD_NAME",
              "CLASSIFY_INPUTS", "CLASSIFY_OUTPUT_CLASSES", "CLASSIFY_OUTPUT_SCORES",
              "PREDICT_INPUTS", "PREDICT_OUTPUTS", "REGRESS_INPUTS", "REGRESS_OUTPUTS", "GPU",
              "TPU", "TRAINING", "SAVED_MODEL_SCHEMA_VERSION"):
    export(f"saved_model.{_name}").export_constant(__name__, _name)


@export("saved_model.experimental.VariablePolicy")
class VariablePolicy(enum.Enum):
    """How `save` and `load` treat variables' devices and distributed variables
    (`SaveOptions` and `LoadOptions` take a member, its value or its name).

    >>> tf.saved_model.experimental.VariablePolicy.from_obj("save_variable_devices")
    <VariablePolicy.SAVE_VARIABLE_DEVICES: 'save_variable_devices'>
    >>> tf.saved_model.SaveOptions().experimental_variable_policy
    <VariablePolicy.NONE: None>
    """

    NONE = None
    SAVE_VARIABLE_DEVICES = "save_variable_devices"
    EXPAND_DISTRIBUTED_VARIABLES = "expand_distributed_variables"

    @staticmethod
    def from_obj(obj):
        """The policy `obj` names: a policy, None (`NONE`), or a policy's value or name in
        any case; ValueError for anything else."""
        if obj is None:
            return VariablePolicy.NONE
        if isinstance(obj, VariablePolicy):
            return obj
        try:
            return VariablePolicy(str(obj).lower())
        except ValueError:
            raise ValueError(f"Received invalid VariablePolicy value: {obj}.") from None


@export("saved_model.SaveOptions", "compat.v1.saved_model.SaveOptions")
class SaveOptions:
    """Options of `save`: `function_aliases` ({alias: tf.function}) are recorded in the
    MetaGraph for the saved concrete functions of each function, as TF records them; the
    others are accepted (one machine and one device: the devices and namespaces they set
    change nothing in what is written here)."""

    __slots__ = ("namespace_whitelist", "save_debug_info", "function_aliases",
                 "experimental_debug_stripper", "experimental_io_device",
                 "experimental_variable_policy", "experimental_custom_gradients",
                 "experimental_image_format", "experimental_skip_saver",
                 "experimental_sharding_callback", "extra_tags")

    def __init__(self, namespace_whitelist=None, save_debug_info=False, function_aliases=None,
                 experimental_debug_stripper=False, experimental_io_device=None,
                 experimental_variable_policy=None, experimental_custom_gradients=True,
                 experimental_image_format=False, experimental_skip_saver=False,
                 experimental_sharding_callback=None, extra_tags=None):
        if isinstance(namespace_whitelist, str) or namespace_whitelist is not None and not all(
                isinstance(n, str) for n in namespace_whitelist):
            raise TypeError(f"`namespace_whitelist` must be a list of strings. Got: "
                            f"{namespace_whitelist} with type {type(namespace_whitelist)}.")
        self.namespace_whitelist = (None if namespace_whitelist is None
                                    else list(namespace_whitelist))
        self.save_debug_info = save_debug_info
        self.function_aliases = function_aliases if function_aliases else {}
        self.experimental_debug_stripper = experimental_debug_stripper
        self.experimental_io_device = experimental_io_device
        self.experimental_variable_policy = VariablePolicy.from_obj(experimental_variable_policy)
        self.experimental_custom_gradients = experimental_custom_gradients
        self.experimental_image_format = experimental_image_format
        self.experimental_skip_saver = experimental_skip_saver
        self.experimental_sharding_callback = experimental_sharding_callback
        self.extra_tags = extra_tags


@export("saved_model.LoadOptions")
class LoadOptions:
    """Options of `load` (accepted; they select devices and threads, one of each here)."""

    __slots__ = ("allow_partial_checkpoint", "experimental_io_device",
                 "experimental_skip_checkpoint", "experimental_variable_policy",
                 "experimental_load_function_aliases")

    def __init__(self, allow_partial_checkpoint=False, experimental_io_device=None,
                 experimental_skip_checkpoint=False, experimental_variable_policy=None,
                 experimental_load_function_aliases=False):
        self.allow_partial_checkpoint = allow_partial_checkpoint
        self.experimental_io_device = experimental_io_device
        self.experimental_skip_checkpoint = experimental_skip_checkpoint
        self.experimental_variable_policy = VariablePolicy.from_obj(experimental_variable_policy)
        self.experimental_load_function_aliases = experimental_load_function_aliases


@export("saved_model.save", "compat.v1.saved_model.save")
def save(obj, export_dir, signatures=None, options=None):
    """Writes `obj` (a `tf.Module` or any trackable object) to `export_dir` as a SavedModel
    that TensorFlow loads (``tf.saved_model.save``).

    Saved: the variables reachable from `obj`, and its `tf.function` attributes with their
    concrete functions (the input signature's, else those traced so far). `signatures`:
    a `tf.function` with an input signature, a concrete function, or a dict of them by
    signature name; without it, the object's one function with an input signature (if it
    has exactly one) becomes ``serving_default``. A signature returns a tensor, a sequence
    of tensors (``output_0``, ...) or a dict of them.
    """
    if options is not None and not isinstance(options, SaveOptions):
        raise TypeError(f"`options` must be a tf.saved_model.SaveOptions, got {options!r}.")
    _save.save(obj, export_dir, signatures, options)


@export("saved_model.load", "compat.v1.saved_model.load_v2")
def load(export_dir, tags=None, options=None):
    """Loads the SavedModel in `export_dir` (written here or by TensorFlow) and returns its
    root object (``tf.saved_model.load``).

    The object has the saved objects as attributes: variables, holding their saved values;
    functions, callable on tensors matching one of their saved signatures (run from the
    SavedModel's graphs on eagerflow's kernels, not from Python code); and ``signatures``,
    a mapping from name to a function of keyword tensors returning a dict. A TF 1
    SavedModel (``simple_save``, ``SavedModelBuilder``) loads as TF 2 loads one: its
    `signatures`, its graph's `variables`, `graph` and `prune`. `tags` selects the
    MetaGraph (``"serve"``). A missing SavedModel raises OSError.
    """
    if options is not None and not isinstance(options, LoadOptions):
        raise TypeError(f"`options` must be a tf.saved_model.LoadOptions, got {options!r}.")
    return _load.load(export_dir, tags, options)


@export("saved_model.contains_saved_model")
def contains_saved_model(export_dir):
    """Whether `export_dir` holds a ``saved_model.pb`` or ``saved_model.pbtxt``."""
    export_dir = os.fspath(export_dir)
    return any(file_system.isfile(os.path.join(export_dir, f))
               for f in (SAVED_MODEL_FILENAME_PB, SAVED_MODEL_FILENAME_PBTXT))

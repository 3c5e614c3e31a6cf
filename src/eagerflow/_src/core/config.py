"""`config`: device discovery and runtime settings (``tf.config``).

Settings that tune TensorFlow's own thread pools or GPU allocator are
accepted and remembered so programs that set them run unchanged.

>>> tf.config.list_physical_devices("CPU")
[PhysicalDevice(name='/physical_device:CPU:0', device_type='CPU')]
"""
import collections

from eagerflow._src import backend
from eagerflow._src.backend import threads
from eagerflow._src.backend.api_export import export

list_physical_devices = backend.list_physical_devices
list_logical_devices = backend.list_logical_devices

_settings = {"intra_op_parallelism_threads": 0, "inter_op_parallelism_threads": 0,
             "op_determinism": False, "soft_device_placement": True,
             "tf_cpu_float_emulation": False}
_visible = {}
# Called after a setting that kernels read changes: the registry rebinds the functions that
# eager dispatch calls directly.
on_float_setting_change = []
_memory_growth = {}


@export("config.get_visible_devices", "config.experimental.get_visible_devices")
def get_visible_devices(device_type=None):
    """The devices ops may run on (all physical devices unless restricted)."""
    devices = list_physical_devices(device_type)
    if device_type in _visible:
        return list(_visible[device_type])
    return devices


@export("config.set_visible_devices", "config.experimental.set_visible_devices")
def set_visible_devices(devices, device_type=None):
    """Restricts the devices of `device_type` that are visible (recorded)."""
    if isinstance(devices, backend.PhysicalDevice) or not isinstance(devices, (list, tuple)):
        devices = [devices]  # one device (itself a tuple)
    known = list_physical_devices()
    for d in devices:
        if d not in known:
            raise ValueError(f"Unrecognized device: {d!r}")
    _visible[device_type] = list(devices)


@export("config.experimental.set_memory_growth")
def set_memory_growth(device, enable):
    """Accepted for a GPU, as in TF (its allocator here grows on demand already); a CPU
    raises TF's ValueError."""
    if device not in list_physical_devices():
        raise ValueError(f"Unrecognized device: {device!r}")
    if device.device_type != "GPU":
        raise ValueError("Cannot set memory growth on non-GPU and non-Pluggable devices")
    _memory_growth[device] = bool(enable)


@export("config.experimental.get_memory_growth")
def get_memory_growth(device):
    """Whether memory growth is on for the GPU `device` (KeyError for another device)."""
    if device not in list_physical_devices():
        raise ValueError(f"Unrecognized device: {device!r}")
    if device.device_type != "GPU":
        raise KeyError(device)
    return _memory_growth.get(device, False)


def _logical_device(device):
    """The logical device the string `device` (``'GPU:0'``, ``'/device:CPU:0'``) names;
    ValueError when none matches."""
    text = device.split("device:", 1)[-1].upper() if isinstance(device, str) else ""
    kind, _, index = text.partition(":")
    for d in list_logical_devices():
        if d.device_type == kind and d.name.endswith(f":{index or 0}"):
            return d
    raise ValueError(f"No matching devices found for '{device}'")


@export("config.experimental.get_memory_info")
def get_memory_info(device):
    """``{'current': bytes, 'peak': bytes}`` of the allocator of `device` (``'CPU:0'``):
    TF tracks none on a CPU, so both are 0 there."""
    _logical_device(device)
    return {"current": 0, "peak": 0}


@export("config.experimental.reset_memory_stats")
def reset_memory_stats(device):
    """Resets the peak of `get_memory_info` (nothing is tracked on a CPU)."""
    _logical_device(device)


@export("config.experimental.get_memory_usage")
def get_memory_usage(device):
    """Deprecated form of ``get_memory_info(device)['current']``."""
    return get_memory_info(device)["current"]


@export("config.experimental.get_device_details")
def get_device_details(device):
    """Details of a physical device (``device_name``, ``compute_capability`` for a GPU);
    a CPU has none."""
    if not isinstance(device, backend.PhysicalDevice):
        raise ValueError(f"device must be a tf.config.PhysicalDevice, but got: {device}")
    if device not in list_physical_devices():
        raise ValueError(f"Unrecognized device: {device!r}")
    return {}


_device_settings = {"jit": "", "tensor_float_32": True,
                    "device_policy": "silent", "synchronous": True}


@export("config.optimizer.set_jit")
def set_jit(enabled):
    """Remembered: ``True`` (or ``'autoclustering'``) turns XLA auto-clustering on in TF."""
    _device_settings["jit"] = "autoclustering" if enabled else ""


@export("config.optimizer.get_jit")
def get_jit():
    """``'autoclustering'`` after ``set_jit(True)``, else ``''``."""
    return _device_settings["jit"]


@export("config.experimental.enable_tensor_float_32_execution")
def enable_tensor_float_32_execution(enabled):
    """Remembered: float32 math here is always full float32 precision."""
    # TF's binding takes what converts to a bool as a number does (None, numbers, tensors),
    # not a string or a sequence
    if enabled is not None and not hasattr(type(enabled), "__bool__"):
        raise TypeError(f"enable(): incompatible function arguments. The following argument "
                        f"types are supported:\n    1. (arg0: bool) -> None\n\nInvoked with: "
                        f"{enabled!r}")
    _device_settings["tensor_float_32"] = bool(enabled)


@export("config.experimental.tensor_float_32_execution_enabled")
def tensor_float_32_execution_enabled():
    return _device_settings["tensor_float_32"]


@export("config.experimental.set_device_policy")
def set_device_policy(device_policy):
    """Remembered: tensors are copied between devices as needed ('silent')."""
    if device_policy not in (None, "warn", "explicit", "silent", "silent_for_int32"):
        raise ValueError(
            f"Invalid argument `device_policy`: {device_policy!r}. Please refer to "
            "https://www.tensorflow.org/api_docs/python/tf/config/experimental/"
            "set_device_policy for valid `device_policy` arguments.")
    _device_settings["device_policy"] = device_policy or "silent"


@export("config.experimental.get_device_policy")
def get_device_policy():
    return _device_settings["device_policy"]


@export("config.experimental.set_synchronous_execution")
def set_synchronous_execution(enable):
    """Remembered: ops here always run synchronously."""
    _device_settings["synchronous"] = bool(enable)


@export("config.experimental.enable_mlir_bridge")
def enable_mlir_bridge():
    """Accepted: TF's MLIR bridge compiles for TPUs and XLA, which do not exist here."""
    _device_settings["mlir_bridge"] = True


@export("config.experimental.disable_mlir_bridge")
def disable_mlir_bridge():
    """Accepted, as `enable_mlir_bridge`."""
    _device_settings["mlir_bridge"] = False


@export("config.experimental.get_synchronous_execution")
def get_synchronous_execution():
    """Whether ops run synchronously (True unless `set_synchronous_execution(False)`)."""
    return _device_settings["synchronous"]


@export("config.threading.set_intra_op_parallelism_threads")
def set_intra_op_parallelism_threads(num_threads):
    """Caps the threads of one op's kernel: NumPy's BLAS and oneDNN's OpenMP (0: every core)."""
    _settings["intra_op_parallelism_threads"] = int(num_threads)
    threads.set_budget(int(num_threads))


@export("config.threading.get_intra_op_parallelism_threads")
def get_intra_op_parallelism_threads():
    return _settings["intra_op_parallelism_threads"]


def intra_op_pool_size():
    """The threads of TensorFlow's intra-op pool: the count set, else every core this
    process may run on (some kernels split their work, and so their rounding, by it)."""
    return _settings["intra_op_parallelism_threads"] or threads.cores()


@export("config.threading.set_inter_op_parallelism_threads")
def set_inter_op_parallelism_threads(num_threads):
    """Remembered: ops run one at a time here, each on the intra-op budget."""
    _settings["inter_op_parallelism_threads"] = int(num_threads)


@export("config.threading.get_inter_op_parallelism_threads")
def get_inter_op_parallelism_threads():
    return _settings["inter_op_parallelism_threads"]


@export("config.experimental.enable_op_determinism")
def enable_op_determinism():
    """Makes ops give the same results run after run.

    Kernels here are deterministic for a given thread count; by default the
    native libraries drop to one thread while other processes keep the cores
    busy, which changes the summation order of some reductions. With
    determinism enabled, the thread count stays at the budget
    (`set_intra_op_parallelism_threads`) whatever the load.
    """
    _settings["op_determinism"] = True
    threads.set_fixed(True)


@export("config.experimental.enable_tf_cpu_float_emulation")
def enable_tf_cpu_float_emulation(enabled=True):
    """Makes float kernels reproduce TensorFlow's x86-64 CPU results bit for bit (off by default).

    By default exp, log, tanh, sigmoid, softplus, softmax, pow, reciprocal, rsqrt, erf and
    the other elementwise float functions use NumPy's ufuncs: the same algorithm at every
    tensor size, within a few ulps of the exact result, so results may differ from
    TensorFlow's in the last bits. Enabled, float32 and float64 kernels (16-bit floats
    through float32) repeat TensorFlow's own vectorized approximations step by step instead,
    for exact agreement with programs' recorded output, at several times the cost (tens of
    microseconds for a small tensor). It applies to ops run afterwards, eagerly or in a
    `function` (constants folded while tracing keep the setting they were folded with).

    >>> tf.config.experimental.enable_tf_cpu_float_emulation(True)
    >>> tf.config.experimental.tf_cpu_float_emulation_enabled()
    True
    >>> tf.config.experimental.enable_tf_cpu_float_emulation(False)
    """
    _settings["tf_cpu_float_emulation"] = bool(enabled)
    for fn in on_float_setting_change:
        fn()


@export("config.experimental.tf_cpu_float_emulation_enabled")
def tf_cpu_float_emulation_enabled():
    """Whether `enable_tf_cpu_float_emulation(True)` is in effect."""
    return _settings["tf_cpu_float_emulation"]


@export("config.set_soft_device_placement")
def set_soft_device_placement(enabled):
    if not isinstance(enabled, (bool, int)):
        raise TypeError(f"set_soft_device_placement(): incompatible function arguments: "
                        f"expected a bool, got {enabled!r}")
    _settings["soft_device_placement"] = bool(enabled)


@export("config.get_soft_device_placement")
def get_soft_device_placement():
    return _settings["soft_device_placement"]


_run_functions_eagerly = [False]


@export("config.run_functions_eagerly")
def run_functions_eagerly(run_eagerly):
    """Makes every `function` run its Python body eagerly instead of its graph (debugging)."""
    _run_functions_eagerly[0] = bool(run_eagerly)


@export("config.functions_run_eagerly")
def functions_run_eagerly():
    """Whether `run_functions_eagerly(True)` is in effect."""
    return _run_functions_eagerly[0]


@export("config.experimental_run_functions_eagerly")
def experimental_run_functions_eagerly(run_eagerly):
    """The former name of `run_functions_eagerly`."""
    run_functions_eagerly(run_eagerly)


@export("config.experimental_functions_run_eagerly")
def experimental_functions_run_eagerly():
    """The former name of `functions_run_eagerly`."""
    return functions_run_eagerly()


# Graph optimizer switches (``tf.config.optimizer``). Only what was set is
# remembered; the passes read them when a concrete function is compiled.
# The options TensorFlow reports back, in its order: toggles appear once set,
# the two flags (True below) always.
_REPORTED = (
    ("layout_optimizer", False), ("constant_folding", False), ("shape_optimization", False),
    ("remapping", False), ("arithmetic_optimization", False),
    ("dependency_optimization", False), ("loop_optimization", False),
    ("function_optimization", False), ("debug_stripper", False),
    ("disable_model_pruning", True), ("scoped_allocator_optimization", False),
    ("pin_to_host_optimization", False), ("implementation_selector", False),
    ("auto_mixed_precision", False), ("use_plugin_optimizers", False),
    ("disable_meta_optimizer", True), ("auto_mixed_precision_onednn_bfloat16", False),
    ("auto_mixed_precision_mkl", False))
_optimizer_options = {}


@export("config.optimizer.set_experimental_options")
def set_optimizer_experimental_options(options):
    """Updates the graph optimizer's switches, e.g. ``{"constant_folding": False}``.

    Applies to functions traced afterwards. Unknown names are accepted and
    ignored, as TensorFlow does; ``memory_optimization`` (writing results into
    dead intermediate buffers) is honoured but, as there, not reported back.

    >>> set_optimizer_experimental_options({"remapping": False})
    >>> get_optimizer_experimental_options()["remapping"]
    False
    >>> set_optimizer_experimental_options({"remapping": True})  # (back on)
    """
    _optimizer_options.update(options)


@export("config.optimizer.get_experimental_options")
def get_optimizer_experimental_options():
    """The switches that were set, as TensorFlow reports them (the two flags always)."""
    report = {}
    for name, always in _REPORTED:
        value = _optimizer_options.get(name)
        if always or value is not None:
            report[name] = bool(value)
    if _optimizer_options.get("min_graph_nodes"):
        report["min_graph_nodes"] = int(_optimizer_options["min_graph_nodes"])
    return report


def optimizer_option(name, default):
    """The optimizer switch `name` as a bool (`default` when it was never set)."""
    value = _optimizer_options.get(name)
    return default if value is None else bool(value)

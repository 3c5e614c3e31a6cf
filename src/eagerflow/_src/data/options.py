"""`Options` (``tf.data.Options``) and the dataset that sets them."""
from eagerflow._src.backend.api_export import export
from eagerflow._src.data.dataset_ops import _UnaryDataset


class _OptionsGroup:
    """A group of options: attributes fixed at creation, None while unset."""

    _fields = {}

    def __init__(self):
        object.__setattr__(self, "_values", {})

    def __getattr__(self, name):
        fields = type(self)._fields
        if name not in fields:
            raise AttributeError(f"{type(self).__name__} has no option {name!r}")
        values = object.__getattribute__(self, "_values")
        if name not in values and isinstance(fields[name], type):
            values[name] = fields[name]()
        value = values.get(name)
        return None if isinstance(value, type) else value

    def __setattr__(self, name, value):
        if name not in type(self)._fields:
            raise AttributeError(f"Cannot set the property {name} on {type(self).__name__}.")
        self._values[name] = value

    def __eq__(self, other):
        return type(self) is type(other) and self._values == other._values

    def __repr__(self):
        return f"{type(self).__name__}({self._values})"

    def merge(self, other):
        out = type(self)()
        for name, default in type(self)._fields.items():
            mine, theirs = self._values.get(name), other._values.get(name)
            if isinstance(default, type):
                merged = (mine or default()).merge(theirs or default()) if (
                    mine is not None or theirs is not None) else None
                if merged is not None:
                    out._values[name] = merged
            elif theirs is not None:
                out._values[name] = theirs
            elif mine is not None:
                out._values[name] = mine
        return out


@export("data.experimental.OptimizationOptions")
class OptimizationOptions(_OptionsGroup):
    """``tf.data.experimental.OptimizationOptions``: which static optimizations apply."""
    _fields = dict.fromkeys([
        "apply_default_optimizations", "filter_fusion", "filter_parallelization",
        "inject_prefetch", "map_and_batch_fusion", "map_and_filter_fusion", "map_fusion",
        "map_parallelization", "noop_elimination", "parallel_batch",
        "shuffle_and_repeat_fusion", "seq_interleave_prefetch", "warm_start"])


@export("data.ThreadingOptions", "data.experimental.ThreadingOptions")
class ThreadingOptions(_OptionsGroup):
    """``tf.data.ThreadingOptions``: thread pool sizes."""
    _fields = dict.fromkeys(["max_intra_op_parallelism", "private_threadpool_size"])


@export("data.experimental.DistributeOptions")
class DistributeOptions(_OptionsGroup):
    """``tf.data.experimental.DistributeOptions``: auto-sharding policy."""
    _fields = dict.fromkeys(["auto_shard_policy", "num_devices"])


@export("data.experimental.AutotuneOptions")
class AutotuneOptions(_OptionsGroup):
    """``tf.data.experimental.AutotuneOptions``."""
    _fields = dict.fromkeys(["autotune_algorithm", "cpu_budget", "enabled", "ram_budget",
                             "initial_parallelism"])


@export("data.Options")
class Options(_OptionsGroup):
    """Options of a dataset (``tf.data.Options``), set with `Dataset.with_options`.

    >>> options = tf.data.Options()
    >>> options.deterministic = False
    >>> ds = tf.data.Dataset.range(3).with_options(options)
    >>> ds.options().deterministic
    False
    """
    _fields = {"autotune": AutotuneOptions, "deterministic": None,
               "experimental_deterministic": None, "experimental_distribute": DistributeOptions,
               "experimental_external_state_policy": None,
               "experimental_optimization": OptimizationOptions,
               "experimental_slack": None, "experimental_symbolic_checkpoint": None,
               "experimental_threading": ThreadingOptions, "experimental_warm_start": None,
               "threading": ThreadingOptions, "framework_type": None, "dataset_name": None}

    def __setattr__(self, name, value):
        if name == "experimental_deterministic":
            name = "deterministic"
        elif name == "experimental_threading":
            name = "threading"
        super().__setattr__(name, value)

    def __getattr__(self, name):
        if name == "experimental_deterministic":
            name = "deterministic"
        elif name == "experimental_threading":
            name = "threading"
        return super().__getattr__(name)


class _OptionsDataset(_UnaryDataset):
    def __init__(self, input_dataset, options):
        super().__init__(input_dataset)
        if not isinstance(options, Options):
            raise TypeError(f"Invalid `options`. `options` should be a `tf.data.Options` "
                            f"object, but got {type(options)}.")
        self._options_value = input_dataset.options().merge(options)

    def _iterator(self):
        return self._input._iterator()

    def _batches(self, batch_size, drop_remainder):
        return self._input._batches(batch_size, drop_remainder)

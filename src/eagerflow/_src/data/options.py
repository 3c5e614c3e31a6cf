"""`Options` (``tf.data.Options``) and the dataset that sets them."""
import enum

from eagerflow._src.backend.api_export import export
from eagerflow._src.backend.log import absl_logger
from eagerflow._src.data.dataset_ops import _UnaryDataset


@export("data.experimental.AutoShardPolicy")
class AutoShardPolicy(enum.IntEnum):
    """How a distributed dataset is sharded (``tf.data.experimental.AutoShardPolicy``)."""
    OFF = -1
    AUTO = 0
    FILE = 1
    DATA = 2
    HINT = 3


@export("data.experimental.AutotuneAlgorithm")
class AutotuneAlgorithm(enum.Enum):
    """How tf.data's autotuner searches (``options.autotune.autotune_algorithm``); the
    pipelines here size their parallelism from the thread budget whichever is set."""
    DEFAULT = 0
    HILL_CLIMB = 1
    GRADIENT_DESCENT = 2
    MAX_PARALLELISM = 3
    STAGE_BASED = 4


@export("data.experimental.ExternalStatePolicy")
class ExternalStatePolicy(enum.Enum):
    """What saving a dataset does with external state."""
    WARN = 0
    IGNORE = 1
    FAIL = 2


class _OptionsGroup:
    """A group of options: attributes fixed at creation, each of one type, None while unset.

    ``_types`` maps each option to the type its values must have (as in TF, a value of
    another type, None included, raises TypeError); an option that is itself a group
    starts as an empty group of that class.
    """

    _types = {}
    _aliases = {}

    def __init__(self):
        object.__setattr__(self, "_values", {})

    @classmethod
    def _is_group(cls, name):
        t = cls._types[name]
        return isinstance(t, type) and issubclass(t, _OptionsGroup)

    def __getattr__(self, name):
        types = type(self)._types
        if name not in types:
            raise AttributeError(f"{type(self).__name__} has no option {name!r}")
        values = object.__getattribute__(self, "_values")
        if name not in values and self._is_group(name):
            values[name] = types[name]()
        return values.get(name)

    def __setattr__(self, name, value):
        if name not in type(self)._types:
            raise AttributeError(f"Cannot set the property {name} on {type(self).__name__}.")
        t = type(self)._types[name]
        if not isinstance(value, t):
            raise TypeError(f'Property "{name}" must be of type {t}, got: {value} '
                            f"(type: {type(value)})")
        self._values[name] = value

    def __dir__(self):
        return sorted(set(object.__dir__(self)) | set(self._types) | set(self._aliases))

    def __eq__(self, other):
        return type(self) is type(other) and self._values == other._values

    def __repr__(self):
        return f"{type(self).__name__}({self._values})"

    def merge(self, other):
        out = type(self)()
        # (in the order they were set, as TF merges them and reports the changes)
        for name in [*self._values, *(n for n in other._values if n not in self._values)]:
            mine, theirs = self._values.get(name), other._values.get(name)
            if self._is_group(name):
                if mine is not None or theirs is not None:
                    group = type(self)._types[name]
                    out._values[name] = (mine or group()).merge(theirs or group())
            elif theirs is not None:
                if mine is not None and mine != theirs:  # (TF's notice of an override)
                    absl_logger.warning(
                        f"Changing the value of option {name} from {mine!r} to {theirs!r}.")
                out._values[name] = theirs
            elif mine is not None:
                out._values[name] = mine
        return out


@export("data.experimental.OptimizationOptions")
class OptimizationOptions(_OptionsGroup):
    """``tf.data.experimental.OptimizationOptions``: which static optimizations apply."""
    _types = dict.fromkeys([
        "apply_default_optimizations", "filter_fusion", "filter_parallelization",
        "inject_prefetch", "map_and_batch_fusion", "map_and_filter_fusion", "map_fusion",
        "map_parallelization", "noop_elimination", "parallel_batch",
        "shuffle_and_repeat_fusion", "seq_interleave_prefetch"], bool)


@export("data.ThreadingOptions", "data.experimental.ThreadingOptions")
class ThreadingOptions(_OptionsGroup):
    """``tf.data.ThreadingOptions``: thread pool sizes."""
    _types = dict.fromkeys(["max_intra_op_parallelism", "private_threadpool_size"], int)


@export("data.experimental.DistributeOptions")
class DistributeOptions(_OptionsGroup):
    """``tf.data.experimental.DistributeOptions``: auto-sharding policy."""
    _types = {"auto_shard_policy": AutoShardPolicy, "num_devices": int}


@export("data.experimental.AutotuneOptions")
class AutotuneOptions(_OptionsGroup):
    """``tf.data.experimental.AutotuneOptions``."""
    _types = {"autotune_algorithm": AutotuneAlgorithm, "cpu_budget": int, "enabled": bool,
              "ram_budget": int, "initial_parallelism": int, "min_parallelism": int}


@export("data.experimental.ServiceOptions")
class ServiceOptions(_OptionsGroup):
    """``tf.data.experimental.ServiceOptions``: options of the tf.data service's clients."""
    _types = {"pinned": bool}


@export("data.Options")
class Options(_OptionsGroup):
    """Options of a dataset (``tf.data.Options``), set with `Dataset.with_options`.

    >>> options = tf.data.Options()
    >>> options.deterministic = False
    >>> ds = tf.data.Dataset.range(3).with_options(options)
    >>> ds.options().deterministic
    False
    """
    _types = {"autotune": AutotuneOptions, "deterministic": bool,
              "experimental_distribute": DistributeOptions,
              "experimental_external_state_policy": ExternalStatePolicy,
              "experimental_optimization": OptimizationOptions,
              "experimental_service": ServiceOptions,
              "experimental_slack": bool, "experimental_symbolic_checkpoint": bool,
              "experimental_warm_start": bool, "threading": ThreadingOptions,
              "framework_type": list, "dataset_name": str}
    # (older names of two options)
    _aliases = {"experimental_deterministic": "deterministic",
                "experimental_threading": "threading"}

    def __setattr__(self, name, value):
        super().__setattr__(self._aliases.get(name, name), value)

    def __getattr__(self, name):
        return super().__getattr__(self._aliases.get(name, name))


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

"""The ``checkpoint`` state file, `latest_checkpoint` and `CheckpointManager`.

A directory's ``checkpoint`` file is a text `CheckpointState` proto naming
its latest checkpoint and those kept, as TF writes it (paths relative to the
directory), so that either side finds the other's latest checkpoint.

>>> import tempfile
>>> directory = tempfile.mkdtemp()
>>> manager = tf.train.CheckpointManager(tf.train.Checkpoint(v=tf.Variable(1.0)),
...                                      directory, max_to_keep=2)
>>> [os.path.basename(manager.save()) for _ in range(3)]
['ckpt-1', 'ckpt-2', 'ckpt-3']
>>> [os.path.basename(p) for p in manager.checkpoints]
['ckpt-2', 'ckpt-3']
>>> tf.train.latest_checkpoint(directory) == manager.latest_checkpoint
True
"""
import collections
import os
import re
import time

from google.protobuf import text_format

from eagerflow._src.backend import log as _log
from eagerflow._src.backend.api_export import export
from eagerflow._src.checkpoint import bundle
from eagerflow._src.core import context
from eagerflow._src.ops import file_system
from eagerflow._src.core.protos import checkpoint as pb

_logger = _log.logger


def _state_file(directory, latest_filename=None):
    return os.path.join(directory, latest_filename or "checkpoint")


def _state_proto(save_dir, model_checkpoint_path, all_model_checkpoint_paths,
                 all_model_checkpoint_timestamps, last_preserved_timestamp, relative):
    """The `CheckpointState` of these checkpoints (the latest last among all of them), their
    paths relative to `save_dir` where `relative` says so."""
    def path_of(p):
        return os.path.relpath(p, save_dir) if relative(p) else p

    state = pb.CheckpointState(model_checkpoint_path=path_of(model_checkpoint_path))
    paths = list(all_model_checkpoint_paths or [])
    if not paths or paths[-1] != model_checkpoint_path:
        paths.append(model_checkpoint_path)
    state.all_model_checkpoint_paths.extend(map(path_of, paths))
    if all_model_checkpoint_timestamps:
        state.all_model_checkpoint_timestamps.extend(all_model_checkpoint_timestamps)
    if last_preserved_timestamp is not None:
        state.last_preserved_timestamp = last_preserved_timestamp
    return state


@export("compat.v1.train.generate_checkpoint_state_proto")
def generate_checkpoint_state_proto(save_dir, model_checkpoint_path,
                                    all_model_checkpoint_paths=None,
                                    all_model_checkpoint_timestamps=None,
                                    last_preserved_timestamp=None):
    """The `CheckpointState` recording these checkpoints, `model_checkpoint_path` the latest
    (added last to `all_model_checkpoint_paths`). Paths are kept as given, but for relative
    ones under a relative `save_dir`, written relative to it.

    >>> print(tf.compat.v1.train.generate_checkpoint_state_proto("d", "d/m-2", ["d/m-1"]))
    model_checkpoint_path: "m-2"
    all_model_checkpoint_paths: "m-1"
    all_model_checkpoint_paths: "m-2"
    <BLANKLINE>
    """
    relative_dir = not file_system.is_absolute(save_dir)
    return _state_proto(save_dir, model_checkpoint_path, all_model_checkpoint_paths,
                        all_model_checkpoint_timestamps, last_preserved_timestamp,
                        lambda p: relative_dir and not file_system.is_absolute(p))


@export("compat.v1.train.update_checkpoint_state")
def update_checkpoint_state_v1(save_dir, model_checkpoint_path, all_model_checkpoint_paths=None,
                               latest_filename=None, all_model_checkpoint_timestamps=None,
                               last_preserved_timestamp=None):
    """Writes `save_dir`'s checkpoint state file (``checkpoint``, or `latest_filename`) as
    `generate_checkpoint_state_proto` makes it, atomically."""
    state = generate_checkpoint_state_proto(save_dir, model_checkpoint_path,
                                            all_model_checkpoint_paths,
                                            all_model_checkpoint_timestamps,
                                            last_preserved_timestamp)
    _write_state(save_dir, state, model_checkpoint_path, latest_filename)


@export("compat.v1.train.remove_checkpoint")
def remove_checkpoint(checkpoint_prefix, checkpoint_format_version=2, meta_graph_suffix="meta"):
    """Deletes the files of the checkpoint `checkpoint_prefix` that exist (its index, data
    shards and meta graph)."""
    del checkpoint_format_version
    _remove_files(checkpoint_prefix, f".{meta_graph_suffix}")


_DATA_SHARD = re.compile(r"\.data-[^/]{5}-of-[^/]{5}")  # (after a checkpoint's prefix)


def _remove_files(prefix, other_suffix=None):
    """Deletes the files of checkpoint `prefix` that exist: its index, its data shards, then
    the file named by `other_suffix` (a meta graph's). The directory is listed rather than
    globbed: a glob pattern of its own for each checkpoint would pile up in the cache of
    compiled patterns that `glob` keeps, in a program that saves many."""
    fs, prefix = file_system.resolve(prefix)
    head, slash, base = prefix.rpartition("/")
    directory = head + slash  # (with its slash: "ram://" stays itself)
    try:
        names = fs.listdir(directory or ".")
    except (FileNotFoundError, NotADirectoryError):
        return
    suffixes = {name[len(base):] for name in names if name.startswith(base)}
    for suffix in [".index", *sorted(s for s in suffixes if _DATA_SHARD.fullmatch(s)),
                   other_suffix]:
        if suffix not in suffixes:
            continue
        name = directory + base + suffix
        try:
            fs.remove(name)
        except FileNotFoundError:  # (deleted meanwhile by another process)
            _logger.warning("Hit NotFoundError when deleting '%s', possibly because "
                            "another process/thread is also deleting/moving the same "
                            "file", name)


def update_checkpoint_state(save_dir, model_checkpoint_path, all_model_checkpoint_paths=None,
                            all_model_checkpoint_timestamps=None, last_preserved_timestamp=None,
                            latest_filename=None):
    """Writes `save_dir`'s ``checkpoint`` file (paths relative to `save_dir`), atomically."""
    save_dir = save_dir or "."
    # (the paths given are the checkpoints' own, as `save` returns them)
    state = _state_proto(save_dir, model_checkpoint_path, all_model_checkpoint_paths,
                         all_model_checkpoint_timestamps, last_preserved_timestamp,
                         lambda p: True)
    _write_state(save_dir, state, model_checkpoint_path, latest_filename)


def _write_state(save_dir, state, model_checkpoint_path, latest_filename):
    save_dir = save_dir or "."
    path = _state_file(save_dir, latest_filename)
    if os.path.abspath(path) == os.path.abspath(os.path.join(save_dir,
                                                             state.model_checkpoint_path)):
        raise RuntimeError(f"Save path '{model_checkpoint_path}' conflicts with path used for "
                           f"checkpoint state.  Please use a different save path.")
    fs, local = file_system.resolve(save_dir)
    fs.makedirs(local)
    file_system.write_atomically(path, text_format.MessageToString(state))


@export("train.get_checkpoint_state", "compat.v1.train.get_checkpoint_state")
def get_checkpoint_state(checkpoint_dir, latest_filename=None):
    """The `CheckpointState` of ``checkpoint_dir/checkpoint`` (paths made absolute), or None
    when there is no such file or it cannot be parsed."""
    checkpoint_dir = os.fspath(checkpoint_dir)
    path = _state_file(checkpoint_dir, latest_filename)
    fs, local = file_system.resolve(path)
    if not fs.exists(local) or fs.isdir(local):
        return None
    state = pb.CheckpointState()
    try:
        with fs.open(local, "rb") as f:
            text_format.Merge(f.read().decode("utf-8"), state)
    except (text_format.ParseError, OSError, UnicodeDecodeError) as e:
        _logger.warning("%s: %s", type(e).__name__, e)
        _logger.warning("%s: Checkpoint ignored", path)
        return None
    if not state.model_checkpoint_path:
        raise ValueError("Invalid checkpoint state loaded from " + checkpoint_dir)
    if not file_system.is_absolute(state.model_checkpoint_path):
        state.model_checkpoint_path = os.path.join(checkpoint_dir, state.model_checkpoint_path)
    for i, p in enumerate(state.all_model_checkpoint_paths):
        if not file_system.is_absolute(p):
            state.all_model_checkpoint_paths[i] = os.path.join(checkpoint_dir, p)
    return state


@export("train.latest_checkpoint", "compat.v1.train.latest_checkpoint")
def latest_checkpoint(checkpoint_dir, latest_filename=None):
    """The prefix of the latest checkpoint recorded in `checkpoint_dir`, or None."""
    state = get_checkpoint_state(checkpoint_dir, latest_filename)
    if state and state.model_checkpoint_path:
        if bundle.exists(state.model_checkpoint_path):
            return state.model_checkpoint_path
        _logger.error("Couldn't match files for checkpoint %s", state.model_checkpoint_path)
    return None


def _wait_for_new_checkpoint(checkpoint_dir, last, seconds_to_sleep, timeout):
    """The latest checkpoint of `checkpoint_dir` once it is not `last`, or None when
    `timeout` seconds pass first (polling every `seconds_to_sleep`)."""
    stop = None if timeout is None else time.time() + timeout
    while True:
        path = latest_checkpoint(checkpoint_dir)
        if path is not None and path != last:
            return path
        if stop is not None and time.time() + seconds_to_sleep > stop:
            return None
        time.sleep(seconds_to_sleep)


@export("train.checkpoints_iterator", "compat.v1.train.checkpoints_iterator")
def checkpoints_iterator(checkpoint_dir, min_interval_secs=0, timeout=None, timeout_fn=None):
    """Yields each new latest checkpoint of `checkpoint_dir` (the current one first, if
    any), at most one per `min_interval_secs`; after `timeout` seconds without a new one,
    stops unless `timeout_fn` returns False (then waits again). With no `timeout` it
    waits for ever, as an evaluation job following a training job does.

    >>> list(tf.train.checkpoints_iterator("/no/such/dir", timeout=0))
    []
    """
    path = None
    while True:
        found = _wait_for_new_checkpoint(checkpoint_dir, path, 1, timeout)
        if found is None:
            if timeout_fn is None:
                _logger.info("Timed-out waiting for a checkpoint.")
                return
            if timeout_fn():
                return
            continue
        start = time.time()
        path = found
        yield path
        time.sleep(max(0.0, min_interval_secs - (time.time() - start)))


@export("compat.v1.train.checkpoint_exists")
def checkpoint_exists(checkpoint_prefix):
    """Whether a checkpoint with this prefix exists (deprecated in TF: use file APIs)."""
    return bundle.exists(os.fspath(checkpoint_prefix))


@export("compat.v1.train.get_checkpoint_mtimes")
def get_checkpoint_mtimes(checkpoint_prefixes):
    """The modification times of the ``.index`` files of existing checkpoints."""
    def mtime(prefix):
        fs, index = file_system.resolve(bundle.index_path(prefix))
        return fs.stat(index)[1] / 1e9
    return [mtime(p) for p in checkpoint_prefixes if bundle.exists(p)]


def _evaluate(value):
    if hasattr(value, "numpy"):
        with context.init_scope():
            return int(value.numpy())
    return int(value)


@export("train.CheckpointManager", "compat.v1.train.CheckpointManager")
class CheckpointManager:
    """Saves numbered checkpoints of `checkpoint` into `directory`, keeping the latest
    `max_to_keep` (and one every `keep_checkpoint_every_n_hours`), and remembers them in the
    directory's ``checkpoint`` file, across runs.

    With `checkpoint_interval` (and a `step_counter` variable), `save` saves only when the
    step moved on at least that much since the last save.
    """

    def __init__(self, checkpoint, directory, max_to_keep, keep_checkpoint_every_n_hours=None,
                 checkpoint_name="ckpt", step_counter=None, checkpoint_interval=None,
                 init_fn=None, last_checkpoint_step=None):
        self._checkpoint = checkpoint
        if max_to_keep is not None and max_to_keep <= 0:
            raise ValueError(f"Expected a positive integer or `None` for `max_to_keep`, got "
                             f"{max_to_keep}.")
        self._max_to_keep = max_to_keep
        self._keep_checkpoint_every_n_hours = keep_checkpoint_every_n_hours
        directory = os.fspath(directory)
        self._directory = directory
        self._checkpoint_prefix = os.path.join(directory, checkpoint_name)
        self._init_fn = init_fn
        if checkpoint_interval is not None:
            if step_counter is None:
                raise ValueError("`step_counter` should be passed if `checkpoint_interval` is "
                                 "not None.")
            self._last_checkpoint_step = last_checkpoint_step
            self._step_counter = step_counter
        self._checkpoint_interval = checkpoint_interval
        state = get_checkpoint_state(directory)
        now = time.time()
        self._maybe_delete = collections.OrderedDict()
        if state is None:
            self._latest_checkpoint = None
            self._last_preserved_timestamp = now - 1.0
        else:
            self._latest_checkpoint = state.model_checkpoint_path
            self._last_preserved_timestamp = min(state.last_preserved_timestamp, now)
            timestamps = list(state.all_model_checkpoint_timestamps) or \
                [self._last_preserved_timestamp] * len(state.all_model_checkpoint_paths)
            for path, stamp in zip(state.all_model_checkpoint_paths, timestamps):
                stamp = min(stamp, now)
                if stamp > self._last_preserved_timestamp:
                    self._maybe_delete[path] = stamp

    directory = property(lambda self: self._directory)
    checkpoint_interval = property(lambda self: self._checkpoint_interval)
    checkpoint = property(lambda self: self._checkpoint)
    _prefix = property(lambda self: self._checkpoint_prefix)

    @property
    def latest_checkpoint(self):
        """The prefix of the newest checkpoint, or None."""
        return self._latest_checkpoint

    @property
    def checkpoints(self):
        """The managed checkpoints, oldest first (not those kept every n hours)."""
        return list(self._maybe_delete)

    def _sweep(self):
        if not self._max_to_keep:
            return
        while len(self._maybe_delete) > self._max_to_keep:
            path, stamp = self._maybe_delete.popitem(last=False)
            if self._keep_checkpoint_every_n_hours and \
                    stamp - self._keep_checkpoint_every_n_hours * 3600.0 >= \
                    self._last_preserved_timestamp:
                self._last_preserved_timestamp = stamp
                continue
            _remove_files(path)

    def _record_state(self):
        paths, stamps = zip(*self._maybe_delete.items())
        update_checkpoint_state(self._directory, self._latest_checkpoint, list(paths),
                                list(stamps), self._last_preserved_timestamp)

    def save(self, checkpoint_number=None, check_interval=True, options=None):
        """Saves a checkpoint numbered `checkpoint_number` (default: the checkpoint's
        `save_counter`, counted up either way), deletes those no longer kept; returns its
        path, or None when `checkpoint_interval` says it is too early."""
        if self._checkpoint_interval is not None:
            step = _evaluate(self._step_counter)
            if self._last_checkpoint_step is not None:
                if step == self._last_checkpoint_step:
                    return None
                if check_interval and step < (self._last_checkpoint_step +
                                              self._checkpoint_interval):
                    return None
            self._last_checkpoint_step = step
        counter = self._checkpoint.save_counter
        with context.init_scope():
            counter.assign_add(1, read_value=False)
        if checkpoint_number is None:
            checkpoint_number = counter
        prefix = f"{self._prefix}-{_evaluate(checkpoint_number)}"
        path = self._checkpoint.write(prefix, options)
        self._maybe_delete.pop(path, None)
        self._maybe_delete[path] = time.time()
        self._latest_checkpoint = path
        self._record_state()
        self._sweep()
        self._record_state()
        return path

    def restore_or_initialize(self):
        """Restores the latest checkpoint and returns its path; without one, calls `init_fn`
        (when given) and returns None."""
        if self._latest_checkpoint is not None:
            self._checkpoint.restore(self._latest_checkpoint)
            if self._checkpoint_interval is not None:
                self._last_checkpoint_step = _evaluate(self._step_counter)
            return self._latest_checkpoint
        if self._init_fn is not None:
            self._init_fn()
        return None

    def sync(self):
        """Nothing to wait for: saves complete before `save` returns."""

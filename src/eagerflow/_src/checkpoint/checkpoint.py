"""`tf.train.Checkpoint`: saves and restores an object graph in TF's checkpoint format.

Values are matched by the graph of objects (attribute names from the
checkpoint's root down), not by variable names, so a checkpoint restores into
a program that builds the same objects. Values of objects that do not exist
yet when `restore` runs (a Keras model not built, an optimizer's slots) are
assigned when they are created.

>>> import os, tempfile
>>> prefix = os.path.join(tempfile.mkdtemp(), "ckpt")
>>> v = tf.Variable(1.0)
>>> ckpt = tf.train.Checkpoint(v=v)
>>> path = ckpt.save(prefix)
>>> os.path.basename(path)
'ckpt-1'
>>> _ = v.assign(5.0)
>>> status = ckpt.restore(path)
>>> print(v.numpy())
1.0
>>> status.assert_consumed() is status
True
"""
import contextlib
import os
import weakref

import numpy as np

from eagerflow._src.backend import log as _log
from eagerflow._src.backend.api_export import export
from eagerflow._src.checkpoint import bundle
from eagerflow._src.checkpoint import trackable
from eagerflow._src.core import context, errors
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core.module import tracked, wrap
from eagerflow._src.core.protos import checkpoint as pb
from eagerflow._src.core.resource import TrackableResource
from eagerflow._src.core.variables import Variable


@export("train.CheckpointOptions", "compat.v1.train.CheckpointOptions")
class CheckpointOptions:
    """Options of `Checkpoint.save`/`write`/`restore`/`read` (accepted; one machine, one
    device, so the devices and threads they set change nothing here)."""

    __slots__ = ("experimental_io_device", "experimental_enable_async_checkpoint",
                 "experimental_write_callbacks", "enable_async", "experimental_sharding_callback",
                 "experimental_skip_slot_variables")

    def __init__(self, experimental_io_device=None, experimental_enable_async_checkpoint=False,
                 experimental_write_callbacks=None, enable_async=False,
                 experimental_skip_slot_variables=False, experimental_sharding_callback=None):
        self.experimental_io_device = experimental_io_device
        self.experimental_enable_async_checkpoint = experimental_enable_async_checkpoint
        self.experimental_write_callbacks = experimental_write_callbacks
        self.enable_async = enable_async
        self.experimental_skip_slot_variables = experimental_skip_slot_variables
        self.experimental_sharding_callback = experimental_sharding_callback


def _live_objects(root):
    """Objects reachable from `root` that store values (TF checks these are matched)."""
    graph = trackable.Graph(*root)
    return [obj for obj in graph.objects if isinstance(obj, Variable) or
            hasattr(type(obj), "_serialize_to_tensors")]


class _Status:
    """Base of the statuses `restore` returns."""

    def expect_partial(self):
        """Silences the warnings about values not restored."""
        return self

    def run_restore_ops(self, session=None):
        """Assigns the values restored into TF 1 graph variables in `session` (by default the
        default session); other variables got theirs when restoring."""
        pending = getattr(getattr(self, "_restoration", None), "pending", ())
        if pending:
            with trackable.session_scope(session):
                for variable, value, key in pending:
                    trackable.assign_variable(variable, value, key)

    def initialize_or_restore(self, session=None):
        """`run_restore_ops`, then initializes the TF 1 graph variables of the objects
        restored that the checkpoint had no value for."""
        self.run_restore_ops(session)
        self._initialize_unrestored(session)

    def _initialize_unrestored(self, session):
        root = getattr(self, "_root", None)
        if root is None:
            return
        restored = {id(v) for v, _, _ in
                    getattr(getattr(self, "_restoration", None), "pending", ())}
        todo = [v for v in trackable.Graph(*root).objects if isinstance(v, Variable) and
                trackable.in_session(v) and id(v) not in restored]
        if todo:
            with trackable.session_scope(session) as sess:
                sess.run([v.initializer for v in todo])


class _UnrestoredWarning:
    """As TF's: when a restore is collected (its status dropped, and every object still
    waiting for values of it), the values of the checkpoint it never restored are logged,
    unless `expect_partial` was called. Held by the restoration alone."""

    def __init__(self, restoration):
        self.proto = restoration.proto
        self.matched = restoration.matched  # (the restoration's own, filled as it goes)
        self.unused = restoration.unused_attributes
        self.expect_partial = False
        # (bound now: at interpreter exit the modules' names may already be gone)
        self.warn = _log.logger.warning
        self.node_names = trackable.node_names
        self.log = log_unrestored

    def __del__(self):
        if self.expect_partial:
            return
        missing = [i for i, node in enumerate(self.proto.nodes)
                   if node.attributes and i not in self.matched]
        if not missing and not self.unused:
            return
        self.log(self.proto, missing, self.unused, self.warn, self.node_names)


def log_unrestored(proto, missing, unused=None, warn=None, node_names=None):
    """Logs TF's warnings about a restore dropped with values it never restored: the
    checkpoint's nodes `missing` (ids in `proto`) and ``{node id: attributes}`` `unused`.
    (`warn`, `node_names`: bound early by callers that run at interpreter exit)"""
    warn = warn or _log.logger.warning
    names = (node_names or trackable.node_names)(proto)
    warn("Detecting that an object or model or tf.train.Checkpoint is being deleted with "
         "unrestored values. See the following logs for the specific values in question. "
         "To silence these warnings, use `status.expect_partial()`. See "
         "https://www.tensorflow.org/api_docs/python/tf/train/Checkpoint#restorefor "
         "details about the status object returned by the restore function.")
    for i in missing:
        warn(f"Value in checkpoint could not be found in the restored object: {names[i]}")
    for i, attributes in (unused or {}).items():
        warn(f"An attribute in the restored object could not be found in the checkpoint. "
             f"Object: {names[i]}, attribute: {attributes}")


class CheckpointLoadStatus(_Status):
    """What `Checkpoint.restore` returns: checks of how well the checkpoint matched."""

    def __init__(self, restoration, root, warn=False):
        """`warn`: log the values never restored when the restoration is collected."""
        self._restoration = restoration
        self._root = root  # (object, extra children) of the graph, as saved
        if warn:
            restoration.when_collected = _UnrestoredWarning(restoration)

    def expect_partial(self):
        """Silences the warnings about values not restored."""
        warning = getattr(self._restoration, "when_collected", None)
        if warning is not None:
            warning.expect_partial = True
        return self

    def _names(self):
        return trackable.node_names(self._restoration.proto)

    def assert_consumed(self):
        """Raises AssertionError unless every value of the checkpoint was restored and
        every object that stores values was matched."""
        self.assert_existing_objects_matched()
        proto, matched = self._restoration.proto, self._restoration.matched
        for i, node in enumerate(proto.nodes):
            if node.attributes and i not in matched:
                raise AssertionError(f"Unresolved object in checkpoint {self._names()[i]}: "
                                     f"{node}")
        unused = self._restoration.unused_attributes
        if unused:
            lines = "\n".join(f"{self._names()[i]} ({self._restoration.object(i)}): {names}"
                              for i, names in unused.items())
            raise AssertionError(f"Unused attributes in these objects (the attributes exist in "
                                 f"the checkpoint but were not restored):\n{lines}")
        return self

    def assert_existing_objects_matched(self):
        """Raises AssertionError if an object that exists now and stores values was not
        matched to the checkpoint (objects created later are not checked)."""
        matched = set(self._restoration.matched.values())
        unused = [o for o in _live_objects(self._root) if id(o) not in matched]
        if unused:
            shown = min(10, len(unused))
            raise AssertionError(
                f"Found {len(unused)} Python objects that were not bound to checkpointed "
                f"values, likely due to changes in the Python program. Showing {shown} of "
                f"{len(unused)} unmatched objects: {unused[:shown]}")
        return self

    def assert_nontrivial_match(self):
        """Raises AssertionError if nothing but the root object was matched."""
        if len(self._restoration.matched) <= 1:
            matched = set(self._restoration.matched.values())
            unused = [o for o in _live_objects(self._root) if id(o) not in matched]
            if unused:
                raise AssertionError(
                    f"Nothing except the root object matched a checkpointed value. Typically "
                    f"this means that the checkpoint does not match the Python program. The "
                    f"following objects have no matching checkpointed value: {unused}")
            raise AssertionError(f"Nothing to load. No dependencies have been added to "
                                 f"{self._root[0]} yet.")
        return self


class NameBasedSaverStatus(_Status):
    """What `restore` returns for a checkpoint written by name (TF 1's `Saver`): variables
    were matched by their names, so every check is the same one: that each variable
    found had a value in the checkpoint."""

    def __init__(self, restoration, root, optional=()):
        self._restoration = restoration
        self._root = root
        self._optional = optional  # variables whose absence is no error (a save counter)

    def assert_consumed(self):
        """Raises AssertionError if a variable had no value in the checkpoint."""
        unused = [(v, names) for v, names in self._restoration.unused()
                  if all(v is not o for o in self._optional)]
        if unused:
            listed = "".join(f"\n    {v}: {names}" for v, names in unused)
            raise AssertionError(f"Some objects had attributes which were not restored: "
                                 f"{listed}")
        return self

    assert_existing_objects_matched = assert_consumed
    assert_nontrivial_match = assert_consumed


def load_status(restoration, root, warn=False, optional=()):
    """The status of a restore `restore_objects` made into `root` (``(object, extra
    children)``): `warn` of values never restored when it is collected; `optional`:
    variables a checkpoint written by name may lack."""
    if isinstance(restoration, trackable.NameRestoration):
        return NameBasedSaverStatus(restoration, root, optional)
    return CheckpointLoadStatus(restoration, root, warn=warn)


class InitializationOnlyStatus(_Status):
    """What `restore(None)` returns: nothing is restored, every assertion fails, and
    `initialize_or_restore` initializes the TF 1 graph variables of `root`."""

    def __init__(self, root):
        self._root = root

    def _fail(self):
        raise AssertionError("No checkpoint specified (save_path=None); nothing is being "
                             "restored.")

    def assert_consumed(self):
        self._fail()

    def assert_existing_objects_matched(self):
        self._fail()

    def assert_nontrivial_match(self):
        self._fail()

    def run_restore_ops(self, session=None):
        """Raises AssertionError: there is nothing to restore (`initialize_or_restore`
        is the call that initializes)."""
        raise AssertionError("No checkpoint specified, so no restore ops are available "
                             "(save_path=None to Saver.restore).")

    def initialize_or_restore(self, session=None):
        self._initialize_unrestored(session)


def save_objects(root, extra_children, file_prefix):
    """Writes the object graph of `root` (plus `extra_children` of the root) to
    `file_prefix`."""
    graph = trackable.Graph(root, extra_children)
    with trackable.session_scope():  # (TF 1 graph variables: the default session's values)
        proto, tensors, dtypes = graph.serialize()
    tensors[trackable.OBJECT_GRAPH_KEY] = np.array(proto.SerializeToString(), object)
    dtypes[trackable.OBJECT_GRAPH_KEY] = _d.string
    bundle.write_bundle(file_prefix, tensors, dtypes)


def restore_objects(root, extra_children, save_path):
    """Restores the checkpoint `save_path` into the object graph of `root`; returns the
    `Restoration` (which keeps waiting for objects created later), or for a checkpoint
    written by name the `NameRestoration` matching variables by name."""
    save_path = os.fspath(save_path)
    if os.path.isdir(save_path):
        raise errors.DataLossError(
            None, None, f"Unable to open table file {save_path}: FAILED_PRECONDITION: "
                        f"{save_path}; Is a directory: perhaps your file is in a different "
                        f"file format and you need to use a different restore operator?")
    reader = bundle.BundleReader(save_path)
    if not reader.has_tensor(trackable.OBJECT_GRAPH_KEY):  # written by name (TF 1's Saver)
        restoration = trackable.NameRestoration(reader)
        restoration.visit(root, extra_children)
        return restoration
    proto = pb.TrackableObjectGraph()
    data = reader.get_tensor(trackable.OBJECT_GRAPH_KEY)
    proto.ParseFromString(data.item() if isinstance(data, np.ndarray) else data)
    restoration = trackable.Restoration(reader, proto)
    root_node = proto.nodes[0]
    restoration.match(0, root)
    if root_node.attributes:
        restoration._restore_values(0, root, root_node)
    extra = dict(extra_children)
    for ref in root_node.children:
        child = extra.get(ref.local_name)
        if child is None:
            child = trackable.lookup(root, ref.local_name)
        if child is None:
            trackable._wait(root, (ref.local_name,), ref.node_id, restoration)
        elif ref.node_id not in restoration.matched:
            restoration.bind(ref.node_id, child, None, (ref.local_name,))
    return restoration


@export("train.Checkpoint")
class Checkpoint:
    """Groups trackable objects (`Module`s, Keras models and optimizers, `Variable`s,
    lists and dicts of them) to save and restore them together.

    ``Checkpoint(model=model, optimizer=optimizer)`` names its children by
    keyword; with `root`, the graph's root is that object and the keywords are
    added to its children. `save` writes numbered checkpoints
    (``prefix-1``, ``prefix-2``, ... counted by `save_counter`) and the
    ``checkpoint`` state file; `write` writes exactly the given prefix.
    """

    def __init__(self, root=None, **kwargs):
        object.__setattr__(self, "_children", {})
        object.__setattr__(self, "_save_counter", None)
        object.__setattr__(self, "_root", root)
        if root is not None:
            kwargs["root"] = root
        for key, value in sorted(kwargs.items()):
            target = value() if isinstance(value, weakref.ref) else value
            # (a resource with nothing to save, a static table, is a node all the same)
            if not (trackable.is_trackable(target) or trackable._holds(target)
                    or isinstance(target, TrackableResource)):
                raise ValueError(f"`Checkpoint` was expecting {key} to be a trackable object "
                                 f"(an object derived from `Trackable`), got {target}. If "
                                 f"you believe this object should be trackable (i.e. it is "
                                 f"part of the TensorFlow Python API and manages state), "
                                 f"please open an issue.")
            if root is not None and key != "root":
                existing = trackable.lookup(self._root_object(), key)
                if existing is not None and existing is not target:
                    raise ValueError(f"Cannot create a Checkpoint with keyword argument {key} "
                                     f"if root.{key} already exists.")
            setattr(self, key, value)

    def __setattr__(self, name, value):
        if not name.startswith("_"):
            value = wrap(value)
            self._children[name] = value
        object.__setattr__(self, name, value)
        if not name.startswith("_"):
            tracked(self)  # a restore may wait for this child

    def __delattr__(self, name):
        self._children.pop(name, None)
        object.__delattr__(self, name)

    def _root_object(self):
        root = self._root
        return root() if isinstance(root, weakref.ref) else root

    def _trackable_children(self):
        found = [(k, v() if isinstance(v, weakref.ref) else v)
                 for k, v in self._children.items()]
        if self._save_counter is not None:
            found.append(("save_counter", self._save_counter))
        return found

    def _graph_root(self):
        """``(root object, extra children of the root)`` of what this checkpoint saves."""
        if self._root is None:
            return self, ()
        return self._root_object(), self._trackable_children()

    @property
    def save_counter(self):
        """The number of `save` calls so far (an int64 variable, saved with the checkpoint)."""
        self._maybe_create_save_counter()
        return self._save_counter

    def _maybe_create_save_counter(self):
        if self._save_counter is None:
            with context.init_scope():
                counter = Variable(0, dtype=_d.int64, trainable=False, name="save_counter")
            object.__setattr__(self, "_save_counter", counter)

    def write(self, file_prefix, options=None):
        """Writes the checkpoint `file_prefix` (``.index`` and ``.data-*`` files); returns
        the prefix. Does not count saves nor update the ``checkpoint`` state file."""
        file_prefix = os.fspath(file_prefix)
        save_objects(*self._graph_root(), file_prefix)
        return file_prefix

    def sync(self):
        """Waits for the saves and restores in progress: none, as every save and restore
        (even one asked to be asynchronous, ``CheckpointOptions(enable_async=True)``) is
        done when its call returns.

        >>> tf.train.Checkpoint(v=tf.Variable(1.0)).sync()
        """

    def save(self, file_prefix, options=None):
        """Writes ``file_prefix-N`` (N: `save_counter` after counting this save) and records
        it in the ``checkpoint`` state file of its directory; returns its path."""
        from eagerflow._src.checkpoint import management  # noqa: PLC0415 (imports this)
        file_prefix = os.fspath(file_prefix)
        new = self._save_counter is None
        self._maybe_create_save_counter()
        counter = self._save_counter
        with context.init_scope():
            if trackable.in_session(counter):  # made in a TF 1 graph: counted in the session
                with trackable.session_scope():
                    number = (0 if new else int(trackable.variable_value(counter))) + 1
                    counter.assign(number, read_value=False)
            else:
                number = int(counter.assign_add(1).numpy())
        path = self.write(f"{file_prefix}-{number}", options)
        management.update_checkpoint_state(os.path.dirname(file_prefix), path, [path])
        return path

    def read(self, save_path, options=None):
        """Restores the checkpoint written by `write` at `save_path` (unlike `restore`, not
        expecting a `save_counter`); returns the status."""
        if save_path is None:
            return InitializationOnlyStatus(self._graph_root())
        root = self._graph_root()
        return load_status(restore_objects(*root, save_path), root, warn=True,
                           optional=(self._save_counter,) if self._save_counter is not None else ())

    def restore(self, save_path, options=None):
        """Restores the values saved at `save_path` (a prefix such as ``ckpt-3``, or None).

        Objects created later (a model built after this call) get their values
        when they are created. Returns a status whose ``assert_*`` methods check
        how complete the match was.
        """
        if save_path is None:
            return InitializationOnlyStatus(self._graph_root())
        self._maybe_create_save_counter()
        try:
            return self.read(save_path, options)
        except errors.NotFoundError as e:
            raise errors.NotFoundError(
                None, None, f"Error when restoring from checkpoint or SavedModel at "
                            f"{os.fspath(save_path)}: {e.message}\nPlease double-check that the "
                            f"path is correct. You may be missing the checkpoint suffix (e.g. "
                            f"the '-1' in 'path/to/ckpt-1').") from None

    def __repr__(self):
        return f"<eagerflow.train.Checkpoint object at {id(self):#x}>"


@export("compat.v1.train.Checkpoint")
class CheckpointV1(Checkpoint):
    """TF 1's `Checkpoint`: `save` and `write` take the session holding the values of TF 1
    graph variables (by default the default session), and `restore` no options.

    >>> g = tf.compat.v1.Graph()
    >>> with g.as_default():
    ...     ckpt = tf.compat.v1.train.Checkpoint(v=tf.compat.v1.Variable(3.0))
    ...     sess = tf.compat.v1.Session()
    ...     _ = sess.run(ckpt.v.initializer)
    >>> import os, tempfile
    >>> path = ckpt.save(os.path.join(tempfile.mkdtemp(), "ckpt"), session=sess)
    >>> os.path.basename(path)
    'ckpt-1'
    """

    def write(self, file_prefix, session=None, options=None):
        with _in_session(session):
            return super().write(file_prefix, options)

    def save(self, file_prefix, session=None, options=None):
        with _in_session(session):
            return super().save(file_prefix, options)

    def restore(self, save_path):  # noqa: D102 (Checkpoint's, without options)
        return super().restore(save_path)

    def __repr__(self):
        return f"<eagerflow.compat.v1.train.Checkpoint object at {id(self):#x}>"


def _in_session(session):
    """`session` as the default session (where graph variables have their values)."""
    return session.as_default() if session is not None else contextlib.nullcontext()


# -- reading checkpoints -----------------------------------------------------------------

@export("compat.v1.train.NewCheckpointReader")
class CheckpointReader:
    """The tensors of a checkpoint by key (`load_checkpoint` returns one)."""

    def __init__(self, filepattern):
        self._reader = bundle.BundleReader(os.fspath(filepattern))

    def get_tensor(self, tensor_str):
        """The saved tensor `tensor_str` as a NumPy array; a scalar as a NumPy scalar (a
        string as a bytes object), as TF's reader gives them."""
        value = self._reader.get_tensor(_key(tensor_str))
        if value.ndim == 0:
            return value.item() if value.dtype == object else value[()]
        return value

    def has_tensor(self, tensor_str):
        return self._reader.has_tensor(_key(tensor_str))

    def get_variable_to_shape_map(self):
        return {k: self._reader.shape(k) for k in self._reader.keys()}

    def get_variable_to_dtype_map(self):
        return {k: self._reader.dtype(k) for k in self._reader.keys()}

    def debug_string(self):
        """``name (DT_FLOAT) [1,5]`` a line, as TF's reader prints its keys."""
        from eagerflow._src.core.protos import framework  # noqa: PLC0415
        lines = []
        for key in self._reader.raw_keys():  # (a partitioned variable's slices by their keys)
            entry = self._reader.raw_entry(key)
            lines.append(key + f" ({framework.DataType.Name(entry.dtype)}) "
                               f"[{','.join(str(d.size) for d in entry.shape.dim)}]\n".encode())
        return b"".join(lines)


def _key(name):
    return name.decode() if isinstance(name, bytes) else str(name)


def _prefix_of(ckpt_dir_or_file):
    """A checkpoint prefix from a prefix or a directory (its latest checkpoint)."""
    from eagerflow._src.checkpoint import management  # noqa: PLC0415 (imports this)
    path = os.fspath(ckpt_dir_or_file)
    if os.path.isdir(path):
        latest = management.latest_checkpoint(path)
        if latest is None:
            raise ValueError(f"Couldn't find 'checkpoint' file or checkpoints in given "
                             f"directory {path}")
        return latest
    return path


@export("train.load_checkpoint", "compat.v1.train.load_checkpoint")
def load_checkpoint(ckpt_dir_or_file):
    """A `CheckpointReader` of a checkpoint prefix, or of a directory's latest checkpoint.

    >>> import os, tempfile
    >>> prefix = tf.train.Checkpoint(w=tf.Variable([1, 2])).write(
    ...     os.path.join(tempfile.mkdtemp(), "ckpt"))
    >>> tf.train.load_checkpoint(prefix).get_tensor("w/.ATTRIBUTES/VARIABLE_VALUE")
    array([1, 2], dtype=int32)
    """
    return CheckpointReader(_prefix_of(ckpt_dir_or_file))


@export("train.load_variable", "compat.v1.train.load_variable")
def load_variable(ckpt_dir_or_file, name):
    """The value of the tensor `name` in a checkpoint, as a NumPy array."""
    if name.endswith(":0"):
        name = name[:-2]
    return load_checkpoint(ckpt_dir_or_file).get_tensor(name)


@export("train.list_variables", "compat.v1.train.list_variables")
def list_variables(ckpt_dir_or_file):
    """``[(name, shape)]`` of the tensors in a checkpoint, sorted by name."""
    reader = load_checkpoint(ckpt_dir_or_file)
    shapes = reader.get_variable_to_shape_map()
    return [(name, shapes[name]) for name in sorted(shapes)]

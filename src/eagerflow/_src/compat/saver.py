"""TF 1's ``tf.compat.v1.train.Saver``: name-based checkpoints (each variable under its
graph name, ``w`` or ``w/Adam``; a partitioned variable as one tensor under its full name,
stored in slices: its shards) in TF's tensor-bundle format, which TF's own `Saver`
and `tf.train.load_checkpoint` read. In a graph, each save also writes the graph's meta graph
(``model-3.meta``, see `meta_graph`) unless ``write_meta_graph=False``.

>>> import tempfile, os
>>> w = tf.Variable([1.0, 2.0], name="w")
>>> saver = tf.compat.v1.train.Saver([w])
>>> path = saver.save(None, os.path.join(tempfile.mkdtemp(), "model"), global_step=3)
>>> _ = w.assign([0.0, 0.0])
>>> saver.restore(None, path)
>>> w.numpy(), os.path.basename(tf.train.latest_checkpoint(os.path.dirname(path)))
(array([1., 2.], dtype=float32), 'model-3')
"""
import os
import time

from eagerflow._src.backend.api_export import export
from eagerflow._src.checkpoint import bundle, checkpoint, management, trackable
from eagerflow._src.compat import graph_mode, logging_v1, variable_scope
from eagerflow._src.core import context, errors, nest
from eagerflow._src.core.convert import constant
from eagerflow._src.core.variables import Variable


def _op_name(var):
    return var.name.split(":")[0]


@export("compat.v1.train.Saver")
class Saver:
    """Saves and restores variables (`var_list`: a list, or a dict from checkpoint names;
    by default the graph's global variables) by name."""

    def __init__(self, var_list=None, reshape=False, sharded=False, max_to_keep=5,
                 keep_checkpoint_every_n_hours=10000.0, name=None, restore_sequentially=False,
                 saver_def=None, builder=None, defer_build=False, allow_empty=False,
                 write_version=2, pad_step_number=False, save_relative_paths=False,
                 filename=None):
        self._graph = graph_mode.v1_graph()
        if var_list is None:
            if self._graph is None:
                raise RuntimeError("When eager execution is enabled, `var_list` must specify "
                                   "a list or dict of variables to save")
            var_list = variable_scope.global_variables()
        self._vars = _saveables(var_list)
        self._allow_empty = allow_empty
        if self._graph is not None:  # (eagerly, as TF: checked when saving)
            self._check_not_empty()
        self._max_to_keep = max_to_keep
        self._keep_hours = keep_checkpoint_every_n_hours
        # (a checkpoint `max_to_keep` drops is kept anyway, once per this many hours)
        self._next_kept = time.time() + keep_checkpoint_every_n_hours * 3600
        self._dropped = []
        self._sharded = sharded
        self._pad = pad_step_number
        self._relative = save_relative_paths
        self._last = []
        self._restore = None
        self._imported_def = None  # (a SaverDef of a meta graph imported into a function)
        self._scope = "save/"
        if self._graph is not None:
            # The restore ops, built now as TF builds its ``save/restore_all``: a placeholder
            # and an assignment per variable.
            with graph_mode.name_scope(name, "save") as self._scope:
                self._feeds, ops = {}, []
                for v in self._targets():
                    value = graph_mode.placeholder(v.dtype, v.shape)
                    self._feeds[id(v)] = value
                    ops.append(v.assign(value, read_value=False))
                self._restore = graph_mode.group(*ops, name="restore_all")

    def _check_not_empty(self):
        if not self._vars and not self._allow_empty:
            raise ValueError("No variables to save")

    @property
    def last_checkpoints(self):
        return [path for path, _ in self._last]

    def set_last_checkpoints(self, last_checkpoints):
        """Sets the checkpoints `max_to_keep` counts, oldest first; as TF's, they are never
        deleted (their time is unknown: each counts as one to keep)."""
        if not isinstance(last_checkpoints, list):
            raise AssertionError(f"last_checkpoints must be a list: {last_checkpoints}")
        self._last = [(path, float("inf")) for path in last_checkpoints]

    def set_last_checkpoints_with_time(self, last_checkpoints_with_time):
        """`set_last_checkpoints` of ``[(path, timestamp)]``."""
        if not isinstance(last_checkpoints_with_time, list):
            raise AssertionError(f"last_checkpoints_with_time must be a list: "
                                 f"{last_checkpoints_with_time}")
        self._last = list(last_checkpoints_with_time)

    def recover_last_checkpoints(self, checkpoint_paths):
        """Takes up the checkpoints of `checkpoint_paths` that still exist (a restarted
        program's, from `get_checkpoint_state`), so that `max_to_keep` deletes them in turn."""
        kept = [p for p in checkpoint_paths if bundle.exists(p)]
        self._last = list(zip(kept, management.get_checkpoint_mtimes(kept)))

    def save(self, sess, save_path, global_step=None, latest_filename=None,
             meta_graph_suffix="meta", write_meta_graph=True, write_state=True,
             strip_default_attrs=False, save_debug_info=False):
        """Writes the checkpoint ``save_path[-global_step]``; returns its path."""
        self._check_not_empty()
        given = save_path
        if global_step is not None:
            if not isinstance(global_step, int):
                global_step = int(self._values(sess, [global_step])[0])
            save_path = (f"{save_path}-{global_step:08d}" if self._pad
                         else f"{save_path}-{global_step}")
        directory = os.path.dirname(save_path)
        if directory and not os.path.isdir(directory) and not self._sharded:
            # TF's bundle writer makes the checkpoint's own directory, not its parents (its
            # sharded save, none).
            parent = os.path.dirname(os.path.normpath(directory))
            if not parent or os.path.isdir(parent):
                os.mkdir(directory)
        if directory and not os.path.isdir(directory):
            raise ValueError(f"Parent directory of {given} doesn't exist, can't save.")
        targets = self._targets()
        values = dict(zip(map(id, targets), self._values(sess, targets)))
        tensors, dtypes = {}, {}
        for key, v in self._vars.items():
            if isinstance(v, list):  # (a partitioned variable: its shards as slices)
                info = v[0]._save_slice_info
                tensors[key] = bundle.Sliced(info.full_shape, [
                    (part._save_slice_info.var_offset, values[id(part)]) for part in v])
                dtypes[key] = v[0].dtype.base_dtype
            else:
                tensors[key], dtypes[key] = values[id(v)], v.dtype.base_dtype
        bundle.write_bundle(save_path, tensors, dtypes)
        if write_state:  # (as TF's: only a save that writes the state file counts)
            self._record(save_path)
            # (the paths as given, unless relative paths are asked for: TF's state file)
            update = (management.update_checkpoint_state if self._relative
                      else management.update_checkpoint_state_v1)
            update(directory, save_path, self.last_checkpoints, latest_filename=latest_filename)
            self._delete_dropped(meta_graph_suffix)
        if write_meta_graph and self._graph is not None:
            self.export_meta_graph(f"{save_path}.{meta_graph_suffix}")
        return save_path

    def _record(self, save_path):
        """Counts `save_path` as the newest checkpoint; one more than `max_to_keep` drops
        the oldest (without `max_to_keep`, none are counted, as in TF)."""
        if not self._max_to_keep:
            return
        self._last = [(p, t) for p, t in self._last if p != save_path]
        self._last.append((save_path, time.time()))
        if len(self._last) > self._max_to_keep:
            self._dropped.append(self._last.pop(0))

    def _delete_dropped(self, meta_graph_suffix):
        """Deletes the files of the oldest checkpoint dropped, unless it was written after
        the time `keep_checkpoint_every_n_hours` next keeps one (then it stays, and that
        time moves on)."""
        if not self._dropped:
            return
        old, written = self._dropped.pop(0)
        if written > self._next_kept:
            self._next_kept += self._keep_hours * 3600
            return
        for f in (bundle.index_path(old), bundle.data_path(old), f"{old}.{meta_graph_suffix}"):
            if os.path.exists(f):
                os.remove(f)

    def as_saver_def(self):
        """The ``SaverDef`` naming this saver's restore operation (TF's form, version 2), or
        that of the meta graph it was imported with into a function."""
        if self._imported_def is not None:
            return self._imported_def
        from eagerflow._src.compat import meta_graph  # noqa: PLC0415
        pb, _ = meta_graph._protos()
        return pb.SaverDef(
            filename_tensor_name=f"{self._scope}Const:0",  # (the nodes `with_tf_saver` writes)
            save_tensor_name=f"{self._scope}control_dependency:0",
            restore_op_name=self._restore.name if self._restore is not None else "",
            max_to_keep=self._max_to_keep or 0, sharded=self._sharded,
            keep_checkpoint_every_n_hours=self._keep_hours, version=pb.SaverDef.V2)

    saver_def = property(as_saver_def, doc="This saver's ``SaverDef`` (`as_saver_def`).")

    def export_meta_graph(self, filename=None, collection_list=None, as_text=False,
                          export_scope=None, clear_devices=False,
                          clear_extraneous_savers=False, strip_default_attrs=False,
                          save_debug_info=False):
        """`meta_graph.export_meta_graph` of this saver's graph, with its ``SaverDef``."""
        from eagerflow._src.compat import meta_graph  # noqa: PLC0415
        graph_def = None
        if self._restore is not None and all(
                getattr(v, "_snapshot", None) is not None for v in self._targets()):
            graph_def = meta_graph.with_tf_saver(meta_graph.graph_def_of(self._graph),
                                                 self._scope, self._vars)
        return meta_graph.export_meta_graph(
            filename, graph_def=graph_def, saver_def=self.as_saver_def(),
            collection_list=collection_list, as_text=as_text, graph=self._graph)

    def restore(self, sess, save_path):
        """Sets the variables from the checkpoint `save_path`."""
        if save_path is None:
            raise ValueError("Can't load save_path when it is None.")
        if not bundle.exists(save_path):
            raise ValueError(f"The passed save_path is not a valid checkpoint: {save_path}")
        logging_v1.info("Restoring parameters from %s", save_path)
        reader = bundle.BundleReader(save_path)
        try:
            values = {}
            for key in sorted(self._vars):  # (TF restores, and fails, in key order)
                if not reader.has_tensor(key):
                    raise errors.NotFoundError(None, None, _failed(
                        "a Variable name or other graph key that is missing from",
                        f"Key {key} not found in checkpoint", f"{self._scope}RestoreV2"))
                values[key] = reader.get_tensor(key)
                v = self._vars[key]
                message = trackable.dtype_mismatch((v[0] if isinstance(v, list) else v).dtype,
                                                   values[key], key)
                if message is not None:
                    raise errors.InvalidArgumentError(None, None, _failed(
                        "a mismatch between the current graph and the graph from", message,
                        f"{self._scope}RestoreV2"))
        finally:
            reader.close()
        parts = {}  # id(variable) -> its value
        for key in sorted(self._vars):
            v = self._vars[key]
            if isinstance(v, list):
                full = v[0]._save_slice_info.full_shape
                if list(values[key].shape) != list(full):
                    raise errors.InvalidArgumentError(None, None, _failed(
                        "a mismatch between the current graph and the graph from",
                        f"tensor_name = {key}; shape in shape_and_slice spec "
                        f"{_dims_text(full)} does not match the shape stored in checkpoint: "
                        f"{_dims_text(values[key].shape)}", f"{self._scope}RestoreV2"))
                for part in v:
                    info = part._save_slice_info
                    parts[id(part)] = values[key][tuple(
                        slice(o, o + n) for o, n in zip(info.var_offset, info.var_shape))]
                continue
            shape = getattr(v, "shape", None)
            if self._restore is None:  # (eagerly: the assignment's error, as TF's)
                trackable.check_shape(v, values[key], key)
            elif shape is not None and not shape.is_compatible_with(values[key].shape):
                raise errors.InvalidArgumentError(None, None, _failed(
                    "a mismatch between the current graph and the graph from",
                    f"Assign requires shapes of both tensors to match. lhs shape= "
                    f"{_dims_text(shape)} rhs shape= {_dims_text(values[key].shape)}",
                    f"{self._scope}Assign"))
            parts[id(v)] = values[key]
        if self._restore is None:
            for v in self._targets():
                v.assign(parts[id(v)])
            return
        sess.run(self._restore, {self._feeds[id(v)]: parts[id(v)] for v in self._targets()})

    def _targets(self):
        """The variables saved, the shards of partitioned ones one by one."""
        return [part for v in self._vars.values()
                for part in (v if isinstance(v, list) else [v])]

    def _values(self, sess, tensors):
        if self._graph is None or context.get().graph is None and sess is None:
            return [t.numpy() for t in tensors]
        return sess.run(list(tensors))


def _saveables(var_list):
    """``{checkpoint key: variable}`` of a Saver's `var_list` (a list, or a dict from keys);
    a partitioned variable (or shards of one, given one by one) is the list of its shards
    under the full variable's name, as TF saves it: one tensor in slices."""
    from eagerflow._src.compat.partitioned_variables import (  # noqa: PLC0415
        PartitionedVariable)
    if isinstance(var_list, dict):
        out = {}
        for key, v in var_list.items():
            if isinstance(v, (PartitionedVariable, list, tuple)):
                v = sorted(v, key=lambda part: part._save_slice_info.var_offset)
            out[key] = v
        return out
    out = {}
    for v in nest.flatten(var_list):
        if isinstance(v, PartitionedVariable) or getattr(v, "_save_slice_info", None) is None:
            key = v.name if isinstance(v, PartitionedVariable) else _op_name(v)
            if key in out:
                raise ValueError(f"At least two variables have the same name: {key}")
            out[key] = list(v) if isinstance(v, PartitionedVariable) else v
            continue
        shards = out.setdefault(v._save_slice_info.full_name, [])
        if not isinstance(shards, list):
            raise ValueError(f"Mixing slices and non-slices with the same name: "
                             f"{v._save_slice_info.full_name}")
        shards.append(v)
    for key, v in out.items():
        if isinstance(v, list):
            v.sort(key=lambda part: part._save_slice_info.var_offset)
    return out


def _failed(cause, error, node):
    """TF 1's message of a failed restore: its likely `cause`, then the run's `error`."""
    return (f"Restoring from checkpoint failed. This is most likely due to {cause} the "
            f"checkpoint. Please ensure that you have not altered the graph expected based on "
            f"the checkpoint. Original error:\n\nGraph execution error:\n\n{error}\n\t "
            f"[[{{{{node {node}}}}}]]")


def _dims_text(shape):
    return "[" + ",".join(str(d) for d in list(shape)) + "]"


@export("compat.v1.train.init_from_checkpoint")
def init_from_checkpoint(ckpt_dir_or_file, assignment_map):
    """Makes variables start from the values of a checkpoint (written by name, as a
    `Saver`'s, or by object): their initializers assign the checkpoint's tensors instead.

    `assignment_map` maps checkpoint names to variables (a `Variable`, or the name
    `get_variable` made it under): ``{"old/w": "new/w"}`` one by one, ``{"old/": "new/"}``
    every variable of scope ``new`` from the tensor of the same name under ``old``.

    >>> import tempfile
    >>> path = tf.train.Checkpoint(w=tf.Variable([1.0, 2.0])).write(tempfile.mkdtemp() + "/c")
    >>> with tf.compat.v1.Graph().as_default():
    ...     with tf.compat.v1.variable_scope("new"):
    ...         w = tf.compat.v1.get_variable("w", [2])
    ...     tf.compat.v1.train.init_from_checkpoint(path, {"w/.ATTRIBUTES/VARIABLE_VALUE": w})
    ...     with tf.compat.v1.Session() as sess:
    ...         sess.run(tf.compat.v1.global_variables_initializer())
    ...         print(sess.run(w))
    [1. 2.]
    """
    from eagerflow._src.compat.partitioned_variables import (  # noqa: PLC0415
        PartitionedVariable)
    reader = checkpoint.load_checkpoint(ckpt_dir_or_file)
    shapes = reader.get_variable_to_shape_map()
    graph = graph_mode.default_v1_graph()
    # (a partitioned variable under its full name, in place of its shards)
    store = {name: v for name, v in graph.variable_store.items()
             if getattr(v, "_save_slice_info", None) is None}
    store.update(graph.partitioned_store)
    items = assignment_map.items() if hasattr(assignment_map, "items") else assignment_map
    for ckpt_name, target in sorted(items, key=lambda item: item[0]):
        var = target if isinstance(target, (Variable, PartitionedVariable)) else store.get(
            target)
        if var is not None:
            if ckpt_name not in shapes:
                raise ValueError(f"Tensor {ckpt_name} is not found in {ckpt_dir_or_file} "
                                 f"checkpoint {shapes}")
            if not var.shape.is_compatible_with(shapes[ckpt_name]):
                raise ValueError(f"Shape of variable {var.name} ({var.shape}) doesn't match "
                                 f"with shape of tensor {ckpt_name} ({shapes[ckpt_name]}) "
                                 f"from checkpoint reader.")
            _initialize_from(var, reader.get_tensor(ckpt_name))
            continue
        scope = target[:target.rindex("/")] if "/" in target else ""
        if not ckpt_name.endswith("/"):
            raise ValueError(f"Assignment map with scope only name {scope} should map to "
                             f"scope only {ckpt_name}. Should be 'scope/': 'other_scope/'.")
        for name in sorted(n for n in store if not scope or n.startswith(scope + "/")):
            # (the name's part below the scope, TF's way, '/' naming no scope at all)
            rest = name[len(scope):] if target == "/" else name[len(scope) + 1:]
            full = (rest if ckpt_name == "/" else ckpt_name + rest).rstrip("/")
            if full not in shapes:
                raise ValueError(f"Tensor {full} ({name[len(scope) + 1:]} in {ckpt_name}) is "
                                 f"not found in {ckpt_dir_or_file} checkpoint")
            _initialize_from(store[name], reader.get_tensor(full))


def _initialize_from(var, value):
    """Gives `var` an initializer assigning `value` (eagerly: assigns it now); each shard of a
    partitioned variable its slice."""
    if not isinstance(var, Variable):
        for part in var:
            info = part._save_slice_info
            _initialize_from(part, value[tuple(slice(o, o + n) for o, n in
                                               zip(info.var_offset, info.var_shape))])
        return
    if getattr(var, "_graph", None) is None or graph_mode.v1_graph() is None:
        var.assign(value)
        return
    graph = var._graph
    with context.name_scope_push(""), graph.control_dependencies(None):
        initial = constant(value, dtype=var.dtype, name="checkpoint_initializer")
        var._initializer_op = var.assign(initial, read_value=False)
    var._initial_value = initial

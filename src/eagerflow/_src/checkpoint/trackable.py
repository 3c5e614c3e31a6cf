"""The object graph a checkpoint saves: what each object depends on, and what it stores.

The protocol (TF's, duck-typed; nothing to inherit):

- ``obj._trackable_children()`` returns ``(name, child)`` pairs (or a dict) in the
  order TF lists them; ``obj._lookup_dependency(name)`` may find a child a
  restore asks for by another name (a Keras model's ``layer-0``).
- ``obj._serialize_to_tensors()`` returns ``{name: tensor or array}``, the
  values the object itself stores (``<path>/.ATTRIBUTES/<name>`` in the
  checkpoint), and ``obj._restore_from_tensors({name: array})`` takes them back
  (a dataset iterator's state will use these).
- ``tracked(owner)`` (``eagerflow._src.core.module``) is called when `owner`
  gains children, so that values of a restore waiting for them are assigned.
- An optimizer that keeps slots by variable (TF's OptimizerV2) gives
  ``obj._checkpoint_slot_variables()``: ``[(slot name, [(variable, slot)])]`` in
  its order of slot names. Slots are saved as TF saves them: nodes after all
  others, listed in the optimizer's ``slot_variables``, under the keys
  ``<variable>/.OPTIMIZER_SLOT/<optimizer>/<slot name>/...``; restored through
  ``get_slot(variable, name)``, when the optimizer makes the slot (it calls
  ``tracked``) if it has none yet.

Built in: a `Variable` stores ``VARIABLE_VALUE``; a `Module`'s children are its
attributes holding variables, modules, other trackables and (wrapped) lists,
tuples and dicts, in assignment order; a list's or tuple's are its trackable
items by index, a dict's its trackable values by key, in insertion order.

>>> m = tf.Module()
>>> m.w = tf.Variable(1.0)
>>> m.layers = [tf.Variable(2.0)]
>>> [name for name, _ in children(m)]
['w', 'layers']
"""
import collections
import contextlib
import weakref

import numpy as np

from eagerflow._src import backend
from eagerflow._src.core import context, convert, errors
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import module as module_lib
from eagerflow._src.core.module import WRAPPER_TYPES, Module, unsaveable
from eagerflow._src.core.protos import checkpoint as pb
from eagerflow._src.core.resource import TrackableResource
from eagerflow._src.core.variables import Variable

VARIABLE_VALUE = "VARIABLE_VALUE"
OBJECT_GRAPH_KEY = "_CHECKPOINTABLE_OBJECT_GRAPH"
_ATTRIBUTES = ".ATTRIBUTES"


def is_trackable(value):
    """Whether `value` is a node of the object graph."""
    return (isinstance(value, (Variable, Module, *WRAPPER_TYPES)) or
            hasattr(type(value), "_trackable_children") or
            hasattr(type(value), "_serialize_to_tensors"))


def _container_children(value):
    if isinstance(value, dict):
        return [(str(k), v) for k, v in value.items() if is_trackable(v) or _holds(v)]
    return [(str(i), v) for i, v in enumerate(value) if is_trackable(v) or _holds(v)]


def _holds(value):
    """A plain list, tuple or dict holding trackables (as TF would have wrapped it)."""
    if isinstance(value, (list, tuple)):
        return any(is_trackable(v) or _holds(v) for v in value)
    if isinstance(value, dict):
        return any(is_trackable(v) or _holds(v) for v in value.values())
    return False


def children(obj):
    """``[(name, child)]``: the object graph's edges from `obj`, in TF's order."""
    hook = getattr(type(obj), "_trackable_children", None)
    if hook is not None:
        found = obj._trackable_children()
        return list(found.items() if isinstance(found, dict) else found)
    if isinstance(obj, Variable):
        return []
    if isinstance(obj, Module):
        ignored = obj._TF_MODULE_IGNORED_PROPERTIES | obj._UNTRACKED_ATTRIBUTES
        return [(k, v) for k, v in vars(obj).items()
                if k not in ignored and (is_trackable(v) or _holds(v))]
    if isinstance(obj, (list, tuple, dict)):
        return _container_children(obj)
    return []


def lookup(obj, name):
    """The child `name` of `obj`, or None."""
    if type(obj) in _CONTAINERS:  # (directly: a restore looks up every item)
        if isinstance(obj, dict):
            child = obj.get(name)
        else:
            child = obj[int(name)] if name.isdigit() and int(name) < len(obj) else None
        if child is not None and (is_trackable(child) or _holds(child)):
            return child
    hook = getattr(type(obj), "_lookup_dependency", None)
    if hook is not None:
        found = obj._lookup_dependency(name)
        if found is not None:
            return found
    for key, child in children(obj):
        if key == name:
            return child
    return None


_CONTAINERS = (list, tuple, dict, *WRAPPER_TYPES)


def escape(name):
    """A name as a part of a checkpoint key: ``.`` -> ``..``, ``/`` -> ``.S`` (TF's escaping)."""
    return name.replace(".", "..").replace("/", ".S")


def variable_value(variable):
    """A variable's current value as a host NumPy array (not recorded on tapes or graphs)."""
    with context.init_scope():
        value = variable.handle.value
        if value is None or getattr(variable, "_saved_as_read", False):  # (a sync-on-read one)
            value = variable.value()._data
    return np.asarray(backend.to_host(value))


def serialize(obj):
    """``{attribute: value}`` that `obj` itself stores."""
    if isinstance(obj, Variable):
        return {VARIABLE_VALUE: variable_value(obj)}
    hook = getattr(type(obj), "_serialize_to_tensors", None)
    if hook is None:
        return {}
    out = {}
    for name, value in obj._serialize_to_tensors().items():
        out[name] = variable_value(value) if isinstance(value, Variable) else value
    return out


def _full_name(obj, path):
    if isinstance(obj, Variable):
        return obj.name.rpartition(":")[0] or obj.name
    return "/".join(path)


class Graph:
    """The object graph reachable from `root`, breadth first (TF's node order)."""

    def __init__(self, root, extra_children=()):
        self.objects = [root]
        self.paths = [()]
        self.edges = [[]]
        ids = {id(root): 0}
        queue = collections.deque([0])
        while queue:
            i = queue.popleft()
            edges = children(self.objects[i])
            if i == 0:
                edges = edges + list(extra_children)
            for name, child in edges:
                j = ids.get(id(child))
                if j is None:
                    j = ids[id(child)] = len(self.objects)
                    self.objects.append(child)
                    self.paths.append(self.paths[i] + (name,))
                    self.edges.append([])
                    queue.append(j)
                self.edges[i].append((j, name))
        self._add_slots(ids)

    slots = ()  # (optimizer node, variable node, slot name, slot node), as TF lists them
    _slot_keys = None  # slot node -> its key's prefix

    def _add_slots(self, ids):
        """The slot variables of the optimizers in the graph that keep slots by variable:
        nodes after the others, for the variables in the graph."""
        slots, keys = [], {}
        for i, obj in enumerate(list(self.objects)):
            if not hasattr(type(obj), "_checkpoint_slot_variables"):
                continue
            for name, pairs in obj._checkpoint_slot_variables():
                found = sorted((ids[id(v)], slot) for v, slot in pairs if id(v) in ids)
                for j, slot in found:
                    k = ids.get(id(slot))
                    if k is None:
                        k = ids[id(slot)] = len(self.objects)
                        self.objects.append(slot)
                        self.paths.append(self.paths[j] + (name,))
                        self.edges.append([])
                        keys[k] = "/".join([*map(escape, self.paths[j]), ".OPTIMIZER_SLOT",
                                            *map(escape, self.paths[i]), escape(name)])
                    slots.append((i, j, name, k))
        if slots:
            self.slots, self._slot_keys = slots, keys

    def key(self, i, attribute):
        if self._slot_keys and i in self._slot_keys:
            return f"{self._slot_keys[i]}/{_ATTRIBUTES}/{attribute}"
        # (the root's own: ``/.ATTRIBUTES/...``, its empty path joined as TF joins it)
        return "/".join([*(map(escape, self.paths[i]) if self.paths[i] else [""]),
                         _ATTRIBUTES, attribute])

    def serialize(self):
        """``(TrackableObjectGraph, {key: value}, {key: DType})``: what a checkpoint holds."""
        proto = pb.TrackableObjectGraph()
        tensors, dtypes = {}, {}
        has_values = [False] * len(self.objects)
        for i, obj in enumerate(self.objects):
            refused = unsaveable(obj)
            if refused is not None:
                raise refused
            node = proto.nodes.add()
            for j, name in self.edges[i]:
                node.children.add(node_id=j, local_name=name)
            for optimizer, variable, name, slot in self.slots:
                if optimizer == i:
                    node.slot_variables.add(original_variable_node_id=variable,
                                            slot_name=name, slot_variable_node_id=slot)
            values = serialize(obj)
            for attribute, value in values.items():
                key = self.key(i, attribute)
                if key in tensors:
                    parent = "/".join(self.paths[i][:-1]) or "the root"
                    raise ValueError(f"Cannot save {obj!r} as {key}: another object of "
                                     f"{parent} has the name {self.paths[i][-1]!r} too. Give "
                                     f"them distinct names.")
                node.attributes.add(name=attribute, full_name=_full_name(obj, self.paths[i]),
                                    checkpoint_key=key)
                if isinstance(value, dict):  # several tensors: ``<key><suffix>`` (a table's)
                    for suffix, part in value.items():
                        dtypes[key + suffix] = part.dtype
                        tensors[key + suffix] = part.numpy()
                    continue
                if isinstance(obj, Variable):
                    dtypes[key] = obj.dtype
                elif hasattr(value, "dtype") and isinstance(value.dtype, _d.DType):
                    dtypes[key] = value.dtype
                    value = value.numpy()
                tensors[key] = value
            has_values[i] = bool(values)
        # a node has checkpoint values when it or something below it stores some
        parents = [[] for _ in self.objects]
        for i, edges in enumerate(self.edges):
            for j, _ in edges:
                parents[j].append(i)
        queue = collections.deque(i for i, v in enumerate(has_values) if v)
        while queue:
            for p in parents[queue.popleft()]:
                if not has_values[p]:
                    has_values[p] = True
                    queue.append(p)
        for node, value in zip(proto.nodes, has_values):
            node.has_checkpoint_values.value = value
        return proto, tensors, dtypes


def node_names(proto):
    """``{node id: "(root).a.b"}`` for messages (TF's names of checkpoint nodes)."""
    names = {0: "(root)"}
    queue = collections.deque([0])
    while queue:
        i = queue.popleft()
        for ref in proto.nodes[i].children:
            if ref.node_id not in names:
                names[ref.node_id] = f"{names[i]}.{ref.local_name}"
                queue.append(ref.node_id)
    for i, node in enumerate(proto.nodes):  # slots: named by their variable and optimizer
        for slot in node.slot_variables:
            names.setdefault(slot.slot_variable_node_id,
                             f"{names.get(slot.original_variable_node_id, '?')}'s slot "
                             f"{slot.slot_name!r} of {names.get(i, '?')}")
    for i in range(len(proto.nodes)):
        names.setdefault(i, f"(node {i})")
    return names


# -- restoring --------------------------------------------------------------------------

def _c_name(dtype):
    return {"float32": "float", "float64": "double", "float16": "half"}.get(dtype.name,
                                                                          dtype.name)


# -- TF 1 graph variables: their values are a session's ------------------------------------
# Set by the TF 1 session module: `session_values` is ``(session) -> context manager`` in
# which graph variables have the values of `session` (the default session when None; it
# gives the session), `SESSION_HANDLES` the type of their handles.
session_values = None
SESSION_HANDLES = ()


def in_session(variable):
    """Whether `variable` is a TF 1 graph's (its value kept by a session); a model's other
    weights (a lookup layer's table handler) are not."""
    return bool(SESSION_HANDLES) and isinstance(getattr(variable, "handle", None),
                                                SESSION_HANDLES)


def session_scope(session=None):
    """A context in which TF 1 graph variables have their values in `session` (by default
    the default session, if any)."""
    return contextlib.nullcontext() if session_values is None else session_values(session)


def restore_variable(restoration, variable, value, key):
    """Assigns a checkpoint's `value` to `variable` now, or, for a TF 1 graph's variable,
    checks it now and adds it to the restoration's `pending` (``[(variable, value, key)]``),
    assigned in a session when the status runs its restore ops (as TF builds restore ops to
    run), and at once in the restoration's `session` when it streams into one."""
    if not in_session(variable):
        assign_variable(variable, value, key)
        return
    _check_value(variable, value, key)
    restoration.pending.append((variable, value, key))
    session = restoration.session
    if session is not None and not getattr(session, "_closed", False):
        with session_scope(session):
            assign_variable(variable, value, key)


def check_shape(variable, value, name):
    if not variable.shape.is_compatible_with(value.shape):
        raise ValueError(f"Received incompatible tensor with shape {value.shape} when attempting "
                         f"to restore variable with shape {tuple(variable.shape.as_list())} and "
                         f"name {name}.")


def dtype_mismatch(dtype, value, key):
    """TF's message when a checkpoint's `value` (at `key`) is not of `dtype`, else None."""
    saved = _d.from_numpy(value.dtype) if value.dtype != object else _d.string
    if saved == dtype:
        return None
    return (f"tensor_name = {key}; expected dtype {_c_name(dtype)} does not equal original "
            f"dtype {_c_name(saved)}")


def _check_dtypes(wanted, values, keys):
    """TF's error for a checkpoint's `values` (``{name: array or {suffix: array}}``, saved
    at `keys` plus the suffix) of other dtypes than the `wanted` tensors of the same form
    (what the object saves itself)."""
    for name, value in values.items():
        want = wanted.get(name)
        pairs = [(value[k], want[k], keys[name] + k) for k in value if k in want] \
            if isinstance(value, dict) and isinstance(want, dict) else \
            [(value, want, keys[name])] if want is not None else []
        for array, tensor, key in pairs:
            if isinstance(array, np.ndarray) and hasattr(tensor, "dtype"):
                message = dtype_mismatch(tensor.dtype, array, key)
                if message is not None:
                    raise errors.InvalidArgumentError(None, None, message)


def _check_value(variable, value, key):
    message = dtype_mismatch(variable.dtype, value, key)
    if message is not None:
        raise errors.InvalidArgumentError(None, None, message)
    check_shape(variable, value, variable.name)


def assign_variable(variable, value, key):
    """Assigns a checkpoint's `value` (an array just read, which the variable may keep) to
    `variable`, with TF's errors for mismatches."""
    _check_value(variable, value, key)
    with context.init_scope():  # also when created while a function is traced
        if value.dtype != object:  # the array is ours: held as it is, not copied again
            value = convert.from_array(value)
        variable.assign(value, read_value=False)


class SavedVariant:
    """A variant tensor in a checkpoint TF wrote (a dataset iterator's ``ITERATOR_STATE``),
    given to the object restored in place of its value, which eagerflow cannot decode."""

    def __init__(self, key):
        self.key = key

    def __repr__(self):
        return f"<variant tensor {self.key}>"


class Restoration:
    """One restore: matches the saved object graph to live objects, assigns what it can and
    keeps waiting (weakly) for objects created later."""

    def __init__(self, reader, proto):
        self.reader = reader
        self.proto = proto
        self.matched = {}  # node id -> id of the object matched
        self.pending = []  # [(TF 1 graph variable, value, key)] to assign in a session
        self.session = None  # a TF 1 session the values of graph variables made later go to
        self._objects = {}  # node id -> the object (weakly where it can be)
        self.unused_attributes = {}  # node id -> [attribute names]
        self._slots_of = collections.defaultdict(list)  # variable node -> [(optimizer, slot)]
        for i, node in enumerate(proto.nodes):
            for slot in node.slot_variables:
                self._slots_of[slot.original_variable_node_id].append((i, slot))

    def object(self, node_id):
        """The object matched to `node_id` (None if none, or gone)."""
        found = self._objects.get(node_id)
        return found() if isinstance(found, weakref.ref) else found

    def match(self, node_id, obj):
        self.matched[node_id] = id(obj)
        try:
            self._objects[node_id] = weakref.ref(obj)
            return True
        except TypeError:  # a plain list or dict
            self._objects[node_id] = obj
            return False

    def bind(self, node_id, obj, anchor=None, path=()):
        """Matches `obj` to saved node `node_id` and its children to theirs, breadth first.

        A child not there yet is waited for at the nearest object that can be weakly
        referenced (`anchor`), by its path of names from there.
        """
        queue = collections.deque([(node_id, obj, anchor, path)])
        while queue:
            i, o, anchor, path = queue.popleft()
            if i in self.matched:
                continue
            if self.match(i, o):  # else a plain list or dict: found again from its anchor
                anchor, path = o, ()
            node = self.proto.nodes[i]
            if node.attributes:
                self._restore_values(i, o, node)
            for ref in node.children:
                if ref.node_id in self.matched:
                    continue
                child = lookup(o, ref.local_name)
                if child is None:
                    if anchor is not None:
                        _wait(anchor, path + (ref.local_name,), ref.node_id, self)
                else:
                    queue.append((ref.node_id, child, anchor, path + (ref.local_name,)))
            for slot in node.slot_variables:
                self._restore_slot(o, slot)
            for optimizer_id, slot in self._slots_of.get(i, ()):  # (a variable matched
                optimizer = self.object(optimizer_id)               # after its optimizer)
                if optimizer is not None:
                    self._restore_slot(optimizer, slot)

    def _restore_values(self, i, obj, node):
        attributes = {a.name: a.checkpoint_key for a in node.attributes}
        if isinstance(obj, Variable):
            key = attributes.pop(VARIABLE_VALUE, None)
            if key is not None:
                restore_variable(self, obj, self.reader.get_tensor(key), key)
        elif hasattr(type(obj), "_restore_from_tensors"):
            values = {n: self._attribute_value(k) for n, k in sorted(attributes.items())}
            if isinstance(obj, TrackableResource):  # (a table: its keys' and values' dtypes)
                _check_dtypes(obj._serialize_to_tensors(), values, attributes)
            obj._restore_from_tensors(values)
            attributes = {}
        if attributes:
            self.unused_attributes[i] = sorted(attributes)

    def _attribute_value(self, key):
        """The tensor at `key`, or ``{suffix: tensor}`` of the tensors saved under it with
        suffixes (a table's ``-keys`` and ``-values``, TF's iterator's ``_STATE``)."""
        if self.reader.has_tensor(key):
            return self._tensor(key)
        parts = {k[len(key):]: self._tensor(k) for k in self.reader.keys()
                 if k.startswith(key) and k[len(key):len(key) + 1] in ("-", "_")}
        return parts or self.reader.get_tensor(key)  # (none: the reader's NotFoundError)

    def _tensor(self, key):
        if self.reader.dtype(key) == _d.variant:
            return SavedVariant(key)  # (not read: its encoding is TF's C++ objects')
        return self.reader.get_tensor(key)

    def _restore_slot(self, optimizer, slot):
        """A slot variable saved by an optimizer that keeps slots by variable (TF's
        `get_slot`): restored when both the optimizer and the variable are matched, once
        the optimizer has the slot (one that makes slots later is waited for)."""
        if slot.slot_variable_node_id in self.matched:
            return
        variable = self.object(slot.original_variable_node_id)
        if variable is None:
            return  # tried again when the variable is matched
        found = _slot(optimizer, variable, slot.slot_name)
        if found is not None:
            self.bind(slot.slot_variable_node_id, found)
        elif hasattr(type(optimizer), "_checkpoint_slot_variables"):
            ref, name = weakref.ref(variable), slot.slot_name

            def find(owner):
                v = ref()
                return None if v is None else _slot(owner, v, name)
            _wait(optimizer, find, slot.slot_variable_node_id, self)


def _slot(optimizer, variable, name):
    """`optimizer`'s slot `name` of `variable`, or None."""
    get_slot = getattr(optimizer, "get_slot", None)
    if get_slot is None:
        return None
    try:
        return get_slot(variable, name)
    except (KeyError, AttributeError, ValueError, IndexError):
        return None


# Restores waiting for children not created yet: id(anchor) -> (weakref, [(path, node, restore)]);
# a path is the names from the anchor, or a function finding the object from it (a slot)
_WAITING = {}


def _waiting_at(table, hook, anchor):
    """The list of what waits at `anchor` in the module's table named `table` (``id ->
    (weakref, list)``, emptied of the anchor when it is collected), with `hook` called as
    objects gain children. (The table is found by name when an anchor goes, so that
    nothing but the module holds it: at exit its restorations are collected, and log.)"""
    if hook not in module_lib.TRACKING_HOOKS:  # (no cost to modules while none waits)
        module_lib.TRACKING_HOOKS.append(hook)
    found = globals()[table]
    entry = found.get(id(anchor))
    if entry is None or entry[0]() is not anchor:
        key = id(anchor)
        ref = weakref.ref(anchor, lambda _, key=key, table=table: _forget(table, key))
        entry = found[key] = (ref, [])
    return entry[1]


def _forget(table, key):
    found = globals().get(table)
    if found is not None:
        found.pop(key, None)


def _wait(anchor, path, node_id, restoration):
    _waiting_at("_WAITING", _on_tracked, anchor).append((path, node_id, restoration))


def _on_tracked(owner):
    entry = _WAITING.get(id(owner))
    if entry is None or entry[0]() is not owner:
        return
    waiting = entry[1]
    found = {(): owner}  # path -> object, looked up once per call

    def find(path):
        if path not in found:
            parent = find(path[:-1])
            found[path] = None if parent is None else lookup(parent, path[-1])
        return found[path]

    for item in list(waiting):
        path, node_id, restoration = item
        if node_id in restoration.matched:
            waiting.remove(item)
            continue
        obj = find(path) if isinstance(path, tuple) else path(owner)
        if obj is not None:
            waiting.remove(item)
            restoration.bind(node_id, obj, owner, path if isinstance(path, tuple) else ())
    if not waiting:
        _WAITING.pop(id(owner), None)
    if not _WAITING and _on_tracked in module_lib.TRACKING_HOOKS:
        module_lib.TRACKING_HOOKS.remove(_on_tracked)


def waiting_nodes(restoration):
    """The saved nodes `restoration` still waits for."""
    return {node for _, items in list(_WAITING.values()) for _, node, r in items
            if r is restoration and node not in r.matched}



# -- checkpoints written by name (TF 1's `Saver`) ---------------------------------------

class NameRestoration:
    """A restore of a checkpoint written by name (no object graph): each variable reachable
    from the objects restored takes the value saved under its name (``dense/kernel`` for
    ``dense/kernel:0``), as TF's `Checkpoint.restore` reads such checkpoints. Variables
    created later below those objects get their values when they are tracked."""

    def __init__(self, reader):
        self.reader = reader
        self._unused = {}  # id(variable) -> (weakref, [names not in the checkpoint])
        self._seen = {}  # id(object) -> weakref: objects visited once (and only once)
        self.pending = []  # [(TF 1 graph variable, value, name)] to assign in a session
        self.session = None  # a TF 1 session the values of graph variables made later go to

    def visit(self, root, extra_children=()):
        """Restores the variables of the graph of `root` not visited yet; waits below the
        other objects for variables created later."""
        for obj in Graph(root, extra_children).objects:
            key = id(obj)
            ref = self._seen.get(key)
            if ref is not None and ref() is obj:
                continue
            try:
                self._seen[key] = weakref.ref(obj, lambda _, key=key: self._seen.pop(key, None))
            except TypeError:  # a plain list or dict: walked again from its owner
                continue
            if isinstance(obj, Variable):
                self._restore(obj)
            else:
                _wait_by_name(obj, self)

    def _restore(self, variable):
        name = _full_name(variable, ())
        if not self.reader.has_tensor(name):
            self._unused[id(variable)] = (weakref.ref(variable), [name])
            return
        value = self.reader.get_tensor(name)
        check_shape(variable, value, name)  # (before the dtype, as TF assigns)
        saved = _d.from_numpy(value.dtype) if value.dtype != object else _d.string
        if saved != variable.dtype:
            raise errors.InvalidArgumentError(
                None, "AssignVariableOp", f"Trying to assign variable with wrong dtype. "
                f"Expected {_c_name(variable.dtype)} got {_c_name(saved)} "
                f"[Op:AssignVariableOp] name: ")
        restore_variable(self, variable, value, name)

    def unused(self):
        """``[(variable, [names])]`` of the live variables the checkpoint had no value for."""
        found = ((ref(), names) for ref, names in self._unused.values())
        return [(v, names) for v, names in found if v is not None]


_BY_NAME = {}  # id(anchor) -> (weakref, [NameRestoration]): restores waiting below anchors


def _wait_by_name(anchor, restoration):
    waiting = _waiting_at("_BY_NAME", _on_tracked_by_name, anchor)
    if restoration not in waiting:
        waiting.append(restoration)


def _on_tracked_by_name(owner):
    entry = _BY_NAME.get(id(owner))
    if entry is not None and entry[0]() is owner:
        for restoration in list(entry[1]):
            restoration.visit(owner)
    if not _BY_NAME and _on_tracked_by_name in module_lib.TRACKING_HOOKS:
        module_lib.TRACKING_HOOKS.remove(_on_tracked_by_name)

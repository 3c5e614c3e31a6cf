"""``tf.train.TrackableView`` and ``tf.train.CheckpointView``: the object graph of live
objects, and the one a checkpoint saved, walked from their roots.

>>> m = tf.Module(); m.w = tf.Variable(1.0)
>>> list(tf.train.TrackableView(m).children(m))
['w']
"""
import collections
import os

import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.checkpoint import bundle, trackable
from eagerflow._src.core.protos import checkpoint as pb


def _breadth_first(start, edges):
    """Every node reachable from `start` once, breadth first; `edges(node)` gives
    ``(name, next node)`` pairs and nodes are compared by identity."""
    seen, order, queue = {id(start)}, [start], collections.deque([start])
    while queue:
        for _, child in edges(queue.popleft()):
            if id(child) not in seen:
                seen.add(id(child))
                order.append(child)
                queue.append(child)
    return order


@export("train.TrackableView")
class TrackableView:
    """The trackable objects reachable from `root`, as a checkpoint of it would save them."""

    def __init__(self, root):
        self._root = root

    @property
    def root(self):
        return self._root

    @classmethod
    def children(cls, obj, save_type="checkpoint", **kwargs):
        """``{name: child}``: the objects `obj` depends on, in TF's order."""
        return dict(trackable.children(obj))

    def descendants(self):
        """Every object reachable from the root (itself first), breadth first."""
        return _breadth_first(self._root, trackable.children)


@export("train.CheckpointView")
class CheckpointView:
    """The object graph the checkpoint `save_path` holds: nodes by id, the root 0."""

    def __init__(self, save_path):
        reader = bundle.BundleReader(os.fspath(save_path))
        data = reader.get_tensor(trackable.OBJECT_GRAPH_KEY)
        self._proto = pb.TrackableObjectGraph()
        self._proto.ParseFromString(data.item() if isinstance(data, np.ndarray) else data)

    def children(self, node_id):
        """``{name: node id}``: the nodes node `node_id` depends on."""
        return {ref.local_name: ref.node_id for ref in self._proto.nodes[node_id].children}

    def descendants(self):
        """Every node id reachable from the root (0 first), breadth first."""
        seen, order, queue = {0}, [0], collections.deque([0])
        while queue:
            for child in self.children(queue.popleft()).values():
                if child not in seen:
                    seen.add(child)
                    order.append(child)
                    queue.append(child)
        return order

    def match(self, obj):
        """``{node id: object}``: the objects of `obj`'s graph at the checkpoint's nodes
        (followed by name from the root)."""
        found, queue = {0: obj}, collections.deque([(0, obj)])
        while queue:
            node_id, current = queue.popleft()
            for name, child_id in self.children(node_id).items():
                if child_id in found:
                    continue
                child = trackable.lookup(current, name)
                if child is not None:
                    found[child_id] = child
                    queue.append((child_id, child))
        return found

    def diff(self, obj):
        """``(matched, nodes without an object, objects without a node)`` for `obj`."""
        matched = self.match(obj)
        unmatched_nodes = [n for n in self.descendants() if n not in matched]
        ids = {id(o) for o in matched.values()}
        unmatched_objects = [o for o in TrackableView(obj).descendants() if id(o) not in ids]
        return matched, unmatched_nodes, unmatched_objects

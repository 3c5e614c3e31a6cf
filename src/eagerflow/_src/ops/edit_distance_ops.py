"""`tf.edit_distance`: the Levenshtein distance between the sequences of two SparseTensors.

>>> h = tf.sparse.from_dense(tf.constant([[1, 2, 3]]))
>>> t = tf.sparse.from_dense(tf.constant([[1, 3, 3]]))
>>> tf.edit_distance(h, t, normalize=False)
<tf.Tensor: shape=(1,), dtype=float32, numpy=array([1.], dtype=float32)>
"""
import collections

import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import errors
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.core.node_forms import NodeForm, tf_args, tf_defaults, tf_nodes
from eagerflow._src.core.registry import PER_ELEMENT, batching_rules, register
from eagerflow._src.core.tensor_shape import TensorShape, unknown_shape
from eagerflow._src.ops.shape_rules import known_elements
from eagerflow._src.ops.sparse_tensor import SparseTensor


def _levenshtein(a, b):
    previous = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        current = [i]
        for j, y in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1,
                               previous[j - 1] + (x != y)))
        previous = current
    return previous[-1]


def _sequences(indices, values, shape):
    """{batch index: the values in the order of their last index}."""
    indices = np.asarray(indices).reshape(-1, len(shape))
    order = np.lexsort(indices.T[::-1])
    groups = collections.defaultdict(list)
    for i in order:
        groups[tuple(indices[i, :-1])].append(values[i])
    return groups


def _edit_distance(xp, hypothesis_indices, hypothesis_values, hypothesis_shape, truth_indices,
                   truth_values, truth_shape, normalize=True):
    if len(hypothesis_shape) != len(truth_shape):
        raise errors.op_error(
            errors.InvalidArgumentError, "EditDistance",
            f"Expected truth and hypothesis to have matching ranks, but their shapes are: "
            f"[{len(truth_shape)}] and [{len(hypothesis_shape)}]")
    hyp = _sequences(hypothesis_indices, hypothesis_values, hypothesis_shape)
    tru = _sequences(truth_indices, truth_values, truth_shape)
    shape = np.maximum(hypothesis_shape[:-1], truth_shape[:-1])
    out = np.zeros(shape, np.float32)
    with np.errstate(divide="ignore", invalid="ignore"):
        for key in set(hyp) | set(tru):
            h, t = hyp.get(key, []), tru.get(key, [])
            distance = np.float32(_levenshtein(h, t))
            out[key] = distance / np.float32(len(t)) if normalize else distance
    return out


def _edit_distance_rule(hypothesis_indices, hypothesis_values, hypothesis_shape, truth_indices,
                        truth_values, truth_shape, **_):
    # (TF knows the shape only from dense shapes known in full before run time)
    hyp, tru = known_elements(hypothesis_shape), known_elements(truth_shape)
    if hyp is None or tru is None or None in hyp or None in tru or len(hyp) != len(tru):
        return unknown_shape(), _d.float32
    return TensorShape([max(a, b) for a, b in zip(hyp[:-1], tru[:-1])]), _d.float32


_EDIT_DISTANCE = register("EditDistance", _edit_distance, _edit_distance_rule, tied=(1, 4),
                          not_differentiable="edit distance has no gradient")
tf_args[_EDIT_DISTANCE] = ("hypothesis_indices", "hypothesis_values", "hypothesis_shape",
                           "truth_indices", "truth_values", "truth_shape")
tf_nodes[_EDIT_DISTANCE] = NodeForm(types={"T": 1})
tf_defaults[_EDIT_DISTANCE] = {"normalize": True}
batching_rules[_EDIT_DISTANCE] = PER_ELEMENT


@export("edit_distance")
def edit_distance(hypothesis, truth, normalize=True, name="edit_distance"):
    """The Levenshtein distance between each hypothesis and truth sequence (their
    SparseTensors' last dimension), divided by the truth's length when `normalize`.

    The result has the shape of the two dense shapes' leading dimensions (their maximum).
    """
    if not isinstance(hypothesis, SparseTensor):
        raise TypeError("Hypothesis must be a SparseTensor.")
    if not isinstance(truth, SparseTensor):
        raise TypeError("Truth must be a SparseTensor.")
    return dispatch(_EDIT_DISTANCE, (hypothesis.indices, hypothesis.values,
                                     hypothesis.dense_shape, truth.indices, truth.values,
                                     truth.dense_shape), {"normalize": bool(normalize)}, name)

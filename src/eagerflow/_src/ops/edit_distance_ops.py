"""`tf.edit_distance`: the Levenshtein distance between the sequences of two SparseTensors.

>>> h = tf.sparse.from_dense(tf.constant([[1, 2, 3]]))
>>> t = tf.sparse.from_dense(tf.constant([[1, 3, 3]]))
>>> tf.edit_distance(h, t, normalize=False)
<tf.Tensor: shape=(1,), dtype=float32, numpy=array([1.], dtype=float32)>
"""
import collections

import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import errors
from eagerflow._src.ops.sparse_tensor import SparseTensor
from eagerflow._src.ops.wrappers import as_tensor


def _levenshtein(a, b):
    previous = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        current = [i]
        for j, y in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1,
                               previous[j - 1] + (x != y)))
        previous = current
    return previous[-1]


def _sequences(sparse):
    """{batch index: the values in the order of their last index}, and the dense shape."""
    indices = np.asarray(sparse.indices.numpy()).reshape(-1, len(sparse.dense_shape.numpy()))
    values = sparse.values.numpy()
    order = np.lexsort(indices.T[::-1])
    groups = collections.defaultdict(list)
    for i in order:
        groups[tuple(indices[i, :-1])].append(values[i])
    return groups, np.asarray(sparse.dense_shape.numpy())


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
    if hypothesis.values.dtype != truth.values.dtype:
        raise TypeError(f"Hypothesis and truth values must have the same dtype, got "
                        f"{hypothesis.values.dtype} and {truth.values.dtype}.")
    hyp, hyp_shape = _sequences(hypothesis)
    tru, tru_shape = _sequences(truth)
    if len(hyp_shape) != len(tru_shape):
        raise errors.InvalidArgumentError(
            None, "EditDistance", f"hypothesis and truth must have the same rank, got "
                                  f"{len(hyp_shape)} and {len(tru_shape)} [Op:EditDistance]")
    shape = np.maximum(hyp_shape[:-1], tru_shape[:-1])
    out = np.zeros(shape, np.float32)
    with np.errstate(divide="ignore", invalid="ignore"):
        for key in set(hyp) | set(tru):
            h, t = hyp.get(key, []), tru.get(key, [])
            distance = np.float32(_levenshtein(h, t))
            out[key] = distance / np.float32(len(t)) if normalize else distance
    return as_tensor(out)

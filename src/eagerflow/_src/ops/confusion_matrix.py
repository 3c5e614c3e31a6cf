"""`confusion_matrix`: counts of (label, prediction) pairs, a composite of existing ops.

>>> tf.math.confusion_matrix([0, 1, 1], [0, 1, 0])
<tf.Tensor: shape=(2, 2), dtype=int32, numpy=
array([[1, 0],
       [1, 1]], dtype=int32)>
"""
from eagerflow._src.backend.api_export import export
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core.convert import get_static_value
from eagerflow._src.ops import array_ops, cast_ops, debugging_ops, math_ops, reduction_ops
from eagerflow._src.ops.wrappers import as_tensor


def _squeeze_trailing_one(labels, predictions):
    """Drops a trailing dimension of size 1 that one of the two has over the other."""
    rank_l, rank_p = labels.shape.rank, predictions.shape.rank
    if rank_l is None or rank_p is None:
        return labels, predictions
    if rank_p == rank_l + 1 and predictions.shape[-1] == 1:
        predictions = array_ops.squeeze(predictions, [-1])
    elif rank_l == rank_p + 1 and labels.shape[-1] == 1:
        labels = array_ops.squeeze(labels, [-1])
    return labels, predictions


@export("math.confusion_matrix")
def confusion_matrix(labels, predictions, num_classes=None, weights=None, dtype=_d.int32,
                     name=None):
    """The `num_classes` x `num_classes` matrix counting each (label, prediction) pair, rows
    by label and columns by prediction; with `weights`, their sum for each pair.

    Labels and predictions are cast to int64 and must lie in ``[0, num_classes)``; by default
    num_classes is one more than the largest of them.

    >>> tf.math.confusion_matrix([1, 2], [1, 1], num_classes=3, weights=[0.5, 2.0],
    ...                          dtype=tf.float32)
    <tf.Tensor: shape=(3, 3), dtype=float32, numpy=
    array([[0. , 0. , 0. ],
           [0. , 0.5, 0. ],
           [0. , 2. , 0. ]], dtype=float32)>
    """
    dtype = _d.as_dtype(dtype)
    labels, predictions = _squeeze_trailing_one(as_tensor(labels), as_tensor(predictions))
    labels, predictions = cast_ops.cast(labels, _d.int64), cast_ops.cast(predictions, _d.int64)
    debugging_ops.assert_non_negative(labels, message="`labels` contains negative values")
    debugging_ops.assert_non_negative(predictions,
                                      message="`predictions` contains negative values")
    if num_classes is None:
        num_classes = math_ops.add(math_ops.maximum(reduction_ops.reduce_max(predictions),
                                                    reduction_ops.reduce_max(labels)), 1)
    else:
        num_classes = cast_ops.cast(num_classes, _d.int64)
        debugging_ops.assert_less(labels, num_classes, message="`labels` out of bound")
        debugging_ops.assert_less(predictions, num_classes, message="`predictions` out of bound")
    if weights is None:
        values = array_ops.ones_like(predictions, dtype)
    else:
        weights = as_tensor(weights)
        predictions.shape.assert_is_compatible_with(weights.shape)
        values = cast_ops.cast(weights, dtype)
    indices = array_ops.stack([labels, predictions], axis=1)
    shape = array_ops.stack([num_classes, num_classes])
    if get_static_value(shape) is None:  # scatter_nd takes a shape known when traced
        return array_ops.tensor_scatter_nd_add(array_ops.zeros(shape, dtype), indices, values,
                                               name=name)
    return array_ops.scatter_nd(indices, values, shape, name=name)

"""Intersection-over-union metrics for segmentation: IoU over chosen classes, MeanIoU over
all, their one-hot variants and BinaryIoU for thresholded scores.

All accumulate a ``[num_classes, num_classes]`` confusion matrix (rows: true classes,
columns: predicted) and compute, per class, ``tp / (tp + fp + fn)``; the result averages
over the classes that occurred.

>>> tf.keras.metrics.MeanIoU(num_classes=2)([0, 0, 1, 1], [0, 1, 0, 1])
<tf.Tensor: shape=(), dtype=float32, numpy=0.3333333432674408>
"""
import inspect

from eagerflow._src.backend.api_export import export
from eagerflow._src.keras.metrics.base_metric import Metric
from eagerflow._src.ops import array_ops, linalg_ops, math_ops, reduction_ops
from eagerflow._src.ops.cast_ops import cast
from eagerflow._src.ops.confusion_matrix import confusion_matrix


class _IoUBase(Metric):
    """The confusion-matrix state of the IoU metrics and its update."""

    def __init__(self, num_classes, name=None, dtype=None, ignore_class=None,
                 sparse_y_true=True, sparse_y_pred=True, axis=-1):
        super().__init__(name=name, dtype=dtype)
        self.num_classes = num_classes
        self.ignore_class = ignore_class
        self.sparse_y_true = sparse_y_true
        self.sparse_y_pred = sparse_y_pred
        self.axis = axis
        self.total_cm = self.add_weight("total_confusion_matrix",
                                        shape=(num_classes, num_classes), initializer="zeros")

    def update_state(self, y_true, y_pred, sample_weight=None):
        """Adds the batch's class pairs, each weighted by `sample_weight`."""
        if not self.sparse_y_true:
            y_true = reduction_ops.argmax(y_true, axis=self.axis)
        if not self.sparse_y_pred:
            y_pred = reduction_ops.argmax(y_pred, axis=self.axis)
        y_true = array_ops.reshape(cast(y_true, self._value_dtype), [-1])
        y_pred = array_ops.reshape(cast(y_pred, self._value_dtype), [-1])
        if sample_weight is not None:
            sample_weight = array_ops.reshape(cast(sample_weight, self._value_dtype), [-1])
        if self.ignore_class is not None:
            valid = math_ops.not_equal(y_true, cast(self.ignore_class, y_true.dtype))
            y_true = array_ops.boolean_mask(y_true, valid)
            y_pred = array_ops.boolean_mask(y_pred, valid)
            if sample_weight is not None:
                sample_weight = array_ops.boolean_mask(sample_weight, valid)
        return self.total_cm.assign_add(confusion_matrix(
            y_true, y_pred, self.num_classes, sample_weight, self._value_dtype))


@export("keras.metrics.IoU")
class IoU(_IoUBase):
    """The mean IoU of the classes `target_class_ids`, over the classes that occurred.

    Labels (and, unless `sparse_y_pred` is False, predictions) are class indices;
    `ignore_class` labels are left out.

    >>> tf.keras.metrics.IoU(num_classes=2, target_class_ids=[0])([0, 0, 1, 1], [0, 1, 0, 1])
    <tf.Tensor: shape=(), dtype=float32, numpy=0.3333333432674408>
    """

    def __init__(self, num_classes, target_class_ids, name=None, dtype=None,
                 ignore_class=None, sparse_y_true=True, sparse_y_pred=True, axis=-1):
        super().__init__(num_classes, name=name, dtype=dtype, ignore_class=ignore_class,
                         sparse_y_true=sparse_y_true, sparse_y_pred=sparse_y_pred, axis=axis)
        if max(target_class_ids) >= num_classes:
            raise ValueError(f"Target class id {max(target_class_ids)} is out of range, which "
                             f"is [0, {num_classes}).")
        self.target_class_ids = list(target_class_ids)

    def result(self):
        cm = self.total_cm.value()
        true_positives = linalg_ops.diag_part(cm)
        denominator = math_ops.subtract(
            math_ops.add(reduction_ops.reduce_sum(cm, axis=0),
                         reduction_ops.reduce_sum(cm, axis=1)), true_positives)
        true_positives = array_ops.gather(true_positives, self.target_class_ids)
        denominator = array_ops.gather(denominator, self.target_class_ids)
        occurred = reduction_ops.reduce_sum(
            cast(math_ops.not_equal(denominator, 0.0), self._value_dtype))
        iou = math_ops.divide_no_nan(true_positives, denominator)
        return math_ops.divide_no_nan(reduction_ops.reduce_sum(iou), occurred)

    def get_config(self):
        # each IoU class's config holds exactly its constructor's arguments, in their order,
        # except that IoU's own begins with the base config (name and dtype), as in Keras
        values = {**super().get_config(), "num_classes": self.num_classes,
                  "target_class_ids": self.target_class_ids, "ignore_class": self.ignore_class,
                  "sparse_y_true": self.sparse_y_true, "sparse_y_pred": self.sparse_y_pred,
                  "axis": self.axis, "threshold": getattr(self, "threshold", None)}
        order = list(inspect.signature(type(self).__init__).parameters)
        if type(self).__init__ is IoU.__init__:
            order = ["name", "dtype", *order]
        return {k: values[k] for k in order if k in values}


@export("keras.metrics.BinaryIoU")
class BinaryIoU(IoU):
    """The mean IoU of classes 0 and 1 (or those of `target_class_ids`) for scores that are
    class 1 when at least `threshold`.

    >>> tf.keras.metrics.BinaryIoU(threshold=0.3)([0, 1, 0, 1], [0.1, 0.2, 0.4, 0.7])
    <tf.Tensor: shape=(), dtype=float32, numpy=0.3333333432674408>
    """

    def __init__(self, target_class_ids=(0, 1), threshold=0.5, name=None, dtype=None):
        super().__init__(num_classes=2, target_class_ids=target_class_ids, name=name,
                         dtype=dtype)
        self.threshold = threshold

    def update_state(self, y_true, y_pred, sample_weight=None):
        """Adds the batch: scores of at least `threshold` are class 1, the others class 0."""
        y_pred = cast(y_pred, self._value_dtype)
        y_pred = cast(math_ops.greater_equal(y_pred, self.threshold), self._value_dtype)
        return super().update_state(y_true, y_pred, sample_weight)


@export("keras.metrics.MeanIoU")
class MeanIoU(IoU):
    """The mean IoU of all the classes that occurred.

    >>> tf.keras.metrics.MeanIoU(num_classes=2)([0, 0, 1, 1], [0, 1, 0, 1],
    ...                                         sample_weight=[0.3, 0.3, 0.3, 0.1])
    <tf.Tensor: shape=(), dtype=float32, numpy=0.2380952537059784>
    """

    def __init__(self, num_classes, name=None, dtype=None, ignore_class=None,
                 sparse_y_true=True, sparse_y_pred=True, axis=-1):
        super().__init__(num_classes, list(range(num_classes)), name=name, dtype=dtype,
                         ignore_class=ignore_class, sparse_y_true=sparse_y_true,
                         sparse_y_pred=sparse_y_pred, axis=axis)


@export("keras.metrics.OneHotIoU")
class OneHotIoU(IoU):
    """`IoU` for one-hot labels and class scores (or class indices, `sparse_y_pred`).

    >>> m = tf.keras.metrics.OneHotIoU(num_classes=3, target_class_ids=[0, 2])
    >>> m([[0, 0, 1], [1, 0, 0]], [[0.2, 0.3, 0.5], [0.1, 0.2, 0.7]])
    <tf.Tensor: shape=(), dtype=float32, numpy=0.25>
    """

    def __init__(self, num_classes, target_class_ids, name=None, dtype=None,
                 ignore_class=None, sparse_y_pred=False, axis=-1):
        super().__init__(num_classes, target_class_ids, name=name, dtype=dtype,
                         ignore_class=ignore_class, sparse_y_true=False,
                         sparse_y_pred=sparse_y_pred, axis=axis)


@export("keras.metrics.OneHotMeanIoU")
class OneHotMeanIoU(MeanIoU):
    """`MeanIoU` for one-hot labels and class scores (or class indices, `sparse_y_pred`).

    >>> m = tf.keras.metrics.OneHotMeanIoU(num_classes=3)
    >>> m([[0, 0, 1], [1, 0, 0]], [[0.2, 0.3, 0.5], [0.1, 0.2, 0.7]])
    <tf.Tensor: shape=(), dtype=float32, numpy=0.25>
    """

    def __init__(self, num_classes, name=None, dtype=None, ignore_class=None,
                 sparse_y_pred=False, axis=-1):
        super().__init__(num_classes, name=name, dtype=dtype, ignore_class=ignore_class,
                         sparse_y_true=False, sparse_y_pred=sparse_y_pred, axis=axis)

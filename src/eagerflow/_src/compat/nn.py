"""TF 1's signatures of the neural-network functions (``tf.compat.v1.nn``), each over its
TF 2 function: ``keep_prob`` for dropout, ``filter``/``value``/``dim``/``keep_dims``
spellings, ``use_cudnn_on_gpu``, and the cross-entropy that stops the labels' gradient.
The other names of ``tf.compat.v1.nn`` are those of ``tf.nn``.

>>> x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
>>> tf.compat.v1.nn.moments(x, [0], keep_dims=True)[0]
<tf.Tensor: shape=(1, 2), dtype=float32, numpy=array([[2., 3.]], dtype=float32)>
>>> tf.compat.v1.nn.softmax([[1.0, 1.0]], dim=1)
<tf.Tensor: shape=(1, 2), dtype=float32, numpy=array([[0.5, 0.5]], dtype=float32)>
"""
from eagerflow._src.backend.api_export import export
from eagerflow._src.compat import graph_mode
from eagerflow._src.compat.raw_ops import raw_op
from eagerflow._src.compat.partitioned_variables import PartitionedVariable
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import context
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.ops import (candidate_sampling_ops, cast_ops, conv_ops, linalg_ops, nn_ops,
                                sparse_ops)


def _either(new_name, new, old_name, old):
    """The value given under a TF 2 name or its TF 1 spelling (not both)."""
    if new is not None and old is not None:
        raise ValueError(f"Cannot specify both '{old_name}' and '{new_name}'.")
    return new if new is not None else old


@export("compat.v1.nn.dropout")
def dropout(x, keep_prob=None, noise_shape=None, seed=None, name=None, rate=None):
    """Zeroes each element with probability ``1 - keep_prob`` (or `rate`) and scales the
    others by ``1 / keep_prob``."""
    if keep_prob is not None and rate is not None:
        raise ValueError("Cannot specify both 'keep_prob' and 'rate'.")
    if keep_prob is not None:
        if isinstance(keep_prob, (int, float)) and not 0 < keep_prob <= 1:
            raise ValueError(f"`keep_prob` must be a scalar tensor or a float in the range "
                             f"(0, 1]. Got {keep_prob}")
        rate = 1 - keep_prob
    if rate is None:
        raise ValueError(f"`rate` must be provided. Received: rate={rate}")
    return nn_ops.dropout(x, rate, noise_shape=noise_shape, seed=seed, name=name)


@export("compat.v1.nn.softmax_cross_entropy_with_logits")
def softmax_cross_entropy_with_logits(labels=None, logits=None, dim=-1, name=None, axis=None):
    """Softmax cross-entropy along `dim`; no gradient flows into `labels` (TF 1's version,
    deprecated for `softmax_cross_entropy_with_logits_v2`)."""
    axis = _either("axis", axis, "dim", dim if dim != -1 or axis is None else None)
    with graph_mode.name_scope(name, "softmax_cross_entropy_with_logits_sg",
                               [logits, labels]) as scope:
        labels = cast_ops.stop_gradient(labels, name="labels_stop_gradient")
        return nn_ops.softmax_cross_entropy_with_logits(
            labels, logits, axis=-1 if axis is None else axis,
            name=scope or None)


@export("compat.v1.nn.softmax_cross_entropy_with_logits_v2")
def softmax_cross_entropy_with_logits_v2(labels, logits, axis=None, name=None, dim=None):
    """Softmax cross-entropy along `axis`, differentiable in `labels` too."""
    axis = _either("axis", axis, "dim", dim)
    return nn_ops.softmax_cross_entropy_with_logits(labels, logits,
                                                    axis=-1 if axis is None else axis, name=name)


@export("compat.v1.nn.softmax", "compat.v1.math.softmax")
def softmax(logits, axis=None, name=None, dim=None):
    return nn_ops.softmax(logits, _either("axis", axis, "dim", dim), name=name)


@export("compat.v1.nn.log_softmax", "compat.v1.math.log_softmax")
def log_softmax(logits, axis=None, name=None, dim=None):
    return nn_ops.log_softmax(logits, _either("axis", axis, "dim", dim), name=name)


@export("compat.v1.nn.moments")
def moments(x, axes, shift=None, name=None, keep_dims=None, keepdims=None):
    """Mean and variance of `x` over `axes`."""
    keepdims = _either("keepdims", keepdims, "keep_dims", keep_dims)
    return nn_ops.moments(x, axes, shift=shift, keepdims=bool(keepdims), name=name)


@export("compat.v1.nn.sufficient_statistics")
def sufficient_statistics(x, axes, shift=None, keep_dims=None, name=None, keepdims=None):
    keepdims = _either("keepdims", keepdims, "keep_dims", keep_dims)
    return nn_ops.sufficient_statistics(x, axes, shift=shift, keepdims=bool(keepdims), name=name)


@export("compat.v1.nn.weighted_moments")
def weighted_moments(x, axes, frequency_weights, name=None, keep_dims=None, keepdims=None):
    keepdims = _either("keepdims", keepdims, "keep_dims", keep_dims)
    return nn_ops.weighted_moments(x, axes, frequency_weights, keepdims=bool(keepdims),
                                   name=name)


@export("compat.v1.nn.conv2d")
def conv2d(input, filter=None, strides=None, padding=None, use_cudnn_on_gpu=True,  # noqa: A002
           data_format="NHWC", dilations=(1, 1, 1, 1), name=None, filters=None):
    """2-D convolution; `use_cudnn_on_gpu` is accepted (there is no GPU)."""
    del use_cudnn_on_gpu
    filters = _either("filters", filters, "filter", filter)
    return conv_ops.conv2d(input, filters, strides, padding, data_format=data_format,
                           dilations=dilations, name=name)


@export("compat.v1.nn.conv3d")
def conv3d(input, filter=None, strides=None, padding=None, data_format="NDHWC",  # noqa: A002
           dilations=(1, 1, 1, 1, 1), name=None, filters=None):
    filters = _either("filters", filters, "filter", filter)
    return conv_ops.conv3d(input, filters, strides, padding, data_format=data_format,
                           dilations=dilations, name=name)


@export("compat.v1.nn.conv1d")
def conv1d(value=None, filters=None, stride=None, padding=None, use_cudnn_on_gpu=None,
           data_format=None, name=None, input=None, dilations=None):  # noqa: A002
    del use_cudnn_on_gpu
    value = _either("input", input, "value", value)
    return conv_ops.conv1d(value, filters, stride, padding, data_format=data_format or "NWC",
                           dilations=dilations, name=name)


@export("compat.v1.nn.conv2d_transpose")
def conv2d_transpose(value=None, filter=None, output_shape=None, strides=None,  # noqa: A002
                     padding="SAME", data_format="NHWC", name=None, input=None, filters=None,
                     dilations=None):
    value = _either("input", input, "value", value)
    filters = _either("filters", filters, "filter", filter)
    return conv_ops.conv2d_transpose(value, filters, output_shape, strides, padding=padding,
                                     data_format=data_format, dilations=dilations, name=name)


@export("compat.v1.nn.convolution")
def convolution(input, filter, padding, strides=None, dilation_rate=None,  # noqa: A002
                name=None, data_format=None, filters=None, dilations=None):
    filters = _either("filters", filters, "filter", filter)
    dilations = _either("dilations", dilations, "dilation_rate", dilation_rate)
    return conv_ops.convolution(input, filters, strides=strides, padding=padding,
                                data_format=data_format, dilations=dilations, name=name)


@export("compat.v1.nn.depthwise_conv2d")
def depthwise_conv2d(input, filter, strides, padding, rate=None, name=None,  # noqa: A002
                     data_format=None, dilations=None):
    dilations = _either("dilations", dilations, "rate", rate)
    return conv_ops.depthwise_conv2d(input, filter, strides, padding, data_format=data_format,
                                     dilations=dilations, name=name)


@export("compat.v1.nn.separable_conv2d")
def separable_conv2d(input, depthwise_filter, pointwise_filter, strides, padding,  # noqa: A002
                     rate=None, name=None, data_format=None, dilations=None):
    dilations = _either("dilations", dilations, "rate", rate)
    return conv_ops.separable_conv2d(input, depthwise_filter, pointwise_filter, strides,
                                     padding, data_format=data_format, dilations=dilations,
                                     name=name)


@export("compat.v1.nn.max_pool")
def max_pool(value, ksize, strides, padding, data_format="NHWC", name=None,
             input=None):  # noqa: A002
    """Max pooling over windows `ksize` (an int, or one size per dimension of `value`)."""
    value = _either("input", input, "value", value)
    with context.op_scope(name or "MaxPool") as scope:  # (TF 1's name: MaxPool, not MaxPool2d)
        return conv_ops.max_pool(value, ksize, strides, padding, data_format=data_format,
                                 name=scope or name)


@export("compat.v1.nn.avg_pool")
def avg_pool(value, ksize, strides, padding, data_format="NHWC", name=None,
             input=None):  # noqa: A002
    value = _either("input", input, "value", value)
    return conv_ops.avg_pool(value, ksize, strides, padding, data_format=data_format,
                             name=name)


@export("compat.v1.nn.max_pool_v2")
def max_pool_v2(input, ksize, strides, padding, data_format=None, name=None):  # noqa: A002
    return conv_ops.max_pool(input, ksize, strides, padding, data_format=data_format, name=name)


@export("compat.v1.nn.avg_pool_v2")
def avg_pool_v2(input, ksize, strides, padding, data_format=None, name=None):  # noqa: A002
    return conv_ops.avg_pool(input, ksize, strides, padding, data_format=data_format, name=name)


@export("compat.v1.nn.in_top_k", "compat.v1.math.in_top_k")
def in_top_k(predictions, targets, k, name=None):
    """Whether each target is among the `k` largest of its row of `predictions`."""
    return nn_ops.in_top_k(targets, predictions, k, name=name)


@export("compat.v1.nn.depth_to_space", "compat.v1.depth_to_space")
def depth_to_space(input, block_size, name=None, data_format="NHWC"):  # noqa: A002
    return nn_ops.depth_to_space(input, block_size, data_format=data_format, name=name)


@export("compat.v1.nn.space_to_depth", "compat.v1.space_to_depth")
def space_to_depth(input, block_size, name=None, data_format="NHWC"):  # noqa: A002
    return nn_ops.space_to_depth(input, block_size, data_format=data_format, name=name)


@export("compat.v1.nn.xw_plus_b")
def xw_plus_b(x, weights, biases, name=None):
    """``matmul(x, weights) + biases``."""
    with graph_mode.name_scope(name, "xw_plus_b", [x, weights, biases]) as scope:
        product = linalg_ops.matmul(convert_to_tensor(x), weights, name="MatMul")
        return nn_ops.bias_add(product, biases,
                               name=scope or None)


@export("compat.v1.nn.relu_layer")
def relu_layer(x, weights, biases, name=None):
    """``relu(matmul(x, weights) + biases)``."""
    with graph_mode.name_scope(name, "relu_layer", [x, weights, biases]) as scope:
        product = linalg_ops.matmul(convert_to_tensor(x), weights, name="MatMul")
        return nn_ops.relu(nn_ops.bias_add(product, biases),
                           name=scope or None)


@export("compat.v1.nn.embedding_lookup")
def embedding_lookup(params, ids, partition_strategy="mod", name=None, validate_indices=True,
                     max_norm=None):
    """Rows `ids` of `params` (one tensor or variable; a list of shards is joined
    by the ``"mod"`` or ``"div"`` `partition_strategy`)."""
    del validate_indices
    if isinstance(params, PartitionedVariable):
        params = list(params)
    if isinstance(params, (list, tuple)) and len(params) > 1:
        if partition_strategy not in ("mod", "div"):
            raise ValueError(f"Unrecognized partition strategy: {partition_strategy}."
                             f"Must be one of either `mod` or `div`.")
        return nn_ops.sharded_lookup(list(params), convert_to_tensor(ids), partition_strategy,
                                     max_norm, name)
    if isinstance(params, (list, tuple)):
        params = params[0]
    return nn_ops.embedding_lookup(params, ids, max_norm=max_norm, name=name)


@export("compat.v1.nn.conv2d_backprop_input")
def conv2d_backprop_input(input_sizes, filter=None, out_backprop=None, strides=None,  # noqa: A002
                          padding=None, use_cudnn_on_gpu=True, data_format="NHWC",
                          dilations=(1, 1, 1, 1), name=None, filters=None):
    """The gradient of `conv2d` with respect to its input (of shape `input_sizes`): TF's
    ``Conv2DBackpropInput`` (`filters` is `filter`'s other name)."""
    filter = filters if filters is not None else filter  # noqa: A001
    return raw_op("Conv2DBackpropInput")(
        input_sizes=input_sizes, filter=filter, out_backprop=out_backprop, strides=strides,
        padding=padding, use_cudnn_on_gpu=use_cudnn_on_gpu, data_format=data_format,
        dilations=list(dilations), name=name)


@export("compat.v1.nn.conv2d_backprop_filter")
def conv2d_backprop_filter(input, filter_sizes, out_backprop, strides, padding,  # noqa: A002
                           use_cudnn_on_gpu=True, data_format="NHWC", dilations=(1, 1, 1, 1),
                           name=None):
    """The gradient of `conv2d` with respect to its filter (of shape `filter_sizes`): TF's
    ``Conv2DBackpropFilter``."""
    return raw_op("Conv2DBackpropFilter")(
        input=input, filter_sizes=filter_sizes, out_backprop=out_backprop, strides=strides,
        padding=padding, use_cudnn_on_gpu=use_cudnn_on_gpu, data_format=data_format,
        dilations=list(dilations), name=name)


@export("compat.v1.nn.conv3d_backprop_filter", "compat.v1.nn.conv3d_backprop_filter_v2")
def conv3d_backprop_filter(input, filter_sizes, out_backprop, strides, padding,  # noqa: A002
                           data_format="NDHWC", dilations=(1, 1, 1, 1, 1), name=None):
    """The gradient of `conv3d` with respect to its filter (of shape `filter_sizes`): TF's
    ``Conv3DBackpropFilterV2``."""
    return raw_op("Conv3DBackpropFilterV2")(
        input=input, filter_sizes=filter_sizes, out_backprop=out_backprop, strides=strides,
        padding=padding, data_format=data_format, dilations=list(dilations), name=name)


@export("compat.v1.nn.depthwise_conv2d_native")
def depthwise_conv2d_native(input, filter, strides, padding, data_format="NHWC",  # noqa: A002
                            dilations=(1, 1, 1, 1), name=None):
    """TF's ``DepthwiseConv2dNative``: each input channel convolved with its own
    ``channel_multiplier`` filters (`strides` of 4 elements)."""
    return raw_op("DepthwiseConv2dNative")(
        input=input, filter=filter, strides=strides, padding=padding,
        data_format=data_format, dilations=list(dilations), name=name)


@export("compat.v1.nn.pool")
def pool(input, window_shape, pooling_type, padding, dilation_rate=None,  # noqa: A002
         strides=None, name=None, data_format=None, dilations=None):
    """N-D max or average pooling, TF 1's argument order (`padding` fourth, then
    `dilation_rate`, TF 2's `dilations`).

    >>> x = tf.reshape(tf.range(4.0), [1, 4, 1])
    >>> tf.compat.v1.nn.pool(x, [2], "MAX", "SAME")[0, :, 0].numpy()
    array([1., 2., 3., 3.], dtype=float32)
    """
    dilations = _either("dilations", dilations, "dilation_rate", dilation_rate)
    return conv_ops.pool(input, window_shape, pooling_type, strides=strides, padding=padding,
                         data_format=data_format, dilations=dilations, name=name)


@export("compat.v1.nn.avg_pool2d")
def avg_pool2d(value, ksize, strides, padding, data_format="NHWC", name=None,
               input=None):  # noqa: A002
    value = _either("input", input, "value", value)
    return conv_ops.avg_pool2d(value, ksize, strides, padding, data_format=data_format,
                               name=name)


@export("compat.v1.nn.conv3d_transpose")
def conv3d_transpose(value, filter=None, output_shape=None, strides=None,  # noqa: A002
                     padding="SAME", data_format="NDHWC", name=None, input=None,  # noqa: A002
                     filters=None, dilations=None):
    """The transpose of `conv3d`, TF 1's spellings (`value`/`input`, `filter`/`filters`)."""
    value = _either("input", input, "value", value)
    filter = _either("filters", filters, "filter", filter)  # noqa: A001
    return conv_ops.conv3d_transpose(value, filter, output_shape, strides, padding=padding,
                                     data_format=data_format, dilations=dilations, name=name)


@export("compat.v1.nn.depthwise_conv2d_native_backprop_input")
def depthwise_conv2d_native_backprop_input(input_sizes, filter, out_backprop,  # noqa: A002
                                           strides, padding, data_format="NHWC",
                                           dilations=(1, 1, 1, 1), name=None):
    return conv_ops.depthwise_conv2d_backprop_input(input_sizes, filter, out_backprop, strides,
                                                    padding, data_format, dilations, name)


@export("compat.v1.nn.depthwise_conv2d_native_backprop_filter")
def depthwise_conv2d_native_backprop_filter(input, filter_sizes, out_backprop,  # noqa: A002
                                            strides, padding, data_format="NHWC",
                                            dilations=(1, 1, 1, 1), name=None):
    return conv_ops.depthwise_conv2d_backprop_filter(input, filter_sizes, out_backprop,
                                                     strides, padding, data_format, dilations,
                                                     name)


@export("compat.v1.nn.weighted_cross_entropy_with_logits")
def weighted_cross_entropy_with_logits(labels=None, logits=None, pos_weight=None, name=None,
                                       targets=None):
    labels = _either("labels", labels, "targets", targets)
    return nn_ops.weighted_cross_entropy_with_logits(labels, logits, pos_weight, name=name)


@export("compat.v1.nn.batch_norm_with_global_normalization")
def batch_norm_with_global_normalization(t=None, m=None, v=None, beta=None, gamma=None,
                                         variance_epsilon=None,
                                         scale_after_normalization=None, name=None,
                                         input=None, mean=None,  # noqa: A002
                                         variance=None):
    return nn_ops.batch_norm_with_global_normalization(
        _either("input", input, "t", t), _either("mean", mean, "m", m),
        _either("variance", variance, "v", v), beta, gamma, variance_epsilon,
        scale_after_normalization, name=name)


@export("compat.v1.nn.crelu")
def crelu(features, name=None, axis=-1):
    """`tf.nn.crelu`, TF 1's argument order (`name` second)."""
    return nn_ops.crelu(features, axis=axis, name=name)


def _partitioned_lookup(partition_strategy):
    return lambda params, ids, max_norm: embedding_lookup(
        params, ids, partition_strategy=partition_strategy, max_norm=max_norm)


@export("compat.v1.nn.embedding_lookup_sparse")
def embedding_lookup_sparse(params, sp_ids, sp_weights, partition_strategy="mod", name=None,
                            combiner=None, max_norm=None, allow_fast_lookup=False):
    """`tf.nn.embedding_lookup_sparse`, a table in shards split by `partition_strategy`
    (TF 1's default ``"mod"``: id ``i`` in shard ``i % len(params)``).

    >>> ids = tf.sparse.SparseTensor([[0, 0]], tf.constant([1], tf.int64), [1, 1])
    >>> shards = [tf.constant([[0.0], [2.0]]), tf.constant([[1.0]])]
    >>> tf.compat.v1.nn.embedding_lookup_sparse(shards, ids, None).numpy()
    array([[1.]], dtype=float32)
    """
    return sparse_ops.lookup_sparse(params, sp_ids, sp_weights, combiner, max_norm, name,
                                    allow_fast_lookup, _partitioned_lookup(partition_strategy))


@export("compat.v1.nn.safe_embedding_lookup_sparse")
def safe_embedding_lookup_sparse(embedding_weights, sparse_ids, sparse_weights=None,
                                 combiner="mean", default_id=None, name=None,
                                 partition_strategy="div", max_norm=None,
                                 allow_fast_lookup=False):
    """`tf.nn.safe_embedding_lookup_sparse`, a table in shards split by
    `partition_strategy`."""
    del allow_fast_lookup
    return sparse_ops.safe_lookup_sparse(embedding_weights, sparse_ids, sparse_weights,
                                         combiner, default_id, max_norm, name,
                                         _partitioned_lookup(partition_strategy))


def _weights_lookup(partition_strategy):
    return lambda weights, ids: embedding_lookup(weights, ids,
                                                 partition_strategy=partition_strategy)


@export("compat.v1.nn.nce_loss")
def nce_loss(weights, biases, labels, inputs, num_sampled, num_classes, num_true=1,
             sampled_values=None, remove_accidental_hits=False, partition_strategy="mod",
             name="nce_loss"):
    """`tf.nn.nce_loss`, `weights` in shards split by `partition_strategy` (TF 1's default
    ``"mod"``)."""
    return candidate_sampling_ops.nce_loss_by(
        _weights_lookup(partition_strategy), weights, biases, labels, inputs, num_sampled,
        num_classes, num_true, sampled_values, remove_accidental_hits)


@export("compat.v1.nn.sampled_softmax_loss")
def sampled_softmax_loss(weights, biases, labels, inputs, num_sampled, num_classes,
                         num_true=1, sampled_values=None, remove_accidental_hits=True,
                         partition_strategy="mod", name="sampled_softmax_loss", seed=None):
    """`tf.nn.sampled_softmax_loss`, `weights` in shards split by `partition_strategy`
    (TF 1's default ``"mod"``)."""
    return candidate_sampling_ops.sampled_softmax_loss_by(
        _weights_lookup(partition_strategy), weights, biases, labels, inputs, num_sampled,
        num_classes, num_true, sampled_values, remove_accidental_hits, seed)


@export("compat.v1.nn.max_pool_with_argmax")
def max_pool_with_argmax(input, ksize, strides, padding, data_format="NHWC",  # noqa: A002
                         Targmax=None, name=None, output_dtype=None,  # noqa: N803
                         include_batch_in_index=False):
    """`tf.nn.max_pool_with_argmax`, TF 1's argument order (`Targmax` sixth, `name`
    seventh)."""
    output_dtype = _either("output_dtype", output_dtype, "Targmax", Targmax)
    return conv_ops.max_pool_with_argmax(
        input, ksize, strides, padding, data_format=data_format,
        output_dtype=_d.int64 if output_dtype is None else output_dtype,
        include_batch_in_index=include_batch_in_index, name=name)

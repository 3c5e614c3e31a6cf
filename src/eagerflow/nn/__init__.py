"""Neural-network ops (``tf.nn``)."""
from eagerflow._src.ops.conv_ops import (  # noqa: F401
    avg_pool, avg_pool1d, avg_pool2d, avg_pool3d, conv1d, conv1d_transpose, conv2d,
    conv2d_transpose, conv3d, conv3d_transpose, convolution, depthwise_conv2d, max_pool,
    max_pool1d, max_pool2d, max_pool3d, separable_conv2d)
from eagerflow._src.ops.math_ops import (  # noqa: F401
    sigmoid, softplus, tanh, zero_fraction)
from eagerflow._src.ops.nn_ops import (  # noqa: F401
    batch_normalization, bias_add, compute_average_loss, crelu, depth_to_space, dropout, elu,
    embedding_lookup, gelu, in_top_k, l2_loss, leaky_relu, log_poisson_loss, log_softmax,
    moments, normalize_moments, relu, relu6, scale_regularization_loss, selu,
    sigmoid_cross_entropy_with_logits, silu, softmax, softmax_cross_entropy_with_logits,
    softsign, space_to_depth, sparse_softmax_cross_entropy_with_logits, sufficient_statistics,
    swish, weighted_cross_entropy_with_logits, weighted_moments)
from eagerflow._src.ops.reduction_ops import (  # noqa: F401
    l2_normalize, top_k)

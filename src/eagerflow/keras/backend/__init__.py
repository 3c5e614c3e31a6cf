"""Keras backend functions (``tf.keras.backend``)."""
from eagerflow._src.keras.backend import (  # noqa: F401
    abs, all, any, argmax, argmin, batch_flatten, batch_get_value, batch_set_value, bias_add,
    cast, cast_to_floatx, clear_session, clip, concatenate, constant, cos, count_params,
    cumprod, cumsum, dot, dropout, dtype, elu, epsilon, equal, eval, exp, expand_dims, flatten,
    floatx, gather, get_uid, get_value, greater, greater_equal, hard_sigmoid,
    image_data_format, in_test_phase, in_top_k, in_train_phase, int_shape, l2_normalize,
    learning_phase, less, less_equal, log, max, maximum, mean, min, minimum,
    moving_average_update, ndim, not_equal, one_hot, ones, ones_like, permute_dimensions, pow,
    print_tensor, prod, random_normal, random_uniform, relu, repeat, repeat_elements, reset_uids,
    reshape, round, set_epsilon, set_floatx, set_image_data_format, set_learning_phase,
    set_value, shape, sigmoid, sign, sin, softmax, softplus, softsign, sqrt, square, squeeze,
    stack, std, stop_gradient, sum, switch, tanh, tile, transpose, truncated_normal, update,
    update_add, update_sub, var, variable, zeros, zeros_like)
from eagerflow._src.keras.engine.keras_tensor import is_keras_tensor  # noqa: F401

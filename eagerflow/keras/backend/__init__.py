"""Keras backend functions (``tf.keras.backend``)."""
from eagerflow._src.keras.backend import (  # noqa: F401
    batch_get_value, batch_set_value, cast_to_floatx, clear_session, count_params, dtype,
    epsilon, floatx, get_uid, get_value, image_data_format, in_test_phase, in_train_phase,
    int_shape, learning_phase, ndim,
    reset_uids, set_epsilon, set_floatx, set_image_data_format, set_learning_phase, set_value)
from eagerflow._src.keras.engine.keras_tensor import is_keras_tensor  # noqa: F401

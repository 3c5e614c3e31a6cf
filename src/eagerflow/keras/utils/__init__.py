"""Keras utilities (``tf.keras.utils``): progress bar, downloads, arrays, serialization."""
from eagerflow._src.keras.utils.data_utils import (  # noqa: F401
    Sequence, get_file, pack_x_y_sample_weight, pad_sequences, unpack_x_y_sample_weight)
from eagerflow._src.keras.utils.np_utils import normalize, to_categorical  # noqa: F401
from eagerflow._src.keras.utils.layer_utils import count_params  # noqa: F401
from eagerflow._src.keras.utils.progbar import Progbar  # noqa: F401
from eagerflow._src.keras.utils.serialization import (  # noqa: F401
    CustomObjectScope, custom_object_scope, deserialize_keras_object, get_custom_objects,
    get_registered_name, get_registered_object, register_keras_serializable,
    serialize_keras_object)
from eagerflow._src.keras.utils.tf_utils import set_random_seed  # noqa: F401

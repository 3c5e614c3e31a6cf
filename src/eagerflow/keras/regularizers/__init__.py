"""Weight penalties (``tf.keras.regularizers``)."""
from eagerflow._src.keras.regularizers import (  # noqa: F401
    L1, L1L2, L2, OrthogonalRegularizer, Regularizer, deserialize, get, l1, l1_l2, l2,
    orthogonal_regularizer, serialize)

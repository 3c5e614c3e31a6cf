"""Weight constraints (``tf.keras.constraints``)."""
from eagerflow._src.keras.constraints import (  # noqa: F401
    Constraint, MaxNorm, MinMaxNorm, NonNeg, RadialConstraint, UnitNorm, deserialize, get,
    max_norm, min_max_norm, non_neg, radial_constraint, serialize, unit_norm)

"""Weight initializers (``tf.keras.initializers``)."""
from eagerflow._src.keras.initializers import (  # noqa: F401
    Constant, GlorotNormal, GlorotUniform, HeNormal, HeUniform, Identity, Initializer,
    LecunNormal, LecunUniform, Ones, Orthogonal, RandomNormal, RandomUniform, TruncatedNormal,
    VarianceScaling, Zeros, constant, deserialize, get, glorot_normal, glorot_uniform,
    he_normal, he_uniform, identity, lecun_normal, lecun_uniform, ones, orthogonal,
    random_normal, random_uniform, serialize, truncated_normal, variance_scaling, zeros)

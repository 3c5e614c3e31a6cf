"""Keras layers (``tf.keras.layers``)."""
from eagerflow._src.keras.engine.base_layer import Layer  # noqa: F401
from eagerflow._src.keras.engine.input_layer import Input, InputLayer  # noqa: F401
from eagerflow._src.keras.engine.input_spec import InputSpec  # noqa: F401
from eagerflow._src.keras.layers import deserialize, serialize  # noqa: F401
from eagerflow._src.keras.layers.convolutional import (  # noqa: F401
    Conv1D, Conv1DTranspose, Conv2D, Conv2DTranspose, Conv3D, Convolution1D,
    Convolution1DTranspose, Convolution2D, Convolution2DTranspose, Convolution3D,
    DepthwiseConv1D, DepthwiseConv2D, SeparableConv1D, SeparableConv2D, SeparableConvolution1D,
    SeparableConvolution2D)
from eagerflow._src.keras.layers.core import (  # noqa: F401
    Activation, Dense, Dropout, Embedding, Flatten, Lambda)
from eagerflow._src.keras.layers.pooling import (  # noqa: F401
    AveragePooling1D, AveragePooling2D, AveragePooling3D, AvgPool1D, AvgPool2D, AvgPool3D,
    GlobalAveragePooling1D, GlobalAveragePooling2D, GlobalAveragePooling3D, GlobalAvgPool1D,
    GlobalAvgPool2D, GlobalAvgPool3D, GlobalMaxPool1D, GlobalMaxPool2D, GlobalMaxPool3D,
    GlobalMaxPooling1D, GlobalMaxPooling2D, GlobalMaxPooling3D, MaxPool1D, MaxPool2D, MaxPool3D,
    MaxPooling1D, MaxPooling2D, MaxPooling3D)
from eagerflow._src.keras.layers.reshaping import (  # noqa: F401
    Cropping1D, Cropping2D, Cropping3D, Permute, RepeatVector, Reshape, UpSampling1D,
    UpSampling2D, UpSampling3D, ZeroPadding1D, ZeroPadding2D, ZeroPadding3D)

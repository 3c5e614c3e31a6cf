"""Keras layers (``tf.keras.layers``)."""
from eagerflow._src.keras.engine.base_layer import Layer  # noqa: F401
from eagerflow._src.keras.engine.input_layer import Input, InputLayer  # noqa: F401
from eagerflow._src.keras.engine.input_spec import InputSpec  # noqa: F401
from eagerflow._src.keras.layers import deserialize, serialize  # noqa: F401
from eagerflow._src.keras.layers.activation import (  # noqa: F401
    ELU, LeakyReLU, PReLU, ReLU, Softmax, ThresholdedReLU)
from eagerflow._src.keras.layers.attention import (  # noqa: F401
    AdditiveAttention, Attention, MultiHeadAttention)
from eagerflow._src.keras.layers.convolutional import (  # noqa: F401
    Conv1D, Conv1DTranspose, Conv2D, Conv2DTranspose, Conv3D, Conv3DTranspose, Convolution1D,
    Convolution1DTranspose, Convolution2D, Convolution2DTranspose, Convolution3D,
    Convolution3DTranspose, DepthwiseConv1D, DepthwiseConv2D, SeparableConv1D, SeparableConv2D,
    SeparableConvolution1D, SeparableConvolution2D)
from eagerflow._src.keras.layers.core import (  # noqa: F401
    Activation, Dense, Dropout, Embedding, Flatten, Lambda)
from eagerflow._src.keras.layers.einsum_dense import EinsumDense  # noqa: F401
from eagerflow._src.keras.layers.masking import Masking  # noqa: F401
from eagerflow._src.keras.layers.merging import (  # noqa: F401
    Add, Average, Concatenate, Dot, Maximum, Minimum, Multiply, Subtract, add, average,
    concatenate, dot, maximum, minimum, multiply, subtract)
from eagerflow._src.keras.layers.normalization import (  # noqa: F401
    BatchNormalization, GroupNormalization, LayerNormalization, UnitNormalization)
from eagerflow._src.keras.layers.pooling import (  # noqa: F401
    AveragePooling1D, AveragePooling2D, AveragePooling3D, AvgPool1D, AvgPool2D, AvgPool3D,
    GlobalAveragePooling1D, GlobalAveragePooling2D, GlobalAveragePooling3D, GlobalAvgPool1D,
    GlobalAvgPool2D, GlobalAvgPool3D, GlobalMaxPool1D, GlobalMaxPool2D, GlobalMaxPool3D,
    GlobalMaxPooling1D, GlobalMaxPooling2D, GlobalMaxPooling3D, MaxPool1D, MaxPool2D, MaxPool3D,
    MaxPooling1D, MaxPooling2D, MaxPooling3D)
from eagerflow._src.keras.layers.reshaping import (  # noqa: F401
    Cropping1D, Cropping2D, Cropping3D, Permute, RepeatVector, Reshape, UpSampling1D,
    UpSampling2D, UpSampling3D, ZeroPadding1D, ZeroPadding2D, ZeroPadding3D)
from eagerflow._src.keras.layers.preprocessing import (  # noqa: F401
    CenterCrop, Normalization, Rescaling, Resizing)
from eagerflow._src.keras.layers.recurrent import (  # noqa: F401
    GRU, LSTM, RNN, AbstractRNNCell, GRUCell, LSTMCell, SimpleRNN, SimpleRNNCell,
    StackedRNNCells)
from eagerflow._src.keras.layers.regularization import (  # noqa: F401
    ActivityRegularization, AlphaDropout, GaussianDropout, GaussianNoise, SpatialDropout1D,
    SpatialDropout2D, SpatialDropout3D)
from eagerflow._src.keras.layers.wrappers import Bidirectional, TimeDistributed, Wrapper  # noqa: F401

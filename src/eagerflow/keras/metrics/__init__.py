"""Metrics (``tf.keras.metrics``)."""
from eagerflow._src.keras.metrics import (  # noqa: F401
    AUC, KLD, MAE, MAPE, MSE, MSLE, Accuracy, BinaryAccuracy, BinaryCrossentropy, BinaryIoU,
    CategoricalAccuracy, CategoricalCrossentropy, CategoricalHinge, CosineSimilarity, F1Score,
    FalseNegatives, FalsePositives, FBetaScore, Hinge, IoU, KLDivergence, LogCoshError, Mean,
    MeanAbsoluteError, MeanAbsolutePercentageError, MeanIoU, MeanMetricWrapper,
    MeanRelativeError, MeanSquaredError, MeanSquaredLogarithmicError, MeanTensor, Metric,
    OneHotIoU, OneHotMeanIoU, Poisson, Precision, PrecisionAtRecall, R2Score, Recall,
    RecallAtPrecision, RootMeanSquaredError, SensitivityAtSpecificity,
    SparseCategoricalAccuracy, SparseCategoricalCrossentropy, SparseTopKCategoricalAccuracy,
    SpecificityAtSensitivity, SquaredHinge, Sum, TopKCategoricalAccuracy, TrueNegatives,
    TruePositives, accuracy, binary_accuracy, binary_crossentropy, binary_focal_crossentropy,
    categorical_accuracy, categorical_crossentropy, categorical_focal_crossentropy,
    deserialize, get, hinge, kl_divergence, kld, kullback_leibler_divergence, log_cosh,
    logcosh, mae, mape, mean_absolute_error, mean_absolute_percentage_error,
    mean_squared_error, mean_squared_logarithmic_error, mse, msle, poisson, serialize,
    sparse_categorical_accuracy, sparse_categorical_crossentropy,
    sparse_top_k_categorical_accuracy, squared_hinge, top_k_categorical_accuracy)

import numpy as np
import tensorflow as tf

rs = np.random.RandomState(0)
yt = rs.randint(0, 2, size=(4, 3)).astype("float32")
logits = rs.randn(4, 3).astype("float32")
probs = tf.nn.sigmoid(logits).numpy()
sw = np.array([1.0, 0.5, 0.0, 2.0], dtype="float32")
L = tf.keras.losses
def show(name, loss, *args, **kw):
    v = loss(*args, **kw)
    print(name, np.round(v.numpy(), 5), v.dtype.name, v.shape)

for red in ["auto", "sum", "none", "sum_over_batch_size"]:
    show("bce" + red, L.BinaryCrossentropy(reduction=red), yt, probs)
    show("bce_logits_ls" + red, L.BinaryCrossentropy(from_logits=True, label_smoothing=0.2, reduction=red), yt, logits, sample_weight=sw)
show("bfce", L.BinaryFocalCrossentropy(gamma=2.0), yt, probs)
show("bfce_bal", L.BinaryFocalCrossentropy(apply_class_balancing=True, alpha=0.3, from_logits=True, label_smoothing=0.1), yt, logits, sample_weight=sw)
onehot = np.eye(3, dtype="float32")[[0, 2, 1, 2]]
sm = tf.nn.softmax(logits).numpy()
show("cce", L.CategoricalCrossentropy(), onehot, sm)
show("cce_logit_ls", L.CategoricalCrossentropy(from_logits=True, label_smoothing=0.1), onehot, logits, sample_weight=sw)
show("cce_axis0", L.CategoricalCrossentropy(axis=0), onehot, sm)
show("scce", L.SparseCategoricalCrossentropy(), np.array([0, 2, 1, 2]), sm)
show("scce_logits", L.SparseCategoricalCrossentropy(from_logits=True, ignore_class=1), np.array([0, 2, 1, 2]), logits)
show("cfce", L.CategoricalFocalCrossentropy(), onehot, sm)
for cls in [L.MeanSquaredError, L.MeanAbsoluteError, L.MeanAbsolutePercentageError, L.MeanSquaredLogarithmicError,
            L.Huber, L.LogCosh, L.Hinge, L.SquaredHinge, L.CategoricalHinge, L.KLDivergence, L.Poisson]:
    show(cls.__name__, cls(), yt, probs)
    show(cls.__name__ + "_sw", cls(reduction="sum"), yt, probs, sample_weight=sw)
show("cos", L.CosineSimilarity(axis=1), yt, logits)
show("huber_d", L.Huber(delta=0.3), yt, logits)
for fn in ["mse", "mae", "mape", "msle", "kld", "binary_crossentropy", "categorical_crossentropy", "poisson", "log_cosh", "huber", "hinge"]:
    f = L.get(fn)
    print(fn, f.__name__, np.round(f(yt, probs).numpy(), 5))
print(type(L.get("MeanSquaredError")).__name__)
print(L.MeanSquaredError().get_config())
print(L.BinaryCrossentropy(from_logits=True).get_config())
print(L.CategoricalCrossentropy().get_config())
print(L.SparseCategoricalCrossentropy().get_config())
print(L.Huber().get_config())
print(L.BinaryFocalCrossentropy().get_config())
print(L.CategoricalFocalCrossentropy().get_config())
print(L.CosineSimilarity().get_config())
print(L.serialize(L.MeanSquaredError()))
print(L.deserialize("mse").__name__)
try:
    L.MeanSquaredError(reduction="mean")
except ValueError as e:
    print("ValueError", e)
print(L.MeanSquaredError(name="my")(yt, probs).numpy())
print(np.round(L.mean_squared_error(yt, probs).numpy(), 5))
print(np.round(L.binary_crossentropy(yt, logits, from_logits=True, label_smoothing=0.1).numpy(), 5))
print(np.round(L.sparse_categorical_crossentropy([0, 2, 1, 2], logits, from_logits=True).numpy(), 5))
print(L.Reduction.AUTO, L.Reduction.all())

import tempfile

import tensorflow as tf

TMP = tempfile.mkdtemp()
import numpy as np
from sklearn.datasets import load_iris
import os, csv

tf.keras.utils.set_random_seed(7)
iris = load_iris()
path = TMP + "/iris_training.csv"
column_names = ['sepal_length', 'sepal_width', 'petal_length', 'petal_width', 'species']
with open(path, "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(column_names)
    for x, y in zip(iris.data, iris.target):
        w.writerow([*(round(float(v), 1) for v in x), int(y)])

feature_names = column_names[:-1]
label_name = column_names[-1]
print("Features: {}".format(feature_names))
print("Label: {}".format(label_name))
class_names = ['Iris setosa', 'Iris versicolor', 'Iris virginica']

batch_size = 32
train_dataset = tf.data.experimental.make_csv_dataset(
    path, batch_size, column_names=column_names, label_name=label_name,
    num_epochs=1, shuffle=False)
print(train_dataset.element_spec)
features, labels = next(iter(train_dataset))
print(sorted(features.keys()))
print(features['sepal_length'][:5])
print(labels[:5])

def pack_features_vector(features, labels):
    features = tf.stack(list(features.values()), axis=1)
    return features, labels

train_dataset = train_dataset.map(pack_features_vector)
features, labels = next(iter(train_dataset))
print(features[:5])
print(features.dtype, labels.dtype, features.shape)

model = tf.keras.Sequential([
    tf.keras.layers.Dense(10, activation=tf.nn.relu, input_shape=(4,)),
    tf.keras.layers.Dense(10, activation=tf.nn.relu),
    tf.keras.layers.Dense(3)
])
predictions = model(features)
print(predictions[:5].shape)
print(tf.nn.softmax(predictions[:5]).shape)
print("Prediction: {}".format(tf.math.argmax(predictions, axis=1).shape))
print("    Labels: {}".format(labels[:5]))

loss_object = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
def loss(model, x, y, training):
    y_ = model(x, training=training)
    return loss_object(y_true=y, y_pred=y_)

l = loss(model, features, labels, training=False)
print("Loss test: {}".format(type(l).__name__), l.shape, l.dtype)

def grad(model, inputs, targets):
    with tf.GradientTape() as tape:
        loss_value = loss(model, inputs, targets, training=True)
    return loss_value, tape.gradient(loss_value, model.trainable_variables)

optimizer = tf.keras.optimizers.SGD(learning_rate=0.01)
loss_value, grads = grad(model, features, labels)
print("Step: {}, Initial Loss: {:.4f}".format(optimizer.iterations.numpy(), loss_value.numpy()))
optimizer.apply_gradients(zip(grads, model.trainable_variables))
print("Step: {},         Loss: {:.4f}".format(optimizer.iterations.numpy(),
                                          loss(model, features, labels, training=True).numpy()))

train_loss_results = []
train_accuracy_results = []
num_epochs = 11
for epoch in range(num_epochs):
    epoch_loss_avg = tf.keras.metrics.Mean()
    epoch_accuracy = tf.keras.metrics.SparseCategoricalAccuracy()
    for x, y in train_dataset:
        loss_value, grads = grad(model, x, y)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        epoch_loss_avg.update_state(loss_value)
        epoch_accuracy.update_state(y, model(x, training=True))
    train_loss_results.append(epoch_loss_avg.result())
    train_accuracy_results.append(epoch_accuracy.result())
    if epoch % 5 == 0:
        print("Epoch {:03d}: Loss: {:.3f}, Accuracy: {:.3%}".format(epoch, epoch_loss_avg.result(), epoch_accuracy.result()))

test_accuracy = tf.keras.metrics.Accuracy()
ds_test = tf.data.Dataset.from_tensor_slices((iris.data[::7].astype("float32"), iris.target[::7]))
ds_test = ds_test.batch(8)
for (x, y) in ds_test:
    logits = model(x, training=False)
    prediction = tf.math.argmax(logits, axis=1, output_type=tf.int64)
    test_accuracy(prediction, y)
print("Test set accuracy: {:.3%}".format(test_accuracy.result()))
print(tf.stack([y, prediction], axis=1).dtype)

predict_dataset = tf.convert_to_tensor([
    [5.1, 3.3, 1.7, 0.5,],
    [5.9, 3.0, 4.2, 1.5,],
    [6.9, 3.1, 5.4, 2.1]
])
predictions = model(predict_dataset, training=False)
for i, logits in enumerate(predictions):
    class_idx = tf.math.argmax(logits).numpy()
    p = tf.nn.softmax(logits)[class_idx]
    name = class_names[class_idx]
    print("Example {} prediction: {} ({:4.1f}%)".format(i, name, 100*p))

import tensorflow as tf
import numpy as np
tf.keras.utils.set_random_seed(4)
FEATURES = 28
rng = np.random.RandomState(0)
X = rng.randn(600, FEATURES).astype('float32')
w = rng.randn(FEATURES)
Y = ((X @ w + rng.randn(600) * 2) > 0).astype('float32')
packed_ds = tf.data.Dataset.from_tensor_slices((X, Y))
for features, label in packed_ds.batch(1000).take(1):
    print(features[0].shape, label[:5])
N_VALIDATION = 100
N_TRAIN = 500
BUFFER_SIZE = 500
BATCH_SIZE = 50
STEPS_PER_EPOCH = N_TRAIN // BATCH_SIZE
validate_ds = packed_ds.take(N_VALIDATION).cache()
train_ds = packed_ds.skip(N_VALIDATION).take(N_TRAIN).cache()
print(train_ds)
validate_ds = validate_ds.batch(BATCH_SIZE)
train_ds = train_ds.shuffle(BUFFER_SIZE, seed=1).repeat().batch(BATCH_SIZE)
lr_schedule = tf.keras.optimizers.schedules.InverseTimeDecay(0.001, decay_steps=STEPS_PER_EPOCH*1000, decay_rate=1, staircase=False)
def get_optimizer():
    return tf.keras.optimizers.Adam(lr_schedule)
step = np.linspace(0, 100000)
lr = lr_schedule(step)
print(np.round(lr.numpy()[::10], 6), lr.dtype)
print(lr_schedule.get_config())
def get_callbacks(name):
    return [tf.keras.callbacks.EarlyStopping(monitor='val_binary_crossentropy', patience=200)]
def compile_and_fit(model, name, optimizer=None, max_epochs=4):
    if optimizer is None:
        optimizer = get_optimizer()
    model.compile(optimizer=optimizer,
                  loss=tf.keras.losses.BinaryCrossentropy(from_logits=True),
                  metrics=[tf.keras.metrics.BinaryCrossentropy(from_logits=True, name='binary_crossentropy'), 'accuracy'])
    model.summary()
    history = model.fit(train_ds, steps_per_epoch=STEPS_PER_EPOCH, epochs=max_epochs,
                        validation_data=validate_ds, callbacks=get_callbacks(name), verbose=0)
    return history
tiny_model = tf.keras.Sequential([
    tf.keras.layers.Dense(16, activation='elu', input_shape=(FEATURES,)),
    tf.keras.layers.Dense(1)])
size_histories = {}
size_histories['Tiny'] = compile_and_fit(tiny_model, 'sizes/Tiny')
h = size_histories['Tiny']
print(sorted(h.history), len(h.epoch))
print({k: [round(x, 3) for x in v] for k, v in h.history.items()})
l2_model = tf.keras.Sequential([
    tf.keras.layers.Dense(32, activation='elu', kernel_regularizer=tf.keras.regularizers.l2(0.001), input_shape=(FEATURES,)),
    tf.keras.layers.Dense(32, activation='elu', kernel_regularizer=tf.keras.regularizers.l2(0.001)),
    tf.keras.layers.Dense(1)])
h = compile_and_fit(l2_model, "regularizers/l2")
print({k: [round(x, 3) for x in v] for k, v in h.history.items()})
result = l2_model(features)
regularization_loss = tf.add_n(l2_model.losses)
print(len(l2_model.losses), round(float(regularization_loss), 4))
dropout_model = tf.keras.Sequential([
    tf.keras.layers.Dense(32, activation='elu', input_shape=(FEATURES,)),
    tf.keras.layers.Dropout(0.5),
    tf.keras.layers.Dense(32, activation='elu'),
    tf.keras.layers.Dropout(0.5),
    tf.keras.layers.Dense(1)])
h = compile_and_fit(dropout_model, "regularizers/dropout")
print({k: [round(x, 3) for x in v] for k, v in h.history.items()})
combined_model = tf.keras.Sequential([
    tf.keras.layers.Dense(32, kernel_regularizer=tf.keras.regularizers.l1_l2(l1=0.0001, l2=0.001), activation='elu', input_shape=(FEATURES,)),
    tf.keras.layers.Dropout(0.5),
    tf.keras.layers.Dense(1)])
h = compile_and_fit(combined_model, "regularizers/combined", optimizer=tf.keras.optimizers.SGD(0.1, momentum=0.9, nesterov=True))
print({k: [round(x, 3) for x in v] for k, v in h.history.items()})
print(combined_model.layers[0].kernel_regularizer.get_config())
print(round(float(combined_model.optimizer.learning_rate), 4), combined_model.optimizer.iterations.numpy())

"""Time-series forecasting as tensorflow.org's tutorial (a synthetic weather table): the
WindowGenerator over timeseries_dataset_from_array, a baseline, linear, dense, conv, LSTM and
residual models, a multi-step conv model and the autoregressive feedback LSTM, fit with
EarlyStopping."""
import numpy as np
import tensorflow as tf
np.set_printoptions(precision=4, suppress=True)
tf.keras.utils.set_random_seed(7)
n = 400
t = np.arange(n, dtype=np.float32)
rng = np.random.RandomState(0)
COLUMNS = ["T", "p", "wv"]
df = np.stack([np.sin(t / 10) * 5 + rng.randn(n) * 0.3,
    np.cos(t / 15) * 2 + rng.randn(n) * 0.1,
    np.abs(rng.randn(n))], axis=1).astype(np.float32)
column_indices = {name: i for i, name in enumerate(COLUMNS)}
train_df = df[0:int(n*0.7)]
val_df = df[int(n*0.7):int(n*0.9)]
test_df = df[int(n*0.9):]
num_features = df.shape[1]
train_mean = train_df.mean(0); train_std = train_df.std(0)
train_df = (train_df - train_mean) / train_std
val_df = (val_df - train_mean) / train_std
test_df = (test_df - train_mean) / train_std

class WindowGenerator():
  def __init__(self, input_width, label_width, shift,
               train_df=train_df, val_df=val_df, test_df=test_df,
               label_columns=None):
    self.train_df = train_df
    self.val_df = val_df
    self.test_df = test_df
    self.label_columns = label_columns
    if label_columns is not None:
      self.label_columns_indices = {name: i for i, name in enumerate(label_columns)}
    self.column_indices = {name: i for i, name in enumerate(COLUMNS)}
    self.input_width = input_width
    self.label_width = label_width
    self.shift = shift
    self.total_window_size = input_width + shift
    self.input_slice = slice(0, input_width)
    self.input_indices = np.arange(self.total_window_size)[self.input_slice]
    self.label_start = self.total_window_size - self.label_width
    self.labels_slice = slice(self.label_start, None)
    self.label_indices = np.arange(self.total_window_size)[self.labels_slice]

  def __repr__(self):
    return '\n'.join([
        f'Total window size: {self.total_window_size}',
        f'Input indices: {self.input_indices}',
        f'Label indices: {self.label_indices}',
        f'Label column name(s): {self.label_columns}'])

def split_window(self, features):
  inputs = features[:, self.input_slice, :]
  labels = features[:, self.labels_slice, :]
  if self.label_columns is not None:
    labels = tf.stack(
        [labels[:, :, self.column_indices[name]] for name in self.label_columns],
        axis=-1)
  inputs.set_shape([None, self.input_width, None])
  labels.set_shape([None, self.label_width, None])
  return inputs, labels
WindowGenerator.split_window = split_window

def make_dataset(self, data):
  data = np.array(data, dtype=np.float32)
  ds = tf.keras.utils.timeseries_dataset_from_array(
      data=data, targets=None, sequence_length=self.total_window_size,
      sequence_stride=1, shuffle=True, batch_size=32,)
  ds = ds.map(self.split_window)
  return ds
WindowGenerator.make_dataset = make_dataset

@property
def train(self): return self.make_dataset(self.train_df)
@property
def val(self): return self.make_dataset(self.val_df)
@property
def test(self): return self.make_dataset(self.test_df)
@property
def example(self):
  result = getattr(self, '_example', None)
  if result is None:
    result = next(iter(self.train))
    self._example = result
  return result
WindowGenerator.train = train
WindowGenerator.val = val
WindowGenerator.test = test
WindowGenerator.example = example

w2 = WindowGenerator(input_width=6, label_width=1, shift=1, label_columns=['T'])
print(w2)
example_window = tf.stack([np.array(train_df[:w2.total_window_size]),
                           np.array(train_df[100:100+w2.total_window_size]),
                           np.array(train_df[200:200+w2.total_window_size])])
example_inputs, example_labels = w2.split_window(example_window)
print('All shapes are: (batch, time, features)')
print(f'Window shape: {example_window.shape}')
print(f'Inputs shape: {example_inputs.shape}')
print(f'Labels shape: {example_labels.shape}')
print(w2.train.element_spec)
for example_inputs, example_labels in w2.train.take(1):
  print(f'Inputs shape (batch, time, features): {example_inputs.shape}')
  print(f'Labels shape (batch, time, features): {example_labels.shape}')
  print(example_labels[:3, 0].numpy())

single_step_window = WindowGenerator(input_width=1, label_width=1, shift=1, label_columns=['T'])

class Baseline(tf.keras.Model):
  def __init__(self, label_index=None):
    super().__init__()
    self.label_index = label_index
  def call(self, inputs):
    if self.label_index is None:
      return inputs
    result = inputs[:, :, self.label_index]
    return result[:, :, tf.newaxis]

baseline = Baseline(label_index=column_indices['T'])
baseline.compile(loss=tf.keras.losses.MeanSquaredError(), metrics=[tf.keras.metrics.MeanAbsoluteError()])
val_performance = {}; performance = {}
val_performance['Baseline'] = baseline.evaluate(single_step_window.val, verbose=0)
performance['Baseline'] = baseline.evaluate(single_step_window.test, verbose=0)
print('Baseline', np.round(val_performance['Baseline'], 4), np.round(performance['Baseline'], 4))

MAX_EPOCHS = 3
def compile_and_fit(model, window, patience=2):
  early_stopping = tf.keras.callbacks.EarlyStopping(monitor='val_loss', patience=patience, mode='min')
  model.compile(loss=tf.keras.losses.MeanSquaredError(),
                optimizer=tf.keras.optimizers.Adam(),
                metrics=[tf.keras.metrics.MeanAbsoluteError()])
  history = model.fit(window.train, epochs=MAX_EPOCHS, validation_data=window.val,
                      callbacks=[early_stopping], verbose=0)
  return history

linear = tf.keras.Sequential([tf.keras.layers.Dense(units=1)])
print('Input shape:', single_step_window.example[0].shape)
print('Output shape:', linear(single_step_window.example[0]).shape)
history = compile_and_fit(linear, single_step_window)
print('linear', {k: np.round(v, 4) for k, v in history.history.items()})
print('linear eval', np.round(linear.evaluate(single_step_window.test, verbose=0), 4))

CONV_WIDTH = 3
conv_window = WindowGenerator(input_width=CONV_WIDTH, label_width=1, shift=1, label_columns=['T'])
multi_step_dense = tf.keras.Sequential([
    tf.keras.layers.Flatten(),
    tf.keras.layers.Dense(units=16, activation='relu'),
    tf.keras.layers.Dense(units=1),
    tf.keras.layers.Reshape([1, -1]),
])
history = compile_and_fit(multi_step_dense, conv_window)
print('msd', {k: np.round(v, 4) for k, v in history.history.items()})

conv_model = tf.keras.Sequential([
    tf.keras.layers.Conv1D(filters=16, kernel_size=(CONV_WIDTH,), activation='relu'),
    tf.keras.layers.Dense(units=16, activation='relu'),
    tf.keras.layers.Dense(units=1),
])
LABEL_WIDTH = 8
INPUT_WIDTH = LABEL_WIDTH + (CONV_WIDTH - 1)
wide_conv_window = WindowGenerator(input_width=INPUT_WIDTH, label_width=LABEL_WIDTH, shift=1, label_columns=['T'])
print(wide_conv_window)
print("Output shape:", conv_model(wide_conv_window.example[0]).shape)
history = compile_and_fit(conv_model, wide_conv_window)
print('conv', {k: np.round(v, 4) for k, v in history.history.items()})

wide_window = WindowGenerator(input_width=8, label_width=8, shift=1, label_columns=['T'])
lstm_model = tf.keras.models.Sequential([
    tf.keras.layers.LSTM(8, return_sequences=True),
    tf.keras.layers.Dense(units=1)
])
print('Output shape:', lstm_model(wide_window.example[0]).shape)
history = compile_and_fit(lstm_model, wide_window)
print('lstm', {k: np.round(v, 4) for k, v in history.history.items()})

class ResidualWrapper(tf.keras.Model):
  def __init__(self, model):
    super().__init__()
    self.model = model
  def call(self, inputs, *args, **kwargs):
    delta = self.model(inputs, *args, **kwargs)
    return inputs + delta
residual_lstm = ResidualWrapper(
    tf.keras.Sequential([
    tf.keras.layers.LSTM(8, return_sequences=True),
    tf.keras.layers.Dense(num_features, kernel_initializer=tf.initializers.zeros())
]))
wide_window_all = WindowGenerator(input_width=8, label_width=8, shift=1)
history = compile_and_fit(residual_lstm, wide_window_all)
print('reslstm', {k: np.round(v, 4) for k, v in history.history.items()})

OUT_STEPS = 6
multi_window = WindowGenerator(input_width=8, label_width=OUT_STEPS, shift=OUT_STEPS)
print(multi_window)
multi_conv_model = tf.keras.Sequential([
    tf.keras.layers.Lambda(lambda x: x[:, -CONV_WIDTH:, :]),
    tf.keras.layers.Conv1D(32, activation='relu', kernel_size=(CONV_WIDTH)),
    tf.keras.layers.Dense(OUT_STEPS*num_features, kernel_initializer=tf.initializers.zeros()),
    tf.keras.layers.Reshape([OUT_STEPS, num_features])
])
history = compile_and_fit(multi_conv_model, multi_window)
print('mconv', {k: np.round(v, 4) for k, v in history.history.items()})

class FeedBack(tf.keras.Model):
  def __init__(self, units, out_steps):
    super().__init__()
    self.out_steps = out_steps
    self.units = units
    self.lstm_cell = tf.keras.layers.LSTMCell(units)
    self.lstm_rnn = tf.keras.layers.RNN(self.lstm_cell, return_state=True)
    self.dense = tf.keras.layers.Dense(num_features)
def warmup(self, inputs):
  x, *state = self.lstm_rnn(inputs)
  prediction = self.dense(x)
  return prediction, state
FeedBack.warmup = warmup
def call(self, inputs, training=None):
  predictions = []
  prediction, state = self.warmup(inputs)
  predictions.append(prediction)
  for n in range(1, self.out_steps):
    x = prediction
    x, state = self.lstm_cell(x, states=state, training=training)
    prediction = self.dense(x)
    predictions.append(prediction)
  predictions = tf.stack(predictions)
  predictions = tf.transpose(predictions, [1, 0, 2])
  return predictions
FeedBack.call = call
feedback_model = FeedBack(units=8, out_steps=OUT_STEPS)
prediction, state = feedback_model.warmup(multi_window.example[0])
print(prediction.shape)
print('Output shape (batch, time, features): ', feedback_model(multi_window.example[0]).shape)
history = compile_and_fit(feedback_model, multi_window)
print('ar', {k: np.round(v, 4) for k, v in history.history.items()})
print('ar pred', feedback_model(multi_window.example[0])[0, :2].numpy())

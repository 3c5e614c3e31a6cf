"""The TF 1.x eager execution guide (2017-2018: ``contrib/eager/python/g3doc/guide.md`` and
``docs_src/guide/eager.md``), snippet by snippet, with only the import lines changed
(``import eagerflow.compat.v1 as tf``, ``tfe = eagerflow.contrib.eager``): each gives
what the guide documents (printed values where it prints them; where it trains on random
data, the loss falling from ~70 to the noise's variance and W, B near 3, 2)."""
import math
import os
import re

import numpy as np
import pytest

import eagerflow
import eagerflow.compat.v1 as tf
from tests import internals

tfe = eagerflow.contrib.eager


@pytest.fixture(autouse=True)
def _eager_and_fresh_graph():
    tf.enable_eager_execution()
    tf.reset_default_graph()  # (the global step lives in the default graph's collections)
    tf.set_random_seed(0)
    yield
    tf.enable_eager_execution()
    tf.reset_default_graph()
    internals.summary_state.writer = None  # (the guide's set_as_default outlives its test)


def _losses(text):
    return [float(v) for v in re.findall(r"loss(?: at step \d+)?: ([0-9.]+)", text, re.I)]


# -- Setup and basic usage --------------------------------------------------------------

def test_setup_and_basic_usage(capsys):
    tf.enable_eager_execution()
    assert tf.executing_eagerly() is True        # => True

    x = [[2.]]
    m = tf.matmul(x, x)
    print("hello, {}".format(m))  # => "hello, [[4.]]"
    assert capsys.readouterr().out == "hello, [[4.]]\n"


def test_tensors_and_numpy(capsys):
    a = tf.constant([[1, 2],
                     [3, 4]])
    print(a)
    b = tf.add(a, 1)
    print(b)
    print(a * b)
    c = np.multiply(a, b)
    print(c)
    print(a.numpy())
    assert capsys.readouterr().out == (
        "tf.Tensor(\n[[1 2]\n [3 4]], shape=(2, 2), dtype=int32)\n"
        "tf.Tensor(\n[[2 3]\n [4 5]], shape=(2, 2), dtype=int32)\n"
        "tf.Tensor(\n[[ 2  6]\n [12 20]], shape=(2, 2), dtype=int32)\n"
        "[[ 2  6]\n [12 20]]\n"
        "[[1 2]\n [3 4]]\n")
    assert isinstance(c, np.ndarray)


def test_contrib_eager_through_the_v1_module():
    assert tf.contrib.eager is tfe
    assert tf.contrib.summary is eagerflow.contrib.summary


def test_numerical_library(capsys):
    # Multiply two 2x2 matrices
    x = tf.matmul([[1, 2],
                   [3, 4]],
                  [[4, 5],
                   [6, 7]])
    # Add one to each element
    # (tf.add supports broadcasting)
    y = tf.add(x, 1)
    # Create a random random 5x3 matrix
    z = tf.random_uniform([5, 3])
    print(x)
    print(y)
    out = capsys.readouterr().out
    assert out == ("tf.Tensor(\n[[16 19]\n [36 43]], shape=(2, 2), dtype=int32)\n"
                   "tf.Tensor(\n[[17 20]\n [37 44]], shape=(2, 2), dtype=int32)\n")
    assert z.shape == (5, 3) and z.dtype == tf.float32
    assert 0.0 <= float(tf.reduce_min(z)) and float(tf.reduce_max(z)) < 1.0

    x = (tf.ones([1], dtype=tf.float32) + 1) * 2 - 1
    print(x)
    assert capsys.readouterr().out == "tf.Tensor([3.], shape=(1,), dtype=float32)\n"


def test_converting_to_and_from_numpy(capsys):
    x = tf.add(1, 1)                     # tf.Tensor with a value of 2
    y = tf.add(np.array(1), np.array(1))  # tf.Tensor with a value of 2
    z = np.multiply(x, y)                # numpy.int64 with a value of 4
    assert int(x) == 2 and int(y) == 2 and int(z) == 4

    np_x = np.array(2., dtype=np.float32)
    x = tf.constant(np_x)
    py_y = 3.
    y = tf.constant(py_y)
    z = x + y + 1
    print(z)
    print(z.numpy())
    assert capsys.readouterr().out == "tf.Tensor(6.0, shape=(), dtype=float32)\n6.0\n"


def test_fizzbuzz(capsys):
    def fizzbuzz(max_num):
        counter = tf.constant(0)
        max_num = tf.convert_to_tensor(max_num)
        for num in range(max_num.numpy()):
            num = tf.constant(num)
            if int(num % 3) == 0 and int(num % 5) == 0:
                print('FizzBuzz')
            elif int(num % 3) == 0:
                print('Fizz')
            elif int(num % 5) == 0:
                print('Buzz')
            else:
                print(num)
            counter += 1
        return counter

    assert int(fizzbuzz(16)) == 16
    lines = capsys.readouterr().out.splitlines()
    assert lines[:6] == ["FizzBuzz", "tf.Tensor(1, shape=(), dtype=int32)",
                         "tf.Tensor(2, shape=(), dtype=int32)", "Fizz",
                         "tf.Tensor(4, shape=(), dtype=int32)", "Buzz"]
    assert lines[15] == "FizzBuzz"


# -- Build a model -----------------------------------------------------------------------

def test_custom_layer_sequential_and_subclassed_model(capsys):
    class MySimpleLayer(tf.keras.layers.Layer):
        def __init__(self, output_units):
            super(MySimpleLayer, self).__init__()
            self.output_units = output_units

        def build(self, input_shape):
            self.kernel = self.add_variable(
                "kernel", [input_shape[-1], self.output_units])

        def call(self, input):
            return tf.matmul(input, self.kernel)

    layer = MySimpleLayer(3)
    assert layer(tf.ones([2, 4])).shape == (2, 3)
    assert [v.shape.as_list() for v in layer.variables] == [[4, 3]]

    model = tf.keras.Sequential([
        tf.keras.layers.Dense(10, input_shape=(784,)),  # must declare input shape
        tf.keras.layers.Dense(10)
    ])
    assert model.output_shape == (None, 10) and len(model.variables) == 4

    class MNISTModel(tf.keras.Model):
        def __init__(self):
            super(MNISTModel, self).__init__()
            self.dense1 = tf.keras.layers.Dense(units=10)
            self.dense2 = tf.keras.layers.Dense(units=10)

        def call(self, input):
            """Run the model."""
            result = self.dense1(input)
            result = self.dense2(result)
            result = self.dense2(result)  # reuse variables from dense2 layer
            return result

    model = MNISTModel()
    # Create a tensor representing a blank image
    batch = tf.zeros([1, 1, 784])
    print(batch.shape)  # => (1, 1, 784)
    result = model(batch)
    # => tf.Tensor([[[ 0.  0., ..., 0.]]], shape=(1, 1, 10), dtype=float32)
    print(result)
    assert capsys.readouterr().out == (
        "(1, 1, 784)\n"
        "tf.Tensor([[[0. 0. 0. 0. 0. 0. 0. 0. 0. 0.]]], shape=(1, 1, 10), dtype=float32)\n")
    assert len(model.variables) == 4  # dense2's variables are shared


# -- Eager training ----------------------------------------------------------------------

def test_gradient_tape(capsys):
    w = tfe.Variable([[1.0]])
    with tf.GradientTape() as tape:
        loss = w * w

    grad = tape.gradient(loss, w)
    print(grad)  # => tf.Tensor([[ 2.]], shape=(1, 1), dtype=float32)
    assert capsys.readouterr().out == "tf.Tensor([[2.]], shape=(1, 1), dtype=float32)\n"


def _check_training_output(out, steps, w_b_line):
    losses = _losses(out)
    assert len(losses) == steps + 2
    assert 50 < losses[0] < 90 and 0.8 < losses[-1] < 1.3  # (the noise's variance is 1)
    assert all(a > b for a, b in zip(losses[1:-1], losses[2:-1]))  # falling at every print
    w, b = (float(v) for v in re.match(w_b_line, out.splitlines()[-1]).groups())
    assert abs(w - 3) < 0.15 and abs(b - 2) < 0.25


def test_train_with_gradient_tape(capsys):
    # A toy dataset of points around 3 * x + 2
    NUM_EXAMPLES = 1000
    training_inputs = tf.random_normal([NUM_EXAMPLES])
    noise = tf.random_normal([NUM_EXAMPLES])
    training_outputs = training_inputs * 3 + 2 + noise

    def prediction(input, weight, bias):
        return input * weight + bias

    # A loss function using mean-squared error
    def loss(weights, biases):
        error = prediction(training_inputs, weights, biases) - training_outputs
        return tf.reduce_mean(tf.square(error))

    # Return the derivative of loss with respect to weight and bias
    def grad(weights, biases):
        with tf.GradientTape() as tape:
            loss_value = loss(weights, biases)
        return tape.gradient(loss_value, [weights, biases])

    train_steps = 200
    learning_rate = 0.01
    # Start with arbitrary values for W and B on the same batch of data
    W = tfe.Variable(5.)
    B = tfe.Variable(10.)

    print("Initial loss: {:.3f}".format(loss(W, B)))

    for i in range(train_steps):
        dW, dB = grad(W, B)
        W.assign_sub(dW * learning_rate)
        B.assign_sub(dB * learning_rate)
        if i % 20 == 0:
            print("Loss at step {:03d}: {:.3f}".format(i, loss(W, B)))

    print("Final loss: {:.3f}".format(loss(W, B)))
    print("W = {}, B = {}".format(W.numpy(), B.numpy()))
    out = capsys.readouterr().out
    assert out.splitlines()[1].startswith("Loss at step 000: ")
    _check_training_output(out, 10, r"W = ([0-9.]+), B = ([0-9.]+)$")


def test_train_with_gradients_function(capsys):
    def prediction(input, weight, bias):
        return input * weight + bias

    # A toy dataset of points around 3 * x + 2
    NUM_EXAMPLES = 1000
    training_inputs = tf.random_normal([NUM_EXAMPLES])
    noise = tf.random_normal([NUM_EXAMPLES])
    training_outputs = training_inputs * 3 + 2 + noise

    # A loss function: Mean-squared error
    def loss(weight, bias):
        error = prediction(training_inputs, weight, bias) - training_outputs
        return tf.reduce_mean(tf.square(error))

    # Function that returns the derivative of loss with respect to
    # weight and bias
    grad = tfe.gradients_function(loss)

    # Train for 200 steps (starting from some random choice for W and B, on the same
    # batch of data).
    W = 5.
    B = 10.
    learning_rate = 0.01
    print("Initial loss: %f" % loss(W, B).numpy())
    for i in range(200):
        (dW, dB) = grad(W, B)
        W -= dW * learning_rate
        B -= dB * learning_rate
        if i % 20 == 0:
            print("Loss at step %d: %f" % (i, loss(W, B).numpy()))
    print("Final loss: %f" % loss(W, B).numpy())
    print("W, B = %f, %f" % (W.numpy(), B.numpy()))
    _check_training_output(capsys.readouterr().out, 10, r"W, B = ([0-9.]+), ([0-9.]+)$")


def test_variables_and_optimizers_keras_model(capsys):
    class Model(tf.keras.Model):
        def __init__(self):
            super(Model, self).__init__()
            self.W = tfe.Variable(5., name='weight')
            self.B = tfe.Variable(10., name='bias')

        def predict(self, inputs):
            return inputs * self.W + self.B

    # A toy dataset of points around 3 * x + 2
    NUM_EXAMPLES = 2000
    training_inputs = tf.random_normal([NUM_EXAMPLES])
    noise = tf.random_normal([NUM_EXAMPLES])
    training_outputs = training_inputs * 3 + 2 + noise

    # The loss function to be optimized
    def loss(model, inputs, targets):
        error = model.predict(inputs) - targets
        return tf.reduce_mean(tf.square(error))

    def grad(model, inputs, targets):
        with tf.GradientTape() as tape:
            loss_value = loss(model, inputs, targets)
        return tape.gradient(loss_value, [model.W, model.B])

    model = Model()
    optimizer = tf.train.GradientDescentOptimizer(learning_rate=0.01)

    print("Initial loss: {:.3f}".format(loss(model, training_inputs, training_outputs)))

    # Training loop
    for i in range(300):
        grads = grad(model, training_inputs, training_outputs)
        optimizer.apply_gradients(zip(grads, [model.W, model.B]),
                                  global_step=tf.train.get_or_create_global_step())
        if i % 20 == 0:
            print("Loss at step {:03d}: {:.3f}".format(
                i, loss(model, training_inputs, training_outputs)))

    print("Final loss: {:.3f}".format(loss(model, training_inputs, training_outputs)))
    print("W = {}, B = {}".format(model.W.numpy(), model.B.numpy()))
    _check_training_output(capsys.readouterr().out, 15, r"W = ([0-9.]+), B = ([0-9.]+)$")
    assert int(tf.train.get_or_create_global_step()) == 300
    assert [v.name for v in model.variables] == ["weight:0", "bias:0"]


def test_implicit_gradients_model(capsys):
    class Model(object):
        def __init__(self):
            self.W = tfe.Variable(5., name='weight')
            self.B = tfe.Variable(10., name='bias')

        def predict(self, inputs):
            return inputs * self.W + self.B

    # The loss function to be optimized
    def loss(model, inputs, targets):
        error = model.predict(inputs) - targets
        return tf.reduce_mean(tf.square(error))

    # A toy dataset of points around 3 * x + 2
    NUM_EXAMPLES = 1000
    training_inputs = tf.random_normal([NUM_EXAMPLES])
    noise = tf.random_normal([NUM_EXAMPLES])
    training_outputs = training_inputs * 3 + 2 + noise

    model = Model()
    grad = tfe.implicit_gradients(loss)
    optimizer = tf.train.GradientDescentOptimizer(learning_rate=0.01)

    # The training loop
    print("Initial loss: %f" %
          loss(model, training_inputs, training_outputs).numpy())
    for i in range(201):
        optimizer.apply_gradients(grad(model, training_inputs, training_outputs))
        if i % 20 == 0:
            print("Loss at step %d: %f" %
                  (i, loss(model, training_inputs, training_outputs).numpy()))
    print("Final loss: %f" % loss(model, training_inputs, training_outputs).numpy())
    print("W, B = %s, %s" % (model.W.numpy(), model.B.numpy()))
    _check_training_output(capsys.readouterr().out, 11, r"W, B = ([0-9.]+), ([0-9.]+)$")

    value, grads_and_vars = tfe.implicit_value_and_gradients(loss)(
        model, training_inputs, training_outputs)
    assert float(value) == pytest.approx(float(loss(model, training_inputs, training_outputs)))
    assert [v for _, v in grads_and_vars] == [model.W, model.B]


def test_minimize_a_callable_with_the_global_step():
    model = tf.keras.Sequential([tf.keras.layers.Dense(3, input_shape=(4,))])
    x = tf.random_normal([8, 4])
    y = tf.constant([0, 1, 2, 1, 0, 2, 1, 0], dtype=tf.int64)

    def loss(model, x, y):
        prediction = model(x)
        return tf.losses.sparse_softmax_cross_entropy(labels=y, logits=prediction)

    optimizer = tf.train.GradientDescentOptimizer(learning_rate=0.5)
    before = float(loss(model, x, y))
    with tf.device("/gpu:0"):
        for _ in range(20):
            # minimize() is equivalent to the grad() and apply_gradients() calls.
            optimizer.minimize(lambda: loss(model, x, y),
                               global_step=tf.train.get_or_create_global_step())
    assert float(loss(model, x, y)) < before * 0.75
    assert int(tf.train.get_or_create_global_step()) == 20


def test_dataset_training_loop_with_keras_layers():
    dataset_train = tf.data.Dataset.from_tensor_slices(
        (np.random.RandomState(0).rand(64, 784).astype(np.float32),
         np.arange(64) % 10)).shuffle(64).repeat(10).batch(32)
    model = tf.keras.Sequential([
        tf.keras.layers.Dense(10, input_shape=(784,)),  # must declare input shape
        tf.keras.layers.Dense(10)
    ])

    def loss(model, x, y):
        prediction = model(x)
        return tf.losses.sparse_softmax_cross_entropy(labels=y, logits=prediction)

    def grad(model, inputs, targets):
        with tf.GradientTape() as tape:
            loss_value = loss(model, inputs, targets)
        return tape.gradient(loss_value, model.variables)

    optimizer = tf.train.GradientDescentOptimizer(learning_rate=0.001)
    x, y = iter(dataset_train).next()
    everything = next(iter(dataset_train.unbatch().batch(64)))
    initial = float(loss(model, *everything))
    for (i, (x, y)) in enumerate(dataset_train):
        # Calculate derivatives of the input function with respect to its parameters.
        grads = grad(model, x, y)
        # Apply the gradient to the model
        optimizer.apply_gradients(zip(grads, model.variables),
                                  global_step=tf.train.get_or_create_global_step())
    assert i == 19 and int(tf.train.get_or_create_global_step()) == 20
    assert float(loss(model, *everything)) < initial  # (20 small steps: the loss falls a little)


def test_tf_layers_mnist_model_with_adam_and_implicit_gradients(capsys):
    class MNISTModel(object):
        def __init__(self, data_format):
            if data_format == 'channels_first':
                self._input_shape = [-1, 1, 28, 28]
            else:
                self._input_shape = [-1, 28, 28, 1]
            self.conv1 = tf.layers.Conv2D(32, 5, padding='same', activation=tf.nn.relu,
                                          data_format=data_format)
            self.max_pool2d = tf.layers.MaxPooling2D(
                (2, 2), (2, 2), padding='same', data_format=data_format)
            self.conv2 = tf.layers.Conv2D(64, 5, padding='same', activation=tf.nn.relu,
                                          data_format=data_format)
            self.dense1 = tf.layers.Dense(1024, activation=tf.nn.relu)
            self.dropout = tf.layers.Dropout(0.5)
            self.dense2 = tf.layers.Dense(10)

        def predict(self, inputs):
            x = tf.reshape(inputs, self._input_shape)
            x = self.max_pool2d(self.conv1(x))
            x = self.max_pool2d(self.conv2(x))
            x = tf.layers.flatten(x)
            x = self.dropout(self.dense1(x))
            return self.dense2(x)

    def loss(model, inputs, targets):
        return tf.reduce_mean(
            tf.nn.softmax_cross_entropy_with_logits(
                logits=model.predict(inputs), labels=targets))

    rng = np.random.RandomState(0)
    inputs = rng.rand(20, 784).astype(np.float32)
    targets = np.eye(10, dtype=np.float32)[rng.randint(0, 10, 20)]
    device = "gpu:0" if tfe.num_gpus() else "cpu:0"
    model = MNISTModel('channels_first' if tfe.num_gpus() else 'channels_last')
    optimizer = tf.train.AdamOptimizer(learning_rate=1e-4)
    grad = tfe.implicit_gradients(loss)
    for i in range(3):
        with tf.device(device):
            optimizer.apply_gradients(grad(model, inputs, targets))
            print("Step %d: Loss on training set : %f" %
                  (i, loss(model, inputs, targets).numpy()))
    losses = [float(v) for v in re.findall(r": ([0-9.]+)\n", capsys.readouterr().out)]
    assert len(losses) == 3 and losses[0] > losses[1] > losses[2]
    assert sorted(optimizer.get_slot_names()) == ["m", "v"]


# -- Use objects for state -----------------------------------------------------------------

def test_variables_are_objects():
    with tf.device("gpu:0"):
        v = tfe.Variable(tf.random_normal([1000, 1000]))
        v = None  # v no longer takes up GPU memory
    assert v is None


def test_object_based_saving(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    x = tfe.Variable(10.)

    checkpoint = tfe.Checkpoint(x=x)  # save as "x"

    x.assign(2.)   # Assign a new value to the variables and save.
    save_path = checkpoint.save('./ckpt/')

    x.assign(11.)  # Change the variable after saving.

    # Restore values from the checkpoint
    checkpoint.restore(save_path)

    print(x)  # => 2.0
    assert save_path == "./ckpt/-1"
    assert capsys.readouterr().out == "<tf.Variable 'Variable:0' shape=() dtype=float32, numpy=2.0>\n"


def test_checkpoint_of_model_optimizer_and_global_step(tmp_path):
    class MyModel(tf.keras.Model):
        def __init__(self):
            super(MyModel, self).__init__()
            self.dense = tf.keras.layers.Dense(2)

        def call(self, x):
            return self.dense(x)

    def train_step(model, optimizer):
        optimizer.minimize(lambda: tf.reduce_sum(tf.square(model(tf.ones([1, 3])) - 1.0)),
                           global_step=tf.train.get_or_create_global_step())

    model = MyModel()
    optimizer = tf.train.AdamOptimizer(learning_rate=0.001)
    checkpoint_dir = str(tmp_path)
    checkpoint_prefix = os.path.join(checkpoint_dir, "ckpt")
    root = tfe.Checkpoint(optimizer=optimizer,
                          model=model,
                          optimizer_step=tf.train.get_or_create_global_step())
    train_step(model, optimizer)
    train_step(model, optimizer)
    root.save(file_prefix=checkpoint_prefix)
    saved = {v.name: v.numpy() for v in model.variables + optimizer.variables()}
    keys = dict(tf.train.list_variables(checkpoint_dir))
    assert {"optimizer/beta1_power/.ATTRIBUTES/VARIABLE_VALUE",
            "optimizer/beta2_power/.ATTRIBUTES/VARIABLE_VALUE",
            "optimizer_step/.ATTRIBUTES/VARIABLE_VALUE",
            "model/dense/kernel/.OPTIMIZER_SLOT/optimizer/m/.ATTRIBUTES/VARIABLE_VALUE",
            "model/dense/bias/.OPTIMIZER_SLOT/optimizer/v/.ATTRIBUTES/VARIABLE_VALUE"} <= set(keys)

    # A new program: restored before the optimizer makes its slots, which take their
    # saved values when made (TF's deferred restore), so training goes on where it left.
    tf.reset_default_graph()
    model2 = MyModel()
    optimizer2 = tf.train.AdamOptimizer(learning_rate=0.001)
    root = tfe.Checkpoint(optimizer=optimizer2,
                          model=model2,
                          optimizer_step=tf.train.get_or_create_global_step())
    status = root.restore(tf.train.latest_checkpoint(checkpoint_dir))
    model2(tf.ones([1, 3]))
    assert int(tf.train.get_or_create_global_step()) == 2
    train_step(model, optimizer)
    train_step(model2, optimizer2)
    status.assert_consumed()
    for a, b in zip(model.variables + optimizer.variables(),
                    model2.variables + optimizer2.variables()):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-6)
    assert saved  # (the values the first model saved, before its third step)


def test_tfe_saver(tmp_path):
    # Create variables.
    x = tfe.Variable(10., name='x')
    y = tfe.Variable(5., name='y')

    # Create a Saver.
    saver = tfe.Saver([x, y])

    # Assign new values to the variables and save.
    x.assign(2.)
    saver.save(str(tmp_path / 'ckpt'))

    # Change the variable after saving.
    x.assign(11.)
    assert 16. == (x + y).numpy()  # 11 + 5

    # Restore the values in the checkpoint.
    saver.restore(str(tmp_path / 'ckpt'))

    assert 7. == (x + y).numpy()  # 2 + 5


def test_metrics():
    m = tfe.metrics.Mean("loss")
    m(0)
    m(5)
    assert float(m.result()) == 2.5  # => 2.5
    m([8, 9])
    assert float(m.result()) == 5.5  # => 5.5

    # Metrics are objects, which can be created and destroyed.
    my_mean = tfe.metrics.Mean(name='my_mean')
    # While a metric is active, you can call it as a function to accumulate into its
    # internal state.
    my_mean(0.0)
    my_mean(10.0)
    assert 5.0 == my_mean.result().numpy()

    accuracy = tfe.metrics.Accuracy()
    accuracy(tf.constant([1, 2, 3, 4]), tf.constant([1, 2, 0, 4]))
    assert 0.75 == accuracy.result().numpy()
    # (TF 1's metrics: float64, named after their class, reset by init_variables)
    assert accuracy.result().dtype == tf.float64 and accuracy.name == "Accuracy"
    assert m.result().dtype == tf.float64 and m.name == "loss"
    accuracy.init_variables()
    accuracy([1], [1])
    assert 1.0 == accuracy.result().numpy()


def _events(logdir):
    found = []
    for name in sorted(os.listdir(logdir)):
        for e in tf.train.summary_iterator(os.path.join(logdir, name)):
            for v in e.summary.value:
                value = (eagerflow.make_ndarray(v.tensor) if v.HasField("tensor")
                         else v.simple_value)
                found.append((e.step, v.tag, float(value)))
    return found


def test_summaries(tmp_path):
    logdir = str(tmp_path)
    iterations = 250
    loss = tf.constant(0.25)

    writer = tf.contrib.summary.create_file_writer(logdir)
    global_step = tf.train.get_or_create_global_step()  # return global step var

    writer.set_as_default()

    for _ in range(iterations):
        global_step.assign_add(1)
        # Must include a record_summaries method
        with tf.contrib.summary.record_summaries_every_n_global_steps(100):
            # your model code goes here
            tf.contrib.summary.scalar('loss', loss)
    writer.flush()
    assert _events(logdir) == [(100, "loss", 0.25), (200, "loss", 0.25)]


def test_summaries_in_the_writers_block(tmp_path):
    logdir = str(tmp_path)
    loss = tf.constant(0.5)
    tf.train.get_or_create_global_step()  # Ensuring the global step variable exists
    writer = tf.contrib.summary.create_file_writer(logdir)

    for _ in range(3):
        with writer.as_default():
            with tf.contrib.summary.record_summaries_every_n_global_steps(100):
                # your model code goes here
                tf.contrib.summary.scalar('loss', loss)
    writer.flush()
    # (the global step stays at 0, a multiple of 100: each call records)
    assert _events(logdir) == [(0, "loss", 0.5)] * 3


# -- Advanced automatic differentiation --------------------------------------------------

def test_dynamic_model_line_search():
    def line_search_step(fn, init_x, rate=1.0):
        with tf.GradientTape() as tape:
            # Variables are automatically recorded, but manually watch a tensor
            tape.watch(init_x)
            value = fn(init_x)
        grad = tape.gradient(value, init_x)
        grad_norm = tf.reduce_sum(grad * grad)
        init_value = value
        while value > init_value - rate * grad_norm:
            x = init_x - rate * grad
            value = fn(x)
            rate /= 2.0
        return x, value

    x, value = line_search_step(lambda x: tf.reduce_sum(tf.square(x - 1.0)),
                                tf.constant([3.0, -2.0]))
    np.testing.assert_allclose(x.numpy(), [1.0, 1.0])
    assert float(value) == 0.0


def test_gradients_function_orders_and_control_flow():
    def square(x):
        return tf.multiply(x, x)

    grad = tfe.gradients_function(square)

    assert float(square(3.)) == 9.0  # => 9.0
    assert [float(g) for g in grad(3.)] == [6.0]    # => [6.0]

    # The second-order derivative of square:
    gradgrad = tfe.gradients_function(lambda x: grad(x)[0])
    assert [float(g) for g in gradgrad(3.)] == [2.0]  # => [2.0]

    # The third-order derivative is None:
    gradgradgrad = tfe.gradients_function(lambda x: gradgrad(x)[0])
    assert gradgradgrad(3.) == [None]  # => [None]

    # With flow control:
    def abs(x):
        return x if x > 0. else -x

    grad = tfe.gradients_function(abs)

    assert [float(g) for g in grad(3.)] == [1.0]   # => [1.0]
    assert [float(g) for g in grad(-3.)] == [-1.0]  # => [-1.0]


def test_g3doc_higher_order_asserts():
    def f(x):
        return tf.multiply(x, x)  # Or x * x
    assert 9 == f(3.).numpy()

    df = tfe.gradients_function(f)
    assert 6 == df(3.)[0].numpy()

    # Second order deriviative.
    d2f = tfe.gradients_function(lambda x: df(x)[0])
    assert 2 == d2f(3.)[0].numpy()

    value, grads = tfe.value_and_gradients_function(f)(3.)
    assert float(value) == 9.0 and [float(g) for g in grads] == [6.0]


def test_custom_gradient_clip_by_norm():
    @tf.custom_gradient
    def clip_gradient_by_norm(x, norm):
        y = tf.identity(x)

        def grad_fn(dresult):
            return [tf.clip_by_norm(dresult, norm), None]
        return y, grad_fn

    grads = tfe.gradients_function(
        lambda x: tf.reduce_sum(clip_gradient_by_norm(x, 1.0) * 10.0))(tf.constant([3.0, 4.0]))
    np.testing.assert_allclose(grads[0].numpy(), [0.70710677, 0.70710677])


def test_custom_gradient_log1pexp():
    def log1pexp(x):
        return tf.log(1 + tf.exp(x))
    grad_log1pexp = tfe.gradients_function(log1pexp)

    # The gradient computation works fine at x = 0.
    assert [float(g) for g in grad_log1pexp(0.)] == [0.5]  # => [0.5]

    # However, x = 100 fails because of numerical instability.
    assert math.isnan(float(grad_log1pexp(100.)[0]))  # => [nan]

    @tf.custom_gradient
    def log1pexp(x):
        e = tf.exp(x)

        def grad(dy):
            return dy * (1 - 1 / (1 + e))
        return tf.log(1 + e), grad

    grad_log1pexp = tfe.gradients_function(log1pexp)

    # As before, the gradient computation works fine at x = 0.
    assert [float(g) for g in grad_log1pexp(0.)] == [0.5]  # => [0.5]

    # And the gradient computation also works at x = 100.
    assert [float(g) for g in grad_log1pexp(100.)] == [1.0]  # => [1.0]


def test_g3doc_tfe_custom_gradient():
    @tfe.custom_gradient
    def log1pexp(x):
        e = tf.exp(x)

        def grad(dy):
            return dy * (1 - 1 / (1 + e))
        return tf.log(1 + e), grad
    grad_log1pexp = tfe.gradients_function(log1pexp)

    # Works as before at x = 0.
    assert 0.5 == float(grad_log1pexp(0.)[0])

    # But now works at x = 100 as well.
    assert 1.0 == float(grad_log1pexp(100.)[0])


# -- Performance -------------------------------------------------------------------------

def test_performance_snippet(capsys):
    import time

    def measure(x, steps):
        # TensorFlow initializes a GPU the first time it's used, exclude from timing.
        tf.matmul(x, x)
        start = time.time()
        for i in range(steps):
            x = tf.matmul(x, x)
            _ = x.numpy()  # Make sure to execute op and not just enqueue it
        end = time.time()
        return end - start

    shape = (100, 100)  # (the guide's 1000 x 1000, 200 steps: smaller here)
    steps = 3
    print("Time to multiply a {} matrix by itself {} times:".format(shape, steps))

    # Run on CPU:
    with tf.device("/cpu:0"):
        print("CPU: {} secs".format(measure(tf.random_normal(shape), steps)))

    # Run on GPU, if available:
    if tfe.num_gpus() > 0:
        with tf.device("/gpu:0"):
            print("GPU: {} secs".format(measure(tf.random_normal(shape), steps)))
    else:
        print("GPU: not found")
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Time to multiply a (100, 100) matrix by itself 3 times:"
    assert re.fullmatch(r"CPU: [0-9.e-]+ secs", lines[1])
    assert lines[2] == "GPU: not found" or lines[2].startswith("GPU: ")


def test_tensor_copies_between_devices():
    x = tf.random_normal([10, 10])

    x_cpu = x.cpu()
    _ = tf.matmul(x_cpu, x_cpu)    # Runs on CPU
    assert x_cpu.device.endswith("CPU:0") and _.device.endswith("CPU:0")
    np.testing.assert_array_equal(x_cpu.numpy(), x.numpy())
    if tfe.num_gpus() == 0:  # (TF: a copy to a GPU that is not there fails)
        with pytest.raises(RuntimeError, match="GPU:0 unknown device."):
            x.gpu()
    else:
        x_gpu0 = x.gpu()
        _ = tf.matmul(x_gpu0, x_gpu0)  # Runs on GPU:0
        assert x_gpu0.device.endswith("GPU:0")
        np.testing.assert_array_equal(x_gpu0.numpy(), x.numpy())
    with tf.GradientTape() as tape:  # (copies are differentiable, as TF's)
        tape.watch(x)
        y = tf.reduce_sum(x.cpu() * 2.0)
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), np.full([10, 10], 2.0))


# -- Input pipelines ---------------------------------------------------------------------

def test_tfe_iterator():
    # Create a source Dataset from in-memory numpy arrays.
    dataset = tf.data.Dataset.from_tensor_slices([1, 2, 3, 4, 5, 6])

    # Apply transformations, shuffling, batching etc.
    dataset = dataset.map(tf.square).shuffle(2).batch(2)

    # Use tfe.Iterator to iterate over the dataset.
    batches = [x for x in tfe.Iterator(dataset)]
    assert [b.shape.as_list() for b in batches] == [[2], [2], [2]]
    assert sorted(np.concatenate([b.numpy() for b in batches]).tolist()) == [1, 4, 9, 16, 25, 36]
    assert batches[0].dtype == tf.int32


def test_defun():
    @tfe.defun
    def dense(x, w):
        return tf.nn.relu(tf.matmul(x, w))

    x, w = tf.constant([[1.0, -2.0]]), tf.constant([[1.0], [1.0]])
    assert dense(x, w).numpy().tolist() == [[0.0]]
    assert dense(x, -w).numpy().tolist() == [[1.0]]


# -- Work with graphs --------------------------------------------------------------------

def test_py_func_in_a_graph(capsys):
    tf.disable_eager_execution()  # (TF 1.x's default: a program that did not enable eager)

    def my_py_func(x):
        x = tf.matmul(x, x)  # You can use tf ops
        print(x)  # but it's eager!
        return x

    with tf.Session() as sess:
        x = tf.placeholder(dtype=tf.float32)
        # Call eager function in graph!
        pf = tfe.py_func(my_py_func, [x], tf.float32)
        result = sess.run(pf, feed_dict={x: [[2.0]]})  # [[4.0]]
    assert result.tolist() == [[4.0]]
    assert capsys.readouterr().out == "tf.Tensor([[4.]], shape=(1, 1), dtype=float32)\n"


def test_the_same_model_code_builds_a_graph():
    """The guide's `Model` and `implicit_gradients` loop, in a new program where eager
    execution is not enabled: the same code builds a graph a `Session` runs."""
    tf.disable_eager_execution()

    class Model(object):
        def __init__(self):
            self.W = tfe.Variable(5., name='weight')
            self.B = tfe.Variable(10., name='bias')

        def predict(self, inputs):
            return inputs * self.W + self.B

    def loss(model, inputs, targets):
        error = model.predict(inputs) - targets
        return tf.reduce_mean(tf.square(error))

    NUM_EXAMPLES = 1000
    training_inputs = tf.placeholder(tf.float32, [None])
    training_outputs = tf.placeholder(tf.float32, [None])
    model = Model()
    grad = tfe.implicit_gradients(loss)
    optimizer = tf.train.GradientDescentOptimizer(learning_rate=0.01)
    train = optimizer.apply_gradients(grad(model, training_inputs, training_outputs),
                                      global_step=tf.train.get_or_create_global_step())
    loss_value = loss(model, training_inputs, training_outputs)
    assert not tf.executing_eagerly()
    assert {v.name for v in tf.trainable_variables()} == {"weight:0", "bias:0"}

    rng = np.random.RandomState(0)
    xs = rng.randn(NUM_EXAMPLES).astype(np.float32)
    feed = {training_inputs: xs, training_outputs: xs * 3 + 2 + rng.randn(NUM_EXAMPLES)}
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        initial = sess.run(loss_value, feed)
        for _ in range(200):
            sess.run(train, feed)
        final, w, b, step = sess.run([loss_value, model.W, model.B,
                                      tf.train.get_global_step()], feed)
    assert 50 < initial < 90 and 0.8 < final < 1.3
    assert abs(w - 3) < 0.15 and abs(b - 2) < 0.25 and step == 200


def test_tfe_run_calls_main():
    with pytest.raises(SystemExit) as exit_info:
        tfe.run(lambda argv: 0 if argv == ["prog"] else 1, argv=["prog"])
    assert exit_info.value.code == 0


def test_metric_results_write_summaries(tmp_path):
    """"If a summary writer is active the metric will write the appropriate summaries
    using the metric name" (the g3doc guide)."""
    m = tfe.metrics.Mean(name='my_mean')
    m(3.0)
    assert float(m.result()) == 3.0  # (no writer: nothing written)
    writer = tf.contrib.summary.create_file_writer(str(tmp_path))
    accuracy = tfe.metrics.Accuracy()
    accuracy([1, 2], [1, 0])
    with writer.as_default(), tf.contrib.summary.always_record_summaries():
        m(5.0)
        assert float(m.result()) == 4.0
        assert float(m.result(write_summary=False)) == 4.0
        assert float(accuracy.result()) == 0.5
    writer.flush()
    assert _events(str(tmp_path)) == [(0, "my_mean", 4.0), (0, "Accuracy", 0.5)]


def test_train_checkpoint_as_the_r1_guide_spells_it(tmp_path):
    x = tf.Variable(10.)
    checkpoint = tf.train.Checkpoint(x=x)
    x.assign(2.)   # Assign a new value to the variables and save.
    checkpoint_path = str(tmp_path) + '/ckpt/'
    checkpoint.save(checkpoint_path)
    x.assign(11.)  # Change the variable after saving.
    # Restore values from the checkpoint
    checkpoint.restore(tf.train.latest_checkpoint(checkpoint_path))
    assert float(x) == 2.0  # => 2.0


def test_v1_spellings_are_the_tf2_objects():
    assert tf.random_normal is eagerflow.random.normal
    assert tf.random_uniform is eagerflow.random.uniform
    assert tf.truncated_normal is eagerflow.random.truncated_normal
    assert tf.log is eagerflow.math.log and tf.matrix_inverse is eagerflow.linalg.inv
    assert tf.set_random_seed is eagerflow.random.set_seed
    # (TF 1's Checkpoint, whose save takes a session, as TF's CheckpointV1)
    assert tf.train.Checkpoint is not eagerflow.train.Checkpoint
    assert issubclass(tf.data.Dataset, eagerflow.data.Dataset)  # TF 1's DatasetV1
    tf.set_random_seed(7)
    a = tf.random_normal([3])
    tf.set_random_seed(7)
    np.testing.assert_array_equal(a.numpy(), tf.random_normal([3]).numpy())
    assert tf.to_float(tf.constant([1, 2])).dtype == tf.float32
    assert tf.to_int64([2.7]).numpy().tolist() == [2]
    tf.disable_eager_execution()
    assert tf.to_float(tf.placeholder(tf.int32, [None]), name="f").name == "f:0"
    assert tf.to_int32(tf.placeholder(tf.float32, [])).name == "ToInt32:0"


def test_g3doc_networks():
    class TwoLayerNet(tfe.Network):
        def __init__(self):
            super(TwoLayerNet, self).__init__()
            self.layer1 = self.track_layer(
                tf.layers.Dense(2, activation=tf.nn.relu, use_bias=False))
            self.layer2 = self.track_layer(tf.layers.Dense(3, use_bias=False))

        def call(self, x):
            return self.layer2(self.layer1(x))

    net = TwoLayerNet()

    # No variables created yet
    assert 0 == len(net.variables)

    # They are created on first input:
    inp = tf.constant([[1.]])

    # Since input is a 1x1 matrix, net.l1 has 2 units and net.l2 has 3 units,
    # the output is the product of a 1x1 matrix with a 1x2 matrix with a 2x3
    # matrix.
    assert [1, 3] == net(inp).shape.as_list()  # Invoke net; get output shape.
    assert 1 == len(net.layer1.variables)
    assert 1 == len(net.layer2.variables)
    assert 2 == len(net.variables)  # weights for each layer.
    assert [1, 2] == net.variables[0].shape.as_list()  # weights of layer1.
    assert [2, 3] == net.variables[1].shape.as_list()  # weights of layer2.

    class ThreeLayerNet(tfe.Network):
        def __init__(self):
            super(ThreeLayerNet, self).__init__()
            self.a = self.track_layer(TwoLayerNet())
            self.b = self.track_layer(tf.layers.Dense(4, use_bias=False))

        def call(self, x):
            return self.b(self.a(x))

    net = ThreeLayerNet()

    assert [1, 4] == net(inp).shape.as_list()
    assert 3 == len(net.variables)
    assert [1, 2] == net.variables[0].shape.as_list()
    assert [2, 3] == net.variables[1].shape.as_list()
    assert [3, 4] == net.variables[2].shape.as_list()

    # (the g3doc's training of the network towards an objective, with minimize, the
    # global step and tfe.Saver)
    # (a ReLU layer of two units on one input is dead from the start for a quarter of the
    # random initializations: this one starts alive)
    net.a.layer1.kernel.assign([[0.5, 0.8]])
    objective = tf.constant([[2., 3., 4., 5.]])
    optimizer = tf.train.AdamOptimizer(0.01)
    global_step = tf.train.get_or_create_global_step()
    initial = float(tf.norm(net(inp) - objective))
    for _ in range(200):
        loss_fn = lambda: tf.norm(net(inp) - objective)  # noqa: E731
        optimizer.minimize(loss_fn, global_step=global_step)
    assert int(global_step) == 200
    assert float(tf.norm(net(inp) - objective)) < min(0.5, initial / 4)
    all_variables = net.variables + optimizer.variables() + [global_step]
    assert len(all_variables) == 3 + 2 + 6 + 1  # (beta powers, m and v of each weight)


def test_num_gpus_counts_the_gpus_eagerflow_uses():
    assert tfe.num_gpus() == len(eagerflow.config.list_physical_devices("GPU"))

"""On data of unknown size, each epoch of tf_keras's `fit` ends with a step whose input ran
out; the parts of the optimizer's update that wait on no input still ran in it (the count of
iterations, the decay of sparse slots, weight decay of the dense variables), and the
following epochs see them. The reference numbers are tf_keras 2.21's."""
import numpy as np
import pytest

import eagerflow as tf

O = tf.keras.optimizers

CASES = {
    # name: (optimizer, dense model, iterations after 3 epochs, losses, first weights)
    "adam_sparse": (lambda: O.Adam(0.1), False, 10, [1.468, 0.98422, 0.54303],
                    [-0.24409, 0.42099, -0.42541, 0.4166]),
    "adamw_sparse": (lambda: O.AdamW(0.1, weight_decay=0.1), False, 10,
                     [1.46655, 0.99954, 0.58899], [-0.23979, 0.40871, -0.41222, 0.40408]),
    "adamw_dense": (lambda: O.AdamW(0.1, weight_decay=0.1), True, 10,
                    [2.0661, 1.56856, 1.26486], [-0.122, -0.39847, 1.0318, -0.36496]),
    "sgd_momentum_sparse": (lambda: O.SGD(0.1, momentum=0.9), False, 10,
                            [1.4596, 1.16554, 0.70673], [-0.22958, 0.1545, -0.19273, 0.14205]),
    "rmsprop_centered_sparse": (lambda: O.RMSprop(0.1, centered=True, momentum=0.5), False,
                                10, [1.68949, 0.9698, 0.45034],
                                [-0.08356, 0.22808, 0.84098, 0.9073]),
    "legacy_adam_sparse": (lambda: O.legacy.Adam(0.1), False, 9, [1.468, 0.97894, 0.52226],
                           [-0.24747, 0.42979, -0.43501, 0.42588]),
    "legacy_adam_dense": (lambda: O.legacy.Adam(0.1), True, 9, [2.0747, 1.59629, 1.25835],
                          [-0.12174, -0.44318, 1.11135, -0.42539]),
    # (Nadam's momentum product advances once per variable in the traced step)
    "nadam_dense": (lambda: O.Nadam(0.1), True, 10, [2.07566, 1.5138, 1.29828],
                    [-0.09316, -0.43742, 1.11569, -0.52501]),
    # (the legacy sparse updates touch only the gradient's rows; without momentum, legacy
    # RMSprop decays every row's average, also in the step without input)
    "legacy_sgd_momentum_sparse": (lambda: O.legacy.SGD(0.1, momentum=0.9), False, 9,
                                   [1.45545, 1.2479, 0.89865],
                                   [-0.18295, 0.11904, -0.08399, 0.05449]),
    "legacy_sgd_nesterov_sparse": (lambda: O.legacy.SGD(0.1, momentum=0.9, nesterov=True),
                                   False, 9, [1.45266, 1.16485, 0.7194],
                                   [-0.18032, 0.06277, -0.1343, 0.09303]),
    "legacy_rmsprop_sparse": (lambda: O.legacy.RMSprop(0.1), False, 9,
                              [1.54174, 0.84501, 0.14037], [0.0343, 0.37397, 0.43935, 0.67975]),
    "legacy_rmsprop_momentum_sparse": (lambda: O.legacy.RMSprop(0.1, momentum=0.5), False, 9,
                                       [1.57946, 0.77276, 0.16333],
                                       [0.03695, 0.17793, 0.53361, 0.92827]),
    "legacy_adamax_sparse": (lambda: O.legacy.Adamax(0.1), False, 9,
                             [1.45069, 1.16109, 0.93936], [-0.15864, 0.2253, -0.09216, 0.08043]),
    "legacy_adadelta_sparse": (lambda: O.legacy.Adadelta(1.0), False, 9,
                               [1.46155, 1.45602, 1.45072],
                               [-0.00224, -0.01536, 0.02964, -0.03508]),
    # (legacy Nadam's advance of its momentum cache waits on no input)
    "legacy_nadam_sparse": (lambda: O.legacy.Nadam(0.1), False, 9, [1.44399, 1.12483, 0.75185],
                            [-0.14074, 0.25584, -0.3298, 0.32839]),
    "legacy_nadam_dense": (lambda: O.legacy.Nadam(0.1), True, 9, [2.03023, 1.46937, 1.26533],
                           [-0.1875, -0.51598, 1.10581, -0.54873]),
}


def _generator_dataset():
    x = np.random.RandomState(0).randint(0, 10, size=(10, 3))
    y = np.random.RandomState(1).normal(size=(10, 1)).astype("float32")

    def gen():
        for i in range(10):
            yield x[i], y[i]
    return tf.data.Dataset.from_generator(gen, output_signature=(
        tf.TensorSpec((3,), tf.int64), tf.TensorSpec((1,), tf.float32))).batch(4)


@pytest.mark.parametrize("case", sorted(CASES))
def test_epochs_of_unknown_size_train_as_tf_keras(case):
    make, dense, iterations, losses, weights = CASES[case]
    tf.keras.utils.set_random_seed(0)
    if dense:
        layers = [tf.keras.layers.Lambda(lambda t: tf.cast(t, "float32") / 10.0),
                  tf.keras.layers.Dense(2), tf.keras.layers.Dense(1)]
    else:  # (an embedding: its gradients are IndexedSlices)
        layers = [tf.keras.layers.Embedding(10, 2, input_length=3), tf.keras.layers.Flatten(),
                  tf.keras.layers.Dense(1)]
    model = tf.keras.Sequential(layers)
    model.compile(make(), "mse")
    history = model.fit(_generator_dataset(), epochs=3, verbose=0)
    assert int(model.optimizer.iterations.numpy()) == iterations
    np.testing.assert_allclose(history.history["loss"], losses, atol=2e-5)
    np.testing.assert_allclose(model.get_weights()[0].ravel()[:4], weights, atol=2e-5)

"""`fit`, `evaluate` and `predict` as tf_keras runs them: the batches a step sees, what the
loops print and what the callbacks are given."""
import numpy as np

import eagerflow as tf

keras = tf.keras


class _Recording(keras.Model):
    """A model whose training steps note the batches they get."""

    def __init__(self):
        super().__init__()
        self.dense = keras.layers.Dense(1, kernel_initializer="zeros")
        self.seen = []

    def call(self, x):
        return self.dense(x)

    def train_step(self, data):
        x, y = data
        self.seen.append((x.numpy()[:, 0].tolist(), y.numpy()[:, 0].tolist()))
        return super().train_step(data)


def test_shuffle_batch_keeps_each_batch_sized_chunk_together():
    # As tf_keras: shuffle="batch" shuffles the order of the batch-sized chunks of the data
    # and the rows within each; the partial chunk stays one batch wherever it comes.
    values = np.arange(10, dtype="float32").reshape(10, 1)
    model = _Recording()
    model.compile("sgd", "mse", run_eagerly=True)
    model.fit(values, values, batch_size=4, epochs=4, verbose=0, shuffle="batch")
    assert len(model.seen) == 12
    for x, y in model.seen:
        assert x == y  # (rows stay with their targets)
        assert sorted(x) in ([0, 1, 2, 3], [4, 5, 6, 7], [8, 9])
    for epoch in range(4):
        chunks = sorted(sorted(x) for x, _ in model.seen[epoch * 3:epoch * 3 + 3])
        assert chunks == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]

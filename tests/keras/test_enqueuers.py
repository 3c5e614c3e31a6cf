"""`keras.utils.OrderedEnqueuer` and `GeneratorEnqueuer` hand out a Sequence's batches and
a generator's items in order, made ahead on threads, as tf_keras's do."""
import numpy as np
import pytest

import eagerflow as tf

U = tf.keras.utils


class Batches(U.Sequence):
    def __init__(self, size=3):
        self.size, self.epochs = size, 0

    def __len__(self):
        return self.size

    def __getitem__(self, i):
        return np.full((2,), i)

    def on_epoch_end(self):
        self.epochs += 1


def test_ordered_enqueuer_repeats_the_epochs_in_order():
    sequence = Batches()
    enqueuer = U.OrderedEnqueuer(sequence)
    assert not enqueuer.is_running()
    enqueuer.start(workers=2, max_queue_size=4)
    assert enqueuer.is_running()
    batches = enqueuer.get()
    got = [next(batches).tolist() for _ in range(7)]
    enqueuer.stop()
    assert not enqueuer.is_running()
    assert got == [[0, 0], [1, 1], [2, 2], [0, 0], [1, 1], [2, 2], [0, 0]]
    assert sequence.epochs >= 2  # (and more as it worked ahead)


def test_ordered_enqueuer_shuffles_each_epoch_and_stops_with_a_full_queue():
    enqueuer = U.OrderedEnqueuer(Batches(50), shuffle=True)
    enqueuer.start(workers=3, max_queue_size=2)
    batches = enqueuer.get()
    epochs = [[int(next(batches)[0]) for _ in range(50)] for _ in range(2)]
    assert all(sorted(epoch) == list(range(50)) for epoch in epochs)
    assert epochs[0] != list(range(50)) and epochs[0] != epochs[1]
    enqueuer.stop(timeout=5)  # the producer waits on a full queue: it must still end
    assert enqueuer._thread is None


def test_generator_enqueuer_ends_with_its_generator_and_passes_on_its_error():
    enqueuer = U.GeneratorEnqueuer(iter(range(5)))
    enqueuer.start(max_queue_size=2)
    assert list(enqueuer.get()) == [0, 1, 2, 3, 4]
    enqueuer.stop()

    def failing():
        yield 1
        raise KeyError("broken")

    enqueuer = U.GeneratorEnqueuer(failing())
    enqueuer.start()
    items = enqueuer.get()
    assert next(items) == 1
    with pytest.raises(KeyError, match="broken"):
        next(items)
    enqueuer.stop()

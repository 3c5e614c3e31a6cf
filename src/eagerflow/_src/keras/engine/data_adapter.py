"""Batches for `fit`, `evaluate` and `predict`, from whatever data the user passes.

Arrays and tensors (and lists/dicts of them) are sliced into batches, shuffled
each epoch when asked; float64 arrays become float32 as in Keras, and a pandas
Series a column (an array of shape ``(rows, 1)``). Generators,
`keras.utils.Sequence` and any other iterable (such as a dataset) yield their
own batches; a `tf.data.Dataset` its elements, as many as its cardinality says.

>>> import numpy as np
>>> handler = DataHandler(np.zeros((5, 2)), np.arange(5), batch_size=2)
>>> [tuple(b[0].shape) for b in handler.batches()]
[(2, 2), (2, 2), (1, 2)]
"""
import itertools
import math
import random
import sys
import types

import numpy as np

from eagerflow._src.backend import log as _log
from eagerflow._src.core import errors, nest
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.core.dtypes import DType
from eagerflow._src.core.tensor import Tensor
from eagerflow._src.core.tensor_spec import TensorSpec
from eagerflow._src.data.dataset_ops import INFINITE, UNKNOWN, Dataset
from eagerflow._src.keras import backend
from eagerflow._src.keras.utils.dataset_creator import DatasetCreator
from eagerflow._src.keras.utils.data_utils import (
    Sequence, pack_x_y_sample_weight, unpack_x_y_sample_weight)
from eagerflow._src.ops import random_ops
from eagerflow._src.ops.extension_type import ExtensionType
from eagerflow._src.ops.sparse_tensor import SparseTensor
from eagerflow._src.ragged import ragged_ops
from eagerflow._src.ragged.ragged_tensor import RaggedTensor

_logger = _log.logger


def _is_array(value):
    return isinstance(value, (np.ndarray, Tensor)) or hasattr(value, "__array__") and \
        hasattr(value, "shape")


def _is_array_data(x):
    flat = nest.flatten(x)
    return bool(flat) and all(_is_array(v) for v in flat) and not isinstance(x, Sequence)


_SCALARS = (int, float, str, bytes, bytearray)


def is_list_of_scalars(x):
    """True for a Python number (or string) or a non-empty list or tuple whose first entry
    (recursively) is one: data Keras takes as one array, as ``np.asarray`` makes it."""
    while isinstance(x, (list, tuple)) and x:
        x = x[0]
    return isinstance(x, _SCALARS)


def from_pandas(data):
    """`data` with each pandas Series in it made an array of one column, as Keras takes
    them (a DataFrame is an array as it is)."""
    pandas = sys.modules.get("pandas")  # (none in `data` unless the program imported it)
    if pandas is None:
        return data
    return nest.map_structure(
        lambda v: np.expand_dims(v.to_numpy(), -1) if isinstance(v, pandas.Series) else v,
        data)


def _type_name(x):
    """How Keras names the type of data it cannot take: containers with their contents."""
    if isinstance(x, dict):
        keys = {_type_name(k) for k in x}
        values = {_type_name(v) for v in x.values()}
        return f"({type(x)} containing {keys} keys and {values} values)"
    if isinstance(x, (list, tuple)):
        return f"({type(x)} containing values of types {set(map(_type_name, x))})"
    return str(type(x))


def _as_array(value):
    """`value` as an array; as Keras, NumPy floating data (of any width) in floatx, and a
    tensor's or variable's in its own dtype."""
    if isinstance(value, RaggedTensor):  # (sliced as it is: rows of different lengths)
        return value
    array = np.asarray(value)
    if issubclass(array.dtype.type, np.floating) and \
            not isinstance(getattr(value, "dtype", None), DType):
        array = array.astype(backend.floatx())
    return array


class _Arrays:
    """Batches sliced from arrays, in a fresh order each epoch when shuffling."""

    def __init__(self, data, batch_size, shuffle, single_batch=False, epochs=None,
                 steps_per_epoch=None):
        self._epochs = epochs  # (the passes TF's repeated dataset makes: None, endless)
        self.insufficient = self.ran_past_end = False
        self.data = nest.map_structure(_as_array, data)
        sizes = {int(a.shape[0]) for a in nest.flatten(self.data) if len(a.shape)}
        if len(sizes) > 1:
            raise ValueError(f"Data cardinality is ambiguous:\n  "
                             f"{_describe_sizes(data)}\nMake sure all arrays contain the "
                             f"same number of samples.")
        self.size = sizes.pop() if sizes else 1
        if not batch_size and steps_per_epoch and steps_per_epoch > 0:
            # As Keras: the given steps cover the data once
            batch_size = math.ceil(self.size / steps_per_epoch)
        self.batch_size = max(self.size, 1) if single_batch else batch_size or 32
        self.shuffle = shuffle
        self.steps = math.ceil(self.size / self.batch_size) or int(single_batch)
        # As Keras: each epoch's order drawn by `tf.random.shuffle` under the global seed.
        self._orders = random_ops.ShuffleStream(self.size) if shuffle and shuffle != "batch" \
            else None

    def epoch(self, limit=None):
        """The next `limit` batches (a pass's worth by default): as TF's repeated dataset,
        epochs of `steps_per_epoch` batches go on through the data where the last one
        stopped, into the next pass (in a new order when shuffling)."""
        if self._batches is None:
            self._batches = self._passes()
        for _ in range(self.steps if limit is None else math.ceil(limit)):  # (as TF: a float too)
            batch = next(self._batches, None)
            if batch is None:
                if limit is not None:
                    _warn_ran_out(self, limit)
                return
            yield batch

    _batches = None

    def restart(self):
        self._batches = None

    def _passes(self):
        """The batches of pass after pass over the data."""
        if not self.steps:
            return
        for _ in itertools.count() if self._epochs is None else range(self._epochs):
            data = self.data
            if self.shuffle == "batch":
                # As Keras: the batch-sized chunks of the data (the partial one too) in a
                # random order, each shuffled within itself; a chunk is a batch.
                for chunk in np.random.permutation(self.steps):
                    start = chunk * self.batch_size
                    order = start + np.random.permutation(
                        min(self.batch_size, self.size - start))
                    yield nest.map_structure(lambda a: _batch_of(_take(a, order)), data)
                continue
            if self.shuffle:
                order = self._orders.next()
                data = nest.map_structure(lambda a: _take(a, order), data)
            for i in range(self.steps):
                start = i * self.batch_size
                yield nest.map_structure(
                    lambda a: _batch_of(a[start:start + self.batch_size]), data)


def _lists_as_tuples(structure):
    """`structure` with its lists (at any depth) made tuples, as Keras hands array data to
    the steps: ``fit([x1, x2], [y1, y2])`` gives `train_step` tuples of inputs and targets.
    """
    if isinstance(structure, list):
        return tuple(_lists_as_tuples(v) for v in structure)
    if isinstance(structure, dict):
        return type(structure)((k, _lists_as_tuples(v)) for k, v in structure.items())
    if type(structure) is tuple:
        return tuple(_lists_as_tuples(v) for v in structure)
    return structure


def _filled_sample_weights(y, sample_weight):
    """As Keras: in a list of sample weights (one per output), an output's None is weights
    of ones for its targets, unless all are None (then there are none)."""
    if not isinstance(sample_weight, (list, tuple)) or \
            not any(w is None for w in sample_weight):
        return sample_weight
    if all(w is None for w in sample_weight):
        return None
    targets = list(y) if isinstance(y, (list, tuple)) else [y] * len(sample_weight)
    return type(sample_weight)(np.ones(np.shape(t)[:1], backend.floatx()) if w is None else w
                               for w, t in zip(sample_weight, targets))


def _batch_of(rows):
    """A batch of rows as the step takes it: a tensor (a ragged one as it is)."""
    return rows if isinstance(rows, RaggedTensor) else convert_to_tensor(rows)


def _take(array, order):
    """The rows `order` of an array (or ragged tensor)."""
    if isinstance(array, RaggedTensor):
        return ragged_ops.gather(array, np.asarray(order))
    return array[order]


def _describe_sizes(data):
    parts = []
    x, y, sample_weight = unpack_x_y_sample_weight(data)
    for name, value in (("x", x), ("y", y), ("sample_weight", sample_weight)):
        if value is not None:
            sizes = ", ".join(str(np.shape(a)[0]) for a in nest.flatten(value))
            parts.append(f"{name} sizes: {sizes}")
    return "\n  ".join(parts)


class _Iterable:
    """Batches a generator, `Sequence` or other iterable yields."""

    def __init__(self, data, steps, class_weight=None, shuffle=False, epochs=1, model=None):
        self.data = data
        self._epochs = epochs
        self.insufficient = self.ran_past_end = False
        self.steps = len(data) if isinstance(data, Sequence) else steps
        self._class_weight = class_weight
        self._shuffle = shuffle
        first = None
        if isinstance(data, Sequence) and len(data):
            first = data[0]  # as Keras, which reads it to learn the batches' types
        self._iterator = None
        self.reiterable = not isinstance(data, (types.GeneratorType,)) and \
            not hasattr(data, "__next__")
        if first is None and not isinstance(data, Sequence):
            first = self._peek()
        if first is None:
            return
        # As Keras, which reads the first batch to learn its structure: one that is not
        # `x`, `(x,)`, `(x, y)` or `(x, y, sample_weight)` fails here, before any step.
        unpack_x_y_sample_weight(tuple(first) if isinstance(first, list) else first)
        if model is not None and not model.built:
            self._build(model, unpack_x_y_sample_weight(_tensors(first))[0])

    def _peek(self):
        """The iterable's first batch, which its first epoch still gets (None if empty)."""
        iterator = iter(self.data)
        try:
            first = next(iterator)
        except StopIteration:
            return None
        if not self.reiterable:
            self._iterator = itertools.chain([first], iterator)
        return first

    @staticmethod
    def _build(model, x):
        """As Keras: a model not yet built is built on the first batch's inputs `x`, since
        the batches' specs know only their ranks (see `DataHandler.batch_spec`)."""
        try:
            model(x, training=False)
        except NotImplementedError:  # a model of parts with no forward pass of its own
            pass

    def epoch(self, limit=None):
        limit = self.steps if limit is None else limit
        if isinstance(self.data, Sequence):
            # As Keras: a fresh order each epoch from Python's `random` (seeded by
            # `set_random_seed`) when shuffling.
            order = list(range(len(self.data)))
            if self._shuffle:
                random.shuffle(order)
            self._iterator = (self.data[i] for i in order)
        elif self.reiterable or self._iterator is None:
            self._iterator = iter(self.data)
        count = 0
        while limit is None or count < limit:
            try:
                batch = next(self._iterator)
            except StopIteration:
                self._iterator = None
                if isinstance(self.data, Sequence):
                    if limit is not None:  # (fewer batches than `steps_per_epoch`, as TF)
                        _warn_ran_out(self, limit)
                elif not self.reiterable:
                    self._ran_out(count)
                return
            count += 1
            batch = _tensors(batch)
            yield _weighted(batch, self._class_weight) if self._class_weight else batch

    def on_epoch_end(self):
        if isinstance(self.data, Sequence):
            self.data.on_epoch_end()


    def _ran_out(self, count):
        """As Keras: a generator's first pass tells how many batches an epoch has; one that
        runs out later ends training after this epoch. Either way TF's loop ran one step
        more to meet the end."""
        self.ran_past_end = True
        if self.steps is None:
            self.steps = count
            return
        _warn_ran_out(self, self.steps)


def _tensors(batch):
    """A batch a generator or `Sequence` gave, its arrays made tensors (its lists tuples)."""
    return nest.map_structure(
        lambda a: a if isinstance(a, Tensor) or a is None else convert_to_tensor(_as_array(a)),
        _lists_as_tuples(batch))


def _warn_ran_out(adapter, steps):
    """Logs Keras's warning that `adapter`'s data ran out before its epochs of `steps`
    batches, and marks it so (training stops after this epoch; TF's loop ran one step more
    to meet the end)."""
    _logger.warning(
        "Your input ran out of data; interrupting training. Make sure that your dataset "
        "or generator can generate at least `steps_per_epoch * epochs` batches (in this "
        "case, %d batches). You may need to use the repeat() function when building your "
        "dataset.", adapter._epochs * steps)
    adapter.insufficient = adapter.ran_past_end = True


def _weighted(batch, class_weight):
    """`batch` with per-sample weights from `class_weight` (times its own); a batch without
    targets as it is."""
    x, y, sample_weight = unpack_x_y_sample_weight(batch)
    if y is None:
        return batch
    weights = _class_weights(nest.map_structure(np.asarray, y), class_weight,
                             None if sample_weight is None else np.asarray(sample_weight))
    return x, y, convert_to_tensor(weights)


class _DatasetAdapter:
    """Batches of a `tf.data.Dataset`, as TF's ``DatasetAdapter`` takes them: the steps
    from its cardinality; with `steps_per_epoch` (other than the cardinality) one
    iterator runs on across epochs, and training stops when it runs out."""

    def __init__(self, dataset, steps, epochs, class_weight=None):
        self.data = dataset
        self._class_weight = class_weight
        # (a distributed dataset's size is unknown, as in TF)
        size = dataset._cardinality() if isinstance(dataset, Dataset) else UNKNOWN
        if steps is None and size == INFINITE:
            raise ValueError("When providing an infinite dataset, you must specify the number "
                             "of steps to run (if you did not intend to create an infinite "
                             "dataset, make sure to not call `repeat()` on the dataset).")
        self.steps = size if size >= 0 else None  # unknown: the progress bar learns it
        self._user_steps = steps if steps not in (None, -1) else None
        self._epochs = epochs
        self._recreate = self._user_steps is None or self._user_steps == size
        self._iterator = None
        self.insufficient = False
        self.learned_steps = self.ran_past_end = False

    def start(self):
        """Makes the iterator Keras makes before its epochs. When each epoch makes its own,
        this one is never read, but its making still draws the next order of a dataset
        that reshuffles each iteration: as in TF, the first epoch gets the second."""
        self._iterator = iter(self.data)

    def epoch(self, limit=None):
        limit = self._user_steps
        if self._recreate or self._iterator is None:
            self._iterator = iter(self.data)
        count = 0
        while limit is None or count < limit:
            try:
                batch = next(self._iterator)
            except StopIteration:
                if limit is not None:
                    _warn_ran_out(self, limit)
                elif self.steps is None and not self.learned_steps:
                    # TF runs its step once more to find the end of data of unknown size
                    # (only in the first epoch: it then knows the number of steps)
                    self.learned_steps = self.ran_past_end = True
                self._iterator = None
                return
            count += 1
            yield _weighted(batch, self._class_weight) if self._class_weight else batch

    def batch_spec(self, batch):
        """What TF traces a step for: the dataset's element spec (with the weights that
        class weights add, of any batch size)."""
        if not self._class_weight:
            return self.data.element_spec
        return nest.map_structure(
            lambda t: TensorSpec([None, *t.shape.as_list()[1:]], t.dtype), batch)


class DataHandler:
    """Epochs and batches for one `fit`, `evaluate` or `predict` call."""

    def __init__(self, x, y=None, sample_weight=None, batch_size=None, steps_per_epoch=None,
                 initial_epoch=0, epochs=1, shuffle=False, class_weight=None,
                 max_queue_size=10, workers=1, single_batch=False, model=None):
        """`single_batch`: all the data in one batch, even none (``*_on_batch``); `model`:
        the model the batches are for, built on a generator's first batch if not yet."""
        if not single_batch:
            if batch_size is not None:
                _check_positive("batch_size", batch_size)
            if steps_per_epoch not in (None, -1) and steps_per_epoch <= 0:
                raise ValueError(f"steps_per_epoch must be positive, None or -1. Received "
                                 f"{steps_per_epoch}. See `Model.fit`.")
            if initial_epoch < 0:
                raise ValueError(f"Expected initial_epoch to be non-negative. Received is "
                                 f"{initial_epoch}.")
            _check_positive("max_queue_size", max_queue_size)
            _check_positive("workers", workers)
            _check_positive("epochs", epochs)
        self.initial_epoch, self.epochs = initial_epoch, epochs
        self.steps_per_epoch = steps_per_epoch
        x, y, sample_weight = from_pandas((x, y, sample_weight))
        if isinstance(x, DatasetCreator):
            x = _created_dataset(x, steps_per_epoch)
        if any(isinstance(v, (SparseTensor, ExtensionType))
               for v in nest.flatten((x, y, sample_weight))):
            # SparseTensors and extension types (and the arrays beside them) batch as a
            # dataset of their rows
            x = _sparse_dataset(x, y, sample_weight, batch_size, shuffle, single_batch)
            y = sample_weight = None
        if is_list_of_scalars(x) and (y is None or is_list_of_scalars(y)):
            # As Keras: lists of numbers (of lists...) are arrays; a list of several
            # inputs' lists is one array too, so NumPy's error if their shapes differ
            x = np.asarray(x)
            y = None if y is None else np.asarray(y)
        elif any(isinstance(v, _SCALARS) for v in nest.flatten((x, y))):
            raise ValueError(f"Failed to find data adapter that can handle input: "
                             f"{_type_name(x)}, {_type_name(y)}")
        if is_list_of_scalars(sample_weight):
            sample_weight = np.asarray(sample_weight)
        if _is_array_data(x):
            if y is not None or sample_weight is not None or class_weight:
                y_flat = nest.flatten(y) if y is not None else []
                sample_weight = _filled_sample_weights(y, sample_weight)
                if class_weight:
                    sample_weight = _class_weights(y, class_weight, sample_weight)
                data = _lists_as_tuples(
                    pack_x_y_sample_weight(x, y if y_flat else None, sample_weight))
            else:
                # As Keras: `train_step` gets `x` alone when there is no `y`, as a tuple
                # in a 1-tuple when it is a list or tuple (of several inputs).
                data = pack_x_y_sample_weight(_lists_as_tuples(x))
            self._adapter = _Arrays(data, batch_size, shuffle, single_batch,
                                    epochs - initial_epoch, steps_per_epoch)
        else:
            # (as TF, naming what `x` is)
            source = "`keras.utils.Sequence`" if isinstance(x, Sequence) else \
                "python generator" if hasattr(x, "__next__") else "dataset"
            if y is not None:
                raise ValueError(f"`y` argument is not supported when using {source} as "
                                 f"input.")
            if sample_weight is not None:
                raise ValueError(f"`sample_weight` argument is not supported when using "
                                 f"{source} as input.")
            if _is_distributed_dataset(x) and steps_per_epoch in (None, -1):
                raise ValueError("When providing a distributed dataset, you must specify the "
                                 "number of steps to run.")
            if isinstance(x, Dataset) or _is_distributed_dataset(x):
                self._adapter = _DatasetAdapter(x, steps_per_epoch, epochs - initial_epoch,
                                                class_weight)
            else:
                self._adapter = _Iterable(x, steps_per_epoch, class_weight,
                                          shuffle and shuffle != "batch", epochs - initial_epoch,
                                          model)
        steps = self._adapter.steps
        self.inferred_steps = steps_per_epoch if steps_per_epoch is not None else steps
        if self.inferred_steps == 0:
            raise ValueError("Expected input data to be non-empty.")

    def batch_spec(self, batch):
        """What every batch is known to be, as TF knows a dataset's elements: array data
        has batches of any size (of `batch_size` when the rows divide into them evenly,
        as Keras then makes only full batches), a generator's batches any shape of the
        first one's rank."""
        if isinstance(self._adapter, _DatasetAdapter):
            return self._adapter.batch_spec(batch)
        keep_inner = isinstance(self._adapter, _Arrays)
        rows = None
        if keep_inner and self._adapter.size % self._adapter.batch_size == 0:
            rows = self._adapter.batch_size

        def spec(tensor):
            if not isinstance(tensor, Tensor) or tensor.shape.rank is None:
                return tensor
            dims = tensor.shape.as_list()
            dims = [rows, *dims[1:]] if keep_inner and dims else [None] * len(dims)
            return TensorSpec(dims, tensor.dtype)
        return nest.map_structure(spec, batch)

    def start(self):
        """What Keras does before the first epoch (see `_DatasetAdapter.start`): arrays
        start over (fit's validation data is read from its start at each validation)."""
        if isinstance(self._adapter, _DatasetAdapter):
            self._adapter.start()
        elif isinstance(self._adapter, _Arrays):
            self._adapter.restart()

    def ran_past_end(self):
        """Whether the last epoch's batches ended where TF's loop runs one step more, which
        meets the end of the data (of unknown size, or fewer batches than the steps asked
        for); the flag is cleared for the next epoch."""
        ran = getattr(self._adapter, "ran_past_end", False)
        self._adapter.ran_past_end = False
        return ran

    @property
    def insufficient(self):
        """Whether the data ran out before `steps_per_epoch * epochs` batches."""
        return getattr(self._adapter, "insufficient", False)

    def enumerate_epochs(self):
        self.start()
        for epoch in range(self.initial_epoch, self.epochs):
            if self.insufficient:
                return  # the data ran out before `steps_per_epoch * epochs` batches, as TF
            yield epoch
            self.end_epoch()

    def end_epoch(self):
        """As Keras, after an epoch's callbacks (and not after a stopped epoch): a
        `Sequence`'s `on_epoch_end`."""
        if isinstance(self._adapter, _Iterable):
            self._adapter.on_epoch_end()

    def batches(self):
        """One epoch of batches (at most `steps_per_epoch`)."""
        return self._adapter.epoch(self.steps_per_epoch)


def _is_distributed_dataset(x):
    """Whether `x` is a strategy's distributed dataset (its batches already per replica)."""
    from eagerflow._src.distribute import strategy  # noqa: PLC0415 (a peer of keras)
    return isinstance(x, strategy.DistributedDataset)


def _created_dataset(creator, steps):
    """The dataset of a `DatasetCreator`, made for this process's input pipeline."""
    if steps is None or steps == -1:
        raise ValueError("When using a `tf.keras.utils.experimental.DatasetCreator`, "
                         "`steps_per_epoch`, `validation_steps`, `steps`, or "
                         "`pss_evaluation_shards` argument must be provided in `Model.fit`, "
                         "`Model.evaluate`, or `Model.predict`.")
    from eagerflow._src.distribute import strategy  # noqa: PLC0415 (a peer of keras)
    return creator(strategy.InputContext())


def _sparse_dataset(x, y, sample_weight, batch_size, shuffle, single_batch):
    data = pack_x_y_sample_weight(x, y, sample_weight) if y is not None or \
        sample_weight is not None else (x,)
    first = nest.flatten(data)[0]
    if isinstance(first, SparseTensor):
        rows = int(first.dense_shape[0])
    elif isinstance(first, ExtensionType):  # (the rows of its first tensor)
        rows = int(nest.flatten(first, expand_composites=True)[0].shape[0])
    else:
        rows = len(first)
    dataset = Dataset.from_tensor_slices(data)
    if shuffle and not single_batch:
        dataset = dataset.shuffle(max(rows, 1))
    return dataset.batch(max(rows, 1) if single_batch else batch_size or 32)


def _class_weights(y, class_weight, sample_weight):
    """Per-sample weights from a ``{class: weight}`` dict (times any `sample_weight`): the
    classes of `y` (sparse, or one-hot along its last axis) must be 0 to len - 1."""
    if len(nest.flatten(y)) > 1:
        raise ValueError("`class_weight` is only supported for Models with a single output.")
    ids = sorted(class_weight.keys())
    if ids != list(range(len(ids))):
        raise ValueError(f"Expected `class_weight` to be a dict with keys from 0 to one less "
                         f"than the number of classes, found {class_weight}")
    table = np.asarray([class_weight[int(c)] for c in ids], np.float32)
    labels = np.asarray(nest.flatten(y)[0])
    if labels.ndim >= 2:
        labels = labels.argmax(-1) if labels.shape[-1] > 1 else np.round(labels[..., 0])
    else:
        labels = np.round(labels)
    labels = labels.astype(np.int64)
    outside = np.argwhere((labels < 0) | (labels >= len(table)))
    if outside.size:  # as the gather of a weight for each label fails
        where = tuple(outside[0])
        raise errors.InvalidArgumentError(
            None, None, f"indices[{','.join(map(str, where))}] = {labels[where]} is not in "
                        f"[0, {len(table)})")
    weights = table[labels]
    if sample_weight is not None:
        sample_weight = np.asarray(sample_weight)
        weights = weights.astype(sample_weight.dtype)
        sample_weight = sample_weight.reshape(
            sample_weight.shape + (1,) * (weights.ndim - sample_weight.ndim))
        weights = sample_weight * weights
    return weights


def _check_positive(name, value):
    if value <= 0:
        raise ValueError(f"Expected {name} to be positive. Received is {value}.")


def train_validation_split(arrays, validation_split):
    """The first ``1 - validation_split`` of each array for training, the rest to validate."""
    arrays = from_pandas(arrays)
    flat = [a for a in nest.flatten(arrays) if a is not None]
    # (ragged and sparse tensors do not split: TF names their types alone)
    unsplittable = [type(a) for a in flat
                    if not _is_array(a) or isinstance(a, (RaggedTensor, SparseTensor))]
    if unsplittable:
        raise ValueError(f"`validation_split` is only supported for Tensors or NumPy arrays, "
                         f"found following types in the input: {unsplittable}")
    size = np.shape(flat[0])[0]
    split = int(math.floor(size * (1.0 - validation_split)))
    if split == 0 or split == size:
        raise ValueError(f"Training data contains {size} samples, which is not sufficient to "
                         f"split it into a validation and training set as specified by "
                         f"`validation_split={validation_split}`. Either provide more data, "
                         f"or a different value for the `validation_split` argument.")

    def part(sl):
        return nest.map_structure(lambda a: None if a is None else np.asarray(a)[sl], arrays)
    return part(slice(None, split)), part(slice(split, None))

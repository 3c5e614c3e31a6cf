"""`DatasetCreator`: a function making the input dataset, called by `fit`, `evaluate` and
`predict` with the `tf.distribute.InputContext` of the input pipeline.

>>> import numpy as np
>>> creator = tf.keras.utils.experimental.DatasetCreator(
...     lambda context: tf.data.Dataset.from_tensor_slices(
...         (np.ones((4, 2), "float32"), np.ones((4, 1), "float32"))).batch(2).repeat())
>>> model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(2,))])
>>> model.compile("sgd", "mse")
>>> history = model.fit(creator, epochs=1, steps_per_epoch=2, verbose=0)
"""
from eagerflow._src.backend.api_export import export


@export("keras.utils.experimental.DatasetCreator")
class DatasetCreator:
    """Wraps `dataset_fn(input_context)`, which returns a `tf.data.Dataset`; the loops that
    take it need their number of steps (`steps_per_epoch`, `validation_steps`, `steps`).
    `input_options` (a `tf.distribute.InputOptions`) is kept for distributed input."""

    def __init__(self, dataset_fn, input_options=None):
        from eagerflow._src.distribute import strategy  # noqa: PLC0415 (a peer of keras)
        if not callable(dataset_fn):
            raise TypeError(f"`dataset_fn` for `DatasetCreator` must be a `callable`. "
                            f"Received: {dataset_fn}")
        if input_options and not isinstance(input_options, strategy.InputOptions):
            raise TypeError(f"`input_options` for `DatasetCreator` must be a "
                            f"`tf.distribute.InputOptions`. Received: {input_options}")
        self.dataset_fn = dataset_fn
        self.input_options = input_options

    def __call__(self, *args, **kwargs):
        dataset = self.dataset_fn(*args, **kwargs)
        if not hasattr(dataset, "element_spec"):  # (a `tf.data.Dataset`)
            raise TypeError(f"The `callable` provided to `DatasetCreator` must return a "
                            f"Dataset. It returns {dataset}")
        return dataset

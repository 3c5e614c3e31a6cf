"""Object-based checkpoints in TensorFlow's format (``tf.train.Checkpoint`` and friends).

`bundle` reads and writes the tensor bundle files (``.index`` table and
``.data-*`` shard), `trackable` walks the object graph and restores into it
(also into objects created after the restore), `checkpoint` holds
`Checkpoint` and the readers, `management` the ``checkpoint`` state file and
`CheckpointManager`. Keras builds on this package; it imports nothing of Keras.
"""

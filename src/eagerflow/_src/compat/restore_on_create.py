"""``tf.contrib.eager.restore_variables_on_create``: variables made in its block start from
a name-based checkpoint's values (TF 1's eager way of resuming training; TF 2 restores
with ``tf.train.Checkpoint``)."""
import contextlib

from eagerflow._src.backend.api_export import export
from eagerflow._src.checkpoint import checkpoint as _checkpoint
from eagerflow._src.core import context, errors
from eagerflow._src.core.variables import Variable


@export("contrib.eager.restore_variables_on_create")
@contextlib.contextmanager
def restore_variables_on_create(save_path, map_func=None):
    """In the block, each variable made is assigned the value the checkpoint `save_path`
    holds under its name (``map_func(name)`` with `map_func`), once per name;
    `NotFoundError` for a name the checkpoint lacks.  `save_path` None: nothing is
    restored (no checkpoint yet).

    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "ckpt")
    >>> path = tf.contrib.eager.Saver([tf.Variable(3.0, name="w")]).save(path)
    >>> with tf.contrib.eager.restore_variables_on_create(path):
    ...     w = tf.Variable(0.0, name="w")
    >>> float(w)
    3.0
    """
    if not context.executing_eagerly():
        raise ValueError("Currently, restore_variables_on_create can only be used with eager "
                         "execution enabled.")
    if not save_path:
        yield
        return
    if map_func is not None and not callable(map_func):
        raise ValueError("map_func must be callable.")
    reader = _checkpoint.load_checkpoint(save_path)
    values = {name: reader.get_tensor(name)
              for name, _ in _checkpoint.list_variables(save_path)}
    original = Variable.__init__

    def restored_init(self, *args, **kwargs):
        original(self, *args, **kwargs)
        name = self.name.rpartition(":")[0] or self.name
        key = map_func(name) if map_func is not None else name
        if key not in values:
            raise errors.NotFoundError(None, None, f"{key} not found in checkpoint")
        if values[key] is not None:
            self.assign(values[key])
            values[key] = None  # (a later variable of that name keeps its own value)

    # TF 1 overrode its resource variables' initialization the same way, for the block.
    Variable.__init__ = restored_init
    try:
        yield
    finally:
        Variable.__init__ = original

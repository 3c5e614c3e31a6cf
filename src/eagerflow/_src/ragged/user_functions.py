"""Calls of the user's functions made for them (``map_fn``'s function, per ragged row): a TF
function passed as it is (``tf.map_fn(tf.reduce_sum, rt)``) dispatches on ragged arguments as
the user's own call would (see `api_export.add_dispatcher`'s `outside`)."""


def call(fn, *args, **kwargs):
    return fn(*args, **kwargs)

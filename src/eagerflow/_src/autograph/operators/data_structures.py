"""Lists in converted code: ``l.append(x)`` becomes ``l = list_append(l, x)``.

A Python list is appended to in place, as Python does.  A list that a loop
over tensors grows cannot be a loop variable as it is (its length is only
known when the graph runs), so the loop carries it as a `TensorArray`
(`as_tensor_array`); appends then write at its end, and ``tf.stack``,
``len`` and ``pop`` work on it.

>>> l = []
>>> list_append(l, 1) is l, l
(True, [1])
"""
from eagerflow._src.backend import api_export
from eagerflow._src.core import errors, nest
from eagerflow._src.graph.tensor_array import TensorArray
from eagerflow._src.ops import array_ops, list_ops


def list_append(target, element):
    """``target.append(element)``, returning the list (a TensorArray: the new one)."""
    if isinstance(target, TensorArray):
        return target.write(target.size(), element)
    target.append(element)
    return target


def list_pop(target, index=None):
    """``target.pop(index)``, returning (the list, the element)."""
    if isinstance(target, TensorArray):
        if index is not None:
            raise NotImplementedError("a list that a loop over tensors built can only pop its "
                                      "last element")
        last = target.size() - 1
        element = target.read(last)
        shorter = TensorArray(target.dtype, dynamic_size=True, infer_shape=True,
                              element_shape=target.element_shape,
                              flow=list_ops.resize(target.flow, last))
        return shorter, element
    element = target.pop() if index is None else target.pop(index)
    return target, element


def as_tensor_array(items, like):
    """The Python list `items` as a growable TensorArray of elements like tensor `like`."""
    array = TensorArray(like.dtype, size=0, dynamic_size=True, element_shape=like.shape)
    array._grown_from = like  # the arrays written from it copy this: `check_returned` sees it
    for i, item in enumerate(items):
        array = array.write(i, item)
    return array


def check_returned(result):
    """Raises TF's error for a list grown in a loop over tensors that a traced function
    returns: its elements are the loop body's tensors, which the function cannot see."""
    for leaf in nest.flatten(result):
        element = getattr(leaf, "_grown_from", None) if isinstance(leaf, TensorArray) else None
        if element is not None:
            raise errors.InaccessibleTensorError(
                f"{element!r} is out of scope and cannot be used here. Use return values, "
                "explicit Python locals or TensorFlow collections to access it.\nPlease see "
                "https://www.tensorflow.org/guide/function#all_outputs_of_a_tffunction_must_be_"
                "return_values for more information.\n\nIt is an element of a Python list that "
                "a loop over tensors appended to; return tf.stack(the_list) instead.")


def stack(values, axis=0, name="stack"):
    """``tf.stack``, which also stacks a list that a loop over tensors built."""
    if isinstance(values, TensorArray):
        stacked = values.stack()
        if axis == 0:
            return stacked
        rank = stacked.shape.rank
        if rank is None:
            raise ValueError("stacking a list built in a loop along an axis other than 0 needs "
                             "its elements' rank")
        axis = axis % rank
        return array_ops.transpose(stacked, [*range(1, axis + 1), 0, *range(axis + 1, rank)])
    return array_ops.stack(values, axis, name)


OVERRIDES = {array_ops.stack: stack}
# `stack` stands in for the user's ``tf.stack``: the call dispatches as theirs (ragged values)
api_export.see_through(__name__)

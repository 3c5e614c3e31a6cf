"""What converted list operations call: ``l.append(x)`` becomes ``l = list_append(l, x)``.

A Python list is appended to in place, as Python does; a TensorArray (what a
list becomes when a loop over tensors builds it) gets a functional write.

>>> l = []
>>> list_append(l, 1) is l, l
(True, [1])
"""


def _is_tensor_array(value):
    return hasattr(value, "flow") and hasattr(value, "write")


def list_append(target, element):
    """``target.append(element)``, returning the list (a TensorArray: the new one)."""
    if _is_tensor_array(target):
        return target.write(target.size(), element)
    target.append(element)
    return target


def list_pop(target, index=None):
    """``target.pop(index)``, returning (the list, the element)."""
    if _is_tensor_array(target):
        if index is not None:
            raise NotImplementedError("a list built in a loop over tensors can only pop its "
                                      "last element")
        last = target.size() - 1
        return target.resize(last) if hasattr(target, "resize") else target, target.read(last)
    element = target.pop() if index is None else target.pop(index)
    return target, element

"""Dataset transformations beyond the basic ones of `dataset_ops`, installed on `Dataset`."""
from eagerflow._src.core.tensor_spec import TensorSpec
from eagerflow._src.data import structure
from eagerflow._src.data.dataset_ops import Dataset
from eagerflow._src.data.structured_function import StructuredFunction


def _method(fn):
    setattr(Dataset, fn.__name__, fn)
    return fn


def _relaxed(old, new, what):
    """The state spec that fits both `old` and `new`; TypeError when they differ in kind."""
    if not structure.same_structure(old, new):
        raise TypeError(f"The element types for the new state must match the initial state. "
                        f"Expected {old}; got {new}.")
    out = []
    for a, b in zip(structure.flatten(old), structure.flatten(new)):
        if a.dtype != b.dtype:
            raise TypeError(f"The element types for the new state must match the initial "
                            f"state. Expected {structure.map_structure(lambda s: s.dtype, old)}"
                            f"; got {structure.map_structure(lambda s: s.dtype, new)}.")
        out.append(TensorSpec(a.shape.most_specific_compatible_shape(b.shape), a.dtype))
    return structure.pack(old, out)


def trace_state_function(func, name, state_spec, element_spec):
    """`func(state, element)` traced until the state's spec is a fixed point (TF relaxes
    dimensions that change); returns (function, state spec)."""
    while True:
        fn = StructuredFunction(func, name, (state_spec, element_spec)).trace()
        out = fn.output_spec
        new_state = out[0] if name != "Dataset.reduce()" else out
        relaxed = _relaxed(state_spec, new_state, name)
        if relaxed == state_spec:
            return fn, state_spec
        state_spec = relaxed


def reduce_dataset(dataset, initial_state, reduce_func):
    state = structure.normalize(initial_state)
    state_spec = structure.spec_of(state)
    fn, state_spec = trace_state_function(reduce_func, "Dataset.reduce()", state_spec,
                                          dataset.element_spec)
    flat = tuple(t._data for t in structure.flatten(state))
    for element in dataset._iterator():
        flat = fn(flat + element)
    return structure.Packer(state_spec).pack(flat)

"""Dataset sources built from Python: generators, file lists, samplers."""
import numpy as np

from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import errors
from eagerflow._src.core.errors import op_error
from eagerflow._src.core.tensor import EagerTensor, Tensor
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.core.tensor_spec import TensorSpec
from eagerflow._src.data import structure
from eagerflow._src.data.dataset_ops import Dataset, UNKNOWN


def _generator_error(message):
    return op_error(errors.InvalidArgumentError, "IteratorGetNext", f"TypeError: {message}")


def _type_text(spec):
    return structure.map_structure(lambda s: s.dtype, spec)


class _GeneratorDataset(Dataset):
    """Elements from ``generator(*args)``, a fresh call per iterator."""

    def __init__(self, generator, spec, args):
        self._generator = generator
        self._spec = spec
        self._args = args

    def _cardinality(self):
        return UNKNOWN

    def _iterator(self):
        args = [a.numpy() if isinstance(a, Tensor) else a for a in self._args]
        values = self._generator(*args)
        try:
            values = iter(values)
        except TypeError:
            raise _generator_error(f"`generator` must be a Python callable that returns an "
                                   f"iterable, but it returned {type(values)}.") from None
        return self._checked(values)

    def _checked(self, values):
        spec = self._spec
        specs = structure.flatten(spec)
        for value in values:
            if isinstance(value, list) and structure.is_nested(spec):
                value = tuple(value)
            if not structure.same_structure(spec, value) and structure.is_nested(spec):
                raise _generator_error(
                    f"`generator` yielded an element that did not match the expected "
                    f"structure. The expected structure was {_type_text(spec)}, but the yielded"
                    f" element was {value}.")
            if structure.is_nested(value) and not structure.is_nested(spec):
                raise _generator_error(
                    f"`generator` yielded an element that did not match the expected "
                    f"structure. The expected structure was {_type_text(spec)}, but the yielded"
                    f" element was {value}.")
            arrays = []
            for s, v in zip(specs, structure.flatten(value)):
                try:
                    a = structure.as_array(v, s)
                except (TypeError, ValueError, errors.OpError):
                    raise _generator_error(
                        f"`generator` yielded an element that could not be converted to the "
                        f"expected type. The expected type was {s.dtype.name}, but the yielded "
                        f"element was {v}.") from None
                if isinstance(v, EagerTensor) and v.dtype != s.dtype:
                    raise _generator_error(
                        f"`generator` yielded an element of type {v.dtype.name} where an "
                        f"element of type {s.dtype.name} was expected.")
                if not s.shape.is_compatible_with(TensorShape(a.shape)):
                    raise _generator_error(
                        f"`generator` yielded an element of shape {tuple(a.shape)} where an "
                        f"element of shape {_shape_tuple(s.shape)} was expected.")
                arrays.append(a)
            yield tuple(arrays)


def _shape_tuple(shape):
    if shape.rank is None:
        return "<unknown>"
    return str(tuple(shape.as_list()))


def from_generator(generator, output_types=None, output_shapes=None, args=None,
                   output_signature=None):
    if not callable(generator):
        raise TypeError("`generator` must be a Python callable.")
    if output_signature is not None:
        if output_types is not None:
            raise TypeError("The `output_types` argument can not be used together with the "
                            "`output_signature` argument.")
        if output_shapes is not None:
            raise TypeError("The `output_shapes` argument can not be used together with the "
                            "`output_signature` argument.")
        for s in structure.flatten(output_signature):
            if not isinstance(s, TensorSpec):
                raise TypeError(f"`output_signature` must contain objects that are subclass "
                                f"of `tf.TypeSpec` but found {type(s)} which is not.")
        spec = output_signature
    else:
        if output_types is None:
            raise TypeError("To specify the output signature you need to provide either the "
                            "`output_signature` argument or the `output_types` argument.")
        types = structure.map_structure(_d.as_dtype, output_types)
        if output_shapes is None:
            shapes = structure.map_structure(lambda _: TensorShape(None), types)
        elif not structure.is_nested(types):
            shapes = TensorShape(output_shapes)
        else:
            shapes = _pack_shapes(types, output_shapes)
        spec = structure.pack(types, [TensorSpec(s, t) for s, t in zip(
            structure.flatten(shapes) if structure.is_nested(shapes) else [shapes],
            structure.flatten(types))])
    return _GeneratorDataset(generator, spec, tuple(args) if args is not None else ())


def _pack_shapes(types, shapes):
    """`shapes` (nests whose leaves are shapes: lists, tuples, TensorShapes) shaped like
    `types`."""
    def build(t, s):
        if not structure.is_nested(t):
            return TensorShape(s)
        if isinstance(t, dict):
            return type(t)((k, build(t[k], s[k])) for k in t)
        return structure._rebuild(t, [build(a, b) for a, b in zip(t, s)])
    return build(types, shapes)


__all__ = ["from_generator", "np"]

"""Dataset sources built from Python: generators, file lists, samplers."""
import os
import threading
import traceback

import numpy as np

from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import errors
from eagerflow._src.core.errors import op_error
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.core.tensor import EagerTensor, Tensor
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.core.tensor_spec import TensorSpec
from eagerflow._src.data import structure
from eagerflow._src.data.dataset_ops import INFINITE, UNKNOWN, Dataset
from eagerflow._src.data.structured_function import branch_iterator
from eagerflow._src.ops.extension_type import ExtensionTypeSpec
from eagerflow._src.ops.io_ops import match_files
from eagerflow._src.ops.sparse_tensor import SparseTensor, SparseTensorSpec
from eagerflow._src.ragged.ragged_tensor import RaggedTensor, RaggedTensorSpec


def _generator_error(message):
    # (TF's message goes on with the traceback in the py_func: the first line ends here)
    return op_error(errors.InvalidArgumentError, "IteratorGetNext",
                    f"TypeError: {message}\n\n\t [[{{{{node PyFunc}}}}]]")


class _GeneratorDataset(Dataset):
    """Elements from ``generator(*args)``, a fresh call per iterator.

    As in TF, each element is checked one of two ways: with a known structure
    (several components, or one of known rank) it is flattened against the
    dtypes, each component converted with NumPy and its shape checked; a lone
    component of unknown rank is converted as a tensor of the spec's dtype.
    Whatever the generator raises reaches the caller as the error TF's py_func makes of
    it (`InvalidArgumentError` for a ValueError or TypeError, `UnknownError` for most; the
    original is its cause).
    """

    _tf_name = "_FlatMapDataset"  # TF builds it as a flat_map over the generator's ids
    _unsaveable = "PyFunc is stateful."  # (TF's reason not to checkpoint its iterators)

    def __init__(self, generator, spec, args):
        self._generator = generator
        self._spec = spec
        self._args = args
        self._legacy = (structure.is_nested(spec) or spec.shape.rank is not None
                        or isinstance(spec, structure.COMPOSITE_SPECS))
        # (with a ragged or sparse part, TF converts each dense part as a tensor, strictly,
        # and a ragged part must be yielded as a ragged tensor)
        self._strict = not all(isinstance(s, TensorSpec) for s in structure.flatten(spec))

    def _cardinality(self):
        return UNKNOWN

    def _iterator(self):
        # TF passes the arguments through tensors: Python ints arrive as np.int32, str as bytes
        args = [convert_to_tensor(a) for a in self._args]
        if not all(isinstance(a, EagerTensor) for a in args):
            raise TypeError("A dataset made from symbolic tensors (while a function traced) "
                            "cannot be iterated.")
        try:
            values = iter(self._generator(*[a.numpy() for a in args]))
        except Exception as e:  # noqa: BLE001 (TF reports any error of the generator)
            raise _raised(e) from e
        check = self._checked_legacy if self._legacy else self._checked_tensor
        while True:
            try:
                value = next(values)
            except StopIteration:
                return
            except Exception as e:  # noqa: BLE001
                raise _raised(e) from e
            yield check(value)

    def _structure_error(self, expected, value):
        return _generator_error(
            f"`generator` yielded an element that did not match the expected structure. The "
            f"expected structure was {expected}, but the yielded element was {value}.")

    def _spec_error(self, flat, value):
        """TF's error for an element of the right structure but another type or shape."""
        def spec_of(v):
            if isinstance(v, (RaggedTensor, SparseTensor)):
                return v._type_spec
            try:
                return TensorSpec.from_tensor(convert_to_tensor(v))
            except (TypeError, ValueError, errors.OpError):
                return type(v).__name__
        specs = structure.pack(self._spec, [spec_of(v) for v in flat])
        return _generator_error(f"`generator` yielded an element of {specs} where an element "
                                f"of {self._spec} was expected.")

    def _checked_legacy(self, value):
        spec = self._spec
        try:
            flat = _flatten_up_to(spec, value)
        except (TypeError, ValueError, KeyError):
            expected = spec if self._strict else structure.map_structure(lambda s: s.dtype, spec)
            raise self._structure_error(expected, value) from None
        arrays = []
        for s, v in zip(structure.flatten(spec), flat):
            if isinstance(s, SparseTensorSpec):  # a sparse tensor, as it is
                if not isinstance(v, SparseTensor):
                    raise self._structure_error(spec, value)
                if not s.is_compatible_with(v):
                    raise self._spec_error(flat, value)
                arrays.append(structure.sparse_value(
                    *(np.asarray(c) for c in (v.indices, v.values, v.dense_shape))))
                continue
            if isinstance(s, RaggedTensorSpec):  # a ragged tensor (not a list, as in TF)
                if not isinstance(v, RaggedTensor):
                    try:  # (TF converts it to a tensor, whose type does not fit)
                        convert_to_tensor(v)
                    except (TypeError, ValueError, errors.OpError):
                        raise self._structure_error(spec, value) from None
                    raise self._spec_error(flat, value)
                if not s.is_compatible_with(v):
                    raise self._spec_error(flat, value)
                arrays.append(structure.ragged_value(
                    s, [np.asarray(c) for c in s._to_components(v)]))
                continue
            if self._strict:
                try:
                    a = convert_to_tensor(v, dtype=s.dtype)._data
                except (TypeError, ValueError, errors.OpError):
                    raise self._structure_error(spec, value) from None
                if not s.shape.is_compatible_with(TensorShape(np.shape(a))):
                    raise self._spec_error(flat, value)
                arrays.append(a)
                continue
            try:
                a = _numpy_value(v, s.dtype)
            except (TypeError, ValueError):
                raise _generator_error(
                    f"`generator` yielded an element that could not be converted to the "
                    f"expected type. The expected type was {s.dtype.name}, but the yielded "
                    f"element was {v}.") from None
            if not s.shape.is_compatible_with(TensorShape(a.shape)):
                raise _generator_error(
                    f"`generator` yielded an element of shape {a.shape} where an element of "
                    f"shape {s.shape} was expected.")
            arrays.append(a)
        return tuple(arrays)

    def _checked_tensor(self, value):
        spec = self._spec
        if structure.is_nested(value):
            raise self._structure_error(spec, value)
        try:
            t = convert_to_tensor(value, dtype=spec.dtype)
        except (TypeError, ValueError, errors.OpError):
            raise self._structure_error(spec, value) from None
        return (t._data,)


def _raised(e):
    # (TF runs the generator in a py_func: its class for the exception, UnknownError mostly,
    # and the exception's line then its traceback as the message)
    from eagerflow._src.autodiff.script_ops import _error_for  # noqa: PLC0415
    trace = "".join(traceback.format_exception(type(e), e, e.__traceback__))
    return op_error(_error_for(e), "IteratorGetNext",
                    f"{type(e).__name__}: {e}\n{trace}\n\t [[{{{{node PyFunc}}}}]]")


def _flatten_up_to(spec, value):
    """`value`'s components where `spec` has leaves; TypeError where they nest differently
    (a list is a value, as in tf.data's nests)."""
    if not structure.is_nested(spec):
        return [value]
    if isinstance(spec, ExtensionTypeSpec):  # a value of its type: its component tensors
        if not isinstance(value, spec.value_type):
            raise TypeError("structure")
        pairs = list(zip(spec._component_specs, spec._to_components(value)))
    elif isinstance(spec, dict):
        if not isinstance(value, dict) or set(value) != set(spec):
            raise TypeError("structure")
        pairs = [(spec[k], value[k]) for k in sorted(spec)]
    else:
        if not isinstance(value, tuple) or len(value) != len(spec):
            raise TypeError("structure")
        pairs = list(zip(spec, value))
    out = []
    for s, v in pairs:
        out.extend(_flatten_up_to(s, v))
    return out


def _numpy_value(value, dtype):
    """`value` as an array of `dtype`, converted as NumPy converts (TF's rule here)."""
    if dtype == _d.string:
        t = convert_to_tensor(value, dtype=_d.string)
        return t._data
    if isinstance(value, Tensor):
        value = value.numpy()
    np_dtype = dtype.as_numpy_dtype
    if np.issubdtype(np_dtype, np.number):
        # (converted first, then cast: a Python int out of range wraps, as in TF, where
        # NumPy's own conversion would raise OverflowError)
        return np.asarray(value).astype(np_dtype)
    return np.asarray(value, dtype=np_dtype)


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
            if not isinstance(s, (TensorSpec,) + structure.COMPOSITE_SPECS):
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




# -- files -------------------------------------------------------------------------------------

def matching_files(patterns):
    """The files matching any of the glob `patterns`, sorted (TF's ``MatchingFiles``)."""
    found = set()
    for pattern in patterns:
        found.update(match_files(pattern))
    return sorted(found)


def list_files(file_pattern, shuffle=None, seed=None):
    from eagerflow._src.data.dataset_ops import Dataset  # noqa: PLC0415
    patterns = file_pattern
    if isinstance(patterns, Tensor):
        patterns = patterns.numpy()
    if isinstance(patterns, np.ndarray):
        patterns = patterns.tolist()
    if not isinstance(patterns, (list, tuple)):
        patterns = [patterns]
    patterns = [p.decode() if isinstance(p, bytes) else os.fspath(p) for p in patterns]
    names = matching_files(patterns)
    if not names:
        raise errors.InvalidArgumentError(
            None, None, "Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. "
            "Summarized data: b'No files matched pattern: " + ", ".join(patterns) + "'")
    dataset = Dataset.from_tensor_slices(np.array([n.encode() for n in names], dtype=object))
    if shuffle is None or shuffle:
        dataset = dataset.shuffle(max(len(names), 1), seed=seed)
    return dataset


# -- random ------------------------------------------------------------------------------------

class _RandomDataset(Dataset):
    """Uniform int64 values in [0, 2**32): TF's ``RandomDataset`` stream for the seeds."""

    def __init__(self, seed=None, rerandomize_each_iteration=None):
        from eagerflow._src.data.shuffle import _Stream, dataset_seeds  # noqa: PLC0415
        self._seed, self._seed2 = dataset_seeds(seed)
        self._rerandomize = bool(rerandomize_each_iteration)
        self._seeds = _Stream(self._seed, self._seed2) if self._rerandomize else None
        self._lock = threading.Lock()
        self._spec = TensorSpec([], _d.int64)

    def _cardinality(self):
        return INFINITE

    def _fresh_state(self):
        """A copy's own seed stream, from the start (a dataset built in a function is built
        anew, with its seeds, on every call)."""
        from eagerflow._src.data.shuffle import _Stream  # noqa: PLC0415
        self._seeds = _Stream(self._seed, self._seed2) if self._rerandomize else None
        self._lock = threading.Lock()

    def _iterator(self):
        from eagerflow._src.data.shuffle import _Stream  # noqa: PLC0415
        if self._rerandomize:
            with self._lock:
                seed, seed2 = self._seeds(), self._seeds()
        else:
            seed, seed2 = self._seed, self._seed2
        stream = _Stream(seed, seed2)
        while True:
            yield (np.array(stream(), np.int64),)

    def _batches(self, batch_size, drop_remainder):
        return None


def random_dataset(seed=None, rerandomize_each_iteration=None):
    return _RandomDataset(seed, rerandomize_each_iteration)


class _DirectedInterleaveDataset(Dataset):
    """The elements of ``datasets[i]`` for each index ``i`` the selector dataset gives."""

    def __init__(self, selector, datasets, stop_on_empty_dataset):
        self._selector, self._datasets = selector, list(datasets)
        self._stop = bool(stop_on_empty_dataset)
        spec = self._datasets[0].element_spec
        for d in self._datasets[1:]:
            try:
                spec = _merged(spec, d.element_spec)
            except TypeError:
                shown = "\n".join(f"Dataset {i} element_spec={d.element_spec}."
                                  for i, d in enumerate(self._datasets))
                raise TypeError(f"Invalid `datasets`. `datasets` must have compatible element "
                                f"specs.\n {shown}") from None
        self._spec = spec

    def _inputs(self):
        return [self._selector, *self._datasets]

    def _cardinality(self):
        # TF's: infinite when any input is, whatever the selector and the other inputs
        if any(d._cardinality() == INFINITE for d in self._datasets):
            return INFINITE
        return UNKNOWN

    def _iterator(self):
        # the inputs' iterators are made with this one, as in TF
        selector = branch_iterator(self._selector, "selector")
        return self._chosen(selector, [branch_iterator(d, i) for i, d in
                                       enumerate(self._datasets)])

    def _chosen(self, selector, inputs):
        active = len(inputs)
        for choice in selector:
            i = int(choice[0])
            if not 0 <= i < len(inputs):
                raise op_error(errors.InvalidArgumentError, "IteratorGetNext",
                               f"Selector index out of range: {i} >= {len(inputs)}")
            if inputs[i] is None:
                continue
            element = next(inputs[i], None)
            if element is not None:
                yield element
                continue
            if self._stop:
                return
            inputs[i] = None
            active -= 1
            if not active:
                return


def _merged(a, b):
    from eagerflow._src.data.dataset_ops import _merged_spec  # noqa: PLC0415
    return _merged_spec(a, b)


def sample_from_datasets(datasets, weights, seed, stop_on_empty_dataset,
                         rerandomize_each_iteration):
    from eagerflow._src.data.dataset_ops import Dataset  # noqa: PLC0415
    from eagerflow._src.ops import array_ops, math_ops, random_ops  # noqa: PLC0415
    datasets = list(datasets)
    if not datasets:
        raise ValueError("Invalid `datasets`. `datasets` should not be empty.")
    varying = isinstance(weights, Dataset)
    if weights is None:
        logits = np.ones((1, len(datasets)), np.float32)
    elif not varying:
        if isinstance(weights, Tensor):
            if not weights.shape.is_compatible_with([len(datasets)]):
                raise ValueError(f"Invalid `weights`. The shape of `weights` should be "
                                 f"compatible with `[len(datasets)]` but is {weights.shape}.")
        else:
            if len(datasets) != len(weights):
                raise ValueError(f"Invalid `weights`. `weights` should have the same length as "
                                 f"`datasets` but got `len(weights)={len(weights)}` vs. "
                                 f"`len(datasets)={len(datasets)}`.")
            kept = [(d, w) for d, w in zip(datasets, weights) if w > 0]
            if kept:
                datasets, weights = [d for d, _ in kept], [w for _, w in kept]
            else:  # nothing can be drawn
                datasets, weights = [datasets[0].take(0)], [1.0]
        weights = convert_to_tensor(weights)
        if weights.dtype not in (_d.float32, _d.float64):
            raise TypeError(f"Invalid `weights`. `weights` type must be either `tf.float32` or "
                            f"`tf.float64` but is {weights.dtype}.")
        logits = array_ops.expand_dims(math_ops.log(weights), 0)
    if len(datasets) == 1 and not varying:
        return datasets[0]
    seeds = random_dataset(seed, rerandomize_each_iteration).batch(2, drop_remainder=True)
    if varying:
        def stacked(value):  # an element's components (nested tuples) as one tensor
            if isinstance(value, tuple):
                return array_ops.stack([stacked(v) for v in value])
            return value

        # (as TF: the weights of an element [(p, 1 - p)] make logits of shape [1, 2])
        logits_ds = weights.map(lambda *p: math_ops.log(stacked(p)))

        def select(logits, s):
            return array_ops.squeeze(random_ops.stateless_categorical(logits, 1, seed=s),
                                     axis=[0, 1])
        selector = Dataset.zip((logits_ds, seeds)).map(select)
    else:
        def select(s):
            return array_ops.squeeze(random_ops.stateless_categorical(logits, 1, seed=s),
                                     axis=[0, 1])
        selector = seeds.map(select)
    return _DirectedInterleaveDataset(selector, datasets, stop_on_empty_dataset)


def choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset):
    from eagerflow._src.data.dataset_ops import Dataset  # noqa: PLC0415
    datasets = list(datasets)
    if not datasets:
        raise ValueError("Invalid `datasets`. `datasets` should not be empty.")
    if not isinstance(choice_dataset, Dataset):
        raise TypeError(f"Invalid `choice_dataset`. `choice_dataset` should be a "
                        f"`tf.data.Dataset` but is {type(choice_dataset)}.")
    spec = choice_dataset.element_spec
    if not (isinstance(spec, TensorSpec) and spec.dtype == _d.int64 and spec.shape.rank == 0):
        raise TypeError(f"Invalid `choice_dataset`. Elements of `choice_dataset` must be scalar "
                        f"`tf.int64` tensors but are {spec}.")
    return _DirectedInterleaveDataset(choice_dataset, datasets, stop_on_empty_dataset)

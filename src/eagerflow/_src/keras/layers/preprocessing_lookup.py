"""Lookup layers: `StringLookup` and `IntegerLookup` map tokens to indices (or back).

The vocabulary is given (a list, an array or a file of one token a line) or
learned by `adapt`: tokens sorted by count, high to low, ties broken by the
tokens themselves (high to low), after the mask token (index 0, when set) and
`num_oov_indices` out-of-vocabulary indices. The mapping lives in a
`tf.lookup.StaticHashTable`; several OOV indices are chosen by hashing
(`strings.to_hash_bucket_fast`, or the integer modulo their number). Outputs
are indices (``"int"``) or, per sample, ``"one_hot"``, ``"multi_hot"``,
``"count"`` or ``"tf_idf"`` vectors over the vocabulary.

>>> layer = tf.keras.layers.StringLookup()
>>> layer.adapt(tf.constant(["a", "b", "b", "c", "c", "c"]))
>>> layer.get_vocabulary()
['[UNK]', np.str_('c'), np.str_('b'), np.str_('a')]
>>> layer(tf.constant(["c", "z"])).numpy()
array([1, 0])
"""
import collections
import os

import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import context
from eagerflow._src.core import dtypes as _dtypes
from eagerflow._src.core.convert import convert_to_tensor, from_array
from eagerflow._src.core.tensor import Tensor
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.core.tensor_spec import TensorSpec
from eagerflow._src.core.variables import Variable
from eagerflow._src.keras import backend
from eagerflow._src.keras.engine.base_layer import TrackableWeightHandler
from eagerflow._src.keras.layers.preprocessing import PreprocessingLayer
from eagerflow._src.ops import (array_ops, cast_ops, debugging_ops, file_system,
                                fingerprint_ops, logging_ops, lookup_ops, math_ops,
                                reduction_ops, sparse_ops)
from eagerflow._src.ops.sparse_tensor import SparseTensor, to_dense

INT, ONE_HOT, MULTI_HOT, COUNT, TF_IDF = "int", "one_hot", "multi_hot", "count", "tf_idf"


# -- shared helpers (CategoryEncoding and TextVectorization use them too) -----------------------

def validate_string_arg(value, allowable, layer_name, arg_name, allow_none=False,
                        allow_callables=False):
    """TF's check of a string argument: one of `allowable` (or None, or a callable)."""
    if allow_none and value is None or allow_callables and callable(value) or \
            isinstance(value, str) and value in allowable:
        return
    # TF's wording, its misspelling included.
    allowed = ("`None`, " if allow_none else "") + ("a `Callable`, " if allow_callables else "")
    note = (f"If restoring a model and `{arg_name}` is a custom callable, please ensure the "
            "callable is registered as a custom object. See https://www.tensorflow.org/guide/"
            "keras/save_and_serialize#registering_the_custom_object for details. "
            if allow_callables else "")
    raise ValueError(f"Unkown value for `{arg_name}` argument of layer {layer_name}. {note}"
                     f"Allowed values are: {allowed}or one of the following values: "
                     f"{allowable}. Received: {value}")


def _token_bytes(token):
    """A string vocabulary's token as bytes; a number is refused as TF refuses it."""
    if isinstance(token, str):
        return token.encode("utf-8")
    if isinstance(token, bytes):
        return token
    raise ValueError(f"Failed to convert a NumPy array to a Tensor (Unsupported object type "
                     f"{type(token).__name__}).")


def _is_ragged(value):
    return hasattr(value, "flat_values") and hasattr(value, "with_flat_values")


def ensure_tensor(inputs, dtype=None):
    """`inputs` as a tensor (SparseTensors and RaggedTensors kept), cast to `dtype` when it
    differs."""
    if _is_ragged(inputs):
        if dtype is not None and inputs.dtype != dtype:
            return inputs.with_flat_values(cast_ops.cast(inputs.flat_values, dtype))
        return inputs
    if isinstance(inputs, SparseTensor):
        if dtype is not None and inputs.dtype != dtype:
            return inputs.with_values(cast_ops.cast(inputs.values, dtype))
        return inputs
    if isinstance(inputs, Variable):
        inputs = inputs.value()
    if not isinstance(inputs, Tensor):  # (converted as they are, then cast: numbers are
        # TF's UnimplementedError 'Cast int64 to string is not supported')
        empty = isinstance(inputs, (list, tuple)) and not inputs
        inputs = convert_to_tensor(inputs, dtype if empty else None)
    if dtype is not None and inputs.dtype != dtype:
        inputs = cast_ops.cast(inputs, dtype)
    return inputs


def listify(value):
    """Tensors and arrays in a config as lists."""
    if isinstance(value, Tensor):
        value = value.numpy()
    if isinstance(value, np.ndarray):
        value = value.tolist()
    return value


def _expand_dims(inputs, axis):
    if isinstance(inputs, SparseTensor):
        return sparse_ops.expand_dims(inputs, axis)
    return array_ops.expand_dims(inputs, axis)


def encode_categorical_inputs(inputs, output_mode, depth, dtype="float32", sparse=False,
                              count_weights=None, idf_weights=None):
    """Integer `inputs` as ``output_mode`` vectors of `depth` per sample (rank <= 2)."""
    if output_mode == INT:
        if isinstance(inputs, SparseTensor):  # (its ids, at their indices)
            return inputs.with_values(cast_ops.identity(cast_ops.cast(inputs.values, dtype)))
        return cast_ops.identity(cast_ops.cast(inputs, dtype))
    original_shape = inputs.shape
    if inputs.shape.rank == 0:
        inputs = _expand_dims(inputs, -1)
    if output_mode == ONE_HOT and inputs.shape[-1] != 1:
        inputs = _expand_dims(inputs, -1)
    if inputs.shape.rank > 2:
        raise ValueError(f"When output_mode is not `'int'`, maximum supported output rank is 2. "
                         f"Received output_mode {output_mode} and input shape "
                         f"{original_shape}, which would result in output rank "
                         f"{inputs.shape.rank}.")
    binary_output = output_mode in (MULTI_HOT, ONE_HOT)
    if sparse:
        result = _sparse_counts(inputs, depth, dtype, binary_output, count_weights)
    elif isinstance(inputs, SparseTensor):
        result = _scattered_counts(inputs, depth, dtype, binary_output, count_weights)
    else:
        result = reduction_ops.bincount(inputs, weights=count_weights, minlength=depth,
                                        maxlength=depth, dtype=dtype, axis=-1,
                                        binary_output=binary_output)
        result = cast_ops.cast(result, dtype)
    if isinstance(depth, int) and not sparse:
        result.set_shape([depth] if inputs.shape.rank == 1 else [inputs.shape[0], depth])
    if output_mode == TF_IDF:
        if idf_weights is None:
            raise ValueError(f"When output mode is `'tf_idf'`, idf_weights must be provided. "
                             f"Received: output_mode={output_mode} and "
                             f"idf_weights={idf_weights}")
        if sparse:  # (each entry weighted by its token's idf, a zero one kept)
            weights = array_ops.gather(idf_weights, result.indices[:, -1])
            return SparseTensor(result.indices, math_ops.multiply(weights, result.values),
                                result.dense_shape)
        result = math_ops.multiply(result, idf_weights)
    return result


def _sparse_counts(inputs, depth, dtype, binary_output, count_weights):
    """The counts (or presence) of the ids of each row as TF's `sparse.bincount` gives them:
    an entry for each id a row holds, even where its weights sum to 0."""
    counts = sparse_ops.bincount(inputs, weights=count_weights, minlength=depth,
                                 maxlength=depth, axis=-1, binary_output=binary_output)
    shape = [depth] if inputs.shape.rank == 1 else [counts.dense_shape[0], depth]
    return SparseTensor(counts.indices, cast_ops.cast(counts.values, dtype), shape)


def _scattered_counts(inputs, depth, dtype, binary_output, count_weights):
    """The dense per-row counts (or presence) of the ids of a SparseTensor, written into
    zeros by one scatter (ids outside ``[0, depth)`` count nowhere, as in bincount)."""
    dtype = _dtypes.as_dtype(dtype)
    if context.executing_eagerly() and isinstance(depth, (int, np.integer)):
        return _counts_now(inputs, int(depth), dtype, binary_output, count_weights)
    ids = cast_ops.cast(inputs.values, _dtypes.int64)
    one_row = inputs.shape.rank == 1
    rows = array_ops.zeros_like(ids) if one_row else inputs.indices[:, 0]
    keep = math_ops.logical_and(math_ops.greater_equal(ids, np.int64(0)),
                                math_ops.less(ids, np.int64(depth)))
    linear = array_ops.boolean_mask(math_ops.add(math_ops.multiply(rows, np.int64(depth)), ids),
                                    keep)
    if binary_output:  # (a position written twice holds 1 all the same)
        updates = array_ops.ones_like(linear, dtype=dtype)
    else:  # counts: one sum per distinct position
        linear, position, counts = reduction_ops.unique_with_counts(linear,
                                                                    out_idx=_dtypes.int64)
        if count_weights is not None:
            weights = count_weights.values if isinstance(count_weights, SparseTensor) \
                else count_weights
            updates = reduction_ops.unsorted_segment_sum(
                cast_ops.cast(array_ops.boolean_mask(weights, keep), dtype), position,
                array_ops.size(linear))
        else:
            updates = cast_ops.cast(counts, dtype)
    num_rows = np.int64(1) if one_row else inputs.dense_shape[0]
    indices = array_ops.stack([math_ops.floordiv(linear, np.int64(depth)),
                               math_ops.floormod(linear, np.int64(depth))], axis=1)
    # (written straight into zeros, in no particular order)
    out = to_dense(SparseTensor(indices, updates, array_ops.stack([num_rows, np.int64(depth)])),
                   validate_indices=False)
    return array_ops.reshape(out, [depth]) if one_row else out


def _counts_now(inputs, depth, dtype, binary_output, count_weights):
    """`_scattered_counts` eagerly: NumPy writes the ids into zeros at once."""
    ids = inputs.values.numpy()
    one_row = inputs.shape.rank == 1
    weights = None
    if count_weights is not None and not binary_output:
        weights = count_weights.values if isinstance(count_weights, SparseTensor) \
            else count_weights
        weights = np.asarray(weights).reshape(-1)
    out = dense_counts(None if one_row else inputs.indices.numpy()[:, 0], ids,
                       1 if one_row else int(inputs.dense_shape[0]), depth, dtype,
                       binary_output, weights)
    return from_array(out.reshape([depth]) if one_row else out)


def dense_counts(rows, ids, num_rows, depth, dtype, binary_output, weights=None):
    """The ``[num_rows, depth]`` array of each row's counts (`weights` summed, or 1 for
    presence with `binary_output`) of `ids` (`rows`: each id's row, None for all in row 0),
    written into zeros at once; ids outside ``[0, depth)`` count nowhere, as in bincount."""
    ids = np.asarray(ids)
    linear = ids.astype(np.int64) if rows is None else np.asarray(rows, np.int64) * depth + ids
    if ids.size and (ids.min() < 0 or ids.max() >= depth):  # (a lookup's ids never are)
        keep = (ids >= 0) & (ids < depth)
        linear = linear[keep]
        weights = None if weights is None else weights[keep]
    # (np.zeros takes zeroed pages from the OS: only the scatter below writes them)
    out = np.zeros(num_rows * depth, _dtypes.as_dtype(dtype).as_numpy_dtype)
    if binary_output:
        out[linear] = 1
    elif weights is not None:
        np.add.at(out, linear, weights.astype(out.dtype))
    else:
        np.add.at(out, linear, out.dtype.type(1))
    return out.reshape(num_rows, depth)


def compute_shape_for_encode_categorical(shape, output_mode, depth):
    if output_mode == INT:
        return TensorShape(shape)
    shape = list(shape)
    if not shape:
        return TensorShape([depth])
    if output_mode == ONE_HOT and shape[-1] != 1:
        return TensorShape(shape + [depth])
    return TensorShape(shape[:-1] + [depth])


class VocabWeightHandler(TrackableWeightHandler):
    """An adaptable lookup layer's vocabulary as one of its weights: `get_weights` gives the
    tokens without the mask and OOV ones (a vector of the vocabulary's dtype, strings as
    bytes) and `set_weights` makes them the vocabulary."""

    def __init__(self, lookup_layer):
        super().__init__()
        self._layer = lookup_layer

    def get_tensors(self):
        tokens = self._layer.get_vocabulary(include_special_tokens=False)
        return [convert_to_tensor(tokens, self._layer.vocabulary_dtype)]

    def set_weights(self, weights):
        tokens = convert_to_tensor(weights[0], self._layer.vocabulary_dtype)
        self._layer.lookup_table = self._layer._lookup_table_from_tokens(tokens.numpy())


class _NullInitializer(lookup_ops.TableInitializerBase):
    """Leaves a table uninitialized (a layer's table before `adapt` or `set_vocabulary`)."""

    def initialize(self, table):
        pass


class _EagerPreprocessingLayer(PreprocessingLayer):
    """Converts lists and arrays (of strings too) to tensors before the layer sees them."""

    def __call__(self, *args, **kwargs):
        if args and isinstance(args[0], (list, tuple, np.ndarray, str, bytes)):
            args = (ensure_tensor(args[0], getattr(self, "_input_dtype", None)),) + args[1:]
        return super().__call__(*args, **kwargs)


# -- IndexLookup --------------------------------------------------------------------------------

class IndexLookup(_EagerPreprocessingLayer):
    """What `StringLookup` and `IntegerLookup` share: a vocabulary in a static table."""

    def __init__(self, max_tokens, num_oov_indices, mask_token, oov_token, vocabulary_dtype,
                 vocabulary=None, idf_weights=None, invert=False, output_mode="int",
                 sparse=False, pad_to_max_tokens=False, **kwargs):
        if max_tokens is not None and max_tokens <= 1:
            raise ValueError(f"If set, `max_tokens` must be greater than 1. Received: "
                             f"max_tokens={max_tokens}")
        if pad_to_max_tokens and max_tokens is None:
            raise ValueError(f"If pad_to_max_tokens is True, must set `max_tokens`. Received: "
                             f"max_tokens={max_tokens}")
        if num_oov_indices < 0:
            raise ValueError(f"`num_oov_indices` must be greater than or equal to 0. Received: "
                             f"num_oov_indices={num_oov_indices}")
        output_mode = {"binary": MULTI_HOT, "tf-idf": TF_IDF}.get(output_mode, output_mode)
        validate_string_arg(output_mode, (INT, ONE_HOT, MULTI_HOT, COUNT, TF_IDF),
                            type(self).__name__, "output_mode")
        if invert and output_mode != INT:
            raise ValueError(f"`output_mode` must be `'int'` when `invert` is true. Received: "
                             f"output_mode={output_mode}")
        if sparse and output_mode == INT:
            raise ValueError(f"`sparse` may only be true if `output_mode` is `'one_hot'`, "
                             f"`'multi_hot'`, `'count'` or `'tf_idf'`. Received: "
                             f"sparse={sparse} and output_mode={output_mode}")
        if idf_weights is not None and output_mode != TF_IDF:
            raise ValueError(f"`idf_weights` should only be set if `output_mode` is "
                             f"`'tf_idf'`. Received: idf_weights={idf_weights} and "
                             f"output_mode={output_mode}")
        self.invert = invert
        self.max_tokens = max_tokens
        self.num_oov_indices = num_oov_indices
        self.mask_token = mask_token
        self.oov_token = oov_token
        self.output_mode = output_mode
        self.sparse = sparse
        self.pad_to_max_tokens = pad_to_max_tokens
        self.vocabulary_dtype = _dtypes.as_dtype(vocabulary_dtype).name
        self._frozen_vocab_size = kwargs.pop("vocabulary_size", None)
        self.input_vocabulary = vocabulary
        self.input_idf_weights = idf_weights
        self._has_input_vocabulary = kwargs.pop("has_input_vocabulary", vocabulary is not None)
        kwargs.pop("has_static_table", None)
        if "dtype" not in kwargs:
            kwargs["dtype"] = _dtypes.int64 if output_mode == INT else backend.floatx()
        super().__init__(**kwargs)
        if output_mode == INT and not _dtypes.as_dtype(self.compute_dtype).is_integer:
            raise ValueError(f"When `output_mode='int'`, `dtype` should be an integer type. "
                             f"Received: dtype={kwargs['dtype']}")
        if invert:
            self._key_dtype = _dtypes.as_dtype(self.dtype) if output_mode == INT \
                else _dtypes.int64
            self._value_dtype = _dtypes.as_dtype(self.vocabulary_dtype)
            mask_key, mask_value = 0, mask_token
            self._default_value = self.oov_token
        else:
            self._key_dtype = _dtypes.as_dtype(self.vocabulary_dtype)
            self._value_dtype = _dtypes.as_dtype(self.dtype) if output_mode == INT \
                else _dtypes.int64
            mask_key = mask_token
            mask_value = 0 if output_mode == INT else self._value_dtype.max
            self._default_value = self._oov_start_index() if num_oov_indices == 1 else -1
        self._input_dtype = self._key_dtype
        if mask_token is not None:
            self._mask_key = convert_to_tensor(mask_key, self._key_dtype)
            self._mask_value = convert_to_tensor(mask_value, self._value_dtype)
        if output_mode == TF_IDF:
            self.idf_weights = Variable([0] * self._token_start_index(), shape=(None,),
                                        dtype=self.compute_dtype, trainable=False)
            self.idf_weights_const = self.idf_weights.value()
        if vocabulary is not None:
            self.set_vocabulary(vocabulary, idf_weights)
        else:  # (left uninitialized until `adapt`: a lookup fails, as in TF)
            with context.init_scope():
                self.lookup_table = lookup_ops.StaticHashTable(
                    _NullInitializer(self._key_dtype, self._value_dtype), self._default_value)
        if not self._has_input_vocabulary:
            # (the vocabulary `adapt` learns is a weight, which `get_weights` reads)
            self._add_trackable(VocabWeightHandler(self), False)
            self.token_counts = lookup_ops.MutableHashTable(self.vocabulary_dtype, _dtypes.int64,
                                                            0)
            if output_mode == TF_IDF:
                self.token_document_counts = lookup_ops.MutableHashTable(
                    self.vocabulary_dtype, _dtypes.int64, 0)
                self.num_documents = Variable(0, dtype=_dtypes.int64, trainable=False)

    def compute_output_shape(self, input_shape):
        if self.output_mode == INT:
            return input_shape
        depth = self.max_tokens if self.pad_to_max_tokens else self._frozen_vocab_size
        return TensorShape([TensorShape(input_shape)[0], depth])


    def compute_output_signature(self, input_spec):
        dtype = self.vocabulary_dtype if self.invert else self.compute_dtype
        return TensorSpec(self.compute_output_shape(input_spec.shape), dtype)

    def get_vocabulary(self, include_special_tokens=True):
        """The vocabulary, index by index (with the mask and OOV tokens unless
        `include_special_tokens` is False)."""
        if int(self.lookup_table.size()) == 0:
            vocab, indices = [], []
        else:
            keys, values = self.lookup_table.export()
            vocab, indices = (values, keys) if self.invert else (keys, values)
            vocab, indices = self._tensor_vocab_to_numpy(vocab), indices.numpy()
        lookup = collections.defaultdict(lambda: self.oov_token, zip(indices, vocab))
        vocab = [lookup[x] for x in range(self.vocabulary_size())]
        if self.mask_token is not None and self.output_mode == INT:
            vocab[0] = self.mask_token
        if not include_special_tokens:
            vocab = vocab[self._token_start_index():]
        return vocab

    def vocabulary_size(self):
        """The vocabulary's size, the mask and OOV indices included."""
        if context.executing_eagerly():
            return int(self.lookup_table.size()) + self._token_start_index()
        return math_ops.add(self.lookup_table.size(), np.int64(self._token_start_index()))

    def vocab_size(self):
        return self.vocabulary_size()

    def get_config(self):
        config = {"invert": self.invert, "max_tokens": self.max_tokens,
                  "num_oov_indices": self.num_oov_indices, "oov_token": self.oov_token,
                  "mask_token": self.mask_token, "output_mode": self.output_mode,
                  "sparse": self.sparse, "pad_to_max_tokens": self.pad_to_max_tokens,
                  "vocabulary_dtype": self.vocabulary_dtype,
                  "idf_weights": listify(self.input_idf_weights),
                  "vocabulary": listify(self.input_vocabulary),
                  "vocabulary_size": self._frozen_vocab_size}
        return {**super().get_config(), **config}

    def _record_vocabulary_size(self):
        self._ensure_vocab_size_unchanged()
        with context.init_scope():  # a Python int, even for a layer made inside a tf.function
            self._frozen_vocab_size = self.vocabulary_size()

    def set_vocabulary(self, vocabulary, idf_weights=None):
        """Sets the vocabulary (an array or list, or the path of a file of one token a line)
        and, for ``"tf_idf"``, the `idf_weights`, replacing what the layer had."""
        if self.output_mode == TF_IDF:
            if idf_weights is None:
                raise ValueError("`idf_weights` must be set if output_mode is TF_IDF")
        elif idf_weights is not None:
            raise ValueError(f"`idf_weights` should only be set if output_mode is `'tf_idf'`. "
                             f"Received: output_mode={self.output_mode} and "
                             f"idf_weights={idf_weights}")
        if isinstance(vocabulary, str):
            if not os.path.exists(vocabulary):
                raise ValueError(f"Vocabulary file {vocabulary} does not exist.")
            if self.output_mode == TF_IDF:
                raise ValueError("output_mode `'tf_idf'` does not support loading a vocabulary "
                                 "from file.")
            self.lookup_table = self._lookup_table_from_file(vocabulary)
            self._record_vocabulary_size()
            return
        if not context.executing_eagerly() and (isinstance(vocabulary, Tensor) or
                                                isinstance(idf_weights, Tensor)):
            raise RuntimeError(f"Cannot set a tensor vocabulary on {type(self).__name__} layer "
                               f"{self.name} when not executing eagerly. Create this layer or "
                               f"call `set_vocabulary` outside of any `tf.function`s and with "
                               f"eager execution enabled.")
        if isinstance(vocabulary, (Tensor, Variable)):
            vocabulary = self._tensor_vocab_to_numpy(vocabulary)
        elif isinstance(vocabulary, (list, tuple)):
            vocabulary = np.array(vocabulary)
        if isinstance(idf_weights, (Tensor, Variable)):
            idf_weights = np.asarray(idf_weights)
        elif isinstance(idf_weights, (list, tuple)):
            idf_weights = np.array(idf_weights)
        if vocabulary.size == 0:
            raise ValueError(f"Cannot set an empty vocabulary, you passed {vocabulary}.")
        oov_start = self._oov_start_index()
        token_start = self._token_start_index()
        special_tokens = [self.mask_token] * oov_start + [self.oov_token] * self.num_oov_indices
        found_special_tokens = np.array_equal(special_tokens, vocabulary[:token_start])
        tokens = vocabulary[token_start:] if found_special_tokens else vocabulary
        repeated = [item for item, count in collections.Counter(tokens).items()
                    if count > 1]
        if repeated:
            raise ValueError(f"The passed vocabulary has at least one repeated term. Please "
                             f"uniquify your dataset. The repeated terms are {repeated}")
        if self.mask_token is not None and self.mask_token in tokens:
            mask_index = np.argwhere(vocabulary == self.mask_token)[-1]
            raise ValueError(
                f"Found reserved mask token at unexpected location in `vocabulary`. Note that "
                f"passed `vocabulary` does not need to include the OOV and mask tokens. Either "
                f"remove all mask and OOV tokens, or include them only at the start of the "
                f"vocabulary in precisely this order: {special_tokens}. Received: "
                f"mask_token={self.mask_token} at vocabulary index {mask_index}")
        if self.oov_token is not None and self.invert and self.oov_token in tokens:
            oov_index = np.argwhere(vocabulary == self.oov_token)[-1]
            raise ValueError(
                f"Found reserved OOV token at unexpected location in `vocabulary`. Note that "
                f"passed `vocabulary` does not need to include the OOV and mask tokens. Either "
                f"remove all mask and OOV tokens, or include them only at the start of the "
                f"vocabulary in precisely this order: {special_tokens}. Received: "
                f"oov_token={self.oov_token} at vocabulary index {oov_index}")
        new_vocab_size = token_start + len(tokens)
        if self.max_tokens is not None and new_vocab_size > self.max_tokens:
            raise ValueError(f"Attempted to set a vocabulary larger than the maximum vocab "
                             f"size. Passed vocab size is {new_vocab_size}, max vocab size is "
                             f"{self.max_tokens}.")
        self.lookup_table = self._lookup_table_from_tokens(tokens)
        self._record_vocabulary_size()
        if self.output_mode == TF_IDF and idf_weights is not False:
            if len(vocabulary) != len(idf_weights):
                # (sic: TF's message gives the two lengths the other way round)
                raise ValueError(f"`idf_weights` must be the same length as vocabulary. "
                                 f"len(idf_weights) is {len(vocabulary)}, len(vocabulary) is "
                                 f"{len(idf_weights)}")
            idf_weights = np.asarray(idf_weights)
            if idf_weights.ndim != 1:
                raise ValueError(f"TF-IDF data must be a 1-index array, but received "
                                 f"{type(idf_weights)}")
            front, front_value = (0, 0) if found_special_tokens else \
                (token_start, np.average(idf_weights))
            back = self.max_tokens - front - len(idf_weights) \
                if self.pad_to_max_tokens and self.max_tokens is not None else 0
            weights = np.pad(idf_weights, (front, back), "constant",
                             constant_values=(front_value, 0))
            self.idf_weights.assign(cast_ops.cast(weights, self.compute_dtype))
            self.idf_weights_const = self.idf_weights.value()

    def update_state(self, data):
        if self._has_input_vocabulary:
            raise ValueError(f"Cannot adapt {type(self).__name__} layer after setting a static "
                             f"vocabulary via init argument or `set_vocabulary`.")
        data = ensure_tensor(data, _dtypes.as_dtype(self.vocabulary_dtype))
        if not isinstance(data, SparseTensor) and data.shape.rank in (0, 1):
            data = array_ops.reshape(data, [1, -1])
        tokens, counts = self._num_tokens(data)
        self.token_counts.insert(tokens, math_ops.add(counts, self.token_counts.lookup(tokens)))
        if self.output_mode == TF_IDF:
            tokens, doc_counts = self._document_tokens(data)
            self.token_document_counts.insert(
                tokens, math_ops.add(doc_counts, self.token_document_counts.lookup(tokens)))
            rows = data.dense_shape[0] if isinstance(data, SparseTensor) else \
                array_ops.shape(data, out_type=_dtypes.int64)[0]
            self.num_documents.assign_add(rows)

    def finalize_state(self):
        if self._has_input_vocabulary or int(self.token_counts.size()) == 0:
            if self.output_mode == TF_IDF:
                self.idf_weights_const = self.idf_weights.value()
            if self._has_input_vocabulary or self._frozen_vocab_size is None or \
                    int(self.lookup_table.size()):
                self._record_vocabulary_size()
            # (else a saved layer's weights are loading before its vocabulary: its size is
            # that of the config, checked when the vocabulary comes)
            return
        dtype = _dtypes.as_dtype(self.vocabulary_dtype)
        for special in (self.mask_token, self.oov_token):
            if special is not None:
                self.token_counts.remove(convert_to_tensor([special], dtype))
        tokens, counts = self.token_counts.export()
        # By count, high to low, ties by the tokens (high to low): a deterministic vocabulary.
        order = np.lexsort((tokens.numpy(), counts.numpy()))[::-1]
        if self.max_tokens:
            order = order[:self.max_tokens - self._token_start_index()]
        tokens = array_ops.gather(tokens, order)
        self.lookup_table = self._lookup_table_from_tokens(tokens.numpy())
        if self.output_mode == TF_IDF:
            document_counts = self.token_document_counts.lookup(tokens)
            idf = math_ops.log(1.0 + cast_ops.cast(self.num_documents, _dtypes.float64) /
                               (1.0 + cast_ops.cast(document_counts, _dtypes.float64)))
            idf = cast_ops.cast(idf, self.compute_dtype)
            idf = array_ops.pad(idf, [[self._token_start_index(), 0]],
                                constant_values=reduction_ops.reduce_mean(idf))
            if self.pad_to_max_tokens and self.max_tokens is not None:
                idf = array_ops.pad(idf, [[0, self.max_tokens - int(array_ops.size(idf))]])
            self.idf_weights.assign(idf)
            self.idf_weights_const = self.idf_weights.value()
        self.reset_state()
        self._record_vocabulary_size()

    def reset_state(self):
        if self._has_input_vocabulary:
            return
        self.token_counts.remove(self.token_counts.export()[0])
        if self.output_mode == TF_IDF:
            self.token_document_counts.remove(self.token_document_counts.export()[0])
            self.num_documents.assign(0)

    def call(self, inputs):
        self._ensure_known_vocab_size()
        inputs = ensure_tensor(inputs, self._key_dtype)
        original_shape = inputs.shape
        if inputs.shape.rank == 0:
            inputs = _expand_dims(inputs, -1)
        if isinstance(inputs, SparseTensor):
            lookups = inputs.with_values(self._lookup_dense(inputs.values))
        elif _is_ragged(inputs):
            lookups = inputs.with_flat_values(self._lookup_dense(inputs.flat_values))
            if self.output_mode != INT:
                lookups = lookups.to_sparse()
        else:
            lookups = self._lookup_dense(inputs)
        if self.output_mode == INT:
            if original_shape.rank == 0:
                lookups = array_ops.squeeze(lookups, -1)
            return lookups
        return self._encode(lookups)

    def _encode(self, lookups):
        """Indices `lookups` as the ``output_mode`` vectors (not ``"int"``)."""
        depth = self.max_tokens if self.pad_to_max_tokens else self._frozen_vocab_size
        idf_weights = self.idf_weights_const if self.output_mode == TF_IDF else None
        return encode_categorical_inputs(lookups, output_mode=self.output_mode, depth=depth,
                                         dtype=self.compute_dtype, sparse=self.sparse,
                                         idf_weights=idf_weights)

    def _lookup_dense(self, inputs):
        lookups = self.lookup_table.lookup(inputs)
        if self.mask_token is not None:
            lookups = array_ops.where(math_ops.equal(inputs, self._mask_key), self._mask_value,
                                      lookups)
        if self.invert:
            return lookups
        if self.num_oov_indices == 0:
            oov = array_ops.where(math_ops.equal(lookups, -1))
            message = logging_ops.format(
                "When `num_oov_indices=0` all inputs should be in vocabulary, found OOV values "
                "{}, consider setting `num_oov_indices=1`.", (array_ops.gather_nd(inputs, oov),))
            debugging_ops.Assert(math_ops.equal(array_ops.size(oov), 0), [message])
        elif self.num_oov_indices > 1:
            if self._key_dtype.is_integer:
                oov_indices = math_ops.floormod(inputs, self.num_oov_indices)
            else:
                oov_indices = fingerprint_ops.to_hash_bucket_fast(inputs, self.num_oov_indices)
            oov_indices = math_ops.add(cast_ops.cast(oov_indices, lookups.dtype),
                                       self._oov_start_index())
            lookups = array_ops.where(math_ops.equal(lookups, self._default_value), oov_indices,
                                      lookups)
        return lookups

    # -- saving ---------------------------------------------------------------------------------
    def save_own_variables(self, store):
        if self.output_mode == TF_IDF:
            store["idf_weights"] = self.idf_weights_const.numpy()

    def load_own_variables(self, store):
        if self.output_mode == TF_IDF:
            self.idf_weights.assign(store["idf_weights"])
            self.idf_weights_const = self.idf_weights.value()

    def save_assets(self, dir_path):
        """Writes the vocabulary to ``vocabulary.txt`` in `dir_path` (unless it was given)."""
        if self._vocabulary_in_config():
            return
        vocabulary = self.get_vocabulary(include_special_tokens=True)
        with file_system.open_file(os.path.join(dir_path, "vocabulary.txt"), "wb") as f:
            f.write("\n".join(str(w) for w in vocabulary).encode("utf-8"))

    def _vocabulary_in_config(self):
        # a NumPy array or tensor has no truth value: its length says whether it holds words
        vocabulary = self.input_vocabulary
        return vocabulary is not None and (
            bool(vocabulary) if isinstance(vocabulary, str) else len(vocabulary) > 0)

    def load_assets(self, dir_path):
        """Sets the vocabulary that `save_assets` wrote to `dir_path`."""
        if self._vocabulary_in_config() or self._has_input_vocabulary:
            return  # (in the config, or in a SavedModel's table when it was a file)
        with file_system.open_file(os.path.join(dir_path, "vocabulary.txt"), "rb") as f:
            lines = f.read().decode("utf-8").split("\n")
        values = lines if self.vocabulary_dtype == "string" else [int(v) for v in lines]
        self.set_vocabulary(values, idf_weights=False if self.output_mode == TF_IDF else None)

    # -- internals ------------------------------------------------------------------------------
    def _lookup_table_from_tokens(self, tokens):
        start = self._token_start_index()
        indices_dtype = self._key_dtype if self.invert else self._value_dtype
        indices = np.arange(start, start + len(tokens), dtype=indices_dtype.as_numpy_dtype)
        tokens = np.asarray(tokens)
        if self.vocabulary_dtype == "string":
            tokens = np.array([_token_bytes(t) for t in tokens.tolist()] or [], object)
        keys, values = (indices, tokens) if self.invert else (tokens, indices)
        with context.init_scope():
            init = lookup_ops.KeyValueTensorInitializer(
                convert_to_tensor(keys, self._key_dtype),
                convert_to_tensor(values, self._value_dtype))
            return lookup_ops.StaticHashTable(init, self._default_value)

    def _lookup_table_from_file(self, filename):
        index = lookup_ops.TextFileIndex
        key_index, value_index = (index.LINE_NUMBER, index.WHOLE_LINE) if self.invert else \
            (index.WHOLE_LINE, index.LINE_NUMBER)
        with context.init_scope():
            init = lookup_ops.TextFileInitializer(
                filename, self._key_dtype, key_index, self._value_dtype, value_index,
                value_index_offset=self._token_start_index())
            return lookup_ops.StaticHashTable(init, self._default_value)

    def _oov_start_index(self):
        return 1 if self.mask_token is not None and self.output_mode == INT else 0

    def _token_start_index(self):
        return self._oov_start_index() + self.num_oov_indices

    def _ensure_known_vocab_size(self):
        if self.output_mode == INT or self.pad_to_max_tokens:
            return
        if self._frozen_vocab_size is None:
            raise RuntimeError(f"When using `output_mode={self.output_mode}` and "
                               f"`pad_to_max_tokens=False`, you must set the layer's "
                               f"vocabulary before calling it. Either pass a `vocabulary` "
                               f"argument to the layer, or call `adapt` with some sample data.")

    def _ensure_vocab_size_unchanged(self):
        if self.output_mode == INT or self.pad_to_max_tokens:
            return
        new_vocab_size = self.vocabulary_size()
        if self._frozen_vocab_size is not None and new_vocab_size != self._frozen_vocab_size:
            raise RuntimeError(f"When using `output_mode={self.output_mode}` and "
                               f"`pad_to_max_tokens=False`, the vocabulary size cannot be "
                               f"changed after the layer is called. Old vocab size is "
                               f"{self._frozen_vocab_size}, new vocab size is {new_vocab_size}")

    @staticmethod
    def _flat_values(data):
        if isinstance(data, SparseTensor):
            return data.values
        flat_values = getattr(data, "flat_values", None)  # a RaggedTensor
        return flat_values if flat_values is not None else array_ops.reshape(data, [-1])

    def _num_tokens(self, data):
        flat = self._flat_values(data)
        if not context.executing_eagerly():
            tokens, _, counts = reduction_ops.unique_with_counts(flat, out_idx=_dtypes.int64)
            return tokens, counts
        # Eagerly, a hash count (C's Counter) beats sorting the strings as `unique` does.
        counted = collections.Counter(np.asarray(flat).tolist())
        dtype = flat.dtype
        tokens = np.empty(len(counted), object) if dtype == _dtypes.string else \
            np.fromiter(counted.keys(), dtype.as_numpy_dtype, count=len(counted))
        if dtype == _dtypes.string:
            tokens[:] = list(counted.keys())
        # (from_array: the tokens came out of a tensor, they need no checking)
        return (from_array(tokens),
                from_array(np.fromiter(counted.values(), np.int64, count=len(counted))))

    def _document_tokens(self, data):
        """Each token with the number of documents (rows) holding it."""
        if isinstance(data, SparseTensor):
            rows, values = data.indices.numpy()[:, 0], data.values.numpy()
        else:
            array = np.asarray(data)
            array = array.reshape(len(array), -1)
            rows = np.repeat(np.arange(len(array)), array.shape[1])
            values = array.reshape(-1)
        pairs = {(r, v) for r, v in zip(rows.tolist(), values.tolist())}
        counts = collections.Counter(v for _, v in pairs)
        dtype = _dtypes.as_dtype(self.vocabulary_dtype)
        keys = list(counts)
        return (convert_to_tensor(np.array(keys, object if dtype == _dtypes.string
                                           else dtype.as_numpy_dtype), dtype),
                convert_to_tensor(np.array([counts[k] for k in keys], np.int64)))

    def _tensor_vocab_to_numpy(self, vocabulary):
        return np.asarray(vocabulary)


@export("keras.layers.StringLookup", "keras.layers.experimental.preprocessing.StringLookup")
class StringLookup(IndexLookup):
    """Maps strings to integer indices from a vocabulary (or, with ``invert=True``, back).

    >>> layer = tf.keras.layers.StringLookup(vocabulary=["a", "b"], output_mode="multi_hot")
    >>> layer(tf.constant([["a", "z"]])).numpy()
    array([[1., 1., 0.]], dtype=float32)
    """

    def __init__(self, max_tokens=None, num_oov_indices=1, mask_token=None, oov_token="[UNK]",
                 vocabulary=None, idf_weights=None, encoding="utf-8", invert=False,
                 output_mode="int", sparse=False, pad_to_max_tokens=False, **kwargs):
        if "vocabulary_dtype" in kwargs:
            del kwargs["vocabulary_dtype"]
        self.encoding = encoding
        super().__init__(max_tokens=max_tokens, num_oov_indices=num_oov_indices,
                         mask_token=mask_token, oov_token=oov_token, vocabulary=vocabulary,
                         vocabulary_dtype=_dtypes.string, idf_weights=idf_weights,
                         invert=invert, output_mode=output_mode, sparse=sparse,
                         pad_to_max_tokens=pad_to_max_tokens, **kwargs)

    def get_config(self):
        config = super().get_config()
        del config["vocabulary_dtype"]
        config["encoding"] = self.encoding
        return config

    def _tensor_vocab_to_numpy(self, vocabulary):
        values = np.asarray(vocabulary).reshape(-1).tolist()
        return np.array([v.decode(self.encoding) if isinstance(v, bytes) else str(v)
                         for v in values])


@export("keras.layers.IntegerLookup", "keras.layers.experimental.preprocessing.IntegerLookup")
class IntegerLookup(IndexLookup):
    """Maps integers to indices from a vocabulary (or, with ``invert=True``, back); the mask
    and OOV tokens are integers too (``oov_token=-1``).

    >>> layer = tf.keras.layers.IntegerLookup(vocabulary=[12, 36])
    >>> layer(tf.constant([36, 7])).numpy()
    array([2, 0])
    """

    def __init__(self, max_tokens=None, num_oov_indices=1, mask_token=None, oov_token=-1,
                 vocabulary=None, vocabulary_dtype="int64", idf_weights=None, invert=False,
                 output_mode="int", sparse=False, pad_to_max_tokens=False, **kwargs):
        if not _dtypes.as_dtype(vocabulary_dtype).is_integer:
            raise ValueError(f"`vocabulary_dtype` must be an integer dtype. Received: "
                             f"{vocabulary_dtype}")
        if max_tokens is not None and max_tokens <= 1:
            raise ValueError(f"If `max_tokens` is set for `IntegerLookup`, it must be greater "
                             f"than 1. Received: max_tokens={max_tokens}.")
        if num_oov_indices < 0:
            raise ValueError(f"The value of `num_oov_indices` argument for `IntegerLookup` "
                             f"must >= 0. Received num_oov_indices={num_oov_indices}.")
        if mask_token is not None:
            mask_token = np.int64(mask_token)
        if oov_token is not None:
            oov_token = np.int64(oov_token)
        super().__init__(max_tokens=max_tokens, num_oov_indices=num_oov_indices,
                         mask_token=mask_token, oov_token=oov_token, vocabulary=vocabulary,
                         vocabulary_dtype=vocabulary_dtype, idf_weights=idf_weights,
                         invert=invert, output_mode=output_mode, sparse=sparse,
                         pad_to_max_tokens=pad_to_max_tokens, **kwargs)

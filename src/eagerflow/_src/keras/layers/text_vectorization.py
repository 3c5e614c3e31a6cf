"""`TextVectorization`: raw strings to token indices (or per-sample token vectors).

Each string is standardized (lower-cased and stripped of ASCII punctuation by
default), split into tokens (at whitespace, into characters, or by a callable),
optionally joined into n-grams, and looked up in a vocabulary, which `adapt`
learns from data as `StringLookup` does (the mask token is ``""``). Tokens travel
between the steps as a `SparseTensor` of rows (the natural ragged result, as
positions): an ``"int"`` output is that matrix made dense with 0 padding, cut or
padded to `output_sequence_length` when it is set. Called eagerly on strings split
at whitespace, the layer skips the per-token strings: the batch becomes one bytes
buffer, standardized in one pass, its tokens found and looked up with NumPy
(`string_ops.whitespace_tokens`, `lookup_ops.find_tokens`), with the ops' results.

>>> layer = tf.keras.layers.TextVectorization()
>>> layer.adapt(["The cat sat.", "The dog!"])
>>> layer.get_vocabulary()
['', '[UNK]', np.str_('the'), np.str_('sat'), np.str_('dog'), np.str_('cat')]
>>> layer(["the bird sat"]).numpy()
array([[2, 1, 3]])
"""
import sys

import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import context
from eagerflow._src.core import dtypes as _dtypes
from eagerflow._src.core.convert import from_array
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.core.tensor import EagerTensor
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.core.tensor_spec import TensorSpec
from eagerflow._src.keras import backend
from eagerflow._src.keras.layers.preprocessing_lookup import (
    COUNT, INT, MULTI_HOT, TF_IDF, StringLookup, _EagerPreprocessingLayer, dense_counts,
    ensure_tensor, listify, validate_string_arg)
from eagerflow._src.keras.utils import serialization
from eagerflow._src.ops import (array_ops, cast_ops, lookup_ops, math_ops, reduction_ops,
                                string_ops)
from eagerflow._src.ops.sparse_tensor import SparseTensor, to_dense

LOWER_AND_STRIP_PUNCTUATION = "lower_and_strip_punctuation"
STRIP_PUNCTUATION = "strip_punctuation"
LOWER = "lower"
WHITESPACE = "whitespace"
CHARACTER = "character"
DEFAULT_STRIP_REGEX = r'[!"#$%&()\*\+,-\./:;<=>?@\[\\\]^_`{|}~\']'


def _split_whitespace(strings):
    """Vector `strings` split at runs of whitespace: a SparseTensor [rows, most tokens]."""
    indices, values, shape = dispatch(string_ops._STRING_SPLIT, (strings,),
                                      {"sep": b"", "maxsplit": -1})
    return SparseTensor(indices, values, shape)


def _positions(lengths, width):
    """The positions ``[rows, width]`` below each row's length, and that mask."""
    columns = array_ops.range(width, dtype=lengths.dtype)
    return columns, math_ops.less(array_ops.expand_dims(columns, 0),
                                  array_ops.expand_dims(lengths, 1))


def _from_mask(dense, mask):
    """The elements of `dense` where `mask` holds, moved to the front of their row, as a
    SparseTensor."""
    where = array_ops.where(mask)
    compact = math_ops.subtract(reduction_ops.cumsum(cast_ops.cast(mask, _dtypes.int64), axis=1),
                                np.int64(1))
    columns = array_ops.gather_nd(compact, where)
    rows = where[:, 0]
    width = math_ops.maximum(reduction_ops.reduce_max(
        reduction_ops.reduce_sum(cast_ops.cast(mask, _dtypes.int64), axis=1)), np.int64(0))
    shape = array_ops.stack([array_ops.shape(dense, out_type=_dtypes.int64)[0], width])
    return SparseTensor(array_ops.stack([rows, columns], axis=1),
                        array_ops.gather_nd(dense, where), shape)


def _split_characters(strings):
    """Vector `strings` split into UTF-8 characters, as a SparseTensor."""
    lengths = string_ops.length(strings, unit="UTF8_CHAR")
    width = math_ops.maximum(reduction_ops.reduce_max(lengths), 0)
    columns, mask = _positions(lengths, width)
    pos = math_ops.minimum(array_ops.expand_dims(columns, 0), array_ops.expand_dims(lengths, 1))
    chars = string_ops.substr(array_ops.expand_dims(strings, 1), pos, array_ops.ones_like(pos),
                              unit="UTF8_CHAR")
    return _from_mask(chars, mask)


def _row_lengths(tokens):
    rows = array_ops.shape(tokens, out_type=_dtypes.int64)[0] if not isinstance(
        tokens, SparseTensor) else tokens.dense_shape[0]
    return reduction_ops.bincount(tokens.indices[:, 0], minlength=rows, maxlength=rows,
                                  dtype=_dtypes.int64)


def _as_sparse_rows(tokens):
    """Tokens as a SparseTensor of rows: a RaggedTensor's or dense matrix's elements."""
    if isinstance(tokens, SparseTensor):
        return tokens
    to_sparse = getattr(tokens, "to_sparse", None)
    if to_sparse is not None:  # a RaggedTensor
        return to_sparse()
    tokens = ensure_tensor(tokens, _dtypes.string)
    if tokens.shape.rank == 1:
        tokens = array_ops.expand_dims(tokens, 0)
    return _from_mask(tokens, array_ops.ones_like(tokens, dtype=_dtypes.bool))


def _ngrams(tokens, widths):
    """The n-grams of each row of SparseTensor `tokens` for each width in turn (tokens joined
    by spaces; a row shorter than a width has none of it), as a SparseTensor."""
    dense = to_dense(tokens, default_value=b"")
    lengths = _row_lengths(tokens)
    width = array_ops.shape(dense, out_type=_dtypes.int64)[1]
    parts, masks = [], []
    for n in widths:
        count = math_ops.maximum(math_ops.subtract(width, n - 1), np.int64(0))
        if n == 1:
            joined = dense
        else:
            pieces = [array_ops.slice(dense, array_ops.stack([np.int64(0), np.int64(i)]),
                                      array_ops.stack([np.int64(-1), count]))
                      for i in range(n)]
            joined = string_ops.join(pieces, separator=" ")
        columns = array_ops.range(count, dtype=_dtypes.int64)
        parts.append(joined)
        masks.append(math_ops.less_equal(array_ops.expand_dims(columns + (n - 1), 0),
                                         math_ops.subtract(array_ops.expand_dims(lengths, 1),
                                                           np.int64(1))))
    return _from_mask(array_ops.concat(parts, 1), array_ops.concat(masks, 1))


def _ragged_class():
    ragged = getattr(sys.modules.get("eagerflow"), "RaggedTensor", None)
    if ragged is None or not hasattr(ragged, "from_sparse"):
        raise NotImplementedError("TextVectorization(ragged=True) returns a RaggedTensor, "
                                  "which this eagerflow lacks; use output_sequence_length or "
                                  "the padded output.")
    return ragged


def _first_row(outputs):
    """Row 0 of a batch of one (a scalar input's output), a SparseTensor's too."""
    if isinstance(outputs, SparseTensor):
        return SparseTensor(outputs.indices[:, 1:], outputs.values, outputs.dense_shape[1:])
    return outputs[0]


def _ragged_rows(ids):
    """The token ids as a RaggedTensor of rows (``ragged=True``)."""
    return _ragged_class().from_sparse(ids)


def _table_value(layer):
    """The `TableValue` of a lookup layer's static table of strings, or None."""
    value = getattr(layer.lookup_table, "_value", None)
    return value if isinstance(value, lookup_ops.TableValue) and value.initialized and \
        value.key_dtype == _dtypes.string else None


@export("keras.layers.TextVectorization",
        "keras.layers.experimental.preprocessing.TextVectorization")
class TextVectorization(_EagerPreprocessingLayer):
    """Maps raw strings to sequences of token indices, or to per-string token vectors
    (``"multi_hot"``, ``"count"``, ``"tf_idf"``), with a vocabulary given or adapted."""

    _input_dtype = _dtypes.string

    def __init__(self, max_tokens=None, standardize=LOWER_AND_STRIP_PUNCTUATION,
                 split=WHITESPACE, ngrams=None, output_mode="int", output_sequence_length=None,
                 pad_to_max_tokens=False, vocabulary=None, idf_weights=None, sparse=False,
                 ragged=False, encoding="utf-8", **kwargs):
        if "dtype" in kwargs and _dtypes.as_dtype(kwargs["dtype"]) != _dtypes.string:
            raise ValueError(f"`TextVectorization` may only have a dtype of string. Received "
                             f"dtype: {kwargs['dtype']}.")
        kwargs.setdefault("dtype", _dtypes.string)
        validate_string_arg(standardize, (LOWER_AND_STRIP_PUNCTUATION, LOWER, STRIP_PUNCTUATION),
                            "TextVectorization", "standardize", allow_none=True,
                            allow_callables=True)
        validate_string_arg(split, (WHITESPACE, CHARACTER), "TextVectorization", "split",
                            allow_none=True, allow_callables=True)
        output_mode = {"binary": MULTI_HOT, "tf-idf": TF_IDF}.get(output_mode, output_mode)
        validate_string_arg(output_mode, (INT, COUNT, MULTI_HOT, TF_IDF), "TextVectorization",
                            "output_mode", allow_none=True)
        if not (ngrams is None or isinstance(ngrams, int) or
                isinstance(ngrams, tuple) and all(isinstance(i, int) for i in ngrams)):
            raise ValueError(f"`ngrams` must be None, an integer, or a tuple of integers. "
                             f"Received: ngrams={ngrams}")
        if output_mode == INT and not (isinstance(output_sequence_length, int) or
                                       output_sequence_length is None):
            raise ValueError(f"`output_sequence_length` must be either None or an integer "
                             f"when `output_mode` is 'int'. Received: "
                             f"output_sequence_length={output_sequence_length}")
        if output_mode != INT and output_sequence_length is not None:
            raise ValueError(f"`output_sequence_length` must not be set if `output_mode` is "
                             f"not 'int'. Received output_sequence_length="
                             f"{output_sequence_length}.")
        if ragged and output_mode != INT:
            raise ValueError(f"`ragged` must not be true if `output_mode` is `'int'`. "
                             f"Received: ragged={ragged} and output_mode={output_mode}")
        if ragged and output_sequence_length is not None:
            raise ValueError(f"`output_sequence_length` must not be set if ragged is True. "
                             f"Received: ragged={ragged} and "
                             f"output_sequence_length={output_sequence_length}")
        self._max_tokens = max_tokens
        self._standardize = standardize
        self._split = split
        self._ngrams_arg = ngrams
        self._ngrams = tuple(range(1, ngrams + 1)) if isinstance(ngrams, int) else ngrams
        self._ragged = ragged
        self._output_mode = output_mode
        self._output_sequence_length = output_sequence_length
        self._encoding = encoding
        self._has_input_vocabulary = kwargs.pop("has_input_vocabulary", vocabulary is not None)
        vocabulary_size = kwargs.pop("vocabulary_size", None)
        super().__init__(**kwargs)
        self._lookup_layer = StringLookup(
            max_tokens=max_tokens, vocabulary=vocabulary, idf_weights=idf_weights,
            pad_to_max_tokens=pad_to_max_tokens, mask_token="",
            output_mode=output_mode if output_mode is not None else INT, sparse=sparse,
            has_input_vocabulary=self._has_input_vocabulary, encoding=encoding,
            vocabulary_size=vocabulary_size)

    def compute_output_shape(self, input_shape):
        if self._output_mode == INT:
            return TensorShape([TensorShape(input_shape)[0], self._output_sequence_length])
        input_shape = tuple(TensorShape(input_shape).as_list())
        if self._split is None:
            if len(input_shape) <= 1:
                input_shape = input_shape + (1,)
        else:
            input_shape = input_shape + (None,)
        return self._lookup_layer.compute_output_shape(input_shape)


    def compute_output_signature(self, input_spec):
        dtype = _dtypes.int64 if self._output_mode == INT else backend.floatx()
        return TensorSpec(self.compute_output_shape(input_spec.shape), dtype)

    def update_state(self, data):
        self._lookup_layer.update_state(self._preprocess(data))

    def finalize_state(self):
        self._lookup_layer.finalize_state()

    def reset_state(self):
        self._lookup_layer.reset_state()

    def get_vocabulary(self, include_special_tokens=True):
        """The vocabulary (``""`` and ``"[UNK]"`` first unless `include_special_tokens` is
        False): a token's index in it is its index in the outputs."""
        return self._lookup_layer.get_vocabulary(include_special_tokens)

    def vocabulary_size(self):
        return self._lookup_layer.vocabulary_size()

    def set_vocabulary(self, vocabulary, idf_weights=None):
        self._lookup_layer.set_vocabulary(vocabulary, idf_weights=idf_weights)

    def get_config(self):
        config = {"max_tokens": self._lookup_layer.max_tokens,
                  "standardize": self._standardize, "split": self._split,
                  "ngrams": self._ngrams_arg, "output_mode": self._output_mode,
                  "output_sequence_length": self._output_sequence_length,
                  "pad_to_max_tokens": self._lookup_layer.pad_to_max_tokens,
                  "sparse": self._lookup_layer.sparse, "ragged": self._ragged,
                  "vocabulary": listify(self._lookup_layer.input_vocabulary),
                  "idf_weights": listify(self._lookup_layer.input_idf_weights),
                  "encoding": self._encoding, "vocabulary_size": self.vocabulary_size()}
        return {**super().get_config(), **config}

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        for key, known in (("standardize", (LOWER_AND_STRIP_PUNCTUATION, LOWER,
                                            STRIP_PUNCTUATION)), ("split", (WHITESPACE, CHARACTER))):
            if config.get(key) not in known and config.get(key) is not None:
                config[key] = serialization.deserialize_keras_object(config[key])
        return cls(**config)

    def _preprocess(self, inputs):
        return self._tokenize(self._standardized(ensure_tensor(inputs, _dtypes.string)))

    def _standardized(self, inputs):
        if self._standardize in (LOWER, LOWER_AND_STRIP_PUNCTUATION):
            inputs = string_ops.lower(inputs)
        if self._standardize in (STRIP_PUNCTUATION, LOWER_AND_STRIP_PUNCTUATION):
            inputs = string_ops.regex_replace(inputs, DEFAULT_STRIP_REGEX, "")
        if callable(self._standardize):
            inputs = self._standardize(inputs)
        return inputs

    def _tokenize(self, inputs):
        if self._split is not None:
            if inputs.shape.rank == 0:  # one string (a dataset's element): one row
                inputs = array_ops.reshape(inputs, [1])
            if inputs.shape.rank > 1:
                if inputs.shape[-1] != 1:
                    raise ValueError(f"When using `TextVectorization` to tokenize strings, the "
                                     f"input rank must be 1 or the last shape dimension must "
                                     f"be 1. Received: inputs.shape={inputs.shape} with "
                                     f"rank={inputs.shape.rank}")
                inputs = array_ops.squeeze(inputs, axis=-1)
                if inputs.shape.rank > 1 and self._split in (WHITESPACE, CHARACTER):
                    inputs = array_ops.reshape(inputs, [-1])  # (adapting on them: tokens)
            if self._split == WHITESPACE:
                inputs = _split_whitespace(inputs)
            elif self._split == CHARACTER:
                inputs = _split_characters(inputs)
            else:
                inputs = _as_sparse_rows(self._split(inputs))
        if self._ngrams is not None:
            inputs = _ngrams(_as_sparse_rows(inputs), self._ngrams)
        return inputs

    def call(self, inputs):
        inputs = ensure_tensor(inputs, _dtypes.string)
        if self._split is not None and (inputs.shape.rank or 0) > 2 and inputs.shape[-1] == 1:
            return self._call_nested(inputs)
        scalar = inputs.shape.rank == 0
        if scalar:
            inputs = array_ops.reshape(inputs, [1])
        if callable(self._standardize):  # (called once, whichever path follows)
            inputs = self._standardized(inputs)
        out = self._call_batch(inputs)
        if out is not None:
            return _first_row(out) if scalar else out
        if not callable(self._standardize):
            inputs = self._standardized(inputs)
        tokens = self._tokenize(inputs)
        if self._output_mode is None:  # (the tokens of each string, as a RaggedTensor)
            if isinstance(tokens, SparseTensor):
                tokens = _ragged_rows(tokens)
            return tokens[0] if scalar else tokens
        if isinstance(tokens, SparseTensor) and self._output_mode == INT:
            ids = self._lookup_layer(tokens)
            if self._ragged:
                rows = _ragged_rows(ids)
                return rows[0] if scalar else rows
            return self._finish(to_dense(ids), scalar)
        return self._finish(self._lookup_layer(tokens), scalar)

    def _call_nested(self, inputs):
        """Strings of rank 3 or more (the last axis 1) as TF takes them: the outputs of their
        vector, nested back in their outer axes (ids only, as TF's lookup)."""
        if self._output_mode not in (INT, None):
            raise ValueError(f"When output_mode is not `'int'`, maximum supported output rank "
                             f"is 2. Received output_mode {self._output_mode} and input shape "
                             f"{tuple(inputs.shape[:-1]) + (None,)}, which would result in "
                             f"output rank {inputs.shape.rank}.")
        outer = array_ops.shape(inputs, out_type=_dtypes.int64)[:-1]
        rows = self.call(array_ops.reshape(inputs, [-1]))
        if isinstance(rows, _ragged_class()):
            for axis in range(inputs.shape.rank - 2, 0, -1):
                rows = _ragged_class().from_uniform_row_length(rows, outer[axis])
            return rows
        nested = array_ops.reshape(rows, array_ops.concat(
            [outer, array_ops.shape(rows, out_type=_dtypes.int64)[1:]], 0))
        nested.set_shape(inputs.shape[:-1].concatenate(rows.shape[1:]))
        return nested

    def _call_batch(self, inputs):
        """The output for a batch of strings split at whitespace, computed eagerly over the
        whole batch at once (one buffer of its bytes, no string per token); None where the
        ops must run (in a graph, n-grams, other splits, or inputs of other shapes)."""
        lookup = self._lookup_layer
        if not (context.executing_eagerly() and self._split == WHITESPACE and
                self._ngrams is None and self._output_mode is not None and
                lookup.num_oov_indices == 1 and not lookup.invert):
            return None
        table = _table_value(lookup)
        if table is None:
            return None
        # (a callable has standardized `inputs` already)
        lower = self._standardize in (LOWER, LOWER_AND_STRIP_PUNCTUATION)
        strip = DEFAULT_STRIP_REGEX if self._standardize in (
            STRIP_PUNCTUATION, LOWER_AND_STRIP_PUNCTUATION) else None
        if not isinstance(inputs, EagerTensor) or inputs.dtype != _dtypes.string:
            return None
        if inputs.shape.rank == 2 and inputs.shape[-1] == 1:
            inputs = array_ops.squeeze(inputs, axis=-1)
        if inputs.shape.rank != 1:
            return None
        tokens = string_ops.whitespace_tokens(inputs.numpy().tolist(), lower, strip)
        if tokens is None:
            return None
        data, starts, lengths, counts = tokens
        lookup._ensure_known_vocab_size()
        ids = lookup_ops.find_tokens(table, data, starts, lengths,
                                     lookup._default_value)
        rows = np.repeat(np.arange(counts.size, dtype=np.int64), counts)
        if self._output_mode in (MULTI_HOT, COUNT) and not lookup.sparse:
            depth = lookup.max_tokens if lookup.pad_to_max_tokens else lookup._frozen_vocab_size
            if isinstance(depth, (int, np.integer)):  # (the counts at once, no SparseTensor)
                return from_array(dense_counts(rows, ids, counts.size, int(depth),
                                               lookup.compute_dtype,
                                               self._output_mode == MULTI_HOT))
        columns = np.arange(ids.size, dtype=np.int64) - np.repeat(np.cumsum(counts) - counts,
                                                                 counts)
        if self._output_mode != INT:
            indices = np.stack([rows, columns], axis=1)
            shape = np.array([counts.size, counts.max(initial=0)], np.int64)
            return lookup._encode(SparseTensor(from_array(indices), from_array(ids),
                                               from_array(shape)))
        ids = ids.astype(_dtypes.as_dtype(lookup.compute_dtype).as_numpy_dtype, copy=False)
        if self._ragged:
            return _ragged_class().from_row_lengths(from_array(ids), from_array(counts),
                                                    validate=False)
        width = self._output_sequence_length
        if width is None:
            width = int(counts.max(initial=0))
        dense = np.zeros((counts.size, width), ids.dtype)
        keep = columns < width
        dense.reshape(-1)[(rows * width + columns)[keep]] = ids[keep]
        return from_array(dense)

    def _finish(self, ids, scalar):
        if self._output_mode == INT and self._output_sequence_length is not None:
            length = self._output_sequence_length
            ids = ids[..., :length]
            pad = math_ops.subtract(length, array_ops.shape(ids)[-1])
            padding = array_ops.fill(array_ops.stack([array_ops.shape(ids)[0], pad]),
                                     np.zeros((), ids.dtype.as_numpy_dtype))
            ids = array_ops.concat([ids, padding], 1)
            ids.set_shape(ids.shape.as_list()[:-1] + [length])
        return _first_row(ids) if scalar else ids

    # -- saving ---------------------------------------------------------------------------------
    def save_own_variables(self, store):
        self._lookup_layer.save_own_variables(store)

    def load_own_variables(self, store):
        self._lookup_layer.load_own_variables(store)

    def save_assets(self, dir_path):
        self._lookup_layer.save_assets(dir_path)

    def load_assets(self, dir_path):
        self._lookup_layer.load_assets(dir_path)

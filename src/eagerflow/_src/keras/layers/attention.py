"""Attention layers: dot-product `Attention`, `AdditiveAttention` and `MultiHeadAttention`.

`Attention` and `AdditiveAttention` take ``[query, value]`` or
``[query, value, key]`` (``(batch, Tq, dim)`` and ``(batch, Tv, dim)``) and
the inputs' masks; `MultiHeadAttention` projects query, key and value into
heads with `EinsumDense` sub-layers and attends over any set of axes.

>>> layer = tf.keras.layers.MultiHeadAttention(num_heads=2, key_dim=3)
>>> x = np.ones((1, 4, 5), np.float32)
>>> layer(x, x).shape
TensorShape([1, 4, 5])
>>> [w.name for w in layer.weights][:2]
['multi_head_attention/query/kernel:0', 'multi_head_attention/query/bias:0']
"""
import math
import string

from eagerflow._src.backend import log as _log
from eagerflow._src.backend.api_export import export
from eagerflow._src.core import dtypes as _dtypes
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.keras import constraints, initializers, regularizers
from eagerflow._src.keras.engine.base_layer import Layer
from eagerflow._src.keras.layers.activation import Softmax
from eagerflow._src.keras.layers.core import Dropout
from eagerflow._src.keras.layers.einsum_dense import EinsumDense
from eagerflow._src.ragged.ragged_tensor import RaggedTensor
from eagerflow._src.ops import (array_ops, cast_ops, linalg_ops, math_ops, nn_ops,
                                reduction_ops)

_LETTERS = string.ascii_lowercase


def _masked_scores(scores, mask, robust=False):
    """`scores` pushed far negative where `mask` is false, so that softmax ignores them.

    The push is -1e9, or float16's lowest value for float16 scores; ``robust``
    replaces the masked scores instead of adding to them.
    """
    penalty = 65504.0 if scores.dtype == _dtypes.float16 else 1.0e9
    if robust:
        keep = mask if mask.dtype == _dtypes.bool else \
            math_ops.greater(mask, cast_ops.cast(0.5, mask.dtype))
        return array_ops.where(keep, scores, cast_ops.cast(-penalty, scores.dtype))
    return scores - penalty * (1.0 - cast_ops.cast(mask, scores.dtype))


def _causal_mask(query_length, value_length):
    """A (query_length, value_length) boolean mask, true where a query step may see a
    value step: at and before its own position."""
    rows = array_ops.expand_dims(array_ops.range(query_length), 1)
    return math_ops.greater_equal(rows, array_ops.expand_dims(array_ops.range(value_length), 0))


class BaseDenseAttention(Layer):
    """The base of `Attention` and `AdditiveAttention`: masking, softmax, dropout.

    Subclasses define `_calculate_scores(query, key)`, a ``(batch, Tq, Tv)``
    tensor. Call with ``[query, value]`` or ``[query, value, key]``; masks are
    ``[query_mask, value_mask]``: value steps masked out get no attention, query
    steps masked out give zeros.
    """

    def __init__(self, dropout=0.0, **kwargs):
        causal = kwargs.pop("causal", None)
        super().__init__(**kwargs)
        if causal is not None:
            _log.absl_logger.warning("`causal` argument is deprecated. Please use "
                                     "`use_causal_mask` in call() method to specify causal "
                                     "masking.")
        self.causal = bool(causal)
        self.dropout = dropout
        self.supports_masking = True

    def _calculate_scores(self, query, key):
        raise NotImplementedError

    def _apply_scores(self, scores, value, scores_mask=None, training=None):
        """``(softmax(scores) @ value, softmax(scores))``, masked and with dropout."""
        if scores_mask is not None:
            scores = _masked_scores(scores, scores_mask)
        weights = nn_ops.softmax(scores)
        if training and self.dropout > 0:
            weights = nn_ops.dropout(weights, rate=self.dropout)
        return linalg_ops.matmul(weights, value), weights

    def call(self, inputs, mask=None, training=None, return_attention_scores=False,
             use_causal_mask=False):
        self._validate_call_args(inputs, mask)
        query, value = inputs[0], inputs[1]
        key = inputs[2] if len(inputs) > 2 else value
        query_mask, value_mask = (mask[0], mask[1]) if mask else (None, None)
        scores = self._calculate_scores(query=query, key=key)
        scores_mask = None if value_mask is None else array_ops.expand_dims(value_mask, -2)
        if self.causal or use_causal_mask:
            shape = array_ops.shape(scores)
            causal = _causal_mask(shape[-2], shape[-1])
            scores_mask = causal if scores_mask is None else \
                math_ops.logical_and(scores_mask, causal)
        result, attention_scores = self._apply_scores(scores, value, scores_mask, training)
        if query_mask is not None:
            result = result * cast_ops.cast(array_ops.expand_dims(query_mask, -1), result.dtype)
        if return_attention_scores:
            return result, attention_scores
        return result

    def compute_mask(self, inputs, mask=None):
        self._validate_call_args(inputs, mask)
        if not mask or mask[0] is None:
            return None
        return convert_to_tensor(mask[0])

    def compute_output_shape(self, input_shape):
        # As Keras: the query's shape (the output has the value's features, which Keras's
        # shape inference leaves out, as it does the scores `return_attention_scores` adds)
        return TensorShape(input_shape[0])

    def _validate_call_args(self, inputs, mask):
        name = type(self).__name__
        if not isinstance(inputs, list):
            raise ValueError(f"{name} layer must be called on a list of inputs, namely "
                             f"[query, value] or [query, value, key]. Received: {inputs}.")
        if not 2 <= len(inputs) <= 3:
            raise ValueError(f"{name} layer accepts inputs list of length 2 or 3, namely "
                             f"[query, value] or [query, value, key]. Received length: "
                             f"{len(inputs)}.")
        if not mask:  # as Keras: a mask tensor is judged by its truth value here
            return
        if not isinstance(mask, list):
            raise ValueError(f"{name} layer mask must be a list, namely [query_mask, "
                             f"value_mask]. Received: {mask}.")
        if not 2 <= len(mask) <= len(inputs):
            raise ValueError(f"{name} layer mask must be a list of length 2, namely "
                             f"[query_mask, value_mask]. Received length: {len(mask)}.")

    def get_config(self):
        config = super().get_config()
        config["dropout"] = self.dropout
        return config


@export("keras.layers.Attention")
class Attention(BaseDenseAttention):
    """Dot-product (Luong-style) attention: ``softmax(query @ key^T) @ value``.

    ``use_scale=True`` learns a scalar multiplying the scores;
    ``score_mode='concat'`` scores with ``sum(tanh(query + key))`` instead.

    >>> query, value = np.ones((1, 2, 3), np.float32), np.ones((1, 4, 3), np.float32)
    >>> tf.keras.layers.Attention()([query, value]).shape
    TensorShape([1, 2, 3])
    """

    def __init__(self, use_scale=False, score_mode="dot", **kwargs):
        super().__init__(**kwargs)
        self.use_scale = use_scale
        self.score_mode = score_mode
        if score_mode not in ("dot", "concat"):
            raise ValueError(f'Received: score_mode={score_mode}. Acceptable values are: '
                             f'["dot", "concat"]')

    def build(self, input_shape):
        self.scale = self.add_weight("scale", shape=(), initializer="ones", dtype=self.dtype,
                                     trainable=True) if self.use_scale else None
        self.concat_score_weight = self.add_weight(
            "concat_score_weight", shape=(), initializer="ones", dtype=self.dtype,
            trainable=True) if self.score_mode == "concat" else None
        self.built = True

    def _calculate_scores(self, query, key):
        if self.score_mode == "dot":
            scores = linalg_ops.matmul(query, key, transpose_b=True)
            return scores if self.scale is None else scores * self.scale
        # (batch, Tq, 1, dim) + (batch, 1, Tv, dim) pairs every query step with every key step.
        pairs = array_ops.expand_dims(query, -2) + array_ops.expand_dims(key, -3)
        if self.scale is not None:
            pairs = self.scale * pairs
        return self.concat_score_weight * reduction_ops.reduce_sum(math_ops.tanh(pairs), -1)

    def get_config(self):
        config = super().get_config()
        config.update({"use_scale": self.use_scale, "score_mode": self.score_mode})
        return config


@export("keras.layers.AdditiveAttention")
class AdditiveAttention(BaseDenseAttention):
    """Additive (Bahdanau-style) attention: scores ``sum(scale * tanh(query + key))``.

    ``use_scale=True`` learns `scale`, one weight per feature.

    >>> query, value = np.ones((1, 2, 3), np.float32), np.ones((1, 4, 3), np.float32)
    >>> tf.keras.layers.AdditiveAttention()([query, value]).shape
    TensorShape([1, 2, 3])
    """

    def __init__(self, use_scale=True, **kwargs):
        super().__init__(**kwargs)
        self.use_scale = use_scale

    def build(self, input_shape):
        # (inputs that are not a list fail in `call`, where the error names the layer)
        value = TensorShape(input_shape[1] if isinstance(input_shape, list) else input_shape)
        self.scale = self.add_weight(
            "scale", shape=[value[-1]], initializer="glorot_uniform",
            dtype=self.dtype, trainable=True) if self.use_scale else None
        self.built = True

    def _calculate_scores(self, query, key):
        pairs = math_ops.tanh(array_ops.expand_dims(query, -2) + array_ops.expand_dims(key, -3))
        if self.scale is not None:
            pairs = self.scale * pairs
        return reduction_ops.reduce_sum(pairs, -1)

    def get_config(self):
        config = super().get_config()
        config["use_scale"] = self.use_scale
        return config


def _projection_equation(free, bound, new):
    """The EinsumDense equation keeping `free` axes, contracting `bound` axes into `new`
    ones, and its bias axes (the new ones): ``(2, 1, 2)`` -> ``('abc,cde->abde', 'de')``."""
    letters = _LETTERS[:free + bound + new]
    kept, contracted, added = letters[:free], letters[free:free + bound], letters[free + bound:]
    return f"{kept}{contracted},{contracted}{added}->{kept}{added}", added


def _attention_equations(rank, attention_axes):
    """The einsum equations ``key, query -> scores`` and ``scores, value -> output`` for
    projected tensors of `rank` (batch, ..., heads, features), and the scores' rank.

    Scores keep the axes not attended over (batch and heads among them), then
    the query's attended axes, then the key's.
    """
    target = _LETTERS[:rank]
    source = list(target)
    # (the features axis keeps its letter, as in Keras: attending over it repeats a
    # label in the scores, which einsum rejects)
    fresh = iter(_LETTERS[rank:])
    for axis in attention_axes:
        if axis != rank - 1:
            source[axis] = next(fresh)
    source = "".join(source)
    kept = [target[i] for i in range(rank - 1) if i not in attention_axes]
    scores = "".join(kept + [target[a] for a in attention_axes] +
                     [source[a] for a in attention_axes])
    return f"{source},{target}->{scores}", f"{scores},{source}->{target}", len(scores)


def _as_shape(value):
    return TensorShape(value.shape if hasattr(value, "shape") else value)


def _clone(initializer):
    """A fresh initializer of the same config, one per sub-layer."""
    return type(initializer).from_config(initializer.get_config())


@export("keras.layers.MultiHeadAttention")
class MultiHeadAttention(Layer):
    """Multi-head attention ("Attention is all you need"): `num_heads` scaled dot-product
    attentions over projections of query, key and value, projected back.

    Call with ``(query, value, key=None, attention_mask=None,
    return_attention_scores=False, training=None, use_causal_mask=False)``.
    `attention_mask` (``(batch, Tq, Tv)``, true where a query step may attend)
    is combined with the inputs' Keras masks and the causal mask. The output has
    the query's shape, or ``output_shape`` for its last axes; the scores are
    ``(batch, heads, Tq, Tv)``.

    >>> layer = tf.keras.layers.MultiHeadAttention(num_heads=2, key_dim=2)
    >>> output, scores = layer(np.ones((1, 8, 16), np.float32), np.ones((1, 4, 16), np.float32),
    ...                        return_attention_scores=True)
    >>> output.shape, scores.shape
    (TensorShape([1, 8, 16]), TensorShape([1, 2, 8, 4]))
    """

    def __init__(self, num_heads, key_dim, value_dim=None, dropout=0.0, use_bias=True,
                 output_shape=None, attention_axes=None, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, kernel_constraint=None, bias_constraint=None,
                 softmax_robust_masking=False, **kwargs):
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        self.supports_masking = True
        self._num_heads = num_heads
        self._key_dim = key_dim
        self._value_dim = value_dim if value_dim else key_dim
        self._dropout = dropout
        self._use_bias = use_bias
        self._output_shape = output_shape
        self._kernel_initializer = initializers.get(kernel_initializer)
        self._bias_initializer = initializers.get(bias_initializer)
        self._kernel_regularizer = regularizers.get(kernel_regularizer)
        self._bias_regularizer = regularizers.get(bias_regularizer)
        self._kernel_constraint = constraints.get(kernel_constraint)
        self._bias_constraint = constraints.get(bias_constraint)
        self._softmax_robust_masking = softmax_robust_masking
        if attention_axes is not None and not isinstance(attention_axes, (list, tuple)):
            attention_axes = (attention_axes,)
        self._attention_axes = attention_axes
        self._built_from_signature = False
        self._query_shape = self._key_shape = self._value_shape = None

    def get_config(self):
        config = super().get_config()
        config.update({
            "num_heads": self._num_heads, "key_dim": self._key_dim,
            "value_dim": self._value_dim, "dropout": self._dropout, "use_bias": self._use_bias,
            "output_shape": self._output_shape, "attention_axes": self._attention_axes,
            "kernel_initializer": initializers.serialize(self._kernel_initializer),
            "bias_initializer": initializers.serialize(self._bias_initializer),
            "kernel_regularizer": regularizers.serialize(self._kernel_regularizer),
            "bias_regularizer": regularizers.serialize(self._bias_regularizer),
            "activity_regularizer": regularizers.serialize(self.activity_regularizer),
            "kernel_constraint": constraints.serialize(self._kernel_constraint),
            "bias_constraint": constraints.serialize(self._bias_constraint),
            "query_shape": self._query_shape, "key_shape": self._key_shape,
            "value_shape": self._value_shape,
            "softmax_robust_masking": self._softmax_robust_masking})
        return config

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        shapes = [config.pop(k) for k in ("query_shape", "value_shape", "key_shape")]
        layer = cls(**config)
        if None not in shapes:
            layer._build_from_signature(*shapes)
        return layer

    def _build_from_signature(self, query, value, key=None):
        """Creates the projection sub-layers for inputs shaped like `query`, `value` and
        `key` (tensors or shapes); their weights come with their first call."""
        self._built_from_signature = True
        self._query_shape = _as_shape(query)
        self._value_shape = _as_shape(value)
        self._key_shape = self._value_shape if key is None else _as_shape(key)
        self._query_dense = self._projection(self._query_shape.rank, self._key_dim, "query")
        self._key_dense = self._projection(self._key_shape.rank, self._key_dim, "key")
        self._value_dense = self._projection(self._value_shape.rank, self._value_dim, "value")
        self._build_attention(self._value_shape.rank + 1)
        self._output_dense = self._make_output_dense(
            self._query_shape.rank - 1, self._get_common_kwargs_for_sublayer(),
            "attention_output")

    def _get_common_kwargs_for_sublayer(self):
        return {"kernel_initializer": _clone(self._kernel_initializer),
                "bias_initializer": _clone(self._bias_initializer),
                "kernel_regularizer": self._kernel_regularizer,
                "bias_regularizer": self._bias_regularizer,
                "activity_regularizer": self.activity_regularizer,
                "kernel_constraint": self._kernel_constraint,
                "bias_constraint": self._bias_constraint, "dtype": self._dtype_policy}

    def _projection(self, rank, size, name):
        """An EinsumDense from features (the last of `rank` axes) to (heads, `size`)."""
        equation, bias_axes = _projection_equation(rank - 1, 1, 2)
        return EinsumDense(equation, output_shape=[None] * (rank - 2) + [self._num_heads, size],
                           bias_axes=bias_axes if self._use_bias else None, name=name,
                           **self._get_common_kwargs_for_sublayer())

    def _make_output_dense(self, free_dims, common_kwargs, name=None):
        """The EinsumDense from (heads, value_dim) to `output_shape` (the query's features
        by default)."""
        output_shape = self._custom_output_dims() or [self._query_shape[-1]]
        equation, bias_axes = _projection_equation(free_dims, 2, len(output_shape))
        return EinsumDense(equation, output_shape=[None] * (free_dims - 1) + output_shape,
                           bias_axes=bias_axes if self._use_bias else None, name=name,
                           **common_kwargs)

    def _custom_output_dims(self):
        """The output's last dimensions `output_shape` asks for, as a list; None when the
        output keeps the query's features."""
        if not self._output_shape:
            return None
        if isinstance(self._output_shape, (list, tuple)):
            return list(self._output_shape)
        return [self._output_shape]

    def _build_attention(self, rank):
        """The attention equations, softmax axes and dropout for projected tensors of
        `rank`; attention runs over all axes but batch, heads and features by default."""
        self._attention_axes = (tuple(range(1, rank - 2)) if self._attention_axes is None
                                else tuple(self._attention_axes))
        for a in self._attention_axes:
            if not -rank <= a < rank:  # (an axis of the projected tensors, heads included)
                raise IndexError(f"index {a} is out of bounds for axis 0 with size {rank}")
        axes = tuple(a % rank for a in self._attention_axes)
        self._dot_product_equation, self._combine_equation, scores_rank = \
            _attention_equations(rank, axes)
        self._softmax = Softmax(axis=tuple(range(scores_rank - len(axes), scores_rank)),
                                robust_masking=self._softmax_robust_masking,
                                dtype=self._dtype_policy)
        self._dropout_layer = Dropout(rate=self._dropout, dtype=self._dtype_policy)

    def _masked_softmax(self, attention_scores, attention_mask=None):
        """The `Softmax` sub-layer over the attended key axes, ignoring key steps
        `attention_mask` hides.

        The mask lacks the heads axis (and may lack leading ones): it gains unit
        axes before its query axes until it has the scores' rank.
        """
        if attention_mask is not None:
            attention_mask = convert_to_tensor(attention_mask)
            axis = -len(self._attention_axes) * 2 - 1
            for _ in range(attention_scores.shape.rank - attention_mask.shape.rank):
                attention_mask = array_ops.expand_dims(attention_mask, axis)
        return self._softmax(attention_scores, attention_mask)

    def _compute_attention(self, query, key, value, attention_mask=None, training=None):
        """Attention of projected ``(B, T, N, key_dim)`` query over projected key and value:
        ``(output (B, T, N, value_dim), scores (B, N, T, S))``."""
        query = query * (1.0 / math.sqrt(float(self._key_dim)))
        scores = array_ops.einsum(self._dot_product_equation, key, query)
        scores = self._masked_softmax(scores, attention_mask)
        dropped = self._dropout_layer(scores, training=training)
        return array_ops.einsum(self._combine_equation, dropped, value), scores

    def call(self, query, value, key=None, attention_mask=None, return_attention_scores=False,
             training=None, use_causal_mask=False):
        if not self._built_from_signature:
            self._build_from_signature(query=query, value=value, key=key)
        if key is None:
            key = value
        # Ragged inputs are padded with zeros (as Keras does, without masking the padding);
        # a ragged query's output takes its row lengths back.
        query_lengths = None
        if isinstance(query, RaggedTensor):
            query_lengths = query.nested_row_lengths()
            query = query.to_tensor()
        if isinstance(key, RaggedTensor) and isinstance(value, RaggedTensor):
            bounding = math_ops.maximum(key.bounding_shape(), value.bounding_shape())
            key, value = key.to_tensor(shape=bounding), value.to_tensor(shape=bounding)
        elif isinstance(key, RaggedTensor):
            key = key.to_tensor(shape=array_ops.shape(value))
        elif isinstance(value, RaggedTensor):
            value = value.to_tensor(shape=array_ops.shape(key))
        attention_mask = self._compute_attention_mask(
            query, value, key=key, attention_mask=attention_mask,
            use_causal_mask=use_causal_mask)
        output, scores = self._compute_attention(
            self._query_dense(query), self._key_dense(key), self._value_dense(value),
            attention_mask, training)
        output = self._output_dense(output)
        if query_lengths is not None:
            output = RaggedTensor.from_tensor(output, lengths=query_lengths)
        if return_attention_scores:
            return output, scores
        return output

    def _compute_attention_mask(self, query, value, key=None, attention_mask=None,
                                use_causal_mask=False):
        """`attention_mask` AND the masks the inputs carry AND (optionally) the causal mask.

        A query mask ``(B, T)`` becomes ``(B, T, 1)``, value and key masks ``(B, S)``
        become ``(B, 1, S)``, the causal mask is ``(1, T, S)``.
        """
        masks = []
        for tensor, axis in ((query, 2), (value, 1), (key, 1)):
            mask = getattr(tensor, "_keras_mask", None)
            if mask is not None:
                masks.append(array_ops.expand_dims(cast_ops.cast(mask, "bool"), axis))
        if use_causal_mask:
            masks.append(self._compute_causal_mask(query, value))
        if not masks:
            return attention_mask
        if attention_mask is not None:
            masks.insert(0, cast_ops.cast(attention_mask, "bool"))
        combined = masks[0]
        for mask in masks[1:]:
            combined = math_ops.logical_and(combined, mask)
        return combined

    def _compute_causal_mask(self, query, value=None):
        """The ``(1, T, S)`` mask letting query step i see value steps up to i."""
        query_length = array_ops.shape(query)[1]
        value_length = query_length if value is None else array_ops.shape(value)[1]
        return array_ops.expand_dims(_causal_mask(query_length, value_length), 0)

    def compute_output_shape(self, query_shape, value_shape, key_shape=None):
        query_shape, value_shape = TensorShape(query_shape), TensorShape(value_shape)
        key_shape = value_shape if key_shape is None else TensorShape(key_shape)
        if query_shape[-1] != value_shape[-1]:
            raise ValueError(f"The last dimension of `query_shape` and `value_shape` must be "
                             f"equal, but are {query_shape[-1]}, {value_shape[-1]}. Received: "
                             f"query_shape={query_shape}, value_shape={value_shape}")
        if value_shape[1:-1] != key_shape[1:-1]:
            raise ValueError(f"All dimensions of `value` and `key`, except the last one, must "
                             f"be equal. Received {value_shape} and {key_shape}")
        dims = self._custom_output_dims()
        return query_shape if dims is None else query_shape[:-1].concatenate(dims)

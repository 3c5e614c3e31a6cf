"""Category preprocessing layers: `CategoryEncoding`, `Hashing`, `HashedCrossing` and
`Discretization` (tf_keras's semantics and hash values).

>>> tf.keras.layers.CategoryEncoding(num_tokens=3, output_mode="one_hot")(
...     tf.constant([2, 0])).numpy()
array([[0., 0., 1.],
       [1., 0., 0.]], dtype=float32)
>>> tf.keras.layers.Discretization(bin_boundaries=[0.0, 1.0])(tf.constant([-1.0, 0.5, 2.0]))
<tf.Tensor: shape=(3,), dtype=int64, numpy=array([0, 1, 2])>
"""
import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import dtypes as _dtypes
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.core.tensor_spec import TensorSpec
from eagerflow._src.keras import backend
from eagerflow._src.keras.engine.base_layer import Layer
from eagerflow._src.keras.layers.preprocessing_lookup import (
    COUNT, INT, MULTI_HOT, ONE_HOT, _EagerPreprocessingLayer, _is_ragged,
    compute_shape_for_encode_categorical, encode_categorical_inputs, ensure_tensor, listify,
    validate_string_arg)
from eagerflow._src.ops import (array_ops, cast_ops, debugging_ops, fingerprint_ops, math_ops,
                                reduction_ops, sparse_ops, string_ops)
from eagerflow._src.ops.sparse_tensor import SparseTensor, SparseTensorSpec


def _output_dtype(kwargs, output_mode):
    """tf_keras's default dtype: int64 for indices, floatx for vectors (a float dtype given
    with ``output_mode="int"`` becomes int64)."""
    if kwargs.get("dtype") is None:
        kwargs["dtype"] = _dtypes.int64 if output_mode == INT else backend.floatx()
    elif output_mode == INT and not _dtypes.as_dtype(kwargs["dtype"]).is_integer:
        kwargs["dtype"] = _dtypes.int64


def _output_spec(sparse, shape, dtype):
    """The spec of an output of `shape` and `dtype`, a sparse one if `sparse`. (Which
    layers declare sparse outputs is Keras's: by the layer's `sparse`, its inputs' or both.)"""
    return SparseTensorSpec(shape, dtype) if sparse else TensorSpec(shape, dtype)


@export("keras.layers.CategoryEncoding",
        "keras.layers.experimental.preprocessing.CategoryEncoding")
class CategoryEncoding(Layer):
    """Integer ids in ``[0, num_tokens)`` as ``"one_hot"``, ``"multi_hot"`` or ``"count"``
    vectors (``count_weights`` weighs the counts)."""

    def __init__(self, num_tokens=None, output_mode="multi_hot", sparse=False, **kwargs):
        if "max_tokens" in kwargs:
            num_tokens = kwargs.pop("max_tokens")
        kwargs.setdefault("dtype", backend.floatx())
        super().__init__(**kwargs)
        if output_mode == "binary":
            output_mode = MULTI_HOT
        validate_string_arg(output_mode, (COUNT, ONE_HOT, MULTI_HOT), "CategoryEncoding",
                            "output_mode")
        if num_tokens is None:
            raise ValueError("num_tokens must be set to use this layer. If the number of tokens "
                             "is not known beforehand, use the IntegerLookup layer instead.")
        if num_tokens < 1:
            raise ValueError(f"`num_tokens` must be >= 1. Received: num_tokens={num_tokens}.")
        self.num_tokens = num_tokens
        self.output_mode = output_mode
        self.sparse = sparse

    def compute_output_shape(self, input_shape):
        return compute_shape_for_encode_categorical(TensorShape(input_shape).as_list(),
                                                    self.output_mode, self.num_tokens)

    def compute_output_signature(self, input_spec):
        # (int64 as Keras declares it, whatever the layer's float output)
        return _output_spec(self.sparse, self.compute_output_shape(input_spec.shape),
                            _dtypes.int64)

    def get_config(self):
        return {**super().get_config(), "num_tokens": self.num_tokens,
                "output_mode": self.output_mode, "sparse": self.sparse}

    def call(self, inputs, count_weights=None):
        inputs = ensure_tensor(inputs)
        if count_weights is not None:
            if self.output_mode != COUNT:
                raise ValueError(f"`count_weights` is not used when `output_mode` is not "
                                 f"`'count'`. Received `count_weights={count_weights}`.")
            count_weights = ensure_tensor(count_weights, _dtypes.as_dtype(self.compute_dtype))
        values = inputs.values if isinstance(inputs, SparseTensor) else inputs
        in_range = math_ops.logical_and(
            math_ops.greater(cast_ops.cast(self.num_tokens, values.dtype),
                             reduction_ops.reduce_max(values)),
            math_ops.greater_equal(reduction_ops.reduce_min(values),
                                   cast_ops.cast(0, values.dtype)))
        debugging_ops.Assert(in_range, [f"Input values must be in the range 0 <= values < "
                                        f"num_tokens with num_tokens={self.num_tokens}"])
        return encode_categorical_inputs(inputs, output_mode=self.output_mode,
                                         depth=self.num_tokens, dtype=self.compute_dtype,
                                         sparse=self.sparse, count_weights=count_weights)


@export("keras.layers.Hashing", "keras.layers.experimental.preprocessing.Hashing")
class Hashing(Layer):
    """Hashes strings or integers into `num_bins` bins: FarmHash (TF's
    `strings.to_hash_bucket_fast`) or, with a `salt`, keyed SipHash; integers hash by their
    decimal text. With `mask_value`, that value maps to bin 0 and the others to ``[1,
    num_bins)``."""

    def __init__(self, num_bins, mask_value=None, salt=None, output_mode="int", sparse=False,
                 **kwargs):
        if num_bins is None or num_bins <= 0:
            raise ValueError(f"The `num_bins` for `Hashing` cannot be `None` or non-positive "
                             f"values. Received: num_bins={num_bins}.")
        _output_dtype(kwargs, output_mode)
        super().__init__(**kwargs)
        validate_string_arg(output_mode, (INT, ONE_HOT, MULTI_HOT, COUNT), type(self).__name__,
                            "output_mode")
        if sparse and output_mode == INT:
            raise ValueError(f'`sparse` may only be true if `output_mode` is `"one_hot"`, '
                             f'`"multi_hot"`, or `"count"`. Received: sparse={sparse} and '
                             f'output_mode={output_mode}')
        self.num_bins = num_bins
        self.mask_value = mask_value
        self.strong_hash = salt is not None
        self.output_mode = output_mode
        self.sparse = sparse
        self.salt = None
        if salt is not None:
            if isinstance(salt, (tuple, list)) and len(salt) == 2:
                self.salt = salt
            elif isinstance(salt, int):
                self.salt = [salt, salt]
            else:
                raise ValueError(f"The `salt` argument for `Hashing` can only be a tuple of "
                                 f"size 2 integers, or a single integer. Received: salt={salt}.")

    def __call__(self, *args, **kwargs):
        if args and isinstance(args[0], (list, tuple, np.ndarray)):
            args = (ensure_tensor(args[0]),) + args[1:]
        return super().__call__(*args, **kwargs)

    def call(self, inputs):
        inputs = ensure_tensor(inputs)
        if isinstance(inputs, SparseTensor):
            indices = inputs.with_values(self._hash_values_to_bins(inputs.values))
        else:
            indices = self._hash_values_to_bins(inputs)
        return encode_categorical_inputs(indices, output_mode=self.output_mode,
                                         depth=self.num_bins, sparse=self.sparse,
                                         dtype=self.compute_dtype)

    def _hash_values_to_bins(self, values):
        bins = self.num_bins
        mask = None
        if self.mask_value is not None and bins > 1:
            bins -= 1
            mask = math_ops.equal(values, self.mask_value)
        if values.dtype.is_integer:
            values = string_ops.as_string(values)
        if self.strong_hash:
            values = fingerprint_ops.to_hash_bucket_strong(values, bins, key=self.salt)
        else:
            values = fingerprint_ops.to_hash_bucket_fast(values, bins)
        if mask is not None:
            values = array_ops.where(mask, array_ops.zeros_like(values),
                                     math_ops.add(values, np.int64(1)))
        return values

    def compute_output_shape(self, input_shape):
        return input_shape


    def compute_output_signature(self, input_spec):
        return _output_spec(isinstance(input_spec, SparseTensorSpec),
                            self.compute_output_shape(input_spec.shape), self.compute_dtype)

    def get_config(self):
        return {**super().get_config(), "num_bins": self.num_bins, "salt": self.salt,
                "mask_value": self.mask_value, "output_mode": self.output_mode,
                "sparse": self.sparse}


@export("keras.layers.HashedCrossing",
        "keras.layers.experimental.preprocessing.HashedCrossing")
class HashedCrossing(Layer):
    """Crosses two or more categorical features (strings or integers, one value per sample)
    by hashing each combination into `num_bins` bins, as `sparse.cross_hashed`."""

    def __init__(self, num_bins, output_mode="int", sparse=False, **kwargs):
        _output_dtype(kwargs, output_mode)
        super().__init__(**kwargs)
        # (unlike the other categorical layers, TF's takes `sparse` with "int" and gives
        # dense indices)
        validate_string_arg(output_mode, (INT, ONE_HOT), type(self).__name__, "output_mode")
        self.num_bins = num_bins
        self.output_mode = output_mode
        self.sparse = sparse

    def __call__(self, inputs, *args, **kwargs):
        if isinstance(inputs, (list, tuple)):
            inputs = type(inputs)(ensure_tensor(x) if isinstance(x, (list, tuple, np.ndarray))
                                  else x for x in inputs)
        return super().__call__(inputs, *args, **kwargs)

    def call(self, inputs):
        self._check_at_least_two_inputs(inputs)
        inputs = [ensure_tensor(x) for x in inputs]
        self._check_input_shape_and_type(inputs)
        rank = inputs[0].shape.rank
        if rank < 2:
            inputs = [array_ops.expand_dims(x, -1) for x in inputs]
        if rank < 1:
            inputs = [array_ops.expand_dims(x, -1) for x in inputs]
        outputs = sparse_ops.to_dense(sparse_ops.cross_hashed(inputs, self.num_bins))
        if rank == 2:
            outputs = array_ops.reshape(outputs, [-1, 1])
        elif rank == 1:
            outputs = array_ops.reshape(outputs, [-1])
        elif rank == 0:
            outputs = array_ops.reshape(outputs, [])
        return encode_categorical_inputs(outputs, output_mode=self.output_mode,
                                         depth=self.num_bins, sparse=self.sparse,
                                         dtype=self.compute_dtype)

    def compute_output_shape(self, input_shapes):
        self._check_at_least_two_inputs(input_shapes)
        return compute_shape_for_encode_categorical(TensorShape(input_shapes[0]).as_list(),
                                                    self.output_mode, self.num_bins)


    def compute_output_signature(self, input_specs):
        sparse = self.sparse or any(isinstance(x, SparseTensorSpec) for x in input_specs)
        return _output_spec(sparse, self.compute_output_shape([x.shape for x in input_specs]),
                            self.compute_dtype)

    def get_config(self):
        return {**super().get_config(), "num_bins": self.num_bins,
                "output_mode": self.output_mode, "sparse": self.sparse}

    def _check_at_least_two_inputs(self, inputs):
        if not isinstance(inputs, (list, tuple)):
            raise ValueError(f"`HashedCrossing` should be called on a list or tuple of inputs. "
                             f"Received: inputs={inputs}")
        if len(inputs) < 2:
            raise ValueError(f"`HashedCrossing` should be called on at least two inputs. "
                             f"Received: inputs={inputs}")

    def _check_input_shape_and_type(self, inputs):
        first_shape = inputs[0].shape.as_list()
        rank = len(first_shape)
        if rank > 2 or (rank == 2 and first_shape[-1] != 1):
            raise ValueError(f"All `HashedCrossing` inputs should have shape `[]`, "
                             f"`[batch_size]` or `[batch_size, 1]`. Received: inputs={inputs}")
        if not all(x.shape.as_list() == first_shape for x in inputs[1:]):
            raise ValueError(f"All `HashedCrossing` inputs should have equal shape. Received: "
                             f"inputs={inputs}")
        if any(isinstance(x, SparseTensor) for x in inputs):
            raise ValueError(f"All `HashedCrossing` inputs should be dense tensors. Received: "
                             f"inputs={inputs}")
        if not all(x.dtype.is_integer or x.dtype == _dtypes.string for x in inputs):
            raise ValueError(f"All `HashedCrossing` inputs should have an integer or string "
                             f"dtype. Received: inputs={inputs}")


# -- Discretization: approximate quantiles, merged batch by batch as tf_keras does -------------

def _summarize(values, epsilon):
    # TF's sort, which leaves a NaN where its sorting network puts it (not last as NumPy's)
    values = reduction_ops.sort(np.asarray(values, np.float32).reshape(-1)).numpy()
    increment = int(np.float32(values.size) / np.float32(1.0 / epsilon))
    step = max(increment, 1)
    boundaries = values[increment::step]
    return np.stack([boundaries, np.full(boundaries.shape, step, np.float32)])


def _compress(summary, epsilon):
    if summary.shape[1] * epsilon < 1:
        return summary
    percents = epsilon + np.arange(0.0, 1.0, epsilon)
    cum_weights = summary[1].cumsum()
    cum_percents = cum_weights / cum_weights[-1]
    new_bins = np.interp(percents, cum_percents, summary[0])
    cum_weights = np.interp(percents, cum_percents, cum_weights)
    new_weights = cum_weights - np.concatenate((np.array([0]), cum_weights[:-1]))
    return np.stack((new_bins, new_weights)).astype(np.float32)


def _merge(prev, new, epsilon):
    merged = np.concatenate((prev, new), axis=1)
    merged = merged[:, reduction_ops.argsort(merged[0]).numpy()]
    return _compress(merged, epsilon)


@export("keras.layers.Discretization",
        "keras.layers.experimental.preprocessing.Discretization")
class Discretization(_EagerPreprocessingLayer):
    """Buckets numbers by `bin_boundaries` (bucket i holds ``boundaries[i-1] <= x <
    boundaries[i]``), given or learned by `adapt` as `num_bins` approximate quantiles
    (within `epsilon`)."""

    _adapt_batch_size = 32  # (the approximate quantiles depend on the batches)

    def __init__(self, bin_boundaries=None, num_bins=None, epsilon=0.01, output_mode="int",
                 sparse=False, **kwargs):
        if "bins" in kwargs:
            bin_boundaries = kwargs.pop("bins")
        _output_dtype(kwargs, output_mode)
        super().__init__(**kwargs)
        if output_mode == INT and not _dtypes.as_dtype(self.compute_dtype).is_integer:
            raise ValueError(f"When `output_mode='int'`, `dtype` should be an integer type. "
                             f"Received: dtype={kwargs['dtype']}")
        validate_string_arg(output_mode, (INT, ONE_HOT, MULTI_HOT, COUNT), type(self).__name__,
                            "output_mode")
        if sparse and output_mode == INT:
            raise ValueError(f"`sparse` may only be true if `output_mode` is `'one_hot'`, "
                             f"`'multi_hot'`, or `'count'`. Received: sparse={sparse} and "
                             f"output_mode={output_mode}")
        if num_bins is not None and num_bins < 0:
            raise ValueError(f"`num_bins` must be greater than or equal to 0. You passed "
                             f"`num_bins={num_bins}`")
        if num_bins is not None and bin_boundaries is not None:
            raise ValueError(f"Both `num_bins` and `bin_boundaries` should not be set. You "
                             f"passed `num_bins={num_bins}` and "
                             f"`bin_boundaries={bin_boundaries}`")
        bin_boundaries = listify(bin_boundaries)
        self.input_bin_boundaries = bin_boundaries
        self.bin_boundaries = bin_boundaries if bin_boundaries is not None else []
        self.num_bins = num_bins
        self.epsilon = epsilon
        self.output_mode = output_mode
        self.sparse = sparse

    def build(self, input_shape):
        super().build(input_shape)
        if self.input_bin_boundaries is not None:
            return
        # the quantile summary `adapt` learns (bins, then their weights), saved with the layer
        self.summary = self.add_weight(name="summary", shape=(2, None), dtype=_dtypes.float32,
                                       initializer=lambda shape, dtype: [[], []],
                                       trainable=False)

    def update_state(self, data):
        if self.input_bin_boundaries is not None:
            raise ValueError(f"Cannot adapt a Discretization layer that has been initialized "
                             f"with `bin_boundaries`, use `num_bins` instead. You passed "
                             f"`bin_boundaries={self.input_bin_boundaries}`.")
        if not self.built:
            raise RuntimeError("`build` must be called before `update_state`.")
        summary = _summarize(np.asarray(data, np.float32), self.epsilon)
        self.summary.assign(_merge(summary, self.summary.numpy(), self.epsilon))

    def finalize_state(self):
        if self.input_bin_boundaries is not None or not self.built:
            return
        self.bin_boundaries = _compress(self.summary.numpy(),
                                        1.0 / self.num_bins)[0, :-1].tolist()

    def reset_state(self):
        if self.input_bin_boundaries is not None or not self.built:
            return
        self.summary.assign(np.zeros((2, 0), np.float32))

    def get_config(self):
        return {**super().get_config(), "bin_boundaries": self.input_bin_boundaries,
                "num_bins": self.num_bins, "epsilon": self.epsilon,
                "output_mode": self.output_mode, "sparse": self.sparse}

    def compute_output_shape(self, input_shape):
        return input_shape


    def compute_output_signature(self, input_spec):
        return _output_spec(isinstance(input_spec, SparseTensorSpec),
                            self.compute_output_shape(input_spec.shape), self.compute_dtype)

    def _bucketize(self, values):
        return math_ops.bucketize(values, self.bin_boundaries)

    def call(self, inputs):
        inputs = ensure_tensor(inputs)
        if isinstance(inputs, SparseTensor):
            indices = inputs.with_values(self._bucketize(inputs.values))
        elif _is_ragged(inputs):
            indices = inputs.with_flat_values(self._bucketize(inputs.flat_values))
        else:
            indices = self._bucketize(inputs)
        return encode_categorical_inputs(indices, output_mode=self.output_mode,
                                         depth=len(self.bin_boundaries) + 1, sparse=self.sparse,
                                         dtype=self.compute_dtype)

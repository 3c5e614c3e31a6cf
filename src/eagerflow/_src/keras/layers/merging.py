"""Merge layers: combine a list of tensors into one (Add, Multiply, Concatenate, Dot, ...).

Elementwise merges broadcast as Keras does: the batch axes line up, and an
input of lower rank gains unit axes right after its batch axis, so
``(batch, 3)`` merges with ``(batch, 4, 3)``. The output mask is the logical
AND of the inputs' masks.

>>> tf.keras.layers.Add()([np.ones((2, 3), np.float32), np.ones((2, 4, 3), np.float32)]).shape
TensorShape([2, 4, 3])
>>> tf.keras.layers.concatenate([np.zeros((1, 2)), np.ones((1, 1))]).numpy()
array([[0., 0., 1.]], dtype=float32)
"""
from eagerflow._src.backend.api_export import export
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.keras import backend
from eagerflow._src.keras.engine.base_layer import Layer
from eagerflow._src.ops import array_ops, math_ops, reduction_ops

_NOT_A_LIST = "A merge layer should be called on a list of inputs. "


def _printable(shape):
    """`shape` (or a list of shapes) with TensorShapes as tuples, as Keras prints them."""
    if isinstance(shape, TensorShape):
        return None if shape.rank is None else tuple(shape.as_list())
    if isinstance(shape, (list, tuple)):
        return type(shape)(_printable(s) for s in shape)
    return shape


def _shape_list(input_shape):
    """The input shapes as tuples (None for an unknown rank), or None when `input_shape`
    is a single shape rather than a list of them."""
    if isinstance(input_shape, TensorShape) or not isinstance(input_shape, (list, tuple)) or \
            not all(isinstance(s, TensorShape) or isinstance(s, (list, tuple)) and not any(
                isinstance(d, (TensorShape, list, tuple)) for d in s) for s in input_shape):
        return None  # (a list of lists of shapes: the inputs were lists of scalars)
    return [_printable(TensorShape(s)) for s in input_shape]


def _expand_after_batch(x, count):
    for _ in range(count):
        x = array_ops.expand_dims(x, 1)
    return x


def _rotate(x, batch_last):
    """`x` with its batch (first) axis moved last, or (not `batch_last`) moved back."""
    rank = x.shape.rank
    if rank is not None:
        if rank <= 1:
            return x
        return array_ops.transpose(
            x, [*range(1, rank), 0] if batch_last else [rank - 1, *range(rank - 1)])
    # A rank known only at run time: transpose x as a (batch, rest) matrix instead.
    shape = array_ops.shape(x)
    if batch_last:
        matrix, rotated = array_ops.stack([shape[0], -1]), [shape[1:], shape[:1]]
    else:
        matrix, rotated = array_ops.stack([-1, shape[-1]]), [shape[-1:], shape[:-1]]
    x = array_ops.transpose(array_ops.reshape(x, matrix), [1, 0])
    return array_ops.reshape(x, array_ops.concat(rotated, 0))


def _check_mask_list(inputs, mask):
    if not isinstance(mask, (tuple, list)):
        raise ValueError(f"`mask` should be a list. Received: mask={mask}")
    if not isinstance(inputs, (tuple, list)):
        raise ValueError(f"`inputs` should be a list. Received: inputs={inputs}")
    if len(mask) != len(inputs):
        raise ValueError(f"The lists `inputs` and `mask` should have the same length. "
                         f"Received: inputs={inputs} of length {len(inputs)}, and "
                         f"mask={mask} of length {len(mask)}")


class _Merge(Layer):
    """The base of elementwise merges: subclasses define `_merge_function(inputs)`.

    `build` checks the inputs' shapes; `call` lines up inputs of different
    ranks before merging them.
    """

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True
        self._reshape_required = False

    def _merge_function(self, inputs):
        raise NotImplementedError

    def _compute_elemwise_op_output_shape(self, shape1, shape2):
        """The shape of an elementwise op on shapes aligned at their ends (None: unknown)."""
        if shape1 is None or shape2 is None:
            return None
        if len(shape1) < len(shape2):
            shape1, shape2 = shape2, shape1
        if not shape2:
            return tuple(shape1)
        output = list(shape1[:len(shape1) - len(shape2)])
        for i, j in zip(shape1[len(shape1) - len(shape2):], shape2):
            if i is None or j is None:
                output.append(None)
            elif i == 1 or j == 1:
                output.append(j if i == 1 else i)
            elif i != j:
                raise ValueError(f"Inputs have incompatible shapes. Received shapes {shape1} "
                                 f"and {shape2}")
            else:
                output.append(i)
        return tuple(output)

    def _checked_shapes(self, input_shape):
        """The inputs' shapes and the output's shape past the batch axis, after checks."""
        shapes = _shape_list(input_shape)
        if shapes is None:
            raise ValueError(f"{_NOT_A_LIST}Received: input_shape={_printable(input_shape)} "
                             f"(not a list of shapes)")
        if not shapes:
            raise ValueError(f"A merge layer should be called on a list of at least 1 input. "
                             f"Got 0 inputs. Full input_shape received: {shapes}")
        if len({s[0] for s in shapes if s} - {None}) > 1:
            raise ValueError(f"Cannot merge tensors with different batch sizes. Got tensors "
                             f"with shapes {shapes}")
        output = None if shapes[0] is None else shapes[0][1:]
        for shape in shapes[1:]:
            output = self._compute_elemwise_op_output_shape(
                output, None if shape is None else shape[1:])
        return shapes, output

    def build(self, input_shape):
        shapes, _ = self._checked_shapes(input_shape)
        self._reshape_required = None in shapes or len({len(s) for s in shapes}) > 1
        self.built = True

    def call(self, inputs):
        if not isinstance(inputs, (list, tuple)):
            raise ValueError(f"{_NOT_A_LIST}Received: inputs={inputs} (not a list of tensors)")
        if not self._reshape_required:
            return self._merge_function(inputs)
        ranks = [x.shape.rank for x in inputs]
        if None not in ranks:
            # Unit axes after the batch axis bring every input to the highest rank.
            top = max(ranks)
            return self._merge_function([_expand_after_batch(x, top - r)
                                         for x, r in zip(inputs, ranks)])
        # An unknown rank: with the batch axis last, right-aligned broadcasting lines
        # the batch axes up and the others as above.
        return _rotate(self._merge_function([_rotate(x, True) for x in inputs]), False)

    def compute_output_shape(self, input_shape):
        shapes, output = self._checked_shapes(input_shape)
        if output is None:
            return TensorShape(None)
        batch = {s[0] for s in shapes if s is not None} - {None}
        return TensorShape(((batch.pop() if len(batch) == 1 else None),) + output)

    def compute_mask(self, inputs, mask=None):
        if mask is None:
            return None
        _check_mask_list(inputs, mask)
        masks = [m for m in mask if m is not None]
        if not masks:
            return None
        return reduction_ops.reduce_all(array_ops.stack(masks, 0), axis=0)


@export("keras.layers.Add")
class Add(_Merge):
    """Adds a list of tensors elementwise.

    >>> tf.keras.layers.Add()([np.ones((1, 2)), np.ones((1, 2))]).numpy()
    array([[2., 2.]], dtype=float32)
    """

    def _merge_function(self, inputs):
        output = inputs[0]
        for x in inputs[1:]:
            output += x  # (as tf_keras: a variable first refuses it)
        return output


@export("keras.layers.Subtract")
class Subtract(_Merge):
    """Subtracts the second of two tensors from the first.

    >>> tf.keras.layers.Subtract()([np.ones((1, 2)), np.ones((1, 2))]).numpy()
    array([[0., 0.]], dtype=float32)
    """

    def build(self, input_shape):
        super().build(input_shape)
        if len(input_shape) != 2:
            raise ValueError(f"A `Subtract` layer should be called on exactly 2 inputs. "
                             f"Received: input_shape={_printable(input_shape)}")

    def _merge_function(self, inputs):
        if len(inputs) != 2:
            raise ValueError(f"A `Subtract` layer should be called on exactly 2 inputs. "
                             f"Received: inputs={inputs}")
        return inputs[0] - inputs[1]


@export("keras.layers.Multiply")
class Multiply(_Merge):
    """Multiplies a list of tensors elementwise.

    >>> tf.keras.layers.Multiply()([np.full((1, 2), 2.0), np.full((1, 2), 3.0)]).numpy()
    array([[6., 6.]], dtype=float32)
    """

    def _merge_function(self, inputs):
        output = inputs[0]
        for x in inputs[1:]:
            output = output * x
        return output


@export("keras.layers.Average")
class Average(_Merge):
    """The elementwise mean of a list of tensors (integers give float64, as `/` does).

    >>> tf.keras.layers.Average()([np.ones((1, 2)), np.zeros((1, 2))]).numpy()
    array([[0.5, 0.5]], dtype=float32)
    """

    def _merge_function(self, inputs):
        output = inputs[0]
        for x in inputs[1:]:
            output += x
        return output / len(inputs)


@export("keras.layers.Maximum")
class Maximum(_Merge):
    """The elementwise maximum of a list of tensors.

    >>> tf.keras.layers.Maximum()([np.array([[1.0, 4.0]]), np.array([[3.0, 2.0]])]).numpy()
    array([[3., 4.]], dtype=float32)
    """

    def _merge_function(self, inputs):
        output = inputs[0]
        for x in inputs[1:]:
            output = math_ops.maximum(output, x)
        return output


@export("keras.layers.Minimum")
class Minimum(_Merge):
    """The elementwise minimum of a list of tensors.

    >>> tf.keras.layers.Minimum()([np.array([[1.0, 4.0]]), np.array([[3.0, 2.0]])]).numpy()
    array([[1., 2.]], dtype=float32)
    """

    def _merge_function(self, inputs):
        output = inputs[0]
        for x in inputs[1:]:
            output = math_ops.minimum(output, x)
        return output


@export("keras.layers.Concatenate")
class Concatenate(_Merge):
    """Joins a list of tensors along `axis`; their other axes must match.

    >>> tf.keras.layers.Concatenate(axis=1)([np.zeros((2, 2, 5)), np.ones((2, 1, 5))]).shape
    TensorShape([2, 3, 5])
    """

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.axis = axis

    def build(self, input_shape):
        shapes = _shape_list(input_shape)
        if not shapes:
            raise ValueError(f"A `Concatenate` layer should be called on a list of at least "
                             f"1 input. Received: input_shape={_printable(input_shape)}")
        known = [list(s) for s in shapes if s is not None]
        for shape in known:
            del shape[self.axis]
        message = (f"A `Concatenate` layer requires inputs with matching shapes except for "
                   f"the concatenation axis. Received: input_shape={shapes}")
        if len({len(s) for s in known}) > 1:
            raise ValueError(message)
        # Unknown sizes match any size.
        for sizes in zip(*known):
            if len(set(sizes) - {None}) > 1:
                raise ValueError(message)
        self.built = True

    def _merge_function(self, inputs):
        return backend.concatenate(inputs, axis=self.axis)  # (SparseTensors too)

    def compute_output_shape(self, input_shape):
        shapes = _shape_list(input_shape)
        if shapes is None:
            raise ValueError(f"A `Concatenate` layer should be called on a list of inputs. "
                             f"Received: input_shape={_printable(input_shape)}")
        output = list(shapes[0])
        sizes = [s[self.axis] for s in shapes]
        output[self.axis] = None if None in sizes else sum(sizes)
        return TensorShape(output)

    def compute_mask(self, inputs, mask=None):
        if mask is None:
            return None
        _check_mask_list(inputs, mask)
        if all(m is None for m in mask):
            return None
        # Each mask spreads over its input's full shape (all true for an unmasked input), so
        # that the masks concatenate like the inputs along any axis.
        masks = []
        for x, m in zip(inputs, mask):
            full = array_ops.ones_like(x, dtype="bool")
            if m is not None:
                full = math_ops.logical_and(
                    full, array_ops.expand_dims(m, -1) if m.shape.rank < x.shape.rank else m)
            masks.append(full)
        return reduction_ops.reduce_all(array_ops.concat(masks, axis=self.axis), axis=-1)

    def get_config(self):
        config = super().get_config()
        config["axis"] = self.axis
        return config


def _batch_dot(x, y, axes):
    """Per-sample dot products of `x` and `y` over `axes` (Keras's ``batch_dot``).

    The result has the batch axis, then `x`'s other axes, then `y`'s; it is
    ``(batch, 1)`` when both inputs are matrices.
    """
    x_shape, y_shape = _printable(x.shape), _printable(y.shape)
    if len(x_shape) < 2 or len(y_shape) < 2:
        raise ValueError(f"Cannot do batch_dot on inputs with rank < 2. Received inputs with "
                         f"shapes {x_shape} and {y_shape}.")
    if None not in (x_shape[0], y_shape[0]) and x_shape[0] != y_shape[0]:
        raise ValueError(f"Cannot do batch_dot on inputs with different batch sizes. "
                         f"Received inputs with shapes {x_shape} and {y_shape}.")
    a, b = axes
    if 0 in axes:
        raise ValueError("Cannot perform batch_dot over axis 0. If your inputs are not "
                         "batched, add a dummy batch dimension to your inputs using "
                         "K.expand_dims(x, 0)")
    if None not in (x_shape[a], y_shape[b]) and x_shape[a] != y_shape[b]:
        raise ValueError(f"Cannot do batch_dot on inputs with shapes {x_shape} and "
                         f"{y_shape} with axes={list(axes)}. x.shape[{a}] != y.shape[{b}] "
                         f"({x_shape[a]} != {y_shape[b]}).")
    letters = iter("abcdefghijklmnopqrstuvwxyz")
    x_labels = [next(letters) for _ in x_shape]
    y_labels = [x_labels[0]] + [next(letters) for _ in y_shape[1:]]
    y_labels[b] = x_labels[a]
    kept = [x_labels[0]] + [c for i, c in enumerate(x_labels) if i not in (0, a)] + \
        [c for i, c in enumerate(y_labels) if i not in (0, b)]
    output = array_ops.einsum(f"{''.join(x_labels)},{''.join(y_labels)}->{''.join(kept)}",
                              x, y)
    return array_ops.expand_dims(output, -1) if len(kept) == 1 else output


@export("keras.layers.Dot")
class Dot(_Merge):
    """Per-sample dot products of two tensors along `axes` (an int or one axis per input).

    With ``normalize=True`` the inputs are L2-normalized first, giving cosine
    similarities.

    >>> tf.keras.layers.Dot(axes=1)([np.array([[1.0, 2.0]]), np.array([[3.0, 4.0]])]).numpy()
    array([[11.]], dtype=float32)
    """

    def __init__(self, axes, normalize=False, **kwargs):
        super().__init__(**kwargs)
        if not isinstance(axes, int):
            if not isinstance(axes, (list, tuple)):
                raise TypeError(f"Invalid type for argument `axes`: it should be a list or an "
                                f"int. Received: axes={axes}")
            if len(axes) != 2:
                raise ValueError(f"Invalid format for argument `axes`: it should contain two "
                                 f"elements. Received: axes={axes}")
            if not isinstance(axes[0], int) or not isinstance(axes[1], int):
                raise ValueError(f"Invalid format for argument `axes`: list elements should "
                                 f"be integers. Received: axes={axes}")
        self.axes = axes
        self.normalize = normalize

    def _axes_for(self, rank1, rank2):
        """The contracted axis of each input, non-negative."""
        axes = (self.axes, self.axes) if isinstance(self.axes, int) else self.axes
        return [axis % rank if axis < 0 else axis for axis, rank in zip(axes, (rank1, rank2))]

    def build(self, input_shape):
        shapes = _shape_list(input_shape)
        if not shapes or len(shapes) != 2:
            raise ValueError(f"A `Dot` layer should be called on a list of 2 inputs. "
                             f"Received: input_shape={_printable(input_shape)}")
        shape1, shape2 = shapes
        if shape1 is not None and shape2 is not None:
            a, b = self._axes_for(len(shape1), len(shape2))
            if None not in (shape1[a], shape2[b]) and shape1[a] != shape2[b]:
                raise ValueError(f"Incompatible input shapes: axis values {shape1[a]} (at axis "
                                 f"{a}) != {shape2[b]} (at axis {b}). Full input shapes: "
                                 f"{shape1}, {shape2}")
        self.built = True

    def _merge_function(self, inputs):
        if len(inputs) != 2:
            raise ValueError(f"A `Dot` layer should be called on exactly 2 inputs. "
                             f"Received: inputs={inputs}")
        x, y = inputs
        axes = self._axes_for(x.shape.rank, y.shape.rank)
        if self.normalize:
            x = reduction_ops.l2_normalize(x, axis=axes[0])
            y = reduction_ops.l2_normalize(y, axis=axes[1])
        return _batch_dot(x, y, axes)

    def compute_output_shape(self, input_shape):
        shapes = _shape_list(input_shape)
        if not shapes or len(shapes) != 2:
            raise ValueError(f"A `Dot` layer should be called on a list of 2 inputs. "
                             f"Received: input_shape={_printable(input_shape)}")
        shape1, shape2 = list(shapes[0]), list(shapes[1])
        a, b = self._axes_for(len(shape1), len(shape2))
        del shape1[a], shape2[b]
        output = shape1 + shape2[1:]
        return TensorShape(output + [1] if len(output) == 1 else output)

    def compute_mask(self, inputs, mask=None):
        return None

    def get_config(self):
        config = super().get_config()
        config.update({"axes": self.axes, "normalize": self.normalize})
        return config


@export("keras.layers.add")
def add(inputs, **kwargs):
    """``Add(**kwargs)(inputs)``: the elementwise sum of a list of tensors."""
    return Add(**kwargs)(inputs)


@export("keras.layers.subtract")
def subtract(inputs, **kwargs):
    """``Subtract(**kwargs)(inputs)``: the difference of two tensors."""
    return Subtract(**kwargs)(inputs)


@export("keras.layers.multiply")
def multiply(inputs, **kwargs):
    """``Multiply(**kwargs)(inputs)``: the elementwise product of a list of tensors."""
    return Multiply(**kwargs)(inputs)


@export("keras.layers.average")
def average(inputs, **kwargs):
    """``Average(**kwargs)(inputs)``: the elementwise mean of a list of tensors."""
    return Average(**kwargs)(inputs)


@export("keras.layers.maximum")
def maximum(inputs, **kwargs):
    """``Maximum(**kwargs)(inputs)``: the elementwise maximum of a list of tensors."""
    return Maximum(**kwargs)(inputs)


@export("keras.layers.minimum")
def minimum(inputs, **kwargs):
    """``Minimum(**kwargs)(inputs)``: the elementwise minimum of a list of tensors."""
    return Minimum(**kwargs)(inputs)


@export("keras.layers.concatenate")
def concatenate(inputs, axis=-1, **kwargs):
    """``Concatenate(axis, **kwargs)(inputs)``: a list of tensors joined along `axis`."""
    return Concatenate(axis=axis, **kwargs)(inputs)


@export("keras.layers.dot")
def dot(inputs, axes, normalize=False, **kwargs):
    """``Dot(axes, normalize, **kwargs)(inputs)``: per-sample dot products of two tensors."""
    return Dot(axes=axes, normalize=normalize, **kwargs)(inputs)

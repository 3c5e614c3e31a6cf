"""Merge layers against NumPy references: Keras's broadcasting across ranks, masks, shapes,
configs, gradients, functional models, tracing and the error messages of tf_keras 2.21."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow.keras import layers as merging

RNG = np.random.default_rng(0)


def rand(*shape):
    return RNG.standard_normal(shape).astype(np.float32)


def keras_broadcast(arrays):
    """Keras's alignment: lower-rank inputs gain unit axes right after the batch axis."""
    top = max(a.ndim for a in arrays)
    return [a.reshape(a.shape[:1] + (1,) * (top - a.ndim) + a.shape[1:]) for a in arrays]


ELEMENTWISE = [
    (merging.Add, merging.add, lambda xs: sum(xs[1:], xs[0])),
    (merging.Multiply, merging.multiply, lambda xs: np.prod(np.broadcast_arrays(*xs), 0)),
    (merging.Average, merging.average, lambda xs: sum(xs[1:], xs[0]) / len(xs)),
    (merging.Maximum, merging.maximum, lambda xs: np.max(np.broadcast_arrays(*xs), 0)),
    (merging.Minimum, merging.minimum, lambda xs: np.min(np.broadcast_arrays(*xs), 0)),
]


# -- values ---------------------------------------------------------------------------------

@pytest.mark.parametrize("cls, fn, reference", ELEMENTWISE)
@pytest.mark.parametrize("shapes", [[(2, 3)] * 3, [(2, 3), (2, 4, 3)], [(2, 1), (2, 4, 3)],
                                    [(2, 4, 3), (2, 3), (2, 5, 4, 3)]])
def test_elementwise_merges_match_numpy(cls, fn, reference, shapes):
    arrays = [rand(*s) for s in shapes]
    expected = reference(keras_broadcast(arrays))
    np.testing.assert_allclose(cls()(arrays).numpy(), expected, rtol=1e-6)
    np.testing.assert_allclose(fn(arrays).numpy(), expected, rtol=1e-6)


def test_ranks_broadcast_after_the_batch_axis():
    # tf_keras 2.21: Add()([[[0], [1]] of shape (2, 1), ones((2, 4, 3))]) is 1 for the first
    # sample and 2 for the second: the batch axes line up, not the trailing ones.
    out = merging.Add()([np.arange(2, dtype=np.float32).reshape(2, 1),
                         np.ones((2, 4, 3), np.float32)]).numpy()
    assert out.shape == (2, 4, 3)
    np.testing.assert_array_equal(out[0], 1)
    np.testing.assert_array_equal(out[1], 2)


def test_subtract():
    a, b = rand(2, 3), rand(2, 3)
    np.testing.assert_allclose(merging.Subtract()([a, b]).numpy(), a - b)
    np.testing.assert_allclose(merging.subtract([a, b]).numpy(), a - b)


def test_integer_inputs():
    ones, zeros = np.ones((2, 2), np.int32), np.zeros((2, 2), np.int32)
    summed = merging.Add()([ones, zeros])
    assert summed.dtype == tf.int32
    mean = merging.Average()([ones, zeros])  # tf_keras: true division gives float64
    assert mean.dtype == tf.float64
    np.testing.assert_array_equal(mean.numpy(), 0.5)


@pytest.mark.parametrize("axis", [-1, 0, 1, 2])
def test_concatenate_matches_numpy(axis):
    shapes = [[2, 3, 4], [2, 3, 4]]
    shapes[1][axis] = 5
    a, b = rand(*shapes[0]), rand(*shapes[1])
    np.testing.assert_array_equal(merging.Concatenate(axis=axis)([a, b]).numpy(),
                                  np.concatenate([a, b], axis))
    np.testing.assert_array_equal(merging.concatenate([a, b], axis=axis).numpy(),
                                  np.concatenate([a, b], axis))


def test_concatenate_docstring_example():
    x, y = np.arange(20).reshape(2, 2, 5), np.arange(20, 30).reshape(2, 1, 5)
    out = merging.Concatenate(axis=1)([x, y])
    assert out.dtype == tf.int64 and out.shape == (2, 3, 5)
    np.testing.assert_array_equal(out.numpy()[:, 2], [[20, 21, 22, 23, 24],
                                                      [25, 26, 27, 28, 29]])


def np_batch_dot(x, y, a, b):
    """Per-sample contraction of x's axis a with y's axis b: batch, x's axes, y's axes."""
    out = np.stack([np.tensordot(x[i], y[i], (a - 1, b - 1)) for i in range(len(x))])
    return out.reshape(-1, 1) if out.ndim == 1 else out


@pytest.mark.parametrize("shapes, axes, a, b", [
    ([(2, 3), (2, 3)], 1, 1, 1),
    ([(2, 3), (2, 5, 3)], (1, 2), 1, 2),
    ([(2, 5, 3), (2, 3)], (2, 1), 2, 1),
    ([(2, 5, 3, 6), (2, 3, 7)], (2, 1), 2, 1),
    ([(2, 5, 3), (2, 4, 3)], -1, 2, 2),
    ([(2, 3, 4), (2, 3, 5)], 1, 1, 1),
])
def test_dot_matches_numpy(shapes, axes, a, b):
    x, y = rand(*shapes[0]), rand(*shapes[1])
    expected = np_batch_dot(x, y, a, b)
    out = merging.Dot(axes=axes)([x, y])
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-5, atol=1e-6)
    assert merging.Dot(axes=axes).compute_output_shape(shapes) == expected.shape
    np.testing.assert_allclose(merging.dot([x, y], axes=axes).numpy(), expected, rtol=1e-5,
                               atol=1e-6)


def test_dot_normalize_gives_cosine_similarity():
    x, y = rand(3, 4), rand(3, 4)
    cosine = (x * y).sum(1) / np.linalg.norm(x, axis=1) / np.linalg.norm(y, axis=1)
    out = merging.Dot(axes=1, normalize=True)([x, y])
    np.testing.assert_allclose(out.numpy(), cosine[:, None], rtol=1e-5)


def test_dot_docstring_example():
    # tf_keras 2.21: Dot(axes=(1, 2)) of arange(10).reshape(1, 5, 2) and
    # arange(10, 20).reshape(1, 2, 5) is [[[260, 360], [320, 445]]] (int64).
    out = merging.Dot(axes=(1, 2))([np.arange(10).reshape(1, 5, 2),
                                    np.arange(10, 20).reshape(1, 2, 5)])
    assert out.dtype == tf.int64
    np.testing.assert_array_equal(out.numpy(), [[[260, 360], [320, 445]]])


# -- shapes ---------------------------------------------------------------------------------

@pytest.mark.parametrize("shapes, expected", [
    ([(None, 3), (None, 4, 3)], [None, 4, 3]),
    ([(None, 3), (2, 1)], [2, 3]),
    ([(None, 1, 5), (None, 4, 1)], [None, 4, 5]),
    ([(None, None), (None, 3)], [None, None]),
])
def test_elementwise_output_shape(shapes, expected):
    assert merging.Add().compute_output_shape(shapes).as_list() == expected


def test_concatenate_and_dot_output_shapes():
    assert merging.Concatenate().compute_output_shape([(None, 3), (None, 4)]) == \
        tf.TensorShape([None, 7])
    assert merging.Concatenate(axis=1).compute_output_shape(
        [(None, None, 2), (None, 4, 2)]).as_list() == [None, None, 2]
    assert merging.Dot(axes=1).compute_output_shape([(None, 3), (None, 3)]).as_list() == \
        [None, 1]


# -- masks ----------------------------------------------------------------------------------

def masked_inputs():
    """Two (2, 3, 2) embeddings whose masks are the nonzero ids."""
    embedding = tf.keras.layers.Embedding(5, 2, mask_zero=True)
    ids_a, ids_b = np.array([[1, 0, 2], [0, 3, 3]]), np.array([[1, 1, 0], [2, 0, 3]])
    return embedding(ids_a), embedding(ids_b), ids_a != 0, ids_b != 0


@pytest.mark.parametrize("cls", [c for c, _, _ in ELEMENTWISE] + [merging.Subtract])
def test_elementwise_masks_are_anded(cls):
    a, b, mask_a, mask_b = masked_inputs()
    np.testing.assert_array_equal(cls()([a, b])._keras_mask.numpy(), mask_a & mask_b)
    # An input without a mask does not restrict the output's.
    np.testing.assert_array_equal(
        cls()([a, np.ones((2, 3, 2), np.float32)])._keras_mask.numpy(), mask_a)


def test_concatenate_masks():
    a, b, mask_a, mask_b = masked_inputs()
    # Along the steps the masks are joined; along the features a step is kept only
    # where every input keeps it.
    np.testing.assert_array_equal(merging.Concatenate(axis=1)([a, b])._keras_mask.numpy(),
                                  np.concatenate([mask_a, mask_b], 1))
    np.testing.assert_array_equal(merging.Concatenate()([a, b])._keras_mask.numpy(),
                                  mask_a & mask_b)
    unmasked = np.ones((2, 3, 2), np.float32)
    np.testing.assert_array_equal(
        merging.Concatenate(axis=1)([a, unmasked])._keras_mask.numpy(),
        np.concatenate([mask_a, np.ones((2, 3), bool)], 1))


def test_dot_has_no_mask_and_unmasked_inputs_give_none():
    a, b, _, _ = masked_inputs()
    assert getattr(merging.Dot(axes=2)([a, b]), "_keras_mask", None) is None
    assert merging.Add().compute_mask([a, b], [None, None]) is None
    assert merging.Concatenate().compute_mask([a, b], None) is None


def test_compute_mask_errors():
    x = np.ones((2, 3), np.float32)
    with pytest.raises(ValueError, match=r"^`mask` should be a list\. Received: mask="):
        merging.Add().compute_mask([x, x], np.array([True, False]))
    with pytest.raises(ValueError, match=r"^The lists `inputs` and `mask` should have the "
                                         r"same length\. Received: inputs="):
        merging.Add().compute_mask([x, x], [None])
    with pytest.raises(ValueError, match=r"^`inputs` should be a list\. Received: inputs="):
        merging.Concatenate().compute_mask(x, [None])


# -- errors (tf_keras 2.21's messages) ------------------------------------------------------

X, Y = np.ones((2, 3), np.float32), np.ones((2, 4), np.float32)


@pytest.mark.parametrize("make, inputs, message", [
    (merging.Add, X, "A merge layer should be called on a list of inputs. Received: "
                     "input_shape=(2, 3) (not a list of shapes)"),
    (merging.Add, [X, Y], "Inputs have incompatible shapes. Received shapes (3,) and (4,)"),
    (merging.Multiply, [np.ones((2, 3)), np.ones((3, 3))],
     "Cannot merge tensors with different batch sizes. Got tensors with shapes "
     "[(2, 3), (3, 3)]"),
    (merging.Subtract, [X, X, X], "A `Subtract` layer should be called on exactly 2 inputs. "
                                  "Received: input_shape=[(2, 3), (2, 3), (2, 3)]"),
    (merging.Subtract, [X], "A `Subtract` layer should be called on exactly 2 inputs. "
                            "Received: input_shape=[(2, 3)]"),
    (lambda: merging.Concatenate(axis=1), [np.ones((2, 3, 4)), np.ones((2, 3, 5))],
     "A `Concatenate` layer requires inputs with matching shapes except for the "
     "concatenation axis. Received: input_shape=[(2, 3, 4), (2, 3, 5)]"),
    (merging.Concatenate, [np.ones((2, 3, 4)), np.ones((2, 3))],
     "A `Concatenate` layer requires inputs with matching shapes except for the "
     "concatenation axis. Received: input_shape=[(2, 3, 4), (2, 3)]"),
    (merging.Concatenate, X, "A `Concatenate` layer should be called on a list of at least 1 "
                             "input. Received: input_shape=(2, 3)"),
    (lambda: merging.Dot(1), [X, X, X], "A `Dot` layer should be called on a list of 2 "
                                        "inputs. Received: input_shape=[(2, 3), (2, 3), "
                                        "(2, 3)]"),
    (lambda: merging.Dot(1), [X, Y], "Incompatible input shapes: axis values 3 (at axis 1) "
                                     "!= 4 (at axis 1). Full input shapes: (2, 3), (2, 4)"),
    (lambda: merging.Dot(0), [X, X], "Cannot perform batch_dot over axis 0. If your inputs "
                                     "are not batched, add a dummy batch dimension to your "
                                     "inputs using K.expand_dims(x, 0)"),
    (lambda: merging.Dot(0), [np.ones(3, np.float32)] * 2,
     "Cannot do batch_dot on inputs with rank < 2. Received inputs with shapes (3,) and "
     "(3,)."),
])
def test_call_errors(make, inputs, message):
    with pytest.raises(ValueError) as info:
        make()(inputs)
    text = str(info.value)
    # errors of `call` (not `build`) follow the layer's "Exception encountered" header
    assert text == message or (text.startswith("Exception encountered when calling layer")
                               and f"\n\n{message}\n\n" in text)


def test_argument_and_shape_errors():
    with pytest.raises(TypeError, match=r"^Invalid type for argument `axes`: it should be a "
                                        r"list or an int\. Received: axes=a$"):
        merging.Dot("a")
    with pytest.raises(ValueError, match=r"it should contain two elements\. Received: "
                                         r"axes=\(1, 2, 3\)$"):
        merging.Dot((1, 2, 3))
    with pytest.raises(ValueError, match=r"list elements should be integers\. Received: "
                                         r"axes=\(1\.0, 2\)$"):
        merging.Dot((1.0, 2))
    with pytest.raises(ValueError, match=r"^A `Concatenate` layer should be called on a list "
                                         r"of inputs\. Received: input_shape=\(None, 3\)$"):
        merging.Concatenate().compute_output_shape((None, 3))
    with pytest.raises(ValueError, match=r"^A `Dot` layer should be called on a list of 2 "
                                         r"inputs\. Received: input_shape=\[\(None, 3\)\]$"):
        merging.Dot(1).compute_output_shape([(None, 3)])
    layer = merging.Add()
    layer.build([(None, 3), (None, 3)])
    with pytest.raises(ValueError, match=r"(?s)^A merge layer should be called on a list of "
                                         r"inputs\. Received: inputs=.* \(not a list of "
                                         r"tensors\)$"):
        layer.call(tf.ones((2, 3)))


# -- configs, models, tracing, gradients --------------------------------------------------

@pytest.mark.parametrize("layer, extra", [
    (merging.Add(name="add_x"), {}),
    (merging.Concatenate(axis=2, name="cat"), {"axis": 2}),
    (merging.Dot((1, 2), normalize=True, name="d"), {"axes": (1, 2), "normalize": True}),
])
def test_config_round_trip(layer, extra):
    config = layer.get_config()
    assert config == {"name": layer.name, "trainable": True, "dtype": "float32", **extra}
    clone = type(layer).from_config(config)
    assert clone.get_config() == config
    assert type(tf.keras.layers.deserialize(
        {"class_name": type(layer).__name__, "config": config})) is type(layer)


def test_functional_model():
    first, second = tf.keras.Input((3,)), tf.keras.Input((4, 3))
    summed = merging.add([first, second])
    assert summed.shape.as_list() == [None, 4, 3]
    joined = merging.concatenate([summed, merging.multiply([second, second])], axis=1)
    model = tf.keras.Model([first, second], joined)
    a, b = rand(2, 3), rand(2, 4, 3)
    expected = np.concatenate([a[:, None] + b, b * b], 1)
    np.testing.assert_allclose(model([a, b]).numpy(), expected, rtol=1e-6)
    clone = tf.keras.Model.from_config(model.get_config())
    np.testing.assert_allclose(clone([a, b]).numpy(), expected, rtol=1e-6)


def test_traced_with_unknown_ranks():
    layer = merging.Add()

    @tf.function(input_signature=[tf.TensorSpec(None), tf.TensorSpec(None)])
    def add(x, y):
        return layer([x, y])

    a, b = rand(2, 1), rand(2, 4, 3)
    np.testing.assert_allclose(add(a, b).numpy(), a[:, None] + b, rtol=1e-6)


def test_traced_dot_and_concatenate():
    dot, cat = merging.Dot(axes=(2, 2)), merging.Concatenate()
    traced = tf.function(lambda x, y: cat([dot([x, y]), dot([x, x])]))
    a, b = rand(2, 3, 4), rand(2, 5, 4)
    expected = np.concatenate([np_batch_dot(a, b, 2, 2), np_batch_dot(a, a, 2, 2)], -1)
    np.testing.assert_allclose(traced(a, b).numpy(), expected, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("layer", [merging.Add(), merging.Multiply(), merging.Average(),
                                   merging.Maximum(), merging.Concatenate(),
                                   merging.Dot(axes=1, normalize=True), merging.Subtract()])
def test_gradients_flow(layer):
    a, b = tf.constant(rand(2, 3)), tf.constant(rand(2, 3))
    with tf.GradientTape() as tape:  # (Add and Average refuse a variable first, as tf_keras)
        tape.watch([a, b])
        loss = tf.reduce_sum(layer([a, b]) ** 2)
    grads = tape.gradient(loss, [a, b])
    assert all(g is not None and np.all(np.isfinite(g.numpy())) for g in grads)
    assert any(np.any(g.numpy() != 0) for g in grads)


def test_add_and_average_layers_with_a_variable_first_refuse_it_as_tf_keras():
    v = tf.Variable([[1.0, 2.0]])
    for layer in (tf.keras.layers.Add(), tf.keras.layers.Average()):
        with pytest.raises(RuntimeError, match=r"`variable \+= value` with `tf.Variable`s"):
            layer([v, v])
    assert tf.keras.layers.Add()([tf.constant([[1.0, 2.0]]), v]).numpy().tolist() == [[2.0, 4.0]]

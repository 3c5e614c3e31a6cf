"""Gradients inside functions whose inputs have unknown rank (``TensorSpec(None)``) or
unknown dims: the same values as eagerly (checked against TF 2.21 on the same programs)."""
import numpy as np
import pytest

import eagerflow as tf


def _rand(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape)


def _grads(fn, wrt):
    def run(*args):
        with tf.GradientTape() as tape:
            for i in wrt:
                tape.watch(args[i])
            y = tf.cast(fn(*args), tf.float64)
            loss = tf.reduce_sum(y * y)
        return tape.gradient(loss, [args[i] for i in wrt])
    return run


def _i(*values, dtype=tf.int32):
    return tf.constant(values, dtype)


X = _rand(3, 4, 5)
CASES = {
    "segment_sum": (lambda x, s: tf.math.segment_sum(x, s), [X, _i(0, 0, 2)]),
    "segment_max": (lambda x, s: tf.math.segment_max(x, s), [X, _i(0, 1, 1)]),
    "segment_prod": (lambda x, s: tf.math.segment_prod(x, s), [X, _i(0, 0, 1)]),
    "unsorted_segment_sum_2d_ids": (
        lambda x, s, n: tf.math.unsorted_segment_sum(x, s, n),
        [X, tf.constant([[0, 1, 0, 2], [1, 1, 0, 0], [2, 2, 2, 0]]), tf.constant(3)]),
    "unsorted_segment_mean": (lambda x, s, n: tf.math.unsorted_segment_mean(x, s, n),
                              [X, _i(2, 0, 2), tf.constant(4)]),
    "unsorted_segment_sqrt_n": (lambda x, s, n: tf.math.unsorted_segment_sqrt_n(x, s, n),
                                [X, _i(2, 0, 2), tf.constant(4)]),
    "unsorted_segment_min": (lambda x, s, n: tf.math.unsorted_segment_min(x, s, n),
                             [X, _i(2, 0, -1), tf.constant(4)]),
    "sparse_segment_mean": (lambda x, i, s: tf.sparse.segment_mean(x, i, s),
                            [X, _i(0, 2, 1), _i(0, 0, 1)]),
    "sparse_segment_sqrt_n": (lambda x, i, s: tf.sparse.segment_sqrt_n(x, i, s),
                              [X, _i(0, 2, 1), _i(0, 0, 1)]),
    "reduce_prod_axis_tensor": (lambda x, a: tf.reduce_prod(x, a), [X, _i(1, -1)]),
    "reduce_prod_axis_tensor_known_rank": (
        lambda x, a: tf.reduce_prod(tf.reshape(x, [3, 4, 5]), a, keepdims=True),
        [X * (X > 0), _i(0, 2)]),
    "tile": (lambda x, m: tf.tile(x, m), [X, _i(2, 1, 3)]),
    "slice_run_time_bounds": (lambda x, b, s: tf.slice(x, b, s), [X, _i(1, 0, 2), _i(2, -1, 2)]),
    "slice_static_bounds": (lambda x: tf.slice(x, [1, 0, 2], [2, -1, 2]), [X]),
    "concat": (lambda x, y: tf.concat([x, y, x], 1), [X, _rand(3, 2, 5, seed=1)]),
    "concat_negative_axis": (lambda x, y: tf.concat([x, y], -1), [X, _rand(3, 4, 2, seed=1)]),
    "gather_batch_dims": (lambda x, i: tf.gather(x, i, axis=2, batch_dims=1),
                          [X, tf.constant([[0, 1], [2, 2], [4, 0]], tf.int64)]),
    "gather_batch_dims_2": (lambda x, i: tf.gather(x, i, axis=2, batch_dims=2),
                            [X, tf.constant([[[0, 4]] * 4] * 3)]),
    "gather_negative_axis": (lambda x, i: tf.gather(x, i, axis=-1), [X, _i(3, 0, 3)]),
    "gather_nd_batch_dims": (lambda x, i: tf.gather_nd(x, i, batch_dims=1),
                             [X, tf.constant([[0, 1], [2, 3], [1, 1]])]),
    "einsum": (lambda a, b: tf.einsum("bij,jk->bik", a, b), [X, _rand(5, 2, seed=1)]),
    "fft": (lambda x: tf.math.real(tf.signal.fft(tf.complex(x, x))), [X]),
    "rfft": (lambda x: tf.abs(tf.signal.rfft(x)), [X]),
    "rfft_cropped": (lambda x: tf.abs(tf.signal.rfft(x, [4])), [X]),
    "rfft_padded": (lambda x: tf.abs(tf.signal.rfft(x, [8])), [X]),
    "rfft2d": (lambda x: tf.abs(tf.signal.rfft2d(x)), [X]),
    "strided_slice_index_tensor": (lambda x, b: x[b:, b], [X, tf.constant(1)]),
    "space_to_batch": (lambda x: tf.space_to_batch_nd(x, [2, 2], [[0, 0], [1, 1]]),
                       [_rand(2, 4, 6, 3)]),
    "batch_to_space": (lambda x: tf.batch_to_space(x, [2, 2], [[0, 0], [1, 1]]),
                       [_rand(8, 2, 3, 3)]),
    "tensordot_listed_axes": (lambda x, w: tf.tensordot(x, w, [[2], [0]]),
                              [X, _rand(5, 2, seed=1)]),
    "transpose_run_time_perm": (
        lambda x: tf.transpose(x, tf.concat([[0], tf.range(2, tf.rank(x)), [1]], 0)), [X]),
    "gather_run_time_axis": (lambda x, i, a: tf.gather(x, i, axis=a),
                             [X, _i(3, 0, 3), tf.constant(2)]),
    "gather_run_time_axis_batched": (lambda x, i, a: tf.gather(x, i, axis=a, batch_dims=1),
                                     [X, tf.constant([[0, 3], [2, 2], [1, 0]]), tf.constant(-2)]),
    "space_to_depth": (lambda x: tf.nn.space_to_depth(x, 2), [_rand(2, 4, 6, 3)]),
    "depth_to_space": (lambda x: tf.nn.depth_to_space(x, 2), [_rand(2, 2, 3, 8)]),
    "pool": (lambda x: tf.nn.pool(x, [2, 2], "AVG", padding="SAME"), [_rand(2, 5, 5, 3)]),
    "pool_max_1d": (lambda x: tf.nn.pool(x, [2], "MAX", strides=[2]), [_rand(2, 5, 3)]),
    "pad_run_time": (lambda x, p: tf.pad(x, p, "REFLECT"), [X, tf.constant([[1, 0], [0, 2],
                                                                             [1, 1]])]),
    "pad_reflect": (lambda x: tf.pad(x, [[0, 0], [2, 1], [1, 2]], "REFLECT"), [X]),
    "pad_symmetric": (lambda x: tf.pad(x, [[1, 1], [3, 3], [0, 4]], "SYMMETRIC"), [X]),
    "linspace": (lambda a, b: tf.linspace(a, b, 5) * tf.range(5.0, dtype=tf.float64),
                 [_rand(), _rand(seed=1)]),
    "linspace_axis_1": (lambda a, b: tf.linspace(a, b, 4, axis=1), [_rand(2, 3), _rand(3)]),
    "linspace_axis_negative": (lambda a, b: tf.linspace(a, b, 4, axis=-2),
                               [_rand(2, 3), _rand(3)]),
    "linspace_run_time_count": (lambda a, b, n: tf.linspace(a, b, n, axis=1),
                                [_rand(2, 3), _rand(3), tf.constant(4)]),
}


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("rank_known", [False, True])
def test_gradient_in_a_function_equals_the_eager_one(name, rank_known):
    fn, args = CASES[name]
    args = [tf.constant(a) for a in args]
    wrt = [i for i, a in enumerate(args) if a.dtype.is_floating]
    grads = _grads(fn, wrt)
    specs = [tf.TensorSpec([None] * a.shape.rank if rank_known else None, a.dtype)
             for a in args]
    for got, want in zip(tf.function(grads, input_signature=specs)(*args), grads(*args)):
        got, want = tf.convert_to_tensor(got), tf.convert_to_tensor(want)
        assert got.shape == want.shape
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("equation, shapes", [
    ("...ij,...jk->...ik", [(2, 3, 4), (4, 2)]),
    ("...ij,...jk->...ik", [(2, 1, 3, 4), (5, 4, 2)]),
    ("...ij,jk->...ik", [(2, 3, 4), (4, 2)]),
    ("...i,...i->...", [(3, 1, 4), (2, 4)]),
    ("...j,j", [(2, 3), (3,)]),
    # an ellipsis after other labels, broadcast, empty, or repeated labels before it
    ("i...j,j->i...", [(2, 3, 4), (4,)]),
    ("i...j,j->i...", [(2, 4), (4,)]),
    ("ab...c,c->ab...", [(2, 3, 5, 6, 4), (4,)]),
    ("i...j,...j->i...", [(2, 3, 4), (1, 4)]),
    ("i...j,kj->i...k", [(2, 1, 3, 4), (5, 4)]),
    ("ii...,i->i...", [(3, 3, 2), (3,)]),
])
def test_einsum_gradient_with_an_ellipsis_of_unknown_rank(equation, shapes):
    args = [tf.constant(_rand(*s, seed=i)) for i, s in enumerate(shapes)]
    grads = _grads(lambda a, b: tf.einsum(equation, a, b), [0, 1])
    specs = [tf.TensorSpec(None, tf.float64)] * 2
    for got, want in zip(tf.function(grads, input_signature=specs)(*args), grads(*args)):
        assert got.shape == want.shape
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-12, atol=1e-12)

"""Composite values (`SparseTensor`, `tf.experimental.Optional`) as loop variables: control
flow carries them as their component tensors, as TF does.

The expected values were checked against TensorFlow 2.21.
"""
import pytest

import eagerflow as tf


def _doubling_loop(s):
    return tf.while_loop(
        lambda i, x: i < 2,
        lambda i, x: (i + 1, tf.sparse.SparseTensor(x.indices, x.values + 1., x.dense_shape)),
        (0, s))


def test_sparse_tensor_loop_variable_eagerly_and_in_function():
    s = tf.sparse.SparseTensor([[1, 0]], [1.], [2, 2])
    for fn in (_doubling_loop, tf.function(_doubling_loop)):
        i, x = fn(s)
        assert int(i) == 2
        assert isinstance(x, tf.sparse.SparseTensor)
        assert tf.sparse.to_dense(x).numpy().tolist() == [[0., 0.], [3., 0.]]
        assert x.shape.as_list() == [2, 2]


def test_ragged_and_sparse_loop_variables_may_change_their_number_of_values():
    # Without shape_invariants the loop carries a composite's components with the shapes
    # its type spec gives them, which leave the number of values open (as TF does).
    def ragged():
        r = tf.ragged.constant([[1], [2, 3]])
        return tf.while_loop(lambda i, r: i < 2, lambda i, r: (i + 1, tf.concat([r, r], 1)),
                             [0, r])[1]

    def sparse():
        s = tf.sparse.SparseTensor([[0, 0]], [1.0], [2, 2])
        one = tf.sparse.SparseTensor([[1, 1]], [1.0], [2, 2])
        return tf.while_loop(lambda i, s: i < 3, lambda i, s: (i + 1, tf.sparse.add(s, one)),
                             [0, s])[1]

    for run in (lambda f: f(), lambda f: tf.function(f)()):
        assert run(ragged).to_list() == [[1, 1, 1, 1], [2, 3, 2, 3, 2, 3, 2, 3]]
        s = run(sparse)
        assert s.indices.numpy().tolist() == [[0, 0], [1, 1]]
        assert s.values.numpy().tolist() == [1.0, 3.0]
        assert s.shape.as_list() == [2, 2]


def test_shape_invariants_of_ragged_and_indexed_slices_loop_variables():
    @tf.function
    def ragged(x):
        r = tf.RaggedTensor.from_row_lengths(x, [1, 1])
        _, r = tf.while_loop(
            lambda i, r: i < 2, lambda i, r: (i + 1, tf.concat([r, r], 0)), [0, r],
            shape_invariants=[tf.TensorShape([]), tf.RaggedTensorSpec([None, None], tf.float32)])
        return r.row_lengths()
    assert ragged(tf.constant([1.0, 2.0])).numpy().tolist() == [1] * 8

    @tf.function
    def slices(x):
        s = tf.IndexedSlices(x, tf.constant([0]), tf.constant([3, 2]))
        _, s = tf.while_loop(
            lambda i, s: i < 2,
            lambda i, s: (i + 1, tf.IndexedSlices(tf.concat([s.values, s.values], 0),
                                                  tf.concat([s.indices, s.indices + 1], 0),
                                                  s.dense_shape)),
            [0, s], shape_invariants=[tf.TensorShape([]), tf.TensorShape([None, 2])])
        return tf.convert_to_tensor(s)
    assert slices(tf.constant([[1.0, 2.0]])).numpy().tolist() == [[1, 2], [2, 4], [1, 2]]


def test_a_sparse_loop_variables_invariant_is_its_dense_shapes_shape():
    def doubling(invariant):
        @tf.function
        def f(x):
            _, s = tf.while_loop(
                lambda i, s: i < 2, lambda i, s: (i + 1, tf.sparse.concat(0, [s, s])),
                [0, tf.sparse.from_dense(x)], shape_invariants=[tf.TensorShape([]), invariant])
            assert s.shape.as_list() == [None, None]  # not the entering (1, 2)
            return tf.sparse.to_dense(s)
        return f(tf.constant([[1.0, 0.0]]))
    assert doubling(tf.TensorShape([2])).numpy().tolist() == [[1.0, 0.0]] * 4
    with pytest.raises(ValueError, match=r"Expected a shape with 1 dimension. Obtained: "
                       r"\(None, 2\) which has 2 dimensions."):
        doubling(tf.TensorShape([None, 2]))


def test_optional_as_a_while_loop_variable():
    def total():
        it = iter(tf.data.Dataset.range(4))
        return tf.while_loop(lambda o, s: o.has_value(),
                             lambda o, s: (it.get_next_as_optional(), s + o.get_value()),
                             (it.get_next_as_optional(), tf.constant(0, tf.int64)))[1]

    assert int(total()) == 6
    assert int(tf.function(total)()) == 6


def test_optional_reassigned_in_an_autograph_while():
    @tf.function
    def f(x):
        it = iter(tf.data.Dataset.from_tensor_slices(x))
        opt = it.get_next_as_optional()
        n = 0
        total = 0.
        while opt.has_value():
            total += opt.get_value()
            n += 1
            opt = it.get_next_as_optional()
        return total, n

    total, n = f(tf.constant([1., 2., 3.]))
    assert (float(total), int(n)) == (6., 3)
    total, n = f(tf.constant([], tf.float32))
    assert (float(total), int(n)) == (0., 0)


def test_cond_returning_optionals_made_in_its_branches_in_a_function():
    @tf.function
    def f(p, x):
        o = tf.cond(p, lambda: tf.experimental.Optional.from_value(x * 2),
                    lambda: tf.experimental.Optional.empty(tf.TensorSpec([], tf.int32)))
        return o.has_value(), tf.cond(o.has_value(), o.get_value, lambda: tf.constant(-1))

    assert [int(v) for v in f(tf.constant(True), tf.constant(3))] == [1, 6]
    assert [int(v) for v in f(tf.constant(False), tf.constant(3))] == [0, -1]


def test_cond_returning_sparse_tensors_in_a_function():
    s = tf.sparse.SparseTensor([[0, 1]], [1.], [2, 2])

    @tf.function
    def f(p):
        r = tf.cond(p, lambda: s,
                    lambda: tf.sparse.SparseTensor(s.indices, s.values * 5., s.dense_shape))
        return tf.sparse.to_dense(r)

    assert f(tf.constant(False)).numpy().tolist() == [[0., 5.], [0., 0.]]
    assert f(tf.constant(True)).numpy().tolist() == [[0., 1.], [0., 0.]]


def test_cond_returning_optionals_in_a_function():
    @tf.function
    def f(x, p):
        it = iter(tf.data.Dataset.from_tensor_slices(x))
        o = tf.cond(p, it.get_next_as_optional,
                    lambda: tf.experimental.Optional.empty(tf.TensorSpec([], tf.float32)))
        return o.has_value()

    assert bool(f(tf.constant([1.]), tf.constant(True)))
    assert not bool(f(tf.constant([1.]), tf.constant(False)))


def _gather_gradient_in_cond(pred, other_branch):
    params = tf.Variable(tf.reshape(tf.range(12, dtype=tf.float32), [4, 3]))

    @tf.function
    def f(pred):
        with tf.GradientTape() as tape:
            y = tf.cond(pred, lambda: tf.reduce_sum(tf.gather(params, [0, 2])),
                        lambda: other_branch(params))
        return tape.gradient(y, params)

    return f(tf.constant(pred))


def test_a_gather_gradient_through_a_cond_stays_sparse_as_in_tf():
    g = _gather_gradient_in_cond(True, lambda p: tf.reduce_sum(tf.gather(p, [1])))
    assert isinstance(g, tf.IndexedSlices)
    assert g.indices.numpy().tolist() == [0, 2] and g.values.shape == (2, 3)
    assert g.dense_shape.numpy().tolist() == [4, 3]


def test_a_dense_gradient_of_the_other_branch_becomes_slices_of_every_row():
    g = _gather_gradient_in_cond(False, lambda p: tf.reduce_sum(p * 2.0))
    assert isinstance(g, tf.IndexedSlices)
    assert g.indices.numpy().tolist() == [0, 1, 2, 3]
    assert g.values.numpy().tolist() == [[2.0] * 3] * 4
    # an unconnected branch gives zeros, as slices too
    g = _gather_gradient_in_cond(False, lambda p: tf.constant(0.0))
    assert isinstance(g, tf.IndexedSlices) and not g.values.numpy().any()


def test_sparse_gradients_from_a_switch_case_and_around_it_add_up_as_slices():
    params = tf.Variable(tf.ones([4, 3]))

    @tf.function
    def f(i):
        with tf.GradientTape() as tape:
            y = tf.switch_case(i, [lambda: tf.reduce_sum(tf.gather(params, [0])),
                                   lambda: tf.reduce_sum(tf.gather(params, [3])) * 2.0])
            y = y + tf.reduce_sum(tf.gather(params, [1]))
        return tape.gradient(y, params)

    g = f(tf.constant(1))
    assert isinstance(g, tf.IndexedSlices) and g.indices.numpy().tolist() == [3, 1]
    assert tf.convert_to_tensor(g).numpy().tolist() == [[0.0] * 3, [1.0] * 3, [0.0] * 3,
                                                        [2.0] * 3]


def test_a_cond_whose_branches_mix_slices_and_tensors_is_tfs_type_error():
    s = tf.IndexedSlices(tf.ones([1, 2]), tf.constant([1]), tf.constant([3, 2]))
    f = tf.function(lambda p: tf.cond(p, lambda: s, lambda: tf.zeros([3, 2])))
    with pytest.raises(TypeError, match="Cannot reconcile tf.cond 0-th outputs"):
        f(tf.constant(True))


class _Counted(tf.experimental.ExtensionType):
    x: tf.Tensor
    n: int = 1


def test_cond_branches_returning_extension_types_with_other_python_fields_are_a_type_error():
    # (the first branch's n was returned whichever branch ran: n=1 for the false branch)
    @tf.function
    def f(b):
        return tf.cond(b, lambda: _Counted(tf.constant(1.0), 1),
                       lambda: _Counted(tf.constant(2.0), 2))

    with pytest.raises(TypeError, match="(?s)true_fn and false_fn arguments to tf.cond must "
                                        "have the same number.*Incompatible CompositeTensor "
                                        "TypeSpecs"):
        f(tf.constant(False))

    @tf.function
    def g(i):
        return tf.switch_case(i, [lambda: _Counted(tf.constant(1.0), 1),
                                  lambda: _Counted(tf.constant(2.0), 2)])

    with pytest.raises(TypeError, match="Incompatible CompositeTensor TypeSpecs"):
        g(tf.constant(1))

    @tf.function
    def h(b):  # (tensor shapes may differ: the result's shape is their common one)
        return tf.cond(b, lambda: _Counted(tf.constant([1.0])),
                       lambda: _Counted(tf.constant([2.0, 3.0])))

    assert h(tf.constant(False)).x.numpy().tolist() == [2.0, 3.0]


def test_a_while_body_changing_an_extension_types_python_field_is_a_value_error():
    @tf.function
    def f():
        return tf.while_loop(lambda p: p.x < 4.0, lambda p: [_Counted(p.x + 1.0, p.n + 1)],
                             [_Counted(tf.constant(1.0))])

    with pytest.raises(ValueError, match="Incompatible CompositeTensor TypeSpecs"):
        f()
    # eagerly the loop is plain Python, as in TF: the field changes
    out = tf.while_loop(lambda p: p.x < 4.0, lambda p: [_Counted(p.x + 1.0, p.n + 1)],
                        [_Counted(tf.constant(1.0))])
    assert out[0].n == 4

"""`tf.random.Generator` keeps its state in a `tf.Variable` as TF's does (values recorded
with TF 2.21)."""
import numpy as np
import pytest

import eagerflow as tf


def test_state_is_an_int64_variable_that_draws_advance():
    g = tf.random.Generator.from_seed(1234)
    state = g.state
    assert isinstance(state, tf.Variable)
    assert (state.dtype, state.shape, state.trainable) == (tf.int64, (3,), False)
    assert state.name == "StateVar:0"
    g.normal([3])
    assert g.state is state
    assert state.numpy().tolist() == [2002, 0, 0]


def test_assigning_the_state_variable_moves_the_generator():
    g = tf.random.Generator.from_seed(1)
    g.state.assign([100, 0, 5])
    np.testing.assert_allclose(g.normal([2]), [0.59909946, -0.7823114], rtol=1e-6)
    assert g.state.numpy().tolist() == [612, 0, 5]
    copy = tf.random.Generator(copy_from=g)
    assert copy.state is not g.state and copy.state.numpy().tolist() == [612, 0, 5]


def test_state_read_in_a_function_follows_each_call():
    g = tf.random.Generator.from_seed(9)

    @tf.function
    def draw():
        return g.uniform([]), g.state.read_value()

    assert draw()[1].numpy().tolist() == [265, 0, 0]
    assert draw()[1].numpy().tolist() == [521, 0, 0]
    assert g.state.numpy().tolist() == [521, 0, 0]


def test_checkpoint_restores_the_state(tmp_path):
    g = tf.random.Generator.from_seed(5)
    ckpt = tf.train.Checkpoint(g=g)
    path = ckpt.write(str(tmp_path / "ckpt"))
    first = g.normal([2]).numpy()
    ckpt.read(path)
    np.testing.assert_array_equal(g.normal([2]), first)
    assert tf.train.load_variable(path, "g/_state_var/.ATTRIBUTES/VARIABLE_VALUE").tolist() \
        == [5, 0, 0]


def test_skip_returns_the_state_before_it():
    g = tf.random.Generator.from_seed(3)
    assert g.skip(10).numpy().tolist() == [3, 0, 0]
    assert g.state.numpy().tolist() == [2563, 0, 0]


def test_skip_wraps_the_count_as_tf_does():
    """TF multiplies the skip by 256 in 64 bits and adds it with a 32-bit carry that is lost
    when the count's high half is all ones (recorded with TF 2.21)."""
    g = tf.random.Generator.from_key_counter(key=3, counter=[2**63 - 300, 5], alg="philox")
    states = []
    for delta in (1, 2**56 + 1, 2**55 + 1, -1, 2):
        g.skip(delta)
        states.append(g.state.numpy().tolist())
    assert states == [[2**63 - 44, 5, 3], [-2**63 + 212, 5, 3], [468, 6, 3], [212, 6, 3],
                      [724, 6, 3]]


def test_skip_in_a_function_takes_a_run_time_delta():
    g = tf.random.Generator.from_key_counter(key=3, counter=[2**63 - 300, 5], alg="philox")

    @tf.function
    def skip(delta):
        g.skip(delta)
        return g.state.read_value()

    assert skip(tf.constant(2**56 + 1, tf.int64)).numpy().tolist() == [2**63 - 44, 5, 3]
    assert skip(tf.constant(-1, tf.int64)).numpy().tolist() == [2**63 - 300, 5, 3]


def test_threefry_skip_is_unimplemented_on_cpu():
    g = tf.random.Generator.from_seed(1, alg="threefry")
    with pytest.raises(tf.errors.UnimplementedError, match="ThreeFry"):
        g.skip(3)
    assert g.state.numpy().tolist() == [1, 0]


def test_threefry_state_has_two_words():
    g = tf.random.Generator.from_seed(7, alg="threefry")
    assert g.state.numpy().tolist() == [7, 0]
    assert tf.random.Generator.from_non_deterministic_state(alg="threefry").state.shape == (2,)


def test_rng_read_and_skip_and_key_counter_draws_in_a_function_match_tf():
    """TF's graph of a Generator draw: RngReadAndSkip reads the state and advances its counter
    by 256 blocks per value; the draw takes the old state as key and counter (TF's values)."""
    state = tf.Variable([1, 0, 3], dtype=tf.int64)

    @tf.function
    def draw(n):
        s = tf.raw_ops.RngReadAndSkip(resource=state.handle, alg=1, delta=tf.cast(n, tf.uint64))
        key, counter = tf.bitcast(s[-1:], tf.uint64), tf.bitcast(s[:-1], tf.uint64)
        return tf.raw_ops.StatelessRandomNormalV2(shape=tf.stack([n]), key=key,
                                                  counter=counter, alg=1)

    np.testing.assert_array_equal(draw(tf.constant(2)).numpy(),
                                  np.array([0.98388135, -1.115804], np.float32))
    np.testing.assert_array_equal(draw(tf.constant(3)).numpy(),
                                  np.array([-0.11055993, 0.9380602, 0.64831865], np.float32))
    np.testing.assert_array_equal(state.numpy(), [1281, 0, 3])


def test_rng_read_and_skip_wraps_the_counter_and_rejects_other_algorithms():
    state = tf.Variable([-1, -1, 9], dtype=tf.int64)  # the largest counter: it wraps to 255
    before = tf.raw_ops.RngReadAndSkip(resource=state.handle, alg=1,
                                       delta=tf.constant(1, tf.uint64))
    np.testing.assert_array_equal(before.numpy(), [-1, -1, 9])
    np.testing.assert_array_equal(state.numpy(), [255, 0, 9])
    with pytest.raises(tf.errors.UnimplementedError, match="ThreeFry"):
        tf.raw_ops.RngReadAndSkip(resource=state.handle, alg=2, delta=tf.constant(1, tf.uint64))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Unsupported algorithm id: 2"):
        tf.raw_ops.StatelessRandomUniformV2(shape=[2], key=[1], counter=[1, 2], alg=2)


def test_threefry_errors_have_tf_eager_form():
    g = tf.random.Generator.from_seed(7, alg="threefry")
    with pytest.raises(tf.errors.UnimplementedError,
                       match=r"^\{\{function_node __wrapped__RngReadAndSkip_device_/job:localhost/"
                             r"replica:0/task:0/device:CPU:0\}\} Non-XLA devices don't support "
                             r"the ThreeFry algorithm\. \[Op:RngReadAndSkip\] name: $"):
        g.normal([2])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"^\{\{function_node __wrapped__StatelessRandomNormalV2_device_.*\}\} "
                             r"counter must be a vector with length at least 2; got shape: \[1\]\. "
                             r"\(Note that batched counters are not supported yet\.\) "
                             r"\[Op:StatelessRandomNormalV2\] name: $"):
        tf.random.stateless_normal([3], [1, 2], alg="threefry")


@pytest.mark.parametrize("kwargs, op", [
    ({}, "StatelessRandomUniformV2"),
    ({"minval": 0, "maxval": 5, "dtype": tf.int32}, "StatelessRandomUniformIntV2"),
    ({"minval": None, "maxval": None, "dtype": tf.int64}, "StatelessRandomUniformFullIntV2"),
])
def test_threefry_stateless_uniform_errors_name_tf_op(kwargs, op):
    pattern = rf"^\{{\{{function_node __wrapped__{op}_device_.*\[Op:{op}\] name: $"
    with pytest.raises(tf.errors.InvalidArgumentError, match=pattern):
        tf.random.stateless_uniform([3], [1, 2], alg="threefry", **kwargs)


def test_draws_in_a_function_are_the_eager_draws_and_advance_the_state_alike():
    # TF 2.21: a function's draws read and skip the state variable, as eager ones
    cases = [("normal", {"mean": 2.0, "stddev": 3.0}), ("uniform", {"minval": -2.0, "maxval": 5.0}),
             ("uniform", {"minval": 3, "maxval": 100, "dtype": tf.int32}),
             ("uniform", {"minval": None, "maxval": None, "dtype": tf.int64}),
             ("truncated_normal", {}), ("uniform_full_int", {}),
             ("normal", {"dtype": tf.float64})]
    for method, kwargs in cases:
        eager, traced = tf.random.Generator.from_seed(5), tf.random.Generator.from_seed(5)
        draw = tf.function(lambda: getattr(traced, method)([2, 3], **kwargs))
        for _ in range(2):
            np.testing.assert_array_equal(draw().numpy(),
                                          getattr(eager, method)([2, 3], **kwargs).numpy())
        assert traced.state.numpy().tolist() == eager.state.numpy().tolist() == [3077, 0, 0]
    g = tf.random.Generator.from_seed(1)
    run_time = tf.function(lambda n: g.normal(tf.stack([n, 2])))
    np.testing.assert_allclose(run_time(tf.constant(3)).numpy()[0], [0.43842274, -0.53439844],
                               rtol=1e-6)
    assert g.state.numpy().tolist() == [1537, 0, 0]


class _Drawing(tf.Module):
    def __init__(self):
        super().__init__()
        self.g = tf.random.Generator.from_seed(42)

    @tf.function(input_signature=[])
    def draw(self):
        return self.g.normal([3])


def test_savedmodel_and_checkpoint_go_on_from_the_saved_state(tmp_path):
    # TF 2.21: both continue the saved stream (values recorded with TF)
    m = _Drawing()
    m.g.normal([2])
    path = tf.train.Checkpoint(m=m).save(str(tmp_path / "ckpt" / "c"))
    tf.saved_model.save(m, str(tmp_path / "sm"))
    want = [0.9029392, -0.12441138, 1.8243233]
    restored = _Drawing()
    tf.train.Checkpoint(m=restored).restore(path)
    np.testing.assert_allclose(restored.draw().numpy(), want, rtol=1e-6)
    loaded = tf.saved_model.load(str(tmp_path / "sm"))
    np.testing.assert_allclose(loaded.draw().numpy(), want, rtol=1e-6)
    np.testing.assert_allclose(loaded.draw().numpy(), [-0.74721587, -0.1169077, 0.31309813],
                               rtol=1e-6)
    assert loaded.g._state_var.numpy().tolist() == [42 + 8 * 256, 0, 0]


@pytest.mark.parametrize("draw, error, state", [
    # TF 2.21 skips the state past the draw before its op runs: the op's errors leave it
    # moved; a bound that does not convert to the dtype raises first, the state as it was
    (lambda g: g.uniform_full_int([2], dtype=tf.float32), tf.errors.InvalidArgumentError, 513),
    (lambda g: g.uniform([2], maxval=5, dtype=tf.int8), tf.errors.InvalidArgumentError, 513),
    (lambda g: g.normal([-1]), tf.errors.InvalidArgumentError, -255),
    (lambda g: g.make_seeds(-1), tf.errors.InvalidArgumentError, -255),
    (lambda g: g.uniform([2], dtype=tf.string), TypeError, 1),
    (lambda g: g.uniform([2], dtype=tf.bool), TypeError, 1),
    (lambda g: g.normal([2], dtype=tf.int32), TypeError, 1),
    (lambda g: g.truncated_normal([2], dtype=tf.int32), TypeError, 1),
])
def test_a_failing_draw_leaves_the_state_as_tf_does(draw, error, state):
    g = tf.random.Generator.from_seed(1)
    with pytest.raises(error):
        draw(g)
    assert g.state.numpy().tolist() == [state, 0, 0]

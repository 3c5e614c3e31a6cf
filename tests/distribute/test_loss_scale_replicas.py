"""A LossScaleOptimizer over replicas: a non-finite gradient in one replica makes every
replica skip the step, eagerly and in a function (where the step is a `cond`)."""
import numpy as np

import eagerflow as tf


def _rid():
    return tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group, tf.float32)


def _grad(bad, bad_replica, value):
    g = tf.constant([1.0, 1.0]) * (_rid() + 1.0)
    return tf.where(tf.logical_and(bad, tf.equal(_rid(), bad_replica)),
                    tf.constant([value, 1.0]), g)


def _state(opt, v):
    return (v.numpy().tolist(), float(opt.loss_scale), int(opt.dynamic_counter),
            int(opt.iterations))


def test_one_replica_overflowing_skips_every_replica(two_cpus):
    s = two_cpus
    with s.scope():
        v = tf.Variable([1.0, 2.0])
        opt = tf.keras.mixed_precision.LossScaleOptimizer(
            tf.keras.optimizers.SGD(1.0), dynamic_growth_steps=2, initial_scale=8.0)

    def step(bad):
        s.run(lambda: opt.apply_gradients([(_grad(tf.constant(bad), 1.0, np.inf), v)]))
        return _state(opt, v)

    assert step(False) == ([-2.0, -1.0], 8.0, 1, 1)  # the gradients summed: 1 + 2
    assert step(True) == ([-2.0, -1.0], 4.0, 0, 2)
    assert step(False) == ([-5.0, -4.0], 4.0, 1, 3)
    assert step(False) == ([-8.0, -7.0], 8.0, 0, 4)

    traced = tf.function(lambda bad: s.run(
        lambda: opt.apply_gradients([(_grad(bad, 0.0, np.nan), v)])))
    traced(tf.constant(True))
    assert _state(opt, v) == ([-8.0, -7.0], 4.0, 0, 5)
    traced(tf.constant(False))
    assert _state(opt, v) == ([-11.0, -10.0], 4.0, 1, 6)


def test_fixed_scale_over_replicas(two_cpus):
    s = two_cpus
    with s.scope():
        v = tf.Variable([0.0, 0.0])
        opt = tf.keras.mixed_precision.LossScaleOptimizer(
            tf.keras.optimizers.SGD(1.0), dynamic=False, initial_scale=4.0)
    tf.function(lambda: s.run(lambda: opt.apply_gradients(
        [(tf.constant([1.0, 2.0]) * (_rid() + 1.0), v)])))()
    assert v.numpy().tolist() == [-3.0, -6.0] and int(opt.iterations) == 1


def test_mixed_precision_weights_are_mirrored(two_cpus):
    s = two_cpus
    tf.keras.mixed_precision.set_global_policy("mixed_float16")
    try:
        with s.scope():
            dense = tf.keras.layers.Dense(2, kernel_initializer="ones")
            dense.build((None, 1))
        k = dense.kernel
        assert type(k).__name__ == "AutoCastDistributedVariable"
        assert isinstance(k, tf.distribute.DistributedValues) and isinstance(k, tf.Variable)
        assert repr(k).startswith("<AutoCastDistributedVariable dtype=float32 "
                                  "dtype_to_cast_to=float32 inner_variable=MirroredVariable:{\n"
                                  "  0: <tf.Variable 'kernel:0' shape=(1, 2)")
        assert str(k).startswith("AutoCastDistributedVariable:{\n  0: <tf.Variable")
        assert [v.name for v in s.experimental_local_results(k)] == ["kernel:0",
                                                                    "kernel/replica_1:0"]
        r = s.run(lambda: dense(tf.ones([1, 1])))
        assert [v.dtype for v in r.values] == [tf.float16] * 2
        assert dense(tf.ones([1, 1])).numpy().tolist() == [[1.0, 1.0]]
    finally:
        tf.keras.mixed_precision.set_global_policy("float32")

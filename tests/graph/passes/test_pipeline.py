"""The pass pipeline behind compiled functions: switches, traced graphs untouched, errors."""
import numpy as np
import pytest

import eagerflow as tf
from tests.internals import optimize

_PASS_SWITCHES = ["constant_folding", "arithmetic_optimization", "dependency_optimization",
                  "remapping", "memory_optimization"]


def _dense(x, w, b):
    h = tf.nn.relu(tf.matmul(x, w) + b)
    return tf.identity(h * (tf.constant(2.0) - 1.0)) * tf.cast(tf.size(b), tf.float32)


_SPECS = [tf.TensorSpec([5, 4], tf.float32), tf.TensorSpec([4, 3], tf.float32),
          tf.TensorSpec([3], tf.float32)]


def _types(fn=_dense, specs=_SPECS):
    cf = tf.function(fn).get_concrete_function(*specs)
    program = optimize(cf.graph, cf.inputs, cf.outputs)
    return [op.type for op in program.operations if op.type != "Placeholder"], program


def test_default_options_match_tensorflow(optimizer_options):
    assert optimizer_options.get_experimental_options() == {
        "disable_model_pruning": False, "disable_meta_optimizer": False}
    optimizer_options.set_experimental_options({"remapping": False, "min_graph_nodes": 3,
                                                "memory_optimization": False, "unknown": 1})
    optimizer_options.set_experimental_options({"constant_folding": True})
    assert optimizer_options.get_experimental_options() == {
        "constant_folding": True, "remapping": False, "disable_model_pruning": False,
        "disable_meta_optimizer": False, "min_graph_nodes": 3}


def test_all_passes_run_by_default():
    types, program = _types()
    assert types == ["_FusedMatMul", "Const", "Mul"]
    assert program.reuse  # the product's array takes the scaled result


# What stays in _dense's program with one switch off.
_LEFT_BY = {
    "constant_folding": lambda types, program: "Size" in types,
    "arithmetic_optimization": lambda types, program: "Identity" in types,
    "remapping": lambda types, program: "Relu" in types and "_FusedMatMul" not in types,
    "memory_optimization": lambda types, program: not program.reuse,
    "dependency_optimization": lambda types, program: types.count("Const") > 1,  # folded away
}


@pytest.mark.parametrize("switch", sorted(_LEFT_BY))
def test_each_switch_turns_its_pass_off(optimizer_options, switch):
    assert not _LEFT_BY[switch](*_types())
    optimizer_options.set_experimental_options({switch: False})
    assert _LEFT_BY[switch](*_types())


@pytest.mark.parametrize("flag, still_on", [("disable_meta_optimizer", ()),
                                            ("disable_model_pruning", tuple(sorted(_LEFT_BY)))])
def test_flags_turn_passes_off(optimizer_options, flag, still_on):
    optimizer_options.set_experimental_options({flag: True})
    types, program = _types()
    for switch, left in _LEFT_BY.items():
        off = switch not in still_on or switch == "dependency_optimization"
        assert left(types, program) is off, switch


def test_unneeded_ops_never_run_even_with_every_pass_off(optimizer_options):
    optimizer_options.set_experimental_options({"disable_meta_optimizer": True})

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def f(x):
        unused = tf.reshape(x, [7])  # fails for 3 elements: never runs
        del unused
        return x * 2.0

    np.testing.assert_allclose(f(tf.constant([1.0, 2.0, 3.0])).numpy(), [2.0, 4.0, 6.0])


def test_the_traced_graph_stays_as_traced():
    cf = tf.function(_dense).get_concrete_function(*_SPECS)
    before = [(op.type, op.inputs) for op in cf.graph.get_operations()]
    optimize(cf.graph, cf.inputs, cf.outputs)
    assert [(op.type, op.inputs) for op in cf.graph.get_operations()] == before
    assert "_FusedMatMul" not in [t for t, _ in before]


@pytest.mark.parametrize("options", [{}, *({s: False} for s in _PASS_SWITCHES),
                                     {"disable_meta_optimizer": True}])
def test_training_steps_agree_with_and_without_passes(optimizer_options, options):
    rng = np.random.default_rng(0)
    x = tf.constant(rng.normal(size=(8, 6)).astype(np.float32))
    y = tf.constant(rng.integers(0, 3, 8).astype(np.int32))

    def train(opts):
        optimizer_options.set_experimental_options(
            {"disable_meta_optimizer": False, **{s: True for s in _PASS_SWITCHES}, **opts})
        w = tf.Variable(np.linspace(-1, 1, 18, dtype=np.float32).reshape(6, 3))
        b = tf.Variable(np.zeros(3, np.float32))

        @tf.function
        def step(x, y):
            with tf.GradientTape() as tape:
                logits = tf.nn.relu(tf.matmul(x, w) + b) * 1.0
                loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(y, logits))
            for v, g in zip((w, b), tape.gradient(loss, (w, b))):
                v.assign_sub(0.5 * g)
            return loss

        losses = [step(x, y).numpy() for _ in range(3)]
        return losses, w.numpy(), b.numpy()

    want = train({"disable_meta_optimizer": True})
    got = train(options)
    np.testing.assert_allclose(got[0], want[0], rtol=1e-6)
    np.testing.assert_allclose(got[1], want[1], rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(got[2], want[2], rtol=1e-6, atol=1e-7)


def test_a_failing_fused_op_names_the_users_matmul_line():
    @tf.function(input_signature=[tf.TensorSpec([None, None], tf.float32),
                                  tf.TensorSpec([3, 2], tf.float32),
                                  tf.TensorSpec([2], tf.float32)])
    def f(x, w, b):
        return tf.nn.relu(tf.matmul(x, w) + b)  # the product is the fused op's location

    cf = f.get_concrete_function()
    assert "_FusedMatMul" in [op.type for op in optimize(cf.graph, cf.inputs,
                                                         cf.outputs).operations]
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        f(tf.ones([2, 4]), tf.ones([3, 2]), tf.ones([2]))
    message = str(info.value)
    assert "Matrix size-incompatible" in message
    assert "test_pipeline.py" in message and "node MatMul" in message

"""A stateless op's seed must have shape [2]: eagerly the kernel's error in TF's eager form;
in a graph the shape function's ValueError for what is known, the kernel's error at run
time for what is not (a seed of unknown shape traces)."""
import pytest

import eagerflow as tf


@pytest.mark.parametrize("seed, shown, suffix", [([1, 2, 3], "[3]", ""),
                                                  ([[1, 2]], "[1,2]", ""),
                                                  (5, "[]", " name: ")])
def test_eager_seed_shape_error_is_the_kernels(seed, shown, suffix):
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.random.stateless_uniform([2], seed=seed)
    assert str(e.value).startswith("{{function_node __wrapped__StatelessRandomGetKeyCounter_")
    assert str(e.value).endswith(f"seed must have shape [2], not {shown} "
                                 f"[Op:StatelessRandomGetKeyCounter]{suffix}")


def test_categorical_seed_error_names_its_op():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"^\{\{function_node __wrapped__StatelessMultinomial_.*not \[3\] "
                             r"\[Op:StatelessMultinomial\]$"):
        tf.random.stateless_categorical([[1., 2.]], 2, seed=[1, 2, 3])


def test_unknown_seed_shape_traces_and_is_checked_when_run():
    @tf.function(input_signature=[tf.TensorSpec(None, tf.int32)])
    def draw(seed):
        return tf.random.stateless_uniform([2], seed=seed)

    assert draw(tf.constant([1, 2])).numpy().tolist() == \
        tf.random.stateless_uniform([2], seed=[1, 2]).numpy().tolist()
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"seed must have shape \[2\], "
                                                             r"not \[3\]"):
        draw(tf.constant([1, 2, 3]))


@pytest.mark.parametrize("seed, sentence", [([1, 2, 3], "Dimension must be 2 but is 3"),
                                            ([[1, 2]], "Shape must be rank 1 but is rank 2")])
def test_known_bad_seed_shape_fails_while_tracing(seed, sentence):
    @tf.function
    def draw(seed):
        return tf.random.stateless_normal([2], seed=seed)

    with pytest.raises(ValueError, match=sentence):
        draw(tf.constant(seed))

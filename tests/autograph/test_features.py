"""tf.autograph.experimental.Feature: the optional parts of the conversion."""
import pytest

import eagerflow as tf

Feature = tf.autograph.experimental.Feature


def _positive(x):
    assert x > 0
    return x


def test_members():
    assert [m.name for m in Feature] == [
        "ALL", "AUTO_CONTROL_DEPS", "ASSERT_STATEMENTS", "BUILTIN_FUNCTIONS",
        "EQUALITY_OPERATORS", "LISTS", "NAME_SCOPES"]
    assert all(m.value == m.name for m in Feature)
    assert repr(Feature.LISTS) == "<Feature.LISTS: 'LISTS'>"


@pytest.mark.parametrize("options", [Feature.ALL, Feature.ASSERT_STATEMENTS,
                                     (Feature.ASSERT_STATEMENTS,),
                                     [Feature.LISTS, Feature.ASSERT_STATEMENTS]])
def test_function_converts_asserts_with_the_feature(options):
    f = tf.function(_positive, experimental_autograph_options=options)
    assert f(tf.constant(2)).numpy() == 2


@pytest.mark.parametrize("options", [None, (), (Feature.EQUALITY_OPERATORS,)])
def test_function_leaves_asserts_without_the_feature(options):
    # as TF's: tf.function converts with no optional feature unless told
    f = tf.function(_positive, experimental_autograph_options=options)
    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError):
        f(tf.constant(2))


def test_to_graph_and_to_code_take_optional_features():
    in_graph = tf.function(tf.autograph.to_graph(_positive), autograph=False)
    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError):  # none by default
        in_graph(tf.constant(2))
    converted = tf.autograph.to_graph(_positive,
                                      experimental_optional_features=Feature.ASSERT_STATEMENTS)
    assert tf.function(converted, autograph=False)(tf.constant(2)).numpy() == 2
    assert "    assert x > 0" in tf.autograph.to_code(_positive)
    assert "ag__.assert_stmt(" in tf.autograph.to_code(
        _positive, experimental_optional_features=[Feature.ALL])


def _calls_positive(x):
    return _positive(x) + 1


def test_called_functions_convert_with_the_same_features():
    f = tf.function(_calls_positive, experimental_autograph_options=())
    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError):
        f(tf.constant(2))
    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError):
        tf.function(_calls_positive)(tf.constant(2))
    assert tf.function(_calls_positive, experimental_autograph_options=Feature.ALL)(
        tf.constant(2)).numpy() == 3


def test_other_values_are_refused():
    with pytest.raises(ValueError, match="Feature"):
        tf.autograph.to_graph(_positive, experimental_optional_features="LISTS")


def _prints(x, s):
    for i in tf.range(2):
        print("py", i, x, s, sep="|")
    print("plain", 3)
    return x


def test_builtin_functions_prints_graph_tensors_when_the_graph_runs(capsys):
    f = tf.function(_prints, experimental_autograph_options=Feature.BUILTIN_FUNCTIONS)
    f(tf.constant([1.5, 2.0]), tf.constant("hé"))
    f(tf.constant([1.5, 3.0]), tf.constant("b"))
    assert capsys.readouterr().out.splitlines() == [
        "plain 3", "py|0|[1.5 2. ]|hé", "py|1|[1.5 2. ]|hé", "py|0|[1.5 3. ]|b",
        "py|1|[1.5 3. ]|b"]
    tf.function(_prints)(tf.constant([1.0]), tf.constant("c"))  # without it: while tracing
    assert capsys.readouterr().out.splitlines()[1] == "plain 3"

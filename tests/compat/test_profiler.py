"""tf.compat.v1.profiler's builder, Profiler, advise and write_op_log; the counts and the
printed reports are checked against TF's in tests/fidelity/programs/compat_v1_profiler.py."""
import pytest

import eagerflow as tf

v1 = tf.compat.v1
Builder = v1.profiler.ProfileOptionBuilder


def _graph():
    g = tf.Graph()
    with g.as_default():
        w = v1.get_variable("w", [2, 3])
        tf.matmul(tf.ones([4, 2]), w)
    return g


def _quiet(options):
    return Builder(options).with_empty_output().build()


def test_builder_starts_from_tfs_defaults():
    opts = Builder().build()
    assert (opts["max_depth"], opts["account_displayed_op_only"], opts["select"]) == (
        100, False, ["micros"])


def test_builder_methods_set_options():
    opts = (Builder(Builder.float_operation()).with_min_memory(1, 2, 3, 4)
            .with_min_execution_time(5, 6, 7).with_node_names(hide_name_regexes=["h"])
            .with_file_output("f.txt").order_by("micros").select(["bytes"]).build())
    assert (opts["min_bytes"], opts["min_output_bytes"], opts["min_cpu_micros"]) == (1, 4, 7)
    assert opts["hide_name_regexes"] == ["h"] and opts["start_name_regexes"] == [".*"]
    assert (opts["output"], opts["order_by"], opts["select"]) == (
        "file:outfile=f.txt", "micros", ["bytes"])


def test_empty_output_prints_nothing(capsys):
    p = v1.profiler.profile(_graph(), cmd="op", options=_quiet(Builder.float_operation()))
    assert p.total_float_ops == 48 + 6 + 6 + 1  # the product and w's initializer
    assert capsys.readouterr().out == ""


def test_default_graph_and_default_options(capsys):
    with _graph().as_default():
        assert v1.profiler.profile().total_parameters == 6
    assert "_TFProfRoot (--/6 params)" in capsys.readouterr().out


def test_unknown_cmd_raises_invalid_argument():
    with pytest.raises(tf.errors.InvalidArgumentError, match="unknown cmd: foo"):
        v1.profiler.profile(_graph(), cmd="foo", options=_quiet(Builder.float_operation()))


def test_profiler_class_views():
    profiler = v1.profiler.Profiler(_graph())
    profiler.add_step(0, v1.RunMetadata())
    ops = profiler.profile_operations(_quiet(Builder.float_operation()))
    assert isinstance(ops, v1.profiler.MultiGraphNodeProto) and ops.total_float_ops == 61
    scope = profiler.profile_name_scope(_quiet(Builder.trainable_variables_parameter()))
    assert isinstance(scope, v1.profiler.GraphNodeProto) and scope.total_parameters == 6


def test_advise_lists_tfs_checkers(capsys):
    advice = v1.profiler.advise(_graph(), v1.RunMetadata())
    assert sorted(advice.checkers) == [
        "AcceleratorUtilizationChecker", "ExpensiveOperationChecker", "OperationChecker"]
    assert "OperationChecker:" in capsys.readouterr().out


def test_write_op_log(tmp_path):
    v1.profiler.write_op_log(_graph(), str(tmp_path))
    log = v1.profiler.OpLogProto.FromString((tmp_path / "tfprof_log").read_bytes())
    entries = {e.name: (e.float_ops, list(e.types)) for e in log.log_entries}
    assert entries["MatMul"] == (48, [])
    assert entries["w"] == (0, ["_trainable_variables"])

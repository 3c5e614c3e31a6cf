"""TF 2 top-level names: Keras aliases, Assert, control_dependencies, get_logger, tf.test."""
import os
import io
import subprocess
import sys
import unittest

import numpy as np
import pytest

import eagerflow as tf

_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_keras_aliases_are_the_keras_namespaces():
    assert tf.metrics.Mean is tf.keras.metrics.Mean
    assert tf.losses.MeanSquaredError is tf.keras.losses.MeanSquaredError
    assert tf.losses.mean_squared_error is tf.keras.losses.mean_squared_error
    assert tf.optimizers.Adam is tf.keras.optimizers.Adam
    assert tf.optimizers.legacy.Adam is tf.keras.optimizers.legacy.Adam
    assert tf.initializers.GlorotUniform is tf.keras.initializers.GlorotUniform
    m = tf.metrics.Mean()
    m.update_state([1.0, 3.0])
    assert float(m.result()) == 2.0


def test_aliases_and_test_load_lazily():
    code = ("import sys, eagerflow; print('eagerflow.keras' in sys.modules, "
            "'eagerflow.test' in sys.modules, 'unittest' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": os.path.join(_ROOT, "src")})
    assert out.stdout.split() == ["False", "False", "False"]
    with pytest.raises(AttributeError, match="no attribute 'metricz'"):
        tf.metricz  # noqa: B018


def test_assert_is_debugging_assert():
    assert tf.Assert is tf.debugging.Assert
    assert tf.Assert(tf.constant(True), [1]) is None
    with pytest.raises(tf.errors.InvalidArgumentError, match="Summarized data: 1, 2"):
        tf.Assert(tf.constant(False), [tf.constant([1, 2])])


def test_control_dependencies_eager_and_in_function():
    v = tf.Variable(0)
    with tf.control_dependencies([v.assign_add(1)]):
        y = tf.identity(v)
    assert int(y) == 1

    @tf.function
    def f(x):
        with tf.control_dependencies([v.assign_add(10)]):
            return tf.identity(v) + x
    assert int(f(tf.constant(1))) == 12


def test_control_dependencies_in_a_v1_graph_adds_edges():
    tf1 = tf.compat.v1
    with tf1.Graph().as_default():
        v = tf1.Variable(0)
        with tf.control_dependencies([tf1.assign_add(v, 5)]):
            y = tf.identity(v)
        with tf1.Session() as sess:
            sess.run(tf1.global_variables_initializer())
            assert sess.run(y) == 5


def test_get_logger():
    logger = tf.get_logger()
    assert logger.name == "tensorflow" and logger is tf.get_logger()


def test_device_queries():
    assert tf.test.is_built_with_cuda() is False
    assert tf.test.is_built_with_gpu_support() is False
    assert tf.test.is_gpu_available() is False
    assert tf.test.gpu_device_name() == ""
    # NumPy kernels run on each CPU target TF knows; another name fails TF's assertion
    assert tf.test.is_cpu_target_available("x86") is tf.test.is_cpu_target_available("aarch64")
    assert tf.test.is_cpu_target_available("x86") is True
    with pytest.raises(AssertionError, match="Unknown CPU target: foo"):
        tf.test.is_cpu_target_available("foo")


class _Case(tf.test.TestCase):
    def test_evaluate_and_assertions(self):
        self.assertAllEqual(self.evaluate({"a": tf.constant([1, 2])})["a"], [1, 2])
        self.assertAllClose(tf.constant([1.0, 2.0]), np.array([1.0, 2.0000001]))
        self.assertAllClose({"a": [tf.constant(1.0)]}, {"a": [1.0]})
        with self.assertRaises(AssertionError):
            self.assertAllClose([1.0, 2.0], [1.0, 2.1])
        with self.assertRaises(AssertionError):
            self.assertAllEqual([1, 2], [[1, 2]])
        self.assertNotAllEqual([1, 2], [1, 3])
        self.assertAllInRange(tf.constant([1, 2]), 0, 2)
        self.assertAllGreater([3, 4], 2)
        with self.assertRaisesOpError("must be"):
            tf.debugging.Assert(False, ["x must be"])
        with self.assertRaises(AssertionError):
            with self.assertRaisesOpError("other"):
                tf.debugging.Assert(False, ["x must be"])
        with self.cached_session() as sess:
            assert sess.run(tf.constant(2)) == 2

    def test_session_in_a_graph(self):
        tf1 = tf.compat.v1
        with tf1.Graph().as_default():
            x = tf1.placeholder(tf.float32, [2])
            with self.session() as sess:
                self.assertAllClose(sess.run(x * 2, {x: [1.0, 2.0]}), [2.0, 4.0])
                self.assertAllEqual(self.evaluate(tf.constant([3])), [3])


def test_test_case_runs_under_unittest():
    result = unittest.TestResult()
    unittest.defaultTestLoader.loadTestsFromTestCase(_Case).run(result)
    assert result.wasSuccessful(), result.errors + result.failures
    # (and TF's inherited `test_session`, run as a test and skipped, as in TF)
    assert result.testsRun == 3 and len(result.skipped) == 1


def test_graph_group_no_op_at_top_level():
    # TF 2 programs build TF 1 graphs with tf.Graph() and group updates with tf.group.
    assert tf.Graph is tf.compat.v1.Graph
    assert tf.no_op() is None and tf.group(tf.constant(1.0)) is None
    g = tf.Graph()
    with g.as_default():
        v = tf.compat.v1.get_variable("v", initializer=1.0)
        x = tf.constant(2.0) * 3.0
        step = tf.group(v.assign_add(1.0), tf.no_op())
        assert not tf.executing_eagerly()
    assert tf.executing_eagerly()
    with tf.compat.v1.Session(graph=g) as sess:
        sess.run(tf.compat.v1.global_variables_initializer())
        assert sess.run(step) is None
        assert sess.run(x) == 6.0 and sess.run(v) == 2.0
    assert tf.import_graph_def is tf.graph_util.import_graph_def


def test_inside_function_current_name_scope_and_tuple():
    assert tf.inside_function() is False and tf.get_current_name_scope() == ""
    seen = []

    @tf.function
    def traced(x):
        with tf.name_scope("s"):
            seen.append((tf.inside_function(), tf.get_current_name_scope()))
        return x
    traced(tf.constant(1))
    assert seen == [(True, "s")]
    with tf.name_scope("a"):
        with tf.name_scope("b"):
            assert tf.get_current_name_scope() == "a/b"
    with tf.Graph().as_default():
        assert tf.inside_function() is False
        a = tf.constant(1)
        out = tf.tuple([a, None, tf.constant(2.0)])
        assert out[1] is None and out[2].dtype == tf.float32
        with tf.compat.v1.Session() as sess:
            assert sess.run([out[0], out[2]]) == [1, 2.0]
    eager = tf.tuple([tf.constant(1), tf.constant(2.0)])
    assert [int(t) for t in eager] == [1, 2]
    with pytest.raises(ValueError, match="'tensors' must have at least one Tensor"):
        tf.function(lambda: tf.tuple([]))()
    with pytest.raises(TypeError, match="'control_inputs' must only contain Operation or "
                       "Tensor. Received: <class 'int'>"):
        tf.function(lambda: tf.tuple([tf.constant(1)], control_inputs=[5]))()
    ops = tf.function(lambda: tf.tuple([tf.constant(1)], control_inputs=[tf.no_op()]))()
    assert [int(t) for t in ops] == [1]


def test_warnings_print_through_the_tensorflow_logger():
    # tf_keras 2.21 prints "WARNING:tensorflow:Early stopping conditioned on metric `val_x`
    # which is not available. Available metrics are: loss" on stderr: tf.get_logger() has a
    # "%(levelname)s:%(name)s:%(message)s" stderr handler when the root logger has none
    # (level left NOTSET); with logging.basicConfig first, the root's handler prints instead.
    code = ("import numpy as np, eagerflow as tf\n"
            "print(tf.get_logger().level, [h.formatter._fmt for h in tf.get_logger().handlers])\n"
            "m = tf.keras.Sequential([tf.keras.layers.Dense(1)]); m.compile('sgd', 'mse')\n"
            "m.fit(np.ones((4, 3)), np.ones((4, 1)), verbose=0,\n"
            "      callbacks=[tf.keras.callbacks.EarlyStopping(monitor='val_x')])\n")
    env = {**os.environ, "PYTHONPATH": os.path.join(_ROOT, "src")}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert out.stdout.splitlines() == ["0 ['%(levelname)s:%(name)s:%(message)s']"]
    assert out.stderr == ("WARNING:tensorflow:Early stopping conditioned on metric `val_x` "
                          "which is not available. Available metrics are: loss\n")
    code = "import logging; logging.basicConfig(format='ROOT %(message)s')\n" + code
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert out.stdout.splitlines() == ["0 []"]
    assert out.stderr.startswith("ROOT Early stopping conditioned on metric `val_x`")


def test_v1_keras_backend_sessions():
    config = tf.compat.v1.ConfigProto()
    config.gpu_options.allow_growth = True
    sess = tf.compat.v1.Session(config=config)
    tf.compat.v1.keras.backend.set_session(sess)
    assert tf.compat.v1.keras.backend.get_session() is sess
    with tf.compat.v1.Session() as inner:  # a default session comes first
        assert tf.compat.v1.keras.backend.get_session() is inner
    # the rest of tf.compat.v1.keras is tf.keras
    assert tf.compat.v1.keras.layers.Dense is tf.keras.layers.Dense
    assert tf.compat.v1.keras.backend.floatx() == "float32"


def test_test_benchmark_reports_tfs_entries(capsys):
    class MyBenchmark(tf.test.Benchmark):
        def benchmark_add(self):
            self.report_benchmark(iters=3, wall_time=0.5, extras={"rows": 2, "kind": "cpu"})

    MyBenchmark().benchmark_add()
    out = capsys.readouterr().out
    assert 'name: "MyBenchmark.benchmark_add"' in out and "iters: 3" in out
    assert 'key: "kind"' in out and 'string_value: "cpu"' in out and "double_value: 2.0" in out
    with tf.compat.v1.Session() as sess:
        result = MyBenchmark().run_op_benchmark(sess, tf.constant(1.0), burn_iters=1,
                                                min_iters=3, name="one")
    assert result["iters"] == 3 and result["name"] == "MyBenchmark.one"
    assert result["wall_time"] >= 0
    assert MyBenchmark().evaluate({"a": tf.constant(2)}) == {"a": 2}


def test_test_decorators_and_graph_def_comparison():
    class Case(tf.test.TestCase):
        @tf.test.disable_with_predicate(lambda: True, "off here")
        def test_skipped(self):
            raise AssertionError("ran")

    result = unittest.TextTestRunner(stream=io.StringIO()).run(Case("test_skipped"))
    assert len(result.skipped) == 1 and result.skipped[0][1] == "off here"
    assert tf.test.with_eager_op_as_function(Case) is Case
    tf.test.experimental.sync_devices()
    graph = tf.function(lambda x: x + 1).get_concrete_function(tf.TensorSpec([])).graph
    other = tf.function(lambda x: x * 2).get_concrete_function(tf.TensorSpec([])).graph
    tf.test.assert_equal_graph_def(graph.as_graph_def(), graph.as_graph_def())
    with pytest.raises(AssertionError):
        tf.test.assert_equal_graph_def(graph.as_graph_def(), other.as_graph_def())
    with pytest.raises(TypeError, match="Expected tf.GraphDef"):
        tf.test.assert_equal_graph_def("x", graph.as_graph_def())
    config = tf.test.benchmark_config()
    assert config.graph_options.rewrite_options.dependency_optimization == 2

"""``tf.test``: `main`, the device queries, benchmarks and test decorators (`TestCase` is in
`testcase`).

>>> tf.test.is_built_with_cuda(), tf.test.gpu_device_name()
(False, '')
"""
import atexit
import os
import shutil
import sys
import tempfile
import unittest

import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import nest


@export("test.is_built_with_cuda")
def is_built_with_cuda():
    """False: eagerflow runs on NumPy, not CUDA."""
    return False


@export("test.is_built_with_gpu_support")
def is_built_with_gpu_support():
    """False: eagerflow has no GPU kernels."""
    return False


@export("test.is_built_with_xla")
def is_built_with_xla():
    """True, as TF's CPU builds answer: ``tf.function(jit_compile=True)`` is accepted (and
    compiled as any function is), so programs that check before asking for it run."""
    return True


@export("test.is_built_with_rocm")
def is_built_with_rocm():
    """False: eagerflow has no ROCm kernels."""
    return False


@export("test.is_cpu_target_available")
def is_cpu_target_available(target):
    """Whether kernels run on CPU `target` (``'x86'``, ``'aarch64'``, ``'arm'``, ``'ppc'`` or
    ``'powerpc'``, ``'s390x'``): True for each, as NumPy kernels run on all of them, as TF's
    builds answer; an AssertionError for another name, as TF's."""
    if target.startswith(("arm", "aarch64", "ppc", "powerpc", "x86", "s390x")):
        return True
    raise AssertionError("Unknown CPU target: " + target)


@export("test.is_gpu_available")
def is_gpu_available(cuda_only=False, min_cuda_compute_capability=None):
    """False: no GPU device (deprecated in TF: use ``tf.config.list_physical_devices('GPU')``)."""
    del cuda_only, min_cuda_compute_capability
    return False


@export("test.gpu_device_name")
def gpu_device_name():
    """The name of a GPU device, ``''`` when there is none (always here)."""
    return ""


@export("test.main")
def main(argv=None):
    """Runs the tests of ``__main__`` (``unittest.main``)."""
    return unittest.main(argv=argv)


_temp_dir = []


@export("compat.v1.test.get_temp_dir")
def get_temp_dir():
    """A directory for the program's temporary files: made once (under the system's
    temporary directory, named after the program) and removed when the program ends."""
    if not _temp_dir:
        base = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else "python"
        path = tempfile.mkdtemp(prefix=base)
        atexit.register(shutil.rmtree, path, ignore_errors=True)
        _temp_dir.append(path)
    return _temp_dir[0]


def _numpy(value):
    if hasattr(value, "numpy"):
        return value.numpy()
    return np.asarray(value)


# -- benchmarks and test decorators ---------------------------------------------------------

def _entry_text(name, iters, cpu_time, wall_time, throughput, extras, metrics):
    """One entry of TF's BenchmarkEntries message, in protobuf text format."""
    lines = [f'  name: "{name}"']
    for field, value in (("iters", iters), ("cpu_time", cpu_time), ("wall_time", wall_time),
                         ("throughput", throughput)):
        if value is not None:
            lines.append(f"  {field}: {int(value) if field == 'iters' else float(value)!r}")
    for key, value in sorted((extras or {}).items()):
        kind = "string_value" if isinstance(value, str) else "double_value"
        shown = f'"{value}"' if isinstance(value, str) else repr(float(value))
        lines.append(f'  extras {{\n    key: "{key}"\n    value {{\n      {kind}: {shown}\n'
                     f"    }}\n  }}")
    for metric in metrics or ():
        lines.append(f'  metrics {{\n    name: "{metric["name"]}"\n    value: '
                     f'{float(metric["value"])!r}\n  }}')
    return "entry {\n" + "\n".join(lines) + "\n}\n"


@export("test.Benchmark")
class TensorFlowBenchmark:
    """A benchmark: `report_benchmark` prints each measurement as TF's BenchmarkEntries
    text; `run_op_benchmark` times a session's runs of an op.

    >>> tf.test.Benchmark().report_benchmark(iters=3, wall_time=0.5, name="x")
    entry {
      name: "TensorFlowBenchmark.x"
      iters: 3
      wall_time: 0.5
    }
    <BLANKLINE>
    """

    @classmethod
    def is_abstract(cls):
        return False

    def _name(self, name):
        if name is None:  # the benchmark method that called
            import inspect  # noqa: PLC0415 (needed only here)
            name = next((f.function for f in inspect.stack()[2:]
                         if f.function.startswith("benchmark")), "benchmark")
        return f"{type(self).__name__}.{name}"

    def report_benchmark(self, iters=None, cpu_time=None, wall_time=None, throughput=None,
                         extras=None, name=None, metrics=None):
        """Reports one measurement (printed, as TF does without a report file)."""
        print(_entry_text(self._name(name), iters, cpu_time, wall_time, throughput, extras,
                          metrics))

    def run_op_benchmark(self, sess, op_or_tensor, feed_dict=None, burn_iters=2, min_iters=10,
                         store_trace=False, store_memory_usage=True, name=None, extras=None,
                         mbs=0):
        """Runs `op_or_tensor` `burn_iters` times, then times `min_iters` runs; reports and
        returns the median wall time per run."""
        import time  # noqa: PLC0415 (needed only here)
        for _ in range(burn_iters):
            sess.run(op_or_tensor, feed_dict=feed_dict)
        times = []
        for _ in range(min_iters):
            start = time.perf_counter()
            sess.run(op_or_tensor, feed_dict=feed_dict)
            times.append(time.perf_counter() - start)
        wall_time = float(np.median(times))
        extras = dict(extras or {})
        if mbs:
            extras["throughput_mb_per_sec"] = float(mbs) / wall_time
        name = self._name(name)
        self.report_benchmark(iters=min_iters, wall_time=wall_time, extras=extras,
                              name=name.split(".", 1)[1])
        return {"iters": min_iters, "wall_time": wall_time, "extras": extras, "name": name}

    def evaluate(self, tensors):
        """The values of `tensors` (a nest) as NumPy."""
        return nest.map_structure(_numpy, tensors)


@export("test.benchmark_config")
def benchmark_config():
    """The session config TF's benchmarks use (dependency optimization off)."""
    from eagerflow._src.compat.session import ConfigProto  # noqa: PLC0415 (v1 sessions)
    config = ConfigProto()
    config.graph_options.rewrite_options.dependency_optimization = 2  # (OFF)
    return config


@export("test.disable_with_predicate")
def disable_with_predicate(pred, skip_message):
    """Decorates a test method to skip with `skip_message` when ``pred()`` is true."""
    def decorator(test):
        def wrapped(self, *args, **kwargs):
            if pred():
                self.skipTest(skip_message)
            return test(self, *args, **kwargs)
        wrapped.__name__, wrapped.__doc__ = test.__name__, test.__doc__
        return wrapped
    return decorator


@export("test.with_eager_op_as_function")
def with_eager_op_as_function(cls=None, only_as_function=False):
    """A test class as it is: TF reruns its tests with eager ops run as functions, which
    is how every eager op runs here already."""
    if cls is None:
        return lambda c: c
    return cls


@export("test.experimental.sync_devices")
def sync_devices():
    """Waits for the devices' pending work: ops here finish before they return."""


@export("test.assert_equal_graph_def")
def assert_equal_graph_def(expected, actual):
    """Asserts two GraphDefs hold the same nodes (in any order) and library.

    >>> g = tf.function(lambda x: x + 1).get_concrete_function(tf.TensorSpec([])).graph
    >>> tf.test.assert_equal_graph_def(g.as_graph_def(), g.as_graph_def())
    """
    for label, graph in (("expected", expected), ("actual", actual)):
        if type(graph).__name__ != "GraphDef":
            raise TypeError(f"Expected tf.GraphDef for {label}, got {type(graph).__name__}")
    mine = {n.name: n for n in expected.node}
    theirs = {n.name: n for n in actual.node}
    problems = [f"{name} is missing from actual" for name in mine if name not in theirs]
    problems += [f"{name} is unexpected in actual" for name in theirs if name not in mine]
    problems += [f"{name} differs:\nexpected:\n{mine[name]}\nactual:\n{theirs[name]}"
                 for name in mine if name in theirs and mine[name] != theirs[name]]
    if expected.library != actual.library:
        problems.append("the function libraries differ")
    if problems:
        raise AssertionError("\n".join(problems))


"""The public namespaces are written from the ``@export`` declarations (tools/gen_api.py)."""
import importlib.util
import inspect
import os
import subprocess
import sys

import numpy as np
import pytest

import eagerflow as tf
from tests import internals

api_export = internals.api_export
MATH = internals.math_ops.__name__

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _generator():
    spec = importlib.util.spec_from_file_location(
        "gen_api", os.path.join(_ROOT, "tools", "gen_api.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_generated_namespaces_are_up_to_date():
    gen = _generator()
    assert gen.stale(gen.generate()) == []  # else: run python tools/gen_api.py


def test_an_undeclared_public_module_is_stale(tmp_path):
    gen = _generator()
    files = gen.generate()
    files.pop(os.path.join("src", "eagerflow", "math", "special", "__init__.py"))
    assert gen.stale(files) == [os.path.join("src", "eagerflow", "math", "special",
                                             "__init__.py")]


def test_a_declaration_generates_its_names():
    gen = _generator()
    gen.declarations()
    tree = gen.namespaces([(None, MATH, "add", ("math.plus", "plus")),
                           (None, MATH, "floormod", ("math.mod",))])
    assert tree["math"] == {"plus": (MATH, "add"),
                            "mod": (MATH, "floormod")}
    assert tree[""] == {"plus": (MATH, "add")}
    text = gen.render("math", tree["math"], [])
    assert f"from {MATH} import add as plus  # noqa: F401" in text


def test_canonical_names_come_first():
    assert tf.add._tf_api_names == ("math.add", "add")
    assert tf.matmul._tf_api_names == ("linalg.matmul", "matmul")
    assert tf.nn.softmax._tf_api_names[0] == "nn.softmax"
    assert tf.reshape._tf_api_names == ("reshape", "compat.v1.manip.reshape")  # (TF 1 names last)
    assert tf.keras.layers.Dense._keras_api_names == ("keras.layers.Dense",)


def test_one_declaration_names_every_alias():
    assert tf.math.floormod is tf.math.mod
    assert tf.math.floormod._tf_api_names == ("math.floormod", "math.mod")
    assert tf.float16 is tf.half is tf.dtypes.half
    assert tf.random.experimental.stateless_fold_in is tf.random.fold_in


def test_export_returns_the_function_itself():
    math_ops = internals.math_ops
    assert tf.add is math_ops.add and tf.add.__code__.co_filename == math_ops.__file__
    assert not hasattr(tf.add, "__wrapped__")  # it dispatches itself, as the fast path does
    assert not hasattr(tf.math.exp, "__wrapped__")


def test_export_gives_other_functions_dispatch_support_of_their_own_signature():
    array_ops = internals.array_ops
    assert tf.reshape is array_ops.reshape and tf.reshape.__wrapped__.__module__ == \
        array_ops.__name__
    assert tf.reshape.__code__.co_varnames[:tf.reshape.__code__.co_argcount] == (
        "tensor", "shape", "name")
    assert tf.reshape.__name__ == "reshape" and tf.reshape._tf_api_names[0] == "reshape"
    assert tf.matmul.__defaults__ == tf.matmul.__wrapped__.__defaults__
    assert not hasattr(tf.nest.map_structure, "__wrapped__")  # TF does not dispatch tf.nest
    assert not hasattr(tf.keras.backend.mean, "__wrapped__")  # nor Keras's own functions


def test_subclasses_do_not_inherit_public_names():
    api_names, canonical_name = api_export.api_names, api_export.canonical_name

    class MyLayer(tf.keras.layers.Dense):
        pass
    assert canonical_name(tf.keras.layers.Dense) == "keras.layers.Dense"
    assert api_names(MyLayer) == () and canonical_name(MyLayer) is None


def _python(code):
    """`code` run by a new Python process that imports eagerflow from this tree."""
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": os.path.join(_ROOT, "src")})


def test_import_keeps_keras_lazy():
    code = "import sys, eagerflow; print('eagerflow.keras' in sys.modules)"
    out = _python(code)
    assert out.stdout.strip() == "False"
    assert tf.keras.__version__ == "2.21.0"


def test_tf_nn_offers_keras_classes_without_loading_keras():
    # tf.nn's RNN cell wrappers are Keras classes: listed by dir(tf.nn), loaded on first use
    code = ("import sys, eagerflow; eagerflow.nn.relu; names = dir(eagerflow.nn); "
            "keras = lambda: sorted(m for m in sys.modules if m.startswith(('eagerflow.keras', "
            "'eagerflow._src.keras'))); print(keras()); "
            "print('RNNCellDropoutWrapper' in names); "
            "print(eagerflow.nn.RNNCellDropoutWrapper.__name__, bool(keras()))")
    out = _python(code)
    assert out.stdout.split("\n")[:3] == ["[]", "True", "DropoutWrapper True"], out.stderr


def test_a_deferred_declaration_is_imported_on_first_use():
    gen = _generator()
    gen.declarations()
    module = internals.reshaping.__name__  # (a module of Keras's layers)
    assert gen.deferred("nn", module) and gen.deferred("", module)
    assert not gen.deferred("keras.layers", module) and not gen.deferred("nn", MATH)
    # with the lazy sub-namespaces of the package itself: one __getattr__ serves both
    text = gen.render("", {"Reshape": (module, "Reshape"), "plus": (MATH, "add")},
                      ["keras", "nn"])
    assert text.count("def __getattr__(name):") == 1 and "def __dir__():" in text
    assert f'"Reshape": ("{module}", "Reshape")' in text and "import add as plus" in text
    namespace = {}
    exec(compile(text, "<generated>", "exec"), namespace)  # noqa: S102 (our own output)
    assert namespace["__getattr__"]("Reshape") is tf.keras.layers.Reshape
    assert namespace["Reshape"] is tf.keras.layers.Reshape  # (kept once loaded)
    assert {"Reshape", "keras", "nn"} <= set(namespace["__dir__"]())


def test_dir_lists_the_lazy_namespaces_without_loading_them():
    # as TF's dir(tf) does (IPython's completion, programs walking the API)
    code = ("import sys, eagerflow as tf; names = dir(tf); "
            "print(sorted({'train', 'data', 'keras', 'losses', 'compat'} - set(names)), "
            "'eagerflow' in names, 'v1' in dir(tf.compat), 'eagerflow.train' in sys.modules)")
    out = _python(code)
    assert out.stdout.strip() == "[] False True False", out.stderr
    # a namespace offering another's names lists them too
    assert {"placeholder", "matmul", "Session"} <= set(dir(tf.compat.v1))
    assert {"GRU", "Dense"} <= set(dir(tf.compat.v1.keras.layers))


def test_import_loads_no_module_it_can_do_without():
    # Each costs milliseconds of ``import eagerflow``; the code using them loads them.
    code = ("import sys, numpy; before = set(sys.modules); import eagerflow; "
            "print(sorted(set(sys.modules) - before))")
    out = _python(code)
    loaded = set(eval(out.stdout))  # noqa: S307 (a list of names printed above)
    assert "eagerflow" in loaded
    heavy = {"logging", "ctypes.util", "subprocess", "secrets", "hashlib", "sysconfig",
             "numpy.polynomial"}
    assert loaded & heavy == set()


def test_a_new_declaration_makes_the_modules_stale():
    gen = _generator()
    api_export.export("math.plus").export_constant(MATH, "add")
    try:
        assert gen.stale(gen.generate()) == [
            os.path.join("src", "eagerflow", "math", "__init__.py")]
    finally:
        del api_export.EXPORTS[-1]


def _wrapped_public_functions():
    return [obj for obj, _, _, _ in api_export.EXPORTS
            if "_undispatched" in getattr(obj, "__dict__", {}) and obj.__module__.startswith(
                "eagerflow.")]


def test_dispatch_wrappers_are_generated_with_each_functions_signature():
    gen = _generator()
    assert gen.WRAPPERS in gen.generate()  # so the staleness test covers it
    functions = _wrapped_public_functions()
    assert tf.reshape in functions and tf.print in functions and len(functions) > 200
    for f in functions:
        # loaded from the generated module, none compiled at import
        assert os.path.basename(f.__code__.co_filename) == "dispatch_wrappers.py", f
        assert inspect.signature(f) == inspect.signature(f.__wrapped__), f
        assert f.__doc__ == f.__wrapped__.__doc__ and f.__name__ == f.__wrapped__.__name__
    # declared with export(...)(f) after a factory made it, named as TF names it
    assert tf.reduce_sum.__wrapped__.__name__ == tf.reduce_sum.__name__ == "reduce_sum"
    assert internals.reduction_ops.reduce_sum is tf.reduce_sum


def test_a_generated_wrapper_dispatches_keras_tensors():
    x = tf.keras.Input((3, 4))
    y = tf.reshape(x, shape=[-1, 12])
    assert y.shape.as_list() == [None, 12]
    layer = y.node.layer
    assert type(layer).__name__ == "TFOpLambda" and layer.name == "tf.reshape"
    z = tf.split(x, 2, axis=-1)  # another signature, a list of outputs
    model = tf.keras.Model(x, [y, *z])
    outs = model(np.arange(24, dtype="float32").reshape(2, 3, 4))
    assert outs[0].shape == (2, 12) and outs[2].numpy().tolist() == [
        [[2, 3], [6, 7], [10, 11]], [[14, 15], [18, 19], [22, 23]]]


def _scaled(x, factor=2, *rest, by=None, **options):
    """x times factor."""
    return x * factor


def test_a_declaration_newer_than_the_generated_wrappers_gets_one_compiled():
    gen = _generator()
    raw = _scaled
    # "reshape" has a generated wrapper of other parameters: not taken
    for name in ("math.scaled_for_test", "reshape"):
        wrapper = api_export.export(name)(raw)
        try:
            assert globals()["_scaled"] is wrapper and wrapper.__wrapped__ is raw
            assert inspect.signature(wrapper) == inspect.signature(raw)
            assert wrapper.__doc__ == "x times factor."
            assert wrapper(3, 4, by=1) == 12 and wrapper(3) == 6
            if name != "reshape":
                assert gen.WRAPPERS in gen.stale(gen.generate())
        finally:
            del api_export.EXPORTS[-1]
            globals()["_scaled"] = raw


def test_each_public_namespace_loads_as_the_first_one_used():
    # A program may reach any namespace first (tf.feature_column before tf.keras, say):
    # each is loaded, in a process of its own, right after ``import eagerflow``.
    code = """
import os
import eagerflow as tf
names = sorted(n for n in dir(tf) if not n.startswith("_")) + sorted(
    set(tf._ALIASES) | {"contrib", "data", "feature_column", "keras", "profiler", "raw_ops",
                        "saved_model", "summary", "test", "train"})
for name in names:
    pid = os.fork()
    if pid == 0:
        try:
            getattr(tf, name)
        except Exception as e:
            print(name, type(e).__name__, e)
            os._exit(1)
        os._exit(0)
    os.waitpid(pid, 0)
print("done")
"""
    if not hasattr(os, "fork"):
        pytest.skip("no fork here")
    out = _python(code)
    assert out.stdout.strip() == "done", out.stdout + out.stderr

"""The public namespaces are written from the ``@export`` declarations (tools/gen_api.py)."""
import importlib.util
import os
import subprocess
import sys

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
    assert tf.reshape._tf_api_names == ("reshape",)
    assert tf.keras.layers.Dense._keras_api_names == ("keras.layers.Dense",)


def test_one_declaration_names_every_alias():
    assert tf.math.floormod is tf.math.mod
    assert tf.math.floormod._tf_api_names == ("math.floormod", "math.mod")
    assert tf.float16 is tf.half is tf.dtypes.half
    assert tf.random.experimental.stateless_fold_in is tf.random.fold_in


def test_export_returns_the_function_itself():
    math_ops = internals.math_ops
    assert tf.add is math_ops.add and tf.add.__code__.co_filename == math_ops.__file__
    assert not hasattr(tf.add, "__wrapped__")


def test_subclasses_do_not_inherit_public_names():
    api_names, canonical_name = api_export.api_names, api_export.canonical_name

    class MyLayer(tf.keras.layers.Dense):
        pass
    assert canonical_name(tf.keras.layers.Dense) == "keras.layers.Dense"
    assert api_names(MyLayer) == () and canonical_name(MyLayer) is None


def test_import_keeps_keras_lazy():
    code = "import sys, eagerflow; print('eagerflow.keras' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": os.path.join(_ROOT, "src")})
    assert out.stdout.strip() == "False"
    assert tf.keras.__version__ == "2.21.0"


def test_a_new_declaration_makes_the_modules_stale():
    gen = _generator()
    api_export.export("math.plus").export_constant(MATH, "add")
    try:
        assert gen.stale(gen.generate()) == [
            os.path.join("src", "eagerflow", "math", "__init__.py")]
    finally:
        del api_export.EXPORTS[-1]

"""What a loaded SavedModel's functions report about themselves (values TF 2.21 printed for
the same programs)."""
import os
import re

import numpy as np
import pytest

import eagerflow as tf


class _Model(tf.Module):
    def __init__(self):
        self.v = tf.Variable([[1.0, 2.0], [3.0, 4.0]])

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32, name="x")])
    def __call__(self, x):
        return {"out": tf.matmul(x, self.v), "cnt": tf.shape(x, out_type=tf.int64)[0]}

    @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
    def scale(self, s):
        return self.v * s


def _saved(tmp_path):
    m = _Model()
    path = str(tmp_path / "sm")
    tf.saved_model.save(m, path, signatures={"serving_default": m.__call__, "scale": m.scale})
    return tf.saved_model.load(path)


def test_signature_structured_outputs_are_specs_named_by_their_keys(tmp_path):
    loaded = _saved(tmp_path)
    infer = loaded.signatures["serving_default"]
    # TF 2.21: {'cnt': TensorSpec(shape=(), dtype=tf.int64, name='cnt'),
    #           'out': TensorSpec(shape=(None, 2), dtype=tf.float32, name='out')}
    assert infer.structured_outputs == {
        "cnt": tf.TensorSpec([], tf.int64, name="cnt"),
        "out": tf.TensorSpec([None, 2], tf.float32, name="out")}
    assert repr(infer.structured_outputs["out"]) == \
        "TensorSpec(shape=(None, 2), dtype=tf.float32, name='out')"
    scale = loaded.signatures["scale"]
    assert scale.structured_outputs == {
        "output_0": tf.TensorSpec([2, 2], tf.float32, name="output_0")}
    # calls still give tensors
    result = infer(x=tf.constant([[1.0, 1.0]]))
    np.testing.assert_array_equal(result["out"].numpy(), [[4.0, 6.0]])
    assert int(result["cnt"]) == 1
    np.testing.assert_array_equal(scale(s=tf.constant(2.0))["output_0"].numpy(),
                                  [[2.0, 4.0], [6.0, 8.0]])


def test_signature_output_dtypes_and_shapes(tmp_path):
    scale = _saved(tmp_path).signatures["scale"]
    assert scale.output_dtypes == {"output_0": tf.float32}  # TF 2.21's
    assert scale.output_shapes == {"output_0": tf.TensorShape([2, 2])}


def test_restored_function_with_input_signature_gives_its_concrete_function(tmp_path):
    loaded = _saved(tmp_path)
    concrete = loaded.scale.get_concrete_function()  # TF 2.21 needs no arguments here
    assert isinstance(concrete.structured_outputs, tf.Tensor)
    assert concrete.structured_outputs.shape == (2, 2)
    np.testing.assert_array_equal(concrete(tf.constant(3.0)).numpy(),
                                  [[3.0, 6.0], [9.0, 12.0]])
    out = loaded.__call__.get_concrete_function().structured_outputs
    assert sorted(out) == ["cnt", "out"] and out["out"].shape.as_list() == [None, 2]


class _WithSetter(tf.Module):
    def __init__(self):
        self.v = tf.Variable(1.0)

    @tf.function
    def __call__(self, x):
        return x * self.v

    @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
    def mutate(self, new_v):
        self.v.assign(new_v)


def test_function_returning_nothing_is_not_made_the_default_signature(tmp_path):
    # The SavedModel guide's CustomModule: TF 2.21 saves it with no signatures at all.
    module = _WithSetter()
    module(tf.constant(0.0))
    path = str(tmp_path / "module_no_signatures")
    tf.saved_model.save(module, path)
    imported = tf.saved_model.load(path)
    assert list(imported.signatures.keys()) == []
    imported.mutate(tf.constant(2.0))
    assert imported(tf.constant(3.0)).numpy() == 6.0


def test_the_one_valid_function_is_the_default_signature(tmp_path):
    module = _WithSetter()
    module.double = tf.function(lambda x: 2.0 * x,
                                input_signature=[tf.TensorSpec([None], tf.float32)])
    path = str(tmp_path / "sm")
    tf.saved_model.save(module, path)
    imported = tf.saved_model.load(path)
    assert list(imported.signatures.keys()) == ["serving_default"]
    out = imported.signatures["serving_default"](tf.constant([1.0, 2.0]))
    np.testing.assert_array_equal(out["output_0"].numpy(), [2.0, 4.0])


def test_loaded_signature_saves_again(tmp_path):
    # The guide's module_with_multiple_signatures: a loaded signature re-exported.
    module = _WithSetter()
    concrete = module.__call__.get_concrete_function(tf.TensorSpec(None, tf.float32))
    first = str(tmp_path / "first")
    tf.saved_model.save(module, first, signatures=concrete)
    imported = tf.saved_model.load(first)

    @tf.function(input_signature=[tf.TensorSpec([], tf.string)])
    def parse_string(string_input):
        return imported(tf.strings.to_number(string_input))

    second = str(tmp_path / "second")
    tf.saved_model.save(imported, second, {"serving_default": parse_string,
                                           "from_float": imported.signatures["serving_default"]})
    again = tf.saved_model.load(second)
    assert sorted(again.signatures.keys()) == ["from_float", "serving_default"]
    assert again.signatures["serving_default"](string_input=tf.constant("2.5"))[
        "output_0"].numpy() == 2.5
    np.testing.assert_array_equal(
        again.signatures["from_float"](x=tf.constant([1.0, 2.0]))["output_0"].numpy(),
        [1.0, 2.0])


def test_loaded_signatures_map_saves_again(tmp_path):
    # TF 2.21 accepts a loaded object's signatures mapping, or one of its signatures.
    loaded = _saved(tmp_path)
    x = tf.constant([[1.0, 1.0], [0.0, 2.0]])
    want = loaded.signatures["serving_default"](x=x)
    for i, signatures in enumerate([loaded.signatures, loaded.signatures["serving_default"]]):
        path = str(tmp_path / f"again{i}")
        tf.saved_model.save(loaded, path, signatures=signatures)
        again = tf.saved_model.load(path)
        keys = ["scale", "serving_default"] if i == 0 else ["serving_default"]
        assert sorted(again.signatures.keys()) == keys
        got = again.signatures["serving_default"](x=x)
        assert sorted(got) == ["cnt", "out"]
        np.testing.assert_array_equal(got["out"].numpy(), want["out"].numpy())
        assert got["cnt"].numpy() == 2
        # its tf.functions are saved again too, as TF saves a loaded object's
        np.testing.assert_array_equal(again.scale(tf.constant(2.0)).numpy(),
                                      [[2.0, 4.0], [6.0, 8.0]])
        np.testing.assert_array_equal(again(x)["out"].numpy(), want["out"].numpy())


def test_repr_of_a_loaded_signature_marks_its_keyword_only_inputs(tmp_path):
    # TF 2.21: <ConcreteFunction (*, s: TensorSpec(shape=(), dtype=tf.float32, name='s'))
    #           -> Dict[['output_0', TensorSpec(shape=(2, 2), ...)]] at 0x...>
    scale = _saved(tmp_path).signatures["scale"]
    assert repr(scale).startswith(
        "<ConcreteFunction (*, s: TensorSpec(shape=(), dtype=tf.float32, name='s')) -> "
        "Dict[['output_0', TensorSpec(shape=(2, 2), dtype=tf.float32, name='output_0')]] at ")


def test_repr_of_a_concrete_function_with_a_keyword_only_argument():
    @tf.function
    def f(a, *, b):
        return a + b

    spec = tf.TensorSpec([], tf.float32)
    assert repr(f.get_concrete_function(spec, b=spec)).startswith(
        "<ConcreteFunction (a: TensorSpec(shape=(), dtype=tf.float32, name=None), *, "
        "b: TensorSpec(shape=(), dtype=tf.float32, name=None)) -> "
        "TensorSpec(shape=(), dtype=tf.float32, name=None) at ")


def test_dict_held_by_a_module_or_loaded_one_is_a_dict_wrapper_named_as_tf(tmp_path):
    # TF 2.21: type(m.d).__name__ == '_DictWrapper', repr DictWrapper({'a': ...})
    m = tf.Module()
    m.cfg = {"a": tf.Variable(1.0)}
    assert type(m.cfg).__name__ == "_DictWrapper"
    assert repr(m.cfg).startswith("DictWrapper({'a': ")
    tf.saved_model.save(m, str(tmp_path / "m"))
    loaded = tf.saved_model.load(str(tmp_path / "m"))
    assert type(loaded.cfg).__name__ == "_DictWrapper"
    assert loaded.cfg["a"].numpy() == 1.0


def test_keras_model_with_dict_outputs_serves_them_by_their_keys(tmp_path):
    # TF 2.21: serving_default of a functional model with dict inputs and outputs takes and
    # returns them by their keys
    a, b = tf.keras.Input((2,), name="a"), tf.keras.Input((3,), name="b")
    h = tf.keras.layers.Concatenate()([a, b])
    model = tf.keras.Model({"a": a, "b": b},
                           {"score": tf.keras.layers.Dense(1, name="score")(h),
                            "probs": tf.keras.layers.Dense(2, name="probs")(h)})
    model.save(str(tmp_path / "sm"))
    serving = tf.saved_model.load(str(tmp_path / "sm")).signatures["serving_default"]
    assert sorted(serving.structured_outputs) == ["probs", "score"]
    x = {"a": tf.ones((2, 2)), "b": tf.ones((2, 3))}
    out = serving(**x)
    want = model(x)
    for key in ("probs", "score"):
        np.testing.assert_allclose(out[key].numpy(), want[key].numpy(), rtol=1e-6)


def test_keras_model_loaded_from_a_savedmodel_has_its_signatures(tmp_path):
    # tf_keras 2.21: load_model of a SavedModel (TF's, ours) gives the model the
    # SavedModel's signatures, running on the model's own variables, and TF's version
    import os
    data = os.path.join(os.path.dirname(__file__), "data")
    for path in ("tf_keras_model_save", "ours_keras", "tf_keras_subclassed"):
        model = tf.keras.models.load_model(os.path.join(data, path))
        assert list(model.signatures) == ["serving_default"], path
        assert model.tensorflow_version == "2.21.0"
    model = tf.keras.models.load_model(os.path.join(data, "tf_keras_model_save"))
    infer = model.signatures["serving_default"]
    assert list(infer.structured_input_signature[1]) == ["dense_input"]
    x = np.arange(8, dtype=np.float32).reshape(2, 4)
    np.testing.assert_allclose(infer(dense_input=tf.constant(x))["dense_1"], model(x),
                               rtol=1e-6)
    for w in model.trainable_weights:
        w.assign(w * 2.0)
    np.testing.assert_allclose(infer(dense_input=tf.constant(x))["dense_1"], model(x),
                               rtol=1e-6)


def test_get_concrete_function_of_a_loaded_function_errs_as_tf(tmp_path):
    # TF 2.21: a function saved with an input signature binds the specs to it (TypeError);
    # one traced for some arguments raises the ValueError its calls raise
    loaded = tf.saved_model.load(os.path.join(os.path.dirname(__file__), "data", "tf_module"))
    assert loaded.__call__.get_concrete_function(tf.TensorSpec([None, 2])) is \
        loaded.__call__.concrete_functions[0]
    with pytest.raises(TypeError, match=r"^Binding inputs to tf.function failed due to `Can "
                                        r"not cast TensorSpec\(shape=\(None, 3\)"):
        loaded.__call__.get_concrete_function(tf.TensorSpec([None, 3]))

    class Traced(tf.Module):
        @tf.function
        def f(self, x, scale=2.0):
            return x * scale

    m = Traced()
    m.f(tf.constant(1.0))
    tf.saved_model.save(m, str(tmp_path))
    f = tf.saved_model.load(str(tmp_path)).f
    assert f.get_concrete_function(tf.TensorSpec([], tf.float32)) is f.concrete_functions[0]
    with pytest.raises(ValueError, match="^Could not find matching concrete function to call "
                                         "loaded from the SavedModel"):
        f.get_concrete_function(tf.TensorSpec([5]))


class _Signatures(tf.Module):
    def __init__(self):
        self.v = tf.Variable(2.0)

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32, name="x"),
                                  tf.TensorSpec([], tf.int32, name="k")])
    def f(self, x, k):
        return {"z": x * self.v, "a": x + 1, "m": tf.cast(k, tf.float32)}

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def g(self, x):
        return x * 2.0

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def r(self, x):
        return x + tf.random.uniform([1])


def test_signature_tensor_names_are_tfs(tmp_path):
    # As TF 2.21 writes them (saved_model_cli shows these names): each signature calls its
    # function by a PartitionedCall, or a StatefulPartitionedCall when the function has
    # state (variables, random ops), made in the order of the signatures' keys; its
    # outputs come out in the order of theirs
    m = _Signatures()
    path = str(tmp_path / "sm")
    tf.saved_model.save(m, path, signatures={"serving_default": m.f, "zz": m.f, "g": m.g,
                                             "aa": m.g, "rr": m.r})
    from tests.internals import fingerprinting
    with open(os.path.join(path, "saved_model.pb"), "rb") as f:
        meta = fingerprinting.pb.SavedModel.FromString(f.read()).meta_graphs[0]
    names = {key: ({k: t.name for k, t in sd.inputs.items()},
                   {k: t.name for k, t in sd.outputs.items()})
             for key, sd in meta.signature_def.items() if key != "__saved_model_init_op"}
    assert names == {
        "aa": ({"x": "aa_x:0"}, {"output_0": "PartitionedCall:0"}),
        "g": ({"x": "g_x:0"}, {"output_0": "PartitionedCall_1:0"}),
        "rr": ({"x": "rr_x:0"}, {"output_0": "StatefulPartitionedCall:0"}),
        "serving_default": ({"k": "serving_default_k:0", "x": "serving_default_x:0"},
                            {"a": "StatefulPartitionedCall_1:0",
                             "m": "StatefulPartitionedCall_1:1",
                             "z": "StatefulPartitionedCall_1:2"}),
        "zz": ({"k": "zz_k:0", "x": "zz_x:0"},
               {"a": "StatefulPartitionedCall_2:0", "m": "StatefulPartitionedCall_2:1",
                "z": "StatefulPartitionedCall_2:2"})}
    # the loaded signature's graph: its outputs TF's Identity nodes
    loaded = tf.saved_model.load(path)
    signature = loaded.signatures["serving_default"]
    assert [t.name for t in signature.outputs] == ["Identity:0", "Identity_1:0", "Identity_2:0"]
    assert [t.name for t in loaded.signatures["g"].outputs] == ["Identity:0"]
    out = signature(x=tf.constant([1.0, 2.0]), k=tf.constant(3))
    assert {k: v.numpy().tolist() for k, v in out.items()} == {
        "a": [2.0, 3.0], "m": 3.0, "z": [2.0, 4.0]}


class _Composite(tf.Module):
    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def g(self, x):
        return {"a": x, "b": tf.RaggedTensor.from_row_lengths(x, [1, 1]),
                "c": tf.sparse.from_dense(x[None])}


def test_signature_with_ragged_and_sparse_outputs_reports_their_specs(tmp_path):
    m = _Composite()
    path = str(tmp_path / "sm")
    tf.saved_model.save(m, path, signatures={"g": m.g})
    g = tf.saved_model.load(path).signatures["g"]
    # TF 2.21: {'c': SparseTensorSpec(TensorShape([1, None]), tf.float32),
    #  'b': RaggedTensorSpec(TensorShape([2, None]), tf.float32, 1, tf.int64),
    #  'a': TensorSpec(shape=(None,), dtype=tf.float32, name='a')}
    assert g.structured_outputs == {
        "a": tf.TensorSpec([None], tf.float32, name="a"),
        "b": tf.RaggedTensorSpec([2, None], tf.float32, 1, tf.int64),
        "c": tf.SparseTensorSpec([1, None], tf.float32)}
    out = g(x=tf.constant([1., 2.]))
    assert out["b"].to_list() == [[1.], [2.]] and out["a"].numpy().tolist() == [1., 2.]
    assert tf.sparse.to_dense(out["c"]).numpy().tolist() == [[1., 2.]]


class _Masked(tf.experimental.ExtensionType):
    __name__ = "tests.loaded_signatures.Masked"
    values: tf.Tensor
    mask: tf.Tensor


class _MaskedSum(tf.Module):
    @tf.function(input_signature=[_Masked.Spec(tf.TensorSpec([None], tf.float32),
                                               tf.TensorSpec([None], tf.bool))])
    def f(self, m):
        return tf.reduce_sum(tf.where(m.mask, m.values, 0.))


class _SparseSum(tf.Module):
    @tf.function(input_signature=[tf.SparseTensorSpec([None, 3], tf.float32)])
    def f(self, s):
        return tf.sparse.reduce_sum(s)


def test_extension_type_and_sparse_inputs_get_a_default_serving_signature(tmp_path):
    # their tensors are the signature's inputs, named m, m_1, ... as TF names them
    tf.saved_model.save(_MaskedSum(), str(tmp_path / "m"))
    serving = tf.saved_model.load(str(tmp_path / "m")).signatures["serving_default"]
    assert serving.structured_input_signature[1] == {
        "m": tf.TensorSpec([None], tf.float32, name="m"),
        "m_1": tf.TensorSpec([None], tf.bool, name="m_1")}
    out = serving(m=tf.constant([1., 2.]), m_1=tf.constant([True, False]))
    assert out["output_0"].numpy() == 1.0
    tf.saved_model.save(_SparseSum(), str(tmp_path / "s"))
    serving = tf.saved_model.load(str(tmp_path / "s")).signatures["serving_default"]
    assert serving.structured_input_signature[1] == {
        "s": tf.TensorSpec([None, 2], tf.int64, name="s"),
        "s_1": tf.TensorSpec([None], tf.float32, name="s_1"),
        "s_2": tf.TensorSpec([2], tf.int64, name="s_2")}
    out = serving(s=tf.constant([[0, 0]], tf.int64), s_1=tf.constant([2.]),
                  s_2=tf.constant([2, 3], tf.int64))
    assert out["output_0"].numpy() == 2.0


class _TwoInputs(tf.Module):
    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32, name="zeta"),
                                  tf.TensorSpec([None], tf.float32, name="alpha")])
    def f(self, zeta, alpha):
        return {"out": zeta - alpha}


def _two_inputs(tmp_path):
    m = _TwoInputs()
    path = str(tmp_path / "two")
    tf.saved_model.save(m, path, signatures=m.f)
    return path, tf.saved_model.load(path)


def test_signature_inputs_are_keyword_only_and_positional_calls_fail(tmp_path):
    _, loaded = _two_inputs(tmp_path)
    sig = loaded.signatures["serving_default"]
    # TF 2.21: [('alpha:0', TensorShape([None])), ('zeta:0', TensorShape([None]))]
    assert [(t.name, t.shape.as_list()) for t in sig.inputs] == [
        ("alpha:0", [None]), ("zeta:0", [None])]
    assert sig.pretty_printed_signature().splitlines()[:3] == [
        "Input Parameters:",
        "  alpha (KEYWORD_ONLY): TensorSpec(shape=(None,), dtype=tf.float32, name='alpha')",
        "  zeta (KEYWORD_ONLY): TensorSpec(shape=(None,), dtype=tf.float32, name='zeta')"]
    three, one = tf.constant([3.0]), tf.constant([1.0])
    # positionally: TF's TypeError, never a call binding them in the inputs' (sorted) order
    with pytest.raises(TypeError) as e:
        sig(three, one)
    first, fallback = str(e.value).splitlines()
    assert first.startswith("Binding inputs to tf.function failed due to `too many "
                            "positional arguments`.")
    assert fallback == ("Fallback to flat signature also failed due to: "
                        "signature_wrapper_f(alpha, zeta) takes 0 positional arguments, got 2.")
    with pytest.raises(TypeError, match="takes 0 positional arguments, got 1"):
        sig(three, alpha=one)
    np.testing.assert_array_equal(sig(zeta=three, alpha=one)["out"], [2.0])
    # the function itself keeps its arguments' order
    np.testing.assert_array_equal(loaded.f(three, one)["out"], [2.0])
    cf = loaded.f.get_concrete_function()
    assert [t.name for t in cf.inputs] == ["zeta:0", "alpha:0"]
    assert [s.name for s in cf.structured_input_signature[0]] == ["zeta", "alpha"]


def test_saved_signature_records_no_positions_and_its_input_shapes(tmp_path):
    from tests.internals import saved_model_protos as pb
    path, _ = _two_inputs(tmp_path)
    sm = pb.SavedModel()
    with open(os.path.join(path, "saved_model.pb"), "rb") as f:
        sm.ParseFromString(f.read())
    meta = sm.meta_graphs[0]
    bare = [n.bare_concrete_function for n in meta.object_graph_def.nodes
            if n.WhichOneof("kind") == "bare_concrete_function"
            and "signature_wrapper" in n.bare_concrete_function.concrete_function_name]
    # as TF writes it: keywords only (allowed_positional_arguments left 0; 1 for one input,
    # see test_the_one_valid_function_is_the_default_signature)
    assert [list(b.argument_keywords) for b in bare] == [["alpha", "zeta"]]
    assert bare[0].allowed_positional_arguments == 0
    fdef = [f for f in meta.graph_def.library.function
            if f.signature.name == bare[0].concrete_function_name][0]
    # each argument's shape (TF reads a loaded signature's input shapes from it)
    assert [[d.size for d in fdef.arg_attr[i].attr["_output_shapes"].list.shape[0].dim]
            for i in range(2)] == [[-1], [-1]]


def _loaded_scaling(path, *calls):
    """A loaded module's ``f(x, scale=2.0)``, traced on `calls` ((args, kwargs) each)."""
    class Traced(tf.Module):
        @tf.function
        def f(self, x, scale=2.0):
            return x * scale

    m = Traced()
    for args, kwargs in calls:
        m.f(*args, **kwargs)
    tf.saved_model.save(m, str(path))
    return tf.saved_model.load(str(path)).f


def test_no_matching_function_error_lists_each_argument_and_option(tmp_path):
    """As TF's: the arguments, defaults applied, one per line; each saved option alike."""
    f = _loaded_scaling(tmp_path, ((tf.constant([1.0, 2.0]),), {}), (
        (tf.constant(3.0, tf.float64),), {"scale": tf.constant(1.0, tf.float64)}))
    with pytest.raises(ValueError) as info:
        f(tf.constant([1, 2]))
    message = str(info.value)
    got, expected = message.split("\n\n Expected these arguments to match one of the "
                                  "following 2 option(s):\n\n")
    assert got.startswith("Could not find matching concrete function to call loaded from the "
                          "SavedModel. Got:\n  Positional arguments (2 total):\n    * ")
    assert got.endswith("\n    * 2.0\n  Keyword arguments: {}")
    assert expected == (
        "Option 1:\n  Positional arguments (2 total):\n"
        "    * TensorSpec(shape=(2,), dtype=tf.float32, name='x')\n    * 2.0\n"
        "  Keyword arguments: {}\n\n"
        "Option 2:\n  Positional arguments (2 total):\n"
        "    * TensorSpec(shape=(), dtype=tf.float64, name='x')\n"
        "    * TensorSpec(shape=(), dtype=tf.float64, name='scale')\n"
        "  Keyword arguments: {}")


def test_arguments_a_loaded_function_cannot_bind_raise_tfs_type_error(tmp_path):
    f = _loaded_scaling(tmp_path, ((tf.constant([1.0, 2.0]),), {}))
    with pytest.raises(TypeError) as info:
        f(tf.constant([1.0, 2.0]), 3.0, 4)
    assert re.fullmatch(
        r"Binding inputs to tf.function failed due to `too many positional arguments`\. "
        r"Received args: \(<tf.Tensor: .*>, 3.0, 4\) and kwargs: \{\} for signature: "
        r"\(x, scale=<captured_default_value>\)\.", str(info.value))
    with pytest.raises(TypeError, match=r"^Binding inputs to tf.function failed due to "
                                        r"`missing a required argument: 'x'`\. Received args: "
                                        r"\(\) and kwargs: \{\} for signature: "):
        f()


def test_keras_serving_outputs_are_named_as_tf_keras_names_them(tmp_path):
    # TF 2.21 + tf_keras: a functional model's serving outputs are named by its output
    # layers, a dict of outputs too (paired in flattened order); a subclassed model's by
    # their paths, nested ones joined by "_"
    inp = tf.keras.Input((3,), name="feats")
    zz = tf.keras.layers.Dense(2, name="zz")(inp)
    aa = tf.keras.layers.Dense(1, name="aa")(inp)
    model = tf.keras.Model(inp, {"a": zz, "b": aa})
    model.save(str(tmp_path / "functional"), save_format="tf")
    outputs = tf.saved_model.load(str(tmp_path / "functional")) \
        .signatures["serving_default"].structured_outputs
    assert outputs == {"zz": tf.TensorSpec([None, 2], tf.float32, name="zz"),
                       "aa": tf.TensorSpec([None, 1], tf.float32, name="aa")}

    class Nested(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.dense = tf.keras.layers.Dense(2)

        def call(self, x):
            return self.dense(x), [self.dense(x) * 2, {"k": x}]

    nested = Nested()
    assert nested.output_names is None
    nested(np.ones((1, 3), "float32"))
    nested.save(str(tmp_path / "subclassed"), save_format="tf")
    outputs = tf.saved_model.load(str(tmp_path / "subclassed")) \
        .signatures["serving_default"].structured_outputs
    assert {k: v.shape.as_list() for k, v in outputs.items()} == {
        "output_1": [None, 2], "output_2_1": [None, 2], "output_2_2_k": [None, 3]}


class _Traced(tf.Module):
    @tf.function
    def scaled(self, x, scale=1.0):
        return x * scale

    @tf.function
    def pair_sum(self, pair):
        return pair[0] + pair[1]


def test_restored_function_matches_python_numbers_by_value_and_lists_by_type(tmp_path):
    m = _Traced()
    m.scaled(tf.constant(1.0), 3.0)
    m.scaled(tf.constant(1.0))
    m.pair_sum((tf.constant(1.0), tf.constant(2.0)))
    tf.saved_model.save(m, str(tmp_path))
    loaded = tf.saved_model.load(str(tmp_path))
    # TF 2.21: 3 calls the trace of 3.0, True and 1 that of 1.0 (equal values); 0 none
    assert loaded.scaled(tf.constant(2.0), 3).numpy() == 6.0
    assert loaded.scaled(tf.constant(2.0), True).numpy() == 2.0
    assert loaded.scaled(tf.constant(2.0), 1).numpy() == 2.0
    with pytest.raises(ValueError, match="^Could not find matching concrete function"):
        loaded.scaled(tf.constant(2.0), 0)
    # a tuple traced takes no list: TF's ValueError (not a TypeError from the call)
    assert loaded.pair_sum((tf.constant(1.0), tf.constant(5.0))).numpy() == 6.0
    with pytest.raises(ValueError, match="^Could not find matching concrete function"):
        loaded.pair_sum([tf.constant(1.0), tf.constant(5.0)])


def test_keras_layer_holding_a_loaded_object_counts_none_of_its_variables(tmp_path):
    # TF 2.21: a loaded object is no tf.Module, so a layer holding it has no weights of it;
    # the model's fit trains only its own (it raised AttributeError reading the weights)
    tf.saved_model.save(_Model(), str(tmp_path))

    class Holder(tf.keras.layers.Layer):
        def __init__(self):
            super().__init__()
            self.obj = tf.saved_model.load(str(tmp_path))

        def call(self, x):
            return self.obj(x)["out"]

    holder = Holder()
    model = tf.keras.Sequential([tf.keras.Input((2,), name="x"), holder,
                                 tf.keras.layers.Dense(1, name="head")])
    assert [v.name for v in model.trainable_variables] == ["head/kernel:0", "head/bias:0"]
    assert holder.weights == []
    model.compile("sgd", "mse")
    model.fit(np.ones((2, 2), "float32"), np.ones((2, 1), "float32"), verbose=0)
    np.testing.assert_array_equal(holder.obj.v.numpy(), [[1.0, 2.0], [3.0, 4.0]])


def test_signature_of_a_namedtuple_output_is_keyed_by_its_fields(tmp_path):
    # TF 2.21 names the outputs of a signature returning a namedtuple by its fields:
    # {'alpha': TensorSpec(shape=(2,), dtype=tf.float32, name='alpha'), 'beta': ...}
    import collections
    Pair = collections.namedtuple("Pair", ["beta", "alpha"])

    class M(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([2], tf.float32)])
        def f(self, x):
            return Pair(x, x * 3.0)
    path = str(tmp_path / "sm")
    tf.saved_model.save(M(), path, signatures=M().f)
    serving = tf.saved_model.load(path).signatures["serving_default"]
    assert serving.structured_outputs == {"alpha": tf.TensorSpec([2], tf.float32, "alpha"),
                                          "beta": tf.TensorSpec([2], tf.float32, "beta")}
    out = serving(x=tf.constant([1.0, 2.0]))
    assert out["beta"].numpy().tolist() == [1.0, 2.0]
    assert out["alpha"].numpy().tolist() == [3.0, 6.0]


def test_signature_outputs_that_are_not_tensors_raise_tfs_valueerror(tmp_path):
    class M(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([2], tf.float32)])
        def nested(self, x):
            return [x, (x, x)]

        @tf.function(input_signature=[tf.TensorSpec([2], tf.float32)])
        def int_keys(self, x):
            return {1: x}
    m = M()
    with pytest.raises(ValueError, match=r"Got a non-Tensor value \(<tf.Tensor.*\) for key "
                                         r"'output_1' in the output of the function "
                                         r"__inference_nested_\d+ used to generate the "
                                         r"SavedModel signature 'serving_default'"):
        tf.saved_model.save(m, str(tmp_path / "a"), signatures=m.nested)
    with pytest.raises(ValueError, match="Got a dictionary with a non-string key 1 in the "
                                         "output of the function __inference_int_keys_"):
        tf.saved_model.save(m, str(tmp_path / "b"), signatures={"k": m.int_keys})


def test_saved_function_outputs_are_specs_named_by_their_place(tmp_path):
    # The names TF 2.21 writes in each function's output signature (TF's loader shows them
    # as the loaded concrete function's structured_outputs)
    import collections
    Pair = collections.namedtuple("Pair", ["alpha", "beta"])

    class M(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([2], tf.float32)])
        def a(self, x):
            return {"Out Put": x, "nested": {"k1": x * 2, "2k": [x, x + 1]}}

        @tf.function(input_signature=[tf.TensorSpec([2], tf.float32)])
        def b(self, x):
            return Pair(x, x * 3)

        @tf.function(input_signature=[tf.TensorSpec([2], tf.float32)])
        def c(self, x):
            return [x, (x, x)]

        @tf.function(input_signature=[tf.TensorSpec([2], tf.float32)])
        def e(self, x):
            return x + 1
    path = str(tmp_path / "sm")
    tf.saved_model.save(M(), path, signatures={})
    from tests.internals import saved_model_protos

    def names(value):
        kind = value.WhichOneof("kind")
        if kind == "tensor_spec_value":
            return [value.tensor_spec_value.name]
        if kind in ("list_value", "tuple_value"):
            return [n for v in getattr(value, kind).values for n in names(v)]
        if kind == "dict_value":
            return [n for k in sorted(value.dict_value.fields)
                    for n in names(value.dict_value.fields[k])]
        if kind == "named_tuple_value":
            return [n for pair in value.named_tuple_value.values for n in names(pair.value)]
        return []
    with open(os.path.join(path, "saved_model.pb"), "rb") as f:
        graph = saved_model_protos.SavedModel.FromString(f.read()).meta_graphs[0]
    found = {re.sub(r"^__inference_(\w+?)_\d+$", r"\1", name): names(fn.output_signature)
             for name, fn in graph.object_graph_def.concrete_functions.items()}
    assert found == {"a": ["out_put", "nested_2k_0", "nested_2k_1", "nested_k1"],
                     "b": ["alpha", "beta"], "c": ["tensor_0", "tensor_1_0", "tensor_1_1"],
                     "e": ["unknown"]}
    loaded = tf.saved_model.load(path)
    assert loaded.b(tf.constant([1.0, 2.0])).beta.numpy().tolist() == [3.0, 6.0]


def test_restored_function_prints_each_saved_signature(tmp_path):
    class M(tf.Module):
        @tf.function
        def f(self, x, training=False):
            return x * 2.0 if training else x
    m = M()
    m.f(tf.constant([1.0, 2.0]))
    m.f(tf.constant([1.0, 2.0]), training=True)
    tf.saved_model.save(m, str(tmp_path))
    printed = tf.saved_model.load(str(tmp_path)).f.pretty_printed_concrete_signatures()
    # TF 2.21 prints each trace's inputs as:
    assert printed.count("Input Parameters:\n"
                         "  x (POSITIONAL_OR_KEYWORD): TensorSpec(shape=(2,), dtype=tf.float32, "
                         "name='x')\n  training (POSITIONAL_OR_KEYWORD): Literal[") == 2
    assert "Literal[False]" in printed and "Literal[True]" in printed
    assert len(printed.split("\n\n")) == 2


def test_restored_function_reports_its_input_signature_and_function_spec():
    """TF's SavedModels (make_tf_savedmodels.py): a function saved with an input signature
    reports it, one saved without reports None; both report the saved parameters (TF 2.21's
    values)."""
    data = os.path.join(os.path.dirname(__file__), "data")
    loaded = tf.saved_model.load(os.path.join(data, "tf_module"))
    want = (tf.TensorSpec([None, 2], tf.float32, name="x"),)
    assert loaded.__call__.input_signature == want
    assert repr(loaded.__call__.input_signature) == \
        "(TensorSpec(shape=(None, 2), dtype=tf.float32, name='x'),)"
    spec = loaded.__call__.function_spec
    assert spec.input_signature == want
    assert repr(spec.fullargspec) == (
        "FullArgSpec(args=['x'], varargs=None, varkw=None, defaults=None, kwonlyargs=[], "
        "kwonlydefaults=None, annotations={})")
    assert loaded.__call__.name == "restored_function_body"
    loops = tf.saved_model.load(os.path.join(data, "tf_loop_gradients"))
    assert loops.inner.input_signature is None
    assert loops.inner.function_spec.fullargspec.args == ["x"]
    assert loops.grad.input_signature == (tf.TensorSpec([None], tf.float32, name="x"),)


def test_function_spec_fullargspec_of_a_function():
    def f(a, b=2, *rest, c, d=4, **more):
        return a
    spec = tf.function(f).function_spec.fullargspec
    assert spec == __import__("inspect").getfullargspec(f)

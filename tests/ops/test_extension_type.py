"""`tf.experimental.ExtensionType`: fields, validation, repr, specs, nest, tf.function,
gradients (expected values from TF 2.21)."""
import typing

import numpy as np
import pytest

import eagerflow as tf


class MaskedTensor(tf.experimental.ExtensionType):
    values: tf.Tensor
    mask: tf.Tensor

    def __validate__(self):
        self.values.shape.assert_is_compatible_with(self.mask.shape)


class Pt(tf.experimental.ExtensionType):
    x: float
    y: int = 3
    name: str = "p"


class N(tf.experimental.ExtensionType):
    a: tf.Tensor


class O(tf.experimental.ExtensionType):
    inner: N
    k: int


def test_fields_convert_and_repr():
    mt = MaskedTensor(values=[1., 2., 3.], mask=[True, False, True])
    assert mt.values.dtype == tf.float32 and mt.mask.dtype == tf.bool
    assert repr(mt) == (
        "MaskedTensor(values=<tf.Tensor: shape=(3,), dtype=float32, numpy=array([1., 2., 3.], "
        "dtype=float32)>, mask=<tf.Tensor: shape=(3,), dtype=bool, numpy=array([ True, False,"
        "  True])>)")
    assert repr(Pt(1.5)) == "Pt(x=1.5, y=3, name='p')"
    assert repr(Pt(1.5, True)) == "Pt(x=1.5, y=True, name='p')"


def test_validation_and_type_errors():
    with pytest.raises(ValueError, match=r"Shapes \(2,\) and \(1,\) are incompatible"):
        MaskedTensor(values=[1., 2.], mask=[True])
    with pytest.raises(TypeError, match="x: expected 'float', got 'int'"):
        Pt(x=1)
    with pytest.raises(TypeError, match="missing a required argument: 'x'"):
        Pt()
    with pytest.raises(TypeError, match="too many positional arguments"):
        Pt(1.5, 2, "a", 4)
    with pytest.raises(TypeError, match="got an unexpected keyword argument 'z'"):
        Pt(1.5, z=3)
    with pytest.raises(TypeError, match="a: expected a Tensor, got 'object'"):
        N(object())
    with pytest.raises(TypeError, match="a: expected a Tensor, got 'NoneType'"):
        N(None)
    with pytest.raises(TypeError, match="a: expected a Tensor, got 'RaggedTensor'"):
        N(tf.ragged.constant([[1], [2, 3]]))  # (it was kept as the field's value)
    with pytest.raises(TypeError, match="a: expected a Tensor, got 'SparseTensor'"):
        N(tf.sparse.from_dense([[1, 0]]))
    with pytest.raises(TypeError, match="inner: expected 'N', got 'list'"):
        O([1], 2)


@pytest.mark.parametrize("base", ["ExtensionType", "BatchableExtensionType"])
def test_the_abstract_bases_cannot_be_instantiated(base):
    cls = getattr(tf.experimental, base)
    with pytest.raises(AssertionError, match=f"Cannot create an instance of {base} because "
                                             f"{base} is an abstract base class"):
        cls()


def test_immutable():
    mt = MaskedTensor([1.], [True])
    with pytest.raises(AttributeError, match="Cannot mutate attribute `values` outside the "
                                             "custom constructor of ExtensionType."):
        mt.values = 3


def test_custom_constructor_and_typing_fields():
    class M(tf.experimental.ExtensionType):
        v: tf.Tensor
        shape: tf.TensorShape
        dtype: tf.DType
        t: typing.Tuple[int, ...] = ()
        o: typing.Optional[tf.Tensor] = None

        def __init__(self, v, t=()):
            self.v = tf.convert_to_tensor(v)
            self.shape = self.v.shape
            self.dtype = self.v.dtype
            self.t = t
            self.o = None

    m = M([1, 2], [1, 2])
    assert repr(m._type_spec) == ("M.Spec(v=TensorSpec(shape=(2,), dtype=tf.int32, name=None), "
                                  "shape=TensorShape([2]), dtype=tf.int32, t=(1, 2), o=None)")

    class Bad(tf.experimental.ExtensionType):
        a: tf.Tensor
        b: int

        def __init__(self, a):
            self.a = a

    with pytest.raises(ValueError, match="Missing required fields: {'b'}"):
        Bad([1])


def test_spec():
    spec = tf.type_spec_from_value(Pt(1.5))
    assert repr(spec) == "Pt.Spec(x=1.5, y=3, name='p')"
    assert type(spec).__name__ == "Pt.Spec"
    assert repr(tf.type_spec_from_value(O(N([1]), 2))) == (
        "O.Spec(inner=N.Spec(a=TensorSpec(shape=(1,), dtype=tf.int32, name=None)), k=2)")
    s = N.Spec(a=tf.TensorSpec([None]))
    assert repr(s) == "N.Spec(a=TensorSpec(shape=(None,), dtype=tf.float32, name=None))"
    assert s.value_type is N
    assert not s.is_compatible_with(N([1, 2]))
    assert N.Spec(a=tf.TensorSpec([None], tf.int32)).is_compatible_with(N([1, 2]))
    assert repr(tf.type_spec_from_value(1)) == "TensorSpec(shape=(), dtype=tf.int32, name=None)"


def test_equality():
    a = MaskedTensor([1., 2.], [True, False])
    assert bool(a == a) and not bool(a != a)
    assert not bool(a == MaskedTensor([1., 3.], [True, False]))
    assert (Pt(1.5) == Pt(2.5)) is False and (Pt(1.5) != Pt(2.5)) is True
    with pytest.raises(TypeError, match="unhashable"):
        hash(a)


def test_nest():
    mt = MaskedTensor([1., 2.], [True, False])
    assert tf.nest.flatten(mt) == [mt]
    flat = tf.nest.flatten(mt, expand_composites=True)
    assert [f.dtype for f in flat] == [tf.float32, tf.bool]
    doubled = tf.nest.map_structure(lambda t: t * 2 if t.dtype == tf.float32 else t, mt,
                                    expand_composites=True)
    assert isinstance(doubled, MaskedTensor)
    np.testing.assert_array_equal(doubled.values.numpy(), [2., 4.])
    packed = tf.nest.pack_sequence_as(N([1]), [tf.constant([5])], expand_composites=True)
    assert isinstance(packed, N) and packed.a.numpy().tolist() == [5]
    assert len(tf.nest.flatten(O(N([1]), 2), expand_composites=True)) == 1


def test_function_traces_by_spec():
    @tf.function
    def f(x):
        return MaskedTensor(x.values * 2, x.mask)

    out = f(MaskedTensor([1., 2.], [True, False]))
    assert isinstance(out, MaskedTensor)
    np.testing.assert_array_equal(out.values.numpy(), [2., 4.])
    sig = f.get_concrete_function(MaskedTensor([1., 2.], [True, False])) \
        .structured_input_signature
    assert repr(sig) == ("((MaskedTensor.Spec(values=TensorSpec(shape=(2,), dtype=tf.float32, "
                         "name=None), mask=TensorSpec(shape=(2,), dtype=tf.bool, name=None)),),"
                         " {})")

    @tf.function
    def g(o):
        return o.inner.a * o.k

    assert g(O(N([1]), 2)).numpy().tolist() == [2]
    assert g(O(N([1]), 3)).numpy().tolist() == [3]  # a static field retraces
    assert g(O(N([4]), 3)).numpy().tolist() == [12]
    assert g.experimental_get_tracing_count() == 2


def test_gradient_through_fields():
    x = tf.constant([1., 2.])

    @tf.function
    def g(o):
        return o.inner.a * o.k

    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(g(O(N(x), 2)))
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), [2., 2.])


def test_cond_returns_extension_type():
    mt = MaskedTensor([1.], [True])
    out = tf.cond(tf.constant(True), lambda: mt, lambda: mt)
    assert isinstance(out, MaskedTensor)


def test_batchable_is_extension_type():
    class B(tf.experimental.BatchableExtensionType):
        a: tf.Tensor

    assert isinstance(B([1]), tf.experimental.ExtensionType)
    assert repr(B([1])._type_spec) == "B.Spec(a=TensorSpec(shape=(1,), dtype=tf.int32, name=None))"


class Batched(tf.experimental.BatchableExtensionType):
    a: tf.Tensor
    b: tf.Tensor


def test_datasets_of_extension_types():
    bt = Batched(tf.constant([[1, 2], [3, 4], [5, 6]]), tf.constant([5, 6, 7]))
    d = tf.data.Dataset.from_tensor_slices(bt)
    assert repr(d.element_spec) == ("Batched.Spec(a=TensorSpec(shape=(2,), dtype=tf.int32, "
                                    "name=None), b=TensorSpec(shape=(), dtype=tf.int32, "
                                    "name=None))")
    assert repr(d.batch(2).element_spec) == (
        "Batched.Spec(a=TensorSpec(shape=(None, 2), dtype=tf.int32, name=None), "
        "b=TensorSpec(shape=(None,), dtype=tf.int32, name=None))")
    rows = list(d)
    assert isinstance(rows[0], Batched) and rows[0].a.numpy().tolist() == [1, 2]
    batches = list(d.batch(2))
    assert isinstance(batches[0], Batched) and batches[1].b.numpy().tolist() == [7]
    doubled = list(d.map(lambda e: Batched(e.a * 2, e.b)).take(1))[0]
    assert isinstance(doubled, Batched) and doubled.a.numpy().tolist() == [2, 4]
    sums = list(d.map(lambda e: e.a + e.b).as_numpy_iterator())
    assert [s.tolist() for s in sums] == [[6, 7], [9, 10], [12, 13]]
    whole = list(tf.data.Dataset.from_tensors(bt))[0]
    assert whole.a.shape == [3, 2]
    assert repr(tf.data.Dataset.from_tensors(bt).unbatch().element_spec) == repr(d.element_spec)


def test_map_fn_over_extension_types():
    bt = Batched(tf.constant([[1., 2.], [3., 4.]]), tf.constant([5., 6.]))
    out = tf.map_fn(lambda e: Batched(e.a * 2, e.b + 1), bt)
    assert isinstance(out, Batched)
    assert out.a.numpy().tolist() == [[2., 4.], [6., 8.]] and out.b.numpy().tolist() == [6., 7.]
    prods = tf.map_fn(lambda e: e.a * e.b, bt, fn_output_signature=tf.float32)
    assert prods.numpy().tolist() == [[5., 10.], [18., 24.]]

    @tf.function
    def f(x):
        return tf.map_fn(lambda e: Batched(e.a * 2, e.b + 1), x)

    assert f(bt).b.numpy().tolist() == [6., 7.]


def test_input_signature_of_extension_type_specs():
    spec = MaskedTensor.Spec(values=tf.TensorSpec([None], tf.float32),
                             mask=tf.TensorSpec([None], tf.bool))

    @tf.function(input_signature=[spec])
    def f(x):
        return tf.where(x.mask, x.values, 0.)

    assert f(MaskedTensor([1., 2.], [True, False])).numpy().tolist() == [1., 0.]
    assert f.pretty_printed_concrete_signatures().splitlines()[1] == (
        "  x (POSITIONAL_OR_KEYWORD): MaskedTensor.Spec(values=TensorSpec(shape=(None,), "
        "dtype=tf.float32, name=None), mask=TensorSpec(shape=(None,), dtype=tf.bool, "
        "name=None))")


def test_composite_results_print_as_their_specs():
    @tf.function(input_signature=[tf.RaggedTensorSpec([None, None], tf.int32)])
    def f(r):
        return r

    assert f.pretty_printed_concrete_signatures().splitlines()[3] == (
        "  RaggedTensorSpec(TensorShape([None, None]), tf.int32, 1, tf.int64)")

    @tf.function
    def g(x):
        return MaskedTensor(x.values * 2, x.mask)

    g(MaskedTensor([1., 2.], [True, False]))
    assert g.pretty_printed_concrete_signatures().splitlines()[3] == (
        "  MaskedTensor.Spec(values=TensorSpec(shape=(2,), dtype=tf.float32, name=None), "
        "mask=TensorSpec(shape=(2,), dtype=tf.bool, name=None))")


def test_assert_same_structure_expanding_composites():
    a, b = Pt(1.5), Pt(1.5, 2)
    tf.nest.assert_same_structure(MaskedTensor([1.], [True]), MaskedTensor([1., 2.], [True, False]),
                                  expand_composites=True)  # shapes differ: compatible specs
    with pytest.raises(ValueError, match=r"More specifically: Incompatible CompositeTensor "
                                         r"TypeSpecs: type=Spec str=Pt.Spec\(x=1.5, y=3, "
                                         r"name='p'\) vs. type=Spec str=Pt.Spec\(x=1.5, y=2, "
                                         r"name='p'\)"):
        tf.nest.assert_same_structure(a, b, expand_composites=True)
    with pytest.raises(ValueError, match="is a sequence, while substructure"):
        tf.nest.assert_same_structure(N([1.]), tf.constant([1.]), expand_composites=True)
    tf.nest.assert_same_structure(N([1.]), tf.constant([1.]))  # (both leaves)
    tf.nest.assert_same_structure(tf.ragged.constant([[1]]), tf.ragged.constant([[1, 2]]),
                                  expand_composites=True)


def test_as_dict_gives_the_fields_in_order():
    class Masked(tf.experimental.ExtensionType):
        values: tf.Tensor
        count: int = 3
    fields = tf.experimental.extension_type.as_dict(Masked(tf.constant([1, 2])))
    assert list(fields) == ["values", "count"] and fields["count"] == 3
    assert fields["values"].numpy().tolist() == [1, 2]


def test_mapping_field_holds_an_immutable_dict_printed_as_tf():
    from typing import Mapping

    class Node(tf.experimental.ExtensionType):
        y: Mapping[str, tf.Tensor]
    n = Node(y={"b": [1.0], "a": [2]})
    assert not isinstance(n.y, dict) and list(n.y) == ["b", "a"]
    assert repr(n.y).startswith("ImmutableDict({'b': <tf.Tensor")
    with pytest.raises(TypeError, match="does not support item assignment"):
        n.y["c"] = 1
    # (its spec holds a plain dict, and values rebuilt from components hold the mapping)
    assert isinstance(n._type_spec.y, dict)
    out = tf.function(lambda n: n)(n)
    assert repr(out).startswith("Node(y=ImmutableDict({'b'")


def test_spec_with_its_own_constructor():
    class S(tf.experimental.ExtensionType):
        shape: tf.TensorShape
        values: tf.Tensor

        class Spec:
            def __init__(self, shape, dtype=tf.float32):
                self.values = tf.TensorSpec(shape, dtype)
                self.shape = shape

    spec = S.Spec([None], tf.string)
    assert repr(spec) == ("S.Spec(shape=TensorShape([None]), values=TensorSpec(shape=(None,), "
                          "dtype=tf.string, name=None))")
    with pytest.raises(AttributeError, match="outside the custom constructor of "
                                             "ExtensionTypeSpec"):
        spec.values = 3

    @tf.function(input_signature=[S.Spec([None], tf.string)])
    def f(s):
        return s.values
    assert f(S(tf.TensorShape([2]), ["a", "b"])).numpy().tolist() == [b"a", b"b"]

    class S2(tf.experimental.ExtensionType):
        values: tf.Tensor

        class Spec:
            def __init__(self, shape):
                pass
    with pytest.raises(ValueError, match="Missing required fields"):
        S2.Spec([None])


def test_spec_shape_field_is_a_tensor_shape():
    class N(tf.experimental.ExtensionType):
        shape: tf.TensorShape
        work: tf.Tensor
    spec = N.Spec(shape=None, work=tf.TensorSpec(None, tf.float32))
    assert repr(spec).startswith("N.Spec(shape=TensorShape(None), work=")


def test_watching_an_extension_type_watches_its_tensors():
    m = MaskedTensor([1.0, 2.0], [True, False])
    with tf.GradientTape(persistent=True) as t:
        t.watch(m)
        y = tf.reduce_sum(m.values ** 2)
    assert t.gradient(y, m.values).numpy().tolist() == [2.0, 4.0]
    # (as a source or a target it has no gradient protocol: TF's ValueError)
    for target, source in [(y, m), (m, m.values), (y, [m.values, {"a": m}])]:
        with pytest.raises(ValueError, match="Type MaskedTensor is not supported as a "
                                             "gradient source or gradient target."):
            t.gradient(target, source)


def test_watching_a_sparse_tensor_and_its_gradient():
    sp = tf.sparse.from_dense([[0.0, 1.0], [2.0, 0.0]])
    with tf.GradientTape() as t:
        t.watch(sp)
        y = tf.sparse.reduce_sum(sp * 3.0)
    with pytest.raises(ValueError, match="Type SparseTensor is not supported"):
        t.gradient(y, sp)


class _Batchable(tf.experimental.BatchableExtensionType):
    values: tf.Tensor
    mask: tf.Tensor


def test_nest_expands_an_extension_types_spec_into_its_component_specs():
    spec = _Batchable.Spec(values=tf.TensorSpec([2], tf.float32),
                           mask=tf.TensorSpec([2], tf.bool))
    assert tf.nest.flatten([spec, tf.TensorSpec([1])], expand_composites=True) == [
        tf.TensorSpec([2], tf.float32), tf.TensorSpec([2], tf.bool), tf.TensorSpec([1])]
    value = tf.nest.pack_sequence_as(spec, [tf.ones([3, 2]), tf.ones([3, 2], tf.bool)],
                                     expand_composites=True)
    assert type(value) is _Batchable and value.values.shape == (3, 2)
    assert tf.nest.flatten(tf.RaggedTensorSpec([None, None], tf.float32),
                           expand_composites=True) == [
        tf.TensorSpec([None], tf.float32), tf.TensorSpec([None], tf.int64)]


def test_map_fn_with_an_extension_type_output_signature():
    mm = _Batchable(tf.constant([[1.0, 2.0], [3.0, 4.0]]),
                    tf.constant([[True, False], [True, True]]))
    spec = _Batchable.Spec(values=tf.TensorSpec([2], tf.float32),
                           mask=tf.TensorSpec([2], tf.bool))
    out = tf.map_fn(lambda x: _Batchable(x.values + 1, x.mask), mm, fn_output_signature=spec)
    assert type(out) is _Batchable
    assert out.values.numpy().tolist() == [[2.0, 3.0], [4.0, 5.0]]
    assert out.mask.numpy().tolist() == [[True, False], [True, True]]


def test_dtype_field_that_does_not_convert():
    class Shaped(tf.experimental.ExtensionType):
        d: tf.DType
    assert Shaped("float32").d is tf.float32
    with pytest.raises(TypeError, match="^d: expected 'tf.DType', got 'str'$"):
        Shaped("foo")


def test_batch_encoder_batches_tensor_and_shape_fields():
    class P(tf.experimental.BatchableExtensionType):
        x: tf.Tensor
        s: tf.TensorShape
    encoder = tf.experimental.ExtensionTypeBatchEncoder()
    spec = P.Spec(x=tf.TensorSpec([2]), s=tf.TensorShape([2]))
    batched = encoder.batch(spec, 3)
    assert repr(batched) == ("P.Spec(x=TensorSpec(shape=(3, 2), dtype=tf.float32, name=None), "
                             "s=TensorShape([3, 2]))")
    assert encoder.unbatch(batched) == spec
    value = P(tf.ones([2]), tf.TensorShape([2]))
    assert encoder.encoding_specs(spec) == (tf.TensorSpec([2]),)
    assert encoder.decode(spec, encoder.encode(spec, value)).x.numpy().tolist() == [1.0, 1.0]


def test_api_dispatch_in_a_function_with_a_repr_that_needs_values():
    class Shown(tf.experimental.ExtensionType):
        values: tf.Tensor

        def __repr__(self):  # (fails on a function's symbolic tensors)
            return f"Shown({self.values.numpy().tolist()})"

    @tf.experimental.dispatch_for_api(tf.stack)
    def shown_stack(values: typing.List[Shown], axis=0):
        return Shown(tf.stack([v.values for v in values], axis))
    try:
        out = tf.function(lambda a, b: tf.stack([a, b]))(Shown([1, 2]), Shown([3, 4]))
        assert out.values.numpy().tolist() == [[1, 2], [3, 4]]
    finally:
        tf.experimental.unregister_dispatch_for(shown_stack)


def test_function_returning_an_extension_type_of_one_tensor_returns_the_value():
    class One(tf.experimental.ExtensionType):
        values: tf.Tensor
        label: str = "a"

    out = tf.function(lambda a: One(a.values * 2, "b"))(One([1, 2]))
    assert type(out) is One and out.label == "b" and out.values.numpy().tolist() == [2, 4]


def _define(annotation, *default):
    """An ExtensionType class with one field `x` of `annotation` (and its default)."""
    namespace = {"__annotations__": {"x": annotation}}
    if default:
        namespace["x"] = default[0]
    return type("C", (tf.experimental.ExtensionType,), namespace)


@pytest.mark.parametrize("annotation, message", [
    (tuple, "Unsupported type annotation 'tuple'"),
    (list, "Unsupported type annotation 'list'"),
    (object, "Unsupported type annotation 'object'"),
    (np.ndarray, "Unsupported type annotation 'ndarray'"),
    (tf.Variable, "Unsupported type annotation 'Variable'"),
    (tf.TensorSpec, "Unsupported type annotation 'TensorSpec'"),
    (typing.Any, "Unsupported type annotation 'Any'"),
    (typing.List[int], r"Unsupported type annotation typing.List\[int\]"),
    (typing.Dict[str, int], r"Unsupported type annotation typing.Dict\[str, int\]"),
    (typing.Sequence[int], r"Unsupported type annotation typing.Sequence\[int\]"),
    (typing.Tuple, "Unsupported type annotation typing.Tuple"),
    (typing.ClassVar[int], r"Unsupported type annotation typing.ClassVar\[int\]"),
    (int | str, r"Unsupported type annotation int \| str"),
    (typing.Tuple[int, typing.List[int]], r"Unsupported type annotation typing.List\[int\]"),
    (typing.Mapping[tf.Tensor, int], "Mapping had a key 'Tensor' with type 'type'"),
    (typing.Mapping[N, int], "Mapping had a key 'N' with type 'ExtensionTypeMetaclass'"),
])
def test_unsupported_field_annotations_fail_when_the_class_is_defined(annotation, message):
    with pytest.raises(TypeError, match=r"In field 'x': " + message):
        _define(annotation)


def test_supported_field_annotations_and_forward_references():
    for annotation in (int, float, str, bytes, bool, None, tf.DType, tf.TensorShape,
                       tf.RaggedTensor, tf.SparseTensor, N, typing.Optional[int],
                       typing.Tuple[()], tuple[int, ...], typing.Mapping[str, tf.Tensor],
                       typing.Union[tf.Tensor, tf.RaggedTensor], "Later"):
        _define(annotation)


@pytest.mark.parametrize("annotation, default, message", [
    (int, "a", "default value for x: expected 'int', got 'str'"),
    (float, 1, "default value for x: expected 'float', got 'int'"),
    (str, None, "default value for x: expected 'str', got 'NoneType'"),
    (typing.Tuple[int, ...], (1, "a"), r"default value for x\[1\]: expected 'int', got 'str'"),
    (typing.Mapping[str, int], {1: 2},
     r"default value for x\[<key>\]: expected 'str', got 'int'"),
    (typing.Union[int, str], 1.5,
     r"default value for x: expected typing.Union\[int, str\], got 'float'"),
])
def test_default_of_the_wrong_type_fails_when_the_class_is_defined(annotation, default,
                                                                   message):
    with pytest.raises(TypeError, match=message):
        _define(annotation, default)


def test_a_tensor_fields_default_is_converted_when_an_instance_is_built():
    C = _define(tf.Tensor, None)  # (defining it is fine)
    with pytest.raises(TypeError, match="x: expected a Tensor, got 'NoneType'"):
        C()
    assert _define(tf.Tensor, [1, 2])().x.numpy().tolist() == [1, 2]


@pytest.mark.parametrize("annotation, value, message", [
    (typing.Tuple[int, ...], 5, "x: expected tuple, got 'int'"),
    (typing.Tuple[int, str], [1], r"x: expected tuple with length 2, got 'list'\)"),
    (typing.Tuple[()], (1,), r"x: expected tuple with length 0, got 'tuple'\)"),
    (typing.Mapping[str, int], 5, "x: expected mapping, got 'int'"),
    (typing.Mapping[str, int], {1: 2}, r"x\[<key>\]: expected 'str', got 'int'"),
    (typing.Optional[int], "a", r"x: expected typing.Optional\[int\], got 'str'"),
    (tf.TensorShape, "a", "x: expected 'tf.TensorShape', got 'str'"),
])
def test_field_type_errors_name_the_field_as_tf(annotation, value, message):
    with pytest.raises(TypeError, match=message):
        _define(annotation)(value)


def test_map_fn_result_that_is_not_the_expected_extension_type():
    class M(tf.experimental.BatchableExtensionType):
        values: tf.Tensor
        mask: tf.Tensor

    m = M([[1., -2., 3.], [4., 5., 6.]], [[True, False, True], [True, True, False]])
    message = ("Error in map_fn:\n  Expected `fn` to return a:\n    M.Spec(values=TensorSpec("
               "shape=(3,), dtype=tf.float32, name=None), mask=TensorSpec(shape=(3,), "
               "dtype=tf.bool, name=None))\n  But it returned a:\n    TensorSpec(shape=(3,), "
               "dtype=tf.float32, name=None)\n    (value=tf.Tensor([ 2. -4.  6.], shape=(3,), "
               "dtype=float32))\n  To fix, update the `fn_output_signature` (or `dtype`) "
               "argument to `map_fn`.")
    with pytest.raises(ValueError) as e:
        tf.map_fn(lambda r: r.values * 2, m)
    assert str(e.value) == message
    out = tf.map_fn(lambda r: r.values * 2, m, fn_output_signature=tf.float32)
    assert out.numpy().tolist() == [[2., -4., 6.], [8., 10., 12.]]


def test_datasets_batch_a_ragged_field_of_an_extension_type_as_a_ragged_tensor():
    # (its row splits were batched as a dense tensor: the batch held an empty ragged tensor)
    class R(tf.experimental.BatchableExtensionType):
        values: tf.RaggedTensor

    r = R(tf.ragged.constant([[1], [2, 3]]))
    ds = tf.data.Dataset.from_tensors(r).batch(2)
    assert repr(ds.element_spec) == ("R.Spec(values=RaggedTensorSpec(TensorShape([None, 2, "
                                     "None]), tf.int32, 2, tf.int64))")
    assert [e.values.to_list() for e in ds] == [[[[1], [2, 3]]]]
    rows = [e.values.numpy().tolist() for e in tf.data.Dataset.from_tensor_slices(r)]
    assert rows == [[1], [2, 3]]


def test_vectorized_map_over_an_extension_type():
    class P(tf.experimental.ExtensionType):
        x: tf.Tensor
        y: tf.Tensor

    p = P([[1., 2.], [3., 4.]], [[5., 6.], [7., 8.]])
    out = tf.vectorized_map(lambda e: e.x + e.y, p)
    assert out.numpy().tolist() == [[6., 8.], [10., 12.]]


def test_binding_an_extension_type_to_a_signature_names_the_tensor_that_differs():
    class P(tf.experimental.ExtensionType):
        x: tf.Tensor
        y: tf.Tensor

    p = P([1., 2.], [3., 4.])
    spec = P.Spec(tf.TensorSpec([3]), tf.TensorSpec([3]))
    why = ("Binding inputs to tf.function failed due to `Can not cast TensorSpec(shape=(2,), "
           "dtype=tf.float32, name=None) to TensorSpec(shape=(3,), dtype=tf.float32, "
           "name=None)`.")
    with pytest.raises(TypeError) as e:
        tf.function(lambda a: a.x, input_signature=[spec])(p)
    assert str(e.value).startswith(why)
    concrete = tf.function(lambda a: a.x).get_concrete_function(spec)
    with pytest.raises(TypeError) as e:
        concrete(p)
    assert str(e.value).startswith(why)


def test_a_spec_is_a_subtype_of_one_with_unknown_dimensions():
    def spec(shape, dtype=tf.int32, k=3):
        return Pt2.Spec(tf.TensorSpec(shape, dtype), k)
    assert spec([2]).is_subtype_of(spec(None))
    assert spec([2]).is_subtype_of(spec([None]))
    assert spec([2]).is_subtype_of(spec([2]))
    assert not spec(None).is_subtype_of(spec([2]))
    assert not spec([2]).is_subtype_of(spec([3]))
    assert not spec([2]).is_subtype_of(spec([2], k=4))
    assert not spec([2]).is_subtype_of(spec([2], tf.float32))
    assert not spec([2]).is_subtype_of(tf.TensorSpec([2], tf.int32))
    ragged = tf.RaggedTensorSpec
    assert isinstance(ragged([2, None], tf.int32), tf.TypeSpec)
    assert ragged([2, None], tf.int32).is_subtype_of(ragged([None, None], tf.int32))
    assert not ragged([None, None], tf.int32).is_subtype_of(ragged([2, None], tf.int32))
    sparse = tf.SparseTensorSpec
    assert sparse([2, 3]).is_subtype_of(sparse([None, 3]))
    assert sparse([2, 3]).is_subtype_of(sparse(None))
    assert not sparse([None, 3]).is_subtype_of(sparse([2, 3]))


class Pt2(tf.experimental.ExtensionType):
    v: tf.Tensor
    k: int = 3


class SpecFields(tf.experimental.ExtensionType):
    v: tf.Tensor
    n: N
    tt: typing.Tuple[tf.Tensor, ...]
    m: typing.Mapping[str, tf.Tensor]
    k: int = 1


@pytest.mark.parametrize("field,value,message", [
    ("v", 3, "v: expected a TensorSpec, got 'int'"),
    ("v", tf.RaggedTensorSpec([2, None]), "v: expected a TensorSpec, got 'RaggedTensorSpec'"),
    ("n", tf.TensorSpec([2]), "n: expected a TypeSpec for 'N', got 'TensorSpec'"),
    ("tt", (3,), r"tt\[0\]: expected a TensorSpec, got 'int'"),
    ("m", {"x": 3}, r"m\['x'\]: expected a TensorSpec, got 'int'"),
    ("m", {1: tf.TensorSpec([2])}, r"m\[<key>\]: expected 'str', got 'int'"),
    ("k", "z", "k: expected 'int', got 'str'"),
])
def test_a_specs_fields_are_checked_against_the_annotations(field, value, message):
    ts = tf.TensorSpec([2])
    fields = dict(v=ts, n=N.Spec(ts), tt=(ts,), m={"x": ts}, k=1)
    fields[field] = value
    with pytest.raises(TypeError, match=message):
        SpecFields.Spec(**fields)


def test_a_specs_tuple_field_given_as_a_list_is_a_tuple():
    ts = tf.TensorSpec([2])
    spec = SpecFields.Spec(ts, N.Spec(ts), [ts], {"x": ts}, 1)
    assert spec.tt == (ts,) and isinstance(spec.m, dict)


def test_identity_of_an_extension_type_is_one_of_identities_of_its_tensors():
    x = tf.Variable([1., 2.])
    with tf.GradientTape() as tape:
        m = tf.identity(Pt2(x * 3, 5))
        y = tf.reduce_sum(m.v)
    assert type(m) is Pt2 and m.k == 5
    np.testing.assert_array_equal(m.v.numpy(), [3., 6.])
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), [3., 3.])
    out = tf.function(tf.identity)(Pt2([1, 2]))
    assert type(out) is Pt2 and out.v.numpy().tolist() == [1, 2]
    assert tf.identity(tf.experimental.Optional.from_value(3)).get_value().numpy() == 3


class Net(tf.experimental.BatchableExtensionType):
    shape: tf.TensorShape
    work: tf.Tensor

    def __init__(self, work):
        self.work = tf.convert_to_tensor(work)
        self.shape = self.work.shape[:-1]


def test_vectorized_map_and_map_fn_return_a_batch_of_extension_types():
    batch = Net([[1., 2.], [3., 4.], [5., 6.]])
    v = tf.vectorized_map(lambda n: Net(n.work + 1), batch)
    assert type(v) is Net and v.shape == [3]
    assert v.work.numpy().tolist() == [[2., 3.], [4., 5.], [6., 7.]]
    row = Net.Spec(tf.TensorShape([]), tf.TensorSpec([2]))
    m = tf.map_fn(lambda n: Net(n.work * 2), batch, fn_output_signature=row)
    assert m.shape == [3] and m.work.numpy().tolist() == [[2., 4.], [6., 8.], [10., 12.]]

    @tf.function(input_signature=[Net.Spec(tf.TensorShape([None]), tf.TensorSpec([None, 2]))])
    def f(n):
        out = tf.map_fn(lambda n: Net(n.work * 2), n, fn_output_signature=row)
        assert out.shape.as_list() == [None]
        return out.work
    assert f(batch).numpy().tolist() == [[2., 4.], [6., 8.], [10., 12.]]


def test_padded_batch_of_extension_types_is_refused_as_in_tf():
    ds = tf.data.Dataset.from_tensor_slices(Net([[1., 2.], [3., 4.]]))
    with pytest.raises(TypeError, match=r"`padded_batch` is only supported for datasets that "
                                        r"produce tensor elements but type spec of elements in "
                                        r"the input dataset is not a subclass of TensorSpec: "
                                        r"`Net.Spec\(shape=TensorShape\(\[\]\)"):
        ds.padded_batch(2)


def test_a_private_name_is_a_field():
    class Priv(tf.experimental.ExtensionType):
        _values: tf.Tensor
        n: int = 1

        def values(self):
            return self._values

    p = Priv([1, 2])
    assert repr(p._type_spec) == ("Priv.Spec(_values=TensorSpec(shape=(2,), dtype=tf.int32, "
                                  "name=None), n=1)")
    assert tf.function(lambda p: p.values() * 2)(p).numpy().tolist() == [2, 4]
    assert tf.experimental.extension_type.as_dict(p)["n"] == 1


@pytest.mark.parametrize("namespace,message", [
    ({"__annotations__": {"Spec": tf.Tensor}}, "Field 'Spec' is reserved"),
    ({"__annotations__": {"value_type": tf.Tensor}}, "Field 'value_type' is reserved"),
    ({"__annotations__": {"_TF_extension_type_x": tf.Tensor}},
     "Field '_TF_extension_type_x' is reserved"),
    ({"__annotations__": {"x": tf.Tensor}, "_to_components": lambda self: 1},
     "Field '_to_components' is reserved"),
    ({"__annotations__": {"x": tf.Tensor}, "y": 3}, "Field y is missing a type annotation"),
])
def test_reserved_and_unannotated_fields_fail_when_the_class_is_defined(namespace, message):
    with pytest.raises(ValueError, match=f"The field annotations for K are invalid. {message}"):
        type("K", (tf.experimental.ExtensionType,), namespace)


@pytest.mark.parametrize("spec,message", [
    (3, r"M.Spec must be a nested class; got 3."),
    (type("Spec", (dict,), {}), r"M.Spec must be directly subclassed from tf.TypeSpec."),
    (type("Spec", (), {"x": property(lambda self: 1)}),
     r"TypeSpec M.Spec defines a variable 'x' which shadows a field in M"),
    (type("Spec", (), {"_to_components": lambda self: 1}),
     r"TypeSpec M.Spec uses reserved name '_to_components'."),
])
def test_a_nested_spec_class_that_tf_refuses(spec, message):
    with pytest.raises(ValueError, match=message):
        type("M", (tf.experimental.ExtensionType,), {"__annotations__": {"x": tf.Tensor},
                                                      "Spec": spec})


def test_a_nested_spec_class_may_subclass_type_spec():
    M = type("M", (tf.experimental.ExtensionType,), {
        "__annotations__": {"x": tf.Tensor},
        "Spec": type("Spec", (tf.TypeSpec,), {"rank": property(lambda s: s.x.shape.rank)})})
    assert M([1, 2])._type_spec.rank == 1


def test_a_subclass_field_without_default_after_defaults_is_keyword_only():
    class Base(tf.experimental.ExtensionType):
        a: tf.Tensor
        n: int = 1

    class Child(Base):  # (constructing one was a ValueError: non-default argument follows default)
        b: tf.Tensor
        k: str = "z"

    c = Child(1.0, b=2.0)
    assert (float(c.a), c.n, float(c.b), c.k) == (1.0, 1, 2.0, "z")
    assert Child(b=2.0, a=1.0, k="q").k == "q"
    with pytest.raises(TypeError, match="too many positional arguments"):
        Child(1.0, 2, 3.0)
    with pytest.raises(TypeError, match="missing a required argument: 'b'"):
        Child(1.0)
    spec = Child.Spec(tf.TensorSpec([]), 1, tf.TensorSpec([]), "q")  # (a Spec's are positional)
    assert spec.k == "q"


def test_a_spec_takes_ragged_and_sparse_specs_for_their_fields():
    class Holder(tf.experimental.ExtensionType):
        rt: tf.RaggedTensor
        sp: tf.SparseTensor

    spec = Holder.Spec(rt=tf.RaggedTensorSpec([None, None], tf.float32),
                       sp=tf.SparseTensorSpec([None, 2], tf.float32))
    assert spec.rt == tf.RaggedTensorSpec([None, None], tf.float32)

    @tf.function(input_signature=[spec])
    def total(h):
        return tf.reduce_sum(h.rt) + tf.sparse.reduce_sum(h.sp)

    h = Holder(tf.ragged.constant([[1.0], [2.0, 3.0]]), tf.sparse.from_dense(tf.ones([2, 2])))
    assert float(total(h)) == 10.0
    for wrong in (tf.TensorSpec([2]), tf.SparseTensorSpec([2], tf.float32),
                  tf.ragged.constant([[1.0]])):
        with pytest.raises(TypeError, match="rt: expected a TypeSpec for 'RaggedTensor', "
                                            f"got '{type(wrong).__name__}'"):
            Holder.Spec(rt=wrong, sp=tf.SparseTensorSpec([None, 2], tf.float32))


def test_an_optional_shape_field_left_none_is_an_unknown_shape_as_in_tf():
    class Shaped(tf.experimental.ExtensionType):
        x: tf.Tensor
        shape: typing.Optional[tf.TensorShape] = None
        other: typing.Optional[tf.Tensor] = None

    s = Shaped(1.0)
    assert s.shape is not None and s.shape.rank is None  # (it stayed None)
    assert s.other is None
    assert Shaped(1.0, [2]).shape == tf.TensorShape([2])

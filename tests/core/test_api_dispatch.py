"""``tf.experimental.dispatch_for_api`` and the elementwise forms: user versions of TF's
functions for ExtensionTypes (values and errors checked against TF 2.21)."""
from typing import List, Optional, Union

import numpy as np
import pytest

import eagerflow as tf


class MaskedTensor(tf.experimental.ExtensionType):
    values: tf.Tensor
    mask: tf.Tensor


def _mt():
    return MaskedTensor([1.0, -2.0, 3.0], [True, False, True])


@pytest.fixture
def registered():
    """Registers targets for a test and unregisters them afterwards."""
    targets = []

    def register(decorator, target):
        decorator(target)
        targets.append(target)
        return target
    yield register
    for target in targets:
        tf.experimental.unregister_dispatch_for(target)


_CONVERT = r"Attempt to convert a value \(MaskedTensor\(.*\) with an unsupported type"


def test_api_target_runs_for_matching_arguments(registered):
    with pytest.raises(ValueError, match=_CONVERT):
        tf.math.add(_mt(), _mt())

    def masked_add(x: MaskedTensor, y: MaskedTensor, name=None):
        return MaskedTensor(x.values + y.values, x.mask & y.mask)
    registered(tf.experimental.dispatch_for_api(tf.math.add), masked_add)
    for result in (tf.math.add(_mt(), _mt()), tf.add(x=_mt(), y=_mt())):
        np.testing.assert_array_equal(result.values.numpy(), [2.0, -4.0, 6.0])
        np.testing.assert_array_equal(result.mask.numpy(), [True, False, True])
    # arguments that do not match: TF's conversion error, plain tensors as ever
    with pytest.raises(ValueError, match=_CONVERT) as info:
        tf.add(_mt(), tf.constant([1.0, 2.0, 3.0]))
    assert type(info.value) is ValueError
    assert tf.add(1, 2).numpy() == 3


def test_api_target_with_defaults_keywords_and_without_name(registered):
    def masked_sum(input_tensor: MaskedTensor, axis=None, keepdims=False, name=None):
        return tf.reduce_sum(tf.where(input_tensor.mask, input_tensor.values, 0.0), axis)
    registered(tf.experimental.dispatch_for_api(tf.math.reduce_sum), masked_sum)
    assert tf.reduce_sum(_mt()).numpy() == 4.0
    assert tf.math.reduce_sum(input_tensor=_mt(), axis=0).numpy() == 4.0

    def masked_max(x: MaskedTensor, y: MaskedTensor):  # (no `name`: not passed)
        return "max"
    registered(tf.experimental.dispatch_for_api(tf.math.maximum), masked_max)
    assert tf.maximum(_mt(), _mt(), name="q") == "max"


def test_signatures_unions_optionals_and_lists(registered):
    def target(x, y, name=None):
        return ("target", name)
    # given signatures win over annotations; each is an alternative
    registered(tf.experimental.dispatch_for_api(tf.math.xdivy, {"x": MaskedTensor},
                                                {"y": MaskedTensor}), target)
    assert tf.math.xdivy(_mt(), 1.0) == ("target", None)
    assert tf.math.xdivy(1.0, _mt(), "n") == ("target", "n")

    def pow_target(x: int, y: Optional[MaskedTensor], name=None):
        return "pow"
    registered(tf.experimental.dispatch_for_api(tf.math.pow), pow_target)
    assert tf.pow(3, _mt()) == "pow"
    with pytest.raises(ValueError, match=_CONVERT):
        tf.pow(3.0, _mt())

    def concat(values: List[MaskedTensor], axis, name="concat"):
        return MaskedTensor(tf.concat([v.values for v in values], axis),
                            tf.concat([v.mask for v in values], axis))
    registered(tf.experimental.dispatch_for_api(tf.concat), concat)
    assert tf.concat((_mt(), _mt()), 0).values.shape == (6,)
    with pytest.raises(ValueError, match=_CONVERT):
        tf.concat([_mt(), tf.constant([1.0])], 0)


def test_targets_run_inside_tf_function(registered):
    def concat(values: List[MaskedTensor], axis, name="concat"):
        return MaskedTensor(tf.concat([v.values for v in values], axis),
                            tf.concat([v.mask for v in values], axis))
    registered(tf.experimental.dispatch_for_api(tf.concat), concat)

    @tf.function
    def f(m):
        return tf.concat([m, m], 0)
    result = f(_mt())
    np.testing.assert_array_equal(result.values.numpy(), [1.0, -2.0, 3.0] * 2)


def test_unary_and_binary_elementwise_handlers(registered):
    def unary(api_func, x):
        return MaskedTensor(api_func(x.values), x.mask)
    registered(tf.experimental.dispatch_for_unary_elementwise_apis(MaskedTensor), unary)
    np.testing.assert_array_equal(tf.abs(_mt()).values.numpy(), [1.0, 2.0, 3.0])
    np.testing.assert_array_equal(tf.nn.relu(_mt()).values.numpy(), [1.0, 0.0, 3.0])
    cast = tf.cast(_mt(), tf.int32)  # the other arguments go with api_func
    assert cast.values.dtype == tf.int32
    np.testing.assert_array_equal(tf.clip_by_value(_mt(), 0.0, 1.0).values.numpy(),
                                  [1.0, 0.0, 1.0])

    def binary(api_func, x, y):
        def values(a):
            return a.values if isinstance(a, MaskedTensor) else a

        def mask(a):
            return a.mask if isinstance(a, MaskedTensor) else tf.ones_like(a, tf.bool)
        return MaskedTensor(api_func(values(x), values(y)), mask(x) & mask(y))
    either = Union[MaskedTensor, tf.Tensor]
    registered(tf.experimental.dispatch_for_binary_elementwise_apis(either, either), binary)
    product = tf.math.multiply(tf.constant([2.0, 2.0, 2.0]), _mt())
    np.testing.assert_array_equal(product.values.numpy(), [2.0, -4.0, 6.0])
    assert tf.multiply(tf.constant(2), tf.constant(3)).numpy() == 6  # tensors untouched
    with pytest.raises(ValueError, match=_CONVERT):  # a list is no tf.Tensor
        tf.multiply(_mt(), [1.0, 2.0, 3.0])

    def masked_add(x: MaskedTensor, y: MaskedTensor, name=None):
        return "api"
    registered(tf.experimental.dispatch_for_api(tf.math.add), masked_add)
    with pytest.raises(ValueError, match=r"Multiple dispatch targets that were registered with "
                                         r"tf.dispatch_for \(<function "
                                         r"elementwise_dispatch_target_for_add at .* and "
                                         r"<function .*masked_add at .*\) match the arguments "
                                         r"to add"):
        tf.add(_mt(), _mt())


def test_assert_handlers(registered):
    def handler(assert_func, x, y):
        return assert_func(x.values, y.values)
    registered(tf.experimental.dispatch_for_binary_elementwise_assert_apis(
        MaskedTensor, MaskedTensor), handler)
    tf.debugging.assert_equal(_mt(), _mt())
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.debugging.assert_equal(_mt(), MaskedTensor([0.0, 0.0, 0.0], [True] * 3))


def test_registration_errors():
    def add(a, b, name=None):
        pass
    with pytest.raises(ValueError, match=r"Dispatch function's signature \(a, b, name=None\) "
                                         r"does not match API's signature \(x, y, name=None\)"):
        tf.experimental.dispatch_for_api(tf.math.add)(add)

    def concat(values: MaskedTensor):
        pass
    with pytest.raises(ValueError, match=r"signature \(values: .*, name='concat'\) does not "
                                         r"match API's signature \(values, axis, "
                                         r"name='concat'\)"):
        tf.experimental.dispatch_for_api(tf.concat)(concat)

    def plain(x, y, name=None):
        pass
    with pytest.raises(ValueError, match="must be called with at least one signature, or "
                                         "applied to a function that has type annotations"):
        tf.experimental.dispatch_for_api(tf.math.add)(plain)
    with pytest.raises(ValueError, match="signature includes annotation for unknown parameter "
                                         "'z'"):
        tf.experimental.dispatch_for_api(tf.math.add, {"z": MaskedTensor})(plain)
    with pytest.raises(ValueError, match=r"Type annotation 3 is not currently supported by "
                                         r"dispatch.  Supported annotations: type objects,  "
                                         r"List\[...\], and Union\[...\]"):
        tf.experimental.dispatch_for_api(tf.math.add, {"x": 3})(plain)
    for api in (print, tf.print, tf.io.gfile.exists, tf.experimental.dispatch_for_api,
                tf.sparse.to_dense):  # (what TF does not dispatch)
        with pytest.raises(ValueError, match="does not support dispatch"):
            tf.experimental.dispatch_for_api(api)
    tf.experimental.dispatch_for_api(tf.sparse.reshape)  # (one sparse function TF dispatches)
    with pytest.raises(TypeError, match="Expected dispatch_target to be callable; got 3"):
        tf.experimental.dispatch_for_api(tf.math.add)(3)
    with pytest.raises(ValueError, match=r"Function <function .*plain at .*> was not "
                                         r"registered using a `@dispatch_for_\*` decorator."):
        tf.experimental.unregister_dispatch_for(plain)


def test_unregistered_target_no_longer_runs():
    def masked_neg(x: MaskedTensor, name=None):
        return "neg"
    tf.experimental.dispatch_for_api(tf.math.negative)(masked_neg)
    assert tf.math.negative(_mt()) == "neg"
    tf.experimental.unregister_dispatch_for(masked_neg)
    with pytest.raises(ValueError, match=_CONVERT):
        tf.math.negative(_mt())


def test_a_given_signatures_unknown_parameter_is_reported_before_a_mismatched_function():
    class Box(tf.experimental.ExtensionType):
        v: tf.Tensor

    def renamed(x: Box, yy: Box, name=None):
        return None

    with pytest.raises(ValueError, match="signature includes annotation for unknown "
                                         "parameter 'z'"):
        tf.experimental.dispatch_for_api(tf.math.add, {"z": Box})(renamed)
    with pytest.raises(ValueError, match="Dispatch function's signature .* does not match"):
        tf.experimental.dispatch_for_api(tf.math.add)(renamed)


def test_tensor_operators_dispatch_elementwise_apis_on_the_right_operand():
    class Box(tf.experimental.ExtensionType):
        v: tf.Tensor

    @tf.experimental.dispatch_for_binary_elementwise_apis(Union[Box, tf.Tensor],
                                                          Union[Box, tf.Tensor])
    def boxed(api_func, x, y):
        return Box(api_func(x.v if isinstance(x, Box) else x, y.v if isinstance(y, Box) else y))

    try:
        t = tf.constant([10.0, 10.0])
        assert (t / Box(tf.constant([2.0, 5.0]))).v.numpy().tolist() == [5.0, 2.0]
        both = tf.constant([True, True]) & Box(tf.constant([True, False]))
        assert both.v.numpy().tolist() == [True, False]
        with pytest.raises(ValueError, match="Attempt to convert a value") as caught:
            Box(tf.constant([1.0, 2.0])) * t  # (reflected: TF converts, no dispatch)
        assert type(caught.value) is ValueError
    finally:
        tf.experimental.unregister_dispatch_for(boxed)

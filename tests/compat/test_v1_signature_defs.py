"""TF 1's SignatureDef helpers of ``compat.v1.saved_model`` (classify and regress
signatures, their validity, the default main op); messages are TF 2.21's."""
import pytest

import eagerflow as tf
import eagerflow.compat.v1 as tf1

sm = tf1.saved_model


@pytest.fixture
def tensors():
    with tf1.Graph().as_default() as g:
        yield (g, tf1.placeholder(tf.string, [None], name="ex"),
               tf1.placeholder(tf.string, [None, 3], name="cl"),
               tf1.placeholder(tf.float32, [None, 3], name="sc"),
               tf1.placeholder(tf.float32, [None, 1], name="pr"),
               tf1.placeholder(tf.int32, [None], name="ints"))


def test_classify_and_regress_signatures(tensors):
    _, ex, cl, sc, pr, _ = tensors
    c = sm.classification_signature_def(ex, cl, sc)
    assert c.method_name == "tensorflow/serving/classify"
    assert {k: v.name for k, v in c.inputs.items()} == {"inputs": "ex:0"}
    assert {k: v.name for k, v in c.outputs.items()} == {"classes": "cl:0", "scores": "sc:0"}
    assert [d.size for d in c.outputs["scores"].tensor_shape.dim] == [-1, 3]
    assert set(sm.classification_signature_def(ex, None, sc).outputs) == {"scores"}
    r = sm.regression_signature_def(ex, pr)
    assert r.method_name == "tensorflow/serving/regress"
    assert {k: v.name for k, v in r.outputs.items()} == {"outputs": "pr:0"}
    assert sm.signature_def_utils.classification_signature_def is sm.classification_signature_def
    assert sm.signature_def_utils.regression_signature_def is sm.regression_signature_def


@pytest.mark.parametrize("call, message", [
    (lambda ex, cl, sc, pr, i: sm.classification_signature_def(None, cl, sc),
     "Classification `examples` cannot be None."),
    (lambda ex, cl, sc, pr, i: sm.classification_signature_def("x", cl, sc),
     "Classification `examples` must be a string Tensor. Found `examples` of type "
     "<class 'str'>."),
    (lambda ex, cl, sc, pr, i: sm.classification_signature_def(ex, None, None),
     "Classification `classes` and `scores` cannot both be None."),
    (lambda ex, cl, sc, pr, i: sm.classification_signature_def(i, cl, sc),
     "Classification input tensors must be of type string. Found tensors of type 3"),
    (lambda ex, cl, sc, pr, i: sm.classification_signature_def(ex, i, sc),
     "Classification classes must be of type string Tensor. Found tensors of type 3.`"),
    (lambda ex, cl, sc, pr, i: sm.classification_signature_def(ex, cl, i),
     "Classification scores must be a float Tensor."),
    (lambda ex, cl, sc, pr, i: sm.regression_signature_def(None, pr),
     "Regression `examples` cannot be None."),
    (lambda ex, cl, sc, pr, i: sm.regression_signature_def(ex, None),
     "Regression `predictions` cannot be None."),
    (lambda ex, cl, sc, pr, i: sm.regression_signature_def(ex, i),
     "Regression output tensors must be of type float. Found tensors with type 3."),
    (lambda ex, cl, sc, pr, i: sm.regression_signature_def(i, pr),
     "Regression input tensors must be of type string. Found tensors with type 3."),
    (lambda ex, cl, sc, pr, i: sm.regression_signature_def("x", pr),
     "Expected regression `examples` to be of type Tensor. Found `examples` of type "
     "<class 'str'>."),
])
def test_signature_errors_are_tfs(tensors, call, message):
    with pytest.raises(ValueError) as info:
        call(*tensors[1:])
    assert str(info.value) == message


def test_is_valid_signature(tensors):
    _, ex, cl, sc, pr, ints = tensors
    assert sm.signature_def_utils.is_valid_signature is sm.is_valid_signature
    assert sm.is_valid_signature(sm.classification_signature_def(ex, cl, sc))
    assert sm.is_valid_signature(sm.regression_signature_def(ex, pr))
    assert sm.is_valid_signature(sm.predict_signature_def({"a": ex}, {"b": pr}))
    assert not sm.is_valid_signature(sm.build_signature_def({}, {}, "foo"))
    assert not sm.is_valid_signature(None)
    assert not sm.is_valid_signature(sm.build_signature_def({}, {}, sm.PREDICT_METHOD_NAME))
    bad = sm.build_signature_def({"inputs": sm.build_tensor_info(ints)},
                                 {"outputs": sm.build_tensor_info(pr)}, sm.REGRESS_METHOD_NAME)
    assert not sm.is_valid_signature(bad)


def test_main_ops(tensors):
    g = tensors[0]
    tf1.Variable(1.0, name="v")
    op = sm.main_op.main_op()
    assert (op.type, op.name) == ("NoOp", "group_deps")
    assert sorted(g.control_inputs[op.name]) == ["init", "init_1", "init_all_tables"]
    with pytest.raises(TypeError, match="'inputs' should be zero or more \\(nested\\) Tensors. "
                                        "Received 'save/restore_all' with type "
                                        "'<class 'str'>'."):
        sm.main_op_with_restore("save/restore_all")
    restored = sm.main_op_with_restore(tf1.no_op(name="restore_all"))
    assert restored.type == "NoOp" and sm.main_op.main_op_with_restore is sm.main_op_with_restore
    with tf1.Session(graph=g) as sess:
        sess.run(restored)

"""What each interpreter of graphs knows of an op comes from the op's registration.

These sets pin which ops batch by which rule, reuse buffers, fuse and fold
shapes, as the interpreters' own op-name tables gave them before the ops
declared it: moving the knowledge into the registrations changed none of it.
"""
from types import SimpleNamespace

import numpy as np

import eagerflow as tf  # noqa: F401 (registers every op)
from tests.internals import ACTIVATION_OPS, buffer_reuse, registry, vectorize

OPS = registry.all_ops()

ELEMENTWISE = {
    "Abs", "Acos", "Acosh", "Add", "AddV2", "Angle", "AsString", "Asin", "Asinh", "Atan",
    "Atan2", "Atanh", "BitwiseAnd", "BitwiseOr", "BitwiseXor", "Cast", "Ceil", "ComplexAbs",
    "Conj", "Cosh", "DivNoNan", "Equal", "Floor", "FloorDiv", "FloorMod", "Greater",
    "GreaterEqual", "Igamma", "IgammaGradA", "Igammac", "Imag", "Invert", "IsFinite", "IsInf",
    "IsNan", "LeftShift", "Less", "LessEqual", "LogicalAnd", "LogicalNot", "LogicalOr",
    "Maximum", "Minimum", "Mul", "MulNoNan", "Neg", "NextAfter", "NotEqual", "Polygamma", "Pow",
    "RandomGammaGrad", "Real", "RealDiv", "Relu", "RightShift", "Sinh", "Sqrt", "Square",
    "SquaredDifference", "StaticRegexFullMatch", "StaticRegexReplace", "StringLength",
    "StringLower", "StringStrip", "StringUpper", "Sub", "Tan", "TruncateDiv", "TruncateMod",
    "UnicodeScript", "UnicodeTranscode", "DecodeJSONExample",
    "Xdivy", "Xlog1py", "Xlogy", "Zeta", "Div", "PopulationCount", "Bucketize", "Mod"}
# Shaped like their input (`same_shape`): elementwise when they have no attrs.
SAME_SHAPE = {
    "BesselI0", "BesselI0e", "BesselI1", "BesselI1e", "BesselJ0", "BesselJ1", "BesselK0",
    "BesselK0e", "BesselK1", "BesselK1e", "BesselY0", "BesselY1", "CheckNumerics",
    "CheckNumericsV2", "Cos",
    "Cumprod", "Cumsum", "CumulativeLogsumexp", "Dawsn", "Digamma", "Elu", "EluGrad", "Erf",
    "Erfc", "Erfinv", "Exp", "Expint", "Expm1", "FresnelCos", "FresnelSin", "Identity",
    "LeakyRelu", "Ndtri",
    "LeakyReluGrad", "Lgamma", "Log", "Log1p", "MatrixBandPart", "OnesLike", "Reciprocal",
    "ReciprocalGrad", "Relu6", "Relu6Grad", "ReluGrad", "Rint", "Round", "Rsqrt",
    "RsqrtGrad", "Selu", "SeluGrad", "Sigmoid", "SigmoidGrad", "Sign", "Sin", "Softplus",
    "Softsign", "SoftsignGrad", "SoftplusGrad", "Spence", "SqrtGrad", "StopGradient",
    "PreventGradient", "Tanh", "TanhGrad",
    "ZerosLike", "Inv", "InvGrad"}
REDUCTIONS = {"All", "Any", "EuclideanNorm", "Max", "Mean", "Min", "Prod", "ReduceJoin", "Sum"}
# Their own rules, for their static forms (inputs: shape and permutation as attrs).
OWN_RULES = {"Reshape": 1, "BroadcastTo": 1, "Transpose": 1, "MatMul": 2, "BatchMatMulV2": 2,
             # (a dataset map's chunks: slices and crops, stacks, flips, random draws by
             # per-element seeds, resizes, contrasts, shapes, assertions)
             "StridedSlice": 1, "Pack": 2, "ReverseV2": 1, "SelectV2": 3, "Shape": 1,
             "ExpandDims": 1, "Squeeze": 1, "AdjustContrastv2": 2, "ResizeBilinear": 1,
             "ResizeNearestNeighbor": 1, "ResizeBicubic": 1, "ResizeArea": 1, "Assert": 1,
             "StatelessRandomUniform": 2, "StatelessRandomNormal": 2,
             "StatelessRandomUniformInt": 4, "StatelessRandomUniformFullInt": 2,
             # (a chunk's images decoded at once, or on the intra-op threads)
             "DecodePng": 1, "DecodeJpeg": 1, "DecodeImage": 1}


def _node(name, inputs=1, attrs=None):
    """A stand-in graph operation of registered op `name`."""
    return SimpleNamespace(type=name, op_def=OPS[name], inputs=[None] * inputs,
                           attrs=attrs or {})


def _kind(name, inputs, attrs):
    rule = vectorize._rule(_node(name, inputs, attrs))
    return {vectorize._elementwise: "elementwise", vectorize._reduction: "reduction",
            None: None}.get(rule, "own")


def _expected_kind(name, inputs, attrs):
    """The batching rule as the op-name tables chose it."""
    if name in OWN_RULES:
        return "own"
    if name in ELEMENTWISE or name in SAME_SHAPE and not attrs:
        return "elementwise"
    if name in REDUCTIONS and inputs == 1:
        return "reduction"
    return None


def test_batching_rules_apply_to_the_ops_they_did():
    for name in OPS:
        for inputs in (1, 2) if name not in OWN_RULES else (OWN_RULES[name],):
            for attrs in ({}, {"axis": 1}):
                assert _kind(name, inputs, attrs) == _expected_kind(name, inputs, attrs), name


def test_own_batching_rules_leave_run_time_shapes_to_the_loop():
    # a shape or permutation given as an input is known only at run time: run per element
    args = [(np.zeros((2, 3)), True), (np.array([3]), False)]
    for name in ("Reshape", "BroadcastTo", "Transpose"):
        rule = registry.batching_rules.get(OPS[name])
        assert rule(_node(name, 2, {}), args) is None, name


def test_ops_without_a_batching_rule_declare_it():
    for name, op in OPS.items():
        if name not in OWN_RULES.keys() | ELEMENTWISE | SAME_SHAPE | REDUCTIONS and not op.stateful:
            assert registry.batching_rules.get(op) is registry.PER_ELEMENT, name


def test_input_names_are_declared_where_tf_does_not_use_x_and_y():
    tf.compat.v1.summary.scalar  # noqa: B018 (registers TF 1's summary ops, loaded when used)
    declared = {name: op.input_names for name, op in registry.all_ops().items()
                if op.input_names}
    assert declared == {"MatMul": ("a", "b"), "AddN": ("inputs",), "Einsum": ("inputs",),
                        "InTopKV2": ("targets", "k"),
                        "LRNGrad": ("input_grads", "input_image", "output_image"),
                        "MaxPoolGradWithArgmax": ("input", "grad"),
                        "RaggedTensorToTensor": ("values", "default_value"),
                        "RaggedRange": ("starts", "limits", "deltas"),
                        "RaggedBincount": ("values", "size"),
                        "DenseCountSparseOutput": ("values",),
                        "SparseCountSparseOutput": ("values",),
                        "SparseBincount": ("values", "size"),
                        "TridiagonalSolve": ("diagonals", "rhs"),
                        "SparseTensorDenseMatMul": ("a_values", "b"),
                        "SparseFillEmptyRows": ("values", "default_value"),
                        "SparseSoftmax": ("sp_values",), "Bucketize": ("input",),
                        "SparseAdd": ("a_values", "b_values"),
                        "SparseTensorDenseAdd": ("a_values", "b"),
                        "QuantizeV2": ("input",),
                        "SparseAddGrad": ("backprop_val_grad",),
                        "SparseSparseMaximum": ("a_values", "b_values"),
                        "SparseSparseMinimum": ("a_values", "b_values"),
                        **{f"SparseDenseCwise{kind}": ("sp_values", "dense")
                           for kind in ("Add", "Mul", "Div")},
                        "ScalarSummary": ("values",), "HistogramSummary": ("values",),
                        **{f"SparseSegment{kind}{counted}": ("data",)
                           for kind in ("Sum", "Mean", "SqrtN")
                           for counted in ("", "WithNumSegments")},
                        **{f"{kind}CandidateSampler": ("true_classes",) for kind in (
                            "All", "LogUniform", "Uniform", "FixedUnigram", "LearnedUnigram")}}


# Results that are new arrays: the NumPy ufunc kernels with one output, and these.
FRESH = {"MatMul", "BatchMatMulV2", "_FusedMatMul", "_FusedConv2D", "_FusedConv3D",
         "_FusedDepthwiseConv2dNative", "BiasAdd", "BiasAddV1",
         "Sigmoid", "SigmoidGrad", "TanhGrad", "RsqrtGrad", "ReciprocalGrad", "ReluGrad", "Relu6Grad",
         "LeakyReluGrad", "EluGrad", "SeluGrad", "SoftsignGrad", "SoftplusGrad", "Exp", "Log",
         "Tanh", "BroadcastTo", "Conv2DBackpropInput", "Relu", "FusedBatchNormV3",
         "FusedBatchNormGradV3", "FusedBatchNorm", "FusedBatchNormV2", "FusedBatchNormGrad",
         "FusedBatchNormGradV2", "_FusedBatchNormEx", "_FusedBatchNormGradEx",
         "_BroadcastReluGrad", "AddN", "InvGrad", "BatchMatMul"}
# Ops that read their inputs without keeping them (an update makes a new array).
READ_ONLY = {"AssignAddVariableOp", "AssignSubVariableOp", "Mean",
             *(f"ResourceScatter{name}" for name in (
                 "Update", "Add", "Sub", "Mul", "Div", "Min", "Max"))}


def _single_ufunc(op):
    return (isinstance(op.host_kernel, np.ufunc) and op.host_kernel.nout == 1
            and not op.multi)


def test_buffer_reuse_applies_to_the_ops_it_did():
    ufuncs = {name for name, op in OPS.items() if _single_ufunc(op)}
    allocating = {name for name in OPS if buffer_reuse._allocates(_node(name))}
    assert allocating == ufuncs | FRESH
    viewless = {name for name in OPS if buffer_reuse._keeps_no_view(_node(name))}
    assert viewless == ufuncs | FRESH | READ_ONLY


def test_fusion_applies_to_the_ops_it_did():
    fused = {op.name: into.name for op, into in registry.fusion_rules.items()}
    assert fused == {"MatMul": "_FusedMatMul", "Conv2D": "_FusedConv2D",
                     "DepthwiseConv2dNative": "_FusedDepthwiseConv2dNative",
                     "Conv3D": "_FusedConv3D"}
    assert {op.name for op in ACTIVATION_OPS} == {
        "Relu", "Relu6", "Elu", "LeakyRelu", "Tanh", "Sigmoid"}


def test_constant_shapes_fold_for_the_ops_they_did():
    assert {op.name for op in OPS.values() if op.moves_elements} == {
        "Pack", "ConcatV2", "StridedSlice", "Slice", "GatherV2", "Identity", "Reshape",
        "ExpandDims", "Squeeze"}
    assert {op.name for op, _ in registry.static_value_rules.items()} == {"Shape", "Size", "Rank"}
    assert {op.name for op in OPS.values() if op.shape_only} == {
        "Shape", "Size", "Rank", "ZerosLike", "OnesLike"}


def test_sparse_gradients_pass_through_the_ops_they_did():
    assert {op.name for op in OPS.values() if op.grad_passes_sparse} == {
        "ReadVariableOp", "Identity", "ConcatV2"}

"""Sample calls of ``tf.raw_ops``, one per op, for TF (data/make_raw_ops_data.py) and for
eagerflow (test_raw_ops.py) alike: op name -> keyword arguments, or a function making the
call (and returning a list of what to compare) where the op needs state or other ops'
results. Most pass only what TF requires, so that the attrs' defaults are TF's."""


import os
import tempfile
import zlib


def samples(tf):
    f = tf.constant([[1.5, -2.0, 0.5], [0.25, 3.0, -1.0]])
    p = tf.constant([[0.5, 0.25, 0.75], [0.125, 0.9, 0.3]])  # in (0, 1)
    g = tf.constant([[1.5, 2.0, 0.5], [0.25, 3.0, 1.0]])  # positive
    i = tf.constant([[3, -1, 2], [0, 5, -4]])
    u = tf.constant([[3, 1, 2], [0, 5, 4]])
    b = tf.constant([[True, False, True], [False, False, True]])
    c = tf.complex(f, g)
    s = tf.constant(["Hello World", " ab c "])
    image = tf.reshape(tf.range(48, dtype=tf.float32) / 48.0, [1, 4, 4, 3])
    square = tf.constant([[4.0, 1.0], [1.0, 3.0]])
    out = {}
    unary_x = ["Abs", "Acos", "Asin", "Atan", "Atanh", "Ceil", "Cos", "Cosh", "Digamma", "Erf",
               "Erfc", "Exp", "Expm1", "Floor", "IsFinite", "IsInf", "IsNan", "Lgamma",
               "Log1p", "Neg", "OnesLike", "Reciprocal", "Rint", "Round", "Sigmoid", "Sign",
               "Sin", "Sinh", "Square", "Tan", "Tanh", "ZerosLike", "BesselI0", "BesselI0e",
               "BesselI1", "BesselI1e", "BesselJ0", "BesselJ1", "Dawsn", "Spence",
               "FresnelCos", "FresnelSin", "Asinh"]
    for name in unary_x:
        out[name] = dict(x=p if name in ("Acos", "Asin", "Atanh", "Spence") else f)
    for name in ["Log", "Sqrt", "Rsqrt", "Acosh", "BesselK0", "BesselK0e", "BesselK1",
                 "BesselK1e", "BesselY0", "BesselY1", "Expint"]:
        out[name] = dict(x=g + 1.0)
    out["Add"] = dict(x=s, y="!")
    for name in ["AddV2", "Sub", "Mul", "RealDiv", "Maximum", "Minimum", "Pow",
                 "SquaredDifference", "DivNoNan", "MulNoNan", "Xdivy", "Xlogy", "Xlog1py",
                 "Equal", "NotEqual", "Less", "LessEqual", "Greater", "GreaterEqual"]:
        out[name] = dict(x=f, y=g)
    for name in ["FloorDiv", "FloorMod", "TruncateDiv", "TruncateMod", "BitwiseAnd",
                 "BitwiseOr", "BitwiseXor", "Div"]:
        out[name] = dict(x=i, y=tf.constant([[2, 3, -3], [7, 2, 3]]))
    out["LeftShift"] = dict(x=u, y=tf.constant([[1, 2, 0], [3, 1, 2]]))
    out["RightShift"] = dict(x=u * 8, y=tf.constant([[1, 2, 0], [3, 1, 2]]))
    out["Invert"] = dict(x=i)
    out["PopulationCount"] = dict(x=i)
    out["Atan2"] = dict(y=f, x=g)
    for name in ["Igamma", "Igammac", "IgammaGradA"]:
        out[name] = dict(a=g, x=g + 0.5)
    out["Polygamma"] = dict(a=tf.constant([[0.0, 1.0, 2.0], [1.0, 0.0, 3.0]]), x=g)
    out["Betainc"] = dict(a=g, b=g + 1.0, x=p)
    out["LogicalAnd"] = dict(x=b, y=tf.logical_not(b))
    out["LogicalOr"] = dict(x=b, y=tf.logical_not(b))
    out["LogicalNot"] = dict(x=b)
    for name in ["SigmoidGrad", "TanhGrad", "SqrtGrad", "RsqrtGrad", "ReciprocalGrad"]:
        out[name] = dict(y=g, dy=f)
    for name in ["Relu", "Relu6", "Elu", "Selu", "Softplus", "Softsign", "LeakyRelu"]:
        out[name] = dict(features=f * 4.0)
    for name in ["ReluGrad", "Relu6Grad", "SoftsignGrad", "LeakyReluGrad"]:
        out[name] = dict(gradients=g, features=f * 4.0)
    out["EluGrad"] = dict(gradients=g, outputs=f)
    out["SeluGrad"] = dict(gradients=g, outputs=f)
    out["Softmax"] = dict(logits=f)
    out["LogSoftmax"] = dict(logits=f)
    out["SoftmaxCrossEntropyWithLogits"] = dict(features=f, labels=tf.nn.softmax(g))
    out["SparseSoftmaxCrossEntropyWithLogits"] = dict(features=f, labels=[2, 0])
    out["BiasAdd"] = dict(value=f, bias=[1.0, 2.0, 3.0])
    out["BiasAddGrad"] = dict(out_backprop=f)
    out["L2Loss"] = dict(t=f)
    out["LRN"] = dict(input=tf.reshape(tf.concat([f, g], 0), [1, 2, 2, 3]), depth_radius=1,
                      bias=1.5, alpha=0.3, beta=0.75)
    out["AddN"] = dict(inputs=[f, g, f])
    out["Complex"] = dict(real=f, imag=g)
    for name in ["Real", "Imag", "Angle", "Conj"]:
        out[name] = dict(input=c)
    out["ComplexAbs"] = dict(x=c)
    out["Cast"] = dict(x=f, DstT=tf.int32)
    out["Identity"] = dict(input=f)
    out["IdentityN"] = dict(input=[f, i])
    out["StopGradient"] = dict(input=f)
    out["PreventGradient"] = dict(input=f, message="no gradient")
    out["CheckNumerics"] = dict(tensor=f, message="bad")
    out["EnsureShape"] = dict(input=f, shape=[2, 3])
    for name in ["Sum", "Prod", "Max", "Min", "Mean", "EuclideanNorm"]:
        out[name] = dict(input=f, axis=1)
    out["All"] = dict(input=b, axis=[0])
    out["Any"] = dict(input=b, axis=0)
    out["ArgMax"] = dict(input=f, dimension=1)
    out["ArgMin"] = dict(input=f, dimension=0)
    for name in ["Cumsum", "Cumprod", "CumulativeLogsumexp"]:
        out[name] = dict(x=f, axis=1)
    out["Shape"] = dict(input=f)
    out["ShapeN"] = dict(input=[f, tf.constant([1.0, 2.0])])
    out["Size"] = dict(input=f)
    out["Rank"] = dict(input=f)
    out["Reshape"] = dict(tensor=f, shape=[3, -1])
    out["ExpandDims"] = dict(input=f, axis=1)
    out["Squeeze"] = dict(input=tf.constant([[[1.0], [2.0]]]))
    out["Transpose"] = dict(x=f, perm=[1, 0])
    out["ConjugateTranspose"] = dict(x=c, perm=[1, 0])
    out["ConcatV2"] = dict(values=[f, g], axis=0)
    out["Pack"] = dict(values=[f, g])
    out["Unpack"] = dict(value=f, num=2)
    out["Split"] = dict(axis=1, value=f, num_split=3)
    out["SplitV"] = dict(value=f, size_splits=[1, 2], axis=1, num_split=2)
    out["Tile"] = dict(input=f, multiples=[2, 1])
    out["Pad"] = dict(input=f, paddings=[[1, 0], [0, 2]])
    out["PadV2"] = dict(input=f, paddings=[[1, 0], [0, 2]], constant_values=9.0)
    out["MirrorPad"] = dict(input=f, paddings=[[1, 1], [1, 0]], mode="REFLECT")
    out["Slice"] = dict(input=f, begin=[0, 1], size=[2, 2])
    out["StridedSlice"] = dict(input=f, begin=[0, 2], end=[2, 0], strides=[1, -1])
    out["ReverseV2"] = dict(tensor=f, axis=[1])
    out["Roll"] = dict(input=f, shift=1, axis=1)
    out["Fill"] = dict(dims=[2, 2], value=7)
    out["Range"] = dict(start=1, limit=10, delta=3)
    out["LinSpace"] = dict(start=0.0, stop=1.0, num=5)
    out["BroadcastTo"] = dict(input=[1.0, 2.0, 3.0], shape=[2, 3])
    out["BroadcastArgs"] = dict(s0=[2, 1], s1=[3])
    out["BroadcastGradientArgs"] = dict(s0=[2, 1], s1=[3])
    out["GatherV2"] = dict(params=f, indices=[2, 0], axis=1)
    out["GatherNd"] = dict(params=f, indices=[[1, 2], [0, 0]])
    out["ScatterNd"] = dict(indices=[[1], [3]], updates=[5.0, 6.0], shape=[5])
    for name in ["TensorScatterAdd", "TensorScatterSub", "TensorScatterMax",
                 "TensorScatterMin", "TensorScatterUpdate"]:
        out[name] = dict(tensor=f, indices=[[0, 1], [1, 2]], updates=[10.0, -10.0])
    out["OneHot"] = dict(indices=[0, 2, 1], depth=3, on_value=5.0, off_value=-1.0)
    out["Where"] = dict(condition=b)
    out["Select"] = dict(condition=b, x=f, y=g)
    out["SelectV2"] = dict(condition=[True, False, True], t=f, e=g)
    out["Unique"] = dict(x=[3, 3, 1, 2, 1])
    out["UniqueWithCounts"] = dict(x=[3, 3, 1, 2, 1])
    out["TopKV2"] = dict(input=f, k=2)
    out["InTopKV2"] = dict(predictions=f, targets=[1, 1], k=1)
    out["InvertPermutation"] = dict(x=[2, 0, 1])
    out["LowerBound"] = dict(sorted_inputs=[[1, 3, 5], [2, 4, 6]], values=[[3, 6], [1, 5]])
    out["UpperBound"] = dict(sorted_inputs=[[1, 3, 5], [2, 4, 6]], values=[[3, 6], [1, 5]])
    out["Bucketize"] = dict(input=[[-1.0, 0.5, 1.0], [2.0, 7.5, float("nan")]],
                            boundaries=[0, 1.0, 5.5])
    for name in ["SegmentSum", "SegmentMax", "SegmentMin", "SegmentProd", "SegmentMean"]:
        out[name] = dict(data=f, segment_ids=[0, 0])
    for name in ["UnsortedSegmentSum", "UnsortedSegmentMax", "UnsortedSegmentMin",
                 "UnsortedSegmentProd"]:
        out[name] = dict(data=f, segment_ids=[1, 0], num_segments=3)
    out["DynamicPartition"] = dict(data=[10, 20, 30, 40], partitions=[1, 0, 1, 1],
                                   num_partitions=2)
    out["DynamicStitch"] = dict(indices=[[0, 2], [1]], data=[[1.0, 3.0], [2.0]])
    out["HistogramFixedWidth"] = dict(values=[0.1, 0.5, 0.9, 2.0], value_range=[0.0, 1.0],
                                      nbins=4)
    out["DenseBincount"] = dict(input=[1, 1, 3], size=4, weights=tf.constant([], tf.int32))
    out["MatMul"] = dict(a=f, b=tf.transpose(g))
    out["BatchMatMulV2"] = dict(x=f, y=tf.transpose(g))
    out["BatchMatMulV3"] = dict(x=f, y=tf.transpose(g), Tout=tf.float32)
    out["Einsum"] = dict(inputs=[f, g], equation="ij,ij->i")
    out["Cross"] = dict(a=f, b=g)
    out["Diag"] = dict(diagonal=[1, 2])
    out["DiagPart"] = dict(input=square)
    out["MatrixBandPart"] = dict(input=square, num_lower=0, num_upper=-1)
    out["MatrixDiagV3"] = dict(diagonal=[1.0, 2.0], k=0, num_rows=-1, num_cols=-1,
                               padding_value=0.0)
    out["MatrixDiagPartV3"] = dict(input=square, k=0, padding_value=0.0)
    out["MatrixSetDiagV3"] = dict(input=square, diagonal=[7.0, 8.0], k=0)
    out["MatrixDeterminant"] = dict(input=square)
    out["LogMatrixDeterminant"] = dict(input=square)
    out["MatrixInverse"] = dict(input=square)
    out["Cholesky"] = dict(input=square)
    out["MatrixSolve"] = dict(matrix=square, rhs=[[1.0], [2.0]])
    out["MatrixTriangularSolve"] = dict(matrix=square, rhs=[[1.0], [2.0]])
    out["Qr"] = dict(input=square)
    out["FFT"] = dict(input=c)
    out["IFFT"] = dict(input=c)
    out["FFT2D"] = dict(input=c)
    out["RFFT"] = dict(input=f, fft_length=[2])
    out["IRFFT"] = dict(input=c, fft_length=[4])
    out["Conv2D"] = dict(input=image, filter=tf.ones([2, 2, 3, 2]), strides=[1, 1, 1, 1],
                         padding="VALID")
    out["DepthwiseConv2dNative"] = dict(input=image, filter=tf.ones([2, 2, 3, 1]),
                                        strides=[1, 1, 1, 1], padding="SAME")
    out["MaxPool"] = dict(input=image, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1],
                          padding="VALID")
    out["AvgPool"] = dict(value=image, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1],
                          padding="SAME")
    out["MaxPoolWithArgmax"] = dict(input=image, ksize=[1, 3, 3, 1], strides=[1, 2, 2, 1],
                                    padding="SAME")
    out["FusedBatchNormV3"] = dict(x=image, scale=[1.0, 2.0, 3.0], offset=[0.0, 0.5, 1.0],
                                   mean=tf.constant([], tf.float32),
                                   variance=tf.constant([], tf.float32))
    out["ResizeBilinear"] = dict(images=image, size=[3, 5])
    out["ResizeNearestNeighbor"] = dict(images=image, size=[3, 5])
    out["ResizeBicubic"] = dict(images=image, size=[3, 5])
    out["ResizeArea"] = dict(images=image, size=[3, 5])
    out["RGBToHSV"] = dict(images=image)
    out["HSVToRGB"] = dict(images=image)
    out["AdjustContrastv2"] = dict(images=image, contrast_factor=2.0)
    out["AdjustSaturation"] = dict(images=image, scale=0.5)
    out["AdjustHue"] = dict(images=image, delta=0.1)
    out["CropAndResize"] = dict(image=image, boxes=[[0.0, 0.0, 0.5, 1.0]], box_ind=[0],
                                crop_size=[2, 2])
    out["ExtractImagePatches"] = dict(images=image, ksizes=[1, 2, 2, 1],
                                      strides=[1, 2, 2, 1], rates=[1, 1, 1, 1],
                                      padding="VALID")
    boxes = [[0.0, 0.0, 1.0, 1.0], [0.0, 0.1, 1.0, 1.1], [0.0, 2.0, 1.0, 3.0]]
    out["NonMaxSuppressionV3"] = dict(boxes=boxes, scores=[0.9, 0.8, 0.7],
                                      max_output_size=3, iou_threshold=0.5,
                                      score_threshold=0.0)
    out["NonMaxSuppressionV4"] = dict(boxes=boxes, scores=[0.9, 0.8, 0.7],
                                      max_output_size=3, iou_threshold=0.5,
                                      score_threshold=0.0)
    out["StringLength"] = dict(input=s)
    out["StringUpper"] = dict(input=s)
    out["StringLower"] = dict(input=s)
    out["StringStrip"] = dict(input=s)
    out["StringJoin"] = dict(inputs=[s, s], separator="-")
    out["StringSplitV2"] = dict(input=s, sep=" ")
    out["Substr"] = dict(input=s, pos=1, len=3)
    out["StringToHashBucket"] = dict(string_tensor=s, num_buckets=7)
    out["StringNGrams"] = dict(data=["a", "b", "c", "d"], data_splits=[0, 3, 4], separator="+",
                               ngram_widths=[2], left_pad="", right_pad="", pad_width=0,
                               preserve_short_sequences=False)
    out["UnicodeEncode"] = dict(input_values=[72, 105, 233], input_splits=[0, 2, 3],
                                output_encoding="UTF-8")
    out["UnsortedSegmentJoin"] = dict(inputs=["a", "b", "c"], segment_ids=[1, 0, 1],
                                      num_segments=2, separator="-")
    out["RaggedTensorToTensor"] = dict(shape=[-1, -1], values=[1.0, 2.0, 3.0],
                                       default_value=0.0, row_partition_tensors=[[0, 2, 2, 3]],
                                       row_partition_types=["ROW_SPLITS"])
    out["RaggedGather"] = dict(params_nested_splits=[[0, 2, 2, 3], [0, 1, 3, 6]],
                               params_dense_values=[1, 2, 3, 4, 5, 6], indices=[[2], [0]],
                               OUTPUT_RAGGED_RANK=3)
    out["RaggedRange"] = dict(starts=[0, 5, 2], limits=[3, 5, 8], deltas=[1, 1, 3])
    out["RaggedBincount"] = dict(splits=[0, 3, 3, 4], values=[1, 2, 2, 7], size=5,
                                 weights=[1.0, 2.0, 3.0, 4.0], binary_output=False)
    out["RaggedCountSparseOutput"] = dict(splits=[0, 3, 3, 4], values=[2, 1, 2, 0],
                                          weights=[1.0, 2.0, 3.0, 4.0], binary_output=False,
                                          minlength=4, maxlength=-1)
    out["DenseCountSparseOutput"] = dict(values=[[2, 1, 2], [0, 5, 0]],
                                         weights=[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]],
                                         binary_output=False, minlength=4, maxlength=-1)
    out["SparseBincount"] = dict(indices=[[0, 1], [0, 3], [2, 0], [2, 2]], values=[2, 1, 7, 2],
                                 dense_shape=[3, 4], size=4, weights=[1.0, 2.0, 3.0, 4.0],
                                 binary_output=False)
    out["SparseCountSparseOutput"] = dict(indices=[[0, 1], [0, 3], [2, 0], [2, 2]],
                                          values=[2, 1, 7, 2], dense_shape=[3, 4],
                                          weights=[1.0, 2.0, 3.0, 4.0], binary_output=False,
                                          minlength=-1, maxlength=5)
    out["RaggedCross"] = dict(ragged_values=[tf.constant([1, 2, 3], tf.int64)],
                              ragged_row_splits=[tf.constant([0, 2, 3], tf.int64)],
                              sparse_indices=[], sparse_values=[], sparse_shape=[],
                              dense_inputs=[[["a", "b"], ["c", "d"]]], input_order="RD",
                              hashed_output=False, num_buckets=0, hash_key=956888297470,
                              out_values_type=tf.string, out_row_splits_type=tf.int64)
    out["RaggedTensorToSparse"] = dict(rt_nested_splits=[[0, 2, 3], [0, 1, 1, 3]],
                                       rt_dense_values=[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    out["ExtractGlimpseV2"] = dict(input=image, size=[2, 2], offsets=[[0.0, 0.0]],
                                   centered=True, normalized=True, uniform_noise=False,
                                   noise="zero")
    out["StringToNumber"] = dict(string_tensor=["1.5", "-2"])
    out["AsString"] = dict(input=i)
    out["ReduceJoin"] = dict(inputs=[["a", "b"], ["c", "d"]], reduction_indices=1)
    out["RegexFullMatch"] = dict(input=s, pattern="H.*")
    out["RegexReplace"] = dict(input=s, pattern="o", rewrite="0")
    out["StaticRegexFullMatch"] = dict(input=s, pattern="H.*")
    out["StaticRegexReplace"] = dict(input=s, pattern="o", rewrite="0")
    out["EncodeBase64"] = dict(input=s)
    out["DecodeBase64"] = dict(input=["SGk", "YWJj"])
    out["SparseToDense"] = dict(sparse_indices=[[0, 1], [1, 2]], output_shape=[2, 3],
                                sparse_values=[5, 6], default_value=0)
    out["StatelessRandomUniform"] = dict(shape=[2, 3], seed=[1, 2])
    out["StatelessRandomNormal"] = dict(shape=[2, 3], seed=[1, 2])
    out["StatelessTruncatedNormal"] = dict(shape=[2, 3], seed=[1, 2])
    out["StatelessRandomUniformInt"] = dict(shape=[4], seed=[1, 2], minval=0, maxval=10)
    out["StatelessRandomUniformFullInt"] = dict(shape=[3], seed=[1, 2])
    out["StatelessMultinomial"] = dict(logits=[[0.0, 1.0, 2.0]], num_samples=4, seed=[3, 4])
    out["StatelessRandomBinomial"] = dict(shape=[3], seed=[1, 2], counts=[5.0, 9.0, 2.0],
                                          probs=[0.5, 0.1, 0.9])
    for kind in ("Sum", "Mean", "SqrtN"):
        out[f"SparseSegment{kind}"] = dict(data=f, indices=[1, 0, 1], segment_ids=[0, 0, 2])
        out[f"SparseSegment{kind}WithNumSegments"] = dict(
            data=f, indices=[1, 0, 1], segment_ids=[0, 0, 2], num_segments=4)
    out["SparseTensorDenseMatMul"] = dict(a_indices=[[1, 0], [0, 1], [2, 1]],
                                          a_values=tf.constant([2.0, 3.0, -1.5]),
                                          a_shape=[3, 2], b=tf.transpose(f), adjoint_a=True)
    out["SparseReorder"] = dict(input_indices=tf.constant([[1, 0], [0, 2], [0, 1], [1, 0]],
                                                          tf.int64),
                                input_values=tf.constant([1.0, 2.0, 3.0, 4.0]),
                                input_shape=[2, 3])
    out["SparseReshape"] = dict(input_indices=tf.constant([[0, 1], [1, 2], [2, 0]], tf.int64),
                                input_shape=[3, 4], new_shape=[2, -1])
    out["SparseFillEmptyRows"] = dict(indices=tf.constant([[1, 0], [3, 2], [1, 1]], tf.int64),
                                      values=tf.constant([1.0, 2.0, 3.0]),
                                      dense_shape=[5, 3], default_value=tf.constant(-1.0))
    out["SparseSlice"] = dict(indices=tf.constant([[0, 1], [2, 3], [1, 0], [2, 1], [3, 3]],
                                                  tf.int64),
                              values=tf.constant([1.0, 2.0, 3.0, 4.0, 5.0]), shape=[4, 4],
                              start=[1, 1], size=[2, 5])
    out["SparseSoftmax"] = dict(sp_indices=tf.constant([[0, 0], [0, 2], [1, 1], [2, 0], [2, 1]],
                                                       tf.int64),
                                sp_values=tf.constant([1.0, 2.0, 3.0, -1.0, 0.5]),
                                sp_shape=[3, 3])
    a_sparse = dict(a_indices=tf.constant([[0, 1], [1, 0], [0, 0]], tf.int64),
                    a_values=tf.constant([1.0, 2.0, 3.0]), a_shape=[2, 3],
                    b_indices=tf.constant([[0, 1], [1, 2]], tf.int64),
                    b_values=tf.constant([-1.0, 5.0]), b_shape=[2, 3])
    out["SparseAdd"] = dict(a_sparse, thresh=0.5)
    out["SparseAddGrad"] = dict(backprop_val_grad=tf.constant([10.0, 20.0, 30.0]),
                                a_indices=tf.constant([[0, 1], [1, 0]], tf.int64),
                                b_indices=tf.constant([[0, 1], [1, 2]], tf.int64),
                                sum_indices=tf.constant([[0, 1], [1, 0], [1, 2]], tf.int64))
    out["SparseSparseMaximum"] = a_sparse
    out["SparseSparseMinimum"] = a_sparse
    out["DeserializeSparse"] = dict(serialized_sparse=tf.stack([tf.io.serialize_sparse(
        tf.SparseTensor([[1, 0], [0, 2]], [1.0, 2.0], [2, 3])), tf.io.serialize_sparse(
            tf.SparseTensor([[0, 0]], [3.0], [1, 4]))]), dtype=tf.float32)
    out["QuantizeV2"] = dict(input=tf.constant([-1.0, 0.3, 2.5, 6.0]), min_range=-1.0,
                             max_range=6.0, T=tf.quint8)
    out["Dequantize"] = dict(input=tf.constant([0, 36, 200], tf.quint8), min_range=-1.0,
                             max_range=6.0, mode="MIN_FIRST")
    out["QuantizeAndDequantizeV3"] = dict(
        input=tf.constant([-3.0, -0.55, 0.26, 1.49, 7.0]), input_min=-1.0, input_max=2.2,
        num_bits=4)
    out["QuantizedConcat"] = dict(
        concat_dim=0, values=[tf.constant([[0, 85], [170, 255]], tf.quint8),
                              tf.constant([[0, 255]], tf.quint8)],
        input_mins=[0.0, -1.0], input_maxes=[3.0, 5.0])
    out["SparseTensorDenseAdd"] = dict(
        a_indices=tf.constant([[0, 1], [0, 1], [1, 2]], tf.int64),
        a_values=tf.constant([1.0, 2.0, 3.0]), a_shape=tf.constant([2, 3], tf.int64), b=g)
    crossed = dict(indices=[tf.constant([[0, 0], [1, 0], [1, 1]], tf.int64)],
                   values=[tf.constant(["a", "b", "c"])], shapes=[tf.constant([2, 2], tf.int64)],
                   dense_inputs=[tf.constant([[7], [8]], tf.int64)])
    out["SparseCrossV2"] = dict(crossed, sep="+")
    out["SparseCross"] = dict(crossed, hashed_output=True, num_buckets=100, hash_key=5,
                              out_type=tf.int64, internal_type=tf.int64)
    out["SparseConcat"] = dict(
        indices=[tf.constant([[1, 0], [0, 2], [1, 0]], tf.int64), tf.constant([[0, 0]], tf.int64)],
        values=[tf.constant([1.0, 2.0, 3.0]), tf.constant([4.0])], shapes=[[2, 3], [2, 1]],
        concat_dim=1)
    for name in ("Add", "Mul", "Div"):
        out[f"SparseDenseCwise{name}"] = dict(
            sp_indices=tf.constant([[0, 1], [1, 2], [1, 0]], tf.int64),
            sp_values=tf.constant([2.0, -3.0, 0.5]), sp_shape=[2, 3], dense=g)
    _more(tf, out, f, g, image, s)
    _math_and_array(tf, out, f, g, i)
    return out


def _more(tf, out, f, g, image, s):
    """The samples of ops that take functions, variables, lists or encoded data."""
    scalar = tf.TensorSpec([], tf.float32)
    plus = tf.function(lambda x: x + 1.0).get_concrete_function(scalar)
    minus = tf.function(lambda x: x - 1.0).get_concrete_function(scalar)
    below = tf.function(lambda i, x: i < 3).get_concrete_function(
        tf.TensorSpec([], tf.int32), scalar)
    twice = tf.function(lambda i, x: (i + 1, x * 2.0)).get_concrete_function(
        tf.TensorSpec([], tf.int32), scalar)
    two = tf.constant(2.0)
    for name in ["If", "StatelessIf"]:
        out[name] = dict(cond=False, input=[two], Tout=[tf.float32], then_branch=plus,
                         else_branch=minus)
    for name in ["Case", "StatelessCase"]:
        out[name] = dict(branch_index=0, input=[two], Tout=[tf.float32], branches=[plus, minus])
    for name in ["PartitionedCall", "StatefulPartitionedCall"]:
        out[name] = dict(args=[two], Tout=[tf.float32], f=plus)
    for name in ["While", "StatelessWhile"]:
        out[name] = dict(input=[tf.constant(0), two], cond=below, body=twice)

    def updated(name, slots, **kwargs):
        """An optimizer's update of a variable ``var`` and its `slots`: the values after."""
        def call():
            variables = {k: tf.Variable([1.0, -2.0] if k == "var" else [0.5, 0.25 * i])
                         for i, k in enumerate(slots)}
            result = getattr(tf.raw_ops, name)(
                **{k: v.handle for k, v in variables.items()}, **kwargs)
            return [result, *[v.read_value() for v in variables.values()]]
        return call
    grad = tf.constant([0.1, -0.3])
    out["ResourceApplyGradientDescent"] = updated(
        "ResourceApplyGradientDescent", slots=["var"], alpha=0.5, delta=grad)
    out["ResourceApplyAdam"] = updated(
        "ResourceApplyAdam", slots=["var", "m", "v"], beta1_power=0.9, beta2_power=0.999,
        lr=0.01, beta1=0.9, beta2=0.999, epsilon=1e-7, grad=grad)
    out["ResourceApplyKerasMomentum"] = updated(
        "ResourceApplyKerasMomentum", slots=["var", "accum"], lr=0.1, grad=grad, momentum=0.9)
    out["ResourceApplyRMSProp"] = updated(
        "ResourceApplyRMSProp", slots=["var", "ms", "mom"], lr=0.01, rho=0.9, momentum=0.5,
        epsilon=1e-7, grad=grad)

    def variable_ops():
        v = tf.Variable([1.0, 2.0, 3.0])
        tf.raw_ops.AssignVariableOp(resource=v.handle, value=[4.0, 5.0, 6.0])
        tf.raw_ops.AssignAddVariableOp(resource=v.handle, value=[1.0, 1.0, 1.0])
        tf.raw_ops.AssignSubVariableOp(resource=v.handle, value=[0.5, 0.5, 0.5])
        tf.raw_ops.ResourceStridedSliceAssign(ref=v.handle, begin=[1], end=[3], strides=[1],
                                              value=[9.0, 8.0])
        return [tf.raw_ops.ReadVariableOp(resource=v.handle, dtype=tf.float32),
                tf.raw_ops.ResourceGather(resource=v.handle, indices=[2, 0], dtype=tf.float32)]
    for name in ["AssignVariableOp", "AssignAddVariableOp", "AssignSubVariableOp",
                 "ResourceStridedSliceAssign", "ReadVariableOp", "ResourceGather"]:
        out[name] = variable_ops

    def lists():
        handle = tf.raw_ops.TensorListFromTensor(tensor=f, element_shape=[3])
        handle = tf.raw_ops.TensorListSetItem(input_handle=handle, index=1, item=g[0])
        reserved = tf.raw_ops.TensorListReserve(element_shape=[3], num_elements=2,
                                                element_dtype=tf.float32)
        reserved = tf.raw_ops.TensorListScatterIntoExistingList(
            input_handle=reserved, tensor=g, indices=[1, 0])
        split = tf.raw_ops.TensorListSplit(tensor=[1.0, 2.0, 3.0], element_shape=[-1],
                                           lengths=[1, 2])
        return [tf.raw_ops.TensorListStack(input_handle=handle, element_shape=[3],
                                           element_dtype=tf.float32),
                tf.raw_ops.TensorListLength(input_handle=handle),
                tf.raw_ops.TensorListGetItem(input_handle=handle, index=0, element_shape=[3],
                                             element_dtype=tf.float32),
                tf.raw_ops.TensorListGather(input_handle=reserved, indices=[1, 0],
                                            element_shape=[3], element_dtype=tf.float32),
                tf.raw_ops.TensorListLength(input_handle=tf.raw_ops.TensorListResize(
                    input_handle=handle, size=5)),
                *tf.raw_ops.TensorListConcatV2(input_handle=split, element_shape=[-1],
                                               leading_dims=[], element_dtype=tf.float32)]
    for name in ["TensorListFromTensor", "TensorListSetItem", "TensorListReserve",
                 "TensorListScatterIntoExistingList", "TensorListSplit", "TensorListStack",
                 "TensorListLength", "TensorListGetItem", "TensorListGather",
                 "TensorListResize", "TensorListConcatV2"]:
        out[name] = lists

    def pushed_and_popped():
        handle = tf.raw_ops.EmptyTensorList(element_shape=[3], max_num_elements=-1,
                                            element_dtype=tf.float32)
        handle = tf.raw_ops.TensorListPushBack(input_handle=handle, tensor=g[0])
        handle = tf.raw_ops.TensorListPushBack(input_handle=handle, tensor=g[1])
        rest, last = tf.raw_ops.TensorListPopBack(input_handle=handle, element_shape=[3],
                                                  element_dtype=tf.float32)
        return [last, tf.raw_ops.TensorListLength(input_handle=rest),
                tf.raw_ops.TensorListStack(input_handle=rest, element_shape=[3],
                                           element_dtype=tf.float32)]
    for name in ["EmptyTensorList", "TensorListPushBack", "TensorListPopBack"]:
        out[name] = pushed_and_popped

    volume = tf.reshape(tf.range(32, dtype=tf.float32), [1, 2, 4, 4, 1])
    pool = dict(ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="VALID")
    pooled = tf.nn.max_pool2d(image, 2, 2, "VALID")
    out["MaxPoolGrad"] = dict(orig_input=image, orig_output=pooled, grad=pooled, **pool)
    out["MaxPoolGradGrad"] = dict(orig_input=image, orig_output=pooled, grad=image, **pool)
    out["AvgPoolGrad"] = dict(orig_input_shape=[1, 4, 4, 3], grad=pooled, **pool)
    pool3 = dict(ksize=[1, 1, 2, 2, 1], strides=[1, 1, 2, 2, 1], padding="VALID")
    out["MaxPool3D"] = dict(input=volume, **pool3)
    out["AvgPool3D"] = dict(input=volume, **pool3)
    out["Conv3D"] = dict(input=volume, filter=tf.ones([1, 2, 2, 1, 2]),
                         strides=[1, 1, 1, 1, 1], padding="VALID")
    out["Conv2DBackpropInput"] = dict(input_sizes=[1, 4, 4, 3], filter=tf.ones([2, 2, 3, 2]),
                                      out_backprop=tf.ones([1, 3, 3, 2]),
                                      strides=[1, 1, 1, 1], padding="VALID")
    out["Conv2DBackpropFilter"] = dict(input=image, filter_sizes=[2, 2, 3, 2],
                                       out_backprop=tf.ones([1, 3, 3, 2]),
                                       strides=[1, 1, 1, 1], padding="VALID")
    out["FFT3D"] = dict(input=tf.complex(volume[0], volume[0]))
    out["RFFT2D"] = dict(input=f, fft_length=[2, 2])
    out["IRFFT2D"] = dict(input=tf.complex(f, g), fft_length=[2, 4])
    out["IFFT2D"] = dict(input=tf.complex(f, g))
    out["ResizeBilinearGrad"] = dict(grads=tf.ones([1, 3, 5, 3]), original_image=image)
    out["ResizeNearestNeighborGrad"] = dict(grads=tf.ones([1, 3, 5, 3]), size=[4, 4])
    out["ScaleAndTranslate"] = dict(images=image, size=[3, 5], scale=[0.75, 1.25],
                                    translation=[0.0, 0.0])
    out["StridedSliceGrad"] = dict(shape=[2, 3], begin=[0, 1], end=[2, 3], strides=[1, 1],
                                   dy=[[1.0, 2.0], [3.0, 4.0]])
    out["FusedBatchNormGradV3"] = lambda: list(tf.raw_ops.FusedBatchNormGradV3(  # (TF's
        y_backprop=image, x=image, scale=[1.0, 2.0, 3.0], reserve_space_1=[0.4, 0.5, 0.6],
        reserve_space_2=[1.0, 2.0, 0.5], reserve_space_3=tf.constant([], tf.float32))[:3])
    # reserve spaces 4 and 5 are of no set shape)
    out["EncodePng"] = lambda: [tf.raw_ops.DecodePng(contents=tf.raw_ops.EncodePng(
        image=tf.cast(image[0] * 255.0, tf.uint8)))]
    out["DecodePng"] = out["EncodePng"]
    out["DecodeImage"] = lambda: [tf.raw_ops.DecodeImage(contents=tf.raw_ops.EncodePng(
        image=tf.cast(image[0] * 255.0, tf.uint8)), expand_animations=False)]
    out["ExtractJpegShape"] = lambda: [tf.raw_ops.ExtractJpegShape(
        contents=tf.raw_ops.EncodeJpeg(image=tf.cast(image[0] * 255.0, tf.uint8)))]
    out["EncodeJpeg"] = out["ExtractJpegShape"]
    out["DecodeRaw"] = dict(bytes=["abcd"], out_type=tf.int16)
    out["DecodePaddedRaw"] = dict(input_bytes=["abc"], fixed_length=4, out_type=tf.uint8)
    out["DecodeCSV"] = dict(records=["1,x", "2,y"], record_defaults=[[0], ["?"]])
    out["SerializeTensor"] = lambda: [tf.raw_ops.ParseTensor(
        serialized=tf.raw_ops.SerializeTensor(tensor=f), out_type=tf.float32)]
    out["ParseTensor"] = out["SerializeTensor"]
    out["StatelessRandomGammaV2"] = dict(shape=[3], seed=[1, 2], alpha=[1.0, 2.0, 3.0])
    out["StatelessRandomPoisson"] = dict(shape=[3], seed=[1, 2], lam=[1.0, 5.0, 9.0],
                                         dtype=tf.int32)
    out["StatelessParameterizedTruncatedNormal"] = dict(
        shape=[3], seed=[1, 2], means=0.0, stddevs=1.0, minvals=-1.0, maxvals=1.0)
    out["RandomIndexShuffle"] = dict(index=[0, 1, 2], seed=[1, 2, 3], max_index=9)
    out["RandomGammaGrad"] = dict(alpha=[1.0, 2.0], sample=[0.5, 1.5])
    out["NonMaxSuppressionV5"] = dict(
        boxes=[[0.0, 0.0, 1.0, 1.0], [0.0, 0.1, 1.0, 1.1], [0.0, 2.0, 1.0, 3.0]],
        scores=[0.9, 0.8, 0.7], max_output_size=3, iou_threshold=0.5, score_threshold=0.0,
        soft_nms_sigma=0.0)
    out["NonMaxSuppressionWithOverlaps"] = dict(
        overlaps=[[1.0, 0.8, 0.0], [0.8, 1.0, 0.1], [0.0, 0.1, 1.0]], scores=[0.9, 0.8, 0.7],
        max_output_size=3, overlap_threshold=0.5, score_threshold=0.0)
    out["CombinedNonMaxSuppression"] = dict(
        boxes=[[[[0.0, 0.0, 1.0, 1.0]], [[0.0, 0.1, 1.0, 1.1]], [[0.0, 2.0, 1.0, 3.0]]]],
        scores=[[[0.9], [0.8], [0.7]]], max_output_size_per_class=3, max_total_size=3,
        iou_threshold=0.5, score_threshold=0.0)
    out["DrawBoundingBoxesV2"] = dict(images=image, boxes=[[[0.0, 0.0, 0.5, 0.5]]],
                                      colors=[[1.0, 0.0, 0.0, 1.0]])
    example = tf.train.Example(features=tf.train.Features(feature={
        "a": tf.train.Feature(float_list=tf.train.FloatList(value=[1.5, 2.5])),
        "s": tf.train.Feature(int64_list=tf.train.Int64List(value=[7, 8, 9]))}))
    out["ParseExampleV2"] = dict(
        serialized=[example.SerializeToString()] * 2, names=[], sparse_keys=["s"],
        dense_keys=["a"], ragged_keys=[], dense_defaults=[tf.constant([0.0, 0.0])],
        num_sparse=1, sparse_types=[tf.int64], ragged_value_types=[], ragged_split_types=[],
        dense_shapes=[[2]])
    out["Assert"] = dict(condition=True, data=[s])
    out["SelfAdjointEigV2"] = lambda: [tf.raw_ops.SelfAdjointEigV2(
        input=[[4.0, 1.0], [1.0, 3.0]], compute_v=False).e]
    seeds = dict(seed=1, seed2=2)

    def twice(name, **kwargs):  # (a seeded op's second call continues its stream)
        return lambda: [getattr(tf.raw_ops, name)(**kwargs, **seeds) for _ in range(2)]
    out["RandomUniform"] = twice("RandomUniform", shape=[3], dtype=tf.float32)
    out["RandomStandardNormal"] = twice("RandomStandardNormal", shape=[3], dtype=tf.float64)
    out["TruncatedNormal"] = twice("TruncatedNormal", shape=[3], dtype=tf.float32)
    out["RandomUniformInt"] = twice("RandomUniformInt", shape=[4], minval=0, maxval=100)
    out["RandomShuffle"] = twice("RandomShuffle", value=[1, 2, 3, 4, 5])
    out["Multinomial"] = twice("Multinomial", logits=[[0.0, 1.0, 2.0]], num_samples=5)
    out["RandomGamma"] = twice("RandomGamma", shape=[3], alpha=[1.0, 2.0])
    out["RandomPoissonV2"] = twice("RandomPoissonV2", shape=[3], rate=[1.0, 4.0])
    out["StringFormat"] = dict(inputs=[f], template="v: %s")
    out["PrintV2"] = dict(input="printed by a raw op")
    out["DecodeCompressed"] = dict(bytes=[zlib.compress(b"hello raw ops")],
                                   compression_type="ZLIB")
    out["EncodeWav"] = dict(audio=tf.constant([[0.5], [-0.25]]), sample_rate=tf.constant(8000))
    out["DecodeJpeg"] = lambda: [tf.raw_ops.DecodeJpeg(contents=tf.raw_ops.EncodeJpeg(
        image=tf.zeros([2, 2, 3], tf.uint8)))]
    out["EncodeJpegVariableQuality"] = lambda: [tf.raw_ops.ExtractJpegShape(
        contents=tf.raw_ops.EncodeJpegVariableQuality(
            images=tf.cast(image[0] * 255.0, tf.uint8), quality=50))]
    out["IFFT3D"] = dict(input=tf.complex(volume[0], volume[0]))
    out["RFFT3D"] = dict(input=volume[0, :, :, :, 0], fft_length=[2, 2, 2])
    out["IRFFT3D"] = dict(input=tf.complex(volume[0, :, :, :3, 0], volume[0, :, :, :3, 0]),
                          fft_length=[2, 4, 4])
    out["MaxPool3DGrad"] = dict(orig_input=volume, orig_output=tf.nn.max_pool3d(
        volume, [1, 2, 2], [1, 2, 2], "VALID"), grad=tf.ones([1, 2, 2, 2, 1]), **pool3)
    out["AvgPool3DGrad"] = dict(orig_input_shape=[1, 2, 4, 4, 1], grad=tf.ones([1, 2, 2, 2, 1]),
                                **pool3)
    out["Conv3DBackpropInputV2"] = dict(
        input_sizes=[1, 2, 4, 4, 1], filter=tf.ones([1, 2, 2, 1, 2]),
        out_backprop=tf.ones([1, 2, 3, 3, 2]), strides=[1, 1, 1, 1, 1], padding="VALID")
    out["Conv3DBackpropFilterV2"] = dict(
        input=volume, filter_sizes=[1, 2, 2, 1, 2], out_backprop=tf.ones([1, 2, 3, 3, 2]),
        strides=[1, 1, 1, 1, 1], padding="VALID")
    crop = dict(boxes=[[0.0, 0.0, 0.5, 1.0]], box_ind=[0])
    out["CropAndResizeGradImage"] = dict(grads=tf.ones([1, 2, 2, 3]), image_size=[1, 4, 4, 3],
                                         T=tf.float32, **crop)
    out["CropAndResizeGradBoxes"] = dict(grads=tf.ones([1, 2, 2, 3]), image=image, **crop)
    out["ResizeBicubicGrad"] = dict(grads=tf.ones([1, 3, 5, 3]), original_image=image)
    out["ScaleAndTranslateGrad"] = dict(grads=tf.ones([1, 3, 5, 3]), original_image=image,
                                        scale=[0.75, 1.25], translation=[0.0, 0.0])
    out["ResourceApplyAdaMax"] = updated(
        "ResourceApplyAdaMax", slots=["var", "m", "v"], beta1_power=0.9, lr=0.01, beta1=0.9,
        beta2=0.999, epsilon=1e-7, grad=grad)
    out["ResourceApplyAdadelta"] = updated(
        "ResourceApplyAdadelta", slots=["var", "accum", "accum_update"], lr=1.0, rho=0.95,
        epsilon=1e-7, grad=grad)
    out["ResourceApplyAdamWithAmsgrad"] = updated(
        "ResourceApplyAdamWithAmsgrad", slots=["var", "m", "v", "vhat"], beta1_power=0.9,
        beta2_power=0.999, lr=0.01, beta1=0.9, beta2=0.999, epsilon=1e-7, grad=grad)
    out["ResourceApplyCenteredRMSProp"] = updated(
        "ResourceApplyCenteredRMSProp", slots=["var", "mg", "ms", "mom"], lr=0.01, rho=0.9,
        momentum=0.5, epsilon=1e-7, grad=grad)
    out["ResourceApplyFtrlV2"] = updated(
        "ResourceApplyFtrlV2", slots=["var", "accum", "linear"], grad=grad, lr=0.1, l1=0.01,
        l2=0.01, l2_shrinkage=0.0, lr_power=-0.5)

    def files():
        path = os.path.join(tempfile.mkdtemp(), "raw.txt")
        tf.raw_ops.WriteFile(filename=path, contents="contents")
        found = tf.raw_ops.MatchingFiles(pattern=os.path.join(os.path.dirname(path), "*.txt"))
        return [tf.raw_ops.ReadFile(filename=path), tf.strings.regex_replace(found, ".*/", "")]
    for name in ["WriteFile", "ReadFile", "MatchingFiles"]:
        out[name] = files
    out["Svd"] = lambda: [tf.raw_ops.Svd(input=[[4.0, 1.0], [1.0, 3.0]], compute_uv=False).s]


def _math_and_array(tf, out, f, g, i):
    """Math and array ops that graphs and raw op calls use by TF's name alone."""
    out["Mod"] = dict(x=i, y=tf.constant([[2, 3, -3], [7, 2, 3]]))
    out["Inv"] = dict(x=g)
    out["InvGrad"] = dict(y=g, dy=f)
    out["ApproximateEqual"] = dict(x=f, y=f + tf.constant([[1e-6, 0.0, 1e-3], [0.0, 1.0, 0.0]]))
    out["ClipByValue"] = dict(t=f, clip_value_min=-0.5, clip_value_max=g * 0.5)
    blocks = tf.reshape(tf.range(32, dtype=tf.float32), [1, 2, 2, 8])
    out["DepthToSpace"] = dict(input=blocks * blocks, block_size=2)
    out["SpaceToDepth"] = dict(input=tf.reshape(blocks * blocks, [1, 4, 4, 2]), block_size=2)
    # ops called with only what TF requires: the attrs at TF's defaults
    out["NthElement"] = dict(input=f, n=1)
    out["Lu"] = dict(input=[[1.0, 2.0], [3.0, 4.0]])
    out["Eig"] = dict(input=[[1.0, 2.0], [3.0, 4.0]], Tout=tf.complex64)
    out["TridiagonalSolve"] = dict(diagonals=[[2.0, 1.0, 0.0], [4.0, 5.0, 6.0], [0.0, 1.0, 2.0]],
                                   rhs=[[1.0], [2.0], [3.0]])
    out["UniqueV2"] = dict(x=[[1, 2], [1, 2], [3, 4]], axis=[0])
    out["UniqueWithCountsV2"] = dict(x=[3, 1, 3, 2], axis=[0])
    out["CTCGreedyDecoder"] = dict(
        inputs=tf.constant([[[0.1, 0.8, 0.1]], [[0.1, 0.8, 0.1]], [[0.7, 0.2, 0.1]]]),
        sequence_length=[3])
    out["SobolSample"] = dict(dim=2, num_results=3, skip=1)
    out["IsotonicRegression"] = dict(input=f)
    out["ApproxTopK"] = dict(input=f, k=2)
    out["ImageProjectiveTransformV3"] = dict(
        images=tf.reshape(tf.range(16, dtype=tf.float32), [1, 4, 4, 1]),
        transforms=[[1.0, 0.0, 1.0, 0.0, 1.0, 0.5, 0.0, 0.0]], output_shape=[4, 4],
        fill_value=0.0, interpolation="BILINEAR")
    out["StatelessRandomNormalV2"] = dict(shape=[3], key=[5], counter=[1, 2], alg=1)
    out["StatelessRandomUniformV2"] = dict(shape=[3], key=[5], counter=[1, 2], alg=1)
    out["StatelessTruncatedNormalV2"] = dict(shape=[3], key=[5], counter=[1, 2], alg=1)
    out["UnicodeTranscode"] = dict(input=["h\xe9llo", "\xff"], input_encoding="UTF-8",
                                   output_encoding="UTF-16-BE")
    out["UnicodeDecode"] = dict(input=["h\xe9", "ab"], input_encoding="UTF-8")
    out["AudioSpectrogram"] = dict(input=tf.reshape(tf.sin(tf.range(32.0)), [32, 1]),
                                   window_size=8, stride=4)
    out["DenseToDenseSetOperation"] = dict(set1=[[1, 2, 3]], set2=[[2, 3, 4]],
                                           set_operation="a-b")
    out["CTCBeamSearchDecoder"] = dict(
        inputs=tf.constant([[[0.1, 0.8, 0.1]], [[0.1, 0.8, 0.1]], [[0.7, 0.2, 0.1]]]),
        sequence_length=[3], beam_width=3, top_paths=2)
    out["UnsortedSegmentJoin"] = dict(inputs=["a", "b", "c"], segment_ids=[0, 1, 0],
                                      num_segments=2)
    out["BatchMatMul"] = dict(x=tf.reshape(f, [2, 1, 3]), y=tf.reshape(g, [2, 3, 1]))
    out["MatrixDiag"] = dict(diagonal=f)
    out["MatrixDiagPart"] = dict(input=tf.reshape(tf.concat([f, g], 0), [2, 2, 3]))
    out["MatrixSetDiag"] = dict(input=tf.reshape(tf.concat([f, g], 0), [2, 3, 2]),
                                diagonal=tf.constant([[7.0, 8.0], [9.0, 10.0]]))
    out["ReverseSequence"] = dict(input=tf.reshape(tf.concat([f, g], 0), [2, 2, 3]),
                                  seq_lengths=[3, 2], seq_dim=2)
    out["UnravelIndex"] = dict(indices=[1, 5, 7, -1], dims=[2, 4])
    out["Bincount"] = dict(arr=[[1, 1], [3, 7]], size=5, weights=[])
    out["MatrixDiagV2"] = dict(diagonal=f, k=[-1, 0], num_rows=-1, num_cols=-1,
                               padding_value=0.0)
    out["MatrixDiagPartV2"] = dict(input=tf.reshape(tf.range(12.0), [3, 4]), k=[-1, 1],
                                   padding_value=9.0)
    out["MatrixSetDiagV2"] = dict(input=tf.reshape(tf.range(12.0), [3, 4]), diagonal=f, k=[0, 1])
    out["InTopK"] = dict(predictions=f, targets=[2, 0], k=2)
    out["MaxPool3DGradGrad"] = dict(
        orig_input=tf.reshape(tf.range(8.0), [1, 2, 2, 2, 1]),
        orig_output=tf.constant([[[[[7.0]]]]]), grad=tf.reshape(tf.range(8.0), [1, 2, 2, 2, 1]),
        ksize=[1, 2, 2, 2, 1], strides=[1, 2, 2, 2, 1], padding="VALID")


def gradients(tf, name, kwargs):
    """The gradient of the sum of a sample's float outputs with respect to each of its float
    tensor arguments (by argument name), or None when it has none."""
    sources = {k: v for k, v in kwargs.items()
               if tf.is_tensor(v) and v.dtype.is_floating and v.dtype != tf.bfloat16}
    if not sources:
        return None
    with tf.GradientTape() as tape:
        for v in sources.values():
            tape.watch(v)
        out = getattr(tf.raw_ops, name)(**kwargs)
        floats = [tf.reduce_sum(t) for t in tf.nest.flatten(out)
                  if t is not None and t.dtype.is_floating]
        if not floats:
            return None
        total = tf.add_n(floats)
    grads = tape.gradient(total, list(sources.values()))
    return dict(zip(sources, grads))

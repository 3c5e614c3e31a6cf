"""Sample calls of ``tf.raw_ops``, one per op, for TF (data/make_raw_ops_data.py) and for
eagerflow (test_raw_ops.py) alike: op name -> keyword arguments. Each passes only what
TF requires, so that the attrs' defaults are TF's."""


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
                 "BitwiseOr", "BitwiseXor"]:
        out[name] = dict(x=i, y=tf.constant([[2, 3, -3], [7, 2, 3]]))
    out["LeftShift"] = dict(x=u, y=tf.constant([[1, 2, 0], [3, 1, 2]]))
    out["RightShift"] = dict(x=u * 8, y=tf.constant([[1, 2, 0], [3, 1, 2]]))
    out["Invert"] = dict(x=i)
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
    out["AddN"] = dict(inputs=[f, g, f])
    out["Complex"] = dict(real=f, imag=g)
    for name in ["Real", "Imag", "Angle", "Conj"]:
        out[name] = dict(input=c)
    out["ComplexAbs"] = dict(x=c)
    out["Cast"] = dict(x=f, DstT=tf.int32)
    out["Identity"] = dict(input=f)
    out["IdentityN"] = dict(input=[f, i])
    out["StopGradient"] = dict(input=f)
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
    return out

"""Cases for linalg, nn, bitwise, strings, signal, stateless random and assertion ops.

Rows have the layout of cases_array.ROWS: (namespaces, op name, argument set
name, args, kwargs, grad).
"""
from .harness import T
from .inputs import Py

TOP, MATH, LIN, NN, BIT, STR, SIG, RND = [""], ["math"], ["linalg"], ["nn"], ["bitwise"], ["strings"], ["signal"], ["random"]
G, N = True, False

ROWS = []

# Square-matrix ops: one table of inputs, applied to each.
_SQUARE = [
    ("m33", ["m33"], G), ("spd", ["spd33"], G), ("f64", ["spd33d"], G), ("batch", ["bm233"], G),
    ("singular", ["sing33"], N), ("nonfinite", ["m33nf"], N), ("empty", ["m00"], N),
    ("empty_batch", ["m033"], N), ("nonsquare", ["m23"], N), ("vector", ["v3"], N),
    ("int32", [Py([[1, 2], [3, 4]])], N), ("pylist", [Py([[2.0, 1.0], [1.0, 3.0]])], N),
]
# (op, differentiable): eigenvector/singular-vector signs are not unique, so
# ops returning them are compared on values only where signs are fixed by
# convention in both libraries (qr), and not differentiated.
for _op, _g in [("det", G), ("inv", G), ("cholesky", G), ("logdet", G), ("slogdet", G),
                ("pinv", G), ("eigvalsh", G), ("matrix_rank", N), ("trace", G), ("adjoint", G),
                ("matrix_transpose", G), ("diag_part", G), ("tensor_diag_part", G), ("qr", N),
                ("svd", N), ("eigh", N)]:
    for _set, _args, _gg in _SQUARE:
        ROWS.append((LIN, _op, _set, _args, {}, _g and _gg and _op not in ("cholesky", "logdet") or
                     (_g and _set in ("spd", "f64"))))
ROWS += [
    (LIN, "svd", "values_only", ["m33"], {"compute_uv": False}, G),
    (LIN, "svd", "values_rect", ["m23"], {"compute_uv": False}, G),
    (LIN, "qr", "full", ["m32"], {"full_matrices": True}, N),
    (TOP, "matmul", "f32", ["m23", "m32"], {}, G),
    (TOP, "matmul", "transpose", ["m23", "m23"], {"transpose_b": True}, G),
    (TOP, "matmul", "batch_bcast", ["bm233", "m33"], {}, G),
    (TOP, "matmul", "bad_inner", ["m23", "m23"], {}, N),
    (TOP, "matmul", "vector", ["v3", "m33"], {}, N),
    (TOP, "matmul", "mixed", ["m23", Py([[1, 2], [3, 4], [5, 6]])], {}, N),
    (TOP, "matmul", "int32", [Py([[1, 2]]), Py([[3], [4]])], {}, N),
    (TOP, "matmul", "int32_overflow", [Py([[2**30, 2**30]]), Py([[2], [2]])], {}, N),
    (TOP, "matmul", "empty", ["f32e3", "f32e03"], {}, G),
    (TOP, "matmul", "empty_inner", ["f32e3", "f32e03"], {"transpose_a": True, "transpose_b": True}, N),
    (TOP, "matmul", "nonfinite", ["m33nf", "m33"], {}, N),
    (TOP, "matmul", "f64", ["spd33d", "spd33d"], {}, G),
    (TOP, "matmul", "f16", [Py([[1.0, 2.0]]), Py([[3.0], [4.0]])], {}, N),
    (TOP, "matmul", "adjoint", ["m33", "m33"], {"adjoint_a": True}, G),
    (LIN, "matmul", "f32", ["m23", "m32"], {}, G),
    (LIN, "matvec", "f32", ["m23", "v3"], {}, G),
    (LIN, "matvec", "bad", ["m23", "f32two"], {}, N),
    (LIN, "matvec", "transpose", ["m23", "f32two"], {"transpose_a": True}, G),
    (LIN, "solve", "f32", ["m33", "m31"], {}, G),
    (LIN, "solve", "singular", ["sing33", "m31"], {}, N),
    (LIN, "solve", "bad_shape", ["m33", "m23"], {}, N),
    (LIN, "solve", "nonfinite", ["m33nf", "m31"], {}, N),
    (LIN, "solve", "adjoint", ["m33", "m31"], {"adjoint": True}, G),
    (LIN, "solve", "empty", ["m00", Py([[]])], {}, N),
    (LIN, "cholesky_solve", "f32", ["spd33", "m31"], {}, G),
    (LIN, "cholesky_solve", "bad", ["spd33", "m23"], {}, N),
    (LIN, "triangular_solve", "lower", ["m33", "m31"], {}, G),
    (LIN, "triangular_solve", "upper", ["m33", "m31"], {"lower": False}, G),
    (LIN, "triangular_solve", "singular", [Py([[0.0, 0.0], [1.0, 1.0]]), Py([[1.0], [1.0]])], {}, N),
    (LIN, "triangular_solve", "bad", ["m33", "m23"], {}, N),
    (LIN, "lstsq", "f32", ["m32", Py([[1.0], [2.0], [3.0]])], {}, G),
    (LIN, "lstsq", "l2", ["m32", Py([[1.0], [2.0], [3.0]])], {"l2_regularizer": 0.5}, G),
    (LIN, "lstsq", "bad", ["m32", "m23"], {}, N),
    (LIN, "cross", "f32", ["v3", "v3b"], {}, G),
    (LIN, "cross", "bad", ["f32", "f32"], {}, N),
    (LIN, "cross", "batch", [Py([[1.0, 0.0, 0.0]]), Py([[0.0, 1.0, 0.0]])], {}, G),
    (LIN, "band_part", "f32", ["m33", Py(1), Py(0)], {}, G),
    (LIN, "band_part", "all", ["m33", Py(-1), Py(-1)], {}, G),
    (LIN, "band_part", "too_big", ["m33", Py(5), Py(5)], {}, N),
    (LIN, "band_part", "vector", ["v3", Py(0), Py(0)], {}, N),
    (LIN, "diag", "f32", ["v3"], {}, G),
    (LIN, "diag", "k", ["v3"], {"k": 1}, G),
    (LIN, "diag", "rect", ["v3"], {"num_rows": 4, "num_cols": 3}, N),
    (LIN, "diag", "scalar", ["f32s"], {}, N),
    (LIN, "diag", "bad_rows", ["v3"], {"num_rows": 2}, N),
    (LIN, "diag", "empty", ["f32e0"], {}, N),
    (LIN, "tensor_diag", "f32", ["v3"], {}, G),
    (LIN, "tensor_diag", "rank2", ["m22"], {}, G),
    (LIN, "tensor_diag", "scalar", ["f32s"], {}, N),
    (LIN, "set_diag", "f32", ["m33", "v3"], {}, G),
    (LIN, "set_diag", "bad", ["m33", "f32two"], {}, N),
    (LIN, "set_diag", "k", ["m33", "f32two"], {"k": 1}, G),
    (LIN, "diag_part", "k", ["m33"], {"k": -1}, G),
    (LIN, "diag_part", "k_range", ["m33"], {"k": (-1, 1)}, N),
    (LIN, "diag_part", "k_oob", ["m33"], {"k": 4}, N),
    (LIN, "global_norm", "nonfinite2", [["m33nf", "v3"]], {}, N),
]
for _ns in ("", "linalg"):
    ROWS += [
        ([_ns], "einsum", "matmul", [Py("ij,jk->ik"), "m23", "m32"], {}, G),
        ([_ns], "einsum", "trace", [Py("ii"), "m33"], {}, G),
        ([_ns], "einsum", "outer", [Py("i,j->ij"), "v3", "f32two"], {}, G),
        ([_ns], "einsum", "ellipsis", [Py("...ij,...jk->...ik"), "bm233", "m33"], {}, G),
        ([_ns], "einsum", "bad_dims", [Py("ij,jk->ik"), "m23", "m23"], {}, N),
        ([_ns], "einsum", "bad_spec", [Py("ij,jk"), "m23"], {}, N),
        ([_ns], "einsum", "mixed", [Py("ij,jk->ik"), "m23", Py([[1, 2], [3, 4], [5, 6]])], {}, N),
        ([_ns], "einsum", "empty", [Py("ij,jk->ik"), "f32e3", "f32e03"], {}, N),
        ([_ns], "tensordot", "axes1", ["m23", "m32", Py(1)], {}, G),
        ([_ns], "tensordot", "axes0", ["v3", "f32two", Py(0)], {}, G),
        ([_ns], "tensordot", "axes_list", ["f32r3", "m32", Py([[1], [0]])], {}, G),
        ([_ns], "tensordot", "bad_axes", ["m23", "m23", Py(1)], {}, N),
        ([_ns], "tensordot", "too_many_axes", ["m23", "m32", Py(3)], {}, N),
        ([_ns], "tensordot", "negative_axes", ["m23", "m32", Py(-1)], {}, N),
        ([_ns], "tensordot", "axes_oob", ["m23", "m32", Py([[5], [0]])], {}, N),
    ]

# nn: convolutions and pools on NHWC inputs
_IMG = "f32r4"                      # [2, 4, 4, 3]
_K2 = Py([[[[0.5, -1.0]] * 3] * 2] * 2)   # [2, 2, 3, 2]
_K2BAD = Py([[[[0.5]] * 2] * 2] * 2)       # [2, 2, 2, 1]: wrong in-channels
_SIG1 = Py([[[1.0], [2.0], [-1.0], [0.5], [3.0]]])   # [1, 5, 1]
_K1 = Py([[[1.0, -1.0]], [[0.5, 2.0]]])             # [2, 1, 2]
ROWS += [
    (NN, "conv2d", "valid", [_IMG, _K2, Py(1), Py("VALID")], {}, G),
    (NN, "conv2d", "same_stride2", [_IMG, _K2, Py(2), Py("SAME")], {}, G),
    (NN, "conv2d", "dilated", [_IMG, _K2, Py(1), Py("SAME")], {"dilations": 2}, G),
    (NN, "conv2d", "explicit_pad", [_IMG, _K2, Py(1), Py([[0, 0], [1, 0], [0, 1], [0, 0]])], {}, G),
    (NN, "conv2d", "bad_channels", [_IMG, _K2BAD, Py(1), Py("VALID")], {}, N),
    (NN, "conv2d", "bad_padding", [_IMG, _K2, Py(1), Py("FULL")], {}, N),
    (NN, "conv2d", "bad_rank", ["f32r3", _K2, Py(1), Py("VALID")], {}, N),
    (NN, "conv2d", "kernel_too_big", [Py([[[[1.0]]]]), Py([[[[1.0]]], [[[1.0]]]]), Py(1), Py("VALID")], {}, N),
    (NN, "conv2d", "int32", [Py([[[[1]]]]), Py([[[[1]]]]), Py(1), Py("VALID")], {}, N),
    (NN, "conv2d", "mixed", [_IMG, Py([[[[1, 1]] * 3]]), Py(1), Py("VALID")], {}, N),
    (NN, "conv2d", "empty_batch", [Py(__import__("numpy").zeros([0, 4, 4, 3], "float32")), _K2, Py(1), Py("VALID")], {}, N),
    (NN, "conv1d", "valid", [_SIG1, _K1, Py(1), Py("VALID")], {}, G),
    (NN, "conv1d", "same", [_SIG1, _K1, Py(2), Py("SAME")], {}, G),
    (NN, "conv1d", "bad", [_SIG1, _K2, Py(1), Py("VALID")], {}, N),
    (NN, "conv3d", "valid", [Py([[[[[1.0], [2.0]], [[3.0], [4.0]]]]]), Py([[[[[1.0]], [[-1.0]]]]]), Py([1, 1, 1, 1, 1]), Py("VALID")], {}, G),
    (NN, "conv3d", "bad_strides", [Py([[[[[1.0]]]]]), Py([[[[[1.0]]]]]), Py([1, 1]), Py("VALID")], {}, N),
    (NN, "depthwise_conv2d", "f32", [_IMG, Py([[[[1.0], [0.5], [-1.0]]] * 2] * 2), Py([1, 1, 1, 1]), Py("VALID")], {}, G),
    (NN, "depthwise_conv2d", "bad", [_IMG, _K2BAD, Py([1, 1, 1, 1]), Py("VALID")], {}, N),
    (NN, "conv2d_transpose", "f32", [Py([[[[1.0], [2.0]], [[3.0], [4.0]]]]), Py([[[[1.0]], [[0.5]]], [[[-1.0]], [[2.0]]]]), Py([1, 3, 3, 1]), Py(1)], {"padding": "VALID"}, G),
    (NN, "conv2d_transpose", "bad_output_shape", [Py([[[[1.0], [2.0]], [[3.0], [4.0]]]]), Py([[[[1.0]], [[0.5]]], [[[-1.0]], [[2.0]]]]), Py([1, 5, 5, 1]), Py(1)], {"padding": "VALID"}, N),
    (NN, "convolution", "valid2d", [_IMG, _K2], {}, G),
    (NN, "convolution", "same1d", [_SIG1, _K1], {"padding": "SAME"}, G),
    (NN, "convolution", "strided", [_IMG, _K2], {"strides": 2, "padding": "SAME"}, G),
    (NN, "convolution", "dilated", [_IMG, _K2], {"dilations": 2, "padding": "SAME"}, G),
    (NN, "convolution", "bad_channels", [_IMG, _K2BAD], {}, N),
    (NN, "separable_conv2d", "f32", [_IMG, Py([[[[1.0], [0.5], [-1.0]]] * 2] * 2), Py([[[[1.0, -0.5]] * 3]]), Py([1, 1, 1, 1]), Py("VALID")], {}, G),
    (NN, "separable_conv2d", "bad_pointwise", [_IMG, Py([[[[1.0], [0.5], [-1.0]]] * 2] * 2), Py([[[[1.0, -0.5]] * 2]]), Py([1, 1, 1, 1]), Py("VALID")], {}, N),
    (NN, "conv1d_transpose", "f32", [Py([[[1.0], [2.0]]]), Py([[[1.0]], [[-0.5]]]), Py([1, 3, 1]), Py(1)], {"padding": "VALID"}, G),
    (NN, "conv1d_transpose", "bad_output_shape", [Py([[[1.0], [2.0]]]), Py([[[1.0]], [[-0.5]]]), Py([1, 5, 1]), Py(1)], {"padding": "VALID"}, N),
    (NN, "conv3d_transpose", "f32", [Py([[[[[1.0]], [[2.0]]]]]), Py([[[[[1.0]]]]]), Py([1, 1, 2, 1, 1]), Py([1, 1, 1, 1, 1])], {"padding": "VALID"}, G),
    (NN, "bias_add", "f32", ["f32", "f32row"], {}, G),
    (NN, "bias_add", "nchw", ["f32r3", Py([1.0, 2.0, 3.0])], {"data_format": "NCHW"}, N),
    (NN, "bias_add", "bad", ["f32", "f32two"], {}, N),
    (NN, "bias_add", "rank1", ["f32row", "f32row"], {}, N),
    (NN, "bias_add", "bias_rank2", ["f32", "f32"], {}, N),
    (NN, "bias_add", "empty", ["f32e03", "f32row"], {}, G),
    (NN, "space_to_depth", "f32", [_IMG, Py(2)], {}, G),
    (NN, "space_to_depth", "bad", [_IMG, Py(3)], {}, N),
    (NN, "depth_to_space", "f32", [Py(__import__("numpy").arange(16, dtype="float32").reshape(1, 2, 2, 4)), Py(2)], {}, N),
    (NN, "depth_to_space", "bad", [_IMG, Py(2)], {}, N),
    (NN, "embedding_lookup", "f32", ["f32", Py([1, 0, 1])], {}, G),
    (NN, "embedding_lookup", "oob", ["f32", Py([2])], {}, N),
    (NN, "embedding_lookup", "max_norm", ["f32", Py([1, 0])], {"max_norm": 1.0}, N),
    (NN, "embedding_lookup", "empty_ids", ["f32", "i32e0"], {}, N),
    (NN, "dropout", "rate0", ["f32"], {"rate": 0.0}, G),
    (NN, "dropout", "bad_rate", ["f32"], {"rate": 1.5}, N),
    (NN, "dropout", "int", ["i32"], {"rate": 0.5}, N),
    (NN, "batch_normalization", "f32", ["f32", "f32row", Py([1.0, 2.0, 0.5]), Py(0.1), Py(2.0), Py(1e-3)], {}, G),
    (NN, "batch_normalization", "none_offsets", ["f32", Py(0.0), Py(1.0), Py(None), Py(None), Py(1e-3)], {}, G),
    (NN, "batch_normalization", "bad", ["f32", "f32two", Py(1.0), Py(None), Py(None), Py(1e-3)], {}, N),
    (NN, "moments", "axis0", ["f32", Py([0])], {}, G),
    (NN, "moments", "keepdims", ["f32r3", Py([0, 1])], {"keepdims": True}, G),
    (NN, "moments", "empty", ["f32e03", Py([0])], {}, N),
    (NN, "moments", "axis_oob", ["f32", Py([3])], {}, N),
    (NN, "moments", "int32", ["i32", Py([0])], {}, N),
    (NN, "moments", "nonfinite", ["f32nf", Py([0])], {}, N),
    (NN, "weighted_moments", "f32", ["f32", Py([1]), "f32b"], {}, G),
    (NN, "weighted_moments", "zero_weights", ["f32", Py([1]), Py(0.0)], {}, N),
    (NN, "sufficient_statistics", "f32", ["f32", Py([0])], {}, G),
    (NN, "sufficient_statistics", "shift", ["f32", Py([1])], {"shift": 0.5}, G),
    (NN, "normalize_moments", "f32", [Py(2.0), "f32row", Py([1.0, 4.0, 2.0]), Py(None)], {}, G),
    (NN, "compute_average_loss", "f32", ["f32v"], {}, G),
    (NN, "compute_average_loss", "global_batch", ["f32v"], {"global_batch_size": 8}, G),
    (NN, "compute_average_loss", "weights", ["f32v"], {"sample_weight": 0.5}, G),
    (NN, "compute_average_loss", "empty", ["f32e0"], {}, N),
    (NN, "compute_average_loss", "int", ["i32v"], {}, N),
    (NN, "scale_regularization_loss", "f32", ["f32s"], {}, G),
    (NN, "log_poisson_loss", "f32", ["f32pos", "f32"], {}, G),
    (NN, "log_poisson_loss", "full", ["f32pos", "f32"], {"compute_full_loss": True}, G),
    (NN, "log_poisson_loss", "bad", ["f32pos", "f32two"], {}, N),
    (NN, "sigmoid_cross_entropy_with_logits", "f32", [], {"labels": T("f32unit"), "logits": T("f32")}, G),
    (NN, "sigmoid_cross_entropy_with_logits", "nonfinite", [], {"labels": T("f32nfb"), "logits": T("f32nf")}, N),
    (NN, "sigmoid_cross_entropy_with_logits", "bad_shape", [], {"labels": T("f32two"), "logits": T("f32")}, N),
    (NN, "sigmoid_cross_entropy_with_logits", "empty", [], {"labels": T("f32e0"), "logits": T("f32e0")}, G),
    (NN, "sigmoid_cross_entropy_with_logits", "int", [], {"labels": T("i32"), "logits": T("f32")}, N),
    (NN, "weighted_cross_entropy_with_logits", "f32", [], {"labels": T("f32unit"), "logits": T("f32"), "pos_weight": 2.0}, G),
    (NN, "weighted_cross_entropy_with_logits", "bad", [], {"labels": T("f32two"), "logits": T("f32"), "pos_weight": 2.0}, N),
    (NN, "softmax_cross_entropy_with_logits", "f32", [], {"labels": T("f32pos"), "logits": T("f32")}, G),
    (NN, "softmax_cross_entropy_with_logits", "axis0", [], {"labels": T("f32pos"), "logits": T("f32"), "axis": 0}, G),
    (NN, "softmax_cross_entropy_with_logits", "nonfinite", [], {"labels": T("f32nfb"), "logits": T("f32nf")}, N),
    (NN, "softmax_cross_entropy_with_logits", "bad_shape", [], {"labels": T("f32row"), "logits": T("f32col")}, N),
    (NN, "softmax_cross_entropy_with_logits", "empty", [], {"labels": T("f32e03"), "logits": T("f32e03")}, G),
    (NN, "softmax_cross_entropy_with_logits", "empty_classes", [], {"labels": T("f32e3"), "logits": T("f32e3")}, N),
    (NN, "sparse_softmax_cross_entropy_with_logits", "f32", [], {"labels": Py([2, 0]), "logits": T("f32")}, G),
    (NN, "sparse_softmax_cross_entropy_with_logits", "oob", [], {"labels": Py([3, 0]), "logits": T("f32")}, N),
    (NN, "sparse_softmax_cross_entropy_with_logits", "negative", [], {"labels": Py([-1, 0]), "logits": T("f32")}, N),
    (NN, "sparse_softmax_cross_entropy_with_logits", "bad_rank", [], {"labels": Py([[2, 0]]), "logits": T("f32")}, N),
    (NN, "sparse_softmax_cross_entropy_with_logits", "float_labels", [], {"labels": T("f32two"), "logits": T("f32")}, N),
    (NN, "sparse_softmax_cross_entropy_with_logits", "empty", [], {"labels": T("i32e0"), "logits": T("f32e03")}, G),
    (NN, "sparse_softmax_cross_entropy_with_logits", "nonfinite", [], {"labels": Py([0]), "logits": Py([[float("inf"), 1.0]])}, N),
    (NN, "leaky_relu", "alpha", ["f32"], {"alpha": 0.5}, G),
    (NN, "leaky_relu", "alpha_gt1", ["f32"], {"alpha": 2.0}, G),
    (NN, "gelu", "approximate", ["f32"], {"approximate": True}, G),
    (NN, "swish", "beta", ["f32"], {"beta": 2.0}, G),
    (NN, "crelu", "axis0", ["f32"], {"axis": 0}, G),
]
for _pool, _rank in [("max_pool", 2), ("avg_pool", 2), ("max_pool2d", 2), ("avg_pool2d", 2)]:
    ROWS += [
        (NN, _pool, "valid", [_IMG, Py(2), Py(2), Py("VALID")], {}, G),
        (NN, _pool, "same", [_IMG, Py(3), Py(2), Py("SAME")], {}, G),
        (NN, _pool, "window_too_big", [_IMG, Py(5), Py(1), Py("VALID")], {}, N),
        (NN, _pool, "bad_padding", [_IMG, Py(2), Py(2), Py("FULL")], {}, N),
        (NN, _pool, "zero_stride", [_IMG, Py(2), Py(0), Py("VALID")], {}, N),
        (NN, _pool, "bad_rank", ["f32", Py(2), Py(2), Py("VALID")], {}, N),
        (NN, _pool, "nonfinite", [Py([[[[float("nan")], [1.0]], [[float("inf")], [0.0]]]]), Py(2), Py(1), Py("VALID")], {}, N),
        (NN, _pool, "int32", [Py([[[[1], [2]], [[3], [4]]]]), Py(2), Py(1), Py("VALID")], {}, N),
    ]
for _pool in ("max_pool1d", "avg_pool1d"):
    ROWS += [
        (NN, _pool, "valid", [_SIG1, Py(2), Py(1), Py("VALID")], {}, G),
        (NN, _pool, "same", [_SIG1, Py(2), Py(2), Py("SAME")], {}, G),
        (NN, _pool, "bad_rank", [_IMG, Py(2), Py(1), Py("VALID")], {}, N),
    ]
for _pool in ("max_pool3d", "avg_pool3d"):
    ROWS += [
        (NN, _pool, "valid", [Py([[[[[1.0], [2.0]], [[3.0], [4.0]]], [[[5.0], [6.0]], [[7.0], [8.0]]]]]), Py(2), Py(1), Py("VALID")], {}, G),
        (NN, _pool, "bad_rank", [_IMG, Py(2), Py(1), Py("VALID")], {}, N),
    ]

# bitwise
for _op in ("bitwise_and", "bitwise_or", "bitwise_xor", "left_shift", "right_shift"):
    ROWS += [
        (BIT, _op, "i32", ["i32", "i32b"], {}, N),
        (BIT, _op, "u8", ["u8", "u8b"], {}, N),
        (BIT, _op, "i8", ["i8", Py([[1, 1, 1], [1, 1, 1]])], {}, N),
        (BIT, _op, "extreme", ["i32ex", "i32exb"], {}, N),
        (BIT, _op, "float", ["f32", "f32"], {}, N),
        (BIT, _op, "bcast", ["i32", Py(3)], {}, N),
        (BIT, _op, "bad_shape", ["i32", Py([1, 2])], {}, N),
        (BIT, _op, "mixed", ["i32", "i64"], {}, N),
        (BIT, _op, "empty", ["i32e0", "i32e0"], {}, N),
    ]
ROWS += [(BIT, _op, "big_shift", ["i32v", Py([31, 32, 33, -1])], {}, N) for _op in ("left_shift", "right_shift")]
ROWS += [
    (BIT, "invert", "i32", ["i32"], {}, N), (BIT, "invert", "u8", ["u8"], {}, N),
    (BIT, "invert", "float", ["f32"], {}, N), (BIT, "invert", "bool", ["bool"], {}, N),
]

# strings
ROWS += [
    (STR, "length", "str", ["str"], {}, N), (STR, "length", "utf8", [Py(["héllo"])], {"unit": "UTF8_CHAR"}, N),
    (STR, "length", "float", ["f32"], {}, N),
    (STR, "lower", "str", ["str"], {}, N), (STR, "upper", "str", ["str"], {}, N),
    (STR, "upper", "int", ["i32"], {}, N),
    (STR, "strip", "str", ["str"], {}, N),
    (STR, "join", "str", [["str", "str"]], {"separator": "-"}, N),
    (STR, "join", "bad_shape", [["str", Py(["a"] * 3)]], {}, N),
    (STR, "join", "empty", [Py([])], {}, N),
    (STR, "reduce_join", "str", ["str"], {}, N), (STR, "reduce_join", "sep", ["str"], {"separator": ","}, N),
    (STR, "reduce_join", "axis_oob", ["str"], {"axis": 1}, N),
    (STR, "reduce_join", "empty", [Py(__import__("numpy").array([], dtype=object))], {}, N),
    (STR, "regex_full_match", "str", ["str", Py("[a-z]+")], {}, N),
    (STR, "regex_full_match", "bad_regex", ["str", Py("(")], {}, N),
    (STR, "regex_replace", "str", ["str", Py("[a-z]"), Py("#")], {}, N),
    (STR, "regex_replace", "first", ["str", Py("l"), Py("L")], {"replace_global": False}, N),
    (STR, "regex_replace", "group", ["str", Py("(l+)"), Py("<\\1>")], {}, N),
    (STR, "regex_replace", "bad_regex", ["str", Py("["), Py("x")], {}, N),
    (STR, "substr", "str", ["str", Py(1), Py(2)], {}, N),
    (STR, "substr", "oob", ["str", Py(10), Py(2)], {}, N),
    (STR, "substr", "negative", [Py(["hello"]), Py(-3), Py(2)], {}, N),
    (STR, "to_number", "ok", [Py(["1.5", "-2", "1e3"])], {}, N),
    (STR, "to_number", "bad", ["strnum"], {}, N),
    (STR, "to_number", "int", [Py(["12", "-3"])], {"out_type": "int32"}, N),
    (STR, "to_number", "int_overflow", [Py(["99999999999"])], {"out_type": "int32"}, N),
    (STR, "to_number", "nan", [Py(["nan", "inf", "-inf"])], {}, N),
    (STR, "split", "scalar", ["strs"], {"sep": ","}, N),
    (STR, "split", "whitespace", [Py(["a b  c"])], {}, N),
    (STR, "format", "f32", [Py("x={} y={}"), ["f32row", "i32v"]], {}, N),
    (STR, "format", "bad_count", [Py("x={} y={}"), ["f32row"]], {}, N),
    (STR, "format", "scalar", [Py("{}"), ["f32s"]], {}, N),
    (STR, "as_string", "f32", ["f32nf"], {}, N),
    (STR, "as_string", "precision", ["f32"], {"precision": 2}, N),
    (STR, "as_string", "int", ["i32ex"], {}, N),
    (STR, "as_string", "bool", ["bool"], {}, N),
    (STR, "as_string", "sci", ["f32ex"], {"scientific": True}, N),
    (STR, "as_string", "width", ["i32"], {"width": 4, "fill": "0"}, N),
    (STR, "as_string", "string", ["str"], {}, N),
    (TOP, "as_string", "f64", ["f64nf"], {}, N),
    (TOP, "as_string", "complex", ["c64"], {}, N),
]

# signal
for _op in ("fft", "ifft"):
    ROWS += [
        (SIG, _op, "c64", ["c64"], {}, N), (SIG, _op, "c128", ["c128"], {}, N),
        (SIG, _op, "float", ["f32"], {}, N), (SIG, _op, "scalar", [Py(1 + 1j)], {}, N),
        (SIG, _op, "empty", [Py(__import__("numpy").zeros([0], "complex64"))], {}, N),
    ]
for _op in ("fft2d", "ifft2d", "fft3d", "ifft3d"):
    ROWS += [(SIG, _op, "c64", [Py(__import__("numpy").arange(8).reshape(2, 2, 2).astype("complex64") * (1 - 0.5j))], {}, N),
             (SIG, _op, "rank1", ["c128"], {}, N)]
for _op in ("rfft", "rfft2d", "rfft3d"):
    ROWS += [(SIG, _op, "f32", ["f32r3"], {}, N), (SIG, _op, "fft_length", ["f32r3"], {"fft_length": [3] * int(_op[4] if len(_op) > 4 else 1)}, N),
             (SIG, _op, "complex", ["c64"], {}, N), (SIG, _op, "nonfinite", [Py([[[float("nan"), 1.0]]])], {}, N)]
for _op in ("irfft", "irfft2d", "irfft3d"):
    ROWS += [(SIG, _op, "c64", [Py(__import__("numpy").arange(12).reshape(2, 2, 3).astype("complex64") * (1 + 1j))], {}, N),
             (SIG, _op, "float", ["f32r3"], {}, N)]
ROWS += [
    (SIG, "fftshift", "f32", ["f32"], {}, N), (SIG, "fftshift", "axes", ["f32"], {"axes": 1}, N),
    (SIG, "ifftshift", "f32", ["f32"], {}, N), (SIG, "ifftshift", "empty", ["f32e0"], {}, N),
    (SIG, "frame", "f32", ["f32v", Py(2), Py(1)], {}, N),
    (SIG, "frame", "pad", ["f32v", Py(3), Py(2)], {"pad_end": True, "pad_value": -1.0}, N),
    (SIG, "frame", "too_long", ["f32v", Py(9), Py(1)], {}, N),
    (SIG, "frame", "zero_step", ["f32v", Py(2), Py(0)], {}, N),
    (SIG, "hann_window", "5", [Py(5)], {}, N), (SIG, "hann_window", "nonperiodic", [Py(5)], {"periodic": False}, N),
    (SIG, "hann_window", "one", [Py(1)], {}, N), (SIG, "hann_window", "zero", [Py(0)], {}, N),
    (SIG, "hann_window", "negative", [Py(-1)], {}, N),
    (SIG, "hamming_window", "5", [Py(5)], {}, N), (SIG, "hamming_window", "f64", [Py(4)], {"dtype": "float64"}, N),
    (SIG, "hamming_window", "int_dtype", [Py(4)], {"dtype": "int32"}, N),
]

# stateless random: the streams are part of the contract (same seed, same numbers)
_SEED = Py([1, 2])
for _op, _kw in [("stateless_uniform", {}), ("stateless_normal", {}), ("stateless_truncated_normal", {}),
                 ("stateless_uniform", {"minval": 2, "maxval": 9, "dtype": "int32"}),
                 ("stateless_gamma", {"alpha": 2.0}), ("stateless_poisson", {"lam": 3.0}),
                 ("stateless_binomial", {"counts": 5.0, "probs": 0.3})]:
    _name = "int" if _kw.get("dtype") == "int32" else "f32"
    ROWS += [(RND, _op, _name, [Py([3]), _SEED], _kw, N)]
ROWS += [
    (RND, "stateless_uniform", "bad_seed", [Py([3]), Py([1])], {}, N),
    (RND, "stateless_uniform", "int_no_bounds", [Py([3]), _SEED], {"dtype": "int32"}, N),
    (RND, "stateless_uniform", "empty", [Py([0]), _SEED], {}, N),
    (RND, "stateless_normal", "f64", [Py([2, 2]), _SEED], {"dtype": "float64", "mean": 1.0, "stddev": 2.0}, N),
    (RND, "stateless_categorical", "f32", ["f32", Py(4), _SEED], {}, N),
    (RND, "stateless_parameterized_truncated_normal", "f32", [Py([3]), _SEED], {}, N),
    (RND, "fold_in", "i32", [_SEED, Py(7)], {}, N),
    (RND, "split", "i32", [_SEED], {"num": 3}, N),
    (RND, "create_rng_state", "philox", [Py(5), Py("philox")], {}, N),
]

# assertions and conversions
ROWS += [
    (TOP, "assert_equal", "ok", ["f32", "f32"], {}, N), (TOP, "assert_equal", "fail", ["f32", "f32b"], {}, N),
    (TOP, "assert_equal", "bad_shape", ["f32", "f32two"], {}, N),
    (TOP, "assert_less", "ok", ["f32", Py(5.0)], {}, N), (TOP, "assert_less", "fail", ["f32", Py(0.0)], {}, N),
    (TOP, "assert_less", "empty", ["f32e0", Py(0.0)], {}, N),
    (TOP, "assert_greater", "ok", ["f32", Py(-5.0)], {}, N), (TOP, "assert_greater", "fail", ["f32nf", Py(0.0)], {}, N),
    (TOP, "assert_rank", "ok", ["f32", Py(2)], {}, N), (TOP, "assert_rank", "fail", ["f32", Py(3)], {}, N),
    (TOP, "as_dtype", "name", [Py("float32")], {}, N), (TOP, "as_dtype", "bad", [Py("float33")], {}, N),
    (TOP, "executing_eagerly", "plain", [], {}, N),
]

# control flow with plain-Python branches
ROWS += [
    (TOP, "cond", "true", ["bools", Py(lambda: 2.0), Py(lambda: 3.0)], {}, N),
    (TOP, "cond", "float_pred", ["f32s", Py(lambda: 2.0), Py(lambda: 3.0)], {}, N),
    (TOP, "cond", "vector_pred", ["boolv", Py(lambda: 2.0), Py(lambda: 3.0)], {}, N),
    (TOP, "cond", "mismatched", ["bools", Py(lambda: 2.0), Py(lambda: [1.0, 2.0])], {}, N),
    (TOP, "switch_case", "i32", ["i32s", Py([lambda: 1.0, lambda: 2.0, lambda: 3.0])], {}, N),
    (TOP, "switch_case", "oob", [Py(7), Py([lambda: 1.0, lambda: 2.0])], {}, N),
    (TOP, "switch_case", "float_index", ["f32s", Py([lambda: 1.0, lambda: 2.0])], {}, N),
    (TOP, "switch_case", "empty", ["i32s", Py([])], {}, N),
    (TOP, "while_loop", "i32", [Py(lambda i: i < 5), Py(lambda i: i + 1), ["i32s"]], {}, N),
    (TOP, "while_loop", "f32", [Py(lambda x: x < 100.0), Py(lambda x: x * 3.0), ["f32s"]], {}, G),
    (TOP, "while_loop", "shape_change", [Py(lambda x: x.shape[0] < 4), Py(lambda x: [1.0, 2.0, 3.0, 4.0]), ["f32two"]], {}, N),
    (TOP, "while_loop", "non_bool_cond", [Py(lambda i: i), Py(lambda i: i - 1), ["i32s"]], {}, N),
    (TOP, "while_loop", "max_iter", [Py(lambda i: i < 50), Py(lambda i: i + 1), ["i32s"]], {"maximum_iterations": 3}, N),
]

# Python operators on Tensors and Variables (the var and grad_var modes make
# the first operand a tf.Variable): indexing, arithmetic, comparison.
OPS = ["operator"]
ROWS += [
    (OPS, "getitem", "int", ["f32", Py(1)], {}, G),
    (OPS, "getitem", "negative", ["f32", Py(-1)], {}, G),
    (OPS, "getitem", "slice", ["f32", Py(slice(1, None))], {}, G),
    (OPS, "getitem", "step", ["f32", Py((slice(None), slice(None, None, -2)))], {}, G),
    (OPS, "getitem", "ellipsis", ["f32r3", Py((Ellipsis, 1))], {}, G),
    (OPS, "getitem", "newaxis", ["f32", Py((None, 0))], {}, G),
    (OPS, "getitem", "tensor_index", ["f32", "i32s"], {}, N),
    (OPS, "getitem", "oob", ["f32", Py(5)], {}, N),
    (OPS, "getitem", "too_many", ["f32", Py((0, 0, 0))], {}, N),
    (OPS, "getitem", "float_index", ["f32", Py(1.0)], {}, N),
    (OPS, "getitem", "list_index", ["f32", Py([0, 1])], {}, N),
    (OPS, "getitem", "bool_mask", ["f32", "bool"], {}, N),
    (OPS, "getitem", "empty", ["f32e03", Py(slice(0, 1))], {}, G),
    (OPS, "getitem", "scalar", ["f32s", Py(0)], {}, N),
    (OPS, "add", "f32", ["f32", "f32b"], {}, G), (OPS, "add", "py", ["f32", Py(1)], {}, G),
    (OPS, "add", "mixed", ["f32", "i32"], {}, N), (OPS, "add", "string", ["str", "str"], {}, N),
    (OPS, "sub", "py_first", [Py(2.0), "f32"], {}, G),
    (OPS, "mul", "bcast", ["f32", "f32row"], {}, G),
    (OPS, "truediv", "int", ["i32", "i32b"], {}, N), (OPS, "truediv", "int_zero", ["i32", "i32z"], {}, N),
    (OPS, "truediv", "f32", ["f32", "f32b"], {}, G),
    (OPS, "floordiv", "f32", ["f32", "f32b"], {}, N), (OPS, "floordiv", "int_zero", ["i32", "i32z"], {}, N),
    (OPS, "floordiv", "nonfinite", ["f32nf", "f32nfb"], {}, N),
    (OPS, "mod", "f32", ["f32", "f32b"], {}, N), (OPS, "mod", "nonfinite", ["f32nf", "f32nfb"], {}, N),
    (OPS, "pow", "f32", ["f32pos", "f32"], {}, G), (OPS, "pow", "int_negative", ["i32", Py(-1)], {}, N),
    (OPS, "matmul", "f32", ["m23", "m32"], {}, G), (OPS, "matmul", "bad", ["m23", "m23"], {}, N),
    (OPS, "neg", "f32", ["f32"], {}, G), (OPS, "abs", "i32ex", ["i32ex"], {}, N),
    (OPS, "invert", "bool", ["bool"], {}, N), (OPS, "invert", "i32", ["i32"], {}, N),
    (OPS, "and_", "bool", ["bool", "boolb"], {}, N), (OPS, "or_", "int", ["i32", "i32b"], {}, N),
    (OPS, "xor", "float", ["f32", "f32b"], {}, N),
    (OPS, "lt", "f32", ["f32", "f32b"], {}, N), (OPS, "ge", "nonfinite", ["f32nf", "f32nfb"], {}, N),
    (OPS, "eq", "f32", ["f32", "f32"], {}, N), (OPS, "eq", "bad_shape", ["f32", "f32two"], {}, N),
    (OPS, "ne", "none", ["f32", Py(None)], {}, N),
]

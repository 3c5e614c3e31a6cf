"""The part of the TFLite model schema (``TFL3`` FlatBuffers) eagerflow reads and writes.

Tables list their fields in id order, as `flatbuffer` takes them; operator
codes, tensor types and option tables carry the schema's numbers.

>>> OPERATORS["FULLY_CONNECTED"], TENSOR_TYPES[0]
(9, dtype('float32'))
"""
import numpy as np

from eagerflow._src.lite import flatbuffer

IDENTIFIER = b"TFL3"
SCHEMA_VERSION = 3

TABLES = {
    "Model": [("version", "u32", 0), ("operator_codes", "[OperatorCode]", None),
              ("subgraphs", "[SubGraph]", None), ("description", "str", None),
              ("buffers", "[Buffer]", None), ("metadata_buffer", "[i32]", None),
              ("metadata", "[Metadata]", None), ("signature_defs", "[SignatureDef]", None)],
    "OperatorCode": [("deprecated_builtin_code", "i8", 0), ("custom_code", "str", None),
                     ("version", "i32", 1), ("builtin_code", "i32", 0)],
    "SubGraph": [("tensors", "[Tensor]", None), ("inputs", "[i32]", None),
                 ("outputs", "[i32]", None), ("operators", "[Operator]", None),
                 ("name", "str", None)],
    "Tensor": [("shape", "[i32]", None), ("type", "i8", 0), ("buffer", "u32", 0),
               ("name", "str", None), ("quantization", "QuantizationParameters", None),
               ("is_variable", "bool", False), ("sparsity", "SparsityParameters", None),
               ("shape_signature", "[i32]", None), ("has_rank", "bool", False)],
    "QuantizationParameters": [("min", "[f32]", None), ("max", "[f32]", None),
                               ("scale", "[f32]", None), ("zero_point", "[i64]", None),
                               ("details_type", "u8", 0),
                               ("details", "union:details_type:QuantizationDetails", None),
                               ("quantized_dimension", "i32", 0)],
    "SparsityParameters": [("traversal_order", "[i32]", None), ("block_map", "[i32]", None)],
    "Operator": [("opcode_index", "u32", 0), ("inputs", "[i32]", None),
                 ("outputs", "[i32]", None), ("builtin_options_type", "u8", 0),
                 ("builtin_options", "union:builtin_options_type:BuiltinOptions", None),
                 ("custom_options", "[u8]", None), ("custom_options_format", "i8", 0),
                 ("mutating_variable_inputs", "[bool]", None),
                 ("intermediates", "[i32]", None)],
    "Buffer": [("data", "[u8]", None), ("offset", "u64", 0), ("size", "u64", 0)],
    "Metadata": [("name", "str", None), ("buffer", "u32", 0)],
    "TensorMap": [("name", "str", None), ("tensor_index", "u32", 0)],
    "SignatureDef": [("inputs", "[TensorMap]", None), ("outputs", "[TensorMap]", None),
                     ("signature_key", "str", None), ("deprecated_tag", "str", None),
                     ("subgraph_index", "u32", 0)],
}

_ACT = ("fused_activation_function", "i8", 0)
# option table name -> (union type number, fields)
_OPTIONS = {
    "Conv2DOptions": (1, [("padding", "i8", 0), ("stride_w", "i32", 0),
                          ("stride_h", "i32", 0), _ACT, ("dilation_w_factor", "i32", 1),
                          ("dilation_h_factor", "i32", 1)]),
    "DepthwiseConv2DOptions": (2, [("padding", "i8", 0), ("stride_w", "i32", 0),
                                   ("stride_h", "i32", 0), ("depth_multiplier", "i32", 0),
                                   _ACT, ("dilation_w_factor", "i32", 1),
                                   ("dilation_h_factor", "i32", 1)]),
    "Pool2DOptions": (5, [("padding", "i8", 0), ("stride_w", "i32", 0), ("stride_h", "i32", 0),
                          ("filter_width", "i32", 0), ("filter_height", "i32", 0), _ACT]),
    "FullyConnectedOptions": (8, [_ACT, ("weights_format", "i8", 0),
                                  ("keep_num_dims", "bool", False),
                                  ("asymmetric_quantize_inputs", "bool", False)]),
    "SoftmaxOptions": (9, [("beta", "f32", 0.0)]),
    "ConcatenationOptions": (10, [("axis", "i32", 0), _ACT]),
    "AddOptions": (11, [_ACT]),
    "ResizeBilinearOptions": (15, [("new_height", "i32", 0), ("new_width", "i32", 0),
                                   ("align_corners", "bool", False),
                                   ("half_pixel_centers", "bool", False)]),
    "ReshapeOptions": (17, [("new_shape", "[i32]", None)]),
    "MulOptions": (21, [_ACT]),
    "PadOptions": (22, []),
    "GatherOptions": (23, [("axis", "i32", 0), ("batch_dims", "i32", 0)]),
    "TransposeOptions": (26, []),
    "ReducerOptions": (27, [("keep_dims", "bool", False)]),
    "SubOptions": (28, [_ACT]),
    "DivOptions": (29, [_ACT]),
    "SqueezeOptions": (30, [("squeeze_dims", "[i32]", None)]),
    "StridedSliceOptions": (32, [("begin_mask", "i32", 0), ("end_mask", "i32", 0),
                                 ("ellipsis_mask", "i32", 0), ("new_axis_mask", "i32", 0),
                                 ("shrink_axis_mask", "i32", 0), ("offset", "bool", False)]),
    "ExpOptions": (33, []),
    "SplitOptions": (35, [("num_splits", "i32", 0)]),
    "LogSoftmaxOptions": (36, []),
    "CastOptions": (37, [("in_data_type", "i8", 0), ("out_data_type", "i8", 0)]),
    "DequantizeOptions": (38, []),
    "MaximumMinimumOptions": (39, []),
    "ArgMaxOptions": (40, [("output_type", "i8", 0)]),
    "SliceOptions": (48, []),
    "TransposeConvOptions": (49, [("padding", "i8", 0), ("stride_w", "i32", 0),
                                  ("stride_h", "i32", 0), _ACT]),
    "TileOptions": (51, []),
    "ExpandDimsOptions": (52, []),
    "ShapeOptions": (55, [("out_type", "i8", 0)]),
    "PackOptions": (59, [("values_count", "i32", 0), ("axis", "i32", 0)]),
    "UnpackOptions": (64, [("num", "i32", 0), ("axis", "i32", 0)]),
    "ReverseV2Options": (81, []),
    "ResizeNearestNeighborOptions": (74, [("align_corners", "bool", False),
                                          ("half_pixel_centers", "bool", False)]),
    "FillOptions": (68, []),
    "SplitVOptions": (79, [("num_splits", "i32", 0)]),
    "LeakyReluOptions": (75, [("alpha", "f32", 0.0)]),
    "QuantizeOptions": (89, []),
    "HardSwishOptions": (91, []),
    "BatchMatMulOptions": (101, [("adj_x", "bool", False), ("adj_y", "bool", False),
                                 ("asymmetric_quantize_inputs", "bool", False)]),
    "GeluOptions": (116, [("approximate", "bool", False)]),
    "Conv3DOptions": (106, [("padding", "i8", 0), ("stride_d", "i32", 0),
                            ("stride_w", "i32", 0), ("stride_h", "i32", 0), _ACT,
                            ("dilation_d_factor", "i32", 1), ("dilation_w_factor", "i32", 1),
                            ("dilation_h_factor", "i32", 1)]),
    "L2NormOptions": (12, [_ACT]),
    "SpaceToDepthOptions": (19, [("block_size", "i32", 0)]),
    "TopKV2Options": (34, []),
    "ArgMinOptions": (57, [("output_type", "i8", 0)]),
    "OneHotOptions": (61, [("axis", "i32", 0)]),
    "RangeOptions": (73, []),
    "MirrorPadOptions": (77, [("mode", "i8", 0)]),
    "AddNOptions": (82, []),
    "GatherNdOptions": (83, []),
    "MatrixDiagOptions": (88, []),
    "DepthToSpaceOptions": (94, [("block_size", "i32", 0)]),
    "SegmentSumOptions": (100, []),
    "CumsumOptions": (102, [("exclusive", "bool", False), ("reverse", "bool", False)]),
    "ATan2Options": (122, []),
    "WhileOptions": (93, [("cond_subgraph_index", "i32", 0),
                          ("body_subgraph_index", "i32", 0)]),
    "UnidirectionalSequenceLSTMOptions": (71, [_ACT, ("cell_clip", "f32", 0.0),
                                               ("proj_clip", "f32", 0.0),
                                               ("time_major", "bool", False),
                                               ("asymmetric_quantize_inputs", "bool", False),
                                               ("diagonal_recurrent_tensors", "bool", False)]),
}
TABLES.update({name: fields for name, (_, fields) in _OPTIONS.items()})
OPTION_TABLES = {number: name for name, (number, _) in _OPTIONS.items()}
OPTION_NUMBERS = {name: number for number, name in OPTION_TABLES.items()}

OPERATORS = {
    "ADD": 0, "AVERAGE_POOL_2D": 1, "CONCATENATION": 2, "CONV_2D": 3, "DEPTHWISE_CONV_2D": 4,
    "DEQUANTIZE": 6, "FLOOR": 8, "FULLY_CONNECTED": 9, "LOGISTIC": 14, "MAX_POOL_2D": 17,
    "MUL": 18, "RELU": 19, "RELU_N1_TO_1": 20, "RELU6": 21, "RESHAPE": 22,
    "RESIZE_BILINEAR": 23, "SOFTMAX": 25, "TANH": 28, "PAD": 34, "GATHER": 36, "TRANSPOSE": 39,
    "BATCH_TO_SPACE_ND": 37, "SPACE_TO_BATCH_ND": 38, "PRELU": 54,
    "MEAN": 40, "SUB": 41, "DIV": 42, "SQUEEZE": 43, "STRIDED_SLICE": 45, "EXP": 47,
    "UNIDIRECTIONAL_SEQUENCE_LSTM": 44,
    "SPLIT": 49, "LOG_SOFTMAX": 50, "CAST": 53, "MAXIMUM": 55, "ARG_MAX": 56, "MINIMUM": 57,
    "LESS": 58, "NEG": 59, "GREATER": 61, "GREATER_EQUAL": 62, "LESS_EQUAL": 63, "SELECT": 64,
    "SLICE": 65, "SIN": 66, "TRANSPOSE_CONV": 67, "TILE": 69, "EXPAND_DIMS": 70, "EQUAL": 71,
    "NOT_EQUAL": 72, "LOG": 73, "SUM": 74, "SQRT": 75, "RSQRT": 76, "SHAPE": 77, "POW": 78,
    "REDUCE_PROD": 81, "REDUCE_MAX": 82, "PACK": 83, "LOGICAL_OR": 84, "LOGICAL_AND": 86,
    "LOGICAL_NOT": 87, "UNPACK": 88, "REDUCE_MIN": 89, "FLOOR_DIV": 90, "SQUARE": 92, "ZEROS_LIKE": 93,
    "FILL": 94, "FLOOR_MOD": 95, "RESIZE_NEAREST_NEIGHBOR": 97, "LEAKY_RELU": 98,
    "SQUARED_DIFFERENCE": 99, "ABS": 101, "SPLIT_V": 102, "CEIL": 104, "REVERSE_V2": 105, "COS": 108, "ELU": 111,
    "QUANTIZE": 114, "ROUND": 116, "HARD_SWISH": 117, "SELECT_V2": 123, "BATCH_MATMUL": 126,
    "WHILE": 119, "CONV_3D": 132, "GELU": 150, "SIGN": 158,
    "DEPTH_TO_SPACE": 5, "L2_NORMALIZATION": 11, "SPACE_TO_DEPTH": 26, "TOPK_V2": 48,
    "ARG_MIN": 79, "ONE_HOT": 85, "REDUCE_ANY": 91, "RANGE": 96, "MIRROR_PAD": 100,
    "ADD_N": 106, "GATHER_ND": 107, "MATRIX_DIAG": 113, "SEGMENT_SUM": 125, "CUMSUM": 128,
    "ATAN2": 156,
}
OPERATOR_NAMES = {number: name for name, number in OPERATORS.items()}
OPERATORS_CUSTOM = 32
# the deprecated one-byte code of operators numbered from here on
PLACEHOLDER_FOR_GREATER_OP_CODES = 127

TENSOR_TYPES = {0: np.dtype(np.float32), 1: np.dtype(np.float16), 2: np.dtype(np.int32),
                3: np.dtype(np.uint8), 4: np.dtype(np.int64), 6: np.dtype(np.bool_),
                7: np.dtype(np.int16), 9: np.dtype(np.int8), 10: np.dtype(np.float64),
                12: np.dtype(np.uint64), 15: np.dtype(np.uint32), 16: np.dtype(np.uint16)}
TYPE_NUMBERS = {dtype: number for number, dtype in TENSOR_TYPES.items()}
STRING = 5   # (the type of string tensors, which this project's kernels do not hold)
TYPE_NAMES = {0: "FLOAT32", 1: "FLOAT16", 2: "INT32", 3: "UINT8", 4: "INT64", 5: "STRING",
              6: "BOOL", 7: "INT16", 8: "COMPLEX64", 9: "INT8", 10: "FLOAT64",
              11: "COMPLEX128", 12: "UINT64", 15: "UINT32", 16: "UINT16"}

PADDING = {"SAME": 0, "VALID": 1}
ACTIVATIONS = {"NONE": 0, "RELU": 1, "RELU_N1_TO_1": 2, "RELU6": 3, "TANH": 4}


def read_model(data):
    """A ``.tflite`` buffer as nested dicts (see `flatbuffer.read`)."""
    return flatbuffer.read(TABLES, "Model", data, {"BuiltinOptions": OPTION_TABLES})


def write_model(model):
    """The ``.tflite`` bytes of `model`, nested dicts of the ``Model`` table."""
    return flatbuffer.write(TABLES, "Model", model, IDENTIFIER, {"BuiltinOptions": OPTION_TABLES})


def operator_code(code):
    """The operator number of an ``OperatorCode`` dict (old files set only the byte)."""
    return max(code["builtin_code"], code["deprecated_builtin_code"])


def operator_name(code):
    """The name of an ``OperatorCode`` dict's operator (a custom one's own name; a builtin
    one this module does not name: ``BUILTIN_<number>``)."""
    number = operator_code(code)
    if number == OPERATORS_CUSTOM:
        return code["custom_code"]
    return OPERATOR_NAMES.get(number, f"BUILTIN_{number}")

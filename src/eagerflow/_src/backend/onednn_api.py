"""oneDNN's C API, as ctypes declarations, and the search for the library.

The library comes from the ``onednn-cpu-gomp`` wheel (a dependency on x86-64
Linux), which puts ``libdnnl.so.3`` in ``<prefix>/lib``: outside the loader's
search path inside a virtual environment, so the wheel's own file list says
where it is. ``EAGERFLOW_ONEDNN_LIBRARY`` names another copy.

Every function is declared with its argument and result types (undeclared,
ctypes would truncate 64-bit handles) and with a status check that raises
`DnnlError`. Enum values are those of oneDNN 3.2's ``dnnl_types.h``.

>>> ARG_SRC, ARG_DST, ARG_WEIGHTS
(1, 17, 33)
"""
import ctypes
import os
import sys

MAX_NDIMS = 12
Dims = ctypes.c_int64 * MAX_NDIMS


class ExecArg(ctypes.Structure):
    """``dnnl_exec_arg_t``: an argument index and the memory bound to it."""
    _fields_ = [("arg", ctypes.c_int), ("memory", ctypes.c_void_p)]


class DnnlError(RuntimeError):
    """A oneDNN call returned a status other than success."""

    def __init__(self, function, status):
        super().__init__(f"{function} failed: {_STATUS.get(status, status)}")
        self.status = status


class Unsupported(DnnlError):
    """oneDNN has no implementation for this configuration: use NumPy instead."""


SUCCESS, UNIMPLEMENTED = 0, 3
_STATUS = {1: "out of memory", 2: "invalid arguments", 3: "unimplemented",
           4: "last implementation reached", 5: "runtime error", 6: "not required"}

# dnnl_data_type_t
F16, BF16, F32, S32, S8, U8, F64 = 1, 2, 3, 4, 5, 6, 7
# dnnl_format_tag_t
FORMAT_ANY = 1
# dnnl_prop_kind_t
FORWARD_TRAINING, FORWARD_INFERENCE, BACKWARD, BACKWARD_DATA, BACKWARD_WEIGHTS = (
    64, 96, 128, 160, 192)
# dnnl_alg_kind_t
CONVOLUTION_DIRECT, DECONVOLUTION_DIRECT = 0x1, 0xa
ELTWISE_RELU, ELTWISE_TANH, ELTWISE_ELU, ELTWISE_LINEAR, ELTWISE_SOFT_RELU = 32, 33, 34, 38, 39
ELTWISE_LOGISTIC, ELTWISE_GELU_TANH, ELTWISE_SWISH, ELTWISE_CLIP, ELTWISE_GELU_ERF = (
    41, 43, 44, 46, 49)
BINARY_ADD, BINARY_MUL, BINARY_MAX, BINARY_MIN, BINARY_GT = (
    0x1fff0, 0x1fff1, 0x1fff2, 0x1fff3, 0x1fff7)
ELTWISE_SQRT, ELTWISE_POW, BINARY_SUB = 37, 48, 0x1fff5
POOLING_MAX, POOLING_AVG_INCLUDE_PADDING, POOLING_AVG_EXCLUDE_PADDING = 0x1ff, 0x2ff, 0x3ff
VANILLA_RNN, VANILLA_LSTM, VANILLA_GRU, LBR_GRU = 0x1fff, 0x2fff, 0x3fff, 0x4fff
# dnnl_rnn_direction_t
LEFT2RIGHT, RIGHT2LEFT, BIDIRECTIONAL_CONCAT, BIDIRECTIONAL_SUM = 1, 2, 3, 4
# dnnl_normalization_flags_t
USE_GLOBAL_STATS, USE_SCALE, USE_SHIFT, FUSE_NORM_RELU = 0x1, 0x2, 0x4, 0x8
# dnnl_query_t
QUERY_IMPL_INFO_STR, QUERY_WORKSPACE_MD, QUERY_SCRATCHPAD_MD, QUERY_EXEC_ARG_MD = 8, 135, 136, 255
# execution argument indices (DNNL_ARG_*)
ARG_SRC, ARG_SRC_ITER, ARG_SRC_ITER_C = 1, 2, 3
ARG_DST, ARG_DST_ITER, ARG_DST_ITER_C = 17, 18, 19
ARG_WEIGHTS, ARG_WEIGHTS_ITER, ARG_BIAS = 33, 34, 41
ARG_MEAN, ARG_VARIANCE, ARG_SCALE, ARG_SHIFT, ARG_WORKSPACE = 49, 50, 51, 52, 64
ARG_SCRATCHPAD = 80
ARG_SRC_0, ARG_SRC_1 = 1, 2
ARG_DIFF_SRC, ARG_DIFF_SRC_ITER, ARG_DIFF_SRC_ITER_C = 129, 130, 131
ARG_DIFF_DST, ARG_DIFF_DST_ITER, ARG_DIFF_DST_ITER_C = 145, 146, 147
ARG_DIFF_WEIGHTS, ARG_DIFF_WEIGHTS_ITER, ARG_DIFF_BIAS = 161, 162, 169
ARG_DIFF_SCALE, ARG_DIFF_SHIFT = 255, 256
def post_op_arg(index, arg=ARG_SRC_1):
    """``DNNL_ARG_ATTR_MULTIPLE_POST_OP(index) | arg``: an operand of binary post-op `index`."""
    return 32768 * (index + 1) | arg


# RNN argument aliases
ARG_SRC_LAYER, ARG_DST_LAYER, ARG_WEIGHTS_LAYER = ARG_SRC, ARG_DST, ARG_WEIGHTS
ARG_DIFF_SRC_LAYER, ARG_DIFF_DST_LAYER, ARG_DIFF_WEIGHTS_LAYER = (
    ARG_DIFF_SRC, ARG_DIFF_DST, ARG_DIFF_WEIGHTS)
CPU_ENGINE, STREAM_DEFAULT_FLAGS = 1, 1
# dnnl_scratchpad_mode_t: the caller passes the scratchpad (the library's own is shared
# by the primitives one thread made, which another thread must not run at the same time)
SCRATCHPAD_MODE_USER = 1

_P = ctypes.c_void_p
_PP = ctypes.POINTER(ctypes.c_void_p)
_I, _U, _F, _DIMS = ctypes.c_int, ctypes.c_uint, ctypes.c_float, ctypes.POINTER(ctypes.c_int64)

# name: argument types (every one returns dnnl_status_t unless listed in _RESULTS).
_FUNCTIONS = {
    "dnnl_engine_create": (_PP, _I, ctypes.c_size_t),
    "dnnl_stream_create": (_PP, _P, _U),
    "dnnl_stream_wait": (_P,),
    "dnnl_stream_destroy": (_P,),
    "dnnl_memory_desc_create_with_strides": (_PP, _I, _DIMS, _I, _DIMS),
    "dnnl_memory_desc_create_with_tag": (_PP, _I, _DIMS, _I, _I),
    "dnnl_memory_desc_destroy": (_P,),
    "dnnl_memory_desc_get_size": (_P,),
    "dnnl_memory_desc_equal": (_P, _P),
    "dnnl_memory_create": (_PP, _P, _P, _P),
    "dnnl_memory_set_data_handle": (_P, _P),
    "dnnl_memory_destroy": (_P,),
    "dnnl_primitive_attr_create": (_PP,),
    "dnnl_primitive_attr_destroy": (_P,),
    "dnnl_primitive_attr_set_post_ops": (_P, _P),
    "dnnl_primitive_attr_set_scratchpad_mode": (_P, _I),
    "dnnl_post_ops_create": (_PP,),
    "dnnl_post_ops_destroy": (_P,),
    "dnnl_post_ops_append_eltwise": (_P, _I, _F, _F),
    "dnnl_post_ops_append_binary": (_P, _I, _P),
    "dnnl_primitive_desc_query": (_P, _I, _I, _P),
    "dnnl_primitive_desc_query_md": (_P, _I, _I),
    "dnnl_primitive_desc_destroy": (_P,),
    "dnnl_primitive_create": (_PP, _P),
    "dnnl_primitive_execute": (_P, _P, _I, ctypes.POINTER(ExecArg)),
    "dnnl_primitive_destroy": (_P,),
    "dnnl_reorder_primitive_desc_create": (_PP, _P, _P, _P, _P, _P),
    "dnnl_convolution_forward_primitive_desc_create":
        (_PP, _P, _I, _I, _P, _P, _P, _P, _DIMS, _DIMS, _DIMS, _DIMS, _P),
    "dnnl_convolution_backward_data_primitive_desc_create":
        (_PP, _P, _I, _P, _P, _P, _DIMS, _DIMS, _DIMS, _DIMS, _P, _P),
    "dnnl_convolution_backward_weights_primitive_desc_create":
        (_PP, _P, _I, _P, _P, _P, _P, _DIMS, _DIMS, _DIMS, _DIMS, _P, _P),
    "dnnl_deconvolution_forward_primitive_desc_create":
        (_PP, _P, _I, _I, _P, _P, _P, _P, _DIMS, _DIMS, _DIMS, _DIMS, _P),
    "dnnl_deconvolution_backward_data_primitive_desc_create":
        (_PP, _P, _I, _P, _P, _P, _DIMS, _DIMS, _DIMS, _DIMS, _P, _P),
    "dnnl_deconvolution_backward_weights_primitive_desc_create":
        (_PP, _P, _I, _P, _P, _P, _P, _DIMS, _DIMS, _DIMS, _DIMS, _P, _P),
    "dnnl_pooling_forward_primitive_desc_create":
        (_PP, _P, _I, _I, _P, _P, _DIMS, _DIMS, _DIMS, _DIMS, _DIMS, _P),
    "dnnl_pooling_backward_primitive_desc_create":
        (_PP, _P, _I, _P, _P, _DIMS, _DIMS, _DIMS, _DIMS, _DIMS, _P, _P),
    "dnnl_batch_normalization_forward_primitive_desc_create": (_PP, _P, _I, _P, _P, _F, _U, _P),
    "dnnl_batch_normalization_backward_primitive_desc_create":
        (_PP, _P, _I, _P, _P, _P, _F, _U, _P, _P),
    "dnnl_layer_normalization_forward_primitive_desc_create":
        (_PP, _P, _I, _P, _P, _P, _F, _U, _P),
    "dnnl_layer_normalization_backward_primitive_desc_create":
        (_PP, _P, _I, _P, _P, _P, _P, _F, _U, _P, _P),
    "dnnl_lstm_forward_primitive_desc_create": (_PP, _P, _I, _I) + (_P,) * 11 + (_U, _P),
    "dnnl_lstm_backward_primitive_desc_create": (_PP, _P, _I, _I) + (_P,) * 22 + (_U, _P, _P),
    "dnnl_gru_forward_primitive_desc_create": (_PP, _P, _I, _I) + (_P,) * 7 + (_U, _P),
    "dnnl_gru_backward_primitive_desc_create": (_PP, _P, _I, _I) + (_P,) * 14 + (_U, _P, _P),
    "dnnl_lbr_gru_forward_primitive_desc_create": (_PP, _P, _I, _I) + (_P,) * 7 + (_U, _P),
    "dnnl_lbr_gru_backward_primitive_desc_create": (_PP, _P, _I, _I) + (_P,) * 14 + (_U, _P, _P),
    "dnnl_vanilla_rnn_forward_primitive_desc_create":
        (_PP, _P, _I, _I, _I) + (_P,) * 7 + (_U, _F, _F, _P),
    "dnnl_vanilla_rnn_backward_primitive_desc_create":
        (_PP, _P, _I, _I, _I) + (_P,) * 14 + (_U, _F, _F, _P, _P),
    "dnnl_binary_primitive_desc_create": (_PP, _P, _I, _P, _P, _P, _P),
    "dnnl_eltwise_forward_primitive_desc_create": (_PP, _P, _I, _I, _P, _P, _F, _F, _P),
    "dnnl_matmul_primitive_desc_create": (_PP, _P, _P, _P, _P, _P, _P),
    "dnnl_inner_product_forward_primitive_desc_create": (_PP, _P, _I, _P, _P, _P, _P, _P),
    "dnnl_set_verbose": (_I,),
    "dnnl_primitive_desc_next_impl": (_P,),
}
_RESULTS = {"dnnl_memory_desc_get_size": ctypes.c_size_t, "dnnl_memory_desc_equal": _I,
            "dnnl_primitive_desc_query_md": _P}
# Called on every execution: their status is checked by the caller, since a
# ctypes `errcheck` callback would double the cost of each call.
UNCHECKED = ("dnnl_memory_set_data_handle", "dnnl_primitive_execute", "dnnl_stream_wait",
             "dnnl_primitive_desc_next_impl")  # (its "last implementation" is no error)


def check(result, name):
    """Raises the error of status `result` returned by function `name`."""
    if result != SUCCESS:
        raise (Unsupported if result == UNIMPLEMENTED else DnnlError)(name, result)
    return result


def _check(result, function, arguments):
    return check(result, function.__name__)


def _candidates():
    """Paths to try for libdnnl, the override first."""
    import importlib.metadata  # only when loading: importing it costs tens of milliseconds
    override = os.environ.get("EAGERFLOW_ONEDNN_LIBRARY")
    if override:
        return [override]
    paths = []
    try:
        for file in importlib.metadata.files("onednn-cpu-gomp") or ():
            if file.name == "libdnnl.so.3":
                paths.append(str(file.locate()))
    except importlib.metadata.PackageNotFoundError:
        pass
    return paths + [os.path.join(sys.prefix, "lib", "libdnnl.so.3"), "libdnnl.so.3"]


def load():
    """The loaded library with every function declared; raises OSError when absent."""
    # GNU OpenMP reads its wait policy once, when it loads: passive waiting
    # keeps its idle threads from spinning against NumPy's BLAS threads. A short spin
    # first (3000 turns, tens of microseconds) keeps them awake across the back-to-back
    # primitives of a step, which otherwise each pay a futex wake-up (measured: a CNN
    # training step 10% faster on two cores), and still yields a busy machine at once.
    os.environ.setdefault("OMP_WAIT_POLICY", "passive")
    os.environ.setdefault("GOMP_SPINCOUNT", "3000")
    errors = []
    for path in _candidates():
        try:
            lib = ctypes.CDLL(path)
            break
        except OSError as error:
            errors.append(str(error))
    else:
        raise OSError("; ".join(errors) or "libdnnl.so.3 not found")
    for name, argtypes in _FUNCTIONS.items():
        function = getattr(lib, name)
        function.argtypes = argtypes
        function.restype = _RESULTS.get(name, ctypes.c_int)
        if name not in _RESULTS and name not in UNCHECKED:
            function.errcheck = _check
    return lib


def expected():
    """True where the wheel exists, so that a missing library deserves a warning."""
    import platform
    return sys.platform.startswith("linux") and platform.machine() in ("x86_64", "AMD64")

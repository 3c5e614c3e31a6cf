"""Array modules: NumPy for the host, CuPy for CUDA devices (when present)."""
import functools
import warnings

import numpy

# Kernels follow IEEE semantics silently (log(0) = -inf, x / 0 = inf), as TF
# does; NumPy's floating-point warnings raised from this package's kernels are
# dropped here, without touching the user's own NumPy error settings.
warnings.filterwarnings("ignore", category=RuntimeWarning, module=r"eagerflow\._src\.")

numpy_module = numpy


def quiet(kernel):
    """`kernel` run with NumPy's floating-point warnings off.

    For kernels that call NumPy's Python-level functions (``linalg``, ``fft``, ``einsum``,
    ``cross``): their warnings come from NumPy's own modules, which the filter above can't
    tell from the user's calls of the same functions.

    >>> quiet(lambda x: numpy.exp(x))(numpy.float32(100.0))
    np.float32(inf)
    """
    @functools.wraps(kernel)
    def run(*args, **kwargs):
        with numpy.errstate(all="ignore"):
            return kernel(*args, **kwargs)
    return run



def xp_for_device(device_name):
    """The array module (``xp``) whose kernels run on `device_name`."""
    if ":GPU:" not in device_name:
        return numpy
    import cupy  # only reached when a GPU was found, see devices._gpu_count
    return cupy


def is_array(value):
    """True for arrays and array scalars of a backend library."""
    return (isinstance(value, (numpy.ndarray, numpy.generic))
            or hasattr(value, "__cuda_array_interface__"))


def to_host(array):
    """A NumPy view or copy of `array` (no copy for NumPy arrays)."""
    if isinstance(array, (numpy.ndarray, numpy.generic)):
        return array
    get = getattr(array, "get", None)  # CuPy arrays copy to the host with .get()
    return get() if get is not None else numpy.asarray(array)

"""`InputSpec`: what a layer accepts (rank, dtype, fixed axes), checked on every call.

>>> spec = tf.keras.layers.InputSpec(min_ndim=2, axes={-1: 4})
>>> assert_input_compatibility([spec], [tf.TensorSpec([None, 4])], "dense")
>>> assert_input_compatibility([spec], [tf.TensorSpec([2, 5])], "dense")
Traceback (most recent call last):
  ...
ValueError: Input 0 of layer "dense" is incompatible with the layer: expected axis -1 of input shape to have value 4, but received input with shape (2, 5)
"""
from eagerflow._src.backend.api_export import export
from eagerflow._src.core import dtypes as _dtypes
from eagerflow._src.core import nest
from eagerflow._src.core.tensor_shape import TensorShape


@export("keras.layers.InputSpec")
class InputSpec:
    """The rank, dtype and known axis sizes a layer expects of one input."""

    def __init__(self, dtype=None, shape=None, ndim=None, max_ndim=None, min_ndim=None,
                 axes=None, allow_last_axis_squeeze=False, name=None, optional=False):
        self.dtype = _dtypes.as_dtype(dtype).name if dtype is not None else None
        shape = TensorShape(shape)
        if shape.rank is None:
            self.shape = None
        else:
            self.shape = tuple(shape.as_list())
            ndim = shape.rank
        self.ndim, self.max_ndim, self.min_ndim = ndim, max_ndim, min_ndim
        self.name = name
        self.optional = optional  # (the input may be None)
        self.allow_last_axis_squeeze = allow_last_axis_squeeze
        try:
            self.axes = {int(k): v for k, v in (axes or {}).items()}
        except (ValueError, TypeError):
            raise TypeError(f"Argument `axes` must be a dict with integer keys. "
                            f"Received: axes={axes}") from None
        if self.axes and (ndim is not None or max_ndim is not None):
            max_dim = (ndim if ndim is not None else max_ndim) - 1
            if max(self.axes) > max_dim:
                raise ValueError(f"Axis {max(self.axes)} is greater than the maximum allowed "
                                 f"value: {max_dim}")

    def __repr__(self):
        parts = [f"{k}={v}" for k, v in (("dtype", self.dtype), ("shape", self.shape),
                                          ("ndim", self.ndim), ("max_ndim", self.max_ndim),
                                          ("min_ndim", self.min_ndim), ("axes", self.axes))
                 if v]
        return f"InputSpec({', '.join(parts)})"

    def get_config(self):
        return {"dtype": self.dtype, "shape": self.shape, "ndim": self.ndim,
                "max_ndim": self.max_ndim, "min_ndim": self.min_ndim, "axes": self.axes}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


def assert_input_compatibility(input_spec, inputs, layer_name):
    """Raises ValueError naming `layer_name` when one of `inputs` breaks its spec.

    A dict of inputs is matched to the specs by name when every spec has one.
    """
    if not input_spec:
        return
    specs = nest.flatten(input_spec)
    if isinstance(inputs, dict) and all(spec.name for spec in specs):
        names = [spec.name for spec in specs]
        missing = [name for name in names if name not in inputs]
        if missing:
            raise ValueError(f'Missing data for input "{missing[0]}". You passed a data '
                             f"dictionary with keys {list(inputs)}. Expected the following "
                             f"keys: {names}")
        inputs = [inputs[name] for name in names]
    inputs = nest.flatten(inputs)
    optional = {i for i, spec in enumerate(specs) if spec is not None and spec.optional}
    for i, x in enumerate(inputs):
        if x is None and i in optional:
            continue
        if not hasattr(x, "shape"):
            raise TypeError(f"Inputs to a layer should be tensors. Got '{x}' (of type "
                            f"{type(x)}) as input for layer '{layer_name}'.")
    if len(inputs) != len(specs):
        raise ValueError(f'Layer "{layer_name}" expects {len(specs)} input(s), but it '
                         f"received {len(inputs)} input tensors. Inputs received: {inputs}")
    for index, (spec, x) in enumerate(zip(specs, inputs)):
        if spec is not None and x is not None:
            _check(spec, TensorShape(x.shape), x.dtype,
                   f'Input {index} of layer "{layer_name}" is incompatible with the layer: ')


def _check(spec, shape, dtype, prefix):
    rank = shape.rank
    if rank is None:
        return
    if spec.ndim is not None and not spec.allow_last_axis_squeeze and rank != spec.ndim:
        raise ValueError(f"{prefix}expected ndim={spec.ndim}, found ndim={rank}. "
                         f"Full shape received: {_shape_str(shape)}")
    if spec.max_ndim is not None and rank > spec.max_ndim:
        raise ValueError(f"{prefix}expected max_ndim={spec.max_ndim}, found ndim={rank}")
    if spec.min_ndim is not None and rank < spec.min_ndim:
        raise ValueError(f"{prefix}expected min_ndim={spec.min_ndim}, found ndim={rank}. "
                         f"Full shape received: {_shape_str(shape)}")
    if spec.dtype is not None and _dtypes.as_dtype(dtype).name != spec.dtype:
        raise ValueError(f"{prefix}expected dtype={spec.dtype}, found "
                         f"dtype={_dtypes.as_dtype(dtype)}")
    dims = shape.as_list()
    for axis, value in spec.axes.items():
        if value is not None and -rank <= axis < rank and dims[axis] not in (value, None):
            raise ValueError(f"{prefix}expected axis {axis} of input shape to have value "
                             f"{value}, but received input with shape {_shape_str(shape)}")
    if spec.shape is not None:
        wanted = list(spec.shape)
        if spec.allow_last_axis_squeeze:  # (batch, n, 1) and (batch, n) are taken as alike
            dims = dims[:-1] if dims and dims[-1] == 1 else dims
            wanted = wanted[:-1] if wanted and wanted[-1] == 1 else wanted
        for want, got in zip(wanted, dims):
            if want is not None and got is not None and want != got:
                raise ValueError(f"{prefix}expected shape={spec.shape}, found "
                                 f"shape={_shape_str(shape)}")


def _shape_str(shape):
    return str(tuple(shape.as_list())) if shape.rank is not None else "None"

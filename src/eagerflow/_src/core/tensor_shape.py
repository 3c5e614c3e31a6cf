"""`TensorShape`: possibly-partial shapes, with unknown dimensions as ``None``.

>>> s = tf.TensorShape([None, 3])
>>> s.merge_with([2, None])
TensorShape([2, 3])
>>> print(s)
(None, 3)
"""

import sys

from eagerflow._src.backend.api_export import export

# TF 1's shapes (`disable_v2_tensorshape`, which `disable_v2_behavior` calls): a shape's
# dims, indexed or iterated by the program, are `Dimension`s, and shapes print as
# ``(?, 3)``. eagerflow's own code goes on seeing ints and None.
_v1_shapes = False


def _for_program():
    """Whether the caller of the caller is the program (not eagerflow), in TF 1's mode."""
    return _v1_shapes and not sys._getframe(2).f_globals.get("__name__", "").startswith(
        "eagerflow.")


@export("compat.v1.enable_v2_tensorshape")
def enable_v2_tensorshape():
    """TF 2's shapes: dims are ints or None; shapes print as ``(None, 3)``."""
    global _v1_shapes
    _v1_shapes = False


@export("compat.v1.disable_v2_tensorshape")
def disable_v2_tensorshape():
    """TF 1's shapes: ``shape[i]`` and iteration give `Dimension`s (``.value``), and shapes
    print as ``(?, 3)`` (``TensorShape([Dimension(None), Dimension(3)])``)."""
    global _v1_shapes
    _v1_shapes = True


def _dim_operand(other):
    try:
        return as_dimension(other)
    except (TypeError, ValueError):
        return None


def _arith(fn, symbol):
    def forward(self, other):
        other = _dim_operand(other)
        if other is None:
            return NotImplemented
        if self._value is None or other._value is None:
            return Dimension(None)
        return Dimension(fn(self._value, other._value))

    def backward(self, other):
        other = _dim_operand(other)
        if other is None:
            return NotImplemented
        return forward(other, self)
    forward.__name__, backward.__name__ = f"__{symbol}__", f"__r{symbol}__"
    return forward, backward


def _compare(fn):
    def compare(self, other):
        other = _dim_operand(other)
        if other is None:
            return NotImplemented
        if self._value is None or other._value is None:
            return None
        return fn(self._value, other._value)
    return compare


@export("compat.v1.Dimension")
class Dimension:
    """One dimension of a `TensorShape` (``compat.v1.Dimension``): an int or None."""

    __slots__ = ("_value",)

    def __init__(self, value):
        if isinstance(value, Dimension):
            value = value._value
        elif value is not None:
            if hasattr(value, "__index__"):
                value = value.__index__()
            else:
                raise TypeError(f"Dimension value must be integer or None or have an __index__ "
                                f"method, got value '{value!r}' with type '{type(value)}'")
            if value < 0:
                raise ValueError(f"Dimension {value} must be >= 0")
        self._value = value

    value = property(lambda self: self._value)

    def is_compatible_with(self, other):
        other = as_dimension(other)
        return self._value is None or other._value is None or self._value == other._value

    def merge_with(self, other):
        other = as_dimension(other)
        if not self.is_compatible_with(other):
            raise ValueError(f"Dimensions {self} and {other} are not compatible")
        return Dimension(self._value if self._value is not None else other._value)

    def __eq__(self, other):
        try:
            other = as_dimension(other)
        except (TypeError, ValueError):
            return NotImplemented
        if self._value is None or other._value is None:
            return None
        return self._value == other._value

    def __hash__(self):
        return hash(self._value)

    def __ne__(self, other):
        equal = self.__eq__(other)
        return equal if equal is None or equal is NotImplemented else not equal

    def __int__(self):
        return self._value

    __index__ = __int__

    def __float__(self):
        return float(self._value)

    def __bool__(self):
        return bool(self._value)

    # TF 1's dimension arithmetic: unknown in, unknown out.
    __add__, __radd__ = _arith(lambda a, b: a + b, "add")
    __sub__, __rsub__ = _arith(lambda a, b: a - b, "sub")
    __mul__, __rmul__ = _arith(lambda a, b: a * b, "mul")
    __floordiv__, __rfloordiv__ = _arith(lambda a, b: a // b, "floordiv")
    __mod__, __rmod__ = _arith(lambda a, b: a % b, "mod")
    __lt__ = _compare(lambda a, b: a < b)
    __le__ = _compare(lambda a, b: a <= b)
    __gt__ = _compare(lambda a, b: a > b)
    __ge__ = _compare(lambda a, b: a >= b)

    def __truediv__(self, other):
        raise TypeError(f"unsupported operand type(s) for /: 'Dimension' and "
                        f"'{type(other).__name__}', please use // instead")

    def __rtruediv__(self, other):
        raise TypeError(f"unsupported operand type(s) for /: '{type(other).__name__}' and "
                        f"'Dimension', please use // instead")

    def __repr__(self):
        return f"Dimension({self._value!r})"

    def __str__(self):
        return "?" if self._value is None else str(self._value)


def as_dimension(value):
    return value if isinstance(value, Dimension) else Dimension(value)


def _dim_value(d):
    if d is None:
        return None
    if isinstance(d, Dimension):
        return d.value
    return Dimension(d).value


@export("TensorShape")
class TensorShape:
    """The static shape of a tensor: a tuple of ints/None, or unknown rank (`dims is None`)."""

    __slots__ = ("_dims",)

    def __init__(self, dims):
        if dims is None:
            self._dims = None
        elif isinstance(dims, TensorShape):
            self._dims = dims._dims
        elif isinstance(dims, (tuple, list)):
            self._dims = tuple(_dim_value(d) for d in dims)
        else:
            try:
                it = iter(dims)
            except TypeError:
                self._dims = (_dim_value(dims),)
            else:
                try:
                    self._dims = tuple(_dim_value(d) for d in it)
                except TypeError as e:
                    if not isinstance(dims, (str, bytes)):
                        raise
                    raise TypeError(  # (TF's message: a string iterates as its characters)
                        f"Failed to convert '{dims!r}' to a shape: '{dims[:1]!r}'could not be "
                        f"converted to a dimension. A shape should either be single dimension "
                        f"(e.g. 10), or an iterable of dimensions (e.g. [1, 10, None]).") from e

    @classmethod
    def _from_tuple(cls, dims):
        """Fast constructor from a tuple of ints (no validation)."""
        s = object.__new__(cls)
        s._dims = dims
        return s

    @property
    def rank(self):
        return None if self._dims is None else len(self._dims)

    ndims = rank

    @property
    def dims(self):
        return None if self._dims is None else [Dimension(d) for d in self._dims]

    def as_list(self):
        if self._dims is None:
            raise ValueError("as_list() is not defined on an unknown TensorShape.")
        return list(self._dims)

    def num_elements(self):
        if not self.is_fully_defined():
            return None
        n = 1
        for d in self._dims:
            n *= d
        return n

    def is_fully_defined(self):
        return self._dims is not None and None not in self._dims

    def assert_is_fully_defined(self):
        if not self.is_fully_defined():
            raise ValueError(f"Shape {self} is not fully defined")

    def is_compatible_with(self, other):
        other = as_shape(other)
        if self._dims is None or other._dims is None:
            return True
        if len(self._dims) != len(other._dims):
            return False
        return all(a is None or b is None or a == b for a, b in zip(self._dims, other._dims))

    def assert_is_compatible_with(self, other):
        if not self.is_compatible_with(other):
            raise ValueError(f"Shapes {self} and {other} are incompatible")

    def merge_with(self, other):
        """The most specific shape compatible with both; ValueError when incompatible."""
        other = as_shape(other)
        if self._dims is None:
            return other
        if other._dims is None:
            return self
        if not self.is_compatible_with(other):
            raise ValueError(f"Shapes {self} and {other} are not compatible")
        return TensorShape._from_tuple(tuple(a if a is not None else b
                                             for a, b in zip(self._dims, other._dims)))

    def most_specific_common_supertype(self, others):
        """The most specific shape each of `others` and this one fit (None when one is not a
        TensorShape)."""
        if any(not isinstance(o, TensorShape) for o in others):
            return None
        shape = self
        for o in others:
            shape = shape.most_specific_compatible_shape(o)
        return shape

    def as_proto(self):
        """This shape as a `TensorShapeProto` (-1 for unknown dimensions)."""
        from eagerflow._src.core.protos.tensors import shape_proto  # (protos import shapes)
        return shape_proto(self)

    def most_specific_compatible_shape(self, other):
        other = as_shape(other)
        if self._dims is None or other._dims is None or len(self._dims) != len(other._dims):
            return TensorShape(None)
        return TensorShape._from_tuple(tuple(a if a == b else None
                                             for a, b in zip(self._dims, other._dims)))

    def concatenate(self, other):
        other = as_shape(other)
        if self._dims is None or other._dims is None:
            return TensorShape(None)
        return TensorShape._from_tuple(self._dims + other._dims)

    def assert_same_rank(self, other):
        other = as_shape(other)
        if self.rank is not None and other.rank is not None and self.rank != other.rank:
            raise ValueError(f"Shapes {self} and {other} must have the same rank")

    def assert_has_rank(self, rank):
        if self.rank not in (None, rank):
            raise ValueError(f"Shape {self} must have rank {rank}")

    def with_rank(self, rank):
        if self._dims is None:
            return unknown_shape(rank)
        if len(self._dims) != rank:
            raise ValueError(f"Shape {self} must have rank {rank}")
        return self

    def with_rank_at_least(self, rank):
        if self.rank is not None and self.rank < rank:
            raise ValueError(f"Shape {self} must have rank at least {rank}")
        return self

    def with_rank_at_most(self, rank):
        if self.rank is not None and self.rank > rank:
            raise ValueError(f"Shape {self} must have rank at most {rank}")
        return self

    def is_subtype_of(self, other):
        other = as_shape(other)
        if other._dims is None:
            return True
        if self._dims is None or len(self._dims) != len(other._dims):
            return False
        return all(b is None or a == b for a, b in zip(self._dims, other._dims))

    def __len__(self):
        if self._dims is None:
            raise ValueError("Cannot take the length of shape with unknown rank.")
        return len(self._dims)

    def __bool__(self):
        return self._dims is not None

    def __iter__(self):
        if self._dims is None:
            raise ValueError("Cannot iterate over a shape with unknown rank.")
        if _v1_shapes and _for_program():
            return iter([Dimension(d) for d in self._dims])
        return iter(self._dims)

    def __getitem__(self, key):
        if self._dims is None:
            if isinstance(key, slice):
                return TensorShape(None)
            return Dimension(None) if _v1_shapes and _for_program() else None
        if isinstance(key, slice):
            return TensorShape._from_tuple(self._dims[key])
        if _v1_shapes and _for_program():
            return Dimension(self._dims[key])
        return self._dims[key]

    def __add__(self, other):
        return self.concatenate(other)

    def __radd__(self, other):
        return as_shape(other).concatenate(self)

    def __eq__(self, other):
        try:
            other = as_shape(other)
        except (TypeError, ValueError):
            return NotImplemented
        return self._dims == other._dims

    def __ne__(self, other):
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __hash__(self):
        return hash(self._dims)

    def __reduce__(self):
        return TensorShape, (None if self._dims is None else list(self._dims),)

    def __repr__(self):
        if self._dims is None:
            return "TensorShape(None)"
        if _v1_shapes:
            return f"TensorShape({[Dimension(d) for d in self._dims]!r})"
        return f"TensorShape({list(self._dims)!r})"

    def __str__(self):
        if self._dims is None:
            return "<unknown>"
        unknown = "?" if _v1_shapes else "None"
        if len(self._dims) == 1:
            return f"({unknown if self._dims[0] is None else self._dims[0]},)"
        return "(" + ", ".join(unknown if d is None else str(d) for d in self._dims) + ")"


def as_shape(shape):
    return shape if isinstance(shape, TensorShape) else TensorShape(shape)


def unknown_shape(rank=None):
    """A shape of unknown rank, or of known `rank` with every dimension unknown."""
    return TensorShape(None if rank is None else [None] * rank)

"""Attr values checked against what TF declares for its ops (`op_attr_table`).

`checked_attrs` is the one check: ``tf.raw_ops`` runs it on every call, and public functions
whose attrs TF's ops check (``tf.strings.length(unit=...)``) run it on theirs. A value not of
the attr's kind is TF's TypeError, as its Python wrappers raise it; a value the op does not
allow (a string not listed, a dtype not listed, an int or a list's length below its minimum)
is TF's InvalidArgumentError eagerly, or the error TF raises while it builds a graph.

>>> checked_attrs("StringLength", {"unit": b"UTF8_CHAR"})
{'unit': 'UTF8_CHAR'}
>>> checked_attrs("Split", {"num_split": 0})
Traceback (most recent call last):
    ...
eagerflow...InvalidArgumentError: Value for attr 'num_split' of 0 must be at least minimum 1...
"""
import numpy as np

from eagerflow._src.core import context
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import errors
from eagerflow._src.core.op_attr_table import ATTRS
from eagerflow._src.core.registry import attr_dtype_error

_KIND_NAMES = {"string": "string", "int": "int", "float": "float", "bool": "bool",
               "type": "DataType"}


def checked_attrs(op_name, attrs, python_name=None, name=None):
    """`attrs` (TF's names) as TF's op `op_name` takes them: each of a kind it declares made
    that kind (ints from numbers, dtypes from names, text from bytes), one given as None that
    has a default left out (the default applies), and checked against the allowed values
    and the minimum TF declares for it (see the module docstring). `python_name`: TF's
    Python function of the op, as its TypeError for a list attr names it; `name`: the op's
    name, as eager errors end with it.
    """
    declared = ATTRS.get(op_name)
    if not declared:
        return attrs
    out = {}
    for attr, value in attrs.items():
        spec = declared.get(attr)
        if spec is None:
            out[attr] = value
            continue
        kind, allowed, minimum, has_default = spec
        if value is None and has_default:
            continue
        if kind.startswith("list("):
            if not isinstance(value, (list, tuple)):
                raise TypeError(f"Expected list for '{attr}' argument to "
                                f"'{python_name or op_name}' Op, not {value!r}.")
            value = [_made(kind[5:-1], attr, v) for v in value]
            if minimum is not None and len(value) < minimum:
                raise _below_minimum(op_name, attr, len(value), minimum, name, True)
            for v in value if allowed is not None else ():
                _check_allowed(op_name, attr, kind[5:-1], v, allowed, name)
        else:
            value = _made(kind, attr, value)
            if minimum is not None and value < minimum:
                raise _below_minimum(op_name, attr, value, minimum, name, False)
            if allowed is not None:
                _check_allowed(op_name, attr, kind, value, allowed, name)
        out[attr] = value
    return out


def _made(kind, attr, value):
    """`value` made an attr of `kind` as TF's Python wrappers make it, or TF's TypeError."""
    made = None
    if kind == "string":
        if isinstance(value, (str, bytes)):
            made = value.decode() if isinstance(value, bytes) else value
    elif kind == "int":
        if not isinstance(value, str):
            try:
                made = int(value)
            except (TypeError, ValueError):
                pass
    elif kind == "float":
        if isinstance(value, (int, float, np.integer, np.floating)):
            made = float(value)
    elif kind == "bool":
        if isinstance(value, bool):
            made = value
    else:  # a dtype
        try:
            made = _d.as_dtype(value)
        except TypeError:
            pass
    if made is None:
        raise TypeError(f"Expected {_KIND_NAMES[kind]} for argument '{attr}' not {value!r}.")
    return made


def _building():
    return context.get().graph is not None


def _check_allowed(op_name, attr, kind, value, allowed, name):
    if kind == "type":
        if value.name not in allowed:
            error = attr_dtype_error(op_name, attr, value, [_d.as_dtype(a) for a in allowed],
                                     param=attr)
            raise error if _building() else _named(error, name)
    elif value not in allowed:
        listed = ", ".join(f'"{a}"' for a in allowed)
        if _building():
            raise ValueError(f"Attr '{attr}' of '{op_name}' Op passed string '{value}' not in: "
                             f"{listed}.")
        raise _eager_error(op_name, f"Value for attr '{attr}' of \"{value}\" is not in the list "
                                    f"of allowed values: {listed}", name)


def list_below_minimum(op_name, attr, length, minimum, name=None):
    """TF's error for list attr `attr` of `op_name` given `length` (< `minimum`) entries,
    for an attr inferred from the inputs (a list of their dtypes)."""
    return _below_minimum(op_name, attr, length, minimum, name, True)


def _below_minimum(op_name, attr, value, minimum, name, is_list):
    if _building():
        return ValueError(f"Attr '{attr}' of '{op_name}' Op passed "
                          f"{'list of length ' if is_list else ''}{value} less than minimum "
                          f"{minimum}.")
    return _eager_error(op_name, f"{'Length' if is_list else 'Value'} for attr '{attr}' of "
                                 f"{value} must be at least minimum {minimum}", name)


def _eager_error(op_name, text, name):
    return errors.before_kernel(errors.InvalidArgumentError(
        None, op_name, f"{text}\n\t; NodeDef: {{{{node {op_name}}}}}; Op<name={op_name}> "
                       f"[Op:{op_name}] name: {name or ''}"))


def _named(error, name):
    """An eager error of TF's form before a kernel runs, ending with the op's name."""
    return errors.before_kernel(type(error)(None, error.op, f"{error.message} name: {name or ''}"))

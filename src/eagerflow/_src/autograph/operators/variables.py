"""Stand-ins for variables that have no value yet, and the reads that check them.

Converted code binds every variable that control flow may modify to an
`Undefined` at the top of the function, so that the generated branch and loop
functions can declare it ``nonlocal``; reading it before a real value arrives
raises what Python raises.

>>> ld(Undefined("y"))
Traceback (most recent call last):
...
UnboundLocalError: cannot access local variable 'y' where it is not associated with a value
"""


class Undefined:
    """The value of variable `symbol_name` before it is assigned."""

    __slots__ = ("symbol_name",)

    def __init__(self, symbol_name):
        self.symbol_name = symbol_name

    def __repr__(self):
        return f"<undefined {self.symbol_name}>"


class UndefinedReturnValue:
    """The return value of a converted function before a ``return`` ran.

    `guarded` is True when every path through the function ends in a
    ``return``: a branch that has not returned yet will, later, so in graph
    control flow it may stand in a placeholder of the other branch's type.
    """

    __slots__ = ("guarded",)

    def __init__(self, guarded=False):
        self.guarded = guarded

    def __repr__(self):
        return "<no return value>"


def ld(value):
    """`value`, unless it is `Undefined` (then Python's UnboundLocalError)."""
    if type(value) is Undefined:
        raise UnboundLocalError(f"cannot access local variable '{value.symbol_name}' where it "
                                f"is not associated with a value")
    return value


def ldu(load, name):
    """``load()``, or `Undefined` where the attribute, item or name it reads does not exist
    yet (the state of an attribute or item that control flow may set)."""
    try:
        return load()
    except (NameError, AttributeError, KeyError, IndexError):
        return Undefined(name)


def set_composite(base, key, is_attribute, value):
    """``base.key = value`` (`is_attribute`) or ``base[key] = value``; an `Undefined` value
    removes an attribute or a dict's key instead, as before it was set."""
    if type(value) is Undefined:
        if is_attribute:
            if key in getattr(base, "__dict__", ()):
                delattr(base, key)
        elif isinstance(base, dict):
            base.pop(key, None)
    elif is_attribute:
        setattr(base, key, value)
    else:
        base[key] = value


def retval(value):
    """The converted function's result: None where no ``return`` ran, as in Python."""
    return None if type(value) is UndefinedReturnValue else value


def is_undefined(value):
    return type(value) in (Undefined, UndefinedReturnValue)

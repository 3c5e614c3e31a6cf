"""Fresh names for generated variables and functions, never clashing with the user's.

>>> import ast
>>> Namer(ast.parse("retval_ = 1")).new("retval_")
'retval__1'
"""
import ast


class Namer:
    """Hands out names unused in `tree` (each name once, unless `reuse`)."""

    def __init__(self, tree):
        self.used = set()
        for node in ast.walk(tree):
            for attr in ("id", "arg", "name"):
                value = getattr(node, attr, None)
                if isinstance(value, str):
                    self.used.add(value)
        self.fixed = {}

    def new(self, base):
        """A name starting with `base` that nothing else uses."""
        name, n = base, 0
        while name in self.used:
            n += 1
            name = f"{base}_{n}"
        self.used.add(name)
        return name

    def fixed_name(self, base):
        """The one name the generated code uses for `base` (helpers shadow each other freely)."""
        if base not in self.fixed:
            self.fixed[base] = self.new(base)
        return self.fixed[base]

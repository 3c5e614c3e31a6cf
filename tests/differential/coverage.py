"""Which public functions the sweep covers, measured against both libraries' namespaces."""
import inspect

# Namespaces swept ("" is the top level).  tf.random's seeded ops are left to
# tests/ops (their streams are compared there); stateless ones are swept.
NAMESPACES = ("", "math", "nn", "linalg", "bitwise", "strings", "signal", "random")


def public_names(lib, ns):
    """Public functions (not classes or modules) of `lib.<ns>`."""
    mod = lib
    for part in ns.split(".") if ns else []:
        mod = getattr(mod, part)
    out = []
    for n in dir(mod):
        if n.startswith("_"):
            continue
        obj = getattr(mod, n)
        if callable(obj) and not inspect.isclass(obj):
            out.append(n)
    return sorted(out)


def paths(lib_names):
    """Dotted paths from {namespace: [names]}."""
    return {f"{ns}.{n}" if ns else n for ns, names in lib_names.items() for n in names}

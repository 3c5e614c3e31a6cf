"""Every op family, bound once all of them have loaded.

Op families import each other at module level only downwards (array_ops imports math_ops,
never the reverse), so there is no import cycle inside `ops/`. Where a family needs one above
it -- math_ops' gradients build on array_ops' `reshape`, slicing's on array_ops' `stack` --
it imports this module and names the other family when the code runs:
`late.array_ops.reshape(...)`. `eagerflow._src.ops` (the package's `__init__`) imports every
family and then sets this module's attributes, so they exist before any op runs; nothing may
use them while the families are still loading. `tests/ops/test_import_order.py` checks both
rules: no module-level import cycle in `ops/`, and no function-local import of a family.
"""

"""Keras's modules, bound once all of them have loaded.

Keras's modules import each other only downwards, in the order `eagerflow._src.keras`'s
docstring gives. The few places where a lower module needs a higher one at run time --
`Layer.add_metric` makes a `metrics.Mean`, `Model.save` calls `saving`, `Model(inputs,
outputs)` is a `Functional` -- name it through this module's attributes when the code runs
(`late.saving.saving_lib.save_model(...)`). `eagerflow._src.keras` (the package's `__init__`)
imports every module and then sets them, before any Keras code runs.
`tests/keras/test_import_order.py` checks the order.
"""

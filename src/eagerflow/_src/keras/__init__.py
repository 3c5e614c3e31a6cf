"""Keras (tf_keras / Keras 2 semantics) built on eagerflow's ops, tapes and `function`.

Keras's modules import each other only downwards, in this order (lowest first; a module
imports from its own tier and those below, never from one above):

1. settings and backend: `backend`
2. `utils`
3. what layers are configured with: `initializers`, `regularizers`, `constraints`,
   `activations`, `losses`
4. the parts of training that are not layers: `optimizers`, `callbacks`
5. `mixed_precision` (dtype policies; loss scaling wraps an optimizer)
6. the layer engine: `engine.base_layer`, `engine.input_spec`, `engine.keras_tensor`,
   `engine.input_layer`, `engine.data_adapter`
7. `layers`, and `metrics` (a metric is a layer)
8. models: `engine.training`, `engine.functional`, `engine.sequential`,
   `engine.compile_utils`, `models`, `premade_models` (`LinearModel`, `WideDeepModel`)
9. `saving`, `datasets`, `preprocessing` (legacy NumPy image augmentation)
10. `applications` (models built from layers, loading weights files)

Where a lower module needs a higher one when it runs (`Layer.add_metric` makes a metric,
`Model.save` saves), it names it through `late`, which this package fills below once every
module has loaded. `tests/keras/test_import_order.py` checks the order.
"""
from eagerflow._src.keras import (  # every tier, lowest first
    backend, utils, initializers, regularizers, constraints, activations, losses, optimizers,
    callbacks, mixed_precision, engine, layers, metrics, models, premade_models, saving,
    datasets, applications)
from eagerflow._src.keras.engine import functional, sequential, training  # noqa: F401
from eagerflow._src.keras.layers import tf_op_layers  # noqa: F401
from eagerflow._src.keras.saving import (  # noqa: F401
    export_lib, pickle_utils, saving_lib, weights)
from eagerflow._src.backend.api_export import export
from eagerflow._src.keras import late

for _module in (backend, utils, initializers, regularizers, constraints, activations, losses,
                optimizers, callbacks, mixed_precision, engine, layers, metrics, models,
                premade_models, saving, datasets):
    setattr(late, _module.__name__.rpartition(".")[2], _module)
del _module

__version__ = "2.21.0"
export("keras.__version__").export_constant(__name__, "__version__")

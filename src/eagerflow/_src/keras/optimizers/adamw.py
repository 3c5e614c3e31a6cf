"""AdamW (``tf.keras.optimizers.AdamW``): Adam with decoupled weight decay.

>>> opt = tf.keras.optimizers.AdamW(learning_rate=0.1, weight_decay=0.5)
>>> var = tf.Variable(1.0)
>>> int(opt.apply_gradients([(tf.constant(0.0), var)]))
1
>>> float(var)
0.949999988079071
"""
from eagerflow._src.backend.api_export import export
from eagerflow._src.keras.optimizers.adam import Adam


@export("keras.optimizers.AdamW", "keras.optimizers.experimental.AdamW")
class AdamW(Adam):
    """Adam whose step first shrinks each variable: ``var -= lr * weight_decay * var``
    (Loshchilov & Hutter). `exclude_from_weight_decay` exempts variables (biases, norms).

    >>> opt = tf.keras.optimizers.AdamW(weight_decay=0.004)
    >>> opt.weight_decay
    0.004
    """

    def __init__(self, learning_rate=0.001, weight_decay=0.004, beta_1=0.9, beta_2=0.999,
                 epsilon=1e-7, amsgrad=False, clipnorm=None, clipvalue=None,
                 global_clipnorm=None, use_ema=False, ema_momentum=0.99,
                 ema_overwrite_frequency=None, jit_compile=True, name="AdamW", **kwargs):
        super().__init__(learning_rate, beta_1, beta_2, epsilon, amsgrad=amsgrad,
                         weight_decay=weight_decay, clipnorm=clipnorm, clipvalue=clipvalue,
                         global_clipnorm=global_clipnorm, use_ema=use_ema,
                         ema_momentum=ema_momentum,
                         ema_overwrite_frequency=ema_overwrite_frequency,
                         jit_compile=jit_compile, name=name, **kwargs)
        if weight_decay is None:
            raise ValueError("Missing value of `weight_decay` which is required and must be a "
                             "float value.")

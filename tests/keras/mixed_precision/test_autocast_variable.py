"""The weights of layers under a mixed policy (AutoCastVariable), as Keras shows them."""
import eagerflow as tf


def test_autocast_variable_repr_names_the_dtype_reads_are_cast_to():
    tf.keras.mixed_precision.set_global_policy("mixed_float16")
    try:
        layer = tf.keras.layers.Dense(2, kernel_initializer="ones", name="k")
        layer(tf.ones((1, 1)))
    finally:
        tf.keras.mixed_precision.set_global_policy("float32")
    kernel = layer.kernel
    assert type(kernel).__name__ == "AutoCastVariable" and kernel.true_dtype == tf.float32
    assert repr(kernel) == ("<AutoCastVariable 'k/kernel:0' shape=(1, 2) dtype=float32 "
                            "dtype_to_cast_to=float32, numpy=array([[1., 1.]], "
                            "dtype=float32)>")
    assert str(kernel) == repr(kernel)

import functools

import numpy as np
import tensorflow as tf

# inverse windows where no frame covers a sample (a step as long as the frame)
signal = tf.constant(np.arange(1.0, 17.0, dtype=np.float32))
# (rounded: the FFTs round differently in the last bits)
print(np.round(tf.signal.inverse_stft_window_fn(10)(8, tf.float32).numpy(), 4))
print(np.round(tf.signal.inverse_stft(tf.signal.stft(signal, 8, 8), 8, 8,
                                      window_fn=tf.signal.inverse_stft_window_fn(8)), 4))
print(np.round(tf.signal.stft(signal, 8, 4, window_fn=functools.partial(
    tf.signal.hann_window, periodic=False)).numpy(), 3))


@tf.function(input_signature=[tf.TensorSpec([], tf.bool)])
def windows(periodic):
    return tf.signal.hann_window(6, periodic=periodic), tf.signal.hamming_window(6, periodic)


for periodic in (True, False):
    for w in windows(tf.constant(periodic)):
        print(w)

# half-precision ranges and filterbanks round each step as TF does
print(tf.linspace(tf.constant(0.1, tf.float16), tf.constant(0.7, tf.float16), 9))
print(tf.linspace(tf.constant(100.0, tf.bfloat16), tf.constant(2000.0, tf.bfloat16), 7))
print(tf.signal.linear_to_mel_weight_matrix(4, 9, 8000, 125.0, 3800.0, dtype=tf.float16))

# special functions at the edges of float32
print(tf.math.erfinv(tf.constant([0.99, 0.999, 0.9999, -0.999, 1.0, 1.5])))
x = tf.constant([88.7, 88.72284, 89.5, -89.5, np.inf])
print(tf.math.bessel_i0(x))
print(tf.math.bessel_i1(x))
print(tf.math.special.expint(x))
print(tf.math.bessel_i0(tf.constant([700.0, 709.0, 710.0], tf.float64)))

for bad in (lambda: tf.signal.overlap_and_add(tf.ones([3, 4]), 2.0),
            lambda: tf.signal.hann_window(6, periodic=[False]),
            lambda: tf.audio.decode_wav(tf.audio.encode_wav(tf.ones([2, 1]), 8000),
                                        desired_samples=[2])):
    try:
        bad()
    except (ValueError, TypeError) as e:
        print(type(e).__name__, e)

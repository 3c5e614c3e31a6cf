"""Writes the weights of CuDNNLSTM, CuDNNGRU and Bidirectional(CuDNNLSTM) models that the
cuDNN-conversion test loads into LSTM/GRU models; run by hand with TensorFlow + tf_keras:

    TF_USE_LEGACY_KERAS=1 python make_cudnn_data.py

It prints the predictions tf_keras makes for ``RandomState(1).rand(2, 5, 4)`` after loading
each file into the plain layers (the test's expected values).
"""
import os

import numpy as np
import tensorflow as tf

HERE = os.path.dirname(os.path.abspath(__file__))
layers = tf.keras.layers


def model(rnn):
    return tf.keras.Sequential([tf.keras.Input((5, 4)), rnn, layers.Dense(1, name="d")])


cudnn = tf.compat.v1.keras.layers
for name, saved, plain in [
        ("lstm", cudnn.CuDNNLSTM(3, name="rnn"), layers.LSTM(3, name="rnn")),
        ("gru", cudnn.CuDNNGRU(3, name="rnn"), layers.GRU(3, name="rnn", reset_after=True,
                                                         recurrent_activation="sigmoid")),
        ("bi", layers.Bidirectional(cudnn.CuDNNLSTM(3), name="bi"),
         layers.Bidirectional(layers.LSTM(3), name="bi"))]:
    source = model(saved)
    rs = np.random.RandomState(0)
    source.set_weights([rs.uniform(-.5, .5, w.shape).astype("float32")
                        for w in source.get_weights()])
    path = os.path.join(HERE, f"cudnn_{name}_w.h5")
    source.save_weights(path)
    target = model(plain)
    target.load_weights(path)
    print(name, target.predict(np.random.RandomState(1).rand(2, 5, 4).astype("float32"),
                               verbose=0).ravel().tolist())

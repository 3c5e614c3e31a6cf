"""Keras (tf_keras / Keras 2 semantics) built on eagerflow's ops, tapes and `function`."""

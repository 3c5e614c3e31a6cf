"""Differential sweep: eagerflow's public ops against values recorded from TensorFlow."""

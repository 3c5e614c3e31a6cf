"""Differential fidelity battery: TF2 programs whose output must equal TensorFlow's.

programs/<name>.py are plain TF2 programs; programs/<name>.expected hold their
output under TensorFlow (regenerate.py); test_programs.py runs them under
eagerflow (runner.py) and compares.
"""

# Rejection resampling (the tf.data guide's way of rebalancing classes), with seeds.
import numpy as np
import tensorflow as tf
labels = np.array([0] * 90 + [1] * 10, np.int32)
rng = np.random.default_rng(0); rng.shuffle(labels)
ds = tf.data.Dataset.from_tensor_slices((np.arange(100), labels))
res = ds.rejection_resample(lambda x, y: y, target_dist=[0.5, 0.5], initial_dist=[0.9, 0.1], seed=42)
print(res.element_spec)
out = list(res.take(20).as_numpy_iterator())
print([(int(c), int(d[0])) for c, d in out])
res2 = ds.rejection_resample(lambda x, y: y, target_dist=[0.5, 0.5], seed=7)
out = list(res2.take(20).as_numpy_iterator())
print([(int(c), int(d[0])) for c, d in out])
res3 = ds.map(lambda x, y: y).rejection_resample(lambda y: y, target_dist=[0.5, 0.5], initial_dist=[0.5, 0.5])
print(res3.element_spec, list(res3.take(3).as_numpy_iterator()))

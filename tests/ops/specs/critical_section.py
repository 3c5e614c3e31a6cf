"""Specs of the lock ops a `CriticalSection` runs its functions between."""
import eagerflow as tf
from tests.ops.spec import OpSpec, rand


def _doubled_in_section(x):
    return tf.CriticalSection().execute(lambda: x * 2)


SPECS = [OpSpec(name, _doubled_in_section, [rand(3, 2)], lambda x: x * 2, grad="a lock")
         for name in ("MutexLock", "ConsumeMutexLock")]

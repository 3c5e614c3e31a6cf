"""The devices this process runs on, as TF's ``device_lib.list_local_devices`` lists them
(``from tensorflow.python.client import device_lib``, the usual check for a GPU): the CPU.

>>> [d.device_type for d in list_local_devices()]
['CPU']
"""
from eagerflow._src.backend.api_export import export
from eagerflow._src.compat.session import _CPU_MEMORY_LIMIT, _INCARNATION
from eagerflow._src.core.protos.framework import DeviceAttributes, DeviceLocality


@export("python.client.device_lib.list_local_devices")
def list_local_devices(session_config=None):
    """`DeviceAttributes` messages of the local devices (`session_config` is accepted)."""
    del session_config
    return [DeviceAttributes(name="/device:CPU:0", device_type="CPU",
                             memory_limit=_CPU_MEMORY_LIMIT, locality=DeviceLocality(),
                             incarnation=_INCARNATION, xla_global_id=-1)]

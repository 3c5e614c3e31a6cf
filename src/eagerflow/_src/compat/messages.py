"""TF's graph messages as ``tf.compat.v1`` names them (``tf.compat.v1.GraphDef``).

Importing this module imports the protobuf runtime (see ``core.protos``).
"""
from eagerflow._src.backend.api_export import export
from eagerflow._src.core.protos.framework import AttrValue, GraphDef, NameAttrList, NodeDef
from eagerflow._src.core.protos.saved_model import MetaGraphDef, SaverDef

for _name in ("GraphDef", "NodeDef", "AttrValue", "NameAttrList"):
    export(f"compat.v1.{_name}").export_constant(__name__, _name)
del _name
export("compat.v1.MetaGraphDef").export_constant(__name__, "MetaGraphDef")
export("compat.v1.train.SaverDef").export_constant(__name__, "SaverDef")
__all__ = ["AttrValue", "GraphDef", "MetaGraphDef", "NameAttrList", "NodeDef", "SaverDef"]

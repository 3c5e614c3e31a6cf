"""A SavedModel's ``fingerprint.pb``, as TensorFlow 2.21 writes it, and the hash it is made of.

The hashes are FarmHash's 64-bit fingerprint (the ``na`` variant TF's
``Fingerprint64`` is), of: the `SavedModel` message serialized
deterministically as TF's C++ serializes it (``saved_model_checksum``); the
GraphDef with its function library and versions emptied, with the numbers that
end the names of the functions its call nodes call removed, and without the
values of its string constants (``graph_def_program_hash``); the SignatureDefs
by key (``signature_def_hash``); the concrete functions of the object graph by
their names' numbers (``saved_object_graph_hash``); and
``variables/variables.index`` (``checkpoint_hash``). Hashes are chained with
TF's ``FingerprintCat64``. TF computes the same five values of a SavedModel
written here.

>>> fingerprint64(b"")
11160318154034397263
>>> fingerprint64(b"hello") == fingerprint64(b"hello") != fingerprint64(b"hellp")
True
"""
import os
import re
import secrets

from eagerflow._src.backend.api_export import export
from eagerflow._src.backend.wire import varint as _varint
from eagerflow._src.core.protos import saved_model as pb
from eagerflow._src.ops import file_system

_MASK = (1 << 64) - 1
_K0 = 0xC3A5C85C97CB3127
_K1 = 0xB492B66FBE98F273
_K2 = 0x9AE16A3B2F90404F
_MUL = 0x9DDFEA08EB382D69
_CAT_MUL = 0xC6A4A7935BD1E995
# The version of the fingerprint's definition whose hashes are the ones above (TF 2.21's)
PRODUCER = 4


def _fetch64(data, i):
    return int.from_bytes(data[i:i + 8], "little")


def _fetch32(data, i):
    return int.from_bytes(data[i:i + 4], "little")


def _rotate(value, shift):
    return ((value >> shift) | (value << (64 - shift))) & _MASK if shift else value


def _shift_mix(value):
    return value ^ (value >> 47)


def _hash16(u, v, mul=_MUL):
    a = ((u ^ v) * mul) & _MASK
    a ^= a >> 47
    b = ((v ^ a) * mul) & _MASK
    b ^= b >> 47
    return (b * mul) & _MASK


def _hash0to16(data, n):
    if n >= 8:
        mul = _K2 + n * 2
        a = (_fetch64(data, 0) + _K2) & _MASK
        b = _fetch64(data, n - 8)
        c = (_rotate(b, 37) * mul + a) & _MASK
        d = ((_rotate(a, 25) + b) * mul) & _MASK
        return _hash16(c, d, mul)
    if n >= 4:
        mul = _K2 + n * 2
        a = _fetch32(data, 0)
        return _hash16((n + (a << 3)) & _MASK, _fetch32(data, n - 4), mul)
    if n:
        y = data[0] + (data[n >> 1] << 8)
        z = n + (data[n - 1] << 2)
        return (_shift_mix(((y * _K2) ^ (z * _K0)) & _MASK) * _K2) & _MASK
    return _K2


def _hash17to32(data, n):
    mul = _K2 + n * 2
    a = (_fetch64(data, 0) * _K1) & _MASK
    b = _fetch64(data, 8)
    c = (_fetch64(data, n - 8) * mul) & _MASK
    d = (_fetch64(data, n - 16) * _K2) & _MASK
    return _hash16((_rotate((a + b) & _MASK, 43) + _rotate(c, 30) + d) & _MASK,
                   (a + _rotate((b + _K2) & _MASK, 18) + c) & _MASK, mul)


def _hash33to64(data, n):
    mul = _K2 + n * 2
    a = (_fetch64(data, 0) * _K2) & _MASK
    b = _fetch64(data, 8)
    c = (_fetch64(data, n - 8) * mul) & _MASK
    d = (_fetch64(data, n - 16) * _K2) & _MASK
    y = (_rotate((a + b) & _MASK, 43) + _rotate(c, 30) + d) & _MASK
    z = _hash16(y, (a + _rotate((b + _K2) & _MASK, 18) + c) & _MASK, mul)
    e = (_fetch64(data, 16) * mul) & _MASK
    f = _fetch64(data, 24)
    g = ((y + _fetch64(data, n - 32)) * mul) & _MASK
    h = ((z + _fetch64(data, n - 24)) * mul) & _MASK
    return _hash16((_rotate((e + f) & _MASK, 43) + _rotate(g, 30) + h) & _MASK,
                   (e + _rotate((f + a) & _MASK, 18) + g) & _MASK, mul)


def _weak32(data, i, a, b):
    """FarmHash's 16-byte hash of the 32 bytes at `i` with seeds `a`, `b`."""
    w, x, y, z = (_fetch64(data, i + k) for k in (0, 8, 16, 24))
    a = (a + w) & _MASK
    b = _rotate((b + a + z) & _MASK, 21)
    c = a
    a = (a + x + y) & _MASK
    b = (b + _rotate(a, 44)) & _MASK
    return (a + z) & _MASK, (b + c) & _MASK


def fingerprint64(data):
    """TF's ``Fingerprint64`` of `data` (bytes-like): FarmHash's 64-bit hash."""
    data = bytes(data)
    n = len(data)
    if n <= 16:
        return _hash0to16(data, n)
    if n <= 32:
        return _hash17to32(data, n)
    if n <= 64:
        return _hash33to64(data, n)
    x = 81
    y = (81 * _K1 + 113) & _MASK
    z = (_shift_mix((y * _K2 + 113) & _MASK) * _K2) & _MASK
    v0 = v1 = w0 = w1 = 0
    x = (x * _K2 + _fetch64(data, 0)) & _MASK
    end = ((n - 1) // 64) * 64
    for s in range(0, end, 64):
        x = (_rotate((x + y + v0 + _fetch64(data, s + 8)) & _MASK, 37) * _K1) & _MASK
        y = (_rotate((y + v1 + _fetch64(data, s + 48)) & _MASK, 42) * _K1) & _MASK
        x ^= w1
        y = (y + v0 + _fetch64(data, s + 40)) & _MASK
        z = (_rotate((z + w0) & _MASK, 33) * _K1) & _MASK
        v0, v1 = _weak32(data, s, (v1 * _K1) & _MASK, (x + w0) & _MASK)
        w0, w1 = _weak32(data, s + 32, (z + w1) & _MASK, (y + _fetch64(data, s + 16)) & _MASK)
        z, x = x, z
    mul = _K1 + ((z & 0xFF) << 1)
    s = n - 64
    w0 = (w0 + ((n - 1) & 63)) & _MASK
    v0 = (v0 + w0) & _MASK
    w0 = (w0 + v0) & _MASK
    x = (_rotate((x + y + v0 + _fetch64(data, s + 8)) & _MASK, 37) * mul) & _MASK
    y = (_rotate((y + v1 + _fetch64(data, s + 48)) & _MASK, 42) * mul) & _MASK
    x ^= (w1 * 9) & _MASK
    y = (y + v0 * 9 + _fetch64(data, s + 40)) & _MASK
    z = (_rotate((z + w0) & _MASK, 33) * mul) & _MASK
    v0, v1 = _weak32(data, s, (v1 * mul) & _MASK, (x + w0) & _MASK)
    w0, w1 = _weak32(data, s + 32, (z + w1) & _MASK, (y + _fetch64(data, s + 16)) & _MASK)
    z, x = x, z
    return _hash16((_hash16(v0, w0, mul) + _shift_mix(y) * _K0 + z) & _MASK,
                   (_hash16(v1, w1, mul) + x) & _MASK, mul)


def fingerprint_cat64(first, second):
    """TF's ``FingerprintCat64``: the fingerprint of two fingerprints in order."""
    result = first ^ _CAT_MUL
    result ^= (_shift_mix((second * _CAT_MUL) & _MASK) * _CAT_MUL) & _MASK
    result = (result * _CAT_MUL) & _MASK
    result = (_shift_mix(result) * _CAT_MUL) & _MASK
    return _shift_mix(result)


_UID = re.compile(r"_(\d+)$")


def _suffix_uid(name):
    """The number ending a function's name (``__inference_f_12`` -> ``"12"``), or None."""
    found = _UID.search(name)
    return None if found is None else found.group(1)


def _is_map(field):
    return field.message_type is not None and field.message_type.GetOptions().map_entry


def _holds_maps(descriptor, seen=None):
    """Whether messages of `descriptor` hold a map field, at any depth."""
    seen = set() if seen is None else seen
    if descriptor.full_name in seen:
        return False
    seen.add(descriptor.full_name)
    return any(_is_map(field) or (field.message_type is not None and
                                  _holds_maps(field.message_type, seen))
               for field in descriptor.fields)


_HOLDS_MAPS = {}


def _map_key(key):
    """The order of a map's keys in TF's C++ serialization: ascending, strings bytewise (a
    prefix first)."""
    return key.encode("utf-8") if isinstance(key, str) else key


def _holds(descriptor):
    found = _HOLDS_MAPS.get(descriptor.full_name)
    if found is None:
        found = _HOLDS_MAPS[descriptor.full_name] = _holds_maps(descriptor)
    return found


def _plain(field, value):
    """Whether a set field serializes alike in both orders: no map of two entries or more,
    no message that may hold one."""
    if field.message_type is None:
        return True
    if not _is_map(field):
        return not _holds(field.message_type)
    value_type = field.message_type.fields_by_name["value"].message_type
    return len(value) < 2 and (value_type is None or not _holds(value_type))


def _serialized(message):
    """`message` serialized deterministically as TF's C++ serializes it. Python's protobuf
    (upb) orders a map's entries otherwise -- integer keys descending, a string key after
    the keys it is a prefix of (``AssignVariableOp_1`` before ``AssignVariableOp``) -- so
    messages holding maps are serialized field by field here, their maps' entries in C++'s
    order; the rest as Python serializes it."""
    holds = _holds(message.DESCRIPTOR)
    fields = message.ListFields()  # (in field number order)
    if not holds or all(_plain(field, value) for field, value in fields):
        return message.SerializeToString(deterministic=True)
    parts = []
    for field, value in fields:
        tag = _varint(field.number << 3 | 2)
        if _is_map(field):
            value_field = field.message_type.fields_by_name["value"]
            for key in sorted(value, key=_map_key):
                one = type(message)()
                if value_field.message_type is None:
                    getattr(one, field.name)[key] = value[key]
                    parts.append(one.SerializeToString(deterministic=True))
                    continue
                getattr(one, field.name)[key].SetInParent()  # (the key, an empty value)
                entry = one.SerializeToString(deterministic=True)[len(tag):]
                start = next(i for i, b in enumerate(entry) if b < 0x80) + 1  # (its length)
                key_part = entry[start:-2]  # (the key; then the empty value's 2 bytes)
                body = _serialized(value[key])
                body = key_part + b"\x12" + _varint(len(body)) + body
                parts.append(tag + _varint(len(body)) + body)
        elif field.message_type is not None:
            for item in (value if field.is_repeated else [value]):
                body = _serialized(item)
                parts.append(tag + _varint(len(body)) + body)
        else:
            one = type(message)()
            if field.is_repeated:
                getattr(one, field.name).extend(value)
            else:
                setattr(one, field.name, value)
            parts.append(one.SerializeToString(deterministic=True))
    return b"".join(parts)


def graph_def_program_hash(graph_def):
    """The hash of `graph_def`'s nodes, regularized: call nodes' functions without their
    numbers and ``config_proto``, string constants without their values; no library or
    versions."""
    graph = type(graph_def)()
    graph.node.extend(graph_def.node)
    # (TF clears the library and versions in place: present, empty)
    graph.library.SetInParent()
    graph.versions.SetInParent()
    for node in graph.node:
        if node.op in ("PartitionedCall", "StatefulPartitionedCall"):
            name = node.attr["f"].func.name
            uid = _suffix_uid(name)
            if uid is not None:
                node.attr["f"].func.name = name[:-len(uid)]
            if "config_proto" in node.attr:
                node.attr["config_proto"].s = b""
        if node.op == "Const" and node.attr["dtype"].type == 7:  # DT_STRING
            node.attr["value"].ClearField("value")
    return fingerprint64(_serialized(graph))


def signature_def_hash(signature_defs):
    result = 0
    for key in sorted(signature_defs):
        result = fingerprint_cat64(result, fingerprint64(key.encode("utf-8")))
        result = fingerprint_cat64(result, fingerprint64(_serialized(signature_defs[key])))
    return result


def saved_object_graph_hash(object_graph):
    """The hash of the concrete functions, in the order of their names' numbers."""
    by_uid = {}
    for name in object_graph.concrete_functions:
        uid = _suffix_uid(name)
        if uid is None:
            raise ValueError(f"Function name: `{name}` does not end in an integer.")
        by_uid.setdefault(int(uid), name)
    result = 0
    for uid, name in sorted(by_uid.items()):
        result = fingerprint_cat64(result, fingerprint64(name[:-len(str(uid))].encode("utf-8")))
        result = fingerprint_cat64(
            result, fingerprint64(_serialized(object_graph.concrete_functions[name])))
    return result


def fingerprint_def(export_dir, saved_model):
    """The `FingerprintDef` of the SavedModel `saved_model` written in `export_dir` (its
    variables included)."""
    meta = saved_model.meta_graphs[0]
    index = os.path.join(export_dir, "variables", "variables.index")
    try:
        with file_system.open_file(index, "rb") as f:
            checkpoint_hash = fingerprint64(f.read())
    except OSError:
        checkpoint_hash = 0
    out = pb.FingerprintDef(
        saved_model_checksum=fingerprint64(_serialized(saved_model)),
        graph_def_program_hash=graph_def_program_hash(meta.graph_def),
        signature_def_hash=signature_def_hash(meta.signature_def),
        saved_object_graph_hash=saved_object_graph_hash(meta.object_graph_def),
        checkpoint_hash=checkpoint_hash, uuid=f"{secrets.randbits(128):020d}")
    out.version.producer = PRODUCER
    return out


def write_fingerprint(export_dir, saved_model):
    """Writes ``fingerprint.pb`` of the SavedModel in `export_dir`."""
    with file_system.open_file(os.path.join(export_dir, "fingerprint.pb"), "wb") as f:
        f.write(fingerprint_def(export_dir, saved_model).SerializeToString())


@export("saved_model.experimental.Fingerprint")
class Fingerprint:
    """The fingerprint of a SavedModel (its ``fingerprint.pb``): hashes that identify it.

    >>> f = tf.saved_model.experimental.Fingerprint(1, 2, 3, 4, 5)
    >>> f.singleprint()
    '2/3/4/5'
    """

    def __init__(self, saved_model_checksum=None, graph_def_program_hash=None,
                 signature_def_hash=None, saved_object_graph_hash=None, checkpoint_hash=None,
                 version=None):
        self.saved_model_checksum = saved_model_checksum
        self.graph_def_program_hash = graph_def_program_hash
        self.signature_def_hash = signature_def_hash
        self.saved_object_graph_hash = saved_object_graph_hash
        self.checkpoint_hash = checkpoint_hash
        self.version = version

    _FIELDS = ("saved_model_checksum", "graph_def_program_hash", "signature_def_hash",
               "saved_object_graph_hash", "checkpoint_hash")

    @classmethod
    def from_proto(cls, proto):
        """The fingerprint a `FingerprintDef` message holds."""
        try:
            return cls(*(getattr(proto, name) for name in cls._FIELDS), version=proto.version)
        except AttributeError as e:
            raise ValueError(f"Given proto could not be deserialized as fingerprint.{e}") \
                from None

    def singleprint(self):
        """``graph_def_program_hash/signature_def_hash/saved_object_graph_hash/
        checkpoint_hash``: the hashes that ignore immaterial changes."""
        values = [self.graph_def_program_hash, self.signature_def_hash,
                  self.saved_object_graph_hash, self.checkpoint_hash]
        if not all(isinstance(v, int) and 0 <= v < 1 << 64 for v in values):
            raise ValueError(
                f"Encounted invalid fingerprint values when constructing singleprint."
                f"graph_def_program_hash: {values[0]}signature_def_hash: {values[1]}"
                f"saved_object_graph_hash: {values[2]}checkpoint_hash: {values[3]}")
        return "/".join(str(v) for v in values)

    def __eq__(self, other):
        if isinstance(other, Fingerprint):
            return all(getattr(self, n) == getattr(other, n) for n in self._FIELDS)
        return False

    __hash__ = None

    def __str__(self):
        lines = [f"  {name}: {getattr(self, name)}" for name in self._FIELDS]
        return "\n".join(["SavedModel Fingerprint", *lines])

    def __repr__(self):
        return f"Fingerprint({', '.join(str(getattr(self, n)) for n in self._FIELDS)})"


@export("saved_model.experimental.read_fingerprint")
def read_fingerprint(export_dir):
    """The `Fingerprint` of the SavedModel in `export_dir` (from its ``fingerprint.pb``).

    Raises FileNotFoundError when there is none, or it cannot be read.
    """
    export_dir = os.fspath(export_dir)
    path = os.path.join(export_dir, "fingerprint.pb")
    if not file_system.isfile(path):
        raise FileNotFoundError(f"SavedModel Fingerprint Error: Could not find fingerprint in "
                                f"directory: {export_dir}\nNOT_FOUND: {path} not found")
    try:
        with file_system.open_file(path, "rb") as f:
            proto = pb.FingerprintDef.FromString(f.read())
    except Exception as e:  # noqa: BLE001 (protobuf's DecodeError)
        raise FileNotFoundError(f"SavedModel Fingerprint Error: Could not read fingerprint "
                                f"from directory: {export_dir}: {e}") from None
    return Fingerprint.from_proto(proto)

"""A small FlatBuffers reader and writer driven by table descriptions.

A schema is a dict ``{table name: [(field name, kind, default), ...]}`` where a
field's id is its position in the list. Kinds: scalars (``"u8"``, ``"i8"``,
``"bool"``, ``"i16"``, ``"u16"``, ``"i32"``, ``"u32"``, ``"i64"``, ``"u64"``,
``"f32"``, ``"f64"``), ``"str"``, another table's name, vectors of either
(``"[i32]"``, ``"[Tensor]"``; a ``"[u8]"`` vector reads as a ``memoryview``
into the buffer, any other scalar vector as a NumPy array), and a union
``"union:TYPE_FIELD:UNION"``: its table is ``unions[UNION][value of TYPE_FIELD]``
(None when that number is not listed).

`read` turns a buffer into nested dicts (absent fields take their default);
`write` turns such dicts back into a buffer (fields equal to their default and
absent ones are left out, as FlatBuffers builders do).

>>> schema = {"Pair": [("a", "i32", 0), ("name", "str", None), ("xs", "[f32]", None)]}
>>> data = write(schema, "Pair", {"a": 7, "name": "p", "xs": [1.5, 2.0]}, b"TEST")
>>> pair = read(schema, "Pair", data)
>>> pair["a"], pair["name"], pair["xs"].tolist()
(7, 'p', [1.5, 2.0])
"""
import collections
import struct

import numpy as np

_SCALARS = {"u8": "<B", "i8": "<b", "bool": "<?", "i16": "<h", "u16": "<H", "i32": "<i",
            "u32": "<I", "i64": "<q", "u64": "<Q", "f32": "<f", "f64": "<d"}
_NUMPY = {k: np.dtype(v) for k, v in _SCALARS.items()}


def _is_vector(kind):
    return kind.startswith("[")


def _size(kind):
    """Bytes a field of `kind` takes inline in its table."""
    return struct.calcsize(_SCALARS[kind]) if kind in _SCALARS else 4


# -- reading --------------------------------------------------------------------------------

def read(schema, root, data, unions=None):
    """The root table `root` of the FlatBuffer `data`, as nested dicts."""
    view = memoryview(data).cast("B") if not isinstance(data, memoryview) else data
    if len(view) < 8:
        raise ValueError("The model is not a valid Flatbuffer buffer")
    pos, = struct.unpack_from("<I", view, 0)
    return _Reader(schema, view, unions or {}).table(root, pos)


class _Reader:
    def __init__(self, schema, view, unions):
        self.schema, self.view, self.unions = schema, view, unions

    def u32(self, pos):
        return struct.unpack_from("<I", self.view, pos)[0]

    def table(self, name, pos):
        view = self.view
        vtable = pos - struct.unpack_from("<i", view, pos)[0]
        vsize = struct.unpack_from("<H", view, vtable)[0]
        out = {}
        for i, (field, kind, default) in enumerate(self.schema[name]):
            slot = 4 + 2 * i
            offset = struct.unpack_from("<H", view, vtable + slot)[0] if slot < vsize else 0
            if not offset:
                out[field] = default
                continue
            at = pos + offset
            if kind in _SCALARS:
                out[field] = struct.unpack_from(_SCALARS[kind], view, at)[0]
            elif kind.startswith("union:"):
                _, type_field, union = kind.split(":")
                table = self.unions.get(union, {}).get(out[type_field])
                out[field] = None if table is None else self.table(table, at + self.u32(at))
            else:
                out[field] = self.value(kind, at + self.u32(at))
        return out

    def value(self, kind, pos):
        if kind == "str":
            n = self.u32(pos)
            return bytes(self.view[pos + 4:pos + 4 + n]).decode("utf-8", "replace")
        if not _is_vector(kind):
            return self.table(kind, pos)
        item, n = kind[1:-1], self.u32(pos)
        start = pos + 4
        if item == "u8":
            return self.view[start:start + n]
        if item in _SCALARS:
            return np.frombuffer(self.view, _NUMPY[item], n, start).copy()
        return [self.value(item, start + 4 * j + self.u32(start + 4 * j)) for j in range(n)]


# -- writing --------------------------------------------------------------------------------

def write(schema, root, value, identifier=b"", unions=None, byte_alignment=16):
    """The FlatBuffer of `value`, a dict of table `root`, with a 4-byte file `identifier`.

    Objects are laid out front to back, each child after the field that points
    to it (FlatBuffers' offsets run forward); ``[u8]`` vectors (tensor data)
    start at multiples of `byte_alignment`.
    """
    w = _Writer(schema, unions or {}, byte_alignment)
    w.buf += b"\0\0\0\0" + identifier.ljust(4, b"\0")[:4]
    w.pending.append((0, root, value))
    while w.pending:
        at, kind, item = w.pending.popleft()
        struct.pack_into("<I", w.buf, at, w.place(kind, item) - at)
    return bytes(w.buf)


class _Writer:
    def __init__(self, schema, unions, byte_alignment):
        self.schema, self.unions, self.byte_alignment = schema, unions, byte_alignment
        self.buf = bytearray()
        # (position of an offset to fill, kind, value), in layout order
        self.pending = collections.deque()

    def pad(self, alignment, ahead=0):
        """Zero bytes so that ``len(buf) + ahead`` is a multiple of `alignment`."""
        self.buf += b"\0" * (-(len(self.buf) + ahead) % alignment)

    def place(self, kind, value):
        """Lays out `value` at the end; its position."""
        if kind == "str":
            data = value.encode("utf-8") if isinstance(value, str) else bytes(value)
            self.pad(4)
            at = len(self.buf)
            self.buf += struct.pack("<I", len(data)) + data + b"\0"
            return at
        if _is_vector(kind):
            return self.vector(kind[1:-1], value)
        return self.table(kind, value)

    def vector(self, item, values):
        if item in _SCALARS:
            data = np.ascontiguousarray(values, _NUMPY[item]) if item != "u8" or \
                not isinstance(values, (bytes, bytearray, memoryview)) else values
            data = bytes(memoryview(data).cast("B")) if not isinstance(data, bytes) else data
            align = self.byte_alignment if item == "u8" else max(4, _NUMPY[item].itemsize)
            self.pad(align, 4)
            at = len(self.buf)
            self.buf += struct.pack("<I", len(data) // _NUMPY[item].itemsize) + data
            return at
        self.pad(4)
        at = len(self.buf)
        self.buf += struct.pack("<I", len(values)) + b"\0" * (4 * len(values))
        self.pending += [(at + 4 + 4 * j, item, v) for j, v in enumerate(values)]
        return at

    def table(self, name, value):
        fields = []   # (id, kind, value) of the fields written
        for i, (field, kind, default) in enumerate(self.schema[name]):
            v = value.get(field)
            if v is None or (kind in _SCALARS and v == default):
                continue
            if kind.startswith("union:"):
                _, type_field, union = kind.split(":")
                kind = self.unions[union][value[type_field]]
            fields.append((i, kind, v))
        # inline layout: the soffset, then fields by decreasing size, each aligned
        order = sorted(fields, key=lambda f: -_size(f[1]))
        offsets, end = {}, 4
        for i, kind, _ in order:
            size = _size(kind)
            end += -end % size
            offsets[i] = end
            end += size
        widest = max([_size(k) for _, k, _ in fields] + [4])
        nslots = max([i + 1 for i, _, _ in fields] + [0])
        vtable = struct.pack(f"<HH{nslots}H", 4 + 2 * nslots, end,
                             *[offsets.get(i, 0) for i in range(nslots)])
        self.pad(2)
        self.pad(widest, len(vtable))
        vt = len(self.buf)
        self.buf += vtable
        at = len(self.buf)
        self.buf += struct.pack("<i", at - vt) + b"\0" * (end - 4)
        for i, kind, v in order:
            if kind in _SCALARS:
                struct.pack_into(_SCALARS[kind], self.buf, at + offsets[i], v)
            else:
                self.pending.append((at + offsets[i], kind, v))
        return at

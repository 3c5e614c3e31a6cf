"""The safetensors file format, read and written with NumPy and `json` only.

A file is an 8-byte little-endian header length, a JSON header mapping each
tensor name to ``{"dtype", "shape", "data_offsets": [begin, end]}`` (offsets
into the data that follows, plus an optional ``"__metadata__"`` dict of
strings), then the tensors' raw little-endian C-order bytes. Files are
written atomically; reading checks every offset and length, so a truncated
or corrupt file is a `DataLossError` naming the problem, never garbage.

>>> import os, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), "w.safetensors")
>>> save_file({"w": np.arange(3, dtype="float32")}, path, {"format": "demo"})
>>> tensors, metadata = load_file(path)
>>> tensors["w"], metadata
(array([0., 1., 2.], dtype=float32), {'format': 'demo'})
"""
import json
import os

import ml_dtypes
import numpy as np

from eagerflow._src.core import errors
from eagerflow._src.ops import file_system

# safetensors' dtype names. The writer lays tensors out by decreasing item
# size, as the reference implementation does, so each stays aligned.
_DTYPES = {
    "BOOL": np.dtype(np.bool_), "U8": np.dtype("<u1"), "I8": np.dtype("<i1"),
    "U16": np.dtype("<u2"), "I16": np.dtype("<i2"), "F16": np.dtype("<f2"),
    "BF16": np.dtype(ml_dtypes.bfloat16), "U32": np.dtype("<u4"), "I32": np.dtype("<i4"),
    "F32": np.dtype("<f4"), "U64": np.dtype("<u8"), "I64": np.dtype("<i8"),
    "F64": np.dtype("<f8"), "C64": np.dtype("<c8"),
    "F8_E4M3": np.dtype(ml_dtypes.float8_e4m3fn), "F8_E5M2": np.dtype(ml_dtypes.float8_e5m2),
}
_NAMES = {dtype: name for name, dtype in _DTYPES.items()}
_MAX_HEADER = 100 * 1024 * 1024  # the reference implementation's limit


def serialize(tensors, metadata=None):
    """The bytes of a safetensors file holding `tensors` (name -> array) and `metadata`."""
    header, chunks, offset = {}, [], 0
    arrays = {name: np.asarray(value) for name, value in tensors.items()}
    for name in sorted(arrays, key=lambda n: (-arrays[n].dtype.itemsize, n)):
        array = arrays[name]
        code = _NAMES.get(array.dtype.newbyteorder("<"))
        if code is None:
            raise ValueError(f"Cannot store tensor {name!r}: dtype {array.dtype} has no "
                             f"safetensors equivalent.")
        data = np.ascontiguousarray(array, dtype=_DTYPES[code]).tobytes()
        header[name] = {"dtype": code, "shape": list(array.shape),
                        "data_offsets": [offset, offset + len(data)]}
        chunks.append(data)
        offset += len(data)
    if metadata:
        header["__metadata__"] = {str(k): str(v) for k, v in metadata.items()}
    text = json.dumps(header, separators=(",", ":")).encode("utf-8")
    text += b" " * (-len(text) % 8)  # the data starts 8-byte aligned
    return b"".join([len(text).to_bytes(8, "little"), text, *chunks])


def deserialize(data, source="<bytes>"):
    """``(tensors, metadata)`` from the bytes of a safetensors file; `source` names it in errors.

    Every entry is checked before any array is made: offsets in range,
    lengths matching dtype and shape, the entries tiling the data exactly.
    """
    def corrupt(why):
        return errors.DataLossError(None, None, f"Unable to read safetensors file {source}: "
                                                f"{why}. The file is truncated or corrupt.")
    if len(data) < 8:
        raise corrupt(f"{len(data)} bytes is too short for the 8-byte header length")
    size = int.from_bytes(data[:8], "little")
    if size > min(_MAX_HEADER, len(data) - 8):
        raise corrupt(f"the header claims {size} bytes but the file holds {len(data) - 8} "
                      f"after the length")
    try:
        header = json.loads(bytes(data[8:8 + size]).decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise corrupt(f"the header is not valid JSON ({e})") from None
    if not isinstance(header, dict):
        raise corrupt("the header is not a JSON object")
    metadata = header.pop("__metadata__", None) or {}
    if not isinstance(metadata, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in metadata.items()):
        raise corrupt("__metadata__ must map strings to strings")
    body = memoryview(data)[8 + size:]
    entries = sorted((_check_entry(name, entry, corrupt) for name, entry in header.items()),
                     key=lambda e: (e[3], e[4]))
    end = 0
    for name, _, _, begin, stop in entries:
        if begin != end:
            raise corrupt(f"tensor {name!r} starts at byte {begin}, expected {end}")
        end = stop
    if end != len(body):
        raise corrupt(f"the tensors cover {end} bytes of data but the file holds {len(body)}")
    tensors = {name: np.frombuffer(body[begin:stop], dtype=dtype).reshape(shape).copy()
               for name, dtype, shape, begin, stop in entries}
    return tensors, metadata


def _check_entry(name, entry, corrupt):
    """``(name, dtype, shape, begin, end)`` of a header entry, or `corrupt`'s error."""
    if not isinstance(entry, dict) or set(entry) != {"dtype", "shape", "data_offsets"}:
        raise corrupt(f"entry {name!r} must hold exactly dtype, shape and data_offsets")
    dtype = _DTYPES.get(entry["dtype"])
    shape, offsets = entry["shape"], entry["data_offsets"]
    if dtype is None:
        raise corrupt(f"tensor {name!r} has unknown dtype {entry['dtype']!r}")
    if not isinstance(shape, list) or not all(isinstance(d, int) and d >= 0 for d in shape):
        raise corrupt(f"tensor {name!r} has invalid shape {shape!r}")
    if not isinstance(offsets, list) or len(offsets) != 2 or \
            not all(isinstance(o, int) for o in offsets) or not 0 <= offsets[0] <= offsets[1]:
        raise corrupt(f"tensor {name!r} has invalid data_offsets {offsets!r}")
    expected = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    if offsets[1] - offsets[0] != expected:
        raise corrupt(f"tensor {name!r} of shape {shape} and dtype {entry['dtype']} needs "
                      f"{expected} bytes, its offsets span {offsets[1] - offsets[0]}")
    return name, dtype, tuple(shape), offsets[0], offsets[1]


def save_file(tensors, path, metadata=None):
    """Writes `tensors` (and string `metadata`) to the safetensors file `path`, atomically."""
    file_system.write_atomically(path, serialize(tensors, metadata))


def load_file(path):
    """``(tensors, metadata)`` of the safetensors file `path`."""
    with open(path, "rb") as f:
        return deserialize(f.read(), path)



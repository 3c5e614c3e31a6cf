"""Protocol-buffer varints, as TF's file formats write them (checkpoint tables, event
files, serialized Examples and SavedModel fingerprints): 7 bits a byte, least significant
first, the high bit set on every byte but the last; a negative number takes its 64-bit
two's complement (10 bytes), as an int64 field does.

>>> varint(300), varint(-1)[-1], read_varint(varint(300) + b"x", 0), field(2, b"ab")
(b'\\xac\\x02', 1, (300, 2), b'\\x12\\x02ab')
"""

_MASK = (1 << 64) - 1


def varint(n):
    """The bytes of `n` as a varint."""
    n &= _MASK
    out = bytearray()
    while n > 0x7F:
        out.append(n & 0x7F | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def field(number, data):
    """Length-delimited field `number` of a message, holding bytes `data` (a string or a
    serialized message)."""
    return varint(number << 3 | 2) + varint(len(data)) + data


def read_varint(buf, pos):
    """(value, position after it) of the varint at `pos` of `buf`; IndexError when `buf`
    ends inside it."""
    result = shift = 0
    while True:
        if pos >= len(buf):
            raise IndexError("truncated varint")
        byte = buf[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if byte < 0x80:
            return result, pos
        shift += 7

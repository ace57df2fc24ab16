"""AWS's binary event-stream framing (``application/vnd.amazon.eventstream``), read as the bytes arrive.

Each message: a prelude of the total length and the headers' length (two big-endian uint32) and the prelude's
CRC32; the headers (a 1-byte name length, the name, a 1-byte value type, the value: strings are type 7 with a
2-byte length); the payload; the CRC32 of everything before it. A CRC that does not match is an error.
"""
from __future__ import annotations

import struct
import zlib

PRELUDE = 12
# Fixed sizes of the non-string header value types: bool true/false, byte, short, int, long, timestamp, uuid.
_FIXED = {0: 0, 1: 0, 2: 1, 3: 2, 4: 4, 5: 8, 8: 8, 9: 16}


class EventStreamError(ValueError):
    """A frame that cannot be read (bad CRC, bad length)."""


class Decoder:
    """Feed it bytes; it hands back the whole messages they complete, as (headers, payload)."""

    def __init__(self, max_message: int = 16 * 2 ** 20) -> None:
        self.buffer = bytearray()
        self.max_message = max_message

    def feed(self, data: bytes) -> list[tuple[dict[str, object], bytes]]:
        self.buffer += data
        out = []
        while len(self.buffer) >= PRELUDE:
            total, headers_length, prelude_crc = struct.unpack_from(">III", self.buffer)
            if zlib.crc32(self.buffer[:8]) != prelude_crc:
                raise EventStreamError("event-stream prelude CRC mismatch")
            if total < PRELUDE + 4 + headers_length or total > self.max_message:
                raise EventStreamError(f"event-stream message of impossible length {total}")
            if len(self.buffer) < total:
                break
            message = bytes(self.buffer[:total])
            del self.buffer[:total]
            (message_crc,) = struct.unpack_from(">I", message, total - 4)
            if zlib.crc32(message[:-4]) != message_crc:
                raise EventStreamError("event-stream message CRC mismatch")
            headers = _headers(message[PRELUDE:PRELUDE + headers_length])
            out.append((headers, message[PRELUDE + headers_length:-4]))
        return out


def _headers(raw: bytes) -> dict[str, object]:
    headers: dict[str, object] = {}
    at = 0
    while at < len(raw):
        name_length = raw[at]
        name = raw[at + 1:at + 1 + name_length].decode()
        at += 1 + name_length
        kind = raw[at]
        at += 1
        if kind in (6, 7):  # bytes, string
            (length,) = struct.unpack_from(">H", raw, at)
            value = raw[at + 2:at + 2 + length]
            headers[name] = value.decode() if kind == 7 else value
            at += 2 + length
        elif kind in _FIXED:
            size = _FIXED[kind]
            headers[name] = kind == 0 if kind in (0, 1) else raw[at:at + size]
            at += size
        else:
            raise EventStreamError(f"event-stream header {name!r} of unknown type {kind}")
    return headers

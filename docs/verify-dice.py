#!/usr/bin/env python3
"""Re-derive fray's dice from a revealed seed, with Python 3's standard library only.

    python3 verify-dice.py roll SEED_HEX SCHEME OFFSET EXPRESSION
        prints the faces of EXPRESSION (such as 1d10!, 2d10+3, d20) drawn at word OFFSET of
        the dice stream of SEED_HEX (64 hex digits) under SCHEME (1 or 2), then the total.
    python3 verify-dice.py rolls < FILE
        the same for each line "SEED_HEX SCHEME OFFSET EXPRESSION" of standard input.
    python3 verify-dice.py log FILE.jsonl
        reads an exported log (`fray export`: one protojson Event a line), takes the seed its
        EncounterEnded event reveals, checks sha256(seed) against EncounterCreated.seedSha256,
        and re-derives every roll recorded anywhere in it; exits 1 at the first difference.

The stream is specified in docs/event-log.md ("Dice"); rules/dice in Go is the reference.
"""
import base64
import hashlib
import json
import re
import struct
import sys

M32 = 0xFFFFFFFF
M64 = 0xFFFFFFFFFFFFFFFF
MAX_EXPLOSION = 20  # rerolls of one exploding die
BLOCK_WORDS = 64  # words of one scheme 2 block
SCHEME2_LABEL = b"fray dice v2"


def _qr(x, a, b, c, d):
    x[a] = (x[a] + x[b]) & M32; x[d] ^= x[a]; x[d] = ((x[d] << 16) | (x[d] >> 16)) & M32
    x[c] = (x[c] + x[d]) & M32; x[b] ^= x[c]; x[b] = ((x[b] << 12) | (x[b] >> 20)) & M32
    x[a] = (x[a] + x[b]) & M32; x[d] ^= x[a]; x[d] = ((x[d] << 8) | (x[d] >> 24)) & M32
    x[c] = (x[c] + x[d]) & M32; x[b] ^= x[c]; x[b] = ((x[b] << 7) | (x[b] >> 25)) & M32


def _chunk(key, counter):
    """32 uint64 words: 4 ChaCha8 blocks (counters counter..counter+3) interleaved word by word,
    the key added back to words 4-11 only (Go's math/rand/v2 ChaCha8, C2SP chacha8rand)."""
    k = []
    for w in key:
        k += [w & M32, w >> 32]
    out = [[0] * 4 for _ in range(16)]
    for i in range(4):
        init = [0x61707865, 0x3320646E, 0x79622D32, 0x6B206574] + k + [(counter + i) & M32, 0, 0, 0]
        x = init[:]
        for _ in range(4):  # 8 rounds: 4 double rounds
            _qr(x, 0, 4, 8, 12); _qr(x, 1, 5, 9, 13); _qr(x, 2, 6, 10, 14); _qr(x, 3, 7, 11, 15)
            _qr(x, 0, 5, 10, 15); _qr(x, 1, 6, 11, 12); _qr(x, 2, 7, 8, 13); _qr(x, 3, 4, 9, 14)
        for w in range(16):
            out[w][i] = (x[w] + init[w]) & M32 if 4 <= w < 12 else x[w]
    flat = [out[w][i] for w in range(16) for i in range(4)]
    return [flat[2 * j] | (flat[2 * j + 1] << 32) for j in range(32)]


class ChaCha8:
    """Go's math/rand/v2 ChaCha8 keyed by 32 bytes: Uint64 gives the same words."""

    def __init__(self, key32):
        self.key = list(struct.unpack("<4Q", key32))
        self.c, self.i, self.n = 0, 0, 32
        self.buf = _chunk(self.key, 0)

    def uint64(self):
        while self.i >= self.n:
            self.c += 4
            if self.c == 16:  # every 16 blocks, the last 4 words of the chunk become the key
                self.key, self.c = self.buf[28:32], 0
            self.buf, self.i = _chunk(self.key, self.c), 0
            self.n = 28 if self.c == 12 else 32
        x = self.buf[self.i]
        self.i += 1
        return x


class Stream:
    """An encounter's dice stream under scheme 1 or 2, positioned at offset (in words)."""

    def __init__(self, seed, scheme, offset):
        if len(seed) != 32:
            raise ValueError("a dice seed has 32 bytes")
        self.seed, self.scheme, self.offset = seed, scheme, offset
        if scheme == 1:  # one ChaCha8 stream keyed by the seed, drawn up to the offset
            self.src = ChaCha8(seed)
            for _ in range(offset):
                self.src.uint64()
        elif scheme == 2:  # blocks of 64 words, block b keyed by sha256(seed || label || b)
            self._rekey(offset // BLOCK_WORDS)
            for _ in range(offset % BLOCK_WORDS):
                self.src.uint64()
        else:
            raise ValueError("dice scheme %d is unknown" % scheme)

    def _rekey(self, block):
        key = hashlib.sha256(self.seed + SCHEME2_LABEL + struct.pack(">Q", block)).digest()
        self.src = ChaCha8(key)

    def word(self):
        if self.scheme == 2 and self.offset % BLOCK_WORDS == 0 and self.offset > 0:
            self._rekey(self.offset // BLOCK_WORDS)
        self.offset += 1
        return self.src.uint64()

    def face(self, sides):
        """A uniform face in [1, sides]: Lemire's multiply-and-reject on 64-bit words."""
        m = self.word() * sides
        hi, lo = m >> 64, m & M64
        if lo < sides:
            thresh = (-sides) % sides  # 2^64 mod sides
            while lo < thresh:
                m = self.word() * sides
                hi, lo = m >> 64, m & M64
        return hi + 1


NOTATION = re.compile(r"^\s*(\d*)[dD](\d+)(!?)\s*(?:([+-])\s*(\d+))?\s*$")


def roll(stream, expression):
    """(faces, total, draws) of expression drawn from stream, as rules/dice rolls it."""
    m = NOTATION.match(expression)
    if not m:
        raise ValueError("not a dice expression: %r" % expression)
    count, sides = int(m.group(1) or 1), int(m.group(2))
    explode = m.group(3) == "!"
    modifier = int(m.group(5) or 0) * (-1 if m.group(4) == "-" else 1)
    start, faces, total = stream.offset, [], modifier
    for _ in range(count):
        n = 0
        while True:
            f = stream.face(sides)
            faces.append(f)
            total += f
            if not explode or f != sides or n == MAX_EXPLOSION:
                break
            n += 1
    return faces, total, stream.offset - start


def recorded_rolls(node):
    """Every recorded roll (an object with an expression and faces) anywhere in an event."""
    if isinstance(node, dict):
        if "expression" in node and "faces" in node:
            yield node
        for v in node.values():
            yield from recorded_rolls(v)
    elif isinstance(node, list):
        for v in node:
            yield from recorded_rolls(v)


def verify_log(path):
    events = [json.loads(line) for line in open(path, encoding="utf-8") if line.strip()]
    seed = commitment = None
    for ev in events:
        commitment = ev.get("encounterCreated", {}).get("seedSha256", commitment)
        if "seed" in ev.get("encounterEnded", {}):
            seed = base64.b64decode(ev["encounterEnded"]["seed"])
    if seed is None:
        sys.exit("%s: no EncounterEnded event reveals the seed (is the encounter ended?)" % path)
    if commitment is not None and hashlib.sha256(seed).digest() != base64.b64decode(commitment):
        sys.exit("%s: sha256 of the revealed seed is not the commitment of EncounterCreated" % path)
    checked = 0
    for ev in events:
        for r in recorded_rolls(ev):
            scheme = int(r.get("scheme", 0)) or 1  # 0 or absent: scheme 1
            offset = int(r.get("offset", 0))  # protojson writes a uint64 as a string
            faces, total, draws = roll(Stream(seed, scheme, offset), r["expression"])
            want = ([int(f) for f in r["faces"]], int(r.get("total", 0)), int(r.get("draws", 0)))
            if (faces, total, draws) != want:
                sys.exit("event %s: roll %s at offset %d recorded faces %s (total %d), the seed gives %s (total %d)"
                         % (ev.get("sequence"), r["expression"], offset, want[0], want[1], faces, total))
            checked += 1
    print("%d rolls re-derived from the revealed seed" % checked)


def main(argv):
    if len(argv) == 6 and argv[1] == "roll":
        stream = Stream(bytes.fromhex(argv[2]), int(argv[3]), int(argv[4]))
        faces, total, _ = roll(stream, argv[5])
        print(" ".join(str(f) for f in faces), total)
    elif len(argv) == 2 and argv[1] == "rolls":
        for line in sys.stdin:
            if line.strip():
                seed_hex, scheme, offset, expression = line.split()
                faces, total, _ = roll(Stream(bytes.fromhex(seed_hex), int(scheme), int(offset)), expression)
                print(" ".join(str(f) for f in faces), total)
    elif len(argv) == 3 and argv[1] == "log":
        verify_log(argv[2])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)

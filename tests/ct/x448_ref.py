#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Independent X448 oracle: RFC 7748 section 5 in Python big integers.

Straight from the RFC pseudo-code (decodeScalar448, decodeUCoordinate,
the Montgomery ladder, inversion by z^(p-2)); no speed, no constant time.

  x448_ref.py vectors HEADER   check every vector in tests/ct/x448_rfc7748.h
  x448_ref.py random N [SEED]  print N lines "scalar u expected" (hex) with
                               edge-case and random u, many of them >= p
"""
import random
import re
import sys

P = 2**448 - 2**224 - 1
A24 = 39081


def decode_scalar(k):
    b = bytearray(k)
    b[0] &= 252
    b[55] |= 128
    return int.from_bytes(b, "little")


def decode_u(u):
    # X448: all 448 bits count, the value is reduced modulo p.
    return int.from_bytes(u, "little") % P


def x448(k, u):
    k = decode_scalar(k)
    x1 = decode_u(u)
    x2, z2, x3, z3, swap = 1, 0, x1, 1, 0
    for t in reversed(range(448)):
        kt = (k >> t) & 1
        swap ^= kt
        if swap:
            x2, x3, z2, z3 = x3, x2, z3, z2
        swap = kt
        a = (x2 + z2) % P
        aa = a * a % P
        b = (x2 - z2) % P
        bb = b * b % P
        e = (aa - bb) % P
        c = (x3 + z3) % P
        d = (x3 - z3) % P
        da = d * a % P
        cb = c * b % P
        x3 = (da + cb) ** 2 % P
        z3 = x1 * (da - cb) ** 2 % P
        x2 = aa * bb % P
        z2 = e * (aa + A24 * e) % P
    if swap:
        x2, x3, z2, z3 = x3, x2, z3, z2
    return (x2 * pow(z2, P - 2, P) % P).to_bytes(56, "little")


def parse_header(path):
    text = open(path).read()
    arrays = {}
    for m in re.finditer(r"\.(scalar|u|out) = \{([^}]*)\}", text):
        arrays.setdefault(m.group(1), []).append(
            bytes(int(x, 16) for x in re.findall(r"0x([0-9a-f]{2})", m.group(2))))
    names = re.findall(r'\.name = "([^"]*)"', text)
    vecs = list(zip(names, arrays["scalar"], arrays["u"], arrays["out"]))
    iters = {int(m.group(1)): bytes(int(x, 16) for x in
                                    re.findall(r"0x([0-9a-f]{2})", m.group(2)))
             for m in re.finditer(r"x448_rfc7748_iter_(\d+)\[[^]]*\] = \{([^}]*)\}", text)}
    return vecs, iters


def check_vectors(path):
    vecs, iters = parse_header(path)
    bad = 0
    if len(vecs) != 6 or sorted(iters) != [1, 1000, 1000000]:
        print("FAIL: header parse: %d vectors, iterations %s" % (len(vecs), sorted(iters)))
        return 1
    for name, k, u, out in vecs:
        got = x448(k, u)
        ok = got == out and len(k) == len(u) == len(out) == 56
        bad += not ok
        print("%s %s" % ("ok  " if ok else "FAIL", name))
    k = u = (5).to_bytes(56, "little")
    for i in range(1, 1001):
        k, u = x448(k, u), k
        if i in iters:
            ok = k == iters[i]
            bad += not ok
            print("%s iterated %d" % ("ok  " if ok else "FAIL", i))
    print("(the 1000000-iteration value is not recomputed here: too slow)")
    return 1 if bad else 0


def random_cases(n, seed):
    rng = random.Random(seed)
    edges = [0, 1, 2, 5, P - 1, P, P + 1, P + 2, P + 5, 2**448 - 1, 2**448 - 2,
             2**224, 2**224 - 1, 2**224 + 1, P - 2**224, 2**447, 2**447 - 1]
    for i in range(n):
        k = rng.getrandbits(448).to_bytes(56, "little")
        if i < len(edges):
            uv = edges[i]
        elif i % 3 == 0:
            uv = P + rng.getrandbits(224)  # non-canonical: [p, 2^448)
            uv = min(uv, 2**448 - 1)
        else:
            uv = rng.getrandbits(448)
        u = uv.to_bytes(56, "little")
        print(k.hex(), u.hex(), x448(k, u).hex())
    return 0


def main(argv):
    if len(argv) == 3 and argv[1] == "vectors":
        return check_vectors(argv[2])
    if len(argv) in (3, 4) and argv[1] == "random":
        return random_cases(int(argv[2]), int(argv[3]) if len(argv) == 4 else 1)
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))

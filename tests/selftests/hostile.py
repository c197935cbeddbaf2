#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# Hostile datagrams for tunnel-hostile.sh, from a plain UDP socket, with
# the drop reason each must get at a noise device with the native framing
# (receive.c: noise_msg_check(), then index, replay window, MAC1, the
# handshake work in hs_glue.c). Every packet built has a reason that can be
# told in advance; random ones that would not are made again.
#
#   hostile.py ADDR PORT KIND DIR
#       sends the packets of KIND to ADDR:PORT and prints one line
#       "kind=KIND sent=N drop_REASON=M ..." (the expected growth of each
#       drop counter; they add up to N). DIR holds the captured messages,
#       one hex line each: msg1 (message 1 to the device), msg2 (message
#       2 the device sent), transport (transport messages to the device,
#       on a session the device still has).
#
# KIND:
#   random     random bytes of random lengths (0 to 300)
#   headers    a valid header (type 1-3, version 1, any msgno) and random
#              bytes, random lengths
#   fields     captured messages with one field corrupted: version, type,
#              msgno, sender index, a body byte, MAC1 (-> MAC1, type or
#              length); transport: receiver index, counter, header byte,
#              tag, a counter past the limit
#   lengths    every message type at every wrong length: message 1 and 2
#              cut short or extended, cookie replies, transport below the
#              minimum; captured transport extended (its counter seen)
#   replay     captured transport and message 1 sent again
#   index      unknown receiver indices: transport, cookie reply, message 2
#   order      message 2 sent to the responder (its own, reflected)

import os
import random
import socket
import struct
import sys
import time

VERSION = 1
HS, COOKIE, TRANSPORT = 1, 2, 3
COOKIE_LEN = 64
TRANSPORT_MIN = 32


class Lens:
    def __init__(self, l1, l2):
        self.hs = {1: l1, 2: l2}


def classify(p, lens):
    """The drop reason of payload p, or None when it depends on state."""
    if len(p) < 4:
        return 'bad_length'
    if p[1] != VERSION:
        return 'bad_type'
    if p[0] == HS:
        if p[2] not in lens.hs:
            return 'bad_type'
        if len(p) != lens.hs[p[2]]:
            return 'bad_length'
        return None
    if p[0] == COOKIE:
        return 'bad_length' if len(p) != COOKIE_LEN else None
    if p[0] == TRANSPORT:
        return 'bad_length' if len(p) < TRANSPORT_MIN else None
    return 'bad_type'


def rnd(n):
    return bytes(random.getrandbits(8) for _ in range(n))


def header(t, msgno=0):
    return bytes([t, VERSION, msgno, 0])


def random_kind(lens, hdr):
    out = []
    while len(out) < 300:
        n = random.randint(0, 300)
        if hdr:
            t = random.choice([HS, COOKIE, TRANSPORT])
            msgno = random.randint(0, 3) if t == HS else 0
            p = header(t, msgno) + rnd(max(n - 4, 0))
            if n < 4:
                p = p[:n]
        else:
            p = rnd(n)
        why = classify(p, lens)
        if why is None and hdr:
            # A random index is unknown (2^-32 per live index); a random
            # message 1 of the right length fails MAC1.
            if p[0] == HS and p[2] == 1:
                why = 'mac1'
            elif p[0] == HS or p[0] == COOKIE or p[0] == TRANSPORT:
                why = 'unknown_index'
        if why is not None:
            out.append((p, why))
    return out


def setb(p, off, v):
    p = bytearray(p)
    p[off] = v
    return bytes(p)


def xorb(p, off, v=0x55):
    p = bytearray(p)
    p[off] ^= v
    return bytes(p)


def counter(p, n):
    p = bytearray(p)
    struct.pack_into('<Q', p, 8, n)
    return bytes(p)


def fields_kind(m1, m2, tr):
    out = []
    for m in (m1, m2, tr[0]):
        for v in (0, 2, 0xff):
            out.append((setb(m, 1, v), 'bad_type'))
        for t in (0, 4, 0x80, 0xff):
            out.append((setb(m, 0, t), 'bad_type'))
    for n in (0, 3, 0xff):
        out.append((setb(m1, 2, n), 'bad_type'))
        out.append((setb(m2, 2, n), 'bad_type'))
    # Message 1 to a responder: MAC1 covers everything before it.
    mac1_off = len(m1) - 32
    for off in (4, 8, 12, 40, mac1_off - 1, mac1_off, mac1_off + 15):
        out.append((xorb(m1, off), 'mac1'))
    # Transport: unknown index; a fresh counter with the header, a body
    # byte or the tag changed fails authentication; a counter at the
    # limit is refused by the window; the captured counter is a replay
    # whatever else changed.
    top = max(struct.unpack_from('<Q', m, 8)[0] for m in tr)
    for i, m in enumerate(tr[:4]):
        out.append((xorb(m, 4, 0xff), 'unknown_index'))
        c = top + 1000 + i * 10
        out.append((counter(m, c), 'auth'))
        out.append((setb(counter(m, c + 1), 3, 0x5a), 'auth'))
        out.append((setb(counter(m, c + 2), 2, 0x01), 'auth'))
        out.append((xorb(counter(m, c + 3), 16), 'auth'))
        out.append((xorb(counter(m, c + 4), len(m) - 1), 'auth'))
        out.append((counter(m, 2**64 - 1), 'replay'))
        out.append((xorb(m, len(m) - 1), 'replay'))
    return out


def lengths_kind(m1, m2, tr, lens):
    out = []
    for m, good in ((m1, lens.hs[1]), (m2, lens.hs[2])):
        for n in range(0, good + 41):
            if n == good:
                continue
            p = m[:n] if n < good else m + rnd(n - good)
            out.append((p, 'bad_length'))
    ck = header(COOKIE) + rnd(COOKIE_LEN - 4)
    for n in range(0, COOKIE_LEN + 41):
        if n != COOKIE_LEN:
            out.append((ck[:n] if n < COOKIE_LEN else ck + rnd(n - COOKIE_LEN),
                        'bad_length'))
    for n in range(0, TRANSPORT_MIN):
        out.append((tr[0][:n], 'bad_length'))
    for m in tr[:8]:
        out.append((m + rnd(random.randint(1, 64)), 'replay'))
    for p, why in out:
        assert classify(p, lens) in (why, None), (p.hex(), why)
    return out


def index_kind(m2, tr):
    out = []
    for m in tr:
        out.append((xorb(m, 4, 0xff), 'unknown_index'))
    for _ in range(10):
        out.append((header(COOKIE) + rnd(COOKIE_LEN - 4), 'unknown_index'))
        p = bytearray(m2)
        p[8:12] = rnd(4)
        out.append((bytes(p), 'unknown_index'))
    return out


def build(kind, d):
    def lines(name):
        with open(os.path.join(d, name)) as f:
            return [bytes.fromhex(x.strip()) for x in f if x.strip()]
    m1, m2, tr = lines('msg1')[0], lines('msg2')[0], lines('transport')
    lens = Lens(len(m1), len(m2))
    if kind == 'random':
        return random_kind(lens, False)
    if kind == 'headers':
        return random_kind(lens, True)
    if kind == 'fields':
        return fields_kind(m1, m2, tr)
    if kind == 'lengths':
        return lengths_kind(m1, m2, tr, lens)
    if kind == 'replay':
        return [(m, 'replay') for m in tr] + [(m1, 'handshake')]
    if kind == 'index':
        return index_kind(m2, tr)
    if kind == 'order':
        return [(m2, 'unknown_index')]
    raise ValueError('unknown kind ' + kind)


def main(argv):
    if len(argv) != 5:
        sys.stderr.write('usage: hostile.py ADDR PORT KIND DIR\n')
        return 2
    addr, port, kind, d = argv[1], int(argv[2]), argv[3], argv[4]
    pkts = build(kind, d)
    fam = socket.AF_INET6 if ':' in addr else socket.AF_INET
    s = socket.socket(fam, socket.SOCK_DGRAM)
    count = {}
    for i, (p, why) in enumerate(pkts):
        s.sendto(p, (addr, port))
        count[why] = count.get(why, 0) + 1
        if i % 32 == 31:
            time.sleep(0.005)  # the veth's backlog must never overflow
    print('kind=%s sent=%d %s' % (kind, len(pkts),
          ' '.join('drop_%s=%d' % (k, v) for k, v in sorted(count.items()))))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# Handshake floods, for wg-cookie.sh (WireGuard framing) and
# tunnel-flood.sh (our framing).
#
#   wg-flood.py flood ADDR PORT PUBKEY SECONDS SRC [MAX]
#       sends handshake initiations (148 bytes, type 1) with a valid mac1
#       for the WireGuard whose public key is PUBKEY (base64), random
#       otherwise, as fast as it can, to ADDR:PORT for SECONDS (and at most
#       MAX of them), from address SRC: each costs the receiver a DH, so its handshake queue fills and it goes "under
#       load" (1/8 of 4096 queued); prints "# flooding" when it starts,
#       "# sent=N seconds=S" at the end (also when killed with SIGTERM)
#   wg-flood.py msgs PUBKEY FILE
#       writes 1024 such initiations (148 bytes each) to FILE, for
#       udpflood (sendmmsg: far faster than this loop in UML)
#   wg-flood.py flood-native ADDR PORT PUBKEY SECONDS SRC MAX
#       the same with our framing's message 1 of
#       Noise_IKpsk2_25519_ChaChaPoly_BLAKE2s (152 bytes: header, sender
#       index, receiver index 0, 108 random bytes, mac1 keyed by
#       BLAKE2s-256("noise-tunnel mac1" || PUBKEY), mac2 zero)
#
# (What the flood did is read from the devices' counters: cookie_replies,
# mac2_sent, mac2_accepted, drop_cookie; Documentation/cookies.rst.)

import base64
import hashlib
import os
import signal
import socket
import struct
import sys
import time


def make(pub, native=False, count=64):
    """count different initiations with a valid mac1 for the responder
    whose public key is pub (each costs it a DH all the same: it fails
    after the first one)."""
    label = b'noise-tunnel mac1' if native else b'mac1----'
    key = hashlib.blake2s(label + base64.b64decode(pub)).digest()
    msgs = []
    for i in range(count):
        if native:
            body = struct.pack('<BBBBII', 1, 1, 1, 0, i, 0)
        else:
            body = struct.pack('<II', 1, i)
        body += os.urandom(108)
        mac1 = hashlib.blake2s(body, key=key, digest_size=16).digest()
        msgs.append(body + mac1 + bytes(16))
    return msgs


def flood(addr, port, pub, seconds, src, native=False, most=1 << 62):
    msgs = make(pub, native)
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind((src, 0))
    stopped = []
    signal.signal(signal.SIGTERM, lambda *_: stopped.append(1))
    print('# flooding', flush=True)
    start = time.time()
    end = start + seconds
    n = 0
    while n < most and not stopped:
        try:
            s.sendto(msgs[n & 63], (addr, port))
        except OSError:
            pass
        n += 1
        if not n & 63 and time.time() >= end:
            break
    print('# sent=%d seconds=%.2f' % (n, time.time() - start), flush=True)


def main(argv):
    if len(argv) in (7, 8) and argv[1] == 'flood':
        flood(argv[2], int(argv[3]), argv[4], float(argv[5]), argv[6],
              most=int(argv[7]) if len(argv) == 8 else 1 << 62)
    elif len(argv) == 4 and argv[1] == 'msgs':
        with open(argv[3], 'wb') as f:
            f.write(b''.join(make(argv[2], count=1024)))
    elif len(argv) == 8 and argv[1] == 'flood-native':
        flood(argv[2], int(argv[3]), argv[4], float(argv[5]), argv[6],
              native=True, most=int(argv[7]))
    else:
        sys.exit(__doc__ if __doc__ else 'usage: see the header of ' + argv[0])


if __name__ == '__main__':
    main(sys.argv)

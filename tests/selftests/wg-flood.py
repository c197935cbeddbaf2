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
#   wg-flood.py flood-native ADDR PORT PUBKEY SECONDS SRC MAX
#       the same with our framing's message 1 of
#       Noise_IKpsk2_25519_ChaChaPoly_BLAKE2s (152 bytes: header, sender
#       index, receiver index 0, 108 random bytes, mac1 keyed by
#       BLAKE2s-256("noise-tunnel mac1" || PUBKEY), mac2 zero)
#   wg-flood.py watch IFACE SECONDS OURPORT THEIRPORT [native]
#       on IFACE (both directions), counts the cookie replies (type 3;
#       native: type 2) sent to OURPORT and to THEIRPORT, the initiations
#       (type 1) from OURPORT to THEIRPORT and from THEIRPORT to OURPORT
#       with a non-zero mac2 (a cookie honoured), and the cookie replies
#       to other ports (the flooders); prints "cookie_replies=N
#       mac2_initiations=M cookie_replies_to_them=N2
#       mac2_initiations_from_them=M2 cookie_replies_to_others=K" at the
#       end (or when the file $UDP_STOP exists); prints "# ready" once it
#       captures, "# cookie reply to us" / "# cookie reply to them" as
#       they come

import base64
import hashlib
import os
import select
import signal
import socket
import struct
import sys
import time

ETH_P_ALL = 3


def flood(addr, port, pub, seconds, src, native=False, most=1 << 62):
    label = b'noise-tunnel mac1' if native else b'mac1----'
    key = hashlib.blake2s(label + base64.b64decode(pub)).digest()
    # 64 different messages made first: the loop only sends (each one
    # costs the receiver a DH all the same: it fails after the first one).
    msgs = []
    for i in range(64):
        if native:
            body = struct.pack('<BBBBII', 1, 1, 1, 0, i, 0)
        else:
            body = struct.pack('<II', 1, i)
        body += os.urandom(108)
        mac1 = hashlib.blake2s(body, key=key, digest_size=16).digest()
        msgs.append(body + mac1 + bytes(16))
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


def udp_of(frame):
    """(sport, dport, payload) of an Ethernet frame with IPv4/6 UDP, or None."""
    if len(frame) < 14:
        return None
    ethertype = struct.unpack('!H', frame[12:14])[0]
    ip = frame[14:]
    if ethertype == 0x0800 and len(ip) >= 20 and ip[9] == 17:
        udp = ip[(ip[0] & 0xf) * 4:]
    elif ethertype == 0x86dd and len(ip) >= 40 and ip[6] == 17:
        udp = ip[40:]
    else:
        return None
    if len(udp) < 8:
        return None
    sport, dport, ulen = struct.unpack('!HHH', udp[0:6])
    return sport, dport, udp[8:ulen]


def watch(iface, seconds, ours, theirs, native=False):
    stop = os.environ.get('UDP_STOP')
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
    # A flood arrives faster than a starved watcher reads: a big buffer.
    try:
        s.setsockopt(socket.SOL_SOCKET, 33, 64 << 20)  # SO_RCVBUFFORCE
    except OSError:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 64 << 20)
    s.bind((iface, ETH_P_ALL))
    s.settimeout(0.2)
    print('# ready', flush=True)
    cookies = mac2 = others = cookies_them = mac2_them = 0
    reply = b'\x02\x01\0\0' if native else b'\x03\0\0\0'
    init = b'\x01\x01\x01\0' if native else b'\x01\0\0\0'
    init_len = 152 if native else 148
    end = time.time() + seconds
    while time.time() < end and not (stop and os.path.exists(stop)):
        try:
            frame = s.recv(65535)
        except socket.timeout:
            continue
        u = udp_of(frame)
        if not u:
            continue
        sport, dport, p = u
        if len(p) == 64 and p[:4] == reply:
            if dport == ours:
                cookies += 1
                print('# cookie reply to us', flush=True)
            elif dport == theirs:
                cookies_them += 1
                print('# cookie reply to them', flush=True)
            else:
                others += 1
        elif len(p) == init_len and p[:4] == init and any(p[init_len - 16:]):
            if sport == ours and dport == theirs:
                mac2 += 1
            elif sport == theirs and dport == ours:
                mac2_them += 1
    print('cookie_replies=%d mac2_initiations=%d cookie_replies_to_them=%d '
          'mac2_initiations_from_them=%d cookie_replies_to_others=%d' %
          (cookies, mac2, cookies_them, mac2_them, others), flush=True)


def main(argv):
    if len(argv) in (7, 8) and argv[1] == 'flood':
        flood(argv[2], int(argv[3]), argv[4], float(argv[5]), argv[6],
              most=int(argv[7]) if len(argv) == 8 else 1 << 62)
    elif len(argv) == 8 and argv[1] == 'flood-native':
        flood(argv[2], int(argv[3]), argv[4], float(argv[5]), argv[6],
              native=True, most=int(argv[7]))
    elif len(argv) in (6, 7) and argv[1] == 'watch':
        watch(argv[2], float(argv[3]), int(argv[4]), int(argv[5]),
              native=len(argv) == 7 and argv[6] == 'native')
    else:
        sys.exit(__doc__ if __doc__ else 'usage: see the header of ' + argv[0])


if __name__ == '__main__':
    main(sys.argv)

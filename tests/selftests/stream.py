#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# A numbered, paced UDP stream and its receiver (tunnel-roam.sh; the same
# datagrams as tunnel-rekey.sh's seq.py, plus a mark).
#
#   stream.py send ADDR PORT RATE STOPFILE
#       datagrams 0, 1, ... (seq and send time in the first 16 bytes, 200
#       bytes each) at RATE/s until STOPFILE exists; prints
#       "sent=N errors=E"
#   stream.py recv ADDR PORT STOPFILE IDLE
#       prints "ready" once bound, receives until STOPFILE exists and
#       nothing came for IDLE s; then prints the counts, the longest gap
#       between two consecutive arrivals (ms; when: s after the first) and
#       after_mark: the distinct datagrams numbered above the highest one
#       seen when the file STOPFILE.mark appeared (those sent after it,
#       roughly; -1: no mark)

import os
import socket
import struct
import sys
import time


def send(s, addr, port, rate, stop):
    n = err = 0
    t = time.monotonic()
    while not os.path.exists(stop):
        try:
            s.sendto(struct.pack('!QQ', n, time.monotonic_ns()).ljust(200, b'x'),
                     (addr, port))
        except OSError:
            err += 1
        n += 1
        t += 1 / rate
        d = t - time.monotonic()
        if d > 0:
            time.sleep(d)
    print('sent=%d errors=%d' % (n, err))


def recv(s, addr, port, stop, idle):
    mark = stop + '.mark'
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 20)
    s.bind((addr, port))
    s.settimeout(0.2)
    print('ready', flush=True)
    seen = set()
    got = dup = reord = 0
    top = -1
    mark_top = None
    last = first = None
    gap, gap_at = 0, 0
    quiet = time.monotonic()
    while True:
        if mark_top is None and os.path.exists(mark):
            mark_top = top
        try:
            d = s.recv(2048)
        except socket.timeout:
            if os.path.exists(stop) and time.monotonic() - quiet > idle:
                break
            continue
        now = time.monotonic()
        quiet = now
        if len(d) < 16:
            continue
        n = struct.unpack('!Q', d[:8])[0]
        got += 1
        if n in seen:
            dup += 1
            continue
        seen.add(n)
        if n < top:
            reord += 1
        top = max(top, n)
        if last is not None and now - last > gap:
            gap, gap_at = now - last, now - first
        if first is None:
            first = now
        last = now
    after = -1 if mark_top is None else len([n for n in seen if n > mark_top])
    print('received=%d distinct=%d top=%d dup=%d reordered=%d gap_ms=%d gap_at_s=%.1f after_mark=%d' %
          (got, len(seen), top, dup, reord, gap * 1000, gap_at, after))


def main(argv):
    cmd, addr, port = argv[1], argv[2], int(argv[3])
    fam = socket.AF_INET6 if ':' in addr else socket.AF_INET
    s = socket.socket(fam, socket.SOCK_DGRAM)
    if cmd == 'send':
        send(s, addr, port, float(argv[4]), argv[5])
    elif cmd == 'recv':
        recv(s, addr, port, argv[4], float(argv[5]))
    else:
        sys.stderr.write('usage: stream.py send|recv ...\n')
        return 2
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# A numbered, paced UDP stream and its receiver (nt_stream_start in
# lib.sh: tunnel-rekey.sh, tunnel-roam.sh).
#
#   stream.py send ADDR PORT RATE STOPFILE
#       datagrams 0, 1, ... (seq and send time in the first 16 bytes, 200
#       bytes each) at RATE/s until STOPFILE exists; prints
#       "sent=N errors=E"
#   stream.py recv ADDR PORT STOPFILE IDLE
#       prints "ready" once bound, receives until STOPFILE exists and
#       nothing came for IDLE s; then prints the counts, the longest
#       gap between two consecutive arrivals (ms) and when it ended (s
#       after the first arrival). The files STOPFILE.mark1, .mark2, ... (made in that order)
#       cut the stream into windows: window K runs from mark K-1 (the
#       start) to mark K (the end); one more line per window: the
#       datagrams in it (numbered above the highest seen at its start, up
#       to the highest seen at its end), those of them lost, its longest
#       gap (ms).

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
    # SO_RCVBUF is capped by net.core.rmem_max (208 KiB): about a second
    # of the stream, and the debug guest can stall the receiver longer
    # (RcvbufErrors, not a tunnel loss). As root, force 8 MiB.
    try:
        force = getattr(socket, 'SO_RCVBUFFORCE', 33)
        s.setsockopt(socket.SOL_SOCKET, force, 8 << 20)
    except OSError:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8 << 20)
    s.bind((addr, port))
    s.settimeout(0.2)
    print('ready', flush=True)
    seen = set()
    got = dup = reord = 0
    top = -1
    marks = []  # (top, arrivals so far) when each mark appeared
    arrivals = []  # (time, seq) of the distinct datagrams
    quiet = time.monotonic()
    while True:
        if os.path.exists('%s.mark%d' % (stop, len(marks) + 1)):
            marks.append((top, len(arrivals)))
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
        arrivals.append((now, n))
    def longest_at(a, b):  # longest gap before the arrivals a..b-1, where
        g, at = 0, 0
        for i in range(max(a, 1), b):
            if arrivals[i][0] - arrivals[i - 1][0] > g:
                g, at = arrivals[i][0] - arrivals[i - 1][0], i
        return g, at

    def longest(a, b):
        return longest_at(a, b)[0]
    g, at = longest_at(0, len(arrivals))
    print('received=%d distinct=%d top=%d dup=%d reordered=%d gap_ms=%d gap_at_s=%.1f' %
          (got, len(seen), top, dup, reord, g * 1000,
           arrivals[at][0] - arrivals[0][0] if arrivals else 0))
    bounds = [(-1, 0)] + marks + [(top, len(arrivals))]
    for k in range(1, len(bounds)):
        lo, hi = bounds[k - 1][0], bounds[k][0]
        inside = len([n for n in seen if lo < n <= hi])
        print('window=%d datagrams=%d lost=%d gap_ms=%d' %
              (k, inside, (hi - lo) - inside,
               longest(bounds[k - 1][1], bounds[k][1]) * 1000))


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

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# The attacker on the path for tunnel-attack.sh: it runs in the namespace
# that routes between the two sides, sees every datagram (AF_PACKET) and
# sends any datagram from any source address (raw IPv4, IP_HDRINCL). Only
# the Python standard library (the UML guest runs Debian's python3).
#
#   attack.py serve CMDFIFO REPLYFIFO IFACE...
#       captures every IPv4 UDP datagram that comes in on the IFACEs (a
#       routed one is seen once) and answers one line on REPLYFIFO for
#       each command line read from CMDFIFO, until "stop" (or EOF):
#
#   mark                      how many datagrams were seen so far (a mark)
#   mark-ago SECONDS          the mark of SECONDS ago
#   tally MARK A1 A2          "N (H handshake/cookie, E elsewhere: ...)":
#                             what the sides A1 and A2 sent since MARK
#                             that is not transport between them:
#                             handshake messages and cookie replies from
#                             either, and datagrams from either to anywhere
#                             else; then the first 8 of them (1>2 m1 0.3s)
#   count MARK SRC DST KIND   datagrams since MARK ('-' matches any field,
#                             KIND hs any handshake message)
#   answers MARK SRC DST      message 2s since MARK, one per receiver index
#                             (an answer and its retransmissions count once)
#   last KIND SRC DST FIELD   of the last KIND from SRC to DST: its length,
#                             or the hex of its sender or receiver index
#                             (FIELD len, sender, receiver)
#   quiet SRC DST SECONDS     waits until nothing came from SRC to DST for
#                             SECONDS (at most 150 s): "ok" or "timeout"
#   replay KIND SRC DST LAST FAKE FPORT
#                             the LAST (0: all) captured KIND from SRC to
#                             DST sent again to DST, from SRC (its port)
#                             and from FAKE:FPORT; the first one alone
#                             when LAST is "first" (from FAKE only)
#   forge KIND LEN INDEX NUM DST DPORT FAKE FPORT [PUB LABEL]
#                             NUM datagrams of KIND (m1 m2 cookie data,
#                             wg- before for WireGuard's framing), LEN bytes
#                             (random body), receiver index INDEX (hex as
#                             on the wire), from FAKE:FPORT; with PUB
#                             (base64 static key) and LABEL (native: our
#                             framing's, wg: WireGuard's) a valid MAC1
#                             keyed by BLAKE2s-256(label || PUB)
#   mangle A1 P1 A2 P2 FAKE FPORT
#                             the last m1, m2 and data between the sides,
#                             each cut by a byte and one byte longer, from
#                             FAKE:FPORT to where each went
#   sendfile SRC SPORT DST DPORT FILE
#                             every hex line of FILE, from SRC:SPORT
# The replies to replay, forge, mangle and sendfile are the number sent.
#
# In flight: "relay on" turns the namespace's forwarding off
# (net.ipv4.ip_forward) and passes every IPv4 datagram that comes in on
# itself, unchanged (source address, TTL and all), so that nothing goes
# from one side to the other but through the rules below; "relay off"
# (and the end of serve) gives the routing back to the kernel.
#   rule SRC DST KIND ACTION N [SECONDS]
#                             the next N datagrams of KIND from SRC to DST
#                             ('-' any; N 0: all from now on; data: not
#                             keepalives), each:
#                             drop (never sent), dup (sent twice), hold
#                             (kept until release), reverse (kept until N
#                             are, then sent last first), delay (sent
#                             SECONDS later); the first rule that has some
#                             left takes a datagram; replies the rule's number
#   taken RULE                "TAKEN DONE": how many datagrams RULE took
#                             so far, and how many of them it is done with
#                             (dropped, or sent as it says)
#   release                   every datagram held (and those a reverse
#                             rule keeps) sent now, in the order they came;
#                             replies the number sent
#   clear                     every rule ends (held datagrams are dropped)
#
# KIND of a datagram: m1, m2, m3 (handshake messages), cookie, data, or
# '?', in our framing (type byte, version 1, message number) or
# WireGuard's (a little-endian type word: 1 m1, 2 m2, 3 cookie, 4 data).

import base64
import hashlib
import os
import random
import select
import socket
import struct
import sys
import threading
import time

ETH_P_IP = 0x0800
LABELS = {'native': 'noise-tunnel mac1', 'wg': 'mac1----'}
HEADERS = {
    'm1': b'\x01\x01\x01\x00', 'm2': b'\x01\x01\x02\x00', 'm3': b'\x01\x01\x03\x00',
    'cookie': b'\x02\x01\x00\x00', 'data': b'\x03\x01\x00\x00',
    'wg-m1': b'\x01\0\0\0', 'wg-m2': b'\x02\0\0\0', 'wg-cookie': b'\x03\0\0\0',
    'wg-data': b'\x04\0\0\0',
}


def kind(p):
    if len(p) >= 4 and p[1] == 1 and p[0] in (1, 2, 3):
        if p[0] == 1:
            return 'm%d' % p[2]
        return 'cookie' if p[0] == 2 else 'data'
    if len(p) >= 4 and p[1:4] == b'\0\0\0' and 1 <= p[0] <= 4:
        return ('m1', 'm2', 'cookie', 'data')[p[0] - 1]
    return '?'


class Wire:
    """What came in on the interfaces: (time, src, sport, dst, dport, kind, payload)."""

    def __init__(self, ifaces):
        self.seen = []
        self.lock = threading.Lock()
        self.relaying = False
        self.rules = []
        self.socks = []
        for i in ifaces:
            s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_IP))
            s.bind((i, ETH_P_IP))
            self.socks.append(s)
        threading.Thread(target=self.run, daemon=True).start()

    def run(self):
        while True:
            r, _, _ = select.select(self.socks, [], [], 1)
            for s in r:
                f, addr = s.recvfrom(65535)
                if addr[2] != socket.PACKET_OUTGOING:
                    self.take(f[14:])

    def take(self, ip):
        if len(ip) < 20 or ip[0] >> 4 != 4:
            return
        ip = ip[:struct.unpack('!H', ip[2:4])[0]]	# no Ethernet padding
        r = self.add(ip)
        if self.relaying:
            self.relay(udp_checksum(ip) if r else ip, r)

    def relay(self, ip, r):
        with self.lock:
            rule = next((u for u in self.rules if u.wants(r)), None)
            if rule:
                rule.taken += 1
                rule.act(ip)
        if rule is None:
            send_ip(ip)

    def add(self, ip):
        if len(ip) < 28 or ip[9] != socket.IPPROTO_UDP:
            return None
        ihl = (ip[0] & 15) * 4
        sport, dport, ulen = struct.unpack('!HHH', ip[ihl:ihl + 6])
        p = ip[ihl + 8:ihl + ulen]
        r = (time.monotonic(), socket.inet_ntoa(ip[12:16]), sport,
             socket.inet_ntoa(ip[16:20]), dport, kind(p), p)
        with self.lock:
            self.seen.append(r)
        return r

    def since(self, mark=0):
        with self.lock:
            return self.seen[int(mark):]

    def select(self, k, src, dst, mark=0):
        return [r for r in self.since(mark) if (src == '-' or r[1] == src) and
                (dst == '-' or r[3] == dst) and
                (k == '-' or r[5] == k or (k == 'hs' and r[5][0] == 'm'))]


def checksum(b):
    if len(b) % 2:
        b += b'\0'
    s = sum(struct.unpack('!%dH' % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return ~s & 0xffff


def udp_checksum(ip):
    """The datagram with its UDP checksum made whole: a veth hands the
    sniffer the sender's offloaded datagram, whose checksum field holds
    only the pseudo-header's sum."""
    ihl = (ip[0] & 15) * 4
    udp = ip[ihl:ihl + 6] + b'\0\0' + ip[ihl + 8:]
    c = checksum(ip[12:20] + struct.pack('!BBH', 0, socket.IPPROTO_UDP, len(udp)) + udp)
    return ip[:ihl + 6] + struct.pack('!H', c or 0xffff) + ip[ihl + 8:]


RAW = None
RAW_LOCK = threading.Lock()
DONE_LOCK = threading.Lock()


def send_ip(ip):
    """One IPv4 packet, header and all, out by the namespace's routes."""
    global RAW
    with RAW_LOCK:
        if RAW is None:
            RAW = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_RAW)
            RAW.setsockopt(socket.IPPROTO_IP, socket.IP_HDRINCL, 1)
        try:
            RAW.sendto(ip, (socket.inet_ntoa(ip[16:20]), 0))
        except OSError:
            pass	# as a router would: no route, no buffer


# An empty transport message (a keepalive, as the one that confirms a new
# session): header and tag, both framings. A "data" rule takes only the
# messages that carry a packet, so that a rekey during the rule does not
# lose its keepalive in place of one of the stream's datagrams.
KEEPALIVE_LEN = 32


class Rule:
    """What happens to the next N datagrams of one kind on one way."""

    def __init__(self, src, dst, k, action, n, secs=0.0):
        if action not in ('drop', 'dup', 'hold', 'reverse', 'delay'):
            raise ValueError('unknown action ' + action)
        self.src, self.dst, self.kind, self.action = src, dst, k, action
        self.n, self.secs, self.taken, self.done, self.kept = n, secs, 0, 0, []

    def wants(self, r):
        return (r is not None and (self.n == 0 or self.taken < self.n) and
                (self.src == '-' or r[1] == self.src) and
                (self.dst == '-' or r[3] == self.dst) and
                (self.kind == '-' or r[5] == self.kind or
                 (self.kind == 'hs' and r[5][0] == 'm')) and
                not (self.kind == 'data' and len(r[6]) <= KEEPALIVE_LEN))

    def act(self, ip):
        if self.action in ('hold', 'reverse'):
            self.kept.append((time.monotonic(), ip))
            if self.action == 'reverse' and len(self.kept) == self.n:
                for p in reversed(self.kept):
                    send_ip(p[1])
                self.done += len(self.kept)
                self.kept = []
            return
        if self.action == 'delay':
            threading.Timer(self.secs, self.late, (ip,)).start()
            return
        if self.action == 'dup':
            send_ip(ip)
            send_ip(ip)
        self.done += 1

    def late(self, ip):
        send_ip(ip)
        with DONE_LOCK:
            self.done += 1


def forwarding(on):
    with open('/proc/sys/net/ipv4/ip_forward', 'w') as f:
        f.write('1\n' if on else '0\n')


def set_relay(w, on):
    if on:
        forwarding(False)
        w.relaying = True
    else:
        w.relaying = False
        forwarding(True)
    return 'ok'


def release(w):
    with w.lock:
        kept = [p for u in w.rules for p in u.kept]
        for u in w.rules:
            u.done += len(u.kept)
            u.kept = []
    for p in sorted(kept):
        send_ip(p[1])
    return len(kept)


def send(src, sport, dst, dport, payloads):
    s, d = socket.inet_aton(src), socket.inet_aton(dst)
    for p in payloads:
        udp = struct.pack('!HHHH', int(sport), int(dport), 8 + len(p), 0) + p
        ip = struct.pack('!BBHHHBBH4s4s', 0x45, 0, 20 + len(udp), random.randrange(65536),
                         0, 64, socket.IPPROTO_UDP, 0, s, d)
        ip = ip[:10] + struct.pack('!H', checksum(ip)) + ip[12:]
        send_ip(udp_checksum(ip + udp))
    return len(payloads)


def forged(k, length, index, num, pub=None, label=None):
    idx, out = bytes.fromhex(index), []
    key = None
    if pub:
        label = LABELS.get(label, label)
        key = hashlib.blake2s(label.encode() + base64.b64decode(pub)).digest()
    for _ in range(num):
        body = bytearray(os.urandom(length))
        body[0:4] = HEADERS[k]
        if k in ('m2', 'm3', 'wg-m2'):		# type, sender, receiver
            body[8:12] = idx
        elif k != 'm1' and k != 'wg-m1':
            body[4:8] = idx
        if key:
            body[-32:-16] = hashlib.blake2s(bytes(body[:-32]), key=key,
                                            digest_size=16).digest()
            body[-16:] = bytes(16)
        out.append(bytes(body))
    return out


def quiet(w, src, dst, secs):
    end = time.monotonic() + 150
    while time.monotonic() < end:
        last = w.select('-', src, dst)
        t = last[-1][0] if last else 0
        if time.monotonic() - t >= secs:
            return 'ok'
        time.sleep(0.2)
    return 'timeout'


def tally(w, mark, a1, a2):
    hs = away = 0
    what = []
    t0 = w.since(mark)[0][0] if w.since(mark) else 0
    for r in w.since(mark):
        if r[1] not in (a1, a2):
            continue
        if r[3] not in (a1, a2):
            away += 1
        elif r[5] not in ('data', '?'):
            hs += 1
        else:
            continue
        what.append('%s>%s %s %.1fs' % ('1' if r[1] == a1 else '2',
                                        r[3] if r[3] not in (a1, a2) else
                                        ('1' if r[3] == a1 else '2'), r[5], r[0] - t0))
    return '%d (%d handshake/cookie, %d elsewhere%s)' % (
        hs + away, hs, away, (': ' + ', '.join(what[:8])) if what else '')


def last(w, k, src, dst, field):
    rs = w.select(k, src, dst)
    if not rs:
        return '-'
    p = rs[-1][6]
    if field == 'len':
        return str(len(p))
    off = 4 if field == 'sender' or k == 'data' else 8
    return p[off:off + 4].hex()


def replay(w, k, src, dst, n, fake, fport):
    rs = w.select(k, src, dst)
    if n == 'first':
        return send(fake, fport, dst, rs[0][4], [rs[0][6]]) if rs else 0
    rs = rs[-int(n):] if int(n) else rs
    if not rs:
        return 0
    return (send(src, rs[0][2], dst, rs[0][4], [r[6] for r in rs]) +
            send(fake, fport, dst, rs[0][4], [r[6] for r in rs]))


def mangle(w, a1, p1, a2, p2, fake, fport):
    n = 0
    for k, dst, port in (('m1', a2, p2), ('m2', a1, p1), ('data', a2, p2)):
        rs = w.select(k, a1 if dst == a2 else a2, dst)
        if rs:
            p = rs[-1][6]
            n += send(fake, fport, dst, port, [p[:-1], p + b'\0'])
    return n


def command(w, a):
    c = a[0]
    if c == 'mark':
        return str(len(w.since()))
    if c == 'mark-ago':
        t = time.monotonic() - float(a[1])
        seen = w.since()
        return str(next((i for i, r in enumerate(seen) if r[0] >= t), len(seen)))
    if c == 'tally':
        return tally(w, a[1], a[2], a[3])
    if c == 'count':
        return str(len(w.select(a[4], a[2], a[3], a[1])))
    if c == 'answers':
        return str(len({r[6][8:12] for r in w.select('m2', a[2], a[3], a[1])}))
    if c == 'last':
        return last(w, a[1], a[2], a[3], a[4])
    if c == 'quiet':
        return quiet(w, a[1], a[2], float(a[3]))
    if c == 'replay':
        return str(replay(w, *a[1:7]))
    if c == 'forge':
        return str(send(a[7], a[8], a[5], a[6],
                        forged(a[1], int(a[2]), a[3], int(a[4]), *a[9:11])))
    if c == 'mangle':
        return str(mangle(w, *a[1:7]))
    if c == 'relay':
        return set_relay(w, a[1] == 'on')
    if c == 'rule':
        u = Rule(a[1], a[2], a[3], a[4], int(a[5]), float(a[6]) if len(a) > 6 else 0)
        with w.lock:
            w.rules.append(u)
            return str(len(w.rules) - 1)
    if c == 'taken':
        u = w.rules[int(a[1])]
        return '%d %d' % (u.taken, u.done)
    if c == 'release':
        return str(release(w))
    if c == 'clear':
        with w.lock:
            w.rules = []
        return 'ok'
    if c == 'sendfile':
        with open(a[5]) as f:
            ps = [bytes.fromhex(x.strip()) for x in f if x.strip()]
        return str(send(a[1], a[2], a[3], a[4], ps))
    return 'error: unknown command ' + c


def serve(cmd, reply, ifaces):
    w = Wire(ifaces)
    try:
        answer(w, cmd, reply)
    finally:
        if w.relaying:
            set_relay(w, False)


def answer(w, cmd, reply):
    with open(cmd) as fin, open(reply, 'w') as fout:
        for line in fin:
            a = line.split()
            if not a:
                continue
            if a[0] == 'stop':
                break
            try:
                out = command(w, a)
            except (OSError, ValueError, IndexError) as e:
                out = 'error: %s' % e
            fout.write(out + '\n')
            fout.flush()


if __name__ == '__main__':
    if len(sys.argv) < 5 or sys.argv[1] != 'serve':
        sys.exit('usage: attack.py serve CMDFIFO REPLYFIFO IFACE...')
    serve(sys.argv[2], sys.argv[3], sys.argv[4:])

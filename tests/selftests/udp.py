#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# Raw UDP for the noise selftests: see and forge what goes over the veth.
#
#   udp.py sniff IFACE PORT SECONDS
#       prints, one hex line each, the UDP payloads (IPv4 or IPv6) to PORT
#       seen on IFACE for SECONDS (AF_PACKET; no tcpdump needed); then a
#       line "# frames=N udp=M" (every frame, those to PORT)
#   (sniff and grep print "# ready" first, once they capture, and stop
#   early once the file $UDP_STOP exists)
#   udp.py grep IFACE SECONDS HEX
#       counts the frames on IFACE in SECONDS that contain the bytes HEX
#       anywhere: "# frames=N match=M"
#   udp.py send ADDR PORT HEX...
#       sends every HEX as one UDP datagram to ADDR:PORT from an ephemeral
#       port
#   udp.py mangle HEX|- flip|truncate N|type T|counter N|index
#       one payload changed (-: every hex line of stdin, one line out
#       each): its last byte flipped, cut to N bytes, its first byte set
#       to T, N added to the transport counter (__le64 at byte 8,
#       Documentation/wire-format.rst), or its receiver index (__le32 at
#       byte 4) inverted
#   udp.py relay LISTEN TARGET [RULE...]
#       a UDP relay between peers (ADDR:PORT, [ADDR6]:PORT): what comes to
#       LISTEN from anywhere goes to TARGET, what comes from TARGET goes
#       back to where the last datagram came from. RULE is drop:M:N (the
#       Nth handshake message number M, counted per M in both directions,
#       is not passed on), dup:M:N (it is passed on twice) or lose:M:SECS
#       (the first message M and every other within SECS seconds of it are
#       not passed on: a burst lost). Once the file
#       $UDP_STOP.replay exists (it is removed), the first message 1 passed
#       on is sent to TARGET again. Once the file $UDP_STOP.rules exists
#       (it is removed, then), its words are the rules from then on,
#       counting starts anew and the relay prints "# rules N" (N: the how
#       manieth set; a caller waits for this line, not for the file to go). One line per datagram: "SECONDS fwd|drop|dup|replay c2t|t2c
#       TYPE.MSGNO LEN" (seconds since it started; type 1 handshake, 3
#       transport), and " idx=SENDER" (hex) for handshake messages;
#       WireGuard's messages (a little-endian type word) are named as ours:
#       initiation 1.1, response 1.2, cookie reply 2.0, data 3.0; "# ready"
#       once it listens; it stops once $UDP_STOP exists.

import binascii
import os
import select
import socket
import struct
import sys
import time

ETH_P_ALL = 0x0003


def frames(iface, seconds):
    """Frames received on iface for at most seconds, or until the file
    $UDP_STOP exists (the caller creates it when its traffic is done)."""
    stop = os.environ.get('UDP_STOP')
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
    s.bind((iface, ETH_P_ALL))  # protocol 0 would stop all reception
    # The caller waits for this line before it sends (st_wait_ready).
    print('# ready', flush=True)
    end = time.time() + seconds
    while True:
        left = end - time.time()
        if left <= 0:
            return
        if stop and os.path.exists(stop):
            return
        r, _, _ = select.select([s], [], [], min(left, 0.2))
        if r:
            data, addr = s.recvfrom(65535)
            if addr[2] == socket.PACKET_OUTGOING:
                continue
            yield data


def udp_payload(frame):
    """(dport, payload) of an Ethernet frame with IPv4/IPv6 UDP, or None."""
    if len(frame) < 14:
        return None
    ethertype = struct.unpack('!H', frame[12:14])[0]
    ip = frame[14:]
    if ethertype == 0x0800 and len(ip) >= 20:
        ihl = (ip[0] & 0xf) * 4
        if ip[9] != 17:
            return None
        udp = ip[ihl:]
    elif ethertype == 0x86dd and len(ip) >= 40:
        if ip[6] != 17:
            return None
        udp = ip[40:]
    else:
        return None
    if len(udp) < 8:
        return None
    dport, ulen = struct.unpack('!HH', udp[2:6])
    return dport, udp[8:ulen]


def hostport(text):
    host, _, port = text.rpartition(':')
    host = host.strip('[]')
    fam = socket.AF_INET6 if ':' in host else socket.AF_INET
    return fam, (host, int(port))


WG_KINDS = {1: (1, 1), 2: (1, 2), 3: (2, 0), 4: (3, 0)}


def msg_kind(data):
    """(type, message number) of a datagram, ours or WireGuard's (a
    little-endian type word 1..4: its bytes 1..3 are zero, where ours
    carry the version)."""
    if len(data) >= 4 and data[1:4] == b'\0\0\0' and data[0] in WG_KINDS:
        return WG_KINDS[data[0]]
    mtype = data[0] if data else 0
    return mtype, (data[2] if len(data) > 2 and mtype == 1 else 0)


def relay(listen, target, rules):
    """The relay of 'udp.py relay' (see the top)."""
    stop = os.environ.get('UDP_STOP')
    fam, laddr = hostport(listen)
    _, taddr = hostport(target)
    s = socket.socket(fam, socket.SOCK_DGRAM)
    s.bind(laddr)
    def parse(words):
        w = {}
        for r in words:
            act, m, n = r.split(':')
            if act == 'lose':
                w[('lose', int(m))] = float(n)
            else:
                w[(int(m), int(n))] = act
        return w

    want = parse(rules)
    seen = {}
    since = {}
    client = None
    first1 = None
    sets = 0
    t0 = time.time()
    print('# ready', flush=True)
    while not (stop and os.path.exists(stop)):
        if stop and os.path.exists(stop + '.rules'):
            with open(stop + '.rules') as f:
                want = parse(f.read().split())
            os.unlink(stop + '.rules')
            seen, client, first1, since = {}, None, None, {}
            sets += 1
            print('# rules %d' % sets, flush=True)
        if stop and os.path.exists(stop + '.replay'):
            os.unlink(stop + '.replay')
            if first1 is not None:
                s.sendto(first1, taddr)
                print('%.2f replay c2t 1.1 %d' % (time.time() - t0, len(first1)), flush=True)
        r, _, _ = select.select([s], [], [], 0.1)
        if not r:
            continue
        data, addr = s.recvfrom(65535)
        if addr[0] == taddr[0] and addr[1] == taddr[1]:
            way, dest = 't2c', client
        else:
            way, dest, client = 'c2t', taddr, addr
        mtype, msgno = msg_kind(data)
        act = 'fwd'
        if mtype == 1:
            seen[msgno] = seen.get(msgno, 0) + 1
            act = want.get((msgno, seen[msgno]), 'fwd')
            if ('lose', msgno) in want:
                since.setdefault(msgno, time.time())
                if time.time() - since[msgno] <= want[('lose', msgno)]:
                    act = 'drop'
            if msgno == 1 and way == 'c2t' and first1 is None and act != 'drop':
                first1 = data
        idx = ''
        if mtype == 1 and len(data) >= 8:
            idx = ' idx=%08x' % struct.unpack_from('<I', data, 4)[0]
        print('%.2f %s %s %d.%d %d%s' % (time.time() - t0, act, way, mtype, msgno,
                                          len(data), idx), flush=True)
        if act == 'drop' or dest is None:
            continue
        s.sendto(data, dest)
        if act == 'dup':
            s.sendto(data, dest)


def mangle(hexmsg, how):
    """The payload hexmsg changed as 'udp.py mangle' says, in hex."""
    p = bytearray(bytes.fromhex(hexmsg))
    if how[0] == 'flip':
        p[-1] ^= 0x80
    elif how[0] == 'truncate':
        p = p[:int(how[1])]
    elif how[0] == 'type':
        p[0] = int(how[1], 0)
    elif how[0] == 'counter':
        c = struct.unpack_from('<Q', p, 8)[0] + int(how[1], 0)
        struct.pack_into('<Q', p, 8, c & (2**64 - 1))
    elif how[0] == 'index':
        i = struct.unpack_from('<I', p, 4)[0] ^ 0xffffffff
        struct.pack_into('<I', p, 4, i)
    else:
        raise ValueError('unknown change %s' % how[0])
    return bytes(p).hex()


def main(argv):
    if argv[1] == 'sniff':
        iface, port, secs = argv[2], int(argv[3]), float(argv[4])
        n = m = 0
        for f in frames(iface, secs):
            n += 1
            u = udp_payload(f)
            if u and u[0] == port:
                m += 1
                print(u[1].hex(), flush=True)
        print('# frames=%d udp=%d' % (n, m))
    elif argv[1] == 'grep':
        iface, secs, pat = argv[2], float(argv[3]), bytes.fromhex(argv[4])
        n = m = 0
        for f in frames(iface, secs):
            n += 1
            if pat in f:
                m += 1
        print('# frames=%d match=%d' % (n, m))
    elif argv[1] == 'send':
        addr, port = argv[2], int(argv[3])
        fam = socket.AF_INET6 if ':' in addr else socket.AF_INET
        s = socket.socket(fam, socket.SOCK_DGRAM)
        for h in argv[4:]:
            s.sendto(binascii.unhexlify(h), (addr, port))
    elif argv[1] == 'relay':
        relay(argv[2], argv[3], argv[4:])
    elif argv[1] == 'mangle':
        if argv[2] == '-':
            for line in sys.stdin:
                if line.strip():
                    print(mangle(line.strip(), argv[3:]))
        else:
            print(mangle(argv[2], argv[3:]))
    else:
        sys.stderr.write(__doc__)
        return 2
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))

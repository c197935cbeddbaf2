#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# Raw generic netlink for the noise selftests: requests built attribute by
# attribute (so they can be wrong on purpose), without noisectl or libnl.
# Attribute numbers come from the uapi header ($NOISE_UAPI, default the
# repository's include/uapi/linux/noise.h).
#
#   nl.py set JSON      one NOISE_CMD_SET_DEVICE request; prints "ok", or
#                       "error <errno name>: <extack message>" plus the
#                       extack's bad attribute offset / missing attribute;
#                       exit 0 on ok, 1 on an error answer, 2 on trouble
#   nl.py batch IFNAME FILE
#                       every line of FILE is one set JSON (below): for
#                       each, a line "== N" (from 1), the answer as set
#                       prints it, and "digest HEX" of a full dump of
#                       IFNAME afterwards (as dump --digest): one python
#                       for many requests (slow to start in the test bed)
#   nl.py dump IFNAME [--digest|--count [--list FILE]|--json]
#                       NOISE_CMD_GET_DEVICE for IFNAME: --digest: a SHA-256
#                       over every answer's payload (a full comparison of
#                       two dumps), --count: "messages=M peers=P
#                       allowedips=A" (peers counted by distinct public key;
#                       --list FILE: every allowed IP, one "PUBKEY-B64
#                       ADDR/CIDR" line, written to FILE), --json: the
#                       answer decoded
#   nl.py listen [--join-only] [--timeout S]
#                       joins the family's "peers" multicast group: prints
#                       "joined" or "error <errno name>: join" (exit 1);
#                       then (without --join-only) waits for one event and
#                       prints "event CMD PUBKEY-B64" (exit 1 after S
#                       seconds, default 60, without one)
#
# JSON for set: a list of [NAME, VALUE]: NAME is the part of a NOISE_A_*
# enumerator after NOISE_A_ (DEVICE_IFNAME, PEER_PUBLIC_KEY,
# ALLOWEDIP_FAMILY, ...) or a number; VALUE is one of {"u8": n}, {"u16": n},
# {"u32": n}, {"u64": n}, {"str": s} (NUL added), {"hex": h}, {"b64": s},
# {"zeros": n}, {"ip": "10.0.0.1"|"fd00::1"} (the address bytes), {"sin":
# "IP:PORT"|"[IP6]:PORT"} (a sockaddr_in/sockaddr_in6), or a list (a nest,
# NLA_F_NESTED set). A top-level {"flags": n} object instead of the list
# adds netlink header flags (not used by default).

import base64
import errno
import hashlib
import ipaddress
import json
import os
import re
import socket
import struct
import sys

NETLINK_GENERIC = 16
SOL_NETLINK = 270
NETLINK_CAP_ACK = 10
NETLINK_EXT_ACK = 11
NLM_F_REQUEST = 1
NLM_F_MULTI = 2
NLM_F_ACK = 4
NLM_F_DUMP = 0x300
NLM_F_ACK_TLVS = 0x200
NLMSG_ERROR = 2
NLMSG_DONE = 3
NLA_F_NESTED = 1 << 15
NLA_TYPE_MASK = ~((1 << 15) | (1 << 14))
GENL_ID_CTRL = 16
CTRL_CMD_GETFAMILY = 3
CTRL_ATTR_FAMILY_ID = 1
CTRL_ATTR_FAMILY_NAME = 2
NLMSGERR_ATTR_MSG = 1
NLMSGERR_ATTR_OFFS = 2
NLMSGERR_ATTR_MISS_TYPE = 5
NLMSGERR_ATTR_MISS_NEST = 6
CTRL_ATTR_MCAST_GROUPS = 7
CTRL_ATTR_MCAST_GRP_NAME = 1
CTRL_ATTR_MCAST_GRP_ID = 2
NETLINK_ADD_MEMBERSHIP = 1


def uapi():
    path = os.environ.get('NOISE_UAPI') or os.path.join(
        os.path.dirname(os.path.abspath(__file__)),
        '../../include/uapi/linux/noise.h')
    if not os.path.exists(path):
        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'noise.h')
    with open(path) as f:
        text = re.sub(r'/\*.*?\*/', '', f.read(), flags=re.S)
    consts = {}
    for m in re.finditer(r'#define\s+(NOISE_\w+)\s+(\d+)\s*$', text, re.M):
        consts[m.group(1)] = int(m.group(2))
    for m in re.finditer(r'#define\s+(NOISE_\w+)\s+"([^"]*)"', text):
        consts[m.group(1)] = m.group(2)
    for body in re.findall(r'enum\s*\w*\s*\{(.*?)\}', text, re.S):
        n = -1
        for item in body.split(','):
            item = item.strip()
            if not item:
                continue
            name, _, val = item.partition('=')
            name = name.strip()
            if val.strip():
                try:
                    n = int(val.strip(), 0)
                except ValueError:
                    continue  # flag combinations
            else:
                n += 1
            consts[name] = n
    return consts


C = uapi()


def attr_num(name):
    if isinstance(name, int):
        return name
    if re.fullmatch(r'\d+', name):
        return int(name)
    return C['NOISE_A_' + name]


def nla(atype, payload, nested=False):
    if nested:
        atype |= NLA_F_NESTED
    hdr = struct.pack('=HH', 4 + len(payload), atype)
    pad = b'\0' * ((4 - len(payload) % 4) % 4)
    return hdr + payload + pad


def sockaddr(text):
    host, _, port = text.rpartition(':')
    host = host.strip('[]')
    ip = ipaddress.ip_address(host)
    if ip.version == 4:
        return struct.pack('=H', socket.AF_INET) + struct.pack('!H', int(port)) + \
            ip.packed + b'\0' * 8
    return struct.pack('=H', socket.AF_INET6) + struct.pack('!H', int(port)) + \
        b'\0' * 4 + ip.packed + b'\0' * 4


def encode(items):
    out = b''
    for name, value in items:
        t = attr_num(name)
        if isinstance(value, list):
            out += nla(t, encode(value), nested=True)
            continue
        (kind, v), = value.items()
        if kind in ('u8', 'u16', 'u32', 'u64'):
            p = struct.pack({'u8': '=B', 'u16': '=H', 'u32': '=I', 'u64': '=Q'}[kind], v)
        elif kind == 'str':
            p = v.encode() + b'\0'
        elif kind == 'hex':
            p = bytes.fromhex(v)
        elif kind == 'b64':
            p = base64.b64decode(v)
        elif kind == 'zeros':
            p = b'\0' * v
        elif kind == 'ip':
            p = ipaddress.ip_address(v).packed
        elif kind == 'sin':
            p = sockaddr(v)
        else:
            raise ValueError('unknown value kind %s' % kind)
        out += nla(t, p)
    return out


def attrs(buf):
    off = 0
    while off + 4 <= len(buf):
        alen, atype = struct.unpack_from('=HH', buf, off)
        if alen < 4:
            break
        yield atype & NLA_TYPE_MASK, buf[off + 4:off + alen]
        off += (alen + 3) & ~3


class Netlink:
    def __init__(self, proto=NETLINK_GENERIC):
        self.s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, proto)
        self.s.setsockopt(SOL_NETLINK, NETLINK_EXT_ACK, 1)
        self.s.setsockopt(SOL_NETLINK, NETLINK_CAP_ACK, 1)
        self.s.bind((0, 0))
        self.seq = 1
        # One receive buffer for the socket's life: a new 1 MiB object
        # per recv() costs the process an mmap and its page faults each
        # time (under UML, trips through the host).
        self.buf = bytearray(1 << 20)

    def send_msg(self, mtype, flags, body):
        """One netlink message of any family; its sequence number."""
        self.seq += 1
        self.s.send(struct.pack('=IHHII', 16 + len(body), mtype, flags, self.seq, 0) + body)
        return self.seq

    def send(self, family, flags, cmd, payload, version=1):
        return self.send_msg(family, flags, struct.pack('=BBH', cmd, version, 0) + payload)

    def recv(self, seq):
        """Yields (type, flags, payload) of the answers to seq, up to DONE
        or an error/ack."""
        while True:
            n = self.s.recv_into(self.buf)
            data = memoryview(self.buf)[:n]
            off = 0
            while off + 16 <= len(data):
                mlen, mtype, mflags, mseq, _ = struct.unpack_from('=IHHII', data, off)
                payload = bytes(data[off + 16:off + mlen])
                off += (mlen + 3) & ~3
                if mseq != seq:
                    continue
                yield mtype, mflags, payload
                if mtype in (NLMSG_DONE, NLMSG_ERROR):
                    return

    def family(self, name, groups=None):
        seq = self.send(GENL_ID_CTRL, NLM_F_REQUEST | NLM_F_ACK, CTRL_CMD_GETFAMILY,
                        nla(CTRL_ATTR_FAMILY_NAME, name.encode() + b'\0'))
        fid = None
        for mtype, _, payload in self.recv(seq):
            if mtype == NLMSG_ERROR:
                err = struct.unpack_from('=i', payload)[0]
                if err:
                    raise OSError(-err, 'no generic netlink family %s' % name)
                break
            for t, v in attrs(payload[4:]):
                if t == CTRL_ATTR_FAMILY_ID:
                    fid = struct.unpack('=H', v[:2])[0]
                elif t == CTRL_ATTR_MCAST_GROUPS and groups is not None:
                    for _, g in attrs(v):
                        gname = gid = None
                        for gt, gv in attrs(g):
                            if gt == CTRL_ATTR_MCAST_GRP_NAME:
                                gname = gv.rstrip(b'\0').decode()
                            elif gt == CTRL_ATTR_MCAST_GRP_ID:
                                gid = struct.unpack('=I', gv[:4])[0]
                        groups[gname] = gid
        if fid is None:
            raise OSError(errno.ENOENT, 'no generic netlink family %s' % name)
        return fid


def ack(nl, seq, what):
    """Wait for seq's ack; an error answer raises OSError with the
    extack message."""
    for mtype, mflags, payload in nl.recv(seq):
        if mtype != NLMSG_ERROR:
            continue
        info = parse_error(payload, mflags)
        if info['errno']:
            raise OSError(info['errno'], '%s: %s' % (
                what, info.get('msg', os.strerror(info['errno']))))
        return
    raise OSError(errno.EPROTO, '%s: no ack' % what)


def parse_error(payload, mflags):
    err = -struct.unpack_from('=i', payload)[0]
    info = {'errno': err}
    if err == 0:
        return info
    # With NETLINK_CAP_ACK the original message is left out: its header only.
    tlvs = payload[4 + 16:]
    if mflags & NLM_F_ACK_TLVS:
        for t, v in attrs(tlvs):
            if t == NLMSGERR_ATTR_MSG:
                info['msg'] = v.rstrip(b'\0').decode(errors='replace')
            elif t == NLMSGERR_ATTR_OFFS:
                info['bad_attr_offset'] = struct.unpack('=I', v[:4])[0]
            elif t == NLMSGERR_ATTR_MISS_TYPE:
                info['missing_type'] = struct.unpack('=I', v[:4])[0]
            elif t == NLMSGERR_ATTR_MISS_NEST:
                info['missing_nest'] = struct.unpack('=I', v[:4])[0]
    return info


def cmd_set(spec, nl=None, fam=None):
    if isinstance(spec, dict):
        flags = spec.get('flags', 0)
        items = spec['attrs']
    else:
        flags, items = 0, spec
    if nl is None:
        nl = Netlink()
        fam = nl.family(C['NOISE_FAMILY_NAME'])
    seq = nl.send(fam, NLM_F_REQUEST | NLM_F_ACK | flags, C['NOISE_CMD_SET_DEVICE'],
                  encode(items))
    for mtype, mflags, payload in nl.recv(seq):
        if mtype != NLMSG_ERROR:
            continue
        info = parse_error(payload, mflags)
        if info['errno'] == 0:
            print('ok')
            return 0
        line = 'error %s: %s' % (errno.errorcode.get(info['errno'], info['errno']),
                                 info.get('msg', '(no extack message)'))
        for k in ('bad_attr_offset', 'missing_type', 'missing_nest'):
            if k in info:
                line += ' [%s %d]' % (k, info[k])
        print(line)
        return 1
    print('no answer')
    return 2


def decode(buf, space):
    """Decodes attributes by the enum names of space (DEVICE, PEER, ...)."""
    names = {}
    for k, v in C.items():
        if k.startswith('NOISE_A_%s_' % space) and not k.startswith('__'):
            names[v] = k[len('NOISE_A_%s_' % space):]
    out = []
    for t, v in attrs(buf):
        n = names.get(t, str(t))
        sub = {('DEVICE', 'PEER'): 'PEER', ('PEER', 'ALLOWEDIP'): 'ALLOWEDIP',
               ('DEVICE', 'STATS'): 'STATS', ('PEER', 'STATS'): 'STATS'}.get((space, n))
        if sub:
            out.append([n, decode(v, sub)])
        elif n in ('IFNAME', 'PROTOCOL'):
            out.append([n, v.rstrip(b'\0').decode(errors='replace')])
        elif n in ('PUBLIC_KEY',):
            out.append([n, base64.b64encode(v).decode()])
        elif len(v) in (1, 2, 4, 8) and n not in ('ADDR',):
            out.append([n, int.from_bytes(v, sys.byteorder)])
        else:
            out.append([n, v.hex()])
    return out


def allowedip_text(buf):
    """ADDR/CIDR of a NOISE_A_PEER_ALLOWEDIP nest."""
    addr = cidr = None
    for t, v in attrs(buf):
        if t == C['NOISE_A_ALLOWEDIP_ADDR']:
            addr = ipaddress.ip_address(bytes(v))
        elif t == C['NOISE_A_ALLOWEDIP_CIDR_MASK']:
            cidr = v[0]
    return '%s/%s' % (addr, cidr)


def cmd_dump(ifname, mode, listfile=None, nl=None, fam=None):
    if nl is None:
        nl = Netlink()
        fam = nl.family(C['NOISE_FAMILY_NAME'])
    seq = nl.send(fam, NLM_F_REQUEST | NLM_F_DUMP | NLM_F_ACK, C['NOISE_CMD_GET_DEVICE'],
                  encode([['DEVICE_IFNAME', {'str': ifname}]]))
    msgs = []
    for mtype, mflags, payload in nl.recv(seq):
        if mtype == NLMSG_ERROR:
            info = parse_error(payload, mflags)
            if info['errno']:
                print('error %s: %s' % (errno.errorcode.get(info['errno'], info['errno']),
                                        info.get('msg', '(no extack message)')))
                return 1
            break
        if mtype == NLMSG_DONE:
            if len(payload) >= 4 and struct.unpack_from('=i', payload)[0] < 0:
                err = -struct.unpack_from('=i', payload)[0]
                print('error %s: dump ended with an error' % errno.errorcode.get(err, err))
                return 1
            break
        msgs.append(payload)
    if mode == '--digest':
        h = hashlib.sha256()
        for m in msgs:
            h.update(struct.pack('=I', len(m)) + m)
        print(h.hexdigest())
    elif mode == '--count':
        peers = set()
        aips = 0
        lines = []
        for m in msgs:
            for t, v in attrs(m[4:]):
                if t != C['NOISE_A_DEVICE_PEER']:
                    continue
                pub = None
                for pt, pv in attrs(v):
                    if pt == C['NOISE_A_PEER_PUBLIC_KEY']:
                        pub = base64.b64encode(pv).decode()
                        peers.add(pub)
                    elif pt == C['NOISE_A_PEER_ALLOWEDIP']:
                        aips += 1
                        if listfile:
                            lines.append('%s %s\n' % (pub, allowedip_text(pv)))
        if listfile:
            with open(listfile, 'w') as f:
                f.writelines(lines)
        print('messages=%d peers=%d allowedips=%d' % (len(msgs), len(peers), aips))
    else:
        print(json.dumps([decode(m[4:], 'DEVICE') for m in msgs], indent=1))
    return 0


def cmd_listen(join_only, timeout):
    nl = Netlink()
    groups = {}
    nl.family(C['NOISE_FAMILY_NAME'], groups)
    try:
        nl.s.setsockopt(SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, groups[C['NOISE_MCGRP_PEERS']])
    except OSError as e:
        print('error %s: join' % errno.errorcode.get(e.errno, e.errno))
        return 1
    print('joined')
    sys.stdout.flush()
    if join_only:
        return 0
    nl.s.settimeout(timeout)
    try:
        data = nl.s.recv(1 << 16)
    except socket.timeout:
        print('no event in %s s' % timeout)
        return 1
    mlen, mtype, _, _, _ = struct.unpack_from('=IHHII', data)
    cmd = data[16]
    pub = ''
    for t, v in attrs(data[20:mlen]):
        if t == C['NOISE_A_DEVICE_PEER']:
            for pt, pv in attrs(v):
                if pt == C['NOISE_A_PEER_PUBLIC_KEY']:
                    pub = base64.b64encode(pv).decode()
    print('event %d %s' % (cmd, pub))
    return 0


def cmd_batch(ifname, path):
    nl = Netlink()
    fam = nl.family(C['NOISE_FAMILY_NAME'])
    with open(path) as f:
        specs = [json.loads(line) for line in f if line.strip()]
    for i, spec in enumerate(specs, 1):
        print('== %d' % i)
        cmd_set(spec, nl, fam)
        sys.stdout.write('digest ')
        cmd_dump(ifname, '--digest', None, nl, fam)
        sys.stdout.flush()
    return 0


def main():
    if len(sys.argv) >= 4 and sys.argv[1] == 'batch':
        return cmd_batch(sys.argv[2], sys.argv[3])
    if len(sys.argv) >= 2 and sys.argv[1] == 'listen':
        timeout = 60.0
        if '--timeout' in sys.argv:
            timeout = float(sys.argv[sys.argv.index('--timeout') + 1])
        return cmd_listen('--join-only' in sys.argv, timeout)
    if len(sys.argv) >= 3 and sys.argv[1] == 'set':
        return cmd_set(json.loads(sys.argv[2]))
    if len(sys.argv) >= 3 and sys.argv[1] == 'dump':
        mode = sys.argv[3] if len(sys.argv) > 3 else '--json'
        listfile = None
        if mode == '--count' and len(sys.argv) == 6 and sys.argv[4] == '--list':
            listfile = sys.argv[5]
        return cmd_dump(sys.argv[2], mode, listfile)
    sys.stderr.write(__doc__)
    return 2


if __name__ == '__main__':
    try:
        sys.exit(main())
    except OSError as e:
        print('trouble: %s' % e)
        sys.exit(2)

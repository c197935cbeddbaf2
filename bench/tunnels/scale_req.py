#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The kernel's part of a scale figure alone, for bench/tunnels/scale.py.

A `wg set` or `noisectl set` of one peer takes some 20 ms in UML, almost
all of it the tool's own start (exec, the dynamic loader, page faults:
each a round trip through the host); the kernel's work is a netlink
request of a few hundred bytes. The tools' times compare the tools; these
compare the two kernels:

- set request: the request that replaces one peer's allowed IPs (its /32
  and /128, as `set` does), sent from the bench's own process REQ_REPEATS
  times, each timed from the send to its ack, the two variants of the
  peer's addresses in turn so that every request changes the trie; the
  last one leaves variant 1, where `set` left it;
- create request: RTM_NEWLINK of the device (its kind, nothing else
  configured), timed to its ack: for ours that includes its default
  protocol's setup;
- del request: RTM_DELLINK of the device, timed to its ack, which comes
  after the device's destructor has run (rtnl_unlock runs the unregister
  work before the ack is sent).

The requests are built attribute by attribute with tests/selftests/nl.py
(our family's numbers from the uapi header; WireGuard's from its uapi,
below), not captured from the tools.
"""

import ipaddress
import os
import socket
import statistics
import struct
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "../../tests/selftests"))
import nl  # noqa: E402

REQ_REPEATS = 1000

# linux/wireguard.h
WG_FAMILY, WG_VERSION, WG_CMD_SET_DEVICE = "wireguard", 1, 1
WGDEVICE_A_IFNAME, WGDEVICE_A_PEERS = 2, 8
WGPEER_A_PUBLIC_KEY, WGPEER_A_FLAGS, WGPEER_A_ALLOWEDIPS = 1, 3, 9
WGPEER_F_REPLACE_ALLOWEDIPS = 2
WGALLOWEDIP_A_FAMILY, WGALLOWEDIP_A_IPADDR, WGALLOWEDIP_A_CIDR_MASK = 1, 2, 3

# linux/rtnetlink.h, linux/if_link.h
RTM_NEWLINK, RTM_DELLINK, IFLA_IFNAME, IFLA_LINKINFO = 16, 17, 3, 18
IFLA_INFO_KIND = 1
NLM_F_EXCL, NLM_F_CREATE = 0x200, 0x400


def prefixes(text):
    """[(family, address text, cidr)] of "a/32, b/128"."""
    out = []
    for p in text.replace(" ", "").split(","):
        net = ipaddress.ip_network(p)
        fam = socket.AF_INET if net.version == 4 else socket.AF_INET6
        out.append((fam, str(net.network_address), net.prefixlen))
    return out


def wg_set(dev, key, ips):
    aips = [[0, [[WGALLOWEDIP_A_FAMILY, {"u16": f}],
                 [WGALLOWEDIP_A_IPADDR, {"ip": a}],
                 [WGALLOWEDIP_A_CIDR_MASK, {"u8": c}]]] for f, a, c in ips]
    peer = [[WGPEER_A_PUBLIC_KEY, {"b64": key}],
            [WGPEER_A_FLAGS, {"u32": WGPEER_F_REPLACE_ALLOWEDIPS}],
            [WGPEER_A_ALLOWEDIPS, aips]]
    return [[WGDEVICE_A_IFNAME, {"str": dev}],
            [WGDEVICE_A_PEERS, [[0, peer]]]]


def noise_set(dev, key, ips):
    peer = [["PEER_PUBLIC_KEY", {"b64": key}],
            ["PEER_FLAGS", {"u32": nl.C["NOISE_PEER_FLAG_REPLACE_ALLOWEDIPS"]}]]
    peer += [["PEER_ALLOWEDIP", [["ALLOWEDIP_FAMILY", {"u16": f}],
                                 ["ALLOWEDIP_ADDR", {"ip": a}],
                                 ["ALLOWEDIP_CIDR_MASK", {"u8": c}]]]
             for f, a, c in ips]
    return [["DEVICE_IFNAME", {"str": dev}], ["DEVICE_PEER", peer]]


def set_figures(kind, dev, key, variants):
    """Time REQ_REPEATS set requests for the peer of @key, its allowed
    IPs @variants[1], @variants[0] in turn (ending on @variants[0]):
    {"set_req_us": median, "set_req_q1_us", "set_req_q3_us"}."""
    sock = nl.Netlink()
    if kind == "wireguard":
        fam, version, cmd, build = (sock.family(WG_FAMILY), WG_VERSION,
                                    WG_CMD_SET_DEVICE, wg_set)
    else:
        fam, version, cmd, build = (sock.family(nl.C["NOISE_FAMILY_NAME"]),
                                    1, nl.C["NOISE_CMD_SET_DEVICE"], noise_set)
    bodies = [nl.encode(build(dev, key, prefixes(v))) for v in variants]
    times = []
    for i in range(REQ_REPEATS):
        body = bodies[(REQ_REPEATS - 1 - i) % 2]
        t = time.perf_counter()
        seq = sock.send(fam, nl.NLM_F_REQUEST | nl.NLM_F_ACK, cmd, body,
                        version)
        nl.ack(sock, seq, "set request")
        times.append(time.perf_counter() - t)
    sock.s.close()
    q = statistics.quantiles(times, n=4)
    return {"set_req_us": statistics.median(times) * 1e6,
            "set_req_q1_us": q[0] * 1e6, "set_req_q3_us": q[2] * 1e6}


def link_request(mtype, flags, dev, what, more=b""):
    """An rtnetlink link request for @dev by name: the seconds from the
    send to the ack."""
    sock = nl.Netlink(socket.NETLINK_ROUTE)
    body = struct.pack("=BxHiII", socket.AF_UNSPEC, 0, 0, 0, 0) + \
        nl.nla(IFLA_IFNAME, dev.encode() + b"\0") + more
    t = time.perf_counter()
    try:
        seq = sock.send_msg(mtype, nl.NLM_F_REQUEST | nl.NLM_F_ACK | flags,
                            body)
        nl.ack(sock, seq, f"{what} {dev}")
    finally:
        wall = time.perf_counter() - t
        sock.s.close()
    return wall


def new_link(dev, kind):
    """RTM_NEWLINK of a device @dev of @kind ("noise", "wireguard")."""
    info = nl.nla(IFLA_INFO_KIND, kind.encode())
    return link_request(RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL, dev,
                        "RTM_NEWLINK",
                        nl.nla(IFLA_LINKINFO, info, nested=True))


def del_link(dev):
    """RTM_DELLINK of @dev by name."""
    return link_request(RTM_DELLINK, 0, dev, "RTM_DELLINK")

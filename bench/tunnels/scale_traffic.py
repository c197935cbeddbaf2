#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Part "traffic" of row "scale" (bench/tunnels/scale.py): ping and TCP
between two peers while the sender's device holds N-1 more.

For each N of --scale-n and each of the kernel's WireGuard (row "wg") and
our tunnel with its WireGuard profile (row "noise-ikpsk2"), the row's
tunnel is set up between tbA and tbB as the tunnel rows set it up, then
tbA's device gets N-1 more peers in one addconf (wg addconf / noisectl
addconf: random public keys, each peer with its own /32 and /128, no
endpoint, the addresses of bench/tunnels/scale.py). Then, timed: the
addconf; the first reply through the tunnel (a handshake); --pings
pings (median, p99); --tcp-seconds of iperf3 TCP from tbA to tbB. One
"tbench: {"kind": "scale_traffic", ...}" line per (N, tunnel);
bench/tunnels/report prints them beside each other. Timing never fails
anything.
"""

import os
import time

import scale as sc     # bench/tunnels/scale.py, next to this file

ROWS = ("wg", "noise-ikpsk2")


def extra_conf(path, n, protocol):
    """A config file of @n peers for addconf (no [Interface] key)."""
    out = ["[Interface]"]
    if protocol:
        out.append(f"Protocol = {protocol}")
    out.append("")
    for i, k in enumerate(sc.peer_keys(n)):
        out.append(f"[Peer]\nPublicKey = {k}\nAllowedIPs = {sc.peer_ips(i)}\n")
    with open(path, "w") as f:
        f.write("\n".join(out))


def add_peers(g, t, row, n):
    """tbA's device of the row's tunnel gets @n more peers; the time."""
    if n <= 0:
        return 0.0
    conf = os.path.join(t.scratch, f"extra-{n}.conf")
    if row == "wg":
        extra_conf(conf, n, None)
        cmd = ["wg", "addconf", "wg0", conf]
    else:
        extra_conf(conf, n, t.protocol)
        cmd = [g.NOISE_STATE["noisectl"], "addconf", "noise0", conf]
    t0 = time.monotonic()
    g.run(cmd, ns=g.NS_A, timeout=1800)
    took = time.monotonic() - t0
    os.unlink(conf)
    return took


def one(g, a, row, n):
    """The row's tunnel with n-1 more peers on tbA: its figures."""
    t = g.Tunnel(row, os.path.join(a.scratch, f"traffic-{n}"), a.tree)
    try:
        t.up()
        rec = {"addconf_s": add_peers(g, t, row, n - 1)}
        rec["handshake"] = g.first_reply(t.addr_b, a.hs_timeout)
        rec["ping"] = g.ping(t.addr_b, a.pings, a.ping_interval,
                             a.ping_deadline)
        rec["tcp"] = g.iperf3(t.addr_b, a.tcp_seconds)
        return rec
    finally:
        t.down()


def run_rows(g, a, ns):
    """Part "traffic" of row "scale": one record per (N, tunnel)."""
    os.makedirs(a.scratch, exist_ok=True)
    for n in ns:
        for row in ROWS:
            base = dict(kind="scale_traffic", row=row, n=n)
            t0 = time.monotonic()
            try:
                rec = one(g, a, row, n)
                g.emit(**base, status="ok", wall_s=time.monotonic() - t0,
                       **rec)
            except g.Unavailable as e:
                g.emit(**base, status="unavailable", reason=str(e))
            except g.Failed as e:
                g.emit(**base, status="failed", reason=str(e))
            g.log(f"scale-traffic: N={n} {row}: "
                  f"{time.monotonic() - t0:.1f} s")


# ------------------------------------------------------------ the report
# (bench/tunnels/report imports this file for the "scale_traffic" records)

LABELS = {"wg": "WireGuard (kernel)",
          "noise-ikpsk2": "noise, IKpsk2 (WireGuard's suite)"}


def fmt(x, unit=""):
    return "-" if x is None else f"{x:.3g}{unit}"


def markdown(recs):
    """The table: per N, each tunnel's ping and TCP and noise/WireGuard."""
    ok = {(r["row"], r["n"]): r for r in recs if r.get("status") == "ok"}
    if not recs:
        return []
    out = ["", "### Ping and TCP with N-1 more peers configured", "",
           "| N | tunnel | addconf s | ping median ms | ping p99 ms | "
           "TCP Mbit/s | TCP noise / WireGuard |",
           "|---|---|---|---|---|---|---|"]
    for n in sorted({r["n"] for r in recs}):
        wg = ok.get(("wg", n))
        for row in ROWS:
            r = ok.get((row, n))
            if not r:
                bad = [x for x in recs if x["row"] == row and x["n"] == n]
                why = bad[0].get("reason", "?") if bad else "not run"
                out.append(f"| {n} | {LABELS[row]} | {why} | | | | |")
                continue
            mbps = r["tcp"]["mbps"]
            ratio = (mbps / wg["tcp"]["mbps"]
                     if wg and row != "wg" else None)
            out.append(f"| {n} | {LABELS[row]} | {fmt(r['addconf_s'])} | "
                       f"{fmt(r['ping']['median_ms'])} | "
                       f"{fmt(r['ping']['p99_ms'])} | {fmt(mbps)} | "
                       f"{fmt(ratio)} |")
    return out


def json_section(recs):
    return [{k: r.get(k) for k in ("row", "n", "status", "reason",
                                   "addconf_s", "ping", "tcp")}
            for r in recs]

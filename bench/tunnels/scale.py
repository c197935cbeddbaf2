#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Row "scale" of bench/tunnels/guest: one device with N peers.

For each N of --scale-n (default 1,1000,10000,100000), --scale-rounds
times (default 3), each of the kernel's WireGuard (wg), our device with
its WireGuard profile and our device with
Noise_XX_25519_ChaChaPoly_BLAKE2s, one after another in the guest's own
network namespace, round k starting with the k-th of them (the report
takes each figure's median over the rounds): a fresh device (scale0),
one config file of N peers (random public keys, each peer with its own
/32 and /128, no endpoint, so nothing is sent), then, each timed from
the tool's start to its exit:

- create: the device made with RTM_NEWLINK from this process (nothing
  configured), timed to its ack; ours sets its default protocol up
  there;
- setconf: the whole file (wg setconf / noisectl setconf);
- set: one peer's allowed IPs changed (wg set / noisectl set);
- syncconf: the file again with that change and one more peer's allowed
  IPs changed (wg syncconf / noisectl syncconf): one peer differs;
- key: a new private key for the device (wg set / noisectl set DEV
  private-key FILE): every peer's keys derived again;
- dump: the whole device (wg show DEV dump / noisectl show DEV dump),
  its output into /dev/null; then once more into a pipe, untimed, its
  lines counted (N + 1 expected);
- set and dump, when a run takes less than REPEAT_BELOW s, run REPEATS
  times (the same command again) and the median run is kept: at a few
  thousand peers a run takes tens of milliseconds, and one sample of that
  is mostly the host's jitter;
- set request: the kernel's part of set alone, the same change as a
  netlink request from this process, timed to its ack, the median of
  many (scale_req.py);
- del: RTM_DELLINK of the device from this process, timed to its ack
  (the device's destructor runs before it); freed: from the del until the kernel
  memory is back within 256 KiB of before the device, or stopped falling
  for 3 s (at most 60 s), so that one device's teardown does not run into
  the next one's figures;

and the kernel memory the device took: /proc/meminfo Slab, Percpu and
VmallocUsed after setconf minus before the device was made. One
"tbench: {"kind": "scale", ...}" line per device; bench/tunnels/report
prints them. Timing never fails anything.

    scale.py conf N PATH [PROTOCOL]    write a config file (for a check)
"""

import base64
import os
import resource
import statistics
import sys
import time

import scale_req

DEV = "scale0"
XX = "Noise_XX_25519_ChaChaPoly_BLAKE2s"
# impl -> (tool, the config file's Protocol line or None)
IMPLS = {"wg": ("wg", None), "noise-wg": ("noisectl", "WireGuard"),
         "noise-xx": ("noisectl", XX)}
MEMINFO = ("Slab", "Percpu", "VmallocUsed")
REPEAT_BELOW = 1.0
REPEATS = 5


def b64(x):
    return base64.b64encode(x).decode()


def peer_ips(i, variant=0):
    """Peer i's /32 (in 10.128.0.0/9) and /128; variants 1, 2: others."""
    v4 = (10 << 24) | (1 << 23) | (variant << 21) | i
    v4 = ".".join(str((v4 >> s) & 255) for s in (24, 16, 8, 0))
    return f"{v4}/32, fd00:5ca1:e:{variant}::{i >> 16:x}:{i & 0xffff:x}/128"


def peer_keys(n):
    return [b64(os.urandom(32)) for _ in range(n)]


def prefix_ips(q):
    """@q prefixes a peer: half /32s in 10.0.0.0/10, half /128s."""
    def ips(i, variant=0):
        out = []
        for j in range(q):
            x = (variant << 20) | (i * q + j)
            if j % 2:
                out.append(f"fd00:5ca1:f:{variant}::{x >> 16:x}:"
                           f"{x & 0xffff:x}/128")
            else:
                out.append(f"10.{(x >> 16) & 63}.{(x >> 8) & 255}."
                           f"{x & 255}/32")
        return ", ".join(out)
    return ips


def write_conf(path, priv, keys, protocol, variants=None, ips=peer_ips):
    """The config file: N peers; @variants: {peer: its other IPs}."""
    variants = variants or {}
    out = ["[Interface]"]
    if protocol:
        out.append(f"Protocol = {protocol}")
    out.append(f"PrivateKey = {priv}\n")
    for i, k in enumerate(keys):
        out.append(f"[Peer]\nPublicKey = {k}\n"
                   f"AllowedIPs = {ips(i, variants.get(i, 0))}\n")
    with open(path, "w") as f:
        f.write("\n".join(out))
    os.chmod(path, 0o600)


def meminfo():
    """The kernel's memory figures of MEMINFO, in KiB."""
    out = {}
    with open("/proc/meminfo") as f:
        for line in f:
            k, v = line.split(":", 1)
            if k in MEMINFO:
                out[k] = int(v.split()[0])
    return out


def children_usage():
    """The waited-for children's CPU time (user + system) and page faults
    (minor + major), so far."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime, r.ru_minflt + r.ru_majflt


def children_cpu():
    return children_usage()[0]


def timed(g, cmd, timeout, rec=None, name=None, quiet=False):
    """Run @cmd (@quiet: its output into /dev/null: a dump's megabytes
    read from a pipe would have this process decode and keep them on the
    guest's one CPU while the tool runs, in the tool's time); its wall
    time, and into @rec its CPU time (user + system, the kernel's work
    in its system calls included) as name_s, name_cpu_s, and its page
    faults (minor + major) as name_faults."""
    (c, f), t = children_usage(), time.monotonic()
    p = g.run(cmd, timeout=timeout, quiet=quiet)
    wall = time.monotonic() - t
    if rec is not None:
        c1, f1 = children_usage()
        rec[name + "_s"], rec[name + "_cpu_s"] = wall, c1 - c
        rec[name + "_faults"] = f1 - f
    return wall, p


def timed_median(g, cmd, timeout, rec, name, quiet=False):
    """timed(), again while each run takes less than REPEAT_BELOW s, up
    to REPEATS runs: the median run's figures into @rec, and how many
    runs as name_runs."""
    runs = []
    while len(runs) < REPEATS:
        r = {}
        _, p = timed(g, cmd, timeout, r, name, quiet)
        runs.append((r, p))
        if r[name + "_s"] >= REPEAT_BELOW:
            break
    runs.sort(key=lambda x: x[0][name + "_s"])
    r, p = runs[len(runs) // 2]
    rec.update(r)
    rec[name + "_runs"] = len(runs)
    return r[name + "_s"], p


def freed(m0, t, limit=60, still=3):
    """Wait until the kernel has given back what the device took (within
    256 KiB of before it; or no less for @still s; at most @limit s): a
    device's teardown goes on after ip link del returns (RCU callbacks,
    workqueues) and would otherwise run during the next device's
    figures. The time from the del to the last drop, and what was left."""
    total0 = sum(m0.values())
    low, low_t = None, time.monotonic()
    while True:
        now = time.monotonic()
        left = sum(meminfo().values()) - total0
        if low is None or left < low:
            low, low_t = left, now
        if left <= 256 or now - low_t > still or now - t > limit:
            return low_t - t, low
        time.sleep(0.2)


def settle():
    """Let RCU and the workqueues free what the last device held."""
    time.sleep(1)


def one_device(g, impl, n, keys, priv, scratch, timeout, ips=peer_ips):
    """Make, configure, change, dump and delete one device of @n peers."""
    tool, protocol = IMPLS[impl]
    ctl = "wg" if tool == "wg" else g.NOISE_STATE["noisectl"]
    kind = "wireguard" if tool == "wg" else "noise"
    conf = os.path.join(scratch, f"scale-{impl}-{n}.conf")
    sync, key = conf + ".sync", conf + ".key"
    write_conf(conf, priv, keys, protocol, ips=ips)
    with open(key, "w") as f:
        f.write(b64(os.urandom(32)) + "\n")
    # set changes peer 0 (variant 1), syncconf then peer N-1 (variant 2).
    write_conf(sync, priv, keys, protocol, {0: 1, n - 1: 2}, ips)
    rec = {}
    settle()
    m0 = meminfo()
    rec["create_s"] = scale_req.new_link(DEV, kind)
    try:
        timed(g, [ctl, "setconf", DEV, conf], timeout, rec, "setconf")
        settle()
        m1 = meminfo()
        rec["mem_kib"] = {k: m1.get(k, 0) - m0.get(k, 0) for k in MEMINFO}
        rec["mem_kib_total"] = sum(rec["mem_kib"].values())
        timed_median(g, [ctl, "set", DEV, "peer", keys[0], "allowed-ips",
                         peer_ips(0, 1).replace(" ", "")], timeout, rec,
                     "set")
        rec.update(scale_req.set_figures(kind, DEV, keys[0],
                                         [peer_ips(0, 1), peer_ips(0, 3)]))
        timed(g, [ctl, "syncconf", DEV, sync], timeout, rec, "syncconf")
        timed(g, [ctl, "set", DEV, "private-key", key], timeout, rec, "key")
        timed_median(g, [ctl, "show", DEV, "dump"], timeout, rec, "dump",
                     quiet=True)
        p = g.run([ctl, "show", DEV, "dump"], timeout=timeout)
        rec["dump_lines"] = p.stdout.count("\n")
        rec["dump_bytes"] = len(p.stdout)
    finally:
        t = time.monotonic()
        rec["del_s"], rec["del_cpu_s"] = delete(g, timeout)
        rec["freed_s"], rec["mem_left_kib"] = freed(m0, t)
    for f in (conf, sync, key):
        os.unlink(f)
    return rec


def self_cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def delete(g, timeout):
    """Delete the device: the time of the RTM_DELLINK request to its ack
    and this process's CPU time in it; `ip link del` (timed with its
    start) if the request fails."""
    c = self_cpu()
    try:
        wall = scale_req.del_link(DEV)
        return wall, self_cpu() - c
    except OSError as e:
        g.log(f"scale: {e}; ip link del instead")
        c, t = children_cpu(), time.monotonic()
        g.run(["ip", "link", "del", DEV], check=False, timeout=timeout)
        return time.monotonic() - t, children_cpu() - c


def unavailable(g, impl):
    if impl == "wg":
        if not g.shutil.which("wg"):
            return "wg not installed (wireguard-tools)"
        p = g.run(["ip", "link", "add", DEV, "type", "wireguard"],
                  check=False)
        if p.returncode:
            return f"no WireGuard in this kernel ({p.stderr.strip()})"
        g.run(["ip", "link", "del", DEV], check=False)
        return None
    return g.NOISE_STATE.get("unavailable")


def startup(g, why):
    """Each tool's start and exit alone: the median of 5 --version runs."""
    out = {}
    for impl, tool in (("wg", "wg"), ("noise-wg", "noisectl")):
        if why[impl]:
            continue
        ctl = "wg" if tool == "wg" else g.NOISE_STATE["noisectl"]
        out[tool] = timed_median(g, [ctl, "--version"], 60, {}, "start")[0]
    return out


def run_rows(g, a):
    """Row "scale": its parts (--scale-parts) one after the other."""
    ns = [int(x) for x in a.scale_n.replace(",", " ").split()]
    parts = a.scale_parts.replace(",", " ").split()
    os.makedirs(a.scratch, exist_ok=True)
    why = {impl: unavailable(g, impl) for impl in IMPLS}
    g.emit(kind="scale_meta", n=ns, rounds=a.scale_rounds,
           impls=list(IMPLS), protocol_xx=XX,
           meminfo=list(MEMINFO), startup_s=startup(g, why), parts=parts,
           prefixes=a.scale_prefixes)
    for part, fn in (("devices", run_devices), ("hs", run_hs),
                     ("prefixes", run_prefixes), ("traffic", run_traffic)):
        if part in parts:
            t = time.monotonic()
            fn(g, a, ns, why)
            g.log(f"scale: part {part}: {time.monotonic() - t:.0f} s")


def run_traffic(g, a, ns, why):
    import scale_traffic
    scale_traffic.run_rows(g, a, ns)


def run_hs(g, a, ns, why):
    import scalehs
    scalehs.run_rows(g, a, ns)


def run_prefixes(g, a, ns, why):
    """One device of P peers x Q prefixes each, wg and noise-wg."""
    p, q = (int(x) for x in a.scale_prefixes.split("x"))
    keys, priv = peer_keys(p), b64(os.urandom(32))
    for impl in ("wg", "noise-wg"):
        base = dict(kind="scale_prefixes", row=impl, n=p, per_peer=q,
                    prefixes=p * q)
        if why[impl]:
            g.emit(**base, status="unavailable", reason=why[impl])
            continue
        t = time.monotonic()
        try:
            rec = one_device(g, impl, p, keys, priv, a.scratch,
                             a.scale_timeout, prefix_ips(q))
            g.emit(**base, status="ok", wall_s=time.monotonic() - t, **rec)
        except g.Failed as e:
            g.emit(**base, status="failed", reason=str(e))
        g.log(f"scale: {p} x {q} prefixes {impl}: "
              f"{time.monotonic() - t:.1f} s")


def rotated(impls, k):
    """@impls with the first @k moved to the end: round k's order."""
    k %= max(len(impls), 1)
    return impls[k:] + impls[:k]


def run_devices(g, a, ns, why):
    """One "scale" record per (N, implementation, round): --scale-rounds
    devices of each, made in turn, each round in another order (round k
    starts with the k-th), so that no implementation always runs first
    after the keys are made or right after the same other one."""
    priv = b64(os.urandom(32))
    for n in ns:
        t = time.monotonic()
        keys = peer_keys(n)
        g.log(f"scale: N={n} ({time.monotonic() - t:.1f} s for the keys)")
        for impl in IMPLS:
            if why[impl]:
                g.emit(kind="scale", row=impl, n=n, round=0,
                       status="unavailable", reason=why[impl])
        live = [i for i in IMPLS if not why[i]]
        for rnd in range(a.scale_rounds):
            for impl in rotated(live, rnd):
                one_round(g, a, impl, n, rnd, keys, priv)


def one_round(g, a, impl, n, rnd, keys, priv):
    """One device of round @rnd: its record."""
    base = dict(kind="scale", row=impl, n=n, round=rnd)
    t = time.monotonic()
    try:
        rec = one_device(g, impl, n, keys, priv, a.scratch, a.scale_timeout)
        g.emit(**base, status="ok", wall_s=time.monotonic() - t, **rec)
    except g.Failed as e:
        g.emit(**base, status="failed", reason=str(e))
    g.log(f"scale: N={n} {impl} round {rnd}: {time.monotonic() - t:.1f} s")


# ------------------------------------------------------------ the report
# (bench/tunnels/report imports this file for the "scale" records)

LABELS = {"wg": "WireGuard (kernel)", "noise-wg": "noise, WireGuard profile",
          "noise-xx": "noise, " + XX}
# figure, label, per peer
TIMES = [("setconf_s", "setconf"), ("set_s", "set one peer"),
         ("syncconf_s", "syncconf, one peer differs"),
         ("key_s", "new private key"),
         ("dump_s", "dump"), ("del_s", "del request"),
         ("freed_s", "del until memory freed")]
PER_PEER = [("setconf_s", "setconf"), ("syncconf_s", "syncconf"),
            ("key_s", "new key"), ("dump_s", "dump"), ("del_s", "del")]


def per_peer(r, key):
    """µs per peer (times) or bytes per peer (memory) of record @r."""
    if key == "mem":
        return r["mem_kib_total"] * 1024 / r["n"]
    return r[key] * 1e6 / r["n"] if key in r else None


def median_record(rs):
    """The records of one device and N over its rounds as one: each
    figure the median of the rounds' (a dict's figures each so), and
    "rounds" how many."""
    out = dict(rs[0])
    for k, v in rs[0].items():
        if k in ("n", "round") or isinstance(v, (bool, str)):
            continue
        if isinstance(v, (int, float)):
            out[k] = statistics.median(r[k] for r in rs if k in r)
        elif isinstance(v, dict):
            out[k] = {j: statistics.median(r[k][j] for r in rs
                                           if j in r.get(k, {}))
                      for j in v}
    out["rounds"] = len(rs)
    return out


def ok_records(recs):
    """{(impl, n): record} of the devices that ran, the rounds' medians."""
    by = {}
    for r in recs:
        if r.get("status") == "ok":
            by.setdefault((r["row"], r["n"]), []).append(r)
    return {k: median_record(v) for k, v in by.items()}


def impl_order(impl):
    """Where @impl's rows go in the tables: IMPLS' order, others last."""
    return list(IMPLS).index(impl) if impl in IMPLS else len(IMPLS)


def ok_in_order(recs):
    """ok_records() as ((impl, n), record) pairs, by N, then IMPLS' order."""
    return sorted(ok_records(recs).items(),
                  key=lambda x: (x[0][1], impl_order(x[0][0])))


def not_ok(recs):
    """The records of devices that did not run (unavailable or failed)."""
    return [r for r in recs if r.get("status") != "ok"]


TOOL = {"wg": "wg", "noise-wg": "noisectl", "noise-xx": "noisectl"}
NET = ("setconf_s", "syncconf_s", "dump_s")


def peer_figures(r, one, start):
    """Per peer figures of record @r: times (µs), the same less the
    tool's start (_net), memory (bytes) and memory beyond N = 1."""
    n = r["n"]
    pp = {k: per_peer(r, k) for k, _ in PER_PEER}
    pp["mem"] = per_peer(r, "mem")
    for k in NET:
        pp[k + "_net"] = (r[k] - start) * 1e6 / n if start is not None \
            else None
    # The device itself out: what N peers took beyond one peer.
    pp["mem_over_1"] = (r["mem_kib_total"] - one["mem_kib_total"]) * \
        1024 / (n - 1) if one and n > 1 else None
    return pp


def growth(pp, base):
    big = max(pp)
    if base not in pp or big <= base:
        return None
    return {"from": base, "to": big, **{
        k: pp[big][k] / pp[base][k] if pp[base][k] and
        pp[big][k] is not None else None for k in pp[base]}}


RATIOS = ("create_s", "setconf_s", "set_s", "set_req_us", "syncconf_s",
          "key_s", "dump_s", "del_s", "mem_kib_total", "setconf_cpu_s",
          "syncconf_cpu_s", "key_cpu_s", "dump_cpu_s")


TIMED = ("create_s", "setconf_s", "set_s", "set_req_us", "syncconf_s",
         "key_s", "dump_s", "del_s")


def ratios(r, w):
    """noise / WireGuard, figure by figure, of records @r and @w."""
    return {k: r[k] / w[k] if w.get(k) and k in r else None for k in RATIOS}


def round_ratios(recs):
    """{impl: {n: {figure: [lowest, highest]}}}: of the ratios noise /
    WireGuard taken within each round (the devices of one round ran one
    after the other), over the rounds; only where more than one round
    ran."""
    by = {(r["row"], r["n"], r.get("round", 0)): r for r in recs
          if r.get("status") == "ok"}
    per = {}
    for (impl, n, rnd), r in by.items():
        w = by.get(("wg", n, rnd))
        if impl != "wg" and w:
            for k, x in ratios(r, w).items():
                if x is not None:
                    per.setdefault(impl, {}).setdefault(n, {}).setdefault(
                        k, []).append(x)
    return {impl: {n: {k: [min(v), max(v)] for k, v in f.items()
                       if len(v) > 1} for n, f in by_n.items()}
            for impl, by_n in per.items()}


def summary(recs, startup=None):
    """Per peer figures, ratios noise/WireGuard and growth, for the JSON."""
    ok = ok_records(recs)
    startup = startup or {}
    out = {"per_peer": {}, "noise/wg": {}, "growth": {}}
    for (impl, n), r in sorted(ok.items()):
        out["per_peer"].setdefault(impl, {})[n] = peer_figures(
            r, ok.get((impl, 1)), startup.get(TOOL.get(impl)))
        w = ok.get(("wg", n))
        if impl != "wg" and w:
            out["noise/wg"].setdefault(impl, {})[n] = ratios(r, w)
    out["noise/wg_rounds"] = round_ratios(recs)
    for impl, pp in out["per_peer"].items():
        g = [x for x in (growth(pp, 1000), growth(pp, 10000)) if x]
        if g:
            out["growth"][impl] = g
    return out


def fmt(x, digits=None):
    if x is None:
        return "-"
    if digits is None:
        digits = 0 if abs(x) >= 100 else 1 if abs(x) >= 10 else \
            2 if abs(x) >= 1 else 3
    return f"{x:,.{digits}f}"


def md_figures(recs):
    out = ["| N | device | " + " | ".join(f"{t} s" for _, t in TIMES) +
           " | kernel KiB (Slab + Percpu + Vmalloc) | dump lines |",
           "|---:|---|" + "---:|" * (len(TIMES) + 2)]
    ok = ok_records(recs)
    for r in sorted(list(ok.values()) + not_ok(recs), key=lambda r: (
            r["n"], impl_order(r["row"]), r.get("round", 0))):
        cells = [f"{r['n']:,}", LABELS.get(r["row"], r["row"])]
        if r.get("status") != "ok":
            what = "not available" if r.get("status") == "unavailable" \
                else "FAILED"
            out.append("| " + " | ".join(cells) + f" | {what}: "
                       f"{r.get('reason', '?')} |" + " |" * (len(TIMES) + 1))
            continue
        cells += [fmt(r.get(k)) for k, _ in TIMES]
        m = r["mem_kib"]
        cells.append(f"{r['mem_kib_total']:,} ({m['Slab']:,} + "
                     f"{m['Percpu']:,} + {m['VmallocUsed']:,})")
        cells.append(f"{r['dump_lines']:,}")
        out.append("| " + " | ".join(cells) + " |")
    return out


def md_per_peer(recs, s):
    out = ["| N | device | " + " | ".join(
        f"{t} µs/peer" for _, t in PER_PEER) + " | kernel bytes/peer | "
        "kernel bytes/peer beyond N = 1 |",
        "|---:|---|" + "---:|" * (len(PER_PEER) + 2)]
    for (impl, n), r in ok_in_order(recs):
        pp = s["per_peer"][impl][n]
        out.append(f"| {n:,} | {LABELS.get(impl, impl)} | " + " | ".join(
            fmt(pp[k]) for k, _ in PER_PEER + [("mem", ""),
                                               ("mem_over_1", "")]) + " |")
    return out


def md_cpu(recs):
    """The tools' own CPU time per peer: without their waits (not without
    the host's other work: UML charges that to the running process)."""
    keys = [k for k, _ in PER_PEER]
    out = ["| N | device | " + " | ".join(f"{t} CPU µs/peer" for _, t in
                                         PER_PEER) + " |",
           "|---:|---|" + "---:|" * len(PER_PEER)]
    for (impl, n), r in ok_in_order(recs):
        if "dump_cpu_s" not in r:
            return []
        cpu = [r.get(k.replace("_s", "_cpu_s")) for k in keys]
        out.append(f"| {n:,} | {LABELS.get(impl, impl)} | " + " | ".join(
            fmt(c * 1e6 / n if c is not None else None) for c in cpu) +
            " |")
    return out


FAULTS = [("setconf", "setconf"), ("set", "set one peer"),
          ("syncconf", "syncconf"), ("key", "new key"), ("dump", "dump")]


def md_faults(recs):
    """Page faults of the tool's process per command: under UML each one
    is a round trip through the host, so at small N a few more of them
    are most of a difference in time."""
    out = ["| N | device | " + " | ".join(f"{t} faults" for _, t in
                                         FAULTS) + " |",
           "|---:|---|" + "---:|" * len(FAULTS)]
    for (impl, n), r in ok_in_order(recs):
        if "set_faults" not in r:
            return []
        out.append(f"| {n:,} | {LABELS.get(impl, impl)} | " + " | ".join(
            fmt(r.get(k + "_faults"), 0) for k, _ in FAULTS) + " |")
    return out


def md_requests(recs):
    """The kernel's part alone: create, set and del as requests from
    the bench's own process."""
    out = ["| N | device | create request ms | set request µs (median) "
           "| quartiles µs | del request ms |",
           "|---:|---|---:|---:|---|---:|"]
    for (impl, n), r in ok_in_order(recs):
        if "set_req_us" not in r:
            return []
        out.append(f"| {n:,} | {LABELS.get(impl, impl)} | "
                   f"{fmt(r['create_s'] * 1e3) if 'create_s' in r else '-'}"
                   " | "
                   f"{fmt(r['set_req_us'])} | {fmt(r['set_req_q1_us'])}-"
                   f"{fmt(r['set_req_q3_us'])} | "
                   f"{fmt(r['del_s'] * 1e3)} |")
    return out


def md_ratios(s):
    cols = [("create_s", "create"), ("setconf_s", "setconf"),
            ("set_s", "set"), ("set_req_us", "set request"),
            ("syncconf_s", "syncconf"), ("key_s", "new key"),
            ("dump_s", "dump"), ("del_s", "del"),
            ("mem_kib_total", "kernel memory"),
            ("setconf_cpu_s", "setconf CPU"),
            ("syncconf_cpu_s", "syncconf CPU"), ("key_cpu_s", "new key CPU"),
            ("dump_cpu_s", "dump CPU")]
    out = ["| device | N | " + " | ".join(t for _, t in cols) + " |",
           "|---|---:|" + "---:|" * len(cols)]
    rng = s.get("noise/wg_rounds", {})
    for impl, by_n in s["noise/wg"].items():
        for n, rat in sorted(by_n.items()):
            lo_hi = rng.get(impl, {}).get(n, {})
            out.append(f"| {LABELS.get(impl, impl)} | {n:,} | " + " | ".join(
                fmt(rat[k], 2) + (f" ({fmt(lo_hi[k][0], 2)}-"
                                  f"{fmt(lo_hi[k][1], 2)})"
                                  if k in lo_hi and k in TIMED else "")
                for k, _ in cols) + " |")
    return out


def md_growth(s):
    keys = [(k + "_net", t + " less start") for k, t in PER_PEER
            if k in NET] + [(k, t) for k, t in PER_PEER] + \
        [("mem_over_1", "memory beyond N = 1")]
    out = ["| device | from N | to N | " + " | ".join(
        f"{t} per peer" for _, t in keys) + " |",
        "|---|---:|---:|" + "---:|" * len(keys)]
    for impl, gs in sorted(s["growth"].items(),
                           key=lambda x: list(IMPLS).index(x[0])):
        for g in gs:
            out.append(f"| {LABELS.get(impl, impl)} | {g['from']:,} | "
                       f"{g['to']:,} | " + " | ".join(
                           fmt(g.get(k), 2) for k, _ in keys) + " |")
    return out


def markdown(meta, host, recs):
    """The "Scale" section of the report, a list of lines."""
    sm = meta.get("scale_meta", {})
    out = ["## Scale: one device of N peers, ours beside WireGuard\n",
           f"- one boot of kernel {meta.get('kernel', '?')}, "
           f"{meta.get('date', '?')}; N = "
           + ", ".join(f"{n:,}" for n in sm.get("n", [])) +
           "; each peer with a random public key, its own /32 and /128, "
           "no endpoint; one device at a time (scale0, the guest's own "
           "namespace); times from the tool's start to its exit but for the "
           "requests and del (UML: "
           "each process start costs milliseconds, so N = 1 is that cost)"
           + (" -- SMOKE RUN, not figures" if meta.get("smoke") else "")]
    if host:
        out.append(f"- host: {host.get('cpus', '?')} CPUs shared, load "
                   f"average {host.get('load_before', '?')} before, "
                   f"{host.get('load_after', '?')} after")
    rounds = sm.get("rounds", 1)
    if rounds > 1:
        out.append(f"- {rounds} rounds: each round one device of each "
                   "kind per N, made one after the other, round k "
                   "starting with the k-th kind; every figure below is "
                   "the median of the rounds' devices, and a ratio's "
                   "brackets give the lowest and highest of the ratios "
                   "taken within one round")
    st = sm.get("startup_s", {})
    if st:
        out.append("- a tool's start and exit alone (`--version`, median "
                   "of 5), in every time below: " + ", ".join(
                       f"{t} {x * 1000:,.1f} ms" for t, x in st.items()))
    out.append("- set: one peer's allowed IPs replaced; set and dump: "
               f"the median of {REPEATS} runs of the same command where "
               f"one takes less than {REPEAT_BELOW:g} s; syncconf: the "
               "whole file again, one peer's allowed IPs changed; kernel "
               "memory: /proc/meminfo Slab + Percpu + VmallocUsed after "
               "setconf (and 1 s to settle) minus before the device was "
               "made, so it holds the device's own; \"beyond N = 1\": "
               "(memory at N - at N = 1) / (N - 1), the peers' own; "
               "del: RTM_DELLINK from the bench's own process, no tool "
               "start in it\n")
    s = summary(recs, st)
    if recs:    # part devices ran
        out += md_figures(recs) + [""] + md_per_peer(recs, s) + [""]
    cpu = md_cpu(recs) if recs else []
    if cpu:
        out += ["CPU time of the tool's process (user + system, with the "
                "kernel's work in its system calls; getrusage of the "
                "children; del: the bench's own process in its request), per "
                "peer:\n"] + cpu + [""]
    faults = md_faults(recs) if recs else []
    if faults:
        out += ["Page faults of the tool's process (minor + major, "
                "getrusage of the children; set and dump: of the median "
                "run). In UML each is a round trip through the host "
                "(about 130 µs for an anonymous page in the bench "
                "kernel), where a real kernel takes well under a "
                "microsecond:\n"] + faults + [""]
    reqs = md_requests(recs) if recs else []
    if reqs:
        out += ["The kernel's part alone: create as RTM_NEWLINK from the "
                "bench's own process, timed to its ack (ours: with its "
                "default protocol's setup); set as the same change sent "
                f"{scale_req.REQ_REPEATS} times from the bench's own "
                "process, each timed from the send to its ack (the peer's "
                "addresses alternating between two variants, so every "
                "request changes the trie), the median of the rounds' "
                "medians; del as RTM_DELLINK from that process, to its "
                "ack (the device's destructor runs before it):\n"] + \
            reqs + [""]
    if s["noise/wg"]:
        out += ["noise / WireGuard (below 1.0: ours takes less time or "
                "memory):\n"] + md_ratios(s) + [""]
    if s["growth"]:
        out += ["Growth: per peer cost at the largest N / at N = 1,000 "
                "and at N = 10,000 (goal for setconf and dump: at most "
                "1.2). \"less start\": the tool's start (above) taken "
                "off first, which at N = 1,000 is half the time:\n"] + \
            md_growth(s) + [""]
    return out + md_more(meta, recs, s), s


def md_more(meta, recs, s):
    """The parts prefixes and hs, their summaries into @s."""
    out = []
    pre = meta.get("scale_prefixes_rows", [])
    if pre:
        s["prefixes"] = prefix_summary(pre, recs)
        out += md_prefixes(pre, s["prefixes"])
    hs_recs = meta.get("scale_hs_rows", [])
    if hs_recs:
        import scalehs
        lines, s["hs"] = scalehs.markdown(hs_recs)
        out += lines
    traffic = meta.get("scale_traffic_rows", [])
    if traffic:
        import scale_traffic
        out += scale_traffic.markdown(traffic)
    return out


PREFIX_FIGS = [("setconf_s", "setconf"), ("syncconf_s", "syncconf"),
               ("dump_s", "dump"), ("del_s", "del"),
               ("mem_kib_total", "kernel memory")]


def per_prefix_name(k):
    """setconf_s -> setconf_us, mem_kib_total -> mem_bytes (per prefix)."""
    return "mem_bytes" if k == "mem_kib_total" else k[:-2] + "_us"


def prefix_summary(pre, devices):
    """Per prefix figures (µs, bytes), beyond the same peers with two
    prefixes each (the devices part at that N) and noise/WireGuard."""
    ok = {r["row"]: r for r in pre if r.get("status") == "ok"}
    dev = ok_records(devices)
    out = {}
    for impl, r in ok.items():
        p, two = r["prefixes"], dev.get((impl, r["n"]))
        x = {}
        for k, _ in PREFIX_FIGS:
            unit, name = 1024 if k == "mem_kib_total" else 1e6, \
                per_prefix_name(k)
            x[name] = r[k] * unit / p
            x[name + "_beyond_2"] = (r[k] - two[k]) * unit / (
                p - 2 * r["n"]) if two and p > 2 * r["n"] else None
        w = ok.get("wg")
        x["noise/wg"] = {k: r[k] / w[k] if w and w.get(k) else None
                         for k, _ in PREFIX_FIGS} if impl != "wg" else None
        out[impl] = x
    return out


def md_prefixes(pre, s):
    r0 = pre[0]
    out = [f"### One device of {r0['prefixes']:,} allowed IPs\n",
           f"- {r0['n']:,} peers x {r0['per_peer']} prefixes (half /32 in "
           "10.0.0.0/10, half /128), one file; set: peer 0's replaced by "
           "two; syncconf: the file with that and peer N-1's changed; "
           "\"beyond 2\": (figure - the same at N peers of two prefixes "
           "each, the part above) / (prefixes - 2N)\n",
           "| device | " + " | ".join(f"{t} s" for _, t in PREFIX_FIGS[:4]) +
           " | kernel KiB | dump MB | " + " | ".join(
               f"{t} µs/prefix" for _, t in PREFIX_FIGS[:4]) +
           " | bytes/prefix | bytes/prefix beyond 2 | setconf µs/prefix "
           "beyond 2 | noise/wg setconf | noise/wg dump | noise/wg memory |",
           "|---|" + "---:|" * 16]
    for r in pre:
        lab = LABELS.get(r["row"], r["row"])
        if r.get("status") != "ok":
            out.append(f"| {lab} | {r.get('status')}: "
                       f"{r.get('reason', '?')} |" + " |" * 15)
            continue
        x = s[r["row"]]
        rat = x["noise/wg"] or {}
        out.append(f"| {lab} | " + " | ".join(
            [fmt(r[k]) for k, _ in PREFIX_FIGS[:4]] +
            [f"{r['mem_kib_total']:,}", fmt(r["dump_bytes"] / 1e6)] +
            [fmt(x[per_prefix_name(k)]) for k, _ in PREFIX_FIGS[:4]] +
            [fmt(x["mem_bytes"]), fmt(x["mem_bytes_beyond_2"]),
             fmt(x["setconf_us_beyond_2"])] +
            [fmt(rat.get(k), 2) for k in ("setconf_s", "dump_s",
                                          "mem_kib_total")]) + " |")
    return out + [""]


def chart(recs, png):
    """Per peer cost against N, log scales, every device: two panels."""
    import subprocess
    import tempfile
    ok = ok_records(recs)
    impls = [i for i in IMPLS if any(k[0] == i for k in ok)]
    if not impls or len({n for _, n in ok}) < 2:
        return False
    with tempfile.TemporaryDirectory() as d:
        for impl in impls:
            with open(f"{d}/{impl}.dat", "w") as f:
                for n in sorted(n for i, n in ok if i == impl):
                    r = ok[(impl, n)]
                    f.write(f"{n} {per_peer(r, 'setconf_s')} "
                            f"{per_peer(r, 'dump_s')} "
                            f"{per_peer(r, 'syncconf_s')} "
                            f"{per_peer(r, 'mem')}\n")

        def plot(cols):
            return "plot " + ", ".join(
                f"'{d}/{i}.dat' using 1:{c} with linespoints title "
                f"'{LABELS[i]} {t}'" for c, t in cols for i in impls)
        script = "\n".join([
            "set terminal pngcairo noenhanced size 1000,900 font 'Sans,9'",
            f"set output '{png}'",
            "set multiplot layout 2,1 title 'One device of N peers, one "
            "UML boot: cost per peer against N'",
            "set logscale xy", "set grid", "set key outside right",
            "set xlabel 'peers (N, log)'",
            "set ylabel 'µs per peer (log)'",
            plot([(2, "setconf"), (3, "dump"), (4, "syncconf")]),
            "set ylabel 'kernel bytes per peer (log)'",
            plot([(5, "memory")]),
            "unset multiplot"])
        try:
            p = subprocess.run(["gnuplot"], input=script, text=True,
                               capture_output=True)
        except FileNotFoundError:
            print("report: no gnuplot (gnuplot-nox)", file=sys.stderr)
            return False
        if p.returncode:
            print(f"report: gnuplot failed: {p.stderr.strip()}",
                  file=sys.stderr)
        return p.returncode == 0


def main():
    if len(sys.argv) >= 4 and sys.argv[1] == "conf":
        n = int(sys.argv[2])
        write_conf(sys.argv[3], b64(os.urandom(32)), peer_keys(n),
                   sys.argv[4] if len(sys.argv) > 4 else None)
        return 0
    print(__doc__.splitlines()[-1].strip(), file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())

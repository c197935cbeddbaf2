#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Handshake rate of a responder: valid WireGuard initiations, many keys.

    hsrate.py selftest

Used by bench/tunnels/guest (row "hsrate"): it makes one responder key,
--hs-keys initiator keys (each a peer of the responder, with one preshared
key) and --hs-count handshake initiations, WireGuard framing
(Noise_IKpsk2_25519_ChaChaPoly_BLAKE2s, prologue "WireGuard v1 zx2c4
Jason@zx2c4.com", 148 bytes, TAI64N timestamp, mac1, mac2 zero), keys taken
round robin, every timestamp later than the one before, so each initiation
is new to its peer and costs the responder a whole handshake (es DH, the
static and the timestamp decrypted, an ephemeral key pair, ee and se DH,
the response) and is answered with a type 2 response. The static-static DH
is computed once per key (as the responders do per peer). Made before the
timed part: during it the sender only sends (bench/tunnels/hsflood).

The same file of initiations then goes to each responder in turn, from
namespace tbA to tbB over the bench's veth: the kernel's WireGuard (wg) and
our device with its WireGuard profile (noisectl set protocol WireGuard),
each a fresh device with the same keys. hsflood keeps at most --hs-window
initiations unanswered (below the 512 queued handshakes at which both
responders go "under load" and answer with cookie replies and the
per-source rate limiter), so the figure is the responder's own rate with
its defences idle; any cookie reply is counted and reported. Besides: the
engine's own rate for the same protocol in the same boot (noise_bench.ko
groups=hs, the row with the static-static DH cached), a whole handshake
with both sides in one kernel thread; the responder does 4 of its 8
scalar multiplications (es, its ephemeral key pair, ee, se), so its side
alone is about twice that rate.

"selftest" checks the construction on the host: the responder's side of
message 1 (written here too, so a weaker check than a real responder:
the bench itself checks against the kernel's WireGuard) opens the static
key and timestamp of generated initiations and checks mac1.
"""

import base64
import hashlib
import hmac
import json
import os
import re
import struct
import sys
import time

try:
    from cryptography.hazmat.primitives.asymmetric.x25519 import (
        X25519PrivateKey, X25519PublicKey)
    from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
    from cryptography.hazmat.primitives.serialization import (
        Encoding, NoEncryption, PrivateFormat, PublicFormat)
    HAVE_CRYPTO = True
except ImportError:
    HAVE_CRYPTO = False

PROTOCOL = "Noise_IKpsk2_25519_ChaChaPoly_BLAKE2s"
CONSTRUCTION = PROTOCOL.encode()
IDENTIFIER = b"WireGuard v1 zx2c4 Jason@zx2c4.com"
LABEL_MAC1 = b"mac1----"
MSG_LEN = 148
PORT = 51840
UNDER_LOAD = 512        # queued handshakes: both responders' threshold
OVER_WINDOW = 2048      # the second flood: past it
OVER_SECONDS = 2


def blake2s(*parts):
    return hashlib.blake2s(b"".join(parts)).digest()


def hmac2s(key, data):
    return hmac.new(key, data, hashlib.blake2s).digest()


def kdf2(ck, data):
    t0 = hmac2s(ck, data)
    t1 = hmac2s(t0, b"\x01")
    return t1, hmac2s(t0, t1 + b"\x02")


def aead(key, pt, ad, decrypt=False):
    c = ChaCha20Poly1305(key)
    nonce = bytes(12)   # 32 zero bits, counter 0 (little-endian 64)
    return c.decrypt(nonce, pt, ad) if decrypt else c.encrypt(nonce, pt, ad)


def raw_pub(priv):
    return priv.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)


def raw_priv(priv):
    return priv.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())


def b64(x):
    return base64.b64encode(x).decode()


def tai64n(ns):
    return struct.pack(">QI", 0x400000000000000a + ns // 10**9, ns % 10**9)


class Keys:
    """The responder's key, the initiators' keys and the preshared key."""

    def __init__(self, nkeys):
        self.resp = X25519PrivateKey.generate()
        self.resp_pub = raw_pub(self.resp)
        self.resp_pub_obj = X25519PublicKey.from_public_bytes(self.resp_pub)
        self.psk = os.urandom(32)
        self.init = []
        for _ in range(nkeys):
            k = X25519PrivateKey.generate()
            # (priv, pub, DH(s_i, s_r): once per key, as per peer)
            self.init.append((k, raw_pub(k), k.exchange(self.resp_pub_obj)))
        self.mac1_key = blake2s(LABEL_MAC1, self.resp_pub)
        ck = blake2s(CONSTRUCTION)
        self.ck0, self.h0 = ck, blake2s(blake2s(ck, IDENTIFIER), self.resp_pub)

    def wg_conf(self, port):
        """A `wg setconf` file: the responder with every initiator a peer."""
        out = ["[Interface]", f"PrivateKey = {b64(raw_priv(self.resp))}",
               f"ListenPort = {port}", ""]
        for _, pub, _ in self.init:
            out += ["[Peer]", f"PublicKey = {b64(pub)}",
                    f"PresharedKey = {b64(self.psk)}", ""]
        return "\n".join(out)

    def initiation(self, index, key, ts_ns):
        """One message 1, sender index @index, from initiator key @key."""
        _, s_pub, ss = self.init[key]
        e = X25519PrivateKey.generate()
        e_pub = raw_pub(e)
        ck, h = self.ck0, self.h0
        ck = hmac2s(hmac2s(ck, e_pub), b"\x01")         # KDF1(ck, e)
        h = blake2s(h, e_pub)
        ck, k = kdf2(ck, e.exchange(self.resp_pub_obj))  # es
        enc_static = aead(k, s_pub, h)
        h = blake2s(h, enc_static)
        ck, k = kdf2(ck, ss)                             # ss
        enc_ts = aead(k, tai64n(ts_ns), h)
        body = struct.pack("<II", 1, index) + e_pub + enc_static + enc_ts
        mac1 = hashlib.blake2s(body, key=self.mac1_key,
                               digest_size=16).digest()
        return body + mac1 + bytes(16)

    def initiations(self, count):
        """count initiations, keys round robin, timestamps increasing."""
        t = time.time_ns()
        n = len(self.init)
        return b"".join(self.initiation(i, i % n, t + i * 1000)
                        for i in range(count))


def responder_open(keys, msg):
    """Responder's side of message 1 (a check of the construction).

    Returns (initiator static public key, TAI64N timestamp)."""
    assert len(msg) == MSG_LEN and msg[:4] == b"\x01\0\0\0"
    mac1 = hashlib.blake2s(msg[:116], key=blake2s(LABEL_MAC1, keys.resp_pub),
                           digest_size=16).digest()
    assert hmac.compare_digest(mac1, msg[116:132]), "mac1"
    ck = blake2s(PROTOCOL.encode())
    h = blake2s(blake2s(ck, IDENTIFIER), keys.resp_pub)
    e_pub = msg[8:40]
    ck = kdf2(ck, e_pub)[0]
    h = blake2s(h, e_pub)
    ck, k = kdf2(ck, keys.resp.exchange(
        X25519PublicKey.from_public_bytes(e_pub)))
    s_pub = aead(k, msg[40:88], h, decrypt=True)
    h = blake2s(h, msg[40:88])
    ck, k = kdf2(ck, keys.resp.exchange(
        X25519PublicKey.from_public_bytes(s_pub)))
    ts = aead(k, msg[88:116], h, decrypt=True)
    return s_pub, ts


def selftest():
    keys = Keys(3)
    msgs = keys.initiations(7)
    assert len(msgs) == 7 * MSG_LEN
    last = {}
    for i in range(7):
        m = msgs[i * MSG_LEN:(i + 1) * MSG_LEN]
        assert struct.unpack("<I", m[4:8])[0] == i
        s_pub, ts = responder_open(keys, m)
        assert s_pub == keys.init[i % 3][1]
        assert ts > last.get(s_pub, b""), "timestamp must grow per key"
        last[s_pub] = ts
    t = time.monotonic()
    keys = Keys(16)
    keys.initiations(500)
    print(f"hsrate selftest: ok ({500 / (time.monotonic() - t):.0f} "
          "initiations/s made here, keys included)")


# ------------------------------------------------------------ in the guest

def cpu_jiffies():
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:9]]
    return v[0] + v[1] + v[2] + v[5] + v[6] + v[7], sum(v)


def engine_rate(g, tree, smoke):
    """The engine's IKpsk2 handshake rate in this boot (noise_bench.ko)."""
    ko = os.path.join(tree, "bench/noise_bench.ko")
    if not os.path.exists(ko):
        return {"status": "unavailable", "reason": f"{ko} not built"}
    before = len(g.run(["dmesg"]).stdout.splitlines())
    t = time.monotonic()
    # Smoke: few samples (the debug kernel is slow; no figure is read).
    iters = ["hs_iters=20", "dh_iters=20"] if smoke else []
    p = g.run(["insmod", ko, "groups=hs", f"hs_match={PROTOCOL}",
               "hs_parts=0"] + iters, check=False, timeout=600)
    took = time.monotonic() - t
    g.run(["rmmod", "noise_bench"], check=False)
    if p.returncode:
        return {"status": "failed",
                "reason": f"insmod noise_bench.ko: {p.stderr.strip()}"}
    rows = {}
    for line in g.run(["dmesg"]).stdout.splitlines()[before:]:
        m = re.search(r"noise_bench: (hs|dh_ref) (.*)$", line)
        if not m or f"protocol={PROTOCOL} " not in m.group(2) + " ":
            continue
        kv = dict(w.split("=", 1) for w in m.group(2).split() if "=" in w)
        cached = " ss=cached" in m.group(2)
        rows[(m.group(1), kv.get("static"), cached)] = kv
    hs = rows.get(("hs", "once", True))
    ref = rows.get(("dh_ref", "once", True))
    if not hs:
        return {"status": "failed", "reason": "no ss=cached hs row in dmesg"}
    out = {"status": "ok", "took_s": took, "median_ns": int(hs["median"]),
           "mean_ns": int(hs["mean"]), "samples": int(hs["samples"]),
           "dh_ops": int(hs["dh_ops"]),
           "full_rate": 1e9 / int(hs["median"]),
           # The responder's side: 4 of the handshake's 8 scalar mults.
           "responder_rate": 2e9 / int(hs["median"])}
    if ref:
        out["dh_ns"] = int(ref["median"])
        out["responder_dh_bound"] = 1e9 / (4 * int(ref["median"]))
    return out


def responder_up(g, impl, keys, scratch):
    """A fresh responder in tbB: WireGuard (kernel) or ours (WG profile)."""
    conf = os.path.join(scratch, f"hs-{impl}.conf")
    with open(conf, "w") as f:
        f.write(keys.wg_conf(PORT))
    os.chmod(conf, 0o600)
    if impl == "wg":
        if not g.shutil.which("wg"):
            raise g.Unavailable("wg not installed (wireguard-tools)")
        p = g.run(["ip", "-n", g.NS_B, "link", "add", "wgh0", "type",
                   "wireguard"], check=False)
        if p.returncode:
            raise g.Unavailable(f"no WireGuard here ({p.stderr.strip()})")
        g.run(["wg", "setconf", "wgh0", conf], ns=g.NS_B)
        g.run(["ip", "-n", g.NS_B, "link", "set", "wgh0", "up"])
        return "wgh0"
    reason = g.NOISE_STATE.get("unavailable")
    if reason:
        raise g.Unavailable(reason)
    ctl = g.NOISE_STATE["noisectl"]
    p = g.run(["ip", "-n", g.NS_B, "link", "add", "noiseh0", "type", "noise"],
              check=False)
    if p.returncode:
        raise g.Unavailable(f"ip link add type noise: {p.stderr.strip()}")
    g.noisectl(ctl, "set", "noiseh0", "protocol", "WireGuard", ns=g.NS_B)
    g.noisectl(ctl, "setconf", "noiseh0", conf, ns=g.NS_B)
    g.run(["ip", "-n", g.NS_B, "link", "set", "noiseh0", "up"])
    return "noiseh0"


def responder_counters(g, impl, dev):
    """What the responder says it did."""
    if impl == "wg":
        # dump: peer lines carry rx and tx bytes (handshake messages count).
        rx = tx = 0
        for line in g.run(["wg", "show", dev, "dump"],
                          ns=g.NS_B).stdout.splitlines()[1:]:
            f = line.split("\t")
            rx, tx = rx + int(f[5]), tx + int(f[6])
        return {"rx_bytes": rx, "tx_bytes": tx,
                "initiations_accounted": rx // MSG_LEN,
                "responses_accounted": tx // 92}
    d = json.loads(g.noisectl(g.NOISE_STATE["noisectl"], "show", dev,
                              "--json", ns=g.NS_B))
    d = d[0] if isinstance(d, list) else d
    st = d.get("stats", {})
    return {k: st[k] for k in sorted(st) if k == "handshakes" or
            k.startswith(("drop_", "cookie", "mac2"))}


def flood(g, flooder, msgs_file, count, seconds, window):
    c0, t0 = cpu_jiffies(), time.monotonic()
    p = g.run([flooder, g.UNDER_A, g.UNDER_B, str(PORT), msgs_file,
               str(seconds), str(window)], ns=g.NS_A, timeout=seconds + 60)
    c1, t1 = cpu_jiffies(), time.monotonic()
    r = json.loads(p.stdout.strip().splitlines()[-1])
    hz = os.sysconf("SC_CLK_TCK")
    r["guest_busy_fraction"] = (c1[0] - c0[0]) / max(1, c1[1] - c0[1])
    r["guest_busy_s"] = (c1[0] - c0[0]) / hz
    r["run_s"] = t1 - t0
    # To the last response (the window phase) or the last send (past
    # the threshold, where the responses stop early), whichever is later.
    span = max(r["last_response_s"], r["last_send_s"])
    r["completed_per_s"] = r["responses"] / span if span > 0 else None
    span = r["last_send_s"]
    r["offered_per_s"] = r["sent"] / span if span > 0 else None
    r["sender_cpu_s"] = r["cpu_user_s"] + r["cpu_sys_s"]
    r["unanswered"] = max(0, r["sent"] - r["responses"] - r["cookie_replies"]
                          - r["lost"])
    r["sender_cpu_fraction"] = r["sender_cpu_s"] / max(1e-9, r["wall_s"])
    # Per second of the CPU the sender did not use: an upper estimate of
    # the responder's own rate (the sender's system time also holds
    # receive work the kernel did in its calls, which is the responder's).
    rest = r["guest_busy_s"] - r["sender_cpu_s"]
    r["per_responder_cpu_s"] = r["responses"] / rest if rest > 0 else None
    # What bound the figure, from the evidence.
    if r["cookie_replies"]:
        bound = "cookies: the responder went under load"
    elif r["sent"] >= count and r["last_send_s"] < 0.9 * seconds:
        bound = "count: every initiation made was sent before the time was up"
    elif r["sender_cpu_fraction"] > 0.5:
        bound = "sender: the flooder used most of the one CPU"
    elif r["guest_busy_fraction"] > 0.8:
        bound = ("the responder's CPU (DH and the rest of the handshake; "
                 "it shares the one CPU with the sender): busy, the window "
                 "full, no cookie reply")
    else:
        bound = "unclear: the CPU was not busy (see the counts)"
    r["bound"] = bound
    return r


def run_rows(g, a):
    """Row "hsrate": engine, WireGuard, ours; one "hsrate" record each."""
    base = dict(kind="hsrate", protocol=PROTOCOL, hs_keys=a.hs_keys,
                hs_count=a.hs_count, hs_seconds=a.hs_seconds,
                hs_window=a.hs_window, hs_rounds=a.hs_rounds,
                under_load_at=UNDER_LOAD)
    flooder = os.path.join(os.path.abspath(a.tree), "build/tbench/hsflood")
    if not HAVE_CRYPTO:
        g.emit(**base, row="setup", status="unavailable",
               reason="python3-cryptography not installed")
        return
    if not os.access(flooder, os.X_OK):
        g.emit(**base, row="setup", status="unavailable",
               reason=f"{flooder} not built")
        return
    g.log(f"hsrate: {a.hs_keys} keys, {a.hs_count} initiations")
    t = time.monotonic()
    keys = Keys(a.hs_keys)
    msgs = keys.initiations(a.hs_count)
    made = time.monotonic() - t
    path = os.path.join(a.scratch, "hs-initiations")
    os.makedirs(a.scratch, exist_ok=True)
    with open(path, "wb") as f:
        f.write(msgs)
    g.emit(**base, row="setup", status="ok", made_s=made)
    # The engine before the floods (and after them, below): it needs
    # noise.ko, no device, no flood around it.
    engine = []
    if g.NOISE_STATE.get("loaded"):
        g.log("hsrate: engine (noise_bench.ko groups=hs)")
        engine.append(engine_rate(g, a.tree, a.smoke))
    # The rate: rounds of one flood per responder, a fresh device each,
    # in ABBA order (wg, noise, noise, wg, ...) so that a host getting
    # busier or quieter during the run does not favour one; the median
    # of each responder's runs. Then each once past the under-load
    # threshold: what its defences do to a flood from one source that
    # ignores cookie replies.
    runs = {"wg": [], "noise": []}
    for i in range(a.hs_rounds):
        for impl in ("wg", "noise") if i % 2 == 0 else ("noise", "wg"):
            runs[impl].append(one_flood(g, base, impl, keys, a.scratch,
                                        flooder, path, a.hs_count,
                                        a.hs_seconds, a.hs_window, i))
    for impl, rs in runs.items():
        g.emit(**base, row=impl, **combine(rs))
    for impl in ("wg", "noise"):
        r = one_flood(g, base, impl + "-over", keys, a.scratch, flooder,
                      path, a.hs_count, OVER_SECONDS, OVER_WINDOW, 0)
        g.emit(**base, row=impl + "-over", **r)
    if engine:
        engine.append(engine_rate(g, a.tree, a.smoke))
        g.emit(**base, row="engine", **combine_engine(engine))
    else:
        g.emit(**base, row="engine", status="unavailable",
               reason=g.NOISE_STATE.get("unavailable", "noise.ko not loaded"))


def combine_engine(es):
    """The engine before and after the floods: the mean of the two."""
    ok = [e for e in es if e["status"] == "ok"]
    if len(ok) < len(es):
        return next(e for e in es if e["status"] != "ok")
    out = dict(ok[0], runs=ok)
    for k in ("full_rate", "responder_rate", "responder_dh_bound"):
        if all(k in e for e in ok):
            out[k] = sum(e[k] for e in ok) / len(ok)
    for k in ("median_ns", "dh_ns"):
        if all(k in e for e in ok):
            out[k] = sum(e[k] for e in ok) / len(ok)
    return out


def median(xs):
    xs = sorted(x for x in xs if x is not None)
    if not xs:
        return None
    m = len(xs) // 2
    return xs[m] if len(xs) % 2 else (xs[m - 1] + xs[m]) / 2


def combine(rs):
    """One responder's runs: rates by their median, counts summed."""
    ok = [r for r in rs if r["status"] == "ok"]
    if not ok:
        bad = rs[0] if rs else {"status": "failed", "reason": "no run"}
        return {"status": bad["status"], "reason": bad.get("reason", "?"),
                "runs": len(rs)}
    out = {"status": "ok" if len(ok) == len(rs) else "failed",
           "runs": len(rs), "runs_ok": len(ok)}
    if len(ok) < len(rs):
        out["reason"] = next(r.get("reason", "?") for r in rs
                             if r["status"] != "ok")
    for k in ("completed_per_s", "offered_per_s", "per_responder_cpu_s",
              "sender_cpu_fraction", "guest_busy_fraction"):
        out[k] = median(r.get(k) for r in ok)
    out["completed_per_s_runs"] = [r["completed_per_s"] for r in ok]
    for k in ("sent", "responses", "lost", "cookie_replies", "unanswered",
              "dup_responses", "foreign_responses", "other"):
        out[k] = sum(r[k] for r in ok)
    cnt = [r["responder"].get("handshakes",
                              r["responder"].get("responses_accounted"))
           for r in ok]
    out["responder"] = {"handshakes_or_responses": sum(
        c for c in cnt if c is not None)}
    out["bound"] = "; ".join(sorted({r["bound"] for r in ok}))
    return out


def one_flood(g, base, row, keys, scratch, flooder, path, count, seconds,
              window, rnd):
    """One flood on a fresh responder; its record (also emitted alone)."""
    impl = row.split("-")[0]
    dev = None
    rec = {"round": rnd, "impl": impl}
    try:
        g.log(f"hsrate: {row} responder, window {window}, round {rnd}")
        dev = responder_up(g, impl, keys, scratch)
        time.sleep(0.2)
        r = flood(g, flooder, path, count, seconds, window)
        r["responder"] = responder_counters(g, impl, dev)
        ok = r["responses"] or (row.endswith("-over") and r["cookie_replies"])
        rec.update(status="ok" if ok else "failed", **r,
                   **({} if ok else {"reason": "no handshake response"}))
    except g.Unavailable as e:
        rec.update(status="unavailable", reason=str(e))
    except (g.Failed, ValueError, IndexError) as e:
        rec.update(status="failed", reason=str(e))
    finally:
        if dev:
            g.run(["ip", "-n", g.NS_B, "link", "del", dev], check=False)
            time.sleep(1)   # its peers' deferred freeing, before the next
    g.emit(**dict(base, kind="hsrate_run"), row=row, **rec)
    return rec


if __name__ == "__main__":
    if sys.argv[1:] == ["selftest"]:
        selftest()
    else:
        sys.exit(__doc__)

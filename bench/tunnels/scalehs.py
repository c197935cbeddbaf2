#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Row "scale", its handshake part: a responder's rate at N peers.

    scalehs.py selftest

For each N of --scale-n (N below 256 taken as 256) and each responder, a
fresh device in namespace tbB with N peers: the 256 initiator keys of the
flood (bench/tunnels/hsrate.py: the same keys, the same file of
initiations for every N) and N - 256 random public keys (no allowed IPs,
no endpoint). One flood of --hs-seconds at --hs-window unanswered (below
the under-load threshold) from tbA, as in row "hsrate" (hsrate.flood,
hsrate.one_flood; a fresh device per flood, --scale-hs-rounds floods per
(N, responder), the median taken; each round at an N floods every
responder once, so a spell of the host's other work does not fall on one
responder's floods alone). Responders:

- wg: the kernel's WireGuard (its peers found by decrypting the static key
  and looking it up in its peer hash table);
- noise-wg: ours, WireGuard profile (the same message 1, the same lookup
  by key);
- noise-kk: ours, Noise_KK_25519_ChaChaPoly_BLAKE2s, a hinted protocol:
  the initiator's static key is a pre-message, so message 1 carries a
  32-byte hint (Documentation/wire-format.rst) and the responder finds the
  peer by the hint's id in its id table (peer.c), not by a key in message
  1. Message 1 here: header, hint, e, the timestamp encrypted after es and
  ss; 136 bytes, the response 92.

One "tbench: {"kind": "scale_hs", ...}" line per (N, responder).
"selftest" opens generated KK initiations on the host (the responder's
side written here too: the bench's own check is whether the kernel
answers every one).
"""

import hashlib
import hmac
import os
import struct
import sys
import time

import hsrate as hs

KK = "Noise_KK_25519_ChaChaPoly_BLAKE2s"
LABEL_ID = b"noise-tunnel id"
LABEL_HINT = b"noise-tunnel hint"
INITIATORS = 256
ROWS = ("wg", "noise-wg", "noise-kk")


def hint_id(ss):
    """id = BLAKE2s-256(ss, key "noise-tunnel id")."""
    return hashlib.blake2s(ss, key=LABEL_ID).digest()


def hint_mask(k, e_pub):
    """BLAKE2s-256(key = BLAKE2s-256(k, key LABEL_HINT), e_pub || LABEL)."""
    key = hashlib.blake2s(k, key=LABEL_HINT).digest()
    return hashlib.blake2s(e_pub + LABEL_HINT, key=key).digest()


def xor(a, b):
    return bytes(x ^ y for x, y in zip(a, b))


def extra_peers(pubs):
    return "".join(f"[Peer]\nPublicKey = {p}\n\n" for p in pubs)


class WgAtN(hs.Keys):
    """hsrate's WireGuard keys, the responder's file with more peers."""
    extra = ()

    def wg_conf(self, port):
        return hs.Keys.wg_conf(self, port) + "\n" + extra_peers(self.extra)


class KKKeys(hs.NativeKeys):
    """Ours, KK (hinted): message 1 with the hint, more peers."""
    extra = ()

    def __init__(self, nkeys):
        hs.NativeKeys.__init__(self, nkeys, KK)

    def conf(self, port):
        return hs.NativeKeys.conf(self, port) + "\n" + \
            extra_peers(self.extra)

    def start(self, s_pub):
        """KK: MixHash(prologue), then the pre-messages s (ours), s (its)."""
        ck, h = hs.noise_start(KK, self.prologue, s_pub)
        return ck, hs.blake2s(h, self.resp_pub)

    def initiation(self, index, key, ts_ns):
        """Header, hint, then e, es, ss and the timestamp; mac1, mac2 0."""
        _, s_pub, ss = self.init[key]
        e = hs.X25519PrivateKey.generate()
        e_pub, k_es = hs.raw_pub(e), e.exchange(self.resp_pub_obj)
        ck, h = self.start(s_pub)
        h = hs.blake2s(h, e_pub)                         # e
        ck, _ = hs.kdf2(ck, k_es)                        # es
        ck, k = hs.kdf2(ck, ss)                          # ss
        noise = e_pub + hs.aead_n(k, 0, hs.tai64n_ms(ts_ns), h)
        body = (bytes((1, hs.WIRE_VERSION, 1, 0)) +
                struct.pack("<II", index, 0) +
                xor(hint_id(ss), hint_mask(k_es, e_pub)) + noise)
        mac1 = hashlib.blake2s(body, key=self.mac1_key,
                               digest_size=16).digest()
        return body + mac1 + bytes(16)


def kk_open(keys, msg):
    """The responder's side of one KK message 1: (id, timestamp)."""
    assert len(msg) == keys.msg_len and msg[:4] == b"\1\1\1\0"
    mac1 = hashlib.blake2s(msg[:-32], key=keys.mac1_key,
                           digest_size=16).digest()
    assert hmac.compare_digest(mac1, msg[-32:-16]), "mac1"
    ct, e_pub = msg[12:44], msg[44:76]
    k_es = keys.resp.exchange(hs.X25519PublicKey.from_public_bytes(e_pub))
    pid = xor(ct, hint_mask(k_es, e_pub))
    peer = next(p for p in keys.init if hint_id(p[2]) == pid)
    ck, h = keys.start(peer[1])
    h = hs.blake2s(h, e_pub)
    ck, _ = hs.kdf2(ck, k_es)
    ck, k = hs.kdf2(ck, peer[2])
    return pid, hs.open_n(k, 0, msg[76:-32], h)


def selftest():
    keys = KKKeys(3)
    msgs = keys.initiations(6)
    assert len(msgs) == 6 * keys.msg_len
    for i in range(6):
        pid, ts = kk_open(keys, msgs[i * 136:(i + 1) * 136])
        assert pid == hint_id(keys.init[i % 3][2]) and len(ts) == 12
    print("scalehs selftest: ok (KK message 1 with its hint)")


# ------------------------------------------------------------ in the guest

def make_keys(g, a):
    """{row: (keys, file of initiations)}: wg and noise-wg share theirs."""
    out = {}
    for row, cls in (("wg", WgAtN), ("noise-kk", KKKeys)):
        t = time.monotonic()
        keys = cls(INITIATORS)
        path = os.path.join(a.scratch, f"scalehs-{row}")
        with open(path, "wb") as f:
            f.write(keys.initiations(a.hs_count))
        out[row] = (keys, path)
        g.log(f"scale hs: {row}: {a.hs_count} initiations made in "
              f"{time.monotonic() - t:.1f} s")
    out["noise-wg"] = out["wg"]
    return out


def at_n(g, a, base, order, keys, n, flooder):
    """The floods at one N, a fresh device of N peers each, one
    "scale_hs" record per responder: round i floods each responder once,
    in @order turned by i, so that a spell of the host's other work
    slows a flood of each rather than all of one responder's."""
    for row in order:   # wg and noise-wg share their keys, so the peers
        keys[row][0].extra = [hs.b64(os.urandom(32))
                              for _ in range(n - INITIATORS)]
    runs = {row: [] for row in order}
    t0 = time.monotonic()
    for i in range(a.scale_hs_rounds):
        k = i % len(order)
        for row in order[k:] + order[:k]:
            t = time.monotonic()
            proto = KK if row == "noise-kk" else hs.PROTOCOL
            r = hs.one_flood(g, dict(base, n=n, protocol=proto), row,
                             keys[row][0], a.scratch, flooder, keys[row][1],
                             a.hs_count, a.hs_seconds, a.hs_window, i,
                             mark=f"{row}@{n}")
            r["with_setup_s"] = time.monotonic() - t
            runs[row].append(r)
    for row in order:
        keys[row][0].extra = ()
        proto = KK if row == "noise-kk" else hs.PROTOCOL
        rec = combine_cell(runs[row])
        g.emit(**base, row=row, n=n, protocol=proto, **rec)
        g.log(f"scale hs: N={n} {row}: {rec.get('completed_per_s')} /s")
    g.log(f"scale hs: N={n}: {time.monotonic() - t0:.1f} s")


def combine_cell(runs):
    """One responder's floods at one N as one record."""
    out = hs.combine(runs)
    out["with_setup_s"] = [r["with_setup_s"] for r in runs]
    drops = {}
    for r in runs:
        for k, v in r.get("responder", {}).items():
            if k.startswith("drop_") and v:
                drops[k] = drops.get(k, 0) + v
    out["drops"] = drops
    return out


def run_rows(g, a, ns):
    """One "scale_hs" record per (N, responder); N below 256 is 256."""
    base = dict(kind="scale_hs", initiators=INITIATORS, hs_count=a.hs_count,
                hs_seconds=a.hs_seconds, hs_window=a.hs_window,
                rounds=a.scale_hs_rounds)
    flooder = os.path.join(os.path.abspath(a.tree), "build/tbench/hsflood")
    why = None if hs.HAVE_CRYPTO else "python3-cryptography not installed"
    if not why and not os.access(flooder, os.X_OK):
        why = f"{flooder} not built"
    # In the order given (a run from the largest N down shows whether a
    # trend is the host's load drifting), each once.
    hn = list(dict.fromkeys(max(n, INITIATORS) for n in ns))
    if why:
        for n in hn:
            for row in ROWS:
                g.emit(**base, row=row, n=n, status="unavailable", reason=why)
        return
    keys = make_keys(g, a)
    for j, n in enumerate(hn):
        # The responders' order turns at each N (host load drifts).
        at_n(g, a, base, ROWS if j % 2 == 0 else ROWS[::-1], keys, n,
             flooder)


# ------------------------------------------------------------ the report
# (bench/tunnels/scale.py's markdown() adds this section)

LABELS = {"wg": "WireGuard (kernel)", "noise-wg": "noise, WireGuard profile",
          "noise-kk": "noise, " + KK + " (hinted)"}


def fmt(x, digits=0):
    return "-" if x is None else f"{x:,.{digits}f}"


def best(r):
    """The fastest flood of a cell: other work on a shared host only
    slows a flood down, so the best is the nearest the responder's own."""
    runs = [x for x in r.get("completed_per_s_runs", []) if x]
    return max(runs) if runs else None


def summary(recs):
    """Rates by (row, N), each against its own smallest N and against
    WireGuard at that N: of the median and of the best flood."""
    out = {}
    for key, fig in (("", lambda r: r.get("completed_per_s")),
                     ("best_", best)):
        rate = {(r["row"], r["n"]): fig(r) for r in recs
                if r.get("status") == "ok"}
        for row in ROWS:
            ns = sorted(n for x, n in rate if x == row and rate[(x, n)])
            for n in ns:
                w = rate.get(("wg", n))
                out.setdefault(row, {}).setdefault(n, {}).update({
                    key + "completed_per_s": rate[(row, n)],
                    key + "of_smallest_n": rate[(row, n)] / rate[
                        (row, ns[0])],
                    key + "of_wg": rate[(row, n)] / w if w else None})
    return out


def markdown(recs, host=None):
    if not recs:
        return [], {}
    s = summary(recs)
    r0 = recs[0]
    out = ["### Handshake rate of a responder with N peers\n",
           f"- {r0.get('initiators')} initiator keys (peers of the "
           "responder; the other N - 256 peers random keys), N below 256 "
           f"taken as 256; {r0.get('hs_count'):,} initiations made, one "
           f"flood of at most {r0.get('hs_seconds')} s, at most "
           f"{r0.get('hs_window')} unanswered, {r0.get('rounds')} flood(s) "
           "per cell, a fresh device each (rate: the median; and the best "
           "flood, the nearest the responder's own rate on a shared host); "
           "completed: handshake responses per second at the sender (as "
           "row hsrate)",
           "- goal: ours at N = 100,000 at least 0.9 x ours at the smallest "
           "N; WireGuard's peer hash table has a fixed number of buckets\n",
           "| N | responder | completed/s | x its smallest N | x WireGuard "
           "| best flood /s | x its smallest N | x WireGuard | sent | "
           "answered | cookies | responder drops | bound |",
           "|---:|---|" + "---:|" * 9 + "---|---|"]
    for r in sorted(recs, key=lambda r: (r["n"], ROWS.index(r["row"]))):
        cells = [f"{r['n']:,}", LABELS.get(r["row"], r["row"])]
        if r.get("status") != "ok":
            out.append("| " + " | ".join(cells) + f" | {r.get('status')}: "
                       f"{r.get('reason', '?')} |" + " |" * 10)
            continue
        x = s.get(r["row"], {}).get(r["n"], {})
        cells += [fmt(r.get("completed_per_s")),
                  fmt(x.get("of_smallest_n"), 2), fmt(x.get("of_wg"), 2),
                  fmt(x.get("best_completed_per_s")),
                  fmt(x.get("best_of_smallest_n"), 2),
                  fmt(x.get("best_of_wg"), 2),
                  fmt(r.get("sent")), fmt(r.get("responses")),
                  fmt(r.get("cookie_replies")),
                  ", ".join(f"{k} {v}" for k, v in r.get("drops", {}).items())
                  or "none", r.get("bound", "")]
        out.append("| " + " | ".join(cells) + " |")
    out += ["", "Each flood, completed/s (the busiest thread's CPU per "
            "response, µs: the same work in every flood, so a slow flood "
            "that costs more here spent more CPU on each handshake, its "
            "own or what the host took, which UML charges to the running "
            "thread):", ""]
    for r in sorted(recs, key=lambda r: (r["n"], ROWS.index(r["row"]))):
        if r.get("status") != "ok":
            continue
        rates = r.get("completed_per_s_runs", [])
        us = r.get("busiest_us_per_response_runs") or [None] * len(rates)
        runs = [fmt(x) + (f" ({fmt(u)})" if u else "")
                for x, u in zip(rates, us)]
        out.append(f"- {r['n']:,} {LABELS.get(r['row'], r['row'])}: "
                   + ", ".join(runs))
    return out + [""], s


def main():
    if sys.argv[1:] == ["selftest"]:
        selftest()
        return 0
    print(__doc__.splitlines()[2].strip(), file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The one-CPU bound of a tunnel's TCP throughput, per cipher.

    bound.py selftest

Used by bench/tunnels/guest whenever the veth row is among the rows: UML
runs one CPU, so every byte a tunnel carries costs at least the bare veth
path (the veth row's TCP throughput in the same boot), one encryption and
one decryption of the tunnel's own full-size transport message. Per
cipher (ChaChaPoly, AESGCM):

    B = 1 / (t_veth + t_encrypt + t_decrypt)     (seconds per byte)

t_veth = 1 / the veth row's TCP rate; t_encrypt, t_decrypt = the raw
AEAD's median time per message (noise_bench.ko groups=aead, the driver
the engine and the tunnel use, aead_size= the message's plaintext) /
that plaintext's bytes. The message: a full-MTU inner packet (MTU 1420),
padded to 16 as the tunnel pads, but never past the MTU
(noise_encrypt_skb() in kmod/noise/tunnel/send.c; WireGuard does the
same), so 1420 bytes of plaintext and a 16-byte tag.

The raw AEAD is timed twice, before the tunnel rows and after them; the
bound uses the mean of the two medians. Records: "bound_aead" (one per
run and cipher) and "bound" (one per cipher). bench/tunnels/report
divides each tunnel row's TCP rate by the bound of its cipher. Nothing
here fails on timing: a missing module or figure is "unavailable".

"selftest" checks the arithmetic and the parsing on the host.
"""

import re
import sys

CIPHERS = ("ChaChaPoly", "AESGCM")
PADDING = 16        # NOISE_PADDING (kmod/noise/tunnel/messages.h)
TAG_LEN = 16


def plaintext_len(mtu):
    """A full-MTU inner packet's plaintext: padded to 16, capped at the MTU."""
    padded = -(-mtu // PADDING) * PADDING
    return padded if padded <= mtu else mtu


def cipher_of(protocol):
    """The cipher of a Noise protocol name, or None (veth: no protocol)."""
    for c in CIPHERS:
        if f"_{c}_" in f"{protocol}_":
            return c
    return None


def parse_aead(lines, size):
    """noise_bench aead_raw and driver lines -> {cipher: {...}}."""
    out = {}
    for line in lines:
        m = re.search(r"noise_bench: (aead_raw|driver) (.*)$", line)
        if not m:
            continue
        kv = dict(w.split("=", 1) for w in m.group(2).split() if "=" in w)
        c = out.setdefault(kv.get("cipher", "?"), {})
        if m.group(1) == "driver":
            c["driver"] = kv.get("raw")
        elif int(kv.get("size", -1)) == size and kv.get("op") in ("enc",
                                                                  "dec"):
            c[kv["op"] + "_ns"] = int(kv["median"])
            c[kv["op"] + "_mean_ns"] = int(kv["mean"])
            c[kv["op"] + "_samples"] = int(kv["samples"])
    return {k: v for k, v in out.items() if k in CIPHERS}


def aead_run(g, a, when):
    """Time the raw AEAD at the message size once; one record per cipher."""
    import hsrate     # bench/tunnels/hsrate.py: its noise_bench.ko helper
    size = plaintext_len(g.MTU)
    # 1000 samples (about a second per run on the bench kernel); smoke
    # (debug kernel): few samples, no figure is read.
    iters = ["tr_iters=20", "min_sample_us=5"] if a.smoke else \
        ["tr_iters=1000"]
    if g.NOISE_STATE.get("loaded"):
        err, took, lines = hsrate.bench_lines(
            g, a.tree, ["groups=aead", f"aead_size={size}"] + iters, 300)
    else:       # noise_bench.ko takes the engine's symbols from noise.ko
        why = g.NOISE_STATE.get("unavailable", "noise.ko not loaded")
        err, took, lines = {"status": "unavailable", "reason": why}, 0, []
    got = parse_aead(lines, size) if not err else {}
    done = any("noise_bench: done errors=0" in x for x in lines)
    out = {}
    for c in CIPHERS:
        r = dict(got.get(c, {}), run=when, cipher=c, size=size, took_s=took)
        if err:
            r.update(err)
        elif "enc_ns" in r and "dec_ns" in r and done:
            r["status"] = "ok"
        else:
            r.update(status="failed", reason="no aead_raw rows at "
                     f"size={size} in dmesg, or an error in the module")
        g.emit(kind="bound_aead", **r)
        out[c] = r
    return out


def bound(veth_mbps, enc_ns, dec_ns, size):
    """B in Mbit/s and its three parts in ns per byte."""
    t_veth = 8e3 / veth_mbps            # ns per byte at veth_mbps
    t_enc, t_dec = enc_ns / size, dec_ns / size
    return {"mbps": 8e3 / (t_veth + t_enc + t_dec),
            "veth_ns_per_byte": t_veth, "enc_ns_per_byte": t_enc,
            "dec_ns_per_byte": t_dec}


def run_rows(g, a, runs, veth_tcp):
    """One "bound" record per cipher from the AEAD runs and veth's TCP."""
    size = plaintext_len(g.MTU)
    for c in CIPHERS:
        ok = [r[c] for r in runs if r.get(c, {}).get("status") == "ok"]
        base = dict(kind="bound", cipher=c, mtu=g.MTU, plaintext=size,
                    message=size + TAG_LEN)
        if not veth_tcp or not veth_tcp.get("mbps"):
            g.emit(**base, status="unavailable",
                   reason="no TCP figure from the veth row in this boot")
            continue
        if not ok:
            bad = next((r[c] for r in runs if c in r), {})
            g.emit(**base, status="unavailable" if bad.get(
                "status") == "unavailable" else "failed",
                reason=bad.get("reason", "no raw AEAD figure"))
            continue
        enc = sum(r["enc_ns"] for r in ok) / len(ok)
        dec = sum(r["dec_ns"] for r in ok) / len(ok)
        b = bound(veth_tcp["mbps"], enc, dec, size)
        g.emit(**base, status="ok", veth_mbps=veth_tcp["mbps"],
               enc_ns=enc, dec_ns=dec, runs=len(ok),
               driver=ok[0].get("driver"), bound_mbps=b.pop("mbps"), **b)


def selftest():
    assert plaintext_len(1420) == 1420      # 1424 would pass the MTU
    assert plaintext_len(1408) == 1408
    assert plaintext_len(1400) == 1400
    assert plaintext_len(1280) == 1280
    assert cipher_of("Noise_IK_25519_AESGCM_SHA256") == "AESGCM"
    assert cipher_of("Noise_IKpsk2_25519_ChaChaPoly_BLAKE2s") == "ChaChaPoly"
    assert cipher_of("-") is None
    b = bound(8000.0, 1420.0, 2840.0, 1420)  # 1 + 1 + 2 ns per byte
    assert abs(b["mbps"] - 2000.0) < 1e-9, b
    lines = [
        "[ 1.0] noise_bench: driver cipher=ChaChaPoly alg=x raw=drv engine=e",
        "[ 1.1] noise_bench: aead_raw cipher=ChaChaPoly op=enc size=1420 "
        "n=1 samples=300 batch=9 mean=3300 median=3200 std=1 min=1 max=9",
        "[ 1.2] noise_bench: aead_raw cipher=ChaChaPoly op=dec size=1420 "
        "n=1 samples=300 batch=9 mean=3200 median=3100 std=1 min=1 max=9",
        "[ 1.3] noise_bench: aead_raw cipher=AESGCM op=enc size=64 "
        "n=1 samples=300 batch=9 mean=3200 median=3100 std=1 min=1 max=9"]
    got = parse_aead(lines, 1420)
    assert got["ChaChaPoly"] == {"driver": "drv", "enc_ns": 3200,
                                 "enc_mean_ns": 3300, "enc_samples": 300,
                                 "dec_ns": 3100, "dec_mean_ns": 3200,
                                 "dec_samples": 300}, got
    assert "enc_ns" not in got.get("AESGCM", {})
    print("bound selftest: ok")


if __name__ == "__main__":
    if sys.argv[1:] == ["selftest"]:
        selftest()
    else:
        sys.exit(__doc__)

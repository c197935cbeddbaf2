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
groups=hs, the rows with the static-static DH cached): a whole handshake
with both sides in one kernel thread, and the responder's side timed
alone (hs_resp: a new responder state reads an initiation written before
the batch, writes its response and splits), the figure the tunnel's
responder is held to.

Then our device with our own framing (Documentation/wire-format.rst) and
two protocols, Noise_IK_25519_ChaChaPoly_BLAKE2s and its hfs twin
Noise_IKhfs_25519+MLKEM768_ChaChaPoly_BLAKE2s (NativeKeys: no PSK, the
tunnel's prologue and MAC1 label, millisecond timestamps, 152 and 1,352
bytes). The initiator's e1 is one ML-KEM-768 encapsulation key made of
random coefficients below q (fake_mlkem768_pub), the same in every
initiation: Encaps checks only that, so each initiation costs the
responder a real Encaps; nothing decrypts the responses. Each responder
must first answer every one of CHECK_COUNT initiations with no drop
(rows noise-ik-check, noise-ikhfs-check), then ABBA rounds of IK and
IKhfs, and the engine's hs_hfs pair (noise_bench.ko) before and after.

"selftest" checks the construction on the host: the responder's side of
message 1 (written here too, so a weaker check than a real responder:
the bench itself checks against the kernel's WireGuard, and our framing
by the check above) opens the static key and timestamp of generated
initiations and checks mac1; for ours also the e1 modulus check, and,
when the vector files are found ($NOISE_SHARED, default ../shared next
to the tree), message 1 of the published IK and IKhfs vectors is written
again here byte for byte.
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


# --------------------------------------------- our framing: IK and IKhfs

NATIVE_IK = "Noise_IK_25519_ChaChaPoly_BLAKE2s"
NATIVE_IKHFS = "Noise_IKhfs_25519+MLKEM768_ChaChaPoly_BLAKE2s"
NATIVE_PROTOCOLS = (NATIVE_IK, NATIVE_IKHFS)
WIRE_VERSION = 1
PROLOGUE_PREFIX = b"noise-tunnel wire"
LABEL_MAC1_NATIVE = b"noise-tunnel mac1"
MLKEM_Q = 3329
MLKEM768_K = 3
MLKEM768_PUB = 384 * MLKEM768_K + 32        # 1184
# Message 1: 12-byte header, e, [e1 encrypted], s encrypted, timestamp
# encrypted, mac1, mac2; message 2: header, e, [ekem1 encrypted], empty
# payload's tag, mac1, mac2 (Documentation/wire-format.rst).
NATIVE_LEN = {NATIVE_IK: (152, 92), NATIVE_IKHFS: (1352, 1196),
              # hinted (+ 32: the hint); bench/tunnels/scalehs.py writes it
              "Noise_KK_25519_ChaChaPoly_BLAKE2s": (136, 92)}


def aead_n(key, n, pt, ad):
    """ChaChaPoly of Noise: nonce 32 zero bits, then n little endian."""
    nonce = bytes(4) + struct.pack("<Q", n)
    return ChaCha20Poly1305(key).encrypt(nonce, pt, ad)


def open_n(key, n, ct, ad):
    nonce = bytes(4) + struct.pack("<Q", n)
    return ChaCha20Poly1305(key).decrypt(nonce, ct, ad)


def fake_mlkem768_pub():
    """An ML-KEM-768 encapsulation key that Encaps accepts.

    Encaps checks only that the 384*k bytes decode to coefficients below
    q = 3329 (FIPS 203, 7.2 modulus check): random 12-bit coefficients
    below q, packed two to three bytes (ByteEncode12), then a random
    32-byte rho. The responder's Encaps costs what it costs with a real
    key; nobody here holds the decapsulation key (nothing decrypts the
    responses)."""
    coeffs = []
    while len(coeffs) < 256 * MLKEM768_K:
        c = struct.unpack("<H", os.urandom(2))[0] & 0xfff
        if c < MLKEM_Q:
            coeffs.append(c)
    out = bytearray()
    for a, b in zip(coeffs[0::2], coeffs[1::2]):
        out += bytes((a & 0xff, (a >> 8) | (b & 0xf) << 4, b >> 4))
    return bytes(out) + os.urandom(32)


def mlkem_pub_ok(pub):
    """The modulus check of FIPS 203 Encaps (ByteDecode12 < q)."""
    if len(pub) != MLKEM768_PUB:
        return False
    for i in range(0, 384 * MLKEM768_K, 3):
        b0, b1, b2 = pub[i:i + 3]
        if (b0 | (b1 & 0xf) << 8) >= MLKEM_Q or (b1 >> 4 | b2 << 4) >= MLKEM_Q:
            return False
    return True


def noise_start(name, prologue, rs_pub):
    """InitializeSymmetric(name), MixHash(prologue), MixHash(rs): (ck, h)."""
    n = name.encode()
    h = n.ljust(32, b"\0") if len(n) <= 32 else blake2s(n)
    return h, blake2s(blake2s(h, prologue), rs_pub)


def ik_write1(state, e, s_pub, ss, rs_obj, payload, kem_pub=None):
    """Message 1 of IK (e, es, s, ss) or IKhfs (e, es, e1, s, ss)."""
    ck, h = state
    e_pub = raw_pub(e)
    h = blake2s(h, e_pub)                               # e
    ck, k = kdf2(ck, e.exchange(rs_obj))                # es
    out, n = [e_pub], 0
    if kem_pub is not None:                             # e1
        out.append(aead_n(k, 0, kem_pub, h))
        h, n = blake2s(h, out[-1]), 1
    out.append(aead_n(k, n, s_pub, h))                  # s
    h = blake2s(h, out[-1])
    ck, k = kdf2(ck, ss)                                # ss
    out.append(aead_n(k, 0, payload, h))
    return b"".join(out)


def ik_read1(state, r_priv, msg, hfs):
    """The responder's side: (s_pub, e1 or None, payload); raises if bad."""
    ck, h = state
    e_pub, off = msg[:32], 32
    h = blake2s(h, e_pub)
    ck, k = kdf2(ck, r_priv.exchange(X25519PublicKey.from_public_bytes(e_pub)))
    kem, n = None, 0
    if hfs:
        c = msg[off:off + MLKEM768_PUB + 16]
        kem, off = open_n(k, 0, c, h), off + len(c)
        h, n = blake2s(h, c), 1
    c = msg[off:off + 48]
    s_pub, off = open_n(k, n, c, h), off + 48
    h = blake2s(h, c)
    ck, k = kdf2(ck, r_priv.exchange(X25519PublicKey.from_public_bytes(s_pub)))
    return s_pub, kem, open_n(k, 0, msg[off:], h)


def tai64n_ms(ns):
    """TAI64N with the nanoseconds rounded down to milliseconds, as ours."""
    return tai64n(ns - ns % 10**6)


class NativeKeys:
    """Our framing: a responder key and initiator keys, no PSK."""

    def __init__(self, nkeys, protocol):
        self.protocol = protocol
        self.hfs = "hfs" in protocol
        self.msg_len, self.resp_len = NATIVE_LEN[protocol]
        self.resp = X25519PrivateKey.generate()
        self.resp_pub = raw_pub(self.resp)
        self.resp_pub_obj = X25519PublicKey.from_public_bytes(self.resp_pub)
        self.init = []
        for _ in range(nkeys):
            k = X25519PrivateKey.generate()
            self.init.append((k, raw_pub(k), k.exchange(self.resp_pub_obj)))
        self.mac1_key = blake2s(LABEL_MAC1_NATIVE, self.resp_pub)
        self.prologue = (PROLOGUE_PREFIX + bytes((WIRE_VERSION,)) +
                         protocol.encode())
        self.state = noise_start(protocol, self.prologue, self.resp_pub)
        # One encapsulation key for every initiation (see fake_mlkem768_pub).
        self.kem_pub = fake_mlkem768_pub() if self.hfs else None

    def conf(self, port):
        """A `noisectl setconf` file: the protocol, every initiator a peer."""
        out = ["[Interface]", f"Protocol = {self.protocol}",
               f"PrivateKey = {b64(raw_priv(self.resp))}",
               f"ListenPort = {port}", ""]
        for _, pub, _ in self.init:
            out += ["[Peer]", f"PublicKey = {b64(pub)}", ""]
        return "\n".join(out)

    def initiation(self, index, key, ts_ns):
        """One message 1 of ours: header, Noise message, mac1, mac2 zero."""
        _, s_pub, ss = self.init[key]
        noise = ik_write1(self.state, X25519PrivateKey.generate(), s_pub, ss,
                          self.resp_pub_obj, tai64n_ms(ts_ns), self.kem_pub)
        body = (bytes((1, WIRE_VERSION, 1, 0)) + struct.pack("<II", index, 0)
                + noise)
        mac1 = hashlib.blake2s(body, key=self.mac1_key,
                               digest_size=16).digest()
        return body + mac1 + bytes(16)

    def initiations(self, count):
        """count initiations, keys round robin, timestamps 1 ms apart."""
        t = time.time_ns()
        n = len(self.init)
        return b"".join(self.initiation(i, i % n, t + i * 10**6)
                        for i in range(count))


def native_open(keys, msg):
    """Our responder's side of one of ours: (s_pub, timestamp)."""
    assert len(msg) == keys.msg_len and msg[:4] == b"\1\1\1\0"
    assert msg[8:12] == bytes(4), "receiver index 0 in message 1"
    mac1 = hashlib.blake2s(msg[:-32], key=keys.mac1_key,
                           digest_size=16).digest()
    assert hmac.compare_digest(mac1, msg[-32:-16]), "mac1"
    s_pub, kem, ts = ik_read1(keys.state, keys.resp, msg[12:-32], keys.hfs)
    assert kem is None or (kem == keys.kem_pub and mlkem_pub_ok(kem))
    assert len(ts) == 12 and struct.unpack(">I", ts[8:])[0] % 10**6 == 0
    return s_pub, ts


def vector_check(path, name):
    """Message 1 of a published vector, written again here byte for byte."""
    with open(path) as f:
        vs = json.load(f)["vectors"]
    v = next((x for x in vs if x["protocol_name"] == name
              and "init_psks" not in x), None)
    if v is None:
        return f"{name}: not in {os.path.basename(path)}"
    b = bytes.fromhex
    resp = X25519PrivateKey.from_private_bytes(b(v["resp_static"]))
    s = X25519PrivateKey.from_private_bytes(b(v["init_static"]))
    rs = X25519PublicKey.from_public_bytes(raw_pub(resp))
    want = b(v["messages"][0]["ciphertext"])
    state = noise_start(name, b(v["init_prologue"]), raw_pub(resp))
    _, kem, pay = ik_read1(state, resp, want, "hfs" in name)
    got = ik_write1(state, X25519PrivateKey.from_private_bytes(
        b(v["init_ephemeral"])), raw_pub(s), s.exchange(rs), rs,
        b(v["messages"][0]["payload"]), kem)
    assert got == want, f"{name}: message 1 differs from the vector"
    assert pay == b(v["messages"][0]["payload"])
    assert kem is None or mlkem_pub_ok(kem)
    return f"{name}: message 1 of the vector matches"


def native_selftest():
    """Ours: generated messages opened, then the vectors if found."""
    for proto in NATIVE_PROTOCOLS:
        keys = NativeKeys(3, proto)
        msgs = keys.initiations(7)
        assert len(msgs) == 7 * keys.msg_len
        last = {}
        for i in range(7):
            m = msgs[i * keys.msg_len:(i + 1) * keys.msg_len]
            assert struct.unpack("<I", m[4:8])[0] == i
            s_pub, ts = native_open(keys, m)
            assert s_pub == keys.init[i % 3][1]
            assert ts > last.get(s_pub, b""), "timestamp must grow per key"
            last[s_pub] = ts
        bad = bytearray(keys.kem_pub or b"")
        if bad:
            bad[0:2] = b"\xff\x0f"     # coefficient 4095 >= q
            assert not mlkem_pub_ok(bytes(bad))
    shared = os.environ.get("NOISE_SHARED", os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "../../../shared"))
    for f, name in (("vectors/cacophony.txt", NATIVE_IK),
                    ("vectors/hfs/hfs-public.txt", NATIVE_IKHFS)):
        path = os.path.join(shared, f)
        if os.path.exists(path):
            print("hsrate selftest: " + vector_check(path, name))
        else:
            print(f"hsrate selftest: {name}: no vector file ({path}), "
                  "not checked against one")


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
    native_selftest()
    for proto in NATIVE_PROTOCOLS:
        t = time.monotonic()
        NativeKeys(16, proto).initiations(500)
        print(f"hsrate selftest: {proto}: ok "
              f"({500 / (time.monotonic() - t):.0f} initiations/s made here)")


# ------------------------------------------------------------ in the guest

def cpu_split():
    """/proc/stat's first line by name (jiffies)."""
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:9]]
    return dict(zip(("user", "nice", "system", "idle", "iowait", "irq",
                     "softirq", "steal"), v))


def cpu_jiffies(split):
    """(busy, all) jiffies of a cpu_split()."""
    return split["user"] + split["nice"] + split["system"] + split["irq"] \
        + split["softirq"] + split["steal"], sum(split.values())


def cpu_threads():
    """{tid: (name, user + system jiffies)} of every thread in the guest."""
    out = {}
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            tids = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for tid in tids:
            try:
                with open(f"/proc/{pid}/task/{tid}/stat") as f:
                    s = f.read()
            except OSError:
                continue
            name = s[s.index("(") + 1:s.rindex(")")]
            v = s[s.rindex(")") + 2:].split()
            out[tid] = (name, int(v[11]) + int(v[12]))
    return out


def where_cpu_went(s0, s1, t0, t1, top=6):
    """The CPU during a flood: the split of /proc/stat and the threads
    that used most of it (a flood slower than its pair shows here what
    else ran)."""
    total = max(1, sum(s1.values()) - sum(s0.values()))
    split = {k: round((s1[k] - s0[k]) / total, 3) for k in s1}
    used = sorted(((t1[k][1] - t0.get(k, ("", 0))[1], t1[k][0], k)
                   for k in t1), reverse=True)
    hz = os.sysconf("SC_CLK_TCK")
    return split, [{"thread": f"{n}/{k}", "share": round(d / total, 3),
                    "cpu_s": d / hz} for d, n, k in used[:top] if d > 0]


def bench_lines(g, tree, params, timeout):
    """noise_bench.ko once with module parameters @params (a list).

    Returns (error dict or None, seconds it took, its new dmesg lines).
    Also used by the bound (bench/tunnels/bound.py)."""
    ko = os.path.join(tree, "bench/noise_bench.ko")
    if not os.path.exists(ko):
        return {"status": "unavailable", "reason": f"{ko} not built"}, 0, []
    before = len(g.run(["dmesg"]).stdout.splitlines())
    t = time.monotonic()
    p = g.run(["insmod", ko] + params, check=False, timeout=timeout)
    took = time.monotonic() - t
    g.run(["rmmod", "noise_bench"], check=False)
    if p.returncode:
        return {"status": "failed",
                "reason": f"insmod noise_bench.ko: {p.stderr.strip()}"}, took, []
    return None, took, g.run(["dmesg"]).stdout.splitlines()[before:]


def bench_hs_lines(g, tree, match, iters, timeout):
    """noise_bench.ko groups=hs for protocols matching @match, once.

    As bench_lines(); @iters: samples per row (0: the module's default)."""
    extra = [f"hs_iters={iters}", f"dh_iters={iters}"] if iters else []
    return bench_lines(g, tree, ["groups=hs", f"hs_match={match}",
                                 "hs_parts=0"] + extra, timeout)


ENGINE_SAMPLES = 600


def engine_rate(g, tree, smoke):
    """The engine's IKpsk2 rates in this boot (noise_bench.ko): the whole
    handshake and the responder's side alone, static-static DH cached."""
    # Smoke: few samples (the debug kernel is slow; no figure is read).
    # Else 600 a row, about 0.3 s for the responder's: a spell of the
    # host's own load that short no longer moves a median.
    err, took, lines = bench_hs_lines(g, tree, PROTOCOL,
                                      20 if smoke else ENGINE_SAMPLES, 600)
    if err:
        return err
    rows = {}
    for line in lines:
        m = re.search(r"noise_bench: (hs|hs_resp|dh_ref) (.*)$", line)
        if not m or f"protocol={PROTOCOL} " not in m.group(2) + " ":
            continue
        kv = dict(w.split("=", 1) for w in m.group(2).split() if "=" in w)
        cached = " ss=cached" in m.group(2)
        rows[(m.group(1), kv.get("static"), cached, kv.get("side"))] = kv
    hs = rows.get(("hs", "once", True, None))
    ref = rows.get(("dh_ref", "once", True, None))
    resp = rows.get(("hs_resp", "once", True, "responder"))
    if not hs:
        return {"status": "failed", "reason": "no ss=cached hs row in dmesg"}
    out = {"status": "ok", "took_s": took, "median_ns": int(hs["median"]),
           "mean_ns": int(hs["mean"]), "samples": int(hs["samples"]),
           "dh_ops": int(hs["dh_ops"]),
           "full_rate": 1e9 / int(hs["median"]),
           # Half the whole handshake: 4 of its 8 scalar mults.
           "half_rate": 2e9 / int(hs["median"])}
    # The responder's side timed alone; half the whole handshake without it.
    out["responder_rate"] = out["half_rate"]
    out["responder_measured"] = bool(resp)
    if resp:
        out["responder_median_ns"] = int(resp["median"])
        out["responder_rate"] = 1e9 / int(resp["median"])
    if ref:
        out["dh_ns"] = int(ref["median"])
        out["responder_dh_bound"] = 1e9 / (4 * int(ref["median"]))
    return out


def responder_up(g, impl, keys, scratch):
    """A fresh responder in tbB: WireGuard (kernel) or ours (WG profile)."""
    conf = os.path.join(scratch, f"hs-{impl}.conf")
    with open(conf, "w") as f:
        f.write(keys.conf(PORT) if isinstance(keys, NativeKeys)
                else keys.wg_conf(PORT))
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
    # Ours: the protocol set, then the file (whose "Protocol =" says it too).
    g.noisectl(ctl, "set", "noiseh0", "protocol", keys.protocol
               if isinstance(keys, NativeKeys) else "WireGuard", ns=g.NS_B)
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
    return {k: st[k] for k in sorted(st) if k in (
        "handshakes", "rx_packets", "tx_packets") or
        k.startswith(("drop_", "cookie", "mac2"))}


def flood(g, flooder, msgs_file, count, seconds, window, lens=None):
    """hsflood once; lens: (message 1, message 2) lengths, else WireGuard's."""
    th0 = cpu_threads()
    s0, t0 = cpu_split(), time.monotonic()
    p = g.run([flooder, g.UNDER_A, g.UNDER_B, str(PORT), msgs_file,
               str(seconds), str(window)] + [str(x) for x in lens or ()],
              ns=g.NS_A, timeout=seconds + 60)
    s1, t1 = cpu_split(), time.monotonic()
    c0, c1 = cpu_jiffies(s0), cpu_jiffies(s1)
    r_split, r_top = where_cpu_went(s0, s1, th0, cpu_threads())
    r = json.loads(p.stdout.strip().splitlines()[-1])
    hz = os.sysconf("SC_CLK_TCK")
    r["guest_busy_fraction"] = (c1[0] - c0[0]) / max(1, c1[1] - c0[1])
    r["cpu_split"], r["top_threads"] = r_split, r_top
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
    if getattr(a, "stages", False):
        stages_flood(g, base, keys, a, flooder, path)
    run_native(g, a, base, flooder)
    if engine:
        engine.append(engine_rate(g, a.tree, a.smoke))
        g.emit(**base, row="engine", **combine_engine(engine))
    else:
        g.emit(**base, row="engine", status="unavailable",
               reason=g.NOISE_STATE.get("unavailable", "noise.ko not loaded"))


def stages_flood(g, base, keys, a, flooder, path):
    """--stages: one more flood on our responder with noise.ko's
    stage_timing on (its own run: the clock reads cost a little); where
    its CPU time per handshake goes, stage by stage."""
    out = dict(base, kind="hs_stages")
    if not g.have_stages():
        g.emit(**out, status="unavailable", reason=g.STAGES_MISSING)
        return
    with g.stage_timing():
        r = one_flood(g, base, "noise", keys, a.scratch, flooder, path,
                      a.hs_count, a.hs_seconds, a.hs_window, "stages")
    g.emit(**out, status=r["status"], reason=r.get("reason"),
           stages=g.read_stages(), responses=r.get("responses"),
           completed_per_s=r.get("completed_per_s"),
           guest_busy_s=r.get("guest_busy_s"),
           sender_cpu_s=r.get("sender_cpu_s"))


NATIVE_ROWS = {NATIVE_IK: "noise-ik", NATIVE_IKHFS: "noise-ikhfs"}
CHECK_COUNT = 32        # initiations of the check before the rates


def engine_hfs_rate(g, tree, smoke):
    """The engine's IK and IKhfs whole handshakes (noise_bench.ko hs_hfs)."""
    err, took, lines = bench_hs_lines(g, tree, NATIVE_IKHFS,
                                      4 if smoke else 0, 900)
    if err:
        return err
    out = {"status": "ok", "took_s": took}
    for line in lines:
        m = re.search(r"noise_bench: hs_hfs (.*)$", line)
        if not m or f"pair={NATIVE_IKHFS} " not in m.group(1):
            continue
        kv = dict(w.split("=", 1) for w in m.group(1).split() if "=" in w)
        out[kv["variant"]] = {"median_ns": int(kv["median"]),
                              "samples": int(kv["samples"]),
                              "msg_bytes": kv.get("msg_bytes"),
                              "full_rate": 1e9 / int(kv["median"])}
    if "plain" not in out or "hfs" not in out:
        return {"status": "failed", "reason": "no hs_hfs rows in dmesg"}
    out["hfs/plain"] = out["hfs"]["full_rate"] / out["plain"]["full_rate"]
    return out


def native_check(g, base, keys, scratch, flooder):
    """Before any rate: does our responder answer every one of a few?"""
    path = os.path.join(scratch, f"hs-check-{NATIVE_ROWS[keys.protocol]}")
    with open(path, "wb") as f:
        f.write(keys.initiations(CHECK_COUNT))
    row = NATIVE_ROWS[keys.protocol]
    rec = one_flood(g, base, row, keys, scratch, flooder, path, CHECK_COUNT,
                    5, CHECK_COUNT, "check")
    resp = rec.get("responder", {})
    drops = {k: v for k, v in resp.items() if k.startswith("drop_") and v}
    g.log(f"hsrate: check {row}: sent {rec.get('sent')}, answered "
          f"{rec.get('responses')}, responder {resp}")
    ok = (rec["status"] == "ok" and rec["sent"] == CHECK_COUNT and
          rec["responses"] == CHECK_COUNT and not drops and
          resp.get("tx_packets", 0) >= CHECK_COUNT)
    st = "ok" if ok else "unavailable" if rec["status"] == "unavailable" \
        else "failed"
    out = {"status": st, "sent": rec.get("sent"),
           "responses": rec.get("responses"), "responder": resp,
           "drops": drops}
    if not ok:
        out["reason"] = rec.get("reason") or (
            f"{rec.get('responses')} of {CHECK_COUNT} answered, "
            f"drops {drops or 'none'}")
    g.emit(**base, row=row + "-check", **out)
    return ok


def run_native(g, a, base, flooder):
    """Ours with IK and IKhfs: check, then rounds in ABBA order."""
    counts = {NATIVE_IK: a.hs_count, NATIVE_IKHFS: max(1, a.hs_count // 2)}
    keys, paths, runs = {}, {}, {}
    for proto in NATIVE_PROTOCOLS:
        t = time.monotonic()
        keys[proto] = NativeKeys(a.hs_keys, proto)
        paths[proto] = os.path.join(a.scratch, NATIVE_ROWS[proto])
        with open(paths[proto], "wb") as f:
            f.write(keys[proto].initiations(counts[proto]))
        g.emit(**dict(base, protocol=proto, hs_count=counts[proto]),
               row=NATIVE_ROWS[proto] + "-setup", status="ok",
               made_s=time.monotonic() - t, msg_len=keys[proto].msg_len,
               resp_len=keys[proto].resp_len)
    engine = []
    if g.NOISE_STATE.get("loaded"):     # before the floods, and after
        g.log("hsrate: engine, IK and IKhfs (noise_bench.ko hs_hfs)")
        engine.append(engine_hfs_rate(g, a.tree, a.smoke))
    good = [p for p in NATIVE_PROTOCOLS
            if native_check(g, dict(base, protocol=p), keys[p], a.scratch,
                            flooder)]
    for i in range(a.hs_rounds):
        for proto in good if i % 2 == 0 else good[::-1]:
            runs.setdefault(proto, []).append(one_flood(
                g, dict(base, protocol=proto), NATIVE_ROWS[proto],
                keys[proto], a.scratch, flooder, paths[proto], counts[proto],
                a.hs_seconds, a.hs_window, i))
    for proto in NATIVE_PROTOCOLS:
        b = dict(base, protocol=proto, hs_count=counts[proto])
        if proto in runs:
            g.emit(**b, row=NATIVE_ROWS[proto], **combine(runs[proto]))
        else:
            g.emit(**b, row=NATIVE_ROWS[proto], status="unavailable"
                   if g.NOISE_STATE.get("unavailable") else "failed",
                   reason="the check failed: no rate taken")
    if engine:
        engine.append(engine_hfs_rate(g, a.tree, a.smoke))
    g.emit(**dict(base, protocol=NATIVE_IKHFS), row="engine-hfs",
           **combine_engine_hfs(engine, g))


def combine_engine_hfs(es, g):
    """The engine's IK and IKhfs before and after: the mean of each."""
    if not es:
        return {"status": "unavailable", "reason": g.NOISE_STATE.get(
            "unavailable", "noise.ko not loaded")}
    bad = [e for e in es if e["status"] != "ok"]
    if bad:
        return bad[0]
    out = {"status": "ok", "runs": es}
    for v in ("plain", "hfs"):
        out[v + "_rate"] = sum(e[v]["full_rate"] for e in es) / len(es)
        out[v + "_median_ns"] = sum(e[v]["median_ns"] for e in es) / len(es)
    out["hfs/plain"] = out["hfs_rate"] / out["plain_rate"]
    return out


def combine_engine(es):
    """The engine before and after the floods: the mean of the two."""
    ok = [e for e in es if e["status"] == "ok"]
    if len(ok) < len(es):
        return next(e for e in es if e["status"] != "ok")
    out = dict(ok[0], runs=ok)
    for k in ("full_rate", "half_rate", "responder_rate",
              "responder_dh_bound"):
        if all(k in e for e in ok):
            out[k] = sum(e[k] for e in ok) / len(ok)
    for k in ("median_ns", "dh_ns", "responder_median_ns"):
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
    # The busiest thread (the responder's worker) per response: the same
    # work in every flood, so a flood slower than its pair that costs
    # more here took longer for each handshake (Documentation/
    # bench-tunnels.rst, "Scale").
    out["busiest_us_per_response_runs"] = [
        r["top_threads"][0].get("cpu_s", 0) * 1e6 / r["responses"]
        if r.get("top_threads") and r["responses"] else None for r in ok]
    for k in ("sent", "responses", "lost", "cookie_replies", "unanswered",
              "dup_responses", "foreign_responses", "other"):
        out[k] = sum(r[k] for r in ok)
    # The responses the responder says it sent: ours counts each message
    # to a peer (tx_packets; cookie replies go to no peer), WireGuard's
    # peers' tx bytes / 92. Our "handshakes" counts sessions the peer has
    # proven with data, which a flood never sends.
    cnt = [r["responder"].get("tx_packets",
                              r["responder"].get("responses_accounted"))
           for r in ok]
    out["responder"] = {"responses_sent": sum(
        c for c in cnt if c is not None)}
    out["bound"] = "; ".join(sorted({r["bound"] for r in ok}))
    return out


def one_flood(g, base, row, keys, scratch, flooder, path, count, seconds,
              window, rnd, mark=None):
    """One flood on a fresh responder; its record (also emitted alone).
    @mark: the flood's name in the --profile marks (default @row)."""
    impl = row[:-len("-over")] if row.endswith("-over") else row
    lens = (keys.msg_len, keys.resp_len) if isinstance(keys, NativeKeys) \
        else None
    dev = None
    rec = {"round": rnd, "impl": impl}
    try:
        g.log(f"hsrate: {row} responder, window {window}, round {rnd}")
        dev = responder_up(g, impl, keys, scratch)
        time.sleep(0.2)
        g.profile_mark("start", mark or row, rnd)
        r = flood(g, flooder, path, count, seconds, window, lens)
        g.profile_mark("end", mark or row, rnd, r["responses"])
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

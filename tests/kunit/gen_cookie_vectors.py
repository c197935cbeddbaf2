#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Generate tests/kunit/cookie_vectors.h: WireGuard MAC1, MAC2, cookie and
cookie-reply bytes for cookie_test.c, computed here independently of the
kernel from the WireGuard paper's definitions (section 5.4):

  HASH(x) = BLAKE2s-256(x); MAC(k, x) = keyed BLAKE2s-128
  mac1 = MAC(HASH("mac1----" || S_r_pub), msg[0..116))
  cookie = MAC(secret, src ip || src port)
  mac2 = MAC(cookie, msg[0..132))
  reply = XChaCha20-Poly1305(HASH("cookie--" || S_r_pub), nonce, cookie,
                             ad = mac1)

The initiation is a real one (Noise_IKpsk2 as WireGuard builds it: its
prologue, TAI64N timestamp), made from fixed keys, so a responder holding
the responder's private key below accepts it, as WireGuard's would.
Needs python3-cryptography (X25519, ChaCha20-Poly1305); XChaCha's
HChaCha20 is written out below and checked against
draft-irtf-cfrg-xchacha-03 section 2.2.1.

  python3 tests/kunit/gen_cookie_vectors.py > tests/kunit/cookie_vectors.h
"""
import hashlib
import hmac
import struct

from cryptography.hazmat.primitives.asymmetric.x25519 import (
    X25519PrivateKey, X25519PublicKey)
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives import serialization


def HASH(*parts):
    h = hashlib.blake2s()
    for p in parts:
        h.update(p)
    return h.digest()


def MAC(key, data):
    return hashlib.blake2s(data, key=key, digest_size=16).digest()


def HMAC(key, data):
    return hmac.new(key, data, hashlib.blake2s).digest()


def KDF(c, data, n):
    t0 = HMAC(c, data)
    out, prev = [], b""
    for i in range(1, n + 1):
        prev = HMAC(t0, prev + bytes([i]))
        out.append(prev)
    return out


def raw(pub):
    return pub.public_bytes(serialization.Encoding.Raw,
                            serialization.PublicFormat.Raw)


def priv(seed):
    return X25519PrivateKey.from_private_bytes(seed)


def aead(key, counter, pt, ad):
    nonce = b"\0" * 4 + struct.pack("<Q", counter)
    return ChaCha20Poly1305(key).encrypt(nonce, pt, ad)


def rotl(v, c):
    return ((v << c) & 0xffffffff) | (v >> (32 - c))


def hchacha20(key, nonce16):
    s = [0x61707865, 0x3320646e, 0x79622d32, 0x6b206574]
    s += list(struct.unpack("<8I", key)) + list(struct.unpack("<4I", nonce16))

    def qr(a, b, c, d):
        s[a] = (s[a] + s[b]) & 0xffffffff; s[d] = rotl(s[d] ^ s[a], 16)
        s[c] = (s[c] + s[d]) & 0xffffffff; s[b] = rotl(s[b] ^ s[c], 12)
        s[a] = (s[a] + s[b]) & 0xffffffff; s[d] = rotl(s[d] ^ s[a], 8)
        s[c] = (s[c] + s[d]) & 0xffffffff; s[b] = rotl(s[b] ^ s[c], 7)
    for _ in range(10):
        qr(0, 4, 8, 12); qr(1, 5, 9, 13); qr(2, 6, 10, 14); qr(3, 7, 11, 15)
        qr(0, 5, 10, 15); qr(1, 6, 11, 12); qr(2, 7, 8, 13); qr(3, 4, 9, 14)
    return struct.pack("<8I", *(s[0:4] + s[12:16]))


def xchacha20poly1305(key, nonce24, pt, ad):
    sub = hchacha20(key, nonce24[:16])
    return ChaCha20Poly1305(sub).encrypt(b"\0" * 4 + nonce24[16:], pt, ad)


# draft-irtf-cfrg-xchacha-03, 2.2.1
assert hchacha20(bytes(range(32)),
                 bytes.fromhex("000000090000004a0000000031415927")) == \
    bytes.fromhex("82413b4227b27bfed30e42508a877d73"
                  "a0f9e4d58a74a853c12ec41326d3ecdc")

# Fixed keys (clamped by X25519 itself), index, timestamp.
s_i = priv(bytes([0x11] * 32))
s_r = priv(bytes([0x22] * 32))
e_i = priv(bytes([0x33] * 32))
s_i_pub, s_r_pub, e_i_pub = raw(s_i.public_key()), raw(s_r.public_key()), \
    raw(e_i.public_key())
sender_index = 0x04030201
tai64n = struct.pack(">QI", 0x400000005e0be100, 123456789)

# WireGuard's initiation (the paper's section 5.4.2).
c = HASH(b"Noise_IKpsk2_25519_ChaChaPoly_BLAKE2s")
h = HASH(c, b"WireGuard v1 zx2c4 Jason@zx2c4.com")
h = HASH(h, s_r_pub)
(c,) = KDF(c, e_i_pub, 1)
h = HASH(h, e_i_pub)
c, k = KDF(c, e_i.exchange(X25519PublicKey.from_public_bytes(s_r_pub)), 2)
enc_static = aead(k, 0, s_i_pub, h)
h = HASH(h, enc_static)
c, k = KDF(c, s_i.exchange(X25519PublicKey.from_public_bytes(s_r_pub)), 2)
enc_ts = aead(k, 0, tai64n, h)
msg = struct.pack("<II", 1, sender_index) + e_i_pub + enc_static + enc_ts
assert len(msg) == 116

mac1_key = HASH(b"mac1----", s_r_pub)
cookie_key = HASH(b"cookie--", s_r_pub)
# Our framing's labels (kmod/noise/tunnel/messages.h), same construction.
our_mac1_key = HASH(b"noise-tunnel mac1", s_r_pub)
our_cookie_key = HASH(b"noise-tunnel cookie", s_r_pub)
mac1 = MAC(mac1_key, msg)
init_nocookie = msg + mac1 + bytes(16)
assert len(init_nocookie) == 148

# Cookie for 192.0.2.1:51820 and [2001:db8::1]:51820 under a fixed secret.
secret = bytes(range(0x40, 0x60))
port = struct.pack(">H", 51820)
cookie4 = MAC(secret, bytes([192, 0, 2, 1]) + port)
cookie6 = MAC(secret, bytes.fromhex("20010db8000000000000000000000001") + port)
mac2 = MAC(cookie4, msg + mac1)
init_cookie = msg + mac1 + mac2

nonce = bytes(range(0xa0, 0xb8))
reply = xchacha20poly1305(cookie_key, nonce, cookie4, mac1)
assert len(reply) == 32

# A response-sized message (92 bytes, mac1 at 60) to check another offset.
resp = bytes((i * 7 + 3) & 0xff for i in range(60))
resp_mac1 = MAC(mac1_key, resp)


def arr(name, b):
    lines = ["static const u8 %s[%d] __maybe_unused = {" % (name, len(b))]
    for i in range(0, len(b), 12):
        lines.append("\t" + " ".join("0x%02x," % x for x in b[i:i + 12]))
    lines.append("};")
    return "\n".join(lines)


print("/* SPDX-License-Identifier: GPL-2.0 */")
print("/* Generated by tests/kunit/gen_cookie_vectors.py: do not edit. */")
print("#ifndef _NOISE_COOKIE_VECTORS_H")
print("#define _NOISE_COOKIE_VECTORS_H")
print()
for name, b in [("cv_s_i_priv", bytes([0x11] * 32)), ("cv_s_i_pub", s_i_pub),
                ("cv_s_r_priv", bytes([0x22] * 32)), ("cv_s_r_pub", s_r_pub),
                ("cv_e_i_priv", bytes([0x33] * 32)),
                ("cv_mac1_key", mac1_key), ("cv_cookie_key", cookie_key),
                ("cv_our_mac1_key", our_mac1_key),
                ("cv_our_cookie_key", our_cookie_key),
                ("cv_init_nocookie", init_nocookie),
                ("cv_secret", secret), ("cv_cookie4", cookie4),
                ("cv_cookie6", cookie6), ("cv_init_cookie", init_cookie),
                ("cv_reply_nonce", nonce), ("cv_reply", reply),
                ("cv_resp", resp), ("cv_resp_mac1", resp_mac1)]:
    print(arr(name, b))
    print()
print("#endif /* _NOISE_COOKIE_VECTORS_H */")

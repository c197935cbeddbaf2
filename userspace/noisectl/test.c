// SPDX-License-Identifier: GPL-2.0
/*
 * Host-side unit tests of noisectl: no kernel needed. Prints one line per
 * test, "PASS name" or "FAIL name # reason" (tests/check.d/15-noisectl
 * records them). Exit status 1 if any failed.
 *
 *   noisectl-test           every test
 *   noisectl-test ct        the constant-time run, for valgrind: encodes
 *                           and decodes keys marked undefined (secret);
 *                           memcheck must report no branch on them
 *   noisectl-test ct-leaky  the same with a decoder that branches on the
 *                           key: valgrind must report it (the control)
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/stat.h>
#include <netlink/genl/genl.h>
#include <openssl/evp.h>
#include <valgrind/memcheck.h>

#include "config.h"
#include "dh.h"
#include "encoding.h"
#include "netlink.h"
#include "outbuf.h"
#include "pskid.h"
#include "subcommands.h"

const char *prog = "noisectl";
static int failed;

void die_oom(void)
{
	fprintf(stderr, "out of memory\n");
	exit(2);
}

static void check(bool ok, const char *name, const char *fmt, ...)
{
	va_list ap;

	if (ok) {
		printf("PASS %s\n", name);
		return;
	}
	failed = 1;
	printf("FAIL %s # ", name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static void unhex(u8 *out, const char *hex)
{
	size_t i;

	for (i = 0; hex[2 * i] && hex[2 * i + 1]; i++) {
		char byte[3] = { hex[2 * i], hex[2 * i + 1], 0 };

		out[i] = (u8)strtoul(byte, NULL, 16);
	}
}

static u32 rnd_state = 12345;

static u32 rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 17;
	rnd_state ^= rnd_state << 5;
	return rnd_state;
}

/* Base64 */

static void test_base64(void)
{
	static const char b64_alpha[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	u8 key[56], out[56], ref[60];
	char b64[80], s[80];
	int i, n, bad = 0, mism = 0;
	size_t len;

	for (i = 0; i < 32; i++)
		key[i] = i;
	key_to_base64(b64, key, 32);
	check(!strcmp(b64, "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="),
	      "base64/encode-vector", "got %s", b64);

	for (n = 0; n < 2000; n++) {
		len = n & 1 ? 56 : 32;
		for (i = 0; i < (int)len; i++)
			key[i] = rnd();
		key_to_base64(b64, key, len);
		if (!key_from_base64(out, len, b64) || memcmp(out, key, len))
			bad++;
	}
	check(!bad, "base64/round-trip", "%d of 2000 keys", bad);

	/*
	 * Random strings against OpenSSL's decoder, which is the reference
	 * for validity (we also refuse non-canonical padding bits).
	 */
	for (n = 0; n < 20000; n++) {
		bool ours, theirs;
		int r;

		len = n & 1 ? 56 : 32;
		key_to_base64(s, key, len);
		for (i = 0; i < (int)B64_LEN(len) - (len == 32 ? 1 : 2); i++) {
			u32 x = rnd() % 80;

			s[i] = x < 64 ? b64_alpha[x] : "=-_.!\x80\xff*@ \t#$%^&"[x - 64];
		}
		ours = key_from_base64(out, len, s);
		r = EVP_DecodeBlock(ref, (const u8 *)s, B64_LEN(len));
		theirs = r == (int)(B64_LEN(len) / 4 * 3);
		if (theirs) {
			/* Re-encoding must give back s unless bits were stray. */
			key_to_base64(b64, ref, len);
			theirs = !strcmp(b64, s);
		}
		if (ours != theirs || (ours && memcmp(out, ref, len)))
			mism++;
	}
	check(!mism, "base64/vs-openssl", "%d of 20000 strings decoded differently",
	      mism);

	check(!key_from_base64(out, 32, "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8"),
	      "base64/reject-short", "accepted");
	check(!key_from_base64(out, 32, "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh9="),
	      "base64/reject-stray-bits", "accepted");
	check(!key_from_base64(out, 32, "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh=="),
	      "base64/reject-bad-padding", "accepted");
	check(!key_from_base64(out, 32, "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwd\x80h8="),
	      "base64/reject-8bit", "accepted");
}

/* Constant time (under valgrind) */

static int leaky_6bits(int c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	return c == '+' ? 62 : c == '/' ? 63 : -1;
}

static bool leaky_decode(u8 *key, size_t len, const char *in)
{
	size_t i;
	u32 w = 0;
	int bits = 0, o = 0;

	for (i = 0; i < B64_LEN(len) && in[i] != '='; i++) {
		int v = leaky_6bits((unsigned char)in[i]);

		if (v < 0)
			return false;
		w = w << 6 | v;
		bits += 6;
		if (bits >= 8 && o < (int)len) {
			bits -= 8;
			key[o++] = w >> bits;
		}
	}
	return true;
}

static int test_ct(bool leaky)
{
	char b64[80];
	u8 key[56], out[56];
	int i, n;
	bool ok;

	for (n = 0; n < 2; n++) {
		size_t len = n ? 56 : 32;

		for (i = 0; i < (int)len; i++)
			key[i] = rnd();
		/* Encoding a secret key: no branch on its bytes either. */
		VALGRIND_MAKE_MEM_UNDEFINED(key, len);
		key_to_base64(b64, key, len);
		VALGRIND_MAKE_MEM_DEFINED(key, len);
		VALGRIND_MAKE_MEM_DEFINED(b64, sizeof(b64));
		/* The key characters are secret; the padding is not. */
		VALGRIND_MAKE_MEM_UNDEFINED(b64, strlen(b64) - (len == 32 ? 1 : 2));
		ok = leaky ? leaky_decode(out, len, b64) :
			     key_from_base64_ct(out, len, b64);
		VALGRIND_MAKE_MEM_DEFINED(&ok, sizeof(ok));
		VALGRIND_MAKE_MEM_DEFINED(out, sizeof(out));
		if (!ok || memcmp(out, key, len))
			return 1;
	}
	return 0;
}

/* Keys */

static void test_dh(void)
{
	/* RFC 7748, section 6: Alice's keys (in base64). */
	static const char *const v[][3] = {
		{ "25519", "dwdtCnMYpX08FsFyUbJmRd9ML4frwJkqsXf7pR25LCo=",
		  "hSDwCYkwp1R0i33ctD73Wg2/Og0mOBr066SpjqqbTmo=" },
		{ "448",
		  "mo9JJdFRn1d1z0awS1gA1O6e6LrovFVl1JjCjdnJuvV0qUGXRIlzkQBjgqbxJ6sdmsLYwKWYcms=",
		  "mwj3zDG34+Z9ItWuoSEHSic70rg94Jxj+qc9LCLF2bvINmRyQdlT1AxbEtqIEg1TF3+A5TLEH6A=" },
	};
	u8 priv[56], pub[56], want[56], a[56], b[56];
	char name[64];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(v); i++) {
		const struct dh_func *dh = dh_by_name(v[i][0]);

		key_from_base64(priv, dh->len, v[i][1]);
		key_from_base64(want, dh->len, v[i][2]);
		snprintf(name, sizeof(name), "keys/rfc7748-%s", v[i][0]);
		check(dh_public(dh, pub, priv) && !memcmp(pub, want, dh->len),
		      name, "public key differs");
		snprintf(name, sizeof(name), "keys/generate-%s", v[i][0]);
		check(dh_generate(dh, a) && dh_generate(dh, b) &&
		      memcmp(a, b, dh->len) && dh_public(dh, pub, a), name,
		      "two equal keys or no public key");
	}
	check(dh_by_protocol("Noise_XX_448_AESGCM_SHA512") == dh_by_name("448") &&
	      dh_by_protocol(NOISE_DEFAULT_PROTOCOL) == dh_by_name("25519") &&
	      dh_by_protocol("Noise_IKhfs+psk2_448+MLKEM1024_ChaChaPoly_BLAKE2b") ==
	      dh_by_name("448") &&
	      !dh_by_protocol("Noise_XX_P256_AESGCM_SHA512"),
	      "keys/dh-of-protocol", "wrong DH");
	check(protocol_psk_tokens(NOISE_DEFAULT_PROTOCOL) == 1 &&
	      protocol_psk_tokens("Noise_XXpsk0+psk3_25519_AESGCM_SHA256") == 2 &&
	      protocol_psk_tokens("Noise_XX_25519_AESGCM_SHA256") == 0,
	      "keys/psk-tokens", "wrong count");
}

static void test_pskid(void)
{
	u8 key[32], out[32], want[32], psks[2][32] = { { 1 }, { 2 } };
	u8 a[16], b[16], pub[32] = { 9 }, pub56[56];
	int i;

	/* BLAKE2s keyed KAT (blake2s-kat.txt): key 00..1f, empty input. */
	for (i = 0; i < 32; i++)
		key[i] = i;
	unhex(want, "48a8997da407876b3d79c0d92325ad3b89cbb754d86ab71aee047ad345fd2c49");
	check(blake2s_keyed(out, 32, key, 32, NULL, 0) && !memcmp(out, want, 32),
	      "pskid/blake2s-keyed-kat", "BLAKE2SMAC differs");
	check(blake2s_keyed(out, 16, key, 32, key, 3), "pskid/blake2s-16",
	      "no 16-byte output");
	check(psk_id(a, pub, 32, psks, 2) && psk_id(b, pub, 32, psks, 1) &&
	      memcmp(a, b, 16) && psk_id(b, pub, 32, psks, 2) && !memcmp(a, b, 16),
	      "pskid/deterministic", "fingerprints wrong");
	pub[0] = 10;
	check(psk_id(b, pub, 32, psks, 2) && memcmp(a, b, 16), "pskid/per-peer",
	      "same fingerprint for another peer");

	/*
	 * The definition in Documentation/netlink.rst, computed with Python's
	 * hashlib.blake2s: public key 00 01 .. 1f (448: .. 37), PSKs 01.. and
	 * 02.. (448: one, 01..).
	 */
	for (i = 0; i < 56; i++)
		pub56[i] = i;
	memset(psks[0], 1, 32);
	memset(psks[1], 2, 32);
	unhex(want, "9ca36f972316232ddd337477cbad77bb");
	check(psk_id(a, pub56, 32, psks, 2) && !memcmp(a, want, 16),
	      "pskid/vector-25519", "differs from hashlib.blake2s");
	unhex(want, "8f64d9998c21b67c1ad9581be1942161");
	check(psk_id(a, pub56, 56, psks, 1) && !memcmp(a, want, 16),
	      "pskid/vector-448", "differs from hashlib.blake2s");
}

/* Config parser */

static struct noise_device *parse_str(const char *text)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	struct noise_device *dev = config_read(f, "test.conf");

	fclose(f);
	return dev;
}

/* Parse text; it must fail with exactly the message want on stderr. */
static void config_error(const char *name, const char *text, const char *want)
{
	char buf[1024] = "", full[128];
	FILE *err = tmpfile(), *saved = stderr;
	struct noise_device *dev;
	size_t n;

	stderr = err;
	dev = parse_str(text);
	if (dev && !config_check(dev, "test.conf")) {
		device_free(dev);
		dev = NULL;
	} else if (dev) {
		device_free(dev);
		dev = (void *)1;
	}
	stderr = saved;
	rewind(err);
	n = fread(buf, 1, sizeof(buf) - 1, err);
	buf[n] = '\0';
	fclose(err);
	snprintf(full, sizeof(full), "config/error-%s", name);
	check(!dev && !strcmp(buf, want), full, "got %s'%.*s'",
	      dev ? "success and " : "", (int)strcspn(buf, "\n"), buf);
}

#define K1 "HIgo9xNzJMWLKASShiTqIybxZ0U3wGLiUeJ1PKf8ykw="
#define K2 "xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg="
#define K3 "TrMvSoP4jYQlY6RIzBgbssQqY3vxI2Pi+y71lOWWXX0="
#define PSK "FpCyhws9cxwWoV4xELtfJvjJN+zQVRPISllRWgeopVE="
/* 56 bytes: a 448 key. */
#define K448 "AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyAhIiMkJSYnKCkqKywtLi8wMTIzNDU2Nzg="

static void test_config(void)
{
	static const char good[] =
		"# a comment\n"
		"[Interface]\n"
		"protocol = Noise_XXpsk0+psk3_25519_ChaChaPoly_BLAKE2s\n"
		"PrivateKey = " K1 "  # trailing comment\n"
		"ListenPort = 51820\n"
		"FwMark = 0x1234\n"
		"\n"
		"[Peer]\n"
		"PublicKey=" K2 "\n"
		"PresharedKey = " PSK "\n"
		"Endpoint = 10.0.0.1:51821\n"
		"AllowedIPs = 10.1.0.0/24, fd01::/64\n"
		"AllowedIPs = 192.168.1.1\n"
		"PersistentKeepalive = 25\n"
		"[peer]\n"
		"PublicKey = " K3 "\n"
		"Endpoint = [fd00::1]:51820\n"
		"PersistentKeepalive = off\n";
	struct noise_device *dev = parse_str(good);
	const struct noise_peer *p;
	char s[64];

	check(dev && config_check(dev, "t"), "config/parse", "did not parse");
	if (!dev)
		return;
	p = dev->peers;
	check(dev->has_protocol &&
	      !strcmp(dev->protocol, "Noise_XXpsk0+psk3_25519_ChaChaPoly_BLAKE2s") &&
	      dev->has_private_key && dev->private_key_len == 32 &&
	      dev->listen_port == 51820 && dev->fwmark == 0x1234 &&
	      dev->n_peers == 2, "config/interface", "wrong device fields");
	inet_ntop(AF_INET, &p[0].endpoint.addr4.sin_addr, s, sizeof(s));
	check(p[0].key_len == 32 && p[0].n_psks == 1 && p[0].has_psks &&
	      (p[0].flags & NOISE_PEER_FLAG_REPLACE_PSKS) &&
	      (p[0].flags & NOISE_PEER_FLAG_REPLACE_ALLOWEDIPS) &&
	      p[0].endpoint.addr.sa_family == AF_INET && !strcmp(s, "10.0.0.1") &&
	      ntohs(p[0].endpoint.addr4.sin_port) == 51821 &&
	      p[0].n_ips == 3 && p[0].ips[0].cidr == 24 && p[0].ips[1].cidr == 64 &&
	      p[0].ips[1].family == AF_INET6 && p[0].ips[2].cidr == 32 &&
	      p[0].keepalive == 25 && p[0].has_keepalive, "config/peer",
	      "wrong peer fields");
	check(p[1].endpoint.addr.sa_family == AF_INET6 &&
	      ntohs(p[1].endpoint.addr6.sin6_port) == 51820 && !p[1].has_psks &&
	      !(p[1].flags & NOISE_PEER_FLAG_REPLACE_PSKS) && p[1].has_keepalive &&
	      !p[1].keepalive && !p[1].n_ips, "config/peer-v6", "wrong fields");
	device_free(dev);
}

static void test_config_errors(void)
{
	config_error("unknown-key", "[Interface]\nAddress = 10.0.0.1/24\n",
		     "noisectl: test.conf:2: unknown key 'Address' in [Interface]\n");
	config_error("unknown-section", "[Interface]\n\n[Peers]\n",
		     "noisectl: test.conf:3: unknown section '[Peers]' ([Interface] or [Peer])\n");
	config_error("outside", "ListenPort = 1\n",
		     "noisectl: test.conf:1: 'ListenPort' outside of [Interface] or [Peer]\n");
	config_error("no-equals", "[Interface]\nListenPort\n",
		     "noisectl: test.conf:2: expected 'Key = Value', got 'ListenPort'\n");
	config_error("port", "[Interface]\nListenPort = 65536\n",
		     "noisectl: test.conf:2: ListenPort '65536' is not 0 to 65535\n");
	config_error("port-negative", "[Interface]\nListenPort = -1\n",
		     "noisectl: test.conf:2: ListenPort '-1' is not 0 to 65535\n");
	config_error("fwmark", "[Interface]\nFwMark = 0x100000000\n",
		     "noisectl: test.conf:2: FwMark '0x100000000' is not a 32-bit number or off\n");
	config_error("bad-key", "[Interface]\nPrivateKey = AAAA\n",
		     "noisectl: test.conf:2: PrivateKey is not a base64 25519 or 448 key\n");
	config_error("bad-key-char",
		     "[Peer]\nPublicKey = HIgo9xNzJMWLKASShiTqIybxZ0U3wGLiUeJ1PKf8yk*=\n",
		     "noisectl: test.conf:2: PublicKey is not a base64 25519 or 448 key\n");
	config_error("protocol", "[Interface]\nProtocol = OpenVPN\n",
		     "noisectl: test.conf:2: 'OpenVPN' is not a Noise protocol name (Noise_<pattern>_<dh>_<cipher>_<hash>) or WireGuard\n");
	config_error("protocol-dh", "[Interface]\nProtocol = Noise_IK_P256_AESGCM_SHA256\n",
		     "noisectl: test.conf:2: protocol 'Noise_IK_P256_AESGCM_SHA256': DH must be 25519 or 448\n");
}

static void test_config_errors2(void)
{
	config_error("peer-no-key", "[Peer]\nEndpoint = 1.2.3.4:5\n[Peer]\nPublicKey = " K1 "\n",
		     "noisectl: test.conf:1: [Peer] without PublicKey\n");
	config_error("peer-no-key-last", "[Peer]\nPublicKey = " K1 "\n[Peer]\n",
		     "noisectl: test.conf:3: [Peer] without PublicKey\n");
	config_error("duplicate-peer",
		     "[Peer]\nPublicKey = " K1 "\n\n[Peer]\nPublicKey = " K1 "\n",
		     "noisectl: test.conf:5: a second [Peer] with the PublicKey of line 2\n");
	config_error("endpoint", "[Peer]\nPublicKey = " K1 "\nEndpoint = 10.0.0.1\n",
		     "noisectl: test.conf:3: endpoint '10.0.0.1': expected host:port\n");
	config_error("endpoint-port", "[Peer]\nPublicKey = " K1 "\nEndpoint = 10.0.0.1:0\n",
		     "noisectl: test.conf:3: endpoint '10.0.0.1:0': bad port '0'\n");
	config_error("endpoint-v6", "[Peer]\nPublicKey = " K1 "\nEndpoint = [fd00::1:51820\n",
		     "noisectl: test.conf:3: endpoint '[fd00::1:51820': expected [IPv6]:port\n");
	config_error("allowedip",
		     "[Peer]\nPublicKey = " K1 "\nAllowedIPs = 10.0.0.0/24, 10.0.0.300/32\n",
		     "noisectl: test.conf:3: allowed IP '10.0.0.300' is not an address\n");
	config_error("allowedip-cidr", "[Peer]\nPublicKey = " K1 "\nAllowedIPs = 10.0.0.0/33\n",
		     "noisectl: test.conf:3: allowed IP '10.0.0.0/33': prefix length must be 0 to 32\n");
	config_error("keepalive", "[Peer]\nPublicKey = " K1 "\nPersistentKeepalive = always\n",
		     "noisectl: test.conf:3: PersistentKeepalive 'always' is not 0 to 65535 or off\n");
	config_error("psk-length", "[Peer]\nPublicKey = " K1 "\nPresharedKey = " K1 "AAA\n",
		     "noisectl: test.conf:3: PresharedKey is not a base64 32-byte key\n");
	config_error("too-many-psks", "[Peer]\nPublicKey = " K1 "\n"
		     "PresharedKey = " PSK "\nPresharedKey = " PSK "\nPresharedKey = " PSK "\n"
		     "PresharedKey = " PSK "\nPresharedKey = " PSK "\nPresharedKey = " PSK "\n",
		     "noisectl: test.conf:8: more than 5 preshared keys\n");
	/* A 56-byte key where a 32-byte one goes, in the last slot. */
	config_error("psk-448-size-fifth", "[Peer]\nPublicKey = " K1 "\n"
		     "PresharedKey = " PSK "\nPresharedKey = " PSK "\nPresharedKey = " PSK "\n"
		     "PresharedKey = " PSK "\nPresharedKey = " K448 "\n",
		     "noisectl: test.conf:7: PresharedKey is not a base64 32-byte key\n");
	config_error("dh-mismatch",
		     "[Interface]\nProtocol = Noise_IK_448_AESGCM_SHA512\n"
		     "[Peer]\nPublicKey = " K1 "\n",
		     "noisectl: test.conf:4: PublicKey is a 25519 key, but Noise_IK_448_AESGCM_SHA512 uses 448\n");
	config_error("dh-mismatch-key-first",
		     "[Interface]\nPrivateKey = " K1 "\nProtocol = Noise_IK_448_AESGCM_SHA512\n",
		     "noisectl: test.conf:2: PrivateKey is a 25519 key, but Noise_IK_448_AESGCM_SHA512 uses 448\n");
	config_error("psk-no-token",
		     "[Interface]\nProtocol = Noise_IK_25519_AESGCM_SHA256\n"
		     "[Peer]\nPublicKey = " K1 "\n"
		     "PresharedKey = " PSK "\n",
		     "noisectl: test.conf:5: PresharedKey, but Noise_IK_25519_AESGCM_SHA256 has no psk token\n");
	config_error("psk-count",
		     "[Interface]\nProtocol = Noise_IKpsk2_25519_AESGCM_SHA256\n"
		     "[Peer]\nPublicKey = " K1 "\n"
		     "PresharedKey = " PSK "\nPresharedKey = " PSK "\n",
		     "noisectl: test.conf:5: 2 preshared keys, but Noise_IKpsk2_25519_AESGCM_SHA256 has 1 psk token (give one key for all, or one per token)\n");
}

static void test_set_args(void)
{
	static char *const ok[] = { "listen-port", "1", "fwmark", "off", "peer", K1,
		       "endpoint", "1.2.3.4:5", "allowed-ips", "10.0.0.0/8, ::/0",
		       "persistent-keepalive", "off", "peer", K2, "remove" };
	static char *const bad1[] = { "peer", K1, "listen-port", "1" };
	static char *const bad2[] = { "peer", K1, "remove", "endpoint", "1.2.3.4:5" };
	static char *const bad3[] = { "listen-port" };
	static char *const bad4[] = { "peer", "notakey" };
	struct noise_device *dev;
	FILE *saved = stderr;

	dev = config_read_cmd(ARRAY_SIZE(ok), ok);
	check(dev && dev->has_listen_port && dev->listen_port == 1 &&
	      dev->has_fwmark && !dev->fwmark && dev->n_peers == 2 &&
	      dev->peers[0].n_ips == 2 && dev->peers[0].has_keepalive &&
	      (dev->peers[0].flags & NOISE_PEER_FLAG_REPLACE_ALLOWEDIPS) &&
	      dev->peers[1].flags == NOISE_PEER_FLAG_REMOVE_ME, "set/args",
	      "wrong request");
	device_free(dev);
	stderr = fopen("/dev/null", "w");
	check(!config_read_cmd(ARRAY_SIZE(bad1), bad1), "set/device-arg-after-peer",
	      "accepted");
	check(!config_read_cmd(ARRAY_SIZE(bad2), bad2), "set/remove-with-more",
	      "accepted");
	check(!config_read_cmd(ARRAY_SIZE(bad3), bad3), "set/missing-value",
	      "accepted");
	check(!config_read_cmd(ARRAY_SIZE(bad4), bad4), "set/bad-key", "accepted");
	fclose(stderr);
	stderr = saved;
}

/* Building and parsing messages */

static struct noise_device *big_device(size_t peers, size_t ips, bool v6)
{
	struct noise_device *dev = device_new();
	size_t i, j, k = 0;

	snprintf(dev->ifname, sizeof(dev->ifname), "noise0");
	snprintf(dev->protocol, sizeof(dev->protocol), NOISE_DEFAULT_PROTOCOL);
	dev->has_protocol = true;
	dev->has_private_key = true;
	dev->private_key_len = 32;
	memset(dev->private_key, 7, 32);
	dev->has_listen_port = true;
	dev->listen_port = 51820;
	dev->flags = NOISE_DEVICE_FLAG_REPLACE_PEERS;
	for (i = 0; i < peers; i++) {
		struct noise_peer *p = device_add_peer(dev);

		p->key_len = 32;
		for (j = 0; j < 32; j++)
			p->public_key[j] = rnd();
		p->flags = NOISE_PEER_FLAG_REPLACE_ALLOWEDIPS | NOISE_PEER_FLAG_REPLACE_PSKS;
		p->has_psks = true;
		p->n_psks = 1;
		memset(peer_psk(p, 0), i, 32);
		p->has_endpoint = true;
		p->endpoint.addr4.sin_family = AF_INET;
		p->endpoint.addr4.sin_port = htons(1000 + i);
		p->has_keepalive = true;
		p->keepalive = i;
		/* Uneven: peer 3 gets most of them, so it spans messages. */
		for (j = 0; j < (i == 3 ? ips / 2 : ips / 2 / peers + (i % 3)); j++) {
			struct noise_allowedip *ip = peer_add_ip(p);

			k++;
			ip->family = v6 && (k & 1) ? AF_INET6 : AF_INET;
			ip->cidr = ip->family == AF_INET ? 32 : 128;
			ip->ip4.s_addr = htonl(0x0a000000 + k);
			if (ip->family == AF_INET6)
				memcpy(&ip->ip6.s6_addr[12], &k, 4);
		}
	}
	return dev;
}

static bool same_peer(const struct noise_peer *a, const struct noise_peer *b)
{
	return a->key_len == b->key_len &&
	       !memcmp(a->public_key, b->public_key, a->key_len) &&
	       a->flags == b->flags && a->n_psks == b->n_psks &&
	       (!a->n_psks || !memcmp(a->psks, b->psks, NOISE_PSK_KEY_LEN * a->n_psks)) &&
	       a->keepalive == b->keepalive &&
	       !memcmp(&a->endpoint, &b->endpoint, sizeof(a->endpoint)) &&
	       a->n_ips == b->n_ips &&
	       !memcmp(a->ips, b->ips, a->n_ips * sizeof(*a->ips));
}

static void test_split(size_t peers, size_t ips, size_t size)
{
	struct noise_device *dev = big_device(peers, ips, true);
	struct noise_device *back = device_new();
	struct nl_msg **msgs;
	size_t n, i, over = 0, flagged = 0, cont = 0;
	bool ok, same;
	char name[96];

	ok = noise_build_set(dev, 42, size, &msgs, &n);
	for (i = 0; ok && i < n; i++) {
		struct nlmsghdr *nlh = nlmsg_hdr(msgs[i]);
		size_t before = back->n_peers;
		struct noise_device *one = device_new();

		if (nlh->nlmsg_len > size)
			over++;
		ok = noise_parse_device(nlh, back) && noise_parse_device(nlh, one);
		if (one->flags & NOISE_DEVICE_FLAG_REPLACE_PEERS)
			flagged += i ? 100 : 1;
		/* A peer continued from the last message: UPDATE_ONLY. */
		if (i && one->n_peers && back->n_peers == before + one->n_peers - 1) {
			cont++;
			if (one->peers[0].flags != NOISE_PEER_FLAG_UPDATE_ONLY)
				ok = false;
		}
		device_free(one);
	}
	same = ok && back->n_peers == dev->n_peers &&
	       back->listen_port == dev->listen_port &&
	       !strcmp(back->protocol, dev->protocol) &&
	       back->private_key_len == 32 && !memcmp(back->private_key, dev->private_key, 32);
	for (i = 0; same && i < dev->n_peers; i++)
		same = same_peer(&dev->peers[i], &back->peers[i]);
	snprintf(name, sizeof(name), "netlink/split-%zu-peers-%zu-ips-%zu-bytes",
		 peers, ips, size);
	check(same && !over && flagged == 1 && (n == 1 || cont > 0), name,
	      "%zu messages, %zu too big, replace-peers %zu, %zu continued, %s",
	      n, over, flagged, cont, same ? "same" : "reassembled differently");
	if (ok)
		noise_free_msgs(msgs, n);
	device_free(dev);
	device_free(back);
}

/* syncconf's diff */

/* What a dump of the device @want configures would say. */
static struct noise_device *dumped_like(const struct noise_device *want)
{
	struct noise_device *cur = big_device(0, 0, false);
	u8 pub[32];
	size_t i;

	dh_public(dh_by_name("25519"), pub, want->private_key);
	memcpy(cur->public_key, pub, 32);
	cur->public_key_len = 32;
	cur->has_private_key = false;
	for (i = 0; i < want->n_peers; i++) {
		const struct noise_peer *w = &want->peers[i];
		struct noise_peer *p = device_add_peer(cur);
		size_t j;

		*p = *w;
		p->ips = NULL;
		p->n_ips = 0;
		p->cap_ips = 0;
		p->psks = NULL;		/* w's, not a copy */
		p->stats = NULL;
		/* In another order, as the kernel may return them. */
		for (j = w->n_ips; j-- > 0;)
			*peer_add_ip(p) = w->ips[j];
		p->has_psks = false;
		p->n_psks = 0;
		p->has_psk_id = true;
		psk_id(p->psk_id, w->public_key, 32,
		       (const u8 (*)[32])w->psks, 1);
	}
	return cur;
}

static void test_diff(void)
{
	struct noise_device *want = big_device(4, 40, false);
	struct noise_device *cur = dumped_like(want);
	struct noise_device *req;
	bool key_sent;

	want->flags = 0;
	req = syncconf_diff(want, cur);
	/* The private key goes every time: the kernel keeps it if the same. */
	key_sent = req && req->has_private_key &&
		   !memcmp(req->private_key, want->private_key, 32);
	if (req)
		req->has_private_key = false;
	check(key_sent && syncconf_is_empty(req), "syncconf/no-change",
	      "%zu peers in the request%s", req ? req->n_peers : 0,
	      key_sent ? "" : ", no private key");
	device_free(req);

	want->peers[1].endpoint.addr4.sin_port = htons(9);
	want->peers[2].psks[0] ^= 1;
	want->peers[3].n_ips--;
	cur->peers[0].public_key[0] ^= 1;	/* removed, and want's is new */
	req = syncconf_diff(want, cur);
	check(req && req->n_peers == 5 && req->has_private_key &&
	      req->peers[0].flags == NOISE_PEER_FLAG_REMOVE_ME &&
	      req->peers[1].flags == want->peers[0].flags &&
	      req->peers[2].flags == NOISE_PEER_FLAG_UPDATE_ONLY &&
	      req->peers[2].has_endpoint && !req->peers[2].has_psks &&
	      !req->peers[2].n_ips &&
	      req->peers[3].flags == (NOISE_PEER_FLAG_UPDATE_ONLY | NOISE_PEER_FLAG_REPLACE_PSKS) &&
	      req->peers[3].has_psks && !req->peers[3].has_endpoint &&
	      req->peers[4].flags == (NOISE_PEER_FLAG_UPDATE_ONLY |
				      NOISE_PEER_FLAG_REPLACE_ALLOWEDIPS) &&
	      req->peers[4].n_ips == want->peers[3].n_ips,
	      "syncconf/changes", "wrong request (%zu peers)", req ? req->n_peers : 0);
	device_free(req);

	snprintf(want->protocol, sizeof(want->protocol), "Noise_XX_25519_AESGCM_SHA256");
	check(!syncconf_diff(want, cur), "syncconf/protocol-change",
	      "diffed across protocols");
	device_free(want);
	device_free(cur);
}

/* stderr into a buffer while a test runs (capture_end: what it got). */
static FILE *saved_stderr;

static void capture_begin(void)
{
	saved_stderr = stderr;
	stderr = tmpfile();
	if (!stderr) {
		stderr = saved_stderr;
		die_oom();
	}
}

static const char *capture_end(void)
{
	static char buf[1024];
	size_t n;

	rewind(stderr);
	n = fread(buf, 1, sizeof(buf) - 1, stderr);
	buf[n] = '\0';
	fclose(stderr);
	stderr = saved_stderr;
	return buf;
}

/* The WireGuard profile's name in any case, stored as the kernel wants it. */
static void test_wireguard_name(void)
{
	static const char *const names[] = { "WireGuard", "wireguard", "WIREGUARD" };
	struct noise_device *dev;
	char err[256], text[128], name[64];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		char *const argv[] = { "protocol", (char *)names[i] };

		snprintf(text, sizeof(text), "[Interface]\nProtocol = %s\n", names[i]);
		snprintf(name, sizeof(name), "protocol/file-%s", names[i]);
		dev = parse_str(text);
		check(parse_protocol(names[i], err, sizeof(err)) && dev &&
		      !strcmp(dev->protocol, "WireGuard"), name,
		      "'%s' gave '%s'", names[i], dev ? dev->protocol : "an error");
		device_free(dev);
		snprintf(name, sizeof(name), "protocol/set-%s", names[i]);
		dev = config_read_cmd(2, argv);
		check(dev && !strcmp(dev->protocol, "WireGuard"), name,
		      "'%s' gave '%s'", names[i], dev ? dev->protocol : "an error");
		device_free(dev);
	}
	check(!parse_protocol("WireGuard2", err, sizeof(err)) &&
	      strstr(err, "Noise_<pattern>") && strstr(err, "WireGuard"),
	      "protocol/unknown-names-both", "said '%s'", err);
}

/* A device as a dump gives it: two peers, one with everything. */
static struct noise_device *dump_device(void)
{
	struct noise_device *dev = device_new();
	struct noise_peer *p;

	snprintf(dev->ifname, sizeof(dev->ifname), "noise0");
	parse_key(dev->public_key, &dev->public_key_len, K1);
	dev->listen_port = 51820;
	dev->fwmark = 0x1234;
	p = device_add_peer(dev);
	parse_key(p->public_key, &p->key_len, K2);
	p->has_psk_id = true;
	p->has_endpoint = true;
	parse_endpoint(&p->endpoint, "[fd00::1]:51821", NULL, 0);
	parse_allowedips(p, "10.0.0.0/24,fd00::/64", NULL, 0);
	p->last_handshake_ns = 1700000000123456789ULL;
	peer_stats_get(p)->v[NOISE_A_STATS_RX_BYTES] = 123;
	peer_stats_get(p)->v[NOISE_A_STATS_TX_BYTES] = 4567;
	p->keepalive = 25;
	p = device_add_peer(dev);
	parse_key(p->public_key, &p->key_len, K3);
	return dev;
}

static void dump_check(const struct noise_device *dev, bool all,
		       const char *name, const char *want)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		die_oom();
	show_dump(f, dev, all);
	fclose(f);
	check(!strcmp(buf, want), name, "got '%s'", buf);
	free(buf);
}

/* Append a dump line: prefix (or NULL), then the n fields, tab-separated. */
static void dump_line(char *out, size_t len, const char *prefix,
		      const char *const *fields, size_t n)
{
	size_t i;

	if (prefix)
		snprintf(out + strlen(out), len - strlen(out), "%s\t", prefix);
	for (i = 0; i < n; i++)
		snprintf(out + strlen(out), len - strlen(out), "%s%c", fields[i],
			 i + 1 < n ? '\t' : '\n');
}

/* `show dump`: wg's layout, field for field. */
static void test_dump(void)
{
	static const char *const dev_f[] = { "(hidden)", K1, "51820", "0x1234" };
	static const char *const peer1[] = {
		K2, "(hidden)", "[fd00::1]:51821", "10.0.0.0/24,fd00::/64",
		"1700000000", "123", "4567", "25",
	};
	static const char *const peer2[] = {
		K3, "(none)", "(none)", "(none)", "0", "0", "0", "off",
	};
	static const char *const empty[] = { "(none)", "(none)", "0", "off" };
	struct noise_device *dev = dump_device();
	char want[1024] = "", want_all[1024] = "";

	dump_line(want, sizeof(want), NULL, dev_f, ARRAY_SIZE(dev_f));
	dump_line(want, sizeof(want), NULL, peer1, ARRAY_SIZE(peer1));
	dump_line(want, sizeof(want), NULL, peer2, ARRAY_SIZE(peer2));
	dump_line(want_all, sizeof(want_all), "noise0", dev_f, ARRAY_SIZE(dev_f));
	dump_line(want_all, sizeof(want_all), "noise0", peer1, ARRAY_SIZE(peer1));
	dump_line(want_all, sizeof(want_all), "noise0", peer2, ARRAY_SIZE(peer2));
	dump_check(dev, false, "show/dump", want);
	dump_check(dev, true, "show/dump-all", want_all);
	device_free(dev);
	dev = device_new();
	snprintf(dev->ifname, sizeof(dev->ifname), "noise1");
	want[0] = '\0';
	dump_line(want, sizeof(want), "noise1", empty, ARRAY_SIZE(empty));
	dump_check(dev, true, "show/dump-empty", want);
	device_free(dev);
}

/* conf_default_protocol on a device now: the protocol, and a warning? */
static void default_check(const char *name, const char *now_proto, bool fresh,
			  const char *want, const char *warns)
{
	struct noise_device *now = NULL;
	const char *got, *err;

	if (now_proto) {
		now = fresh ? device_new() : dump_device();
		snprintf(now->ifname, sizeof(now->ifname), "noise0");
		snprintf(now->protocol, sizeof(now->protocol), "%s", now_proto);
		now->has_protocol = true;
	}
	capture_begin();
	got = conf_default_protocol(now, "wg0.conf");
	err = capture_end();
	check(!strcmp(got, want) &&
	      (warns ? strstr(err, warns) && strchr(err, '\n') == strrchr(err, '\n') :
	       !*err), name, "protocol %s, said '%s'", got, err);
	device_free(now);
}

static void mode_check(const char *name, const char *text, mode_t mode,
		       bool warns)
{
	struct noise_device *dev = parse_str(text);
	const char *err;

	capture_begin();
	config_warn_mode(dev, "wg0.conf", mode);
	err = capture_end();
	check(warns ? strstr(err, "wg0.conf") && strstr(err, "readable by group or others") :
	      !*err, name, "said '%s'", err);
	device_free(dev);
}

#define WORLD_WARNING "Warning: writing to world accessible file. " \
	"Consider setting the umask to 077 and trying again.\n"

static void world_check(const char *name, mode_t mode, bool warns)
{
	FILE *f = tmpfile();
	bool said;

	if (!f || fchmod(fileno(f), mode))
		die_oom();
	capture_begin();
	said = warn_world_accessible(fileno(f));
	check(said == warns && !strcmp(capture_end(), warns ? WORLD_WARNING : ""),
	      name, "mode %o: %s", mode, said ? "warned" : "did not warn");
	fclose(f);
}

static void test_warnings(void)
{
	static const char priv[] = "[Interface]\nPrivateKey = " K1 "\n";
	static const char psk[] = "[Peer]\nPublicKey = " K2 "\nPresharedKey = " PSK "\n";
	static const char none[] = "[Peer]\nPublicKey = " K2 "\n";
	int fds[2];

	default_check("noproto/no-device", NULL, false, NOISE_DEFAULT_PROTOCOL, NULL);
	default_check("noproto/wireguard-kept", "WireGuard", true, "WireGuard", NULL);
	default_check("noproto/default-kept", NOISE_DEFAULT_PROTOCOL, false,
		      NOISE_DEFAULT_PROTOCOL, NULL);
	default_check("noproto/new-device", NOISE_DEFAULT_PROTOCOL, true,
		      NOISE_DEFAULT_PROTOCOL, "not the WireGuard profile");
	default_check("noproto/other-changes", "Noise_XX_25519_AESGCM_SHA256", false,
		      NOISE_DEFAULT_PROTOCOL,
		      "noise0 changes from Noise_XX_25519_AESGCM_SHA256 to "
		      NOISE_DEFAULT_PROTOCOL);
	mode_check("keyfile/private-0600", priv, S_IFREG | 0600, false);
	mode_check("keyfile/private-0640", priv, S_IFREG | 0640, true);
	mode_check("keyfile/psk-0604", psk, S_IFREG | 0604, true);
	mode_check("keyfile/no-secret-0644", none, S_IFREG | 0644, false);
	mode_check("keyfile/pipe", priv, S_IFIFO | 0644, false);
	world_check("genkey/world-0644", 0644, true);
	world_check("genkey/world-0602", 0602, true);
	world_check("genkey/private-0640", 0640, false);
	if (pipe(fds) == 0) {
		capture_begin();
		check(!warn_world_accessible(fds[1]) && !*capture_end(),
		      "genkey/pipe", "warned on a pipe");
		close(fds[0]);
		close(fds[1]);
	}
}

/*
 * device_find_peer(): the first peer with a key among many, none for an
 * unknown key, and a peer appended after a lookup (its key set later) found.
 */
static void test_find_peer(void)
{
	struct noise_device *dev = device_new();
	struct noise_peer *p;
	size_t i, n = 20000, bad = 0;
	u8 key[32] = { 0 };

	for (i = 0; i < n; i++) {
		p = device_add_peer(dev);
		memcpy(p->public_key, &i, sizeof(i));
		p->key_len = 32;
	}
	p = device_add_peer(dev);	/* a duplicate of peer 7 */
	memcpy(p->public_key, dev->peers[7].public_key, 32);
	p->key_len = 32;
	for (i = 0; i < n; i++) {
		memcpy(key, &i, sizeof(i));
		bad += device_find_peer(dev, key, 32) != &dev->peers[i];
	}
	check(!bad, "find-peer/each", "%zu of %zu peers not found", bad, n);
	memcpy(key, &n, sizeof(n));
	check(!device_find_peer(dev, key, 32) && !device_find_peer(dev, key, 16),
	      "find-peer/unknown", "found a peer for an unknown key");
	p = device_add_peer(dev);	/* no key yet: not indexed */
	check(!device_find_peer(dev, key, 32), "find-peer/keyless", "found");
	p->key_len = 32;
	memcpy(p->public_key, key, 32);
	check(device_find_peer(dev, key, 32) == &dev->peers[n + 1],
	      "find-peer/late-key", "a peer keyed after a lookup not found");
	device_free(dev);
}

/*
 * The held-back output of `show dump`: lines written over several chunks
 * come out whole and in order, and a discarded buffer leaves nothing.
 */
static void outbuf_fill(FILE *f, int lines, int tag)
{
	int i;

	for (i = 0; i < lines; i++)
		fprintf(f, "%d line %d %.*s\n", tag, i, i % 97, K1);
}

static void test_outbuf(void)
{
	char *want = NULL, *got = NULL;
	size_t want_len = 0, got_len = 0;
	FILE *w = open_memstream(&want, &want_len);
	FILE *g = open_memstream(&got, &got_len);
	struct outbuf ob;
	bool ok;

	if (!w || !g)
		die_oom();
	outbuf_open(&ob);
	outbuf_fill(ob.f, 1000, 1);
	outbuf_discard(&ob);
	outbuf_open(&ob);
	outbuf_fill(ob.f, 5000, 2);
	fflush(ob.f);
	outbuf_fill(w, 5000, 2);
	fclose(w);
	check(ob.len == want_len, "outbuf/len", "%zu bytes held, %zu written",
	      ob.len, want_len);
	ok = outbuf_write_out(&ob, g);
	fclose(g);
	check(ok && want_len > 3 * 65536 && got_len == want_len &&
	      !memcmp(got, want, want_len), "outbuf/content",
	      "%zu bytes out of %zu", got_len, want_len);
	free(want);
	free(got);
}

int main(int argc, char *argv[])
{
	if (argc == 2 && !strcmp(argv[1], "ct"))
		return test_ct(false);
	if (argc == 2 && !strcmp(argv[1], "ct-leaky"))
		return test_ct(true);
	test_base64();
	test_dh();
	test_pskid();
	test_config();
	test_config_errors();
	test_config_errors2();
	test_wireguard_name();
	test_dump();
	test_outbuf();
	test_warnings();
	test_set_args();
	test_split(3, 10, 32768);
	test_split(1000, 10000, 32768);
	test_split(1000, 10000, 4096);
	test_split(50, 2000, 512);
	test_diff();
	test_find_peer();
	return failed;
}

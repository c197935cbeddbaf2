// SPDX-License-Identifier: GPL-2.0
/*
 * Userspace sanity run of kmod/noise/x448.c (built with the shim headers in
 * tests/ct/include, normally under -fsanitize=address,undefined):
 *
 *   x448_vectors           RFC 7748 vectors, iterations 1 and 1000,
 *                          low-order and non-canonical inputs, key round trip
 *   x448_vectors --1m      also the 1000000-iteration vector (slow)
 *   x448_vectors --stdin   compare with lines "scalar u expected" (hex) from
 *                          x448_ref.py random
 *
 * Prints one line per check; exits 1 if any failed.
 */
#include <stdio.h>
#include <linux/types.h>
#include <linux/string.h>
#include "x448.h"
#include "x448_rfc7748.h"

static int failures;

static void check(bool ok, const char *what)
{
	printf("%s %s\n", ok ? "ok  " : "FAIL", what);
	if (!ok)
		failures++;
}

static bool is_zero(const u8 *b)
{
	u8 acc = 0;
	int i;

	for (i = 0; i < X448_KEY_SIZE; i++)
		acc |= b[i];
	return !acc;
}

/* @u as a little-endian integer: p + @add, or 2^448 - 1 when @all_ones. */
static void make_u(u8 u[X448_KEY_SIZE], unsigned int add, bool all_ones)
{
	unsigned int carry = add;
	int i;

	memset(u, 0xff, X448_KEY_SIZE);
	if (all_ones)
		return;
	u[28] = 0xfe;	/* p = 2^448 - 2^224 - 1: byte 28 holds bit 224 */
	for (i = 0; i < X448_KEY_SIZE && carry; i++) {
		carry += u[i];
		u[i] = (u8)carry;
		carry >>= 8;
	}
}

static void rfc_vectors(void)
{
	u8 out[X448_KEY_SIZE];
	size_t i;
	bool ok;

	for (i = 0; i < ARRAY_SIZE(x448_rfc7748_vectors); i++) {
		const struct x448_rfc7748_vector *v = &x448_rfc7748_vectors[i];

		ok = noise_x448(out, v->scalar, v->u);
		check(ok && !memcmp(out, v->out, X448_KEY_SIZE), v->name);
	}
}

static void iterations(bool million)
{
	u8 k[X448_KEY_SIZE] = { 5 }, u[X448_KEY_SIZE] = { 5 }, r[X448_KEY_SIZE];
	unsigned long i, n = million ? 1000000 : 1000;
	bool ok = true;

	for (i = 1; i <= n; i++) {
		ok &= noise_x448(r, k, u);
		memcpy(u, k, X448_KEY_SIZE);
		memcpy(k, r, X448_KEY_SIZE);
		if (i == 1)
			check(ok && !memcmp(k, x448_rfc7748_iter_1, X448_KEY_SIZE),
			      "RFC 7748 5.2 iterated 1");
		if (i == 1000)
			check(ok && !memcmp(k, x448_rfc7748_iter_1000, X448_KEY_SIZE),
			      "RFC 7748 5.2 iterated 1000");
	}
	if (million)
		check(ok && !memcmp(k, x448_rfc7748_iter_1000000, X448_KEY_SIZE),
		      "RFC 7748 5.2 iterated 1000000");
}

static void low_order_and_noncanonical(void)
{
	const u8 *k = x448_rfc7748_vectors[0].scalar;
	u8 u[X448_KEY_SIZE], r[X448_KEY_SIZE], want[X448_KEY_SIZE];
	bool ok;

	memset(u, 0, sizeof(u));
	memset(r, 0xaa, sizeof(r));
	ok = noise_x448(r, k, u);
	check(!ok && is_zero(r), "u = 0 rejected, output zero");

	u[0] = 1;
	memset(r, 0xaa, sizeof(r));
	ok = noise_x448(r, k, u);
	check(!ok && is_zero(r), "u = 1 rejected, output zero");

	make_u(u, 0, false);
	u[0] = 0xfe;	/* p - 1 */
	memset(r, 0xaa, sizeof(r));
	ok = noise_x448(r, k, u);
	check(!ok && is_zero(r), "u = p - 1 rejected, output zero");

	make_u(u, 0, false);
	ok = noise_x448(r, k, u);
	check(!ok && is_zero(r), "u = p (= 0 mod p) rejected");

	make_u(u, 1, false);
	ok = noise_x448(r, k, u);
	check(!ok && is_zero(r), "u = p + 1 (= 1 mod p) rejected");

	/* p + 5 must act as 5 */
	make_u(u, 5, false);
	ok = noise_x448(r, k, u);
	memset(u, 0, sizeof(u));
	u[0] = 5;
	check(ok && noise_x448(want, k, u) && !memcmp(r, want, sizeof(r)),
	      "u = p + 5 gives X448(k, 5)");

	/* 2^448 - 1 = 2^224 (mod p) */
	make_u(u, 0, true);
	ok = noise_x448(r, k, u);
	memset(u, 0, sizeof(u));
	u[28] = 1;
	check(ok && noise_x448(want, k, u) && !memcmp(r, want, sizeof(r)),
	      "u = 2^448 - 1 gives X448(k, 2^224)");

	/* the top bit is not masked: u and u + 2^447 differ */
	memcpy(u, x448_rfc7748_vectors[0].u, sizeof(u));
	u[55] ^= 0x80;
	ok = noise_x448(r, k, u);
	check(ok && memcmp(r, x448_rfc7748_vectors[0].out, sizeof(r)),
	      "bit 447 of u is used");
}

static void in_place(void)
{
	const struct x448_rfc7748_vector *v = &x448_rfc7748_vectors[0];
	u8 buf[X448_KEY_SIZE];
	bool ok;

	memcpy(buf, v->scalar, sizeof(buf));
	ok = noise_x448(buf, buf, v->u);
	check(ok && !memcmp(buf, v->out, sizeof(buf)), "out = scalar buffer");
	memcpy(buf, v->u, sizeof(buf));
	ok = noise_x448(buf, v->scalar, buf);
	check(ok && !memcmp(buf, v->out, sizeof(buf)), "out = point buffer");
}

static void round_trip(void)
{
	u8 a[X448_KEY_SIZE], b[X448_KEY_SIZE], ap[X448_KEY_SIZE], bp[X448_KEY_SIZE];
	u8 s1[X448_KEY_SIZE], s2[X448_KEY_SIZE];
	bool ok;

	noise_x448_generate_secret(a);
	noise_x448_generate_secret(b);
	ok = noise_x448_generate_public(ap, a);
	ok &= noise_x448_generate_public(bp, b);
	ok &= noise_x448(s1, a, bp);
	ok &= noise_x448(s2, b, ap);
	check(ok && !memcmp(s1, s2, sizeof(s1)) && memcmp(a, b, sizeof(a)),
	      "random key pairs agree");
}

static int unhex(u8 *out, const char *s)
{
	unsigned int v;
	int i;

	if (strlen(s) != 2 * X448_KEY_SIZE)
		return -1;
	for (i = 0; i < X448_KEY_SIZE; i++) {
		if (sscanf(s + 2 * i, "%2x", &v) != 1)
			return -1;
		out[i] = (u8)v;
	}
	return 0;
}

static void from_stdin(void)
{
	char ks[200], us[200], ws[200];
	u8 k[X448_KEY_SIZE], u[X448_KEY_SIZE], want[X448_KEY_SIZE], r[X448_KEY_SIZE];
	int n = 0, bad = 0;
	bool ok;

	while (scanf("%199s %199s %199s", ks, us, ws) == 3) {
		if (unhex(k, ks) || unhex(u, us) || unhex(want, ws)) {
			bad++;
			break;
		}
		ok = noise_x448(r, k, u);
		if (ok != !is_zero(want) || memcmp(r, want, sizeof(r))) {
			printf("mismatch: %s %s\n", ks, us);
			bad++;
		}
		n++;
	}
	printf("%d cases compared with the oracle\n", n);
	check(n > 0 && !bad, "agrees with x448_ref.py");
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "--stdin")) {
		from_stdin();
		return failures ? 1 : 0;
	}
	rfc_vectors();
	iterations(argc == 2 && !strcmp(argv[1], "--1m"));
	low_order_and_noncanonical();
	in_place();
	round_trip();
	return failures ? 1 : 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the Noise engine against every compiled-in test vector, and
 * thousands of random handshakes for every cipher suite.
 */

#include <kunit/test.h>
#include <linux/random.h>
#include <linux/sched.h>
#include "../vectors/replay.h"
#include "engine_test.h"

/* ---- Vectors: one parameterised case per vector. ---- */

static const void *et_vector_gen(const void *prev, char *desc)
{
	const struct noise_vector *v = prev;

	v = v ? v + 1 : noise_test_vectors;
	if (v >= noise_test_vectors + noise_test_vectors_count)
		return NULL;
	strscpy(desc, v->desc, KUNIT_PARAM_DESC_SIZE);
	return v;
}

static void et_vector(struct kunit *test)
{
	const struct noise_vector *v = test->param_value;
	char why[160];

	switch (noise_vector_replay(v, why, sizeof(why))) {
	case NOISE_VEC_PASS:
		break;
	case NOISE_VEC_SKIP:
		kunit_skip(test, "%s", why);
		break;
	default:
		KUNIT_FAIL(test, "%s: %s", v->desc, why);
		break;
	}
}

static struct kunit_case et_vector_cases[] = {
	KUNIT_CASE_PARAM(et_vector, et_vector_gen),
	{}
};

static struct kunit_suite et_vector_suite = {
	.name = "noise_engine_vectors",
	.test_cases = et_vector_cases,
};

/* ---- Random handshakes, per suite. ---- */

static const char * const et_patterns[] = {
	"N", "K", "X", "NN", "NK", "NX", "KN", "KK", "KX", "XN", "XK", "XX",
	"IN", "IK", "IX", "NK1", "NX1", "X1N", "X1K", "XK1", "X1K1", "X1X",
	"XX1", "X1X1", "K1N", "K1K", "KK1", "K1K1", "K1X", "KX1", "K1X1", "I1N",
	"I1K", "IK1", "I1K1", "I1X", "IX1", "I1X1", "NNfallback", "XXfallback",
	"IXfallback",
};

struct et_suite {
	const char *dh, *cipher, *hash;
};

static const struct et_suite et_suites[] = {
	{ "25519", "ChaChaPoly", "SHA256" }, { "25519", "ChaChaPoly", "SHA512" },
	{ "25519", "ChaChaPoly", "BLAKE2s" }, { "25519", "ChaChaPoly", "BLAKE2b" },
	{ "25519", "AESGCM", "SHA256" }, { "25519", "AESGCM", "SHA512" },
	{ "25519", "AESGCM", "BLAKE2s" }, { "25519", "AESGCM", "BLAKE2b" },
	{ "448", "ChaChaPoly", "SHA256" }, { "448", "ChaChaPoly", "SHA512" },
	{ "448", "ChaChaPoly", "BLAKE2s" }, { "448", "ChaChaPoly", "BLAKE2b" },
	{ "448", "AESGCM", "SHA256" }, { "448", "AESGCM", "SHA512" },
	{ "448", "AESGCM", "BLAKE2s" }, { "448", "AESGCM", "BLAKE2b" },
};

static void et_suite_desc(const struct et_suite *s, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s_%s_%s", s->dh, s->cipher, s->hash);
}

KUNIT_ARRAY_PARAM(et_suite, et_suites, et_suite_desc);

/*
 * Handshakes per suite, sized by measurement on the debug UML (KASAN, two
 * shared cores): a random 25519 handshake with transport takes 10 to 20 ms,
 * a 448 one about 4 times as long. 400 per 25519 suite and 100 per 448
 * suite keep the whole random suite near 100 s.
 */
#define ET_RANDOM_25519 400
#define ET_RANDOM_448 100

/* A random valid name: base pattern plus a random sorted set of pskN. */
static void et_random_name(char *name, size_t len, const struct et_suite *s)
{
	const char *base = et_patterns[get_random_u32_below(ARRAY_SIZE(et_patterns))];
	struct noise_protocol_info info;
	char mods[40] = "";
	unsigned int k, n;
	int pos = 0;

	snprintf(name, len, "Noise_%s_%s_%s_%s", base, s->dh, s->cipher, s->hash);
	if (noise_protocol_info(name, &info) || get_random_u32_below(2))
		return;
	n = info.num_msgs;
	for (k = 0; k <= n; k++) {
		if (get_random_u32_below(3))
			continue;
		pos += scnprintf(mods + pos, sizeof(mods) - pos, "%spsk%u",
				 pos || strchr(base, 'f') ? "+" : "", k);
	}
	snprintf(name, len, "Noise_%s%s_%s_%s_%s", base, mods, s->dh, s->cipher, s->hash);
}

static size_t et_random_len(void)
{
	u32 r = get_random_u32_below(100);

	if (r < 70)
		return get_random_u32_below(65);
	if (r < 95)
		return get_random_u32_below(2049);
	return get_random_u32_below(NOISE_MAX_MSG_LEN - 256);
}

static void et_random(struct kunit *test)
{
	const struct et_suite *s = test->param_value;
	bool x448 = !strcmp(s->dh, "448");
	unsigned int i, done = 0;
	char name[NOISE_MAX_NAME_LEN + 1];

	for (i = 0; i < (x448 ? ET_RANDOM_448 : ET_RANDOM_25519); i++) {
		struct et_pair *p;
		int err;

		et_random_name(name, sizeof(name), s);
		p = et_pair_new(test, name, NULL);
		err = et_handshake(p, et_random_len());
		KUNIT_ASSERT_EQ_MSG(test, err, 0, "%s", name);
		et_transport(p, 2, get_random_u32_below(4) ? 128 : NOISE_MAX_PAYLOAD_LEN);
		kunit_release_action(test, et_pair_release, p);
		done++;
		cond_resched();
	}
	kunit_info(test, "%u random handshakes", done);
}

static struct kunit_case et_random_cases[] = {
	KUNIT_CASE_PARAM_ATTR(et_random, et_suite_gen_params, { .speed = KUNIT_SPEED_SLOW }),
	{}
};

static struct kunit_suite et_random_suite = {
	.name = "noise_engine_random",
	.test_cases = et_random_cases,
};

kunit_test_suites(&et_vector_suite, &et_random_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for the Noise engine");

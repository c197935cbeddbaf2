// SPDX-License-Identifier: GPL-2.0
/*
 * noise_vectors.ko: replay every compiled-in test vector at insmod, for
 * kernels without KUnit. Prints one line per failure and a summary:
 *   noise_vectors: N passed, M failed, K skipped
 */

#include <linux/module.h>
#include <linux/sched.h>
#include "noise.h"
#include "replay.h"

static int __init noise_vectors_init(void)
{
	unsigned int i, pass = 0, fail = 0, skip = 0;
	char why[160];

	pr_info("noise_vectors: drivers: ChaChaPoly %s, AESGCM %s\n",
		noise_aead_driver_name(NOISE_CIPHER_CHACHAPOLY),
		noise_aead_driver_name(NOISE_CIPHER_AESGCM));
	for (i = 0; i < noise_test_vectors_count; i++) {
		const struct noise_vector *v = &noise_test_vectors[i];

		switch (noise_vector_replay(v, why, sizeof(why))) {
		case NOISE_VEC_PASS:
			pass++;
			break;
		case NOISE_VEC_SKIP:
			skip++;
			pr_debug("noise_vectors: SKIP %s # %s\n", v->desc, why);
			break;
		default:
			fail++;
			pr_err("noise_vectors: FAIL %s: %s\n", v->desc, why);
			break;
		}
		cond_resched();
	}
	pr_info("noise_vectors: %u passed, %u failed, %u skipped\n", pass, fail, skip);
	return 0;
}

static void __exit noise_vectors_exit(void)
{
}

module_init(noise_vectors_init);
module_exit(noise_vectors_exit);
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(NOISE_INTERNAL);
MODULE_DESCRIPTION("Noise test vectors replayed at load time");

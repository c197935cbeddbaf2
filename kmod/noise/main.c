// SPDX-License-Identifier: GPL-2.0
/*
 * noise: the Noise Protocol Framework (revision 34) in the kernel.
 * Module init and exit: the shared hash tfms, the AEAD driver probe and the
 * debugfs file noise/drivers (engine), then the tunnel (tunnel/device.c:
 * the "noise" link type, per-netns state, generic netlink) and its debugfs
 * file noise/stages (tunnel/timing.c). The engine
 * never calls into the tunnel; only this glue knows both.
 */

#include <linux/debugfs.h>
#include <linux/module.h>
#include <linux/seq_file.h>
#include "cipher.h"
#include "hash.h"
#include "tunnel/device.h"
#include "tunnel/timing.h"

static struct dentry *noise_debugfs;

static const char * const noise_hash_labels[NOISE_HASH_COUNT] = {
	[NOISE_HASH_SHA256] = "SHA256", [NOISE_HASH_SHA512] = "SHA512",
	[NOISE_HASH_BLAKE2S] = "BLAKE2s", [NOISE_HASH_BLAKE2B] = "BLAKE2b",
};

static int noise_drivers_show(struct seq_file *m, void *v)
{
	int i;

	seq_printf(m, "ChaChaPoly %s\n", noise_aead_driver_name(NOISE_CIPHER_CHACHAPOLY));
	seq_printf(m, "AESGCM %s\n", noise_aead_driver_name(NOISE_CIPHER_AESGCM));
	for (i = 0; i < NOISE_HASH_COUNT; i++)
		seq_printf(m, "%s %s\n", noise_hash_labels[i], noise_hash_driver_name(i));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(noise_drivers);

static int __init noise_init(void)
{
	int err = noise_hash_init_tfms();

	if (err)
		return err;
	noise_aead_probe();
	noise_debugfs = debugfs_create_dir("noise", NULL);
	debugfs_create_file("drivers", 0444, noise_debugfs, NULL, &noise_drivers_fops);
	err = noise_tunnel_init();
	if (err) {
		debugfs_remove_recursive(noise_debugfs);
		noise_hash_free_tfms();
		return err;
	}
	debugfs_create_file("stages", 0600, noise_debugfs, NULL, &noise_stages_fops);
	pr_info("noise: loaded (ChaChaPoly: %s, AESGCM: %s)\n",
		noise_aead_driver_name(NOISE_CIPHER_CHACHAPOLY),
		noise_aead_driver_name(NOISE_CIPHER_AESGCM));
	return 0;
}

static void __exit noise_exit(void)
{
	noise_tunnel_exit();
	debugfs_remove_recursive(noise_debugfs);
	noise_cipher_pool_drain();
	noise_hash_free_tfms();
}

module_init(noise_init);
module_exit(noise_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Noise Protocol Framework (rev 34) engine and tunnel");
MODULE_VERSION(NOISE_VERSION);

// SPDX-License-Identifier: GPL-2.0
/*
 * noise: the Noise Protocol Framework (revision 34) in the kernel.
 */

#include <linux/module.h>

static int __init noise_init(void)
{
	pr_info("noise: loaded\n");
	return 0;
}

static void __exit noise_exit(void)
{
}

module_init(noise_init);
module_exit(noise_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Noise Protocol Framework (rev 34) engine and tunnel");

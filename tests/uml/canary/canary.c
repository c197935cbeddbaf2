// SPDX-License-Identifier: GPL-2.0
/*
 * A module that misbehaves on request, to prove that the test bed notices:
 * tests/check.d/05-testbed loads it into the debug UML kernel with each
 * fault= value and expects tests/uml/run to fail for every fault but "none".
 */

#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>

static char *fault = "none";
module_param(fault, charp, 0444);
MODULE_PARM_DESC(fault, "none, kasan, leak, ubsan, lockdep or warn");

static int shift = 40;
module_param(shift, int, 0444);
MODULE_PARM_DESC(shift, "shift count for fault=ubsan (>= 32 is undefined)");

static void *canary_leaked;
static int canary_sink;

static int canary_kasan(void)
{
	char *p = kmalloc(16, GFP_KERNEL);
	int v;

	if (!p)
		return -ENOMEM;
	v = READ_ONCE(p[16]);	/* one byte past the end */
	kfree(p);
	WRITE_ONCE(canary_sink, v);
	return 0;
}

static int canary_leak(void)
{
	int i;

	/*
	 * Several objects: kmemleak is conservative, a stale copy of one
	 * pointer somewhere (a stack not freed yet) keeps that one "in use".
	 */
	for (i = 0; i < 8; i++) {
		canary_leaked = kmalloc(512, GFP_KERNEL);
		if (!canary_leaked)
			return -ENOMEM;
	}
	canary_leaked = NULL;	/* no reference is left to any of them */
	return 0;
}

static int canary_ubsan(void)
{
	WRITE_ONCE(canary_sink, 1 << READ_ONCE(shift));
	return 0;
}

static DEFINE_MUTEX(canary_a);
static DEFINE_MUTEX(canary_b);

static int canary_lockdep(void)
{
	/* a then b, later b then a: lockdep sees a possible deadlock */
	mutex_lock(&canary_a);
	mutex_lock(&canary_b);
	mutex_unlock(&canary_b);
	mutex_unlock(&canary_a);

	mutex_lock(&canary_b);
	mutex_lock(&canary_a);
	mutex_unlock(&canary_a);
	mutex_unlock(&canary_b);
	return 0;
}

static int __init canary_init(void)
{
	pr_info("noise_canary: fault=%s\n", fault);
	if (!strcmp(fault, "kasan"))
		return canary_kasan();
	if (!strcmp(fault, "leak"))
		return canary_leak();
	if (!strcmp(fault, "ubsan"))
		return canary_ubsan();
	if (!strcmp(fault, "lockdep"))
		return canary_lockdep();
	if (!strcmp(fault, "warn"))
		WARN_ON(1);
	return 0;
}

static void __exit canary_exit(void)
{
}

module_init(canary_init);
module_exit(canary_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("noise test bed canary: planted faults");

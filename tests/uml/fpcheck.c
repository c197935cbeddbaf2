// SPDX-License-Identifier: GPL-2.0
/*
 * fpcheck: does a UML process keep its vector registers?
 *
 * UML runs each guest process as a host process and moves its FP and vector
 * state through ptrace at every switch and page fault. This loads a pattern
 * derived from a seed into vector and mask registers, then, in one asm block
 * that holds them, yields the CPU and faults in a new page ROUNDS times, and
 * compares what the registers hold afterwards. Run two at once with different
 * seeds: each yield switches between them. It uses the widest registers the
 * CPU has (AVX-512 zmm0, zmm16, zmm31 and k1; else AVX ymm0 and ymm15; else
 * SSE xmm0 and xmm15). Exit 0 when every byte survived, 1 when one did not.
 *
 *   fpcheck SEED
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#define ROUNDS 2000
#define PAGE 4096

struct regs {
	unsigned char v[3][64];
	unsigned long long k;
};

/*
 * The loop every variant runs with its registers loaded: yield, then fault
 * in the next page, N times. Only rax, rcx and r11 (the syscall's) change.
 * Operands: %0 p, %1 n (FP_OUTPUTS); %2 in, %3 out, %4 the syscall's
 * number, %5 the page size (FP_INPUTS).
 */
#define FP_LOOP \
	"1:\n\t" \
	"movl %4, %%eax\n\t" \
	"syscall\n\t" \
	"movb $1, (%0)\n\t" \
	"addq %5, %0\n\t" \
	"decq %1\n\t" \
	"jnz 1b\n\t"
#define FP_OUTPUTS "+r" (p), "+r" (n)
#define FP_INPUTS "r" (in), "r" (out), "i" (SYS_sched_yield), "i" (PAGE)
#define FP_CLOBBERS "rax", "rcx", "r11", "memory"

__attribute__((target("avx512f,avx512bw")))
static void run_avx512(const struct regs *in, struct regs *out, char *p, long n)
{
	asm volatile("vmovdqu64 0(%2), %%zmm0\n\t"
		     "vmovdqu64 64(%2), %%zmm16\n\t"
		     "vmovdqu64 128(%2), %%zmm31\n\t"
		     "kmovq 192(%2), %%k1\n\t"
		     FP_LOOP
		     "vmovdqu64 %%zmm0, 0(%3)\n\t"
		     "vmovdqu64 %%zmm16, 64(%3)\n\t"
		     "vmovdqu64 %%zmm31, 128(%3)\n\t"
		     "kmovq %%k1, 192(%3)\n\t"
		     : FP_OUTPUTS : FP_INPUTS
		     : FP_CLOBBERS, "xmm0", "xmm16", "xmm31", "k1");
}

__attribute__((target("avx")))
static void run_avx(const struct regs *in, struct regs *out, char *p, long n)
{
	asm volatile("vmovdqu 0(%2), %%ymm0\n\t"
		     "vmovdqu 64(%2), %%ymm15\n\t"
		     FP_LOOP
		     "vmovdqu %%ymm0, 0(%3)\n\t"
		     "vmovdqu %%ymm15, 64(%3)\n\t"
		     : FP_OUTPUTS : FP_INPUTS
		     : FP_CLOBBERS, "xmm0", "xmm15");
}

static void run_sse(const struct regs *in, struct regs *out, char *p, long n)
{
	asm volatile("movdqu 0(%2), %%xmm0\n\t"
		     "movdqu 64(%2), %%xmm15\n\t"
		     FP_LOOP
		     "movdqu %%xmm0, 0(%3)\n\t"
		     "movdqu %%xmm15, 64(%3)\n\t"
		     : FP_OUTPUTS : FP_INPUTS
		     : FP_CLOBBERS, "xmm0", "xmm15");
}

/* Compare the first WIDTH bytes of each of NREGS registers, and the mask. */
static int compare(const char *kind, const struct regs *in,
		   const struct regs *out, int nregs, int width, int mask)
{
	int bad = 0;

	for (int r = 0; r < nregs; r++) {
		if (!memcmp(in->v[r], out->v[r], width))
			continue;
		fprintf(stderr, "fpcheck: %s register %d lost its value\n", kind, r);
		bad = 1;
	}
	if (mask && in->k != out->k) {
		fprintf(stderr, "fpcheck: %s mask k1 lost its value\n", kind);
		bad = 1;
	}
	return bad;
}

int main(int argc, char **argv)
{
	static struct regs in, out;
	unsigned int seed;
	const char *kind;
	char *pages;
	int bad;

	if (argc != 2) {
		fprintf(stderr, "usage: fpcheck SEED\n");
		return 2;
	}
	seed = strtoul(argv[1], NULL, 0) * 2654435761u + 1;
	for (size_t i = 0; i < sizeof(in.v); i++) {
		seed = seed * 1103515245u + 12345u;
		((unsigned char *)in.v)[i] = seed >> 16;
	}
	in.k = ((unsigned long long)seed << 32) | (seed ^ 0x5a5a5a5au);
	pages = mmap(NULL, (size_t)ROUNDS * PAGE, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (pages == MAP_FAILED) {
		perror("fpcheck: mmap");
		return 2;
	}
	__builtin_cpu_init();
	if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw")) {
		kind = "avx512";
		run_avx512(&in, &out, pages, ROUNDS);
		bad = compare(kind, &in, &out, 3, 64, 1);
	} else if (__builtin_cpu_supports("avx")) {
		kind = "avx";
		run_avx(&in, &out, pages, ROUNDS);
		bad = compare(kind, &in, &out, 2, 32, 0);
	} else {
		kind = "sse";
		run_sse(&in, &out, pages, ROUNDS);
		bad = compare(kind, &in, &out, 2, 16, 0);
	}
	if (!bad)
		printf("fpcheck: %s registers kept over %d switches and page faults\n",
		       kind, ROUNDS);
	return bad;
}

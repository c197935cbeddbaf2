# SPDX-License-Identifier: GPL-2.0
#
# ML-KEM userspace checks (tests/ct/): kmod/noise/mlkem.c and keccak.c
# compiled unmodified against the shim headers in tests/ct/include, with the
# vector table of tests/kunit/gen_mlkem_vectors.py (from
# $(NOISE_SHARED)/vectors/mlkem and $(NOISE_MLKEM_VECTORS)).
#
#   make mlkem-ct-build        build the check programs into tests/ct/build/
#   make mlkem-ct-check        constant-time check under valgrind (with its
#                              leaky control), no division instruction,
#                              every vector under ASan/UBSan, the
#                              accumulated test x10000 (tests/ct/mlkem-check;
#                              the check stage leaves the last to KUnit)
#   make mlkem-accumulated-1m  the accumulated test x1000000 for ML-KEM-768
#                              and ML-KEM-1024 (long: not in make check)

MLKEM_CT_DIR := tests/ct
MLKEM_CT_BUILD := $(MLKEM_CT_DIR)/build
MLKEM_SRC := kmod/noise/mlkem.c kmod/noise/keccak.c
MLKEM_DEPS := $(MLKEM_SRC) kmod/noise/mlkem.h kmod/noise/keccak.h \
	tests/kunit/mlkem_test_common.h $(wildcard $(MLKEM_CT_DIR)/include/linux/*.h)
MLKEM_CC ?= gcc
MLKEM_CFLAGS := -std=gnu11 -g -Wall -Wextra -DNOISE_MLKEM_TESTING \
	-I$(MLKEM_CT_DIR)/include -Ikmod/noise -Itests/kunit
MLKEM_SAN := -O1 -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
NOISE_SHARED ?= $(abspath $(CURDIR)/../shared)
MLKEM_VEC_DIR := $(NOISE_SHARED)/vectors/mlkem
MLKEM_VEC_DATA := $(MLKEM_CT_BUILD)/mlkem_vectors_data.c

MLKEM_CT_BINS := $(MLKEM_CT_BUILD)/mlkem_ct-64-O2 $(MLKEM_CT_BUILD)/mlkem_ct-64-Os \
	$(MLKEM_CT_BUILD)/mlkem_ct-64-kflags
MLKEM_VEC_BINS := $(MLKEM_CT_BUILD)/mlkem_vectors-san $(MLKEM_CT_BUILD)/mlkem_vectors-O2

# Regenerated on every call (NOISE_MLKEM_VECTORS may have changed), but
# replaced only when it differs, so the programs rebuild only then.
mlkem-vec-data:
	@mkdir -p $(MLKEM_CT_BUILD)
	python3 tests/kunit/gen_mlkem_vectors.py -o $(MLKEM_VEC_DATA).new \
		--readme $(MLKEM_VEC_DIR)/README.md \
		--self-json $(MLKEM_CT_BUILD)/mlkem_self_test.json \
		$(sort $(wildcard $(MLKEM_VEC_DIR)/*.txt $(MLKEM_VEC_DIR)/*.txt.gz)) \
		$(NOISE_MLKEM_VECTORS)
	@cmp -s $(MLKEM_VEC_DATA).new $(MLKEM_VEC_DATA) && rm $(MLKEM_VEC_DATA).new || \
		mv $(MLKEM_VEC_DATA).new $(MLKEM_VEC_DATA)

$(MLKEM_VEC_DATA): mlkem-vec-data

# mlkem.c with the kernel's code generation flags (X448_CT_KFLAGS, x448.mk).
$(MLKEM_CT_BUILD)/mlkem_ct-64-kflags: $(MLKEM_CT_DIR)/mlkem_ct.c $(MLKEM_DEPS)
	@mkdir -p $(MLKEM_CT_BUILD)
	$(MLKEM_CC) $(MLKEM_CFLAGS) $(X448_CT_KFLAGS) -include $(MLKEM_CT_DIR)/mlkem_ct_hook.h \
		-c -o $@-mlkem.o kmod/noise/mlkem.c
	$(MLKEM_CC) $(MLKEM_CFLAGS) $(X448_CT_KFLAGS) -c -o $@-keccak.o kmod/noise/keccak.c
	$(MLKEM_CC) $(MLKEM_CFLAGS) -O2 -o $@ $(MLKEM_CT_DIR)/mlkem_ct.c $@-mlkem.o $@-keccak.o

$(MLKEM_CT_BUILD)/mlkem_ct-64-%: $(MLKEM_CT_DIR)/mlkem_ct.c $(MLKEM_DEPS)
	@mkdir -p $(MLKEM_CT_BUILD)
	$(MLKEM_CC) $(MLKEM_CFLAGS) -$* -include $(MLKEM_CT_DIR)/mlkem_ct_hook.h \
		-o $@ $(MLKEM_CT_DIR)/mlkem_ct.c $(MLKEM_SRC)

$(MLKEM_CT_BUILD)/mlkem_vectors-san: $(MLKEM_CT_DIR)/mlkem_vectors.c $(MLKEM_DEPS) $(MLKEM_VEC_DATA)
	$(MLKEM_CC) $(MLKEM_CFLAGS) $(MLKEM_SAN) -o $@ $(MLKEM_CT_DIR)/mlkem_vectors.c \
		$(MLKEM_VEC_DATA) $(MLKEM_SRC)

$(MLKEM_CT_BUILD)/mlkem_vectors-O2: $(MLKEM_CT_DIR)/mlkem_vectors.c $(MLKEM_DEPS) $(MLKEM_VEC_DATA)
	$(MLKEM_CC) $(MLKEM_CFLAGS) -O2 -o $@ $(MLKEM_CT_DIR)/mlkem_vectors.c \
		$(MLKEM_VEC_DATA) $(MLKEM_SRC)

# Objects for the division scan: kernel flags at -O2 and at -Os
# (CONFIG_CC_OPTIMIZE_FOR_SIZE), where compilers divide by constants more
# readily.
MLKEM_DIV_OBJS := $(MLKEM_CT_BUILD)/mlkem-kflags-O2.o $(MLKEM_CT_BUILD)/mlkem-kflags-Os.o
$(MLKEM_CT_BUILD)/mlkem-kflags-%.o: $(MLKEM_DEPS)
	@mkdir -p $(MLKEM_CT_BUILD)
	$(MLKEM_CC) $(MLKEM_CFLAGS) $(X448_CT_KFLAGS) -$* -c -o $@ kmod/noise/mlkem.c

mlkem-ct-build: $(MLKEM_CT_BINS) $(MLKEM_VEC_BINS) $(MLKEM_DIV_OBJS)

mlkem-ct-check: mlkem-ct-build
	$(MLKEM_CT_DIR)/mlkem-check $(MLKEM_CT_BUILD)

mlkem-accumulated-1m: mlkem-ct-build
	$(MLKEM_CT_BUILD)/mlkem_vectors-O2 --accumulated 1000000

.PHONY: mlkem-vec-data mlkem-ct-build mlkem-ct-check mlkem-accumulated-1m

# SPDX-License-Identifier: GPL-2.0
#
# X448 userspace checks (tests/ct/): kmod/noise/x448.c compiled unmodified
# against the shim headers in tests/ct/include.
#
#   make x448-ct-build   build the check programs into tests/ct/build/
#   make x448-ct-m32     also an i386 build of the vectors (gcc-multilib)
#   make ct-check        constant-time check under valgrind (with its leaky
#                        control), RFC 7748 vectors under ASan/UBSan, and a
#                        cross-check against the Python oracle x448_ref.py
#   make x448-ct-clean   remove tests/ct/build/

X448_CT_DIR := tests/ct
X448_CT_BUILD := $(X448_CT_DIR)/build
X448_CT_SRC := kmod/noise/x448.c kmod/noise/x448.h $(X448_CT_DIR)/x448_rfc7748.h \
	$(wildcard $(X448_CT_DIR)/include/linux/*.h)
X448_CT_CC ?= gcc
X448_CT_CFLAGS := -std=gnu11 -g -Wall -Wextra -I$(X448_CT_DIR)/include -Ikmod/noise -I$(X448_CT_DIR)
X448_CT_SAN := -O1 -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

# Code generation flags of the x86 kernel build (taken from a UML kbuild
# command line), for the valgrind program closest to the module's object.
X448_CT_KFLAGS := -O2 -fconserve-stack -fno-builtin -fno-common \
	-fno-delete-null-pointer-checks -fno-strict-aliasing -fno-strict-overflow \
	-fomit-frame-pointer -ftrivial-auto-var-init=zero -funsigned-char \
	-fno-stack-protector -fno-allow-store-data-races -mno-red-zone \
	-mno-sse -mno-sse2 -mno-mmx -mno-3dnow -mno-avx

# Valgrind programs: the kernel's usual -O2, -Os (CONFIG_CC_OPTIMIZE_FOR_SIZE),
# x448.c with the kernel's code generation flags, and the 32-bit-limb form.
X448_CT_BINS := $(X448_CT_BUILD)/x448_ct-64-O2 $(X448_CT_BUILD)/x448_ct-64-Os \
	$(X448_CT_BUILD)/x448_ct-64-kflags $(X448_CT_BUILD)/x448_ct-32-O2
X448_VEC_BINS := $(X448_CT_BUILD)/x448_vectors-64-san $(X448_CT_BUILD)/x448_vectors-32-san

x448_ct_limbs = $(if $(filter 32,$(word 2,$(subst -, ,$(notdir $(1))))),-DNOISE_X448_LIMB32)

$(X448_CT_BUILD)/x448_ct-64-kflags: $(X448_CT_DIR)/x448_ct.c $(X448_CT_SRC)
	@mkdir -p $(X448_CT_BUILD)
	$(X448_CT_CC) $(X448_CT_CFLAGS) $(X448_CT_KFLAGS) -c -o $@-x448.o kmod/noise/x448.c
	$(X448_CT_CC) $(X448_CT_CFLAGS) -O2 -o $@ $(X448_CT_DIR)/x448_ct.c $@-x448.o

$(X448_CT_BUILD)/x448_ct-%: $(X448_CT_DIR)/x448_ct.c $(X448_CT_SRC)
	@mkdir -p $(X448_CT_BUILD)
	$(X448_CT_CC) $(X448_CT_CFLAGS) -$(lastword $(subst -, ,$*)) $(call x448_ct_limbs,$@) \
		-o $@ $(X448_CT_DIR)/x448_ct.c kmod/noise/x448.c

$(X448_CT_BUILD)/x448_vectors-%-san: $(X448_CT_DIR)/x448_vectors.c $(X448_CT_SRC)
	@mkdir -p $(X448_CT_BUILD)
	$(X448_CT_CC) $(X448_CT_CFLAGS) $(X448_CT_SAN) $(call x448_ct_limbs,$@) \
		-o $@ $(X448_CT_DIR)/x448_vectors.c kmod/noise/x448.c

# A true 32-bit (i386) build of the vectors, when gcc can target it
# (gcc-multilib); ct-check skips it otherwise.
$(X448_CT_BUILD)/x448_vectors-m32: $(X448_CT_DIR)/x448_vectors.c $(X448_CT_SRC)
	@mkdir -p $(X448_CT_BUILD)
	$(X448_CT_CC) -m32 $(X448_CT_CFLAGS) -O2 -o $@ $(X448_CT_DIR)/x448_vectors.c kmod/noise/x448.c

x448-ct-build: $(X448_CT_BINS) $(X448_VEC_BINS)

x448-ct-m32: $(X448_CT_BUILD)/x448_vectors-m32

ct-check: x448-ct-build
	-@$(MAKE) -s x448-ct-m32 2> /dev/null
	$(X448_CT_DIR)/ct-check $(X448_CT_BUILD)

x448-ct-clean:
	rm -rf $(X448_CT_BUILD)

.PHONY: x448-ct-build x448-ct-m32 ct-check x448-ct-clean

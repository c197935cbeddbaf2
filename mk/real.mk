# SPDX-License-Identifier: GPL-2.0
#
# Real kernels: Debian's 6.12 under QEMU (SIMD crypto drivers), a build
# against Debian's 6.1 headers. See Documentation/real-kernels.rst.
#
#   make check-real                 both stages, with a summary line
#   make qemu [CPU=qemu64] [SMP=2] [TESTS=tunnel,order] [ARGS='a=b ...']
#                                   one boot of the 6.12 guest (4 vCPUs
#                                   unless SMP says otherwise), verbose;
#                                   ARGS: more kernel command line, e.g.
#                                   noise.crypt_inline=0
#   make qemu-shell [CPU=...] [TESTS=...]
#                                   the same, then a shell in the guest

REAL_RESULTS = build/qemu/check-real.results

# The packages of make check's group: these are two of its stages.
check-real qemu qemu-shell: deps-check

check-real:
	@mkdir -p build/qemu; : > $(REAL_RESULTS)
	@for s in tests/check.d/70-real tests/check.d/71-build-6.1; do \
		NOISE_REPO=$(CURDIR) NOISE_RESULTS=$(CURDIR)/$(REAL_RESULTS) $$s || \
			echo "FAIL $$s # stage exited non-zero" >> $(REAL_RESULTS); \
	done
	@echo "$$(grep -c '^PASS' $(REAL_RESULTS)) passed, $$(grep -c '^FAIL' $(REAL_RESULTS)) failed, $$(grep -c '^SKIP' $(REAL_RESULTS)) skipped"
	@! grep -q '^FAIL' $(REAL_RESULTS)

qemu:
	tests/qemu/run -c $(or $(CPU),max) -s $(or $(SMP),4) $(if $(TESTS),-T $(TESTS)) \
		$(foreach a,$(ARGS),-a $(a))

qemu-shell:
	tests/qemu/run -S -c $(or $(CPU),max) -s $(or $(SMP),4) $(if $(TESTS),-T $(TESTS))

.PHONY: check-real qemu qemu-shell

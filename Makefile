# SPDX-License-Identifier: GPL-2.0
#
# noise: top-level Makefile.
#
#   make            build noise.ko (and noisectl) against KDIR, by default the
#                   running kernel's build tree
#   make demo       show the module at work in a UML test kernel
#   make check      every test: build, style, sparse, W=1, KUnit, selftests,
#                   and the stages other areas add (tests/check.d/)
#   make uml        prepare the debug UML test kernel (cached in ~/.cache)
#   make kunit [T=module|glob]    KUnit suites in UML
#   make selftests [T="name ..."] selftests in UML (also: make selftest T=name)
#   make style | sparse | w1      one static check
#   make netlink-gen  regenerate the uapi header and the kernel's netlink
#                   policies and ops from Documentation/netlink/specs/
#                   noise.yaml (the kernel's ynl-gen-c; mk/netlink-gen.sh)
#   make deps       install the Debian packages make check needs (root);
#                   make deps-GROUP for one group of tests/deps.list
#
# See README.rst and Documentation/testing.rst.

KDIR ?= /lib/modules/$(shell uname -r)/build
PWD := $(shell pwd)
UML_BUILD = $(shell tests/uml/build-kernel debug | tail -n 1)

# Debian packages on top of the group's (tests/deps.list); mk/*.mk may add
# more. Each target installs only its group: demo "demo", check "check".
DEPS_PKGS ?=

all: modules noisectl

modules:
	@if [ ! -d "$(KDIR)/" ]; then \
		echo "No kernel build tree at $(KDIR)."; \
		echo "Install your kernel's headers (Debian: apt-get install linux-headers-\$$(uname -r))"; \
		echo "or pass KDIR=/path/to/a/prepared/kernel/tree."; \
		echo "To build and test in a UML kernel instead (no root needed once deps are in):"; \
		echo "  make uml-modules    # builds the UML kernel first (cached), then the modules"; \
		echo "  make demo           # the same, then loads the module in UML"; \
		exit 1; \
	fi
	$(MAKE) -C $(KDIR) M=$(PWD) modules

noisectl:
	@if [ -f userspace/noisectl/Makefile ]; then \
		$(MAKE) -C userspace/noisectl; \
	else \
		echo "noisectl: userspace/noisectl has no Makefile yet, skipped"; \
	fi

deps: deps-check

deps-%:
	@tests/deps $* $(DEPS_PKGS)

uml: deps-demo
	tests/uml/build-kernel debug

uml-modules: uml
	$(MAKE) -C $(UML_BUILD) ARCH=um M=$(PWD) modules

check: deps-check
	tests/check

kunit: deps-check
	NOISE_KUNIT='$(T)' tests/check kunit

selftests selftest: deps-check
	NOISE_SELFTEST='$(T)' tests/check selftests

style sparse w1: deps-check
	tests/check $@

netlink-gen:
	mk/netlink-gen.sh

demo: deps-demo
	tests/demo/run

clean:
	find . -path ./.git -prune -o \( -name '*.o' -o -name '*.ko' -o -name '*.mod' \
		-o -name '*.mod.c' -o -name '.*.cmd' -o -name '*.a' -o -name '*.o.d' \
		-o -name modules.order -o -name Module.symvers \) -print | xargs rm -f
	rm -rf out .tmp_versions
	@if [ -f userspace/noisectl/Makefile ]; then $(MAKE) -C userspace/noisectl clean; fi

.PHONY: all modules noisectl deps uml uml-modules check kunit selftests netlink-gen \
	selftest style sparse w1 demo clean

# Area fragments (mk/*.mk) add their own targets.
-include mk/*.mk

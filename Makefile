# SPDX-License-Identifier: GPL-2.0
#
# noise: top-level Makefile. `make` builds the modules against KDIR (the
# running kernel's headers by default); `make uml` prepares the UML test
# kernel; see README.rst for demo, check and bench.

KDIR ?= /lib/modules/$(shell uname -r)/build
PWD := $(shell pwd)

all: modules

modules:
	@if [ ! -d "$(KDIR)" ]; then \
		echo "No kernel build tree at $(KDIR)."; \
		echo "Install the headers for your kernel, pass KDIR=..., or run 'make uml' and 'make uml-modules'."; \
		exit 1; \
	fi
	$(MAKE) -C $(KDIR) M=$(PWD) modules

uml:
	tests/uml/build-kernel debug

uml-modules:
	$(MAKE) -C $$(tests/uml/build-kernel debug | tail -n 1) ARCH=um M=$(PWD) modules

clean:
	$(MAKE) -C $$(tests/uml/build-kernel debug | tail -n 1) ARCH=um M=$(PWD) clean 2>/dev/null || true
	find . -name '*.o' -o -name '*.ko' -o -name '*.mod' -o -name '*.mod.c' -o -name '.*.cmd' | xargs rm -f

.PHONY: all modules uml uml-modules clean

# Stage fragments (mk/*.mk) add their own targets.
-include mk/*.mk

# SPDX-License-Identifier: GPL-2.0
#
# Installation (Documentation/install.rst):
#
#   make install        noise.ko for KDIR's kernel (default: the running
#                       one) into /lib/modules/<release>/updates, depmod;
#                       install-noisectl and install-noise-quick
#   make install-noisectl  noisectl, its man page and its bash completion
#                       (and those of noise-quick)
#   make install-noise-quick  noise-quick, its man page, its bash completion
#                       and the systemd units (noise-quick@.service,
#                       noise-quick.target, and noise-netdev@.service, which
#                       makes a device for systemd-networkd or
#                       NetworkManager) into SYSTEMD_UNIT_DIR
#   make dkms-install   the sources to /usr/src/noise-<version>, then
#                       dkms install (rebuilt for every new kernel)
#   make dkms-remove    dkms remove --all, and the sources
#
# DESTDIR, PREFIX (/usr), SYSTEMD_UNIT_DIR ($(PREFIX)/lib/systemd/system),
# INSTALL_MOD_PATH and INSTALL_MOD_DIR (updates) are
# honoured; with INSTALL_MOD_PATH set, depmod is left to the packager.
# DKMS (the dkms command), DKMS_FLAGS (its options, e.g. --dkmstree,
# --installtree, --kernelsourcedir) and DKMS_SOURCETREE (/usr/src; give the
# same to --sourcetree) let the DKMS targets work on scratch trees
# (tests/qemu/dkms-check does).

NOISE_VERSION := $(shell sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' dkms.conf)
KRELEASE = $(shell cat $(KDIR)/include/config/kernel.release 2>/dev/null)
PREFIX ?= /usr
INSTALL_MOD_DIR ?= updates
SYSTEMD_UNIT_DIR ?= $(PREFIX)/lib/systemd/system
MANPAGES = $(wildcard userspace/noisectl/*.[1-8] userspace/noise-quick/*.[1-8])
COMPLETIONS = $(wildcard userspace/noisectl/completion/*.bash userspace/noise-quick/completion/*.bash)
QUICK_UNITS = $(wildcard userspace/noise-quick/systemd/*.service userspace/noise-quick/systemd/*.target)
DKMS ?= dkms
DKMS_FLAGS ?=
DKMS_SOURCETREE ?= $(DESTDIR)/usr/src
DKMS_SRC = $(DKMS_SOURCETREE)/noise-$(NOISE_VERSION)
# Distribution headers have no signing key: do not let modules_install try
# (and print SSL errors). DKMS signs with its own key instead.
NOISE_NOSIGN = $(if $(wildcard $(KDIR)/certs/signing_key.pem $(KDIR)/output/signing_key.pem),,CONFIG_MODULE_SIG_ALL=)

install: install-module install-noisectl install-noise-quick

install-module:
	@test -d "$(KDIR)" || { echo "No kernel build tree at $(KDIR): install the headers or pass KDIR=..."; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR)/kmod/noise modules
	$(MAKE) -C $(KDIR) M=$(CURDIR)/kmod/noise INSTALL_MOD_DIR=$(INSTALL_MOD_DIR) $(NOISE_NOSIGN) modules_install
	$(if $(INSTALL_MOD_PATH),,depmod -a $(KRELEASE))

install-noisectl: install-man install-completion
	$(MAKE) -C userspace/noisectl install-bin DESTDIR=$(DESTDIR) PREFIX=$(PREFIX)

# The units name the programs by their installed path (@BINDIR@).
install-noise-quick: install-man install-completion
	install -D -m 0755 userspace/noise-quick/noise-quick $(DESTDIR)$(PREFIX)/bin/noise-quick
	$(foreach u,$(QUICK_UNITS),install -d $(DESTDIR)$(SYSTEMD_UNIT_DIR) && sed 's|@BINDIR@|$(PREFIX)/bin|g' $(u) > $(DESTDIR)$(SYSTEMD_UNIT_DIR)/$(notdir $(u)) && chmod 0644 $(DESTDIR)$(SYSTEMD_UNIT_DIR)/$(notdir $(u));)

install-man:
	$(foreach m,$(MANPAGES),install -D -m 0644 $(m) $(DESTDIR)$(PREFIX)/share/man/man$(subst .,,$(suffix $(m)))/$(notdir $(m));)

install-completion:
	$(foreach c,$(COMPLETIONS),install -D -m 0644 $(c) $(DESTDIR)$(PREFIX)/share/bash-completion/completions/$(basename $(notdir $(c)));)

dkms-src:
	rm -rf $(DKMS_SRC)
	install -d $(DKMS_SRC)
	cp dkms.conf $(DKMS_SRC)/
	sh mk/version.sh > $(DKMS_SRC)/VERSION
	tar -c --exclude='*.o' --exclude='*.ko' --exclude='*.mod*' --exclude='.*.cmd' \
		--exclude='*.a' --exclude=modules.order --exclude=Module.symvers \
		kmod $(wildcard include) | tar -x -C $(DKMS_SRC)

dkms-install: dkms-src
	$(DKMS) $(DKMS_FLAGS) install noise/$(NOISE_VERSION) $(if $(KRELEASE),-k $(KRELEASE))

dkms-remove:
	-$(DKMS) $(DKMS_FLAGS) remove noise/$(NOISE_VERSION) --all
	rm -rf $(DKMS_SRC)

.PHONY: install install-module install-noisectl install-noise-quick install-man install-completion dkms-src dkms-install dkms-remove

# SPDX-License-Identifier: GPL-2.0
#
# Included by the Makefiles of our kselftest collections (tests/selftests:
# "noise", run in UML; tests/qemu: "noise-real", run on Debian's kernels
# under QEMU) after they set COLLECTION and their TEST_* lists. It finds
# the kernel's kselftest tree, includes its lib.mk and adds
#
#   make kselftest_install INSTALL_PATH=DIR
#
# which installs the collection into DIR/COLLECTION, the runner
# (DIR/run_kselftest.sh, DIR/kselftest/), the net selftests' lib.sh
# (DIR/net/lib.sh) and the collection's lines of DIR/kselftest-list.txt;
# the lines other collections installed there stay.
#
# KSFT_DIR is the kernel's tools/testing/selftests; by default that of the
# UML build kernel's source ($NOISE_UML_SOURCE, set by tests/check), else
# the source unpacked by tests/uml/build-kernel in its cache.

NOISE_UML_CACHE ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/noise-uml
ifneq ($(NOISE_UML_SOURCE),)
KSFT_DIR ?= $(NOISE_UML_SOURCE)/tools/testing/selftests
else
KSFT_DIR ?= $(lastword $(sort $(wildcard $(NOISE_UML_CACHE)/src/*/linux-source-*/tools/testing/selftests)))
endif
ifeq ($(wildcard $(KSFT_DIR)/lib.mk),)
$(error no kselftest tree (lib.mk) in KSFT_DIR='$(KSFT_DIR)': run tests/uml/build-kernel debug, or pass KSFT_DIR=<linux>/tools/testing/selftests)
endif
KSFT_DIR := $(abspath $(KSFT_DIR))
# The scripts source $KSFT_DIR/kselftest/ktap_helpers.sh (installed: the
# copy in ../kselftest/).
export KSFT_DIR

# runner.sh reads the "settings" file (timeout=) only for directories below
# its own BASE_DIR, i.e. not in-tree here: pass the timeout on.
export kselftest_override_timeout ?= $(shell sed -n 's/^timeout=//p' settings)

# tests/selftests/lib.sh sources the net selftests' lib.sh: installed
# beside the collection (DIR/net/lib.sh), as the kernel's own collections
# that use it do.
TEST_INCLUDES += $(KSFT_DIR)/net/lib.sh

include $(KSFT_DIR)/lib.mk

# What the kernel's tools/testing/selftests/Makefile does for its TARGETS,
# for this one collection.
KSFT_RUNNER_FILES := module.sh runner.sh prefix.pl ktap_helpers.sh ksft.py
kselftest_install:
ifndef INSTALL_PATH
	$(error set INSTALL_PATH to use kselftest_install)
endif
	mkdir -p $(INSTALL_PATH)/kselftest
	install -m 744 $(addprefix $(KSFT_DIR)/kselftest/,$(KSFT_RUNNER_FILES)) $(INSTALL_PATH)/kselftest/
	install -m 744 $(KSFT_DIR)/run_kselftest.sh $(INSTALL_PATH)/
	$(MAKE) --no-print-directory install INSTALL_PATH=$(abspath $(INSTALL_PATH))/$(COLLECTION) \
		SRC_PATH=$(KSFT_DIR) OBJ_PATH=$(abspath $(INSTALL_PATH))
	{ grep -v '^$(COLLECTION):' $(INSTALL_PATH)/kselftest-list.txt 2> /dev/null; \
	  $(MAKE) -s --no-print-directory emit_tests COLLECTION=$(COLLECTION); } > $(INSTALL_PATH)/kselftest-list.new
	mv $(INSTALL_PATH)/kselftest-list.new $(INSTALL_PATH)/kselftest-list.txt

.PHONY: kselftest_install

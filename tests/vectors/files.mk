# SPDX-License-Identifier: GPL-2.0
# The vector files, for every Kbuild that compiles them in (tests/vectors/,
# tests/kunit/): one list, so the modules on real kernels replay what the
# KUnit suites replay.
#
# Noise: $(NOISE_SHARED)/vectors/*.txt, the hfs vectors
# $(NOISE_SHARED)/vectors/hfs/hfs-public.txt (in their own folder: readers
# that glob vectors/*.txt do not meet them) and the space-separated paths in
# NOISE_VECTORS. A file of noise_vector_expect that is missing becomes a
# skipped entry (gen_vectors.py --expect), never a pass.
# ML-KEM: the known-answer files of $(NOISE_SHARED)/vectors/mlkem/ and the
# Wycheproof ML-KEM JSON files in NOISE_MLKEM_VECTORS
# (tests/kunit/gen_mlkem_vectors.py).
# NOISE_SHARED: ../shared beside the repository; a git worktree under wt/
# has it one level higher (as tests/qemu/build finds it).
NOISE_SHARED ?= $(firstword $(wildcard $(abspath $(src)/../../../shared) \
	$(abspath $(src)/../../../../shared)) $(abspath $(src)/../../../shared))
noise_vector_expect := cacophony.txt noise-c-basic.txt noise-c-fallback.txt \
	hfs-public.txt
noise_vector_files := $(sort $(wildcard $(NOISE_SHARED)/vectors/*.txt)) \
	$(wildcard $(NOISE_SHARED)/vectors/hfs/hfs-public.txt) $(NOISE_VECTORS)
mlkem_vec_dir := $(NOISE_SHARED)/vectors/mlkem
mlkem_vec_files := $(sort $(wildcard $(mlkem_vec_dir)/*.txt $(mlkem_vec_dir)/*.txt.gz)) \
	$(NOISE_MLKEM_VECTORS)

# The generators, and their commands for $(call if_changed,...): the
# target's name says what it holds; the ML-KEM one also writes the JSON file
# it makes from the known answers beside it (.json for .c).
noise_vec_gen := $(src)/../vectors/gen_vectors.py
mlkem_vec_gen := $(src)/../kunit/gen_mlkem_vectors.py
quiet_cmd_noise_vectors = GEN     $@
      cmd_noise_vectors = python3 $(noise_vec_gen) -o $@ \
	$(addprefix --expect ,$(noise_vector_expect)) $(noise_vector_files)
quiet_cmd_mlkem_vectors = GEN     $@
      cmd_mlkem_vectors = python3 $(mlkem_vec_gen) -o $@ \
	--readme $(mlkem_vec_dir)/README.md --self-json $(@:.c=.json) \
	$(mlkem_vec_files)

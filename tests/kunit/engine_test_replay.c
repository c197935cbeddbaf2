// SPDX-License-Identifier: GPL-2.0
/* The vector replay code of tests/vectors, built into the KUnit module. */
#include "../vectors/replay.c"

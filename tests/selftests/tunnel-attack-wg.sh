#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The attacker on the path of tunnel-attack.sh, for
# Noise_KKpsk0_25519_ChaChaPoly_BLAKE2s (a psk pattern whose message 1 is
# found by its hint) and the WireGuard profile.
AT_PROTOS="Noise_KKpsk0_25519_ChaChaPoly_BLAKE2s WireGuard" AT_PEER_FLOOD=0 \
	exec "$(dirname "$0")/tunnel-attack.sh"

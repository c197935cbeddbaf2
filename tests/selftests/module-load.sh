#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# noise.ko loads and unloads cleanly next to a working network: two
# namespaces joined by a veth pair can ping each other before, while and
# after the module is loaded (and move TCP traffic with iperf3 while it is),
# and kmemleak finds nothing afterwards.
source "$(dirname "$0")/lib.sh"

st_need ip ping iperf3
grep -q '^noise ' /proc/modules && st_skip_all "noise is loaded already"

st_plan 10
st_run "two network namespaces joined by a veth pair" st_netns_pair ns-a ns-b
st_run "ping ns-a -> ns-b" ip netns exec ns-a ping -c 2 -i 0.2 -W 2 10.99.0.2
st_run "ping6 ns-b -> ns-a" ip netns exec ns-b ping -6 -c 2 -i 0.2 -W 2 fd99::1
st_run "load noise.ko" noise_load
st_run "noise is listed in /proc/modules" grep -q '^noise ' /proc/modules
st_run "ping ns-a -> ns-b with noise loaded" \
	ip netns exec ns-a ping -c 2 -i 0.2 -W 2 10.99.0.2
st_run "iperf3 TCP ns-a -> ns-b with noise loaded" \
	st_iperf3 ns-a ns-b 10.99.0.2
st_run "rmmod noise" noise_unload
st_run "noise is gone from /proc/modules" \
	bash -c '! grep -q "^noise " /proc/modules'
st_kmemleak_case "kmemleak scan clean after load and unload"
st_done

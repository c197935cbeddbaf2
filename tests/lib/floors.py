#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The tunnel's floors (Documentation/architecture.rst), checked on objects.

    floors.py [--list] OBJ...

OBJ are the tunnel's objects (kmod/noise/tunnel/*.o). An arrow is "file A
calls (or takes the address of) a function or object that file B defines",
read from nm: A's undefined symbols that B defines. Prints the arrows that
go up a floor and the files in a call loop, then one line per check:

  PASS floors/up <from> -> <to>    an upward arrow the design names (UP)
  FAIL floors/up <from> -> <to>    one it does not
  FAIL floors/gone <from> -> <to>  a named one that no longer exists (the
                                   list below must stay true)
  PASS|FAIL floors/loop            no call loop across floors
"""

import subprocess
import sys
from os.path import basename

FLOOR = {
    # 5 control
    "device": 5, "identity": 5, "peer_conf": 5, "netlink": 5, "netlink_set": 5,
    "noise-nl-gen": 5,
    # 4 paths
    "send": 4, "receive": 4, "hs_glue": 4, "timers": 4,
    # 3 I/O
    "socket": 3, "queueing": 3,
    # 2 state
    "peer": 2, "peer_table": 2, "allowedips": 2, "cookie": 2, "ratelimiter": 2,
    "stats": 2,
    "timing": 2,
    # 1 wire format
    "proto": 1, "wg": 1,
}

# Upward arrows the design names (architecture.rst, "Floors of the
# tunnel"): none. A lower floor reaches up only through what it was
# handed: nd->encap_rcv, nd->peer_event, nd->crypt_ops, work items.
UP = set()


def symbols(obj):
    out = subprocess.run(["nm", obj], capture_output=True, text=True,
                         check=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        f = line.split()
        if len(f) == 3 and f[1] in "TDBR":
            defined.add(f[2])
        elif len(f) == 2 and f[0] == "U":
            undefined.add(f[1])
    return defined, undefined


def arrows(objs):
    defs, undefs = {}, {}
    for o in objs:
        name = basename(o)[:-2]
        if name not in FLOOR:
            continue
        defs[name], undefs[name] = symbols(o)
    out = {}
    for a in undefs:
        for b in defs:
            if a != b:
                hit = sorted(undefs[a] & defs[b])
                if hit:
                    out[(a, b)] = hit
    return out


def loops(edges):
    """Files in a cycle (strongly connected components of size > 1)."""
    graph = {}
    for a, b in edges:
        graph.setdefault(a, set()).add(b)
        graph.setdefault(b, set())
    index, low, stack, on, comps = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                comps.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return comps


def main(argv):
    listing = "--list" in argv
    objs = [a for a in argv if a != "--list"]
    # A file the design does not place would escape every check below.
    for o in objs:
        name = basename(o)[:-2]
        if name not in FLOOR:
            print(f"FAIL floors/unplaced {name} # no floor in FLOOR "
                  "(tests/lib/floors.py, architecture.rst)")
    edges = arrows(objs)
    up = {e: s for e, s in edges.items() if FLOOR[e[1]] > FLOOR[e[0]]}
    comps = loops(edges)
    print(f"# {len(edges)} arrows between {len({f for e in edges for f in e})} "
          f"files, {len(up)} up a floor, "
          f"{sum(len(c) for c in comps)} files in call loops: "
          + "; ".join(" ".join(c) for c in comps))
    if listing:
        for (a, b), s in sorted(edges.items()):
            print(f"# {a} ({FLOOR[a]}) -> {b} ({FLOOR[b]}): {' '.join(s)}")
    for (a, b), s in sorted(up.items()):
        ok = (a, b) in UP
        print(f"{'PASS' if ok else 'FAIL'} floors/up {a} -> {b}"
              f"{'' if ok else ' # not in the design: ' + ' '.join(s)}")
    for a, b in sorted(set(UP) - set(up)):
        print(f"FAIL floors/gone {a} -> {b} # named in UP but gone: drop it")
    cross = [c for c in comps if len({FLOOR[f] for f in c}) > 1]
    if cross:
        print("FAIL floors/loop # across floors: " +
              "; ".join(" ".join(c) for c in cross))
    else:
        print("PASS floors/loop")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

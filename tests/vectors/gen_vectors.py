#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Convert Noise test-vector JSON files into a C table for replay.c.

Usage: gen_vectors.py -o OUT.c [--expect NAME]... FILE...

Byte strings become C string literals with \\x escapes (fast to compile).
A vector this script cannot interpret gets a skip reason; a FILE that does
not exist or cannot be parsed becomes one skipped entry, and so does every
--expect NAME absent from the FILE list, so missing data is SKIPPED and
never passes.
"""
import argparse
import json
import os
import re
import sys

KEYS = ['init_prologue', 'init_static', 'init_ephemeral', 'init_remote_static',
        'resp_prologue', 'resp_static', 'resp_ephemeral', 'resp_remote_static',
        'handshake_hash',
        # hfs: the seed d || z of the initiator's e1, the m of the responder's ekem1
        'init_kem_ephemeral', 'resp_kem_ephemeral']


class Skip(Exception):
    pass


def cstr(s):
    out, esc = [], False
    for b in s:
        if not (0x20 <= b < 0x7f) or chr(b) in '"\\?':
            out.append('\\x%02x' % b)
            esc = True
        else:
            # A hex digit right after \xNN would extend the escape.
            out.append(('""' if esc and chr(b) in '0123456789abcdefABCDEF' else '') + chr(b))
            esc = False
    return '"' + ''.join(out) + '"'


def unhex(v, what):
    if not isinstance(v, str) or not re.fullmatch(r'([0-9a-fA-F]{2})*', v):
        raise Skip('field %s is not a hex string' % what)
    return bytes.fromhex(v)


def bytes_lit(b):
    if b is None:
        return '{ NULL, 0 }'
    # Hex escapes: split the literal so a following char is never absorbed.
    return '{ (const u8 *)"%s", %d }' % (''.join('\\x%02x' % x for x in b), len(b))


def split_name(name):
    m = re.fullmatch(r'Noise_([A-Za-z0-9+/]+)_(.+)', name)
    if not m:
        raise Skip('unparsable protocol name')
    return m.group(1), m.group(2)


def names_for(v, name):
    """Return (first protocol, fallback protocol or None)."""
    fb = v.get('fallback')
    fbp = v.get('fallback_pattern')
    if not fb and not fbp:
        return name, None
    pat, rest = split_name(name)
    if fbp is not None:
        if not isinstance(fbp, str) or not re.fullmatch(r'[A-Za-z0-9+]+', fbp):
            raise Skip('unusable fallback_pattern')
        if 'fallback' in pat:
            raise Skip('fallback_pattern with a fallback protocol_name')
        return name, 'Noise_%s_%s' % (fbp, rest)
    if 'fallback' in pat:
        first = v.get('pattern')
        if not isinstance(first, str) or not re.fullmatch(r'[A-Z0-9]+[a-z0-9+]*', first):
            raise Skip('fallback vector without the initial pattern')
        return 'Noise_%s_%s' % (first, rest), name
    # snow style: protocol_name is the initial protocol (IK), fallback is XX.
    base = re.match(r'[A-Z0-9]+', pat).group(0)
    if base != 'IK':
        raise Skip('fallback: cannot tell the fallback pattern')
    return name, 'Noise_XXfallback%s_%s' % (pat[2:] and '+' + pat[2:], rest)


def convert(v, idx, out, tag):
    if not isinstance(v, dict):
        raise Skip('vector is not an object')
    name = v.get('protocol_name', v.get('name'))
    if not isinstance(name, str):
        raise Skip('no protocol_name')
    if v.get('hybrid') or v.get('init_hybrid_ephemeral') or v.get('resp_hybrid_ephemeral'):
        raise Skip('hybrid DH (two DH functions) is not supported')
    first, fallback = names_for(v, name)
    fields = {k: unhex(v[k], k) if v.get(k) is not None else None for k in KEYS}
    psks = {}
    for side in ('init_psks', 'resp_psks'):
        lst = v.get(side, [])
        if not isinstance(lst, list):
            raise Skip('%s is not a list' % side)
        psks[side] = [unhex(p, side) for p in lst]
        if any(len(p) != 32 for p in psks[side]):
            raise Skip('a PSK is not 32 bytes')
    msgs = v.get('messages')
    if not isinstance(msgs, list) or not msgs:
        raise Skip('no messages')
    mm = []
    for m in msgs:
        if not isinstance(m, dict) or 'payload' not in m or 'ciphertext' not in m:
            raise Skip('message without payload or ciphertext')
        mm.append((unhex(m['payload'], 'payload'), unhex(m['ciphertext'], 'ciphertext')))
    if v.get('fail') not in (None, False, True):
        raise Skip('unusable fail field')
    out.append('static const struct noise_vec_msg %s_m[] = {' % tag)
    for p, c in mm:
        out.append('\t{ %s,\n\t  %s },' % (bytes_lit(p), bytes_lit(c)))
    out.append('};')
    for side in ('init_psks', 'resp_psks'):
        if psks[side]:
            out.append('static const struct noise_vec_bytes %s_%s[] = {' % (tag, side))
            out.extend('\t%s,' % bytes_lit(p) for p in psks[side])
            out.append('};')
    ent = ['.name = %s' % cstr(first.encode()),
           '.fallback_name = %s' % (cstr(fallback.encode()) if fallback else 'NULL'),
           '.fail = %s' % ('true' if v.get('fail') else 'false'),
           '.msgs = %s_m' % tag, '.num_msgs = %d' % len(mm)]
    for k in KEYS:
        ent.append('.%s = %s' % (k, bytes_lit(fields[k])))
    for side in ('init_psks', 'resp_psks'):
        if psks[side]:
            ent.append('.%s = %s_%s, .num_%s = %d' % (side, tag, side, side, len(psks[side])))
    return ent


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('-o', required=True)
    ap.add_argument('--expect', action='append', default=[])
    ap.add_argument('files', nargs='*')
    a = ap.parse_args()
    files = list(dict.fromkeys(a.files))
    present = {os.path.basename(f) for f in files}
    entries, body, descs = [], [], set()

    def add(fname, desc, ent):
        desc = desc[:110]
        d, n = desc, 2
        while d in descs:
            d = '%s#%d' % (desc, n)
            n += 1
        descs.add(d)
        entries.append(['.file = %s' % cstr(fname.encode()),
                        '.desc = %s' % cstr(d.encode())] + ent)

    for e in a.expect:
        if e not in present:
            add(e, '%s:missing' % e, ['.skip = "vector file not found"'])
    for f in files:
        base = os.path.basename(f)
        try:
            with open(f, encoding='utf-8') as fh:
                data = json.load(fh)
            vecs = data['vectors'] if isinstance(data, dict) else data
            if not isinstance(vecs, list):
                raise ValueError('no vectors list')
        except (OSError, ValueError, KeyError) as err:
            add(base, '%s:unreadable' % base,
                ['.skip = %s' % cstr(('cannot read vector file: %s' % err)[:100].encode())])
            continue
        for i, v in enumerate(vecs):
            tag = 'v%d' % len(entries)
            name = v.get('protocol_name', v.get('name')) if isinstance(v, dict) else None
            desc = '%s:%s' % (base, name if isinstance(name, str) else '#%d' % i)
            try:
                ent = convert(v, i, body, tag)
            except Skip as s:
                ent = ['.skip = %s' % cstr(str(s).encode())]
                if isinstance(name, str):
                    ent.append('.name = %s' % cstr(name.encode()))
            add(base, desc, ent)

    with open(a.o, 'w') as o:
        o.write('// SPDX-License-Identifier: GPL-2.0\n/* Generated by gen_vectors.py: do not edit. */\n')
        o.write('#include "replay.h"\n\n')
        o.write('\n'.join(body) + '\n\n')
        o.write('const struct noise_vector noise_test_vectors[] = {\n')
        for ent in entries:
            o.write('\t{ ' + ',\n\t  '.join(ent) + ' },\n')
        if not entries:
            o.write('\t{ .file = "none", .desc = "no-vector-files", '
                    '.skip = "no vector files given" },\n')
        o.write('};\n\nconst unsigned int noise_test_vectors_count = ARRAY_SIZE(noise_test_vectors);\n')
    return 0


if __name__ == '__main__':
    sys.exit(main())

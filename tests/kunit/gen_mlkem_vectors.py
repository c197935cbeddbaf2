#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Convert ML-KEM known-answer files into a C table (mlkem_test_common.h).

Usage: gen_mlkem_vectors.py -o OUT.c [--readme README.md]
                            [--self-json OUT.json] FILE...

FILE formats, told apart by content:
- "key = hex" blocks separated by blank lines (the ML-KEM known-answer
  suite's unlucky-sample and strcmp files): a block with d, z, ek, dk, m, c
  and K gives a KeyGen, an Encaps and a Decaps vector; one with dk, c and K
  a Decaps vector;
- one hex encapsulation key per line, optionally gzip-compressed (its
  modulus files): keys that Encaps must refuse;
- Wycheproof ML-KEM JSON (testGroups of type MLKEMTest, MLKEMEncapsTest,
  MLKEMKeyGen, MLKEMDecapsValidationTest); ML-KEM-512 groups are counted
  as skipped (not implemented).
The parameter set of a text file comes from "ML-KEM-768"/"ML-KEM-1024" in
its name.

--readme takes the accumulated test's expected hashes (10 000 and
1 000 000 runs) from the suite's README. --self-json writes a small
Wycheproof-format file made from the text files' known answers (valid,
refused and tampered cases of all four group types) and reads it like any
other FILE, so the JSON path is tested even when no JSON file is given.
An encapsulation key that differs from the previous full one of the same
length in fewer than 64 bytes (the modulus files) is stored as a patch,
(offset low, offset high, byte) triples, to keep the table small.
"""
import argparse
import gzip
import json
import os
import re
import sys

PARAMS = {'ML-KEM-768': 3, 'ML-KEM-1024': 4}
KINDS = {'keygen': 'MLKEM_VEC_KEYGEN', 'encaps': 'MLKEM_VEC_ENCAPS',
         'decaps': 'MLKEM_VEC_DECAPS', 'keygen_decaps': 'MLKEM_VEC_KEYGEN_DECAPS'}
RESULTS = {'valid': 'MLKEM_VEC_VALID', 'invalid': 'MLKEM_VEC_INVALID',
           'acceptable': 'MLKEM_VEC_ACCEPTABLE'}


def read_text(path):
    opener = gzip.open if path.endswith('.gz') else open
    with opener(path, 'rt') as f:
        return f.read()


def param_of_name(path):
    for name, k in PARAMS.items():
        if name in os.path.basename(path):
            return name
    raise SystemExit('%s: no ML-KEM-768/ML-KEM-1024 in the file name' % path)


def vec(name, kind, param, result='valid', **fields):
    v = {'name': name, 'kind': kind, 'param': param, 'result': result}
    for key, value in fields.items():
        v[key] = bytes.fromhex(value) if isinstance(value, str) else value
    return v


def parse_blocks(path, text):
    """The key = value format; returns vectors."""
    param, out = param_of_name(path), []
    base = os.path.basename(path)
    blocks = [b for b in re.split(r'\n\s*\n', text) if b.strip()]
    for n, block in enumerate(blocks, 1):
        f = dict(re.match(r'\s*(\w+)\s*=\s*([0-9a-fA-F]*)\s*$', line).groups()
                 for line in block.strip().splitlines())
        name = '%s#%d' % (base, n)
        if 'd' in f:
            out.append(vec(name + ' KeyGen', 'keygen', param,
                           seed=f['d'] + f['z'], ek=f['ek'], dk=f['dk']))
            out.append(vec(name + ' Encaps', 'encaps', param,
                           ek=f['ek'], m=f['m'], c=f['c'], k=f['K']))
        out.append(vec(name + ' Decaps', 'decaps', param,
                       dk=f['dk'], c=f['c'], k=f['K']))
    return out


def parse_keys(path, text):
    """One encapsulation key per line: Encaps must refuse each."""
    param, base = param_of_name(path), os.path.basename(path)
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    return [vec('%s#%d' % (base, n), 'encaps', param, 'invalid', ek=l,
                m='00' * 32) for n, l in enumerate(lines, 1)]


GROUPS = {
    'MLKEMTest': ('keygen_decaps', ['seed', 'ek', 'c', 'K']),
    'MLKEMEncapsTest': ('encaps', ['ek', 'm', 'c', 'K']),
    'MLKEMKeyGen': ('keygen', ['seed', 'ek', 'dk']),
    'MLKEMDecapsValidationTest': ('decaps', ['dk', 'c', 'K']),
}


def parse_json(path, text):
    """Wycheproof ML-KEM: returns (vectors, skipped count)."""
    doc, out, skipped = json.loads(text), [], 0
    base = os.path.basename(path)
    for g in doc['testGroups']:
        if g.get('type') not in GROUPS:
            raise SystemExit('%s: unknown test group type %r' % (path, g.get('type')))
        kind, keys = GROUPS[g['type']]
        if g['parameterSet'] not in PARAMS:
            skipped += len(g['tests'])
            continue
        for t in g['tests']:
            fields = {('k' if key == 'K' else key): t[key] for key in keys if key in t}
            out.append(vec('%s tcId %d' % (base, t['tcId']), kind,
                           g['parameterSet'], t['result'], **fields))
    return out, skipped


def self_json(text_vectors):
    """A Wycheproof-format file from known answers: valid and bad cases."""
    groups, tc = {}, [0]

    def add(gtype, param, result, comment, flags=(), **fields):
        tc[0] += 1
        t = {'tcId': tc[0], 'comment': comment, 'flags': list(flags),
             'result': result}
        t.update({key: value.hex() for key, value in fields.items()})
        groups.setdefault((gtype, param), []).append(t)

    modulus = {}
    for v in text_vectors:
        p = v['param']
        if v['kind'] == 'keygen':
            add('MLKEMKeyGen', p, 'valid', 'KeyGen', seed=v['seed'], ek=v['ek'], dk=v['dk'])
            dk_bad = bytearray(v['dk'])
            dk_bad[-33] ^= 1		# H(ek) stored in dk
            keygen = v
        elif v['kind'] == 'encaps' and v['result'] == 'valid':
            add('MLKEMEncapsTest', p, 'valid', 'Encaps', ek=v['ek'], m=v['m'],
                c=v['c'], K=v['k'])
            add('MLKEMEncapsTest', p, 'invalid', 'short ek', ['IncorrectLength'],
                ek=v['ek'][:-1], m=v['m'], c=b'', K=b'')
            add('MLKEMTest', p, 'valid', 'KeyGen and Decaps', seed=keygen['seed'],
                ek=keygen['ek'], c=v['c'], K=v['k'])
            add('MLKEMTest', p, 'invalid', 'long ciphertext',
                ['IncorrectCiphertextLength'], seed=keygen['seed'], ek=keygen['ek'],
                c=v['c'] + b'\0', K=b'')
            add('MLKEMDecapsValidationTest', p, 'invalid', 'bad H(ek) in dk',
                ['InvalidDecapsulationKey'], dk=bytes(dk_bad), c=v['c'])
        elif v['kind'] == 'encaps' and modulus.setdefault(p, 0) < 3:
            modulus[p] += 1
            add('MLKEMEncapsTest', p, 'invalid', 'coefficient not below q',
                ['ModulusOverflow'], ek=v['ek'], m=v['m'], c=b'', K=b'')
        elif v['kind'] == 'decaps':
            add('MLKEMDecapsValidationTest', p, 'valid', 'Decaps', dk=v['dk'], c=v['c'])
            add('MLKEMDecapsValidationTest', p, 'invalid', 'short dk',
                ['IncorrectDecapsulationKeyLength'], dk=v['dk'][:-1], c=v['c'])
    return {'algorithm': 'ML-KEM', 'numberOfTests': tc[0],
            'schema': 'mlkem_test_schema.json',
            'testGroups': [{'type': t, 'source': {'name': 'known answers'},
                            'parameterSet': p, 'tests': tests}
                           for (t, p), tests in sorted(groups.items())]}


def accumulated(readme):
    """(parameter set, count, hash) from the README's two hash lists."""
    out, count = [], None
    for line in read_text(readme).splitlines():
        m = re.search(r'hashes for ([0-9 ]+) consecutive tests', line)
        if m:
            count = int(m.group(1).replace(' ', ''))
        m = re.match(r'\s*\*\s*(ML-KEM-\d+):\s*`([0-9a-f]{64})`', line)
        if m and count and m.group(1) in PARAMS:
            out.append((m.group(1), count, m.group(2)))
    return out


class Emitter:
    def __init__(self):
        self.blobs, self.lines = {}, []

    def blob(self, data):
        if not data:
            return '{ NULL, 0 }'
        if data not in self.blobs:
            name = 'mlkem_b%d' % len(self.blobs)
            self.blobs[data] = name
            # An initializer list: sparse refuses string literals
            # longer than 8191 bytes.
            self.lines.append('static const u8 %s[] = {' % name)
            for i in range(0, len(data), 32):
                self.lines.append('\t' + ','.join(str(b) for b in data[i:i + 32]) + ',')
            self.lines.append('};')
        return '{ %s, %d }' % (self.blobs[data], len(data))


def cname(s):
    return '"%s"' % s.replace('\\', '\\\\').replace('"', '\\"')


def emit_vec(e, v, last_ek):
    ek, base = v.get('ek', b''), b''
    prev = last_ek.get(len(ek))
    if ek and prev and prev != ek:
        diff = [i for i in range(len(ek)) if ek[i] != prev[i]]
        if len(diff) < 64:
            base = prev
            ek = b''.join(bytes([i & 0xff, i >> 8, ek[i]]) for i in diff)
    if 'ek' in v and not base:
        last_ek[len(ek)] = ek
    fields = ', '.join('.%s = %s' % (key, e.blob(ek if key == 'ek' else v.get(key, b'')))
                       for key in ('seed', 'ek', 'dk', 'm', 'c', 'k'))
    return ('\t{ .name = %s, .kind = %s, .param = %d, .result = %s, %s, '
            '.ek_base = %s },' %
            (cname(v['name']), KINDS[v['kind']], PARAMS[v['param']],
             RESULTS[v['result']], fields, e.blob(base)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('-o', required=True)
    ap.add_argument('--readme')
    ap.add_argument('--self-json')
    ap.add_argument('files', nargs='*')
    a = ap.parse_args()
    files, text_vecs = [], []
    for path in a.files:
        text = read_text(path)
        if text.lstrip().startswith('{'):
            files.append((path, *parse_json(path, text)))
        elif '=' in text:
            files.append((path, parse_blocks(path, text), 0))
            text_vecs += files[-1][1]
        else:
            files.append((path, parse_keys(path, text), 0))
            text_vecs += files[-1][1]
    if a.self_json:
        with open(a.self_json, 'w') as f:
            json.dump(self_json(text_vecs), f, indent=1)
        if text_vecs:
            with open(a.self_json) as f:
                files.append((a.self_json, *parse_json(a.self_json, f.read())))
    e, table, ftable, last_ek = Emitter(), [], [], {}
    for path, vecs, skipped in files:
        ftable.append('\t{ %s, %d, %d, %d },' % (cname(os.path.basename(path)),
                                                 len(table), len(vecs), skipped))
        if skipped:
            print('%s: %d ML-KEM-512 vectors skipped' % (path, skipped), file=sys.stderr)
        table += [emit_vec(e, v, last_ek) for v in vecs]
    acc = accumulated(a.readme) if a.readme and os.path.exists(a.readme) else []
    out = ['// SPDX-License-Identifier: GPL-2.0',
           '/* Generated by gen_mlkem_vectors.py: do not edit. */',
           '#include "mlkem_test_common.h"', ''] + e.lines + [
           '', 'const struct mlkem_vec mlkem_vecs[] = {'] + table + [
           '\t{ .name = NULL }', '};', '',
           'const struct mlkem_vec_file mlkem_vec_files[] = {'] + ftable + [
           '\t{ NULL, 0, 0, 0 }', '};',
           'const unsigned int mlkem_vec_file_count = %d;' % len(ftable), '',
           'const struct mlkem_acc_expect mlkem_acc_expects[] = {'] + [
           '\t{ %d, %d, { %s } },' % (PARAMS[p], n, ', '.join(
               '0x%02x' % b for b in bytes.fromhex(h))) for p, n, h in acc] + [
           '\t{ 0, 0, { 0 } }', '};',
           'const unsigned int mlkem_acc_expect_count = %d;' % len(acc), '']
    with open(a.o, 'w') as f:
        f.write('\n'.join(out))


if __name__ == '__main__':
    main()

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# Turn test output into `make check` result lines (PASS/FAIL/SKIP <name>).
#
#   results.py kunit --source KSRC --prefix NAME --results FILE [--after MARK]
#                    [--filtered] LOG
#   results.py tap --prefix NAME --results FILE (--exit RC|--kselftest) OUTPUT
#
# kunit: parses the KTAP in a kernel console LOG with the kernel's own parser
# (tools/testing/kunit/kunit_parser.py from KSRC), starting after the line
# containing MARK when given. Every test without subtests is one result, so
# each parameter of a parameterised test is one result; a suite or test that
# failed without a failing case below it (crash, missing cases, bad plan) is
# one more FAIL. No KTAP at all is a FAIL: silence never passes (with
# --filtered, when kunit.filter_glob was given, it is a SKIP: KUnit prints
# nothing for a module none of whose suites match).
#
# tap: parses kselftest-style TAP ("ok N name", "not ok N name",
# "# SKIP" directives, a "1..N" plan) from OUTPUT; lines that are not TAP are
# ignored. A missing plan, a plan that does not match the number of results,
# or a non-zero exit status without a failing test is one more FAIL. Exit
# status 4 (kselftest's skip) with no results is one SKIP. With --kselftest,
# OUTPUT is what tools/testing/selftests/run_kselftest.sh printed for one
# program: its KTAP nested under the runner's "ok N selftests: C: PROG"
# (whose "# exit=N" or "# TIMEOUT" gives the exit status; no such line
# fails). A SKIP without a reason takes the "# " line just before it.
#
# Exit status: 0 when nothing failed, 1 otherwise.

import argparse
import os
import re
import sys


def clean(name):
    return re.sub(r'\s+', ' ', name.replace('#', '_')).strip() or '?'


class Results:
    def __init__(self, path):
        self.path = path
        self.lines = []

    def add(self, verdict, name, reason=None):
        line = '%s %s' % (verdict, clean(name))
        if reason:
            line += ' # ' + ' '.join(reason.split())
        self.lines.append(line)

    def failed(self):
        return any(line.startswith('FAIL ') for line in self.lines)

    def write(self):
        with open(self.path, 'a') as f:
            for line in self.lines:
                f.write(line + '\n')


def kunit(args, res):
    sys.path.insert(0, os.path.join(args.source, 'tools', 'testing', 'kunit'))
    import kunit_parser
    from kunit_parser import TestStatus

    with open(args.log, 'r', errors='backslashreplace') as f:
        lines = f.read().splitlines()
    if args.after:
        for i, line in enumerate(lines):
            if args.after in line:
                lines = lines[i + 1:]
                break
        else:
            res.add('FAIL', args.prefix, 'start marker not in console log')
            return
    # The parser drops the reason of a "# SKIP reason" directive: keep it.
    skip_re = re.compile(r'^\s*ok [0-9]+ (?:- )?(.*?) # SKIP ?(.*)$')
    skip_reason = {}
    for line in lines:
        m = skip_re.search(line.split('] ', 1)[-1])
        if m:
            skip_reason.setdefault(m.group(1).strip(), m.group(2).strip())
    top = kunit_parser.parse_run_tests(lines)

    def walk(test, path):
        """Records results below test; returns True if one was a FAIL."""
        failed = False
        for i, sub in enumerate(test.subtests, 1):
            name = '%s/%s' % (path, sub.name or '(test %d, no result)' % i)
            if sub.subtests:
                if walk(sub, name):
                    failed = True
                elif sub.status not in (TestStatus.SUCCESS,
                                        TestStatus.SKIPPED):
                    res.add('FAIL', name, sub.status.name.lower())
                    failed = True
            elif sub.status == TestStatus.SUCCESS:
                res.add('PASS', name)
            elif sub.status == TestStatus.SKIPPED:
                res.add('SKIP', name,
                        skip_reason.get(sub.name.strip()) or 'skipped')
            else:
                res.add('FAIL', name, sub.status.name.lower())
                failed = True
        return failed

    if top.status == TestStatus.FAILURE_TO_PARSE_TESTS or (
            not top.subtests and top.status != TestStatus.NO_TESTS):
        if args.filtered:
            res.add('SKIP', args.prefix, 'no suite matches the filter')
        else:
            res.add('FAIL', args.prefix, 'no KTAP output from the module')
        return
    if top.status == TestStatus.NO_TESTS and not top.subtests:
        res.add('SKIP', args.prefix, 'the module ran no tests')
        return
    if not walk(top, args.prefix) and top.status not in (
            TestStatus.SUCCESS, TestStatus.SKIPPED):
        res.add('FAIL', args.prefix, top.status.name.lower())


TAP_RESULT = re.compile(r'^(not ok|ok)\b\s*(\d+)?\s*(?:-\s*)?([^#]*)(?:#\s*(.*))?$')
TAP_PLAN = re.compile(r'^1\.\.(\d+)\s*(?:#\s*(.*))?$')
# kselftest/runner.sh's own result line for a whole test program.
KSFT_RESULT = re.compile(r'^(not ok|ok) \d+ selftests: \S+: (\S+)\s*(?:#\s*(.*))?$')


def unwrap_kselftest(lines, res, prefix):
    """run_kselftest.sh output: the program's own KTAP is nested ("# "
    prefix) under the runner's "ok N selftests: COLLECTION: PROGRAM".
    Returns the nested lines and the program's exit status as the runner
    saw it (None when the runner printed no result)."""
    inner, rc = [], None
    for line in lines:
        m = KSFT_RESULT.match(line)
        if m:
            verdict, _, directive = m.groups()
            directive = (directive or '').strip()
            if verdict == 'ok':
                rc = 4 if directive.upper().startswith('SKIP') else 0
            elif directive.upper().startswith('TIMEOUT'):
                res.add('FAIL', prefix, 'timed out (%s)' % directive)
                rc = 124
            else:
                m2 = re.search(r'exit=(\d+)', directive)
                rc = int(m2.group(1)) if m2 else 1
        elif line.startswith('# '):
            inner.append(line[2:])
        elif line == '#':
            inner.append('')
    if rc is None:
        res.add('FAIL', prefix, 'no result line from the kselftest runner')
    return inner, rc


# fail_reason(DIAGS): what a failing case printed that says why (st_eq and
# st_ge lines, else the last line before st_run's "exit status"), so that
# the summary of a long run names the cause.
def fail_reason(diags):
    why = [d for d in diags if "got '" in d or 'want' in d][:3]
    if not why:
        rest = [d for d in diags if d and not d.startswith('exit status ')]
        why = rest[-1:]
    return ' | '.join(w[:200] for w in why)


def tap(args, res):
    plan = None
    ran = 0
    last_diag = None
    diags = []
    with open(args.output, 'r', errors='backslashreplace') as f:
        lines = [line.rstrip('\n') for line in f]
    rc = args.exit
    if args.kselftest:
        lines, rc = unwrap_kselftest(lines, res, args.prefix)
        if rc is None:
            rc = 1
    for line in lines:
        m = TAP_PLAN.match(line)
        if m:
            if plan is None:
                plan = int(m.group(1))
            continue
        m = TAP_RESULT.match(line)
        if not m:
            if line.startswith('#'):
                last_diag = line.lstrip('# ').strip() or last_diag
                diags.append(line.lstrip('# ').strip())
            continue
        ran += 1
        verdict, num, desc, directive = m.groups()
        name = '%s/%s' % (args.prefix, desc.strip() or num or ran)
        directive = (directive or '').strip()
        if directive.upper().startswith('SKIP'):
            # ktap_test_skip prints no reason: st_skip prints it just before.
            res.add('SKIP', name, directive[4:].strip() or last_diag or 'skipped')
        elif verdict == 'ok':
            res.add('PASS', name)
        else:
            res.add('FAIL', name, directive or fail_reason(diags))
        last_diag = None
        diags = []
    if plan is None:
        if ran == 0 and rc == 4:
            res.add('SKIP', args.prefix, 'skipped (exit status 4)')
            return
        res.add('FAIL', args.prefix, 'no TAP plan line (1..N)')
    elif plan != ran:
        res.add('FAIL', args.prefix, 'planned %d tests, ran %d' % (plan, ran))
    if rc not in (0, 4) and not res.failed():
        res.add('FAIL', args.prefix, 'exit status %d' % rc)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    sub = ap.add_subparsers(dest='cmd', required=True)
    k = sub.add_parser('kunit')
    k.add_argument('--source', required=True)
    k.add_argument('--prefix', required=True)
    k.add_argument('--results', required=True)
    k.add_argument('--after')
    k.add_argument('--filtered', action='store_true',
                   help='a filter glob is active: no KTAP is a SKIP')
    k.add_argument('log')
    t = sub.add_parser('tap')
    t.add_argument('--prefix', required=True)
    t.add_argument('--results', required=True)
    t.add_argument('--exit', type=int, default=0)
    t.add_argument('--kselftest', action='store_true',
                   help='OUTPUT is run_kselftest.sh output for one program: '
                   'its nested KTAP is parsed, its exit status taken from '
                   'the runner (--exit is ignored)')
    t.add_argument('output')
    args = ap.parse_args()

    res = Results(args.results)
    try:
        if args.cmd == 'kunit':
            kunit(args, res)
        else:
            tap(args, res)
    except Exception as e:  # a parser crash must not pass silently
        res.add('FAIL', args.prefix, 'result parser error: %s' % e)
    res.write()
    for line in res.lines:
        print(line)
    return 1 if res.failed() else 0


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/env python3
"""The floors of src/ (src/README.md), checked: python3 mk/check-floors.py [BUILD]

Fails (exit 1, one line per fault) when
  - a file includes a file of a floor above its own, or of a floor it may not use;
  - a library file includes the umbrella expmech.h (front ends only; src/api/em_version.c,
    which defines the function expmech.h itself declares, is the one exception);
  - two units depend on each other through includes (a unit is X.c with X.h), or, given
    BUILD (a build directory with the library's objects), through calls (nm).
"""
import collections
import os
import re
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
SRC = os.path.join(ROOT, 'src')

# floor: (folders, the floors it may include besides its own)
FLOORS = collections.OrderedDict([
    ('base',   (['include/em_base.h', 'base', 'trusted', 'core'], [])),
    ('num',    (['num'], ['base'])),
    ('io',     (['io'], ['num', 'base'])),
    ('oracle', (['oracle'], ['num', 'base'])),
    ('judge',  (['judge'], ['oracle', 'num', 'base'])),
    ('public', (['include'], ['base'])),
    ('api',    (['api'], ['public', 'judge', 'oracle', 'io', 'num', 'base'])),
    ('front',  (['cli'], ['api', 'public', 'judge', 'oracle', 'io', 'num', 'base'])),
])
UMBRELLA = 'include/expmech.h'
UMBRELLA_OK = {'api/em_version.c'}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def floor_of(path):
    best = None
    for name, (dirs, _) in FLOORS.items():
        for d in dirs:
            if (path == d or path.startswith(d + '/')) and (best is None or len(d) > best[1]):
                best = (name, len(d))
    return best[0] if best else None


def sources():
    out = []
    for d, _, fs in os.walk(SRC):
        for f in fs:
            if f.endswith(('.c', '.h')):
                out.append(os.path.relpath(os.path.join(d, f), SRC))
    return sorted(out)


def resolve(frm, name, known):
    for cand in (name, 'include/' + name, os.path.normpath(os.path.join(os.path.dirname(frm), name))):
        if cand in known:
            return cand
    return None  # outside src/ (spec/, proofs/, tests/) or a system header


def unit(path):
    return re.sub(r'\.[ch]$', '', path)


def cycles(graph):
    """Strongly connected components of more than one node (Tarjan, iterative)."""
    index, low, on, stack, out, counter = {}, {}, set(), [], [], [0]
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter[0]; counter[0] += 1
        stack.append(root); on.add(root)
        while work:
            v, it = work[-1]
            advanced = False
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter[0]; counter[0] += 1
                    stack.append(w); on.add(w)
                    work.append((w, iter(sorted(graph.get(w, ())))))
                    advanced = True
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop(); on.discard(w); comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return out


def main():
    faults = []
    files = sources()
    known = set(files)
    graph = collections.defaultdict(set)
    for f in files:
        fl = floor_of(f)
        if fl is None:
            faults.append('%s: in no floor (add its folder to mk/check-floors.py and src/README.md)' % f)
            continue
        allowed = {fl} | set(FLOORS[fl][1])
        text = open(os.path.join(SRC, f), errors='replace').read()
        for name in INCLUDE.findall(text):
            tgt = resolve(f, name, known)
            if tgt is None:
                continue
            if tgt == UMBRELLA:
                if fl not in ('front', 'public') and f not in UMBRELLA_OK:
                    faults.append('%s: includes the umbrella expmech.h (include what you use)' % f)
                continue
            tf = floor_of(tgt)
            if tf not in allowed:
                faults.append('%s (%s) includes %s (%s): not a floor %s may use'
                              % (f, fl, tgt, tf, fl))
            if unit(tgt) != unit(f):
                graph[unit(f)].add(unit(tgt))
    for comp in cycles(graph):
        faults.append('include cycle: %s' % ' <-> '.join(comp))
    if len(sys.argv) > 1:
        faults += call_cycles(sys.argv[1])
    for x in faults:
        print('check-floors: ' + x)
    if faults:
        return 1
    print('check-floors: %d files in %d floors, no upward include, no cycle%s'
          % (len(files), len(FLOORS), ' (includes and calls)' if len(sys.argv) > 1 else ''))
    return 0


def call_cycles(build):
    """Units that call each other, from the symbols of the library's objects."""
    objs = []
    for d, _, fs in os.walk(os.path.join(build, 'src')):
        for f in fs:
            if f.endswith('.o'):
                rel = os.path.relpath(os.path.join(d, f), os.path.join(build, 'src'))
                if (os.path.exists(os.path.join(SRC, rel[:-2] + '.c'))
                        and floor_of(rel[:-2] + '.c') not in (None, 'front')):
                    objs.append(rel)
    if not objs:
        return ['no objects under %s/src: build the library first' % build]
    defined, undefined = {}, collections.defaultdict(set)
    for o in objs:
        nm = subprocess.run(['nm', os.path.join(build, 'src', o)], capture_output=True,
                            text=True, check=True).stdout
        for line in nm.splitlines():
            p = line.split()
            if len(p) == 3 and p[1] in 'TDBRW':
                defined[p[2]] = unit(o[:-2] + '.c')
            elif len(p) == 2 and p[0] == 'U':
                undefined[unit(o[:-2] + '.c')].add(p[1])
    graph = collections.defaultdict(set)
    for u, syms in undefined.items():
        for s in syms:
            if s in defined and defined[s] != u:
                graph[u].add(defined[s])
    return ['call cycle: %s' % ' <-> '.join(c) for c in cycles(graph)]


if __name__ == '__main__':
    sys.exit(main())

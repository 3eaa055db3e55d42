#!/usr/bin/env python3
"""Reject float literals such as 1e6 (no '.' before the exponent) in files read
by Frama-C 25, which parses them in ACSL as 1.6 and then 'proves' false
contracts.  Hex literals (0x1e5) and 1.0e6 are accepted."""
import re
import sys

BAD = re.compile(r'(?<![\w.])\d+[eE][-+]?\d+')
bad = 0
for path in sys.argv[1:]:
    with open(path, encoding='utf-8') as f:
        for lineno, line in enumerate(f, 1):
            for m in BAD.finditer(line):
                print(f"{path}:{lineno}: ambiguous literal '{m.group(0)}': write it with a '.' (e.g. 1.0e6)")
                bad += 1
sys.exit(1 if bad else 0)

#!/usr/bin/env python3
"""Runs the default `gmc check --json` on the configurations of suite.json
(all, or those named in a JSON list file) and prints one JSON row per
configuration: verdict, bound, search time and states, wall time.

Usage (from the repository root):
  benchmarks/suite_check.py GMC TIME_LIMIT OUT.json [NAMES.json]
  env FLAGS: more flags of gmc check (e.g. "--parallel 2")
Two builds at the same load: alternate runs of each (session 12's
portfolio share, benchmarks/RESULTS.md)."""
import json
import os
import subprocess
import sys
import time

gmc, limit, out = sys.argv[1], sys.argv[2], sys.argv[3]
names = set(json.load(open(sys.argv[4]))) if len(sys.argv) > 4 else None
rows = []
for c in json.load(open('benchmarks/suite.json')):
    if names is not None and c['name'] not in names:
        continue
    cmd = [gmc, 'check', '--json', '--time-limit', limit] + os.environ.get('FLAGS', '').split()
    if c['entry'] != 'main':
        cmd += ['--entry', c['entry']]
    cmd.append(c['pkg'])
    if c.get('args'):
        cmd += ['--'] + c['args']
    t0 = time.time()
    p = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.time() - t0
    try:
        d = json.loads(p.stdout)
        r = d['results'][0] if 'results' in d else d
        st = r.get('stats', {})
        row = dict(name=c['name'], expect=c['expect'], verdict=r.get('verdict'), bound=r.get('bound'),
                   time=st.get('time_s'), states=st.get('states'), wall=wall)
    except (ValueError, KeyError, IndexError):
        row = dict(name=c['name'], expect=c['expect'], verdict='ERR', err=p.stderr[-300:], wall=wall)
    rows.append(row)
    print(json.dumps(row), flush=True)
json.dump(rows, open(out, 'w'))

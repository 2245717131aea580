#!/bin/bash
# usage: s12-measure.sh ROUNDS BIN... ; measures CPU of gmc binaries and go test alternately
R=$1; shift
cd ${DIR:-/tmp/prep/golang.org_x_sync_v0.24.0/errgroup}
for b in "$@"; do $b check --strategy exhaustive --entry 'TestZeroGroup$' . >/dev/null 2>&1; done
go test -race -count=1 -run '^TestZeroGroup$' . >/dev/null
for r in $(seq $R); do
  for b in "$@"; do
    /usr/bin/time -f "$(basename $b) %e s wall %U u %S s %M KB" $b check --strategy exhaustive --entry 'TestZeroGroup$' . 2>&1 >/dev/null | tail -1
  done
  /usr/bin/time -f "gotest %e s wall %U u %S s %M KB" go test -race -count=1 -run '^TestZeroGroup$' . 2>&1 >/dev/null | tail -1
  echo "load $(cut -d' ' -f1-3 /proc/loadavg)"
done

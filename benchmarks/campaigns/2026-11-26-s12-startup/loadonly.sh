#!/bin/bash
# load-only CPU (an --entry that matches nothing: gmc loads, lists the entries, exits 2)
R=$1; shift
for r in $(seq $R); do
  for d in /tmp/prep/golang.org_x_sync_v0.24.0/errgroup /tmp/realmods-tmp2/gmc-realmods/github.com_stretchr_testify_v1.10.0/assert; do
    cd $d
    for b in "$@"; do
      /usr/bin/time -f "$(basename $(dirname $d))/$(basename $d) $(basename $b) %e s wall %U u %S s %M KB" $b check --entry 'NoSuchTest$' . 2>&1 >/dev/null | tail -1
    done
  done
  echo "load $(cut -d' ' -f1-3 /proc/loadavg)"
done

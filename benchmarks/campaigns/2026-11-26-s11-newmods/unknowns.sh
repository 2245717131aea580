#!/bin/sh
# unknowns.sh INDEX OUTDIR LIMIT: re-check the unknown entries of each package of a realmods index with a longer limit
IDX=$1; OUT=$2; LIMIT=$3
mkdir -p $OUT
while read mod rel json; do
  ents=$(python3 -c "
import json,sys
try: r=json.load(open('$json'))
except Exception: sys.exit()
res=r.get('results') or [dict(r, entry=(r.get('trace') or {}).get('entry',''))]
u=[x['entry'] for x in res if x.get('verdict')=='unknown' and not x.get('problem') and x.get('entry')]
print('|'.join(u))")
  [ -n "$ents" ] || continue
  name=$(basename $json)
  base=$(dirname $(dirname $json))
  d=$(ls -d /tmp/newmods-tmp/gmc-realmods/$(echo "$mod" | tr '/@' '__') /tmp/newmods-tmp2/gmc-realmods/$(echo "$mod" | tr '/@' '__') 2>/dev/null | head -1)
  (cd $d/$rel && GOPROXY=off GOSUMDB=off GOFLAGS=-mod=mod /usr/bin/time -f '%U user %e wall' /tmp/newmods-tmp/gmc-run2 check --json --time-limit $LIMIT --entry "^($ents)\$" . > $OUT/$name 2>$OUT/$name.err)
  echo "$mod $rel $OUT/$name" >> $OUT/index
done < $IDX

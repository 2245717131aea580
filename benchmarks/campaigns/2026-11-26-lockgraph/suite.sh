#!/bin/bash
# usage: suite.sh /abs/path/to/gmc TIMELIMIT — every deadlock configuration of suite.json, --monitor none and lockgraph
BIN=$1; TL=${2:-60s}
cd "$(dirname "$0")/../../.."
python3 -c "
import json
for c in json.load(open('benchmarks/suite.json')):
    if c.get('expect')=='deadlock':
        print(c['name'], c['pkg'], c.get('entry','main'), ' '.join(c.get('args',[])))
" | while read name pkg entry args; do
  for mon in none lockgraph; do
    out=${OUT:-/tmp}/$name.$mon.json
    if [ "$args" != "" ]; then
      $BIN check --json --monitor $mon --time-limit $TL --entry $entry $pkg -- $args > $out 2>/dev/null
    else
      $BIN check --json --monitor $mon --time-limit $TL --entry $entry $pkg > $out 2>/dev/null
    fi
    python3 - "$name" "$mon" "$out" <<'PY'
import json,sys
name,mon,out=sys.argv[1:]
try: d=json.load(open(out))
except Exception as e: print(name,mon,'BAD',e); sys.exit()
e=d.get('error') or {}
m=d.get('monitor') or {}
pf=e.get('predicted_from')
print(f"{name:18} {mon:9} {d['verdict']:8} {e.get('kind','-'):9} states={int(d['stats']['states'])} time={d['stats']['time_s']:.2f} preds={m.get('predictions','-')} first={m.get('first_prediction_states','-')} predicted_from={'yes@%d'%pf['states'] if pf else 'no'}")
PY
  done
done

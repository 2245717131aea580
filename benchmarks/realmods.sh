#!/bin/sh
# realmods.sh: run the default `gmc check` on every test of real, popular
# concurrency modules taken from the local module cache (offline: the module cache is the only proxy)
# and print one table row per package: tests, errors, no-error, skip (the
# test skipped in every execution), unknown, not checked, and the distinct reasons of the entries not checked. Every test of
# these modules passes under `go test -race`, so every error row is a false
# alarm to investigate (or a bug the module's own CI does not see).
#
# Usage: benchmarks/realmods.sh [GMC] [TIME_LIMIT] [MODULE-REGEXP]
# Env: OUT (directory for the raw JSON; default a temporary directory);
# SET=extra runs a second set of modules instead (fetched in session 6 to
# look for false alarms on code gmc had never seen), SET=new a third
# (session 7), SET=s8 a fourth (session 8), SET=s9 a fifth (session 9),
# SET=s10 a sixth (session 10), SET=lead10 the lead's session-10 modules,
# SET=s11 a seventh (session 11), SET=s12 an eighth (session 12), SET=s13 a
# ninth (session 13), SET=all
# every set. Modules
# without a go.mod, or whose go.mod misses a requirement, are resolved
# from the module cache only (GOPROXY=file://.../cache/download).
# A module missing from the module cache is skipped with a message; FETCH=1
# fetches the missing ones first (`go mod download -json MOD@VERSION` in a
# scratch module, then `go test -run NONE ./...` in a copy so that its test
# dependencies are cached too); FETCH=only stops after fetching.
set -u
GMC=${1:-$(pwd)/bin/gmc}
LIMIT=${2:-3s}
ONLY=${3:-.}
MOD=$(go env GOMODCACHE)
OUT=${OUT:-$(mktemp -d)}
WORK=${TMPDIR:-/tmp}/gmc-realmods
mkdir -p "$WORK" "$OUT"
BASE="golang.org/x/sync@v0.24.0
	github.com/patrickmn/go-cache@v2.1.0+incompatible \
	github.com/sourcegraph/conc@v0.3.0 \
	github.com/alitto/pond@v1.9.2 \
	github.com/panjf2000/ants/v2@v2.10.0 \
	github.com/jonboulle/clockwork@v0.4.0 \
	github.com/hashicorp/golang-lru/v2@v2.0.7 \
	github.com/jellydator/ttlcache/v3@v3.3.0 \
	go.uber.org/atomic@v1.11.0 \
	github.com/orcaman/concurrent-map/v2@v2.0.1 \
	github.com/gammazero/workerpool@v1.1.3 \
	golang.org/x/time@v0.7.0 \
	github.com/eapache/go-resiliency@v1.7.0 \
	github.com/avast/retry-go/v4@v4.6.0"
EXTRA="github.com/!workiva/go-datastructures@v1.1.5 \
	github.com/allegro/bigcache/v3@v3.1.0 \
	github.com/teivah/broadcast@v0.1.0 \
	github.com/reugn/async@v0.9.0 \
	go.uber.org/ratelimit@v0.3.1 \
	github.com/gammazero/deque@v0.2.1 \
	github.com/!jeffail/tunny@v0.1.4 \
	github.com/eapache/channels@v1.1.0 \
	github.com/cenkalti/backoff/v4@v4.3.0 \
	github.com/golang/groupcache@v0.0.0-20210331224755-41bb18bfe9da \
	github.com/bep/debounce@v1.2.1 \
	github.com/marusama/semaphore/v2@v2.5.0 \
	github.com/asaskevich/!event!bus@v0.0.0-20200907212545-49d423059eef \
	github.com/carlmjohnson/flowmatic@v0.23.4 \
	github.com/karlseguin/ccache/v3@v3.0.5 \
	github.com/bluele/gcache@v0.0.2 \
	github.com/robfig/cron/v3@v3.0.1 \
	github.com/vardius/message-bus@v1.1.5"
NEW="github.com/puzpuzpuz/xsync/v3@v3.5.1 \
	github.com/sony/gobreaker@v1.0.0 \
	github.com/afex/hystrix-go@v0.0.0-20180502004556-fa1af6a1f4f5 \
	github.com/juju/ratelimit@v1.0.2 \
	github.com/smallnest/chanx@v1.2.0 \
	github.com/enriquebris/goconcurrentqueue@v0.7.0 \
	github.com/sethvargo/go-retry@v0.3.0 \
	github.com/rcrowley/go-metrics@v0.0.0-20250401214520-65e299d6c5c9 \
	github.com/cornelk/hashmap@v1.0.8 \
	github.com/coocood/freecache@v1.2.4 \
	go.uber.org/goleak@v1.3.0 \
	github.com/sasha-s/go-deadlock@v0.3.5 \
	github.com/!code-!hex/go-generics-cache@v1.5.1 \
	github.com/lestrrat-go/backoff/v2@v2.0.8 \
	github.com/jackc/puddle/v2@v2.2.2 \
	github.com/benbjohnson/clock@v1.3.5 \
	github.com/fatih/semgroup@v1.3.0 \
	github.com/neilotoole/errgroup@v0.1.6 \
	github.com/alphadose/haxmap@v1.4.1 \
	github.com/go-co-op/gocron/v2@v2.16.1 \
	github.com/golang-queue/queue@v0.3.0 \
	github.com/jpillora/backoff@v1.0.0"
S8="github.com/thejerf/suture/v4@v4.0.6 \
	github.com/oklog/run@v1.2.0 \
	github.com/cskr/pubsub@v1.0.2 \
	github.com/dustin/go-broadcast@v0.0.0-20171205050544-f664265f5a66 \
	github.com/muesli/cache2go@v0.0.0-20221011235721-518229cd8021 \
	github.com/viccon/sturdyc@v1.1.5 \
	github.com/alitto/pond/v2@v2.7.1 \
	github.com/gammazero/chanqueue@v1.1.3 \
	github.com/sethvargo/go-limiter@v0.7.1 \
	github.com/!rene!kroon/ttlcache/v2@v2.11.0 \
	github.com/reugn/go-quartz@v0.15.2 \
	github.com/hashicorp/golang-lru@v1.0.2 \
	github.com/cenkalti/backoff/v5@v5.0.3"
S9="github.com/failsafe-go/failsafe-go@v0.9.8 \
	go.uber.org/multierr@v1.11.0 \
	github.com/valyala/bytebufferpool@v1.0.0 \
	github.com/oklog/ulid/v2@v2.1.2 \
	github.com/rs/xid@v1.6.0 \
	github.com/puzpuzpuz/xsync/v4@v4.5.0 \
	github.com/hashicorp/go-multierror@v1.1.1 \
	go.uber.org/zap@v1.28.0 \
	github.com/rs/zerolog@v1.35.1 \
	github.com/google/uuid@v1.6.0 \
	github.com/hashicorp/go-immutable-radix@v1.3.1 \
	github.com/google/btree@v1.1.3"
S10="github.com/deckarep/golang-set/v2@v2.9.0 \
	github.com/hashicorp/go-memdb@v1.3.5 \
	github.com/sirupsen/logrus@v1.9.3 \
	github.com/stretchr/testify@v1.10.0 \
	github.com/hashicorp/go-hclog@v1.6.3 \
	github.com/reactivex/rxgo/v2@v2.5.0"
S11="github.com/pkg/errors@v0.9.1 \
	github.com/shopspring/decimal@v1.4.0 \
	github.com/!masterminds/semver/v3@v3.3.1 \
	github.com/mitchellh/mapstructure@v1.5.0 \
	github.com/looplab/fsm@v1.0.2 \
	github.com/tidwall/buntdb@v1.3.2 \
	github.com/!burnt!sushi/toml@v1.4.0 \
	github.com/eapache/queue@v1.1.0 \
	github.com/cespare/xxhash/v2@v2.3.0 \
	gopkg.in/yaml.v3@v3.0.1 \
	github.com/spf13/cast@v1.7.1"
S12="github.com/creachadair/taskgroup@v0.14.5 \
	github.com/lithammer/shortuuid/v4@v4.3.0 \
	github.com/go-playground/validator/v10@v10.30.6 \
	github.com/bits-and-blooms/bitset@v1.29.0 \
	github.com/emirpasic/gods@v1.18.1 \
	github.com/tidwall/btree@v1.8.2 \
	github.com/smallnest/ringbuffer@v0.2.1 \
	github.com/maypok86/otter/v2@v2.4.0 \
	github.com/vmihailenco/msgpack/v5@v5.4.1"
S13="go.uber.org/dig@v1.19.0 \
	go.uber.org/mock@v0.6.0 \
	gopkg.in/tomb.v2@v2.0.0-20161208151619-d5d1b5820637 \
	github.com/go-kit/log@v0.2.1 \
	github.com/go-logr/logr@v1.4.4 \
	github.com/hashicorp/yamux@v0.1.2 \
	k8s.io/utils@v0.0.0-20261023123148-ca04ba58ecab"
LEAD10="github.com/golang-jwt/jwt/v5@v5.2.1 \
	github.com/google/go-cmp@v0.6.0 \
	github.com/spf13/afero@v1.11.0 \
	github.com/tidwall/gjson@v1.18.0 \
	github.com/dgraph-io/ristretto@v0.2.0"
case "${SET:-base}" in
new) LIST=$NEW ;;
s8) LIST=$S8 ;;
s9) LIST=$S9 ;;
s10) LIST=$S10 ;;
s11) LIST=$S11 ;;
s12) LIST=$S12 ;;
s13) LIST=$S13 ;;
lead10) LIST=$LEAD10 ;;
extra) LIST=$EXTRA ;;
all) LIST="$BASE $EXTRA $NEW $S8 $S9 $S10 $LEAD10 $S11 $S12 $S13" ;;
*) LIST=$BASE ;;
esac
CACHEPROXY="file://$MOD/cache/download"
if [ -n "${FETCH:-}" ]; then
	# FETCH=1: fill the module cache from the network first (a fresh
	# machine): each module, then its test dependencies (go test -run NONE
	# in a copy), so that the runs below stay offline.
	for m in $LIST; do
		echo "$m" | grep -Eq "$ONLY" || continue
		[ -d "$MOD/$m" ] && continue
		scratch=$(mktemp -d)
		path=$(echo "${m%@*}" | sed 's/!\([a-z]\)/\U\1/g')
		ver=${m#*@}
		(cd "$scratch" && go mod init gmc-fetch >/dev/null 2>&1 &&
			go mod download -json "$path@$ver" >/dev/null) || echo "fetch $m failed" >&2
		if [ -d "$MOD/$m" ]; then
			cp -r "$MOD/$m" "$scratch/copy" && chmod -R u+w "$scratch/copy"
			[ -f "$scratch/copy/go.mod" ] || printf 'module %s\n\ngo 1.18\n' "$path" >"$scratch/copy/go.mod"
			(cd "$scratch/copy" && GOFLAGS=-mod=mod go test -count=1 -run NONE ./... >/dev/null 2>&1) || true
		fi
		rm -rf "$scratch"
	done
	[ "$FETCH" = only ] && exit 0
fi
for m in $LIST; do
	echo "$m" | grep -Eq "$ONLY" || continue
	if [ ! -d "$MOD/$m" ]; then
		echo "skip $m: not in the module cache"
		continue
	fi
	d="$WORK/$(echo "$m" | tr '/@' '__')"
	rm -rf "$d"
	cp -r "$MOD/$m" "$d"
	chmod -R u+w "$d"
	[ -f "$d/go.mod" ] || printf 'module %s\n\ngo 1.18\n' "${m%@*}" >"$d/go.mod"
	pkgs=$(cd "$d" && GOPROXY=$CACHEPROXY GOSUMDB=off GOFLAGS=-mod=mod go list -f '{{if or .TestGoFiles .XTestGoFiles}}{{.Dir}}{{end}}' ./... 2>/dev/null)
	for p in $pkgs; do
		rel=${p#"$d"}
		name="$(echo "$m" | tr '/@' '__')$(echo "$rel" | tr '/' '_')"
		(cd "$p" && GOPROXY=$CACHEPROXY GOSUMDB=off GOFLAGS=-mod=mod "$GMC" check --json --time-limit "$LIMIT" . \
			>"$OUT/$name.json" 2>"$OUT/$name.err")
		echo "$m .$rel $OUT/$name.json" >>"$OUT/index"
	done
done
[ -f "$OUT/index" ] || exit 0
python3 - "$OUT/index" <<'PY'
import json, sys, collections
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
print("%-42s %-14s %5s %5s %8s %5s %7s %7s" % ("MODULE", "PACKAGE", "TESTS", "ERROR", "NO-ERROR", "SKIP", "UNKNOWN", "NOT-CHK"))
tot = collections.Counter()
reasons = collections.Counter()
errors = []
for mod, pkg, path in rows:
    try:
        rep = json.load(open(path))
    except Exception:
        err = open(path[:-5] + ".err").read().strip().splitlines()
        if err and "has no main function and no tests" in err[-1]:
            continue  # benchmarks or examples only
        if err and err[-1].startswith("unsupported: "):
            # a package with one test reports a stop without JSON (exit 2)
            tot.update(tests=1, notchk=1)
            reasons[err[-1].split(" at ")[0]] += 1
            print("%-42s %-14s %5d %5d %8d %5d %7d %7d" % (mod, pkg, 1, 0, 0, 0, 0, 1))
            continue
        print("%-42s %-14s load failed: %s" % (mod, pkg, err[-1] if err else "?"))
        tot["loadfail"] += 1
        continue
    c = collections.Counter()
    results = rep.get("results")
    if results is None:  # a package with one test reports it at the top level
        results = [dict(rep, entry=(rep.get("trace") or {}).get("entry", "(the only test)"))]
    for r in results:
        c["tests"] += 1
        if r.get("problem"):
            c["notchk"] += 1
            why = r["problem"].split(" at ")[0]
            reasons[why] += 1
        elif r["verdict"] == "error":
            c["error"] += 1
            errors.append("%s %s %s: %s" % (mod, pkg, r["entry"], (r.get("error") or {}).get("kind", "?")))
        elif r["verdict"] == "no-error":
            c["noerr"] += 1
        elif r["verdict"] == "skip":
            c["skip"] += 1
        else:
            c["unknown"] += 1
    tot.update(c)
    print("%-42s %-14s %5d %5d %8d %5d %7d %7d" % (mod, pkg, c["tests"], c["error"], c["noerr"], c["skip"], c["unknown"], c["notchk"]))
print("%-42s %-14s %5d %5d %8d %5d %7d %7d" % ("total", "", tot["tests"], tot["error"], tot["noerr"], tot["skip"], tot["unknown"], tot["notchk"]))
if tot["tests"]:
    print("checked: %.1f %%" % (100.0 * (tot["tests"] - tot["notchk"]) / tot["tests"]))
if tot["loadfail"]:
    print("packages that did not load: %d" % tot["loadfail"])
for e in errors:
    print("error:", e)
for why, n in reasons.most_common():
    print("not checked %3d: %s" % (n, why))
PY

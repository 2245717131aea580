#!/bin/sh
# stdlib_probe.sh: which standard-library uses run inside gmc's VM. Checks
# each test of benchmarks/testdata/stdlibprobe (every one passes under
# `go test`) exhaustively and prints one line per test: its name and gmc's
# last line (no error / unsupported: <call> at file:line).
# Usage: benchmarks/stdlib_probe.sh [GMC]
GMC=$(cd "$(dirname "${1:-bin/gmc}")" && pwd)/$(basename "${1:-bin/gmc}")
DIR=$(cd "$(dirname "$0")/testdata/stdlibprobe" && pwd)
for t in $(grep -ho '^func Test[A-Za-z0-9]*' "$DIR"/*_test.go | sed 's/func //'); do
	printf '%s\t%s\n' "$t" "$(cd "$DIR" && "$GMC" check --strategy exhaustive --entry "$t" --time-limit 10s . 2>&1 | tail -1)"
done

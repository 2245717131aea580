# gmc — guided model checker for Go.

GO ?= go
BIN := bin/gmc

.PHONY: all build test vet demo bench clean

all: build

build:
	$(GO) build -o $(BIN) ./cmd/gmc

vet:
	$(GO) vet ./...

# The test command of the README (and of CI).
test: vet
	$(GO) test -timeout 80m ./...

# Builds gmc and finds the AB-BA deadlock of a benchmark, then replays it.
demo: build
	$(BIN) check --out /tmp/gmc-demo-trace.json ./benchmarks/deadlock; test $$? -eq 1
	$(BIN) replay /tmp/gmc-demo-trace.json; test $$? -eq 1

bench:
	$(GO) test -run '^$$' -bench . -benchtime 2x ./vm/

clean:
	rm -rf bin

package guide

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gmc-go/gmc/slice"
	"github.com/gmc-go/gmc/vm"
	"golang.org/x/tools/go/ssa"
)

// TestPayload: the payload abstraction merges the states that differ in
// the order of the appended values (an exhaustive search of the program
// where nothing reads them completes in fewer states, with the sources of
// the values and of the count kept), and a read of an abstracted value
// voids the search: its source is dropped and the panic that the value
// decides is found; so does an atomic add on an abstracted cell.
func TestPayload(t *testing.T) {
	exhaustive := func(args []string, srcs []ssa.Instruction) (*CheckResult, []ssa.Instruction, int) {
		prog, opts, e := loadMain(t, "./guide/testdata/payload", args)
		if srcs == nil {
			srcs = payloadSources(prog, slice.New(prog.SSA), e)
		} else {
			srcs = nil
		}
		w := &Warning{Show: []vm.Kind{vm.KindPanic}}
		res, kept, dropped, err := checkPayload(context.Background(), prog.Fset, w, srcs, time.Minute,
			func(ctx context.Context, limit time.Duration, p *vm.Payload) (*CheckResult, error) {
				o := opts
				o.Payload, o.Checks.Race = p, true
				return Check(ctx, prog, CheckConfig{Options: o, Entry: e, Strategy: Exhaustive, Seed: 1, Trials: 1,
					TimeLimit: limit, MaxDepth: 100000})
			})
		if err != nil {
			t.Fatal(err)
		}
		return res, kept, dropped
	}
	states := func(r *CheckResult) int { return r.Trials[0].Result.Stats.States }
	plain, _, _ := exhaustive(nil, []ssa.Instruction{})
	abs, kept, dropped := exhaustive(nil, nil)
	if plain.Verdict != VerdictNoError || abs.Verdict != VerdictNoError || !abs.Exhausted {
		t.Fatalf("verdicts %s (plain), %s (abstracted, exhausted %v), want no error both", plain.Verdict, abs.Verdict, abs.Exhausted)
	}
	var names []string
	for _, s := range kept {
		names = append(names, s.(*ssa.BinOp).Op.String())
	}
	slices.Sort(names)
	if dropped != 0 || strings.Join(names, " ") != "* * +" {
		t.Errorf("sources kept %v, %d dropped; want the count's +, the value's * and the tally's *, none dropped", names, dropped)
	}
	if states(abs) >= states(plain) {
		t.Errorf("abstracted search: %d states, plain: %d; want fewer", states(abs), states(plain))
	}
	t.Logf("exhaustive: %d states plain, %d abstracted", states(plain), states(abs))

	found, kept, dropped := exhaustive([]string{"read"}, nil)
	if found.Verdict != VerdictError || found.Best.Result.Final.Err().Kind != vm.KindPanic {
		t.Fatalf("with the values read: %s, want the panic", found.Verdict)
	}
	if dropped != 1 || len(kept) != 2 {
		t.Errorf("with the values read: %d sources kept, %d dropped; want the value's dropped", len(kept), dropped)
	}

	// sync/atomic's natives read the cell they add to: a violation too
	res, kept, dropped := exhaustive([]string{"atomic"}, nil)
	if res.Verdict != VerdictNoError || dropped != 1 || len(kept) != 2 {
		t.Errorf("atomic add of an abstracted value: %s, %d sources kept, %d dropped; want no error, the tally's dropped", res.Verdict, len(kept), dropped)
	}
}

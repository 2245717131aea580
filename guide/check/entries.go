package check

import (
	"context"

	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
)

// EntryOutcome is one entry's result in a check of several entries: its
// outcome, or the error that kept it from being checked (the entry does
// not resolve, an unsupported feature, an *InternalError).
type EntryOutcome struct {
	Listed  vm.Listed
	Outcome *Outcome
	Err     error
	// NotFound: the name did not resolve to an entry (vm.FindEntry's
	// error is Err).
	NotFound bool
}

// Hooks are what a caller of Entries does around each entry.
type Hooks struct {
	// Prepare builds the machine of entry e with the caller's VM options;
	// its error stops the whole check (a bad option is the same for every
	// entry).
	Prepare func(e vm.Entry) (Prepared, error)
	// Start is called before entry i is checked (nil: nothing).
	Start func(i int, se vm.Listed)
	// Done gets entry i's result; its error stops the whole check.
	Done func(i int, r EntryOutcome) error
}

// Entries checks each entry of sel in turn with cfg (Search), handing
// each result to h.Done. It returns the first error of h.Prepare or
// h.Done.
func Entries(ctx context.Context, prog *load.Program, sel []vm.Listed, cfg Config, h Hooks) error {
	for i, se := range sel {
		if h.Start != nil {
			h.Start(i, se)
		}
		r := EntryOutcome{Listed: se}
		e, err := vm.FindEntry(prog, se.Name)
		if err != nil {
			r.Err, r.NotFound = err, true
			if err := h.Done(i, r); err != nil {
				return err
			}
			continue
		}
		l, err := h.Prepare(e)
		if err != nil {
			return err
		}
		r.Outcome, r.Err = Search(ctx, l, cfg)
		if err := h.Done(i, r); err != nil {
			return err
		}
	}
	return nil
}

package vm

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// The child of a test that re-executes its test binary (exec_self.go): the
// same program on a machine of its own, with the Cmd's environment (and
// nothing of the host's), os.Args[1:] the Cmd's arguments, and the test
// that -test.run selects as its entry, run as go test's binary runs it.
//
// The child is concurrent too, and the parent's checks read what it wrote
// and its exit status, so the parent may be given an outcome only if it
// is the child's outcome under every schedule: the child's own search
// explores every schedule (depth first, with a visited set of states and
// what they wrote so far; scheduling points at synchronization operations
// with races checked, as the exhaustive search's, vm/../guide/syncpoints.go)
// and the outcome is used only when all of them end the same way. A child
// with two outcomes, one whose search does not end within childStates, or
// one with a data race, a hang, or an unsupported feature stops the parent
// as unsupported: the parent's verdict could otherwise rest on one of
// several outcomes. The outcomes are go test's: with -test.v "=== RUN"
// and the t.Log lines, "--- PASS"/"--- FAIL" and PASS/FAIL, exit status 1
// for a failed test; "panic: …" (as gmc reports the panic, without the
// goroutines' stacks) on the standard error and exit status 2 for a crash
// (an unrecovered panic, a deadlock, a fatal error). The t.Log lines come
// after the program's own output, not between its writes; durations are
// "(0.00s)"; testing.Verbose is true in a -test.v child.

// childStates bounds the states of a child's search: it runs inside the
// parent's transition, where the parent's time limit is not checked
// (tens of thousands of states take seconds).
const childStates = 50_000

// maxExecDepth bounds the children of children: a test that re-executes
// itself whatever its environment says would never end (in Go either).
const maxExecDepth = 3

// execSelf returns the index in the machine's table (execRun) of the
// outcome of the test binary run with argv and env, computing it the
// first time; why says why it cannot be given (unsupported).
func (m *Machine) execSelf(argv, env []string) (int, string) {
	key := strings.Join(argv, "\x00") + "\x01" + strings.Join(env, "\x00")
	m.execMu.Lock()
	if i, ok := m.execIndex[key]; ok {
		m.execMu.Unlock()
		return i, m.execWhy[i]
	}
	m.execMu.Unlock()
	r, why := m.runChild(argv[1:], env)
	m.execMu.Lock()
	defer m.execMu.Unlock()
	if i, ok := m.execIndex[key]; ok { // (computed meanwhile by another search)
		return i, m.execWhy[i]
	}
	if m.execIndex == nil {
		m.execIndex = map[string]int{}
	}
	i := len(m.execRuns)
	m.execIndex[key] = i
	m.execRuns = append(m.execRuns, r)
	m.execWhy = append(m.execWhy, why)
	return i, why
}

// execRun returns the outcome at index i of the machine's table (nil:
// none).
func (m *Machine) execRun(i int) *execResult {
	m.execMu.Lock()
	defer m.execMu.Unlock()
	if i < 0 || i >= len(m.execRuns) {
		return nil
	}
	return m.execRuns[i]
}

// childFlags are the test binary's flags a child understands.
type childFlags struct {
	run, list string
	verbose   bool
	listing   bool
}

// parseChildFlags reads the test binary's flags in args.
func parseChildFlags(args []string) (childFlags, string) {
	var f childFlags
	for _, a := range args {
		name, val, hasVal := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-"), "=")
		switch {
		case !strings.HasPrefix(a, "-"):
			return f, fmt.Sprintf("os/exec: the test binary with argument %q", a)
		case name == "test.run" && hasVal:
			f.run = val
		case name == "test.list" && hasVal:
			f.list, f.listing = val, true
		case name == "test.v" && (!hasVal || val == "true" || val == "test2json"):
			f.verbose = true
		case name == "test.v" && val == "false":
			f.verbose = false
		case name == "test.paniconexit0", name == "test.timeout", name == "test.count" && val == "1", name == "test.short":
		default:
			return f, fmt.Sprintf("os/exec: the test binary with flag %q", a)
		}
	}
	return f, ""
}

// runChild runs the test binary with args (os.Args[1:]) and env.
func (m *Machine) runChild(args, env []string) (*execResult, string) {
	if m.execDepth >= maxExecDepth {
		return nil, fmt.Sprintf("os/exec: a test binary re-executed %d levels deep", m.execDepth+1)
	}
	f, why := parseChildFlags(args)
	if why != "" {
		return nil, why
	}
	pattern := f.run
	if f.listing {
		pattern = f.list
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return &execResult{chunks: []OutputChunk{{FD: 2, Data: fmt.Sprintf("testing: invalid regexp for -test.run: %v\n", err)}}, code: 1}, ""
	}
	if strings.Contains(pattern, "/") {
		return nil, "os/exec: the test binary with a subtest pattern " + pattern
	}
	var match []string
	for _, fn := range m.prog.Tests() {
		if re.MatchString(fn.Name()) {
			match = append(match, fn.Name())
		}
	}
	if f.listing {
		var b strings.Builder
		for _, n := range match {
			b.WriteString(n + "\n")
		}
		return &execResult{chunks: []OutputChunk{{FD: 1, Data: b.String()}}}, ""
	}
	switch len(match) {
	case 0:
		return &execResult{chunks: []OutputChunk{{FD: 1, Data: "testing: warning: no tests to run\nPASS\n"}}}, ""
	case 1:
	default:
		return nil, fmt.Sprintf("os/exec: the test binary running %d tests (%s): one at a time only", len(match), strings.Join(match, ", "))
	}
	e, err := FindEntry(m.prog, match[0])
	if err != nil {
		return nil, "os/exec: " + err.Error()
	}
	return m.childSearch(e, args, env, f.verbose)
}

// childMachine returns the machine a child runs on: m's program, its
// arguments, its environment alone, m's recorded OS values.
func (m *Machine) childMachine(args, env []string) *Machine {
	o := Options{Sched: m.opts.Sched, Checks: Checks{Race: m.opts.Checks.Race}, Args: args,
		StepTime: m.opts.StepTime, TimerChoice: m.opts.TimerChoice, EntryGrace: m.opts.EntryGrace, Sanity: m.opts.Sanity}
	if o.Checks.Race && o.StepTime == 0 && !o.TimerChoice {
		o.Sched = SchedSync // (every race is reported: see the file comment)
	}
	c := New(m.prog, o)
	c.osIn = m.osIn
	c.execDepth = m.execDepth + 1
	var ov *envOverlay = &envOverlay{} // cleared: the host's environment is not the child's
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		ov = &envOverlay{next: ov, key: k, value: v, set: true}
	}
	c.env0 = ov
	return c
}

// childSearch explores every schedule of the child running entry e and
// returns its outcome when all end the same way.
func (m *Machine) childSearch(e Entry, args, env []string, verbose bool) (*execResult, string) {
	c := m.childMachine(args, env)
	type key struct{ h, out uint64 }
	visited := map[key]bool{}
	outcomes := map[string]*execResult{}
	var order []string
	stack := []*State{c.Start(e)}
	states := 0
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		cs := s.Choices()
		if s.Err() != nil || s.Exited() || len(cs) == 0 {
			r, why := childOutcome(s, e.Fn.Name(), verbose)
			if why != "" {
				return nil, why
			}
			k := fmt.Sprintf("%d\x00%s", r.code, r.text(0))
			if outcomes[k] == nil {
				outcomes[k] = r
				order = append(order, k)
			}
			continue
		}
		k := key{s.Hash(), s.writtenDigest()}
		if visited[k] {
			continue
		}
		visited[k] = true
		for i := len(cs) - 1; i >= 0; i-- {
			if states++; states > childStates {
				return nil, fmt.Sprintf("os/exec: the re-executed test's own search did not end within %d states", childStates)
			}
			stack = append(stack, c.Step(s, i))
		}
	}
	if len(order) != 1 {
		sort.Strings(order)
		var ex []string
		for _, k := range order[:min(2, len(order))] {
			ex = append(ex, fmt.Sprintf("%q", k))
		}
		return nil, fmt.Sprintf("os/exec: the re-executed test has %d outcomes (%s): each would be a choice of the parent, not modelled", len(order), strings.Join(ex, ", "))
	}
	return outcomes[order[0]], ""
}

// writtenDigest hashes what the run wrote so far and the test's log and
// failure: what a child's outcome holds besides its state.
func (s *State) writtenDigest() uint64 {
	h := hasher{h: fnvOffset}
	chunks, _ := s.OutputSince(0)
	for _, c := range chunks {
		h.int(int64(c.FD))
		h.str(c.Data)
	}
	if ts := s.test; ts != nil {
		h.byte(1)
		if ts.failed {
			h.byte(2)
		}
		for _, l := range ts.log {
			h.str(l)
		}
	}
	return h.h
}

// childOutcome is what go test's binary writes and its exit status for
// the child run that ended in s (why: it has none gmc gives).
func childOutcome(s *State, name string, verbose bool) (*execResult, string) {
	r := &execResult{}
	if verbose {
		r.chunks = append(r.chunks, OutputChunk{FD: 1, Data: "=== RUN   " + name + "\n"})
	}
	chunks, _ := s.OutputSince(0)
	r.chunks = append(r.chunks, chunks...)
	var logs []string
	failed := false
	if ts := s.test; ts != nil {
		logs, failed = ts.log, ts.failed
	}
	logText := func() string {
		var b strings.Builder
		for _, l := range logs {
			b.WriteString("    " + strings.ReplaceAll(l, "\n", "\n        ") + "\n")
		}
		return b.String()
	}
	out := func(fd int, text string) { r.chunks = append(r.chunks, OutputChunk{FD: fd, Data: text}) }
	err := s.Err()
	switch {
	case err == nil && !s.Exited():
		return nil, "os/exec: the re-executed test ended in a state gmc cannot classify"
	case err == nil || err.Kind == KindAssert:
		if err != nil || failed {
			r.code = 1
			if verbose {
				out(1, logText()+"--- FAIL: "+name+" (0.00s)\nFAIL\n")
			} else {
				out(1, "--- FAIL: "+name+" (0.00s)\n"+logText()+"FAIL\n")
			}
		} else if verbose && s.Skipped() {
			out(1, logText()+"--- SKIP: "+name+" (0.00s)\nPASS\n")
		} else if verbose {
			out(1, logText()+"--- PASS: "+name+" (0.00s)\nPASS\n")
		} else {
			out(1, "PASS\n")
		}
	case err.Kind == KindPanic:
		r.code = 2
		msg := err.Msg
		if !strings.HasPrefix(msg, "panic: ") {
			msg = "panic: " + msg
		}
		if len(err.Goroutines) > 0 {
			msg += goroutineDump(err.Goroutines[0])
		}
		if verbose && len(logs) > 0 {
			out(1, logText())
		}
		out(2, msg+"\n")
	case err.Kind == KindDeadlock || err.Kind == KindFatal:
		r.code = 2
		out(2, err.Msg+"\n")
	default:
		return nil, "os/exec: the re-executed test's run ended with " + string(err.Kind) + ": " + err.Msg
	}
	return r, ""
}

// goroutineDump is a goroutine's stack as a crash prints it (without the
// arguments and program counters).
func goroutineDump(g GoroutineInfo) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\n\ngoroutine %d [running]:", g.ID)
	for _, f := range g.Stack {
		fmt.Fprintf(&b, "\n%s(...)\n\t%s", f.Func, f.Pos)
	}
	return b.String()
}

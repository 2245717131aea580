package guide

import (
	"os"

	"github.com/gmc-go/gmc/vm"
)

// Symmetric choice reduction. At a state with k interchangeable workers
// (twins: an automorphism of the state swaps them, vm.State.Twins) the
// k successors by their alike choices are one state up to a renaming of
// goroutines: the state hash merges them already, but a search that runs
// all k transitions still pays k steps and k hashes for one state. The
// exhaustive searches (exhaustive, the preemption-bounded rounds, dfs)
// run the choices of one twin of each class, the representative, and
// leave out the alike choices of the others.
//
// Why no error is lost. Let π be an automorphism of state s that maps
// twin C to the representative R and fixes every goroutine outside their
// class (Twins proves one for any two twins of a class).
// An execution u from s that begins with C's choice, or that can be
// reordered to begin with it, has a mirror π(u) from s: the same steps
// by the renamed goroutines, which begins with R's alike choice (or can
// be reordered to) and ends in an error exactly when u does (errors do
// not depend on goroutine names; the program has seen none: Twins). So
// every error reachable through a left-out choice has a mirror through
// the representative's, and the search finds one of them, with a path
// of real steps that replays.
//
// With sleep sets (exhaustive): a sleeping choice z at s stands for
// executions explored elsewhere that begin with z. The mirror argument
// needs π(z) asleep for every z asleep: a left-out twin's execution u
// that no sleeping choice covers must have a mirror no sleeping choice
// covers, else the search may neither explore u nor its mirror. So only
// twins none of whose choices sleep take part: the representative is the
// first such twin, and a twin whose mirror sleeps is explored in full
// (a sleeping choice is not explored, so a twin of it that is awake must
// be; leaving it out because its sleeping mirror "was explored" would
// trust an exploration that the sleep set says happened from another
// state, of which π need not be an automorphism). π then keeps the sleep
// set (it moves only goroutines of the class, none of which has a
// sleeping choice: Twins is asked about those alone), and the usual
// sleep-set argument goes through with
// "explored" read as "explored or mirrored by an explored choice". The
// left-out choices are not added to the sleep sets of the later siblings
// (a choice sleeps only once explored), which explores more, never less.
// At a state reached again whose earlier visit must be completed (the
// state-caching rule's only set) nothing is left out.
//
// What the hash leaves out, the reduction leaves out too: the goroutines'
// spin probes and work counters (vm/time.go) are not hashed, so twins may
// differ in them, as two states the visited set merges may. Leaving out
// C's choice merges its successor into R's, a merge with a state that is
// not on the current path whose subtree is explored in full: a cross edge
// in cutCycle's terms (bounded.go), which cuts no firing of a timer that
// the exploration below R's successor does not meet (with its back edges
// flagged as before).
//
// With a preemption bound: choosing a goroutine costs a preemption unless
// it is the one that ran last (and did not yield); that goroutine is
// never a twin that is left out nor a representative (swapping it with a
// twin changes the cost; Twins is not asked about it, so π fixes it),
// the others cost the same, and the visited set
// names the preemptible goroutine by rank, as the hash does; so the
// bounded search from R's successor explores the mirror of every schedule
// from C's within the same budget.

// noSymmetry turns the reduction off (GMC_NO_SYMMETRY=1: measurements,
// comparisons).
var noSymmetry = os.Getenv("GMC_NO_SYMMETRY") != ""

// alikeChoice is a choice up to its goroutine: what twins' choices must
// share for one to stand for the other.
type alikeChoice struct {
	class  int
	kind   vm.ChoiceKind
	cas    int
	branch int
}

// twinSkips returns which of s's choices (choices, s.Choices()) a search
// may leave out as alike choices of a twin of a representative it
// explores, or nil when it may leave out none. eligible says which
// goroutines may take part (nil: all): those with a sleeping choice or
// that a switch from would not preempt are not. It counts the choices
// left out in the searcher's stats.
func (se *searcher) twinSkips(s *vm.State, choices []vm.Choice, eligible func(g int) bool) []bool {
	if se.cfg.NoSymmetry || noSymmetry || len(choices) < 2 {
		return nil
	}
	// only goroutines with an eligible choice can be twins that matter
	// (the proof costs a hash of the state a class): none unless two
	n, one := 0, -1
	for _, c := range choices {
		if c.Kind != vm.ChooseTimer && c.Kind != vm.ChooseBranch && c.G != one && (eligible == nil || eligible(c.G)) {
			n, one = n+1, c.G
		}
	}
	if n < 2 {
		return nil
	}
	classes := s.Twins(eligible, se.deadline())
	if len(classes) == 0 {
		return nil
	}
	classOf := make(map[int]int, 2*len(classes))
	for i, c := range classes {
		for _, g := range c {
			classOf[g] = i
		}
	}
	twinChoice := func(c vm.Choice) (int, bool) {
		if c.Kind == vm.ChooseTimer || c.Kind == vm.ChooseBranch {
			return 0, false
		}
		k, ok := classOf[c.G]
		if !ok || eligible != nil && !eligible(c.G) {
			return 0, false
		}
		return k, true
	}
	rep := make([]int, len(classes)) // the representative of each class (0: none yet)
	for _, c := range choices {
		if k, ok := twinChoice(c); ok && rep[k] == 0 {
			rep[k] = c.G
		}
	}
	repHas := map[alikeChoice]bool{}
	for _, c := range choices {
		if k, ok := twinChoice(c); ok && rep[k] == c.G {
			repHas[alikeChoice{k, c.Kind, c.Case, c.Branch}] = true
		}
	}
	var skip []bool
	for i, c := range choices {
		k, ok := twinChoice(c)
		if !ok || rep[k] == c.G || !repHas[alikeChoice{k, c.Kind, c.Case, c.Branch}] {
			continue
		}
		if skip == nil {
			skip = make([]bool, len(choices))
		}
		skip[i] = true
		se.twinsLeft++
	}
	return skip
}

// noSleeper returns the goroutines none of whose choices sleep in sleep
// (twinSkips's eligible for a sleep-set search).
func noSleeper(sleep []sleeper) func(g int) bool {
	if len(sleep) == 0 {
		return nil
	}
	return func(g int) bool {
		for _, z := range sleep {
			if z.key.g == g {
				return false
			}
		}
		return true
	}
}

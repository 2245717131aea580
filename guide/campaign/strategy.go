package campaign

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gmc-go/gmc/guide"
	"github.com/gmc-go/gmc/heuristics"
)

// Strategy is one searcher of a campaign: a search strategy and, for the
// guided search, its secondary heuristic and whether it refines. It is
// written "guided:pfsm", "guided:random", "guided:pfsm/no-refine", "rdfs", …
type Strategy struct {
	Search    guide.Strategy
	Heuristic heuristics.Secondary // the guided search's only
	NoRefine  bool                 // the guided search's only: no refinement (Fig. 2.6)
	// Eager runs every successor before ranking them (the seed's guided
	// search; guide.CheckConfig.Eager), the guided search's only.
	Eager bool
	// Restart starts the guided search again from the initial state after
	// every refinement (the seed's; guide.CheckConfig.RestartRefine).
	Restart bool
}

// Suffixes of a guided strategy: without refinement, with eager
// successors, restarting after refinements ("guided:pfsm/eager/restart"
// is the seed's search).
const (
	noRefineSuffix = "/no-refine"
	eagerSuffix    = "/eager"
	restartSuffix  = "/restart"
)

// String returns the strategy as ParseStrategies reads it.
func (s Strategy) String() string {
	if s.Search == guide.Guided {
		name := string(s.Search) + ":" + string(s.Heuristic)
		if s.NoRefine {
			name += noRefineSuffix
		}
		if s.Eager {
			name += eagerSuffix
		}
		if s.Restart {
			name += restartSuffix
		}
		return name
	}
	return string(s.Search)
}

// DefaultStrategies is the strategy list of a campaign without --strategies.
const DefaultStrategies = "guided:pfsm,guided:random,rdfs,random,dfs,exhaustive"

// ParseStrategies parses a comma-separated strategy list. "guided" alone
// means guided:pfsm; a heuristic is allowed after "guided" only, and may
// end in "/no-refine", "/eager" and "/restart".
func ParseStrategies(list string) ([]Strategy, error) {
	var out []Strategy
	seen := map[string]bool{}
	for _, f := range strings.Split(list, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		name, heur, hasHeur := strings.Cut(f, ":")
		s := Strategy{Search: guide.Strategy(name)}
		for {
			var a, b, c bool
			heur, a = strings.CutSuffix(heur, noRefineSuffix)
			heur, b = strings.CutSuffix(heur, eagerSuffix)
			heur, c = strings.CutSuffix(heur, restartSuffix)
			s.NoRefine, s.Eager, s.Restart = s.NoRefine || a, s.Eager || b, s.Restart || c
			if !a && !b && !c {
				break
			}
		}
		if (s.NoRefine || s.Eager || s.Restart) && heur == "" {
			heur = string(heuristics.SecPFSM)
		}
		valid := false
		for _, x := range guide.Strategies {
			valid = valid || x == s.Search
		}
		if !valid {
			return nil, fmt.Errorf("unknown strategy %q (want guided[:HEURISTIC], dfs, rdfs, random, bfs, exhaustive or dpor)", f)
		}
		switch {
		case s.Search == guide.Guided && !hasHeur:
			s.Heuristic = heuristics.SecPFSM
		case s.Search == guide.Guided:
			s.Heuristic = heuristics.Secondary(heur)
			switch s.Heuristic {
			case heuristics.SecPFSM, heuristics.SecFSM, heuristics.SecRandom, heuristics.SecPreferThreads:
			default:
				return nil, fmt.Errorf("unknown heuristic in %q (want pfsm, fsm, random or prefer-threads)", f)
			}
		case hasHeur:
			return nil, fmt.Errorf("strategy %q: only guided takes a heuristic", f)
		}
		if seen[s.String()] {
			return nil, fmt.Errorf("strategy %q given twice", s.String())
		}
		seen[s.String()] = true
		out = append(out, s)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no strategy given")
	}
	return out, nil
}

// Shard is a deterministic slice of a campaign's tasks: those whose index k
// has k mod Count = Index.
type Shard struct {
	Index, Count int
}

// String returns the shard as "i/n".
func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// Has reports whether task k belongs to the shard.
func (s Shard) Has(k int) bool { return s.Count <= 1 || k%s.Count == s.Index }

// ParseShard parses "i/n" with 0 ≤ i < n.
func ParseShard(v string) (Shard, error) {
	a, b, ok := strings.Cut(v, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return Shard{}, fmt.Errorf("bad shard %q: want i/n with 0 <= i < n, e.g. 0/4", v)
	}
	return Shard{Index: i, Count: n}, nil
}

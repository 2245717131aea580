// Package benchmarks holds gmc's benchmark suite: Go versions of the
// programs the main seed evaluates on (the IBM / Dwyer et al. concurrency
// benchmarks and the JDK 1.4 synchronized collections), each with a known
// bug, and a repaired twin of each (<name>_fixed) for counting false
// reports. Every model is a plain Go program or package in its own
// directory; none depends on gmc. suite.json lists the configurations the
// seed reports, in the format of DESIGN §5; Suite parses it. See README.md
// for the models, where their bugs are, and how often native runs hit them.
package benchmarks

import (
	_ "embed"
	"encoding/json"
)

// Config is one configuration of suite.json.
type Config struct {
	Name    string   `json:"name"`
	Pkg     string   `json:"pkg"`    // relative to the repository root, e.g. "./benchmarks/reorder"
	Entry   string   `json:"entry"`  // "main", or the name of a fuzz target
	Args    []string `json:"args"`   // os.Args[1:] for main; empty for a fuzz target
	Expect  string   `json:"expect"` // panic, deadlock, leak, race, assert, or none for a fixed twin
	Hard    bool     `json:"hard"`   // the seed's randomized DFS finds the error in under half of its 1-hour trials, or not at all
	SeedRef string   `json:"seed_ref"`
}

//go:embed suite.json
var suiteJSON []byte

// Suite returns the configurations of suite.json.
func Suite() ([]Config, error) {
	var cs []Config
	err := json.Unmarshal(suiteJSON, &cs)
	return cs, err
}

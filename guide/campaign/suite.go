package campaign

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"

	"github.com/gmc-go/gmc/benchmarks"
)

// LoadSuite reads a suite file in the format of benchmarks/suite.json
// (DESIGN §5) and returns its configurations and the directory their pkg
// paths are relative to: the root of the module that holds the file. With
// path "", it returns the suite built into gmc (benchmarks.Suite) and the
// root of the module of the current directory, which must hold benchmarks/.
func LoadSuite(path string) ([]benchmarks.Config, string, error) {
	if path == "" {
		cs, err := benchmarks.Suite()
		if err != nil {
			return nil, "", err
		}
		wd, err := os.Getwd()
		if err != nil {
			return nil, "", err
		}
		root := moduleRoot(wd)
		if _, err := os.Stat(filepath.Join(root, "benchmarks", "suite.json")); err != nil {
			return nil, "", fmt.Errorf("no benchmarks/suite.json in the module of %s: run gmc bench in the gmc repository, or give a SUITE.json", wd)
		}
		return cs, root, nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, "", err
	}
	var cs []benchmarks.Config
	if err := json.Unmarshal(b, &cs); err != nil {
		return nil, "", fmt.Errorf("%s: %v (want a JSON list of {name, pkg, entry, args, expect, hard, seed_ref})", path, err)
	}
	seen := map[string]bool{}
	for i, c := range cs {
		if c.Name == "" || c.Pkg == "" {
			return nil, "", fmt.Errorf("%s: configuration %d has no name or no pkg", path, i+1)
		}
		if seen[c.Name] {
			return nil, "", fmt.Errorf("%s: configuration %q appears twice", path, c.Name)
		}
		seen[c.Name] = true
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, "", err
	}
	return cs, moduleRoot(filepath.Dir(abs)), nil
}

// moduleRoot returns the nearest directory at or above dir holding a
// go.mod, or dir itself.
func moduleRoot(dir string) string {
	for d := dir; ; {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
		up := filepath.Dir(d)
		if up == d {
			return dir
		}
		d = up
	}
}

// Filter keeps the configurations whose name matches the regular
// expression re (all of them for "").
func Filter(cs []benchmarks.Config, re string) ([]benchmarks.Config, error) {
	if re == "" {
		return cs, nil
	}
	rx, err := regexp.Compile(re)
	if err != nil {
		return nil, fmt.Errorf("bad --filter: %v", err)
	}
	var out []benchmarks.Config
	for _, c := range cs {
		if rx.MatchString(c.Name) {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("--filter %q matches no configuration", re)
	}
	return out, nil
}

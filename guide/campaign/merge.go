package campaign

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
)

// ReadDir reads a campaign output directory: its manifest and records.
func ReadDir(dir string) (Manifest, []Record, error) {
	var man Manifest
	b, err := os.ReadFile(filepath.Join(dir, "campaign.json"))
	if err != nil {
		return man, nil, fmt.Errorf("%s is not a gmc bench output directory: %w", dir, err)
	}
	if err := json.Unmarshal(b, &man); err != nil {
		return man, nil, fmt.Errorf("%s: %w", filepath.Join(dir, "campaign.json"), err)
	}
	fh, err := os.Open(filepath.Join(dir, "results.jsonl"))
	if err != nil {
		return man, nil, err
	}
	defer fh.Close()
	var recs []Record
	sc := bufio.NewScanner(fh)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for line := 1; sc.Scan(); line++ {
		var r Record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return man, nil, fmt.Errorf("%s:%d: %w", filepath.Join(dir, "results.jsonl"), line, err)
		}
		recs = append(recs, r)
	}
	return man, recs, sc.Err()
}

// MergeOptions qualify a merge.
type MergeOptions struct {
	// AllowMissing merges even when shards or trials are missing (an
	// interrupted shard); the summary counts the trials present.
	AllowMissing bool
	// Strategies, if set, keeps only these strategies of the campaign, in
	// this order: a view such as the seed's Table 4.1 (guided:random,
	// guided:fsm, guided:pfsm) of a larger campaign.
	Strategies []string
}

// Merge combines the outputs of the shards of one campaign (every shard
// i/n of the same n, once) into out: the same results.jsonl, summary and
// plots that one unsharded run writes. Missing tasks are an error unless
// opts.AllowMissing is set. Merging the single directory of an unsharded
// run rewrites its summary and plots (with opts.Strategies, a view of it).
func Merge(dirs []string, out string, opts MergeOptions) (Manifest, []Record, error) {
	allowMissing := opts.AllowMissing
	var (
		man    Manifest
		recs   []Record
		shards = map[int]string{}
		count  int
	)
	for i, d := range dirs {
		m, rs, err := ReadDir(d)
		if err != nil {
			return man, nil, err
		}
		sh, err := ParseShard(m.Shard)
		if err != nil {
			return man, nil, fmt.Errorf("%s: %w", d, err)
		}
		if i == 0 {
			man, count = m, sh.Count
		} else {
			m2 := m
			m2.Shard = man.Shard
			if !reflect.DeepEqual(m2, man) {
				return man, nil, fmt.Errorf("%s and %s are not shards of one campaign (suite, strategies, trials, seed or limits differ)", dirs[0], d)
			}
			if sh.Count != count {
				return man, nil, fmt.Errorf("%s is shard %s, %s is of %d shards", d, m.Shard, dirs[0], count)
			}
		}
		if prev, ok := shards[sh.Index]; ok {
			return man, nil, fmt.Errorf("shard %s given twice: %s and %s", m.Shard, prev, d)
		}
		shards[sh.Index] = d
		for _, r := range rs {
			if !sh.Has(r.Task) {
				return man, nil, fmt.Errorf("%s: task %d does not belong to shard %s", d, r.Task, m.Shard)
			}
		}
		recs = append(recs, rs...)
	}
	if len(dirs) == 0 {
		return man, nil, fmt.Errorf("no directory to merge")
	}
	if len(shards) != count && !allowMissing {
		return man, nil, fmt.Errorf("%d of %d shards given", len(shards), count)
	}
	if len(opts.Strategies) > 0 {
		keep := map[string]bool{}
		for _, v := range opts.Strategies {
			if !slices.Contains(man.Strategies, v) {
				return man, nil, fmt.Errorf("strategy %q is not in the campaign (it has %s)", v, strings.Join(man.Strategies, ", "))
			}
			keep[v] = true
		}
		recs = slices.DeleteFunc(recs, func(r Record) bool { return !keep[r.Strategy] })
		man.Strategies = opts.Strategies
		man.Tasks = len(man.Configs) * len(man.Strategies) * man.Trials
	}
	sort.Slice(recs, func(i, j int) bool { return recs[i].Task < recs[j].Task })
	for i := 1; i < len(recs); i++ {
		if recs[i].Task == recs[i-1].Task {
			return man, nil, fmt.Errorf("task %d appears twice", recs[i].Task)
		}
	}
	if len(recs) != man.Tasks && !allowMissing {
		return man, nil, fmt.Errorf("%d of %d trials present (an interrupted shard?); rerun it, or merge with --allow-missing", len(recs), man.Tasks)
	}
	man.Shard = "0/1"
	if err := os.MkdirAll(out, 0o755); err != nil {
		return man, nil, err
	}
	if err := writeJSONFile(filepath.Join(out, "campaign.json"), man); err != nil {
		return man, nil, err
	}
	fh, err := os.Create(filepath.Join(out, "results.jsonl"))
	if err != nil {
		return man, nil, err
	}
	w := bufio.NewWriter(fh)
	for i := range recs {
		if err := writeRecord(w, &recs[i]); err != nil {
			fh.Close()
			return man, nil, err
		}
	}
	if err := w.Flush(); err != nil {
		fh.Close()
		return man, nil, err
	}
	if err := fh.Close(); err != nil {
		return man, nil, err
	}
	return man, recs, WriteReport(out, man, recs)
}

package main

import "testing"

// TestReplayCommand: the replay command of an error is gmc replay of its
// trace file, or else this check narrowed to the entry, without the
// output flags.
func TestReplayCommand(t *testing.T) {
	cases := []struct {
		args        []string
		entry, file string
		want        string
	}{
		{[]string{"--entry", "all", "./p"}, "TestA", "out/TestA.json", "gmc replay out/TestA.json"},
		{[]string{"--entry", "all", "./p"}, "TestA", "my traces/TestA.json", "gmc replay 'my traces/TestA.json'"},
		{[]string{"--seed", "3", "--entry=Test.*", "--sarif", "x.sarif", "--json", "--timeline=t", "--out", "o", "./p"}, "TestB", "",
			"gmc check --entry TestB --seed 3 ./p"},
		{[]string{"-strategy", "dfs", "./p", "--", "a b", "c"}, "main", "", "gmc check --entry main -strategy dfs ./p -- 'a b' c"},
	}
	for _, c := range cases {
		f := &checkFlags{args: append([]string{"gmc", "check"}, c.args...)}
		if got := replayCommand(f, c.entry, c.file); got != c.want {
			t.Errorf("replayCommand(%q, %s, %q) = %q, want %q", c.args, c.entry, c.file, got, c.want)
		}
	}
}

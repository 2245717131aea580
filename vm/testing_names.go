package vm

import (
	"fmt"
	"strconv"
)

// Test names as go test makes them. Each *testing.T holds its own name in
// testing.common.name: a top-level test's is the entry's (the cell is
// left empty and testNameOf falls back to it), a subtest's is its
// parent's name, a slash and the name given to t.Run rewritten and made
// unique as testing's matcher does (spaces become underscores, unprintable
// runes are quoted, a repeated name gets #01, #02, …), and the *testing.T
// that synctest.Test passes to its function has the name of the test that
// called it. The counts that make names unique are the run's state
// (testState.subNames, copied on write).

// testNameOf is t.Name of the *testing.T at tp.
func (t *thread) testNameOf(tp Pointer) string {
	if tp.Obj != 0 {
		if p, _, ok := t.testCell(tp, "name"); ok {
			if s, _ := t.cell(p, 0).(string); s != "" {
				return s
			}
		}
	}
	if t.s.test != nil {
		return t.s.test.name
	}
	return ""
}

// testSetName sets the name of the *testing.T at tp.
func (t *thread) testSetName(tp Pointer, name string) {
	if p, _, ok := t.testCell(tp, "name"); ok {
		t.setCell(p, 0, name)
	}
}

// subtestName is the name t.Run(sub, f) gives its subtest under parent,
// recorded so that the next subtest of the same name gets another.
func (t *thread) subtestName(parent, sub string) string {
	old := t.s.test
	ts := &testState{name: parent}
	if old != nil {
		*ts = *old
	}
	ts.subNames = make(map[string]int, len(ts.subNames)+1)
	if old != nil {
		for k, v := range old.subNames {
			ts.subNames[k] = v
		}
	}
	t.s.test = ts
	name := parent + "/" + rewriteSubtestName(sub)
	empty := sub == ""
	for {
		next, exists := ts.subNames[name]
		if !empty && !exists {
			ts.subNames[name] = 1
			return name
		}
		ts.subNames[name] = next + 1
		name = fmt.Sprintf("%s#%02d", name, next)
		empty = false
	}
}

// rewriteSubtestName is testing's rewrite of a name given to t.Run.
func rewriteSubtestName(s string) string {
	b := make([]byte, 0, len(s))
	for _, r := range s {
		switch {
		case isTestNameSpace(r):
			b = append(b, '_')
		case !strconv.IsPrint(r):
			q := strconv.QuoteRune(r)
			b = append(b, q[1:len(q)-1]...)
		default:
			b = append(b, string(r)...)
		}
	}
	return string(b)
}

// isTestNameSpace reports the runes testing's isSpace counts as spaces.
func isTestNameSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0x85, 0xA0, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000:
		return true
	}
	return r >= 0x2000 && r <= 0x200A
}

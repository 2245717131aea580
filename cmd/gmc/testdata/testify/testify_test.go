// Package testifycase holds tests asserting with testify (loaded from the
// module cache; cmd/gmc's TestTestify skips when it is not there).
package testifycase

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type point struct {
	X, Y int
	Name string
	tags []string
}

// TestStructsEqual passes: testify's Equal, EqualValues, Len, Nil,
// Contains, ElementsMatch, Zero and a JSON round trip.
func TestStructsEqual(t *testing.T) {
	a := point{1, 2, "a", []string{"x"}}
	assert.Equal(t, a, point{1, 2, "a", []string{"x"}})
	require.EqualValues(t, int32(3), int64(3))
	assert.Len(t, []int{1, 2}, 2)
	var err error
	assert.Nil(t, err)
	assert.Contains(t, map[string]int{"k": 1}, "k")
	assert.ElementsMatch(t, []int{3, 1, 2}, []int{1, 2, 3})
	assert.Zero(t, point{})
	b, err := json.Marshal(map[string]any{"x": []int{1, 2}})
	require.NoError(t, err)
	assert.JSONEq(t, `{"x":[1,2]}`, string(b))
}

// TestStructsDiffer fails: the structs differ in Y.
func TestStructsDiffer(t *testing.T) {
	assert.Equal(t, point{X: 1, Y: 2, Name: "a"}, point{X: 1, Y: 3, Name: "a"})
}

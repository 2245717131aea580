package pkg

import "testing"

func TestAlphaRuns(t *testing.T) { Alpha() }

func TestGamma(t *testing.T) { Gamma() }

func FuzzBeta(f *testing.F) { f.Fuzz(func(t *testing.T, x int) { Beta() }) }

func helper(t *testing.T) {}

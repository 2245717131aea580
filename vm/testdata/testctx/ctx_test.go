package testctx

import (
	"sync"
	"testing"
)

func TestContextOnly(t *testing.T) {
	ctx := t.Context()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); _ = ctx.Err() }()
	wg.Wait()
	if ctx.Err() != nil {
		t.Fatal("canceled early")
	}
}

package vm_test

import "testing"

// TestWaitGroupGoBlocks: functions run by sync.WaitGroup.Go block on a
// channel and on a sync.Cond and are woken by main, printing what go run
// prints. The body now runs in the goroutine's own frames; run inside the
// Go native, its Cond.Wait did not block, and smallnest/ringbuffer's
// TestRingBuffer_Copy_ReadError got a false deadlock (--strategy dfs) or an
// internal error in Broadcast (guided). This small program passed before
// the change too (its exhaustive search: 29 states then, 145 now, the
// bodies' blocking operations being scheduling points).
func TestWaitGroupGoBlocks(t *testing.T) { checkGoRunOutput(t, "testdata/wggo") }

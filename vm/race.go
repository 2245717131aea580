package vm

// vclock is a vector clock: goroutine id -> logical time.
type vclock map[int]uint64

// raceState is the happens-before bookkeeping of the race detector.
type raceState struct{}

func newRaceState() *raceState                                       { return &raceState{} }
func (r *raceState) clone() *raceState                               { return r }
func (t *thread) raceAccess(fr *frame, p Pointer, n int, write bool) {}
func (t *thread) raceGo(g *goroutine)                                {}
func (t *thread) raceSync(obj ObjID, g int)                          {}
func (t *thread) raceRelease(obj ObjID)                              {}
func (t *thread) raceReleaseMerge(obj ObjID)                         {}
func (t *thread) raceAcquire(obj ObjID)                              {}
func (t *thread) raceAcquireFrom(g int)                              {}

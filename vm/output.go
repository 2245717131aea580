package vm

import "strings"

// outChunk is a piece of program output; chunks form an immutable list
// shared between states (newest first).
type outChunk struct {
	prev *outChunk
	fd   int // 1 stdout, 2 stderr
	data string
	seq  int // number of chunks up to and including this one
	// sum hashes the standard output up to this chunk (an example's
	// state hash reads it: example.go)
	sum uint64
}

func (s *State) write(fd int, data string) {
	if data == "" {
		return
	}
	seq, sum := 1, uint64(fnvOffset)
	if s.out != nil {
		seq, sum = s.out.seq+1, s.out.sum
	}
	if fd == 1 {
		for i := 0; i < len(data); i++ {
			sum = (sum ^ uint64(data[i])) * fnvPrime
		}
	}
	s.out = &outChunk{prev: s.out, fd: fd, data: data, seq: seq, sum: sum}
}

// OutputChunk is one write of the program.
type OutputChunk struct {
	FD   int
	Data string
}

// OutputSince returns the program output written after the first n chunks,
// oldest first, and the new chunk count.
func (s *State) OutputSince(n int) ([]OutputChunk, int) {
	var rev []OutputChunk
	total := 0
	if s.out != nil {
		total = s.out.seq
	}
	for c := s.out; c != nil && c.seq > n; c = c.prev {
		rev = append(rev, OutputChunk{FD: c.fd, Data: c.data})
	}
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	return rev, total
}

// outputChunks is the number of chunks written so far.
func (s *State) outputChunks() int {
	if s.out == nil {
		return 0
	}
	return s.out.seq
}

// Output returns everything the program wrote to fd (1 or 2; 0 = both).
func (s *State) Output(fd int) string { return s.outputSince(0, fd) }

// outputSince is what the program wrote to fd (1 or 2; 0 = both) after
// the first n chunks.
func (s *State) outputSince(n, fd int) string {
	chunks, _ := s.OutputSince(n)
	var b strings.Builder
	for _, c := range chunks {
		if fd == 0 || c.FD == fd {
			b.WriteString(c.Data)
		}
	}
	return b.String()
}

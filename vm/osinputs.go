package vm

import (
	"maps"
	"os"
	"sort"
	"strings"
	"sync"
)

// The values a program reads from the operating system that are not files:
// its environment, its executable's path, its working directory, host
// name and user (os/user.Current). A machine reads each from the host the first time a run asks and
// then gives every run the same value; the values read are recorded in a
// counterexample's trace (OSInputs) so that `gmc replay` on another host,
// or with another environment, sees what the search saw.

// OSInputs are the recorded values. A variable of Env that was unset is
// recorded with a nil value.
type OSInputs struct {
	Env        map[string]*string `json:"env,omitempty"`
	Environ    []string           `json:"environ,omitempty"` // the whole environment, when the program listed it
	Executable *string            `json:"executable,omitempty"`
	Getwd      *string            `json:"getwd,omitempty"`
	Hostname   *string            `json:"hostname,omitempty"`
	User       *OSUser            `json:"user,omitempty"` // os/user.Current (natives_osuser.go)
	// IDs are the process's ids (syscall.Getpid, Getppid, Getuid,
	// Geteuid, Getgid, Getegid), by the function's name.
	IDs map[string]int `json:"ids,omitempty"`
	// Statfs are the answers of statfs(2), by host path (natives_statfs.go).
	Statfs map[string]FSStat `json:"statfs,omitempty"`
}

// osInputs is a machine's record, safe for concurrent use (the states of
// a machine may run in parallel).
type osInputs struct {
	mu sync.Mutex
	in OSInputs
}

// newOSInputs starts a record from the recorded values of a trace (nil:
// nothing recorded yet).
func newOSInputs(from *OSInputs) *osInputs {
	r := &osInputs{in: OSInputs{Env: map[string]*string{}}}
	if from == nil {
		return r
	}
	for k, v := range from.Env {
		r.in.Env[k] = v
	}
	r.in.Environ = append([]string(nil), from.Environ...)
	r.in.Executable, r.in.Getwd, r.in.Hostname, r.in.User = from.Executable, from.Getwd, from.Hostname, from.User
	if from.IDs != nil {
		r.in.IDs = map[string]int{}
		for k, v := range from.IDs {
			r.in.IDs[k] = v
		}
	}
	if from.Statfs != nil {
		r.in.Statfs = maps.Clone(from.Statfs)
	}
	return r
}

// snapshot copies the record.
func (r *osInputs) snapshot() *OSInputs {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.in.Env) == 0 && r.in.Environ == nil && r.in.Executable == nil && r.in.Getwd == nil && r.in.Hostname == nil && r.in.User == nil && r.in.IDs == nil && r.in.Statfs == nil {
		return nil
	}
	c := &OSInputs{Env: map[string]*string{}, Environ: append([]string(nil), r.in.Environ...),
		Executable: r.in.Executable, Getwd: r.in.Getwd, Hostname: r.in.Hostname, User: r.in.User}
	for k, v := range r.in.Env {
		c.Env[k] = v
	}
	if r.in.IDs != nil {
		c.IDs = map[string]int{}
		for k, v := range r.in.IDs {
			c.IDs[k] = v
		}
	}
	c.Statfs = maps.Clone(r.in.Statfs)
	if len(c.Env) == 0 {
		c.Env = nil
	}
	return c
}

// lookupEnv is the host's value of an environment variable, recorded.
func (r *osInputs) lookupEnv(key string) (string, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if v, ok := r.in.Env[key]; ok {
		if v == nil {
			return "", false
		}
		return *v, true
	}
	if r.in.Environ != nil {
		// recorded as a whole: a variable not in it was unset
		for _, kv := range r.in.Environ {
			if k, v, _ := strings.Cut(kv, "="); k == key {
				return v, true
			}
		}
		return "", false
	}
	v, ok := os.LookupEnv(key)
	if ok {
		r.in.Env[key] = &v
	} else {
		r.in.Env[key] = nil
	}
	return v, ok
}

// environ is the host's whole environment, recorded.
func (r *osInputs) environ() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.in.Environ == nil {
		env := os.Environ()
		// the variables already read keep the values the runs saw
		seen := map[string]bool{}
		for i, kv := range env {
			k, _, _ := strings.Cut(kv, "=")
			if v, ok := r.in.Env[k]; ok {
				seen[k] = true
				if v != nil {
					env[i] = k + "=" + *v
				} else {
					env[i] = ""
				}
			}
		}
		out := env[:0]
		for _, kv := range env {
			if kv != "" {
				out = append(out, kv)
			}
		}
		for k, v := range r.in.Env {
			if v != nil && !seen[k] {
				out = append(out, k+"="+*v)
			}
		}
		sort.Strings(out)
		r.in.Environ = out
	}
	return append([]string(nil), r.in.Environ...)
}

// value returns the recorded value *slot, reading it with read the first
// time.
func (r *osInputs) value(slot func(*OSInputs) **string, read func() string) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	p := slot(&r.in)
	if *p == nil {
		v := read()
		*p = &v
	}
	return **p
}

// id is the recorded process id named name, read with read the first
// time.
func (r *osInputs) id(name string, read func() int) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	if v, ok := r.in.IDs[name]; ok {
		return v
	}
	if r.in.IDs == nil {
		r.in.IDs = map[string]int{}
	}
	v := read()
	r.in.IDs[name] = v
	return v
}

// RecordedOS returns the values the machine's runs read from the
// operating system so far (nil: none), for a trace.
func (m *Machine) RecordedOS() *OSInputs { return m.osIn.snapshot() }

// envOverlay is a run's changes to its environment (os.Setenv, Unsetenv,
// Clearenv, t.Setenv), newest first; it is shared between states and never
// changed in place.
type envOverlay struct {
	next  *envOverlay
	key   string
	value string
	set   bool // false: unset (key "" with set false: Clearenv)
}

// lookupEnv is the program's view of an environment variable.
func (t *thread) lookupEnv(key string) (string, bool) {
	for e := t.s.env; e != nil; e = e.next {
		if e.key == key {
			return e.value, e.set
		}
		if e.key == "" && !e.set {
			return "", false // cleared
		}
	}
	if v, ok := t.m.opts.Env[key]; ok {
		return v, true
	}
	return t.m.osIn.lookupEnv(key)
}

// setEnv records a change of the program's environment.
func (t *thread) setEnv(key, value string, set bool) {
	t.s.env = &envOverlay{next: t.s.env, key: key, value: value, set: set}
}

// environ is the program's whole environment ("KEY=value", sorted).
func (t *thread) environ() []string {
	vars := map[string]string{}
	cleared := false
	var changes []*envOverlay
	for e := t.s.env; e != nil; e = e.next {
		if e.key == "" && !e.set {
			cleared = true
			break
		}
		changes = append(changes, e)
	}
	if !cleared {
		for _, kv := range t.m.osIn.environ() {
			k, v, _ := strings.Cut(kv, "=")
			vars[k] = v
		}
		for k, v := range t.m.opts.Env {
			vars[k] = v
		}
	}
	for i := len(changes) - 1; i >= 0; i-- {
		e := changes[i]
		if e.set {
			vars[e.key] = e.value
		} else {
			delete(vars, e.key)
		}
	}
	out := make([]string, 0, len(vars))
	for k, v := range vars {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}

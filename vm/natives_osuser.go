package vm

import (
	"go/types"
	"os/user"
)

// Natives of package os/user: user.Current, the account the program runs
// as, read from the host once per machine and recorded in the trace
// (OSInputs.User) like os.Hostname, so that `gmc replay` on another host
// sees the same user. The other functions of os/user (lookups by name or
// id, groups) stay at the OS boundary.

func init() {
	def("os/user.Current", osUserCurrent)
}

// OSUser is the recorded value of os/user.Current.
type OSUser struct {
	Uid      string `json:"uid"`
	Gid      string `json:"gid"`
	Username string `json:"username"`
	Name     string `json:"name"`
	HomeDir  string `json:"home_dir"`
}

// currentUser is the host's user.Current, recorded (nil: the host's
// lookup failed).
func (r *osInputs) currentUser() *OSUser {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.in.User == nil {
		u := &OSUser{}
		if hu, err := user.Current(); err == nil {
			*u = OSUser{Uid: hu.Uid, Gid: hu.Gid, Username: hu.Username, Name: hu.Name, HomeDir: hu.HomeDir}
		}
		r.in.User = u
	}
	if *r.in.User == (OSUser{}) {
		return nil
	}
	return r.in.User
}

// osUserCurrent is os/user.Current: a new *user.User with the recorded
// fields (Go caches one User and returns it each time; a program that
// compares the pointers of two calls is not modelled).
func osUserCurrent(t *thread, args []Value) (Value, ctl) {
	u := t.m.osIn.currentUser()
	rt := t.m.namedType("os/user", "User")
	if u == nil || rt == nil {
		return nil, t.unsupported(t.g.top, "OS boundary: os/user.Current (the host's lookup failed)")
	}
	p := t.alloc(rt)
	st := rt.T.Underlying().(*types.Struct)
	vals := map[string]string{"Uid": u.Uid, "Gid": u.Gid, "Username": u.Username, "Name": u.Name, "HomeDir": u.HomeDir}
	for i := 0; i < st.NumFields(); i++ {
		if v, ok := vals[st.Field(i).Name()]; ok {
			t.setCell(p, int32(rt.Fields[i]), v)
		}
	}
	return Tuple{p, Iface{}}, ctlNext
}

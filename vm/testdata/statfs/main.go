// Command statfs asks statfs(2) what file system paths are on, as
// prometheus/procfs (is /proc procfs?) and go-zero's core/stat (is
// /sys/fs/cgroup cgroup v2?) do.
package main

import (
	"fmt"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

func main() {
	var st syscall.Statfs_t
	err := syscall.Statfs("/", &st)
	fmt.Println("root", st.Type, st.Bsize, err)
	var ust unix.Statfs_t
	err = unix.Statfs("/", &ust)
	fmt.Println("unix", ust.Type, ust.Bsize, err)
	err = syscall.Statfs("/no/such/dir", &st)
	fmt.Println("missing", err)
	dir, err := os.MkdirTemp("", "statfs")
	if err != nil {
		fmt.Println(err)
		return
	}
	err = unix.Statfs(dir, &ust)
	fmt.Println("made", ust.Type, err)
	f, err := os.Open("/")
	if err != nil {
		fmt.Println(err)
		return
	}
	err = unix.Fstatfs(int(f.Fd()), &ust)
	fmt.Println("fd", ust.Type, err)
}

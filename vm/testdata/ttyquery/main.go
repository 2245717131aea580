// Command ttyquery asks whether descriptors are terminals as
// sirupsen/logrus (unix.IoctlGetTermios with TCGETS), golang.org/x/term
// and mattn/go-isatty do. Under gmc every descriptor is the VM's own: none
// is a terminal. Go's output, with the standard streams not terminals:
// `go run ./vm/testdata/ttyquery </dev/null 2>&1 | cat`. With the
// argument "flock" it makes a system call gmc does not model.
package main

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
	"golang.org/x/term"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "flock" {
		fmt.Println(unix.Flock(1, unix.LOCK_SH|unix.LOCK_NB))
		return
	}
	for fd := 0; fd < 3; fd++ {
		_, err := unix.IoctlGetTermios(fd, unix.TCGETS)
		fmt.Println(fd, err, term.IsTerminal(fd))
	}
	_, err := unix.IoctlGetWinsize(2, unix.TIOCGWINSZ)
	fmt.Println("winsize:", err)
	f, err := os.Open("main.go")
	if err != nil {
		fmt.Println(err)
		return
	}
	fd := int(f.Fd())
	_, err = unix.IoctlGetTermios(fd, unix.TCGETS)
	fmt.Println("file:", err)
	f.Close()
	_, err = unix.IoctlGetTermios(fd, unix.TCGETS)
	fmt.Println("closed:", err)
}

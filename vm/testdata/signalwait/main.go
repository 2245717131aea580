// Program signalwait registers a channel with os/signal in its init and
// waits on it in a goroutine, as go-zero's core/proc does: no signal comes,
// and the waiting goroutine is not leaked (a signal could come). With the
// argument "stop", main unregisters the channel first (signal.Stop):
// then nothing can wake the goroutine, a leak.
package main

import (
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

var signals = make(chan os.Signal, 1)

func init() {
	c := make(chan os.Signal, 1)
	signal.Notify(c, syscall.SIGUSR1, syscall.SIGTERM)
	signals = c
	go func() {
		for s := range c {
			fmt.Println("signal:", s)
		}
	}()
}

func main() {
	fmt.Println("ignored:", signal.Ignored(syscall.SIGUSR1))
	if len(os.Args) > 1 && os.Args[1] == "stop" {
		signal.Stop(signals)
		signals = nil
	}
	defer func() { fmt.Println("nil channel:", recover()) }()
	signal.Notify(nil, syscall.SIGUSR2)
}

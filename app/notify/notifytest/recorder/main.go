// Command recorder is a notification server for the smoke test: it owns
// org.freedesktop.Notifications on the session bus (DBUS_SESSION_BUS_ADDRESS)
// and appends each Notify call to the file named by its argument, one JSON
// object a line. It prints "ready" once it owns the name. SIGUSR1 clicks
// the newest notification (ActionInvoked "default"), as a person would.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"sync"
	"syscall"

	"github.com/visdesktop/vis/app/notify/notifytest"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: recorder FILE")
		os.Exit(2)
	}
	f, err := os.OpenFile(os.Args[1], os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		fmt.Fprintln(os.Stderr, "recorder:", err)
		os.Exit(1)
	}
	s, err := notifytest.Serve(os.Getenv("DBUS_SESSION_BUS_ADDRESS"))
	if err != nil {
		fmt.Fprintln(os.Stderr, "recorder:", err)
		os.Exit(1)
	}
	var mu sync.Mutex
	enc := json.NewEncoder(f)
	s.OnCall = func(c notifytest.Call) {
		mu.Lock()
		defer mu.Unlock()
		_ = enc.Encode(c)
	}
	fmt.Println("ready")
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, os.Interrupt, syscall.SIGUSR1)
	for got := range sig {
		if got != syscall.SIGUSR1 {
			break
		}
		if calls := s.Calls(); len(calls) > 0 {
			if err := s.Click(calls[len(calls)-1].ID); err != nil {
				fmt.Fprintln(os.Stderr, "recorder: click:", err)
			}
		}
	}
	s.Close()
}
